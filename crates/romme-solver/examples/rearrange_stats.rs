//! Timing of table rearrangement on random positions: 20–60 table cards in
//! valid melds (some with jokers) and a 14-card hand, under `offen` (free
//! rearrangement) or, with `RULES=raeuber`, Räuber robbing.
//!
//! `[RULES=raeuber] [VERBOSE=1] [SEED=N] [MILLIS=N] [NODES=N] cargo run --release -p romme-solver --example rearrange_stats -- [POSITIONS [TABLE_CARDS]]`
//!
//! `VERBOSE=1` prints a line per position: its time, a fingerprint of the
//! answer and what the tie-break order ranks (cards placed / their points /
//! changed melds), so two builds can be compared. `SEED=N` runs only that
//! position and prints it; `SEEDS=FILE` only the positions whose seeds the
//! file lists (whitespace between them), e.g. a row's slowest, to profile
//! or time them alone. `MILLIS=N` gives each position a deadline of N ms
//! besides the node limit (as `romme solve` does, 2,000 ms by default), to
//! see what a search stopped by the clock answers; `NODES=N` another node
//! limit (the game engine lists a robbing turn with 5,000).

use std::time::Instant;

use romme_core::meld::MeldChecker;
use romme_core::notation::format_cards;
use romme_core::ruleset::presets;
use romme_solver::{Limits, PartitionSolver, rearrange_with};

#[path = "support/positions.rs"]
mod positions;
use positions::position;

/// `text` as a number (`None` when absent), or a message naming `what`.
fn number<T: std::str::FromStr>(what: &str, text: Option<String>) -> Option<T> {
    let text = text?;
    match text.parse() {
        Ok(n) => Some(n),
        Err(_) => {
            eprintln!("{what}: not a number: {text:?}");
            std::process::exit(2);
        }
    }
}

fn main() {
    let n: u64 = number("POSITIONS", std::env::args().nth(1)).unwrap_or(1000);
    let name = std::env::var("RULES").unwrap_or_else(|_| "offen".into());
    let limits = Limits {
        time: number("MILLIS", std::env::var("MILLIS").ok()).map(std::time::Duration::from_millis),
        nodes: number("NODES", std::env::var("NODES").ok()).unwrap_or(Limits::default().nodes),
    };
    let Some(Ok(rules)) = presets::load(&name) else {
        eprintln!("unknown preset {name}");
        return;
    };
    let checker = MeldChecker::new(&rules, None).expect("checker");
    // One solver for every position, as the game engine keeps one per game
    // (its tables depend only on the ruleset).
    let solver = PartitionSolver::new(&rules, None).expect("solver");
    println!(
        "preset {name}, {n} positions per row, 14-card hand, one core, default limits (3,000,000 nodes)"
    );
    println!(
        "{:<16} {:>10} {:>10} {:>10} {:>10} {:>8} {:>10}",
        "table cards", "mean", "median", "p99", "max", "optimal", "placed"
    );
    // An optional second argument picks one row; SEED=N one position of it.
    let only: Option<usize> = number("TABLE_CARDS", std::env::args().nth(2));
    let only_seed: Option<u64> = number("SEED", std::env::var("SEED").ok());
    let listed: Option<Vec<u64>> = match std::env::var_os("SEEDS") {
        None => None,
        Some(file) => match std::fs::read_to_string(&file) {
            Ok(text) => Some(
                text.split_whitespace()
                    .filter_map(|w| w.parse().ok())
                    .collect(),
            ),
            Err(e) => {
                eprintln!("SEEDS: cannot read {}: {e}", file.to_string_lossy());
                return;
            }
        },
    };
    for target in [20, 30, 40, 50, 60] {
        if only.is_some_and(|o| o != target) {
            continue;
        }
        let mut times = Vec::new();
        let mut optimal = 0;
        let mut placed = 0usize;
        for seed in 0..n {
            if only_seed.is_some_and(|o| o != seed)
                || listed.as_ref().is_some_and(|l| !l.contains(&seed))
            {
                continue;
            }
            let (table, hand) = position(seed * 7919 + target as u64, target, true);
            if only_seed.is_some() {
                let melds: Vec<String> = table.iter().map(|m| format_cards(m)).collect();
                eprintln!("table {melds:?}\nhand {}", format_cards(&hand));
            }
            if table.iter().any(|m| checker.check(m).is_err()) {
                continue;
            }
            let start = Instant::now();
            let r = rearrange_with(&solver, &table, &hand, limits);
            times.push(start.elapsed().as_nanos() as u64);
            if std::env::var_os("VERBOSE").is_some() {
                let jokers = hand.iter().filter(|c| c.is_joker()).count();
                // The answer itself, so runs of two builds can be compared.
                let answer = r.as_ref().map_or_else(
                    |e| e.to_string(),
                    |r| format!("{:?} {:?} {}", r.table, r.hand, r.changed),
                );
                // What the tie-break order ranks: placed, their value, changes.
                let cost = r.as_ref().map_or_else(
                    |_| "-".to_string(),
                    |r| format!("{}/{}/{}", r.placed.len(), r.placed_value, r.changed),
                );
                eprintln!(
                    "seed {seed} jokers {jokers} {:.3} ms answer {:016x} cost {cost} optimal {}",
                    start.elapsed().as_secs_f64() * 1e3,
                    fingerprint(&answer),
                    r.as_ref().is_ok_and(|r| r.optimal)
                );
            }
            if let Ok(r) = r {
                optimal += usize::from(r.optimal);
                placed += r.placed.len();
            }
        }
        if times.is_empty() {
            println!(
                "{:<16} no position (SEED must be below POSITIONS)",
                format!("~{target}")
            );
            continue;
        }
        times.sort_unstable();
        let pct = |q: f64| times[((times.len() as f64 - 1.0) * q) as usize] as f64 / 1e6;
        let mean = times.iter().sum::<u64>() as f64 / times.len() as f64 / 1e6;
        println!(
            "{:<16} {:>8.3}ms {:>8.3}ms {:>8.3}ms {:>8.3}ms {:>7.1}% {:>10.2}",
            format!("~{target}"),
            mean,
            pct(0.5),
            pct(0.99),
            pct(1.0),
            100.0 * optimal as f64 / times.len() as f64,
            placed as f64 / times.len() as f64
        );
    }
}

/// A short fingerprint of an answer, to compare two builds' runs (the
/// standard library's hasher with its fixed keys).
fn fingerprint(answer: &str) -> u64 {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut h = DefaultHasher::new();
    answer.hash(&mut h);
    h.finish()
}
