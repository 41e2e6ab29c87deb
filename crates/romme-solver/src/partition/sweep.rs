//! Exact table rearrangement by dynamic programming over the rank line
//! (the sweep known from Rummikub solvers): the positions of the suits'
//! lines are visited from low to high; the state between two positions is
//! the set of runs still open (per run: suit, length, whether it holds a
//! natural card, and from which position on it holds a whole original run)
//! plus the wild tokens used so far. At each position the cards of that
//! rank extend open runs, start new ones, form sets (at the rank's last
//! position) or stay in the hand (hand copies only). The cost is the same
//! as the branch and bound's: cards left (× unit + penalty) × scale, plus
//! one per changed meld, so the answer is exact for the whole tie-break
//! order and the number of states is polynomial in the number of cards.
//! A run holds an original run when it spans it with natural cards only: a
//! token where an original card was breaks that original.
//!
//! States are pruned with a lower bound on the cost still to come: the
//! value of a relaxation (no change costs, and at the next position every
//! run that could be open is open, long enough and free to end), worked
//! out by a second sweep per (position, tokens left, low aces) as needed.
//! It catches what the line's end forces — two hand cards wanting the last
//! joker near the kings — before the states below are all explored. To it
//! are added the open runs that can no longer hold a whole original run
//! (none lies ahead, or more positions without a card come before its end
//! than tokens are left): each is a changed meld when it ends, which the
//! relaxation does not count. A state is also cut by the cards ahead that
//! can join no meld holding a whole original: where a suit has more cards
//! at a position than open runs and original runs (stretched) can pass
//! through it and original sets can take, the rest need changed melds of
//! their own, at least as many as the suits and ranks that cover them.
//!
//! Fewer choices are listed than a position allows: none that another
//! choice always beats (a run that ends where a run of its suit starts is
//! grown instead, [`Sweep::ends_dominated`]; in the relaxation, a token
//! where a copy of the suit is left over, `tokens_replaceable`), and none
//! whose runs need more tokens than are left (each short run must take a
//! card at every position up to the minimum length, each run that starts
//! with a token up to the line's end: where more runs need a position than
//! there are copies, tokens fill in, [`Sweep::reserve`]). The walk to the
//! optimum follows the transition the search found cheapest from each
//! state (the first such in the order it visits them), so the answer is
//! canonical.
//!
//! A caller that asks many problems over nearly the same cards (the
//! robbing search's bound of what is left) lends each sweep a
//! [`SweepCaches`]: the suits' and ranks' choices are then kept from one
//! sweep to the next, under signatures of exactly what they read.
//!
//! For the robbing search's floor ([`super::Pieces`],
//! [`Sweep::demand_pieces`]) it also asks that a meld without a card that
//! may be the hand's is a piece of one table meld, read by faces: a run
//! keeps a bit for that (bare, and stray once it leaves the table runs'
//! spans), a set checks its suits against the table's sets.
//!
//! It covers what `offen` and its house rules need: lines with the ace low,
//! high or both, sets of distinct or mixed suits, and wild cards without
//! limits (spare tokens join any meld with room at the end, as in the free
//! mode of the partition search). Wrap-around runs and wild-card limits go
//! to the branch and bound instead ([`Sweep::applies`]).

use std::borrow::Cow;
use std::rc::Rc;

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use romme_core::ruleset::WildShare;

use super::{Best, FACES, Pieces, SET_TOKEN, Shape, Tables, set_wild};
use crate::deadline::Clock;

/// The most copies of a face for which [`Tables`] keeps the set vectors
/// (two decks have two; more decks have them worked out per sweep).
const KEPT_SET_VECTORS: u8 = 3;

/// A set vector: copies per suit, its naturals and its tokens (up to the
/// minimum length); see [`Sweep::set_vectors`].
pub(super) type SetVector = ([u8; 5], u8, u8);

/// No finite cost.
const INF: u64 = u64::MAX / 4;
/// Marks a memo entry that is only a lower bound (costs stay below INF).
const BOUND: u64 = 1 << 63;
/// States between two readings of the clock, where a deadline is set. A
/// state of a ~50-card table takes up to about ten microseconds, so that
/// 1,024 let a search run up to 9 ms past its deadline; a reading costs
/// tens of nanoseconds.
const CLOCK_EVERY: u64 = 128;
/// States a sweep evaluates before it starts pruning with bounds (working
/// them out costs more than the small problems below this take), per wild
/// token in play: the relaxation's work grows with the tokens (its values
/// are asked per number of tokens left). Measured with callgrind: at 300
/// flat, the robbing floor (the table's jokers handed to the player) spent
/// over a third of a ~20-card position on a relaxation asked for in its
/// last few states; per token, ten middling `raeuber` ~20 positions took
/// 11.6 % fewer instructions, two `offen` ~60 positions with two jokers
/// 45 % fewer, and the `offen` rows of 100 positions −4.0 / +0.8 / −0.7 %
/// at ~20 / 40 / 60, with the same answers.
const BOUNDS_AFTER: u64 = 300;
/// The same without wild tokens in play, where the sweep's own limits cut
/// more. Measured on the benchmark positions (states of the sweep and its
/// relaxation per position, 100 per row): from 3,000 down to 500 the
/// median at ~40 table cards fell from 2,478 to 1,741 and at ~50 from 5,062
/// to 4,459, the ~20 and ~30 rows stayed put; lower still, the small rows
/// pay for bounds they do not need.
const BOUNDS_AFTER_NATURAL: u64 = 500;
/// From this many natural cards on, bounds are used from the first state
/// even without wild tokens: on tables this large the sweep nearly always
/// needs them, and the states before they start are spent for nothing.
/// Measured with cachegrind (`rearrange_stats`, `offen`): the 201 ~60
/// positions around the median 2.00 G -> 1.83 G instructions (-8.5 %), the
/// ~50 row (300 positions) -0.4 %; the ~40 row has fewer cards and is
/// unchanged (the same start at every size cost +2 / +7 / +10 % at ~40 /
/// 30 / 20). Same answers.
const BOUNDS_FROM_START_CARDS: u32 = 60;
/// From this many natural cards on, a sweep that honours pieces (the
/// robbing floor, [`Sweep::demand_pieces`]) uses bounds from its first
/// state. Measured on the `raeuber` rows of `rearrange_stats` (a ~30 table
/// and a 14-card hand hold about 44): the ~30 row's median 1.68 -> 1.48
/// ms, the ~20 row's (about 34 cards) unchanged, where 36 made it 5 %
/// slower; bounds from the start everywhere, 0.53 -> 0.59 ms there.
const PIECES_BOUNDS_FROM_CARDS: u32 = 40;
/// Entries of the table of recent set choices: 2^this.
const RECENT_SETS_BITS: u32 = 8;
/// Entries of the table of recent cheapest set choices: 2^this.
const LEAST_SETS_BITS: u32 = 10;
/// Marks a used entry of the table of cheapest set choices (the keys use
/// the low 56 bits).
const SETS_KEY_USED: u64 = 1 << 63;
/// `need` of a run that can never hold a whole original run.
const NEVER: u8 = 15;
/// Most wild tokens a sweep handles (the state keeps up to [`MAX_OPEN`]
/// runs, see there).
const MAX_TOKENS: usize = 7;
/// Most runs open at one time that the state encoding holds. Between two
/// positions a suit has at most its copies of the face plus the tokens
/// open, so with two decks and up to seven tokens (2 × 4 + 7) every state
/// fits; only with more decks can a sweep stop on it.
const MAX_OPEN: usize = 16;
/// Most runs open at one time where the sweep honours pieces (their codes
/// take 16 bits in the key, [`State::wide_key`]); with more the sweep
/// stops.
const MAX_OPEN_PIECES: usize = 15;

/// An open run as the state sees it, packed into 14 bits (16, see below)
/// so that states sort, compare and hash as short integers. The fields, from the most
/// significant bits down (so the integer order is the order of the fields):
/// the suit (3 bits); the cards so far (4 bits; where lengths are capped,
/// at the minimum, or one above it for a run that ends in a token, see
/// [`Sweep::grown`]); whether it holds a natural card; `need`, the position
/// from which on it holds a whole original run (4 bits); whether its last
/// card is a wild token (only marked where the run is longer than the
/// minimum, the one place it matters, and in a bare run where no table
/// run spanning its start has a joker there, see [`Sweep::grown_bare`]);
/// whether it starts with a token, so
/// it must run to the end of the line (a token at the start is only needed
/// where the right end has no room; elsewhere the same run is built with
/// the token at the right end).
///
/// Where the sweep honours robbing's pieces ([`Sweep::demand_pieces`]), two
/// more bits between the suit and the length: whether the run holds a
/// token (a table run with a joker is held whole only with one, `need`
/// [`PENDING`] until it comes), and whether it is *bare*, without a card
/// that may be the hand's so far. A bare run always holds a natural card,
/// so its natural bit says instead whether it has left the span of every
/// table run that spans its start (it is *stray*: it needs a hand card
/// before it ends), and its `need` field holds where it started (whether
/// it is all of a table run is read at its end). Runs of other sweeps
/// never set them, so their states' keys pack 14 bits a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Hash)]
struct Open(u16);

/// The bit of a bare run (see [`Open`]), below the suit's so that a
/// suit's runs still sort together.
const BARE: u16 = 1 << 11;
/// The bit of a run that holds a token (see [`Open`]).
const HAS_TOK: u16 = 1 << 12;
/// `need` of a run that holds the natural cards of a table run with a
/// joker but no token yet: a token anywhere in it makes it hold that run
/// whole ([`Sweep::demand_pieces`]). It no longer follows the table runs
/// after that one (one `need` a run): a natural where one without a joker
/// ends is read as holding it, which asks less (where the run started is
/// not in the state).
const PENDING: u8 = 14;
/// The natural bit, which a bare run reads as "stray".
const NAT: u16 = 1 << 6;

impl Open {
    fn new(suit: u8, len: u8, nat: bool, need: u8, tail_tok: bool, to_end: bool) -> Open {
        Open(
            u16::from(suit) << 13
                | u16::from(len) << 7
                | u16::from(nat) << 6
                | u16::from(need) << 2
                | u16::from(tail_tok) << 1
                | u16::from(to_end),
        )
    }

    fn suit(self) -> u8 {
        (self.0 >> 13) as u8
    }

    fn len(self) -> u8 {
        (self.0 >> 7 & 0xf) as u8
    }

    fn nat(self) -> bool {
        self.0 & (NAT | BARE) != 0
    }

    /// The code without the bits of pieces (see [`Open`]), 14 bits: for
    /// a run that has none set.
    fn code14(self) -> u16 {
        self.0 >> 13 << 11 | self.0 & 0x7ff
    }

    /// Whether the run holds a token (only where the sweep honours pieces).
    fn has_tok(self) -> bool {
        self.0 & HAS_TOK != 0
    }

    /// This run, marked as holding a token.
    fn with_tok(self) -> Open {
        Open(self.0 | HAS_TOK)
    }

    /// Whether no card of the run may be a hand card (see [`Open`]).
    fn bare(self) -> bool {
        self.0 & BARE != 0
    }

    /// A bare run that left the span of every table run of its suit.
    fn stray(self) -> bool {
        self.0 & (NAT | BARE) == NAT | BARE
    }

    /// This run (which holds a natural card), bare, stray or not.
    fn made_bare(self, stray: bool) -> Open {
        Open(self.0 & !NAT | BARE | if stray { NAT } else { 0 })
    }

    fn need(self) -> u8 {
        (self.0 >> 2 & 0xf) as u8
    }

    /// This run with `need` in its `need` field.
    fn with_need(self, need: u8) -> Open {
        Open(self.0 & !(0xf << 2) | u16::from(need & 0xf) << 2)
    }

    fn tail_tok(self) -> bool {
        self.0 >> 1 & 1 == 1
    }

    fn to_end(self) -> bool {
        self.0 & 1 == 1
    }
}

/// The state between two positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct State {
    /// Open runs, sorted (the first `n`).
    runs: [Open; MAX_OPEN],
    n: u8,
    /// Wild tokens used.
    used: u8,
    /// Per suit: aces used at the low end (lines with the ace at both ends).
    aces_low: [u8; 5],
}

impl State {
    fn open(&self) -> &[Open] {
        &self.runs[..usize::from(self.n)]
    }

    /// Add a run (false when the encoding is full).
    fn push(&mut self, o: Open) -> bool {
        let n = usize::from(self.n);
        if n == MAX_OPEN {
            return false;
        }
        self.runs[n] = o;
        self.n += 1;
        true
    }

    /// The memo key, 32 bytes: run `i` at 14 bits in word `i / 4` (a run's
    /// code is never 0, so an empty slot cannot pass for a run); the top
    /// byte of the first three words holds the position, the tokens used
    /// and the low aces.
    fn key(&self, p: usize) -> Key {
        if self.open().iter().any(|r| r.0 & (BARE | HAS_TOK) != 0) {
            return self.wide_key(p);
        }
        let mut words = [0u64; 4];
        for (i, r) in self.open().iter().enumerate() {
            words[i / 4] |= u64::from(r.code14()) << (14 * (i % 4));
        }
        let mut misc = p as u32 | u32::from(self.used) << 4;
        for (i, &a) in self.aces_low.iter().enumerate() {
            misc |= u32::from(a) << (8 + 2 * i);
        }
        for (i, w) in words.iter_mut().take(3).enumerate() {
            *w |= u64::from(misc >> (8 * i) & 0xff) << 56;
        }
        words
    }

    /// The memo key of a state with the bits of pieces set: the runs' 16-bit
    /// codes one after the other (at most [`MAX_OPEN_PIECES`], 240 bits),
    /// then the position (4 bits), the tokens used (3) and the low aces
    /// (at most two per suit, [`Sweep::demand_pieces`]: a base-3 digit
    /// each, 8 bits), and the top bit set, which no key of
    /// [`State::key`]'s layout has.
    fn wide_key(&self, p: usize) -> Key {
        let mut words = [0u64; 4];
        for (i, r) in self.open().iter().take(MAX_OPEN_PIECES).enumerate() {
            words[i / 4] |= u64::from(r.0) << (16 * (i % 4));
        }
        let aces = self
            .aces_low
            .iter()
            .rev()
            .fold(0u64, |k, &a| k * 3 + u64::from(a.min(2)));
        let misc = p as u64 & 0xf | u64::from(self.used & 7) << 4 | aces << 7;
        words[3] |= misc << 48 | 1 << 63;
        words
    }
}

/// A key of the relaxation's bounds: position, tokens left, low aces.
type BoundKey = (u8, u8, [u8; 5]);

/// A key no bound has (an empty slot of the front table).
const NO_BOUND_KEY: BoundKey = (u8::MAX, u8::MAX, [u8::MAX; 5]);

/// The slot of position `p` and `left` tokens left in the tables kept per
/// position and tokens left (`Sweep::bound_front`, `Sweep::slots`), which
/// hold `per_position_slots(len)` entries.
fn front_index(p: usize, left: u8) -> usize {
    p * (MAX_TOKENS + 1) + usize::from(left)
}

/// The size of a table kept per position (up to `len`) and tokens left.
fn per_position_slots(len: usize) -> usize {
    (len + 1) * (MAX_TOKENS + 1)
}

/// A memo key (see [`State::key`]).
type Key = [u64; 4];

/// A memo entry: a state's least cost, or only a lower bound on it, and
/// (where exact) the order key of the transition that reaches it (see
/// [`Transition::order`], at most 88 bits), which the walk to the optimum
/// follows. One `u128` (the order above the value) rather than a
/// `(u64, u128)`: 48-byte entries instead of 64, so large sweeps' memos
/// grow and are probed in less memory.
#[derive(Debug, Clone, Copy)]
struct Entry(u128);

impl Entry {
    /// Bits of the value; the bit above them marks a bound.
    const VALUE_BITS: u32 = 39;
    const MOST: u64 = (1 << Self::VALUE_BITS) - 1;

    /// An exact value must be below [`Entry::MOST`] (costs of real
    /// arrangements are far below it). A bound above it is kept as
    /// `MOST`, a weaker bound: [`Sweep::value`] answers from a bound only
    /// when it reaches the limit asked, and searches again otherwise.
    fn new(value: u64, bound: bool, order: u128) -> Entry {
        debug_assert!(bound || value < Self::MOST);
        debug_assert!(order >> 88 == 0);
        Entry(
            order << (Self::VALUE_BITS + 1)
                | u128::from(bound) << Self::VALUE_BITS
                | u128::from(value.min(Self::MOST)),
        )
    }

    fn value(self) -> u64 {
        (self.0 as u64) & Self::MOST
    }

    fn bound(self) -> bool {
        self.0 >> Self::VALUE_BITS & 1 == 1
    }

    fn order(self) -> u128 {
        self.0 >> (Self::VALUE_BITS + 1)
    }
}

/// What one open run does at a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    /// It ended before this position.
    End,
    /// A natural card of this position joins it.
    Natural,
    /// A wild token joins it.
    Token,
}

/// The choices of one suit at one position.
#[derive(Debug, Clone, Copy)]
struct SuitChoice {
    /// One step per open run of the suit, in the state's order.
    steps: [Step; MAX_OPEN],
    n: u8,
    /// New runs starting with a natural card / with a token.
    start_nat: u8,
    start_tok: u8,
    naturals: u8,
    tokens: u8,
    /// Changed melds among the runs that ended.
    changes: u64,
    /// The suit's runs open after this position, sorted (filled in once per
    /// choice, not per combination of the suits' choices).
    runs: [Open; MAX_OPEN],
    runs_n: u8,
    /// Of those runs, the ones that can no longer hold a whole original
    /// run (each a changed meld to come; see [`Sweep::gaps`]), per number
    /// of tokens left.
    doomed: [u8; MAX_TOKENS + 1],
    /// Tokens its runs need at least later on (see [`Sweep::reserve`]).
    reserve: u8,
    /// Natural copies of this position left for sets.
    pool: u8,
    /// Its place in the order [`Sweep::suit_choices`] lists the choices
    /// in (the list is then sorted by tokens; transitions keep this order).
    orig: u16,
}

