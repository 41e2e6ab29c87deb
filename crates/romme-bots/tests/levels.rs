//! Every level plays every preset to the end without an illegal action;
//! bots decide from their seat's information only; simulations repeat from
//! their seed whatever the number of threads.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use romme_bots::sim::{SimConfig, simulate};
use romme_bots::{Bot, BotSpec, Budget, ExpertBot, HeuristicBot, play_match};
use romme_core::ruleset::presets;
use romme_engine::{Game, Phase};

/// Every preset with a seat count it is played with.
fn tables() -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for name in presets::NAMES {
        let Some(Ok(rules)) = presets::load(name) else {
            panic!("{name} loads");
        };
        let seats = (1..=4)
            .rev()
            .find(|&s| Game::new(rules.clone(), s, 1).is_ok())
            .unwrap_or_else(|| panic!("{name} has a seat count"));
        out.push((name.to_string(), seats.min(3)));
    }
    out
}

fn play(name: &str, seats: usize, specs: &[BotSpec], seed: u64) -> (bool, usize) {
    let rules = presets::load(name).expect("preset").expect("loads");
    let mut game = Game::new(rules, seats, seed).expect("new game");
    let mut bots: Vec<Box<dyn Bot>> = (0..seats)
        .map(|s| specs[s % specs.len()].build(seed + s as u64))
        .collect();
    let r = play_match(&mut game, &mut bots, 20_000)
        .unwrap_or_else(|e| panic!("{name}, {seats} seats, seed {seed}: {e}"));
    (r.finished, r.games)
}

#[test]
fn random_and_heuristic_bots_finish_every_preset() {
    for (name, seats) in tables() {
        for spec in [BotSpec::Random, BotSpec::Heuristic] {
            let mut finished = 0;
            for seed in 0..4 {
                let (done, _) = play(&name, seats, &[spec], seed);
                finished += usize::from(done);
            }
            // Nothing ends a game but going out: random players holding two
            // cards each can circle for ever (uniform choices rarely lay off
            // the one card that fits), and so can two careful players in
            // `offen`, where the last card may not be discarded. Such a
            // match stops at the action limit; most must end.
            assert!(
                finished >= 3,
                "{name} with {spec}: {finished} of 4 finished"
            );
        }
    }
}

#[test]
fn the_expert_plays_every_preset_legally() {
    // A small deterministic budget keeps this quick; the first game of each
    // match is enough to meet every decision type of the ruleset.
    let expert = BotSpec::Expert(Budget::Iterations(4));
    for (name, seats) in tables() {
        let rules = presets::load(&name).expect("preset").expect("loads");
        let mut game = Game::new(rules, seats, 5).expect("new game");
        let mut bots: Vec<Box<dyn Bot>> = (0..seats)
            .map(|s| {
                if s == 0 {
                    expert.build(5)
                } else {
                    BotSpec::Heuristic.build(s as u64)
                }
            })
            .collect();
        // Play until the first game is scored (or the match ends).
        let mut limit = 40;
        while game.sheet().games().is_empty() && game.phase() != Phase::MatchOver && limit > 0 {
            play_match(&mut game, &mut bots, 25)
                .unwrap_or_else(|e| panic!("{name}: the expert's match failed: {e}"));
            limit -= 1;
        }
        assert!(
            !game.sheet().games().is_empty() || game.phase() == Phase::MatchOver,
            "{name}: no game finished with the expert at the table"
        );
    }
}

