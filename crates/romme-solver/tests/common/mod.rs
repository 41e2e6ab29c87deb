//! Helpers shared by the solver's integration tests.
#![allow(dead_code)]

use romme_core::notation::parse_cards;
use romme_core::ruleset::{Ruleset, presets};
use romme_core::{CardKind, MeldCard};

/// A shipped preset, loaded.
pub fn preset(name: &str) -> Ruleset {
    presets::load(name).expect("exists").expect("loads")
}

/// Cards in notation.
pub fn cards(s: &str) -> Vec<CardKind> {
    parse_cards(s).expect(s)
}

/// Table melds in notation, declarations included (`*=6h`).
pub fn table(melds: &[&str]) -> Vec<Vec<MeldCard>> {
    melds
        .iter()
        .map(|m| m.split_whitespace().map(|c| c.parse().expect(c)).collect())
        .collect()
}

/// A multiset as a sorted vector.
pub fn sorted(mut v: Vec<CardKind>) -> Vec<CardKind> {
    v.sort();
    v
}
