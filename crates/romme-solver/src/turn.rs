//! Turn questions: the best opening a hand can make, whether it can go out
//! this turn (with lay-offs, a final discard, an allowed rest), and
//! Hand-Rommé. Built on lay-off bundles ([`crate::layoff`]) and the
//! partition search with an opening goal ([`crate::partition::Goal`]).
//!
//! Readings:
//! * In the opening turn cards may be laid off once the threshold is
//!   reached (`004` 6); they count toward it only with `opening.lay_offs_count`.
//! * The best opening leaves the fewest penalty points in the hand, keeping
//!   a card for the discard when there is a discard pile; ties: more cards
//!   put down, then more opening points.
//! * Going out: every card melded or laid off except the final discard
//!   (`going_out.final_discard`), or a rest worth at most
//!   `going_out.rest_allowed` (concealed play: less than
//!   `concealed.lay_down_below`). A joker may not be the discard where the
//!   ruleset forbids discarding jokers.

use std::borrow::Cow;
use std::ops::ControlFlow;

use romme_core::card::CardKind;
use romme_core::meld::{Declaration, MeldChecker};
use romme_core::notation::MeldCard;
use romme_core::penalty::card_points;
use romme_core::ruleset::{
    FinalDiscard, JokerOpeningValue, LayOff as LayOffRule, OpeningCount, Ruleset,
};
use serde::Serialize;

use crate::layoff::{
    LayOff, MeldLayOffs, exchange_relaxation, laid_off_among, laid_off_without_exchanges,
    laid_value_bound,
};
use crate::multiset::remove;
use crate::partition::{Goal, PartitionSolver, SolveError};

/// An opening: the melds to put down, the lay-offs, and what stays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpeningPlan {
    /// New melds, declared.
    pub melds: Vec<Vec<MeldCard>>,
    /// Lay-offs on table melds (applied in order).
    pub lay_offs: Vec<LayOff>,
    /// Opening points counted toward the threshold.
    pub points: u32,
    /// Cards that stay in the hand.
    pub left: Vec<CardKind>,
    /// Their penalty points.
    pub deadwood: u32,
}

/// A way to go out this turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GoOut {
    /// New melds, declared.
    pub melds: Vec<Vec<MeldCard>>,
    /// Lay-offs on table melds (applied in order).
    pub lay_offs: Vec<LayOff>,
    /// The final discard, if any.
    pub discard: Option<CardKind>,
    /// Cards kept as an allowed rest ("Rommé bieten").
    pub rest: Vec<CardKind>,
    /// Penalty points of the rest.
    pub rest_points: u32,
    /// This is a Hand-Rommé (the player had not melded before).
    pub hand_romme: bool,
}

/// Ranking of openings: less deadwood, then more cards put down, then more points.
type OpeningRank = (u32, std::cmp::Reverse<usize>, std::cmp::Reverse<u32>);

/// Most combinations of lay-offs looked at (a bound for absurd tables; a
/// hand of a few cards meets a few dozen).
const MAX_COMBOS: usize = 4096;

/// Every choice of at most one lay-off per table meld that the hand can
/// afford (lay-offs recomputed from what is left, so a freed joker can be
/// laid off elsewhere), with the hand left afterwards, handed to `visit`
/// until it breaks: meld by meld, each meld's lay-offs in turn and then
/// none, at most [`MAX_COMBOS`] of them.
/// `checked`, when given, holds what [`MeldChecker::check`] gives for each
/// table meld (the melds are not checked again).
fn each_combo(
    rules: &Ruleset,
    round: Option<u8>,
    (table, checked): (&[Vec<MeldCard>], Option<&[Declaration]>),
    hand: &[CardKind],
    allow: bool,
    mut visit: impl FnMut(&[LayOff], &[CardKind]) -> Result<ControlFlow<()>, SolveError>,
) -> Result<(), SolveError> {
    if !allow {
        return visit(&[], hand).map(|_| ());
    }
    let checker = MeldChecker::new(rules, round)?;
    checker.check_cards(hand)?;
    let mut on_melds = Vec::with_capacity(table.len());
    for (i, meld) in table.iter().enumerate() {
        on_melds.push(match checked.and_then(|c| c.get(i)) {
            Some(base) => MeldLayOffs::checked(&checker, i, base.clone()),
            None => MeldLayOffs::new(&checker, i, meld)?,
        });
    }
    let mut left = MAX_COMBOS;
    let mut walk = ComboWalk {
        rules,
        chosen: Vec::new(),
        left: &mut left,
        visit: &mut visit,
    };
    walk.from(&mut on_melds, hand.to_vec()).map(|_| ())
}

