//! The best runs of one suit for every combination of its cards: the
//! table behind the partition's fast path for hands with at most one wild
//! token (`partition/few_wilds.rs`).
//!
//! Runs never mix suits. Once a hand's sets are chosen, every suit is a
//! problem of its own: its natural cards (none, one or two copies of each
//! rank) and whether the hand's one wild token goes into one of its runs.
//! The answer — the least penalty left unmatched, then the most cards
//! melded — depends only on those counts, written as a number in base 3
//! (digit `i`: the copies of the suit's `i`-th rank), and on the rules of
//! runs ([`RunShape`]). It is worked out by the same recursion as the main
//! search (the lowest card is unmatched or in a run through it) and
//! remembered in a table over every count combination: 3^13 × 2 entries
//! of four bytes (12.8 MB) for a French deck, filled on first use.
//!
//! The table depends only on the rules of runs and the penalties, not on a
//! hand, so one table serves every solver of the process with the same
//! rules (a short list shared behind a lock, which is taken once per
//! solver, not per hand). It only remembers a pure function: answers are
//! the same whether an entry was filled before or is worked out now, and
//! the same on every thread.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Most ranks a suit can have (2..A).
pub(super) const MAX_DIGITS: usize = 13;

/// What decides a suit's best runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RunShape {
    /// The digit (the suit's rank, counted from its lowest) at each
    /// position of the run line; the ace may stand at both ends.
    pub line: Vec<u8>,
    /// Number of ranks (digits) of a suit.
    pub digits: usize,
    /// Runs go round the corner (K-A-2).
    pub cyclic: bool,
    /// Fewest and most cards in a run.
    pub min_len: usize,
    pub max_len: usize,
    /// Penalty of each digit's card when it stays unmatched.
    pub penalty: Vec<u32>,
    /// Bit `len` set when a run of `len` cards may hold one wild token (the
    /// share of wild cards and their most per meld allow it).
    pub token_lens: u32,
    /// A wild token may be the first or last card of a run.
    pub token_at_ends: bool,
}

/// One step of a suit's best arrangement: its lowest card stays
/// unmatched, or a run through it is laid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    /// The card of this digit is unmatched.
    Dead(u8),
    /// A run over line positions `lo..lo + len` (modulo the line when it
    /// is cyclic), the wild token at run position `token` if any.
    Run { lo: u8, len: u8, token: Option<u8> },
}

/// "Not worked out yet" in the table.
const UNKNOWN: u32 = 0;
/// No arrangement (a token that no run of the suit can take).
const INFEASIBLE: u32 = u32::MAX;

/// A table entry: the arrangement's value in the high bits, ordered so
/// that the smaller is better (13 bits of deadwood, then 5 bits of 31 minus
/// the cards melded), and its first step in the low 14 bits (see
/// [`Step::code`]). Never 0 (at most 27 cards are melded), never
/// [`INFEASIBLE`] (deadwood stays below 26 cards × 255).
fn entry(deadwood: u32, melded: u32, step: u32) -> u32 {
    (deadwood.min(0x1FFF) << 19) | ((31 - melded.min(27)) << 14) | step
}

/// The value part of an entry (for comparing).
#[inline]
pub(super) fn value(e: u32) -> u32 {
    e >> 14
}

/// Deadwood and cards melded of a (known, feasible) entry.
#[inline]
pub(super) fn decode(e: u32) -> (u32, u32) {
    (e >> 19, 31 - ((e >> 14) & 31))
}

impl Step {
    /// The step in 14 bits: bit 13 set for a run, then its first line
    /// position (4 bits), its length (4 bits), whether a token is in it
    /// and where (1 + 4 bits).
    fn code(self) -> u32 {
        match self {
            Step::Dead(_) => 0,
            Step::Run { lo, len, token } => {
                1 << 13
                    | u32::from(lo) << 9
                    | u32::from(len) << 5
                    | token.map_or(0, |i| 1 << 4 | u32::from(i))
            }
        }
    }

    /// The step stored in an entry; `x` is the lowest digit of its code.
    fn of_entry(e: u32, x: u8) -> Step {
        if e >> 13 & 1 == 0 {
            return Step::Dead(x);
        }
        Step::Run {
            lo: (e >> 9 & 15) as u8,
            len: (e >> 5 & 15) as u8,
            token: (e >> 4 & 1 == 1).then_some((e & 15) as u8),
        }
    }

    fn len(self) -> u32 {
        match self {
            Step::Dead(_) => 0,
            Step::Run { len, .. } => u32::from(len),
        }
    }
}

/// The table of one run shape.
pub(super) struct SuitRuns {
    shape: RunShape,
    /// Powers of three: a digit's place in a count code.
    pow3: [u32; MAX_DIGITS + 1],
    /// Line positions of each digit (the ace may have two).
    positions: [([u8; 2], u8); MAX_DIGITS],
    /// Two entries per count code (without, with the token), allocated on
    /// first use.
    memo: OnceLock<Vec<AtomicU32>>,
}

