//! Decks: which physical cards a ruleset plays with, seeded shuffling, and
//! the conservation check (every card exactly once, none foreign).
//!
//! * French double deck (`001`–`004`): 2 × 52 cards plus 2, 4 or 6 jokers.
//! * Five Crowns / Königs-Rommé deck (`000`): 5 suits (incl. stars), ranks
//!   3–K, two copies of each (110) plus 6 jokers = 116 cards.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::card::{Card, CardKind, Face, Rank, Suit};

/// The kind of deck a ruleset uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeckKind {
    /// Two French 52-card decks plus jokers.
    French,
    /// The Five Crowns deck: 5 suits, ranks 3–K, two copies, plus jokers.
    FiveCrowns,
}

impl DeckKind {
    /// The suits of this deck.
    pub fn suits(self) -> &'static [Suit] {
        match self {
            DeckKind::French => &Suit::FRENCH,
            DeckKind::FiveCrowns => &Suit::ALL,
        }
    }

    /// The ranks of this deck, ascending.
    pub fn ranks(self) -> &'static [Rank] {
        match self {
            DeckKind::French => &Rank::ALL,
            DeckKind::FiveCrowns => &Rank::ALL[1..12],
        }
    }

    /// Whether a natural face belongs to this deck.
    #[inline]
    pub fn has_face(self, face: Face) -> bool {
        // What `suits` and `ranks` list, without searching them.
        match self {
            DeckKind::French => face.suit != Suit::Stars,
            DeckKind::FiveCrowns => !matches!(face.rank, Rank::Two | Rank::Ace),
        }
    }

    /// Whether a card kind belongs to this deck (jokers always do when the
    /// deck has any; see [`Deck::has_kind`]).
    pub fn has_kind(self, kind: CardKind) -> bool {
        match kind {
            CardKind::Natural(f) => self.has_face(f),
            CardKind::Joker => true,
        }
    }
}

/// A deck: kind plus joker count. Knows its physical cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deck {
    /// French or Five Crowns.
    pub kind: DeckKind,
    /// Number of jokers.
    pub jokers: u8,
}

/// Copies of every natural card in every deck of the project.
pub const COPIES: u8 = 2;

impl Deck {
    /// Total number of physical cards.
    pub fn len(&self) -> usize {
        self.kind.suits().len() * self.kind.ranks().len() * COPIES as usize + self.jokers as usize
    }

    /// Whether the deck has no cards (never true for a valid ruleset).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether a card kind belongs to this deck.
    pub fn has_kind(&self, kind: CardKind) -> bool {
        match kind {
            CardKind::Natural(f) => self.kind.has_face(f),
            CardKind::Joker => self.jokers > 0,
        }
    }

    /// Whether a physical card belongs to this deck.
    pub fn has_card(&self, card: Card) -> bool {
        if card.is_joker() {
            card.copy() < self.jokers
        } else {
            self.has_kind(card.kind())
        }
    }

    /// Every physical card in a fixed, documented order: suits `c d h s x`,
    /// ranks ascending, copy 0 then 1; then jokers 0..n.
    pub fn cards(&self) -> Vec<Card> {
        let mut out = Vec::with_capacity(self.len());
        for &suit in self.kind.suits() {
            for &rank in self.kind.ranks() {
                for copy in 0..COPIES {
                    if let Some(c) = Card::natural(Face::new(rank, suit), copy) {
                        out.push(c);
                    }
                }
            }
        }
        out.extend((0..self.jokers).filter_map(Card::joker));
        out
    }

    /// The whole deck shuffled deterministically from `seed` (ChaCha8): the
    /// same seed gives the same order on every machine.
    pub fn shuffled(&self, seed: u64) -> Vec<Card> {
        let mut cards = self.cards();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        cards.shuffle(&mut rng);
        cards
    }

