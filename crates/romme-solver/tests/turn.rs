//! Lay-offs, the best opening, going out and Hand-Rommé: scenarios from the
//! rule texts for each knob that matters, and openings against a brute-force
//! reference.

mod common;

use common::*;

use proptest::prelude::*;
use romme_core::meld::MeldChecker;
use romme_core::notation::format_cards;
use romme_core::penalty::hand_points;
use romme_core::ruleset::{OpeningCount, Ruleset, presets};
use romme_core::{CardKind, MeldCard};
use romme_solver::{best_opening, go_out, hand_romme, lay_offs};

#[test]
fn lay_offs_extend_runs_and_sets_and_exchange_jokers() {
    let k = preset("klassisch");
    let t = table(&["5h *=6h 7h", "Ks Kd Kc"]);
    let offs = lay_offs(&k, None, &t, &cards("8h 9h 4h Kh 6h 2c")).expect("ok");
    let show = |i: usize| -> Vec<String> {
        offs.iter()
            .filter(|l| l.meld == i)
            .map(|l| format!("{} -> {}", format_cards(&l.cards), format_cards(&l.result)))
            .collect()
    };
    let run = show(0);
    assert!(run.contains(&"8h -> 5h *=6h 7h 8h".to_string()), "{run:?}");
    assert!(
        run.contains(&"8h 9h -> 5h *=6h 7h 8h 9h".to_string()),
        "{run:?}"
    );
    assert!(
        run.contains(&"4h 8h 9h -> 4h 5h *=6h 7h 8h 9h".to_string()),
        "{run:?}"
    );
    assert!(
        run.iter().any(|s| s.starts_with("6h -> 5h 6h 7h")),
        "exchange: {run:?}"
    );
    let exchange = offs
        .iter()
        .find(|l| l.meld == 0 && l.cards == cards("6h"))
        .expect("exchange");
    assert_eq!(exchange.freed, cards("*"));
    assert_eq!(show(1), vec!["Kh -> Kc Kd Kh Ks".to_string()]);
    assert!(
        !offs
            .iter()
            .any(|l| l.cards.contains(&"2c".parse().expect("card")))
    );
    // 004 9: a joker in a set is only exchanged when the set has four cards.
    let club = preset("club");
    let t = table(&["Ks Kd *=Kc"]);
    let offs = lay_offs(&club, None, &t, &cards("Kc")).expect("ok");
    assert!(offs.iter().all(|l| !l.is_exchange()), "{offs:?}");
    let t = table(&["Ks Kd Kh *=Kc"]);
    let offs = lay_offs(&club, None, &t, &cards("Kc")).expect("ok");
    assert!(offs.iter().any(|l| l.is_exchange()));
    // 003 option: never exchange.
    let mut never = preset("klassisch");
    never.jokers.exchange = romme_core::ruleset::JokerExchange::Never;
    let offs = lay_offs(&never, None, &table(&["5h *=6h 7h"]), &cards("6h")).expect("ok");
    assert!(offs.is_empty());
}

#[test]
fn opening_thresholds_40_and_30() {
    let k = preset("klassisch");
    assert!(
        best_opening(&k, None, &[], &cards("Kh Ks Kc 2c 3c 4c 9d"))
            .expect("ok")
            .is_none(),
        "39 < 40"
    );
    let plan = best_opening(&k, None, &[], &cards("Kh Ks Kc 10h Jh Qh 9d"))
        .expect("ok")
        .expect("opens");
    assert_eq!(plan.points, 60);
    assert_eq!(plan.left, cards("9d"), "keeps the 9 to discard");
    let o = preset("offen");
    let plan = best_opening(&o, None, &[], &cards("Kh Ks Kc 5d"))
        .expect("ok")
        .expect("30 is enough in 001");
    assert_eq!(plan.points, 30);
    // There must stay a card to discard: three kings alone cannot open.
    assert!(
        best_opening(&o, None, &[], &cards("Kh Ks Kc"))
            .expect("ok")
            .is_none()
    );
}

