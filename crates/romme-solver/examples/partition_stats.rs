//! Per-hand timing of the best-partition solver: median, p99 and the worst
//! case over many random hands, for BENCHMARKS.md.
//!
//! `cargo run --release -p romme-solver --example partition_stats -- [HANDS] [PRESET]`
//!
//! `… -- HANDS PRESET --once SIZE [natural]` solves each hand of one row
//! once, untimed, and prints the checksum: run it under `valgrind
//! --tool=callgrind` for instruction counts per hand, which (unlike times)
//! do not depend on what else the machine is doing.

use std::time::Instant;

use romme_core::notation::format_cards;
use romme_core::ruleset::presets;
use romme_core::{CardKind, Deck};
use romme_solver::PartitionSolver;

fn main() {
    let mut args = std::env::args().skip(1);
    let hands: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let preset = args.next().unwrap_or_else(|| "klassisch".to_string());
    let Some(Ok(rules)) = presets::load(&preset) else {
        eprintln!("unknown preset {preset}");
        std::process::exit(2);
    };
    // Five Crowns: the last round (13 cards, kings wild) is the hardest.
    let round = rules.melds.wilds.round_wild.then_some(11);
    let Ok(solver) = PartitionSolver::new(&rules, round) else {
        eprintln!("cannot build a solver for {preset}");
        std::process::exit(2);
    };
    // The fast path's per-suit table in full, so that every hand is timed
    // against the same table (not filled by the hands before it).
    let start = Instant::now();
    solver.prepare();
    let filled_ms = start.elapsed().as_secs_f64() * 1e3;
    if args.next().as_deref() == Some("--once") {
        let size: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(13);
        let naturals = args.next().as_deref() == Some("natural");
        let mut checksum = 0u64;
        for seed in 0..hands {
            let hand = deal(&rules.deck, seed, size, naturals);
            let p = solver.solve(std::hint::black_box(&hand));
            checksum += p.map(|p| u64::from(p.deadwood)).unwrap_or(0);
        }
        println!("{hands} hands of {size} cards solved once, checksum {checksum}");
        return;
    }
    println!("per-suit table of the fast path filled in {filled_ms:.0} ms");
    println!(
        "preset {preset}{}, deck {} cards ({} jokers), {hands} hands per row, one core",
        round.map_or(String::new(), |r| format!(" round {r}")),
        rules.deck.len(),
        rules.deck.jokers
    );
    println!(
        "{:<18} {:>9} {:>9} {:>9} {:>10}  worst hand (most search nodes or slowest samples, re-timed 200x, min)",
        "hands", "mean", "median", "p99", "worst"
    );
    for (label, size, naturals) in [
        ("13 cards", 13, false),
        ("14 cards", 14, false),
        ("10 natural cards", 10, true),
        ("11 natural cards", 11, true),
    ] {
        row(&solver, &rules.deck, label, size, naturals, hands);
    }
}

fn row(
    solver: &PartitionSolver,
    deck: &Deck,
    label: &str,
    size: usize,
    naturals: bool,
    hands: u64,
) {
    let mut times: Vec<u64> = Vec::with_capacity(hands as usize);
    // The slowest hands seen, re-timed at the end: a single slow sample is
    // often the scheduler, not the solver.
    let mut slowest: Vec<(u64, Vec<CardKind>)> = Vec::new();
    let mut checksum = 0u64;
    let mut most_effort: (u64, Vec<CardKind>) = (0, Vec::new());
    for seed in 0..hands {
        let hand = deal(deck, seed, size, naturals);
        let start = Instant::now();
        let p = solver.solve(&hand);
        let ns = start.elapsed().as_nanos() as u64;
        checksum += p.map(|p| u64::from(p.deadwood)).unwrap_or(0);
        let effort = solver.effort(&hand).unwrap_or(0);
        if effort > most_effort.0 {
            most_effort = (effort, hand.clone());
        }
        if slowest.len() < 32 || ns > slowest[0].0 {
            slowest.push((ns, hand));
            slowest.sort_by_key(|(t, _)| *t);
            if slowest.len() > 32 {
                slowest.remove(0);
            }
        }
        times.push(ns);
    }
    slowest.push((0, most_effort.1.clone()));
    let worst = slowest
        .into_iter()
        .map(|(_, hand)| {
            let best_of = (0..200)
                .map(|_| {
                    let start = Instant::now();
                    let _ = std::hint::black_box(solver.solve(std::hint::black_box(&hand)));
                    start.elapsed().as_nanos() as u64
                })
                .min()
                .unwrap_or(0);
            (best_of, hand)
        })
        .max_by_key(|(t, _)| *t)
        .unwrap_or((0, Vec::new()));
    times.sort_unstable();
    let pct = |q: f64| times[((times.len() as f64 - 1.0) * q) as usize];
    let mean = times.iter().sum::<u64>() as f64 / times.len() as f64;
    let us = |ns: f64| format!("{:.2} µs", ns / 1000.0);
    println!(
        "{label:<18} {:>9} {:>9} {:>9} {:>10}  {}  (most search nodes: {}; checksum {checksum})",
        us(mean),
        us(pct(0.5) as f64),
        us(pct(0.99) as f64),
        us(worst.0 as f64),
        format_cards(&worst.1),
        most_effort.0
    );
}

/// The `seed`th random hand of `size` cards (without jokers for `naturals`).
fn deal(deck: &Deck, seed: u64, size: usize, naturals: bool) -> Vec<CardKind> {
    deck.shuffled(seed)
        .into_iter()
        .map(|c| c.kind())
        .filter(|k| !naturals || !k.is_joker())
        .take(size)
        .collect()
}
