//! Rulesets: every knob of `RULES.md` §1–§8 and §10 as one serde type.
//!
//! A variant is data, not code: a ruleset is a TOML file (see `rulesets/`)
//! that [`load`] reads with strict validation. Sections follow the digest:
//! deck, players, deal, melds, values (meld value for openings), penalty
//! (cards left in hand), opening, turn, jokers, buying, knocking, stock,
//! going out, Hand-Rommé, concealed play (ohne Auslegen / Wiener), scoring,
//! match, money, timer.
//!
//! Readings we chose where a text is ambiguous are documented on the knob.

mod load;
pub mod presets;
mod validate;

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use crate::deck::{Deck, DeckKind};
pub use load::{
    Knob, LoadError, Resolved, load, load_with, parse_standalone, resolve, resolve_with,
};
pub use validate::Violation;

use crate::card::{Face, Rank};

/// A limit that may be absent: TOML `"none"` or a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Limit {
    /// No limit.
    #[default]
    None,
    /// At most this many.
    At(u16),
}

impl Limit {
    /// Whether `n` is within the limit.
    pub fn allows(self, n: usize) -> bool {
        match self {
            Limit::None => true,
            Limit::At(max) => n <= max as usize,
        }
    }

    /// The limit as a number, if any.
    pub fn get(self) -> Option<u16> {
        match self {
            Limit::None => None,
            Limit::At(n) => Some(n),
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::None => f.write_str("none"),
            Limit::At(n) => write!(f, "{n}"),
        }
    }
}

impl Serialize for Limit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Limit::None => s.serialize_str("none"),
            Limit::At(n) => s.serialize_u16(*n),
        }
    }
}

impl<'de> Deserialize<'de> for Limit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Limit;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a whole number from 0 to 65535 or \"none\"")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Limit, E> {
                u16::try_from(v)
                    .map(Limit::At)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Limit, E> {
                u16::try_from(v)
                    .map(Limit::At)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Limit, E> {
                if v == "none" {
                    Ok(Limit::None)
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Str(v), &self))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// The complete, resolved set of rules of one variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    /// Short identifier, e.g. `klassisch`.
    pub name: String,
    /// Titles and descriptions for people.
    pub info: Info,
    /// Which cards are played with (§1).
    pub deck: Deck,
    /// How many players (§4).
    pub players: Players,
    /// Dealing (§4).
    pub deal: Deal,
    /// What a valid meld is (§2).
    pub melds: MeldRules,
    /// Card values inside melds, for opening thresholds (§3).
    pub values: MeldValues,
    /// Penalty value of cards left in hand (§3, table 3).
    pub penalty: Penalty,
    /// The first meld ("Erstmeldung", §5).
    pub opening: Opening,
    /// Drawing, laying off and changing the table (§5).
    pub turn: Turn,
    /// Joker exchange and discard (§5).
    pub jokers: JokerRules,
    /// Buying the discard out of turn, "Kaufen" (§5).
    pub buying: Buying,
    /// Knocking for the discard out of turn, "Klopfen" (§5).
    pub knocking: Knocking,
    /// The stock (§5).
    pub stock: Stock,
    /// How a game ends (§6).
    pub going_out: GoingOut,
    /// All cards out in one turn without an earlier meld (§6).
    pub hand_romme: HandRomme,
    /// Melds kept in the hand: ohne Auslegen, Wiener Rummy, Five Crowns (§6).
    pub concealed: Concealed,
    /// End-of-game scoring (§7).
    pub scoring: Scoring,
    /// When a match ends and who wins it (§7, §10).
    #[serde(rename = "match")]
    pub match_rules: MatchRules,
    /// Playing for money (§7).
    pub money: Money,
    /// Turn timer (§10).
    pub timer: Timer,
}

/// Titles and descriptions for people, in German and English.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Info {
    /// German title.
    pub title_de: String,
    /// English title.
    pub title_en: String,
    /// One or two German sentences describing the variant.
    pub summary_de: String,
    /// The same in English.
    pub summary_en: String,
    /// Rule texts this variant follows (file-name prefixes such as `003`).
    pub sources: Vec<String>,
}