#[test]
fn opening_counts_lay_offs_only_in_raeuber() {
    let t = table(&["Qh Kh Ah"]);
    let hand = cards("10s 10d 10c Jh 2c");
    let r = preset("raeuber");
    let plan = best_opening(&r, None, &t, &hand)
        .expect("ok")
        .expect("003 Räuber: 30 + laid-off Jh");
    assert_eq!(plan.points, 40);
    assert_eq!(plan.lay_offs.len(), 1);
    assert_eq!(plan.left, cards("2c"));
    assert!(
        best_opening(&preset("klassisch"), None, &t, &hand)
            .expect("ok")
            .is_none(),
        "003 basic: 30 < 40"
    );
    // 002 Räuber: the table's melds count too.
    let mut table_counts = r.clone();
    table_counts.opening.table_counts = true;
    table_counts.opening.lay_offs_count = false;
    let plan = best_opening(&table_counts, None, &t, &cards("2c 3c 4c 9d"))
        .expect("ok")
        .expect("9 + 31 on the table");
    assert_eq!(plan.points, 40);
}

#[test]
fn opening_by_a_single_meld() {
    let mut k = preset("klassisch");
    k.opening.count = OpeningCount::SingleMeld;
    assert!(
        best_opening(&k, None, &[], &cards("Kh Ks Kc 10c 10d 10h 2c"))
            .expect("ok")
            .is_none(),
        "30 + 30, no 40 alone"
    );
    let plan = best_opening(&k, None, &[], &cards("10h Jh Qh Kh 2c 3c 4c 9d"))
        .expect("ok")
        .expect("40 alone");
    assert_eq!(plan.points, 49, "the small meld goes down too");
}

#[test]
fn going_out_with_lay_offs_and_a_discard() {
    let k = preset("klassisch");
    let t = table(&["5h 6h 7h"]);
    let way = go_out(&k, None, &t, &cards("8h 9h Kd"), true)
        .expect("ok")
        .expect("lays off 8h 9h, discards Kd");
    assert_eq!(way.discard, Some("Kd".parse().expect("card")));
    assert_eq!(way.lay_offs.len(), 1);
    assert!(!way.hand_romme);
    assert!(
        go_out(&k, None, &t, &cards("8h Kd 2c"), true)
            .expect("ok")
            .is_none()
    );
    // 001: the last card may not be discarded; all must be laid out.
    let o = preset("offen");
    assert!(
        go_out(&o, None, &t, &cards("8h 9h Kd"), true)
            .expect("ok")
            .is_none()
    );
    assert!(
        go_out(&o, None, &t, &cards("8h 9h"), true)
            .expect("ok")
            .is_some()
    );
}

#[test]
fn joker_discard_and_exchange_rules() {
    // 004 4: jokers may not be discarded.
    let hand = cards("2c 3c 4c *");
    let way = go_out(&preset("klassisch"), None, &[], &hand, true)
        .expect("ok")
        .expect("003");
    assert!(way.discard.is_some());
    let way = go_out(&preset("club"), None, &[], &hand, true)
        .expect("ok")
        .expect("004");
    assert!(
        way.discard.is_some_and(|d| !d.is_joker()),
        "004: never the joker: {way:?}"
    );
    let mut no_joker_discard = preset("klassisch");
    no_joker_discard.jokers.discard_allowed = false;
    // Only the joker could go: 7h 7s 7c 7d is full, and a joker makes no 5-card set.
    let hand = cards("7h 7s 7c 7d *");
    let way = go_out(&preset("klassisch"), None, &[], &hand, true)
        .expect("ok")
        .expect("discard the joker or a seven");
    assert!(way.discard.is_some());
    let way = go_out(&no_joker_discard, None, &[], &hand, true)
        .expect("ok")
        .expect("discard a seven, joker replaces it");
    assert!(way.discard.is_some_and(|d| !d.is_joker()));
    // Exchange the joker and use it: 003 allows further play; 001 ends the plays.
    let t = table(&["5h *=6h 7h"]);
    let hand = cards("6h 8c 9c Kd");
    let way = go_out(&preset("klassisch"), None, &t, &hand, true)
        .expect("ok")
        .expect("exchange, meld 8c 9c *, discard Kd");
    assert!(way.lay_offs.iter().any(|l| l.is_exchange()));
    assert_eq!(way.discard, Some("Kd".parse().expect("card")));
    let mut one = preset("offen");
    one.going_out.final_discard = romme_core::ruleset::FinalDiscard::Required;
    assert!(
        go_out(&one, None, &t, &hand, true).expect("ok").is_none(),
        "001: no other card after an exchange"
    );
}

