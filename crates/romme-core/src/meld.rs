//! Melds: sets and runs under a ruleset, with joker and round-wild
//! declarations, meld values (§3) and plain-language reasons for invalid melds.
//!
//! A [`MeldChecker`] is built for a ruleset and (for Five Crowns) a round.
//! [`MeldChecker::declarations`] enumerates every valid way a multiset of
//! cards forms one meld; [`MeldChecker::check`] validates a meld as declared
//! by a player (`*=8h` …) and fills in a declaration when only one fits;
//! a meld whose every wild card is declared (a table meld as laid) is read
//! with its cards at those faces, without trying the wild cards elsewhere.
//!
//! Readings:
//! * A round wild (Five Crowns) that stands for its own face is a natural
//!   card for every limit; standing for another card it is a wild card, like
//!   a joker.
//! * In a run the ace is low (worth `values.ace_low`) only when it is the
//!   first card before a 2; after a king it is high, even when a 2 follows
//!   (`004` 8).
//! * Wild cards are interchangeable: declarations that differ only by which
//!   wild card stands where are listed once; the wild cards fill the free
//!   places in input order (the first takes the lowest position or suit). The
//!   one alternative listed separately is a round wild standing as itself,
//!   which makes it a natural card for the wild limits. This keeps the number
//!   of declarations polynomial even for a hand full of wild cards.

use serde::Serialize;
use thiserror::Error;

use crate::card::{CardKind, Face, Rank, Suit};
use crate::deck::COPIES;
use crate::notation::MeldCard;
use crate::ruleset::{Limit, Ruleset, SetSuits, WildShare};

/// Set or run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MeldKind {
    /// Cards of one rank.
    Set,
    /// Consecutive ranks of one suit.
    Run,
}

/// One valid reading of a meld.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Declaration {
    /// Set or run.
    pub kind: MeldKind,
    /// The cards in input order, wild cards with the card they stand for.
    pub cards: Vec<MeldCard>,
    /// The cards in meld order: runs ascending, sets by suit.
    pub ordered: Vec<MeldCard>,
    /// Meld value (§3) with jokers at the value of the card they stand for.
    pub value: u32,
    /// Number of cards acting as wild cards.
    pub wilds: usize,
}

/// Why a meld question could not be answered or a meld is not valid.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MeldError {
    /// A card that the ruleset's deck does not have.
    #[error("{card} is not in this ruleset's deck")]
    NotInDeck {
        /// The card.
        card: CardKind,
    },
    /// More copies of a card than the deck has.
    #[error("{card} appears {count} times, the deck has {available}")]
    TooManyCopies {
        /// The card.
        card: CardKind,
        /// How often it was given.
        count: usize,
        /// How many the deck has.
        available: usize,
    },
    /// The ruleset has round wilds and needs the round number.
    #[error("this ruleset has a wild rank per round: give the round (1-{max})")]
    RoundRequired {
        /// Highest round.
        max: u8,
    },
    /// A round number outside 1..=max.
    #[error("round {round} does not exist (1-{max})")]
    BadRound {
        /// The round given.
        round: u8,
        /// Highest round.
        max: u8,
    },
    /// A natural card that is not wild was declared as another card.
    #[error("{card} is not wild here and cannot stand for another card")]
    NotWild {
        /// The card as written.
        card: MeldCard,
    },
    /// The cards do not form a valid meld.
    #[error("not a valid meld: {reason}")]
    Invalid {
        /// Why, in plain words.
        reason: String,
    },
    /// A wild card has more than one possible declaration; the player must say.
    #[error("declare the wild cards: this meld can be read {} ways, e.g. {}", options.len(), options.iter().take(3).map(|d| crate::notation::format_cards(&d.ordered)).collect::<Vec<_>>().join(" | "))]
    Ambiguous {
        /// The possible declarations.
        options: Vec<Declaration>,
    },
}

/// How one input card can act.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A natural that is not wild: always itself.
    Fixed(Face),
    /// A joker or round wild: may stand for any face (a round wild standing
    /// for its own face counts as natural).
    Flexible(CardKind),
}

/// Answers meld questions for one ruleset and round.
#[derive(Debug, Clone, Copy)]
pub struct MeldChecker<'a> {
    rules: &'a Ruleset,
    wild_rank: Option<Rank>,
}

impl<'a> MeldChecker<'a> {
    /// A checker for `rules`; `round` (1-based) is needed when the ruleset
    /// has round wilds and ignored otherwise.
    pub fn new(rules: &'a Ruleset, round: Option<u8>) -> Result<Self, MeldError> {
        let wild_rank = if rules.melds.wilds.round_wild {
            let max = rules.deck.kind.ranks().len() as u8;
            match round {
                None => return Err(MeldError::RoundRequired { max }),
                Some(r) if r == 0 || r > max => return Err(MeldError::BadRound { round: r, max }),
                Some(r) => rules.round_wild_rank(r),
            }
        } else {
            None
        };
        Ok(MeldChecker { rules, wild_rank })
    }

