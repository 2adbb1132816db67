//! `lctx init` and `lctx uninstall`: everything a user needs around lctx in
//! one step, and the exact undo of it.
//!
//! [`plan`] works out every file change — the MCP server in each installed
//! host ([`crate::setup`]; a host configured by hand is listed as a manual
//! step), Claude Code's PreToolUse hook ([`claude_hook`]), the shell
//! integration for non-interactive shells ([`shell_files`]) and lctx's
//! completions for each shell on PATH ([`completions`]) — as before/after
//! texts, writing nothing. [`apply`]
//! records each change in the [`manifest`] before making it; [`uninstall`]
//! puts every recorded file back as it was.

mod claude_hook;
mod completions;
mod hook_command;
pub mod manifest;
pub mod shell_files;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

pub use claude_hook::hook_programs as claude_hook_programs;
pub use claude_hook::settings_file as claude_settings_file;
use manifest::{FileRecord, Manifest, Part, Store};

use crate::cli::generate::Shell;
use crate::setup::created_dirs::CreatedDirs;
use crate::setup::{self, Action, Env, HOSTS, Scope, write};

/// One file `lctx init` would write.
#[derive(Debug)]
pub struct Change {
    /// The file itself (a symlink's target: the link stays).
    pub file: PathBuf,
    pub before: Option<String>,
    pub after: String,
    /// What it is for, shown above its diff.
    pub purpose: String,
    /// For a generated file (completions), the command that prints it: the
    /// plan names it and the size instead of listing thousands of lines.
    pub generated_by: Option<String>,
    /// What the change adds to a file it shares with the user.
    pub part: Option<Part>,
}

impl Change {
    pub fn diff(&self) -> String {
        let file = self.file.display().to_string();
        let old = if self.before.is_some() { file.as_str() } else { "/dev/null" };
        if let Some(command) = &self.generated_by {
            let lines = self.after.lines().count();
            return format!("--- {old}\n+++ {file}\n@@ {lines} lines, as `{command}` prints them @@\n");
        }
        similar::TextDiff::from_lines(self.before.as_deref().unwrap_or(""), &self.after)
            .unified_diff()
            .header(old, &file)
            .to_string()
    }
}

/// Everything `lctx init` would do.
#[derive(Debug, Default)]
pub struct Plan {
    pub changes: Vec<Change>,
    /// What it leaves out and why, and what is in place already.
    pub notes: Vec<String>,
}

/// Mode of a file init creates: private, like `lctx setup`'s.
const NEW_FILE_MODE: u32 = 0o600;

/// Works out what init changes. `lctx_shell`: the lctx-shell to install, if
/// there is one; `completion`: lctx's completion script for a shell.
pub fn plan(
    env: &Env,
    config_dir: &Path,
    scope: Scope,
    lctx_shell: Option<&Path>,
    completion: fn(Shell) -> String,
) -> Result<Plan, String> {
    let mut plan = Plan::default();
    plan_mcp(env, scope, &mut plan)?;
    match lctx_shell {
        Some(bin) => plan_shell(env, config_dir, scope, bin, completion, &mut plan)?,
        None => plan.notes.push(
            "lctx-shell is not installed beside lctx: no shell integration or completions (cargo install --locked \
             --path shim-shell)"
                .into(),
        ),
    }
    leave_read_only_files(&mut plan);
    Ok(plan)
}

/// A file the user made read-only leaves the plan for a note: writing would
/// replace it whatever its mode, overriding the user's choice unseen.
fn leave_read_only_files(plan: &mut Plan) {
    let (read_only, writable): (Vec<Change>, Vec<Change>) =
        plan.changes.drain(..).partition(|c| write::read_only_mode(&c.file).is_some());
    plan.changes = writable;
    for change in read_only {
        let mode = write::read_only_mode(&change.file).unwrap_or_default();
        plan.notes.push(format!(
            "{}: {}",
            change.purpose,
            write::read_only_message(&change.file, mode, &change.diff())
        ));
    }
}

