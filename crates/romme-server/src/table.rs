//! One table as a pure, deterministic state machine: seats, the match being
//! played, the numbered event log and the match score sheets.
//!
//! Everything that changes a table is an [`Entry`]; the server writes each
//! entry to the database before it is acknowledged, and a table is rebuilt
//! after a restart by applying its entries again — so the state *and* the
//! event version numbers come back exactly. [`TableState::apply`] either
//! applies an entry completely or refuses it and changes nothing.
//!
//! Secrets: the match seed lives only in the `Start` entry (never in an
//! event); game events leave through [`TableEvent::for_viewer`], which hides
//! other seats' cards.

use std::collections::VecDeque;

use romme_bots::BotSpec;
use romme_core::ruleset::Ruleset;
use romme_engine::{ActionError, Event, Game, Phase, View};
use serde::{Deserialize, Serialize};

use crate::protocol::{MAX_CHAT, NewTable};

/// Events held in memory for reconnecting clients; older ones are answered
/// with a snapshot.
pub const EVENTS_KEPT: usize = 2048;
/// Chat lines kept for snapshots.
const CHAT_KEPT: usize = 50;

/// A table's fixed settings: what the creator asked for, with the ruleset
/// resolved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableConfig {
    /// The settings as asked for.
    pub settings: NewTable,
    /// The resolved ruleset.
    pub rules: Ruleset,
    /// The player who created the table.
    pub creator: String,
}

/// Who sits in a seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Occupant {
    /// Nobody yet.
    Empty,
    /// A person.
    Human {
        /// Player id.
        player: String,
        /// Display name.
        name: String,
    },
    /// A computer player.
    Bot {
        /// Its level (`heuristic`, `expert:50ms`, …).
        level: String,
    },
}

/// One seat as everyone sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatPublic {
    /// Seat number.
    pub seat: usize,
    /// Who sits there.
    pub occupant: Occupant,
    /// A human seat with no connection (a bot may be playing for it).
    pub away: bool,
    /// Forfeited the running match.
    pub forfeited: bool,
}

/// Where a table stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Seats are being filled.
    Waiting,
    /// A match is running.
    Playing,
    /// The last match ended (a rematch may start).
    Finished,
}

impl Status {
    /// As stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Finished => "finished",
        }
    }
}

/// One seat's result in a finished match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Placing {
    /// Seat.
    pub seat: usize,
    /// Who sat there at the end.
    pub name: String,
    /// The player id, for humans.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// 1-based place (forfeits are last); 0 for no place (a solo patience
    /// that did not come out).
    pub place: usize,
    /// Penalty points (club: hand points).
    pub points: i64,
    /// Games won.
    pub games_won: u32,
    /// Forfeited.
    pub forfeited: bool,
}

/// A finished match on the table's score sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatchSummary {
    /// 1-based match number at this table.
    pub match_no: u32,
    /// Places, best first.
    pub placings: Vec<Placing>,
}

/// A chat line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChatLine {
    /// The writer's name.
    pub name: String,
    /// The writer's seat, if seated.
    pub seat: Option<usize>,
    /// The text.
    pub text: String,
}

/// The table as everyone sees it (no game state).
#[derive(Debug, Clone, Serialize)]
pub struct TableInfo {
    /// Id (also the invite code).
    pub id: String,
    /// Display name.
    pub name: String,
    /// The ruleset (every knob), so clients can show the rules.
    pub rules: Ruleset,
    /// Whether what a wild card in a laid meld stands for can matter
    /// ([`Ruleset::declarations_matter`]): only then does a client ask the
    /// player to declare a joker; elsewhere the engine reads the meld.
    pub declarations_matter: bool,
    /// Seats.
    pub seats: Vec<SeatPublic>,
    /// Status.
    pub status: Status,
    /// Matches started at this table.
    pub match_no: u32,
    /// Listed in the lobby.
    pub public: bool,
    /// Turn timer in seconds.
    pub turn_seconds: Option<u32>,
    /// Finished matches, oldest first.
    pub matches: Vec<MatchSummary>,
}

/// A lobby line.
#[derive(Debug, Clone, Serialize)]
pub struct LobbyEntry {
    /// Table id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Ruleset name.
    pub rules: String,
    /// Seats in all.
    pub seats: usize,
    /// Empty seats.
    pub free: usize,
    /// Status.
    pub status: Status,
}

