//! Best partition of a hand: valid melds plus unmatched cards with the least
//! penalty value (deadwood); among equal deadwood, the most cards melded.
//!
//! Exact branch and bound on the lowest natural card still unassigned: it is
//! either deadwood, or in a set of its rank, or in a run through it. Jokers
//! and Five Crowns round wilds are interchangeable *wild tokens* (a round
//! wild at its own place is the same card either way); wild tokens left at
//! the end form melds of their own where the ruleset allows all-wild melds,
//! otherwise the cheapest ones are deadwood. Every meld shape is checked
//! against the ruleset's wild limits (share, maximum, adjacency, run ends).
//!
//! A branch is cut when its deadwood so far plus the penalty of the cards
//! left that fit no meld any more (stranded, worked out bit-parallel by
//! `partition/strand.rs` where the ruleset's lines allow) cannot beat the best
//! partition found; otherwise those stranded cards are left unmatched at
//! once, in one node (they have no other branch). With exactly one wild
//! token left the bound also counts the cards that fit a meld only with it:
//! the token goes into one meld, which saves such cards of one suit (a run)
//! or two of them (a set), so the rest of them is deadwood too. Longer melds are tried
//! first, so that good answers come early; among partitions of equal
//! deadwood and equal cards melded the first found is kept, which makes the
//! answer deterministic.
//!
//! Reading for the limits: a round wild is counted as a wild card wherever
//! it stands (it is a token). In the shipped presets round wilds only occur
//! in Five Crowns, which has no limits, so this never changes a result there.

use std::borrow::Cow;
use std::sync::Arc;

use romme_core::card::{CardKind, Face, Rank, Suit};
use romme_core::deck::COPIES;
use romme_core::meld::{MeldChecker, MeldError};
use romme_core::notation::MeldCard;
use romme_core::penalty::card_points;
use romme_core::ruleset::{Limit, Ruleset, SetSuits, WildShare};
use serde::Serialize;
use smallvec::SmallVec;

mod few_wilds;
mod forced_changes;
mod set_choices;
mod strand;
mod suit_runs;
mod sweep;

pub(crate) use sweep::SweepCaches;

use few_wilds::FewWilds;
use strand::StrandMasks;

/// The entry of a process-wide list that `matches`, or a new one made by
/// `make` (kept in the list while it holds fewer than `most`, so that a
/// server with many house rules does not keep every table): the fast
/// path's tables, which depend only on the rules, are shared this way by
/// every solver of the process.
fn shared_in<T>(
    list: &std::sync::Mutex<Vec<Arc<T>>>,
    most: usize,
    matches: impl Fn(&T) -> bool,
    make: impl FnOnce() -> T,
) -> Arc<T> {
    // A poisoned lock only means another thread panicked while holding it;
    // the list itself is always whole.
    let mut list = list.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = list.iter().find(|t| matches(t)) {
        return Arc::clone(t);
    }
    let t = Arc::new(make());
    if list.len() < most {
        list.push(Arc::clone(&t));
    }
    t
}

/// A hand's wild cards with their penalties, cheapest first (up to eight
/// on the stack: no allocation per solve but in Five Crowns' late rounds).
type Wilds = SmallVec<[(u32, CardKind); 8]>;

/// Number of face slots (5 suits × 13 ranks).
pub(crate) const FACES: usize = Face::SLOTS;

/// The best partition of a hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Partition {
    /// Penalty value of the unmatched cards.
    pub deadwood: u32,
    /// The melds, each in meld order with wild cards declared.
    pub melds: Vec<Vec<MeldCard>>,
    /// Cards in no meld.
    pub unmatched: Vec<CardKind>,
}

impl Partition {
    /// Number of cards in melds.
    pub fn melded(&self) -> usize {
        self.melds.iter().map(Vec::len).sum()
    }
}

/// A constraint for the opening turn: the melds (plus `extra` points from
/// lay-offs or the table) must reach `threshold` — together, or one meld
/// alone — and a card must stay in the hand for the discard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Goal {
    /// Points needed.
    pub threshold: u32,
    /// One meld alone must reach the threshold.
    pub single_meld: bool,
    /// Points that count besides the new melds (lay-offs, table value).
    pub extra: u32,
    /// Wild cards count nothing.
    pub joker_zero: bool,
    /// Only melds without wild cards count.
    pub naturals_only: bool,
    /// At least one card must stay unmatched (for the final discard).
    pub keep_one: bool,
}

/// One meld of the search, in a compact form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// A set of rank index `rank`: how many naturals of each suit, plus wild tokens.
    Set {
        rank: u8,
        per_suit: [u8; 5],
        tokens: u8,
    },
    /// A run of suit `suit` over line positions `lo..lo+len` (cyclic when the
    /// ruleset wraps); bit i of `wild` set when position lo+i is a token.
    Run {
        suit: u8,
        lo: u8,
        len: u8,
        wild: u16,
    },
}

/// Rules and tables that do not change during a search.
#[derive(Debug, Clone)]
struct Tables {
    in_deck: [bool; FACES],
    penalty: [u32; FACES],
    joker_penalty: u32,
    wild_penalty: u32,
    /// Meld value (§3) of each face with the ace high; `ace_low` before a 2.
    value: [u32; FACES],
    ace_low: u32,
    /// Best total meld value of n wild tokens melded among themselves.
    all_wild_value: Vec<u32>,
    /// Best single all-wild meld per size: its value and faces.
    all_wild_single: Vec<Option<(u32, Vec<Face>)>>,
    /// Best split of n tokens into all-wild melds: (value, size of the first).
    all_wild_split: Vec<Option<(u32, usize)>>,
    wild_rank: Option<usize>,
    suits: Vec<usize>,
    /// Per suit: face index at each line position.
    line: [Vec<usize>; 5],
    /// Per face: its positions in its suit's line (the ace may have two).
    positions: [([u8; 2], u8); FACES],
    /// Per face: the other faces of each window of `min_len` line positions
    /// through it, as bitmasks (a run through the face holds one of them).
    run_windows: Vec<Vec<u128>>,
    /// Per face: the faces of the same rank in the other suits.
    same_rank: [u128; FACES],
    cyclic: bool,
    max_run: usize,
    min_len: usize,
    distinct_sets: bool,
    max_set: usize,
    share: WildShare,
    max_wilds: usize,
    adjacent: bool,
    at_ends: bool,
    all_wild: bool,
    /// No wild limit at all: spare tokens can join any meld with room, so
    /// the search only places necessary tokens and absorbs the rest at the end.
    free: bool,
    /// The bit-parallel stranded-card test, where the lines allow it.
    strand: Option<StrandMasks>,
    /// The fast path for hands with at most one wild token, where it applies.
    few_wilds: Option<FewWilds>,
    /// The sweep's set vectors per most copies of a face (the index), made
    /// at the first sweep instead of once per sweep: the robbing search's
    /// bound of what is left builds hundreds of sweeps per position.
    set_vectors: std::sync::OnceLock<Vec<Vec<sweep::SetVector>>>,
}

impl Tables {
    fn new(rules: &Ruleset, wild_rank: Option<Rank>) -> Tables {
        let kind = rules.deck.kind;
        let mut in_deck = [false; FACES];
        let mut penalty = [0u32; FACES];
        for f in 0..FACES {
            if let Some(face) = Face::from_index(f) {
                in_deck[f] = kind.has_face(face);
                penalty[f] = card_points(rules, CardKind::Natural(face), None);
            }
        }
        let runs = &rules.melds.runs;
        let ranks = kind.ranks();
        let has_ace = ranks.contains(&Rank::Ace);
        let mut line: [Vec<usize>; 5] = Default::default();
        let mut positions = [([0u8; 2], 0u8); FACES];
        let suits: Vec<usize> = kind.suits().iter().map(|s| s.index()).collect();
        for &s in &suits {
            let suit = Suit::from_index(s).unwrap_or(Suit::Clubs);
            let mut l: Vec<Rank> = Vec::new();
            if runs.wrap_around {
                l.extend(ranks.iter().copied());
            } else {
                if has_ace && runs.ace_low {
                    l.push(Rank::Ace);
                }
                l.extend(ranks.iter().copied().filter(|r| *r != Rank::Ace));
                if has_ace && runs.ace_high {
                    l.push(Rank::Ace);
                }
            }
            for (p, r) in l.iter().enumerate() {
                let f = Face::new(*r, suit).index();
                line[s].push(f);
                let (slots, n) = &mut positions[f];
                if usize::from(*n) < slots.len() {
                    slots[usize::from(*n)] = p as u8;
                    *n += 1;
                }
            }
        }
        let sets = &rules.melds.sets;
        let max_set = match (sets.suits, sets.max_len) {
            (SetSuits::Distinct, Limit::None) => suits.len(),
            (SetSuits::Distinct, Limit::At(n)) => usize::from(n).min(suits.len()),
            (SetSuits::Any, Limit::None) => usize::MAX,
            (SetSuits::Any, Limit::At(n)) => usize::from(n),
        };
        let w = &rules.melds.wilds;
        let mut value = [0u32; FACES];
        for (f, v) in value.iter_mut().enumerate() {
            if let Some(face) = Face::from_index(f) {
                *v = rules.values.value(face, false);
            }
        }
        let ace_low = u32::from(rules.values.ace_low);
        // Best value of one all-wild meld of each size, then of any split.
        // The best single meld of wild cards only, per size (a set of the
        // highest rank, or a run; a run only where wild cards may lie next to
        // each other and at the ends), then the best split of n tokens.
        let min_len = usize::from(rules.melds.min_len);
        let max_wilds = w.max_per_meld.get().map_or(usize::MAX, usize::from);
        let setlen = match (sets_suits_distinct(rules), rules.melds.sets.max_len) {
            (true, Limit::At(n)) => usize::from(n).min(kind.suits().len()),
            (true, Limit::None) => kind.suits().len(),
            (false, Limit::At(n)) => usize::from(n),
            (false, Limit::None) => usize::MAX,
        };
        let single = |size: usize| -> Option<(u32, Vec<Face>)> {
            if size < min_len || size > max_wilds || !w.all_wild {
                return None;
            }
            let mut best: Option<(u32, Vec<Face>)> = None;
            let mut offer = |faces: Vec<Face>, kind: romme_core::meld::MeldKind| {
                let v = romme_core::meld::card_values(rules, kind, &faces)
                    .iter()
                    .sum::<u32>();
                if best.as_ref().is_none_or(|(b, _)| v > *b) {
                    best = Some((v, faces));
                }
            };
            if size <= setlen {
                for &r in ranks {
                    let faces = (0..size)
                        .map(|i| {
                            let s = suits[i % suits.len()];
                            Face::new(r, Suit::from_index(s).unwrap_or(Suit::Clubs))
                        })
                        .collect();
                    offer(faces, romme_core::meld::MeldKind::Set);
                }
            }
            let l = &line[suits[0]];
            let n = l.len();
            if w.adjacent && w.at_run_ends && size <= ranks.len().min(n) {
                let starts = if runs.wrap_around { n } else { n + 1 - size };
                for start in 0..starts {
                    let faces: Vec<Face> = (0..size)
                        .filter_map(|i| Face::from_index(l[(start + i) % n]))
                        .collect();
                    offer(faces, romme_core::meld::MeldKind::Run);
                }
            }
            best
        };
        // No hand holds more wild tokens than the deck has wild cards: its
        // jokers and, with a wild rank, both copies of that rank per suit.
        let most_tokens = usize::from(rules.deck.jokers)
            + if wild_rank.is_some() {
                usize::from(COPIES) * kind.suits().len()
            } else {
                0
            };
        let sizes = most_tokens.min(23) + 1;
        let all_wild_single: Vec<Option<(u32, Vec<Face>)>> = (0..sizes).map(single).collect();
        // best split value of v tokens (None: v cannot be split into melds).
        let mut all_wild_split: Vec<Option<(u32, usize)>> = vec![None; sizes];
        all_wild_split[0] = Some((0, 0));
        for v in 1..sizes {
            for k in min_len..=v {
                if let (Some((sv, _)), Some((rv, _))) = (&all_wild_single[k], all_wild_split[v - k])
                {
                    let total = sv + rv;
                    if all_wild_split[v].is_none_or(|(b, _)| total > b) {
                        all_wild_split[v] = Some((total, k));
                    }
                }
            }
        }
        let all_wild_value: Vec<u32> = all_wild_split
            .iter()
            .map(|x| x.map_or(0, |(v, _)| v))
            .collect();
        let min_len = usize::from(rules.melds.min_len);
        let mut run_windows: Vec<Vec<u128>> = vec![Vec::new(); FACES];
        for (x, windows) in run_windows.iter_mut().enumerate() {
            let Some(face) = Face::from_index(x) else {
                continue;
            };
            let l = &line[face.suit.index()];
            let (n, len) = (l.len() as isize, min_len as isize);
            let (slots, k) = positions[x];
            if len > n || len == 0 {
                continue;
            }
            for &p in &slots[..usize::from(k)] {
                let p = isize::from(p);
                for start in p - len + 1..=p {
                    if !runs.wrap_around && (start < 0 || start + len > n) {
                        continue;
                    }
                    let mask = (start..start + len)
                        .filter(|&q| q != p)
                        .fold(0u128, |m, q| m | 1u128 << l[q.rem_euclid(n) as usize]);
                    windows.push(mask);
                }
            }
        }
        let mut same_rank = [0u128; FACES];
        for (x, mask) in same_rank.iter_mut().enumerate() {
            for &s in &suits {
                let f = s * 13 + x % 13;
                if f != x && f < FACES && in_deck[f] {
                    *mask |= 1u128 << f;
                }
            }
        }
        let mut t = Tables {
            in_deck,
            penalty,
            joker_penalty: u32::from(rules.penalty.joker),
            wild_penalty: u32::from(rules.penalty.round_wild),
            value,
            ace_low,
            all_wild_value,
            all_wild_single,
            all_wild_split,
            wild_rank: wild_rank.map(|r| r.index()),
            suits,
            line,
            positions,
            run_windows,
            same_rank,
            cyclic: runs.wrap_around,
            max_run: ranks.len(),
            min_len: usize::from(rules.melds.min_len),
            distinct_sets: sets.suits == SetSuits::Distinct,
            max_set,
            share: w.share,
            max_wilds: w.max_per_meld.get().map_or(usize::MAX, usize::from),
            adjacent: w.adjacent,
            at_ends: w.at_run_ends,
            all_wild: w.all_wild,
            free: w.share == WildShare::Any
                && w.max_per_meld == Limit::None
                && w.adjacent
                && w.at_run_ends,
            strand: None,
            few_wilds: None,
            set_vectors: std::sync::OnceLock::new(),
        };
        let set_partners = [0, 1].map(|tokens| t.set_partners_needed(tokens));
        t.strand = StrandMasks::new(
            &t.suits,
            &t.line,
            t.min_len,
            t.cyclic,
            t.distinct_sets,
            set_partners,
        );
        t.few_wilds = FewWilds::new(&t);
        t
    }

