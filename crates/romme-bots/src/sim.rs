//! Many matches in parallel: the engine of `romme simulate` and `romme
//! arena`. Each match's seed is derived from the run's seed and the match
//! number, so results are identical whatever the number of threads.
//!
//! Outcomes are handed over in match order as the matches end
//! ([`simulate_each`]) and folded into a [`Tally`]: a run of millions of
//! matches keeps how often each score came up and a histogram of decision
//! times, not every outcome.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use hdrhistogram::Histogram;

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
    /// Place of each seat (1 = first; ties share a place). A lost solo
    /// patience is place 0 (no place; see `MatchSheet::standings`), so that
    /// its wins are the patiences that came out.
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
/// `progress` after each match and `each` with every outcome, in match
/// order, as the matches end: each worker takes the next match not yet
/// begun, and an outcome that ends before an earlier one waits only for it.
/// Memory stays flat however many matches are played (nothing is kept but
/// what `each` keeps). A bot's illegal move stops the run: the error is the
/// one of the earliest such match. So does `each` returning
/// [`ControlFlow::Break`] (a record that cannot be written, say): no match
/// is begun after it, the ones under way are dropped when they end, and
/// `Ok` is returned (the consumer knows why it stopped). With one thread
/// the matches are played on the caller's thread, one after the other.
pub fn simulate_each(
    cfg: &SimConfig,
    threads: usize,
    progress: &(dyn Fn() + Sync),
    mut each: impl FnMut(Outcome) -> ControlFlow<()>,
) -> Result<(), SimError> {
    // Refuse a bad ruleset or seat count before starting threads.
    Game::new(cfg.rules.clone(), cfg.seats.len(), cfg.seed)?;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    if threads == 1 {
        // One worker: the matches end in order, so they go straight to
        // `each` on this thread, with no pool, channel or wake-up per match
        // (a futex wake-up for each was 3 % of a random match's time).
        let mut failed = None;
        work_through(cfg, &next, &stop, progress, |_, out| match out {
            Ok(out) => each(out).is_continue(),
            Err(e) => {
                failed = Some(e);
                false
            }
        });
        return failed.map_or(Ok(()), Err);
    }
    // Bounded: workers wait while the consumer (a record to write, say)
    // falls behind.
    let (tx, rx) = std::sync::mpsc::sync_channel::<(usize, Result<Outcome, SimError>)>(64);
    let work = || {
        rayon::scope(|scope| {
            for _ in 0..rayon::current_num_threads().max(1) {
                let tx = tx.clone();
                let (next, stop) = (&next, &stop);
                scope.spawn(move |_| {
                    work_through(cfg, next, stop, progress, |i, out| {
                        tx.send((i, out)).is_ok()
                    });
                });
            }
        });
        drop(tx);
    };
    std::thread::scope(|threads_scope| {
        // The workers on their pool; the outcomes put in order here.
        threads_scope.spawn(|| on_threads(threads, work));
        let done = in_order(rx, &mut each);
        // (The receiver is gone: a worker still sending stops.)
        stop.store(true, Ordering::Relaxed);
        done
    })
}

/// One worker's loop: take the next match not yet begun (`next`), play
/// it, call `progress`, and hand its outcome to `put` with its index,
/// until the matches run out, `stop` is set or `put` says to stop.
fn work_through(
    cfg: &SimConfig,
    next: &AtomicUsize,
    stop: &AtomicBool,
    progress: &(dyn Fn() + Sync),
    mut put: impl FnMut(usize, Result<Outcome, SimError>) -> bool,
) {
    // The worker hands its caches from one match to the next.
    let mut caches = WarmCaches::default();
    while !stop.load(Ordering::Relaxed) {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= cfg.matches {
            break;
        }
        let seed = match_seed(cfg.seed, i);
        let out = play_one_warm(
            &cfg.rules,
            &cfg.seats,
            seed,
            cfg.max_actions,
            cfg.keep_records,
            &mut caches,
        )
        .map_err(|error| SimError::Play {
            index: i,
            seed,
            error,
        });
        progress();
        if !put(i, out) {
            break;
        }
    }
}

