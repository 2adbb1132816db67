//! Opening `state.db`: connection settings, quarantine of a corrupt file, versioned migrations.

use std::fs::{self, File};
use std::io::Read as _;
use std::path::Path;
use std::time::{Duration, Instant};

use rusqlite::{Connection, ErrorCode, TransactionBehavior};

use crate::Store;
use crate::error::{Error, Result};
use crate::file_size;
use crate::quarantine::quarantine;

/// How long a statement waits for another process's write lock before failing with
/// [`Error::Busy`]. Writes are short (one transaction per call), so hitting this means a stuck
/// process, not load.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Schema migrations in order; migration `i` brings the file to `PRAGMA user_version` `i + 1`.
/// Never edit a released migration: add a new one.
const MIGRATIONS: &[&str] = &[
    include_str!("migrations/0001_initial.sql"),
    include_str!("migrations/0002_archive.sql"),
    include_str!("migrations/0003_session_work.sql"),
    include_str!("migrations/0004_test_line_end.sql"),
    include_str!("migrations/0005_session_per_project.sql"),
];

/// The first bytes of every SQLite database file.
const SQLITE_HEADER: &[u8] = b"SQLite format 3\0";

/// How much of the file [`Store::open`] checks with `PRAGMA quick_check` before using it.
///
/// The check reads every page, so its cost grows with the ledger: 0.6 to 1.1 s for 1,000,000
/// events (123 MB) on the benchmark machine, against milliseconds for everything else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Check {
    /// The whole file. For the daemon, which opens once per start.
    Everything,
    /// Every table except the ledger, whose content [`Store::verify`] checks on demand, and the
    /// archive's search index, which grows with the archived outputs (about as large as their
    /// compressed blobs). For short-lived fallback processes that open the store for one command.
    SkipLedger,
}

/// A store just opened, and what the caller must tell the user about it.
pub struct Opened {
    pub store: Store,
    /// Set when the file was corrupt and has been moved aside; names the moved file.
    pub warning: Option<String>,
}

/// Why a connection attempt did not produce a usable store.
enum Refusal {
    /// The file is not a readable database: quarantine it.
    Corrupt(String),
    /// Anything else (permissions, busy, newer schema): report it and touch nothing.
    Failed(Error),
}

impl From<Error> for Refusal {
    fn from(error: Error) -> Self {
        match &error {
            Error::Sqlite(source)
                if matches!(source.sqlite_error_code(), Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt)) =>
            {
                Refusal::Corrupt(source.to_string())
            }
            _ => Refusal::Failed(error),
        }
    }
}

impl From<rusqlite::Error> for Refusal {
    fn from(error: rusqlite::Error) -> Self {
        Error::from(error).into()
    }
}

impl Store {
    /// Runs `f` waiting at most `wait` instead of the busy timeout for another process's write
    /// lock: a caller that retries can let other users of its connection in between attempts
    /// instead of holding it for the whole busy timeout.
    pub fn within<R>(&mut self, wait: Duration, f: impl FnOnce(&mut Store) -> Result<R>) -> Result<R> {
        self.conn.busy_timeout(wait)?;
        let result = f(self);
        self.conn.busy_timeout(BUSY_TIMEOUT)?;
        result
    }

