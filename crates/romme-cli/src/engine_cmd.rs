//! `romme engine`: the game engine over JSON lines, for programs written
//! against it (schema: docs/engine-protocol.md). One game at a time; "new"
//! or "load" replaces it.

use std::process::ExitCode;

use anyhow::Result;
use romme_engine::{Action, Deal, Game, Record};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::rules_arg::resolve_rules;

/// One request line.
#[derive(Debug, Deserialize)]
#[serde(tag = "cmd", rename_all = "kebab-case", deny_unknown_fields)]
enum Request {
    /// A new match.
    New {
        /// Preset name or ruleset file (default klassisch).
        #[serde(default)]
        rules: Option<String>,
        seats: usize,
        #[serde(default)]
        seed: u64,
        /// An explicit first deal.
        #[serde(default)]
        deal: Option<Deal>,
    },
    /// A seat's action.
    Act { seat: usize, action: Action },
    /// A seat's view; without a seat the spectator's.
    View {
        #[serde(default)]
        seat: Option<usize>,
    },
    /// A seat's listed legal actions.
    Legal { seat: usize },
    /// The game record so far.
    Record,
    /// Replay a record and continue from its end.
    Load { record: Box<Record> },
}

/// A successful answer: `body` with `"ok": true` added.
fn ok(mut body: Value) -> Result<String, String> {
    body["ok"] = Value::Bool(true);
    serde_json::to_string(&body).map_err(|e| e.to_string())
}

fn answer(game: &mut Option<Game>, line: &str) -> Result<String, String> {
    let req: Request = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let no_game = || "no game yet: send {\"cmd\": \"new\", ...} first".to_string();
    match req {
        Request::New {
            rules,
            seats,
            seed,
            deal,
        } => {
            let name = rules.unwrap_or_else(|| "klassisch".into());
            let ruleset = resolve_rules(&name).map_err(|e| format!("{e:#}"))?.ruleset;
            let g = match deal {
                Some(d) => Game::with_deal(ruleset, seats, seed, d),
                None => Game::new(ruleset, seats, seed),
            }
            .map_err(|e| e.to_string())?;
            let events = g.events().to_vec();
            let turn = g.turn();
            *game = Some(g);
            ok(json!({ "events": events, "turn": turn }))
        }
        Request::Act { seat, action } => {
            let g = game.as_mut().ok_or_else(no_game)?;
            let events = g.apply(seat, action).map_err(|e| e.to_string())?;
            ok(json!({ "events": events, "turn": g.turn(), "phase": g.phase() }))
        }
        Request::View { seat } => {
            let g = game.as_ref().ok_or_else(no_game)?;
            if let Some(s) = seat.filter(|&s| s >= g.seats()) {
                return Err(format!("there is no seat {s}"));
            }
            ok(json!({ "view": g.view(seat) }))
        }
        Request::Legal { seat } => {
            let g = game.as_ref().ok_or_else(no_game)?;
            ok(json!({ "actions": g.legal_actions(seat) }))
        }
        Request::Record => {
            let g = game.as_ref().ok_or_else(no_game)?;
            ok(json!({ "record": Record::of(g) }))
        }
        Request::Load { record } => {
            let g = record.replay().map_err(|e| e.to_string())?;
            let turn = g.turn();
            *game = Some(g);
            ok(json!({ "turn": turn }))
        }
    }
}

/// Run the driver until stdin ends.
pub fn run() -> Result<ExitCode> {
    let mut game: Option<Game> = None;
    crate::json_lines::run(|line| answer(&mut game, line))
}
