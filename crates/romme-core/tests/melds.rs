//! Meld validation, declarations and values under the presets, including the
//! examples of the rule texts and both sides of every meld knob.

use proptest::prelude::*;
use romme_core::meld::{Declaration, MeldChecker, MeldError, MeldKind};
use romme_core::notation::{format_cards, parse_cards};
use romme_core::ruleset::{Limit, Ruleset, SetSuits, WildShare, presets};
use romme_core::{CardKind, Face, MeldCard, Rank, Suit};

fn preset(name: &str) -> Ruleset {
    presets::load(name).expect("exists").expect("loads")
}

fn cards(s: &str) -> Vec<CardKind> {
    parse_cards(s).expect(s)
}

fn decls(rules: &Ruleset, round: Option<u8>, s: &str) -> Vec<Declaration> {
    MeldChecker::new(rules, round)
        .expect("checker")
        .declarations(&cards(s))
        .expect("cards in deck")
}

fn valid(rules: &Ruleset, s: &str) -> bool {
    !decls(rules, None, s).is_empty()
}

fn best(rules: &Ruleset, round: Option<u8>, s: &str) -> Option<u32> {
    decls(rules, round, s).iter().map(|d| d.value).max()
}

fn texts(ds: &[Declaration]) -> Vec<String> {
    let mut v: Vec<String> = ds.iter().map(|d| format_cards(&d.cards)).collect();
    v.sort();
    v
}

fn reason(rules: &Ruleset, s: &str) -> String {
    let declared: Vec<MeldCard> = s.split_whitespace().map(|t| t.parse().expect(t)).collect();
    match MeldChecker::new(rules, None)
        .expect("checker")
        .check(&declared)
    {
        Err(MeldError::Invalid { reason }) => reason,
        other => panic!("{s}: expected invalid, got {other:?}"),
    }
}

#[test]
fn sets_with_distinct_suits_versus_mixed_sets() {
    let klassisch = preset("klassisch");
    let bieten = preset("bieten");
    assert!(valid(&klassisch, "7h 7s 7c"));
    assert!(valid(&klassisch, "7h 7s 7c 7d"));
    assert!(!valid(&klassisch, "7h 7h 7c"), "003: no suit twice");
    assert!(reason(&klassisch, "7h 7h 7c").contains("same suit twice"));
    assert!(valid(&bieten, "7h 7h 7c"), "002: one or more suits");
    assert!(valid(&bieten, "7h 7h 7c 7c 7d"), "002: 3 or more cards");
    assert!(
        !valid(&klassisch, "7h 7s 7c 7d *"),
        "003: only 3- and 4-card sets"
    );
    assert_eq!(best(&klassisch, None, "Kh Ks Kc"), Some(30));
    assert_eq!(
        best(&klassisch, None, "Ah As Ac"),
        Some(33),
        "ace 11 in a set"
    );
}

#[test]
fn ace_low_high_and_wrap_around() {
    let klassisch = preset("klassisch");
    let club = preset("club");
    assert_eq!(
        best(&klassisch, None, "Ah 2h 3h"),
        Some(6),
        "ace before the 2 counts 1"
    );
    assert_eq!(
        best(&klassisch, None, "Qh Kh Ah"),
        Some(31),
        "ace after the king counts 11"
    );
    assert!(!valid(&klassisch, "Kh Ah 2h"), "003: K-A-2 forbidden");
    assert!(reason(&klassisch, "Kh Ah 2h").contains("K-A-2"));
    assert!(
        valid(&club, "Kh Ah 2h"),
        "004 8: the ace after the king, even if the 2 follows"
    );
    assert_eq!(best(&club, None, "Kh Ah 2h"), Some(23), "004: 10 + 11 + 2");
    assert_eq!(
        best(&club, None, "Qh Kh Ah 2h 3h"),
        Some(36),
        "10 + 10 + 11 + 2 + 3"
    );

    let mut no_low = klassisch.clone();
    no_low.melds.runs.ace_low = false;
    assert!(!valid(&no_low, "Ah 2h 3h"));
    assert!(valid(&no_low, "Qh Kh Ah"));
    let mut no_high = klassisch.clone();
    no_high.melds.runs.ace_high = false;
    assert!(valid(&no_high, "Ah 2h 3h"));
    assert!(
        !valid(&no_high, "Qh Kh Ah"),
        "whether an ace may stand high at all"
    );

    let mut always_11 = klassisch.clone();
    always_11.values.ace_low = 11;
    assert_eq!(
        best(&always_11, None, "Ah 2h 3h"),
        Some(16),
        "001 variation: ace always 11"
    );
}

