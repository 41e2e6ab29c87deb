// The Five Crowns solo patience (`koenigs-solo`): eleven open hands of 3 to
// 13 cards, hand i with the rank i + 3 wild. The player draws the top stock
// card, then picks a card of an open hand: the drawn card goes into that
// hand and the picked card leaves the game (or the drawn card itself leaves
// it). A hand whose cards all fit into melds is laid down by the engine; the
// patience is won when all eleven are. Owns the patience's board: the stock,
// the cards out of the game, the hands, the hint and what the last event
// touched.

import { useTranslation } from "react-i18next";
import { isRed, isRoundWild, label, parse, roundWildRank } from "./cards";
import { SmallCard } from "./Board";
import type { Highlight } from "./events";
import type { Card, GameView } from "./protocol";

/** The rank that is wild in hand `i` (0-based): 3 in the first, K in the
 *  last. */
export function wildRank(i: number): string {
  return roundWildRank(i + 1) ?? "?";
}

/** Whether `card` is a wild card in hand `i` (a joker, or the hand's rank). */
export function isWildIn(card: Card, i: number): boolean {
  return parse(card).joker || isRoundWild(card, wildRank(i));
}

export function PatienceBoard({
  game,
  drawn,
  lastOut,
  mine,
  onTurn,
  hl,
  hint,
  onHint,
  onDraw,
  onPlace,
}: {
  game: GameView & { patience: NonNullable<GameView["patience"]> };
  /** The card drawn this turn, while it waits to be placed. */
  drawn: Card | null;
  /** The card last taken out of the game, when this session saw it. */
  lastOut: Card | null;
  /** Whether the viewer plays the patience (not a spectator). */
  mine: boolean;
  onTurn: boolean;
  hl: Highlight;
  hint: React.ReactNode;
  onHint: () => void;
  onDraw: () => void;
  onPlace: (hand: number, out: Card) => void;
}) {
  const { t } = useTranslation();
  const { hands, closed } = game.patience;
  const done = closed.filter((c) => c !== null).length;
  const firstOpen = closed.findIndex((c) => c === null);
  // The engine lays a closed hand's cards on the discard pile too (no card
  // is lost); what the player took out of the game is the rest.
  const inClosed = closed.reduce((n, m) => n + (m ? m.reduce((k, meld) => k + meld.length, 0) : 0), 0);
  const outCount = Math.max(0, game.discard.length - inClosed);
  const out = lastOut;
  const canDraw = onTurn && game.phase === "draw";
  const canPlace = onTurn && game.phase === "play" && drawn !== null;
  return (
    <section className="patience" aria-label={t("patience.title")} data-testid="patience">
      <div className="center">
        <button
          type="button"
          className={`stock${hl.stock ? " flash" : ""}`}
          key={`stock-${hl.stock ? hl.version : 0}`}
          data-testid="stock"
          disabled={!canDraw}
          onClick={onDraw}
        >
          {t("drawStock")} ({game.stock})
        </button>
        {drawn && (
          <span className="drawn">
            {t("patience.drawn")}{" "}
            <span className={`card${isRed(drawn) ? " red" : ""}`} data-testid="drawn" data-card={drawn}>
              {label(drawn)}
            </span>
          </span>
        )}
        {canPlace && firstOpen >= 0 && (
          <button type="button" data-testid="drop-drawn" onClick={() => onPlace(firstOpen, drawn)}>
            {t("patience.dropDrawn")}
          </button>
        )}
        <span className="out" aria-label={t("patience.outOfGame", { count: outCount })}>
          {t("patience.outOfGame", { count: outCount })}
          {out && (
            <span className={`card small${isRed(out) ? " red" : ""}${hl.discard ? " flash" : ""}`} key={`out-${hl.discard ? hl.version : 0}`}>
              {label(out)}
            </span>
          )}
        </span>
      </div>
      {mine && game.phase !== "match-over" && (
        <div className="hand-tools">
          <button type="button" onClick={onHint} data-testid="hint">
            {t("hint")}
          </button>
          {hint}
        </div>
      )}
      <p className="help" data-testid="patience-status">
        {t("patience.progress", { done, of: hands.length })}
        {game.phase === "match-over"
          ? ` · ${done === hands.length ? t("patience.won") : t("patience.lost")}`
          : canPlace
            ? ` · ${t("patience.pick")}`
            : canDraw
              ? ` · ${t("patience.draw")}`
              : null}
      </p>
      <ol className="patience-hands">
        {hands.map((cards, i) => {
          const melds = closed[i];
          const fresh = hl.hands.includes(i);
          return (
            <li
              key={`${i}-${fresh ? hl.version : 0}`}
              className={`patience-hand${melds ? " closed" : ""}${fresh ? " flash" : ""}`}
              data-testid={`patience-hand-${i}`}
            >
              <h3>
                {t("patience.hand", { n: i + 1 })} <small>· {t("patience.wild", { rank: wildRank(i) })}</small>
                {melds && <small> · {t("patience.closed")} ✓</small>}
              </h3>
              {melds ? (
                <div className="meld-row">
                  {melds.map((m, k) => (
                    <span key={k} className="meld">
                      {m.map((c, j) => (
                        <SmallCard key={j} card={c} />
                      ))}
                    </span>
                  ))}
                </div>
              ) : (
                <div className="meld-row">
                  {cards.map((c, k) => (
                    <button
                      key={k}
                      type="button"
                      className={`card${isRed(c) ? " red" : ""}${isWildIn(c, i) ? " wild" : ""}`}
                      data-card={c}
                      disabled={!canPlace}
                      title={canPlace && drawn ? t("patience.swap", { card: label(c), drawn: label(drawn) }) : undefined}
                      aria-label={canPlace && drawn ? t("patience.swap", { card: label(c), drawn: label(drawn) }) : label(c)}
                      onClick={() => onPlace(i, c)}
                    >
                      {label(c)}
                    </button>
                  ))}
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
