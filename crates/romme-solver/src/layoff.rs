//! Laying off: which hand cards can join which meld on the table, including
//! joker exchange (a natural card replaces the joker that stands for it; the
//! joker goes to the hand).
//!
//! Table melds keep their declarations: a joker declared `*=6h` stays 6h
//! unless it is exchanged. Every result is validated by the rules library's
//! [`MeldChecker`].

use std::collections::BTreeSet;

use romme_core::card::{CardKind, Face, Rank};
use romme_core::meld::{Declaration, MeldChecker, MeldKind};
use romme_core::notation::MeldCard;
use romme_core::ruleset::{JokerExchange, Ruleset, SetSuits, WildShare};
use serde::Serialize;
use smallvec::SmallVec;

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
    lay_offs_with(rules, round, table, hand, true)
}

/// [`lay_offs`], with or without the pre-filters of the candidate cards
/// (the run's reach, repeated faces; the tests compare both).
fn lay_offs_with(
    rules: &Ruleset,
    round: Option<u8>,
    table: &[Vec<MeldCard>],
    hand: &[CardKind],
    reach: bool,
) -> Result<Vec<LayOff>, SolveError> {
    let checker = MeldChecker::new(rules, round)?;
    checker.check_cards(hand)?;
    let checked: Vec<Declaration> = table
        .iter()
        .map(|m| checker.check(m))
        .collect::<Result<_, _>>()?;
    Ok(lay_offs_checked(&checker, &checked, hand, reach))
}

/// [`lay_offs_with`] on a table whose melds were checked before
/// (`checked[i]` is what [`MeldChecker::check`] gives for meld `i`; the
/// hand's cards checked too).
pub(crate) fn lay_offs_checked(
    checker: &MeldChecker,
    checked: &[Declaration],
    hand: &[CardKind],
    reach: bool,
) -> Vec<LayOff> {
    let mut out = Vec::new();
    for (i, base) in checked.iter().enumerate() {
        let mut at = Bundles {
            checker,
            index: i,
            reach,
            out: &mut out,
        };
        at.bundles(base, hand, &mut Vec::new(), &mut Vec::new(), 0);
    }
    out
}

/// The lay-offs on one table meld for many hands, remembered by the hand
/// cards that could belong to the meld at all (its rank for a set, its suit
/// for a run, wild cards; in hand order). A hand's other cards never take
/// part in a lay-off on it, so hands that agree on those cards have the same
/// lay-offs, listed in the same order as [`lay_offs`] lists them. The
/// opening and going-out searches ask for every choice of lay-offs on the
/// melds before; most of those hands differ only in cards this meld cannot
/// take.
pub(crate) struct MeldLayOffs<'c> {
    checker: &'c MeldChecker<'c>,
    index: usize,
    base: Declaration,
    memo: rustc_hash::FxHashMap<Vec<CardKind>, Vec<LayOff>>,
}

impl<'c> MeldLayOffs<'c> {
    /// The lay-offs on `meld` (table meld number `index`), which must be
    /// valid as declared.
    pub(crate) fn new(
        checker: &'c MeldChecker<'c>,
        index: usize,
        meld: &[MeldCard],
    ) -> Result<Self, SolveError> {
        Ok(MeldLayOffs::checked(checker, index, checker.check(meld)?))
    }

    /// The lay-offs on a meld already checked: `base` is what
    /// [`MeldChecker::check`] gives for it.
    pub(crate) fn checked(checker: &'c MeldChecker<'c>, index: usize, base: Declaration) -> Self {
        MeldLayOffs {
            checker,
            index,
            base,
            memo: Default::default(),
        }
    }

    /// Every way to lay off cards of `hand` on the meld (the hand's cards
    /// already checked).
    pub(crate) fn of(&mut self, hand: &[CardKind]) -> &[LayOff] {
        let (checker, base) = (self.checker, &self.base);
        let fitting = fitting_cards(checker, base, hand);
        let index = self.index;
        self.memo.entry(fitting).or_insert_with_key(|fitting| {
            let mut out = Vec::new();
            let mut at = Bundles {
                checker,
                index,
                reach: true,
                out: &mut out,
            };
            at.bundles(base, fitting, &mut Vec::new(), &mut Vec::new(), 0);
            out
        })
    }
}