    /// Check that `cards` holds every card of this deck exactly once and no
    /// other card. The error lists what is missing, duplicated or foreign.
    pub fn check_conservation<I>(&self, cards: I) -> Result<(), ConservationError>
    where
        I: IntoIterator<Item = Card>,
    {
        let mut seen = [0u16; 256];
        let mut foreign = Vec::new();
        for c in cards {
            if self.has_card(c) {
                seen[c.id() as usize] += 1;
            } else {
                foreign.push(c);
            }
        }
        let mut missing = Vec::new();
        let mut duplicated = Vec::new();
        for c in self.cards() {
            match seen[c.id() as usize] {
                0 => missing.push(c),
                1 => {}
                _ => duplicated.push(c),
            }
        }
        if missing.is_empty() && duplicated.is_empty() && foreign.is_empty() {
            Ok(())
        } else {
            Err(ConservationError {
                missing,
                duplicated,
                foreign,
            })
        }
    }
}

/// Cards that were lost, created twice or do not belong to the deck.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "card conservation violated: missing {missing:?}, duplicated {duplicated:?}, foreign {foreign:?}"
)]
pub struct ConservationError {
    /// Cards of the deck that were not found.
    pub missing: Vec<Card>,
    /// Cards found more than once.
    pub duplicated: Vec<Card>,
    /// Cards that are not part of this deck.
    pub foreign: Vec<Card>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `has_face` answers what the deck's suit and rank lists say, for
    /// every face of both decks.
    #[test]
    fn has_face_answers_as_the_suit_and_rank_lists() {
        for kind in [DeckKind::French, DeckKind::FiveCrowns] {
            let mut faces = 0;
            for i in 0..Face::SLOTS {
                let f = Face::from_index(i).expect("face");
                let listed = kind.suits().contains(&f.suit) && kind.ranks().contains(&f.rank);
                assert_eq!(kind.has_face(f), listed, "{kind:?} {f:?}");
                faces += usize::from(listed);
            }
            assert_eq!(faces, kind.suits().len() * kind.ranks().len());
        }
    }

    #[test]
    fn deck_sizes_match_the_rule_texts() {
        let french = |jokers| Deck {
            kind: DeckKind::French,
            jokers,
        };
        assert_eq!(french(2).len(), 106, "002: 2 x 52 + 2 jokers");
        assert_eq!(french(4).len(), 108, "003: often 4 jokers");
        assert_eq!(french(6).len(), 110, "001/003/004: 110 cards");
        let crowns = Deck {
            kind: DeckKind::FiveCrowns,
            jokers: 6,
        };
        assert_eq!(crowns.len(), 116, "000: 116 cards");
        assert_eq!(crowns.cards().len(), 116);
        assert!(!crowns.has_kind("2h".parse().expect("card")));
        assert!(!crowns.has_kind("Ah".parse().expect("card")));
        assert!(crowns.has_kind("3x".parse().expect("card")));
        assert!(!french(6).has_kind("3x".parse().expect("card")));
    }

    #[test]
    fn shuffle_is_deterministic_and_conserves_cards() {
        let deck = Deck {
            kind: DeckKind::French,
            jokers: 6,
        };
        let a = deck.shuffled(42);
        assert_eq!(a, deck.shuffled(42));
        assert_ne!(a, deck.shuffled(43));
        assert_ne!(a, deck.cards());
        assert_eq!(deck.check_conservation(a), Ok(()));
    }

    #[test]
    fn conservation_reports_missing_duplicated_and_foreign() {
        let deck = Deck {
            kind: DeckKind::French,
            jokers: 2,
        };
        let mut cards = deck.cards();
        let lost = cards.remove(0);
        let dup = cards[5];
        cards.push(dup);
        let foreign = Card::joker(2).expect("joker");
        cards.push(foreign);
        let err = deck.check_conservation(cards).expect_err("broken");
        assert_eq!(err.missing, vec![lost]);
        assert_eq!(err.duplicated, vec![dup]);
        assert_eq!(err.foreign, vec![foreign]);
    }
}
