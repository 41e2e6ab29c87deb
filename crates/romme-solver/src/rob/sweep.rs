//! Räuber robbing by dynamic programming over the rank line: the exact
//! answer to the question [`super::rob`]'s branch and bound asks, with a
//! number of states that grows with the table's width, not with the number
//! of ways to pick new melds.
//!
//! The positions of the suits' lines are visited from low to high, every
//! suit at each position, and a rank's sets after its last position (the
//! ace, low and high, has two). Between two steps the state holds:
//! * the new runs still open: suit, length (capped at the minimum), whether
//!   a hand natural is in it, whether a natural is, its wild tokens (capped
//!   at what matters), and whether it follows an original run to hold it
//!   whole (see below);
//! * per original run that spans the position: every card kept so far, every
//!   card robbed so far, or the start of the piece it is keeping now;
//! * the copies of the current rank not yet used (hand copies, robbed
//!   copies), and the original sets of that rank robbed whole;
//! * `d`, wild tokens placed minus table jokers robbed (the hand jokers
//!   placed, once every robbed joker is placed), and `f`, the melds whose
//!   only hand card is a hand joker.
//!
//! The rules are those of the branch and bound (its module doc gives the
//! readings): what stays of an original meld is a piece of it (a run's
//! consecutive cards, a set's cards) of at least the minimum length that
//! keeps its jokers' declarations and is a valid meld; every other meld
//! holds a hand card (a natural or a joker); robbed jokers are free. The cost
//! is the same: cards left (× unit + penalty) × scale, plus one per meld of
//! the new table that holds no whole original meld (each piece; a new meld
//! unless it holds every card of an original meld).
//!
//! Cards of one face are alike, so the state counts copies, not cards: a
//! robbed copy of a face stands for any robbed card of that face. The one
//! place where the difference shows is holding an original whole: a new run
//! that holds original run `m` takes a robbed copy at each of `m`'s natural
//! positions (a hand copy there would leave `m`'s card elsewhere), covers
//! its positions, and holds as many tokens besides its hand token as `m`
//! has jokers; a new set likewise. Robbed tokens and hand jokers are alike
//! in a meld: the counts `d` and `f` make sure that, at the end, every
//! robbed joker is placed and each meld that needs a hand joker has one.
//!
//! The search is depth first with a memo per (step, state) at the steps
//! where a position starts (the states inside one seldom meet again; the
//! walk works them out anew from the memo's) and a budget:
//! a state's entry is its exact cost to the end, or (marked) a lower bound
//! of at least the budget it was asked with. It is cut where a lower bound
//! reaches the budget: the changed melds certain to come (pieces being kept;
//! open runs that hold no original and can no longer start to; or, where
//! more, those that the hand cards ahead which no original can take force,
//! less one for each such card left in the hand at a card's cost) plus the
//! value of free rearrangement's relaxation for the cards still to come (no
//! changes, every run that could be open is open, a meld without a hand
//! card a piece of one table meld, read by faces;
//! [`crate::partition::Relaxation`], [`crate::partition::Pieces`]) with
//! the wild tokens still free and the aces gone to the low end: at a
//! position's start, for the cards from
//! there on; inside a position (between two suits, or after a rank's
//! original sets), for the cards from the next position on, the least over
//! the tokens the rest of the position may take. A run that
//! starts with a token must run to the line's end, so it is only started
//! where the tokens can fill the positions without a copy of its suit.
//! The budget is also cut to what beats the cheapest whole turn met so far
//! anywhere in the search (a branch and bound across the memo: the cut
//! lets values equal to it through, so the states along that turn keep
//! exact values), and that turn's path is kept: when a limit stops the
//! search, [`rob_by_sweep`] still answers with it. The search is asked a
//! card level at a time (turns leaving no more cards than the floor, then
//! one more, ...), so that the turns it meets early are good ones, each
//! level first of the cards and points alone, without changed melds,
//! whose values are lower bounds of the whole cost ([`RobSweep::deepen`]).
//!
//! **Joker exchanges inside the sweep** ([`super::RobProblem::swaps`]):
//! where the hand holds the natural a run's joker stands for, the suit's
//! step at the joker may exchange it: the hand's copy takes the joker's
//! place (kept there or robbed like any natural) and the joker becomes a
//! hand joker (`x` counts them; the hand's jokers are its own plus `x`).
//! From then on the run is its exchanged version (a flag in its slot's
//! code; its pieces and the claims to hold it whole are the exchanged
//! run's): a run following the original when its joker is exchanged and
//! robbed must take the natural, and follows the exchanged version. A
//! joker after the run's last natural is decided after a claim on the run
//! would be done with it: there the claim either holds the run as it is
//! (and the joker may then no longer be exchanged, [`O_NOSWAP`]) or
//! follows the exchanged version on to the joker's place, where the
//! exchange must happen. One sweep then answers every choice of these
//! exchanges, where a search per choice repeated the same work two to
//! eight times (the caller still makes a choice per exchange in a set).
//!
//! It covers the lines without wrap-around and wild cards without limits
//! (the rules of `raeuber`), tables whose every meld holds at least two
//! natural cards, at most eight original runs across any position, and at
//! most two copies of a face; elsewhere [`rob_by_sweep`] answers `None` and
//! the branch and bound decides. The walk to the answer takes, at each
//! step, the first transition (in the order they are listed) that reaches
//! the optimum, so the answer is canonical (a turn met before a limit
//! stopped the search is followed along its kept path instead; limits are
//! counted in states, so that answer is the same on every run too).

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use romme_core::card::{CardKind, Face, Rank, Suit};
use romme_core::meld::{MeldChecker, MeldKind};
use romme_core::notation::MeldCard;
use romme_core::penalty::card_points;
use romme_core::ruleset::{Limit, SetSuits, WildShare};

use super::{RobProblem, Robbed};
use crate::deadline::Clock;
use crate::partition::{CHANGE_SCALE, FACES, Pieces, Relaxation};
use crate::rearrange::RearrangeError;

/// No finite cost.
const INF: u64 = u64::MAX / 4;
/// Marks a memo entry that is only a lower bound.
const BOUND: u64 = 1 << 63;
/// States between two readings of the clock, where a deadline is set.
const CLOCK_EVERY: u64 = 256;
/// Original runs the state tracks at one position (8 bits each in a `u64`).
const SLOTS: usize = 8;
/// Most suits (each takes 6 bits of a `u32` pool).
const MAX_SUITS: usize = 5;
/// Most copies of a face (2 bits in the pool).
const MAX_COPIES: u8 = 3;

/// States of an original run (8 bits): not at this position ...
const O_IDLE: u8 = 0;
/// ... every card so far robbed ...
const O_ROBBED: u8 = 1;
/// ... a piece kept before, now robbing ...
const O_GAP: u8 = 2;
/// ... every card so far kept ...
const O_WHOLE: u8 = 3;
/// ... or keeping a piece that starts at card index `code & O_START`.
const O_BLOCK: u8 = 0x80;
/// Set beside any of them once the run's exchangeable joker was exchanged
/// ([`OrigRun::swap_at`]): from then on the run is its exchanged version.
const O_SWAPPED: u8 = 0x40;
/// Set beside them where a run holds the original whole already (its claim
/// ended at the last natural), so that its joker after that natural may no
/// longer be exchanged.
const O_NOSWAP: u8 = 0x20;
/// The start of a kept piece in an `O_BLOCK` code.
const O_START: u8 = 0x1f;
/// Claims on an original run's exchanged version carry its index plus
/// this ([`RobSweep::claim_orig`]; at most this many original runs then).
const B_OFFSET: usize = 16;

// `lower_bound` counts the slots keeping a piece by their top bits.
const _: () = assert!(SLOTS == 8 && O_BLOCK == 0x80);

/// A new run open between two steps, packed so that states sort and hash
/// as short integers: suit (3 bits), length capped at the minimum (4),
/// whether it holds a hand natural, whether it holds a natural, its tokens
/// (capped, 3), its claim on an original run (2 bits kind: none, following
/// run `payload`, or holding one once `payload` more tokens are in it; 5
/// bits payload), whether it must run to the line's end (it started with a
/// token), whether it started at the line's first position (on a line with
/// the ace at both ends it may not reach the last).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
struct Run(u32);

const CLAIM_NONE: u32 = 0;
const CLAIM_FOLLOW: u32 = 1;
const CLAIM_HELD: u32 = 2;

impl Run {
    #[allow(clippy::too_many_arguments)]
    fn new(
        suit: usize,
        len: u32,
        hand: bool,
        nat: bool,
        tok: u32,
        claim: (u32, u32),
        to_end: bool,
        from0: bool,
    ) -> Run {
        Run((suit as u32) << 24
            | len << 20
            | u32::from(hand) << 19
            | u32::from(nat) << 18
            | tok << 15
            | claim.0 << 13
            | claim.1 << 8
            | u32::from(to_end) << 7
            | u32::from(from0) << 6)
    }
    fn suit(self) -> usize {
        (self.0 >> 24) as usize
    }
    fn len(self) -> u32 {
        self.0 >> 20 & 0xf
    }
    fn hand(self) -> bool {
        self.0 >> 19 & 1 == 1
    }
    fn nat(self) -> bool {
        self.0 >> 18 & 1 == 1
    }
    fn tok(self) -> u32 {
        self.0 >> 15 & 7
    }
    fn claim(self) -> (u32, u32) {
        (self.0 >> 13 & 3, self.0 >> 8 & 0x1f)
    }
    fn to_end(self) -> bool {
        self.0 >> 7 & 1 == 1
    }
    fn from0(self) -> bool {
        self.0 >> 6 & 1 == 1
    }
    /// The same run with no claim on an original.
    fn without_claim(self) -> Run {
        Run(self.0 & !(0x3 << 13 | 0x1f << 8))
    }
    /// Its fields (bits 6..27) as the low 21 bits, for packed keys.
    fn packed(self) -> u32 {
        debug_assert!(self.0 & 0x3f == 0 && self.0 >> 27 == 0, "run {self:?}");
        self.0 >> 6
    }
}

/// Most new runs open at once: every open run holds a card of the last
/// position, so two decks' copies (eight) and six jokers never fill it; a
/// table beyond it stops the sweep (the branch and bound decides).
const MAX_RUNS: usize = 16;

/// The open runs of a state, sorted, in a fixed-size block (the state is
/// copied and hashed at every transition; a vector's clone was a sixth of
/// the sweep). Slots past `len` hold `Run(0)`, so the block compares as
/// the runs themselves do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Runs {
    len: u8,
    runs: [Run; MAX_RUNS],
}

impl Runs {
    /// Replaces the runs of one suit (a block: the suit leads a run's
    /// bits), at `(lo, hi)` from [`Runs::block`], by `mine` (of the same
    /// suit, sorted), in place: the runs stay sorted. `false` (and the
    /// runs unchanged) when there would be more than [`MAX_RUNS`].
    fn set_block(&mut self, (lo, hi): (usize, usize), mine: &[Run]) -> bool {
        let n = usize::from(self.len);
        let len = lo + mine.len() + (n - hi);
        if len > MAX_RUNS {
            return false;
        }
        let end = lo + mine.len();
        if end != hi {
            self.runs.copy_within(hi..n, end);
            // Slots past the runs hold `Run(0)` (see the type's doc).
            if len < n {
                self.runs[len..n].fill(Run(0));
            }
        }
        self.runs[lo..end].copy_from_slice(mine);
        self.len = len as u8;
        debug_assert!(self.is_sorted(), "{self:?}");
        true
    }

    /// Where the runs of suit `s` lie: their first index and the one past
    /// their last.
    fn block(&self, s: usize) -> (usize, usize) {
        let lo = self.partition_point(|r| r.suit() < s);
        let hi = lo + self[lo..].partition_point(|r| r.suit() == s);
        (lo, hi)
    }

    /// The runs given, sorted; `None` when there are more than
    /// [`MAX_RUNS`].
    fn sorted(from: &[Run]) -> Option<Runs> {
        let mut runs = [Run(0); MAX_RUNS];
        runs.get_mut(..from.len())?.copy_from_slice(from);
        runs[..from.len()].sort_unstable();
        Some(Runs {
            len: from.len() as u8,
            runs,
        })
    }
}

impl std::ops::Deref for Runs {
    type Target = [Run];
    fn deref(&self) -> &[Run] {
        &self.runs[..usize::from(self.len)]
    }
}

/// The state between two steps (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct State {
    /// Open new runs, sorted.
    runs: Runs,
    /// Original runs' states, 8 bits per slot.
    orig: u64,
    /// Copies of the current rank, 6 bits per suit: robbed from original
    /// sets and not yet seen by the suit's step (2), hand copies left (2),
    /// robbed copies left (2).
    pool: u32,
    /// The same for the ace between its low and its high position.
    ace_pool: u32,
    /// Original sets of the current rank robbed whole (bit per set of the
    /// rank), and of the ace.
    whole: u8,
    ace_whole: u8,
    /// Aces of each suit (3 bits per suit index) that went to the line's
    /// low end, on a line with the ace at both ends.
    aces_low: u16,
    /// Jokers of original ace sets kept (decided at the low end, placed at
    /// the high end: still wild tokens for the relaxation's bound).
    ace_kept_jokers: u8,
    /// Tokens placed minus table jokers robbed.
    d: i8,
    /// Melds whose hand card is a hand joker.
    f: u8,
    /// Jokers exchanged so far: each is a hand joker now.
    x: u8,
}

impl std::hash::Hash for State {
    /// The fields packed into a few words (a field at a time was a fifth
    /// of the sweep): the open runs two to a word, then the rest.
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        for pair in self.runs.chunks(2) {
            let second = pair.get(1).map_or(0, |r| u64::from(r.0));
            h.write_u64(u64::from(pair[0].0) | second << 32);
        }
        h.write_u64(self.orig);
        h.write_u64(u64::from(self.pool) | u64::from(self.ace_pool) << 32);
        h.write_u64(
            u64::from(self.whole)
                | u64::from(self.ace_whole) << 8
                | u64::from(self.aces_low) << 16
                | u64::from(self.ace_kept_jokers) << 32
                | u64::from(self.d as u8) << 40
                | u64::from(self.f) << 48
                | u64::from(self.runs.len) << 56
                | u64::from(self.x) << 61,
        );
    }
}

