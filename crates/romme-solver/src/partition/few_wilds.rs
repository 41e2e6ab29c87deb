//! The fast path of [`PartitionSolver::solve`] and
//! [`PartitionSolver::deadwood`] for hands with no or one wild token (most
//! hands: a 13-card hand from the 110-card deck holds no joker half of the
//! time and one a third of the time).
//!
//! Sets are chosen rank by rank (few ranks of a hand have enough cards for
//! one); then every suit's best runs are read from the per-suit table
//! ([`super::suit_runs`]), with the token in one of the suit's runs, in a
//! set, or unmatched. The best of all those choices is the optimum: every
//! partition is some choice of sets plus, per suit, runs and unmatched
//! cards, and the table holds each suit's best. Ties (equal deadwood and
//! cards melded) go to the first choice in a fixed order — no set before
//! a set, the lower ranks' choices first, the token in a run (the first
//! suit among equal gains) before unmatched, and within a suit the longer
//! run ([`super::suit_runs`]) —, so the answer is deterministic; it may
//! differ from the search's among equal optima.
//!
//! Not used (the search answers) with round wilds, more than one wild
//! token, an opening goal or a rearrangement.

use std::sync::Arc;

use romme_core::card::CardKind;
use smallvec::SmallVec;

use super::set_choices::{MAX_SUITS, RankChoice, SetChoices, SetShape};
use super::suit_runs::{MAX_DIGITS, RunShape, Step, SuitRuns, decode, value};
use super::{Best, FACES, Faces, PartitionSolver, Shape, Shapes, Tables, Wilds};

/// Where a suit-runs table applies: the table and how ranks map to its digits.
#[derive(Debug, Clone)]
pub(super) struct FewWilds {
    runs: Arc<SuitRuns>,
    sets: Arc<SetChoices>,
    /// Rank index (0 = two … 12 = ace) of each digit.
    rank_of_digit: [u8; MAX_DIGITS],
    digits: usize,
    /// Per face: its place value in its suit's count code (0: not in the
    /// deck), and its suit's slot in `Tables::suits`.
    place: [u32; FACES],
    slot: [u8; FACES],
    /// Per face: its digit.
    digit: [u8; FACES],
}

impl FewWilds {
    /// The fast path for these tables, or `None` where it does not apply:
    /// round wilds, fewer than two cards in a meld, more than five suits,
    /// or suits with different lines or penalties.
    pub(super) fn new(t: &Tables) -> Option<FewWilds> {
        if t.wild_rank.is_some() || t.min_len < 2 || t.suits.len() > 5 {
            return None;
        }
        let first = *t.suits.first()?;
        // Digits: the deck's ranks present in the first suit, lowest first.
        let mut rank_of_digit = [0u8; MAX_DIGITS];
        let mut digit_of_rank = [u8::MAX; 13];
        let mut digits = 0;
        for (r, slot) in digit_of_rank.iter_mut().enumerate() {
            if t.in_deck[first * 13 + r] {
                rank_of_digit[digits] = r as u8;
                *slot = digits as u8;
                digits += 1;
            }
        }
        for &s in &t.suits {
            for r in 0..13 {
                let (a, b) = (first * 13 + r, s * 13 + r);
                if t.in_deck[a] != t.in_deck[b] || t.penalty[a] != t.penalty[b] {
                    return None;
                }
            }
            let same_line = t.line[s].len() == t.line[first].len()
                && t.line[s]
                    .iter()
                    .zip(&t.line[first])
                    .all(|(&a, &b)| a % 13 == b % 13);
            if !same_line {
                return None;
            }
        }
        let line: Option<Vec<u8>> = t.line[first]
            .iter()
            .map(|&f| digit_of_rank.get(f % 13).copied().filter(|&d| d != u8::MAX))
            .collect();
        let penalty = (0..digits)
            .map(|d| t.penalty[first * 13 + usize::from(rank_of_digit[d])])
            .collect();
        let token_lens = (1..32usize)
            .filter(|&len| t.share_ok(len - 1, 1))
            .fold(0u32, |m, len| m | 1 << len);
        let shape = RunShape {
            line: line?,
            digits,
            cyclic: t.cyclic,
            min_len: t.min_len,
            max_len: t.max_run,
            penalty,
            token_lens,
            token_at_ends: t.at_ends,
        };
        let runs = SuitRuns::shared(shape);
        let mut place = [0u32; FACES];
        let mut slot = [0u8; FACES];
        let mut digit = [0u8; FACES];
        for (k, &s) in t.suits.iter().enumerate() {
            for r in 0..13 {
                if let Some(&d) = digit_of_rank.get(r).filter(|&&d| d != u8::MAX) {
                    place[s * 13 + r] = runs.place(usize::from(d));
                    slot[s * 13 + r] = k as u8;
                    digit[s * 13 + r] = d;
                }
            }
        }
        let mut share = [[false; 2]; 2 * MAX_SUITS + 1];
        for (n, ok) in share.iter_mut().enumerate() {
            *ok = [t.share_ok(n, 0), t.share_ok(n, 1)];
        }
        let sets = SetChoices::shared(SetShape {
            suits: t.suits.len(),
            distinct: t.distinct_sets,
            min_len: t.min_len,
            max_len: t.max_set,
            share,
        });
        Some(FewWilds {
            runs,
            sets,
            rank_of_digit,
            digits,
            place,
            slot,
            digit,
        })
    }

