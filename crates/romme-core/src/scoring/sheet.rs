//! The match score sheet: game scores added up, when a match is over, and
//! the final standings with every tie-break of the rule texts.
//!
//! * Penalty schemes: the lowest total wins; equal totals share a place
//!   (`000`: "Bei Gleichstand gibt es mehrere Gewinner").
//! * Elimination (Wiener, `003`): a player whose total reaches the limit is
//!   out after that game; the last one left wins. If the last players go out
//!   in the same game, the lower total ranks higher (our reading).
//! * Club series (`004` 14): net rating points (plus minus minus), then the
//!   lower total of hand points, then more plus points, then by lot — drawn
//!   from a seed so that a replay gives the same order.
//! * Anlegen (`002`): struck points never take a total below 0.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use thiserror::Error;

use super::GameScore;
use crate::ruleset::{MatchEnd, Ruleset, ScoringScheme};

/// A game score that does not fit the sheet.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SheetError {
    /// Wrong number of players.
    #[error("the sheet has {expected} players, the game score has {got}")]
    PlayerCount {
        /// Players on the sheet.
        expected: usize,
        /// Players in the game score.
        got: usize,
    },
    /// The match is already over.
    #[error("the match is over; start a new sheet")]
    Finished,
    /// An eliminated player scored.
    #[error("player {0} is eliminated and cannot score")]
    Eliminated(usize),
}

/// One player's running totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Total {
    /// Penalty points (match total; club: sum of hand points).
    pub points: i64,
    /// Club: sum of positive rating points.
    pub rating_plus: i64,
    /// Club: sum of negative rating points, as a positive number.
    pub rating_minus: i64,
    /// Club: games with a negative rating.
    pub minus_games: u32,
    /// Games won.
    pub games_won: u32,
    /// Elimination: the game (1-based) after which the player was out.
    pub eliminated_after: Option<usize>,
}

impl Total {
    /// Club: plus minus minus rating points.
    pub fn net_rating(&self) -> i64 {
        self.rating_plus - self.rating_minus
    }
}

/// Which criterion decided a place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decider {
    /// The main criterion (points, or club rating points).
    Main,
    /// Club: the lower hand-point total.
    HandPoints,
    /// Club: more plus points.
    PlusPoints,
    /// Club: drawn by lot.
    Lot,
    /// Tied: the place is shared.
    Shared,
    /// The solo patience did not come out: the player has no place (0).
    NotOut,
}

/// One line of the final (or current) standings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// Seat index.
    pub seat: usize,
    /// 1-based place; tied players share it. 0 is no place: a solo
    /// patience that did not come out is lost, not won by its only player.
    pub place: usize,
    /// The player's totals.
    pub total: Total,
    /// What separated this player from the one above.
    pub decided_by: Decider,
}

/// Whether the match is over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "state")]
pub enum MatchStatus {
    /// More games to play.
    Running {
        /// Games played so far.
        games: usize,
    },
    /// Over; `winners` share first place.
    Finished {
        /// Seats in first place.
        winners: Vec<usize>,
    },
}

/// A match score sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatchSheet {
    games: Vec<GameScore>,
    totals: Vec<Total>,
}

impl MatchSheet {
    /// An empty sheet for `players` seats.
    pub fn new(players: usize) -> MatchSheet {
        MatchSheet {
            games: Vec::new(),
            totals: vec![Total::default(); players],
        }
    }

    /// The games recorded so far.
    pub fn games(&self) -> &[GameScore] {
        &self.games
    }

    /// The running totals, in seat order.
    pub fn totals(&self) -> &[Total] {
        &self.totals
    }

    /// Seats still in the match (all, unless eliminated).
    pub fn active(&self) -> Vec<usize> {
        (0..self.totals.len())
            .filter(|&i| self.totals[i].eliminated_after.is_none())
            .collect()
    }

    /// Add a game. Leaves the sheet unchanged on error.
    pub fn record(&mut self, rules: &Ruleset, score: GameScore) -> Result<(), SheetError> {
        if score.players.len() != self.totals.len() {
            return Err(SheetError::PlayerCount {
                expected: self.totals.len(),
                got: score.players.len(),
            });
        }
        if matches!(self.status(rules), MatchStatus::Finished { .. }) {
            return Err(SheetError::Finished);
        }
        for (i, p) in score.players.iter().enumerate() {
            if self.totals[i].eliminated_after.is_some() && (p.points != 0 || p.won) {
                return Err(SheetError::Eliminated(i));
            }
        }
        let game_no = self.games.len() + 1;
        let anlegen = rules.scoring.scheme == ScoringScheme::Anlegen;
        for (t, p) in self.totals.iter_mut().zip(&score.players) {
            if t.eliminated_after.is_some() {
                continue;
            }
            t.points += p.points;
            if anlegen {
                t.points = t.points.max(0);
            }
            if let Some(r) = p.rating {
                if r >= 0 {
                    t.rating_plus += i64::from(r);
                } else {
                    t.rating_minus += -i64::from(r);
                    t.minus_games += 1;
                }
            }
            if p.won {
                t.games_won += 1;
            }
            if rules.match_rules.end == MatchEnd::Elimination
                && t.points >= i64::from(rules.match_rules.limit)
            {
                t.eliminated_after = Some(game_no);
            }
        }
        self.games.push(score);
        Ok(())
    }

