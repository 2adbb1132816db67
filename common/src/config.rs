//! `config.toml`: its keys, parsing and validation, and atomic writes under a
//! file lock. The daemon and the clients share this module so the file means
//! the same to both; the daemon's mtime-stamped cache of it is
//! `lean_ctxd::engine::config::ConfigStore`.
//!
//! Readers never see a half-written file: writers take `config.lock`, write a
//! temporary file beside the config, keep the previous version as
//! `config.toml.bak`, and rename. A file that does not parse is reported with
//! its path, line and column; the daemon keeps serving with the last good
//! configuration it had (the defaults if it never had one).

use std::fmt;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::line_breaks::Breaks;
use crate::privacy;

/// The effective configuration. Every key is optional in the file.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Seconds without any connection or request before the daemon exits;
    /// 0 keeps it running.
    pub idle_timeout_secs: u64,
    /// How long a stopping daemon waits for in-flight requests.
    pub drain_timeout_secs: u64,
    /// Largest gRPC message accepted or sent, in bytes.
    pub max_message_bytes: u64,
    /// Directories outside the project that reads and edits may reach.
    pub allow_paths: Vec<String>,
    /// Broad directories (`/`, the home directory or one above it) that
    /// `lctx index` may nevertheless index as a project.
    pub index_broad_roots: Vec<String>,
    /// Whether edits may write inside a `.git` directory: refuse or allow.
    pub git_dir_edits: String,
    /// Largest file a read or edit loads, in bytes.
    pub max_read_bytes: u64,
    /// Bound of the shared content and view cache, in bytes.
    pub cache_bytes: u64,
    /// Archived outputs older than this many days expire.
    pub archive_max_age_days: u64,
    /// Archived outputs beyond this total size expire, oldest first.
    pub archive_max_bytes: u64,
    /// Approximate memory all open search indexes may use.
    pub search_memory_bytes: u64,
    /// A project's index with no search for this long is closed.
    pub search_idle_close_secs: u64,
    /// Which tools lctx-mcp advertises: minimal, standard, code or all.
    pub mcp_tools_profile: String,
    /// Tools lctx-mcp neither advertises nor answers.
    pub mcp_disabled_tools: Vec<String>,
    /// Whether secrets in every text sent to an agent become
    /// `[REDACTED:kind]` markers.
    pub redaction: bool,
    /// Paths (gitignore-style globs; relative ones against the project
    /// root) no read, search or edit may reach, for users whose host has no
    /// permission rules of its own.
    pub deny_paths: Vec<String>,
    /// Commands ctx_shell refuses (prefixes, or Claude Code `Bash(…)` forms).
    pub shell_deny: Vec<String>,
    /// Directories readable without `allow_paths` and never editable, on top
    /// of the dependency and toolchain sources found automatically.
    pub read_only_paths: Vec<String>,
    /// Whose instruction files reads deliver: auto (the MCP host's, else
    /// AGENTS.md), a host by name, or none.
    pub rules_host: String,
    /// Whether reads also deliver the rule files a host loads by itself at
    /// session start (the root CLAUDE.md, AGENTS.md, always-apply rules).
    pub rules_session_start: bool,
    /// How long a precise callgraph question waits for its language server
    /// (starting it included) before answering from the code graph.
    pub lsp_deadline_secs: u64,
    /// A language server unused this long is stopped.
    pub lsp_idle_stop_secs: u64,
    /// Language server commands (program and arguments) of precise mode;
    /// an empty list turns precise mode off for the language.
    pub lsp_rust: Vec<String>,
    pub lsp_python: Vec<String>,
    /// TypeScript, TSX and JavaScript.
    pub lsp_typescript: Vec<String>,
    pub lsp_go: Vec<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            idle_timeout_secs: 30 * 60,
            drain_timeout_secs: 10,
            max_message_bytes: 16 << 20,
            allow_paths: Vec::new(),
            index_broad_roots: Vec::new(),
            git_dir_edits: "refuse".into(),
            max_read_bytes: 8 << 20,
            cache_bytes: 64 << 20,
            archive_max_age_days: 7,
            archive_max_bytes: 512 << 20,
            search_memory_bytes: 512 << 20,
            search_idle_close_secs: 900,
            mcp_tools_profile: "standard".into(),
            mcp_disabled_tools: Vec::new(),
            redaction: true,
            deny_paths: Vec::new(),
            shell_deny: Vec::new(),
            read_only_paths: Vec::new(),
            rules_host: "auto".into(),
            rules_session_start: false,
            lsp_deadline_secs: 5,
            lsp_idle_stop_secs: 300,
            lsp_rust: vec!["rust-analyzer".into()],
            lsp_python: vec!["pyright-langserver".into(), "--stdio".into()],
            lsp_typescript: vec!["typescript-language-server".into(), "--stdio".into()],
            lsp_go: vec!["gopls".into()],
        }
    }
}

