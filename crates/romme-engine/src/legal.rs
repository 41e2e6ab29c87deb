//! Legal actions: out of turn, buying or knocking for the card just
//! discarded; on turn, every draw, discard, joker exchange and single-card
//! lay-off; every single meld the hand can form (natural cards first, jokers
//! filling gaps and ends, each reading of the jokers); and, before the
//! opening, combinations of those melds that reach the threshold (at most
//! [`MAX_OPENINGS`]). Every listed action is checked by applying it to a
//! copy, so the list never holds an illegal action. It is a finite,
//! representative list, not every possible combination: `apply` accepts any
//! legal action, listed or not (for example several lay-offs at once).

use std::sync::Arc;

use rand::{Rng, RngExt};
use romme_core::meld::{Declaration, MeldChecker, MeldKind};
use romme_core::opening::{self, OpeningAttempt};
use romme_core::ruleset::{FinalDiscard, Ruleset, RunRules, SetSuits};
use romme_core::{Card, CardKind, Face, MeldCard, Rank, Suit};
use smallvec::SmallVec;

use crate::action::{Action, DrawSource, LayOffPart};
use crate::game::{Game, Meld, Phase};
use crate::meld_cache::{Group, GroupKey, MeldCache, MeldSlots, Readings};
use crate::play_bound::PlayBound;

/// Number of face slots, as [`Face::index`] counts them.
const FACES: usize = Face::SLOTS;

/// Most opening combinations listed.
pub const MAX_OPENINGS: usize = 64;

/// Whether a candidate list holds what the solver's costliest searches
/// find — the way of going out, the rearrangement of the table — or leaves
/// each to a slot of its own, worked out on demand (see [`Deferred`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Searches {
    Listed,
    Deferred,
}

/// With [`Searches::Deferred`], the searches a listing left out because
/// they may find an action: the way of going out (the hand is short
/// enough to ask the solver) and the rearrangement of the table (the
/// ruleset allows one and the seat has opened).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Deferred {
    go_out: bool,
    rearrange: bool,
}

/// Which plays a candidate list holds: all of them, or only the melds and
/// lay-offs (the question whether a card can be melded at once needs no
/// rearrangement of the table, no discard and no joker exchange).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plays {
    All,
    MeldsAndLayOffs,
}

/// Hands this short get the solver's way of going out as a candidate.
pub(crate) const GO_OUT_HAND: usize = 5;

/// Search steps spent on opening combinations.
const OPENING_STEPS: usize = 4000;

impl Game {
    /// Opening combinations of the single `melds` that reach the threshold
    /// (or put out the whole hand, for a Hand-Rommé), highest value first.
    /// Every combination holds the cards in `must` (a card taken from the
    /// discard pile, a freed joker) when they can be melded at all. The
    /// search is bounded ([`OPENING_STEPS`], [`MAX_OPENINGS`]); melds are
    /// tried in order of falling value, and melds with a `must` card first,
    /// so the combinations a player most wants are found first.
    fn opening_combos(
        &self,
        groups: &[Arc<Readings>],
        hand: &[CardKind],
        must: &[CardKind],
    ) -> Vec<MeldRefs> {
        best_first(self.openings_found(groups, hand, must, MAX_OPENINGS))
    }

    /// [`Game::opening_combos`] in the order the search finds them, the
    /// search stopped once it has found `enough` (a search stopped so has
    /// found the first `enough` of the listing's, in the same order).
    fn openings_found(
        &self,
        groups: &[Arc<Readings>],
        hand: &[CardKind],
        must: &[CardKind],
        enough: usize,
    ) -> Vec<(u32, usize, MeldRefs)> {
        let table_value = self.opening_table_value();
        if !self.melds_may_open(groups, hand.len(), table_value) {
            return Vec::new();
        }
        self.opening_combos_by(groups, hand, must, table_value, |search, roots, state| {
            state.enough = enough.min(MAX_OPENINGS);
            // (Room for what it is asked to find: growing the list copied
            // the combinations found, a tenth of a search with wild cards.)
            state.out.reserve(state.enough);
            search.go(0, roots, opening::Tally::default(), state);
        })
    }

    /// How many opening combinations the listing's search finds for
    /// `hand` with the single melds `groups` (no card that must be melded).
    #[cfg(test)]
    pub(crate) fn opening_combos_for_tests(
        &self,
        groups: &[Arc<Readings>],
        hand: &[CardKind],
    ) -> usize {
        self.opening_combos(groups, hand, &[]).len()
    }

    /// The cards an opening in this turn must hold: a card taken from the
    /// discard pile, freed jokers.
    fn opening_must(&self) -> Vec<CardKind> {
        self.ts
            .taken
            .iter()
            .map(|c| c.kind())
            .chain(self.ts.freed.iter().map(|c| c.kind()))
            .collect()
    }

