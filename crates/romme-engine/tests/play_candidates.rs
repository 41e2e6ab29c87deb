//! The list of legal actions leaves out plays the engine would refuse for
//! cheap reasons (a lay-off before the opening where that is not allowed, a
//! play without the card that must be melded, a card that cannot fit a meld
//! of another rank or suit). This holds it to never leaving out a legal
//! one: in random games of every preset with a discard pile, every
//! single-card lay-off of a natural card, every joker exchange and (after
//! the opening) every single meld the engine accepts on a copy of the game
//! is in `legal_actions`.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use romme_core::meld::MeldChecker;
use romme_core::ruleset::presets;
use romme_core::{CardKind, MeldCard};
use romme_engine::legal::single_meld_declarations;
use romme_engine::{Action, Game, Phase};

/// Every single-card natural lay-off and every single meld of `seat`'s
/// hand that the engine accepts; panics if one is not listed. Returns how
/// many were accepted, and how many of them were joker exchanges.
fn check_state(game: &Game, seat: usize, checker: &MeldChecker) -> (usize, usize) {
    let legal = game.legal_actions(seat);
    let Some(hand) = game.hand(seat) else {
        return (0, 0);
    };
    let mut kinds: Vec<CardKind> = hand.iter().map(|c| c.kind()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    let mut tries: Vec<Action> = Vec::new();
    for meld in 0..game.table_melds().len() {
        for &k in &kinds {
            if k.is_joker() || checker.is_wild(k) {
                continue;
            }
            tries.push(Action::LayOff {
                meld,
                cards: vec![MeldCard::plain(k)],
            });
        }
    }
    // Every exchange of a table joker for a card of the hand.
    for (meld, m) in game.table_melds().iter().enumerate() {
        if !m.iter().any(|c| c.card.is_joker()) {
            continue;
        }
        for &k in &kinds {
            if !k.is_joker() {
                tries.push(Action::ExchangeJoker { meld, card: k });
            }
        }
    }
    // Before the opening the list holds openings (combinations of melds,
    // declared as the opening search reads them), so single melds as the
    // hand's listing declares them are compared only after it.
    let all: Vec<CardKind> = hand.iter().map(|c| c.kind()).collect();
    let singles = if game.has_opened(seat) {
        single_meld_declarations(checker, game.rules(), &all)
    } else {
        Vec::new()
    };
    for d in singles {
        tries.push(Action::Meld {
            melds: vec![d.ordered],
            lay_offs: Vec::new(),
        });
    }
    let (mut accepted, mut exchanges) = (0, 0);
    for a in tries {
        let mut copy = game.detached();
        if copy.apply(seat, a.clone()).is_ok() {
            accepted += 1;
            exchanges += usize::from(matches!(a, Action::ExchangeJoker { .. }));
            assert!(
                legal.contains(&a),
                "{}: accepted but not listed: {a:?}",
                game.rules().name
            );
        }
    }
    (accepted, exchanges)
}

#[test]
fn no_accepted_lay_off_or_single_meld_is_missing_from_the_list() {
    let (mut accepted, mut exchanges) = (0usize, 0usize);
    let mut states = 0usize;
    for name in presets::NAMES {
        let Some(Ok(rules)) = presets::load(name) else {
            continue;
        };
        if !rules.turn.discard_pile || rules.concealed.enabled {
            continue;
        }
        for seed in 0..6u64 {
            let seats = if Game::new(rules.clone(), 4, seed).is_ok() {
                4
            } else {
                2
            };
            let Ok(mut game) = Game::new(rules.clone(), seats, seed) else {
                continue;
            };
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..400 {
                if game.phase() == Phase::MatchOver {
                    break;
                }
                let Some(seat) = game.turn() else {
                    break;
                };
                if game.phase() == Phase::Play {
                    let Ok(checker) = MeldChecker::new(game.rules(), game.round()) else {
                        break;
                    };
                    let (a, x) = check_state(&game, seat, &checker);
                    accepted += a;
                    exchanges += x;
                    states += 1;
                }
                // Mostly random play; now and then a listed lay-off or meld
                // so that tables fill up.
                let legal = game.legal_actions(seat);
                let plays: Vec<&Action> = legal
                    .iter()
                    .filter(|a| matches!(a, Action::Meld { .. } | Action::LayOff { .. }))
                    .collect();
                let action = if !plays.is_empty() && rng.random_bool(0.5) {
                    plays[rng.random_range(0..plays.len())].clone()
                } else {
                    match game.random_legal_action(seat, &mut rng) {
                        Some(a) => a,
                        None => break,
                    }
                };
                if game.apply(seat, action).is_err() {
                    break;
                }
            }
        }
    }
    assert!(states > 500, "only {states} play states checked");
    assert!(accepted > 500, "only {accepted} accepted plays checked");
    assert!(
        exchanges > 20,
        "only {exchanges} accepted exchanges checked"
    );
}

/// `pending_plays` gives exactly the listed melds and lay-offs that put
/// down the card taken from the discard pile (and freed jokers), each one
/// accepted; right after taking the card there is at least one (the engine
/// let the seat take it because one exists). Random games of the presets
/// where a taken card must be melded at once.
#[test]
fn pending_plays_are_the_listed_plays_that_meld_the_pending_cards() {
    let mut pending_states = 0usize;
    let mut plays_checked = 0usize;
    for name in ["raeuber", "club"] {
        let Some(Ok(rules)) = presets::load(name) else {
            panic!("{name} loads");
        };
        for seed in 0..8u64 {
            let Ok(mut game) = Game::new(rules.clone(), 3, seed) else {
                panic!("{name}: a game of three");
            };
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut just_took = false;
            for _ in 0..400 {
                if game.phase() == Phase::MatchOver {
                    break;
                }
                let Some(seat) = game.turn() else {
                    break;
                };
                let pending = game.pending_cards(seat);
                let plays = game.pending_plays(seat);
                if pending.is_empty() {
                    assert!(plays.is_empty(), "{name}: plays without a pending card");
                } else {
                    pending_states += 1;
                    assert!(
                        !just_took || !plays.is_empty(),
                        "{name}: took it, cannot meld it"
                    );
                    let legal = game.legal_actions(seat);
                    for a in &legal {
                        if !matches!(a, Action::Meld { .. } | Action::LayOff { .. }) {
                            continue;
                        }
                        let mut copy = game.detached();
                        let melds_it = copy.apply(seat, a.clone()).is_ok()
                            && copy.pending_cards(seat).is_empty();
                        assert_eq!(
                            plays.contains(a),
                            melds_it,
                            "{name}: {a:?}, pending {pending:?}"
                        );
                        plays_checked += usize::from(melds_it);
                    }
                }
                // Take the discard whenever the engine allows it, else play
                // at random.
                let take = Action::Draw {
                    from: romme_engine::DrawSource::Discard,
                };
                let legal = game.legal_actions(seat);
                let action = if legal.contains(&take) {
                    take
                } else if !plays.is_empty() && rng.random_bool(0.7) {
                    plays[rng.random_range(0..plays.len())].clone()
                } else {
                    match game.random_legal_action(seat, &mut rng) {
                        Some(a) => a,
                        None => break,
                    }
                };
                just_took = matches!(
                    action,
                    Action::Draw {
                        from: romme_engine::DrawSource::Discard
                    }
                );
                if game.apply(seat, action).is_err() {
                    break;
                }
            }
        }
    }
    assert!(
        pending_states > 30,
        "only {pending_states} states with a pending card"
    );
    assert!(
        plays_checked > 30,
        "only {plays_checked} pending plays checked"
    );
}
