//! `romme meld check`: is this a valid meld, every way its wild cards can be
//! declared, and the meld value of each.

use std::fmt::Write as _;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;
use romme_core::MeldCard;
use romme_core::meld::{Declaration, MeldChecker, MeldError, MeldKind};
use romme_core::notation::format_cards;
use serde::Serialize;

use crate::rules_arg::resolve_rules;

#[derive(Debug, Subcommand)]
pub enum MeldCommand {
    /// Check whether cards form one valid meld under a ruleset.
    ///
    /// Prints every way the jokers and wild cards can be declared with the
    /// meld value of each (for the opening threshold), and the highest value.
    /// Cards already declared (`*=Qc`) must keep their declaration.
    ///
    /// Exit status: 0 valid, 1 not a valid meld, 2 bad input (unknown card,
    /// card not in the ruleset's deck, missing --round, bad ruleset).
    ///
    /// Examples:
    ///   romme meld check --rules klassisch '*' '*' Kc
    ///   romme meld check --rules club Kh Ah 2h
    ///   romme meld check --rules koenigs --round 5 7d 9h 10h --json
    #[command(verbatim_doc_comment)]
    Check {
        /// A preset name or a ruleset TOML file.
        #[arg(long, short, default_value = "klassisch")]
        rules: String,
        /// Five Crowns round (1-11): sets the wild rank (round + 2).
        #[arg(long)]
        round: Option<u8>,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// The cards, e.g. 7h 8h '*' or '*=9h'.
        #[arg(required = true, num_args = 1..)]
        cards: Vec<String>,
    },
}

#[derive(Serialize)]
struct JsonDeclaration<'a> {
    kind: MeldKind,
    cards: &'a [MeldCard],
    ordered: &'a [MeldCard],
    value: u32,
}

#[derive(Serialize)]
struct JsonOut<'a> {
    valid: bool,
    value: Option<u32>,
    declarations: Vec<JsonDeclaration<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

pub fn run(cmd: MeldCommand, out: &mut String) -> Result<ExitCode> {
    match cmd {
        MeldCommand::Check {
            rules,
            round,
            json,
            cards,
        } => check(&rules, round, json, &cards, out),
    }
}

fn check(
    rules: &str,
    round: Option<u8>,
    json: bool,
    args: &[String],
    out: &mut String,
) -> Result<ExitCode> {
    let resolved = resolve_rules(rules)?;
    let ruleset = &resolved.ruleset;
    let cards: Vec<MeldCard> = args
        .iter()
        .flat_map(|a| a.split(',').filter(|s| !s.trim().is_empty()))
        .map(|a| a.parse::<MeldCard>())
        .collect::<Result<_, _>>()?;
    let checker = MeldChecker::new(ruleset, round)?;
    let mut found: Vec<Declaration> = checker
        .declarations_matching(&cards)
        .context("cannot check these cards")?;
    found.sort_by(|a, b| b.value.cmp(&a.value).then(a.kind.cmp(&b.kind)));
    let best = found.iter().map(|d| d.value).max();
    let reason = if found.is_empty() {
        match checker.check(&cards) {
            Err(MeldError::Invalid { reason }) => Some(reason),
            Err(e) => Some(e.to_string()),
            Ok(_) => None,
        }
    } else {
        None
    };
    if json {
        let json_out = JsonOut {
            valid: !found.is_empty(),
            value: best,
            declarations: found
                .iter()
                .map(|d| JsonDeclaration {
                    kind: d.kind,
                    cards: &d.cards,
                    ordered: &d.ordered,
                    value: d.value,
                })
                .collect(),
            reason,
        };
        writeln!(out, "{}", serde_json::to_string(&json_out)?)?;
    } else if found.is_empty() {
        writeln!(
            out,
            "not a valid meld under {}: {}",
            ruleset.name,
            reason.unwrap_or_default()
        )?;
    } else {
        writeln!(
            out,
            "valid meld under {}: {} reading{}, highest value {}",
            ruleset.name,
            found.len(),
            if found.len() == 1 { "" } else { "s" },
            best.unwrap_or(0)
        )?;
        for d in &found {
            let kind = match d.kind {
                MeldKind::Set => "set",
                MeldKind::Run => "run",
            };
            let unicode: Vec<String> = d
                .ordered
                .iter()
                .filter_map(|c| c.effective().map(|f| f.unicode()))
                .collect();
            writeln!(
                out,
                "  {kind}  {:<28} value {:>3}   ({})",
                format_cards(&d.cards),
                d.value,
                unicode.join(" ")
            )?;
        }
    }
    Ok(if found.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
