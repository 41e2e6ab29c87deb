//! Räuber robbing (`raeuber`, `002`/`003`): the text's worked example,
//! what robbing may and may not do compared with free rearrangement, and the
//! optimum against a brute-force reference on small positions.

mod common;

use common::*;

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use romme_core::notation::format_cards;
use romme_core::penalty::hand_points;
use romme_core::{CardKind, Face, MeldCard, Rank, Suit};
use romme_solver::{Limits, rearrange};

#[test]
fn a_robbed_set_of_four_makes_two_new_sets_of_three_003() {
    // 003: "Einen Vierersatz kann man beispielsweise rauben und mit zwei
    // gleichrangigen Karten aus der Hand zu zwei neuen Dreier-Sätzen verbinden."
    let r = preset("raeuber");
    let t = table(&["7h 7s 7c 7d"]);
    let hand = cards("7h 7s Kd");
    let out = rearrange(&r, None, &t, &hand, Limits::default()).expect("ok");
    assert_valid(&r, &t, &hand, &out);
    assert!(out.optimal);
    assert_eq!(sorted(out.placed.clone()), cards("7h 7s"));
    assert_eq!(out.hand, cards("Kd"));
    assert_eq!(out.table.len(), 2);
    assert!(out.table.iter().all(|m| m.len() == 3));
}

#[test]
fn a_single_card_may_be_robbed_when_three_remain() {
    let r = preset("raeuber");
    let t = table(&["5h 6h 7h 8h"]);
    let hand = cards("5s 5c");
    let out = rearrange(&r, None, &t, &hand, Limits::default()).expect("ok");
    assert_valid(&r, &t, &hand, &out);
    assert_eq!(sorted(out.placed.clone()), cards("5c 5s"));
    assert_eq!(out.changed, 2, "the shortened run and the new set");
}

#[test]
fn a_three_card_meld_gives_no_single_card() {
    let r = preset("raeuber");
    let t = table(&["5h 6h 7h", "8h 8s 8c 8d"]);
    let hand = cards("5s 5c");
    let out = rearrange(&r, None, &t, &hand, Limits::default()).expect("ok");
    assert_valid(&r, &t, &hand, &out);
    assert!(out.optimal);
    // Free rearrangement can move 8h to 6h 7h and use 5h: 6h 7h 8h is a new
    // meld of table cards only, which robbing does not allow.
    assert!(out.placed.is_empty(), "{out:?}");
    let free = rearrange(&preset("offen"), None, &t, &hand, Limits::default()).expect("ok");
    assert_eq!(free.placed.len(), 2);
}

#[test]
fn robbing_from_the_middle_leaves_two_valid_pieces() {
    let r = preset("raeuber");
    let t = table(&["4h 5h 6h 7h 8h 9h 10h"]);
    let hand = cards("7s 7c");
    let out = rearrange(&r, None, &t, &hand, Limits::default()).expect("ok");
    assert_valid(&r, &t, &hand, &out);
    assert_eq!(out.placed.len(), 2);
    assert_eq!(
        out.table.len(),
        3,
        "4h-6h, 8h-10h and the new set of sevens"
    );
    // With a shorter run the pieces would be too short.
    let t = table(&["5h 6h 7h 8h 9h"]);
    let out = rearrange(&r, None, &t, &hand, Limits::default()).expect("ok");
    assert!(out.placed.is_empty(), "{out:?}");
}

#[test]
fn laying_off_is_still_allowed_and_robbed_cards_may_join_it() {
    let r = preset("raeuber");
    // 9h is laid off: no change to the table.
    let t = table(&["6h 7h 8h", "Ks Kd Kc"]);
    let out = rearrange(&r, None, &t, &cards("9h"), Limits::default()).expect("ok");
    assert_eq!(out.placed, cards("9h"));
    assert_eq!(out.changed, 0);
    // 10h needs the 9h of a set of four: rob it and meld 6h-10h with 10h.
    let t = table(&["6h 7h 8h", "9h 9s 9c 9d"]);
    let out = rearrange(&r, None, &t, &cards("10h"), Limits::default()).expect("ok");
    assert_valid(&r, &t, &cards("10h"), &out);
    assert_eq!(out.placed, cards("10h"));
}