#[test]
fn bots_decide_from_their_seats_information_only() {
    // Two games that differ only in what seat 0 cannot see (the other
    // hands, the stock order) give seat 0 the same state, and every level
    // then chooses the same action.
    let rules = presets::load("klassisch").expect("preset").expect("loads");
    let mut game = Game::new(rules, 3, 11).expect("new game");
    let mut bots: Vec<Box<dyn Bot>> = (0..3).map(|s| BotSpec::Heuristic.build(s)).collect();
    // Play a few turns so that the table and the discard pile fill up.
    play_match(&mut game, &mut bots, 18).expect("plays");
    for step in 0..12 {
        let Some(seat) = game.turn() else { break };
        let state = game.seat_state(seat);
        let mut rng = ChaCha8Rng::seed_from_u64(step);
        let other_world = state.determinize(&mut rng);
        assert!(other_world.seat_state(seat) == state);
        assert!(
            other_world.hand((seat + 1) % 3) != game.hand((seat + 1) % 3)
                || other_world.stock() != game.stock(),
            "the sample should differ in hidden cards"
        );
        for spec in [
            BotSpec::Random,
            BotSpec::Heuristic,
            BotSpec::Expert(Budget::Iterations(6)),
        ] {
            let a = spec.build(3).act(&game.seat_state(seat));
            let b = spec.build(3).act(&other_world.seat_state(seat));
            assert_eq!(a, b, "{spec} decided differently on hidden cards");
        }
        let action = HeuristicBot::new(1).act(&state);
        game.apply(seat, action).expect("legal");
    }
}

#[test]
fn the_expert_beats_random_play() {
    // Not a strength figure (those are in BENCHMARKS.md), a sanity check:
    // with 16 playouts a move the expert wins most 2-seat games of `offen`
    // against the random bot.
    let mut wins = 0;
    for seed in 0..6u64 {
        let rules = presets::load("offen").expect("preset").expect("loads");
        let mut game = Game::new(rules, 2, seed).expect("new game");
        let mut bots: Vec<Box<dyn Bot>> = vec![
            Box::new(ExpertBot::new(seed, Budget::Iterations(16))),
            BotSpec::Random.build(seed),
        ];
        let r = play_match(&mut game, &mut bots, 5_000).expect("plays");
        wins += usize::from(r.standings.iter().any(|s| s.seat == 0 && s.place == 1));
    }
    assert!(wins >= 5, "the expert won only {wins} of 6");
}

#[test]
fn simulations_repeat_from_their_seed_with_any_thread_count() {
    let rules = presets::load("klassisch").expect("preset").expect("loads");
    let cfg = SimConfig {
        rules,
        seats: vec![BotSpec::Heuristic, BotSpec::Random, BotSpec::Heuristic],
        matches: 12,
        seed: 99,
        max_actions: 5_000,
        keep_records: true,
    };
    let one = simulate(&cfg, 1, &|| {}).expect("runs");
    let two = simulate(&cfg, 2, &|| {}).expect("runs");
    assert_eq!(one.len(), 12);
    for (a, b) in one.iter().zip(&two) {
        assert_eq!(a.seed, b.seed);
        assert_eq!(a.places, b.places);
        assert_eq!(a.points, b.points);
        assert_eq!(a.actions, b.actions);
        assert!(a.record == b.record);
        // The record replays to the same end.
        let game = a.record.as_ref().expect("kept").replay().expect("replays");
        assert_eq!(game.phase(), Phase::MatchOver);
    }
    let other = simulate(&SimConfig { seed: 100, ..cfg }, 2, &|| {}).expect("runs");
    assert!(
        one.iter()
            .zip(&other)
            .any(|(a, b)| a.places != b.places || a.actions != b.actions)
    );
}

#[test]
fn the_arena_counts_every_round_of_a_multi_game_match() {
    // `koenigs` plays eleven rounds per match: the arena counts the games
    // (rounds) each configuration won besides the matches.
    let rules = presets::load("koenigs").expect("preset").expect("loads");
    let bots = [BotSpec::Random, BotSpec::Heuristic];
    let duels = romme_bots::arena::arena(&rules, &bots, 2, 2, 5, 20_000, &|| {}).expect("runs");
    assert_eq!(duels.len(), 4);
    for d in &duels {
        assert!(d.score.is_some(), "finished");
        let (a, b, shared) = d.games;
        assert_eq!(a + b + shared, 11, "eleven rounds: {d:?}");
    }
    let report = romme_bots::arena::report(&rules, &bots, 2, duels, 1.0, 5);
    let p = &report.pairings[0];
    assert_eq!(p.game_wins.0 + p.game_wins.1 + p.game_wins.2, 44);
    // The heuristic wins most rounds against random play.
    assert!(p.game_wins.1 > p.game_wins.0, "{:?}", p.game_wins);
    assert!(p.game_share.high < 0.5, "{:?}", p.game_share);
}

