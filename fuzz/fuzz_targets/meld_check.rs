//! Any list of cards under any preset and round: meld questions never panic,
//! and every reported declaration checks as declared.
#![no_main]

use libfuzzer_sys::fuzz_target;
use romme_core::meld::MeldChecker;
use romme_core::ruleset::presets;
use romme_core::{Card, CardKind};

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let name = presets::NAMES[usize::from(head) % presets::NAMES.len()];
    let Some(Ok(rules)) = presets::load(name) else {
        return;
    };
    let round = Some(head % 13);
    let cards: Vec<CardKind> = rest.iter().take(10).map(|&b| Card::from_id(b).kind()).collect();
    let Ok(checker) = MeldChecker::new(&rules, round) else {
        return;
    };
    if let Ok(found) = checker.declarations(&cards) {
        for d in found.iter().take(8) {
            assert!(checker.check(&d.cards).is_ok());
        }
    }
});