    /// Where the faces of an original run lie on their suit's line: the
    /// suit, the first and last positions, and the positions they hold (a
    /// bit each). Each face is taken at the first position after the one
    /// before (the ace low when it comes first, high when it comes last);
    /// positions between them that they do not hold are holes (wild cards
    /// that are no longer on the table). `None` when the faces do not lie
    /// on the line in that order.
    fn run_positions(&self, faces: &[usize]) -> Option<(usize, usize, usize, u16)> {
        let s = faces.first()? / 13;
        let line = self.line.get(s)?;
        let mut at: Option<usize> = None;
        let mut lo = 0;
        let mut held = 0u16;
        for &f in faces {
            let from = at.map_or(0, |q| q + 1);
            let q = (from..line.len()).find(|&q| line[q] == f)?;
            if at.is_none() {
                lo = q;
            }
            held |= 1 << q;
            at = Some(q);
        }
        Some((s, lo, at?, held))
    }

    /// The fewest natural partners a card needs for some set with `tokens`
    /// wild tokens (None: no set at all): the rule of [`Tables::meldable`]
    /// and of the bit-parallel stranded-card test.
    fn set_partners_needed(&self, tokens: usize) -> Option<usize> {
        (1..=self.max_set.min(64))
            .find(|&n| {
                let w = self.min_len.saturating_sub(n);
                w <= tokens && n + w <= self.max_set && self.share_ok(n, w)
            })
            .map(|n| n - 1)
    }

    /// Meld value (§3) of a shape; wild tokens count nothing with `joker_zero`.
    fn shape_value(&self, shape: &Shape, joker_zero: bool) -> u32 {
        match *shape {
            Shape::Set {
                rank,
                per_suit,
                tokens,
            } => {
                let v = self.value[usize::from(rank)];
                let n: u32 = per_suit.iter().map(|&c| u32::from(c)).sum();
                let t = if joker_zero { 0 } else { u32::from(tokens) };
                v * (n + t)
            }
            Shape::Run {
                suit,
                lo,
                len,
                wild,
            } => {
                let face = |i: usize| self.run_face(suit, lo, i);
                (0..usize::from(len))
                    .filter(|&i| !(joker_zero && wild >> i & 1 == 1))
                    .map(|i| {
                        let f = face(i);
                        let ace_low =
                            f % 13 == 12 && i == 0 && usize::from(len) > 1 && face(1) % 13 == 0;
                        if ace_low { self.ace_low } else { self.value[f] }
                    })
                    .sum()
            }
        }
    }

    /// The face at position `i` of a run of `suit` starting at line position `lo`.
    fn run_face(&self, suit: u8, lo: u8, i: usize) -> usize {
        let l = &self.line[usize::from(suit)];
        l[(usize::from(lo) + i) % l.len()]
    }

    /// Most cards a run of this suit may have.
    fn run_room(&self, suit: usize) -> usize {
        self.max_run.min(self.line[suit].len())
    }

    /// How many more wild tokens a meld can take (free mode only).
    fn spare_room(&self, shape: &Shape) -> usize {
        match *shape {
            Shape::Set {
                per_suit, tokens, ..
            } => {
                let n: usize =
                    per_suit.iter().map(|&c| usize::from(c)).sum::<usize>() + usize::from(tokens);
                self.max_set.min(64).saturating_sub(n)
            }
            Shape::Run { suit, len, .. } => self
                .run_room(usize::from(suit))
                .saturating_sub(usize::from(len)),
        }
    }

    /// Whether `wilds` wild cards among `naturals` natural ones are allowed.
    fn share_ok(&self, naturals: usize, wilds: usize) -> bool {
        if wilds > self.max_wilds {
            return false;
        }
        match self.share {
            WildShare::Any => naturals > 0 || self.all_wild,
            WildShare::FewerThanNaturals => wilds < naturals,
            WildShare::AtMostNaturals => wilds <= naturals,
        }
    }

    /// Natural cards in `counts` that could join a set with face `x`, after
    /// discounting `own` copies of x itself (still counted in `counts`).
    fn set_partners(&self, x: usize, counts: &[u8; FACES], own: u8) -> usize {
        let rank = x % 13;
        let sx = x / 13;
        self.suits
            .iter()
            .map(|&s| {
                let mut c = usize::from(counts[s * 13 + rank]);
                if s == sx {
                    c = c.saturating_sub(usize::from(own));
                }
                if self.distinct_sets {
                    c.min(usize::from(s != sx))
                } else {
                    c
                }
            })
            .sum()
    }

    /// Whether face `x` could be in some meld with the cards in `counts`
    /// (which include x; `present` has the bit of every face with a card)
    /// and `tokens` wild tokens. Over-approximates (ignores adjacency and
    /// run-end limits), so "false" means certain deadwood.
    fn meldable(&self, x: usize, counts: &[u8; FACES], present: u128, tokens: usize) -> bool {
        if self.share == WildShare::Any
            && tokens + 1 >= self.min_len
            && self.max_wilds >= self.min_len
        {
            return true;
        }
        // Sets: natural partners of the same rank.
        let partners = if self.distinct_sets {
            bits(present & self.same_rank[x])
        } else {
            self.set_partners(x, counts, 1)
        };
        if self
            .set_partners_needed(tokens)
            .is_some_and(|need| partners >= need)
        {
            return true;
        }
        // Runs: every run through x contains a window of exactly min_len
        // cards through x with no more gaps, so those windows suffice (the
        // share limit is ignored here: over-approximating is safe).
        self.run_windows[x]
            .iter()
            .any(|&w| at_most(w & !present, tokens))
    }

    /// Take out the copies that can be in no meld even with every wild
    /// token (repeated until nothing changes, as each removal can strand
    /// another card): certain deadwood, with its penalty (plus the
    /// rearrangement's unit per card). In rearrangement only hand copies
    /// may stay, so table copies are never taken out.
    fn certain_deadwood(
        &self,
        counts: &mut [u8; FACES],
        tokens: usize,
        arrange: Option<&Arrange>,
    ) -> (Faces, u32, u128) {
        let mut dead = Faces::new();
        let mut paid = 0;
        let unit = arrange.map_or(0, |a| a.unit);
        let mut present = presence(counts);
        if let (None, Some(m)) = (arrange, &self.strand) {
            if tokens + 1 < self.min_len {
                // Bit-parallel, in one pass: a window or set that would hold
                // another card together with a stranded one would hold the
                // stranded one too, so setting stranded cards aside strands
                // no other card.
                let mut stranded = m.stranded(present, tokens);
                present &= !stranded;
                while stranded != 0 {
                    let f = stranded.trailing_zeros() as usize;
                    stranded &= stranded - 1;
                    for _ in 0..counts[f] {
                        // Face indices are below 65.
                        dead.push(f as u8);
                        paid += self.penalty[f];
                    }
                    counts[f] = 0;
                }
                debug_assert_eq!(m.stranded(present, tokens), 0);
                return (dead, paid, present);
            }
        }
        let mut per_face = [0u8; FACES];
        loop {
            let before = dead.len();
            let mut left = present;
            while left != 0 {
                let f = left.trailing_zeros() as usize;
                left &= left - 1;
                while counts[f] > 0
                    && arrange.is_none_or(|a| per_face[f] < a.optional[f])
                    && !self.meldable(f, counts, present, tokens)
                {
                    counts[f] -= 1;
                    if counts[f] == 0 {
                        present &= !(1u128 << f);
                    }
                    per_face[f] += 1;
                    dead.push(f as u8);
                    paid += self.penalty[f] + unit;
                }
            }
            if dead.len() == before {
                return (dead, paid, present);
            }
        }
    }