    /// Where the single melds of `groups` are that `seat` (opened) may
    /// meld, in order: plays the engine refuses for the cards they use
    /// (one that must be melded is missing) are not listed.
    fn allowed_single_melds<'g>(
        &'g self,
        seat: usize,
        groups: &'g [Arc<Readings>],
    ) -> impl Iterator<Item = MeldRef> + 'g {
        meld_refs(groups).filter_map(move |(at, d)| {
            let used = d.ordered.iter().map(|c| c.card);
            self.play_allowed_ok(seat, false, false, used).then_some(at)
        })
    }

    /// `seat`'s hand as kinds and its single melds, as its listing reads
    /// them.
    fn hand_single_melds(&self, seat: usize) -> Option<(Kinds, Vec<Arc<Readings>>)> {
        let checker = self.checker().ok()?;
        let hand: Kinds = self.hands.get(seat)?.iter().map(|c| c.kind()).collect();
        let groups = single_melds(&checker, &self.rules, &hand, Some(&self.melds));
        Some((hand, groups))
    }

    /// The single melds of `seat`'s listing (opened), in its order: a
    /// listing's first part, without the rest.
    fn single_meld_slots(&self, seat: usize) -> Option<NewMelds> {
        let (_, groups) = self.hand_single_melds(seat)?;
        let combos = self
            .allowed_single_melds(seat, &groups)
            .map(|at| smallvec::smallvec![at])
            .collect();
        Some(NewMelds {
            groups,
            combos,
            complete: true,
        })
    }

    /// The opening combinations of `seat`'s listing (not yet opened) in
    /// the order the search finds them, stopped once it has found
    /// `enough`: the hand's single melds, and the combinations of them.
    fn opening_slots(&self, seat: usize, enough: usize) -> Option<NewMelds> {
        let (hand, groups) = self.hand_single_melds(seat)?;
        let found = self.openings_found(&groups, &hand, &self.opening_must(), enough);
        Some(NewMelds {
            complete: found.len() < enough,
            combos: found.into_iter().map(|(_, _, c)| c).collect(),
            groups,
        })
    }

    /// The opening combinations the search run by `run` (from the first
    /// meld to the last root) finds, as (points, cards, melds) in the
    /// order found, the table counting `table_value`
    /// ([`Game::opening_table_value`]).
    fn opening_combos_by(
        &self,
        groups: &[Arc<Readings>],
        hand: &[CardKind],
        must: &[CardKind],
        table_value: u32,
        run: impl FnOnce(&OpeningSearch<'_>, usize, &mut SearchState),
    ) -> Vec<(u32, usize, MeldRefs)> {
        let keep = self.opening_keep();
        // (Sized to the readings: with two wild cards a group has three
        // on average, and growing the list copied it.)
        let mut decls: Vec<Decl<'_>> = Vec::with_capacity(groups.iter().map(|g| g.len()).sum());
        for (group, g) in groups.iter().zip(0u32..) {
            for (r, d) in group.iter().enumerate() {
                let holds = !must.is_empty() && d.ordered.iter().any(|c| must.contains(&c.card));
                // (`r` fits: a group has a few readings.)
                decls.push(Decl {
                    must: holds,
                    points: group.points(r),
                    meld: d,
                    at: (g, r as u32),
                    slots: group.slots(r),
                });
            }
        }
        // Those holding a `must` card first, then by points, highest
        // first, ties in list order.
        if decls.len() > 1 {
            let order = opening_order(&decls, |d| (d.must, d.points));
            decls = order.iter().map(|&i| decls[i as usize]).collect();
        }
        let roots = if must.is_empty() {
            decls.len()
        } else {
            decls.iter().filter(|d| d.must).count()
        };
        let mut held = [0u8; KIND_SLOTS];
        for &k in hand {
            let slot = usize::from(kind_slot(k));
            held[slot] = held[slot].saturating_add(1);
        }
        let short = Shortages::new(&decls);
        let mut needed: SmallVec<[(u8, u8); 4]> = SmallVec::new();
        for &m in must {
            let slot = kind_slot(m);
            match needed.iter_mut().find(|(s, _)| *s == slot) {
                Some((_, n)) => *n = n.saturating_add(1),
                None => needed.push((slot, 1)),
            }
        }
        let search = OpeningSearch {
            rules: &self.rules,
            decls: &decls,
            short: &short,
            held,
            needed,
            table_value,
            joker_exchanged: self.ts.exchanged,
            keep,
            opened_before: self.ts.opened_before,
        };
        let mut state = SearchState {
            // (A combination rarely holds more melds.)
            chosen: Vec::with_capacity(8),
            left: held,
            blocked: short.initial(&held),
            left_len: hand.len(),
            out: Vec::new(),
            steps: 0,
            enough: MAX_OPENINGS,
        };
        run(&search, roots, &mut state);
        state.out
    }

    /// Cards an opening must leave in the hand: one for the final discard
    /// where one is required.
    fn opening_keep(&self) -> usize {
        usize::from(self.rules.going_out.final_discard == FinalDiscard::Required)
    }

    /// What the table's melds count toward an opening: their value with
    /// `table_counts`, else nothing (and then not worked out: it costs).
    pub(crate) fn opening_table_value(&self) -> u32 {
        if self.rules.opening.table_counts {
            self.table_value()
        } else {
            0
        }
    }

    /// Whether some combination of the single melds in `groups` might open
    /// (see [`opening::points_may_open`]) with the table counting
    /// `table_value`: all of them together reach the threshold, or together
    /// they hold enough cards to put out a hand of `hand_len` where a
    /// Hand-Rommé is waived. False rules out every combination, so the
    /// search is not set up.
    fn melds_may_open(&self, groups: &[Arc<Readings>], hand_len: usize, table_value: u32) -> bool {
        let mut all = opening::Tally::default();
        let mut cards = 0;
        for group in groups {
            for (r, d) in group.iter().enumerate() {
                all = all.with(group.points(r), d.wilds > 0);
                cards += d.ordered.len();
            }
        }
        self.tally_may_open(&all, cards, hand_len, table_value)
    }

    /// Whether melds of at most `all`'s points, holding `cards` cards
    /// together, might open a hand of `hand_len` (see
    /// [`Game::melds_may_open`]).
    pub(crate) fn tally_may_open(
        &self,
        all: &opening::Tally,
        cards: usize,
        hand_len: usize,
        table_value: u32,
    ) -> bool {
        if all.melds == 0 {
            return false;
        }
        let attempt = OpeningAttempt {
            melds: &[],
            lay_off_value: 0,
            table_value,
            joker_exchanged: self.ts.exchanged,
            // The melds overlap, so this overcounts the cards they could
            // put out together: a necessary condition only.
            whole_hand: cards + self.opening_keep() >= hand_len && !self.ts.opened_before,
        };
        opening::points_may_open(&self.rules, all, &attempt)
    }

    /// Every listed legal action of `seat` (empty when it is not the seat's
    /// turn or the match is over), in a fixed order.
    pub fn legal_actions(&self, seat: usize) -> Vec<Action> {
        self.candidates(seat)
            .into_iter()
            .filter(|a| self.accepts(seat, a))
            .collect()
    }

    /// [`Game::legal_actions`] with the plays ([`Action::is_play`]) listed
    /// but not checked: the same order, the plays the engine refuses
    /// included. Every other action is checked. For a caller that tries
    /// each play it considers on a copy of the game anyway (the heuristic
    /// bot), so that a play is checked once instead of twice; what it
    /// submits must come from such a trial, or pass [`Game::accepts`].
    pub fn legal_actions_unchecked_plays(&self, seat: usize) -> Vec<Action> {
        self.candidates(seat)
            .into_iter()
            .filter(|a| a.is_play() || self.accepts(seat, a))
            .collect()
    }

    /// One action drawn uniformly from [`Game::legal_actions`], found
    /// without checking the whole list: candidates are drawn at random and
    /// checked until one is legal (rejection sampling keeps the draw
    /// uniform). `None` when there is no legal action.
    pub fn random_legal_action<R: Rng + ?Sized>(&self, seat: usize, rng: &mut R) -> Option<Action> {
        // The solver's way of going out and the rearrangement of the table
        // are the costliest candidates to find: each gets a slot of its own
        // (after the list, in that order) and is worked out only when
        // drawn. Each is one action at most, and it is rejected when the
        // list holds it already (that entry stands for it) or the engine
        // refuses it, so every legal action keeps exactly one slot.
        //
        // Melds are made into actions only when drawn (see [`Listing`]).
        //
        // A seat that can only draw draws as from the listing, without one
        // (its vector was an allocation per draw).
        if self.draws_only(seat) {
            // (By number: a vector of the actions costs a copy of each. The
            // numbers not drawn yet lie in an array for the usual few.)
            let count = self.draw_count();
            let mut few = [0usize; 8];
            let mut many = Vec::new();
            let draws = if count <= few.len() {
                &mut few[..count]
            } else {
                many.resize(count, 0);
                &mut many[..]
            };
            for (i, d) in draws.iter_mut().enumerate() {
                *d = i;
            }
            // Drawn as a vector's `swap_remove` would: the last number
            // takes the place of the one drawn.
            let mut left = count;
            while left > 0 {
                let i = rng.random_range(0..left);
                left -= 1;
                let a = self.draw_action(draws[i]);
                draws[i] = draws[left];
                if self.accepts_keeping(seat, &a, true) {
                    return Some(a);
                }
            }
            return None;
        }
        // Where the plays can be bounded cheaply, the listing is built
        // only when a play's slot is drawn.
        let mut first = None;
        // (Kept where it is made: it is large to move.)
        let mut quick = QuickDraw::new(self, seat);
        if let Some(q) = quick.as_mut() {
            // The new melds' slots, once a slot of theirs is drawn: after
            // the opening the single melds, before it the opening
            // combinations, numbered in the order the search finds them.
            let mut new_melds: Option<NewMelds> = None;
            loop {
                let at = match q.draw(self, seat, rng) {
                    Ok(found) => return found,
                    Err(at) => at,
                };
                // A lay-off or an exchange is found without the listing;
                // where its slot stands for nothing, or the engine refuses
                // it, the draw starts again on the listing.
                if let Some(s) = q.table_slot(at) {
                    if let Some(a) = self.table_slot(seat, &q.kinds, s) {
                        if self.accepts_keeping(seat, &a, true) {
                            return Some(a);
                        }
                    }
                    break;
                }
                if !(q.split && at < q.bound.melds) {
                    first = Some(at);
                    break;
                }
                // A new meld, without the rest of the listing; before the
                // opening, the search stops at the combination drawn.
                // Where there are fewer, their number is known and
                // replaces the bound, and the draw starts again; where the
                // engine refuses the one drawn, the draw starts again on
                // the listing.
                if new_melds.is_none() {
                    new_melds = if self.opened[seat] {
                        self.single_meld_slots(seat)
                    } else {
                        self.opening_slots(seat, at + 1)
                    };
                }
                let Some(found) = &new_melds else {
                    first = Some(at);
                    break;
                };
                match found.action(at) {
                    Some(a) => {
                        if self.accepts_keeping(seat, &a, true) {
                            return Some(a);
                        }
                        break;
                    }
                    None => {
                        debug_assert!(found.complete, "a search stopped short of slot {at}");
                        q.bound.melds = found.combos.len();
                    }
                }
            }
        }
        let (mut candidates, mut deferred) = self.candidates_with(seat, Searches::Deferred);
        candidates.unique_ready();
        if let Some(q) = &quick {
            first = q.slot_in(&mut candidates, deferred, first);
        }
        loop {
            let listed = candidates.len();
            let slots = listed + usize::from(deferred.go_out) + usize::from(deferred.rearrange);
            if slots == 0 {
                return None;
            }
            let i = match first.take() {
                Some(i) => i,
                None => rng.random_range(0..slots),
            };
            if i >= listed {
                let found = if deferred.go_out && i == listed {
                    deferred.go_out = false;
                    let hand: Vec<CardKind> = self.hands[seat].iter().map(|c| c.kind()).collect();
                    self.go_out_candidates(seat, &hand).into_iter().next()
                } else {
                    deferred.rearrange = false;
                    self.rearrange_candidates(seat).into_iter().next()
                };
                if let Some(a) = found {
                    if !candidates.holds(&a) && self.accepts_keeping(seat, &a, true) {
                        return Some(a);
                    }
                }
                continue;
            }
            let a = candidates.take(i);
            // A play is kept with its plan, so that applying it next does
            // not check it again.
            if self.accepts_keeping(seat, &a, true) {
                return Some(a);
            }
        }
    }

    /// The candidates `legal_actions` checks: unique, in a fixed order.
    fn candidates(&self, seat: usize) -> Vec<Action> {
        unique(
            self.candidates_with(seat, Searches::Listed)
                .0
                .into_actions(),
        )
    }

    /// The candidates (duplicates not yet filtered), with the searches'
    /// finds listed or deferred, and which searches were left out.
    fn candidates_with(&self, seat: usize, searches: Searches) -> (Listing, Deferred) {
        if let Some(draws) = self.only_draws(seat) {
            return (Listing::of(draws), Deferred::default());
        }
        if self.phase == Phase::MatchOver || !self.players.contains(&seat) {
            return (Listing::default(), Deferred::default());
        }
        if seat != self.turn {
            // Out of turn: buying or knocking for the card just discarded.
            if self.window.is_none() {
                return (Listing::default(), Deferred::default());
            }
            return (
                Listing::of([Action::Buy, Action::Knock]),
                Deferred::default(),
            );
        }
        let mut deferred = Deferred::default();
        let candidates = match self.phase {
            Phase::Draw => {
                // Without a discard pile (else only draws, above), who can
                // play need not draw (`001`).
                let (mut plays, d) = self.play_candidates_with(seat, searches, Plays::All);
                plays.prepend(self.draws());
                deferred = d;
                plays
            }
            Phase::Play => {
                let (mut c, d) = self.play_candidates_with(seat, searches, Plays::All);
                deferred = d;
                c.push(Action::EndTurn);
                c
            }
            Phase::MatchOver => Listing::default(),
        };
        (candidates, deferred)
    }

    /// The draws from every source (the stock, the discard pile, each of
    /// the stock's piles where it is split), numbered as
    /// [`Game::draw_action`] numbers them.
    fn draws(&self) -> SmallVec<[Action; 4]> {
        (0..self.draw_count())
            .map(|i| self.draw_action(i))
            .collect()
    }

    /// How many draws [`Game::draws`] lists.
    fn draw_count(&self) -> usize {
        match self.pile_sizes.len() {
            piles @ 2.. => 2 + piles,
            _ => 2,
        }
    }

    /// Draw number `i`: the stock, the discard pile, then each pile.
    fn draw_action(&self, i: usize) -> Action {
        let from = match i {
            0 => DrawSource::Stock,
            1 => DrawSource::Discard,
            p => DrawSource::Pile(p - 2),
        };
        Action::Draw { from }
    }

    /// Whether `seat` can do nothing but draw (on turn, in the draw phase,
    /// with a discard pile).
    fn draws_only(&self, seat: usize) -> bool {
        self.phase == Phase::Draw
            && seat == self.turn
            && self.players.contains(&seat)
            && self.rules.turn.discard_pile
    }

    /// The seat's candidates when it can do nothing but draw
    /// ([`Game::draws_only`]): the draws. (What [`Game::candidates_with`]
    /// lists then; the random draw takes them by number.)
    fn only_draws(&self, seat: usize) -> Option<SmallVec<[Action; 4]>> {
        self.draws_only(seat).then(|| self.draws())
    }

    /// With a short hand: the solver's way of going out (new melds and
    /// lay-offs in one action, the final discard left for the next one),
    /// which single melds and lay-offs may not reach (several lay-offs at
    /// once where one card may not be left).
    fn go_out_candidates(&self, seat: usize, hand: &[CardKind]) -> Vec<Action> {
        if hand.len() > GO_OUT_HAND {
            return Vec::new();
        }
        // The last card, where a final discard is required, goes out by
        // being discarded: a way out with nothing to meld or lay off, which
        // is no action of its own (see `plan_action`).
        let discard = self.rules.going_out.final_discard == FinalDiscard::Required;
        if (discard && hand.len() <= 1) || !self.way_out_may_exist(seat) {
            return Vec::new();
        }
        self.solver_way_out(seat, hand)
    }

    /// [`Game::go_out_candidates`] without its first checks: the solver's
    /// way out for `seat`'s `hand` as an action, if it finds one the
    /// listing can play.
    fn solver_way_out(&self, seat: usize, hand: &[CardKind]) -> Vec<Action> {
        let Some(tables) = self.solver_tables() else {
            return Vec::new();
        };
        let Ok(checker) = self.checker() else {
            return Vec::new();
        };
        // The table's melds as checked before (the game keeps them, for the
        // table as it lies).
        let checks = self.table.checks(|| {
            let table = self.table_melds();
            let checked: Result<Vec<Declaration>, _> = table
                .iter()
                .map(|m| self.melds.check(&checker, m, true))
                .collect();
            (table, checked.ok())
        });
        let (table, Some(checked)) = checks else {
            return Vec::new();
        };
        let Ok(Some(plan)) = tables.solver().and_then(|solver| {
            romme_solver::go_out_checked(&solver, table, checked, hand, self.opened[seat])
        }) else {
            return Vec::new();
        };
        self.plan_action(&plan.melds, &plan.lay_offs)
            .into_iter()
            .collect()
    }

    /// The one action that makes a solver plan's new melds and lay-offs
    /// (an opening, a way to go out): `None` when the plan is empty or
    /// frees jokers (an exchange is its own action). Not checked.
    pub fn plan_action(
        &self,
        melds: &[Vec<MeldCard>],
        plan: &[romme_solver::LayOff],
    ) -> Option<Action> {
        if plan.iter().any(|l| !l.freed.is_empty()) {
            return None;
        }
        let mut lay_offs = Vec::new();
        for l in plan {
            let old = self.table.get(l.meld)?.meld_cards();
            // The new cards of the meld, with their declarations.
            let mut rest = old;
            let mut cards = Vec::new();
            for c in &l.result {
                match rest.iter().position(|o| o == c) {
                    Some(i) => {
                        rest.swap_remove(i);
                    }
                    None => cards.push(*c),
                }
            }
            lay_offs.push(LayOffPart {
                meld: l.meld,
                cards,
            });
        }
        if melds.is_empty() && lay_offs.is_empty() {
            return None;
        }
        Some(Action::Meld {
            melds: melds.to_vec(),
            lay_offs,
        })
    }

    /// Candidate melds and lay-offs after drawing (not yet checked), the
    /// way of going out among them.
    fn meld_candidates(&self, seat: usize) -> Vec<Action> {
        self.play_candidates_with(seat, Searches::Listed, Plays::MeldsAndLayOffs)
            .0
            .into_actions()
    }

    /// Candidate actions after drawing, with the searches' finds listed or
    /// deferred (and which were).
    fn play_candidates_with(
        &self,
        seat: usize,
        searches: Searches,
        plays: Plays,
    ) -> (Listing, Deferred) {
        let none = Deferred::default();
        let Ok(checker) = self.checker() else {
            return (Listing::default(), none);
        };
        if self.patience.is_some() {
            return (Listing::of(self.place_candidates(seat)), none);
        }
        // The hand's kinds, on the stack for ordinary hands.
        let hand: Kinds = self.hands[seat].iter().map(|c| c.kind()).collect();
        let kinds = distinct_kinds(&self.hands[seat]);
        if self.rules.concealed.enabled {
            let mut out: Vec<Action> = kinds
                .into_iter()
                .map(|card| Action::Discard { card })
                .collect();
            out.extend(self.lay_down_candidates(seat));
            return (Listing::of(out), none);
        }
        let mut out = Listing {
            groups: single_melds(&checker, &self.rules, &hand, Some(&self.melds)),
            items: Vec::new(),
        };
        // Room for the discards, the calls and a few lay-offs after the
        // melds (reserved with them).
        let rest = 2 * hand.len() + self.table.len() + 4;
        if self.opened[seat] {
            out.items
                .reserve(out.groups.iter().map(|g| g.len()).sum::<usize>() + rest);
            let melds = self.allowed_single_melds(seat, &out.groups);
            out.items
                .extend(melds.map(|at| Candidate::Melds(smallvec::smallvec![at])));
        } else {
            let combos = self.opening_combos(&out.groups, &hand, &self.opening_must());
            out.items.reserve(combos.len() + rest);
            out.items.extend(combos.into_iter().map(Candidate::Melds));
        }
        let mut deferred = none;
        match searches {
            Searches::Listed => out.extend(self.go_out_candidates(seat, &hand)),
            Searches::Deferred => {
                deferred.go_out = hand.len() <= GO_OUT_HAND && self.way_out_may_exist(seat);
            }
        }
        // Single-card lay-offs (a joker once per reading), of the cards
        // and onto the melds the rules let the seat lay off.
        let lay_off_kinds: Kinds = kinds
            .iter()
            .copied()
            .filter(|&k| self.play_allowed_ok(seat, true, true, std::iter::once(k)))
            .collect();
        // What each table meld can take and which jokers it holds, kept
        // for the table as it lies.
        let lying = self.lying_table();
        for (i, meld) in self.table.iter().enumerate() {
            let kinds_here = if self.may_lay_off_on(seat, meld.owner) {
                &lay_off_kinds[..]
            } else {
                &[]
            };
            let Some(here) = lying.melds.get(i) else {
                continue;
            };
            if kinds_here.is_empty() {
                push_exchanges(&mut out, plays, i, here, &kinds);
                continue;
            }
            let shape = here.shape;
            for &k in kinds_here {
                if let (Some(f), false) = (k.face(), checker.is_wild(k)) {
                    if !shape.could_extend(f) {
                        continue;
                    }
                }
                // Table melds number far below `u32::MAX`.
                let lay_off = |stands_for: Option<Face>| {
                    Candidate::LayOff(
                        i as u32,
                        MeldCard {
                            card: k,
                            stands_for,
                        },
                    )
                };
                if !checker.is_wild(k) {
                    out.items.push(lay_off(None));
                    continue;
                }
                for f in self.wild_lay_off_faces(&checker, meld, k) {
                    out.items.push(lay_off(f));
                }
            }
            push_exchanges(&mut out, plays, i, here, &kinds);
        }
        if plays == Plays::MeldsAndLayOffs {
            return (out, deferred);
        }
        match searches {
            Searches::Listed => out.extend(self.rearrange_candidates(seat)),
            Searches::Deferred => deferred.rearrange = self.may_rearrange(seat),
        }
        for &k in &kinds {
            out.items.push(Candidate::Discard(k));
        }
        if self.rules.going_out.rest_allowed > 0 {
            out.push(Action::CallRomme { discard: None });
            for &k in &kinds {
                out.push(Action::CallRomme { discard: Some(k) });
            }
        }
        (out, deferred)
    }
}

