//! One WebSocket connection: reads and checks every inbound message (size,
//! JSON schema, message credits, `hello` first), routes requests to the
//! lobby or to a table's task, writes the connection's queue to the socket,
//! pings, and closes silent or flooding clients.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::time::{interval, timeout};

use crate::ServerConfig;
use crate::actor::{Cmd, Outbox, Who};
use crate::hub::Hub;
use crate::protocol::{ClientMsg, Op, RejectCode, ServerMsg};

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// Messages a connection's queue holds before the client counts as too
/// slow and is disconnected.
const OUTBOX: usize = 4096;
/// Refused messages in a row after which a flooding client is closed.
const MAX_STRIKES: u32 = 100;

/// A token bucket: `rate` messages a second, at most `burst` at once.
struct Credits {
    rate: f64,
    burst: f64,
    tokens: f64,
    at: Instant,
}

impl Credits {
    fn new(rate: f64, burst: f64) -> Credits {
        Credits {
            rate,
            burst,
            tokens: burst,
            at: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Serve one upgraded connection until it closes.
pub async fn serve(socket: WebSocket, hub: Arc<Hub>, config: Arc<ServerConfig>, who: Option<Who>) {
    let conn = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    hub.metrics.connections.inc();
    let (mut sink, mut stream) = socket.split();
    let (out, mut queue) = Outbox::new(OUTBOX);
    let kicked = out.kicked();
    let ping_every = config.ping_interval;
    let writer_out = out.clone();
    let writer = tokio::spawn(async move {
        let mut ping = interval(ping_every);
        ping.tick().await;
        loop {
            tokio::select! {
                msg = queue.recv() => match msg {
                    Some(text) => {
                        if sink.send(Message::Text(text.into())).await.is_err() {
                            break;
                        }
                    }
                    None => break,
                },
                _ = ping.tick() => {
                    if sink.send(Message::Ping(Vec::new().into())).await.is_err() {
                        break;
                    }
                }
                _ = kicked.notified() => {
                    if writer_out.lagged() {
                        let bye = serde_json::json!({"type": "bye", "reason": "too slow: messages piled up"});
                        let _ = sink.send(Message::Text(bye.to_string().into())).await;
                        break;
                    }
                }
            }
        }
        let _ = sink.close().await;
    });

    let mut who = who;
    if let Some(w) = &who {
        welcome(&hub, &out, w);
    }
    let mut credits = Credits::new(config.message_rate, config.message_burst);
    let mut strikes = 0u32;
    let mut joined: HashSet<String> = HashSet::new();
    loop {
        if out.lagged() {
            break;
        }
        let next = match timeout(config.idle_timeout, stream.next()).await {
            Ok(Some(Ok(m))) => m,
            Ok(_) => break,
            Err(_) => {
                out.send(&ServerMsg::Bye {
                    reason: "no message for too long".into(),
                });
                break;
            }
        };
        let text = match next {
            Message::Text(t) => t,
            Message::Binary(_) => {
                out.reject(
                    None,
                    RejectCode::Malformed,
                    "binary messages are not used; send JSON text",
                );
                continue;
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        hub.metrics.messages.inc();
        if text.len() > config.max_message {
            hub.metrics.rejections.inc();
            out.reject(
                None,
                RejectCode::TooLarge,
                format!(
                    "message of {} bytes; the limit is {} bytes",
                    text.len(),
                    config.max_message
                ),
            );
            continue;
        }
        let id_of = || {
            serde_json::from_str::<serde_json::Value>(text.as_str())
                .ok()
                .and_then(|v| v.get("id").and_then(serde_json::Value::as_u64))
        };
        if !credits.take() {
            strikes += 1;
            hub.metrics.rejections.inc();
            out.reject(
                id_of(),
                RejectCode::RateLimited,
                "too many messages; slow down",
            );
            if strikes > MAX_STRIKES {
                out.send(&ServerMsg::Bye {
                    reason: "too many messages".into(),
                });
                break;
            }
            continue;
        }
        let msg: ClientMsg = match serde_json::from_str(text.as_str()) {
            Ok(m) => m,
            Err(e) => {
                hub.metrics.rejections.inc();
                out.reject(
                    id_of(),
                    RejectCode::Malformed,
                    format!("cannot read the message: {e}"),
                );
                continue;
            }
        };
        strikes = 0;
        match (msg.op, &who) {
            (Op::Hello { token, guest }, _) => {
                let result = match (token, guest) {
                    (Some(t), _) => hub.session(&t).await.map(|w| (w, t)),
                    (None, Some(name)) => hub.guest(&name).await,
                    (None, None) => Err((
                        RejectCode::Malformed,
                        "hello needs a token or a guest name".into(),
                    )),
                };
                match result {
                    Ok((w, token)) => {
                        out.send(&ServerMsg::Welcome {
                            player: w.player.clone(),
                            name: w.name.clone(),
                            token,
                        });
                        who = Some(w);
                    }
                    Err((code, message)) => out.reject(msg.id, code, message),
                }
            }
            (_, None) => out.reject(
                msg.id,
                RejectCode::Unauthenticated,
                "say hello first (with a session token or a guest name)",
            ),
            (op, Some(w)) => {
                let Some(id) = msg.id else {
                    out.reject(
                        None,
                        RejectCode::Malformed,
                        "every request needs a numeric id",
                    );
                    continue;
                };
                route(&hub, conn, w, &out, id, op, &mut joined).await;
            }
        }
    }
    for table in joined {
        if let Some(tx) = hub.table(&table).await {
            let _ = tx.send(Cmd::Gone { conn }).await;
        }
    }
    drop(out);
    let _ = writer.await;
    hub.metrics.connections.dec();
}

fn welcome(hub: &Hub, out: &Outbox, w: &Who) {
    out.send(&ServerMsg::Welcome {
        player: w.player.clone(),
        name: w.name.clone(),
        token: hub.tokens.issue(&w.player, crate::store::now()),
    });
}

fn table_of(op: &Op) -> Option<&str> {
    match op {
        Op::Join { table, .. }
        | Op::Unjoin { table }
        | Op::Sit { table, .. }
        | Op::Leave { table }
        | Op::SetBot { table, .. }
        | Op::Start { table }
        | Op::Act { table, .. }
        | Op::Pass { table }
        | Op::Hint { table }
        | Op::Chat { table, .. } => Some(table),
        Op::Hello { .. } | Op::List | Op::Create { .. } => None,
    }
}

async fn route(
    hub: &Hub,
    conn: u64,
    who: &Who,
    out: &Outbox,
    id: u64,
    op: Op,
    joined: &mut HashSet<String>,
) {
    let received = Instant::now();
    match op {
        Op::List => {
            let list = hub.lobby().await;
            out.ack(id, None, serde_json::to_value(list).ok());
        }
        Op::Create { table } => match hub.create(who, *table).await {
            Ok(table) => out.ack(id, None, Some(serde_json::json!({ "table": table }))),
            Err((code, message)) => out.reject(Some(id), code, message),
        },
        op => {
            let Some(table) = table_of(&op).map(str::to_string) else {
                return;
            };
            let Some(tx) = hub.table(&table).await else {
                out.reject(Some(id), RejectCode::NoTable, format!("no table '{table}'"));
                return;
            };
            match &op {
                Op::Join { .. } => {
                    joined.insert(table.clone());
                }
                Op::Unjoin { .. } => {
                    joined.remove(&table);
                }
                _ => {}
            }
            let cmd = Cmd::Request {
                conn,
                who: who.clone(),
                out: out.clone(),
                id,
                op,
                received,
            };
            if tx.send(cmd).await.is_err() {
                out.reject(Some(id), RejectCode::Internal, "the table is not available");
            }
        }
    }
}
