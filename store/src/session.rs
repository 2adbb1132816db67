//! Sessions: what an agent did in a project (task, notes, files read, edits, commands), kept so that the
//! next session, or another agent, can pick the work up.
//!
//! Every change to a session bumps its `updated_ms`, which orders [`Store::sessions`] and decides
//! which session [`Store::load`] returns.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::{Error, Result, non_empty, sql_count, sql_limit};
use crate::{Store, now_ms};

/// The three kinds of note an agent keeps in a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NoteKind {
    Finding,
    Decision,
    NextStep,
}

impl NoteKind {
    fn as_str(self) -> &'static str {
        match self {
            NoteKind::Finding => "finding",
            NoteKind::Decision => "decision",
            NoteKind::NextStep => "next_step",
        }
    }
}

/// A session without its lists.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionInfo {
    pub id: String,
    /// Root path of the project the session works in.
    pub project: String,
    /// The agent or client that created the session.
    pub agent: String,
    pub created_ms: i64,
    pub updated_ms: i64,
    pub task: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub text: String,
    pub at_ms: i64,
}

/// A file the session read or wrote, summed over every touch.
#[derive(Debug, Clone, PartialEq)]
pub struct FileTouch {
    pub path: String,
    /// The mode of the latest touch.
    pub mode: String,
    /// Tokens sent for this file, summed over all touches.
    pub tokens: u64,
    pub count: u64,
    pub last_ms: i64,
}

/// What a command was run for, as far as a handoff cares. Serializable, as a record the daemon
/// has queued for state.db is kept in its journal until it is written.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum CommandKind {
    /// It ran tests, last: its exit status is theirs, and the next agent wants to know how the
    /// last run ended.
    Test,
    /// It ran tests, then other commands, ending with the program `last` (`pytest -q | tail -3`:
    /// `tail`): the exit status is the line's, not the tests', so how they ended is not known.
    TestNotLast {
        last: String,
    },
    Other,
}

impl CommandKind {
    pub fn ran_tests(&self) -> bool {
        !matches!(self, CommandKind::Other)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct CommandRun {
    pub command: String,
    /// `None` when the command did not exit normally (killed by a signal, timed out).
    pub exit_code: Option<i32>,
    pub kind: CommandKind,
    pub at_ms: i64,
}

/// How an attempted edit ended (serializable as [`CommandKind`] is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum EditResult {
    Applied,
    /// Refused (no match, several matches, the file changed meanwhile, ...): the file is as it was.
    Failed,
}

/// One edit the session attempted.
#[derive(Debug, Clone, PartialEq)]
pub struct EditRun {
    pub path: String,
    pub result: EditResult,
    pub at_ms: i64,
}

/// A session with everything recorded in it. Notes, edits and commands are in the order they were
/// recorded; files (those read) are most touched first (count, then latest touch, then path).
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    pub info: SessionInfo,
    pub findings: Vec<Note>,
    pub decisions: Vec<Note>,
    pub next_steps: Vec<Note>,
    pub files: Vec<FileTouch>,
    pub edits: Vec<EditRun>,
    pub commands: Vec<CommandRun>,
}

/// A session: its id within the project it works in. The same id in two projects names two
/// sessions, with nothing of each other's: an id the user fixes (LEAN_CTX_SESSION, set once for
/// every shell) reaches every project they work in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SessionKey<'a> {
    /// Root path of the project.
    pub project: &'a str,
    pub id: &'a str,
}

const INFO_COLUMNS: &str = "id, project, agent, created_ms, updated_ms, task";

impl Store {
    /// Creates the session, or marks an existing one as active at `at_ms` (the time of the call
    /// that touched it, which a write queued behind another process's lock makes later). The
    /// agent is fixed at creation.
    pub fn touch_session(&mut self, session: SessionKey<'_>, agent: &str, at_ms: i64) -> Result<SessionInfo> {
        non_empty("session id", session.id)?;
        non_empty("project", session.project)?;
        let tx = self.write()?;
        tx.execute(
            "INSERT INTO sessions (project, id, agent, created_ms, updated_ms) VALUES (?1, ?2, ?3, ?4, ?4)
             ON CONFLICT (project, id) DO UPDATE SET updated_ms = max(updated_ms, excluded.updated_ms)",
            params![session.project, session.id, agent, at_ms],
        )?;
        let touched = info(&tx, session)?.ok_or_else(|| not_found(session))?;
        tx.commit()?;
        Ok(touched)
    }

