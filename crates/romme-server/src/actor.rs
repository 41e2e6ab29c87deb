//! One task per table: the table's only writer. It checks each request
//! (whose seat, which sequence number), turns it into an [`Entry`], applies
//! it, writes it durably, and only then acknowledges it and pushes the new
//! events to every follower, each filtered for the follower's seat. It also
//! plays the bot seats (on blocking threads, from the seat's view only),
//! runs the turn timer, the buy/knock window and the reconnect window.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use romme_bots::{Bot, BotSpec, HeuristicBot};
use romme_engine::{Action, Event, Record, SeatState};
use tokio::sync::{Notify, mpsc, oneshot};
use tokio::time::sleep_until;

use crate::metrics::Metrics;
use crate::protocol::{Op, RejectCode, ServerMsg, Snapshot, TimeoutPolicy};
use crate::store::{Store, Write};
use crate::table::{Entry, LobbyEntry, Occupant, Status, TableError, TableState, parse_bot};

/// A connection's id.
pub type ConnId = u64;

/// Who sent a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Who {
    /// Player id.
    pub player: String,
    /// Display name.
    pub name: String,
}

/// A connection's outgoing queue. When it is full the connection is too
/// slow: it is flagged and closed instead of holding up the table.
#[derive(Clone)]
pub struct Outbox {
    tx: mpsc::Sender<String>,
    lagged: Arc<AtomicBool>,
    kick: Arc<Notify>,
}

impl Outbox {
    /// A queue of `capacity` messages and its receiving end.
    pub fn new(capacity: usize) -> (Outbox, mpsc::Receiver<String>) {
        let (tx, rx) = mpsc::channel(capacity);
        (
            Outbox {
                tx,
                lagged: Arc::new(AtomicBool::new(false)),
                kick: Arc::new(Notify::new()),
            },
            rx,
        )
    }

    /// Queue a message (never waits).
    pub fn send(&self, msg: &ServerMsg) {
        match serde_json::to_string(msg) {
            Ok(text) => self.send_text(text),
            Err(e) => tracing::error!("cannot serialize a message: {e}"),
        }
    }

    /// Queue serialized text.
    pub fn send_text(&self, text: String) {
        if self.tx.try_send(text).is_err() {
            self.lagged.store(true, Ordering::Relaxed);
            self.kick.notify_one();
        }
    }

    /// Whether the queue overflowed.
    pub fn lagged(&self) -> bool {
        self.lagged.load(Ordering::Relaxed)
    }

    /// Wakes when the queue overflowed.
    pub fn kicked(&self) -> Arc<Notify> {
        self.kick.clone()
    }

    /// Answer a request with a rejection.
    pub fn reject(&self, id: Option<u64>, code: RejectCode, message: impl Into<String>) {
        self.send(&ServerMsg::Reject {
            id,
            code,
            message: message.into(),
            reason: None,
        });
    }

    /// Answer a request with an acknowledgement.
    pub fn ack(&self, id: u64, version: Option<u64>, result: Option<serde_json::Value>) {
        self.send(&ServerMsg::Ack {
            id,
            version,
            result,
        });
    }
}

/// A message to a table's task.
pub enum Cmd {
    /// A request of a connection.
    Request {
        /// The connection.
        conn: ConnId,
        /// Its player.
        who: Who,
        /// Its queue (answers and events go there, in order).
        out: Outbox,
        /// The request id.
        id: u64,
        /// The request.
        op: Op,
        /// When the server read it.
        received: Instant,
    },
    /// A connection closed.
    Gone {
        /// The connection.
        conn: ConnId,
    },
    /// The lobby line.
    Lobby(oneshot::Sender<(LobbyEntry, bool)>),
}

/// What a seed is for (see [`Actor::seed_for`]).
enum Purpose {
    /// Dealing match `n`.
    Deal(u32),
    /// The bot in a seat, in match `n`.
    Bot(u32, usize),
    /// A hint at a table version.
    Hint(u64),
}

