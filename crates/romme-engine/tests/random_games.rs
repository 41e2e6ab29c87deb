//! Thousands of random legal games per playable preset: no card is ever
//! created or lost, no view or filtered event shows another seat's hidden
//! cards, a refused action changes nothing, and the record replays exactly.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use romme_core::ruleset::{Ruleset, presets};
use romme_core::{CardKind, MeldCard};
use romme_engine::{Action, DrawSource, Event, Game, Phase, Record};

/// Rulesets under test: every preset, and variations no preset uses (no
/// discard pile, a split stock).
fn rulesets() -> Vec<Ruleset> {
    let mut out: Vec<Ruleset> = presets::NAMES
        .iter()
        .filter_map(|name| presets::load(name).and_then(Result::ok))
        .collect();
    if let Some(Ok(mut r)) = presets::load("offen") {
        r.name = "offen-ohne-ablage".into();
        r.turn.discard_pile = false;
        out.push(r);
    }
    if let Some(Ok(mut r)) = presets::load("klassisch") {
        r.name = "klassisch-drei-stapel".into();
        r.stock.piles = 3;
        out.push(r);
    }
    out
}

/// Rulesets this engine version plays, with their seat counts.
pub fn playable() -> Vec<(Ruleset, usize)> {
    let mut out = Vec::new();
    for rules in rulesets() {
        for seats in [1usize, 2, 3, 4] {
            if Game::new(rules.clone(), seats, 1).is_ok() {
                out.push((rules.clone(), seats));
            }
        }
    }
    out
}

/// A random policy that prefers putting cards down (so games end).
fn pick(game: &Game, seat: usize, rng: &mut ChaCha8Rng) -> Option<Action> {
    let legal = game.legal_actions(seat);
    if legal.is_empty() {
        return None;
    }
    let plays: Vec<&Action> = legal
        .iter()
        .filter(|a| {
            matches!(
                a,
                Action::Meld { .. }
                    | Action::LayOff { .. }
                    | Action::LayDown { .. }
                    | Action::Rearrange { .. }
            )
        })
        .collect();
    if !plays.is_empty() && rng.random_bool(0.9) {
        return Some(plays[rng.random_range(0..plays.len())].clone());
    }
    Some(legal[rng.random_range(0..legal.len())].clone())
}

/// Actions that are usually illegal now.
fn mischief(game: &Game, rng: &mut ChaCha8Rng) -> (usize, Action) {
    let seat = rng.random_range(0..game.seats() + 1);
    let card: CardKind = "Kh".parse().expect("card");
    let action = match rng.random_range(0..6) {
        0 => Action::Draw {
            from: DrawSource::Discard,
        },
        1 => Action::Discard { card },
        2 => Action::Meld {
            melds: vec![vec![MeldCard::plain(card); 3]],
            lay_offs: Vec::new(),
        },
        3 => Action::LayOff {
            meld: 99,
            cards: vec![MeldCard::plain(card)],
        },
        4 => Action::ExchangeJoker { meld: 0, card },
        _ => Action::Draw {
            from: DrawSource::Stock,
        },
    };
    (seat, action)
}

