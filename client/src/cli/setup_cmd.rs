//! `lctx setup HOST | --list | --remove HOST [--scope user|project]
//! [--dry-run] [--force]`: register the lean-ctx MCP server in an AI coding
//! host's config (see `crate::setup`).

use std::path::Path;

use clap::{ArgGroup, Args, ValueEnum};

use super::CmdResult;
use crate::setup::created_dirs::CreatedDirs;
use crate::setup::{self, Action, Env, HOSTS, Host, Outcome, Registration, Scope};

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("what").required(true).args(["host", "list", "remove"])))]
pub struct SetupArgs {
    /// Host to register lean-ctx in: claude-code, claude-desktop, cursor, vscode (GitHub Copilot), codex,
    /// windsurf, zed, gemini, opencode, cline, roo-code, kiro, continue, amp, goose; jetbrains (JetBrains AI
    /// Assistant) prints the JSON to paste into its settings.
    #[arg(value_parser = parse_host)]
    host: Option<&'static Host>,
    /// One line per host: installed or not, and whether lean-ctx is registered (and still runnable).
    #[arg(long)]
    list: bool,
    /// Remove lean-ctx from HOST's config; its other servers and comments stay.
    #[arg(long, value_name = "HOST", value_parser = parse_host)]
    remove: Option<&'static Host>,
    /// Which config: the user's own (default) or the project's, in the nearest ancestor holding `.git`
    /// (else the working directory).
    #[arg(long, value_enum, default_value_t = ScopeArg::User)]
    scope: ScopeArg,
    /// Print the change as a unified diff and write nothing.
    #[arg(long, conflicts_with = "list")]
    dry_run: bool,
    /// Register lean-ctx even in a host that does not look installed.
    #[arg(long, conflicts_with_all = ["list", "remove"])]
    force: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum ScopeArg {
    User,
    Project,
}

impl From<ScopeArg> for Scope {
    fn from(scope: ScopeArg) -> Scope {
        match scope {
            ScopeArg::User => Scope::User,
            ScopeArg::Project => Scope::Project,
        }
    }
}

fn parse_host(name: &str) -> Result<&'static Host, String> {
    setup::find_host(name).ok_or_else(|| {
        let ids: Vec<&str> = HOSTS.iter().map(|h| h.id).collect();
        format!("unknown host `{name}`; one of: {}", ids.join(", "))
    })
}

/// `data_dir`: where the directories setup creates are recorded.
pub fn run(args: SetupArgs, data_dir: &Path) -> CmdResult {
    let env = Env::from_process()?;
    let scope = Scope::from(args.scope);
    if args.list {
        list(&env, scope);
        return Ok(());
    }
    if let Some(host) = args.remove.or(args.host)
        && let Some(settings) = host.manual
    {
        return print_manual(host, settings, args.remove.is_some());
    }
    let mcp;
    let (host, action) = match (args.host, args.remove) {
        (_, Some(host)) => (host, Action::Remove),
        (Some(host), None) => {
            setup::check_installed(host, &env, scope, args.force)?;
            mcp = setup::mcp_binary()?;
            (host, Action::Install(&mcp))
        }
        (None, None) => unreachable!("clap requires a host, --list or --remove"),
    };
    if args.dry_run {
        let plan = setup::plan(host, &env, scope, action)?;
        match plan.after {
            None => crate::outln!("{}", unchanged_message(host, action, &plan.file)),
            Some(_) => {
                print_replaced(host, action, plan.previous.as_ref());
                crate::outln!("{}(dry run: nothing written)", plan.diff());
            }
        }
        return Ok(());
    }
    let created = CreatedDirs::new(data_dir);
    if let Action::Install(_) = action {
        created.record(&setup::config_file(host, &env, scope)?)?;
    }
    let (plan, outcome) = setup::apply(host, &env, scope, action)?;
    // A removal that deleted the file takes the directories setup created for it, once empty;
    // one that found nothing to remove touches no directory (the user may have made it since).
    let removed_dirs = match outcome {
        Outcome::Undone(setup::Undo::DeleteFile) => created.remove_empty(&plan.file)?,
        _ => Vec::new(),
    };
    let file = plan.file.display();
    match &outcome {
        Outcome::Unchanged => crate::outln!("{}", unchanged_message(host, action, &plan.file)),
        Outcome::Written { backup } => {
            print_replaced(host, action, plan.previous.as_ref());
            match action {
                Action::Install(mcp) if plan.before.is_none() => {
                    crate::outln!("{}: created {file} with lean-ctx → {}", host.name, mcp.display())
                }
                Action::Install(mcp) => crate::outln!("{}: lean-ctx → {} written to {file}", host.name, mcp.display()),
                Action::Remove => crate::outln!("{}: removed lean-ctx from {file}", host.name),
            }
            if let Some(backup) = backup {
                crate::outln!("previous version kept as {}", backup.display());
            }
        }
        Outcome::Undone(undo) => match undo {
            setup::Undo::RestoreBackup => crate::outln!(
                "{}: removed lean-ctx from {file}: it is back as it was before `lctx setup` (from its backup, now \
                 removed)",
                host.name
            ),
            setup::Undo::DeleteFile => {
                crate::outln!("{}: removed {file}: `lctx setup` created it and nothing else is in it", host.name)
            }
        },
    }
    for dir in &removed_dirs {
        crate::outln!("{}: removed {}: `lctx setup` created it and nothing is left in it", host.name, dir.display());
    }
    if outcome != Outcome::Unchanged {
        crate::outln!("restart {} to pick up the change", host.name);
    }
    Ok(())
}