impl std::fmt::Debug for SuitRuns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SuitRuns")
            .field("shape", &self.shape)
            .field("allocated", &self.memo.get().is_some())
            .finish()
    }
}

/// Tables of the run shapes met so far. Bounded: a server with many house
/// rules gets unshared tables past this many.
static SHARED: Mutex<Vec<Arc<SuitRuns>>> = Mutex::new(Vec::new());
const MOST_SHARED: usize = 8;

impl SuitRuns {
    /// The table for `shape`, shared with every other solver of the same
    /// shape in this process.
    pub(super) fn shared(shape: RunShape) -> Arc<SuitRuns> {
        super::shared_in(
            &SHARED,
            MOST_SHARED,
            |t| t.shape == shape,
            || SuitRuns::new(shape.clone()),
        )
    }

    fn new(shape: RunShape) -> SuitRuns {
        let mut pow3 = [1u32; MAX_DIGITS + 1];
        for i in 1..=MAX_DIGITS {
            pow3[i] = pow3[i - 1] * 3;
        }
        let mut positions = [([0u8; 2], 0u8); MAX_DIGITS];
        for (p, &d) in shape.line.iter().enumerate() {
            if let Some((slots, n)) = positions.get_mut(usize::from(d)) {
                if usize::from(*n) < slots.len() {
                    slots[usize::from(*n)] = p as u8;
                    *n += 1;
                }
            }
        }
        SuitRuns {
            shape,
            pow3,
            positions,
            memo: OnceLock::new(),
        }
    }

    /// The place value of digit `d` in a count code.
    #[inline]
    pub(super) fn place(&self, d: usize) -> u32 {
        self.pow3[d]
    }

    /// Number of count codes (3 to the number of digits).
    pub(super) fn codes(&self) -> u32 {
        self.pow3[self.shape.digits]
    }

    /// The table's entries (allocated on first use). `UNKNOWN` is zero, so
    /// the table is allocated as zeroed memory: the system hands it out
    /// page by page as entries are written, instead of a pass over tens of
    /// megabytes before the first answer (the bots use a small part).
    pub(super) fn memo(&self) -> &[AtomicU32] {
        const { assert!(UNKNOWN == 0) };
        self.memo
            .get_or_init(|| bytemuck::zeroed_vec(2 * self.codes() as usize))
    }

    /// The entries of `code` without the token and, where `token`, with
    /// it (`None`: no run can take it); `memo` is [`SuitRuns::memo`].
    #[inline]
    pub(super) fn pair(&self, memo: &[AtomicU32], code: u32, token: bool) -> (u32, Option<u32>) {
        let e0 = self.get(memo, code, 0);
        if !token {
            return (e0, None);
        }
        let e1 = self.get(memo, code, 1);
        (e0, (e1 != INFEASIBLE).then_some(e1))
    }

    #[inline]
    fn get(&self, memo: &[AtomicU32], code: u32, t: usize) -> u32 {
        let i = 2 * code as usize + t;
        let e = memo
            .get(i)
            .map_or(INFEASIBLE, |m| m.load(Ordering::Relaxed));
        if e != UNKNOWN {
            return e;
        }
        let e = self.work_out(memo, code, t);
        if let Some(m) = memo.get(i) {
            m.store(e, Ordering::Relaxed);
        }
        e
    }

    /// Work an entry out from the entries of fewer cards. Among steps of
    /// equal value the longer run is kept (fewer, longer melds).
    fn work_out(&self, memo: &[AtomicU32], code: u32, t: usize) -> u32 {
        if code == 0 {
            return if t == 0 { entry(0, 0, 0) } else { INFEASIBLE };
        }
        let mut best = INFEASIBLE;
        let mut best_len = 0;
        self.steps(code, t, |step, sub, sub_t| {
            let e = self.get(memo, sub, sub_t);
            if e == INFEASIBLE {
                return;
            }
            let (d, m) = decode(e);
            let (d, m) = match step {
                Step::Dead(x) => (d + self.shape.penalty[usize::from(x)], m),
                Step::Run { len, .. } => (d, m + u32::from(len)),
            };
            let cand = entry(d, m, step.code());
            let better = best == INFEASIBLE
                || value(cand) < value(best)
                || (value(cand) == value(best) && step.len() > best_len);
            if better {
                best = cand;
                best_len = step.len();
            }
        });
        best
    }

    /// Fill every entry (for benchmarks: a solve then reads a full table).
    pub(super) fn fill(&self) {
        let memo = self.memo();
        for code in 0..self.codes() {
            for t in 0..2 {
                self.get(memo, code, t);
            }
        }
    }