/// The walk of [`each_combo`]: the lay-offs chosen on the melds before,
/// and how many more combinations may be looked at.
struct ComboWalk<'w> {
    rules: &'w Ruleset,
    chosen: Vec<LayOff>,
    left: &'w mut usize,
    visit: &'w mut Visit<'w>,
}

/// What [`each_combo`] hands each combination to (the lay-offs chosen and
/// the hand left); it breaks to stop the walk.
type Visit<'v> = dyn FnMut(&[LayOff], &[CardKind]) -> Result<ControlFlow<()>, SolveError> + 'v;

impl ComboWalk<'_> {
    /// The combinations of lay-offs on `on_melds` (the melds still to
    /// choose for) with `pool` left.
    fn from(
        &mut self,
        on_melds: &mut [MeldLayOffs<'_>],
        pool: Vec<CardKind>,
    ) -> Result<ControlFlow<()>, SolveError> {
        let Some((on_meld, later)) = on_melds.split_first_mut() else {
            if *self.left == 0 {
                return Ok(ControlFlow::Break(()));
            }
            *self.left -= 1;
            return (self.visit)(&self.chosen, &pool);
        };
        let ends_plays = self.rules.jokers.exchange_ends_plays;
        for l in on_meld.of(&pool) {
            if ends_plays && l.is_exchange() {
                continue;
            }
            let mut rest = pool.clone();
            if remove(&mut rest, &l.cards) {
                rest.extend(l.freed.iter().copied());
                self.chosen.push(l.clone());
                let flow = self.from(later, rest)?;
                self.chosen.pop();
                if flow.is_break() {
                    return Ok(flow);
                }
            }
        }
        self.from(later, pool)
    }
}

fn goal_for(rules: &Ruleset, extra: u32, keep_one: bool) -> Goal {
    Goal {
        threshold: u32::from(rules.opening.threshold),
        single_meld: rules.opening.count == OpeningCount::SingleMeld,
        extra,
        joker_zero: rules.opening.joker_value == JokerOpeningValue::Zero,
        naturals_only: rules.opening.naturals_only,
        keep_one,
    }
}

fn table_value(checker: &MeldChecker, table: &[Vec<MeldCard>]) -> Result<u32, SolveError> {
    table
        .iter()
        .map(|m| checker.check(m).map(|d| d.value))
        .sum()
}

/// The best opening `hand` can make with `table` on the table, or `None`
/// when no opening reaches the threshold.
pub fn best_opening(
    rules: &Ruleset,
    round: Option<u8>,
    table: &[Vec<MeldCard>],
    hand: &[CardKind],
) -> Result<Option<OpeningPlan>, SolveError> {
    opening_search(&PartitionSolver::new(rules, round)?, table, hand, true)
}

/// [`best_opening`] with a partition solver built beforehand (its ruleset
/// and round): for callers that ask many times, such as the expert's
/// playouts, building the solver's tables each time cost more than many
/// answers.
pub fn best_opening_with(
    solver: &PartitionSolver,
    table: &[Vec<MeldCard>],
    hand: &[CardKind],
) -> Result<Option<OpeningPlan>, SolveError> {
    opening_search(solver, table, hand, true)
}

/// The caller's solver when it gave one, else one built for `rules` and
/// `round`.
fn solver_for<'g, 'r>(
    given: Option<&'g PartitionSolver<'r>>,
    rules: &'r Ruleset,
    round: Option<u8>,
) -> Result<Cow<'g, PartitionSolver<'r>>, SolveError> {
    Ok(match given {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(PartitionSolver::new(rules, round)?),
    })
}