#[test]
fn run_length_limits() {
    let klassisch = preset("klassisch");
    assert!(
        valid(&klassisch, "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh"),
        "13 cards"
    );
    assert!(
        valid(&klassisch, "2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah"),
        "13 cards, ace high"
    );
    assert!(
        !valid(&klassisch, "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah"),
        "001: 14 cards A..A are not a run"
    );
    assert!(!valid(&klassisch, "5h 6h"), "at least 3 cards");
    assert!(reason(&klassisch, "5h 6h").contains("at least 3"));
    assert!(!valid(&klassisch, "5h 6h 8h"), "a gap");
    assert!(!valid(&klassisch, "5h 6h 7s"), "one suit");
}

#[test]
fn joker_declarations_of_the_issue_example() {
    let klassisch = preset("klassisch");
    let ds = decls(&klassisch, None, "* * Kc");
    let best = ds.iter().max_by_key(|d| d.value).expect("valid");
    assert_eq!(best.value, 31);
    assert!(
        texts(&ds).contains(&"*=Qc *=Ac Kc".to_string()),
        "{:?}",
        texts(&ds)
    );
    assert!(texts(&ds).contains(&"*=Jc *=Qc Kc".to_string()));
    assert!(texts(&ds).contains(&"*=Kd *=Kh Kc".to_string()));
    assert!(
        !texts(&ds).iter().any(|t| t.contains("=2c")),
        "no K-A-2 in klassisch"
    );
    // Each declaration lists the cards in meld order too.
    let qka = ds
        .iter()
        .find(|d| format_cards(&d.cards) == "*=Qc *=Ac Kc")
        .expect("Q-K-A");
    assert_eq!(format_cards(&qka.ordered), "*=Qc Kc *=Ac");
    assert_eq!(qka.kind, MeldKind::Run);
}

#[test]
fn joker_in_a_set_may_stand_for_each_missing_suit_001_example() {
    // 001: "Liegen z. B. Joker, Herz-Bube und Karo-Bube, kann der Joker Pik- oder Kreuz-Bube vertreten."
    let offen = preset("offen");
    assert_eq!(
        texts(&decls(&offen, None, "* Jh Jd")),
        vec!["*=Jc Jh Jd", "*=Js Jh Jd"]
    );
    let checker = MeldChecker::new(&offen, None).expect("checker");
    let undeclared: Vec<MeldCard> = ["*", "Jh", "Jd"]
        .iter()
        .map(|t| t.parse().expect(t))
        .collect();
    assert!(
        matches!(checker.check(&undeclared), Err(MeldError::Ambiguous { ref options }) if options.len() == 2)
    );
    let declared: Vec<MeldCard> = ["*=Js", "Jh", "Jd"]
        .iter()
        .map(|t| t.parse().expect(t))
        .collect();
    let d = checker.check(&declared).expect("valid");
    assert_eq!(format_cards(&d.cards), "*=Js Jh Jd");
    let wrong: Vec<MeldCard> = ["*=Jh", "Jh", "Jd"]
        .iter()
        .map(|t| t.parse().expect(t))
        .collect();
    assert!(matches!(
        checker.check(&wrong),
        Err(MeldError::Invalid { .. })
    ));
    let liar: Vec<MeldCard> = ["7h=8h", "9h", "10h"]
        .iter()
        .map(|t| t.parse().expect(t))
        .collect();
    assert!(matches!(
        checker.check(&liar),
        Err(MeldError::NotWild { .. })
    ));
}

#[test]
fn unique_reading_is_filled_in() {
    let klassisch = preset("klassisch");
    let checker = MeldChecker::new(&klassisch, None).expect("checker");
    let m: Vec<MeldCard> = ["5h", "*", "7h", "8h"]
        .iter()
        .map(|t| t.parse().expect(t))
        .collect();
    let d = checker.check(&m).expect("valid");
    assert_eq!(format_cards(&d.ordered), "5h *=6h 7h 8h");
    assert_eq!(d.value, 26);
}

