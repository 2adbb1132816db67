//! The `lctx` command line. Exit codes: 0 ok, 1 failure, 2 usage.

mod config_cmd;
mod daemon_cmd;
mod doctor;
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