#[test]
fn robbed_jokers_may_be_declared_anew_and_remainders_keep_theirs() {
    let r = preset("raeuber");
    let t = table(&["5h 6h 7h *=8h"]);
    let hand = cards("Qs Qc");
    let out = rearrange(&r, None, &t, &hand, Limits::default()).expect("ok");
    assert_valid(&r, &t, &hand, &out);
    assert_eq!(sorted(out.placed.clone()), cards("Qc Qs"), "{out:?}");
    assert!(
        out.table.iter().any(|m| format_cards(m).contains("*=Q")),
        "the robbed joker now stands for a queen: {out:?}"
    );
    assert!(out.table.iter().any(|m| format_cards(m) == "5h 6h 7h"));
}

#[test]
fn the_answer_is_canonical() {
    let r = preset("raeuber");
    let t = table(&["2c 3c 4c 5c 6c", "9h 9s 9c 9d", "Jd Qd Kd Ad"]);
    let hand = cards("6s 6h 9h 10d * Ah Ac 3d");
    let a = rearrange(&r, None, &t, &hand, Limits::default()).expect("ok");
    assert_valid(&r, &t, &hand, &a);
    assert!(a.optimal);
    assert_eq!(
        rearrange(&r, None, &t, &hand, Limits::default()).expect("ok"),
        a
    );
}

/// A crowded small position: melds of 3–5 cards and a hand of up to four
/// cards, all from ranks 5–9 in two or three suits, so that the cards of
/// different melds could be combined in many ways (where robbing and free
/// rearrangement differ). At most 13 cards in all.
fn crowded(seed: u64) -> (Vec<Vec<MeldCard>>, Vec<CardKind>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let suits = &Suit::FRENCH[..rng.random_range(2..=3)];
    let rank = |n: u8| Rank::from_number(n).expect("rank");
    let mut copies = std::collections::HashMap::<CardKind, usize>::new();
    let take = |c: CardKind, copies: &mut std::collections::HashMap<CardKind, usize>| {
        let n = copies.entry(c).or_insert(0);
        *n += 1;
        *n <= 2
    };
    let mut t: Vec<Vec<MeldCard>> = Vec::new();
    let mut total = 0;
    // Half the time start with the pattern where the two differ: a run of
    // three next to a set of four that holds the run's next card.
    if rng.random_bool(0.5) {
        let suit = suits[0];
        let lo = rng.random_range(5..=7u8);
        let run: Vec<CardKind> = (0..3)
            .map(|i| CardKind::Natural(Face::new(rank(lo + i), suit)))
            .collect();
        let next = if rng.random_bool(0.5) { lo + 3 } else { lo - 1 };
        let set: Vec<CardKind> = Suit::FRENCH
            .iter()
            .map(|&s| CardKind::Natural(Face::new(rank(next), s)))
            .collect();
        for meld in [run, set] {
            for &c in &meld {
                take(c, &mut copies);
            }
            total += meld.len();
            t.push(meld.into_iter().map(MeldCard::plain).collect());
        }
    }
    for _ in 0..rng.random_range(0..=2) {
        let len = rng.random_range(3..=5usize);
        let meld: Vec<CardKind> = if rng.random_bool(0.5) {
            let len = if rng.random_bool(0.5) { 3 } else { len };
            let suit = suits[rng.random_range(0..suits.len())];
            let lo = rng.random_range(5..=(10 - len as u8));
            (0..len as u8)
                .map(|i| CardKind::Natural(Face::new(rank(lo + i), suit)))
                .collect()
        } else {
            let r = rank(rng.random_range(5..=9));
            Suit::FRENCH
                .iter()
                .take(if rng.random_bool(0.6) { 4 } else { 3 })
                .map(|&s| CardKind::Natural(Face::new(r, s)))
                .collect()
        };
        if total + meld.len() > 10 {
            break;
        }
        let mut trial = copies.clone();
        if meld.iter().all(|&c| take(c, &mut trial)) {
            copies = trial;
            total += meld.len();
            // Sometimes a joker lies in the meld for one of its cards.
            let joker_at = rng
                .random_bool(0.3)
                .then(|| rng.random_range(0..meld.len()));
            t.push(
                meld.into_iter()
                    .enumerate()
                    .map(|(i, c)| match (joker_at == Some(i), c.face()) {
                        (true, Some(f)) => MeldCard {
                            card: CardKind::Joker,
                            stands_for: Some(f),
                        },
                        _ => MeldCard::plain(c),
                    })
                    .collect(),
            );
        }
    }
    let mut hand = Vec::new();
    // Often two cards that would make a set with a card of a table run.
    let on_table: Vec<Face> = t.iter().flatten().filter_map(|c| c.card.face()).collect();
    if !on_table.is_empty() && rng.random_bool(0.7) {
        let f = on_table[rng.random_range(0..on_table.len())];
        for &s in Suit::FRENCH.iter().filter(|&&s| s != f.suit).take(2) {
            let c = CardKind::Natural(Face::new(f.rank, s));
            if total + hand.len() < 13 && take(c, &mut copies) {
                hand.push(c);
            }
        }
    }
    for _ in 0..rng.random_range(0..=2) {
        if total + hand.len() >= 13 {
            break;
        }
        let c = if rng.random_bool(0.1) {
            CardKind::Joker
        } else {
            let suit = suits[rng.random_range(0..suits.len())];
            CardKind::Natural(Face::new(rank(rng.random_range(4..=10)), suit))
        };
        if c.is_joker() || take(c, &mut copies) {
            hand.push(c);
        }
    }
    (t, hand)
}

