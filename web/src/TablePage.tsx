// One table: composes the seats (cards, opened, known and kept cards, out or
// sitting out), the status (turn, Five Crowns' round and wild rank, last
// turns, timer), the board (stock, discard pile, melds) or the solo
// patience's board, the hand, building melds with the opening counter or, in
// concealed play, laying everything down at once, calling Rommé, ending the
// turn, the joker declaration, the rearrangement sandbox, hints, the score
// sheets, the rules, chat and the log of what the others did. Owns the
// drag-and-drop context (what a drop on a meld, the discard pile or the hand
// means) and sends the player's actions.

import { useEffect, useRef, useState } from "react";
import { useParams } from "react-router-dom";
import { useTranslation } from "react-i18next";
import { DndContext, type CollisionDetection, type DragEndEvent, PointerSensor, closestCenter, pointerWithin, useSensor, useSensors } from "@dnd-kit/core";
import { useApp } from "./App";
import { Center, DISCARD_DROP, Melds, SmallCard } from "./Board";
import { groups, labels, roundWildRank, sortByRank, sortBySuit } from "./cards";
import { eventLine, highlight, hintText, lastPlaced } from "./events";
import { Hand, HAND_DROP, cardKeys } from "./Hand";
import { JokerDialog, type JokerQuestion } from "./JokerDialog";
import { isExchange, meldRules, readings } from "./jokers";
import { PatienceBoard } from "./Patience";
import { meldsValue } from "./points";
import type { Action, Card, GameView, ServerMsg, Snapshot } from "./protocol";
import { translateRefusal } from "./reasons";
import { RulesView } from "./RulesView";
import { tableTitle } from "./rulesText";
import { Sandbox } from "./Sandbox";
import { openSandbox, sandboxFromHint, type Sandbox as SandboxState } from "./sandbox";
import { ScoreSheet } from "./ScoreSheet";
import { arrange, clearRefusal, myTurn, reorder } from "./state";

// Hand cards sort among themselves by the closest card; everything else
// (melds, piles) counts only when the pointer is on it.
const collision: CollisionDetection = (args) => {
  const hit = pointerWithin(args).filter((c) => !String(c.id).startsWith("h:"));
  if (hit.length > 0) return hit;
  if (String(args.active.id).startsWith("h:")) {
    return closestCenter({
      ...args,
      droppableContainers: args.droppableContainers.filter((c) => String(c.id).startsWith("h:")),
    });
  }
  return pointerWithin(args);
};

