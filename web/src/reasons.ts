// The engine's refusal reasons (English) in German: the common ones by
// pattern; anything else is shown as the engine wrote it.

const PATTERNS: [RegExp, string][] = [
  [/^you must draw first$/, "Du musst zuerst eine Karte ziehen."],
  [/^you have already drawn this turn$/, "Du hast in diesem Zug schon gezogen."],
  [/^it is seat (\d+)'s turn, not seat (\d+)'s$/, "Platz $1 ist am Zug, nicht Platz $2."],
  [/^(.+) is not in your hand$/, "$1 hast du nicht auf der Hand."],
  [/^(.+) is not a valid meld: (.+)$/, "$1 ist keine gültige Kombination: $2"],
  [/^(.+) cannot be laid off on (.+): (.+)$/, "$1 kann nicht an $2 angelegt werden: $3"],
  [/^the discard pile is empty$/, "Die Ablage ist leer."],
  [/^you must keep a card to discard at the end of your turn$/, "Du musst eine Karte zum Abwerfen behalten."],
  [/^you took (.+) from the discard pile: meld it before you discard$/, "Du hast $1 von der Ablage genommen: lege sie erst aus."],
  [/^jokers may not be discarded in this ruleset$/, "Joker dürfen hier nicht abgeworfen werden."],
  [/^discard a card to end your turn$/, "Wirf eine Karte ab, um den Zug zu beenden."],
  [/^(.+): say which card the wild card stands for, e\.g\. \*=8h$/, "$1: Sag, für welche Karte der Joker steht, z. B. *=8h."],
  [/opening needs (\d+) points?, (?:these melds have|you have) (\d+)/, "Die Erstmeldung braucht $1 Punkte, du hast $2."],
  [/^there is no meld (\d+) on the table$/, "Auf dem Tisch liegt keine Kombination $1."],
  [/^the match is over$/, "Die Partie ist vorbei."],
];

export function translateReason(reason: string, lang: string): string {
  if (lang !== "de") return reason;
  for (const [re, de] of PATTERNS) {
    if (re.test(reason)) return reason.replace(re, de);
  }
  return reason;
}
