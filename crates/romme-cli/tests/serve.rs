//! `romme serve` as a real process: killed with SIGKILL mid-game and
//! started again on the same database, the game goes on from its last
//! acknowledged action with nothing lost or duplicated. Also `romme
//! loadtest` against it.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use romme_server::loadtest::Client;
use serde_json::{Value, json};

/// `romme serve` on `bind` with the SQLite file `db`, quiet but for
/// warnings.
fn serve_command(bind: &str, db: &std::path::Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_romme"));
    cmd.args([
        "serve",
        "--bind",
        bind,
        "--database-url",
        &format!("sqlite:{}", db.display()),
    ])
    .env("ROMME_LOG", "warn");
    cmd
}

/// Start `romme serve` on a free port; returns the child and its address.
fn serve(db: &std::path::Path) -> (Child, String) {
    let mut child = serve_command("127.0.0.1:0", db)
        // The same deals on every run: with a random deal a bot could go
        // out before the restart this file is about.
        .args(["--fixed-seed", "2"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("romme serve starts");
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server says where it listens")
            .expect("line");
        if let Some(rest) = line.split("serving on http://").nth(1) {
            break rest.split_whitespace().next().expect("addr").to_string();
        }
    };
    // Keep draining stderr so the server never blocks on it.
    std::thread::spawn(move || for _ in lines {});
    (child, addr)
}

async fn ok(c: &mut Client, body: Value) -> Value {
    let a = c.call(body.clone()).await.expect("answer");
    assert_eq!(a["type"], "ack", "{body} → {a}");
    a
}

/// Play seat 0 with hints: `n` of our actions (or to the match's end).
/// Returns the actions acknowledged and the highest version seen.
async fn play(
    c: &mut Client,
    table: &str,
    seq: &mut u64,
    n: usize,
    seen: &mut u64,
) -> (Vec<Value>, bool) {
    let mut acked = Vec::new();
    loop {
        while let Some(m) = c.inbox.pop_front() {
            if let Some(v) = m["version"].as_u64() {
                assert!(
                    v <= *seen + 1 || *seen == 0 || m["type"] == "snapshot",
                    "a hole before {v} (seen {seen})"
                );
                *seen = (*seen).max(v);
            }
            if m["event"]["kind"] == "match_over" {
                return (acked, true);
            }
        }
        if acked.len() >= n {
            return (acked, false);
        }
        let h = c
            .call(json!({"type": "hint", "table": table}))
            .await
            .expect("hint");
        match h["result"]["action"].as_object() {
            Some(action) if h["type"] == "ack" => {
                let a = c
                    .call(json!({"type": "act", "table": table, "seq": *seq, "action": action}))
                    .await
                    .expect("act");
                if a["type"] == "ack" {
                    *seq += 1;
                    acked.push(Value::Object(action.clone()));
                }
            }
            _ => {
                c.wait_event().await.expect("an event in time");
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_continues_every_game_after_a_restart() {
    let dir = tempfile::tempdir().expect("tmp");
    let db = dir.path().join("romme.db");
    let (mut child, addr) = serve(&db);
    let url = format!("ws://{addr}/ws");
    let (mut ann, welcome) = Client::guest(&url, "Ann").await.expect("connects");
    let token = welcome["token"].as_str().expect("token").to_string();
    let created = ok(
        &mut ann,
        json!({"type": "create", "table": {"rules": {"preset": "klassisch"}, "seats": 4,
            "bot_delay_ms": 5, "claim_seconds": 1, "bots": [null, "heuristic", "heuristic", "heuristic"]}}),
    )
    .await;
    let table = created["result"]["table"].as_str().expect("id").to_string();
    ok(&mut ann, json!({"type": "sit", "table": table, "seat": 0})).await;
    ok(&mut ann, json!({"type": "join", "table": table})).await;
    ok(&mut ann, json!({"type": "start", "table": table})).await;
    let mut seq = 1;
    let mut seen = 0;
    let (before, over) = play(&mut ann, &table, &mut seq, 4, &mut seen).await;
    assert!(!over, "the match should still run");

    // SIGKILL: no shutdown code runs.
    child.kill().expect("kill -9");
    child.wait().expect("reaped");
    drop(ann);

    let (mut child, addr) = serve(&db);
    let url = format!("ws://{addr}/ws");
    let (mut ann, w) = Client::with_token(&url, &token).await.expect("reconnects");
    assert_eq!(w["name"], "Ann", "the session survives the restart");
    ok(
        &mut ann,
        json!({"type": "join", "table": table, "last_version": seen}),
    )
    .await;
    // The seat's action count came back: our next number is still valid.
    let (after, over) = play(&mut ann, &table, &mut seq, usize::MAX, &mut seen).await;
    assert!(over, "the match reaches its end after the restart");

    // The published record holds every acknowledged action of seat 0 once,
    // in order, and replays to the end.
    let body = http_get(&addr, &format!("/api/tables/{table}/matches/1/record")).await;
    let record: romme_engine::Record = serde_json::from_str(&body).expect("record");
    let ours: Vec<Value> = record
        .actions
        .iter()
        .filter(|(s, _)| *s == 0)
        .map(|(_, a)| serde_json::to_value(a).expect("json"))
        .collect();
    let mut expected = before.clone();
    expected.extend(after);
    // The server may have played for seat 0 after the restart (away); the
    // acknowledged ones are a subsequence of the record, in order.
    let mut it = ours.iter();
    for a in &expected {
        assert!(
            it.any(|x| x == a),
            "acknowledged action {a} is missing from the record"
        );
    }
    assert_eq!(
        &ours[..before.len()],
        &before[..],
        "nothing before the kill was lost or doubled"
    );
    let game = record.replay().expect("replays");
    assert_eq!(game.phase(), romme_engine::Phase::MatchOver);
    child.kill().expect("stop");
    child.wait().expect("reaped");
}

async fn http_get(addr: &str, path: &str) -> String {
    romme_server::loadtest::http(addr, "GET", path, None, None)
        .await
        .expect("HTTP")
        .1
}

#[test]
fn loadtest_plays_against_a_server_and_reports_json() {
    let dir = tempfile::tempdir().expect("tmp");
    let (mut child, addr) = serve(&dir.path().join("load.db"));
    let out = Command::new(env!("CARGO_BIN_EXE_romme"))
        .args([
            "loadtest",
            "--url",
            &format!("ws://{addr}/ws"),
            "--tables",
            "3",
            "--duration",
            "2",
            "--think-ms",
            "10",
            "--json",
        ])
        .output()
        .expect("loadtest runs");
    child.kill().expect("stop");
    child.wait().expect("reaped");
    let text = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(text.trim()).expect("one JSON object");
    assert_eq!(report["tables"], 3);
    assert!(
        report["actions"].as_u64().expect("actions") > 10,
        "{report}"
    );
    assert_eq!(report["errors"], 0, "{report}");
    assert!(report["p99_ms"].as_f64().expect("p99") > 0.0);
    let refused = Command::new(env!("CARGO_BIN_EXE_romme"))
        .args([
            "loadtest",
            "--url",
            "ws://192.0.2.1:80/ws",
            "--tables",
            "1",
            "--duration",
            "1",
        ])
        .output()
        .expect("runs");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("loopback"));
}

/// An address in use is refused at start with one clear line: exit 2, the
/// address and the system's reason, said once.
#[test]
fn a_taken_address_is_refused_once() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let addr = taken.local_addr().expect("addr").to_string();
    let dir = tempfile::tempdir().expect("tmp");
    let o = serve_command(&addr, &dir.path().join("t.db"))
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&format!("cannot listen on {addr}")), "{err}");
    assert_eq!(err.matches("os error").count(), 1, "{err}");
}

/// A database that cannot be opened is refused at start, its reason said
/// once.
#[test]
fn a_database_that_cannot_be_opened_is_refused_once() {
    let dir = tempfile::tempdir().expect("tmp");
    let db = dir.path().join("no-such-folder").join("t.db");
    let o = serve_command("127.0.0.1:0", &db).output().expect("runs");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("database: "), "{err}");
    assert_eq!(
        err.matches("unable to open database file").count(),
        1,
        "{err}"
    );
}
