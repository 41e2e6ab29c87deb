// The knob editor's data: a ruleset (as JSON) flattened to dotted keys with
// TOML values, and the TOML text of the changed knobs on top of a preset
// (`base = "klassisch"` plus one line per change) for the server.

export interface Knob {
  key: string;
  value: string;
}

export function toToml(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(toToml).join(", ")}]`;
  // An inline table (the club scheme's rating tiers).
  if (v !== null && typeof v === "object") {
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${k} = ${toToml(x)}`)
      .join(", ")} }`;
  }
  return String(v);
}

/** Every scalar knob of a ruleset, `section.key` → TOML value. */
export function knobList(rules: Record<string, unknown>, prefix = ""): Knob[] {
  const out: Knob[] = [];
  for (const [k, v] of Object.entries(rules)) {
    if (prefix === "" && (k === "name" || k === "info")) continue;
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      out.push(...knobList(v as Record<string, unknown>, key));
    } else if (v !== null) {
      out.push({ key, value: toToml(v) });
    }
  }
  return out;
}

/** TOML with the changed knobs on top of `preset`; "" when nothing changed. */
export function overridesToml(preset: string, changes: Record<string, string>): string {
  const bySection = new Map<string, string[]>();
  for (const [key, value] of Object.entries(changes)) {
    const dot = key.lastIndexOf(".");
    const section = dot < 0 ? "" : key.slice(0, dot);
    const name = dot < 0 ? key : key.slice(dot + 1);
    const lines = bySection.get(section) ?? [];
    lines.push(`${name} = ${value.trim()}`);
    bySection.set(section, lines);
  }
  if (bySection.size === 0) return "";
  let text = `base = ${JSON.stringify(preset)}\nname = ${JSON.stringify(`${preset}-custom`)}\n`;
  for (const [section, lines] of bySection) {
    text += section ? `\n[${section}]\n${lines.join("\n")}\n` : `${lines.join("\n")}\n`;
  }
  return text;
}

/** The choices of the ruleset's enumerated knobs (romme-core's ruleset
 *  types, in TOML), so the editor offers a list instead of a text field. */
export const CHOICES: Record<string, string[]> = {
  "deck.kind": ["french", "five-crowns"],
  "melds.sets.suits": ["distinct", "any"],
  "melds.wilds.share": ["any", "fewer-than-naturals", "at-most-naturals"],
  "opening.count": ["sum", "single-meld"],
  "opening.joker_value": ["represented", "zero"],
  "turn.discard_take": ["free", "meld-at-once", "meld-at-once-opening"],
  "turn.lay_off": ["never", "after-opening"],
  "turn.lay_off_target": ["own", "any"],
  "turn.rearrange": ["none", "free", "rob"],
  "jokers.exchange": ["never", "any-time", "after-opening"],
  "stock.when_empty": ["reshuffle", "end-game"],
  "going_out.final_discard": ["required", "optional", "never"],
  "scoring.scheme": ["penalty", "anlegen", "club", "patience"],
  "match.end": ["games", "penalty-limit", "elimination", "rounds"],
  "timer.on_timeout": ["auto-play", "forfeit"],
};

/** The TOML value of "no limit". */
export const NO_LIMIT = '"none"';

/** The TOML value of a Five Crowns hand: the round's number plus two. */
export const ROUND_PLUS_TWO = '"round+2"';

/** Knobs that are a number or a word: `special` is the word (a TOML
 *  string: no limit, or Five Crowns' hand of the round's number plus two),
 *  `label` names it for the editor's switch, and `default` is the number the
 *  editor offers when the switch is turned off. */
export const NUMBER_OR_WORD: Record<string, { default: number; special: string; label: string }> = {
  "players.active_per_game": { default: 3, special: NO_LIMIT, label: "noLimit" },
  "melds.sets.max_len": { default: 4, special: NO_LIMIT, label: "noLimit" },
  "melds.wilds.max_per_meld": { default: 1, special: NO_LIMIT, label: "noLimit" },
  "concealed.knock_below": { default: 5, special: NO_LIMIT, label: "noLimit" },
  "deal.hand_size": { default: 13, special: ROUND_PLUS_TWO, label: "roundPlusTwo" },
};

/** How the editor shows a knob: a checkbox, a number field, a number or a
 *  word (`special`, a TOML string: no limit, or Five Crowns' hand of the
 *  round's number plus two; `label` names it for the switch), a list of
 *  choices (TOML strings, quoted), or free text. */
export function knobWidget(
  knob: Knob,
):
  | { kind: "bool" }
  | { kind: "number" }
  | { kind: "limit"; default: number; special: string; label: string }
  | { kind: "choice"; options: string[] }
  | { kind: "text" } {
  const either = NUMBER_OR_WORD[knob.key];
  if (either) return { kind: "limit", ...either };
  if (knob.value === "true" || knob.value === "false") return { kind: "bool" };
  if (/^-?\d+$/.test(knob.value)) return { kind: "number" };
  const choices = CHOICES[knob.key];
  if (choices) return { kind: "choice", options: choices.map((c) => JSON.stringify(c)) };
  return { kind: "text" };
}

/** The knobs grouped by their section (the first part of the key), the
 *  sections in `order` (others after them, as they come). */
export function knobSections(knobs: Knob[], order: string[] = []): [string, Knob[]][] {
  const out = new Map<string, Knob[]>();
  for (const k of knobs) {
    const section = k.key.split(".")[0] ?? k.key;
    const list = out.get(section) ?? [];
    list.push(k);
    out.set(section, list);
  }
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return [...out.entries()].sort((a, b) => rank(a[0]) - rank(b[0]));
}