    /// Fill the whole suit table (benchmarks).
    pub(super) fn fill(&self) {
        self.runs.fill();
    }
}

/// The best choice found so far.
struct Chosen {
    key: u64,
    /// Per rank with choices (in order): which one (0: no set).
    picks: [u8; 13],
    /// Where the token went: `None` unmatched or in a set (see the picks),
    /// `Some(s)` in a run of suit `s`.
    token_suit: Option<usize>,
}

/// Ordering key of an arrangement: less deadwood, then more cards melded.
fn key(deadwood: u32, melded: u32) -> u64 {
    u64::from(deadwood) << 16 | u64::from(0xFFFF - melded.min(0xFFFF))
}

/// Each rank's set choices (only ranks with some): its digit, its rank
/// index and the choices.
type Ranks<'c> = SmallVec<[(usize, usize, &'c [RankChoice]); 6]>;

impl PartitionSolver<'_> {
    /// The optimum's deadwood and cards melded for a hand with at most one
    /// wild token (`wilds` as split from `hand`); `None` when
    /// the fast path does not apply.
    pub(super) fn few_wilds_value(&self, hand: &[CardKind], wilds: &Wilds) -> Option<(u32, usize)> {
        self.few_wilds_choice(hand, wilds, |chosen, _, _, _| {
            let k = chosen.key;
            ((k >> 16) as u32, (0xFFFF - (k & 0xFFFF)) as usize)
        })
    }

    /// The best partition of a hand with at most one wild token, as the
    /// search's compact best; `None` when the fast path does not apply.
    pub(super) fn few_wilds(&self, hand: &[CardKind], wilds: &Wilds) -> Option<Best> {
        let t = &self.tables;
        let fw = t.few_wilds.as_ref()?;
        let runs = &fw.runs;
        self.few_wilds_choice(hand, wilds, |chosen, ranks, mut codes, mut digits| {
            // The melds of the best choice.
            let mut shapes = Shapes::new();
            for (&(d, r, choices), &pick) in ranks.iter().zip(&chosen.picks) {
                let Some(c) = usize::from(pick)
                    .checked_sub(1)
                    .and_then(|i| choices.get(i))
                else {
                    continue;
                };
                for k in 0..t.suits.len() {
                    codes[k] -= u32::from(c.taken[k]) * runs.place(d);
                    digits[k][d] -= c.taken[k];
                }
                for &(v, tokens) in &c.sets {
                    let mut per_suit = [0u8; 5];
                    for (k, &s) in t.suits.iter().enumerate() {
                        per_suit[s] = v[k];
                    }
                    shapes.push(Shape::Set {
                        rank: r as u8,
                        per_suit,
                        tokens,
                    });
                }
            }
            let mut dead = Faces::new();
            let mut deadwood = 0;
            for (k, &s) in t.suits.iter().enumerate() {
                if codes[k] == 0 {
                    continue;
                }
                let token = chosen.token_suit == Some(k);
                runs.arrangement(codes[k], digits[k], token, |step| match step {
                    Step::Dead(x) => {
                        let f = s * 13 + usize::from(fw.rank_of_digit[usize::from(x)]);
                        dead.push(f as u8);
                        deadwood += t.penalty[f];
                    }
                    Step::Run { lo, len, token } => shapes.push(Shape::Run {
                        suit: s as u8,
                        lo,
                        len,
                        wild: token.map_or(0, |i| 1 << i),
                    }),
                });
            }
            let token_melded = shapes.iter().any(|s| match *s {
                Shape::Set { tokens, .. } => tokens > 0,
                Shape::Run { wild, .. } => wild != 0,
            });
            if !token_melded {
                deadwood += wilds.first().map_or(0, |w| w.0);
            }
            let melded = shapes.iter().map(super::shape_len).sum();
            debug_assert_eq!(key(deadwood, melded as u32), chosen.key);
            Best {
                deadwood,
                melded,
                shapes,
                dead,
                absorbed: 0,
                wild_melded: 0,
                points: 0,
            }
        })
    }

    /// The best choice of sets and of the token's place, handed to `finish`
    /// with the ranks' choices, the suits' codes it was chosen from and
    /// each suit's cards by digit.
    fn few_wilds_choice<R>(
        &self,
        hand: &[CardKind],
        wilds: &Wilds,
        finish: impl FnOnce(&Chosen, &Ranks, [u32; 5], [[u8; MAX_DIGITS]; 5]) -> R,
    ) -> Option<R> {
        let t = &self.tables;
        let fw = t.few_wilds.as_ref()?;
        if wilds.len() > 1 {
            return None;
        }
        let has_token = !wilds.is_empty();
        let runs = &fw.runs;
        // Every suit's count code; each rank's cards and count code over
        // the suit slots.
        let mut codes = [0u32; 5];
        let mut digits = [[0u8; MAX_DIGITS]; 5];
        let mut per_rank = [0u8; 13];
        let mut rank_code = [0u16; 13];
        for &c in hand {
            if let Some(f) = c.face() {
                let i = f.index();
                let k = usize::from(fw.slot[i]);
                codes[k] += fw.place[i];
                digits[k][usize::from(fw.digit[i])] += 1;
                let r = f.rank.index();
                per_rank[r] += 1;
                rank_code[r] += [1, 3, 9, 27, 81][k];
            }
        }
        // The set choices of the ranks with enough cards for a set.
        let mut ranks = Ranks::new();
        for d in 0..fw.digits {
            let r = usize::from(fw.rank_of_digit[d]);
            if usize::from(per_rank[r]) + usize::from(has_token) < t.min_len {
                continue;
            }
            let choices = fw.sets.of(usize::from(rank_code[r]), has_token);
            if !choices.is_empty() {
                ranks.push((d, r, choices));
            }
        }
        let suits = t.suits.len();
        let mut best: Option<Chosen> = None;
        let mut picks = [0u8; 13];
        // Depth-first over the ranks' choices; each leaf reads the suits.
        let memo = runs.memo();
        let token_penalty = wilds.first().map_or(0, |w| w.0);
        let mut leaf = |codes: &[u32; 5], token_free: bool, melded: u32, picks: &[u8; 13]| {
            let mut dead = 0u32;
            let mut meld = melded;
            let free = has_token && token_free;
            // The suit whose runs gain most from the token: the least
            // difference of entry values (deadwood first, then cards
            // melded; the first suit among equals).
            let mut gain: Option<(i32, usize, u32, u32)> = None;
            for (k, &code) in codes.iter().enumerate().take(suits) {
                let (e0, e1) = runs.pair(memo, code, free);
                let (d0, m0) = decode(e0);
                dead += d0;
                meld += m0;
                if let Some(e1) = e1 {
                    let diff = value(e1) as i32 - value(e0) as i32;
                    if gain.is_none_or(|g| diff < g.0) {
                        let (d1, m1) = decode(e1);
                        gain = Some((diff, k, d1.wrapping_sub(d0), m1.wrapping_sub(m0)));
                    }
                }
            }
            let mut found = |k: u64, token_suit: Option<usize>| {
                if best.as_ref().is_none_or(|b| k < b.key) {
                    best = Some(Chosen {
                        key: k,
                        picks: *picks,
                        token_suit,
                    });
                }
            };
            if !free {
                found(key(dead, meld), None);
                return;
            }
            if let Some((_, k, dd, dm)) = gain {
                // The suit's runs with the token count it among their cards.
                found(key(dead.wrapping_add(dd), meld.wrapping_add(dm)), Some(k));
            }
            found(key(dead + token_penalty, meld), None);
        };
        walk(
            &ranks, 0, &mut codes, true, 0, &mut picks, &t.suits, runs, &mut leaf,
        );
        Some(finish(&best?, &ranks, codes, digits))
    }
}

