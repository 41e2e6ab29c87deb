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
//! All suits are tested at once on the face bitmask (`suit * 13 + rank`):
//! a suit's run line is gathered into a small integer (the ace at either
//! end where the ruleset lets it stand there), shifted against itself, and
//! scattered back; sets count the suits holding each rank with bit-sliced
//! counters. Rulesets whose lines do not fit this layout (runs around the
//! corner, a minimum length other than three, sets that may repeat a suit)
//! get `None` from [`StrandMasks::new`], and the search falls back to the
//! per-face test.

/// Precomputed facts for the stranded-card test.
#[derive(Debug, Clone)]
pub(super) struct StrandMasks {
    /// Line position of the 2 (1 with the ace low, else 0).
    offset: u32,
    /// The ace stands below the 2 / above the king.
    ace_low: bool,
    ace_high: bool,
    /// Runs go round the corner (K-A-2): the line is 2..A, cyclic.
    cyclic: bool,
    /// Per wild tokens (0, 1): how many natural partners of other suits a
    /// card needs for some set (None: no set is possible).
    set_partners: [Option<usize>; 2],
}

/// Bits 0..12 of a row: the ranks 2..A.
const ROW: u64 = 0x1fff;
/// The ranks 2..K of a row.
const NON_ACE: u64 = 0xfff;
/// One bit at the start of each suit's row, to copy a row to every suit.
const EVERY_ROW: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;

impl StrandMasks {
    /// The masks for these lines (per suit: face index at each line
    /// position), or None when the lines do not have the supported layout:
    /// at most four suits, each line 2..K in order with the ace below the 2
    /// and/or above the king (or 2..A round the corner), minimum length
    /// three, sets of distinct suits.
    /// `set_partners` is as in [`StrandMasks::stranded`].
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
            offset: u32::from(ace_low),
            ace_low,
            ace_high,
            cyclic,
            set_partners,
        })
    }

    /// The faces of `present` that fit no meld with the other faces of
    /// `present` and `tokens` wild tokens (0 or 1; with more, no face is
    /// reported, as the per-face test would find a meld for each).
    ///
    /// Each suit's line goes into a 16-bit lane of one word (lines have at
    /// most 14 positions, so shifts by one or two never carry a card into
    /// the next lane), all lanes are tested at once, and the result is
    /// scattered back to face bits.
    pub(super) fn stranded(&self, present: u128, tokens: usize) -> u128 {
        if tokens > 1 {
            return 0;
        }
        let p = present as u64;
        let fits = if self.cyclic {
            self.cyclic_fits(p, tokens)
        } else {
            self.line_fits(p, tokens)
        };
        // Sets: ranks held in enough other suits.
        let mut sets = 0u64;
        if let Some(need) = self.set_partners[tokens] {
            // ge[k]: ranks present in more than k suits.
            let mut ge = [0u64; 4];
            for s in 0..4 {
                let r = p >> (13 * s) & ROW;
                ge[3] |= ge[2] & r;
                ge[2] |= ge[1] & r;
                ge[1] |= ge[0] & r;
                ge[0] |= r;
            }
            // The card itself is one of the suits: it needs `need` others.
            let ranks = ge.get(need).copied().unwrap_or(0);
            sets = ranks * EVERY_ROW;
        }
        u128::from(p & !(fits | sets))
    }

    /// Faces that fit a run, on lines with the ace at the ends.
    fn line_fits(&self, p: u64, tokens: usize) -> u64 {
        let hi = 12 + self.offset;
        let mut lanes = 0u64;
        for s in 0..4 {
            let row = p >> (13 * s) & ROW;
            let ace = row >> 12;
            let mut lane = (row & NON_ACE) << self.offset;
            if self.ace_low {
                lane |= ace;
            }
            if self.ace_high {
                lane |= ace << hi;
            }
            lanes |= lane << (16 * s);
        }
        let fits = shifted_fits(
            lanes,
            [lanes << 1, lanes << 2, lanes >> 1, lanes >> 2],
            tokens,
        );
        let mut out = 0u64;
        for s in 0..4 {
            let lane = fits >> (16 * s);
            let mut row = lane >> self.offset & NON_ACE;
            let ace = (self.ace_low && lane & 1 == 1) || (self.ace_high && lane >> hi & 1 == 1);
            row |= u64::from(ace) << 12;
            out |= row << (13 * s);
        }
        out
    }

    /// Faces that fit a run, on cyclic lines 2..A: each lane is rotated
    /// within its 13 bits.
    fn cyclic_fits(&self, p: u64, tokens: usize) -> u64 {
        let mut lanes = 0u64;
        for s in 0..4 {
            lanes |= (p >> (13 * s) & ROW) << (16 * s);
        }
        // Bit i of `up1` is the card at i - 1 (round the corner), and so on.
        // Each part is masked to the bits it may fill, so no shift carries a
        // card into another lane.
        let lane_bits = |lo: u32, n: u32| ((1u64 << n) - 1) << lo;
        let every = |m: u64| m * 0x0001_0001_0001_0001;
        let up1 = (lanes << 1 & every(lane_bits(1, 12))) | (lanes >> 12 & every(lane_bits(0, 1)));
        let up2 = (lanes << 2 & every(lane_bits(2, 11))) | (lanes >> 11 & every(lane_bits(0, 2)));
        let down1 =
            (lanes >> 1 & every(lane_bits(0, 12))) | (lanes << 12 & every(lane_bits(12, 1)));
        let down2 =
            (lanes >> 2 & every(lane_bits(0, 11))) | (lanes << 11 & every(lane_bits(11, 2)));
        let fits = shifted_fits(lanes, [up1, up2, down1, down2], tokens);
        let mut out = 0u64;
        for s in 0..4 {
            out |= (fits >> (16 * s) & ROW) << (13 * s);
        }
        out
    }
}

/// Positions of `lanes` with a run window of three through them, given the
/// lanes shifted so that bit i holds the card at i-1, i-2, i+1, i+2: all
/// three present without tokens, two of them with one token.
fn shifted_fits(lanes: u64, [l1, l2, r1, r2]: [u64; 4], tokens: usize) -> u64 {
    let fit = if tokens == 0 {
        (r1 & r2) | (l1 & r1) | (l1 & l2)
    } else {
        r1 | r2 | l1 | l2
    };
    fit & lanes
}
