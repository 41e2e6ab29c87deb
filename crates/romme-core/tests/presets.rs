//! Every shipped preset loads, validates, and reports the source of every knob.

use romme_core::ruleset::{LoadError, presets, resolve};

#[test]
fn every_preset_loads_and_validates() {
    for name in presets::NAMES {
        let resolved = presets::resolve_preset(name)
            .expect("listed preset exists")
            .unwrap_or_else(|e| panic!("preset {name}: {e}"));
        assert_eq!(resolved.ruleset.name, *name);
        assert!(resolved.ruleset.validate().is_ok());
        assert!(!resolved.knobs.is_empty());
    }
}

#[test]
fn every_knob_of_every_preset_names_its_source() {
    for name in presets::NAMES {
        let resolved = presets::resolve_preset(name)
            .expect("listed preset exists")
            .expect("loads");
        for knob in &resolved.knobs {
            if knob.key.starts_with("info.") || knob.key == "name" {
                continue;
            }
            assert!(
                !knob.source.is_empty(),
                "{name}: knob {} has no source comment (set in {}:{:?})",
                knob.key,
                knob.origin,
                knob.line
            );
            assert!(knob.line.is_some(), "{name}: {} has no line", knob.key);
        }
    }
}

#[test]
fn unknown_key_is_named_with_its_line() {
    let text = "base = \"klassisch\"\nname = \"x\"\n\n[melds.runs]\nwrap_arond = true\n";
    let err = resolve("mine.toml", text).expect_err("unknown key");
    let msg = err.to_string();
    assert!(matches!(err, LoadError::Key { .. }), "{msg}");
    assert!(msg.contains("mine.toml:5"), "{msg}");
    assert!(msg.contains("melds.runs.wrap_arond"), "{msg}");
}

#[test]
fn missing_key_without_base_is_named() {
    let text = presets::text("klassisch")
        .expect("preset")
        .replace("threshold = 40", "");
    let err = resolve("full.toml", &text).expect_err("missing key");
    assert!(err.to_string().contains("opening.threshold"), "{err}");
    assert!(err.to_string().contains("missing field"), "{err}");
}

#[test]
fn wrong_type_and_bad_enum_value_are_named_with_line() {
    let err = resolve(
        "a.toml",
        "base = \"klassisch\"\n[opening]\nthreshold = \"forty\"\n",
    )
    .expect_err("wrong type");
    let msg = err.to_string();
    assert!(msg.starts_with("a.toml:3: opening.threshold:"), "{msg}");
    let err = resolve(
        "b.toml",
        "base = \"klassisch\"\n[turn]\nrearrange = \"sometimes\"\n",
    )
    .expect_err("bad variant");
    let msg = err.to_string();
    assert!(msg.starts_with("b.toml:3: turn.rearrange:"), "{msg}");
    assert!(msg.contains("free"), "lists the allowed values: {msg}");
}

#[test]
fn syntax_error_names_line_and_column() {
    let err =
        resolve("c.toml", "base = \"klassisch\"\n[opening\nthreshold = 3\n").expect_err("syntax");
    match err {
        LoadError::Syntax { origin, line, .. } => {
            assert_eq!(origin, "c.toml");
            assert_eq!(line, 2);
        }
        other => panic!("expected a syntax error, got {other}"),
    }
}

#[test]
fn contradictions_are_named_with_the_line_of_the_key() {
    let text =
        "base = \"klassisch\"\nname = \"x\"\n[melds.runs]\nace_low = false\nwrap_around = true\n";
    let err = resolve("d.toml", text).expect_err("contradiction");
    let msg = err.to_string();
    assert!(matches!(err, LoadError::Invalid(_)), "{msg}");
    assert!(msg.contains("d.toml:5: melds.runs.wrap_around"), "{msg}");
    assert!(msg.contains("K-A-2"), "{msg}");
}

#[test]
fn unknown_base_and_cycles_are_reported() {
    let err = resolve("e.toml", "base = \"klassik\"\n").expect_err("unknown base");
    assert!(
        err.to_string().contains("unknown base ruleset 'klassik'"),
        "{err}"
    );
    assert!(
        err.to_string().contains("klassisch"),
        "lists presets: {err}"
    );

    let lookup = |name: &str| match name {
        "a" => Some(("a.toml".to_string(), "base = \"b\"\n".to_string())),
        "b" => Some(("b.toml".to_string(), "base = \"a\"\n".to_string())),
        _ => None,
    };
    let err =
        romme_core::ruleset::resolve_with("a.toml", "base = \"b\"\n", &lookup).expect_err("cycle");
    assert!(matches!(err, LoadError::BaseChain { .. }), "{err}");
}

#[test]
fn user_override_keeps_base_provenance_and_records_its_own() {
    let text =
        "base = \"klassisch\"\nname = \"haus\"\n[opening]\nthreshold = 35 # our house rule\n";
    let resolved = resolve("haus.toml", text).expect("loads");
    assert_eq!(resolved.ruleset.opening.threshold, 35);
    assert_eq!(resolved.chain, vec!["haus.toml", "rulesets/klassisch.toml"]);
    let knob = |k: &str| {
        resolved
            .knobs
            .iter()
            .find(|x| x.key == k)
            .unwrap_or_else(|| panic!("knob {k}"))
            .clone()
    };
    let t = knob("opening.threshold");
    assert_eq!(
        (t.origin.as_str(), t.line, t.value.as_str()),
        ("haus.toml", Some(4), "35")
    );
    assert_eq!(t.source, "our house rule");
    let j = knob("penalty.joker");
    assert_eq!(j.origin, "rulesets/klassisch.toml");
    assert!(j.source.starts_with("003"), "{}", j.source);
}

#[test]
fn variants_differ_from_their_base_exactly_where_the_texts_say() {
    let load = |n: &str| presets::load(n).expect("exists").expect("loads");
    let wiener = load("wiener");
    assert_eq!(
        wiener.deal.hand_size,
        romme_core::ruleset::HandSize::Fixed(10)
    );
    assert!(wiener.concealed.enabled, "inherited from ohne-auslegen");
    assert_eq!(wiener.concealed.knock_below.get(), Some(5));
    assert_eq!(wiener.match_rules.limit, 101);
    let kaufen = load("kaufen");
    assert!(kaufen.buying.enabled);
    assert_eq!(kaufen.penalty.joker, 40, "inherited from bieten (002)");
    let club = load("club");
    assert!(!club.jokers.discard_allowed);
    assert_eq!(club.players.active_per_game.get(), Some(3));
    let solo = load("koenigs-solo");
    assert!(solo.deal.solo_patience);
    assert_eq!(solo.round_wild_rank(11), Some(romme_core::Rank::King));
}
