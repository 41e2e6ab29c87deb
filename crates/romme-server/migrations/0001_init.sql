-- romme server schema. Portable SQL: the same file runs on SQLite and PostgreSQL.
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    password_hash TEXT,
    rating DOUBLE PRECISION NOT NULL DEFAULT 1500,
    matches BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX players_account_name ON players (name) WHERE password_hash IS NOT NULL;

CREATE TABLE game_tables (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX game_tables_status ON game_tables (status);

-- Every entry that changed a table, in order: the table is rebuilt from these.
CREATE TABLE table_log (
    table_id TEXT NOT NULL,
    n BIGINT NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);

-- Finished matches: the full record (ruleset, seed, actions) replays the match.
CREATE TABLE match_records (
    table_id TEXT NOT NULL,
    match_no BIGINT NOT NULL,
    record TEXT NOT NULL,
    finished_at BIGINT NOT NULL,
    PRIMARY KEY (table_id, match_no)
);

CREATE TABLE results (
    table_id TEXT NOT NULL,
    match_no BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    player_id TEXT,
    name TEXT NOT NULL,
    place BIGINT NOT NULL,
    points BIGINT NOT NULL,
    PRIMARY KEY (table_id, match_no, seat)
);
CREATE INDEX results_player ON results (player_id);