/// The choices of the last suit that use the same tokens and leave the
/// same copies for sets (consecutive in its list): a combination checks
/// them together against the listing's cut before it looks at each.
#[derive(Debug, Clone, Copy)]
struct Group {
    /// The choices `from..to` of the suit's list.
    from: u16,
    to: u16,
    tokens: u8,
    pool: u8,
    /// Per number of tokens left: the least of its choices' changes plus
    /// doomed runs.
    least: [u64; MAX_TOKENS + 1],
}

/// What runs that hold an original offer from a position on, for
/// [`Sweep::excess`]: per suit and position, the original runs not yet
/// begun that hold it or can be stretched to it, plus (where a run open
/// before it can reach it with the tokens left) the suit's open runs;
/// kept as the positions where the cards outnumber them, per number of
/// open runs, so that a state's bound is a lookup per suit.
#[derive(Debug, Clone, Copy)]
struct Slots {
    /// Per suit and number of runs of the suit open before `p`: the
    /// positions (bits) with more cards than runs through them.
    over: [[u16; MAX_OPEN + 1]; 5],
}

/// Per suit and position, the cards that need a run through it (see
/// [`Sweep::excess`]): the copies there except those of original sets and
/// as many as the original sets of the rank have room for. None at an ace
/// that may go to either end of the line.
fn demand(
    t: &Tables,
    counts: &[u8; FACES],
    orig_sets: &[OrigSet],
    len: usize,
    ace_twice: bool,
) -> [[u8; 16]; 5] {
    let mut demand = [[0u8; 16]; 5];
    for &s in &t.suits {
        for (q, &f) in t.line[s].iter().enumerate().take(len) {
            if ace_twice && (q == 0 || q + 1 == len) {
                continue;
            }
            let rank = f % 13;
            let mut in_sets = 0u8;
            // (The room its wild cards take is not counted: a bound.)
            for (_, per_suit, _, _) in orig_sets.iter().filter(|o| o.0 == rank) {
                let n: usize = per_suit.iter().map(|&c| usize::from(c)).sum();
                let room = if t.distinct_sets {
                    u8::from(per_suit[s] == 0 && n < t.max_set)
                } else {
                    t.max_set.saturating_sub(n) as u8
                };
                // Every set that holds the original's faces holds a whole
                // original (the copies of a face are alike): as many as
                // there are copies of them.
                let holders = t
                    .suits
                    .iter()
                    .filter(|&&x| per_suit[x] > 0)
                    .map(|&x| counts[x * 13 + rank] / per_suit[x])
                    .min()
                    .unwrap_or(0);
                // The sets' room may take hand cards or cards of original runs.
                in_sets = in_sets.saturating_add(holders.saturating_mul(per_suit[s] + room));
            }
            demand[s][q] = counts[f].saturating_sub(in_sets);
        }
    }
    demand
}

/// An original set: its rank, its naturals per suit and its wild cards
/// that must stay tokens ([`SET_TOKEN`] in its faces) and that a natural
/// may replace ([`super::SET_WILD`]).
type OrigSet = (usize, [u8; 5], u8, u8);

/// Sets formed at one rank: per set, the copies per suit and the wild
/// tokens (on the stack: a rank has few sets).
type RankSets = SmallVec<[([u8; 5], u8); 4]>;

/// Suit choices and set choices kept from one sweep to the next (the
/// robbing search's bound of what is left builds hundreds of small sweeps
/// over nearly the same cards, each of which would work them out anew).
/// A suit's choices depend only on its line's copies and its original
/// runs, a rank's set choices only on its hand copies and its original
/// sets (and the costs of a card left): both are kept under a signature of
/// exactly that, so a sweep reads only what its own cards give. Sweeps
/// whose originals have holes, or that a signature cannot hold, keep their
/// own as before.
#[derive(Default)]
pub(crate) struct SweepCaches {
    /// The card costs the set choices were worked out with.
    costs: (u32, u64),
    choices: FxHashMap<(u128, u64), Rc<[SuitChoice]>>,
    sets: FxHashMap<(u64, u64), Rc<[SetChoice]>>,
}

/// [`SweepCaches`] lent to one sweep, with the signatures its choices are
/// kept under there.
struct Lent {
    caches: Box<SweepCaches>,
    /// Per suit (`None`: not kept across sweeps).
    suit_sig: [Option<u64>; 5],
    /// Per position, of its rank's set choices.
    rank_sig: [Option<u64>; 16],
}

impl Lent {
    /// Suit `s`'s choices under `key`, if an earlier sweep kept them.
    #[cold]
    fn choices(&self, key: u128, s: usize) -> Option<Rc<[SuitChoice]>> {
        let sig = self.suit_sig[s]?;
        self.caches.choices.get(&(key, sig)).cloned()
    }

    /// Keep suit `s`'s choices under `key` for later sweeps.
    #[cold]
    fn keep_choices(&mut self, key: u128, s: usize, choices: &Rc<[SuitChoice]>) {
        if let Some(sig) = self.suit_sig[s] {
            self.caches.choices.insert((key, sig), Rc::clone(choices));
        }
    }

    /// The set choices at position `p` under `key`, if an earlier sweep
    /// kept them.
    #[cold]
    fn sets(&self, key: u64, p: usize) -> Option<Rc<[SetChoice]>> {
        let sig = self.rank_sig.get(p).copied().flatten()?;
        self.caches.sets.get(&(key, sig)).cloned()
    }

    /// Keep the set choices at position `p` under `key` for later sweeps.
    #[cold]
    fn keep_sets(&mut self, key: u64, p: usize, sets: &Rc<[SetChoice]>) {
        if let Some(sig) = self.rank_sig.get(p).copied().flatten() {
            self.caches.sets.insert((key, sig), Rc::clone(sets));
        }
    }
}

impl SweepCaches {
    /// Entries kept before the caches are emptied, so that a long search
    /// does not grow them without end: a list of suit choices takes about a
    /// kilobyte, and a ~40-card robbing search that stops at its node
    /// limit keeps up to 12,500 of them.
    const MOST: usize = 1 << 14;
}

/// Sets formed at one rank and the copies left in the hand.
#[derive(Debug, Clone)]
struct SetChoice {
    sets: RankSets,
    left: [u8; 5],
    tokens: u8,
    cost: u64,
}

/// One transition from a position to the next.
#[derive(Debug, Clone, Copy)]
struct Transition {
    cost: u64,
    /// The cost plus a lower bound on the rest.
    least: u64,
    /// Wild tokens used after it (the state it leads to is made from the
    /// picks only when it is visited: most listed transitions are not).
    used: u8,
    /// Per suit: index of its choice.
    picks: [u16; 5],
    /// The set choice: index among `set_choices(pool, budget)`.
    set: Option<(u8, Pool, u8)>,
    /// Its place among the transitions of its state: by the suits' choices
    /// in the order they are listed before sorting ([`SuitChoice::orig`]),
    /// then the set choice. Transitions are tried in this order among equal
    /// bounds, so the search (and the transition it finds cheapest, which
    /// the reconstruction follows) does not depend on the order in which
    /// combinations are listed; the memo keeps it to name that transition.
    order: u128,
}

/// Buffers of one depth of the search, kept between states.
#[derive(Default)]
struct Buffers {
    per_suit: Vec<Rc<[SuitChoice]>>,
    /// The choices of the suit that completes the combinations, grouped
    /// (see [`Sweep::combine`]).
    groups: Vec<Group>,
    trans: Vec<Transition>,
    /// (cost, index) of the transitions, to visit them cheapest first.
    order: Vec<(u64, u128, u32)>,
}

/// A run being built during reconstruction.
#[derive(Debug, Clone, Copy)]
struct Building {
    suit: u8,
    lo: u8,
    len: u8,
    wild: u16,
    open: Open,
}

/// The sweep over one rearrangement problem.
pub(super) struct Sweep<'t> {
    t: &'t Tables,
    counts: [u8; FACES],
    optional: [u8; FACES],
    unit: u32,
    scale: u64,
    tokens: u8,
    len: usize,
    ace_twice: bool,
    /// Cap on a run's tracked length.
    len_cap: u8,
    /// Runs from the line's first position keep their exact length (the
    /// line is one longer than the longest run). Such a run is the only one
    /// whose length at position `p` is `p`: any other started later.
    exact_from_start: bool,
    /// The ruleset's suits are listed in ascending order.
    suits_ascending: bool,
    /// Original runs (suit, first and last line position).
    orig_runs: Vec<(u8, u8, u8)>,
    /// Per suit and position: the earliest last position of the original
    /// runs with a hole there ([`NEVER`] where none has): a token there
    /// keeps them whole. A hole is a position between an original run's
    /// first and last that its faces skip, where its meld had a wild card
    /// that is no longer a table card (see [`Sweep::exact`]).
    hole_need: [[u8; 16]; 5],
    /// Per original run (as `orig_runs`), its holes: a bit per position.
    orig_holes: Vec<u16>,
    /// The ranks of the original sets (a bit each).
    orig_set_ranks: u32,
    /// Whether the changes counted are exactly those of comparing melds
    /// with the originals by faces. Not where an original run has holes: a
    /// token at a hole keeps every original with a hole there in reach,
    /// also one the run started after or broke before (a run's start and
    /// earlier tokens are not in the state), so the count may be lower
    /// than the faces' and the optimum is a lower bound (what the robbing
    /// search's floor and bounds ask for, see [`Sweep::optimum`]).
    pub(super) exact: bool,
    /// The cost of the optimum [`Sweep::solve`] found (cards left × unit
    /// plus points, times the scale, plus the changes it counted).
    pub(super) optimum: u64,
    /// Original sets.
    orig_sets: Vec<OrigSet>,
    /// Per suit: the positions before each position without any card.
    no_card: [[u8; 16]; 5],
    /// Per suit and position: the runs its cards need (see
    /// [`Sweep::excess`]).
    demand: [[u8; 16]; 5],
    /// Per position and tokens left, worked out as needed (empty until the
    /// first is).
    slots: Vec<Option<Slots>>,
    /// Per state: the least cost, or only a lower bound on it, and (where
    /// exact) the order key of the transition that reaches it, which the
    /// walk to the optimum follows (see [`Entry`]).
    memo: FxHashMap<Key, Entry>,
    /// The suits' choices by position, suit, open runs, copies and tokens
    /// (see [`Sweep::kept_choices`]).
    choices_memo: FxHashMap<u128, Rc<[SuitChoice]>>,
    /// A buffer for listing a suit's choices.
    choices_buf: Vec<SuitChoice>,
    /// Set choices by position, pool and token budget, packed into one
    /// integer (see [`Sweep::set_choices`]).
    sets_memo: FxHashMap<u64, Rc<[SetChoice]>>,
    /// Recent entries of `sets_memo`, direct-mapped.
    recent_sets: Vec<(u64, Option<Rc<[SetChoice]>>)>,
    /// The cost of the cheapest set choice (the last) for recent keys of
    /// `sets_memo` (marked with [`SETS_KEY_USED`]), direct-mapped: most
    /// combinations are ruled out by it alone.
    least_sets: Vec<(u64, u64)>,
    /// Every set vector (copies per suit, with the tokens up to the
    /// minimum length): the vector, its naturals and its tokens, in the
    /// order collections of sets are listed in (suit by suit, fewer copies
    /// first; see `sets_rec`).
    set_vectors: Cow<'t, [SetVector]>,
    /// The most copies per suit in `set_vectors`.
    set_vectors_most: u8,
    /// Per position: buffers for listing transitions.
    bufs: Vec<Buffers>,
    /// Transitions costing this much or more are not listed (the limit of
    /// the state being expanded).
    cut: u64,
    /// States evaluated.
    pub(super) nodes: u64,
    node_limit: u64,
    /// The deadline, read every [`CLOCK_EVERY`] states.
    clock: Clock,
    /// A limit stopped the sweep (or a state did not fit the encoding).
    pub(super) stopped: bool,
    /// This sweep is the relaxation that gives bounds: changed melds cost
    /// nothing, only cards left count.
    relaxation: bool,
    /// In the relaxation, where wild cards join melds without limits: a
    /// choice that puts a token into a run of a suit while a copy of the
    /// suit at this position is left over (for sets or the hand) is never
    /// better than the same choice with that copy in the token's place. The
    /// run grows alike (with a natural card, which only helps), and the
    /// token saved can take the copy's place in a set (or stays spare), so
    /// the cards left are the same or fewer. Such choices are not listed.
    tokens_replaceable: bool,
    /// List the choices that others dominate too (see
    /// [`Sweep::ends_dominated`]); only a test that checks the rule sets it.
    every_choice: bool,
    /// Count the open runs that can no longer hold an original toward the
    /// bounds (see [`Sweep::gaps`]); off in a test that checks them, and
    /// where original runs have holes (a token at a hole can bring back
    /// an original that `gaps` has given up).
    doomed_runs: bool,
    /// The relaxation whose values bound this sweep's (see
    /// [`Sweep::lower_bound`]); a relaxation bounds itself.
    bounds: Option<Box<Sweep<'t>>>,
    /// Bounds are wanted ([`Sweep::with_bounds`]) and not yet made.
    bounds_wanted: bool,
    /// Choices kept across sweeps, where this sweep was lent them (see
    /// [`Sweep::share`]).
    shared: Option<Box<Lent>>,
    /// Bounds worked out: (position, tokens left, low aces) → least cost
    /// from the position on whatever runs are open there, or (with
    /// [`BOUND`] set) a lower bound on it.
    bound_memo: FxHashMap<BoundKey, u64>,
    /// The entries of `bound_memo` last asked for or written, one per
    /// position and tokens left (the low aces differ rarely): always equal
    /// to the memo's, so that a hit answers as the memo would, and the
    /// sweep that asks for bounds reads it directly (see
    /// [`Sweep::lower_bound`]).
    bound_front: Vec<(BoundKey, u64)>,
    /// Robbing's demand on melds without a hand card, where this sweep
    /// honours it ([`Sweep::demand_pieces`]).
    pieces: Option<PieceLines>,
    /// States evaluated before the relaxation's bounds are used, with
    /// wild tokens (per token) and without ([`BOUNDS_AFTER`],
    /// [`BOUNDS_AFTER_NATURAL`]; tests use 0). The bounds on changed melds
    /// (doomed runs, `excess`) run from the first state.
    bounds_after: (u64, u64),
}

