//! A turn after the draw: melding (the opening), laying off, exchanging
//! jokers, discarding and calling Rommé.

use std::sync::Arc;

use romme_core::meld::{Declaration, MeldError, MeldKind, card_values};
use romme_core::notation::format_cards;
use romme_core::opening::{self, OpeningAttempt};
use romme_core::ruleset::{
    DiscardTake, FinalDiscard, JokerExchange, LayOff, LayOffTarget, SetSuits,
};
use romme_core::{Card, CardKind, Face, MeldCard};
use smallvec::SmallVec;

use crate::action::LayOffPart;
use crate::error::ActionError;
use crate::event::Event;
use crate::game::{Game, Hand, Meld, Phase, Table, put_in_hand};

/// Why a play is refused for the cards it uses (see
/// [`Game::play_allowed`]), before the refusal is worded.
#[derive(Debug, Clone, Copy)]
enum PlayRefusal {
    MustMeldTaken(CardKind),
    MustMeldFreedJoker,
    NoLayingOff,
    LayOffBeforeOpening,
}

impl PlayRefusal {
    fn into_error(self) -> ActionError {
        match self {
            PlayRefusal::MustMeldTaken(k) => ActionError::MustMeldTaken(k),
            PlayRefusal::MustMeldFreedJoker => ActionError::MustMeldFreedJoker,
            PlayRefusal::NoLayingOff => {
                ActionError::LayOffNotAllowed("laying off is not played in this ruleset".into())
            }
            PlayRefusal::LayOffBeforeOpening => {
                ActionError::LayOffNotAllowed("you can lay off only after your opening".into())
            }
        }
    }
}

/// What a checked play of new melds and lay-offs changes (see
/// [`Game::put_down_plan`]).
pub(crate) struct PutDownPlan {
    /// The play comes before the draw (no discard pile) and starts the
    /// play phase.
    starts_play: bool,
    /// The seat's hand after the play.
    hand: Hand,
    /// The table after the play.
    table: TableAfter,
    /// The melds laid off on.
    laid_off: Vec<usize>,
    /// A lay-off went on another player's meld.
    on_others: bool,
    /// The opening's points, if the play is the seat's opening.
    opening_points: Option<u32>,
}

/// The table a play makes, without a copy of the melds lying there: the
/// lying melds laid off on, by their place, as they become, and the new
/// melds, which go after the lying ones (lay-offs on them made).
struct TableAfter {
    changed: SmallVec<[(usize, Meld); 2]>,
    new: Vec<Meld>,
}

impl TableAfter {
    /// Meld `i` of the table after the play, on `lying`.
    fn get<'a>(&'a self, lying: &'a [Meld], i: usize) -> Option<&'a Meld> {
        match i.checked_sub(lying.len()) {
            Some(new) => self.new.get(new),
            None => self
                .changed
                .iter()
                .find(|(at, _)| *at == i)
                .map(|(_, m)| m)
                .or_else(|| lying.get(i)),
        }
    }

    /// Meld `i` (one [`TableAfter::get`] found) becomes `meld`.
    fn set(&mut self, lying: &[Meld], i: usize, meld: Meld) {
        match i.checked_sub(lying.len()) {
            Some(new) => {
                if let Some(slot) = self.new.get_mut(new) {
                    *slot = meld;
                }
            }
            None => match self.changed.iter_mut().find(|(at, _)| *at == i) {
                Some(entry) => entry.1 = meld,
                None => self.changed.push((i, meld)),
            },
        }
    }

    /// The whole table on `lying`, and where the new melds are on it.
    fn into_table(self, lying: &[Meld]) -> (Vec<Meld>, std::ops::Range<usize>) {
        let new_at = lying.len()..lying.len() + self.new.len();
        let mut table = Vec::with_capacity(new_at.end);
        table.extend_from_slice(lying);
        for (i, meld) in self.changed {
            if let Some(slot) = table.get_mut(i) {
                *slot = meld;
            }
        }
        table.extend(self.new);
        (table, new_at)
    }
}

impl Game {
    // ----- melding, laying off, exchanging -----

    /// The seat on turn has drawn (melds, lay-offs, exchanges, discards).
    pub(crate) fn in_play(&self) -> Result<(), ActionError> {
        match self.phase {
            Phase::Draw => Err(ActionError::MustDrawFirst),
            Phase::Play => Ok(()),
            Phase::MatchOver => Err(ActionError::MatchOver),
        }
    }

