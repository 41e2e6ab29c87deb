//! The game state machine: a whole match from the first deal to the final
//! standings. [`Game`] holds the secret state (every hand, the stock order);
//! [`Game::apply`] is the only way to change it and leaves it untouched when
//! it refuses an action; [`Game::view`] is what one seat may know.
//!
//! Readings (where the texts leave room):
//! * Seat 0 deals the first game; the deal passes to the left (seat + 1).
//!   The player left of the dealer begins. With more seats than
//!   `players.active_per_game` the dealer sits the game out (`004` 2).
//! * Each game's shuffle comes from the match seed and the game number, so a
//!   record (ruleset, seats, seed, actions) replays exactly.
//! * `stock.when_empty = "end-game"` (`004` 5): the game ends when a turn
//!   would begin with an empty stock. With `"reshuffle"` the discard pile
//!   without its top card is shuffled into a new stock when a player draws
//!   from an empty stock; if there is nothing to reshuffle the game ends.
//! * An opening is one [`Action::Meld`]: the melds (and lay-offs, where they
//!   count) of that action together must reach the threshold. Later melds
//!   of the same turn need no minimum.
//! * A card that must be melded at once — taken from the discard pile under
//!   `discard_take = "meld-at-once"`, or a joker freed under
//!   `freed_must_be_melded` — goes into the very next meld or lay-off, and
//!   the discard or the exchange is only allowed when that is possible.
//! * When jokers may not be discarded, a play may not leave only jokers in
//!   the hand; a hand of jokers only (after drawing a joker) may discard one.
//! * A Hand-Rommé is going out in a turn that began before the player's
//!   opening; it is "with lay-offs" when the player laid off on another
//!   seat's meld or exchanged a joker in that turn.

use std::sync::Arc;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use romme_core::meld::{Declaration, MeldChecker, MeldError, MeldKind, card_values};
use romme_core::notation::format_cards;
use romme_core::opening::{self, OpeningAttempt};
use romme_core::ruleset::{
    DiscardTake, FinalDiscard, HandSize, JokerExchange, LayOff, LayOffTarget, Limit, MatchEnd,
    Rearrange, Ruleset, SetSuits, StockExhausted,
};
use romme_core::scoring::sheet::{MatchSheet, MatchStatus};
use romme_core::scoring::{
    GameResult, GameScore, HandRommeKind, PlayerResult, PlayerScore, score_game,
};
use romme_core::{Card, CardKind, Face, MeldCard};
use serde::{Deserialize, Serialize};

use crate::action::{Action, DrawSource, LayOffPart};
use crate::error::{ActionError, NewGameError};
use crate::event::{EndReason, Event, TableMeld};

/// Where the match stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// The seat on turn must draw.
    Draw,
    /// The seat on turn has drawn: meld, lay off, exchange, then discard.
    Play,
    /// The match is over.
    MatchOver,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::Draw => "the seat on turn must draw",
            Phase::Play => "the seat on turn may meld, lay off and then discard",
            Phase::MatchOver => "the match is over",
        })
    }
}

/// An explicit first deal (for tests, puzzles and the `romme engine`
/// driver): the cards named here go where they are named; every other card
/// of the deck is shuffled below the named stock cards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deal {
    /// Hands by seat (a seat sitting out gets an empty list).
    pub hands: Vec<Vec<CardKind>>,
    /// The turned-up card starting the discard pile; `None`: the stock's
    /// top card is turned up as usual.
    #[serde(default)]
    pub discard: Option<CardKind>,
    /// The next cards of the stock, top first.
    #[serde(default)]
    pub stock: Vec<CardKind>,
}

/// A meld on the table with its physical cards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Meld {
    pub owner: usize,
    pub kind: MeldKind,
    /// Physical cards in meld order with the face a wild card stands for.
    pub cards: Vec<(Card, Option<Face>)>,
}

impl Meld {
    pub(crate) fn meld_cards(&self) -> Vec<MeldCard> {
        self.cards
            .iter()
            .map(|&(c, f)| MeldCard {
                card: c.kind(),
                stands_for: f,
            })
            .collect()
    }

    pub(crate) fn public(&self) -> TableMeld {
        TableMeld {
            owner: self.owner,
            cards: self.meld_cards(),
        }
    }
}

/// What the seat on turn has done so far in this turn.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct TurnState {
    /// The card taken from the discard pile, while it must still be melded.
    pub taken: Option<Card>,
    /// The card taken from the discard pile this turn (public).
    pub took: Option<Card>,
    /// Jokers freed by exchange that must still be melded.
    pub freed: Vec<Card>,
    /// A joker was exchanged this turn.
    pub exchanged: bool,
    /// Laid off on another seat's meld this turn.
    pub laid_off_on_others: bool,
    /// The seat had opened when the turn began.
    pub opened_before: bool,
}

