-- Schema version 2 of state.db: the output archive (see archive.rs). Applied once, inside one
-- transaction, by db::migrate. The archived bytes themselves are zstd files beside the database
-- (<archive dir>/<id[0..2]>/<id>.zst); this table holds what describes and finds them.

-- One row per archived content. id is the first 16 hex characters of the BLAKE3 hash of the raw
-- bytes, so archiving the same content again finds the same row. An expired row stays (with its
-- blob and search entry gone) so that expanding it says "expired" instead of "unknown".
CREATE TABLE archive (
    id           TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 16 AND id NOT GLOB '*[^0-9a-f]*'),
    created_ms   INTEGER NOT NULL,
    -- What was archived, e.g. 'shell'.
    kind         TEXT NOT NULL,
    -- What it was archived from, e.g. the command line.
    label        TEXT NOT NULL,
    -- The output family that shortened it, e.g. 'cargo_test'.
    family       TEXT NOT NULL,
    exit_code    INTEGER,
    raw_bytes    INTEGER NOT NULL CHECK (raw_bytes >= 0),
    raw_lines    INTEGER NOT NULL CHECK (raw_lines >= 0),
    -- Size of the compressed blob file; retention sums it.
    stored_bytes INTEGER NOT NULL CHECK (stored_bytes >= 0),
    session      TEXT,
    project      TEXT NOT NULL,
    expired_ms   INTEGER
) STRICT, WITHOUT ROWID;
-- Retention walks the live rows oldest first.
CREATE INDEX archive_live_by_age ON archive (created_ms, id) WHERE expired_ms IS NULL;

-- Full-text index over the live archived outputs: the label and the text. Contentless, because the
-- text already lives (compressed) in the blob files; a copy here would store every output again,
-- uncompressed. The rowid is the id read as a 64-bit integer (archive.rs: fts_rowid), which stays
-- stable across VACUUM, unlike the implicit rowid of a table keyed by text.
CREATE VIRTUAL TABLE archive_fts USING fts5 (
    label, body,
    content = '', contentless_delete = 1, detail = column,
    tokenize = 'unicode61 remove_diacritics 2'
);