#[test]
fn an_exchanged_joker_can_be_laid_off_again() {
    // Found by the crowded reference test: 9d takes the joker's place in the
    // set, and the freed joker joins the run.
    let r = preset("raeuber");
    let t = table(&["9c *=9d 9h 9s", "7c 8c 9c"]);
    let hand = cards("9d");
    let out = rearrange(&r, None, &t, &hand, Limits::default()).expect("ok");
    assert_valid(&r, &t, &hand, &out);
    assert!(out.hand.is_empty(), "{out:?}");
    let mut no_exchange = r.clone();
    no_exchange.jokers.exchange = romme_core::ruleset::JokerExchange::Never;
    let out = rearrange(&no_exchange, None, &t, &hand, Limits::default()).expect("ok");
    assert_eq!(out.hand, cards("9d"));
}

#[test]
fn a_possible_exchange_that_helps_nothing_leaves_the_table_as_it_is() {
    // 7d could take the joker's place, but the freed joker fits nowhere (it
    // would cost more in the hand than 7d does) and 7d fits no meld: the
    // table kept is the answer. (Every exchange choice's floor equals it,
    // so no search runs; the answer must still be the table kept.)
    let r = preset("raeuber");
    let t = table(&["7h 7s 7c *=7d"]);
    let hand = cards("7d Kc");
    let out = rearrange(&r, None, &t, &hand, Limits::default()).expect("ok");
    assert_valid(&r, &t, &hand, &out);
    assert!(out.optimal);
    assert!(out.placed.is_empty(), "{out:?}");
    assert_eq!(out.hand, cards("7d Kc"));
    assert_eq!(out.changed, 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(250))]

    /// On crowded positions robbing must match the reference exactly, and
    /// free rearrangement (a superset of moves) never places fewer cards.
    #[test]
    fn crowded_optimum_equals_the_reference(seed in any::<u64>()) {
        // The reference knows no joker exchange: switch it off.
        let mut rules = preset("raeuber");
        rules.jokers.exchange = romme_core::ruleset::JokerExchange::Never;
        let (t, hand) = crowded(seed);
        prop_assume!(!t.is_empty());
        let want = matches_reference(&rules, &t, &hand, true);
        let free = reference(&rules, &t, &hand, false);
        prop_assert!(free <= want);
    }
}

