//! The tables of one server: creating them, finding (and after a restart,
//! rebuilding) their tasks, the lobby list, and players' sessions.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use romme_core::ruleset::Ruleset;
use tokio::sync::{Mutex, mpsc, oneshot};

use crate::actor::{Actor, Cmd, TaskConfig, Who};
use crate::auth::{self, AuthError, Tokens};
use crate::metrics::Metrics;
use crate::protocol::{NewTable, RejectCode, RulesChoice};
use crate::store::{Store, StoreError, Write};
use crate::table::{LobbyEntry, Status, TableState};

/// Commands a table task may have queued.
const TABLE_QUEUE: usize = 256;

/// Shared server state.
pub struct Hub {
    tables: Mutex<HashMap<String, mpsc::Sender<Cmd>>>,
    /// The database.
    pub store: Store,
    /// Metrics.
    pub metrics: Metrics,
    /// Session tokens.
    pub tokens: Tokens,
    tasks: TaskConfig,
}

/// Why something failed, as a client hears it.
pub type Refusal = (RejectCode, String);

impl Hub {
    /// A hub over `store`.
    pub async fn new(store: Store, metrics: Metrics, tasks: TaskConfig) -> Result<Hub, StoreError> {
        let key = store.secret().await?;
        Ok(Hub {
            tables: Mutex::new(HashMap::new()),
            store,
            metrics,
            tokens: Tokens::new(key),
            tasks,
        })
    }

    /// Rebuild every table that was waiting or playing (after a restart).
    pub async fn resume(&self) -> Result<usize, StoreError> {
        let ids = self.store.open_tables().await?;
        let mut n = 0;
        for id in ids {
            if self.table(&id).await.is_some() {
                n += 1;
            }
        }
        Ok(n)
    }

    /// A table's task, loading it from the database if needed.
    pub async fn table(&self, id: &str) -> Option<mpsc::Sender<Cmd>> {
        let mut tables = self.tables.lock().await;
        if let Some(tx) = tables.get(id)
            && !tx.is_closed()
        {
            return Some(tx.clone());
        }
        let (config, entries) = match self.store.load_table(id).await {
            Ok(Some(found)) => found,
            Ok(None) => return None,
            Err(e) => {
                tracing::error!(table = id, "loading failed: {e}");
                return None;
            }
        };
        let mut table = TableState::new(id.to_string(), config);
        for (i, e) in entries.iter().enumerate() {
            if let Err(err) = table.apply(e) {
                tracing::error!(
                    table = id,
                    entry = i + 1,
                    "stored entry does not apply: {err}"
                );
                return None;
            }
        }
        let tx = self.spawn(table);
        tables.insert(id.to_string(), tx.clone());
        Some(tx)
    }

    fn spawn(&self, table: TableState) -> mpsc::Sender<Cmd> {
        let (tx, rx) = mpsc::channel(TABLE_QUEUE);
        let actor = Actor::new(table, self.store.clone(), self.metrics.clone(), self.tasks);
        tokio::spawn(actor.run(rx));
        tx
    }

    /// Create a table for `who`; returns its id.
    pub async fn create(&self, who: &Who, settings: NewTable) -> Result<String, Refusal> {
        let rules = resolve_rules(&settings.rules)?;
        let config = TableState::configure(settings, rules, who.player.clone())
            .map_err(|e| (RejectCode::BadSettings, e.to_string()))?;
        let id = crate::ids::table_id();
        let text =
            serde_json::to_string(&config).map_err(|e| (RejectCode::Internal, e.to_string()))?;
        self.store
            .write(vec![Write::Table {
                id: id.clone(),
                config: text,
            }])
            .await
            .map_err(|e| (RejectCode::Internal, e.to_string()))?;
        let tx = self.spawn(TableState::new(id.clone(), config));
        self.tables.lock().await.insert(id.clone(), tx);
        Ok(id)
    }

    /// Public tables that have not finished, newest states.
    pub async fn lobby(&self) -> Vec<LobbyEntry> {
        let senders: Vec<mpsc::Sender<Cmd>> = self.tables.lock().await.values().cloned().collect();
        let mut out = Vec::new();
        for tx in senders {
            let (reply, wait) = oneshot::channel();
            if tx.send(Cmd::Lobby(reply)).await.is_err() {
                continue;
            }
            if let Ok(Ok((entry, public))) =
                tokio::time::timeout(Duration::from_secs(2), wait).await
                && public
                && entry.status != Status::Finished
            {
                out.push(entry);
            }
        }
        out.sort_by(|a, b| (a.free == 0, &a.name).cmp(&(b.free == 0, &b.name)));
        out
    }

    /// A new guest player.
    pub async fn guest(&self, name: &str) -> Result<(Who, String), Refusal> {
        let name = auth::check_name(name).map_err(bad_auth)?;
        let id = crate::ids::player_id();
        self.store
            .create_guest(&id, &name)
            .await
            .map_err(|e| (RejectCode::Internal, e.to_string()))?;
        let token = self.tokens.issue(&id, crate::store::now());
        Ok((Who { player: id, name }, token))
    }