impl<'t> Sweep<'t> {
    /// Whether the sweep covers these rules (else the branch and bound runs).
    pub(super) fn applies(t: &Tables) -> bool {
        t.free && !t.cyclic && t.suits.iter().all(|&s| t.line[s].len() <= 14)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        t: &'t Tables,
        counts: [u8; FACES],
        optional: [u8; FACES],
        unit: u32,
        scale: u64,
        tokens: usize,
        originals: &[Vec<usize>],
        (node_limit, deadline): (u64, Option<std::time::Instant>),
    ) -> Option<Sweep<'t>> {
        let tokens = u8::try_from(tokens)
            .ok()
            .filter(|&n| usize::from(n) <= MAX_TOKENS)?;
        let len = t.line[*t.suits.first()?].len();
        if t.suits.iter().any(|&s| t.line[s].len() != len) {
            return None;
        }
        let ace_twice = len >= 2 && t.line[t.suits[0]][0] == t.line[t.suits[0]][len - 1];
        // The minimum (a run that long may end); with wild tokens one above
        // it, where a trailing token would be spare.
        // On a line one longer than the longest run (the ace at both ends)
        // only a run from the line's first position can grow too long: its
        // length is kept exactly (see `grown`), every other one capped.
        let exact_from_start = len == t.max_run + 1;
        let len_cap = if len <= t.max_run + usize::from(exact_from_start) {
            t.min_len as u8 + u8::from(tokens > 0)
        } else {
            len as u8
        };
        let mut orig_runs = Vec::new();
        let mut orig_holes = Vec::new();
        let mut orig_sets = Vec::new();
        for faces in originals {
            let Some(&first) = faces.iter().find(|&&f| !set_wild(f)) else {
                continue;
            };
            let wild = faces.iter().filter(|&&f| set_wild(f)).count();
            if faces.iter().all(|&f| set_wild(f) || f % 13 == first % 13) {
                let mut per_suit = [0u8; 5];
                for &f in faces.iter().filter(|&&f| !set_wild(f)) {
                    per_suit[f / 13] += 1;
                }
                let tokens = faces.iter().filter(|&&f| f == SET_TOKEN).count();
                orig_sets.push((
                    first % 13,
                    per_suit,
                    u8::try_from(tokens).ok()?,
                    u8::try_from(wild - tokens).ok()?,
                ));
                // A lone face (the rest of its meld were wild cards no
                // longer on the table) is kept by a run holding it too.
                if let [f] = faces[..] {
                    let s = f / 13;
                    for (q, &g) in t.line.get(s)?.iter().enumerate() {
                        if g == f {
                            orig_runs.push((s as u8, q as u8, q as u8));
                            orig_holes.push(0);
                        }
                    }
                }
                continue;
            }
            // (Only a set lists wild cards.)
            if wild > 0 {
                return None;
            }
            let (s, lo, hi, held) = t.run_positions(faces)?;
            if hi - lo >= t.max_run {
                return None;
            }
            let span = ((1u32 << (hi + 1)) - (1u32 << lo)) as u16;
            orig_runs.push((s as u8, lo as u8, hi as u8));
            orig_holes.push(span & !held);
        }
        let mut hole_need = [[NEVER; 16]; 5];
        for (&(s, _, b), &holes) in orig_runs.iter().zip(&orig_holes) {
            for (q, need) in hole_need[usize::from(s)].iter_mut().enumerate() {
                if holes >> q & 1 == 1 {
                    *need = (*need).min(b);
                }
            }
        }
        let exact = orig_holes.iter().all(|&h| h == 0);
        let demand = demand(t, &counts, &orig_sets, len, ace_twice);
        // (Past the line's end, every position counts as one without a card.)
        let mut no_card = [[0u8; 16]; 5];
        for &s in &t.suits {
            for i in 0..15 {
                let none = t.line[s].get(i).is_none_or(|&f| counts[f] == 0);
                no_card[s][i + 1] = no_card[s][i] + u8::from(none);
            }
        }
        // The most copies of a face a set may take per suit.
        let set_vectors_most = if t.distinct_sets {
            1
        } else {
            counts.iter().copied().max().unwrap_or(0)
        };
        Some(Sweep {
            t,
            counts,
            optional,
            unit,
            scale,
            tokens,
            len,
            ace_twice,
            len_cap,
            exact_from_start,
            suits_ascending: t.suits.windows(2).all(|w| w[0] < w[1]),
            orig_runs,
            hole_need,
            orig_holes,
            orig_set_ranks: orig_sets.iter().fold(0, |bits, o| bits | 1 << o.0),
            exact,
            optimum: INF,
            orig_sets,
            no_card,
            demand,
            slots: Vec::new(),
            memo: FxHashMap::with_capacity_and_hasher(1 << 10, Default::default()),
            choices_memo: FxHashMap::default(),
            choices_buf: Vec::new(),
            sets_memo: FxHashMap::default(),
            recent_sets: vec![(0, None); 1 << RECENT_SETS_BITS],
            least_sets: vec![(0, 0); 1 << LEAST_SETS_BITS],
            bufs: (0..=len).map(|_| Buffers::default()).collect(),
            // Kept with the tables for up to `KEPT_SET_VECTORS` copies.
            set_vectors: match t
                .set_vectors
                .get_or_init(|| {
                    (0..=KEPT_SET_VECTORS)
                        .map(|most| set_vectors(t, most))
                        .collect()
                })
                .get(usize::from(set_vectors_most))
            {
                Some(kept) => Cow::Borrowed(&kept[..]),
                None => Cow::Owned(set_vectors(t, set_vectors_most)),
            },
            set_vectors_most,
            cut: INF,
            nodes: 0,
            node_limit,
            clock: Clock::new(deadline, CLOCK_EVERY),
            stopped: false,
            relaxation: false,
            tokens_replaceable: false,
            every_choice: false,
            // The doomed runs and the cards that need changed melds assume
            // that a token breaks every original it falls in.
            doomed_runs: exact,
            bounds: None,
            bounds_wanted: false,
            bound_memo: FxHashMap::default(),
            bound_front: vec![(NO_BOUND_KEY, 0); per_position_slots(len)],
            shared: None,
            pieces: None,
            bounds_after: (
                BOUNDS_AFTER,
                if counts.iter().map(|&c| u32::from(c)).sum::<u32>() >= BOUNDS_FROM_START_CARDS {
                    0
                } else {
                    BOUNDS_AFTER_NATURAL
                },
            ),
        })
    }

    /// Honour robbing's demand on melds without a hand card, by faces
    /// ([`Pieces`]). In the relaxation too, as a bound of the robbing
    /// sweep's states: the cards to come meet the same demand, and the
    /// runs it opens at a position read as holding a hand card (they may
    /// have one before it). Not with more than two copies of a face (the
    /// low aces of the wider memo key, [`State::wide_key`]), runs counted
    /// exactly beyond seven cards or lines of more than 14 positions.
    pub(super) fn demand_pieces(&mut self, pieces: &Pieces) {
        let t = self.t;
        if self.shared.is_some()
            || self.counts.iter().any(|&c| c > 2)
            || self.len_cap >= 8
            || self.len > usize::from(PENDING)
        {
            return;
        }
        let mut lines = PieceLines {
            hand: [0; 5],
            hand_wild: pieces.hand_wild,
            within: [[0; 16]; 5],
            jokers_within: [[0; 16]; 5],
            plain_runs: SmallVec::new(),
            jokered_runs: SmallVec::new(),
            token_suits: 0,
            pending: [0; 5],
            swap_held: [0; 5],
            plain_ends: [0; 5],
            sets: SmallVec::new(),
        };
        for &s in &t.suits {
            for (q, &f) in t.line[s].iter().enumerate() {
                if pieces.hand[f] {
                    lines.hand[s] |= 1 << q;
                }
            }
        }
        // The table runs with a joker, by their natural cards' first and
        // last positions (as `orig_runs` has them).
        let mut jokered: SmallVec<[(u8, u8, u8); 8]> = SmallVec::new();
        for meld in &pieces.melds {
            let Some(&(first, _, _)) = meld.first() else {
                continue;
            };
            let faces: SmallVec<[usize; 16]> = meld.iter().map(|&(f, _, _)| f).collect();
            // A piece's natural cards are the meld's: a natural where the
            // meld has a wild card came from elsewhere.
            if faces.iter().all(|&f| f % 13 == first % 13) {
                let mut suits = [0u8; 5];
                for &(f, w, _) in meld {
                    suits[f / 13] += u8::from(!w);
                }
                lines.sets.push((first % 13, suits));
            } else if let Some((s, lo, hi, _)) = t.run_positions(&faces) {
                let span = ((1u32 << (hi + 1)) - (1u32 << lo)) as u16;
                let naturals = meld
                    .iter()
                    .enumerate()
                    .filter(|&(_, &(_, w, _))| !w)
                    .fold(0u16, |m, (i, _)| m | 1 << (lo + i));
                let jokers = meld
                    .iter()
                    .enumerate()
                    .filter(|&(_, &(_, w, _))| w)
                    .fold(0u16, |m, (i, _)| m | 1 << (lo + i));
                for a in lo..=hi {
                    lines.within[s][a] |= naturals & span & !((1u16 << a) - 1);
                    lines.jokers_within[s][a] |= jokers & span & !((1u16 << a) - 1);
                }
                // Its cards lie at `lo`, `lo + 1`, ... A joker that a
                // choice may exchange is held by the natural in its place
                // too: after the last natural card, the natural ends a
                // pending run's wait (`swap_held`); elsewhere (where a
                // natural may take its place before the run's last natural
                // card), the run is read as one without a joker.
                let last_natural = meld.iter().rposition(|&(_, w, _)| !w);
                let swaps_inside = meld
                    .iter()
                    .enumerate()
                    .any(|(i, &(_, _, x))| x && last_natural.is_some_and(|l| i < l));
                let naturals: SmallVec<[usize; 16]> = meld
                    .iter()
                    .filter(|&&(_, w, _)| !w)
                    .map(|&(f, _, _)| f)
                    .collect();
                if naturals.len() < faces.len() && !swaps_inside {
                    if let Some((s, a, b, _)) = t.run_positions(&naturals) {
                        jokered.push((s as u8, a as u8, b as u8));
                    }
                    for (i, &(_, _, x)) in meld.iter().enumerate() {
                        if x {
                            lines.swap_held[s] |= 1 << (lo + i);
                        }
                    }
                }
            } else if let Some(s) = Some(first / 13).filter(|&s| s < 5) {
                // Faces not in a run's order: its suit is read as covered
                // everywhere, which asks less.
                lines.within[s] = [u16::MAX; 16];
                lines.jokers_within[s] = [u16::MAX; 16];
            }
        }
        let mut plain = [0u16; 5];
        for &(s, a, b) in &self.orig_runs {
            let bit = 1 << b;
            // (Each table run with a joker stands for one original: two
            // may lie alike.)
            match jokered.iter().position(|&j| j == (s, a, b)) {
                Some(i) => {
                    jokered.swap_remove(i);
                    lines.pending[usize::from(s)] |= bit;
                    lines.jokered_runs.push((s, a, b));
                    lines.token_suits |= 1 << s;
                }
                None => {
                    plain[usize::from(s)] |= bit;
                    lines.plain_runs.push((s, a, b));
                }
            }
        }
        // (Where a table run without a joker ends there too, the run may
        // hold that one.)
        for (pending, plain) in lines.pending.iter_mut().zip(plain) {
            *pending &= !plain;
        }
        lines.plain_ends = plain;
        self.pieces = Some(lines);
        // (A token where a copy is left over may be the hand card a meld
        // needs: not replaceable.)
        self.tokens_replaceable = false;
        if self.counts.iter().map(|&c| u32::from(c)).sum::<u32>() >= PIECES_BOUNDS_FROM_CARDS {
            self.bounds_after = (0, 0);
        }
    }

    /// Prune with bounds from the relaxation of this sweep (a copy that
    /// counts no changes), worked out as they are needed.
    pub(super) fn with_bounds(mut self) -> Self {
        self.bounds_wanted = true;
        self
    }

    /// Lend this sweep `caches` of suit and set choices kept from earlier
    /// sweeps (see [`SweepCaches`]); [`Sweep::unshare`] gives them back.
    /// Not where originals have holes (their choices read more than the
    /// signatures hold).
    pub(super) fn share(&mut self, mut caches: Box<SweepCaches>) {
        let costs = (self.unit, self.scale);
        if caches.costs != costs
            || caches.choices.len() > SweepCaches::MOST
            || caches.sets.len() > SweepCaches::MOST
        {
            *caches = SweepCaches {
                costs,
                ..SweepCaches::default()
            };
        }
        let mut lent = Lent {
            caches,
            suit_sig: [None; 5],
            rank_sig: [None; 16],
        };
        if self.exact && self.doomed_runs && !self.relaxation {
            for &s in &self.t.suits {
                lent.suit_sig[s] = self.suit_signature(s);
            }
            for p in 0..self.len.min(16) {
                lent.rank_sig[p] = self.rank_signature(p);
            }
        }
        self.shared = Some(Box::new(lent));
    }

    /// The caches lent by [`Sweep::share`].
    pub(super) fn unshare(&mut self) -> Option<Box<SweepCaches>> {
        self.shared.take().map(|lent| lent.caches)
    }

    /// What suit `s`'s choices read: its line's copies (2 bits a
    /// position) and its original runs (first and last positions), with
    /// the length cap. `None` where that does not fit.
    fn suit_signature(&self, s: usize) -> Option<u64> {
        let line = &self.t.line[s];
        let mut sig = 0u64;
        for &f in line {
            let c = self.counts[f];
            if c > 3 {
                return None;
            }
            sig = sig << 2 | u64::from(c);
        }
        let mut runs: SmallVec<[(u8, u8); 4]> = self
            .orig_runs
            .iter()
            .filter(|&&(os, _, _)| usize::from(os) == s)
            .map(|&(_, a, b)| (a, b))
            .collect();
        if runs.len() > 3 {
            return None;
        }
        runs.sort_unstable();
        for &(a, b) in &runs {
            sig = sig << 8 | u64::from(a) << 4 | u64::from(b);
        }
        // (Lines hold at most 14 positions: 28 bits, then 24 for the runs.)
        Some(sig << 2 | runs.len() as u64 | u64::from(self.len_cap) << 60)
    }

    /// What the set choices at position `p` read: its faces' hand copies
    /// (2 bits a suit), the original sets of its rank (2 bits a suit
    /// each) and the most copies of a face (which set vectors are tried).
    /// `None` where that does not fit or no sets form there.
    fn rank_signature(&self, p: usize) -> Option<u64> {
        let t = self.t;
        let rank = t.line[t.suits[0]].get(p)? % 13;
        let mut sig = 0u64;
        for s in 0..5 {
            let c = if t.suits.contains(&s) {
                self.optional[t.line[s][p]]
            } else {
                0
            };
            if c > 3 {
                return None;
            }
            sig = sig << 2 | u64::from(c);
        }
        let mut sets: SmallVec<[u16; 4]> = SmallVec::new();
        for &(_, o, tokens, wild) in self.orig_sets.iter().filter(|o| o.0 == rank) {
            if o.iter().any(|&c| c > 3) || tokens > 3 || wild > 3 {
                return None;
            }
            let head = u16::from(tokens) << 2 | u16::from(wild);
            sets.push(o.iter().fold(head, |k, &c| k << 2 | u16::from(c)));
        }
        if sets.len() > 3 {
            return None;
        }
        sets.sort_unstable();
        for &v in &sets {
            sig = sig << 14 | u64::from(v);
        }
        let most = self.set_vectors_most;
        Some(sig << 2 | sets.len() as u64 | u64::from(most) << 56)
    }

    /// The relaxation for bounds, made at the first call: the same problem
    /// without originals (no changes to track). Not with the pieces of a
    /// robbing floor: its states grew more than its bounds cut (the ~30
    /// `raeuber` row of `rearrange_stats`: median 1.52 -> 1.64 ms).
    fn bounds_sweep(&mut self) -> Option<&mut Sweep<'t>> {
        if self.bounds_wanted {
            self.bounds_wanted = false;
            self.bounds = Sweep::new(
                self.t,
                self.counts,
                self.optional,
                self.unit,
                self.scale,
                usize::from(self.tokens),
                &[],
                (self.node_limit, self.clock.deadline()),
            )
            .map(|mut relaxed| {
                relaxed.relax();
                Box::new(relaxed)
            });
        }
        self.bounds.as_deref_mut()
    }

    /// Whether run lengths are capped (just above the minimum, see
    /// `len_cap`) rather than counted exactly: the line is no longer than
    /// the longest run (one more with the ace at both ends), so no run but
    /// one from the line's start can grow too long.
    fn lengths_capped(&self) -> bool {
        usize::from(self.len_cap) < self.len
    }

    /// Make this sweep the relaxation: changes cost nothing (and choices
    /// that only matter for them are passed over).
    pub(super) fn relax(&mut self) {
        self.relaxation = true;
        self.tokens_replaceable =
            self.t.share == WildShare::Any && self.t.max_wilds >= self.t.max_set;
    }

    /// A lower bound on the cost after position `p` of a transition that
    /// costs `cost` and leaves `left` tokens and `aces_low` low aces, good
    /// enough to tell whether the whole reaches the listing's cut (none
    /// when everything is listed). `doomed`: the open runs after it that
    /// can no longer hold a whole original run (see
    /// [`SuitChoice::doomed`]); each counts as a changed meld when it
    /// ends, a change the relaxation (which counts none) does not see.
    fn rest_bound(
        &mut self,
        p: usize,
        (left, aces_low): (u8, [u8; 5]),
        cost: u64,
        doomed: u64,
    ) -> u64 {
        if self.cut >= INF {
            return 0;
        }
        let need = self.cut - cost;
        if doomed >= need {
            return doomed;
        }
        doomed + self.lower_bound(p + 1, left, aces_low, need - doomed)
    }

    /// How many tokens run `o`, open after position `p`, needs at least to
    /// still hold a whole original run: the positions up to the end of the
    /// next original it could hold with no card of its suit at all (a token
    /// there keeps that original ahead; a later one ends later still);
    /// `u8::MAX` when no original is left ahead of it, 0 when it holds one.
    /// With more than the tokens left, it is a changed meld whenever it
    /// ends.
    fn gaps(&self, o: Open, p: usize) -> u8 {
        // (A bare run's `need` is where it starts: it may still be all of
        // a table run.)
        if o.bare() {
            return 0;
        }
        let need = usize::from(o.need());
        if need == usize::from(NEVER) {
            return u8::MAX;
        }
        if o.need() == PENDING {
            // (Or none, where a table run without a joker ends later.)
            let later = self
                .pieces
                .as_ref()
                .is_some_and(|pc| pc.plain_ends[usize::from(o.suit())] >> (p + 1) != 0);
            return u8::from(!later);
        }
        // Positions p + 1 ..= need (the line has at most 14).
        let no_card = &self.no_card[usize::from(o.suit())];
        no_card[need + 1] - no_card[(p + 1).min(need + 1)]
    }

    /// States the relaxation evaluated for bounds.
    fn bound_nodes(&self) -> u64 {
        self.bounds.as_ref().map_or(0, |b| b.nodes)
    }

    /// A lower bound on the cost from position `p` on for a state with
    /// `left` tokens left and `aces_low` aces used at the low end: 0 without
    /// bounds, else the relaxation's value (see [`Sweep::relaxed_value`]).
    fn lower_bound(&mut self, p: usize, left: u8, aces_low: [u8; 5], need: u64) -> u64 {
        if self.relaxation {
            self.relaxed_value(p, left, aces_low, need)
        } else {
            let nodes = self.nodes;
            // Small problems finish faster than their bounds; without wild
            // tokens, problems of middling size too.
            let after = if self.tokens == 0 {
                self.bounds_after.1
            } else {
                self.bounds_after.0 * u64::from(self.tokens)
            };
            if nodes < after {
                return 0;
            }
            // What the relaxation's memo holds already, without the call.
            if let Some(b) = self.bounds.as_deref() {
                if let Some(v) = b.known_bound(p, left, aces_low, need) {
                    return v;
                }
            }
            let limit = self.node_limit.saturating_sub(nodes);
            match self.bounds_sweep() {
                Some(b) => {
                    // What the limit leaves after this sweep's own states.
                    b.node_limit = limit;
                    b.relaxed_value(p, left, aces_low, need)
                }
                None => 0,
            }
        }
    }

    /// Keep `m` as the relaxation's answer for `key` in the front table.
    fn keep_bound(&mut self, key: BoundKey, m: u64) {
        let front = front_index(usize::from(key.0), key.1);
        if let Some(slot) = self.bound_front.get_mut(front) {
            *slot = (key, m);
        }
    }

    /// What [`Sweep::relaxed_value`] would answer from its memo alone, if
    /// the front table holds the entry and it is enough for `need`
    /// (`None`: ask it).
    fn known_bound(&self, p: usize, left: u8, aces_low: [u8; 5], need: u64) -> Option<u64> {
        let key = self.bound_key(p, left, aces_low).filter(|_| need > 0)?;
        let &(k, m) = self.bound_front.get(front_index(p, left))?;
        let v = m & !BOUND;
        (k == key && (m & BOUND == 0 || v >= need)).then_some(v)
    }

    /// The key of the relaxation's bound at position `p` with `left`
    /// tokens left and `aces_low` low aces (which count only on a line
    /// with the ace at both ends); `None` where the bound is 0 without
    /// asking: at the line's ends, or once the relaxation has stopped.
    fn bound_key(&self, p: usize, left: u8, aces_low: [u8; 5]) -> Option<BoundKey> {
        if p == 0 || p >= self.len || self.stopped {
            return None;
        }
        let aces_low = if self.ace_twice { aces_low } else { [0; 5] };
        Some((p as u8, left, aces_low))
    }

    /// The least cost without changes from position `p` on, when every run
    /// that could be open there is open, as long as it likes and holding a
    /// natural card: per suit as many as the copies of the previous face
    /// plus the tokens used so far (each open run holds one of them), but
    /// no more than the copies of this face plus the tokens left (any more
    /// could only end here, which costs nothing). With fewer, shorter or
    /// more constrained runs the cost can only be higher, so this bounds
    /// the cost of every state with these tokens and low aces. Where a
    /// run at `p` of length `p` would pass for one from the line's start
    /// (see `exact_from_start`), what is known of a later position (see
    /// [`Sweep::known_later`]); 0 where too many runs do not fit the
    /// encoding, or the relaxation hit a limit.
    pub(super) fn relaxed_value(
        &mut self,
        p: usize,
        left: u8,
        aces_low: [u8; 5],
        need: u64,
    ) -> u64 {
        let Some(key) = self.bound_key(p, left, aces_low).filter(|_| need > 0) else {
            return 0;
        };
        let aces_low = key.2;
        let front = front_index(p, left);
        // Exact, or (BOUND set) a bound that may already be enough; the
        // front table first (consecutive transitions mostly ask the same).
        let known = match self.bound_front.get(front) {
            Some(&(k, m)) if k == key => Some(m),
            _ => self.bound_memo.get(&key).copied(),
        };
        if let Some(m) = known {
            self.keep_bound(key, m);
            let v = m & !BOUND;
            if m & BOUND == 0 || v >= need {
                return v;
            }
        }
        let t = self.t;
        // Runs long enough to end, kept at the minimum length as `grown`
        // keeps them; where that equals the position they would pass for
        // runs from the line's start (counted exactly): no bound there.
        let len = if self.lengths_capped() {
            self.len_cap.min(t.min_len as u8)
        } else {
            self.len_cap
        };
        if self.exact_from_start && p <= usize::from(len) {
            return self.known_later(usize::from(len) + 1, left, aces_low);
        }
        let used = self.tokens - left;
        let mut st = State {
            runs: [Open::default(); MAX_OPEN],
            n: 0,
            used,
            aces_low,
        };
        for &s in &t.suits {
            // More than can take a card at `p` would only end there.
            let k = (self.counts[t.line[s][p - 1]] + used).min(self.avail(p, s, &st) + left);
            for _ in 0..k {
                if !st.push(Open::new(s as u8, len, true, NEVER, false, false)) {
                    return 0;
                }
            }
        }
        let n = usize::from(st.n);
        st.runs[..n].sort_unstable();
        // Called while listing transitions: the listing's cut stays.
        let cut = self.cut;
        // Tokens cost nothing when they are not used (spare ones join melds
        // with room), so the same runs with no tokens left are worth at
        // least as much. That search is small (it only follows transitions
        // that cost nothing); when everything from here on can be placed
        // without tokens, the value is 0 and the search with them is saved.
        if left > 0 {
            let mut none = st;
            none.used = self.tokens;
            let v = self.value(p, &none, 1);
            self.cut = cut;
            if v == 0 && !self.stopped {
                self.bound_memo.insert(key, 0);
                self.keep_bound(key, 0);
                return 0;
            }
        }
        // Ask for up to twice what is needed: the cuts of later questions
        // differ, and a bound proven higher answers more of them from the
        // memo. Measured over 100 positions per row (`rearrange_stats`,
        // callgrind), with the set choices' cheapest-cost table: twice
        // beats four times on every row (−1.3 / −1.8 / −2.2 / −0.7 % at
        // ~20 / 40 / 50 / 60 table cards); `need` itself wins at ~20 and
        // ~40 but loses 2.5 % at ~50; asking for the exact value costs
        // 20–140 % more.
        let asked = need.saturating_mul(2).min(INF);
        let v = self.value(p, &st, asked);
        self.cut = cut;
        if self.stopped {
            return 0;
        }
        // Below what was asked the value is exact; else only a bound.
        let m = if v < asked { v } else { v | BOUND };
        self.bound_memo.insert(key, m);
        self.keep_bound(key, m);
        v
    }

    /// Where no run may yet be read as long enough to end (the first
    /// positions of a line whose runs from its start are counted exactly):
    /// the least this relaxation already knows from position `q` on with
    /// at most `left` tokens left, 0 where it knows none. Every state here
    /// reaches `q` with at most `left` tokens left and the same low aces,
    /// and the cards before `q` cost nothing less than nothing, so each
    /// bound at `q` bounds it too. Only what the memo holds: working such
    /// a bound out from here (the cut still loose, so asked nearly exact)
    /// took more of the relaxation's states than it saved the sweep
    /// (`rearrange_stats`, `raeuber` ~30, BENCHMARKS.md); the states at
    /// `q - 1` ask for it anyway.
    fn known_later(&self, q: usize, left: u8, aces_low: [u8; 5]) -> u64 {
        let mut least = INF;
        for l in 0..=left {
            match self
                .bound_key(q, l, aces_low)
                .and_then(|key| self.bound_memo.get(&key))
            {
                Some(&m) => least = least.min(m & !BOUND),
                None => return 0,
            }
        }
        least
    }

    /// Solve: the optimal arrangement as shapes, the faces left in the
    /// hand and the tokens used, if it costs less than `limit` (an
    /// arrangement already known); `None` when stopped or none is cheaper.
    pub(super) fn solve(&mut self, limit: u64) -> Option<Best> {
        let start = State {
            runs: [Open::default(); MAX_OPEN],
            n: 0,
            used: 0,
            aces_low: [0; 5],
        };
        let total = self.value(0, &start, limit);
        if self.stopped || total >= limit {
            return None;
        }
        self.optimum = total;
        // Walk forward along optimal transitions.
        let mut state = start;
        let mut building: Vec<Building> = Vec::new();
        let mut shapes: Vec<Shape> = Vec::new();
        let mut dead: Vec<u8> = Vec::new();
        let mut deadwood = 0u32;
        let mut remaining = total;
        for p in 0..=self.len {
            // The transition the search found best from this state (its
            // value is exact: it is on the optimal path).
            // (A walk that loses the way would be a bug: it counts as
            // stopped, so that the caller falls back to the branch and bound
            // instead of taking it for "nothing cheaper".)
            let Some(best) = self.memo.get(&state.key(p)).map(|e| e.order()) else {
                self.stopped = true;
                return None;
            };
            let (per_suit, trans) = self.transitions(p, &state, remaining + 1);
            let chosen = trans.into_iter().find(|tr| tr.order == best);
            let Some((chosen, next)) = chosen.and_then(|c| {
                let next = self.next_state(p, &state, &per_suit, &c.picks, c.used)?;
                Some((c, next))
            }) else {
                self.stopped = true;
                return None;
            };
            remaining -= chosen.cost;
            // Runs: state.runs and building are kept in the same order.
            let mut next_building = Vec::new();
            let mut idx = 0;
            for (k, &s) in self.t.suits.iter().enumerate() {
                let choice = per_suit[k][usize::from(chosen.picks[k])];
                for &step in &choice.steps[..usize::from(choice.n)] {
                    let b = building[idx];
                    idx += 1;
                    match step {
                        Step::End => shapes.push(Shape::Run {
                            suit: b.suit,
                            lo: b.lo,
                            len: b.len,
                            wild: b.wild,
                        }),
                        Step::Natural | Step::Token => {
                            let mut b = b;
                            if step == Step::Token {
                                b.wild |= 1 << b.len;
                            }
                            b.len += 1;
                            b.open = self.grown(b.open, step == Step::Natural, p);
                            next_building.push(b);
                        }
                    }
                }
                if p < self.len {
                    for i in 0..choice.start_nat + choice.start_tok {
                        let nat = i < choice.start_nat;
                        next_building.push(Building {
                            suit: s as u8,
                            lo: p as u8,
                            len: 1,
                            wild: u16::from(!nat),
                            open: self.started(s, p, nat),
                        });
                    }
                }
            }
            if let Some((i, pool, budget)) = chosen.set {
                let rank = self.t.line[self.t.suits[0]][p] % 13;
                let choices = self.set_choices(p, rank, pool, budget);
                let sc = &choices[usize::from(i)];
                for &(per_suit, tokens) in &sc.sets {
                    shapes.push(Shape::Set {
                        rank: rank as u8,
                        per_suit,
                        tokens,
                    });
                }
                for &s in &self.t.suits {
                    let f = self.t.line[s][p];
                    for _ in 0..sc.left[s] {
                        // Face indices are below 65.
                        dead.push(f as u8);
                        deadwood += self.t.penalty[f] + self.unit;
                    }
                }
            }
            // Keep building in the state's (sorted) order.
            next_building.sort_by_key(|b| (b.open, b.lo, b.wild));
            building = next_building;
            state = next;
        }
        Some(Best {
            deadwood,
            melded: 0,
            shapes: shapes.into(),
            dead: dead.into(),
            absorbed: usize::from(self.tokens - state.used),
            wild_melded: 0,
            points: 0,
        })
    }

    /// The least cost from position `p` on, if it is below `limit`; else
    /// some lower bound of at least `limit` (the memo keeps which it was).
    fn value(&mut self, p: usize, state: &State, limit: u64) -> u64 {
        if self.stopped {
            return INF;
        }
        let key = state.key(p);
        if let Some(e) = self.memo.get(&key) {
            let v = e.value();
            if !e.bound() || v >= limit {
                return v;
            }
        }
        self.nodes += 1;
        let late = self.clock.passed(self.nodes);
        // The relaxation's states count toward the limit too.
        if self.nodes + self.bound_nodes() > self.node_limit || late {
            self.stopped = true;
            return INF;
        }
        // Changed melds still to come: the open runs that can no longer hold
        // an original, and those the cards ahead force (see `excess`). Not
        // where the limit leaves room for a card left in the hand (the bound
        // counts at most one change per open run and one per suit). From
        // the first state on: with the slots kept per position and tokens
        // left, a state's bound is a few lookups (measured on the `offen`
        // ~60 positions: the median 11.41 M -> 10.91 M instructions against
        // starting after `bounds_after` states).
        let most = self.most_forced();
        if !self.relaxation && self.doomed_runs && p > 0 && p < self.len && limit <= most {
            let left = self.tokens - state.used;
            let doomed = state
                .open()
                .iter()
                .filter(|&&o| self.gaps(o, p - 1) > left)
                .count() as u64;
            let lb = doomed + self.excess(p, state);
            if lb >= limit {
                self.memo.insert(key, Entry::new(lb, true, 0));
                return lb;
            }
        }
        let mut best = INF;
        let mut best_order = 0u128;
        // This depth's buffers, lent out while its children use theirs.
        let mut bufs = std::mem::take(&mut self.bufs[p]);
        // Transitions that cost the limit or more are never visited.
        self.cut = limit;
        self.transitions_into(
            p,
            state,
            &mut bufs.per_suit,
            &mut bufs.groups,
            &mut bufs.trans,
        );
        bufs.order.clear();
        // Cheapest first by cost plus the bound on the rest.
        bufs.order.extend(
            bufs.trans
                .iter()
                .enumerate()
                .map(|(i, tr)| (tr.least, tr.order, i as u32)),
        );
        bufs.order.sort_unstable();
        for &(least, _, i) in &bufs.order {
            let bound = best.min(limit);
            if least >= bound {
                break;
            }
            let tr = &bufs.trans[i as usize];
            let cost = tr.cost;
            let rest = if p == self.len {
                0
            } else {
                // Listed only when its runs fit the state's encoding.
                let Some(next) = self.next_state(p, state, &bufs.per_suit, &tr.picks, tr.used)
                else {
                    self.stopped = true;
                    break;
                };
                self.value(p + 1, &next, bound - cost)
            };
            // The first found of the cheapest is the one the walk takes.
            let total = cost.saturating_add(rest);
            if total < best {
                best = total;
                best_order = tr.order;
            }
        }
        self.bufs[p] = bufs;
        // Below the limit the search was exact; else only a bound.
        let exact = best < limit;
        let v = if exact { best } else { limit };
        self.memo.insert(key, Entry::new(v, !exact, best_order));
        v
    }

    /// A lower bound on the changed melds that the cards from position `p`
    /// on force, beyond the runs open in `state`. Every card must end in a
    /// meld; one that holds a whole original is an open run, a run holding
    /// an original run not yet begun, or a set holding an original set.
    /// At each position a suit's cards other than those of original sets
    /// (and those the sets have room for) need as many runs
    /// through it: at most the open runs that can reach it (with the tokens
    /// left for positions without a card) plus the runs that can hold an
    /// original run not yet begun and take the position (as many per
    /// original as there are copies of all its faces: melds are compared
    /// with originals by their faces). Cards beyond that end
    /// in changed melds (hand cards may stay in the hand, which costs
    /// more): runs of one suit or sets of one rank, so the bound is the
    /// fewest suits and ranks that cover those positions.
    fn excess(&mut self, p: usize, state: &State) -> u64 {
        let mut open = [0u8; 5];
        for o in state.open() {
            open[usize::from(o.suit())] += 1;
        }
        self.excess_of(p, self.tokens - state.used, open)
    }

    /// Whether a transition at position `p` whose suits take `picks`,
    /// leaving `left` tokens, with `paid` its cost and its doomed runs, is
    /// past the cut by what [`Sweep::value`] would find first thing in the
    /// state it leads to: the changed melds the cards ahead force (see
    /// [`Sweep::excess`]). Passing it over here saves making that state,
    /// looking it up and keeping it in the memo; the searches that would
    /// visit it are cut there anyway (their limit is at most the cut less
    /// the transition's cost), so the answers are the same.
    fn forced_past_cut(
        &mut self,
        p: usize,
        (per_suit, picks): (&[Rc<[SuitChoice]>], &[u16; 5]),
        left: u8,
        paid: u64,
    ) -> bool {
        let next = p + 1;
        if self.relaxation || !self.doomed_runs || next >= self.len {
            return false;
        }
        // As in `value` (see `most_forced`).
        let most = self.most_forced();
        let Some(need) = self.cut.checked_sub(paid) else {
            return true;
        };
        if need > most {
            return false;
        }
        let mut open = [0u8; 5];
        for ((cs, &i), &s) in per_suit.iter().zip(picks).zip(&self.t.suits) {
            open[s] = cs[usize::from(i)].runs_n;
        }
        self.excess_of(next, left, open) >= need
    }

    /// The most the bound on changed melds to come (the doomed runs and
    /// [`Sweep::excess`]) can give: a change per open run and per suit. A
    /// limit above it is never reached, so the bound is not worked out.
    fn most_forced(&self) -> u64 {
        (MAX_OPEN + self.t.suits.len()) as u64
    }

    /// [`Sweep::excess`] at position `p` with `left` tokens left and
    /// `open[s]` runs of suit `s` open.
    fn excess_of(&mut self, p: usize, left: u8, open: [u8; 5]) -> u64 {
        let i = front_index(p, left);
        if self.slots.is_empty() {
            self.slots = vec![None; per_position_slots(self.len)];
        }
        let slots = match self.slots[i] {
            Some(m) => m,
            None => {
                let m = self.slots_at(p, left);
                self.slots[i] = Some(m);
                m
            }
        };
        // Per suit, the positions with more cards than runs through them;
        // only the suits with such positions are kept (a suit without is
        // never worth taking whole).
        let mut per_suit = [0u16; 5];
        let mut n = 0;
        for &s in &self.t.suits {
            let over = slots.over[s][usize::from(open[s]).min(MAX_OPEN)];
            if over != 0 {
                per_suit[n] = over;
                n += 1;
            }
        }
        // The fewest lines: some suits taken whole, the other cards' ranks.
        let per_suit = &per_suit[..n];
        (0u32..1 << n)
            .map(|taken| {
                let mut ranks = 0u16;
                for (k, &over) in per_suit.iter().enumerate() {
                    if taken >> k & 1 == 0 {
                        ranks |= over;
                    }
                }
                u64::from(taken.count_ones() + ranks.count_ones())
            })
            .min()
            .unwrap_or(0)
    }

    /// [`Slots`] from position `p` on with `left` tokens left.
    fn slots_at(&self, p: usize, left: u8) -> Slots {
        let t = self.t;
        // Per suit and position: the runs holding an original that can
        // take it, and (bits) where a run open before `p` can reach.
        let mut orig_through = [[0u8; 16]; 5];
        let mut reach = [0u16; 5];
        for &s in &t.suits {
            let line = &t.line[s];
            let no_card = &self.no_card[s];
            // Positions a..b without a card.
            let gaps = |a: usize, b: usize| no_card[b] - no_card[a];
            for (q, through) in orig_through[s]
                .iter_mut()
                .enumerate()
                .take(self.len)
                .skip(p)
            {
                if gaps(p, q + 1) <= left {
                    reach[s] |= 1 << q;
                }
                *through = self
                    .orig_runs
                    .iter()
                    .filter(|&&(os, a, b)| {
                        let (a, b) = (usize::from(a), usize::from(b));
                        usize::from(os) == s
                            && a >= p
                            && b.max(q) - a.min(q) < t.max_run
                            && if q < a {
                                gaps(q + 1, a) <= left
                            } else {
                                q <= b || gaps(b + 1, q) <= left
                            }
                    })
                    // Every run that holds the original's faces holds a
                    // whole original (the copies of a face are alike): as
                    // many as there are copies of them.
                    .map(|&(_, a, b)| {
                        (usize::from(a)..=usize::from(b))
                            .map(|r| self.counts[line[r]])
                            .min()
                            .unwrap_or(0)
                    })
                    .sum();
            }
        }
        // Per number of open runs of the suit: the positions from `p` on
        // with more cards than runs can pass through them.
        let mut slots = Slots {
            over: [[0; MAX_OPEN + 1]; 5],
        };
        for &s in &t.suits {
            let ahead = orig_through[s].iter().zip(&self.demand[s]).enumerate();
            for (q, (&through, &demand)) in ahead.take(self.len).skip(p) {
                // Cards beyond the original runs: outnumbering the runs
                // through it with fewer open runs than that (any number
                // where no open run can reach it).
                let beyond = usize::from(demand.saturating_sub(through));
                let upto = if reach[s] >> q & 1 == 1 {
                    beyond.min(MAX_OPEN + 1)
                } else if beyond > 0 {
                    MAX_OPEN + 1
                } else {
                    0
                };
                for over in &mut slots.over[s][..upto] {
                    *over |= 1 << q;
                }
            }
        }
        slots
    }

    /// The first position at which a run starting at `p` in suit `s` holds
    /// a whole original run.
    fn need_for(&self, s: usize, p: usize) -> u8 {
        self.orig_runs
            .iter()
            .filter(|&&(os, a, _)| usize::from(os) == s && usize::from(a) >= p)
            .map(|&(_, _, b)| b)
            .min()
            .unwrap_or(NEVER)
    }

    /// Whether runs of suit `s` keep whether they hold a token: only
    /// where a table run of the suit has a joker that must stay one (held
    /// whole only with a token, [`PENDING`], [`Sweep::bare_holds`]);
    /// elsewhere the bit would only split alike states.
    fn tracks_tokens(&self, s: u8) -> bool {
        self.pieces
            .as_ref()
            .is_some_and(|pc| pc.token_suits >> s & 1 == 1)
    }

    /// `need` of a run of suit `s` that has just taken the last natural
    /// card of an original run, at position `p`: 0, it holds it;
    /// [`PENDING`] where the sweep honours pieces, every table run that
    /// ends there has a joker and the run has no token yet (`has_tok`).
    fn held_at(&self, s: usize, has_tok: bool, p: usize) -> u8 {
        match &self.pieces {
            Some(pc) if !has_tok && pc.pending[s] >> p & 1 == 1 => PENDING,
            _ => 0,
        }
    }

    /// The run after a card at position `p` joined it (a run that holds a
    /// whole original run forgets where that was: `need` 0).
    fn grown(&self, o: Open, natural: bool, p: usize) -> Open {
        if o.bare() {
            if let Some(pc) = &self.pieces {
                return self.grown_bare(pc, o, natural, p);
            }
        }
        // An original run is held when its last position joins as a
        // natural card; a token breaks every original run it falls in, so
        // only those starting after it are left to hold.
        let need = if o.need() == 0 {
            0
        } else if natural && usize::from(o.need()) == p {
            self.held_at(usize::from(o.suit()), o.has_tok(), p)
        } else if o.need() == PENDING {
            let swapped = natural
                && self
                    .pieces
                    .as_ref()
                    .is_some_and(|pc| pc.swap_held[usize::from(o.suit())] >> p & 1 == 1);
            // A natural where a table run without a joker ends: the run
            // may hold that one (where it started is not in the state).
            let released = natural
                && self
                    .pieces
                    .as_ref()
                    .is_some_and(|pc| pc.plain_ends[usize::from(o.suit())] >> p & 1 == 1);
            if natural && !swapped && !released {
                PENDING
            } else {
                0
            }
        } else if natural || self.relaxation {
            o.need()
        } else {
            let s = usize::from(o.suit());
            self.need_for(s, p + 1).min(self.hole_need[s][p])
        };
        let from_start = self.exact_from_start && usize::from(o.len()) == p;
        let (len, tail_tok) = self.grown_len(o.len(), natural, from_start);
        let mut g = Open::new(
            o.suit(),
            len,
            o.nat() || natural,
            need,
            tail_tok,
            o.to_end(),
        );
        if self.tracks_tokens(o.suit()) && (o.has_tok() || !natural) {
            g = g.with_tok();
        }
        // The token that a pending run needed is no spare one either.
        if o.need() == PENDING && !natural && tail_tok {
            g = self.untailed(g);
        }
        g
    }

    /// The length of a run of `len` cards grown by a natural card or a
    /// token, and whether its last card is a token that matters. A
    /// trailing token matters only in a run longer than the minimum (it
    /// would be spare there); shorter runs forget it, so that runs alike in
    /// all else are one state. Without one, a run longer than the minimum
    /// may end and grows just like one of the minimum length: where lengths
    /// are capped anyway (not for a run counted exactly from the line's
    /// start, `from_start`) it is kept as one, which makes them one state
    /// too.
    fn grown_len(&self, len: u8, natural: bool, from_start: bool) -> (u8, bool) {
        let len = if from_start {
            len + 1
        } else {
            (len + 1).min(self.len_cap)
        };
        let tail_tok = !natural && usize::from(len) > self.t.min_len;
        (self.kept_len(len, tail_tok, from_start), tail_tok)
    }

    /// `len` as the state keeps it where the run's last card is no token
    /// that matters (see [`Sweep::grown_len`]).
    fn kept_len(&self, len: u8, tail_tok: bool, from_start: bool) -> u8 {
        if !from_start && !tail_tok && self.lengths_capped() {
            len.min(self.t.min_len as u8)
        } else {
            len
        }
    }

    /// [`Sweep::grown`] for a bare run `o` (its `need` field holds where
    /// it started, see [`Open`]). A card that may be the hand's makes it a
    /// run like any other, with the `need` it would have (read leniently:
    /// as if it had no token that broke an original). Else it stays bare;
    /// it strays where a natural lies outside every table run that spans
    /// its start. (Not a token: the sweep puts a run's tokens after its
    /// naturals where a piece may have its joker before them.)
    fn grown_bare(&self, pc: &PieceLines, o: Open, natural: bool, p: usize) -> Open {
        let s = usize::from(o.suit());
        let start = usize::from(o.need());
        let hand = if natural {
            pc.hand[s] >> p & 1 == 1
        } else {
            pc.hand_wild
        };
        if hand {
            let need = self.need_from(pc, s, start, p, o.has_tok());
            let mut plain = Open::new(o.suit(), o.len(), true, need, o.tail_tok(), o.to_end());
            if o.has_tok() {
                plain = plain.with_tok();
            }
            let mut g = self.grown(plain, natural, p);
            // A token at a hole keeps only the table runs this one spans
            // from their first card (where it starts is known here), not
            // every one with a hole there, as `grown` reads a run's token.
            if !natural && g.need() != 0 && g.need() != PENDING {
                g = g.with_need(
                    self.need_for(s, p + 1)
                        .min(self.hole_need_from(s, start, p)),
                );
            }
            // The token a stray run needed is no spare one (which the
            // sweep leaves off a run's end, `end_cost`).
            return if o.stray() && !natural {
                self.untailed(g)
            } else {
                g
            };
        }
        // (A bare run never counts exactly from the line's start.) Its
        // last card is marked where it is a token, at any length: a natural
        // after a token where no table run spanning its start has a joker
        // makes it stray (a piece keeps its jokers where they stand; a
        // token at a run's end may stand for a joker before its naturals,
        // see `end_cost`).
        let (len, tail_tok) = self.grown_len(o.len(), natural, false);
        let tail_tok = tail_tok || !natural && pc.jokers_within[s][start] >> p & 1 == 0;
        let misplaced =
            natural && o.tail_tok() && p > 0 && pc.jokers_within[s][start] >> (p - 1) & 1 == 0;
        let stray = o.stray() || natural && pc.within[s][start] >> p & 1 == 0 || misplaced;
        let mut g = Open::new(o.suit(), len, true, o.need(), tail_tok, o.to_end()).made_bare(stray);
        if self.tracks_tokens(o.suit()) && (o.has_tok() || !natural) {
            g = g.with_tok();
        }
        g
    }

    /// `need` of a run of suit `s` from position `start` whose cards up to
    /// `p - 1` were bare: 0 where it holds a table run between them (with a
    /// token, where that run had a joker and `has_tok`), [`PENDING`] where
    /// it holds only one that waits for a token ([`Sweep::held_at`]), else
    /// the first end of a table run from `start` on. Tokens that broke a
    /// table run are not known: read as none, which asks less.
    fn need_from(&self, pc: &PieceLines, s: usize, start: usize, p: usize, has_tok: bool) -> u8 {
        let inside = |r: &&(u8, u8, u8)| lies_within(r, s, start, p);
        if pc.plain_runs.iter().any(|r| inside(&r)) {
            return 0;
        }
        let mut pending = false;
        for &(_, _, b) in pc.jokered_runs.iter().filter(inside) {
            if has_tok || pc.pending[s] >> b & 1 == 0 {
                return 0;
            }
            pending = true;
        }
        if pending {
            PENDING
        } else {
            self.need_for(s, start)
        }
    }

    /// The earliest last position of the original runs of suit `s` from
    /// `start` on with a hole at `p` ([`NEVER`] where none has).
    fn hole_need_from(&self, s: usize, start: usize, p: usize) -> u8 {
        self.orig_runs
            .iter()
            .zip(&self.orig_holes)
            .filter(|&(&(os, a, _), &holes)| {
                usize::from(os) == s && usize::from(a) >= start && holes >> p & 1 == 1
            })
            .map(|(&(_, _, b), _)| b)
            .min()
            .unwrap_or(NEVER)
    }

    /// The bare runs of suit `s` that choice `c` ends before position `p`
    /// read as all of a table run ([`Sweep::bare_holds`], each on its own)
    /// beyond the most of them that can be all of different ones (a table
    /// run is one piece: two bare runs alike by faces are all of two table
    /// runs or of one). Each is a changed meld more.
    fn bare_overclaims(&self, p: usize, s: usize, opens: &[Open], c: &SuitChoice) -> u64 {
        let Some(pc) = &self.pieces else {
            return 0;
        };
        if self.relaxation {
            return 0;
        }
        let ending = || {
            opens
                .iter()
                .zip(&c.steps[..usize::from(c.n)])
                .filter(|&(o, &step)| step == Step::End && o.bare())
                .map(|(&o, _)| o)
        };
        if ending().nth(1).is_none() {
            return 0;
        }
        // Per ending bare run, the table runs it may be all of (a bit each:
        // those without a joker, then those with one).
        let plain = pc.plain_runs.len();
        if plain + pc.jokered_runs.len() > 32 {
            return 0;
        }
        let mut can: SmallVec<[u32; 8]> = SmallVec::new();
        for o in ending() {
            let start = usize::from(o.need());
            let inside = |r: &(u8, u8, u8)| lies_within(r, s, start, p);
            let mut bits = 0u32;
            for (j, r) in pc.plain_runs.iter().enumerate() {
                if inside(r) {
                    bits |= 1 << j;
                }
            }
            if o.has_tok() {
                for (j, r) in pc.jokered_runs.iter().enumerate() {
                    if inside(r) {
                        bits |= 1 << (plain + j);
                    }
                }
            }
            if bits != 0 {
                can.push(bits);
            }
        }
        if can.len() < 2 {
            return 0;
        }
        (can.len() - most_pairs(&can)) as u64
    }

    /// Whether a bare run of suit `s` from `start` to `last` holds a table
    /// run whole (read by faces: a piece that is all of its table run).
    fn bare_holds(
        &self,
        pc: &PieceLines,
        s: usize,
        start: usize,
        last: usize,
        has_tok: bool,
    ) -> bool {
        let inside = |r: &(u8, u8, u8)| lies_within(r, s, start, last.saturating_add(1));
        pc.plain_runs.iter().any(inside) || has_tok && pc.jokered_runs.iter().any(inside)
    }

    /// Run `g`, grown by a token it needed (a stray run's hand card, a
    /// pending run's joker), as one whose last card is no spare token:
    /// it may end there.
    fn untailed(&self, g: Open) -> Open {
        let len = self.kept_len(g.len(), false, false);
        let u = Open::new(g.suit(), len, true, g.need(), false, g.to_end());
        if g.has_tok() { u.with_tok() } else { u }
    }

    /// A run starting at position `p` of suit `s`.
    fn started(&self, s: usize, p: usize, natural: bool) -> Open {
        // A run starting with a token can hold only originals after it.
        let need = if self.relaxation {
            NEVER
        } else {
            let need = self.need_for(s, p + usize::from(!natural));
            // An original of this one position is held at once.
            if natural && usize::from(need) == p {
                0
            } else {
                need
            }
        };
        let mut o = Open::new(s as u8, 1, natural, need, !natural, !natural);
        if self.pieces.is_some() {
            if natural && need == 0 {
                o = Open::new(s as u8, 1, natural, self.held_at(s, false, p), false, false);
            } else if !natural && self.tracks_tokens(s as u8) {
                o = o.with_tok();
            }
        }
        // A natural no hand card has makes a bare run (a token counts as
        // a hand card, which only asks less): not one the line's start
        // counts exactly (see `exact_from_start`).
        match &self.pieces {
            Some(pc)
                if natural && pc.hand[s] >> p & 1 == 0 && !(self.exact_from_start && p == 0) =>
            {
                // (Its `need` field holds where it starts.)
                Open::new(s as u8, 1, true, p as u8, false, false)
                    .made_bare(pc.within[s][p] >> p & 1 == 0)
            }
            _ => o,
        }
    }

    /// Whether a run may end with this state, and whether ending it (last
    /// card at position `last`) is a change.
    /// Canonical form: no spare token at the right end (it would join some
    /// meld at the end anyway), a run starting with a token only where it
    /// cannot grow to the right.
    fn end_cost(&self, o: Open, last: usize) -> Option<u64> {
        let t = self.t;
        let spare_tail = o.tail_tok() && usize::from(o.len()) > t.min_len;
        let no_room = last + 1 == self.len || usize::from(o.len()) >= t.max_run;
        // A stray run needs a hand card: a token, where the hand may give
        // one, and it has no room to the right for it (where it starts is
        // not in the state).
        let stray_ok = !o.stray() || self.pieces.as_ref().is_some_and(|pc| pc.hand_wild) && no_room;
        let valid = usize::from(o.len()) >= t.min_len
            && stray_ok
            && (o.nat() || t.all_wild)
            && !spare_tail
            && (!o.to_end() || no_room);
        // `need` 0: it holds an original (else it is still ahead, or never).
        let changed = !self.relaxation
            && match &self.pieces {
                Some(pc) if o.bare() => !self.bare_holds(
                    pc,
                    usize::from(o.suit()),
                    usize::from(o.need()),
                    last,
                    o.has_tok(),
                ),
                _ => o.need() != 0,
            };
        valid.then(|| u64::from(changed))
    }

    /// Every transition from `state` at position `p` (`p == len`: only the
    /// closing of the runs still open) that with a lower bound on the rest
    /// costs less than `cut`, with the suits' choices they pick from (the
    /// walk to the optimum names the one it wants by its
    /// [`Transition::order`]).
    fn transitions(
        &mut self,
        p: usize,
        state: &State,
        cut: u64,
    ) -> (Vec<Rc<[SuitChoice]>>, Vec<Transition>) {
        let mut per_suit = Vec::new();
        let mut groups = Vec::new();
        let mut out = Vec::new();
        self.cut = cut;
        // The same choices as the search (the dominated ones left out).
        self.transitions_into(p, state, &mut per_suit, &mut groups, &mut out);
        (per_suit, out)
    }

    /// [`Sweep::transitions`] into buffers that are cleared first.
    fn transitions_into(
        &mut self,
        p: usize,
        state: &State,
        per_suit: &mut Vec<Rc<[SuitChoice]>>,
        groups: &mut Vec<Group>,
        out: &mut Vec<Transition>,
    ) {
        let t = self.t;
        let budget = self.tokens - state.used;
        out.clear();
        per_suit.clear();
        for &s in &t.suits {
            // The runs sort by suit first: a suit's runs are one slice.
            let all = state.open();
            let from = all.partition_point(|o| usize::from(o.suit()) < s);
            let to = from + all[from..].partition_point(|o| usize::from(o.suit()) == s);
            let opens = &all[from..to];
            let avail = self.avail(p, s, state);
            match self.kept_choices(p, s, opens, (avail, budget)) {
                Some(choices) if !choices.is_empty() => per_suit.push(choices),
                _ => return,
            }
        }
        groups.clear();
        // The suit with the most choices completes the combinations (its
        // choices grouped); the others are combined before it. Ties: the
        // later suit.
        let last = per_suit
            .iter()
            .enumerate()
            .max_by_key(|&(k, cs)| (cs.len(), k))
            .map_or(0, |(k, _)| k);
        if let Some(last) = per_suit.get(last) {
            for (i, c) in last.iter().enumerate() {
                let i = i as u16;
                let mut least = [0; MAX_TOKENS + 1];
                for (l, d) in least.iter_mut().zip(&c.doomed) {
                    *l = c.changes + u64::from(*d);
                }
                match groups.last_mut() {
                    Some(g) if g.tokens == c.tokens && g.pool == c.pool => {
                        g.to = i + 1;
                        for (g, l) in g.least.iter_mut().zip(least) {
                            *g = (*g).min(l);
                        }
                    }
                    _ => groups.push(Group {
                        from: i,
                        to: i + 1,
                        tokens: c.tokens,
                        pool: c.pool,
                        least,
                    }),
                }
            }
        }
        let mut picks = [0u16; 5];
        self.combine(p, state, (per_suit, groups, last), &mut picks, out);
    }

    /// The choices of suit `s` at position `p` for its open runs `opens`,
    /// `avail` natural copies and `budget` tokens, each with the runs after
    /// it, sorted by tokens and then by copies left for sets; `None` when
    /// the runs do not fit the encoding (the sweep stops). Kept per
    /// position, suit, runs, copies and tokens: states that differ in other
    /// suits share them (not in the test sweep that lists every choice).
    fn kept_choices(
        &mut self,
        p: usize,
        s: usize,
        opens: &[Open],
        (avail, budget): (u8, u8),
    ) -> Option<Rc<[SuitChoice]>> {
        let key = (!self.every_choice && opens.len() <= CHOICES_KEY_RUNS)
            .then(|| choices_key(p, s, opens, avail, budget))
            .flatten();
        if let Some(found) = key.and_then(|k| self.choices_memo.get(&k)) {
            return Some(Rc::clone(found));
        }
        // Kept from an earlier sweep with the same copies and originals in
        // this suit.
        if let (Some(k), Some(lent)) = (key, &self.shared) {
            if let Some(found) = lent.choices(k, s) {
                self.choices_memo.insert(k, Rc::clone(&found));
                return Some(found);
            }
        }
        let mut choices = std::mem::take(&mut self.choices_buf);
        choices.clear();
        let mut choice = SuitChoice {
            steps: [Step::End; MAX_OPEN],
            n: 0,
            start_nat: 0,
            start_tok: 0,
            naturals: 0,
            tokens: 0,
            changes: 0,
            runs: [Open::default(); MAX_OPEN],
            runs_n: 0,
            doomed: [0; MAX_TOKENS + 1],
            reserve: 0,
            pool: 0,
            orig: 0,
        };
        // The tokens a run started here with one needs later, one per
        // position without a card up to where it may end (positions with
        // fewer copies than runs are left to `reserve`).
        let token_run = if budget > 0 && p < self.len {
            let no_card = &self.no_card[s];
            no_card[self.token_run_end(p) + 1] - no_card[p + 1]
        } else {
            0
        };
        self.suit_choices(
            (p, s),
            opens,
            (avail, budget, token_run),
            &mut choice,
            &mut choices,
        );
        for (i, c) in choices.iter_mut().enumerate() {
            if !self.fill_runs(p, s, opens, c) {
                self.stopped = true;
                self.choices_buf = choices;
                return None;
            }
            c.pool = avail - c.naturals;
            // Far fewer than 2^16 choices (each open run has three steps,
            // and tokens are few); ties past that would keep their sorted
            // order.
            c.orig = u16::try_from(i).unwrap_or(u16::MAX);
        }
        // Choices whose runs need more tokens than are left can never be
        // completed.
        choices.retain(|c| u16::from(c.tokens) + u16::from(c.reserve) <= u16::from(budget));
        // Fewest tokens first (a combination stops at the first choice over
        // the budget), then by the copies left for sets (the choices of the
        // suit that completes the combinations are grouped by both).
        if !choices.is_sorted_by_key(|c| (c.tokens, c.pool)) {
            choices.sort_by_key(|c| (c.tokens, c.pool));
        }
        let kept: Rc<[SuitChoice]> = Rc::from(&choices[..]);
        self.choices_buf = choices;
        if let Some(k) = key {
            self.choices_memo.insert(k, Rc::clone(&kept));
        }
        if let (Some(k), Some(lent)) = (key, &mut self.shared) {
            lent.keep_choices(k, s, &kept);
        }
        Some(kept)
    }

    /// The runs of suit `s` open after position `p` under choice `c`,
    /// sorted (false when they do not fit the encoding).
    fn fill_runs(&self, p: usize, s: usize, opens: &[Open], c: &mut SuitChoice) -> bool {
        let mut n = 0usize;
        for (o, &step) in opens.iter().zip(&c.steps[..usize::from(c.n)]) {
            if step != Step::End {
                c.runs[n] = self.grown(*o, step == Step::Natural, p);
                n += 1;
            }
        }
        let most = if self.pieces.is_some() {
            MAX_OPEN_PIECES
        } else {
            MAX_OPEN
        };
        if n > most {
            return false;
        }
        if p < self.len {
            for i in 0..c.start_nat + c.start_tok {
                if n == most {
                    return false;
                }
                c.runs[n] = self.started(s, p, i < c.start_nat);
                n += 1;
            }
        }
        c.runs[..n].sort_unstable();
        c.runs_n = n as u8;
        c.reserve = self.reserve(s, &c.runs[..n], p);
        if !self.relaxation && self.doomed_runs {
            let runs = &c.runs[..n];
            c.doomed = [0; MAX_TOKENS + 1];
            for &o in runs {
                let gaps = usize::from(self.gaps(o, p));
                for (left, d) in c.doomed.iter_mut().enumerate() {
                    *d += u8::from(gaps > left);
                }
            }
        }
        true
    }

    /// The tokens the runs `runs` of suit `s`, open after position `p`,
    /// need at least from here on: each must take a card at every position
    /// up to where it may end at the earliest (the minimum length; for a
    /// run that starts with a token the line's end, or the longest run),
    /// and where more of them need a position than there are copies of
    /// its face, the rest take tokens. `u8::MAX` when a run cannot reach
    /// the minimum length before the line ends.
    fn reserve(&self, s: usize, runs: &[Open], p: usize) -> u8 {
        let t = self.t;
        // Runs that need each position.
        let mut need = [0u8; 16];
        let mut last = p;
        for &o in runs {
            let short = t.min_len.saturating_sub(usize::from(o.len()));
            let mut end = p + short;
            if o.to_end() {
                end = end.max(self.token_run_end(p));
            }
            if end >= self.len {
                return u8::MAX;
            }
            for n in &mut need[p + 1..=end] {
                *n += 1;
            }
            last = last.max(end);
        }
        let line = &t.line[s];
        (p + 1..=last).fold(0u8, |r, q| {
            r.saturating_add(need[q].saturating_sub(self.counts[line[q]]))
        })
    }

    /// The position up to which a run that started with a token, open
    /// after position `p`, must at least take a card: the line's end, or
    /// where it would be the longest run.
    fn token_run_end(&self, p: usize) -> usize {
        (self.len - 1).min(p + self.t.max_run - 1)
    }

    /// Natural copies of suit `s` at position `p` (the high ace: those not
    /// used at the low end).
    fn avail(&self, p: usize, s: usize, state: &State) -> u8 {
        if p == self.len {
            return 0;
        }
        let f = self.t.line[s][p];
        let low = if self.ace_twice && p == self.len - 1 {
            state.aces_low[s]
        } else {
            0
        };
        self.counts[f].saturating_sub(low)
    }

    /// Combine the suits' choices (within the token budget), then the sets.
    /// The suits but `last` (the one with the most choices, grouped) are
    /// picked depth first (`picks`; per depth the tokens, changes, doomed
    /// runs and copies left for sets of the suits picked so far), each
    /// combination of them completed by [`Sweep::combine_last`]. Every cut
    /// only drops combinations whose transitions would cost the listing's
    /// cut or more with the bound on the rest, so the transitions listed
    /// are the same as when each combination is tried on its own.
    fn combine(
        &mut self,
        p: usize,
        state: &State,
        (per_suit, groups, last): (&[Rc<[SuitChoice]>], &[Group], usize),
        picks: &mut [u16; 5],
        out: &mut Vec<Transition>,
    ) {
        let t = self.t;
        let budget = self.tokens - state.used;
        if last >= per_suit.len() {
            return;
        }
        // The suits in the order they are picked: all but `last`.
        let mut order = [0usize; 5];
        let mut depth = 0;
        for k in (0..per_suit.len()).filter(|&k| k != last) {
            order[depth] = k;
            depth += 1;
        }
        // Fewest choices outermost: the same combinations with fewer
        // partial ones (cachegrind, `offen` ~60: the median positions
        // -1.1 %, the slowest 56 -2.1 % instructions; same answers).
        order[..depth].sort_by_key(|&k| per_suit[k].len());
        let forms_sets = p < self.len && !(self.ace_twice && p == 0);
        let rank = if forms_sets {
            t.line[t.suits[0]][p] % 13
        } else {
            0
        };
        // Per depth: the next choice to try, and what the picks above it
        // add up to.
        let mut next = [0usize; 5];
        let mut sums = [(0u8, 0u64, 0u64, Pool::EMPTY); 5];
        // Per depth: the tokens the runs of the picks above need later.
        let mut reserves = [0u8; 5];
        let mut d = 0;
        loop {
            if d == depth {
                let (tok, changed, doomed, pool) = sums[d];
                let sets = forms_sets.then_some(rank);
                self.combine_last(
                    p,
                    state,
                    (per_suit, groups, last),
                    (tok, changed, doomed, pool, sets),
                    (picks, reserves[d]),
                    out,
                );
                if self.stopped || d == 0 {
                    return;
                }
                d -= 1;
                continue;
            }
            let k = order[d];
            let (tok0, changed0, doomed0, pool0) = sums[d];
            let choices = &per_suit[k];
            let mut deeper = false;
            while let Some(c) = choices.get(next[d]) {
                let i = next[d];
                next[d] += 1;
                let (tok, changed) = (tok0 + c.tokens, changed0 + c.changes);
                // Sorted by tokens: the rest are over the budget too.
                if tok > budget {
                    next[d] = choices.len();
                    break;
                }
                if changed >= self.cut {
                    continue;
                }
                // Runs that will be changed melds: a bound before the other
                // suits are combined (the other suits and the sets can only
                // use up tokens, never add any, and fewer tokens left doom
                // more runs).
                let doomed = doomed0 + u64::from(c.doomed[usize::from(budget - tok)]);
                if changed + doomed >= self.cut {
                    continue;
                }
                // The suits' runs need their tokens later.
                let reserve = reserves[d].saturating_add(c.reserve);
                if u16::from(tok) + u16::from(reserve) > u16::from(budget) {
                    continue;
                }
                reserves[d + 1] = reserve;
                picks[k] = i as u16;
                let pool = if p < self.len {
                    pool0.with(t.suits[k], c.pool)
                } else {
                    pool0
                };
                sums[d + 1] = (tok, changed, doomed, pool);
                next[d + 1] = 0;
                deeper = true;
                break;
            }
            if deeper {
                d += 1;
            } else if d == 0 {
                return;
            } else {
                d -= 1;
            }
        }
    }

    /// The combinations that suit `last`'s choices complete, with the
    /// other suits' picks in `picks` adding up to `(tokens, changes,
    /// doomed, pool)`; `rank` the rank of the sets formed here, if any.
    fn combine_last(
        &mut self,
        p: usize,
        state: &State,
        (per_suit, groups, last): (&[Rc<[SuitChoice]>], &[Group], usize),
        (tok, changed, doomed, pool, rank): (u8, u64, u64, Pool, Option<usize>),
        (picks, reserve): (&mut [u16; 5], u8),
        out: &mut Vec<Transition>,
    ) {
        let t = self.t;
        let budget = self.tokens - state.used;
        let forms_sets = rank.is_some();
        let rank = rank.unwrap_or(0);
        let s = t.suits[last];
        for g in groups {
            let tok = tok + g.tokens;
            if tok > budget {
                break;
            }
            let left = budget - tok;
            // The least its choices add, and (below) the cheapest sets.
            let least = changed + doomed + g.least[usize::from(left)];
            if least >= self.cut {
                continue;
            }
            let used = state.used + tok;
            let options = if forms_sets {
                let pool = pool.with(s, g.pool);
                // Most combinations leave copies no set takes: their
                // cheapest set choice alone rules them out.
                if least + self.least_set_cost(p, rank, pool, left) >= self.cut {
                    continue;
                }
                let options = self.set_choices(p, rank, pool, left);
                // Nor with the bound on the rest after any of the set choices.
                if options.iter().all(|sc| {
                    let cost = least + sc.cost;
                    cost >= self.cut
                        || cost + self.rest_bound(p, (left - sc.tokens, state.aces_low), cost, 0)
                            >= self.cut
                }) {
                    continue;
                }
                Some((options, pool))
            } else {
                None
            };
            for i in g.from..g.to {
                let c = &per_suit[last][usize::from(i)];
                // Tokens the runs need later must be left.
                if u16::from(reserve) + u16::from(c.reserve) > u16::from(left) {
                    continue;
                }
                let changes = changed + c.changes;
                if changes + doomed + u64::from(c.doomed[usize::from(left)]) >= self.cut {
                    continue;
                }
                picks[last] = i;
                let Some((options, pool)) = &options else {
                    let Some(next) = self.next_state(p, state, per_suit, picks, used) else {
                        self.stopped = true;
                        return;
                    };
                    let doomed = self.doomed_of(per_suit, picks, left);
                    let least =
                        changes + self.rest_bound(p, (left, next.aces_low), changes, doomed);
                    if least < self.cut
                        && !self.forced_past_cut(p, (per_suit, picks), left, changes + doomed)
                    {
                        out.push(Transition {
                            cost: changes,
                            least,
                            used,
                            picks: *picks,
                            set: None,
                            order: Self::order_of(per_suit, picks, 0),
                        });
                    }
                    continue;
                };
                if options
                    .last()
                    .is_none_or(|sc| changes + sc.cost >= self.cut)
                {
                    continue;
                }
                // Checked when the first set choice is listed.
                let mut fits = false;
                let needed = u16::from(reserve) + u16::from(c.reserve);
                for (j, sc) in options.iter().enumerate() {
                    let cost = changes + sc.cost;
                    if cost >= self.cut || u16::from(sc.tokens) + needed > u16::from(left) {
                        continue;
                    }
                    let left = left - sc.tokens;
                    let doomed = self.doomed_of(per_suit, picks, left);
                    let least = cost + self.rest_bound(p, (left, state.aces_low), cost, doomed);
                    if least >= self.cut
                        || self.forced_past_cut(p, (per_suit, picks), left, cost + doomed)
                    {
                        continue;
                    }
                    // The runs after it must fit the state's encoding (as
                    // `next_state` needs them to).
                    if !fits {
                        if Self::open_after(per_suit, picks) > MAX_OPEN {
                            self.stopped = true;
                            return;
                        }
                        fits = true;
                    }
                    out.push(Transition {
                        cost,
                        least,
                        used: used + sc.tokens,
                        picks: *picks,
                        set: Some((j as u8, *pool, left + sc.tokens)),
                        order: Self::order_of(per_suit, picks, j as u8),
                    });
                }
            }
        }
    }

    /// [`Transition::order`] of the suits' picks and set choice `j`.
    fn order_of(per_suit: &[Rc<[SuitChoice]>], picks: &[u16; 5], j: u8) -> u128 {
        per_suit.iter().zip(picks).fold(0u128, |k, (cs, &i)| {
            k << 16 | u128::from(cs[usize::from(i)].orig)
        }) << 8
            | u128::from(j)
    }

    /// The doomed runs (see [`SuitChoice::doomed`]) after the suits take
    /// their picks, with `left` tokens left.
    fn doomed_of(&self, per_suit: &[Rc<[SuitChoice]>], picks: &[u16; 5], left: u8) -> u64 {
        per_suit
            .iter()
            .zip(picks)
            .map(|(cs, &i)| u64::from(cs[usize::from(i)].doomed[usize::from(left)]))
            .sum()
    }

    /// The runs open after a position when each suit takes its pick.
    fn open_after(per_suit: &[Rc<[SuitChoice]>], picks: &[u16; 5]) -> usize {
        per_suit
            .iter()
            .zip(picks)
            .map(|(cs, &i)| usize::from(cs[usize::from(i)].runs_n))
            .sum()
    }

    /// The state after position `p` when each suit takes its pick
    /// (`used`: the tokens used with them; none when the runs do not fit
    /// the encoding).
    fn next_state(
        &self,
        p: usize,
        state: &State,
        per_suit: &[Rc<[SuitChoice]>],
        picks: &[u16; 5],
        used: u8,
    ) -> Option<State> {
        let t = self.t;
        let mut next = State {
            runs: [Open::default(); MAX_OPEN],
            n: 0,
            used,
            aces_low: state.aces_low,
        };
        let mut n = 0;
        for (k, &s) in t.suits.iter().enumerate() {
            let c = &per_suit[k][usize::from(picks[k])];
            let m = usize::from(c.runs_n);
            next.runs.get_mut(n..n + m)?.copy_from_slice(&c.runs[..m]);
            n += m;
            if self.ace_twice && p == 0 {
                next.aces_low[s] = c.naturals;
            }
        }
        // At most MAX_OPEN (16) runs.
        next.n = n as u8;
        // Runs sort by suit first: with the suits in ascending order the
        // suits' sorted lists, one after the other, are sorted.
        if !self.suits_ascending {
            next.runs[..n].sort_unstable();
        }
        Some(next)
    }

    /// The choices of one suit: each open run ends, takes a natural or a
    /// token (equal runs take non-decreasing choices, so permutations are
    /// not repeated); then new runs start with the naturals and tokens left.
    fn suit_choices(
        &self,
        (p, s): (usize, usize),
        opens: &[Open],
        (avail, budget, token_run): (u8, u8, u8),
        c: &mut SuitChoice,
        out: &mut Vec<SuitChoice>,
    ) {
        let t = self.t;
        let i = usize::from(c.n);
        if i == opens.len() {
            c.changes += self.bare_overclaims(p, s, opens, c);
            if p == self.len {
                out.push(*c);
                return;
            }
            // New runs need room for min_len cards before the line ends;
            // none where a run of the suit ends here (see
            // [`Sweep::ends_dominated`]).
            let room = self.len - p >= t.min_len
                && (self.every_choice || !self.ends_dominated(p, opens, c));
            let max_nat = if room { avail - c.naturals } else { 0 };
            let max_tok = if room { budget - c.tokens } else { 0 };
            for start_nat in 0..=max_nat {
                for start_tok in 0..=max_tok {
                    // Past the tokens left, no more runs started with one.
                    if u16::from(start_tok) * (u16::from(token_run) + 1)
                        > u16::from(budget - c.tokens)
                    {
                        break;
                    }
                    let mut d = *c;
                    d.start_nat = start_nat;
                    d.start_tok = start_tok;
                    d.naturals += start_nat;
                    d.tokens += start_tok;
                    if self.tokens_replaceable && d.tokens > 0 && d.naturals < avail {
                        continue;
                    }
                    out.push(d);
                }
            }
            return;
        }
        let o = opens[i];
        let floor = if i > 0 && opens[i - 1] == o {
            c.steps[i - 1]
        } else {
            Step::End
        };
        // A capped length is below max_run; an exact one is checked.
        let can_grow = p < self.len && usize::from(o.len()) < t.max_run;
        for step in [Step::End, Step::Natural, Step::Token] {
            if step < floor {
                continue;
            }
            let mut d = *c;
            d.steps[i] = step;
            d.n += 1;
            match step {
                Step::End => match self.end_cost(o, p.wrapping_sub(1)) {
                    Some(x) => d.changes += x,
                    None => continue,
                },
                Step::Natural if can_grow && d.naturals < avail => d.naturals += 1,
                Step::Token if can_grow && d.tokens < budget => d.tokens += 1,
                _ => continue,
            }
            self.suit_choices((p, s), opens, (avail, budget, token_run), &mut d, out);
        }
    }

    /// Whether choice `c` ends a run at position `p` where a run of the
    /// suit could take its place: ending it and starting a run there is
    /// never better than growing it by the new run's first card. The grown
    /// run can do whatever the new one does: it is long enough to end
    /// wherever that one may (dropping trailing tokens the new one ends
    /// with), it holds every original run the new one would (it holds one
    /// from the same position on or earlier), and it is one meld where the
    /// other way has two: a changed meld at most where the ended one alone
    /// would have been one. So the states after such choices need not be
    /// visited and every value stays the same. Not for a run that must
    /// reach the line's end (a token at its start), nor one counted
    /// exactly from the line's start, nor where lengths are not capped
    /// (the grown run could get too long).
    fn ends_dominated(&self, p: usize, opens: &[Open], c: &SuitChoice) -> bool {
        opens
            .iter()
            .zip(&c.steps[..usize::from(c.n)])
            .any(|(o, &step)| {
                step == Step::End
                    && self.lengths_capped()
                    && !o.to_end()
                    && !o.bare()
                    && !(self.exact_from_start && usize::from(o.len()) == p)
            })
    }

    /// The sets that can be formed at position `p` from `pool` with at
    /// most `budget` tokens, with the copies left in the hand (only hand
    /// copies may be left). Only tokens needed to reach the minimum length
    /// are used: spare ones join melds with room at the end.
    fn set_choices(&mut self, p: usize, rank: usize, pool: Pool, budget: u8) -> Rc<[SetChoice]> {
        // The recent answers first, in a small table indexed by the key's
        // (Fibonacci) hash: most lookups repeat one of them.
        let packed = sets_key(p, pool, budget);
        let slot = (packed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - RECENT_SETS_BITS)) as usize;
        if let (k, Some(v)) = &self.recent_sets[slot] {
            if *k == packed {
                return Rc::clone(v);
            }
        }
        if let Some(v) = self.sets_memo.get(&packed) {
            let v = Rc::clone(v);
            self.recent_sets[slot] = (packed, Some(Rc::clone(&v)));
            return v;
        }
        // Kept from an earlier sweep with the same copies and original
        // sets at this rank.
        if let Some(v) = self.shared.as_ref().and_then(|lent| lent.sets(packed, p)) {
            self.sets_memo.insert(packed, Rc::clone(&v));
            self.recent_sets[slot] = (packed, Some(Rc::clone(&v)));
            return v;
        }
        // Per tokens used, the cheapest choice (the first found among equals).
        // (The budget is at most `MAX_TOKENS`: on the stack.)
        let mut out: SmallVec<[Option<SetChoice>; MAX_TOKENS + 1]> =
            SmallVec::from_elem(None, usize::from(budget) + 1);
        let mut sets = RankSets::new();
        let all = self.set_vectors.len();
        self.sets_rec(p, rank, pool.counts(), budget, (&mut sets, all), &mut out);
        // A choice using more tokens must be cheaper to be worth it.
        let mut kept: SmallVec<[SetChoice; MAX_TOKENS + 1]> = SmallVec::new();
        for c in out.into_iter().flatten() {
            if kept.last().is_none_or(|k| c.cost < k.cost) {
                kept.push(c);
            }
        }
        let kept: Rc<[SetChoice]> = Rc::from(&kept[..]);
        self.sets_memo.insert(packed, Rc::clone(&kept));
        if let Some(lent) = &mut self.shared {
            lent.keep_sets(packed, p, &kept);
        }
        self.recent_sets[slot] = (packed, Some(Rc::clone(&kept)));
        kept
    }

    /// The cost of the cheapest of [`Sweep::set_choices`] (INF when there
    /// is none), without handing out the choices: a combination whose
    /// cheapest sets already cost the cut is passed over on this alone.
    fn least_set_cost(&mut self, p: usize, rank: usize, pool: Pool, budget: u8) -> u64 {
        let key = sets_key(p, pool, budget) | SETS_KEY_USED;
        let slot = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - LEAST_SETS_BITS)) as usize;
        if let Some(&(k, least)) = self.least_sets.get(slot) {
            if k == key {
                return least;
            }
        }
        // The choices are kept cheapest last.
        let least = self
            .set_choices(p, rank, pool, budget)
            .last()
            .map_or(INF, |sc| sc.cost);
        if let Some(entry) = self.least_sets.get_mut(slot) {
            *entry = (key, least);
        }
        least
    }

    /// How many of the sets `sets` formed at `rank` hold an original set
    /// whole, each a different one where the sweep honours pieces (a
    /// table meld's cards are in one new meld: two sets alike by faces
    /// hold two originals or one; the robbing search counts cards). A set
    /// holds an original when it has all of its naturals and a token for
    /// each of its wild cards that must stay one, and is no shorter (see
    /// `SET_WILD`). The most such pairs, found by augmenting paths.
    fn sets_holding(&self, rank: usize, sets: &RankSets) -> usize {
        if sets.is_empty() || self.orig_set_ranks >> rank & 1 == 0 {
            return 0;
        }
        let t = self.t;
        let origs: SmallVec<[&OrigSet; 4]> =
            self.orig_sets.iter().filter(|o| o.0 == rank).collect();
        if origs.is_empty() || origs.len() > 32 {
            return 0;
        }
        // Per set, the originals it can hold (a bit each).
        let mut can: SmallVec<[u32; 4]> = SmallVec::new();
        for (v, w) in sets {
            let n: u8 = t.suits.iter().map(|&s| v[s]).sum();
            let mut bits = 0u32;
            for (j, &o) in origs.iter().enumerate() {
                if t.suits.iter().all(|&s| v[s] >= o.1[s]) && tokens_to_hold(o, n) <= *w {
                    bits |= 1 << j;
                }
            }
            can.push(bits);
        }
        // (Read per set where nothing counts the cards: free
        // rearrangement recounts its optimum's changes.)
        if self.pieces.is_none() {
            return can.iter().filter(|&&c| c != 0).count();
        }
        most_pairs(&can)
    }

    fn sets_rec(
        &self,
        p: usize,
        rank: usize,
        pool: [u8; 5],
        budget: u8,
        (sets, below): (&mut RankSets, usize),
        out: &mut [Option<SetChoice>],
    ) {
        let t = self.t;
        // Leave the rest in the hand, if only hand copies remain.
        let mut left_cost = 0u64;
        let mut ok = true;
        for &s in &t.suits {
            let f = t.line[s][p];
            if pool[s] > self.optional[f] {
                ok = false;
                break;
            }
            left_cost += u64::from(pool[s]) * u64::from(t.penalty[f] + self.unit) * self.scale;
        }
        let used: u8 = sets.iter().map(|(_, w)| *w).sum();
        let changes = if self.relaxation {
            0
        } else {
            (sets.len() - self.sets_holding(rank, sets)) as u64
        };
        let cost = left_cost + changes;
        if ok {
            let best = &mut out[usize::from(used)];
            if best.as_ref().is_none_or(|b| cost < b.cost) {
                *best = Some(SetChoice {
                    sets: sets.clone(),
                    left: pool,
                    tokens: used,
                    cost,
                });
            }
        }
        // One more set, not larger (in encoding) than the previous one,
        // when the copies left (with the free tokens) can still make one.
        let free_tokens = budget.saturating_sub(used);
        let room: usize = t
            .suits
            .iter()
            .map(|&s| {
                usize::from(if t.distinct_sets {
                    pool[s].min(1)
                } else {
                    pool[s]
                })
            })
            .sum();
        if room + usize::from(free_tokens) < t.min_len {
            return;
        }
        // The set vectors in their fixed order (see `set_vectors`): those
        // the pool can give, with the tokens up to the minimum length; each
        // set no later in that order than the one before it (the same
        // vector again included), so that every collection is listed once:
        // the vectors up to the previous one's index (`below`).
        for (i, &(v, n, w)) in self.set_vectors[..below].iter().enumerate() {
            if w > free_tokens || t.suits.iter().any(|&s| v[s] > pool[s]) {
                continue;
            }
            let n = usize::from(n);
            if n + usize::from(w) > t.max_set || !t.share_ok(n, usize::from(w)) {
                continue;
            }
            // A set that must take a hand card and can take it only as
            // a token takes one more.
            let mut w = w;
            if self.pieces.is_some() && !self.piece_ok(p, rank, v, w) {
                let one_more = w == 0
                    && w < free_tokens
                    && n < t.max_set
                    && t.share_ok(n, 1)
                    && self.piece_ok(p, rank, v, 1);
                if !one_more {
                    continue;
                }
                w = 1;
            }
            // The original sets this set's naturals hold: whole where it
            // has a token for each of their wild cards that must stay one
            // and is no shorter (see `SET_WILD`); the tokens it needs for
            // that.
            let holds =
                |&&(r, o, _, _): &&OrigSet| r == rank && t.suits.iter().all(|&s| v[s] >= o[s]);
            let to_hold = |o: &OrigSet| tokens_to_hold(o, n as u8);
            let mut rest = pool;
            for &s in &t.suits {
                rest[s] -= v[s];
            }
            sets.push((v, w));
            if self.pieces_fit(p, rank, sets) {
                self.sets_rec(p, rank, rest, budget, (sets, i + 1), out);
            }
            sets.pop();
            // The same naturals with the tokens beyond the minimum length
            // that hold such an original whole (a set with its wild cards
            // left in place): each number of tokens one of them needs
            // (the one with fewest may be held by another set).
            if !self.relaxation && self.orig_set_ranks >> rank & 1 == 1 {
                let mut more: SmallVec<[u8; 4]> = self
                    .orig_sets
                    .iter()
                    .filter(holds)
                    .map(to_hold)
                    .filter(|&j| j > w && j <= free_tokens)
                    .filter(|&j| n + usize::from(j) <= t.max_set && t.share_ok(n, usize::from(j)))
                    .collect();
                more.sort_unstable();
                more.dedup();
                // (Read per set, a set that holds one is held.)
                if self.pieces.is_none() {
                    let kept = self.orig_sets.iter().filter(holds).any(|o| to_hold(o) <= w);
                    more.truncate(usize::from(!kept));
                }
                for j in more {
                    sets.push((v, j));
                    if self.pieces_fit(p, rank, sets) {
                        self.sets_rec(p, rank, rest, budget, (sets, i + 1), out);
                    }
                    sets.pop();
                }
            }
        }
    }
}

