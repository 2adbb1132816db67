//! `lctx setup`: register the lean-ctx MCP server (`lctx-mcp`) in the
//! config file of an AI coding host — its user-level file, or with
//! `--scope project` the project's own — report where it is registered, and
//! take it out again.
//!
//! The host table ([`HOSTS`]) says, per host, where its files live
//! ([`hosts`]), its format, the key path of the object holding its MCP
//! servers and the fields of our entry; a new host is one table entry. The
//! files belong to the user and are often edited by hand, so every edit
//! changes only our entry: JSON/JSONC files are edited as text by a
//! comment-aware scanner ([`jsonc`]), Codex's TOML through toml_edit
//! ([`toml_hosts`]), Goose's YAML line by line ([`yaml`]), and the result
//! replaces the file atomically with a backup ([`write`]); directories
//! created for a new file are recorded ([`created_dirs`]), so that removing
//! the file again takes them out when nothing else is in them. A file that does
//! not parse, or that the YAML editor cannot be sure of, is refused,
//! unchanged, with its file:line. A host that keeps its MCP servers in its
//! settings UI rather than a file (JetBrains AI Assistant) is `manual`: lctx
//! prints the JSON to paste there ([`manual_snippet`]) and writes nothing.

pub mod created_dirs;
mod hosts;
pub(crate) use lean_ctx_common::jsonc;
pub(crate) use lean_ctx_common::text_error::TextError;
mod toml_hosts;
pub(crate) mod write;
mod yaml;

use std::path::{Path, PathBuf};

pub use hosts::Env;
use hosts::Place;
use serde_json::Value;

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
    /// The user-level file, and the directory that shows the host has run here.
    locate: fn(&Env) -> Place,
    /// `Some(why)`: the user-level file is not one lctx can edit (only `--scope project` works).
    no_user_scope: Option<&'static str>,
    /// `Some(where)`: no config file at all; lean-ctx is added by pasting
    /// JSON (the file a JSON host would get) into the settings page `where`.
    pub manual: Option<&'static str>,
    /// The project-scope file, relative to the project root, if the host reads one.
    project_file: Option<&'static str>,
    format: Format,
    /// Key path of the object that maps server names to server entries.
    servers_key: &'static [&'static str],
    /// The fields of our entry, in the order they are written.
    fields: &'static [FieldKey],
}

/// Which of a host's config files `lctx setup` works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    /// The user's own file, read in every project (the default).
    #[default]
    User,
    /// The file in the project root (nearest ancestor with `.git`, else the working directory).
    Project,
}

#[derive(Debug, Clone, Copy)]
enum Format {
    /// JSON, or JSONC (comments, trailing commas) where the host reads it.
    Json,
    Toml,
    /// Block-style YAML, edited line by line.
    Yaml,
}