/// One settable key: its name, what it means, and its type.
pub struct Key {
    pub name: &'static str,
    pub help: &'static str,
    kind: Kind,
}

enum Kind {
    /// A whole number within `min..=max`.
    Number { min: u64, max: u64, get: fn(&Config) -> u64 },
    /// One word out of `values`.
    Choice { values: &'static [&'static str], get: fn(&Config) -> &str },
    /// A list, given to `set` comma-separated, of `items`.
    List { items: Items, get: fn(&Config) -> &[String] },
    /// true or false.
    Switch { get: fn(&Config) -> bool },
}

/// What a list key's items may be.
enum Items {
    Words,
    AbsolutePaths,
    /// Names out of this set, checked by `set` only: a name in the file that
    /// no longer exists is ignored by its reader, where failing the whole file
    /// would drop every other setting in it.
    Names(&'static [&'static str]),
}

/// The tools lctx-mcp serves, by name (shim-mcp's table test keeps the two
/// equal): what `mcp_disabled_tools` may name.
pub const MCP_TOOLS: &[&str] = &[
    "ctx_read",
    "ctx_shell",
    "ctx_expand",
    "ctx_search",
    "ctx_glob",
    "ctx_tree",
    "ctx_edit",
    "ctx_session",
    "ctx_knowledge",
    "ctx_gain",
    "ctx_callgraph",
    "ctx_repomap",
    "ctx_graph",
    "ctx_impact",
    "ctx_rules",
    "shell",
];

const fn number(name: &'static str, help: &'static str, min: u64, max: u64, get: fn(&Config) -> u64) -> Key {
    Key { name, help, kind: Kind::Number { min, max, get } }
}

