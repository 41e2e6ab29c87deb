//! What a seat can do: the serde-serializable actions a client, bot or test
//! submits to [`crate::Game::apply`].
//!
//! Cards are named by kind in the project's notation (`7h`, `*`, `*=8h`):
//! the two copies of a card are interchangeable in the hand, so the engine
//! picks the physical card (the lowest copy in the hand).

use romme_core::{CardKind, MeldCard};
use serde::{Deserialize, Serialize};

/// Where a draw comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DrawSource {
    /// The top card of the stock (face down).
    Stock,
    /// The top card of the discard pile (face up).
    Discard,
    /// The top card of one stock pile (0-based) when the stock is split
    /// into piles (`stock.piles`, `001` variation). `Stock` then draws from
    /// the first pile that has cards.
    Pile(usize),
}

impl DrawSource {
    /// A face-down draw (the stock or one of its piles).
    pub fn is_stock(self) -> bool {
        matches!(self, DrawSource::Stock | DrawSource::Pile(_))
    }
}

/// Cards laid off on one meld on the table (by its index in the view's
/// `table`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LayOffPart {
    /// Index of the table meld.
    pub meld: usize,
    /// The cards, wild cards with their declaration if ambiguous.
    pub cards: Vec<MeldCard>,
}

/// One action of a seat.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Action {
    /// Draw one card at the start of the turn.
    Draw {
        /// Stock or discard pile.
        from: DrawSource,
    },
    /// Put down new melds, and with them lay-offs that count toward the
    /// opening where the ruleset says so. A player's first `Meld` is the
    /// opening: everything in it together must reach the threshold.
    Meld {
        /// The new melds.
        melds: Vec<Vec<MeldCard>>,
        /// Lay-offs in the same action (part of the opening).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        lay_offs: Vec<LayOffPart>,
    },
    /// Lay cards off on a meld on the table (after the opening).
    LayOff {
        /// Index of the table meld.
        meld: usize,
        /// The cards.
        cards: Vec<MeldCard>,
    },
    /// Put the natural card a table joker stands for in its place and take
    /// the joker into the hand.
    ExchangeJoker {
        /// Index of the table meld.
        meld: usize,
        /// The natural card from the hand.
        card: CardKind,
    },
    /// Discard a card, ending the turn.
    Discard {
        /// The card.
        card: CardKind,
    },
    /// "Rommé bieten" (`002`): end the game with cards worth at most the
    /// agreed points (`going_out.rest_allowed`) left, after the final
    /// discard where the ruleset requires one.
    CallRomme {
        /// The final discard.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        discard: Option<CardKind>,
    },
    /// Concealed play (`003` ohne Auslegen, Wiener, Five Crowns): show the
    /// melds kept in the hand all at once, after the final discard where
    /// the ruleset requires one. Allowed when the cards left outside the
    /// melds count less than `concealed.lay_down_below` (the game ends, or
    /// the others get a last turn), less than `concealed.knock_below` (a
    /// Wiener knock: the others draw and discard once more), or any time in
    /// a last turn (a partial lay-down).
    LayDown {
        /// The melds.
        melds: Vec<Vec<MeldCard>>,
        /// The final discard.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        discard: Option<CardKind>,
    },
    /// Change the table (`turn.rearrange` free or rob): the whole new
    /// table, every card of the old table in it plus at least one card from
    /// the hand, every meld valid (wild cards declared where ambiguous).
    Rearrange {
        /// The new table, meld by meld.
        table: Vec<Vec<MeldCard>>,
    },
    /// End the turn without discarding (no discard pile, `001` variation:
    /// after playing at least one card).
    EndTurn,
    /// Solo patience: put the drawn card into open hand `hand` (0-10) and
    /// take the card `out` of that hand (or the drawn card) out of the game.
    Place {
        /// The hand (0-based; hand `i` has the rank `i + 3` wild).
        hand: usize,
        /// The card taken out of the game.
        out: CardKind,
    },
    /// Out of turn: ask to buy the card just discarded ("Kaufen", `002`),
    /// taking `buying.extra_stock_cards` stock cards with it. Seats nearer
    /// after the discarder that ask too have the first right.
    Buy,
    /// Out of turn: knock for the card just discarded ("Klopfen", `003`):
    /// take it and `knocking.extra_stock_cards` stock cards, skip the seats
    /// in between and play on (meld, then discard one card).
    Knock,
}

impl Action {
    /// Whether a seat not on turn may submit it (buying, knocking).
    pub fn out_of_turn(&self) -> bool {
        matches!(self, Action::Buy | Action::Knock)
    }

    /// Whether it puts cards on the table: a meld, a lay-off, a joker
    /// exchange, a rearrangement or a lay-down.
    pub fn is_play(&self) -> bool {
        matches!(
            self,
            Action::Meld { .. }
                | Action::LayOff { .. }
                | Action::ExchangeJoker { .. }
                | Action::Rearrange { .. }
                | Action::LayDown { .. }
        )
    }

    /// The hand cards a meld or lay-off puts on the table (new melds, then
    /// lay-offs); empty for every other action.
    pub fn cards_put_down(&self) -> Vec<CardKind> {
        match self {
            Action::Meld { melds, lay_offs } => melds
                .iter()
                .flatten()
                .chain(lay_offs.iter().flat_map(|l| &l.cards))
                .map(|c| c.card)
                .collect(),
            Action::LayOff { cards, .. } => cards.iter().map(|c| c.card).collect(),
            _ => Vec::new(),
        }
    }

    /// Short name of the action's type, as in the JSON `type` field.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Draw { .. } => "draw",
            Action::Meld { .. } => "meld",
            Action::LayOff { .. } => "lay-off",
            Action::ExchangeJoker { .. } => "exchange-joker",
            Action::Discard { .. } => "discard",
            Action::CallRomme { .. } => "call-romme",
            Action::LayDown { .. } => "lay-down",
            Action::Rearrange { .. } => "rearrange",
            Action::EndTurn => "end-turn",
            Action::Place { .. } => "place",
            Action::Buy => "buy",
            Action::Knock => "knock",
        }
    }
}
