//! Reading rulesets from TOML: `base` inheritance, strict checking, and the
//! provenance of every knob (which file set it, on which line, with which
//! source comment).
//!
//! A ruleset file either lists every knob, or names a `base` (a preset, or
//! whatever the caller's resolver knows, e.g. another file) and overrides a
//! few. The merged document is then deserialized strictly (unknown keys,
//! wrong types and missing keys are errors) and validated
//! ([`Ruleset::validate`]). Every error names the file, the line where the
//! key stands (when the key is written somewhere) and the key.
//!
//! No I/O happens here: texts come in as strings; the CLI reads the files.

use std::collections::BTreeMap;
use std::fmt;

use thiserror::Error;
use toml_edit::{Document, DocumentMut, Item, Key, Table, TableLike, Value};

use super::{Ruleset, Violation, presets};

/// Deepest allowed `base` chain.
const MAX_BASE_DEPTH: usize = 8;

/// Where one knob's value comes from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Knob {
    /// Dotted key, e.g. `opening.threshold`.
    pub key: String,
    /// The value, as TOML.
    pub value: String,
    /// The file or preset that set it (the last one in the `base` chain that did).
    pub origin: String,
    /// Line in `origin`.
    pub line: Option<usize>,
    /// The source comment written beside the knob (e.g. `003: "wenigstens 40 Augen"`).
    pub source: String,
}

/// A loaded ruleset with the provenance of every knob.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// The ruleset.
    pub ruleset: Ruleset,
    /// Every knob of the resolved ruleset, in the ruleset's field order.
    pub knobs: Vec<Knob>,
    /// The `base` chain, the given file first.
    pub chain: Vec<String>,
}

/// Why a ruleset could not be loaded. Every variant says where.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LoadError {
    /// The text is not valid TOML.
    #[error("{origin}:{line}:{column}: TOML syntax error: {message}")]
    Syntax {
        /// File or preset name.
        origin: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// A key is unknown, missing, or has a value of the wrong type or range.
    #[error("{}{key}: {message}", at(origin, *line))]
    Key {
        /// File or preset name.
        origin: String,
        /// Line of the key, if it is written in a file.
        line: Option<usize>,
        /// Dotted key.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// `base` names nothing the loader knows.
    #[error("{}base: unknown base ruleset '{name}' (presets: {})", at(origin, *line), presets::NAMES.join(", "))]
    UnknownBase {
        /// File that names it.
        origin: String,
        /// Line of `base`.
        line: Option<usize>,
        /// The name.
        name: String,
    },
    /// The `base` chain is circular or too deep.
    #[error("base chain is circular or deeper than {MAX_BASE_DEPTH}: {}", chain.join(" -> "))]
    BaseChain {
        /// The chain so far.
        chain: Vec<String>,
    },
    /// The rules are well-formed but contradictory or out of range.
    #[error("{}", invalid_text(.0))]
    Invalid(Vec<Located>),
}

/// A [`Violation`] with the place where its key was set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// File or preset that set the key (or the loaded file when no one did).
    pub origin: String,
    /// Line of the key.
    pub line: Option<usize>,
    /// The key at that place: the violation's key, or for a contradiction the
    /// other key involved when that is the one the user's own file sets.
    pub key: String,
    /// The problem.
    pub violation: Violation,
}

fn at(origin: &str, line: Option<usize>) -> String {
    match line {
        Some(l) => format!("{origin}:{l}: "),
        None => format!("{origin}: "),
    }
}

