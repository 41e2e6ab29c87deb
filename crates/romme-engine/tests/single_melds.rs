//! The single melds the engine lists for a hand carry their declarations;
//! the opening search uses those without checking the melds again, which
//! is only right if checking a meld's ordered cards gives the same reading.
//! This holds it to that on random hands of every preset (Five Crowns in
//! several rounds, for its round wilds).

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use romme_core::CardKind;
use romme_core::meld::MeldChecker;
use romme_core::ruleset::presets;
use romme_engine::legal::single_meld_declarations;

#[test]
fn declarations_equal_what_checking_the_meld_gives() {
    let mut melds_seen = 0usize;
    let mut wild_melds = 0usize;
    for name in presets::NAMES {
        let Some(Ok(rules)) = presets::load(name) else {
            continue;
        };
        let rounds: Vec<Option<u8>> = if rules.melds.wilds.round_wild {
            (1..=11).map(Some).collect()
        } else {
            vec![None]
        };
        for round in rounds {
            let Ok(checker) = MeldChecker::new(&rules, round) else {
                continue;
            };
            let deck: Vec<CardKind> = rules.deck.cards().iter().map(|c| c.kind()).collect();
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            // Five Crowns hands hold many wild cards and so many melds.
            let hands = if round.is_some() { 6 } else { 40 };
            for _ in 0..hands {
                let mut cards = deck.clone();
                cards.shuffle(&mut rng);
                // Five Crowns holds round + 3 cards at most (after drawing).
                let size = round.map_or(14, |r| usize::from(r) + 3).min(14);
                let mut hand: Vec<CardKind> = cards[..size].to_vec();
                hand.sort_unstable();
                for d in single_meld_declarations(&checker, &rules, &hand) {
                    let checked = checker.check(&d.ordered).unwrap_or_else(|e| {
                        panic!(
                            "{name} round {round:?}: {:?} does not check: {e}",
                            d.ordered
                        )
                    });
                    assert_eq!(checked.kind, d.kind, "{name}: {:?}", d.ordered);
                    assert_eq!(checked.ordered, d.ordered, "{name}");
                    assert_eq!(checked.value, d.value, "{name}: {:?}", d.ordered);
                    assert_eq!(checked.wilds, d.wilds, "{name}: {:?}", d.ordered);
                    melds_seen += 1;
                    wild_melds += usize::from(d.wilds > 0);
                }
            }
        }
    }
    assert!(melds_seen > 1000, "only {melds_seen} melds compared");
    assert!(wild_melds > 100, "only {wild_melds} melds with wild cards");
}