/// Whether table run `r` (suit, first and last natural position) is of
/// suit `s` and lies within positions `start .. end`.
fn lies_within(&(os, a, b): &(u8, u8, u8), s: usize, start: usize, end: usize) -> bool {
    usize::from(os) == s && usize::from(a) >= start && usize::from(b) < end
}

/// The most pairs of a left side (`can[i]`: the right side's entries, a
/// bit each of 32, that entry `i` may pair with) and a right side, each
/// entry in one pair at most: a maximum matching by augmenting paths.
fn most_pairs(can: &[u32]) -> usize {
    fn augment(i: usize, can: &[u32], owner: &mut [usize; 32], seen: &mut u32) -> bool {
        let mut bits = can[i] & !*seen;
        while bits != 0 {
            let j = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            *seen |= 1 << j;
            if owner[j] == usize::MAX || augment(owner[j], can, owner, seen) {
                owner[j] = i;
                return true;
            }
        }
        false
    }
    let mut owner = [usize::MAX; 32];
    (0..can.len())
        .filter(|&i| can[i] != 0 && augment(i, can, &mut owner, &mut 0))
        .count()
}

/// The tokens a set of `n` natural cards needs to hold original set `o`
/// whole: one for each of its wild cards that must stay one, and enough
/// to be no shorter (see `SET_WILD`).
fn tokens_to_hold(&(_, o, tokens, wild): &OrigSet, n: u8) -> u8 {
    let size = o.iter().sum::<u8>() + tokens + wild;
    tokens.max(size.saturating_sub(n))
}

