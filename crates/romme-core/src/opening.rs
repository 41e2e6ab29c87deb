//! The opening ("Erstmeldung", "Auslegen"): does a first meld reach the
//! ruleset's threshold? Implements the `opening.*` knobs and the Hand-Rommé
//! waiver; the engine and the solver both ask it.
//!
//! Readings:
//! * Lay-offs count at the value the card takes in the meld it joins
//!   (`003` Räuber: "angelegt werden, um auf 40 Punkte zu kommen").
//! * With `count = "single-meld"` one meld alone must reach the threshold;
//!   lay-offs and table value never count toward a single meld.
//! * A Hand-Rommé (every card out in one turn, no earlier meld) waives the
//!   threshold when `hand_romme.threshold_waived`; with
//!   `threshold_with_lay_offs` the waiver is lost as soon as the Hand-Rommé
//!   lays off or exchanges a joker (`004` 10).

use serde::Serialize;
use thiserror::Error;

use crate::meld::{Declaration, card_values};
use crate::ruleset::{JokerOpeningValue, OpeningCount, Ruleset};

/// What a player puts down in the turn of the opening.
#[derive(Debug, Clone, Copy)]
pub struct OpeningAttempt<'a> {
    /// The new melds.
    pub melds: &'a [Declaration],
    /// Meld value of the cards laid off on melds already on the table.
    pub lay_off_value: u32,
    /// Meld value of all melds already on the table (for `table_counts`).
    pub table_value: u32,
    /// A joker on the table was exchanged in this turn.
    pub joker_exchanged: bool,
    /// Every card of the hand goes out in this turn without an earlier meld
    /// (a Hand-Rommé attempt).
    pub whole_hand: bool,
}

/// Why an opening is not enough.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum OpeningError {
    /// The points do not reach the threshold.
    #[error("opening needs {needed} points, these melds have {have}")]
    TooFewPoints {
        /// Threshold.
        needed: u32,
        /// Points counted.
        have: u32,
    },
    /// No single meld reaches the threshold (`count = "single-meld"`).
    #[error("the opening needs one meld of {needed} points, the best has {have}")]
    NoMeldHighEnough {
        /// Threshold.
        needed: u32,
        /// Points of the best meld.
        have: u32,
    },
    /// A wild card in an opening that must be natural.
    #[error("the opening must be made of natural cards only, {meld} has a wild card")]
    WildCard {
        /// The meld in notation.
        meld: String,
    },
    /// No meld at all.
    #[error("an opening needs at least one meld")]
    NoMeld,
}

/// Opening value of one declared meld: the meld value (§3) with wild cards
/// counted per `opening.joker_value`.
pub fn meld_points(rules: &Ruleset, meld: &Declaration) -> u32 {
    match rules.opening.joker_value {
        JokerOpeningValue::Represented => meld.value,
        JokerOpeningValue::Zero => {
            let faces: Vec<_> = meld.ordered.iter().filter_map(|c| c.effective()).collect();
            card_values(rules, meld.kind, &faces)
                .iter()
                .zip(&meld.ordered)
                .filter(|(_, c)| c.stands_for.is_none())
                .map(|(v, _)| v)
                .sum()
        }
    }
}

/// Whether the Hand-Rommé waiver applies to this attempt.
pub fn threshold_waived(rules: &Ruleset, a: &OpeningAttempt) -> bool {
    let h = &rules.hand_romme;
    let used_table = a.lay_off_value > 0 || a.joker_exchanged;
    a.whole_hand && h.enabled && h.threshold_waived && !(h.threshold_with_lay_offs && used_table)
}

/// The new melds of an opening summed up: what [`check`] needs of them
/// apart from the naturals-only rule's wording. A search that tries many
/// combinations keeps one of these per combination instead of building
/// an [`OpeningAttempt`] of declarations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Number of melds.
    pub melds: usize,
    /// Their opening points ([`meld_points`]) together.
    pub sum: u32,
    /// The highest opening points of one meld.
    pub top: u32,
    /// Melds holding a wild card.
    pub wild_melds: usize,
}

impl Tally {
    /// The tally with one more meld of `points` (holding a wild card or not).
    pub fn with(self, points: u32, has_wild: bool) -> Tally {
        Tally {
            melds: self.melds + 1,
            sum: self.sum + points,
            top: self.top.max(points),
            wild_melds: self.wild_melds + usize::from(has_wild),
        }
    }
}

