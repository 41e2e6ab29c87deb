//! Scenarios from the rule texts and the refusals a player meets, each on an
//! explicit deal. Every refusal is checked to leave the game unchanged.
//!
//! Knobs of RULES.md §5–§6 and the test that covers each (the random-game
//! tests in `random_games.rs` play every preset, plus a no-discard-pile and
//! a split-stock variation, besides):
//!
//! | knob | test |
//! |---|---|
//! | draw: stock or top discard | `turn_order_and_drawing_first` |
//! | `turn.discard_take` = free | `the_opening_needs_40_points_003` (takes Jd) |
//! | `turn.discard_take` = meld-at-once(-opening) (`003`, `004` 4) | `the_discard_is_taken_only_to_be_melded_004` |
//! | `turn.discard_pile` = false (`001` variation) | `without_a_discard_pile_who_plays_need_not_draw_001` |
//! | `opening.threshold` (40, `003`) and its message | `the_opening_needs_40_points_003` |
//! | `opening.lay_offs_count` (`002` Anlegen) | `a_lay_off_can_complete_the_opening_002_and_own_melds_only` |
//! | `turn.lay_off` after the opening | `the_opening_needs_40_points_003` |
//! | `turn.lay_off_target` = own | `a_lay_off_can_complete_the_opening_002_and_own_melds_only` |
//! | `turn.rearrange` = none / free (`004`, `001`) | `free_rearrangement_keeps_every_table_card_001` |
//! | `turn.rearrange` = rob (Räuber `003`, its worked example) | `robbing_needs_an_own_card_in_every_new_meld_003` |
//! | `jokers.exchange` = any-time (`003`) | `joker_exchange_and_declarations` |
//! | `jokers.exchange` = after-opening, `exchange_needs_full_set` (`004` 9) | `joker_exchange_in_a_set_needs_four_cards_004` |
//! | `jokers.freed_must_be_melded` (`004`) | `a_freed_joker_must_be_melded_and_jokers_are_not_discarded_004` |
//! | `jokers.exchange_ends_plays` (`001`) | `joker_exchange_ends_the_plays_001` |
//! | `jokers.discard_allowed` = false (`004` 4) | `a_freed_joker_must_be_melded_and_jokers_are_not_discarded_004` |
//! | joker declarations (ambiguous readings refused) | `joker_exchange_and_declarations` |
//! | `buying` with first refusal (`002`) | `buying_gives_the_seats_in_between_the_first_right_002` |
//! | `knocking`, `only_if_meldable` (`003`) | `knocking_skips_the_seats_in_between_003` |
//! | `stock.when_empty` = end-game / reshuffle (`004` 5, `000`) | `an_empty_stock_ends_the_game_004_or_is_reshuffled_000` |
//! | `stock.piles` (`001` variation) | `a_split_stock_lets_the_player_choose_a_pile_001` |
//! | `going_out.final_discard` = required | `hand_romme_doubles_the_others_points_003` |
//! | `going_out.final_discard` = never (keep two or meld all) | random games of `offen` (a play leaving one card is refused) |
//! | `going_out.rest_allowed` ("Rommé bieten", `002`) | `romme_bieten_with_nine_points_left_002` |
//! | Hand-Rommé, threshold waived, `scoring.hand_romme_multiplier` (`003`) | `hand_romme_doubles_the_others_points_003` |
//! | `concealed` ohne Auslegen (`003`) | `ohne_auslegen_lays_down_below_10_and_everyone_scores_unmatched_cards_003` |
//! | `concealed.knock_below`, Wiener (`003`) | `wiener_knock_gives_the_others_one_last_draw_from_the_stock_003`, `wiener_all_ten_in_melds_ends_at_once_003` |
//! | `match.end` = elimination (Wiener, `003`) | `wiener_eliminated_players_are_no_longer_dealt_in_003` |
//! | `going_out.last_turn_for_others`, round wilds, `hand_size` round+2 (`000`) | `five_crowns_last_turn_for_everyone_else_and_round_wilds_000` |
//! | `deal.solo_patience` (`000`) | `solo_patience_closes_complete_hands_000` |
//! | `players.active_per_game` (`004` 2: the dealer sits out) | `a_fourth_player_deals_and_sits_out_004` |
//! | views and event filtering | `views_hide_other_hands_and_events_are_filtered` |
//! | contradicting rulesets, seat counts | `contradicting_rulesets_and_seat_counts_are_refused` |

use romme_core::notation::parse_cards;
use romme_core::ruleset::{Ruleset, presets};
use romme_core::{CardKind, MeldCard};
use romme_engine::{Action, ActionError, Deal, DrawSource, EndReason, Event, Game, Phase, Record};

fn preset(name: &str) -> Ruleset {
    presets::load(name).expect("exists").expect("loads")
}

fn cards(s: &str) -> Vec<CardKind> {
    parse_cards(s).expect(s)
}

fn meld(s: &str) -> Vec<MeldCard> {
    s.split_whitespace().map(|c| c.parse().expect(c)).collect()
}

fn card(s: &str) -> CardKind {
    s.parse().expect(s)
}

/// Seat 0 deals; seat 1 begins (three seats).
fn three(rules: &str, hands: [&str; 3], discard: &str, stock: &str) -> Game {
    let deal = Deal {
        hands: hands.iter().map(|h| cards(h)).collect(),
        discard: Some(card(discard)),
        stock: cards(stock),
    };
    Game::with_deal(preset(rules), 3, 7, deal).expect("deal")
}

/// Draw from the stock (must be accepted).
fn draw(game: &mut Game, seat: usize, what: &str) {
    game.apply(
        seat,
        Action::Draw {
            from: DrawSource::Stock,
        },
    )
    .expect(what);
}

/// Discard `c` (must be accepted).
fn discard(game: &mut Game, seat: usize, c: &str) {
    game.apply(seat, Action::Discard { card: card(c) })
        .unwrap_or_else(|e| panic!("discard {c}: {e}"));
}

/// Apply, expecting a refusal that changes nothing.
fn refused(game: &mut Game, seat: usize, action: Action) -> ActionError {
    let before = game.clone();
    let e = game.apply(seat, action).expect_err("must be refused");
    assert!(*game == before, "a refusal changed the game");
    e
}

const H0: &str = "2c 3c 4c 5d 6d 7d 8s 9s 10s Jh Qh Kh Ac";
const H2: &str = "2d 3d 4d 5c 6c 7c 8h 9h 10h Js Qs Ks Ad";

#[test]
fn turn_order_and_drawing_first() {
    let mut g = three(
        "klassisch",
        [H0, "7h 7s 7c Kd Ks 2h 3h 4h 9d 9c 5s 6s Qd", H2],
        "Jd",
        "8c",
    );
    assert_eq!(g.turn(), Some(1), "the player left of the dealer begins");
    let e = refused(
        &mut g,
        2,
        Action::Draw {
            from: DrawSource::Stock,
        },
    );
    assert_eq!(e.to_string(), "it is seat 1's turn, not seat 2's");
    let e = refused(&mut g, 1, Action::Discard { card: card("Qd") });
    assert_eq!(e.to_string(), "you must draw first");
    draw(&mut g, 1, "draw");
    let e = refused(
        &mut g,
        1,
        Action::Draw {
            from: DrawSource::Stock,
        },
    );
    assert_eq!(e, ActionError::AlreadyDrawn);
    let e = refused(&mut g, 1, Action::Discard { card: card("8h") });
    assert_eq!(e.to_string(), "8h is not in your hand");
    assert!(g.view(Some(1)).hand.expect("hand").contains(&card("8c")));
    discard(&mut g, 1, "8c");
    assert_eq!(g.turn(), Some(2));
    assert_eq!(g.view(None).discard.last(), Some(&card("8c")));
}

