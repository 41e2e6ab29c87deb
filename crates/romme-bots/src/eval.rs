//! How good a hand is for the bots: the exact solver's deadwood plus a
//! share of the points of every card still held (cards melded are safe,
//! cards held count against the holder when someone goes out).

use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::Arc;

use romme_core::penalty::{card_points, hand_points};
use romme_core::ruleset::Ruleset;
use romme_core::{Card, CardKind};
use romme_engine::{Game, SeatState};
use romme_solver::SolverTables;
use romme_solver::partition::{Partition, PartitionSolver};
use rustc_hash::FxHashMap;

/// Weight of the points of all held cards next to the deadwood.
const HELD_WEIGHT: f64 = 0.2;

/// Most hands [`Eval`] remembers before it forgets them all.
const MEMO_LIMIT: usize = 1 << 16;

/// Evaluates hands under one ruleset and round (lower is better).
///
/// It remembers the deadwood of the hands it solved: a search asks about
/// the same hands again and again (the seat's own hand in every sample, a
/// stock card judged when drawing and again when discarding).
pub(crate) struct Eval<'r> {
    rules: &'r Ruleset,
    round: Option<u8>,
    solver: Option<Solver<'r>>,
    /// Deadwood and cards melded per sorted hand.
    memo: RefCell<FxHashMap<Vec<CardKind>, (u32, usize)>>,
}

/// Where an evaluator's partition solver comes from.
enum Solver<'r> {
    /// Built for it.
    Own(Box<PartitionSolver<'r>>),
    /// The game's tables, built once per game and shared by its copies.
    Game(Arc<SolverTables>),
}

impl<'r> Eval<'r> {
    /// An evaluator for a ruleset and round (it builds its solver's tables).
    pub(crate) fn new(rules: &'r Ruleset, round: Option<u8>) -> Eval<'r> {
        let solver = PartitionSolver::new(rules, round)
            .ok()
            .map(|s| Solver::Own(Box::new(s)));
        Eval::with(rules, round, solver)
    }

    /// An evaluator for a game's ruleset and round, using the solver tables
    /// the game keeps (a bot builds one per decision and per sample: building
    /// the tables each time was a fifth of the heuristic bot's time).
    pub(crate) fn for_game(g: &'r Game) -> Eval<'r> {
        Eval::with(g.rules(), g.round(), g.solver_tables().map(Solver::Game))
    }

    /// [`Eval::for_game`] for a seat's view.
    pub(crate) fn for_seat(state: &'r SeatState) -> Eval<'r> {
        let solver = state.solver_tables().map(Solver::Game);
        Eval::with(state.rules(), state.round(), solver)
    }

    fn with(rules: &'r Ruleset, round: Option<u8>, solver: Option<Solver<'r>>) -> Eval<'r> {
        Eval {
            rules,
            round,
            solver,
            memo: RefCell::new(FxHashMap::default()),
        }
    }

    /// Deadwood and cards melded in the best partition.
    pub(crate) fn deadwood(&self, hand: &[CardKind]) -> (u32, usize) {
        let Some(solver) = self.solver() else {
            return (hand_points(self.rules, hand, self.round), 0);
        };
        let mut key = hand.to_vec();
        key.sort_unstable();
        if let Some(&known) = self.memo.borrow().get(&key) {
            return known;
        }
        let found = solver
            .deadwood(hand)
            .unwrap_or((hand_points(self.rules, hand, self.round), 0));
        let mut memo = self.memo.borrow_mut();
        if memo.len() >= MEMO_LIMIT {
            memo.clear();
        }
        memo.insert(key, found);
        found
    }

    /// The partition solver (none where the ruleset has none), for the
    /// solver's questions that take one built beforehand.
    pub(crate) fn solver(&self) -> Option<Cow<'_, PartitionSolver<'_>>> {
        match self.solver.as_ref()? {
            Solver::Own(s) => Some(Cow::Borrowed(s)),
            Solver::Game(t) => t.solver().ok().map(Cow::Owned),
        }
    }

    /// The best partition of the hand (melds declared).
    pub(crate) fn partition(&self, hand: &[CardKind]) -> Option<Partition> {
        self.solver()?.solve(hand).ok()
    }

    /// The ruleset.
    pub(crate) fn rules(&self) -> &'r Ruleset {
        self.rules
    }

    /// The round (Five Crowns).
    pub(crate) fn round(&self) -> Option<u8> {
        self.round
    }

    /// The hand's badness: deadwood plus a share of all held points.
    pub(crate) fn hand(&self, hand: &[CardKind]) -> f64 {
        let (dw, _) = self.deadwood(hand);
        f64::from(dw) + HELD_WEIGHT * f64::from(hand_points(self.rules, hand, self.round))
    }

    /// The value `measure` gives a hand with `deadwood` and `points` held.
    fn measure(measure: Measure, deadwood: u32, points: u32) -> f64 {
        match measure {
            // As `hand` computes it, to the last bit.
            Measure::Hand => f64::from(deadwood) + HELD_WEIGHT * f64::from(points),
            Measure::Deadwood => f64::from(deadwood),
        }
    }

    /// Which card of `cards` (each a card of `hand`) to give up: the index
    /// `i` with the smallest `score(i, v)`, where `v` is the `measure` of
    /// `hand` without `cards[i]`, the first of equal scores; and that score.
    /// `score` must not decrease when `v` grows.
    ///
    /// The answer is exactly what solving every `hand − cards[i]` gives, at
    /// a fraction of the cost: the hand is solved once, and giving up a card
    /// lowers the deadwood by at most the card's penalty (a partition of the
    /// rest plus the card is one of the hand), with equality for a card the
    /// best partition leaves unmatched. So unmatched cards need no solve,
    /// and another card is solved only when that bound could beat the best
    /// so far. Bots ask this for every discard and draw decision.
    pub(crate) fn best_removal(
        &self,
        hand: &[CardKind],
        cards: &[CardKind],
        measure: Measure,
        score: impl Fn(usize, f64) -> f64,
    ) -> Option<(usize, f64)> {
        let points = hand_points(self.rules, hand, self.round);
        let best_partition = self.partition(hand);
        let dw = best_partition.as_ref().map_or(points, |p| p.deadwood);
        // (lower bound of the score, index, the bound is the score)
        let mut bounds: Vec<(f64, usize, bool)> = cards
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                let pen = self.points(d);
                let exact = best_partition
                    .as_ref()
                    .is_some_and(|p| p.unmatched.contains(&d));
                let v = Self::measure(measure, dw.saturating_sub(pen), points.saturating_sub(pen));
                (score(i, v), i, exact)
            })
            .collect();
        let beats = |v: f64, i: usize, best: Option<(usize, f64)>| {
            best.is_none_or(|(bi, bv)| v < bv || (v == bv && i < bi))
        };
        let mut best: Option<(usize, f64)> = None;
        for &(v, i, exact) in &bounds {
            if exact && beats(v, i, best) {
                best = Some((i, v));
            }
        }
        bounds.retain(|b| !b.2);
        bounds.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (bound, i, _) in bounds {
            if best.is_some_and(|(_, bv)| bound > bv) {
                break; // sorted: no later card can beat the best
            }
            if !beats(bound, i, best) {
                continue;
            }
            // Penalties add up: the rest holds the hand's points minus the card's.
            let held = points.saturating_sub(self.points(cards[i]));
            let (dw, _) = self.deadwood(&without(hand, cards[i]));
            let v = score(i, Self::measure(measure, dw, held));
            if beats(v, i, best) {
                best = Some((i, v));
            }
        }
        best
    }

    /// Penalty points of one card.
    pub(crate) fn points(&self, card: CardKind) -> u32 {
        card_points(self.rules, card, self.round)
    }
}

