//! The shipped presets: one TOML file per variant in `rulesets/`, embedded
//! at compile time so the library needs no file access.

use super::{LoadError, Resolved, Ruleset, resolve};

macro_rules! presets {
    ($($name:literal),* $(,)?) => {
        /// Names of all presets, in the order they are listed.
        pub const NAMES: &[&str] = &[$($name),*];

        /// The TOML text of a preset.
        pub fn text(name: &str) -> Option<&'static str> {
            match name {
                $($name => Some(include_str!(concat!("../../../../rulesets/", $name, ".toml"))),)*
                _ => None,
            }
        }
    };
}

presets!(
    "klassisch",
    "offen",
    "bieten",
    "kaufen",
    "anlegen",
    "raeuber",
    "klopfen",
    "ohne-auslegen",
    "wiener",
    "club",
    "koenigs",
    "koenigs-solo",
);

/// The origin name used in messages and provenance for a preset.
pub fn origin(name: &str) -> String {
    format!("rulesets/{name}.toml")
}

/// Load a preset with provenance. `None` if there is no such preset.
pub fn resolve_preset(name: &str) -> Option<Result<Resolved, LoadError>> {
    text(name).map(|t| resolve(&origin(name), t))
}

/// Load a preset. `None` if there is no such preset; an error only if a
/// shipped file is broken (the test suite loads every preset).
pub fn load(name: &str) -> Option<Result<Ruleset, LoadError>> {
    resolve_preset(name).map(|r| r.map(|r| r.ruleset))
}
