//! Any table of valid melds and any hand, under free rearrangement (`offen`)
//! or Räuber robbing (`raeuber`) with house-rule variations (where the ace
//! may stand, mixed sets, joker exchange): the rearrangement solver never
//! panics, and its answer is valid and canonical — every meld of the new
//! table checks, no card is invented or dropped, the placed cards and their
//! value are what left the hand, and asking again gives the same answer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use romme_core::meld::MeldChecker;
use romme_core::penalty::card_points;
use romme_core::ruleset::{JokerExchange, Limit, SetSuits, presets};
use romme_core::{Card, CardKind, Face, MeldCard, Rank, Suit};
use romme_solver::{Limits, PartitionSolver, rearrange_with};

/// The rank at position `p` of the line A, 2, …, K, A (wrapping).
fn rank_at(p: u8) -> Rank {
    match p % 14 {
        0 | 13 => Rank::Ace,
        n => Rank::from_number(n + 1).unwrap_or(Rank::Ace),
    }
}

/// One meld from four bytes: kind and suit, start, length, joker places.
fn meld(b: &[u8]) -> Vec<MeldCard> {
    let [head, start, extra, jokers] = [b[0], b[1], b[2], b[3]];
    let len = 3 + usize::from(extra % 6);
    let faces: Vec<Face> = if head & 1 == 0 {
        let suit = Suit::FRENCH[usize::from(head >> 1) % 4];
        (0..len as u8)
            .map(|i| Face::new(rank_at(start % 14 + i), suit))
            .collect()
    } else {
        let rank = rank_at(start % 13 + 1);
        // Suits from the high bits of the head, the start and the length.
        let picks = [head >> 1, head >> 3, head >> 5, start >> 4, extra >> 4, start >> 6];
        picks
            .iter()
            .take(len.min(6))
            .map(|s| Face::new(rank, Suit::FRENCH[usize::from(*s) % 4]))
            .collect()
    };
    faces
        .into_iter()
        .enumerate()
        .map(|(i, f)| {
            if jokers >> (i % 8) & 1 == 1 && jokers & 0x80 != 0 {
                MeldCard {
                    card: CardKind::Joker,
                    stands_for: Some(f),
                }
            } else {
                MeldCard {
                    card: CardKind::Natural(f),
                    stands_for: None,
                }
            }
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let name = if head & 1 == 0 { "offen" } else { "raeuber" };
    let Some(Ok(mut rules)) = presets::load(name) else {
        return;
    };
    // House rules: where the ace stands, mixed sets, no joker exchange.
    let runs = &mut rules.melds.runs;
    (runs.ace_low, runs.ace_high, runs.wrap_around) = match head >> 1 & 3 {
        0 => (true, false, false),
        1 => (false, true, false),
        2 => (true, true, false),
        _ => (true, true, true),
    };
    if head & 8 != 0 {
        rules.melds.sets.suits = SetSuits::Any;
        rules.melds.sets.max_len = Limit::None;
    }
    if head & 16 != 0 {
        rules.jokers.exchange = JokerExchange::Never;
    }
    if rules.validate().is_err() {
        return;
    }
    let Ok(checker) = MeldChecker::new(&rules, None) else {
        return;
    };
    let Some((&count, rest)) = rest.split_first() else {
        return;
    };
    let count = usize::from(count % 16);
    let (melds, hand_bytes) = rest.split_at((count * 4).min(rest.len()));
    let table: Vec<Vec<MeldCard>> = melds
        .chunks_exact(4)
        .map(meld)
        .filter(|m| checker.check(m).is_ok())
        .collect();
    let hand: Vec<CardKind> = hand_bytes
        .iter()
        .take(14)
        .map(|&b| Card::from_id(b).kind())
        .collect();
    let Ok(solver) = PartitionSolver::new(&rules, None) else {
        return;
    };
    let limits = Limits {
        nodes: 40_000,
        time: None,
    };
    let Ok(r) = rearrange_with(&solver, &table, &hand, limits) else {
        return; // too many copies of a card, an unsupported table: a clear error
    };
    for m in &r.table {
        assert!(checker.check(m).is_ok(), "invalid meld {m:?}");
    }
    // No card invented or dropped: table and hand hold what they held.
    let mut before: Vec<CardKind> = table.iter().flatten().map(|c| c.card).collect();
    before.extend_from_slice(&hand);
    before.sort();
    let mut after: Vec<CardKind> = r.table.iter().flatten().map(|c| c.card).collect();
    after.extend_from_slice(&r.hand);
    after.sort();
    assert_eq!(before, after, "cards invented or dropped");
    // What left the hand is what was placed (freed jokers came back to it).
    let mut left = hand.clone();
    for c in &r.placed {
        let i = left.iter().position(|k| k == c).expect("placed a card not in the hand");
        left.swap_remove(i);
    }
    left.extend_from_slice(&r.freed);
    left.sort();
    let mut kept = r.hand.clone();
    kept.sort();
    assert_eq!(left, kept, "the hand is not what the placed cards left");
    let value: u32 = r.placed.iter().map(|&c| card_points(&rules, c, None)).sum();
    assert_eq!(value, r.placed_value);
    assert!(r.changed <= r.table.len());
    // Canonical: the same question gives the same answer.
    let again = rearrange_with(&solver, &table, &hand, limits).expect("answered once");
    assert_eq!(r, again, "not canonical");
});
