//! What one seat knows, as a state a program can search: [`SeatState`].
//!
//! A bot must decide from its seat's information only. [`Game::seat_state`]
//! builds a copy of the game with everything the seat may not know removed:
//! the other seats' hidden hand cards (a seat keeps only the cards everyone
//! saw go into it, and a laid-down hand, which is public), the stock, the
//! seed (which fixes every later shuffle), the event history and the action
//! log. Only counts remain. There is no way back from a `SeatState` to the
//! hidden cards: they are not in it. The hidden places are then filled with
//! the unseen cards in their sorted order: a fixed determinization, made
//! only of what the seat knows, which answers the questions that do not
//! depend on the hidden cards (the legal actions, the view) without a copy.
//!
//! A searching bot asks for [`SeatState::determinize`]: a complete game in
//! which the unseen cards (the deck minus everything the seat has seen) are
//! dealt at random into the hidden places, and a fresh seed is drawn. Every
//! such game looks exactly like the real one from the seat's chair
//! (`sample.seat_state(seat) == state`, up to the seed), so a search over
//! samples is a search over what the seat considers possible.

use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};
use romme_core::Card;
use romme_core::ruleset::Ruleset;
use romme_solver::SolverTables;

use crate::action::Action;
use crate::game::{Game, Hand, Pile, Seats, copy_hands};
use crate::view::View;

/// A seat's information, as a game with the hidden cards taken out (see the
/// module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct SeatState {
    seat: usize,
    /// A fixed determinization: the game with every hidden card replaced,
    /// the unseen cards dealt into the hidden places and the stock in their
    /// sorted order (so it tells nothing the seat does not know); seed 0,
    /// no history. Questions whose answer does not depend on the hidden
    /// cards (the legal actions) are asked of it as it is.
    any: Game,
    /// The cards of each hand the seat has seen (all of its own hand and
    /// of a laid-down hand, the cards everyone saw go into the others).
    shown: Seats<Hand>,
    /// Hidden cards per seat (0 for the own seat).
    hidden: Vec<usize>,
    /// Every card the seat has not seen, sorted.
    unseen: Vec<Card>,
}

impl Game {
    /// The state as `seat` knows it (see [`SeatState`]). A seat outside the
    /// game gets a spectator's knowledge with no legal actions.
    pub fn seat_state(&self, seat: usize) -> SeatState {
        let mut public = self.fork();
        public.seed = 0;
        public.fixed = None;
        // `public` first holds only what the seat has seen; the unseen cards
        // are dealt into it below.
        let mut hidden = vec![0; self.seats];
        let held: usize = self.hands.iter().map(|h| h.len()).sum();
        let mut unseen: Vec<Card> = Vec::with_capacity(self.stock.len() + held);
        unseen.extend_from_slice(&self.stock);
        for (s, count) in hidden.iter_mut().enumerate() {
            if s == seat || self.laid_down(s) {
                continue;
            }
            // The cards every seat saw go in stay shown; the rest are unseen.
            let known = IdSet::of(&self.known[s]);
            let mut shown = Hand::new();
            for &c in &self.hands[s] {
                if known.has(c) {
                    shown.push(c);
                } else {
                    unseen.push(c);
                    *count += 1;
                }
            }
            public.hands[s] = shown;
        }
        sort_by_id(&mut unseen);
        for (known, hand) in public.known.iter_mut().zip(&public.hands) {
            if !known.is_empty() {
                let held = IdSet::of(hand);
                known.retain(|c| held.has(*c));
            }
        }
        let shown = copy_hands(&public.hands);
        deal_into(&mut public, &hidden, &unseen);
        SeatState {
            seat,
            any: public,
            shown,
            hidden,
            unseen,
        }
    }
}

impl SeatState {
    /// The seat this state belongs to.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// Seats at the table (the match's, as [`Game::seats`]).
    pub fn seats(&self) -> usize {
        self.any.seats()
    }

    /// The ruleset.
    pub fn rules(&self) -> &Ruleset {
        self.any.rules()
    }

    /// The Five Crowns round, as [`Game::round`].
    pub fn round(&self) -> Option<u8> {
        self.any.round()
    }

    /// The seat's view (identical to the real game's view for the seat:
    /// the determinization's hidden cards are neither the seat's nor known,
    /// so only their number shows).
    pub fn view(&self) -> View {
        self.any.view(Some(self.seat))
    }

    /// The seat's legal actions. They depend on the seat's information
    /// only, so they are worked out on any determinization.
    pub fn legal_actions(&self) -> Vec<Action> {
        self.any.legal_actions(self.seat)
    }