#[test]
fn club_joker_limits_004_point_7() {
    let club = preset("club");
    assert!(valid(&club, "7h * 9h"), "one joker among two naturals");
    assert!(!valid(&club, "7h * *"), "jokers must be in the minority");
    assert!(reason(&club, "7h * *").contains("minority"));
    assert!(
        !valid(&club, "5h * * 8h 9h"),
        "2 of 5 is a minority, but adjacent"
    );
    assert!(reason(&club, "5h * * 8h 9h").contains("next to each other"));
    assert!(
        valid(&club, "5h * 7h * 9h"),
        "two jokers, not adjacent, minority"
    );
    assert!(valid(&club, "Kc Kd *"));
    assert!(!valid(&club, "Kc * *"));
    assert!(!valid(&club, "* * *"), "no all-joker melds");
    let klassisch = preset("klassisch");
    assert!(valid(&klassisch, "7h * *"));
    assert!(valid(&klassisch, "5h * * 8h 9h"));
    assert!(valid(&klassisch, "* * *"), "no limit in 003");
}

#[test]
fn every_wild_knob_has_two_sides() {
    let base = preset("klassisch");
    let with = |f: &dyn Fn(&mut Ruleset)| {
        let mut r = base.clone();
        f(&mut r);
        r
    };
    let at_most = with(&|r| r.melds.wilds.share = WildShare::AtMostNaturals);
    assert!(valid(&at_most, "5h * * 8h"), "2 wild, 2 natural");
    assert!(!valid(&at_most, "5h * * *"));
    let fewer = with(&|r| r.melds.wilds.share = WildShare::FewerThanNaturals);
    assert!(!valid(&fewer, "5h * * 8h"));
    let max1 = with(&|r| r.melds.wilds.max_per_meld = Limit::At(1));
    assert!(valid(&max1, "5h * 7h"));
    assert!(!valid(&max1, "5h * 7h * 9h"));
    assert!(reason(&max1, "5h * 7h * 9h").contains("at most 1"));
    let no_ends = with(&|r| r.melds.wilds.at_run_ends = false);
    assert!(valid(&no_ends, "5h * 7h"));
    assert!(
        !valid(&no_ends, "5h 6h *"),
        "the joker would be an end (4h or 7h)"
    );
    assert!(reason(&no_ends, "5h 6h *").contains("first or last"));
    assert!(valid(&no_ends, "5h 5s *"), "ends do not matter in a set");
    let no_all = with(&|r| r.melds.wilds.all_wild = false);
    assert!(!valid(&no_all, "* * *"));
    assert!(valid(&no_all, "* * 7h"));
    let no_adjacent = with(&|r| r.melds.wilds.adjacent = false);
    assert!(!valid(&no_adjacent, "5h * * 8h"));
    assert!(valid(&no_adjacent, "5h * 7h * 9h"));
    let mixed = with(&|r| {
        r.melds.sets.suits = SetSuits::Any;
        r.melds.sets.max_len = Limit::None;
    });
    assert!(valid(&mixed, "9c 9c 9d"));
    assert!(valid(&mixed, "9c 9c 9d 9d 9h"));
}

#[test]
fn five_crowns_round_wilds_000() {
    let koenigs = preset("koenigs");
    // Round 5: 7 cards dealt, sevens are wild (000 "Beispiel für einen Spielzug").
    let checker = MeldChecker::new(&koenigs, Some(5)).expect("round 5");
    assert_eq!(checker.wild_rank(), Some(Rank::Seven));
    assert!(
        !decls(&koenigs, Some(5), "7d 9h 10h").is_empty(),
        "7d as 8h or Jh"
    );
    assert!(texts(&decls(&koenigs, Some(5), "7d 9h 10h")).contains(&"7d=8h 9h 10h".to_string()));
    assert!(
        decls(&koenigs, Some(4), "7d 9h 10h").is_empty(),
        "round 4: 6s are wild, 7d is not"
    );
    // Sets of any suits; natural sets of the wild rank.
    assert!(!decls(&koenigs, Some(5), "Qx Qx Qh").is_empty());
    let sevens = decls(&koenigs, Some(5), "7d 7h 7c");
    assert!(
        sevens
            .iter()
            .any(|d| d.wilds == 0 && d.kind == MeldKind::Set)
    );
    // All-joker melds are allowed ("komplett aus Jokern").
    assert!(!decls(&koenigs, Some(1), "* * 3c").is_empty());
    assert!(!decls(&koenigs, Some(1), "* * *").is_empty());
    // 10 -> J -> Q -> K, and no ace.
    assert!(!decls(&koenigs, Some(1), "10s Js Qs Ks").is_empty());
    let c = MeldChecker::new(&koenigs, Some(1)).expect("round 1");
    assert!(matches!(
        c.declarations(&cards("Ah Kh Qh")),
        Err(MeldError::NotInDeck { .. })
    ));
    assert!(matches!(
        c.declarations(&cards("2h 3h 4h")),
        Err(MeldError::NotInDeck { .. })
    ));
    assert!(matches!(
        MeldChecker::new(&koenigs, None),
        Err(MeldError::RoundRequired { max: 11 })
    ));
    assert!(matches!(
        MeldChecker::new(&koenigs, Some(12)),
        Err(MeldError::BadRound { .. })
    ));
    // A round wild standing as itself is a natural: the stars' run 6x 7x 8x in round 5.
    let ds = decls(&koenigs, Some(5), "6x 7x 8x");
    assert!(ds.iter().any(|d| d.wilds == 0), "7x as itself");
}

