//! `lctx setup`: register the lean-ctx MCP server (`lctx-mcp`) in the
//! user-level config file of an AI coding host, report where it is
//! registered, and take it out again.
//!
//! The host table ([`HOSTS`]) says, per host, where its file lives
//! ([`hosts`]), its format, the key path of the object holding its MCP
//! servers and the fields of our entry. The files belong to the user and are
//! often edited by hand, so every edit changes only our entry: JSON/JSONC
//! files are edited as text by a comment-aware scanner ([`jsonc`]), Codex's
//! TOML through toml_edit ([`toml_hosts`]), and the result replaces the file
//! atomically with a backup ([`write`]). A file that does not parse is
//! refused, unchanged, with its file:line.

mod hosts;
mod jsonc;
mod toml_hosts;
mod write;

use std::path::{Path, PathBuf};

pub use hosts::Env;
use hosts::Place;

/// The name of our entry in every host's server list.
pub const SERVER_NAME: &str = "lean-ctx";

/// Overrides which `lctx-mcp` gets registered (default: the one beside `lctx`).
pub const MCP_BIN_ENV: &str = "LEAN_CTX_MCP_BIN";

const MCP_BIN_NAME: &str = "lctx-mcp";

/// An AI coding host lean-ctx can be registered in.
#[derive(Debug)]
pub struct Host {
    /// The name used on the command line.
    pub id: &'static str,
    /// The name shown to people.
    pub name: &'static str,
    /// Other names accepted on the command line.
    aliases: &'static [&'static str],
    /// Executables whose presence on PATH means the host is installed.
    binaries: &'static [&'static str],
    locate: fn(&Env) -> Place,
    format: Format,
    /// Key path of the object that maps server names to server entries.
    servers_key: &'static [&'static str],
    /// The fields of our entry, in the order they are written.
    fields: &'static [FieldKey],
}

#[derive(Debug, Clone, Copy)]
enum Format {
    /// JSON, or JSONC (comments, trailing commas) where the host reads it.
    Json,
    Toml,
}

/// A field a host's stdio server entry can carry.
#[derive(Debug, Clone, Copy)]
enum FieldKey {
    /// `"type": "stdio"` — required by VS Code, written by `claude mcp add`.
    Type,
    /// The absolute path of `lctx-mcp`.
    Command,
    /// `[]`: lctx-mcp needs no arguments; hosts that require the key get it.
    Args,
    /// `{}`: written where the host's own examples carry it.
    Env,
}

/// A field's value: the only shapes our entries need.
#[derive(Debug, PartialEq)]
enum Field {
    Text(String),
    EmptyList,
    EmptyMap,
}

impl Field {
    fn to_json(&self) -> serde_json::Value {
        match self {
            Field::Text(s) => serde_json::Value::String(s.clone()),
            Field::EmptyList => serde_json::Value::Array(Vec::new()),
            Field::EmptyMap => serde_json::Value::Object(serde_json::Map::new()),
        }
    }
}

/// Our entry as ordered (key, value) pairs.
type Entry = Vec<(&'static str, Field)>;

/// Every supported host. Paths and entry shapes are documented, with their
/// sources, on the `hosts::*` location functions.
pub const HOSTS: &[Host] = &[
    Host {
        id: "claude-code",
        name: "Claude Code",
        aliases: &["claude", "claudecode"],
        binaries: &["claude"],
        locate: hosts::claude_code,
        format: Format::Json,
        servers_key: &["mcpServers"],
        // The shape `claude mcp add --scope user` writes (Claude Code MCP docs).
        fields: &[FieldKey::Type, FieldKey::Command, FieldKey::Args, FieldKey::Env],
    },
    Host {
        id: "claude-desktop",
        name: "Claude Desktop",
        aliases: &["claude-app", "desktop"],
        binaries: &["claude-desktop"],
        locate: hosts::claude_desktop,
        format: Format::Json,
        servers_key: &["mcpServers"],
        fields: &[FieldKey::Command, FieldKey::Args],
    },
    Host {
        id: "cursor",
        name: "Cursor",
        aliases: &[],
        binaries: &["cursor"],
        locate: hosts::cursor,
        format: Format::Json,
        servers_key: &["mcpServers"],
        fields: &[FieldKey::Command, FieldKey::Args],
    },
    Host {
        id: "vscode",
        name: "VS Code",
        aliases: &["code", "vs-code", "copilot"],
        binaries: &["code"],
        locate: hosts::vscode,
        format: Format::Json,
        // VS Code's mcp.json uses `servers`, and `type` is required (VS Code MCP configuration reference).
        servers_key: &["servers"],
        fields: &[FieldKey::Type, FieldKey::Command, FieldKey::Args],
    },
    Host {
        id: "codex",
        name: "Codex",
        aliases: &["codex-cli", "openai-codex"],
        binaries: &["codex"],
        locate: hosts::codex,
        format: Format::Toml,
        // `[mcp_servers.NAME]` with `command` and `args` (Codex MCP docs).
        servers_key: &["mcp_servers"],
        fields: &[FieldKey::Command, FieldKey::Args],
    },
    Host {
        id: "windsurf",
        name: "Windsurf",
        aliases: &["codeium"],
        binaries: &["windsurf"],
        locate: hosts::windsurf,
        format: Format::Json,
        servers_key: &["mcpServers"],
        fields: &[FieldKey::Command, FieldKey::Args],
    },
    Host {
        id: "zed",
        name: "Zed",
        aliases: &["zed-editor"],
        binaries: &["zed", "zeditor"],
        locate: hosts::zed,
        format: Format::Json,
        // Custom servers: `command`, `args`, `env` under `context_servers` (Zed MCP docs). The older
        // `"source": "custom"` is left out: Zed's settings migration (m_2025_11_25) removes it.
        servers_key: &["context_servers"],
        fields: &[FieldKey::Command, FieldKey::Args, FieldKey::Env],
    },
    Host {
        id: "gemini",
        name: "Gemini CLI",
        aliases: &["gemini-cli"],
        binaries: &["gemini"],
        locate: hosts::gemini,
        format: Format::Json,
        servers_key: &["mcpServers"],
        fields: &[FieldKey::Command, FieldKey::Args],
    },
];

/// The host named `name` (its id or an alias, any case).
pub fn find_host(name: &str) -> Option<&'static Host> {
    let name = name.to_ascii_lowercase();
    HOSTS.iter().find(|h| h.id == name || h.aliases.contains(&name.as_str()))
}