/// [`Pieces`] on the suits' lines (a bit per position).
#[derive(Debug, Clone)]
struct PieceLines {
    /// Per suit: the positions of faces the hand holds a copy of.
    hand: [u16; 5],
    /// Whether a wild token may be a hand card.
    hand_wild: bool,
    /// Per suit and position `a`: the positions of a table run's natural
    /// cards where that run's span holds `a` too (a bare run from `a` may
    /// take a natural there).
    within: [[u16; 16]; 5],
    /// The same for the table runs' jokers: where a bare run from `a` may
    /// hold a token before a natural card (a piece keeps its jokers where
    /// they stand).
    jokers_within: [[u16; 16]; 5],
    /// The original runs (suit, first and last natural position) without
    /// a joker that must stay one, and with one ([`PENDING`]).
    plain_runs: SmallVec<[(u8, u8, u8); 16]>,
    jokered_runs: SmallVec<[(u8, u8, u8); 8]>,
    /// Suits with a table run that has a joker (their runs keep whether
    /// they hold a token).
    token_suits: u8,
    /// Per suit: the positions where original runs end (their last
    /// natural card) where every one that ends there had a joker (see
    /// [`PENDING`]).
    pending: [u16; 5],
    /// Per suit: the positions of jokers after a table run's last natural
    /// card that a choice may exchange: a natural there ends a pending
    /// run's wait as a token does.
    swap_held: [u16; 5],
    /// Per suit: where table runs without a joker end (a pending run that
    /// takes a natural there may hold one of them).
    plain_ends: [u16; 5],
    /// The table's sets: rank and natural cards per suit.
    sets: SmallVec<[(usize, [u8; 5]); 8]>,
}

