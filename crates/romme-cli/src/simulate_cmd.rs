//! `romme simulate`: many bot matches in parallel, a progress bar, then a
//! summary (text or `--json`); `--out` writes every match's record.

use std::fmt::Write as _;
use std::io::Write as _;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use romme_bots::BotSpec;
use romme_bots::sim::{SimConfig, Summary, Tally, simulate_each};

use crate::rules_arg::resolve_rules;

/// Arguments of `romme simulate`.
#[derive(Debug, clap::Args)]
pub struct SimulateArgs {
    /// Ruleset: a preset name or a TOML file.
    #[arg(long, short, default_value = "klassisch")]
    pub rules: String,
    /// One bot per seat, comma-separated: random, heuristic, expert,
    /// expert:50ms (time per move), expert:400it (playouts per move).
    /// Default: a heuristic bot at each seat of the ruleset's smallest
    /// table (three for `klassisch`, which is played by at least three).
    #[arg(long)]
    pub seats: Option<String>,
    /// Matches to play (a match is what the ruleset calls one: a single
    /// game, Five Crowns' 11 rounds, a Wiener elimination, …).
    #[arg(long, short, default_value_t = 100)]
    pub games: usize,
    /// Seed of the run; the same seed gives the same results with any
    /// number of threads.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, short, default_value_t = 0)]
    pub threads: usize,
    /// A match stops unfinished after this many actions.
    #[arg(long, default_value_t = 20_000)]
    pub max_actions: usize,
    /// Print one JSON object instead of the text summary.
    #[arg(long)]
    pub json: bool,
    /// Write every match's record as one JSON line (read by `romme replay
    /// FILE --game N`).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Parse a comma-separated list of bot levels.
pub fn parse_bots(list: &str) -> Result<Vec<BotSpec>> {
    let specs = list
        .split(',')
        .map(|s| s.trim().parse::<BotSpec>())
        .collect::<Result<Vec<_>, _>>()?;
    if specs.is_empty() {
        bail!("no bots given");
    }
    Ok(specs)
}

/// A progress bar on stderr (hidden when stderr is not a terminal).
pub fn progress_bar(len: usize, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    if let Ok(style) = ProgressStyle::with_template(&format!(
        "{{spinner}} {what} {{bar:40}} {{pos}}/{{len}} [{{elapsed_precise}}, {{eta}} left]"
    )) {
        bar.set_style(style);
    }
    bar
}

/// Run `romme simulate`.
pub fn run(args: &SimulateArgs, out: &mut String) -> Result<ExitCode> {
    let rules = resolve_rules(&args.rules)?.ruleset;
    let seats = match &args.seats {
        Some(list) => parse_bots(list)?,
        None => vec![BotSpec::Heuristic; usize::from(rules.players.min).max(1)],
    };
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    romme_engine::Game::new(rules.clone(), seats.len(), args.seed).with_context(|| {
        format!(
            "{} cannot be played with {} seat(s) (--seats names one bot per seat)",
            rules.name,
            seats.len()
        )
    })?;
    let cfg = SimConfig {
        rules,
        seats,
        matches: args.games,
        seed: args.seed,
        max_actions: args.max_actions,
        keep_records: args.out.is_some(),
    };
    // The records are written as the matches end (in match order), and
    // the outcomes counted and dropped: memory stays flat however many
    // matches are played.
    let mut file = match &args.out {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => None,
    };
    let mut tally = Tally::new(cfg.seats.len());
    let mut write_error: Option<std::io::Error> = None;
    let bar = progress_bar(args.games, "matches");
    let t0 = Instant::now();
    // A record that cannot be written (a full disk, say) stops the run:
    // the matches after it would be played for nothing.
    simulate_each(&cfg, args.threads, &|| bar.inc(1), |o| {
        tally.add(&o);
        if let (Some(file), Some(record)) = (file.as_mut(), &o.record) {
            let written = serde_json::to_writer(&mut *file, record)
                .map_err(std::io::Error::from)
                .and_then(|()| writeln!(file));
            if let Err(e) = written {
                write_error = Some(e);
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    })?;
    let seconds = t0.elapsed().as_secs_f64();
    bar.finish_and_clear();
    if let (Some(path), Some(mut file)) = (&args.out, file) {
        if let Some(e) = write_error {
            return Err(e).with_context(|| {
                format!(
                    "cannot write {} (the run stopped at match {} of {})",
                    path.display(),
                    tally.matches(),
                    args.games
                )
            });
        }
        file.flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let summary = tally.summary(&cfg, seconds);
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&summary)?)?;
    } else {
        text(&summary, out)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn text(s: &Summary, out: &mut String) -> Result<()> {
    writeln!(
        out,
        "{}: {} matches ({} finished, {} games), {} actions in {:.2} s: {:.1} matches/s, {:.0} actions/s, {:.0} actions per match (p10/p25/p50/p75/p90 {})",
        s.rules,
        s.games,
        s.finished,
        s.games_played,
        s.actions,
        s.seconds,
        s.games_per_second,
        s.actions_per_second,
        s.mean_actions,
        s.actions_percentiles.map(|a| a.to_string()).join("/")
    )?;
    writeln!(
        out,
        "{:<5} {:<14} {:>7} {:>22} {:>9} {:>28} {:>16}",
        "seat",
        "bot",
        "wins",
        "win rate (95% CI)",
        "points",
        "points p10/p25/p50/p75/p90",
        "ms/move med/p99"
    )?;
    for seat in &s.seats {
        let p = seat.points_percentiles;
        writeln!(
            out,
            "{:<5} {:<14} {:>7.1} {:>6.1}% [{:>5.1}%, {:>5.1}%] {:>9.1} {:>28} {:>16}",
            seat.seat,
            seat.bot,
            seat.wins,
            seat.win_rate.rate * 100.0,
            seat.win_rate.low * 100.0,
            seat.win_rate.high * 100.0,
            seat.mean_points,
            format!("{}/{}/{}/{}/{}", p[0], p[1], p[2], p[3], p[4]),
            format!("{:.2}/{:.2}", seat.decision_ms_median, seat.decision_ms_p99),
        )?;
    }
    Ok(())
}
