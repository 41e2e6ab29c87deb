//! Table rearrangement (`turn.rearrange = "free"`, `001`): given the melds on
//! the table and a hand, rebuild the table so that every meld stays valid,
//! no table card goes to the hand, and as many hand cards as possible are
//! placed. Ties: the highest penalty value placed (the points the player no
//! longer risks), then the fewest changed melds (so a UI can show a small
//! diff: a meld of the new table counts as changed unless it holds a whole
//! original meld, so extending a meld by lay-offs is no change), then no
//! joker exchange before one.
//!
//! Exact: a dynamic programme over the rank line where the ruleset allows it
//! (`partition/sweep.rs`), else branch and bound (the partition search with
//! table cards that must be melded); both with a deterministic budget of
//! states/nodes and an optional time limit:
//! when a limit stops it, the best arrangement found is returned with
//! `optimal: false`. The same input and limits give the same answer on every
//! run and machine (no hashing, no threads).
//!
//! Readings:
//! * A joker on the table keeps standing for the card it was declared as;
//!   it moves with that card's place. Only an exchange (a hand card of that
//!   face takes its place, `jokers.exchange` permitting) frees it, and the
//!   freed joker then belongs to the hand (and is placed again if possible).
//! * Melds are compared with the originals by their faces (two copies of a
//!   card are alike): a new meld is unchanged when it holds the faces of a
//!   whole original meld. With two decks two new melds can each hold the
//!   faces of the same original (one with its cards, one with the other
//!   copies); both then count as unchanged.
//! * Räuber robbing (`rearrange = "rob"`) is searched by the private `rob` module
//!   (its module documents the readings), steered and floored by the
//!   free optimum with the table's jokers handed to the player (an
//!   original meld held whole there only with a token for its jokers, and
//!   a meld without a hand card a piece of one table meld, as in the turn,
//!   read by faces; see `free_floor`). Exchanges of
//!   run jokers are decided inside its sweep, one search for every choice
//!   of them (the turn without them still wins a tie; among turns with
//!   exchanges of the same cost, which one is answered is fixed but not
//!   necessarily the one with the fewest).
//! * Not yet covered: free rearrangement under rules that limit wild cards
//!   in melds while jokers lie on the table; it is reported as unsupported
//!   rather than answered wrongly.

use std::time::{Duration, Instant};

use romme_core::card::{CardKind, Face};
use romme_core::meld::{MeldChecker, MeldError, MeldKind};
use romme_core::notation::MeldCard;
use romme_core::penalty::card_points;
use romme_core::ruleset::{JokerExchange, Limit, Rearrange, Ruleset, SetSuits, WildShare};
use serde::Serialize;
use thiserror::Error;

use crate::layoff::lay_offs;
use crate::multiset::{minus, remove};
use crate::partition::{
    Arrange, CHANGE_SCALE, FACES, PartitionSolver, Pieces, SET_TOKEN, SET_WILD,
};
use crate::rob::{RobProblem, Tuning, rob, rob_hint};

/// How long a rearrangement search may run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Search nodes (deterministic).
    pub nodes: u64,
    /// Wall-clock time, if any (makes non-optimal answers machine-dependent).
    pub time: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            nodes: 3_000_000,
            time: None,
        }
    }
}

/// A rebuilt table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rearrangement {
    /// Hand cards placed on the table.
    pub placed: Vec<CardKind>,
    /// Their penalty points.
    pub placed_value: u32,
    /// The new table, every meld declared, in a canonical order.
    pub table: Vec<Vec<MeldCard>>,
    /// What stays in the hand (freed jokers included).
    pub hand: Vec<CardKind>,
    /// Melds of the new table that hold no whole original meld.
    pub changed: usize,
    /// Jokers freed by exchange.
    pub freed: Vec<CardKind>,
    /// The search finished: this is proven optimal.
    pub optimal: bool,
}

/// Why a rearrangement cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RearrangeError {
    /// Bad cards, an invalid table meld, a missing round.
    #[error(transparent)]
    Meld(#[from] MeldError),
    /// The ruleset does not allow changing the table.
    #[error(
        "this ruleset does not allow changing the table (turn.rearrange = \"none\": was liegt, das liegt)"
    )]
    NotAllowed,
    /// Not covered by this version.
    #[error("{0}")]
    Unsupported(String),
    /// The solver produced a meld the rules library rejects (a bug).
    #[error("internal error: {0}")]
    Internal(String),
}

/// Cost of one card left in the hand beyond its penalty: fewer cards left
/// always beats fewer points left.
const UNIT: u32 = 1000;

fn wilds_limited(rules: &Ruleset) -> bool {
    let w = &rules.melds.wilds;
    !(w.share == WildShare::Any && w.max_per_meld == Limit::None && w.adjacent && w.at_run_ends)
}

/// A table card, as the search sees it.
#[derive(Debug, Clone, Copy)]
struct TableCard {
    /// The face it occupies.
    face: Face,
    /// The physical card (a joker or round wild when it stands for `face`).
    card: CardKind,
    /// Index of its original meld.
    meld: usize,
}

/// Rebuild the table to place as many hand cards as possible.
pub fn rearrange(
    rules: &Ruleset,
    round: Option<u8>,
    table: &[Vec<MeldCard>],
    hand: &[CardKind],
    limits: Limits,
) -> Result<Rearrangement, RearrangeError> {
    rearrange_with(&PartitionSolver::new(rules, round)?, table, hand, limits)
}

/// [`rearrange`] with a partition solver already built for the ruleset and
/// round (its tables take tens of thousands of instructions to build): for
/// callers that ask many times, such as the game engine, which keeps one
/// per game. The same answer as [`rearrange`] with the solver's ruleset
/// and round.
pub fn rearrange_with(
    solver: &PartitionSolver<'_>,
    table: &[Vec<MeldCard>],
    hand: &[CardKind],
    limits: Limits,
) -> Result<Rearrangement, RearrangeError> {
    rearrange_tuned(solver, table, hand, limits, Tuning::DEFAULT)
}

