//! `romme arena`: a round robin of bot configurations with paired deals and
//! seat rotation, ratings with intervals, and a chart (SVG).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use plotters::prelude::*;
use romme_bots::arena::{ArenaReport, arena, report};
use romme_bots::sim::on_threads;

use crate::rules_arg::resolve_rules;
use crate::simulate_cmd::{parse_bots, progress_bar};

/// Arguments of `romme arena`.
#[derive(Debug, clap::Args)]
pub struct ArenaArgs {
    /// Ruleset: a preset name or a TOML file.
    #[arg(long, short, default_value = "klassisch")]
    pub rules: String,
    /// The configurations, comma-separated (at least two): random,
    /// heuristic, expert, expert:50ms, expert:400it.
    #[arg(long, default_value = "random,heuristic")]
    pub bots: String,
    /// Seats per table; two configurations share a table, alternating
    /// seats. Default: the ruleset's smallest table (at least two; three
    /// for `klassisch`, which is played by at least three).
    #[arg(long)]
    pub seats: Option<usize>,
    /// Deals per pair of configurations; each deal is played twice, with
    /// the seats swapped.
    #[arg(long, short, default_value_t = 50)]
    pub deals: usize,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, short, default_value_t = 0)]
    pub threads: usize,
    /// A match stops unfinished after this many actions.
    #[arg(long, default_value_t = 20_000)]
    pub max_actions: usize,
    /// Write a chart of the ratings and point distributions (an SVG file,
    /// name ending in .svg).
    #[arg(long)]
    pub chart: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Run `romme arena`.
