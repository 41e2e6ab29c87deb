//! Decision time of each bot level on positions from `klassisch` games.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use romme_bots::{Bot, BotSpec, Budget};
use romme_core::ruleset::presets;
use romme_engine::{Game, SeatState};

/// Seat states met in a few heuristic games (every 7th decision).
fn positions() -> Vec<SeatState> {
    let Some(Ok(rules)) = presets::load("klassisch") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for seed in 0..4u64 {
        let Ok(mut game) = Game::new(rules.clone(), 4, seed) else {
            continue;
        };
        let mut bots: Vec<Box<dyn Bot>> = (0..4).map(|s| BotSpec::Heuristic.build(s)).collect();
        for step in 0..400 {
            let Some(seat) = game.turn() else { break };
            let state = game.seat_state(seat);
            let a = bots[seat].act(&state);
            if step % 7 == 0 {
                out.push(state);
            }
            if game.apply(seat, a).is_err() {
                break;
            }
        }
    }
    out
}

fn decisions(c: &mut Criterion) {
    let states = positions();
    for spec in [
        BotSpec::Random,
        BotSpec::Heuristic,
        BotSpec::Expert(Budget::Iterations(32)),
    ] {
        let mut bot = spec.build(1);
        let mut i = 0;
        c.bench_function(&format!("decision/{spec}"), |b| {
            b.iter(|| {
                i = (i + 1) % states.len();
                black_box(bot.act(&states[i]))
            })
        });
    }
    c.bench_function("seat_state/klassisch-4", |b| {
        let Some(Ok(rules)) = presets::load("klassisch") else {
            return;
        };
        let Ok(game) = Game::new(rules, 4, 9) else {
            return;
        };
        b.iter(|| black_box(game.seat_state(1)))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = decisions
}
criterion_main!(benches);