/// Every key `lctx config set` accepts.
pub const KEYS: &[Key] = &[
    number(
        "idle_timeout_secs",
        "seconds with no connection and no request before the daemon exits (0 = never)",
        0,
        30 * 24 * 3600,
        |c| c.idle_timeout_secs,
    ),
    number("drain_timeout_secs", "seconds a stopping daemon waits for in-flight requests", 1, 600, |c| {
        c.drain_timeout_secs
    }),
    number(
        "max_message_bytes",
        "largest request or response message in bytes (takes effect at daemon start)",
        64 << 10,
        1 << 30,
        |c| c.max_message_bytes,
    ),
    Key {
        name: "allow_paths",
        help: "absolute directories outside the project that reads and edits may reach (comma-separated)",
        kind: Kind::List { items: Items::AbsolutePaths, get: |c| &c.allow_paths },
    },
    Key {
        name: "index_broad_roots",
        help: "directories `lctx index` may index although they are /, your home directory or above it \
               (absolute, comma-separated)",
        kind: Kind::List { items: Items::AbsolutePaths, get: |c| &c.index_broad_roots },
    },
    Key {
        name: "git_dir_edits",
        help: "whether edits may write inside a .git directory (hooks, config)",
        kind: Kind::Choice { values: &["refuse", "allow"], get: |c| &c.git_dir_edits },
    },
    number("max_read_bytes", "largest file a read or edit loads, in bytes", 1 << 10, 1 << 30, |c| c.max_read_bytes),
    number("cache_bytes", "bound of the shared content and view cache, in bytes", 0, 16 << 30, |c| c.cache_bytes),
    number("archive_max_age_days", "archived outputs older than this expire", 1, 3650, |c| c.archive_max_age_days),
    number(
        "archive_max_bytes",
        "archived outputs beyond this total size expire, oldest first",
        1 << 20,
        1 << 40,
        |c| c.archive_max_bytes,
    ),
    number(
        "search_memory_bytes",
        "approximate memory all open search indexes may use, in bytes",
        64 << 20,
        64 << 30,
        |c| c.search_memory_bytes,
    ),
    number("search_idle_close_secs", "a project's index unused this long is closed", 10, 30 * 24 * 3600, |c| {
        c.search_idle_close_secs
    }),
    Key {
        name: "mcp_tools_profile",
        help: "which tools lctx-mcp advertises to the host each turn",
        kind: Kind::Choice { values: &["minimal", "standard", "code", "all"], get: |c| &c.mcp_tools_profile },
    },
    Key {
        name: "mcp_disabled_tools",
        help: "tools lctx-mcp neither lists nor answers (comma-separated names)",
        kind: Kind::List { items: Items::Names(MCP_TOOLS), get: |c| &c.mcp_disabled_tools },
    },
    Key {
        name: "redaction",
        help: "replace secrets (API keys, tokens, private keys, passwords) in everything sent to an agent \
               with [REDACTED:kind]",
        kind: Kind::Switch { get: |c| c.redaction },
    },
    Key {
        name: "deny_paths",
        help: "paths or gitignore-style globs (relative ones against the project root) that no read, search \
               or edit may reach (comma-separated)",
        kind: Kind::List { items: Items::Words, get: |c| &c.deny_paths },
    },
    Key {
        name: "shell_deny",
        help: "commands ctx_shell refuses: prefixes such as `git push` or Bash(…) patterns (comma-separated)",
        kind: Kind::List { items: Items::Words, get: |c| &c.shell_deny },
    },
    Key {
        name: "read_only_paths",
        help: "absolute directories readable without allow_paths and never editable, besides the dependency \
               and toolchain sources found automatically (comma-separated)",
        kind: Kind::List { items: Items::AbsolutePaths, get: |c| &c.read_only_paths },
    },
    Key {
        name: "rules_host",
        help: "whose instruction files reads deliver: auto follows the MCP host (AGENTS.md otherwise)",
        kind: Kind::Choice {
            values: &["auto", "claude-code", "codex", "cursor", "copilot", "none"],
            get: |c| &c.rules_host,
        },
    },
    Key {
        name: "rules_session_start",
        help: "also deliver the rule files a host loads itself at session start (root CLAUDE.md, AGENTS.md)",
        kind: Kind::Switch { get: |c| c.rules_session_start },
    },
    number(
        "lsp_deadline_secs",
        "seconds a precise callgraph question waits for its language server before answering from the code graph",
        1,
        120,
        |c| c.lsp_deadline_secs,
    ),
    number("lsp_idle_stop_secs", "a language server unused this long is stopped", 1, 24 * 3600, |c| {
        c.lsp_idle_stop_secs
    }),
    lsp_command("lsp_rust", |c| &c.lsp_rust),
    lsp_command("lsp_python", |c| &c.lsp_python),
    lsp_command("lsp_typescript", |c| &c.lsp_typescript),
    lsp_command("lsp_go", |c| &c.lsp_go),
];

/// A precise-mode server command key (`lsp_python`: `pyright-langserver,--stdio`).
const fn lsp_command(name: &'static str, get: fn(&Config) -> &[String]) -> Key {
    Key {
        name,
        help: "the language server precise callgraph questions start: program and arguments, comma-separated \
               (empty: none)",
        kind: Kind::List { items: Items::Words, get },
    }
}

impl Config {
    /// One line of the guardrails this configuration sets: whether secrets are masked, whose rule
    /// files reads deliver, and the user's own deny lists (doctor's line, and the daemon's status
    /// figure it is held to).
    pub fn guardrails(&self) -> String {
        let redaction = if self.redaction {
            "redaction on (secrets shown as [REDACTED:kind])"
        } else {
            "redaction OFF: secrets in files and output reach the agent (lctx config set redaction true)"
        };
        format!(
            "{redaction}; rules_host {}; {} deny_paths, {} shell_deny, {} read_only_paths",
            self.rules_host,
            self.deny_paths.len(),
            self.shell_deny.len(),
            self.read_only_paths.len()
        )
    }

    /// The value of `key` as it would be written in config.toml.
    pub fn get(&self, key: &str) -> Result<String, ConfigError> {
        Ok(match &find_key(key)?.kind {
            Kind::Number { get, .. } => get(self).to_string(),
            Kind::Choice { get, .. } => toml_edit::Value::from(get(self)).to_string(),
            Kind::List { get, .. } => toml_edit::Value::from_iter(get(self).iter().map(String::as_str)).to_string(),
            Kind::Switch { get } => get(self).to_string(),
        })
    }

