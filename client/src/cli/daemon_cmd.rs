//! `lctx daemon start|stop|status|restart|logs`.

use std::path::{Path, PathBuf};

use clap::Subcommand;
use lean_ctx_common::detach;
use lean_ctx_proto::v1::{StatusRequest, StatusResponse};

use super::{CmdResult, render};
use crate::backend::Backend;
use crate::daemon;
use crate::options::ClientOptions;

#[derive(Subcommand, Debug)]
pub enum DaemonCmd {
    /// Start the daemon unless one of this build is running.
    Start,
    /// Stop the running daemon (it finishes in-flight requests first).
    Stop,
    /// Show the running daemon's status (starts none).
    Status {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Stop the daemon and start a fresh one.
    Restart,
    /// Show the end of the daemon's log.
    Logs {
        /// Number of lines.
        #[arg(short = 'n', long, default_value_t = 50)]
        lines: usize,
    },
}

pub async fn run(cmd: DaemonCmd, opts: &ClientOptions) -> CmdResult {
    match cmd {
        DaemonCmd::Start => start(opts).await,
        DaemonCmd::Stop => stop(opts).await,
        DaemonCmd::Restart => {
            stop(opts).await?;
            start(opts).await
        }
        DaemonCmd::Status { json } => status(opts, json).await,
        DaemonCmd::Logs { lines } => logs(opts, lines),
    }
}

fn refuse_if_disabled(opts: &ClientOptions) -> CmdResult {
    if opts.no_daemon {
        return Err("LEAN_CTX_NO_DAEMON is set, so no daemon is used; unset it to manage lean-ctxd".into());
    }
    Ok(())
}

async fn start(opts: &ClientOptions) -> CmdResult {
    refuse_if_disabled(opts)?;
    let d = daemon::ensure(opts).await?;
    crate::outln!("lean-ctxd {} running (pid {}) on {}", d.hello.daemon_version, d.hello.pid, opts.socket.display());
    Ok(())
}

async fn stop(opts: &ClientOptions) -> CmdResult {
    refuse_if_disabled(opts)?;
    match daemon::find(opts).await {
        Ok(None) => {
            crate::outln!("no lean-ctxd is running");
            Ok(())
        }
        Ok(Some(d)) => {
            let pid = d.hello.pid;
            daemon::stop(opts, d).await?;
            crate::outln!("lean-ctxd (pid {pid}) stopped");
            Ok(())
        }
        // A daemon that holds the lock but does not answer is ended anyway.
        Err(why) => match daemon::stop_unanswering(opts).await? {
            Some(pid) => {
                crate::outln!("lean-ctxd (pid {pid}) did not answer ({why}); it was stopped by signal");
                Ok(())
            }
            None => Err(why),
        },
    }
}

/// The running daemon's status; asking starts none. With LEAN_CTX_NO_DAEMON
/// the fallback child that would serve answers.
async fn status(opts: &ClientOptions, json: bool) -> CmdResult {
    let backend = if opts.no_daemon {
        super::connect(opts).await?
    } else {
        match daemon::find(opts).await? {
            Some(d) => Backend::remote(&d),
            None if json => {
                crate::outln!("{}", render::status_json(&StatusResponse::default()));
                return Ok(());
            }
            // QA: a daemon draining after `daemon stop` was reported as none running.
            None if let Some(pid) = daemon::lock_holder(opts) => {
                crate::outln!(
                    "lean-ctxd (pid {pid}) holds the daemon lock but does not answer on {}: it is stopping \
                     (finishing the requests in flight, for up to drain_timeout_secs), starting, or hung; ask again \
                     in a moment, or `lctx daemon stop` ends it",
                    opts.socket.display()
                );
                return Ok(());
            }
            None => {
                // Whether the next request can start one is `lctx doctor`'s to find out (no
                // lean-ctxd installed, a runtime dir it cannot use): this only looks.
                crate::outln!(
                    "no lean-ctxd is running; `lctx daemon start` starts one (a request starts one too; \
                     `lctx doctor` says why one cannot start)"
                );
                return Ok(());
            }
        }
    };
    let status = backend
        .control()
        .status(tonic::Request::new(StatusRequest { ctx: Some(opts.context()) }))
        .await
        .map_err(|s| backend.explain(&s))?
        .into_inner();
    if json {
        crate::outln!("{}", render::status_json(&status));
    } else {
        crate::out!("{}", render::status_text(&status));
    }
    Ok(())
}

fn logs(opts: &ClientOptions, lines: usize) -> CmdResult {
    let dir = opts.dirs.log_dir();
    let newest = newest_log(&dir);
    let stderr_log = opts.dirs.daemon_stderr_log();
    if newest.is_none() && !stderr_log.exists() {
        return Err(format!("no daemon log yet in {}", dir.display()));
    }
    if let Some(path) = newest {
        crate::outln!("==> {} <==", path.display());
        crate::outln!("{}", detach::log_tail(&path, 0, lines));
    }
    let early = detach::log_tail(&stderr_log, 0, lines);
    if !early.trim().is_empty() {
        crate::outln!("==> {} <==", stderr_log.display());
        crate::outln!("{early}");
    }
    Ok(())
}

/// Daily files are named by date, so the greatest name is the newest.
fn newest_log(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("lean-ctxd")))
        .max()
}
