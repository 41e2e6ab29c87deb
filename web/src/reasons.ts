// Why the server refused something, in the player's language. For an
// illegal action the server sends the engine's reason as data
// (`{code, args}`, see PROTOCOL.md); German texts are built from that. The
// few reasons that carry free text (why a meld is invalid, why laying off is
// not allowed) have that text translated by pattern. English uses the
// engine's own words. Anything unknown is shown as the server wrote it.

import { label } from "./cards";

export interface Reason {
  code: string;
  args?: unknown;
}

export interface RefusalLike {
  code: string;
  message: string;
  reason?: Reason | null;
}

type Args = Record<string, unknown>;
const c = (v: unknown) => (typeof v === "string" ? cardsLabel(v) : String(v));
const n = (v: unknown) => (typeof v === "number" ? String(v + 1) : String(v));

/** "7h 8h *" → "7♥ 8♥ ★" (text that is not a card stays as it is). */
function cardsLabel(text: string): string {
  return text
    .split(" ")
    .map((w) => (/^(\*(=.+)?|(10|[2-9JQKA])[cshdx])$/.test(w) ? label(w) : w))
    .join(" ");
}

const OPENING_DE: Record<string, (a: Args) => string> = {
  too_few_points: (a) => `Die Erstmeldung braucht ${a.needed} Punkte, diese Kombinationen haben ${a.have}.`,
  no_meld_high_enough: (a) =>
    `Die Erstmeldung braucht eine Kombination mit ${a.needed} Punkten, die beste hat ${a.have}.`,
  wild_card: (a) => `Die Erstmeldung muss ohne Joker sein, ${c(a.meld)} hat einen.`,
  no_meld: () => "Eine Erstmeldung braucht mindestens eine Kombination.",
};

