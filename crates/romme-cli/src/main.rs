//! The `romme` command: thin argument parsing and output over the romme
//! crates. Every subcommand lives in its own module; exit codes are part of
//! the interface (see each subcommand's `--help`).

mod meld_cmd;
mod rules_arg;
mod rules_cmd;
mod score_cmd;

use std::io::Write as _;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = String::new();
    let result = match cli.command {
        Command::Rules(cmd) => rules_cmd::run(cmd, &mut out),
        Command::Meld(cmd) => meld_cmd::run(cmd, &mut out),
        Command::Score(cmd) => score_cmd::run(cmd, &mut out),
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