/// A small position with a joker on the table standing for one of its
/// cards, and (mostly) that card in the hand, so that it can be exchanged.
fn with_exchange(seed: u64, melds: usize, hand_size: usize) -> (Vec<Vec<MeldCard>>, Vec<CardKind>) {
    let (mut t, mut hand) = position_sized(seed, melds, hand_size, 4);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    if t.is_empty() {
        return (t, hand);
    }
    let m = rng.random_range(0..t.len());
    let i = rng.random_range(0..t[m].len());
    let Some(face) = t[m][i].card.face() else {
        return (t, hand);
    };
    t[m][i] = MeldCard {
        card: CardKind::Joker,
        stands_for: Some(face),
    };
    let natural = CardKind::Natural(face);
    let copies = t.iter().flatten().filter(|c| c.card == natural).count()
        + hand.iter().filter(|&&h| h == natural).count();
    if copies < 2 && rng.random_bool(0.8) {
        hand.push(natural);
    }
    (t, hand)
}

/// A deadline that has passed ends the search before any exchange choice
/// is searched: the answer is valid, not proven, the same on every run (no
/// search ran, so no clock decided it), and on some positions worse than
/// the optimum (the search was cut). Free rearrangement and robbing.
#[test]
fn a_passed_deadline_answers_at_once_with_the_best_so_far() {
    let passed = Limits {
        nodes: 3_000_000,
        time: Some(std::time::Duration::ZERO),
    };
    for name in ["offen", "raeuber"] {
        let r = preset(name);
        let mut worse = 0;
        for seed in 0..40 {
            let (t, hand) = with_exchange(seed, 4, 6);
            let Ok(a) = rearrange(&r, None, &t, &hand, passed) else {
                continue;
            };
            assert_valid(&r, &t, &hand, &a);
            assert!(!a.optimal, "{name} {seed}");
            assert_eq!(rearrange(&r, None, &t, &hand, passed).ok(), Some(a.clone()));
            let best = rearrange(&r, None, &t, &hand, Limits::default()).expect("ok");
            assert!(best.hand.len() <= a.hand.len(), "{name} {seed}");
            worse += usize::from(best.hand.len() < a.hand.len());
        }
        assert!(worse > 5, "{name}: only {worse} answers cut short");
    }
}