#[test]
fn the_opening_needs_40_points_003() {
    // 7h 7s 7c = 21, Kd Ks + nothing; 2h 3h 4h = 9: 30 < 40.
    let mut g = three(
        "klassisch",
        [H0, "7h 7s 7c Kd Ks 2h 3h 4h 9d 9c 5s 6s Qd", H2],
        "Jd",
        "Kc",
    );
    g.apply(
        1,
        Action::Draw {
            from: DrawSource::Discard,
        },
    )
    .expect("take Jd");
    let low = Action::Meld {
        melds: vec![meld("7h 7s 7c"), meld("2h 3h 4h")],
        lay_offs: Vec::new(),
    };
    let e = refused(&mut g, 1, low);
    assert_eq!(
        e.to_string(),
        "opening needs 40 points, these melds have 30"
    );
    // Laying off before the opening is refused too.
    let e = refused(
        &mut g,
        1,
        Action::LayOff {
            meld: 0,
            cards: meld("8h"),
        },
    );
    assert!(matches!(e, ActionError::LayOffNotAllowed(_)), "{e}");
    // With the kings (Kd Ks + Jd? no: Jd Qd Kd is a run of 30) it reaches 60.
    let ok = Action::Meld {
        melds: vec![meld("7h 7s 7c"), meld("Jd Qd Kd")],
        lay_offs: Vec::new(),
    };
    let ev = g.apply(1, ok).expect("opening");
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Melded {
                opening: Some(51),
                ..
            }
        )),
        "{ev:?}"
    );
    assert!(g.view(None).seats[1].opened);
    // After the opening, further melds and lay-offs need no minimum.
    g.apply(
        1,
        Action::Meld {
            melds: vec![meld("2h 3h 4h")],
            lay_offs: Vec::new(),
        },
    )
    .expect("small meld after opening");
    g.apply(
        1,
        Action::LayOff {
            meld: 2,
            cards: meld("5s"),
        },
    )
    .expect_err("5s does not fit 2h-4h");
}

#[test]
fn joker_exchange_and_declarations() {
    // Seat 1 opens with a joker run; seat 2 exchanges the joker (003: "so kann er diesen Joker rauben").
    let mut g = three(
        "klassisch",
        [
            H0,
            "Qh Kh * 10c 10d 10s 2s 3s 5h 6h 9c 4d 8d",
            "Jh 2d 3d 4d 5c 6c 7c 8h 9h 10h Js Qs Ad",
        ],
        "9d",
        "Kc 2c",
    );
    draw(&mut g, 1, "draw Kc");
    let e = refused(
        &mut g,
        1,
        Action::Meld {
            melds: vec![meld("Qh Kh *"), meld("10c 10d 10s")],
            lay_offs: Vec::new(),
        },
    );
    assert!(matches!(e, ActionError::Ambiguous(_)), "J or A: {e}");
    g.apply(
        1,
        Action::Meld {
            melds: vec![meld("*=Jh Qh Kh"), meld("10c 10d 10s")],
            lay_offs: Vec::new(),
        },
    )
    .expect("opening 60");
    discard(&mut g, 1, "9c");
    draw(&mut g, 2, "draw 2c");
    let e = refused(
        &mut g,
        2,
        Action::ExchangeJoker {
            meld: 0,
            card: card("Ah"),
        },
    );
    assert_eq!(e.to_string(), "no joker in *=Jh Qh Kh stands for Ah");
    let e = refused(
        &mut g,
        2,
        Action::ExchangeJoker {
            meld: 1,
            card: card("Jh"),
        },
    );
    assert!(matches!(e, ActionError::NoJokerFor { .. }), "{e}");
    let ev = g
        .apply(
            2,
            Action::ExchangeJoker {
                meld: 0,
                card: card("Jh"),
            },
        )
        .expect("exchange");
    assert!(matches!(ev[0], Event::JokerExchanged { .. }));
    assert!(
        g.view(Some(2))
            .hand
            .expect("hand")
            .contains(&CardKind::Joker)
    );
    assert_eq!(g.view(None).table[0].cards[..], meld("Jh Qh Kh")[..]);
}

#[test]
fn joker_exchange_in_a_set_needs_four_cards_004() {
    let rules = preset("club");
    assert!(rules.jokers.exchange_needs_full_set);
    let deal = Deal {
        hands: vec![
            cards("Ks Kd Kc * Qs Qd Qc 2h 5h 8h Jc 4s 6d"),
            cards("Kh Qh 3c 4c 6c 7c 9d 10d 2s 3s 5s 9s 7h"),
            cards("2c 3h 4h 6h 8c 9c 10c 2d 3d 4d 6s 7s 8s"),
        ],
        discard: Some(card("Jd")),
        stock: cards("10h 10s Jh Ah 5c 5d"),
    };
    let mut g = Game::with_deal(rules, 3, 3, deal).expect("deal");
    draw(&mut g, 1, "draw");
    discard(&mut g, 1, "10h");
    draw(&mut g, 2, "draw");
    discard(&mut g, 2, "10s");
    draw(&mut g, 0, "draw Jh");
    // Ks Kd *=Kh (30) + Qs Qd Qc (30): the opening, a joker in a set of three.
    g.apply(
        0,
        Action::Meld {
            melds: vec![meld("Ks Kd *=Kh"), meld("Qs Qd Qc")],
            lay_offs: Vec::new(),
        },
    )
    .expect("opening");
    discard(&mut g, 0, "Jh");
    draw(&mut g, 1, "draw");
    let e = refused(
        &mut g,
        1,
        Action::ExchangeJoker {
            meld: 0,
            card: card("Kh"),
        },
    );
    assert_eq!(
        e.to_string(),
        "you may exchange a joker only after your opening"
    );
    discard(&mut g, 1, "Ah");
    draw(&mut g, 2, "draw");
    discard(&mut g, 2, "5c");
    draw(&mut g, 0, "draw 5d");
    // Seat 0 has opened, but the set has three cards.
    g.apply(
        0,
        Action::Meld {
            melds: vec![meld("2h")],
            lay_offs: Vec::new(),
        },
    )
    .expect_err("not a meld");
    let e = refused(
        &mut g,
        0,
        Action::ExchangeJoker {
            meld: 0,
            card: card("Kh"),
        },
    );
    assert!(
        e.to_string()
            .starts_with("a joker in a set may be exchanged only when the set has 4 cards"),
        "{e}"
    );
    // Lay Kc off: now the set has four cards and Kh could replace the joker.
    g.apply(
        0,
        Action::LayOff {
            meld: 0,
            cards: meld("Kc"),
        },
    )
    .expect("lay off Kc");
    assert_eq!(g.view(None).table[0].cards.len(), 4);
}

#[test]
fn hand_romme_doubles_the_others_points_003() {
    // Seat 1 puts all cards down in one turn without an earlier meld, below 40.
    let mut g = three(
        "klassisch",
        [H0, "2h 3h 4h 5s 5c 5d 6c 7c 8c 9c 2s 3s 4s", H2],
        "Kd",
        "Qd",
    );
    draw(&mut g, 1, "draw Qd");
    let ev = g
        .apply(
            1,
            Action::Meld {
                melds: vec![
                    meld("2h 3h 4h"),
                    meld("5s 5c 5d"),
                    meld("6c 7c 8c 9c"),
                    meld("2s 3s 4s"),
                ],
                lay_offs: Vec::new(),
            },
        )
        .expect("a Hand-Rommé waives the threshold");
    assert!(ev.iter().any(|e| matches!(e, Event::Melded { .. })));
    let ev = g
        .apply(1, Action::Discard { card: card("Qd") })
        .expect("go out");
    let ended = ev
        .iter()
        .find_map(|e| match e {
            Event::GameEnded {
                reason,
                winner,
                score,
                ..
            } => Some((*reason, *winner, score.clone())),
            _ => None,
        })
        .expect("game over");
    assert_eq!(ended.0, EndReason::WentOut);
    assert_eq!(ended.1, Some(1));
    let s0 = &ended.2.players[0];
    assert_eq!(
        s0.points,
        2 * i64::from(s0.hand_points),
        "others pay double"
    );
    assert_eq!(ended.2.players[1].points, 0);
    // klassisch plays one game: the match is over.
    assert_eq!(g.phase(), Phase::MatchOver);
    assert!(g.legal_actions(1).is_empty());
    assert_eq!(
        g.apply(
            1,
            Action::Draw {
                from: DrawSource::Stock
            }
        ),
        Err(ActionError::MatchOver)
    );
    // The record replays to the same end.
    assert!(Record::of(&g).replay().expect("replays") == g);
}

