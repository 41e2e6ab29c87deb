//! The bounded load generator behind `romme loadtest`: it opens many
//! WebSocket clients against a server on loopback, four per table, which
//! play real matches (draw from the stock, discard their highest card; the
//! server's hint when that is refused) with think times spread from half to
//! one and a half times `--think-ms`, and measures every action's round
//! trip. It refuses non-loopback addresses and stops by itself.

use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use hdrhistogram::Histogram;
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

/// What to run.
#[derive(Debug, Clone)]
pub struct LoadConfig {
    /// `ws://127.0.0.1:8080/ws` (loopback only).
    pub url: String,
    /// Tables (four clients each).
    pub tables: usize,
    /// Seconds of play after all tables started.
    pub duration: Duration,
    /// Pause before each action, as a person would think.
    pub think: Duration,
    /// Ruleset preset.
    pub preset: String,
}

/// What happened.
#[derive(Debug, Clone, Serialize)]
pub struct LoadReport {
    /// Tables that started a match.
    pub tables: usize,
    /// Connections opened.
    pub connections: usize,
    /// Actions acknowledged during the measured time.
    pub actions: u64,
    /// Actions a second.
    pub actions_per_second: f64,
    /// Rejections, failed connections and protocol errors.
    pub errors: u64,
    /// Round trip from sending an action to its acknowledgement.
    pub p50_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// Slowest.
    pub max_ms: f64,
    /// Seconds measured.
    pub seconds: f64,
    /// Seconds it took to set up all tables.
    pub setup_seconds: f64,
}

/// Why the run could not happen.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Only loopback is allowed.
    #[error("the load generator only connects to loopback addresses, not {0}")]
    NotLoopback(String),
    /// A bad URL.
    #[error("bad URL {0}: use ws://127.0.0.1:PORT/ws")]
    BadUrl(String),
    /// Setting a table up failed.
    #[error("setting up: {0}")]
    Setup(String),
}

/// Check that `url` points at this machine.
pub fn check_loopback(url: &str) -> Result<SocketAddr, LoadError> {
    let rest = url
        .strip_prefix("ws://")
        .ok_or_else(|| LoadError::BadUrl(url.into()))?;
    let hostport = rest.split('/').next().unwrap_or(rest);
    let addrs: Vec<SocketAddr> = hostport
        .to_socket_addrs()
        .map_err(|_| LoadError::BadUrl(url.into()))?
        .collect();
    let first = *addrs.first().ok_or_else(|| LoadError::BadUrl(url.into()))?;
    if addrs.iter().all(|a| a.ip().is_loopback()) {
        Ok(first)
    } else {
        Err(LoadError::NotLoopback(hostport.into()))
    }
}