/// Everything that changes a table, in the order it happened. Stored as
/// JSON, one row per entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "e", rename_all = "snake_case")]
pub enum Entry {
    /// A player took a seat.
    Sit {
        /// Seat.
        seat: usize,
        /// Player id.
        player: String,
        /// Name.
        name: String,
    },
    /// The seat's player left (a bot takes over during a match).
    Leave {
        /// Seat.
        seat: usize,
    },
    /// A bot was put into (or taken out of) an empty seat.
    SetBot {
        /// Seat.
        seat: usize,
        /// Level, or `None` to empty the seat.
        level: Option<String>,
    },
    /// A match starts with this seed (from the OS random source; never sent
    /// to clients while the match runs).
    Start {
        /// The match seed.
        seed: u64,
    },
    /// A game action of a seat.
    Act {
        /// Seat.
        seat: usize,
        /// The action.
        action: romme_engine::Action,
        /// Played by the server for the seat (bot seat, timeout, away).
        auto: bool,
    },
    /// A chat line.
    Chat {
        /// Seat of the writer, if seated.
        seat: Option<usize>,
        /// Name of the writer.
        name: String,
        /// Text.
        text: String,
    },
    /// A human seat's player connected or lost the connection.
    Presence {
        /// Seat.
        seat: usize,
        /// Connected now.
        connected: bool,
    },
    /// The seat's turn timer ran out.
    TimedOut {
        /// Seat.
        seat: usize,
    },
    /// The seat forfeits the running match.
    Forfeit {
        /// Seat.
        seat: usize,
    },
}

/// One numbered table event, as sent to clients.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TableEvent {
    /// A seat's occupant changed.
    Seat {
        /// The seat now.
        seat: SeatPublic,
    },
    /// A match started.
    MatchStarted {
        /// 1-based match number.
        match_no: u32,
    },
    /// A game event (filtered for the viewer).
    Game {
        /// The event.
        event: Event,
    },
    /// A chat line.
    Chat {
        /// The line.
        line: ChatLine,
    },
    /// A seat's turn timer ran out.
    TimedOut {
        /// Seat.
        seat: usize,
    },
    /// A match ended; its places.
    MatchOver {
        /// The summary.
        summary: MatchSummary,
    },
}

impl TableEvent {
    /// The event as `viewer` may see it (`None`: a spectator).
    pub fn for_viewer(&self, viewer: Option<usize>) -> TableEvent {
        match self {
            TableEvent::Game { event } => TableEvent::Game {
                event: event.for_viewer(viewer),
            },
            other => other.clone(),
        }
    }
}

/// Why an entry was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TableError {
    /// No such seat.
    #[error("seat {0} does not exist at this table")]
    NoSeat(usize),
    /// The seat is taken.
    #[error("seat {0} is taken")]
    SeatTaken(usize),
    /// The player already sits at this table.
    #[error("you already sit in seat {0}")]
    AlreadySeated(usize),
    /// Seats change only before a match.
    #[error("seats can only be changed before a match starts")]
    Running,
    /// No match is running.
    #[error("no match is running")]
    NotRunning,
    /// Seats are still empty.
    #[error("seat {0} is still empty")]
    EmptySeat(usize),
    /// Unknown bot level.
    #[error("{0}")]
    BadBot(String),
    /// The engine refused the action.
    #[error("{0}")]
    Illegal(ActionError),
    /// The match could not start.
    #[error("the match cannot start: {0}")]
    Setup(String),
    /// Chat text empty or too long.
    #[error("a chat line has 1 to {MAX_CHAT} characters")]
    BadChat,
    /// The seat is not a human's.
    #[error("seat {0} has no human player")]
    NotHuman(usize),
}

/// A bot level string as the server accepts it: any [`BotSpec`], expert
/// budgets capped at two seconds per move.
pub fn parse_bot(level: &str) -> Result<BotSpec, TableError> {
    let spec: BotSpec = level
        .parse()
        .map_err(|e: romme_bots::BotSpecError| TableError::BadBot(e.to_string()))?;
    match spec {
        BotSpec::Expert(romme_bots::Budget::Time(d)) if d.as_millis() > 2000 => Err(
            TableError::BadBot("an expert may think at most 2000 ms per move".into()),
        ),
        BotSpec::Expert(romme_bots::Budget::Iterations(n)) if n > 20_000 => Err(
            TableError::BadBot("an expert may run at most 20000 playouts per move".into()),
        ),
        _ => Ok(spec),
    }
}

