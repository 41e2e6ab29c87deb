//! The readings of candidate meld groups, remembered for the game in
//! progress.
//!
//! Listing a seat's legal actions checks every group of hand cards that
//! could be a single meld (see [`crate::legal::single_meld_declarations`]),
//! and a group with wild cards is read in every way the checker allows:
//! the costliest part of listing. A hand changes by a card or two per
//! turn, so most groups come back turn after turn. The cache keeps each
//! group's readings (sets and runs, in the checker's order, with what the
//! opening search reads off each: [`Readings`]) keyed by the group's
//! sorted cards, for one ruleset and round. Besides, each meld
//! checked (new melds, lay-offs) and the faces a wild card may take on a
//! table meld. (What is worked out for the table as it lies is kept with
//! the table itself: [`crate::game::Table`].)
//!
//! Like the solver's tables it is shared by a game and its copies (forks
//! for legality checks, seat views and the games a bot deals from them) and
//! starts empty with every deal (Five Crowns changes its wild rank). It is a
//! cache, not state: two caches always compare equal, and the answers are
//! the same with or without it (a test compares them).

use std::borrow::Borrow;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError};

use romme_core::meld::{Declaration, MeldChecker, MeldError};
use romme_core::notation::MeldCard;
use romme_core::{CardKind, Face};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// The cards of one candidate meld, sorted, on the stack.
pub(crate) type Group = SmallVec<[CardKind; 16]>;

/// A reading's cards as kind slots, each with the copies of its kind
/// before it in the meld.
pub(crate) type MeldSlots = SmallVec<[(u8, u8); 8]>;

/// A group's readings as the listing keeps them: its sets and runs, in
/// the checker's order (the slice it derefs to), and for the opening
/// search each one's opening points and its cards as kind slots, each
/// with how many copies of its kind come before it in the meld (see
/// [`crate::legal`]), worked out once with the readings.
#[derive(Debug)]
pub(crate) struct Readings {
    decls: Box<[Declaration]>,
    points: Box<[u32]>,
    slots: Box<[MeldSlots]>,
}

impl Readings {
    /// `decls` with their `points` and `slots`, one each per reading.
    pub(crate) fn new(
        decls: Vec<Declaration>,
        points: Vec<u32>,
        slots: Vec<MeldSlots>,
    ) -> Readings {
        debug_assert!(decls.len() == points.len() && decls.len() == slots.len());
        Readings {
            decls: decls.into(),
            points: points.into(),
            slots: slots.into(),
        }
    }

    /// Reading `r`'s opening points.
    pub(crate) fn points(&self, r: usize) -> u32 {
        self.points[r]
    }

    /// Reading `r`'s cards as kind slots, in meld order, each with the
    /// copies of its kind before it.
    pub(crate) fn slots(&self, r: usize) -> &[(u8, u8)] {
        &self.slots[r]
    }
}

impl std::ops::Deref for Readings {
    type Target = [Declaration];

    fn deref(&self) -> &[Declaration] {
        &self.decls
    }
}

/// A sorted group as a key: packed into one integer (seven bits a card)
/// when it has at most [`PACKED_CARDS`] cards, which hashes and compares
/// in a few instructions; the cards themselves otherwise.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum GroupKey {
    Packed(u128),
    Long(Group),
}

/// Cards a [`GroupKey::Packed`] holds.
const PACKED_CARDS: usize = 18;

impl GroupKey {
    /// The key of the sorted group `cards`.
    pub(crate) fn of(cards: &[CardKind]) -> GroupKey {
        if cards.len() > PACKED_CARDS {
            return GroupKey::Long(Group::from_slice(cards));
        }
        // A card as 1..=66 (its face's index plus one, the joker last), so
        // that no card packs to zero and groups of different lengths differ.
        let packed = cards.iter().fold(0u128, |key, &c| {
            let code = match c {
                CardKind::Natural(f) => f.index() as u128 + 1,
                CardKind::Joker => Face::SLOTS as u128 + 1,
            };
            key << 7 | code
        });
        GroupKey::Packed(packed)
    }
}

