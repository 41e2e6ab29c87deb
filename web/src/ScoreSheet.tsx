// The score sheet of a table: every finished match (place, player, points,
// games won) and, once there are several, the totals per player.

import { useTranslation } from "react-i18next";
import type { MatchSummary } from "./protocol";

export function totals(matches: MatchSummary[]): { name: string; points: number; wins: number; matches: number }[] {
  const by = new Map<string, { name: string; points: number; wins: number; matches: number }>();
  for (const m of matches) {
    for (const p of m.placings) {
      const row = by.get(p.name) ?? { name: p.name, points: 0, wins: 0, matches: 0 };
      row.points += p.points;
      row.matches += 1;
      if (p.place === 1) row.wins += 1;
      by.set(p.name, row);
    }
  }
  return [...by.values()].sort((a, b) => b.wins - a.wins || a.points - b.points);
}

export function ScoreSheet({ matches, open }: { matches: MatchSummary[]; open: boolean }) {
  const { t } = useTranslation();
  const sum = totals(matches);
  return (
    <details className="sheet" open={open}>
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
          {matches.flatMap((m) =>
            m.placings.map((p) => (
              <tr key={`${m.match_no}-${p.seat}`} className={p.place === 1 ? "winner" : ""}>
                <td>{m.match_no}</td>
                <td>{p.forfeited ? `${p.place} (${t("forfeited")})` : p.place}</td>
                <td>{p.name}</td>
                <td>{p.points}</td>
                <td>{p.games_won}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      {matches.length > 1 && (
        <table data-testid="score-totals" className="totals">
          <caption>{t("totals")}</caption>
          <thead>
            <tr>
              <th>{t("player")}</th>
              <th>{t("matchesWon")}</th>
              <th>{t("points")}</th>
            </tr>
          </thead>
          <tbody>
            {sum.map((r) => (
              <tr key={r.name}>
                <td>{r.name}</td>
                <td>
                  {r.wins} / {r.matches}
                </td>
                <td>{r.points}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}