fn check_views(game: &Game) {
    for s in 0..game.seats() {
        let v = game.view(Some(s));
        let own: Vec<CardKind> = game
            .hand(s)
            .expect("seat")
            .iter()
            .map(|c| c.kind())
            .collect();
        assert_eq!(v.hand.as_deref(), Some(own.as_slice()));
        // Nothing but counts of the other hands: the JSON has exactly one hand.
        let json = serde_json::to_value(&v).expect("json");
        assert_eq!(json["hand"].as_array().map(Vec::len), Some(own.len()));
        for e in game.events() {
            match e.for_viewer(Some(s)) {
                Event::Dealt { seat, cards, .. } if seat != s => assert!(cards.is_none()),
                Event::Drew {
                    seat,
                    from: DrawSource::Stock,
                    card,
                } if seat != s => assert!(card.is_none()),
                _ => {}
            }
        }
    }
    // A seat's searchable state shows what its view shows, holds none of
    // the hidden cards, and every determinization of it looks the same
    // from that seat and conserves the deck.
    let mut rng = ChaCha8Rng::seed_from_u64(game.actions().len() as u64);
    for s in 0..game.seats() {
        let state = game.seat_state(s);
        assert_eq!(state.view(), game.view(Some(s)));
        assert_eq!(state.legal_actions(), game.legal_actions(s));
        let hidden: usize = (0..game.seats()).map(|o| state.hidden_cards(o)).sum();
        assert_eq!(state.unseen().len(), hidden + game.stock().len());
        let sample = state.determinize(&mut rng);
        game.rules()
            .deck
            .check_conservation(sample.all_cards())
            .expect("a determinization conserves the deck");
        assert!(
            sample.seat_state(s) == state,
            "a determinization looks different from seat {s}"
        );
    }
    let spectator = game.view(None);
    assert!(spectator.hand.is_none());
    // Everything public is the same for every viewer: only the hand differs.
    for s in 0..game.seats() {
        let mut v = game.view(Some(s));
        v.seat = None;
        v.hand = None;
        assert_eq!(
            v, spectator,
            "seat {s} and a spectator see different public state"
        );
    }
    // A seat that laid down shows what it kept (concealed play); cards known
    // to be in a hand are in it.
    for info in &spectator.seats {
        let mut hand: Vec<CardKind> = game
            .hand(info.seat)
            .expect("seat")
            .iter()
            .map(|c| c.kind())
            .collect();
        for k in &info.known {
            let i = hand
                .iter()
                .position(|h| h == k)
                .expect("a known card is in the hand");
            hand.remove(i);
        }
        if let Some(shown) = &info.shown {
            let hand: Vec<CardKind> = game
                .hand(info.seat)
                .expect("seat")
                .iter()
                .map(|c| c.kind())
                .collect();
            assert_eq!(shown, &hand);
        }
    }
    // The table holds exactly the table's cards: all cards minus hands,
    // stock and discard pile (and the patience's open hands).
    let on_table: usize = spectator.table.iter().map(|m| m.cards.len()).sum();
    let in_hands: usize = (0..game.seats())
        .map(|s| game.hand(s).map_or(0, <[_]>::len))
        .sum();
    let patience: usize = spectator
        .patience
        .as_ref()
        .map_or(0, |p| p.hands.iter().map(Vec::len).sum());
    assert_eq!(
        on_table,
        game.all_cards().len() - in_hands - spectator.stock - spectator.discard.len() - patience
    );
}

fn play(rules: &Ruleset, seats: usize, seed: u64, max_actions: usize) -> (Game, bool) {
    let name = rules.name.clone();
    let deck = rules.deck;
    let rules = rules.clone();
    let mut game = Game::new(rules, seats, seed).expect("new");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for step in 0..max_actions {
        if game.phase() == Phase::MatchOver {
            return (game, true);
        }
        // A refused action changes nothing.
        let (s, a) = mischief(&game, &mut rng);
        let before = game.clone();
        if game.apply(s, a).is_err() {
            assert!(game == before, "a refused action changed the game");
        } else {
            deck.check_conservation(game.all_cards())
                .expect("conservation");
        }
        // Out of turn: sometimes a seat buys or knocks.
        if rng.random_bool(0.3) {
            let other = rng.random_range(0..game.seats());
            if Some(other) != game.turn() {
                let claims = game.legal_actions(other);
                if let Some(a) = claims.first() {
                    assert!(a.out_of_turn(), "listed for a seat not on turn: {a:?}");
                    game.apply(other, a.clone())
                        .unwrap_or_else(|e| panic!("listed claim {a:?} refused: {e}"));
                    deck.check_conservation(game.all_cards())
                        .expect("conservation");
                }
            }
        }
        let Some(seat) = game.turn() else {
            return (game, true);
        };
        let Some(action) = pick(&game, seat, &mut rng) else {
            if let Ok(json) = serde_json::to_string(&Record::of(&game)) {
                let _ = std::fs::write("/tmp/stuck.json", json);
            }
            panic!(
                "{name}, {seats} seats, seed {seed}: seat {seat} has no legal action at step {step}: {:?}",
                game.view(Some(seat))
            );
        };
        game.apply(seat, action.clone())
            .unwrap_or_else(|e| panic!("listed action {action:?} refused: {e}"));
        deck.check_conservation(game.all_cards())
            .expect("conservation");
        if step % 25 == 0 {
            check_views(&game);
        }
    }
    (game, false)
}