    fn validate(&self) -> Result<(), String> {
        for key in KEYS {
            match &key.kind {
                Kind::Number { min, max, get } => {
                    let v = get(self);
                    if v < *min || v > *max {
                        return Err(format!("{} = {v} is out of range {min}..={max}", key.name));
                    }
                }
                Kind::Choice { values, get } => {
                    let v = get(self);
                    if !values.contains(&v) {
                        return Err(format!("{} = {v:?} is not one of {}", key.name, values.join(", ")));
                    }
                }
                Kind::List { items: Items::AbsolutePaths, get } => {
                    if let Some(p) = get(self).iter().find(|p| !Path::new(p).is_absolute()) {
                        return Err(format!("{} holds `{p}`, which is not an absolute path", key.name));
                    }
                }
                Kind::List { .. } | Kind::Switch { .. } => {}
            }
        }
        Ok(())
    }
}

fn find_key(name: &str) -> Result<&'static Key, ConfigError> {
    KEYS.iter().find(|k| k.name == name).ok_or_else(|| ConfigError::plain(unknown_key(name)))
}

/// Names the key nearest to a misspelt `name`, else lists them all.
fn unknown_key(name: &str) -> String {
    match crate::spelling::closest(name, KEYS.iter().map(|k| k.name)) {
        Some(key) => format!("unknown config key `{name}`; did you mean `{key}`?"),
        None => {
            let valid: Vec<_> = KEYS.iter().map(|k| k.name).collect();
            format!("unknown config key `{name}`; valid keys: {}", valid.join(", "))
        }
    }
}

/// The parser's message, with an unknown key's said as [`unknown_key`] says
/// it (the parser lists every key, and no near miss), and a duplicate key's
/// name given: `named` is the text the error points at.
fn explain(message: &str, named: &str) -> String {
    match message.strip_prefix("unknown field `").and_then(|rest| rest.split_once('`')) {
        Some((name, _)) => unknown_key(name),
        None if message.trim() == "duplicate key" && !named.is_empty() => {
            format!("`{named}` is set twice; keep one of its lines")
        }
        None => message.to_string(),
    }
}

/// A configuration problem, located in its file where possible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub file: Option<PathBuf>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl ConfigError {
    fn plain(message: String) -> Self {
        ConfigError { file: None, line: None, column: None, message }
    }

    fn in_file(file: &Path, text: &str, span: Option<std::ops::Range<usize>>, message: &str) -> Self {
        let (line, column) = match span {
            Some(span) => {
                let before = &text[..span.start.min(text.len())];
                let line = before.matches('\n').count() + 1;
                let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                (Some(line), Some(column))
            }
            None => (None, None),
        };
        ConfigError { file: Some(file.to_path_buf()), line, column, message: message.trim().to_string() }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}", file.display())?;
            if let Some(line) = self.line {
                write!(f, ":{line}")?;
                if let Some(col) = self.column {
                    write!(f, ":{col}")?;
                }
            }
            write!(f, ": ")?;
        }
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for ConfigError {}

/// Parses config text; `file` only names the source in errors.
pub fn parse(file: &Path, text: &str) -> Result<Config, ConfigError> {
    let config: Config = toml_edit::de::from_str(text).map_err(|e| {
        let named = e.span().and_then(|span| text.get(span)).map(str::trim).unwrap_or_default();
        ConfigError::in_file(file, text, e.span(), &explain(e.message(), named))
    })?;
    config.validate().map_err(|m| ConfigError::in_file(file, text, None, &m))?;
    Ok(config)
}