/// A table.
#[derive(Debug, Clone, PartialEq)]
pub struct TableState {
    id: String,
    config: TableConfig,
    seats: Vec<Occupant>,
    away: Vec<bool>,
    forfeited: Vec<bool>,
    game: Option<Game>,
    match_no: u32,
    status: Status,
    events: VecDeque<TableEvent>,
    /// Version of `events[0]`.
    first_version: u64,
    seqs: Vec<u64>,
    chat: VecDeque<ChatLine>,
    matches: Vec<MatchSummary>,
    entries: u64,
}

impl TableState {
    /// A new table with its configured bots seated.
    pub fn new(id: String, config: TableConfig) -> TableState {
        let n = config.settings.seats;
        let seats = (0..n)
            .map(|s| match config.settings.bots.get(s) {
                Some(Some(level)) => Occupant::Bot {
                    level: level.clone(),
                },
                _ => Occupant::Empty,
            })
            .collect();
        TableState {
            id,
            config,
            seats,
            away: vec![false; n],
            forfeited: vec![false; n],
            game: None,
            match_no: 0,
            status: Status::Waiting,
            events: VecDeque::new(),
            first_version: 1,
            seqs: vec![0; n],
            chat: VecDeque::new(),
            matches: Vec::new(),
            entries: 0,
        }
    }

    /// Check new-table settings: ruleset, seats, bots. Returns the
    /// configuration to store.
    pub fn configure(
        settings: NewTable,
        rules: Ruleset,
        creator: String,
    ) -> Result<TableConfig, TableError> {
        Game::new(rules.clone(), settings.seats, 1)
            .map_err(|e| TableError::Setup(e.to_string()))?;
        if settings.bots.len() > settings.seats {
            return Err(TableError::BadBot(format!(
                "{} bots for {} seats",
                settings.bots.len(),
                settings.seats
            )));
        }
        for level in settings.bots.iter().flatten() {
            parse_bot(level)?;
        }
        if let Some(t) = settings.turn_seconds
            && !(5..=3600).contains(&t)
        {
            return Err(TableError::Setup(
                "the turn timer is 5 to 3600 seconds".into(),
            ));
        }
        Ok(TableConfig {
            settings,
            rules,
            creator,
        })
    }

    /// Table id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Its configuration.
    pub fn config(&self) -> &TableConfig {
        &self.config
    }

    /// The running (or last) match.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Status.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Entries applied so far (the next entry's number is this + 1).
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// The current version (0 before the first event).
    pub fn version(&self) -> u64 {
        self.first_version + self.events.len() as u64 - 1
    }

    /// Occupants.
    pub fn occupants(&self) -> &[Occupant] {
        &self.seats
    }

    /// Whether the seat's human is away.
    pub fn is_away(&self, seat: usize) -> bool {
        self.away.get(seat).copied().unwrap_or(false)
    }

    /// Whether the seat forfeited the running match.
    pub fn is_forfeited(&self, seat: usize) -> bool {
        self.forfeited.get(seat).copied().unwrap_or(false)
    }

    /// The seat `player` sits in.
    pub fn seat_of(&self, player: &str) -> Option<usize> {
        self.seats
            .iter()
            .position(|o| matches!(o, Occupant::Human { player: p, .. } if p == player))
    }

    /// The seat's next action number.
    pub fn next_seq(&self, seat: usize) -> u64 {
        self.seqs.get(seat).copied().unwrap_or(0) + 1
    }

    /// Matches started at this table.
    pub fn match_no(&self) -> u32 {
        self.match_no
    }

    /// Finished matches.
    pub fn matches(&self) -> &[MatchSummary] {
        &self.matches
    }

    /// Events after `version`, filtered for `viewer`, if they are still
    /// held (`None`: too old, send a snapshot).
    pub fn events_since(
        &self,
        version: u64,
        viewer: Option<usize>,
    ) -> Option<Vec<(u64, TableEvent)>> {
        if version > self.version() || version + 1 < self.first_version {
            return None;
        }
        let skip = (version + 1 - self.first_version) as usize;
        Some(
            self.events
                .iter()
                .enumerate()
                .skip(skip)
                .map(|(i, e)| (self.first_version + i as u64, e.for_viewer(viewer)))
                .collect(),
        )
    }