/// An upper bound on the opening points that lay-offs of `hand` on `table`
/// can add, each card counted once: the sum of the highest meld value of
/// every card that could join some meld at all (of a set's rank or a run's
/// suit, within the run's reach, [`within_reach`]). A lay-off's value is the
/// meld value its cards add, and no card goes to two melds; a smaller hand
/// reaches no more cards, so the bound holds for every hand inside `hand`.
pub(crate) fn laid_value_bound(
    checker: &MeldChecker,
    table: &[Vec<MeldCard>],
    hand: &[CardKind],
) -> Result<u32, SolveError> {
    let rules = checker.rules();
    let values = &rules.values;
    let wild_value = rules
        .deck
        .kind
        .ranks()
        .iter()
        .flat_map(|&r| {
            rules
                .deck
                .kind
                .suits()
                .iter()
                .map(move |&s| Face::new(r, s))
        })
        .map(|f| values.highest(f))
        .max()
        .unwrap_or(0);
    let mut reached = vec![false; hand.len()];
    for meld in table {
        let base = checker.check(meld)?;
        let fitting = fitting_cards(checker, &base, hand);
        for k in within_reach(checker, &base, &fitting) {
            for (i, &c) in hand.iter().enumerate() {
                if c == k {
                    reached[i] = true;
                }
            }
        }
    }
    Ok(hand
        .iter()
        .zip(&reached)
        .filter(|(_, r)| **r)
        .map(|(&c, _)| match c.face() {
            Some(f) if !checker.is_wild(c) => values.highest(f),
            _ => wild_value,
        })
        .sum())
}

/// The lay-offs on one table meld, collected into `out`.
struct Bundles<'c, 'o> {
    checker: &'c MeldChecker<'c>,
    /// Index of the table meld.
    index: usize,
    /// Use the pre-filters: the run's reach ([`within_reach`]) and no
    /// repeated faces ([`without_repeated_faces`]).
    reach: bool,
    out: &'o mut Vec<LayOff>,
}

