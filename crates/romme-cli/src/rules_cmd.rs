//! `romme rules list|show`: the presets and fully resolved rulesets with the
//! source of every knob.

use std::fmt::Write as _;
use std::process::ExitCode;

use anyhow::Result;
use clap::Subcommand;
use romme_core::ruleset::presets;
use serde::Serialize;

use crate::rules_arg::resolve_rules;

#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// List the shipped presets with a short German and English description.
    List {
        /// One JSON array instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Show a ruleset fully resolved: every knob, its value, and the file,
    /// line and rule text that set it. Exits 2 (with the file, line and key)
    /// when the ruleset is malformed or contradictory.
    Show {
        /// A preset name (see `romme rules list`) or a TOML file.
        rules: String,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Serialize)]
struct PresetInfo<'a> {
    name: &'a str,
    title_de: &'a str,
    title_en: &'a str,
    summary_de: &'a str,
    summary_en: &'a str,
    sources: &'a [String],
}

pub fn run(cmd: RulesCommand, out: &mut String) -> Result<ExitCode> {
    match cmd {
        RulesCommand::List { json } => list(json, out),
        RulesCommand::Show { rules, json } => show(&rules, json, out),
    }
}

fn list(json: bool, out: &mut String) -> Result<ExitCode> {
    let mut loaded = Vec::new();
    for name in presets::NAMES {
        if let Some(r) = presets::load(name) {
            loaded.push((name, r?));
        }
    }
    if json {
        let infos: Vec<PresetInfo> = loaded
            .iter()
            .map(|(name, r)| PresetInfo {
                name,
                title_de: &r.info.title_de,
                title_en: &r.info.title_en,
                summary_de: &r.info.summary_de,
                summary_en: &r.info.summary_en,
                sources: &r.info.sources,
            })
            .collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&infos)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let width = presets::NAMES.iter().map(|n| n.len()).max().unwrap_or(0);
    for (name, r) in &loaded {
        writeln!(
            out,
            "{name:width$}  {} / {}  [{}]",
            r.info.title_de,
            r.info.title_en,
            r.info.sources.join(", ")
        )?;
        writeln!(out, "{:width$}  de: {}", "", r.info.summary_de)?;
        writeln!(out, "{:width$}  en: {}", "", r.info.summary_en)?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "Show one with every knob and its source: romme rules show NAME"
    )?;
    Ok(ExitCode::SUCCESS)
}

fn show(arg: &str, json: bool, out: &mut String) -> Result<ExitCode> {
    let resolved = resolve_rules(arg)?;
    if json {
        #[derive(Serialize)]
        struct Out<'a> {
            chain: &'a [String],
            ruleset: &'a romme_core::Ruleset,
            knobs: &'a [romme_core::ruleset::Knob],
        }
        let json_out = Out {
            chain: &resolved.chain,
            ruleset: &resolved.ruleset,
            knobs: &resolved.knobs,
        };
        writeln!(out, "{}", serde_json::to_string_pretty(&json_out)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let r = &resolved.ruleset;
    writeln!(
        out,
        "{} — {} / {}",
        r.name, r.info.title_de, r.info.title_en
    )?;
    writeln!(out, "de: {}", r.info.summary_de)?;
    writeln!(out, "en: {}", r.info.summary_en)?;
    writeln!(out, "from: {}", resolved.chain.join(" <- "))?;
    writeln!(out)?;
    let width = resolved
        .knobs
        .iter()
        .filter(|k| !k.key.starts_with("info."))
        .map(|k| k.key.len() + 3 + k.value.len())
        .max()
        .unwrap_or(0)
        .min(60);
    let mut section = String::new();
    for k in resolved
        .knobs
        .iter()
        .filter(|k| !k.key.starts_with("info."))
    {
        let top = k.key.split('.').next().unwrap_or("").to_string();
        if top != section && k.key.contains('.') {
            writeln!(out, "[{top}]")?;
            section = top;
        }
        let kv = format!("{} = {}", k.key, k.value);
        let place = match k.line {
            Some(l) => format!("{}:{l}", k.origin),
            None => k.origin.clone(),
        };
        writeln!(out, "  {kv:width$}  # {place}  {}", k.source)?;
    }
    Ok(ExitCode::SUCCESS)
}
