//! `romme serve`, `romme backup` and `romme loadtest`: argument parsing and
//! output only; the server, its storage and the load generator live in
//! `romme-server`.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use romme_server::ServerConfig;
use romme_server::loadtest::{self, LoadConfig};

/// `romme serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on (0.0.0.0:8080 to let others in).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// Database: sqlite:FILE (created if missing) or postgres://user:pw@host/db.
    #[arg(long, default_value = "sqlite:romme.db", env = "ROMME_DATABASE_URL")]
    pub database_url: String,
    /// The built web client (default: web/dist when it exists).
    #[arg(long)]
    pub web: Option<PathBuf>,
    /// Largest client message in bytes; bigger ones are rejected.
    #[arg(long, default_value_t = 8192)]
    pub max_message: usize,
    /// WebSocket connections allowed per IP address.
    #[arg(long, default_value_t = 256)]
    pub max_connections_per_ip: usize,
    /// Messages a second a connection may send on average (bursts of three
    /// times as many).
    #[arg(long, default_value_t = 20.0)]
    pub message_rate: f64,
    /// Close connections silent for this many seconds (pings keep live
    /// clients talking).
    #[arg(long, default_value_t = 60)]
    pub idle_seconds: u64,
    /// Another origin whose pages may connect (repeat for more); the
    /// server's own origin is always allowed.
    #[arg(long)]
    pub allow_origin: Vec<String>,
    /// The address of a reverse proxy in front of the server (Caddy, nginx
    /// terminating TLS; 127.0.0.1 when it runs on the same machine; repeat
    /// or separate with commas for more). Requests from it are taken at
    /// its word: the client's address from X-Forwarded-For (for the per-IP
    /// limit, which would otherwise count every player as the proxy), the
    /// host from X-Forwarded-Host (for the origin check) and https from
    /// X-Forwarded-Proto (the session cookie is then sent only over
    /// https). From any other address these headers are ignored.
    #[arg(
        long,
        value_name = "IP",
        value_delimiter = ',',
        env = "ROMME_TRUSTED_PROXIES"
    )]
    pub trusted_proxy: Vec<std::net::IpAddr>,
    /// Failed logins allowed per client address in ten minutes; after them
    /// that address's logins are refused until the ten minutes are over
    /// (0: no limit). Against password guessing.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub login_failures: u32,
    /// Deal every match from seeds derived from N instead of the OS random
    /// source, and seed the bots and hints from it too: every table then
    /// plays the same sequence of deals (a duplicate tournament, a demo, the
    /// browser tests). Never on a public server: whoever knows N knows every
    /// hand.
    #[arg(long, value_name = "N")]
    pub fixed_seed: Option<u64>,
}

/// `romme serve`: runs until Ctrl-C or SIGTERM.
pub fn serve(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    init_logs();
    let web_dir = args.web.clone().or_else(|| {
        let d = PathBuf::from("web/dist");
        d.join("index.html").exists().then_some(d)
    });
    let config = ServerConfig {
        bind: args.bind,
        database_url: args.database_url.clone(),
        web_dir,
        max_message: args.max_message,
        idle_timeout: Duration::from_secs(args.idle_seconds.max(5)),
        ping_interval: Duration::from_secs((args.idle_seconds / 3).max(1)),
        message_rate: args.message_rate,
        message_burst: args.message_rate * 3.0,
        max_connections_per_ip: args.max_connections_per_ip,
        allowed_origins: args.allow_origin.clone(),
        trusted_proxies: args.trusted_proxy.clone(),
        login_failures: args.login_failures,
        time_scale: 1.0,
        fixed_seed: args.fixed_seed,
    };
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async move {
        let server = romme_server::start(config)
            .await
            .context("starting the server")?;
        eprintln!(
            "romme: serving on http://{} ({} running tables resumed); Ctrl-C or SIGTERM stops",
            server.addr, server.resumed
        );
        stop_signal().await?;
        eprintln!("romme: stopping");
        // Everything acknowledged is already stored; no flush is needed.
        // Stop accepting and let HTTP requests in flight finish (a few
        // seconds at most); players' connections then close, and their
        // clients reconnect when the server is back.
        let _ = tokio::time::timeout(Duration::from_secs(5), server.stop()).await;
        Ok(ExitCode::SUCCESS)
    })
}