/// Settings every table task shares.
#[derive(Debug, Clone, Copy)]
pub struct TaskConfig {
    /// Scale for all the table's timers (tests shorten them).
    pub time_scale: f64,
    /// Derive match and bot seeds from this number instead of the OS random
    /// source (`romme serve --fixed-seed`): reproducible games for tests and
    /// demonstrations. Anyone who knows it knows every hand.
    pub fixed_seed: Option<u64>,
}

struct Follower {
    conn: ConnId,
    who: Who,
    out: Outbox,
    views: bool,
}

struct BotSlot {
    level: String,
    match_no: u32,
    seen: usize,
    bot: Box<dyn Bot>,
}

struct Window {
    opened: Instant,
    asked: Vec<bool>,
    passed: Vec<bool>,
}

struct BotDone {
    seat: usize,
    entries: u64,
    claim: bool,
    slot: Option<BotSlot>,
    action: Option<Action>,
}

/// A table's task.
pub struct Actor {
    table: TableState,
    store: Store,
    metrics: Metrics,
    config: TaskConfig,
    followers: Vec<Follower>,
    bots: Vec<Option<BotSlot>>,
    busy: bool,
    bot_tx: mpsc::Sender<BotDone>,
    bot_rx: Option<mpsc::Receiver<BotDone>>,
    window: Option<Window>,
    turn: Option<(usize, u64)>,
    turn_started: Instant,
    turns: u64,
    autoplay: Option<(usize, u64)>,
    away_since: Vec<Option<Instant>>,
    matches_stored: usize,
}

/// Why a request was refused: the code, the words, and for an illegal
/// action the engine's reason as data (`{code, args}`) so that clients can
/// say it in their own language.
#[derive(Debug)]
struct Refusal {
    code: RejectCode,
    message: String,
    reason: Option<serde_json::Value>,
}

fn refuse(code: RejectCode, message: String) -> Refusal {
    Refusal {
        code,
        message,
        reason: None,
    }
}

impl From<(RejectCode, String)> for Refusal {
    fn from((code, message): (RejectCode, String)) -> Refusal {
        refuse(code, message)
    }
}

fn refusal(e: &TableError) -> Refusal {
    let code = match e {
        TableError::NoSeat(_) => RejectCode::NotYourSeat,
        TableError::SeatTaken(_) | TableError::AlreadySeated(_) => RejectCode::SeatTaken,
        TableError::Running
        | TableError::NotRunning
        | TableError::EmptySeat(_)
        | TableError::NotHuman(_) => RejectCode::InvalidState,
        TableError::BadBot(_) | TableError::Setup(_) => RejectCode::BadSettings,
        TableError::Illegal(_) => RejectCode::IllegalAction,
        TableError::BadChat => RejectCode::Malformed,
    };
    let reason = match e {
        TableError::Illegal(err) => serde_json::to_value(err).ok(),
        _ => None,
    };
    Refusal {
        code,
        message: e.to_string(),
        reason,
    }
}

impl Actor {
    /// A task for `table` (already rebuilt from its entries).
    pub fn new(table: TableState, store: Store, metrics: Metrics, config: TaskConfig) -> Actor {
        let n = table.occupants().len();
        let (bot_tx, bot_rx) = mpsc::channel(8);
        let matches_stored = table.matches().len();
        Actor {
            table,
            store,
            metrics,
            config,
            followers: Vec::new(),
            bots: (0..n).map(|_| None).collect(),
            busy: false,
            bot_tx,
            bot_rx: Some(bot_rx),
            window: None,
            turn: None,
            turn_started: Instant::now(),
            turns: 0,
            autoplay: None,
            away_since: vec![None; n],
            matches_stored,
        }
    }

    /// A fresh seed: from the OS, or with `fixed_seed` derived from it and
    /// `purpose` alone, so that every table on such a server deals the same
    /// sequence of matches and its bots play the same way whatever happens
    /// elsewhere (a duplicate tournament, a reproducible test).
    fn seed_for(&self, purpose: Purpose) -> u64 {
        let Some(fixed) = self.config.fixed_seed else {
            return crate::ids::seed();
        };
        let n = match purpose {
            Purpose::Deal(m) => u64::from(m) << 8,
            Purpose::Bot(m, seat) => (u64::from(m) << 8) | (1 + seat as u64 % 200),
            Purpose::Hint(version) => (version << 8) | 255,
        };
        let x = fixed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // splitmix64's finalizer.
        let x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }

    fn secs(&self, s: u32) -> Duration {
        Duration::from_secs_f64(f64::from(s) * self.config.time_scale)
    }

    /// Run until every sender is gone.
    pub async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        let Some(mut bot_rx) = self.bot_rx.take() else {
            return;
        };
        self.metrics.tables.inc();
        // After a restart nobody is connected yet.
        self.mark_everyone_away().await;
        self.track_turn();
        loop {
            self.schedule();
            let deadline = self.next_deadline();
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                Some(done) = bot_rx.recv() => self.bot_done(done).await,
                _ = sleep_until(deadline.unwrap_or_else(far_future).into()), if deadline.is_some() => {
                    self.on_timer().await;
                }
            }
        }
        self.metrics.tables.dec();
    }

    /// The seat's player is gone: its reconnect window starts now, and the
    /// table records it as away (once).
    async fn mark_away(&mut self, seat: usize) {
        self.away_since[seat] = Some(Instant::now());
        if !self.table.is_away(seat) {
            let _ = self
                .commit(Entry::Presence {
                    seat,
                    connected: false,
                })
                .await;
        }
    }

    async fn mark_everyone_away(&mut self) {
        for seat in 0..self.table.occupants().len() {
            if matches!(self.table.occupants()[seat], Occupant::Human { .. }) {
                self.mark_away(seat).await;
            }
        }
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Lobby(reply) => {
                let _ = reply.send((
                    self.table.lobby_entry(),
                    self.table.config().settings.public,
                ));
            }
            Cmd::Gone { conn } => self.gone(conn).await,
            Cmd::Request {
                conn,
                who,
                out,
                id,
                op,
                received,
            } => {
                let is_act = matches!(op, Op::Act { .. });
                match self.request(conn, &who, &out, op).await {
                    Ok((version, result)) => {
                        out.ack(id, version, result);
                        if is_act {
                            self.metrics
                                .action_seconds
                                .observe(received.elapsed().as_secs_f64());
                        }
                    }
                    Err(r) => {
                        self.metrics.rejections.inc();
                        out.send(&ServerMsg::Reject {
                            id: Some(id),
                            code: r.code,
                            message: r.message,
                            reason: r.reason,
                        });
                    }
                }
            }
        }
    }

    async fn request(
        &mut self,
        conn: ConnId,
        who: &Who,
        out: &Outbox,
        op: Op,
    ) -> Result<(Option<u64>, Option<serde_json::Value>), Refusal> {
        let seat = self.table.seat_of(&who.player);
        let mine = || {
            seat.ok_or((
                RejectCode::NotYourSeat,
                "you have no seat at this table".to_string(),
            ))
        };
        let entry = match op {
            Op::Join {
                last_version,
                views,
                ..
            } => {
                self.join(conn, who, out, last_version, views).await;
                return Ok((Some(self.table.version()), None));
            }
            Op::Unjoin { .. } => {
                self.followers.retain(|f| f.conn != conn);
                return Ok((None, None));
            }
            Op::Sit { seat: s, .. } => Entry::Sit {
                seat: s,
                player: who.player.clone(),
                name: who.name.clone(),
            },
            Op::Leave { .. } => Entry::Leave { seat: mine()? },
            Op::SetBot { seat: s, level, .. } => {
                if seat.is_none() && self.table.config().creator != who.player {
                    return Err(refuse(
                        RejectCode::NotYourSeat,
                        "only seated players and the table's creator choose bots".into(),
                    ));
                }
                Entry::SetBot { seat: s, level }
            }
            Op::Start { .. } => {
                if seat.is_none() && self.table.config().creator != who.player {
                    return Err(refuse(
                        RejectCode::NotYourSeat,
                        "only seated players and the table's creator start a match".into(),
                    ));
                }
                Entry::Start {
                    seed: self.seed_for(Purpose::Deal(self.table.match_no() + 1)),
                }
            }
            Op::Act { seq, action, .. } => {
                let s = mine()?;
                let expected = self.table.next_seq(s);
                if seq < expected {
                    return Err(refuse(
                        RejectCode::Duplicate,
                        format!("action number {seq} was already used; the next is {expected}"),
                    ));
                }
                if seq > expected {
                    return Err(refuse(
                        RejectCode::OutOfSequence,
                        format!("action number {seq} skips ahead; the next is {expected}"),
                    ));
                }
                if self.autoplay.is_some_and(|(a, _)| a == s) || self.table.is_forfeited(s) {
                    return Err(refuse(
                        RejectCode::InvalidState,
                        "a bot plays this seat now (timer ran out or forfeited)".into(),
                    ));
                }
                Entry::Act {
                    seat: s,
                    action,
                    auto: false,
                }
            }
            Op::Pass { .. } => {
                let s = mine()?;
                match &mut self.window {
                    Some(w) => {
                        w.passed[s] = true;
                        return Ok((None, None));
                    }
                    None => {
                        return Err(refuse(
                            RejectCode::InvalidState,
                            "no card can be bought or knocked for now".into(),
                        ));
                    }
                }
            }
            Op::Hint { .. } => {
                let s = mine()?;
                let action = self.hint(s).await?;
                return Ok((None, Some(serde_json::json!({ "action": action }))));
            }
            Op::Chat { text, .. } => Entry::Chat {
                seat,
                name: who.name.clone(),
                text,
            },
            Op::Hello { .. } | Op::List | Op::Create { .. } => {
                return Err(refuse(
                    RejectCode::Malformed,
                    "not a table request".to_string(),
                ));
            }
        };
        let is_act = matches!(entry, Entry::Act { .. });
        self.commit(entry).await?;
        if is_act {
            self.metrics.actions.inc();
        }
        Ok((Some(self.table.version()), None))
    }

    async fn hint(&mut self, seat: usize) -> Result<Option<Action>, Refusal> {
        let Some(game) = self.table.game() else {
            return Err(refuse(
                RejectCode::InvalidState,
                "no match is running".into(),
            ));
        };
        let state: SeatState = game.seat_state(seat);
        if state.legal_actions().is_empty() {
            return Err(refuse(
                RejectCode::InvalidState,
                "you have nothing to do right now".into(),
            ));
        }
        let on_turn = game.turn() == Some(seat);
        let seed = self.seed_for(Purpose::Hint(self.table.version()));
        tokio::task::spawn_blocking(move || {
            // The patience's best advice is the expert's: there it weighs
            // the heuristic's best placements one draw ahead, exactly and
            // fast (no sampling).
            let mut bot: Box<dyn Bot> = if state.rules().deal.solo_patience {
                Box::new(romme_bots::expert::ExpertBot::new(
                    seed,
                    romme_bots::expert::Budget::default(),
                ))
            } else {
                Box::new(HeuristicBot::new(seed))
            };
            if on_turn {
                Some(bot.act(&state))
            } else {
                bot.claim(&state)
            }
        })
        .await
        .map_err(|_| refuse(RejectCode::Internal, "the hint failed".to_string()))
    }

    async fn join(
        &mut self,
        conn: ConnId,
        who: &Who,
        out: &Outbox,
        last: Option<u64>,
        views: bool,
    ) {
        self.followers.retain(|f| f.conn != conn);
        self.followers.push(Follower {
            conn,
            who: who.clone(),
            out: out.clone(),
            views,
        });
        let viewer = self.table.seat_of(&who.player);
        let next_seq = viewer.map(|s| self.table.next_seq(s));
        match last.and_then(|v| self.table.events_since(v, viewer)) {
            Some(events) => {
                for (version, event) in events {
                    out.send(&ServerMsg::Event {
                        table: self.table.id().to_string(),
                        version,
                        event,
                        next_seq,
                    });
                }
            }
            None => out.send(&ServerMsg::Snapshot(Box::new(self.snapshot(viewer)))),
        }
        if let Some(seat) = viewer {
            self.away_since[seat] = None;
            if self.table.is_away(seat) {
                let _ = self
                    .commit(Entry::Presence {
                        seat,
                        connected: true,
                    })
                    .await;
            }
        }
    }

    fn snapshot(&self, viewer: Option<usize>) -> Snapshot {
        Snapshot {
            table: self.table.id().to_string(),
            version: self.table.version(),
            info: self.table.info(),
            seat: viewer,
            game: self.table.view(viewer),
            next_seq: viewer.map(|s| self.table.next_seq(s)),
            chat: self.table.chat(),
        }
    }

    async fn gone(&mut self, conn: ConnId) {
        let Some(pos) = self.followers.iter().position(|f| f.conn == conn) else {
            return;
        };
        let who = self.followers.remove(pos).who;
        if self.followers.iter().any(|f| f.who.player == who.player) {
            return;
        }
        if let Some(seat) = self.table.seat_of(&who.player) {
            self.mark_away(seat).await;
        }
    }

    /// Apply, store, then tell everyone. On a storage failure the table is
    /// rebuilt from the database (so memory never runs ahead of it).
    async fn commit(&mut self, entry: Entry) -> Result<(), Refusal> {
        let before = self.table.version();
        let status = self.table.status();
        self.table.apply(&entry).map_err(|e| refusal(&e))?;
        let text =
            serde_json::to_string(&entry).map_err(|e| (RejectCode::Internal, e.to_string()))?;
        let mut writes = vec![Write::Entry {
            table: self.table.id().to_string(),
            n: self.table.entries(),
            entry: text,
        }];
        if self.table.status() != status {
            writes.push(Write::Status {
                table: self.table.id().to_string(),
                status: self.table.status().as_str(),
            });
        }
        if let Err(e) = self.store.write(writes).await {
            tracing::error!(table = self.table.id(), "storing an entry failed: {e}");
            self.reload().await;
            return Err(refuse(
                RejectCode::Internal,
                "the server could not store this; nothing changed".into(),
            ));
        }
        if matches!(entry, Entry::Start { .. }) {
            self.window = None;
            self.autoplay = None;
        }
        self.broadcast(before);
        self.track_turn();
        if self.table.matches().len() > self.matches_stored {
            self.store_match().await;
        }
        Ok(())
    }

    async fn reload(&mut self) {
        let id = self.table.id().to_string();
        match self.store.load_table(&id).await {
            Ok(Some((config, entries))) => {
                let mut t = TableState::new(id, config);
                for e in &entries {
                    if t.apply(e).is_err() {
                        tracing::error!(table = t.id(), "stored entries do not replay");
                        break;
                    }
                }
                self.table = t;
            }
            other => tracing::error!(table = id, "cannot reload the table: {other:?}"),
        }
    }

    fn broadcast(&self, before: u64) {
        let mut cache: HashMap<Option<usize>, Vec<String>> = HashMap::new();
        for f in &self.followers {
            let viewer = self.table.seat_of(&f.who.player);
            let texts = cache.entry(viewer).or_insert_with(|| {
                let next_seq = viewer.map(|s| self.table.next_seq(s));
                self.table
                    .events_since(before, viewer)
                    .unwrap_or_default()
                    .into_iter()
                    .filter_map(|(version, event)| {
                        serde_json::to_string(&ServerMsg::Event {
                            table: self.table.id().to_string(),
                            version,
                            event,
                            next_seq,
                        })
                        .ok()
                    })
                    .collect()
            });
            for t in texts.iter() {
                f.out.send_text(t.clone());
            }
            if f.views {
                f.out
                    .send(&ServerMsg::State(Box::new(self.snapshot(viewer))));
            }
        }
    }

    async fn store_match(&mut self) {
        let Some(summary) = self.table.matches().last().cloned() else {
            return;
        };
        let Some(game) = self.table.game() else {
            return;
        };
        let Ok(record) = serde_json::to_string(&Record::of(game))
            .inspect_err(|e| tracing::error!("cannot serialize a record: {e}"))
        else {
            return;
        };
        let humans: Vec<(String, usize)> = summary
            .placings
            .iter()
            .filter_map(|p| p.player.clone().map(|id| (id, p.place)))
            .collect();
        let ids: Vec<String> = humans.iter().map(|(id, _)| id.clone()).collect();
        let Ok(ratings) = self
            .store
            .ratings(&ids)
            .await
            .inspect_err(|e| tracing::error!("reading ratings failed: {e}"))
        else {
            return;
        };
        let others: Vec<(f64, usize)> = summary
            .placings
            .iter()
            .map(|p| {
                let r = match (&p.player, self.table.occupants().get(p.seat)) {
                    (Some(id), _) => ids
                        .iter()
                        .position(|x| x == id)
                        .map_or(1500.0, |i| ratings[i]),
                    (None, Some(Occupant::Bot { level })) => crate::rating::bot_rating(level),
                    _ => 1500.0,
                };
                (r, p.place)
            })
            .collect();
        // A match against nobody (the solo patience) is recorded but not
        // rated: its rating would not move, and it is no rated match.
        let rated = if summary.placings.len() < 2 {
            &[][..]
        } else {
            &humans[..]
        };
        let updated: Vec<(String, f64)> = rated
            .iter()
            .enumerate()
            .map(|(i, (id, place))| {
                let mine = ratings[i];
                (id.clone(), crate::rating::update(mine, *place, &others))
            })
            .collect();
        match self
            .store
            .finish_match(self.table.id(), &summary, &record, &updated)
            .await
        {
            Ok(()) => self.matches_stored = self.table.matches().len(),
            Err(e) => tracing::error!("storing a finished match failed: {e}"),
        }
    }

    fn track_turn(&mut self) {
        let turn = self.table.game().and_then(|g| g.turn());
        match (turn, self.turn) {
            (Some(t), Some((old, _))) if t == old => {}
            (Some(t), _) => {
                self.turns += 1;
                self.turn = Some((t, self.turns));
                self.turn_started = Instant::now();
            }
            (None, _) => self.turn = None,
        }
        if self.autoplay.is_some_and(|a| Some(a) != self.turn) {
            self.autoplay = None;
        }
        if self.table.status() != Status::Playing {
            self.window = None;
        }
    }

    /// Whether the server plays this seat now.
    fn automated(&self, seat: usize) -> bool {
        match &self.table.occupants()[seat] {
            Occupant::Bot { .. } => true,
            Occupant::Empty => true,
            Occupant::Human { .. } => {
                self.table.is_forfeited(seat)
                    || self.autoplay.is_some_and(|(a, _)| a == seat)
                    || self.away_since[seat].is_some_and(|t| {
                        t.elapsed() >= self.secs(self.table.config().settings.reconnect_seconds)
                    })
            }
        }
    }

    fn schedule(&mut self) {
        if self.busy || self.table.status() != Status::Playing {
            return;
        }
        let (turn, claimers) = self.table.to_act();
        let n = self.table.occupants().len();
        if claimers.is_empty() {
            self.window = None;
        } else if self.window.is_none() {
            self.window = Some(Window {
                opened: Instant::now(),
                asked: vec![false; n],
                passed: vec![false; n],
            });
        }
        let to_ask = self.window.as_ref().and_then(|w| {
            claimers
                .iter()
                .copied()
                .find(|&s| !w.asked[s] && self.automated(s))
        });
        if let Some(seat) = to_ask {
            if let Some(w) = &mut self.window {
                w.asked[seat] = true;
            }
            self.launch(seat, true);
            return;
        }
        let Some(t) = turn else { return };
        if !self.automated(t) {
            return;
        }
        if let Some(w) = &self.window {
            let pending = claimers.iter().any(|&s| !self.automated(s) && !w.passed[s]);
            if pending && w.opened.elapsed() < self.secs(self.table.config().settings.claim_seconds)
            {
                return;
            }
        }
        self.launch(t, false);
    }

    fn launch(&mut self, seat: usize, claim: bool) {
        let Some(game) = self.table.game() else {
            return;
        };
        let level = match &self.table.occupants()[seat] {
            Occupant::Bot { level } if !self.table.is_forfeited(seat) => level.clone(),
            _ => "heuristic".to_string(),
        };
        let match_no = self.table.match_no();
        let mut slot = match self.bots[seat].take() {
            Some(s) if s.level == level && s.match_no == match_no => s,
            _ => {
                let spec = parse_bot(&level).unwrap_or(BotSpec::Heuristic);
                BotSlot {
                    level,
                    match_no,
                    seen: 0,
                    bot: spec.build(self.seed_for(Purpose::Bot(match_no, seat))),
                }
            }
        };
        let events: Vec<Event> = game.events()[slot.seen.min(game.events().len())..]
            .iter()
            .map(|e| e.for_viewer(Some(seat)))
            .collect();
        slot.seen = game.events().len();
        let state = game.seat_state(seat);
        let delay = Duration::from_millis(u64::from(self.table.config().settings.bot_delay_ms))
            .mul_f64(self.config.time_scale.min(1.0));
        let entries = self.table.entries();
        let tx = self.bot_tx.clone();
        self.busy = true;
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let joined = tokio::task::spawn_blocking(move || {
                slot.bot.observe(&events);
                let action = if claim {
                    slot.bot.claim(&state)
                } else {
                    Some(slot.bot.act(&state))
                };
                (slot, action)
            })
            .await;
            let done = match joined {
                Ok((slot, action)) => BotDone {
                    seat,
                    entries,
                    claim,
                    slot: Some(slot),
                    action,
                },
                Err(_) => BotDone {
                    seat,
                    entries,
                    claim,
                    slot: None,
                    action: None,
                },
            };
            let _ = tx.send(done).await;
        });
    }

    async fn bot_done(&mut self, done: BotDone) {
        self.busy = false;
        self.bots[done.seat] = done.slot;
        if self.table.entries() != done.entries {
            // The table moved on while the bot thought: decide again.
            if done.claim
                && let Some(w) = &mut self.window
            {
                w.asked[done.seat] = false;
            }
            return;
        }
        let Some(action) = done.action else { return };
        let entry = Entry::Act {
            seat: done.seat,
            action,
            auto: true,
        };
        match self.commit(entry).await {
            Ok(()) => {
                self.metrics.actions.inc();
            }
            Err(Refusal { code, message, .. }) => {
                tracing::error!(
                    table = self.table.id(),
                    seat = done.seat,
                    "a bot's action was refused ({code:?}): {message}; playing a random legal action"
                );
                let fallback = self.table.game().and_then(|g| {
                    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(
                        crate::ids::seed(),
                    );
                    g.random_legal_action(done.seat, &mut rng)
                });
                if let Some(action) = fallback {
                    let _ = self
                        .commit(Entry::Act {
                            seat: done.seat,
                            action,
                            auto: true,
                        })
                        .await;
                }
            }
        }
    }

    fn next_deadline(&self) -> Option<Instant> {
        if self.table.status() != Status::Playing {
            return None;
        }
        let settings = &self.table.config().settings;
        let mut next: Option<Instant> = None;
        let mut at = |t: Instant| next = Some(next.map_or(t, |n| n.min(t)));
        if let Some((seat, _)) = self.turn
            && !self.automated(seat)
            && let Some(secs) = settings.turn_seconds
        {
            at(self.turn_started + self.secs(secs));
        }
        if let Some(w) = &self.window {
            at(w.opened + self.secs(settings.claim_seconds));
        }
        for since in self.away_since.iter().flatten() {
            let t = *since + self.secs(settings.reconnect_seconds);
            if t > Instant::now() {
                at(t);
            }
        }
        next
    }

    async fn on_timer(&mut self) {
        let Some((seat, key)) = self.turn else { return };
        let Some(secs) = self.table.config().settings.turn_seconds else {
            return;
        };
        if self.automated(seat) || self.turn_started.elapsed() < self.secs(secs) {
            return;
        }
        if self.commit(Entry::TimedOut { seat }).await.is_err() {
            return;
        }
        match self.table.config().settings.on_timeout {
            TimeoutPolicy::Bot => self.autoplay = Some((seat, key)),
            TimeoutPolicy::Forfeit => {
                let _ = self.commit(Entry::Forfeit { seat }).await;
            }
        }
    }
}

fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86_400)
}