pub fn run(args: &ArenaArgs, out: &mut String) -> Result<ExitCode> {
    let rules = resolve_rules(&args.rules)?.ruleset;
    let bots = parse_bots(&args.bots)?;
    if bots.len() < 2 {
        bail!("an arena needs at least two bot configurations");
    }
    let seats = args
        .seats
        .unwrap_or_else(|| usize::from(rules.players.min).max(2));
    if seats < 2 {
        bail!("an arena needs at least two seats per table");
    }
    romme_engine::Game::new(rules.clone(), seats, args.seed)
        .with_context(|| format!("{} cannot be played with {seats} seats", rules.name))?;
    // The chart's file is checked before the run, not after it.
    if let Some(path) = &args.chart {
        let svg = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
        if !svg {
            bail!(
                "the chart is drawn as SVG: give --chart a file name ending in .svg, not {}",
                path.display()
            );
        }
    }
    // Opened without truncating, so an earlier chart survives a run that
    // fails; a file made only for this check is removed again then.
    let made_chart = match &args.chart {
        Some(path) => {
            let existed = path.exists();
            std::fs::OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)
                .with_context(|| format!("cannot create {}", path.display()))?;
            (!existed).then_some(path)
        }
        None => None,
    };
    let pairs = bots.len() * (bots.len() - 1) / 2;
    let bar = progress_bar(pairs * args.deals * 2, "matches");
    let t0 = Instant::now();
    let run = || {
        arena(
            &rules,
            &bots,
            seats,
            args.deals,
            args.seed,
            args.max_actions,
            &|| bar.inc(1),
        )
    };
    let duels = match on_threads(args.threads, run) {
        Ok(d) => d,
        Err(e) => {
            if let Some(path) = made_chart {
                let _ = std::fs::remove_file(path);
            }
            return Err(e.into());
        }
    };
    bar.finish_and_clear();
    let rep = report(
        &rules,
        &bots,
        seats,
        duels,
        t0.elapsed().as_secs_f64(),
        args.seed,
    );
    if let Some(path) = &args.chart {
        chart(&rep, path).with_context(|| format!("cannot draw {}", path.display()))?;
    }
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&rep)?)?;
    } else {
        text(&rep, out)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn text(r: &ArenaReport, out: &mut String) -> Result<()> {
    writeln!(
        out,
        "{}, {} seats: {} matches in {:.1} s",
        r.rules,
        r.seats,
        r.duels.len(),
        r.seconds
    )?;
    writeln!(
        out,
        "{:<16} {:>7} {:>18} {:>12}",
        "bot", "Elo", "95% interval", "mean points"
    )?;
    let mut order: Vec<_> = r.ratings.iter().collect();
    order.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    for x in order {
        writeln!(
            out,
            "{:<16} {:>7.0} {:>8.0} – {:<7.0} {:>12.1}",
            x.bot, x.elo, x.low, x.high, x.mean_points
        )?;
    }
    writeln!(out)?;
    for p in &r.pairings {
        writeln!(
            out,
            "{} vs {}: {}–{} ({} draws); {} wins {:.1}% of decisive matches [{:.1}%, {:.1}%]",
            p.a,
            p.b,
            p.wins.0,
            p.wins.1,
            p.wins.2,
            p.a,
            p.a_share.rate * 100.0,
            p.a_share.low * 100.0,
            p.a_share.high * 100.0
        )?;
        let (ga, gb, gd) = p.game_wins;
        if ga + gb + gd > p.wins.0 + p.wins.1 + p.wins.2 {
            // Several games per match (koenigs' rounds): each game too.
            writeln!(
                out,
                "  games: {ga}–{gb} ({gd} shared); {} wins {:.1}% of decisive games [{:.1}%, {:.1}%]",
                p.a,
                p.game_share.rate * 100.0,
                p.game_share.low * 100.0,
                p.game_share.high * 100.0
            )?;
        }
    }
    Ok(())
}

/// Two panels: ratings with their intervals, and each configuration's
/// distribution of match points (a histogram per configuration).
fn chart(r: &ArenaReport, path: &Path) -> Result<()> {
    let root = SVGBackend::new(path, (1000, 480)).into_drawing_area();
    root.fill(&WHITE)?;
    let (left, right) = root.split_horizontally(420);
    let n = r.ratings.len();
    let lo = r
        .ratings
        .iter()
        .map(|x| x.low)
        .fold(f64::INFINITY, f64::min)
        - 50.0;
    let hi = r
        .ratings
        .iter()
        .map(|x| x.high)
        .fold(f64::NEG_INFINITY, f64::max)
        + 50.0;
    let mut c = ChartBuilder::on(&left)
        .caption(
            format!("{}: Elo (95% interval)", r.rules),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), lo..hi)?;
    let names: Vec<String> = r.ratings.iter().map(|x| x.bot.clone()).collect();
    c.configure_mesh()
        .disable_x_mesh()
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| format!("{y:.0}"))
        .y_desc("Elo")
        .draw()?;
    // Ratings are differences: a dot with its interval, not a bar from an
    // arbitrary floor, and a line at the anchor's 1500.
    c.draw_series(std::iter::once(PathElement::new(
        vec![(-0.5, 1500.0), (n as f64 - 0.5, 1500.0)],
        RGBColor(150, 150, 150).stroke_width(1),
    )))?;
    for (i, x) in r.ratings.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let xi = i as f64;
        c.draw_series(std::iter::once(PathElement::new(
            vec![(xi, x.low), (xi, x.high)],
            BLACK.stroke_width(2),
        )))?;
        for y in [x.low, x.high] {
            c.draw_series(std::iter::once(PathElement::new(
                vec![(xi - 0.1, y), (xi + 0.1, y)],
                BLACK.stroke_width(2),
            )))?;
        }
        c.draw_series(std::iter::once(Circle::new((xi, x.elo), 7, color.filled())))?;
    }
    // Point distributions.
    let mut per: Vec<Vec<f64>> = vec![Vec::new(); n];
    for d in &r.duels {
        per[d.a].push(d.points.0);
        per[d.b].push(d.points.1);
    }
    let max = per.iter().flatten().copied().fold(1.0f64, f64::max).ceil();
    let min = per.iter().flatten().copied().fold(0.0f64, f64::min).floor();
    let bins = 20usize;
    let width = ((max - min) / bins as f64).max(1.0);
    let hist: Vec<Vec<usize>> = per
        .iter()
        .map(|ps| {
            let mut h = vec![0usize; bins + 1];
            for &p in ps {
                let b = (((p - min) / width) as usize).min(bins);
                h[b] += 1;
            }
            h
        })
        .collect();
    let top = hist.iter().flatten().copied().max().unwrap_or(1).max(1);
    let mut c = ChartBuilder::on(&right)
        .caption(
            "match points per seat (lower is better)",
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(min..(min + width * (bins as f64 + 1.0)), 0usize..top + 1)?;
    c.configure_mesh()
        .x_label_formatter(&|x| format!("{x:.0}"))
        .x_desc("points")
        .y_desc("matches")
        .draw()?;
    for (i, h) in hist.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        c.draw_series(LineSeries::new(
            h.iter()
                .enumerate()
                .map(|(b, &k)| (min + width * (b as f64 + 0.5), k)),
            color.stroke_width(2),
        ))?
        .label(r.ratings[i].bot.clone())
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2)));
    }
    c.configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