    /// The ruleset.
    pub fn rules(&self) -> &'a Ruleset {
        self.rules
    }

    /// The wild rank of the round, if any.
    pub fn wild_rank(&self) -> Option<Rank> {
        self.wild_rank
    }

    /// Whether `card` is wild (a joker, or of the round's wild rank).
    pub fn is_wild(&self, card: CardKind) -> bool {
        match card {
            CardKind::Joker => true,
            CardKind::Natural(f) => Some(f.rank) == self.wild_rank,
        }
    }

    fn role(&self, card: CardKind) -> Role {
        match card {
            CardKind::Natural(f) if !self.is_wild(card) => Role::Fixed(f),
            other => Role::Flexible(other),
        }
    }

    /// Check that every card belongs to the deck, in no more copies than it has.
    pub fn check_cards(&self, cards: &[CardKind]) -> Result<(), MeldError> {
        if let Some(&card) = cards.iter().find(|&&c| !self.rules.deck.has_kind(c)) {
            return Err(MeldError::NotInDeck { card });
        }
        let mut sorted: Scratch<CardKind> = cards.iter().copied().collect();
        sorted.sort_unstable();
        for group in sorted.chunk_by(|a, b| a == b) {
            let (card, count) = (group[0], group.len());
            let available = match card {
                CardKind::Joker => usize::from(self.rules.deck.jokers),
                CardKind::Natural(_) => usize::from(COPIES),
            };
            if count > available {
                return Err(MeldError::TooManyCopies {
                    card,
                    count,
                    available,
                });
            }
        }
        Ok(())
    }

    /// Every valid declaration of `cards` as one meld (empty if none), sets
    /// first, then runs from low to high; duplicates removed.
    pub fn declarations(&self, cards: &[CardKind]) -> Result<Vec<Declaration>, MeldError> {
        self.check_cards(cards)?;
        Ok(self.enumerate(cards, true))
    }

    /// The valid declaration with the highest value, if any.
    pub fn best(&self, cards: &[CardKind]) -> Result<Option<Declaration>, MeldError> {
        Ok(self
            .declarations(cards)?
            .into_iter()
            .max_by_key(|d| d.value))
    }

    /// Whether `cards` form a valid meld in at least one declaration.
    pub fn is_valid(&self, cards: &[CardKind]) -> Result<bool, MeldError> {
        Ok(!self.declarations(cards)?.is_empty())
    }

    /// Every valid declaration that agrees with what the player declared
    /// (`*=Qc` must stand for Qc; undeclared wild cards may stand for
    /// anything). A natural card declared as another card is an error.
    pub fn declarations_matching(&self, cards: &[MeldCard]) -> Result<Vec<Declaration>, MeldError> {
        let kinds: Vec<CardKind> = cards.iter().map(|c| c.card).collect();
        self.check_cards(&kinds)?;
        for c in cards {
            if let (Some(face), Role::Fixed(own)) = (c.stands_for, self.role(c.card)) {
                if face != own {
                    return Err(MeldError::NotWild { card: *c });
                }
            }
        }
        let mut fits: Vec<Declaration> = match self.declared_faces(cards) {
            // Every card at its face: the readings give each card the face
            // the player gave it, in the player's order, so they are already
            // aligned (aligning would build each one again).
            Some(faces) => self.enumerate_declared(&kinds, &faces),
            None => match self.one_undeclared(cards) {
                // One wild card free, every other card at its face (a table
                // meld with a wild card laid off): the readings that give the
                // others their faces, in the order trying every reading and
                // aligning it gives them (with one wild card left to place,
                // aligning can place it in one way only).
                Some(roles) => self.enumerate_roles(&kinds, &roles, true),
                None => self
                    .enumerate(&kinds, true)
                    .iter()
                    .filter_map(|d| self.align(cards, d))
                    .collect(),
            },
        };
        dedup_readings(&mut fits);
        Ok(fits)
    }

    /// The face of every card when each one is fixed: naturals, and wild
    /// cards declared as a face. `None` when a wild card is undeclared, or
    /// with round wilds (which may also stand as themselves).
    fn declared_faces(&self, cards: &[MeldCard]) -> Option<Scratch<Face>> {
        if self.wild_rank.is_some() {
            return None;
        }
        cards
            .iter()
            .map(|c| c.stands_for.or(c.card.face()))
            .collect()
    }

    /// The roles of `cards` when exactly one of them is an undeclared wild
    /// card and every other one has a face (naturals, declared wild cards):
    /// those at their faces, the one free. `None` otherwise, and with
    /// round wilds (which may also stand as themselves).
    fn one_undeclared(&self, cards: &[MeldCard]) -> Option<Scratch<Role>> {
        if self.wild_rank.is_some() {
            return None;
        }
        let mut free = 0;
        let roles: Scratch<Role> = cards
            .iter()
            .map(|c| match c.stands_for.or(c.card.face()) {
                Some(f) => Role::Fixed(f),
                None => {
                    free += 1;
                    Role::Flexible(c.card)
                }
            })
            .collect();
        (free == 1).then_some(roles)
    }

    /// The readings of `cards` with every card at its face in `faces` (a
    /// table meld as laid: the only readings a fully declared meld agrees
    /// with, found without trying each wild card at every face).
    fn enumerate_declared(&self, cards: &[CardKind], faces: &[Face]) -> Vec<Declaration> {
        let roles: Scratch<Role> = faces.iter().map(|&f| Role::Fixed(f)).collect();
        self.enumerate_roles(cards, &roles, true)
    }

    /// The reading `d` with its faces given to the player's own cards:
    /// natural cards keep their face, declared wild cards take what they were
    /// declared as, undeclared round wilds take their own face if it is free,
    /// the other wild cards the remaining faces in order. `None` if the
    /// declarations do not fit `d` or the player's assignment breaks a limit.
    fn align(&self, given: &[MeldCard], d: &Declaration) -> Option<Declaration> {
        let mut left: Vec<Face> = d.ordered.iter().filter_map(|c| c.effective()).collect();
        let mut faces: Vec<Option<Face>> = vec![None; given.len()];
        let take = |face: Face, left: &mut Vec<Face>| -> Option<Face> {
            let k = left.iter().position(|f| *f == face)?;
            Some(left.swap_remove(k))
        };
        // Natural cards first, then declarations, then own faces of round wilds.
        for (i, c) in given.iter().enumerate() {
            if let Role::Fixed(f) = self.role(c.card) {
                faces[i] = Some(take(f, &mut left)?);
            }
        }
        for (i, c) in given.iter().enumerate() {
            if faces[i].is_none() {
                if let Some(f) = c.stands_for {
                    faces[i] = Some(take(f, &mut left)?);
                }
            }
        }
        for (i, c) in given.iter().enumerate() {
            if faces[i].is_none() {
                if let Some(own) = c.card.face() {
                    faces[i] = take(own, &mut left);
                }
            }
        }
        // Remaining wild cards take the remaining faces in meld order.
        let position = |f: &Face| d.ordered.iter().position(|c| c.effective() == Some(*f));
        left.sort_by_key(|f| position(f));
        let mut rest = left.into_iter();
        for slot in faces.iter_mut() {
            if slot.is_none() {
                *slot = Some(rest.next()?);
            }
        }
        let faces: Vec<Face> = faces.into_iter().collect::<Option<_>>()?;
        let kinds: Vec<CardKind> = given.iter().map(|c| c.card).collect();
        let order: Option<Vec<usize>> = (d.kind == MeldKind::Run).then(|| {
            let mut idx: Vec<usize> = (0..given.len()).collect();
            idx.sort_by_key(|&i| position(&faces[i]));
            idx
        });
        let mut out = Vec::with_capacity(1);
        self.push(d.kind, &kinds, &faces, order.as_deref(), true, &mut out);
        out.pop()
    }

    /// Validate a meld as a player declares it. Declared wild cards must be
    /// honoured; undeclared wild cards are filled in when exactly one reading
    /// fits (otherwise [`MeldError::Ambiguous`]).
    pub fn check(&self, cards: &[MeldCard]) -> Result<Declaration, MeldError> {
        self.check_worded(cards, true)
    }

    /// [`MeldChecker::check`] for a caller that only needs to know whether
    /// the meld is valid: the same answer, but an invalid meld's reason is
    /// left empty (wording it means reading the cards again, which costs
    /// more than the check).
    pub fn check_unworded(&self, cards: &[MeldCard]) -> Result<Declaration, MeldError> {
        self.check_worded(cards, false)
    }

    fn check_worded(&self, cards: &[MeldCard], worded: bool) -> Result<Declaration, MeldError> {
        let mut fits = self.declarations_matching(cards)?;
        // A round wild written plainly stands for itself whenever it can
        // (write `7d=Qx` to use it as a wild card).
        let plain_is_itself = |d: &Declaration| {
            cards.iter().zip(&d.cards).all(|(given, got)| {
                given.stands_for.is_some() || given.card.is_joker() || got.stands_for.is_none()
            })
        };
        if fits.iter().any(plain_is_itself) {
            fits.retain(plain_is_itself);
        }
        let mut fits = fits.into_iter();
        let Some(first) = fits.next() else {
            if !worded {
                return Err(MeldError::Invalid {
                    reason: String::new(),
                });
            }
            let kinds: Vec<CardKind> = cards.iter().map(|c| c.card).collect();
            let reason = if self.enumerate(&kinds, true).is_empty() {
                self.explain(&kinds)
            } else {
                format!(
                    "the declared cards do not form a valid meld ({})",
                    crate::notation::format_cards(cards)
                )
            };
            return Err(MeldError::Invalid { reason });
        };
        // (One reading, the usual case: nothing to compare it with.)
        if fits.len() == 0 {
            return Ok(first);
        }
        let rest: Vec<Declaration> = fits.collect();
        // Readings that give every card the same face are the same meld.
        let same = effective_multiset(&first);
        if rest
            .iter()
            .all(|d| d.kind == first.kind && effective_multiset(d) == same)
        {
            Ok(first)
        } else {
            let mut options = vec![first];
            options.extend(rest);
            Err(MeldError::Ambiguous { options })
        }
    }

    /// Why `cards` do not form a valid meld, in plain words.
    pub fn explain(&self, cards: &[CardKind]) -> String {
        let min = usize::from(self.rules.melds.min_len);
        if cards.len() < min {
            return format!(
                "a meld needs at least {min} cards, these are {}",
                cards.len()
            );
        }
        // With limits relaxed, does a reading exist? Then a wild limit is why.
        if let Some(d) = self.enumerate(cards, false).first() {
            if let Some(why) = self.wild_violation(d) {
                return why;
            }
        }
        let fixed: Vec<Face> = cards
            .iter()
            .filter_map(|&c| match self.role(c) {
                Role::Fixed(f) => Some(f),
                Role::Flexible(_) => None,
            })
            .collect();
        let same_rank = fixed.windows(2).all(|w| w[0].rank == w[1].rank);
        let same_suit = fixed.windows(2).all(|w| w[0].suit == w[1].suit);
        if same_rank && !fixed.is_empty() {
            let sets = &self.rules.melds.sets;
            if sets.suits == SetSuits::Distinct {
                for w in 0..fixed.len() {
                    for v in w + 1..fixed.len() {
                        if fixed[w].suit == fixed[v].suit {
                            return format!(
                                "a set may not have the same suit twice ({} twice)",
                                fixed[w]
                            );
                        }
                    }
                }
            }
            let max = match (sets.suits, sets.max_len) {
                (SetSuits::Distinct, Limit::None) => Some(self.rules.deck.kind.suits().len()),
                (_, l) => l.get().map(usize::from),
            };
            if let Some(m) = max {
                if cards.len() > m {
                    return format!("a set has at most {m} cards, these are {}", cards.len());
                }
            }
            return "these cards cannot be completed to a set".into();
        }
        if same_suit && !fixed.is_empty() {
            let mut ranks: Vec<Rank> = fixed.iter().map(|f| f.rank).collect();
            ranks.sort();
            if let Some(w) = ranks.windows(2).find(|w| w[0] == w[1]) {
                return format!(
                    "a run cannot have the same card twice ({} twice)",
                    Face::new(w[0], fixed[0].suit)
                );
            }
            return format!(
                "{} cannot be completed to a run: the gaps are too wide for the wild cards{}",
                crate::notation::format_cards(&fixed),
                if self.rules.melds.runs.wrap_around {
                    ""
                } else {
                    " (K-A-2 is not allowed)"
                }
            );
        }
        if fixed.is_empty() {
            return "melds of wild cards only are not allowed".into();
        }
        "neither a set (the ranks differ) nor a run (the suits differ)".into()
    }

    /// Meld value (§3) of a meld given as faces in meld order.
    pub fn value_of(&self, kind: MeldKind, ordered_faces: &[Face]) -> u32 {
        card_values_iter(self.rules, kind, ordered_faces).sum()
    }

    fn wild_violation(&self, d: &Declaration) -> Option<String> {
        let w = &self.rules.melds.wilds;
        let n = d.ordered.len();
        let wilds = d.wilds;
        let naturals = n - wilds;
        if naturals == 0 && !w.all_wild {
            return Some("melds of wild cards only are not allowed".into());
        }
        match w.share {
            WildShare::Any => {}
            WildShare::FewerThanNaturals if wilds >= naturals => {
                return Some(format!(
                    "jokers must be in the minority: {wilds} wild and {naturals} natural cards"
                ));
            }
            WildShare::AtMostNaturals if wilds > naturals => {
                return Some(format!(
                    "at most as many jokers as natural cards: {wilds} wild and {naturals} natural cards"
                ));
            }
            _ => {}
        }
        if !w.max_per_meld.allows(wilds) {
            return Some(format!(
                "at most {} wild cards per meld, this has {wilds}",
                w.max_per_meld
            ));
        }
        if d.kind == MeldKind::Run {
            let is_wild: Scratch<bool> = d.ordered.iter().map(|c| self.acts_wild(c)).collect();
            if !w.adjacent && is_wild.windows(2).any(|p| p[0] && p[1]) {
                return Some("jokers may not lie next to each other".into());
            }
            if !w.at_run_ends && (is_wild[0] || is_wild[n - 1]) {
                return Some("a joker may not be the first or last card of a run".into());
            }
        }
        None
    }

    fn acts_wild(&self, c: &MeldCard) -> bool {
        match (self.role(c.card), c.stands_for) {
            (Role::Fixed(_), _) => false,
            (Role::Flexible(CardKind::Natural(own)), Some(f)) => own != f,
            (Role::Flexible(CardKind::Natural(_)), None) => false,
            (Role::Flexible(CardKind::Joker), _) => true,
        }
    }

    fn enumerate(&self, cards: &[CardKind], limits: bool) -> Vec<Declaration> {
        let roles: Scratch<Role> = cards.iter().map(|&c| self.role(c)).collect();
        self.enumerate_roles(cards, &roles, limits)
    }

    /// Every reading of `cards`, each playing its role (fixed at a face, or
    /// wild): the sets, then the runs.
    fn enumerate_roles(
        &self,
        cards: &[CardKind],
        roles: &[Role],
        limits: bool,
    ) -> Vec<Declaration> {
        let mut out = Vec::new();
        if cards.len() < usize::from(self.rules.melds.min_len) {
            return out;
        }
        match fixed_faces(roles) {
            // Every card at a face (a meld as laid, a natural lay-off): the
            // one set and the runs those faces make, found directly.
            Some(faces) => {
                self.fixed_set(cards, &faces, limits, &mut out);
                self.fixed_runs(cards, &faces, limits, &mut out);
            }
            None => {
                self.enumerate_sets(cards, roles, limits, &mut out);
                self.enumerate_runs(cards, roles, limits, &mut out);
            }
        }
        dedup_readings(&mut out);
        out
    }

    /// [`MeldChecker::enumerate_sets`] where every card is at its face in
    /// `faces`: the set of those faces, if it is one.
    fn fixed_set(
        &self,
        cards: &[CardKind],
        faces: &[Face],
        limits: bool,
        out: &mut Vec<Declaration>,
    ) {
        let sets = &self.rules.melds.sets;
        if self.rules.set_max_len().is_some_and(|m| faces.len() > m) {
            return;
        }
        let Some(rank) = faces.first().map(|f| f.rank) else {
            return;
        };
        if faces.iter().any(|f| f.rank != rank) {
            return;
        }
        if sets.suits == SetSuits::Distinct {
            let mut seen = 0u8;
            for f in faces {
                let bit = 1u8 << f.suit.index();
                if seen & bit != 0 {
                    return;
                }
                seen |= bit;
            }
        }
        self.push(MeldKind::Set, cards, faces, None, limits, out);
    }

    /// [`MeldChecker::enumerate_runs`] where every card is at its face in
    /// `faces`: each rank sequence of the ruleset's runs (in the same
    /// order) that holds exactly the faces' ranks, all of one suit.
    fn fixed_runs(
        &self,
        cards: &[CardKind],
        faces: &[Face],
        limits: bool,
        out: &mut Vec<Declaration>,
    ) {
        let n = faces.len();
        let Some(suit) = faces.first().map(|f| f.suit) else {
            return;
        };
        let mut ranks = 0u32;
        for f in faces {
            if f.suit != suit {
                return;
            }
            ranks |= 1 << f.rank.index();
        }
        // A rank twice fits no run (a sequence holds each rank once).
        if ranks.count_ones() as usize != n {
            return;
        }
        let (line, starts) = self.run_shapes(n);
        for shape in starts.iter().map(|&start| &line[start..start + n]) {
            if shape.iter().fold(0u32, |m, r| m | 1 << r.index()) != ranks {
                continue;
            }
            // The cards in the sequence's order (each rank is one card's).
            let order: Scratch<usize> = shape
                .iter()
                .filter_map(|r| faces.iter().position(|f| f.rank == *r))
                .collect();
            self.push(MeldKind::Run, cards, faces, Some(&order), limits, out);
        }
    }

    fn enumerate_sets(
        &self,
        cards: &[CardKind],
        roles: &[Role],
        limits: bool,
        out: &mut Vec<Declaration>,
    ) {
        let sets = &self.rules.melds.sets;
        let n = cards.len();
        let suits = self.rules.deck.kind.suits();
        if self.rules.set_max_len().is_some_and(|m| n > m) {
            return;
        }
        let fixed_ranks: Scratch<Rank> = roles
            .iter()
            .filter_map(|r| match r {
                Role::Fixed(f) => Some(f.rank),
                Role::Flexible(_) => None,
            })
            .collect();
        let one_rank;
        let ranks: &[Rank] = match fixed_ranks.first() {
            Some(&r) if fixed_ranks.iter().all(|x| *x == r) => {
                one_rank = [r];
                &one_rank
            }
            Some(_) => return,
            None => self.rules.deck.kind.ranks(),
        };
        let flex: Scratch<usize> = (0..n)
            .filter(|&i| matches!(roles[i], Role::Flexible(_)))
            .collect();
        for &rank in ranks {
            // Wild cards are interchangeable: enumerate the multiset of suits
            // they stand for (non-decreasing), give every round wild of this
            // rank its own suit when the multiset has it (it then counts as a
            // natural), and the rest in input order.
            let mut multiset: Scratch<usize> = smallvec::smallvec![0usize; flex.len()];
            loop {
                let mut left: Scratch<Suit> = multiset.iter().map(|&k| suits[k]).collect();
                let mut faces: Scratch<Face> = roles
                    .iter()
                    .map(|r| match r {
                        Role::Fixed(f) => *f,
                        Role::Flexible(_) => Face::new(rank, suits[0]),
                    })
                    .collect();
                let mut unassigned: Scratch<usize> = Scratch::new();
                for &i in &flex {
                    let own = cards[i].face().filter(|f| f.rank == rank);
                    match own.and_then(|f| left.iter().position(|s| *s == f.suit)) {
                        Some(k) => {
                            faces[i] = Face::new(rank, left.remove(k));
                        }
                        None => unassigned.push(i),
                    }
                }
                for (i, suit) in unassigned.into_iter().zip(left) {
                    faces[i] = Face::new(rank, suit);
                }
                let distinct_ok = sets.suits == SetSuits::Any || {
                    let mut s: Scratch<Suit> = faces.iter().map(|f| f.suit).collect();
                    s.sort_unstable();
                    s.windows(2).all(|w| w[0] != w[1])
                };
                if distinct_ok {
                    self.push(MeldKind::Set, cards, &faces, None, limits, out);
                }
                if !next_multiset(&mut multiset, suits.len()) {
                    break;
                }
            }
        }
    }

    /// Every rank sequence of length `n` a run may have under the ruleset,
    /// as windows `line[start..start + n]` of one line of ranks: the line
    /// and the starts, in a fixed order.
    fn run_shapes(&self, n: usize) -> (Line<Rank>, Line<usize>) {
        let runs = &self.rules.melds.runs;
        let ranks = self.rules.deck.kind.ranks();
        if n > ranks.len() {
            return (Line::new(), Line::new());
        }
        if runs.wrap_around {
            // A cycle over all ranks (ace between king and two): the ranks
            // twice, windows starting in the first copy.
            let cyc = ranks.len();
            let line: Line<Rank> = ranks.iter().chain(ranks).copied().collect();
            return (line, (0..cyc).collect());
        }
        // A line of positions: optional low ace, the ranks below ace, optional high ace.
        let mut line: Line<Rank> = Line::new();
        let has_ace = ranks.contains(&Rank::Ace);
        if has_ace && runs.ace_low {
            line.push(Rank::Ace);
        }
        line.extend(ranks.iter().copied().filter(|r| *r != Rank::Ace));
        if has_ace && runs.ace_high {
            line.push(Rank::Ace);
        }
        if line.len() < n {
            return (line, Line::new());
        }
        // A..A (both aces) is never a run.
        let starts = (0..=line.len() - n)
            .filter(|&start| {
                !(n > 1 && line[start] == Rank::Ace && line[start + n - 1] == Rank::Ace)
            })
            .collect();
        (line, starts)
    }

    fn enumerate_runs(
        &self,
        cards: &[CardKind],
        roles: &[Role],
        limits: bool,
        out: &mut Vec<Declaration>,
    ) {
        let n = cards.len();
        let fixed: Scratch<(usize, Face)> = roles
            .iter()
            .enumerate()
            .filter_map(|(i, r)| match r {
                Role::Fixed(f) => Some((i, *f)),
                Role::Flexible(_) => None,
            })
            .collect();
        let one_suit;
        let suits: &[Suit] = match fixed.first() {
            Some(&(_, f)) if fixed.iter().all(|(_, x)| x.suit == f.suit) => {
                one_suit = [f.suit];
                &one_suit
            }
            Some(_) => return,
            None => self.rules.deck.kind.suits(),
        };
        let flex: Scratch<usize> = (0..n)
            .filter(|&i| matches!(roles[i], Role::Flexible(_)))
            .collect();
        let (line, starts) = self.run_shapes(n);
        // The ranks of the fixed cards, a bit per `Rank::index`.
        let fixed_ranks = fixed.iter().fold(0u32, |m, (_, f)| m | 1 << f.rank.index());
        for shape in starts.iter().map(|&start| &line[start..start + n]) {
            // Every fixed card's rank must be in the shape (checked before
            // anything is allocated for it).
            let ranks = shape.iter().fold(0u32, |m, r| m | 1 << r.index());
            if fixed_ranks & !ranks != 0 {
                continue;
            }
            for &suit in suits {
                // Place the fixed cards; each needs its own position.
                let mut slot_of: Scratch<Option<usize>> = smallvec::smallvec![None; n]; // position -> input index
                let mut ok = true;
                for &(i, f) in &fixed {
                    match (0..n).find(|&p| shape[p] == f.rank && slot_of[p].is_none()) {
                        Some(p) if f.suit == suit => slot_of[p] = Some(i),
                        _ => {
                            ok = false;
                            break;
                        }
                    }
                }
                if !ok {
                    continue;
                }
                // Wild cards are interchangeable: they fill the free positions
                // in input order. The one alternative that matters is a round
                // wild standing as itself at its own position (a natural).
                let free: Scratch<usize> = (0..n).filter(|&p| slot_of[p].is_none()).collect();
                let own_spot = free.iter().find_map(|&p| {
                    let face = Face::new(shape[p], suit);
                    flex.iter()
                        .find(|&&i| cards[i].face() == Some(face))
                        .map(|&i| (p, i))
                });
                let variants = [None, own_spot];
                for variant in variants.iter().take(if own_spot.is_some() { 2 } else { 1 }) {
                    let mut slots = slot_of.clone();
                    let mut rest = flex.iter().copied();
                    if let Some((p, i)) = *variant {
                        slots[p] = Some(i);
                    }
                    let taken = variant.map(|(_, i)| i);
                    for &p in &free {
                        if slots[p].is_none() {
                            match rest.by_ref().find(|i| Some(*i) != taken) {
                                Some(i) => slots[p] = Some(i),
                                None => break,
                            }
                        }
                    }
                    let mut faces: Scratch<Face> =
                        smallvec::smallvec![Face::new(Rank::Two, suit); n];
                    let mut order: Scratch<usize> = Scratch::new();
                    for (p, s) in slots.iter().enumerate() {
                        if let Some(i) = *s {
                            faces[i] = Face::new(shape[p], suit);
                            order.push(i);
                        }
                    }
                    if order.len() == n {
                        self.push(MeldKind::Run, cards, &faces, Some(&order), limits, out);
                    }
                }
            }
        }
    }

    /// Build a declaration from the face every input card takes; `order`
    /// gives the input indices in meld order for runs (sets are ordered by suit).
    fn push(
        &self,
        kind: MeldKind,
        cards: &[CardKind],
        faces: &[Face],
        order: Option<&[usize]>,
        limits: bool,
        out: &mut Vec<Declaration>,
    ) {
        let meld_cards: Vec<MeldCard> = cards
            .iter()
            .zip(faces)
            .map(|(&card, &face)| MeldCard {
                card,
                stands_for: if card.face() == Some(face) {
                    None
                } else {
                    Some(face)
                },
            })
            .collect();
        let ordered: Vec<MeldCard> = match order {
            Some(o) => o.iter().map(|&i| meld_cards[i]).collect(),
            None => {
                let mut v = meld_cards.clone();
                v.sort_by_key(|c| (c.effective().map(|f| f.suit), c.card));
                v
            }
        };
        let wilds = ordered.iter().filter(|c| self.acts_wild(c)).count();
        let ordered_faces: Scratch<Face> = ordered.iter().filter_map(|c| c.effective()).collect();
        let d = Declaration {
            kind,
            value: self.value_of(kind, &ordered_faces),
            cards: meld_cards,
            ordered,
            wilds,
        };
        if !limits || self.wild_violation(&d).is_none() {
            out.push(d);
        }
    }
}