/// Depth first over the ranks' set choices (first: no set), the suits'
/// codes kept up to date, and the leaf called at the end.
#[allow(clippy::too_many_arguments)]
fn walk(
    ranks: &[(usize, usize, &[RankChoice])],
    i: usize,
    codes: &mut [u32; 5],
    token_free: bool,
    melded: u32,
    picks: &mut [u8; 13],
    suits: &[usize],
    runs: &SuitRuns,
    leaf: &mut impl FnMut(&[u32; 5], bool, u32, &[u8; 13]),
) {
    let Some(&(d, _, choices)) = ranks.get(i) else {
        leaf(codes, token_free, melded, picks);
        return;
    };
    picks[i] = 0;
    walk(
        ranks,
        i + 1,
        codes,
        token_free,
        melded,
        picks,
        suits,
        runs,
        leaf,
    );
    let place = runs.place(d);
    for (n, c) in choices.iter().enumerate() {
        if c.token && !token_free {
            continue;
        }
        for (code, &n) in codes.iter_mut().zip(&c.taken).take(suits.len()) {
            *code -= u32::from(n) * place;
        }
        let cards = c.cards;
        picks[i] = n as u8 + 1;
        walk(
            ranks,
            i + 1,
            codes,
            token_free && !c.token,
            melded + cards,
            picks,
            suits,
            runs,
            leaf,
        );
        for (code, &n) in codes.iter_mut().zip(&c.taken).take(suits.len()) {
            *code += u32::from(n) * place;
        }
    }
}

