//! The expert's playouts: a sampled game played on by fast heuristic
//! players until it ends or a horizon is reached, then judged.
//!
//! The fast player follows the heuristic's rules of thumb (go out when it
//! can; open with the best opening unless it holds back for a Hand-Rommé
//! — from the hand's own melds where lay-offs do not count toward the
//! threshold, laying off in the next step of the turn;
//! put down the hand's melds and lay off when that improves the hand;
//! discard the card whose loss hurts least), but it builds each play
//! straight from the solver's answers — [`go_out`](romme_solver::go_out),
//! [`best_opening`](romme_solver::best_opening), the best partition,
//! [`lay_offs`] — instead of listing every legal action
//! and trying each on a copy of the game. That makes a playout several
//! times cheaper, so the expert sees more samples per decision. What the
//! fast player does not handle (claims out of turn, rulesets without a
//! discard pile, concealed play, the patience, an allowed rest, joker
//! exchanges, table rearrangement) and any action the engine refuses fall
//! back to the full heuristic ([`playout_step`]), so every playout move is
//! legal and every ruleset is played.

use romme_core::CardKind;
use romme_core::ruleset::{
    FinalDiscard, LayOff as LayOffRule, LayOffTarget, Limit, MatchEnd, Ruleset,
};
use romme_engine::{Action, DrawSource, Game, Phase};
use romme_solver::multiset::remove;
use romme_solver::{best_opening_with, go_out_with, lay_offs};

use crate::eval::{Eval, Measure, kinds, without};
use crate::heuristic::{
    JOKER_KEEP, LAY_DOWN_REST, PLAY_MARGIN, discard, draw, hold_back, playout_step,
};

/// Hands this short ask the solver whether they can go out in one action;
/// longer ones go out step by step (melds, lay-offs, the discard), which
/// is much cheaper to find.
const GO_OUT_HAND: usize = 3;

/// Turns each seat makes in a playout before it is judged.
pub(crate) const HORIZON_TURNS: usize = 6;

/// Where the match is a single game, winning it is all that counts: a
/// finished playout is worth ±1 (plus this share of the score margin, to
/// prefer a larger win among equal chances), an unfinished one the hands'
/// difference squashed into (−1, 1) by `tanh(difference / HAND_SCALE)`.
/// Judged by points instead, the search traded a higher chance of going
/// out first for fewer points in the hand (`klassisch` with two seats, the
/// same 400 deals: 55.8% of the matches by points, 58.2% this way;
/// see BENCHMARKS.md).
const WIN_MARGIN_WEIGHT: f64 = 1.0 / 1000.0;
/// See [`WIN_MARGIN_WEIGHT`]: a hand about this much better (deadwood
/// points) is worth three quarters of a win.
const HAND_SCALE: f64 = 30.0;

/// Play the sample on from `seat`'s decision; the value for `seat`
/// (higher is better): the real score difference to the best of the
/// others when the game ended within the horizon, else the difference of
/// the hands' values to the best other hand; in a match of one game, both
/// as a chance of winning it (see [`WIN_MARGIN_WEIGHT`]). Against the best
/// rival, not the average: with three or more seats a game lost to one
/// opponent is lost however badly a third one does (with two seats both
/// are the same). `eval` is for the sample's ruleset and round.
pub(crate) fn playout(g: &mut Game, seat: usize, eval: &Eval) -> f64 {
    let game_no = g.sheet().games().len();
    let fast = fast_rules(g.rules()) && !g.is_patience();
    let limit = HORIZON_TURNS * g.seats() * 3;
    for _ in 0..limit {
        if g.phase() == Phase::MatchOver || g.sheet().games().len() > game_no {
            break;
        }
        let Some(turn) = g.turn() else {
            break;
        };
        let quick = if fast { fast_step(g, turn, eval) } else { None };
        if let Some(a) = quick {
            if g.apply(turn, a).is_ok() {
                continue;
            }
        }
        let Some(a) = playout_step(g, turn) else {
            break;
        };
        if g.apply(turn, a).is_err() {
            break;
        }
    }
    judge(g, seat, game_no, eval)
}