/// The `lctx-mcp` to register: `$LEAN_CTX_MCP_BIN`, else the one installed
/// beside this executable. The path is made absolute but symlinks are kept,
/// so a package manager's stable link survives upgrades of its target.
pub fn mcp_binary() -> Result<PathBuf, String> {
    let (bin, origin) = match std::env::var_os(MCP_BIN_ENV).filter(|b| !b.is_empty()) {
        Some(bin) => (PathBuf::from(bin), format!("${MCP_BIN_ENV}")),
        None => {
            let exe = std::env::current_exe().map_err(|e| format!("cannot locate lctx itself: {e}"))?;
            (exe.with_file_name(MCP_BIN_NAME), "beside lctx".to_string())
        }
    };
    let bin = std::path::absolute(&bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    if !hosts::is_executable(&bin) {
        return Err(format!(
            "{MCP_BIN_NAME} not found at {} ({origin}); install it next to lctx or set {MCP_BIN_ENV} to its path",
            bin.display()
        ));
    }
    Ok(bin)
}

/// What `lctx setup` does to a host's file.
#[derive(Debug, Clone, Copy)]
pub enum Action<'a> {
    /// Add our entry pointing at this `lctx-mcp`, or update it.
    Install(&'a Path),
    /// Take our entry out.
    Remove,
}

/// A host's file before and after an action.
#[derive(Debug)]
pub struct Plan {
    pub file: PathBuf,
    /// `None`: the file does not exist.
    pub before: Option<String>,
    /// `None`: nothing to change (already configured, or nothing to remove).
    pub after: Option<String>,
}

impl Plan {
    /// The change as a unified diff (empty when there is none).
    pub fn diff(&self) -> String {
        let Some(after) = &self.after else { return String::new() };
        let file = self.file.display().to_string();
        let old_name = if self.before.is_some() { file.as_str() } else { "/dev/null" };
        similar::TextDiff::from_lines(self.before.as_deref().unwrap_or(""), after)
            .unified_diff()
            .header(old_name, &file)
            .to_string()
    }
}

/// The result of applying a plan.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Unchanged,
    /// The file was written; `backup` holds the previous contents, if there were any.
    Written {
        backup: Option<PathBuf>,
    },
}

/// Where a parse or edit problem is, as a byte offset into the file's text.
#[derive(Debug, PartialEq, Eq)]
struct TextError {
    offset: Option<usize>,
    message: String,
}

impl TextError {
    fn at(offset: usize, message: impl Into<String>) -> Self {
        TextError { offset: Some(offset), message: message.into() }
    }

    /// `file:line:col: message`, for people and editors.
    fn locate(&self, file: &Path, text: &str) -> String {
        let Some(offset) = self.offset else { return format!("{}: {}", file.display(), self.message) };
        let before = &text[..offset.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before[before.rfind('\n').map_or(0, |i| i + 1)..].chars().count() + 1;
        format!("{}:{line}:{column}: {}", file.display(), self.message)
    }
}

fn entry(host: &Host, mcp: &Path) -> Result<Entry, String> {
    let command =
        mcp.to_str().ok_or_else(|| format!("the path of {MCP_BIN_NAME} is not valid UTF-8: {}", mcp.display()))?;
    Ok(host
        .fields
        .iter()
        .map(|key| match key {
            FieldKey::Type => ("type", Field::Text("stdio".into())),
            FieldKey::Command => ("command", Field::Text(command.into())),
            FieldKey::Args => ("args", Field::EmptyList),
            FieldKey::Env => ("env", Field::EmptyMap),
        })
        .collect())
}

fn key_path(host: &Host) -> Vec<&'static str> {
    host.servers_key.iter().copied().chain([SERVER_NAME]).collect()
}

