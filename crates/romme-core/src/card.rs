//! Cards: suits, ranks, faces and physical cards with an identity.
//!
//! A [`Face`] is what a natural card shows (rank and suit). A [`CardKind`] is
//! what is printed on a card without its copy number: a face or a joker. A
//! [`Card`] is one physical card of a deck — face plus copy, or joker number —
//! so that conservation ("no card is ever created or lost") can be checked by
//! identity. Text notation lives in [`crate::notation`].

use serde::{Deserialize, Serialize};

/// Language of a display name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// German (Deutsch).
    De,
    /// English.
    En,
}

/// A suit. Stars exist only in the Five Crowns (Königs-Rommé) deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Suit {
    /// ♣ Kreuz.
    Clubs = 0,
    /// ♦ Karo.
    Diamonds = 1,
    /// ♥ Herz.
    Hearts = 2,
    /// ♠ Pik.
    Spades = 3,
    /// ★ Sterne (Five Crowns only).
    Stars = 4,
}

impl Suit {
    /// All five suits, in notation order `c d h s x`.
    pub const ALL: [Suit; 5] = [
        Suit::Clubs,
        Suit::Diamonds,
        Suit::Hearts,
        Suit::Spades,
        Suit::Stars,
    ];
    /// The four suits of the French deck.
    pub const FRENCH: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// Index 0..5, stable (used for compact encodings).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The suit with the given [`Suit::index`].
    #[inline]
    pub const fn from_index(i: usize) -> Option<Suit> {
        match i {
            0 => Some(Suit::Clubs),
            1 => Some(Suit::Diamonds),
            2 => Some(Suit::Hearts),
            3 => Some(Suit::Spades),
            4 => Some(Suit::Stars),
            _ => None,
        }
    }

    /// Canonical ASCII letter: `c d h s x`.
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'c',
            Suit::Diamonds => 'd',
            Suit::Hearts => 'h',
            Suit::Spades => 's',
            Suit::Stars => 'x',
        }
    }

    /// Unicode symbol: `♣ ♦ ♥ ♠ ★`.
    pub const fn symbol(self) -> char {
        match self {
            Suit::Clubs => '♣',
            Suit::Diamonds => '♦',
            Suit::Hearts => '♥',
            Suit::Spades => '♠',
            Suit::Stars => '★',
        }
    }

    /// Display name in the given language ("Kreuz", "clubs").
    pub const fn name(self, lang: Lang) -> &'static str {
        match (lang, self) {
            (Lang::De, Suit::Clubs) => "Kreuz",
            (Lang::De, Suit::Diamonds) => "Karo",
            (Lang::De, Suit::Hearts) => "Herz",
            (Lang::De, Suit::Spades) => "Pik",
            (Lang::De, Suit::Stars) => "Stern",
            (Lang::En, Suit::Clubs) => "clubs",
            (Lang::En, Suit::Diamonds) => "diamonds",
            (Lang::En, Suit::Hearts) => "hearts",
            (Lang::En, Suit::Spades) => "spades",
            (Lang::En, Suit::Stars) => "stars",
        }
    }
}

/// A rank. `Ace` is stored high (14); whether it may also stand low is a
/// ruleset question ([`crate::ruleset::RunRules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Rank {
    /// 2
    Two = 2,
    /// 3
    Three = 3,
    /// 4
    Four = 4,
    /// 5
    Five = 5,
    /// 6
    Six = 6,
    /// 7
    Seven = 7,
    /// 8
    Eight = 8,
    /// 9
    Nine = 9,
    /// 10
    Ten = 10,
    /// Jack, Bube.
    Jack = 11,
    /// Queen, Dame.
    Queen = 12,
    /// King, König.
    King = 13,
    /// Ace, As.
    Ace = 14,
}

impl Rank {
    /// All thirteen ranks from 2 to ace.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The numeric rank, 2..=14 (ace = 14).
    #[inline]
    pub const fn number(self) -> u8 {
        self as u8
    }

    /// The rank with [`Rank::number`] `n` (2..=14).
    #[inline]
    pub const fn from_number(n: u8) -> Option<Rank> {
        if n >= 2 && n <= 14 {
            Some(Rank::ALL[(n - 2) as usize])
        } else {
            None
        }
    }