/// Reads a config file; a missing file means all defaults.
pub fn load(file: &Path) -> Result<Config, ConfigError> {
    match fs::read_to_string(file) {
        Ok(text) => parse(file, &text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
        Err(e) => Err(ConfigError::in_file(file, "", None, &format!("cannot read: {e}"))),
    }
}

/// Reads a config file as [`load`] does; a broken one gives what its valid settings say (see
/// [`salvage`]) beside the error. For a process with no last good configuration to keep: the
/// user's deny lists must not fall back to the defaults, none, over a typo elsewhere in the file.
pub fn load_or_salvage(file: &Path) -> (Config, Option<ConfigError>) {
    match load(file) {
        Ok(config) => (config, None),
        Err(e) => (fs::read_to_string(file).map(|text| salvage(&text)).unwrap_or_default(), Some(e)),
    }
}

/// The most lines a salvage leaves out for their syntax before it gives up on the text.
const MAX_SALVAGE_CUTS: usize = 64;

/// What a config text that does not parse still says: each key whose value is valid on its own
/// (type and range), set over the defaults; a line TOML cannot parse is left out first, as often
/// as needed. Unknown and invalid keys keep their defaults.
pub fn salvage(text: &str) -> Config {
    let mut lines: Vec<&str> = text.lines().collect();
    let document = loop {
        let joined = lines.join("\n");
        match joined.parse::<toml_edit::DocumentMut>() {
            Ok(document) => break document,
            Err(e) => {
                let line = e.span().map(|span| joined[..span.start.min(joined.len())].matches('\n').count());
                match line.filter(|&line| line < lines.len() && text.lines().count() - lines.len() < MAX_SALVAGE_CUTS) {
                    Some(line) => drop(lines.remove(line)),
                    None => return Config::default(),
                }
            }
        }
    };
    let valid = |document: &toml_edit::DocumentMut| {
        toml_edit::de::from_str::<Config>(&document.to_string()).ok().filter(|config| config.validate().is_ok())
    };
    let mut kept = toml_edit::DocumentMut::new();
    for (key, item) in document.iter() {
        let mut trial = kept.clone();
        trial.insert(key, item.clone());
        if valid(&trial).is_some() {
            kept = trial;
        }
    }
    valid(&kept).unwrap_or_default()
}

/// Sets `key` to `value` in the config file, keeping the rest of the file
/// (comments included) as it is. Takes `lock_file` for the whole
/// read-modify-write so concurrent writers never lose each other's change.
pub fn set(file: &Path, lock_file: &Path, key: &str, value: &str) -> Result<(), ConfigError> {
    let new_value = parse_value(find_key(key)?, value)?;
    let io_err = |what: &str, e: std::io::Error| ConfigError::in_file(file, "", None, &format!("{what}: {e}"));
    let dir = file.parent().unwrap_or(Path::new("."));
    // Written by clients, under the user's umask: private on purpose.
    privacy::create_private_dir_all(dir).map_err(|e| io_err("cannot create the config directory", e))?;
    let lock = privacy::private_file()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock_file)
        .map_err(|e| io_err("cannot open the config lock", e))?;
    lock.lock().map_err(|e| io_err("cannot lock the config", e))?;

    let old = match fs::read_to_string(file) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_err("cannot read", e)),
    };
    let text = old.as_deref().unwrap_or("");
    // Refuse to rewrite a file that does not parse: the user's text would be
    // lost or misread.
    parse(file, text)
        .map_err(|e| ConfigError { message: format!("{}; fix the file before setting values", e.message), ..e })?;
    // toml_edit writes `\n` and drops a byte order mark: the edit is made on the plain text and
    // the file's own breaks and mark are put back.
    let breaks = Breaks::of(text);
    let mut doc: toml_edit::DocumentMut = breaks.plain().parse().map_err(|e: toml_edit::TomlError| {
        let span = e.span().map(|s| breaks.original_offset(s.start)..breaks.original_offset(s.end));
        ConfigError::in_file(file, text, span, e.message())
    })?;
    let mut new_value = new_value;
    // The value's decor holds the spaces around it and the line's trailing comment: the comment is the user's.
    if let Some(old_value) = doc.get(key).and_then(toml_edit::Item::as_value) {
        *new_value.decor_mut() = old_value.decor().clone();
    }
    doc[key] = toml_edit::Item::Value(new_value);
    let new_text = breaks.put_back(&doc.to_string());
    parse(file, &new_text)?;

    if let Some(old) = &old {
        let backup = file.with_extension("toml.bak");
        privacy::private_file()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&backup)
            .and_then(|mut f| f.write_all(old.as_bytes()))
            .map_err(|e| io_err("cannot write the backup", e))?;
    }
    let (tmp_path, mut tmp) = tempfile_in(dir).map_err(|e| io_err("cannot create a temporary file", e))?;
    let written =
        tmp.write_all(new_text.as_bytes()).and_then(|()| tmp.sync_all()).and_then(|()| fs::rename(&tmp_path, file));
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp_path);
        return Err(io_err("cannot replace the config file", e));
    }
    Ok(())
}

