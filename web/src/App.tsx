// The application shell: the connection, the state reducer, the language
// switch, the name prompt (or the login) of a first visit, and the pages
// (lobby, table, the player's page).

import { createContext, useContext, useEffect, useMemo, useReducer, useState } from "react";
import { Route, Routes, Link } from "react-router-dom";
import { useTranslation } from "react-i18next";
import { Connection, wsUrl } from "./connection";
import { initial, reduce, type ClientState } from "./state";
import type { ServerMsg } from "./protocol";
import { toggleLanguage } from "./i18n";
import { Lobby } from "./Lobby";
import { TablePage } from "./TablePage";
import { Account, SessionForm } from "./Account";

type Change = { msg: ServerMsg } | { apply: (s: ClientState) => ClientState };

function reducer(state: ClientState, change: Change): ClientState {
  return "msg" in change ? reduce(state, change.msg) : change.apply(state);
}

interface Ctx {
  conn: Connection;
  state: ClientState;
  update: (f: (s: ClientState) => ClientState) => void;
  online: boolean;
}

const AppContext = createContext<Ctx | null>(null);

export function useApp(): Ctx {
  const c = useContext(AppContext);
  if (!c) throw new Error("no app context");
  return c;
}

export function App() {
  const { t } = useTranslation();
  const conn = useMemo(() => new Connection(wsUrl()), []);
  const [state, dispatch] = useReducer(reducer, initial);
  const [online, setOnline] = useState(false);
  const [named, setNamed] = useState<boolean>(() => !!conn.token);
  useEffect(() => {
    const off = conn.subscribe((msg) => dispatch({ msg }));
    conn.onStatus = setOnline;
    return () => {
      off();
    };
  }, [conn]);
  useEffect(() => {
    if (!named) return;
    conn.connect();
    return () => conn.close();
  }, [conn, named]);
  const ctx: Ctx = { conn, state, update: (apply) => dispatch({ apply }), online };
  if (!named) {
    return (
      <NamePrompt
        onName={(name) => ((conn.guestName = name), setNamed(true))}
        onToken={(token) => (conn.switchTo(token), setNamed(true))}
      />
    );
  }
  return (
    <AppContext.Provider value={ctx}>
      <header className="top">
        <Link to="/" className="brand">
          {t("title")}
        </Link>
        <Link to="/me" className="who" title={t("account")} data-testid="account-link">
          {state.me?.name}
        </Link>
        <button type="button" className="lang" onClick={toggleLanguage}>
          {t("language")}
        </button>
      </header>
      {!online && <div className="banner" role="status">{t("reconnecting")}</div>}
      <main>
        <Routes>
          <Route path="/" element={<Lobby />} />
          <Route path="/t/:id" element={<TablePage />} />
          <Route path="/me" element={<Account />} />
        </Routes>
      </main>
    </AppContext.Provider>
  );
}

function NamePrompt({ onName, onToken }: { onName: (n: string) => void; onToken: (token: string) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [login, setLogin] = useState(false);
  return (
    <div className="name-prompt">
      <h1>{t("title")}</h1>
      {login ? (
        <SessionForm kind="login" initialName="" token={null} onToken={onToken} />
      ) : (
        <form
          className="session-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) onName(name.trim());
          }}
        >
          <label>
            {t("nickname")}
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={24} autoFocus name="nickname" />
          </label>
          <button type="submit">{t("play")}</button>
        </form>
      )}
      <button type="button" className="link" onClick={() => setLogin(!login)}>
        {login ? t("playAsGuest") : t("haveAccount")}
      </button>
      <button type="button" className="lang" onClick={toggleLanguage}>
        {t("language")}
      </button>
    </div>
  );
}
