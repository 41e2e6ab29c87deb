//! The wire protocol: every JSON message a client sends over the WebSocket
//! and every message the server sends back. `PROTOCOL.md` at the repository
//! root documents them with examples; the types here are the source of
//! truth (tagged by `"type"`, field names in `snake_case`).

use romme_engine::{Action, View};
use serde::{Deserialize, Serialize};

use crate::table::{TableEvent, TableInfo};

/// Which ruleset a new table plays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RulesChoice {
    /// A preset by name (`klassisch`, `offen`, …).
    Preset {
        /// The preset's name.
        preset: String,
    },
    /// A ruleset in the project's TOML format; `base = "klassisch"` plus
    /// the knobs to change is enough.
    Toml {
        /// The TOML text.
        toml: String,
    },
}

/// What happens when a seated human's turn timer runs out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutPolicy {
    /// The heuristic bot finishes the turn for the player.
    #[default]
    Bot,
    /// The player forfeits the match (ranked last); a bot plays the seat on.
    Forfeit,
}

/// A new table's settings, as a client asks for them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    /// The ruleset.
    pub rules: RulesChoice,
    /// Number of seats.
    pub seats: usize,
    /// Listed in the lobby (otherwise reachable only by its invite link).
    #[serde(default = "yes")]
    pub public: bool,
    /// A display name for the lobby.
    #[serde(default)]
    pub name: Option<String>,
    /// Seconds a human has per turn (`None`: no timer).
    #[serde(default)]
    pub turn_seconds: Option<u32>,
    /// What happens when the turn timer runs out.
    #[serde(default)]
    pub on_timeout: TimeoutPolicy,
    /// Seconds a disconnected player has to come back before a bot plays
    /// for them (while the match runs).
    #[serde(default = "default_reconnect")]
    pub reconnect_seconds: u32,
    /// Seconds humans have to buy or knock for a discard before a bot on
    /// turn draws (humans can also pass at once).
    #[serde(default = "default_claim")]
    pub claim_seconds: u32,
    /// Pause before each bot action, so people can follow (0 for tests and
    /// load runs).
    #[serde(default = "default_bot_delay")]
    pub bot_delay_ms: u32,
    /// Bots for seats, by seat: `random`, `heuristic`, `expert`,
    /// `expert:50ms`, … (`None`: left for humans).
    #[serde(default)]
    pub bots: Vec<Option<String>>,
}

fn yes() -> bool {
    true
}
fn default_reconnect() -> u32 {
    60
}
fn default_claim() -> u32 {
    5
}
fn default_bot_delay() -> u32 {
    600
}

/// One message from a client: `{"type": …, "id": …, …}`. Every request
/// but `hello` carries a client-chosen `id` that the answer (`ack` or
/// `reject`) repeats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientMsg {
    /// Client-chosen; repeated in the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    /// What to do.
    #[serde(flatten)]
    pub op: Op,
}

/// What a request asks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Op {
    /// The first message: who is connecting. Either a session token from an
    /// earlier `welcome` (or `/api/login`), or a nickname for a new guest.
    Hello {
        /// A session token.
        #[serde(default)]
        token: Option<String>,
        /// A nickname for a new guest player.
        #[serde(default)]
        guest: Option<String>,
    },
    /// The lobby: public tables that have not finished.
    List,
    /// Create a table; the answer carries its id.
    Create {
        /// The settings.
        table: Box<NewTable>,
    },
    /// Follow a table: the answer is a `snapshot` (or, with `last_version`,
    /// exactly the missing `event`s when they are still held).
    Join {
        /// The table id.
        table: String,
        /// The last version this client saw, when reconnecting.
        #[serde(default)]
        last_version: Option<u64>,
        /// Also send a fresh `state` (the table as this client may see
        /// it) after every change, for clients that draw the table from
        /// views rather than replaying events (the web client).
        #[serde(default)]
        views: bool,
    },
    /// Stop following a table.
    Unjoin {
        /// The table id.
        table: String,
    },
    /// Take an empty seat.
    Sit {
        /// The table id.
        table: String,
        /// The seat.
        seat: usize,
    },
    /// Leave one's seat (while a match runs, a bot takes it over).
    Leave {
        /// The table id.
        table: String,
    },
    /// Put a bot into an empty seat (`level: null` takes it out again).
    SetBot {
        /// The table id.
        table: String,
        /// The seat.
        seat: usize,
        /// `random`, `heuristic`, `expert`, `expert:50ms`, …
        level: Option<String>,
    },
    /// Start the match (all seats taken), or a rematch after one ended.
    Start {
        /// The table id.
        table: String,
    },
    /// A game action of one's seat.
    Act {
        /// The table id.
        table: String,
        /// The seat's action number: 1 for its first action at this table,
        /// then one more each time (`next_seq` in snapshots and events).
        seq: u64,
        /// The action.
        action: Action,
    },
    /// Let the current buy/knock chance pass.
    Pass {
        /// The table id.
        table: String,
    },
    /// The heuristic bot's suggestion for one's seat.
    Hint {
        /// The table id.
        table: String,
    },
    /// Say something at the table.
    Chat {
        /// The table id.
        table: String,
        /// At most 500 characters.
        text: String,
    },
}