/// The value of the played-on sample for `seat`.
fn judge(g: &Game, seat: usize, game_no: usize, eval: &Eval) -> f64 {
    let win_only = single_game(g.rules());
    if let Some(score) = g.sheet().games().get(game_no) {
        // The game ended: the real score difference.
        let mine = score.players.get(seat).map_or(0, |p| p.points) as f64;
        let best = score
            .players
            .iter()
            .enumerate()
            .filter(|(s, _)| *s != seat)
            .map(|(_, p)| p.points as f64)
            .reduce(f64::min)
            .unwrap_or(mine);
        let margin = best - mine;
        return if win_only {
            // ±1 for a win or a loss, 0 for a tie (unlike `f64::signum`).
            let sign = f64::from(i8::from(margin > 0.0) - i8::from(margin < 0.0));
            sign + margin * WIN_MARGIN_WEIGHT
        } else {
            margin
        };
    }
    // Judge the hands.
    let value = |s: usize| eval.hand(&kinds(g.hand(s).unwrap_or(&[])));
    let mine = value(seat);
    let best = (0..g.seats())
        .filter(|&s| s != seat && g.hand(s).is_some_and(|h| !h.is_empty()))
        .map(value)
        .reduce(f64::min)
        .unwrap_or(0.0);
    if win_only {
        ((best - mine) / HAND_SCALE).tanh()
    } else {
        best - mine
    }
}

/// The match is one game: winning it is the whole aim.
pub(crate) fn single_game(rules: &Ruleset) -> bool {
    rules.match_rules.end == MatchEnd::Games && rules.match_rules.games == 1
}

/// Rulesets the fast player knows: a discard pile to draw from and to end
/// the turn on.
fn fast_rules(rules: &Ruleset) -> bool {
    rules.turn.discard_pile
}

/// The fast player's move for `seat` on turn; `None` where it leaves the
/// decision to the full heuristic.
fn fast_step(g: &Game, seat: usize, eval: &Eval) -> Option<Action> {
    if g.turn() != Some(seat) || g.claims().is_some() {
        return None;
    }
    let hand = kinds(g.hand(seat)?);
    match g.phase() {
        Phase::Draw => {
            if eval.rules().stock.piles > 1 {
                return None;
            }
            // The draws a ruleset with one stock and a discard pile can
            // allow, unchecked: should the engine refuse the choice, the
            // full heuristic decides from the checked list, so the move is
            // the heuristic's either way.
            let top = g.discard_top();
            let mut legal = vec![Action::Draw {
                from: DrawSource::Stock,
            }];
            if top.is_some() {
                legal.push(Action::Draw {
                    from: DrawSource::Discard,
                });
            }
            Some(draw(g, top, &legal, eval, &hand))
        }
        Phase::Play if eval.rules().concealed.enabled => concealed_play(g, seat, eval, &hand),
        Phase::Play => play(g, seat, eval, &hand),
        Phase::MatchOver => None,
    }
}

