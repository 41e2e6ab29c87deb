// The rules of a table in words: the ruleset the server sends (the preset
// with any changed knobs) turned into short sentences by topic, German or
// English. The page lists every knob by name and value below the sentences
// (knobs.ts), so nothing a table plays by is ever hidden. Also a table's
// title in the reader's language.

import type { RulesInfo } from "./protocol";

type Rules = Record<string, unknown>;
type Lang = "de" | "en";

export interface RuleSection {
  title: string;
  lines: string[];
}

function get(r: Rules, path: string): unknown {
  let cur: unknown = r;
  for (const k of path.split(".")) {
    if (cur && typeof cur === "object" && k in (cur as Rules)) cur = (cur as Rules)[k];
    else return undefined;
  }
  return cur;
}

const L = (lang: Lang, de: string, en: string) => (lang === "de" ? de : en);
const yes = (v: unknown) => v === true;

export function ruleSections(r: Rules, lang: Lang): RuleSection[] {
  const g = (p: string) => get(r, p);
  const s: RuleSection[] = [];
  const push = (title: string, lines: (string | false | undefined)[]) => {
    const kept = lines.filter((l): l is string => !!l);
    if (kept.length) s.push({ title, lines: kept });
  };

  const jokers = Number(g("deck.jokers") ?? 0);
  const fiveCrowns = g("deck.kind") === "five-crowns";
  const hand = g("deck.kind") === undefined ? undefined : g("deal.hand_size");
  push(L(lang, "Karten und Spieler", "Cards and players"), [
    fiveCrowns
      ? L(lang, `Five-Crowns-Blatt mit ${jokers} Jokern.`, `Five Crowns deck with ${jokers} jokers.`)
      : L(lang, `2 × 52 Karten und ${jokers} Joker.`, `2 × 52 cards and ${jokers} jokers.`),
    L(lang, `${g("players.min")} bis ${g("players.max")} Spieler.`, `${g("players.min")} to ${g("players.max")} players.`),
    typeof hand === "number"
      ? L(lang, `Jeder bekommt ${hand} Karten.`, `Everyone gets ${hand} cards.`)
      : hand !== undefined && L(lang, `Handkarten: ${String(hand)}.`, `Cards per hand: ${String(hand)}.`),
    yes(g("deal.first_player_extra_card")) &&
      L(lang, "Vorhand bekommt eine Karte mehr und beginnt mit Abwerfen.", "The first player gets one card more and starts by discarding."),
    Number(g("stock.piles") ?? 1) > 1 &&
      L(lang, `Der Stapel liegt in ${g("stock.piles")} Stößen.`, `The stock is split into ${g("stock.piles")} piles.`),
    g("stock.when_empty") === "reshuffle"
      ? L(lang, "Ist der Stapel leer, wird die Ablage neu gemischt.", "When the stock runs out, the discard pile is reshuffled.")
      : g("stock.when_empty") === "end-game" && L(lang, "Ist der Stapel leer, endet das Spiel.", "When the stock runs out, the game ends."),
  ]);

  const setMax = g("melds.sets.max_len");
  push(L(lang, "Kombinationen", "Melds"), [
    L(lang, `Mindestens ${g("melds.min_len")} Karten.`, `At least ${g("melds.min_len")} cards.`),
    L(
      lang,
      `Sätze: gleicher Wert${g("melds.sets.suits") === "distinct" ? ", jede Farbe nur einmal" : ""}${typeof setMax === "number" ? `, höchstens ${setMax} Karten` : ""}.`,
      `Sets: one rank${g("melds.sets.suits") === "distinct" ? ", each suit once" : ""}${typeof setMax === "number" ? `, at most ${setMax} cards` : ""}.`,
    ),
    L(
      lang,
      `Folgen: eine Farbe, aufsteigend; das As ${yes(g("melds.runs.ace_low")) ? "vor der 2" : ""}${yes(g("melds.runs.ace_low")) && yes(g("melds.runs.ace_high")) ? " oder " : ""}${yes(g("melds.runs.ace_high")) ? "hinter dem König" : ""}${yes(g("melds.runs.wrap_around")) ? ", auch K-A-2" : ""}.`,
      `Runs: one suit, in sequence; the ace ${yes(g("melds.runs.ace_low")) ? "before the 2" : ""}${yes(g("melds.runs.ace_low")) && yes(g("melds.runs.ace_high")) ? " or " : ""}${yes(g("melds.runs.ace_high")) ? "after the king" : ""}${yes(g("melds.runs.wrap_around")) ? ", K-A-2 allowed" : ""}.`,
    ),
    g("melds.wilds.share") === "fewer-than-naturals" &&
      L(lang, "Joker müssen in der Minderheit sein.", "Jokers must be fewer than the natural cards."),
    g("melds.wilds.adjacent") === false && L(lang, "Joker nicht nebeneinander.", "No two jokers side by side."),
    g("melds.wilds.at_run_ends") === false && L(lang, "Kein Joker am Ende einer Folge.", "No joker at the end of a run."),
    yes(g("melds.wilds.round_wild")) && L(lang, "Jede Runde hat einen wilden Wert.", "Each round has a wild rank."),
  ]);

  const threshold = Number(g("opening.threshold") ?? 0);
  push(L(lang, "Erstmeldung", "Opening"), [
    threshold > 0
      ? L(
          lang,
          `Die erste Meldung braucht ${g("opening.count") === "single-meld" ? "eine Kombination mit" : "zusammen"} mindestens ${threshold} Punkte.`,
          `The first meld needs at least ${threshold} points${g("opening.count") === "single-meld" ? " in one meld" : " together"}.`,
        )
      : L(lang, "Keine Mindestpunktzahl für die erste Meldung.", "No minimum for the first meld."),
    yes(g("opening.lay_offs_count")) &&
      L(lang, "Angelegte Karten zählen zur Erstmeldung.", "Cards laid off count toward the opening."),
    yes(g("opening.naturals_only")) && L(lang, "Die Erstmeldung ohne Joker.", "The opening without jokers."),
  ]);

  const take = g("turn.discard_take");
  push(L(lang, "Ein Zug", "A turn"), [
    yes(g("turn.discard_pile"))
      ? L(lang, "Ziehen (Stapel oder Ablage), auslegen und anlegen, dann eine Karte abwerfen.", "Draw (stock or discard pile), meld and lay off, then discard one card.")
      : L(lang, "Ohne Ablage: Karten spielen oder vom Stapel ziehen.", "No discard pile: play cards or draw from the stock."),
    take === "meld-at-once" &&
      L(lang, "Die Ablage darf nur genommen werden, wenn sie sofort ausgelegt wird.", "The discard may be taken only to meld it at once."),
    take === "meld-at-once-opening" &&
      L(lang, "Vor der Erstmeldung nur mit sofortigem Auslegen von der Ablage nehmen.", "Before the opening, take the discard only to meld it at once."),
    g("turn.lay_off") === "never"
      ? L(lang, "Anlegen gibt es nicht.", "No laying off.")
      : L(
          lang,
          `Anlegen nach der Erstmeldung${g("turn.lay_off_target") === "own" ? ", nur an eigene Kombinationen" : ", an alle Kombinationen"}.`,
          `Lay off after your opening${g("turn.lay_off_target") === "own" ? ", on your own melds only" : ", on any meld"}.`,
        ),
    g("turn.rearrange") === "free" &&
      L(lang, "Der Tisch darf umgelegt werden (alle Kombinationen bleiben gültig).", "The table may be rearranged (every meld stays valid)."),
    g("turn.rearrange") === "rob" &&
      L(lang, "Rauben: Karten vom Tisch mit eigenen Karten neu auslegen.", "Robbing: take table cards to meld them anew with your own."),
    g("turn.rearrange") === "none" && L(lang, "Was liegt, das liegt.", "Melds on the table stay as they are."),
  ]);

  const exch = g("jokers.exchange");
  push(L(lang, "Joker", "Jokers"), [
    exch === "never"
      ? L(lang, "Joker auf dem Tisch werden nicht getauscht.", "Table jokers are never exchanged.")
      : L(
          lang,
          `Ein Joker auf dem Tisch kann gegen die Karte getauscht werden, für die er steht${exch === "after-opening" ? " (nach der Erstmeldung)" : ""}.`,
          `A table joker can be exchanged for the card it stands for${exch === "after-opening" ? " (after your opening)" : ""}.`,
        ),
    yes(g("jokers.freed_must_be_melded")) &&
      L(lang, "Der befreite Joker muss im selben Zug ausgelegt werden.", "The freed joker must be melded in the same turn."),
    g("jokers.discard_allowed") === false && L(lang, "Joker dürfen nicht abgeworfen werden.", "Jokers may not be discarded."),
  ]);

  const fd = g("going_out.final_discard");
  const rest = Number(g("going_out.rest_allowed") ?? 0);
  push(L(lang, "Ausmachen", "Going out"), [
    fd === "required" && L(lang, "Mit der letzten Karte wird abgeworfen.", "The last card is discarded."),
    fd === "never" && L(lang, "Die letzte Karte muss ausgelegt oder angelegt werden.", "The last card must be melded or laid off."),
    fd === "optional" && L(lang, "Die letzte Karte darf abgeworfen werden.", "The last card may be discarded."),
    rest > 0 && L(lang, `Rommé bieten mit höchstens ${rest} Restpunkten.`, `Call Rommé with at most ${rest} points left.`),
    yes(g("going_out.last_turn_for_others")) && L(lang, "Die anderen haben noch einen letzten Zug.", "The others get one last turn."),
    yes(g("hand_romme.enabled")) &&
      L(
        lang,
        `Handrommé (alles auf einmal)${Number(g("scoring.hand_romme_multiplier") ?? 1) > 1 ? ` zählt ${g("scoring.hand_romme_multiplier")}-fach` : ""}.`,
        `Hand-Rommé (all at once)${Number(g("scoring.hand_romme_multiplier") ?? 1) > 1 ? ` counts ×${g("scoring.hand_romme_multiplier")}` : ""}.`,
      ),
    yes(g("buying.enabled")) && L(lang, "Kaufen: die abgeworfene Karte außer der Reihe nehmen (mit Strafkarte).", "Buying: take the discard out of turn (with a penalty card)."),
    yes(g("knocking.enabled")) && L(lang, "Klopfen: um die abgeworfene Karte klopfen und sofort spielen.", "Knocking: knock for the discard and play at once."),
    yes(g("concealed.enabled")) && L(lang, "Verdeckt: Kombinationen bleiben auf der Hand bis zum Auslegen.", "Concealed: melds stay in the hand until the lay-down."),
  ]);

  const end = g("match.end");
  push(L(lang, "Wertung", "Scoring"), [
    L(
      lang,
      `Restkarten: Bilder ${g("penalty.jack")}/${g("penalty.queen")}/${g("penalty.king")}, As ${g("penalty.ace")}, Joker ${g("penalty.joker")} Punkte.`,
      `Cards left: pictures ${g("penalty.jack")}/${g("penalty.queen")}/${g("penalty.king")}, ace ${g("penalty.ace")}, joker ${g("penalty.joker")} points.`,
    ),
    end === "games" && L(lang, `Eine Partie hat ${g("match.games")} Spiele.`, `A match is ${g("match.games")} games.`),
    end === "rounds" && L(lang, `Eine Partie hat ${g("match.games")} Runden.`, `A match is ${g("match.games")} rounds.`),
    end === "elimination" &&
      L(lang, `Wer ${g("match.limit")} Punkte erreicht, scheidet aus.`, `Whoever reaches ${g("match.limit")} points is out.`),
    g("scoring.scheme") === "club" && L(lang, "Wertung nach Clubtabelle.", "Club scoring table."),
  ]);
  return s;
}

/** A table named after its preset is shown with the preset's title in the
 *  reader's language; a name its host chose stays as it is. */
export function tableTitle(name: string, info: RulesInfo | undefined, de: boolean): string {
  if (!info || ![info.title_de, info.title_en].includes(name)) return name;
  return de ? info.title_de : info.title_en;
}
