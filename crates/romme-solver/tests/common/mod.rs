//! Helpers shared by the solver's integration tests.
#![allow(dead_code)]

use std::collections::HashMap;

use romme_core::meld::MeldChecker;
use romme_core::notation::{format_cards, parse_cards};
use romme_core::penalty::hand_points;
use romme_core::ruleset::{Ruleset, presets};
use romme_core::{CardKind, Deck, MeldCard};
use romme_solver::{Limits, Rearrangement, rearrange};

/// A shipped preset, loaded.
pub fn preset(name: &str) -> Ruleset {
    presets::load(name).expect("exists").expect("loads")
}

/// Cards in notation.
pub fn cards(s: &str) -> Vec<CardKind> {
    parse_cards(s).expect(s)
}

/// Table melds in notation, declarations included (`*=6h`).
pub fn table(melds: &[&str]) -> Vec<Vec<MeldCard>> {
    melds
        .iter()
        .map(|m| m.split_whitespace().map(|c| c.parse().expect(c)).collect())
        .collect()
}

/// A multiset as a sorted vector.
pub fn sorted(mut v: Vec<CardKind>) -> Vec<CardKind> {
    v.sort();
    v
}

/// Every new meld validates, the table's cards are all still there, and
/// placed + kept = the hand (with freed jokers).
pub fn assert_valid(rules: &Ruleset, t: &[Vec<MeldCard>], hand: &[CardKind], r: &Rearrangement) {
    let checker = MeldChecker::new(rules, None).expect("checker");
    for m in &r.table {
        checker
            .check(m)
            .unwrap_or_else(|e| panic!("meld {} invalid: {e}", format_cards(m)));
    }
    let mut new_table: Vec<CardKind> = r.table.iter().flatten().map(|c| c.card).collect();
    let mut old: Vec<CardKind> = t.iter().flatten().map(|c| c.card).collect();
    old.extend(r.placed.iter().copied());
    // Exchanged jokers left the table for the hand.
    for j in &r.freed {
        let i = old
            .iter()
            .position(|c| c == j)
            .expect("freed joker was on the table");
        old.swap_remove(i);
    }
    new_table.sort();
    old.sort();
    assert_eq!(new_table, old, "table cards lost or invented");
    let mut both: Vec<CardKind> = r.placed.clone();
    both.extend(r.hand.iter().copied());
    let mut want = hand.to_vec();
    want.extend(r.freed.iter().copied());
    // The exchanged naturals are among the placed cards; freed jokers joined the hand.
    assert_eq!(sorted(both), sorted(want), "hand cards lost or invented");
    assert_eq!(r.placed_value, hand_points(rules, &r.placed, None));
}

/// Brute force: all cards of the table and the hand; the table's must all be
/// in melds. Fewest hand cards left, then the least penalty left. With
/// `robbing` (Räuber), a meld without a hand card must come from a single
/// original meld (what is left of it).
pub fn reference(
    rules: &Ruleset,
    t: &[Vec<MeldCard>],
    hand: &[CardKind],
    robbing: bool,
) -> (usize, u32) {
    let checker = MeldChecker::new(rules, None).expect("checker");
    // (card, origin meld and the card as it lies there; None for a hand card)
    let mut all: Vec<(CardKind, Option<(usize, MeldCard)>)> = t
        .iter()
        .enumerate()
        .flat_map(|(m, meld)| meld.iter().map(move |c| (c.card, Some((m, *c)))))
        .collect();
    all.extend(hand.iter().map(|&c| (c, None)));
    let n = all.len();
    let mut memo: HashMap<u32, Option<(usize, u32)>> = HashMap::new();
    let mut valid: HashMap<Vec<CardKind>, bool> = HashMap::new();
    fn go(
        mask: u32,
        all: &[(CardKind, Option<(usize, MeldCard)>)],
        robbing: bool,
        rules: &Ruleset,
        checker: &MeldChecker,
        memo: &mut HashMap<u32, Option<(usize, u32)>>,
        valid: &mut HashMap<Vec<CardKind>, bool>,
    ) -> Option<(usize, u32)> {
        if mask == 0 {
            return Some((0, 0));
        }
        if let Some(r) = memo.get(&mask) {
            return *r;
        }
        let i = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << i);
        let mut best: Option<(usize, u32)> = None;
        let mut consider = |cand: Option<(usize, u32)>| {
            if let Some(c) = cand {
                if best.is_none_or(|b| c < b) {
                    best = Some(c);
                }
            }
        };
        if all[i].1.is_none() {
            let left = go(rest, all, robbing, rules, checker, memo, valid)
                .map(|(k, v)| (k + 1, v + hand_points(rules, &[all[i].0], None)));
            consider(left);
        }
        let mut sub = rest;
        loop {
            let meld = sub | (1 << i);
            let members = (0..all.len()).filter(|k| meld >> k & 1 == 1);
            let origins: Vec<Option<(usize, MeldCard)>> = members.map(|k| all[k].1).collect();
            let own_card = origins.iter().any(Option::is_none);
            let same_meld = origins
                .iter()
                .all(|o| o.map(|x| x.0) == origins[0].map(|x| x.0));
            // What remains of one meld keeps its jokers' declarations.
            let kept_as_declared = || {
                let lying: Vec<MeldCard> = origins.iter().flatten().map(|x| x.1).collect();
                checker.check(&lying).is_ok()
            };
            let allowed = !robbing || own_card || (same_meld && kept_as_declared());
            if meld.count_ones() >= 3 && allowed {
                let mut ks: Vec<CardKind> = (0..all.len())
                    .filter(|k| meld >> k & 1 == 1)
                    .map(|k| all[k].0)
                    .collect();
                ks.sort();
                let ok = *valid
                    .entry(ks.clone())
                    .or_insert_with(|| checker.is_valid(&ks).expect("deck"));
                if ok {
                    consider(go(mask & !meld, all, robbing, rules, checker, memo, valid));
                }
            }
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & rest;
        }
        memo.insert(mask, best);
        best
    }
    go(
        (1u32 << n) - 1,
        &all,
        robbing,
        rules,
        &checker,
        &mut memo,
        &mut valid,
    )
    .expect("the table itself is valid")
}

