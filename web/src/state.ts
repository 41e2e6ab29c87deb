// The client's state as a pure reducer over server messages: the table as
// the server last described it, the last event version seen (for resuming
// after a dropped connection), a short log of what others did, the last
// refusal, and the hand order the player chose.

import { keepOrder } from "./cards";
import type { Card, ServerMsg, Snapshot, TableEvent } from "./protocol";

export interface LogLine {
  version: number;
  event: TableEvent;
}

export interface Refusal {
  code: string;
  message: string;
  /** The engine's reason as data, for translation. */
  reason: { code: string; args?: unknown } | null;
}

export interface ClientState {
  me: { player: string; name: string } | null;
  table: Snapshot | null;
  /** Last event version seen of `table` (0: none yet). */
  version: number;
  /** A version was skipped: ask for the missing events again. */
  gap: boolean;
  log: LogLine[];
  refusal: Refusal | null;
  /** The hand in the order the player arranged it. */
  hand: Card[];
}

export const initial: ClientState = {
  me: null,
  table: null,
  version: 0,
  gap: false,
  log: [],
  refusal: null,
  hand: [],
};

const LOG_KEPT = 40;

export function reduce(state: ClientState, msg: ServerMsg): ClientState {
  switch (msg.type) {
    case "welcome":
      return { ...state, me: { player: msg.player, name: msg.name } };
    case "snapshot":
    case "state": {
      if (state.table && state.table.table === msg.table && msg.version < state.version) {
        return state; // older than what we have
      }
      const { type: _t, ...snap } = msg;
      const hand = snap.game?.hand ?? [];
      return {
        ...state,
        table: snap,
        version: Math.max(msg.type === "snapshot" ? msg.version : state.version, msg.version),
        gap: false,
        hand: keepOrder(state.hand, hand),
      };
    }
    case "event": {
      if (state.table && msg.table !== state.table.table) return state;
      if (msg.version <= state.version) return state; // already seen
      const gap = state.version > 0 && msg.version !== state.version + 1;
      const log = [...state.log, { version: msg.version, event: msg.event }].slice(-LOG_KEPT);
      const table =
        state.table && msg.next_seq !== undefined ? { ...state.table, next_seq: msg.next_seq } : state.table;
      return { ...state, version: msg.version, gap: state.gap || gap, log, table };
    }
    case "reject":
      return { ...state, refusal: { code: msg.code, message: msg.message, reason: msg.reason ?? null } };
    case "ack":
    case "bye":
      return state;
  }
}

/** The player moved a card in the hand (drag and drop). */
export function reorder(state: ClientState, from: number, to: number): ClientState {
  const hand = [...state.hand];
  const [card] = hand.splice(from, 1);
  if (card === undefined) return state;
  hand.splice(to, 0, card);
  return { ...state, hand };
}

/** Replace the hand order (sorting, grouping). */
export function arrange(state: ClientState, hand: Card[]): ClientState {
  return { ...state, hand: keepOrder(hand, state.hand) };
}

export function clearRefusal(state: ClientState): ClientState {
  return { ...state, refusal: null };
}

/** Whether the viewer's seat is on turn. */
export function myTurn(state: ClientState): boolean {
  const g = state.table?.game;
  return !!g && g.seat !== null && g.turn === g.seat;
}