fn read_optional(file: &Path) -> Result<Option<String>, String> {
    match std::fs::read_to_string(file) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", file.display())),
    }
}

/// Computes what `action` would do to `host`'s file, writing nothing.
pub fn plan(host: &Host, env: &Env, action: Action<'_>) -> Result<Plan, String> {
    let file = (host.locate)(env).file;
    let before = read_optional(&file)?;
    let text = before.as_deref().unwrap_or("");
    let path = key_path(host);
    let after = match (host.format, action) {
        (Format::Json, Action::Install(mcp)) => {
            let members: Vec<_> = entry(host, mcp)?.iter().map(|(k, v)| (*k, v.to_json())).collect();
            jsonc::upsert(text, &path, &members)
        }
        (Format::Json, Action::Remove) => jsonc::remove(text, &path),
        (Format::Toml, Action::Install(mcp)) => toml_hosts::upsert(text, &path, &entry(host, mcp)?),
        (Format::Toml, Action::Remove) => toml_hosts::remove(text, &path),
    }
    .map_err(|e| format!("{}; fix the file and run again (nothing was changed)", e.locate(&file, text)))?;
    Ok(Plan { file, before, after })
}

/// Carries out `action` on `host`'s file. Hosts rewrite their own files
/// (Claude Code saves `~/.claude.json` often), so the file is replaced only
/// if it still holds what the plan was made from; otherwise it is re-read
/// and the plan made again.
pub fn apply(host: &Host, env: &Env, action: Action<'_>) -> Result<(Plan, Outcome), String> {
    const ATTEMPTS: usize = 3;
    for _ in 0..ATTEMPTS {
        let plan = plan(host, env, action)?;
        let Some(after) = &plan.after else { return Ok((plan, Outcome::Unchanged)) };
        match write::replace(&plan.file, plan.before.as_deref(), after) {
            Ok(backup) => return Ok((plan, Outcome::Written { backup })),
            Err(write::Error::Changed) => continue,
            Err(write::Error::Io(e)) => return Err(e),
        }
    }
    Err(format!(
        "{} kept changing while lctx was editing it; quit {} and run this again",
        (host.locate)(env).file.display(),
        host.name
    ))
}

/// What `lctx setup --list` reports for one host.
#[derive(Debug)]
pub struct Status {
    pub file: PathBuf,
    /// Its config directory exists, or one of its executables is on PATH.
    pub installed: bool,
    /// The command of our entry (`Ok(None)`: no entry), or why the file could not be read.
    pub configured: Result<Option<String>, String>,
}

pub fn status(host: &Host, env: &Env) -> Status {
    let place = (host.locate)(env);
    let installed = hosts::looks_installed(&place, host.binaries, env);
    let configured = read_optional(&place.file).and_then(|text| {
        let text = text.unwrap_or_default();
        let path = key_path(host);
        let found = match host.format {
            Format::Json => jsonc::get(&text, &path),
            Format::Toml => toml_hosts::get(&text, &path),
        };
        let entry = found.map_err(|e| e.locate(&place.file, &text))?;
        Ok(entry.map(|e| e.get("command").and_then(|c| c.as_str()).unwrap_or("(no command)").to_string()))
    });
    Status { file: place.file, installed, configured }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_found_by_id_and_alias_in_any_case() {
        assert_eq!(find_host("claude-code").map(|h| h.id), Some("claude-code"));
        assert_eq!(find_host("VSCode").map(|h| h.id), Some("vscode"));
        assert_eq!(find_host("code").map(|h| h.id), Some("vscode"));
        assert_eq!(find_host("gemini-cli").map(|h| h.id), Some("gemini"));
        assert!(find_host("emacs").is_none());
    }

    #[test]
    fn ids_and_aliases_are_unique() {
        let mut names: Vec<&str> =
            HOSTS.iter().flat_map(|h| std::iter::once(h.id).chain(h.aliases.iter().copied())).collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count);
    }

    #[test]
    fn entries_follow_the_host_table() {
        let vscode = find_host("vscode").unwrap();
        let e = entry(vscode, Path::new("/opt/lctx-mcp")).unwrap();
        assert_eq!(
            e,
            vec![
                ("type", Field::Text("stdio".into())),
                ("command", Field::Text("/opt/lctx-mcp".into())),
                ("args", Field::EmptyList)
            ]
        );
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let err = TextError::at(9, "expected `,`");
        assert_eq!(err.locate(Path::new("/f.json"), "{\n  \"a\": 1\n"), "/f.json:2:8: expected `,`");
        let whole = TextError { offset: None, message: "bad".into() };
        assert_eq!(whole.locate(Path::new("/f"), ""), "/f: bad");
    }

    #[test]
    fn a_plan_diff_names_dev_null_for_a_new_file() {
        let plan = Plan { file: "/h/x.json".into(), before: None, after: Some("{}\n".into()) };
        let diff = plan.diff();
        assert!(diff.starts_with("--- /dev/null\n+++ /h/x.json\n"), "{diff}");
        assert!(diff.contains("+{}"), "{diff}");
        assert_eq!(Plan { after: None, ..plan }.diff(), "");
    }
}
