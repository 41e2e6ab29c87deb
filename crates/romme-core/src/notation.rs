//! The project's text notation for cards, used by every interface.
//!
//! * rank `2`–`10` (also `T` for 10), `J` `Q` `K` `A`; German `B` (Bube) and
//!   `D` (Dame) are accepted too;
//! * suit `c` `d` `h` `s` `x` (clubs/Kreuz, diamonds/Karo, hearts/Herz,
//!   spades/Pik, stars) or the Unicode symbols `♣ ♦ ♥ ♠ ★` (emoji variation
//!   selectors are ignored);
//! * a joker is `*` (also `🃏`);
//! * a card standing for another is `*=8h` (a joker declared as ♥8) or
//!   `7d=Qx` (a Five Crowns round wild declared as ★Q).
//!
//! Parsing is case-insensitive and ignores surrounding white space. Output
//! is always canonical ASCII: `10h`, `Qs`, `*`, `*=8h`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::card::{CardKind, Face, Rank, Suit};

/// A card as it lies in a meld: what is printed on it and, for a joker or a
/// wild card, the card it stands for. Notation `7h`, `*=8h`, `7d=Qx`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MeldCard {
    /// What is printed on the card.
    pub card: CardKind,
    /// The declared face, if the card stands for another card.
    pub stands_for: Option<Face>,
}

impl MeldCard {
    /// A card standing for itself.
    pub const fn plain(card: CardKind) -> MeldCard {
        MeldCard {
            card,
            stands_for: None,
        }
    }

    /// The face this card takes in the meld: the declaration, or its own face.
    pub const fn effective(self) -> Option<Face> {
        match self.stands_for {
            Some(f) => Some(f),
            None => self.card.face(),
        }
    }
}

/// Why a card text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseCardError {
    /// Nothing to parse.
    #[error("empty card")]
    Empty,
    /// The text is not a card in the project's notation.
    #[error(
        "unknown card '{0}' (write e.g. 10h, Qs, *, *=8h; suits c d h s x, ranks 2-10 J Q K A)"
    )]
    Unknown(String),
    /// A declaration (`=`) where it makes no sense, e.g. `*=*`.
    #[error("'{0}': a card can only stand for a natural card (e.g. *=8h)")]
    BadDeclaration(String),
}

fn parse_suit(s: &str) -> Option<Suit> {
    // Strip emoji/text variation selectors (U+FE0E, U+FE0F) that some
    // keyboards attach to suit symbols.
    let s: String = s
        .chars()
        .filter(|c| *c != '\u{FE0F}' && *c != '\u{FE0E}')
        .collect();
    Some(match s.as_str() {
        "c" | "C" | "♣" | "♧" => Suit::Clubs,
        "d" | "D" | "♦" | "♢" => Suit::Diamonds,
        "h" | "H" | "♥" | "♡" => Suit::Hearts,
        "s" | "S" | "♠" | "♤" => Suit::Spades,
        "x" | "X" | "★" | "☆" => Suit::Stars,
        _ => return None,
    })
}

fn parse_rank(s: &str) -> Option<Rank> {
    Some(match s.to_ascii_uppercase().as_str() {
        "2" => Rank::Two,
        "3" => Rank::Three,
        "4" => Rank::Four,
        "5" => Rank::Five,
        "6" => Rank::Six,
        "7" => Rank::Seven,
        "8" => Rank::Eight,
        "9" => Rank::Nine,
        "10" | "T" => Rank::Ten,
        "J" | "B" => Rank::Jack,
        "Q" | "D" => Rank::Queen,
        "K" => Rank::King,
        "A" => Rank::Ace,
        _ => return None,
    })
}

impl FromStr for Face {
    type Err = ParseCardError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let t = text.trim();
        if t.is_empty() {
            return Err(ParseCardError::Empty);
        }
        // The suit is the last character (plus an optional variation selector).
        let mut split = t.len();
        for (i, c) in t.char_indices().rev() {
            split = i;
            if c != '\u{FE0F}' && c != '\u{FE0E}' {
                break;
            }
        }
        let (rank, suit) = t.split_at(split);
        match (parse_rank(rank), parse_suit(suit)) {
            (Some(rank), Some(suit)) => Ok(Face::new(rank, suit)),
            _ => Err(ParseCardError::Unknown(t.to_string())),
        }
    }
}

impl FromStr for CardKind {
    type Err = ParseCardError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let t = text.trim();
        match t {
            "" => Err(ParseCardError::Empty),
            "*" | "🃏" => Ok(CardKind::Joker),
            _ if t.eq_ignore_ascii_case("joker") => Ok(CardKind::Joker),
            _ => t.parse::<Face>().map(CardKind::Natural),
        }
    }
}

impl FromStr for MeldCard {
    type Err = ParseCardError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let t = text.trim();
        match t.split_once('=') {
            None => Ok(MeldCard::plain(t.parse()?)),
            Some((card, declared)) => {
                let card: CardKind = card.parse()?;
                let declared = declared.trim();
                if declared.is_empty() {
                    return Err(ParseCardError::BadDeclaration(t.to_string()));
                }
                match declared.parse::<CardKind>() {
                    Ok(CardKind::Natural(face)) => Ok(MeldCard {
                        card,
                        stands_for: Some(face),
                    }),
                    Ok(CardKind::Joker) => Err(ParseCardError::BadDeclaration(t.to_string())),
                    Err(e) => Err(e),
                }
            }
        }
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank.text(), self.suit.letter())
    }
}