/// A field a host's stdio server entry can carry.
#[derive(Debug, Clone, Copy)]
enum FieldKey {
    /// `"type": …` — `stdio` where required (VS Code) or written by the host's
    /// own CLI (`claude mcp add`); OpenCode's local servers are `local`.
    Type(&'static str),
    /// The absolute path of `lctx-mcp`.
    Command,
    /// `command` as a whole command line, `[path]` (OpenCode has no `args`).
    CommandLine,
    /// `[]`: lctx-mcp needs no arguments; hosts that require the key get it.
    Args,
    /// `{}`: written where the host's own examples carry it.
    Env,
    /// `true`: written where the host's own examples carry it.
    Enabled,
    /// Goose's names: `cmd` for the program, `envs` for the environment map,
    /// `env_keys` (`[]`) for variables taken from its secret store.
    Cmd,
    Envs,
    EnvKeys,
    /// `name: lean-ctx`, where the entry repeats its own name (Goose).
    Name,
    /// `timeout`: seconds the host waits for the server (Goose's default is 300).
    Timeout(u64),
}

/// A field's value: the only shapes our entries need.
#[derive(Debug, PartialEq)]
enum Field {
    Text(String),
    List(Vec<String>),
    EmptyMap,
    Bool(bool),
    Number(u64),
}

impl Field {
    fn to_json(&self) -> Value {
        match self {
            Field::Text(s) => Value::String(s.clone()),
            Field::List(items) => Value::Array(items.iter().cloned().map(Value::String).collect()),
            Field::EmptyMap => Value::Object(serde_json::Map::new()),
            Field::Bool(b) => Value::Bool(*b),
            Field::Number(n) => Value::from(*n),
        }
    }
}

/// Our entry as ordered (key, value) pairs.
type Entry = Vec<(&'static str, Field)>;

/// The plain `command` + `args` entry most hosts take.
const COMMAND_ARGS: &[FieldKey] = &[FieldKey::Command, FieldKey::Args];

/// Every supported host. Paths and entry shapes are documented, with their
/// sources, on the `hosts::*` location functions; project files here.
pub const HOSTS: &[Host] = &[
    Host {
        id: "claude-code",
        name: "Claude Code",
        aliases: &["claude", "claudecode"],
        binaries: &["claude"],
        locate: hosts::claude_code,
        no_user_scope: None,
        manual: None,
        // Claude Code MCP docs, project scope: `.mcp.json` in the project root, same shape.
        project_file: Some(".mcp.json"),
        format: Format::Json,
        servers_key: &["mcpServers"],
        // The shape `claude mcp add --scope user` writes (Claude Code MCP docs).
        fields: &[FieldKey::Type("stdio"), FieldKey::Command, FieldKey::Args, FieldKey::Env],
    },
    Host {
        id: "claude-desktop",
        name: "Claude Desktop",
        aliases: &["claude-app", "desktop"],
        binaries: &["claude-desktop"],
        locate: hosts::claude_desktop,
        no_user_scope: None,
        manual: None,
        project_file: None,
        format: Format::Json,
        servers_key: &["mcpServers"],
        fields: COMMAND_ARGS,
    },
    Host {
        id: "cursor",
        name: "Cursor",
        aliases: &[],
        binaries: &["cursor"],
        locate: hosts::cursor,
        no_user_scope: None,
        manual: None,
        // Cursor MCP docs: project servers in `.cursor/mcp.json`, same shape.
        project_file: Some(".cursor/mcp.json"),
        format: Format::Json,
        servers_key: &["mcpServers"],
        fields: COMMAND_ARGS,
    },
    Host {
        id: "vscode",
        name: "VS Code",
        aliases: &["code", "vs-code", "copilot", "github-copilot"],
        binaries: &["code"],
        locate: hosts::vscode,
        no_user_scope: None,
        manual: None,
        // VS Code MCP configuration reference: workspace servers in `.vscode/mcp.json`, same shape.
        project_file: Some(".vscode/mcp.json"),
        format: Format::Json,
        // VS Code's mcp.json uses `servers`, and `type` is required (VS Code MCP configuration reference).
        servers_key: &["servers"],
        fields: &[FieldKey::Type("stdio"), FieldKey::Command, FieldKey::Args],
    },
    Host {
        id: "codex",
        name: "Codex",
        aliases: &["codex-cli", "openai-codex"],
        binaries: &["codex"],
        locate: hosts::codex,
        no_user_scope: None,
        manual: None,
        project_file: None,
        format: Format::Toml,
        // `[mcp_servers.NAME]` with `command` and `args` (Codex MCP docs).
        servers_key: &["mcp_servers"],
        fields: COMMAND_ARGS,
    },
    Host {
        id: "windsurf",
        name: "Windsurf",
        aliases: &["codeium"],
        binaries: &["windsurf"],
        locate: hosts::windsurf,
        no_user_scope: None,
        manual: None,
        project_file: None,
        format: Format::Json,
        servers_key: &["mcpServers"],
        fields: COMMAND_ARGS,
    },
    Host {
        id: "zed",
        name: "Zed",
        aliases: &["zed-editor"],
        binaries: &["zed", "zeditor"],
        locate: hosts::zed,
        no_user_scope: None,
        manual: None,
        project_file: None,
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
        no_user_scope: None,
        manual: None,
        // Gemini CLI configuration docs: project settings in `.gemini/settings.json`, same shape.
        project_file: Some(".gemini/settings.json"),
        format: Format::Json,
        servers_key: &["mcpServers"],
        fields: COMMAND_ARGS,
    },
    Host {
        id: "opencode",
        name: "OpenCode",
        aliases: &["open-code"],
        binaries: &["opencode"],
        locate: hosts::opencode,
        no_user_scope: None,
        manual: None,
        // OpenCode config docs: `opencode.json` in the project root.
        project_file: Some("opencode.json"),
        format: Format::Json,
        // OpenCode MCP docs: `mcp.NAME = {type: "local", command: [argv…], enabled}`; no `args` key.
        servers_key: &["mcp"],
        fields: &[FieldKey::Type("local"), FieldKey::CommandLine, FieldKey::Enabled],
    },
    Host {
        id: "cline",
        name: "Cline",
        aliases: &["cline-cli"],
        binaries: &["cline"],
        locate: hosts::cline,
        no_user_scope: None,
        manual: None,
        project_file: None,
        format: Format::Json,
        // Cline MCP docs: `mcpServers` entries with `command`, `args`, `env`, `disabled`.
        servers_key: &["mcpServers"],
        fields: COMMAND_ARGS,
    },
    Host {
        id: "roo-code",
        name: "Roo Code",
        aliases: &["roo", "roocode", "roo-cline"],
        binaries: &[],
        locate: hosts::roo_code,
        no_user_scope: None,
        manual: None,
        // Roo Code MCP docs: project servers in `.roo/mcp.json`, same shape as the global file.
        project_file: Some(".roo/mcp.json"),
        format: Format::Json,
        servers_key: &["mcpServers"],
        fields: COMMAND_ARGS,
    },
    Host {
        id: "kiro",
        name: "Kiro",
        aliases: &["kiro-cli"],
        binaries: &["kiro", "kiro-cli"],
        locate: hosts::kiro,
        no_user_scope: None,
        manual: None,
        // Kiro MCP configuration docs: workspace servers in `.kiro/settings/mcp.json`, same shape.
        project_file: Some(".kiro/settings/mcp.json"),
        format: Format::Json,
        servers_key: &["mcpServers"],
        fields: COMMAND_ARGS,
    },
    Host {
        id: "continue",
        name: "Continue",
        aliases: &["continue-dev", "continuedev"],
        binaries: &["cn"],
        locate: hosts::continue_dev,
        no_user_scope: Some(
            "its user-level servers are a YAML list in ~/.continue/config.yaml, which lctx does not edit",
        ),
        manual: None,
        // Continue MCP docs: every file in `.continue/mcpServers/` is loaded, and JSON files in the
        // `mcpServers` shape other hosts use are accepted; this one is lctx's own.
        project_file: Some(".continue/mcpServers/lean-ctx.json"),
        format: Format::Json,
        servers_key: &["mcpServers"],
        fields: COMMAND_ARGS,
    },
    Host {
        id: "amp",
        name: "Amp",
        aliases: &["ampcode"],
        binaries: &["amp"],
        locate: hosts::amp,
        no_user_scope: None,
        manual: None,
        // Amp manual: workspace settings in `.amp/settings.json` (Amp asks before running their servers).
        project_file: Some(".amp/settings.json"),
        format: Format::Json,
        // One literal key with a dot in it, not a nested path (Amp manual).
        servers_key: &["amp.mcpServers"],
        fields: COMMAND_ARGS,
    },
    Host {
        id: "goose",
        name: "Goose",
        aliases: &["goose-cli", "block-goose"],
        binaries: &["goose"],
        locate: hosts::goose,
        no_user_scope: None,
        manual: None,
        // Goose keeps extensions in its user config only.
        project_file: None,
        format: Format::Yaml,
        // Goose config-files guide, "Extensions Configuration": a stdio extension is
        // `extensions.NAME` with `type: stdio`, `name`, `enabled`, `cmd`, `args`, `env_keys`,
        // `envs`, `timeout`. Goose's ExtensionConfig::Stdio requires `name`, `cmd` and `args`;
        // the entry's `name` must match its key, by which Goose finds it.
        servers_key: &["extensions"],
        fields: &[
            FieldKey::Type("stdio"),
            FieldKey::Name,
            FieldKey::Enabled,
            FieldKey::Cmd,
            FieldKey::Args,
            FieldKey::Envs,
            FieldKey::EnvKeys,
            FieldKey::Timeout(300),
        ],
    },
    Host {
        id: "jetbrains",
        name: "JetBrains AI Assistant",
        aliases: &["jetbrains-ai", "ai-assistant", "intellij", "idea"],
        // The launchers of the IDEs that bundle AI Assistant (JetBrains Toolbox puts them on PATH).
        binaries: &[
            "idea",
            "pycharm",
            "webstorm",
            "goland",
            "clion",
            "rider",
            "rustrover",
            "phpstorm",
            "rubymine",
            "datagrip",
        ],
        locate: hosts::jetbrains,
        no_user_scope: None,
        // AI Assistant MCP docs: servers are added in the IDE's settings (global or project level),
        // by fields or by pasting a `{"mcpServers": …}` JSON; no config file is documented.
        manual: Some("Settings | Tools | AI Assistant | Model Context Protocol (MCP)"),
        project_file: None,
        format: Format::Json,
        servers_key: &["mcpServers"],
        fields: COMMAND_ARGS,
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
    if !crate::options::is_executable(&bin) {
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
    /// Our entry as it was before, when there was one.
    pub previous: Option<Value>,
    /// How a removal undoes a setup the file has not changed since, if it can.
    pub undo: Option<Undo>,
}

/// A removal that gives the file back exactly as it was before `lctx setup`
/// put the entry in, found by making the entry again: when setup's own edit
/// of the earlier version reproduces the file byte for byte, nothing but our
/// entry changed since. Taking the entry out alone could not tell an empty
/// file from `{}`, or an empty `"mcpServers": {}` of the user's from one
/// setup added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Undo {
    /// The file is what setup made of its backup (`FILE.bak`, which does not
    /// hold the entry): the backup's bytes go back, and the backup goes.
    RestoreBackup,
    /// The file is what setup made of nothing: it goes, leaving no backup.
    DeleteFile,
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
    /// A removal undid setup exactly (see [`Undo`]).
    Undone(Undo),
}

fn entry(host: &Host, mcp: &Path) -> Result<Entry, String> {
    let command =
        mcp.to_str().ok_or_else(|| format!("the path of {MCP_BIN_NAME} is not valid UTF-8: {}", mcp.display()))?;
    Ok(host
        .fields
        .iter()
        .map(|key| match key {
            FieldKey::Type(kind) => ("type", Field::Text((*kind).into())),
            FieldKey::Command => ("command", Field::Text(command.into())),
            FieldKey::CommandLine => ("command", Field::List(vec![command.into()])),
            FieldKey::Args => ("args", Field::List(Vec::new())),
            FieldKey::Env => ("env", Field::EmptyMap),
            FieldKey::Enabled => ("enabled", Field::Bool(true)),
            FieldKey::Cmd => ("cmd", Field::Text(command.into())),
            FieldKey::Envs => ("envs", Field::EmptyMap),
            FieldKey::EnvKeys => ("env_keys", Field::List(Vec::new())),
            FieldKey::Name => ("name", Field::Text(SERVER_NAME.into())),
            FieldKey::Timeout(seconds) => ("timeout", Field::Number(*seconds)),
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

/// The file that holds `host`'s servers in `scope`, or why there is none.
pub fn config_file(host: &Host, env: &Env, scope: Scope) -> Result<PathBuf, String> {
    if let Some(settings) = host.manual {
        return Err(format!(
            "{} keeps its MCP servers in {settings}, not in a file lctx can edit; `lctx setup {}` prints what to \
             paste there",
            host.name, host.id
        ));
    }
    match (scope, host.no_user_scope, host.project_file) {
        (Scope::User, None, _) => Ok((host.locate)(env).file),
        (Scope::User, Some(why), Some(_)) => Err(format!(
            "{}: {why}; run `lctx setup {} --scope project` to register it in this project",
            host.name, host.id
        )),
        (Scope::User, Some(why), None) => Err(format!("{}: {why}", host.name)),
        (Scope::Project, _, Some(relative)) => Ok(env.project_root()?.join(relative)),
        (Scope::Project, _, None) => Err(format!(
            "{} documents no project-level MCP config; register it for the user instead (drop --scope project)",
            host.name
        )),
    }
}

fn looks_installed(host: &Host, env: &Env) -> bool {
    let place = (host.locate)(env);
    let lctx_writes_file = host.no_user_scope.is_none() && host.manual.is_none();
    hosts::looks_installed(&place, lctx_writes_file, host.binaries, env) || holds_settings(host, &place.file)
}

/// Whether the host's own config file holds servers (ours among them) or
/// other settings: someone chose this host here, so `lctx setup HOST`, the
/// fix doctor names for a broken entry, must not refuse it as not installed.
/// An empty document, or an empty server list, is what a removal leaves.
/// A file the parser rejects counts too: setup then says where it is wrong.
fn holds_settings(host: &Host, file: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(file) else { return false };
    let document = match host.format {
        Format::Json => jsonc::value(&text),
        Format::Toml => toml_hosts::get(&text, &[]),
        // Goose's file: a line that is no comment is a setting.
        Format::Yaml => return text.lines().map(str::trim).any(|l| !l.is_empty() && !l.starts_with('#')),
    };
    match document {
        Ok(Some(Value::Object(top))) => top.iter().any(|(key, value)| {
            host.servers_key != [key.as_str()] || value.as_object().is_none_or(|servers| !servers.is_empty())
        }),
        Ok(_) => false,
        Err(_) => !text.trim().is_empty(),
    }
}

/// What to paste into a `manual` host's settings: the file a JSON host with
/// its key path and fields would get.
pub fn manual_snippet(host: &Host, mcp: &Path) -> Result<String, String> {
    let members: Vec<_> = entry(host, mcp)?.iter().map(|(k, v)| (*k, v.to_json())).collect();
    let text = jsonc::upsert("", &key_path(host), &members).map_err(|e| e.locate(Path::new("snippet"), ""))?;
    Ok(text.unwrap_or_default())
}

/// Our entry in `text`, whatever the host's format.
fn find_entry(host: &Host, text: &str, path: &[&str]) -> Result<Option<Value>, TextError> {
    match host.format {
        Format::Json => jsonc::get(text, path),
        Format::Toml => toml_hosts::get(text, path),
        Format::Yaml => yaml::get(text, path),
    }
}

/// Refuses to write for a host that shows no sign of being installed,
/// unless `force`: a typo'd or stale choice would otherwise leave config
/// directories behind for programs that are not there. A project file that
/// already exists is sign enough that the project uses the host.
pub fn check_installed(host: &Host, env: &Env, scope: Scope, force: bool) -> Result<(), String> {
    let place = (host.locate)(env);
    let project_uses_it = scope == Scope::Project && config_file(host, env, scope)?.is_file();
    if force || project_uses_it || looks_installed(host, env) {
        return Ok(());
    }
    let on_path = match host.binaries {
        [] => String::new(),
        names => format!(", no {} on PATH", names.iter().map(|b| format!("`{b}`")).collect::<Vec<_>>().join(" or ")),
    };
    Err(format!(
        "{} does not look installed (no files of its own in {}{on_path}); install and start it once, \
         or pass --force to register lean-ctx anyway",
        host.name,
        place.marker.display()
    ))
}

/// Computes what `action` would do to `host`'s `scope` file, writing nothing.
pub fn plan(host: &Host, env: &Env, scope: Scope, action: Action<'_>) -> Result<Plan, String> {
    let file = config_file(host, env, scope)?;
    let before = read_optional(&file)?;
    let text = before.as_deref().unwrap_or("");
    let path = key_path(host);
    let located = |e: TextError| format!("{}; fix the file and run again (nothing was changed)", e.locate(&file, text));
    let previous = find_entry(host, text, &path).map_err(located)?;
    let after = match action {
        Action::Install(mcp) => {
            let ours: Vec<_> = entry(host, mcp)?.iter().map(|(k, v)| (*k, v.to_json())).collect();
            with_entry(host, text, &path, &keeping_the_users(ours, previous.as_ref()))
        }
        Action::Remove => {
            // `FILE.bak` without our entry is the file as it was before setup added it.
            let backup = read_optional(&write::backup_path(&file))?;
            let before_setup = backup.filter(|b| holds_entry(host, &file, b).is_ok_and(|held| !held));
            remove_entry(host, text, &path, before_setup.as_deref())
        }
    }
    .map_err(located)?;
    let undo = match (action, &before, &previous) {
        (Action::Remove, Some(current), Some(entry)) => undo(host, &file, current, entry)?,
        _ => None,
    };
    let after = match undo {
        Some(Undo::RestoreBackup) => read_optional(&write::backup_path(&file))?,
        Some(Undo::DeleteFile) => Some(String::new()),
        None => after,
    };
    Ok(Plan { file, before, after, previous, undo })
}

fn with_entry(host: &Host, text: &str, path: &[&str], members: &[(&str, Value)]) -> Result<Option<String>, TextError> {
    match host.format {
        Format::Toml => toml_hosts::upsert(text, path, members),
        Format::Yaml => yaml::upsert(text, path, members),
        Format::Json => jsonc::upsert(text, path, members),
    }
}

/// Whether `current` (holding our `entry`) is exactly what setup made of the
/// backup, or of no file; see [`Undo`].
fn undo(host: &Host, file: &Path, current: &str, entry: &Value) -> Result<Option<Undo>, String> {
    let Some(program) = entry_program(entry) else { return Ok(None) };
    let ours: Vec<_> = self::entry(host, Path::new(program))?.iter().map(|(k, v)| (*k, v.to_json())).collect();
    let made_of =
        |text: &str| with_entry(host, text, &key_path(host), &ours).ok().flatten().as_deref() == Some(current);
    let is_link = std::fs::symlink_metadata(file).is_ok_and(|m| m.file_type().is_symlink());
    Ok(match read_optional(&write::backup_path(file))? {
        Some(backup) if !holds_entry(host, file, &backup).unwrap_or(true) && made_of(&backup) => {
            Some(Undo::RestoreBackup)
        }
        None if !is_link && made_of("") => Some(Undo::DeleteFile),
        _ => None,
    })
}

/// `text` without our entry. A servers object or table this leaves empty
/// goes too, unless `before` (the file before our entry was added, when
/// known) had it: then it is the user's, and stays.
fn remove_entry(host: &Host, text: &str, path: &[&str], before: Option<&str>) -> Result<Option<String>, TextError> {
    let theirs = before.is_some_and(|before| match host.format {
        Format::Json => matches!(jsonc::get(before, host.servers_key), Ok(Some(_))),
        Format::Toml => matches!(toml_hosts::get(before, host.servers_key), Ok(Some(_))),
        // Goose's `extensions` holds its builtin extensions too: never left empty by ours alone.
        Format::Yaml => false,
    });
    match host.format {
        Format::Json if theirs => jsonc::remove_member(text, path),
        Format::Json => jsonc::remove(text, path),
        Format::Toml => toml_hosts::remove(text, path, !theirs),
        Format::Yaml => yaml::remove(text, path),
    }
}

/// `text` (the config `file` of `host`) without the lean-ctx entry, the
/// rest kept byte for byte; `None` when there is no entry. `before`: the
/// file before the entry was added, which tells whether an emptied servers
/// object was there already.
pub fn without_entry(host: &Host, file: &Path, text: &str, before: &str) -> Result<Option<String>, String> {
    remove_entry(host, text, &key_path(host), Some(before)).map_err(|e| e.locate(file, text))
}

/// Whether `host` keeps its config in JSON.
pub fn is_json(host: &Host) -> bool {
    matches!(host.format, Format::Json)
}

/// Whether `text` (the config `file` of `host`) holds a lean-ctx entry.
pub fn holds_entry(host: &Host, file: &Path, text: &str) -> Result<bool, String> {
    find_entry(host, text, &key_path(host)).map(|e| e.is_some()).map_err(|e| e.locate(file, text))
}

/// Our entry's fields, then what the user set in the entry being replaced that ours do not: a
/// host's own settings (`trust`, `disabled`, `timeout`) and a non-empty environment where ours is
/// empty (`env: {"LEAN_CTX_PROFILE": "code"}`). The program and its arguments are ours: the old
/// entry may have started another program.
fn keeping_the_users<'k>(ours: Vec<(&'k str, Value)>, previous: Option<&'k Value>) -> Vec<(&'k str, Value)> {
    let Some(Value::Object(previous)) = previous else { return ours };
    let mut members: Vec<(&str, Value)> = ours
        .into_iter()
        .map(|(key, value)| match (&value, previous.get(key)) {
            (Value::Object(empty), Some(theirs @ Value::Object(set))) if empty.is_empty() && !set.is_empty() => {
                (key, theirs.clone())
            }
            _ => (key, value),
        })
        .collect();
    let extras: Vec<(&str, Value)> = previous
        .iter()
        .filter(|(key, _)| {
            !members.iter().any(|(ours, _)| ours == key) && !matches!(key.as_str(), "cmd" | "command" | "args")
        })
        .map(|(key, value)| (key.as_str(), value.clone()))
        .collect();
    members.extend(extras);
    members
}

/// Carries out `action` on `host`'s file. Hosts rewrite their own files
/// (Claude Code saves `~/.claude.json` often), so the file is replaced only
/// if it still holds what the plan was made from; otherwise it is re-read
/// and the plan made again.
pub fn apply(host: &Host, env: &Env, scope: Scope, action: Action<'_>) -> Result<(Plan, Outcome), String> {
    const ATTEMPTS: usize = 3;
    for _ in 0..ATTEMPTS {
        let plan = plan(host, env, scope, action)?;
        let Some(after) = &plan.after else { return Ok((plan, Outcome::Unchanged)) };
        let before = plan.before.as_deref();
        let outcome = match plan.undo {
            Some(Undo::DeleteFile) => {
                write::delete(&plan.file, before.unwrap_or_default()).map(|()| Outcome::Undone(Undo::DeleteFile))
            }
            // The replacement keeps the file with our entry as the backup: a version gone for good.
            Some(Undo::RestoreBackup) => write::replace(&plan.file, before, after)
                .and_then(|backup| backup.map_or(Ok(()), |backup| write::delete(&backup, before.unwrap_or_default())))
                .map(|()| Outcome::Undone(Undo::RestoreBackup)),
            None => write::replace(&plan.file, before, after).map(|backup| Outcome::Written { backup }),
        };
        match outcome {
            Ok(outcome) => return Ok((plan, outcome)),
            Err(write::Error::Changed) => continue,
            Err(write::Error::ReadOnly(file, mode)) => return Err(write::read_only_message(&file, mode, &plan.diff())),
            Err(write::Error::Io(e)) => return Err(e),
        }
    }
    Err(format!(
        "{} kept changing while lctx was editing it; quit {} and run this again",
        config_file(host, env, scope)?.display(),
        host.name
    ))
}

/// The program of an entry: `command`, or Goose's `cmd`.
fn program_field(entry: &Value) -> Option<&Value> {
    entry.get("command").or_else(|| entry.get("cmd"))
}

/// An entry as a command line: `command` (a string, or OpenCode's argv list; Goose's `cmd`) then `args`.
pub fn describe_entry(entry: &Value) -> String {
    let words = |v: Option<&Value>| -> Vec<String> {
        match v {
            Some(Value::String(s)) => vec![s.clone()],
            Some(Value::Array(items)) => {
                items.iter().map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string)).collect()
            }
            _ => Vec::new(),
        }
    };
    let command = words(program_field(entry));
    if command.is_empty() {
        return "(no command)".to_string();
    }
    command.into_iter().chain(words(entry.get("args"))).collect::<Vec<_>>().join(" ")
}

/// The program an entry runs, if it names one.
fn entry_program(entry: &Value) -> Option<&str> {
    match program_field(entry)? {
        Value::String(s) => Some(s),
        Value::Array(items) => items.first()?.as_str(),
        _ => None,
    }
}

/// Why the host could not start `program`, if it could not: a path that is
/// missing or not executable, or a bare name not found on PATH.
pub(crate) fn program_problem(program: &str, env: &Env) -> Option<String> {
    if !program.contains('/') {
        return hosts::on_path(&[program], env).is_none().then(|| format!("`{program}` is not on PATH"));
    }
    let path = Path::new(program);
    match std::fs::metadata(path) {
        Err(_) => Some(format!("{program} does not exist")),
        Ok(_) if !crate::options::is_executable(path) => Some(format!("{program} is not an executable file")),
        Ok(_) => None,
    }
}

/// Our entry in a host's file, as `lctx setup --list` reports it.
#[derive(Debug)]
pub struct Registration {
    /// The entry as a command line.
    pub command_line: String,
    /// The program it runs, when it names one.
    pub program: Option<String>,
    /// Why the host cannot start it (deleted, not executable), if so.
    pub problem: Option<String>,
}

/// What `lctx setup --list` reports for one host.
#[derive(Debug)]
pub struct Status {
    /// The file for the scope asked about, or why the host has none.
    pub file: Result<PathBuf, String>,
    /// Its config directory holds files of its own, its config file holds
    /// settings, or one of its executables is on PATH.
    pub installed: bool,
    /// Our entry (`Ok(None)`: none), or why the file could not be read.
    pub registered: Result<Option<Registration>, String>,
}

pub fn status(host: &Host, env: &Env, scope: Scope) -> Status {
    let installed = looks_installed(host, env);
    let file = config_file(host, env, scope);
    let registered = match &file {
        Ok(file) => registration(host, env, file),
        Err(_) => Ok(None),
    };
    Status { file, installed, registered }
}

fn registration(host: &Host, env: &Env, file: &Path) -> Result<Option<Registration>, String> {
    let text = read_optional(file)?.unwrap_or_default();
    let path = key_path(host);
    let entry = find_entry(host, &text, &path).map_err(|e| e.locate(file, &text))?;
    Ok(entry.map(|entry| {
        let program = entry_program(&entry).map(str::to_string);
        let problem = match &program {
            Some(p) => program_problem(p, env),
            None => Some("the entry names no command".to_string()),
        };
        Registration { command_line: describe_entry(&entry), program, problem }
    }))
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
                ("args", Field::List(Vec::new()))
            ]
        );
        let opencode = find_host("opencode").unwrap();
        let e: Vec<_> =
            entry(opencode, Path::new("/opt/lctx-mcp")).unwrap().iter().map(|(k, v)| (*k, v.to_json())).collect();
        assert_eq!(
            e,
            vec![
                ("type", serde_json::json!("local")),
                ("command", serde_json::json!(["/opt/lctx-mcp"])),
                ("enabled", serde_json::json!(true))
            ]
        );
    }