/// The cards' and points' part of a cost (a card's cost is a multiple of
/// the scale; the changed melds add fewer).
pub(super) fn cards_part(cost: u64) -> u64 {
    cost / CHANGE_SCALE * CHANGE_SCALE
}

/// The slot of line position `p` (up to the line's length) and `left`
/// tokens (up to `tokens`) in [`RobSweep::mid_least`].
fn mid_slot(tokens: i16, p: usize, left: u8) -> usize {
    p * (tokens.clamp(0, 255) as usize + 1) + usize::from(left)
}

/// Suit `s`'s fields of a pool: robbed from original sets, hand copies
/// left, robbed copies left.
fn pool_get(pool: u32, s: usize) -> (u8, u8, u8) {
    let v = pool_word(pool, s);
    (v & 3, v >> 2 & 3, v >> 4 & 3)
}

/// The pool with suit `s`'s fields replaced (see [`pool_get`]).
fn pool_set(pool: u32, s: usize, (inr, hl, rl): (u8, u8, u8)) -> u32 {
    pool_with_word(pool, s, inr | hl << 2 | rl << 4)
}

/// Suit `s`'s fields of a pool as one 6-bit word (see [`pool_get`]).
fn pool_word(pool: u32, s: usize) -> u8 {
    (pool >> (6 * s) & 0x3f) as u8
}

/// The pool with suit `s`'s fields replaced by `word` (see [`pool_word`]).
fn pool_with_word(pool: u32, s: usize, word: u8) -> u32 {
    (pool & !(0x3f << (6 * s))) | u32::from(word) << (6 * s)
}

/// The state of the original run in `slot`.
fn orig_get(orig: u64, slot: usize) -> u8 {
    (orig >> (8 * slot)) as u8
}

/// The original runs' states with `slot`'s replaced.
fn orig_set(orig: u64, slot: usize, code: u8) -> u64 {
    (orig & !(0xff << (8 * slot))) | u64::from(code) << (8 * slot)
}

/// One step of the sweep.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// The original sets of a rank (index into `ranks`): kept, robbed in
    /// part or whole.
    SetsIn(usize),
    /// Position and suit: runs.
    Suit(usize, usize),
    /// New sets of a rank; hand copies not used stay in the hand.
    SetsOut(usize),
    /// Every open run ends; tokens settle.
    End,
}

/// An original run of the table.
struct OrigRun {
    suit: usize,
    /// Line position of its first card.
    lo: usize,
    cards: Vec<MeldCard>,
    natural: Vec<bool>,
    jokers: u32,
    /// Its first and last natural card: a new run holds it whole when it
    /// takes robbed copies at its natural positions from the first to the
    /// last (and holds its jokers anywhere).
    first_nat: usize,
    last_nat: usize,
    /// Whether a new run may hold it whole: its jokers after the last
    /// natural are too few to stay as a piece of their own.
    claimable: bool,
    slot: usize,
    /// Whether cards `a..=b` may stay as a piece.
    piece_ok: Vec<Vec<bool>>,
    /// The card (an index into `cards`) of a joker the hand may exchange
    /// here ([`super::RobProblem::swaps`]): the run then holds the natural
    /// instead ([`RobSweep::runs_b`]).
    swap_at: Option<usize>,
}

impl OrigRun {
    /// Original run `cards` of suit `s` from line position `lo` on (its
    /// slot is set later), or `None` when it holds no natural.
    fn new(
        suit: usize,
        lo: usize,
        cards: Vec<MeldCard>,
        checker: &MeldChecker,
        min_len: u32,
    ) -> Option<OrigRun> {
        let natural: Vec<bool> = cards.iter().map(|c| !checker.is_wild(c.card)).collect();
        let n = cards.len();
        let mut piece_ok = vec![vec![false; n]; n];
        for a in 0..n {
            for b in a..n {
                if (b - a + 1) as u32 >= min_len && (a > 0 || b + 1 < n) {
                    piece_ok[a][b] = checker.check(&cards[a..=b]).is_ok();
                }
            }
        }
        let first_nat = natural.iter().position(|&x| x)?;
        let last_nat = natural.iter().rposition(|&x| x)?;
        Some(OrigRun {
            suit,
            lo,
            cards,
            jokers: natural.iter().filter(|&&x| !x).count() as u32,
            first_nat,
            last_nat,
            claimable: ((n - 1 - last_nat) as u32) < min_len,
            natural,
            slot: 0,
            piece_ok,
            swap_at: None,
        })
    }

    fn hi(&self) -> usize {
        self.lo + self.cards.len() - 1
    }
}

/// One way to treat an original set.
#[derive(Debug, Clone, Copy)]
struct SetOption {
    /// Cards kept (bit per card).
    kept: u16,
    /// Robbed naturals per suit and robbed jokers.
    robbed: [u8; MAX_SUITS],
    jokers: u8,
    /// 1 for a piece, 0 for the whole set kept or robbed.
    change: u64,
    /// Robbed whole.
    all: bool,
}

/// An original set of the table.
struct OrigSet {
    meld: usize,
    rank: usize,
    /// Its bit among the sets of its rank.
    bit: u8,
    naturals: [u8; MAX_SUITS],
    jokers: u32,
    options: Vec<SetOption>,
}

/// What a run does at a suit's step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    End,
    Hand,
    Rob,
    Tok,
}

/// A new set: naturals per suit (robbed, hand) and tokens.
#[derive(Debug, Clone, Copy)]
struct NewSet {
    robbed: [u8; MAX_SUITS],
    hand: [u8; MAX_SUITS],
    tokens: u8,
}

/// What a transition did, for the walk that builds the answer.
#[derive(Debug, Clone)]
enum Action {
    SetsIn(SmallVec<[u8; 4]>),
    Suit {
        kept: SmallVec<[bool; 4]>,
        /// The originals here whose joker the hand exchanged (bits).
        swapped: u32,
        /// Per open run of the suit (in state order), then per new run.
        acts: SmallVec<[Act; 8]>,
        /// The runs after the step in the order they were built.
        built: SmallVec<[Run; 8]>,
    },
    SetsOut(SmallVec<[NewSet; 3]>),
}

/// A transition: the next state, its cost, and (for the walk only, else
/// `None`: the search needs the state and the cost) what it did, boxed so
/// that the search's transitions stay small to move.
type Succ = (State, u64, Option<Box<Action>>);

/// A rank's new sets as [`RobSweep::sets_cache`] keeps them: tokens placed,
/// sets whose only hand card is a hand joker, cost.
type SetsMove = (i16, u8, u64);

/// [`RobSweep::sets_cache`]: by rank, pool and originals robbed whole.
type SetsCache = FxHashMap<(usize, u32, u8), Box<[SetsMove]>>;

/// What a suit's step reads of a state ([`RobSweep::suit_cache`]),
/// packed into integers (hashed and compared at every suit step): the
/// suit's open runs (at most [`SUIT_KEY_RUNS`], 21 bits each, and their
/// number); the states of the original runs there
/// ([`RobSweep::orig_codes`]); the position, the suit, whether a run
/// follows each original, the suit's fields of the rank's pool
/// ([`pool_word`]) and the tokens placed, a byte each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct SuitKey {
    runs: u128,
    codes: u64,
    rest: u64,
}

/// A suit's open runs a [`SuitKey`] holds (more are listed uncached).
const SUIT_KEY_RUNS: usize = 5;

impl SuitKey {
    fn new(q: usize, s: usize, mine: &[Run], codes: u64, followed: u8, pool: u8, d: i8) -> Self {
        let mut runs = (mine.len() as u128) << 120;
        for (i, run) in mine.iter().enumerate() {
            runs |= u128::from(run.packed()) << (21 * i);
        }
        SuitKey {
            runs,
            codes,
            rest: q as u64
                | (s as u64) << 8
                | u64::from(followed) << 16
                | u64::from(pool) << 24
                | u64::from(d as u8) << 32,
        }
    }
}

/// One transition of a suit's step as [`RobSweep::suit_cache`] keeps it:
/// the original runs' new states (as `SuitKey::codes`), the suit's new
/// pool field, tokens placed, the melds owed a hand joker that were added,
/// the low aces of the suit (on the ace's low position), the suit's runs
/// after the step, and the cost.
#[derive(Debug, Clone)]
struct SuitMove {
    codes: u64,
    pool: u8,
    d: i8,
    f_added: u8,
    x_added: u8,
    aces_low: u16,
    runs: SmallVec<[Run; 4]>,
    change: u64,
}

/// The sweep's memo: per step and state, its value (marked [`BOUND`] when
/// only a lower bound). Most states fit a key of five words (at most
/// [`PACKED_RUNS`] open runs, small counts): 48 bytes an entry instead of
/// 112 for the state itself, so the large memos of the slowest positions
/// grow, hash and probe in less than half the memory. The rest are kept
/// by their state.
#[derive(Default, Clone)]
struct Memo {
    packed: FxHashMap<[u64; 5], u64>,
    wide: FxHashMap<(u16, State), u64>,
}

/// Open runs a packed memo key holds (three of 21 bits to a word).
const PACKED_RUNS: usize = 6;

impl Memo {
    /// The five words that tell `(k, st)` apart from every other packed
    /// step and state, or `None` where a field does not fit.
    fn pack((k, st): (u16, State)) -> Option<[u64; 5]> {
        let runs: &[Run] = &st.runs;
        if runs.len() > PACKED_RUNS
            || k >= 256
            || st.x >= 8
            || st.ace_kept_jokers >= 16
            || st.f >= 32
            || st.aces_low >= 1 << 15
            || st.pool >= 1 << 30
            || st.ace_pool >= 1 << 30
        {
            return None;
        }
        let mut words = [0u64; 5];
        for (i, run) in runs.iter().enumerate() {
            words[i / 3] |= u64::from(run.packed()) << (21 * (i % 3));
        }
        words[2] = st.orig;
        words[3] = u64::from(st.pool) | u64::from(st.ace_pool) << 30 | (runs.len() as u64) << 60;
        words[4] = u64::from(k)
            | u64::from(st.x) << 8
            | u64::from(st.whole) << 16
            | u64::from(st.ace_whole) << 24
            | u64::from(st.aces_low) << 32
            | u64::from(st.d as u8) << 47
            | u64::from(st.ace_kept_jokers) << 55
            | u64::from(st.f) << 59;
        Some(words)
    }

    fn get(&self, key: (u16, State)) -> Option<u64> {
        match Memo::pack(key) {
            Some(words) => self.packed.get(&words).copied(),
            None => self.wide.get(&key).copied(),
        }
    }

    /// Every entry made a lower bound.
    fn make_bounds(&mut self) {
        for v in self.packed.values_mut().chain(self.wide.values_mut()) {
            *v |= BOUND;
        }
    }

    fn insert(&mut self, key: (u16, State), value: u64) {
        match Memo::pack(key) {
            Some(words) => self.packed.insert(words, value),
            None => self.wide.insert(key, value),
        };
    }
}

/// The robbing problem as the sweep sees it.
struct RobSweep<'p, 'a> {
    p: &'p RobProblem<'a>,
    line: Vec<Rank>,
    suits: Vec<Suit>,
    /// Distinct ranks of the line; per position its rank's index.
    ranks: Vec<Rank>,
    rank_at: Vec<usize>,
    first_pos: Vec<usize>,
    last_pos: Vec<usize>,
    steps: Vec<Step>,
    runs_o: Vec<OrigRun>,
    sets_o: Vec<OrigSet>,
    /// Original runs per position and suit.
    runs_at: Vec<Vec<SmallVec<[usize; 2]>>>,
    sets_of_rank: Vec<Vec<usize>>,
    hand_count: [u8; FACES],
    hand_jokers: i8,
    joker_leave: u64,
    leave: [u64; FACES],
    min_len: u32,
    max_set: usize,
    distinct: bool,
    all_wild: bool,
    ace_twice: bool,
    tok_cap: u32,
    /// Table jokers whose fate is decided at this step or later.
    jokers_from: Vec<i8>,
    /// Per suit and position: the most jokers of an original run of the
    /// suit that a run open there may still start to hold (its first
    /// natural lies after the position).
    claim_jokers_after: Vec<Vec<u32>>,
    /// Per position, a bit per suit: whether a run of the suit open there
    /// (at a later suit's step, or before the position) may still start to
    /// hold an original.
    claim_possible_after: Vec<u8>,
    /// Per suit and position: the positions from there to the line's end
    /// with no copy of the suit at all (a run to the end takes a token at
    /// each).
    gaps_to_end: Vec<Vec<u8>>,
    memo: Memo,
    /// Per step, whether its states are kept in the memo: only where a
    /// position starts (a rank's original sets, or its first suit). The
    /// states inside a position seldom meet again (on the slowest ~20
    /// positions one lookup in a hundred found an entry), and keeping
    /// them took a quarter of the sweep: a position's states are worked
    /// out again from its start, which the memo holds.
    memo_at: Vec<bool>,
    /// The walk is solving the states inside a position again: no limit
    /// stops it (the search it follows has finished or kept its path).
    walking: bool,
    /// The search counts cards left and their points only: no changed
    /// melds, so no claims on originals (which only save changes); a
    /// relaxation with far fewer states, which proves a card level empty
    /// ([`RobSweep::deepen`]).
    cards_only: bool,
    /// Per original run with an exchangeable joker ([`OrigRun::swap_at`]):
    /// the run as it is once exchanged (the natural in the joker's place),
    /// which claims to hold it whole follow from then on.
    runs_b: Vec<Option<OrigRun>>,
    /// Jokers the hand may exchange during the turn.
    swaps: u8,
    /// The cards-only search's memo, kept while the whole cost is searched
    /// ([`RobSweep::cards_bound`]).
    cards_memo: Memo,
    /// A transition had more open runs than a state holds ([`MAX_RUNS`]):
    /// the search is incomplete and stops.
    overflow: std::cell::Cell<bool>,
    /// Per step, a buffer for its transitions (lent out while the steps
    /// below use theirs).
    succ_bufs: Vec<Vec<Succ>>,
    /// Whether transitions keep what they did (for the walk only).
    record: bool,
    /// The new sets' transitions of a rank's last step, by rank, pool of
    /// copies and originals robbed whole (all they depend on but the
    /// state's token counts): per transition, the tokens placed, the
    /// melds whose only hand card is a hand joker, and the cost. Listing
    /// them anew for every state was half of the slowest ~20 positions.
    sets_cache: std::cell::RefCell<SetsCache>,
    /// The transitions of a suit's step, by what it reads of the state
    /// ([`SuitKey`]); the other suits' runs pass through. Listing them anew
    /// in every state was a quarter of the slowest ~20 positions.
    suit_cache: std::cell::RefCell<FxHashMap<SuitKey, Box<[SuitMove]>>>,
    /// Work done (states and their transitions), against `node_limit`.
    nodes: u64,
    node_limit: u64,
    states: u64,
    /// The deadline, read every [`CLOCK_EVERY`] states.
    clock: Clock,
    stopped: bool,
    /// Lower bounds from free rearrangement's relaxation, if it applies.
    relaxation: Option<Relaxation<'a>>,
    /// Wild tokens the relaxation knows (hand and table jokers).
    tokens: i16,
    /// Per line position: the changed melds that the hand cards there and
    /// later force where they are all placed (those no original can take,
    /// with every wild token there may be: tokens placed before the
    /// position may bridge a gap too;
    /// [`crate::partition::PartitionSolver::forced_changes_from`]), for
    /// [`RobSweep::lower_bound`].
    forced_from: [u64; 16],
    /// Per step: the line position from which on its state's cards are all
    /// still to come (the bound asks the relaxation from there), and
    /// whether the step lies inside the position before it (the bound then
    /// takes the least over the tokens that position may still take).
    bound_from: Vec<(usize, bool)>,
    /// Per line position and wild tokens left: the least bound inside the
    /// position before it ([`RobSweep::lower_bound`]) and the need it was
    /// asked with; `(0, 0)` where not yet asked.
    mid_least: Vec<(u64, u64)>,
    /// The cheapest whole turn met so far (at first the cost to beat): the
    /// search cuts every branch that cannot beat it, wherever it was found.
    found: u64,
    /// The states (with the cost of the transition into each) from the
    /// first step down to the one being solved.
    path: Vec<(State, u64)>,
    /// The path to the cheapest turn met: its states down to where its
    /// cost was known (the line's end, or a state whose exact value the
    /// memo held); the walk follows it, then the memo.
    found_path: Option<Vec<(State, u64)>>,
}

