//! A seat's legal moves and nothing else: [`Moves`].
//!
//! Some bots decide from the list of legal actions alone (the random bot
//! draws one uniformly). They need neither the seat's view nor a copy of
//! the game to search, and building a [`SeatState`](crate::SeatState) (a
//! copy of the game with the hidden cards taken out and dealt anew) was the
//! largest single cost of a random action. `Moves` borrows the game and
//! answers only what depends on the seat's own information: which actions
//! are legal, and one of them at random (the same answers as the seat's
//! `SeatState` gives, see the tests). It gives no way to the game itself, so
//! no hidden card can be read through it.

use rand::Rng;

use crate::action::Action;
use crate::game::Game;

/// The legal actions of one seat, and nothing else of the game (see the
/// module docs).
#[derive(Clone, Copy)]
pub struct Moves<'g> {
    game: &'g Game,
    seat: usize,
}

impl std::fmt::Debug for Moves<'_> {
    /// Only the seat: the game behind it is not the seat's to see.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Moves").field("seat", &self.seat).finish()
    }
}

impl Game {
    /// The legal moves of `seat` (see [`Moves`]).
    pub fn moves(&self, seat: usize) -> Moves<'_> {
        Moves { game: self, seat }
    }
}

impl Moves<'_> {
    /// The seat these moves belong to.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// The seat's legal actions, as [`Game::legal_actions`].
    pub fn legal_actions(&self) -> Vec<Action> {
        self.game.legal_actions(self.seat)
    }

    /// One legal action drawn uniformly, as [`Game::random_legal_action`].
    pub fn random_legal_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        self.game.random_legal_action(self.seat, rng)
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use romme_core::ruleset::presets;

    use crate::game::{Game, Phase};

    /// On random games of several presets, every seat's moves list what its
    /// `SeatState` lists, and a random draw from either with the same
    /// generator picks the same action.
    #[test]
    fn moves_answer_as_the_seat_state_does() {
        let mut compared = 0;
        for name in ["klassisch", "offen", "kaufen", "klopfen", "raeuber"] {
            let Some(Ok(rules)) = presets::load(name) else {
                panic!("preset {name}");
            };
            for seed in 0..3u64 {
                let mut game = Game::new(rules.clone(), 3, seed).expect("game");
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                for _ in 0..120 {
                    if game.phase() == Phase::MatchOver {
                        break;
                    }
                    for seat in 0..3 {
                        let state = game.seat_state(seat);
                        let moves = game.moves(seat);
                        assert_eq!(moves.seat(), seat);
                        assert_eq!(moves.legal_actions(), state.legal_actions(), "{name}");
                        let mut a = ChaCha8Rng::seed_from_u64(seed ^ 77);
                        let mut b = a.clone();
                        assert_eq!(
                            moves.random_legal_action(&mut a),
                            state.random_legal_action(&mut b),
                            "{name}"
                        );
                        compared += 1;
                    }
                    let Some(turn) = game.turn() else { break };
                    let Some(action) = game.moves(turn).random_legal_action(&mut rng) else {
                        break;
                    };
                    game.apply(turn, action).expect("a listed action is legal");
                }
            }
        }
        assert!(compared > 1000, "only {compared} positions compared");
    }
}
