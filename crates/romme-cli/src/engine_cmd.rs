//! `romme engine`: the game engine over JSON lines (the protocol is
//! `romme_engine::driver`; schema: docs/engine-protocol.md). Rulesets by
//! preset name or file.

use std::process::ExitCode;

use anyhow::Result;
use romme_core::ruleset::Ruleset;
use romme_engine::driver::Driver;

use crate::rules_arg::resolve_rules;

/// A preset or ruleset file.
fn resolve(name: &str) -> Result<Ruleset, String> {
    resolve_rules(name)
        .map(|r| r.ruleset)
        .map_err(|e| format!("{e:#}"))
}

/// Run the driver until stdin ends.
pub fn run() -> Result<ExitCode> {
    let mut driver = Driver::new();
    crate::json_lines::run(|line| driver.answer(line, &resolve))
}