/// What the sweep found: a turn cheaper than the cost to beat (with its
/// cost), if any, and whether it is proven optimal (the search finished;
/// then no turn at all means none is cheaper).
pub(super) type SweepAnswer = (Option<(Robbed, u64)>, bool);

/// The best robbing turn by the sweep that costs less than `incumbent`,
/// when it applies: `None` when the rules or the table are outside what it
/// covers, or when `node_limit` (states with their transitions) or the
/// deadline stopped it before it met a cheaper turn (the branch and bound
/// then decides); else the cheapest turn it met, proven optimal unless it
/// was stopped.
pub(super) fn rob_by_sweep(
    p: &RobProblem,
    incumbent: u64,
    node_limit: u64,
) -> Option<Result<SweepAnswer, RearrangeError>> {
    let mut sw = RobSweep::new(p, incumbent, node_limit)?;
    if !p.tuning.sweep_relaxation {
        sw.relaxation = None;
    }
    let best = sw.deepen(incumbent, p.tuning.sweep_deepening);
    let proven = !sw.stopped;
    if proven {
        if best >= incumbent || best >= INF {
            return Some(Ok((None, true)));
        }
        // The walk follows the memo from the start.
        return Some(sw.walk(best, &[]).map(|r| (Some((r, best)), true)));
    }
    // Stopped: the cheapest turn met on the way, if any (a walk that
    // could not follow it would be a bug; the branch and bound then goes
    // on as if the sweep had met nothing); proven where it is at the floor.
    let path = sw.found_path.take()?;
    let target = sw.found;
    sw.walk(target, &path)
        .ok()
        .map(|r| Ok((Some((r, target)), target <= p.floor)))
}

impl<'p, 'a> RobSweep<'p, 'a> {
    /// The sweep for `p` with `incumbent` the cost to beat, within
    /// `node_limit`, or `None` where the rules or the table are outside
    /// what it covers (see the module doc).
    fn new(p: &'p RobProblem<'a>, incumbent: u64, node_limit: u64) -> Option<Self> {
        let rules = p.rules;
        let w = &rules.melds.wilds;
        if !(w.share == WildShare::Any
            && w.max_per_meld == Limit::None
            && w.adjacent
            && w.at_run_ends
            && !w.round_wild)
            || rules.melds.runs.wrap_around
        {
            return None;
        }
        let suits: Vec<Suit> = rules.deck.kind.suits().to_vec();
        if suits.len() > MAX_SUITS {
            return None;
        }
        let deck_ranks = rules.deck.kind.ranks();
        let has_ace = deck_ranks.contains(&Rank::Ace);
        let mut line = Vec::new();
        if has_ace && rules.melds.runs.ace_low {
            line.push(Rank::Ace);
        }
        line.extend(deck_ranks.iter().copied().filter(|&r| r != Rank::Ace));
        if has_ace && rules.melds.runs.ace_high {
            line.push(Rank::Ace);
        }
        let len = line.len();
        let ace_twice = len >= 2 && line[0] == line[len - 1];
        let mut ranks: Vec<Rank> = Vec::new();
        let mut rank_at = Vec::with_capacity(len);
        for &r in &line {
            let i = match ranks.iter().position(|&x| x == r) {
                Some(i) => i,
                None => {
                    ranks.push(r);
                    ranks.len() - 1
                }
            };
            rank_at.push(i);
        }
        // Aces that no run may hold still form sets: their rank needs a
        // position of its own for the sets' step.
        let rank_index = |r: Rank| ranks.iter().position(|&x| x == r);
        if deck_ranks.iter().any(|&r| rank_index(r).is_none()) {
            return None;
        }
        let first_pos: Vec<usize> = (0..ranks.len())
            .map(|i| rank_at.iter().position(|&x| x == i).unwrap_or(0))
            .collect();
        let last_pos: Vec<usize> = (0..ranks.len())
            .map(|i| rank_at.iter().rposition(|&x| x == i).unwrap_or(0))
            .collect();
        let suit_index = |s: Suit| suits.iter().position(|&x| x == s);
        let checker = p.checker;
        let min_len = u32::from(rules.melds.min_len);

        // The hand.
        let mut hand_count = [0u8; FACES];
        let mut hand_jokers = 0i8;
        for &c in p.hand {
            match c {
                CardKind::Joker => hand_jokers += 1,
                CardKind::Natural(f) => {
                    hand_count[f.index()] += 1;
                    if hand_count[f.index()] > MAX_COPIES - 1 {
                        return None;
                    }
                }
            }
        }
        let leave_of = |c: CardKind| u64::from(card_points(rules, c, p.round) + p.unit);
        let mut leave = [0u64; FACES];
        for &s in &suits {
            for &r in deck_ranks {
                let f = Face::new(r, s);
                leave[f.index()] = leave_of(CardKind::Natural(f));
            }
        }

        // The table.
        let mut runs_o: Vec<OrigRun> = Vec::new();
        let mut sets_o: Vec<OrigSet> = Vec::new();
        let mut copies = hand_count;
        for (m, meld) in p.table.iter().enumerate() {
            let naturals = meld.iter().filter(|c| !checker.is_wild(c.card)).count();
            if naturals < 2 || meld.len() > 15 {
                return None;
            }
            for c in meld.iter() {
                if let CardKind::Natural(f) = c.card {
                    copies[f.index()] += 1;
                    if copies[f.index()] > 2 {
                        return None;
                    }
                }
            }
            match p.kinds[m] {
                MeldKind::Run => {
                    let faces: Option<Vec<Face>> = meld.iter().map(|c| c.effective()).collect();
                    let faces = faces?;
                    let suit = suit_index(faces[0].suit)?;
                    let lo = (0..len).find(|&q| {
                        q + faces.len() <= len
                            && faces
                                .iter()
                                .enumerate()
                                .all(|(i, f)| line[q + i] == f.rank && f.suit == suits[suit])
                    })?;
                    let mut run = OrigRun::new(suit, lo, meld.clone(), checker, min_len)?;
                    run.swap_at = p
                        .swaps
                        .iter()
                        .find(|&&(sm, _)| sm == m)
                        .map(|&(_, i)| i)
                        .filter(|&i| {
                            i < meld.len() && !checker.is_wild(CardKind::Natural(faces[i]))
                        });
                    runs_o.push(run);
                }
                MeldKind::Set => {
                    let rank = meld
                        .iter()
                        .find(|c| !checker.is_wild(c.card))
                        .and_then(|c| c.card.face())?
                        .rank;
                    let rank = rank_index(rank)?;
                    let mut naturals = [0u8; MAX_SUITS];
                    for c in meld.iter().filter(|c| !checker.is_wild(c.card)) {
                        naturals[suit_index(c.card.face()?.suit)?] += 1;
                    }
                    let n = meld.len();
                    let all = (1u16 << n) - 1;
                    let mut options = Vec::new();
                    for kept in (0..=all).rev() {
                        let count = kept.count_ones();
                        let piece = kept != all && kept != 0;
                        if piece {
                            if count < min_len {
                                continue;
                            }
                            let cards: Vec<MeldCard> = (0..n)
                                .filter(|i| kept >> i & 1 == 1)
                                .map(|i| meld[i])
                                .collect();
                            if checker.check(&cards).is_err() {
                                continue;
                            }
                        }
                        let mut robbed = [0u8; MAX_SUITS];
                        let mut jokers = 0u8;
                        for (i, c) in meld.iter().enumerate() {
                            if kept >> i & 1 == 1 {
                                continue;
                            }
                            if checker.is_wild(c.card) {
                                jokers += 1;
                            } else {
                                robbed[suit_index(c.card.face()?.suit)?] += 1;
                            }
                        }
                        options.push(SetOption {
                            kept,
                            robbed,
                            jokers,
                            change: u64::from(piece),
                            all: kept == 0,
                        });
                    }
                    sets_o.push(OrigSet {
                        meld: m,
                        rank,
                        bit: 0,
                        naturals,
                        jokers: meld.iter().filter(|c| checker.is_wild(c.card)).count() as u32,
                        options,
                    });
                }
            }
        }
        if runs_o.len() > 32 {
            return None;
        }
        // Slots: original runs that share a position get different ones.
        let mut order: Vec<usize> = (0..runs_o.len()).collect();
        order.sort_by_key(|&i| runs_o[i].lo);
        let mut slot_free_from = [0usize; SLOTS];
        for i in order {
            let lo = runs_o[i].lo;
            let slot = (0..SLOTS).find(|&s| slot_free_from[s] <= lo)?;
            slot_free_from[slot] = runs_o[i].hi() + 1;
            runs_o[i].slot = slot;
        }
        // The exchanged versions.
        let mut runs_b: Vec<Option<OrigRun>> = Vec::with_capacity(runs_o.len());
        for o in &runs_o {
            let Some(at) = o.swap_at.filter(|&i| !o.natural[i]) else {
                runs_b.push(None);
                continue;
            };
            let face = o.cards[at].effective()?;
            let mut cards = o.cards.clone();
            cards[at] = MeldCard::plain(CardKind::Natural(face));
            let mut b = OrigRun::new(o.suit, o.lo, cards, checker, min_len)?;
            b.slot = o.slot;
            runs_b.push(Some(b));
        }
        let swaps = runs_b.iter().filter(|b| b.is_some()).count();
        // Not where claims on the exchanged versions would not fit their
        // payload, nor where an exchange asked for is not one the sweep
        // can make (the caller then searches each choice on its own).
        if swaps > 0 && runs_o.len() > B_OFFSET || swaps < p.swaps.len() {
            return None;
        }
        let mut runs_at: Vec<Vec<SmallVec<[usize; 2]>>> =
            vec![vec![SmallVec::new(); suits.len()]; len];
        for (i, r) in runs_o.iter().enumerate() {
            for at in &mut runs_at[r.lo..=r.hi()] {
                at[r.suit].push(i);
            }
        }
        let mut sets_of_rank = vec![Vec::new(); ranks.len()];
        for (i, s) in sets_o.iter_mut().enumerate() {
            let list: &mut Vec<usize> = &mut sets_of_rank[s.rank];
            if list.len() >= 8 {
                return None;
            }
            s.bit = list.len() as u8;
            list.push(i);
        }
        let max_j = runs_o
            .iter()
            .map(|r| r.jokers)
            .chain(sets_o.iter().map(|s| s.jokers))
            .max()
            .unwrap_or(0);
        if max_j > 6 {
            return None;
        }
        // Steps.
        let mut steps = Vec::new();
        let mut jokers_at = Vec::new();
        for q in 0..len {
            let r = rank_at[q];
            if first_pos[r] == q && !sets_of_rank[r].is_empty() {
                steps.push(Step::SetsIn(r));
                jokers_at.push(
                    sets_of_rank[r]
                        .iter()
                        .map(|&i| sets_o[i].jokers)
                        .sum::<u32>(),
                );
            }
            for (s, at) in runs_at[q].iter().enumerate() {
                steps.push(Step::Suit(q, s));
                jokers_at.push(
                    at.iter()
                        .filter(|&&i| !runs_o[i].natural[q - runs_o[i].lo])
                        .count() as u32,
                );
            }
            if last_pos[r] == q {
                steps.push(Step::SetsOut(r));
                jokers_at.push(0);
            }
        }
        steps.push(Step::End);
        jokers_at.push(0);
        let mut jokers_from = vec![0i8; steps.len() + 1];
        for k in (0..steps.len()).rev() {
            jokers_from[k] = jokers_from[k + 1] + jokers_at[k] as i8;
        }
        let max_set = match (rules.melds.sets.suits, rules.melds.sets.max_len.get()) {
            (_, Some(m)) => usize::from(m),
            (SetSuits::Distinct, None) => suits.len(),
            (SetSuits::Any, None) => 2 * suits.len() + 8,
        };
        // The relaxation of free rearrangement over all these cards bounds
        // what is still to come (on the same line).
        let table_jokers = jokers_from[0];
        let tokens = i16::from(hand_jokers) + i16::from(table_jokers);
        let mut optional = [0u8; FACES];
        optional.copy_from_slice(&hand_count);
        // What robbing asks of the melds still to come (a meld without a
        // hand card is a piece of one table meld), read by faces.
        let pieces = Pieces {
            hand: std::array::from_fn(|f| hand_count[f] > 0),
            hand_wild: hand_jokers > 0 || !p.swaps.is_empty(),
            melds: p
                .table
                .iter()
                .map(|meld| {
                    meld.iter()
                        .filter_map(|c| {
                            let wild = c.stands_for.is_some() || checker.is_wild(c.card);
                            c.stands_for
                                .or(c.card.face())
                                .map(|f| (f.index(), wild, false))
                        })
                        .collect()
                })
                .collect(),
        };
        let relaxation = p
            .solver
            .relaxation(
                copies,
                optional,
                p.unit,
                tokens as usize,
                (node_limit, p.deadline),
                Some(&pieces),
            )
            .filter(|r| {
                r.line.len() == len
                    && r.line
                        .iter()
                        .zip(&line)
                        .all(|(&f, &rank)| Face::from_index(f).is_some_and(|f| f.rank == rank))
            });
        // The hand faces that no original can take (with every wild token
        // there may be, as the naturals of the exchanges the sweep decides
        // join their run), per line position on: the changed melds they
        // force. Robbing keeps an original no more easily than free
        // rearrangement with the table's jokers handed out, whose rule
        // this is (its originals: the melds' naturals).
        let mut stuck_optional = hand_count;
        for &(m, i) in p.swaps {
            if let Some(f) = p
                .table
                .get(m)
                .and_then(|meld| meld.get(i))
                .and_then(|c| c.stands_for)
            {
                stuck_optional[f.index()] = 0;
            }
        }
        let originals: Vec<Vec<usize>> = p
            .table
            .iter()
            .map(|meld| {
                meld.iter()
                    .filter(|c| !checker.is_wild(c.card))
                    .filter_map(|c| c.card.face().map(|f| f.index()))
                    .collect()
            })
            .collect();
        // (Read by the relaxation's line positions: none without it.)
        let forced_from = match relaxation {
            Some(_) => p.solver.forced_changes_from(
                &copies,
                &stuck_optional,
                tokens.max(0) as usize + p.swaps.len(),
                &originals,
            ),
            None => [0; 16],
        };
        // Where a step's state lies at a position's start (the runs open
        // have taken their cards before it, none of its cards is used),
        // the relaxation bounds the cost from that position on; after a
        // rank's sets, from the next. Between two suits of a position (and
        // after a rank's original sets, before its suits) it bounds the
        // cost from the next position on, over every number of tokens the
        // rest of the position may still take (each may hold a run open
        // into the next; see `lower_bound`); not at a line's low ace, whose
        // later suits have yet to send their aces low.
        let bound_from: Vec<(usize, bool)> = steps
            .iter()
            .enumerate()
            .map(|(k, step)| match *step {
                Step::SetsIn(r) => (first_pos[r], false),
                Step::Suit(0, _) if ace_twice => (len, false),
                Step::Suit(q, 0) if k > 0 && matches!(steps[k - 1], Step::SetsIn(_)) => {
                    (q + 1, true)
                }
                Step::Suit(q, 0) => (q, false),
                Step::SetsOut(r) => (last_pos[r] + 1, false),
                Step::Suit(q, _) => (q + 1, true),
                Step::End => (len, false),
            })
            .collect();
        let mut claim_jokers_after = vec![vec![0u32; len]; suits.len()];
        let mut claim_possible_after = vec![0u8; len];
        for o in runs_o
            .iter()
            .chain(runs_b.iter().flatten())
            .filter(|o| o.claimable)
        {
            let start = (o.lo + o.first_nat).min(len - 1);
            for c in &mut claim_jokers_after[o.suit][..start] {
                *c = (*c).max(o.jokers);
            }
            for c in &mut claim_possible_after[..=start] {
                *c |= 1 << o.suit;
            }
        }
        let mut gaps_to_end = vec![vec![0u8; len + 1]; suits.len()];
        for (s, &suit) in suits.iter().enumerate() {
            for q in (0..len).rev() {
                let none = copies[Face::new(line[q], suit).index()] == 0;
                gaps_to_end[s][q] = gaps_to_end[s][q + 1] + u8::from(none);
            }
        }
        let memo_at = steps
            .iter()
            .map(|step| matches!(step, Step::SetsIn(_) | Step::Suit(_, 0)))
            .collect();
        Some(RobSweep {
            claim_possible_after,
            gaps_to_end,
            claim_jokers_after,
            p,
            line,
            suits,
            ranks,
            rank_at,
            first_pos,
            last_pos,
            steps,
            runs_o,
            runs_b,
            swaps: swaps as u8,
            sets_o,
            runs_at,
            sets_of_rank,
            hand_count,
            hand_jokers,
            joker_leave: leave_of(CardKind::Joker),
            leave,
            min_len,
            max_set,
            distinct: rules.melds.sets.suits == SetSuits::Distinct,
            all_wild: w.all_wild,
            ace_twice,
            tok_cap: max_j + 1,
            jokers_from,
            memo: Memo::default(),
            memo_at,
            walking: false,
            cards_only: false,
            cards_memo: Memo::default(),
            overflow: std::cell::Cell::new(false),
            succ_bufs: Vec::new(),
            sets_cache: Default::default(),
            suit_cache: Default::default(),
            record: false,
            nodes: 0,
            node_limit,
            states: 0,
            clock: Clock::new(p.deadline, CLOCK_EVERY),
            stopped: false,
            relaxation,
            tokens,
            forced_from,
            bound_from,
            mid_least: vec![(0, 0); mid_slot(tokens, len, tokens.clamp(0, 255) as u8) + 1],
            found: incumbent,
            path: Vec::new(),
            found_path: None,
        })
    }

