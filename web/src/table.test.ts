import { describe, expect, it } from "vitest";
import i18n from "./i18n";
import { eventLine, highlight, hintText, lastPlaced } from "./events";
import { label } from "./cards";
import { isWildIn, wildRank } from "./Patience";
import { isExchange, readings, validMeld, meldRules } from "./jokers";
import { isValid, move, newTable, openSandbox, placed, sandboxFromHint, undo } from "./sandbox";
import { ruleSections } from "./rulesText";
import { cell, placeText, totals } from "./ScoreSheet";
import { tableTitle } from "./rulesText";
import { KNOB_LABELS, SECTION_LABELS, knobLabel } from "./knobLabels";
import { NO_LIMIT, ROUND_PLUS_TWO, knobList, knobSections, knobWidget, toToml } from "./knobs";
import { readFileSync, readdirSync } from "node:fs";
import { cardKeys } from "./Hand";

describe("joker declaration", () => {
  it("lists every reading of a meld with a bare joker", () => {
    expect(readings(["7h", "7s", "*"]).map((m) => m[2])).toEqual(["*=7c", "*=7d"]);
    expect(readings(["5h", "6h", "*"]).map((m) => m[2]).sort()).toEqual(["*=4h", "*=7h"]);
    // The gap decides: one reading, no question.
    expect(readings(["5h", "*", "7h"])).toEqual([["5h", "*=6h", "7h"]]);
    expect(readings(["5h", "9c", "*"])).toEqual([]);
  });
  it("follows the table's meld rules", () => {
    const noAceHigh = meldRules({ melds: { min_len: 3, runs: { ace_low: true, ace_high: false }, sets: { max_len: 4, suits: "distinct" } } });
    expect(validMeld(["Qh", "Kh", "Ah"])).toBe(true);
    expect(validMeld(["Qh", "Kh", "Ah"], noAceHigh)).toBe(false);
    expect(validMeld(["Ah", "2h", "3h"], noAceHigh)).toBe(true);
    expect(validMeld(["Kh", "Ah", "2h"], { wrap: true })).toBe(true);
    expect(validMeld(["Kh", "Ah", "2h"])).toBe(false);
    expect(validMeld(["7h", "7h", "7s"])).toBe(false);
    expect(validMeld(["7h", "7h", "7s"], { distinctSuits: false })).toBe(true);
    // Two jokers that only swap places are one reading.
    expect(readings(["5h", "*", "*"]).length).toBeGreaterThan(1);
    expect(new Set(readings(["5h", "*", "*"]).map((m) => [m[1], m[2]].sort().join())).size).toBe(readings(["5h", "*", "*"]).length);
  });
  it("knows a drop on a meld means a joker exchange", () => {
    expect(isExchange(["7h", "*=7s", "7c"], ["7s"])).toBe(true);
    expect(isExchange(["7h", "*=7s", "7c"], ["7d"])).toBe(false);
    expect(isExchange(["7h", "*=7s", "7c"], ["7s", "7d"])).toBe(false);
  });
  it("gives copies of a card their own keys", () => {
    expect(cardKeys(["7h", "2c", "7h"])).toEqual(["7h#0", "2c#0", "7h#1"]);
  });
});

