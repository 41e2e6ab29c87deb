//! The expert bot: determinized Monte Carlo search over the seat's
//! information.
//!
//! For each decision that matters (stock or discard pile; which card to
//! discard among the heuristic's best few; whether to make the heuristic's
//! play now) the expert draws complete games consistent with what its seat
//! saw ([`SeatState::determinize`]), applies every candidate to the same
//! samples (common random numbers: the candidates meet the same luck) and
//! plays each sample on with heuristic players for every seat until the
//! game ends or the horizon is reached. A finished game counts its real
//! score difference; an unfinished one the difference of the hands'
//! values. The candidate with the best mean wins. The budget is a time or a
//! number of playouts per decision; with playouts it is deterministic.
//!
//! The expert only ever receives a [`SeatState`]: the hidden cards are not
//! in it, so no search can read them.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use romme_engine::{Action, DrawSource, Game, Phase, SeatState};

use crate::Bot;
use crate::eval::{Eval, kinds};
use crate::heuristic::{claim, decide, playout_step};

/// Discards the search compares.
const DISCARD_CANDIDATES: usize = 4;
/// Actions a playout makes before it is judged (about six turns a seat).
const HORIZON_TURNS: usize = 6;

/// How long the expert may think about one decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// Wall-clock time per decision.
    Time(Duration),
    /// Playouts per decision (deterministic).
    Iterations(u32),
}

impl Default for Budget {
    /// 200 ms per decision.
    fn default() -> Self {
        Budget::Time(Duration::from_millis(200))
    }
}

/// The search player (see the module docs).
#[derive(Debug, Clone)]
pub struct ExpertBot {
    rng: ChaCha8Rng,
    budget: Budget,
}

impl ExpertBot {
    /// An expert with its seed and budget.
    pub fn new(seed: u64, budget: Budget) -> ExpertBot {
        ExpertBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            budget,
        }
    }

    /// The moves worth comparing, the heuristic's choice first.
    fn candidates(&mut self, state: &SeatState, legal: &[Action]) -> Vec<Action> {
        let seat = state.seat();
        let sample = state.determinize(&mut self.rng);
        let choice = decide(&sample, seat, legal);
        let mut out = vec![choice.clone()];
        match &choice {
            Action::Draw { .. } => {
                for from in [DrawSource::Stock, DrawSource::Discard] {
                    let a = Action::Draw { from };
                    if legal.contains(&a) && !out.contains(&a) {
                        out.push(a);
                    }
                }
            }
            Action::Discard { .. } => {
                let eval = Eval::new(sample.rules(), sample.round());
                let hand = kinds(sample.hand(seat).unwrap_or(&[]));
                let mut discards: Vec<(f64, &Action)> = legal
                    .iter()
                    .filter_map(|a| match a {
                        Action::Discard { card } => {
                            Some((eval.hand(&crate::eval::without(&hand, *card)), a))
                        }
                        _ => None,
                    })
                    .collect();
                discards.sort_by(|x, y| x.0.total_cmp(&y.0));
                for (_, a) in discards.into_iter().take(DISCARD_CANDIDATES) {
                    if !out.contains(a) {
                        out.push(a.clone());
                    }
                }
            }
            _ => {}
        }
        out
    }
}

impl Bot for ExpertBot {
    fn act(&mut self, state: &SeatState) -> Action {
        let legal = state.legal_actions();
        if legal.len() <= 1 {
            return legal.first().cloned().unwrap_or(Action::EndTurn);
        }
        let candidates = self.candidates(state, &legal);
        if candidates.len() == 1 {
            return candidates[0].clone();
        }
        let seat = state.seat();
        let start = Instant::now();
        let mut totals = vec![0.0f64; candidates.len()];
        let mut rounds = 0u32;
        // The longest round so far: a round that would end past the budget
        // is not started.
        let mut longest = Duration::ZERO;
        loop {
            match self.budget {
                Budget::Time(d) if rounds > 0 && start.elapsed() + longest >= d => break,
                Budget::Iterations(n) if rounds as usize * candidates.len() >= n as usize => {
                    break;
                }
                _ => {}
            }
            let round_start = Instant::now();
            let sample = state.determinize(&mut self.rng);
            for (i, c) in candidates.iter().enumerate() {
                let mut g = sample.detached();
                if g.apply(seat, c.clone()).is_err() {
                    totals[i] = f64::NEG_INFINITY;
                    continue;
                }
                totals[i] += playout(&mut g, seat);
            }
            rounds += 1;
            longest = longest.max(round_start.elapsed());
        }
        let best = totals
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map_or(0, |(i, _)| i);
        candidates[best].clone()
    }

    fn claim(&mut self, state: &SeatState) -> Option<Action> {
        let sample = state.determinize(&mut self.rng);
        claim(&sample, state.seat(), &sample.legal_actions(state.seat()))
    }
}

/// Play the sample on with heuristic players; the value for `seat` (higher
/// is better).
fn playout(g: &mut Game, seat: usize) -> f64 {
    let game_no = g.sheet().games().len();
    let limit = HORIZON_TURNS * g.seats() * 3;
    for _ in 0..limit {
        if g.phase() == Phase::MatchOver || g.sheet().games().len() > game_no {
            break;
        }
        let Some(turn) = g.turn() else {
            break;
        };
        let Some(a) = playout_step(g, turn) else {
            break;
        };
        if g.apply(turn, a).is_err() {
            break;
        }
    }
    if let Some(score) = g.sheet().games().get(game_no) {
        // The game ended: the real score difference.
        let mine = score.players.get(seat).map_or(0, |p| p.points) as f64;
        let others: Vec<f64> = score
            .players
            .iter()
            .enumerate()
            .filter(|(s, _)| *s != seat)
            .map(|(_, p)| p.points as f64)
            .collect();
        let avg = others.iter().sum::<f64>() / others.len().max(1) as f64;
        return avg - mine;
    }
    // Judge the hands.
    let eval = Eval::new(g.rules(), g.round());
    let value = |s: usize| eval.hand(&kinds(g.hand(s).unwrap_or(&[])));
    let mine = value(seat);
    let others: Vec<f64> = (0..g.seats())
        .filter(|&s| s != seat && g.hand(s).is_some_and(|h| !h.is_empty()))
        .map(value)
        .collect();
    let avg = others.iter().sum::<f64>() / others.len().max(1) as f64;
    avg - mine
}