/// What [`Eval::best_removal`] minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Measure {
    /// [`Eval::hand`]: deadwood plus a share of the held points.
    Hand,
    /// The deadwood alone.
    Deadwood,
}

/// Card kinds of physical cards.
pub(crate) fn kinds(cards: &[Card]) -> Vec<CardKind> {
    cards.iter().map(|c| c.kind()).collect()
}

/// `hand` without one card of kind `card`.
pub(crate) fn without(hand: &[CardKind], card: CardKind) -> Vec<CardKind> {
    let mut h = hand.to_vec();
    if let Some(i) = h.iter().position(|&k| k == card) {
        h.remove(i);
    }
    h
}

/// Wild cards tried per patience hand before it counts as far off.
const MOST_SWAPS: usize = 4;

/// The solo patience's evaluation: one evaluator per hand (hand `i` has
/// round `i + 1`'s wild rank), kept for a whole decision so that the hands
/// the candidates share are solved once.
///
/// The patience is won only when every hand is laid down, so what counts
/// is how far each hand is from being laid down, not its points: a hand's
/// distance is the fewest swaps `r` (up to [`MOST_SWAPS`]) such that the
/// hand with `r` wild cards added leaves at most `r` cards outside melds —
/// those are the cards to swap out for the wild cards (or for the cards
/// they stand for). It is an estimate: a hand whose melds need all `r`
/// wild cards while fewer cards are left over would also have to give up a
/// melded card. Ties go to fewer cards outside melds, then to fewer points.
/// Measured against the hands' deadwood points alone (BENCHMARKS.md, "The
/// solo patience's success rate"): the heuristic's patiences came out about
/// twice as often on the same deals.
pub(crate) struct PatienceEval<'r> {
    hands: Vec<Eval<'r>>,
}

