//! The random bot: uniform over the legal actions, for tests and
//! throughput figures.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use romme_engine::{Action, Moves, SeatState};

use crate::{Bot, MoveBot};

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

impl RandomBot {
    /// The action on turn from `pick` (a uniform draw from the seat's legal
    /// actions).
    fn act_with(&mut self, pick: impl FnOnce(&mut ChaCha8Rng) -> Option<Action>) -> Action {
        // The caller guarantees a legal action; end the turn otherwise.
        // (A match, not `unwrap_or`: the default would be made and dropped
        // on every action.)
        match pick(&mut self.rng) {
            Some(a) => a,
            None => Action::EndTurn,
        }
    }

    /// A claim one time in five, drawn by `pick`.
    fn claim_with(
        &mut self,
        pick: impl FnOnce(&mut ChaCha8Rng) -> Option<Action>,
    ) -> Option<Action> {
        if !self.rng.random_bool(0.2) {
            return None;
        }
        pick(&mut self.rng)
    }
}

impl Bot for RandomBot {
    fn act(&mut self, state: &SeatState) -> Action {
        self.act_with(|rng| state.random_legal_action(rng))
    }

    fn claim(&mut self, state: &SeatState) -> Option<Action> {
        self.claim_with(|rng| state.random_legal_action(rng))
    }

    /// It remembers nothing, so it needs no events.
    fn observes(&self) -> bool {
        false
    }

    /// It needs only the legal actions.
    fn as_move_bot(&mut self) -> Option<&mut dyn MoveBot> {
        Some(self)
    }
}

impl MoveBot for RandomBot {
    fn act_on(&mut self, moves: &Moves<'_>) -> Action {
        self.act_with(|rng| moves.random_legal_action(rng))
    }

    fn claim_on(&mut self, moves: &Moves<'_>) -> Option<Action> {
        self.claim_with(|rng| moves.random_legal_action(rng))
    }
}