const DE: Record<string, (a: unknown) => string> = {
  match_over: () => "Die Partie ist vorbei.",
  no_such_seat: (a) => `Platz ${n(a)} gibt es nicht.`,
  sits_out: (a) => `Platz ${n(a)} setzt in diesem Spiel aus.`,
  not_your_turn: (a) => `Platz ${n((a as Args).expected)} ist am Zug, nicht Platz ${n((a as Args).got)}.`,
  must_draw_first: () => "Du musst zuerst eine Karte ziehen.",
  already_drawn: () => "Du hast in diesem Zug schon gezogen.",
  wrong_phase: (a) => `${ACTION_DE[String((a as Args).action)] ?? (a as Args).action} geht gerade nicht.`,
  discard_pile_empty: () => "Die Ablage ist leer.",
  discard_not_meldable: (a) =>
    `${c((a as Args).card)} darf nur von der Ablage genommen werden, wenn sie sofort ausgelegt wird – das geht hier nicht.`,
  not_in_hand: (a) => `${c(a)} hast du nicht auf der Hand.`,
  invalid_meld: (a) => `${c((a as Args).cards)} ist keine gültige Kombination: ${detail((a as Args).reason)}`,
  opening: (a) => OPENING_DE[String((a as Args).code)]?.(a as Args) ?? "Die Erstmeldung reicht nicht.",
  empty_meld: () => "Zum Auslegen braucht es mindestens eine Kombination oder eine angelegte Karte.",
  lay_off_not_allowed: (a) => detail(a),
  no_such_meld: (a) => `Auf dem Tisch liegt keine Kombination ${n(a)}.`,
  invalid_lay_off: (a) =>
    `${c((a as Args).cards)} passt nicht an ${c((a as Args).meld)}: ${detail((a as Args).reason)}`,
  exchange_not_allowed: (a) => detail(a),
  no_joker_for: (a) => `Kein Joker in ${c((a as Args).meld)} steht für ${c((a as Args).card)}.`,
  must_keep_discard: () => "Du musst eine Karte zum Abwerfen behalten.",
  must_meld_taken: (a) => `Du hast ${c(a)} von der Ablage genommen: lege sie aus, bevor du abwirfst.`,
  must_meld_freed_joker: () => "Den befreiten Joker musst du in diesem Zug wieder auslegen.",
  joker_discard: () => "Joker dürfen bei diesen Regeln nicht abgeworfen werden.",
  plays_ended: () => "Nach einem Jokertausch darfst du in diesem Zug nichts mehr auslegen – wirf jetzt ab.",
  final_discard_forbidden: () => "Die letzte Karte darf nicht abgeworfen werden: lege sie aus oder an.",
  call_not_played: () => "Rommé bieten mit Restkarten wird bei diesen Regeln nicht gespielt.",
  call_needs_discard: () => "Nenne die Karte, die du beim Rommé-Bieten abwirfst.",
  rest_too_high: (a) =>
    `Rommé bieten darfst du mit höchstens ${(a as Args).limit} Restpunkten, du hast ${(a as Args).have}.`,
  melds_concealed: () => "Bei diesen Regeln bleiben Kombinationen auf der Hand, bis du alles auf einmal auslegst.",
  lay_down_not_played: () => "Alles auf einmal auslegen gibt es bei diesen Regeln nicht: lege einzeln aus.",
  lay_down_needs_discard: () => "Nenne die Karte, die du beim Auslegen abwirfst.",
  lay_down_rest_too_high: (a) => {
    const x = a as Args;
    return `Deine übrigen Karten zählen ${x.have}: auslegen darfst du unter ${x.below}${
      x.knock != null ? `, klopfen unter ${x.knock}` : ""
    }.`;
  },
  last_draw_from_stock: () => "Nach dem Klopfen ziehen die anderen ihre letzte Karte vom Stapel.",
  rearrange_not_allowed: (a) => detail(a),
  table_card_missing: (a) => `${c(a)} liegt auf dem Tisch, fehlt aber im neuen Tisch: Tischkarten bleiben liegen.`,
  rearrange_nothing_placed: () => "Beim Umlegen musst du mindestens eine Karte aus deiner Hand dazulegen.",
  rob_without_own_card: (a) => `Geraubte Karten müssen mit einer eigenen Karte neu ausgelegt werden: ${c(a)}`,
  must_keep_two: () =>
    "Dann bliebe dir eine Karte, die du nicht abwerfen darfst: lege alles aus oder behalte zwei.",
  no_discard_pile: () => "Bei diesen Regeln gibt es keine Ablage: lege Karten, oder ziehe vom Stapel, wenn du nicht kannst.",
  end_turn_needs_discard: () => "Wirf eine Karte ab, um den Zug zu beenden.",
  no_such_pile: (a) => `Stapel ${n((a as Args).pile)} gibt es nicht (es gibt ${(a as Args).piles}).`,
  pile_empty: (a) => `Stapel ${n(a)} ist leer: ziehe von einem anderen.`,
  no_claim_window: () => "Gerade gibt es keine abgeworfene Karte zum Kaufen oder Klopfen.",
  claim_on_turn: () => "Du bist dran: nimm die Karte, indem du von der Ablage ziehst.",
  claim_own_discard: () => "Deine eigene abgeworfene Karte kannst du nicht beanspruchen.",
  buying_not_played: () => "Kaufen wird bei diesen Regeln nicht gespielt.",
  already_claimed: () => "Du hast diese Karte schon zu kaufen verlangt.",
  knocking_not_played: () => "Klopfen um die Ablage wird bei diesen Regeln nicht gespielt.",
  knock_not_meldable: (a) =>
    `Klopfen darfst du nur um eine Karte, die du sofort auslegen kannst, und ${c((a as Args).card)} passt nicht.`,
  ambiguous: (a) => `${c(a)}: Sag, für welche Karte der Joker steht.`,
  bad_card: (a) => `${c((a as Args).card)}: ${detail((a as Args).reason)}`,
};

const ACTION_DE: Record<string, string> = {
  draw: "Ziehen",
  meld: "Auslegen",
  "lay-off": "Anlegen",
  "exchange-joker": "Jokertausch",
  discard: "Abwerfen",
  "call-romme": "Rommé bieten",
  "lay-down": "Alles auslegen",
  rearrange: "Umlegen",
  "end-turn": "Zug beenden",
  buy: "Kaufen",
  knock: "Klopfen",
};

