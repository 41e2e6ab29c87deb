//! A cheap lower bound on the changed melds of a free rearrangement, for
//! the robbing search's bound of what is left (`rob.rs`), which asks it
//! hundreds of times per position before it would build a sweep.
//!
//! A meld of the new table is unchanged when it holds a whole original
//! (a run holding an original run, a set holding an original set). A hand
//! card that can be in no such meld ends in a changed meld, and a changed
//! meld is a run (one suit) or a set (one rank): the changed melds are at
//! least the fewest suits and ranks that cover those cards. Leaving a card
//! in the hand costs more than any number of changes, so every arrangement
//! either places them all (at least that many changes) or costs more.
//!
//! Melds are compared with originals by their faces, as the sweep does (a
//! meld of the same faces as an original counts as holding it, whichever
//! copies it holds), so a hand copy of a face that an original holds never
//! counts as joining none. Whether another card can join an original is
//! judged generously (so the bound stays a bound): a set of its rank with room (and without its suit where
//! sets have distinct suits), or a run of its suit within the longest run's
//! reach whose positions between the card and the original all have a free
//! card of that face or can take one of the wild tokens (each card may use
//! them all, and any free card may fill, also one that an original holds).

use smallvec::SmallVec;

use super::{FACES, Tables, set_wild};

/// An original run: its suit, its first and last line positions, and the
/// positions its natural cards hold (a bit each).
type OrigRun = (usize, usize, usize, u16);

/// An original set: its rank, its suits (a bit each) and its cards.
type OrigSet = (usize, u8, usize);

/// The fewest changed melds of any arrangement of the free cards `counts`
/// (of which `optional` are hand copies) with `tokens` wild tokens, where
/// `originals` are the faces of the melds that count as unchanged when a
/// meld holds one whole. 0 where the lines wrap around (the bound reads
/// runs on a line with ends) or an original does not lie on a line.
pub(super) fn forced_changes(
    t: &Tables,
    counts: &[u8; FACES],
    optional: &[u8; FACES],
    tokens: usize,
    originals: &[Vec<usize>],
) -> u64 {
    stuck_faces(t, counts, optional, tokens, originals).map_or(0, |stuck| cover(&stuck))
}

/// [`forced_changes`] of the hand cards from each line position on: entry
/// `p` counts only the hand faces that can join no original and whose
/// every line position is `p` or later (an ace at both ends only from the
/// line's start). All 0 where [`forced_changes`] would be.
pub(super) fn forced_changes_from(
    t: &Tables,
    counts: &[u8; FACES],
    optional: &[u8; FACES],
    tokens: usize,
    originals: &[Vec<usize>],
) -> [u64; 16] {
    let mut from = [0u64; 16];
    let Some(stuck) = stuck_faces(t, counts, optional, tokens, originals) else {
        return from;
    };
    // Each stuck face's first line position.
    let first: SmallVec<[usize; 16]> = stuck
        .iter()
        .map(|&(s, r)| {
            let (at, n) = t.positions[s * 13 + r];
            at[..usize::from(n)]
                .iter()
                .map(|&q| usize::from(q))
                .min()
                .unwrap_or(0)
        })
        .collect();
    for (p, entry) in from.iter_mut().enumerate() {
        let ahead: SmallVec<[(usize, usize); 16]> = stuck
            .iter()
            .zip(&first)
            .filter(|&(_, &q)| q >= p)
            .map(|(&e, _)| e)
            .collect();
        if ahead.is_empty() {
            break;
        }
        *entry = cover(&ahead);
    }
    from
}

