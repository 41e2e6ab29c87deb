// The rules of the current table, readable: the variant's summary, the
// rules in sentences by topic (rulesText.ts), and every knob with its value.

import { useTranslation } from "react-i18next";
import { knobLabel } from "./knobLabels";
import { knobList } from "./knobs";
import type { TableInfo } from "./protocol";
import { ruleSections } from "./rulesText";

export function RulesView({ rules }: { rules: TableInfo["rules"] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === "de" ? "de" : "en";
  return (
    <details className="rules" data-testid="rules">
      <summary>{t("showRules")}</summary>
      <p>
        <strong>{lang === "de" ? rules.info.title_de : rules.info.title_en}</strong> —{" "}
        {lang === "de" ? rules.info.summary_de : rules.info.summary_en}
      </p>
      {ruleSections(rules, lang).map((s) => (
        <section key={s.title}>
          <h4>{s.title}</h4>
          <ul>
            {s.lines.map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
        </section>
      ))}
      <details>
        <summary>{t("allKnobs")}</summary>
        <table className="knob-table">
          <tbody>
            {knobList(rules).map((k) => (
              <tr key={k.key}>
                <td>
                  {knobLabel(k.key, lang === "de") ?? ""} <code>{k.key}</code>
                </td>
                <td>
                  <code>{k.value}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </details>
  );
}