/// [`rearrange_with`], with the robbing search's [`Tuning`] given.
pub(crate) fn rearrange_tuned(
    solver: &PartitionSolver<'_>,
    table: &[Vec<MeldCard>],
    hand: &[CardKind],
    limits: Limits,
    tuning: Tuning,
) -> Result<Rearrangement, RearrangeError> {
    let (rules, round) = (solver.rules(), solver.round());
    let robbing = match rules.turn.rearrange {
        Rearrange::None => return Err(RearrangeError::NotAllowed),
        Rearrange::Rob => true,
        Rearrange::Free => false,
    };
    let checker = MeldChecker::new(rules, round)?;
    checker.check_cards(hand)?;
    let (cards, kinds) = table_cards(&checker, table)?;
    let is_wild_on_table = |c: &TableCard| c.card.face() != Some(c.face);
    if !robbing && wilds_limited(rules) && cards.iter().any(is_wild_on_table) {
        return Err(RearrangeError::Unsupported(
            "rearranging a table with jokers under wild-card limits is not available in this version".into(),
        ));
    }
    let mut all_kinds: Vec<CardKind> = cards.iter().map(|c| c.card).collect();
    all_kinds.extend_from_slice(hand);
    checker.check_cards(&all_kinds)?;

    // Possible exchanges: a hand natural of the face a table joker stands for.
    let exchanges: Vec<usize> =
        if rules.jokers.exchange == JokerExchange::Never || rules.jokers.exchange_ends_plays {
            Vec::new()
        } else {
            cards
                .iter()
                .enumerate()
                .filter(|(_, c)| is_wild_on_table(c))
                .filter(|(_, c)| {
                    hand.contains(&CardKind::Natural(c.face))
                        && !checker.is_wild(CardKind::Natural(c.face))
                })
                .filter(|(_, c)| {
                    !(rules.jokers.exchange_needs_full_set
                        && kinds[c.meld] == MeldKind::Set
                        && table[c.meld].len() < full_set(rules))
                })
                .map(|(i, _)| i)
                .take(4)
                .collect()
        };

    let originals = originals_of(&cards, table.len());
    let deadline = limits.time.map(|t| Instant::now() + t);
    // Each choice of joker exchanges (a subset of `exchanges`): the hand
    // after them (the natural goes to the table, the joker comes back) and
    // the table cards.
    let mut choices: Vec<(Vec<CardKind>, Vec<TableCard>)> = Vec::new();
    // Each choice's exchanges (a bit per entry of `exchanges`).
    let mut masks: Vec<usize> = Vec::new();
    for mask in 0..1usize << exchanges.len() {
        let mut hand_now = hand.to_vec();
        let mut freed = Vec::new();
        let mut on_table = cards.clone();
        let mut ok = true;
        for (k, &i) in exchanges.iter().enumerate() {
            if mask >> k & 1 == 0 {
                continue;
            }
            let real = CardKind::Natural(cards[i].face);
            match hand_now.iter().position(|h| *h == real) {
                Some(p) => {
                    hand_now.remove(p);
                }
                None => ok = false,
            }
            freed.push(cards[i].card);
            on_table[i].card = real;
        }
        if ok {
            hand_now.extend(freed.iter().copied());
            choices.push((hand_now, on_table));
            masks.push(mask);
        }
    }
    // A valid arrangement to beat: the table kept, lay-offs, and the rest
    // of the hand in melds of its own.
    let baseline = keep_and_lay_off(rules, round, &checker, solver, table, hand)?;
    let mut best: Option<(Rearrangement, (u32, usize, usize))> = None;
    let mut optimal = true;
    let offer = |best: &mut Option<(Rearrangement, (u32, usize, usize))>, r: Rearrangement| {
        // Fewest cards left, then the fewest points left (with a fixed hand:
        // the highest value placed), then the fewest changes.
        let left_value: u32 = r.hand.iter().map(|&c| card_points(rules, c, round)).sum();
        let key = (
            u32::try_from(r.hand.len()).unwrap_or(u32::MAX),
            left_value as usize,
            r.changed,
        );
        if best.as_ref().is_none_or(|(_, k)| key < *k) {
            *best = Some((r, key));
        }
    };
    // What a search must beat: the best so far, or the baseline (which free
    // rearrangement offers only after the first choice's search, so that an
    // equal arrangement that search finds is the answer).
    let baseline_cost = baseline
        .as_ref()
        .map_or(u64::MAX, |b| cost_of(rules, round, b));
    let incumbent_of = |best: &Option<(Rearrangement, (u32, usize, usize))>| {
        best.as_ref()
            .map_or(u64::MAX, |(r, _)| cost_of(rules, round, r))
            .min(baseline_cost)
    };
    let arrange_for = |incumbent: u64| Arrange {
        optional: [0; FACES],
        unit: UNIT,
        originals: originals.clone(),
        node_limit: limits.nodes,
        deadline,
        stopped: false,
        incumbent,
        pieces: None,
    };
    // Past the deadline no further exchange choice is looked at: the best
    // so far is the answer, not proven. (Setting up a choice's search, its
    // floor before any clock reading, took milliseconds on ~50-card
    // tables, BENCHMARKS.md.)
    let late = || crate::deadline::passed(deadline);
    if !robbing {
        for (c, (hand_now, on_table)) in choices.iter().enumerate() {
            if late() {
                optimal = false;
                if let (0, Some(b)) = (c, &baseline) {
                    offer(&mut best, b.clone());
                }
                break;
            }
            let (counts, optional, wild_cards) =
                search_counts(rules, round, &checker, on_table, hand_now);
            let arrange = Arrange {
                optional,
                ..arrange_for(incumbent_of(&best))
            };
            let (found, stopped, changed) = solver.arrange(counts, wild_cards, arrange);
            optimal &= !stopped;
            if let Some(p) = found {
                let r = assemble(rules, round, &checker, &cards, on_table, hand, p, changed)?;
                offer(&mut best, r);
            }
            if c == 0 {
                if let Some(b) = &baseline {
                    offer(&mut best, b.clone());
                }
            }
        }
    } else {
        // (A robbing turn found must beat the baseline, so it can come
        // first: no search is skipped past it.)
        if let Some(b) = &baseline {
            offer(&mut best, b.clone());
        }
        // The floor and hint of each exchange choice, worked out once, when
        // its search needs them. (The floor without exchanges is a floor
        // of every choice, see `free_floor`; its hint serves the first
        // phase's plays too. Working out every choice's own for those plays
        // took 6 % of the ~20 row's time in `rearrange_stats`, `raeuber`,
        // mostly to find the same floor: BENCHMARKS.md.)
        let mut floors: Vec<Option<(u64, Option<Hint>)>> = vec![None; choices.len()];
        // With several exchange choices, each one's hint is played first,
        // before any full search: the best of them is the cost every search
        // must beat (a later choice's hint often reaches the floor, which
        // proves the optimum before any search; searching the earlier
        // choices first spent their whole node limit on what could not beat
        // it).
        let phases: &[bool] = if choices.len() > 1 && tuning.realize_hint {
            &[true, false]
        } else {
            &[false]
        };
        // The floor without exchanges is a floor for every exchange choice
        // too (see `free_floor`).
        let mut floor_without: Option<u64> = None;
        // Exchanges of run jokers (bits of `masks`), decided inside one
        // sweep for every choice of the other exchanges
        // (`Tuning::joint_exchanges`): the run's card and where it lies.
        let run_bits: usize = if tuning.joint_exchanges {
            exchanges
                .iter()
                .enumerate()
                .filter(|&(_, &i)| kinds[cards[i].meld] == MeldKind::Run)
                .fold(0, |bits, (k, _)| bits | 1 << k)
        } else {
            0
        };
        let swaps: Vec<(usize, usize)> = exchanges
            .iter()
            .enumerate()
            .filter(|&(k, _)| run_bits >> k & 1 == 1)
            .map(|(_, &i)| {
                let m = cards[i].meld;
                (m, cards[..i].iter().filter(|c| c.meld == m).count())
            })
            .collect();
        // Choices a joint sweep has settled.
        let mut covered = vec![false; choices.len()];
        for &hint_only in phases {
            for (c, (hand_now, on_table)) in choices.iter().enumerate() {
                if late() {
                    optimal = false;
                    break;
                }
                let incumbent = incumbent_of(&best);
                // No turn with these exchanges can beat the best so far.
                if tuning.exchange_floor && floor_without.is_some_and(|f| f >= incumbent) {
                    break;
                }
                // This choice's floor and hint, reading as possible the
                // exchanges `exchangeable` (see `free_floor`), to beat
                // `incumbent`.
                let floor_with = |exchangeable: &[usize], incumbent: u64| {
                    free_floor(
                        rules,
                        round,
                        &checker,
                        solver,
                        on_table,
                        hand_now,
                        &originals,
                        exchangeable,
                        arrange_for(incumbent),
                    )
                };
                // This choice's robbing problem; the searches below set
                // their floor, hint, tuning and exchanges.
                let now = melds_of(on_table, table.len());
                let base = RobProblem {
                    checker: &checker,
                    solver,
                    rules,
                    round,
                    table: &now,
                    kinds: &kinds,
                    hand: hand_now,
                    unit: UNIT,
                    node_limit: limits.nodes,
                    deadline,
                    incumbent,
                    floor: 0,
                    hint: None,
                    tuning,
                    swaps: &[],
                };
                if !hint_only && run_bits != 0 {
                    if covered[c] {
                        continue;
                    }
                    if masks[c] & run_bits == 0 {
                        // The choices that differ from this one in run
                        // exchanges only: one sweep, their least floor.
                        let group: Vec<usize> = (0..choices.len())
                            .filter(|&g| masks[g] & !run_bits == masks[c])
                            .collect();
                        // Their least floor is this one's: an exchange
                        // adds no turn (see `free_floor`).
                        if floors[c].is_none() {
                            floors[c] = Some(floor_with(&exchanges, incumbent)?);
                        }
                        let floor = floors[c].as_ref().map_or(0, |f| f.0);
                        if c == 0 {
                            floor_without = floors[0].as_ref().map(|f| f.0);
                        }
                        if floor >= incumbent {
                            for &g in &group {
                                covered[g] = true;
                            }
                            continue;
                        }
                        let problem = RobProblem {
                            floor,
                            swaps: &swaps,
                            ..base
                        };
                        match crate::rob::rob_exchanging(&problem) {
                            Some(Ok((found, proven))) => {
                                // Whether the answer so far is this turn,
                                // with exchanges.
                                let mut exchanged = false;
                                if let Some(r) = found {
                                    let exchanges = r.exchanges;
                                    let done = finish(
                                        rules, round, &checker, &cards, hand, r.table, r.changed,
                                    )?;
                                    let mut left = r.hand;
                                    left.sort();
                                    if left != done.hand {
                                        return Err(RearrangeError::Internal(
                                            "the robbing sweep lost track of the hand".into(),
                                        ));
                                    }
                                    let before = best.as_ref().map(|(_, k)| *k);
                                    offer(&mut best, done);
                                    exchanged =
                                        exchanges > 0 && best.as_ref().map(|(_, k)| *k) != before;
                                }
                                if proven {
                                    for &g in &group {
                                        covered[g] = true;
                                    }
                                    // No joker exchange before one: a turn of
                                    // the same cost without these exchanges
                                    // is the answer (the optimum is a floor of
                                    // this choice; a turn that reaches it
                                    // ends the search).
                                    let best_cost = incumbent_of(&best);
                                    let (floor_c, hint) = floors[c].clone().unwrap_or((0, None));
                                    // The floor of this choice with its
                                    // jokers kept (no exchange to read as
                                    // possible): above that cost, no such
                                    // turn exists.
                                    let strict = if exchanged && floor_c <= best_cost && !late() {
                                        Some(floor_with(&[], best_cost.saturating_add(1))?)
                                    } else {
                                        None
                                    };
                                    if let Some((strict, strict_hint)) =
                                        strict.filter(|(f, _)| *f <= best_cost)
                                    {
                                        let tie = RobProblem {
                                            incumbent: best_cost.saturating_add(1),
                                            floor: strict.max(floor_c).max(best_cost),
                                            hint: strict_hint.or(hint),
                                            swaps: &[],
                                            ..problem
                                        };
                                        // (Stopped by a limit, the turn with
                                        // exchanges stays: its cost is proven.)
                                        if let (Some(r), _) = crate::rob::rob(&tie)? {
                                            let done = finish(
                                                rules, round, &checker, &cards, hand, r.table,
                                                r.changed,
                                            )?;
                                            if cost_of(rules, round, &done) == best_cost {
                                                best = None;
                                                offer(&mut best, done);
                                            }
                                        }
                                    }
                                    continue;
                                }
                            }
                            Some(Err(e)) => return Err(e),
                            None => {}
                        }
                    }
                }
                let found = 'choice: {
                    // The hints are played with the floor without
                    // exchanges (and its hint): a choice's own is worked
                    // out for its search only.
                    let known = match (hint_only, &floors[c], &floors[0]) {
                        (_, Some(own), _) => Some(own),
                        (true, None, Some(without)) => Some(without),
                        _ => None,
                    };
                    let (floor, hint) = match known {
                        Some(known) => known.clone(),
                        None => {
                            let known = floor_with(&exchanges, incumbent)?;
                            floors[c] = Some(known.clone());
                            known
                        }
                    };
                    if c == 0 {
                        floor_without = Some(floor);
                    }
                    if floor >= incumbent {
                        break 'choice None;
                    }
                    let problem = RobProblem {
                        floor,
                        hint,
                        // The hints were played already (the best of them
                        // is the cost to beat): not again.
                        tuning: Tuning {
                            realize_hint: tuning.realize_hint && phases.len() == 1,
                            ..tuning
                        },
                        ..base
                    };
                    if hint_only {
                        rob_hint(&problem)?
                    } else {
                        let (found, stopped) = rob(&problem)?;
                        optimal &= !stopped;
                        found
                    }
                };
                if let Some(r) = found {
                    let done = finish(rules, round, &checker, &cards, hand, r.table, r.changed)?;
                    let mut left = r.hand;
                    left.sort();
                    if left != done.hand {
                        return Err(RearrangeError::Internal(
                            "the robbing search lost track of the hand".into(),
                        ));
                    }
                    offer(&mut best, done);
                }
            }
        }
    }
    match best {
        Some((mut r, _)) => {
            r.optimal = optimal;
            Ok(r)
        }
        None if optimal => Err(RearrangeError::Internal("the table itself could not be arranged".into())),
        None => Err(RearrangeError::Unsupported(
            "the search limit was reached before any arrangement was found; allow more nodes or time".into(),
        )),
    }
}

