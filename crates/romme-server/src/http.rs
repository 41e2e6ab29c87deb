//! HTTP routes: health, version, metrics, accounts and sessions, the
//! leaderboard, the lobby list, finished match records, the WebSocket
//! upgrade (origin check, per-IP limit, frame limit) and the web client's
//! static files.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use tower_http::services::{ServeDir, ServeFile};

use crate::ServerConfig;
use crate::actor::Who;
use crate::forwarded::{self, Client};
use crate::hub::Hub;
use crate::protocol::RejectCode;
use crate::throttle::Throttle;

/// Connections per IP address.
#[derive(Default)]
pub struct PerIp(Mutex<HashMap<IpAddr, usize>>);

struct IpGuard {
    map: Arc<PerIp>,
    ip: IpAddr,
}

impl Drop for IpGuard {
    fn drop(&mut self) {
        if let Ok(mut m) = self.map.0.lock()
            && let Some(n) = m.get_mut(&self.ip)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                m.remove(&self.ip);
            }
        }
    }
}

/// What the routes share.
#[derive(Clone)]
pub struct App {
    /// Tables and players.
    pub hub: Arc<Hub>,
    /// Settings.
    pub config: Arc<ServerConfig>,
    /// Connections per IP.
    pub per_ip: Arc<PerIp>,
    /// Failed logins per client address.
    pub logins: Arc<Throttle>,
}

/// The client of a request, as an extractor: the TCP peer, or what a
/// trusted proxy forwarded (see [`forwarded`]).
impl FromRequestParts<App> for Client {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Client, Response> {
        let ConnectInfo(addr) = ConnectInfo::<SocketAddr>::from_request_parts(parts, app)
            .await
            .map_err(IntoResponse::into_response)?;
        Ok(forwarded::client(
            addr.ip(),
            &parts.headers,
            &app.config.trusted_proxies,
        ))
    }
}

/// The router.
pub fn router(app: App) -> Router {
    let api = Router::new()
        .route("/healthz", get(healthz))
        .route("/version", get(version))
        .route("/metrics", get(metrics))
        .route("/ws", get(ws))
        .route("/api/guest", post(guest))
        .route("/api/register", post(register))
        .route("/api/login", post(login))
        .route("/api/password", post(password))
        .route("/api/me", get(me))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/tables", get(tables))
        .route("/api/presets", get(presets))
        .route("/api/tables/{id}/matches/{n}/record", get(record));
    let router = match &app.config.web_dir {
        Some(dir) if dir.join("index.html").exists() => api.fallback_service(
            ServeDir::new(dir).not_found_service(ServeFile::new(dir.join("index.html"))),
        ),
        _ => api.fallback(get(no_client)),
    };
    router.with_state(app)
}

async fn no_client() -> Html<&'static str> {
    Html(
        "<!doctype html><meta charset=utf-8><title>romme</title>\
         <h1>romme server</h1><p>The web client is not built. Run <code>npm ci &amp;&amp; npm run build</code> \
         in <code>web/</code>, or start with the README's run command.</p>",
    )
}

async fn healthz(State(app): State<App>) -> Response {
    match app.hub.store.ping().await {
        Ok(()) => (StatusCode::OK, "ok\n").into_response(),
        Err(e) => (StatusCode::SERVICE_UNAVAILABLE, format!("database: {e}\n")).into_response(),
    }
}

async fn version() -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "name": "romme",
        "version": env!("CARGO_PKG_VERSION"),
        "protocol": 1,
    }))
}

async fn metrics(State(app): State<App>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        app.hub.metrics.render(),
    )
        .into_response()
}

/// The session token from `Authorization: Bearer …` or the
/// `romme_session` cookie.
fn token(headers: &HeaderMap) -> Option<String> {
    if let Some(v) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        && let Some(t) = v.strip_prefix("Bearer ")
    {
        return Some(t.trim().to_string());
    }
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|c| c.trim().strip_prefix("romme_session=").map(str::to_string))
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(serde_json::json!({ "error": message.into() }))).into_response()
}