/// A whole match of one ruleset: the single source of truth.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    pub(crate) rules: Arc<Ruleset>,
    pub(crate) seats: usize,
    pub(crate) seed: u64,
    pub(crate) sheet: MatchSheet,
    /// Game number, 1-based.
    pub(crate) game_no: u32,
    pub(crate) dealer: usize,
    /// Seats playing this game, in turn order.
    pub(crate) players: Vec<usize>,
    pub(crate) hands: Vec<Vec<Card>>,
    /// Top = last.
    pub(crate) stock: Vec<Card>,
    /// Top = last.
    pub(crate) discard: Vec<Card>,
    pub(crate) table: Vec<Meld>,
    pub(crate) opened: Vec<bool>,
    pub(crate) first_to_meld: Option<usize>,
    pub(crate) turn: usize,
    pub(crate) phase: Phase,
    pub(crate) ts: TurnState,
    /// Reshuffles in this game (for their seeds).
    pub(crate) reshuffles: u32,
    pub(crate) history: Vec<Event>,
    pub(crate) log: Vec<(usize, Action)>,
    /// The explicit first deal, if any (kept for records).
    pub(crate) fixed: Option<Deal>,
}

/// Seed of a game's shuffle (or of its `k`-th reshuffle) from the match seed.
fn derived_seed(seed: u64, game: u32, reshuffle: u32) -> u64 {
    // SplitMix64 over the three numbers.
    let mut z = seed
        ^ (u64::from(game)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (u64::from(reshuffle)).wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Rulesets and knobs this version plays; the rest are refused clearly.
fn unsupported(rules: &Ruleset) -> Option<String> {
    let r = rules;
    let what = if r.buying.enabled {
        "buying (\"Kaufen\")"
    } else if r.knocking.enabled {
        "knocking (\"Klopfen\")"
    } else if r.concealed.enabled {
        "concealed play (melds kept in the hand)"
    } else if !r.turn.discard_pile {
        "play without a discard pile"
    } else if r.stock.piles > 1 {
        "a stock split into several piles"
    } else if r.going_out.last_turn_for_others {
        "a last turn for every other player"
    } else if r.deal.solo_patience {
        "the solo patience"
    } else if r.deal.hand_size == HandSize::RoundPlusTwo || r.melds.wilds.round_wild {
        "Five Crowns rounds"
    } else if r.turn.rearrange != Rearrange::None {
        "changing the table (rearranging or robbing)"
    } else if r.match_rules.end == MatchEnd::Elimination {
        "matches in which players are eliminated"
    } else {
        return None;
    };
    Some(format!("{what} (ruleset {})", r.name))
}

impl Game {
    /// A new match: `seats` players, the shuffle from `seed`. The first game
    /// is dealt at once; [`Game::events`] holds its start.
    pub fn new(rules: Ruleset, seats: usize, seed: u64) -> Result<Game, NewGameError> {
        Game::start(rules, seats, seed, None)
    }

    /// A new match; the first game dealt as `fixed` says, if given.
    fn start(
        rules: Ruleset,
        seats: usize,
        seed: u64,
        fixed: Option<Deal>,
    ) -> Result<Game, NewGameError> {
        let p = &rules.players;
        if seats < usize::from(p.min) || seats > usize::from(p.max) {
            return Err(NewGameError::Seats {
                seats,
                min: p.min,
                max: p.max,
            });
        }
        if let Some(what) = unsupported(&rules) {
            return Err(NewGameError::Unsupported(what));
        }
        MeldChecker::new(&rules, None)?;
        let mut game = Game {
            rules: Arc::new(rules),
            seats,
            seed,
            sheet: MatchSheet::new(seats),
            game_no: 0,
            dealer: seats - 1,
            players: Vec::new(),
            hands: vec![Vec::new(); seats],
            stock: Vec::new(),
            discard: Vec::new(),
            table: Vec::new(),
            opened: vec![false; seats],
            first_to_meld: None,
            turn: 0,
            phase: Phase::Draw,
            ts: TurnState::default(),
            reshuffles: 0,
            history: Vec::new(),
            log: Vec::new(),
            fixed,
        };
        let mut events = Vec::new();
        game.deal(&mut events)?;
        game.history = events;
        Ok(game)
    }

    /// A new match whose first game is dealt as `deal` says.
    pub fn with_deal(
        rules: Ruleset,
        seats: usize,
        seed: u64,
        deal: Deal,
    ) -> Result<Game, NewGameError> {
        Game::start(rules, seats, seed, Some(deal))
    }

    /// The explicit first deal, if the match was created with one.
    pub fn fixed_deal(&self) -> Option<&Deal> {
        self.fixed.as_ref()
    }

    /// The ruleset.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// Number of seats.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// The match seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Where the match stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat on turn (`None` once the match is over).
    pub fn turn(&self) -> Option<usize> {
        (self.phase != Phase::MatchOver).then_some(self.turn)
    }

    /// The current game number (1-based).
    pub fn game_number(&self) -> u32 {
        self.game_no
    }

    /// The match score sheet.
    pub fn sheet(&self) -> &MatchSheet {
        &self.sheet
    }

    /// Every event so far (with secrets: filter with [`Event::for_viewer`]).
    pub fn events(&self) -> &[Event] {
        &self.history
    }

    /// Every accepted action so far, with its seat.
    pub fn actions(&self) -> &[(usize, Action)] {
        &self.log
    }

    /// Every physical card, wherever it is (hands, stock, discard pile,
    /// table): for conservation checks.
    pub fn all_cards(&self) -> Vec<Card> {
        let mut out: Vec<Card> = self.hands.iter().flatten().copied().collect();
        out.extend(self.stock.iter().copied());
        out.extend(self.discard.iter().copied());
        out.extend(self.table.iter().flat_map(|m| m.cards.iter().map(|c| c.0)));
        out
    }

    /// A seat's hand (secret state, for tests and the server's own use).
    pub fn hand(&self, seat: usize) -> Option<&[Card]> {
        self.hands.get(seat).map(Vec::as_slice)
    }

    /// The stock, top last (secret state).
    pub fn stock(&self) -> &[Card] {
        &self.stock
    }

    /// The meld checker (the ruleset was accepted by `new`, so this only
    /// fails if that check was wrong).
    pub(crate) fn checker(&self) -> Result<MeldChecker<'_>, ActionError> {
        MeldChecker::new(&self.rules, None).map_err(|e| ActionError::Internal(e.to_string()))
    }

    /// Apply `seat`'s action. On success the events it caused; on error the
    /// game is exactly as before.
    pub fn apply(&mut self, seat: usize, action: Action) -> Result<Vec<Event>, ActionError> {
        if self.phase == Phase::MatchOver {
            return Err(ActionError::MatchOver);
        }
        if seat >= self.seats {
            return Err(ActionError::NoSuchSeat(seat));
        }
        if !self.players.contains(&seat) {
            return Err(ActionError::SitsOut(seat));
        }
        if seat != self.turn {
            return Err(ActionError::NotYourTurn {
                expected: self.turn,
                got: seat,
            });
        }
        // Work on a copy (without the long history), keep it only on success.
        let mut next = self.fork();
        let mut events = Vec::new();
        next.act(seat, &action, &mut events)?;
        next.history = std::mem::take(&mut self.history);
        next.log = std::mem::take(&mut self.log);
        next.log.push((seat, action));
        next.history.extend(events.iter().cloned());
        *self = next;
        Ok(events)
    }

    /// A copy of the state without the history and the action log (for
    /// trying actions).
    pub(crate) fn fork(&self) -> Game {
        Game {
            rules: Arc::clone(&self.rules),
            seats: self.seats,
            seed: self.seed,
            sheet: self.sheet.clone(),
            game_no: self.game_no,
            dealer: self.dealer,
            players: self.players.clone(),
            hands: self.hands.clone(),
            stock: self.stock.clone(),
            discard: self.discard.clone(),
            table: self.table.clone(),
            opened: self.opened.clone(),
            first_to_meld: self.first_to_meld,
            turn: self.turn,
            phase: self.phase,
            ts: self.ts.clone(),
            reshuffles: self.reshuffles,
            history: Vec::new(),
            log: Vec::new(),
            fixed: self.fixed.clone(),
        }
    }

    fn act(
        &mut self,
        seat: usize,
        action: &Action,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        match action {
            Action::Draw { from } => self.draw(seat, *from, ev),
            Action::Meld { melds, lay_offs } => self.put_down(seat, melds, lay_offs, ev),
            Action::LayOff { meld, cards } => {
                let part = LayOffPart {
                    meld: *meld,
                    cards: cards.clone(),
                };
                self.put_down(seat, &[], std::slice::from_ref(&part), ev)
            }
            Action::ExchangeJoker { meld, card } => self.exchange(seat, *meld, *card, ev),
            Action::Discard { card } => self.discard_card(seat, *card, ev),
            Action::CallRomme { discard } => self.call_romme(seat, *discard, ev),
        }
    }

    // ----- dealing and the flow of games -----

    fn deal(&mut self, ev: &mut Vec<Event>) -> Result<(), NewGameError> {
        self.game_no += 1;
        self.dealer = (self.dealer + 1) % self.seats;
        let active = match self.rules.players.active_per_game {
            Limit::At(n) if usize::from(n) < self.seats => usize::from(n),
            _ => self.seats,
        };
        let sits_out = active < self.seats;
        self.players = (1..=self.seats)
            .map(|i| (self.dealer + i) % self.seats)
            .filter(|&s| !(sits_out && s == self.dealer))
            .collect();
        let hand_size = self.rules.deal.hand_size.cards(1);
        let extra = usize::from(self.rules.deal.first_player_extra_card);
        let need = self.players.len() * usize::from(hand_size) + extra + 1;
        let mut deck = self
            .rules
            .deck
            .shuffled(derived_seed(self.seed, self.game_no, 0));
        if deck.len() < need {
            return Err(NewGameError::DeckTooSmall {
                have: deck.len(),
                need,
            });
        }
        self.hands = vec![Vec::new(); self.seats];
        self.table.clear();
        self.discard.clear();
        self.opened = vec![false; self.seats];
        self.first_to_meld = None;
        self.reshuffles = 0;
        if self.game_no == 1 {
            if let Some(fixed) = self.fixed.clone() {
                return self.deal_fixed(&fixed, deck, hand_size, ev);
            }
        }
        ev.push(Event::GameStarted {
            game: self.game_no,
            dealer: self.dealer,
            players: self.players.clone(),
            hand_size,
        });
        // The deck is dealt from its end (the stock's top is its last card).
        for (i, &s) in self.players.clone().iter().enumerate() {
            let n = usize::from(hand_size) + if i == 0 { extra } else { 0 };
            let at = deck.len() - n;
            let mut cards = deck.split_off(at);
            cards.sort_unstable();
            ev.push(Event::Dealt {
                seat: s,
                count: cards.len(),
                cards: Some(cards.iter().map(|c| c.kind()).collect()),
            });
            self.hands[s] = cards;
        }
        self.stock = deck;
        if extra == 0 {
            if let Some(up) = self.stock.pop() {
                self.discard.push(up);
                ev.push(Event::TurnedUp { card: up.kind() });
            }
        }
        self.turn = self.players[0];
        self.begin_turn(if extra == 1 { Phase::Play } else { Phase::Draw }, ev);
        Ok(())
    }

    /// Deal the explicit first game: named cards where they are named, the
    /// rest of the shuffled deck below the named stock cards.
    fn deal_fixed(
        &mut self,
        fixed: &Deal,
        mut deck: Vec<Card>,
        hand_size: u8,
        ev: &mut Vec<Event>,
    ) -> Result<(), NewGameError> {
        if fixed.hands.len() != self.seats {
            return Err(NewGameError::BadDeal(format!(
                "the deal names {} hands for {} seats",
                fixed.hands.len(),
                self.seats
            )));
        }
        let mut take = |k: CardKind| -> Result<Card, NewGameError> {
            let i = deck
                .iter()
                .enumerate()
                .filter(|(_, c)| c.kind() == k)
                .min_by_key(|(_, c)| c.id())
                .map(|(i, _)| i)
                .ok_or_else(|| NewGameError::BadDeal(format!("the deck has no more {k}")))?;
            Ok(deck.remove(i))
        };
        let mut hands = vec![Vec::new(); self.seats];
        for (s, kinds) in fixed.hands.iter().enumerate() {
            let playing = self.players.contains(&s);
            if playing == kinds.is_empty() {
                return Err(NewGameError::BadDeal(format!(
                    "seat {s} {} this game",
                    if playing {
                        "needs cards: it plays"
                    } else {
                        "sits out and gets no cards"
                    }
                )));
            }
            for &k in kinds {
                hands[s].push(take(k)?);
            }
            hands[s].sort_unstable();
        }
        let up = fixed.discard.map(&mut take).transpose()?;
        let mut named = Vec::new();
        for &k in &fixed.stock {
            named.push(take(k)?);
        }
        // `deck` (already shuffled) lies below; the named cards on top.
        named.reverse();
        deck.extend(named);
        ev.push(Event::GameStarted {
            game: self.game_no,
            dealer: self.dealer,
            players: self.players.clone(),
            hand_size,
        });
        for &s in &self.players {
            ev.push(Event::Dealt {
                seat: s,
                count: hands[s].len(),
                cards: Some(hands[s].iter().map(|c| c.kind()).collect()),
            });
        }
        self.hands = hands;
        self.stock = deck;
        let first = self.players[0];
        let up = match up {
            Some(c) => Some(c),
            None if self.hands[first].len() > usize::from(hand_size) => None,
            None => self.stock.pop(),
        };
        if let Some(c) = up {
            self.discard.push(c);
            ev.push(Event::TurnedUp { card: c.kind() });
        }
        self.turn = first;
        let extra = self.rules.deal.first_player_extra_card && up.is_none();
        self.begin_turn(if extra { Phase::Play } else { Phase::Draw }, ev);
        Ok(())
    }

    fn begin_turn(&mut self, phase: Phase, ev: &mut Vec<Event>) {
        self.phase = phase;
        self.ts = TurnState {
            opened_before: self.opened[self.turn],
            ..TurnState::default()
        };
        ev.push(Event::TurnBegan { seat: self.turn });
    }

    fn next_turn(&mut self, ev: &mut Vec<Event>) {
        let i = self
            .players
            .iter()
            .position(|&s| s == self.turn)
            .unwrap_or(0);
        self.turn = self.players[(i + 1) % self.players.len()];
        if self.stock.is_empty() && self.rules.stock.when_empty == StockExhausted::EndGame {
            self.end_game(None, ev);
            return;
        }
        self.begin_turn(Phase::Draw, ev);
    }

    fn end_game(&mut self, winner: Option<usize>, ev: &mut Vec<Event>) {
        let rules = Arc::clone(&self.rules);
        let players: Vec<PlayerResult> = self
            .players
            .iter()
            .map(|&s| {
                let went_out = winner == Some(s);
                let all_out = self.hands[s].is_empty();
                let hand_romme = (went_out && all_out && !self.ts.opened_before).then_some(
                    if self.ts.laid_off_on_others || self.ts.exchanged {
                        HandRommeKind::WithLayOffs
                    } else {
                        HandRommeKind::Plain
                    },
                );
                PlayerResult {
                    hand: self.hands[s].iter().map(|c| c.kind()).collect(),
                    went_out,
                    opened: self.opened[s],
                    hand_romme: hand_romme.filter(|_| rules.hand_romme.enabled),
                    first_to_meld: self.first_to_meld == Some(s),
                }
            })
            .collect();
        let result = GameResult {
            round: None,
            players,
        };
        let score = match score_game(&rules, &result) {
            Ok(s) => s,
            // Unreachable for results built here (one winner at most).
            Err(_) => GameScore {
                players: Vec::new(),
            },
        };
        // The sheet has every seat; a seat sitting out scores nothing.
        let mut by_seat: Vec<PlayerScore> = (0..self.seats)
            .map(|_| PlayerScore {
                hand_points: 0,
                points: 0,
                adjustments: Vec::new(),
                rating: None,
                won: false,
            })
            .collect();
        for (i, &s) in self.players.iter().enumerate() {
            if let Some(p) = score.players.get(i) {
                by_seat[s] = p.clone();
            }
        }
        let seat_score = GameScore { players: by_seat };
        // The sheet refuses a score only for an eliminated player or a match
        // already over; neither happens in the matches `new` accepts.
        let recorded = self.sheet.record(&rules, seat_score.clone()).is_ok();
        ev.push(Event::GameEnded {
            reason: if winner.is_some() {
                EndReason::WentOut
            } else {
                EndReason::StockExhausted
            },
            winner,
            hands: self
                .players
                .iter()
                .map(|&s| (s, self.hands[s].iter().map(|c| c.kind()).collect()))
                .collect(),
            score: seat_score,
        });
        match self.sheet.status(&rules) {
            MatchStatus::Running { .. } if !recorded => {
                self.phase = Phase::MatchOver;
                ev.push(Event::MatchEnded {
                    winners: Vec::new(),
                });
            }
            MatchStatus::Finished { winners } => {
                self.phase = Phase::MatchOver;
                ev.push(Event::MatchEnded { winners });
            }
            MatchStatus::Running { .. } => {
                if self.deal(ev).is_err() {
                    // The same deck dealt the first game: unreachable.
                    self.phase = Phase::MatchOver;
                    ev.push(Event::MatchEnded {
                        winners: Vec::new(),
                    });
                }
            }
        }
    }

    // ----- drawing -----

    fn draw(
        &mut self,
        seat: usize,
        from: DrawSource,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.phase != Phase::Draw {
            return Err(ActionError::AlreadyDrawn);
        }
        match from {
            DrawSource::Stock => {
                if self.stock.is_empty() && !self.reshuffle(ev) {
                    self.end_game(None, ev);
                    return Ok(());
                }
                let Some(card) = self.stock.pop() else {
                    return Err(ActionError::WrongPhase {
                        action: "draw",
                        phase: self.phase,
                    });
                };
                self.hands[seat].push(card);
                self.hands[seat].sort_unstable();
                ev.push(Event::Drew {
                    seat,
                    from,
                    card: Some(card.kind()),
                });
            }
            DrawSource::Discard => {
                let Some(&card) = self.discard.last() else {
                    return Err(ActionError::DiscardPileEmpty);
                };
                if self.rules.turn.discard_take != DiscardTake::Free
                    && !crate::legal::can_meld_at_once(self, seat, card)
                {
                    return Err(ActionError::DiscardNotMeldable { card: card.kind() });
                }
                self.discard.pop();
                self.hands[seat].push(card);
                self.hands[seat].sort_unstable();
                self.ts.took = Some(card);
                if self.rules.turn.discard_take != DiscardTake::Free {
                    self.ts.taken = Some(card);
                }
                ev.push(Event::Drew {
                    seat,
                    from,
                    card: Some(card.kind()),
                });
            }
        }
        self.phase = Phase::Play;
        Ok(())
    }

    /// Shuffle the discard pile without its top card into a new stock.
    /// False if there is nothing to shuffle or the ruleset ends the game.
    fn reshuffle(&mut self, ev: &mut Vec<Event>) -> bool {
        if self.rules.stock.when_empty != StockExhausted::Reshuffle || self.discard.len() < 2 {
            return false;
        }
        let top = self.discard.pop();
        let mut cards = std::mem::take(&mut self.discard);
        self.reshuffles += 1;
        cards.sort_unstable();
        let mut rng =
            ChaCha8Rng::seed_from_u64(derived_seed(self.seed, self.game_no, self.reshuffles));
        cards.shuffle(&mut rng);
        self.stock = cards;
        self.discard.extend(top);
        ev.push(Event::StockReshuffled {
            cards: self.stock.len(),
        });
        true
    }

    // ----- melding, laying off, exchanging -----

    /// The seat on turn has drawn (melds, lay-offs, exchanges, discards).
    fn in_play(&self) -> Result<(), ActionError> {
        match self.phase {
            Phase::Draw => Err(ActionError::MustDrawFirst),
            Phase::Play => Ok(()),
            Phase::MatchOver => Err(ActionError::MatchOver),
        }
    }

    /// Take physical cards for `kinds` out of `hand` (lowest copy first).
    fn take_cards(hand: &mut Vec<Card>, kinds: &[CardKind]) -> Result<Vec<Card>, ActionError> {
        let mut out = Vec::with_capacity(kinds.len());
        for &k in kinds {
            let i = hand
                .iter()
                .position(|c| c.kind() == k)
                .ok_or(ActionError::NotInHand(k))?;
            out.push(hand.remove(i));
        }
        Ok(out)
    }

    fn declare(&self, cards: &[MeldCard]) -> Result<Declaration, ActionError> {
        let text = format_cards(cards);
        self.checker()?.check(cards).map_err(|e| match e {
            MeldError::Ambiguous { .. } => ActionError::Ambiguous(text),
            other => ActionError::InvalidMeld {
                cards: text,
                reason: other.to_string(),
            },
        })
    }

    /// Give the physical cards of `hand_cards` (in any order) the places of
    /// the declaration's `ordered` cards.
    fn place(
        ordered: &[MeldCard],
        mut physical: Vec<Card>,
        existing: &[(Card, Option<Face>)],
    ) -> Vec<(Card, Option<Face>)> {
        let mut pool: Vec<(Card, Option<Face>)> = existing.to_vec();
        let mut out = Vec::with_capacity(ordered.len());
        for mc in ordered {
            // Cards already in the meld first (same declaration preferred),
            // then the cards from the hand.
            let same = pool
                .iter()
                .position(|&(c, f)| c.kind() == mc.card && f == mc.stands_for)
                .or_else(|| pool.iter().position(|(c, _)| c.kind() == mc.card));
            let card = match same {
                Some(i) => Some(pool.remove(i).0),
                None => physical
                    .iter()
                    .position(|c| c.kind() == mc.card)
                    .map(|i| physical.remove(i)),
            };
            out.extend(card.map(|c| (c, mc.stands_for)));
        }
        out
    }

    fn put_down(
        &mut self,
        seat: usize,
        melds: &[Vec<MeldCard>],
        lay_offs: &[LayOffPart],
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.in_play()?;
        if melds.is_empty() && lay_offs.is_empty() {
            return Err(ActionError::EmptyMeld);
        }
        if self.ts.exchanged && self.rules.jokers.exchange_ends_plays {
            return Err(ActionError::PlaysEnded);
        }
        let rules = Arc::clone(&self.rules);
        let opening_now = !self.opened[seat];
        // A card that must be melded at once (taken from the discard pile,
        // or a freed joker) goes into the next play.
        let used: Vec<CardKind> = melds
            .iter()
            .flatten()
            .chain(lay_offs.iter().flat_map(|p| p.cards.iter()))
            .map(|c| c.card)
            .collect();
        if let Some(t) = self.ts.taken {
            if !used.contains(&t.kind()) {
                return Err(ActionError::MustMeldTaken(t.kind()));
            }
        }
        if !self.ts.freed.is_empty() && !used.iter().any(|k| k.is_joker()) {
            return Err(ActionError::MustMeldFreedJoker);
        }
        if !lay_offs.is_empty() {
            if rules.turn.lay_off == LayOff::Never {
                return Err(ActionError::LayOffNotAllowed(
                    "laying off is not played in this ruleset".into(),
                ));
            }
            if opening_now && melds.is_empty() && !rules.opening.lay_offs_count {
                return Err(ActionError::LayOffNotAllowed(
                    "you can lay off only after your opening".into(),
                ));
            }
        }
        let mut hand = self.hands[seat].clone();
        // New melds.
        let mut decls = Vec::new();
        let mut new_melds = Vec::new();
        for m in melds {
            let d = self.declare(m)?;
            let kinds: Vec<CardKind> = m.iter().map(|c| c.card).collect();
            let physical = Self::take_cards(&mut hand, &kinds)?;
            new_melds.push(Meld {
                owner: seat,
                kind: d.kind,
                cards: Self::place(&d.ordered, physical, &[]),
            });
            decls.push(d);
        }
        // Lay-offs, on the table as it is (new melds of this action count as
        // own melds after the existing ones).
        let mut table = self.table.clone();
        let base = table.len();
        table.extend(new_melds);
        let mut lay_off_value = 0u32;
        let mut laid_off = Vec::new();
        for part in lay_offs {
            let target = table
                .get(part.meld)
                .ok_or(ActionError::NoSuchMeld(part.meld))?;
            if rules.turn.lay_off_target == LayOffTarget::Own && target.owner != seat {
                return Err(ActionError::LayOffNotAllowed(
                    "in this ruleset you may lay off only on your own melds".into(),
                ));
            }
            let mut cards = target.meld_cards();
            cards.extend(part.cards.iter().copied());
            let before = format_cards(&target.meld_cards());
            let d = self
                .checker()?
                .check(&cards)
                .map_err(|e| ActionError::InvalidLayOff {
                    cards: format_cards(&part.cards),
                    meld: before.clone(),
                    reason: e.to_string(),
                })?;
            let kinds: Vec<CardKind> = part.cards.iter().map(|c| c.card).collect();
            let physical = Self::take_cards(&mut hand, &kinds)?;
            let old_value: u32 = {
                let faces: Vec<Face> = target
                    .meld_cards()
                    .iter()
                    .filter_map(|c| c.effective())
                    .collect();
                card_values(&rules, target.kind, &faces).iter().sum()
            };
            lay_off_value += d.value.saturating_sub(old_value);
            if target.owner != seat {
                self.ts.laid_off_on_others = true;
            }
            let existing = target.cards.clone();
            let owner = target.owner;
            table[part.meld] = Meld {
                owner,
                kind: d.kind,
                cards: Self::place(&d.ordered, physical, &existing),
            };
            laid_off.push(part.meld);
        }
        // Going out and the discard.
        let keep = usize::from(rules.going_out.final_discard == FinalDiscard::Required);
        if hand.len() < keep {
            return Err(ActionError::MustKeepDiscard);
        }
        if keep == 1 && !rules.jokers.discard_allowed && hand.iter().all(|c| c.is_joker()) {
            return Err(ActionError::MustKeepDiscard);
        }
        // The opening.
        let mut opening_points = None;
        if opening_now {
            let table_value: u32 = self
                .table
                .iter()
                .map(|m| {
                    let faces: Vec<Face> = m
                        .meld_cards()
                        .iter()
                        .filter_map(|c| c.effective())
                        .collect();
                    card_values(&rules, m.kind, &faces).iter().sum::<u32>()
                })
                .sum();
            let attempt = OpeningAttempt {
                melds: &decls,
                lay_off_value,
                table_value,
                joker_exchanged: self.ts.exchanged,
                whole_hand: hand.len() <= keep && !self.ts.opened_before,
            };
            opening_points = Some(opening::check(&rules, &attempt)?);
        }
        // The card taken from the discard pile, and freed jokers, are melded
        // if they left the hand.
        if let Some(t) = self.ts.taken {
            if !hand.contains(&t) {
                self.ts.taken = None;
            } else if rules.turn.discard_take == DiscardTake::MeldAtOnceOpening && opening_now {
                return Err(ActionError::MustMeldTaken(t.kind()));
            }
        }
        self.ts.freed.retain(|j| hand.contains(j));
        self.hands[seat] = hand;
        self.table = table;
        if opening_now {
            self.opened[seat] = true;
        }
        if self.first_to_meld.is_none() {
            self.first_to_meld = Some(seat);
        }
        ev.push(Event::Melded {
            seat,
            melds: (base..base + melds.len()).collect(),
            laid_off,
            opening: opening_points,
            table: self.table.iter().map(Meld::public).collect(),
        });
        if self.hands[seat].is_empty() {
            self.end_game(Some(seat), ev);
        }
        Ok(())
    }

    fn exchange(
        &mut self,
        seat: usize,
        meld: usize,
        card: CardKind,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.in_play()?;
        let rules = Arc::clone(&self.rules);
        match rules.jokers.exchange {
            JokerExchange::Never => {
                return Err(ActionError::ExchangeNotAllowed(
                    "jokers on the table are never exchanged in this ruleset".into(),
                ));
            }
            JokerExchange::AfterOpening if !self.opened[seat] => {
                return Err(ActionError::ExchangeNotAllowed(
                    "you may exchange a joker only after your opening".into(),
                ));
            }
            _ => {}
        }
        if self.ts.exchanged && rules.jokers.exchange_ends_plays {
            return Err(ActionError::PlaysEnded);
        }
        let target = self.table.get(meld).ok_or(ActionError::NoSuchMeld(meld))?;
        let text = format_cards(&target.meld_cards());
        if rules.jokers.exchange_needs_full_set && target.kind == MeldKind::Set {
            let full = match (rules.melds.sets.suits, rules.melds.sets.max_len.get()) {
                (_, Some(m)) => usize::from(m),
                (SetSuits::Distinct, None) => rules.deck.kind.suits().len(),
                (SetSuits::Any, None) => usize::MAX,
            };
            if target.cards.len() < full {
                return Err(ActionError::ExchangeNotAllowed(format!(
                    "a joker in a set may be exchanged only when the set has {full} cards ({text})"
                )));
            }
        }
        let face = card.face().ok_or(ActionError::NoJokerFor {
            meld: text.clone(),
            card,
        })?;
        let pos = target
            .cards
            .iter()
            .position(|&(c, f)| c.is_joker() && f == Some(face))
            .ok_or(ActionError::NoJokerFor {
                meld: text.clone(),
                card,
            })?;
        let mut hand = self.hands[seat].clone();
        let natural = Self::take_cards(&mut hand, &[card])?[0];
        let mut updated = target.clone();
        let joker = updated.cards[pos].0;
        updated.cards[pos] = (natural, None);
        hand.push(joker);
        hand.sort_unstable();
        if updated.owner != seat {
            self.ts.laid_off_on_others = true;
        }
        self.hands[seat] = hand;
        self.table[meld] = updated;
        self.ts.exchanged = true;
        if rules.jokers.freed_must_be_melded {
            self.ts.freed.push(joker);
        }
        if rules.jokers.freed_must_be_melded && !crate::legal::pending_meldable(self, seat) {
            return Err(ActionError::ExchangeNotAllowed(
                "the freed joker must be melded again this turn, and it could not be".into(),
            ));
        }
        ev.push(Event::JokerExchanged {
            seat,
            meld,
            card,
            result: self.table[meld].public(),
        });
        Ok(())
    }

    // ----- discarding -----

    fn discard_card(
        &mut self,
        seat: usize,
        card: CardKind,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.in_play()?;
        let (hand, physical) = self.checked_discard(seat, card)?;
        self.hands[seat] = hand;
        self.discard.push(physical);
        ev.push(Event::Discarded { seat, card });
        if self.hands[seat].is_empty() {
            self.end_game(Some(seat), ev);
        } else {
            self.next_turn(ev);
        }
        Ok(())
    }

    /// The hand after discarding `card`, and the physical card, if the
    /// discard is allowed now.
    fn checked_discard(
        &self,
        seat: usize,
        card: CardKind,
    ) -> Result<(Vec<Card>, Card), ActionError> {
        let rules = &self.rules;
        let mut hand = self.hands[seat].clone();
        let physical = Self::take_cards(&mut hand, &[card])?[0];
        if hand.is_empty() && rules.going_out.final_discard == FinalDiscard::Never {
            return Err(ActionError::FinalDiscardForbidden);
        }
        // A hand of jokers only may discard one: otherwise the turn could
        // not end.
        let only_jokers = self.hands[seat].iter().all(|c| c.is_joker());
        if card.is_joker() && !rules.jokers.discard_allowed && !only_jokers {
            return Err(ActionError::JokerDiscard);
        }
        if let Some(t) = self.ts.taken {
            return Err(ActionError::MustMeldTaken(t.kind()));
        }
        if !self.ts.freed.is_empty() {
            return Err(ActionError::MustMeldFreedJoker);
        }
        Ok((hand, physical))
    }

    /// "Rommé bieten" (`002`): discard (where the ruleset needs a final
    /// discard) and end the game with at most `rest_allowed` points left.
    fn call_romme(
        &mut self,
        seat: usize,
        discard: Option<CardKind>,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.in_play()?;
        let rules = Arc::clone(&self.rules);
        let limit = u32::from(rules.going_out.rest_allowed);
        if limit == 0 {
            return Err(ActionError::CallNotPlayed);
        }
        let needs_discard = rules.going_out.final_discard == FinalDiscard::Required;
        let (hand, physical) = match (discard, needs_discard) {
            (Some(card), _) => {
                let (h, p) = self.checked_discard(seat, card)?;
                (h, Some(p))
            }
            (None, true) => return Err(ActionError::CallNeedsDiscard),
            (None, false) => (self.hands[seat].clone(), None),
        };
        let kinds: Vec<CardKind> = hand.iter().map(|c| c.kind()).collect();
        let have = romme_core::penalty::hand_points(&rules, &kinds, None);
        if have > limit {
            return Err(ActionError::RestTooHigh { limit, have });
        }
        self.hands[seat] = hand;
        if let Some(p) = physical {
            self.discard.push(p);
            ev.push(Event::Discarded {
                seat,
                card: p.kind(),
            });
        }
        self.end_game(Some(seat), ev);
        Ok(())
    }
}
