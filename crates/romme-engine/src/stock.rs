//! The stock and its piles: `stock.piles = 1` is the usual single stock;
//! more piles (`001` variation: "Der Talon kann in verschiedene Stapel
//! aufgeteilt werden. So kann man wählen, von welchem man ziehen will")
//! split it into nearly equal piles after the deal and after every
//! reshuffle.

use crate::error::ActionError;
use crate::game::Game;
use romme_core::Card;

impl Game {
    /// Split the stock into `stock.piles` nearly equal piles (the first
    /// piles take the extra cards).
    pub(crate) fn split_stock(&mut self) {
        let n = usize::from(self.rules.stock.piles.max(1));
        let len = self.stock.len();
        self.pile_sizes = (0..n).map(|i| len / n + usize::from(i < len % n)).collect();
    }

    /// Take the top card of `pile` (`None`: the first pile with cards).
    pub(crate) fn pop_stock(&mut self, pile: Option<usize>) -> Result<Card, ActionError> {
        let i = self.stock_pile(pile)?;
        let end: usize = self.pile_sizes[..=i].iter().sum();
        let card = self.stock.remove(end - 1);
        self.pile_sizes[i] -= 1;
        Ok(card)
    }

    /// The pile a draw from `pile` takes from (`None`: the first pile with
    /// cards), or why there is none. Changes nothing.
    pub(crate) fn stock_pile(&self, pile: Option<usize>) -> Result<usize, ActionError> {
        let piles = self.pile_sizes.len();
        match pile {
            Some(p) if p >= piles => Err(ActionError::NoSuchPile { pile: p, piles }),
            Some(p) if self.pile_sizes[p] == 0 => Err(ActionError::PileEmpty(p)),
            Some(p) => Ok(p),
            // (A match, not `ok_or`: the error would be made and dropped
            // on every draw.)
            None => match self.pile_sizes.iter().position(|&n| n > 0) {
                Some(p) => Ok(p),
                None => Err(ActionError::PileEmpty(0)),
            },
        }
    }

    /// Cards in each stock pile.
    pub fn stock_piles(&self) -> &[usize] {
        &self.pile_sizes
    }
}