    /// How many wild tokens can form melds of their own: the largest v ≤ u
    /// that splits into melds of min_len..=cap tokens each.
    fn all_wild_capacity(&self, u: usize) -> usize {
        (0..=u.min(self.all_wild_split.len() - 1))
            .rev()
            .find(|&v| self.all_wild_split[v].is_some())
            .unwrap_or(0)
    }
}

/// Whether a shape holds all faces of some original table meld (an
/// original kept, perhaps extended, is no change).
fn keeps_an_original(t: &Tables, originals: &[Vec<usize>], shape: &Shape) -> bool {
    let faces = shape_faces(t, shape);
    originals.iter().any(|orig| {
        let mut pool = faces.clone();
        let naturals = orig.iter().filter(|&&f| !set_wild(f)).all(|f| {
            match pool.iter().position(|g| g == f) {
                Some(k) => {
                    pool.swap_remove(k);
                    true
                }
                None => false,
            }
        });
        // An original set's wild cards: a set no shorter, with a token for
        // each that must stay one.
        let tokens = |faces: &[usize]| faces.iter().filter(|&&f| f == SET_TOKEN).count();
        naturals
            && (!orig.iter().any(|&f| set_wild(f))
                || matches!(shape, Shape::Set { .. })
                    && faces.len() >= orig.len()
                    && tokens(&faces) >= tokens(orig))
    })
}

/// How many shapes hold no whole original meld (the changed melds).
fn changed_melds(t: &Tables, originals: &[Vec<usize>], shapes: &[Shape]) -> usize {
    shapes
        .iter()
        .filter(|s| !keeps_an_original(t, originals, s))
        .count()
}

/// Faces of a shape, tokens included (as the faces they stand for).
fn shape_faces(t: &Tables, shape: &Shape) -> Vec<usize> {
    match *shape {
        Shape::Set {
            rank,
            per_suit,
            tokens,
        } => {
            let mut v = Vec::new();
            for &s in &t.suits {
                for _ in 0..per_suit[s] {
                    v.push(s * 13 + usize::from(rank));
                }
            }
            // Tokens in a set: missing suits (their faces do not matter:
            // each may stand for an original set's wild card).
            v.extend(std::iter::repeat_n(SET_TOKEN, usize::from(tokens)));
            v
        }
        Shape::Run {
            suit,
            lo,
            len,
            wild,
        } => (0..usize::from(len))
            .map(|i| {
                if wild >> i & 1 == 1 {
                    usize::MAX
                } else {
                    t.run_face(suit, lo, i)
                }
            })
            .collect(),
    }
}

fn sets_suits_distinct(rules: &Ruleset) -> bool {
    rules.melds.sets.suits == SetSuits::Distinct
}

/// Best-so-far of a search.
/// Melds of a partition in the making: on the stack for ordinary hands.
type Shapes = SmallVec<[Shape; 8]>;

/// Faces of unmatched cards: on the stack for ordinary hands.
type Faces = SmallVec<[u8; 16]>;

#[derive(Debug, Clone)]
struct Best {
    deadwood: u32,
    melded: usize,
    shapes: Shapes,
    dead: Faces,
    /// Spare tokens joined to the melds (free mode).
    absorbed: usize,
    /// Tokens melded among themselves.
    wild_melded: usize,
    /// Opening points (goal mode).
    points: u32,
}

/// The search state.
struct Search<'t> {
    t: &'t Tables,
    counts: [u8; FACES],
    /// Bit f set when `counts[f] > 0`.
    present: u128,
    tokens: usize,
    /// Penalties of the wild tokens, ascending (the cheapest stay unmatched).
    token_penalties: SmallVec<[u32; 8]>,
    deadwood: u32,
    melded: usize,
    remaining: usize,
    shapes: Shapes,
    dead: Faces,
    /// How many of `dead` are certain deadwood (set aside before the search).
    certain: usize,
    best: Option<Best>,
    /// Search nodes visited (a machine-independent measure of effort).
    nodes: u64,
    /// Spare tokens are absorbed at the leaf instead of branched on.
    free: bool,
    /// The opening constraint, if any.
    goal: Option<Goal>,
    /// Value and "has a wild card" of each shape on the stack (goal mode).
    values: Vec<(u32, bool)>,
    /// Rearrangement mode: which cards may stay unmatched, and limits.
    arrange: Option<Arrange>,
    /// Rearrangement: copies of each face left unmatched so far (zero
    /// otherwise).
    dead_per_face: [u8; FACES],
    /// Rearrangement: candidate shapes collected at the current node.
    collect: Option<Vec<(Shape, usize)>>,
    /// Rearrangement: changed melds so far, and the best total cost.
    changes: u64,
    best_cost: u64,
}

/// Where the rearrangement search branches next.
enum Branch {
    /// A table card fits no meld: the branch is infeasible.
    Dead,
    /// This table face, with the melds through it.
    Face(usize, Vec<(Shape, usize)>),
    /// Only hand cards are left (the lowest is branched on).
    HandOnly,
}

/// In an original's faces ([`Arrange::originals`]) and a shape's
/// ([`shape_faces`]): a wild card of a set, whose face does not matter (it
/// stands for a suit the set lacks). A new set holds an original set that
/// lists it only with a wild token for it (the wild card left in place).
pub(crate) const SET_TOKEN: usize = usize::MAX;

/// In an original's faces: a wild card of a set that a hand natural may
/// take the place of (a joker exchange): a new set holds an original set
/// that lists it only when it is no shorter (a token, or the natural,
/// for it).
pub(crate) const SET_WILD: usize = usize::MAX - 1;

/// Whether an original's face stands for a set's wild card
/// ([`SET_TOKEN`], [`SET_WILD`]).
pub(crate) fn set_wild(face: usize) -> bool {
    face >= SET_WILD
}

/// Cost scale in rearrangement: every unmatched card's cost is multiplied
/// by this and each changed meld adds 1, so changes only break ties.
pub(crate) const CHANGE_SCALE: u64 = 64;

/// Rearrangement mode of the search (see [`crate::rearrange`](mod@crate::rearrange)).
#[derive(Debug, Clone)]
pub(crate) struct Arrange {
    /// Copies of each face that may stay unmatched (the hand's); the others
    /// (the table's) must be melded.
    pub optional: [u8; FACES],
    /// Added to the penalty of every unmatched card, so that fewer cards
    /// left always beats less value left.
    pub unit: u32,
    /// The original table melds as face lists, for counting changes. An
    /// original set may list [`SET_TOKEN`] or [`SET_WILD`] for each of its
    /// wild cards (see there).
    pub originals: Vec<Vec<usize>>,
    /// Stop after this many search nodes.
    pub node_limit: u64,
    /// Stop at this time.
    pub deadline: Option<std::time::Instant>,
    /// Set when a limit stopped the search.
    pub stopped: bool,
    /// Cost of an arrangement already known (the search must beat it).
    pub incumbent: u64,
    /// Räuber robbing's demand on new melds, where the sweep should honour
    /// it (see [`Pieces`]); the branch and bound does not.
    pub pieces: Option<Pieces>,
}

/// Räuber robbing's demand on the melds of a free arrangement, for the
/// robbing search's floor (`rearrange`'s `free_floor`): a meld without a
/// hand card must be a piece of one table meld (`rob`'s readings). The
/// sweep ([`sweep`]) reads it by faces, which makes it a relaxation, never
/// stricter than robbing: a meld holds a hand card where it holds a face
/// of which the hand has a copy (or a wild token, where the hand has a
/// wild card or may get one by an exchange); a run without one must have
/// its natural cards where a table run of its suit that spans its start
/// has natural cards, and the sets without one at a rank must lie within
/// the natural suits of different table sets of that rank. A run holds a
/// table run with a joker whole only where it holds a token too (the
/// joker, which may be declared anew anywhere in it).
#[derive(Debug, Clone)]
pub(crate) struct Pieces {
    /// Faces of which the hand holds a natural copy.
    pub hand: [bool; FACES],
    /// Whether the hand holds a wild card.
    pub hand_wild: bool,
    /// The table's melds as the faces their cards occupy, in the order the
    /// checker reads them, each marked whether it is a wild card (at the
    /// face it stands for) and whether a choice may exchange it.
    pub melds: Vec<Vec<(usize, bool, bool)>>,
}

