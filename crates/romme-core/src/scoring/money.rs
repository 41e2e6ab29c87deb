//! Money settlement (§7): per-point payments to the winner (`001`, `002`:
//! 10 points = 1 cent), payments for going out (Wiener), and the pot of
//! entry and minus-game fees paid out by final place (`004` 15, Wiener's
//! stake). Amounts are whole cents; every vector is in seat order and sums
//! to zero (money only changes hands).

use serde::Serialize;

use super::GameScore;
use super::sheet::{MatchSheet, Standing};
use crate::ruleset::Ruleset;

/// Cents for `points` at `cents` per `per_points`, rounded half up.
fn per_point(points: i64, cents: u32, per_points: u32) -> i64 {
    if per_points == 0 || points <= 0 {
        return 0;
    }
    let num = points * i64::from(cents);
    let den = i64::from(per_points);
    (2 * num + den) / (2 * den)
}

/// Payments of one game: every loser pays the winner for their points, and
/// the going-out payment. Zero everywhere when money is off or nobody won.
pub fn game_payments(rules: &Ruleset, score: &GameScore) -> Vec<i64> {
    let n = score.players.len();
    let mut net = vec![0i64; n];
    let m = &rules.money;
    let Some(w) = score.players.iter().position(|p| p.won) else {
        return net;
    };
    if !m.enabled {
        return net;
    }
    for (i, p) in score.players.iter().enumerate() {
        if i == w {
            continue;
        }
        let pay = per_point(p.points, m.cents, m.per_points) + i64::from(m.going_out_payment);
        net[i] -= pay;
        net[w] += pay;
    }
    net
}

/// The money of a whole match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Settlement {
    /// Entry and minus-game fees paid into the pot, per seat (positive).
    pub fees: Vec<i64>,
    /// Prizes from the pot, per seat.
    pub prizes: Vec<i64>,
    /// Sum of the per-game payments, per seat.
    pub game_payments: Vec<i64>,
    /// What each seat wins (positive) or loses in all.
    pub net: Vec<i64>,
    /// The pot.
    pub pot: i64,
}

/// Settle a match from its sheet and final standings.
pub fn settle(rules: &Ruleset, sheet: &MatchSheet, standings: &[Standing]) -> Settlement {
    let n = sheet.totals().len();
    let m = &rules.money;
    let zero = vec![0i64; n];
    if !m.enabled {
        return Settlement {
            fees: zero.clone(),
            prizes: zero.clone(),
            game_payments: zero.clone(),
            net: zero,
            pot: 0,
        };
    }
    let fees: Vec<i64> = sheet
        .totals()
        .iter()
        .map(|t| i64::from(m.entry_fee) + i64::from(m.minus_game_fee) * i64::from(t.minus_games))
        .collect();
    let pot: i64 = fees.iter().sum();
    // Share of each place; players sharing a place split its shares equally.
    // Place 0 (a lost solo patience) has no share.
    let share = |place: usize| {
        let i = place.checked_sub(1);
        i64::from(i.and_then(|i| m.prize_shares.get(i)).copied().unwrap_or(0))
    };
    let mut prizes = vec![0i64; n];
    let mut k = 0;
    while k < standings.len() {
        let place = standings[k].place;
        let group: Vec<usize> = standings[k..]
            .iter()
            .take_while(|s| s.place == place)
            .map(|s| s.seat)
            .collect();
        let percent: i64 = (place..place + group.len()).map(share).sum();
        let amount = pot * percent / 100;
        let each = amount / group.len() as i64;
        for (j, &seat) in group.iter().enumerate() {
            prizes[seat] = each + i64::from(j == 0) * (amount - each * group.len() as i64);
        }
        k += group.len();
    }
    // Cents lost to rounding go to the first place.
    let rest = pot - prizes.iter().sum::<i64>();
    if let Some(first) = standings.first().filter(|s| s.place > 0) {
        prizes[first.seat] += rest;
    }
    let mut game_payments = vec![0i64; n];
    for g in sheet.games() {
        for (acc, x) in game_payments.iter_mut().zip(self::game_payments(rules, g)) {
            *acc += x;
        }
    }
    let net = (0..n)
        .map(|i| prizes[i] - fees[i] + game_payments[i])
        .collect();
    Settlement {
        fees,
        prizes,
        game_payments,
        net,
        pot,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::player as p;
    use crate::test_support::preset as rules;

    use crate::scoring::{GameResult, score_game};

    #[test]
    fn ten_points_make_a_cent_002() {
        let mut b = rules("bieten");
        b.money.enabled = true;
        let s = score_game(
            &b,
            &GameResult {
                round: None,
                players: vec![
                    p("", true, true),
                    p("Ah Kc Qh Qs 8d 8c 10h *", false, true),
                    p("4c", false, false),
                ],
            },
        )
        .expect("scores");
        // 107 points -> 10.7 cents -> 11; 4 points -> 0.4 -> 0.
        assert_eq!(game_payments(&b, &s), vec![11, -11, 0]);
        b.money.enabled = false;
        assert_eq!(
            game_payments(&b, &s),
            vec![0, 0, 0],
            "the other side: no money"
        );
    }

    #[test]
    fn club_fees_and_pot_004_15() {
        let c = rules("club");
        let mut sheet = MatchSheet::new(3);
        let s = score_game(
            &c,
            &GameResult {
                round: None,
                players: vec![
                    p("", true, true),
                    p("* * * * * Ac", false, false),
                    p("5c", false, true),
                ],
            },
        )
        .expect("scores");
        assert_eq!(
            game_payments(&c, &s),
            vec![0, 0, 0],
            "no payment per point in 004"
        );
        sheet.record(&c, s).expect("records");
        let st = sheet.standings(&c, 0);
        let money = settle(&c, &sheet, &st);
        assert_eq!(
            money.fees,
            vec![500, 550, 500],
            "5 EUR entry, 0.50 EUR for the -1 game"
        );
        assert_eq!(money.pot, 1550);
        assert_eq!(money.prizes, vec![1550, 0, 0], "paid out in full");
        assert_eq!(money.net.iter().sum::<i64>(), 0);
        let mut split = c.clone();
        split.money.prize_shares = vec![50, 30, 20];
        let money = settle(&split, &sheet, &st);
        assert_eq!(money.prizes.iter().sum::<i64>(), 1550);
        assert_eq!(money.prizes[0], 775);
    }

    /// A solo patience played for an entry fee: lost, it has no place and
    /// pays out nothing (no place 0 - 1 looked up); won, the pot comes back.
    #[test]
    fn a_lost_patience_wins_no_prize() {
        let mut solo = rules("koenigs-solo");
        solo.money.enabled = true;
        solo.money.entry_fee = 100;
        solo.money.prize_shares = vec![100];
        // The money of a one-game patience with this hand left, out or not.
        let money_of = |hand: &str, out: bool| {
            let mut sheet = MatchSheet::new(1);
            let game = GameResult {
                round: Some(11),
                players: vec![p(hand, out, out)],
            };
            let s = score_game(&solo, &game).expect("scores");
            sheet.record(&solo, s).expect("records");
            settle(&solo, &sheet, &sheet.standings(&solo, 0))
        };
        let money = money_of("Kh 3c 9d", false);
        assert_eq!((money.pot, money.prizes[0], money.net[0]), (100, 0, -100));
        let money = money_of("", true);
        assert_eq!((money.prizes[0], money.net[0]), (100, 0));
    }
}
