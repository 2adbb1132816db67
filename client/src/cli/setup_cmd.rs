//! `lctx setup HOST | --list | --remove HOST [--dry-run]`: register the
//! lean-ctx MCP server in an AI coding host's config (see `crate::setup`).

use clap::{ArgGroup, Args};

use super::CmdResult;
use crate::setup::{self, Action, Env, HOSTS, Host, Outcome};

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("what").required(true).args(["host", "list", "remove"])))]
pub struct SetupArgs {
    /// Host to register lean-ctx in: claude-code, claude-desktop, cursor, vscode, codex, windsurf, zed, gemini.
    #[arg(value_parser = parse_host)]
    host: Option<&'static Host>,
    /// One line per host: whether it looks installed and whether lean-ctx is configured in it.
    #[arg(long)]
    list: bool,
    /// Remove lean-ctx from HOST's config; its other servers and comments stay.
    #[arg(long, value_name = "HOST", value_parser = parse_host)]
    remove: Option<&'static Host>,
    /// Print the change as a unified diff and write nothing.
    #[arg(long, conflicts_with = "list")]
    dry_run: bool,
}

fn parse_host(name: &str) -> Result<&'static Host, String> {
    setup::find_host(name).ok_or_else(|| {
        let ids: Vec<&str> = HOSTS.iter().map(|h| h.id).collect();
        format!("unknown host `{name}`; one of: {}", ids.join(", "))
    })
}

pub fn run(args: SetupArgs) -> CmdResult {
    let env = Env::from_process()?;
    if args.list {
        list(&env);
        return Ok(());
    }
    let mcp;
    let (host, action) = match (args.host, args.remove) {
        (_, Some(host)) => (host, Action::Remove),
        (Some(host), None) => {
            mcp = setup::mcp_binary()?;
            (host, Action::Install(&mcp))
        }
        (None, None) => unreachable!("clap requires a host, --list or --remove"),
    };
    if args.dry_run {
        let plan = setup::plan(host, &env, action)?;
        match plan.after {
            None => crate::outln!("{}", unchanged_message(host, action, &plan.file)),
            Some(_) => crate::outln!("{}(dry run: nothing written)", plan.diff()),
        }
        return Ok(());
    }
    let (plan, outcome) = setup::apply(host, &env, action)?;
    let file = plan.file.display();
    match outcome {
        Outcome::Unchanged => crate::outln!("{}", unchanged_message(host, action, &plan.file)),
        Outcome::Written { backup } => {
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
            crate::outln!("restart {} to pick up the change", host.name);
        }
    }
    Ok(())
}

fn unchanged_message(host: &Host, action: Action<'_>, file: &std::path::Path) -> String {
    match action {
        Action::Install(_) => format!("{}: lean-ctx is already configured in {}", host.name, file.display()),
        Action::Remove => format!("{}: lean-ctx is not configured in {}; nothing to remove", host.name, file.display()),
    }
}

fn list(env: &Env) {
    let current = setup::mcp_binary().ok();
    for host in HOSTS {
        let status = setup::status(host, env);
        let installed = if status.installed { "installed" } else { "not found" };
        let configured = match &status.configured {
            Ok(None) => format!("not configured ({})", status.file.display()),
            Ok(Some(command)) => {
                let stale = current.as_ref().filter(|c| c.as_os_str() != command.as_str());
                let note = stale.map_or(String::new(), |c| format!(" — this lctx would write {}", c.display()));
                format!("lean-ctx → {command} in {}{note}", status.file.display())
            }
            Err(e) => format!("unreadable: {e}"),
        };
        crate::outln!("{:<15} {installed:<10} {configured}", host.id);
    }
}
