//! The flow of a match: dealing each game (shuffled or an explicit deal),
//! whose turn it is, the end of a game and its scoring on the match sheet,
//! and the next deal.

use std::sync::Arc;

use romme_core::ruleset::{Limit, StockExhausted};
use romme_core::scoring::sheet::MatchStatus;
use romme_core::scoring::{
    GameResult, GameScore, HandRommeKind, PlayerResult, PlayerScore, score_game,
};
use romme_core::{Card, CardKind};
use smallvec::smallvec;

use crate::error::NewGameError;
use crate::event::{EndReason, Event};
use crate::game::{Deal, Game, Hand, LastTurns, Phase, SolverCache, TurnState, derived_seed};
use crate::meld_cache::MeldCache;

impl Game {
    // ----- dealing and the flow of games -----

    pub(crate) fn deal(&mut self, ev: &mut Vec<Event>) -> Result<(), NewGameError> {
        self.game_no += 1;
        // The round (Five Crowns' wild rank) may change with the game.
        self.solver = SolverCache::default();
        self.melds = MeldCache::default();
        self.known = smallvec![Hand::new(); self.seats];
        // Seats still in the match (eliminated seats neither deal nor play).
        let in_match = self.sheet.active();
        let next_dealer = (1..=self.seats)
            .map(|i| (self.dealer + i) % self.seats)
            .find(|s| in_match.contains(s));
        self.dealer = next_dealer.unwrap_or((self.dealer + 1) % self.seats);
        let active = match self.rules.players.active_per_game {
            Limit::At(n) if usize::from(n) < in_match.len() => usize::from(n),
            _ => in_match.len(),
        };
        let sits_out = active < in_match.len();
        self.players = (1..=self.seats)
            .map(|i| (self.dealer + i) % self.seats)
            .filter(|s| in_match.contains(s))
            .filter(|&s| !(sits_out && s == self.dealer))
            .collect();
        if self.rules.deal.solo_patience {
            self.hands = smallvec![Hand::new(); self.seats];
            self.discard.clear();
            self.reshuffles = 0;
            self.ending = None;
            let deck = self
                .rules
                .deck
                .shuffled(derived_seed(self.seed, self.game_no, 0));
            let fixed = if self.game_no == 1 {
                self.fixed.clone()
            } else {
                None
            };
            let deck = match fixed {
                Some(f) => crate::patience::stack_deck(&f, deck)?,
                None => deck,
            };
            self.deal_patience(deck, ev);
            return Ok(());
        }
        let round = u8::try_from(self.game_no).unwrap_or(u8::MAX);
        let hand_size = self.rules.deal.hand_size.cards(round);
        self.ending = None;
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
        self.hands = smallvec![Hand::new(); self.seats];
        self.table = Arc::default();
        self.discard.clear();
        self.opened = smallvec![false; self.seats];
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
            players: self.players.to_vec(),
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
            self.hands[s] = cards.into();
        }
        self.stock = deck.into();
        if extra == 0 && self.rules.turn.discard_pile {
            if let Some(up) = self.stock.pop() {
                self.discard.push(up);
                ev.push(Event::TurnedUp { card: up.kind() });
            }
        }
        self.split_stock();
        self.turn = self.players[0];
        self.begin_turn(if extra == 1 { Phase::Play } else { Phase::Draw }, ev);
        Ok(())
    }

    /// Deal the explicit first game: named cards where they are named, the
    /// rest of the shuffled deck below the named stock cards.
    pub(crate) fn deal_fixed(
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
        if fixed.discard.is_some() && !self.rules.turn.discard_pile {
            return Err(NewGameError::BadDeal(
                "this ruleset has no discard pile to turn a card up on".into(),
            ));
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
            players: self.players.to_vec(),
            hand_size,
        });
        for &s in &self.players {
            ev.push(Event::Dealt {
                seat: s,
                count: hands[s].len(),
                cards: Some(hands[s].iter().map(|c| c.kind()).collect()),
            });
        }
        self.hands = hands.into_iter().map(Hand::from_vec).collect();
        self.stock = deck.into();
        let first = self.players[0];
        let up = match up {
            Some(c) => Some(c),
            None if self.hands[first].len() > usize::from(hand_size)
                || !self.rules.turn.discard_pile =>
            {
                None
            }
            None => self.stock.pop(),
        };
        if let Some(c) = up {
            self.discard.push(c);
            ev.push(Event::TurnedUp { card: c.kind() });
        }
        self.split_stock();
        self.turn = first;
        let extra = self.rules.deal.first_player_extra_card && up.is_none();
        self.begin_turn(if extra { Phase::Play } else { Phase::Draw }, ev);
        Ok(())
    }

    pub(crate) fn begin_turn(&mut self, phase: Phase, ev: &mut Vec<Event>) {
        self.phase = phase;
        self.window = None;
        self.ts = TurnState {
            opened_before: self.opened[self.turn],
            ..TurnState::default()
        };
        ev.push(Event::TurnBegan { seat: self.turn });
    }

    /// `seat` went out (or laid down): the game ends, or every other seat
    /// plays a last turn first (`going_out.last_turn_for_others`, Five
    /// Crowns). Going out in a last turn only ends that turn.
    pub(crate) fn goes_out(&mut self, seat: usize, ev: &mut Vec<Event>) {
        if self.ending.is_some() {
            self.next_turn(ev);
        } else if self.rules.going_out.last_turn_for_others {
            self.start_last_turns(seat, false, ev);
        } else {
            self.end_game(Some(seat), ev);
        }
    }

    /// The next seat in turn order after `seat` (itself when it plays
    /// alone): the first of [`Game::seats_after`], without a list.
    pub(crate) fn seat_after(&self, seat: usize) -> usize {
        let n = self.players.len();
        match self.players.iter().position(|&s| s == seat) {
            Some(at) if n > 1 => self.players[(at + 1) % n],
            // A seat not playing: the first of the list from seat 0.
            None if n > 1 => self.players[1],
            _ => seat,
        }
    }

    /// The other seats of this game in turn order, starting after `seat`.
    pub(crate) fn seats_after(&self, seat: usize) -> Vec<usize> {
        let at = self.players.iter().position(|&s| s == seat).unwrap_or(0);
        let n = self.players.len();
        (1..n).map(|i| self.players[(at + i) % n]).collect()
    }

    /// Every seat but `by` plays one last turn, in turn order from `by`.
    pub(crate) fn start_last_turns(&mut self, by: usize, knocked: bool, ev: &mut Vec<Event>) {
        let left = self.seats_after(by);
        ev.push(Event::LastTurns {
            seats: left.clone(),
        });
        self.ending = Some(LastTurns { by, knocked, left });
        self.next_turn(ev);
    }

    pub(crate) fn next_turn(&mut self, ev: &mut Vec<Event>) {
        if let Some(end) = self.ending.as_mut() {
            // Last turns after a lay-down or knock; then the game ends.
            let by = end.by;
            if end.left.is_empty() {
                self.end_game(Some(by), ev);
                return;
            }
            self.turn = end.left.remove(0);
            if self.stock.is_empty() && self.rules.stock.when_empty == StockExhausted::EndGame {
                self.end_game(Some(by), ev);
                return;
            }
            self.begin_turn(Phase::Draw, ev);
            return;
        }
        self.turn = self.seat_after(self.turn);
        if self.stock.is_empty() && self.rules.stock.when_empty == StockExhausted::EndGame {
            self.end_game(None, ev);
            return;
        }
        self.begin_turn(Phase::Draw, ev);
    }

    pub(crate) fn end_game(&mut self, winner: Option<usize>, ev: &mut Vec<Event>) {
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
                    hand: self.scored_cards(s),
                    went_out,
                    opened: self.opened[s],
                    hand_romme: hand_romme.filter(|_| rules.hand_romme.enabled),
                    first_to_meld: self.first_to_meld == Some(s),
                }
            })
            .collect();
        let result = GameResult {
            round: self.round(),
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
        let recorded = Arc::make_mut(&mut self.sheet)
            .record(&rules, seat_score.clone())
            .is_ok();
        ev.push(Event::GameEnded {
            reason: if self.ending.as_ref().is_some_and(|e| e.knocked) {
                EndReason::Knocked
            } else if winner.is_some() {
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
}