describe("rearrangement sandbox", () => {
  const table = [
    { owner: 1, cards: ["5h", "6h", "7h", "8h"] },
    { owner: 2, cards: ["9c", "9s", "*=9d"] },
  ];
  it("moves cards, marks invalid melds at once, and undoes", () => {
    let sb = openSandbox(table, ["8c", "Kd"]);
    // 8h off the run and 8c from the hand make a new meld: two cards, not
    // yet valid.
    sb = move(sb, ["m:0:3", "h:0"], "new");
    expect(sb.melds.map((m) => m.cards)).toEqual([["5h", "6h", "7h"], ["9c", "9s", "*=9d"], ["8h", "8c"]]);
    expect(sb.melds.map((m) => isValid(m))).toEqual([true, true, false]);
    // The nines' joker joins them: the eights become valid, the nines
    // (two cards left) do not.
    sb = move(sb, ["m:1:2"], 2);
    expect(sb.melds[2]?.cards).toEqual(["8h", "8c", "*"]);
    expect(isValid(sb.melds[1] ?? { cards: [], touched: true })).toBe(false);
    expect(isValid(sb.melds[2] ?? { cards: [], touched: true })).toBe(true);
    expect(sb.hand).toEqual(["Kd"]);
    expect(placed(sb, ["8c", "Kd"])).toBe(1);
    sb = undo(sb);
    expect(sb.melds[1]?.cards).toEqual(["9c", "9s", "*=9d"]);
    sb = undo(undo(sb));
    expect(sb.melds.map((m) => m.cards)).toEqual(table.map((m) => m.cards));
    expect(sb.hand).toEqual(["8c", "Kd"]);
  });
  it("sends untouched melds as they lie and touched ones with bare jokers", () => {
    let sb = openSandbox(table, ["9h"]);
    sb = move(sb, ["h:0"], 1);
    expect(newTable(sb)).toEqual([["5h", "6h", "7h", "8h"], ["9c", "9s", "*", "9h"]]);
  });
});

describe("what the others did", () => {
  const name = (s: number) => ["Erika", "Bot 1", "Bot 2", "Bot 3"][s] ?? "?";
  it("says each event in words, in German and English", async () => {
    await i18n.changeLanguage("de");
    const t = i18n.t.bind(i18n);
    const ev = (event: Record<string, unknown>) => ({ kind: "game" as const, event: event as { type: string } });
    expect(eventLine(ev({ type: "discarded", seat: 1, card: "Qs" }), name, t)).toBe("Bot 1 wirft Q♠ ab");
    expect(eventLine(ev({ type: "drew", seat: 2, from: "discard", card: "7h" }), name, t)).toBe("Bot 2 nimmt 7♥ von der Ablage");
    expect(
      eventLine(ev({ type: "melded", seat: 3, melds: [0], opening: 42, table: [{ owner: 3, cards: ["Jh", "Qh", "Kh", "Ah"] }] }), name, t),
    ).toBe("Bot 3 legt aus: J♥ Q♥ K♥ A♥ (Erstmeldung, 42 Punkte)");
    expect(eventLine(ev({ type: "turn-began", seat: 1 }), name, t)).toBeNull();
    await i18n.changeLanguage("en");
    expect(eventLine(ev({ type: "discarded", seat: 1, card: "Qs" }), name, i18n.t.bind(i18n))).toBe("Bot 1 discards Q♠");
    await i18n.changeLanguage("de");
  });
  it("highlights what the last event touched", () => {
    const h = highlight(7, { kind: "game", event: { type: "melded", seat: 2, melds: [3], laid_off: [1] } });
    expect(h).toEqual({ version: 7, seat: 2, melds: [3, 1], discard: false, stock: false, hands: [] });
    expect(highlight(8, { kind: "game", event: { type: "discarded", seat: 2, card: "2c" } }).discard).toBe(true);
  });
});