/// Entries each of the cache's maps holds before it starts again (about a
/// megabyte each): more than a game of random or heuristic seats meets (a
/// few hundred groups), while a searching bot's playouts or a simulation's
/// worker, which keeps the cache from match to match, start again now and
/// then. A server holds one cache per table, so this bounds its memory.
const MAX_GROUPS: usize = 4_096;

/// The readings of each group met so far, and each table meld's check (see
/// the module docs).
#[derive(Clone, Default)]
pub(crate) struct MeldCache(Arc<Mutex<Maps>>);

#[derive(Default)]
struct Maps {
    /// Groups of at most [`PACKED_CARDS`] cards, by their packed key:
    /// entries of 32 bytes, so that the hundred a listing looks up share
    /// fewer cache lines than keys of either kind would.
    groups: FxHashMap<u128, Arc<Readings>>,
    /// Longer groups.
    long_groups: FxHashMap<Group, Arc<Readings>>,
    /// Melds checked (a table meld as laid, with a lay-off's cards, a new
    /// meld) and what the check gave; a refusal with whether it was worded.
    checks: FxHashMap<Vec<MeldCard>, (Result<Declaration, MeldError>, bool)>,
    /// A table meld with an undeclared wild card added: the faces the wild
    /// card may take there (one per reading).
    wild_lay_offs: FxHashMap<Vec<MeldCard>, Arc<[Option<Face>]>>,
}

impl Maps {
    /// Groups remembered, of either length.
    fn group_count(&self) -> usize {
        self.groups.len() + self.long_groups.len()
    }
}

impl MeldCache {
    /// The readings of groups for a run of lookups under one lock (a
    /// listing looks up dozens of groups; `read` must not use the cache).
    pub(crate) fn group_readings(&self) -> GroupReadings<'_> {
        GroupReadings(self.lock())
    }

    /// The faces the wild card added last to the table meld `cards` may take
    /// (one per reading, in the checker's order), worked out by `read` the
    /// first time.
    pub(crate) fn wild_lay_offs(
        &self,
        cards: &[MeldCard],
        read: impl FnOnce() -> Arc<[Option<Face>]>,
    ) -> Arc<[Option<Face>]> {
        let mut maps = self.lock();
        remembered(&mut maps.wild_lay_offs, cards, read)
    }

    /// [`MeldChecker::check`] of `cards` (`worded`) or
    /// [`MeldChecker::check_unworded`], each meld checked once per game: a
    /// refusal kept unworded is checked again when its words are wanted.
    pub(crate) fn check(
        &self,
        checker: &MeldChecker,
        cards: &[MeldCard],
        worded: bool,
    ) -> Result<Declaration, MeldError> {
        let mut maps = self.lock();
        if let Some((r, has_words)) = maps.checks.get(cards) {
            if r.is_ok() || *has_words || !worded {
                return r.clone();
            }
        }
        if maps.checks.len() >= MAX_GROUPS {
            maps.checks.clear();
        }
        let r = if worded {
            checker.check(cards)
        } else {
            checker.check_unworded(cards)
        };
        maps.checks.insert(cards.to_vec(), (r.clone(), worded));
        r
    }

    /// The maps (a thread that panicked holding them left them whole:
    /// every entry is written at once).
    fn lock(&self) -> std::sync::MutexGuard<'_, Maps> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Number of groups remembered.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.0.lock().map_or(0, |m| m.group_count())
    }

    /// Whether two handles share one cache.
    #[cfg(test)]
    pub(crate) fn shares(&self, other: &MeldCache) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The cache's group readings, held locked (see
/// [`MeldCache::group_readings`]).
pub(crate) struct GroupReadings<'a>(std::sync::MutexGuard<'a, Maps>);