/// The random draw before the listing (see [`crate::play_bound`]): the
/// actions at the end of a play-phase listing that need no search (the
/// discards, the calls of Rommé, the end of the turn: the "quick" ones,
/// numbered in list order), and a bound on the listing's other slots.
struct QuickDraw {
    /// The hand's kinds, each once.
    kinds: Kinds,
    /// Whether the listing holds calls of Rommé.
    calls: bool,
    /// How many quick actions there are.
    quick: usize,
    /// The quick actions drawn and refused, by number, in order.
    refused: SmallVec<[usize; 4]>,
    /// At most this many other slots ([`Game::plays_at_most`]), by part.
    bound: PlayBound,
    /// Whether a table slot is told apart without the listing
    /// ([`Game::table_slot`]); else the table slots are numbered with the
    /// new melds', in list order.
    split: bool,
}

impl QuickDraw {
    /// The draw for `seat`, where its plays have a cheap bound.
    fn new(game: &Game, seat: usize) -> Option<QuickDraw> {
        if game.phase != Phase::Play || seat != game.turn {
            return None;
        }
        let kinds = distinct_kinds(game.hands.get(seat)?);
        let bound = game.plays_at_most(seat, &kinds)?;
        let calls = game.rules.going_out.rest_allowed > 0;
        let quick = kinds.len() + if calls { kinds.len() + 1 } else { 0 } + 1;
        // A natural card that is wild (a round wild) is laid off once per
        // reading, which the table's slots do not count. (Only rulesets
        // with round wilds have such cards.)
        let split = !game.rules.melds.wilds.round_wild
            || game
                .checker()
                .is_ok_and(|c| !kinds.iter().any(|&k| k != CardKind::Joker && c.is_wild(k)));
        Some(QuickDraw {
            kinds,
            calls,
            quick,
            refused: SmallVec::new(),
            bound,
            split,
        })
    }

    /// Quick action number `n`: the discards, the calls of Rommé (without
    /// a discard, then with each), the end of the turn.
    fn action(&self, n: usize) -> Action {
        let k = self.kinds.len();
        match n.checked_sub(k) {
            None => Action::Discard {
                card: self.kinds[n],
            },
            Some(0) if self.calls => Action::CallRomme { discard: None },
            Some(c) if self.calls && c <= k => Action::CallRomme {
                discard: Some(self.kinds[c - 1]),
            },
            Some(_) => Action::EndTurn,
        }
    }

    /// Draw among the quick actions not refused yet and the play slots: a
    /// legal quick action drawn (`Ok(Some)`), none left and no plays
    /// (`Ok(None)`), or the play slot drawn (`Err`, counted from 0).
    fn draw<R: Rng + ?Sized>(
        &mut self,
        game: &Game,
        seat: usize,
        rng: &mut R,
    ) -> Result<Option<Action>, usize> {
        loop {
            let left = self.quick - self.refused.len();
            let slots = left + self.bound.total();
            if slots == 0 {
                return Ok(None);
            }
            let i = rng.random_range(0..slots);
            if i >= left {
                return Err(i - left);
            }
            // The `i`-th quick action not refused.
            let mut n = i;
            for &r in &self.refused {
                if r <= n {
                    n += 1;
                }
            }
            let a = self.action(n);
            if game.accepts_keeping(seat, &a, true) {
                return Ok(Some(a));
            }
            let at = self.refused.partition_point(|&r| r < n);
            self.refused.insert(at, n);
        }
    }

    /// The table slot of play slot `j`, where table slots are told apart
    /// without the listing.
    fn table_slot(&self, j: usize) -> Option<usize> {
        let s = j.checked_sub(self.bound.melds)?;
        (self.split && s < self.bound.table).then_some(s)
    }

    /// Take the quick actions drawn and refused out of the built `listing`
    /// (they end it, in number order), and give the listing's slot (as
    /// [`Game::random_legal_action`] numbers them) of play slot `j` (not
    /// a table slot told apart without the listing): `None` when the
    /// listing has fewer plays of its part than the bound (the slot stood
    /// for nothing, and a new one is drawn), or no slot is given.
    fn slot_in(
        &self,
        listing: &mut Listing,
        deferred: Deferred,
        j: Option<usize>,
    ) -> Option<usize> {
        let start = listing.len().checked_sub(self.quick)?;
        debug_assert!(
            (0..self.quick).all(|n| {
                listing
                    .items
                    .get(start + n)
                    .map(|c| listing.action(c.clone()))
                    == Some(self.action(n))
            }),
            "the listing ends in the quick actions"
        );
        for &n in self.refused.iter().rev() {
            listing.items.remove(start + n);
        }
        let searches = usize::from(deferred.go_out) + usize::from(deferred.rearrange);
        // The new melds come first in the listing, the table's plays after
        // them.
        let melds = if self.split {
            listing.items[..start]
                .iter()
                .take_while(|c| matches!(c, Candidate::Melds(_)))
                .count()
        } else {
            start
        };
        let (meld_slots, search_from) = if self.split {
            (self.bound.melds, self.bound.melds + self.bound.table)
        } else {
            let plays = self.bound.melds + self.bound.table;
            (plays, plays)
        };
        debug_assert!(
            melds <= meld_slots && searches <= self.bound.searches,
            "{melds} new melds and {searches} searches over the bound {:?}",
            self.bound
        );
        let j = j?;
        if j < meld_slots {
            (j < melds).then_some(j)
        } else {
            let k = j.checked_sub(search_from)?;
            (k < searches).then_some(listing.len() + k)
        }
    }
}

/// Opening combinations found, as (points, cards, melds), best first
/// (most points, then most cards), ties in the order found: sorted as
/// small keys with the index last (unique, so an unstable sort gives the
/// stable order), not as the combinations.
fn best_first(mut out: Vec<(u32, usize, MeldRefs)>) -> Vec<MeldRefs> {
    let mut order: Vec<(std::cmp::Reverse<(u32, usize)>, usize)> = out
        .iter()
        .enumerate()
        .map(|(i, &(value, cards, _))| (std::cmp::Reverse((value, cards)), i))
        .collect();
    order.sort_unstable();
    order
        .into_iter()
        .map(|(_, i)| std::mem::take(&mut out[i].2))
        .collect()
}

/// A hand's new melds for the random draw's slots of new melds: before
/// the opening, the opening combinations in the order the search finds
/// them ([`Game::opening_slots`]); after it, the single melds in the
/// listing's order ([`Game::single_meld_slots`]).
struct NewMelds {
    /// The hand's single melds, which the combinations point into.
    groups: Vec<Arc<Readings>>,
    combos: Vec<MeldRefs>,
    /// Whether all are there (else the search stopped once it had found
    /// what was asked).
    complete: bool,
}

impl NewMelds {
    /// Combination `j` as an action.
    fn action(&self, j: usize) -> Option<Action> {
        let refs = self.combos.get(j)?;
        Some(Action::Meld {
            melds: melds_of(&self.groups, refs)
                .map(<[MeldCard]>::to_vec)
                .collect(),
            lay_offs: Vec::new(),
        })
    }
}

/// The melds of `refs` among the single melds `groups`.
fn melds_of<'a>(
    groups: &'a [Arc<Readings>],
    refs: &'a [MeldRef],
) -> impl Iterator<Item = &'a [MeldCard]> {
    refs.iter().filter_map(|&(g, r)| {
        let group = groups.get(usize::try_from(g).ok()?)?;
        Some(&group.get(usize::try_from(r).ok()?)?.ordered[..])
    })
}

/// Card kinds of a hand, on the stack for ordinary hands.
pub(crate) type Kinds = SmallVec<[CardKind; 16]>;

/// Each of a hand's card kinds once, in the hand's order (sorted, so
/// copies are neighbours), told apart by their bytes: a natural's copies
/// share the byte halved, and every joker is alike.
fn distinct_kinds(hand: &[Card]) -> Kinds {
    let key = |c: Card| {
        if c.is_joker() {
            u16::from(u8::MAX)
        } else {
            u16::from(c.id() >> 1)
        }
    };
    // An ordinary hand's kinds are written into an array in place and
    // taken whole (a push per kind checks the room each time).
    const ROOM: usize = 16;
    if hand.len() <= ROOM {
        let mut buf = [CardKind::Joker; ROOM];
        let mut n = 0;
        let mut last = u16::MAX;
        for &c in hand {
            if key(c) != last {
                last = key(c);
                buf[n] = c.kind();
                n += 1;
            }
        }
        return Kinds::from_buf_and_len(buf, n);
    }
    let mut out = Kinds::new();
    let mut last = u16::MAX;
    for &c in hand {
        if key(c) != last {
            last = key(c);
            out.push(c.kind());
        }
    }
    out
}

/// Where a single meld is in a listing's groups: (group, reading).
type MeldRef = (u32, u32);

/// New melds (no lay-offs) of a listing's single melds: an opening
/// combination or one meld.
type MeldRefs = SmallVec<[MeldRef; 4]>;

/// Every single meld of `groups` with where it is, in order.
fn meld_refs(groups: &[Arc<Readings>]) -> impl Iterator<Item = (MeldRef, &Declaration)> {
    groups
        .iter()
        .zip(0u32..)
        .flat_map(|(group, g)| group.iter().zip(0u32..).map(move |(d, r)| ((g, r), d)))
}

/// A listed candidate: an action, or new melds of the hand's single melds
/// that become an action only when wanted. A random draw wants one
/// candidate of a list that can hold dozens of opening combinations, each
/// of which would otherwise be copied into an action and dropped again.
#[derive(Debug, Clone)]
enum Candidate {
    Ready(Action),
    /// `Action::Meld` of these melds, without lay-offs.
    Melds(MeldRefs),
    /// `Action::LayOff` of one card onto table meld `.0`.
    LayOff(u32, MeldCard),
    /// `Action::Discard` of this card (no drop glue: most of a list).
    Discard(CardKind),
}

/// The candidates of a seat in list order, with the single-meld groups
/// their melds come from. Melds of the hand's single melds are never
/// listed twice (two readings never share a meld order, and two
/// combinations of them differ in some meld); [`Listing::unique_ready`]
/// leaves them alone.
#[derive(Debug, Default)]
struct Listing {
    groups: Vec<Arc<Readings>>,
    items: Vec<Candidate>,
}

impl Listing {
    /// A listing of these actions.
    fn of(actions: impl IntoIterator<Item = Action>) -> Listing {
        Listing {
            groups: Vec::new(),
            items: actions.into_iter().map(Candidate::Ready).collect(),
        }
    }

    fn len(&self) -> usize {
        self.items.len()
    }

    fn push(&mut self, a: Action) {
        self.items.push(Candidate::Ready(a));
    }

    fn extend(&mut self, actions: impl IntoIterator<Item = Action>) {
        self.items.extend(actions.into_iter().map(Candidate::Ready));
    }

    /// Put `actions` before the listed candidates.
    fn prepend(&mut self, actions: impl IntoIterator<Item = Action>) {
        self.items
            .splice(0..0, actions.into_iter().map(Candidate::Ready));
    }

    /// The melds of `refs`.
    fn melds<'a>(&'a self, refs: &'a [MeldRef]) -> impl Iterator<Item = &'a [MeldCard]> {
        melds_of(&self.groups, refs)
    }

    /// The action a candidate stands for.
    fn action(&self, c: Candidate) -> Action {
        match c {
            Candidate::Ready(a) => a,
            Candidate::Melds(refs) => Action::Meld {
                melds: self.melds(&refs).map(<[MeldCard]>::to_vec).collect(),
                lay_offs: Vec::new(),
            },
            Candidate::LayOff(meld, card) => Action::LayOff {
                meld: meld as usize,
                cards: vec![card],
            },
            Candidate::Discard(card) => Action::Discard { card },
        }
    }

    /// Take candidate `i` out as an action (the last takes its place).
    fn take(&mut self, i: usize) -> Action {
        let c = self.items.swap_remove(i);
        self.action(c)
    }

    /// Every candidate as an action, in order.
    fn into_actions(mut self) -> Vec<Action> {
        let items = std::mem::take(&mut self.items);
        items.into_iter().map(|c| self.action(c)).collect()
    }