    fn env(cwd: &Path) -> Env {
        Env::plain("/home/u", cwd)
    }

    #[test]
    fn a_config_file_holding_servers_or_settings_shows_the_host_installed() {
        let dir = tempfile::tempdir().unwrap();
        let e = Env { home: dir.path().into(), ..env(dir.path()) };
        let installed = |id: &str, file: &str, text: &str| {
            let host = find_host(id).unwrap();
            let file = dir.path().join(file);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, text).unwrap();
            let found = status(host, &e, Scope::User).installed;
            assert_eq!(found, check_installed(host, &e, Scope::User, false).is_ok(), "init and setup agree");
            std::fs::remove_file(&file).unwrap();
            found
        };
        let cursor = ".cursor/mcp.json";
        assert!(!installed("cursor", cursor, "{}\n"), "an empty file is what a removal leaves");
        assert!(!installed("cursor", cursor, r#"{"mcpServers": {}}"#));
        assert!(installed("cursor", cursor, r#"{"mcpServers": {"github": {"command": "gh-mcp"}}}"#));
        assert!(installed("cursor", cursor, r#"{"mcpServers": {"lean-ctx": {"command": "/gone/lctx-mcp"}}}"#));
        assert!(installed("cursor", cursor, "{\"mcpServers\": {"), "setup then says where it is broken");
        assert!(installed("codex", ".codex/config.toml", "[mcp_servers.github]\ncommand = \"gh-mcp\"\n"));
        assert!(!installed("codex", ".codex/config.toml", "[mcp_servers]\n"));
        assert!(installed("zed", ".config/zed/settings.json", "// mine\n{\"theme\": \"One Dark\"}\n"));
    }

    #[test]
    fn scopes_pick_the_user_or_the_project_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        std::fs::create_dir_all(dir.path().join("src/deep")).unwrap();
        let e = env(&dir.path().join("src/deep"));
        let file = |id: &str, scope| config_file(find_host(id).unwrap(), &e, scope);
        assert_eq!(file("cursor", Scope::User).unwrap(), Path::new("/home/u/.cursor/mcp.json"));
        assert_eq!(file("cursor", Scope::Project).unwrap(), dir.path().join(".cursor/mcp.json"));
        assert_eq!(file("claude-code", Scope::Project).unwrap(), dir.path().join(".mcp.json"));
        assert_eq!(file("vscode", Scope::Project).unwrap(), dir.path().join(".vscode/mcp.json"));
        assert!(file("codex", Scope::Project).unwrap_err().contains("documents no project-level MCP config"));
        let err = file("continue", Scope::User).unwrap_err();
        assert!(err.contains("config.yaml") && err.contains("--scope project"), "{err}");
        assert_eq!(file("continue", Scope::Project).unwrap(), dir.path().join(".continue/mcpServers/lean-ctx.json"));
    }

    #[test]
    fn replacing_an_entry_keeps_what_the_user_set_in_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        let file = dir.path().join(".cursor/mcp.json");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        let before =
            r#"{"mcpServers":{"lean-ctx":{"command":"/old/lctx-mcp","args":["--foo"],"env":{"A":"1"},"trust":true}}}"#;
        std::fs::write(&file, before).unwrap();
        let cursor = find_host("cursor").unwrap();
        let plan = plan(cursor, &env(dir.path()), Scope::Project, Action::Install(Path::new("/new/lctx-mcp"))).unwrap();
        let after: Value = serde_json::from_str(plan.after.as_deref().unwrap()).unwrap();
        // The program and its arguments are ours; the environment and the host's own settings stay.
        assert_eq!(
            after["mcpServers"]["lean-ctx"],
            serde_json::json!({"command": "/new/lctx-mcp", "args": [], "env": {"A": "1"}, "trust": true})
        );
        // Nothing of the user's to keep: our entry as it is.
        let ours = vec![("command", Value::from("/x")), ("env", serde_json::json!({}))];
        assert_eq!(keeping_the_users(ours.clone(), None), ours);
        assert_eq!(keeping_the_users(ours.clone(), Some(&serde_json::json!({"cmd": "/old", "env": {}}))), ours);
    }

    #[test]
    fn every_host_can_be_written_somewhere_or_is_manual() {
        let e = env(Path::new("/p"));
        for host in HOSTS.iter().filter(|h| h.manual.is_none()) {
            assert!(
                config_file(host, &e, Scope::User).is_ok() || config_file(host, &e, Scope::Project).is_ok(),
                "{}",
                host.id
            );
        }
    }

    #[test]
    fn a_manual_host_gets_the_json_to_paste_and_no_file() {
        let jetbrains = find_host("jetbrains").unwrap();
        let snippet = manual_snippet(jetbrains, Path::new("/opt/lctx-mcp")).unwrap();
        assert_eq!(
            snippet,
            "{\n  \"mcpServers\": {\n    \"lean-ctx\": {\n      \"command\": \"/opt/lctx-mcp\",\n      \"args\": []\n    }\n  }\n}\n"
        );
        let e = env(Path::new("/p"));
        for scope in [Scope::User, Scope::Project] {
            let err = config_file(jetbrains, &e, scope).unwrap_err();
            assert!(err.contains("Settings | Tools | AI Assistant") && err.contains("lctx setup jetbrains"), "{err}");
        }
    }

    #[test]
    fn goose_entries_name_themselves_and_carry_goose_s_keys() {
        let goose = find_host("goose").unwrap();
        let e: Vec<_> =
            entry(goose, Path::new("/opt/lctx-mcp")).unwrap().iter().map(|(k, v)| (*k, v.to_json())).collect();
        let keys: Vec<_> = e.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["type", "name", "enabled", "cmd", "args", "envs", "env_keys", "timeout"]);
        let value = Value::Object(e.into_iter().map(|(k, v)| (k.to_string(), v)).collect());
        assert_eq!(value["name"], SERVER_NAME);
        assert_eq!(value["timeout"], 300);
        assert_eq!(describe_entry(&value), "/opt/lctx-mcp");
        assert_eq!(entry_program(&value), Some("/opt/lctx-mcp"));
    }

    #[test]
    fn entries_are_described_as_command_lines_and_checked() {
        use serde_json::json;
        assert_eq!(describe_entry(&json!({"command": "/a/b", "args": ["-x", "y"]})), "/a/b -x y");
        assert_eq!(describe_entry(&json!({"type": "local", "command": ["/a/b", "--c"]})), "/a/b --c");
        assert_eq!(describe_entry(&json!({"url": "http://x"})), "(no command)");
        let dir = tempfile::tempdir().unwrap();
        let e = Env { path: vec![dir.path().into()], ..env(dir.path()) };
        let missing = dir.path().join("gone");
        assert_eq!(
            program_problem(missing.to_str().unwrap(), &e),
            Some(format!("{} does not exist", missing.display()))
        );
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "").unwrap();
        assert!(program_problem(plain.to_str().unwrap(), &e).unwrap().contains("not an executable"));
        assert_eq!(program_problem("plain", &e), Some("`plain` is not on PATH".into()));
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&plain, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(program_problem(plain.to_str().unwrap(), &e), None);
        assert_eq!(program_problem("plain", &e), None);
    }

    #[test]
    fn a_plan_diff_names_dev_null_for_a_new_file() {
        let plan =
            Plan { file: "/h/x.json".into(), before: None, after: Some("{}\n".into()), previous: None, undo: None };
        let diff = plan.diff();
        assert!(diff.starts_with("--- /dev/null\n+++ /h/x.json\n"), "{diff}");
        assert!(diff.contains("+{}"), "{diff}");
        assert_eq!(Plan { after: None, ..plan }.diff(), "");
    }
}