impl fmt::Display for CardKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CardKind::Natural(face) => face.fmt(f),
            CardKind::Joker => f.write_str("*"),
        }
    }
}

impl fmt::Display for MeldCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.stands_for {
            Some(face) => write!(f, "{}={}", self.card, face),
            None => self.card.fmt(f),
        }
    }
}

/// Parse a white-space or comma separated list of cards, e.g. `"7h 7s *"`.
pub fn parse_cards(text: &str) -> Result<Vec<CardKind>, ParseCardError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .map(str::parse)
        .collect()
}

/// Canonical text of a list of cards, separated by single spaces.
pub fn format_cards<T: fmt::Display>(cards: &[T]) -> String {
    cards
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

macro_rules! serde_as_text {
    ($t:ty) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
serde_as_text!(Face);
serde_as_text!(CardKind);
serde_as_text!(MeldCard);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn kind(s: &str) -> CardKind {
        s.parse().expect(s)
    }

    #[test]
    fn parses_canonical_and_alternative_spellings() {
        let ten_h = CardKind::Natural(Face::new(Rank::Ten, Suit::Hearts));
        for s in ["10h", "Th", "th", "10♥", "10♥\u{FE0F}", " 10H "] {
            assert_eq!(kind(s), ten_h, "{s}");
        }
        let q_c = CardKind::Natural(Face::new(Rank::Queen, Suit::Clubs));
        assert_eq!(kind("Qc"), q_c);
        assert_eq!(kind("Dc"), q_c, "German Dame");
        assert_eq!(kind("D♣"), q_c);
        assert_eq!(
            kind("Bd"),
            CardKind::Natural(Face::new(Rank::Jack, Suit::Diamonds)),
            "German Bube"
        );
        assert_eq!(
            kind("K★"),
            CardKind::Natural(Face::new(Rank::King, Suit::Stars))
        );
        assert_eq!(kind("*"), CardKind::Joker);
        assert_eq!(kind("🃏"), CardKind::Joker);
    }

    #[test]
    fn output_is_canonical_ascii() {
        assert_eq!(kind("T♥").to_string(), "10h");
        assert_eq!(kind("D♠").to_string(), "Qs");
        assert_eq!(kind("🃏").to_string(), "*");
        let m: MeldCard = "*=8♥".parse().expect("declared joker");
        assert_eq!(m.to_string(), "*=8h");
        let w: MeldCard = "7d=Qx".parse().expect("declared wild");
        assert_eq!(w.card, kind("7d"));
        assert_eq!(w.stands_for, Some(Face::new(Rank::Queen, Suit::Stars)));
        assert_eq!(w.effective(), Some(Face::new(Rank::Queen, Suit::Stars)));
    }

    #[test]
    fn rejects_garbage_with_the_offending_text() {
        for bad in [
            "Zz", "1h", "11h", "Q", "h", "10", "Qhh", "**", "*=", "*=*", "=8h",
        ] {
            let err = bad.parse::<MeldCard>().expect_err(bad);
            let msg = err.to_string();
            assert!(
                msg.contains(bad.trim_start_matches('=')) || matches!(err, ParseCardError::Empty),
                "{bad}: {msg}"
            );
        }
        assert_eq!("".parse::<CardKind>(), Err(ParseCardError::Empty));
    }

    #[test]
    fn parse_cards_splits_lists() {
        let cards = parse_cards("7h, 7s 7c\t*").expect("list");
        assert_eq!(format_cards(&cards), "7h 7s 7c *");
        assert!(parse_cards("7h Zz").is_err());
    }

    #[test]
    fn serde_uses_the_notation() {
        let m: MeldCard = "*=Ac".parse().expect("card");
        let json = serde_json::to_string(&m).expect("json");
        assert_eq!(json, "\"*=Ac\"");
        let back: MeldCard = serde_json::from_str(&json).expect("back");
        assert_eq!(back, m);
        assert!(serde_json::from_str::<CardKind>("\"Zz\"").is_err());
    }

    fn any_face() -> impl Strategy<Value = Face> {
        (0usize..65).prop_map(|i| Face::from_index(i).expect("index"))
    }

    fn any_kind() -> impl Strategy<Value = CardKind> {
        prop_oneof![
            Just(CardKind::Joker),
            any_face().prop_map(CardKind::Natural)
        ]
    }

    proptest! {
        #[test]
        fn meld_card_notation_round_trips(card in any_kind(), decl in proptest::option::of(any_face())) {
            let m = MeldCard { card, stands_for: decl };
            let text = m.to_string();
            prop_assert!(text.is_ascii());
            prop_assert_eq!(text.parse::<MeldCard>(), Ok(m));
        }

        #[test]
        fn unicode_display_parses_back(face in any_face()) {
            prop_assert_eq!(face.unicode().parse::<Face>(), Ok(face));
        }

        #[test]
        fn parser_never_panics(s in "\\PC{0,8}") {
            let _ = s.parse::<MeldCard>();
        }
    }
}
