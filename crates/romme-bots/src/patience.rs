//! Moves in the solo patience: every placement scored on the hands as they
//! lie (the heuristic takes the best), and the expert's one-draw lookahead.
//!
//! The patience's only hidden information is the order of the stock, and
//! the next card is drawn from the unseen cards, each as likely as its
//! share of them. So the expert can weigh a placement exactly one draw
//! ahead without sampling: for the heuristic's best few placements
//! ([`CANDIDATES`], by [`PatienceEval`]), the badness after the next draw
//! when that draw is placed greedily, averaged over every unseen card. A
//! placement that keeps a hand open to more of the cards still to come
//! wins over one that is as good now. Only hands a card could help are
//! tried for it (a wild card or joker, or a card sharing a rank or suit
//! with the hand); placing it nowhere (taking it out) is always possible.

use romme_core::CardKind;
use romme_engine::{Action, SeatState, View};

use crate::eval::PatienceEval;

/// Placements weighed one draw ahead.
const CANDIDATES: usize = 5;

/// Every legal placement of the drawn card with the badness of the whole
/// patience after it (the open hands' badness summed; a hand laid down
/// counts nothing), the hand it changes and that hand's
/// cards after it, in the order of `legal`. Worked out on the hands as they
/// lie, without trying each placement on a copy of the game. Empty where
/// `view` is not a patience waiting for a placement of `drawn`.
pub(crate) fn placements<'a>(
    eval: &PatienceEval,
    view: &View,
    drawn: CardKind,
    legal: &'a [Action],
) -> Placements<'a> {
    let Some(p) = view.patience.as_ref() else {
        return Placements::default();
    };
    let open: Vec<Option<Vec<CardKind>>> = p
        .hands
        .iter()
        .zip(&p.closed)
        .map(|(h, c)| c.is_none().then(|| h.clone()))
        .collect();
    let scores: Vec<f64> = open
        .iter()
        .enumerate()
        .map(|(i, h)| h.as_ref().map_or(0.0, |h| eval.hand(i, h)))
        .collect();
    let list = legal
        .iter()
        .filter_map(|a| {
            let Action::Place { hand, out } = a else {
                return None;
            };
            let mut h = open.get(*hand)?.clone()?;
            h.push(drawn);
            let at = h.iter().position(|k| k == out)?;
            h.remove(at);
            // A hand whose cards all meld is laid down: it counts nothing.
            let s = eval.hand(*hand, &h);
            let total = (0..scores.len())
                .map(|j| if j == *hand { s } else { scores[j] })
                .sum();
            Some(Placement {
                total,
                action: a,
                hand: *hand,
                cards: h,
                score: s,
            })
        })
        .collect();
    Placements { open, scores, list }
}

/// The placements of a drawn card (see [`placements`]).
#[derive(Default)]
pub(crate) struct Placements<'a> {
    /// Each hand's cards while it is open.
    open: Vec<Option<Vec<CardKind>>>,
    /// Each hand's badness now (0 once laid down).
    scores: Vec<f64>,
    /// The legal placements, in the legal list's order.
    pub(crate) list: Vec<Placement<'a>>,
}

/// One placement and what it leaves.
pub(crate) struct Placement<'a> {
    /// The patience's badness after it.
    pub(crate) total: f64,
    /// The action.
    pub(crate) action: &'a Action,
    /// The hand it changes, its cards and its badness after it.
    hand: usize,
    cards: Vec<CardKind>,
    score: f64,
}

impl<'a> Placements<'a> {
    /// The heuristic's choice: the first placement with the least badness.
    pub(crate) fn best(&self) -> Option<&'a Action> {
        let mut best: Option<&Placement<'a>> = None;
        for p in &self.list {
            if best.is_none_or(|b| p.total < b.total) {
                best = Some(p);
            }
        }
        best.map(|p| p.action)
    }
}

