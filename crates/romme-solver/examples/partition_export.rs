//! Export random hands with every candidate meld (as card index lists), the
//! penalty of each card, and romme's optimum and solve time, as JSON lines
//! for `bench/ilp_partition.py` (the integer-programming comparison).
//!
//! `cargo run --release -p romme-solver --example partition_export -- [HANDS] [SIZE] > hands.jsonl`

use std::time::Instant;

use romme_core::CardKind;
use romme_core::meld::MeldChecker;
use romme_core::notation::format_cards;
use romme_core::penalty::card_points;
use romme_core::ruleset::presets;
use romme_solver::PartitionSolver;

fn main() {
    let mut args = std::env::args().skip(1);
    let hands: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let size: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(13);
    let Some(Ok(rules)) = presets::load("klassisch") else {
        return;
    };
    let checker = MeldChecker::new(&rules, None).expect("checker");
    let solver = PartitionSolver::new(&rules, None).expect("solver");
    // The fast path's per-suit table in full, so that every hand is timed
    // against the same table (not filled by the hands before it).
    let start = Instant::now();
    solver.prepare();
    eprintln!(
        "per-suit table filled in {:.0} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    for seed in 0..hands {
        let hand: Vec<CardKind> = rules
            .deck
            .shuffled(seed)
            .into_iter()
            .take(size)
            .map(|c| c.kind())
            .collect();
        // Every subset of 3+ cards that is a valid meld under some declaration.
        let n = hand.len();
        let mut melds: Vec<Vec<usize>> = Vec::new();
        for mask in 1u32..(1 << n) {
            if mask.count_ones() < 3 {
                continue;
            }
            let idx: Vec<usize> = (0..n).filter(|i| mask >> i & 1 == 1).collect();
            let cards: Vec<CardKind> = idx.iter().map(|&i| hand[i]).collect();
            if checker.is_valid(&cards).unwrap_or(false) {
                melds.push(idx);
            }
        }
        // romme's time per solve (melds built): the best of 5 batches of 40
        // solves, so that reading the clock (tens of nanoseconds) is not
        // counted in a solve that takes a few hundred.
        const BATCH: u32 = 40;
        let mut best_ns = f64::MAX;
        let mut deadwood = 0;
        for _ in 0..5 {
            let start = Instant::now();
            for _ in 0..BATCH {
                let p = solver.solve(std::hint::black_box(&hand)).expect("solves");
                deadwood = std::hint::black_box(p).deadwood;
            }
            best_ns = best_ns.min(start.elapsed().as_nanos() as f64 / f64::from(BATCH));
        }
        let penalties: Vec<u32> = hand.iter().map(|&c| card_points(&rules, c, None)).collect();
        let melds_json: Vec<String> = melds
            .iter()
            .map(|m| {
                format!(
                    "[{}]",
                    m.iter()
                        .map(|i| i.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                )
            })
            .collect();
        println!(
            "{{\"hand\": \"{}\", \"penalties\": {:?}, \"melds\": [{}], \"romme_deadwood\": {}, \"romme_ns\": {:.1}}}",
            format_cards(&hand),
            penalties,
            melds_json.join(","),
            deadwood,
            best_ns
        );
    }
}
