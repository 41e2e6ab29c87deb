// Accounts over HTTP (PROTOCOL.md, "Connecting"): registering — a guest
// that sends its session becomes the account and keeps its rating and
// results —, logging in, the player's rating and last results
// (`GET /api/me`) and the leaderboard. The server's refusals in the
// player's language.

/** The fewest characters of a password (the server's rule, `auth.rs`). */
export const MIN_PASSWORD = 8;

/** The player as `GET /api/me` describes it. */
export interface Me {
  player: { id: string; name: string; account: boolean; rating: number; matches: number };
  history: { table: string; match_no: number; place: number; points: number; finished_at: number }[];
}

/** A new session, or why there is none. */
export type SessionAnswer = { token: string; player: string; name: string } | { error: string };

/** Register (with the guest's `token`, the guest becomes the account) or
 *  log in. */
export async function session(
  kind: "register" | "login",
  name: string,
  password: string,
  token: string | null,
): Promise<SessionAnswer> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token && kind === "register") headers.Authorization = `Bearer ${token}`;
  try {
    const r = await fetch(`/api/${kind}`, { method: "POST", headers, body: JSON.stringify({ name, password }) });
    const body = (await r.json()) as Record<string, unknown>;
    if (r.ok && typeof body.token === "string") {
      return { token: body.token, player: String(body.player), name: String(body.name) };
    }
    return { error: typeof body.error === "string" ? body.error : `HTTP ${r.status}` };
  } catch {
    return { error: "the server cannot be reached" };
  }
}

/** A line of the leaderboard. */
export interface Standing {
  name: string;
  rating: number;
  matches: number;
}

/** The best-rated accounts, best first (empty when the server cannot be
 *  reached). */
export async function fetchLeaderboard(): Promise<Standing[]> {
  try {
    const r = await fetch("/api/leaderboard");
    return r.ok ? ((await r.json()) as Standing[]) : [];
  } catch {
    return [];
  }
}

/** A new password for the account behind `token` (`old` is its password
 *  now). The change ends every session issued before it, so the answer
 *  carries the new session: `{ token }`, or why not. */
export async function changePassword(token: string, old: string, next: string): Promise<{ token: string } | { error: string }> {
  try {
    const r = await fetch("/api/password", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ old, new: next }),
    });
    const body = (await r.json()) as Record<string, unknown>;
    if (r.ok && typeof body.token === "string") return { token: body.token };
    return { error: typeof body.error === "string" ? body.error : `HTTP ${r.status}` };
  } catch {
    return { error: "the server cannot be reached" };
  }
}

/** The player behind `token`, or null. */
export async function fetchMe(token: string): Promise<Me | null> {
  try {
    const r = await fetch("/api/me", { headers: { Authorization: `Bearer ${token}` } });
    return r.ok ? ((await r.json()) as Me) : null;
  } catch {
    return null;
  }
}

const GERMAN: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^wrong name or password$/, () => "Name oder Passwort stimmt nicht."],
  [/^a password has at least (\d+) characters$/, (m) => `Ein Passwort hat mindestens ${m[1]} Zeichen.`],
  [/^a name has 1 to (\d+) characters/, (m) => `Ein Name hat 1 bis ${m[1]} Zeichen, ohne Steuerzeichen.`],
  [/^the name '(.*)' already belongs to an account$/, (m) => `Den Namen „${m[1]}“ hat schon ein Konto.`],
  [
    /^too many failed logins from this address; try again in (\d+) min$/,
    (m) => `Zu viele Fehlversuche von dieser Adresse – bitte in ${m[1]} Minuten noch einmal.`,
  ],
  [/^the server cannot be reached$/, () => "Der Server ist nicht erreichbar."],
  [/^a guest has no password/, () => "Ein Gast hat kein Passwort – leg zuerst ein Konto an."],
  [/^no session$|^the session token/, () => "Die Anmeldung ist abgelaufen – bitte neu anmelden."],
];

/** A refusal of the account endpoints in `lang` (German by pattern; English
 *  as the server wrote it, as a sentence). Unknown texts pass unchanged. */
export function accountError(text: string, lang: string): string {
  if (lang === "de") {
    for (const [re, make] of GERMAN) {
      const m = text.match(re);
      if (m) return make(m);
    }
    return text;
  }
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** A result's date (seconds since 1970) in `lang`. */
export function resultDate(seconds: number, lang: string): string {
  return new Date(seconds * 1000).toLocaleDateString(lang === "de" ? "de-DE" : "en-GB", {
    year: "numeric",
    month: "short",
    day: "numeric",
  });
}