    /// The table as everyone sees it.
    pub fn info(&self) -> TableInfo {
        TableInfo {
            id: self.id.clone(),
            name: self.name(),
            rules: self.config.rules.clone(),
            declarations_matter: self.config.rules.declarations_matter(),
            seats: (0..self.seats.len()).map(|s| self.seat_public(s)).collect(),
            status: self.status,
            match_no: self.match_no,
            public: self.config.settings.public,
            turn_seconds: self.config.settings.turn_seconds,
            matches: self.matches.clone(),
        }
    }

    fn name(&self) -> String {
        self.config
            .settings
            .name
            .clone()
            .unwrap_or_else(|| self.config.rules.info.title_de.clone())
    }

    /// The lobby line.
    pub fn lobby_entry(&self) -> LobbyEntry {
        LobbyEntry {
            id: self.id.clone(),
            name: self.name(),
            rules: self.config.rules.name.clone(),
            seats: self.seats.len(),
            free: self.seats.iter().filter(|o| **o == Occupant::Empty).count(),
            status: self.status,
        }
    }

    /// The game as `viewer` sees it.
    pub fn view(&self, viewer: Option<usize>) -> Option<View> {
        self.game.as_ref().map(|g| g.view(viewer))
    }

    /// Recent chat.
    pub fn chat(&self) -> Vec<ChatLine> {
        self.chat.iter().cloned().collect()
    }

    fn seat_public(&self, seat: usize) -> SeatPublic {
        SeatPublic {
            seat,
            occupant: self.seats[seat].clone(),
            away: self.away[seat],
            forfeited: self.forfeited[seat],
        }
    }

    fn seat(&self, seat: usize) -> Result<(), TableError> {
        if seat < self.seats.len() {
            Ok(())
        } else {
            Err(TableError::NoSeat(seat))
        }
    }

    /// Apply one entry: all of it, or nothing (the error says why).
    /// Returns the number of new events.
    pub fn apply(&mut self, entry: &Entry) -> Result<usize, TableError> {
        let before = self.events.len();
        match entry {
            Entry::Sit { seat, player, name } => {
                self.seat(*seat)?;
                if self.status == Status::Playing {
                    return Err(TableError::Running);
                }
                if let Some(s) = self.seat_of(player) {
                    return Err(TableError::AlreadySeated(s));
                }
                if self.seats[*seat] != Occupant::Empty {
                    return Err(TableError::SeatTaken(*seat));
                }
                self.seats[*seat] = Occupant::Human {
                    player: player.clone(),
                    name: name.clone(),
                };
                self.away[*seat] = false;
                self.push(TableEvent::Seat {
                    seat: self.seat_public(*seat),
                });
            }
            Entry::Leave { seat } => {
                self.seat(*seat)?;
                if !matches!(self.seats[*seat], Occupant::Human { .. }) {
                    return Err(TableError::NotHuman(*seat));
                }
                self.seats[*seat] = if self.status == Status::Playing {
                    Occupant::Bot {
                        level: "heuristic".into(),
                    }
                } else {
                    Occupant::Empty
                };
                self.away[*seat] = false;
                self.push(TableEvent::Seat {
                    seat: self.seat_public(*seat),
                });
            }
            Entry::SetBot { seat, level } => {
                self.seat(*seat)?;
                if self.status == Status::Playing {
                    return Err(TableError::Running);
                }
                if matches!(self.seats[*seat], Occupant::Human { .. }) {
                    return Err(TableError::SeatTaken(*seat));
                }
                self.seats[*seat] = match level {
                    Some(l) => {
                        parse_bot(l)?;
                        Occupant::Bot { level: l.clone() }
                    }
                    None => Occupant::Empty,
                };
                self.push(TableEvent::Seat {
                    seat: self.seat_public(*seat),
                });
            }
            Entry::Start { seed } => {
                if self.status == Status::Playing {
                    return Err(TableError::Running);
                }
                if let Some(s) = self.seats.iter().position(|o| *o == Occupant::Empty) {
                    return Err(TableError::EmptySeat(s));
                }
                let game = Game::new(self.config.rules.clone(), self.seats.len(), *seed)
                    .map_err(|e| TableError::Setup(e.to_string()))?;
                self.match_no += 1;
                self.status = Status::Playing;
                self.forfeited = vec![false; self.seats.len()];
                self.push(TableEvent::MatchStarted {
                    match_no: self.match_no,
                });
                for e in game.events() {
                    self.push(TableEvent::Game { event: e.clone() });
                }
                self.game = Some(game);
            }
            Entry::Act { seat, action, .. } => {
                self.seat(*seat)?;
                let game = match (&mut self.game, self.status) {
                    (Some(g), Status::Playing) => g,
                    _ => return Err(TableError::NotRunning),
                };
                let events = game
                    .apply(*seat, action.clone())
                    .map_err(TableError::Illegal)?;
                self.seqs[*seat] += 1;
                let over = game.phase() == Phase::MatchOver;
                for e in events {
                    self.push(TableEvent::Game { event: e });
                }
                if over {
                    self.finish_match();
                }
            }
            Entry::Chat { seat, name, text } => {
                let len = text.chars().count();
                if len == 0 || len > MAX_CHAT {
                    return Err(TableError::BadChat);
                }
                let line = ChatLine {
                    name: name.clone(),
                    seat: *seat,
                    text: text.clone(),
                };
                self.chat.push_back(line.clone());
                if self.chat.len() > CHAT_KEPT {
                    self.chat.pop_front();
                }
                self.push(TableEvent::Chat { line });
            }
            Entry::Presence { seat, connected } => {
                self.seat(*seat)?;
                if !matches!(self.seats[*seat], Occupant::Human { .. }) {
                    return Err(TableError::NotHuman(*seat));
                }
                self.away[*seat] = !connected;
                self.push(TableEvent::Seat {
                    seat: self.seat_public(*seat),
                });
            }
            Entry::TimedOut { seat } => {
                self.seat(*seat)?;
                if self.status != Status::Playing {
                    return Err(TableError::NotRunning);
                }
                self.push(TableEvent::TimedOut { seat: *seat });
            }
            Entry::Forfeit { seat } => {
                self.seat(*seat)?;
                if self.status != Status::Playing {
                    return Err(TableError::NotRunning);
                }
                self.forfeited[*seat] = true;
                self.push(TableEvent::Seat {
                    seat: self.seat_public(*seat),
                });
            }
        }
        self.entries += 1;
        Ok(self.events.len() - before)
    }

