//! The expert bot: determinized Monte Carlo search over the seat's
//! information.
//!
//! For each decision that matters (stock or discard pile; which card to
//! discard among the heuristic's best few; whether to make the heuristic's
//! play now or hold it back and discard, where the table cannot be
//! rearranged (`holding_back_is_judged`); whether to make the play that
//! leaves the best hand where the heuristic would only discard) the expert
//! draws complete games consistent with what its seat saw
//! ([`SeatState::determinize`]), applies every candidate to the same
//! samples (common random numbers: the candidates meet the same luck) and
//! plays each sample on with fast heuristic players for every seat
//! (the private `playout` module) until the game ends or the horizon is reached. A
//! finished game counts its real score difference to the best other seat;
//! an unfinished one the difference of the hands' values to the best other
//! hand; where the match is a single game, both only as a chance of winning
//! it. The heuristic's choice is played unless another candidate's mean
//! advantage over it is significant (with two seats 2 standard errors, or
//! 1.5 in a match of one game; 1 with more seats: `overrule_z`); then the
//! best such candidate. The budget is a time or a number of playouts per
//! decision; with playouts it is deterministic.
//!
//! In the solo patience the only hidden information is the stock's order,
//! and the next card is one of the unseen cards, each as likely as its
//! share: there the expert weighs the heuristic's best placements exactly
//! one draw ahead instead of sampling (the private `patience` module's lookahead,
//! which takes no budget).
//!
//! The expert only ever receives a [`SeatState`]: the hidden cards are not
//! in it, so no search can read them.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use romme_core::ruleset::{Rearrange, Ruleset};
use romme_engine::{Action, DrawSource, Game, SeatState};

use crate::Bot;
use crate::eval::{Eval, kinds, without};
use crate::heuristic::{claim, decide, discard, try_action};
use crate::playout::{playout, single_game};

/// Discards the search compares.
const DISCARD_CANDIDATES: usize = 4;

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
        let eval = Eval::for_game(&sample);
        let hand = kinds(sample.hand(seat).unwrap_or(&[]));
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
                let mut discards: Vec<(f64, &Action)> = legal
                    .iter()
                    .filter_map(|a| match a {
                        Action::Discard { card } => Some((eval.hand(&without(&hand, *card)), a)),
                        _ => None,
                    })
                    .collect();
                discards.sort_by(|x, y| x.0.total_cmp(&y.0));
                for (_, a) in discards.into_iter().take(DISCARD_CANDIDATES) {
                    if !out.contains(a) {
                        out.push(a.clone());
                    }
                }
                // Playing now instead: the heuristic held its play back
                // (an opening kept for a Hand-Rommé) or found none that
                // improves the hand enough.
                if let Some(a) = best_play_now(&sample, seat, legal, &eval) {
                    out.push(a);
                }
            }
            Action::Meld { .. }
            | Action::LayOff { .. }
            | Action::Rearrange { .. }
            | Action::ExchangeJoker { .. }
                if holding_back_is_judged(sample.rules()) =>
            {
                // Holding the play back: the discard the heuristic would
                // make instead (when discarding now is legal).
                let view = sample.view(Some(seat));
                let discards: Vec<Action> = legal
                    .iter()
                    .filter(|a| matches!(a, Action::Discard { .. }))
                    .cloned()
                    .collect();
                if let Some(d) = discard(&view, seat, &discards, &eval, &hand) {
                    out.push(d);
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
        if state.rules().deal.solo_patience {
            if let Some(a) = crate::patience::lookahead(state, &legal) {
                return a;
            }
        }
        let candidates = self.candidates(state, &legal);
        if candidates.len() == 1 {
            return candidates[0].clone();
        }
        let seat = state.seat();
        let start = Instant::now();
        // Per candidate, the sum and the sum of squares of its value minus
        // the heuristic's (candidate 0) on the same sample: paired
        // differences, so the luck of a sample cancels.
        let mut sum = vec![0.0f64; candidates.len()];
        let mut sq = vec![0.0f64; candidates.len()];
        let mut failed = vec![false; candidates.len()];
        let mut rounds = 0u32;
        // The longest round so far: a round that would end past the budget
        // is not started.
        let mut longest = Duration::ZERO;
        let eval = Eval::for_seat(state);
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
            let mut values = vec![0.0f64; candidates.len()];
            for (i, c) in candidates.iter().enumerate() {
                let mut g = sample.detached();
                if g.apply(seat, c.clone()).is_err() {
                    failed[i] = true;
                    continue;
                }
                values[i] = playout(&mut g, seat, &eval);
            }
            for i in 1..candidates.len() {
                let d = values[i] - values[0];
                sum[i] += d;
                sq[i] += d * d;
            }
            rounds += 1;
            longest = longest.max(round_start.elapsed());
        }
        let z = overrule_z(state.seats(), single_game(state.rules()));
        candidates[choose(&sum, &sq, &failed, rounds, z)].clone()
    }

    fn claim(&mut self, state: &SeatState) -> Option<Action> {
        let sample = state.determinize(&mut self.rng);
        claim(&sample, state.seat(), &sample.legal_actions(state.seat()))
    }
    /// What it remembers (discards, cards taken) is in the seat's view.
    fn observes(&self) -> bool {
        false
    }
}