#[test]
fn romme_bieten_rest_up_to_9_002() {
    // 002: ♦3 ♦4 ♦6 ♦7 ♦9 ♦Q + ♦5: discard ♦Q, meld ♦3-♦7, keep ♦9.
    let b = preset("bieten");
    let way = go_out(&b, None, &[], &cards("3d 4d 6d 7d 9d Qd 5d"), true)
        .expect("ok")
        .expect("calls Rommé");
    assert_eq!(way.discard, Some("Qd".parse().expect("card")));
    assert_eq!(way.rest, cards("9d"));
    assert_eq!(way.rest_points, 9);
    let mut strict = b.clone();
    strict.going_out.rest_allowed = 8;
    assert!(
        go_out(&strict, None, &[], &cards("3d 4d 6d 7d 9d Qd 5d"), true)
            .expect("ok")
            .is_none()
    );
}

#[test]
fn hand_romme_waives_the_threshold_003_and_not_with_lay_offs_004() {
    let hand = cards("2c 3c 4c 5d 5h 5s 9h");
    let k = preset("klassisch");
    let way = hand_romme(&k, None, &[], &hand)
        .expect("ok")
        .expect("24 points, but a Hand-Rommé");
    assert!(way.hand_romme);
    assert_eq!(way.discard, Some("9h".parse().expect("card")));
    assert!(
        hand_romme(&preset("offen"), None, &[], &hand)
            .expect("ok")
            .is_none(),
        "001 has none"
    );
    assert!(
        go_out(&preset("offen"), None, &[], &hand, false)
            .expect("ok")
            .is_none(),
        "and 30 applies"
    );
    // 004 10: with a lay-off the 40 applies again.
    let club = preset("club");
    let t = table(&["6c 7c 8c"]);
    let with_lay_off = cards("2c 3c 4c 5d 5h 5s 9c Jh");
    assert!(
        hand_romme(&club, None, &[], &cards("2c 3c 4c 5d 5h 5s Jh"))
            .expect("ok")
            .is_some()
    );
    assert!(
        hand_romme(&club, None, &t, &with_lay_off)
            .expect("ok")
            .is_none(),
        "9c laid off: 40 needed"
    );
}

#[test]
fn five_crowns_lays_down_everything_but_the_discard_000() {
    let f = preset("koenigs");
    // Round 3: fives are wild.
    let way = go_out(&f, Some(3), &[], &cards("7c 8c 9c Kx Kd 5h Qs"), true)
        .expect("ok")
        .expect("goes out");
    assert_eq!(way.discard, Some("Qs".parse().expect("card")));
    assert!(
        go_out(&f, Some(3), &[], &cards("7c 8c 9c Kx Qd 5h Js"), true)
            .expect("ok")
            .is_none()
    );
}

#[test]
fn wild_cards_only_meld_among_themselves_and_keep_one_to_discard() {
    // Found by the reference property test: in round 11 kings are wild, so
    // this hand is four wild cards; three meld, one is kept for the discard.
    let f = preset("koenigs");
    let plan = best_opening(&f, Some(11), &[], &cards("Kc Kd Kd *"))
        .expect("ok")
        .expect("opens");
    assert_eq!(plan.melds.iter().map(Vec::len).sum::<usize>(), 3);
    assert_eq!(plan.left.len(), 1);
    assert_eq!(
        plan.deadwood, 20,
        "a king (wild, 20) is kept, not the joker (50)"
    );
}

