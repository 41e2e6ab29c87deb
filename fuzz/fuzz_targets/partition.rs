//! Any hand under any preset and round: the partition solver never panics,
//! and its answer is valid — every meld checks, the deadwood is the
//! unmatched cards' penalty, and no card is invented or dropped.
#![no_main]

use libfuzzer_sys::fuzz_target;
use romme_core::meld::MeldChecker;
use romme_core::penalty::hand_points;
use romme_core::ruleset::presets;
use romme_core::{Card, CardKind};
use romme_solver::best_partition;

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let name = presets::NAMES[usize::from(head) % presets::NAMES.len()];
    let Some(Ok(rules)) = presets::load(name) else {
        return;
    };
    let round = rules.melds.wilds.round_wild.then_some(head % 11 + 1);
    let hand: Vec<CardKind> = rest.iter().take(15).map(|&b| Card::from_id(b).kind()).collect();
    let Ok(p) = best_partition(&rules, round, &hand) else {
        return; // cards not in the deck: a clear error
    };
    let Ok(checker) = MeldChecker::new(&rules, round) else {
        return;
    };
    for m in &p.melds {
        assert!(checker.check(m).is_ok(), "invalid meld");
    }
    assert_eq!(p.deadwood, hand_points(&rules, &p.unmatched, round));
    let mut all: Vec<CardKind> = p.melds.iter().flatten().map(|c| c.card).collect();
    all.extend(p.unmatched.iter().copied());
    all.sort();
    let mut want = hand.clone();
    want.sort();
    assert_eq!(all, want);
});
