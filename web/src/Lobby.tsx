// The lobby: open tables, and a form to create a table from a preset (with
// its German/English description), seats, bots, turn timer and individual
// knobs.

import { useEffect, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useTranslation } from "react-i18next";
import { useApp } from "./App";
import type { LobbyEntry, RulesInfo } from "./protocol";
import { SECTION_LABELS, knobLabel } from "./knobLabels";
import { tableTitle } from "./rulesText";
import { knobList, knobSections, knobWidget, overridesToml, type Knob } from "./knobs";
import { Leaderboard } from "./Leaderboard";

interface Preset {
  name: string;
  players: { min: number; max: number };
  info: RulesInfo;
  rules: Record<string, unknown>;
}

const LEVELS = ["", "random", "heuristic", "expert"];
const TIMERS = [0, 15, 30, 60, 120];
const BOT_SPEEDS = [100, 600, 1500];
const LIST_REFRESH_MS = 5000;

export function Lobby() {
  const { t, i18n } = useTranslation();
  const { conn, state } = useApp();
  const navigate = useNavigate();
  const [tables, setTables] = useState<LobbyEntry[]>([]);
  const [presets, setPresets] = useState<Preset[]>([]);
  const [preset, setPreset] = useState("klassisch");
  const [seatChoice, setSeats] = useState(4);
  const [bots, setBots] = useState<string[]>(["", "heuristic", "heuristic", "heuristic", "heuristic", "heuristic"]);
  const [timer, setTimer] = useState(0);
  const [botDelay, setBotDelay] = useState(600);
  const [isPublic, setPublic] = useState(true);
  const [changes, setChanges] = useState<Record<string, string>>({});
  const [showKnobs, setShowKnobs] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const refresh = () => {
    void conn.request({ type: "list" }).then((m) => {
      if (m.type === "ack") setTables((m.result as LobbyEntry[]) ?? []);
    });
  };
  useEffect(() => {
    if (!state.me) return;
    refresh();
    // The list follows tables being opened, filled and started.
    const timer = window.setInterval(refresh, LIST_REFRESH_MS);
    return () => window.clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.me]);
  useEffect(() => {
    void fetch("/api/presets")
      .then((r) => r.json())
      .then((p: Preset[]) => setPresets(p))
      .catch(() => setPresets([]));
  }, []);

  const current = presets.find((p) => p.name === preset);
  // The seat count chosen, within what the preset allows (a one-player
  // patience after a four-player table: one seat).
  const seats = current ? Math.min(Math.max(seatChoice, current.players.min), current.players.max) : seatChoice;
  const knobs: Knob[] = current ? knobList(current.rules) : [];
  const de = i18n.language === "de";

  const create = async () => {
    setError(null);
    const toml = overridesToml(preset, changes);
    const rules = toml ? { toml } : { preset };
    const m = await conn.request({
      type: "create",
      table: {
        rules,
        seats,
        public: isPublic,
        turn_seconds: timer || null,
        bot_delay_ms: botDelay,
        bots: bots.slice(0, seats).map((b) => b || null),
      },
    });
    if (m.type === "reject") {
      setError(m.message);
      return;
    }
    if (m.type !== "ack") return;
    const id = (m.result as { table: string }).table;
    // Sit in the first seat without a bot.
    const free = bots.slice(0, seats).findIndex((b) => !b);
    if (free >= 0) await conn.request({ type: "sit", table: id, seat: free });
    navigate(`/t/${id}`);
  };

  return (
    <div className="lobby">
      <section aria-labelledby="open-tables">
        <h2 id="open-tables">{t("tables")}</h2>
        <button type="button" onClick={refresh}>
          {t("refresh")}
        </button>
        {tables.length === 0 ? (
          <p>{t("noTables")}</p>
        ) : (
          <ul className="table-list">
            {tables.map((tb) => (
              <li key={tb.id}>
                <strong>{tableTitle(tb.name, presets.find((p) => p.name === tb.rules)?.info, de)}</strong> · {tb.rules} · {tb.seats - tb.free}/{tb.seats} ·{" "}
                {t(tb.status === "waiting" ? "tableWaiting" : "tablePlaying")}{" "}
                <button type="button" onClick={() => navigate(`/t/${tb.id}`)}>
                  {t(tb.status === "waiting" && tb.free > 0 ? "join" : "watch")}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="create-table" className="create">
        <h2 id="create-table">{t("create")}</h2>
        <label>
          {t("rules")}
          <select
            name="preset"
            value={preset}
            onChange={(e) => {
              setPreset(e.target.value);
              setChanges({});
            }}
          >
            {presets.map((p) => {
              const title = de ? p.info.title_de : p.info.title_en;
              // The preset's name (as `romme --rules` takes it) once.
              const named = title.includes(`(${p.name})`) ? title : `${title} (${p.name})`;
              return (
                <option key={p.name} value={p.name}>
                  {named}
                </option>
              );
            })}
          </select>
        </label>
        {current && <p className="summary">{de ? current.info.summary_de : current.info.summary_en}</p>}
        <label>
          {t("seats")}
          <select name="seats" value={seats} onChange={(e) => setSeats(Number(e.target.value))}>
            {[1, 2, 3, 4, 5, 6]
              .filter((n) => !current || (n >= current.players.min && n <= current.players.max))
              .map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
          </select>
        </label>
        <div className="seat-bots">
          {Array.from({ length: seats }, (_, i) => (
            <label key={i}>
              {t("seat", { n: i + 1 })}
              <select
                name={`bot-${i}`}
                value={bots[i] ?? ""}
                onChange={(e) => {
                  const b = [...bots];
                  b[i] = e.target.value;
                  setBots(b);
                }}
              >
                {LEVELS.map((l) => (
                  <option key={l} value={l}>
                    {l ? t("bot", { level: l }) : t("human")}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </div>
        <label>
          {t("timer")}
          <select name="timer" value={timer} onChange={(e) => setTimer(Number(e.target.value))}>
            {TIMERS.map((s) => (
              <option key={s} value={s}>
                {s ? t("seconds", { n: s }) : t("noTimer")}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("botSpeed")}
          <select name="bot-speed" value={botDelay} onChange={(e) => setBotDelay(Number(e.target.value))}>
            {BOT_SPEEDS.map((ms) => (
              <option key={ms} value={ms}>
                {t(`speed${ms}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          <input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.target.checked)} />
          {t("publicTable")}
        </label>
        <details open={showKnobs} onToggle={(e) => setShowKnobs((e.target as HTMLDetailsElement).open)}>
          <summary>{t("knobs")}</summary>
          <div className="knobs">
            {knobSections(knobs, Object.keys(SECTION_LABELS)).map(([section, group]) => (
              <fieldset key={section}>
                <legend>{knobLabel(section, de) ?? section}</legend>
                {group.map((k) => {
                  const value = changes[k.key] ?? k.value;
                  const set = (v: string) => setChanges({ ...changes, [k.key]: v });
                  const w = knobWidget(k);
                  const changed = changes[k.key] !== undefined && changes[k.key] !== k.value;
                  return (
                    <label key={k.key} className={`${w.kind === "bool" ? "inline" : ""}${changed ? " changed" : ""}`}>
                      <span className="knob-name">
                        {knobLabel(k.key, de) ?? k.key} <code>{k.key}</code>
                      </span>
                      {w.kind === "bool" ? (
                        <input name={k.key} type="checkbox" checked={value === "true"} onChange={(e) => set(String(e.target.checked))} />
                      ) : w.kind === "number" ? (
                        <input name={k.key} type="number" value={value} onChange={(e) => set(e.target.value)} />
                      ) : w.kind === "limit" ? (
                        <span className="limit">
                          <input
                            name={k.key}
                            type="number"
                            value={value === w.special ? "" : value}
                            disabled={value === w.special}
                            onChange={(e) => set(e.target.value)}
                          />
                          <input
                            type="checkbox"
                            aria-label={t(w.label)}
                            checked={value === w.special}
                            onChange={(e) => set(e.target.checked ? w.special : String(w.default))}
                          />
                          {t(w.label)}
                        </span>
                      ) : w.kind === "choice" ? (
                        <select name={k.key} value={value} onChange={(e) => set(e.target.value)}>
                          {w.options.map((o) => (
                            <option key={o} value={o}>
                              {JSON.parse(o)}
                            </option>
                          ))}
                        </select>
                      ) : (
                        <input name={k.key} value={value} onChange={(e) => set(e.target.value)} />
                      )}
                    </label>
                  );
                })}
              </fieldset>
            ))}
          </div>
        </details>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="button" className="primary" onClick={() => void create()}>
          {t("create")}
        </button>
      </section>
      <Leaderboard me={state.me?.name ?? null} />
    </div>
  );
}