/// Brute force: every partition of the hand into valid melds (each at its
/// best value) and unmatched cards; among those reaching the threshold with a
/// card left over, the least deadwood, then the most cards melded.
fn reference_opening(
    rules: &Ruleset,
    round: Option<u8>,
    hand: &[CardKind],
) -> Option<(u32, usize)> {
    struct Reference<'a> {
        rules: &'a Ruleset,
        round: Option<u8>,
        checker: MeldChecker<'a>,
        threshold: u32,
        best: Option<(u32, usize)>,
        dead: Vec<CardKind>,
    }
    impl Reference<'_> {
        fn go(&mut self, rest: &[CardKind], points: u32, melded: usize) {
            let Some((&first, others)) = rest.split_first() else {
                if points >= self.threshold && !self.dead.is_empty() {
                    let d = hand_points(self.rules, &self.dead, self.round);
                    if self
                        .best
                        .is_none_or(|(bd, bm)| d < bd || (d == bd && melded > bm))
                    {
                        self.best = Some((d, melded));
                    }
                }
                return;
            };
            self.dead.push(first);
            self.go(others, points, melded);
            self.dead.pop();
            let n = others.len();
            for mask in 1u32..(1 << n) {
                let mut meld = vec![first];
                meld.extend((0..n).filter(|k| mask >> k & 1 == 1).map(|k| others[k]));
                if meld.len() < 3 {
                    continue;
                }
                if let Ok(Some(d)) = self.checker.best(&meld) {
                    let left: Vec<CardKind> = (0..n)
                        .filter(|k| mask >> k & 1 == 0)
                        .map(|k| others[k])
                        .collect();
                    self.go(&left, points + d.value, melded + meld.len());
                }
            }
        }
    }
    let mut r = Reference {
        rules,
        round,
        checker: MeldChecker::new(rules, round).expect("checker"),
        threshold: u32::from(rules.opening.threshold),
        best: None,
        dead: Vec::new(),
    };
    r.go(hand, 0, 0);
    r.best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(240))]

    #[test]
    fn best_opening_matches_the_reference(
        preset_i in 0usize..11,
        pick in proptest::collection::vec(any::<proptest::sample::Index>(), 4..=8),
        round in 1u8..=11,
    ) {
        // Every preset but the solo patience (one player, no opening).
        let name = presets::NAMES[preset_i];
        let rules = preset(name);
        let round = rules.melds.wilds.round_wild.then_some(round);
        // A window of high cards in two suits plus jokers, so openings are possible.
        let mut window: Vec<CardKind> = rules
            .deck
            .cards()
            .into_iter()
            .map(|c| c.kind())
            .filter(|k| match k {
                CardKind::Joker => true,
                CardKind::Natural(f) => f.suit.index() < 2 && f.rank.number() >= 9,
            })
            .collect();
        // Draw without replacement.
        let mut hand = Vec::new();
        for ix in pick {
            if window.is_empty() {
                break;
            }
            hand.push(window.remove(ix.index(window.len())));
        }
        let fast = best_opening(&rules, round, &[], &hand).expect("solves");
        let slow = reference_opening(&rules, round, &hand);
        prop_assert_eq!(
            fast.as_ref().map(|p| (p.deadwood, p.melds.iter().map(Vec::len).sum::<usize>())),
            slow,
            "{}: {}",
            name,
            format_cards(&hand)
        );
        if let Some(p) = fast {
            prop_assert!(p.points >= u32::from(rules.opening.threshold));
            let checker = MeldChecker::new(&rules, round).expect("checker");
            for m in &p.melds {
                prop_assert!(checker.check(m).is_ok());
            }
        }
    }
}