    /// Switches between the search for the cards and points alone and the
    /// whole cost; the memo and the suit steps' listings (which hold
    /// claims on originals only for the whole cost) start anew.
    fn set_cards_only(&mut self, on: bool) {
        if self.cards_only != on {
            self.cards_only = on;
            if on {
                self.memo = Memo::default();
                self.cards_memo = Memo::default();
            } else {
                self.cards_memo = self.memo.clone();
                // What the cards alone cost is a lower bound on the whole
                // cost of the same state.
                self.memo.make_bounds();
            }
            self.suit_cache.borrow_mut().clear();
        }
    }

    /// The least cost of a whole turn when it is below `incumbent` (else a
    /// lower bound of at least `incumbent`), asked level by level when
    /// `deepen`: first for turns that leave no more cards than the floor,
    /// then one card more, and so on up to `incumbent`. Asked at once with
    /// a poor incumbent (the branch and bound's best where the hint
    /// failed), the search met its turns late and worked through every
    /// state below that cost until it did: on the slowest ~20 positions a
    /// level at a time took a third to three quarters of the states.
    ///
    /// Each level is first asked of the cards and points alone
    /// ([`RobSweep::cards_only`]: no changed melds, so no claims on
    /// originals, a half to a third of the states): where no turn leaves
    /// that few cards, the level is done; where one does, the least cost
    /// of its cards and points `m` is known, and the whole cost, searched
    /// next, lies below `m` plus the scale. The cards' values stay in the
    /// memo as lower bounds of the whole cost (BENCHMARKS.md, "Räuber
    /// robbing").
    fn deepen(&mut self, incumbent: u64, deepen: bool) -> u64 {
        // The least cost of a card left (`unit` with no points), and the
        // cost of leaving every hand card, past which levels say nothing.
        let card = u64::from(self.p.unit) * CHANGE_SCALE;
        let all_left = (self.p.hand.len() as u64 + 1).saturating_mul(card);
        let mut target = if deepen && card > 0 {
            (self.p.floor / card + 1) * card
        } else {
            incumbent
        };
        // The levels below the incumbent get three quarters of the work:
        // where they cannot finish (a large table whose floor is far below
        // any turn), the rest goes to one search for any turn that beats
        // the incumbent, as without levels, so that a stopped search still
        // hands over the cheapest turn it met. (With all the work, one ~40
        // position of `rearrange_stats` handed over nothing and kept a turn
        // placing 2 cards instead of 12; with half, three ~30 positions
        // lost what the levels had found or proven.)
        let limit = self.node_limit;
        self.node_limit = limit / 4 * 3;
        let mut cards_levels = deepen && card > 0;
        loop {
            let budget = if target > all_left {
                incumbent
            } else {
                target.min(incumbent)
            };
            if budget >= incumbent {
                self.node_limit = limit;
            }
            // The level is first asked of the cards and points alone: where
            // no turn leaves that few cards, it is done; else the least
            // cost of its cards bounds the whole cost's search.
            let mut cards_stopped = None;
            let mut full_budget = budget;
            if cards_levels {
                // (At the incumbent's level: its cards and points, or fewer.)
                let cards_budget = if budget < incumbent {
                    budget
                } else {
                    cards_part(incumbent).saturating_add(CHANGE_SCALE)
                };
                self.set_cards_only(true);
                self.found = cards_budget;
                let best = self.solve(0, &State::default(), cards_budget, 0);
                if self.stopped {
                    cards_stopped = Some(best);
                } else if self.found < cards_budget {
                    // The cheapest met is the least cost of the cards; the
                    // whole cost lies within the scale above it.
                    full_budget = budget.min(self.found + CHANGE_SCALE);
                } else if budget < incumbent {
                    target += card;
                    continue;
                } else {
                    // (Not even the incumbent's cards: nothing beats it.)
                    self.set_cards_only(false);
                    self.node_limit = limit;
                    return incumbent;
                }
            }
            let mut best = match cards_stopped {
                Some(best) => best,
                None => {
                    self.set_cards_only(false);
                    self.found = full_budget;
                    self.solve(0, &State::default(), full_budget, 0)
                }
            };
            if !self.stopped && best >= full_budget && full_budget < budget {
                // (The cards' cheapest turn is a whole turn that costs less
                // than `full_budget`, so this is not reached; were it, the
                // level is searched whole rather than answered wrong.)
                self.found = budget;
                best = self.solve(0, &State::default(), budget, 0);
            }
            if self.stopped
                && budget < incumbent
                && self.nodes > self.node_limit
                && self.found > self.p.floor
            {
                // Out of the levels' work (not stopped by the deadline, an
                // overflow or a turn met at the floor, see `met`): the rest
                // at once, the whole cost only.
                self.stopped = false;
                target = incumbent;
                cards_levels = false;
                continue;
            }
            if self.stopped || best < budget || budget >= incumbent {
                self.node_limit = limit;
                self.set_cards_only(false);
                return best;
            }
            target += card;
        }
    }

    /// Least cost from step `k` in state `st` to the end when it is below
    /// `budget`; otherwise a lower bound on it of at least `budget`. Memo
    /// entries marked [`BOUND`] are such lower bounds. `acc`: the cost of
    /// the path to this state ([`RobSweep::path`]); the budget is cut to
    /// what beats the cheapest turn met so far ([`RobSweep::found`]), and
    /// a turn cheaper than that is kept for the walk.
    fn solve(&mut self, k: usize, st: &State, budget: u64, acc: u64) -> u64 {
        self.solve_bounded(k, st, budget, acc, None)
    }

    /// [`RobSweep::solve`], with the state's lower bound when the caller
    /// has worked it out already (asked with the same budget).
    fn solve_bounded(
        &mut self,
        k: usize,
        st: &State,
        budget: u64,
        acc: u64,
        known: Option<u64>,
    ) -> u64 {
        if let Step::End = self.steps[k] {
            let c = self.end_cost(st).map_or(INF, |(c, _)| c);
            self.met(acc, c);
            return c;
        }
        let key = (k as u16, *st);
        let memo = self.memo_at[k];
        if let Some(c) = memo.then(|| self.memo.get(key)).flatten() {
            if c & BOUND == 0 {
                self.met(acc, c);
                return c;
            }
            if c & !BOUND >= budget {
                return c & !BOUND;
            }
        }
        if self.stopped {
            return INF;
        }
        // Only what beats the cheapest turn met is worth finding (as the
        // caller's own budget is cut likewise, a value at or above this
        // budget is taken for the bound it is).
        let mut budget = budget.min(self.worth(acc));
        let mut lb = match known {
            Some(lb) => lb,
            None => self.lower_bound(k, st, budget),
        };
        if memo && lb < budget && !self.cards_only {
            lb = lb.max(self.cards_bound(k, st));
        }
        if lb >= budget {
            // Not kept in the memo: worked out again as cheaply as looked
            // up, and most states end here (keeping them made the memo of
            // the slowest ~20 positions grow and probe in far more memory).
            return lb;
        }
        if self.succ_bufs.len() <= k {
            self.succ_bufs.resize_with(k + 1, Vec::new);
        }
        let mut successors = std::mem::take(&mut self.succ_bufs[k]);
        self.successors_into(k, st, &mut successors);
        // A state with its transitions is worth about that many nodes of
        // the branch and bound (their limit is shared).
        self.nodes += 1 + successors.len() as u64;
        self.states += 1;
        if !self.walking
            && (self.nodes > self.node_limit
                || self.overflow.get()
                || self.clock.passed(self.states))
        {
            self.stopped = true;
            self.succ_bufs[k] = successors;
            return INF;
        }
        let mut best = INF;
        // The least lower bound of the transitions cut by the budget.
        let mut cut = INF;
        for &(next, delta, _) in &successors {
            budget = budget.min(self.worth(acc));
            let limit = best.min(budget);
            if delta >= limit {
                cut = cut.min(delta);
                continue;
            }
            // The transition's bound first: most end there, and are not
            // worth a step down (nor, where the memo keeps them, a lookup).
            let lb = self.lower_bound(k + 1, &next, limit - delta);
            if delta + lb >= limit {
                cut = cut.min(delta + lb);
                continue;
            }
            self.path.push((next, delta));
            let c = delta + self.solve_bounded(k + 1, &next, limit - delta, acc + delta, Some(lb));
            self.path.pop();
            if c < best {
                best = c;
            }
        }
        self.succ_bufs[k] = successors;
        if self.stopped {
            return INF;
        }
        budget = budget.min(self.worth(acc));
        if best < budget {
            if memo {
                self.memo.insert(key, best);
            }
            best
        } else {
            let lb = best.min(cut).max(budget).min(INF);
            if memo {
                self.memo.insert(key, lb | BOUND);
            }
            lb
        }
    }

