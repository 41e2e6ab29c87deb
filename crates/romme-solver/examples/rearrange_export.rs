//! Export random rearrangement positions (table and hand as face counts,
//! the penalty of each face) with romme's optimum (cards and points left)
//! and solve time, as JSON lines for `bench/ilp_rearrange.py` (the
//! integer-programming comparison). Hands hold no jokers here: the integer
//! program models natural cards only (table jokers keep their card, so they
//! count as that card).
//!
//! `cargo run --release -p romme-solver --example rearrange_export -- [POSITIONS] > positions.jsonl`

use std::time::Instant;

use romme_core::CardKind;
use romme_core::meld::MeldChecker;
use romme_core::penalty::card_points;
use romme_core::ruleset::presets;
use romme_solver::{Limits, PartitionSolver, rearrange_with};

#[path = "support/positions.rs"]
mod positions;
use positions::position;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50);
    let Some(Ok(rules)) = presets::load("offen") else {
        return;
    };
    let checker = MeldChecker::new(&rules, None).expect("checker");
    // One solver for every position, as the game engine keeps one per game
    // (its tables depend only on the ruleset).
    let solver = PartitionSolver::new(&rules, None).expect("solver");
    for target in [20, 30, 40, 50, 60] {
        for seed in 0..n {
            let (table, hand) = position(seed * 7919 + target as u64, target, false);
            if table.iter().any(|m| checker.check(m).is_err()) {
                continue;
            }
            let mut table_counts = [0u32; 52];
            for c in table.iter().flatten() {
                if let Some(f) = c.effective() {
                    table_counts[f.index()] += 1;
                }
            }
            let mut hand_counts = [0u32; 52];
            for c in &hand {
                if let CardKind::Natural(f) = c {
                    hand_counts[f.index()] += 1;
                }
            }
            let penalty: Vec<u32> = (0..52)
                .map(|i| {
                    romme_core::Face::from_index(i)
                        .map_or(0, |f| card_points(&rules, CardKind::Natural(f), None))
                })
                .collect();
            // romme's time: the best of 3 solves (REPS=N for more, on a busy machine).
            let mut best_ns = u128::MAX;
            let mut answer = None;
            for _ in 0..std::env::var("REPS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(3)
            {
                let start = Instant::now();
                let r = rearrange_with(&solver, &table, &hand, Limits::default());
                best_ns = best_ns.min(start.elapsed().as_nanos());
                answer = r.ok();
            }
            let Some(r) = answer else { continue };
            let left_value: u32 = r.hand.iter().map(|&c| card_points(&rules, c, None)).sum();
            println!(
                "{{\"table_cards\": {}, \"table\": {:?}, \"hand\": {:?}, \"penalty\": {:?}, \"romme_left\": {}, \"romme_left_value\": {}, \"romme_optimal\": {}, \"romme_ns\": {}}}",
                table.iter().map(Vec::len).sum::<usize>(),
                table_counts,
                hand_counts,
                penalty,
                r.hand.len(),
                left_value,
                r.optimal,
                best_ns
            );
        }
    }
}