    /// Whether the match is over, and who won.
    pub fn status(&self, rules: &Ruleset) -> MatchStatus {
        let played = self.games.len();
        let m = &rules.match_rules;
        let over = match m.end {
            // The patience is one game, whatever the match rules say.
            _ if rules.deal.solo_patience => played >= 1,
            MatchEnd::Games => played >= usize::from(m.games),
            MatchEnd::Rounds => played >= usize::from(rules.rounds().unwrap_or(11)),
            MatchEnd::PenaltyLimit => self.totals.iter().any(|t| t.points >= i64::from(m.limit)),
            MatchEnd::Elimination => self.active().len() <= 1 && played > 0,
        };
        if !over {
            return MatchStatus::Running { games: played };
        }
        let winners = self
            .standings(rules, 0)
            .iter()
            .filter(|s| s.place == 1)
            .map(|s| s.seat)
            .collect();
        MatchStatus::Finished { winners }
    }

    /// The standings; `lot_seed` draws the lots a club series may need.
    ///
    /// A solo patience (`deal.solo_patience`) is won only when it came out
    /// (every hand laid down); until then, and when the stock ran out, its
    /// player has place 0 ([`Decider::NotOut`]), so a finished match that
    /// was lost has no winner.
    pub fn standings(&self, rules: &Ruleset, lot_seed: u64) -> Vec<Standing> {
        if rules.deal.solo_patience && !self.games.iter().any(|g| g.players.iter().any(|p| p.won)) {
            return (0..self.totals.len())
                .map(|seat| Standing {
                    seat,
                    place: 0,
                    total: self.totals[seat],
                    decided_by: Decider::NotOut,
                })
                .collect();
        }
        let mut seats: Vec<usize> = (0..self.totals.len()).collect();
        let t = &self.totals;
        match (rules.scoring.scheme, rules.match_rules.end) {
            (ScoringScheme::Club, _) => {
                seats.sort_by_key(|&i| (-t[i].net_rating(), t[i].points, -t[i].rating_plus));
                // Draw lots inside groups that no criterion separates.
                let mut rng = ChaCha8Rng::seed_from_u64(lot_seed);
                let key = |i: usize| (t[i].net_rating(), t[i].points, t[i].rating_plus);
                let mut start = 0;
                while start < seats.len() {
                    let mut end = start + 1;
                    while end < seats.len() && key(seats[end]) == key(seats[start]) {
                        end += 1;
                    }
                    seats[start..end].shuffle(&mut rng);
                    start = end;
                }
                let mut out = Vec::with_capacity(seats.len());
                for (k, &s) in seats.iter().enumerate() {
                    let decided_by = match k.checked_sub(1).map(|p| seats[p]) {
                        None => Decider::Main,
                        Some(prev) if t[prev].net_rating() != t[s].net_rating() => Decider::Main,
                        Some(prev) if t[prev].points != t[s].points => Decider::HandPoints,
                        Some(prev) if t[prev].rating_plus != t[s].rating_plus => {
                            Decider::PlusPoints
                        }
                        Some(_) => Decider::Lot,
                    };
                    out.push(Standing {
                        seat: s,
                        place: k + 1,
                        total: t[s],
                        decided_by,
                    });
                }
                out
            }
            (_, MatchEnd::Elimination) => {
                // Survivors first; the later a player went out, the better.
                let key = |i: usize| {
                    (
                        std::cmp::Reverse(t[i].eliminated_after.unwrap_or(usize::MAX)),
                        t[i].points,
                    )
                };
                seats.sort_by_key(|&i| key(i));
                shared_places(&seats, key, t)
            }
            _ => {
                seats.sort_by_key(|&i| t[i].points);
                shared_places(&seats, |i| t[i].points, t)
            }
        }
    }
}

