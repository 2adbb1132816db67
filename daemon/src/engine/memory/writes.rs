//! The writes other than ledger events that the writer makes for a call after its answer: the
//! call's record in its session, and the output it archived (with the archive's retention sweep,
//! which must run before that put). Each owns what it writes, to outlive the call, and is
//! serializable, for the journal that keeps it until it is made.

use std::path::PathBuf;

use lean_ctx_store::{ArchiveEntry, CommandKind, EditResult, SessionKey, Store, WrittenBlob};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Serialize, Deserialize)]
pub(super) enum Write {
    /// The session created or bumped, then the call recorded in it, both at `at_ms`: when the
    /// call was made, which a lock held elsewhere can leave seconds before the write.
    Session { id: String, project: String, agent: String, at_ms: i64, record: Record },
    /// An output streamed into the archive's staging area, put under its id.
    Archive {
        dir: PathBuf,
        entry: Entry,
        #[serde(serialize_with = "staged_path", deserialize_with = "recovered")]
        blob: WrittenBlob,
    },
    /// Retention applied to the archive in `dir`.
    Sweep { dir: PathBuf, now_ms: i64, max_age_ms: i64, max_bytes: u64 },
}

/// What a call adds to its session.
#[derive(Serialize, Deserialize)]
pub(super) enum Record {
    File {
        path: String,
        mode: String,
        tokens: u64,
    },
    Edit {
        path: String,
        result: EditResult,
    },
    /// `exit_code`: `None` when it did not finish (timed out, cancelled).
    Command {
        command: String,
        exit_code: Option<i32>,
        kind: CommandKind,
    },
}

/// An [`ArchiveEntry`] that owns its text; its bytes are in the blob.
#[derive(Serialize, Deserialize)]
pub(super) struct Entry {
    pub kind: String,
    pub label: String,
    pub family: String,
    pub exit_code: Option<i32>,
    pub session: Option<String>,
    pub project: String,
}

impl Write {
    /// Makes the write. Called again after a lock held elsewhere failed it: each step is a
    /// transaction that such a lock fails before it writes anything, so a retry repeats only the
    /// steps that did not happen, and the session's touch, which only marks it active again.
    pub(super) fn apply(&self, store: &mut Store) -> lean_ctx_store::Result<()> {
        match self {
            Write::Session { id, project, agent, at_ms, record } => {
                let session = SessionKey { project, id };
                store.touch_session(session, agent, *at_ms)?;
                match record {
                    Record::File { path, mode, tokens } => store.record_file(session, path, mode, *tokens, *at_ms),
                    Record::Edit { path, result } => store.record_edit(session, path, *result, *at_ms).map(drop),
                    Record::Command { command, exit_code, kind } => {
                        store.record_command(session, command, *exit_code, kind.clone(), *at_ms).map(drop)
                    }
                }
            }
            Write::Archive { dir, entry, blob } => {
                let entry = ArchiveEntry {
                    kind: &entry.kind,
                    label: &entry.label,
                    family: &entry.family,
                    exit_code: entry.exit_code,
                    session: entry.session.as_deref(),
                    project: &entry.project,
                    text: &[],
                };
                store.archive_put_written(dir, &entry, blob).map(drop)
            }
            Write::Sweep { dir, now_ms, max_age_ms, max_bytes } => {
                let report = store.archive_sweep(dir, *now_ms, *max_age_ms, *max_bytes)?;
                if report.expired > 0 {
                    tracing::info!(expired = report.expired, freed = report.freed_bytes, "archive swept");
                }
                Ok(())
            }
        }
    }

    /// What the unrecorded tally counts this write as when it is lost; `None` for a sweep, which
    /// loses nothing (the next one does its work).
    pub(super) fn lost_as(&self) -> Option<&'static str> {
        match self {
            Write::Session { .. } => Some("session record"),
            Write::Archive { .. } => Some("archived output"),
            Write::Sweep { .. } => None,
        }
    }
}

/// A staged blob as the journal keeps it: its staging file.
fn staged_path<S: Serializer>(blob: &WrittenBlob, serializer: S) -> Result<S::Ok, S::Error> {
    blob.path().serialize(serializer)
}

/// A staged blob read back from the journal of a process that died before putting it.
fn recovered<'de, D: Deserializer<'de>>(deserializer: D) -> Result<WrittenBlob, D::Error> {
    let path = PathBuf::deserialize(deserializer)?;
    WrittenBlob::recover(&path).map_err(|e| {
        serde::de::Error::custom(format!("the output archived in {} cannot be recovered: {e}", path.display()))
    })
}