#[test]
fn a_fourth_player_deals_and_sits_out_004() {
    let g = Game::new(preset("club"), 4, 11).expect("club with four");
    let v = g.view(None);
    let sitting: Vec<usize> = v
        .seats
        .iter()
        .filter(|s| !s.playing)
        .map(|s| s.seat)
        .collect();
    assert_eq!(sitting, vec![v.dealer], "the dealer sits out");
    assert_eq!(v.seats.iter().filter(|s| s.playing).count(), 3);
    let mut g2 = g.clone();
    assert_eq!(
        g2.apply(
            v.dealer,
            Action::Draw {
                from: DrawSource::Stock
            }
        ),
        Err(ActionError::SitsOut(v.dealer))
    );
}

#[test]
fn the_discard_is_taken_only_to_be_melded_004() {
    let rules = preset("club");
    let deal = Deal {
        hands: vec![
            cards("2c 3c 4c 5d 6d 7d 8s 9s 10s Jh Qh Kh Ac"),
            cards("Ks Kd Qs Qd Qc 2h 5h 8h Jc 4s 6d 3d 9c"),
            cards("2d 3h 4h 6h 8c 10c 2s 3s 6s 7s 9d 10d Jd"),
        ],
        discard: Some(card("7c")),
        stock: cards("Kc"),
    };
    let mut g = Game::with_deal(rules.clone(), 3, 5, deal.clone()).expect("deal");
    // 7c fits nothing in seat 1's hand.
    let e = refused(
        &mut g,
        1,
        Action::Draw {
            from: DrawSource::Discard,
        },
    );
    assert!(matches!(e, ActionError::DiscardNotMeldable { .. }), "{e}");
    // Kc would make Ks Kd Kc + Qs Qd Qc = 60: taking the discard is allowed
    // when it opens at once.
    let deal = Deal {
        discard: Some(card("Kc")),
        stock: cards("7c"),
        ..deal
    };
    let mut g = Game::with_deal(rules, 3, 5, deal).expect("deal");
    g.apply(
        1,
        Action::Draw {
            from: DrawSource::Discard,
        },
    )
    .expect("take Kc");
    assert_eq!(
        g.view(Some(0)).taken,
        Some(card("Kc")),
        "everyone sees what was taken"
    );
    let e = refused(&mut g, 1, Action::Discard { card: card("9c") });
    assert_eq!(
        e.to_string(),
        "you took Kc from the discard pile: meld it before you discard"
    );
    let e = refused(
        &mut g,
        1,
        Action::Meld {
            melds: vec![meld("Qs Qd Qc")],
            lay_offs: Vec::new(),
        },
    );
    assert!(matches!(e, ActionError::MustMeldTaken(_)), "{e}");
    g.apply(
        1,
        Action::Meld {
            melds: vec![meld("Ks Kd Kc"), meld("Qs Qd Qc")],
            lay_offs: Vec::new(),
        },
    )
    .expect("opening with the taken card");
    discard(&mut g, 1, "9c");
}

#[test]
fn views_hide_other_hands_and_events_are_filtered() {
    let g = three(
        "klassisch",
        [H0, "7h 7s 7c Kd Ks 2h 3h 4h 9d 9c 5s 6s Qd", H2],
        "Jd",
        "8c",
    );
    let v1 = serde_json::to_string(&g.view(Some(1))).expect("json");
    let hand = g.view(Some(1)).hand.expect("own hand");
    assert_eq!(hand.len(), 13);
    assert!(hand.contains(&card("2h")) && v1.contains("\"2h\""), "{v1}");
    let spectator = g.view(None);
    assert!(spectator.hand.is_none());
    for e in g.events() {
        if let Event::Dealt { seat, cards, .. } = e.for_viewer(Some(1)) {
            assert_eq!(cards.is_some(), seat == 1);
        }
        if let Event::Dealt { cards, .. } = e.for_viewer(None) {
            assert!(cards.is_none(), "a spectator sees no hand");
        }
    }
}

#[test]
fn romme_bieten_with_nine_points_left_002() {
    // 002: "Ein Spieler hat noch Karo-Drei, Karo-Vier, Karo-Sechs, Karo-Sieben,
    // Karo-Neun und Karo-Dame. Nun bekommt er Karo-Fünf dazu. Er wird die
    // Karo-Dame abwerfen und ... als Sequenz auslegen ... übrig bleibt
    // Karo-Neun. Er hat gewonnen."
    let mut g = three(
        "bieten",
        [H0, "3d 4d 6d 7d 9d Qd Kc Kh Ks 9s 10s Js Qs", H2],
        "2h",
        "5d",
    );
    draw(&mut g, 1, "draws 5d");
    g.apply(
        1,
        Action::Meld {
            melds: vec![
                meld("3d 4d 5d 6d 7d"),
                meld("Kc Kh Ks"),
                meld("9s 10s Js Qs"),
            ],
            lay_offs: Vec::new(),
        },
    )
    .expect("melds");
    let e = refused(
        &mut g,
        1,
        Action::CallRomme {
            discard: Some(card("9d")),
        },
    );
    assert_eq!(
        e.to_string(),
        "you may call Rommé with at most 9 points left, you have 10"
    );
    let e = refused(&mut g, 1, Action::CallRomme { discard: None });
    assert_eq!(e, ActionError::CallNeedsDiscard);
    let ev = g
        .apply(
            1,
            Action::CallRomme {
                discard: Some(card("Qd")),
            },
        )
        .expect("Rommé!");
    let score = ev
        .iter()
        .find_map(|e| match e {
            Event::GameEnded { winner, score, .. } => Some((*winner, score.clone())),
            _ => None,
        })
        .expect("game over");
    assert_eq!(score.0, Some(1));
    assert_eq!(
        score.1.players[1].points, 9,
        "the Karo-Neun stays on his list"
    );
    assert!(score.1.players[1].won);
    // Elsewhere the call is not played.
    let mut k = three(
        "klassisch",
        [H0, "3d 4d 6d 7d 9d Qd Kc Kh Ks 9s 10s Js Qs", H2],
        "2h",
        "5d",
    );
    draw(&mut k, 1, "draw");
    assert_eq!(
        refused(
            &mut k,
            1,
            Action::CallRomme {
                discard: Some(card("Qd"))
            }
        ),
        ActionError::CallNotPlayed
    );
}

#[test]
fn contradicting_rulesets_and_seat_counts_are_refused() {
    let mut bad = preset("kaufen");
    bad.turn.discard_pile = false;
    let e = Game::new(bad, 3, 1).expect_err("refused");
    assert!(
        e.to_string()
            .contains("buying.enabled: there is no discard pile to buy from"),
        "{e}"
    );
    let e = Game::new(preset("klassisch"), 2, 1).expect_err("refused");
    assert_eq!(e.to_string(), "this ruleset is for 3 to 6 players, not 2");
    let e = Game::new(preset("koenigs-solo"), 2, 1).expect_err("refused");
    assert_eq!(e.to_string(), "this ruleset is for one player, not 2");
}