/// One HTTP/1.1 request to `addr` (`127.0.0.1:8080`), for tests and tools
/// on loopback: the status and the body.
pub async fn http(
    addr: &str,
    method: &str,
    path: &str,
    bearer: Option<&str>,
    body: Option<&Value>,
) -> Result<(u16, String), String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let auth = bearer.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| format!("write: {e}"))?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf)
        .await
        .map_err(|e| format!("read: {e}"))?;
    let text = String::from_utf8_lossy(&buf);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("not HTTP: {text}"))?;
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Ok((status, body))
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A minimal protocol client (also used by the server's tests).
pub struct Client {
    ws: Ws,
    next_id: u64,
    /// Messages received but not yet consumed.
    pub inbox: std::collections::VecDeque<Value>,
}

impl Client {
    /// Connect and say hello as a new guest.
    pub async fn guest(url: &str, name: &str) -> Result<(Client, Value), String> {
        Client::hello(url, json!({"type": "hello", "guest": name})).await
    }

    /// Connect with a session token.
    pub async fn with_token(url: &str, token: &str) -> Result<(Client, Value), String> {
        Client::hello(url, json!({"type": "hello", "token": token})).await
    }

    async fn hello(url: &str, hello: Value) -> Result<(Client, Value), String> {
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        let mut c = Client {
            ws,
            next_id: 0,
            inbox: Default::default(),
        };
        c.send_raw(&hello.to_string()).await?;
        let welcome = c
            .wait_for(|m| m["type"] == "welcome" || m["type"] == "reject")
            .await?;
        if welcome["type"] != "welcome" {
            return Err(format!("hello refused: {welcome}"));
        }
        Ok((c, welcome))
    }

    /// Send text as it is.
    pub async fn send_raw(&mut self, text: &str) -> Result<(), String> {
        self.ws
            .send(Message::Text(text.to_string().into()))
            .await
            .map_err(|e| format!("send: {e}"))
    }

    /// Send a request (an `id` is added); returns the id.
    pub async fn request(&mut self, mut body: Value) -> Result<u64, String> {
        self.next_id += 1;
        body["id"] = json!(self.next_id);
        self.send_raw(&body.to_string()).await?;
        Ok(self.next_id)
    }

    /// Send a request and wait for its answer (`ack` or `reject`); other
    /// messages stay in the inbox.
    pub async fn call(&mut self, body: Value) -> Result<Value, String> {
        let id = self.request(body).await?;
        self.answer(id).await
    }

    /// Wait for the answer to request `id`.
    pub async fn answer(&mut self, id: u64) -> Result<Value, String> {
        self.wait_for(|m| (m["type"] == "ack" || m["type"] == "reject") && m["id"] == id)
            .await
    }

    /// The next message from the socket (or the inbox).
    pub async fn next(&mut self) -> Result<Value, String> {
        if let Some(m) = self.inbox.pop_front() {
            return Ok(m);
        }
        self.read().await
    }

    async fn read(&mut self) -> Result<Value, String> {
        loop {
            match self.ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    return serde_json::from_str(t.as_str()).map_err(|e| format!("bad JSON: {e}"));
                }
                Some(Ok(Message::Close(_))) | None => return Err("closed".into()),
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(format!("receive: {e}")),
            }
        }
    }

    /// Wait for the first message matching `f` (earlier ones stay in the
    /// inbox, in order).
    pub async fn wait_for(&mut self, f: impl Fn(&Value) -> bool) -> Result<Value, String> {
        if let Some(i) = self.inbox.iter().position(&f) {
            return self.inbox.remove(i).ok_or_else(|| "inbox".to_string());
        }
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let m = match tokio::time::timeout_at(deadline, self.read()).await {
                Ok(m) => m?,
                Err(_) => {
                    let last: Vec<String> = self
                        .inbox
                        .iter()
                        .rev()
                        .take(5)
                        .map(|m| m.to_string().chars().take(300).collect())
                        .collect();
                    return Err(format!(
                        "nothing expected arrived in 30 s; last messages: {last:?}"
                    ));
                }
            };
            if f(&m) {
                return Ok(m);
            }
            self.inbox.push_back(m);
        }
    }

    /// Wait (up to 30 s) until a table event is in the inbox; it stays
    /// there, after the messages that came before it.
    pub async fn wait_event(&mut self) -> Result<(), String> {
        let is_event = |m: &Value| m["type"] == "event";
        if self.inbox.iter().any(is_event) {
            return Ok(());
        }
        let m = self.wait_for(is_event).await?;
        self.inbox.push_back(m);
        Ok(())
    }

    /// Close the connection.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// One seat's knowledge for the simple policy.
#[derive(Default)]
struct SeatPlay {
    seat: usize,
    hand: Vec<String>,
    next_seq: u64,
}

