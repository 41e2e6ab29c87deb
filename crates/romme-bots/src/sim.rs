//! Many matches in parallel: the engine of `romme simulate` and `romme
//! arena`. Each match's seed is derived from the run's seed and the match
//! number, so results are identical whatever the number of threads.

use std::time::Duration;

use rayon::prelude::*;
use romme_core::ruleset::Ruleset;
use romme_engine::{Game, NewGameError, Record, WarmCaches};
use serde::Serialize;

use crate::{BotSpec, PlayError, play_match};

/// What to simulate.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// The ruleset.
    pub rules: Ruleset,
    /// One bot per seat.
    pub seats: Vec<BotSpec>,
    /// Matches to play.
    pub matches: usize,
    /// The run's seed.
    pub seed: u64,
    /// A match stops (unfinished) after this many actions.
    pub max_actions: usize,
    /// Keep each match's record (for `--out`).
    pub keep_records: bool,
}

/// One match's outcome.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The match's seed.
    pub seed: u64,
    /// Whether it reached its end.
    pub finished: bool,
    /// Games played in it.
    pub games: usize,
    /// Actions applied.
    pub actions: usize,
    /// Place of each seat (1 = first; ties share a place).
    pub places: Vec<usize>,
    /// Match points of each seat (penalty points; club: net rating).
    pub points: Vec<i64>,
    /// Each game's points per seat, in order of play.
    pub game_points: Vec<Vec<i64>>,
    /// Each seat's decision times.
    pub decisions: Vec<Vec<Duration>>,
    /// The record, when kept.
    pub record: Option<Record>,
}

/// A simulation that could not run.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The ruleset or seat count is refused.
    #[error(transparent)]
    NewGame(#[from] NewGameError),
    /// A bot made an illegal move (a defect).
    #[error("match {index} (seed {seed}): {error}")]
    Play {
        /// Match number.
        index: usize,
        /// Its seed.
        seed: u64,
        /// What went wrong.
        error: PlayError,
    },
}

/// The seed of match `index` of a run (SplitMix64 of both).
pub fn match_seed(seed: u64, index: usize) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(index as u64 + 1));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Play one match with `seats` on a game of `rules` with `seed`.
pub fn play_one(
    rules: &Ruleset,
    seats: &[BotSpec],
    seed: u64,
    max_actions: usize,
    keep_record: bool,
) -> Result<Outcome, PlayError> {
    let mut caches = WarmCaches::default();
    play_one_warm(rules, seats, seed, max_actions, keep_record, &mut caches)
}

/// [`play_one`], starting with `caches` from an earlier match of the same
/// ruleset and leaving this match's in their place (the same outcome,
/// sooner: see [`WarmCaches`]).
pub fn play_one_warm(
    rules: &Ruleset,
    seats: &[BotSpec],
    seed: u64,
    max_actions: usize,
    keep_record: bool,
    caches: &mut WarmCaches,
) -> Result<Outcome, PlayError> {
    let mut game = match Game::new(rules.clone(), seats.len(), seed) {
        Ok(g) => g,
        Err(e) => return Err(PlayError::Setup(e.to_string())),
    };
    game.use_warm_caches(caches);
    let mut bots: Vec<_> = seats
        .iter()
        .enumerate()
        .map(|(s, spec)| spec.build(match_seed(seed, s + 1000)))
        .collect();
    let r = play_match(&mut game, &mut bots, max_actions)?;
    *caches = game.warm_caches();
    let mut places = vec![0; seats.len()];
    let mut points = vec![0; seats.len()];
    let club = rules.scoring.scheme == romme_core::ruleset::ScoringScheme::Club;
    for s in &r.standings {
        places[s.seat] = s.place;
        points[s.seat] = if club {
            s.total.net_rating()
        } else {
            s.total.points
        };
    }
    Ok(Outcome {
        seed,
        finished: r.finished,
        games: r.games,
        actions: r.actions,
        places,
        points,
        game_points: game
            .sheet()
            .games()
            .iter()
            .map(|g| g.players.iter().map(|p| p.points).collect())
            .collect(),
        decisions: r.decisions,
        record: keep_record.then(|| Record::of(&game)),
    })
}

/// Run the simulation on `threads` threads (0: all cores), calling
/// `progress` after each match.
pub fn simulate(
    cfg: &SimConfig,
    threads: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Outcome>, SimError> {
    // Refuse a bad ruleset or seat count before starting threads.
    Game::new(cfg.rules.clone(), cfg.seats.len(), cfg.seed)?;
    let run = || {
        (0..cfg.matches)
            .into_par_iter()
            // Each worker hands its caches from one match to the next.
            .map_init(WarmCaches::default, |caches, i| {
                let seed = match_seed(cfg.seed, i);
                let out = play_one_warm(
                    &cfg.rules,
                    &cfg.seats,
                    seed,
                    cfg.max_actions,
                    cfg.keep_records,
                    caches,
                )
                .map_err(|error| SimError::Play {
                    index: i,
                    seed,
                    error,
                });
                progress();
                out
            })
            .collect::<Result<Vec<_>, _>>()
    };
    on_threads(threads, run)
}

/// Run `f` on a pool of `threads` threads (0: all cores; the global pool
/// if a pool cannot be built).
pub fn on_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(f),
        Err(_) => f(),
    }
}

/// A proportion with its 95% Wilson interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rate {
    /// Successes / trials.
    pub rate: f64,
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

