//! What one seat may know, and what a spectator may know: the only way the
//! secret state leaves the engine. Visibility follows ownership and what was
//! revealed — a seat sees its own hand; everyone sees the table (with joker
//! declarations), the discard pile, card counts, scores, whose turn it is,
//! the card taken from the discard pile this turn and the cards known to be
//! in each hand (taken from the discard pile, bought, knocked for); nobody
//! sees another hand or the stock order.

use romme_core::CardKind;
use romme_core::scoring::sheet::MatchSheet;
use serde::Serialize;

use crate::claims::{ClaimWindow, Claims};
use crate::event::TableMeld;
use crate::game::{Game, LastTurns, Meld, Phase};
use crate::patience::{Patience, PatienceView};

/// One seat as everyone sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatInfo {
    /// Seat number.
    pub seat: usize,
    /// Plays in the current game (a club table's dealer sits out).
    pub playing: bool,
    /// Cards in the hand.
    pub cards: usize,
    /// Has made the opening in this game.
    pub opened: bool,
    /// Concealed play: the cards a seat that laid down or knocked kept
    /// outside its melds (shown on the table).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shown: Option<Vec<CardKind>>,
    /// Cards everyone saw go into this hand (taken from the discard pile,
    /// bought, knocked for) and still in it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub known: Vec<CardKind>,
}

/// What a viewer may know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct View {
    /// The viewer's seat; `None` for a spectator.
    pub seat: Option<usize>,
    /// The viewer's own hand (sorted); `None` for a spectator.
    pub hand: Option<Vec<CardKind>>,
    /// The melds on the table, wild cards declared.
    pub table: Vec<TableMeld>,
    /// The discard pile, bottom first (every card in it was shown face up).
    pub discard: Vec<CardKind>,
    /// Cards left in the stock.
    pub stock: usize,
    /// Cards in each stock pile (one entry unless the stock is split).
    pub stock_piles: Vec<usize>,
    /// Every seat.
    pub seats: Vec<SeatInfo>,
    /// The seat on turn (`None` once the match is over).
    pub turn: Option<usize>,
    /// The phase.
    pub phase: Phase,
    /// Last turns after a lay-down or knock (concealed play), if running.
    pub last_turns: Option<LastTurns>,
    /// The card just discarded while it may be bought or knocked for, with
    /// the seats that asked to buy it.
    pub claims: Option<Claims>,
    /// The solo patience's hands (all open), when that is the game.
    pub patience: Option<PatienceView>,
    /// The card the seat on turn took from the discard pile this turn.
    pub taken: Option<CardKind>,
    /// Game number (1-based) and its dealer.
    pub game: u32,
    /// The dealer.
    pub dealer: usize,
    /// The match score sheet.
    pub sheet: MatchSheet,
    /// The ruleset's name.
    pub rules: String,
}

impl Game {
    /// What `seat` may know; `None` gives the spectator view (no hand).
    pub fn view(&self, seat: Option<usize>) -> View {
        let seat = seat.filter(|&s| s < self.seats);
        View {
            seat,
            hand: seat.map(|s| self.hands[s].iter().map(|c| c.kind()).collect()),
            table: self.table.iter().map(Meld::public).collect(),
            discard: self.discard.iter().map(|c| c.kind()).collect(),
            stock: self.stock.len(),
            stock_piles: self.pile_sizes.to_vec(),
            seats: (0..self.seats)
                .map(|s| SeatInfo {
                    seat: s,
                    playing: self.players.contains(&s),
                    cards: self.hands[s].len(),
                    opened: self.opened[s],
                    known: self.hands[s]
                        .iter()
                        .filter(|c| self.known[s].contains(c))
                        .map(|c| c.kind())
                        .collect(),
                    shown: self
                        .laid_down(s)
                        .then(|| self.hands[s].iter().map(|c| c.kind()).collect()),
                })
                .collect(),
            turn: self.turn(),
            phase: self.phase,
            last_turns: self.ending.clone(),
            claims: self.window.as_ref().map(ClaimWindow::public),
            patience: self.patience.as_ref().map(Patience::public),
            taken: self.ts.took.map(|c| c.kind()),
            game: self.game_no,
            dealer: self.dealer,
            sheet: (*self.sheet).clone(),
            rules: self.rules.name.clone(),
        }
    }
}