/// The hand faces that can join no original, as (suit, rank) edges; `None`
/// where the bound does not apply (lines that wrap around, an original not
/// on a line).
fn stuck_faces(
    t: &Tables,
    counts: &[u8; FACES],
    optional: &[u8; FACES],
    tokens: usize,
    originals: &[Vec<usize>],
) -> Option<SmallVec<[(usize, usize); 16]>> {
    if t.cyclic {
        return None;
    }
    let mut runs: SmallVec<[OrigRun; 16]> = SmallVec::new();
    let mut sets: SmallVec<[OrigSet; 16]> = SmallVec::new();
    for faces in originals {
        let Some(&first) = faces.iter().find(|&&f| !set_wild(f)) else {
            continue;
        };
        if faces.iter().all(|&f| set_wild(f) || f % 13 == first % 13) {
            // (Its naturals: a card of its wild card's face may join it in
            // an arrangement after an exchange, which the bound must allow
            // for, see `crate::rearrange`'s floor.)
            let suits = faces
                .iter()
                .filter(|&&f| !set_wild(f))
                .fold(0u8, |m, &f| m | 1 << (f / 13));
            let naturals = faces.iter().filter(|&&f| !set_wild(f)).count();
            sets.push((first % 13, suits, naturals));
            // A lone face (its meld's wild cards are gone) is held whole by
            // a run through it too.
            if let [f] = faces[..] {
                let (at, n) = t.positions[f];
                for &q in &at[..usize::from(n)] {
                    let q = usize::from(q);
                    runs.push((f / 13, q, q, 1 << q));
                }
            }
            continue;
        }
        // A run (its positions as the sweep reads them; only a set lists
        // wild cards).
        if faces.iter().any(|&f| set_wild(f)) {
            return None;
        }
        runs.push(t.run_positions(faces)?);
    }
    // The hand faces that can join no original: (suit, rank) edges.
    let mut stuck: SmallVec<[(usize, usize); 16]> = SmallVec::new();
    for f in (0..FACES).filter(|&f| optional[f] > 0) {
        // Melds are compared with originals by their faces: a copy of a face
        // an original holds may be in a meld of the same faces, which counts
        // as holding it.
        if originals.iter().any(|o| o.contains(&f)) {
            continue;
        }
        let (s, r) = (f / 13, f % 13);
        let joins_set = sets.iter().any(|&(rank, suits, n)| {
            rank == r && n < t.max_set && !(t.distinct_sets && suits >> s & 1 == 1)
        });
        if joins_set {
            continue;
        }
        let (at, n) = t.positions[f];
        let joins_run = at[..usize::from(n)].iter().any(|&q| {
            let q = usize::from(q);
            runs.iter().any(|&(rs, lo, hi, held)| {
                rs == s && held >> q & 1 == 0 && reaches(t, counts, tokens, (s, q), (lo, hi, held))
            })
        });
        if !joins_run {
            stuck.push((s, r));
        }
    }
    Some(stuck)
}

/// Whether a card at position `q` of suit `s`'s line can be in one run
/// with an original run spanning `lo..=hi` (its naturals at `held`): the
/// run stays within the longest run, and its positions between that hold
/// neither the card nor the original's naturals have a free card of their
/// face or a token.
fn reaches(
    t: &Tables,
    counts: &[u8; FACES],
    tokens: usize,
    (s, q): (usize, usize),
    (lo, hi, held): (usize, usize, u16),
) -> bool {
    let (a, b) = (q.min(lo), q.max(hi));
    if b - a + 1 > t.max_run {
        return false;
    }
    let line = &t.line[s];
    let gaps = (a..=b)
        .filter(|&p| p != q && held >> p & 1 == 0 && counts[line[p]] == 0)
        .count();
    gaps <= tokens
}

/// The fewest suits and ranks that cover every (suit, rank) edge: the
/// largest matching of the bipartite graph (König's theorem), found by
/// augmenting paths (at most five suits).
fn cover(edges: &[(usize, usize)]) -> u64 {
    // The suit each rank is matched to.
    let mut rank_of: [Option<usize>; 13] = [None; 13];
    let mut matched = 0;
    for s in 0..5 {
        let mut seen = [false; 13];
        if augment(edges, s, &mut seen, &mut rank_of) {
            matched += 1;
        }
    }
    matched
}

/// An augmenting path from suit `s` (Kuhn's algorithm).
fn augment(
    edges: &[(usize, usize)],
    s: usize,
    seen: &mut [bool; 13],
    rank_of: &mut [Option<usize>; 13],
) -> bool {
    for &(es, r) in edges {
        if es != s || seen[r] {
            continue;
        }
        seen[r] = true;
        let free = match rank_of[r] {
            None => true,
            Some(other) => augment(edges, other, seen, rank_of),
        };
        if free {
            rank_of[r] = Some(s);
            return true;
        }
    }
    false
}