    /// Whether some candidate stands for `a`.
    fn holds(&self, a: &Action) -> bool {
        self.items.iter().any(|c| match (c, a) {
            (Candidate::Ready(b), _) => b == a,
            (Candidate::Melds(refs), Action::Meld { melds, lay_offs }) => {
                lay_offs.is_empty()
                    && refs.len() == melds.len()
                    && self.melds(refs).zip(melds).all(|(x, y)| x == &y[..])
            }
            (Candidate::LayOff(i, card), Action::LayOff { meld, cards }) => {
                *i as usize == *meld && cards[..] == [*card]
            }
            (Candidate::Discard(k), Action::Discard { card }) => k == card,
            (Candidate::Melds(_) | Candidate::LayOff(..) | Candidate::Discard(_), _) => false,
        })
    }

    /// Drop the actions listed before, as [`unique`] does; the melds of
    /// single melds stay (they never repeat, nor stand for a listed
    /// action: the listing that calls this holds no other new melds, the
    /// way out being left to its own slot).
    fn unique_ready(&mut self) {
        debug_assert!(
            !self
                .items
                .iter()
                .any(|c| matches!(c, Candidate::Ready(Action::Meld { .. }))),
            "a listing with melds of its own"
        );
        let repeats = |c: &Candidate| matches!(c, Candidate::Ready(a) if may_repeat(a));
        if self.items.iter().filter(|c| repeats(c)).nth(1).is_none() {
            return;
        }
        let items = std::mem::take(&mut self.items);
        let mut kept: Vec<Candidate> = Vec::with_capacity(items.len());
        let mut seen = rustc_hash::FxHashSet::default();
        for c in items {
            if let (true, Candidate::Ready(a)) = (repeats(&c), &c) {
                use std::hash::BuildHasher as _;
                let fresh = seen.insert(rustc_hash::FxBuildHasher.hash_one(a));
                if !fresh
                    && kept
                        .iter()
                        .any(|k| matches!(k, Candidate::Ready(b) if b == a))
                {
                    continue;
                }
            }
            kept.push(c);
        }
        self.items = kept;
    }
}

/// The joker exchanges of table meld `i` (when the listing wants them)
/// for the cards among the hand's `kinds` (a joker is exchanged for the
/// card it stands for, from the hand).
fn push_exchanges(out: &mut Listing, plays: Plays, i: usize, here: &LyingMeld, kinds: &[CardKind]) {
    if plays == Plays::MeldsAndLayOffs {
        return;
    }
    for &face in &here.jokers {
        if kinds.contains(&CardKind::Natural(face)) {
            out.push(Action::ExchangeJoker {
                meld: i,
                card: CardKind::Natural(face),
            });
        }
    }
}

impl Game {
    /// What the listing asks of the table's melds, kept for the table as
    /// it lies.
    pub(crate) fn lying_table(&self) -> &LyingTable {
        self.table.lying(|melds| LyingTable::of(melds, &self.rules))
    }

    /// The faces the wild card `k` laid off on `meld` stands for, in the
    /// checker's order, each once (two readings may declare it alike: the
    /// ace below the two or above the king). The readings are kept per
    /// game (the table changes seldom).
    fn wild_lay_off_faces(
        &self,
        checker: &MeldChecker,
        meld: &Meld,
        k: CardKind,
    ) -> SmallVec<[Option<Face>; 4]> {
        let cards = meld.shown_with(&[MeldCard::plain(k)]);
        let faces =
            self.melds
                .wild_lay_offs(&cards, || match checker.declarations_matching(&cards) {
                    Ok(ds) => ds
                        .iter()
                        .filter_map(|d| d.cards.last().map(|c| c.stands_for))
                        .collect(),
                    Err(_) => Arc::from(Vec::new()),
                });
        let mut out = SmallVec::new();
        for &f in faces.iter() {
            if !out.contains(&f) {
                out.push(f);
            }
        }
        out
    }

    /// The lay-off or joker exchange of table slot `s` of `seat`'s hand of
    /// `kinds` (each once, in the hand's order), as its listing holds it:
    /// `None` where the slot stands for nothing (the listing does not hold
    /// it). The slots are those [`LyingTable::table_plays_at_most`] counts,
    /// kind by kind: a natural card's lay-offs (where the seat lays off
    /// now) onto each meld whose shape could take it, then its exchanges
    /// with each meld holding a joker that stands for it; the joker's
    /// lay-offs, per meld as many as the faces it could stand for there.
    /// Every lay-off and exchange the listing holds has exactly one slot.
    fn table_slot(&self, seat: usize, kinds: &[CardKind], mut s: usize) -> Option<Action> {
        let lying = self.lying_table();
        let lays_off = self.lays_off_now(seat);
        let suits = self.rules.deck.kind.suits().len();
        // The listing's filters: the card may be laid off, onto this meld.
        let listed = |k: CardKind, i: usize| {
            self.table
                .get(i)
                .is_some_and(|m| self.may_lay_off_on(seat, m.owner))
                && self.play_allowed_ok(seat, true, true, std::iter::once(k))
        };
        let lay_off = |i: usize, card: CardKind, stands_for: Option<Face>| Action::LayOff {
            meld: i,
            cards: vec![MeldCard { card, stands_for }],
        };
        for &k in kinds {
            match k {
                CardKind::Natural(f) => {
                    if lays_off {
                        let takers = usize::from(lying.takers[f.index()]);
                        if s < takers {
                            let i = lying.nth_meld(s, |m| m.shape.could_extend(f))?;
                            return listed(k, i).then(|| lay_off(i, k, None));
                        }
                        s -= takers;
                    }
                    let jokers = usize::from(lying.jokers[f.index()]);
                    if s < jokers {
                        let i = lying.nth_meld(s, |m| m.jokers.contains(&f))?;
                        return Some(Action::ExchangeJoker { meld: i, card: k });
                    }
                    s -= jokers;
                }
                CardKind::Joker if lays_off => {
                    for (i, m) in lying.melds.iter().enumerate() {
                        let n = m.shape.joker_faces_at_most(suits);
                        if s < n {
                            let meld = self.table.get(i)?;
                            if !listed(k, i) {
                                return None;
                            }
                            let faces = self.wild_lay_off_faces(&self.checker().ok()?, meld, k);
                            return faces.get(s).map(|&f| lay_off(i, k, f));
                        }
                        s -= n;
                    }
                }
                CardKind::Joker => {}
            }
        }
        None
    }
}

/// What the listing asks of the table as it lies, worked out once per
/// table: each meld's [`LyingMeld`], and per face how many melds could
/// take a natural card of it and how many hold a joker standing for it
/// (the lay-offs and exchanges of a natural card listed at most).
#[derive(Debug)]
pub(crate) struct LyingTable {
    melds: Box<[LyingMeld]>,
    /// Per [`Face::index`]: the melds [`MeldShape::could_extend`] with it.
    takers: [u16; FACES],
    /// Per [`Face::index`]: the melds with a joker standing for it.
    jokers: [u16; FACES],
    /// The faces a joker laid off could stand for, summed over the melds
    /// ([`MeldShape::joker_faces_at_most`]).
    joker_faces: usize,
}

impl LyingTable {
    fn of(table: &[Meld], rules: &Ruleset) -> LyingTable {
        let melds: Box<[LyingMeld]> = table.iter().map(|m| LyingMeld::of(m, rules)).collect();
        let mut takers = [0u16; FACES];
        let mut jokers = [0u16; FACES];
        let mut take = |f: Face| takers[f.index()] = takers[f.index()].saturating_add(1);
        let suits = rules.deck.kind.suits().len();
        let joker_faces = melds
            .iter()
            .map(|m| m.shape.joker_faces_at_most(suits))
            .fold(0, usize::saturating_add);
        for m in &melds {
            match m.shape {
                MeldShape::Set { rank, suits, full } => {
                    if !full {
                        Suit::ALL
                            .into_iter()
                            .filter(|s| suits >> s.index() & 1 == 0)
                            .for_each(|s| take(Face::new(rank, s)));
                    }
                }
                MeldShape::Run { suit, ranks } => Rank::ALL
                    .into_iter()
                    .filter(|r| ranks >> r.index() & 1 == 1)
                    .for_each(|r| take(Face::new(r, suit))),
                MeldShape::Any => Suit::ALL
                    .into_iter()
                    .flat_map(|s| Rank::ALL.into_iter().map(move |r| Face::new(r, s)))
                    .for_each(&mut take),
            }
            for f in &m.jokers {
                jokers[f.index()] = jokers[f.index()].saturating_add(1);
            }
        }
        LyingTable {
            melds,
            takers,
            jokers,
            joker_faces,
        }
    }

    /// The index of the `s`-th meld (from 0) that `counts`.
    fn nth_meld(&self, s: usize, counts: impl Fn(&LyingMeld) -> bool) -> Option<usize> {
        self.melds
            .iter()
            .enumerate()
            .filter(|(_, m)| counts(m))
            .nth(s)
            .map(|(i, _)| i)
    }

    /// Whether some table meld could take a natural card of face `f`
    /// ([`MeldShape::could_extend`]).
    pub(crate) fn takes(&self, f: Face) -> bool {
        self.takers[f.index()] > 0
    }

    /// At most how many lay-offs (when `lay_offs`) and joker exchanges
    /// the listing holds for the hand's `kinds` (each kind once): a joker
    /// in the hand is never exchanged, and is laid off once per face it
    /// could stand for on each meld.
    pub(crate) fn table_plays_at_most(&self, kinds: &[CardKind], lay_offs: bool) -> usize {
        kinds
            .iter()
            .map(|k| match k {
                CardKind::Natural(f) => {
                    let i = f.index();
                    usize::from(self.jokers[i])
                        + if lay_offs {
                            usize::from(self.takers[i])
                        } else {
                            0
                        }
                }
                // A joker is not exchanged for a joker.
                CardKind::Joker if lay_offs => self.joker_faces,
                CardKind::Joker => 0,
            })
            .fold(0, usize::saturating_add)
    }
}

/// What the listing asks of a meld on the table, worked out once for the
/// table as it lies: what it can take, and the faces its jokers stand
/// for (each once: a set of mixed suits may hold two jokers declared as
/// the same card).
#[derive(Debug, Clone)]
pub(crate) struct LyingMeld {
    shape: MeldShape,
    jokers: SmallVec<[Face; 2]>,
}

impl LyingMeld {
    fn of(meld: &Meld, rules: &Ruleset) -> LyingMeld {
        let mut jokers: SmallVec<[Face; 2]> = SmallVec::new();
        for &(c, f) in meld.cards.iter() {
            if let (true, Some(face)) = (c.is_joker(), f) {
                if !jokers.contains(&face) {
                    jokers.push(face);
                }
            }
        }
        LyingMeld {
            shape: MeldShape::of(&meld.cards, rules),
            jokers,
        }
    }
}

/// What a lying meld (its wild cards declared, and declarations are
/// honoured: the checker reads a declared wild card as its face) can take
/// of a natural card: a set only its rank, in a suit it does not hold yet
/// where suits must differ, and only while it is shorter than a set may
/// be; a run only its suit, at a rank next to one it holds (on the circle
/// of ranks, the ace next to the two and the king) that it does not hold
/// yet (or an ace, which some rules let a run hold at both ends);
/// anything when a card has no face or there is none.
#[derive(Debug, Clone, Copy)]
enum MeldShape {
    Set {
        rank: Rank,
        /// The suits it holds (a bit per [`Suit::index`]) where suits must
        /// differ; none otherwise.
        suits: u8,
        full: bool,
    },
    Run {
        suit: Suit,
        /// The ranks it can take (a bit per [`Rank::index`]).
        ranks: u16,
    },
    Any,
}

/// The ranks a run holding `ranks` (a bit per [`Rank::index`]) could take
/// under `runs`: the neighbours of its ends. Round the corner, the
/// neighbours on the circle of 13 ranks (and an ace, which some rules let
/// a run hold at both ends). Otherwise the neighbours on the line from the
/// two to the king, and an ace where the run holds the two (ace low) or
/// the king (ace high) and the ace is allowed there, unless the run holds
/// an ace already and does not reach from the two to the king (its ace
/// then stands at the one end it could take one).
fn run_takes(ranks: u16, runs: &RunRules) -> u16 {
    const ALL: u16 = (1 << 13) - 1;
    let ace = 1 << Rank::Ace.index();
    if runs.wrap_around {
        let next = ((ranks << 1) | (ranks >> 12)) & ALL;
        let before = ((ranks >> 1) | (ranks << 12)) & ALL;
        return ((next | before) & !ranks) | ace;
    }
    let two = 1 << Rank::Two.index();
    let king = 1 << Rank::King.index();
    let line = ranks & !ace;
    let mut takes = ((line << 1) | (line >> 1)) & !ace & ALL & !line;
    let both_ends = line & two != 0 && line & king != 0;
    let ace_free = ranks & ace == 0 || both_ends;
    if ace_free && ((line & two != 0 && runs.ace_low) || (line & king != 0 && runs.ace_high)) {
        takes |= ace;
    }
    takes
}

