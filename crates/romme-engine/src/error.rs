//! Why an action or a new game was refused. Every refusal leaves the game
//! exactly as it was and says precisely what was wrong.

use romme_core::meld::MeldError;
use romme_core::opening::OpeningError;
use romme_core::{CardKind, MeldCard};
use serde::Serialize;
use thiserror::Error;

use crate::game::Phase;

/// A ruleset's range of players in words: "3 to 6 players", "one player".
fn players(min: u8, max: u8) -> String {
    match (min, max) {
        (1, 1) => "one player".into(),
        (a, b) if a == b => format!("exactly {a} players"),
        (a, b) => format!("{a} to {b} players"),
    }
}

/// A game cannot be created.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NewGameError {
    /// Seats outside the ruleset's range.
    #[error("this ruleset is for {}, not {seats}", players(*min, *max))]
    Seats {
        /// Seats asked for.
        seats: usize,
        /// Fewest allowed.
        min: u8,
        /// Most allowed.
        max: u8,
    },
    /// The ruleset contradicts itself (checked as the loader does).
    #[error("invalid ruleset: {0}")]
    InvalidRules(String),
    /// The deck cannot serve the deal.
    #[error("the deck has {have} cards, the deal needs {need}")]
    DeckTooSmall {
        /// Cards in the deck.
        have: usize,
        /// Cards the deal needs (hands plus one turned-up card).
        need: usize,
    },
    /// An explicit deal does not fit the deck or the seats.
    #[error("bad deal: {0}")]
    BadDeal(String),
    /// The ruleset's meld rules are unusable.
    #[error(transparent)]
    Meld(#[from] MeldError),
}

