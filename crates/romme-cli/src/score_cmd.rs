//! `romme score hand|sheet`: penalty points of a hand, and a whole match
//! score sheet (JSON in) with totals, standings, tie-breaks and money.

use std::fmt::Write as _;
use std::io::Read as _;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow};
use clap::Subcommand;
use romme_core::Ruleset;
use romme_core::notation::parse_cards;
use romme_core::penalty::hand_points;
use romme_core::scoring::money::{Settlement, settle};
use romme_core::scoring::sheet::{MatchSheet, MatchStatus, Standing};
use romme_core::scoring::{GameResult, GameScore, score_game};
use serde::{Deserialize, Serialize};

use crate::rules_arg::resolve_rules;

#[derive(Debug, Subcommand)]
pub enum ScoreCommand {
    /// Penalty points of cards left in a hand.
    ///
    /// Example: romme score hand --rules bieten Ah Kc Qh Qs 8d 8c 10h '*'   (002: 107)
    Hand {
        /// A preset name or a ruleset TOML file.
        #[arg(long, short, default_value = "klassisch")]
        rules: String,
        /// Five Crowns round (1-11), for the wild rank's 20 points.
        #[arg(long)]
        round: Option<u8>,
        /// The cards.
        #[arg(required = true, num_args = 1..)]
        cards: Vec<String>,
    },
    /// Score a match sheet: games in, totals, standings and money out.
    ///
    /// Input (a file, or `-` for stdin) is JSON:
    ///   {"players": ["Anna", "Ben", "Cem"],
    ///    "games": [{"players": [
    ///       {"went_out": true, "opened": true, "hand_romme": "plain"},
    ///       {"hand": ["Ah", "Kc"], "opened": true},
    ///       {"hand": ["*", "2c"]}]}]}
    /// Per player: "hand" (cards left), "went_out", "opened",
    /// "hand_romme" ("plain" | "with-lay-offs"), "first_to_meld"; per game
    /// "round" for Five Crowns. Exit status 0, or 2 for bad input.
    #[command(verbatim_doc_comment)]
    Sheet {
        /// A preset name or a ruleset TOML file.
        #[arg(long, short, default_value = "klassisch")]
        rules: String,
        /// Seed for drawing lots between players tied on every criterion.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// One JSON object instead of a table.
        #[arg(long)]
        json: bool,
        /// The sheet file, or `-` for stdin.
        #[arg(default_value = "-")]
        file: String,
    },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SheetInput {
    #[serde(default)]
    players: Vec<String>,
    games: Vec<GameResult>,
}

#[derive(Serialize)]
struct SheetOutput<'a> {
    players: &'a [String],
    games: &'a [GameScore],
    standings: &'a [Standing],
    status: &'a MatchStatus,
    money: Option<&'a Settlement>,
}

pub fn run(cmd: ScoreCommand, out: &mut String) -> Result<ExitCode> {
    match cmd {
        ScoreCommand::Hand {
            rules,
            round,
            cards,
        } => {
            let resolved = resolve_rules(&rules)?;
            let cards = parse_cards(&cards.join(" "))?;
            if let Some(c) = cards.iter().find(|c| !resolved.ruleset.deck.has_kind(**c)) {
                return Err(anyhow!("{c} is not in this ruleset's deck"));
            }
            let points = hand_points(&resolved.ruleset, &cards, round);
            writeln!(out, "{points}")?;
            Ok(ExitCode::SUCCESS)
        }
        ScoreCommand::Sheet {
            rules,
            seed,
            json,
            file,
        } => sheet(&rules, seed, json, &file, out),
    }
}

