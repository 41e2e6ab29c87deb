//! Changing the table (`turn.rearrange`): free rearrangement (`001`: "Er
//! darf diese sogar verändern ... Es bleiben immer komplette Sätze und
//! Sequenzen erhalten und er nimmt keine Karten vom Tisch in sein Blatt
//! auf") and Räuber robbing (`002`, `003`).
//!
//! A rearrangement is one action that names the whole new table. It is
//! accepted when every card of the old table is in it, the rest are cards
//! of the player's hand (at least one), and every meld is valid. Readings:
//! * Only after the player's opening (both texts speak of it after the
//!   first meld), and not after a joker exchange that ends the plays.
//! * Jokers stay on the table (no table card goes to the hand) but may be
//!   declared anew in their new meld.
//! * Räuber: a new meld holds at least one hand card ("sofort wieder mit
//!   eigenen Karten zu einer neuen Meldung"), or it is what is left of one
//!   meld of the old table — a part of it, as it lay, still valid with at
//!   least three cards. Both copies of a card are alike: the engine reads
//!   the new table in the way that keeps it legal if there is one (melds
//!   that are a kept part of an old meld first, then hand cards matched to
//!   the other melds). The same rule applies to own and others' melds.
//! * A meld that lies exactly as before keeps its owner; every other meld
//!   belongs to the player who rearranged.

use std::sync::Arc;

use romme_core::ruleset::Rearrange;
use romme_core::{CardKind, MeldCard};
use romme_solver::rearrange::{Limits, rearrange_with};

use crate::action::Action;
use crate::error::ActionError;
use crate::event::Event;
use crate::game::{Game, Meld, Table};

/// Search nodes for the listed rearrangement (deterministic).
const LISTED_NODES: u64 = 5_000;

/// Remove one `k` from `pool`; false if there is none.
fn take(pool: &mut Vec<MeldCard>, k: &MeldCard) -> bool {
    match pool.iter().position(|c| c == k) {
        Some(i) => {
            pool.swap_remove(i);
            true
        }
        None => false,
    }
}

/// Assign hand cards to `needy` melds so that each gets one of its own
/// kinds (bipartite matching by augmenting paths).
fn match_hand_cards(needy: &[Vec<CardKind>], hand_used: &[CardKind]) -> bool {
    let mut owner: Vec<Option<usize>> = vec![None; hand_used.len()];
    fn augment(
        m: usize,
        needy: &[Vec<CardKind>],
        hand: &[CardKind],
        owner: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        for (i, k) in hand.iter().enumerate() {
            if seen[i] || !needy[m].contains(k) {
                continue;
            }
            seen[i] = true;
            let free = match owner[i] {
                None => true,
                Some(o) => augment(o, needy, hand, owner, seen),
            };
            if free {
                owner[i] = Some(m);
                return true;
            }
        }
        false
    }
    (0..needy.len()).all(|m| {
        let mut seen = vec![false; hand_used.len()];
        augment(m, needy, hand_used, &mut owner, &mut seen)
    })
}