/// Same origin (the Origin's host is the Host header, or the host a
/// trusted proxy forwarded) or listed.
fn origin_ok(headers: &HeaderMap, config: &ServerConfig, client: &Client) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        // Not a browser: no cross-site risk.
        return true;
    };
    if config.allowed_origins.iter().any(|o| o == origin) {
        return true;
    }
    let Some(origin_host) = origin
        .split_once("://")
        .map(|(_, h)| h.trim_end_matches('/'))
    else {
        return false;
    };
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    [host, client.forwarded_host.as_deref()]
        .into_iter()
        .flatten()
        .any(|h| h.eq_ignore_ascii_case(origin_host))
}

async fn ws(
    State(app): State<App>,
    client: Client,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !origin_ok(&headers, &app.config, &client) {
        return error(StatusCode::FORBIDDEN, "origin not allowed");
    }
    let ip = client.ip;
    let guard = {
        let Ok(mut m) = app.per_ip.0.lock() else {
            return error(StatusCode::INTERNAL_SERVER_ERROR, "lock");
        };
        let n = m.entry(ip).or_insert(0);
        if *n >= app.config.max_connections_per_ip {
            return error(
                StatusCode::TOO_MANY_REQUESTS,
                "too many connections from this address",
            );
        }
        *n += 1;
        IpGuard {
            map: app.per_ip.clone(),
            ip,
        }
    };
    let who = match token(&headers) {
        Some(t) => app.hub.session(&t).await.ok(),
        None => None,
    };
    let hub = app.hub.clone();
    let config = app.config.clone();
    // The library's own limit only stops absurd frames; the protocol's
    // limit (`max_message`) is checked per message with a clear rejection.
    let hard = config.max_message * 16;
    // The read buffer holds one protocol message (a larger frame is read in
    // several chunks), within 1-64 KiB: the library's 128 KiB default,
    // reserved for every connection, made up most of the server's memory
    // with thousands of players connected.
    upgrade
        .read_buffer_size(config.max_message.clamp(1024, 64 * 1024))
        .max_message_size(hard)
        .max_frame_size(hard)
        .on_upgrade(move |socket| async move {
            let _guard = guard;
            crate::conn::serve(socket, hub, config, who).await;
        })
}

#[derive(Deserialize)]
struct GuestBody {
    name: String,
}

#[derive(Deserialize)]
struct AccountBody {
    name: String,
    password: String,
}

/// The session's answer and cookie; `Secure` (sent only over https) when
/// the client came over https through a trusted proxy.
fn session_response(who: Who, token: String, client: &Client) -> Response {
    let cookie = session_cookie(&token, client);
    (
        [(header::SET_COOKIE, cookie)],
        Json(serde_json::json!({ "player": who.player, "name": who.name, "token": token })),
    )
        .into_response()
}

/// The `romme_session` cookie for `token`.
fn session_cookie(token: &str, client: &Client) -> String {
    format!(
        "romme_session={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{}",
        crate::auth::TOKEN_DAYS * 86_400,
        if client.https { "; Secure" } else { "" }
    )
}

fn refusal(r: (RejectCode, String)) -> Response {
    use RejectCode::*;
    let status = match r.0 {
        Unauthenticated => StatusCode::UNAUTHORIZED,
        Internal => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::BAD_REQUEST,
    };
    error(status, r.1)
}

async fn guest(State(app): State<App>, client: Client, Json(body): Json<GuestBody>) -> Response {
    match app.hub.guest(&body.name).await {
        Ok((who, token)) => session_response(who, token, &client),
        Err(r) => refusal(r),
    }
}

async fn register(
    State(app): State<App>,
    client: Client,
    headers: HeaderMap,
    Json(body): Json<AccountBody>,
) -> Response {
    // A guest who registers (its session sent along) keeps its id.
    let asking = match token(&headers) {
        Some(t) => app.hub.session(&t).await.ok(),
        None => None,
    };
    let guest = asking.as_ref().map(|w| w.player.as_str());
    match app.hub.register(&body.name, &body.password, guest).await {
        Ok((who, token)) => session_response(who, token, &client),
        Err(r) => refusal(r),
    }
}