#[test]
fn ohne_auslegen_lays_down_below_10_and_everyone_scores_unmatched_cards_003() {
    let mut g = three(
        "ohne-auslegen",
        [
            "2c 3c 4c 5d 6d 7d 8s 9s 10s Jh Qh Kh 6c",
            "7h 7s 7c 2h 3h 4h 9d 9c 9s Kd Kc Ks 5d",
            "2d 3d 4d 5c 6c 7c 8h 9h 10h Js Qs Ks Qd",
        ],
        "Jd",
        "8c",
    );
    draw(&mut g, 1, "draw 8c");
    let e = refused(
        &mut g,
        1,
        Action::Meld {
            melds: vec![meld("7h 7s 7c")],
            lay_offs: Vec::new(),
        },
    );
    assert_eq!(e, ActionError::MeldsConcealed);
    // Only one set shown: far too much left.
    let e = refused(
        &mut g,
        1,
        Action::LayDown {
            melds: vec![meld("7h 7s 7c")],
            discard: Some(card("8c")),
        },
    );
    assert_eq!(
        e.to_string(),
        "the cards outside your melds count 71: you may lay down below 10"
    );
    let e = refused(
        &mut g,
        1,
        Action::LayDown {
            melds: vec![meld("7h 7s 7c")],
            discard: None,
        },
    );
    assert_eq!(e, ActionError::LayDownNeedsDiscard);
    let events = g
        .apply(
            1,
            Action::LayDown {
                melds: vec![
                    meld("7h 7s 7c"),
                    meld("2h 3h 4h"),
                    meld("9d 9c 9s"),
                    meld("Kd Kc Ks"),
                ],
                discard: Some(card("8c")),
            },
        )
        .expect("5 points left: lays down");
    let ended = events
        .iter()
        .find_map(|e| match e {
            Event::GameEnded {
                reason,
                winner,
                score,
                ..
            } => Some((*reason, *winner, score.clone())),
            _ => None,
        })
        .expect("the game ends");
    assert_eq!(ended.0, EndReason::WentOut);
    assert_eq!(ended.1, Some(1));
    // Seat 1 keeps 5d; the others' best melds leave only 6c and Qd.
    let points: Vec<u32> = ended.2.players.iter().map(|p| p.hand_points).collect();
    assert_eq!(points, vec![6, 5, 10]);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::LaidDown {
            seat: 1,
            kind: romme_engine::LayDownKind::Out,
            ..
        }
    )));
}

#[test]
fn wiener_knock_gives_the_others_one_last_draw_from_the_stock_003() {
    let mut g = three(
        "wiener",
        [
            "2c 3c 4c 5d 6d 7d 8s 9s 10s Kh",
            "7h 7s 7c 2h 3h 4h 9d 9c 9s 3d",
            "2d 3d 4d 5c 6c 7c 8h 9h 10h Ks",
        ],
        "Jd",
        "2c Kc Qc 5h",
    );
    draw(&mut g, 1, "draw 2c");
    let knock = Action::LayDown {
        melds: vec![meld("7h 7s 7c"), meld("2h 3h 4h"), meld("9d 9c 9s")],
        discard: Some(card("3d")),
    };
    let events = g.apply(1, knock).expect("2 points left: knocks");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::LaidDown {
            seat: 1,
            kind: romme_engine::LayDownKind::Knock,
            ..
        }
    )));
    assert!(events.contains(&Event::LastTurns { seats: vec![2, 0] }));
    // The knocker's cards lie open, for every viewer.
    for viewer in [Some(0), Some(2), None] {
        let v = g.view(viewer);
        assert_eq!(v.seats[1].shown, Some(cards("2c")));
        assert_eq!(v.table.len(), 3);
        assert_eq!(v.last_turns.as_ref().map(|l| l.by), Some(1));
    }
    assert_eq!(g.turn(), Some(2));
    let e = refused(
        &mut g,
        2,
        Action::Draw {
            from: DrawSource::Discard,
        },
    );
    assert_eq!(e, ActionError::LastDrawFromStock);
    draw(&mut g, 2, "last draw (Kc)");
    discard(&mut g, 2, "Kc");
    assert_eq!(g.turn(), Some(0));
    draw(&mut g, 0, "last draw (Qc)");
    let events = g
        .apply(0, Action::Discard { card: card("Qc") })
        .expect("last discard");
    let (reason, score) = events
        .iter()
        .find_map(|e| match e {
            Event::GameEnded { reason, score, .. } => Some((*reason, score.clone())),
            _ => None,
        })
        .expect("the game ends after the last turns");
    assert_eq!(reason, EndReason::Knocked);
    let points: Vec<u32> = score.players.iter().map(|p| p.hand_points).collect();
    assert_eq!(points, vec![10, 2, 10]);
    assert_eq!(g.game_number(), 2, "the next game is dealt");
}

#[test]
fn wiener_all_ten_in_melds_ends_at_once_003() {
    let mut g = three(
        "wiener",
        [
            "2c 3c 4c 5d 6d 7d 8s 9s 10s Ac",
            "7h 7s 7c 2h 3h 4h 9d 9c 9s 3d",
            "2d 3d 4d 5c 6c 7c 8h 9h 10h Ad",
        ],
        "Jd",
        "9h",
    );
    draw(&mut g, 1, "draw 9h");
    let events = g
        .apply(
            1,
            Action::LayDown {
                melds: vec![meld("7h 7s 7c"), meld("2h 3h 4h"), meld("9d 9c 9s 9h")],
                discard: Some(card("3d")),
            },
        )
        .expect("all ten in melds");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::GameEnded {
            reason: EndReason::WentOut,
            winner: Some(1),
            ..
        }
    )));
}

#[test]
fn wiener_eliminated_players_are_no_longer_dealt_in_003() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut g = Game::new(preset("wiener"), 3, 11).expect("new");
    for _ in 0..20_000 {
        let Some(seat) = g.turn() else { break };
        let legal = g.legal_actions(seat);
        let downs: Vec<&Action> = legal
            .iter()
            .filter(|a| matches!(a, Action::LayDown { .. }))
            .collect();
        let a = if !downs.is_empty() {
            downs[0].clone()
        } else {
            legal[rng.random_range(0..legal.len())].clone()
        };
        g.apply(seat, a).expect("listed action");
    }
    assert_eq!(g.phase(), Phase::MatchOver, "the match ends");
    let totals = g.sheet().totals();
    let out: Vec<(usize, usize)> = totals
        .iter()
        .enumerate()
        .filter_map(|(s, t)| t.eliminated_after.map(|k| (s, k)))
        .collect();
    assert_eq!(out.len(), 2, "all but one are out: {totals:?}");
    for e in g.events() {
        if let Event::GameStarted { game, players, .. } = e {
            for &(s, k) in &out {
                if *game as usize > k {
                    assert!(
                        !players.contains(&s),
                        "seat {s} out after game {k} plays game {game}"
                    );
                }
            }
        }
    }
    let last_out = out.iter().map(|&(_, k)| k).max().expect("two");
    assert_eq!(
        g.sheet().games().len(),
        last_out,
        "no game after the last elimination"
    );
}

#[test]
fn five_crowns_last_turn_for_everyone_else_and_round_wilds_000() {
    // Round 1: three cards each, the 3s are wild.
    let mut g = three(
        "koenigs",
        ["7h 8h Qs", "5h 5s 9d", "Kh Kc 3d"],
        "10c",
        "5c Js 3s",
    );
    assert_eq!(g.round(), Some(1));
    draw(&mut g, 1, "draw 5c");
    let events = g
        .apply(
            1,
            Action::LayDown {
                melds: vec![meld("5h 5s 5c")],
                discard: Some(card("9d")),
            },
        )
        .expect("goes out");
    assert!(events.contains(&Event::LastTurns { seats: vec![2, 0] }));
    assert_eq!(g.game_number(), 1, "the round is not over yet");
    // Seat 2's last turn: 3d is wild this round, Kh Kc 3d lies down.
    draw(&mut g, 2, "draw Js");
    let events = g
        .apply(
            2,
            Action::LayDown {
                melds: vec![meld("Kh Kc 3d=Ks")],
                discard: Some(card("Js")),
            },
        )
        .expect("a lay-down in the last turn");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::LaidDown {
            seat: 2,
            kind: romme_engine::LayDownKind::Partial,
            ..
        }
    )));
    // Seat 0's last turn: keeps 7h, the wild 3s and Qs (nothing melds).
    draw(&mut g, 0, "draw 3s");
    let events = g
        .apply(0, Action::Discard { card: card("8h") })
        .expect("last discard");
    let score = events
        .iter()
        .find_map(|e| match e {
            Event::GameEnded {
                winner: Some(1),
                score,
                ..
            } => Some(score.clone()),
            _ => None,
        })
        .expect("the round ends with seat 1 out");
    // 7 + 20 (this round's wild) + 12 (queen).
    let points: Vec<u32> = score.players.iter().map(|p| p.hand_points).collect();
    assert_eq!(points, vec![39, 0, 0]);
    // Round 2: four cards each, the 4s are wild.
    assert_eq!(g.round(), Some(2));
    assert!(g.events().iter().any(|e| matches!(
        e,
        Event::GameStarted {
            game: 2,
            hand_size: 4,
            ..
        }
    )));
    let turn = g.turn().expect("running");
    assert_eq!(g.hand(turn).map(<[_]>::len), Some(4));
}