/// Number of players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Players {
    /// Fewest seats.
    pub min: u8,
    /// Most seats.
    pub max: u8,
    /// Most players taking part in one game; with more seats the dealer sits
    /// out (`004` 2: three at a table, at a 4-table the dealer does not play).
    pub active_per_game: Limit,
}

/// How many cards a hand has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HandSize {
    /// Always this many.
    Fixed(u8),
    /// Round number + 2 (Five Crowns: 3 cards in round 1 … 13 in round 11).
    RoundPlusTwo,
}

impl HandSize {
    /// Cards per hand in round `round` (1-based).
    pub fn cards(self, round: u8) -> u8 {
        match self {
            HandSize::Fixed(n) => n,
            HandSize::RoundPlusTwo => round.saturating_add(2),
        }
    }
}

impl fmt::Display for HandSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandSize::Fixed(n) => write!(f, "{n}"),
            HandSize::RoundPlusTwo => f.write_str("round+2"),
        }
    }
}

impl Serialize for HandSize {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            HandSize::Fixed(n) => s.serialize_u8(*n),
            HandSize::RoundPlusTwo => s.serialize_str("round+2"),
        }
    }
}

/// Dealing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deal {
    /// Cards per hand: a number, or `"round+2"` for Five Crowns.
    pub hand_size: HandSize,
    /// The first player gets one card more and begins by discarding (§10).
    pub first_player_extra_card: bool,
    /// Deal into eleven fanned hands of 3…13 cards for one player (Five
    /// Crowns solo patience, `000`).
    pub solo_patience: bool,
}

impl<'de> Deserialize<'de> for HandSize {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(HandSizeVisitor)
    }
}

struct HandSizeVisitor;
impl serde::de::Visitor<'_> for HandSizeVisitor {
    type Value = HandSize;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number of cards or \"round+2\"")
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<HandSize, E> {
        u8::try_from(v)
            .map(HandSize::Fixed)
            .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<HandSize, E> {
        u8::try_from(v)
            .map(HandSize::Fixed)
            .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<HandSize, E> {
        if v == "round+2" {
            Ok(HandSize::RoundPlusTwo)
        } else {
            Err(E::invalid_value(serde::de::Unexpected::Str(v), &self))
        }
    }
}

/// What a valid meld is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeldRules {
    /// Fewest cards in a meld (3 in every text).
    pub min_len: u8,
    /// Sets ("Sätze"): cards of one rank.
    pub sets: SetRules,
    /// Runs ("Sequenzen", "Folgen", "Reihen"): consecutive ranks of one suit.
    pub runs: RunRules,
    /// Jokers and wild cards in melds.
    pub wilds: WildRules,
}

/// Which suits a set may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SetSuits {
    /// Every suit at most once (`001`, `003`, `004`).
    Distinct,
    /// Any suits, the same suit twice allowed ("gemischte Sätze", `002`,
    /// `003` option, `000`).
    Any,
}

/// Sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetRules {
    /// Distinct or any suits.
    pub suits: SetSuits,
    /// Most cards in a set (4 with distinct French suits; `"none"` for mixed sets).
    pub max_len: Limit,
}

/// Runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRules {
    /// The ace may stand before the 2 (A-2-3).
    pub ace_low: bool,
    /// The ace may stand after the king (Q-K-A).
    pub ace_high: bool,
    /// K-A-2 is allowed ("um die Ecke"). Needs both `ace_low` and `ace_high`.
    pub wrap_around: bool,
}

/// How many wild cards a meld may have relative to its natural cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WildShare {
    /// Any number (`000`, `001`–`003`).
    Any,
    /// Wilds in the minority: fewer wilds than naturals (`004` 7: "in Unterzahl").
    FewerThanNaturals,
    /// At most as many wilds as naturals (§10).
    AtMostNaturals,
}