    /// Opens (creating if needed) the store at `path`, migrating it to the current schema.
    ///
    /// A corrupt file is moved aside and replaced by a fresh one; the returned warning says so.
    /// Two processes that find the same corrupt file serialize on a lock of its directory, and the
    /// second one re-checks and opens the fresh file instead of moving it aside too.
    pub fn open(path: &Path, check: Check) -> Result<Opened> {
        if let Some(parent) = path.parent().filter(|parent| !parent.as_os_str().is_empty()) {
            fs::create_dir_all(parent).map_err(|source| Error::Io {
                action: "create the directory",
                path: parent.to_path_buf(),
                source,
            })?;
        }
        match connect_waiting(path, check) {
            Ok(conn) => return Ok(Opened { store: Store { conn }, warning: None }),
            Err(Refusal::Failed(error)) => return Err(error),
            Err(Refusal::Corrupt(_)) => {}
        }
        // The directory, not a lock file beside the database: such a file would stay behind, and
        // removing it when done would let a process that opened it before the removal and one
        // that creates it anew both hold "the" lock.
        let dir = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let lock = File::open(dir).map_err(|source| Error::Io { action: "open", path: dir.to_path_buf(), source })?;
        lock.lock().map_err(|source| Error::Io { action: "lock", path: dir.to_path_buf(), source })?;
        let reason = match connect_waiting(path, check) {
            Ok(conn) => return Ok(Opened { store: Store { conn }, warning: None }),
            Err(Refusal::Failed(error)) => return Err(error),
            Err(Refusal::Corrupt(reason)) => reason,
        };
        let moved = quarantine(path)?;
        let conn = connect(path, check).map_err(|refusal| match refusal {
            Refusal::Corrupt(reason) => Error::Damaged(format!(
                "{} is unreadable even after the damaged file was moved aside ({reason}); check the disk and its file \
                 system",
                path.display()
            )),
            Refusal::Failed(error) => error,
        })?;
        let warning = format!(
            "{} was not a readable database ({reason}); moved it to {} and started a fresh one. Sessions, knowledge \
             and the ledger start empty; the old file is kept for recovery.",
            path.display(),
            moved.display()
        );
        Ok(Opened { store: Store { conn }, warning: Some(warning) })
    }
}

/// How long [`connect_waiting`] pauses before it tries a busy file again.
const OPEN_RETRY: Duration = Duration::from_millis(25);

/// [`connect`], tried again while another process is creating the file, for up to
/// [`BUSY_TIMEOUT`]. Not every statement of opening waits through the busy timeout: switching a
/// new file to WAL, or reading it while another process is creating or recovering it, can fail at
/// once with `SQLITE_BUSY`; and the integrity check of a file another process is migrating can
/// fail with `SQLITE_SCHEMA` (the check builds the full-text table, whose constructor reads its
/// configuration in a statement of its own and meets the newer schema). A process that opens
/// `state.db` while another one is creating it (a daemon starting on demand beside fallback
/// processes, all on a fresh home) then waits like any writer instead of failing.
fn connect_waiting(path: &Path, check: Check) -> Result<Connection, Refusal> {
    let deadline = Instant::now() + BUSY_TIMEOUT;
    loop {
        match connect(path, check) {
            Err(Refusal::Failed(error)) if another_opener_in_the_way(&error) && Instant::now() < deadline => {
                std::thread::sleep(OPEN_RETRY)
            }
            other => return other,
        }
    }
}

/// Whether opening failed only because another process was creating or migrating the file.
fn another_opener_in_the_way(error: &Error) -> bool {
    match error {
        Error::Busy(_) => true,
        Error::Sqlite(source) => source.sqlite_error_code() == Some(ErrorCode::SchemaChanged),
        _ => false,
    }
}

/// Opens a connection and settles it (see [`settle`]); a refused write says which limit refused it.
fn connect(path: &Path, check: Check) -> Result<Connection, Refusal> {
    if let Some(problem) = header_problem(path) {
        return Err(Refusal::Corrupt(problem));
    }
    let conn = Connection::open(path)?;
    match settle(&conn, path, check) {
        Ok(()) => Ok(conn),
        Err(Refusal::Failed(error)) => Err(Refusal::Failed(file_size::explained(&conn, error))),
        Err(corrupt) => Err(corrupt),
    }
}

/// Applies the settings to a new connection, checks integrity and migrates.
fn settle(conn: &Connection, path: &Path, check: Check) -> Result<(), Refusal> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // The first statement that reads the file: a file that is not a database fails here.
    let mode: String = conn.pragma_update_and_check(None, "journal_mode", "wal", |row| row.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(Refusal::Failed(Error::Damaged(format!(
            "{} refused WAL mode (journal_mode stays {mode}); put the state directory on a local file system",
            path.display()
        ))));
    }
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    let problems = quick_check(conn, check)?;
    if !problems.is_empty() {
        return Err(Refusal::Corrupt(format!("quick_check: {problems}")));
    }
    migrate(conn, path)?;
    Ok(())
}

