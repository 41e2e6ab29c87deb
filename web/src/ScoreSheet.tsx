// The score sheet of a table: the running sheet of the match being played
// (each game's points per seat, the winner of each game, the totals so far,
// who is out), every finished match (place, player, points, games won) and,
// once there are several, the totals per player.

import { useTranslation } from "react-i18next";
import type { MatchSheetView, MatchSummary } from "./protocol";

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

/** A finished match's place: 0 is no place (a solo patience that did not
 *  come out); a forfeit says so. */
export function placeText(p: { place: number; forfeited: boolean }, t: (k: string) => string): string {
  if (p.place === 0) return t("noPlace");
  return p.forfeited ? `${p.place} (${t("forfeited")})` : String(p.place);
}

/** A game's cell: its points, and the rating points where the scheme has
 *  them (club). */
export function cell(p: { points: number; rating: number | null }): string {
  if (p.rating === null || p.rating === undefined) return String(p.points);
  return `${p.points} (${p.rating > 0 ? "+" : ""}${p.rating})`;
}

function RunningSheet({ sheet, names }: { sheet: MatchSheetView; names: string[] }) {
  const { t } = useTranslation();
  const club = sheet.games.some((g) => g.players.some((p) => p.rating !== null && p.rating !== undefined));
  // A seat out of the match (elimination) has no score in the games after.
  const out = (seat: number, game: number) => {
    const after = sheet.totals[seat]?.eliminated_after;
    return after !== null && after !== undefined && game > after;
  };
  return (
    <div className="scroll">
      <table data-testid="running-sheet" className="running">
        <caption>{t("thisMatch")}</caption>
        <thead>
          <tr>
            <th />
            {names.map((n, i) => (
              <th key={i}>{n}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sheet.games.map((g, k) => (
            <tr key={k}>
              <th scope="row">{t("gameNo", { n: k + 1 })}</th>
              {g.players.map((p, i) =>
                out(i, k + 1) ? (
                  <td key={i}>—</td>
                ) : (
                  <td key={i} className={p.won ? "winner" : ""} title={p.won ? t("wonGame") : undefined}>
                    {cell(p)}
                    {p.won ? " ✓" : ""}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{t("sum")}</th>
            {sheet.totals.map((tot, i) => (
              <td key={i}>
                {club ? cell({ points: tot.points, rating: tot.rating_plus - tot.rating_minus }) : tot.points}
                {tot.eliminated_after ? ` (${t("outAfter", { n: tot.eliminated_after })})` : ""}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

export function ScoreSheet({
  matches,
  open,
  current,
}: {
  matches: MatchSummary[];
  open: boolean;
  /** The match being played, once a game of it is scored. */
  current?: { sheet: MatchSheetView; names: string[] } | null;
}) {
  const { t } = useTranslation();
  const sum = totals(matches);
  return (
    <details className="sheet" open={open}>
      <summary>{t("scoreSheet")}</summary>
      {current && current.sheet.games.length > 0 && <RunningSheet sheet={current.sheet} names={current.names} />}
      {matches.length === 0 && !(current && current.sheet.games.length > 0) && <p>{t("noScores")}</p>}
      <table data-testid="score-sheet" hidden={matches.length === 0}>
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
                <td>{placeText(p, t)}</td>
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