/// Jokers and round wilds in melds. Every limit counts jokers and round
/// wilds that stand for another card alike ("wild cards"); a round wild used
/// as itself counts as a natural card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WildRules {
    /// Wilds relative to naturals.
    pub share: WildShare,
    /// Most wilds in one meld.
    pub max_per_meld: Limit,
    /// Two wilds may lie next to each other in a run (`004` 7: they may not).
    /// In a set, position has no meaning and this knob does not apply.
    pub adjacent: bool,
    /// A wild may be the first or last card of a run (§10).
    pub at_run_ends: bool,
    /// A meld may consist of wild cards only (`000`: "komplett aus Jokern").
    pub all_wild: bool,
    /// Five Crowns: in round r every card of rank r+2 is an extra wild card (`000`).
    pub round_wild: bool,
}

/// Card values inside melds (§3), used for the opening threshold.
/// 2–10 count their face value, jokers the card they stand for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeldValues {
    /// Jack, queen and king.
    pub face_cards: u8,
    /// Ace in a set, after the king, and in a wrap-around run (`003`: "um
    /// die Ecke … zählt As 11"; `004`: 11 "auch wenn die 2 folgt").
    pub ace_high: u8,
    /// Ace before the 2 (A-2-3): 1 in the texts, 11 in the `001` variation, 10 or 11 in house rules.
    pub ace_low: u8,
}

impl MeldValues {
    /// The value of `face` in a meld; `ace_low` says whether an ace stands
    /// low (before the 2, not after a king).
    pub fn value(&self, face: Face, ace_low: bool) -> u32 {
        match face.rank {
            Rank::Ace if ace_low => u32::from(self.ace_low),
            Rank::Ace => u32::from(self.ace_high),
            Rank::Jack | Rank::Queen | Rank::King => u32::from(self.face_cards),
            r => u32::from(r.number()),
        }
    }

    /// The value of `face` in a meld at its highest (an ace low or high).
    pub fn highest(&self, face: Face) -> u32 {
        self.value(face, true).max(self.value(face, false))
    }
}

/// Penalty points of cards left in hand (§3, table 3). 2–10 count their face value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Penalty {
    /// Jack.
    pub jack: u8,
    /// Queen.
    pub queen: u8,
    /// King.
    pub king: u8,
    /// Ace.
    pub ace: u8,
    /// Joker.
    pub joker: u8,
    /// A card of the round's wild rank (Five Crowns: 20).
    pub round_wild: u8,
}

/// How the opening threshold is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpeningCount {
    /// The melds of the opening together (all texts).
    Sum,
    /// One meld alone must reach the threshold (§10 "per single meld"); other
    /// melds of the same turn come after the opening and need no minimum.
    SingleMeld,
}

/// What a joker counts toward the opening threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JokerOpeningValue {
    /// The value of the card it stands for (all texts).
    Represented,
    /// Nothing (§10: jokers do not count at full value).
    Zero,
}

/// The first meld ("Erstmeldung", "Auslegen").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Opening {
    /// Points needed (30 in `001`/`002`, 40 in `003`/`004`; 0 = no threshold).
    pub threshold: u16,
    /// Sum of the melds, or each meld.
    pub count: OpeningCount,
    /// Cards laid off on other melds count toward the threshold (Räuber
    /// `003`; `002` Anlegen).
    pub lay_offs_count: bool,
    /// The value of melds already on the table counts (Räuber `002`).
    pub table_counts: bool,
    /// What a joker counts.
    pub joker_value: JokerOpeningValue,
    /// The opening must be made of natural cards only (§10).
    pub naturals_only: bool,
}

/// When the top discard may be taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiscardTake {
    /// Always.
    Free,
    /// Only if the card is melded at once (`003` option, Räuber `002`/`003`).
    MeldAtOnce,
    /// Only if melded at once, and before the own opening only as part of an
    /// opening that reaches the threshold (`004` 4).
    MeldAtOnceOpening,
}

/// When a player may lay cards off on melds already on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LayOff {
    /// Never (Five Crowns).
    Never,
    /// Once the player has opened, from the opening turn on (`003`; `004` 6:
    /// "gleichzeitig darf er anlegen").
    AfterOpening,
}