describe("rules and score sheet", () => {
  it("puts the rules in sentences", () => {
    const rules = {
      deck: { kind: "french", jokers: 6 },
      players: { min: 3, max: 6 },
      deal: { hand_size: 13 },
      melds: { min_len: 3, sets: { suits: "distinct", max_len: 4 }, runs: { ace_low: true, ace_high: true, wrap_around: false } },
      opening: { threshold: 40, count: "sum" },
      turn: { discard_pile: true, lay_off: "after-opening", lay_off_target: "any", rearrange: "free" },
      jokers: { exchange: "any-time" },
    };
    const de = ruleSections(rules, "de").flatMap((s) => s.lines);
    expect(de).toContain("2 × 52 Karten und 6 Joker.");
    expect(de).toContain("Die erste Meldung braucht zusammen mindestens 40 Punkte.");
    expect(de).toContain("Der Tisch darf umgelegt werden (alle Kombinationen bleiben gültig).");
    const en = ruleSections(rules, "en").flatMap((s) => s.lines);
    expect(en).toContain("Everyone gets 13 cards.");
  });
  it("adds up the matches per player", () => {
    const p = (seat: number, name: string, place: number, points: number) => ({ seat, name, place, points, games_won: 0, forfeited: false });
    const rows = totals([
      { match_no: 1, placings: [p(0, "Erika", 1, 10), p(1, "Bot", 2, 80)] },
      { match_no: 2, placings: [p(0, "Erika", 2, 50), p(1, "Bot", 1, 5)] },
      { match_no: 3, placings: [p(0, "Erika", 1, 0), p(1, "Bot", 2, 30)] },
    ]);
    expect(rows).toEqual([
      { name: "Erika", points: 60, wins: 2, matches: 3 },
      { name: "Bot", points: 115, wins: 1, matches: 3 },
    ]);
  });
});

describe("hint text", () => {
  it("puts every kind of hinted action in words, German and English", async () => {
    const de = i18n.getFixedT("de");
    const en = i18n.getFixedT("en");
    const table = [["9h", "10h", "*=Jh"], ["Qc", "Qd", "Qh"]];
    expect(hintText({ type: "rearrange", table }, de)).toBe("Lege den Tisch um: 9♥ 10♥ ★=J♥ | Q♣ Q♦ Q♥");
    expect(hintText({ type: "rearrange", table }, en)).toBe("Rearrange the table: 9♥ 10♥ ★=J♥ | Q♣ Q♦ Q♥");
    expect(hintText({ type: "discard", card: "Qs" }, de)).toBe("Wirf Q♠ ab");
    expect(hintText({ type: "call-romme", discard: "2c" }, en)).toBe("Call Rommé, Discard 2♣");
    expect(hintText({ type: "lay-down", melds: [["7h", "8h", "9h"]] }, en)).toBe("Lay down everything: 7♥ 8♥ 9♥");
    expect(hintText({ type: "end-turn" }, de)).toBe("Beende den Zug");
    // No action type comes out as its protocol name.
    for (const a of [{ type: "rearrange", table }, { type: "end-turn" }, { type: "call-romme" }] as const) {
      expect(hintText(a, de)).not.toBe(a.type);
    }
  });
});

describe("counts", () => {
  it("say one card, one meld and one missing point in the singular", () => {
    const de = i18n.getFixedT("de");
    const en = i18n.getFixedT("en");
    expect(de("cards", { count: 1 })).toBe("1 Karte");
    expect(de("cards", { count: 10 })).toBe("10 Karten");
    expect(en("cards", { count: 1 })).toBe("1 card");
    expect(en("cards", { count: 0 })).toBe("0 cards");
    expect(de("missing", { count: 1 })).toBe("es fehlt 1");
    expect(de("missing", { count: 7 })).toBe("es fehlen 7");
    expect(de("invalidMelds", { count: 1 })).toBe("1 ungültige Kombination");
    expect(en("placedCards", { count: 2 })).toBe("2 cards placed from your hand");
  });
});

