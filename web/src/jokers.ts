// Joker declaration: the ways a meld with bare jokers can be read under the
// usual rules (a set: one rank, three or four different suits; a run: one
// suit, consecutive ranks, the ace low before 2 or high after K, no
// wrapping). When there is more than one, the player says which card each
// joker stands for ("*=8h") before the meld goes to the server. The engine
// stays the judge: where a table's rules differ, its refusal is shown.

import { parse, RANKS } from "./cards";
import type { Card } from "./protocol";

const SUITS = ["c", "s", "h", "d"];

/** The ruleset's meld knobs the readings depend on (absent: the usual). */
export interface MeldRules {
  setMax?: number | null;
  distinctSuits?: boolean;
  aceLow?: boolean;
  aceHigh?: boolean;
  wrap?: boolean;
  minLen?: number;
}

/** The knobs from a ruleset as the server sends it. */
export function meldRules(rules: Record<string, unknown>): MeldRules {
  const melds = (rules.melds ?? {}) as Record<string, Record<string, unknown>>;
  const sets = melds.sets ?? {};
  const runs = melds.runs ?? {};
  return {
    setMax: typeof sets.max_len === "number" ? sets.max_len : null,
    distinctSuits: sets.suits !== "any",
    aceLow: runs.ace_low !== false,
    aceHigh: runs.ace_high !== false,
    wrap: runs.wrap_around === true,
    minLen: typeof melds.min_len === "number" ? melds.min_len : 3,
  };
}
const FACES: Card[] = SUITS.flatMap((s) => RANKS.map((r) => `${r}${s}`));

/** What a card stands for: the declared card of a joker or a declared
 *  natural wild card, else itself (null for an undeclared joker). */
function face(card: Card): Card | null {
  const p = parse(card);
  if (p.stands) return `${p.stands.rank}${p.stands.suit}`;
  return p.joker ? null : card;
}

function isSet(faces: Card[], r: MeldRules): boolean {
  const ps = faces.map(parse);
  const suits = new Set(ps.map((p) => p.suit));
  const max = r.setMax === undefined ? 4 : r.setMax;
  return (
    faces.length >= (r.minLen ?? 3) &&
    (max === null || faces.length <= max) &&
    ps.every((p) => p.rank === ps[0]?.rank) &&
    (r.distinctSuits === false || suits.size === faces.length)
  );
}

function isRun(faces: Card[], r: MeldRules): boolean {
  const ps = faces.map(parse);
  if (faces.length < (r.minLen ?? 3) || !ps.every((p) => p.suit === ps[0]?.suit)) return false;
  const n = RANKS.length;
  const consecutive = (idx: number[]) => {
    const sorted = [...idx].sort((a, b) => a - b);
    return sorted.every((v, i) => i === 0 || v === (sorted[i - 1] ?? 0) + 1);
  };
  const high = ps.map((p) => RANKS.indexOf(p.rank ?? ""));
  const low = ps.map((p) => (p.rank === "A" ? -1 : RANKS.indexOf(p.rank ?? "")));
  const hasAce = ps.some((p) => p.rank === "A");
  if (consecutive(low) && (!hasAce || r.aceLow !== false)) return true;
  if (consecutive(high) && (!hasAce || r.aceHigh !== false)) return true;
  if (r.wrap && faces.length < n) {
    // Around the corner: some rotation of the ranks is consecutive.
    for (let shift = 1; shift < n; shift++) {
      if (consecutive(high.map((v) => (v + shift) % n))) return true;
    }
  }
  return false;
}

/** Whether the cards (jokers declared) make a valid set or run. */
export function validMeld(meld: Card[], rules: MeldRules = {}): boolean {
  const faces = meld.map(face);
  if (faces.some((f) => f === null)) return false;
  const fs = faces as Card[];
  return isSet(fs, rules) || isRun(fs, rules);
}

/**
 * Every reading of `meld` with its bare jokers declared (`*` → `*=8h`), in
 * the meld's order. Empty when no reading is valid; a meld without bare
 * jokers is its own single reading when valid. Readings in which the jokers
 * only swap places are listed once.
 */
export function readings(meld: Card[], rules: MeldRules = {}): Card[][] {
  const bare = meld.map((c, i) => (c === "*" ? i : -1)).filter((i) => i >= 0);
  if (bare.length === 0) return validMeld(meld, rules) ? [meld] : [];
  if (bare.length > 2) return []; // more than two free jokers: too open to list
  const out: Card[][] = [];
  const seen = new Set<string>();
  const fill = (k: number, cur: Card[]) => {
    if (k === bare.length) {
      if (!validMeld(cur, rules)) return;
      const key = bare.map((i) => cur[i]).sort().join(",");
      if (!seen.has(key)) {
        seen.add(key);
        out.push(cur);
      }
      return;
    }
    for (const f of FACES) {
      const next = [...cur];
      next[bare[k] ?? 0] = `*=${f}`;
      fill(k + 1, next);
    }
  };
  fill(0, meld);
  return out;
}

/** Whether dropping `cards` on `meld` means a joker exchange (one natural
 *  card that a declared joker of the meld stands for). */
export function isExchange(meld: Card[], cards: Card[]): boolean {
  return cards.length === 1 && meld.some((c) => c.startsWith("*=") && c.slice(2) === cards[0]);
}
