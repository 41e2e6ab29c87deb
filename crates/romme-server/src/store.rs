//! Persistence through sqlx: one code path for SQLite (the default, an
//! embedded file) and PostgreSQL, schema in `migrations/`.
//!
//! Writes that must be durable before a client hears "done" (table entries,
//! new tables) go through one writer task that commits many requests in one
//! transaction (group commit) and answers each request only after the
//! commit returned. SQLite runs in WAL mode with `synchronous = FULL`, so a
//! committed entry survives `kill -9` and power loss.

use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor, Row};
use tokio::sync::{mpsc, oneshot};

use crate::table::{Entry, MatchSummary, TableConfig};

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed. (The reason is in the message and
    /// not a source of its own: a report that prints the chain would say it
    /// two or three times.)
    #[error("database: {0}")]
    Db(sqlx::Error),
    /// Migrations failed.
    #[error("database migration: {0}")]
    Migrate(sqlx::migrate::MigrateError),
    /// A stored row could not be read back.
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
    /// The writer task is gone (the server is shutting down).
    #[error("the database writer stopped")]
    WriterGone,
    /// The account name is taken.
    #[error("the name '{0}' already belongs to an account")]
    NameTaken(String),
    /// A backup cannot be made as asked.
    #[error("backup: {0}")]
    Backup(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        StoreError::Db(e)
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(e: sqlx::migrate::MigrateError) -> Self {
        StoreError::Migrate(e)
    }
}

/// One durable write.
#[derive(Debug, Clone)]
pub enum Write {
    /// A new table.
    Table {
        /// Id.
        id: String,
        /// Configuration (JSON).
        config: String,
    },
    /// A table entry, number `n` (1-based).
    Entry {
        /// Table id.
        table: String,
        /// Entry number.
        n: u64,
        /// The entry (JSON).
        entry: String,
    },
    /// A table's status.
    Status {
        /// Table id.
        table: String,
        /// New status.
        status: &'static str,
    },
}

struct WriteRequest {
    writes: Vec<Write>,
    done: oneshot::Sender<Result<(), String>>,
}

/// A player row.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PlayerRow {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Has a password.
    pub account: bool,
    /// Rating.
    pub rating: f64,
    /// Rated matches played.
    pub matches: i64,
    /// Sessions issued before this time (seconds) are no longer valid (set
    /// by a password change; 0: all are). Not shown to anyone.
    #[serde(skip)]
    pub sessions_from: i64,
}

/// One line of a player's history.
#[derive(Debug, Clone, serde::Serialize)]
pub struct HistoryRow {
    /// Table.
    pub table: String,
    /// Match at that table.
    pub match_no: i64,
    /// Place.
    pub place: i64,
    /// Points.
    pub points: i64,
    /// When.
    pub finished_at: i64,
}

/// The database.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    writer: mpsc::Sender<WriteRequest>,
    sqlite: bool,
}

/// Seconds since 1970.
pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The file of an SQLite URL (`sqlite:romme.db`, `sqlite://romme.db?…`);
/// `None` for other databases.
pub fn sqlite_file(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("sqlite:")?.trim_start_matches("//");
    Some(rest.split('?').next().unwrap_or(rest))
}

/// `sqlite:romme.db` becomes `sqlite://romme.db?mode=rwc` (create the file
/// if missing); other URLs pass unchanged.
pub fn normalize_url(url: &str) -> String {
    if let Some(rest) = url.strip_prefix("sqlite:") {
        let path = rest.trim_start_matches("//");
        if path.contains("mode=") {
            format!("sqlite://{path}")
        } else if path.contains('?') {
            format!("sqlite://{path}&mode=rwc")
        } else {
            format!("sqlite://{path}?mode=rwc")
        }
    } else {
        url.to_string()
    }
}