impl<'r> PatienceEval<'r> {
    /// The evaluators of the eleven hands.
    pub(crate) fn new(rules: &'r Ruleset) -> PatienceEval<'r> {
        PatienceEval {
            hands: (1..=romme_engine::patience::HANDS as u8)
                .map(|round| Eval::new(rules, Some(round)))
                .collect(),
        }
    }

    /// The badness of hand `i` (0-based) holding `hand`: its distance from
    /// being laid down (see the type's docs) first, then the cards outside
    /// melds, then their points.
    pub(crate) fn hand(&self, i: usize, hand: &[CardKind]) -> f64 {
        let Some(e) = self.hands.get(i) else {
            return 0.0;
        };
        let (points, melded) = e.deadwood(hand);
        let left = hand.len().saturating_sub(melded);
        let distance = self.distance(i, hand).unwrap_or(MOST_SWAPS + left);
        distance as f64 * 100.0 + left as f64 + f64::from(points) * 0.01
    }

    /// The swaps hand `i` holding `hand` still needs (see the type's
    /// docs), `None` beyond [`MOST_SWAPS`].
    fn distance(&self, i: usize, hand: &[CardKind]) -> Option<usize> {
        let e = self.hands.get(i)?;
        let mut with_wilds = hand.to_vec();
        for r in 0..MOST_SWAPS {
            if r > 0 {
                with_wilds.push(CardKind::Joker);
            }
            let (_, m) = e.deadwood(&with_wilds);
            if with_wilds.len().saturating_sub(m) <= r {
                return Some(r);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    use rand_chacha::ChaCha8Rng;
    use romme_core::ruleset::presets;

    use super::*;
    use romme_core::notation::parse_cards;

    /// A patience hand's distance is the swaps it still needs: hand 1 (3s
    /// wild) with a run is laid down at once; a card off needs one swap; no
    /// two cards together need two; the hand of round 11 (kings wild) with
    /// a king holds a wild card already.
    #[test]
    fn patience_hands_are_ordered_by_the_swaps_they_need() {
        let rules = presets::load("koenigs-solo")
            .expect("preset")
            .expect("loads");
        let eval = PatienceEval::new(&rules);
        let hand = |i: usize, t: &str| eval.hand(i, &parse_cards(t).expect("cards"));
        let distance = |i: usize, t: &str| (hand(i, t) / 100.0).floor();
        assert_eq!(distance(0, "5h 6h 7h"), 0.0);
        assert_eq!(distance(0, "5h 6h Kc"), 1.0);
        assert_eq!(distance(0, "5h 9c Kd"), 2.0);
        // 3s are wild in hand 1: a 3 there is as good as a joker.
        assert_eq!(distance(0, "5h 3c Kc"), 1.0);
        assert_eq!(distance(10, "5h 6h 7h 9d 9s Kc Jc Jd Js 4c 4d 4h Qd"), 1.0);
        assert_eq!(distance(10, "5h 6h Kc 9d 9s Jc Jd Js 4c 4d 4h 10c Qd"), 2.0);
        // Ties: fewer cards outside melds, then fewer points.
        assert!(hand(2, "5h 6h 7h 9c Kd") > hand(2, "5h 6h 7h 9c 9d"));
        assert!(hand(2, "5h 6h 7h 9c Kd") > hand(2, "5h 6h 7h 9c 8d"));
    }

    /// `best_removal` gives exactly what solving every removal gives: the
    /// same card (the first of equal scores) and the same score, for both
    /// measures and a score that adds its own per-card terms.
    #[test]
    fn best_removal_equals_trying_every_card() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut solved_less = 0usize;
        for name in ["klassisch", "offen", "koenigs", "club"] {
            let rules = presets::load(name).expect("preset").expect("loads");
            let seats = if matches!(name, "klassisch" | "club") {
                3
            } else {
                2
            };
            let deck = Game::new(rules.clone(), seats, 1)
                .expect("game")
                .all_cards();
            for _ in 0..300 {
                let round =
                    (name == "koenigs").then(|| rand::RngExt::random_range(&mut rng, 1..=11u8));
                let eval = Eval::new(&rules, round);
                let mut cards = deck.clone();
                cards.shuffle(&mut rng);
                let n = rand::RngExt::random_range(&mut rng, 3..=15usize);
                let hand = kinds(&cards[..n]);
                let mut options = hand.clone();
                options.sort_unstable();
                options.dedup();
                let extra = |i: usize| if i % 3 == 1 { 4.0 } else { -0.01 * i as f64 };
                for measure in [Measure::Hand, Measure::Deadwood] {
                    let score = |i: usize, v: f64| v + extra(i);
                    let mut want: Option<(usize, f64)> = None;
                    for (i, &d) in options.iter().enumerate() {
                        let rest = without(&hand, d);
                        let v = match measure {
                            Measure::Hand => eval.hand(&rest),
                            Measure::Deadwood => f64::from(eval.deadwood(&rest).0),
                        };
                        let s = score(i, v);
                        if want.is_none_or(|(_, b)| s < b) {
                            want = Some((i, s));
                        }
                    }
                    let got = eval.best_removal(&hand, &options, measure, score);
                    assert_eq!(got, want, "{name} round {round:?} {hand:?} {measure:?}");
                    solved_less += usize::from(options.len() > 1);
                }
            }
        }
        assert!(solved_less > 1000);
    }
}