describe("Five Crowns cards and the solo patience", () => {
  it("labels stars apart from jokers, and declared natural wild cards", () => {
    expect(label("7x")).toBe("7✦");
    expect(label("*")).toBe("★");
    expect(label("*=9x")).toBe("★=9✦");
    expect(label("4c=5d")).toBe("4♣=5♦");
    expect(label("10h=6c")).toBe("10♥=6♣");
  });
  it("knows each hand's wild rank", () => {
    expect(wildRank(0)).toBe("3");
    expect(wildRank(7)).toBe("10");
    expect(wildRank(10)).toBe("K");
    expect(isWildIn("3x", 0)).toBe(true);
    expect(isWildIn("3x", 1)).toBe(false);
    expect(isWildIn("*", 5)).toBe(true);
    expect(isWildIn("Kd", 10)).toBe(true);
  });
  it("says placements and closed hands, and hints a placement", () => {
    const de = i18n.getFixedT("de");
    const en = i18n.getFixedT("en");
    const ev = (event: Record<string, unknown>) => ({ kind: "game" as const, event: event as { type: string } });
    const name = () => "Anna";
    expect(eventLine(ev({ type: "placed", hand: 3, out: "9x" }), name, de)).toBe("Hand 4: 9✦ geht aus dem Spiel");
    expect(eventLine(ev({ type: "hand-closed", hand: 0, melds: [["4d", "4h", "3s=4s"]] }), name, en)).toBe(
      "Hand 1 is laid down: 4♦ 4♥ 3♠=4♠",
    );
    expect(hintText({ type: "place", hand: 8, out: "Kd" }, de, "5h")).toBe("Lege die gezogene Karte in Hand 9 und nimm K♦ heraus");
    expect(hintText({ type: "place", hand: 2, out: "5h" }, en, "5h")).toBe("Take the drawn card 5♥ out of the game");
    expect(highlight(4, ev({ type: "placed", hand: 6, out: "2c" })).hands).toEqual([6]);
    const log = [ev({ type: "placed", hand: 1, out: "Qx" }), ev({ type: "drew", seat: 0, from: "stock" })].map((event) => ({ event }));
    expect(lastPlaced(log)).toBe("Qx");
    expect(lastPlaced([])).toBeNull();
  });
});

describe("the running sheet", () => {
  it("shows a game's points, with rating points where the scheme has them", () => {
    expect(cell({ points: 17, rating: null })).toBe("17");
    expect(cell({ points: 0, rating: 30 })).toBe("0 (+30)");
    expect(cell({ points: 24, rating: -10 })).toBe("24 (-10)");
  });

  it("gives a lost patience no place, and says a forfeit", () => {
    const t = (k: string) => ({ noPlace: "— (nicht aufgegangen)", forfeited: "aufgegeben" })[k] ?? k;
    expect(placeText({ place: 0, forfeited: false }, t)).toBe("— (nicht aufgegangen)");
    expect(placeText({ place: 1, forfeited: false }, t)).toBe("1");
    expect(placeText({ place: 2, forfeited: true }, t)).toBe("2 (aufgegeben)");
  });
});

describe("table names", () => {
  it("show a preset's title in the reader's language, a chosen name as it is", () => {
    const info = { title_de: "Königs-Rommé Solo", title_en: "Five Crowns solo", summary_de: "", summary_en: "" };
    expect(tableTitle("Königs-Rommé Solo", info, false)).toBe("Five Crowns solo");
    expect(tableTitle("Five Crowns solo", info, true)).toBe("Königs-Rommé Solo");
    expect(tableTitle("Freitagsrunde", info, false)).toBe("Freitagsrunde");
    expect(tableTitle("Königs-Rommé Solo", undefined, false)).toBe("Königs-Rommé Solo");
  });
});