/// A random player that records the events it is handed, or (not
/// observing) fails the test if it is handed any.
struct Watcher {
    inner: romme_bots::RandomBot,
    observes: bool,
    seen: std::sync::Arc<std::sync::Mutex<Vec<romme_engine::Event>>>,
}

impl Bot for Watcher {
    fn act(&mut self, state: &romme_engine::SeatState) -> romme_engine::Action {
        self.inner.act(state)
    }

    fn claim(&mut self, state: &romme_engine::SeatState) -> Option<romme_engine::Action> {
        self.inner.claim(state)
    }

    fn observe(&mut self, events: &[romme_engine::Event]) {
        assert!(
            self.observes,
            "a bot that does not observe was handed events"
        );
        self.seen.lock().expect("lock").extend_from_slice(events);
    }

    fn observes(&self) -> bool {
        self.observes
    }
}

/// A bot that observes is handed every event of the match as its seat may
/// see it; one that says it does not observe is never handed any.
#[test]
fn events_reach_the_bots_that_observe() {
    let rules = presets::load("klassisch").expect("preset").expect("loads");
    let mut game = Game::new(rules, 3, 9).expect("new game");
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut bots: Vec<Box<dyn Bot>> = (0..3u64)
        .map(|s| {
            Box::new(Watcher {
                inner: romme_bots::RandomBot::new(100 + s),
                observes: s == 1,
                seen: std::sync::Arc::clone(&seen),
            }) as Box<dyn Bot>
        })
        .collect();
    let r = play_match(&mut game, &mut bots, 20_000).expect("plays");
    assert!(r.actions > 0);
    let want: Vec<_> = game
        .events()
        .iter()
        .map(|e| e.for_viewer(Some(1)))
        .collect();
    let got = seen.lock().expect("lock").clone();
    assert!(!want.is_empty());
    assert_eq!(got, want);
}

/// The random bot as a `Bot` fed its seat's state, and nothing else (it
/// does not offer itself as a `MoveBot`).
struct ViaState(romme_bots::RandomBot);

impl Bot for ViaState {
    fn act(&mut self, state: &romme_engine::SeatState) -> romme_engine::Action {
        self.0.act(state)
    }

    fn claim(&mut self, state: &romme_engine::SeatState) -> Option<romme_engine::Action> {
        self.0.claim(state)
    }
}

/// `play_match` hands the random bot only its seat's moves; it plays
/// exactly the matches it plays when fed its seat's state (claims
/// included: `kaufen` and `klopfen` have them).
#[test]
fn random_bot_plays_the_same_from_its_moves_as_from_its_state() {
    for name in ["klassisch", "kaufen", "klopfen", "offen", "koenigs"] {
        // (A match may end early, by a quick Hand-Rommé: the matches of a
        // preset are long enough together, 50 actions each on average.)
        let mut actions = 0;
        for seed in 0..4u64 {
            let rules = presets::load(name).expect("preset").expect("loads");
            let mut by_moves = Game::new(rules.clone(), 3, seed).expect("new game");
            let mut by_state = Game::new(rules, 3, seed).expect("new game");
            let mut a: Vec<Box<dyn Bot>> = (0..3)
                .map(|s| Box::new(romme_bots::RandomBot::new(seed * 10 + s)) as Box<dyn Bot>)
                .collect();
            let mut b: Vec<Box<dyn Bot>> = (0..3)
                .map(|s| {
                    Box::new(ViaState(romme_bots::RandomBot::new(seed * 10 + s))) as Box<dyn Bot>
                })
                .collect();
            assert!(a[0].as_move_bot().is_some());
            assert!(b[0].as_move_bot().is_none());
            let ra = play_match(&mut by_moves, &mut a, 4_000).expect("plays");
            let rb = play_match(&mut by_state, &mut b, 4_000).expect("plays");
            actions += ra.actions;
            assert_eq!(ra.actions, rb.actions, "{name}, seed {seed}");
            assert_eq!(
                by_moves.actions(),
                by_state.actions(),
                "{name}, seed {seed}"
            );
        }
        assert!(actions > 200, "{name}: {actions} actions in four matches");
    }
}
