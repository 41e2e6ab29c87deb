//! The fast partition solver against a deliberately simple brute-force
//! reference, on random hands of every preset; and the validity of every
//! answer (melds validate, deadwood adds up, no card invented or dropped).

mod common;

use common::*;

use std::collections::HashMap;

use proptest::prelude::*;
use romme_core::meld::MeldChecker;
use romme_core::notation::{format_cards, parse_cards};
use romme_core::penalty::hand_points;
use romme_core::ruleset::{Ruleset, presets};
use romme_core::{CardKind, Deck};
use romme_solver::{Partition, best_partition};

/// Brute force: the first card is unmatched or in a meld with any subset of
/// the other cards that `MeldChecker` accepts. Returns (deadwood, melded).
fn reference(rules: &Ruleset, round: Option<u8>, hand: &[CardKind]) -> (u32, usize) {
    let checker = MeldChecker::new(rules, round).expect("checker");
    let mut valid: HashMap<Vec<CardKind>, bool> = HashMap::new();
    let mut memo: HashMap<u32, (u32, usize)> = HashMap::new();
    fn go(
        mask: u32,
        hand: &[CardKind],
        rules: &Ruleset,
        round: Option<u8>,
        checker: &MeldChecker,
        valid: &mut HashMap<Vec<CardKind>, bool>,
        memo: &mut HashMap<u32, (u32, usize)>,
    ) -> (u32, usize) {
        if mask == 0 {
            return (0, 0);
        }
        if let Some(&r) = memo.get(&mask) {
            return r;
        }
        let i = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << i);
        let (d, m) = go(rest, hand, rules, round, checker, valid, memo);
        let mut best = (d + hand_points(rules, &[hand[i]], round), m);
        // Every subset of the rest, joined with card i.
        let mut sub = rest;
        loop {
            let meld_mask = sub | (1 << i);
            let n = meld_mask.count_ones() as usize;
            if n >= usize::from(rules.melds.min_len) {
                let mut cards: Vec<CardKind> = (0..hand.len())
                    .filter(|k| meld_mask >> k & 1 == 1)
                    .map(|k| hand[k])
                    .collect();
                cards.sort();
                let ok = *valid
                    .entry(cards.clone())
                    .or_insert_with(|| checker.is_valid(&cards).expect("in deck"));
                if ok {
                    let (d, m) = go(mask & !meld_mask, hand, rules, round, checker, valid, memo);
                    let cand = (d, m + n);
                    if cand.0 < best.0 || (cand.0 == best.0 && cand.1 > best.1) {
                        best = cand;
                    }
                }
            }
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & rest;
        }
        memo.insert(mask, best);
        best
    }
    let full = if hand.is_empty() {
        0
    } else {
        (1u32 << hand.len()) - 1
    };
    go(full, hand, rules, round, &checker, &mut valid, &mut memo)
}

/// Every meld validates as declared, the deadwood is the unmatched cards'
/// penalty, and melds plus unmatched are exactly the hand.
fn assert_valid(rules: &Ruleset, round: Option<u8>, hand: &[CardKind], p: &Partition) {
    let checker = MeldChecker::new(rules, round).expect("checker");
    for meld in &p.melds {
        checker
            .check(meld)
            .unwrap_or_else(|e| panic!("{}: meld {} invalid: {e}", rules.name, format_cards(meld)));
    }
    assert_eq!(
        p.deadwood,
        hand_points(rules, &p.unmatched, round),
        "deadwood adds up"
    );
    let mut all: Vec<CardKind> = p.melds.iter().flatten().map(|c| c.card).collect();
    all.extend(p.unmatched.iter().copied());
    all.sort();
    let mut want = hand.to_vec();
    want.sort();
    assert_eq!(all, want, "{}: cards invented or dropped", rules.name);
}

fn solve(rules: &Ruleset, round: Option<u8>, hand: &str) -> Partition {
    let cards = parse_cards(hand).expect(hand);
    let p = best_partition(rules, round, &cards).expect("solves");
    assert_valid(rules, round, &cards, &p);
    p
}

#[test]
fn examples() {
    let k = preset("klassisch");
    let p = solve(&k, None, "7h 7s 7c 8d *");
    assert_eq!(p.deadwood, 8, "the joker joins the sevens; 8d stays: {p:?}");
    assert_eq!(p.melded(), 4);
    let p = solve(&k, None, "7h 7s 7c 8d 2c");
    assert_eq!(p.deadwood, 10);
    assert_eq!(p.unmatched.len(), 2);
    // Using the natural 6h in a set and a joker in the run beats the plain run.
    let p = solve(&k, None, "5h 6h 7h 6s 6c *");
    assert_eq!(p.deadwood, 0);
    assert_eq!(p.melded(), 6);
    // A lone joker cannot meld: 20 (003).
    assert_eq!(solve(&k, None, "*").deadwood, 20);
    assert_eq!(solve(&k, None, "* * *").deadwood, 0, "003: all-joker meld");
    assert_eq!(
        solve(&preset("club"), None, "* * *").deadwood,
        60,
        "004: jokers in the minority"
    );
    assert_eq!(solve(&k, None, "Kh Ah 2h").deadwood, 23, "no K-A-2 in 003");
    assert_eq!(
        solve(&preset("club"), None, "Kh Ah 2h").deadwood,
        0,
        "004 allows it"
    );
    // Five Crowns round 5: sevens are wild (20 each), jokers 50.
    let f = preset("koenigs");
    assert_eq!(solve(&f, Some(5), "7d 9h 10h").deadwood, 0);
    assert_eq!(solve(&f, Some(5), "7d Kx").deadwood, 33);
    assert_eq!(
        solve(&f, Some(1), "3c 3d 3h Jx").deadwood,
        0,
        "round 1: three wild threes and Jx make one meld"
    );
}

