//! The `lctx` command line. Exit codes: 0 ok, 1 failure, 2 usage.

mod config_cmd;
mod daemon_cmd;
mod doctor;
mod memory_cmd;
mod read_cmd;
mod render;
mod service;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use lean_ctx_proto::v1::ClientKind;

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
            Command::Read(args) => read_cmd::read(args, &opts).await,
            Command::Session(args) => memory_cmd::session(args, &opts).await,
            Command::Knowledge(cmd) => memory_cmd::knowledge(cmd, &opts).await,
            Command::Gain(args) => memory_cmd::gain(args, &opts).await,
            Command::Ledger(cmd) => memory_cmd::ledger(cmd, &opts).await,
            Command::Edit(args) => read_cmd::edit(args, &opts).await,
            Command::Daemon(cmd) => daemon_cmd::run(cmd, &opts).await,
            Command::Service(cmd) => service::run(cmd, &opts),
            Command::Config(cmd) => config_cmd::run(cmd, &opts),
            Command::Doctor { json } => doctor::run(json, &opts).await,
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

fn fail(msg: &str) -> ExitCode {
    if !msg.is_empty() {
        eprintln!("lctx: {msg}");
    }
    ExitCode::FAILURE
}