describe("the knob editor", () => {
  // Every knob of the full preset files (those without `base`), as the
  // TOML spells it: `section.key`, `section.sub.key`.
  const dir = new URL("../../rulesets/", import.meta.url);
  const keys = new Set<string>();
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".toml"))) {
    const text = readFileSync(new URL(f, dir), "utf8");
    if (/^base\s*=/m.test(text)) continue;
    let section = "";
    for (const line of text.split("\n")) {
      const head = line.match(/^\[([a-z_.]+)\]/);
      if (head) section = head[1] ?? "";
      const kv = line.match(/^([a-z_]+)\s*=/);
      if (kv && section && section !== "info") keys.add(`${section}.${kv[1]}`);
    }
  }
  it("has words for every knob of the presets, in both languages", () => {
    expect(keys.size).toBeGreaterThan(80);
    const missing = [...keys].filter((k) => !KNOB_LABELS[k]);
    expect(missing).toEqual([]);
    for (const k of keys) {
      expect(knobLabel(k, true)?.length).toBeGreaterThan(0);
      expect(knobLabel(k, false)?.length).toBeGreaterThan(0);
      expect(SECTION_LABELS[k.split(".")[0] ?? ""]).toBeDefined();
    }
    expect(knobLabel("opening.threshold", true)).toBe("Punkte für die Erstmeldung (0 = keine Schwelle)");
    expect(knobLabel("no.such", false)).toBeNull();
  });
  it("writes the club's rating tiers as TOML inline tables", () => {
    expect(toToml([{ max_points: 10, rating: 3 }, { max_points: 30, rating: 2 }])).toBe(
      "[{ max_points = 10, rating = 3 }, { max_points = 30, rating = 2 }]",
    );
    const list = knobList({ scoring: { club: { opened: [{ max_points: 10, rating: 3 }] } }, timer: { seconds: 0 } });
    expect(list).toEqual([
      { key: "scoring.club.opened", value: "[{ max_points = 10, rating = 3 }]" },
      { key: "timer.seconds", value: "0" },
    ]);
    expect(knobSections(list).map(([s]) => s)).toEqual(["scoring", "timer"]);
    expect(knobSections(list, Object.keys(SECTION_LABELS)).map(([s]) => s)).toEqual(["scoring", "timer"]);
    expect(knobSections(list, ["timer", "scoring"]).map(([s]) => s)).toEqual(["timer", "scoring"]);
  });
});

describe("a hinted rearrangement in the sandbox", () => {
  const table = [
    { owner: 1, cards: ["5h", "6h", "7h", "8h"] },
    { owner: 2, cards: ["9c", "9d", "*=9s"] },
  ];
  it("opens with the hint made, one undo from the table as it lies", () => {
    const hinted = [["5h", "6h", "7h"], ["8h", "9h", "10h"], ["9c", "9d", "*=9s"]];
    const sb = sandboxFromHint(table, ["10h", "9h", "Kc"], hinted);
    expect(sb).not.toBeNull();
    if (!sb) return;
    expect(newTable(sb)).toEqual(hinted);
    expect(sb.hand).toEqual(["Kc"]);
    expect(placed(sb, sb.hand)).toBe(2);
    const back = undo(sb);
    expect(newTable(back)).toEqual(table.map((m) => m.cards));
    expect(back.hand).toEqual(["10h", "9h", "Kc"]);
  });
  it("refuses a hint the hand cannot make or that drops a table card", () => {
    expect(sandboxFromHint(table, ["Kc"], [["5h", "6h", "7h", "8h", "9h"], ["9c", "9d", "*=9s"]])).toBeNull();
    expect(sandboxFromHint(table, ["9h"], [["5h", "6h", "7h", "8h", "9h"]])).toBeNull();
  });
});

describe("limits in the knob editor", () => {
  it("offers a number or no limit where a knob can be either", () => {
    const limit = (d: number) => ({ kind: "limit", default: d, special: NO_LIMIT, label: "noLimit" });
    expect(knobWidget({ key: "concealed.knock_below", value: NO_LIMIT })).toEqual(limit(5));
    expect(knobWidget({ key: "melds.sets.max_len", value: "4" })).toEqual(limit(4));
    expect(knobWidget({ key: "deck.jokers", value: "6" })).toEqual({ kind: "number" });
  });
  it("offers a number or the round's number plus two for the hand size", () => {
    const hand = { kind: "limit", default: 13, special: ROUND_PLUS_TWO, label: "roundPlusTwo" };
    expect(knobWidget({ key: "deal.hand_size", value: ROUND_PLUS_TWO })).toEqual(hand);
    expect(knobWidget({ key: "deal.hand_size", value: "13" })).toEqual(hand);
  });
});