impl SeatPlay {
    /// Follow an event for our seat.
    fn follow(&mut self, m: &Value) {
        if let Some(n) = m["next_seq"].as_u64() {
            self.next_seq = n;
        }
        let e = &m["event"]["event"];
        let mine = e["seat"].as_u64() == Some(self.seat as u64);
        match e["type"].as_str() {
            Some("dealt") if mine => {
                self.hand = e["cards"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|c| c.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
            }
            Some("drew") if mine => {
                if let Some(c) = e["card"].as_str() {
                    self.hand.push(c.to_string());
                }
            }
            Some("discarded") if mine => {
                if let Some(c) = e["card"].as_str()
                    && let Some(i) = self.hand.iter().position(|h| h == c)
                {
                    self.hand.remove(i);
                }
            }
            Some("game-started") => self.hand.clear(),
            _ => {}
        }
    }

    /// The highest card by the rank letter (jokers kept).
    fn discard(&self) -> Option<String> {
        let rank = |c: &str| match c.chars().next() {
            Some('A') => 14,
            Some('K') => 13,
            Some('Q') => 12,
            Some('J') => 11,
            Some('T') => 10,
            Some('*') => 0,
            Some(d) => d.to_digit(10).unwrap_or(1),
            None => 0,
        };
        self.hand
            .iter()
            .filter(|c| !c.starts_with('*'))
            .max_by_key(|c| rank(c))
            .cloned()
    }
}

struct Shared {
    latencies: Mutex<Histogram<u64>>,
    actions: AtomicU64,
    errors: AtomicU64,
    measuring: std::sync::atomic::AtomicBool,
}

async fn setup_table(url: &str, preset: &str, k: usize) -> Result<(String, Vec<Client>), String> {
    let (mut host, _) = Client::guest(url, &format!("load{k}a")).await?;
    let created = host
        .call(json!({"type": "create", "table": {
            "rules": {"preset": preset}, "seats": 4, "public": false,
            "bot_delay_ms": 0, "claim_seconds": 0, "reconnect_seconds": 3600
        }}))
        .await?;
    let table = created["result"]["table"]
        .as_str()
        .ok_or(format!("create refused: {created}"))?
        .to_string();
    let mut clients = vec![host];
    for s in 1..4 {
        let (c, _) = Client::guest(url, &format!("load{k}{s}")).await?;
        clients.push(c);
    }
    for (s, c) in clients.iter_mut().enumerate() {
        let a = c.call(json!({"type": "join", "table": table})).await?;
        if a["type"] != "ack" {
            return Err(format!("join: {a}"));
        }
        let a = c
            .call(json!({"type": "sit", "table": table, "seat": s}))
            .await?;
        if a["type"] != "ack" {
            return Err(format!("sit: {a}"));
        }
    }
    let a = clients[0]
        .call(json!({"type": "start", "table": table}))
        .await?;
    if a["type"] != "ack" {
        return Err(format!("start: {a}"));
    }
    Ok((table, clients))
}

async fn play_seat(
    mut c: Client,
    table: String,
    seat: usize,
    think: Duration,
    until: Instant,
    shared: Arc<Shared>,
) -> Option<Client> {
    let mut me = SeatPlay {
        seat,
        next_seq: 1,
        ..Default::default()
    };
    let mut my_turn = false;
    let mut drawn = false;
    // People do not act in lockstep: think times vary from half to one
    // and a half times the given think time.
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(
        (seat as u64) << 32
            | u64::from(
                table
                    .bytes()
                    .fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b))),
            ),
    );
    while Instant::now() < until {
        let m = match tokio::time::timeout(Duration::from_millis(500), c.next()).await {
            Ok(Ok(m)) => m,
            Ok(Err(_)) => {
                shared.errors.fetch_add(1, Ordering::Relaxed);
                return None;
            }
            Err(_) => continue,
        };
        if m["type"] != "event" {
            continue;
        }
        me.follow(&m);
        let e = &m["event"]["event"];
        if e["type"] == "turn-began" {
            my_turn = e["seat"].as_u64() == Some(seat as u64);
            drawn = false;
        }
        if !my_turn || m["event"]["kind"] != "game" {
            continue;
        }
        // Act when it is our turn and the last event is in: draw, discard.
        if !c.inbox.is_empty() {
            continue;
        }
        let jitter = rand::RngExt::random_range(&mut rng, 0.5..1.5);
        tokio::time::sleep(think.mul_f64(jitter)).await;
        let action = if drawn {
            match me.discard() {
                Some(card) => json!({"type": "discard", "card": card}),
                None => continue,
            }
        } else {
            json!({"type": "draw", "from": "stock"})
        };
        let t0 = Instant::now();
        let body = json!({"type": "act", "table": table, "seq": me.next_seq, "action": action});
        let answer = match c.call(body).await {
            Ok(a) => a,
            Err(_) => {
                shared.errors.fetch_add(1, Ordering::Relaxed);
                return None;
            }
        };
        let rtt = t0.elapsed();
        if answer["type"] == "ack" {
            me.next_seq += 1;
            if !drawn {
                drawn = true;
            } else {
                my_turn = false;
            }
            if shared.measuring.load(Ordering::Relaxed) && Instant::now() <= until {
                shared.actions.fetch_add(1, Ordering::Relaxed);
                let us = rtt.as_micros().max(1) as u64;
                let _ = shared.latencies.lock().await.record(us);
            }
        } else {
            shared.errors.fetch_add(1, Ordering::Relaxed);
            // Fall back on the server's hint.
            if let Ok(h) = c.call(json!({"type": "hint", "table": table})).await
                && let Some(action) = h["result"]["action"].as_object()
            {
                let body =
                    json!({"type": "act", "table": table, "seq": me.next_seq, "action": action});
                if let Ok(a) = c.call(body).await
                    && a["type"] == "ack"
                {
                    me.next_seq += 1;
                }
            }
        }
    }
    Some(c)
}