fn plan_mcp(env: &Env, scope: Scope, plan: &mut Plan) -> Result<(), String> {
    let mcp = match setup::mcp_binary() {
        Ok(mcp) => mcp,
        Err(why) => {
            plan.notes.push(format!("no MCP registration: {why}"));
            return Ok(());
        }
    };
    let installed: Vec<_> = HOSTS.iter().filter(|h| setup::status(h, env, Scope::User).installed).collect();
    if installed.is_empty() {
        plan.notes.push("no MCP host found installed (`lctx setup --list` shows what was looked for)".into());
    }
    for host in installed {
        if let Some(settings) = host.manual {
            plan.notes.push(format!(
                "{}: manual step: run `lctx setup {}` and paste the JSON it prints into {settings}",
                host.name, host.id
            ));
            continue;
        }
        match setup::plan(host, env, scope, Action::Install(&mcp)) {
            Ok(p) => match p.after {
                Some(after) => plan.changes.push(Change {
                    part: Some(Part::McpServer { host: host.id.into() }),
                    ..change(&p.file, after, format!("{}: register the lean-ctx MCP server", host.name))?
                }),
                None => plan.notes.push(format!("{}: lean-ctx already registered in {}", host.name, p.file.display())),
            },
            Err(why) => plan.notes.push(format!("{}: skipped: {why}", host.name)),
        }
    }
    Ok(())
}

fn plan_shell(
    env: &Env,
    config_dir: &Path,
    scope: Scope,
    bin: &Path,
    completion: fn(Shell) -> String,
    plan: &mut Plan,
) -> Result<(), String> {
    let claude = setup::find_host("claude-code").expect("claude-code is in the host table");
    if setup::status(claude, env, Scope::User).installed {
        let file = claude_hook::settings_file(env, scope)?;
        let before = manifest::read(&file)?;
        match claude_hook::with_hook(env, &file, before.as_deref(), bin)? {
            Some(after) => {
                let purpose = if before.as_deref().is_some_and(claude_hook::holds_hook) {
                    "Claude Code: point the PreToolUse hook at this lctx-shell"
                } else {
                    "Claude Code: PreToolUse hook routing its Bash tool"
                };
                plan.changes.push(Change { part: Some(Part::ClaudeHook), ..change(&file, after, purpose.into())? })
            }
            None => plan.notes.push(format!("Claude Code: the lctx-shell hook is in {} already", file.display())),
        }
    }
    let on_path = |name: &str| env.path.iter().any(|dir| crate::options::is_executable(&dir.join(name)));
    let (bash, zsh, fish) = (on_path("bash"), on_path("zsh"), on_path("fish"));
    let bash_env = shell_files::agent_env_file(config_dir, "bash");
    let zsh_env = shell_files::agent_env_file(config_dir, "zsh");
    if bash {
        let block = shell_files::bashrc_block(&bash_env);
        let purposes =
            ["bash agents: the hook BASH_ENV names", "bash: export BASH_ENV for agents started from a terminal"];
        plan_one_shell(plan, bin, "bash", &bash_env, &shell_files::bashrc(env), &block, purposes)?;
    }
    if zsh {
        let fpath = completions::zsh_functions_dir(env);
        let block = shell_files::zshenv_block(bash.then_some(bash_env.as_path()), &zsh_env, &fpath);
        let purposes = ["zsh agents: the hook ~/.zshenv reads", "zsh: every zsh reads ~/.zshenv; agents' get the hook"];
        plan_one_shell(plan, bin, "zsh", &zsh_env, &shell_files::zshenv(env), &block, purposes)?;
    }
    if !bash && !zsh {
        plan.notes.push("neither bash nor zsh is on PATH: no shell integration".into());
    }
    for (shell, found) in [(Shell::Bash, bash), (Shell::Zsh, zsh), (Shell::Fish, fish)] {
        if found {
            let purpose = format!("{}: completions for lctx", shell.name());
            let generated_by = Some(format!("lctx completions {}", shell.name()));
            push_if_changed(plan, &completions::file(env, shell), completion(shell), purpose, generated_by)?;
        }
    }
    if let Some(other) = std::env::var_os("BASH_ENV").filter(|v| !v.is_empty() && Path::new(v) != bash_env) {
        plan.notes.push(format!(
            "BASH_ENV is set to {0} already; the integration leaves it alone, so bash agents are wrapped only once \
             {0} holds this line: {1}",
            Path::new(&other).display(),
            shell_files::source_line(&bash_env)
        ));
    }
    Ok(())
}