/// The Wilson score interval (95%) of `k` successes in `n` trials.
pub fn wilson(k: f64, n: f64) -> Rate {
    if n <= 0.0 {
        return Rate {
            rate: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let z = 1.96f64;
    let p = k / n;
    let d = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / d;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / d;
    Rate {
        rate: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// Per-seat figures of a simulation.
#[derive(Debug, Clone, Serialize)]
pub struct SeatSummary {
    /// Seat number.
    pub seat: usize,
    /// The bot.
    pub bot: String,
    /// Matches won (a shared first place counts as a share).
    pub wins: f64,
    /// Win rate with its 95% interval.
    pub win_rate: Rate,
    /// Mean match points.
    pub mean_points: f64,
    /// Points at the 10th, 25th, 50th, 75th and 90th percentile.
    pub points_percentiles: [i64; 5],
    /// Median decision time (ms).
    pub decision_ms_median: f64,
    /// 99th percentile decision time (ms).
    pub decision_ms_p99: f64,
}

/// The summary `romme simulate` prints.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Ruleset name.
    pub rules: String,
    /// Matches played.
    pub games: usize,
    /// Matches that reached their end.
    pub finished: usize,
    /// Games inside the matches.
    pub games_played: usize,
    /// Actions in all matches.
    pub actions: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Matches per second.
    pub games_per_second: f64,
    /// Actions per second.
    pub actions_per_second: f64,
    /// Mean actions per match.
    pub mean_actions: f64,
    /// Per seat.
    pub seats: Vec<SeatSummary>,
}

fn percentile<T: Copy + Ord>(sorted: &[T], p: f64) -> Option<T> {
    if sorted.is_empty() {
        return None;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted.get(i).copied()
}

/// Summarize outcomes of a simulation that took `seconds`.
pub fn summarize(cfg: &SimConfig, outcomes: &[Outcome], seconds: f64) -> Summary {
    let n = outcomes.len();
    let actions: usize = outcomes.iter().map(|o| o.actions).sum();
    let seats = (0..cfg.seats.len())
        .map(|s| {
            let wins: f64 = outcomes
                .iter()
                .filter(|o| o.places.get(s) == Some(&1))
                .map(|o| 1.0 / o.places.iter().filter(|&&p| p == 1).count().max(1) as f64)
                .sum();
            let mut points: Vec<i64> = outcomes
                .iter()
                .filter_map(|o| o.points.get(s).copied())
                .collect();
            points.sort_unstable();
            let mut times: Vec<Duration> = outcomes
                .iter()
                .filter_map(|o| o.decisions.get(s))
                .flatten()
                .copied()
                .collect();
            times.sort_unstable();
            let ms = |d: Option<Duration>| d.map_or(0.0, |d| d.as_secs_f64() * 1000.0);
            SeatSummary {
                seat: s,
                bot: cfg.seats[s].to_string(),
                wins,
                win_rate: wilson(wins, n as f64),
                mean_points: points.iter().sum::<i64>() as f64 / points.len().max(1) as f64,
                points_percentiles: [0.1, 0.25, 0.5, 0.75, 0.9]
                    .map(|p| percentile(&points, p).unwrap_or(0)),
                decision_ms_median: ms(percentile(&times, 0.5)),
                decision_ms_p99: ms(percentile(&times, 0.99)),
            }
        })
        .collect();
    Summary {
        rules: cfg.rules.name.clone(),
        games: n,
        finished: outcomes.iter().filter(|o| o.finished).count(),
        games_played: outcomes.iter().map(|o| o.games).sum(),
        actions,
        seconds,
        games_per_second: n as f64 / seconds.max(1e-9),
        actions_per_second: actions as f64 / seconds.max(1e-9),
        mean_actions: actions as f64 / n.max(1) as f64,
        seats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 60 of 100: about [0.502, 0.691].
        let r = wilson(60.0, 100.0);
        assert!((r.low - 0.502).abs() < 0.002, "{r:?}");
        assert!((r.high - 0.691).abs() < 0.002, "{r:?}");
        assert_eq!(wilson(0.0, 0.0).high, 1.0);
    }

    /// Caches handed from match to match change no match: each match of a
    /// run played warm (after the ones before it) gives the record it gives
    /// when played alone, on presets with and without round wilds (that
    /// they are taken over is the engine's test).
    #[test]
    fn warm_caches_change_no_match() {
        use romme_core::ruleset::presets;
        for name in ["klassisch", "offen", "koenigs"] {
            let Some(Ok(rules)) = presets::load(name) else {
                panic!("preset {name}");
            };
            let seats = [BotSpec::Random, BotSpec::Heuristic, BotSpec::Random];
            let mut caches = WarmCaches::default();
            for i in 0..4 {
                let seed = match_seed(5, i);
                let alone = play_one(&rules, &seats, seed, 400, true).expect("plays");
                let warm =
                    play_one_warm(&rules, &seats, seed, 400, true, &mut caches).expect("plays");
                let (Some(a), Some(w)) = (alone.record, warm.record) else {
                    panic!("records kept");
                };
                assert_eq!(a.actions, w.actions, "{name} match {i}");
                assert_eq!(alone.points, warm.points, "{name} match {i}");
            }
        }
    }

    #[test]
    fn match_seeds_differ_and_repeat() {
        assert_eq!(match_seed(7, 3), match_seed(7, 3));
        assert_ne!(match_seed(7, 3), match_seed(7, 4));
        assert_ne!(match_seed(7, 3), match_seed(8, 3));
    }
}