impl GroupReadings<'_> {
    /// The readings of the sorted group whose key is `key` (see
    /// [`GroupKey::of`]), worked out by `read` the first time.
    pub(crate) fn readings(
        &mut self,
        key: &GroupKey,
        read: impl FnOnce() -> Arc<Readings>,
    ) -> Arc<Readings> {
        match key {
            GroupKey::Packed(p) => remembered(&mut self.0.groups, p, read),
            GroupKey::Long(g) => remembered(&mut self.0.long_groups, g, read),
        }
    }
}

/// The value for `key` in `map`, made by `make` the first time (the map
/// starts again when full).
fn remembered<Q, V>(
    map: &mut FxHashMap<Q::Owned, Arc<V>>,
    key: &Q,
    make: impl FnOnce() -> Arc<V>,
) -> Arc<V>
where
    Q: ToOwned + Hash + Eq + ?Sized,
    Q::Owned: Borrow<Q> + Hash + Eq,
    V: ?Sized,
{
    if let Some(v) = map.get(key) {
        return Arc::clone(v);
    }
    if map.len() >= MAX_GROUPS {
        map.clear();
    }
    let v = make();
    map.insert(key.to_owned(), Arc::clone(&v));
    v
}

impl std::fmt::Debug for MeldCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let groups = self.0.lock().map_or(0, |m| m.group_count());
        write!(f, "MeldCache {{ groups: {groups} }}")
    }
}

impl PartialEq for MeldCache {
    fn eq(&self, _: &MeldCache) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use romme_core::Face;

    fn group(n: u8) -> Group {
        (0..n)
            .filter_map(|i| Face::from_index(usize::from(i)))
            .map(CardKind::Natural)
            .collect()
    }

    #[test]
    fn readings_are_worked_out_once_per_group() {
        let cache = MeldCache::default();
        let mut calls = 0;
        for _ in 0..3 {
            cache
                .group_readings()
                .readings(&GroupKey::of(&group(3)), || {
                    calls += 1;
                    Arc::new(Readings::new(Vec::new(), Vec::new(), Vec::new()))
                });
        }
        cache
            .group_readings()
            .readings(&GroupKey::of(&group(4)), || {
                calls += 1;
                Arc::new(Readings::new(Vec::new(), Vec::new(), Vec::new()))
            });
        assert_eq!(calls, 2);
        assert_eq!(cache.len(), 2);
        // A check is kept; a refusal kept without words gets them when asked.
        let Some(Ok(rules)) = romme_core::ruleset::presets::load("klassisch") else {
            panic!("preset klassisch");
        };
        let checker = MeldChecker::new(&rules, None).expect("checker");
        let parse = |text: &str| -> Vec<MeldCard> {
            text.split(' ').map(|c| c.parse().expect("card")).collect()
        };
        let run = parse("5h 6h 7h");
        let first = cache.check(&checker, &run, false).expect("a run");
        assert_eq!(cache.check(&checker, &run, true), Ok(first));
        let wrong = parse("5h 6h 9h");
        let unworded = cache.check(&checker, &wrong, false);
        assert!(matches!(&unworded, Err(MeldError::Invalid { reason }) if reason.is_empty()));
        let worded = cache.check(&checker, &wrong, true);
        assert_eq!(worded, checker.check(&wrong));
        assert!(matches!(&worded, Err(MeldError::Invalid { reason }) if !reason.is_empty()));
        // A wild card's faces are kept the same way.
        let meld: Vec<MeldCard> = group(3).iter().map(|&k| MeldCard::plain(k)).collect();
        let mut reads = 0;
        for _ in 0..3 {
            let faces = cache.wild_lay_offs(&meld, || {
                reads += 1;
                Arc::from(vec![None])
            });
            assert_eq!(&faces[..], &[None]);
        }
        assert_eq!(reads, 1);
        assert!(cache.shares(&cache.clone()));
        assert!(!cache.shares(&MeldCache::default()));
    }
}