/// The copies of an original run's faces and a hand's, and the hand's
/// (for the tests of this module and of the sweep).
#[cfg(test)]
pub(super) fn run_and_hand(run: &[usize], hand: &[usize]) -> ([u8; FACES], [u8; FACES]) {
    let mut counts = [0u8; FACES];
    let mut optional = [0u8; FACES];
    for &f in run.iter().chain(hand) {
        counts[f] += 1;
    }
    for &f in hand {
        optional[f] += 1;
    }
    (counts, optional)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use romme_core::ruleset::presets;

    use super::super::sweep::tests::{problem, sweep_of};
    use super::super::{Arrange, PartitionSolver, Tables};
    use super::{cover, forced_changes, forced_changes_from, run_and_hand};

    #[test]
    fn the_cover_is_the_largest_matching() {
        // One suit covers all its cards.
        assert_eq!(cover(&[(0, 1), (0, 5), (0, 9)]), 1);
        // One rank covers all its cards.
        assert_eq!(cover(&[(0, 4), (1, 4), (2, 4)]), 1);
        // Two cards of different suits and ranks need two melds.
        assert_eq!(cover(&[(0, 1), (1, 2)]), 2);
        // Clubs 2 and 5, diamonds 5, hearts 5: clubs and the fives.
        assert_eq!(cover(&[(0, 2), (0, 5), (1, 5), (2, 5)]), 2);
        assert_eq!(cover(&[]), 0);
    }

    /// Hand cards next to an original run join it (with tokens for the
    /// positions between); cards far from every original, or a second
    /// copy at a position the run already holds, need changed melds: one
    /// per suit or rank that covers them.
    #[test]
    fn cards_that_join_no_original_are_counted_by_suits_and_ranks() {
        let rules = presets::load("raeuber").expect("preset").expect("loads");
        let t = Tables::new(&rules, None);
        let (s0, s1) = (t.suits[0], t.suits[1]);
        let run: Vec<usize> = t.line[s0][4..7].to_vec();
        let forced = |hand: &[usize], tokens: usize| {
            let (counts, optional) = run_and_hand(&run, hand);
            forced_changes(&t, &counts, &optional, tokens, std::slice::from_ref(&run))
        };
        // Next to the run, or two positions away with a token between.
        assert_eq!(forced(&[t.line[s0][7]], 0), 0);
        assert_eq!(forced(&[t.line[s0][8]], 1), 0);
        assert_eq!(forced(&[t.line[s0][8]], 0), 1);
        // A copy of a card the run holds may be in a run of the same faces
        // (compared by faces, it holds the original).
        assert_eq!(forced(&[t.line[s0][5]], 0), 0);
        // Far away in another suit: one changed meld for cards of one suit,
        // two for cards of two suits and two ranks.
        assert_eq!(forced(&[t.line[s1][10], t.line[s1][11]], 0), 1);
        assert_eq!(forced(&[t.line[s1][10], t.line[s0][11]], 0), 2);
    }

    /// From a line position on, only the stuck hand cards there or later
    /// count: two of one suit far from the original run need one changed
    /// meld up to the first of them, then one for the second, then none.
    #[test]
    fn forced_changes_from_a_position_count_the_cards_from_there_on() {
        let rules = presets::load("raeuber").expect("preset").expect("loads");
        let t = Tables::new(&rules, None);
        let (s0, s1) = (t.suits[0], t.suits[1]);
        let run: Vec<usize> = t.line[s0][4..7].to_vec();
        let hand = [t.line[s1][9], t.line[s1][11], t.line[s0][7]];
        let (counts, optional) = run_and_hand(&run, &hand);
        let from = forced_changes_from(&t, &counts, &optional, 0, std::slice::from_ref(&run));
        let all = forced_changes(&t, &counts, &optional, 0, std::slice::from_ref(&run));
        assert_eq!(all, 1);
        assert_eq!(from[0], all);
        assert_eq!(from[9], 1);
        assert_eq!(from[10], 1);
        assert_eq!(from[11], 1);
        assert_eq!(from[12], 0);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// The floor (cards that fit no meld, changed melds the rest
        /// force) never exceeds the exact optimum of the free
        /// rearrangement, under the rules of `offen` and `raeuber`.
        #[test]
        fn the_cost_floor_never_exceeds_the_optimum(seed in any::<u64>(), robbing in any::<bool>()) {
            let name = if robbing { "raeuber" } else { "offen" };
            let rules = presets::load(name).expect("preset").expect("loads");
            let solver = PartitionSolver::new(&rules, None).expect("solver");
            let t = &solver.tables;
            let (counts, optional, tokens, originals) = problem(t, seed);
            let mut sweep = sweep_of(t, (counts, optional, tokens), &originals, 2_000_000);
            let found = sweep.solve(u64::MAX / 4);
            prop_assume!(!sweep.stopped && sweep.exact && found.is_some());
            let arrange = Arrange {
                optional,
                unit: 1000,
                originals: originals.clone(),
                node_limit: 0,
                deadline: None,
                stopped: false,
                incumbent: u64::MAX,
                pieces: None,
            };
            let floor = solver.cost_floor(counts, tokens, &arrange);
            prop_assert!(floor <= sweep.optimum, "seed {}: floor {} optimum {}", seed, floor, sweep.optimum);
        }
    }
}