/** The engine's free-text details (meld rules, lay-off and exchange rules). */
const DETAILS: [RegExp, string][] = [
  [/^not a valid meld: (.+)$/, "$1"],
  [/^neither a set \(the ranks differ\) nor a run \(the suits differ\)$/, "weder ein Satz (verschiedene Werte) noch eine Folge (verschiedene Farben)"],
  [/^a set may not have the same suit twice \((.+) twice\)$/, "ein Satz darf keine Farbe doppelt haben ($1 doppelt)"],
  [/^a set has at most (\d+) cards, these are (\d+)$/, "ein Satz hat höchstens $1 Karten, hier sind es $2"],
  [/^these cards cannot be completed to a set$/, "diese Karten ergeben keinen Satz"],
  [/^a run cannot have the same card twice \((.+) twice\)$/, "eine Folge kann keine Karte doppelt haben ($1 doppelt)"],
  [/^(.+) cannot be completed to a run: the gaps are too wide for the wild cards(.*)$/, "$1 ergibt keine Folge: die Lücken sind zu groß für die Joker$2"],
  [/^melds of wild cards only are not allowed$/, "Kombinationen nur aus Jokern sind nicht erlaubt"],
  [/^jokers must be in the minority: (\d+) wild and (\d+) natural cards$/, "Joker müssen in der Minderheit sein: $1 Joker und $2 echte Karten"],
  [/^at most as many jokers as natural cards: (\d+) wild and (\d+) natural cards$/, "höchstens so viele Joker wie echte Karten: $1 Joker und $2 echte Karten"],
  [/^at most (\d+) wild cards per meld, this has (\d+)$/, "höchstens $1 Joker pro Kombination, hier sind es $2"],
  [/^jokers may not lie next to each other$/, "Joker dürfen nicht nebeneinander liegen"],
  [/^a joker may not be the first or last card of a run$/, "ein Joker darf nicht am Anfang oder Ende einer Folge liegen"],
  [/^the declared cards do not form a valid meld \((.+)\)$/, "die angesagten Karten ergeben keine gültige Kombination ($1)"],
  [/^declare the wild cards: this meld can be read (\d+) ways, e\.g\. (.+)$/, "sag die Joker an: diese Kombination lässt sich auf $1 Arten lesen, z. B. $2"],
  [/^(.+) is not wild here and cannot stand for another card$/, "$1 ist hier kein Joker und kann für keine andere Karte stehen"],
  [/^(.+) is not in this ruleset's deck$/, "$1 gibt es in diesem Blatt nicht"],
  [/^laying off is not played in this ruleset$/, "Anlegen wird bei diesen Regeln nicht gespielt."],
  [/^you can lay off only after your opening$/, "Anlegen darfst du erst nach deiner Erstmeldung."],
  [/^in this ruleset you may lay off only on your own melds$/, "Bei diesen Regeln darfst du nur an eigene Kombinationen anlegen."],
  [/^jokers on the table are never exchanged in this ruleset$/, "Joker auf dem Tisch werden bei diesen Regeln nie getauscht."],
  [/^you may exchange a joker only after your opening$/, "Einen Joker tauschen darfst du erst nach deiner Erstmeldung."],
  [/^a joker in a set may be exchanged only when the set has (\d+) cards \((.+)\)$/, "Ein Joker in einem Satz darf erst getauscht werden, wenn der Satz $1 Karten hat ($2)."],
  [/^(.+) must be melded this turn, and after this exchange it could not be$/, "$1 muss in diesem Zug ausgelegt werden, und nach diesem Tausch ginge das nicht."],
  [/^the table may not be changed in this ruleset \(was liegt, das liegt\)$/, "Bei diesen Regeln gilt: was liegt, das liegt."],
  [/^you may change the table only after your opening$/, "Umlegen darfst du erst nach deiner Erstmeldung."],
];

function detail(text: unknown): string {
  const s = String(text ?? "");
  for (const [re, de] of DETAILS) {
    if (re.test(s)) {
      const out = s.replace(re, de);
      // "not a valid meld: X" wraps another detail.
      return out !== s && re === DETAILS[0]?.[0] ? detail(out) : cardsLabel(out);
    }
  }
  return cardsLabel(s);
}

/** The refusal in the player's language. */
export function translateRefusal(r: RefusalLike, lang: string): string {
  if (lang === "de" && r.reason) {
    const f = DE[r.reason.code];
    if (f) return f(r.reason.args);
  }
  return cardsLabel(r.message);
}