    /// A new account; with `guest` (the id of the guest asking, from its
    /// session), that guest becomes the account and keeps its rating and
    /// history.
    pub async fn register(
        &self,
        name: &str,
        password: &str,
        guest: Option<&str>,
    ) -> Result<(Who, String), Refusal> {
        let name = auth::check_name(name).map_err(bad_auth)?;
        let pw = password.to_string();
        let hash = tokio::task::spawn_blocking(move || auth::hash_password(&pw))
            .await
            .map_err(|_| (RejectCode::Internal, "hashing failed".to_string()))?
            .map_err(bad_auth)?;
        let taken = |e: StoreError| match e {
            StoreError::NameTaken(_) => (RejectCode::BadSettings, e.to_string()),
            other => (RejectCode::Internal, other.to_string()),
        };
        // A guest keeps its id, and with it its rating and history.
        let claimed = match guest {
            Some(id) => self
                .store
                .claim_account(id, &name, &hash)
                .await
                .map_err(taken)?
                .then(|| id.to_string()),
            None => None,
        };
        let id = match claimed {
            Some(id) => id,
            None => {
                let id = crate::ids::player_id();
                self.store
                    .create_account(&id, &name, &hash)
                    .await
                    .map_err(taken)?;
                id
            }
        };
        let token = self.issue_for(&id).await?;
        Ok((Who { player: id, name }, token))
    }

    /// A new session for player `id`, counted from now, or from when its
    /// sessions are valid if that is later (a password change in this
    /// second: tokens count whole seconds, see `change_password`).
    async fn issue_for(&self, id: &str) -> Result<String, Refusal> {
        let from = self
            .store
            .player(id)
            .await
            .map_err(|e| (RejectCode::Internal, e.to_string()))?
            .map_or(0, |p| p.sessions_from);
        Ok(self.tokens.issue(id, crate::store::now().max(from)))
    }

    /// Change the password of the account behind `token`: `old` must be
    /// its password now. Every session issued before ends (the other
    /// devices are logged out); the answer is a new session for the one
    /// asking.
    pub async fn change_password(
        &self,
        token: &str,
        old: &str,
        new: &str,
    ) -> Result<String, Refusal> {
        let who = self.session(token).await?;
        let Some((id, hash)) = self
            .store
            .account(&who.name)
            .await
            .map_err(|e| (RejectCode::Internal, e.to_string()))?
            .filter(|(id, _)| *id == who.player)
        else {
            return Err((
                RejectCode::BadSettings,
                "a guest has no password; create an account first".into(),
            ));
        };
        let (old, new) = (old.to_string(), new.to_string());
        let hash = tokio::task::spawn_blocking(move || {
            auth::verify_password(&old, &hash)?;
            auth::hash_password(&new)
        })
        .await
        .map_err(|_| (RejectCode::Internal, "checking failed".to_string()))?
        .map_err(bad_auth)?;
        // Tokens count whole seconds: every one issued up to this second
        // ends, the new one counts from the next.
        let from = crate::store::now() + 1;
        match self.store.set_password(&id, &hash, from).await {
            Ok(true) => Ok(self.tokens.issue(&id, from)),
            Ok(false) => Err((RejectCode::Internal, "the account is gone".into())),
            Err(e) => Err((RejectCode::Internal, e.to_string())),
        }
    }

    /// Log in to an account.
    pub async fn login(&self, name: &str, password: &str) -> Result<(Who, String), Refusal> {
        let name = auth::check_name(name).map_err(bad_auth)?;
        let Some((id, hash)) = self
            .store
            .account(&name)
            .await
            .map_err(|e| (RejectCode::Internal, e.to_string()))?
        else {
            return Err(bad_auth(AuthError::WrongPassword));
        };
        let pw = password.to_string();
        tokio::task::spawn_blocking(move || auth::verify_password(&pw, &hash))
            .await
            .map_err(|_| (RejectCode::Internal, "checking failed".to_string()))?
            .map_err(bad_auth)?;
        let token = self.issue_for(&id).await?;
        Ok((Who { player: id, name }, token))
    }

    /// The player a session token belongs to.
    pub async fn session(&self, token: &str) -> Result<Who, Refusal> {
        let (id, issued) = self
            .tokens
            .check_issued(token, crate::store::now())
            .map_err(bad_auth)?;
        match self.store.player(&id).await {
            // A password change ends the sessions issued before it.
            Ok(Some(p)) if issued < p.sessions_from => Err(bad_auth(AuthError::Expired)),
            Ok(Some(p)) => Ok(Who {
                player: p.id,
                name: p.name,
            }),
            Ok(None) => Err(bad_auth(AuthError::BadToken)),
            Err(e) => Err((RejectCode::Internal, e.to_string())),
        }
    }
}

fn bad_auth(e: AuthError) -> Refusal {
    let code = match e {
        AuthError::BadName | AuthError::WeakPassword => RejectCode::BadSettings,
        AuthError::BadToken | AuthError::Expired | AuthError::WrongPassword => {
            RejectCode::Unauthenticated
        }
    };
    (code, e.to_string())
}

/// The ruleset a new table asked for.
pub fn resolve_rules(choice: &RulesChoice) -> Result<Ruleset, Refusal> {
    match choice {
        RulesChoice::Preset { preset } => match romme_core::ruleset::presets::load(preset) {
            Some(Ok(r)) => Ok(r),
            Some(Err(e)) => Err((RejectCode::Internal, e.to_string())),
            None => Err((
                RejectCode::BadSettings,
                format!(
                    "unknown preset '{preset}'; presets: {}",
                    romme_core::ruleset::presets::NAMES.join(", ")
                ),
            )),
        },
        RulesChoice::Toml { toml } => romme_core::ruleset::load("table.toml", toml)
            .map_err(|e| (RejectCode::BadSettings, e.to_string())),
    }
}

/// Shared handle.
pub type SharedHub = Arc<Hub>;
