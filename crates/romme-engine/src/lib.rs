//! # romme-engine
//!
//! A pure, deterministic state machine that plays whole matches of Rommé:
//! legal actions in, events out, no I/O. The server, bots, CLI and tests all
//! drive it.
//!
//! * [`Game`] (module `game`): the secret state and [`Game::apply`], which
//!   leaves the game untouched and says precisely what was wrong when it
//!   refuses an action;
//! * [`Action`] (module `action`) and [`Event`] (module `event`):
//!   serde-serializable; [`Event::for_viewer`] hides other seats' cards;
//! * [`View`] (module `view`): what one seat or a spectator may know;
//! * module `legal`: the listed legal actions of a seat;
//! * [`SeatState`] (module `seat_state`): what one seat knows, as a game
//!   a bot can search; [`Moves`] (module `moves`): only its legal actions,
//!   for bots that need no more;
//! * [`Record`] (module `record`): ruleset, seats, seed and actions, which
//!   replay a match exactly.
//!
//! Modelled on `shakmaty`'s position type (legal moves, typed errors) and
//! boardgame.io's moves, phases and player views.

pub mod action;
pub mod claims;
mod concealed;
mod draw;
pub mod driver;
pub mod error;
pub mod event;
mod flow;
pub mod game;
pub mod legal;
mod meld_cache;
pub mod moves;
pub mod patience;
mod play;
mod play_bound;
mod rearrange;
pub mod record;
pub mod seat_state;
mod stock;
pub mod view;
#[cfg(test)]
mod walk;

pub use action::{Action, DrawSource, LayOffPart};
pub use claims::Claims;
pub use error::{ActionError, NewGameError};
pub use event::{EndReason, Event, LayDownKind, TableMeld};
pub use game::{Deal, Game, LastTurns, Phase, WarmCaches};
pub use moves::Moves;
pub use record::{Record, ReplayError};
pub use seat_state::SeatState;
pub use view::{SeatInfo, View};
