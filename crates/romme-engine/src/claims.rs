//! Out-of-turn claims on the card just discarded: buying ("Rommé mit
//! Kaufen", `002`; `001` variation) and knocking ("Rommé mit Klopfen",
//! `003`).
//!
//! The claim window opens when a turn ends with a discard and closes when
//! the seat on turn draws. Readings (where the texts leave room):
//! * Buying: any seat but the one on turn and the discarder may ask to buy.
//!   The seat on turn has the first right: taking the card as its draw
//!   voids the claims. With `buying.first_refusal` the claims are settled
//!   when the seat on turn draws from the stock instead: the claimant
//!   seated nearest after the discarder gets the card (the seats in between
//!   have the "Vorkaufsrecht"; a seat that did not claim before the draw has
//!   let it pass). Without it the first claim buys at once. The buyer also
//!   takes `buying.extra_stock_cards` stock cards; the turn order is
//!   unchanged ("Die Reihenfolge der Spieler wird durch das Kaufen nicht
//!   geändert").
//! * Knocking: the first seat (not on turn, not the discarder) to knock
//!   takes the card and `knocking.extra_stock_cards` stock cards and plays
//!   on as if it had drawn; the seats in between are skipped. With
//!   `knocking.only_if_meldable` the card must be meldable at once with the
//!   knocker's hand, and it must be melded before the knocker discards.

use serde::Serialize;

use crate::action::DrawSource;
use crate::error::ActionError;
use crate::event::Event;
use crate::game::{Game, Phase};
use romme_core::{Card, CardKind};

/// The card just discarded, while seats not on turn may claim it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClaimWindow {
    /// The seat that discarded it.
    pub discarder: usize,
    /// The card (the top of the discard pile).
    pub card: Card,
    /// Seats that asked to buy it, in the order they asked.
    pub buyers: Vec<usize>,
}

/// The open claim window as every seat sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Claims {
    /// The seat that discarded the card.
    pub discarder: usize,
    /// The card.
    pub card: CardKind,
    /// Seats that asked to buy it.
    pub buyers: Vec<usize>,
}

impl ClaimWindow {
    pub(crate) fn public(&self) -> Claims {
        Claims {
            discarder: self.discarder,
            card: self.card.kind(),
            buyers: self.buyers.clone(),
        }
    }
}

impl Game {
    /// Whether `seat` may claim the just-discarded card now (not on turn,
    /// not the discarder, playing, window open).
    fn claim_window(&self, seat: usize) -> Result<&ClaimWindow, ActionError> {
        let w = self.window.as_ref().ok_or(ActionError::NoClaimWindow)?;
        if self.discard.last() != Some(&w.card) || self.phase != Phase::Draw {
            return Err(ActionError::NoClaimWindow);
        }
        if seat == self.turn {
            return Err(ActionError::ClaimOnTurn);
        }
        if seat == w.discarder {
            return Err(ActionError::ClaimOwnDiscard);
        }
        Ok(w)
    }

    /// Open the claim window on the card `seat` just discarded, if the
    /// ruleset plays buying or knocking and the next turn has begun.
    pub(crate) fn open_claims(&mut self, seat: usize, card: Card) {
        let r = &self.rules;
        if (r.buying.enabled || r.knocking.enabled)
            && self.phase == Phase::Draw
            && self.ending.is_none()
            && self.discard.last() == Some(&card)
        {
            self.window = Some(ClaimWindow {
                discarder: seat,
                card,
                buyers: Vec::new(),
            });
        }
    }

    /// `seat` asks to buy the just-discarded card.
    pub(crate) fn buy(&mut self, seat: usize, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        if !self.rules.buying.enabled {
            return Err(ActionError::BuyingNotPlayed);
        }
        let w = self.claim_window(seat)?;
        if w.buyers.contains(&seat) {
            return Err(ActionError::AlreadyClaimed);
        }
        let card = w.card.kind();
        ev.push(Event::BuyAsked { seat, card });
        if self.rules.buying.first_refusal {
            if let Some(w) = self.window.as_mut() {
                w.buyers.push(seat);
            }
        } else if let Some(w) = self.window.take() {
            self.sell_to(seat, w.card, ev);
        }
        Ok(())
    }

    /// The seat on turn drew: settle the buying claims (the claimant
    /// nearest after the discarder buys) and close the window.
    pub(crate) fn settle_claims(&mut self, drew_from: DrawSource, ev: &mut Vec<Event>) {
        let Some(w) = self.window.take() else {
            return;
        };
        if drew_from == DrawSource::Discard || w.buyers.is_empty() {
            return;
        }
        let buyer = self
            .seats_after(w.discarder)
            .into_iter()
            .find(|s| w.buyers.contains(s));
        if let Some(b) = buyer {
            self.sell_to(b, w.card, ev);
        }
    }

    /// Give `card` (the top discard) and the extra stock cards to `buyer`;
    /// the claim window is already closed.
    fn sell_to(&mut self, buyer: usize, card: Card, ev: &mut Vec<Event>) {
        if self.discard.last() != Some(&card) {
            return;
        }
        self.discard.pop();
        self.hands[buyer].push(card);
        self.known[buyer].push(card);
        ev.push(Event::Bought {
            seat: buyer,
            card: card.kind(),
        });
        for _ in 0..self.rules.buying.extra_stock_cards {
            self.give_stock_card(buyer, ev);
        }
        self.hands[buyer].sort_unstable();
    }

    /// One stock card into `seat`'s hand (after a reshuffle if needed; none
    /// if nothing is left).
    fn give_stock_card(&mut self, seat: usize, ev: &mut Vec<Event>) {
        if self.stock.is_empty() && !self.reshuffle(ev) {
            return;
        }
        if let Ok(c) = self.pop_stock(None) {
            self.hands[seat].push(c);
            ev.push(Event::Drew {
                seat,
                from: DrawSource::Stock,
                card: Some(c.kind()),
            });
        }
    }

    /// `seat` knocks for the just-discarded card (`003`).
    pub(crate) fn knock(&mut self, seat: usize, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        let rules = std::sync::Arc::clone(&self.rules);
        if !rules.knocking.enabled {
            return Err(ActionError::KnockingNotPlayed);
        }
        let card = self.claim_window(seat)?.card;
        if rules.knocking.only_if_meldable && !crate::legal::can_meld_at_once(self, seat, card) {
            return Err(ActionError::KnockNotMeldable { card: card.kind() });
        }
        // The seat on turn and everyone up to the knocker are skipped.
        let mut skipped = vec![self.turn];
        skipped.extend(
            self.seats_after(self.turn)
                .into_iter()
                .take_while(|&s| s != seat),
        );
        self.window = None;
        self.discard.pop();
        self.hands[seat].push(card);
        self.known[seat].push(card);
        ev.push(Event::Knocked {
            seat,
            card: card.kind(),
            skipped,
        });
        self.turn = seat;
        self.begin_turn(Phase::Play, ev);
        self.ts.took = Some(card);
        if rules.knocking.only_if_meldable {
            self.ts.taken = Some(card);
        }
        for _ in 0..rules.knocking.extra_stock_cards {
            self.give_stock_card(seat, ev);
        }
        self.hands[seat].sort_unstable();
        Ok(())
    }
}
