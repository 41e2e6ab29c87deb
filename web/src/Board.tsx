// The middle of the table: the stock and the discard pile (take by click or
// by dragging onto the hand; drop a hand card on the pile to discard it),
// the buy/knock window, and the melds on the table grouped by owner (drop
// hand cards on a meld to lay them off or to exchange its joker; the same
// with the buttons for keyboard and touch). What the last event touched
// flashes.

import { useDraggable, useDroppable } from "@dnd-kit/core";
import { useTranslation } from "react-i18next";
import { isRed, label } from "./cards";
import type { Highlight } from "./events";
import type { Card, GameView } from "./protocol";

export const DISCARD_DROP = "discard";
export const meldDrop = (i: number) => `meld:${i}`;

export function Center({
  game,
  onTurn,
  canClaim,
  hl,
  onDraw,
  onBuy,
  onKnock,
  onPass,
}: {
  game: GameView;
  onTurn: boolean;
  canClaim: boolean;
  hl: Highlight;
  onDraw: (from: "stock" | "discard") => void;
  onBuy: () => void;
  onKnock: () => void;
  onPass: () => void;
}) {
  const { t } = useTranslation();
  const top = game.discard[game.discard.length - 1];
  // Only a turn's first step draws.
  const canDraw = onTurn && game.phase === "draw";
  const stock = useDraggable({ id: "src:stock", disabled: !canDraw });
  const pile = useDraggable({ id: "src:discard", disabled: !canDraw || !top });
  const drop = useDroppable({ id: DISCARD_DROP });
  return (
    <section className="center" aria-label={t("stock")}>
      <button
        ref={stock.setNodeRef}
        {...stock.listeners}
        type="button"
        className={`stock${hl.stock ? " flash" : ""}`}
        key={`stock-${hl.stock ? hl.version : 0}`}
        data-testid="stock"
        disabled={!canDraw}
        onClick={() => onDraw("stock")}
      >
        {t("drawStock")} ({game.stock})
      </button>
      <div ref={drop.setNodeRef} className={`pile${drop.isOver ? " drop-over" : ""}`}>
        <button
          ref={pile.setNodeRef}
          {...pile.listeners}
          type="button"
          key={`pile-${hl.discard ? hl.version : 0}`}
          className={`card discard-top${top && isRed(top) ? " red" : ""}${hl.discard ? " flash" : ""}`}
          data-testid="discard"
          disabled={!canDraw || !top}
          onClick={() => onDraw("discard")}
          title={t("drawDiscard")}
          aria-label={`${t("discardPile")}: ${top ? label(top) : "—"}`}
        >
          {top ? label(top) : "—"}
        </button>
      </div>
      {canClaim && game.claims && (
        <span className="claims" role="group" aria-label={t("claimWindow", { card: label(game.claims.card) })}>
          <span>{t("claimWindow", { card: label(game.claims.card) })}</span>
          <button type="button" onClick={onBuy}>
            {t("buy")}
          </button>
          <button type="button" onClick={onKnock}>
            {t("knock")}
          </button>
          <button type="button" onClick={onPass}>
            {t("pass")}
          </button>
        </span>
      )}
    </section>
  );
}

export function Melds({
  game,
  seats,
  name,
  chosen,
  onTurn,
  hl,
  onLayOff,
  onExchange,
}: {
  game: GameView;
  seats: number[];
  name: (seat: number) => string;
  chosen: Card[];
  onTurn: boolean;
  hl: Highlight;
  onLayOff: (meld: number, cards: Card[]) => void;
  onExchange: (meld: number, card: Card) => void;
}) {
  const { t } = useTranslation();
  if (game.table.length === 0) return null;
  return (
    <section className="melds" aria-label={t("melds")}>
      {seats.map((s) => {
        const mine = game.table.map((m, i) => ({ m, i })).filter(({ m }) => m.owner === s);
        if (mine.length === 0) return null;
        return (
          <div key={s} className="owner">
            <h3>{name(s)}</h3>
            {mine.map(({ m, i }) => (
              <TableMeldView
                key={`${i}-${hl.melds.includes(i) ? hl.version : 0}`}
                index={i}
                cards={m.cards}
                fresh={hl.melds.includes(i)}
                actions={
                  onTurn && chosen.length > 0 ? (
                    <>
                      <button type="button" onClick={() => onLayOff(i, chosen)}>
                        {t("layOff")}
                      </button>
                      {chosen.length === 1 && m.cards.some((c) => c.startsWith("*")) && (
                        <button type="button" onClick={() => onExchange(i, chosen[0] ?? "")}>
                          {t("exchange")}
                        </button>
                      )}
                    </>
                  ) : null
                }
              />
            ))}
          </div>
        );
      })}
    </section>
  );
}

/** A card in a meld or a list: small, in its colour. */
export function SmallCard({ card }: { card: Card }) {
  return <span className={`card small${isRed(card) ? " red" : ""}`}>{label(card)}</span>;
}

function TableMeldView({
  index,
  cards,
  fresh,
  actions,
}: {
  index: number;
  cards: Card[];
  fresh: boolean;
  actions: React.ReactNode;
}) {
  const { setNodeRef, isOver } = useDroppable({ id: meldDrop(index) });
  return (
    <div ref={setNodeRef} className={`meld${fresh ? " flash" : ""}${isOver ? " drop-over" : ""}`} data-testid={`meld-${index}`}>
      {cards.map((c, k) => (
        <SmallCard key={k} card={c} />
      ))}
      {actions}
    </div>
  );
}
