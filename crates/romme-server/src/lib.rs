//! # romme-server
//!
//! The game server behind `romme serve`: one process hosts many tables,
//! serves the web client and keeps every game in a database (an embedded
//! SQLite file by default, PostgreSQL with the same code).
//!
//! * `http`: health, version, metrics, accounts, lobby, records, the
//!   WebSocket upgrade and the web client's files;
//! * `conn`: one WebSocket connection (validation, credits, timeouts);
//! * `forwarded`: the client behind a trusted reverse proxy (address,
//!   host, https);
//! * `protocol`: the JSON messages (documented in `PROTOCOL.md`);
//! * `hub`: the tables of the server, players' sessions;
//! * `actor`: one task per table, its only writer (bots, timers);
//! * `table`: a table as a pure state machine over durable entries;
//! * `store`: sqlx persistence with migrations and group commit;
//! * `auth`, `ids`, `rating`, `metrics`: tokens and passwords, OS-random
//!   ids and seeds, Elo ratings, Prometheus metrics;
//! * `throttle`: failed logins per client address;
//! * `loadtest`: the bounded load generator behind `romme loadtest`.
//!
//! Modelled on axum's examples (state, WebSocket, graceful shutdown) and on
//! boardgame.io (moves, secret state, per-player views).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub mod actor;
pub mod auth;
mod conn;
pub mod forwarded;
pub mod http;
pub mod hub;
pub mod ids;
pub mod loadtest;
pub mod metrics;
pub mod protocol;
pub mod rating;
pub mod store;
pub mod table;
pub mod throttle;

/// How the server runs.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Address to listen on.
    pub bind: SocketAddr,
    /// `sqlite:romme.db` (default), `postgres://…`.
    pub database_url: String,
    /// The built web client (`web/dist`), if any.
    pub web_dir: Option<PathBuf>,
    /// Largest client message in bytes (bigger ones are rejected).
    pub max_message: usize,
    /// Close a client that sent nothing (not even a pong) for this long.
    pub idle_timeout: Duration,
    /// Ping clients this often.
    pub ping_interval: Duration,
    /// Messages a second a connection may send on average…
    pub message_rate: f64,
    /// …and at most this many at once.
    pub message_burst: f64,
    /// WebSocket connections per IP address.
    pub max_connections_per_ip: usize,
    /// Origins allowed besides the server's own (`https://example.org`).
    pub allowed_origins: Vec<String>,
    /// Reverse proxies whose `X-Forwarded-For`, `-Host` and `-Proto`
    /// headers are believed (see [`forwarded`]): behind one, the per-IP
    /// limit counts the clients, not the proxy.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Failed logins allowed per client address in ten minutes; then its
    /// logins are refused until the ten minutes are over (0: no limit).
    pub login_failures: u32,
    /// Scale for tables' timers (turn timer, claims, reconnect): 1.0 in
    /// production; tests shorten them.
    pub time_scale: f64,
    /// Deal every match (and seed every bot and hint) from numbers derived
    /// from this seed alone, so every table plays the same sequence of
    /// deals: reproducible games for tests, demonstrations and duplicate
    /// tournaments. Never on a public server: whoever knows the seed
    /// knows every hand.
    pub fixed_seed: Option<u64>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database_url: "sqlite:romme.db".into(),
            web_dir: None,
            max_message: 8 * 1024,
            idle_timeout: Duration::from_secs(60),
            ping_interval: Duration::from_secs(20),
            message_rate: 20.0,
            message_burst: 60.0,
            max_connections_per_ip: 256,
            allowed_origins: Vec::new(),
            trusted_proxies: Vec::new(),
            login_failures: 10,
            time_scale: 1.0,
            fixed_seed: None,
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database.
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// The address.
    #[error("cannot listen on {addr}: {reason}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why (in the message, not a source of its own: a report that
        /// prints the chain would say it twice).
        reason: std::io::Error,
    },
}

/// A running server.
pub struct Server {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Tables resumed from the database at start.
    pub resumed: usize,
    shutdown: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Server {
    /// Stop accepting, let connections finish, return.
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        let _ = self.task.await;
    }

    /// Wait until the server stops by itself (it does not, unless it fails).
    pub async fn wait(self) -> std::io::Result<()> {
        match self.task.await {
            Ok(r) => r,
            Err(e) => Err(std::io::Error::other(e)),
        }
    }
}

/// Start a server: open the database, resume running tables, listen.
pub async fn start(config: ServerConfig) -> Result<Server, ServeError> {
    let store = store::Store::connect(&config.database_url).await?;
    let metrics = metrics::Metrics::new();
    let hub = Arc::new(
        hub::Hub::new(
            store,
            metrics,
            actor::TaskConfig {
                time_scale: config.time_scale,
                fixed_seed: config.fixed_seed,
            },
        )
        .await?,
    );
    let resumed = hub.resume().await?;
    let listener = TcpListener::bind(config.bind)
        .await
        .map_err(|reason| ServeError::Bind {
            addr: config.bind,
            reason,
        })?;
    let addr = listener.local_addr().map_err(|reason| ServeError::Bind {
        addr: config.bind,
        reason,
    })?;
    let app = http::App {
        hub,
        per_ip: Arc::new(http::PerIp::default()),
        logins: Arc::new(throttle::Throttle::new(
            config.login_failures,
            std::time::Duration::from_secs(600),
        )),
        config: Arc::new(config),
    };
    let router = http::router(app);
    let (tx, rx) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            let _ = rx.await;
        })
        .await
    });
    tracing::info!(%addr, resumed, "romme server listening");
    Ok(Server {
        addr,
        resumed,
        shutdown: Some(tx),
        task,
    })
}
