// One table: seats, stock and discard pile, the melds on the table by
// owner, your hand (sortable by drag and drop, sort and group buttons),
// building melds with the opening counter, lay-offs and joker exchange on a
// chosen meld, buying and knocking, hints, the score sheet, the rules, chat
// and the turn timer.

import { useEffect, useState } from "react";
import { useParams } from "react-router-dom";
import { useTranslation } from "react-i18next";
import { DndContext, closestCenter, type DragEndEvent, KeyboardSensor, PointerSensor, useSensor, useSensors } from "@dnd-kit/core";
import { SortableContext, horizontalListSortingStrategy, sortableKeyboardCoordinates, useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useApp } from "./App";
import { groups, isRed, label, sortByRank, sortBySuit } from "./cards";
import { arrange, clearRefusal, myTurn, reorder } from "./state";
import type { Action, Card, GameView, ServerMsg, Snapshot } from "./protocol";
import { meldsValue } from "./points";
import { translateRefusal } from "./reasons";

export function TablePage() {
  const { id = "" } = useParams();
  const { t, i18n } = useTranslation();
  const { conn, state, update } = useApp();
  const [selected, setSelected] = useState<number[]>([]);
  const [pending, setPending] = useState<Card[][]>([]);
  const [hint, setHint] = useState<string | null>(null);
  const [hintAction, setHintAction] = useState<Action | null>(null);
  const [chat, setChat] = useState("");
  const [turnStart, setTurnStart] = useState(Date.now());
  const [now, setNow] = useState(Date.now());

  // Follow the table; after a reconnect, resume from the last version.
  useEffect(() => {
    const join = () =>
      void conn.request({
        type: "join",
        table: id,
        views: true,
        ...(state.version > 0 && state.table?.table === id ? { last_version: state.version } : {}),
      });
    conn.onReady = join;
    join();
    return () => {
      conn.onReady = null;
      void conn.request({ type: "unjoin", table: id });
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [conn, id]);

  const snap: Snapshot | null = state.table?.table === id ? state.table : null;
  const game: GameView | null = snap?.game ?? null;
  const turn = game?.turn ?? null;
  useEffect(() => setTurnStart(Date.now()), [turn, game?.game]);
  useEffect(() => {
    const h = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(h);
  }, []);

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  if (!snap) return <p>…</p>;
  const info = snap.info;
  const seat = snap.seat;
  const hand = state.hand;
  const chosen = selected.map((i) => hand[i]).filter((c): c is Card => !!c);
  const name = (s: number) => {
    const o = info.seats[s]?.occupant;
    if (!o || o.kind === "empty") return t("empty");
    return o.kind === "human" ? o.name : t("bot", { level: o.level });
  };
  const onTurn = myTurn(state);

  const act = async (action: Action) => {
    const seq = snap.next_seq ?? 1;
    const m: ServerMsg = await conn.request({ type: "act", table: id, seq, action });
    if (m.type === "ack") {
      setSelected([]);
      setHint(null);
      update(clearRefusal);
    }
    return m;
  };
  const send = (body: Record<string, unknown>) => void conn.request({ ...body, table: id });

  const toggle = (i: number) =>
    setSelected((s) => (s.includes(i) ? s.filter((x) => x !== i) : [...s, i]));
  const onDragEnd = (e: DragEndEvent) => {
    const from = hand.indexOf(String(e.active.id).split("#")[0] ?? "");
    const fromIdx = Number(String(e.active.id).split("#")[1]);
    const toIdx = e.over ? Number(String(e.over.id).split("#")[1]) : fromIdx;
    if (from >= 0 && fromIdx !== toIdx) {
      update((s) => reorder(s, fromIdx, toIdx));
      setSelected([]);
    }
  };
  const askHint = async () => {
    const m = await conn.request({ type: "hint", table: id });
    if (m.type === "ack") {
      const a = (m.result as { action: Action | null }).action;
      setHint(a ? describe(a) : t("pass"));
      setHintAction(a);
    } else if (m.type === "reject") setHint(m.message);
  };
  const threshold = Number((info.rules.opening as { threshold?: number })?.threshold ?? 0);
  const opened = seat !== null && !!game?.seats[seat]?.opened;
  const timeLeft =
    info.turn_seconds && turn !== null && info.status === "playing"
      ? Math.max(0, info.turn_seconds - Math.floor((now - turnStart) / 1000))
      : null;
  const seatsFree = info.seats.filter((s) => s.occupant.kind === "empty").map((s) => s.seat);
  const claims = game?.claims && seat !== null && turn !== seat;

  return (
    <div className="table-page">
      <section className="table-head" aria-label={t("table")}>
        <h2>
          {info.name} <small>({info.rules.name})</small>
        </h2>
        <p className="invite">
          {t("invite")}: <code data-testid="invite">{`${location.origin}/t/${id}`}</code>{" "}
          <button type="button" onClick={() => void navigator.clipboard?.writeText(`${location.origin}/t/${id}`)}>
            {t("copy")}
          </button>
        </p>
        <div className="controls">
          {seat === null &&
            info.status !== "playing" &&
            seatsFree.map((s) => (
              <button key={s} type="button" onClick={() => send({ type: "sit", seat: s })}>
                {t("sit")} ({t("seat", { n: s + 1 })})
              </button>
            ))}
          {info.status === "waiting" && (
            <button type="button" className="primary" onClick={() => send({ type: "start" })}>
              {t("start")}
            </button>
          )}
          {info.status === "finished" && (
            <button type="button" className="primary" onClick={() => send({ type: "start" })}>
              {t("rematch")}
            </button>
          )}
          {seat !== null && (
            <button type="button" onClick={() => send({ type: "leave" })}>
              {t("leave")}
            </button>
          )}
        </div>
      </section>

      <ol className="seats" aria-label={t("seats")}>
        {info.seats.map((s) => (
          <li
            key={s.seat}
            className={`seat${turn === s.seat ? " on-turn" : ""}${s.seat === seat ? " me" : ""}`}
            data-testid={`seat-${s.seat}`}
          >
            <strong>{name(s.seat)}</strong>
            {s.seat === seat && <em> ({t("you")})</em>}
            {s.away && <em> · {t("away")}</em>}
            {game && <span> · {t("cards", { n: game.seats[s.seat]?.cards ?? 0 })}</span>}
            {game?.seats[s.seat]?.opened && <span> · ✓</span>}
          </li>
        ))}
      </ol>

      {game && (
        <p className="status" role="status" aria-live="polite">
          {turn === null ? t("matchOver") : onTurn ? t("yourTurn") : t("turnOf", { name: name(turn) })}
          {timeLeft !== null && <span className="timer"> · {t("timeLeft", { n: timeLeft })}</span>}
        </p>
      )}

      {state.refusal && (
        <p className="error" role="alert" data-testid="refusal">
          {t("refused", { reason: translateRefusal(state.refusal, i18n.language) })}
          <button type="button" aria-label="OK" onClick={() => update(clearRefusal)}>
            ×
          </button>
        </p>
      )}

      {game && (
        <section className="center" aria-label={t("stock")}>
          <button
            type="button"
            className="stock"
            data-testid="stock"
            disabled={!onTurn}
            onClick={() => void act({ type: "draw", from: "stock" })}
          >
            {t("drawStock")} ({game.stock})
          </button>
          <button
            type="button"
            className={`card discard-top${game.discard.length && isRed(game.discard[game.discard.length - 1] ?? "") ? " red" : ""}`}
            data-testid="discard"
            disabled={!onTurn || game.discard.length === 0}
            onClick={() => void act({ type: "draw", from: "discard" })}
            title={t("drawDiscard")}
          >
            {game.discard.length ? label(game.discard[game.discard.length - 1] ?? "") : "—"}
          </button>
          {claims && (
            <span className="claims">
              <button type="button" onClick={() => void act({ type: "buy" })}>
                {t("buy")}
              </button>
              <button type="button" onClick={() => void act({ type: "knock" })}>
                {t("knock")}
              </button>
              <button type="button" onClick={() => send({ type: "pass" })}>
                {t("pass")}
              </button>
            </span>
          )}
        </section>
      )}

      {game && (
        <section className="melds" aria-label={t("melds")}>
          {info.seats.map((s) => {
            const mine = game.table.map((m, i) => ({ m, i })).filter(({ m }) => m.owner === s.seat);
            if (mine.length === 0) return null;
            return (
              <div key={s.seat} className="owner">
                <h3>{name(s.seat)}</h3>
                {mine.map(({ m, i }) => (
                  <div key={i} className="meld" data-testid={`meld-${i}`}>
                    {m.cards.map((c, k) => (
                      <span key={k} className={`card small${isRed(c) ? " red" : ""}`}>
                        {label(c)}
                      </span>
                    ))}
                    {onTurn && chosen.length > 0 && (
                      <>
                        <button type="button" onClick={() => void act({ type: "lay-off", meld: i, cards: chosen })}>
                          {t("layOff")}
                        </button>
                        {chosen.length === 1 && m.cards.some((c) => c.startsWith("*")) && (
                          <button
                            type="button"
                            onClick={() => void act({ type: "exchange-joker", meld: i, card: chosen[0] ?? "" })}
                          >
                            {t("exchange")}
                          </button>
                        )}
                      </>
                    )}
                  </div>
                ))}
              </div>
            );
          })}
        </section>
      )}

      {game && seat !== null && (
        <section className="hand-area" aria-label="Hand">
          <div className="hand-tools">
            <button type="button" onClick={() => update((s) => arrange(s, sortBySuit(s.hand)))}>
              {t("sortSuit")}
            </button>
            <button type="button" onClick={() => update((s) => arrange(s, sortByRank(s.hand)))}>
              {t("sortRank")}
            </button>
            <button type="button" onClick={() => update((s) => arrange(s, groups(s.hand).flat()))}>
              {t("group")}
            </button>
            <button type="button" onClick={() => void askHint()} data-testid="hint">
              {t("hint")}
            </button>
            {hint && (
              <span className="hint" data-testid="hint-text" data-action={JSON.stringify(hintAction)}>
                {hint}
              </span>
            )}
          </div>
          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
            <SortableContext items={hand.map((c, i) => `${c}#${i}`)} strategy={horizontalListSortingStrategy}>
              <ul className="hand" data-testid="hand">
                {hand.map((c, i) => (
                  <HandCard key={`${c}#${i}`} id={`${c}#${i}`} card={c} selected={selected.includes(i)} onToggle={() => toggle(i)} />
                ))}
              </ul>
            </SortableContext>
          </DndContext>
          <div className="hand-actions">
            <button
              type="button"
              disabled={chosen.length < 3}
              onClick={() => {
                setPending([...pending, [...chosen]]);
                setSelected([]);
              }}
            >
              {t("addMeld")}
            </button>
            <button
              type="button"
              className="primary"
              disabled={!onTurn || (pending.length === 0 && chosen.length < 3)}
              onClick={async () => {
                const melds = chosen.length >= 3 ? [...pending, [...chosen]] : pending;
                let m = await act({ type: "meld", melds });
                if (m.type === "reject" && m.reason?.code === "ambiguous") {
                  // Ambiguous joker: ask, then try again with the declaration.
                  const declared = askDeclarations(melds, t("declare"));
                  if (declared) m = await act({ type: "meld", melds: declared });
                }
                if (m.type === "ack") setPending([]);
              }}
            >
              {t("meld")}
            </button>
            <button
              type="button"
              disabled={!onTurn || chosen.length !== 1}
              onClick={() => void act({ type: "discard", card: chosen[0] ?? "" })}
              data-testid="discard-button"
            >
              {t("discard")}
            </button>
            <button type="button" disabled={selected.length === 0} onClick={() => setSelected([])}>
              {t("clear")}
            </button>
          </div>
          {pending.length > 0 && (
            <div className="pending">
              <h3>{t("pending")}</h3>
              {pending.map((m, i) => (
                <div key={i} className="meld">
                  {m.map((c, k) => (
                    <span key={k} className={`card small${isRed(c) ? " red" : ""}`}>
                      {label(c)}
                    </span>
                  ))}
                  <button type="button" aria-label="×" onClick={() => setPending(pending.filter((_, j) => j !== i))}>
                    ×
                  </button>
                </div>
              ))}
              {!opened && (
                <p data-testid="opening">{t("openingPoints", { have: meldsValue(pending), need: threshold })}</p>
              )}
            </div>
          )}
        </section>
      )}

      <details className="sheet" open={info.status === "finished"}>
        <summary>{t("scoreSheet")}</summary>
        <table data-testid="score-sheet">
          <thead>
            <tr>
              <th>#</th>
              <th>{t("place")}</th>
              <th>{t("player")}</th>
              <th>{t("points")}</th>
              <th>{t("won")}</th>
            </tr>
          </thead>
          <tbody>
            {info.matches.flatMap((m) =>
              m.placings.map((p) => (
                <tr key={`${m.match_no}-${p.seat}`}>
                  <td>{m.match_no}</td>
                  <td>{p.place}</td>
                  <td>{p.name}</td>
                  <td>{p.points}</td>
                  <td>{p.games_won}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </details>

      <details className="rules">
        <summary>{t("showRules")}</summary>
        <p>{i18n.language === "de" ? info.rules.info.summary_de : info.rules.info.summary_en}</p>
        <pre>{JSON.stringify(info.rules, null, 1)}</pre>
      </details>

      <section className="chat" aria-label={t("chat")}>
        <ul>
          {snap.chat.map((c, i) => (
            <li key={i}>
              <strong>{c.name}:</strong> {c.text}
            </li>
          ))}
        </ul>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (chat.trim()) send({ type: "chat", text: chat.trim() });
            setChat("");
          }}
        >
          <input value={chat} onChange={(e) => setChat(e.target.value)} aria-label={t("chat")} maxLength={500} />
          <button type="submit">{t("send")}</button>
        </form>
      </section>

      <ol className="log" aria-label="log">
        {state.log.slice(-6).map((l) => (
          <li key={l.version} className="flash">
            {l.event.kind === "game" ? `${l.event.event.type}${l.event.event.seat !== undefined ? ` · ${name(Number(l.event.event.seat))}` : ""}` : l.event.kind}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** Ask the player what each bare joker stands for ("8h" → "*=8h"). */
function askDeclarations(melds: Card[][], question: string): Card[][] | null {
  const out: Card[][] = [];
  for (const m of melds) {
    const meld: Card[] = [];
    for (const c of m) {
      if (c === "*") {
        const answer = window.prompt(`${question}\n${m.map(label).join(" ")}`);
        if (!answer) return null;
        meld.push(`*=${answer.trim()}`);
      } else meld.push(c);
    }
    out.push(meld);
  }
  return out;
}

function describe(a: Action): string {
  switch (a.type) {
    case "draw":
      return `draw ${typeof a.from === "string" ? a.from : "pile"}`;
    case "discard":
      return `discard ${label(a.card)}`;
    case "meld":
      return `meld ${a.melds.map((m) => m.map(label).join(" ")).join(" | ")}`;
    case "lay-off":
      return `lay off ${a.cards.map(label).join(" ")} → ${a.meld}`;
    default:
      return a.type;
  }
}

function HandCard({ id, card, selected, onToggle }: { id: string; card: Card; selected: boolean; onToggle: () => void }) {
  const { attributes, listeners, setNodeRef, transform, transition } = useSortable({ id });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      {...attributes}
      {...listeners}
    >
      <button
        type="button"
        className={`card${isRed(card) ? " red" : ""}${selected ? " selected" : ""}`}
        aria-pressed={selected}
        data-card={card}
        onClick={onToggle}
      >
        {label(card)}
      </button>
    </li>
  );
}