impl Search<'_> {
    /// Take `n` copies of face `f` from the counts.
    #[inline]
    fn take(&mut self, f: usize, n: u8) {
        self.counts[f] -= n;
        if self.counts[f] == 0 {
            self.present &= !(1u128 << f);
        }
    }

    /// Put `n` copies of face `f` back.
    #[inline]
    fn put(&mut self, f: usize, n: u8) {
        self.counts[f] += n;
        if n > 0 {
            self.present |= 1u128 << f;
        }
    }

    /// The lowest face at or above `from` with a card left.
    #[inline]
    fn lowest(&self, from: usize) -> Option<usize> {
        if from >= FACES {
            return None;
        }
        let m = self.present >> from;
        (m != 0).then(|| from + m.trailing_zeros() as usize)
    }

    /// Whether this branch can still beat the best partition found: its
    /// deadwood so far plus the penalty of the cards left that fit no meld
    /// any more (stranded) against the best's.
    ///
    /// `Some` with the stranded faces when the branch may still win, else
    /// `None`.
    fn bound(&self) -> Option<u128> {
        let (stranded, needy) = self.stranded_and_needy();
        let Some(b) = &self.best else {
            return Some(stranded);
        };
        let beats = |deadwood: u32, lost: usize| {
            deadwood < b.deadwood
                || (deadwood == b.deadwood
                    && self.melded + self.remaining + self.tokens - lost > b.melded)
        };
        if !beats(self.deadwood, 0) {
            return None;
        }
        if stranded == 0 && needy == 0 {
            return Some(0);
        }
        let (mut lost_value, mut lost) = (0, 0);
        let mut left = stranded;
        while left != 0 {
            let f = left.trailing_zeros() as usize;
            left &= left - 1;
            lost_value += self.t.penalty[f] * u32::from(self.counts[f]);
            lost += usize::from(self.counts[f]);
        }
        if needy != 0 {
            let (value, cards) = self.needy_loss(needy);
            lost_value += value;
            lost += cards;
        }
        beats(self.deadwood + lost_value, lost).then_some(stranded)
    }

    /// [`Search::stranded`], and with exactly one wild token left the faces
    /// that fit a meld only with it (stranded without tokens, not with
    /// one; empty otherwise).
    fn stranded_and_needy(&self) -> (u128, u128) {
        match &self.t.strand {
            Some(m) if self.tokens == 1 && self.present != 0 => {
                let (none, one) = m.stranded_both(self.present);
                (one, none & !one)
            }
            _ => (self.stranded(), 0),
        }
    }

    /// The least penalty (and cards) the `needy` faces lose: the one token
    /// goes into one meld, which holds needy cards of one suit (a run) or
    /// two needy cards at most (a set with the token has two naturals: a
    /// needy card has at most one partner). So all but the dearer of one
    /// suit's needy cards and the two dearest needy cards stay unmatched.
    fn needy_loss(&self, needy: u128) -> (u32, usize) {
        let mut per_suit = [0u32; 5];
        let (mut total, mut cards, mut top1, mut top2) = (0u32, 0usize, 0u32, 0u32);
        let mut left = needy;
        while left != 0 {
            let f = left.trailing_zeros() as usize;
            left &= left - 1;
            let p = self.t.penalty[f];
            let n = u32::from(self.counts[f]);
            per_suit[f / 13] += p * n;
            total += p * n;
            cards += usize::from(self.counts[f]);
            if p > top1 {
                top2 = if n > 1 { p } else { top1 };
                top1 = p;
            } else if p > top2 {
                top2 = p;
            }
        }
        let save = per_suit.iter().copied().max().unwrap_or(0).max(top1 + top2);
        (total.saturating_sub(save), cards.saturating_sub(4))
    }

    /// Leave every copy of the `stranded` faces unmatched at once: they fit
    /// no meld in any completion, so their only branch is "unmatched", one
    /// node each. Returns how many cards were set aside. (The bound sums
    /// their penalties first without changing anything: setting them aside
    /// only to undo it at a node that is then cut cost 15 % more.)
    fn strand_all(&mut self, mut stranded: u128) -> usize {
        let mut n = 0;
        while stranded != 0 {
            let f = stranded.trailing_zeros() as usize;
            stranded &= stranded - 1;
            let c = self.counts[f];
            self.deadwood += self.t.penalty[f] * u32::from(c);
            for _ in 0..c {
                // Face indices are below 65.
                self.dead.push(f as u8);
            }
            n += usize::from(c);
            self.take(f, c);
        }
        self.remaining -= n;
        n
    }

    /// Undo [`Search::strand_all`].
    fn unstrand_all(&mut self, n: usize) {
        self.remaining += n;
        for _ in 0..n {
            if let Some(f) = self.dead.pop() {
                let f = usize::from(f);
                self.deadwood -= self.t.penalty[f];
                self.put(f, 1);
            }
        }
    }

    /// The faces left that fit no meld with the other cards left and the
    /// wild tokens left (see [`strand`]). Only where the bit-parallel test
    /// applies: the per-face test costs more per node than it saves.
    fn stranded(&self) -> u128 {
        if self.present == 0 {
            return 0;
        }
        match &self.t.strand {
            Some(m) if self.tokens + 1 < self.t.min_len => m.stranded(self.present, self.tokens),
            _ => 0,
        }
    }

    fn dfs(&mut self, from: usize) {
        self.nodes += 1;
        let b = self.bound();
        let Some(stranded) = b else {
            return;
        };
        if stranded != 0 {
            let n = self.strand_all(stranded);
            self.branch(from);
            self.unstrand_all(n);
        } else {
            self.branch(from);
        }
    }

    /// The branches at the lowest card left (or the leaf).
    fn branch(&mut self, from: usize) {
        let Some(x) = self.lowest(from) else {
            self.leaf();
            return;
        };
        self.take(x, 1);
        self.remaining -= 1;
        // Melds through x first: good answers early make the bound bite.
        self.runs_through(x);
        self.sets_with(x);
        // x unmatched.
        self.deadwood += self.t.penalty[x];
        self.dead.push(x as u8);
        self.dfs(x);
        self.dead.pop();
        self.deadwood -= self.t.penalty[x];
        self.put(x, 1);
        self.remaining += 1;
    }

    fn leaf(&mut self) {
        let u = self.tokens;
        // Spare tokens: join melds with room (free mode), meld among
        // themselves, or stay unmatched (the cheapest ones).
        let room = if self.free && u > 0 {
            self.shapes
                .iter()
                .map(|s| self.t.spare_room(s))
                .sum::<usize>()
                .min(u)
        } else {
            0
        };
        let (a, v) = (0..=room)
            .rev()
            .map(|a| (a, self.t.all_wild_capacity(u - a)))
            .max_by_key(|&(a, v)| (a + v, a))
            .unwrap_or((0, 0));
        let (mut a, mut v) = (a, v);
        let mut points = 0;
        if let Some(g) = self.goal {
            // The most tokens melded among themselves that still meets the
            // goal (keeping a card to discard may need one fewer).
            let counts = |has_wild: bool| !(g.naturals_only && has_wild);
            let counted = self.values.iter().filter(|(_, w)| counts(*w));
            let (base_sum, base_max) =
                counted.fold((0u32, 0u32), |(s, m), &(x, _)| (s + x, m.max(x)));
            let mut met = None;
            for cand in (0..=v).rev() {
                if self.t.all_wild_split[cand].is_none() {
                    continue;
                }
                let wild_value = if cand > 0 && !g.naturals_only && !g.joker_zero {
                    self.t.all_wild_value.get(cand).copied().unwrap_or(0)
                } else {
                    0
                };
                let total = g.extra + base_sum + wild_value;
                let reached = if g.single_meld {
                    base_max.max(wild_value) >= g.threshold
                } else {
                    total >= g.threshold
                };
                let left = self.dead.len() + (u - a - cand);
                if reached && !(g.keep_one && left == 0) {
                    met = Some((cand, total));
                    break;
                }
            }
            let Some((cand, total)) = met else {
                return;
            };
            v = cand;
            points = total;
            a = a.min(u - v);
        }
        let extra: u32 = self.token_penalties[..u - a - v].iter().sum();
        let deadwood = self.deadwood + extra;
        let melded = self.melded + a + v;
        let better = match &self.best {
            None => true,
            Some(b) => deadwood < b.deadwood || (deadwood == b.deadwood && melded > b.melded),
        };
        if better {
            // Reuse the previous best's buffers: no allocation per improvement.
            match &mut self.best {
                Some(b) => {
                    b.deadwood = deadwood;
                    b.melded = melded;
                    b.shapes.clear();
                    b.shapes.extend_from_slice(&self.shapes);
                    b.dead.clear();
                    b.dead.extend_from_slice(&self.dead);
                    b.dead[self.certain..].sort_unstable();
                    b.absorbed = a;
                    b.wild_melded = v;
                    b.points = points;
                }
                None => {
                    // `from_slice` copies as a block (`clone` element by element).
                    let mut dead = Faces::from_slice(&self.dead);
                    // Stranded cards are set aside out of order: the search's
                    // unmatched cards in ascending order, as met.
                    dead[self.certain..].sort_unstable();
                    self.best = Some(Best {
                        deadwood,
                        melded,
                        shapes: Shapes::from_slice(&self.shapes),
                        dead,
                        absorbed: a,
                        wild_melded: v,
                        points,
                    });
                }
            }
        }
    }

    fn push(&mut self, shape: Shape, cards: usize, tokens: usize, from: usize) {
        if let Some(list) = &mut self.collect {
            list.push((shape, tokens));
            let _ = (cards, from);
            return;
        }
        if let Some(g) = self.goal {
            self.values
                .push((self.t.shape_value(&shape, g.joker_zero), tokens > 0));
        }
        self.shapes.push(shape);
        self.melded += cards;
        self.tokens -= tokens;
        self.dfs(from);
        self.tokens += tokens;
        self.melded -= cards;
        self.shapes.pop();
        if self.goal.is_some() {
            self.values.pop();
        }
    }

    /// Whether a shape holds all faces of some original table meld.
    fn keeps_an_original(&self, shape: &Shape) -> bool {
        self.arrange
            .as_ref()
            .is_none_or(|a| keeps_an_original(self.t, &a.originals, shape))
    }

    /// Rearrangement branch and bound: the lowest card is melded in one of
    /// the collected shapes (those keeping an original meld first, larger
    /// first) or, if it is a hand copy, left in the hand. Cost = cards left ×
    /// scale + changed melds; only strictly better answers replace the best.
    fn arrange_dfs(&mut self) {
        self.nodes += 1;
        let unit = u64::from(self.arrange.as_ref().map_or(0, |a| a.unit));
        if let Some(a) = &mut self.arrange {
            let out_of_time = self.nodes % 1024 == 0 && crate::deadline::passed(a.deadline);
            if self.nodes > a.node_limit || out_of_time {
                a.stopped = true;
            }
            if a.stopped {
                return;
            }
        }
        let cost = u64::from(self.deadwood) * CHANGE_SCALE + self.changes;
        if cost >= self.best_cost {
            return;
        }
        // Lower bound: a table card that fits no meld any more makes this
        // branch infeasible; hand cards that fit none will stay in the hand.
        if self.best.is_some() {
            let mut bound = cost;
            for f in 0..FACES {
                let c = self.counts[f];
                if c == 0 || self.t.meldable(f, &self.counts, self.present, self.tokens) {
                    continue;
                }
                let hand_left = self
                    .arrange
                    .as_ref()
                    .map_or(0, |a| a.optional[f].saturating_sub(self.dead_per_face[f]));
                if c > hand_left {
                    return;
                }
                bound += u64::from(c) * (u64::from(self.t.penalty[f]) + unit) * CHANGE_SCALE;
                if bound >= self.best_cost {
                    return;
                }
            }
        }
        let Some(x) = self.lowest(0) else {
            // Only wild tokens left: meld what can be, the cheapest stay.
            let u = self.tokens;
            let v = self.t.all_wild_capacity(u);
            let left: u64 = self.token_penalties[..u - v]
                .iter()
                .map(|&p| (u64::from(p) + unit) * CHANGE_SCALE)
                .sum();
            let total = cost + left + u64::from(v > 0);
            if total < self.best_cost {
                self.best_cost = total;
                self.best = Some(Best {
                    deadwood: self.deadwood
                        + self.token_penalties[..u - v]
                            .iter()
                            .map(|p| p + unit as u32)
                            .sum::<u32>(),
                    melded: 0,
                    shapes: Shapes::from_slice(&self.shapes),
                    dead: Faces::from_slice(&self.dead),
                    absorbed: 0,
                    wild_melded: v,
                    points: 0,
                });
            }
            return;
        };
        // Branch on the table face with the fewest melds through it (a face
        // in no meld at all ends the branch); with only hand cards left, on
        // the lowest one.
        let (x, mut shapes) = match self.most_constrained() {
            Branch::Dead => return,
            Branch::Face(f, shapes) => (f, shapes),
            Branch::HandOnly => (x, self.shapes_through(x)),
        };
        let mut ranked: Vec<(bool, usize, Shape, usize)> = shapes
            .drain(..)
            .map(|(shape, tokens)| {
                let keep = self.keeps_an_original(&shape);
                let len = shape_faces(self.t, &shape).len();
                (keep, len, shape, tokens)
            })
            .collect();
        ranked.sort_by_key(|(keep, len, _, _)| (!*keep, std::cmp::Reverse(*len)));
        for (keep, _, shape, tokens) in ranked {
            let faces = shape_faces(self.t, &shape);
            for &f in &faces {
                if f != usize::MAX {
                    self.take(f, 1);
                }
            }
            self.tokens -= tokens;
            self.changes += u64::from(!keep);
            self.shapes.push(shape);
            self.arrange_dfs();
            self.shapes.pop();
            self.changes -= u64::from(!keep);
            self.tokens += tokens;
            for &f in &faces {
                if f != usize::MAX {
                    self.put(f, 1);
                }
            }
        }
        // x left in the hand (only a hand copy may be).
        let may = self
            .arrange
            .as_ref()
            .is_some_and(|a| self.dead_per_face[x] < a.optional[x]);
        if may {
            let penalty = self.t.penalty[x] + unit as u32;
            self.take(x, 1);
            self.dead_per_face[x] += 1;
            self.dead.push(x as u8);
            self.deadwood += penalty;
            self.arrange_dfs();
            self.deadwood -= penalty;
            self.dead.pop();
            self.dead_per_face[x] -= 1;
            self.put(x, 1);
        }
    }

    /// Every meld through one copy of face x (with the cards left).
    fn shapes_through(&mut self, x: usize) -> Vec<(Shape, usize)> {
        self.take(x, 1);
        self.collect = Some(Vec::new());
        self.runs_through(x);
        self.sets_with(x);
        let shapes = self.collect.take().unwrap_or_default();
        self.put(x, 1);
        shapes
    }

    /// Rearrangement: the table face (a copy that may not stay in the hand)
    /// with the fewest melds through it.
    fn most_constrained(&mut self) -> Branch {
        let Some(a) = &self.arrange else {
            return Branch::HandOnly;
        };
        let optional = a.optional;
        let mut best: Option<(usize, Vec<(Shape, usize)>)> = None;
        let mut rest = self.present;
        while rest != 0 {
            let f = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let may_stay = optional[f].saturating_sub(self.dead_per_face[f]);
            if self.counts[f] <= may_stay {
                continue;
            }
            let shapes = self.shapes_through(f);
            if shapes.is_empty() {
                return Branch::Dead;
            }
            if best.as_ref().is_none_or(|(_, b)| shapes.len() < b.len()) {
                let forced = shapes.len() == 1;
                best = Some((f, shapes));
                if forced {
                    break;
                }
            }
        }
        match best {
            Some((f, shapes)) => Branch::Face(f, shapes),
            None => Branch::HandOnly,
        }
    }

    /// Sets of x's rank containing x (x already taken from the counts).
    fn sets_with(&mut self, x: usize) {
        let rank = x % 13;
        let sx = x / 13;
        let mut per_suit = [0u8; 5];
        per_suit[sx] = 1;
        if self.t.distinct_sets {
            let partners = self.present & self.t.same_rank[x];
            if 1 + partners.count_ones() as usize + self.tokens >= self.t.min_len {
                self.distinct_sets_with(x, rank, partners, per_suit);
            }
            return;
        }
        // Not enough partners and wild tokens for any set: skip the search.
        let partners = self.t.set_partners(x, &self.counts, 0);
        if 1 + partners + self.tokens >= self.t.min_len {
            self.set_suits(x, rank, 0, &mut per_suit, 1);
        }
    }

    /// Sets of distinct suits: every subset of the suits holding x's rank,
    /// most copies first (the order `set_suits` would visit them in), as
    /// a loop over submasks. Bit `4 - s` stands for suit s, so counting
    /// the submasks down visits the lower suits' cards first.
    fn distinct_sets_with(
        &mut self,
        x: usize,
        rank: usize,
        mut partners: u128,
        mut per_suit: [u8; 5],
    ) {
        let mut suits = 0u8;
        while partners != 0 {
            let f = partners.trailing_zeros() as usize;
            partners &= partners - 1;
            suits |= 1 << (4 - f / 13);
        }
        let mut sub = suits;
        loop {
            let n = 1 + sub.count_ones() as usize;
            // Too few naturals for the tokens left to make a set: skip.
            if n <= self.t.max_set && n + self.tokens >= self.t.min_len {
                for s in suits_of(sub) {
                    self.take(s * 13 + rank, 1);
                    per_suit[s] = 1;
                }
                self.remaining -= n - 1;
                self.emit_sets(x, rank, &per_suit, n);
                self.remaining += n - 1;
                for s in suits_of(sub) {
                    self.put(s * 13 + rank, 1);
                    per_suit[s] = 0;
                }
            }
            if sub == 0 {
                return;
            }
            sub = (sub - 1) & suits;
        }
    }

    /// The sets of `n` naturals (`per_suit`, already taken) with the wild
    /// tokens they may take.
    fn emit_sets(&mut self, x: usize, rank: usize, per_suit: &[u8; 5], n: usize) {
        let t = self.t;
        let need = t.min_len.saturating_sub(n);
        let most = self.tokens.min(t.max_set.saturating_sub(n));
        // Free mode: spare tokens join at the end, only the needed ones here.
        let most = if self.free { most.min(need) } else { most };
        for w in need..=most {
            if !t.share_ok(n, w) {
                continue;
            }
            let shape = Shape::Set {
                rank: rank as u8,
                per_suit: *per_suit,
                tokens: w as u8,
            };
            self.push(shape, n + w, w, x);
        }
    }

    fn set_suits(&mut self, x: usize, rank: usize, k: usize, per_suit: &mut [u8; 5], n: usize) {
        let t = self.t;
        if k == t.suits.len() {
            if n <= t.max_set {
                self.emit_sets(x, rank, per_suit, n);
            }
            return;
        }
        let s = t.suits[k];
        let f = s * 13 + rank;
        let have = usize::from(self.counts[f]);
        let already = usize::from(per_suit[s]);
        let most = if t.distinct_sets {
            if already > 0 { 0 } else { have.min(1) }
        } else {
            have
        };
        // Most copies first: longer melds early make the bound bite sooner.
        for take in (0..=most).rev() {
            if n + take > t.max_set {
                continue;
            }
            self.take(f, take as u8);
            self.remaining -= take;
            per_suit[s] += take as u8;
            self.set_suits(x, rank, k + 1, per_suit, n + take);
            per_suit[s] -= take as u8;
            self.remaining += take;
            self.put(f, take as u8);
        }
    }

    /// Runs of x's suit through one of x's line positions.
    fn runs_through(&mut self, x: usize) {
        let suit = x / 13;
        let (slots, n) = self.t.positions[x];
        for &p in &slots[..usize::from(n)] {
            self.extend_left(x, suit, usize::from(p), 1, 0);
        }
    }

    fn line_len(&self, suit: usize) -> usize {
        self.t.line[suit].len()
    }

    fn pos(&self, suit: usize, p: isize) -> Option<usize> {
        let n = self.line_len(suit) as isize;
        if self.t.cyclic {
            Some(p.rem_euclid(n) as usize)
        } else if (0..n).contains(&p) {
            Some(p as usize)
        } else {
            None
        }
    }

    /// Grow the run to the left of `lo`, then (at every left end) to the
    /// right. `wild` marks token positions relative to `lo`; `len` cards so far.
    fn extend_left(&mut self, x: usize, suit: usize, lo: usize, len: usize, wild: u16) {
        // Stop extending left here and grow to the right; in free mode only
        // from a natural left end (a token there would be a spare one).
        if !self.free || wild & 1 == 0 {
            self.extend_right(x, suit, lo, len, wild);
        }
        if len >= self.t.run_room(suit) {
            return;
        }
        let Some(p) = self.pos(suit, lo as isize - 1) else {
            return;
        };
        let f = self.t.line[suit][p];
        // A natural card at p.
        if self.counts[f] > 0 {
            self.take(f, 1);
            self.remaining -= 1;
            self.extend_left(x, suit, p, len + 1, wild << 1);
            self.remaining += 1;
            self.put(f, 1);
        }
        // A wild token at p.
        let used = wild.count_ones() as usize;
        if self.tokens > used {
            self.extend_left(x, suit, p, len + 1, (wild << 1) | 1);
        }
    }

    fn extend_right(&mut self, x: usize, suit: usize, lo: usize, len: usize, wild: u16) {
        let t = self.t;
        let tokens = wild.count_ones() as usize;
        // Longer runs first: good answers early make the bound bite sooner.
        if len < t.run_room(suit) {
            if let Some(p) = self.pos(suit, (lo + len) as isize) {
                let f = t.line[suit][p];
                if self.counts[f] > 0 {
                    self.take(f, 1);
                    self.remaining -= 1;
                    self.extend_right(x, suit, lo, len + 1, wild);
                    self.remaining += 1;
                    self.put(f, 1);
                }
                if self.tokens > tokens {
                    self.extend_right(x, suit, lo, len + 1, wild | (1 << len));
                }
            }
        }
        if self.free {
            // Emit only spans with natural ends; pad to min_len if needed.
            if wild >> (len - 1) & 1 == 0 {
                self.emit_padded(x, suit, lo, len, wild);
            }
        } else if len >= t.min_len {
            let naturals = len - tokens;
            let ends_ok = t.at_ends || (wild & 1 == 0 && wild >> (len - 1) & 1 == 0);
            let adjacent_ok = t.adjacent || wild & (wild >> 1) == 0;
            if ends_ok && adjacent_ok && t.share_ok(naturals, tokens) {
                let shape = Shape::Run {
                    suit: suit as u8,
                    lo: lo as u8,
                    len: len as u8,
                    wild,
                };
                self.push(shape, len, tokens, x);
            }
        }
    }

    /// Free mode: a span with natural ends, padded with tokens to min_len
    /// (to the right where the line has room, else to the left).
    fn emit_padded(&mut self, x: usize, suit: usize, lo: usize, len: usize, wild: u16) {
        let t = self.t;
        let pad = t.min_len.saturating_sub(len);
        let used = wild.count_ones() as usize;
        if used + pad > self.tokens || len + pad > t.run_room(suit) {
            return;
        }
        let n = t.line[suit].len();
        let right_room = if t.cyclic { pad } else { n - (lo + len) };
        let right = pad.min(right_room);
        let left = pad - right;
        if left > lo && !t.cyclic {
            return;
        }
        let new_lo = if t.cyclic {
            (lo + n - left) % n
        } else {
            lo - left
        };
        let mut w = u32::from(wild) << left;
        for i in 0..left {
            w |= 1 << i;
        }
        for i in 0..right {
            w |= 1 << (left + len + i);
        }
        let total = len + pad;
        let shape = Shape::Run {
            suit: suit as u8,
            lo: new_lo as u8,
            len: total as u8,
            wild: w as u16,
        };
        self.push(shape, total, used + pad, x);
    }
}

