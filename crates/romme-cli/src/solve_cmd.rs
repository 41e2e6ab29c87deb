//! `romme solve`: JSON lines in, one JSON line out per input line. Answers
//! a hand's best partition, best opening, way out, lay-offs or table
//! rearrangement (`"mode"`); a bad line gets `{"error": "line N: …"}` and
//! processing continues. Rulesets are loaded once and the solver's tables
//! built once per ruleset and round, so a long file costs little more per
//! line than the answer itself.

use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Result;
use romme_core::{CardKind, MeldCard, Ruleset};
use romme_solver::{
    LayOff, Limits, PartitionSolver, SolverTables, best_opening_with, go_out_with, lay_offs,
    rearrange_with,
};
use serde::{Deserialize, Serialize};

use crate::rules_arg::resolve_rules;

/// One input line.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    hand: Vec<CardKind>,
    #[serde(default)]
    round: Option<u8>,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    table: Option<Vec<Vec<MeldCard>>>,
    #[serde(default)]
    opened: Option<bool>,
    /// Rearrangement: search node limit (deterministic).
    #[serde(default)]
    nodes: Option<u64>,
    /// Rearrangement: time limit in milliseconds.
    #[serde(default)]
    millis: Option<u64>,
}

#[derive(Debug, Serialize)]
struct OpeningAnswer {
    opening: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    points: Option<u32>,
    melds: Vec<Vec<MeldCard>>,
    lay_offs: Vec<LayOff>,
    left: Vec<CardKind>,
    deadwood: Option<u32>,
}

#[derive(Debug, Serialize)]
struct GoOutAnswer {
    go_out: bool,
    hand_romme: bool,
    melds: Vec<Vec<MeldCard>>,
    lay_offs: Vec<LayOff>,
    discard: Option<CardKind>,
    rest: Vec<CardKind>,
}

#[derive(Debug, Serialize)]
struct RearrangeAnswer {
    placed: usize,
    placed_value: u32,
    table: Vec<Vec<MeldCard>>,
    hand: Vec<CardKind>,
    changed: usize,
    freed: Vec<CardKind>,
    optimal: bool,
}

#[derive(Debug, Serialize)]
struct LayOffsAnswer {
    lay_offs: Vec<LayOff>,
}

#[derive(Debug, Serialize)]
struct PartitionAnswer {
    deadwood: u32,
    melded: usize,
    melds: Vec<Vec<MeldCard>>,
    unmatched: Vec<CardKind>,
}

/// Rulesets by name or file, loaded once, and the partition solver's
/// tables per ruleset and round, built once (building them costs far more
/// than answering one line).
struct RulesCache {
    default: Option<String>,
    loaded: HashMap<String, Result<Arc<Ruleset>, String>>,
    tables: HashMap<(String, Option<u8>), Result<SolverTables, String>>,
}

impl RulesCache {
    /// The ruleset a line names (`None`: the flag's, else `klassisch`).
    fn name(&self, name: Option<&str>) -> String {
        name.map(str::to_string)
            .or_else(|| self.default.clone())
            .unwrap_or_else(|| "klassisch".to_string())
    }

