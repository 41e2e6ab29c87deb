//! Arbitrary bytes as actions for `Game::apply`: the first bytes choose a
//! preset, the seats and the seed; then every three bytes are one action by
//! one seat — a listed legal action, or one built from the bytes (usually
//! illegal). A refused action leaves the game exactly as it was; an accepted
//! one never creates or loses a card; nothing panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use romme_core::ruleset::presets;
use romme_core::{CardKind, MeldCard};
use romme_engine::{Action, DrawSource, Game, LayOffPart};

fn card(deck: &[CardKind], b: u8) -> CardKind {
    deck[usize::from(b) % deck.len()]
}

fn built(deck: &[CardKind], kind: u8, b: u8) -> Action {
    let c = card(deck, b);
    let mc = |x: u8| MeldCard::plain(card(deck, x));
    match kind % 12 {
        0 => Action::Draw {
            from: DrawSource::Stock,
        },
        1 => Action::Draw {
            from: DrawSource::Discard,
        },
        2 => Action::Draw {
            from: DrawSource::Pile(usize::from(b % 4)),
        },
        3 => Action::Discard { card: c },
        4 => Action::Meld {
            melds: vec![vec![mc(b), mc(b.wrapping_add(1)), mc(b.wrapping_add(2))]],
            lay_offs: vec![LayOffPart {
                meld: usize::from(b % 3),
                cards: vec![mc(b.wrapping_mul(7))],
            }],
        },
        5 => Action::LayOff {
            meld: usize::from(b % 5),
            cards: vec![mc(b)],
        },
        6 => Action::ExchangeJoker {
            meld: usize::from(b % 5),
            card: c,
        },
        7 => Action::CallRomme {
            discard: (b % 2 == 0).then_some(c),
        },
        8 => Action::LayDown {
            melds: vec![vec![mc(b), mc(b.wrapping_add(13)), mc(b.wrapping_add(26))]],
            discard: Some(card(deck, b.wrapping_mul(3))),
        },
        9 => Action::Rearrange {
            table: vec![vec![mc(b), mc(b.wrapping_add(1)), mc(b.wrapping_add(2))]],
        },
        10 => Action::Place {
            hand: usize::from(b % 12),
            out: c,
        },
        _ => match b % 3 {
            0 => Action::Buy,
            1 => Action::Knock,
            _ => Action::EndTurn,
        },
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let name = presets::NAMES[usize::from(data[0]) % presets::NAMES.len()];
    let Some(Ok(rules)) = presets::load(name) else {
        return;
    };
    let seats = 1 + usize::from(data[1] % 5);
    let Ok(mut game) = Game::new(rules.clone(), seats, u64::from(data[2])) else {
        return;
    };
    let deck: Vec<CardKind> = rules.deck.cards().iter().map(|c| c.kind()).collect();
    for chunk in data[3..].chunks_exact(3) {
        let seat = usize::from(chunk[0]) % (seats + 1);
        let action = if chunk[1] < 128 {
            let legal = game.legal_actions(seat);
            if legal.is_empty() {
                continue;
            }
            legal[usize::from(chunk[2]) % legal.len()].clone()
        } else {
            built(&deck, chunk[1], chunk[2])
        };
        let before = game.clone();
        match game.apply(seat, action) {
            Ok(_) => {
                assert!(rules.deck.check_conservation(game.all_cards()).is_ok());
            }
            Err(_) => assert!(game == before, "a refused action changed the game"),
        }
    }
});
