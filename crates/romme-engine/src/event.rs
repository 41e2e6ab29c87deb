//! What happened: the events [`crate::Game::apply`] returns and the game's
//! history keeps. Events may hold secrets (a seat's dealt cards, the card it
//! drew from the stock); [`Event::for_viewer`] removes what a viewer may not
//! see, so a server can forward history without leaking hands.

use std::sync::Arc;

use romme_core::scoring::GameScore;
use romme_core::{CardKind, MeldCard};
use serde::{Deserialize, Serialize};

use crate::action::DrawSource;

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// A player went out (or made a Hand-Rommé).
    WentOut,
    /// The stock ran out (`stock.when_empty = "end-game"`, or nothing left
    /// to reshuffle).
    StockExhausted,
    /// A player knocked (Wiener) and the others played their last turn.
    Knocked,
}

/// What a lay-down in concealed play did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LayDownKind {
    /// Few enough points left: the game ends (or the others get a last turn).
    Out,
    /// A Wiener knock: the others draw and discard once more.
    Knock,
    /// A partial lay-down in a last turn.
    Partial,
}

/// A meld as it lies on the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableMeld {
    /// The seat that put it down.
    pub owner: usize,
    /// The cards in meld order, wild cards with their declaration. (Shared:
    /// every event that shows the table, and every view, holds the melds
    /// that did not change since as the same cards, not a copy; it reads
    /// and serialises as a list.)
    pub cards: Arc<[MeldCard]>,
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Event {
    /// A game of the match begins.
    GameStarted {
        /// Game number, 1-based.
        game: u32,
        /// The dealer's seat.
        dealer: usize,
        /// Seats playing this game, in turn order.
        players: Vec<usize>,
        /// Cards per hand.
        hand_size: u8,
    },
    /// A seat's hand was dealt; `cards` only for that seat.
    Dealt {
        /// The seat.
        seat: usize,
        /// Number of cards.
        count: usize,
        /// The cards (hidden from everyone else).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Vec<CardKind>>,
    },
    /// The top stock card was turned up to start the discard pile.
    TurnedUp {
        /// The card.
        card: CardKind,
    },
    /// A seat's turn begins.
    TurnBegan {
        /// The seat.
        seat: usize,
    },
    /// A seat drew; the card is public when it came from the discard pile.
    Drew {
        /// The seat.
        seat: usize,
        /// Where from.
        from: DrawSource,
        /// The card (hidden from others when from the stock).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<CardKind>,
    },
    /// New melds were put down (possibly with lay-offs, possibly opening).
    Melded {
        /// The seat.
        seat: usize,
        /// Table indices of the new melds.
        melds: Vec<usize>,
        /// Table indices changed by lay-offs in the same action.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        laid_off: Vec<usize>,
        /// The opening's points, if this was the seat's opening.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        opening: Option<u32>,
        /// The table after the action.
        table: Vec<TableMeld>,
    },
    /// A table joker was exchanged for the card it stood for.
    JokerExchanged {
        /// The seat.
        seat: usize,
        /// Table index.
        meld: usize,
        /// The natural card put in.
        card: CardKind,
        /// The meld after the exchange.
        result: TableMeld,
    },
    /// A seat discarded, ending its turn.
    Discarded {
        /// The seat.
        seat: usize,
        /// The card.
        card: CardKind,
    },
    /// A seat showed the melds it kept in the hand (concealed play); its
    /// cards outside the melds are shown too.
    LaidDown {
        /// The seat.
        seat: usize,
        /// What the lay-down did.
        kind: LayDownKind,
        /// The melds, now on the table.
        melds: Vec<TableMeld>,
        /// The cards left outside the melds (shown).
        rest: Vec<CardKind>,
    },
    /// Every other seat plays one last turn, in this order.
    LastTurns {
        /// The seats, in turn order.
        seats: Vec<usize>,
    },
    /// A seat changed the table, placing cards from its hand.
    Rearranged {
        /// The seat.
        seat: usize,
        /// The hand cards it placed.
        placed: Vec<CardKind>,
        /// The new table.
        table: Vec<TableMeld>,
    },
    /// A seat ended its turn without discarding (no discard pile).
    TurnEnded {
        /// The seat.
        seat: usize,
    },
    /// Solo patience: the drawn card went into a hand, `out` left the game.
    Placed {
        /// The hand.
        hand: usize,
        /// The card taken out of the game.
        out: CardKind,
    },
    /// Solo patience: a hand was laid down in melds.
    HandClosed {
        /// The hand.
        hand: usize,
        /// Its melds.
        melds: Vec<Vec<MeldCard>>,
    },
    /// A seat asked to buy the card just discarded.
    BuyAsked {
        /// The seat.
        seat: usize,
        /// The card.
        card: CardKind,
    },
    /// A seat bought the card just discarded (its extra stock cards follow
    /// as draws).
    Bought {
        /// The seat.
        seat: usize,
        /// The card.
        card: CardKind,
    },
    /// A seat knocked for the card just discarded and took it; its extra
    /// stock cards follow as draws, and its turn begins.
    Knocked {
        /// The seat.
        seat: usize,
        /// The card.
        card: CardKind,
        /// Seats whose turn was skipped.
        skipped: Vec<usize>,
    },
    /// The discard pile (without its top card) became the new stock.
    StockReshuffled {
        /// Cards in the new stock.
        cards: usize,
    },
    /// The game ended and was scored.
    GameEnded {
        /// Why.
        reason: EndReason,
        /// The seat that went out, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        winner: Option<usize>,
        /// Every playing seat's remaining cards (shown at the end).
        hands: Vec<(usize, Vec<CardKind>)>,
        /// The scores, in seat order.
        score: GameScore,
    },
    /// The match is over.
    MatchEnded {
        /// Seats in first place.
        winners: Vec<usize>,
    },
}

impl Event {
    /// The event as `viewer` may see it (`None`: a spectator): other seats'
    /// dealt cards and stock draws are removed.
    pub fn for_viewer(&self, viewer: Option<usize>) -> Event {
        match self {
            Event::Dealt { seat, count, .. } if Some(*seat) != viewer => Event::Dealt {
                seat: *seat,
                count: *count,
                cards: None,
            },
            Event::Drew { seat, from, .. } if from.is_stock() && Some(*seat) != viewer => {
                Event::Drew {
                    seat: *seat,
                    from: *from,
                    card: None,
                }
            }
            other => other.clone(),
        }
    }
}