fn hand_strategy(
    rules: &Ruleset,
    max_len: usize,
) -> impl Strategy<Value = (Vec<CardKind>, Option<u8>)> {
    let deck: Vec<CardKind> = rules.deck.cards().into_iter().map(|c| c.kind()).collect();
    let five_crowns = rules.melds.wilds.round_wild;
    // Draw from a narrow window of the deck (two suits, six ranks, jokers) so
    // that melds are likely.
    let window: Vec<CardKind> = {
        let suits: Vec<_> = rules.deck.kind.suits().iter().take(2).copied().collect();
        let ranks: Vec<_> = rules
            .deck
            .kind
            .ranks()
            .iter()
            .rev()
            .take(6)
            .copied()
            .collect();
        deck.iter()
            .copied()
            .filter(|c| match c {
                CardKind::Joker => true,
                CardKind::Natural(f) => {
                    suits.contains(&f.suit) && (ranks.contains(&f.rank) || f.rank.number() <= 4)
                }
            })
            .collect()
    };
    let n = window.len();
    (
        proptest::sample::subsequence((0..n).collect::<Vec<_>>(), 1..=max_len),
        1u8..=11,
        any::<u64>(),
    )
        .prop_map(move |(idx, round, seed)| {
            let mut hand: Vec<CardKind> = idx.iter().map(|&i| window[i]).collect();
            // Shuffle deterministically so card order varies.
            let k = (seed as usize) % hand.len().max(1);
            hand.rotate_left(k);
            (hand, five_crowns.then_some(round))
        })
}

fn compare(name: &str, max_len: usize, cases: u32) {
    let rules = preset(name);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(cases));
    runner
        .run(&hand_strategy(&rules, max_len), |(hand, round)| {
            let p = best_partition(&rules, round, &hand).expect("solves");
            assert_valid(&rules, round, &hand, &p);
            let (d, m) = reference(&rules, round, &hand);
            prop_assert_eq!(
                (p.deadwood, p.melded()),
                (d, m),
                "{} round {:?}: {} -> {:?}",
                name,
                round,
                format_cards(&hand),
                p
            );
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}

macro_rules! against_reference {
    ($($test:ident => $name:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                compare($name, 8, 96);
            }
        )*
    };
}

against_reference!(
    same_as_reference_klassisch => "klassisch",
    same_as_reference_offen => "offen",
    same_as_reference_bieten => "bieten",
    same_as_reference_kaufen => "kaufen",
    same_as_reference_anlegen => "anlegen",
    same_as_reference_raeuber => "raeuber",
    same_as_reference_klopfen => "klopfen",
    same_as_reference_ohne_auslegen => "ohne-auslegen",
    same_as_reference_wiener => "wiener",
    same_as_reference_club => "club",
    same_as_reference_koenigs => "koenigs",
    same_as_reference_koenigs_solo => "koenigs-solo",
);

#[test]
fn full_hands_of_every_preset_give_valid_answers() {
    for name in presets::NAMES {
        let rules = preset(name);
        let deck: &Deck = &rules.deck;
        for seed in 0..40u64 {
            let round = rules
                .melds
                .wilds
                .round_wild
                .then_some((seed % 11) as u8 + 1);
            let size = match rules.deal.hand_size {
                romme_core::ruleset::HandSize::Fixed(n) => usize::from(n) + 1,
                romme_core::ruleset::HandSize::RoundPlusTwo => usize::from(round.unwrap_or(11)) + 3,
            };
            let hand: Vec<CardKind> = deck
                .shuffled(seed)
                .into_iter()
                .take(size)
                .map(|c| c.kind())
                .collect();
            let p = best_partition(&rules, round, &hand).expect("solves");
            assert_valid(&rules, round, &hand, &p);
        }
    }
}

#[test]
fn all_wild_melds_respect_adjacency_and_run_ends() {
    let mut k = preset("klassisch");
    k.melds.wilds.adjacent = false;
    // Three jokers: a set (no adjacency in a set) is fine.
    let p = solve(&k, None, "* * *");
    assert_eq!(p.deadwood, 0, "{p:?}");
    // Five jokers: no set of five with distinct suits, and no run of jokers side by side.
    let p = solve(&k, None, "* * * * *");
    assert_eq!(p.deadwood, 20, "a set of four, one joker left: {p:?}");
    let mut ends = preset("klassisch");
    ends.melds.wilds.at_run_ends = false;
    assert_eq!(
        solve(&ends, None, "* * * *").deadwood,
        0,
        "a set of four jokers"
    );
}
