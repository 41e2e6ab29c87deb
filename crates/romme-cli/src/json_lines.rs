//! The JSON-lines loop shared by `romme solve` and `romme engine`: one
//! request per input line, one JSON answer per line, `{"error": "line N:
//! ..."}` for a bad line; a closed stdout ends quietly.

use std::io::{BufRead as _, Write as _};
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use serde::Serialize;

#[derive(Serialize)]
struct ErrorAnswer {
    error: String,
}

/// Answer every non-empty stdin line with `answer` (JSON text or an error
/// message), writing one line per answer.
pub fn run(mut answer: impl FnMut(&str) -> Result<String, String>) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for (i, line) in stdin.lock().lines().enumerate() {
        let line = line.context("cannot read stdin")?;
        if line.trim().is_empty() {
            continue;
        }
        let text = match answer(&line) {
            Ok(json) => json,
            Err(e) => serde_json::to_string(&ErrorAnswer {
                error: format!("line {}: {e}", i + 1),
            })?,
        };
        let written = writeln!(out, "{text}").and_then(|()| out.flush());
        if let Err(e) = written {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                return Ok(ExitCode::SUCCESS);
            }
            return Err(e).context("cannot write stdout");
        }
    }
    Ok(ExitCode::SUCCESS)
}