/// The play (meld, lay-off, …) that leaves `seat` the best hand, if any
/// is legal; plays that would empty the hand are the heuristic's own
/// choice already.
fn best_play_now(g: &Game, seat: usize, legal: &[Action], eval: &Eval) -> Option<Action> {
    legal
        .iter()
        .filter(|a| a.is_play())
        .filter_map(|a| {
            let tried = try_action(g, seat, a)?;
            let after = kinds(tried.game.hand(seat).unwrap_or(&[]));
            (!after.is_empty()).then(|| (eval.hand(&after), a))
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, a)| a.clone())
}

/// Whether holding the heuristic's play back is a candidate. Not where
/// the table can be rearranged (`turn.rearrange`, `offen`): the playouts'
/// fast players never rearrange the table (nor exchange jokers), yet in
/// heuristic games of `offen` a quarter of the games end with a
/// rearrangement. Playouts so misjudge what cards on the table and in the
/// hand are worth, and the search held plays back that should have been
/// made. On the same 1,000 `offen` deals with two seats the expert won
/// 568–431 with the candidate, 613–387 when a temporary switch forbade
/// choosing it (the winner changed in 124 matches, 84 times towards the
/// expert) and 604–396 without it (see BENCHMARKS.md).
fn holding_back_is_judged(rules: &Ruleset) -> bool {
    rules.turn.rearrange == Rearrange::None
}

/// How sure the search must be before it overrules the heuristic: a
/// candidate replaces the heuristic's choice only when its mean advantage
/// is this many standard errors above zero. With few samples (a small
/// budget) the noise of the playouts would otherwise pick worse moves than
/// the heuristic it is built on.
/// - Two seats, playouts judged by points (a match of several games,
///   `koenigs`): 2. The search gets many samples, but a point difference
///   can have long tails (a playout that ends in a Hand-Rommé), so the
///   standard error understates the noise; at 1 the expert fell from 61%
///   to 54% in `offen` when it was still judged by points.
/// - Two seats, a match of one game (`single_game`: playouts judged by the
///   chance of winning, values between −1 and 1): 1.5. Bounded values have
///   no such tails; at 2 the search overruled the heuristic in 24 of 438
///   decisions (`klassisch`, two seats). At 1.5 the expert won more of
///   the same deals in `klassisch` with two seats (253–147 instead of
///   238–162) and as many in `offen` (568–431 instead of 570–430 of 1,000;
///   see BENCHMARKS.md).
/// - Three or more seats: 1. A playout is longer and noisier, the search
///   gets a fraction of the samples and overruled the heuristic in 19 of
///   302 decisions at 2 (`klassisch`, three seats: 56.0% instead of 53.0%
///   of the same 400 matches).
fn overrule_z(seats: usize, one_game: bool) -> f64 {
    match (seats <= 2, one_game) {
        (true, false) => 2.0,
        (true, true) => 1.5,
        (false, _) => 1.0,
    }
}

