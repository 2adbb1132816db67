//! `lctx-mcp`: the MCP server an agent host (Claude Code, Cursor, Codex, …)
//! launches on stdio. It serves the lean-ctx tools by forwarding each call
//! to lean-ctxd, started on demand, or to the same engine in a `lean-ctxd --stdio` child when
//! no daemon can run.
//!
//! stdout carries MCP messages only; logs go to stderr, which hosts keep in
//! their own MCP logs, and to daily `lctx-mcp.*.log` files beside the
//! daemon's (filter: `LEAN_CTX_LOG`, default `warn`, rmcp's own at
//! `error`). The process exits when stdin closes, or on SIGTERM.

use std::io::IsTerminal as _;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use lctx::options::ClientOptions;
use lctx_mcp::{lifecycle, log_file, profile, server, session, stdio};
use lean_ctx_proto::v1::ClientKind;
use tokio::signal::unix::{SignalKind, signal};
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;
use tracing_subscriber::{EnvFilter, fmt};

/// How long in-flight work may take to wind down once stdin has closed.
const EXIT_GRACE: Duration = Duration::from_secs(2);

const USAGE: &str = "lctx-mcp: the lean-ctx MCP server, on stdin/stdout.

An MCP host (Claude Code, Cursor, Codex, …) starts it; `lctx setup HOST`
registers it. It takes no arguments. Environment: LEAN_CTX_MCP_PROFILE
(minimal|standard|all), LEAN_CTX_MCP_DISABLED (tools), LEAN_CTX_LOG,
LEAN_CTX_HOME, LEAN_CTX_NO_DAEMON. See docs/mcp.md.";

/// `--help` and `--version` answer and exit; anything else is a usage error.
/// `None`: serve.
fn answer_arguments() -> Option<ExitCode> {
    let arg = std::env::args().nth(1)?;
    match arg.as_str() {
        "-h" | "--help" => lctx::outln!("{USAGE}"),
        "-V" | "--version" => lctx::outln!("lctx-mcp {}", env!("CARGO_PKG_VERSION")),
        other => {
            eprintln!("lctx-mcp: unexpected argument `{other}`; it takes none (try --help)");
            return Some(ExitCode::from(2));
        }
    }
    Some(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    if let Some(code) = answer_arguments() {
        return code;
    }
    if std::io::stdin().is_terminal() {
        eprintln!(
            "lctx-mcp: waiting for MCP messages (JSON-RPC) on stdin. It is meant to be started by an MCP host; \
             `lctx setup HOST` registers it, --help says more. Ctrl-D ends it."
        );
    }
    let mut opts = match ClientOptions::from_env(ClientKind::Mcp, "lctx-mcp") {
        Ok(opts) => opts,
        Err(e) => return fail(&e),
    };
    init_logging(&opts.dirs.log_dir());
    opts.session_id = session::new_session_id();
    // One thread: the shim only waits on pipes and sockets; the engine
    // works in the daemon or in a fallback child.
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => return fail(&format!("cannot start the async runtime: {e}")),
    };
    let result = runtime.block_on(serve(opts));
    runtime.shutdown_timeout(EXIT_GRACE);
    lctx::child::await_stderr();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

async fn serve(opts: ClientOptions) -> Result<(), String> {
    tracing::info!(session = %opts.session_id, "serving MCP on stdio");
    let selection = profile::Selection::load(&opts.dirs.config_file());
    let (read, write) = rmcp::transport::stdio_pipes();
    let mut terminate = signal(SignalKind::terminate()).map_err(|e| format!("cannot watch SIGTERM: {e}"))?;
    let started = lifecycle::serve(server::Shim::new(opts, selection), stdio::Stdio::new(read, write))
        .await
        .map_err(|e| format!("MCP session failed to start: {e}"))?;
    let Some(service) = started else {
        tracing::info!("stdin closed before a session began");
        return Ok(());
    };
    // Hosts close stdin to stop a server, then send SIGTERM. Either way the
    // calls in flight are dropped, which stops their work in the daemon (or
    // kills their commands; a fallback child exits when the shim does).
    let stop = service.cancellation_token();
    tokio::spawn(async move {
        if terminate.recv().await.is_some() {
            stop.cancel();
        }
    });
    let reason = service.waiting().await.map_err(|e| format!("MCP session failed: {e}"))?;
    tracing::info!(?reason, "MCP session ended");
    Ok(())
}

/// stderr always; the file too when the log directory can be written. A
/// missing log file is said once on stderr and costs the agent nothing.
fn init_logging(log_dir: &Path) {
    let filter = EnvFilter::try_from_env("LEAN_CTX_LOG").unwrap_or_else(|_| EnvFilter::new("warn,rmcp=error"));
    let file = lean_ctx_common::privacy::create_private_dir_all(log_dir)
        .map_err(|e| e.to_string())
        .and_then(|()| log_file::PrivateDailyLog::open(log_dir));
    let (file_layer, problem) = match file {
        Ok(appender) => (Some(fmt::layer().with_writer(appender).with_ansi(false)), None),
        Err(e) => (None, Some(e)),
    };
    tracing_subscriber::registry()
        .with(filter)
        .with(fmt::layer().with_writer(std::io::stderr).with_target(false))
        .with(file_layer)
        .init();
    if let Some(e) = problem {
        tracing::warn!("logging to stderr only: cannot write logs in {}: {e}", log_dir.display());
    }
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("lctx-mcp: {msg}");
    ExitCode::FAILURE
}