/// A random small position: two or three natural melds dealt from a shuffled
/// deck, and a hand of 2–4 cards near them.
pub fn position(seed: u64, melds: usize, hand_size: usize) -> (Vec<Vec<MeldCard>>, Vec<CardKind>) {
    position_sized(seed, melds, hand_size, 3)
}

/// Like [`position`], with melds of 3 to `longest` cards (sets at most 4).
pub fn position_sized(
    seed: u64,
    melds: usize,
    hand_size: usize,
    longest: usize,
) -> (Vec<Vec<MeldCard>>, Vec<CardKind>) {
    let deck = Deck {
        kind: romme_core::DeckKind::French,
        jokers: 6,
    };
    let shuffled: Vec<CardKind> = deck.shuffled(seed).into_iter().map(|c| c.kind()).collect();
    let mut used: Vec<CardKind> = Vec::new();
    let mut t = Vec::new();
    for (k, c) in shuffled.iter().enumerate() {
        if t.len() == melds {
            break;
        }
        let CardKind::Natural(f) = c else { continue };
        // A run upward from f, or a set of f's rank.
        let len = 3 + (k / 2) % (longest - 2);
        let run: Option<Vec<CardKind>> = (0..len as u8)
            .map(|i| {
                romme_core::Rank::from_number(f.rank.number() + i)
                    .map(|r| CardKind::Natural(romme_core::Face::new(r, f.suit)))
            })
            .collect();
        let set: Vec<CardKind> = romme_core::Suit::FRENCH
            .iter()
            .filter(|s| **s != f.suit)
            .take(len.min(4) - 1)
            .map(|s| CardKind::Natural(romme_core::Face::new(f.rank, *s)))
            .chain(std::iter::once(*c))
            .collect();
        let meld = if k % 2 == 0 { run.unwrap_or(set) } else { set };
        let mut trial = used.clone();
        trial.extend(meld.iter().copied());
        let fine = trial
            .iter()
            .all(|x| trial.iter().filter(|y| *y == x).count() <= 2);
        if fine {
            used = trial;
            t.push(meld.iter().map(|&c| MeldCard::plain(c)).collect());
        }
    }
    // The hand: cards of the same ranks/suits as the table, plus a joker sometimes.
    let near: Vec<CardKind> = shuffled
        .iter()
        .copied()
        .filter(|c| match c {
            CardKind::Joker => seed % 3 == 0,
            CardKind::Natural(f) => used.iter().any(|u| {
                u.face().is_some_and(|g| {
                    g.rank == f.rank
                        || (g.suit == f.suit && g.rank.number().abs_diff(f.rank.number()) <= 2)
                })
            }),
        })
        .collect();
    let mut hand = Vec::new();
    for c in near {
        if hand.len() == hand_size {
            break;
        }
        let total =
            used.iter().filter(|u| **u == c).count() + hand.iter().filter(|h| **h == c).count();
        let copies = if c.is_joker() { 6 } else { 2 };
        if total < copies {
            hand.push(c);
        }
    }
    (t, hand)
}

/// Rearrange under default limits and check the answer against
/// [`reference`]: valid, proven optimal, and the same cards and points left.
/// Returns the reference's (cards, points) left.
pub fn matches_reference(
    rules: &Ruleset,
    t: &[Vec<MeldCard>],
    hand: &[CardKind],
    robbing: bool,
) -> (usize, u32) {
    let r = rearrange(rules, None, t, hand, Limits::default()).expect("solves");
    assert_valid(rules, t, hand, &r);
    assert!(r.optimal, "not proven optimal");
    let want = reference(rules, t, hand, robbing);
    assert_eq!(
        (r.hand.len(), hand_points(rules, &r.hand, None)),
        want,
        "table {:?} hand {}",
        t.iter().map(|m| format_cards(m)).collect::<Vec<_>>(),
        format_cards(hand)
    );
    want
}
