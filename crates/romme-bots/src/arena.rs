//! Round robin of bot configurations: `romme arena`.
//!
//! Every pair of configurations plays the same deals twice with the seats
//! swapped (A B A B, then B A B A): paired deals cancel the luck of the
//! cards, the rotation the advantage of the first seat. A match is won by
//! the configuration holding first place (a shared first place between both
//! is a draw). Ratings are Elo-scaled Bradley–Terry strengths fitted to all
//! results, anchored so that the first configuration has 1500, with 95%
//! intervals from a bootstrap over the matches.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use romme_core::ruleset::Ruleset;
use romme_engine::WarmCaches;
use serde::Serialize;

use crate::BotSpec;
use crate::sim::{Rate, SimError, match_seed, play_one_warm, wilson};

/// One arena match between two configurations.
#[derive(Debug, Clone, Serialize)]
pub struct Duel {
    /// Index of configuration A.
    pub a: usize,
    /// Index of configuration B.
    pub b: usize,
    /// The deal's seed.
    pub seed: u64,
    /// A sat on the even seats (else on the odd ones).
    pub a_first: bool,
    /// 1 A won, 0 B won, 0.5 a draw; `None`: unfinished.
    pub score: Option<f64>,
    /// The match's games won by A, won by B, and shared: a game is won by
    /// the configuration with the fewest points in it (in a multi-game
    /// match such as `koenigs`, with eleven rounds, every round counts).
    pub games: (usize, usize, usize),
    /// Mean match points of A's seats and of B's seats.
    pub points: (f64, f64),
    /// Actions played.
    pub actions: usize,
}

/// A configuration's rating.
#[derive(Debug, Clone, Serialize)]
pub struct Rating {
    /// The bot.
    pub bot: String,
    /// Elo.
    pub elo: f64,
    /// 95% interval.
    pub low: f64,
    /// 95% interval.
    pub high: f64,
    /// Mean match points over all its seats.
    pub mean_points: f64,
}

/// Head to head of a pair.
#[derive(Debug, Clone, Serialize)]
pub struct Pairing {
    /// Configuration A.
    pub a: String,
    /// Configuration B.
    pub b: String,
    /// A's wins, B's wins, draws (decisive matches exclude draws).
    pub wins: (usize, usize, usize),
    /// A's share of the decisive matches.
    pub a_share: Rate,
    /// Games (rounds) won by A, by B, shared ([`Duel::games`]).
    pub game_wins: (usize, usize, usize),
    /// A's share of the decisive games.
    pub game_share: Rate,
}