impl MeldShape {
    fn of(lying: &[(Card, Option<Face>)], rules: &Ruleset) -> MeldShape {
        // Every card's face (a bare wild card: anything goes).
        let mut faces = lying.iter().map(|&(c, f)| {
            MeldCard {
                card: c.kind(),
                stands_for: f,
            }
            .effective()
        });
        let Some(Some(first)) = faces.next() else {
            return MeldShape::Any;
        };
        let (mut one_rank, mut one_suit) = (true, true);
        let (mut suits, mut ranks) = (0u8, 0u16);
        let mut add = |g: Face| {
            suits |= 1 << g.suit.index();
            ranks |= 1 << g.rank.index();
        };
        add(first);
        for g in faces {
            let Some(g) = g else {
                return MeldShape::Any;
            };
            one_rank &= g.rank == first.rank;
            one_suit &= g.suit == first.suit;
            add(g);
        }
        if one_rank {
            let distinct = rules.melds.sets.suits == SetSuits::Distinct;
            let max = match (rules.melds.sets.suits, rules.melds.sets.max_len.get()) {
                (_, Some(m)) => usize::from(m),
                (SetSuits::Distinct, None) => rules.deck.kind.suits().len(),
                (SetSuits::Any, None) => usize::MAX,
            };
            MeldShape::Set {
                rank: first.rank,
                suits: if distinct { suits } else { 0 },
                full: lying.len() >= max,
            }
        } else if one_suit {
            MeldShape::Run {
                suit: first.suit,
                ranks: run_takes(ranks, &rules.melds.runs),
            }
        } else {
            MeldShape::Any
        }
    }

    /// At most how many faces a joker laid off on the meld could stand
    /// for (the listing lays it off once per face): a missing suit of a
    /// set (any of the deck's `suits` where suits may repeat), none on a
    /// full one; a rank a run could take; anything where a card has no
    /// face.
    fn joker_faces_at_most(self, suits: usize) -> usize {
        match self {
            MeldShape::Set { full: true, .. } => 0,
            MeldShape::Set { suits: held, .. } => suits.saturating_sub(held.count_ones() as usize),
            MeldShape::Run { ranks, .. } => ranks.count_ones() as usize,
            MeldShape::Any => usize::MAX / 4,
        }
    }

    /// Whether a natural card `f` could extend the meld. Only a necessary
    /// condition, so the list keeps every legal lay-off; the engine decides
    /// the rest. It spares the random bot trying, on a copy of the game, the
    /// many lay-offs of cards that cannot fit.
    fn could_extend(self, f: Face) -> bool {
        match self {
            MeldShape::Set { rank, suits, full } => {
                f.rank == rank && !full && suits >> f.suit.index() & 1 == 0
            }
            MeldShape::Run { suit, ranks } => f.suit == suit && ranks >> f.rank.index() & 1 == 1,
            MeldShape::Any => true,
        }
    }
}

/// The actions without repeats, in their first order. Only the kinds of
/// action that can be listed twice are looked at (see [`may_repeat`]).
/// Only their hashes go into a set; an action whose hash was seen is
/// compared with the kept ones (cloning every action into a set cost more
/// than listing them).
fn unique(actions: Vec<Action>) -> Vec<Action> {
    use std::hash::BuildHasher as _;
    if actions.iter().filter(|a| may_repeat(a)).nth(1).is_none() {
        return actions;
    }
    let hasher = rustc_hash::FxBuildHasher;
    let mut seen = rustc_hash::FxHashSet::with_capacity_and_hasher(actions.len(), hasher);
    let mut out: Vec<Action> = Vec::with_capacity(actions.len());
    for a in actions {
        if !may_repeat(&a) || seen.insert(hasher.hash_one(&a)) || !out.contains(&a) {
            out.push(a);
        }
    }
    out
}

/// Whether the listing can hold `a` twice. The other kinds are listed once
/// each by construction: a draw per source, a discard or call per card
/// kind (the hand's kinds, deduplicated), a lay-off per meld, card kind
/// and face it takes (a wild card's faces deduplicated: two readings may
/// declare it alike, the ace below the two or above the king), a joker
/// exchange per meld and card (a set of mixed suits may hold two jokers
/// declared as the same card), buying and knocking once. Melds can repeat
/// (the way out may be a listed meld), and so can the kinds whose
/// candidates come from searches (rearrangements, lay-downs, placements).
fn may_repeat(a: &Action) -> bool {
    !matches!(
        a,
        Action::LayOff { .. }
            | Action::ExchangeJoker { .. }
            | Action::Draw { .. }
            | Action::Discard { .. }
            | Action::CallRomme { .. }
            | Action::EndTurn
            | Action::Buy
            | Action::Knock
    )
}

/// Whether `seat` could meld `card` (the top discard) in this turn if it
/// took it: some listed meld or lay-off takes it out of the hand.
pub(crate) fn can_meld_at_once(game: &Game, seat: usize, card: Card) -> bool {
    let mut g = game.fork();
    if g.discard.pop() != Some(card) {
        return false;
    }
    g.hands[seat].push(card);
    g.hands[seat].sort_unstable();
    g.phase = Phase::Play;
    g.turn = seat;
    g.window = None;
    g.ts.taken = Some(card);
    g.ts.took = Some(card);
    some_play_melds(&g, seat, &[card])
}

/// Whether the cards `seat` must meld this turn (freed jokers, the card
/// taken from the discard pile) can go into some listed meld or lay-off
/// now.
pub(crate) fn pending_meldable(game: &Game, seat: usize) -> bool {
    let mut pending = game.ts.freed.clone();
    pending.extend(game.ts.taken);
    some_play_melds(game, seat, &pending)
}

/// Whether some listed meld or lay-off of `seat` takes all of `cards` out
/// of the hand.
fn some_play_melds(game: &Game, seat: usize, cards: &[Card]) -> bool {
    plays_melding(game, seat, cards).next().is_some()
}

/// The listed melds and lay-offs of `seat` that the engine accepts and
/// that take all of `cards` out of the hand, in list order. Only candidates
/// that hold every one of the cards' kinds are tried on a copy of the game
/// (no other can take them out).
fn plays_melding<'g>(
    game: &'g Game,
    seat: usize,
    cards: &'g [Card],
) -> impl Iterator<Item = Action> + 'g {
    game.meld_candidates(seat)
        .into_iter()
        .filter(move |a| holds_kinds(a, cards))
        .filter(move |a| {
            let mut h = game.fork();
            h.trial = crate::game::Trial(true);
            game.precheck(seat, a).is_ok()
                && h.act(seat, a, &mut Vec::new()).is_ok()
                && cards.iter().all(|c| !h.hands[seat].contains(c))
        })
}

impl Game {
    /// The cards `seat` must still meld in this turn: the card taken from
    /// the discard pile where it must be melded at once, and jokers freed
    /// by an exchange where they must be melded. Public knowledge (everyone
    /// saw the card taken and the exchange); empty when it is not the
    /// seat's turn.
    pub fn pending_cards(&self, seat: usize) -> Vec<CardKind> {
        if self.turn() != Some(seat) {
            return Vec::new();
        }
        self.ts
            .taken
            .iter()
            .chain(&self.ts.freed)
            .map(|c| c.kind())
            .collect()
    }

    /// The melds and lay-offs that put down every card `seat` must still
    /// meld ([`Game::pending_cards`]), each accepted by the engine, in a
    /// fixed order; a rearrangement of the table is not among them. Empty
    /// when nothing is pending or only a rearrangement could meld it.
    pub fn pending_plays(&self, seat: usize) -> Vec<Action> {
        if self.turn() != Some(seat) {
            return Vec::new();
        }
        let mut pending = self.ts.freed.clone();
        pending.extend(self.ts.taken);
        if pending.is_empty() {
            return Vec::new();
        }
        plays_melding(self, seat, &pending).collect()
    }
}

/// Whether the meld or lay-off `a` puts down a card of each of `cards`'
/// kinds (as many as there are of each); false for any other action.
fn holds_kinds(a: &Action, cards: &[Card]) -> bool {
    if !matches!(a, Action::Meld { .. } | Action::LayOff { .. }) {
        return false;
    }
    let mut put = a.cards_put_down();
    cards
        .iter()
        .all(|c| match put.iter().position(|&k| k == c.kind()) {
            Some(i) => {
                put.swap_remove(i);
                true
            }
            None => false,
        })
}

/// Ranks in run order for the ruleset: the ace before the 2 and/or after
/// the king (the deck's positions on its
/// [`RankLine`](crate::play_bound::RankLine)).
fn run_line(rules: &Ruleset) -> SmallVec<[Rank; 16]> {
    let line = crate::play_bound::RankLine::of(rules);
    let mut positions = line.deck(rules);
    let mut out = SmallVec::new();
    while positions != 0 {
        out.push(crate::play_bound::RankLine::rank_at(
            positions.trailing_zeros(),
        ));
        positions &= positions - 1;
    }
    out
}

/// Every single meld the hand can form, declared (the meld is `ordered`),
/// without duplicates. Each is what [`MeldChecker::check`] gives for its
/// ordered cards, so callers need not check them again.
///
/// The candidate groups come in a fixed order (sets by rank, each choice
/// of copies per suit with 0, 1, … wild cards; then runs per suit and
/// start, growing along the line), each group is checked once, and the
/// declarations keep that order. Groups live on the stack and are
/// deduplicated by a hash of their sorted cards: this runs once per
/// listing of legal actions, so its allocations were a good part of the
/// random bot's time.
pub fn single_meld_declarations(
    checker: &MeldChecker,
    rules: &Ruleset,
    hand: &[CardKind],
) -> Vec<Declaration> {
    single_melds(checker, rules, hand, None)
        .iter()
        .flat_map(|g| g.iter().cloned())
        .collect()
}

/// The sets and runs among the readings of a sorted group, in the
/// checker's order, each meld order once (the first reading of it kept),
/// with what the opening search reads off each (its points under `rules`,
/// its cards as kind slots). Two different groups never share a meld
/// order (it holds the group's cards), so the readings of a listing need
/// no further deduplication.
fn readings(checker: &MeldChecker, rules: &Ruleset, sorted: &[CardKind]) -> Arc<Readings> {
    let mut out: Vec<Declaration> = Vec::new();
    for d in checker.declarations(sorted).into_iter().flatten() {
        let keep = d.kind == MeldKind::Set || d.kind == MeldKind::Run;
        if keep && !out.iter().any(|e| e.ordered == d.ordered) {
            out.push(d);
        }
    }
    let points = out.iter().map(|d| opening::meld_points(rules, d)).collect();
    let slots = out
        .iter()
        .map(|d| {
            let mut cards = MeldSlots::new();
            for c in &d.ordered {
                let slot = kind_slot(c.card);
                let before = cards.iter().filter(|&&(s, _)| s == slot).count();
                cards.push((slot, u8::try_from(before).unwrap_or(u8::MAX)));
            }
            cards
        })
        .collect();
    Arc::new(Readings::new(out, points, slots))
}

/// The groups [`single_melds`] has emitted: a hundred at most for
/// ordinary hands, looked through in a line (a hash set's allocation and
/// hashing cost more), behind a filter of a bit per hash of a packed key
/// that rules out most groups not met before without the look.
#[derive(Default)]
struct SeenGroups {
    /// The packed keys (most groups), in a line of 16 bytes each.
    packed: SmallVec<[u128; 32]>,
    /// The long ones.
    long: Vec<Group>,
    /// A bit per [`SeenGroups::bit`] of every packed key added.
    filter: [u64; 16],
}

