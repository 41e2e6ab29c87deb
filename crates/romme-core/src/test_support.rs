//! Helpers shared by the unit tests of this crate.

use crate::notation::parse_cards;
use crate::ruleset::{Ruleset, presets};
use crate::scoring::PlayerResult;

/// A shipped preset, loaded.
pub fn preset(name: &str) -> Ruleset {
    presets::load(name)
        .unwrap_or_else(|| panic!("no preset {name}"))
        .unwrap_or_else(|e| panic!("preset {name}: {e}"))
}

/// A player's end-of-game situation from a hand in notation.
pub fn player(hand: &str, went_out: bool, opened: bool) -> PlayerResult {
    PlayerResult {
        hand: parse_cards(hand).unwrap_or_else(|e| panic!("{hand}: {e}")),
        went_out,
        opened,
        hand_romme: None,
        first_to_meld: false,
    }
}
