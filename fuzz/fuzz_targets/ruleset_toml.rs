//! Any text as a ruleset file: loading never panics; what loads validates
//! and resolves every knob.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(resolved) = romme_core::ruleset::resolve("fuzz.toml", text) {
        assert!(resolved.ruleset.validate().is_ok());
        assert!(!resolved.knobs.is_empty());
    }
});