impl Store {
    /// Connect, migrate, start the writer.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let url = normalize_url(url);
        let sqlite = url.starts_with("sqlite:");
        // `ROMME_SQLITE_SYNC=normal` trades power-loss durability for
        // latency (a process crash still loses nothing in WAL mode).
        let sync = match std::env::var("ROMME_SQLITE_SYNC").as_deref() {
            Ok("normal") => "NORMAL",
            _ => "FULL",
        };
        let options = AnyConnectOptions::from_str(&url)?;
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 8 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        let pragmas = format!(
                            "PRAGMA journal_mode = WAL; PRAGMA synchronous = {sync}; \
                             PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON; \
                             PRAGMA wal_autocheckpoint = 0;"
                        );
                        conn.execute(pragmas.as_str()).await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        let (tx, rx) = mpsc::channel(4096);
        tokio::spawn(writer(pool.clone(), rx));
        if sqlite {
            // Checkpoint the WAL beside the writer, not inside a commit
            // (an automatic checkpoint would stall the writer's batch).
            let p = pool.clone();
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
                loop {
                    tick.tick().await;
                    if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                        .execute(&p)
                        .await
                    {
                        tracing::warn!("WAL checkpoint: {e}");
                    }
                }
            });
        }
        Ok(Store {
            pool,
            writer: tx,
            sqlite,
        })
    }

    /// Write durably: returns after the commit.
    pub async fn write(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        let (done, wait) = oneshot::channel();
        self.writer
            .send(WriteRequest { writes, done })
            .await
            .map_err(|_| StoreError::WriterGone)?;
        match wait.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(StoreError::Corrupt(e)),
            Err(_) => Err(StoreError::WriterGone),
        }
    }

    /// The server's signing key (made on first start from the OS random
    /// source, so sessions survive restarts).
    pub async fn secret(&self) -> Result<Vec<u8>, StoreError> {
        let row = sqlx::query("SELECT value FROM settings WHERE key = $1")
            .bind("token_key")
            .fetch_optional(&self.pool)
            .await?;
        if let Some(row) = row {
            let hex: String = row.try_get(0)?;
            return from_hex(&hex).ok_or_else(|| StoreError::Corrupt("token key".into()));
        }
        let key = crate::ids::random_bytes::<32>();
        sqlx::query(
            "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
        )
        .bind("token_key")
        .bind(to_hex(&key))
        .execute(&self.pool)
        .await?;
        // Another process may have won the race: read back.
        Box::pin(self.secret()).await
    }

    /// A new guest player.
    pub async fn create_guest(&self, id: &str, name: &str) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO players (id, name, created_at) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(name)
            .bind(now())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A new account.
    pub async fn create_account(&self, id: &str, name: &str, hash: &str) -> Result<(), StoreError> {
        let r = sqlx::query(
            "INSERT INTO players (id, name, password_hash, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(id)
        .bind(name)
        .bind(hash)
        .bind(now())
        .execute(&self.pool)
        .await;
        name_taken(r, name).map(|_| ())
    }

    /// Turn guest `id` into an account named `name` (its rating and history
    /// stay with it). `Ok(false)` when `id` is no guest (an account
    /// already, or unknown).
    pub async fn claim_account(
        &self,
        id: &str,
        name: &str,
        hash: &str,
    ) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "UPDATE players SET name = $2, password_hash = $3 WHERE id = $1 AND password_hash IS NULL",
        )
        .bind(id)
        .bind(name)
        .bind(hash)
        .execute(&self.pool)
        .await;
        name_taken(r, name).map(|done| done.rows_affected() == 1)
    }

    /// A new password hash for account `id`, and sessions issued before
    /// `sessions_from` (seconds) no longer valid; false when `id` is no
    /// account.
    pub async fn set_password(
        &self,
        id: &str,
        hash: &str,
        sessions_from: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE players SET password_hash = $2, sessions_from = $3 \
             WHERE id = $1 AND password_hash IS NOT NULL",
        )
        .bind(id)
        .bind(hash)
        .bind(sessions_from)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// An account's id and password hash.
    pub async fn account(&self, name: &str) -> Result<Option<(String, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT id, password_hash FROM players WHERE name = $1 AND password_hash IS NOT NULL",
        )
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => Some((r.try_get(0)?, r.try_get(1)?)),
            None => None,
        })
    }

    /// A player.
    pub async fn player(&self, id: &str) -> Result<Option<PlayerRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, name, password_hash, rating, matches, sessions_from FROM players WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(player_row).transpose()
    }

    /// A player's last finished matches, newest first.
    pub async fn history(&self, player: &str, limit: i64) -> Result<Vec<HistoryRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT r.table_id, r.match_no, r.place, r.points, m.finished_at FROM results r \
             JOIN match_records m ON m.table_id = r.table_id AND m.match_no = r.match_no \
             WHERE r.player_id = $1 ORDER BY m.finished_at DESC LIMIT $2",
        )
        .bind(player)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(HistoryRow {
                    table: r.try_get(0)?,
                    match_no: r.try_get(1)?,
                    place: r.try_get(2)?,
                    points: r.try_get(3)?,
                    finished_at: r.try_get(4)?,
                })
            })
            .collect()
    }

    /// A table's configuration and entries, in order.
    pub async fn load_table(
        &self,
        id: &str,
    ) -> Result<Option<(TableConfig, Vec<Entry>)>, StoreError> {
        let Some(row) = sqlx::query("SELECT config FROM game_tables WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let config: String = row.try_get(0)?;
        let config: TableConfig = serde_json::from_str(&config)
            .map_err(|e| StoreError::Corrupt(format!("table {id} config: {e}")))?;
        let rows = sqlx::query("SELECT n, entry FROM table_log WHERE table_id = $1 ORDER BY n")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        let mut entries = Vec::with_capacity(rows.len());
        for (i, r) in rows.iter().enumerate() {
            let n: i64 = r.try_get(0)?;
            if n != i as i64 + 1 {
                return Err(StoreError::Corrupt(format!(
                    "table {id}: entry {} missing",
                    i + 1
                )));
            }
            let text: String = r.try_get(1)?;
            entries.push(
                serde_json::from_str(&text)
                    .map_err(|e| StoreError::Corrupt(format!("table {id} entry {n}: {e}")))?,
            );
        }
        Ok(Some((config, entries)))
    }

    /// Tables that were running or waiting for players.
    pub async fn open_tables(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM game_tables WHERE status <> $1")
            .bind("finished")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| r.try_get(0).map_err(StoreError::from))
            .collect()
    }

    /// Store a finished match: its record (with the seed), the places, and
    /// the new ratings. Idempotent (a restart may store it again).
    pub async fn finish_match(
        &self,
        table: &str,
        summary: &MatchSummary,
        record: &str,
        ratings: &[(String, f64)],
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let fresh = sqlx::query(
            "INSERT INTO match_records (table_id, match_no, record, finished_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (table_id, match_no) DO NOTHING",
        )
        .bind(table)
        .bind(i64::from(summary.match_no))
        .bind(record)
        .bind(now())
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if fresh {
            for p in &summary.placings {
                sqlx::query(
                    "INSERT INTO results (table_id, match_no, seat, player_id, name, place, points) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(table)
                .bind(i64::from(summary.match_no))
                .bind(p.seat as i64)
                .bind(p.player.clone())
                .bind(p.name.clone())
                .bind(p.place as i64)
                .bind(p.points)
                .execute(&mut *tx)
                .await?;
            }
            for (player, rating) in ratings {
                sqlx::query("UPDATE players SET rating = $1, matches = matches + 1 WHERE id = $2")
                    .bind(*rating)
                    .bind(player)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// The record of a finished match.
    pub async fn record(&self, table: &str, match_no: i64) -> Result<Option<String>, StoreError> {
        let row =
            sqlx::query("SELECT record FROM match_records WHERE table_id = $1 AND match_no = $2")
                .bind(table)
                .bind(match_no)
                .fetch_optional(&self.pool)
                .await?;
        Ok(match row {
            Some(r) => Some(r.try_get(0)?),
            None => None,
        })
    }

    /// Ratings of players.
    pub async fn ratings(&self, players: &[String]) -> Result<Vec<f64>, StoreError> {
        let mut out = Vec::with_capacity(players.len());
        for p in players {
            let row = sqlx::query("SELECT rating FROM players WHERE id = $1")
                .bind(p)
                .fetch_optional(&self.pool)
                .await?;
            out.push(match row {
                Some(r) => r.try_get(0)?,
                None => 1500.0,
            });
        }
        Ok(out)
    }

    /// A consistent copy of an SQLite database in a new file `to`, taken
    /// while the server may be running: SQLite's `VACUUM INTO` reads one
    /// snapshot (in WAL mode the server's writes go on meanwhile) and writes
    /// a compact database that `--database-url sqlite:FILE` opens as it is.
    /// PostgreSQL has `pg_dump` for this.
    pub async fn backup(&self, to: &std::path::Path) -> Result<(), StoreError> {
        if !self.sqlite {
            return Err(StoreError::Backup(
                "only SQLite databases are copied this way; for PostgreSQL use pg_dump".into(),
            ));
        }
        if to.exists() {
            return Err(StoreError::Backup(format!(
                "{} exists already; name a new file",
                to.display()
            )));
        }
        let Some(path) = to.to_str() else {
            return Err(StoreError::Backup(format!(
                "{} is not a UTF-8 path",
                to.display()
            )));
        };
        sqlx::query("VACUUM INTO $1")
            .bind(path.to_string())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The accounts with the highest ratings among those with at least one
    /// rated match, best first (ties: more matches, then the name).
    pub async fn leaderboard(&self, limit: i64) -> Result<Vec<PlayerRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, name, password_hash, rating, matches, sessions_from FROM players \
             WHERE password_hash IS NOT NULL AND matches > 0 \
             ORDER BY rating DESC, matches DESC, name ASC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(player_row).collect()
    }

    /// Answers `SELECT 1` (health check).
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }
}

/// A player from a row of `id, name, password_hash, rating, matches,
/// sessions_from`.
fn player_row(r: &sqlx::any::AnyRow) -> Result<PlayerRow, StoreError> {
    Ok(PlayerRow {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
        account: r.try_get::<Option<String>, _>(2)?.is_some(),
        rating: r.try_get(3)?,
        matches: r.try_get(4)?,
        sessions_from: r.try_get(5)?,
    })
}

/// A write's result, with a unique violation of the account names said as
/// such.
fn name_taken<T>(r: Result<T, sqlx::Error>, name: &str) -> Result<T, StoreError> {
    match r {
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
            Err(StoreError::NameTaken(name.to_string()))
        }
        other => other.map_err(StoreError::from),
    }
}

async fn writer(pool: AnyPool, mut rx: mpsc::Receiver<WriteRequest>) {
    let mut batch = Vec::with_capacity(256);
    while let Some(first) = rx.recv().await {
        batch.push(first);
        while batch.len() < 512 {
            match rx.try_recv() {
                Ok(r) => batch.push(r),
                Err(_) => break,
            }
        }
        let all: Vec<&Write> = batch.iter().flat_map(|r| r.writes.iter()).collect();
        let t0 = std::time::Instant::now();
        let result = commit(&pool, &all).await;
        let took = t0.elapsed();
        if took > std::time::Duration::from_millis(20) {
            tracing::warn!(
                requests = batch.len(),
                ms = took.as_millis() as u64,
                "slow commit"
            );
        }
        match result {
            Ok(()) => {
                for r in batch.drain(..) {
                    let _ = r.done.send(Ok(()));
                }
            }
            Err(_) if batch.len() > 1 => {
                // One bad request must not fail the others: one by one.
                for r in batch.drain(..) {
                    let writes: Vec<&Write> = r.writes.iter().collect();
                    let res = commit(&pool, &writes).await.map_err(|e| e.to_string());
                    let _ = r.done.send(res);
                }
            }
            Err(e) => {
                for r in batch.drain(..) {
                    let _ = r.done.send(Err(e.to_string()));
                }
            }
        }
    }
}

async fn commit(pool: &AnyPool, writes: &[&Write]) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    // Tables first (entries refer to them), then all entries in multi-row
    // inserts (one round trip per 300 rows), then status changes.
    for w in writes {
        if let Write::Table { id, config } = w {
            sqlx::query(
                "INSERT INTO game_tables (id, config, status, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $4)",
            )
            .bind(id.as_str())
            .bind(config.as_str())
            .bind("waiting")
            .bind(now())
            .execute(&mut *tx)
            .await?;
        }
    }
    let entries: Vec<(&str, u64, &str)> = writes
        .iter()
        .filter_map(|w| match w {
            Write::Entry { table, n, entry } => Some((table.as_str(), *n, entry.as_str())),
            _ => None,
        })
        .collect();
    for chunk in entries.chunks(300) {
        let mut sql = String::from("INSERT INTO table_log (table_id, n, entry) VALUES ");
        for i in 0..chunk.len() {
            if i > 0 {
                sql.push_str(", ");
            }
            let b = i * 3;
            sql.push_str(&format!("(${}, ${}, ${})", b + 1, b + 2, b + 3));
        }
        let mut q = sqlx::query(&sql);
        for (table, n, entry) in chunk {
            q = q.bind(*table).bind(*n as i64).bind(*entry);
        }
        q.execute(&mut *tx).await?;
    }
    for w in writes {
        if let Write::Status { table, status } = w {
            sqlx::query("UPDATE game_tables SET status = $1, updated_at = $2 WHERE id = $3")
                .bind(*status)
                .bind(now())
                .bind(table.as_str())
                .execute(&mut *tx)
                .await?;
        }
    }
    tx.commit().await
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_urls_name_their_file() {
        assert_eq!(sqlite_file("sqlite:romme.db"), Some("romme.db"));
        assert_eq!(sqlite_file("sqlite://data/r.db?mode=ro"), Some("data/r.db"));
        assert_eq!(sqlite_file("postgres://u:p@h/db"), None);
    }

    #[tokio::test]
    async fn a_backup_is_a_database_with_everything_stored() {
        let dir = tempfile::tempdir().expect("tmp");
        let url = format!("sqlite:{}", dir.path().join("live.db").display());
        let live = Store::connect(&url).await.expect("connects");
        live.create_guest("p1", "Ida").await.expect("stored");
        let copy = dir.path().join("copy.db");
        live.backup(&copy).await.expect("backed up");
        // The live database goes on; the copy opens as a database of its own.
        live.create_guest("p2", "Jan").await.expect("stored");
        let restored = Store::connect(&format!("sqlite:{}", copy.display()))
            .await
            .expect("the copy opens");
        let ida = restored.player("p1").await.expect("reads");
        assert_eq!(ida.map(|p| p.name), Some("Ida".to_string()));
        assert!(restored.player("p2").await.expect("reads").is_none());
        // Never over an existing file.
        let again = live.backup(&copy).await;
        assert!(matches!(again, Err(StoreError::Backup(_))), "{again:?}");
    }
}
