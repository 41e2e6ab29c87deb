// The joker declaration dialog: one meld, its possible readings as radio
// buttons (the joker's card highlighted), OK and cancel. Keyboard: arrows
// choose, Enter confirms, Escape cancels.

import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { SmallCard } from "./Board";
import { isRed, label } from "./cards";
import type { Card } from "./protocol";

export interface JokerQuestion {
  meld: Card[];
  options: Card[][];
}

export function JokerDialog({ question, onDone }: { question: JokerQuestion; onDone: (m: Card[] | null) => void }) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState(0);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      className="joker-dialog"
      aria-labelledby="joker-title"
      data-testid="joker-dialog"
      onCancel={(e) => {
        e.preventDefault();
        onDone(null);
      }}
    >
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          onDone(question.options[choice] ?? null);
        }}
      >
        <h3 id="joker-title">{t("declare")}</h3>
        <p className="meld">
          {question.meld.map((c, i) => (
            <SmallCard key={i} card={c} />
          ))}
        </p>
        <fieldset>
          <legend>{t("declareHow")}</legend>
          {question.options.map((o, i) => (
            <label key={o.join(" ")} className="reading">
              <input
                type="radio"
                name="reading"
                value={o.join(" ")}
                data-reading={o.join(" ")}
                checked={choice === i}
                onChange={() => setChoice(i)}
                autoFocus={i === 0}
              />
              {o.map((c, k) => (
                <span key={k} className={`card small${isRed(c) ? " red" : ""}${c.startsWith("*") ? " joker" : ""}`}>
                  {c.startsWith("*=") ? label(c.slice(2)) : label(c)}
                </span>
              ))}
            </label>
          ))}
        </fieldset>
        <div className="dialog-buttons">
          <button type="button" onClick={() => onDone(null)}>
            {t("cancel")}
          </button>
          <button type="submit" className="primary" data-testid="joker-ok">
            OK
          </button>
        </div>
      </form>
    </dialog>
  );
}
