//! Every knob, both sides: each knob of the ruleset can be set to each of its
//! values in a user file (`base = PRESET` plus one override) — accepted by at
//! least one preset and visible in the resolved ruleset — and a value of the
//! wrong type is rejected naming exactly that key and its line.
//!
//! The behaviour behind the knobs is tested where it lives (melds, opening,
//! penalty, scoring here; turns in the engine).

use romme_core::ruleset::{Knob, LoadError, presets, resolve};

fn knobs(preset: &str) -> Vec<Knob> {
    presets::resolve_preset(preset)
        .expect("exists")
        .expect("loads")
        .knobs
}

/// A user file overriding one dotted key on top of a preset.
fn override_file(base: &str, key: &str, value: &str) -> String {
    let (table, leaf) = key.rsplit_once('.').expect("dotted key");
    format!("base = \"{base}\"\n\n[{table}]\n{leaf} = {value}\n")
}

fn try_override(base: &str, key: &str, value: &str) -> Result<Knob, LoadError> {
    let resolved = resolve("override.toml", &override_file(base, key, value))?;
    Ok(resolved
        .knobs
        .into_iter()
        .find(|k| k.key == key)
        .expect("knob present"))
}

/// The allowed strings of an enum knob, read from the loader's own error.
fn variants(key: &str) -> Vec<String> {
    let err = try_override("klassisch", key, "\"??\"").expect_err("?? is no variant");
    let msg = err.to_string();
    let Some((_, list)) = msg.split_once("expected") else {
        return Vec::new();
    };
    list.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.to_string())
        .collect()
}

/// Alternative values of a knob (as TOML), besides its klassisch value.
fn alternatives(k: &Knob) -> Vec<String> {
    let v = k.value.as_str();
    // Knobs with a fixed set of allowed numbers.
    match k.key.as_str() {
        "deck.jokers" => return vec!["2".into(), "4".into()],
        "timer.seconds" => return ["15", "30", "60", "120"].map(String::from).to_vec(),
        _ => {}
    }
    match v {
        "true" => vec!["false".into()],
        "false" => vec!["true".into()],
        _ if v.starts_with('"') => {
            let mut alts: Vec<String> = variants(&k.key)
                .into_iter()
                .map(|s| format!("\"{s}\""))
                .filter(|s| s != v)
                .collect();
            if k.key == "deal.hand_size" {
                alts.push("13".into());
            }
            if alts.is_empty() && v == "\"none\"" {
                alts.push("3".into()); // a limit: "none" or a number
            }
            alts
        }
        _ if v.starts_with('[') => match k.key.as_str() {
            "money.prize_shares" => vec!["[50, 30, 20]".into()],
            "scoring.club.opened" | "scoring.club.not_opened" => {
                vec!["[{ max_points = 5, rating = 4 }, { max_points = 50, rating = 2 }]".into()]
            }
            _ => Vec::new(),
        },
        _ => {
            let n: i64 = v.parse().unwrap_or_else(|_| panic!("{}: {v}", k.key));
            if n > 0 {
                vec![format!("{}", n + 1), format!("{}", n - 1)]
            } else {
                vec![format!("{}", n + 1)]
            }
        }
    }
}

fn normal(value: &str) -> String {
    value.replace(' ', "")
}

#[test]
fn every_knob_accepts_its_other_values_somewhere() {
    let mut checked = 0;
    for k in knobs("klassisch") {
        if k.key == "name" || k.key.starts_with("info.") {
            continue;
        }
        let alts = alternatives(&k);
        assert!(!alts.is_empty(), "no alternative for {}", k.key);
        let fixed_set = k.key == "deck.jokers" || k.key == "timer.seconds";
        let numeric = !fixed_set
            && alts.iter().all(|a| a.parse::<i64>().is_ok())
            && k.value.parse::<i64>().is_ok();
        let mut any_numeric_ok = false;
        for alt in &alts {
            let accepted: Vec<&str> = presets::NAMES
                .iter()
                .copied()
                .filter(|base| {
                    try_override(base, &k.key, alt).is_ok_and(|knob| {
                        normal(&knob.value) == normal(alt) && knob.origin == "override.toml"
                    })
                })
                .collect();
            if numeric {
                any_numeric_ok |= !accepted.is_empty();
            } else {
                assert!(
                    !accepted.is_empty(),
                    "{} = {alt} is accepted by no preset",
                    k.key
                );
            }
            checked += 1;
        }
        if numeric {
            assert!(any_numeric_ok, "{}: neither {alts:?} is accepted", k.key);
        }
    }
    assert!(checked > 90, "only {checked} knob values checked");
}

#[test]
fn every_knob_rejects_a_value_of_the_wrong_type_by_name() {
    for k in knobs("klassisch") {
        if k.key == "name" || k.key.starts_with("info.") {
            continue;
        }
        // A table where a value belongs is wrong for every knob.
        let wrong = "{ nonsense = 1 }";
        let err = try_override("klassisch", &k.key, wrong).expect_err("wrong type");
        match &err {
            LoadError::Key {
                key, line, origin, ..
            } => {
                assert_eq!(key, &k.key, "{err}");
                assert_eq!(origin, "override.toml", "{err}");
                assert_eq!(*line, Some(4), "{err}");
            }
            other => panic!("{}: expected a key error, got {other}", k.key),
        }
    }
}

#[test]
fn contradictions_name_their_key() {
    let cases = [
        ("turn.discard_pile", "false", "going_out.final_discard"),
        ("concealed.enabled", "true", "turn.lay_off"),
        ("melds.sets.max_len", "5", "melds.sets.max_len"),
        (
            "melds.wilds.share",
            "\"fewer-than-naturals\"",
            "melds.wilds.all_wild",
        ),
        ("melds.wilds.round_wild", "true", "melds.wilds.round_wild"),
        ("deal.hand_size", "\"round+2\"", "deal.hand_size"),
        ("deal.hand_size", "20", "deal.hand_size"),
        ("deck.jokers", "3", "deck.jokers"),
        ("buying.enabled", "true", "buying.enabled"),
        ("timer.seconds", "45", "timer.seconds"),
        ("money.prize_shares", "[60, 30]", "money.prize_shares"),
        ("going_out.rest_allowed", "10", "going_out.rest_allowed"),
    ];
    for (key, value, named) in cases {
        let base = if key == "buying.enabled" {
            "klopfen"
        } else {
            "klassisch"
        };
        let err = try_override(base, key, value).expect_err(key);
        let msg = err.to_string();
        assert!(matches!(err, LoadError::Invalid(_)), "{key}: {msg}");
        assert!(msg.contains(named), "{key} = {value}: {msg}");
    }
}
