//! Any text: parsing a card never panics, and what parses prints canonically
//! and parses back to the same card.
#![no_main]

use libfuzzer_sys::fuzz_target;
use romme_core::MeldCard;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(card) = text.parse::<MeldCard>() {
        let printed = card.to_string();
        assert!(printed.is_ascii());
        assert_eq!(printed.parse::<MeldCard>(), Ok(card));
    }
    let _ = romme_core::notation::parse_cards(text);
});