export function TablePage() {
  const { id = "" } = useParams();
  const { t, i18n } = useTranslation();
  const { conn, state, update } = useApp();
  const [selected, setSelected] = useState<string[]>([]);
  const [pending, setPending] = useState<Card[][]>([]);
  const [hint, setHint] = useState<string | null>(null);
  const [hintAction, setHintAction] = useState<Action | null>(null);
  const [chat, setChat] = useState("");
  const [turnStart, setTurnStart] = useState(Date.now());
  const [now, setNow] = useState(Date.now());
  const [question, setQuestion] = useState<JokerQuestion | null>(null);
  const answer = useRef<((m: Card[] | null) => void) | null>(null);
  const [sandbox, setSandbox] = useState<SandboxState | null>(null);
  const hints = useRef(0);

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
  // Selected cards that left the hand are no longer selected.
  const keys = cardKeys(state.hand);
  useEffect(() => {
    setSelected((s) => s.filter((k) => keys.includes(k)));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keys.join(",")]);

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }));

  if (!snap) return <p>…</p>;
  const info = snap.info;
  const seat = snap.seat;
  const hand = state.hand;
  const chosen = selected.map((k) => hand[keys.indexOf(k)]).filter((c): c is Card => c !== undefined);
  const rules = meldRules(info.rules);
  const name = (s: number) => {
    const o = info.seats[s]?.occupant;
    if (!o || o.kind === "empty") return t("empty");
    // Seats numbered from 1, so that two bots of a level can be told apart.
    return o.kind === "human" ? o.name : t("botAt", { n: s + 1, level: o.level });
  };
  const onTurn = myTurn(state);
  const last = state.log[state.log.length - 1];
  const hl = highlight(last?.version ?? 0, last?.event);

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
  const ask = (q: JokerQuestion) =>
    new Promise<Card[] | null>((resolve) => {
      answer.current = resolve;
      setQuestion(q);
    });
  /** Declare the jokers of each meld that can be read several ways (not
   *  where a declaration can never matter: the engine reads such melds). */
  const declare = async (melds: Card[][], always = false): Promise<Card[][] | null> => {
    if (!info.declarations_matter) return melds;
    const out: Card[][] = [];
    for (const m of melds) {
      const options = m.includes("*") ? readings(m, rules) : [];
      if (options.length > 1 || (always && options.length === 1 && m.includes("*"))) {
        const choice = await ask({ meld: m, options });
        if (!choice) return null;
        out.push(choice);
      } else out.push(m);
    }
    return out;
  };
  const meldAll = async () => {
    const melds = chosen.length >= 3 ? [...pending, [...chosen]] : pending;
    const declared = await declare(melds);
    if (!declared) return;
    let m = await act({ type: "meld", melds: declared });
    if (m.type === "reject" && m.reason?.code === "ambiguous") {
      const again = await declare(declared, true);
      if (again) m = await act({ type: "meld", melds: again });
    }
    if (m.type === "ack") setPending([]);
  };
  /** Concealed play: every meld set aside (and the selection, if it is one)
   *  at once, with the one selected card as the final discard. */
  const layDownAll = async () => {
    const melds = chosen.length >= 3 ? [...pending, [...chosen]] : pending;
    const discard = chosen.length === 1 ? chosen[0] : undefined;
    const declared = await declare(melds);
    if (!declared) return;
    const body = (ms: Card[][]): Action => ({ type: "lay-down", melds: ms, ...(discard ? { discard } : {}) });
    let m = await act(body(declared));
    if (m.type === "reject" && m.reason?.code === "ambiguous") {
      const again = await declare(declared, true);
      if (again) m = await act(body(again));
    }
    if (m.type === "ack") setPending([]);
  };
  /** Lay off, asking what a bare joker stands for where it could be
   *  several cards (either end of a run, a set's missing suits). */
  const layOff = async (meld: number, cards: Card[]) => {
    const target = game?.table[meld]?.cards ?? [];
    let declared = cards;
    if (cards.includes("*")) {
      const options = readings([...target, ...cards], rules);
      if (options.length > 1) {
        const choice = await ask({ meld: [...target, ...cards], options });
        if (!choice) return;
        declared = choice.slice(target.length);
      }
    }
    await act({ type: "lay-off", meld, cards: declared });
  };
  const layOffOrExchange = (meld: number, cards: Card[]) => {
    const target = game?.table[meld]?.cards ?? [];
    const first = cards[0];
    if (first !== undefined && isExchange(target, cards)) void act({ type: "exchange-joker", meld, card: first });
    else void layOff(meld, cards);
  };

  const onDragEnd = (e: DragEndEvent) => {
    const from = String(e.active.id);
    const over = e.over ? String(e.over.id) : null;
    if (!over) return;
    if (from.startsWith("src:")) {
      if (over === HAND_DROP || over.startsWith("h:")) void act({ type: "draw", from: from === "src:stock" ? "stock" : "discard" });
      return;
    }
    const key = from.slice(2);
    const idx = keys.indexOf(key);
    if (idx < 0) return;
    if (over.startsWith("h:")) {
      const to = keys.indexOf(over.slice(2));
      if (to >= 0 && to !== idx) update((s) => reorder(s, idx, to));
    } else if (over === DISCARD_DROP) {
      void act({ type: "discard", card: hand[idx] ?? "" });
    } else if (over.startsWith("meld:")) {
      const cards = selected.includes(key) ? chosen : [hand[idx] ?? ""];
      layOffOrExchange(Number(over.slice(5)), cards);
    }
  };

  const askHint = async () => {
    setHint(null);
    setHintAction(null);
    const m = await conn.request({ type: "hint", table: id });
    hints.current += 1;
    if (m.type === "ack") {
      const a = (m.result as { action: Action | null }).action;
      setHint(a ? hintText(a, t, game?.patience ? hand[0] : undefined) : t("pass"));
      setHintAction(a);
    } else if (m.type === "reject") setHint(translateRefusal(m, i18n.language));
  };
  const threshold = Number((info.rules.opening as { threshold?: number })?.threshold ?? 0);
  const opened = seat !== null && !!game?.seats[seat]?.opened;
  const timeLeft =
    info.turn_seconds && turn !== null && info.status === "playing"
      ? Math.max(0, info.turn_seconds - Math.floor((now - turnStart) / 1000))
      : null;
  const seatsFree = info.seats.filter((s) => s.occupant.kind === "empty").map((s) => s.seat);
  const canClaim = !!game?.claims && seat !== null && turn !== seat;
  const concealed = (info.rules.concealed as { enabled?: boolean } | undefined)?.enabled === true;
  const restAllowed = Number((info.rules.going_out as { rest_allowed?: number } | undefined)?.rest_allowed ?? 0);
  const noDiscardPile = (info.rules.turn as { discard_pile?: boolean } | undefined)?.discard_pile === false;
  const roundWild =
    (info.rules.melds as { wilds?: { round_wild?: boolean } } | undefined)?.wilds?.round_wild && game && !game.patience
      ? roundWildRank(game.game)
      : null;
  const lastTurns = game?.last_turns ?? null;
  const rearranges = String((info.rules.turn as { rearrange?: string } | undefined)?.rearrange ?? "none") !== "none";
  const patience = game?.patience ? { ...game, patience: game.patience } : null;
  const hintLine = hint && (
    <span className="hint" data-testid="hint-text" data-n={hints.current} data-action={JSON.stringify(hintAction)}>
      {hint}
    </span>
  );
  const lines = state.log
    .map((l) => ({ version: l.version, text: eventLine(l.event, name, t) }))
    .filter((l): l is { version: number; text: string } => !!l.text)
    .slice(-8);

  return (
    <DndContext sensors={sensors} collisionDetection={collision} onDragEnd={onDragEnd}>
      <div className="table-page">
        <section className="table-head" aria-label={t("table")}>
          <h2>
            {tableTitle(info.name, info.rules.info, i18n.language === "de")}
            {/* A name the host chose comes with the rules' title. */}
            {![info.rules.info.title_de, info.rules.info.title_en].includes(info.name) && (
              <small> ({i18n.language === "de" ? info.rules.info.title_de : info.rules.info.title_en})</small>
            )}
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
              key={`${s.seat}-${hl.seat === s.seat ? hl.version : 0}`}
              className={`seat${turn === s.seat ? " on-turn" : ""}${s.seat === seat ? " me" : ""}${hl.seat === s.seat && s.seat !== seat ? " flash" : ""}`}
              data-testid={`seat-${s.seat}`}
            >
              <strong>{name(s.seat)}</strong>
              {s.seat === seat && <em> ({t("you")})</em>}
              {s.away && <em> · {t("away")}</em>}
              {game &&
                !game.patience &&
                (game.sheet?.totals[s.seat]?.eliminated_after ? (
                  <span className="out"> · {t("outAfter", { n: game.sheet.totals[s.seat]?.eliminated_after })}</span>
                ) : game.seats[s.seat]?.playing === false ? (
                  <span className="out"> · {t("sitsOut")}</span>
                ) : (
                  <span> · {t("cards", { count: game.seats[s.seat]?.cards ?? 0 })}</span>
                ))}
              {game?.seats[s.seat]?.opened && <span className="opened"> · {t("hasOpened")} ✓</span>}
              {s.seat !== seat && (game?.seats[s.seat]?.known?.length ?? 0) > 0 && (
                <span className="known" title={t("knownHelp")}>
                  {" "}
                  · {t("known", { cards: labels(game?.seats[s.seat]?.known ?? []) })}
                </span>
              )}
              {(game?.seats[s.seat]?.shown?.length ?? 0) > 0 && (
                <span className="shown"> · {t("keeps", { cards: labels(game?.seats[s.seat]?.shown ?? []) })}</span>
              )}
            </li>
          ))}
        </ol>

        {game && (
          <p className="status" role="status" aria-live="polite">
            {turn === null ? t("matchOver") : onTurn ? t("yourTurn") : t("turnOf", { name: name(turn) })}
            {roundWild && <span data-testid="round-wild"> · {t("roundWild", { n: game.game, rank: roundWild })}</span>}
            {lastTurns && turn !== null && (
              <span className="last-turns">
                {" "}
                · {t(lastTurns.knocked ? "lastTurnsKnocked" : "lastTurns", { name: name(lastTurns.by) })}
              </span>
            )}
            {timeLeft !== null && <span className="timer"> · {t("timeLeft", { n: timeLeft })}</span>}
          </p>
        )}

        {state.refusal && (
          <p className="error" role="alert" data-testid="refusal">
            {t("refused", { reason: translateRefusal(state.refusal, i18n.language) })}
            <button type="button" aria-label={t("close")} onClick={() => update(clearRefusal)}>
              ×
            </button>
          </p>
        )}

        {patience && (
          <PatienceBoard
            game={patience}
            drawn={onTurn && patience.phase === "play" ? (hand[0] ?? null) : null}
            lastOut={lastPlaced(state.log)}
            mine={seat !== null}
            onTurn={onTurn}
            hl={hl}
            hint={hintLine}
            onHint={() => void askHint()}
            onDraw={() => void act({ type: "draw", from: "stock" })}
            onPlace={(h, out) => void act({ type: "place", hand: h, out })}
          />
        )}

        {game && !patience && (
          <Center
            game={game}
            onTurn={onTurn}
            canClaim={canClaim}
            hl={hl}
            onDraw={(from) => void act({ type: "draw", from })}
            onBuy={() => void act({ type: "buy" })}
            onKnock={() => void act({ type: "knock" })}
            onPass={() => send({ type: "pass" })}
          />
        )}

        {game && sandbox && (
          <Sandbox
            start={sandbox}
            rules={rules}
            onCancel={() => setSandbox(null)}
            onPlay={async (table) => {
              const declared = await declare(table);
              if (!declared) return false;
              const m = await act({ type: "rearrange", table: declared });
              return m.type === "ack";
            }}
          />
        )}

        {game && !sandbox && !patience && (
          <Melds
            game={game}
            seats={info.seats.map((s) => s.seat)}
            name={name}
            chosen={chosen}
            onTurn={onTurn}
            hl={hl}
            onLayOff={(meld, cards) => void layOff(meld, cards)}
            onExchange={(meld, card) => void act({ type: "exchange-joker", meld, card })}
          />
        )}

        {game && seat !== null && !sandbox && !patience && (
          <section className="hand-area" aria-label={t("hand")}>
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
              {hintLine}
              {hintAction?.type === "rearrange" && rearranges && onTurn && (
                <button
                  type="button"
                  data-testid="hint-sandbox"
                  onClick={() => {
                    const sb = game && sandboxFromHint(game.table, hand, hintAction.table);
                    if (sb) setSandbox(sb);
                  }}
                >
                  {t("showInSandbox")}
                </button>
              )}
            </div>
            <Hand
              hand={hand}
              wildRank={roundWild}
              selected={selected}
              onToggle={(k) => setSelected((s) => (s.includes(k) ? s.filter((x) => x !== k) : [...s, k]))}
              onMove={(from, to) => update((s) => reorder(s, from, to))}
            />
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
              {/* Concealed play lays everything down at once. */}
              <button
                type="button"
                className="primary"
                data-testid={concealed ? "lay-down-button" : "meld-button"}
                disabled={!onTurn || (pending.length === 0 && chosen.length < 3)}
                onClick={() => void (concealed ? layDownAll() : meldAll())}
              >
                {t(concealed ? "layDown" : "meld")}
              </button>
              <button
                type="button"
                disabled={!onTurn || chosen.length !== 1}
                onClick={() => void act({ type: "discard", card: chosen[0] ?? "" })}
                data-testid="discard-button"
              >
                {t("discard")}
              </button>
              {restAllowed > 0 && (
                <button
                  type="button"
                  data-testid="call-romme"
                  title={t("callRommeHelp", { n: restAllowed })}
                  disabled={!onTurn || chosen.length > 1}
                  onClick={() => void act({ type: "call-romme", ...(chosen.length === 1 ? { discard: chosen[0] } : {}) })}
                >
                  {t("callRomme")}
                </button>
              )}
              {noDiscardPile && (
                <button type="button" data-testid="end-turn" disabled={!onTurn} onClick={() => void act({ type: "end-turn" })}>
                  {t("endTurn")}
                </button>
              )}
              {rearranges && (
                <button
                  type="button"
                  data-testid="rearrange"
                  disabled={!onTurn || !game}
                  onClick={() => game && setSandbox(openSandbox(game.table, hand))}
                >
                  {t("rearrange")}
                </button>
              )}
              <button type="button" disabled={selected.length === 0} onClick={() => setSelected([])}>
                {t("clear")}
              </button>
            </div>
            {concealed && <p className="help">{t("layDownHelp")}</p>}
            {(pending.length > 0 || (!opened && chosen.length >= 3)) && (
              <div className="pending">
                {pending.length > 0 && <h3>{t("pending")}</h3>}
                {pending.map((m, i) => (
                  <div key={i} className="meld">
                    {m.map((c, k) => (
                      <SmallCard key={k} card={c} />
                    ))}
                    <button type="button" aria-label={t("remove")} onClick={() => setPending(pending.filter((_, j) => j !== i))}>
                      ×
                    </button>
                  </div>
                ))}
                {!opened && threshold > 0 && (
                  <OpeningMeter have={meldsValue(chosen.length >= 3 ? [...pending, chosen] : pending)} need={threshold} />
                )}
              </div>
            )}
          </section>
        )}

        <ScoreSheet
          matches={info.matches}
          open={info.status === "finished"}
          current={game?.sheet ? { sheet: game.sheet, names: info.seats.map((s) => name(s.seat)) } : null}
        />
        <RulesView rules={info.rules} />

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

        <ol className="log" aria-label={t("log")} aria-live="polite" data-testid="log">
          {lines.map((l) => (
            <li key={l.version} className="flash">
              {l.text}
            </li>
          ))}
        </ol>
      </div>
      {question && (
        <JokerDialog
          question={question}
          onDone={(m) => {
            setQuestion(null);
            answer.current?.(m);
            answer.current = null;
          }}
        />
      )}
    </DndContext>
  );
}

function OpeningMeter({ have, need }: { have: number; need: number }) {
  const { t } = useTranslation();
  return (
    <div className="opening" data-testid="opening">
      <meter min={0} max={need} value={Math.min(have, need)} aria-label={t("openingPoints", { have, need })} />
      <span>
        {t("openingPoints", { have, need })}
        {have < need ? ` · ${t("missing", { count: need - have })}` : " ✓"}
      </span>
    </div>
  );
}