/// Meld value (§3) of every card of a meld given as faces in meld order. An
/// ace is low only as the first card of a run before a 2.
pub fn card_values(rules: &Ruleset, kind: MeldKind, ordered_faces: &[Face]) -> Vec<u32> {
    card_values_iter(rules, kind, ordered_faces).collect()
}

/// [`card_values`] one card at a time, without a vector.
fn card_values_iter<'a>(
    rules: &'a Ruleset,
    kind: MeldKind,
    ordered_faces: &'a [Face],
) -> impl Iterator<Item = u32> + 'a {
    ordered_faces.iter().enumerate().map(move |(i, f)| {
        let low = kind == MeldKind::Run
            && f.rank == Rank::Ace
            && i == 0
            && ordered_faces.get(1).is_some_and(|n| n.rank == Rank::Two);
        rules.values.value(*f, low)
    })
}

/// Scratch space of one meld check, on the stack for melds of up to 16
/// cards (its allocations were most of a check's cost).
type Scratch<T> = smallvec::SmallVec<[T; 16]>;

/// A line of run positions (the ranks twice round the corner) and its
/// starts: on the stack up to two lines of 13 ranks.
type Line<T> = smallvec::SmallVec<[T; 32]>;

/// Advance a non-decreasing sequence of digits in `0..base` (a multiset);
/// false after the last one.
fn next_multiset(digits: &mut [usize], base: usize) -> bool {
    for k in (0..digits.len()).rev() {
        if digits[k] + 1 < base {
            let v = digits[k] + 1;
            for d in &mut digits[k..] {
                *d = v;
            }
            return true;
        }
    }
    false
}

