//! `lctx-shell status`: whether this shell's commands are routed and why,
//! and whether the daemon answers. Starts nothing.

use std::io::IsTerminal;
use std::time::Duration;

use lctx::options::ClientOptions;
use lean_ctx_common::runtime_dir;
use lean_ctx_proto::v1::ClientKind;

use crate::{detect, toggle};

/// Bounds the daemon probe, so status answers even beside a hung daemon.
const PROBE_DEADLINE: Duration = Duration::from_secs(2);

pub fn print() -> Result<(), String> {
    let opts = ClientOptions::from_env(ClientKind::Shell, "lctx-shell")?;
    let env = std::env::var(toggle::MODE_ENV).ok();
    let flag = toggle::flag_file(&opts.dirs);
    let (mode, source) = toggle::effective(env.as_deref(), &flag);
    let agent = detect::from_env();
    let stdin_is_terminal = std::io::stdin().is_terminal();
    let active = toggle::routes(mode, agent.is_some(), stdin_is_terminal);

    lctx::outln!("routing: {}", if active { "active in this shell" } else { "inactive in this shell" });
    let from = match source {
        toggle::Source::Env => format!("{}={}", toggle::MODE_ENV, env.unwrap_or_default()),
        toggle::Source::File => flag.display().to_string(),
        toggle::Source::Default => "default".to_string(),
    };
    lctx::outln!("mode:    {} ({from})", mode.name());
    match agent {
        Some(var) => lctx::outln!("agent:   {} ({})", var.agent, var.name),
        None => lctx::outln!("agent:   none detected"),
    }
    lctx::outln!("stdin:   {}", if stdin_is_terminal { "a terminal" } else { "not a terminal" });
    lctx::outln!("daemon:  {}", daemon_state(&opts));
    let hook_dir = match runtime_dir::check_private_dir(&opts.dirs.runtime) {
        Ok(()) => "ok".to_string(),
        Err(why) => format!("unusable, so commands run unrouted: {why}"),
    };
    lctx::outln!("hook:    files in {}: {hook_dir}", opts.dirs.runtime.display());
    Ok(())
}

fn daemon_state(opts: &ClientOptions) -> String {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_all().build() else {
        return "unknown (cannot start an async runtime)".into();
    };
    let found = runtime.block_on(async { tokio::time::timeout(PROBE_DEADLINE, lctx::daemon::find(opts)).await });
    match found {
        Ok(Ok(Some(d))) => format!("running (lean-ctxd {}, pid {})", d.hello.daemon_version, d.hello.pid),
        Ok(Ok(None)) if opts.daemon_bin.is_none() => {
            "not running, and no lean-ctxd found to start (beside lctx-shell, on PATH or LEAN_CTX_DAEMON_BIN): \
             compression runs in a fallback lean-ctxd"
                .into()
        }
        Ok(Ok(None)) => "not running; the first compressed command starts it".into(),
        Ok(Err(why)) => format!("unreachable, compression runs in a fallback lean-ctxd: {why}"),
        Err(_) => format!("not answering within {} s", PROBE_DEADLINE.as_secs()),
    }
}