/// A small random table (valid melds from the deck) and a hand near it.
fn position(rules: &Ruleset, round: Option<u8>, seed: u64) -> (Vec<Vec<MeldCard>>, Vec<CardKind>) {
    let checker = MeldChecker::new(rules, round).expect("checker");
    let deck: Vec<CardKind> = rules
        .deck
        .shuffled(seed)
        .into_iter()
        .map(|c| c.kind())
        .collect();
    let mut pool = deck.clone();
    let mut table = Vec::new();
    // Try consecutive triples of the shuffled deck's same-suit or same-rank cards.
    let mut i = 0;
    while table.len() < 2 && i + 3 < pool.len() {
        let Some(first) = pool[i].face() else {
            i += 1;
            continue;
        };
        let partners: Vec<usize> = (i + 1..pool.len())
            .filter(|&k| {
                pool[k]
                    .face()
                    .is_some_and(|f| f.rank == first.rank && f.suit != first.suit)
            })
            .take(2)
            .collect();
        if partners.len() == 2 {
            let meld: Vec<CardKind> = std::iter::once(pool[i])
                .chain(partners.iter().map(|&k| pool[k]))
                .collect();
            if let Ok(Some(d)) = checker.best(&meld) {
                for k in partners.iter().rev() {
                    pool.remove(*k);
                }
                pool.remove(i);
                table.push(d.ordered);
                continue;
            }
        }
        i += 1;
    }
    let size = match rules.deal.hand_size {
        romme_core::ruleset::HandSize::Fixed(n) => usize::from(n).min(9),
        romme_core::ruleset::HandSize::RoundPlusTwo => usize::from(round.unwrap_or(3)) + 3,
    };
    let hand = pool.into_iter().take(size).collect();
    (table, hand)
}

#[test]
fn answers_are_valid_for_every_preset() {
    for name in presets::NAMES {
        let rules = preset(name);
        if rules.deal.solo_patience {
            continue;
        }
        for seed in 0..25u64 {
            let round = rules
                .melds
                .wilds
                .round_wild
                .then_some((seed % 11) as u8 + 1);
            let (table, hand) = position(&rules, round, seed);
            let checker = MeldChecker::new(&rules, round).expect("checker");
            // Lay-offs: each result validates and uses cards of the hand.
            for l in lay_offs(&rules, round, &table, &hand).expect("lay-offs") {
                checker
                    .check(&l.result)
                    .unwrap_or_else(|e| panic!("{name}: {}: {e}", format_cards(&l.result)));
                let mut pool = hand.clone();
                for c in &l.cards {
                    let k = pool
                        .iter()
                        .position(|h| h == c)
                        .unwrap_or_else(|| panic!("{name}: {c} not in hand"));
                    pool.swap_remove(k);
                }
            }
            // Going out: melds + lay-offs + discard + rest = hand (+ freed jokers).
            for opened in [true, false] {
                if let Some(w) = go_out(&rules, round, &table, &hand, opened).expect("go out") {
                    let mut used: Vec<CardKind> =
                        w.melds.iter().flatten().map(|c| c.card).collect();
                    for m in &w.melds {
                        checker
                            .check(m)
                            .unwrap_or_else(|e| panic!("{name}: {}: {e}", format_cards(m)));
                    }
                    let mut freed = Vec::new();
                    for l in &w.lay_offs {
                        checker
                            .check(&l.result)
                            .unwrap_or_else(|e| panic!("{name}: {e}"));
                        used.extend(l.cards.iter().copied());
                        freed.extend(l.freed.iter().copied());
                    }
                    used.extend(w.discard);
                    used.extend(w.rest.iter().copied());
                    let mut want = hand.clone();
                    want.extend(freed);
                    assert_eq!(
                        sorted(used),
                        sorted(want),
                        "{name} seed {seed}: cards do not add up"
                    );
                    if let Some(d) = w.discard {
                        assert!(
                            rules.jokers.discard_allowed || !d.is_joker(),
                            "{name}: joker discarded"
                        );
                    }
                    let rest_limit = if rules.concealed.enabled {
                        u32::from(rules.concealed.lay_down_below).saturating_sub(1)
                    } else {
                        u32::from(rules.going_out.rest_allowed)
                    };
                    assert!(
                        hand_points(&rules, &w.rest, round) <= rest_limit,
                        "{name}: rest too high"
                    );
                }
            }
            // The opening reaches the threshold and keeps a card for the discard.
            if let Some(p) = best_opening(&rules, round, &table, &hand).expect("opening") {
                assert!(p.points >= u32::from(rules.opening.threshold), "{name}");
                assert!(
                    !rules.turn.discard_pile || !p.left.is_empty(),
                    "{name}: nothing left to discard"
                );
                for m in &p.melds {
                    checker.check(m).unwrap_or_else(|e| panic!("{name}: {e}"));
                }
            }
        }
    }
}