fn invalid_text(v: &[Located]) -> String {
    v.iter()
        .map(|l| {
            if l.key == l.violation.key {
                format!("{}{}", at(&l.origin, l.line), l.violation)
            } else {
                format!(
                    "{}{} (contradicts {}): {}",
                    at(&l.origin, l.line),
                    l.key,
                    l.violation.key,
                    l.violation.reason
                )
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Dotted knob keys mentioned in a text, e.g. `match.end` in a reason.
fn mentioned_keys(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_lowercase() || c == '_' || c == '.'))
        .map(|w| w.trim_matches('.'))
        .filter(|w| w.contains('.') && w.split('.').all(|p| !p.is_empty()))
        .map(str::to_string)
        .collect()
}

/// Where a leaf was written.
#[derive(Debug, Clone)]
struct Origin {
    origin: String,
    line: Option<usize>,
    comment: String,
}

/// A document with its leaves' provenance.
struct Layer {
    doc: DocumentMut,
    origins: BTreeMap<Vec<String>, Origin>,
}

/// Finds the text of a base ruleset by name: `(origin, text)`.
pub type BaseResolver<'a> = dyn Fn(&str) -> Option<(String, String)> + 'a;

fn presets_only(name: &str) -> Option<(String, String)> {
    presets::text(name).map(|t| (presets::origin(name), t.to_string()))
}

/// Load a ruleset from TOML text; `base` may name a preset.
pub fn load(origin: &str, text: &str) -> Result<Ruleset, LoadError> {
    resolve(origin, text).map(|r| r.ruleset)
}

/// Load a ruleset whose `base` may also name what `resolver` finds.
pub fn load_with(origin: &str, text: &str, resolver: &BaseResolver) -> Result<Ruleset, LoadError> {
    resolve_with(origin, text, resolver).map(|r| r.ruleset)
}

/// Load with provenance; `base` may name a preset.
pub fn resolve(origin: &str, text: &str) -> Result<Resolved, LoadError> {
    resolve_with(origin, text, &presets_only)
}

/// Load with provenance; `base` is looked up with `resolver` first, then
/// among the presets.
pub fn resolve_with(
    origin: &str,
    text: &str,
    resolver: &BaseResolver,
) -> Result<Resolved, LoadError> {
    let lookup = |name: &str| resolver(name).or_else(|| presets_only(name));
    let mut chain = Vec::new();
    let layer = layer(origin, text, &lookup, &mut chain)?;
    finish(layer, chain, origin)
}

/// Deserialize and validate one complete TOML text without `base`
/// resolution (e.g. for fuzzing the strict reader).
pub fn parse_standalone(origin: &str, text: &str) -> Result<Ruleset, LoadError> {
    let mut chain = Vec::new();
    let layer = layer(origin, text, &|_: &str| None, &mut chain)?;
    finish(layer, chain, origin).map(|r| r.ruleset)
}

fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .map_or(1, |t| t.matches('\n').count() + 1)
}

fn raw_text<'a>(raw: &'a toml_edit::RawString, src: &'a str) -> &'a str {
    raw.as_str()
        .or_else(|| raw.span().and_then(|s| src.get(s)))
        .unwrap_or("")
}

/// The comment on a knob: the trailing `# …` after its value, else the last
/// comment line right above it.
fn comment_of(key: &Key, item: &Item, src: &str) -> String {
    let trailing = match item {
        Item::Value(v) => v.decor().suffix().map(|r| raw_text(r, src)).unwrap_or(""),
        _ => "",
    };
    let clean = |s: &str| s.trim().trim_start_matches('#').trim().to_string();
    if trailing.trim_start().starts_with('#') {
        return clean(trailing);
    }
    let prefix = key
        .leaf_decor()
        .prefix()
        .map(|r| raw_text(r, src))
        .unwrap_or("");
    prefix
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('#'))
        .map(clean)
        .unwrap_or_default()
}

/// Record every leaf of `table` (recursing into tables and inline tables).
fn collect(
    table: &dyn TableLike,
    path: &mut Vec<String>,
    src: &str,
    origin: &str,
    out: &mut BTreeMap<Vec<String>, Origin>,
) {
    for (name, _) in table.iter() {
        let Some((key, item)) = table.get_key_value(name) else {
            continue;
        };
        path.push(name.to_string());
        if let Some(sub) = item.as_table_like() {
            collect(sub, path, src, origin, out);
        } else {
            out.insert(
                path.clone(),
                Origin {
                    origin: origin.to_string(),
                    line: key.span().map(|s| line_of(src, s.start)),
                    comment: comment_of(key, item, src),
                },
            );
        }
        path.pop();
    }
}