/// Why a hand cannot be solved.
pub type SolveError = MeldError;

/// Finds best partitions under one ruleset and round; reusable across hands.
#[derive(Debug, Clone)]
pub struct PartitionSolver<'r> {
    rules: &'r Ruleset,
    round: Option<u8>,
    checker: MeldChecker<'r>,
    tables: Cow<'r, Tables>,
}

/// Lower bounds for a search over the rank line from the relaxation of free
/// rearrangement (see [`PartitionSolver::relaxation`]).
pub(crate) struct Relaxation<'t> {
    sweep: sweep::Sweep<'t>,
    /// Face index at each line position of the first suit.
    pub line: Vec<usize>,
}

impl Relaxation<'_> {
    /// A lower bound on the cost (cards left × (unit + penalty) × scale; no
    /// changes; spare wild tokens cost nothing) of the cards at line
    /// positions `p` and later, when `left` wild tokens are still free and
    /// `aces_low` aces of each suit (by suit index) went to the line's low
    /// end: the least such cost when it is below `need`, else at least
    /// `need` (0 where it does not know).
    pub fn bound(&mut self, p: usize, left: u8, aces_low: [u8; 5], need: u64) -> u64 {
        self.sweep.relaxed_value(p, left, aces_low, need)
    }
}

/// A partition solver's tables, built once for a ruleset and round and
/// kept with them, for a caller that cannot keep a [`PartitionSolver`]
/// (which borrows its ruleset) but asks many times: the game engine keeps
/// one per game and makes a solver from it for each question, instead of
/// building the tables (tens of thousands of instructions) every time.
#[derive(Debug, Clone)]
pub struct SolverTables {
    rules: Arc<Ruleset>,
    round: Option<u8>,
    tables: Tables,
}