/// The table's cards with the faces they occupy, in the order the checker
/// reads each meld, and the melds' kinds.
fn table_cards(
    checker: &MeldChecker,
    table: &[Vec<MeldCard>],
) -> Result<(Vec<TableCard>, Vec<MeldKind>), RearrangeError> {
    let mut cards: Vec<TableCard> = Vec::new();
    let mut kinds: Vec<MeldKind> = Vec::new();
    for (i, meld) in table.iter().enumerate() {
        let d = checker.check(meld)?;
        kinds.push(d.kind);
        for c in &d.ordered {
            let face = c
                .effective()
                .ok_or_else(|| RearrangeError::Internal("a table card without a face".into()))?;
            cards.push(TableCard {
                face,
                card: c.card,
                meld: i,
            });
        }
    }
    Ok((cards, kinds))
}

/// Each of the `melds` original melds as the faces its cards occupy.
fn originals_of(cards: &[TableCard], melds: usize) -> Vec<Vec<usize>> {
    (0..melds)
        .map(|m| {
            cards
                .iter()
                .filter(|c| c.meld == m)
                .map(|c| c.face.index())
                .collect()
        })
        .collect()
}

/// A floor and a hint for the robbing search: the optimum of free
/// rearrangement with the table's jokers handed to the player (they must be
/// melded to cost nothing). Every robbing turn is such a free arrangement at
/// the same cost (a robbed joker declared anew is a hand joker placed; one
/// left in place is a hand joker placed where it was), so the optimum, when
/// proven, is a lower bound. `(0, None)` when free rearrangement cannot
/// answer (wild-card limits) or `(0, hint)` when it hit a limit.
///
/// An original meld is held whole in such an arrangement as in the turn:
/// a run where a new run spans its naturals (a token or a natural in its
/// jokers' places, `partition/sweep.rs`' holes), a set where a new set
/// holds its naturals and a token for each joker (the joker left in place;
/// robbed, it leaves a piece, a changed meld). Reading a set's jokers as
/// gone, the floor kept a set robbed of its joker unchanged: on 21 of the
/// 300 ~30 positions of `rearrange_stats` it lay below the optimum for
/// that alone, and a sweep had to prove what the hint had found
/// (BENCHMARKS.md, "Räuber robbing").
///
/// A meld without a hand card must be a piece of one table meld, as in
/// robbing (read by faces, [`Pieces`]). Without it, free rearrangement
/// put table cards of several melds together, or grew a table meld with
/// table cards alone: of the 131 ~30-card positions of `rearrange_stats`
/// (`raeuber`, 300 positions, no exchange) whose floor lay below the
/// optimum, 104 had such a meld in the floor's arrangement, and a sweep
/// had to prove the optimum (BENCHMARKS.md, "Räuber robbing").
///
/// The floor without joker exchanges is a floor for every exchange choice
/// too: an exchange makes the exchanged card a table card (it must be
/// melded, where the hand's copy may stay) and adds its face to the
/// original meld (harder to keep whole), so every turn with the exchange
/// is an arrangement of the problem without it at no more cost. For that,
/// a set's joker that a choice may exchange (`exchangeable`, indices into
/// `on_table`) is held by a token or the natural it stands for
/// ([`SET_WILD`]).
#[allow(clippy::too_many_arguments)]
fn free_floor(
    rules: &Ruleset,
    round: Option<u8>,
    checker: &MeldChecker,
    solver: &PartitionSolver,
    on_table: &[TableCard],
    hand_now: &[CardKind],
    originals: &[Vec<usize>],
    exchangeable: &[usize],
    mut arrange: Arrange,
) -> Result<(u64, Option<Hint>), RearrangeError> {
    let is_wild = |c: &TableCard| c.card.face() != Some(c.face) || checker.is_wild(c.card);
    if wilds_limited(rules) && on_table.iter().any(is_wild) {
        return Ok((0, None));
    }
    let naturals: Vec<TableCard> = on_table.iter().copied().filter(|c| !is_wild(c)).collect();
    let mut hand: Vec<CardKind> = hand_now.to_vec();
    hand.extend(on_table.iter().filter(|c| is_wild(c)).map(|c| c.card));
    let (counts, optional, wild_cards) = search_counts(rules, round, checker, &naturals, &hand);
    arrange.optional = optional;
    // An original meld's joker faces are no longer table cards.
    arrange.originals = originals
        .iter()
        .enumerate()
        .map(|(m, faces)| {
            let wild: Vec<(usize, &TableCard)> = on_table
                .iter()
                .enumerate()
                .filter(|(_, c)| c.meld == m && is_wild(c))
                .collect();
            let mut kept: Vec<usize> = faces
                .iter()
                .copied()
                .filter(|f| !wild.iter().any(|(_, c)| c.face.index() == *f))
                .collect();
            // A set held whole keeps its wild cards in place: a token for
            // each, or the natural of one a later choice may exchange (a
            // set of one natural is left as it was). (Not a run: held
            // whole, it may hold its joker anywhere, declared anew, as
            // `rob`'s search reads it; a token at the joker's place, or
            // none of the naturals there, would be too strict a demand.)
            if kept.len() > 1 && kept.iter().all(|f| f % 13 == kept[0] % 13) {
                kept.extend(wild.iter().map(|(i, _)| {
                    if exchangeable.contains(i) {
                        SET_WILD
                    } else {
                        SET_TOKEN
                    }
                }));
            }
            kept
        })
        .collect();
    // A meld without a hand card is a piece of a table meld.
    let mut hand_faces = [false; FACES];
    for c in hand_now {
        if let CardKind::Natural(f) = c {
            hand_faces[f.index()] |= !checker.is_wild(*c);
        }
    }
    arrange.pieces = Some(Pieces {
        hand: hand_faces,
        // (Where a joker exchange is possible, the floor without it is one
        // of the turns with it too: its joker is a hand card there.)
        hand_wild: !exchangeable.is_empty()
            || hand_now
                .iter()
                .any(|&c| !matches!(c, CardKind::Natural(_)) || checker.is_wild(c)),
        melds: (0..originals.len())
            .map(|m| {
                on_table
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.meld == m)
                    .map(|(i, c)| (c.face.index(), is_wild(c), exchangeable.contains(&i)))
                    .collect()
            })
            .collect(),
    });
    let incumbent = arrange.incumbent;
    let (free, stopped, changed) = solver.arrange(counts, wild_cards, arrange);
    let floor_of = |cost: u64| if stopped { 0 } else { cost };
    Ok(match free {
        None => (floor_of(incumbent), None),
        Some(p) => {
            let r = assemble(
                rules, round, checker, &naturals, &naturals, &hand, p, changed,
            )?;
            let melds = r
                .table
                .iter()
                .map(|m| m.iter().map(|c| c.card).collect())
                .collect();
            (floor_of(cost_of(rules, round, &r)), Some((melds, r.hand)))
        }
    })
}