/// Turns the text given to `lctx config set` into the TOML value to store.
fn parse_value(spec: &Key, value: &str) -> Result<toml_edit::Value, ConfigError> {
    let key = spec.name;
    match &spec.kind {
        Kind::Number { min, max, .. } => {
            let number: u64 = value.trim().parse().map_err(|_| {
                ConfigError::plain(format!("{key} takes a whole number ({}), got `{value}`", spec.help))
            })?;
            if number < *min || number > *max {
                return Err(ConfigError::plain(format!("{key} must be within {min}..={max}, got {number}")));
            }
            Ok(toml_edit::Value::from(i64::try_from(number).unwrap_or(i64::MAX)))
        }
        Kind::Choice { values, .. } => {
            let word = value.trim();
            if !values.contains(&word) {
                return Err(ConfigError::plain(format!("{key} takes one of {}, got `{value}`", values.join(", "))));
            }
            Ok(toml_edit::Value::from(word))
        }
        Kind::List { items: kind, .. } => {
            let items: Vec<&str> = value.split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
            if let Items::Names(names) = kind
                && let Some(bad) = items.iter().find(|item| !names.contains(item))
            {
                let guess = crate::spelling::closest(bad, names.iter().copied())
                    .map(|name| format!("; did you mean `{name}`?"))
                    .unwrap_or_default();
                return Err(ConfigError::plain(format!(
                    "{key} takes names out of {}, got `{bad}`{guess}",
                    names.join(", ")
                )));
            }
            Ok(toml_edit::Value::from_iter(items))
        }
        Kind::Switch { .. } => match value.trim() {
            "true" | "on" | "yes" => Ok(toml_edit::Value::from(true)),
            "false" | "off" | "no" => Ok(toml_edit::Value::from(false)),
            _ => Err(ConfigError::plain(format!("{key} takes true or false, got `{value}`"))),
        },
    }
}