impl Sweep<'_> {
    /// Whether a set of `v` copies per suit and `w` tokens at position
    /// `p` (of `rank`) meets robbing's demand ([`Sweep::demand_pieces`]):
    /// it may hold a hand card, or it lies within a table set's suits.
    fn piece_ok(&self, p: usize, rank: usize, v: [u8; 5], w: u8) -> bool {
        let Some(pc) = &self.pieces else {
            return true;
        };
        Self::may_hold_hand(pc, self.t, p, v, w)
            || pc
                .sets
                .iter()
                .any(|&(r, o)| r == rank && (0..5).all(|s| v[s] <= o[s]))
    }

    /// Whether a set of `v` copies per suit and `w` tokens at position `p`
    /// may hold a hand card: a face the hand has, or a token where the hand
    /// has a wild card.
    fn may_hold_hand(pc: &PieceLines, t: &Tables, p: usize, v: [u8; 5], w: u8) -> bool {
        (w > 0 && pc.hand_wild)
            || t.suits
                .iter()
                .any(|&s| v[s] > 0 && pc.hand[s] >> p & 1 == 1)
    }

    /// Whether the sets `sets` at position `p` (of `rank`) that hold no
    /// card that may be the hand's can each be a piece of a different
    /// table set (a table set leaves one piece: two sets of its naturals
    /// take copies of the same faces from other melds).
    fn pieces_fit(&self, p: usize, rank: usize, sets: &RankSets) -> bool {
        let Some(pc) = &self.pieces else {
            return true;
        };
        let bare: SmallVec<[[u8; 5]; 4]> = sets
            .iter()
            .filter(|&&(v, w)| !Self::may_hold_hand(pc, self.t, p, v, w))
            .map(|&(v, _)| v)
            .collect();
        if bare.len() < 2 {
            return true;
        }
        let tables: SmallVec<[[u8; 5]; 4]> = pc
            .sets
            .iter()
            .filter(|&&(r, _)| r == rank)
            .map(|&(_, o)| o)
            .collect();
        if bare.len() > tables.len() || tables.len() > 16 {
            return bare.len() <= tables.len();
        }
        // Each bare set to a table set of its suits, no two to the same.
        fn assign(bare: &[[u8; 5]], tables: &[[u8; 5]], used: u16) -> bool {
            let Some((v, rest)) = bare.split_first() else {
                return true;
            };
            tables.iter().enumerate().any(|(j, o)| {
                used >> j & 1 == 0
                    && (0..5).all(|s| v[s] <= o[s])
                    && assign(rest, tables, used | 1 << j)
            })
        }
        assign(&bare, &tables, 0)
    }
}

