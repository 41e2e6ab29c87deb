//! The real server on loopback, driven by WebSocket clients: full matches
//! with humans and bots, reconnects, every kind of bad message, and a
//! transcript check that no client ever saw another seat's cards.

use std::time::Duration;

use romme_server::loadtest::Client;
use romme_server::{Server, ServerConfig};
use serde_json::{Value, json};

async fn server(dir: &tempfile::TempDir, tweak: impl FnOnce(&mut ServerConfig)) -> Server {
    let mut config = ServerConfig {
        bind: "127.0.0.1:0".parse().expect("addr"),
        database_url: format!("sqlite:{}", dir.path().join("t.db").display()),
        time_scale: 0.01,
        // The scripted players act as fast as the server answers (a hint
        // and an action per move, well over the default 20 messages a
        // second); the flooding test sets its own limits.
        message_rate: 1000.0,
        message_burst: 3000.0,
        ..ServerConfig::default()
    };
    tweak(&mut config);
    romme_server::start(config).await.expect("server starts")
}

fn url(s: &Server) -> String {
    format!("ws://{}/ws", s.addr)
}

fn table_settings(bots: Value) -> Value {
    json!({"rules": {"preset": "klassisch"}, "seats": 4, "bot_delay_ms": 0,
           "claim_seconds": 1, "bots": bots})
}

/// Everything a seat's client received, checked for secrets.
fn assert_no_secrets(seat: usize, transcript: &[Value]) {
    for m in transcript {
        let text = m.to_string();
        assert!(!text.contains("\"seed\""), "a seed went out: {text}");
        let e = &m["event"]["event"];
        match e["type"].as_str() {
            Some("dealt") if e["seat"] != seat => {
                assert!(
                    e.get("cards").is_none(),
                    "seat {seat} saw another hand: {text}"
                );
            }
            Some("drew") if e["seat"] != seat && e["from"] != "discard" => {
                assert!(
                    e.get("card").is_none(),
                    "seat {seat} saw a stock draw: {text}"
                );
            }
            _ => {}
        }
        if m["type"] == "snapshot" && !m["game"].is_null() {
            assert_eq!(
                m["game"]["seat"],
                json!(seat),
                "snapshot for the wrong seat"
            );
            assert!(m["game"].get("stock_order").is_none());
        }
    }
}

/// Play one human seat with the server's hints until the match ends.
async fn play_with_hints(c: &mut Client, table: &str, transcript: &mut Vec<Value>) -> Value {
    let mut seq = 1u64;
    loop {
        // Drain what arrived; stop at the match's end.
        while let Some(m) = c.inbox.pop_front() {
            if let Some(n) = m["next_seq"].as_u64() {
                seq = n;
            }
            let over = m["event"]["kind"] == "match_over";
            transcript.push(m.clone());
            if over {
                return m;
            }
        }
        let hint = c
            .call(json!({"type": "hint", "table": table}))
            .await
            .expect("hint");
        if hint["type"] == "ack" {
            match hint["result"]["action"].as_object() {
                Some(action) => {
                    let a = c
                        .call(json!({"type": "act", "table": table, "seq": seq, "action": action}))
                        .await
                        .expect("act");
                    match a["type"].as_str() {
                        Some("ack") => seq += 1,
                        // The state moved on under us (a bot bought the
                        // card): try again once the news is here, not in a
                        // tight loop (that would be rate limited).
                        _ => {
                            assert!(
                                a["code"] == "illegal_action" || a["code"] == "duplicate",
                                "unexpected rejection {a}"
                            );
                            eprintln!("hinted action refused, waiting for news: {a}");
                            if c.inbox.is_empty() {
                                wait_event(c).await;
                            }
                        }
                    }
                }
                None => {
                    let _ = c.call(json!({"type": "pass", "table": table})).await;
                    wait_event(c).await;
                }
            }
        } else {
            // Nothing to do: wait for the next event.
            wait_event(c).await;
        }
    }
}

async fn wait_event(c: &mut Client) {
    c.wait_event().await.expect("an event within 30 s");
}

async fn join(c: &mut Client, table: &str) -> Value {
    ok(c, json!({"type": "join", "table": table})).await;
    c.wait_for(|m| m["type"] == "snapshot")
        .await
        .expect("snapshot")
}

async fn create(c: &mut Client, settings: Value) -> String {
    let a = c
        .call(json!({"type": "create", "table": settings}))
        .await
        .expect("create");
    a["result"]["table"].as_str().expect("table id").to_string()
}

