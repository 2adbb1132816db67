//! `lctx init [--yes] [--scope user|project] [--service]` and
//! `lctx uninstall [--force]` (see `crate::init`).

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;

use clap::{Args, CommandFactory};

use super::setup_cmd::ScopeArg;
use super::{Exit, Failure, doctor, generate, service};
use crate::init::{self, manifest};
use crate::options::{ClientOptions, is_executable};
use crate::setup::{Env, Scope};

#[derive(Args, Debug)]
pub struct InitArgs {
    /// Apply without asking (needed when stdin is not a terminal).
    #[arg(long, short = 'y')]
    yes: bool,
    /// Register the MCP server and Claude Code's hook for the user (default) or in this project.
    #[arg(long, value_enum, default_value_t = ScopeArg::User)]
    scope: ScopeArg,
    /// Also install the user service that keeps lean-ctxd running (`lctx service install`).
    #[arg(long)]
    service: bool,
}

#[derive(Args, Debug)]
pub struct UninstallArgs {
    /// Restore files even if they changed since `lctx init` (their current version is kept beside them).
    /// From host configs, Claude Code's settings and rc files changed since, lean-ctx's part is taken
    /// out alone without it, unless that cannot be done exactly (the error says why).
    #[arg(long)]
    force: bool,
}

pub async fn init(args: InitArgs, opts: &ClientOptions) -> Exit {
    let env = Env::from_process()?;
    let lctx_shell = beside_lctx("lctx-shell");
    let completion = |shell| generate::completions(super::Cli::command(), shell);
    let plan = init::plan(&env, &opts.dirs.config, Scope::from(args.scope), lctx_shell.as_deref(), completion)?;
    let service_file = if args.service { Some(service::service_file()?) } else { None };
    for change in &plan.changes {
        crate::outln!("# {}", change.purpose);
        crate::out!("{}", change.diff());
    }
    if let Some(file) = &service_file {
        crate::outln!("# user service: `lctx service install` writes {}", file.display());
    }
    for note in &plan.notes {
        crate::outln!("note: {note}");
    }
    let manifest_file = manifest::Store::new(&opts.dirs.data).manifest_file();
    if plan.changes.is_empty() && service_file.is_none() {
        crate::outln!("nothing to change");
    } else {
        if !args.yes {
            confirm(&manifest_file)?;
        }
        init::apply(&plan, &opts.dirs.data, &opts.dirs.config)?;
        if let Some(file) = &service_file {
            install_service(file, opts)?;
        }
        crate::outln!(
            "applied {} change(s), recorded in {} (`lctx uninstall` undoes them); restart the hosts and open a new \
             terminal to pick them up",
            plan.changes.len() + usize::from(service_file.is_some()),
            manifest_file.display()
        );
    }
    crate::outln!();
    match doctor::run(false, opts).await {
        Ok(()) => Ok(0),
        Err(_) => Err(Failure::Failed("doctor found problems (FAIL lines above)".into())),
    }
}

/// Asks on the terminal. Without one it is a usage error (exit 2), so a
/// script never applies a plan nobody saw.
fn confirm(manifest_file: &std::path::Path) -> Result<(), Failure> {
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Err(Failure::Usage(
            "nothing was changed: stdin is not a terminal to confirm on; run `lctx init --yes` to apply this plan"
                .into(),
        ));
    }
    eprint!("apply these changes (recorded in {} for `lctx uninstall`)? [y/N] ", manifest_file.display());
    let mut answer = String::new();
    stdin.lock().read_line(&mut answer).map_err(|e| Failure::Failed(format!("cannot read the answer: {e}")))?;
    if matches!(answer.trim(), "y" | "Y" | "yes") {
        return Ok(());
    }
    Err(Failure::Failed("nothing was changed".into()))
}

/// `lctx service install`, recorded like the other files: the record is
/// made before (for the directories it creates) and completed after.
fn install_service(file: &std::path::Path, opts: &ClientOptions) -> Result<(), String> {
    let store = manifest::Store::new(&opts.dirs.data);
    let mut record = store.load()?.unwrap_or_default();
    let before = manifest::read(file)?;
    let mode = 0o644;
    store.record(&mut record, file, before.as_deref(), mode, "", None)?;
    // The unit is written, not enabled or started: uninstall then only has
    // a file to restore, and `lctx service install --now` starts it.
    service::run(service::ServiceCmd::Install { dry_run: false, now: false }, opts)?;
    let after = manifest::read(file)?.unwrap_or_default();
    store.record(&mut record, file, before.as_deref(), mode, &after, None)
}

pub fn uninstall(args: UninstallArgs, opts: &ClientOptions) -> Exit {
    let Some(undone) = init::uninstall(&opts.dirs.data, args.force)? else {
        crate::outln!(
            "nothing to undo: no record of `lctx init` ({} does not exist)",
            manifest::Store::new(&opts.dirs.data).manifest_file().display()
        );
        return Ok(0);
    };
    for (file, kept) in &undone.kept {
        crate::outln!("{} had changed since init; that version is kept as {}", file.display(), kept.display());
    }
    for file in &undone.restored {
        crate::outln!("restored {}", file.display());
    }
    for file in &undone.taken_out {
        crate::outln!("took lean-ctx out of {}, keeping the changes made to it since init", file.display());
    }
    for file in &undone.gone {
        crate::outln!("{} was deleted since init; nothing to take out of it", file.display());
    }
    for file in &undone.already_out {
        crate::outln!("{} holds nothing of lean-ctx's any more; left as it is", file.display());
    }
    for path in &undone.removed {
        crate::outln!("removed {}", path.display());
    }
    for dir in &undone.dirs_left {
        crate::outln!("left {} in place: it holds files lctx init did not create", dir.display());
    }
    for note in &undone.notes {
        crate::outln!("note: {note}");
    }
    crate::outln!("`lctx init` is undone; restart the hosts and open a new terminal");
    Ok(0)
}

/// A sibling program of this lctx, when installed.
fn beside_lctx(name: &str) -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let path = exe.with_file_name(name);
    is_executable(&path).then_some(path)
}
