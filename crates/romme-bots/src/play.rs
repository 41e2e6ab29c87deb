//! Playing a match with one bot per seat: claims out of turn, then the seat
//! on turn, each bot seeing only its [`SeatState`](romme_engine::SeatState) and its filtered events.

use std::sync::OnceLock;
use std::time::Duration;

use romme_core::scoring::sheet::Standing;
use romme_engine::{Action, ActionError, Game, Phase};

use crate::Bot;

/// A bot did something the engine refused, or the match did not end.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlayError {
    /// A bot chose an illegal action.
    #[error("seat {seat} chose an illegal action {action:?}: {error}")]
    Illegal {
        /// The seat.
        seat: usize,
        /// What it chose.
        action: Box<Action>,
        /// The engine's reason.
        error: Box<ActionError>,
    },
    /// The game could not be set up (ruleset, seats).
    #[error("cannot start the game: {0}")]
    Setup(String),
    /// The seat on turn had no legal action (an engine defect).
    #[error("seat {0} has no legal action")]
    Stuck(usize),
    /// The bots needs more bots than seats, or fewer.
    #[error("{bots} bots for {seats} seats")]
    SeatCount {
        /// Bots given.
        bots: usize,
        /// Seats in the game.
        seats: usize,
    },
}

/// How a match went.
#[derive(Debug, Clone)]
pub struct MatchResult {
    /// Whether the match reached its end (false: stopped at the action
    /// limit).
    pub finished: bool,
    /// Games played (Five Crowns: rounds).
    pub games: usize,
    /// Actions applied (turn actions and claims).
    pub actions: usize,
    /// Final standings, best first.
    pub standings: Vec<Standing>,
    /// Time each seat's bot spent deciding, and how many decisions.
    pub think: Vec<(Duration, usize)>,
    /// Every single decision's time per seat (for medians and tails).
    pub decisions: Vec<Vec<Duration>>,
}

/// Play `game` to the end of its match (at most `max_actions` actions)
/// with `bots[seat]` for each seat.
pub fn play_match(
    game: &mut Game,
    bots: &mut [Box<dyn Bot>],
    max_actions: usize,
) -> Result<MatchResult, PlayError> {
    let seats = game.seats();
    if bots.len() != seats {
        return Err(PlayError::SeatCount {
            bots: bots.len(),
            seats,
        });
    }
    // (Room for a random four-seat `klassisch` match's decisions, about 55
    // a seat, so that the times are not copied as they grow.)
    let mut decisions: Vec<Vec<Duration>> = (0..seats).map(|_| Vec::with_capacity(64)).collect();
    let mut actions = 0;
    let mut seen = 0;
    // Only bots that observe are handed the events (a table of random
    // bots has none: asking each after every action was 1.5 % of random
    // self-play).
    let observing = bots.iter().any(|b| b.observes());
    let mut hand_on = |game: &Game, bots: &mut [Box<dyn Bot>]| {
        if observing {
            deliver(game, bots, &mut seen);
        }
    };
    // The deal's events.
    hand_on(game, bots);
    while game.phase() != Phase::MatchOver && actions < max_actions {
        // Out of turn: seats after the discarder may claim the card (only
        // while a claim window is open is anything legal out of turn).
        let claims_open = game.claims().is_some();
        for other in (0..seats).filter(|_| claims_open) {
            if Some(other) == game.turn() || game.legal_actions(other).is_empty() {
                continue;
            }
            let (choice, took) = claim(game, other, bots[other].as_mut());
            decisions[other].push(took);
            if let Some(action) = choice {
                apply(game, other, action)?;
                actions += 1;
                hand_on(game, bots);
            }
        }
        let Some(seat) = game.turn() else {
            break;
        };
        let (action, took) = act(game, seat, bots[seat].as_mut());
        decisions[seat].push(took);
        if let Err(e) = apply(game, seat, action) {
            // A bot's fallback on an empty list: say the engine is stuck.
            if game.legal_actions(seat).is_empty() {
                return Err(PlayError::Stuck(seat));
            }
            return Err(e);
        }
        actions += 1;
        hand_on(game, bots);
    }
    let think = decisions
        .iter()
        .map(|d| (d.iter().sum(), d.len()))
        .collect();
    Ok(MatchResult {
        finished: game.phase() == Phase::MatchOver,
        games: game.sheet().games().len(),
        actions,
        standings: game.sheet().standings(game.rules(), game.seed()),
        think,
        decisions,
    })
}

/// The action of the bot on turn at `seat` and the time it took to decide
/// (not counting the making of its input): from the seat's moves if that
/// is all it needs, else from the seat's state.
fn act(game: &Game, seat: usize, bot: &mut dyn Bot) -> (Action, Duration) {
    match bot.as_move_bot() {
        Some(b) => {
            let moves = game.moves(seat);
            timed(|| b.act_on(&moves))
        }
        None => {
            let state = game.seat_state(seat);
            timed(|| bot.act(&state))
        }
    }
}

/// The claim (or pass) of the bot at `seat`, as [`act`].
fn claim(game: &Game, seat: usize, bot: &mut dyn Bot) -> (Option<Action>, Duration) {
    match bot.as_move_bot() {
        Some(b) => {
            let moves = game.moves(seat);
            timed(|| b.claim_on(&moves))
        }
        None => {
            let state = game.seat_state(seat);
            timed(|| bot.claim(&state))
        }
    }
}

fn apply(game: &mut Game, seat: usize, action: Action) -> Result<(), PlayError> {
    game.apply_quietly(seat, action).map_err(|refused| {
        let (error, action) = *refused;
        PlayError::Illegal {
            seat,
            action: Box::new(action),
            error: Box::new(error),
        }
    })
}

/// Hand every bot the events since `seen`, filtered for its seat.
fn deliver(game: &Game, bots: &mut [Box<dyn Bot>], seen: &mut usize) {
    let new = &game.events()[*seen..];
    if new.is_empty() {
        return;
    }
    for (seat, bot) in bots.iter_mut().enumerate() {
        if !bot.observes() {
            continue;
        }
        let filtered: Vec<_> = new.iter().map(|e| e.for_viewer(Some(seat))).collect();
        bot.observe(&filtered);
    }
    *seen = game.events().len();
}

/// What `decide` returns and how long it took, read from the CPU's
/// time-stamp counter where it is usable (a fraction of the system
/// clock's cost per reading, which was 5-6 % of random self-play).
fn timed<T>(decide: impl FnOnce() -> T) -> (T, Duration) {
    static CLOCK: OnceLock<quanta::Clock> = OnceLock::new();
    let clock = CLOCK.get_or_init(quanta::Clock::new);
    let start = clock.raw();
    let out = decide();
    (out, clock.delta(start, clock.raw()))
}