    /// A lower bound on the whole cost from step `k` in `st` from what the
    /// cards-only search found for the same state without its claims on
    /// originals (claims only change the changed melds, which that search
    /// does not count): 0 where it holds nothing.
    fn cards_bound(&self, k: usize, st: &State) -> u64 {
        let mut proj = *st;
        let mut any = false;
        for run in proj.runs.runs[..usize::from(proj.runs.len)].iter_mut() {
            if run.claim().0 != CLAIM_NONE {
                *run = run.without_claim();
                any = true;
            }
        }
        if any {
            let n = usize::from(proj.runs.len);
            proj.runs.runs[..n].sort_unstable();
        }
        self.cards_memo
            .get((k as u16, proj))
            .map_or(0, |c| c & !BOUND)
    }

    /// The most a state reached at cost `acc` is worth searching for: one
    /// more than what keeps a turn through it from costing more than the
    /// cheapest met (ties pass, so the states along that turn keep exact
    /// values for the walk).
    fn worth(&self, acc: u64) -> u64 {
        self.found.saturating_sub(acc).saturating_add(1)
    }

    /// A whole turn along the current path costs `acc + rest` (`rest` exact:
    /// the line's end, or a value the memo holds): keep it when it beats
    /// the cheapest met so far.
    fn met(&mut self, acc: u64, rest: u64) {
        let total = acc.saturating_add(rest);
        if self.cards_only {
            // No turn to keep: the cost of the cards is what is asked.
            self.found = self.found.min(total);
            return;
        }
        if total < self.found {
            self.found = total;
            self.found_path = Some(self.path.clone());
            // A turn at the floor is optimal: the search stops as a limit
            // stops it, and hands over this turn (its walk follows the
            // path). Searching on for ties cost the ~30 positions whose
            // best the sweep finds at the floor up to twice the time
            // (seed 9 of `rearrange_stats`: 38 -> 19 ms).
            if total <= self.p.floor && !self.walking {
                self.stopped = true;
            }
        }
    }

    /// A lower bound on the cost from step `k` on: the relaxation's for the
    /// cards still to come.
    fn lower_bound(&mut self, k: usize, st: &State, need: u64) -> u64 {
        let (changes, rest) = self.bound_parts(k, st, need);
        let base = changes + rest;
        if self.cards_only || base >= need {
            return base;
        }
        // The hand cards still to come that no original can take end in
        // changed melds still to come, at least `forced` of them (the
        // changes certain so far may be some), unless they stay in the
        // hand: `l` of them left cost at least `l` cards (the relaxation's
        // `rest` may hold them) and leave at least `forced - l` changes.
        let forced = self
            .forced_from
            .get(self.bound_from[k].0)
            .copied()
            .unwrap_or(0);
        if forced <= changes {
            return base;
        }
        // (The least cost of a card left: its unit, no points.)
        let card = u64::from(self.p.unit) * CHANGE_SCALE;
        let mut least = u64::MAX;
        for l in 0..=forced - changes {
            let cards = rest.max(l.saturating_mul(card));
            least = least.min(cards.saturating_add(changes.max(forced - l)));
        }
        least
    }

    /// [`RobSweep::lower_bound`] without the changed melds that hand cards
    /// force: the changed melds certain to come and the relaxation's bound
    /// for the cards still to come (0 where it has none).
    fn bound_parts(&mut self, k: usize, st: &State, need: u64) -> (u64, u64) {
        // Changed melds certain to come: pieces being kept (a piece is a
        // changed meld) and open runs that hold no original and can no
        // longer start to.
        let q = match self.steps[k] {
            Step::SetsIn(r) => self.first_pos[r],
            Step::Suit(q, _) => q,
            Step::SetsOut(r) => self.last_pos[r],
            Step::End => return (0, 0),
        };
        // (A slot's top bit is `O_BLOCK`.)
        let mut changes = 0;
        if !self.cards_only {
            changes = u64::from((st.orig & 0x8080_8080_8080_8080).count_ones());
            let claimable = self.claim_possible_after[q];
            for run in st.runs.iter() {
                if run.claim().0 == CLAIM_NONE && claimable >> run.suit() & 1 == 0 {
                    changes += 1;
                }
            }
        }
        if changes >= need {
            return (changes, 0);
        }
        let (p, mid) = self.bound_from[k];
        let Some(relax) = self.relaxation.as_mut() else {
            return (changes, 0);
        };
        if p >= self.line.len() {
            return (changes, 0);
        }
        let left = (i16::from(self.hand_jokers)
            + i16::from(st.x)
            + i16::from(self.jokers_from[k])
            + i16::from(st.ace_kept_jokers)
            - i16::from(st.d))
        .clamp(0, self.tokens) as u8;
        // (Gathered in a word, not stored a byte at a time: the relaxation
        // reads the five bytes back as wider words, which a processor
        // cannot forward from byte stores; that stall was a fifth of this
        // function's time.)
        let mut packed = 0u64;
        if st.aces_low != 0 {
            for (s, suit) in self.suits.iter().enumerate() {
                packed |= u64::from(st.aces_low >> (3 * s) & 7) << (8 * suit.index());
            }
        }
        let b = packed.to_le_bytes();
        let aces_low = [b[0], b[1], b[2], b[3], b[4]];
        if !mid {
            return (changes, relax.bound(p, left, aces_low, need - changes));
        }
        // Inside the position before `p`: the tokens its later suits (and
        // its sets) take leave fewer for the cards ahead, but each may hold
        // one more run open into them (the relaxation counts the runs open
        // at `p` by the tokens used before it), so the least over them.
        // That least, kept per position and tokens where no ace went low
        // (the same for most states inside a position): exact below the
        // need it was asked with, else at least that need.
        let slot = (st.aces_low == 0).then(|| mid_slot(self.tokens, p, left));
        let need = need - changes;
        if let Some(&(least, asked)) = slot.and_then(|i| self.mid_least.get(i)) {
            if least < asked || least >= need {
                return (changes, least);
            }
        }
        let mut least = u64::MAX;
        for t in 0..=left {
            least = least.min(relax.bound(p, left - t, aces_low, need));
            if least == 0 {
                break;
            }
        }
        if let Some(entry) = slot.and_then(|i| self.mid_least.get_mut(i)) {
            *entry = (least, need);
        }
        (changes, least)
    }

    /// Whether a state may still settle its tokens: the hand jokers placed
    /// cannot exceed the hand's once the table jokers still to come are
    /// robbed, and hand jokers owed cannot exceed the hand's.
    fn tokens_ok(&self, k: usize, st: &State) -> bool {
        let hj = i16::from(self.hand_jokers) + i16::from(st.x);
        i16::from(st.d) <= hj + i16::from(self.jokers_from[k])
            && i16::from(st.f) <= i16::from(self.hand_jokers) + i16::from(self.swaps)
    }

    fn successors(&self, k: usize, st: &State) -> Vec<Succ> {
        let mut out = Vec::new();
        self.successors_into(k, st, &mut out);
        out
    }

    /// The transitions from step `k` in state `st`, in the order the
    /// search tries them, in `out` (whatever it held is cleared: a buffer
    /// kept for its room).
    fn successors_into(&self, k: usize, st: &State, out: &mut Vec<Succ>) {
        out.clear();
        match self.steps[k] {
            Step::SetsIn(r) => self.sets_in(r, st, out),
            Step::Suit(q, s) => self.suit_step(q, s, st, out),
            Step::SetsOut(r) => self.sets_out(r, st, out),
            Step::End => {}
        }
        out.retain(|(next, _, _)| self.tokens_ok(k + 1, next));
        if self.cards_only {
            for (_, delta, _) in out.iter_mut() {
                *delta = cards_part(*delta);
            }
        }
    }

    /// The rank's pool and whole-set mask live here or, for the ace
    /// between its two positions, in the ace's fields.
    fn twice(&self, r: usize) -> bool {
        self.first_pos[r] != self.last_pos[r]
    }

    fn sets_in(&self, r: usize, st: &State, out: &mut Vec<Succ>) {
        let sets = &self.sets_of_rank[r];
        let mut choice: SmallVec<[u8; 4]> = SmallVec::from_elem(0, sets.len());
        loop {
            let mut next = *st;
            let mut pool = if self.twice(r) { st.ace_pool } else { st.pool };
            let mut whole = 0u8;
            let mut change = 0;
            let mut ok = true;
            for (j, &i) in sets.iter().enumerate() {
                let o = self.sets_o[i].options[usize::from(choice[j])];
                for s in 0..self.suits.len() {
                    let (inr, hl, rl) = pool_get(pool, s);
                    let inr = inr + o.robbed[s];
                    if inr > MAX_COPIES {
                        ok = false;
                    }
                    pool = pool_set(pool, s, (inr.min(MAX_COPIES), hl, rl));
                }
                next.d -= o.jokers as i8;
                change += o.change;
                if o.all {
                    whole |= 1 << self.sets_o[i].bit;
                }
            }
            if ok {
                if self.twice(r) {
                    next.ace_pool = pool;
                    next.ace_whole = whole;
                    next.ace_kept_jokers = sets
                        .iter()
                        .enumerate()
                        .map(|(j, &i)| {
                            let o = &self.sets_o[i];
                            o.jokers as u8 - o.options[usize::from(choice[j])].jokers
                        })
                        .sum();
                } else {
                    next.pool = pool;
                    next.whole = whole;
                }
                let action = self
                    .record
                    .then(|| Box::new(Action::SetsIn(choice.clone())));
                out.push((next, change, action));
            }
            // Next combination.
            let mut j = 0;
            loop {
                if j == sets.len() {
                    return;
                }
                choice[j] += 1;
                if usize::from(choice[j]) < self.sets_o[sets[j]].options.len() {
                    break;
                }
                choice[j] = 0;
                j += 1;
            }
        }
    }

    /// Whether some open run follows original run `m`.
    /// Whether a run follows original run `m` (or its exchanged version).
    fn followed(&self, runs: &[Run], m: usize) -> bool {
        let b = (self.swaps > 0).then_some((m + B_OFFSET) as u32);
        runs.iter().any(|r| {
            let (kind, payload) = r.claim();
            kind == CLAIM_FOLLOW && (payload == m as u32 || Some(payload) == b)
        })
    }

    /// The exchanged version of original run `m` (a claim's payload) when
    /// its exchangeable joker lies after its last natural.
    fn trailing_swap(&self, m: usize) -> Option<&OrigRun> {
        if self.swaps == 0 || m >= B_OFFSET {
            return None;
        }
        let o = &self.runs_o[m];
        self.runs_b[m]
            .as_ref()
            .filter(|_| o.swap_at.is_some_and(|i| i > o.last_nat))
    }

    /// The original run a claim's payload names: an original run, or
    /// (from [`B_OFFSET`] on, where the hand may exchange) the exchanged
    /// version of one.
    fn claim_orig(&self, payload: u32) -> &OrigRun {
        let i = payload as usize;
        if self.swaps > 0 && i >= B_OFFSET {
            if let Some(Some(b)) = self.runs_b.get(i - B_OFFSET) {
                return b;
            }
        }
        &self.runs_o[i]
    }

    fn suit_step(&self, q: usize, s: usize, st: &State, out: &mut Vec<Succ>) {
        let origs = &self.runs_at[q][s];
        let block = st.runs.block(s);
        let mine = &st.runs[block.0..block.1];
        if self.record || origs.len() > 8 || mine.len() > SUIT_KEY_RUNS {
            self.suit_step_listed(q, s, st, out);
            return;
        }
        let twice = self.twice(self.rank_at[q]);
        let pool_of = |st: &State| pool_word(if twice { st.ace_pool } else { st.pool }, s);
        // (Only a run of the suit can follow one of its originals.)
        let mut followed = 0u8;
        for (j, &m) in origs.iter().enumerate() {
            followed |= u8::from(self.followed(mine, m)) << j;
        }
        let codes = self.orig_codes(origs, st.orig);
        let key = SuitKey::new(q, s, mine, codes, followed, pool_of(st), st.d);
        let mut cache = self.suit_cache.borrow_mut();
        let moves = match cache.get(&key) {
            Some(moves) => moves,
            None => {
                // Listed from the state with the suit's runs alone (the
                // others only pass through), and kept as what changed.
                let mut alone = *st;
                match Runs::sorted(mine) {
                    Some(runs) => alone.runs = runs,
                    None => {
                        self.overflow.set(true);
                        return;
                    }
                }
                let mut listed = Vec::new();
                self.suit_step_listed(q, s, &alone, &mut listed);
                let moves: Box<[SuitMove]> = listed
                    .iter()
                    .map(|(next, change, _)| SuitMove {
                        codes: self.orig_codes(origs, next.orig),
                        pool: pool_of(next),
                        d: next.d,
                        f_added: next.f - st.f,
                        x_added: next.x - st.x,
                        aces_low: next.aces_low >> (3 * s) & 7,
                        runs: next.runs.iter().copied().collect(),
                        change: *change,
                    })
                    .collect();
                cache.entry(key).or_insert(moves)
            }
        };
        for mv in moves.iter() {
            // Built where it is kept (a state is ~100 bytes, and building it
            // elsewhere read back the runs just written piecewise).
            out.push((*st, mv.change, None));
            let Some((next, _, _)) = out.last_mut() else {
                return;
            };
            if !next.runs.set_block(block, &mv.runs) {
                out.pop();
                self.overflow.set(true);
                return;
            }
            for (j, &m) in origs.iter().enumerate() {
                let slot = self.runs_o[m].slot;
                next.orig = orig_set(next.orig, slot, (mv.codes >> (8 * j)) as u8);
            }
            if twice {
                next.ace_pool = pool_with_word(next.ace_pool, s, mv.pool);
            } else {
                next.pool = pool_with_word(next.pool, s, mv.pool);
            }
            next.d = mv.d;
            next.f = st.f + mv.f_added;
            next.x = st.x + mv.x_added;
            if q == 0 && self.ace_twice {
                next.aces_low = (next.aces_low & !(7 << (3 * s))) | mv.aces_low << (3 * s);
            }
        }
    }

    /// The states of original runs `origs` (at most eight) in `orig`, 8 bits
    /// each in their order.
    fn orig_codes(&self, origs: &[usize], orig: u64) -> u64 {
        origs.iter().enumerate().fold(0, |codes, (j, &m)| {
            codes | u64::from(orig_get(orig, self.runs_o[m].slot)) << (8 * j)
        })
    }