impl SolverTables {
    /// The tables for `rules` and `round` (as [`PartitionSolver::new`]).
    pub fn new(rules: Arc<Ruleset>, round: Option<u8>) -> Result<Self, SolveError> {
        let checker = MeldChecker::new(&rules, round)?;
        let tables = Tables::new(&rules, checker.wild_rank());
        Ok(SolverTables {
            rules,
            round,
            tables,
        })
    }

    /// The ruleset the tables were built for.
    pub fn rules(&self) -> &Arc<Ruleset> {
        &self.rules
    }

    /// The round the tables were built for.
    pub fn round(&self) -> Option<u8> {
        self.round
    }

    /// A solver using these tables (nothing is built).
    pub fn solver(&self) -> Result<PartitionSolver<'_>, SolveError> {
        Ok(PartitionSolver {
            rules: &self.rules,
            round: self.round,
            checker: MeldChecker::new(&self.rules, self.round)?,
            tables: Cow::Borrowed(&self.tables),
        })
    }
}

impl<'r> PartitionSolver<'r> {
    /// A solver for `rules`; `round` is needed with round wilds (Five Crowns).
    pub fn new(rules: &'r Ruleset, round: Option<u8>) -> Result<Self, SolveError> {
        let checker = MeldChecker::new(rules, round)?;
        let tables = Tables::new(rules, checker.wild_rank());
        Ok(PartitionSolver {
            rules,
            round,
            checker,
            tables: Cow::Owned(tables),
        })
    }

