//! Stranded cards, bit-parallel: which faces of a hand can no longer be in
//! any meld, given the cards left and at most one wild token.
//!
//! The partition search uses this as its lower bound: a card that fits no
//! meld with the cards still unassigned is deadwood in every completion, so
//! a branch whose deadwood plus the stranded cards' penalty cannot beat the
//! best partition found is cut. The test over-approximates "meldable" the
//! same way as `Tables::meldable` (it ignores run-length and adjacency
//! limits), so "stranded" is always certain.
//!
//! All suits are tested at once on the face bitmask (`suit * 13 + rank`,
//! four suits in one 52-bit word): for every face, the word shifted so that
//! the face's bit holds the card one and two places below and above it in
//! its run line (masked so that nothing crosses from one suit's row into
//! the next; the ace below the 2, above the king, or both, or round the
//! corner); sets count the suits holding each rank with bit-sliced
//! counters. Rulesets that do not fit this layout (more than four suits,
//! ranks other than 2..A such as Five Crowns', a minimum length other than
//! three, sets that may repeat a suit) get `None` from
//! [`StrandMasks::new`], and the search keeps only its per-face pre-check.

/// Precomputed facts for the stranded-card test.
#[derive(Debug, Clone)]
pub(super) struct StrandMasks {
    /// Runs go round the corner (K-A-2): every row is a cycle 2..A.
    cyclic: bool,
    /// `bit(0)` if the ace stands below the 2, else 0.
    ace_low: u64,
    /// `bit(11)` if the ace stands above the king, else 0.
    ace_high: u64,
    /// The faces whose card one / two places up the line is the next bit
    /// up of the row (with the ace high, the king's and queen's include the
    /// ace).
    up1: u64,
    up2: u64,
    /// Per wild tokens (0, 1): how many natural partners of other suits a
    /// card needs for some set (None: no set is possible).
    set_partners: [Option<usize>; 2],
}

/// One bit at the start of each suit's row, to copy a row to every suit.
const EVERY_ROW: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;

/// Bits `lo..lo + n` of every row.
const fn rows(lo: u32, n: u32) -> u64 {
    (((1u64 << n) - 1) << lo) * EVERY_ROW
}

/// Bit `k` of every row.
const fn bit(k: u32) -> u64 {
    rows(k, 1)
}

impl StrandMasks {
    /// The masks for these lines (per suit: face index at each line
    /// position), or None when the lines do not have the supported layout:
    /// at most four suits, each line 2..K in order with the ace below the 2
    /// and/or above the king (or 2..A round the corner), minimum length
    /// three, sets of distinct suits. `set_partners`: per wild tokens (0,
    /// 1), how many natural partners of other suits a card needs for a set.
    pub(super) fn new(
        suits: &[usize],
        line: &[Vec<usize>; 5],
        min_len: usize,
        cyclic: bool,
        distinct_sets: bool,
        set_partners: [Option<usize>; 2],
    ) -> Option<StrandMasks> {
        if min_len != 3 || !distinct_sets || suits.is_empty() {
            return None;
        }
        let first = &line[suits[0]];
        let ace_low = !cyclic && first.first() == Some(&(13 * suits[0] + 12));
        let ace_high = !cyclic && first.len() > 1 && first.last() == Some(&(13 * suits[0] + 12));
        for &s in suits {
            if s >= 4 {
                return None;
            }
            let row = 13 * s;
            let mut expected: Vec<usize> = Vec::with_capacity(14);
            if ace_low {
                expected.push(row + 12);
            }
            expected.extend(row..row + if cyclic { 13 } else { 12 });
            if ace_high {
                expected.push(row + 12);
            }
            if line[s] != expected {
                return None;
            }
        }
        Some(StrandMasks {
            cyclic,
            ace_low: if ace_low { bit(0) } else { 0 },
            ace_high: if ace_high { bit(11) } else { 0 },
            up1: rows(0, if ace_high { 12 } else { 11 }),
            up2: rows(0, if ace_high { 11 } else { 10 }),
            set_partners,
        })
    }