    fn finish_match(&mut self) {
        let Some(game) = &self.game else { return };
        let standings = game.sheet().standings(game.rules(), game.seed());
        let totals = game.sheet().totals();
        let mut placings: Vec<Placing> = standings
            .iter()
            .map(|st| {
                let (name, player) = match &self.seats[st.seat] {
                    Occupant::Human { player, name } => (name.clone(), Some(player.clone())),
                    // As the web client names it: seats from 1.
                    Occupant::Bot { level } => (format!("Bot {} ({level})", st.seat + 1), None),
                    Occupant::Empty => (String::new(), None),
                };
                Placing {
                    seat: st.seat,
                    name,
                    player,
                    place: st.place,
                    points: totals.get(st.seat).map_or(0, |t| t.points),
                    games_won: totals.get(st.seat).map_or(0, |t| t.games_won),
                    forfeited: self.forfeited[st.seat],
                }
            })
            .collect();
        // Forfeits go to the bottom; the others keep their order, and a
        // place counts only the non-forfeited seats above.
        let original: Vec<usize> = placings.iter().map(|p| p.place).collect();
        let kept: Vec<usize> = placings
            .iter()
            .filter(|p| !p.forfeited)
            .map(|p| p.place)
            .collect();
        for (p, orig) in placings.iter_mut().zip(original) {
            p.place = if orig == 0 {
                // No place: a solo patience that did not come out.
                0
            } else if p.forfeited {
                kept.len() + 1
            } else {
                1 + kept.iter().filter(|&&o| o < orig).count()
            };
        }
        placings.sort_by_key(|p| (p.forfeited, p.place));
        let summary = MatchSummary {
            match_no: self.match_no,
            placings,
        };
        self.matches.push(summary.clone());
        self.status = Status::Finished;
        self.push(TableEvent::MatchOver { summary });
    }

    fn push(&mut self, event: TableEvent) {
        self.events.push_back(event);
        if self.events.len() > EVENTS_KEPT {
            self.events.pop_front();
            self.first_version += 1;
        }
    }

