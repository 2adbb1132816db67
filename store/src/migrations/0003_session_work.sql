-- Schema version 3 of state.db: the session record holds the work done, not only what was read.
-- Applied once, inside one transaction, by db::migrate.

-- Every edit a session attempted on a file, applied or failed, in order. A handoff lists the
-- files edited from here.
CREATE TABLE session_edits (
    id         INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    path       TEXT NOT NULL,
    applied    INTEGER NOT NULL CHECK (applied IN (0, 1)),
    at_ms      INTEGER NOT NULL
) STRICT;
CREATE INDEX session_edits_by_session ON session_edits (session_id, id);

-- Whether a command ran tests (the daemon decides from the command's family), so a handoff can
-- name the last test runs and how they ended. Commands recorded before this version count as
-- other commands.
ALTER TABLE session_commands ADD COLUMN test INTEGER NOT NULL DEFAULT 0 CHECK (test IN (0, 1));