/// A host configured in its settings UI: what to do there. Nothing is
/// written, so there is nothing to dry-run, force or scope.
fn print_manual(host: &Host, settings: &str, remove: bool) -> CmdResult {
    if remove {
        crate::outln!(
            "{}: lean-ctx is removed by hand: open {settings}, select lean-ctx and remove it (nothing was written)",
            host.name
        );
        return Ok(());
    }
    let snippet = setup::manual_snippet(host, &setup::mcp_binary()?)?;
    crate::outln!(
        "{} keeps its MCP servers in its settings, not in a file lctx can edit; add lean-ctx there:",
        host.name
    );
    crate::outln!("  1. open {settings} (global level: every project; project level: this one)");
    crate::outln!("  2. click Add, choose to give the configuration as JSON, and paste:");
    crate::out!("{snippet}");
    crate::outln!("  3. click OK, then Apply");
    crate::outln!("(nothing was written)");
    Ok(())
}

/// Says what an install overwrites, so a hand-made entry is not lost unnoticed
/// (the backup holds it too).
fn print_replaced(host: &Host, action: Action<'_>, previous: Option<&serde_json::Value>) {
    if let (Action::Install(_), Some(previous)) = (action, previous) {
        crate::outln!("{}: replacing lean-ctx → {}", host.name, setup::describe_entry(previous));
    }
}

fn unchanged_message(host: &Host, action: Action<'_>, file: &Path) -> String {
    match action {
        Action::Install(_) => format!("{}: lean-ctx is already configured in {}", host.name, file.display()),
        Action::Remove => format!("{}: lean-ctx is not configured in {}; nothing to remove", host.name, file.display()),
    }
}

fn list(env: &Env, scope: Scope) {
    let current = setup::mcp_binary().ok();
    let scope_flag = if scope == Scope::Project { " --scope project" } else { "" };
    for host in HOSTS {
        let status = setup::status(host, env, scope);
        let installed = if status.installed { "installed" } else { "not installed" };
        let registered = match (&status.file, status.registered) {
            _ if host.manual.is_some() => {
                format!("manual: `lctx setup {}` prints the JSON to paste into its settings", host.id)
            }
            (Err(_), _) if scope == Scope::User => "no user-level file lctx can edit (see --scope project)".to_string(),
            (Err(_), _) => "no project-level config".to_string(),
            (Ok(file), Ok(None)) => format!("not registered ({})", file.display()),
            (Ok(file), Ok(Some(entry))) => {
                let note =
                    registration_note(&entry, current.as_deref(), &format!("lctx setup {}{scope_flag}", host.id));
                format!("registered: lean-ctx → {} in {}{note}", entry.command_line, file.display())
            }
            (Ok(_), Err(e)) => format!("unreadable: {e}"),
        };
        crate::outln!("{:<15} {installed:<13} {registered}", host.id);
    }
}

/// What follows a registered entry on its `--list` line: how to repair it
/// when the host cannot start its command, or that this lctx would write
/// another `lctx-mcp`.
fn registration_note(entry: &Registration, current: Option<&Path>, setup_command: &str) -> String {
    match (&entry.problem, current) {
        (Some(problem), Some(current)) => {
            format!(" — BROKEN: {problem}; run `{setup_command}` to point it at {}", current.display())
        }
        (Some(problem), None) => format!(" — BROKEN: {problem}; install lctx-mcp, then run `{setup_command}`"),
        (None, Some(current)) if entry.program.as_deref() != current.to_str() => {
            format!(" — this lctx would write {}", current.display())
        }
        (None, _) => String::new(),
    }
}