/// Checks the file header before SQLite sees the file: SQLite may delete or reset the `-wal` of a
/// file it cannot read, and the quarantine should keep everything as found. A missing or empty
/// file is a new database (an empty main file with a WAL is legitimate too); a read error is left
/// for SQLite to report.
fn header_problem(path: &Path) -> Option<String> {
    let mut header = Vec::with_capacity(SQLITE_HEADER.len());
    File::open(path).ok()?.take(SQLITE_HEADER.len() as u64).read_to_end(&mut header).ok()?;
    let valid = header.is_empty() || header == SQLITE_HEADER;
    (!valid).then(|| "the file does not start with the SQLite header".to_owned())
}

/// Runs `PRAGMA quick_check` over what `check` covers; returns its findings joined, or an empty
/// string when the file is ok.
fn quick_check(conn: &Connection, check: Check) -> rusqlite::Result<String> {
    // (the table checked, or none for the whole file; the statement)
    let statements: Vec<(Option<String>, String)> = match check {
        Check::Everything => vec![(None, "PRAGMA quick_check(5)".to_owned())],
        // Checking a table also checks its indexes; the ledger's time index goes with it. The
        // shadow tables of archive_fts hold its index.
        Check::SkipLedger => conn
            .prepare(
                "SELECT name FROM sqlite_schema
                 WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name <> 'ledger'
                     AND name NOT GLOB 'archive_fts_*' ORDER BY name",
            )?
            .query_map([], |row| row.get::<_, String>(0))?
            .map(|name| {
                name.map(|name| {
                    let sql = format!("PRAGMA quick_check(\"{}\")", name.replace('"', "\"\""));
                    (Some(name), sql)
                })
            })
            .collect::<rusqlite::Result<_>>()?,
    };
    let mut findings = Vec::new();
    for (table, sql) in statements {
        let found = conn
            .prepare(&sql)
            .and_then(|mut statement| statement.query_map([], |row| row.get::<_, String>(0))?.collect());
        let found: Vec<String> = match found {
            Ok(found) => found,
            // A table another process's migration dropped since the list was read (version 5
            // drops `deliveries`): there is nothing of it left to check.
            Err(_) if table.as_deref().is_some_and(|table| !table_exists(conn, table).unwrap_or(true)) => continue,
            Err(e) => return Err(e),
        };
        findings.extend(found.into_iter().filter(|finding| finding != "ok"));
    }
    Ok(findings.join("; "))
}

fn table_exists(conn: &Connection, table: &str) -> rusqlite::Result<bool> {
    conn.query_row("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?1", [table], |row| {
        row.get::<_, i64>(0)
    })
    .map(|count| count > 0)
}

/// Brings the file to the newest schema, one transaction per migration.
///
/// Each step re-reads the version after taking the write lock, so processes that open a fresh
/// file at the same time apply every migration exactly once.
fn migrate(conn: &Connection, path: &Path) -> Result<()> {
    let supported = MIGRATIONS.len() as i64;
    let found = user_version(conn)?;
    if found > supported {
        return Err(Error::NewerSchema { path: path.to_path_buf(), found, supported });
    }
    for (version, sql) in (1..).zip(MIGRATIONS).skip(usize::try_from(found).unwrap_or(0)) {
        let tx = rusqlite::Transaction::new_unchecked(conn, TransactionBehavior::Immediate)?;
        if user_version(&tx)? < version {
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", version)?;
        }
        tx.commit()?;
    }
    // Another process may have migrated the file after this connection read its schema: the
    // version checks above read the header, not the schema, and a statement compiled against the
    // old one can fail before SQLite notices it changed (`INSERT … ON CONFLICT (project, id)`
    // into version 4's sessions: "ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE
    // constraint"). Reading the schema table notices, and loads the current one.
    conn.query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get::<_, i64>(0))?;
    Ok(())
}

fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::now_ms;
    use crate::quarantine::{quarantined, side_path};

    #[test]
    fn fresh_file_gets_wal_foreign_keys_and_the_latest_schema() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/state.db");
        let opened = Store::open(&path, Check::Everything).unwrap();
        assert!(opened.warning.is_none());
        let conn = &opened.store.conn;
        let mode: String = conn.pragma_query_value(None, "journal_mode", |row| row.get(0)).unwrap();
        assert_eq!(mode, "wal");
        let foreign_keys: bool = conn.pragma_query_value(None, "foreign_keys", |row| row.get(0)).unwrap();
        assert!(foreign_keys);
        // NORMAL is 1.
        let synchronous: i64 = conn.pragma_query_value(None, "synchronous", |row| row.get(0)).unwrap();
        assert_eq!(synchronous, 1);
        assert_eq!(user_version(conn).unwrap(), MIGRATIONS.len() as i64);
        assert_eq!(
            MIGRATIONS.len(),
            5,
            "version 2 added the output archive, 3 the edits and test runs of sessions, 4 the program a test line \
             ends with, 5 keyed sessions by project and id"
        );
    }

    #[test]
    fn a_version_1_file_is_migrated_and_keeps_its_data() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        // A file as the first release left it: migration 0001 only.
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(MIGRATIONS[0]).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        conn.execute(
            "INSERT INTO sessions (id, project, agent, created_ms, updated_ms, task) VALUES ('s1', '/p', 'a', 1, 2, 't')",
            [],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO session_commands (session_id, command, exit_code, at_ms) VALUES ('s1', 'make', 0, 3)",
            [],
        )
        .unwrap();
        let tables: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'archive%'", [], |row| row.get(0))
            .unwrap();
        assert_eq!(tables, 0);
        drop(conn);

        for check in [Check::SkipLedger, Check::Everything] {
            let opened = Store::open(&path, check).unwrap();
            assert!(opened.warning.is_none());
            let mut store = opened.store;
            assert_eq!(user_version(&store.conn).unwrap(), MIGRATIONS.len() as i64);
            let session = store.session(crate::SessionKey { project: "/p", id: "s1" }).unwrap().unwrap();
            assert_eq!(session.info.task.as_deref(), Some("t"));
            let commands: Vec<_> = session.commands.iter().map(|c| (c.command.as_str(), c.kind.clone())).collect();
            assert_eq!(commands, [("make", crate::CommandKind::Other)], "older commands are not test runs");
            let archive = dir.path().join("archive");
            let entry = crate::ArchiveEntry {
                kind: "shell",
                label: "echo migrated",
                family: "generic",
                exit_code: Some(0),
                session: Some("s1"),
                project: "/p",
                text: b"migrated\n",
            };
            let id = store.archive_put(&archive, &entry).unwrap();
            assert_eq!(store.archive_get(&archive, &id).unwrap().bytes, b"migrated\n");
            assert_eq!(store.archive_search(&archive, "migrated", None, 10).unwrap().len(), 1);
        }
    }

    /// Sessions were keyed by id alone: a version 4 file's sessions, each with the project it
    /// recorded, keep everything recorded in them, and the same id then starts another session in
    /// another project instead of being refused.
    #[test]
    fn a_version_4_file_keys_its_sessions_by_project_and_keeps_their_records() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "foreign_keys", true).unwrap();
        for sql in &MIGRATIONS[..4] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 4).unwrap();
        conn.execute_batch(
            "INSERT INTO sessions (id, project, agent, created_ms, updated_ms, task) VALUES
                 ('s1', '/a', 'claude', 1, 9, 'fix a'), ('s2', '/b', 'codex', 2, 8, NULL);
             INSERT INTO session_notes (session_id, kind, text, at_ms) VALUES
                 ('s1', 'finding', 'lexer drops CR', 3), ('s2', 'next_step', 'add a test', 4);
             INSERT INTO session_files (session_id, path, mode, tokens, count, last_ms) VALUES
                 ('s1', 'src/lex.rs', 'full', 900, 2, 5), ('s2', 'src/lex.rs', 'map', 40, 1, 6);
             INSERT INTO session_commands (session_id, command, exit_code, at_ms, test, ends_with) VALUES
                 ('s1', 'pytest | tail -3', 0, 7, 1, 'tail');
             INSERT INTO session_edits (session_id, path, applied, at_ms) VALUES ('s2', 'src/lex.rs', 0, 8);
             INSERT INTO deliveries (session_id, path, content_hash, mode, at_ms) VALUES
                 ('s1', '/a/src/lex.rs', printf('%064d', 0), 'full', 5);",
        )
        .unwrap();
        drop(conn);

        let mut store = Store::open(&path, Check::Everything).unwrap().store;
        assert_eq!(user_version(&store.conn).unwrap(), 5);
        let a = crate::SessionKey { project: "/a", id: "s1" };
        let s1 = store.session(a).unwrap().expect("s1 stays in the project it recorded");
        assert_eq!((s1.info.agent.as_str(), s1.info.task.as_deref(), s1.info.updated_ms), ("claude", Some("fix a"), 9));
        assert_eq!(s1.findings.iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["lexer drops CR"]);
        assert_eq!(
            s1.files.iter().map(|f| (f.mode.as_str(), f.tokens, f.count)).collect::<Vec<_>>(),
            [("full", 900, 2)]
        );
        let piped = crate::CommandKind::TestNotLast { last: "tail".into() };
        assert_eq!(s1.commands.iter().map(|c| c.kind.clone()).collect::<Vec<_>>(), [piped]);
        assert!(s1.edits.is_empty() && s1.next_steps.is_empty());
        let s2 = store.session(crate::SessionKey { project: "/b", id: "s2" }).unwrap().unwrap();
        assert_eq!(s2.next_steps.iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["add a test"]);
        assert_eq!(s2.files.iter().map(|f| f.mode.as_str()).collect::<Vec<_>>(), ["map"]);
        assert_eq!(s2.edits.iter().map(|e| e.result).collect::<Vec<_>>(), [crate::EditResult::Failed]);
        assert!(store.session(crate::SessionKey { project: "/b", id: "s1" }).unwrap().is_none());

        // The same id in the other project is a session of its own.
        let b = crate::SessionKey { project: "/b", id: "s1" };
        store.touch_session(b, "codex", 10).unwrap();
        store.add_note(b, crate::NoteKind::Finding, "b's own").unwrap();
        assert_eq!(store.session(b).unwrap().unwrap().findings.len(), 1);
        assert_eq!(store.session(a).unwrap().unwrap().findings.len(), 1);
        let tables: i64 = store
            .conn
            .query_row("SELECT count(*) FROM sqlite_schema WHERE name = 'deliveries' OR name LIKE '%_v5'", [], |row| {
                row.get(0)
            })
            .unwrap();
        assert_eq!(tables, 0, "nothing of the old schema or the migration's names is left");
        let broken: i64 =
            store.conn.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |row| row.get(0)).unwrap();
        assert_eq!(broken, 0);
    }

    /// Openers racing on a fresh file, half of them checking everything (the full-text table
    /// too) while the others migrate: a check that met a migration used to fail with
    /// "vtable constructor failed: archive_fts" (`SQLITE_SCHEMA`) in about one round of sixty
    /// (120 rounds take a few seconds).
    #[test]
    fn openers_racing_on_a_fresh_file_all_open() {
        for round in 0..120 {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("state.db");
            let openers: Vec<_> = [Check::Everything, Check::SkipLedger]
                .into_iter()
                .cycle()
                .take(6)
                .map(|check| {
                    let path = path.clone();
                    std::thread::spawn(move || Store::open(&path, check).map(|_| ()))
                })
                .collect();
            for opener in openers {
                if let Err(error) = opener.join().unwrap() {
                    panic!("round {round}: an opener failed: {error}");
                }
            }
        }
    }

    #[test]
    fn reopening_keeps_data_and_does_not_migrate_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        let mut store = Store::open(&path, Check::Everything).unwrap().store;
        store.touch_session(crate::SessionKey { project: "/p", id: "s1" }, "agent", now_ms()).unwrap();
        drop(store);
        let reopened = Store::open(&path, Check::Everything).unwrap();
        assert!(reopened.warning.is_none());
        assert!(reopened.store.session(crate::SessionKey { project: "/p", id: "s1" }).unwrap().is_some());
    }

    #[test]
    fn garbage_file_is_moved_aside_with_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        let garbage = b"this is not a database, just bytes that happen to be here".repeat(100);
        fs::write(&path, &garbage).unwrap();
        fs::write(side_path(&path, "-wal"), b"stale wal").unwrap();

        let opened = Store::open(&path, Check::Everything).unwrap();
        let warning = opened.warning.expect("a corrupt file must produce a warning");
        let moved: Vec<PathBuf> = fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("state.db.corrupt-"))
            .collect();
        let main = moved.iter().find(|p| !p.to_string_lossy().ends_with("-wal")).expect("moved database file");
        assert!(warning.contains(&main.display().to_string()), "{warning}");
        assert_eq!(fs::read(main).unwrap(), garbage, "the moved file keeps the old bytes");
        assert_eq!(fs::read(side_path(main, "-wal")).unwrap(), b"stale wal");
        assert_eq!(quarantined(&path).iter().map(|copy| &copy.path).collect::<Vec<_>>(), [main]);
        let mut left: Vec<String> =
            fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        left.retain(|name| {
            !name.contains(".corrupt-") && !["state.db", "state.db-wal", "state.db-shm"].contains(&&**name)
        });
        assert!(left.is_empty(), "nothing else is left beside it (no lock file): {left:?}");

        // The fresh store works and a second open finds nothing to complain about.
        let mut store = opened.store;
        store.touch_session(crate::SessionKey { project: "/p", id: "s1" }, "agent", now_ms()).unwrap();
        drop(store);
        assert!(Store::open(&path, Check::Everything).unwrap().warning.is_none());
    }

    #[test]
    fn damaged_pages_behind_a_valid_header_are_quarantined() {
        for check in [Check::Everything, Check::SkipLedger] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("state.db");
            let mut store = Store::open(&path, check).unwrap().store;
            store.touch_session(crate::SessionKey { project: "/p", id: "s1" }, "agent", now_ms()).unwrap();
            for i in 0..200 {
                store
                    .add_note(
                        crate::SessionKey { project: "/p", id: "s1" },
                        crate::NoteKind::Finding,
                        &format!("finding {i} {}", "x".repeat(200)),
                    )
                    .unwrap();
            }
            // Closing the last connection checkpoints the WAL into the main file.
            drop(store);
            let mut bytes = fs::read(&path).unwrap();
            assert!(bytes.len() > 8 * 4096, "the file spans several pages");
            for byte in &mut bytes[2 * 4096..6 * 4096] {
                *byte = 0xA5;
            }
            fs::write(&path, &bytes).unwrap();

            let opened = Store::open(&path, check).unwrap();
            let warning = opened.warning.unwrap_or_else(|| panic!("{check:?}: damaged pages must produce a warning"));
            assert!(warning.contains(".corrupt-"), "{warning}");
            assert!(
                opened.store.session(crate::SessionKey { project: "/p", id: "s1" }).unwrap().is_none(),
                "the fresh store starts empty"
            );
        }
    }

    #[test]
    fn newer_schema_is_refused_and_left_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        drop(Store::open(&path, Check::Everything).unwrap());
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", 99).unwrap();
        drop(conn);
        match Store::open(&path, Check::Everything) {
            Err(Error::NewerSchema { found: 99, .. }) => {}
            Err(other) => panic!("expected NewerSchema, got {other}"),
            Ok(_) => panic!("expected NewerSchema, got a store"),
        }
        let conn = Connection::open(&path).unwrap();
        assert_eq!(user_version(&conn).unwrap(), 99);
    }

    #[test]
    fn unreadable_location_is_an_error_not_a_quarantine() {
        let dir = tempfile::tempdir().unwrap();
        // A directory where the file should be: SQLite cannot open it, and nothing is renamed.
        let path = dir.path().join("state.db");
        fs::create_dir(&path).unwrap();
        assert!(Store::open(&path, Check::Everything).is_err());
        assert!(path.is_dir());
    }
}