#[test]
fn five_crowns_takes_an_undeclared_wild_card_in_its_first_reading() {
    // Round 1, the 3s wild: 3d in Kh Kc 3d could be any king, and 6h 7h 3c
    // the 5h or the 8h. Melds never change in Five Crowns (no lay-off, no
    // exchange, no opening), so nobody has to say which.
    let mut g = three(
        "koenigs",
        ["7h 8h Qs", "Kh Kc 3d", "6h 7h 3c"],
        "10c",
        "5c Js 3s Qd",
    );
    assert!(!g.rules().declarations_matter());
    draw(&mut g, 1, "draw 5c");
    g.apply(
        1,
        Action::LayDown {
            melds: vec![meld("Kh Kc 3d")],
            discard: Some(card("5c")),
        },
    )
    .expect("the wild 3d is read as a king without being declared");
    let laid = &g.view(None).table[0].cards;
    assert!(
        laid.iter()
            .any(|c| c.card == card("3d") && c.stands_for.is_some()),
        "the table shows what 3d was read as: {laid:?}"
    );
    draw(&mut g, 2, "draw Js");
    g.apply(
        2,
        Action::LayDown {
            melds: vec![meld("6h 7h 3c")],
            discard: Some(card("Js")),
        },
    )
    .expect("a run with an undeclared wild card at either end");
    // Where a declaration matters (klassisch: lay-offs, exchanges, the
    // opening's points) the engine still asks: `joker_exchange_and_declarations`.
    assert!(preset("klassisch").declarations_matter());
}

/// Seat 0 deals; seat 1 begins (four seats).
fn four(rules: Ruleset, hands: [&str; 4], discard: &str, stock: &str) -> Game {
    let deal = Deal {
        hands: hands.iter().map(|h| cards(h)).collect(),
        discard: Some(card(discard)),
        stock: cards(stock),
    };
    Game::with_deal(rules, 4, 7, deal).expect("deal")
}

const H1: &str = "7h 7s 7c Kd Ks 2h 3h 4h 9d 9c 5s 6s Qd";
const H3: &str = "2s 3s 4s 5h 6h 7d 8c 9c 10c Jd Qc Kc Ah";

#[test]
fn buying_gives_the_seats_in_between_the_first_right_002() {
    let mut g = four(preset("kaufen"), [H0, H1, H2, H3], "Jc", "8d 5s 4d 10d");
    draw(&mut g, 1, "draw 8d");
    discard(&mut g, 1, "8d");
    assert_eq!(g.turn(), Some(2));
    // Seat 0 asks first, seat 3 after it.
    let ev = g.apply(0, Action::Buy).expect("seat 0 asks to buy");
    assert_eq!(
        ev,
        vec![Event::BuyAsked {
            seat: 0,
            card: card("8d")
        }]
    );
    assert_eq!(refused(&mut g, 0, Action::Buy), ActionError::AlreadyClaimed);
    assert_eq!(
        refused(&mut g, 1, Action::Buy),
        ActionError::ClaimOwnDiscard
    );
    assert_eq!(refused(&mut g, 2, Action::Buy), ActionError::ClaimOnTurn);
    assert_eq!(
        refused(&mut g, 3, Action::Knock),
        ActionError::KnockingNotPlayed
    );
    g.apply(3, Action::Buy).expect("seat 3 asks to buy");
    let claims = g.view(Some(2)).claims.expect("window open");
    assert_eq!(claims.buyers, vec![0, 3]);
    // Seat 2 lets it pass (draws from the stock): seat 3 sits nearer after
    // the discarder than seat 0, so it buys, with one stock card as price.
    let ev = g
        .apply(
            2,
            Action::Draw {
                from: DrawSource::Stock,
            },
        )
        .expect("draw");
    assert!(ev.contains(&Event::Bought {
        seat: 3,
        card: card("8d")
    }));
    let h3 = g.hand(3).expect("seat 3");
    assert_eq!(h3.len(), 15);
    assert!(h3.iter().any(|c| c.kind() == card("8d")));
    assert!(h3.iter().any(|c| c.kind() == card("4d")), "the price: 4d");
    assert_eq!(g.hand(0).map(<[_]>::len), Some(13));
    assert_eq!(g.turn(), Some(2), "the turn order is unchanged");
    // Everyone saw 8d go into seat 3's hand; nobody saw the stock card.
    assert_eq!(g.view(Some(0)).seats[3].known, cards("8d"));
    assert_eq!(g.view(None).claims, None);
    // The others see the bought card but not the stock card.
    let seen = g
        .events()
        .iter()
        .map(|e| e.for_viewer(Some(0)))
        .filter(|e| matches!(e, Event::Drew { seat: 3, .. }))
        .collect::<Vec<_>>();
    assert_eq!(
        seen,
        vec![Event::Drew {
            seat: 3,
            from: DrawSource::Stock,
            card: None
        }]
    );
    // Taking the discard as one's draw comes first: claims are void.
    discard(&mut g, 2, "5s");
    g.apply(0, Action::Buy).expect("seat 0 asks to buy 5s");
    g.apply(
        3,
        Action::Draw {
            from: DrawSource::Discard,
        },
    )
    .expect("seat 3 takes 5s");
    assert_eq!(g.hand(0).map(<[_]>::len), Some(13), "seat 0 got nothing");
    assert_eq!(g.hand(3).map(<[_]>::len), Some(16));
}

#[test]
fn knocking_skips_the_seats_in_between_003() {
    let mut g = four(preset("klopfen"), [H0, H1, H2, H3], "Jc", "8d 5d 4d 10d");
    draw(&mut g, 1, "draw 8d");
    discard(&mut g, 1, "8d");
    assert_eq!(
        refused(&mut g, 0, Action::Buy),
        ActionError::BuyingNotPlayed
    );
    let ev = g.apply(0, Action::Knock).expect("seat 0 knocks");
    assert!(ev.contains(&Event::Knocked {
        seat: 0,
        card: card("8d"),
        skipped: vec![2, 3],
    }));
    assert_eq!(g.turn(), Some(0));
    assert_eq!(g.phase(), Phase::Play, "the knock is the knocker's draw");
    assert_eq!(
        g.hand(0).map(<[_]>::len),
        Some(16),
        "8d and two stock cards"
    );
    assert_eq!(
        refused(&mut g, 3, Action::Knock),
        ActionError::NoClaimWindow
    );
    discard(&mut g, 0, "8d");
    assert_eq!(g.turn(), Some(1), "play goes on from the knocker");

    // The stricter agreement: only for a card that can be melded at once.
    let mut strict = preset("klopfen");
    strict.knocking.only_if_meldable = true;
    let mut g = four(strict, [H0, H1, H2, H3], "Jc", "8d 5d 4d 10d");
    draw(&mut g, 1, "draw 8d");
    discard(&mut g, 1, "8d");
    // Seat 3 (7d 8c, no other 8 or 9d) cannot meld 8d.
    let e = refused(&mut g, 3, Action::Knock);
    assert_eq!(
        e.to_string(),
        "you may knock only for a card you can meld at once, and 8d does not fit your hand"
    );
    // Seat 0 can: 5d 6d 7d 8d opens with its other runs (62 points) ...
    g.apply(0, Action::Knock).expect("seat 0 knocks");
    // ... and must meld 8d before it discards.
    let e = refused(&mut g, 0, Action::Discard { card: card("Kh") });
    assert_eq!(e, ActionError::MustMeldTaken(card("8d")));
    g.apply(
        0,
        Action::Meld {
            melds: vec![meld("2c 3c 4c"), meld("5d 6d 7d 8d"), meld("8s 9s 10s")],
            lay_offs: Vec::new(),
        },
    )
    .expect("opens with 8d");
    discard(&mut g, 0, "Kh");
    assert_eq!(g.turn(), Some(1));
}

