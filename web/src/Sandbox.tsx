// The rearrangement sandbox on screen: the table and the hand as a private
// copy. Select cards (tap, click, Space) or drag them onto a meld or onto
// "new meld"; invalid melds are marked at once; undo goes back one move;
// "play" sends the whole new table as one `rearrange` action, "cancel"
// throws the sandbox away. Nothing reaches the server before "play".

import { DndContext, type DragEndEvent, PointerSensor, pointerWithin, useDraggable, useDroppable, useSensor, useSensors } from "@dnd-kit/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { isRed, label } from "./cards";
import type { MeldRules } from "./jokers";
import type { Card } from "./protocol";
import { isValid, meldCards, move, newTable, placed, type Sandbox as SandboxState, type Spot, undo } from "./sandbox";

export function Sandbox({
  start,
  rules,
  onPlay,
  onCancel,
}: {
  start: SandboxState;
  rules: MeldRules;
  onPlay: (table: Card[][]) => Promise<boolean>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [sb, setSb] = useState(start);
  const [picked, setPicked] = useState<Spot[]>([]);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }));
  const toggle = (s: Spot) => setPicked((p) => (p.includes(s) ? p.filter((x) => x !== s) : [...p, s]));
  const moveTo = (target: number | "new", spots: Spot[] = picked) => {
    setSb((cur) => move(cur, spots, target));
    setPicked([]);
  };
  const onDragEnd = (e: DragEndEvent) => {
    const from = String(e.active.id);
    const over = e.over ? String(e.over.id) : null;
    if (!over) return;
    const spots = picked.includes(from) ? picked : [from];
    moveTo(over === "sb:new" ? "new" : Number(over.slice(3)), spots);
  };
  const invalid = sb.melds.filter((m) => !isValid(m, rules)).length;
  const placedCount = placed(sb, start.hand);
  return (
    <DndContext sensors={sensors} collisionDetection={pointerWithin} onDragEnd={onDragEnd}>
      <section className="sandbox" aria-label={t("sandbox")} data-testid="sandbox">
        <h3>{t("sandbox")}</h3>
        <p className="sandbox-help">{t("sandboxHelp")}</p>
        <div className="melds">
          {sb.melds.map((m, i) => (
            <SandboxMeldView key={i} index={i} valid={isValid(m, rules)}>
              {m.cards.map((c, k) => (
                <SandboxCard
                  key={`${c}-${k}`}
                  spot={`m:${i}:${k}`}
                  card={meldCards(m)[k] ?? c}
                  picked={picked.includes(`m:${i}:${k}`)}
                  onToggle={toggle}
                />
              ))}
              <button type="button" disabled={picked.length === 0} onClick={() => moveTo(i)}>
                {t("moveHere")}
              </button>
            </SandboxMeldView>
          ))}
          <NewMeldDrop>
            <button type="button" disabled={picked.length === 0} onClick={() => moveTo("new")}>
              {t("newMeld")}
            </button>
          </NewMeldDrop>
        </div>
        <h4>{t("hand")}</h4>
        <div className="hand sandbox-hand">
          {sb.hand.map((c, k) => (
            <SandboxCard key={`${c}-${k}`} spot={`h:${k}`} card={c} picked={picked.includes(`h:${k}`)} onToggle={toggle} />
          ))}
        </div>
        <p role="status" data-testid="sandbox-status">
          {invalid > 0 ? t("invalidMelds", { count: invalid }) : t("allValid")} · {t("placedCards", { count: placedCount })}
        </p>
        <div className="hand-actions">
          <button type="button" disabled={sb.history.length === 0} onClick={() => setSb(undo)}>
            {t("undo")}
          </button>
          <button
            type="button"
            className="primary"
            disabled={invalid > 0 || placedCount === 0}
            onClick={async () => {
              if (await onPlay(newTable(sb))) onCancel();
            }}
          >
            {t("playTable")}
          </button>
          <button type="button" onClick={onCancel}>
            {t("cancel")}
          </button>
        </div>
      </section>
    </DndContext>
  );
}

function SandboxMeldView({ index, valid, children }: { index: number; valid: boolean; children: React.ReactNode }) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: `sb:${index}` });
  return (
    <div
      ref={setNodeRef}
      className={`meld${valid ? "" : " invalid"}${isOver ? " drop-over" : ""}`}
      data-testid={`sandbox-meld-${index}`}
      data-valid={valid}
      aria-label={valid ? undefined : t("invalidMeld")}
    >
      {children}
      {!valid && <span className="badge">{t("invalidMeld")}</span>}
    </div>
  );
}

function NewMeldDrop({ children }: { children: React.ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: "sb:new" });
  return (
    <div ref={setNodeRef} className={`meld new-meld${isOver ? " drop-over" : ""}`}>
      {children}
    </div>
  );
}

function SandboxCard({ spot, card, picked, onToggle }: { spot: Spot; card: Card; picked: boolean; onToggle: (s: Spot) => void }) {
  const { setNodeRef, listeners, transform } = useDraggable({ id: spot });
  return (
    <button
      ref={setNodeRef}
      {...listeners}
      type="button"
      style={transform ? { transform: `translate(${transform.x}px, ${transform.y}px)`, zIndex: 5 } : undefined}
      className={`card small${isRed(card) ? " red" : ""}${picked ? " selected" : ""}`}
      aria-pressed={picked}
      data-spot={spot}
      data-card={card}
      onClick={() => onToggle(spot)}
    >
      {label(card)}
    </button>
  );
}
