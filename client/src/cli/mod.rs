//! The `lctx` command line. Exit codes: 0 ok, 1 failure, 2 usage.

mod config_cmd;
mod daemon_cmd;
mod doctor;
mod memory_cmd;
mod read_cmd;
mod render;
mod search_cmd;
mod service;
mod setup_cmd;
mod shell_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use lean_ctx_proto::v1::ClientKind;

use crate::backend::Backend;
use crate::options::ClientOptions;

#[derive(Parser, Debug)]
#[command(name = "lctx", version, about = "Context gateway for AI coding agents (client of lean-ctxd)")]
pub struct Cli {
    /// Session the request belongs to (default: $LEAN_CTX_SESSION).
    #[arg(long, global = true, value_name = "ID")]
    session: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Read files in a compact mode (ctx_read).
    Read(read_cmd::ReadArgs),
    /// Replace exact text in a file, atomically (ctx_edit).
    Edit(read_cmd::EditArgs),
    /// Search the project: regex, bm25 or symbol (ctx_search).
    Search(search_cmd::SearchArgs),
    /// Files matching a glob, respecting ignore rules (ctx_glob).
    Glob(search_cmd::GlobArgs),
    /// A compact directory tree with file counts (ctx_tree).
    Tree(search_cmd::TreeArgs),
    /// Build the project's search index now (it is otherwise built on first search).
    Index { path: Option<String> },
    /// Run a command; print its output compressed, exit with its exit code (ctx_shell).
    Run(shell_cmd::RunArgs),
    /// Background jobs started with `lctx run --bg`: list, status ID, cancel ID.
    Jobs {
        #[command(subcommand)]
        cmd: Option<shell_cmd::JobsCmd>,
    },
    /// The full original of shortened output (ctx_expand).
    Expand(shell_cmd::ExpandArgs),
    /// Session memory: task, findings, decisions, next steps, handoff (ctx_session).
    Session(memory_cmd::SessionArgs),
    /// Project facts that outlive a chat (ctx_knowledge).
    #[command(subcommand)]
    Knowledge(memory_cmd::KnowledgeCmd),
    /// Tokens saved, from the ledger (ctx_gain).
    Gain(memory_cmd::GainArgs),
    /// The hash-chained token ledger.
    #[command(subcommand)]
    Ledger(memory_cmd::LedgerCmd),
    /// Start, stop and inspect the lean-ctxd daemon.
    #[command(subcommand)]
    Daemon(daemon_cmd::DaemonCmd),
    /// Run lean-ctxd as a user service (systemd on Linux, launchd on macOS).
    #[command(subcommand)]
    Service(service::ServiceCmd),
    /// Read and change config.toml.
    #[command(subcommand)]
    Config(config_cmd::ConfigCmd),
    /// Register the lean-ctx MCP server in an AI coding host (claude-code, cursor, vscode, codex, …).
    Setup(setup_cmd::SetupArgs),
    /// Check the installation; each line says OK or FAIL with the fix.
    Doctor {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
}

/// A failure already explained to the user; maps to exit code 1.
pub type CmdResult = Result<(), String>;

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => return fail(&format!("cannot start the async runtime: {e}")),
    };
    let mut opts = match ClientOptions::from_env(ClientKind::Cli, "lctx") {
        Ok(o) => o,
        Err(e) => return fail(&e),
    };
    if let Some(session) = cli.session {
        opts.session_id = session;
    }
    let result = runtime.block_on(async {
        match cli.command {
            // `lctx run` exits with the command's own exit code.
            Command::Run(args) => shell_cmd::run(args, &opts).await.map(Some),
            Command::Read(args) => read_cmd::read(args, &opts).await.map(|()| None),
            Command::Search(args) => search_cmd::search(args, &opts).await.map(|()| None),
            Command::Glob(args) => search_cmd::glob(args, &opts).await.map(|()| None),
            Command::Tree(args) => search_cmd::tree(args, &opts).await.map(|()| None),
            Command::Index { path } => search_cmd::index(path, &opts).await.map(|()| None),
            Command::Jobs { cmd } => shell_cmd::jobs(cmd, &opts).await.map(|()| None),
            Command::Expand(args) => shell_cmd::expand(args, &opts).await.map(|()| None),
            Command::Session(args) => memory_cmd::session(args, &opts).await.map(|()| None),
            Command::Knowledge(cmd) => memory_cmd::knowledge(cmd, &opts).await.map(|()| None),
            Command::Gain(args) => memory_cmd::gain(args, &opts).await.map(|()| None),
            Command::Ledger(cmd) => memory_cmd::ledger(cmd, &opts).await.map(|()| None),
            Command::Edit(args) => read_cmd::edit(args, &opts).await.map(|()| None),
            Command::Daemon(cmd) => daemon_cmd::run(cmd, &opts).await.map(|()| None),
            Command::Service(cmd) => service::run(cmd, &opts).map(|()| None),
            Command::Config(cmd) => config_cmd::run(cmd, &opts).map(|()| None),
            Command::Setup(args) => setup_cmd::run(args).map(|()| None),
            Command::Doctor { json } => doctor::run(json, &opts).await.map(|()| None),
        }
    });
    match result {
        Ok(None) => ExitCode::SUCCESS,
        Ok(Some(code)) => ExitCode::from(u8::try_from(code.clamp(0, 255)).unwrap_or(1)),
        Err(e) => fail(&e),
    }
}

/// The backend for one command: the daemon, else a fallback child (said on
/// stderr, with the reason), else an error that says what to install.
async fn connect(opts: &ClientOptions) -> Result<Backend, String> {
    let backend = Backend::connect(opts).await?;
    if let Some(reason) = &backend.fallback_reason {
        eprintln!("lctx: no daemon available, served by a lean-ctxd of this call alone: {reason}");
    }
    Ok(backend)
}

fn fail(msg: &str) -> ExitCode {
    if !msg.is_empty() {
        eprintln!("lctx: {msg}");
    }
    ExitCode::FAILURE
}