/// The candidate to play: the one with the largest mean advantage over the
/// heuristic's choice (index 0) among those whose advantage is `z`
/// standard errors above zero; the heuristic's choice when none is.
fn choose(sum: &[f64], sq: &[f64], failed: &[bool], rounds: u32, z: f64) -> usize {
    if failed.first().copied().unwrap_or(false) {
        // The heuristic's own choice failed on a sample (cannot happen for
        // a legal action): take the best mean among the others.
        return (1..sum.len())
            .filter(|&i| !failed[i])
            .max_by(|&a, &b| sum[a].total_cmp(&sum[b]))
            .unwrap_or(0);
    }
    if rounds < 2 {
        return 0;
    }
    let n = f64::from(rounds);
    let mut best = 0;
    let mut best_mean = 0.0;
    for i in 1..sum.len() {
        if failed[i] {
            continue;
        }
        let mean = sum[i] / n;
        let var = ((sq[i] - sum[i] * sum[i] / n) / (n - 1.0)).max(0.0);
        let se = (var / n).sqrt();
        if mean > z * se && mean > best_mean {
            best = i;
            best_mean = mean;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use romme_core::notation::parse_cards;
    use romme_core::ruleset::presets;
    use romme_engine::Deal;

    use super::*;

    /// Sums and sums of squares of paired differences.
    fn stats(diffs: &[&[f64]]) -> (Vec<f64>, Vec<f64>) {
        let sum = diffs.iter().map(|d| d.iter().sum()).collect();
        let sq = diffs
            .iter()
            .map(|d| d.iter().map(|x| x * x).sum())
            .collect();
        (sum, sq)
    }

    #[test]
    fn the_search_overrules_the_heuristic_only_when_it_is_sure() {
        // Candidate 1 is better on every sample: chosen.
        let (sum, sq) = stats(&[&[0.0; 4], &[3.0, 4.0, 5.0, 4.0], &[1.0, -1.0, 0.5, -0.5]]);
        assert_eq!(choose(&sum, &sq, &[false; 3], 4, 2.0), 1);
        // A higher mean that is noise (one lucky sample): the heuristic's
        // choice stays.
        let (sum, sq) = stats(&[&[0.0; 4], &[40.0, -12.0, -10.0, -11.0]]);
        assert!(sum[1] > 0.0);
        assert_eq!(choose(&sum, &sq, &[false; 2], 4, 2.0), 0);
        // One sample is never enough.
        let (sum, sq) = stats(&[&[0.0], &[9.0]]);
        assert_eq!(choose(&sum, &sq, &[false; 2], 1, 2.0), 0);
        // Of two sure improvements, the larger.
        let (sum, sq) = stats(&[&[0.0; 3], &[2.0, 2.1, 1.9], &[5.0, 5.2, 4.9]]);
        assert_eq!(choose(&sum, &sq, &[false; 3], 3, 2.0), 2);
        // A candidate that failed on a sample is never chosen.
        assert_eq!(choose(&sum, &sq, &[false, false, true], 3, 2.0), 1);
    }

    #[test]
    fn with_more_than_two_seats_a_smaller_advantage_overrules() {
        // Mean 1, standard error about 0.91: 1.1 standard errors.
        let (sum, sq) = stats(&[&[0.0; 4], &[3.0, -1.0, 2.0, 0.0]]);
        for single in [false, true] {
            assert_eq!(choose(&sum, &sq, &[false; 2], 4, overrule_z(2, single)), 0);
            assert_eq!(choose(&sum, &sq, &[false; 2], 4, overrule_z(3, single)), 1);
            assert_eq!(choose(&sum, &sq, &[false; 2], 4, overrule_z(4, single)), 1);
        }
    }

    #[test]
    fn two_seats_in_a_single_game_overrule_at_one_and_a_half_standard_errors() {
        // Mean 1, standard error about 0.58: 1.7 standard errors.
        let (sum, sq) = stats(&[&[0.0; 4], &[2.0, 0.0, 2.0, 0.0]]);
        assert_eq!(choose(&sum, &sq, &[false; 2], 4, overrule_z(2, false)), 0);
        assert_eq!(choose(&sum, &sq, &[false; 2], 4, overrule_z(2, true)), 1);
    }

    /// A `klassisch` game where seat 1 (first to play), on its first turn, holds an
    /// opening of 41 points and little else: the heuristic keeps the
    /// opening back for a Hand-Rommé.
    fn opening_held_back() -> Game {
        let hand = |t: &str| parse_cards(t).expect("cards");
        let deal = Deal {
            hands: vec![
                hand("3d 4d 6d 7d 8h 9h 10c Jc Qc Ks Kd 5c 6c"),
                hand("Ah Kh Qh Jh 2c 3c 4c 5s 6s 7s 2d 3d 4s"),
                hand("2s 3s 4s 5h 6h 7h 8c 8d 10d Jd Qd 10s Js"),
            ],
            discard: Some(hand("Kc")[0]),
            stock: hand("3h 4h 2h Qs"),
        };
        let rules = presets::load("klassisch").expect("preset").expect("loads");
        let mut g = Game::with_deal(rules, 3, 7, deal).expect("deal");
        let draw = Action::Draw {
            from: DrawSource::Stock,
        };
        g.apply(1, draw).expect("draw");
        g
    }

    #[test]
    fn playing_now_is_a_candidate_where_the_heuristic_holds_its_play_back() {
        let g = opening_held_back();
        let state = g.seat_state(1);
        let legal = state.legal_actions();
        assert!(legal.iter().any(Action::is_play), "an opening is legal");
        // The heuristic only discards here.
        let choice = decide(&g, 1, &legal);
        assert!(matches!(choice, Action::Discard { .. }), "{choice:?}");
        let mut bot = ExpertBot::new(1, Budget::Iterations(10));
        let candidates = bot.candidates(&state, &legal);
        assert!(matches!(candidates[0], Action::Discard { .. }));
        let plays: Vec<&Action> = candidates.iter().filter(|a| a.is_play()).collect();
        assert_eq!(plays.len(), 1, "{candidates:?}");
        // It is the play that leaves the best hand of all legal plays.
        let eval = Eval::for_game(&g);
        let left = |a: &Action| {
            let t = try_action(&g, 1, a).expect("legal");
            eval.hand(&kinds(t.game.hand(1).unwrap_or(&[])))
        };
        let best = legal
            .iter()
            .filter(|a| a.is_play())
            .map(left)
            .fold(f64::INFINITY, f64::min);
        assert_eq!(left(plays[0]), best);
    }

    /// The first state of a heuristic game of `name` where the seat on turn
    /// would make a play (not going out) and could discard instead.
    fn heuristic_would_play(name: &str, seats: usize) -> (Game, usize) {
        let rules = presets::load(name).expect("preset").expect("loads");
        for seed in 1..40 {
            let mut g = Game::new(rules.clone(), seats, seed).expect("game");
            // A bound on the actions: a heuristic game need not end.
            for _ in 0..500 {
                if !g.sheet().games().is_empty() {
                    break;
                }
                let Some(turn) = g.turn() else {
                    break;
                };
                let legal = g.legal_actions(turn);
                let choice = decide(&g, turn, &legal);
                let can_discard = legal.iter().any(|a| matches!(a, Action::Discard { .. }));
                let stays = try_action(&g, turn, &choice)
                    .is_some_and(|t| t.game.hand(turn).is_some_and(|h| !h.is_empty()));
                if choice.is_play() && can_discard && stays {
                    return (g, turn);
                }
                g.apply(turn, choice).expect("the heuristic plays legally");
            }
        }
        panic!("no game of {name} where the heuristic plays");
    }

    #[test]
    fn holding_back_is_a_candidate_only_where_the_table_cannot_be_rearranged() {
        for (name, seats, held) in [("klassisch", 3, true), ("offen", 2, false)] {
            let (g, seat) = heuristic_would_play(name, seats);
            let state = g.seat_state(seat);
            let legal = state.legal_actions();
            let mut bot = ExpertBot::new(1, Budget::Iterations(10));
            let candidates = bot.candidates(&state, &legal);
            assert!(candidates[0].is_play(), "{name}: {candidates:?}");
            let discards = candidates
                .iter()
                .filter(|a| matches!(a, Action::Discard { .. }))
                .count();
            assert_eq!(discards, usize::from(held), "{name}: {candidates:?}");
        }
    }

    #[test]
    fn without_a_legal_play_the_candidates_are_discards() {
        let g = opening_held_back();
        let state = g.seat_state(1);
        let legal: Vec<Action> = state
            .legal_actions()
            .into_iter()
            .filter(|a| !a.is_play())
            .collect();
        let eval = Eval::for_game(&g);
        assert!(best_play_now(&g, 1, &legal, &eval).is_none());
    }
}