/// The search's input: copies of each face (table and hand), the hand's
/// copies (which may stay unmatched), and the hand's wild cards with their
/// points, sorted.
type SearchCounts = ([u8; FACES], [u8; FACES], Vec<(u32, CardKind)>);

fn search_counts(
    rules: &Ruleset,
    round: Option<u8>,
    checker: &MeldChecker,
    table: &[TableCard],
    hand: &[CardKind],
) -> SearchCounts {
    let mut counts = [0u8; FACES];
    let mut optional = [0u8; FACES];
    let mut wild_cards: Vec<(u32, CardKind)> = Vec::new();
    for c in table {
        counts[c.face.index()] += 1;
    }
    for &h in hand {
        match h {
            CardKind::Natural(f) if !checker.is_wild(h) => {
                counts[f.index()] += 1;
                optional[f.index()] += 1;
            }
            other => wild_cards.push((card_points(rules, other, round), other)),
        }
    }
    wild_cards.sort_unstable();
    (counts, optional, wild_cards)
}

/// Melds (as cards) and cards left of a good arrangement, to steer a search.
type Hint = (Vec<Vec<CardKind>>, Vec<CardKind>);

/// The search's cost of an arrangement: cards left (× UNIT + penalty) ×
/// scale + changed melds.
fn cost_of(rules: &Ruleset, round: Option<u8>, r: &Rearrangement) -> u64 {
    let left: u64 = r
        .hand
        .iter()
        .map(|&c| u64::from(card_points(rules, c, round) + UNIT))
        .sum();
    left * CHANGE_SCALE + r.changed as u64
}