    /// Seats that have a decision to make now: the seat on turn, and seats
    /// that may buy or knock for the card just discarded.
    pub fn to_act(&self) -> (Option<usize>, Vec<usize>) {
        let Some(game) = self
            .game
            .as_ref()
            .filter(|_| self.status == Status::Playing)
        else {
            return (None, Vec::new());
        };
        let turn = game.turn();
        let claims = if game.claims().is_some() {
            (0..self.seats.len())
                .filter(|&s| Some(s) != turn && !game.legal_actions(s).is_empty())
                .collect()
        } else {
            Vec::new()
        };
        (turn, claims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{RulesChoice, TimeoutPolicy};
    use romme_engine::{Action, DrawSource};

    fn config(seats: usize, bots: Vec<Option<String>>) -> TableConfig {
        config_of("offen", seats, bots)
    }

    fn config_of(preset: &str, seats: usize, bots: Vec<Option<String>>) -> TableConfig {
        let rules = romme_core::ruleset::presets::load(preset)
            .expect("preset")
            .expect("loads");
        let settings = NewTable {
            rules: RulesChoice::Preset {
                preset: preset.into(),
            },
            seats,
            public: true,
            name: None,
            turn_seconds: None,
            on_timeout: TimeoutPolicy::Bot,
            reconnect_seconds: 60,
            claim_seconds: 5,
            bot_delay_ms: 0,
            bots,
        };
        TableState::configure(settings, rules, "p0".into()).expect("valid")
    }

    fn sit(t: &mut TableState, seat: usize, who: &str) -> Result<usize, TableError> {
        t.apply(&Entry::Sit {
            seat,
            player: who.into(),
            name: who.into(),
        })
    }

    #[test]
    fn seats_fill_then_the_match_starts_and_refusals_change_nothing() {
        let mut t = TableState::new("t".into(), config(2, vec![None, Some("random".into())]));
        assert_eq!(t.version(), 0);
        assert_eq!(
            t.apply(&Entry::Start { seed: 1 }),
            Err(TableError::EmptySeat(0))
        );
        sit(&mut t, 0, "ann").expect("sits");
        assert_eq!(sit(&mut t, 0, "bob"), Err(TableError::SeatTaken(0)));
        assert_eq!(sit(&mut t, 1, "ann"), Err(TableError::AlreadySeated(0)));
        assert_eq!(sit(&mut t, 1, "bob"), Err(TableError::SeatTaken(1)));
        assert_eq!(sit(&mut t, 5, "bob"), Err(TableError::NoSeat(5)));
        assert_eq!(t.version(), 1);
        assert_eq!(t.entries(), 1);
        t.apply(&Entry::Start { seed: 7 }).expect("starts");
        assert_eq!(t.status(), Status::Playing);
        assert_eq!(sit(&mut t, 1, "bob"), Err(TableError::Running));
        let v = t.version();
        // Out of turn: refused, nothing changes.
        let turn = t.game().and_then(Game::turn).expect("turn");
        let other = 1 - turn;
        let err = t.apply(&Entry::Act {
            seat: other,
            action: Action::Draw {
                from: DrawSource::Stock,
            },
            auto: false,
        });
        assert!(matches!(err, Err(TableError::Illegal(_))), "{err:?}");
        assert_eq!(t.version(), v);
        assert_eq!(t.next_seq(other), 1);
        t.apply(&Entry::Act {
            seat: turn,
            action: Action::Draw {
                from: DrawSource::Stock,
            },
            auto: false,
        })
        .expect("draws");
        assert_eq!(t.next_seq(turn), 2);
        assert!(t.version() > v);
    }

    #[test]
    fn replaying_the_entries_gives_the_same_versions_and_views() {
        let mut t = TableState::new("t".into(), config(2, vec![]));
        let mut log = vec![
            Entry::Sit {
                seat: 0,
                player: "a".into(),
                name: "A".into(),
            },
            Entry::SetBot {
                seat: 1,
                level: Some("heuristic".into()),
            },
            Entry::Start { seed: 99 },
        ];
        for e in &log {
            t.apply(e).expect("applies");
        }
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
        for _ in 0..40 {
            let (turn, _) = t.to_act();
            let Some(seat) = turn else { break };
            let game = t.game().expect("game");
            let action = game
                .seat_state(seat)
                .random_legal_action(&mut rng)
                .expect("legal");
            let e = Entry::Act {
                seat,
                action,
                auto: true,
            };
            t.apply(&e).expect("legal");
            log.push(e);
        }
        let mut again = TableState::new("t".into(), t.config().clone());
        for e in &log {
            again.apply(e).expect("replays");
        }
        assert_eq!(again.version(), t.version());
        assert_eq!(again.view(Some(0)), t.view(Some(0)));
        assert_eq!(again.events_since(3, Some(1)), t.events_since(3, Some(1)));
    }

    #[test]
    fn events_for_a_seat_never_show_another_seats_dealt_cards() {
        let mut t = TableState::new(
            "t".into(),
            config(2, vec![Some("random".into()), Some("random".into())]),
        );
        t.apply(&Entry::Start { seed: 5 }).expect("starts");
        let events = t.events_since(0, Some(0)).expect("held");
        for (_, e) in events {
            if let TableEvent::Game {
                event: Event::Dealt { seat, cards, .. },
            } = e
            {
                assert_eq!(cards.is_some(), seat == 0);
            }
        }
        let spectator = t.events_since(0, None).expect("held");
        assert!(spectator.iter().all(|(_, e)| !matches!(
            e,
            TableEvent::Game {
                event: Event::Dealt { cards: Some(_), .. }
            }
        )));
    }

    /// Plays the table to its end with heuristic bots acting for every seat.
    fn play_out(t: &mut TableState) {
        let seats = t.config().settings.seats;
        let mut bots: Vec<Box<dyn romme_bots::Bot>> = (0..seats)
            .map(|s| romme_bots::BotSpec::Heuristic.build(s as u64))
            .collect();
        for _ in 0..5000 {
            if t.status() != Status::Playing {
                break;
            }
            let (turn, _) = t.to_act();
            let Some(seat) = turn else { break };
            let state = t.game().expect("game").seat_state(seat);
            let action = bots[seat].act(&state);
            t.apply(&Entry::Act {
                seat,
                action,
                auto: true,
            })
            .expect("legal");
        }
        assert_eq!(t.status(), Status::Finished);
    }

    #[test]
    fn the_info_says_where_a_wild_cards_declaration_matters() {
        let open = TableState::new("t".into(), config(2, vec![None, None]));
        assert!(open.info().declarations_matter);
        let crowns = TableState::new("t".into(), config_of("koenigs", 2, vec![None, None]));
        assert!(!crowns.info().declarations_matter);
    }

    /// A solo patience that did not come out is lost: its player has no
    /// place on the score sheet (0), not "place 1 of 1".
    #[test]
    fn a_lost_patience_has_no_place() {
        let (mut lost, mut won) = (0, 0);
        for seed in 1..=4 {
            let mut t = TableState::new("t".into(), config_of("koenigs-solo", 1, vec![None]));
            sit(&mut t, 0, "ann").expect("sits");
            t.apply(&Entry::Start { seed }).expect("starts");
            play_out(&mut t);
            let came_out = t.game().expect("game").sheet().games()[0].players[0].won;
            let place = t.matches().last().expect("summary").placings[0].place;
            assert_eq!(place, usize::from(came_out), "seed {seed}");
            if came_out {
                won += 1;
            } else {
                lost += 1;
            }
        }
        assert!(
            lost > 0,
            "no patience was lost: nothing was checked ({won} won)"
        );
    }

    #[test]
    fn forfeits_are_ranked_last() {
        let mut t = TableState::new("t".into(), config(2, vec![None, Some("heuristic".into())]));
        sit(&mut t, 0, "a").expect("sits");
        t.apply(&Entry::Start { seed: 11 }).expect("starts");
        t.apply(&Entry::Forfeit { seat: 0 }).expect("forfeits");
        play_out(&mut t);
        let last = t.matches().last().expect("summary");
        assert_eq!(last.placings.last().map(|p| p.seat), Some(0));
        assert_eq!(last.placings[0].place, 1);
        // The bot is named with its seat, counted from 1 as the client does.
        assert_eq!(last.placings[0].name, "Bot 2 (heuristic)");
        assert!(last.placings[1].forfeited);
        assert_eq!(last.placings[1].place, 2);
    }

    /// One entry of a random table's life, drawn by `rng`: mostly a legal
    /// action of a seat that may act, otherwise anything a client or the
    /// server could ask for — seats out of range, actions out of turn or of
    /// cards nobody holds, sitting down during a match, empty chat lines.
    fn random_entry(t: &TableState, rng: &mut rand_chacha::ChaCha8Rng) -> Entry {
        use rand::RngExt;
        let seats = t.config().settings.seats;
        let seat = rng.random_range(0..=seats);
        let (turn, claims) = t.to_act();
        let actor = turn.or_else(|| claims.first().copied());
        match rng.random_range(0..24) {
            0..=13 => {
                let Some(s) = actor else {
                    // No match running: fill an empty seat, then start.
                    let empty = t.occupants().iter().position(|o| *o == Occupant::Empty);
                    return match empty {
                        Some(e) if rng.random_bool(0.5) => Entry::Sit {
                            seat: e,
                            player: format!("p{e}"),
                            name: "N".into(),
                        },
                        Some(e) => Entry::SetBot {
                            seat: e,
                            level: Some("random".into()),
                        },
                        None => Entry::Start { seed: rng.random() },
                    };
                };
                let game = t.game().expect("a seat acts, so a game runs");
                let action = game
                    .seat_state(s)
                    .random_legal_action(rng)
                    .unwrap_or(Action::EndTurn);
                // Now and then by another seat, out of turn.
                let by = if rng.random_bool(0.2) { seat } else { s };
                Entry::Act {
                    seat: by,
                    action,
                    auto: rng.random(),
                }
            }
            14 => Entry::Act {
                seat,
                action: Action::Discard {
                    card: romme_core::Card::from_id(rng.random_range(0..120)).kind(),
                },
                auto: false,
            },
            15 => Entry::Act {
                seat,
                action: Action::LayOff {
                    meld: rng.random_range(0..12),
                    cards: Vec::new(),
                },
                auto: false,
            },
            16 => Entry::Act {
                seat,
                action: Action::Draw {
                    from: DrawSource::Pile(rng.random_range(0..4)),
                },
                auto: false,
            },
            17 => Entry::Sit {
                seat,
                player: format!("p{}", rng.random_range(0..3)),
                name: "N".into(),
            },
            18 => Entry::Leave { seat },
            19 => Entry::SetBot {
                seat,
                level: match rng.random_range(0..3) {
                    0 => None,
                    1 => Some("random".into()),
                    _ => Some("grandmaster".into()),
                },
            },
            20 => Entry::Start { seed: rng.random() },
            21 => Entry::Chat {
                seat: Some(seat),
                name: "N".into(),
                text: "x".repeat(rng.random_range(0..3) * MAX_CHAT / 2),
            },
            22 => Entry::Presence {
                seat,
                connected: rng.random(),
            },
            _ => {
                if rng.random_bool(0.5) {
                    Entry::TimedOut { seat }
                } else {
                    Entry::Forfeit { seat }
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

        /// Whatever is asked of a table, an entry is applied whole or
        /// refused with nothing changed, and the accepted entries, stored as
        /// JSON and applied again to a new table, give the same table (what
        /// a restart does).
        #[test]
        fn refused_entries_change_nothing_and_the_log_rebuilds_the_table(
            seed in proptest::prelude::any::<u64>(),
            preset in 0usize..5,
        ) {
            use rand::SeedableRng;
            let (name, seats) = [
                ("klassisch", 3),
                ("offen", 2),
                ("raeuber", 3),
                ("wiener", 3),
                ("koenigs-solo", 1),
            ][preset];
            let config = config_of(name, seats, vec![]);
            let mut t = TableState::new("t".into(), config.clone());
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut log = Vec::new();
            let (mut accepted, mut refused) = (0, 0);
            for _ in 0..200 {
                let entry = random_entry(&t, &mut rng);
                let before = t.clone();
                match t.apply(&entry) {
                    Ok(_) => {
                        accepted += 1;
                        log.push(entry);
                    }
                    Err(e) => {
                        refused += 1;
                        proptest::prop_assert!(t == before, "{entry:?} refused ({e}) but changed the table");
                    }
                }
            }
            proptest::prop_assert!(accepted > 0 && refused > 0, "{accepted} accepted, {refused} refused");
            let mut again = TableState::new("t".into(), config);
            for e in &log {
                // As the database keeps it: JSON text.
                let stored = serde_json::to_string(e).expect("serialises");
                let back: Entry = serde_json::from_str(&stored).expect("reads back");
                proptest::prop_assert!(again.apply(&back).is_ok(), "{stored} does not replay");
            }
            proptest::prop_assert!(again == t, "the log does not rebuild the table");
        }
    }
}