fn sheet(rules: &str, seed: u64, json: bool, file: &str, out: &mut String) -> Result<ExitCode> {
    let resolved = resolve_rules(rules)?;
    let r = &resolved.ruleset;
    let text = if file == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("cannot read the sheet from stdin")?;
        s
    } else {
        std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))?
    };
    let input: SheetInput =
        serde_json::from_str(&text).with_context(|| format!("{file}: not a valid score sheet"))?;
    let seats = input
        .games
        .first()
        .map(|g| g.players.len())
        .unwrap_or(input.players.len());
    let mut names = input.players.clone();
    if names.is_empty() {
        names = (1..=seats).map(|i| format!("Spieler {i}")).collect();
    }
    if names.len() != seats {
        return Err(anyhow!(
            "{} player names but {seats} players in the games",
            names.len()
        ));
    }
    let mut sheet = MatchSheet::new(seats);
    for (i, g) in input.games.iter().enumerate() {
        let score = score_game(r, g).with_context(|| format!("game {}", i + 1))?;
        sheet
            .record(r, score)
            .with_context(|| format!("game {}", i + 1))?;
    }
    let standings = sheet.standings(r, seed);
    let status = sheet.status(r);
    let money = r.money.enabled.then(|| settle(r, &sheet, &standings));
    if json {
        let o = SheetOutput {
            players: &names,
            games: sheet.games(),
            standings: &standings,
            status: &status,
            money: money.as_ref(),
        };
        writeln!(out, "{}", serde_json::to_string_pretty(&o)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    print_table(r, &names, &sheet, &standings, &status, money.as_ref(), out)?;
    Ok(ExitCode::SUCCESS)
}

fn print_table(
    r: &Ruleset,
    names: &[String],
    sheet: &MatchSheet,
    standings: &[Standing],
    status: &MatchStatus,
    money: Option<&Settlement>,
    out: &mut String,
) -> Result<()> {
    let club = r.scoring.scheme == romme_core::ruleset::ScoringScheme::Club;
    let w = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(6)
        .max(8);
    write!(out, "{:>5}", "Spiel")?;
    for n in names {
        write!(out, " | {n:>w$}")?;
    }
    writeln!(out)?;
    for (i, g) in sheet.games().iter().enumerate() {
        write!(out, "{:>5}", i + 1)?;
        for p in &g.players {
            let cell = match p.rating {
                Some(rt) if club => format!("{rt:+} ({})", p.hand_points),
                _ => format!("{}{}", p.points, if p.won { "*" } else { "" }),
            };
            write!(out, " | {cell:>w$}")?;
        }
        writeln!(out)?;
    }
    write!(out, "{:>5}", "Summe")?;
    for t in sheet.totals() {
        let cell = if club {
            format!("{:+} ({})", t.net_rating(), t.points)
        } else {
            t.points.to_string()
        };
        write!(out, " | {cell:>w$}")?;
    }
    writeln!(out)?;
    writeln!(out)?;
    match status {
        MatchStatus::Running { games } => writeln!(
            out,
            "Stand nach {games} Spielen / standings after {games} games:"
        )?,
        MatchStatus::Finished { .. } => writeln!(out, "Endstand / final standings:")?,
    }
    for s in standings {
        let note = match s.decided_by {
            romme_core::scoring::sheet::Decider::Main => "",
            romme_core::scoring::sheet::Decider::HandPoints => "  (Augensumme / hand points)",
            romme_core::scoring::sheet::Decider::PlusPoints => "  (Pluspunkte / plus points)",
            romme_core::scoring::sheet::Decider::Lot => "  (Los / by lot)",
            romme_core::scoring::sheet::Decider::Shared => "  (geteilt / shared)",
            romme_core::scoring::sheet::Decider::NotOut => {
                "  (nicht aufgegangen / did not come out)"
            }
        };
        let out_note = match s.total.eliminated_after {
            Some(g) => format!("  ausgeschieden nach Spiel {g} / out after game {g}"),
            None => String::new(),
        };
        let place = match s.place {
            0 => "–".to_string(),
            p => p.to_string(),
        };
        writeln!(out, "  {place}. {}{note}{out_note}", names[s.seat])?;
    }
    if let Some(m) = money {
        writeln!(out)?;
        match status {
            MatchStatus::Finished { .. } => writeln!(out, "Geld / money (EUR):")?,
            MatchStatus::Running { .. } => writeln!(
                out,
                "Geld, falls jetzt beendet / money if the match ended now (EUR):"
            )?,
        }
        for (i, n) in names.iter().enumerate() {
            writeln!(out, "  {n:w$}  {:>8.2}", m.net[i] as f64 / 100.0)?;
        }
    }
    Ok(())
}