/// [`best_opening`], with or without the check that settles a hand that
/// cannot open before the lay-off combinations are listed (the tests
/// compare the two).
fn opening_search(
    solver: &PartitionSolver,
    table: &[Vec<MeldCard>],
    hand: &[CardKind],
    precheck: bool,
) -> Result<Option<OpeningPlan>, SolveError> {
    let (rules, round) = (solver.rules(), solver.round());
    let checker = solver.checker();
    checker.check_cards(hand)?;
    let table_points = if rules.opening.table_counts {
        table_value(checker, table)?
    } else {
        0
    };
    let allow = rules.turn.lay_off != LayOffRule::Never;
    // Every combination below meets its goal with a hand no larger than the
    // hand plus the table's wild cards a lay-off could free (those standing
    // for a card the hand holds: an exchange gives that card for them);
    // more cards never make an opening impossible. Where lay-offs count
    // toward the threshold, a combination's lay-offs add at most the bound
    // below. So if the widest hand, credited with that bound, opens no way,
    // none does, and the combinations need not be listed (most turns of a
    // player who has not opened yet).
    if precheck && allow && !table.is_empty() {
        let mut widest = hand.to_vec();
        widest.extend(
            table
                .iter()
                .flatten()
                .filter(|c| {
                    c.stands_for
                        .is_some_and(|f| hand.contains(&CardKind::Natural(f)))
                })
                .map(|c| c.card),
        );
        // What the lay-offs add, at most: each card that could join a meld
        // once, at its highest value. (The most one lay-off on each meld can
        // add, tighter where a card fits several melds, cost more than it
        // saved: 7 % more instructions in `raeuber` playouts.)
        let laid = if rules.opening.lay_offs_count {
            laid_value_bound(checker, table, &widest)?
        } else {
            0
        };
        let goal = goal_for(rules, laid + table_points, rules.turn.discard_pile);
        if solver.solve_goal(&widest, goal)?.is_none() {
            return Ok(None);
        }
    }
    let mut best: Option<(OpeningPlan, OpeningRank)> = None;
    each_combo(rules, round, (table, None), hand, allow, |chosen, pool| {
        let laid: u32 = if rules.opening.lay_offs_count {
            chosen.iter().map(|l| l.value).sum()
        } else {
            0
        };
        let goal = goal_for(rules, laid + table_points, rules.turn.discard_pile);
        let Some((p, points)) = solver.solve_goal(pool, goal)? else {
            return Ok(ControlFlow::Continue(()));
        };
        let placed = p.melded() + chosen.iter().map(|l| l.cards.len()).sum::<usize>();
        let key = (
            p.deadwood,
            std::cmp::Reverse(placed),
            std::cmp::Reverse(points),
        );
        if best.as_ref().is_none_or(|(_, k)| key < *k) {
            let plan = OpeningPlan {
                deadwood: p.deadwood,
                left: p.unmatched,
                melds: p.melds,
                lay_offs: chosen.to_vec(),
                points,
            };
            best = Some((plan, key));
        }
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(best.map(|(p, _)| p))
}

/// Whether and how `hand` can go out this turn. `opened` says whether the
/// player has melded before (otherwise going out is a Hand-Rommé, or an
/// opening that goes out at once).
pub fn go_out(
    rules: &Ruleset,
    round: Option<u8>,
    table: &[Vec<MeldCard>],
    hand: &[CardKind],
    opened: bool,
) -> Result<Option<GoOut>, SolveError> {
    go_out_search(rules, round, None, (table, None), hand, opened, true)
}

/// [`go_out`] with a partition solver built beforehand (its ruleset and
/// round), for callers that ask many times.
pub fn go_out_with(
    solver: &PartitionSolver,
    table: &[Vec<MeldCard>],
    hand: &[CardKind],
    opened: bool,
) -> Result<Option<GoOut>, SolveError> {
    go_out_given(solver, (table, None), hand, opened)
}

/// [`go_out_with`] for a table whose melds were checked before: `checked[i]`
/// must be what [`MeldChecker::check`] gives for `table[i]` (a game keeps
/// them; checking every table meld again was a good part of each
/// question). The same answer as [`go_out_with`].
pub fn go_out_checked(
    solver: &PartitionSolver,
    table: &[Vec<MeldCard>],
    checked: &[Declaration],
    hand: &[CardKind],
    opened: bool,
) -> Result<Option<GoOut>, SolveError> {
    go_out_given(solver, (table, Some(checked)), hand, opened)
}

/// The way out with a solver built beforehand and the table's melds
/// checked or not.
fn go_out_given(
    solver: &PartitionSolver,
    table: (&[Vec<MeldCard>], Option<&[Declaration]>),
    hand: &[CardKind],
    opened: bool,
) -> Result<Option<GoOut>, SolveError> {
    let (rules, round) = (solver.rules(), solver.round());
    go_out_search(rules, round, Some(solver), table, hand, opened, true)
}

/// [`go_out`], with or without the shortcuts (`precheck`; the tests
/// compare the two): the checks that settle a hand before the lay-off
/// combinations are walked, and the stop at the first way out that leaves
/// nothing.
#[allow(clippy::too_many_arguments)]
fn go_out_search(
    rules: &Ruleset,
    round: Option<u8>,
    given: Option<&PartitionSolver>,
    (table, checked): (&[Vec<MeldCard>], Option<&[Declaration]>),
    hand: &[CardKind],
    opened: bool,
    precheck: bool,
) -> Result<Option<GoOut>, SolveError> {
    let checker = MeldChecker::new(rules, round)?;
    checker.check_cards(hand)?;
    let hr = &rules.hand_romme;
    let hand_romme = !opened && hr.enabled;
    let allow =
        rules.turn.lay_off != LayOffRule::Never && (opened || !hr.enabled || hr.lay_offs_allowed);
    let rest_limit = if rules.concealed.enabled {
        u32::from(rules.concealed.lay_down_below).saturating_sub(1)
    } else {
        u32::from(rules.going_out.rest_allowed)
    };
    let table_points = if rules.opening.table_counts {
        table_value(&checker, table)?
    } else {
        0
    };
    // Every card but the discard (and cards worth nothing, which may stay)
    // must go into a new meld or a lay-off. A card in no lay-off that fits
    // no meld with the rest of the hand (in a hand too short for a meld of
    // its own: every card) stays whatever is chosen: with more of those
    // than discards, no combination helps. Where an exchange could free a
    // wild card, the same is asked of the hand with every wild card it
    // could free ([`exchange_relaxation`]; an exchanged card is put down);
    // not decided here where a rest is allowed; for longer hands only with
    // the table checked beforehand and a solver at hand (then the check
    // costs little against the combinations).
    let short = hand.len() < usize::from(rules.melds.min_len);
    let long_check = given.zip(checked).filter(|_| !short);
    if precheck && rest_limit == 0 && (short || long_check.is_some()) {
        let mut uncovered: Vec<CardKind> = match long_check {
            Some((solver, _)) => solver
                .certain_deadwood(hand)?
                .into_iter()
                .map(CardKind::Natural)
                .collect(),
            None => hand.to_vec(),
        };
        uncovered.retain(|&c| card_points(rules, c, round) > 0);
        let discards = usize::from(rules.going_out.final_discard != FinalDiscard::Never);
        // The lay-offs are looked at only when they could decide: with no
        // more such cards than discards, nothing is ruled out.
        if uncovered.len() > discards {
            // The cards of `uncovered` some lay-off puts down; `None` when
            // an exchange could free a wild card.
            let laid = match (allow, checked) {
                (false, _) => Some(Vec::new()),
                (true, Some(checked)) => laid_off_among(&checker, checked, hand, &uncovered),
                (true, None) => {
                    let checked: Vec<Declaration> = table
                        .iter()
                        .map(|m| checker.check(m))
                        .collect::<Result<_, _>>()?;
                    laid_off_among(&checker, &checked, hand, &uncovered)
                }
            };
            match laid {
                Some(laid) => {
                    uncovered.retain(|c| !laid.contains(c));
                    if uncovered.len() > discards {
                        return Ok(None);
                    }
                }
                None => {
                    if let (Some(solver), Some(checked)) = (given, checked) {
                        if exchanges_leave_too_many(solver, checked, hand, discards) {
                            return Ok(None);
                        }
                    }
                }
            }
        }
    }
    // Built only past the pre-check: its tables cost more than the check.
    let solver = solver_for(given, rules, round)?;
    let mut best: Option<(GoOut, (u32, usize))> = None;
    // The first way out (in the order of the combinations, then of the
    // discards) with nothing left is the answer: nothing comes before it.
    let nothing_left = (0, 0);
    each_combo(
        rules,
        round,
        (table, checked),
        hand,
        allow,
        |chosen, pool| {
            let used_table = !chosen.is_empty();
            let exchanged = chosen.iter().any(LayOff::is_exchange);
            // Does the opening threshold apply to this way out?
            let waived = hand_romme
                && hr.threshold_waived
                && !(hr.threshold_with_lay_offs && (used_table || exchanged));
            let goal = (!opened && !waived).then(|| {
                let laid: u32 = if rules.opening.lay_offs_count {
                    chosen.iter().map(|l| l.value).sum()
                } else {
                    0
                };
                goal_for(rules, laid + table_points, false)
            });
            let discards: Vec<Option<CardKind>> = match rules.going_out.final_discard {
                FinalDiscard::Never => vec![None],
                FinalDiscard::Required => distinct(pool).into_iter().map(Some).collect(),
                FinalDiscard::Optional => std::iter::once(None)
                    .chain(distinct(pool).into_iter().map(Some))
                    .collect(),
            };
            // Cards that fit no meld in the pool stay unmatched whatever else
            // happens, unless one of them is the discard: a discard that leaves
            // more than the allowed rest that way needs no search.
            let dead = if precheck {
                solver.certain_deadwood(pool)?
            } else {
                Vec::new()
            };
            let points = |c: CardKind| card_points(rules, c, round);
            let dead_points: u32 = dead.iter().map(|&f| points(CardKind::Natural(f))).sum();
            for d in discards {
                if d.is_some_and(|c| c.is_joker() && !rules.jokers.discard_allowed) {
                    continue;
                }
                let left_for_sure = match d {
                    Some(c) if c.face().is_some_and(|f| dead.contains(&f)) => {
                        dead_points - points(c)
                    }
                    _ => dead_points,
                };
                if left_for_sure > rest_limit {
                    continue;
                }
                let mut rest = pool.to_vec();
                if let Some(c) = d {
                    remove(&mut rest, &[c]);
                }
                let found = match goal {
                    Some(g) => solver.solve_goal(&rest, g)?.map(|(p, _)| p),
                    None => Some(solver.solve(&rest)?),
                };
                let Some(p) = found else { continue };
                if p.deadwood > rest_limit {
                    continue;
                }
                let key = (p.deadwood, p.unmatched.len());
                if best.as_ref().is_none_or(|(_, k)| key < *k) {
                    let way = GoOut {
                        melds: p.melds,
                        lay_offs: chosen.to_vec(),
                        discard: d,
                        rest_points: p.deadwood,
                        rest: p.unmatched,
                        hand_romme,
                    };
                    best = Some((way, key));
                    if precheck && key == nothing_left {
                        return Ok(ControlFlow::Break(()));
                    }
                }
            }
            Ok(ControlFlow::Continue(()))
        },
    )?;
    Ok(best.map(|(g, _)| g))
}

/// Whether more than `discards` cards of `hand` with points stay in the
/// hand whatever joker exchanges are made: cards no exchange puts down
/// that fit no meld and no lay-off even with every wild card an exchange
/// could free (see [`exchange_relaxation`]). False where that cannot be
/// told (wild cards limited, too many cards).
fn exchanges_leave_too_many(
    solver: &PartitionSolver,
    checked: &[Declaration],
    hand: &[CardKind],
    discards: usize,
) -> bool {
    let (checker, rules, round) = (solver.checker(), solver.rules(), solver.round());
    let Some((relaxed, exchanged)) = exchange_relaxation(checker, checked, hand) else {
        return false;
    };
    // (A hand and table that hold more copies of a card together than the
    // deck has cannot be told about here; the search decides.)
    let Ok(dead) = solver.certain_deadwood(&relaxed) else {
        return false;
    };
    let mut stay: Vec<CardKind> = dead
        .into_iter()
        .filter(|f| !exchanged.contains(f))
        .map(CardKind::Natural)
        .filter(|&c| card_points(rules, c, round) > 0)
        .collect();
    if stay.len() <= discards {
        return false;
    }
    let laid = laid_off_without_exchanges(checker, checked, &relaxed, &stay);
    stay.retain(|c| !laid.contains(c));
    stay.len() > discards
}

/// Hand-Rommé: can the player, who has not melded yet, put every card down
/// at once this turn? `None` if the ruleset has no Hand-Rommé or it is not
/// possible.
pub fn hand_romme(
    rules: &Ruleset,
    round: Option<u8>,
    table: &[Vec<MeldCard>],
    hand: &[CardKind],
) -> Result<Option<GoOut>, SolveError> {
    if !rules.hand_romme.enabled {
        return Ok(None);
    }
    go_out(rules, round, table, hand, false)
}

fn distinct(cards: &[CardKind]) -> Vec<CardKind> {
    let mut v = cards.to_vec();
    v.sort();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    use rand_chacha::ChaCha8Rng;
    use romme_core::ruleset::presets;

    use super::*;

    /// A random table, the melds of `table_cards` shuffled cards dealt in
    /// chunks of 15, and the rest of the deck.
    fn dealt(
        rules: &Ruleset,
        seed: u64,
        table_cards: usize,
    ) -> (Vec<Vec<MeldCard>>, Vec<CardKind>) {
        let solver = PartitionSolver::new(rules, None).expect("solver");
        let mut cards: Vec<CardKind> = rules.deck.cards().iter().map(|c| c.kind()).collect();
        cards.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        let rest = cards.split_off(table_cards);
        let table = cards
            .chunks(15)
            .flat_map(|chunk| solver.solve(chunk).expect("solves").melds)
            .collect();
        (table, rest)
    }

    /// The way out with the pre-checks, asserted equal to the one without.
    fn same_with_and_without_precheck(
        rules: &Ruleset,
        table: &[Vec<MeldCard>],
        hand: &[CardKind],
        opened: bool,
        label: &str,
    ) -> Option<GoOut> {
        let with =
            go_out_search(rules, None, None, (table, None), hand, opened, true).expect("solves");
        let without =
            go_out_search(rules, None, None, (table, None), hand, opened, false).expect("solves");
        assert_eq!(with, without, "{label}");
        // With the table's melds checked beforehand: the same answer.
        let solver = PartitionSolver::new(rules, None).expect("solver");
        let checker = MeldChecker::new(rules, None).expect("checker");
        let checked: Vec<Declaration> = table
            .iter()
            .map(|m| checker.check(m).expect("a valid table"))
            .collect();
        let at_once = go_out_checked(&solver, table, &checked, hand, opened).expect("solves");
        assert_eq!(at_once, without, "{label} (table checked)");
        with
    }

    /// The check that settles hands which cannot open changes no answer:
    /// random tables (the melds of dealt cards) and hands, in presets whose
    /// lay-offs count toward the opening (`anlegen`, `raeuber`) and whose
    /// do not.
    #[test]
    fn the_precheck_changes_no_opening() {
        let mut settled = 0;
        let mut opened = 0;
        for name in ["klassisch", "offen", "bieten", "club", "anlegen", "raeuber"] {
            let Some(Ok(rules)) = presets::load(name) else {
                panic!("{name} loads");
            };
            for seed in 0..40 {
                let (table, rest) = dealt(&rules, seed, 45);
                let hand = &rest[..13];
                let solver = PartitionSolver::new(&rules, None).expect("solver");
                let with = opening_search(&solver, &table, hand, true).expect("opening");
                let without = opening_search(&solver, &table, hand, false).expect("opening");
                assert_eq!(with, without, "{name} seed {seed}");
                // The plain form (building its own solver) gives the same answer.
                let plain = best_opening(&rules, None, &table, hand).expect("opening");
                assert_eq!(with, plain, "{name} seed {seed}");
                if with.is_some() {
                    opened += 1;
                } else {
                    settled += 1;
                }
            }
        }
        // Both kinds of answer occur.
        assert!(
            opened > 10 && settled > 10,
            "{opened} opened, {settled} not"
        );
    }

    /// The check that settles short hands which cannot go out changes no
    /// answer: random tables and hands of one or two cards, opened or not,
    /// in presets with and without counting lay-offs.
    #[test]
    fn the_precheck_changes_no_way_out() {
        let mut out = 0;
        let mut not = 0;
        for name in ["klassisch", "offen", "bieten", "club", "anlegen", "raeuber"] {
            let Some(Ok(rules)) = presets::load(name) else {
                panic!("{name} loads");
            };
            for seed in 0..60 {
                let (table, rest) = dealt(&rules, seed, 60);
                let hand = &rest[..1 + (seed as usize % 2)];
                for opened in [true, false] {
                    let label = format!("{name} seed {seed} opened {opened}");
                    let with = same_with_and_without_precheck(&rules, &table, hand, opened, &label);
                    // A solver built beforehand gives the same answer.
                    let solver = PartitionSolver::new(&rules, None).expect("solver");
                    let given = go_out_with(&solver, &table, hand, opened).expect("solves");
                    assert_eq!(with, given, "{label}");
                    if with.is_some() {
                        out += 1;
                    } else {
                        not += 1;
                    }
                }
            }
        }
        // Both kinds of answer occur.
        assert!(out > 10 && not > 10, "{out} out, {not} not");
    }

    /// The check that settles hands an exchange could help (a hand that
    /// holds a card a table joker stands for) settles only hands with no
    /// way out, and settles some: random tables of every preset without
    /// limits on wild cards, hands of two to five cards, most of them with
    /// a card some table joker stands for; each settled hand's way out is
    /// searched without any pre-check.
    #[test]
    fn the_exchange_check_settles_only_hands_without_a_way_out() {
        let (mut settled, mut exchangeable) = (0, 0);
        for name in presets::NAMES {
            let Some(Ok(rules)) = presets::load(name) else {
                panic!("{name} loads");
            };
            if !crate::layoff::wilds_unlimited(&rules)
                || rules.going_out.rest_allowed > 0
                || rules.concealed.enabled
            {
                continue;
            }
            let solver = PartitionSolver::new(&rules, None).expect("solver");
            let checker = MeldChecker::new(&rules, None).expect("checker");
            let discards = usize::from(rules.going_out.final_discard != FinalDiscard::Never);
            for seed in 0..150 {
                let (table, rest) = dealt(&rules, 5000 + seed, 60);
                let checked: Vec<Declaration> = table
                    .iter()
                    .map(|m| checker.check(m).expect("a valid table"))
                    .collect();
                let mut hand: Vec<CardKind> = rest[..2 + seed as usize % 4].to_vec();
                // A card a table joker stands for, where the rest of the
                // deck still has one.
                let stands: Vec<CardKind> = checked
                    .iter()
                    .flat_map(|d| d.ordered.iter())
                    .filter(|c| c.card.is_joker())
                    .filter_map(|c| c.stands_for.map(CardKind::Natural))
                    .filter(|k| rest[hand.len()..].contains(k))
                    .collect();
                if seed % 5 != 0 {
                    if let Some(&k) = stands.get(seed as usize % stands.len().max(1)) {
                        hand[0] = k;
                    }
                }
                if laid_off_among(&checker, &checked, &hand, &hand).is_none() {
                    exchangeable += 1;
                }
                let settles = exchanges_leave_too_many(&solver, &checked, &hand, discards);
                for opened in [true, false] {
                    let label = format!("{name} seed {seed} opened {opened} hand {hand:?}");
                    let without =
                        go_out_search(&rules, None, None, (&table, None), &hand, opened, false)
                            .expect("solves");
                    if settles {
                        assert_eq!(without, None, "{label}");
                    }
                    let at_once =
                        go_out_checked(&solver, &table, &checked, &hand, opened).expect("solves");
                    assert_eq!(at_once, without, "{label} (table checked)");
                }
                settled += usize::from(settles);
            }
        }
        assert!(
            exchangeable > 100 && settled > 50,
            "{exchangeable} exchangeable, {settled} settled"
        );
    }

    /// Skipping the discards that leave cards fitting no meld changes no
    /// way out: hands of one to three melds of a random table, plus one or
    /// two random cards, in every preset.
    #[test]
    fn skipping_hopeless_discards_changes_no_way_out() {
        let (mut out, mut not) = (0, 0);
        for name in presets::NAMES {
            let Some(Ok(rules)) = presets::load(name) else {
                panic!("{name} loads");
            };
            if rules.melds.wilds.round_wild {
                continue;
            }
            for seed in 0..40 {
                let (table, rest) = dealt(&rules, 1000 + seed, 60);
                let melds = 1 + seed as usize % 3;
                let mut hand: Vec<CardKind> = table
                    .iter()
                    .take(melds)
                    .flat_map(|m| m.iter().map(|c| c.card))
                    .collect();
                hand.extend_from_slice(&rest[..1 + seed as usize % 2]);
                let others = &table[melds.min(table.len())..];
                for opened in [true, false] {
                    let label = format!("{name} seed {seed} opened {opened}");
                    let with =
                        same_with_and_without_precheck(&rules, others, &hand, opened, &label);
                    if with.is_some() {
                        out += 1;
                    } else {
                        not += 1;
                    }
                }
            }
        }
        assert!(out > 50 && not > 50, "{out} out, {not} not");
    }
}
