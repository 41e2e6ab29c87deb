import { describe, expect, it } from "vitest";
import { arrange, initial, myTurn, reduce, reorder } from "./state";
import { groups, keepOrder, sortBySuit } from "./cards";
import { knobList, knobWidget, overridesToml } from "./knobs";
import { meldValue } from "./points";
import { translateRefusal } from "./reasons";
import type { ServerMsg, Snapshot } from "./protocol";

function snap(version: number, hand: string[], turn = 0, type: "snapshot" | "state" = "snapshot"): ServerMsg {
  const s: Snapshot = {
    table: "t1",
    version,
    seat: 0,
    next_seq: 3,
    chat: [],
    info: {
      id: "t1",
      name: "T",
      rules: { name: "klassisch", info: { title_de: "", title_en: "", summary_de: "", summary_en: "" }, opening: { threshold: 40 } },
      declarations_matter: true,
      seats: [],
      status: "playing",
      match_no: 1,
      public: true,
      turn_seconds: null,
      matches: [],
    },
    game: {
      seat: 0, hand, table: [], discard: [], stock: 40, stock_piles: [40], seats: [], turn, phase: "draw",
      claims: null, taken: null, game: 1, dealer: 1, rules: "klassisch",
    },
  };
  return { type, ...s };
}

const ev = (version: number, next_seq?: number): ServerMsg => ({
  type: "event",
  table: "t1",
  version,
  event: { kind: "game", event: { type: "drew", seat: 1, from: "stock" } },
  next_seq,
});

describe("client state", () => {
  it("takes a snapshot, then contiguous events, and notices a gap", () => {
    let s = reduce(initial, snap(10, ["7h", "Ks"]));
    expect(s.version).toBe(10);
    s = reduce(s, ev(11, 4));
    expect(s.version).toBe(11);
    expect(s.gap).toBe(false);
    expect(s.table?.next_seq).toBe(4);
    s = reduce(s, ev(11));
    expect(s.log).toHaveLength(1); // a repeated event is ignored
    s = reduce(s, ev(13));
    expect(s.gap).toBe(true);
  });

  it("keeps the hand order the player chose across turns", () => {
    let s = reduce(initial, snap(1, ["2c", "9h", "Ks"]));
    s = reorder(s, 2, 0);
    expect(s.hand).toEqual(["Ks", "2c", "9h"]);
    // The next state: 9h discarded, 5d drawn.
    s = reduce(s, snap(5, ["2c", "5d", "Ks"], 0, "state"));
    expect(s.hand).toEqual(["Ks", "2c", "5d"]);
    s = arrange(s, sortBySuit(s.hand));
    expect(s.hand).toEqual(["2c", "Ks", "5d"]);
  });

  it("ignores a state older than the one it has", () => {
    let s = reduce(initial, snap(9, ["2c"]));
    s = reduce(s, snap(5, ["Ah"], 0, "state"));
    expect(s.hand).toEqual(["2c"]);
  });

  it("remembers a refusal and knows whose turn it is", () => {
    let s = reduce(initial, snap(1, [], 0));
    expect(myTurn(s)).toBe(true);
    s = reduce(s, {
      type: "reject",
      id: 3,
      code: "illegal_action",
      message: "you must draw first",
      reason: { code: "must_draw_first" },
    });
    expect(s.refusal?.message).toBe("you must draw first");
    expect(s.refusal && translateRefusal(s.refusal, "de")).toBe("Du musst zuerst eine Karte ziehen.");
    expect(s.refusal && translateRefusal(s.refusal, "en")).toBe("you must draw first");
    // Unknown reasons are shown as the server wrote them.
    expect(translateRefusal({ code: "x", message: "something new", reason: { code: "new" } }, "de")).toBe("something new");
  });

  it("translates the engine's reasons from their codes and arguments", () => {
    const de = (code: string, args: unknown, message = "") => translateRefusal({ code: "illegal_action", message, reason: { code, args } }, "de");
    expect(de("not_in_hand", "10h")).toBe("10♥ hast du nicht auf der Hand.");
    expect(de("not_your_turn", { expected: 2, got: 0 })).toBe("Platz 3 ist am Zug, nicht Platz 1.");
    expect(de("opening", { code: "too_few_points", needed: 40, have: 31 })).toBe(
      "Die Erstmeldung braucht 40 Punkte, diese Kombinationen haben 31.",
    );
    expect(de("invalid_meld", { cards: "7h 7h 7s", reason: "not a valid meld: a set may not have the same suit twice (h twice)" })).toBe(
      "7♥ 7♥ 7♠ ist keine gültige Kombination: ein Satz darf keine Farbe doppelt haben (h doppelt)",
    );
    expect(de("lay_off_not_allowed", "you can lay off only after your opening")).toBe(
      "Anlegen darfst du erst nach deiner Erstmeldung.",
    );
    // English keeps the engine's words, with card symbols.
    expect(translateRefusal({ code: "illegal_action", message: "Kc is not in your hand", reason: null }, "en")).toBe(
      "K♣ is not in your hand",
    );
  });
});

describe("cards", () => {
  it("matches copies one by one when keeping the order", () => {
    expect(keepOrder(["7h", "7h", "2c"], ["2c", "7h", "Qd"])).toEqual(["7h", "2c", "Qd"]);
  });
  it("groups sets and runs", () => {
    const g = groups(["7h", "7s", "7c", "3d", "4d", "5d", "Kc", "*"]);
    expect([...(g[0] ?? [])].sort()).toEqual(["7c", "7h", "7s"]);
    expect(g).toContainEqual(["3d", "4d", "5d"]);
    expect(g[g.length - 1]).toEqual(["Kc", "*"]);
  });
  it("values melds for the opening counter", () => {
    expect(meldValue(["10h", "Jh", "Qh"])).toBe(30);
    expect(meldValue(["7h", "7s", "*=7c"])).toBe(21);
    expect(meldValue(["Qh", "Kh", "*"])).toBe(10 + 10 + 11);
  });
});

describe("knob editor", () => {
  it("flattens a ruleset and writes the changes as TOML on the preset", () => {
    const knobs = knobList({ name: "x", info: {}, opening: { threshold: 40, count: "melds" } });
    expect(knobs).toEqual([
      { key: "opening.threshold", value: "40" },
      { key: "opening.count", value: '"melds"' },
    ]);
    expect(overridesToml("klassisch", {})).toBe("");
    expect(knobWidget({ key: "turn.rearrange", value: '"none"' })).toEqual({ kind: "choice", options: ['"none"', '"free"', '"rob"'] });
    expect(knobWidget({ key: "jokers.discard_allowed", value: "true" })).toEqual({ kind: "bool" });
    expect(knobWidget({ key: "opening.threshold", value: "40" })).toEqual({ kind: "number" });
    expect(knobWidget({ key: "money.prize_shares", value: "[100]" })).toEqual({ kind: "text" });
    expect(overridesToml("klassisch", { "opening.threshold": "30" })).toBe(
      'base = "klassisch"\nname = "klassisch-custom"\n\n[opening]\nthreshold = 30\n',
    );
  });
});