    /// Take physical cards for `kinds` out of `hand` to meld them: a card
    /// that must be melded this turn (taken from the discard pile, a freed
    /// joker) before its twin, so the obligation is met; otherwise the
    /// lowest copy.
    pub(crate) fn take_for_meld(
        &self,
        hand: &mut Hand,
        kinds: &[CardKind],
    ) -> Result<Vec<Card>, ActionError> {
        let pending: SmallVec<[Card; 4]> = self
            .ts
            .taken
            .iter()
            .chain(&self.ts.freed)
            .copied()
            .collect();
        let mut out = Vec::with_capacity(kinds.len());
        for &k in kinds {
            // (An error is made only when there is one: made and dropped
            // on every call, it cost as much as the search.)
            let Some(i) = hand
                .iter()
                .position(|c| c.is(k) && pending.contains(c))
                .or_else(|| hand.iter().position(|c| c.is(k)))
            else {
                return Err(ActionError::NotInHand(k));
            };
            out.push(hand.remove(i));
        }
        Ok(out)
    }

    /// Take physical cards for `kinds` out of `hand` (lowest copy first).
    pub(crate) fn take_cards(
        hand: &mut Hand,
        kinds: &[CardKind],
    ) -> Result<Vec<Card>, ActionError> {
        let mut out = Vec::with_capacity(kinds.len());
        for &k in kinds {
            let Some(i) = hand.iter().position(|c| c.is(k)) else {
                return Err(ActionError::NotInHand(k));
            };
            out.push(hand.remove(i));
        }
        Ok(out)
    }

    pub(crate) fn declare(&self, cards: &[MeldCard]) -> Result<Declaration, ActionError> {
        self.declare_with(cards, self.trial.0)
    }

    /// [`Game::declare`]; `terse`: a refusal without its text (the action
    /// is only tried).
    fn declare_with(&self, cards: &[MeldCard], terse: bool) -> Result<Declaration, ActionError> {
        // The text of the meld is written only when the meld is refused,
        // and not at all when the action is only tried.
        let checker = self.checker()?;
        let read = |r: Result<Declaration, MeldError>| match r {
            // Where a declaration can never matter, the first reading is
            // taken (`Ruleset::declarations_matter`).
            Err(MeldError::Ambiguous { options }) if !self.rules.declarations_matter() => {
                options.into_iter().next().ok_or(MeldError::Ambiguous {
                    options: Vec::new(),
                })
            }
            other => other,
        };
        if terse {
            return read(self.melds.check(&checker, cards, false)).map_err(|e| match e {
                MeldError::Ambiguous { .. } => ActionError::Ambiguous(String::new()),
                _ => ActionError::InvalidMeld {
                    cards: String::new(),
                    reason: String::new(),
                },
            });
        }
        read(self.melds.check(&checker, cards, true)).map_err(|e| match e {
            MeldError::Ambiguous { .. } => ActionError::Ambiguous(format_cards(cards)),
            other => ActionError::InvalidMeld {
                cards: format_cards(cards),
                reason: other.to_string(),
            },
        })
    }

    /// Meld value of everything on the table (counts toward an opening
    /// with `opening.table_counts`).
    pub(crate) fn table_value(&self) -> u32 {
        self.table
            .iter()
            .map(|m| {
                let faces: Vec<Face> = m.shown().iter().filter_map(|c| c.effective()).collect();
                card_values(&self.rules, m.kind, &faces).iter().sum::<u32>()
            })
            .sum()
    }

