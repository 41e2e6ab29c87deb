//! End-of-game scoring for every scheme of `RULES.md` §7: plain data in,
//! plain data out, so that the engine and a club's paper score sheet can use
//! it alike. Match totals, standings and money live in [`sheet`] and [`money`].
//!
//! Readings:
//! * "Penalty" scoring: every player scores the penalty points of the cards
//!   left in the hand — in concealed play the cards outside melds, in "Rommé
//!   bieten" the caller's rest too (`002`: "Jedem Spieler werden so viele
//!   Verlustpunkte angeschrieben, wie er noch Augen in seinen Karten hat").
//!   After a Hand-Rommé everyone else's points are multiplied.
//! * "Anlegen" (`002`): the winner has 40 struck, a player left with exactly
//!   one joker has 20 struck (after scoring the joker as usual), and the first
//!   player to meld who does not win gets 20 added. Totals never go below 0
//!   (points are struck "aus dem vorangegangenen Spiel").
//! * "Club" (`004` 12): rating points from the tiers; hand points recorded
//!   alongside (the winner's are 0).

pub mod money;
pub mod sheet;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::card::CardKind;
use crate::penalty::hand_points;
use crate::ruleset::{Ruleset, ScoringScheme, Tier};

/// How a Hand-Rommé was made (`004` 10, 12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HandRommeKind {
    /// Only own melds.
    Plain,
    /// With laying off on others' melds or a joker exchange.
    WithLayOffs,
}

/// One player's situation at the end of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerResult {
    /// Cards that count against the player: the hand (concealed play: the
    /// cards outside melds).
    #[serde(default)]
    pub hand: Vec<CardKind>,
    /// This player ended the game by going out, calling Rommé or laying down.
    #[serde(default)]
    pub went_out: bool,
    /// The player had made the opening (melded) before the game ended.
    #[serde(default)]
    pub opened: bool,
    /// The player went out by Hand-Rommé.
    #[serde(default)]
    pub hand_romme: Option<HandRommeKind>,
    /// The player was the first to meld in this game (`002` Anlegen).
    #[serde(default)]
    pub first_to_meld: bool,
}

/// One game's outcome as the scorer needs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// Five Crowns round (1..=11), for the wild rank's penalty.
    #[serde(default)]
    pub round: Option<u8>,
    /// Every player of the game, in seat order.
    pub players: Vec<PlayerResult>,
}

/// A change to a player's points with its reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjustment {
    /// Why (`"winner-strike"`, `"single-joker-strike"`, `"first-melder-penalty"`, `"hand-romme"`).
    pub reason: String,
    /// Points added (negative: struck).
    pub points: i64,
}

/// One player's score for a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerScore {
    /// Penalty points of the cards left (before multipliers and bonuses).
    pub hand_points: u32,
    /// Points added to the match total (penalty schemes), after Hand-Rommé
    /// multiplier and bonuses.
    pub points: i64,
    /// The adjustments included in `points`.
    pub adjustments: Vec<Adjustment>,
    /// Club rating points (`club` scheme only).
    pub rating: Option<i8>,
    /// This player won the game.
    pub won: bool,
}

/// The scores of one game, in seat order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameScore {
    /// Per player.
    pub players: Vec<PlayerScore>,
}

/// A game result that cannot be scored.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScoringError {
    /// No players.
    #[error("a game needs at least one player")]
    NoPlayers,
    /// More than one player went out.
    #[error("only one player can go out, players {0:?} did")]
    SeveralWinners(Vec<usize>),
    /// Hand-Rommé by a player who did not go out.
    #[error("player {0} made a Hand-Rommé but did not go out")]
    HandRommeWithoutGoingOut(usize),
    /// More than one first melder.
    #[error("only one player can meld first, players {0:?} are marked")]
    SeveralFirstMelders(Vec<usize>),
    /// A card that is not in the deck.
    #[error("player {player}: {card} is not in this ruleset's deck")]
    NotInDeck {
        /// Seat.
        player: usize,
        /// The card.
        card: CardKind,
    },
    /// The ruleset has round wilds and the round is missing or wrong.
    #[error("this ruleset needs the round (1-{max}) to score wild cards")]
    Round {
        /// Highest round.
        max: u8,
    },
}

fn tier_rating(tiers: &[Tier], above: i8, points: u32) -> i8 {
    tiers
        .iter()
        .find(|t| points <= t.max_points)
        .map_or(above, |t| t.rating)
}

