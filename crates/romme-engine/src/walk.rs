//! Test support: random walks through matches of every preset, each step a
//! listed action drawn at random, for the tests that compare two ways of
//! answering along positions a real match reaches.

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use romme_core::ruleset::{Ruleset, presets};

use crate::game::Game;

/// Which walks: per preset, `matches` matches (seeds 0, 1, …) of at least
/// `seats` seats, `steps` actions each at most, the actions drawn with an
/// RNG seeded with `seed`.
pub(crate) struct Walks {
    pub seats: usize,
    pub matches: u64,
    pub steps: usize,
    pub seed: u64,
}

impl Walks {
    /// Call `visit` at every position of every walk (the preset's name, its
    /// ruleset, the game and the seat to act), then play a listed action of
    /// that seat drawn at random.
    pub(crate) fn run(&self, mut visit: impl FnMut(&str, &Ruleset, &Game, usize)) {
        for name in presets::NAMES {
            let Some(Ok(rules)) = presets::load(name) else {
                continue;
            };
            let seats = usize::from(rules.players.min).max(self.seats);
            let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
            for seed in 0..self.matches {
                let Ok(mut game) = Game::new(rules.clone(), seats, seed) else {
                    continue;
                };
                for _ in 0..self.steps {
                    let Some(seat) = game.turn() else {
                        break;
                    };
                    visit(name, &rules, &game, seat);
                    let listed = game.legal_actions(seat);
                    let Some(a) = listed.choose(&mut rng) else {
                        break;
                    };
                    game.apply(seat, a.clone()).expect("a listed action");
                }
            }
        }
    }
}