/// The arrangement without changing the table: lay off greedily (the most
/// cards, then the most value, on each meld in turn, until nothing more
/// fits), then the rest of the hand in its best partition.
fn keep_and_lay_off(
    rules: &Ruleset,
    round: Option<u8>,
    checker: &MeldChecker,
    solver: &PartitionSolver,
    table: &[Vec<MeldCard>],
    hand: &[CardKind],
) -> Result<Option<Rearrangement>, RearrangeError> {
    let mut melds: Vec<Vec<MeldCard>> = table
        .iter()
        .map(|m| checker.check(m).map(|d| d.ordered))
        .collect::<Result<_, _>>()?;
    let mut left = hand.to_vec();
    let mut placed = Vec::new();
    loop {
        let mut progress = false;
        for i in 0..melds.len() {
            let offs = lay_offs(rules, round, &melds[i..=i], &left)?;
            let best = offs
                .into_iter()
                .filter(|l| !l.is_exchange())
                .max_by_key(|l| (l.cards.len(), l.value));
            if let Some(l) = best {
                remove(&mut left, &l.cards);
                placed.extend(l.cards.iter().copied());
                melds[i] = l.result;
                progress = true;
            }
        }
        if !progress {
            break;
        }
    }
    let p = solver.solve(&left)?;
    let changed = p.melds.len();
    for m in &p.melds {
        placed.extend(m.iter().map(|c| c.card));
    }
    melds.extend(p.melds);
    for m in &mut melds {
        *m = checker.check(m)?.ordered;
    }
    canonical_order(&mut melds);
    placed.sort();
    let mut rest = p.unmatched;
    rest.sort();
    Ok(Some(Rearrangement {
        placed_value: placed.iter().map(|&c| card_points(rules, c, round)).sum(),
        placed,
        table: melds,
        hand: rest,
        changed,
        freed: Vec::new(),
        optimal: true,
    }))
}