/// Club rating points (`004` 12) for one player.
pub fn club_rating(rules: &Ruleset, p: &PlayerResult, hand_points: u32) -> i8 {
    let c = &rules.scoring.club;
    match (p.went_out, p.hand_romme) {
        (true, Some(HandRommeKind::Plain)) => c.hand_romme,
        (true, Some(HandRommeKind::WithLayOffs)) => c.hand_romme_with_lay_offs,
        (true, None) => c.went_out,
        (false, _) if p.opened => tier_rating(&c.opened, c.opened_above, hand_points),
        (false, _) => tier_rating(&c.not_opened, c.not_opened_above, hand_points),
    }
}

/// Score one game under the ruleset's scheme.
pub fn score_game(rules: &Ruleset, game: &GameResult) -> Result<GameScore, ScoringError> {
    let n = game.players.len();
    if n == 0 {
        return Err(ScoringError::NoPlayers);
    }
    if rules.melds.wilds.round_wild {
        let max = rules.deck.kind.ranks().len() as u8;
        if !game.round.is_some_and(|r| (1..=max).contains(&r)) {
            return Err(ScoringError::Round { max });
        }
    }
    let winners: Vec<usize> = (0..n).filter(|&i| game.players[i].went_out).collect();
    if winners.len() > 1 {
        return Err(ScoringError::SeveralWinners(winners));
    }
    let first: Vec<usize> = (0..n).filter(|&i| game.players[i].first_to_meld).collect();
    if first.len() > 1 {
        return Err(ScoringError::SeveralFirstMelders(first));
    }
    for (i, p) in game.players.iter().enumerate() {
        if p.hand_romme.is_some() && !p.went_out {
            return Err(ScoringError::HandRommeWithoutGoingOut(i));
        }
        if let Some(&card) = p.hand.iter().find(|c| !rules.deck.has_kind(**c)) {
            return Err(ScoringError::NotInDeck { player: i, card });
        }
    }
    let winner = winners.first().copied();
    let hand_romme =
        winner.is_some_and(|w| game.players[w].hand_romme.is_some()) && rules.hand_romme.enabled;
    let scheme = rules.scoring.scheme;
    let players = game
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let hand = hand_points(rules, &p.hand, game.round);
            let mut adjustments = Vec::new();
            let mut points = i64::from(hand);
            let is_winner = winner == Some(i);
            if hand_romme
                && !is_winner
                && matches!(scheme, ScoringScheme::Penalty | ScoringScheme::Anlegen)
            {
                let m = i64::from(rules.scoring.hand_romme_multiplier);
                if m != 1 {
                    adjustments.push(Adjustment {
                        reason: "hand-romme".into(),
                        points: points * (m - 1),
                    });
                    points *= m;
                }
            }
            if scheme == ScoringScheme::Anlegen {
                let b = &rules.scoring.anlegen;
                let mut adjust = |reason: &str, delta: i64| {
                    adjustments.push(Adjustment {
                        reason: reason.into(),
                        points: delta,
                    });
                    points += delta;
                };
                if is_winner {
                    adjust("winner-strike", -i64::from(b.winner_strike));
                }
                if !is_winner && p.hand == [CardKind::Joker] {
                    adjust("single-joker-strike", -i64::from(b.single_joker_strike));
                }
                if p.first_to_meld && !is_winner && winner.is_some() {
                    adjust("first-melder-penalty", i64::from(b.first_melder_penalty));
                }
            }
            let rating = (scheme == ScoringScheme::Club).then(|| club_rating(rules, p, hand));
            PlayerScore {
                hand_points: hand,
                points,
                adjustments,
                rating,
                won: is_winner,
            }
        })
        .collect();
    Ok(GameScore { players })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_cards;
    use crate::test_support::preset as rules;

    fn player(hand: &str) -> PlayerResult {
        PlayerResult {
            hand: parse_cards(hand).expect(hand),
            went_out: false,
            opened: false,
            hand_romme: None,
            first_to_meld: false,
        }
    }

    fn winner() -> PlayerResult {
        PlayerResult {
            went_out: true,
            opened: true,
            ..player("")
        }
    }

    #[test]
    fn basic_scoring_and_hand_romme_doubles_003() {
        let k = rules("klassisch");
        let game = GameResult {
            round: None,
            players: vec![winner(), player("Ah Kc"), player("* 2c")],
        };
        let s = score_game(&k, &game).expect("scores");
        let pts: Vec<i64> = s.players.iter().map(|p| p.points).collect();
        assert_eq!(pts, vec![0, 21, 22]);
        assert!(s.players[0].won);

        let mut hr = game.clone();
        hr.players[0].hand_romme = Some(HandRommeKind::Plain);
        let s = score_game(&k, &hr).expect("scores");
        let pts: Vec<i64> = s.players.iter().map(|p| p.points).collect();
        assert_eq!(pts, vec![0, 42, 44], "003: Handrommé doubles");
        // The other side of the knob: no Hand-Rommé in 001 (multiplier 1, not enabled).
        let s = score_game(&rules("offen"), &hr).expect("scores");
        assert_eq!(s.players[1].points, 21);
    }

    #[test]
    fn romme_bieten_with_limit_9_002() {
        // 002: ♦3 ♦4 ♦6 ♦7 ♦9 ♦Q, draws ♦5, discards ♦Q, melds ♦3-♦7, keeps ♦9:
        // 9 <= 9, so he calls Rommé and wins; the 9 stays on his list.
        let b = rules("bieten");
        let rest = parse_cards("9d").expect("card");
        assert!(hand_points(&b, &rest, None) <= u32::from(b.going_out.rest_allowed));
        let game = GameResult {
            round: None,
            players: vec![
                PlayerResult {
                    hand: rest,
                    ..winner()
                },
                player("Ah Kc Qh Qs 8d 8c 10h *"),
            ],
        };
        let s = score_game(&b, &game).expect("scores");
        assert_eq!(s.players[0].points, 9);
        assert!(s.players[0].won);
        assert_eq!(s.players[1].points, 107);
    }

    #[test]
    fn anlegen_bonuses_002() {
        let a = rules("anlegen");
        let game = GameResult {
            round: None,
            players: vec![
                winner(),
                PlayerResult {
                    first_to_meld: true,
                    opened: true,
                    ..player("5c")
                },
                player("*"),
            ],
        };
        let s = score_game(&a, &game).expect("scores");
        assert_eq!(s.players[0].points, -40, "winner: 40 struck");
        assert_eq!(
            s.players[1].points,
            5 + 20,
            "first melder who did not win: +20"
        );
        assert_eq!(s.players[2].points, 40 - 20, "only a joker left: 20 struck");
        // Other side: no bonuses under the penalty scheme.
        let s = score_game(&rules("bieten"), &game).expect("scores");
        assert_eq!(s.players[0].points, 0);
        assert_eq!(s.players[2].points, 40);
    }

    #[test]
    fn club_rating_every_tier_004_12() {
        let c = rules("club");
        let rate = |p: PlayerResult| {
            let pts = hand_points(&c, &p.hand, None);
            club_rating(&c, &p, pts)
        };
        let hr = |kind| PlayerResult {
            hand_romme: Some(kind),
            ..winner()
        };
        assert_eq!(rate(hr(HandRommeKind::Plain)), 10);
        assert_eq!(rate(hr(HandRommeKind::WithLayOffs)), 8);
        assert_eq!(rate(winner()), 5);
        let opened = |h: &str| PlayerResult {
            opened: true,
            ..player(h)
        };
        assert_eq!(rate(opened("10c")), 3, "opened, 10 points");
        assert_eq!(rate(opened("10c 2c")), 2, "opened, 12 points");
        assert_eq!(rate(opened("* 10c")), 2, "opened, 30 points");
        assert_eq!(rate(opened("* 10c Ac")), 1, "opened, 41 points");
        assert_eq!(rate(player("* * * * 10c 10d")), 0, "not opened, 100 points");
        assert_eq!(rate(player("* * * * * Ac")), -1, "not opened, 111 points");
        // Stock exhausted (004 5): nobody went out, everyone is rated by tiers.
        let game = GameResult {
            round: None,
            players: vec![opened("2c"), player("Kc"), opened("* * 10c")],
        };
        let s = score_game(&c, &game).expect("scores");
        let ratings: Vec<Option<i8>> = s.players.iter().map(|p| p.rating).collect();
        assert_eq!(ratings, vec![Some(3), Some(0), Some(1)]);
        assert!(s.players.iter().all(|p| !p.won));
    }
}