#[test]
fn bad_input_is_an_error_not_an_invalid_meld() {
    let klassisch = preset("klassisch");
    let c = MeldChecker::new(&klassisch, None).expect("checker");
    assert!(matches!(
        c.declarations(&cards("3x 4x 5x")),
        Err(MeldError::NotInDeck { .. })
    ));
    let err = c
        .declarations(&cards("7h 7h 7h"))
        .expect_err("three copies");
    assert_eq!(err.to_string(), "7h appears 3 times, the deck has 2");
    let bieten = preset("bieten");
    let c = MeldChecker::new(&bieten, None).expect("checker");
    assert!(
        matches!(
            c.declarations(&cards("* * * 7h")),
            Err(MeldError::TooManyCopies { .. })
        ),
        "002 has 2 jokers"
    );
}

fn any_face() -> impl Strategy<Value = Face> {
    (0usize..52).prop_map(|i| Face::from_index(i).expect("French face"))
}

fn any_hand() -> impl Strategy<Value = Vec<CardKind>> {
    proptest::collection::vec(
        prop_oneof![1 => Just(CardKind::Joker), 6 => any_face().prop_map(CardKind::Natural)],
        3..7,
    )
}

/// A natural run: suit, start rank number (2..=12), length.
fn any_run() -> impl Strategy<Value = Vec<Face>> {
    (0usize..4, 2u8..=12, 3usize..=8).prop_map(|(s, start, len)| {
        (0..len)
            .filter_map(|i| Rank::from_number(start + i as u8))
            .map(|r| Face::new(r, Suit::FRENCH[s]))
            .collect()
    })
}

fn sorted_decls(mut v: Vec<Declaration>) -> Vec<(MeldKind, String)> {
    let mut out: Vec<(MeldKind, String)> = v
        .drain(..)
        .map(|d| (d.kind, format_cards(&d.ordered)))
        .collect();
    out.sort();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn validity_does_not_depend_on_card_order(hand in any_hand(), rot in 0usize..7, preset_i in 0usize..3) {
        let rules = preset(["klassisch", "club", "bieten"][preset_i]);
        let checker = MeldChecker::new(&rules, None).expect("checker");
        let Ok(a) = checker.declarations(&hand) else { return Ok(()) };
        let mut shuffled = hand.clone();
        shuffled.reverse();
        let k = rot % shuffled.len();
        shuffled.rotate_left(k);
        let b = checker.declarations(&shuffled).expect("same cards");
        prop_assert_eq!(sorted_decls(a), sorted_decls(b));
    }

    #[test]
    fn a_run_stays_valid_with_a_card_replaced_by_a_joker_unless_a_limit_forbids(
        run in any_run(), pos in 0usize..8, preset_i in 0usize..2, extra in proptest::option::of(0usize..8)
    ) {
        let rules = preset(["klassisch", "club"][preset_i]);
        let checker = MeldChecker::new(&rules, None).expect("checker");
        let n = run.len();
        let mut jokered: Vec<bool> = vec![false; n];
        if let Some(e) = extra { jokered[e % n] = true; }
        let base: Vec<CardKind> = run.iter().zip(&jokered).map(|(f, j)| if *j { CardKind::Joker } else { CardKind::Natural(*f) }).collect();
        prop_assume!(checker.is_valid(&base).expect("in deck"));
        let p = pos % n;
        prop_assume!(!jokered[p]);
        jokered[p] = true;
        let replaced: Vec<CardKind> = run.iter().zip(&jokered).map(|(f, j)| if *j { CardKind::Joker } else { CardKind::Natural(*f) }).collect();
        // What the limits say about this pattern of jokers in this run.
        let w = &rules.melds.wilds;
        let wilds = jokered.iter().filter(|j| **j).count();
        let naturals = n - wilds;
        let forbidden = (naturals == 0 && !w.all_wild)
            || (w.share == WildShare::FewerThanNaturals && wilds >= naturals)
            || (w.share == WildShare::AtMostNaturals && wilds > naturals)
            || !w.max_per_meld.allows(wilds)
            || (!w.adjacent && jokered.windows(2).any(|p| p[0] && p[1]))
            || (!w.at_run_ends && (jokered[0] || jokered[n - 1]));
        let is_valid = checker.is_valid(&replaced).expect("in deck");
        if !forbidden {
            prop_assert!(is_valid, "{} should stay valid", format_cards(&replaced));
        }
        // With the limits forbidding this pattern, the meld may still be valid in
        // another reading (e.g. as a set, or shifted), but not as this run.
        if forbidden {
            let ds = checker.declarations(&replaced).expect("in deck");
            let same: Vec<MeldCard> = run.iter().map(|f| MeldCard { card: CardKind::Natural(*f), stands_for: None }).collect();
            prop_assert!(!ds.iter().any(|d| d.kind == MeldKind::Run && d.ordered.iter().map(|c| c.effective()).eq(same.iter().map(|c| c.effective()))));
        }
    }

    #[test]
    fn every_enumerated_declaration_checks_as_declared(hand in any_hand()) {
        let rules = preset("klassisch");
        let checker = MeldChecker::new(&rules, None).expect("checker");
        let Ok(ds) = checker.declarations(&hand) else { return Ok(()) };
        for d in ds.iter().take(20) {
            let checked = checker.check(&d.cards).expect("declared meld is valid");
            prop_assert_eq!(checked.value, d.value);
        }
        if ds.is_empty() {
            let declared: Vec<MeldCard> = hand.iter().map(|c| MeldCard::plain(*c)).collect();
            let is_invalid = matches!(checker.check(&declared), Err(MeldError::Invalid { .. }));
            prop_assert!(is_invalid);
        }
    }
}