/// On whose melds a player may lay off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LayOffTarget {
    /// Only on own melds.
    Own,
    /// On own and opponents' melds (`001`, `002` Anlegen, `003`).
    Any,
}

/// Whether and how melds on the table may be changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rearrange {
    /// "Was liegt, das liegt" (`004` 6): melds are never changed, only extended.
    None,
    /// Free rearrangement: every meld stays valid, no table card goes to the
    /// hand (`001`).
    Free,
    /// Räuber: take single cards or whole melds only when re-melded at once
    /// with own cards; the remainder keeps ≥ `min_len` cards; robbed cards may
    /// not be discarded (`002`, `003`).
    Rob,
}

/// A turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    /// There is a discard pile. Without one (`001` variation): nobody
    /// discards, a player who cannot play must draw, and one who plays need
    /// not draw ("Solange ein Spieler eine Karte spielen kann, muss er keine
    /// ziehen").
    pub discard_pile: bool,
    /// When the top discard may be taken.
    pub discard_take: DiscardTake,
    /// When a player may lay off.
    pub lay_off: LayOff,
    /// On whose melds.
    pub lay_off_target: LayOffTarget,
    /// Changing the table.
    pub rearrange: Rearrange,
}

/// When a joker on the table may be exchanged for the card it stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JokerExchange {
    /// Never (`003` option).
    Never,
    /// On one's turn at any time, also before opening (`001` "jederzeit", `002`).
    AnyTime,
    /// Only after one's own opening (`003` option, `004` 9).
    AfterOpening,
}

/// Jokers: exchange and discard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JokerRules {
    /// When a joker may be exchanged.
    pub exchange: JokerExchange,
    /// In a set, a joker may only be exchanged when the set is complete with
    /// four cards (`004` 9).
    pub exchange_needs_full_set: bool,
    /// A freed joker must be melded again in the same turn (`004` 9, `001` variation).
    pub freed_must_be_melded: bool,
    /// After an exchange no other card may be played in that turn (`001`).
    pub exchange_ends_plays: bool,
    /// A joker may be discarded (`004` 4: "Joker dürfen nicht abgelegt werden").
    pub discard_allowed: bool,
}

/// Buying the top discard out of turn ("Rommé mit Kaufen", `002`; `001` variation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Buying {
    /// Buying is played.
    pub enabled: bool,
    /// Stock cards the buyer must take as well (1 in both texts).
    pub extra_stock_cards: u8,
    /// Players seated between the discarder and the buyer may claim the card
    /// first ("Vorkaufsrecht").
    pub first_refusal: bool,
}

/// Knocking for the just-discarded card ("Rommé mit Klopfen", `003`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Knocking {
    /// Knocking is played. Players between discarder and knocker are skipped.
    pub enabled: bool,
    /// Stock cards the knocker draws in addition (2).
    pub extra_stock_cards: u8,
    /// Only allowed when the card can be melded at once (`003` option).
    pub only_if_meldable: bool,
}

/// What happens when the stock is used up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StockExhausted {
    /// The discard pile without its top card is shuffled into a new stock (`000`).
    Reshuffle,
    /// The game ends without a winner and everyone scores (`004` 5).
    EndGame,
}

/// The stock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stock {
    /// When it runs out.
    pub when_empty: StockExhausted,
    /// The stock is split into this many piles to choose from (`001` variation).
    pub piles: u8,
}

/// Whether the last card must be discarded when going out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FinalDiscard {
    /// Meld everything but one card and discard it (`003`, `004`, `000`).
    Required,
    /// The last card may be discarded or melded (`001` variation, `002`
    /// Anlegen, `003` by agreement).
    Optional,
    /// The last card must be melded or laid off, never discarded (`001`:
    /// the variation "Die letzte darf man auf den Kartenstoß werfen" implies
    /// the main rule forbids it); the only choice without a discard pile.
    Never,
}