    /// The faces of `present` that fit no meld with the other faces of
    /// `present` and `tokens` wild tokens (0 or 1; with more, no face is
    /// reported, as the per-face test would find a meld for each).
    pub(super) fn stranded(&self, present: u128, tokens: usize) -> u128 {
        if tokens > 1 {
            return 0;
        }
        let p = present as u64;
        let near = self.neighbours(p);
        let fits = self.run_fits(p, &near, tokens);
        let sets = sets_fit(self.set_partners[tokens], &rank_suits(p));
        u128::from(p & !(fits | sets))
    }

    /// [`StrandMasks::stranded`] with no token and with one, worked out
    /// together (they share the neighbours and the suits per rank).
    pub(super) fn stranded_both(&self, present: u128) -> (u128, u128) {
        let p = present as u64;
        let near = self.neighbours(p);
        let ge = rank_suits(p);
        let none = self.run_fits(p, &near, 0) | sets_fit(self.set_partners[0], &ge);
        let one = self.run_fits(p, &near, 1) | sets_fit(self.set_partners[1], &ge);
        (u128::from(p & !none), u128::from(p & !one))
    }

    /// Bit i of each: the card one and two places down and up the line
    /// from face i (down1, down2, up1, up2), within its row (round the
    /// corner when the lines are cycles).
    #[inline]
    fn neighbours(&self, p: u64) -> [u64; 4] {
        if self.cyclic {
            [
                (p << 1 & rows(1, 12)) | (p >> 12 & bit(0)),
                (p << 2 & rows(2, 11)) | (p >> 11 & rows(0, 2)),
                (p >> 1 & rows(0, 12)) | (p << 12 & bit(12)),
                (p >> 2 & rows(0, 11)) | (p << 11 & rows(11, 2)),
            ]
        } else {
            // The ranks 2..K; the ace below the 2 is the row's own bit 12.
            [
                (p << 1 & rows(1, 11)) | (p >> 12 & self.ace_low),
                (p << 2 & rows(2, 10)) | (p >> 11 & self.ace_low << 1),
                p >> 1 & self.up1,
                p >> 2 & self.up2,
            ]
        }
    }

    /// The faces of `p` in some run window of three with `tokens` (0 or 1).
    #[inline]
    fn run_fits(&self, p: u64, near: &[u64; 4], tokens: usize) -> u64 {
        let [down1, down2, up1, up2] = *near;
        if self.cyclic {
            return window(down1, down2, up1, up2, tokens) & p;
        }
        let ranks = window(down1, down2, up1, up2, tokens) & p & rows(0, 12);
        // The ace: below the 2 (then the 2 and 3 above it) or above the
        // king (the king and queen below it).
        let (low, high) = if tokens == 0 {
            (p & p >> 1, p & p << 1)
        } else {
            (p | p >> 1, p | p << 1)
        };
        let ace = (low & self.ace_low) << 12 | (high & self.ace_high) << 1;
        ranks | ace & p
    }
}

/// Per k: the ranks (bits 0..13) present in more than k suits of `p`.
#[inline]
fn rank_suits(p: u64) -> [u64; 4] {
    let mut ge = [0u64; 4];
    for s in 0..4 {
        let r = p >> (13 * s) & 0x1fff;
        ge[3] |= ge[2] & r;
        ge[2] |= ge[1] & r;
        ge[1] |= ge[0] & r;
        ge[0] |= r;
    }
    ge
}

/// The faces whose rank is held in enough other suits for a set (`need`
/// partners; None: no set), on every row.
#[inline]
fn sets_fit(need: Option<usize>, ge: &[u64; 4]) -> u64 {
    // The card itself is one of the suits: it needs `need` others.
    need.and_then(|n| ge.get(n).copied()).unwrap_or(0) * EVERY_ROW
}

/// Faces with a run window of three through them, given the cards one and
/// two places down and up the line at each face's bit: all three present
/// without tokens, two of them with one token.
fn window(down1: u64, down2: u64, up1: u64, up2: u64, tokens: usize) -> u64 {
    if tokens == 0 {
        (up1 & up2) | (down1 & up1) | (down1 & down2)
    } else {
        up1 | up2 | down1 | down2
    }
}