/// Copy the value at `path` of `from` into `into` (creating tables).
fn set_path(into: &mut Table, from: &Table, path: &[String]) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    if rest.is_empty() {
        if let Some(item) = from.get(first) {
            into.insert(first, item.clone());
        }
        return;
    }
    // Descend into `from`, normalising inline tables to tables.
    let sub_from: Table = match from.get(first) {
        Some(Item::Table(t)) => t.clone(),
        Some(Item::Value(Value::InlineTable(t))) => t.clone().into_table(),
        _ => return,
    };
    let entry = into
        .entry(first)
        .or_insert_with(|| Item::Table(Table::new()));
    if let Item::Value(Value::InlineTable(t)) = entry {
        *entry = Item::Table(t.clone().into_table());
    }
    if !entry.is_table() {
        *entry = Item::Table(Table::new());
    }
    if let Item::Table(t) = entry {
        t.set_implicit(true);
        set_path(t, &sub_from, rest);
    }
}

fn layer(
    origin: &str,
    text: &str,
    lookup: &dyn Fn(&str) -> Option<(String, String)>,
    chain: &mut Vec<String>,
) -> Result<Layer, LoadError> {
    chain.push(origin.to_string());
    if chain.len() > MAX_BASE_DEPTH || chain[..chain.len() - 1].contains(&origin.to_string()) {
        return Err(LoadError::BaseChain {
            chain: chain.clone(),
        });
    }
    let parsed = Document::parse(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        let line = line_of(text, offset);
        let line_start = text[..offset.min(text.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        LoadError::Syntax {
            origin: origin.to_string(),
            line,
            column: text[line_start..offset.min(text.len())].chars().count() + 1,
            message: e.message().trim().to_string(),
        }
    })?;
    let mut origins = BTreeMap::new();
    collect(
        parsed.as_table(),
        &mut Vec::new(),
        text,
        origin,
        &mut origins,
    );
    let mut doc = parsed.clone().into_mut();

    let base_key = vec!["base".to_string()];
    let base_line = origins.get(&base_key).and_then(|o| o.line);
    let Some(base_item) = doc.as_table_mut().remove("base") else {
        return Ok(Layer { doc, origins });
    };
    origins.remove(&base_key);
    let Some(base_name) = base_item.as_str().map(str::to_string) else {
        return Err(LoadError::Key {
            origin: origin.to_string(),
            line: base_line,
            key: "base".into(),
            message: "must be the name of a ruleset, e.g. base = \"klassisch\"".into(),
        });
    };
    let Some((base_origin, base_text)) = lookup(&base_name) else {
        return Err(LoadError::UnknownBase {
            origin: origin.to_string(),
            line: base_line,
            name: base_name,
        });
    };
    let mut merged = layer(&base_origin, &base_text, lookup, chain)?;
    for (path, o) in origins {
        set_path(merged.doc.as_table_mut(), doc.as_table(), &path);
        merged
            .origins
            .retain(|p, _| !(p.starts_with(&path) || path.starts_with(p)));
        merged.origins.insert(path, o);
    }
    Ok(merged)
}

fn dotted(path: &[String]) -> String {
    path.join(".")
}

fn locate(
    origins: &BTreeMap<Vec<String>, Origin>,
    key: &str,
    fallback: &str,
) -> (String, Option<usize>) {
    let path: Vec<String> = key.split('.').map(str::to_string).collect();
    if let Some(o) = origins.get(&path) {
        return (o.origin.clone(), o.line);
    }
    // A table key: the first leaf below it.
    if let Some((_, o)) = origins.iter().find(|(p, _)| p.starts_with(&path)) {
        return (o.origin.clone(), o.line);
    }
    (fallback.to_string(), None)
}

fn finish(layer: Layer, chain: Vec<String>, origin: &str) -> Result<Resolved, LoadError> {
    let Layer { doc, origins } = layer;
    let de = toml_edit::de::Deserializer::from(doc);
    let ruleset: Ruleset = serde_path_to_error::deserialize(de).map_err(|e| {
        let mut key = e.path().to_string();
        let inner = e.inner().message().trim().to_string();
        // serde reports unknown and missing fields at the parent; name the field.
        if let Some(field) = backticked(&inner) {
            let named = key == field || key.ends_with(&format!(".{field}"));
            if !named && (inner.starts_with("unknown field") || inner.starts_with("missing field"))
            {
                key = if key == "." || key.is_empty() {
                    field
                } else {
                    format!("{key}.{field}")
                };
            }
        }
        let (o, line) = locate(&origins, &key, origin);
        LoadError::Key {
            origin: o,
            line,
            key,
            message: inner,
        }
    })?;
    if let Err(violations) = ruleset.validate() {
        return Err(LoadError::Invalid(
            violations
                .into_iter()
                .map(|violation| {
                    // Of the keys involved, point at the one set closest to
                    // the user's file (the start of the base chain).
                    let mut keys = vec![violation.key.clone()];
                    keys.extend(violation.related.iter().cloned());
                    keys.extend(mentioned_keys(&violation.reason));
                    let rank = |o: &str| chain.iter().position(|c| c == o).unwrap_or(usize::MAX);
                    let (key, (o, line)) = keys
                        .into_iter()
                        .map(|k| {
                            let place = locate(&origins, &k, origin);
                            (k, place)
                        })
                        .filter(|(_, (_, line))| line.is_some())
                        .min_by_key(|(_, (o, _))| rank(o))
                        .unwrap_or_else(|| {
                            let place = locate(&origins, &violation.key, origin);
                            (violation.key.clone(), place)
                        });
                    Located {
                        origin: o,
                        line,
                        key,
                        violation,
                    }
                })
                .collect(),
        ));
    }
    let knobs = knobs(&ruleset, &origins);
    Ok(Resolved {
        ruleset,
        knobs,
        chain,
    })
}

fn backticked(msg: &str) -> Option<String> {
    let start = msg.find('`')? + 1;
    let len = msg[start..].find('`')?;
    Some(msg[start..start + len].to_string())
}

/// Every leaf of the resolved ruleset with its provenance, in field order.
fn knobs(ruleset: &Ruleset, origins: &BTreeMap<Vec<String>, Origin>) -> Vec<Knob> {
    let Ok(doc) = toml_edit::ser::to_document(ruleset) else {
        return Vec::new();
    };
    let mut leaves = Vec::new();
    leaves_of(doc.as_table(), &mut Vec::new(), &mut leaves);
    leaves
        .into_iter()
        .map(|(path, value)| {
            let o = origins.get(&path);
            Knob {
                key: dotted(&path),
                value,
                origin: o.map(|o| o.origin.clone()).unwrap_or_default(),
                line: o.and_then(|o| o.line),
                source: o.map(|o| o.comment.clone()).unwrap_or_default(),
            }
        })
        .collect()
}

fn leaves_of(table: &Table, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    for (name, item) in table.iter() {
        path.push(name.to_string());
        match item {
            Item::Table(t) => leaves_of(t, path, out),
            Item::Value(Value::InlineTable(t)) => {
                let t = t.clone().into_table();
                leaves_of(&t, path, out);
            }
            Item::Value(v) => out.push((path.clone(), v.to_string().trim().to_string())),
            Item::ArrayOfTables(a) => {
                let text = a
                    .iter()
                    .map(|t| {
                        let inline = t.clone().into_inline_table();
                        inline.to_string().trim().to_string()
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                out.push((path.clone(), format!("[{text}]")));
            }
            Item::None => {}
        }
        path.pop();
    }
}

impl fmt::Display for Knob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}", self.key, self.value)?;
        if !self.source.is_empty() || !self.origin.is_empty() {
            write!(f, "  # [{}", self.origin)?;
            if let Some(l) = self.line {
                write!(f, ":{l}")?;
            }
            write!(f, "]")?;
            if !self.source.is_empty() {
                write!(f, " {}", self.source)?;
            }
        }
        Ok(())
    }
}