    /// The steps of the best arrangement of `code` (with the token in a run
    /// or not), in order, as each entry stores its first step. `counts`
    /// holds the code's digits (the caller has them at hand). Nothing when
    /// infeasible.
    pub(super) fn arrangement(
        &self,
        code: u32,
        mut counts: [u8; MAX_DIGITS],
        token: bool,
        mut out: impl FnMut(Step),
    ) {
        let memo = self.memo();
        let line = &self.shape.line;
        let n = line.len();
        let (mut code, mut t) = (code, usize::from(token));
        // The digits with a card left, as bits.
        let mut present = counts
            .iter()
            .enumerate()
            .fold(0u16, |m, (d, &c)| m | u16::from(c > 0) << d);
        while code != 0 {
            let e = self.get(memo, code, t);
            if e == INFEASIBLE {
                return;
            }
            let x = present.trailing_zeros() as usize;
            if decode(e).1 == 0 {
                // Nothing melded: every card left is unmatched.
                while present != 0 {
                    let x = present.trailing_zeros() as usize;
                    present &= present - 1;
                    for _ in 0..counts[x] {
                        out(Step::Dead(x as u8));
                    }
                }
                return;
            }
            let step = Step::of_entry(e, x as u8);
            match step {
                Step::Dead(_) => {
                    code -= self.pow3[x];
                    counts[x] -= 1;
                    if counts[x] == 0 {
                        present &= !(1 << x);
                    }
                }
                Step::Run { lo, len, token } => {
                    for i in 0..usize::from(len) {
                        if token != Some(i as u8) {
                            let d = usize::from(line[(usize::from(lo) + i) % n]);
                            code -= self.pow3[d];
                            counts[d] -= 1;
                            if counts[d] == 0 {
                                present &= !(1 << d);
                            }
                        }
                    }
                    t -= usize::from(token.is_some());
                }
            }
            out(step);
        }
    }

    /// Every step for the lowest card of `code` with `t` tokens to place
    /// (the card unmatched, or a run through it: at most `t` of the run's
    /// places without a card, each taken by the token; with a token and no
    /// gap, the token may also stand for a card the suit holds, which then
    /// stays free), each with the code and tokens left after it.
    fn steps(&self, code: u32, t: usize, mut visit: impl FnMut(Step, u32, usize)) {
        let s = &self.shape;
        let mut counts = [0u8; MAX_DIGITS];
        let mut c = code;
        for n in counts.iter_mut().take(s.digits) {
            *n = (c % 3) as u8;
            c /= 3;
        }
        let Some(x) = counts.iter().position(|&n| n > 0) else {
            return;
        };
        visit(Step::Dead(x as u8), code - self.pow3[x], t);
        let n = s.line.len();
        let longest = s.max_len.min(n);
        let (slots, k) = self.positions[x];
        for &p in &slots[..usize::from(k)] {
            let p = usize::from(p);
            // `a` places left of p, `b` right of it; the naturals taken
            // and the gap (run position of the place without a card).
            let mut left_taken = 0u32;
            let mut left_gap: Option<usize> = None;
            for a in 0..longest {
                if a > 0 {
                    if !s.cyclic && p < a {
                        break;
                    }
                    let d = usize::from(s.line[(p + n - a) % n]);
                    if counts[d] == 0 {
                        if left_gap.is_some() || t == 0 {
                            break;
                        }
                        // Run positions count from the left end: fixed up below.
                        left_gap = Some(a);
                    } else {
                        left_taken += self.pow3[d];
                    }
                }
                let mut right_taken = 0u32;
                let mut right_gap: Option<usize> = None;
                for b in 0..longest - a {
                    if b > 0 {
                        if !s.cyclic && p + b >= n {
                            break;
                        }
                        let d = usize::from(s.line[(p + b) % n]);
                        if counts[d] == 0 {
                            if left_gap.is_some() || right_gap.is_some() || t == 0 {
                                break;
                            }
                            right_gap = Some(b);
                        } else {
                            right_taken += self.pow3[d];
                        }
                    }
                    let len = a + b + 1;
                    if len < s.min_len {
                        continue;
                    }
                    let lo = (p + n - a) % n;
                    let sub = code - self.pow3[x] - left_taken - right_taken;
                    let token_fits = t > 0 && s.token_lens >> len & 1 == 1;
                    let token_ok =
                        |i: usize| token_fits && (s.token_at_ends || (i != 0 && i + 1 != len));
                    let run = |token: Option<usize>| Step::Run {
                        lo: lo as u8,
                        len: len as u8,
                        token: token.map(|i| i as u8),
                    };
                    // The gap's run position (the run starts `a` left of p).
                    let gap = left_gap.map(|g| a - g).or(right_gap.map(|g| a + g));
                    match gap {
                        Some(i) => {
                            if token_ok(i) {
                                visit(run(Some(i)), sub, t - 1);
                            }
                        }
                        None => {
                            visit(run(None), sub, t);
                            if token_fits {
                                for i in (0..len).filter(|&i| i != a && token_ok(i)) {
                                    let d = usize::from(s.line[(lo + i) % n]);
                                    visit(run(Some(i)), sub + self.pow3[d], t - 1);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
