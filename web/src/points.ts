// The opening-points counter: what the melds set aside are worth under the
// usual values (2–10 face value, pictures 10, ace 11 — 1 at the low end of a
// run — and a joker the card it stands for).

import { parse, RANKS } from "./cards";
import type { Card } from "./protocol";

function rankValue(rank: string, lowAce: boolean): number {
  if (rank === "A") return lowAce ? 1 : 11;
  if (rank === "J" || rank === "Q" || rank === "K") return 10;
  return Number(rank) || 0;
}

/** The value of one meld (a set or a run); jokers take the place they fill. */
export function meldValue(meld: Card[]): number {
  const naturals = meld.filter((c) => !parse(c).joker || parse(c).stands);
  const ranks = naturals.map((c) => (parse(c).stands ?? parse(c)).rank ?? "");
  const isSet = ranks.length > 0 && ranks.every((r) => r === ranks[0]);
  if (isSet) return meld.length * rankValue(ranks[0] ?? "", false);
  // A run: from its lowest natural card, one rank per card.
  const idx = ranks.map((r) => RANKS.indexOf(r)).filter((i) => i >= 0);
  if (idx.length === 0) return 0;
  let start = Math.min(...idx);
  // Jokers beyond the naturals extend the run upwards while possible.
  if (start + meld.length - 1 > RANKS.length - 1) start = RANKS.length - meld.length;
  let sum = 0;
  for (let i = 0; i < meld.length; i++) {
    const r = RANKS[start + i] ?? "";
    sum += rankValue(r, false);
  }
  return sum;
}

export function meldsValue(melds: Card[][]): number {
  return melds.reduce((s, m) => s + meldValue(m), 0);
}
