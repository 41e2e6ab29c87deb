//! The Five Crowns solo patience (`000`, RULES.md §8) as a one-seat game:
//! eleven fanned hands of 3 to 13 cards (hand `i`, 0-based, has the rank of
//! round `i + 1` wild: 3s in the first, kings in the last). A turn: draw
//! the top stock card, put it into an open hand and take a card of that
//! hand out of the game (it may be the drawn card itself). A hand whose
//! cards all fit into melds is laid down ("closed") at once. The game is
//! won when all eleven hands are closed, lost when the stock runs out
//! first.
//!
//! Readings: hands are checked for closing after the deal too; every hand
//! lies open, so the whole patience is public; the cards taken out of the
//! game lie face up on the discard pile and never come back (no
//! reshuffle); the patience is a match of one game.

use std::sync::Arc;

use romme_core::penalty::card_points;
use romme_core::scoring::{GameScore, PlayerScore};
use romme_core::{Card, CardKind, MeldCard};
use romme_solver::partition::PartitionSolver;
use serde::Serialize;

use crate::error::{ActionError, NewGameError};
use crate::event::{EndReason, Event};
use crate::game::{Game, Phase};

/// Number of hands.
pub const HANDS: usize = 11;

/// The patience's hands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Patience {
    /// The open hands' cards (empty once closed).
    pub hands: Vec<Vec<Card>>,
    /// The melds of each closed hand.
    pub closed: Vec<Option<Vec<Vec<MeldCard>>>>,
}

/// The patience as the player sees it (everything lies open).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PatienceView {
    /// Each hand's cards while it is open.
    pub hands: Vec<Vec<CardKind>>,
    /// Each closed hand's melds.
    pub closed: Vec<Option<Vec<Vec<MeldCard>>>>,
}

impl Patience {
    pub(crate) fn public(&self) -> PatienceView {
        PatienceView {
            hands: self
                .hands
                .iter()
                .map(|h| h.iter().map(|c| c.kind()).collect())
                .collect(),
            closed: self.closed.clone(),
        }
    }
}

/// Order `deck` (shuffled) so that the patience deal gives the named cards:
/// `deal.hands[i]` are the first cards of hand `i` (at most `i + 3`; the
/// rest of the hand comes from the shuffled deck), `deal.stock` the top of
/// the stock. `deal.discard` must be empty.
pub(crate) fn stack_deck(
    deal: &crate::Deal,
    mut deck: Vec<Card>,
) -> Result<Vec<Card>, NewGameError> {
    if deal.hands.len() > HANDS {
        return Err(NewGameError::BadDeal(format!(
            "the patience has {HANDS} hands, the deal names {}",
            deal.hands.len()
        )));
    }
    if deal.discard.is_some() {
        return Err(NewGameError::BadDeal(
            "the patience turns no card up".into(),
        ));
    }
    let mut take = |k: CardKind| -> Result<Card, NewGameError> {
        let i = deck
            .iter()
            .position(|c| c.kind() == k)
            .ok_or_else(|| NewGameError::BadDeal(format!("the deck has no more {k}")))?;
        Ok(deck.remove(i))
    };
    let mut hands: Vec<Vec<Card>> = Vec::with_capacity(HANDS);
    for (i, kinds) in deal.hands.iter().enumerate() {
        if kinds.len() > i + 3 {
            return Err(NewGameError::BadDeal(format!(
                "hand {i} has {} cards, not {}",
                i + 3,
                kinds.len()
            )));
        }
        hands.push(kinds.iter().map(|&k| take(k)).collect::<Result<_, _>>()?);
    }
    let stock: Vec<Card> = deal
        .stock
        .iter()
        .map(|&k| take(k))
        .collect::<Result<_, _>>()?;
    // Fill each hand from the shuffled rest, then lay the deck out the way
    // `deal_patience` deals it: hand 0 from the end, then hand 1, ...
    let mut rest = deck;
    let mut dealt: Vec<Vec<Card>> = Vec::with_capacity(HANDS);
    for i in 0..HANDS {
        let mut h = hands.get(i).cloned().unwrap_or_default();
        while h.len() < i + 3 {
            match rest.pop() {
                Some(c) => h.push(c),
                None => return Err(NewGameError::BadDeal("the deck is too small".into())),
            }
        }
        dealt.push(h);
    }
    let mut out = rest;
    out.extend(stock.into_iter().rev());
    for h in dealt.into_iter().rev() {
        out.extend(h);
    }
    Ok(out)
}

/// The round whose wild rank hand `i` has.
fn round_of(hand: usize) -> u8 {
    u8::try_from(hand + 1).unwrap_or(u8::MAX)
}