const REARRANGER: &str = "Kh Ks Kc 5h 6h 7h 8h 8d 8c 8s 4h 2c 3d";

/// Seat 1 draws Qd and opens with Kh Ks Kc, 5h-8h and 8d 8c 8s (80).
fn opened_table(rules: &str) -> Game {
    let mut g = three(rules, [H0, REARRANGER, H2], "Jd", "Qd");
    draw(&mut g, 1, "draw Qd");
    if rules == "offen" {
        let e = refused(
            &mut g,
            1,
            Action::Rearrange {
                table: vec![meld("4h 5h 6h")],
            },
        );
        assert_eq!(
            e.to_string(),
            "you may change the table only after your opening"
        );
    }
    g.apply(
        1,
        Action::Meld {
            melds: vec![meld("Kh Ks Kc"), meld("5h 6h 7h 8h"), meld("8d 8c 8s")],
            lay_offs: Vec::new(),
        },
    )
    .expect("opens");
    g
}

/// 4h starts the run; 8h moves from the run to the set.
fn moved_eight() -> Action {
    Action::Rearrange {
        table: vec![meld("Kh Ks Kc"), meld("4h 5h 6h 7h"), meld("8h 8d 8c 8s")],
    }
}

#[test]
fn free_rearrangement_keeps_every_table_card_001() {
    let mut g = opened_table("offen");
    let e = refused(
        &mut g,
        1,
        Action::Rearrange {
            table: vec![meld("Kh Ks Kc"), meld("4h 5h 6h 7h"), meld("8h 8d 8c")],
        },
    );
    assert_eq!(
        e.to_string(),
        "8s is on the table but not in your new table: table cards stay on the table"
    );
    let e = refused(
        &mut g,
        1,
        Action::Rearrange {
            table: vec![meld("Kh Ks Kc"), meld("5h 6h 7h 8h"), meld("8d 8c 8s")],
        },
    );
    assert_eq!(e, ActionError::RearrangeNothingPlaced);
    let e = refused(
        &mut g,
        1,
        Action::Rearrange {
            table: vec![meld("Kh Ks Kc 2c"), meld("5h 6h 7h 8h"), meld("8d 8c 8s")],
        },
    );
    assert!(matches!(e, ActionError::InvalidMeld { .. }), "{e}");
    let ev = g.apply(1, moved_eight()).expect("free rearrangement");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Rearranged { seat: 1, placed, table } if *placed == cards("4h") && table.len() == 3
    )));
    assert_eq!(g.view(None).table[2].cards[..], meld("8c 8d 8h 8s")[..]);
    assert_eq!(g.view(Some(1)).hand, Some(cards("2c 3d Qd")));

    // "Was liegt, das liegt" (`004`, and klassisch): no rearranging.
    let mut g = opened_table("club");
    let e = refused(&mut g, 1, moved_eight());
    assert!(e.to_string().contains("was liegt, das liegt"), "{e}");
}

#[test]
fn robbing_needs_an_own_card_in_every_new_meld_003() {
    // 8h taken from the run joins the set without a card from the hand.
    let mut g = opened_table("raeuber");
    let e = refused(&mut g, 1, moved_eight());
    assert_eq!(
        e.to_string(),
        "robbed cards must be melded again with a card from your hand: 8c 8d 8h 8s"
    );
    // 003's example: a set of four robbed and melded again with two own
    // cards as two sets of three (each holding an own card).
    let mut g = three(
        "raeuber",
        [
            H0,
            "7h 7s 7c 7d Kh Ks Kc 7h 7c 2s 4d 9c Jd",
            "2d 3d 4d 5c 6c 8c 8h 9h 10h Js Qs Ks Ad",
        ],
        "Qh",
        "3c",
    );
    draw(&mut g, 1, "draw 3c");
    g.apply(
        1,
        Action::Meld {
            melds: vec![meld("7h 7s 7c 7d"), meld("Kh Ks Kc")],
            lay_offs: Vec::new(),
        },
    )
    .expect("opens with 58");
    g.apply(
        1,
        Action::Rearrange {
            table: vec![meld("7h 7s 7c"), meld("7d 7c 7h"), meld("Kh Ks Kc")],
        },
    )
    .expect("robbed and melded again with own cards");
    assert_eq!(g.view(Some(1)).hand, Some(cards("3c 9c 4d Jd 2s")));
    // What remains of a meld must stay valid: 4d can not take 7d's place.
    let e = refused(
        &mut g,
        1,
        Action::Rearrange {
            table: vec![meld("7h 7s"), meld("7d 7c 7h 7c"), meld("Kh Ks Kc")],
        },
    );
    assert!(e.to_string().contains("7h 7s"), "{e}");
}

#[test]
fn without_a_discard_pile_who_plays_need_not_draw_001() {
    let mut rules = preset("offen");
    rules.turn.discard_pile = false;
    let deal = Deal {
        hands: vec![cards(H0), cards(REARRANGER), cards(H2)],
        discard: None,
        stock: cards("Qd 9h"),
    };
    let mut g = Game::with_deal(rules.clone(), 3, 7, deal.clone()).expect("deal");
    assert!(g.view(None).discard.is_empty(), "no card is turned up");
    // Seat 1 plays at once, without drawing, and ends the turn.
    g.apply(
        1,
        Action::Meld {
            melds: vec![meld("Kh Ks Kc")],
            lay_offs: Vec::new(),
        },
    )
    .expect("plays without drawing");
    let e = refused(&mut g, 1, Action::Discard { card: card("2c") });
    assert_eq!(e, ActionError::NoDiscardPile);
    g.apply(1, Action::EndTurn).expect("ends the turn");
    // Seat 2 cannot play and draws: that ends its turn.
    let e = refused(
        &mut g,
        2,
        Action::Draw {
            from: DrawSource::Discard,
        },
    );
    assert_eq!(e, ActionError::NoDiscardPile);
    assert_eq!(
        refused(&mut g, 2, Action::EndTurn),
        ActionError::MustDrawFirst
    );
    draw(&mut g, 2, "draw Qd");
    assert_eq!(g.turn(), Some(0), "drawing ended seat 2's turn");
    assert_eq!(g.hand(2).map(<[_]>::len), Some(14));
    // With a discard pile, a turn ends with a discard.
    let mut g = three("offen", [H0, REARRANGER, H2], "Jd", "Qd");
    draw(&mut g, 1, "draw");
    assert_eq!(
        refused(&mut g, 1, Action::EndTurn),
        ActionError::EndTurnNeedsDiscard
    );
    // An explicit deal cannot turn a card up without a discard pile.
    let bad = Deal {
        discard: Some(card("Jd")),
        ..deal
    };
    let e = Game::with_deal(rules, 3, 7, bad).expect_err("refused");
    assert!(e.to_string().contains("no discard pile"), "{e}");
}

#[test]
fn a_split_stock_lets_the_player_choose_a_pile_001() {
    let mut rules = preset("klassisch");
    rules.stock.piles = 3;
    let deal = Deal {
        hands: vec![cards(H0), cards(REARRANGER), cards(H2)],
        discard: Some(card("Jd")),
        stock: Vec::new(),
    };
    let mut g = Game::with_deal(rules, 3, 7, deal).expect("deal");
    let v = g.view(None);
    assert_eq!(v.stock_piles.len(), 3);
    assert_eq!(v.stock_piles.iter().sum::<usize>(), v.stock);
    assert!(
        v.stock_piles.iter().max().unwrap_or(&0) - v.stock_piles.iter().min().unwrap_or(&0) <= 1
    );
    let e = refused(
        &mut g,
        1,
        Action::Draw {
            from: DrawSource::Pile(3),
        },
    );
    assert_eq!(e.to_string(), "there is no stock pile 3 (the stock has 3)");
    // The top of pile 2 is the stock's last card.
    let top = *g.stock().last().expect("stock");
    g.apply(
        1,
        Action::Draw {
            from: DrawSource::Pile(2),
        },
    )
    .expect("draw from pile 2");
    assert!(g.hand(1).expect("hand").contains(&top));
    let after = g.view(None).stock_piles;
    assert_eq!(after[2] + 1, v.stock_piles[2]);
    assert_eq!(after[..2], v.stock_piles[..2]);
    // Others see that seat 1 drew from pile 2, not the card.
    let seen: Vec<Event> = g
        .events()
        .iter()
        .map(|e| e.for_viewer(Some(0)))
        .filter(|e| matches!(e, Event::Drew { .. }))
        .collect();
    assert_eq!(
        seen,
        vec![Event::Drew {
            seat: 1,
            from: DrawSource::Pile(2),
            card: None
        }]
    );
}