/// The canonical order of table melds: by the first card's face, then length.
fn canonical_order(melds: &mut [Vec<MeldCard>]) {
    melds.sort_by_key(|m| (m.first().and_then(|c| c.effective()), m.len()));
}

fn full_set(rules: &Ruleset) -> usize {
    match (rules.melds.sets.suits, rules.melds.sets.max_len.get()) {
        (_, Some(m)) => usize::from(m),
        (SetSuits::Distinct, None) => rules.deck.kind.suits().len(),
        (SetSuits::Any, None) => usize::MAX,
    }
}

/// Turn the search's melds (natural faces, hand tokens declared) into the
/// new table: table jokers take back their faces, the placed hand cards
/// are what is left after the table's own cards.
#[allow(clippy::too_many_arguments)]
fn assemble(
    rules: &Ruleset,
    round: Option<u8>,
    checker: &MeldChecker,
    original: &[TableCard],
    on_table: &[TableCard],
    hand: &[CardKind],
    p: crate::partition::Partition,
    changed: usize,
) -> Result<Rearrangement, RearrangeError> {
    // Table jokers by the face they stand for.
    let mut jokers: Vec<(Face, CardKind)> = on_table
        .iter()
        .filter(|c| c.card.face() != Some(c.face))
        .map(|c| (c.face, c.card))
        .collect();
    let melds: Vec<Vec<MeldCard>> = p
        .melds
        .into_iter()
        .map(|meld| {
            meld.into_iter()
                .map(|mc| match (mc.stands_for, mc.card) {
                    (None, CardKind::Natural(f)) => {
                        match jokers.iter().position(|(g, _)| *g == f) {
                            Some(k) => {
                                let (_, card) = jokers.remove(k);
                                MeldCard {
                                    card,
                                    stands_for: Some(f),
                                }
                            }
                            None => mc,
                        }
                    }
                    _ => mc,
                })
                .collect()
        })
        .collect();
    finish(rules, round, checker, original, hand, melds, changed)
}

/// The table cards (after exchanges) grouped back into their melds, jokers
/// declared.
fn melds_of(cards: &[TableCard], n: usize) -> Vec<Vec<MeldCard>> {
    let mut melds = vec![Vec::new(); n];
    for c in cards {
        let stands_for = (c.card.face() != Some(c.face) || c.card.is_joker()).then_some(c.face);
        melds[c.meld].push(MeldCard {
            card: c.card,
            stands_for,
        });
    }
    melds
}

/// The new table in canonical order, with what was placed, freed and left.
fn finish(
    rules: &Ruleset,
    round: Option<u8>,
    checker: &MeldChecker,
    original: &[TableCard],
    hand: &[CardKind],
    mut melds: Vec<Vec<MeldCard>>,
    changed: usize,
) -> Result<Rearrangement, RearrangeError> {
    for m in &mut melds {
        let d = checker.check(m).map_err(|e| {
            RearrangeError::Internal(format!("{}: {e}", romme_core::notation::format_cards(m)))
        })?;
        *m = d.ordered;
    }
    canonical_order(&mut melds);
    // Placed: on the new table but not on the old one. Freed: jokers of the
    // old table that are not on the new one (they went to the hand; a freed
    // joker placed again has only moved).
    let new_cards: Vec<CardKind> = melds.iter().flatten().map(|c| c.card).collect();
    let old_cards: Vec<CardKind> = original.iter().map(|c| c.card).collect();
    let mut placed = minus(&new_cards, &old_cards);
    placed.sort();
    let mut freed = minus(&old_cards, &new_cards);
    freed.sort();
    let placed_value = placed.iter().map(|&c| card_points(rules, c, round)).sum();
    let mut left = hand.to_vec();
    left.extend(freed.iter().copied());
    let mut left = minus(&left, &placed);
    left.sort();
    Ok(Rearrangement {
        placed,
        placed_value,
        table: melds,
        hand: left,
        changed,
        freed,
        optimal: true,
    })
}

