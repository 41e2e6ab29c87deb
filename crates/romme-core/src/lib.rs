//! # romme-core
//!
//! The pure rules library of romme: cards and decks, the text notation,
//! rulesets (every variant as data), melds, values and scoring. No I/O, no
//! async, no global state; everything random takes a seed.
//!
//! The rule texts in `shared/rules/sources/` are the specification;
//! `RULES.md` is the digest this crate follows.

pub mod card;
pub mod deck;
pub mod meld;
pub mod notation;
pub mod opening;
pub mod penalty;
pub mod ruleset;
pub mod scoring;

#[cfg(test)]
mod test_support;

pub use card::{Card, CardKind, Face, Lang, Rank, Suit};
pub use deck::{Deck, DeckKind};
pub use notation::{MeldCard, ParseCardError};
pub use ruleset::Ruleset;