/// Run the load. `progress` is told how many tables are set up.
pub async fn run(
    config: LoadConfig,
    progress: impl Fn(usize) + Send + Sync,
) -> Result<LoadReport, LoadError> {
    check_loopback(&config.url)?;
    let shared = Arc::new(Shared {
        latencies: Mutex::new(
            Histogram::new_with_bounds(1, 60_000_000, 3)
                .map_err(|e| LoadError::Setup(e.to_string()))?,
        ),
        actions: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        measuring: std::sync::atomic::AtomicBool::new(false),
    });
    let t_setup = Instant::now();
    let mut set_up = Vec::new();
    // Set tables up 32 at a time.
    let mut k = 0;
    while k < config.tables {
        let batch: Vec<_> = (k..(k + 32).min(config.tables))
            .map(|i| {
                let url = config.url.clone();
                let preset = config.preset.clone();
                tokio::spawn(async move { setup_table(&url, &preset, i).await })
            })
            .collect();
        for h in batch {
            match h.await {
                Ok(Ok(t)) => set_up.push(t),
                Ok(Err(e)) => {
                    shared.errors.fetch_add(1, Ordering::Relaxed);
                    if set_up.is_empty() && k == 0 {
                        return Err(LoadError::Setup(e));
                    }
                }
                Err(e) => return Err(LoadError::Setup(e.to_string())),
            }
        }
        k += 32;
        progress(set_up.len());
    }
    let setup_seconds = t_setup.elapsed().as_secs_f64();
    let tables = set_up.len();
    let connections = tables * 4;
    let start = Instant::now();
    let until = start + config.duration;
    shared.measuring.store(true, Ordering::Relaxed);
    let mut handles = Vec::new();
    for (table, clients) in set_up {
        for (seat, c) in clients.into_iter().enumerate() {
            handles.push(tokio::spawn(play_seat(
                c,
                table.clone(),
                seat,
                config.think,
                until,
                shared.clone(),
            )));
        }
    }
    let mut clients = Vec::new();
    for h in handles {
        if let Ok(Some(c)) = h.await {
            clients.push(c);
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    // Close only after everyone stopped (the disconnects are not measured).
    for c in clients {
        c.close().await;
    }
    let hist = shared.latencies.lock().await;
    let ms = |q: f64| hist.value_at_quantile(q) as f64 / 1000.0;
    let actions = shared.actions.load(Ordering::Relaxed);
    Ok(LoadReport {
        tables,
        connections,
        actions,
        actions_per_second: actions as f64 / seconds.max(1e-9),
        errors: shared.errors.load(Ordering::Relaxed),
        p50_ms: ms(0.5),
        p90_ms: ms(0.9),
        p99_ms: ms(0.99),
        max_ms: hist.max() as f64 / 1000.0,
        seconds,
        setup_seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_is_allowed() {
        assert!(check_loopback("ws://127.0.0.1:9/ws").is_ok());
        assert!(check_loopback("ws://localhost:9/ws").is_ok());
        assert!(matches!(
            check_loopback("ws://8.8.8.8:80/ws"),
            Err(LoadError::NotLoopback(_))
        ));
        assert!(matches!(
            check_loopback("http://127.0.0.1:9"),
            Err(LoadError::BadUrl(_))
        ));
    }
}
