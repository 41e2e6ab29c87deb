// The knob editor's data: a ruleset (as JSON) flattened to dotted keys with
// TOML values, and the TOML text of the changed knobs on top of a preset
// (`base = "klassisch"` plus one line per change) for the server.

export interface Knob {
  key: string;
  value: string;
}

function toToml(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(toToml).join(", ")}]`;
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
