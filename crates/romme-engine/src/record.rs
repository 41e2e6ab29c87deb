//! Game records: the ruleset, the seats, the seed and the action log. A
//! record reproduces its match exactly ([`Record::replay`]); `romme replay`
//! prints one step by step.

use romme_core::ruleset::Ruleset;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::action::Action;
use crate::error::{ActionError, NewGameError};
use crate::game::{Deal, Game};

/// A match as data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The full ruleset (not only its name: house rules travel with it).
    pub rules: Ruleset,
    /// Number of seats.
    pub seats: usize,
    /// The match seed.
    pub seed: u64,
    /// The explicit first deal, if the match had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<Deal>,
    /// Every accepted action with its seat, in order.
    pub actions: Vec<(usize, Action)>,
}

/// Why a record does not replay.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// The game cannot be created.
    #[error(transparent)]
    New(#[from] NewGameError),
    /// An action was refused.
    #[error("action {index} (seat {seat}) was refused: {error}")]
    Refused {
        /// 0-based index in the log.
        index: usize,
        /// The seat.
        seat: usize,
        /// Why.
        error: ActionError,
    },
}

impl Record {
    /// The record of `game` so far.
    pub fn of(game: &Game) -> Record {
        Record {
            rules: game.rules().clone(),
            seats: game.seats(),
            seed: game.seed(),
            deal: game.fixed_deal().cloned(),
            actions: game.actions().to_vec(),
        }
    }

    /// The match as it was before the first action.
    pub fn start(&self) -> Result<Game, NewGameError> {
        match &self.deal {
            Some(d) => Game::with_deal(self.rules.clone(), self.seats, self.seed, d.clone()),
            None => Game::new(self.rules.clone(), self.seats, self.seed),
        }
    }

    /// Replay the whole record.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        let mut game = self.start()?;
        for (index, (seat, action)) in self.actions.iter().enumerate() {
            game.apply(*seat, action.clone())
                .map_err(|error| ReplayError::Refused {
                    index,
                    seat: *seat,
                    error,
                })?;
        }
        Ok(game)
    }
}