/// Whether some set of melds whose points are at most `bound`'s (together
/// at most `bound.sum`, one meld at most `bound.top`) could pass
/// [`check_tally`] with attempt `a`. False only when even those points
/// miss the threshold and the Hand-Rommé waiver cannot apply; set
/// `a.whole_hand` when a subset might put out the whole hand. A search of
/// opening combinations passes over a hand whose melds, all of them
/// together, cannot reach the threshold (their tally bounds every
/// combination's) without looking at any combination.
pub fn points_may_open(rules: &Ruleset, bound: &Tally, a: &OpeningAttempt) -> bool {
    if threshold_waived(rules, a) {
        return true;
    }
    let o = &rules.opening;
    let needed = u32::from(o.threshold);
    match o.count {
        OpeningCount::Sum => {
            let mut have = bound.sum;
            if o.lay_offs_count {
                have += a.lay_off_value;
            }
            if o.table_counts {
                have += a.table_value;
            }
            have >= needed
        }
        OpeningCount::SingleMeld => bound.top >= needed,
    }
}

/// Check an opening; on success returns the points counted.
pub fn check(rules: &Ruleset, a: &OpeningAttempt) -> Result<u32, OpeningError> {
    if rules.opening.naturals_only {
        if let Some(d) = a.melds.iter().find(|d| d.wilds > 0) {
            return Err(OpeningError::WildCard {
                meld: crate::notation::format_cards(&d.ordered),
            });
        }
    }
    let tally = a.melds.iter().fold(Tally::default(), |t, d| {
        t.with(meld_points(rules, d), d.wilds > 0)
    });
    check_tally(rules, &tally, a)
}