    /// The ruleset the solver was built for.
    pub fn rules(&self) -> &'r Ruleset {
        self.rules
    }

    /// The round the solver was built for (Five Crowns).
    pub fn round(&self) -> Option<u8> {
        self.round
    }

    /// The meld checker of its ruleset and round.
    pub(crate) fn checker(&self) -> &MeldChecker<'r> {
        &self.checker
    }

    /// Work out the whole per-suit table of the fast path for hands with at
    /// most one wild card (filled entry by entry on first use otherwise),
    /// so that no later solve works an entry out: for benchmarks and for
    /// anyone who wants steady times from the first hand on. The table is
    /// shared by every solver of the process with the same rules of runs
    /// and penalties; nothing to do where the fast path does not apply.
    pub fn prepare(&self) {
        if let Some(fw) = &self.tables.few_wilds {
            fw.fill();
        }
    }

    /// The best partition of `hand`.
    pub fn solve(&self, hand: &[CardKind]) -> Result<Partition, SolveError> {
        let (counts, wild_cards) = self.split(hand)?;
        if let Some(best) = self.few_wilds(hand, &wild_cards) {
            return Ok(self.build(&best, &wild_cards));
        }
        Ok(self.searched(counts, &wild_cards))
    }

    /// [`PartitionSolver::solve`] by the search alone, also where the fast
    /// path applies (tests compare the two).
    #[cfg(test)]
    fn solve_by_search(&self, hand: &[CardKind]) -> Result<Partition, SolveError> {
        let (counts, wild_cards) = self.split(hand)?;
        Ok(self.searched(counts, &wild_cards))
    }

    /// The best partition found by the search.
    fn searched(&self, counts: [u8; FACES], wild_cards: &Wilds) -> Partition {
        self.search(counts, wild_cards, None, None, |search| {
            let best = search.best.take().unwrap_or(Best {
                deadwood: 0,
                melded: 0,
                shapes: Shapes::new(),
                dead: Faces::new(),
                absorbed: 0,
                wild_melded: 0,
                points: 0,
            });
            self.build(&best, wild_cards)
        })
    }

    /// The best partition whose melds satisfy `goal` (an opening): least
    /// deadwood, then most cards melded; with the opening points counted.
    /// `None` when no partition reaches the goal.
    pub fn solve_goal(
        &self,
        hand: &[CardKind],
        goal: Goal,
    ) -> Result<Option<(Partition, u32)>, SolveError> {
        let (counts, wild_cards) = self.split(hand)?;
        Ok(
            self.search(counts, &wild_cards, Some(goal), None, |search| {
                search
                    .best
                    .as_ref()
                    .map(|b| (self.build(b, &wild_cards), b.points))
            }),
        )
    }

    /// Rearrangement search over face counts: `wild_cards` are the hand's
    /// wild tokens (cheapest first). Returns the best partition found (its
    /// melds use plain natural faces), whether a limit stopped the search,
    /// and the number of original melds changed.
    pub(crate) fn arrange(
        &self,
        counts: [u8; FACES],
        wild_cards: Vec<(u32, CardKind)>,
        arrange: Arrange,
    ) -> (Option<Partition>, bool, usize) {
        let (best, stopped, changes, _) = self.arrange_counted(counts, wild_cards, arrange);
        (best, stopped, changes)
    }

    /// [`PartitionSolver::arrange`], and the states and nodes it visited
    /// (a machine-independent measure of its work).
    pub(crate) fn arrange_counted(
        &self,
        counts: [u8; FACES],
        wild_cards: Vec<(u32, CardKind)>,
        arrange: Arrange,
    ) -> (Option<Partition>, bool, usize, u64) {
        self.arrange_sharing(counts, wild_cards, arrange, &mut None)
    }

    /// [`PartitionSolver::arrange_counted`] for a caller that asks many
    /// problems over nearly the same cards: the sweep's suit and set
    /// choices are kept in `caches` from one call to the next (see
    /// [`SweepCaches`]; the answers are the same).
    pub(crate) fn arrange_sharing(
        &self,
        counts: [u8; FACES],
        wild_cards: Vec<(u32, CardKind)>,
        arrange: Arrange,
        caches: &mut Option<Box<SweepCaches>>,
    ) -> (Option<Partition>, bool, usize, u64) {
        let mut effort = 0;
        // The sweep (exact, polynomial) where it applies.
        if let Some((best, changes)) =
            self.arrange_by_sweep(counts, &wild_cards, &arrange, &mut effort, caches)
        {
            return (best, false, changes, effort);
        }
        // A sweep the deadline stopped hands over nothing: past the deadline
        // the branch and bound is not started (it would spend its set-up
        // and first nodes before it read the clock).
        if crate::deadline::passed(arrange.deadline) {
            return (None, true, 0, effort);
        }
        let (best, stopped, changes, nodes) =
            self.search(counts, &wild_cards, None, Some(arrange), |search| {
                let stopped = search.arrange.as_ref().is_some_and(|a| a.stopped);
                let changes = match (&search.best, &search.arrange) {
                    (Some(b), Some(a)) => changed_melds(&self.tables, &a.originals, &b.shapes),
                    _ => 0,
                };
                (search.best.take(), stopped, changes, search.nodes)
            });
        effort += nodes;
        let best = best.as_ref().map(|b| self.build(b, &wild_cards));
        (best, stopped, changes, effort)
    }

    /// A cheap lower bound on the cost of every arrangement of the free
    /// cards of `arrange` (`counts` and `tokens` wild tokens; only its
    /// `optional`, `unit` and `originals` are read): the hand copies that
    /// fit no meld at all stay in the hand (as the search pays them
    /// upfront), and the rest that can join no original need changed melds
    /// (see [`forced_changes`](forced_changes::forced_changes)).
    pub(crate) fn cost_floor(
        &self,
        mut counts: [u8; FACES],
        tokens: usize,
        arrange: &Arrange,
    ) -> u64 {
        let t = &self.tables;
        let (dead, paid, _) = t.certain_deadwood(&mut counts, tokens, Some(arrange));
        let mut optional = arrange.optional;
        for &f in &dead {
            optional[usize::from(f)] -= 1;
        }
        // (The changed melds count only where every card left costs more
        // than all of them: with a unit per card.)
        let forced = if arrange.unit > 0 {
            forced_changes::forced_changes(t, &counts, &optional, tokens, &arrange.originals)
        } else {
            0
        };
        u64::from(paid) * CHANGE_SCALE + forced
    }

    /// The changed melds that the hand cards from each line position on
    /// force in any arrangement that places them all: per position, the
    /// fewest suits and ranks that cover the hand faces there or later that
    /// can join no original (see `forced_changes`); 0 where unknown.
    pub(crate) fn forced_changes_from(
        &self,
        counts: &[u8; FACES],
        optional: &[u8; FACES],
        tokens: usize,
        originals: &[Vec<usize>],
    ) -> [u64; 16] {
        forced_changes::forced_changes_from(&self.tables, counts, optional, tokens, originals)
    }

    /// The free rearrangement's relaxation (no change costs, every run
    /// that could be open is open), as a source of lower bounds for a
    /// search over the same line: see [`Relaxation::bound`]. `None` where
    /// the sweep does not apply.
    pub(crate) fn relaxation(
        &self,
        counts: [u8; FACES],
        optional: [u8; FACES],
        unit: u32,
        tokens: usize,
        limits: (u64, Option<std::time::Instant>),
        pieces: Option<&Pieces>,
    ) -> Option<Relaxation<'_>> {
        let t = &self.tables;
        if !sweep::Sweep::applies(t) {
            return None;
        }
        let mut sweep =
            sweep::Sweep::new(t, counts, optional, unit, CHANGE_SCALE, tokens, &[], limits)?;
        sweep.relax();
        if let Some(pieces) = pieces {
            sweep.demand_pieces(pieces);
        }
        Some(Relaxation {
            sweep,
            line: t.line[t.suits[0]].clone(),
        })
    }

    /// Rearrangement by the sweep, when it applies and finishes: the best
    /// arrangement cheaper than the incumbent (if any) and its changes.
    fn arrange_by_sweep(
        &self,
        mut counts: [u8; FACES],
        wild_cards: &[(u32, CardKind)],
        arrange: &Arrange,
        effort: &mut u64,
        caches: &mut Option<Box<SweepCaches>>,
    ) -> Option<(Option<Partition>, usize)> {
        let t = &self.tables;
        if !sweep::Sweep::applies(t) || arrange.originals.is_empty() {
            return None;
        }
        // Hand copies that fit no meld at all stay in the hand, paid upfront.
        let (dead, paid, _) = t.certain_deadwood(&mut counts, wild_cards.len(), Some(arrange));
        let mut optional = arrange.optional;
        for &f in &dead {
            optional[usize::from(f)] -= 1;
        }
        let mut sweep = sweep::Sweep::new(
            t,
            counts,
            optional,
            arrange.unit,
            CHANGE_SCALE,
            wild_cards.len(),
            &arrange.originals,
            (arrange.node_limit, arrange.deadline),
        )?
        .with_bounds();
        let limit = arrange
            .incumbent
            .saturating_add(1)
            .saturating_sub(u64::from(paid) * CHANGE_SCALE);
        // (Choices kept for other sweeps do not know the pieces' demand.)
        let sharing = arrange.pieces.is_none();
        match &arrange.pieces {
            Some(pieces) => sweep.demand_pieces(pieces),
            None => {
                if let Some(kept) = caches.take() {
                    sweep.share(kept);
                }
            }
        }
        let found = sweep.solve(limit);
        if sharing {
            *caches = sweep.unshare();
        }
        *effort += sweep.nodes;
        if sweep.stopped {
            return None;
        }
        // The sweep counts spare tokens as joining melds with room; if the
        // melds have too little room (all full), the branch and bound decides.
        if let Some(b) = &found {
            let room: usize = b.shapes.iter().map(|s| t.spare_room(s)).sum();
            if b.absorbed > room {
                return None;
            }
        }
        Some(match found {
            Some(mut b) => {
                // Where the sweep's count of changes is only a lower bound
                // (originals with holes), or reads tokens the faces do not
                // show (pieces: a table run with a joker held whole only
                // with a token), its own: the cost stays a bound.
                let changes = if sweep.exact && arrange.pieces.is_none() {
                    changed_melds(t, &arrange.originals, &b.shapes)
                } else {
                    let left = u64::from(b.deadwood) * CHANGE_SCALE;
                    usize::try_from(sweep.optimum.saturating_sub(left)).unwrap_or(usize::MAX)
                };
                b.dead.extend(dead);
                b.deadwood += paid;
                (Some(self.build(&b, wild_cards)), changes)
            }
            None => (None, 0),
        })
    }

    /// Only the optimum's deadwood and number of melded cards, without
    /// building the melds (what a bot's evaluation needs).
    pub fn deadwood(&self, hand: &[CardKind]) -> Result<(u32, usize), SolveError> {
        let (counts, wild_cards) = self.split(hand)?;
        if let Some(value) = self.few_wilds_value(hand, &wild_cards) {
            return Ok(value);
        }
        Ok(self.search(counts, &wild_cards, None, None, |search| {
            search
                .best
                .as_ref()
                .map_or((0, 0), |b| (b.deadwood, b.melded))
        }))
    }

    /// Search nodes the solver visits for `hand`: a machine-independent
    /// measure of how hard the hand is (benchmarks use it to find the worst
    /// case without timing noise).
    pub fn effort(&self, hand: &[CardKind]) -> Result<u64, SolveError> {
        let (counts, wild_cards) = self.split(hand)?;
        Ok(self.search(counts, &wild_cards, None, None, |search| search.nodes))
    }

    /// The natural cards of `hand` that fit no meld with the rest of it
    /// and its wild cards, one face per copy. Every partition of `hand`
    /// leaves them unmatched, and so does every partition of a part of it
    /// that holds them (with fewer cards around, a card fits no more melds).
    pub(crate) fn certain_deadwood(&self, hand: &[CardKind]) -> Result<Vec<Face>, SolveError> {
        let (mut counts, wild_cards) = self.split(hand)?;
        let (dead, _, _) = self
            .tables
            .certain_deadwood(&mut counts, wild_cards.len(), None);
        Ok(dead
            .iter()
            .filter_map(|&f| Face::from_index(usize::from(f)))
            .collect())
    }

    /// Count the natural cards per face and collect the wild cards (with
    /// their penalty, cheapest first); reject cards the deck does not have,
    /// or has fewer copies of.
    #[allow(clippy::type_complexity)]
    fn split(&self, hand: &[CardKind]) -> Result<([u8; FACES], Wilds), SolveError> {
        let t = &self.tables;
        let mut counts = [0u8; FACES];
        let mut per_face = [0u8; FACES];
        let mut jokers = 0usize;
        let mut wild_cards = Wilds::new();
        for &c in hand {
            match c {
                CardKind::Natural(f) => {
                    let i = f.index();
                    if !t.in_deck[i] || per_face[i] >= 2 {
                        // The checker words the error.
                        self.checker.check_cards(hand)?;
                    }
                    per_face[i] += 1;
                    if Some(f.rank.index()) == t.wild_rank {
                        wild_cards.push((t.wild_penalty, c));
                    } else {
                        counts[i] += 1;
                    }
                }
                CardKind::Joker => {
                    jokers += 1;
                    if jokers > usize::from(self.rules.deck.jokers) {
                        self.checker.check_cards(hand)?;
                    }
                    wild_cards.push((t.joker_penalty, c));
                }
            }
        }
        wild_cards.sort_unstable();
        Ok((counts, wild_cards))
    }

    /// Remove certain deadwood, search, and hand the finished search to
    /// `finish` (in this frame: the search state is not moved).
    fn search<R>(
        &self,
        mut counts: [u8; FACES],
        wild_cards: &[(u32, CardKind)],
        goal: Option<Goal>,
        arrange: Option<Arrange>,
        finish: impl FnOnce(&mut Search<'_>) -> R,
    ) -> R {
        let t = &self.tables;
        let tokens = wild_cards.len();
        let (dead, deadwood, present) = t.certain_deadwood(&mut counts, tokens, arrange.as_ref());
        let remaining = counts.iter().map(|&c| usize::from(c)).sum();
        // Only the rearrangement asks how many copies of a face stay.
        let mut dead_per_face = [0u8; FACES];
        if arrange.is_some() {
            for &f in &dead {
                dead_per_face[usize::from(f)] += 1;
            }
        }
        let mut search = Search {
            t,
            counts,
            present,
            tokens,
            token_penalties: wild_cards.iter().map(|(p, _)| *p).collect(),
            deadwood,
            melded: 0,
            remaining,
            shapes: Shapes::new(),
            certain: dead.len(),
            dead,
            best: None,
            nodes: 0,
            free: t.free && goal.is_none() && arrange.is_none(),
            goal,
            values: Vec::new(),
            collect: None,
            changes: 0,
            best_cost: arrange.as_ref().map_or(u64::MAX, |a| a.incumbent),
            dead_per_face,
            arrange,
        };
        if search.arrange.is_some() {
            search.arrange_dfs();
        } else {
            // The root: no best to beat yet, and the pre-check has left no
            // stranded card, so its bound would find nothing.
            debug_assert_eq!(search.stranded(), 0);
            search.nodes += 1;
            search.branch(0);
        }
        finish(&mut search)
    }

    /// Turn the compact best into melds of cards with declarations. Wild
    /// cards go into melds from the most expensive down.
    fn build(&self, best: &Best, wilds: &[(u32, CardKind)]) -> Partition {
        let t = &self.tables;
        // Pop from the end: most expensive first.
        let mut wilds = wilds;
        let mut next_wild = || {
            let (last, rest) = wilds.split_last()?;
            wilds = rest;
            Some(last.1)
        };
        // No allocation for a hand without melds.
        let mut melds = Vec::with_capacity(best.shapes.len() + usize::from(best.wild_melded > 0));
        // Spare tokens join the melds with room, in order.
        let mut spare = best.absorbed;
        for shape in &best.shapes {
            let take = t.spare_room(shape).min(spare);
            spare -= take;
            let shape = grow(t, *shape, take);
            let mut meld = Vec::with_capacity(shape_len(&shape));
            match shape {
                Shape::Set {
                    rank,
                    per_suit,
                    tokens,
                } => {
                    let r = Rank::from_number(rank + 2).unwrap_or(Rank::Two);
                    let mut used = [false; 5];
                    for &s in &t.suits {
                        for _ in 0..per_suit[s] {
                            let face = Face::new(r, Suit::from_index(s).unwrap_or(Suit::Clubs));
                            meld.push(MeldCard::plain(CardKind::Natural(face)));
                            used[s] = true;
                        }
                    }
                    if tokens > 0 {
                        // Wild cards stand for missing suits first, then any.
                        let mut free: SmallVec<[usize; 10]> =
                            t.suits.iter().copied().filter(|&s| !used[s]).collect();
                        free.extend(t.suits.iter().copied());
                        for k in 0..usize::from(tokens) {
                            let s = free[k % free.len()];
                            let face = Face::new(r, Suit::from_index(s).unwrap_or(Suit::Clubs));
                            if let Some(card) = next_wild() {
                                meld.push(declared(card, face));
                            }
                        }
                    }
                    meld.sort_by_key(|c| c.effective().map(|f| f.suit));
                }
                Shape::Run {
                    suit,
                    lo,
                    len,
                    wild,
                } => {
                    for i in 0..usize::from(len) {
                        let face = Face::from_index(t.run_face(suit, lo, i))
                            .unwrap_or(Face::new(Rank::Two, Suit::Clubs));
                        if wild >> i & 1 == 1 {
                            if let Some(card) = next_wild() {
                                meld.push(declared(card, face));
                            }
                        } else {
                            meld.push(MeldCard::plain(CardKind::Natural(face)));
                        }
                    }
                }
            }
            melds.push(meld);
        }
        // Wild tokens melded among themselves.
        if best.wild_melded > 0 {
            let cards: Vec<CardKind> = (0..best.wild_melded).filter_map(|_| next_wild()).collect();
            melds.extend(self.all_wild_melds(&cards));
        }
        // Sized up front: a collected filter_map would grow it card by card.
        let mut unmatched = Vec::with_capacity(best.dead.len() + wilds.len());
        unmatched.extend(
            best.dead
                .iter()
                .filter_map(|&f| Face::from_index(usize::from(f)).map(CardKind::Natural)),
        );
        unmatched.extend(wilds.iter().map(|(_, c)| *c));
        Partition {
            deadwood: best.deadwood,
            melds,
            unmatched,
        }
    }

    /// Split wild cards into melds of their own, each declared with its
    /// highest-valued reading.
    fn all_wild_melds(&self, cards: &[CardKind]) -> Vec<Vec<MeldCard>> {
        let t = &self.tables;
        let mut out = Vec::new();
        let mut rest = cards;
        while let Some(Some((_, k))) = t.all_wild_split.get(rest.len()) {
            if *k == 0 || *k > rest.len() {
                break;
            }
            let (chunk, tail) = rest.split_at(*k);
            let faces = t.all_wild_single[*k]
                .as_ref()
                .map(|(_, f)| f.clone())
                .unwrap_or_default();
            out.push(
                chunk
                    .iter()
                    .zip(faces)
                    .map(|(&c, f)| declared(c, f))
                    .collect(),
            );
            rest = tail;
        }
        out
    }
}

