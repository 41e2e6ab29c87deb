//! Random rearrangement positions for the examples: melds dealt from a
//! shuffled 110-card deck until the table has about N cards, and a hand.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use romme_core::{CardKind, Deck, Face, MeldCard, Rank, Suit};

/// Deal melds from a shuffled deck until the table has about `target` cards
/// (a joker stands in for a card of a meld with probability 15 %).
/// With `hand_jokers` false the hand is 14 natural cards.
pub fn position(
    seed: u64,
    target: usize,
    hand_jokers: bool,
) -> (Vec<Vec<MeldCard>>, Vec<CardKind>) {
    let deck = Deck {
        kind: romme_core::DeckKind::French,
        jokers: 6,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pool: Vec<CardKind> = deck.shuffled(seed).into_iter().map(|c| c.kind()).collect();
    let mut table: Vec<Vec<MeldCard>> = Vec::new();
    let mut count = 0;
    let mut tries = 0;
    while count < target && tries < 5000 {
        tries += 1;
        let suit = Suit::FRENCH[rng.random_range(0..4)];
        let meld: Vec<Face> = if rng.random_bool(0.55) {
            let len = rng.random_range(3..=5usize);
            let start = rng.random_range(2..=(14 - len as u8));
            (0..len as u8)
                .filter_map(|i| Rank::from_number(start + i))
                .map(|r| Face::new(r, suit))
                .collect()
        } else {
            let rank = Rank::ALL[rng.random_range(0..13)];
            let n = rng.random_range(3..=4usize);
            Suit::FRENCH
                .iter()
                .take(n)
                .map(|s| Face::new(rank, *s))
                .collect()
        };
        // Take the cards from the pool (a joker may stand in for one).
        let mut cards = Vec::new();
        let mut trial = pool.clone();
        let mut ok = true;
        let joker_at = rng
            .random_bool(0.15)
            .then(|| rng.random_range(0..meld.len()));
        for (i, f) in meld.iter().enumerate() {
            let want = if Some(i) == joker_at {
                CardKind::Joker
            } else {
                CardKind::Natural(*f)
            };
            match trial.iter().position(|c| *c == want) {
                Some(p) => {
                    trial.swap_remove(p);
                    cards.push(MeldCard {
                        card: want,
                        stands_for: want.is_joker().then_some(*f),
                    });
                }
                None => ok = false,
            }
        }
        if ok {
            pool = trial;
            count += cards.len();
            table.push(cards);
        }
    }
    let hand = pool
        .into_iter()
        .filter(|c| hand_jokers || !c.is_joker())
        .take(14)
        .collect();
    (table, hand)
}
