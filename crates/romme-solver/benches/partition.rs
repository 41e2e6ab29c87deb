//! Criterion benchmarks of the best-partition solver on random hands.
//! `cargo bench -p romme-solver --bench partition`

use criterion::{Criterion, criterion_group, criterion_main};
use romme_core::ruleset::presets;
use romme_core::{CardKind, Deck};
use romme_solver::PartitionSolver;
use std::hint::black_box;

fn hands(deck: &Deck, size: usize, count: u64, naturals_only: bool) -> Vec<Vec<CardKind>> {
    (0..count)
        .map(|seed| {
            deck.shuffled(seed)
                .into_iter()
                .map(|c| c.kind())
                .filter(|k| !naturals_only || !k.is_joker())
                .take(size)
                .collect()
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let Some(Ok(rules)) = presets::load("klassisch") else {
        return;
    };
    let solver = match PartitionSolver::new(&rules, None) {
        Ok(s) => s,
        Err(_) => return,
    };
    let mut group = c.benchmark_group("partition/klassisch");
    for (name, size, naturals) in [
        ("13 cards", 13, false),
        ("14 cards", 14, false),
        ("10 natural", 10, true),
        ("11 natural", 11, true),
    ] {
        let hs = hands(&rules.deck, size, 1000, naturals);
        let mut i = 0;
        group.bench_function(format!("{name} (melds)"), |b| {
            b.iter(|| {
                i = (i + 1) % hs.len();
                black_box(solver.solve(black_box(&hs[i])).map(|p| p.deadwood))
            })
        });
        group.bench_function(format!("{name} (deadwood only)"), |b| {
            b.iter(|| {
                i = (i + 1) % hs.len();
                black_box(solver.deadwood(black_box(&hs[i])))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
