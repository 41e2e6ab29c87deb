//! Penalty points of cards left in a hand (§3, table 3), per ruleset and
//! (for Five Crowns) round.

use crate::card::{CardKind, Rank};
use crate::ruleset::Ruleset;

/// Penalty points of one card. 2–10 count their face value; J, Q, K, ace and
/// joker per the ruleset; in Five Crowns a card of the round's wild rank
/// counts `penalty.round_wild` (`round` is ignored without round wilds).
pub fn card_points(rules: &Ruleset, card: CardKind, round: Option<u8>) -> u32 {
    let p = &rules.penalty;
    let face = match card {
        CardKind::Joker => return u32::from(p.joker),
        CardKind::Natural(f) => f,
    };
    if round.and_then(|r| rules.round_wild_rank(r)) == Some(face.rank) {
        return u32::from(p.round_wild);
    }
    match face.rank {
        Rank::Jack => u32::from(p.jack),
        Rank::Queen => u32::from(p.queen),
        Rank::King => u32::from(p.king),
        Rank::Ace => u32::from(p.ace),
        r => u32::from(r.number()),
    }
}

/// Penalty points of a hand.
pub fn hand_points(rules: &Ruleset, hand: &[CardKind], round: Option<u8>) -> u32 {
    hand.iter().map(|&c| card_points(rules, c, round)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_cards;
    use crate::test_support::preset as rules;

    #[test]
    fn worked_example_002_is_107() {
        // 002: "1 As, 1 König, 2 Damen, 2 Achten, 1 Zehn und 1 Joker ... = 107"
        let hand = parse_cards("Ah Kc Qh Qs 8d 8c 10h *").expect("cards");
        assert_eq!(hand_points(&rules("bieten"), &hand, None), 107);
        // The same hand under 003 (joker 20): 87.
        assert_eq!(hand_points(&rules("klassisch"), &hand, None), 87);
    }

    #[test]
    fn five_crowns_values_000() {
        let k = rules("koenigs");
        let v = |s: &str, round| card_points(&k, s.parse().expect(s), round);
        assert_eq!(v("3h", Some(2)), 3, "3-10 face value");
        assert_eq!(v("10x", Some(2)), 10);
        assert_eq!(v("Jx", Some(2)), 11, "Bube 11");
        assert_eq!(v("Qx", Some(2)), 12, "Dame 12");
        assert_eq!(v("Kx", Some(2)), 13, "König 13");
        assert_eq!(v("*", Some(2)), 50, "Joker 50");
        assert_eq!(v("4d", Some(2)), 20, "round 2: fours are wild, 20");
        assert_eq!(v("Kd", Some(11)), 20, "round 11: kings are wild");
        assert_eq!(v("4d", Some(3)), 4);
    }

    #[test]
    fn club_hand_points_004_11() {
        let c = rules("club");
        let hand = parse_cards("* Ah Kh 2c").expect("cards");
        assert_eq!(hand_points(&c, &hand, None), 20 + 11 + 10 + 2);
    }
}
