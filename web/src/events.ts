// What the others did, in words and as highlights: one line per table event
// for the log (German or English through i18next), and which melds, seat and
// piles the last event touched so the table can animate them; and the
// hint's action in words.

import type { TFunction } from "i18next";
import { label, labels } from "./cards";
import type { Action, Card, TableEvent } from "./protocol";

type GameEvent = { type: string; seat?: number; [k: string]: unknown };

const cards = (v: unknown) => (Array.isArray(v) ? labels(v.map(String)) : label(String(v)));
const meldsText = (melds: string[][]) => melds.map(cards).join(" | ");

/** One log line for `event`, or null for events not worth a line. */
export function eventLine(event: TableEvent, name: (seat: number) => string, t: TFunction): string | null {
  switch (event.kind) {
    case "match_started":
      return t("events.match-started", { n: event.match_no });
    case "timed_out":
      return t("events.timed-out", { name: name(event.seat) });
    case "match_over":
      return t("events.match-over");
    case "seat":
      return null;
    case "chat":
      return null;
    case "game":
      return gameLine(event.event, name, t);
  }
}

function gameLine(e: GameEvent, name: (seat: number) => string, t: TFunction): string | null {
  const who = e.seat !== undefined ? name(e.seat) : "";
  switch (e.type) {
    case "game-started":
      return t("events.game-started", { n: e.game });
    case "drew": {
      if (e.from === "discard") return t("events.drew-discard", { name: who, card: cards(e.card) });
      return t("events.drew", { name: who });
    }
    case "melded": {
      const table = (e.table as { cards: string[] }[] | undefined) ?? [];
      const fresh = ((e.melds as number[] | undefined) ?? []).map((i) => cards(table[i]?.cards ?? []));
      const line = fresh.length ? t("events.melded", { name: who, melds: fresh.join(" | ") }) : t("events.laid-off", { name: who });
      return e.opening !== undefined ? `${line} ${t("events.opening", { n: e.opening })}` : line;
    }
    case "joker-exchanged":
      return t("events.joker-exchanged", { name: who, card: cards(e.card) });
    case "discarded":
      return t("events.discarded", { name: who, card: cards(e.card) });
    case "laid-down":
      return t("events.laid-down", { name: who });
    case "rearranged":
      return t("events.rearranged", { name: who, cards: cards(e.placed) });
    case "bought":
      return t("events.bought", { name: who, card: cards(e.card) });
    case "knocked":
      return t("events.knocked", { name: who, card: cards(e.card) });
    case "stock-reshuffled":
      return t("events.reshuffled");
    case "game-ended":
      return e.winner !== undefined ? t("events.won-game", { name: name(Number(e.winner)) }) : t("events.game-ended");
    case "turn-ended":
      return t("events.turn-ended", { name: who });
    case "placed":
      return t("events.placed", { n: Number(e.hand) + 1, card: cards(e.out) });
    case "hand-closed":
      return t("events.hand-closed", { n: Number(e.hand) + 1, melds: meldsText((e.melds as string[][]) ?? []) });
    default:
      return null;
  }
}

/** What the last event touched: the seat that acted, melds, the piles. */
export interface Highlight {
  version: number;
  seat: number | null;
  melds: number[];
  discard: boolean;
  stock: boolean;
  /** The solo patience's hands. */
  hands: number[];
}

export function highlight(version: number, event: TableEvent | undefined): Highlight {
  const none: Highlight = { version, seat: null, melds: [], discard: false, stock: false, hands: [] };
  if (!event || event.kind !== "game") return none;
  const e = event.event;
  const seat = typeof e.seat === "number" ? e.seat : null;
  switch (e.type) {
    case "drew":
      return { ...none, seat, discard: e.from === "discard", stock: e.from !== "discard" };
    case "melded":
      return { ...none, seat, melds: [...((e.melds as number[]) ?? []), ...((e.laid_off as number[]) ?? [])] };
    case "joker-exchanged":
      return { ...none, seat, melds: [Number(e.meld)] };
    case "rearranged":
      return { ...none, seat, melds: ((e.table as unknown[]) ?? []).map((_, i) => i) };
    case "placed":
    case "hand-closed":
      return { ...none, hands: [Number(e.hand)], discard: e.type === "placed" };
    case "discarded":
    case "bought":
    case "knocked":
      return { ...none, seat, discard: true };
    default:
      return { ...none, seat };
  }
}

/** The hint's action in words ("Discard Q♠", "Rearrange the table: …");
 *  `drawn` is the card drawn this turn (the patience's placements). */
export function hintText(a: Action, t: (k: string, o?: Record<string, unknown>) => string, drawn?: Card): string {
  switch (a.type) {
    case "draw":
      return t(a.from === "discard" ? "hintDrawDiscard" : "hintDrawStock");
    case "discard":
      return t("hintDiscard", { card: label(a.card) });
    case "meld": {
      const offs = (a.lay_offs ?? []).map((p) => cards(p.cards)).join(", ");
      return t("hintMeld", { melds: meldsText(a.melds) }) + (offs ? ` + ${t("hintLayOff", { cards: offs })}` : "");
    }
    case "lay-off":
      return t("hintLayOff", { cards: cards(a.cards) });
    case "exchange-joker":
      return t("exchange") + ` (${label(a.card)})`;
    case "rearrange":
      return t("hintRearrange", { melds: meldsText(a.table) });
    case "lay-down":
      return t("hintLayDown", { melds: meldsText(a.melds) }) + (a.discard ? `, ${t("hintDiscard", { card: label(a.discard) })}` : "");
    case "call-romme":
      return t("hintCallRomme") + (a.discard ? `, ${t("hintDiscard", { card: label(a.discard) })}` : "");
    case "end-turn":
      return t("hintEndTurn");
    case "buy":
      return t("buy");
    case "knock":
      return t("knock");
    case "place":
      return a.out === drawn
        ? t("hintDropDrawn", { card: label(a.out) })
        : t("hintPlace", { n: a.hand + 1, card: label(a.out) });
  }
}

/** The card the patience's last placement took out of the game, if the log
 *  holds one. */
export function lastPlaced(log: { event: TableEvent }[]): Card | null {
  for (let i = log.length - 1; i >= 0; i--) {
    const ev = log[i]?.event;
    if (ev?.kind === "game" && ev.event.type === "placed") return String(ev.event.out);
  }
  return null;
}