#[test]
fn the_classic_presets_are_playable() {
    let names: Vec<String> = playable().into_iter().map(|(r, _)| r.name).collect();
    for must in [
        "klassisch",
        "bieten",
        "anlegen",
        "club",
        "ohne-auslegen",
        "wiener",
        "koenigs",
        "kaufen",
        "klopfen",
        "offen",
        "raeuber",
        "offen-ohne-ablage",
        "klassisch-drei-stapel",
        "koenigs-solo",
    ] {
        assert!(
            names.iter().any(|n| n == must),
            "{must} not playable: {names:?}"
        );
    }
}

/// Play 40 matches per playable (preset, seats) of one share of the list
/// (the list is split so that the test harness runs the shares in
/// parallel).
fn finish_and_replay(share: usize, of: usize) {
    let mut finished = 0;
    let mut total = 0;
    for (i, (rules, seats)) in playable().into_iter().enumerate() {
        let name = &rules.name;
        if i % of != share {
            continue;
        }
        for seed in 0..40u64 {
            let (game, done) = play(&rules, seats, seed * 31 + seats as u64, 3000);
            total += 1;
            finished += usize::from(done);
            let replayed = Record::of(&game).replay().expect("replays");
            assert!(replayed == game, "{name}: replay differs");
        }
    }
    assert!(
        finished * 10 >= total * 9,
        "only {finished} of {total} matches finished"
    );
}

#[test]
fn random_games_finish_and_replay_1() {
    finish_and_replay(0, 3);
}

#[test]
fn random_games_finish_and_replay_2() {
    finish_and_replay(1, 3);
}

#[test]
fn random_games_finish_and_replay_3() {
    finish_and_replay(2, 3);
}