impl Game {
    /// Replace the table by `new_table` (see the module docs).
    pub(crate) fn rearrange_table(
        &mut self,
        seat: usize,
        new_table: &[Vec<MeldCard>],
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.start_play()?;
        let rules = Arc::clone(&self.rules);
        if rules.turn.rearrange == Rearrange::None {
            return Err(ActionError::RearrangeNotAllowed(
                "the table may not be changed in this ruleset (was liegt, das liegt)".into(),
            ));
        }
        if !self.opened[seat] {
            return Err(ActionError::RearrangeNotAllowed(
                "you may change the table only after your opening".into(),
            ));
        }
        if self.ts.exchanged && rules.jokers.exchange_ends_plays {
            return Err(ActionError::PlaysEnded);
        }
        let mut decls = Vec::with_capacity(new_table.len());
        for m in new_table {
            decls.push(self.declare(m)?);
        }
        // Every old table card must be in the new table; the rest comes from
        // the hand.
        let mut extra: Vec<CardKind> = new_table.iter().flatten().map(|c| c.card).collect();
        for m in self.table.iter() {
            for &(c, _) in m.cards.iter() {
                match extra.iter().position(|&k| k == c.kind()) {
                    Some(i) => {
                        extra.swap_remove(i);
                    }
                    None => return Err(ActionError::TableCardMissing(c.kind())),
                }
            }
        }
        if extra.is_empty() {
            return Err(ActionError::RearrangeNothingPlaced);
        }
        // The card taken from the discard pile must come from the hand (a
        // twin already on the table does not count).
        if let Some(t) = self.ts.taken {
            if !extra.contains(&t.kind()) {
                return Err(ActionError::MustMeldTaken(t.kind()));
            }
        }
        extra.sort_unstable();
        let mut hand = self.hands[seat].clone();
        let mut physical = self.take_for_meld(&mut hand, &extra)?;
        self.check_hand_left(&hand)?;
        if rules.turn.rearrange == Rearrange::Rob {
            let declared: Vec<Vec<MeldCard>> = decls.iter().map(|d| d.ordered.clone()).collect();
            self.check_robbing(&declared, &extra)?;
        }
        // Physical cards: the old table's cards first, then the hand's.
        let mut pool: Vec<(romme_core::Card, Option<romme_core::Face>)> = self
            .table
            .iter()
            .flat_map(|m| m.cards.iter().copied())
            .collect();
        let mut old: Vec<Meld> = self.table.to_vec();
        let mut table = Vec::with_capacity(new_table.len());
        for (m, d) in new_table.iter().zip(&decls) {
            let same = old.iter().position(|o| {
                let mut a = o.meld_cards();
                let mut b = d.ordered.clone();
                a.sort_unstable();
                b.sort_unstable();
                a == b
            });
            let owner = match same {
                Some(i) => old.remove(i).owner,
                None => seat,
            };
            let mut cards = Vec::with_capacity(m.len());
            for c in &d.ordered {
                let from_pool = pool.iter().position(|(p, _)| p.kind() == c.card);
                let card = match from_pool {
                    Some(i) => pool.swap_remove(i).0,
                    None => match physical.iter().position(|p| p.kind() == c.card) {
                        Some(i) => physical.swap_remove(i),
                        None => return Err(ActionError::Internal("a card went missing".into())),
                    },
                };
                cards.push((card, c.stands_for));
            }
            table.push(Meld::new(owner, d.kind, cards));
        }
        if !pool.is_empty() || !physical.is_empty() {
            return Err(ActionError::Internal("cards left over".into()));
        }
        if let Some(t) = self.ts.taken {
            if extra.contains(&t.kind()) {
                self.ts.taken = None;
            }
        }
        if table.iter().any(|m| m.owner != seat) || self.table.iter().any(|m| m.owner != seat) {
            self.ts.laid_off_on_others = true;
        }
        self.hands[seat] = hand;
        self.table = Arc::new(Table::from(table));
        ev.push(Event::Rearranged {
            seat,
            placed: extra,
            table: self.table.iter().map(Meld::public).collect(),
        });
        if self.hands[seat].is_empty() {
            self.goes_out(seat, ev);
        }
        Ok(())
    }

    /// Räuber: every new meld (declared, so valid) holds a hand card or is
    /// a kept part of one old meld.
    fn check_robbing(
        &self,
        new_table: &[Vec<MeldCard>],
        placed: &[CardKind],
    ) -> Result<(), ActionError> {
        let mut rest: Vec<Vec<MeldCard>> = self.table.iter().map(Meld::meld_cards).collect();
        let mut needy: Vec<Vec<CardKind>> = Vec::new();
        let mut needy_text: Vec<String> = Vec::new();
        for m in new_table {
            // A kept part: the cards as they lay, all from one old meld.
            let kept = rest.iter_mut().any(|pool| {
                let mut p = pool.clone();
                if m.iter().all(|c| take(&mut p, c)) {
                    *pool = p;
                    true
                } else {
                    false
                }
            });
            if !kept {
                needy.push(m.iter().map(|c| c.card).collect());
                needy_text.push(romme_core::notation::format_cards(m));
            }
        }
        if match_hand_cards(&needy, placed) {
            return Ok(());
        }
        // Name the melds without any own card; if every meld has one in
        // reach, too few own cards are shared among them: name them all.
        let bare: Vec<&str> = needy
            .iter()
            .zip(&needy_text)
            .filter(|(m, _)| !m.iter().any(|k| placed.contains(k)))
            .map(|(_, t)| t.as_str())
            .collect();
        let named = if bare.is_empty() {
            needy_text.join(", ")
        } else {
            bare.join(", ")
        };
        Err(ActionError::RobWithoutOwnCard(named))
    }

    /// Whether `seat` may change the table at all: the ruleset allows it
    /// and the seat has opened (what the listed rearrangement needs).
    pub(crate) fn may_rearrange(&self, seat: usize) -> bool {
        self.rules.turn.rearrange != Rearrange::None
            && self.opened.get(seat).copied().unwrap_or(false)
    }

    /// The listed rearrangement of `seat`: the solver's best new table with
    /// the hand's cards (no joker exchange), if it places any.
    pub(crate) fn rearrange_candidates(&self, seat: usize) -> Vec<Action> {
        if !self.may_rearrange(seat) {
            return Vec::new();
        }
        let Some(tables) = self.listing_tables() else {
            return Vec::new();
        };
        let Ok(solver) = tables.solver() else {
            return Vec::new();
        };
        let table: Vec<Vec<MeldCard>> = self.table.iter().map(Meld::meld_cards).collect();
        let hand: Vec<CardKind> = self.hands[seat].iter().map(|c| c.kind()).collect();
        let limits = Limits {
            nodes: LISTED_NODES,
            time: None,
        };
        match rearrange_with(&solver, &table, &hand, limits) {
            Ok(r) if !r.placed.is_empty() => vec![Action::Rearrange { table: r.table }],
            _ => Vec::new(),
        }
    }
}