/// One shell's part: its agent-env file, and the rc file's block.
fn plan_one_shell(
    plan: &mut Plan,
    bin: &Path,
    shell: &str,
    env_file: &Path,
    rc: &Path,
    block: &str,
    [env_purpose, rc_purpose]: [&str; 2],
) -> Result<(), String> {
    push_if_changed(plan, env_file, shell_files::agent_env_text(bin, shell)?, env_purpose.into(), None)?;
    let before = manifest::read(rc)?;
    let block = shell_files::with_block(before.as_deref(), block).map_err(|why| format!("{}: {why}", rc.display()))?;
    if let Some(after) = block {
        plan.changes.push(Change { part: Some(Part::ShellBlock), ..change(rc, after, rc_purpose.into())? });
    }
    Ok(())
}

fn push_if_changed(
    plan: &mut Plan,
    file: &Path,
    after: String,
    purpose: String,
    generated_by: Option<String>,
) -> Result<(), String> {
    if manifest::read(file)?.as_deref() != Some(after.as_str()) {
        plan.changes.push(Change { generated_by, ..change(file, after, purpose)? });
    }
    Ok(())
}

fn change(file: &Path, after: String, purpose: String) -> Result<Change, String> {
    let file = write::resolve_symlink(file).map_err(manifest::describe)?;
    let before = manifest::read(&file)?;
    Ok(Change { file, before, after, purpose, generated_by: None, part: None })
}

/// Makes the planned changes, each recorded before it is made. A file that
/// changed since the plan was made is not touched (the error names it).
/// Directories created inside lean-ctx's own `config_dir` are private, like
/// everything lean-ctx keeps.
pub fn apply(plan: &Plan, data_dir: &Path, config_dir: &Path) -> Result<(), String> {
    let store = Store::new(data_dir);
    let mut manifest: Manifest = store.load()?.unwrap_or_default();
    for change in &plan.changes {
        let mode = mode_of(&change.file).unwrap_or(NEW_FILE_MODE);
        let part = change.part.as_ref();
        store.record(&mut manifest, &change.file, change.before.as_deref(), mode, &change.after, part)?;
        if let Some(dir) = change.file.parent() {
            let created = if dir.starts_with(config_dir) {
                lean_ctx_common::privacy::create_private_dir_all(dir)
            } else {
                std::fs::create_dir_all(dir)
            };
            created.map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        if manifest::read(&change.file)? != change.before {
            return Err(format!("{} changed while lctx init ran; run it again", change.file.display()));
        }
        write::write_atomically(&change.file, &change.after, mode).map_err(manifest::describe)?;
    }
    Ok(())
}

fn mode_of(file: &Path) -> Option<u32> {
    std::fs::metadata(file).ok().map(|m| m.permissions().mode() & 0o7777)
}

/// What `lctx uninstall` did.
#[derive(Debug, Default)]
pub struct Undone {
    pub restored: Vec<PathBuf>,
    pub removed: Vec<PathBuf>,
    /// Shared files changed since init, from which only lean-ctx's part was taken out.
    pub taken_out: Vec<PathBuf>,
    /// Shared files deleted since init: nothing of lean-ctx's left to take out.
    pub gone: Vec<PathBuf>,
    /// Shared files changed since init that hold nothing of lean-ctx's any more: left as they are.
    pub already_out: Vec<PathBuf>,
    /// Files changed since init and overwritten under `--force`, with where their last version went.
    pub kept: Vec<(PathBuf, PathBuf)>,
    /// Directories init created that hold other files now, so they stay.
    pub dirs_left: Vec<PathBuf>,
    /// What could not be done after the files were undone, which the undo does not wait for
    /// (setup's list of the directories it created was unreadable: they stay).
    pub notes: Vec<String>,
}

/// What uninstall does to one recorded file.
enum Fate {
    /// Untouched since init: put back byte for byte.
    Restore,
    /// Changed since, but lean-ctx's part can be taken out of it alone:
    /// this text is what is left.
    TakeOut(String),
    /// Changed since, and lean-ctx's part is no longer in it: left as it is.
    AlreadyOut,
    /// Deleted since: nothing to take out.
    Gone,
    /// Changed since, and only a whole restore undoes init: refused unless `force`.
    Changed,
}

/// Where `lctx uninstall --force` keeps the current version of a file changed since init.
fn kept_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lctx-uninstall.bak");
    path.with_file_name(name)
}