/// Hand the outcomes from `rx` to `each` in match order (an outcome that
/// comes early waits for the ones before it), until the senders are done,
/// an error comes up in order or `each` breaks. The receiver is dropped on
/// return.
fn in_order(
    rx: std::sync::mpsc::Receiver<(usize, Result<Outcome, SimError>)>,
    each: &mut impl FnMut(Outcome) -> ControlFlow<()>,
) -> Result<(), SimError> {
    let mut waiting: std::collections::BTreeMap<usize, Result<Outcome, SimError>> =
        std::collections::BTreeMap::new();
    let mut due = 0;
    for (i, out) in rx.iter() {
        waiting.insert(i, out);
        while let Some(out) = waiting.remove(&due) {
            due += 1;
            if each(out?).is_break() {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// [`simulate_each`], every outcome kept (in match order).
pub fn simulate(
    cfg: &SimConfig,
    threads: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Outcome>, SimError> {
    let mut outcomes = Vec::with_capacity(cfg.matches);
    simulate_each(cfg, threads, progress, |o| {
        outcomes.push(o);
        ControlFlow::Continue(())
    })?;
    Ok(outcomes)
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
    /// Actions per match (the match length) at the 10th, 25th, 50th, 75th
    /// and 90th percentile.
    pub actions_percentiles: [i64; 5],
    /// Per seat.
    pub seats: Vec<SeatSummary>,
}

/// The `p`-quantile of the values counted in `counts` (`n` in all): of
/// the sorted list they make, the value at `(n - 1) · p`, rounded.
fn counted_percentile(counts: &BTreeMap<i64, usize>, n: usize, p: f64) -> Option<i64> {
    if n == 0 {
        return None;
    }
    let i = ((n - 1) as f64 * p).round() as usize;
    let mut seen = 0;
    counts.iter().find_map(|(&v, &k)| {
        seen += k;
        (seen > i).then_some(v)
    })
}

/// What a [`Summary`] is made of, gathered one outcome at a time: counts,
/// each seat's wins, how often each of its match scores came up (scores
/// repeat, so this stays small; percentiles are exact), and a histogram of
/// each seat's decision times (three significant digits: a median or p99
/// within 0.1 %, in a few kilobytes however many decisions).
#[derive(Debug, Clone)]
pub struct Tally {
    matches: usize,
    finished: usize,
    games_played: usize,
    actions: usize,
    wins: Vec<f64>,
    /// Per seat: each match score and how many matches ended with it.
    points: Vec<BTreeMap<i64, usize>>,
    /// Each match length (actions) and how many matches had it.
    lengths: BTreeMap<i64, usize>,
    /// Nanoseconds per decision.
    times: Vec<Histogram<u64>>,
}

impl Tally {
    /// An empty tally for `seats` seats.
    pub fn new(seats: usize) -> Tally {
        Tally {
            matches: 0,
            finished: 0,
            games_played: 0,
            actions: 0,
            wins: vec![0.0; seats],
            points: vec![BTreeMap::new(); seats],
            lengths: BTreeMap::new(),
            times: (0..seats)
                .map(|_| Histogram::new(3).unwrap_or_else(|_| unreachable!("3 digits is valid")))
                .collect(),
        }
    }

    /// The matches counted so far.
    pub fn matches(&self) -> usize {
        self.matches
    }

    /// Count one match's outcome.
    pub fn add(&mut self, o: &Outcome) {
        self.matches += 1;
        self.finished += usize::from(o.finished);
        self.games_played += o.games;
        self.actions += o.actions;
        *self
            .lengths
            .entry(i64::try_from(o.actions).unwrap_or(i64::MAX))
            .or_insert(0) += 1;
        let firsts = o.places.iter().filter(|&&p| p == 1).count().max(1) as f64;
        for s in 0..self.wins.len() {
            if o.places.get(s) == Some(&1) {
                self.wins[s] += 1.0 / firsts;
            }
            if let Some(&p) = o.points.get(s) {
                *self.points[s].entry(p).or_insert(0) += 1;
            }
            for d in o.decisions.get(s).into_iter().flatten() {
                let ns = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
                // (The histogram grows to the value; only where it cannot
                // is the value clamped.)
                if self.times[s].record(ns).is_err() {
                    self.times[s].saturating_record(ns);
                }
            }
        }
    }

    /// The summary of the matches counted, which took `seconds`.
    pub fn summary(&self, cfg: &SimConfig, seconds: f64) -> Summary {
        let n = self.matches;
        let seats = (0..cfg.seats.len())
            .map(|s| {
                let empty = BTreeMap::new();
                let points = self.points.get(s).unwrap_or(&empty);
                let count: usize = points.values().sum();
                let sum: i64 = points.iter().map(|(&p, &k)| p * k as i64).sum();
                let wins = self.wins.get(s).copied().unwrap_or(0.0);
                let ms = |q: f64| {
                    self.times
                        .get(s)
                        .filter(|h| !h.is_empty())
                        .map_or(0.0, |h| h.value_at_quantile(q) as f64 / 1e6)
                };
                SeatSummary {
                    seat: s,
                    bot: cfg.seats[s].to_string(),
                    wins,
                    win_rate: wilson(wins, n as f64),
                    mean_points: sum as f64 / count.max(1) as f64,
                    points_percentiles: [0.1, 0.25, 0.5, 0.75, 0.9]
                        .map(|p| counted_percentile(points, count, p).unwrap_or(0)),
                    decision_ms_median: ms(0.5),
                    decision_ms_p99: ms(0.99),
                }
            })
            .collect();
        Summary {
            rules: cfg.rules.name.clone(),
            games: n,
            finished: self.finished,
            games_played: self.games_played,
            actions: self.actions,
            seconds,
            games_per_second: n as f64 / seconds.max(1e-9),
            actions_per_second: self.actions as f64 / seconds.max(1e-9),
            mean_actions: self.actions as f64 / n.max(1) as f64,
            actions_percentiles: [0.1, 0.25, 0.5, 0.75, 0.9]
                .map(|p| counted_percentile(&self.lengths, n, p).unwrap_or(0)),
            seats,
        }
    }
}

/// Summarize outcomes of a simulation that took `seconds` (as a [`Tally`]
/// of them does).
pub fn summarize(cfg: &SimConfig, outcomes: &[Outcome], seconds: f64) -> Summary {
    let mut tally = Tally::new(cfg.seats.len());
    for o in outcomes {
        tally.add(o);
    }
    tally.summary(cfg, seconds)
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

    /// A solo patience is won only when it came out (every hand laid down,
    /// no points left), not merely by being the one seat.
    #[test]
    fn a_patience_is_won_only_when_it_comes_out() {
        use romme_core::ruleset::presets;
        let Some(Ok(rules)) = presets::load("koenigs-solo") else {
            panic!("koenigs-solo preset");
        };
        let seats = [BotSpec::Heuristic];
        let mut lost = 0;
        for seed in 1..=12 {
            let o = play_one(&rules, &seats, seed, 10_000, false).expect("plays");
            assert!(o.finished, "seed {seed}");
            assert_eq!(
                o.places[0] == 1,
                o.points[0] == 0,
                "seed {seed}: place {} with {} points",
                o.places[0],
                o.points[0]
            );
            lost += usize::from(o.points[0] > 0);
        }
        assert!(
            lost > 0,
            "every patience came out: nothing was checked for a loss"
        );
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

    /// A run of `klassisch` with these seats, matches, seed and action limit.
    fn klassisch(seats: Vec<BotSpec>, matches: usize, seed: u64, max_actions: usize) -> SimConfig {
        use romme_core::ruleset::presets;
        let Some(Ok(rules)) = presets::load("klassisch") else {
            panic!("klassisch preset");
        };
        SimConfig {
            rules,
            seats,
            matches,
            seed,
            max_actions,
            keep_records: false,
        }
    }

    /// Outcomes come out in match order whatever the number of threads
    /// (workers finish matches out of order), each the match played alone.
    #[test]
    fn outcomes_come_in_match_order() {
        let cfg = klassisch(vec![BotSpec::Random; 3], 9, 3, 300);
        let alone: Vec<Outcome> = (0..9)
            .map(|i| play_one(&cfg.rules, &cfg.seats, match_seed(3, i), 300, false).expect("plays"))
            .collect();
        for threads in [1, 2, 3] {
            let mut got = Vec::new();
            simulate_each(&cfg, threads, &|| {}, |o| {
                got.push(o);
                ControlFlow::Continue(())
            })
            .expect("runs");
            let seeds: Vec<u64> = got.iter().map(|o| o.seed).collect();
            let want: Vec<u64> = (0..9).map(|i| match_seed(3, i)).collect();
            assert_eq!(seeds, want, "{threads} threads");
            for (a, b) in alone.iter().zip(&got) {
                assert_eq!((a.actions, &a.points), (b.actions, &b.points));
            }
        }
    }

    /// A consumer that breaks stops the run: it sees no outcome after the
    /// break, and the workers begin no match after it (at most what the
    /// channel and the workers under way hold is played on).
    #[test]
    fn a_consumer_that_breaks_stops_the_run() {
        let cfg = klassisch(vec![BotSpec::Random; 3], 2_000, 5, 30);
        for threads in [1, 2] {
            let played = AtomicUsize::new(0);
            let mut seen = Vec::new();
            simulate_each(
                &cfg,
                threads,
                &|| {
                    played.fetch_add(1, Ordering::Relaxed);
                },
                |o| {
                    seen.push(o.seed);
                    if seen.len() == 3 {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                },
            )
            .expect("runs");
            let want: Vec<u64> = (0..3).map(|i| match_seed(5, i)).collect();
            assert_eq!(seen, want, "{threads} threads");
            let played = played.load(Ordering::Relaxed);
            assert!(played < 200, "{threads} threads: {played} matches played");
        }
    }

    /// The tally gives the exact counts, wins and points, and decision
    /// times within the histogram's 0.1 %.
    #[test]
    fn the_tally_counts_as_the_outcomes_say() {
        let cfg = klassisch(vec![BotSpec::Random, BotSpec::Heuristic], 4, 1, 100);
        let outcome = |i: u64, places: Vec<usize>, points: Vec<i64>| Outcome {
            seed: i,
            finished: i != 3,
            games: 1,
            actions: 10 + i as usize,
            places,
            points,
            game_points: Vec::new(),
            // Seat 0 thinks 1..=250 microseconds per match (1..=1000 in
            // all), seat 1 a millisecond each time.
            decisions: vec![
                (1..=250)
                    .map(|k| Duration::from_micros(i * 250 + k))
                    .collect(),
                vec![Duration::from_millis(1); 5],
            ],
            record: None,
        };
        let outcomes = [
            outcome(0, vec![1, 2], vec![0, 40]),
            outcome(1, vec![2, 1], vec![25, 0]),
            outcome(2, vec![1, 1], vec![0, 0]),
            outcome(3, vec![1, 2], vec![0, 90]),
        ];
        let summary = summarize(&cfg, &outcomes, 2.0);
        assert_eq!(summary.games, 4);
        assert_eq!(summary.finished, 3);
        assert_eq!(summary.actions, 10 + 11 + 12 + 13);
        assert_eq!(summary.seats[0].wins, 2.5);
        assert_eq!(summary.seats[1].wins, 1.5);
        assert_eq!(summary.seats[1].points_percentiles, [0, 0, 40, 40, 90]);
        // Match lengths 10, 11, 12, 13 actions.
        assert_eq!(summary.actions_percentiles, [10, 11, 12, 12, 13]);
        let near = |got: f64, want: f64| (got - want).abs() <= want * 0.001;
        // Of 1..=1000 µs: the median 500 µs, the 99th percentile 990 µs.
        assert!(
            near(summary.seats[0].decision_ms_median, 0.5),
            "{:?}",
            summary.seats[0]
        );
        assert!(
            near(summary.seats[0].decision_ms_p99, 0.99),
            "{:?}",
            summary.seats[0]
        );
        assert!(
            near(summary.seats[1].decision_ms_median, 1.0),
            "{:?}",
            summary.seats[1]
        );
    }

    #[test]
    fn match_seeds_differ_and_repeat() {
        assert_eq!(match_seed(7, 3), match_seed(7, 3));
        assert_ne!(match_seed(7, 3), match_seed(7, 4));
        assert_ne!(match_seed(7, 3), match_seed(8, 3));
    }
}
