// The leaderboard: the best-rated accounts (GET /api/leaderboard), the
// player's own line marked; shown in the lobby.

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { fetchLeaderboard, type Standing } from "./account";

export function Leaderboard({ me }: { me: string | null }) {
  const { t } = useTranslation();
  const [list, setList] = useState<Standing[] | null>(null);
  useEffect(() => {
    let live = true;
    void fetchLeaderboard().then((l) => live && setList(l));
    return () => {
      live = false;
    };
  }, []);
  return (
    <section aria-labelledby="leaderboard">
      <h2 id="leaderboard">{t("leaderboard")}</h2>
      {list === null ? null : list.length === 0 ? (
        <p>{t("leaderboardEmpty")}</p>
      ) : (
        <table className="history" data-testid="leaderboard">
          <thead>
            <tr>
              <th>{t("place")}</th>
              <th>{t("player")}</th>
              <th>{t("rating")}</th>
              <th>{t("ratedMatchesColumn")}</th>
            </tr>
          </thead>
          <tbody>
            {list.map((s, i) => (
              <tr key={s.name} className={s.name === me ? "me" : undefined}>
                <td>{i + 1}</td>
                <td>{s.name}</td>
                <td>{Math.round(s.rating)}</td>
                <td>{s.matches}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