/// One message from the server.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The answer to `hello`.
    Welcome {
        /// The player's id.
        player: String,
        /// The player's name.
        name: String,
        /// A session token to send in later `hello`s (or as a bearer
        /// token / `romme_session` cookie).
        token: String,
    },
    /// A request was done.
    Ack {
        /// The request's id.
        id: u64,
        /// The table version after it (requests that change a table).
        #[serde(skip_serializing_if = "Option::is_none")]
        version: Option<u64>,
        /// A result: the new table's id, the lobby list, a hint.
        #[serde(skip_serializing_if = "Option::is_none")]
        result: Option<serde_json::Value>,
    },
    /// A request was refused; nothing changed.
    Reject {
        /// The request's id (`None` when the message could not be read).
        id: Option<u64>,
        /// A stable code (`malformed`, `too_large`, `illegal_action`, …).
        code: RejectCode,
        /// What was wrong, in words (the engine's reason for actions).
        message: String,
        /// For `illegal_action`: the engine's reason as data, `{"code":
        /// "not_in_hand", "args": "7h"}` (codes and arguments in
        /// PROTOCOL.md), so that a client can translate it.
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<serde_json::Value>,
    },
    /// The whole state of a table as this connection may see it.
    Snapshot(Box<Snapshot>),
    /// The table after a change, for followers that asked for `views`
    /// (same fields as a snapshot).
    State(Box<Snapshot>),
    /// One table event, numbered; filtered for this connection's seat.
    Event {
        /// The table id.
        table: String,
        /// The event's version (contiguous per table).
        version: u64,
        /// The event.
        event: TableEvent,
        /// The viewer's next action number, when seated.
        #[serde(skip_serializing_if = "Option::is_none")]
        next_seq: Option<u64>,
    },
    /// The server closes the connection (idle, too many messages, …).
    Bye {
        /// Why.
        reason: String,
    },
}

/// Why a request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RejectCode {
    /// Not JSON, or not a known message.
    Malformed,
    /// Over the frame limit.
    TooLarge,
    /// `hello` first (or a bad token).
    Unauthenticated,
    /// Too many messages.
    RateLimited,
    /// No such table.
    NoTable,
    /// The seat is not this player's (or does not exist).
    NotYourSeat,
    /// The seat is taken.
    SeatTaken,
    /// `seq` was already used.
    Duplicate,
    /// `seq` skips numbers, or the state moved on since the client's view.
    OutOfSequence,
    /// The engine refused the action.
    IllegalAction,
    /// Not possible in the table's current state (start with empty seats, …).
    InvalidState,
    /// Bad settings (unknown preset, invalid ruleset, bad bot level, …).
    BadSettings,
    /// Something failed on the server (storage); nothing changed.
    Internal,
}

/// A table as one viewer may see it.
#[derive(Debug, Clone, Serialize)]
pub struct Snapshot {
    /// The table id.
    pub table: String,
    /// The version of the last event included in this state.
    pub version: u64,
    /// Seats, settings, status, match score sheet.
    pub info: TableInfo,
    /// The viewer's seat, when seated.
    pub seat: Option<usize>,
    /// The game as the viewer may see it (no other hands, no stock order).
    pub game: Option<View>,
    /// The viewer's next action number, when seated.
    pub next_seq: Option<u64>,
    /// Recent chat.
    pub chat: Vec<crate::table::ChatLine>,
}

/// Upper bound of a chat line, in characters.
pub const MAX_CHAT: usize = 500;
