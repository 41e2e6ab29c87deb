// The rearrangement sandbox's state (variants with `turn.rearrange` free or
// rob): a private copy of the table and of the hand in which the player
// moves cards between melds, with undo; which melds are invalid right now;
// and the `rearrange` action that commits the whole new table at once.
// Jokers that move, and jokers of melds that changed, lose their
// declaration: the meld's possible readings decide (and the player is asked
// when there are several).

import { readings, type MeldRules } from "./jokers";
import type { Card, TableMeld } from "./protocol";

export interface SandboxMeld {
  cards: Card[];
  /** Changed since the sandbox opened (its jokers are re-declared). */
  touched: boolean;
}

export interface Sandbox {
  melds: SandboxMeld[];
  hand: Card[];
  /** Earlier states, for undo. */
  history: { melds: SandboxMeld[]; hand: Card[] }[];
}

/** Where a card is: `h:K` (hand index) or `m:I:K` (meld I, card K). */
export type Spot = string;

export function openSandbox(table: TableMeld[], hand: Card[]): Sandbox {
  return { melds: table.map((m) => ({ cards: [...m.cards], touched: false })), hand: [...hand], history: [] };
}

const bare = (c: Card) => (c.startsWith("*") ? "*" : c);

/**
 * The sandbox with a hinted rearrangement already made: the hinted table
 * (its declarations kept), the hand without the cards it places, and the
 * table as it lies one undo away. Null when the hint does not fit the table
 * and hand (it needs cards the hand does not hold).
 */
export function sandboxFromHint(table: TableMeld[], hand: Card[], hinted: Card[][]): Sandbox | null {
  const start = openSandbox(table, hand);
  // Every card of the hinted table that the table does not hold comes from the hand.
  const onTable = table.flatMap((m) => m.cards.map(bare));
  const left = [...hand];
  for (const c of hinted.flat().map(bare)) {
    const t = onTable.indexOf(c);
    if (t >= 0) {
      onTable.splice(t, 1);
      continue;
    }
    const h = left.indexOf(c);
    if (h < 0) return null;
    left.splice(h, 1);
  }
  if (onTable.length > 0) return null; // a table card would go missing
  // The hint's declarations are kept (not touched): the engine checks them.
  return {
    melds: hinted.map((cards) => ({ cards: [...cards], touched: false })),
    hand: left,
    history: [{ melds: start.melds, hand: start.hand }],
  };
}

/** The cards of a meld as they would be sent (touched melds' jokers bare). */
export function meldCards(m: SandboxMeld): Card[] {
  return m.touched ? m.cards.map(bare) : m.cards;
}

export function isValid(m: SandboxMeld, rules?: MeldRules): boolean {
  return readings(meldCards(m), rules).length > 0;
}

/**
 * Move the cards at `spots` to meld `target` (`"new"`: a new meld). Cards
 * never leave the sandbox and table cards never go back to the hand (the
 * engine would refuse it anyway).
 */
export function move(sb: Sandbox, spots: Spot[], target: number | "new"): Sandbox {
  const melds = sb.melds.map((m) => ({ ...m, cards: [...m.cards] }));
  const hand = [...sb.hand];
  // The cards in the order they were picked (a meld's own cards stay put).
  const where = spots
    .map((s) => s.split(":"))
    .map((p) => (p[0] === "h" ? { meld: -1, k: Number(p[1]) } : { meld: Number(p[1]), k: Number(p[2]) }))
    .filter((w) => w.meld !== target);
  const moving: Card[] = [];
  for (const w of where) {
    const c = w.meld < 0 ? hand[w.k] : melds[w.meld]?.cards[w.k];
    if (c !== undefined) moving.push(w.meld < 0 ? c : bare(c));
  }
  // Take them out, back to front so the indices stay right.
  for (const w of [...where].sort((a, b) => b.meld - a.meld || b.k - a.k)) {
    if (w.meld < 0) hand.splice(w.k, 1);
    else {
      const m = melds[w.meld];
      if (m) {
        m.cards.splice(w.k, 1);
        m.touched = true;
      }
    }
  }
  if (moving.length === 0) return sb;
  if (target === "new") melds.push({ cards: moving, touched: true });
  else {
    const m = melds[target];
    if (!m) return sb;
    m.cards.push(...moving);
    m.touched = true;
  }
  return {
    melds: melds.filter((m) => m.cards.length > 0),
    hand,
    history: [...sb.history, { melds: sb.melds, hand: sb.hand }],
  };
}

export function undo(sb: Sandbox): Sandbox {
  const last = sb.history[sb.history.length - 1];
  if (!last) return sb;
  return { ...last, history: sb.history.slice(0, -1) };
}

/** Cards placed from the hand so far (since the state at the bottom of the
 *  undo history, or `handBefore`). */
export function placed(sb: Sandbox, handBefore: Card[]): number {
  return (sb.history[0]?.hand ?? handBefore).length - sb.hand.length;
}

/** The new table for the `rearrange` action. */
export function newTable(sb: Sandbox): Card[][] {
  return sb.melds.map(meldCards);
}