    /// Index 0..13 (two = 0, ace = 12).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize - 2
    }

    /// Canonical ASCII text: `2`..`10`, `J`, `Q`, `K`, `A`.
    pub const fn text(self) -> &'static str {
        match self {
            Rank::Two => "2",
            Rank::Three => "3",
            Rank::Four => "4",
            Rank::Five => "5",
            Rank::Six => "6",
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "10",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
        }
    }

    /// Short German text: `B` (Bube), `D` (Dame), `K`, `A`; numbers as usual.
    pub const fn text_de(self) -> &'static str {
        match self {
            Rank::Jack => "B",
            Rank::Queen => "D",
            other => other.text(),
        }
    }

    /// Display name ("Dame", "queen").
    pub const fn name(self, lang: Lang) -> &'static str {
        match (lang, self) {
            (Lang::De, Rank::Two) => "Zwei",
            (Lang::De, Rank::Three) => "Drei",
            (Lang::De, Rank::Four) => "Vier",
            (Lang::De, Rank::Five) => "Fünf",
            (Lang::De, Rank::Six) => "Sechs",
            (Lang::De, Rank::Seven) => "Sieben",
            (Lang::De, Rank::Eight) => "Acht",
            (Lang::De, Rank::Nine) => "Neun",
            (Lang::De, Rank::Ten) => "Zehn",
            (Lang::De, Rank::Jack) => "Bube",
            (Lang::De, Rank::Queen) => "Dame",
            (Lang::De, Rank::King) => "König",
            (Lang::De, Rank::Ace) => "As",
            (Lang::En, Rank::Two) => "two",
            (Lang::En, Rank::Three) => "three",
            (Lang::En, Rank::Four) => "four",
            (Lang::En, Rank::Five) => "five",
            (Lang::En, Rank::Six) => "six",
            (Lang::En, Rank::Seven) => "seven",
            (Lang::En, Rank::Eight) => "eight",
            (Lang::En, Rank::Nine) => "nine",
            (Lang::En, Rank::Ten) => "ten",
            (Lang::En, Rank::Jack) => "jack",
            (Lang::En, Rank::Queen) => "queen",
            (Lang::En, Rank::King) => "king",
            (Lang::En, Rank::Ace) => "ace",
        }
    }
}

/// What a natural card shows: a rank of a suit. Also the card a joker or
/// wild card is declared to stand for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Face {
    /// The rank.
    pub rank: Rank,
    /// The suit.
    pub suit: Suit,
}

/// The face at each [`Face::index`] (a table: `from_index` is called in
/// the solver's and the engine's inner loops).
const FACE_AT: [Face; Face::SLOTS] = {
    let mut t = [Face {
        rank: Rank::Two,
        suit: Suit::Clubs,
    }; Face::SLOTS];
    let mut i = 0;
    while i < Face::SLOTS {
        t[i] = Face {
            rank: Rank::ALL[i % 13],
            suit: Suit::ALL[i / 13],
        };
        i += 1;
    }
    t
};

impl Face {
    /// A face from rank and suit.
    #[inline]
    pub const fn new(rank: Rank, suit: Suit) -> Face {
        Face { rank, suit }
    }

    /// How many values [`Face::index`] takes (5 suits × 13 ranks).
    pub const SLOTS: usize = 65;

    /// Index 0..65 (suit-major), stable, for compact encodings.
    #[inline]
    pub const fn index(self) -> usize {
        self.suit.index() * 13 + self.rank.index()
    }

    /// The face with the given [`Face::index`].
    #[inline]
    pub const fn from_index(i: usize) -> Option<Face> {
        if i < Face::SLOTS {
            Some(FACE_AT[i])
        } else {
            None
        }
    }

    /// Unicode display: `Q♥`, `10♣`.
    pub fn unicode(self) -> String {
        format!("{}{}", self.rank.text(), self.suit.symbol())
    }

    /// Full display name: "Herz-Dame" / "queen of hearts".
    pub fn name(self, lang: Lang) -> String {
        match lang {
            Lang::De => format!("{}-{}", self.suit.name(lang), self.rank.name(lang)),
            Lang::En => format!("{} of {}", self.rank.name(lang), self.suit.name(lang)),
        }
    }
}

/// What is printed on a card, without its copy number: a natural face or a
/// joker. This is what the text notation `7h` / `*` denotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CardKind {
    /// A natural card.
    Natural(Face),
    /// A joker (all jokers are alike in play).
    Joker,
}

impl CardKind {
    /// The face of a natural card, `None` for a joker.
    #[inline]
    pub const fn face(self) -> Option<Face> {
        match self {
            CardKind::Natural(f) => Some(f),
            CardKind::Joker => None,
        }
    }

    /// Whether this is a joker.
    #[inline]
    pub const fn is_joker(self) -> bool {
        matches!(self, CardKind::Joker)
    }

    /// Unicode display: `Q♥`, `🃏`.
    pub fn unicode(self) -> String {
        match self {
            CardKind::Natural(f) => f.unicode(),
            CardKind::Joker => "🃏".to_string(),
        }
    }

    /// Full display name: "Herz-Dame" / "queen of hearts" / "Joker".
    pub fn name(self, lang: Lang) -> String {
        match self {
            CardKind::Natural(f) => f.name(lang),
            CardKind::Joker => "Joker".to_string(),
        }
    }
}

impl From<Face> for CardKind {
    fn from(f: Face) -> Self {
        CardKind::Natural(f)
    }
}

/// Number of natural-card slots in the [`Card`] encoding (5 suits × 13 ranks × 2 copies).
const NATURAL_SLOTS: u8 = 5 * 13 * 2;