/// The key of the set choices at position `p` from `pool` with `budget`
/// tokens: the position, the five pool counts and the budget, a byte each.
fn sets_key(p: usize, pool: Pool, budget: u8) -> u64 {
    ((p as u64 & 0xff) << 40 | pool.0) << 8 | u64::from(budget)
}

/// Per suit, the natural copies of a position's face left for sets: five
/// counts of a byte each in one word, suit 0 in the highest byte (the
/// order [`sets_key`] packs them in). One word rather than `[u8; 5]`:
/// the combinations set one suit's count and then read the whole pool as
/// a key, which on an array is a byte store followed by a wider load that
/// cannot be forwarded from it (a stall on every combination).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pool(u64);

impl Pool {
    const EMPTY: Pool = Pool(0);

    fn shift(s: usize) -> u32 {
        8 * (4 - s as u32)
    }

    /// The pool with suit `s`'s count set to `n` (`s` below 5).
    fn with(self, s: usize, n: u8) -> Pool {
        let sh = Self::shift(s);
        Pool(self.0 & !(0xff << sh) | u64::from(n) << sh)
    }

    /// The five counts, by suit.
    fn counts(self) -> [u8; 5] {
        std::array::from_fn(|s| (self.0 >> Self::shift(s)) as u8)
    }
}

/// Most open runs of a suit whose choices are kept (see [`choices_key`]).
const CHOICES_KEY_RUNS: usize = 7;