/// The long run (`cargo test --release -p romme-engine --test random_games
/// -- --ignored`): 1000 matches per playable (ruleset, seats).
#[test]
#[ignore = "long: run in release"]
fn thousands_of_random_games() {
    // `ROMME_ONLY=raeuber` (or `raeuber:3`) limits the run to one ruleset
    // (and seat count).
    let only = std::env::var("ROMME_ONLY").unwrap_or_default();
    for (rules, seats) in playable() {
        if !only.is_empty() && only != rules.name && only != format!("{}:{seats}", rules.name) {
            continue;
        }
        let t0 = std::time::Instant::now();
        let mut games = 0usize;
        let mut finished = 0usize;
        for seed in 0..1000u64 {
            let (game, done) = play(&rules, seats, seed * 7919 + 1, 20_000);
            finished += usize::from(done);
            if !done {
                println!(
                    "{} seats {seats}: seed {} did not finish in 20000 actions (phase {:?}, stock {}, discard {})",
                    rules.name,
                    seed * 7919 + 1,
                    game.phase(),
                    game.stock().len(),
                    game.view(None).discard.len()
                );
            }
            games += game.sheet().games().len();
            if seed % 50 == 0 {
                let replayed = Record::of(&game).replay().expect("replays");
                assert!(replayed == game, "{}: replay differs", rules.name);
            }
        }
        println!(
            "{:<22} seats {seats}: 1000 matches, {games} games, {finished} finished, {:.1} s",
            rules.name,
            t0.elapsed().as_secs_f64()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn any_seed_keeps_the_invariants(seed in any::<u64>(), which in 0usize..64) {
        let all = playable();
        let (rules, seats) = &all[which % all.len()];
        let (game, _) = play(rules, *seats, seed, 600);
        let json = serde_json::to_string(&Record::of(&game)).expect("record");
        let back: Record = serde_json::from_str(&json).expect("record parses");
        prop_assert!(back.replay().expect("replays") == game);
    }
}

/// Look at one long match (`ROMME_SEED=… ROMME_ONLY=name:seats`).
#[test]
#[ignore = "diagnosis"]
fn one_long_match() {
    let only = std::env::var("ROMME_ONLY").unwrap_or_default();
    let seed: u64 = std::env::var("ROMME_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    for (rules, seats) in playable() {
        if only != format!("{}:{seats}", rules.name) {
            continue;
        }
        let (game, _) = play(&rules, seats, seed, 20_000);
        // The last 40 actions, or all of a shorter match.
        let from = game.actions().len().saturating_sub(40);
        for (s, a) in &game.actions()[from..] {
            println!("{s}: {a:?}");
        }
        println!("{:?}", game.view(None).stock_piles);
    }
}

/// How often each action of `legal` comes up in `draws` calls of
/// `random_legal_action` for `seat` (each must be one of them).
fn draw_counts(
    game: &Game,
    seat: usize,
    legal: &[Action],
    draws: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<usize> {
    let mut counts = vec![0usize; legal.len()];
    for _ in 0..draws {
        let a = game
            .random_legal_action(seat, rng)
            .expect("a legal action exists");
        let i = legal
            .iter()
            .position(|l| *l == a)
            .unwrap_or_else(|| panic!("{a:?} is not in the legal list"));
        counts[i] += 1;
    }
    counts
}

/// Where `random_legal_action` draws before listing (a hand without wild
/// cards after drawing, or an opened one with a joker: the discards, calls
/// and end of turn against a bound on the plays, a lay-off or exchange
/// found from its slot, the listing built only when another play's slot
/// is drawn; a new meld's slot taken without the rest of the listing,
/// before the opening also for a hand with jokers: an opening's slot
/// taken by the search alone, in the order it finds them, and where the
/// slot stands for nothing, the draw made again with their number as the
/// bound), every listed legal action is still drawn equally often: each
/// action's count lies within five standard deviations of its share, and
/// the plays together are drawn as often as their share says (a draw
/// that took a slot beyond the plays for a discard, or a play's slot for
/// a refused quick action, fails the second).
#[test]
fn the_draw_before_the_listing_stays_uniform() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let (mut positions, mut plays_drawn, mut plays_expected, mut variance) = (0, 0.0, 0.0, 0.0);
    let (mut with_joker, mut unopened_jokers) = (0, 0);
    'games: for seed in 0..300u64 {
        let name = ["klassisch", "bieten", "offen"][(seed % 3) as usize];
        let rules = presets::load(name).expect("preset").expect("loads");
        let Ok(mut game) = Game::new(rules, 3, seed) else {
            continue;
        };
        for _ in 0..300 {
            let Some(seat) = game.turn() else {
                continue 'games;
            };
            let jokers = game.hand(seat).map_or(0, |h| {
                h.iter().filter(|c| c.kind() == CardKind::Joker).count()
            });
            // Hands without jokers, and opened hands with one (their
            // lay-offs and exchanges drawn without the listing).
            let joker_hand = jokers == 1 && game.has_opened(seat);
            let unopened_joker_hand = jokers >= 1 && !game.has_opened(seat);
            let wanted = (jokers == 0 && positions - with_joker - unopened_jokers < 40)
                || (joker_hand && with_joker < 25)
                || (unopened_joker_hand && unopened_jokers < 20);
            if game.phase() == Phase::Play && wanted {
                let legal = game.legal_actions(seat);
                let is_play = |a: &Action| {
                    matches!(
                        a,
                        Action::Meld { .. }
                            | Action::LayOff { .. }
                            | Action::ExchangeJoker { .. }
                            | Action::Rearrange { .. }
                    )
                };
                let plays = legal.iter().filter(|a| is_play(a)).count();
                if plays > 0 && plays < legal.len() {
                    let draws = 150 * legal.len();
                    let counts = draw_counts(&game, seat, &legal, draws, &mut rng);
                    let p = 1.0 / legal.len() as f64;
                    let sd = (draws as f64 * p * (1.0 - p)).sqrt();
                    for (a, &c) in legal.iter().zip(&counts) {
                        assert!(
                            (c as f64 - 150.0).abs() <= 5.0 * sd,
                            "{name}: {a:?} drawn {c} times of {draws}"
                        );
                    }
                    let share = plays as f64 * p;
                    plays_drawn += legal
                        .iter()
                        .zip(&counts)
                        .filter(|(a, _)| is_play(a))
                        .map(|(_, &c)| c as f64)
                        .sum::<f64>();
                    plays_expected += draws as f64 * share;
                    variance += draws as f64 * share * (1.0 - share);
                    positions += 1;
                    with_joker += usize::from(joker_hand);
                    unopened_jokers += usize::from(unopened_joker_hand);
                }
            }
            let Some(a) = pick(&game, seat, &mut rng) else {
                continue 'games;
            };
            if game.apply(seat, a).is_err() {
                continue 'games;
            }
        }
    }
    assert!(positions >= 65, "only {positions} positions");
    assert!(
        with_joker >= 25,
        "only {with_joker} opened hands with a joker"
    );
    assert!(
        unopened_jokers >= 20,
        "only {unopened_jokers} hands with jokers that might open"
    );
    assert!(
        (plays_drawn - plays_expected).abs() <= 4.0 * variance.sqrt(),
        "plays drawn {plays_drawn}, expected {plays_expected:.0} (sd {:.1})",
        variance.sqrt()
    );
}

/// `random_legal_action` draws every listed legal action equally often and
/// nothing else, also where the costliest searches are worked out only when
/// their slots are drawn: on short hands (the solver's way of going out)
/// and where the table may be rearranged (`offen`, once the seat has
/// opened).
#[test]
fn random_legal_action_is_uniform_over_the_legal_list() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut checked = 0;
    let mut with_go_out = 0;
    let mut with_rearrange = 0;
    let mut with_draw = 0;
    'games: for seed in 0..400u64 {
        let name = ["klassisch", "offen", "club"][(seed % 3) as usize];
        let rules = presets::load(name).expect("preset").expect("loads");
        let Ok(mut game) = Game::new(rules, 3, seed) else {
            continue;
        };
        for step in 0..400 {
            let Some(seat) = game.turn() else {
                continue 'games;
            };
            let short = game.hand(seat).is_some_and(|h| h.len() <= 5);
            // Now and then a longer hand in `offen`, for the rearrangement.
            let offen = name == "offen" && with_rearrange < 3 && step % 7 == 0;
            // And a few draws (a seat that can only draw draws without a
            // listing).
            let draw = game.phase() == Phase::Draw && with_draw < 3;
            if (game.phase() == Phase::Play && (short || offen)) || draw {
                let legal = game.legal_actions(seat);
                let go_out = legal.iter().any(|a| {
                    matches!(a, Action::Meld { melds, lay_offs } if melds.len() + lay_offs.len() > 1)
                });
                let rearrange = legal.iter().any(|a| matches!(a, Action::Rearrange { .. }));
                let draws = 60 * legal.len();
                let counts = draw_counts(&game, seat, &legal, draws, &mut rng);
                for (a, &c) in legal.iter().zip(&counts) {
                    // 60 expected, standard deviation under 8.
                    assert!((20..=100).contains(&c), "{a:?} drawn {c} times of {draws}");
                }
                checked += 1;
                with_go_out += usize::from(go_out);
                with_rearrange += usize::from(rearrange);
                with_draw += usize::from(draw && legal.len() > 1);
                if checked >= 12 && with_go_out >= 3 && with_rearrange >= 3 && with_draw >= 3 {
                    break 'games;
                }
            }
            let Some(a) = pick(&game, seat, &mut rng) else {
                continue 'games;
            };
            if game.apply(seat, a).is_err() {
                continue 'games;
            }
        }
    }
    assert!(checked >= 12, "only {checked} short-hand positions");
    assert!(
        with_go_out >= 3,
        "only {with_go_out} positions with a way out"
    );
    assert!(
        with_rearrange >= 3,
        "only {with_rearrange} positions with a rearrangement"
    );
    assert!(with_draw >= 3, "only {with_draw} positions with two draws");
}