/// The arena's results.
#[derive(Debug, Clone, Serialize)]
pub struct ArenaReport {
    /// Ruleset name.
    pub rules: String,
    /// Seats per table.
    pub seats: usize,
    /// Every match.
    pub duels: Vec<Duel>,
    /// Every pair.
    pub pairings: Vec<Pairing>,
    /// Every configuration.
    pub ratings: Vec<Rating>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Play the round robin: `deals` deals per pair, each played twice.
pub fn arena(
    rules: &Ruleset,
    bots: &[BotSpec],
    seats: usize,
    deals: usize,
    seed: u64,
    max_actions: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Duel>, SimError> {
    let mut jobs = Vec::new();
    for a in 0..bots.len() {
        for b in a + 1..bots.len() {
            for d in 0..deals {
                let deal = match_seed(seed, (a * bots.len() + b) * 1_000_000 + d);
                jobs.push((a, b, deal, true));
                jobs.push((a, b, deal, false));
            }
        }
    }
    jobs.into_par_iter()
        .enumerate()
        // Each worker hands its caches from one match to the next.
        .map_init(WarmCaches::default, |caches, (i, (a, b, deal, a_first))| {
            let specs: Vec<BotSpec> = (0..seats)
                .map(|s| {
                    if (s % 2 == 0) == a_first {
                        bots[a]
                    } else {
                        bots[b]
                    }
                })
                .collect();
            let o = play_one_warm(rules, &specs, deal, max_actions, false, caches).map_err(
                |error| SimError::Play {
                    index: i,
                    seed: deal,
                    error,
                },
            )?;
            let is_a = |s: usize| (s % 2 == 0) == a_first;
            let a_top = (0..seats).any(|s| is_a(s) && o.places[s] == 1);
            let b_top = (0..seats).any(|s| !is_a(s) && o.places[s] == 1);
            let score = o.finished.then_some(match (a_top, b_top) {
                (true, false) => 1.0,
                (false, true) => 0.0,
                _ => 0.5,
            });
            let mut games = (0, 0, 0);
            for g in &o.game_points {
                let low = g.iter().copied().min().unwrap_or(0);
                let a_low = (0..g.len()).any(|s| is_a(s) && g[s] == low);
                let b_low = (0..g.len()).any(|s| !is_a(s) && g[s] == low);
                match (a_low, b_low) {
                    (true, false) => games.0 += 1,
                    (false, true) => games.1 += 1,
                    _ => games.2 += 1,
                }
            }
            let mean = |mine: bool| {
                let p: Vec<f64> = (0..seats)
                    .filter(|&s| is_a(s) == mine)
                    .map(|s| o.points[s] as f64)
                    .collect();
                p.iter().sum::<f64>() / p.len().max(1) as f64
            };
            progress();
            Ok(Duel {
                a,
                b,
                seed: deal,
                a_first,
                score,
                games,
                points: (mean(true), mean(false)),
                actions: o.actions,
            })
        })
        .collect()
}

/// Bradley–Terry strengths (Elo scale, the first anchored at 1500) by the
/// minorization–maximization iteration; draws count half to each side.
pub fn fit_elo(n: usize, duels: &[Duel]) -> Vec<f64> {
    let mut wins = vec![0.0f64; n];
    let mut games = vec![vec![0.0f64; n]; n];
    for d in duels {
        let Some(s) = d.score else { continue };
        wins[d.a] += s;
        wins[d.b] += 1.0 - s;
        games[d.a][d.b] += 1.0;
        games[d.b][d.a] += 1.0;
    }
    // A small prior (one draw against a virtual average player) keeps
    // unbeaten or winless configurations finite.
    let mut p = vec![1.0f64; n];
    for _ in 0..500 {
        let mut next = p.clone();
        for i in 0..n {
            let mut denom = 1.0 / (p[i] + 1.0) * 2.0;
            for j in 0..n {
                if games[i][j] > 0.0 {
                    denom += games[i][j] / (p[i] + p[j]);
                }
            }
            next[i] = (wins[i] + 1.0) / denom;
        }
        p = next;
    }
    let anchor = p.first().copied().unwrap_or(1.0).max(1e-12);
    p.iter()
        .map(|&x| 1500.0 + 400.0 * (x.max(1e-12) / anchor).log10())
        .collect()
}

/// The report: pairings, ratings with bootstrap intervals.
pub fn report(
    rules: &Ruleset,
    bots: &[BotSpec],
    seats: usize,
    duels: Vec<Duel>,
    seconds: f64,
    seed: u64,
) -> ArenaReport {
    let n = bots.len();
    let elo = fit_elo(n, &duels);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); n];
    for _ in 0..200 {
        let resample: Vec<Duel> = (0..duels.len())
            .map(|_| duels[rng.random_range(0..duels.len())].clone())
            .collect();
        for (i, e) in fit_elo(n, &resample).into_iter().enumerate() {
            samples[i].push(e);
        }
    }
    let ratings = (0..n)
        .map(|i| {
            let mut s = samples[i].clone();
            s.sort_by(f64::total_cmp);
            let q = |p: f64| {
                s.get(((s.len().max(1) - 1) as f64 * p) as usize)
                    .copied()
                    .unwrap_or(elo[i])
            };
            let pts: Vec<f64> = duels
                .iter()
                .filter_map(|d| {
                    if d.a == i {
                        Some(d.points.0)
                    } else if d.b == i {
                        Some(d.points.1)
                    } else {
                        None
                    }
                })
                .collect();
            Rating {
                bot: bots[i].to_string(),
                elo: elo[i],
                low: q(0.025),
                high: q(0.975),
                mean_points: pts.iter().sum::<f64>() / pts.len().max(1) as f64,
            }
        })
        .collect();
    let mut pairings = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            let (mut wa, mut wb, mut dr) = (0, 0, 0);
            let (mut ga, mut gb, mut gd) = (0, 0, 0);
            for d in duels.iter().filter(|d| d.a == a && d.b == b) {
                if d.score.is_some() {
                    ga += d.games.0;
                    gb += d.games.1;
                    gd += d.games.2;
                }
                match d.score {
                    Some(s) if s > 0.75 => wa += 1,
                    Some(s) if s < 0.25 => wb += 1,
                    Some(_) => dr += 1,
                    None => {}
                }
            }
            pairings.push(Pairing {
                a: bots[a].to_string(),
                b: bots[b].to_string(),
                wins: (wa, wb, dr),
                a_share: wilson(wa as f64, (wa + wb) as f64),
                game_wins: (ga, gb, gd),
                game_share: wilson(ga as f64, (ga + gb) as f64),
            });
        }
    }
    ArenaReport {
        rules: rules.name.clone(),
        seats,
        duels,
        pairings,
        ratings,
        seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duel(a: usize, b: usize, score: f64) -> Duel {
        Duel {
            a,
            b,
            seed: 0,
            a_first: true,
            score: Some(score),
            games: (0, 0, 0),
            points: (0.0, 0.0),
            actions: 0,
        }
    }

    #[test]
    fn elo_orders_by_results_and_is_anchored() {
        // B beats A three times in four: about +190 Elo (with the prior a
        // little less).
        let mut duels = Vec::new();
        for i in 0..400 {
            duels.push(duel(0, 1, if i % 4 == 0 { 1.0 } else { 0.0 }));
        }
        let e = fit_elo(2, &duels);
        assert!((e[0] - 1500.0).abs() < 1e-9);
        assert!(e[1] > 1650.0 && e[1] < 1700.0, "{e:?}");
    }
}
