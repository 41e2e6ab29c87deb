//! Computer players for every ruleset of the rules library.
//!
//! A bot decides from its seat's information only: it receives a
//! [`SeatState`] (the engine's copy of the game with every hidden card taken
//! out) and the events of the game as its seat may see them. Three levels:
//!
//! * [`RandomBot`]: uniform over the legal actions (testing, throughput).
//! * [`HeuristicBot`]: solver-driven rules of thumb (take the discard when
//!   it lowers the deadwood, meld when it pays, keep jokers, discard the
//!   highest useless card that the next player is not known to want).
//! * [`ExpertBot`]: determinized Monte Carlo search: it samples the hidden
//!   cards consistently with what its seat saw, tries each candidate move on
//!   every sample and plays the samples on with heuristic players, within a
//!   time or iteration budget.
//!
//! A bot that decides from the legal actions alone (the random bot) is also
//! a [`MoveBot`]: it can be handed only its seat's [`Moves`], which spares
//! building the seat's state.
//!
//! [`play_match`] plays one match with one bot per seat; the CLI's
//! `simulate` and `arena` commands and the server's empty seats use it.
//! Every bot is deterministic for a given seed (an iteration budget makes
//! the expert deterministic too; a time budget depends on the machine).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use romme_engine::{Action, Event, Moves, SeatState};

pub mod arena;
mod eval;
pub mod expert;
pub mod heuristic;
mod patience;
pub mod play;
mod playout;
pub mod random;
pub mod sim;

pub use expert::{Budget, ExpertBot};
pub use heuristic::HeuristicBot;
pub use play::{MatchResult, PlayError, play_match};
pub use random::RandomBot;

/// A computer player for one seat.
pub trait Bot: Send {
    /// The action for the seat on turn (`state.legal_actions()` is not
    /// empty). Must be one of the legal actions, or another legal action.
    fn act(&mut self, state: &SeatState) -> Action;

    /// Out of turn, while a discarded card may be bought or knocked for:
    /// `Some` claim from `state.legal_actions()`, or `None` to pass.
    fn claim(&mut self, state: &SeatState) -> Option<Action> {
        let _ = state;
        None
    }

    /// Events of the game as this seat may see them (other seats' stock
    /// draws are hidden), in order. Bots that remember use this.
    fn observe(&mut self, events: &[Event]) {
        let _ = events;
    }

    /// Whether [`Bot::observe`] reads the events at all; a bot that does
    /// not is spared filtering them for its seat after every action.
    fn observes(&self) -> bool {
        true
    }

    /// The bot as a [`MoveBot`], if it decides from the legal actions
    /// alone: [`play_match`] then hands it only the seat's [`Moves`] and
    /// does not build a [`SeatState`] for it.
    fn as_move_bot(&mut self) -> Option<&mut dyn MoveBot> {
        None
    }
}

/// A bot that needs nothing but its seat's legal actions (the random bot).
/// Its answers must be the ones it gives as a [`Bot`] from the seat's
/// `SeatState` (which lists the same actions).
pub trait MoveBot {
    /// As [`Bot::act`], from the seat's moves.
    fn act_on(&mut self, moves: &Moves<'_>) -> Action;

    /// As [`Bot::claim`], from the seat's moves.
    fn claim_on(&mut self, moves: &Moves<'_>) -> Option<Action>;
}

/// A bot level with its settings, as written on the command line:
/// `random`, `heuristic`, `expert` (200 ms per move), `expert:50ms`,
/// `expert:400it` (400 sampled playouts per move, deterministic).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotSpec {
    /// [`RandomBot`].
    Random,
    /// [`HeuristicBot`].
    Heuristic,
    /// [`ExpertBot`] with a budget per move.
    Expert(Budget),
}

impl BotSpec {
    /// A new bot of this level, seeded.
    pub fn build(&self, seed: u64) -> Box<dyn Bot> {
        match *self {
            BotSpec::Random => Box::new(RandomBot::new(seed)),
            BotSpec::Heuristic => Box::new(HeuristicBot::new(seed)),
            BotSpec::Expert(budget) => Box::new(ExpertBot::new(seed, budget)),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => write!(f, "random"),
            BotSpec::Heuristic => write!(f, "heuristic"),
            BotSpec::Expert(Budget::Time(d)) => write!(f, "expert:{}ms", d.as_millis()),
            BotSpec::Expert(Budget::Iterations(n)) => write!(f, "expert:{n}it"),
        }
    }
}

/// A bot level that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown bot '{0}': use random, heuristic, expert, expert:<N>ms (time per move) or expert:<N>it (playouts per move)"
)]
pub struct BotSpecError(pub String);

impl FromStr for BotSpec {
    type Err = BotSpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BotSpecError(s.to_string());
        let (level, arg) = match s.trim().split_once(':') {
            Some((l, a)) => (l, Some(a)),
            None => (s.trim(), None),
        };
        match (level, arg) {
            ("random", None) => Ok(BotSpec::Random),
            ("heuristic", None) => Ok(BotSpec::Heuristic),
            ("expert", None) => Ok(BotSpec::Expert(Budget::default())),
            ("expert", Some(a)) => {
                if let Some(ms) = a.strip_suffix("ms") {
                    let ms: u64 = ms.parse().map_err(|_| bad())?;
                    if ms == 0 {
                        return Err(bad());
                    }
                    Ok(BotSpec::Expert(Budget::Time(Duration::from_millis(ms))))
                } else if let Some(n) = a.strip_suffix("it") {
                    let n: u32 = n.parse().map_err(|_| bad())?;
                    if n == 0 {
                        return Err(bad());
                    }
                    Ok(BotSpec::Expert(Budget::Iterations(n)))
                } else {
                    Err(bad())
                }
            }
            _ => Err(bad()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_and_print_back() {
        for s in ["random", "heuristic", "expert:50ms", "expert:400it"] {
            let spec: BotSpec = s.parse().expect(s);
            assert_eq!(spec.to_string(), s);
        }
        assert_eq!(
            "expert".parse::<BotSpec>(),
            Ok(BotSpec::Expert(Budget::default()))
        );
        for bad in [
            "",
            "smart",
            "expert:",
            "expert:0ms",
            "expert:fast",
            "random:3",
        ] {
            let e = bad.parse::<BotSpec>().expect_err(bad);
            assert!(e.to_string().contains("unknown bot"), "{e}");
        }
    }
}