    /// [`RobSweep::suit_step`]'s transitions, listed from the state.
    fn suit_step_listed(&self, q: usize, s: usize, st: &State, out: &mut Vec<Succ>) {
        let r = self.rank_at[q];
        let face = Face::new(self.line[q], self.suits[s]);
        let origs = &self.runs_at[q][s];
        // Each original run keeps or gives up its card here.
        let n = origs.len();
        // The suit's open runs (they act here) and the others (they pass).
        let mine: SmallVec<[Run; 8]> = st.runs.iter().copied().filter(|x| x.suit() == s).collect();
        let others: SmallVec<[Run; 8]> =
            st.runs.iter().copied().filter(|x| x.suit() != s).collect();
        // The originals whose exchangeable joker lies here (a bit each).
        let mut swappable = 0u32;
        for (j, &m) in origs.iter().enumerate() {
            let o = &self.runs_o[m];
            if o.swap_at == Some(q - o.lo)
                && self.runs_b[m].is_some()
                && orig_get(st.orig, o.slot) & O_NOSWAP == 0
            {
                swappable |= 1 << j;
            }
        }
        // Which of them exchange: every subset, none first.
        let mut subsets: SmallVec<[u32; 4]> = SmallVec::new();
        let mut sub = swappable;
        loop {
            subsets.push(sub);
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & swappable;
        }
        subsets.reverse();
        // Keeping first: the listing's order is the search's; exchanging
        // after not exchanging.
        for (mask, swap) in (0..1u32 << n)
            .rev()
            .flat_map(|mask| subsets.iter().map(move |&x| (mask, x)))
        {
            let mut orig = st.orig;
            let mut robbed_nat = 0u8;
            let mut robbed_jok = 0i8;
            let mut change = 0u64;
            let mut claimable: SmallVec<[usize; 2]> = SmallVec::new();
            let mut kept: SmallVec<[bool; 4]> = SmallVec::new();
            let mut swap_robbed = 0u32;
            let mut ok = true;
            for (j, &m) in origs.iter().enumerate() {
                let i = q - self.runs_o[m].lo;
                let keep = mask >> j & 1 == 1;
                let swapped = swap >> j & 1 == 1;
                kept.push(keep);
                let code = orig_get(orig, self.runs_o[m].slot);
                // The exchanged version from the exchange on.
                let flag = (code & (O_SWAPPED | O_NOSWAP)) | if swapped { O_SWAPPED } else { 0 };
                let code = code & !(O_SWAPPED | O_NOSWAP);
                let o = match (flag & O_SWAPPED != 0, &self.runs_b[m]) {
                    (true, Some(b)) => b,
                    _ => &self.runs_o[m],
                };
                if self.followed(&st.runs, m) && keep {
                    ok = false;
                    break;
                }
                let mut new = match (code, keep, i) {
                    (_, true, 0) => O_WHOLE,
                    (_, false, 0) => O_ROBBED,
                    (O_WHOLE, true, _) | (O_ROBBED, false, _) | (O_GAP, false, _) => code,
                    (O_WHOLE, false, _) => {
                        if !o.piece_ok[0][i - 1] {
                            ok = false;
                            break;
                        }
                        change += 1;
                        O_GAP
                    }
                    (O_ROBBED | O_GAP, true, _) => O_BLOCK | i as u8,
                    (c, true, _) if c & O_BLOCK != 0 => c,
                    (c, false, _) if c & O_BLOCK != 0 => {
                        if !o.piece_ok[usize::from(c & O_START)][i - 1] {
                            ok = false;
                            break;
                        }
                        change += 1;
                        O_GAP
                    }
                    _ => {
                        ok = false;
                        break;
                    }
                };
                if !keep {
                    if o.natural[i] {
                        robbed_nat += 1;
                    } else {
                        robbed_jok += 1;
                    }
                    if swapped {
                        swap_robbed |= 1 << m;
                    }
                }
                if i == o.first_nat && new == O_ROBBED && o.claimable && !self.cards_only {
                    claimable.push(if flag & O_SWAPPED != 0 {
                        m + B_OFFSET
                    } else {
                        m
                    });
                }
                if q == o.hi() {
                    if new & O_BLOCK != 0 {
                        if !o.piece_ok[usize::from(new & O_START)][i] {
                            ok = false;
                            break;
                        }
                        change += 1;
                    }
                    new = O_IDLE;
                } else {
                    new |= flag;
                }
                orig = orig_set(orig, o.slot, new);
            }
            if !ok {
                continue;
            }
            let twice = self.twice(r);
            let pool = if twice { st.ace_pool } else { st.pool };
            let (inr, hl, rl) = pool_get(pool, s);
            let h_av = if q == self.first_pos[r] {
                self.hand_count[face.index()]
            } else {
                hl
            };
            // An exchange takes the natural from the hand.
            let swaps = swap.count_ones() as u8;
            let Some(h_av) = h_av.checked_sub(swaps) else {
                continue;
            };
            let r_av = inr + rl + robbed_nat;
            let mut base = *st;
            base.orig = orig;
            base.d -= robbed_jok;
            base.x += swaps;
            let ctx = SuitCtx {
                q,
                s,
                twice,
                kept,
                claimable,
                swapped: swap,
                swap_robbed,
            };
            let mut acts: SmallVec<[Act; 8]> = SmallVec::new();
            let mut built = others.clone();
            let res = Res {
                h: h_av,
                r: r_av,
                d: base.d,
                f: base.f,
                change,
                claimed: 0,
                lock: 0,
            };
            self.runs_rec(&ctx, &base, &mine, 0, 0, res, &mut acts, &mut built, out);
        }
    }

    /// The actions of open run `j` of the suit, then of the ones after it,
    /// then the new runs. `min_code` keeps equal runs' actions in order.
    #[allow(clippy::too_many_arguments)]
    fn runs_rec(
        &self,
        ctx: &SuitCtx,
        base: &State,
        mine: &[Run],
        j: usize,
        min_code: u32,
        res: Res,
        acts: &mut SmallVec<[Act; 8]>,
        built: &mut SmallVec<[Run; 8]>,
        out: &mut Vec<Succ>,
    ) {
        let Some(&run) = mine.get(j) else {
            self.starts_rec(ctx, base, 0, res, acts, built, out);
            return;
        };
        let same_next = mine.get(j + 1) == Some(&run);
        let q = ctx.q;
        let last = self.line.len() - 1;
        let mut try_act = |code: u32, act: Act, claim: Option<usize>, this: &Self| {
            if code < min_code {
                return;
            }
            let next_min = if same_next { code } else { 0 };
            let mut res = res;
            if act == Act::End {
                if run.to_end() {
                    return;
                }
                let Some((change, f_inc)) = this.end_run(run) else {
                    return;
                };
                res.change += change;
                res.f += f_inc;
                acts.push(act);
                this.runs_rec(ctx, base, mine, j + 1, next_min, res, acts, built, out);
                acts.pop();
                return;
            }
            if run.from0() && q == last {
                return;
            }
            let Some(grown) = this.take(run, act, claim, q, &mut res) else {
                return;
            };
            acts.push(act);
            built.push(grown);
            this.runs_rec(ctx, base, mine, j + 1, next_min, res, acts, built, out);
            built.pop();
            acts.pop();
        };
        let (kind, payload) = run.claim();
        if kind == CLAIM_FOLLOW {
            // Its original's joker here exchanged and robbed: the run
            // takes the natural, and follows the exchanged version.
            if ctx.swap_robbed >> payload & 1 == 1 {
                try_act(2, Act::Rob, Some(payload as usize + B_OFFSET), self);
                return;
            }
            let o = self.claim_orig(payload);
            // Following an exchanged version to the exchanged natural: only
            // where the hand exchanges the joker here.
            if payload as usize >= B_OFFSET
                && self.swaps > 0
                && Some(q - o.lo) == self.runs_o[payload as usize - B_OFFSET].swap_at
                && ctx.swap_robbed >> (payload as usize - B_OFFSET) & 1 == 0
            {
                return;
            }
            if o.natural[q - o.lo] {
                try_act(2, Act::Rob, None, self);
                // At the last natural before an exchangeable joker: held
                // whole as it is (and the joker no longer exchanged), or
                // followed on to the exchanged natural.
                if let Some(b) = self.trailing_swap(payload as usize) {
                    if q == o.lo + o.last_nat && b.claimable {
                        try_act(4, Act::Rob, Some(payload as usize + B_OFFSET), self);
                    }
                }
            } else {
                try_act(1, Act::Hand, None, self);
                try_act(2, Act::Rob, None, self);
                try_act(3, Act::Tok, None, self);
            }
            return;
        }
        try_act(1, Act::Hand, None, self);
        try_act(2, Act::Rob, None, self);
        try_act(3, Act::Tok, None, self);
        try_act(0, Act::End, None, self);
        if kind == CLAIM_NONE {
            for (c, &m) in ctx.claimable.iter().enumerate() {
                try_act(4 + c as u32, Act::Rob, Some(m), self);
            }
        }
    }

    /// Run `run` takes a card here (`act`), perhaps starting to follow
    /// original run `claim`. `None` when the resources do not allow it.
    fn take(
        &self,
        run: Run,
        act: Act,
        claim: Option<usize>,
        q: usize,
        res: &mut Res,
    ) -> Option<Run> {
        let (mut hand, mut nat, mut tok) = (run.hand(), run.nat(), run.tok());
        match act {
            Act::Hand => {
                res.h = res.h.checked_sub(1)?;
                hand = true;
                nat = true;
            }
            Act::Rob => {
                res.r = res.r.checked_sub(1)?;
                nat = true;
            }
            Act::Tok => {
                res.d = res.d.checked_add(1)?;
                tok = (tok + 1).min(self.tok_cap);
            }
            Act::End => return None,
        }
        let mut c = run.claim();
        if let Some(m) = claim {
            if res.claimed >> m & 1 == 1 {
                return None;
            }
            res.claimed |= 1 << m;
            c = (CLAIM_FOLLOW, m as u32);
        }
        if c.0 == CLAIM_FOLLOW && {
            let o = self.claim_orig(c.1);
            o.lo + o.last_nat == q
        } {
            if self.trailing_swap(c.1 as usize).is_some() {
                res.lock |= 1 << c.1;
            }
            c = (CLAIM_HELD, self.claim_orig(c.1).jokers);
        }
        // Tokens count only for a hand joker (a run without a hand
        // natural) and for holding an original; whether a natural is in it,
        // only where melds of wild cards alone are not allowed.
        let need = match c.0 {
            CLAIM_NONE => self.claim_jokers_after[run.suit()][q],
            CLAIM_FOLLOW => self.claim_orig(c.1).jokers,
            _ => c.1,
        };
        let tok = tok.min(need + u32::from(!hand));
        let nat = nat || self.all_wild;
        Some(Run::new(
            run.suit(),
            (run.len() + 1).min(self.min_len),
            hand,
            nat,
            tok,
            c,
            run.to_end(),
            run.from0(),
        ))
    }

    /// A run ends: `(changed meld or not, hand joker owed)`, or `None`
    /// when it may not end.
    fn end_run(&self, run: Run) -> Option<(u64, u8)> {
        if run.len() < self.min_len || !(run.nat() || self.all_wild) {
            return None;
        }
        let (kind, need) = run.claim();
        if kind == CLAIM_FOLLOW {
            return None;
        }
        let (owed, spare) = if run.hand() {
            (0, run.tok())
        } else if run.tok() >= 1 {
            (1, run.tok() - 1)
        } else {
            return None;
        };
        let held = kind == CLAIM_HELD && spare >= need;
        Some((u64::from(!held), owed))
    }

    /// New runs starting here, in the order hand, robbed, token (each
    /// perhaps following an original that starts here); then the rest of
    /// the copies goes to the rank's pool.
    #[allow(clippy::too_many_arguments)]
    fn starts_rec(
        &self,
        ctx: &SuitCtx,
        base: &State,
        min_code: u32,
        res: Res,
        acts: &mut SmallVec<[Act; 8]>,
        built: &mut SmallVec<[Run; 8]>,
        out: &mut Vec<Succ>,
    ) {
        // Done: the copies left go to the pool.
        self.finish_suit(ctx, base, res, acts, built, out);
        let q = ctx.q;
        let len = self.line.len();
        if (len - q) < self.min_len as usize {
            return;
        }
        let from0 = self.ace_twice && q == 0;
        let empty =
            |to_end: bool| Run::new(ctx.s, 0, false, false, 0, (CLAIM_NONE, 0), to_end, from0);
        let mut options: SmallVec<[(u32, Act, Option<usize>); 12]> = SmallVec::new();
        options.push((1, Act::Hand, None));
        options.push((2, Act::Rob, None));
        options.push((3, Act::Tok, None));
        for (c, &m) in ctx.claimable.iter().enumerate() {
            options.push((4 + c as u32, Act::Rob, Some(m)));
        }
        for (code, act, claim) in options {
            if code < min_code {
                continue;
            }
            let to_end = act == Act::Tok;
            // A run that starts with a token runs to the line's end: where
            // no copy of its suit is left, a token each.
            if to_end
                && i16::from(self.gaps_to_end[ctx.s][q]) + i16::from(res.d)
                    > i16::from(self.hand_jokers) + i16::from(self.jokers_from[0])
            {
                continue;
            }
            let mut res = res;
            let Some(run) = self.take(empty(to_end), act, claim, q, &mut res) else {
                continue;
            };
            acts.push(act);
            built.push(run);
            self.starts_rec(ctx, base, code, res, acts, built, out);
            built.pop();
            acts.pop();
        }
    }

    fn finish_suit(
        &self,
        ctx: &SuitCtx,
        base: &State,
        res: Res,
        acts: &SmallVec<[Act; 8]>,
        built: &SmallVec<[Run; 8]>,
        out: &mut Vec<Succ>,
    ) {
        let mut next = *base;
        let pool = if ctx.twice { base.ace_pool } else { base.pool };
        let pool = pool_set(pool, ctx.s, (0, res.h, res.r.min(MAX_COPIES)));
        if res.r > MAX_COPIES {
            return;
        }
        if ctx.twice {
            next.ace_pool = pool;
        } else {
            next.pool = pool;
        }
        next.d = res.d;
        next.f = res.f;
        let mut lock = res.lock;
        while lock != 0 {
            let slot = self.runs_o[lock.trailing_zeros() as usize].slot;
            next.orig = orig_set(next.orig, slot, orig_get(next.orig, slot) | O_NOSWAP);
            lock &= lock - 1;
        }
        if ctx.q == 0 && self.ace_twice {
            // Aces placed low: taken by runs here, or kept in original runs.
            let taken = acts
                .iter()
                .filter(|&&a| matches!(a, Act::Hand | Act::Rob))
                .count();
            let kept = self.runs_at[0][ctx.s]
                .iter()
                .zip(&ctx.kept)
                .enumerate()
                .filter(|&(j, (&m, &k))| {
                    k && (self.runs_o[m].natural[0] || ctx.swapped >> j & 1 == 1)
                })
                .count();
            let n = (taken + kept).min(7) as u16;
            next.aces_low = (next.aces_low & !(7 << (3 * ctx.s))) | n << (3 * ctx.s);
        }
        let Some(runs) = Runs::sorted(built) else {
            self.overflow.set(true);
            return;
        };
        next.runs = runs;
        let action = self.record.then(|| {
            Box::new(Action::Suit {
                kept: ctx.kept.clone(),
                swapped: ctx.swapped,
                acts: acts.clone(),
                built: built.clone(),
            })
        });
        out.push((next, res.change, action));
    }