/// Going out and ending a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoingOut {
    /// The final discard.
    pub final_discard: FinalDiscard,
    /// A player may call "Rommé" with cards worth up to this many points
    /// left (`002` "Rommé bieten": an agreed 0–9; `001` variation: 5).
    pub rest_allowed: u8,
    /// When one player goes out, every other player has one more normal turn
    /// and may then lay down part of the hand (Five Crowns, `000`).
    pub last_turn_for_others: bool,
}

/// Hand-Rommé: all cards out in one turn without an earlier meld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandRomme {
    /// Hand-Rommé is recognised.
    pub enabled: bool,
    /// The opening threshold does not apply (`003`, `004` 10).
    pub threshold_waived: bool,
    /// The threshold applies again when the Hand-Rommé includes lay-offs or
    /// a joker exchange (`004` 10).
    pub threshold_with_lay_offs: bool,
    /// Cards may be laid off on other melds in a Hand-Rommé (`003`: "Man kann
    /// … dabei auch an andere Meldungen anlegen").
    pub lay_offs_allowed: bool,
    /// Allowed in a player's first turn (§10).
    pub first_turn_allowed: bool,
}

/// Concealed play: melds stay in the hand until one player lays down
/// (`003` Rommé ohne Auslegen, Wiener Rummy; Five Crowns `000`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Concealed {
    /// Melds are kept in the hand; nothing is laid out during the game.
    pub enabled: bool,
    /// A player may lay down (ending the game) when the cards outside melds
    /// count less than this (`003` ohne Auslegen: 10; Wiener and Five
    /// Crowns: 1, i.e. all cards in melds).
    pub lay_down_below: u16,
    /// A player may knock when the cards outside melds count less than this;
    /// every other player then draws and discards once more (Wiener: 5).
    pub knock_below: Limit,
}

/// How a game is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScoringScheme {
    /// Every player scores the penalty value of the cards left in the hand
    /// (the winner usually 0); Hand-Rommé multiplies (`001`, `002`, `003`, `000`).
    Penalty,
    /// Penalty plus the bonuses of "Rommé mit Anlegen" (`002`).
    Anlegen,
    /// Club rating points plus hand points (`004` 11–14).
    Club,
    /// Solo patience: won or lost (`000`).
    Patience,
}

/// Bonuses of "Rommé mit Anlegen" (`002`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnlegenBonus {
    /// Struck from the winner's total ("40 Verlustpunkte … abgezogen").
    pub winner_strike: u16,
    /// Struck from a player whose hand is a single joker at the end ("Wer
    /// nur einen Joker übrig behält"). We read this as: the joker's penalty
    /// is scored as usual and then 20 are struck.
    pub single_joker_strike: u16,
    /// Added to the first player who melded but did not win.
    pub first_melder_penalty: u16,
}

/// One tier of club rating points: up to `max_points` hand points give `rating`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tier {
    /// Highest hand points of this tier (inclusive).
    pub max_points: u32,
    /// Rating points for it.
    pub rating: i8,
}

/// Club rating points (`004` 12).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClubRating {
    /// Hand-Rommé without lay-off or joker exchange.
    pub hand_romme: i8,
    /// Hand-Rommé with lay-off or joker exchange.
    pub hand_romme_with_lay_offs: i8,
    /// Went out ("Rommé").
    pub went_out: i8,
    /// Opened: tiers by hand points, ascending.
    pub opened: Vec<Tier>,
    /// Opened, above the last tier.
    pub opened_above: i8,
    /// Not opened: tiers by hand points, ascending.
    pub not_opened: Vec<Tier>,
    /// Not opened, above the last tier.
    pub not_opened_above: i8,
}

/// Scoring.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scoring {
    /// The scheme.
    pub scheme: ScoringScheme,
    /// Others' points are multiplied by this after a Hand-Rommé (`003`: 2).
    pub hand_romme_multiplier: u8,
    /// Bonuses of the `anlegen` scheme.
    pub anlegen: AnlegenBonus,
    /// Rating points of the `club` scheme.
    pub club: ClubRating,
}