/// A uniquely named file in `dir`, created exclusively.
fn tempfile_in(dir: &Path) -> std::io::Result<(PathBuf, fs::File)> {
    let pid = std::process::id();
    for attempt in 0u32.. {
        let path = dir.join(format!(".config.toml.{pid}.{attempt}.tmp"));
        match privacy::private_file().write(true).create_new(true).open(&path) {
            Ok(f) => return Ok((path, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => continue,
            Err(e) => return Err(e),
        }
    }
    unreachable!("the loop returns")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, text: &str) -> PathBuf {
        let f = dir.join("config.toml");
        fs::write(&f, text).unwrap();
        f
    }

    /// QA: a daemon started while config.toml had an unknown key, a wrong type or a syntax error
    /// anywhere ran on the defaults: no deny_paths, no shell_deny. What the file validly says
    /// still holds.
    #[test]
    fn a_broken_file_still_gives_its_valid_settings() {
        let d = tempfile::tempdir().unwrap();
        let rules = "shell_deny = [\"git push\"]\ndeny_paths = [\"secret.txt\"]\n";
        for broken in ["idle_timeout_sec = 600\n", "idle_timeout_secs = \"30m\"\n", "max_read_bytes = = 3\n", "[oops\n"]
        {
            let f = write(d.path(), &format!("{broken}{rules}redaction = false\n"));
            let (config, error) = load_or_salvage(&f);
            assert!(error.is_some(), "{broken}");
            assert_eq!(config.shell_deny, ["git push"], "{broken}");
            assert_eq!(config.deny_paths, ["secret.txt"], "{broken}");
            assert!(!config.redaction, "{broken}");
            assert_eq!(config.idle_timeout_secs, Config::default().idle_timeout_secs, "{broken}");
        }
        let out_of_range = write(d.path(), &format!("drain_timeout_secs = 0\n{rules}"));
        let (config, _) = load_or_salvage(&out_of_range);
        assert_eq!((config.drain_timeout_secs, config.deny_paths.len()), (Config::default().drain_timeout_secs, 1));
        let f = write(d.path(), rules);
        assert_eq!(load_or_salvage(&f), (load(&f).unwrap(), None));
    }

    #[test]
    fn switches_take_true_or_false() {
        let d = tempfile::tempdir().unwrap();
        let f = write(d.path(), "");
        let lock = d.path().join("config.lock");
        assert!(load(&f).unwrap().redaction, "on by default");
        set(&f, &lock, "redaction", "off").unwrap();
        assert!(!load(&f).unwrap().redaction);
        assert_eq!(load(&f).unwrap().get("redaction").unwrap(), "false");
        let e = set(&f, &lock, "redaction", "maybe").unwrap_err();
        assert!(e.message.contains("true or false"), "{e}");
        let f = write(d.path(), "rules_host = \"vim\"\n");
        assert!(load(&f).unwrap_err().message.contains("rules_host"));
    }

    #[test]
    fn missing_file_means_defaults() {
        let d = tempfile::tempdir().unwrap();
        assert_eq!(load(&d.path().join("none.toml")).unwrap(), Config::default());
    }

    #[test]
    fn syntax_error_names_file_and_line() {
        let d = tempfile::tempdir().unwrap();
        let f = write(d.path(), "# comment\nidle_timeout_secs = 5\ndrain_timeout_secs = = 3\n");
        let e = load(&f).unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.to_string().starts_with(&format!("{}:3:", f.display())), "{e}");
    }

    #[test]
    fn wrong_type_and_unknown_key_are_located() {
        let d = tempfile::tempdir().unwrap();
        let f = write(d.path(), "idle_timeout_secs = \"soon\"\n");
        assert_eq!(load(&f).unwrap_err().line, Some(1));
        let f = write(d.path(), "\n\nidle_timout_secs = 3\n");
        let e = load(&f).unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert_eq!(e.message, "unknown config key `idle_timout_secs`; did you mean `idle_timeout_secs`?");
        let f = write(d.path(), "colour = 3\n");
        let e = load(&f).unwrap_err().message;
        assert!(e.starts_with("unknown config key `colour`; valid keys: idle_timeout_secs, "), "{e}");
        let e = set(&f, &d.path().join("config.lock"), "redactoin", "true").unwrap_err();
        assert_eq!(e.message, "unknown config key `redactoin`; did you mean `redaction`?");
    }

    #[test]
    fn disabled_tools_must_name_tools() {
        let d = tempfile::tempdir().unwrap();
        let f = write(d.path(), "");
        let lock = d.path().join("config.lock");
        let e = set(&f, &lock, "mcp_disabled_tools", "ctx_gain, ctx_bogus").unwrap_err();
        assert!(e.file.is_none(), "a usage error: {e}");
        assert!(e.message.starts_with("mcp_disabled_tools takes names out of ctx_read, ctx_shell, "), "{e}");
        assert!(e.message.ends_with(", ctx_rules, shell, got `ctx_bogus`"), "{e}");
        let e = set(&f, &lock, "mcp_disabled_tools", "ctx_gian").unwrap_err();
        assert!(e.message.ends_with("got `ctx_gian`; did you mean `ctx_gain`?"), "{e}");
        assert_eq!(fs::read_to_string(&f).unwrap(), "", "nothing written");
        set(&f, &lock, "mcp_disabled_tools", "ctx_gain,ctx_rules").unwrap();
        assert_eq!(load(&f).unwrap().mcp_disabled_tools, ["ctx_gain", "ctx_rules"]);
    }

    #[test]
    fn set_keeps_crlf_breaks_and_a_byte_order_mark() {
        let d = tempfile::tempdir().unwrap();
        let lock = d.path().join("config.lock");
        for (original, after) in [
            ("# mine\r\nidle_timeout_secs = 5\r\n", "# mine\r\nidle_timeout_secs = 5\r\ndrain_timeout_secs = 3\r\n"),
            ("\u{feff}idle_timeout_secs = 5\n", "\u{feff}idle_timeout_secs = 5\ndrain_timeout_secs = 3\n"),
        ] {
            let f = write(d.path(), original);
            set(&f, &lock, "drain_timeout_secs", "3").unwrap();
            assert_eq!(fs::read_to_string(&f).unwrap(), after, "{original:?}");
        }
        // Each line keeps its own break, a changed one too; a new line takes CRLF, as the file has some.
        let f = write(d.path(), "# mixed\nidle_timeout_secs = 5\r\ndrain_timeout_secs = 1\n");
        set(&f, &lock, "drain_timeout_secs", "3").unwrap();
        set(&f, &lock, "lsp_idle_stop_secs", "60").unwrap();
        assert_eq!(
            fs::read_to_string(&f).unwrap(),
            "# mixed\nidle_timeout_secs = 5\r\ndrain_timeout_secs = 3\nlsp_idle_stop_secs = 60\r\n"
        );
        // A broken line is named where it is in the user's file.
        let f = write(d.path(), "\u{feff}idle_timeout_secs = 5\r\ndrain_timeout_secs = \r\n");
        let e = set(&f, &lock, "drain_timeout_secs", "3").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
    }

    #[test]
    fn set_keeps_comments_makes_backup_and_validates() {
        let d = tempfile::tempdir().unwrap();
        let f = write(d.path(), "# mine\nidle_timeout_secs = 5 # short\n");
        let lock = d.path().join("config.lock");
        set(&f, &lock, "drain_timeout_secs", "3").unwrap();
        let text = fs::read_to_string(&f).unwrap();
        assert!(text.contains("# mine") && text.contains("# short"), "{text}");
        assert_eq!(load(&f).unwrap().drain_timeout_secs, 3);
        assert_eq!(
            fs::read_to_string(d.path().join("config.toml.bak")).unwrap(),
            "# mine\nidle_timeout_secs = 5 # short\n"
        );

        let e = set(&f, &lock, "nope", "1").unwrap_err();
        assert!(e.message.contains("valid keys: idle_timeout_secs"), "{e}");
        assert!(set(&f, &lock, "drain_timeout_secs", "abc").is_err());
        set(&f, &lock, "allow_paths", "/srv/shared, /opt/docs").unwrap();
        assert_eq!(load(&f).unwrap().allow_paths, ["/srv/shared", "/opt/docs"]);
        assert_eq!(load(&f).unwrap().get("allow_paths").unwrap(), r#"["/srv/shared", "/opt/docs"]"#);
        let e = set(&f, &lock, "allow_paths", "relative/dir").unwrap_err();
        assert!(e.message.contains("not an absolute path"), "{e}");
        assert!(set(&f, &lock, "drain_timeout_secs", "0").is_err());
        assert_eq!(load(&f).unwrap().drain_timeout_secs, 3, "failed sets change nothing");
    }

    #[test]
    fn set_keeps_the_comment_on_the_line_it_changes() {
        let d = tempfile::tempdir().unwrap();
        let f =
            write(d.path(), "# header\nidle_timeout_secs = 10   # ten minutes-ish\ndrain_timeout_secs = 5 # five\n");
        set(&f, &d.path().join("config.lock"), "idle_timeout_secs", "20").unwrap();
        assert_eq!(
            fs::read_to_string(&f).unwrap(),
            "# header\nidle_timeout_secs = 20   # ten minutes-ish\ndrain_timeout_secs = 5 # five\n"
        );
    }

    #[test]
    fn mcp_tool_selection_is_checked_like_any_key() {
        let d = tempfile::tempdir().unwrap();
        let f = write(d.path(), "mcp_tools_profile = \"all\"\nmcp_disabled_tools = [\"ctx_gain\"]\n");
        let config = load(&f).unwrap();
        assert_eq!(
            (config.mcp_tools_profile.as_str(), config.mcp_disabled_tools.as_slice()),
            ("all", &["ctx_gain".to_string()][..])
        );
        let lock = d.path().join("config.lock");
        set(&f, &lock, "mcp_tools_profile", " minimal ").unwrap();
        set(&f, &lock, "mcp_disabled_tools", "ctx_edit,ctx_tree").unwrap();
        let config = load(&f).unwrap();
        assert_eq!(config.get("mcp_tools_profile").unwrap(), "\"minimal\"");
        assert_eq!(config.get("mcp_disabled_tools").unwrap(), r#"["ctx_edit", "ctx_tree"]"#);
        let e = set(&f, &lock, "mcp_tools_profile", "lean").unwrap_err();
        assert!(e.message.contains("minimal, standard, code, all"), "{e}");
        let f = write(d.path(), "mcp_tools_profile = \"huge\"\n");
        let e = load(&f).unwrap_err();
        assert!(e.message.contains("not one of minimal, standard, code, all"), "{e}");
    }

    /// QA: a key set twice read "duplicate key", naming neither the key nor its first line.
    #[test]
    fn a_key_set_twice_is_named() {
        let d = tempfile::tempdir().unwrap();
        let f = write(d.path(), "idle_timeout_secs = 5\nredact = true\nidle_timeout_secs = 6\n");
        let e = load(&f).unwrap_err();
        assert_eq!(e.line, Some(3));
        assert_eq!(e.message, "`idle_timeout_secs` is set twice; keep one of its lines");
    }

    #[test]
    fn set_refuses_to_rewrite_a_broken_file() {
        let d = tempfile::tempdir().unwrap();
        let f = write(d.path(), "idle_timeout_secs = [\n");
        let e = set(&f, &d.path().join("l"), "idle_timeout_secs", "3").unwrap_err();
        assert!(e.message.contains("fix the file"), "{e}");
        assert_eq!(fs::read_to_string(&f).unwrap(), "idle_timeout_secs = [\n");
    }
}
