//! The `romme` binary as a user and a script see it: output, JSON and exit codes.

use std::process::{Command, Output};

use romme_core::ruleset::presets;

fn romme(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_romme"))
        .args(args)
        .output()
        .expect("runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn rules_list_names_every_preset_in_both_languages() {
    let o = romme(&["rules", "list"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for name in presets::NAMES {
        assert!(text.contains(name), "{name} missing");
    }
    assert!(text.contains("Königs-Rommé") && text.contains("Five Crowns"));
    let o = romme(&["rules", "list", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let arr = v.as_array().expect("array");
    assert_eq!(arr.len(), presets::NAMES.len());
    assert!(
        arr.iter()
            .all(|p| p["summary_de"].as_str().is_some_and(|s| !s.is_empty()))
    );
}

#[test]
fn rules_show_prints_every_preset_with_sources() {
    for name in presets::NAMES {
        let o = romme(&["rules", "show", name]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let text = stdout(&o);
        assert!(text.contains("opening.threshold = "), "{name}");
        assert!(text.contains("penalty.joker = "), "{name}");
        assert!(
            text.contains(&format!("rulesets/{name}.toml:")),
            "{name} cites its own file"
        );
    }
    let text = stdout(&romme(&["rules", "show", "wiener"]));
    assert!(text.contains(
        "from: rulesets/wiener.toml <- rulesets/ohne-auslegen.toml <- rulesets/klassisch.toml"
    ));
    assert!(text.contains("deal.hand_size = 10"));
    assert!(text.contains("Jeder Spieler erhält nur zehn Karten"));
    let o = romme(&["rules", "show", "club", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["ruleset"]["opening"]["threshold"], 40);
    assert!(v["knobs"].as_array().is_some_and(|k| k.len() > 60));
}

#[test]
fn rules_show_a_user_file_extending_a_preset_and_another_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("haus.toml"),
        "base = \"klassisch\"\nname = \"haus\"\n[opening]\nthreshold = 35 # Familie Müller\n",
    )
    .expect("write");
    std::fs::write(
        dir.path().join("turnier.toml"),
        "base = \"haus.toml\"\nname = \"turnier\"\n[timer]\nseconds = 30 # Vereinsabend\n",
    )
    .expect("write");
    let file = dir.path().join("turnier.toml");
    let o = romme(&["rules", "show", file.to_str().expect("utf8")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("opening.threshold = 35"), "{text}");
    assert!(text.contains("Familie Müller"));
    assert!(text.contains("timer.seconds = 30"));
    assert!(text.contains("rulesets/klassisch.toml"));
}

#[test]
fn malformed_ruleset_files_get_the_line_and_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        "base = \"klassisch\"\nname = \"bad\"\n\n[turn]\nrearange = \"free\"\n",
    )
    .expect("write");
    let o = romme(&["rules", "show", bad.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("bad.toml:5: turn.rearange: unknown field"),
        "{err}"
    );

    std::fs::write(
        &bad,
        "base = \"klassisch\"\nname = \"bad\"\n[timer]\nseconds = 45\n",
    )
    .expect("write");
    let o = romme(&["rules", "show", bad.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad.toml:4: timer.seconds: 45 is not one of"),
        "{}",
        stderr(&o)
    );

    let o = romme(&["rules", "show", "no-such-preset"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no preset or file named 'no-such-preset'"));
}

#[test]
fn meld_check_exit_codes_and_text() {
    let o = romme(&["meld", "check", "--rules", "klassisch", "*", "*", "Kc"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("highest value 31"));
    let o = romme(&["meld", "check", "--rules", "klassisch", "Kh", "Ah", "2h"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("K-A-2"), "{}", stdout(&o));
    let o = romme(&["meld", "check", "--rules", "club", "Kh", "Ah", "2h"]);
    assert_eq!(o.status.code(), Some(0));
    let o = romme(&["meld", "check", "--rules", "klassisch", "3x", "4x", "5x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("3x is not in this ruleset's deck"));
    let o = romme(&["meld", "check", "--rules", "klassisch", "Zz", "9h"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown card 'Zz'"));
    let o = romme(&["meld", "check", "--rules", "koenigs", "7d", "9h", "10h"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("give the round"));
    let o = romme(&[
        "meld",
        "check",
        "--rules",
        "klassisch",
        "--round",
        "x",
        "7h",
    ]);
    assert_eq!(o.status.code(), Some(2), "bad option value");
}

#[test]
fn meld_check_json_matches_the_documented_shape() {
    let o = romme(&[
        "meld",
        "check",
        "--rules",
        "klassisch",
        "--json",
        "*",
        "*",
        "Kc",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["valid"], true);
    assert_eq!(v["value"], 31);
    let decls = v["declarations"].as_array().expect("array");
    assert!(
        decls
            .iter()
            .any(|d| d["cards"] == serde_json::json!(["*=Qc", "*=Ac", "Kc"]) && d["value"] == 31)
    );
    let o = romme(&[
        "meld",
        "check",
        "--rules",
        "klassisch",
        "--json",
        "7h",
        "8s",
        "Kc",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["valid"], false);
    assert!(v["value"].is_null());
    assert_eq!(v["declarations"], serde_json::json!([]));
    // Five Crowns round 5: sevens are wild.
    let o = romme(&[
        "meld", "check", "--rules", "koenigs", "--round", "5", "--json", "7d", "9h", "10h",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["valid"], true);
    assert!(v["declarations"].as_array().is_some_and(|d| {
        d.iter()
            .any(|x| x["cards"] == serde_json::json!(["7d=8h", "9h", "10h"]))
    }));
    // A declared joker keeps its declaration.
    let o = romme(&[
        "meld",
        "check",
        "--rules",
        "klassisch",
        "--json",
        "*=Jc",
        "*",
        "Kc",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert!(
        v["declarations"]
            .as_array()
            .is_some_and(|d| !d.is_empty() && d.iter().all(|x| x["cards"][0] == "*=Jc"))
    );
}

#[test]
fn help_teaches_the_notation() {
    let text = stdout(&romme(&["--help"]));
    assert!(text.contains("*=8h"));
    let text = stdout(&romme(&["meld", "check", "--help"]));
    assert!(text.contains("Exit status: 0 valid, 1 not a valid meld, 2 bad input"));
    assert!(text.contains("romme meld check --rules klassisch '*' '*' Kc"));
}

#[test]
fn score_hand_gives_the_worked_example() {
    let o = romme(&[
        "score", "hand", "--rules", "bieten", "Ah", "Kc", "Qh", "Qs", "8d", "8c", "10h", "*",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "107", "002 worked example");
    let o = romme(&[
        "score", "hand", "--rules", "koenigs", "--round", "2", "4d", "Kx", "*",
    ]);
    assert_eq!(stdout(&o).trim(), "83", "000: wild 20 + king 13 + joker 50");
    let o = romme(&["score", "hand", "--rules", "klassisch", "3x"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn score_sheet_club_series_with_tie_break_and_money() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("serie.json");
    std::fs::write(
        &file,
        r#"{"players": ["Anna", "Ben", "Cem"],
 "games": [
  {"players": [{"went_out": true, "opened": true, "hand_romme": "plain"}, {"hand": ["*","*","*","*","*","Ac"]}, {"hand": ["5c"], "opened": true}]},
  {"players": [{"hand": ["10c","2c"]}, {"went_out": true, "opened": true}, {"hand": ["*","Ac"], "opened": true}]}
 ]}"#,
    )
    .expect("write");
    let path = file.to_str().expect("utf8");
    let o = romme(&["score", "sheet", "--rules", "club", path]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("+10 (12)"), "{text}");
    assert!(
        text.contains("3. Ben  (Augensumme / hand points)"),
        "{text}"
    );
    let o = romme(&["score", "sheet", "--rules", "club", "--json", path]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["standings"][0]["seat"], 0);
    assert_eq!(v["standings"][2]["decided_by"], "hand-points");
    assert_eq!(v["money"]["pot"], 1550);
    assert_eq!(v["status"]["state"], "running");

    std::fs::write(
        &file,
        r#"{"games": [{"players": [{"went_out": true}, {"went_out": true}]}]}"#,
    )
    .expect("write");
    let o = romme(&["score", "sheet", "--rules", "klassisch", path]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("game 1: only one player can go out"),
        "{}",
        stderr(&o)
    );
    std::fs::write(&file, r#"{"games": [{"players": [{"wentout": true}]}]}"#).expect("write");
    let o = romme(&["score", "sheet", "--rules", "klassisch", path]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown field `wentout`"),
        "{}",
        stderr(&o)
    );
}

fn romme_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_romme"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawns");
    // A process that fails at once (bad arguments) may close stdin before
    // the input is written: a broken pipe here is its answer, not an error.
    let written = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "writes: {e}");
    }
    child.wait_with_output().expect("runs")
}

/// Run `romme ARGS` on `input` (JSON lines), expect exit status 0 and
/// read one JSON value per line of its output.
fn json_lines(args: &[&str], input: &str) -> Vec<serde_json::Value> {
    let o = romme_stdin(args, input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

#[test]
fn solve_answers_one_json_line_per_input_and_survives_bad_lines() {
    let input = [
        r#"{"hand": ["7h","7s","7c","8d","*"]}"#,
        r#"{"hand": ["Zz"]}"#,
        r#"not json"#,
        r#"{"hand": ["7d","9h","10h","Kx"], "round": 5, "rules": "koenigs"}"#,
        r#"{"hand": ["Kh","Ah","2h"]}"#,
        r#"{"hand": ["7d","9h"], "rules": "koenigs"}"#,
    ]
    .join("\n");
    let lines = json_lines(&["solve", "--rules", "club"], &input);
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[0]["deadwood"], 8);
    assert_eq!(lines[0]["unmatched"], serde_json::json!(["8d"]));
    assert!(
        lines[1]["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("line 2: unknown card 'Zz'"))
    );
    assert!(
        lines[2]["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("line 3:"))
    );
    assert_eq!(lines[3]["deadwood"], 13, "Five Crowns round 5: Kx left");
    assert_eq!(lines[4]["deadwood"], 0, "--rules club allows K-A-2");
    assert!(
        lines[5]["error"]
            .as_str()
            .is_some_and(|e| e.contains("round")),
        "{}",
        lines[5]
    );
    // Every reported meld validates under the ruleset.
    let melds = lines[3]["melds"].as_array().expect("melds");
    assert_eq!(melds[0], serde_json::json!(["9h", "10h", "7d=Jh"]));
}

/// `solve` builds the solver's tables once per ruleset and round: lines of
/// one ruleset with different rounds (Five Crowns' wild rank) are each
/// answered under their own round, however they alternate.
#[test]
fn solve_keeps_one_solver_per_ruleset_and_round() {
    let line = |round: u8| {
        format!(r#"{{"hand": ["7d","9h","10h","Kx","9c"], "round": {round}, "rules": "koenigs"}}"#)
    };
    let input = [line(5), line(7), line(5), line(7)].join("\n");
    let lines = json_lines(&["solve"], &input);
    assert_eq!(lines.len(), 4);
    assert!(lines.iter().all(|l| l.get("error").is_none()), "{lines:?}");
    // Round 5: the sevens are wild; round 7: the nines.
    assert_ne!(lines[0], lines[1]);
    assert_eq!(lines[0], lines[2]);
    assert_eq!(lines[1], lines[3]);
    for (l, round) in [(&lines[0], 5), (&lines[1], 7)] {
        let alone = json_lines(&["solve"], &line(round));
        assert_eq!(std::slice::from_ref(l), &alone[..], "round {round}");
    }
}

#[test]
fn solve_with_a_bad_default_ruleset_fails_at_once() {
    let o = romme_stdin(&["solve", "--rules", "nope"], "{\"hand\": []}\n");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn solve_opening_go_out_and_lay_off_modes() {
    let input = [
        r#"{"hand": ["Kh","Ks","Kc","10h","Jh","Qh","9d"], "mode": "opening"}"#,
        r#"{"hand": ["Kh","Ks","Kc","2c","3c","4c","9d"], "mode": "opening"}"#,
        r#"{"hand": ["8h","9h","Kd"], "table": [["5h","6h","7h"]], "mode": "go-out"}"#,
        r#"{"hand": ["2c","3c","4c","5d","5h","5s","9h"], "mode": "go-out", "opened": false}"#,
        r#"{"hand": ["6h","8h"], "table": [["5h","*=6h","7h"]], "mode": "lay-offs"}"#,
        r#"{"hand": ["6h"], "mode": "sideways"}"#,
        r#"{"hand": ["7s","7c","Kd"], "table": [["7h","8h","9h","10h"]], "mode": "rearrange", "rules": "offen"}"#,
        r#"{"hand": ["7s"], "table": [["7h","8h","9h"]], "mode": "rearrange"}"#,
        r#"{"hand": ["7h","7s","Kd"], "table": [["7h","7s","7c","7d"]], "mode": "rearrange", "rules": "raeuber"}"#,
    ]
    .join("\n");
    let lines = json_lines(&["solve"], &input);
    assert_eq!(lines[0]["opening"], true);
    assert_eq!(lines[0]["points"], 60);
    assert_eq!(lines[0]["left"], serde_json::json!(["9d"]));
    assert_eq!(lines[1]["opening"], false, "39 < 40");
    assert_eq!(lines[2]["go_out"], true);
    assert_eq!(lines[2]["discard"], "Kd");
    assert_eq!(lines[3]["hand_romme"], true);
    let offs = lines[4]["lay_offs"].as_array().expect("array");
    assert!(
        offs.iter().any(|l| l["freed"] == serde_json::json!(["*"])),
        "exchange listed"
    );
    assert!(
        offs.iter()
            .any(|l| l["result"] == serde_json::json!(["5h", "*=6h", "7h", "8h"]))
    );
    assert!(
        lines[5]["error"]
            .as_str()
            .is_some_and(|e| e.contains("unknown mode 'sideways'"))
    );
    // Räuber (003's example): rob the set of four, two new sets of three.
    assert_eq!(lines[8]["placed"], 2, "{}", lines[8]);
    assert_eq!(lines[8]["hand"], serde_json::json!(["Kd"]));
    assert_eq!(lines[8]["optimal"], true);
    assert_eq!(lines[8]["table"].as_array().map(Vec::len), Some(2));
}

#[test]
fn engine_plays_over_json_lines_and_the_record_replays() {
    let deal = r#"{"hands": [["2c","3c","4c","5d","6d","7d","8s","9s","10s","Jh","Qh","Kh","Ac"], ["7h","7s","7c","Kd","Ks","2h","3h","4h","9d","9c","5s","6s","Qd"], ["2d","3d","4d","5c","6c","7c","8h","9h","10h","Js","Qs","Ks","Ad"]], "discard": "Jd", "stock": ["Kc"]}"#;
    let input = [
        r#"{"cmd": "act", "seat": 1, "action": {"type": "draw", "from": "stock"}}"#.to_string(),
        format!(r#"{{"cmd": "new", "rules": "klassisch", "seats": 3, "seed": 42, "deal": {deal}}}"#),
        r#"{"cmd": "act", "seat": 1, "action": {"type": "discard", "card": "Qd"}}"#.into(),
        r#"{"cmd": "act", "seat": 1, "action": {"type": "draw", "from": "discard"}}"#.into(),
        r#"{"cmd": "act", "seat": 1, "action": {"type": "meld", "melds": [["7h","7s","7c"], ["2h","3h","4h"]]}}"#.into(),
        r#"{"cmd": "act", "seat": 1, "action": {"type": "meld", "melds": [["7h","7s","7c"], ["Jd","Qd","Kd"]]}}"#.into(),
        r#"{"cmd": "legal", "seat": 1}"#.into(),
        r#"{"cmd": "view", "seat": 2}"#.into(),
        r#"{"cmd": "view"}"#.into(),
        r#"{"cmd": "fly"}"#.into(),
        r#"{"cmd": "record"}"#.into(),
    ]
    .join("\n");
    let lines = json_lines(&["engine"], &input);
    assert_eq!(lines.len(), 11);
    assert!(
        lines[0]["error"]
            .as_str()
            .is_some_and(|e| e.contains("no game yet"))
    );
    assert_eq!(lines[1]["turn"], 1);
    assert_eq!(lines[2]["error"], "line 3: you must draw first");
    assert_eq!(lines[3]["phase"], "play");
    assert_eq!(
        lines[4]["error"],
        "line 5: opening needs 40 points, these melds have 30"
    );
    assert_eq!(lines[5]["events"][0]["opening"], 51);
    let actions = lines[6]["actions"].as_array().expect("actions");
    assert!(
        actions
            .iter()
            .any(|a| a["type"] == "discard" && a["card"] == "9c")
    );
    assert!(actions.iter().all(|a| a["type"] != "draw"), "already drawn");
    // Seat 2 sees its own hand, counts of the others, and seat 1's melds.
    let v = &lines[7]["view"];
    assert_eq!(v["hand"].as_array().map(Vec::len), Some(13));
    assert_eq!(v["seats"][1]["cards"], 8);
    assert_eq!(v["table"].as_array().map(Vec::len), Some(2));
    assert!(lines[8]["view"]["hand"].is_null(), "spectator");
    assert!(
        lines[9]["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("line 10:"))
    );
    // The record replays in words.
    let dir = tempfile::tempdir().expect("tmp");
    let file = dir.path().join("game.json");
    std::fs::write(&file, lines[10]["record"].to_string()).expect("write");
    let path = file.to_str().expect("utf-8");
    let o = romme(&["replay", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let text = stdout(&o);
    assert!(
        text.contains("seat 1 draws Jd from the discard pile"),
        "{text}"
    );
    assert!(
        text.contains("seat 1 opens with 51 points: [7c 7h 7s] [Jd Qd Kd]"),
        "{text}"
    );
    assert!(text.contains("seat 0 holds 2c 3c 4c"), "{text}");
    // As seat 2 saw it: no other hand.
    let o = romme(&["replay", path, "--seat", "2"]);
    let text = stdout(&o);
    assert!(text.contains("seat 0 holds 13 cards"), "{text}");
    assert!(text.contains("seat 2 holds "), "{text}");
    let o = romme(&["replay", path, "--seat", "9"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn simulate_json_records_and_replay() {
    let dir = tempfile::tempdir().expect("tmp");
    let file = dir.path().join("records.jsonl");
    let path = file.to_str().expect("utf-8");
    let args = [
        "simulate",
        "--rules",
        "klassisch",
        "--seats",
        "random,heuristic,random",
        "--games",
        "5",
        "--seed",
        "7",
        "--threads",
        "2",
        "--json",
        "--out",
        path,
    ];
    let o = romme(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
    assert_eq!(summary["games"], 5);
    assert!(summary["actions"].as_u64().is_some_and(|a| a > 0));
    assert!(summary["seconds"].as_f64().is_some_and(|s| s >= 0.0));
    // The match lengths' percentiles, rising, within the actions played.
    let lengths: Vec<u64> = summary["actions_percentiles"]
        .as_array()
        .expect("actions_percentiles")
        .iter()
        .filter_map(serde_json::Value::as_u64)
        .collect();
    assert_eq!(lengths.len(), 5, "{summary}");
    assert!(
        lengths.windows(2).all(|w| w[0] <= w[1]) && lengths[0] > 0,
        "{lengths:?}"
    );
    let seats = summary["seats"].as_array().expect("seats");
    assert_eq!(seats.len(), 3);
    assert_eq!(seats[1]["bot"], "heuristic");
    // One record per match, each replayable; the same seed gives the
    // same records on one thread.
    let text = std::fs::read_to_string(&file).expect("records");
    assert_eq!(text.lines().count(), 5);
    let o = romme(&["replay", path, "--game", "5"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("== game 1"), "{}", stdout(&o));
    let o = romme(&["replay", path, "--game", "6"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("holds 5 record(s)"), "{}", stderr(&o));
    let again = dir.path().join("again.jsonl");
    let mut one_thread = args;
    one_thread[10] = "1";
    one_thread[13] = again.to_str().expect("utf-8");
    let o = romme(&one_thread);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&again).expect("records"), text);
}

/// A record that cannot be written stops the run with an error naming the
/// file (`/dev/full` refuses every write with "no space left").
#[test]
fn simulate_stops_when_a_record_cannot_be_written() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let o = romme(&[
        "simulate",
        "--rules",
        "klassisch",
        "--seats",
        "random,random,random",
        "--games",
        "100000",
        "--threads",
        "1",
        "--out",
        "/dev/full",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("cannot write /dev/full"), "{err}");
    // It stopped within the first few matches (a record is some kilobytes,
    // the file's buffer eight), not after all of them.
    let at: usize = err
        .split("stopped at match ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no match number in {err}"));
    assert!((1..100).contains(&at), "{err}");
    assert!(stdout(&o).is_empty(), "no summary: {}", stdout(&o));
}

/// Without `--seats`, `simulate` and `arena` sit at the ruleset's smallest
/// table (`klassisch`, the default, is played by at least three).
#[test]
fn simulate_and_arena_default_to_the_smallest_table() {
    let o = romme(&["simulate", "--games", "2", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let seats = summary["seats"].as_array().expect("seats");
    assert_eq!(seats.len(), 3);
    assert!(seats.iter().all(|s| s["bot"] == "heuristic"), "{summary}");
    let o = romme(&["simulate", "--rules", "offen", "--games", "2", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(summary["seats"].as_array().map(Vec::len), Some(2));

    let o = romme(&["arena", "--deals", "2", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(report["seats"], 3);
    // Two seats where the ruleset says fewer than three is an error that
    // names the ruleset's limits.
    let o = romme(&["arena", "--deals", "2", "--seats", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("3 to 6 players"), "{}", stderr(&o));
}

/// The arena's chart is SVG: another file name is refused before the run,
/// and an SVG chart is written.
#[test]
fn arena_chart_is_svg_and_checked_first() {
    let dir = tempfile::tempdir().expect("tmp");
    let png = dir.path().join("chart.png");
    let o = romme(&[
        "arena",
        "--deals",
        "100000",
        "--chart",
        png.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("ending in .svg"), "{}", stderr(&o));
    assert!(!png.exists());
    let svg = dir.path().join("chart.svg");
    // An earlier chart in its place is replaced whole, not appended to.
    std::fs::write(&svg, "an old chart").expect("write");
    let o = romme(&[
        "arena",
        "--rules",
        "offen",
        "--deals",
        "3",
        "--chart",
        svg.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).expect("chart written");
    assert!(text.starts_with("<svg"), "{}", &text[..text.len().min(80)]);
    assert!(text.contains("Elo"), "the ratings panel");
}

/// Every command's `--rules` defaults to `klassisch`, the meld and score
/// questions too.
#[test]
fn rules_default_to_klassisch_everywhere() {
    let plain = romme(&["meld", "check", "7h", "8h", "*"]);
    let named = romme(&["meld", "check", "--rules", "klassisch", "7h", "8h", "*"]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    assert_eq!(stdout(&plain), stdout(&named));
    assert!(stdout(&plain).contains("klassisch"), "{}", stdout(&plain));
    let plain = romme(&["score", "hand", "7h", "Kd", "*", "Ac"]);
    let named = romme(&[
        "score",
        "hand",
        "--rules",
        "klassisch",
        "7h",
        "Kd",
        "*",
        "Ac",
    ]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    assert_eq!(stdout(&plain), stdout(&named));
}

/// `romme serve` stops cleanly on SIGTERM (what systemd and container
/// runtimes send), as on Ctrl-C; `romme backup` copies its database.
#[cfg(unix)]
#[test]
fn serve_stops_on_sigterm_and_its_database_backs_up() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = tempfile::tempdir().expect("tmp");
    let db = format!("sqlite:{}", dir.path().join("t.db").display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_romme"))
        .args(["serve", "--bind", "127.0.0.1:0", "--database-url", &db])
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let serving = lines
        .by_ref()
        .map_while(Result::ok)
        .any(|l| l.contains("serving on http://127.0.0.1:"));
    assert!(serving, "no 'serving on' line");
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let status = child.wait().expect("exits");
    assert!(status.success(), "exit {status:?}, said {rest:?}");
    assert!(
        rest.iter().any(|l| l.contains("romme: stopping")),
        "{rest:?}"
    );
    // A copy of the server's database, never over an existing file.
    let copy = dir.path().join("backups").join("copy.db");
    let copy_arg = copy.to_string_lossy().into_owned();
    let o = romme(&["backup", &copy_arg, "--database-url", &db]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("copied to"), "{}", stdout(&o));
    assert!(copy.metadata().is_ok_and(|m| m.len() > 0));
    let o = romme(&["backup", &copy_arg, "--database-url", &db]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("exists already"), "{}", stderr(&o));
    let missing = format!("sqlite:{}", dir.path().join("none.db").display());
    let o = romme(&["backup", "other.db", "--database-url", &missing]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no database at"), "{}", stderr(&o));
}