#[cfg(test)]
mod tests {
    use romme_core::card::CardKind;
    use romme_core::meld::MeldChecker;
    use romme_core::penalty::card_points;
    use romme_core::ruleset::presets;

    use super::super::PartitionSolver;

    /// Hands of every size with no or one joker: dealt as they come, and
    /// crowded into two suits and a few ranks (long runs, duplicates, sets
    /// of two decks), so that every kind of choice is met.
    fn hands(rules: &romme_core::ruleset::Ruleset, seeds: u64) -> Vec<Vec<CardKind>> {
        let mut out = Vec::new();
        for seed in 0..seeds {
            let deck = rules.deck.shuffled(seed);
            let size = 3 + (seed % 13) as usize;
            let crowded = seed % 3 != 0;
            let want_joker = seed % 2 == 0;
            let suits = [seed % 4, (seed / 4) % 4];
            let lo = (seed / 16) % 8;
            let mut hand = Vec::new();
            let mut jokers = 0;
            for c in deck {
                let k = c.kind();
                match k.face() {
                    None => {
                        if want_joker && jokers == 0 {
                            jokers += 1;
                            hand.push(k);
                        }
                    }
                    Some(f) => {
                        let r = f.rank.index() as u64;
                        let s = f.suit.index() as u64;
                        if crowded && (!suits.contains(&s) && r % 3 != 0 || r < lo || r > lo + 6) {
                            continue;
                        }
                        hand.push(k);
                    }
                }
                if hand.len() == size {
                    break;
                }
            }
            out.push(hand);
        }
        out
    }