/// Ctrl-C, or SIGTERM (what systemd and container runtimes send to stop a
/// service).
async fn stop_signal() -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate()).context("listening for SIGTERM")?;
        tokio::select! {
            r = tokio::signal::ctrl_c() => r.context("waiting for Ctrl-C"),
            _ = term.recv() => Ok(()),
        }
    }
    #[cfg(not(unix))]
    {
        tokio::signal::ctrl_c().await.context("waiting for Ctrl-C")
    }
}

fn init_logs() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("ROMME_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// `romme backup`.
#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The new file to write (it must not exist yet).
    pub file: PathBuf,
    /// The server's database (as for `romme serve`).
    #[arg(long, default_value = "sqlite:romme.db", env = "ROMME_DATABASE_URL")]
    pub database_url: String,
}

/// `romme backup`.
pub fn backup(args: &BackupArgs, out: &mut String) -> anyhow::Result<ExitCode> {
    if let Some(file) = romme_server::store::sqlite_file(&args.database_url) {
        // Connecting would create an empty database where none is.
        if !std::path::Path::new(file).exists() {
            anyhow::bail!("no database at {file} (--database-url names the server's)");
        }
    }
    if let Some(dir) = args.file.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let store = romme_server::store::Store::connect(&args.database_url)
            .await
            .with_context(|| format!("opening {}", args.database_url))?;
        store.backup(&args.file).await?;
        anyhow::Ok(())
    })?;
    let size = std::fs::metadata(&args.file).map_or(0, |m| m.len());
    writeln!(
        out,
        "romme: {} copied to {} ({:.1} MB)",
        args.database_url,
        args.file.display(),
        size as f64 / 1e6
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `romme loadtest`.
#[derive(Debug, Args)]
pub struct LoadtestArgs {
    /// The server's WebSocket URL (loopback only).
    #[arg(long, default_value = "ws://127.0.0.1:8080/ws")]
    pub url: String,
    /// Tables to open, four player connections each.
    #[arg(long, default_value_t = 100)]
    pub tables: usize,
    /// Seconds to play once all tables have started.
    #[arg(long, default_value_t = 30)]
    pub duration: u64,
    /// Milliseconds each player waits before acting (a person thinks).
    #[arg(long, default_value_t = 1000)]
    pub think_ms: u64,
    /// Ruleset preset the tables play.
    #[arg(long, default_value = "klassisch")]
    pub rules: String,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `romme loadtest`.
pub fn loadtest(args: &LoadtestArgs, out: &mut String) -> anyhow::Result<ExitCode> {
    let config = LoadConfig {
        url: args.url.clone(),
        tables: args.tables,
        duration: Duration::from_secs(args.duration),
        think: Duration::from_millis(args.think_ms),
        preset: args.rules.clone(),
    };
    let bar = if args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(args.tables as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("setting up tables {bar:30} {pos}/{len}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let b = bar.clone();
    let report = runtime.block_on(loadtest::run(config, move |n| b.set_position(n as u64)))?;
    bar.finish_and_clear();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        writeln!(
            out,
            "{} tables, {} connections, {:.0} s: {} actions ({:.0}/s), {} errors\n\
             round trip p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms (set-up {:.1} s)",
            report.tables,
            report.connections,
            report.seconds,
            report.actions,
            report.actions_per_second,
            report.errors,
            report.p50_ms,
            report.p90_ms,
            report.p99_ms,
            report.max_ms,
            report.setup_seconds
        )?;
    }
    Ok(if report.errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
