//! Laying off: which hand cards can join which meld on the table, including
//! joker exchange (a natural card replaces the joker that stands for it; the
//! joker goes to the hand).
//!
//! Table melds keep their declarations: a joker declared `*=6h` stays 6h
//! unless it is exchanged. Every result is validated by the rules library's
//! [`MeldChecker`].

use std::collections::BTreeSet;

use romme_core::card::CardKind;
use romme_core::meld::{Declaration, MeldChecker, MeldKind};
use romme_core::notation::MeldCard;
use romme_core::ruleset::{JokerExchange, Ruleset, SetSuits};
use serde::Serialize;

use crate::partition::SolveError;

/// One way to lay hand cards off on one table meld.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LayOff {
    /// Index of the table meld.
    pub meld: usize,
    /// Hand cards that go to the table.
    pub cards: Vec<CardKind>,
    /// Jokers (or round wilds) that come back to the hand by exchange.
    pub freed: Vec<CardKind>,
    /// The table meld afterwards, in meld order, declared.
    pub result: Vec<MeldCard>,
    /// Meld value the lay-off adds to the table (what counts toward an
    /// opening where lay-offs count).
    pub value: u32,
}

impl LayOff {
    /// Whether this lay-off exchanges a joker.
    pub fn is_exchange(&self) -> bool {
        !self.freed.is_empty()
    }
}

/// Most hand cards considered for one table meld at once.
const MAX_CANDIDATES: usize = 10;

/// Every way to lay off cards of `hand` on each meld of `table` (one meld at
/// a time), exchanges included where the ruleset allows them; the empty
/// lay-off is not listed. `table` melds must be valid as declared.
pub fn lay_offs(
    rules: &Ruleset,
    round: Option<u8>,
    table: &[Vec<MeldCard>],
    hand: &[CardKind],
) -> Result<Vec<LayOff>, SolveError> {
    let checker = MeldChecker::new(rules, round)?;
    checker.check_cards(hand)?;
    let mut out = Vec::new();
    for (i, meld) in table.iter().enumerate() {
        let base = checker.check(meld)?;
        bundles(
            &checker,
            i,
            &base,
            hand,
            &mut Vec::new(),
            &mut Vec::new(),
            0,
            &mut out,
        );
    }
    Ok(out)
}

/// Lay-offs on one meld: extensions by subsets of the candidate cards, and
/// exchanges (each followed by further lay-offs on the new meld).
#[allow(clippy::too_many_arguments)]
fn bundles(
    checker: &MeldChecker,
    index: usize,
    current: &Declaration,
    pool: &[CardKind],
    used: &mut Vec<CardKind>,
    freed: &mut Vec<CardKind>,
    depth: usize,
    out: &mut Vec<LayOff>,
) {
    let rules = checker.rules();
    let start_value = current.value;
    // Extensions: subsets of the cards that could belong to this meld.
    let candidates: Vec<CardKind> = pool
        .iter()
        .copied()
        .filter(|c| fits_kind(checker, current, *c))
        .take(MAX_CANDIDATES)
        .collect();
    let mut seen = BTreeSet::new();
    let n = candidates.len();
    for mask in 1u32..(1 << n) {
        let mut add: Vec<CardKind> = (0..n)
            .filter(|k| mask >> k & 1 == 1)
            .map(|k| candidates[k])
            .collect();
        add.sort();
        if !seen.insert(add.clone()) {
            continue;
        }
        let mut cards: Vec<MeldCard> = current.ordered.clone();
        cards.extend(add.iter().map(|c| MeldCard::plain(*c)));
        let Ok(found) = checker.declarations_matching(&cards) else {
            continue;
        };
        let mut results = BTreeSet::new();
        for d in found {
            if results.insert(d.ordered.clone()) {
                let mut all = used.clone();
                all.extend(add.iter().copied());
                out.push(LayOff {
                    meld: index,
                    cards: all,
                    freed: freed.clone(),
                    result: d.ordered.clone(),
                    value: d.value.saturating_sub(start_value),
                });
            }
        }
    }
    // Exchanges.
    if rules.jokers.exchange == JokerExchange::Never || depth > 3 {
        return;
    }
    if rules.jokers.exchange_needs_full_set && current.kind == MeldKind::Set {
        let full = match (rules.melds.sets.suits, rules.melds.sets.max_len.get()) {
            (_, Some(m)) => usize::from(m),
            (SetSuits::Distinct, None) => rules.deck.kind.suits().len(),
            (SetSuits::Any, None) => usize::MAX,
        };
        if current.ordered.len() < full {
            return;
        }
    }
    for (k, c) in current.ordered.iter().enumerate() {
        let Some(face) = c.stands_for else { continue };
        let real = CardKind::Natural(face);
        let Some(pos) = pool.iter().position(|h| *h == real) else {
            continue;
        };
        if checker.is_wild(real) {
            continue; // a round wild is no "real card" to exchange with
        }
        let mut cards = current.ordered.clone();
        cards[k] = MeldCard::plain(real);
        let Ok(d) = checker.check(&cards) else {
            continue;
        };
        let mut rest = pool.to_vec();
        rest.remove(pos);
        used.push(real);
        freed.push(c.card);
        out.push(LayOff {
            meld: index,
            cards: used.clone(),
            freed: freed.clone(),
            result: d.ordered.clone(),
            // The natural card has the value the joker had.
            value: 0,
        });
        bundles(checker, index, &d, &rest, used, freed, depth + 1, out);
        freed.pop();
        used.pop();
    }
}

/// Whether `card` could be part of `meld` at all (cheap pre-filter).
fn fits_kind(checker: &MeldChecker, meld: &Declaration, card: CardKind) -> bool {
    if checker.is_wild(card) {
        return true;
    }
    let Some(face) = card.face() else { return true };
    let Some(first) = meld.ordered.iter().find_map(|c| c.effective()) else {
        return false;
    };
    match meld.kind {
        MeldKind::Set => face.rank == first.rank,
        MeldKind::Run => face.suit == first.suit,
    }
}
