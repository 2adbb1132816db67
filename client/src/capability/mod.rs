//! The capabilities, once: for each, the neutral arguments, the request they
//! become, and the answer rendered as text (for an agent or a person) and as
//! JSON (for programs). `lctx` and `lctx-mcp` are adapters over these: they
//! parse their own argument syntax into the neutral arguments, call, and
//! print — so the same request gives the same text through either.
//!
//! | module | capability | service |
//! |---|---|---|
//! | [`read`] | ctx_read | FileContext/Read |
//! | [`edit`] | ctx_edit | FileContext/Edit |
//! | [`rules`] | ctx_rules | FileContext/Rules |
//! | [`shell`] | ctx_shell, jobs, ctx_expand | Shell/Exec, Jobs, Expand |
//! | [`search`] | ctx_search, ctx_glob, ctx_tree, index | Search/* |
//! | [`graph`] | ctx_callgraph | Graph/Callgraph |
//! | [`repomap`] | ctx_repomap | Graph/Repomap |
//! | [`related`] | ctx_graph | Graph/Related |
//! | [`impact`] | ctx_impact | Graph/Impact |
//! | [`memory`] | ctx_session, ctx_knowledge | Memory/* |
//! | [`gain`] | ctx_gain, ledger verify | Ledger/* |

pub mod edit;
pub mod gain;
pub mod graph;
pub mod impact;
pub mod memory;
pub mod read;
pub mod related;
pub mod repomap;
pub mod rules;
pub mod search;
pub mod shell;

use lean_ctx_common::framing::push_block;
use lean_ctx_proto::v1::ServedBy;
use serde_json::Value;

/// Where an answer is shown; only follow-up hints differ (`lctx jobs status
/// 7` versus `ctx_shell background_action=status job_id=7`).
pub use lean_ctx_common::surface::Surface;

/// A call's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// What an agent or a person reads.
    pub text: String,
    /// The call failed as a whole (MCP `isError`).
    pub is_error: bool,
    /// What `lctx` exits with: 0, 1 when anything failed, or a command's own
    /// exit code (124 after a timeout).
    pub exit_code: i32,
    /// The same answer for programs (`--json`, MCP structured content).
    pub json: Value,
}

impl Answer {
    fn ok(text: String, json: Value) -> Answer {
        Answer { text, is_error: false, exit_code: 0, json }
    }
}

/// Why a call produced no answer.
#[derive(Debug)]
pub enum Error {
    /// The arguments make no request (a usage error: exit 2, MCP invalid
    /// params); the message says what to give.
    Usage(String),
    /// The daemon or fallback child refused or failed the call.
    Status(tonic::Status),
}

impl From<tonic::Status> for Error {
    fn from(status: tonic::Status) -> Self {
        Error::Status(status)
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// Who served an answer, as `--json` and `lctx daemon status` name it.
pub fn served_by_name(by: ServedBy) -> &'static str {
    match by {
        ServedBy::Daemon => "DAEMON",
        ServedBy::Local => "LOCAL",
        ServedBy::Unspecified => "UNSPECIFIED",
    }
}

/// Refuses an asked-for 0 of a count whose 0 on the wire means "the default": the 0 is refused,
/// not silently replaced by the default.
fn at_least_one(name: &str, value: Option<u32>, default: &str) -> Result<()> {
    match value {
        Some(0) => Err(Error::Usage(format!("{name} 0 is out of range: use 1 or more (default {default})"))),
        _ => Ok(()),
    }
}

/// Parses a name out of a closed set, or says which names are valid.
fn parse_name<E: Copy>(what: &str, value: &str, names: &[(&str, E)]) -> Result<E> {
    let value = value.trim();
    names.iter().find(|(name, _)| *name == value).map(|(_, e)| *e).ok_or_else(|| {
        let valid: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
        Error::Usage(format!("unknown {what} `{value}`; valid: {}", valid.join(", ")))
    })
}

/// The names of a closed set, in order (for schemas and help).
pub const fn names<E, const N: usize>(table: &[(&'static str, E); N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = table[i].0;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_sets_name_their_valid_values() {
        const TABLE: [(&str, u8); 2] = [("a", 1), ("b", 2)];
        assert_eq!(parse_name("thing", " b ", &TABLE).unwrap(), 2);
        let Err(Error::Usage(msg)) = parse_name("thing", "c", &TABLE) else { panic!("c is unknown") };
        assert_eq!(msg, "unknown thing `c`; valid: a, b");
        assert_eq!(names(&TABLE), ["a", "b"]);
    }
}
