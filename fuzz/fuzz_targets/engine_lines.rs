//! Arbitrary text as request lines for the `romme engine` driver: every
//! line gets an answer (JSON or an error message), nothing panics, and a
//! JSON answer parses.
#![no_main]

use libfuzzer_sys::fuzz_target;
use romme_engine::driver::{Driver, presets_only};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut driver = Driver::new();
    // A game to act on, so that action lines reach the engine.
    let _ = driver.answer(r#"{"cmd":"new","rules":"klassisch","seats":3,"seed":1}"#, &presets_only);
    for line in text.lines().take(64) {
        if let Ok(json) = driver.answer(line, &presets_only) {
            assert!(serde_json::from_str::<serde_json::Value>(&json).is_ok());
        }
    }
});