/// One physical card: a face with its copy number (0 or 1: every deck of the
/// project is a double deck), or joker number `n`. Encoded in one byte so
/// that hands and piles are cheap to copy and compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The highest joker number a card can carry.
    pub const MAX_JOKER: u8 = u8::MAX - NATURAL_SLOTS;

    /// Copy `copy` (0 or 1) of a natural face; `None` for another copy number.
    #[inline]
    pub const fn natural(face: Face, copy: u8) -> Option<Card> {
        if copy > 1 {
            return None;
        }
        Some(Card((face.index() as u8) * 2 + copy))
    }

    /// Joker number `n` (0-based).
    #[inline]
    pub const fn joker(n: u8) -> Option<Card> {
        if n > Self::MAX_JOKER {
            return None;
        }
        Some(Card(NATURAL_SLOTS + n))
    }

    /// The raw byte (stable encoding; natural cards first, then jokers).
    #[inline]
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The card with the given [`Card::id`].
    #[inline]
    pub const fn from_id(id: u8) -> Card {
        Card(id)
    }

    /// What is printed on the card.
    #[inline]
    pub const fn kind(self) -> CardKind {
        if self.0 >= NATURAL_SLOTS {
            CardKind::Joker
        } else {
            match Face::from_index((self.0 / 2) as usize) {
                Some(f) => CardKind::Natural(f),
                // Unreachable: every id below NATURAL_SLOTS is a valid face.
                None => CardKind::Joker,
            }
        }
    }

    /// The face of a natural card, `None` for a joker.
    #[inline]
    pub const fn face(self) -> Option<Face> {
        self.kind().face()
    }

    /// Whether this card is of `kind` (`card.kind() == kind`, told from
    /// the byte: a natural's byte halved is its face's index, a joker's is
    /// past every face's).
    #[inline]
    pub const fn is(self, kind: CardKind) -> bool {
        match kind {
            CardKind::Joker => self.is_joker(),
            CardKind::Natural(f) => (self.0 / 2) as usize == f.index(),
        }
    }

    /// Whether this is a joker.
    #[inline]
    pub const fn is_joker(self) -> bool {
        self.0 >= NATURAL_SLOTS
    }

    /// Copy number of a natural card (0 or 1), joker number of a joker.
    #[inline]
    pub const fn copy(self) -> u8 {
        if self.is_joker() {
            self.0 - NATURAL_SLOTS
        } else {
            self.0 % 2
        }
    }
}

impl std::fmt::Display for Card {
    /// Canonical notation of the card's kind followed by its identity, e.g.
    /// `Qh#1`, `*#4` (the `#n` suffix is 1-based and only used where physical
    /// identity matters, e.g. conservation reports).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}#{}", self.kind(), self.copy() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_encoding_round_trips_every_face_and_copy() {
        for suit in Suit::ALL {
            for rank in Rank::ALL {
                for copy in 0..2 {
                    let face = Face::new(rank, suit);
                    let card = Card::natural(face, copy).expect("copy 0/1");
                    assert_eq!(card.face(), Some(face));
                    assert_eq!(card.copy(), copy);
                    assert!(!card.is_joker());
                    assert_eq!(Card::from_id(card.id()), card);
                }
            }
        }
        assert!(Card::natural(Face::new(Rank::Two, Suit::Clubs), 2).is_none());
    }

    #[test]
    fn a_card_is_of_its_own_kind_only() {
        let mut kinds: Vec<CardKind> = Vec::new();
        for suit in Suit::ALL {
            for rank in Rank::ALL {
                kinds.push(CardKind::Natural(Face::new(rank, suit)));
            }
        }
        kinds.push(CardKind::Joker);
        let cards = (0..=u8::MAX).map(Card::from_id);
        for card in cards {
            for &k in &kinds {
                assert_eq!(card.is(k), card.kind() == k, "{card} and {k}");
            }
        }
    }

    #[test]
    fn jokers_are_numbered_and_distinct_from_naturals() {
        let j0 = Card::joker(0).expect("joker 0");
        let j5 = Card::joker(5).expect("joker 5");
        assert!(j0.is_joker() && j5.is_joker());
        assert_ne!(j0, j5);
        assert_eq!(j5.copy(), 5);
        assert_eq!(j0.kind(), CardKind::Joker);
        assert!(Card::joker(Card::MAX_JOKER + 1).is_none());
    }

    #[test]
    fn display_names_in_both_languages() {
        let q = Face::new(Rank::Queen, Suit::Hearts);
        assert_eq!(q.name(Lang::De), "Herz-Dame");
        assert_eq!(q.name(Lang::En), "queen of hearts");
        assert_eq!(q.unicode(), "Q♥");
        assert_eq!(Face::new(Rank::Ten, Suit::Stars).unicode(), "10★");
        assert_eq!(CardKind::Joker.name(Lang::De), "Joker");
        assert_eq!(Rank::Jack.text_de(), "B");
        assert_eq!(Rank::Queen.text_de(), "D");
    }

    #[test]
    fn face_index_round_trips() {
        for i in 0..65 {
            let f = Face::from_index(i).expect("valid index");
            assert_eq!(f.index(), i);
        }
        assert!(Face::from_index(65).is_none());
    }
}