/// Lay-offs on one meld: extensions by subsets of the candidate cards, and
/// exchanges (each followed by further lay-offs on the new meld).
impl Bundles<'_, '_> {
    fn bundles(
        &mut self,
        current: &Declaration,
        pool: &[CardKind],
        used: &mut Vec<CardKind>,
        freed: &mut Vec<CardKind>,
        depth: usize,
    ) {
        let checker = self.checker;
        let index = self.index;
        let start_value = current.value;
        // Extensions: subsets of the cards that could belong to this meld.
        let fitting = fitting_cards(checker, current, pool);
        let candidates = lay_off_candidates(checker, current, fitting, self.reach);
        let n = candidates.len();
        // Subsets that pick the same cards as an earlier one are skipped: of
        // the copies of one kind a subset must take the first ones (the
        // earliest subset, in the order below, that picks those cards).
        let mut earlier_copy = [0u32; MAX_CANDIDATES];
        for k in 0..n {
            if let Some(j) = (0..k).rev().find(|&j| candidates[j] == candidates[k]) {
                earlier_copy[k] = 1 << j;
            }
        }
        let mut cards: Vec<MeldCard> = Vec::with_capacity(current.ordered.len() + n);
        for mask in 1u32..(1 << n) {
            let repeats = (0..n)
                .any(|k| mask >> k & 1 == 1 && earlier_copy[k] != 0 && mask & earlier_copy[k] == 0);
            if repeats {
                continue;
            }
            let mut add: SmallVec<[CardKind; MAX_CANDIDATES]> = (0..n)
                .filter(|k| mask >> k & 1 == 1)
                .map(|k| candidates[k])
                .collect();
            add.sort();
            cards.clear();
            cards.extend_from_slice(&current.ordered);
            cards.extend(add.iter().map(|c| MeldCard::plain(*c)));
            let Ok(found) = checker.declarations_matching(&cards) else {
                continue;
            };
            let mut results = BTreeSet::new();
            for d in found {
                if results.insert(d.ordered.clone()) {
                    let mut all = used.clone();
                    all.extend(add.iter().copied());
                    self.out.push(LayOff {
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
        if depth > 3 {
            return;
        }
        for (k, pos, real, d) in exchanges(checker, current, pool) {
            let c = &current.ordered[k];
            let mut rest = pool.to_vec();
            rest.remove(pos);
            used.push(real);
            freed.push(c.card);
            self.out.push(LayOff {
                meld: index,
                cards: used.clone(),
                freed: freed.clone(),
                result: d.ordered.clone(),
                // The natural card has the value the joker had.
                value: 0,
            });
            self.bundles(&d, &rest, used, freed, depth + 1);
            freed.pop();
            used.pop();
        }
    }
}

/// The joker exchanges `pool` can make on `current` as it lies: for each,
/// the place of the wild card in the meld, the place in `pool` of the
/// natural card that replaces it, that card, and the meld afterwards. None
/// where the ruleset forbids exchanges, or asks for a full set and the set
/// is not full.
fn exchanges<'a>(
    checker: &'a MeldChecker,
    current: &'a Declaration,
    pool: &'a [CardKind],
) -> impl Iterator<Item = (usize, usize, CardKind, Declaration)> + 'a {
    let rules = checker.rules();
    let mut allowed = rules.jokers.exchange != JokerExchange::Never;
    if allowed && rules.jokers.exchange_needs_full_set && current.kind == MeldKind::Set {
        let full = match (rules.melds.sets.suits, rules.melds.sets.max_len.get()) {
            (_, Some(m)) => usize::from(m),
            (SetSuits::Distinct, None) => rules.deck.kind.suits().len(),
            (SetSuits::Any, None) => usize::MAX,
        };
        allowed = current.ordered.len() >= full;
    }
    let places = if allowed { current.ordered.len() } else { 0 };
    (0..places).filter_map(move |k| {
        let face = current.ordered[k].stands_for?;
        let real = CardKind::Natural(face);
        let pos = pool.iter().position(|h| *h == real)?;
        if checker.is_wild(real) {
            return None; // a round wild is no "real card" to exchange with
        }
        let mut cards = current.ordered.clone();
        cards[k] = MeldCard::plain(real);
        let d = checker.check(&cards).ok()?;
        Some((k, pos, real, d))
    })
}

/// Which of the cards `among` some lay-off of `hand` on the checked table
/// puts down (`checked[i]` is what [`MeldChecker::check`] gives for meld
/// `i`), or `None` when the hand can exchange a joker somewhere. The same
/// answer as reading the cards off [`lay_offs_checked`], which lists every
/// lay-off on every meld. Without an exchange a lay-off is a subset of the
/// meld's candidate cards (the hand's cards of its rank or suit and wild
/// cards, within the run's reach, no repeated face: what [`Bundles`] tries);
/// this tries only subsets holding a card of `among` not found yet, and
/// only whether the meld takes them, without listing its readings.
pub(crate) fn laid_off_among(
    checker: &MeldChecker,
    checked: &[Declaration],
    hand: &[CardKind],
    among: &[CardKind],
) -> Option<Vec<CardKind>> {
    if checked
        .iter()
        .any(|base| exchanges(checker, base, hand).next().is_some())
    {
        return None;
    }
    Some(laid_off_without_exchanges(checker, checked, hand, among))
}

/// What the hand could hold after any of its joker exchanges, for a
/// check that rules out a way out where [`laid_off_among`] gives up: the
/// hand with every wild card an exchange could free added, and the faces
/// of the hand's cards an exchange could put on the table. Every pool a
/// way out melds from (the hand less the cards laid off and exchanged,
/// plus the wild cards freed) is part of that hand; an exchanged card is
/// put down; and a lay-off after an exchange on a meld is one on the meld
/// as it lay, since the exchange keeps its faces (where the ruleset puts
/// no limit on wild cards in a meld, so that faces alone decide). `None`
/// where wild cards are limited, or where the hand would hold more cards
/// than a meld's lay-offs are formed from ([`MAX_CANDIDATES`]: the
/// lay-offs would not be those the way out tries).
pub(crate) fn exchange_relaxation(
    checker: &MeldChecker,
    checked: &[Declaration],
    hand: &[CardKind],
) -> Option<(Vec<CardKind>, Vec<Face>)> {
    if !wilds_unlimited(checker.rules()) {
        return None;
    }
    let mut relaxed = hand.to_vec();
    let mut exchanged: Vec<Face> = Vec::new();
    for base in checked {
        for (k, _, real, _) in exchanges(checker, base, hand) {
            relaxed.push(base.ordered[k].card);
            if let Some(f) = real.face() {
                exchanged.push(f);
            }
        }
    }
    (relaxed.len() <= MAX_CANDIDATES).then_some((relaxed, exchanged))
}

/// Whether the ruleset puts no limit on wild cards in a meld (how many,
/// where, next to each other, a meld of wild cards only): then whether a
/// meld is valid depends on its faces alone.
pub(crate) fn wilds_unlimited(rules: &Ruleset) -> bool {
    let wilds = &rules.melds.wilds;
    wilds.share == WildShare::Any
        && wilds.max_per_meld.get().is_none()
        && wilds.adjacent
        && wilds.at_run_ends
        && wilds.all_wild
}

/// [`laid_off_among`] without looking at exchanges: the cards of `among`
/// some lay-off of `hand` puts down on the melds as they lie.
pub(crate) fn laid_off_without_exchanges(
    checker: &MeldChecker,
    checked: &[Declaration],
    hand: &[CardKind],
    among: &[CardKind],
) -> Vec<CardKind> {
    let mut found: Vec<CardKind> = Vec::new();
    let mut cards: Vec<MeldCard> = Vec::new();
    for base in checked {
        let wanted = |c: &CardKind, found: &[CardKind]| among.contains(c) && !found.contains(c);
        let fitting = fitting_cards(checker, base, hand);
        if !fitting.iter().any(|c| wanted(c, &found)) {
            continue;
        }
        let mut candidates = lay_off_candidates(checker, base, fitting, true);
        // Each subset in sorted order, as `Bundles` tries it.
        candidates.sort();
        let n = candidates.len();
        for mask in 1u32..(1 << n) {
            let picked = || {
                (0..n)
                    .filter(move |k| mask >> k & 1 == 1)
                    .map(|k| candidates[k])
            };
            if !picked().any(|c| wanted(&c, &found)) {
                continue;
            }
            cards.clear();
            cards.extend_from_slice(&base.ordered);
            cards.extend(picked().map(MeldCard::plain));
            if checker
                .declarations_matching(&cards)
                .is_ok_and(|d| !d.is_empty())
            {
                for c in picked() {
                    if wanted(&c, &found) {
                        found.push(c);
                    }
                }
            }
        }
    }
    found
}

/// The cards of `pool` that could be part of `meld` at all ([`fits_kind`]),
/// in `pool`'s order.
fn fitting_cards(checker: &MeldChecker, meld: &Declaration, pool: &[CardKind]) -> Vec<CardKind> {
    pool.iter()
        .copied()
        .filter(|&c| fits_kind(checker, meld, c))
        .collect()
}

/// The cards a lay-off on `meld` is made of, from its `fitting` cards: with
/// `reach`, those within the run's reach and without repeated faces (the
/// tests compare with and without); at most [`MAX_CANDIDATES`].
fn lay_off_candidates(
    checker: &MeldChecker,
    meld: &Declaration,
    fitting: Vec<CardKind>,
    reach: bool,
) -> Vec<CardKind> {
    let reachable = if reach {
        without_repeated_faces(checker, meld, within_reach(checker, meld, &fitting))
    } else {
        fitting
    };
    reachable.into_iter().take(MAX_CANDIDATES).collect()
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

/// The candidates without natural cards whose face a natural card of the
/// meld or an earlier candidate already has, where a meld cannot hold one
/// face twice: a run that does not wrap around, a set of distinct suits.
/// A lay-off with such a card is never valid, and two copies of one card
/// would only list the same lay-offs again; without them far fewer
/// subsets of the candidates are tried.
fn without_repeated_faces(
    checker: &MeldChecker,
    meld: &Declaration,
    cards: Vec<CardKind>,
) -> Vec<CardKind> {
    let melds = &checker.rules().melds;
    let single_faces = match meld.kind {
        MeldKind::Run => !melds.runs.wrap_around,
        MeldKind::Set => melds.sets.suits == SetSuits::Distinct,
    };
    if !single_faces {
        return cards;
    }
    let natural = |c: CardKind| c.face().filter(|_| !checker.is_wild(c));
    let mut faces: Vec<Face> = meld
        .ordered
        .iter()
        .filter_map(|c| natural(c.card))
        .collect();
    cards
        .into_iter()
        .filter(|&c| match natural(c) {
            Some(f) if faces.contains(&f) => false,
            Some(f) => {
                faces.push(f);
                true
            }
            None => true,
        })
        .collect()
}

/// The ace's rank number (it may also stand as 1, before the 2).
const ACE: i32 = Rank::Ace as i32;

/// Of the cards that may belong to a run, those that can reach it: a
/// natural card needs the gap between it and the run filled by other
/// candidates or wild cards. A card is kept when its gap is at most the
/// number of wild cards among `cards` and in the meld, counting from the
/// ends of the meld's natural cards as
/// they grow by the cards already kept (a superset of the cards some
/// lay-off can use; an ace counts at either end where the ruleset allows).
/// Sets, wrap-around runs and melds without a natural card: all cards.
fn within_reach(checker: &MeldChecker, meld: &Declaration, cards: &[CardKind]) -> Vec<CardKind> {
    let runs = checker.rules().melds.runs;
    if meld.kind != MeldKind::Run || runs.wrap_around {
        return cards.to_vec();
    }
    // The meld's natural cards stay where they are; its wild cards may be
    // declared anew, so they count with the hand's wild cards.
    let ranks: Vec<i32> = meld
        .ordered
        .iter()
        .filter(|c| !checker.is_wild(c.card))
        .filter_map(|c| c.card.face())
        .map(|f| f.rank as i32)
        .collect();
    let (Some(&first), Some(&last)) = (ranks.first(), ranks.last()) else {
        return cards.to_vec();
    };
    if ranks.len() == 1 && first == ACE {
        return cards.to_vec(); // a lone ace may stand low or high
    }
    // Meld order is ascending; an ace in front stands low.
    let low = if first > last { 1 } else { first };
    let mut lo = low.min(last);
    let mut hi = last.max(low);
    let wilds = (cards.iter().filter(|c| checker.is_wild(**c)).count()
        + meld
            .ordered
            .iter()
            .filter(|c| checker.is_wild(c.card))
            .count()) as i32;
    // Where a natural card may stand on the rank line (an ace: 1 and/or 14).
    let positions = |f: romme_core::Face| -> [Option<i32>; 2] {
        let r = f.rank as i32;
        if r == ACE {
            [runs.ace_low.then_some(1), runs.ace_high.then_some(ACE)]
        } else {
            [Some(r), None]
        }
    };
    let mut keep = vec![false; cards.len()];
    loop {
        let mut grown = false;
        for (i, c) in cards.iter().enumerate() {
            if keep[i] {
                continue;
            }
            let face = match c.face() {
                Some(f) if !checker.is_wild(*c) => f,
                _ => {
                    keep[i] = true;
                    continue;
                }
            };
            if let Some(p) = positions(face)
                .into_iter()
                .flatten()
                .find(|&p| p >= lo - 1 - wilds && p <= hi + 1 + wilds)
            {
                keep[i] = true;
                grown = true;
                lo = lo.min(p);
                hi = hi.max(p);
            }
        }
        if !grown {
            break;
        }
    }
    cards
        .iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(*c))
        .collect()
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use romme_core::ruleset::presets;
    use romme_core::{Face, MeldCard};

    use super::*;

    /// A valid run or set for the ruleset's deck, one card perhaps a
    /// declared joker.
    fn random_meld(
        rules: &Ruleset,
        checker: &MeldChecker,
        rng: &mut ChaCha8Rng,
    ) -> Option<Vec<MeldCard>> {
        let suits = rules.deck.kind.suits();
        let ranks = rules.deck.kind.ranks();
        let len = rng.random_range(3..=5usize);
        let faces: Vec<Face> = if rng.random_bool(0.6) {
            let suit = suits[rng.random_range(0..suits.len())];
            let start = rng.random_range(0..ranks.len());
            ranks
                .iter()
                .cycle()
                .skip(start)
                .take(len)
                .map(|&r| Face::new(r, suit))
                .collect()
        } else {
            let rank = ranks[rng.random_range(0..ranks.len())];
            suits
                .iter()
                .take(len)
                .map(|&s| Face::new(rank, s))
                .collect()
        };
        let joker = rng
            .random_bool(0.3)
            .then(|| rng.random_range(0..faces.len()));
        let meld: Vec<MeldCard> = faces
            .iter()
            .enumerate()
            .map(|(i, &f)| {
                if Some(i) == joker {
                    MeldCard {
                        card: CardKind::Joker,
                        stands_for: Some(f),
                    }
                } else {
                    MeldCard::plain(CardKind::Natural(f))
                }
            })
            .collect();
        checker.check(&meld).ok().map(|d| d.ordered)
    }

    /// A table of random valid melds (their number drawn from `melds`) and
    /// a hand of random cards of the deck (their number drawn from `cards`).
    fn random_position(
        rules: &Ruleset,
        checker: &MeldChecker,
        rng: &mut ChaCha8Rng,
        melds: std::ops::Range<usize>,
        cards: std::ops::Range<usize>,
    ) -> (Vec<Vec<MeldCard>>, Vec<CardKind>) {
        let table: Vec<Vec<MeldCard>> = (0..rng.random_range(melds))
            .filter_map(|_| random_meld(rules, checker, rng))
            .collect();
        let mut deck: Vec<CardKind> = rules.deck.cards().iter().map(|c| c.kind()).collect();
        deck.shuffle(rng);
        deck.truncate(rng.random_range(cards));
        (table, deck)
    }

    /// The lay-offs as sorted text (their cards sorted), to compare lists.
    fn lay_off_keys(listed: &[LayOff]) -> Vec<String> {
        let mut keys: Vec<String> = listed
            .iter()
            .map(|l| {
                let mut cards = l.cards.clone();
                cards.sort();
                format!("{} {cards:?} {:?} {:?}", l.meld, l.freed, l.result)
            })
            .collect();
        keys.sort();
        keys
    }

    #[test]
    fn the_reach_filter_never_loses_a_lay_off() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut compared = 0;
        for name in ["klassisch", "offen", "koenigs", "club"] {
            let mut rules = presets::load(name).expect("known").expect("preset");
            for variant in 0..3 {
                // Ace low only, high only, both.
                rules.melds.runs.ace_low = variant != 1;
                rules.melds.runs.ace_high = variant != 0;
                rules.melds.runs.wrap_around = false;
                let round = rules.melds.wilds.round_wild.then_some(7);
                let checker = MeldChecker::new(&rules, round).expect("checker");
                for _ in 0..150 {
                    let (table, hand) = random_position(&rules, &checker, &mut rng, 1..5, 3..12);
                    let show = |reach: bool| -> Vec<String> {
                        let mut v: Vec<String> = lay_offs_with(&rules, round, &table, &hand, reach)
                            .expect("lay-offs")
                            .iter()
                            .map(|l| format!("{l:?}"))
                            .collect();
                        v.sort();
                        v
                    };
                    assert_eq!(show(true), show(false), "{name}: {table:?} {hand:?}");
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 4 * 3 * 150);
    }

    /// The memo per meld gives exactly the lay-offs `lay_offs` lists for
    /// that meld, in the same order, for hands asked one after the other
    /// (hands sharing the meld's cards hit the memo); and `laid_value_bound`
    /// is at least the value of every lay-off of a hand inside the hand it
    /// was asked for.
    #[test]
    fn the_memo_and_the_bound_agree_with_lay_offs() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let (mut hits, mut bounded) = (0, 0);
        for name in ["klassisch", "offen", "koenigs", "raeuber", "anlegen"] {
            let rules = presets::load(name).expect("known").expect("preset");
            let round = rules.melds.wilds.round_wild.then_some(7);
            let checker = MeldChecker::new(&rules, round).expect("checker");
            let deck: Vec<CardKind> = rules.deck.cards().iter().map(|c| c.kind()).collect();
            for _ in 0..60 {
                let Some(meld) = random_meld(&rules, &checker, &mut rng) else {
                    continue;
                };
                let mut memo = MeldLayOffs::new(&checker, 3, &meld).expect("valid");
                let mut shuffled = deck.clone();
                shuffled.shuffle(&mut rng);
                let mut wide: Vec<CardKind> = shuffled[..12].to_vec();
                wide.sort();
                let most =
                    laid_value_bound(&checker, std::slice::from_ref(&meld), &wide).expect("valid");
                // The hand and hands inside it (cards dropped one by one).
                let mut hand = wide.clone();
                while !hand.is_empty() {
                    let listed: Vec<LayOff> =
                        lay_offs(&rules, round, std::slice::from_ref(&meld), &hand)
                            .expect("lay-offs")
                            .into_iter()
                            .map(|mut l| {
                                l.meld = 3;
                                l
                            })
                            .collect();
                    let before = memo.memo.len();
                    assert_eq!(memo.of(&hand), &listed[..], "{name}: {meld:?} {hand:?}");
                    hits += usize::from(memo.memo.len() == before);
                    assert!(listed.iter().all(|l| l.value <= most), "{name}: {meld:?}");
                    bounded += listed.len();
                    hand.remove(rng.random_range(0..hand.len()));
                }
            }
        }
        assert!(
            hits > 100 && bounded > 100,
            "{hits} hits, {bounded} bounded"
        );
    }

    /// `laid_off_among` answers as reading the cards off every lay-off
    /// (`lay_offs_checked`): `None` exactly when some lay-off is an
    /// exchange, else the same cards of `among`.
    #[test]
    fn laid_off_among_reads_as_all_lay_offs() {
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        let (mut exchanges, mut compared, mut found) = (0, 0, 0);
        for name in ["klassisch", "offen", "koenigs", "raeuber", "club", "wiener"] {
            let rules = presets::load(name).expect("known").expect("preset");
            let round = rules.melds.wilds.round_wild.then_some(7);
            let checker = MeldChecker::new(&rules, round).expect("checker");
            for _ in 0..300 {
                let (table, hand) = random_position(&rules, &checker, &mut rng, 1..7, 2..14);
                let checked: Vec<Declaration> = table
                    .iter()
                    .map(|m| checker.check(m).expect("valid"))
                    .collect();
                let among: Vec<CardKind> = hand
                    .iter()
                    .copied()
                    .filter(|_| rng.random_bool(0.4))
                    .collect();
                let all = lay_offs_checked(&checker, &checked, &hand, true);
                let expected = (!all.iter().any(LayOff::is_exchange)).then(|| {
                    let mut v: Vec<CardKind> = among
                        .iter()
                        .copied()
                        .filter(|c| all.iter().any(|l| l.cards.contains(c)))
                        .collect();
                    v.sort();
                    v.dedup();
                    v
                });
                let got = laid_off_among(&checker, &checked, &hand, &among).map(|mut v| {
                    v.sort();
                    v
                });
                assert_eq!(got, expected, "{name}: {checked:?} {hand:?} {among:?}");
                exchanges += usize::from(expected.is_none());
                found += expected.map_or(0, |v| v.len());
                compared += 1;
            }
        }
        assert_eq!(compared, 6 * 300);
        assert!(
            exchanges > 20 && found > 100,
            "{exchanges} exchanges, {found} found"
        );
    }

    /// With two copies of a card in the hand each lay-off is listed once,
    /// and every lay-off of the hand without the second copies is listed.
    #[test]
    fn copies_of_a_card_list_each_lay_off_once() {
        let mut rng = ChaCha8Rng::seed_from_u64(31);
        let mut with_copies = 0;
        for name in ["klassisch", "offen", "club", "wiener"] {
            let rules = presets::load(name).expect("known").expect("preset");
            let checker = MeldChecker::new(&rules, None).expect("checker");
            for _ in 0..200 {
                let (table, mut hand) = random_position(&rules, &checker, &mut rng, 1..5, 2..9);
                // A second copy of some hand cards.
                let copies: Vec<CardKind> = hand
                    .iter()
                    .copied()
                    .filter(|c| !c.is_joker() && hand.iter().filter(|h| *h == c).count() == 1)
                    .filter(|_| rng.random_bool(0.5))
                    .collect();
                hand.extend(copies);
                let mut keys =
                    lay_off_keys(&lay_offs(&rules, None, &table, &hand).expect("lay-offs"));
                let all = keys.len();
                keys.dedup();
                assert_eq!(keys.len(), all, "{name}: {table:?} {hand:?}");
                // Without the second copies.
                let mut single = hand.clone();
                single.sort();
                single.dedup();
                let once_keys =
                    lay_off_keys(&lay_offs(&rules, None, &table, &single).expect("lay-offs"));
                if single.len() < hand.len() && !keys.is_empty() {
                    with_copies += 1;
                }
                // Copies can only add lay-offs (those that use both).
                assert!(
                    once_keys.iter().all(|k| keys.binary_search(k).is_ok()),
                    "{name}: {table:?} {hand:?}"
                );
            }
        }
        assert!(
            with_copies > 50,
            "{with_copies} hands with copies and lay-offs"
        );
    }
}
