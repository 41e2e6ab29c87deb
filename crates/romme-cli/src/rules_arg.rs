//! Turning a `--rules NAME|FILE` argument into a resolved ruleset: a preset
//! name, or a TOML file whose `base` may name a preset or another file
//! (relative to the file's folder).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use romme_core::ruleset::{Resolved, presets, resolve_with};

/// Resolve a preset name or a ruleset file.
pub fn resolve_rules(arg: &str) -> Result<Resolved> {
    if let Some(resolved) = presets::resolve_preset(arg) {
        return Ok(resolved?);
    }
    let path = Path::new(arg);
    if !path.exists() {
        bail!(
            "no preset or file named '{arg}' (presets: {})",
            presets::NAMES.join(", ")
        );
    }
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read ruleset file {}", path.display()))?;
    let dir: PathBuf = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let lookup = |name: &str| {
        if presets::text(name).is_some() {
            return None; // presets win; the core resolves them
        }
        let p = dir.join(name);
        std::fs::read_to_string(&p)
            .ok()
            .map(|t| (p.display().to_string(), t))
    };
    Ok(resolve_with(arg, &text, &lookup)?)
}