/// The key of a suit's choices: its open runs (at most
/// [`CHOICES_KEY_RUNS`], 14 bits each), their number, the position, the
/// suit, the natural copies and the tokens left; `None` where they do not
/// fit. Where runs hold the bits of pieces (see [`Open`]), their 16-bit
/// codes (at most one run fewer) and the top bit set. (The 14-bit layout
/// for the others keeps their keys as they were: packed at 16 bits, the
/// `offen` rows spent 10 % more, in more misses and inserts.)
fn choices_key(p: usize, s: usize, opens: &[Open], avail: u8, budget: u8) -> Option<u128> {
    if avail > 15 || budget > 15 {
        return None;
    }
    let tail = |at: u32| {
        (opens.len() as u128) << at
            | (p as u128) << (at + 3)
            | (s as u128) << (at + 7)
            | u128::from(avail) << (at + 10)
            | u128::from(budget) << (at + 14)
    };
    if opens.iter().all(|o| o.0 & (BARE | HAS_TOK) == 0) {
        let runs = opens
            .iter()
            .fold(0u128, |k, o| k << 14 | u128::from(o.code14()));
        Some(runs | tail(98))
    } else if opens.len() < CHOICES_KEY_RUNS {
        let runs = opens.iter().fold(0u128, |k, o| k << 16 | u128::from(o.0));
        Some(runs | tail(96) | 1 << 127)
    } else {
        None
    }
}

/// The set vectors under `t` with at most `most` copies per suit (the
/// most copies of a face, one where sets have distinct suits), in their
/// fixed order (see [`Sweep::set_vectors`]).
fn set_vectors(t: &Tables, most: u8) -> Vec<SetVector> {
    fn add(t: &Tables, most: u8, (k, v): (usize, &mut [u8; 5]), out: &mut Vec<SetVector>) {
        let Some(&s) = t.suits.get(k) else {
            let n: u8 = v.iter().sum();
            if n > 0 {
                // Sets are short: the minimum length fits a byte.
                let w = t.min_len.saturating_sub(usize::from(n)) as u8;
                out.push((*v, n, w));
            }
            return;
        };
        for take in 0..=most {
            v[s] = take;
            add(t, most, (k + 1, v), out);
        }
        v[s] = 0;
    }
    let mut out = Vec::new();
    add(t, most, (0, &mut [0; 5]), &mut out);
    // Ascending by the copies per suit, read as digits (the order they are
    // generated in when the suits come in ascending order): a collection
    // of sets is generated once, each set no later in this order than the
    // one before it.
    out.sort_by_key(|&(v, _, _)| v);
    out
}

#[cfg(test)]
pub(super) mod tests {
    use proptest::prelude::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use romme_core::ruleset::presets;

    use super::super::{CHANGE_SCALE, FACES, Tables, changed_melds};
    use super::{INF, Sweep};

    /// A sweep (a card left costs 1,000 and its points) over cards
    /// `counts`, hand copies `optional` and `tokens` wild tokens, with
    /// `originals` on the table, stopping after `limit` states.
    pub(in crate::partition) fn sweep_of<'t>(
        t: &'t Tables,
        (counts, optional, tokens): ([u8; FACES], [u8; FACES], usize),
        originals: &[Vec<usize>],
        limit: u64,
    ) -> Sweep<'t> {
        Sweep::new(
            t,
            counts,
            optional,
            1000,
            CHANGE_SCALE,
            tokens,
            originals,
            (limit, None),
        )
        .expect("the sweep applies")
    }

    /// A random meld's faces under `t`: a run of 3–5 or a set of 3–4.
    fn random_meld(t: &Tables, rng: &mut ChaCha8Rng) -> Vec<usize> {
        if rng.random_bool(0.6) {
            let s = t.suits[rng.random_range(0..t.suits.len())];
            let line = &t.line[s];
            let k = rng.random_range(3..=5);
            let lo = rng.random_range(0..=line.len() - k);
            line[lo..lo + k].to_vec()
        } else {
            let rank = rng.random_range(0..13);
            let mut suits = t.suits.clone();
            while suits.len() > 3 && rng.random_bool(0.5) {
                suits.remove(rng.random_range(0..suits.len()));
            }
            suits.iter().map(|&s| s * 13 + rank).collect()
        }
    }

    /// Up to `n` random hand copies added to `counts` (at most two copies
    /// of a face in all): the hand's copies per face.
    fn hand_copies(
        t: &Tables,
        rng: &mut ChaCha8Rng,
        counts: &mut [u8; FACES],
        n: usize,
    ) -> [u8; FACES] {
        let mut optional = [0u8; FACES];
        for _ in 0..n {
            let s = t.suits[rng.random_range(0..t.suits.len())];
            let f = s * 13 + rng.random_range(0..13);
            if counts[f] < 2 {
                counts[f] += 1;
                optional[f] += 1;
            }
        }
        optional
    }

    /// A random problem under `t`: original melds (runs and sets) from two
    /// decks, hand copies on top, and wild tokens.
    pub(in crate::partition) fn problem(
        t: &Tables,
        seed: u64,
    ) -> ([u8; FACES], [u8; FACES], usize, Vec<Vec<usize>>) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut counts = [0u8; FACES];
        let mut originals = Vec::new();
        for _ in 0..rng.random_range(2..=9) {
            let faces = random_meld(t, &mut rng);
            if faces.iter().all(|&f| counts[f] < 2) {
                for &f in &faces {
                    counts[f] += 1;
                }
                originals.push(faces);
            }
        }
        let n = rng.random_range(3..=14);
        let optional = hand_copies(t, &mut rng, &mut counts, n);
        let tokens = if rng.random_bool(0.5) {
            0
        } else {
            rng.random_range(1..=2)
        };
        (counts, optional, tokens, originals)
    }

    /// The copies left for sets, packed in one word, read back per suit,
    /// and keyed as the five counts a byte each after the position (suit
    /// 0 first) and before the budget.
    #[test]
    fn pool_sets_one_suit_and_keys_like_the_counts() {
        let counts = [2u8, 0, 1, 2, 1];
        let pool = (0..5).fold(super::Pool::EMPTY, |p, s| p.with(s, counts[s]));
        assert_eq!(pool.counts(), counts);
        assert_eq!(pool.with(3, 0).counts(), [2, 0, 1, 0, 1]);
        assert_eq!(pool.with(0, 1).with(0, 2), pool);
        let key = counts.iter().fold(7u64, |k, &c| k << 8 | u64::from(c)) << 8 | 3;
        assert_eq!(super::sets_key(7, pool, 3), key);
    }

    /// A memo entry gives back its value, whether it is a bound, and its
    /// order key (88 bits); a bound too large for its bits is kept as the
    /// largest it can hold (still a lower bound).
    #[test]
    fn memo_entries_keep_value_bound_and_order() {
        use super::Entry;
        let order = (1u128 << 87) | 0xabc_def;
        let e = Entry::new(12_345, false, order);
        assert_eq!((e.value(), e.bound(), e.order()), (12_345, false, order));
        let b = Entry::new(77, true, 0);
        assert_eq!((b.value(), b.bound(), b.order()), (77, true, 0));
        let big = Entry::new(INF, true, order);
        assert_eq!(
            (big.value(), big.bound(), big.order()),
            (Entry::MOST, true, order)
        );
    }

    /// A hand card that no open run can reach, no original run can be
    /// stretched to and no original set can take needs a changed meld;
    /// such cards of one suit can share one. So does a second card where
    /// only one run holding an original can pass.
    #[test]
    fn cards_that_join_no_original_need_changed_melds() {
        let rules = presets::load("offen").expect("preset").expect("loads");
        let t = Tables::new(&rules, None);
        let (s0, s1) = (t.suits[0], t.suits[1]);
        let run: Vec<usize> = t.line[s0][4..7].to_vec();
        let orphans = |hand: &[usize], tokens: usize| {
            let (counts, optional) = super::super::forced_changes::run_and_hand(&run, hand);
            let mut sweep = sweep_of(
                &t,
                (counts, optional, tokens),
                std::slice::from_ref(&run),
                1000,
            );
            let empty = super::State {
                runs: [super::Open::default(); super::MAX_OPEN],
                n: 0,
                used: 0,
                aces_low: [0; 5],
            };
            sweep.excess(1, &empty)
        };
        // Next to the original run: it stretches to take the card, but
        // not two copies of it.
        assert_eq!(orphans(&[t.line[s0][7]], 0), 0);
        assert_eq!(orphans(&[t.line[s0][7], t.line[s0][7]], 0), 1);
        // Another suit, far from any original: one changed meld, also for
        // two cards of that suit.
        assert_eq!(orphans(&[t.line[s1][10]], 0), 1);
        assert_eq!(orphans(&[t.line[s1][10], t.line[s1][11]], 0), 1);
        // Two positions without a card between a card and the original run:
        // it joins only with two tokens, else it needs a meld of its own.
        let far = [t.line[s1][10], t.line[s1][11], t.line[s0][1]];
        assert_eq!(orphans(&far, 0), 2);
        assert_eq!(orphans(&far, 1), 2);
        assert_eq!(orphans(&far, 2), 1);
    }

    /// A random table whose melds lost the wild cards standing in them
    /// (the robbing search hands the table's jokers to the player for its
    /// floor and bounds): original runs with holes and lone faces, sets
    /// that list their wild cards ([`SET_TOKEN`] or, at random,
    /// [`super::super::SET_WILD`]) where two naturals are left, one wild
    /// token per joker taken, and a few hand cards.
    fn problem_without_table_jokers(
        t: &Tables,
        seed: u64,
    ) -> ([u8; FACES], [u8; FACES], usize, Vec<Vec<usize>>, bool) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut counts = [0u8; FACES];
        let mut originals = Vec::new();
        let mut tokens = 0;
        let mut holes = false;
        for _ in 0..rng.random_range(2..=7) {
            let mut faces = random_meld(t, &mut rng);
            // Jokers where some of its cards would be: a run has holes
            // where one stood between two cards that are left.
            let run = faces[0] % 13 != faces[1] % 13;
            let mut kept: Vec<bool> = vec![true; faces.len()];
            let mut taken = 0;
            while tokens + taken < 4 && taken + 1 < faces.len() && rng.random_bool(0.4) {
                let i = rng.random_range(0..faces.len());
                if kept[i] {
                    kept[i] = false;
                    taken += 1;
                }
            }
            let first = kept.iter().position(|&k| k).unwrap_or(0);
            let last = kept.iter().rposition(|&k| k).unwrap_or(0);
            let holed = run && kept[first..=last].contains(&false);
            faces = faces
                .into_iter()
                .zip(&kept)
                .filter_map(|(f, &k)| k.then_some(f))
                .collect();
            let naturals = faces.len();
            if !run && naturals > 1 {
                for _ in 0..taken {
                    let wild = rng.random_bool(0.5);
                    faces.push(if wild {
                        super::super::SET_WILD
                    } else {
                        super::SET_TOKEN
                    });
                }
            }
            if faces[..naturals].iter().all(|&f| counts[f] < 2) {
                holes |= holed;
                tokens += taken;
                for &f in &faces[..naturals] {
                    counts[f] += 1;
                }
                originals.push(faces);
            }
        }
        let n = rng.random_range(3..=8);
        let optional = hand_copies(t, &mut rng, &mut counts, n);
        (counts, optional, tokens, originals, holes)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Originals that lost their wild cards: the sweep's cost (with its
        /// own count of changes where runs have holes, see `Sweep::exact`)
        /// never exceeds the branch and bound's, which compares the melds
        /// with the originals by their faces (a rule with a wild-card limit
        /// no meld reaches makes `offen` take that path); with lone faces
        /// and sets that list their wild cards but no holes it is exact and
        /// the two are equal.
        #[test]
        fn originals_without_their_wild_cards_bound_the_faces_optimum(seed in any::<u64>()) {
            use romme_core::card::CardKind;
            use romme_core::ruleset::Limit;
            use super::super::{Arrange, PartitionSolver};

            let rules = presets::load("offen").expect("preset").expect("loads");
            let mut bnb_rules = rules.clone();
            bnb_rules.melds.wilds.max_per_meld = Limit::At(14);
            let sweeping = PartitionSolver::new(&rules, None).expect("solver");
            let branching = PartitionSolver::new(&bnb_rules, None).expect("solver");
            let t = Tables::new(&rules, None);
            let (counts, optional, tokens, originals, holes) =
                problem_without_table_jokers(&t, seed);
            let probe = Sweep::new(
                &t, counts, optional, 1000, CHANGE_SCALE, tokens, &originals, (1, None),
            );
            prop_assume!(probe.is_some());
            prop_assert_eq!(probe.is_some_and(|s| s.exact), !holes, "seed {}", seed);
            let wild_cards = vec![(20, CardKind::Joker); tokens];
            let cost = |solver: &PartitionSolver| {
                let arrange = Arrange {
                    optional,
                    unit: 1000,
                    originals: originals.clone(),
                    node_limit: 400_000,
                    deadline: None,
                    stopped: false,
                    incumbent: u64::MAX / 4,
                    pieces: None,
                };
                let (found, stopped, changes, _) =
                    solver.arrange_counted(counts, wild_cards.clone(), arrange);
                (!stopped).then(|| {
                    found.map(|p| {
                        let left = p.unmatched.len() as u64 * 1000 + u64::from(p.deadwood);
                        left * CHANGE_SCALE + changes as u64
                    })
                })
            };
            let (Some(a), Some(b)) = (cost(&sweeping), cost(&branching)) else {
                return Err(TestCaseError::reject("a search stopped"));
            };
            match (a, b) {
                (Some(a), Some(b)) if holes => prop_assert!(a <= b, "seed {} {} > {}", seed, a, b),
                _ => prop_assert_eq!(a, b, "seed {}", seed),
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// Bounds and dominated choices only prune: with bounds from the
        /// first state on and the doomed runs counted, the sweep finds the
        /// same cards left, points and changed melds as with neither, and
        /// as with neither that visits every choice (see
        /// `ends_dominated`).
        #[test]
        fn bounds_from_the_first_state_change_no_optimum(seed in any::<u64>()) {
            let rules = presets::load("offen").expect("preset").expect("loads");
            let t = Tables::new(&rules, None);
            let (counts, optional, tokens, originals) = problem(&t, seed);
            let sweep = |bounds: bool| {
                let s = sweep_of(&t, (counts, optional, tokens), &originals, 2_000_000);
                if bounds {
                    let mut s = s.with_bounds();
                    s.bounds_after = (0, 0);
                    s
                } else {
                    let mut s = s;
                    s.doomed_runs = false;
                    s
                }
            };
            let (mut plain, mut bounded) = (sweep(false), sweep(true));
            let mut every = sweep(false);
            every.every_choice = true;
            let a = plain.solve(INF);
            let b = bounded.solve(INF);
            let c = every.solve(INF);
            prop_assume!(!plain.stopped && !bounded.stopped && !every.stopped);
            let key = |b: &Option<super::super::Best>| {
                b.as_ref()
                    .map(|b| (b.deadwood, changed_melds(&t, &originals, &b.shapes)))
            };
            prop_assert_eq!(key(&a), key(&b), "seed {}", seed);
            prop_assert_eq!(key(&a), key(&c), "seed {}", seed);
        }

        /// Suit and set choices kept from sweep to sweep (as the robbing
        /// search's bound of what is left keeps them) change no answer: a
        /// run of related problems, each the last with a hand copy fewer,
        /// a hand copy made a table copy, an original's cards gone, or an
        /// original's cards no longer an original, solved with one set of
        /// caches, gives the same optimum and arrangement as each problem
        /// alone, under the rules of `offen` and `raeuber`.
        #[test]
        fn kept_choices_change_no_answer(seed in any::<u64>(), robbing in any::<bool>()) {
            let name = if robbing { "raeuber" } else { "offen" };
            let rules = presets::load(name).expect("preset").expect("loads");
            let t = Tables::new(&rules, None);
            let (mut counts, mut optional, tokens, mut originals) = problem(&t, seed);
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
            let mut caches = Some(Box::<super::SweepCaches>::default());
            for _ in 0..12 {
                let mut alone = sweep_of(&t, (counts, optional, tokens), &originals, 200_000);
                let want = alone.solve(INF);
                let mut kept = sweep_of(&t, (counts, optional, tokens), &originals, 200_000);
                if let Some(c) = caches.take() {
                    kept.share(c);
                }
                let got = kept.solve(INF);
                caches = kept.unshare();
                prop_assert_eq!(alone.stopped, kept.stopped, "seed {}", seed);
                if !alone.stopped {
                    prop_assert_eq!(alone.optimum, kept.optimum, "seed {}", seed);
                    let shapes = |b: &Option<super::super::Best>| b.as_ref().map(|b| b.shapes.clone());
                    prop_assert_eq!(shapes(&want), shapes(&got), "seed {}", seed);
                }
                // The next problem.
                let hand: Vec<usize> = (0..FACES).filter(|&f| optional[f] > 0).collect();
                match rng.random_range(0..4) {
                    0 | 1 if !hand.is_empty() => {
                        let f = hand[rng.random_range(0..hand.len())];
                        optional[f] -= 1;
                        // A copy fewer, or one the table holds.
                        if rng.random_bool(0.5) {
                            counts[f] -= 1;
                        }
                    }
                    2 if originals.len() > 1 => {
                        let gone = originals.remove(rng.random_range(0..originals.len()));
                        for f in gone {
                            counts[f] -= 1;
                        }
                    }
                    _ if originals.len() > 1 => {
                        originals.remove(rng.random_range(0..originals.len()));
                    }
                    _ => break,
                }
            }
        }

        /// The relaxation (no changes counted, some choices passed over as
        /// dominated: see `ends_dominated`, `tokens_replaceable`) leaves
        /// exactly as few cards as the full sweep: its values are the least
        /// cards left, so bounds from them never cut an optimum.
        #[test]
        fn the_relaxation_leaves_the_fewest_cards(seed in any::<u64>()) {
            let rules = presets::load("offen").expect("preset").expect("loads");
            let t = Tables::new(&rules, None);
            let (counts, optional, tokens, originals) = problem(&t, seed);
            let mut full = sweep_of(&t, (counts, optional, tokens), &originals, 2_000_000);
            full.doomed_runs = false;
            let mut relaxed = sweep_of(&t, (counts, optional, tokens), &[], 2_000_000);
            relaxed.relax();
            let a = full.solve(INF);
            let b = relaxed.solve(INF);
            prop_assume!(!full.stopped && !relaxed.stopped);
            let left = |b: &Option<super::super::Best>| b.as_ref().map(|b| b.deadwood);
            prop_assert_eq!(left(&a), left(&b), "seed {}", seed);
        }
    }
}