    fn sets_out(&self, r: usize, st: &State, out: &mut Vec<Succ>) {
        let twice = self.twice(r);
        let pool = if twice { st.ace_pool } else { st.pool };
        let whole = if twice { st.ace_whole } else { st.whole };
        let ns = self.suits.len();
        let mut rob = [0u8; MAX_SUITS];
        let mut hand = [0u8; MAX_SUITS];
        for s in 0..ns {
            let (inr, hl, rl) = pool_get(pool, s);
            rob[s] = inr + rl;
            hand[s] = hl;
        }
        let mut base = *st;
        if twice {
            base.ace_pool = 0;
            base.ace_whole = 0;
            base.ace_kept_jokers = 0;
        } else {
            base.pool = 0;
            base.whole = 0;
        }
        let mut chosen: SmallVec<[NewSet; 3]> = SmallVec::new();
        if self.record {
            let comps = self.compositions(rob, hand);
            self.sets_rec(r, whole, &base, &comps, rob, hand, 0, &mut chosen, out);
            return;
        }
        // The transitions from a state of zero tokens, then shifted by the
        // state's own: the states listing them would give, each once, at
        // its least cost, in the order first listed (the walk, which keeps
        // what the sets are, lists them).
        let key = (r, pool, whole);
        let mut cache = self.sets_cache.borrow_mut();
        let moves = cache.entry(key).or_insert_with(|| {
            let mut zero = base;
            zero.d = 0;
            zero.f = 0;
            let comps = self.compositions(rob, hand);
            let mut listed = Vec::new();
            self.sets_rec(
                r,
                whole,
                &zero,
                &comps,
                rob,
                hand,
                0,
                &mut chosen,
                &mut listed,
            );
            // Sets that differ only in their suits lead to the same state:
            // the cheapest, in the place of the first.
            let mut moves: Vec<SetsMove> = Vec::with_capacity(listed.len());
            for (next, cost, _) in &listed {
                let (d, f) = (i16::from(next.d), next.f);
                match moves.iter_mut().find(|m| m.0 == d && m.1 == f) {
                    Some(m) => m.2 = m.2.min(*cost),
                    None => moves.push((d, f, *cost)),
                }
            }
            moves.into_boxed_slice()
        });
        for &(d, f, cost) in moves.iter() {
            if let Ok(d) = i8::try_from(i16::from(base.d) + d) {
                let mut next = base;
                next.d = d;
                next.f = base.f + f;
                out.push((next, cost, None));
            }
        }
    }

    /// Choose the next new set's naturals (the compositions in a fixed
    /// list, each collection of sets once: indices do not decrease), or
    /// settle: every robbed copy must be in a set.
    #[allow(clippy::too_many_arguments)]
    fn sets_rec(
        &self,
        r: usize,
        whole: u8,
        base: &State,
        comps: &[NewSet],
        rob: [u8; MAX_SUITS],
        hand: [u8; MAX_SUITS],
        from: usize,
        chosen: &mut SmallVec<[NewSet; 3]>,
        out: &mut Vec<Succ>,
    ) {
        let ns = self.suits.len();
        if rob.iter().all(|&x| x == 0) {
            self.settle_sets(r, whole, base, hand, chosen, out);
        }
        for (i, set) in comps.iter().enumerate().skip(from) {
            if (0..ns).any(|s| set.robbed[s] > rob[s] || set.hand[s] > hand[s]) {
                continue;
            }
            let mut rob2 = rob;
            let mut hand2 = hand;
            for s in 0..ns {
                rob2[s] -= set.robbed[s];
                hand2[s] -= set.hand[s];
            }
            chosen.push(*set);
            self.sets_rec(r, whole, base, comps, rob2, hand2, i, chosen, out);
            chosen.pop();
        }
    }

    /// Every set of naturals the copies allow: per suit (robbed, hand),
    /// at most one card per suit where suits must differ.
    fn compositions(&self, rob: [u8; MAX_SUITS], hand: [u8; MAX_SUITS]) -> Vec<NewSet> {
        let per_suit = if self.distinct { 1 } else { 2 };
        let mut out = Vec::new();
        let mut cur = NewSet {
            robbed: [0; MAX_SUITS],
            hand: [0; MAX_SUITS],
            tokens: 0,
        };
        fn rec(
            sw: &RobSweep,
            s: usize,
            n: usize,
            per_suit: u8,
            (rob, hand): ([u8; MAX_SUITS], [u8; MAX_SUITS]),
            cur: &mut NewSet,
            out: &mut Vec<NewSet>,
        ) {
            if s == sw.suits.len() {
                if n >= 1 && n <= sw.max_set {
                    out.push(*cur);
                }
                return;
            }
            for rr in 0..=rob[s] {
                for hh in 0..=hand[s] {
                    if rr + hh > per_suit {
                        continue;
                    }
                    cur.robbed[s] = rr;
                    cur.hand[s] = hh;
                    rec(
                        sw,
                        s + 1,
                        n + usize::from(rr + hh),
                        per_suit,
                        (rob, hand),
                        cur,
                        out,
                    );
                }
            }
            cur.robbed[s] = 0;
            cur.hand[s] = 0;
        }
        rec(self, 0, 0, per_suit, (rob, hand), &mut cur, &mut out);
        out
    }

    /// The sets' tokens, hand jokers owed and originals held; the hand
    /// copies left stay in the hand.
    fn settle_sets(
        &self,
        r: usize,
        whole: u8,
        base: &State,
        hand_left: [u8; MAX_SUITS],
        chosen: &SmallVec<[NewSet; 3]>,
        out: &mut Vec<Succ>,
    ) {
        let mut left_cost = 0u64;
        for (s, &n) in hand_left.iter().enumerate().take(self.suits.len()) {
            left_cost += u64::from(n) * self.leave[Face::new(self.ranks[r], self.suits[s]).index()];
        }
        let left_cost = left_cost * CHANGE_SCALE;
        let k = chosen.len();
        // Token ranges per set.
        let mut lo: SmallVec<[u8; 3]> = SmallVec::new();
        let mut hi: SmallVec<[u8; 3]> = SmallVec::new();
        let spare = (i16::from(self.hand_jokers) + i16::from(self.jokers_from[0])).max(0) as usize;
        for set in chosen.iter() {
            let n: usize = set
                .robbed
                .iter()
                .chain(set.hand.iter())
                .map(|&x| usize::from(x))
                .sum();
            let has_hand = set.hand.iter().any(|&x| x > 0);
            let need = (self.min_len as usize)
                .saturating_sub(n)
                .max(usize::from(!has_hand));
            let most = self.max_set.saturating_sub(n).min(spare);
            if need > most {
                return;
            }
            lo.push(need as u8);
            hi.push(most as u8);
        }
        let mut tokens: SmallVec<[u8; 3]> = lo.clone();
        loop {
            let mut sets = chosen.clone();
            let mut d = i16::from(base.d);
            let mut f = base.f;
            for (i, set) in sets.iter_mut().enumerate() {
                set.tokens = tokens[i];
                d += i16::from(tokens[i]);
                if set.hand.iter().all(|&x| x == 0) {
                    f += 1;
                }
            }
            let held = self.sets_held(r, whole, &sets);
            if let Ok(d) = i8::try_from(d) {
                let mut next = *base;
                next.d = d;
                next.f = f;
                let action = self.record.then(|| Box::new(Action::SetsOut(sets)));
                out.push((next, left_cost + (k - held) as u64, action));
            }
            // Next token vector.
            let mut i = 0;
            loop {
                if i == k {
                    return;
                }
                if tokens[i] < hi[i] {
                    tokens[i] += 1;
                    break;
                }
                tokens[i] = lo[i];
                i += 1;
            }
        }
    }

    /// How many of the new sets can each hold a different original set of
    /// the rank robbed whole.
    fn sets_held(&self, r: usize, whole: u8, sets: &[NewSet]) -> usize {
        if whole == 0 {
            return 0;
        }
        let origs: SmallVec<[usize; 8]> = self.sets_of_rank[r]
            .iter()
            .copied()
            .filter(|&i| whole >> self.sets_o[i].bit & 1 == 1)
            .collect();
        let can = |set: &NewSet, o: &OrigSet| {
            let has_hand = set.hand.iter().any(|&x| x > 0);
            let spare = u32::from(set.tokens).saturating_sub(u32::from(!has_hand));
            spare >= o.jokers && (0..self.suits.len()).all(|s| set.robbed[s] >= o.naturals[s])
        };
        // Tiny bipartite matching by trying every assignment.
        fn best(
            i: usize,
            sets: &[NewSet],
            used: u32,
            origs: &[usize],
            can: &dyn Fn(&NewSet, usize) -> bool,
        ) -> usize {
            if i == sets.len() {
                return 0;
            }
            let mut b = best(i + 1, sets, used, origs, can);
            for (j, &o) in origs.iter().enumerate() {
                if used >> j & 1 == 0 && can(&sets[i], o) {
                    b = b.max(1 + best(i + 1, sets, used | 1 << j, origs, can));
                }
            }
            b
        }
        best(0, sets, 0, &origs, &|set, o| can(set, &self.sets_o[o]))
    }

    /// The cost at the end: every open run ends, the tokens settle. Also
    /// says whether a meld of wild cards only takes the spare tokens.
    fn end_cost(&self, st: &State) -> Option<(u64, Option<i8>)> {
        let mut change = 0u64;
        let mut f = st.f;
        for &run in st.runs.iter() {
            let (c, owed) = self.end_run(run)?;
            change += c;
            f += owed;
        }
        let hj = self.hand_jokers + st.x as i8;
        let plain = (st.d >= 0 && f as i8 <= st.d && st.d <= hj)
            .then(|| u64::from((hj - st.d) as u8) * self.joker_leave * CHANGE_SCALE + change);
        // A meld of wild cards only, taking every token not placed.
        let extra = hj - st.d;
        let wild = (self.all_wild && i32::from(extra) >= self.min_len as i32 && (f as i8) < hj)
            .then_some(change + 1);
        let (plain, wild) = if self.cards_only {
            (plain.map(cards_part), wild.map(cards_part))
        } else {
            (plain, wild)
        };
        match (plain, wild) {
            (Some(a), Some(b)) if b < a => Some((b, Some(extra))),
            (Some(a), _) => Some((a, None)),
            (None, Some(b)) => Some((b, Some(extra))),
            (None, None) => None,
        }
    }

    /// The exact cost from step `k` in `st` (inside a position, so not in
    /// the memo) when it is at most `rest`, reached at cost `acc`: solved
    /// again, down to the next position's start, whose states the memo
    /// holds, with no limit (the walk follows a search that ended).
    fn solve_again(&mut self, k: usize, st: &State, rest: u64, acc: u64) -> u64 {
        let (record, walking, stopped, found) =
            (self.record, self.walking, self.stopped, self.found);
        self.record = false;
        self.walking = true;
        self.stopped = false;
        // Only what reaches `rest` matters (ties pass).
        self.found = acc + rest;
        let c = self.solve(k, st, rest + 1, acc);
        (self.record, self.walking, self.stopped, self.found) = (record, walking, stopped, found);
        c
    }