    /// Sets (replaces) the task the session works on.
    pub fn set_task(&mut self, session: SessionKey<'_>, task: &str) -> Result<()> {
        at_most_note("task", task)?;
        let tx = self.write()?;
        let key = bump(&tx, session, now_ms())?;
        tx.execute("UPDATE sessions SET task = ?2 WHERE key = ?1", params![key, task])?;
        Ok(tx.commit()?)
    }

    /// Adds a finding, decision or next step; returns its number among the session's notes of its
    /// kind (1 for the session's first finding), the count [`Store::session`] then shows. Notes
    /// are addressed by no number, so the row id, shared by every session, is not handed out.
    pub fn add_note(&mut self, session: SessionKey<'_>, kind: NoteKind, text: &str) -> Result<u64> {
        non_empty("note text", text)?;
        at_most_note(if kind == NoteKind::NextStep { "next step" } else { kind.as_str() }, text)?;
        let now = now_ms();
        let tx = self.write()?;
        let key = bump(&tx, session, now)?;
        tx.execute(
            "INSERT INTO session_notes (session, kind, text, at_ms) VALUES (?1, ?2, ?3, ?4)",
            params![key, kind.as_str(), text, now],
        )?;
        let number: u64 = tx.query_row(
            "SELECT count(*) FROM session_notes WHERE session = ?1 AND kind = ?2",
            params![key, kind.as_str()],
            |row| row.get(0),
        )?;
        tx.commit()?;
        Ok(number)
    }

    /// Records that the session touched `path` in `mode` at `at_ms`, sending `tokens` for it.
    pub fn record_file(
        &mut self,
        session: SessionKey<'_>,
        path: &str,
        mode: &str,
        tokens: u64,
        at_ms: i64,
    ) -> Result<()> {
        non_empty("path", path)?;
        let tokens = sql_count("tokens", tokens)?;
        let tx = self.write()?;
        let key = bump(&tx, session, at_ms)?;
        tx.execute(
            "INSERT INTO session_files (session, path, mode, tokens, count, last_ms)
             VALUES (?1, ?2, ?3, ?4, 1, ?5)
             ON CONFLICT (session, path) DO UPDATE SET
                 mode = CASE WHEN excluded.last_ms >= last_ms THEN excluded.mode ELSE mode END,
                 tokens = tokens + excluded.tokens, count = count + 1,
                 last_ms = max(last_ms, excluded.last_ms)",
            params![key, path, mode, tokens, at_ms],
        )?;
        Ok(tx.commit()?)
    }

    /// Records an edit the session attempted on `path` at `at_ms`; returns its id.
    pub fn record_edit(&mut self, session: SessionKey<'_>, path: &str, result: EditResult, at_ms: i64) -> Result<i64> {
        non_empty("path", path)?;
        let tx = self.write()?;
        let key = bump(&tx, session, at_ms)?;
        tx.execute(
            "INSERT INTO session_edits (session, path, applied, at_ms) VALUES (?1, ?2, ?3, ?4)",
            params![key, path, result == EditResult::Applied, at_ms],
        )?;
        let edit = tx.last_insert_rowid();
        tx.commit()?;
        Ok(edit)
    }

    /// Records a command the session ran at `at_ms`; returns its id.
    pub fn record_command(
        &mut self,
        session: SessionKey<'_>,
        command: &str,
        exit_code: Option<i32>,
        kind: CommandKind,
        at_ms: i64,
    ) -> Result<i64> {
        non_empty("command", command)?;
        let tx = self.write()?;
        let key = bump(&tx, session, at_ms)?;
        let ends_with = match &kind {
            CommandKind::TestNotLast { last } => Some(last.as_str()),
            CommandKind::Test | CommandKind::Other => None,
        };
        tx.execute(
            "INSERT INTO session_commands (session, command, exit_code, test, ends_with, at_ms) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![key, command, exit_code, kind.ran_tests(), ends_with, at_ms],
        )?;
        let run = tx.last_insert_rowid();
        tx.commit()?;
        Ok(run)
    }

