//! Concealed play (`003` "Rommé ohne Auslegen", Wiener Rummy; Five Crowns
//! `000`): melds stay in the hand until a player lays them all down at once,
//! and the last turns the others may play after that.
//!
//! Readings (where the texts leave room):
//! * The lay-down comes with the final discard where the ruleset needs one
//!   (Wiener: "wenn er ... eine Karte gezogen und eine abgelegt hat"; Five
//!   Crowns: "muss er noch eine Handkarte übrig haben, die er abwerfen
//!   kann"). The cards left outside the melds are shown with them.
//! * "Weniger als 10 Augen" counts the cards' penalty values (table 3).
//! * After a Wiener knock the others draw their last card from the stock
//!   ("vom Abhebestoß ziehen"); after a Five Crowns lay-down the last turn
//!   is a normal turn, and a partial lay-down may end it.
//! * At the end every player who did not lay down scores the cards outside
//!   the best melds of the hand ("die Augen aller Karten, die er in seiner
//!   Hand nicht in Meldungen unterbringen kann"): the engine finds those
//!   melds with the exact solver, as a careful scorer at the table would. A
//!   player who laid down scores the cards left outside the melds shown.

use std::sync::Arc;

use romme_core::ruleset::{FinalDiscard, Limit};
use romme_core::{CardKind, MeldCard};

use crate::error::ActionError;
use crate::event::{Event, LayDownKind};
use crate::game::{Game, Meld};

impl Game {
    /// Concealed play: show the melds kept in the hand (see
    /// [`crate::Action::LayDown`]).
    pub(crate) fn lay_down(
        &mut self,
        seat: usize,
        melds: &[Vec<MeldCard>],
        discard: Option<CardKind>,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.in_play()?;
        let rules = Arc::clone(&self.rules);
        if !rules.concealed.enabled {
            return Err(ActionError::LayDownNotPlayed);
        }
        if melds.is_empty() {
            return Err(ActionError::EmptyMeld);
        }
        let (mut hand, discarded) =
            self.final_discard(seat, discard, ActionError::LayDownNeedsDiscard)?;
        let mut laid = Vec::with_capacity(melds.len());
        for m in melds {
            laid.push(self.meld_from_hand(seat, m, &mut hand, self.trial.0)?.0);
        }
        let rest: Vec<CardKind> = hand.iter().map(|c| c.kind()).collect();
        let have = romme_core::penalty::hand_points(&rules, &rest, self.round());
        let below = u32::from(rules.concealed.lay_down_below);
        let knock = match rules.concealed.knock_below {
            Limit::At(k) => Some(u32::from(k)),
            Limit::None => None,
        };
        let kind = if self.ending.is_some() {
            LayDownKind::Partial
        } else if have < below {
            LayDownKind::Out
        } else if knock.is_some_and(|k| have < k) {
            LayDownKind::Knock
        } else {
            return Err(ActionError::LayDownRestTooHigh { have, below, knock });
        };
        self.hands[seat] = hand;
        if let Some(p) = discarded {
            self.put_on_discard(seat, p, ev);
        }
        ev.push(Event::LaidDown {
            seat,
            kind,
            melds: laid.iter().map(Meld::public).collect(),
            rest,
        });
        Arc::make_mut(&mut self.table).melds_mut().extend(laid);
        match kind {
            LayDownKind::Partial => self.next_turn(ev),
            LayDownKind::Out => self.goes_out(seat, ev),
            LayDownKind::Knock => self.start_last_turns(seat, true, ev),
        }
        Ok(())
    }

    /// Whether `seat` has shown melds in this game (concealed play: its
    /// remaining cards are shown and scored as they are).
    pub(crate) fn laid_down(&self, seat: usize) -> bool {
        self.rules.concealed.enabled && self.table.iter().any(|m| m.owner == seat)
    }

    /// The cards `seat` scores at the end of the game: the hand; in
    /// concealed play, for a seat that did not lay down, the cards outside
    /// the best melds of the hand.
    pub(crate) fn scored_cards(&self, seat: usize) -> Vec<CardKind> {
        let hand: Vec<CardKind> = self.hands[seat].iter().map(|c| c.kind()).collect();
        if !self.rules.concealed.enabled || self.laid_down(seat) {
            return hand;
        }
        let solved = self
            .solver_tables()
            .and_then(|t| t.solver().and_then(|s| s.solve(&hand)).ok());
        match solved {
            Some(p) => p.unmatched,
            // The solver takes every ruleset `new` accepts.
            None => hand,
        }
    }

    /// Listed lay-downs of `seat`: the best melds of the hand after each
    /// possible final discard, where they may be laid down.
    pub(crate) fn lay_down_candidates(&self, seat: usize) -> Vec<crate::Action> {
        let rules = &self.rules;
        let Some(tables) = self.solver_tables() else {
            return Vec::new();
        };
        let Ok(solver) = tables.solver() else {
            return Vec::new();
        };
        let hand: Vec<CardKind> = self.hands[seat].iter().map(|c| c.kind()).collect();
        let mut discards: Vec<Option<CardKind>> = Vec::new();
        if rules.going_out.final_discard != FinalDiscard::Never {
            let mut kinds = hand.clone();
            kinds.dedup();
            discards.extend(kinds.into_iter().map(Some));
        }
        if rules.going_out.final_discard != FinalDiscard::Required {
            discards.push(None);
        }
        let mut out = Vec::new();
        for d in discards {
            let mut rest = hand.clone();
            if let Some(k) = d {
                if let Some(i) = rest.iter().position(|&c| c == k) {
                    rest.remove(i);
                }
            }
            if let Ok(p) = solver.solve(&rest) {
                if !p.melds.is_empty() {
                    out.push(crate::Action::LayDown {
                        melds: p.melds,
                        discard: d,
                    });
                }
            }
        }
        out
    }
}