    /// Build the turn of cost `best` from the start: along `path` (see
    /// [`RobSweep::found_path`]) as far as it goes, then along transitions
    /// whose exact values the memo holds (or, inside a position, that
    /// [`RobSweep::solve_again`] works out).
    fn walk(&mut self, best: u64, path: &[(State, u64)]) -> Result<Robbed, RearrangeError> {
        self.record = true;
        let internal = |what: &str| RearrangeError::Internal(format!("robbing sweep: {what}"));
        let mut st = State::default();
        let mut target = best;
        // Open runs' cards, aligned with `st.runs`.
        let mut open: Vec<Vec<CardKind>> = Vec::new();
        let mut new_melds: Vec<Vec<CardKind>> = Vec::new();
        let mut run_kept: Vec<Vec<bool>> = self
            .runs_o
            .iter()
            .map(|o| vec![false; o.cards.len()])
            .collect();
        let mut set_kept: Vec<u16> = vec![0; self.sets_o.len()];
        let mut run_swapped: Vec<bool> = vec![false; self.runs_o.len()];
        let mut hand_used = [0u8; FACES];
        for k in 0..self.steps.len() - 1 {
            let succ = self.successors(k, &st);
            let mut found = None;
            for (next, delta, act) in succ {
                if delta > target {
                    continue;
                }
                if let Some((on_path, d)) = path.get(k) {
                    if *d == delta && *on_path == next {
                        found = Some((next, delta, act));
                        break;
                    }
                    continue;
                }
                let rest = match self.steps[k + 1] {
                    Step::End => self.end_cost(&next).map(|(c, _)| c),
                    _ if self.memo_at[k + 1] => self
                        .memo
                        .get(((k + 1) as u16, next))
                        .filter(|c| c & BOUND == 0),
                    _ => {
                        Some(self.solve_again(k + 1, &next, target - delta, best - target + delta))
                    }
                };
                if rest == Some(target - delta) {
                    found = Some((next, delta, act));
                    break;
                }
            }
            let Some((next, delta, Some(act))) = found else {
                return Err(internal("lost the optimum"));
            };
            match (self.steps[k], *act) {
                (Step::SetsIn(r), Action::SetsIn(choice)) => {
                    for (j, &i) in self.sets_of_rank[r].iter().enumerate() {
                        set_kept[i] = self.sets_o[i].options[usize::from(choice[j])].kept;
                    }
                }
                (
                    Step::Suit(q, s),
                    Action::Suit {
                        kept,
                        swapped,
                        acts,
                        built,
                    },
                ) => {
                    let face = Face::new(self.line[q], self.suits[s]);
                    for (j, &m) in self.runs_at[q][s].iter().enumerate() {
                        run_kept[m][q - self.runs_o[m].lo] = kept[j];
                        if swapped >> j & 1 == 1 {
                            // The hand's natural takes the joker's place.
                            run_swapped[m] = true;
                            hand_used[face.index()] += 1;
                        }
                    }
                    let mut others = Vec::new();
                    let mut mine = Vec::new();
                    for (run, cards) in st.runs.iter().zip(open.drain(..)) {
                        if run.suit() == s {
                            mine.push(cards);
                        } else {
                            others.push(cards);
                        }
                    }
                    let mut cards_built = others;
                    // The suit's open runs act first, then the new ones
                    // (as many as actions are left).
                    let fresh = std::iter::repeat_with(Vec::new);
                    for (mut cards, &a) in mine.into_iter().chain(fresh).zip(acts.iter()) {
                        match a {
                            Act::End => {
                                new_melds.push(cards);
                                continue;
                            }
                            Act::Hand => {
                                hand_used[face.index()] += 1;
                                cards.push(CardKind::Natural(face));
                            }
                            Act::Rob => cards.push(CardKind::Natural(face)),
                            Act::Tok => cards.push(CardKind::Joker),
                        }
                        cards_built.push(cards);
                    }
                    if cards_built.len() != built.len() {
                        return Err(internal("runs out of step"));
                    }
                    let mut pairs: Vec<(Run, Vec<CardKind>)> =
                        built.iter().copied().zip(cards_built).collect();
                    pairs.sort_by_key(|(r, _)| *r);
                    open = pairs.into_iter().map(|(_, c)| c).collect();
                }
                (Step::SetsOut(r), Action::SetsOut(sets)) => {
                    for set in sets {
                        let mut cards = Vec::new();
                        for (s, &suit) in self.suits.iter().enumerate() {
                            let face = Face::new(self.ranks[r], suit);
                            for _ in 0..set.robbed[s] + set.hand[s] {
                                cards.push(CardKind::Natural(face));
                            }
                            hand_used[face.index()] += set.hand[s];
                        }
                        cards.extend(std::iter::repeat_n(
                            CardKind::Joker,
                            usize::from(set.tokens),
                        ));
                        new_melds.push(cards);
                    }
                }
                _ => return Err(internal("step and action differ")),
            }
            target -= delta;
            st = next;
        }
        // The end: open runs end, spare tokens may form a meld of their own.
        new_melds.append(&mut open);
        let (_, wild) = self.end_cost(&st).ok_or_else(|| internal("no end"))?;
        let mut jokers_placed = st.d;
        if let Some(x) = wild {
            new_melds.push(vec![CardKind::Joker; x as usize]);
            jokers_placed += x;
        }
        // The new table: pieces and whole originals, then new melds.
        let mut table: Vec<Vec<MeldCard>> = Vec::new();
        for (m, o) in self.runs_o.iter().enumerate() {
            let kept = &run_kept[m];
            let o = match (&self.runs_b[m], run_swapped[m]) {
                (Some(b), true) => b,
                _ => o,
            };
            let mut i = 0;
            while i < kept.len() {
                if !kept[i] {
                    i += 1;
                    continue;
                }
                let a = i;
                while i < kept.len() && kept[i] {
                    i += 1;
                }
                table.push(o.cards[a..i].to_vec());
            }
        }
        for (i, o) in self.sets_o.iter().enumerate() {
            let meld = &self.p.table[o.meld];
            let cards: Vec<MeldCard> = (0..meld.len())
                .filter(|j| set_kept[i] >> j & 1 == 1)
                .map(|j| meld[j])
                .collect();
            if !cards.is_empty() {
                table.push(cards);
            }
        }
        for kinds in new_melds {
            match self.p.checker.best(&kinds) {
                Ok(Some(d)) => table.push(d.ordered),
                Ok(None) => {
                    return Err(internal(&format!(
                        "built an invalid meld {}",
                        romme_core::notation::format_cards(&kinds)
                    )));
                }
                Err(e) => return Err(e.into()),
            }
        }
        // The hand: what was not placed.
        let mut hand: Vec<CardKind> = Vec::new();
        let mut used = hand_used;
        let mut jokers_left =
            i16::from(self.hand_jokers) + i16::from(st.x) - i16::from(jokers_placed);
        let mut left_cost = 0u64;
        for &c in self.p.hand {
            match c {
                CardKind::Joker => {
                    if jokers_left > 0 {
                        jokers_left -= 1;
                        hand.push(c);
                        left_cost += self.joker_leave;
                    }
                }
                CardKind::Natural(f) => {
                    if used[f.index()] > 0 {
                        used[f.index()] -= 1;
                    } else {
                        hand.push(c);
                        left_cost += self.leave[f.index()];
                    }
                }
            }
        }
        // Exchanged jokers not placed again.
        for _ in 0..jokers_left.max(0) {
            hand.push(CardKind::Joker);
            left_cost += self.joker_leave;
        }
        let changed = best
            .checked_sub(left_cost * CHANGE_SCALE)
            .filter(|&c| c < CHANGE_SCALE)
            .ok_or_else(|| internal("cost does not add up"))?;
        Ok(Robbed {
            table,
            hand,
            changed: changed as usize,
            exchanges: st.x,
        })
    }
}

/// Resources while a suit's step is listed.
#[derive(Debug, Clone, Copy)]
struct Res {
    /// Hand copies and robbed copies of the face still free.
    h: u8,
    r: u8,
    d: i8,
    f: u8,
    change: u64,
    /// Original runs a run started to follow at this step.
    claimed: u32,
    /// Original runs a run now holds whole before their joker that the
    /// hand could exchange ([`O_NOSWAP`]).
    lock: u32,
}

/// What a suit's step knows.
struct SuitCtx {
    q: usize,
    s: usize,
    twice: bool,
    kept: SmallVec<[bool; 4]>,
    /// Original runs robbed from their first card here, which a run may
    /// start to follow (from [`B_OFFSET`] on: exchanged versions).
    claimable: SmallVec<[usize; 2]>,
    /// The originals here (bits in `runs_at` order) whose joker the hand
    /// exchanges at this step ...
    swapped: u32,
    /// ... and (bits by original run) those of them that give up the
    /// exchanged natural: a run following one must take it.
    swap_robbed: u32,
}

#[cfg(test)]
mod tests {
    use super::{MAX_SUITS, Memo, PACKED_RUNS, Run, Runs, SUIT_KEY_RUNS, State, SuitKey};
    use proptest::prelude::*;

    /// A state whose every field fits a packed memo key.
    fn packable() -> impl Strategy<Value = (u16, State)> {
        let run = (
            0..MAX_SUITS,
            0u32..16,
            any::<bool>(),
            any::<bool>(),
            0u32..8,
            (0u32..3, 0u32..32),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(suit, len, hand, nat, tok, claim, to_end, from0)| {
                Run::new(suit, len, hand, nat, tok, claim, to_end, from0)
            });
        (
            0u16..256,
            proptest::collection::vec(run, 0..=PACKED_RUNS),
            any::<u64>(),
            (0u32..1 << 30, 0u32..1 << 30),
            (any::<u8>(), any::<u8>(), 0u16..1 << 15),
            (0u8..16, any::<i8>(), 0u8..32, 0u8..8),
        )
            .prop_map(
                |(
                    k,
                    runs,
                    orig,
                    (pool, ace_pool),
                    (whole, ace_whole, aces_low),
                    (akj, d, f, x),
                )| {
                    let state = State {
                        runs: Runs::sorted(&runs).expect("at most six runs"),
                        orig,
                        pool,
                        ace_pool,
                        whole,
                        ace_whole,
                        aces_low,
                        ace_kept_jokers: akj,
                        d,
                        f,
                        x,
                    };
                    (k, state)
                },
            )
    }

    proptest! {
        /// Packed keys tell states apart exactly: two steps and states
        /// share a key only when they are equal (a key that merged two
        /// states would hand one the other's value).
        #[test]
        fn packed_memo_keys_tell_states_apart(a in packable(), b in packable()) {
            let (ka, kb) = (Memo::pack(a), Memo::pack(b));
            prop_assert!(ka.is_some() && kb.is_some());
            prop_assert_eq!(ka == kb, a == b);
        }

        /// The same, for states one field apart (random pairs seldom are).
        #[test]
        fn packed_memo_keys_differ_in_every_field(
            a in packable(),
            field in 0usize..13,
            bit in 0u32..64,
        ) {
            let (k, st) = a;
            let mut b = st;
            let mut kb = k;
            match field {
                0 => kb ^= 1 << (bit % 8),
                1 => b.orig ^= 1 << bit,
                2 => b.pool ^= 1 << (bit % 30),
                3 => b.ace_pool ^= 1 << (bit % 30),
                4 => b.whole ^= 1 << (bit % 8),
                5 => b.ace_whole ^= 1 << (bit % 8),
                6 => b.aces_low ^= 1 << (bit % 15),
                7 => b.ace_kept_jokers ^= 1 << (bit % 4),
                8 => b.d ^= 1 << (bit % 8),
                9 => b.f ^= 1 << (bit % 5),
                12 => b.x ^= 1 << (bit % 3),
                10 if !st.runs.is_empty() => {
                    // One field bit of one open run (they lie in bits 6..27).
                    let mut runs: Vec<Run> = st.runs.to_vec();
                    let i = bit as usize % runs.len();
                    runs[i] = Run(runs[i].0 ^ 1 << (6 + bit % 21));
                    b.runs = Runs::sorted(&runs).expect("at most six runs");
                }
                _ => {
                    // One more run, or one run fewer.
                    let mut runs: Vec<Run> = st.runs.to_vec();
                    if runs.len() < PACKED_RUNS {
                        runs.push(Run::new((bit % 5) as usize, 3, true, true, 0, (0, 0), false, false));
                    } else {
                        runs.pop();
                    }
                    b.runs = Runs::sorted(&runs).expect("at most six runs");
                }
            }
            prop_assert!((k, st) != (kb, b));
            prop_assert_ne!(Memo::pack((k, st)), Memo::pack((kb, b)));
        }
    }

    /// States beyond what a key holds are kept by the state itself.
    #[test]
    fn states_too_wide_for_a_key_are_not_packed() {
        let run = Run::new(0, 3, true, true, 0, (0, 0), false, false);
        let wide = State {
            runs: Runs::sorted(&[run; PACKED_RUNS + 1]).expect("fits a state"),
            ..State::default()
        };
        assert_eq!(Memo::pack((0, wide)), None);
        let many_owed = State {
            f: 32,
            ..State::default()
        };
        assert_eq!(Memo::pack((0, many_owed)), None);
        assert_eq!(Memo::pack((256, State::default())), None);
        let many_exchanged = State {
            x: 8,
            ..State::default()
        };
        assert_eq!(Memo::pack((0, many_exchanged)), None);
        assert!(Memo::pack((0, State::default())).is_some());
    }

    fn any_run() -> impl Strategy<Value = Run> {
        (0..MAX_SUITS).prop_flat_map(run_of)
    }

    fn run_of(suit: usize) -> impl Strategy<Value = Run> {
        (1u32..16, any::<bool>(), 0u32..8).prop_map(move |(len, hand, tok)| {
            Run::new(suit, len, hand, true, tok, (0, 0), false, false)
        })
    }

    /// What a suit's step reads: position, suit, runs, codes, followed,
    /// pool, tokens placed.
    type SuitRead = (usize, usize, Vec<Run>, u64, u8, u8, i8);

    fn suit_read() -> impl Strategy<Value = SuitRead> {
        (
            0usize..256,
            0..MAX_SUITS,
            proptest::collection::vec(any_run(), 0..=SUIT_KEY_RUNS),
            any::<u64>(),
            any::<u8>(),
            0u8..64,
            any::<i8>(),
        )
    }

    fn suit_key((q, s, runs, codes, followed, pool, d): &SuitRead) -> SuitKey {
        SuitKey::new(*q, *s, runs, *codes, *followed, *pool, *d)
    }

    proptest! {
        /// Two suit steps that read different things of their states get
        /// different cache keys.
        #[test]
        fn suit_keys_tell_what_a_step_reads_apart(a in suit_read(), b in suit_read()) {
            prop_assert_eq!(a == b, suit_key(&a) == suit_key(&b));
        }

        /// ... also where they differ in one field only.
        #[test]
        fn suit_keys_differ_in_every_field(a in suit_read(), field in 0..7usize, run in any_run()) {
            let mut b = a.clone();
            match field {
                0 => b.0 ^= 1 << (a.0 % 8),
                1 => b.1 = (a.1 + 1) % MAX_SUITS,
                2 if a.2.len() < SUIT_KEY_RUNS => b.2.push(run),
                2 => b.2[0] = Run(a.2[0].0 ^ 1 << 26),
                3 => b.3 ^= 1 << (a.3 % 64),
                4 => b.4 ^= 1 << (a.4 % 8),
                5 => b.5 ^= 1 << (a.5 % 6),
                _ => b.6 = a.6.wrapping_add(1),
            }
            prop_assert_ne!(suit_key(&a), suit_key(&b));
        }

        /// A suit's runs put back in place give the runs sorted anew, with
        /// the slots past them empty (states compare by the whole block).
        #[test]
        fn a_suits_block_put_back_equals_the_runs_sorted(
            runs in proptest::collection::vec(any_run(), 0..12),
            (s, mut mine) in (0..MAX_SUITS).prop_flat_map(|s| (Just(s), proptest::collection::vec(run_of(s), 0..6))),
        ) {
            let Some(before) = Runs::sorted(&runs) else {
                return Ok(());
            };
            mine.sort_unstable();
            let mut expected: Vec<Run> = runs.iter().copied().filter(|r| r.suit() != s).collect();
            expected.extend_from_slice(&mine);
            let mut after = before;
            let fits = after.set_block(before.block(s), &mine);
            match Runs::sorted(&expected) {
                Some(sorted) => {
                    prop_assert!(fits);
                    prop_assert_eq!(after, sorted);
                }
                None => {
                    prop_assert!(!fits);
                    prop_assert_eq!(after, before);
                }
            }
        }
    }
}