#[cfg(test)]
mod tests {
    use romme_core::notation::parse_cards;
    use romme_core::ruleset::presets;

    use super::*;

    /// The floor of robbing `table` with `hand` when the table cards
    /// `exchangeable` (indices in reading order) may be exchanged, and the
    /// robbing optimum: (cards left, changed melds) each.
    fn floor_and_optimum(
        table: &[&str],
        hand: &str,
        exchangeable: &[usize],
    ) -> ((u64, u64), (u64, u64)) {
        let rules = presets::load("raeuber").expect("preset").expect("loads");
        let solver = PartitionSolver::new(&rules, None).expect("solver");
        let checker = MeldChecker::new(&rules, None).expect("checker");
        let table: Vec<Vec<MeldCard>> = table
            .iter()
            .map(|m| {
                m.split_whitespace()
                    .map(|c| c.parse().expect("card"))
                    .collect()
            })
            .collect();
        let hand = parse_cards(hand).expect("hand");
        let (cards, _) = table_cards(&checker, &table).expect("valid melds");
        let originals = originals_of(&cards, table.len());
        let arrange = Arrange {
            optional: [0; FACES],
            unit: UNIT,
            originals: originals.clone(),
            node_limit: 1_000_000,
            deadline: None,
            stopped: false,
            incumbent: u64::MAX,
            pieces: None,
        };
        let (floor, _) = free_floor(
            &rules,
            None,
            &checker,
            &solver,
            &cards,
            &hand,
            &originals,
            exchangeable,
            arrange,
        )
        .expect("floor");
        let best = rearrange(&rules, None, &table, &hand, Limits::default()).expect("robs");
        assert!(best.optimal);
        let optimum = cost_of(&rules, None, &best);
        let split = |c: u64| (c / CHANGE_SCALE / u64::from(UNIT), c % CHANGE_SCALE);
        (split(floor), split(optimum))
    }

    /// That the robbing optimum of `table` and `hand` (no exchange) is
    /// `expected` (cards left, changed melds) and that the floor reaches
    /// it.
    fn floor_reaches(table: &[&str], hand: &str, expected: (u64, u64)) {
        let (floor, optimum) = floor_and_optimum(table, hand, &[]);
        assert_eq!(optimum, expected, "the optimum");
        assert_eq!(floor, optimum, "the floor");
    }

    /// A run that starts after a table run's first card does not hold it,
    /// also where its token stands at that run's joker: 6c and the joker
    /// rob 6d (6c 6d *), and what stays, 7d 8d *=9d 10d, is a changed
    /// meld. Reading the token at the joker's place as keeping every
    /// table run with a joker there, the floor said one changed meld.
    /// (Seed 952 of `rearrange_stats`' ~30 row, reduced: a floor one
    /// change low took the search 0.7 s to prove.)
    #[test]
    fn a_run_from_after_a_table_runs_start_holds_it_not_at_its_joker() {
        floor_reaches(&["6d 7d 8d *=9d 10d"], "6c *", (0, 2));
    }

    /// Two sets alike by faces hold two table sets or one: As Ad take the
    /// joker of 6c 6d 6h *=6s, and of the two sets 6c 6d 6h that stay
    /// one is a changed meld (the piece of the set with the joker). Each
    /// set read as holding any table set it covers, the floor said one
    /// changed meld. (Seed 894 of `rearrange_stats`' ~30 row, reduced:
    /// 166 ms to prove, 4 ms with the floor at the optimum.)
    #[test]
    fn two_sets_alike_hold_two_table_sets_or_one() {
        floor_reaches(&["6c 6d 6h *=6s", "6c 6d 6h"], "As Ad", (0, 2));
    }

    /// A table run robbed of its joker is a changed meld also where a
    /// later table run of its suit ends after it: 8h takes the joker of
    /// 5h 6h 7h 8h *=9h onto 10h Jh Qh Kh (8h *=9h 10h … Kh holds that
    /// one), and 5h 6h 7h 8h stays without it. Waiting for a token only
    /// at a suit's last table run, the floor said no changed meld. (Seed
    /// 244 of `rearrange_stats`' ~30 row, reduced.)
    #[test]
    fn a_run_robbed_of_its_joker_is_changed_before_a_later_run_too() {
        floor_reaches(&["5h 6h 7h 8h *=9h", "10h Jh Qh Kh"], "8h", (0, 1));
    }

    /// ... and a run that goes on past such a table run without a token
    /// may still hold a later one: 6h joins 4h 5h and 7h 8h 9h into one
    /// run, which holds 7h 8h 9h whole, and Ks Kd take the joker: one
    /// changed meld. (Waiting for a token to the line's end, the floor
    /// said two: no floor.)
    #[test]
    fn a_run_past_a_table_run_robbed_of_its_joker_may_hold_a_later_one() {
        floor_reaches(&["4h 5h *=6h", "7h 8h 9h"], "6h Ks Kd", (0, 1));
    }

    /// A piece keeps its joker where it stands: 8c 8d take the joker of
    /// 6h 7h 8h 9h *=10h, and 6h 7h 8h 9h stays, a changed meld. Read with
    /// the joker anywhere, the floor took 8h for 8c 8d 8h and kept
    /// 6h 7h *=8h 9h as the table run whole: one changed meld. (Seed 461
    /// of `rearrange_stats`' ~30 row, reduced.)
    #[test]
    fn a_piece_keeps_its_joker_where_it_stands() {
        floor_reaches(&["6h 7h 8h 9h *=10h"], "8c 8d", (0, 2));
    }