#[test]
fn wild_cards_may_be_declared_in_any_assignment() {
    let koenigs = preset("koenigs");
    let checker = MeldChecker::new(&koenigs, Some(5)).expect("round 5");
    for text in ["7d=9h 7c=8h 10h", "7c=8h 7d=9h 10h", "10h 7d=9h 7c=8h"] {
        let m: Vec<MeldCard> = text.split(' ').map(|t| t.parse().expect(t)).collect();
        let d = checker.check(&m).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            format_cards(&d.cards),
            text,
            "keeps the player's assignment"
        );
    }
    let bad: Vec<MeldCard> = ["7d=9h", "7c=9h", "10h"]
        .iter()
        .map(|t| t.parse().expect(t))
        .collect();
    assert!(
        checker.check(&bad).is_err(),
        "two cards cannot both be 9h in a run"
    );
}

#[test]
fn a_hand_full_of_wild_cards_has_a_bounded_number_of_readings() {
    // Round 5 of Five Crowns: all ten sevens and six jokers are wild.
    let koenigs = preset("koenigs");
    let checker = MeldChecker::new(&koenigs, Some(5)).expect("round 5");
    let all_wild = cards("7c 7c 7d 7d 7h 7h 7s 7s 7x 7x * * *");
    let ds = checker.declarations(&all_wild).expect("in deck");
    assert!(!ds.is_empty());
    // 13 cards: sets of any rank with any multiset of suits, plus runs.
    assert!(ds.len() < 200_000, "{} readings", ds.len());
    assert!(
        ds.iter().any(|d| d.kind == MeldKind::Set && d.wilds == 3),
        "the ten sevens as themselves"
    );
}

#[test]
fn every_reading_checks_as_declared_with_round_wilds_fuzz_regression() {
    // Found by `cargo fuzz run meld_check`: a plain round wild (Kh in round
    // 11) made a fully declared run ambiguous.
    let solo = preset("koenigs-solo");
    let checker = MeldChecker::new(&solo, Some(11)).expect("round 11");
    let ds = checker
        .declarations(&cards("* * * Kh 9h * Jh"))
        .expect("in deck");
    assert!(!ds.is_empty());
    for d in &ds {
        let checked = checker
            .check(&d.cards)
            .unwrap_or_else(|e| panic!("{}: {e}", format_cards(&d.cards)));
        assert_eq!(checked.ordered, d.ordered);
    }
    let plain: Vec<MeldCard> = "*=7h *=8h 9h *=10h Jh *=Qh Kh"
        .split(' ')
        .map(|t| t.parse().expect(t))
        .collect();
    let d = checker.check(&plain).expect("Kh stands as itself");
    assert_eq!(d.wilds, 4);
}