#[test]
fn solo_patience_closes_complete_hands_000() {
    let deal = Deal {
        hands: vec![cards("5h 5s 9d")],
        discard: None,
        stock: cards("5c"),
    };
    let mut g = Game::with_deal(preset("koenigs-solo"), 1, 4, deal).expect("deal");
    let v = g.view(Some(0));
    let p = v.patience.expect("a patience");
    assert_eq!(p.hands.len(), 11);
    let mut first = p.hands[0].clone();
    first.sort_unstable();
    let mut want = cards("5h 5s 9d");
    want.sort_unstable();
    assert_eq!(first, want);
    for (i, h) in p.hands.iter().enumerate() {
        assert!(h.len() == i + 3 || p.closed[i].is_some(), "hand {i}");
    }
    draw(&mut g, 0, "turn over 5c");
    let place = |hand, out: &str| Action::Place {
        hand,
        out: card(out),
    };
    assert_eq!(
        refused(&mut g, 0, place(11, "9d")),
        ActionError::NoSuchHand(11)
    );
    assert_eq!(
        refused(&mut g, 0, place(0, "Kh")).to_string(),
        "Kh is neither in hand 0 nor the card you drew"
    );
    let ev = g.apply(0, place(0, "9d")).expect("5c in, 9d out");
    assert!(ev.contains(&Event::Placed {
        hand: 0,
        out: card("9d")
    }));
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::HandClosed { hand: 0, .. }))
    );
    assert!(
        g.view(None).discard.contains(&card("9d")),
        "9d left the game"
    );
    if g.phase() != Phase::MatchOver {
        draw(&mut g, 0, "next card");
        assert_eq!(
            refused(&mut g, 0, place(0, "5h")),
            ActionError::HandClosed(0)
        );
    }
    assert_eq!(
        refused(&mut g, 0, Action::Discard { card: card("5h") }),
        ActionError::NotInPatience
    );
}

#[test]
fn a_lay_off_can_complete_the_opening_002_and_own_melds_only() {
    let seat2 = "2d 3d 4d 5c 6c 7c 8h 9h 10h Js Qs Ks Kd";
    let opening = Action::Meld {
        melds: vec![meld("8h 9h 10h")],
        lay_offs: vec![romme_engine::LayOffPart {
            meld: 0,
            cards: meld("Kd"),
        }],
    };
    for (rules, accepted) in [("anlegen", true), ("bieten", false)] {
        let mut g = three(rules, [H0, REARRANGER, seat2], "Jd", "Qd 9s");
        draw(&mut g, 1, "draw Qd");
        g.apply(
            1,
            Action::Meld {
                melds: vec![meld("Kh Ks Kc")],
                lay_offs: Vec::new(),
            },
        )
        .expect("30 opens");
        discard(&mut g, 1, "2c");
        draw(&mut g, 2, "draw 9s");
        // 27 in the run; Kd laid off on seat 1's kings adds 10.
        if accepted {
            let ev = g.apply(2, opening.clone()).expect("27 + 10 opens");
            assert!(ev.iter().any(|e| matches!(
                e,
                Event::Melded {
                    opening: Some(37),
                    ..
                }
            )));
        } else {
            let e = refused(&mut g, 2, opening.clone());
            assert!(e.to_string().contains("only on your own melds"), "{e}");
            let e = refused(
                &mut g,
                2,
                Action::Meld {
                    melds: vec![meld("8h 9h 10h")],
                    lay_offs: Vec::new(),
                },
            );
            assert!(e.to_string().contains("27"), "{e}");
        }
    }
}

#[test]
fn joker_exchange_ends_the_plays_001() {
    let seat1 = "Kh Ks * Kc 5h 6h 7h 8d 8c 8s 4h 2c 3d";
    let mut g = three("offen", [H0, seat1, H2], "Jd", "Qd");
    draw(&mut g, 1, "draw Qd");
    g.apply(
        1,
        Action::Meld {
            melds: vec![meld("Kh Ks *=Kc")],
            lay_offs: Vec::new(),
        },
    )
    .expect("30 opens");
    g.apply(
        1,
        Action::ExchangeJoker {
            meld: 0,
            card: card("Kc"),
        },
    )
    .expect("Kc for the joker");
    let e = refused(
        &mut g,
        1,
        Action::Meld {
            melds: vec![meld("8d 8c 8s")],
            lay_offs: Vec::new(),
        },
    );
    assert_eq!(e, ActionError::PlaysEnded);
    discard(&mut g, 1, "2c");
    assert_eq!(g.turn(), Some(2));
}

#[test]
fn a_freed_joker_must_be_melded_and_jokers_are_not_discarded_004() {
    let seat1 = "Kh Ks Kd * Kc 5h 6h 7h 8d 8c 8s 2c 4s";
    let mut g = three("club", [H0, seat1, H2], "Jd", "9c");
    draw(&mut g, 1, "draw 9c");
    assert_eq!(
        refused(&mut g, 1, Action::Discard { card: card("*") }),
        ActionError::JokerDiscard
    );
    g.apply(
        1,
        Action::Meld {
            melds: vec![meld("Kh Ks Kd *=Kc")],
            lay_offs: Vec::new(),
        },
    )
    .expect("40 opens");
    g.apply(
        1,
        Action::ExchangeJoker {
            meld: 0,
            card: card("Kc"),
        },
    )
    .expect("a set of four: Kc for the joker");
    assert_eq!(
        refused(&mut g, 1, Action::Discard { card: card("2c") }),
        ActionError::MustMeldFreedJoker
    );
    g.apply(
        1,
        Action::Meld {
            melds: vec![meld("5h 6h 7h *=8h")],
            lay_offs: Vec::new(),
        },
    )
    .expect("the freed joker is melded again");
    discard(&mut g, 1, "2c");
}

/// Every seat draws and throws the drawn card away until the stock is
/// empty; the events of the whole run.
fn draw_until_the_stock_is_empty(g: &mut Game) -> Vec<Event> {
    let mut all = Vec::new();
    for _ in 0..400 {
        let Some(seat) = g.turn() else { break };
        let ev = g
            .apply(
                seat,
                Action::Draw {
                    from: DrawSource::Stock,
                },
            )
            .expect("draw");
        let drawn = ev.iter().find_map(|e| match e {
            Event::Drew { card: Some(c), .. } => Some(*c),
            _ => None,
        });
        let reshuffled = ev
            .iter()
            .any(|e| matches!(e, Event::StockReshuffled { .. }));
        all.extend(ev);
        if reshuffled {
            break;
        }
        let Some(mut c) = drawn else { break };
        if c.is_joker() {
            // Jokers may not be discarded under club rules: throw another.
            let other = g
                .hand(seat)
                .and_then(|h| h.iter().find(|x| !x.is_joker()).copied());
            c = other.expect("a natural card").kind();
        }
        let ev = g.apply(seat, Action::Discard { card: c }).expect("discard");
        let over = ev
            .iter()
            .any(|e| matches!(e, Event::StockReshuffled { .. } | Event::GameEnded { .. }));
        all.extend(ev);
        if over {
            break;
        }
    }
    all
}