/// When a match ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatchEnd {
    /// After `games` games; lowest total (club: highest rating) wins.
    Games,
    /// When a player's total reaches `limit` (§10: e.g. 500); lowest total wins.
    PenaltyLimit,
    /// A player whose total reaches `limit` is out; the last one left wins
    /// (Wiener Rummy: 101).
    Elimination,
    /// One game per hand size, 3…13 cards (Five Crowns: 11 rounds); lowest
    /// total wins, ties share the win.
    Rounds,
}

/// A match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchRules {
    /// When it ends.
    pub end: MatchEnd,
    /// Number of games for `end = "games"`.
    pub games: u16,
    /// Points for `penalty-limit` and `elimination`.
    pub limit: u32,
}

/// Playing for money (amounts in cents).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Money {
    /// Money is settled.
    pub enabled: bool,
    /// Every loser pays the winner `cents` per `per_points` penalty points
    /// (`002`: 10 points = 1 cent). Fractions of a cent are rounded half up
    /// per payer.
    pub cents: u32,
    /// See `cents`.
    pub per_points: u32,
    /// Stake every player pays into the pot at the start (`004` 15: 5 €;
    /// Wiener: "Einsatz").
    pub entry_fee: u32,
    /// Paid into the pot for every game with −1 rating point (`004` 15: 0.50 €).
    pub minus_game_fee: u32,
    /// Paid to a player who goes out by every other player (Wiener).
    pub going_out_payment: u32,
    /// How the pot (entry fees and minus-game fees) is paid out, in percent
    /// by final rank (`004` 15: "Das Startgeld wird voll ausgespielt"; the
    /// split is the club's choice). Must add up to 100.
    pub prize_shares: Vec<u8>,
}

/// What happens when a player's turn time runs out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnTimeout {
    /// The heuristic bot plays the turn.
    AutoPlay,
    /// The player forfeits the game.
    Forfeit,
}

/// Turn timer (§10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timer {
    /// Seconds per turn: 0 (none), 15, 30, 60 or 120.
    pub seconds: u16,
    /// What a timeout does.
    pub on_timeout: OnTimeout,
}

impl Ruleset {
    /// The round-wild rank in round `round` (1-based), if this ruleset has round wilds.
    pub fn round_wild_rank(&self, round: u8) -> Option<Rank> {
        if self.melds.wilds.round_wild {
            Rank::from_number(round.checked_add(2)?).filter(|r| *r != Rank::Ace)
        } else {
            None
        }
    }

    /// The most cards a set may hold: the ruleset's limit, or with distinct
    /// suits and no limit one per suit; `None` for any suits and no limit.
    pub fn set_max_len(&self) -> Option<usize> {
        let sets = &self.melds.sets;
        match (sets.suits, sets.max_len) {
            (SetSuits::Distinct, Limit::None) => Some(self.deck.kind.suits().len()),
            (_, l) => l.get().map(usize::from),
        }
    }

    /// Whether what a wild card in a laid meld stands for can matter: a
    /// lay-off or a joker exchange reads it, a rearrangement moves it, or
    /// the meld's value counts toward an opening. Where none of these can
    /// happen (concealed play: `000` Five Crowns, `003` ohne Auslegen and
    /// Wiener), nobody at a club table names the card a wild card stands
    /// for, and the engine takes a meld that can be read several ways in
    /// its first reading instead of asking.
    pub fn declarations_matter(&self) -> bool {
        self.turn.lay_off != LayOff::Never
            || self.jokers.exchange != JokerExchange::Never
            || self.turn.rearrange != Rearrange::None
            || self.opening.threshold > 0
    }

    /// Number of rounds of a Five Crowns style match (11), `None` otherwise.
    pub fn rounds(&self) -> Option<u8> {
        match self.match_rules.end {
            MatchEnd::Rounds => {
                let ranks = self.deck.kind.ranks().len() as u8;
                Some(ranks)
            }
            _ => None,
        }
    }

    /// Check ranges and contradictions; every problem names its key.
    pub fn validate(&self) -> Result<(), Vec<Violation>> {
        validate::validate(self)
    }
}
