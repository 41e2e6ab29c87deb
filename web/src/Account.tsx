// The player's page: a guest can create an account (keeping its rating
// and results) or log in to one; an account sees its rating, its rated
// matches and its last results, and can log out.

import { useEffect, useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { useTranslation } from "react-i18next";
import { useApp } from "./App";
import { MIN_PASSWORD, accountError, changePassword, fetchMe, resultDate, session, type Me } from "./account";

export function Account() {
  const { t, i18n } = useTranslation();
  const { conn, state } = useApp();
  const [me, setMe] = useState<Me | null>(null);
  useEffect(() => {
    const token = conn.token;
    if (!state.me || !token) return;
    let live = true;
    void fetchMe(token).then((m) => live && setMe(m));
    return () => {
      live = false;
    };
  }, [conn, state.me]);
  if (!me) return <p className="panel">{t("loading")}</p>;
  const p = me.player;
  return (
    <section className="panel account">
      <h1>{t("account")}</h1>
      {p.account ? (
        <p>
          {t("signedInAs")} <strong data-testid="account-name">{p.name}</strong>
        </p>
      ) : (
        <p>{t("guestNote", { name: p.name })}</p>
      )}
      <p className="rating">
        {t("rating")}: <strong data-testid="account-rating">{Math.round(p.rating)}</strong> ·{" "}
        {t("ratedMatches", { count: p.matches })}
      </p>
      {p.account ? (
        <>
          <PasswordForm token={conn.token} onToken={(tok) => conn.switchTo(tok)} />
          <button
            type="button"
            onClick={() => {
              conn.forget();
              // A new visit: the name prompt (or the login) comes first.
              window.location.assign("/");
            }}
          >
            {t("logout")}
          </button>
        </>
      ) : (
        <>
          <SessionForm kind="register" initialName={p.name} token={conn.token} onToken={(tok) => conn.switchTo(tok)} />
          <SessionForm kind="login" initialName="" token={null} onToken={(tok) => conn.switchTo(tok)} />
        </>
      )}
      <h2>{t("recentMatches")}</h2>
      {me.history.length === 0 ? (
        <p>{t("noMatchesYet")}</p>
      ) : (
        <div className="scroll">
          <table className="history" data-testid="history">
            <thead>
              <tr>
                <th>{t("date")}</th>
                <th>{t("table")}</th>
                <th>{t("place")}</th>
                <th>{t("points")}</th>
              </tr>
            </thead>
            <tbody>
              {me.history.map((h) => (
                <tr key={`${h.table}-${h.match_no}`}>
                  <td>{resultDate(h.finished_at, i18n.language)}</td>
                  <td>
                    <Link to={`/t/${h.table}`}>
                      {h.table} · {t("matchNo", { n: h.match_no })}
                    </Link>
                  </td>
                  <td>{h.place > 0 ? h.place : t("noPlace")}</td>
                  <td>{h.points}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Registering (`kind` "register"; with a guest's `token` the guest becomes
 *  the account) or logging in: name and password; `onToken` gets the new
 *  session. */
export function SessionForm({
  kind,
  initialName,
  token,
  onToken,
}: {
  kind: "register" | "login";
  initialName: string;
  token: string | null;
  onToken: (token: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const [name, setName] = useState(initialName);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const answer = await session(kind, name.trim(), password, token);
    setBusy(false);
    if ("error" in answer) {
      setError(accountError(answer.error, i18n.language));
      return;
    }
    setError(null);
    setPassword("");
    onToken(answer.token);
  };
  return (
    <form className="session-form" data-testid={`${kind}-form`} onSubmit={(e) => void submit(e)}>
      <h2>{kind === "register" ? t("createAccount") : t("login")}</h2>
      <label>
        {t("accountName")}
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={24}
          name="username"
          autoComplete="username"
          required
        />
      </label>
      <PasswordField label={t("password")} name="password" value={password} onChange={setPassword} fresh={kind === "register"} />
      {kind === "register" && <small>{t("passwordRule", { n: MIN_PASSWORD })}</small>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {kind === "register" ? t("createAccount") : t("login")}
      </button>
    </form>
  );
}

/** A new password for the account: the old one, the new one. The other
 *  devices' sessions end; `onToken` gets this one's new session. */
function PasswordForm({ token, onToken }: { token: string | null; onToken: (token: string) => void }) {
  const { t, i18n } = useTranslation();
  const [old, setOld] = useState("");
  const [next, setNext] = useState("");
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!token) return;
    const answer = await changePassword(token, old, next);
    if ("error" in answer) {
      setSaid({ ok: false, text: accountError(answer.error, i18n.language) });
      return;
    }
    setOld("");
    setNext("");
    setSaid({ ok: true, text: t("passwordChanged") });
    onToken(answer.token);
  };
  return (
    <details className="session-form">
      <summary>{t("changePassword")}</summary>
      <form className="session-form" data-testid="password-form" onSubmit={(e) => void submit(e)}>
        <PasswordField label={t("oldPassword")} name="old-password" value={old} onChange={setOld} fresh={false} />
        <PasswordField label={t("newPassword", { n: MIN_PASSWORD })} name="new-password" value={next} onChange={setNext} fresh />
        {said && (
          <p className={said.ok ? "ok" : "error"} role={said.ok ? "status" : "alert"}>
            {said.text}
          </p>
        )}
        <button type="submit">{t("changePassword")}</button>
      </form>
    </details>
  );
}

/** A password input with its label; `fresh` for a new password (the
 *  browser may suggest one, and checks the server's least length). */
function PasswordField(props: {
  label: string;
  name: string;
  value: string;
  onChange: (v: string) => void;
  fresh: boolean;
}) {
  return (
    <label>
      {props.label}
      <input
        type="password"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        name={props.name}
        autoComplete={props.fresh ? "new-password" : "current-password"}
        minLength={props.fresh ? MIN_PASSWORD : undefined}
        required
      />
    </label>
  );
}