/// The placement with the least expected badness after the next draw;
/// `None` where the state is not a patience waiting for a placement.
pub(crate) fn lookahead(state: &SeatState, legal: &[Action]) -> Option<Action> {
    let [drawn] = state.hand() else {
        return None;
    };
    let rules = state.rules();
    let eval = PatienceEval::new(rules);
    let Placements {
        open,
        scores,
        list: mut placements,
    } = placements(&eval, &state.view(), drawn.kind(), legal);
    if placements.is_empty() {
        return None;
    }
    // The heuristic's order (stable: the legal list's order among equals).
    // Ranked by the badness now taken as the sum before it with the changed
    // hand's part replaced (the same order as `total` up to rounding).
    let sum: f64 = scores.iter().sum();
    for p in &mut placements {
        p.total = sum - scores[p.hand] + p.score;
    }
    placements.sort_by(|a, b| a.total.total_cmp(&b.total));
    placements.truncate(CANDIDATES);
    let unseen = counts(state.unseen().iter().map(|c| c.kind()));
    let n: usize = unseen.iter().map(|(_, k)| k).sum();
    if n == 0 {
        return placements.first().map(|c| c.action.clone());
    }
    let mut best: Option<(f64, f64, &Action)> = None;
    for p in &placements {
        let mut hands = open.clone();
        let mut sc = scores.clone();
        sc[p.hand] = p.score;
        // A hand whose cards all meld is laid down.
        hands[p.hand] = (p.score > 0.0).then(|| p.cards.clone());
        let mut expected = 0.0;
        for (u, k) in &unseen {
            let gain = best_gain(&eval, rules, &hands, &sc, *u);
            expected += (*k as f64) * (p.total + gain);
        }
        expected /= n as f64;
        if best.is_none_or(|(e, t, _)| expected < e || (expected == e && p.total < t)) {
            best = Some((expected, p.total, p.action));
        }
    }
    best.map(|(_, _, a)| a.clone())
}

/// The greatest fall of the badness that placing card `u` can make (0:
/// taking it out of the game changes nothing).
fn best_gain(
    eval: &PatienceEval,
    rules: &romme_core::ruleset::Ruleset,
    hands: &[Option<Vec<CardKind>>],
    scores: &[f64],
    u: CardKind,
) -> f64 {
    let mut best = 0.0f64;
    for (j, h) in hands.iter().enumerate() {
        let Some(h) = h else { continue };
        let wild_here = rules
            .round_wild_rank(j as u8 + 1)
            .is_some_and(|r| u.face().is_some_and(|f| f.rank == r));
        let related = match u.face() {
            None => true,
            Some(f) => {
                wild_here
                    || h.iter().any(|k| {
                        k.face()
                            .is_none_or(|g| g.rank == f.rank || g.suit == f.suit)
                    })
            }
        };
        if !related {
            continue;
        }
        let mut with = h.clone();
        with.push(u);
        let mut tried: Vec<CardKind> = Vec::with_capacity(with.len());
        for x in h {
            if tried.contains(x) {
                continue;
            }
            tried.push(*x);
            let mut next = with.clone();
            if let Some(at) = next.iter().position(|k| k == x) {
                next.remove(at);
            }
            best = best.min(eval.hand(j, &next) - scores[j]);
        }
    }
    best
}

/// Each kind with its number of copies, in order.
fn counts(kinds: impl Iterator<Item = CardKind>) -> Vec<(CardKind, usize)> {
    let mut all: Vec<CardKind> = kinds.collect();
    all.sort_unstable();
    let mut out: Vec<(CardKind, usize)> = Vec::new();
    for k in all {
        match out.last_mut() {
            Some((c, n)) if *c == k => *n += 1,
            _ => out.push((k, 1)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use romme_core::ruleset::presets;
    use romme_engine::{Game, Phase};

    use super::*;

    /// Played through whole patiences, the lookahead answers every
    /// placement with a legal one and leaves every other decision (the
    /// draws) to the expert; outside the patience it answers nothing.
    #[test]
    fn the_lookahead_places_legally_through_whole_patiences() {
        let rules = presets::load("koenigs-solo")
            .expect("preset")
            .expect("loads");
        let mut placed = 0;
        for seed in 1..=3u64 {
            let mut game = Game::new(rules.clone(), 1, seed).expect("game");
            while game.phase() != Phase::MatchOver {
                let state = game.seat_state(0);
                let legal = state.legal_actions();
                let action = match lookahead(&state, &legal) {
                    Some(a) => {
                        assert!(legal.contains(&a), "{a:?} is not listed");
                        placed += 1;
                        a
                    }
                    None => {
                        assert!(
                            !legal.iter().any(|a| matches!(a, Action::Place { .. })),
                            "a placement was left to the fallback"
                        );
                        legal[0].clone()
                    }
                };
                game.apply(0, action).expect("legal");
            }
        }
        assert!(placed >= 3 * 20, "only {placed} placements");
        let open = presets::load("offen").expect("preset").expect("loads");
        let game = Game::new(open, 2, 1).expect("game");
        let state = game.seat_state(game.turn().expect("turn"));
        assert_eq!(lookahead(&state, &state.legal_actions()), None);
    }
}