async fn ok(c: &mut Client, body: Value) -> Value {
    let a = c.call(body.clone()).await.expect("answer");
    assert_eq!(a["type"], "ack", "{body} → {a}");
    a
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_humans_and_two_bots_play_a_full_match() {
    let dir = tempfile::tempdir().expect("tmp");
    let s = server(&dir, |_| {}).await;
    let (mut ann, _) = Client::guest(&url(&s), "Ann").await.expect("ann");
    let (mut bob, _) = Client::guest(&url(&s), "Bob").await.expect("bob");
    let table = create(
        &mut ann,
        table_settings(json!([null, null, "heuristic", "random"])),
    )
    .await;
    ok(&mut ann, json!({"type": "join", "table": table})).await;
    ok(&mut bob, json!({"type": "join", "table": table})).await;
    ok(&mut ann, json!({"type": "sit", "table": table, "seat": 0})).await;
    ok(&mut bob, json!({"type": "sit", "table": table, "seat": 1})).await;
    ok(
        &mut ann,
        json!({"type": "chat", "table": table, "text": "Viel Glück!"}),
    )
    .await;
    ok(&mut ann, json!({"type": "start", "table": table})).await;

    let t1 = table.clone();
    let a = tokio::spawn(async move {
        let mut tr = Vec::new();
        let end = play_with_hints(&mut ann, &t1, &mut tr).await;
        (ann, tr, end)
    });
    let t2 = table.clone();
    let b = tokio::spawn(async move {
        let mut tr = Vec::new();
        let end = play_with_hints(&mut bob, &t2, &mut tr).await;
        (bob, tr, end)
    });
    let (ann, ta, end_a) = tokio::time::timeout(Duration::from_secs(240), a)
        .await
        .expect("the match ends")
        .expect("ann's task");
    let (_bob, tb, end_b) = b.await.expect("bob's task");
    assert_eq!(end_a["event"], end_b["event"], "both see the same result");
    assert_eq!(end_a["version"], end_b["version"]);
    assert_eq!(
        end_a["event"]["summary"]["placings"]
            .as_array()
            .map(Vec::len),
        Some(4)
    );
    // Versions arrive contiguous, with no holes, for both seats.
    for tr in [&ta, &tb] {
        let versions: Vec<u64> = tr.iter().filter_map(|m| m["version"].as_u64()).collect();
        assert!(
            versions.windows(2).all(|w| w[1] == w[0] + 1),
            "holes: {versions:?}"
        );
    }
    assert_no_secrets(0, &ta);
    assert_no_secrets(1, &tb);
    // The record (with its seed) is published now and replays.
    let (host, path) = (s.addr, format!("/api/tables/{table}/matches/1/record"));
    let record = http_get(host, &path).await;
    let record: romme_engine::Record = serde_json::from_str(&record).expect("a record");
    let replayed = record.replay().expect("replays");
    assert_eq!(replayed.phase(), romme_engine::Phase::MatchOver);
    ann.close().await;
}

async fn http_get(addr: std::net::SocketAddr, path: &str) -> String {
    romme_server::loadtest::http(&addr.to_string(), "GET", path, None, None)
        .await
        .expect("HTTP")
        .1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_version_and_metrics_answer() {
    let dir = tempfile::tempdir().expect("tmp");
    let s = server(&dir, |_| {}).await;
    assert_eq!(http_get(s.addr, "/healthz").await.trim(), "ok");
    assert!(http_get(s.addr, "/version").await.contains("\"romme\""));
    let (_c, _) = Client::guest(&url(&s), "M").await.expect("guest");
    let metrics = http_get(s.addr, "/metrics").await;
    assert!(metrics.contains("romme_connections 1"), "{metrics}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_messages_are_rejected_and_change_nothing() {
    let dir = tempfile::tempdir().expect("tmp");
    let s = server(&dir, |c| c.max_message = 2048).await;
    let (mut ann, _) = Client::guest(&url(&s), "Ann").await.expect("ann");
    let (mut eve, _) = Client::guest(&url(&s), "Eve").await.expect("eve");
    let table = create(
        &mut ann,
        table_settings(json!([null, "random", "random", "random"])),
    )
    .await;
    ok(&mut ann, json!({"type": "sit", "table": table, "seat": 0})).await;
    ok(&mut ann, json!({"type": "start", "table": table})).await;
    let snap_version = |m: &Value| m["version"].as_u64().expect("version");
    // Bots play until Ann is on turn (seat 0 starts or waits for bots).
    let snap = join(&mut ann, &table).await;
    let before = snap_version(&snap);

    // Malformed JSON.
    ann.send_raw("{not json").await.expect("send");
    let r = ann
        .wait_for(|m| m["type"] == "reject")
        .await
        .expect("reject");
    assert_eq!(r["code"], "malformed");
    // Unknown message type, with an id that is repeated.
    let r = ann
        .call(json!({"type": "fly", "table": table}))
        .await
        .expect("answer");
    assert_eq!(
        (r["type"].as_str(), r["code"].as_str()),
        (Some("reject"), Some("malformed"))
    );
    // Unknown field in a known message.
    let r = ann
        .call(json!({"type": "chat", "table": table, "text": "x", "evil": 1}))
        .await
        .expect("answer");
    assert_eq!(r["code"], "malformed", "{r}");
    // Oversized. Also twice the connection's read buffer (one
    // `max_message`): the frame is still read whole and answered.
    let big = json!({"type": "chat", "table": table, "text": "x".repeat(4000), "id": 99});
    ann.send_raw(&big.to_string()).await.expect("send");
    let r = ann
        .wait_for(|m| m["type"] == "reject")
        .await
        .expect("reject");
    assert_eq!(r["code"], "too_large");
    // The whole message was read: its full length is reported.
    let len = big.to_string().len();
    assert!(
        r["message"]
            .as_str()
            .is_some_and(|m| m.contains(&format!("{len} bytes"))),
        "{r}"
    );
    // A foreign seat: Eve sits nowhere and acts.
    let r = eve
        .call(json!({"type": "act", "table": table, "seq": 1, "action": {"type": "draw", "from": "stock"}}))
        .await
        .expect("answer");
    assert_eq!(r["code"], "not_your_seat", "{r}");
    // Eve takes a bot's seat: refused.
    let r = eve
        .call(json!({"type": "sit", "table": table, "seat": 1}))
        .await
        .expect("answer");
    assert_eq!(r["type"], "reject");
    // A wrong sequence number (skipping ahead), then a duplicate one.
    let r = ann
        .call(json!({"type": "act", "table": table, "seq": 5, "action": {"type": "draw", "from": "stock"}}))
        .await
        .expect("answer");
    assert_eq!(r["code"], "out_of_sequence", "{r}");
    let r = ann
        .call(json!({"type": "act", "table": table, "seq": 0, "action": {"type": "draw", "from": "stock"}}))
        .await
        .expect("answer");
    assert_eq!(r["code"], "duplicate", "{r}");
    // Out of turn: discard before drawing (or while another seat is on turn).
    let r = ann
        .call(json!({"type": "act", "table": table, "seq": 1, "action": {"type": "discard", "card": "Zz"}}))
        .await
        .expect("answer");
    assert_eq!(r["code"], "malformed", "a bad card is a schema error: {r}");
    // Discarding before drawing: the engine's reason comes back.
    let r = ann
        .call(json!({"type": "act", "table": table, "seq": 1, "action": {"type": "discard", "card": "Ah"}}))
        .await
        .expect("answer");
    assert_eq!(r["code"], "illegal_action", "{r}");
    assert!(!r["message"].as_str().expect("message").is_empty());
    // ... and as data, for clients that translate it.
    let reason = r["reason"]["code"].as_str().expect("a reason code");
    assert!(
        matches!(reason, "must_draw_first" | "not_your_turn" | "not_in_hand"),
        "{r}"
    );
    // Nothing changed: Ann's own seat acted never, and the events since
    // `before` are bot moves only.
    let snap2 = join(&mut ann, &table).await;
    assert_eq!(snap2["next_seq"], 1);
    assert!(snap_version(&snap2) >= before);
    // Unauthenticated requests are refused.
    let (mut raw, _) = tokio_tungstenite::connect_async(url(&s))
        .await
        .expect("connect");
    use futures_util::{SinkExt, StreamExt};
    raw.send(tokio_tungstenite::tungstenite::Message::Text(
        json!({"type": "list", "id": 1}).to_string().into(),
    ))
    .await
    .expect("send");
    let m = raw.next().await.expect("reply").expect("ok");
    let m: Value = serde_json::from_str(m.to_text().expect("text")).expect("json");
    assert_eq!(m["code"], "unauthenticated");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disconnected_player_resumes_with_exactly_the_missing_events() {
    let dir = tempfile::tempdir().expect("tmp");
    // A fixed deal: with a random one the bots sometimes end the match
    // (one game of klassisch) before Ann has made the three moves below.
    let s = server(&dir, |c| c.fixed_seed = Some(11)).await;
    let (mut ann, welcome) = Client::guest(&url(&s), "Ann").await.expect("ann");
    let token = welcome["token"].as_str().expect("token").to_string();
    let table = create(
        &mut ann,
        table_settings(json!([null, "heuristic", "heuristic", "heuristic"])),
    )
    .await;
    ok(&mut ann, json!({"type": "sit", "table": table, "seat": 0})).await;
    ok(&mut ann, json!({"type": "join", "table": table})).await;
    ok(&mut ann, json!({"type": "start", "table": table})).await;
    // Play a few of Ann's actions, then drop the connection mid-turn.
    let mut seen = 0u64;
    let mut seq = 1;
    let mut acted = 0;
    while acted < 3 {
        let h = ann
            .call(json!({"type": "hint", "table": table}))
            .await
            .expect("hint");
        if let Some(action) = h["result"]["action"].as_object() {
            let a = ann
                .call(json!({"type": "act", "table": table, "seq": seq, "action": action}))
                .await
                .expect("act");
            if a["type"] == "ack" {
                seq += 1;
                acted += 1;
            }
        } else {
            ann.wait_event()
                .await
                .unwrap_or_else(|e| panic!("no event after hint {h}; seen {seen}: {e}"));
        }
        while let Some(m) = ann.inbox.pop_front() {
            if let Some(v) = m["version"].as_u64() {
                seen = seen.max(v);
            }
        }
    }
    // Drain anything in flight, then leave.
    while let Ok(Ok(m)) = tokio::time::timeout(Duration::from_millis(200), ann.next()).await {
        if let Some(v) = m["version"].as_u64() {
            seen = seen.max(v);
        }
    }
    ann.close().await;
    // Come back on "another device" with the same session.
    let (mut again, w2) = Client::with_token(&url(&s), &token).await.expect("again");
    assert_eq!(w2["name"], "Ann");
    let a = ok(
        &mut again,
        json!({"type": "join", "table": table, "last_version": seen}),
    )
    .await;
    let now = a["version"].as_u64().expect("version");
    let mut got = Vec::new();
    while let Some(m) = again.inbox.pop_front() {
        if m["type"] == "event" {
            got.push(m["version"].as_u64().expect("v"));
        }
        assert_ne!(m["type"], "snapshot", "recent events come as events");
    }
    let expected: Vec<u64> = (seen + 1..=now).collect();
    // Events committed after the join's ack may follow; the first ones must match exactly.
    assert_eq!(
        &got[..expected.len().min(got.len())],
        &expected[..],
        "missing events"
    );
    assert!(got.len() >= expected.len());
    assert_eq!(a["type"], "ack");
    // A client with a far too old version gets a snapshot.
    let (mut third, _) = Client::with_token(&url(&s), &token).await.expect("third");
    ok(
        &mut third,
        json!({"type": "join", "table": table, "last_version": 1_000_000}),
    )
    .await;
    let snap = third
        .wait_for(|m| m["type"] == "snapshot")
        .await
        .expect("snapshot");
    assert_eq!(snap["seat"], 0);
    assert_eq!(snap["next_seq"], json!(seq));
    assert!(snap["game"]["hand"].is_array());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_see_no_hands_and_silent_clients_are_closed() {
    let dir = tempfile::tempdir().expect("tmp");
    let s = server(&dir, |c| {
        c.idle_timeout = Duration::from_millis(600);
        c.ping_interval = Duration::from_secs(3600);
    })
    .await;
    let (mut host, _) = Client::guest(&url(&s), "Host").await.expect("host");
    let mut settings = table_settings(json!(["random", "random", "random", "random"]));
    settings["bot_delay_ms"] = json!(5000);
    let table = create(&mut host, settings).await;
    ok(&mut host, json!({"type": "start", "table": table})).await;
    ok(&mut host, json!({"type": "join", "table": table})).await;
    let snap = host
        .wait_for(|m| m["type"] == "snapshot")
        .await
        .expect("snapshot");
    assert!(snap["game"]["hand"].is_null(), "a spectator has no hand");
    let mut tr = vec![snap];
    // Watch for a while, keeping the connection alive, then fall silent.
    for _ in 0..3 {
        let _ = host.call(json!({"type": "list"})).await.expect("list");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tr.extend(host.inbox.drain(..));
    for m in &tr {
        let e = &m["event"]["event"];
        assert!(
            e.get("cards").is_none() || e["type"] != "dealt",
            "spectator saw a hand: {m}"
        );
    }
    let bye = tokio::time::timeout(
        Duration::from_secs(5),
        host.wait_for(|m| m["type"] == "bye"),
    )
    .await
    .expect("closed in time")
    .expect("bye");
    assert!(
        bye["reason"]
            .as_str()
            .expect("reason")
            .contains("no message")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flooding_is_rate_limited() {
    let dir = tempfile::tempdir().expect("tmp");
    let s = server(&dir, |c| {
        c.message_rate = 1.0;
        c.message_burst = 3.0;
    })
    .await;
    let (mut c, _) = Client::guest(&url(&s), "Flood").await.expect("guest");
    let mut limited = false;
    for _ in 0..10 {
        let a = c.call(json!({"type": "list"})).await.expect("answer");
        if a["code"] == "rate_limited" {
            limited = true;
            break;
        }
        let r = c.inbox.iter().any(|m| m["code"] == "rate_limited");
        if r {
            limited = true;
            break;
        }
    }
    assert!(limited, "ten messages at once were all accepted");
}

async fn http_post(addr: std::net::SocketAddr, path: &str, body: Value) -> (u16, Value) {
    let (status, text) =
        romme_server::loadtest::http(&addr.to_string(), "POST", path, None, Some(&body))
            .await
            .expect("HTTP");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_keep_their_identity_across_logins() {
    let dir = tempfile::tempdir().expect("tmp");
    let s = server(&dir, |_| {}).await;
    let (st, reg) = http_post(
        s.addr,
        "/api/register",
        json!({"name": "Clara", "password": "geheim123"}),
    )
    .await;
    assert_eq!(st, 200, "{reg}");
    let (st, again) = http_post(
        s.addr,
        "/api/register",
        json!({"name": "Clara", "password": "anders123"}),
    )
    .await;
    assert_eq!(st, 400, "a taken name: {again}");
    assert!(again["error"].as_str().expect("error").contains("Clara"));
    let (st, bad) = http_post(
        s.addr,
        "/api/login",
        json!({"name": "Clara", "password": "falsch123"}),
    )
    .await;
    assert_eq!(st, 401, "{bad}");
    let (st, login) = http_post(
        s.addr,
        "/api/login",
        json!({"name": "Clara", "password": "geheim123"}),
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(login["player"], reg["player"]);
    let token = login["token"].as_str().expect("token");
    let (_c, w) = Client::with_token(&url(&s), token).await.expect("hello");
    assert_eq!(w["name"], "Clara");
    assert_eq!(w["player"], reg["player"]);
    let (st, short) = http_post(
        s.addr,
        "/api/register",
        json!({"name": "Dora", "password": "kurz"}),
    )
    .await;
    assert_eq!(st, 400, "{short}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_turn_timer_hands_the_turn_to_a_bot_or_forfeits() {
    let dir = tempfile::tempdir().expect("tmp");
    // time_scale 0.01: a 5-second timer runs out after 50 ms.
    let s = server(&dir, |_| {}).await;
    for policy in ["bot", "forfeit"] {
        let (mut ann, _) = Client::guest(&url(&s), "Slow").await.expect("guest");
        let mut settings = table_settings(json!([null, "heuristic", "heuristic", "heuristic"]));
        settings["turn_seconds"] = json!(5);
        settings["on_timeout"] = json!(policy);
        let table = create(&mut ann, settings).await;
        ok(&mut ann, json!({"type": "sit", "table": table, "seat": 0})).await;
        ok(&mut ann, json!({"type": "join", "table": table})).await;
        ok(&mut ann, json!({"type": "start", "table": table})).await;
        // Ann never acts: the timer runs out on her first turn.
        let timed_out = tokio::time::timeout(
            Duration::from_secs(20),
            ann.wait_for(|m| m["event"]["kind"] == "timed_out"),
        )
        .await
        .expect("the timer runs out")
        .expect("event");
        assert_eq!(timed_out["event"]["seat"], 0);
        // The server plays for her: her seat's action number moves on.
        let moved = tokio::time::timeout(
            Duration::from_secs(20),
            ann.wait_for(|m| m["next_seq"].as_u64().is_some_and(|n| n > 1)),
        )
        .await
        .expect("a bot played for the seat")
        .expect("event");
        assert!(moved["next_seq"].as_u64().expect("n") > 1);
        if policy == "forfeit" {
            let over = tokio::time::timeout(
                Duration::from_secs(120),
                ann.wait_for(|m| m["event"]["kind"] == "match_over"),
            )
            .await
            .expect("the bots finish the match")
            .expect("event");
            let placings = over["event"]["summary"]["placings"]
                .as_array()
                .expect("placings");
            let last = placings.last().expect("last");
            assert_eq!(
                (last["seat"].as_u64(), last["forfeited"].as_bool()),
                (Some(0), Some(true))
            );
            // A rematch starts a new match at the same table.
            ok(&mut ann, json!({"type": "start", "table": table})).await;
            let started = ann
                .wait_for(|m| m["event"]["kind"] == "match_started" && m["event"]["match_no"] == 2)
                .await
                .expect("event");
            assert_eq!(started["table"], json!(table));
        } else {
            // Her own late action is refused while the bot finishes the turn,
            // or goes through once her next turn comes: never silently lost.
            let a = ann
                .call(json!({"type": "act", "table": table, "seq": 1, "action": {"type": "draw", "from": "stock"}}))
                .await
                .expect("answer");
            assert_eq!(a["code"], "duplicate", "{a}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_origins_are_refused() {
    let dir = tempfile::tempdir().expect("tmp");
    let s = server(&dir, |c| {
        c.allowed_origins = vec!["https://romme.example".into()]
    })
    .await;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let attempt = |origin: &'static str| {
        let u = url(&s);
        async move {
            let mut req = u.into_client_request().expect("request");
            req.headers_mut()
                .insert("origin", origin.parse().expect("header"));
            tokio_tungstenite::connect_async(req).await.map(|_| ())
        }
    };
    assert!(
        attempt("https://evil.example").await.is_err(),
        "a foreign page connected"
    );
    assert!(attempt("https://romme.example").await.is_ok());
    let same: &'static str = Box::leak(format!("http://{}", s.addr).into_boxed_str());
    assert!(
        attempt(same).await.is_ok(),
        "the server's own pages connect"
    );
}

/// A WebSocket upgrade with these extra headers; the open connection, or
/// the refusal.
async fn ws_with(
    s: &Server,
    headers: &[(&'static str, &str)],
) -> Result<
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    tokio_tungstenite::tungstenite::Error,
> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = url(s).into_client_request().expect("request");
    for (k, v) in headers {
        req.headers_mut().insert(*k, v.parse().expect("header"));
    }
    tokio_tungstenite::connect_async(req)
        .await
        .map(|(ws, _)| ws)
}

/// The HTTP status of a refused upgrade (0 if it was not refused so).
fn refused_with<T>(r: Result<T, tokio_tungstenite::tungstenite::Error>) -> u16 {
    match r {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => resp.status().as_u16(),
        _ => 0,
    }
}

/// A raw HTTP request with extra header lines; the whole answer.
async fn http_raw(addr: std::net::SocketAddr, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut c = tokio::net::TcpStream::connect(addr).await.expect("connect");
    c.write_all(request.as_bytes()).await.expect("write");
    let mut buf = Vec::new();
    c.read_to_end(&mut buf).await.expect("read");
    String::from_utf8_lossy(&buf).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_the_forwarded_client_counts() {
    let dir = tempfile::tempdir().expect("tmp");
    let proxied = server(&dir, |c| {
        c.max_connections_per_ip = 1;
        c.trusted_proxies = vec!["127.0.0.1".parse().expect("ip")];
    })
    .await;
    // One connection per client address, whatever the proxy's own address.
    let a = ws_with(&proxied, &[("x-forwarded-for", "198.51.100.1")]).await;
    assert!(a.is_ok(), "the first client was refused");
    let b = ws_with(&proxied, &[("x-forwarded-for", "198.51.100.2")]).await;
    assert!(b.is_ok(), "a second client counted as the first");
    let again = ws_with(&proxied, &[("x-forwarded-for", "198.51.100.1")]).await;
    assert_eq!(
        refused_with(again),
        429,
        "the per-IP limit let a client in twice"
    );
    // The page's origin is the host the proxy forwarded.
    let page = [
        ("x-forwarded-for", "198.51.100.3"),
        ("x-forwarded-host", "romme.example"),
        ("origin", "https://romme.example"),
    ];
    assert!(
        ws_with(&proxied, &page).await.is_ok(),
        "the proxied page was refused"
    );
    let foreign = [
        ("x-forwarded-for", "198.51.100.4"),
        ("x-forwarded-host", "romme.example"),
        ("origin", "https://evil.example"),
    ];
    assert_eq!(
        refused_with(ws_with(&proxied, &foreign).await),
        403,
        "a foreign page connected"
    );
    // Over https the session cookie is marked Secure.
    let guest = |proto: &str| {
        let body = r#"{"name":"Ida"}"#;
        format!(
            "POST /api/guest HTTP/1.1\r\nHost: {}\r\nX-Forwarded-Proto: {proto}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            proxied.addr,
            body.len()
        )
    };
    let secure = http_raw(proxied.addr, &guest("https")).await;
    assert!(secure.contains("HttpOnly; SameSite=Lax"), "{secure}");
    assert!(secure.contains("; Secure"), "{secure}");
    let plain = http_raw(proxied.addr, &guest("http")).await;
    assert!(
        plain.contains("HttpOnly") && !plain.contains("Secure"),
        "{plain}"
    );
    drop((a, b));

    // Without the proxy trusted, the headers are anyone's words: ignored.
    let dir2 = tempfile::tempdir().expect("tmp");
    let direct = server(&dir2, |c| c.max_connections_per_ip = 1).await;
    let first = ws_with(&direct, &[("x-forwarded-for", "198.51.100.1")]).await;
    assert!(first.is_ok());
    let second = ws_with(&direct, &[("x-forwarded-for", "198.51.100.2")]).await;
    assert_eq!(
        refused_with(second),
        429,
        "a forged X-Forwarded-For escaped the limit"
    );
    drop(first);
    let forged = [
        ("x-forwarded-host", "evil.example"),
        ("origin", "https://evil.example"),
    ];
    assert_eq!(
        refused_with(ws_with(&direct, &forged).await),
        403,
        "a forged host passed the origin check"
    );
    let secure = http_raw(
        direct.addr,
        &guest("https").replace(&proxied.addr.to_string(), &direct.addr.to_string()),
    )
    .await;
    assert!(
        secure.contains("HttpOnly") && !secure.contains("Secure"),
        "{secure}"
    );
}

/// POST with a session token (`Authorization: Bearer`).
async fn http_post_auth(
    addr: std::net::SocketAddr,
    path: &str,
    token: &str,
    body: Value,
) -> (u16, Value) {
    let (status, text) =
        romme_server::loadtest::http(&addr.to_string(), "POST", path, Some(token), Some(&body))
            .await
            .expect("HTTP");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A new guest (over HTTP) plays a match at a table of `settings` in seat
/// 0 by the hints; its connection, the guest answer (player, token) and
/// `GET /api/me` once the result is stored.
async fn a_guest_plays_a_match(s: &Server, name: &str, settings: Value) -> (Client, Value, Value) {
    let (st, guest) = http_post(s.addr, "/api/guest", json!({ "name": name })).await;
    assert_eq!(st, 200, "{guest}");
    let token = guest["token"].as_str().expect("token");
    let (mut c, _) = Client::with_token(&url(s), token).await.expect("hello");
    let table = create(&mut c, settings).await;
    join(&mut c, &table).await;
    ok(&mut c, json!({"type": "sit", "table": table, "seat": 0})).await;
    ok(&mut c, json!({"type": "start", "table": table})).await;
    let mut transcript = Vec::new();
    play_with_hints(&mut c, &table, &mut transcript).await;
    let me = me_with_a_result(s, token).await;
    (c, guest, me)
}

/// `GET /api/me` once the player's last match is stored (the table
/// announces the match's end before it stores the result).
async fn me_with_a_result(s: &Server, token: &str) -> Value {
    let mut me = Value::Null;
    for _ in 0..100 {
        me = http_get_auth(s.addr, "/api/me", token).await;
        if me["history"].as_array().is_some_and(|h| !h.is_empty()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    me
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_who_registers_keeps_its_rating_and_history() {
    let dir = tempfile::tempdir().expect("tmp");
    let s = server(&dir, |_| {}).await;
    // A finished match in the guest's history first.
    let settings = json!({"rules": {"preset": "klassisch"}, "seats": 3, "bot_delay_ms": 0,
                          "claim_seconds": 1, "bots": [null, "heuristic", "heuristic"]});
    let (c, guest, me) = a_guest_plays_a_match(&s, "Gast Emil", settings).await;
    let token = guest["token"].as_str().expect("token");
    assert_eq!(me["player"]["account"], false);
    // Guests are not on the leaderboard.
    let board: Value =
        serde_json::from_str(&http_get(s.addr, "/api/leaderboard").await).expect("json");
    assert_eq!(board, json!([]));
    let rating = me["player"]["rating"].clone();
    assert_eq!(me["history"].as_array().map(Vec::len), Some(1), "{me}");
    // Registering with the guest's session turns the guest into the account.
    let (st, reg) = http_post_auth(
        s.addr,
        "/api/register",
        token,
        json!({"name": "Emil", "password": "geheim123"}),
    )
    .await;
    assert_eq!(st, 200, "{reg}");
    assert_eq!(reg["player"], guest["player"]);
    let me = http_get_auth(s.addr, "/api/me", reg["token"].as_str().expect("token")).await;
    assert_eq!(me["player"]["account"], true);
    assert_eq!(me["player"]["name"], "Emil");
    assert_eq!(me["player"]["rating"], rating);
    assert_eq!(me["history"].as_array().map(Vec::len), Some(1), "{me}");
    // The account with its rated match is on the leaderboard (no ids).
    let board: Value =
        serde_json::from_str(&http_get(s.addr, "/api/leaderboard").await).expect("json");
    assert_eq!(
        board,
        json!([{"name": "Emil", "rating": rating, "matches": 1}])
    );
    // The password changes with the old one, not without it.
    let account_token = reg["token"].as_str().expect("token");
    let (st, wrong) = http_post_auth(
        s.addr,
        "/api/password",
        account_token,
        json!({"old": "falsch123", "new": "neu-geheim"}),
    )
    .await;
    assert_eq!(st, 401, "{wrong}");
    let (st, weak) = http_post_auth(
        s.addr,
        "/api/password",
        account_token,
        json!({"old": "geheim123", "new": "kurz"}),
    )
    .await;
    assert_eq!(st, 400, "{weak}");
    let (st, changed) = http_post_auth(
        s.addr,
        "/api/password",
        account_token,
        json!({"old": "geheim123", "new": "neu-geheim"}),
    )
    .await;
    assert_eq!(st, 200, "{changed}");
    let (st, _) = http_post(
        s.addr,
        "/api/login",
        json!({"name": "Emil", "password": "geheim123"}),
    )
    .await;
    assert_eq!(st, 401, "the old password still works");
    // The change ends the sessions issued before it; the answer's goes on.
    let (st, _) = romme_server::loadtest::http(
        &s.addr.to_string(),
        "GET",
        "/api/me",
        Some(account_token),
        None,
    )
    .await
    .expect("HTTP");
    assert_eq!(st, 401, "a session from before the change still works");
    let fresh = changed["token"].as_str().expect("a new session");
    assert_eq!(
        http_get_auth(s.addr, "/api/me", fresh).await["player"]["name"],
        "Emil"
    );
    // A login in the same second as a change is a valid session too:
    // tokens count whole seconds, so a session is counted from the start of
    // the validity the change set, not before it. The change is moved a few
    // seconds ahead here, so that the test does not depend on the clock.
    {
        let db = format!("sqlite:{}", dir.path().join("t.db").display());
        let store = romme_server::store::Store::connect(&db).await.expect("db");
        let (id, hash) = store
            .account("Emil")
            .await
            .expect("reads")
            .expect("account");
        let ahead = romme_server::store::now() + 5;
        assert!(store.set_password(&id, &hash, ahead).await.expect("writes"));
    }
    let (st, again) = http_post(
        s.addr,
        "/api/login",
        json!({"name": "Emil", "password": "neu-geheim"}),
    )
    .await;
    assert_eq!(st, 200, "{again}");
    let again = again["token"].as_str().expect("token");
    assert_eq!(
        http_get_auth(s.addr, "/api/me", again).await["player"]["name"],
        "Emil",
        "a login right after the change was refused"
    );
    let (_, other_guest) = http_post(s.addr, "/api/guest", json!({"name": "Gast"})).await;
    let (st, guest_pw) = http_post_auth(
        s.addr,
        "/api/password",
        other_guest["token"].as_str().expect("token"),
        json!({"old": "x", "new": "neu-geheim"}),
    )
    .await;
    assert_eq!(st, 400, "{guest_pw}");
    assert!(
        guest_pw["error"]
            .as_str()
            .is_some_and(|e| e.contains("guest"))
    );
    // The name is the account's now; an account registering again starts
    // another account (it is no guest).
    let (st, login) = http_post(
        s.addr,
        "/api/login",
        json!({"name": "Emil", "password": "neu-geheim"}),
    )
    .await;
    assert_eq!((st, &login["player"]), (200, &guest["player"]));
    let (st, other) = http_post_auth(
        s.addr,
        "/api/register",
        again,
        json!({"name": "Emil2", "password": "geheim456"}),
    )
    .await;
    assert_eq!(st, 200, "{other}");
    assert_ne!(other["player"], guest["player"]);
    c.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_solo_patience_is_recorded_but_not_rated() {
    let dir = tempfile::tempdir().expect("tmp");
    let s = server(&dir, |_| {}).await;
    let settings =
        json!({"rules": {"preset": "koenigs-solo"}, "seats": 1, "bot_delay_ms": 0, "bots": [null]});
    let (c, _, me) = a_guest_plays_a_match(&s, "Paula", settings).await;
    assert_eq!(me["history"].as_array().map(Vec::len), Some(1), "{me}");
    assert_eq!(
        me["player"]["matches"], 0,
        "a patience counted as a rated match: {me}"
    );
    assert_eq!(me["player"]["rating"], 1500.0);
    c.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn password_guessing_is_refused_per_address() {
    let dir = tempfile::tempdir().expect("tmp");
    let s = server(&dir, |c| {
        c.login_failures = 2;
        c.trusted_proxies = vec!["127.0.0.1".parse().expect("ip")];
    })
    .await;
    let (st, _) = http_post(
        s.addr,
        "/api/register",
        json!({"name": "Greta", "password": "richtig-geheim"}),
    )
    .await;
    assert_eq!(st, 200);
    let login = |from: &str, password: &str| {
        let body = json!({"name": "Greta", "password": password}).to_string();
        format!(
            "POST /api/login HTTP/1.1\r\nHost: {}\r\nX-Forwarded-For: {from}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            s.addr,
            body.len()
        )
    };
    let status = |answer: &str| answer.split_whitespace().nth(1).unwrap_or("").to_string();
    for _ in 0..2 {
        let a = http_raw(s.addr, &login("198.51.100.7", "falsch-falsch")).await;
        assert_eq!(status(&a), "401", "{a}");
    }
    // Used up: even the right password is refused from that address…
    let a = http_raw(s.addr, &login("198.51.100.7", "richtig-geheim")).await;
    assert_eq!(status(&a), "429", "{a}");
    assert!(a.contains("too many failed logins"), "{a}");
    // …but not from another, and the account is not locked.
    let a = http_raw(s.addr, &login("198.51.100.8", "richtig-geheim")).await;
    assert_eq!(status(&a), "200", "{a}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_won_match_moves_the_ratings() {
    let dir = tempfile::tempdir().expect("tmp");
    let s = server(&dir, |_| {}).await;
    let (st, reg) = http_post(
        s.addr,
        "/api/register",
        json!({"name": "Rated", "password": "geheim123"}),
    )
    .await;
    assert_eq!(st, 200);
    let token = reg["token"].as_str().expect("token").to_string();
    let (mut c, _) = Client::with_token(&url(&s), &token).await.expect("hello");
    let table = create(
        &mut c,
        table_settings(json!([null, "random", "random", "random"])),
    )
    .await;
    ok(&mut c, json!({"type": "sit", "table": table, "seat": 0})).await;
    ok(&mut c, json!({"type": "join", "table": table})).await;
    ok(&mut c, json!({"type": "start", "table": table})).await;
    let mut tr = Vec::new();
    let over = tokio::time::timeout(
        Duration::from_secs(120),
        play_with_hints(&mut c, &table, &mut tr),
    )
    .await
    .expect("match ends");
    let place = over["event"]["summary"]["placings"]
        .as_array()
        .expect("placings")
        .iter()
        .find(|p| p["seat"] == 0)
        .and_then(|p| p["place"].as_u64())
        .expect("our place");
    // The rating is written after the match; give it a moment.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let me = http_get_auth(s.addr, "/api/me", &token).await;
    let rating = me["player"]["rating"].as_f64().expect("rating");
    assert_eq!(me["player"]["matches"], 1, "{me}");
    assert_eq!(me["history"].as_array().map(Vec::len), Some(1));
    if place == 1 {
        assert!(
            rating > 1500.0,
            "a win against random bots raised nothing: {rating}"
        );
    } else {
        assert!(rating < 1500.0 + 32.0);
    }
}

async fn http_get_auth(addr: std::net::SocketAddr, path: &str, token: &str) -> Value {
    let (_, text) = romme_server::loadtest::http(&addr.to_string(), "GET", path, Some(token), None)
        .await
        .expect("HTTP");
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// The same server on PostgreSQL, when one is available:
/// `ROMME_TEST_POSTGRES_URL=postgres://romme:romme@127.0.0.1/romme_test`
/// (the test drops and recreates the schema's tables in that database).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_plays_a_match_with_the_same_code() {
    let Ok(pg) = std::env::var("ROMME_TEST_POSTGRES_URL") else {
        eprintln!("skipped: set ROMME_TEST_POSTGRES_URL to run against PostgreSQL");
        return;
    };
    {
        use sqlx::Executor;
        let pool = sqlx::postgres::PgPool::connect(&pg)
            .await
            .expect("postgres");
        pool.execute(
            "DROP TABLE IF EXISTS settings, players, game_tables, table_log, match_records, results, _sqlx_migrations",
        )
        .await
        .expect("clean");
    }
    let dir = tempfile::tempdir().expect("tmp");
    let s = server(&dir, |c| c.database_url = pg.clone()).await;
    let (st, reg) = http_post(
        s.addr,
        "/api/register",
        json!({"name": "Pia", "password": "geheim123"}),
    )
    .await;
    assert_eq!(st, 200, "{reg}");
    let token = reg["token"].as_str().expect("token").to_string();
    let (mut c, _) = Client::with_token(&url(&s), &token).await.expect("hello");
    let table = create(
        &mut c,
        table_settings(json!([null, "heuristic", "random", "random"])),
    )
    .await;
    ok(&mut c, json!({"type": "sit", "table": table, "seat": 0})).await;
    ok(&mut c, json!({"type": "join", "table": table})).await;
    ok(&mut c, json!({"type": "start", "table": table})).await;
    let mut tr = Vec::new();
    tokio::time::timeout(
        Duration::from_secs(120),
        play_with_hints(&mut c, &table, &mut tr),
    )
    .await
    .expect("match ends");
    assert_no_secrets(0, &tr);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let record = http_get(s.addr, &format!("/api/tables/{table}/matches/1/record")).await;
    let record: romme_engine::Record = serde_json::from_str(&record).expect("record");
    assert!(record.replay().is_ok());
    let me = http_get_auth(s.addr, "/api/me", &token).await;
    assert_eq!(me["player"]["matches"], 1, "{me}");
}

/// The hand seat 0 holds at the start of a new match at a fresh table.
async fn first_hand(s: &Server, name: &str) -> Value {
    let (mut c, _) = Client::guest(&url(s), name).await.expect("guest");
    let table = create(
        &mut c,
        table_settings(json!([null, "heuristic", "heuristic", "heuristic"])),
    )
    .await;
    ok(&mut c, json!({"type": "sit", "table": table, "seat": 0})).await;
    join(&mut c, &table).await;
    ok(&mut c, json!({"type": "start", "table": table})).await;
    let snap = join(&mut c, &table).await;
    let mut hand = snap["game"]["hand"].clone();
    assert!(hand.as_array().is_some_and(|h| h.len() >= 12), "{snap}");
    hand.as_array_mut()
        .expect("hand")
        .sort_by_key(|c| c.to_string());
    hand
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fixed_seed_deals_every_table_the_same_and_the_default_does_not() {
    let dir = tempfile::tempdir().expect("tmp");
    let fixed = server(&dir, |c| c.fixed_seed = Some(42)).await;
    let a = first_hand(&fixed, "Ann").await;
    let b = first_hand(&fixed, "Ben").await;
    assert_eq!(a, b, "same fixed seed, same deal");
    let dir2 = tempfile::tempdir().expect("tmp");
    let other = server(&dir2, |c| c.fixed_seed = Some(43)).await;
    assert_ne!(
        a,
        first_hand(&other, "Cem").await,
        "another seed deals anew"
    );
    let dir3 = tempfile::tempdir().expect("tmp");
    let random = server(&dir3, |_| {}).await;
    assert_ne!(
        first_hand(&random, "Dora").await,
        first_hand(&random, "Emil").await,
        "without a fixed seed every table is dealt from the OS random source"
    );
}