/// After drawing: go out, else the best improving play, else a discard.
fn play(g: &Game, seat: usize, eval: &Eval, hand: &[CardKind]) -> Option<Action> {
    let rules = eval.rules();
    let opened = g.has_opened(seat);
    let table = g.table_melds();
    let plan = if hand.len() <= GO_OUT_HAND {
        // No solver only where the ruleset and round have none (go_out
        // would fail the same way).
        eval.solver()
            .and_then(|solver| go_out_with(&solver, &table, hand, opened).ok().flatten())
    } else {
        None
    };
    if let Some(plan) = plan {
        if !plan.rest.is_empty() {
            return None; // calling Rommé with a rest: the heuristic's call
        }
        if let Some(a) = g.plan_action(&plan.melds, &plan.lay_offs) {
            return Some(a);
        }
        if let Some(l) = plan.lay_offs.iter().find(|l| l.is_exchange()) {
            // A way out through a joker exchange, which is an action of its
            // own: exchange first (the exchange's natural card comes first
            // among the lay-off's cards), then go out from the new hand.
            return l
                .cards
                .first()
                .map(|&card| Action::ExchangeJoker { meld: l.meld, card });
        }
        if !plan.melds.is_empty() || !plan.lay_offs.is_empty() {
            return None; // the plan is no action the engine takes
        }
        if let Some(card) = plan.discard {
            return Some(Action::Discard { card });
        }
    }
    if !g.pending_cards(seat).is_empty() {
        // The card taken from the discard pile (or a freed joker) must be
        // melded first: of the checked plays that meld it, the one leaving
        // the best hand; the full heuristic where only a rearrangement of
        // the table could.
        return g
            .pending_plays(seat)
            .into_iter()
            .map(|a| {
                let mut after = hand.to_vec();
                remove(&mut after, &a.cards_put_down());
                (eval.hand(&after), a)
            })
            .min_by(|x, y| x.0.total_cmp(&y.0))
            .map(|(_, a)| a);
    }
    let view = g.view(Some(seat));
    let base = eval.hand(hand);
    // Without a final discard a play may not leave one card, and one that
    // leaves two leaves one after the discard: keep none or three.
    // Where the last card is discarded, a play must leave one to discard (a
    // joker only where jokers may be discarded); going out was settled above.
    let stranded = |after: &[CardKind]| match rules.going_out.final_discard {
        FinalDiscard::Never => after.len() == 1 || after.len() == 2,
        FinalDiscard::Required => {
            after.is_empty()
                || (!rules.jokers.discard_allowed && after.iter().all(|c| c.is_joker()))
        }
        FinalDiscard::Optional => false,
    };
    let better = |after: &[CardKind], extra: f64| {
        !stranded(after) && eval.hand(after) + extra < base - PLAY_MARGIN
    };
    if !opened {
        if !hold_back(g, &view, seat, eval, hand) {
            // Lay-offs that do not count toward the threshold wait until
            // the melds are down (the next step of the same turn lays off
            // what helps): the opening is then sought among the hand's own
            // melds only, instead of with every combination of lay-offs.
            let own_only = !rules.opening.lay_offs_count && !rules.opening.table_counts;
            let seen: &[Vec<romme_core::MeldCard>] = if own_only { &[] } else { &table };
            let found = eval
                .solver()
                .and_then(|solver| best_opening_with(&solver, seen, hand).ok().flatten());
            if let Some(plan) = found {
                if better(&plan.left, 0.0) {
                    if let Some(a) = g.plan_action(&plan.melds, &plan.lay_offs) {
                        return Some(a);
                    }
                }
            }
        }
    } else {
        let p = eval.partition(hand);
        if let Some(p) = &p {
            let mut melds = p.melds.clone();
            let mut after = p.unmatched.clone();
            if stranded(&after) {
                // Hold back the shortest meld, to go out with it later.
                melds.sort_by_key(Vec::len);
                if !melds.is_empty() {
                    after.extend(melds.remove(0).iter().map(|c| c.card));
                }
            }
            if !melds.is_empty() && better(&after, 0.0) {
                return Some(Action::Meld {
                    melds,
                    lay_offs: Vec::new(),
                });
            }
        }
        if rules.turn.lay_off != LayOffRule::Never {
            // Lay off from the cards no meld of the hand uses.
            let pool = p.map_or_else(|| hand.to_vec(), |p| p.unmatched);
            let found = best_lay_off(g, seat, eval, hand, &pool, &table, &view.table, &better);
            if let Some(a) = found {
                return Some(a);
            }
        }
    }
    discard(&view, seat, &discards(&distinct(hand)), eval, hand)
}

/// The hand's distinct cards, sorted.
fn distinct(hand: &[CardKind]) -> Vec<CardKind> {
    let mut cards = hand.to_vec();
    cards.sort_unstable();
    cards.dedup();
    cards
}

/// One discard per card of `cards`.
fn discards(cards: &[CardKind]) -> Vec<Action> {
    cards.iter().map(|&card| Action::Discard { card }).collect()
}

/// Concealed play (Five Crowns): lay the hand down, with the discard that
/// leaves the least deadwood, where that is allowed — going out (less
/// than `concealed.lay_down_below` left), or any lay-down in the last turns
/// after someone went out — and at most 10 points would stay (the
/// heuristic's rule); else discard. Knocking rules are the heuristic's
/// call.
fn concealed_play(g: &Game, seat: usize, eval: &Eval, hand: &[CardKind]) -> Option<Action> {
    let rules = eval.rules();
    if rules.going_out.final_discard != FinalDiscard::Required
        || rules.concealed.knock_below != Limit::None
    {
        return None;
    }
    let cards = distinct(hand);
    let ending = g.last_turns().is_some();
    let below = u32::from(rules.concealed.lay_down_below);
    let allowed =
        |left: f64| left <= f64::from(LAY_DOWN_REST) && (ending || left < f64::from(below));
    if let Some((i, left)) = eval.best_removal(hand, &cards, Measure::Deadwood, |_, v| v) {
        if allowed(left) {
            let d = cards[i];
            if let Some(p) = eval.partition(&without(hand, d)) {
                if !p.melds.is_empty() {
                    return Some(Action::LayDown {
                        melds: p.melds,
                        discard: Some(d),
                    });
                }
            }
        }
    }
    let view = g.view(Some(seat));
    discard(&view, seat, &discards(&cards), eval, hand)
}