fn shared_places<K: PartialEq>(
    seats: &[usize],
    key: impl Fn(usize) -> K,
    t: &[Total],
) -> Vec<Standing> {
    let mut out: Vec<Standing> = Vec::with_capacity(seats.len());
    for (k, &s) in seats.iter().enumerate() {
        let tied = k > 0 && key(seats[k - 1]) == key(s);
        let place = if tied { out[k - 1].place } else { k + 1 };
        if tied {
            out[k - 1].decided_by = Decider::Shared;
        }
        out.push(Standing {
            seat: s,
            place,
            total: t[s],
            decided_by: if tied { Decider::Shared } else { Decider::Main },
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::player as p;
    use crate::test_support::preset as rules;

    use crate::scoring::{GameResult, HandRommeKind, PlayerResult, score_game};

    fn play(sheet: &mut MatchSheet, r: &Ruleset, round: Option<u8>, players: Vec<PlayerResult>) {
        let s = score_game(r, &GameResult { round, players }).expect("scores");
        sheet.record(r, s).expect("records");
    }

    #[test]
    fn five_crowns_eleven_rounds_lowest_total_wins_ties_share() {
        let k = rules("koenigs");
        let mut sheet = MatchSheet::new(3);
        for round in 1..=11u8 {
            assert!(matches!(sheet.status(&k), MatchStatus::Running { .. }));
            // Seats 0 and 1 tie, seat 2 scores a king each round (13).
            play(
                &mut sheet,
                &k,
                Some(round),
                vec![p("", true, true), p("", false, true), p("Kh", false, true)],
            );
        }
        // Round 11: kings are wild and count 20.
        assert_eq!(sheet.totals()[2].points, 13 * 10 + 20);
        assert_eq!(
            sheet.status(&k),
            MatchStatus::Finished {
                winners: vec![0, 1]
            }
        );
        let st = sheet.standings(&k, 0);
        assert_eq!(st[0].place, 1);
        assert_eq!(st[1].place, 1);
        assert_eq!(st[1].decided_by, Decider::Shared);
        assert_eq!(st[2].place, 3);
        let extra = score_game(
            &k,
            &GameResult {
                round: Some(1),
                players: vec![p("", false, true); 3],
            },
        )
        .expect("scores");
        assert_eq!(sheet.record(&k, extra), Err(SheetError::Finished));
    }

    #[test]
    fn wiener_elimination_at_101() {
        let w = rules("wiener");
        let mut sheet = MatchSheet::new(3);
        // Seat 2 collects 60 points twice: out after game 2 (120 >= 101).
        play(
            &mut sheet,
            &w,
            None,
            vec![
                p("", true, true),
                p("5c", false, true),
                p("* * Kc Kd", false, true),
            ],
        );
        play(
            &mut sheet,
            &w,
            None,
            vec![
                p("", true, true),
                p("5c", false, true),
                p("* * Kc Kd", false, true),
            ],
        );
        assert_eq!(sheet.totals()[2].eliminated_after, Some(2));
        assert_eq!(sheet.active(), vec![0, 1]);
        assert!(matches!(sheet.status(&w), MatchStatus::Running { .. }));
        // An eliminated player cannot score.
        let bad = score_game(
            &w,
            &GameResult {
                round: None,
                players: vec![
                    p("", true, true),
                    p("5c", false, true),
                    p("5c", false, true),
                ],
            },
        )
        .expect("scores");
        assert_eq!(sheet.record(&w, bad), Err(SheetError::Eliminated(2)));
        // Seat 1 reaches 101.
        play(
            &mut sheet,
            &w,
            None,
            vec![
                p("", true, true),
                p("* * * * Ac", false, true),
                p("", false, false),
            ],
        );
        assert_eq!(sheet.totals()[1].points, 5 + 5 + 91);
        assert_eq!(sheet.status(&w), MatchStatus::Finished { winners: vec![0] });
        let order: Vec<usize> = sheet.standings(&w, 0).iter().map(|s| s.seat).collect();
        assert_eq!(order, vec![0, 1, 2], "later elimination ranks higher");
    }

    #[test]
    fn penalty_limit_ends_the_match() {
        let mut k = rules("klassisch");
        k.match_rules.end = MatchEnd::PenaltyLimit;
        k.match_rules.limit = 100;
        let mut sheet = MatchSheet::new(2);
        play(
            &mut sheet,
            &k,
            None,
            vec![p("", true, true), p("* * * * 10c", false, false)],
        );
        assert!(matches!(sheet.status(&k), MatchStatus::Running { .. }));
        play(
            &mut sheet,
            &k,
            None,
            vec![p("", true, true), p("10c", false, false)],
        );
        assert_eq!(sheet.status(&k), MatchStatus::Finished { winners: vec![0] });
    }

    #[test]
    fn anlegen_totals_never_go_below_zero() {
        let mut a = rules("anlegen");
        a.match_rules.games = 10;
        let mut sheet = MatchSheet::new(2);
        play(
            &mut sheet,
            &a,
            None,
            vec![p("", true, true), p("10c", false, true)],
        );
        assert_eq!(sheet.totals()[0].points, 0, "-40 from 0 stays 0");
        play(
            &mut sheet,
            &a,
            None,
            vec![p("* Kc", false, true), p("", true, true)],
        );
        play(
            &mut sheet,
            &a,
            None,
            vec![p("", true, true), p("2c", false, true)],
        );
        assert_eq!(sheet.totals()[0].points, 50 - 40);
    }

    #[test]
    fn club_series_tie_breaks_004_14() {
        let c = rules("club");
        let mut sheet = MatchSheet::new(3);
        let hr = PlayerResult {
            hand_romme: Some(HandRommeKind::Plain),
            ..p("", true, true)
        };
        // Game 1: seat 0 Hand-Rommé (10), seat 1 not opened >100 (-1), seat 2 opened 5 points (3).
        play(
            &mut sheet,
            &c,
            None,
            vec![hr, p("* * * * * Ac", false, false), p("5c", false, true)],
        );
        // Game 2: seat 1 goes out (5), seat 0 not opened 12 points (0), seat 2 opened 31 (1).
        play(
            &mut sheet,
            &c,
            None,
            vec![
                p("10c 2c", false, false),
                p("", true, true),
                p("* Ac", false, true),
            ],
        );
        let t = sheet.totals();
        assert_eq!(
            (t[0].net_rating(), t[1].net_rating(), t[2].net_rating()),
            (10, 4, 4)
        );
        assert_eq!(
            (t[1].rating_plus, t[1].rating_minus, t[1].minus_games),
            (5, 1, 1)
        );
        let st = sheet.standings(&c, 0);
        assert_eq!(st[0].seat, 0);
        // Seats 1 and 2 tie on net rating 4: hand points decide (36 before 111).
        assert_eq!((st[1].seat, st[1].decided_by), (2, Decider::Main));
        assert_eq!((st[2].seat, st[2].decided_by), (1, Decider::HandPoints));
    }

    #[test]
    fn club_tie_on_everything_is_drawn_by_a_seeded_lot() {
        let c = rules("club");
        let mut sheet = MatchSheet::new(3);
        play(
            &mut sheet,
            &c,
            None,
            vec![
                p("", true, true),
                p("5c", false, true),
                p("5d", false, true),
            ],
        );
        let a = sheet.standings(&c, 7);
        assert_eq!(a, sheet.standings(&c, 7), "same seed, same lot");
        assert_eq!(a[0].seat, 0);
        assert_eq!(a[2].decided_by, Decider::Lot);
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..32 {
            seen.insert(sheet.standings(&c, seed)[1].seat);
        }
        assert_eq!(seen.len(), 2, "both tied players can win the lot");
    }

    #[test]
    fn wrong_player_count_leaves_the_sheet_unchanged() {
        let k = rules("klassisch");
        let mut sheet = MatchSheet::new(3);
        let s = score_game(
            &k,
            &GameResult {
                round: None,
                players: vec![p("", true, true), p("5c", false, false)],
            },
        )
        .expect("scores");
        let before = sheet.clone();
        assert!(matches!(
            sheet.record(&k, s),
            Err(SheetError::PlayerCount {
                expected: 3,
                got: 2
            })
        ));
        assert_eq!(sheet, before);
    }

    /// `000`: "Der Spieler gewinnt, wenn er alle Kartenhände ablegen kann,
    /// bis der Nachziehstapel leer ist" — a patience that did not come out
    /// is lost: its only player has no place and the match no winner.
    #[test]
    fn a_solo_patience_is_won_only_when_it_came_out() {
        let solo = rules("koenigs-solo");
        let mut lost = MatchSheet::new(1);
        play(
            &mut lost,
            &solo,
            Some(11),
            vec![p("Kh 3c 9d", false, false)],
        );
        assert_eq!(
            lost.status(&solo),
            MatchStatus::Finished { winners: vec![] }
        );
        let st = lost.standings(&solo, 0);
        assert_eq!((st[0].place, st[0].decided_by), (0, Decider::NotOut));

        let mut won = MatchSheet::new(1);
        play(&mut won, &solo, Some(11), vec![p("", true, true)]);
        assert_eq!(
            won.status(&solo),
            MatchStatus::Finished { winners: vec![0] }
        );
        let st = won.standings(&solo, 0);
        assert_eq!((st[0].place, st[0].decided_by), (1, Decider::Main));
    }
}