/// [`check`] for melds given by their [`Tally`]; `a.melds` is not read
/// (the search that calls this passes none). A wild card where the
/// opening must be natural is refused without naming the meld (the error
/// says "one of the melds"): the tally does not know which.
pub fn check_tally(
    rules: &Ruleset,
    tally: &Tally,
    a: &OpeningAttempt,
) -> Result<u32, OpeningError> {
    let o = &rules.opening;
    if tally.melds == 0 && !(o.lay_offs_count && a.lay_off_value > 0) {
        return Err(OpeningError::NoMeld);
    }
    if o.naturals_only && tally.wild_melds > 0 {
        return Err(OpeningError::WildCard {
            meld: "one of the melds".into(),
        });
    }
    let mut have = tally.sum;
    if o.lay_offs_count {
        have += a.lay_off_value;
    }
    if o.table_counts {
        have += a.table_value;
    }
    if threshold_waived(rules, a) {
        return Ok(have);
    }
    let needed = u32::from(o.threshold);
    match o.count {
        OpeningCount::Sum if have < needed => Err(OpeningError::TooFewPoints { needed, have }),
        OpeningCount::SingleMeld => {
            if tally.top < needed {
                Err(OpeningError::NoMeldHighEnough {
                    needed,
                    have: tally.top,
                })
            } else {
                Ok(have)
            }
        }
        OpeningCount::Sum => Ok(have),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meld::MeldChecker;
    use crate::notation::parse_cards;
    use crate::test_support::preset as rules;

    fn meld(r: &Ruleset, s: &str) -> Declaration {
        MeldChecker::new(r, None)
            .expect("checker")
            .best(&parse_cards(s).expect(s))
            .expect("cards")
            .expect("valid")
    }

    /// The valid ones of `melds` (in notation), declared under `r` (Five
    /// Crowns in its round of 11).
    fn declared(r: &Ruleset, melds: &[&str]) -> Vec<Declaration> {
        let round = r.melds.wilds.round_wild.then_some(11);
        let checker = MeldChecker::new(r, round).expect("checker");
        melds
            .iter()
            .filter_map(|m| checker.best(&parse_cards(m).expect(m)).ok().flatten())
            .collect()
    }

    fn attempt(melds: &[Declaration]) -> OpeningAttempt<'_> {
        OpeningAttempt {
            melds,
            lay_off_value: 0,
            table_value: 0,
            joker_exchanged: false,
            whole_hand: false,
        }
    }

    /// `check_tally` on the melds' tally decides as `check` does, under
    /// each way of counting (the opening search in the engine relies on it).
    #[test]
    fn tally_decides_as_the_melds_do() {
        let melds = [
            "Kh Ks Kc",
            "2c 3c 4c",
            "Qh * Ah",
            "10h Jh Qh Kh",
            "5c 6c 7c",
            "9h 9s 9d *",
        ];
        for name in ["klassisch", "offen", "bieten", "koenigs", "club"] {
            let base = rules(name);
            let mut variants = vec![base.clone()];
            let mut single = base.clone();
            single.opening.count = OpeningCount::SingleMeld;
            variants.push(single);
            let mut natural = base.clone();
            natural.opening.naturals_only = true;
            variants.push(natural);
            let mut zero = base.clone();
            zero.opening.joker_value = JokerOpeningValue::Zero;
            variants.push(zero);
            for r in &variants {
                let ds = declared(r, &melds);
                assert!(ds.len() >= 3, "{name}: most of the melds are valid");
                for mask in 0..1u32 << ds.len() {
                    let chosen: Vec<Declaration> = (0..ds.len())
                        .filter(|i| mask >> i & 1 == 1)
                        .map(|i| ds[i].clone())
                        .collect();
                    for whole_hand in [false, true] {
                        let a = OpeningAttempt {
                            whole_hand,
                            table_value: 12,
                            ..attempt(&chosen)
                        };
                        let tally = chosen.iter().fold(Tally::default(), |t, d| {
                            t.with(meld_points(r, d), d.wilds > 0)
                        });
                        let by_tally = check_tally(r, &tally, &OpeningAttempt { melds: &[], ..a });
                        assert_eq!(check(r, &a).ok(), by_tally.ok(), "{name} {mask:b}");
                    }
                }
            }
        }
    }

    /// `points_may_open` on the tally of some melds is false only when no
    /// subset of them opens: on every pair of nested subsets of six melds,
    /// under each way of counting, with and without the Hand-Rommé waiver,
    /// the table's value and lay-offs counted. It also rules some out.
    #[test]
    fn points_may_open_bounds_every_subset() {
        let melds = [
            "Kh Ks Kc",
            "2c 3c 4c",
            "Qh * Ah",
            "5c 6c 7c",
            "9h 9s 9d *",
            "3d 4d 5d",
        ];
        let mut ruled_out = 0;
        for name in ["klassisch", "offen", "koenigs", "club"] {
            let base = rules(name);
            let mut variants = vec![base.clone()];
            let mut single = base.clone();
            single.opening.count = OpeningCount::SingleMeld;
            variants.push(single);
            let mut counted = base.clone();
            counted.opening.table_counts = true;
            counted.opening.lay_offs_count = true;
            variants.push(counted);
            let mut waived = base.clone();
            waived.hand_romme.enabled = true;
            waived.hand_romme.threshold_waived = true;
            variants.push(waived);
            for r in &variants {
                let ds = declared(r, &melds);
                let tally = |mask: u32| {
                    (0..ds.len())
                        .filter(|i| mask >> i & 1 == 1)
                        .fold(Tally::default(), |t, i| {
                            t.with(meld_points(r, &ds[i]), ds[i].wilds > 0)
                        })
                };
                for all in 0..1u32 << ds.len() {
                    for whole_hand in [false, true] {
                        let a = OpeningAttempt {
                            whole_hand,
                            table_value: 7,
                            lay_off_value: 3,
                            ..attempt(&[])
                        };
                        if points_may_open(r, &tally(all), &a) {
                            continue;
                        }
                        ruled_out += 1;
                        // Every subset of `all`.
                        let mut sub = all;
                        loop {
                            assert!(
                                check_tally(r, &tally(sub), &a).is_err(),
                                "{name} {all:b} {sub:b} {whole_hand}"
                            );
                            if sub == 0 {
                                break;
                            }
                            sub = (sub - 1) & all;
                        }
                    }
                }
            }
        }
        assert!(ruled_out > 100, "only {ruled_out} ruled out");
    }

    #[test]
    fn threshold_40_versus_30() {
        let k = rules("klassisch");
        let m = [meld(&k, "Kh Ks Kc"), meld(&k, "2c 3c 4c")]; // 30 + 9
        let err = check(&k, &attempt(&m)).expect_err("39 < 40");
        assert_eq!(
            err.to_string(),
            "opening needs 40 points, these melds have 39"
        );
        let o = rules("offen");
        assert_eq!(check(&o, &attempt(&m)), Ok(39), "001: 30 is enough");
        let mut zero = k.clone();
        zero.opening.threshold = 0;
        assert_eq!(check(&zero, &attempt(&[meld(&k, "2c 3c 4c")])), Ok(9));
    }

    #[test]
    fn sum_versus_single_meld() {
        let mut k = rules("klassisch");
        k.opening.threshold = 35;
        let m = [meld(&k, "Kh Ks Kc"), meld(&k, "2c 3c 4c")];
        assert_eq!(check(&k, &attempt(&m)), Ok(39), "30 + 9 together");
        k.opening.count = OpeningCount::SingleMeld;
        let err = check(&k, &attempt(&m)).expect_err("no meld reaches 35 alone");
        assert_eq!(
            err,
            OpeningError::NoMeldHighEnough {
                needed: 35,
                have: 30
            }
        );
        let big = [meld(&k, "10h Jh Qh Kh"), meld(&k, "2c 3c 4c")];
        assert_eq!(
            check(&k, &attempt(&big)),
            Ok(49),
            "one meld of 40, plus a small one"
        );
    }

    #[test]
    fn joker_value_represented_versus_zero() {
        let mut k = rules("klassisch");
        let m = [meld(&k, "Qh * Ah")]; // Q K(joker) A = 31
        k.opening.threshold = 31;
        assert_eq!(check(&k, &attempt(&m)), Ok(31));
        k.opening.joker_value = JokerOpeningValue::Zero;
        assert_eq!(
            check(&k, &attempt(&m)),
            Err(OpeningError::TooFewPoints {
                needed: 31,
                have: 21
            })
        );
    }

    #[test]
    fn naturals_only_versus_jokers_allowed() {
        let mut k = rules("klassisch");
        let with_joker = [meld(&k, "Qh * Ah"), meld(&k, "10c 10d 10s")];
        assert!(check(&k, &attempt(&with_joker)).is_ok());
        k.opening.naturals_only = true;
        assert!(matches!(
            check(&k, &attempt(&with_joker)),
            Err(OpeningError::WildCard { .. })
        ));
        let natural = [meld(&k, "Qh Kh Ah"), meld(&k, "10c 10d 10s")];
        assert!(check(&k, &attempt(&natural)).is_ok());
    }

    #[test]
    fn lay_offs_and_table_count_per_knob() {
        let r = rules("raeuber");
        let m = [meld(&r, "Kh Ks Kc")];
        let mut a = attempt(&m);
        a.lay_off_value = 10;
        assert_eq!(check(&r, &a), Ok(40), "003 Räuber: lay-offs count");
        let k = rules("klassisch");
        assert!(check(&k, &a).is_err(), "003 basic: they do not");
        let mut table = r.clone();
        table.opening.table_counts = true;
        let mut b = attempt(&m);
        b.table_value = 12;
        assert_eq!(check(&table, &b), Ok(42), "002 Räuber: table melds count");
        assert!(check(&r, &b).is_err());
    }

    #[test]
    fn hand_romme_waives_the_threshold_unless_it_lays_off_004() {
        let c = rules("club");
        let m = [meld(&c, "2c 3c 4c")];
        let mut a = attempt(&m);
        a.whole_hand = true;
        assert_eq!(check(&c, &a), Ok(9), "004 10: 40 does not apply");
        a.lay_off_value = 5;
        assert!(
            check(&c, &a).is_err(),
            "004 10: with lay-offs the 40 applies"
        );
        a.lay_off_value = 0;
        a.joker_exchanged = true;
        assert!(check(&c, &a).is_err(), "... and with a joker exchange");
        let k = rules("klassisch");
        let mut b = attempt(&m);
        b.whole_hand = true;
        b.lay_off_value = 5;
        assert!(check(&k, &b).is_ok(), "003: lay-offs allowed, still waived");
        let o = rules("offen");
        assert!(check(&o, &b).is_err(), "001: no Hand-Rommé waiver");
    }
}
