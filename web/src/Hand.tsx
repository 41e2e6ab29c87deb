// The player's hand: cards in the order the player chose, selectable by tap,
// click, Space or Enter; reordered by dragging (dnd-kit sortable) or with
// Alt+←/→ from the keyboard. The DndContext is the table page's, so a hand
// card can also be dropped on a meld or on the discard pile.

import { useDroppable } from "@dnd-kit/core";
import { SortableContext, horizontalListSortingStrategy, useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useTranslation } from "react-i18next";
import { isRed, isRoundWild, label } from "./cards";
import type { Card } from "./protocol";

/** Stable keys for a hand: the card and which copy of it ("7h#0", "7h#1"). */
export function cardKeys(hand: Card[]): string[] {
  const seen = new Map<Card, number>();
  return hand.map((c) => {
    const n = seen.get(c) ?? 0;
    seen.set(c, n + 1);
    return `${c}#${n}`;
  });
}

export const HAND_DROP = "hand";

export function Hand({
  hand,
  wildRank,
  selected,
  onToggle,
  onMove,
}: {
  hand: Card[];
  /** The rank that is wild this round (Five Crowns), marked in the hand. */
  wildRank?: string | null;
  selected: string[];
  onToggle: (key: string) => void;
  onMove: (from: number, to: number) => void;
}) {
  const { t } = useTranslation();
  const keys = cardKeys(hand);
  const { setNodeRef, isOver } = useDroppable({ id: HAND_DROP });
  return (
    <SortableContext items={keys.map((k) => `h:${k}`)} strategy={horizontalListSortingStrategy}>
      <p id="hand-help" className="sr-only">
        {t("handHelp")}
      </p>
      <ul ref={setNodeRef} className={`hand${isOver ? " drop-over" : ""}`} data-testid="hand" aria-label={t("hand")}>
        {hand.map((c, i) => (
          <HandCard
            key={keys[i]}
            id={`h:${keys[i]}`}
            card={c}
            wild={isRoundWild(c, wildRank)}
            selected={selected.includes(keys[i] ?? "")}
            onToggle={() => onToggle(keys[i] ?? "")}
            onKey={(e) => {
              if (!e.altKey) return;
              if (e.key === "ArrowLeft" && i > 0) {
                e.preventDefault();
                onMove(i, i - 1);
              } else if (e.key === "ArrowRight" && i < hand.length - 1) {
                e.preventDefault();
                onMove(i, i + 1);
              }
            }}
          />
        ))}
      </ul>
    </SortableContext>
  );
}

function HandCard({
  id,
  card,
  wild,
  selected,
  onToggle,
  onKey,
}: {
  id: string;
  card: Card;
  wild: boolean;
  selected: boolean;
  onToggle: () => void;
  onKey: (e: React.KeyboardEvent) => void;
}) {
  const { listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  return (
    <li ref={setNodeRef} style={{ transform: CSS.Transform.toString(transform), transition }} className={isDragging ? "dragging" : ""}>
      <button
        ref={setActivatorNodeRef}
        type="button"
        {...listeners}
        className={`card${isRed(card) ? " red" : ""}${wild ? " wild" : ""}${selected ? " selected" : ""}`}
        aria-pressed={selected}
        aria-describedby="hand-help"
        data-card={card}
        onClick={onToggle}
        onKeyDown={onKey}
      >
        {label(card)}
      </button>
    </li>
  );
}