    /// Two runs alike by faces are two table runs or one: Kh Kd take the
    /// joker of 3d 4d 5d 6d *=7d, and of the two runs 3d 4d 5d 6d that
    /// stay (table cards alone) one is the other table run whole, the
    /// other a changed meld. Each read as all of the table run without a
    /// joker, the floor said one changed meld. (Seed 476 of
    /// `rearrange_stats`' ~30 row, reduced.)
    #[test]
    fn two_runs_alike_are_two_table_runs_or_one() {
        floor_reaches(&["3d 4d 5d 6d", "3d 4d 5d 6d *=7d"], "Kh Kd", (0, 2));
    }

    /// A set whose joker is robbed is a changed meld (a piece of it stays):
    /// the floor, which hands the table's jokers to the player, counts the
    /// set as kept only where a token takes the joker's place. Kc Kd need
    /// the joker: two changed melds (the new set and what stays of the
    /// old one), as the robbing optimum; counting the set's naturals alone
    /// as the original, the floor said one.
    #[test]
    fn a_set_robbed_of_its_joker_is_changed_in_the_floor_too() {
        floor_reaches(&["4c 4d *=4h 4s", "5d 6d 7d"], "Kc Kd", (0, 2));
    }

    /// Where the hand holds the natural the set's joker stands for, the
    /// floor without the exchange must stay a floor of the turn with it:
    /// 4h takes the joker's place (the set is whole again) and the joker
    /// joins Kc Kd, one changed meld.
    #[test]
    fn the_floor_without_an_exchange_stays_below_the_turn_with_it() {
        let (floor, optimum) = floor_and_optimum(&["4c 4d *=4h 4s", "5d 6d 7d"], "Kc Kd 4h", &[2]);
        assert_eq!(optimum, (0, 1));
        assert!(floor <= optimum, "{floor:?} > {optimum:?}");
        // Read as a joker that must stay one, the floor would exceed it.
        let (strict, _) = floor_and_optimum(&["4c 4d *=4h 4s", "5d 6d 7d"], "Kc Kd 4h", &[]);
        assert!(strict > optimum, "{strict:?}");
    }

    /// 5d 6d and 5h 6h want 7d and 7h, which leaves 7c alone. Freely, 7c
    /// joins 8c 9c 10c and every hand card is placed; robbing, that meld
    /// holds no hand card and is no piece of one table meld, so nothing is
    /// placed. The floor reads the same.
    #[test]
    fn a_meld_of_table_cards_alone_is_a_piece_of_one_in_the_floor_too() {
        floor_reaches(&["7c 7d 7h", "8c 9c 10c"], "5d 6d 5h 6h", (4, 0));
    }

    /// What stays of a table run may keep its joker before its naturals
    /// (*=10d Jd Qd after 8d and 9d are robbed), where the floor's sweep
    /// puts a run's tokens after them: no stricter than the turn.
    #[test]
    fn a_piece_may_keep_its_joker_in_front() {
        floor_reaches(&["8d 9d *=10d Jd Qd"], "8c 8h 9c 9h", (0, 3));
    }

    /// A run robbed of its joker is a changed meld, as a set is: Kc Kd
    /// take the joker of 6h 7h 8h *=9h, and what stays is a piece. Read
    /// by its naturals, the floor kept the run and said one change.
    #[test]
    fn a_run_robbed_of_its_joker_is_changed_in_the_floor_too() {
        floor_reaches(&["6h 7h 8h *=9h", "5d 6d 7d"], "Kc Kd", (0, 2));
    }

    /// Held whole, a run may hold its joker anywhere, declared anew: 4c
    /// joins 6c 7c *=8c as 4c *=5c 6c 7c, no change; and where the joker
    /// comes after the naturals (3d joins 4d 5d 6d 7d *=8d), the floor's
    /// sweep keeps the token that holds the run, no spare one.
    #[test]
    fn a_run_holds_its_joker_anywhere_in_the_floor_too() {
        floor_reaches(&["6c 7c *=8c", "Kh Kd Ks"], "4c", (0, 0));
        floor_reaches(&["4d 5d 6d 7d *=8d", "Kh Kc Ks"], "3d", (0, 0));
    }

    /// A table set gives one piece: where the free optimum kept 7c 7d 7h
    /// and made a second 7c 7d 7h of the sevens of three runs (a
    /// `rearrange_stats` position), robbing cannot, and neither can the
    /// floor.
    #[test]
    fn two_sets_without_a_hand_card_are_pieces_of_two_table_sets() {
        let table = [
            "7c 8c *=9c 10c",
            "Kc Kd Kh",
            "7c 7d 7h",
            "*=Kc Kd Kh Ks",
            "Qc Qd Qh",
            "9s 10s Js Qs",
            "4h 5h 6h 7h",
            "7d 8d *=9d",
            "5c 5d 5h 5s",
        ];
        let hand = "4c 4s 3c 6s Ac 8s As 10h 2s 4c Qh 6c 10s 10d";
        floor_reaches(&table, hand, (2, 8));
    }

    /// 5c and 6c, robbed for 4d 5d 6d and 5h 6h 7h, join 2c 3c 4c with
    /// the hand's joker, its only hand card: the floor's sweep leaves a
    /// spare token off a run's end, but not the one such a run needs.
    #[test]
    fn a_run_of_table_cards_may_take_the_hands_joker_last() {
        floor_reaches(&["2c 3c 4c", "5c 5d 5h", "6c 6d 6h"], "* 4d 7h", (0, 2));
    }
}
