//! The ways to make sets of one rank from the cards a hand holds of it,
//! for the partition's fast path (`partition/few_wilds.rs`).
//!
//! What sets a rank allows depends only on how many cards of each suit the
//! hand holds of it (none, one or two), on whether the hand's wild token
//! may join one, and on the rules of sets ([`SetShape`]). Every such
//! combination's list is worked out once per process and rules (a few
//! hundred short lists), so a hand only looks its ranks up.

use std::sync::{Arc, Mutex};

use smallvec::SmallVec;

/// Most suits a deck has.
pub(super) const MAX_SUITS: usize = 5;

/// What decides the sets of a rank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SetShape {
    /// Number of suits.
    pub suits: usize,
    /// A set has every suit at most once.
    pub distinct: bool,
    /// Fewest and most cards in a set.
    pub min_len: usize,
    pub max_len: usize,
    /// `share[n][w]`: `n` natural cards may hold `w` wild tokens (0 or 1).
    pub share: [[bool; 2]; 2 * MAX_SUITS + 1],
}

/// One way to make sets of a rank: the cards taken per suit slot, whether
/// the token is in one of the sets, and the sets (cards per suit slot and
/// tokens).
#[derive(Debug, Clone)]
pub(super) struct RankChoice {
    pub taken: [u8; MAX_SUITS],
    pub token: bool,
    /// Cards melded: the taken ones and the token.
    pub cards: u32,
    pub sets: SmallVec<[([u8; MAX_SUITS], u8); 2]>,
}

/// Every rank's choices, by the rank's count code (base 3 over the suit
/// slots) and the token.
#[derive(Debug)]
pub(super) struct SetChoices {
    shape: SetShape,
    /// Index `2 * code + token`.
    lists: Vec<Vec<RankChoice>>,
}

static SHARED: Mutex<Vec<Arc<SetChoices>>> = Mutex::new(Vec::new());
const MOST_SHARED: usize = 16;

impl SetChoices {
    /// The choices for `shape`, shared with every solver of the same shape
    /// in this process.
    pub(super) fn shared(shape: SetShape) -> Arc<SetChoices> {
        super::shared_in(
            &SHARED,
            MOST_SHARED,
            |c| c.shape == shape,
            || SetChoices::new(shape.clone()),
        )
    }

    fn new(shape: SetShape) -> SetChoices {
        let codes = 3usize.pow(shape.suits as u32);
        let mut lists = Vec::with_capacity(2 * codes);
        for code in 0..codes {
            let mut have = [0u8; MAX_SUITS];
            let mut c = code;
            for h in have.iter_mut().take(shape.suits) {
                *h = (c % 3) as u8;
                c /= 3;
            }
            for token in [false, true] {
                lists.push(choices(&shape, have, token));
            }
        }
        SetChoices { shape, lists }
    }

    /// The choices of a rank whose cards per suit slot make `code` (base
    /// 3), with the token free to join a set or not; empty when no set can
    /// be made.
    #[inline]
    pub(super) fn of(&self, code: usize, token: bool) -> &[RankChoice] {
        self.lists
            .get(2 * code + usize::from(token))
            .map_or(&[], Vec::as_slice)
    }
}

/// The ways to make sets from `have` (cards per suit slot) with the token
/// or without: each distinct choice of cards taken (and token used) once,
/// the one with the fewest sets first.
fn choices(shape: &SetShape, have: [u8; MAX_SUITS], token: bool) -> Vec<RankChoice> {
    let per_set = |h: u8| if shape.distinct { h.min(1) } else { h };
    // Every single set: cards per suit slot within what a set may hold.
    let mut singles: Vec<([u8; MAX_SUITS], u8)> = Vec::new();
    let mut v = [0u8; MAX_SUITS];
    loop {
        let n: usize = v.iter().map(|&c| usize::from(c)).sum();
        for tok in 0..=usize::from(token) {
            let size = n + tok;
            let shared = shape.share.get(n).is_some_and(|s| s[tok]);
            if n > 0 && size >= shape.min_len && size <= shape.max_len && shared {
                singles.push((v, tok as u8));
            }
        }
        // Next vector (an odometer over the suit slots).
        let mut carried = true;
        for k in 0..shape.suits {
            if v[k] < per_set(have[k]) {
                v[k] += 1;
                carried = false;
                break;
            }
            v[k] = 0;
        }
        if carried {
            break;
        }
    }
    // Combinations of singles (non-decreasing order), within the cards
    // held, one token at most; breadth by number of sets so that a choice
    // is first met with the fewest sets. Every set takes a card, so the
    // levels end when the cards held do.
    let mut out: Vec<RankChoice> = Vec::new();
    let mut level: Vec<(usize, RankChoice)> = vec![(
        0,
        RankChoice {
            taken: [0; MAX_SUITS],
            token: false,
            cards: 0,
            sets: SmallVec::new(),
        },
    )];
    loop {
        let mut next = Vec::new();
        for (from, c) in &level {
            for (i, &(v, vt)) in singles.iter().enumerate().skip(*from) {
                if c.token && vt > 0 {
                    continue;
                }
                let mut taken = c.taken;
                let mut fits = true;
                for k in 0..MAX_SUITS {
                    taken[k] += v[k];
                    fits &= taken[k] <= have[k];
                }
                if !fits {
                    continue;
                }
                let mut sets = c.sets.clone();
                sets.push((v, vt));
                let made = RankChoice {
                    taken,
                    token: c.token || vt > 0,
                    cards: c.cards + v.iter().map(|&x| u32::from(x)).sum::<u32>() + u32::from(vt),
                    sets,
                };
                if !out
                    .iter()
                    .any(|o| o.taken == made.taken && o.token == made.token)
                {
                    out.push(made.clone());
                }
                next.push((i, made));
            }
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn klassisch() -> SetShape {
        let mut share = [[false; 2]; 2 * MAX_SUITS + 1];
        for (n, s) in share.iter_mut().enumerate() {
            *s = [n > 0, n > 0];
        }
        SetShape {
            suits: 4,
            distinct: true,
            min_len: 3,
            max_len: 4,
            share,
        }
    }

    /// Three suits of a rank give one set of three, or with the joker three
    /// pairs and the four-card set; with two decks, two sets of the same
    /// suits can be made.
    #[test]
    fn sets_of_one_rank() {
        let shape = klassisch();
        let plain = choices(&shape, [1, 1, 1, 0, 0], false);
        assert_eq!(plain.len(), 1);
        assert_eq!(plain[0].cards, 3);
        let wild = choices(&shape, [1, 1, 1, 0, 0], true);
        // The three without token, the three with it, three pairs with it.
        assert_eq!(wild.len(), 5);
        assert!(wild.iter().all(|c| c.sets.len() == 1));
        let doubled = choices(&shape, [2, 2, 1, 1, 0], false);
        let six = doubled
            .iter()
            .find(|c| c.cards == 6)
            .expect("two sets of three");
        assert_eq!(six.sets.len(), 2);
        assert!(doubled.iter().any(|c| c.cards == 4 && c.sets.len() == 1));
        // Two pairs of one suit make no set of distinct suits.
        assert!(choices(&shape, [2, 0, 0, 0, 0], true).is_empty());
    }
}