impl SeenGroups {
    /// The filter's bit of a packed key.
    fn bit(p: u128) -> usize {
        let folded = (p as u64) ^ (p >> 64) as u64;
        (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize
    }

    /// Whether `key` was added.
    fn holds(&self, key: &GroupKey) -> bool {
        match key {
            GroupKey::Packed(p) => {
                let b = Self::bit(*p);
                self.filter[b / 64] >> (b % 64) & 1 == 1 && self.packed.contains(p)
            }
            GroupKey::Long(g) => self.long.contains(g),
        }
    }

    fn add(&mut self, key: GroupKey) {
        match key {
            GroupKey::Packed(p) => {
                let b = Self::bit(p);
                self.filter[b / 64] |= 1 << (b % 64);
                self.packed.push(p);
            }
            GroupKey::Long(g) => self.long.push(g),
        }
    }
}

/// [`single_meld_declarations`] as the readings of each group in turn
/// (shared, not copied: the listing clones only the melds it lists), each
/// group's taken from `cache` where it has them (the game's: see
/// [`MeldCache`]).
pub(crate) fn single_melds(
    checker: &MeldChecker,
    rules: &Ruleset,
    hand: &[CardKind],
    cache: Option<&MeldCache>,
) -> Vec<Arc<Readings>> {
    // Copies per face in the hand.
    let mut count = [0u8; FACES];
    let mut wilds: Group = Group::new();
    // The ranks the hand holds (a bit per `Rank::index`), and per rank its
    // copies and suits (a bit per `Suit::index`).
    let mut ranks = 0u16;
    let mut rank_copies = [0u8; 13];
    let mut rank_suits = [0u8; 13];
    for &k in hand {
        if checker.is_wild(k) {
            wilds.push(k);
        } else if let CardKind::Natural(f) = k {
            count[f.index()] = count[f.index()].saturating_add(1);
            let r = f.rank.index();
            ranks |= 1 << r;
            rank_copies[r] = rank_copies[r].saturating_add(1);
            rank_suits[r] |= 1 << f.suit.index();
        }
    }
    wilds.sort_unstable();
    let min = usize::from(rules.melds.min_len);
    let max_set = crate::play_bound::largest_set(rules);
    // (A wild card makes a hand's groups many: a hundred with two.)
    let mut out: Vec<Arc<Readings>> = Vec::with_capacity(if wilds.is_empty() { 8 } else { 64 });
    // The groups emitted so far, where one can come twice.
    let mut seen = SeenGroups::default();
    // Without wild cards no group comes twice: the sets of a rank differ in
    // their copies, runs in their span, and a set (one rank, at least two
    // cards) is never a run (distinct ranks).
    // (Debug builds keep the set anyway and check that.)
    let repeats = !wilds.is_empty() || min < 2;
    let track = repeats || cfg!(debug_assertions);
    // One lock for all the groups.
    let mut cached = cache.map(MeldCache::group_readings);
    let mut emit = |g: &[CardKind]| {
        let mut sorted = Group::from_slice(g);
        sorted.sort_unstable();
        let key = GroupKey::of(&sorted);
        if track && seen.holds(&key) {
            debug_assert!(repeats, "group {sorted:?} listed twice without wild cards");
            return;
        }
        let ds = match &mut cached {
            Some(c) => c.readings(&key, || readings(checker, rules, &sorted)),
            None => readings(checker, rules, &sorted),
        };
        if track {
            seen.add(key);
        }
        if !ds.is_empty() {
            out.push(ds);
        }
    };
    let suits = rules.deck.kind.suits();
    let distinct = rules.melds.sets.suits == SetSuits::Distinct;
    let line = run_line(rules);
    let held = held_positions(&line, &rank_suits);
    // The group being built, written in place: a set holds at most the
    // hand's cards, a run at most the line's positions (on the stack for
    // ordinary hands).
    let mut g = Group::from_elem(CardKind::Joker, hand.len().max(line.len()));
    // Sets: per rank (in rank order), every choice of copies per suit,
    // plus wild cards.
    for (r, &rank) in Rank::ALL.iter().enumerate() {
        if ranks >> r & 1 == 0 {
            continue;
        }
        // Too few cards of this rank (with the wild cards) for any set:
        // its suits where they must differ, else its copies.
        let cards = if distinct {
            rank_suits[r].count_ones() as usize
        } else {
            usize::from(rank_copies[r])
        };
        if cards + wilds.len() < min {
            continue;
        }
        let mut per_suit = [(CardKind::Joker, 0usize); 5];
        let mut kinds = 0;
        for &s in suits {
            let f = Face::new(rank, s);
            let c = usize::from(count[f.index()]);
            let c = if distinct { c.min(1) } else { c };
            if c > 0 {
                per_suit[kinds] = (CardKind::Natural(f), c);
                kinds += 1;
            }
        }
        let per_suit = &per_suit[..kinds];
        let mut choice = [0usize; 5];
        let choice = &mut choice[..kinds];
        loop {
            let mut naturals = 0;
            for (&(k, _), &n) in per_suit.iter().zip(choice.iter()) {
                g[naturals..naturals + n].fill(k);
                naturals += n;
            }
            if naturals > 0 {
                for w in 0..=wilds.len() {
                    let total = naturals + w;
                    if total >= min && total <= max_set {
                        g[naturals..total].copy_from_slice(&wilds[..w]);
                        emit(&g[..total]);
                    }
                }
            }
            // Next choice (odometer).
            let mut i = 0;
            while i < choice.len() {
                choice[i] += 1;
                if choice[i] <= per_suit[i].1 {
                    break;
                }
                choice[i] = 0;
                i += 1;
            }
            if i == choice.len() {
                break;
            }
        }
    }
    // Runs: windows along the line, naturals where the hand has them, wild
    // cards elsewhere.
    for &suit in suits {
        let starts = run_starts(line.len(), held[suit.index()], min, wilds.len());
        for start in positions(starts, line.len()) {
            let (mut len, mut used_wilds) = (0, 0);
            // Copies used per face of this suit (the ace may come twice).
            let mut used = [0u8; 13];
            for &rank in &line[start..] {
                let f = Face::new(rank, suit);
                if count[f.index()] > used[rank.index()] {
                    g[len] = CardKind::Natural(f);
                    used[rank.index()] += 1;
                } else if used_wilds < wilds.len() {
                    g[len] = wilds[used_wilds];
                    used_wilds += 1;
                } else {
                    break;
                }
                len += 1;
                if len >= min && len > used_wilds {
                    emit(&g[..len]);
                }
            }
        }
    }
    out
}

/// The line positions (bit i: `line[i]`) where a run may start, given the
/// positions `held` that hold a card of its suit: without wild cards only
/// where `min` positions in a row hold a card; with `wilds` wild cards
/// only where a card lies within the next `wilds` positions (a walk that
/// fills more positions with wild cards before its first natural card
/// breaks off before it). Elsewhere the walk along the line emits nothing.
/// Every position on a line too long for the mask.
fn run_starts(line_len: usize, held: u64, min: usize, wilds: usize) -> u64 {
    if line_len > 63 {
        return u64::MAX;
    }
    let mut starts = held;
    if wilds == 0 {
        for k in 1..min.min(64) {
            starts &= held >> k;
        }
    } else {
        for k in 1..=wilds.min(63) {
            starts |= held >> k;
        }
    }
    starts
}

/// The positions below `len` whose bit is set in `mask` (as
/// [`run_starts`] gives them), lowest first; every position on a line too
/// long for the mask.
fn positions(mask: u64, len: usize) -> impl Iterator<Item = usize> {
    let wide = len > 64;
    let mut bits = match len {
        0..64 => mask & ((1u64 << len) - 1),
        _ => mask,
    };
    let mut next_wide = 0;
    std::iter::from_fn(move || {
        if wide {
            next_wide += 1;
            return (next_wide <= len).then_some(next_wide - 1);
        }
        if bits == 0 {
            return None;
        }
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        Some(i)
    })
}

/// Per suit ([`Suit::index`]), the line positions (bit i: `line[i]`)
/// where a natural card of the hand lies, from the suits the hand holds of
/// each rank (`rank_suits`: a bit per suit, per [`Rank::index`]).
fn held_positions(line: &[Rank], rank_suits: &[u8; 13]) -> [u64; 5] {
    // The positions of each rank on the line (the ace may lie at both ends).
    let mut at = [0u64; 13];
    for (i, r) in line.iter().enumerate().take(64) {
        at[r.index()] |= 1 << i;
    }
    let mut held = [0u64; 5];
    for (&suits, &at) in rank_suits.iter().zip(&at) {
        let mut bits = suits;
        while bits != 0 {
            held[bits.trailing_zeros() as usize % 5] |= at;
            bits &= bits - 1;
        }
    }
    held
}

/// Slots of [`kind_slot`]: the 65 faces and the joker.
const KIND_SLOTS: usize = FACES + 1;

/// A card kind as a small index: its face's [`Face::index`], the joker last.
fn kind_slot(k: CardKind) -> u8 {
    match k {
        // Face indices are below 65.
        CardKind::Natural(f) => f.index() as u8,
        CardKind::Joker => FACES as u8,
    }
}

/// The bounded search for opening combinations. Cards are counted per
/// kind ([`kind_slot`]) and the chosen melds' points kept as a running
/// [`opening::Tally`], so a step allocates nothing unless it records a
/// combination.
struct OpeningSearch<'a> {
    rules: &'a Ruleset,
    /// The single melds, sorted.
    decls: &'a [Decl<'a>],
    /// Which melds lack cards when a kind runs short.
    short: &'a Shortages,
    /// Cards of the hand per slot.
    held: [u8; KIND_SLOTS],
    /// The `must` cards: (slot, copies).
    needed: SmallVec<[(u8, u8); 4]>,
    /// Value of the melds on the table (counts with `table_counts`).
    table_value: u32,
    joker_exchanged: bool,
    /// Cards kept for the final discard.
    keep: usize,
    opened_before: bool,
}

/// The opening search's order of `items` (by their indices): those whose
/// `key` holds a `must` card first, then by points, highest first, ties
/// in list order. Points are small, so a counting sort by (must, points)
/// orders them in a few passes; large ones are sorted as keys of one word
/// each (the index last, so the unstable sort keeps list order).
fn opening_order<T>(items: &[T], key: impl Fn(&T) -> (bool, u32)) -> Vec<u32> {
    const SMALL: u32 = 256;
    let most = items.iter().map(|d| key(d).1).max().unwrap_or(0);
    if most >= SMALL {
        let mut keys: Vec<u64> = items
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let (holds, points) = key(d);
                u64::from(!holds) << 63
                    | u64::from(u32::MAX - points) << 31
                    | (i as u64 & 0x7FFF_FFFF)
            })
            .collect();
        keys.sort_unstable();
        return keys.iter().map(|k| (k & 0x7FFF_FFFF) as u32).collect();
    }
    // An item's bucket: holding a `must` card or not, then its points
    // from the highest down.
    let span = most as usize + 1;
    let bucket = |d: &T| {
        let (holds, points) = key(d);
        usize::from(!holds) * span + (most - points) as usize
    };
    let mut starts = vec![0u32; 2 * span + 1];
    for d in items {
        starts[bucket(d) + 1] += 1;
    }
    for b in 1..starts.len() {
        starts[b] += starts[b - 1];
    }
    let mut order = vec![0u32; items.len()];
    for (i, d) in items.iter().enumerate() {
        let b = bucket(d);
        order[starts[b] as usize] = i as u32;
        starts[b] += 1;
    }
    order
}

/// A single meld as the opening search sees it.
#[derive(Clone, Copy)]
struct Decl<'a> {
    /// Whether it holds a `must` card.
    must: bool,
    /// Its opening points.
    points: u32,
    meld: &'a Declaration,
    /// Where it is in the listing's groups.
    at: MeldRef,
    /// Its cards as kind slots, each with the copies of its kind before
    /// it in the meld.
    slots: &'a [(u8, u8)],
}

/// Where the opening search stands.
struct SearchState {
    chosen: Vec<usize>,
    /// Cards not yet in a chosen meld, per slot, and how many.
    left: [u8; KIND_SLOTS],
    /// The melds that need more of some kind than is left, a bit per meld
    /// (see [`Shortages`]): the search passes over them without looking.
    blocked: Bits,
    left_len: usize,
    /// (points, cards, melds) of the combinations found.
    out: Vec<(u32, usize, MeldRefs)>,
    steps: usize,
    /// Combinations after which the search ends ([`MAX_OPENINGS`] at most).
    enough: usize,
}

impl OpeningSearch<'_> {
    /// Add melds `from..to` (each at most once, in order) to the chosen
    /// ones (summed up in `tally`), recording every combination that
    /// qualifies.
    ///
    /// Every meld of the range counts a step, also one passed over for
    /// want of cards, and the search stops at the first step past
    /// [`OPENING_STEPS`] (see `go_plain` in the tests, which tries each
    /// meld in turn): melds passed over are counted in one go, the melds
    /// that can be taken found by their bits.
    fn go(&self, from: usize, to: usize, tally: opening::Tally, st: &mut SearchState) {
        // The next meld whose step is not counted yet.
        let mut next = from;
        let mut word = from / 64;
        while word * 64 < to {
            let base = word * 64;
            let mut free = !st.blocked[word];
            if from > base {
                free &= u64::MAX << (from - base);
            }
            if to - base < 64 {
                free &= (1u64 << (to - base)) - 1;
            }
            while free != 0 {
                let i = base + free.trailing_zeros() as usize;
                free &= free - 1;
                if !count_steps(st, i + 1 - next) {
                    return;
                }
                next = i + 1;
                self.take(i, tally, st);
            }
            word += 1;
        }
        count_steps(st, to - next);
    }

    /// Choose meld `i` (it has the cards), record the combination if it
    /// qualifies, search on from the meld after it, and put it back.
    fn take(&self, i: usize, tally: opening::Tally, st: &mut SearchState) {
        let cards = self.decls[i].slots;
        // `blocked` as it was, put back after the melds that follow (most
        // searches have one word: copied as a word, not as a slice).
        let one = match st.blocked[..] {
            [w] => Some(w),
            _ => None,
        };
        let saved = match one {
            Some(_) => Bits::new(),
            None => Bits::from_slice(&st.blocked),
        };
        for &(c, _) in cards {
            let slot = usize::from(c);
            st.left[slot] -= 1;
            self.short.run_short(slot, st.left[slot], &mut st.blocked);
        }
        st.left_len -= cards.len();
        st.chosen.push(i);
        let Decl { points, meld, .. } = self.decls[i];
        let tally = tally.with(points, meld.wilds > 0);
        self.record(st, &tally);
        self.go(i + 1, self.decls.len(), tally, st);
        st.chosen.pop();
        st.left_len += cards.len();
        for &(c, _) in cards {
            st.left[usize::from(c)] += 1;
        }
        match (one, &mut st.blocked[..]) {
            (Some(w), [b]) => *b = w,
            _ => st.blocked.copy_from_slice(&saved),
        }
    }

    /// Record the chosen melds if they qualify; with [`MAX_OPENINGS`]
    /// recorded, the next step ends the search.
    fn record(&self, st: &mut SearchState, tally: &opening::Tally) {
        if let Some(points) = self.qualifies(st, tally) {
            let combo = st.chosen.iter().map(|&j| self.decls[j].at).collect();
            let cards = st
                .chosen
                .iter()
                .map(|&j| self.decls[j].meld.ordered.len())
                .sum();
            st.out.push((points, cards, combo));
            if st.out.len() >= st.enough {
                st.steps = OPENING_STEPS;
            }
        }
    }

    /// The points of the chosen melds if they can open: they reach the
    /// threshold (or, putting out the whole hand, are a Hand-Rommé) and
    /// hold the `must` cards.
    fn qualifies(&self, st: &SearchState, tally: &opening::Tally) -> Option<u32> {
        let short = self.needed.iter().any(|&(slot, n)| {
            let slot = usize::from(slot);
            self.held[slot] - st.left[slot] < n
        });
        if short {
            return None;
        }
        let attempt = OpeningAttempt {
            melds: &[],
            lay_off_value: 0,
            table_value: self.table_value,
            joker_exchanged: self.joker_exchanged,
            whole_hand: st.left_len <= self.keep && !self.opened_before,
        };
        opening::check_tally(self.rules, tally, &attempt).ok()
    }
}