async fn login(State(app): State<App>, client: Client, Json(body): Json<AccountBody>) -> Response {
    if let Err(wait) = app.logins.check(client.ip, std::time::Instant::now()) {
        return too_many_failures(wait);
    }
    match app.hub.login(&body.name, &body.password).await {
        Ok((who, token)) => session_response(who, token, &client),
        Err(r) => {
            if r.0 != RejectCode::Internal {
                app.logins.failed(client.ip, std::time::Instant::now());
            }
            refusal(r)
        }
    }
}

#[derive(Deserialize)]
struct PasswordBody {
    old: String,
    new: String,
}

/// A new password for the account of the session; a wrong old password
/// counts as a failed login of the client's address.
async fn password(
    State(app): State<App>,
    client: Client,
    headers: HeaderMap,
    Json(body): Json<PasswordBody>,
) -> Response {
    let Some(t) = token(&headers) else {
        return error(StatusCode::UNAUTHORIZED, "no session");
    };
    if let Err(wait) = app.logins.check(client.ip, std::time::Instant::now()) {
        return too_many_failures(wait);
    }
    match app.hub.change_password(&t, &body.old, &body.new).await {
        Ok(token) => {
            let cookie = session_cookie(&token, &client);
            (
                [(header::SET_COOKIE, cookie)],
                Json(serde_json::json!({ "changed": true, "token": token })),
            )
                .into_response()
        }
        Err(r) => {
            // A wrong old password (or session), not a weak new one.
            if r.0 == RejectCode::Unauthenticated {
                app.logins.failed(client.ip, std::time::Instant::now());
            }
            refusal(r)
        }
    }
}

/// The answer while an address has used up its failed logins.
fn too_many_failures(wait: std::time::Duration) -> Response {
    let minutes = wait.as_secs().div_ceil(60).max(1);
    error(
        StatusCode::TOO_MANY_REQUESTS,
        format!("too many failed logins from this address; try again in {minutes} min"),
    )
}

async fn me(State(app): State<App>, headers: HeaderMap) -> Response {
    let Some(t) = token(&headers) else {
        return error(StatusCode::UNAUTHORIZED, "no session");
    };
    let who = match app.hub.session(&t).await {
        Ok(w) => w,
        Err(r) => return refusal(r),
    };
    let player = app.hub.store.player(&who.player).await;
    let history = app.hub.store.history(&who.player, 50).await;
    match (player, history) {
        (Ok(Some(p)), Ok(h)) => {
            Json(serde_json::json!({ "player": p, "history": h })).into_response()
        }
        _ => error(StatusCode::INTERNAL_SERVER_ERROR, "cannot read the player"),
    }
}

/// The best-rated accounts (name, rating, rated matches; no ids).
async fn leaderboard(State(app): State<App>) -> Response {
    match app.hub.store.leaderboard(LEADERBOARD_SIZE).await {
        Ok(rows) => {
            let list: Vec<serde_json::Value> = rows
                .iter()
                .map(|p| serde_json::json!({ "name": p.name, "rating": p.rating, "matches": p.matches }))
                .collect();
            Json(list).into_response()
        }
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

/// Accounts on the leaderboard.
const LEADERBOARD_SIZE: i64 = 20;

async fn tables(State(app): State<App>) -> Response {
    Json(app.hub.lobby().await).into_response()
}

async fn presets() -> Response {
    let list: Vec<serde_json::Value> = romme_core::ruleset::presets::NAMES
        .iter()
        .filter_map(|n| romme_core::ruleset::presets::load(n).and_then(Result::ok))
        .map(|r| {
            serde_json::json!({
                "name": r.name,
                "players": r.players,
                "info": r.info,
                "rules": r,
            })
        })
        .collect();
    Json(list).into_response()
}

/// A finished match's record (with its seed); refused while it runs.
async fn record(State(app): State<App>, Path((id, n)): Path<(String, i64)>) -> Response {
    match app.hub.store.record(&id, n).await {
        Ok(Some(text)) => ([(header::CONTENT_TYPE, "application/json")], text).into_response(),
        Ok(None) => error(
            StatusCode::NOT_FOUND,
            "no finished match with that number at that table (records are published when a match ends)",
        ),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}