/// Puts back every file init recorded. A shared file changed since init (a
/// host rewrites its own config all the time) keeps those changes: only
/// lean-ctx's part is taken out. Other files changed since are refused,
/// naming them, unless `force` (their current version is kept as
/// `FILE.lctx-uninstall.bak`). `Ok(None)`: no manifest, nothing to undo.
pub fn uninstall(data_dir: &Path, force: bool) -> Result<Option<Undone>, String> {
    let store = Store::new(data_dir);
    let Some(manifest) = store.load()? else { return Ok(None) };
    let mut changed = Vec::new();
    let mut states = Vec::new();
    for record in &manifest.files {
        let current = manifest::read(&record.path)?;
        let before = store.before(record)?;
        let after = store.after(record)?;
        let fate = if current.as_deref() == Some(after.as_str()) || current == before {
            Fate::Restore
        } else {
            match take_out(record, current.as_deref(), before.as_deref()) {
                Ok(Some(fate)) => fate,
                Ok(None) => {
                    changed.push(record.path.display().to_string());
                    Fate::Changed
                }
                Err(why) => {
                    changed.push(format!("{} ({why})", record.path.display()));
                    Fate::Changed
                }
            }
        };
        states.push((record, current, before, fate));
    }
    // A file the user made read-only since is left alone, as init and setup leave one: refused
    // before anything changes, naming each.
    let read_only: Vec<String> = states
        .iter()
        .filter(|(record, current, before, fate)| {
            let untouched =
                matches!(fate, Fate::Restore) && current == before && mode_of(&record.path) == Some(record.mode);
            !matches!(fate, Fate::Gone | Fate::AlreadyOut) && !untouched
        })
        .filter_map(|(record, ..)| {
            let mode = write::read_only_mode(&record.path)?;
            Some(format!("{} (mode {mode:03o})", record.path.display()))
        })
        // Nor is a read-only copy `--force` would write the current version over.
        .chain(
            states
                .iter()
                .filter(|(_, current, _, fate)| matches!(fate, Fate::Changed) && current.is_some())
                .filter_map(|(record, ..)| {
                    let kept = kept_path(&record.path);
                    let mode = write::read_only_mode(&kept)?;
                    Some(format!("{} (mode {mode:03o})", kept.display()))
                }),
        )
        .collect();
    // Every reason to refuse is named at once (a QA pass learnt of a read-only file only after
    // undoing its changed ones).
    let read_only = (!read_only.is_empty()).then(|| {
        format!(
            "read-only since `lctx init`: {}; lctx leaves such files alone. Make them writable (`chmod u+w \
             FILE`) and run `lctx uninstall` again",
            read_only.join(", ")
        )
    });
    let changed = (!changed.is_empty() && !force).then(|| {
        format!(
            "changed since `lctx init`: {}; restoring would lose those changes. Undo them, or run \
             `lctx uninstall --force` to restore anyway (each current version is kept as FILE.lctx-uninstall.bak)",
            changed.join(", ")
        )
    });
    let refusals: Vec<String> = [changed, read_only].into_iter().flatten().collect();
    if !refusals.is_empty() {
        return Err(format!("{}; nothing was changed", refusals.join(". Also ")));
    }
    let mut undone = Undone::default();
    for (record, current, before, fate) in states.into_iter().rev() {
        // A link made since init (dotfiles kept elsewhere) stays a link: its target is written.
        let target = write::resolve_symlink(&record.path).map_err(manifest::describe)?;
        match fate {
            Fate::Gone => {
                undone.gone.push(record.path.clone());
                continue;
            }
            Fate::AlreadyOut => {
                undone.already_out.push(record.path.clone());
                continue;
            }
            // A file init created that holds nothing else now goes, as it would untouched.
            Fate::TakeOut(text) if !record.existed && holds_nothing(&text, &record.parts) => {}
            Fate::TakeOut(text) => {
                let mode = mode_of(&target).unwrap_or(record.mode);
                write::write_atomically(&target, &text, mode).map_err(manifest::describe)?;
                undone.taken_out.push(record.path.clone());
                continue;
            }
            Fate::Changed => {
                if let Some(current) = &current {
                    let kept = kept_path(&record.path);
                    let mode = mode_of(&record.path).unwrap_or(NEW_FILE_MODE);
                    write::write_atomically(&kept, current, mode).map_err(manifest::describe)?;
                    undone.kept.push((record.path.clone(), kept));
                }
            }
            Fate::Restore => {}
        }
        match before {
            Some(before)
                if current.as_deref() != Some(before.as_str()) || mode_of(&record.path) != Some(record.mode) =>
            {
                write::write_atomically(&target, &before, record.mode).map_err(manifest::describe)?;
                undone.restored.push(record.path.clone());
            }
            Some(_) => {}
            None => match std::fs::remove_file(&record.path) {
                Ok(()) => undone.removed.push(record.path.clone()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(format!("cannot remove {}: {e}", record.path.display())),
            },
        }
    }
    for dir in manifest.dirs.iter().rev() {
        match std::fs::remove_dir(dir) {
            Ok(()) => undone.removed.push(dir.clone()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(_) => undone.dirs_left.push(dir.clone()),
        }
    }
    // A file init created can sit in a directory `lctx setup` created before
    // it (`~/.cursor/`): that goes too, once nothing is left in it.
    let setup_dirs = CreatedDirs::new(data_dir);
    for path in undone.removed.clone() {
        match setup_dirs.remove_empty(&path) {
            Ok(dirs) => undone.removed.extend(dirs),
            Err(why) => {
                undone.notes.push(format!("{why}; the directories `lctx setup` created are left in place"));
                break;
            }
        }
    }
    store.remove()?;
    Ok(Some(undone))
}

/// Whether what is left of a file once lean-ctx's parts are out is nothing:
/// blank, or an empty JSON object where the part was a JSON entry.
fn holds_nothing(text: &str, parts: &[Part]) -> bool {
    let json = parts.iter().any(|part| match part {
        Part::ClaudeHook => true,
        Part::McpServer { host } => setup::find_host(host).is_some_and(setup::is_json),
        Part::ShellBlock => false,
    });
    text.trim().is_empty()
        || (json && matches!(setup::jsonc::value(text), Ok(Some(serde_json::Value::Object(o))) if o.is_empty()))
}

/// What taking lean-ctx's parts out of the `current` text of a shared file
/// changed since init does. `None` when that does not undo init: the file is
/// not shared, or it held one of the parts before init (only the whole
/// `before` brings that version back).
fn take_out(record: &FileRecord, current: Option<&str>, before: Option<&str>) -> Result<Option<Fate>, String> {
    if record.parts.is_empty() {
        return Ok(None);
    }
    let file = &record.path;
    let Some(current) = current else { return Ok(Some(Fate::Gone)) };
    let before = before.unwrap_or("");
    let mut text = current.to_string();
    for part in &record.parts {
        let (held_before, without) = match part {
            Part::McpServer { host } => {
                let Some(host) = setup::find_host(host) else { return Ok(None) };
                (setup::holds_entry(host, file, before)?, setup::without_entry(host, file, &text, before)?)
            }
            Part::ClaudeHook => {
                (claude_hook::holds_hook(before), claude_hook::without_hook(file, &text, Some(before))?)
            }
            Part::ShellBlock => (shell_files::holds_block(before), shell_files::without_block(&text, Some(before))?),
        };
        if held_before {
            return Ok(None);
        }
        if let Some(without) = without {
            text = without;
        }
    }
    Ok(Some(if text == current { Fate::AlreadyOut } else { Fate::TakeOut(text) }))
}