    /// Give the physical cards of `hand_cards` (in any order) the places of
    /// the declaration's `ordered` cards.
    pub(crate) fn place(
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
                .position(|&(c, f)| c.is(mc.card) && f == mc.stands_for)
                .or_else(|| pool.iter().position(|(c, _)| c.is(mc.card)));
            let card = match same {
                Some(i) => Some(pool.remove(i).0),
                None => physical
                    .iter()
                    .position(|c| c.is(mc.card))
                    .map(|i| physical.remove(i)),
            };
            out.extend(card.map(|c| (c, mc.stands_for)));
        }
        out
    }

    /// A new meld of `seat` from the cards `m` taken out of `hand`, and its
    /// declaration.
    pub(crate) fn meld_from_hand(
        &self,
        seat: usize,
        m: &[MeldCard],
        hand: &mut Hand,
        terse: bool,
    ) -> Result<(Meld, Declaration), ActionError> {
        let d = self.declare_with(m, terse)?;
        let kinds: Vec<CardKind> = m.iter().map(|c| c.card).collect();
        let physical = self.take_for_meld(hand, &kinds)?;
        let meld = Meld::new(seat, d.kind, Self::place(&d.ordered, physical, &[]));
        Ok((meld, d))
    }

    /// The checks of a play that depend only on the seat and the cards it
    /// uses (`used`: every card of the new melds and lay-offs), before any
    /// meld is looked at: a card that must be melded at once (taken from the
    /// discard pile, or a freed joker) is in it; lay-offs are played, and
    /// made before the opening only where they count toward it or come with
    /// new melds. Listing candidates asks the same, so it lists no play the
    /// engine would refuse for these reasons.
    pub(crate) fn play_allowed(
        &self,
        seat: usize,
        no_melds: bool,
        lays_off: bool,
        used: impl Iterator<Item = CardKind> + Clone,
    ) -> Result<(), ActionError> {
        self.play_refusal(seat, no_melds, lays_off, used)
            .map_or(Ok(()), |r| Err(r.into_error()))
    }

    /// [`Game::play_allowed`] as a yes or no, without wording a refusal
    /// (listing asks it for every card).
    pub(crate) fn play_allowed_ok(
        &self,
        seat: usize,
        no_melds: bool,
        lays_off: bool,
        used: impl Iterator<Item = CardKind> + Clone,
    ) -> bool {
        self.play_refusal(seat, no_melds, lays_off, used).is_none()
    }

    /// Why [`Game::play_allowed`] refuses a play, if it does.
    fn play_refusal(
        &self,
        seat: usize,
        no_melds: bool,
        lays_off: bool,
        used: impl Iterator<Item = CardKind> + Clone,
    ) -> Option<PlayRefusal> {
        if let Some(t) = self.ts.taken {
            if !used.clone().any(|k| k == t.kind()) {
                return Some(PlayRefusal::MustMeldTaken(t.kind()));
            }
        }
        if !self.ts.freed.is_empty() && !used.clone().any(|k| k.is_joker()) {
            return Some(PlayRefusal::MustMeldFreedJoker);
        }
        if lays_off {
            if self.rules.turn.lay_off == LayOff::Never {
                return Some(PlayRefusal::NoLayingOff);
            }
            let opening_now = !self.opened.get(seat).copied().unwrap_or(false);
            if opening_now && no_melds && !self.rules.opening.lay_offs_count {
                return Some(PlayRefusal::LayOffBeforeOpening);
            }
        }
        None
    }

    /// Whether `seat` may lay off on a meld of `owner` (some rulesets allow
    /// only one's own melds).
    pub(crate) fn may_lay_off_on(&self, seat: usize, owner: usize) -> bool {
        self.rules.turn.lay_off_target != LayOffTarget::Own || owner == seat
    }

    /// Meld and lay off: every check first ([`Game::put_down_plan`]), then
    /// the change, so a refused play leaves the game as it was.
    pub(crate) fn put_down(
        &mut self,
        seat: usize,
        melds: &[Vec<MeldCard>],
        lay_offs: &[LayOffPart],
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let plan = self.put_down_plan(seat, melds, lay_offs, self.trial.0)?;
        self.commit_put_down(seat, plan, ev);
        Ok(())
    }

    /// Every check of a play of new `melds` and `lay_offs`, and what it
    /// would change, without changing anything (`accepts` asks this in
    /// place). `terse`: refusals without their texts (only tried).
    pub(crate) fn put_down_plan(
        &self,
        seat: usize,
        melds: &[Vec<MeldCard>],
        lay_offs: &[LayOffPart],
        terse: bool,
    ) -> Result<PutDownPlan, ActionError> {
        // Without a discard pile a play may come before the draw (`001`).
        let starts_play = self.phase == Phase::Draw && !self.rules.turn.discard_pile;
        if !starts_play {
            self.in_play()?;
        }
        if self.rules.concealed.enabled {
            return Err(ActionError::MeldsConcealed);
        }
        if melds.is_empty() && lay_offs.is_empty() {
            return Err(ActionError::EmptyMeld);
        }
        if self.ts.exchanged && self.rules.jokers.exchange_ends_plays {
            return Err(ActionError::PlaysEnded);
        }
        let rules = &self.rules;
        let opening_now = !self.opened[seat];
        let used = melds
            .iter()
            .flatten()
            .chain(lay_offs.iter().flat_map(|p| p.cards.iter()))
            .map(|c| c.card);
        self.play_allowed(seat, melds.is_empty(), !lay_offs.is_empty(), used)?;
        let mut hand = self.hands[seat].clone();
        // New melds.
        let mut decls = Vec::with_capacity(melds.len());
        let mut new_melds = Vec::with_capacity(melds.len());
        for m in melds {
            let (meld, d) = self.meld_from_hand(seat, m, &mut hand, terse)?;
            new_melds.push(meld);
            decls.push(d);
        }
        // Lay-offs, on the table as it is (new melds of this action count as
        // own melds after the existing ones; the table is not copied).
        let mut after = TableAfter {
            changed: SmallVec::new(),
            new: new_melds,
        };
        let mut lay_off_value = 0u32;
        let mut laid_off = Vec::with_capacity(lay_offs.len());
        let mut on_others = false;
        for part in lay_offs {
            let target = after
                .get(&self.table, part.meld)
                .ok_or(ActionError::NoSuchMeld(part.meld))?;
            if !self.may_lay_off_on(seat, target.owner) {
                return Err(ActionError::LayOffNotAllowed(
                    "in this ruleset you may lay off only on your own melds".into(),
                ));
            }
            let lying = target.shown();
            let cards = target.shown_with(&part.cards);
            let checker = self.checker()?;
            let d = if terse {
                self.melds.check(&checker, &cards, false).map_err(|_| {
                    ActionError::InvalidLayOff {
                        cards: String::new(),
                        meld: String::new(),
                        reason: String::new(),
                    }
                })?
            } else {
                self.melds.check(&checker, &cards, true).map_err(|e| {
                    ActionError::InvalidLayOff {
                        cards: format_cards(&part.cards),
                        meld: format_cards(lying),
                        reason: e.to_string(),
                    }
                })?
            };
            let kinds: Vec<CardKind> = part.cards.iter().map(|c| c.card).collect();
            let physical = self.take_for_meld(&mut hand, &kinds)?;
            let old_value: u32 = {
                let faces: Vec<Face> = lying.iter().filter_map(|c| c.effective()).collect();
                card_values(rules, target.kind, &faces).iter().sum()
            };
            lay_off_value += d.value.saturating_sub(old_value);
            on_others |= target.owner != seat;
            let meld = Meld::new(
                target.owner,
                d.kind,
                Self::place(&d.ordered, physical, &target.cards),
            );
            after.set(&self.table, part.meld, meld);
            laid_off.push(part.meld);
        }
        // Going out and the discard.
        self.check_hand_left(&hand)?;
        let keep = usize::from(rules.going_out.final_discard == FinalDiscard::Required);
        // The opening.
        let mut opening_points = None;
        if opening_now {
            // (Worked out only where the table counts: every card of the
            // table read again.)
            let table_value = self.opening_table_value();
            let attempt = OpeningAttempt {
                melds: &decls,
                lay_off_value,
                table_value,
                joker_exchanged: self.ts.exchanged,
                whole_hand: hand.len() <= keep && !self.ts.opened_before,
            };
            opening_points = Some(opening::check(rules, &attempt)?);
        }
        // The card taken from the discard pile, and freed jokers, are melded
        // if they left the hand.
        if let Some(t) = self.ts.taken {
            if hand.contains(&t)
                && rules.turn.discard_take == DiscardTake::MeldAtOnceOpening
                && opening_now
            {
                return Err(ActionError::MustMeldTaken(t.kind()));
            }
        }
        Ok(PutDownPlan {
            starts_play,
            hand,
            table: after,
            laid_off,
            on_others,
            opening_points,
        })
    }

    /// Make a play checked by [`Game::put_down_plan`].
    pub(crate) fn commit_put_down(&mut self, seat: usize, plan: PutDownPlan, ev: &mut Vec<Event>) {
        let PutDownPlan {
            starts_play,
            hand,
            table,
            laid_off,
            on_others,
            opening_points,
        } = plan;
        if starts_play {
            self.phase = Phase::Play;
        }
        if on_others {
            self.ts.laid_off_on_others = true;
        }
        if self.ts.taken.is_some_and(|t| !hand.contains(&t)) {
            self.ts.taken = None;
        }
        self.ts.freed.retain(|j| hand.contains(j));
        self.hands[seat] = hand;
        let (table, new_at) = table.into_table(&self.table);
        self.table = Arc::new(Table::from(table));
        if opening_points.is_some() {
            self.opened[seat] = true;
        }
        if self.first_to_meld.is_none() {
            self.first_to_meld = Some(seat);
        }
        ev.push(Event::Melded {
            seat,
            melds: new_at.collect(),
            laid_off,
            opening: opening_points,
            table: self.table.iter().map(Meld::public).collect(),
        });
        if self.hands[seat].is_empty() {
            self.goes_out(seat, ev);
        }
    }

    /// Before a play: without a discard pile a player who plays need not
    /// draw (`001`), so the play may come first; otherwise the seat must
    /// have drawn. (Runs on the copy `apply` works on.)
    pub(crate) fn start_play(&mut self) -> Result<(), ActionError> {
        if self.phase == Phase::Draw && !self.rules.turn.discard_pile {
            self.phase = Phase::Play;
        }
        self.in_play()
    }

    /// End the turn without a discard (no discard pile).
    pub(crate) fn end_turn(&mut self, seat: usize, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        self.end_turn_checks()?;
        ev.push(Event::TurnEnded { seat });
        self.next_turn(ev);
        Ok(())
    }

    /// Every check of ending the turn without a discard (all of them come
    /// before it changes anything, so `accepts` and `apply` make them in
    /// place).
    pub(crate) fn end_turn_checks(&self) -> Result<(), ActionError> {
        self.in_play()?;
        if self.rules.turn.discard_pile {
            return Err(ActionError::EndTurnNeedsDiscard);
        }
        if !self.ts.freed.is_empty() {
            return Err(ActionError::MustMeldFreedJoker);
        }
        Ok(())
    }

    /// Whether a play may leave `hand`: a card to discard where the final
    /// discard is required (not only jokers where jokers may not be
    /// discarded); where the last card may never be discarded, not exactly
    /// one card (it could neither be melded nor discarded).
    pub(crate) fn check_hand_left(&self, hand: &[Card]) -> Result<(), ActionError> {
        let rules = &self.rules;
        match rules.going_out.final_discard {
            FinalDiscard::Required
                if hand.is_empty()
                    || (!rules.jokers.discard_allowed && hand.iter().all(|c| c.is_joker())) =>
            {
                return Err(ActionError::MustKeepDiscard);
            }
            FinalDiscard::Never if hand.len() == 1 => return Err(ActionError::MustKeepTwo),
            _ => {}
        }
        Ok(())
    }

    pub(crate) fn exchange(
        &mut self,
        seat: usize,
        meld: usize,
        card: CardKind,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.start_play()?;
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
        let text = || format_cards(target.shown());
        if rules.jokers.exchange_needs_full_set && target.kind == MeldKind::Set {
            let full = match (rules.melds.sets.suits, rules.melds.sets.max_len.get()) {
                (_, Some(m)) => usize::from(m),
                (SetSuits::Distinct, None) => rules.deck.kind.suits().len(),
                (SetSuits::Any, None) => usize::MAX,
            };
            if target.cards.len() < full {
                return Err(ActionError::ExchangeNotAllowed(format!(
                    "a joker in a set may be exchanged only when the set has {full} cards ({})",
                    text()
                )));
            }
        }
        let face = card
            .face()
            .ok_or_else(|| ActionError::NoJokerFor { meld: text(), card })?;
        let pos = target
            .cards
            .iter()
            .position(|&(c, f)| c.is_joker() && f == Some(face))
            .ok_or_else(|| ActionError::NoJokerFor { meld: text(), card })?;
        let mut hand = self.hands[seat].clone();
        let natural = Self::take_cards(&mut hand, &[card])?[0];
        let mut cards = target.cards.to_vec();
        let joker = cards[pos].0;
        cards[pos] = (natural, None);
        let updated = Meld::new(target.owner, target.kind, cards);
        put_in_hand(&mut hand, joker);
        if updated.owner != seat {
            self.ts.laid_off_on_others = true;
        }
        self.hands[seat] = hand;
        Arc::make_mut(&mut self.table).melds_mut()[meld] = updated;
        self.ts.exchanged = true;
        if rules.jokers.freed_must_be_melded {
            self.ts.freed.push(joker);
        }
        // What must be melded this turn (the freed joker, a card taken from
        // the discard pile) must still be meldable after the exchange.
        if (!self.ts.freed.is_empty() || self.ts.taken.is_some())
            && !crate::legal::pending_meldable(self, seat)
        {
            let what = match (self.ts.freed.is_empty(), self.ts.taken) {
                (false, Some(t)) => format!(
                    "the freed joker and {}, taken from the discard pile,",
                    t.kind()
                ),
                (true, Some(t)) => format!("{}, taken from the discard pile,", t.kind()),
                _ => "the freed joker".to_string(),
            };
            return Err(ActionError::ExchangeNotAllowed(format!(
                "{what} must be melded this turn, and after this exchange it could not be"
            )));
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

    pub(crate) fn discard_card(
        &mut self,
        seat: usize,
        card: CardKind,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let at = self.discard_checks(seat, card)?;
        let physical = self.hands[seat].remove(at);
        self.put_on_discard(seat, physical, ev);
        if self.hands[seat].is_empty() {
            self.goes_out(seat, ev);
        } else {
            self.next_turn(ev);
            self.open_claims(seat, physical);
        }
        Ok(())
    }

    /// The checks of discarding `card` to end the turn, in the order
    /// `discard_card` makes them: where the card is in the hand, or why it
    /// may not be discarded. Changes nothing.
    pub(crate) fn discard_checks(&self, seat: usize, card: CardKind) -> Result<usize, ActionError> {
        self.in_play()?;
        if !self.rules.turn.discard_pile {
            return Err(ActionError::NoDiscardPile);
        }
        self.discard_allowed(seat, card)
    }

    /// A final discard that ends a game or a hand (calling Rommé, a
    /// lay-down): the hand after it and the physical card; `missing` when
    /// the ruleset needs one and none was named.
    pub(crate) fn final_discard(
        &self,
        seat: usize,
        discard: Option<CardKind>,
        missing: ActionError,
    ) -> Result<(Hand, Option<Card>), ActionError> {
        match (discard, self.rules.going_out.final_discard) {
            (Some(card), _) => {
                let (h, p) = self.checked_discard(seat, card)?;
                Ok((h, Some(p)))
            }
            (None, FinalDiscard::Required) => Err(missing),
            (None, _) => Ok((self.hands[seat].clone(), None)),
        }
    }

    /// Put `card` of `seat` face up on the discard pile.
    pub(crate) fn put_on_discard(&mut self, seat: usize, card: Card, ev: &mut Vec<Event>) {
        self.discard.push(card);
        ev.push(Event::Discarded {
            seat,
            card: card.kind(),
        });
    }

    /// The hand after discarding `card`, and the physical card, if the
    /// discard is allowed now.
    pub(crate) fn checked_discard(
        &self,
        seat: usize,
        card: CardKind,
    ) -> Result<(Hand, Card), ActionError> {
        let at = self.discard_allowed(seat, card)?;
        let mut hand = self.hands[seat].clone();
        let physical = hand.remove(at);
        Ok((hand, physical))
    }

    /// Whether `seat` may discard `card` now (the checks of
    /// [`Game::checked_discard`], in its order, without taking the card):
    /// where in the hand the card is.
    fn discard_allowed(&self, seat: usize, card: CardKind) -> Result<usize, ActionError> {
        let rules = &self.rules;
        let hand = &self.hands[seat];
        // (The error is made only when the card is missing: made and
        // dropped on every discard checked, it cost a fifth of the check.)
        let Some(at) = hand.iter().position(|c| c.is(card)) else {
            return Err(ActionError::NotInHand(card));
        };
        if hand.len() == 1 && rules.going_out.final_discard == FinalDiscard::Never {
            return Err(ActionError::FinalDiscardForbidden);
        }
        // A hand of jokers only may discard one: otherwise the turn could
        // not end.
        if card.is_joker() && !rules.jokers.discard_allowed && !hand.iter().all(|c| c.is_joker()) {
            return Err(ActionError::JokerDiscard);
        }
        if let Some(t) = self.ts.taken {
            return Err(ActionError::MustMeldTaken(t.kind()));
        }
        if !self.ts.freed.is_empty() {
            return Err(ActionError::MustMeldFreedJoker);
        }
        Ok(at)
    }

    /// "Rommé bieten" (`002`): discard (where the ruleset needs a final
    /// discard) and end the game with at most `rest_allowed` points left.
    pub(crate) fn call_romme(
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
        let (hand, physical) = self.final_discard(seat, discard, ActionError::CallNeedsDiscard)?;
        let kinds: Vec<CardKind> = hand.iter().map(|c| c.kind()).collect();
        let have = romme_core::penalty::hand_points(&rules, &kinds, self.round());
        if have > limit {
            return Err(ActionError::RestTooHigh { limit, have });
        }
        self.hands[seat] = hand;
        if let Some(p) = physical {
            self.put_on_discard(seat, p, ev);
        }
        self.goes_out(seat, ev);
        Ok(())
    }
}