impl Game {
    /// Deal the eleven hands; the rest is the stock.
    pub(crate) fn deal_patience(&mut self, mut deck: Vec<Card>, ev: &mut Vec<Event>) {
        self.players = smallvec::smallvec![0];
        self.dealer = 0;
        let mut p = Patience {
            hands: Vec::with_capacity(HANDS),
            closed: vec![None; HANDS],
        };
        ev.push(Event::GameStarted {
            game: self.game_no,
            dealer: 0,
            players: vec![0],
            hand_size: 3,
        });
        for i in 0..HANDS {
            let at = deck.len().saturating_sub(i + 3);
            let mut cards = deck.split_off(at);
            cards.sort_unstable();
            p.hands.push(cards);
        }
        self.stock = deck.into();
        self.split_stock();
        self.patience = Some(p);
        for i in 0..HANDS {
            self.close_if_complete(i, ev);
        }
        self.turn = 0;
        self.begin_turn(Phase::Draw, ev);
    }

    /// Close hand `i` if all its cards fit into melds.
    fn close_if_complete(&mut self, i: usize, ev: &mut Vec<Event>) {
        let Some(p) = self.patience.as_mut() else {
            return;
        };
        let kinds: Vec<CardKind> = p.hands[i].iter().map(|c| c.kind()).collect();
        let Ok(solver) = PartitionSolver::new(&self.rules, Some(round_of(i))) else {
            return;
        };
        if let Ok(best) = solver.solve(&kinds) {
            if best.unmatched.is_empty() && !kinds.is_empty() {
                let cards = std::mem::take(&mut p.hands[i]);
                self.discard.extend(cards);
                p.closed[i] = Some(best.melds.clone());
                ev.push(Event::HandClosed {
                    hand: i,
                    melds: best.melds,
                });
            }
        }
    }

    /// Put the drawn card into hand `hand` and take `out` out of the game.
    pub(crate) fn place_in_hand(
        &mut self,
        seat: usize,
        hand: usize,
        out: CardKind,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.in_play()?;
        let Some(p) = self.patience.as_ref() else {
            return Err(ActionError::PatienceOnly);
        };
        if hand >= HANDS {
            return Err(ActionError::NoSuchHand(hand));
        }
        if p.closed[hand].is_some() {
            return Err(ActionError::HandClosed(hand));
        }
        let mut cards = p.hands[hand].clone();
        cards.extend(self.hands[seat].drain(..));
        let i = cards
            .iter()
            .position(|c| c.kind() == out)
            .ok_or(ActionError::NotInThatHand { card: out, hand })?;
        let removed = cards.remove(i);
        cards.sort_unstable();
        self.discard.push(removed);
        if let Some(p) = self.patience.as_mut() {
            p.hands[hand] = cards;
        }
        ev.push(Event::Placed { hand, out });
        self.close_if_complete(hand, ev);
        let won = self
            .patience
            .as_ref()
            .is_some_and(|p| p.closed.iter().all(Option::is_some));
        if won || self.stock.is_empty() {
            self.end_patience(won, ev);
        } else {
            self.begin_turn(Phase::Draw, ev);
        }
        Ok(())
    }

    /// Score the patience (points: the open hands' cards) and end the match.
    fn end_patience(&mut self, won: bool, ev: &mut Vec<Event>) {
        let open: Vec<(usize, Vec<CardKind>)> = self
            .patience
            .as_ref()
            .map(|p| {
                p.hands
                    .iter()
                    .enumerate()
                    .map(|(i, h)| (i, h.iter().map(|c| c.kind()).collect()))
                    .collect()
            })
            .unwrap_or_default();
        let points: u32 = open
            .iter()
            .flat_map(|(i, h)| {
                h.iter()
                    .map(|&k| card_points(&self.rules, k, Some(round_of(*i))))
            })
            .sum();
        let score = GameScore {
            players: vec![PlayerScore {
                hand_points: points,
                points: i64::from(points),
                adjustments: Vec::new(),
                rating: None,
                won,
            }],
        };
        // A patience is one game: recorded once, the match ends with it.
        let _ = Arc::make_mut(&mut self.sheet).record(&self.rules, score.clone());
        ev.push(Event::GameEnded {
            reason: if won {
                EndReason::WentOut
            } else {
                EndReason::StockExhausted
            },
            winner: won.then_some(0),
            hands: vec![(0, open.into_iter().flat_map(|(_, h)| h).collect())],
            score,
        });
        self.phase = Phase::MatchOver;
        let winners = if won { vec![0] } else { Vec::new() };
        ev.push(Event::MatchEnded { winners });
    }

    /// Listed placements: every open hand, every card it could give up.
    pub(crate) fn place_candidates(&self, seat: usize) -> Vec<crate::Action> {
        let Some(p) = self.patience.as_ref() else {
            return Vec::new();
        };
        let drawn: Vec<CardKind> = self.hands[seat].iter().map(|c| c.kind()).collect();
        let mut out = Vec::new();
        for (i, h) in p.hands.iter().enumerate() {
            if p.closed[i].is_some() {
                continue;
            }
            let mut kinds: Vec<CardKind> = h
                .iter()
                .map(|c| c.kind())
                .chain(drawn.iter().copied())
                .collect();
            kinds.sort_unstable();
            kinds.dedup();
            out.extend(
                kinds
                    .into_iter()
                    .map(|k| crate::Action::Place { hand: i, out: k }),
            );
        }
        out
    }
}