    /// The session with everything recorded in it, or `None` if it does not exist.
    pub fn session(&self, session: SessionKey<'_>) -> Result<Option<Session>> {
        let tx = self.read()?;
        let Some((key, info)) = tx
            .query_row(
                &format!("SELECT key, {INFO_COLUMNS} FROM sessions WHERE project = ?1 AND id = ?2"),
                params![session.project, session.id],
                |row| Ok((row.get::<_, i64>(0)?, info_from_row(row, 1)?)),
            )
            .optional()?
        else {
            return Ok(None);
        };
        let mut findings = Vec::new();
        let mut decisions = Vec::new();
        let mut next_steps = Vec::new();
        let mut notes = tx.prepare("SELECT kind, text, at_ms FROM session_notes WHERE session = ?1 ORDER BY id")?;
        let mut rows = notes.query([key])?;
        while let Some(row) = rows.next()? {
            let kind: String = row.get(0)?;
            let note = Note { text: row.get(1)?, at_ms: row.get(2)? };
            match kind.as_str() {
                "finding" => findings.push(note),
                "decision" => decisions.push(note),
                _ => next_steps.push(note),
            }
        }
        let files = tx
            .prepare(
                "SELECT path, mode, tokens, count, last_ms FROM session_files WHERE session = ?1
                 ORDER BY count DESC, last_ms DESC, path",
            )?
            .query_map([key], |row| {
                Ok(FileTouch {
                    path: row.get(0)?,
                    mode: row.get(1)?,
                    tokens: row.get(2)?,
                    count: row.get(3)?,
                    last_ms: row.get(4)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        let edits = tx
            .prepare("SELECT path, applied, at_ms FROM session_edits WHERE session = ?1 ORDER BY id")?
            .query_map([key], |row| {
                let applied: bool = row.get(1)?;
                Ok(EditRun {
                    path: row.get(0)?,
                    result: if applied { EditResult::Applied } else { EditResult::Failed },
                    at_ms: row.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        let commands = tx
            .prepare(
                "SELECT command, exit_code, test, ends_with, at_ms FROM session_commands WHERE session = ?1 \
                 ORDER BY id",
            )?
            .query_map([key], |row| {
                let test: bool = row.get(2)?;
                let ends_with: Option<String> = row.get(3)?;
                Ok(CommandRun {
                    command: row.get(0)?,
                    exit_code: row.get(1)?,
                    kind: match (test, ends_with) {
                        (false, _) => CommandKind::Other,
                        (true, None) => CommandKind::Test,
                        (true, Some(last)) => CommandKind::TestNotLast { last },
                    },
                    at_ms: row.get(4)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(Some(Session { info, findings, decisions, next_steps, files, edits, commands }))
    }

    /// The project's sessions, most recently updated first (ties by id), at most `limit`.
    pub fn sessions(&self, project: &str, limit: usize) -> Result<Vec<SessionInfo>> {
        let sql =
            format!("SELECT {INFO_COLUMNS} FROM sessions WHERE project = ?1 ORDER BY updated_ms DESC, id LIMIT ?2");
        let mut statement = self.conn.prepare(&sql)?;
        let sessions = statement.query_map(params![project, sql_limit(limit)], |row| info_from_row(row, 0))?;
        Ok(sessions.collect::<rusqlite::Result<_>>()?)
    }

    /// The projects that have a session `id`, most recently updated first, at most 3: where to
    /// look for a session asked for in another project.
    pub fn projects_of_session(&self, id: &str) -> Result<Vec<String>> {
        let mut statement = self
            .conn
            .prepare("SELECT project FROM sessions WHERE id = ?1 ORDER BY updated_ms DESC, project LIMIT 3")?;
        let projects = statement.query_map([id], |row| row.get(0))?;
        Ok(projects.collect::<rusqlite::Result<_>>()?)
    }

    /// The project's most recently updated session, with everything recorded in it.
    pub fn load(&self, project: &str) -> Result<Option<Session>> {
        match self.sessions(project, 1)?.into_iter().next() {
            Some(latest) => self.session(SessionKey { project, id: &latest.id }),
            None => Ok(None),
        }
    }
}

fn info(conn: &Connection, session: SessionKey<'_>) -> Result<Option<SessionInfo>> {
    let sql = format!("SELECT {INFO_COLUMNS} FROM sessions WHERE project = ?1 AND id = ?2");
    Ok(conn.query_row(&sql, params![session.project, session.id], |row| info_from_row(row, 0)).optional()?)
}

/// The session's columns, [`INFO_COLUMNS`], from column `first` of `row` on.
fn info_from_row(row: &Row<'_>, first: usize) -> rusqlite::Result<SessionInfo> {
    Ok(SessionInfo {
        id: row.get(first)?,
        project: row.get(first + 1)?,
        agent: row.get(first + 2)?,
        created_ms: row.get(first + 3)?,
        updated_ms: row.get(first + 4)?,
        task: row.get(first + 5)?,
    })
}

fn not_found(session: SessionKey<'_>) -> Error {
    Error::SessionNotFound { id: session.id.to_owned(), project: session.project.to_owned() }
}

/// Marks the session as updated at `now` and returns the number its rows refer to it by; fails if
/// it does not exist. `max` keeps `updated_ms` from going backwards when clocks of two processes
/// disagree.
fn bump(conn: &Connection, session: SessionKey<'_>, now: i64) -> Result<i64> {
    conn.query_row(
        "UPDATE sessions SET updated_ms = max(updated_ms, ?3) WHERE project = ?1 AND id = ?2 RETURNING key",
        params![session.project, session.id, now],
        |row| row.get(0),
    )
    .optional()?
    .ok_or_else(|| not_found(session))
}

/// Longest task or note, in characters: what a handoff shows of one whole. A longer one was
/// stored whole (100,000 characters) and shown cut at 300, with no way to read the rest; a long
/// text belongs in the project's knowledge (16 KiB a value) or a file.
pub const MAX_NOTE_CHARS: usize = 1_000;

fn at_most_note(what: &str, text: &str) -> Result<()> {
    let chars = text.chars().count();
    if chars <= MAX_NOTE_CHARS {
        return Ok(());
    }
    Err(Error::InvalidInput(format!(
        "the {what} is {chars} characters; a session's {what} holds at most {MAX_NOTE_CHARS}, which its handoff \
         shows whole: shorten it, and keep the detail in the project's knowledge (ctx_knowledge remember) or a \
         file, named here"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::temp_store;

    /// The session `id` of the project most tests use.
    fn repo(id: &str) -> SessionKey<'_> {
        SessionKey { project: "/repo", id }
    }

    fn pause() {
        // Timestamps are in milliseconds; make "later" observable.
        std::thread::sleep(std::time::Duration::from_millis(3));
    }

    #[test]
    fn touch_creates_then_bumps() {
        let (_dir, mut store) = temp_store();
        let created = store.touch_session(repo("s1"), "claude", now_ms()).unwrap();
        assert_eq!((created.project.as_str(), created.agent.as_str()), ("/repo", "claude"));
        assert_eq!(created.created_ms, created.updated_ms);
        pause();
        let touched = store.touch_session(repo("s1"), "other-agent", now_ms()).unwrap();
        assert_eq!(touched.created_ms, created.created_ms);
        assert!(touched.updated_ms > created.updated_ms);
        assert_eq!(touched.agent, "claude", "the agent is fixed at creation");
    }

    /// An id the user fixes (LEAN_CTX_SESSION) reaches every project: its use in a second
    /// project was refused ("session `s1` belongs to project /a"), and that project's records lost.
    /// It is another session there, and neither sees the other's records.
    #[test]
    fn one_id_in_two_projects_is_two_sessions() {
        let (_dir, mut store) = temp_store();
        let (a, b) = (SessionKey { project: "/a", id: "s1" }, SessionKey { project: "/b", id: "s1" });
        store.touch_session(a, "claude", 1_000).unwrap();
        store.record_file(a, "src/lib.rs", "full", 900, 1_000).unwrap();
        store.add_note(a, NoteKind::Finding, "a's finding").unwrap();
        let created = store.touch_session(b, "codex", 2_000).unwrap();
        assert_eq!((created.project.as_str(), created.agent.as_str(), created.created_ms), ("/b", "codex", 2_000));
        store.record_file(b, "src/lib.rs", "map", 40, 2_000).unwrap();
        assert_eq!(store.add_note(b, NoteKind::Finding, "b's finding").unwrap(), 1, "b's first finding");

        let in_a = store.session(a).unwrap().unwrap();
        let in_b = store.session(b).unwrap().unwrap();
        assert_eq!((in_a.info.project.as_str(), in_a.info.agent.as_str()), ("/a", "claude"));
        assert_eq!(in_a.findings.iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["a's finding"]);
        assert_eq!(in_b.findings.iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["b's finding"]);
        let files = |s: &Session| s.files.iter().map(|f| (f.mode.clone(), f.tokens)).collect::<Vec<_>>();
        assert_eq!((files(&in_a), files(&in_b)), (vec![("full".into(), 900)], vec![("map".into(), 40)]));
        assert_eq!(store.sessions("/a", 10).unwrap().len(), 1);
        assert!(store.session(SessionKey { project: "/c", id: "s1" }).unwrap().is_none());
        store.touch_session(b, "codex", now_ms() + 1_000).unwrap();
        assert_eq!(store.projects_of_session("s1").unwrap(), ["/b", "/a"], "most recent first");
        assert!(store.projects_of_session("s2").unwrap().is_empty());
    }

    #[test]
    fn recording_into_a_missing_session_fails_and_writes_nothing() {
        let (_dir, mut store) = temp_store();
        let error = store.add_note(repo("ghost"), NoteKind::Finding, "x").unwrap_err();
        assert!(matches!(error, Error::SessionNotFound { .. }), "{error}");
        assert!(store.record_file(repo("ghost"), "a.rs", "full", 1, now_ms()).is_err());
        assert!(store.record_command(repo("ghost"), "ls", Some(0), CommandKind::Other, now_ms()).is_err());
        assert!(store.record_edit(repo("ghost"), "a.rs", EditResult::Applied, now_ms()).is_err());
        assert!(store.set_task(repo("ghost"), "t").is_err());
        let orphans: i64 = store.conn.query_row("SELECT count(*) FROM session_notes", [], |row| row.get(0)).unwrap();
        assert_eq!(orphans, 0);
    }

    /// A record replayed late (a dead process's journal) counts, but does not make an older mode
    /// the file's latest.
    #[test]
    fn an_older_record_of_a_file_keeps_the_latest_mode_and_time() {
        let (_dir, mut store) = temp_store();
        store.touch_session(repo("s1"), "claude", 1_000).unwrap();
        store.record_file(repo("s1"), "src/lex.rs", "full", 900, 2_000).unwrap();
        store.record_file(repo("s1"), "src/lex.rs", "map", 40, 1_500).unwrap();
        let file = &store.session(repo("s1")).unwrap().unwrap().files[0];
        assert_eq!((file.mode.as_str(), file.last_ms, file.tokens, file.count), ("full", 2_000, 940, 2));
    }

    #[test]
    fn records_everything_and_reads_it_back_in_order() {
        let (_dir, mut store) = temp_store();
        store.touch_session(repo("s1"), "claude", now_ms()).unwrap();
        store.set_task(repo("s1"), "fix the parser").unwrap();
        store.add_note(repo("s1"), NoteKind::Finding, "lexer drops CR").unwrap();
        store.add_note(repo("s1"), NoteKind::Decision, "normalize line endings first").unwrap();
        store.add_note(repo("s1"), NoteKind::NextStep, "add a CRLF test").unwrap();
        store.add_note(repo("s1"), NoteKind::Finding, "tests use LF only").unwrap();
        store.record_file(repo("s1"), "src/lex.rs", "full", 900, now_ms()).unwrap();
        store.record_file(repo("s1"), "src/parse.rs", "map", 120, now_ms()).unwrap();
        store.record_file(repo("s1"), "src/lex.rs", "diff", 40, now_ms()).unwrap();
        store.record_edit(repo("s1"), "src/lex.rs", EditResult::Failed, now_ms()).unwrap();
        store.record_edit(repo("s1"), "src/lex.rs", EditResult::Applied, now_ms()).unwrap();
        store.record_command(repo("s1"), "cargo test", Some(101), CommandKind::Test, now_ms()).unwrap();
        store.record_command(repo("s1"), "sleep 100", None, CommandKind::Other, now_ms()).unwrap();
        let piped = CommandKind::TestNotLast { last: "tail".into() };
        store.record_command(repo("s1"), "pytest | tail -3", Some(0), piped.clone(), now_ms()).unwrap();

        let session = store.session(repo("s1")).unwrap().unwrap();
        assert_eq!(session.info.task.as_deref(), Some("fix the parser"));
        let texts = |notes: &[Note]| notes.iter().map(|n| n.text.clone()).collect::<Vec<_>>();
        assert_eq!(texts(&session.findings), ["lexer drops CR", "tests use LF only"]);
        assert_eq!(texts(&session.decisions), ["normalize line endings first"]);
        assert_eq!(texts(&session.next_steps), ["add a CRLF test"]);
        let lex = &session.files[0];
        assert_eq!((lex.path.as_str(), lex.mode.as_str(), lex.tokens, lex.count), ("src/lex.rs", "diff", 940, 2));
        assert_eq!(session.files[1].path, "src/parse.rs");
        let edits: Vec<_> = session.edits.iter().map(|e| (e.path.as_str(), e.result)).collect();
        assert_eq!(edits, [("src/lex.rs", EditResult::Failed), ("src/lex.rs", EditResult::Applied)]);
        let commands: Vec<_> =
            session.commands.iter().map(|c| (c.command.as_str(), c.exit_code, c.kind.clone())).collect();
        assert_eq!(
            commands,
            [
                ("cargo test", Some(101), CommandKind::Test),
                ("sleep 100", None, CommandKind::Other),
                ("pytest | tail -3", Some(0), piped)
            ]
        );
    }

    #[test]
    fn list_is_most_recent_first_and_load_returns_the_latest() {
        let (_dir, mut store) = temp_store();
        for id in ["old", "mid", "new"] {
            store.touch_session(repo(id), "agent", now_ms()).unwrap();
            pause();
        }
        store.touch_session(SessionKey { project: "/other", id: "elsewhere" }, "agent", now_ms()).unwrap();
        let ids = |store: &Store| store.sessions("/repo", 10).unwrap().into_iter().map(|s| s.id).collect::<Vec<_>>();
        assert_eq!(ids(&store), ["new", "mid", "old"]);
        pause();
        store.add_note(repo("old"), NoteKind::Finding, "revived").unwrap();
        assert_eq!(ids(&store), ["old", "new", "mid"]);
        assert_eq!(store.sessions("/repo", 2).unwrap().len(), 2);
        let loaded = store.load("/repo").unwrap().unwrap();
        assert_eq!(loaded.info.id, "old");
        assert_eq!(loaded.findings.len(), 1);
        assert!(store.load("/nothing").unwrap().is_none());
        assert!(store.session(repo("nope")).unwrap().is_none());
    }

    #[test]
    fn notes_are_numbered_per_session_and_kind() {
        let (_dir, mut store) = temp_store();
        store.touch_session(repo("a"), "agent", now_ms()).unwrap();
        store.touch_session(repo("b"), "agent", now_ms()).unwrap();
        for i in 0..3 {
            store.add_note(repo("a"), NoteKind::Finding, &format!("a{i}")).unwrap();
        }
        assert_eq!(store.add_note(repo("a"), NoteKind::Decision, "d").unwrap(), 1);
        assert_eq!(
            store.add_note(repo("b"), NoteKind::Finding, "first of b").unwrap(),
            1,
            "b's first finding is its #1"
        );
        assert_eq!(store.add_note(repo("a"), NoteKind::Finding, "a3").unwrap(), 4);
        assert_eq!(store.session(repo("a")).unwrap().unwrap().findings.len(), 4);
    }

    #[test]
    fn empty_identifiers_are_refused() {
        let (_dir, mut store) = temp_store();
        assert!(matches!(
            store.touch_session(SessionKey { project: "/p", id: "" }, "a", now_ms()),
            Err(Error::InvalidInput(_))
        ));
        assert!(matches!(
            store.touch_session(SessionKey { project: " ", id: "s" }, "a", now_ms()),
            Err(Error::InvalidInput(_))
        ));
    }
}
