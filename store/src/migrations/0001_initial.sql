-- Schema version 1 of state.db. Applied once, inside one transaction, by db::migrate.
-- Timestamps are milliseconds since the Unix epoch (UTC). Every table is STRICT so that a wrong
-- type is an error instead of a silently stored string.

-- Sessions: what an agent was doing in a project.
CREATE TABLE sessions (
    id         TEXT PRIMARY KEY NOT NULL,
    project    TEXT NOT NULL,
    agent      TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    task       TEXT
) STRICT;
CREATE INDEX sessions_by_project ON sessions (project, updated_ms DESC, id);

CREATE TABLE session_notes (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('finding', 'decision', 'next_step')),
    text       TEXT NOT NULL,
    at_ms      INTEGER NOT NULL
) STRICT;
CREATE INDEX session_notes_by_session ON session_notes (session_id, id);

-- One row per (session, path): touching a file again adds to it.
CREATE TABLE session_files (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    mode       TEXT NOT NULL,
    tokens     INTEGER NOT NULL CHECK (tokens >= 0),
    count      INTEGER NOT NULL CHECK (count >= 1),
    last_ms    INTEGER NOT NULL,
    PRIMARY KEY (session_id, path)
) STRICT, WITHOUT ROWID;

CREATE TABLE session_commands (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    command    TEXT NOT NULL,
    exit_code  INTEGER,
    at_ms      INTEGER NOT NULL
) STRICT;
CREATE INDEX session_commands_by_session ON session_commands (session_id, id);

-- Knowledge: current facts and their history in one table. At most one current row per
-- (project, key), enforced by the partial unique index, so two writers can never both add one.
CREATE TABLE facts (
    id             INTEGER PRIMARY KEY,
    project        TEXT NOT NULL,
    category       TEXT NOT NULL,
    key            TEXT NOT NULL,
    value          TEXT NOT NULL,
    source_session TEXT,
    confidence     REAL NOT NULL CHECK (confidence >= 0.0 AND confidence <= 1.0),
    created_ms     INTEGER NOT NULL,
    confirmed_ms   INTEGER NOT NULL,
    state          TEXT NOT NULL CHECK (state IN ('current', 'superseded', 'forgotten')),
    ended_ms       INTEGER,
    CHECK ((state = 'current') = (ended_ms IS NULL))
) STRICT;
CREATE UNIQUE INDEX facts_current ON facts (project, key) WHERE state = 'current';
CREATE INDEX facts_by_key ON facts (project, key, id);

-- Full-text index over the current facts only; history rows leave it when they stop being current.
CREATE VIRTUAL TABLE facts_fts USING fts5 (
    key, value, category,
    content = 'facts', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER facts_fts_add AFTER INSERT ON facts WHEN new.state = 'current' BEGIN
    INSERT INTO facts_fts (rowid, key, value, category) VALUES (new.id, new.key, new.value, new.category);
END;
CREATE TRIGGER facts_fts_retire AFTER UPDATE OF state ON facts
WHEN old.state = 'current' AND new.state <> 'current' BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, key, value, category)
    VALUES ('delete', old.id, old.key, old.value, old.category);
END;

-- The token ledger: append-only, hash-chained (see ledger.rs for the canonical encoding).
-- ids are assigned by the appender as last id + 1, so the chain has no gaps.
CREATE TABLE ledger (
    id          INTEGER PRIMARY KEY,
    at_ms       INTEGER NOT NULL,
    project     TEXT NOT NULL,
    session_id  TEXT,
    tool        TEXT NOT NULL,
    shape_kind  TEXT NOT NULL CHECK (shape_kind IN ('mode', 'family')),
    shape       TEXT NOT NULL,
    raw_tokens  INTEGER NOT NULL CHECK (raw_tokens >= 0),
    sent_tokens INTEGER NOT NULL CHECK (sent_tokens >= 0),
    hash        BLOB NOT NULL CHECK (length(hash) = 32)
) STRICT;
-- Gain reports read the edges of a window that does not start on a UTC day from here.
CREATE INDEX ledger_by_time ON ledger (at_ms);

-- Per UTC day rollup of the ledger, updated in the same transaction as every append, so gain
-- reports sum a few thousand rows instead of millions of events.
CREATE TABLE ledger_daily (
    day         INTEGER NOT NULL,
    project     TEXT NOT NULL,
    tool        TEXT NOT NULL,
    shape_kind  TEXT NOT NULL,
    shape       TEXT NOT NULL,
    events      INTEGER NOT NULL,
    raw_tokens  INTEGER NOT NULL,
    sent_tokens INTEGER NOT NULL,
    PRIMARY KEY (day, project, tool, shape_kind, shape)
) STRICT, WITHOUT ROWID;

-- The last content delivered to a session for a path: what an "[unchanged]" stub may refer to.
-- No foreign key to sessions: the reading component may record deliveries for sessions that
-- never stored notes.
CREATE TABLE deliveries (
    session_id   TEXT NOT NULL,
    path         TEXT NOT NULL,
    content_hash TEXT NOT NULL CHECK (length(content_hash) = 64),
    mode         TEXT NOT NULL,
    at_ms        INTEGER NOT NULL,
    PRIMARY KEY (session_id, path)
) STRICT, WITHOUT ROWID;
