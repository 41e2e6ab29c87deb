//! The random bot: uniform over the legal actions, for tests and
//! throughput figures.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use romme_engine::{Action, SeatState};

use crate::Bot;

/// Picks uniformly among the listed legal actions; out of turn it claims a
/// card one time in five.
#[derive(Debug, Clone)]
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot with its own seed.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Bot for RandomBot {
    fn act(&mut self, state: &SeatState) -> Action {
        // The caller guarantees a legal action; end the turn otherwise.
        state
            .random_legal_action(&mut self.rng)
            .unwrap_or(Action::EndTurn)
    }

    fn claim(&mut self, state: &SeatState) -> Option<Action> {
        if !self.rng.random_bool(0.2) {
            return None;
        }
        state.random_legal_action(&mut self.rng)
    }

    /// It remembers nothing, so it needs no events.
    fn observes(&self) -> bool {
        false
    }
}
