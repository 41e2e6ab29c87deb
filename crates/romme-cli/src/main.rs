//! The `romme` command: thin argument parsing and output over the romme
//! crates. Every subcommand lives in its own module; exit codes are part of
//! the interface (see each subcommand's `--help`).

mod arena_cmd;
mod engine_cmd;
mod json_lines;
mod meld_cmd;
mod replay_cmd;
mod rules_arg;
mod rules_cmd;
mod score_cmd;
mod serve_cmd;
mod simulate_cmd;
mod solve_cmd;

use std::io::Write as _;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// mimalloc instead of the system allocator: the engine, solver and bots
/// allocate many short-lived vectors (candidate actions, meld readings,
/// forked games); glibc's malloc and free were over a third of the time of
/// random self-play. Built with `no_thp`: mimalloc otherwise asks the
/// kernel for transparent huge pages, and every first touch of a 2 MB page
/// zeroes all of it — a tenth of a short simulation's time went to
/// `clear_page_erms`, and the resident size was 44 MB instead of 14 MB
/// (BENCHMARKS.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// romme — German Rummy (Rommé) and its family, with every house rule as configuration.
///
/// Rulesets are presets (see `romme rules list`) or TOML files that list every
/// knob or extend a preset with `base = "klassisch"` and override a few.
/// Cards are written `7h`, `10c`, `Qs`, `Ad`, `3x` (stars), `*` (joker),
/// and a card standing for another `*=8h` or `7d=Qx`. Quote `*` in the shell.
#[derive(Debug, Parser)]
#[command(name = "romme", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List, show and check rulesets.
    #[command(subcommand)]
    Rules(rules_cmd::RulesCommand),
    /// Questions about melds.
    #[command(subcommand)]
    Meld(meld_cmd::MeldCommand),
    /// Penalty points of a hand; scoring a whole match sheet.
    #[command(subcommand)]
    Score(score_cmd::ScoreCommand),
    /// Solve hands for scripts: JSON lines on stdin, one JSON line out each.
    ///
    /// Input:  {"hand": ["7h","7s","7c","8d","*"], "round": 5, "rules": "koenigs"}
    ///         ("round" only for Five Crowns; "rules" overrides --rules per line)
    /// Output: {"deadwood": 8, "melded": 4, "melds": [["7c","*=7d","7h","7s"]], "unmatched": ["8d"]}
    ///
    /// Other modes ("mode": ...), with "table": [["5h","6h","7h"], ...]:
    ///   "opening"   the best first meld: {"opening": true, "points": 40, "melds", "lay_offs", "left", "deadwood"}
    ///   "go-out"    can the hand go out now ("opened": false for a Hand-Rommé):
    ///               {"go_out": true, "hand_romme", "melds", "lay_offs", "discard", "rest"}
    ///   "lay-offs"  every lay-off on every table meld, joker exchanges included
    ///   "rearrange" rebuild the table to place the most hand cards (rulesets with
    ///               turn.rearrange = "free", or "rob" for Räuber's robbing):
    ///               {"placed": N, "placed_value": V,
    ///               "table": [[...]], "hand": [...], "changed", "freed", "optimal"};
    ///               optional "nodes" (default 3000000) and "millis" (default 2000) limits
    /// A bad line gets {"error": "line 17: unknown card 'Zz' ..."} and
    /// processing continues; the exit status is 0 unless stdin cannot be read.
    #[command(verbatim_doc_comment)]
    Solve {
        /// Default ruleset for lines without "rules" (a preset or a TOML file; default klassisch).
        #[arg(long, short)]
        rules: Option<String>,
    },
    /// Drive the game engine from another program: JSON lines on stdin, one
    /// JSON answer per line (schema and a worked example: docs/engine-protocol.md).
    ///
    ///   {"cmd": "new", "rules": "klassisch", "seats": 3, "seed": 42}
    ///   {"cmd": "view", "seat": 1}          (no "seat": the spectator view)
    ///   {"cmd": "legal", "seat": 1}
    ///   {"cmd": "act", "seat": 1, "action": {"type": "draw", "from": "stock"}}
    ///   {"cmd": "record"}                   (ruleset, seats, seed, deal, actions)
    ///   {"cmd": "load", "record": {...}}    (replay a record and continue from it)
    /// Answers: {"ok": true, ...}; a refused action or bad line gets
    /// {"error": "line 7: you must draw first"} and changes nothing.
    #[command(verbatim_doc_comment)]
    Engine,
    /// Run the game server: lobby, tables, bots, the web client, on an
    /// embedded SQLite file by default.
    ///
    /// Example: romme serve --bind 127.0.0.1:8080 --database-url sqlite:romme.db
    /// then open http://127.0.0.1:8080 (GET /healthz, /version, /metrics;
    /// the WebSocket protocol is described in PROTOCOL.md). Every acknowledged
    /// action is on disk: after a crash, start it again and running games go on.
    #[command(verbatim_doc_comment)]
    Serve(serve_cmd::ServeArgs),
    /// Copy the server's SQLite database to a new file, safely while the
    /// server runs (a consistent snapshot; the server goes on writing).
    ///
    /// Example: romme backup backups/romme-2026-11-27.db
    /// To restore, stop the server and start it on the copy:
    /// romme serve --database-url sqlite:backups/romme-2026-11-27.db
    /// (PostgreSQL: use pg_dump.)
    #[command(verbatim_doc_comment)]
    Backup(serve_cmd::BackupArgs),
    /// Load a running server on this machine with many bot-driven players.
    ///
    /// Example: romme loadtest --url ws://127.0.0.1:8080/ws --tables 500 --duration 60
    /// opens four WebSocket players per table, plays for the given seconds and
    /// reports actions/s, errors and round-trip percentiles (--json for scripts).
    /// Loopback addresses only; it stops by itself.
    #[command(verbatim_doc_comment)]
    Loadtest(serve_cmd::LoadtestArgs),
    /// Play many bot matches in parallel and summarize them.
    ///
    /// Example: romme simulate --rules klassisch --seats expert,heuristic,heuristic --games 200
    /// prints matches/s, actions/s and, per seat, the win rate with its 95%
    /// interval, the match points (mean and percentiles) and the time per move.
    /// The same --seed gives the same results with any --threads.
    #[command(verbatim_doc_comment)]
    Simulate(simulate_cmd::SimulateArgs),
    /// Round robin of bot configurations with paired deals, Elo ratings and
    /// a chart.
    ///
    /// Example: romme arena --rules klassisch --bots random,heuristic,expert:20ms
    ///          --deals 100 --chart arena.svg
    /// Each deal is played twice with the seats swapped, so the cards' luck and
    /// the first seat's advantage cancel out.
    #[command(verbatim_doc_comment)]
    Arena(arena_cmd::ArenaArgs),
    /// Print a game record (from `romme engine`'s "record" or `romme
    /// simulate --out`) step by step.
    Replay {
        /// The record file (JSON, or JSON lines from `simulate --out`).
        file: std::path::PathBuf,
        /// Which record of a JSON-lines file (1-based).
        #[arg(long, default_value_t = 1)]
        game: usize,
        /// Show only what this seat could see (other hands hidden).
        #[arg(long)]
        seat: Option<usize>,
        /// One JSON object per step instead of text.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = String::new();
    let result = match cli.command {
        Command::Rules(cmd) => rules_cmd::run(cmd, &mut out),
        Command::Meld(cmd) => meld_cmd::run(cmd, &mut out),
        Command::Score(cmd) => score_cmd::run(cmd, &mut out),
        Command::Solve { rules } => solve_cmd::run(rules),
        Command::Engine => engine_cmd::run(),
        Command::Serve(args) => serve_cmd::serve(&args),
        Command::Backup(args) => serve_cmd::backup(&args, &mut out),
        Command::Loadtest(args) => serve_cmd::loadtest(&args, &mut out),
        Command::Simulate(args) => simulate_cmd::run(&args, &mut out),
        Command::Arena(args) => arena_cmd::run(&args, &mut out),
        Command::Replay {
            file,
            game,
            seat,
            json,
        } => replay_cmd::run(&file, game, seat, json, &mut out),
    };
    // A closed pipe (e.g. `| head`) is not an error worth a message.
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("romme: cannot write output: {e}");
            return ExitCode::from(2);
        }
    }
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("romme: {err:#}");
            ExitCode::from(2)
        }
    }
}