/// An action was refused; the game is unchanged.
///
/// Serialized as `{"code": "snake_case_variant", "args": …}` (the fields of
/// the variant, absent for unit variants) so that a client can say the
/// reason in its own language.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize)]
#[serde(tag = "code", content = "args", rename_all = "snake_case")]
pub enum ActionError {
    /// The match is over.
    #[error("the match is over")]
    MatchOver,
    /// No such seat.
    #[error("there is no seat {0}")]
    NoSuchSeat(usize),
    /// The seat does not play in this game (a club table's dealer).
    #[error("seat {0} sits out this game")]
    SitsOut(usize),
    /// Another seat's turn.
    #[error("it is seat {expected}'s turn, not seat {got}'s")]
    NotYourTurn {
        /// Seat on turn.
        expected: usize,
        /// Seat that acted.
        got: usize,
    },
    /// The turn has not reached this step.
    #[error("you must draw first")]
    MustDrawFirst,
    /// Already drawn.
    #[error("you have already drawn this turn")]
    AlreadyDrawn,
    /// Wrong phase for the action in general.
    #[error("{action} is not possible now ({phase})")]
    WrongPhase {
        /// The action's name.
        action: &'static str,
        /// The current phase.
        phase: Phase,
    },
    /// The discard pile is empty.
    #[error("the discard pile is empty")]
    DiscardPileEmpty,
    /// The discard may only be taken when it can be melded at once.
    #[error(
        "{card} can only be taken from the discard pile if it is melded at once, and it cannot be"
    )]
    DiscardNotMeldable {
        /// The top discard.
        card: CardKind,
    },
    /// A card is not in the hand (or not as many copies).
    #[error("{0} is not in your hand")]
    NotInHand(CardKind),
    /// A meld is not valid.
    #[error("{cards} is not a valid meld: {reason}")]
    InvalidMeld {
        /// The meld as given.
        cards: String,
        /// Why.
        reason: String,
    },
    /// The opening does not reach the threshold (or another opening rule).
    #[error(transparent)]
    Opening(#[from] OpeningError),
    /// Nothing to put down.
    #[error("a meld action needs at least one meld or lay-off")]
    EmptyMeld,
    /// Laying off needs an opening first, or is not played.
    #[error("{0}")]
    LayOffNotAllowed(String),
    /// No such table meld.
    #[error("there is no meld {0} on the table")]
    NoSuchMeld(usize),
    /// A lay-off result is not a valid meld.
    #[error("{cards} cannot be laid off on {meld}: {reason}")]
    InvalidLayOff {
        /// The cards.
        cards: String,
        /// The meld as it lies.
        meld: String,
        /// Why.
        reason: String,
    },
    /// The joker exchange is not allowed now or here.
    #[error("{0}")]
    ExchangeNotAllowed(String),
    /// The exchange's card does not match any joker of the meld.
    #[error("no joker in {meld} stands for {card}")]
    NoJokerFor {
        /// The meld as it lies.
        meld: String,
        /// The card offered.
        card: CardKind,
    },
    /// A card must be kept to discard.
    #[error("you must keep a card to discard at the end of your turn")]
    MustKeepDiscard,
    /// The card taken from the discard pile must be melded first.
    #[error("you took {0} from the discard pile: meld it before you discard")]
    MustMeldTaken(CardKind),
    /// A freed joker must be melded first.
    #[error("the joker you freed must be melded again this turn")]
    MustMeldFreedJoker,
    /// Jokers may not be discarded.
    #[error("jokers may not be discarded in this ruleset")]
    JokerDiscard,
    /// After a joker exchange nothing else may be played this turn.
    #[error("after a joker exchange no other card may be played this turn; discard now")]
    PlaysEnded,
    /// Discarding is not part of this ruleset's going out.
    #[error("the last card may not be discarded: it must be melded or laid off")]
    FinalDiscardForbidden,
    /// "Rommé bieten" is not part of this ruleset.
    #[error("calling Rommé with cards left is not played in this ruleset")]
    CallNotPlayed,
    /// The call needs the final discard.
    #[error("name the card you discard when you call Rommé")]
    CallNeedsDiscard,
    /// Too many points left to call.
    #[error("you may call Rommé with at most {limit} points left, you have {have}")]
    RestTooHigh {
        /// The agreed limit.
        limit: u32,
        /// Points left.
        have: u32,
    },
    /// Concealed play: melds stay in the hand until the lay-down.
    #[error(
        "in this ruleset melds stay in your hand until you lay them all down at once (lay-down)"
    )]
    MeldsConcealed,
    /// Laying down all at once belongs to concealed play only.
    #[error("laying down all at once is not played in this ruleset: meld instead")]
    LayDownNotPlayed,
    /// The lay-down needs the final discard.
    #[error("name the card you discard when you lay down")]
    LayDownNeedsDiscard,
    /// Too many points outside the melds to lay down or knock.
    #[error("the cards outside your melds count {have}: you may lay down below {below}{}", knock.map(|k| format!(" or knock below {k}")).unwrap_or_default())]
    LayDownRestTooHigh {
        /// Points outside the melds.
        have: u32,
        /// Lay down below this.
        below: u32,
        /// Knock below this, where knocking is played.
        knock: Option<u32>,
    },
    /// After a Wiener knock the last draw is from the stock.
    #[error("after a knock the other players draw their last card from the stock")]
    LastDrawFromStock,
    /// The table may not be changed (now).
    #[error("{0}")]
    RearrangeNotAllowed(String),
    /// A card of the old table is missing from the new one.
    #[error("{0} is on the table but not in your new table: table cards stay on the table")]
    TableCardMissing(CardKind),
    /// The new table places no hand card.
    #[error("a rearrangement must place at least one card from your hand")]
    RearrangeNothingPlaced,
    /// Räuber: a new meld of robbed cards without an own card.
    #[error("robbed cards must be melded again with a card from your hand: {0}")]
    RobWithoutOwnCard(String),
    /// The last card may not be discarded, so a play may not leave one.
    #[error(
        "this would leave you one card, which you may not discard: meld all your cards or keep two"
    )]
    MustKeepTwo,
    /// This ruleset plays without a discard pile.
    #[error(
        "there is no discard pile in this ruleset: play cards, or draw from the stock if you cannot"
    )]
    NoDiscardPile,
    /// With a discard pile, a turn ends with a discard.
    #[error("discard a card to end your turn")]
    EndTurnNeedsDiscard,
    /// No stock pile of that number.
    #[error("there is no stock pile {pile} (the stock has {piles})")]
    NoSuchPile {
        /// The pile asked for.
        pile: usize,
        /// Piles.
        piles: usize,
    },
    /// The chosen stock pile is empty.
    #[error("stock pile {0} is empty: draw from another")]
    PileEmpty(usize),
    /// Placing cards into fanned hands belongs to the solo patience.
    #[error("placing a card into a hand belongs to the solo patience")]
    PatienceOnly,
    /// The solo patience knows only drawing and placing.
    #[error("in the solo patience you draw a card and place it into a hand")]
    NotInPatience,
    /// No patience hand of that number.
    #[error("there is no hand {0} (hands 0 to 10)")]
    NoSuchHand(usize),
    /// The patience hand is closed.
    #[error("hand {0} is already laid down")]
    HandClosed(usize),
    /// The card to take out is neither in the hand nor the drawn card.
    #[error("{card} is neither in hand {hand} nor the card you drew")]
    NotInThatHand {
        /// The card.
        card: CardKind,
        /// The hand.
        hand: usize,
    },
    /// No card may be claimed now.
    #[error("there is no just-discarded card to buy or knock for now")]
    NoClaimWindow,
    /// The seat on turn takes the discard by drawing it.
    #[error("it is your turn: take the card by drawing from the discard pile")]
    ClaimOnTurn,
    /// Nobody claims their own discard.
    #[error("you cannot claim the card you just discarded")]
    ClaimOwnDiscard,
    /// Buying is not part of this ruleset.
    #[error("buying is not played in this ruleset")]
    BuyingNotPlayed,
    /// A second claim by the same seat.
    #[error("you have already asked to buy this card")]
    AlreadyClaimed,
    /// Knocking is not part of this ruleset.
    #[error("knocking for a discard is not played in this ruleset")]
    KnockingNotPlayed,
    /// Knocking only for a card that can be melded at once.
    #[error(
        "you may knock only for a card you can meld at once, and {card} does not fit your hand"
    )]
    KnockNotMeldable {
        /// The card.
        card: CardKind,
    },
    /// A wild card's declaration is needed.
    #[error("{0}: say which card the wild card stands for, e.g. *=8h")]
    Ambiguous(String),
    /// A bug in the engine (never the player's fault).
    #[error("internal error: {0}")]
    Internal(String),
    /// A card of the declared meld is malformed.
    #[error("{card}: {reason}")]
    BadCard {
        /// The card.
        card: MeldCard,
        /// Why.
        reason: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn refusals_serialize_as_code_and_args_for_translation() {
        let v = |e: ActionError| serde_json::to_value(e).expect("serializes");
        assert_eq!(
            v(ActionError::MustDrawFirst),
            json!({"code": "must_draw_first"})
        );
        assert_eq!(
            v(ActionError::NotYourTurn {
                expected: 2,
                got: 0
            }),
            json!({"code": "not_your_turn", "args": {"expected": 2, "got": 0}})
        );
        let card: CardKind = "7h".parse().expect("card");
        assert_eq!(
            v(ActionError::NotInHand(card)),
            json!({"code": "not_in_hand", "args": "7h"})
        );
        assert_eq!(
            v(ActionError::Opening(OpeningError::TooFewPoints {
                needed: 40,
                have: 31
            })),
            json!({"code": "opening", "args": {"code": "too_few_points", "needed": 40, "have": 31}})
        );
    }
}