/// Set bits of a mask with few of them (no `popcnt` on baseline x86-64).
fn bits(mut m: u128) -> usize {
    let mut n = 0;
    while m != 0 {
        m &= m - 1;
        n += 1;
    }
    n
}

/// Whether at most `k` bits of `m` are set, stopping early.
fn at_most(mut m: u128, k: usize) -> bool {
    for _ in 0..k {
        if m == 0 {
            return true;
        }
        m &= m - 1;
    }
    m == 0
}

/// The bitmask of the faces with a card in `counts`, eight faces at a time.
fn presence(counts: &[u8; FACES]) -> u128 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Moves bit 8k to bit 56 + k: the eight bytes' flags into the top byte.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut mask = 0u128;
    for (i, chunk) in counts.chunks_exact(8).enumerate() {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(chunk);
        let w = u64::from_le_bytes(bytes);
        // The high bit of each byte set when the byte is not zero.
        let nonzero = (((w & LOW7) + LOW7) | w) & HIGH;
        let bits = (nonzero >> 7).wrapping_mul(GATHER) >> 56;
        mask |= u128::from(bits) << (8 * i);
    }
    for (f, &c) in counts.iter().enumerate().skip(FACES / 8 * 8) {
        mask |= u128::from(c > 0) << f;
    }
    mask
}

/// The suits of a submask in `Search::distinct_sets_with` (bit `4 - s`
/// for suit s).
fn suits_of(mut mask: u8) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let s = 4 - mask.trailing_zeros() as usize;
            mask &= mask - 1;
            s
        })
    })
}

/// Cards in a meld of this shape.
fn shape_len(shape: &Shape) -> usize {
    match *shape {
        Shape::Set {
            per_suit, tokens, ..
        } => per_suit.iter().map(|&n| usize::from(n)).sum::<usize>() + usize::from(tokens),
        Shape::Run { len, .. } => usize::from(len),
    }
}

/// A meld shape with `extra` more wild tokens: a set takes them as further
/// cards, a run grows to the right where the line has room, else to the left.
fn grow(t: &Tables, shape: Shape, extra: usize) -> Shape {
    match shape {
        Shape::Set {
            rank,
            per_suit,
            tokens,
        } => Shape::Set {
            rank,
            per_suit,
            tokens: tokens + extra as u8,
        },
        Shape::Run {
            suit,
            lo,
            len,
            wild,
        } => {
            let n = t.line[usize::from(suit)].len();
            let (lo, len) = (usize::from(lo), usize::from(len));
            let right = if t.cyclic {
                extra
            } else {
                extra.min(n - (lo + len))
            };
            let left = extra - right;
            let mut w = u32::from(wild) << left;
            for i in 0..left {
                w |= 1 << i;
            }
            for i in 0..right {
                w |= 1 << (left + len + i);
            }
            Shape::Run {
                suit,
                lo: ((lo + n - left) % n) as u8,
                len: (len + extra) as u8,
                wild: w as u16,
            }
        }
    }
}

fn declared(card: CardKind, face: Face) -> MeldCard {
    MeldCard {
        card,
        stands_for: if card.face() == Some(face) {
            None
        } else {
            Some(face)
        },
    }
}

/// The best partition of `hand` under `rules` (and `round` for Five Crowns).
pub fn best_partition(
    rules: &Ruleset,
    round: Option<u8>,
    hand: &[CardKind],
) -> Result<Partition, SolveError> {
    PartitionSolver::new(rules, round)?.solve(hand)
}

#[cfg(test)]
mod tests {
    use super::{FACES, Tables, at_most, bits, presence};
    use romme_core::ruleset::presets;

    /// The bit-parallel stranded-card test equals the per-face one on
    /// random hands (one or two copies per face) with no or one wild token,
    /// for every preset whose lines it supports; the others fall back.
    #[test]
    fn bit_parallel_stranded_cards_match_the_per_face_test() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut checked = 0;
        for name in presets::NAMES {
            let Some(Ok(rules)) = presets::load(name) else {
                panic!("preset {name}");
            };
            let t = Tables::new(&rules, None);
            let Some(strand) = &t.strand else {
                assert!(
                    rules.melds.sets.suits != romme_core::ruleset::SetSuits::Distinct
                        || t.min_len != 3,
                    "{name}: a French deck with distinct sets should have the fast test"
                );
                continue;
            };
            checked += 1;
            for _ in 0..20_000 {
                let mut counts = [0u8; FACES];
                for (f, c) in counts.iter_mut().enumerate() {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    if t.in_deck[f] {
                        // About 13 to 20 cards of 104.
                        *c = match state % 32 {
                            0..=3 => 1,
                            4 => 2,
                            _ => 0,
                        };
                    }
                }
                let present = presence(&counts);
                // Both at once, as the one-token bound asks.
                assert_eq!(
                    strand.stranded_both(present),
                    (strand.stranded(present, 0), strand.stranded(present, 1)),
                    "{name}, faces {present:b}"
                );
                for tokens in 0..=1 {
                    let want = (0..FACES)
                        .filter(|&f| counts[f] > 0 && !t.meldable(f, &counts, present, tokens))
                        .fold(0u128, |m, f| m | 1u128 << f);
                    assert_eq!(
                        strand.stranded(present, tokens),
                        want,
                        "{name}, {tokens} tokens, faces {present:b}"
                    );
                    // Setting the stranded cards aside strands no other
                    // (the pre-check strips them in one pass).
                    assert_eq!(
                        strand.stranded(present & !want, tokens),
                        0,
                        "{name}, {tokens} tokens, faces {present:b}"
                    );
                }
            }
        }
        assert!(checked >= 3, "only {checked} presets use the fast test");
    }

    /// Cards that fit no meld once the joker is placed are set aside in
    /// one node, not one node each; the answer is unchanged (the unmatched
    /// cards still come in ascending order after the certain deadwood).
    #[test]
    fn stranded_cards_are_set_aside_at_once() {
        use romme_core::notation::parse_cards;
        let Some(Ok(rules)) = presets::load("klassisch") else {
            panic!("klassisch");
        };
        let solver = super::PartitionSolver::new(&rules, None).expect("solver");
        // Three pairs, each a meld with the one joker; Ks fits nothing.
        let hand = parse_cards("2h 4h 7s 9s Jd Jc * Ks").expect("cards");
        let p = solver.solve_by_search(&hand).expect("solves");
        assert_eq!(solver.solve(&hand).map(|q| q.deadwood), Ok(p.deadwood));
        assert_eq!(p.melds.len(), 1);
        // The jacks are the dearest pair: the joker goes to them.
        assert_eq!(p.deadwood, 2 + 4 + 7 + 9 + 10);
        let unmatched: Vec<String> = p.unmatched.iter().map(ToString::to_string).collect();
        assert_eq!(unmatched, ["Ks", "2h", "4h", "7s", "9s"]);
        // The search visits 5 nodes; with a node per stranded card it
        // visited 10.
        let nodes = solver.effort(&hand).expect("effort");
        assert!(nodes <= 6, "{nodes} nodes");
    }

    /// With one joker left, the cards that need it lose all but what one
    /// meld can save: here, once the 6c is left unmatched, the needy cards
    /// (two aces of spades, 10h, 9c, 8c, 2c, …) cannot all be saved by the
    /// one run or set the joker can make, so the branch is cut at once.
    #[test]
    fn one_token_bound_cuts_what_one_meld_cannot_save() {
        use romme_core::notation::parse_cards;
        let Some(Ok(rules)) = presets::load("klassisch") else {
            panic!("klassisch");
        };
        let solver = super::PartitionSolver::new(&rules, None).expect("solver");
        let hand = parse_cards("* Qd Qh As 6c 10h 5d As 2c 6h 9c 8c 5s").expect("cards");
        let p = solver.solve(&hand).expect("solves");
        // 6c * 8c 9c is the only meld.
        assert_eq!(p.melds.len(), 1);
        assert_eq!(p.melds[0].len(), 4);
        assert_eq!(p.deadwood, 70);
        // 5 nodes; without the one-token bound the search visited 11.
        let nodes = solver.effort(&hand).expect("effort");
        assert!(nodes <= 5, "{nodes} nodes");
    }

    /// A solver made from kept tables answers as one built on the spot, on
    /// random hands of every preset (Five Crowns in several rounds), and
    /// the tables refuse what the solver refuses.
    #[test]
    fn kept_tables_answer_as_new_ones() {
        use super::{PartitionSolver, SolverTables};
        use std::sync::Arc;
        let mut solved = 0;
        for name in presets::NAMES {
            let Some(Ok(rules)) = presets::load(name) else {
                panic!("preset {name}");
            };
            let rounds: Vec<Option<u8>> = if rules.melds.wilds.round_wild {
                assert!(SolverTables::new(Arc::new(rules.clone()), None).is_err());
                vec![Some(1), Some(5), Some(11)]
            } else {
                vec![None]
            };
            for round in rounds {
                let kept = SolverTables::new(Arc::new(rules.clone()), round).expect("tables");
                assert_eq!(kept.round(), round);
                let from_kept = kept.solver().expect("solver");
                let fresh = PartitionSolver::new(&rules, round).expect("solver");
                for seed in 0..40 {
                    let hand: Vec<_> = rules
                        .deck
                        .shuffled(seed)
                        .into_iter()
                        .take(13)
                        .map(|c| c.kind())
                        .collect();
                    assert_eq!(
                        from_kept.solve(&hand),
                        fresh.solve(&hand),
                        "{name} round {round:?} seed {seed}"
                    );
                    solved += 1;
                }
            }
        }
        assert!(solved >= 40 * 12, "{solved} hands");
    }

    #[test]
    fn bit_counts() {
        for m in [0u128, 1, 0b1011, 1 << 100 | 1 << 64 | 7, u128::MAX] {
            let n = m.count_ones() as usize;
            assert_eq!(bits(m), n);
            for k in 0..n + 3 {
                assert_eq!(at_most(m, k), n <= k, "{m:b} {k}");
            }
        }
    }

    /// The word-at-a-time presence mask equals the face-by-face one.
    #[test]
    fn presence_marks_exactly_the_faces_with_cards() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            let mut counts = [0u8; FACES];
            for c in counts.iter_mut() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Mostly empty, sometimes one or two copies, rarely more.
                *c = match state % 16 {
                    0..=9 => 0,
                    10..=12 => 1,
                    13..=14 => 2,
                    _ => (state >> 8) as u8,
                };
            }
            let want = counts
                .iter()
                .enumerate()
                .fold(0u128, |m, (f, &c)| m | u128::from(c > 0) << f);
            assert_eq!(presence(&counts), want, "{counts:?}");
        }
        assert_eq!(presence(&[0; FACES]), 0);
        assert_eq!(presence(&[255; FACES]), (1u128 << FACES) - 1);
    }
}