fn effective_multiset(d: &Declaration) -> Vec<(CardKind, Option<Face>)> {
    let mut v: Vec<(CardKind, Option<Face>)> =
        d.cards.iter().map(|c| (c.card, c.effective())).collect();
    v.sort();
    v
}

/// The face of every role when all are fixed; `None` when one is wild.
fn fixed_faces(roles: &[Role]) -> Option<Scratch<Face>> {
    roles
        .iter()
        .map(|r| match r {
            Role::Fixed(f) => Some(*f),
            Role::Flexible(_) => None,
        })
        .collect()
}

/// Keep the first of readings with the same kind and ordered cards (there
/// are few readings of one meld, so comparing pairs beats hashing them).
fn dedup_readings(readings: &mut Vec<Declaration>) {
    let mut kept = 0;
    for i in 0..readings.len() {
        let repeat = readings[..kept]
            .iter()
            .any(|k| k.kind == readings[i].kind && k.ordered == readings[i].ordered);
        if !repeat {
            readings.swap(kept, i);
            kept += 1;
        }
    }
    readings.truncate(kept);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::presets;

    /// What `declarations_matching` gives by trying every reading of the
    /// cards (the way taken when a wild card is undeclared).
    fn matching_by_every_reading(checker: &MeldChecker, cards: &[MeldCard]) -> Vec<Declaration> {
        let kinds: Vec<CardKind> = cards.iter().map(|c| c.card).collect();
        let mut fits: Vec<Declaration> = checker
            .enumerate(&kinds, true)
            .iter()
            .filter_map(|d| checker.align(cards, d))
            .collect();
        dedup_readings(&mut fits);
        fits
    }

    /// Random groups of three to five cards around one card (the same rank
    /// or suit, near ranks, wild cards), from a fixed xorshift sequence.
    struct Around(u64);

    impl Around {
        fn next(&mut self, m: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % m
        }

        fn pick<T: Copy>(&mut self, from: &[T]) -> T {
            from[self.next(from.len() as u64) as usize]
        }

        fn group(&mut self, deck: &[CardKind], faces: &[Face]) -> Vec<CardKind> {
            let pivot = self.pick(faces);
            let near: Vec<CardKind> = deck
                .iter()
                .copied()
                .filter(|k| {
                    k.face().is_none_or(|a| {
                        a.rank == pivot.rank
                            || (a.suit == pivot.suit
                                && a.rank.index().abs_diff(pivot.rank.index()) < 5)
                    })
                })
                .collect();
            let n = 3 + self.next(3) as usize;
            (0..n).map(|_| self.pick(&near)).collect()
        }
    }

    /// The preset `name`, and the preset with runs round the corner and
    /// with sets of any suits (two house rules).
    fn with_house_rules(name: &str) -> [Ruleset; 3] {
        let Some(Ok(base)) = presets::load(name) else {
            panic!("preset {name}");
        };
        let mut wrap = base.clone();
        wrap.melds.runs.wrap_around = true;
        let mut any_suits = base.clone();
        any_suits.melds.sets.suits = SetSuits::Any;
        [base, wrap, any_suits]
    }

    /// Call `f` with every preset's name and each of its rulesets of
    /// [`with_house_rules`], a checker for it (in round `round` where it
    /// has round wilds), and its deck's card kinds and faces.
    fn each_ruleset(
        round: u8,
        mut f: impl FnMut(&str, &Ruleset, &MeldChecker, &[CardKind], &[Face]),
    ) {
        for name in presets::NAMES {
            for rules in with_house_rules(name) {
                let round = rules.melds.wilds.round_wild.then_some(round);
                let Ok(checker) = MeldChecker::new(&rules, round) else {
                    continue;
                };
                let deck: Vec<CardKind> = rules.deck.cards().iter().map(|c| c.kind()).collect();
                let faces: Vec<Face> = deck.iter().filter_map(|c| c.face()).collect();
                f(name, &rules, &checker, &deck, &faces);
            }
        }
    }

    /// Where every card is at a face, the direct reading (`fixed_set`,
    /// `fixed_runs`) gives exactly what the general search over roles
    /// gives, in the same order, under every preset and two house rules:
    /// on random groups of natural cards, with wild cards declared as a
    /// face, with and without the limits on wild cards.
    #[test]
    fn fixed_faces_read_as_the_general_search_reads_them() {
        let mut around = Around(0x51f1_5ee0_a1b2_c3d4);
        let (mut compared, mut sets, mut runs) = (0, 0, 0);
        each_ruleset(5, |name, rules, checker, deck, faces| {
            for _ in 0..600 {
                let mut group = around.group(deck, faces);
                // Each wild card declared as a near face (or its own).
                let fixed: Vec<Face> = group
                    .iter()
                    .map(|c| match c.face() {
                        Some(f) if !checker.is_wild(*c) => f,
                        _ => around.pick(faces),
                    })
                    .collect();
                if around.next(2) == 0 {
                    group.reverse();
                }
                let fixed: Vec<Face> = if around.next(2) == 0 {
                    fixed
                } else {
                    group
                        .iter()
                        .zip(&fixed)
                        .map(|(c, f)| c.face().filter(|_| !checker.is_wild(*c)).unwrap_or(*f))
                        .collect()
                };
                let roles: Vec<Role> = fixed.iter().map(|&f| Role::Fixed(f)).collect();
                for limits in [true, false] {
                    let got = checker.enumerate_roles(&group, &roles, limits);
                    let mut want = Vec::new();
                    if group.len() >= usize::from(rules.melds.min_len) {
                        checker.enumerate_sets(&group, &roles, limits, &mut want);
                        checker.enumerate_runs(&group, &roles, limits, &mut want);
                    }
                    dedup_readings(&mut want);
                    assert_eq!(got, want, "{name}: {group:?} as {fixed:?}");
                    compared += 1;
                    sets += want.iter().filter(|d| d.kind == MeldKind::Set).count();
                    runs += want.iter().filter(|d| d.kind == MeldKind::Run).count();
                }
            }
        });
        assert!(
            compared > 10_000 && sets > 300 && runs > 300,
            "{compared} compared, {sets} sets, {runs} runs"
        );
    }

    /// Fully declared melds (as they lie on the table, in meld order and in
    /// input order, and with a wild card declared as some other face) get
    /// exactly the readings that trying every reading gives, under every
    /// preset and two house rules.
    #[test]
    fn declared_melds_match_as_every_reading_does() {
        let mut around = Around(0x2545_f491_4f6c_dd1d);
        let (mut declared, mut valid) = (0, 0);
        each_ruleset(3, |name, _, checker, deck, faces| {
            for _ in 0..120 {
                let group = around.group(deck, faces);
                if group.iter().filter(|c| c.is_joker()).count() > 2 {
                    continue;
                }
                let Ok(readings) = checker.declarations(&group) else {
                    continue;
                };
                for d in readings.into_iter().take(3) {
                    let mut wrong = d.cards.clone();
                    if let Some(c) = wrong.iter_mut().find(|c| c.stands_for.is_some()) {
                        c.stands_for = Some(around.pick(faces));
                    }
                    for cards in [d.cards.clone(), d.ordered.clone(), wrong] {
                        let Ok(got) = checker.declarations_matching(&cards) else {
                            continue;
                        };
                        let want = matching_by_every_reading(checker, &cards);
                        assert_eq!(got, want, "{name}: {cards:?}");
                        declared += usize::from(checker.declared_faces(&cards).is_some());
                        valid += usize::from(!want.is_empty());
                    }
                }
            }
        });
        assert!(
            declared > 300 && valid > 300,
            "{declared} declared, {valid} valid"
        );
    }

    /// Declared melds with one undeclared wild card added (a joker laid off
    /// on a table meld, with or without natural cards, anywhere in the
    /// cards) get exactly the readings, in the same order, that trying
    /// every reading gives, under every preset and two house rules.
    #[test]
    fn one_undeclared_wild_matches_as_every_reading_does() {
        let mut around = Around(0x7c15_2545_f491_9e37);
        let (mut compared, mut valid, mut several) = (0, 0, 0);
        for name in presets::NAMES {
            for rules in with_house_rules(name) {
                let Ok(checker) = MeldChecker::new(&rules, None) else {
                    continue;
                };
                if checker.wild_rank.is_some() || rules.deck.jokers == 0 {
                    continue;
                }
                let deck: Vec<CardKind> = rules.deck.cards().iter().map(|c| c.kind()).collect();
                let faces: Vec<Face> = deck.iter().filter_map(|c| c.face()).collect();
                for _ in 0..120 {
                    let group = around.group(&deck, &faces);
                    let Ok(readings) = checker.declarations(&group) else {
                        continue;
                    };
                    for d in readings.into_iter().take(3) {
                        for extra in 0..3 {
                            let mut cards = d.ordered.clone();
                            for _ in 0..extra {
                                let c = around.pick(&deck);
                                if c.face().is_some() {
                                    cards.push(MeldCard::plain(c));
                                }
                            }
                            let at = around.next(cards.len() as u64 + 1) as usize;
                            cards.insert(at, MeldCard::plain(CardKind::Joker));
                            let Ok(got) = checker.declarations_matching(&cards) else {
                                continue;
                            };
                            let want = matching_by_every_reading(&checker, &cards);
                            assert_eq!(got, want, "{name}: {cards:?}");
                            compared += 1;
                            valid += usize::from(!want.is_empty());
                            several += usize::from(want.len() > 1);
                        }
                    }
                }
            }
        }
        assert!(
            compared > 1_000 && valid > 300 && several > 50,
            "{compared} compared, {valid} valid, {several} with several readings"
        );
    }

    /// `check_unworded` gives `check`'s answer, only without the reason's
    /// words: on groups around a card (undeclared, declared as read, in
    /// meld order, misdeclared), under every preset.
    #[test]
    fn unworded_checks_answer_as_worded_ones() {
        let mut around = Around(0x9e37_79b9_7f4a_7c15);
        let (mut valid, mut invalid) = (0, 0);
        for name in presets::NAMES {
            let Some(Ok(rules)) = presets::load(name) else {
                panic!("preset {name}");
            };
            let round = rules.melds.wilds.round_wild.then_some(3);
            let Ok(checker) = MeldChecker::new(&rules, round) else {
                continue;
            };
            let deck: Vec<CardKind> = rules.deck.cards().iter().map(|c| c.kind()).collect();
            let faces: Vec<Face> = deck.iter().filter_map(|c| c.face()).collect();
            for _ in 0..150 {
                let group = around.group(&deck, &faces);
                let mut tries: Vec<Vec<MeldCard>> =
                    vec![group.iter().map(|&k| MeldCard::plain(k)).collect()];
                if let Ok(readings) = checker.declarations(&group) {
                    for d in readings.into_iter().take(2) {
                        let mut wrong = d.cards.clone();
                        if let Some(c) = wrong.iter_mut().find(|c| c.stands_for.is_some()) {
                            c.stands_for = Some(around.pick(&faces));
                        }
                        tries.extend([d.cards, d.ordered, wrong]);
                    }
                }
                for cards in tries {
                    match (checker.check(&cards), checker.check_unworded(&cards)) {
                        (Ok(a), Ok(b)) => {
                            assert_eq!(a, b, "{name}: {cards:?}");
                            valid += 1;
                        }
                        (Err(MeldError::Invalid { .. }), Err(MeldError::Invalid { reason })) => {
                            assert!(reason.is_empty(), "{name}: {cards:?}");
                            invalid += 1;
                        }
                        (Err(a), Err(b)) => {
                            assert_eq!(
                                std::mem::discriminant(&a),
                                std::mem::discriminant(&b),
                                "{name}: {cards:?}"
                            );
                            assert!(!matches!(a, MeldError::Invalid { .. }), "{name}");
                        }
                        (a, b) => panic!("{name}: {cards:?}: {a:?} against {b:?}"),
                    }
                }
            }
        }
        assert!(
            valid > 300 && invalid > 300,
            "{valid} valid, {invalid} invalid"
        );
    }
}
