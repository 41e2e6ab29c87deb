//! The JSON-lines driver behind `romme engine` (schema:
//! docs/engine-protocol.md): one request in, one answer out, no I/O — the
//! caller reads and writes the lines and says how a ruleset name becomes a
//! ruleset. One game at a time; "new" or "load" replaces it.

use romme_core::ruleset::{Ruleset, presets};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{Action, Deal, Game, Record};

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

/// The driver's state: the game, if one was created.
#[derive(Debug, Default)]
pub struct Driver {
    game: Option<Game>,
}

impl Driver {
    /// A driver without a game.
    pub fn new() -> Driver {
        Driver::default()
    }

    /// The current game, if any.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Answer one request line: the answer's JSON text, or the error
    /// message for a bad request (the game is then unchanged).
    /// `resolve` turns a ruleset name (a preset or, for the CLI, a file)
    /// into a ruleset.
    pub fn answer(
        &mut self,
        line: &str,
        resolve: &dyn Fn(&str) -> Result<Ruleset, String>,
    ) -> Result<String, String> {
        answer(&mut self.game, line, resolve)
    }
}

/// The ruleset resolver without files: presets by name only.
pub fn presets_only(name: &str) -> Result<Ruleset, String> {
    match presets::load(name) {
        Some(Ok(r)) => Ok(r),
        Some(Err(e)) => Err(e.to_string()),
        None => Err(format!(
            "no preset named '{name}' (presets: {})",
            presets::NAMES.join(", ")
        )),
    }
}

/// A request line that is not the JSON asked for, in words: the position
/// as the column of that line (serde's "at line 1 column N" would name the
/// line within the request, always 1, next to the caller's input line).
pub fn request_error(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    let text = match text.strip_suffix(&position) {
        Some(what) if e.line() == 1 => format!("{what} (column {})", e.column()),
        _ => text,
    };
    // serde's words for broken JSON ("expected ident") do not say what was
    // wrong with the line as a whole.
    match e.classify() {
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
            format!("not valid JSON: {text}")
        }
        _ => text,
    }
}

fn answer(
    game: &mut Option<Game>,
    line: &str,
    resolve: &dyn Fn(&str) -> Result<Ruleset, String>,
) -> Result<String, String> {
    let req: Request = serde_json::from_str(line).map_err(|e| request_error(&e))?;
    let no_game = || "no game yet: send {\"cmd\": \"new\", ...} first".to_string();
    match req {
        Request::New {
            rules,
            seats,
            seed,
            deal,
        } => {
            let name = rules.unwrap_or_else(|| "klassisch".into());
            let ruleset = resolve(&name)?;
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

#[cfg(test)]
mod tests {
    use super::request_error;

    /// A bad request line names the column, not serde's "line 1" of the
    /// one-line request (a syntax error and a number out of range).
    #[test]
    fn request_errors_name_the_column() {
        let Err(e) = serde_json::from_str::<serde_json::Value>(r#"{"hand": ["7h" "8h"]}"#) else {
            panic!("not JSON");
        };
        let text = request_error(&e);
        assert!(text.ends_with("(column 16)"), "{text}");
        assert!(text.starts_with("not valid JSON: "), "{text}");
        assert!(!text.contains("at line"), "{text}");
        let Err(e) = serde_json::from_str::<u8>("300") else {
            panic!("out of range");
        };
        // Valid JSON of the wrong value is not called broken.
        let text = request_error(&e);
        assert!(text.contains("column"), "{text}");
        assert!(!text.contains("not valid JSON"), "{text}");
        let Err(e) = serde_json::from_str::<serde_json::Value>(r#"{"hand": "#) else {
            panic!("cut short");
        };
        assert!(request_error(&e).starts_with("not valid JSON: "));
    }
}