    fn load(&mut self, name: &str) -> Result<&Arc<Ruleset>, String> {
        self.loaded
            .entry(name.to_string())
            .or_insert_with(|| {
                resolve_rules(name)
                    .map(|r| Arc::new(r.ruleset))
                    .map_err(|e| format!("{e:#}"))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// A solver for ruleset `name` (loaded as `rules`) and `round`, from
    /// the tables kept for them.
    fn solver(
        &mut self,
        name: &str,
        rules: &Arc<Ruleset>,
        round: Option<u8>,
    ) -> Result<PartitionSolver<'_>, String> {
        self.tables
            .entry((name.to_string(), round))
            .or_insert_with(|| {
                SolverTables::new(Arc::clone(rules), round).map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(Clone::clone)?
            .solver()
            .map_err(|e| e.to_string())
    }
}

fn answer(cache: &mut RulesCache, line: &str) -> Result<String, String> {
    let req: Request =
        serde_json::from_str(line).map_err(|e| romme_engine::driver::request_error(&e))?;
    let name = cache.name(req.rules.as_deref());
    let shared = Arc::clone(cache.load(&name)?);
    let rules: &Ruleset = &shared;
    match req.mode.as_deref().unwrap_or("partition") {
        "partition" => {
            if req.table.is_some() {
                return Err(
                    "\"table\" is not used by mode \"partition\" (use opening, go-out or lay-offs)"
                        .into(),
                );
            }
            let solver = cache.solver(&name, &shared, req.round)?;
            let p = solver.solve(&req.hand).map_err(|e| e.to_string())?;
            let a = PartitionAnswer {
                deadwood: p.deadwood,
                melded: p.melded(),
                melds: p.melds,
                unmatched: p.unmatched,
            };
            serde_json::to_string(&a).map_err(|e| e.to_string())
        }
        "opening" => {
            let table = req.table.unwrap_or_default();
            let solver = cache.solver(&name, &shared, req.round)?;
            let plan = best_opening_with(&solver, &table, &req.hand).map_err(|e| e.to_string())?;
            let a = match plan {
                Some(p) => OpeningAnswer {
                    opening: true,
                    points: Some(p.points),
                    melds: p.melds,
                    lay_offs: p.lay_offs,
                    left: p.left,
                    deadwood: Some(p.deadwood),
                },
                None => OpeningAnswer {
                    opening: false,
                    points: None,
                    melds: Vec::new(),
                    lay_offs: Vec::new(),
                    left: req.hand.clone(),
                    deadwood: None,
                },
            };
            serde_json::to_string(&a).map_err(|e| e.to_string())
        }
        "go-out" => {
            let table = req.table.unwrap_or_default();
            let opened = req.opened.unwrap_or(true);
            let solver = cache.solver(&name, &shared, req.round)?;
            let way = go_out_with(&solver, &table, &req.hand, opened).map_err(|e| e.to_string())?;
            let a = match way {
                Some(w) => GoOutAnswer {
                    go_out: true,
                    hand_romme: w.hand_romme,
                    melds: w.melds,
                    lay_offs: w.lay_offs,
                    discard: w.discard,
                    rest: w.rest,
                },
                None => GoOutAnswer {
                    go_out: false,
                    hand_romme: false,
                    melds: Vec::new(),
                    lay_offs: Vec::new(),
                    discard: None,
                    rest: Vec::new(),
                },
            };
            serde_json::to_string(&a).map_err(|e| e.to_string())
        }
        "lay-offs" => {
            let table = req.table.unwrap_or_default();
            let offs = lay_offs(rules, req.round, &table, &req.hand).map_err(|e| e.to_string())?;
            serde_json::to_string(&LayOffsAnswer { lay_offs: offs }).map_err(|e| e.to_string())
        }
        "rearrange" => {
            let table = req.table.unwrap_or_default();
            let limits = Limits {
                nodes: req.nodes.unwrap_or(Limits::default().nodes),
                time: Some(std::time::Duration::from_millis(req.millis.unwrap_or(2000))),
            };
            let solver = cache.solver(&name, &shared, req.round)?;
            let r =
                rearrange_with(&solver, &table, &req.hand, limits).map_err(|e| e.to_string())?;
            let a = RearrangeAnswer {
                placed: r.placed.len(),
                placed_value: r.placed_value,
                table: r.table,
                hand: r.hand,
                changed: r.changed,
                freed: r.freed,
                optimal: r.optimal,
            };
            serde_json::to_string(&a).map_err(|e| e.to_string())
        }
        other => Err(format!(
            "unknown mode '{other}' (modes: partition, opening, go-out, lay-offs, rearrange)"
        )),
    }
}

/// Read JSON lines from stdin until it ends; exit 0 unless stdin fails.
pub fn run(rules: Option<String>) -> Result<ExitCode> {
    let mut cache = RulesCache {
        default: rules,
        loaded: HashMap::new(),
        tables: HashMap::new(),
    };
    // Fail early on a bad --rules.
    if cache.default.is_some() {
        let name = cache.name(None);
        if let Err(e) = cache.load(&name) {
            anyhow::bail!("{e}");
        }
    }
    crate::json_lines::run(|line| answer(&mut cache, line))
}
