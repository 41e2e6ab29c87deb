//! Drawing at the start of a turn: from the stock (reshuffling the discard
//! pile when the ruleset says so) or the top of the discard pile (with the
//! take-only-if-melded rules).

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use romme_core::Card;
use romme_core::ruleset::{DiscardTake, StockExhausted};

use crate::action::DrawSource;
use crate::error::ActionError;
use crate::event::Event;
use crate::game::{Game, Phase, derived_seed, put_in_hand};

impl Game {
    // ----- drawing -----

    pub(crate) fn draw(
        &mut self,
        seat: usize,
        from: DrawSource,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.phase != Phase::Draw {
            return Err(ActionError::AlreadyDrawn);
        }
        match from {
            DrawSource::Stock | DrawSource::Pile(_) => {
                let pile = match from {
                    DrawSource::Pile(p) => Some(p),
                    _ => None,
                };
                if self.stock.is_empty() && (self.patience.is_some() || !self.reshuffle(ev)) {
                    self.end_game(None, ev);
                    return Ok(());
                }
                let card = self.pop_stock(pile)?;
                put_in_hand(&mut self.hands[seat], card);
                ev.push(Event::Drew {
                    seat,
                    from,
                    card: Some(card.kind()),
                });
                if !self.rules.turn.discard_pile {
                    // Without a discard pile, who draws does not play (`001`).
                    self.phase = Phase::Play;
                    self.next_turn(ev);
                    return Ok(());
                }
            }
            DrawSource::Discard => {
                let card = self.discard_draw_checks(seat)?;
                self.discard.pop();
                put_in_hand(&mut self.hands[seat], card);
                self.ts.took = Some(card);
                self.known[seat].push(card);
                if self.rules.turn.discard_take != DiscardTake::Free {
                    self.ts.taken = Some(card);
                }
                ev.push(Event::Drew {
                    seat,
                    from,
                    card: Some(card.kind()),
                });
            }
        }
        self.phase = Phase::Play;
        self.settle_claims(from, ev);
        Ok(())
    }

    /// The checks of taking the top discard (after the phase's), in the
    /// order `draw` makes them: the card it takes, or why it may not.
    /// Changes nothing.
    fn discard_draw_checks(&self, seat: usize) -> Result<Card, ActionError> {
        if !self.rules.turn.discard_pile || self.patience.is_some() {
            return Err(ActionError::NoDiscardPile);
        }
        if self.ending.as_ref().is_some_and(|e| e.knocked) {
            return Err(ActionError::LastDrawFromStock);
        }
        let Some(&card) = self.discard.last() else {
            return Err(ActionError::DiscardPileEmpty);
        };
        if self.rules.turn.discard_take != DiscardTake::Free
            && !crate::legal::can_meld_at_once(self, seat, card)
        {
            return Err(ActionError::DiscardNotMeldable { card: card.kind() });
        }
        Ok(card)
    }

    /// Whether drawing from `from` would be accepted, when that can be
    /// told without trying it: `None` when the stock is empty (the draw
    /// would reshuffle or end the game first).
    pub(crate) fn draw_checks(
        &self,
        seat: usize,
        from: DrawSource,
    ) -> Option<Result<(), ActionError>> {
        if self.phase != Phase::Draw {
            return Some(Err(ActionError::AlreadyDrawn));
        }
        match from {
            DrawSource::Stock | DrawSource::Pile(_) if self.stock.is_empty() => None,
            DrawSource::Stock => Some(self.stock_pile(None).map(|_| ())),
            DrawSource::Pile(p) => Some(self.stock_pile(Some(p)).map(|_| ())),
            DrawSource::Discard => Some(self.discard_draw_checks(seat).map(|_| ())),
        }
    }

    /// Shuffle the discard pile without its top card into a new stock.
    /// False if there is nothing to shuffle or the ruleset ends the game.
    pub(crate) fn reshuffle(&mut self, ev: &mut Vec<Event>) -> bool {
        if self.rules.stock.when_empty != StockExhausted::Reshuffle || self.discard.len() < 2 {
            return false;
        }
        let top = self.discard.pop();
        let mut cards = std::mem::take(&mut self.discard);
        self.reshuffles += 1;
        cards.sort_unstable();
        let mut rng =
            ChaCha8Rng::seed_from_u64(derived_seed(self.seed, self.game_no, self.reshuffles));
        cards.shuffle(&mut rng);
        // Cards seen going into a hand earlier are face down now.
        for known in &mut self.known {
            known.retain(|c| !cards.contains(c));
        }
        self.stock = cards;
        self.split_stock();
        self.discard.extend(top);
        ev.push(Event::StockReshuffled {
            cards: self.stock.len(),
        });
        true
    }
}
