//! Timing of table rearrangement on random positions: 20–60 table cards in
//! valid melds (some with jokers) and a 14-card hand, under `offen`.
//!
//! `cargo run --release -p romme-solver --example rearrange_stats -- [POSITIONS [TABLE_CARDS]]`

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use romme_core::meld::MeldChecker;
use romme_core::ruleset::presets;
use romme_core::{CardKind, Deck, Face, MeldCard, Rank, Suit};
use romme_solver::{Limits, rearrange};

/// Deal melds from a shuffled deck until the table has about `target` cards.
pub fn position(seed: u64, target: usize) -> (Vec<Vec<MeldCard>>, Vec<CardKind>) {
    let deck = Deck {
        kind: romme_core::DeckKind::French,
        jokers: 6,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pool: Vec<CardKind> = deck.shuffled(seed).into_iter().map(|c| c.kind()).collect();
    let mut table: Vec<Vec<MeldCard>> = Vec::new();
    let mut count = 0;
    let mut tries = 0;
    while count < target && tries < 5000 {
        tries += 1;
        let suit = Suit::FRENCH[rng.random_range(0..4)];
        let meld: Vec<Face> = if rng.random_bool(0.55) {
            let len = rng.random_range(3..=5usize);
            let start = rng.random_range(2..=(14 - len as u8));
            (0..len as u8)
                .filter_map(|i| Rank::from_number(start + i))
                .map(|r| Face::new(r, suit))
                .collect()
        } else {
            let rank = Rank::ALL[rng.random_range(0..13)];
            let n = rng.random_range(3..=4usize);
            Suit::FRENCH
                .iter()
                .take(n)
                .map(|s| Face::new(rank, *s))
                .collect()
        };
        // Take the cards from the pool (a joker may stand in for one).
        let mut cards = Vec::new();
        let mut trial = pool.clone();
        let mut ok = true;
        let joker_at = rng
            .random_bool(0.15)
            .then(|| rng.random_range(0..meld.len()));
        for (i, f) in meld.iter().enumerate() {
            let want = if Some(i) == joker_at {
                CardKind::Joker
            } else {
                CardKind::Natural(*f)
            };
            match trial.iter().position(|c| *c == want) {
                Some(p) => {
                    trial.swap_remove(p);
                    cards.push(MeldCard {
                        card: want,
                        stands_for: want.is_joker().then_some(*f),
                    });
                }
                None => ok = false,
            }
        }
        if ok {
            pool = trial;
            count += cards.len();
            table.push(cards);
        }
    }
    let hand = pool
        .into_iter()
        .filter(|c| std::env::var_os("NOJOKER").is_none() || !c.is_joker())
        .take(14)
        .collect();
    (table, hand)
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let Some(Ok(rules)) = presets::load("offen") else {
        return;
    };
    let checker = MeldChecker::new(&rules, None).expect("checker");
    println!(
        "preset offen, {n} positions per row, 14-card hand, one core, default limits (3,000,000 nodes)"
    );
    println!(
        "{:<16} {:>10} {:>10} {:>10} {:>10} {:>8} {:>10}",
        "table cards", "mean", "median", "p99", "max", "optimal", "placed"
    );
    // An optional second argument picks one row.
    let only: Option<usize> = std::env::args().nth(2).and_then(|a| a.parse().ok());
    for target in [20, 30, 40, 50, 60] {
        if only.is_some_and(|o| o != target) {
            continue;
        }
        let mut times = Vec::new();
        let mut optimal = 0;
        let mut placed = 0usize;
        for seed in 0..n {
            let (table, hand) = position(seed * 7919 + target as u64, target);
            if table.iter().any(|m| checker.check(m).is_err()) {
                continue;
            }
            let start = Instant::now();
            let r = rearrange(&rules, None, &table, &hand, Limits::default());
            times.push(start.elapsed().as_nanos() as u64);
            if std::env::var_os("VERBOSE").is_some() {
                let jokers = hand.iter().filter(|c| c.is_joker()).count();
                eprintln!(
                    "seed {seed} jokers {jokers} {:.3} ms",
                    start.elapsed().as_secs_f64() * 1e3
                );
            }
            if let Ok(r) = r {
                optimal += usize::from(r.optimal);
                placed += r.placed.len();
            }
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
