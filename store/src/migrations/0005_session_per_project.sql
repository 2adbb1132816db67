-- Schema version 5 of state.db: a session is its id within a project. Applied once, inside one
-- transaction, by db::migrate.
--
-- Sessions were keyed by id alone, so one id (LEAN_CTX_SESSION, set once for every shell) used in
-- a second project had its records there refused as "belongs to project A" and counted lost.
-- Each session row now has a number of its own, which the rows recorded in it refer to; every
-- old row keeps the project it recorded (project was required), and what was recorded in a
-- session goes with it.

CREATE TABLE sessions_v5 (
    key        INTEGER PRIMARY KEY,
    project    TEXT NOT NULL,
    id         TEXT NOT NULL,
    agent      TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    task       TEXT,
    UNIQUE (project, id)
) STRICT;
INSERT INTO sessions_v5 (project, id, agent, created_ms, updated_ms, task)
SELECT project, id, agent, created_ms, updated_ms, task FROM sessions ORDER BY created_ms, id;

CREATE TABLE session_notes_v5 (
    id      INTEGER PRIMARY KEY,
    session INTEGER NOT NULL REFERENCES sessions_v5 (key) ON DELETE CASCADE,
    kind    TEXT NOT NULL CHECK (kind IN ('finding', 'decision', 'next_step')),
    text    TEXT NOT NULL,
    at_ms   INTEGER NOT NULL
) STRICT;
INSERT INTO session_notes_v5 (id, session, kind, text, at_ms)
SELECT n.id, s.key, n.kind, n.text, n.at_ms FROM session_notes n JOIN sessions_v5 s ON s.id = n.session_id;

CREATE TABLE session_files_v5 (
    session INTEGER NOT NULL REFERENCES sessions_v5 (key) ON DELETE CASCADE,
    path    TEXT NOT NULL,
    mode    TEXT NOT NULL,
    tokens  INTEGER NOT NULL CHECK (tokens >= 0),
    count   INTEGER NOT NULL CHECK (count >= 1),
    last_ms INTEGER NOT NULL,
    PRIMARY KEY (session, path)
) STRICT, WITHOUT ROWID;
INSERT INTO session_files_v5 (session, path, mode, tokens, count, last_ms)
SELECT s.key, f.path, f.mode, f.tokens, f.count, f.last_ms FROM session_files f JOIN sessions_v5 s ON s.id = f.session_id;

CREATE TABLE session_commands_v5 (
    id        INTEGER PRIMARY KEY,
    session   INTEGER NOT NULL REFERENCES sessions_v5 (key) ON DELETE CASCADE,
    command   TEXT NOT NULL,
    exit_code INTEGER,
    test      INTEGER NOT NULL DEFAULT 0 CHECK (test IN (0, 1)),
    ends_with TEXT,
    at_ms     INTEGER NOT NULL
) STRICT;
INSERT INTO session_commands_v5 (id, session, command, exit_code, test, ends_with, at_ms)
SELECT c.id, s.key, c.command, c.exit_code, c.test, c.ends_with, c.at_ms
FROM session_commands c JOIN sessions_v5 s ON s.id = c.session_id;

CREATE TABLE session_edits_v5 (
    id      INTEGER PRIMARY KEY,
    session INTEGER NOT NULL REFERENCES sessions_v5 (key) ON DELETE CASCADE,
    path    TEXT NOT NULL,
    applied INTEGER NOT NULL CHECK (applied IN (0, 1)),
    at_ms   INTEGER NOT NULL
) STRICT;
INSERT INTO session_edits_v5 (id, session, path, applied, at_ms)
SELECT e.id, s.key, e.path, e.applied, e.at_ms FROM session_edits e JOIN sessions_v5 s ON s.id = e.session_id;

-- The rows recorded in a session first, so that dropping the sessions cascades into nothing.
DROP TABLE session_notes;
DROP TABLE session_files;
DROP TABLE session_commands;
DROP TABLE session_edits;
DROP TABLE sessions;
-- Renaming a table rewrites the references other tables make to it.
ALTER TABLE sessions_v5 RENAME TO sessions;
ALTER TABLE session_notes_v5 RENAME TO session_notes;
ALTER TABLE session_files_v5 RENAME TO session_files;
ALTER TABLE session_commands_v5 RENAME TO session_commands;
ALTER TABLE session_edits_v5 RENAME TO session_edits;
CREATE INDEX sessions_by_project ON sessions (project, updated_ms DESC, id);
CREATE INDEX session_notes_by_session ON session_notes (session, id);
CREATE INDEX session_commands_by_session ON session_commands (session, id);
CREATE INDEX session_edits_by_session ON session_edits (session, id);

-- Which content a session last received, kept for "[unchanged]" stubs, keyed by session id alone:
-- never read by lean-ctxd, which keeps what a session holds in memory (a restart forgets it, so
-- the next read of each file is sent whole), so dropped rather than keyed anew.
DROP TABLE deliveries;