    /// One legal action drawn uniformly (see
    /// [`Game::random_legal_action`]), cheaper than the whole list.
    pub fn random_legal_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        self.any.random_legal_action(self.seat, rng)
    }

    /// Every card the seat has not seen (in other hands or the stock),
    /// sorted.
    pub fn unseen(&self) -> &[Card] {
        &self.unseen
    }

    /// How many hidden cards `seat` holds.
    pub fn hidden_cards(&self, seat: usize) -> usize {
        self.hidden.get(seat).copied().unwrap_or(0)
    }

    /// The partition solver's tables for the game's ruleset and round (see
    /// [`Game::solver_tables`]).
    pub fn solver_tables(&self) -> Option<Arc<SolverTables>> {
        self.any.solver_tables()
    }

    /// The seat's own hand.
    pub fn hand(&self) -> &[Card] {
        self.any.hand(self.seat).unwrap_or(&[])
    }

    /// A complete game consistent with everything the seat knows: the
    /// unseen cards shuffled into the other hands and the stock, and a new
    /// seed for later shuffles.
    pub fn determinize<R: Rng + ?Sized>(&self, rng: &mut R) -> Game {
        let mut pool = self.unseen.clone();
        pool.shuffle(rng);
        self.deal(&pool, rng.random())
    }

    /// The game with `pool` dealt into the hidden places (from its end) and
    /// the rest as the stock, and `seed` for later shuffles.
    fn deal(&self, pool: &[Card], seed: u64) -> Game {
        let mut g = self.any.fork();
        g.seed = seed;
        // Only the hidden places change (the other hands are all seen).
        for ((hand, shown), &n) in g.hands.iter_mut().zip(&self.shown).zip(&self.hidden) {
            if n > 0 {
                hand.clear();
                hand.extend_from_slice(shown);
            }
        }
        deal_into(&mut g, &self.hidden, pool);
        g
    }
}

/// Deal `pool` into the hidden places of `g`, whose hands hold only their
/// seen cards (from the pool's end, seat by seat), and the rest as the
/// stock.
fn deal_into(g: &mut Game, hidden: &[usize], pool: &[Card]) {
    let mut end = pool.len();
    for (s, &n) in hidden.iter().enumerate() {
        let at = end - n;
        g.hands[s].extend_from_slice(&pool[at..end]);
        g.hands[s].sort_unstable();
        end = at;
    }
    g.stock = Pile::from_slice(&pool[..end]);
}

/// A set of card ids (a card's id is a byte).
#[derive(Default)]
struct IdSet([u64; 4]);

impl IdSet {
    fn of(cards: &[Card]) -> IdSet {
        let mut set = IdSet::default();
        for &c in cards {
            set.insert(c);
        }
        set
    }

    /// Add `c`; false if it was in already.
    fn insert(&mut self, c: Card) -> bool {
        let (word, bit) = (usize::from(c.id() >> 6), c.id() & 63);
        let new = self.0[word] >> bit & 1 == 0;
        self.0[word] |= 1 << bit;
        new
    }

    fn has(&self, c: Card) -> bool {
        self.0[usize::from(c.id() >> 6)] >> (c.id() & 63) & 1 == 1
    }

    /// The cards in the set, by id.
    fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        (0u8..).zip(&self.0).flat_map(|(word, &set)| {
            let mut left = set;
            std::iter::from_fn(move || {
                (left != 0).then(|| {
                    // Below 64, so the id is below 256.
                    let bit = left.trailing_zeros() as u8;
                    left &= left - 1;
                    Card::from_id(word * 64 + bit)
                })
            })
        })
    }
}

/// Sort cards by their id (their order) through a set of the 256 possible
/// ids: the unseen cards of a seat are most of the deck, and this runs
/// once per decision.
fn sort_by_id(cards: &mut [Card]) {
    // A game's card ids are distinct: mark them in a 256-bit set and read
    // it back in order.
    let mut set = IdSet::default();
    for &c in cards.iter() {
        if !set.insert(c) {
            // A repeated id (not in a game): the general sort.
            cards.sort_unstable();
            return;
        }
    }
    for (slot, c) in cards.iter_mut().zip(set.cards()) {
        *slot = c;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_by_id_sorts_as_sort_does() {
        // Distinct ids (as in a game), in a scrambled order.
        let mut cards: Vec<Card> = (0..=255u8)
            .map(|i| Card::from_id(i.wrapping_mul(77).wrapping_add(13)))
            .take(200)
            .collect();
        let mut expected = cards.clone();
        expected.sort_unstable();
        assert_ne!(cards, expected);
        sort_by_id(&mut cards);
        assert_eq!(cards, expected);
        // Repeated ids take the general way.
        let mut cards: Vec<Card> = (0..=255u8).rev().map(Card::from_id).collect();
        cards.extend([7u8, 7, 200, 0].map(Card::from_id));
        let mut expected = cards.clone();
        expected.sort_unstable();
        sort_by_id(&mut cards);
        assert_eq!(cards, expected);
    }
}