#[test]
fn an_empty_stock_ends_the_game_004_or_is_reshuffled_000() {
    // Club rules: the game ends without a winner when a turn would begin
    // with an empty stock, and everyone scores.
    let mut g = three("club", [H0, REARRANGER, H2], "Jd", "");
    let ev = draw_until_the_stock_is_empty(&mut g);
    let ended = ev.iter().find_map(|e| match e {
        Event::GameEnded { reason, winner, .. } => Some((*reason, *winner)),
        _ => None,
    });
    assert_eq!(ended, Some((EndReason::StockExhausted, None)));
    // Klassisch: the discard pile without its top card becomes the stock.
    let mut g = three("klassisch", [H0, REARRANGER, H2], "Jd", "");
    let before = g.view(None).stock;
    let mut ev = draw_until_the_stock_is_empty(&mut g);
    if !ev
        .iter()
        .any(|e| matches!(e, Event::StockReshuffled { .. }))
    {
        // The last card was drawn; the next draw reshuffles.
        let seat = g.turn().expect("running");
        ev = g
            .apply(
                seat,
                Action::Draw {
                    from: DrawSource::Stock,
                },
            )
            .expect("draw from the reshuffled stock");
    }
    let cards = ev.iter().find_map(|e| match e {
        Event::StockReshuffled { cards } => Some(*cards),
        _ => None,
    });
    // Jd and every discarded stock card but the top one.
    assert_eq!(cards, Some(before));
    assert_eq!(g.view(None).discard.len(), 1);
    assert_eq!(
        g.view(None).stock,
        before - 1,
        "one card drawn from the new stock"
    );
}

#[test]
fn the_card_taken_to_be_melded_is_the_one_melded_not_its_twin() {
    // Seat 1 holds a 9h and takes the other 9h from the discard pile, which
    // Räuber rules say must be melded at once; the meld uses "9h".
    let seat1 = "9h 9c 9s Kh Ks Kc 2c 4d 6s 8c Jd Qs 3h";
    let seat2 = "2d 3d 4d 5c 6c 7c 8h 10h Js Qs Ks Ad 7s";
    let mut g = three("raeuber", [H0, seat1, seat2], "9h", "5d");
    g.apply(
        1,
        Action::Draw {
            from: DrawSource::Discard,
        },
    )
    .expect("9h can be melded at once");
    g.apply(
        1,
        Action::Meld {
            melds: vec![meld("9c 9h 9s"), meld("Kh Ks Kc")],
            lay_offs: Vec::new(),
        },
    )
    .expect("opens with 57");
    // The obligation is met although a 9h is still in the hand.
    discard(&mut g, 1, "2c");
    assert_eq!(g.turn(), Some(2));
}

#[test]
fn a_taken_card_is_melded_from_the_hand_not_by_its_twin_on_the_table() {
    // Seat 1 opens with 8d 8c 8s among others; later it takes the other 8s
    // from the discard pile. A rearrangement that only lays off 4h keeps
    // the table's 8s where it was: it does not meld the taken card (found
    // by the long random run of Räuber).
    let seat1 = "Kh Ks Kc 5h 6h 7h 8d 8c 8s 4h 9s 10s 2c";
    let mut g = three("raeuber", [H0, seat1, H2], "Jd", "Qd 3c 5d");
    draw(&mut g, 1, "draw Qd");
    g.apply(
        1,
        Action::Meld {
            melds: vec![meld("Kh Ks Kc"), meld("5h 6h 7h"), meld("8d 8c 8s")],
            lay_offs: Vec::new(),
        },
    )
    .expect("opens with 72");
    discard(&mut g, 1, "Qd");
    draw(&mut g, 2, "draw 3c");
    discard(&mut g, 2, "3c");
    draw(&mut g, 0, "draw 5d");
    discard(&mut g, 0, "8s");
    g.apply(
        1,
        Action::Draw {
            from: DrawSource::Discard,
        },
    )
    .expect("8s can be melded with 9s 10s");
    let e = refused(
        &mut g,
        1,
        Action::Rearrange {
            table: vec![meld("Kh Ks Kc"), meld("4h 5h 6h 7h"), meld("8d 8c 8s")],
        },
    );
    assert_eq!(e, ActionError::MustMeldTaken(card("8s")));
    assert!(g.legal_actions(1).iter().any(|a| matches!(
        a,
        Action::Meld { melds, .. } if melds == &vec![meld("8s 9s 10s")]
    )));
    g.apply(
        1,
        Action::Meld {
            melds: vec![meld("8s 9s 10s")],
            lay_offs: Vec::new(),
        },
    )
    .expect("melds the taken card");
    discard(&mut g, 1, "2c");
}

#[test]
fn openings_with_the_taken_card_are_listed_highest_first() {
    // Räuber, seat 1 has not opened and holds two jokers: the turned-up 5s
    // opens only with Kc * * (30) and 5c 5h 5s (15). Every listed opening
    // holds the taken card, and the best comes first (the listing once
    // spent its search on low-value joker combinations without 5s and left
    // a player stuck with a taken card).
    let seat1 = "2c 5c Kc 2d 3d 7d 7s Qd 4h 5h 8s * *";
    let mut g = three("raeuber", [H0, seat1, H2], "5s", "Qd");
    g.apply(
        1,
        Action::Draw {
            from: DrawSource::Discard,
        },
    )
    .expect("5s can be melded at once");
    let openings: Vec<Action> = g
        .legal_actions(1)
        .into_iter()
        .filter(|a| matches!(a, Action::Meld { .. }))
        .collect();
    assert!(!openings.is_empty(), "no opening listed");
    for a in &openings {
        let Action::Meld { melds, .. } = a else {
            unreachable!()
        };
        assert!(
            melds.iter().flatten().any(|c| c.card == card("5s")),
            "an opening without the taken card: {a:?}"
        );
    }
    let first = openings[0].clone();
    g.apply(1, first).expect("the listed opening is accepted");
    assert!(g.view(Some(1)).seats[1].opened);
}

/// Plays refused late in their checks — after their melds were read and
/// their cards taken from the hand — leave the game as it was. The engine
/// makes every check of a play before it changes anything (no copy of the
/// game is tried), so this is what keeps a refusal harmless.
#[test]
fn plays_refused_late_change_nothing() {
    let mut g = three(
        "klassisch",
        [H0, "2h 3h 4h 5c 5d 5s 9c 9d 9h Qs Kd 7c 8s", H2],
        "Jd",
        "8c",
    );
    draw(&mut g, 1, "draw 8c");
    // Two valid melds, 24 points: too few for the 40-point opening.
    let e = refused(
        &mut g,
        1,
        Action::Meld {
            melds: vec![meld("2h 3h 4h"), meld("5c 5d 5s")],
            lay_offs: Vec::new(),
        },
    );
    assert!(
        matches!(
            e,
            ActionError::Opening(romme_core::opening::OpeningError::TooFewPoints {
                needed: 40,
                have: 24
            })
        ),
        "{e}"
    );
    // A valid meld, then a lay-off onto a meld that is not there.
    let e = refused(
        &mut g,
        1,
        Action::Meld {
            melds: vec![meld("2h 3h 4h")],
            lay_offs: vec![romme_engine::LayOffPart {
                meld: 5,
                cards: meld("5h"),
            }],
        },
    );
    assert_eq!(e, ActionError::NoSuchMeld(5));
    // A valid meld, then a lay-off of a card onto that new meld that
    // does not fit it.
    let e = refused(
        &mut g,
        1,
        Action::Meld {
            melds: vec![meld("2h 3h 4h")],
            lay_offs: vec![romme_engine::LayOffPart {
                meld: 0,
                cards: meld("9c"),
            }],
        },
    );
    assert!(matches!(e, ActionError::InvalidLayOff { .. }), "{e}");
    // The same melds with a third reach 51 points and open.
    g.apply(
        1,
        Action::Meld {
            melds: vec![meld("2h 3h 4h"), meld("5c 5d 5s"), meld("9c 9d 9h")],
            lay_offs: Vec::new(),
        },
    )
    .expect("opening with 51 points");
    assert_eq!(g.table_melds().len(), 3);
    assert!(g.has_opened(1));
}