/// [`reference`] with joker exchanges: the best over every choice of
/// exchanges (a hand natural takes the place of a table joker standing for
/// it; the joker goes to the hand).
fn reference_with_exchanges(
    rules: &romme_core::Ruleset,
    t: &[Vec<MeldCard>],
    hand: &[CardKind],
) -> (usize, u32) {
    let jokers: Vec<(usize, usize)> = t
        .iter()
        .enumerate()
        .flat_map(|(m, meld)| {
            meld.iter()
                .enumerate()
                .filter(|(_, c)| c.card.is_joker() && c.stands_for.is_some())
                .map(move |(i, _)| (m, i))
        })
        .collect();
    let mut best = reference(rules, t, hand, true);
    for mask in 1..1u32 << jokers.len() {
        let mut t2 = t.to_vec();
        let mut h2 = hand.to_vec();
        let mut ok = true;
        for (k, &(m, i)) in jokers.iter().enumerate() {
            if mask >> k & 1 == 0 {
                continue;
            }
            let Some(face) = t2[m][i].stands_for else {
                continue;
            };
            let natural = CardKind::Natural(face);
            match h2.iter().position(|&h| h == natural) {
                Some(p) => {
                    h2.remove(p);
                    h2.push(t2[m][i].card);
                    t2[m][i] = MeldCard::plain(natural);
                }
                None => ok = false,
            }
        }
        if ok {
            best = best.min(reference(rules, &t2, &h2, true));
        }
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// With a joker on the table that a hand card could replace, robbing
    /// (with exchanges) leaves what the brute force over every choice of
    /// exchanges leaves, and never fails.
    #[test]
    fn exchange_positions_match_the_reference(seed in any::<u64>(), melds in 1usize..=3, hand_size in 1usize..=3) {
        let rules = preset("raeuber");
        let (t, hand) = with_exchange(seed, melds, hand_size);
        prop_assume!(!t.is_empty());
        prop_assume!(t.iter().flatten().count() + hand.len() <= 13);
        let r = rearrange(&rules, None, &t, &hand, Limits::default()).expect("solves");
        assert_valid(&rules, &t, &hand, &r);
        prop_assert!(r.optimal);
        let want = reference_with_exchanges(&rules, &t, &hand);
        prop_assert_eq!(
            (r.hand.len(), hand_points(&rules, &r.hand, None)),
            want,
            "table {:?} hand {}",
            t.iter().map(|m| format_cards(m)).collect::<Vec<_>>(),
            format_cards(&hand)
        );
    }

    #[test]
    fn optimum_equals_the_reference(seed in any::<u64>(), melds in 1usize..=3, hand_size in 1usize..=4) {
        let rules = preset("raeuber");
        let (t, hand) = position_sized(seed, melds, hand_size, 5);
        prop_assume!(!t.is_empty());
        prop_assume!(t.iter().flatten().count() + hand.len() <= 13);
        matches_reference(&rules, &t, &hand, true);
    }

    #[test]
    fn larger_positions_stay_valid(seed in any::<u64>(), melds in 3usize..=8, hand_size in 5usize..=14) {
        let rules = preset("raeuber");
        let (t, hand) = position(seed, melds, hand_size);
        let r = rearrange(&rules, None, &t, &hand, Limits { nodes: 200_000, time: None }).expect("solves");
        assert_valid(&rules, &t, &hand, &r);
    }
}

#[test]
fn a_run_whose_middle_joker_is_exchanged_is_laid_off_onto() {
    // 6h takes the joker's place and 8h extends the run, which stays a
    // whole original (no change); the freed joker makes a new meld with
    // 2c 3c (the one change).
    let r = preset("raeuber");
    let t = table(&["5h *=6h 7h"]);
    let hand = cards("6h 8h 2c 3c");
    let out = rearrange(&r, None, &t, &hand, Limits::default()).expect("ok");
    assert_valid(&r, &t, &hand, &out);
    assert!(out.optimal);
    assert!(out.hand.is_empty(), "{out:?}");
    assert_eq!(out.changed, 1, "{out:?}");
}

#[test]
fn a_run_exchanged_at_its_end_is_held_whole_inside_a_longer_run() {
    // Found when run exchanges were first decided inside the sweep: Kd
    // takes the joker's place at the end of 10d Jd Qd *=Kd, and the run
    // 5d ... 9d grows through it, holding it whole (5 changed melds). A
    // claim to hold the run whole ended at its last natural (Qd), before
    // the exchange at Kd, and the sweep answered 6.
    let r = preset("raeuber");
    let t = table(&[
        "Ac Ad Ah As",
        "4c 4d 4h 4s",
        "Qc Qd Qh Qs",
        "8d 9d *=10d",
        "10d Jd Qd *=Kd",
        "3d *=4d 5d 6d",
    ]);
    let hand = cards("6s 7d 3c Qc Js Kd");
    let out = rearrange(&r, None, &t, &hand, Limits::default()).expect("ok");
    assert_valid(&r, &t, &hand, &out);
    assert!(out.optimal);
    assert_eq!(out.hand, cards("6s"), "{out:?}");
    assert_eq!(out.changed, 5, "{out:?}");
}