/// The lay-off of cards from `pool` (without a joker exchange) that
/// improves the hand most.
#[allow(clippy::too_many_arguments)]
fn best_lay_off(
    g: &Game,
    seat: usize,
    eval: &Eval,
    hand: &[CardKind],
    pool: &[CardKind],
    table: &[Vec<romme_core::MeldCard>],
    owners: &[romme_engine::TableMeld],
    better: &dyn Fn(&[CardKind], f64) -> bool,
) -> Option<Action> {
    let rules = eval.rules();
    let own_only = rules.turn.lay_off_target == LayOffTarget::Own;
    let options = lay_offs(rules, eval.round(), table, pool).ok()?;
    // (value, extra badness, lay-off, hand after)
    let mut best: Option<(f64, f64, romme_solver::LayOff, Vec<CardKind>)> = None;
    for l in options {
        if l.is_exchange() || (own_only && owners.get(l.meld).is_none_or(|m| m.owner != seat)) {
            continue;
        }
        let mut after = hand.to_vec();
        if !remove(&mut after, &l.cards) {
            continue;
        }
        // A joker is not laid off alone while the hand is long.
        let extra = if l.cards.iter().all(|c| c.is_joker()) && after.len() > 3 {
            JOKER_KEEP
        } else {
            0.0
        };
        let v = eval.hand(&after) + extra;
        if best.as_ref().is_none_or(|(b, ..)| v < *b) {
            best = Some((v, extra, l, after));
        }
    }
    let (_, extra, l, after) = best?;
    if !better(&after, extra) {
        return None;
    }
    g.plan_action(&[], std::slice::from_ref(&l))
}

#[cfg(test)]
mod tests {
    use romme_core::ruleset::presets;

    use super::*;

    /// A match of `name` played by the heuristic from `seed` until its
    /// first game ends, or for `actions` actions.
    fn played(name: &str, seats: usize, seed: u64, actions: Option<usize>) -> Game {
        let rules = presets::load(name).expect("preset").expect("loads");
        let mut g = Game::new(rules, seats, seed).expect("game");
        let mut n = 0;
        while g.sheet().games().is_empty() && actions.is_none_or(|k| n < k) {
            let Some(turn) = g.turn() else {
                break;
            };
            let Some(a) = playout_step(&g, turn) else {
                break;
            };
            g.apply(turn, a).expect("the heuristic plays legally");
            n += 1;
        }
        g
    }

    /// Points of each seat in the first game.
    fn points(g: &Game) -> Vec<f64> {
        g.sheet().games()[0]
            .players
            .iter()
            .map(|p| p.points as f64)
            .collect()
    }

    #[test]
    fn a_single_game_match_is_judged_by_who_wins_it() {
        for seed in 1..=3 {
            let g = played("klassisch", 3, seed, None);
            let eval = Eval::for_game(&g);
            let pts = points(&g);
            for seat in 0..3 {
                let best = (0..3)
                    .filter(|&s| s != seat)
                    .map(|s| pts[s])
                    .fold(f64::MAX, f64::min);
                let margin = best - pts[seat];
                let v = judge(&g, seat, 0, &eval);
                // A win is worth 1, a loss −1, a tie 0, each plus a small
                // share of the margin.
                let want = if margin > 0.0 {
                    1.0 + margin / 1000.0
                } else if margin < 0.0 {
                    -1.0 + margin / 1000.0
                } else {
                    0.0
                };
                assert!((v - want).abs() < 1e-9, "seat {seat}: {v} against {want}");
                assert!(v.abs() >= 1.0 && v.abs() < 2.0, "seat {seat}: {v}");
            }
        }
        // Unfinished: the hands, squashed below a win.
        let g = played("klassisch", 3, 4, Some(12));
        assert!(g.sheet().games().is_empty());
        let eval = Eval::for_game(&g);
        for seat in 0..3 {
            let v = judge(&g, seat, 0, &eval);
            assert!(v.abs() < 1.0, "seat {seat}: {v}");
        }
    }

    #[test]
    fn a_longer_match_is_judged_by_points() {
        // Five Crowns: eleven rounds; the first round that ended with the
        // seats apart by more than a point.
        let g = (1..20)
            .map(|seed| played("koenigs", 2, seed, None))
            .find(|g| {
                let pts = points(g);
                (pts[1] - pts[0]).abs() > 1.0
            })
            .expect("a round with a margin");
        let eval = Eval::for_game(&g);
        let pts = points(&g);
        assert_eq!(judge(&g, 0, 0, &eval), pts[1] - pts[0]);
        assert_eq!(judge(&g, 1, 0, &eval), pts[0] - pts[1]);
    }
}
