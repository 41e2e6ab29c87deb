// Cards in the project's notation: parsing, sorting, display, and grouping
// a hand into likely sets and runs.

import type { Card } from "./protocol";

export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS = ["c", "s", "h", "d"];
// Five Crowns' stars are "✦", so that they are never taken for a joker ("★").
const SUIT_SYMBOL: Record<string, string> = { c: "♣", s: "♠", h: "♥", d: "♦", x: "✦" };

export interface Parsed {
  joker: boolean;
  rank: string | null;
  suit: string | null;
  /** For a declared joker (`*=8h`): the card it stands for. */
  stands?: Parsed;
}

export function parse(card: Card): Parsed {
  const [base = "", decl] = card.split("=");
  const stands = decl ? parse(decl) : undefined;
  if (base.startsWith("*")) return { joker: true, rank: null, suit: null, stands };
  // A natural wild card (Five Crowns' round rank) may be declared too:
  // "4c=5d" is the 4♣ standing for the 5♦.
  return { joker: false, rank: base.slice(0, -1), suit: base.slice(-1), stands };
}

export function rankIndex(card: Card): number {
  const p = parse(card);
  return p.rank ? RANKS.indexOf(p.rank) : 99;
}

export function suitIndex(card: Card): number {
  const p = parse(card);
  return p.suit ? SUITS.indexOf(p.suit) : 99;
}

export function isRed(card: Card): boolean {
  const p = parse(card);
  // A joker in the colour of the card it stands for; a natural wild card
  // (Five Crowns) in its own.
  const s = p.joker ? p.stands?.suit : p.suit;
  return s === "h" || s === "d";
}

/** Labels of several cards, separated by spaces ("7♥ 8♥ ★=9♥"). */
export function labels(cards: Card[]): string {
  return cards.map(label).join(" ");
}

/** Whether `card` is of the round's wild rank (`rank`, Five Crowns): a
 *  natural card that is wild this round. */
export function isRoundWild(card: Card, rank: string | null | undefined): boolean {
  return !!rank && parse(card).rank === rank;
}

/** The rank that is wild in Five Crowns round `round` (1-based): 3 in the
 *  first, K in the eleventh. */
export function roundWildRank(round: number): string | null {
  return round >= 1 && round <= 11 ? (RANKS[round] ?? null) : null;
}

/** A short label: "7♥", "10♠", "★" (joker), "★=8♥", "4♣=5♦" (a declared
 *  natural wild card). */
export function label(card: Card): string {
  const p = parse(card);
  const face = (q: Parsed) => `${q.rank}${SUIT_SYMBOL[q.suit ?? ""] ?? q.suit ?? ""}`;
  const own = p.joker ? "★" : face(p);
  return p.stands ? `${own}=${face(p.stands)}` : own;
}

export function sortBySuit(hand: Card[]): Card[] {
  return [...hand].sort((a, b) => suitIndex(a) - suitIndex(b) || rankIndex(a) - rankIndex(b));
}

export function sortByRank(hand: Card[]): Card[] {
  return [...hand].sort((a, b) => rankIndex(a) - rankIndex(b) || suitIndex(a) - suitIndex(b));
}

/**
 * Keep the order the player chose: cards still in the hand stay where they
 * were, new cards go to the end. Copies of the same card are matched one by one.
 */
export function keepOrder(previous: Card[], hand: Card[]): Card[] {
  const left = [...hand];
  const out: Card[] = [];
  for (const c of previous) {
    const i = left.indexOf(c);
    if (i >= 0) {
      out.push(c);
      left.splice(i, 1);
    }
  }
  return out.concat(left);
}

/**
 * One-tap grouping: sets (same rank, different suits) first, then runs
 * (same suit, consecutive ranks, at least three), then the rest; jokers last.
 * Returns the groups in order (the last one holds what fits nowhere).
 */
export function groups(hand: Card[]): Card[][] {
  const rest = [...hand];
  const out: Card[][] = [];
  const take = (cards: Card[]) => {
    for (const c of cards) rest.splice(rest.indexOf(c), 1);
    out.push(cards);
  };
  for (const rank of RANKS) {
    const same = rest.filter((c) => !parse(c).joker && parse(c).rank === rank);
    const distinct: Card[] = [];
    for (const c of same) if (!distinct.some((d) => parse(d).suit === parse(c).suit)) distinct.push(c);
    if (distinct.length >= 3) take(distinct.slice(0, 4));
  }
  for (const suit of SUITS) {
    const ofSuit = sortByRank(rest.filter((c) => !parse(c).joker && parse(c).suit === suit));
    let run: Card[] = [];
    const flush = () => {
      if (run.length >= 3) take(run);
      run = [];
    };
    for (const c of ofSuit) {
      const last = run[run.length - 1];
      if (last && rankIndex(c) === rankIndex(last)) continue;
      if (last && rankIndex(c) !== rankIndex(last) + 1) flush();
      run.push(c);
    }
    flush();
  }
  const jokers = rest.filter((c) => parse(c).joker);
  const others = rest.filter((c) => !parse(c).joker);
  out.push([...sortBySuit(others), ...jokers]);
  return out;
}