/// Count `n` more steps of the opening search; false (and the search
/// over) when that goes past [`OPENING_STEPS`], as counting them one at a
/// time would have stopped at the first step past it.
fn count_steps(st: &mut SearchState, n: usize) -> bool {
    if st.steps + n > OPENING_STEPS {
        st.steps = OPENING_STEPS + 1;
        return false;
    }
    st.steps += n;
    true
}

/// A bit per single meld of an opening search, in words of 64.
type Bits = SmallVec<[u64; 4]>;

/// For the opening search: per card kind and number of copies, the melds
/// that need more than that many of the kind, so that the melds a chosen
/// one leaves short of cards are ruled out a word at a time.
struct Shortages {
    /// Words per row.
    words: usize,
    /// The first row of each kind slot; row `first[slot] + k` holds the
    /// melds that need more than `k` copies of the slot.
    first: [u32; KIND_SLOTS],
    /// The most copies of each kind slot one meld needs.
    most: [u8; KIND_SLOTS],
    rows: Vec<u64>,
}

impl Shortages {
    /// The rows for the melds `decls` (their cards as kind slots, with
    /// the copies of the kind before each).
    fn new(decls: &[Decl<'_>]) -> Shortages {
        let words = decls.len().div_ceil(64).max(1);
        // A meld's card that is its k-th copy of the kind (from 0) makes it
        // need more than k copies.
        let mut most = [0u8; KIND_SLOTS];
        for cards in decls.iter().map(|d| d.slots) {
            for &(c, k) in cards.iter() {
                let m = &mut most[usize::from(c)];
                *m = (*m).max(k.saturating_add(1));
            }
        }
        let mut first = [0u32; KIND_SLOTS];
        let mut rows = 0u32;
        for (f, &m) in first.iter_mut().zip(&most) {
            *f = rows;
            rows += u32::from(m);
        }
        let mut short = Shortages {
            words,
            first,
            most,
            rows: vec![0; rows as usize * words],
        };
        for (i, cards) in decls.iter().map(|d| d.slots).enumerate() {
            for &(c, k) in cards.iter() {
                let at = short.row(usize::from(c), usize::from(k)) + i / 64;
                short.rows[at] |= 1 << (i % 64);
            }
        }
        short
    }

    /// Where the row of melds needing more than `k` copies of `slot` starts.
    fn row(&self, slot: usize, k: usize) -> usize {
        (self.first[slot] as usize + k) * self.words
    }

    /// The melds that need more of some kind than `held` has.
    fn initial(&self, held: &[u8; KIND_SLOTS]) -> Bits {
        let mut blocked: Bits = smallvec::smallvec![0; self.words];
        for (slot, &h) in held.iter().enumerate() {
            self.run_short(slot, h, &mut blocked);
        }
        blocked
    }

    /// With `left` copies of `slot` left, rule out the melds needing more.
    fn run_short(&self, slot: usize, left: u8, blocked: &mut Bits) {
        if left >= self.most[slot] {
            return;
        }
        let at = self.row(slot, usize::from(left));
        // (Most searches have at most 64 melds: one word.)
        if let ([b], Some(r)) = (&mut blocked[..], self.rows.get(at)) {
            *b |= r;
            return;
        }
        for (b, r) in blocked.iter_mut().zip(&self.rows[at..at + self.words]) {
            *b |= r;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    use rand_chacha::ChaCha8Rng;
    use romme_core::ruleset::presets;

    /// The opening search's order is a stable sort by (holding a `must`
    /// card first, points highest first), for small points (counted) and
    /// large ones (sorted as keys).
    #[test]
    fn the_opening_order_is_a_stable_sort_by_must_then_points() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for round in 0..400 {
            let n = rng.random_range(0..60);
            let top = if round % 2 == 0 { 40 } else { 100_000 };
            let items: Vec<(bool, u32)> = (0..n)
                .map(|_| (rng.random_bool(0.2), rng.random_range(0..top)))
                .collect();
            let mut expected: Vec<u32> = (0..n as u32).collect();
            expected.sort_by_key(|&i| {
                let (holds, points) = items[i as usize];
                (!holds, std::cmp::Reverse(points))
            });
            assert_eq!(opening_order(&items, |&d| d), expected, "{items:?}");
        }
    }

    /// The groups a listing has emitted answer as a plain list of them
    /// would: every group added is held, and of 3,000 random groups (short
    /// ones packed, long ones not) none is held before it is added.
    #[test]
    fn seen_groups_hold_exactly_what_was_added() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut deck: Vec<CardKind> = Rank::ALL
            .iter()
            .flat_map(|&r| {
                Suit::ALL
                    .iter()
                    .map(move |&s| CardKind::Natural(Face::new(r, s)))
            })
            .chain([CardKind::Joker])
            .collect();
        let mut seen = SeenGroups::default();
        let mut plain: Vec<GroupKey> = Vec::new();
        let mut repeats = 0;
        for i in 0..3000 {
            deck.shuffle(&mut rng);
            // Few distinct short groups, so that some come again.
            let len = if i % 10 == 0 { 20 } else { 1 + i % 3 };
            let mut g = Group::from_slice(&deck[..len.min(deck.len())]);
            if len < 3 {
                g.truncate(1);
            }
            g.sort_unstable();
            let key = GroupKey::of(&g);
            let before = plain.contains(&key);
            assert_eq!(seen.holds(&key), before, "{g:?}");
            if before {
                repeats += 1;
            } else {
                seen.add(key.clone());
                plain.push(key.clone());
            }
            assert!(seen.holds(&key));
        }
        assert!(repeats > 100, "only {repeats} groups came again");
    }

    /// A lying run's shape keeps every natural card the checker lets it
    /// take, and (without round the corner) no card at its ends that it
    /// cannot (but an ace at the second end of a run from two to king):
    /// every run of hearts from three to thirteen cards (as it may
    /// lie: its ace low or high, one card a declared joker or none), under
    /// every setting of the ace, against every heart.
    #[test]
    fn a_lying_runs_shape_is_what_the_checker_lets_it_take() {
        let base = presets::load("klassisch")
            .and_then(Result::ok)
            .expect("klassisch loads");
        let mut checked = 0usize;
        for (low, high, wrap) in [
            (true, true, false),
            (true, false, false),
            (false, true, false),
            (false, false, false),
            (true, true, true),
        ] {
            let mut rules = base.clone();
            rules.melds.runs.ace_low = low;
            rules.melds.runs.ace_high = high;
            rules.melds.runs.wrap_around = wrap;
            let checker = MeldChecker::new(&rules, None).expect("a checker");
            // Positions on the line: the ace low (0), two to king, the
            // ace high (13); round the corner, any start on the circle.
            let starts: Vec<usize> = if wrap {
                (0..13).collect()
            } else {
                (0..14).collect()
            };
            for start in starts {
                for len in 3..=13usize {
                    let faces: Vec<Face> = (start..start + len)
                        .map(|p| {
                            let rank = if wrap {
                                Rank::ALL[(p + 12) % 13]
                            } else if p == 0 || p == 13 {
                                Rank::Ace
                            } else if p > 13 {
                                return None;
                            } else {
                                Rank::ALL[p - 1]
                            };
                            Some(Face::new(rank, Suit::Hearts))
                        })
                        .collect::<Option<_>>()
                        .unwrap_or_default();
                    if faces.len() != len {
                        continue;
                    }
                    for joker_at in std::iter::once(None).chain((0..len).map(Some)) {
                        let lying: Vec<(Card, Option<Face>)> = faces
                            .iter()
                            .enumerate()
                            .map(|(i, &f)| match joker_at {
                                Some(j) if j == i => (Card::joker(0).expect("a joker"), Some(f)),
                                _ => (Card::natural(f, 0).expect("a card"), None),
                            })
                            .collect();
                        let cards: Vec<MeldCard> = lying
                            .iter()
                            .map(|&(c, f)| MeldCard {
                                card: c.kind(),
                                stands_for: f,
                            })
                            .collect();
                        if checker.check(&cards).is_err() {
                            continue;
                        }
                        let shape = MeldShape::of(&lying, &rules);
                        for rank in Rank::ALL {
                            let f = Face::new(rank, Suit::Hearts);
                            let mut more = cards.clone();
                            more.push(MeldCard {
                                card: CardKind::Natural(f),
                                stands_for: None,
                            });
                            let valid = checker.check(&more).is_ok();
                            checked += 1;
                            let rules_text = format!("low {low} high {high} wrap {wrap}");
                            assert!(
                                !valid || shape.could_extend(f),
                                "{rules_text}: {faces:?} (joker at {joker_at:?}) takes {f:?}"
                            );
                            // (An ace at the second end of a run from the two
                            // to the king is kept for the checker to decide.)
                            let second_ace = rank == Rank::Ace
                                && [Rank::Two, Rank::King]
                                    .iter()
                                    .all(|&r| faces.contains(&Face::new(r, Suit::Hearts)));
                            let exact = !wrap && !second_ace;
                            if exact {
                                assert!(
                                    valid || !shape.could_extend(f),
                                    "{rules_text}: {faces:?} (joker at {joker_at:?}) cannot take {f:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked} cards checked");
    }

    /// The listing's duplicate filter looks only at the kinds of action that
    /// can repeat, and drops exactly what filtering every action drops: on
    /// the listings of random matches of every preset (in both modes, the
    /// way out and the rearrangement listed and left to their own slots),
    /// the kinds it skips are never listed twice.
    #[test]
    fn only_kinds_that_can_repeat_are_listed_twice() {
        let mut listings = 0usize;
        let walks = crate::walk::Walks {
            seats: 3,
            matches: 8,
            steps: 400,
            seed: 9,
        };
        walks.run(|name, _, game, seat| {
            for mode in [Searches::Listed, Searches::Deferred] {
                // What `candidates_with` lists, duplicates filtered (as
                // `legal_actions` does; `random_legal_action` filters only
                // the actions, but no other new melds are listed then).
                let (listing, _) = game.candidates_with(seat, mode);
                let listed = unique(listing.into_actions());
                if mode == Searches::Deferred {
                    let (mut lazy, _) = game.candidates_with(seat, mode);
                    lazy.unique_ready();
                    assert_eq!(lazy.into_actions(), listed, "{name}: the random bot's list");
                }
                for (i, a) in listed.iter().enumerate() {
                    if !may_repeat(a) {
                        assert!(!listed[..i].contains(a), "{name}: {a:?} twice");
                    }
                }
                listings += 1;
            }
        });
        assert!(listings > 8_000, "only {listings} listings");
    }

    impl OpeningSearch<'_> {
        /// The opening search as it was first written: each meld of the
        /// range in turn, a step each, taken when the cards left have it.
        fn go_plain(&self, from: usize, to: usize, tally: opening::Tally, st: &mut SearchState) {
            for i in from..to {
                st.steps += 1;
                if st.steps > OPENING_STEPS {
                    return;
                }
                let cards: SmallVec<[u8; 8]> =
                    self.decls[i].slots.iter().map(|&(c, _)| c).collect();
                let short = cards.iter().any(|&c| {
                    let need = cards.iter().filter(|&&x| x == c).count();
                    usize::from(st.left[usize::from(c)]) < need
                });
                if short {
                    continue;
                }
                for &c in &cards {
                    st.left[usize::from(c)] -= 1;
                }
                st.left_len -= cards.len();
                st.chosen.push(i);
                let Decl { points, meld, .. } = self.decls[i];
                let tally = tally.with(points, meld.wilds > 0);
                self.record(st, &tally);
                self.go_plain(i + 1, self.decls.len(), tally, st);
                st.chosen.pop();
                st.left_len += cards.len();
                for &c in &cards {
                    st.left[usize::from(c)] += 1;
                }
            }
        }
    }

    /// The opening search, which rules out the melds short of cards a word
    /// at a time and counts the steps over them in one go, finds the same
    /// combinations in the same order as the plain search and stops where
    /// it stops: on random hands (wild cards and all) of every preset for
    /// several players, with and without cards that must be melded,
    /// among them searches that reach the step limit and searches that
    /// reach the most combinations listed.
    #[test]
    fn opening_search_finds_what_the_plain_search_finds() {
        let (mut searches, mut found, mut capped, mut full) = (0usize, 0usize, 0usize, 0usize);
        let mut ruled_out = 0usize;
        for name in presets::NAMES {
            let Some(Ok(rules)) = presets::load(name) else {
                continue;
            };
            let seats = usize::from(rules.players.min).max(2);
            let Ok(game) = Game::new(rules.clone(), seats, 1) else {
                continue;
            };
            let Ok(checker) = game.checker() else {
                continue;
            };
            let mut deck: Vec<CardKind> = rules.deck.cards().iter().map(|c| c.kind()).collect();
            let mut rng = ChaCha8Rng::seed_from_u64(5);
            for trial in 0..150 {
                deck.shuffle(&mut rng);
                let mut hand = deck[..10 + trial % 7].to_vec();
                // Now and then more wild cards, for long searches.
                if trial % 3 == 0 {
                    hand.extend([CardKind::Joker, CardKind::Joker]);
                }
                let must: Vec<CardKind> = hand.iter().copied().take(trial % 3).collect();
                let groups = single_melds(&checker, &rules, &hand, None);
                let table_value = game.opening_table_value();
                let limit = OPENING_STEPS + 1;
                let mut steps = [0usize; 2];
                let fast =
                    game.opening_combos_by(&groups, &hand, &must, table_value, |s, roots, st| {
                        s.go(0, roots, opening::Tally::default(), st);
                        steps[0] = st.steps.min(limit);
                    });
                let plain =
                    game.opening_combos_by(&groups, &hand, &must, table_value, |s, roots, st| {
                        s.go_plain(0, roots, opening::Tally::default(), st);
                        steps[1] = st.steps.min(limit);
                    });
                let (fast, plain) = (best_first(fast), best_first(plain));
                assert_eq!(fast, plain, "{name}: {hand:?}, must {must:?}");
                assert_eq!(steps[0], steps[1], "{name}: {hand:?}, must {must:?}");
                // The bound that spares the search rules out only hands
                // without a combination.
                if !game.melds_may_open(&groups, hand.len(), table_value) {
                    assert!(plain.is_empty(), "{name}: {hand:?} ruled out");
                    ruled_out += 1;
                }
                searches += 1;
                found += usize::from(!plain.is_empty());
                capped += usize::from(steps[1] == limit);
                full += usize::from(plain.len() == MAX_OPENINGS);
            }
        }
        assert!(searches > 1_000, "only {searches} searches");
        assert!(found > 100, "only {found} searches found an opening");
        assert!(capped > 10, "only {capped} searches reached the step limit");
        assert!(ruled_out > 100, "only {ruled_out} hands ruled out");
        assert!(
            full > 10,
            "only {full} searches listed the most combinations"
        );
    }

    /// What the table keeps is worked out once while it lies unchanged,
    /// again after [`Table::melds_mut`] (even where the table is changed
    /// in place, not replaced), and afresh by a copy.
    #[test]
    fn the_table_works_out_its_lying_table_and_checks_again_once_changed() {
        use crate::game::Table;
        use std::cell::Cell;
        let rules = presets::load("klassisch")
            .expect("a preset")
            .expect("loads");
        let lying_made = Cell::new(0);
        let checks_made = Cell::new(0);
        let ask = |t: &Table| {
            t.lying(|melds| {
                lying_made.set(lying_made.get() + 1);
                LyingTable::of(melds, &rules)
            });
            t.checks(|| {
                checks_made.set(checks_made.get() + 1);
                (Vec::new(), None)
            });
        };
        let mut table = Table::from(Vec::new());
        ask(&table);
        ask(&table);
        assert_eq!((lying_made.get(), checks_made.get()), (1, 1));
        let _ = table.melds_mut();
        ask(&table);
        ask(&table);
        assert_eq!((lying_made.get(), checks_made.get()), (2, 2));
        let copy = table.clone();
        ask(&copy);
        assert_eq!((lying_made.get(), checks_made.get()), (3, 3));
        ask(&table);
        assert_eq!((lying_made.get(), checks_made.get()), (3, 3));
    }

    /// The game's caches (group readings, a wild card's lay-off faces, the
    /// solver's tables, and what the table keeps: its melds' checks and
    /// the listing's `LyingTable`) change no listing: along random matches
    /// of every preset, each seat's list with the caches the match has
    /// filled (the table's kept since it last changed) equals the list of
    /// a copy that starts with empty ones.
    #[test]
    fn listings_are_the_same_with_empty_caches() {
        let mut compared = 0usize;
        let walks = crate::walk::Walks {
            seats: 3,
            matches: 3,
            steps: 300,
            seed: 13,
        };
        walks.run(|name, _, game, seat| {
            let mut cold = game.clone();
            cold.melds = MeldCache::default();
            cold.solver = crate::game::SolverCache::default();
            // A copied table starts without what was worked out from it.
            cold.table = Arc::new((*game.table).clone());
            assert_eq!(cold.legal_actions(seat), game.legal_actions(seat), "{name}");
            compared += 1;
        });
        assert!(compared > 3_000, "only {compared} listings compared");
    }

    /// The game's cache of group readings changes nothing: with one cache
    /// kept over many hands (so that most groups are read from it), the
    /// single melds equal those worked out without it, in the same order,
    /// on every preset and Five Crowns round (a new cache per round, as a
    /// deal makes).
    #[test]
    fn cached_readings_list_the_same_single_melds() {
        let (mut hands, mut hits) = (0usize, 0usize);
        for name in presets::NAMES {
            let Some(Ok(rules)) = presets::load(name) else {
                continue;
            };
            let rounds: Vec<Option<u8>> = if rules.melds.wilds.round_wild {
                (1..=11).map(Some).collect()
            } else {
                vec![None]
            };
            let deck: Vec<CardKind> = rules.deck.cards().iter().map(|c| c.kind()).collect();
            for round in rounds {
                let Ok(checker) = MeldChecker::new(&rules, round) else {
                    continue;
                };
                let cache = MeldCache::default();
                let mut rng = ChaCha8Rng::seed_from_u64(3);
                let mut cards = deck.clone();
                cards.shuffle(&mut rng);
                let size = round.map_or(14, |r| usize::from(r) + 3).min(14);
                let mut hand: Vec<CardKind> = cards[..size].to_vec();
                for step in 0..30 {
                    let before = cache.len();
                    let cached: Vec<Declaration> =
                        single_melds(&checker, &rules, &hand, Some(&cache))
                            .iter()
                            .flat_map(|g| g.iter().cloned())
                            .collect();
                    let fresh = single_meld_declarations(&checker, &rules, &hand);
                    assert_eq!(cached, fresh, "{name} round {round:?}: {hand:?}");
                    hands += 1;
                    hits += usize::from(step > 0 && cache.len() == before);
                    // A turn: one card out, another in.
                    let out = step % hand.len();
                    hand[out] = cards[size + step];
                }
            }
        }
        assert!(hands > 300, "only {hands} hands");
        assert!(hits > 0, "the cache was never used");
    }

    /// Wherever the random draw bounds a seat's plays before listing them
    /// ([`Game::plays_at_most`]), the listing it would build ends in the
    /// quick actions as the draw numbers them, and its other slots (the
    /// plays, and the deferred searches' slots) are at most the bound. On
    /// random walks through every preset; among the positions, bounds
    /// that are exact, plays found, and openings ruled out by their points
    /// though the hand holds melds.
    #[test]
    fn the_play_bound_holds_every_play_the_listing_has() {
        let (mut bounded, mut with_plays, mut exact, mut points_ruled_out) = (0, 0, 0, 0);
        let (mut wild_bounded, mut wild_ruled_out, mut wild_opening) = (0, 0, 0);
        let (mut opened_wild_bounded, mut opened_wild_slack) = (0usize, 0usize);
        let (mut table_slots, mut table_plays) = (0usize, 0usize);
        let mut presets_bounded = std::collections::BTreeSet::new();
        let walks = crate::walk::Walks {
            seats: 3,
            matches: 20,
            steps: 400,
            seed: 4,
        };
        walks.run(|name, _, game, seat| {
            let Some(q) = QuickDraw::new(game, seat) else {
                return;
            };
            let (mut listing, deferred) = game.candidates_with(seat, Searches::Deferred);
            listing.unique_ready();
            let start = listing
                .len()
                .checked_sub(q.quick)
                .unwrap_or_else(|| panic!("{name}: fewer than the quick actions listed"));
            let quick: Vec<Action> = listing.items[start..]
                .iter()
                .map(|c| listing.action(c.clone()))
                .collect();
            let numbered: Vec<Action> = (0..q.quick).map(|n| q.action(n)).collect();
            assert_eq!(quick, numbered, "{name}: the quick actions");
            let searches = usize::from(deferred.go_out) + usize::from(deferred.rearrange);
            let plays = start + searches;
            assert!(
                plays <= q.bound.total(),
                "{name}: {plays} plays over the bound {}",
                q.bound.total()
            );
            // Part by part: the new melds first, then the lay-offs and
            // exchanges, each listed one the action of exactly one table
            // slot (and no slot standing for one not listed).
            assert!(
                searches <= q.bound.searches,
                "{name}: searches over {:?}",
                q.bound
            );
            if q.split {
                let melds = listing.items[..start]
                    .iter()
                    .take_while(|c| matches!(c, Candidate::Melds(_)))
                    .count();
                assert!(
                    melds <= q.bound.melds,
                    "{name}: {melds} melds over {:?}",
                    q.bound
                );
                let mut listed: Vec<String> = listing.items[melds..start]
                    .iter()
                    .map(|c| format!("{:?}", listing.action(c.clone())))
                    .collect();
                let mut slotted: Vec<String> = (0..q.bound.table)
                    .filter_map(|s| game.table_slot(seat, &q.kinds, s))
                    .map(|a| format!("{a:?}"))
                    .collect();
                listed.sort();
                slotted.sort();
                assert_eq!(slotted, listed, "{name}: the table slots");
                table_slots += q.bound.table;
                table_plays += listed.len();
            }
            bounded += 1;
            presets_bounded.insert(name.to_string());
            with_plays += usize::from(plays > 0);
            exact += usize::from(plays == q.bound.total() && plays > 0);
            let opened = game.opened[seat];
            let hand: Vec<CardKind> = game.hands[seat].iter().map(|c| c.kind()).collect();
            let checker = game.checker().expect("checker");
            let wild = hand.iter().any(|&k| checker.is_wild(k));
            if !opened
                && q.bound.total() == 0
                && !single_melds(&checker, &game.rules, &hand, None).is_empty()
            {
                points_ruled_out += 1;
                wild_ruled_out += usize::from(wild);
            }
            if wild && opened {
                opened_wild_bounded += 1;
                opened_wild_slack += q.bound.total() - plays;
            }
            if wild {
                wild_bounded += 1;
                wild_opening += usize::from(
                    listing.items[..start]
                        .iter()
                        .any(|c| matches!(c, Candidate::Melds(_))),
                );
            }
        });
        assert!(bounded > 10_000, "only {bounded} positions bounded");
        assert!(with_plays > 5_000, "only {with_plays} with plays");
        assert!(exact > 3_000, "only {exact} exact bounds");
        assert!(
            points_ruled_out > 300,
            "only {points_ruled_out} openings ruled out"
        );
        // Hands holding a wild card before the opening: bounded, some
        // ruled out although they have single melds, some listing an
        // opening under the bound.
        assert!(wild_bounded > 800, "only {wild_bounded} wild hands bounded");
        assert!(
            wild_ruled_out > 100,
            "only {wild_ruled_out} wild openings ruled out"
        );
        assert!(wild_opening > 300, "only {wild_opening} wild hands opening");
        // Lay-offs and exchanges: 15,893 table slots, 13,061 of them plays.
        assert!(
            table_plays > 10_000,
            "only {table_plays} lay-offs and exchanges"
        );
        assert!(
            table_slots < 2 * table_plays,
            "{table_slots} table slots for {table_plays} plays"
        );
        // Hands holding one joker after the opening, bounded nearly
        // exactly (418 hands, 62 slots over their plays in all).
        assert!(
            opened_wild_bounded > 300,
            "only {opened_wild_bounded} opened hands with a joker bounded"
        );
        assert!(
            opened_wild_slack < opened_wild_bounded,
            "{opened_wild_slack} slots over the plays of {opened_wild_bounded} opened hands with a joker"
        );
        // Every preset but those with hidden melds (concealed), the
        // patience and Five Crowns' round wild cards in every hand.
        assert!(presets_bounded.len() >= 8, "bounded in {presets_bounded:?}");
    }

    /// Where the way out is ruled out before the solver is asked
    /// ([`Game::way_out_may_exist`]), the solver finds no way out the
    /// listing could play. On random walks through every preset, at every
    /// short hand on turn after drawing; among them hands ruled out, and
    /// hands with a way out (so that the check lets some through).
    #[test]
    fn a_way_out_ruled_out_is_one_the_solver_does_not_find() {
        let (mut asked, mut ruled_out, mut found) = (0, 0, 0);
        let walks = crate::walk::Walks {
            seats: 3,
            matches: 30,
            steps: 400,
            seed: 12,
        };
        walks.run(|name, _, game, seat| {
            let Some(hand) = game.hands.get(seat) else {
                return;
            };
            if game.phase != Phase::Play || hand.is_empty() || hand.len() > GO_OUT_HAND {
                return;
            }
            let kinds: Vec<CardKind> = hand.iter().map(|c| c.kind()).collect();
            let way_out = game.solver_way_out(seat, &kinds);
            asked += 1;
            found += usize::from(!way_out.is_empty());
            if !game.way_out_may_exist(seat) {
                ruled_out += 1;
                assert!(
                    way_out.is_empty(),
                    "{name}: {kinds:?} goes out by {way_out:?}"
                );
            }
        });
        assert!(asked > 5_000, "only {asked} short hands");
        assert!(ruled_out > 3_000, "only {ruled_out} ruled out");
        assert!(found > 500, "only {found} ways out");
    }
}
