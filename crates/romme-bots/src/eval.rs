//! How good a hand is for the bots: the exact solver's deadwood plus a
//! share of the points of every card still held (cards melded are safe,
//! cards held count against the holder when someone goes out).

use romme_core::penalty::{card_points, hand_points};
use romme_core::ruleset::Ruleset;
use romme_core::{Card, CardKind};
use romme_engine::Game;
use romme_solver::partition::{Partition, PartitionSolver};

/// Weight of the points of all held cards next to the deadwood.
const HELD_WEIGHT: f64 = 0.2;

/// Evaluates hands under one ruleset and round (lower is better).
pub(crate) struct Eval<'r> {
    rules: &'r Ruleset,
    round: Option<u8>,
    solver: Option<PartitionSolver<'r>>,
}

impl<'r> Eval<'r> {
    /// An evaluator for the game's ruleset and round.
    pub(crate) fn new(rules: &'r Ruleset, round: Option<u8>) -> Eval<'r> {
        Eval {
            rules,
            round,
            solver: PartitionSolver::new(rules, round).ok(),
        }
    }

    /// Deadwood and cards melded in the best partition.
    pub(crate) fn deadwood(&self, hand: &[CardKind]) -> (u32, usize) {
        match &self.solver {
            Some(s) => s
                .deadwood(hand)
                .unwrap_or((hand_points(self.rules, hand, self.round), 0)),
            None => (hand_points(self.rules, hand, self.round), 0),
        }
    }

    /// The best partition of the hand (melds declared).
    pub(crate) fn partition(&self, hand: &[CardKind]) -> Option<Partition> {
        self.solver.as_ref()?.solve(hand).ok()
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

    /// Penalty points of one card.
    pub(crate) fn points(&self, card: CardKind) -> u32 {
        card_points(self.rules, card, self.round)
    }
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

/// The solo patience's badness: open hands' deadwood (hand `i` has round
/// `i + 1`'s wild rank), minus a bonus per closed hand.
pub(crate) fn patience(game: &Game) -> f64 {
    let Some(p) = game.view(Some(0)).patience else {
        return 0.0;
    };
    let rules = game.rules();
    let mut total = 0.0;
    for (i, (hand, closed)) in p.hands.iter().zip(&p.closed).enumerate() {
        if closed.is_some() {
            total -= 100.0;
            continue;
        }
        let round = u8::try_from(i + 1).ok();
        let e = Eval::new(rules, round);
        total += f64::from(e.deadwood(hand).0);
    }
    total
}
