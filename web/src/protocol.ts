// The server's wire protocol (PROTOCOL.md at the repository root): the
// messages this client sends and receives.

export type Card = string; // "7h", "10s", "*", "*=8h"

export interface TableMeld {
  owner: number;
  cards: Card[];
}

export interface SeatInfo {
  seat: number;
  playing: boolean;
  cards: number;
  opened: boolean;
  shown?: Card[];
  known?: Card[];
}

export interface Claims {
  discarder: number;
  card: Card;
  buyers: number[];
}

export interface GameView {
  seat: number | null;
  hand: Card[] | null;
  table: TableMeld[];
  discard: Card[];
  stock: number;
  stock_piles: number[];
  seats: SeatInfo[];
  turn: number | null;
  phase: string;
  claims: Claims | null;
  /** Concealed play: the last turns after a seat laid down or knocked. */
  last_turns?: { by: number; knocked: boolean; left: number[] } | null;
  taken: Card | null;
  /** The solo patience (`koenigs-solo`): every hand lies open. */
  patience?: PatienceView | null;
  game: number;
  dealer: number;
  /** The running match sheet: each game's score, the totals so far. */
  sheet?: MatchSheetView;
  rules: string;
}

export interface MatchSheetView {
  games: { players: { hand_points: number; points: number; rating: number | null; won: boolean }[] }[];
  totals: {
    points: number;
    rating_plus: number;
    rating_minus: number;
    games_won: number;
    eliminated_after: number | null;
  }[];
}

export interface PatienceView {
  /** Each hand's cards while it is open (empty once closed). */
  hands: Card[][];
  /** Each closed hand's melds. */
  closed: (Card[][] | null)[];
}

export type Occupant =
  | { kind: "empty" }
  | { kind: "human"; player: string; name: string }
  | { kind: "bot"; level: string };

export interface SeatPublic {
  seat: number;
  occupant: Occupant;
  away: boolean;
  forfeited: boolean;
}

export interface Placing {
  seat: number;
  name: string;
  place: number;
  points: number;
  games_won: number;
  forfeited: boolean;
}

export interface MatchSummary {
  match_no: number;
  placings: Placing[];
}

export interface RulesInfo {
  title_de: string;
  title_en: string;
  summary_de: string;
  summary_en: string;
}

export interface TableInfo {
  id: string;
  name: string;
  rules: { name: string; info: RulesInfo; opening: { threshold: number } } & Record<string, unknown>;
  /** Whether a wild card's declaration can matter (the server's
   *  `Ruleset::declarations_matter`): only then is the player asked. */
  declarations_matter: boolean;
  seats: SeatPublic[];
  status: "waiting" | "playing" | "finished";
  match_no: number;
  public: boolean;
  turn_seconds: number | null;
  matches: MatchSummary[];
}

export interface ChatLine {
  name: string;
  seat: number | null;
  text: string;
}

export interface Snapshot {
  table: string;
  version: number;
  info: TableInfo;
  seat: number | null;
  game: GameView | null;
  next_seq: number | null;
  chat: ChatLine[];
}

export interface LobbyEntry {
  id: string;
  name: string;
  rules: string;
  seats: number;
  free: number;
  status: string;
}

export type ServerMsg =
  | { type: "welcome"; player: string; name: string; token: string }
  | { type: "ack"; id: number; version?: number; result?: unknown }
  | { type: "reject"; id: number | null; code: string; message: string; reason?: { code: string; args?: unknown } }
  | ({ type: "snapshot" } & Snapshot)
  | ({ type: "state" } & Snapshot)
  | { type: "event"; table: string; version: number; event: TableEvent; next_seq?: number }
  | { type: "bye"; reason: string };

export type TableEvent =
  | { kind: "seat"; seat: SeatPublic }
  | { kind: "match_started"; match_no: number }
  | { kind: "game"; event: { type: string; seat?: number; [k: string]: unknown } }
  | { kind: "chat"; line: ChatLine }
  | { kind: "timed_out"; seat: number }
  | { kind: "match_over"; summary: MatchSummary };

export type Action =
  | { type: "draw"; from: "stock" | "discard" | { pile: number } }
  | { type: "meld"; melds: Card[][]; lay_offs?: { meld: number; cards: Card[] }[] }
  | { type: "lay-off"; meld: number; cards: Card[] }
  | { type: "exchange-joker"; meld: number; card: Card }
  | { type: "discard"; card: Card }
  | { type: "call-romme"; discard?: Card }
  | { type: "lay-down"; melds: Card[][]; discard?: Card }
  | { type: "rearrange"; table: Card[][] }
  | { type: "end-turn" }
  | { type: "place"; hand: number; out: Card }
  | { type: "buy" }
  | { type: "knock" };