    /// The fast path's optimum is the search's on random hands of every
    /// preset it applies to, and its partition is valid: every meld checks,
    /// the cards are the hand's, the deadwood is the unmatched cards'.
    #[test]
    fn the_fast_path_finds_the_search_optimum() {
        let mut compared = 0;
        for name in presets::NAMES {
            let Some(Ok(rules)) = presets::load(name) else {
                panic!("preset {name}");
            };
            if rules.melds.wilds.round_wild {
                let solver = PartitionSolver::new(&rules, Some(3)).expect("solver");
                assert!(solver.tables.few_wilds.is_none(), "{name}: round wilds");
                continue;
            }
            let solver = PartitionSolver::new(&rules, None).expect("solver");
            assert!(solver.tables.few_wilds.is_some(), "{name}");
            let checker = MeldChecker::new(&rules, None).expect("checker");
            for hand in hands(&rules, 3000) {
                let (counts, wilds) = solver.split(&hand).expect("split");
                let searched = solver.search(counts, &wilds, None, None, |s| {
                    s.best.as_ref().map_or((0, 0), |b| (b.deadwood, b.melded))
                });
                let fast = solver.few_wilds_value(&hand, &wilds);
                let text = romme_core::notation::format_cards(&hand);
                assert_eq!(fast, Some(searched), "{name}: {text}");
                let p = solver.solve(&hand).expect("solves");
                assert_eq!((p.deadwood, p.melded()), searched, "{name}: {text}");
                for meld in &p.melds {
                    assert!(checker.check(meld).is_ok(), "{name}: {text}: {meld:?}");
                }
                let left: u32 = p
                    .unmatched
                    .iter()
                    .map(|&c| card_points(&rules, c, None))
                    .sum();
                assert_eq!(left, p.deadwood, "{name}: {text}");
                let mut all: Vec<CardKind> = p.melds.iter().flatten().map(|c| c.card).collect();
                all.extend(&p.unmatched);
                all.sort();
                let mut want = hand.clone();
                want.sort();
                assert_eq!(all, want, "{name}: {text}");
                compared += 1;
            }
        }
        assert!(compared > 20_000, "{compared}");
    }

    /// Two jokers (or round wilds) are left to the search.
    #[test]
    fn two_wild_tokens_go_to_the_search() {
        let Some(Ok(rules)) = presets::load("klassisch") else {
            panic!("klassisch");
        };
        let solver = PartitionSolver::new(&rules, None).expect("solver");
        let hand = romme_core::notation::parse_cards("* * 5h 6h 9c").expect("cards");
        let (_, wilds) = solver.split(&hand).expect("split");
        assert!(solver.few_wilds_value(&hand, &wilds).is_none());
        let hand = romme_core::notation::parse_cards("* 5h 6h 9c").expect("cards");
        let (_, wilds) = solver.split(&hand).expect("split");
        // 5h 6h * is the meld (the one joker cannot also reach the 9c).
        assert_eq!(solver.few_wilds_value(&hand, &wilds), Some((9, 3)));
    }
}
