//! `lctx-shell`: shell integration of lean-ctxd for AI agents.
//!
//! `init` prints a hook that turns a list of commands into shell functions;
//! while an agent runs the shell they call `lctx-shell run`, which runs the
//! command, captures its output and prints it compressed by lean-ctxd. The
//! rule it follows throughout: a command must behave as if lctx-shell were
//! not there — same exit status, same stdin, nothing hung, nothing run twice
//! — and only its output, when an agent reads it, gets shorter.
//!
//! - [`detect`]: which agent runs this shell.
//! - [`toggle`]: on / off / auto, and the routing rule.
//! - [`hooks`]: the bash, zsh and fish hook text, and its fail-open handshake.
//! - [`run`]: running a routed command; [`passthrough`] decides when it steps
//!   aside, [`permission`] asks whether the user's rules allow the command,
//!   [`capture`] collects output, [`signals`] keeps Ctrl-C working,
//!   [`compress`] asks lean-ctxd to shape it; [`engine`] is the one way both
//!   reach lean-ctxd.
//! - [`claude_hook`]: Claude Code's PreToolUse hook, which routes its Bash
//!   tool's commands, since that tool's shell reads no rc file.
//! - [`status`], [`prompt`]: what a person asks about it.

mod capture;
mod claude_hook;
mod compress;
mod detect;
mod engine;
mod hooks;
mod passthrough;
mod permission;
mod prompt;
mod run;
mod signals;
mod status;
mod toggle;

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use lean_ctx_common::paths::Dirs;

#[derive(Parser, Debug)]
#[command(
    name = "lctx-shell",
    version,
    about = "Routes AI agents' shell commands through lean-ctxd's output compression",
    after_help = environment_help()
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the hook for your rc file: eval "$(lctx-shell init bash)" (or zsh); fish: lctx-shell init fish | source
    Init {
        shell: hooks::Shell,
        /// Print the file for non-interactive shells (BASH_ENV, ~/.zshenv) that `lctx init` installs: the hook,
        /// defined only when an AI agent runs the shell.
        #[arg(long)]
        agent_env: bool,
    },
    /// Answer an AI host's pre-tool hook (JSON on stdin): route its shell tool's commands through `lctx-shell run`.
    Hook { host: claude_hook::HookHost },
    /// Run a command; print its output compressed; exit with its status.
    Run(run::RunArgs),
    /// Also route commands run without a terminal on stdin when no agent is detected (every shell).
    On,
    /// Never route (every shell).
    Off,
    /// Route only while an AI agent runs the shell: the default (every shell).
    Auto,
    /// Whether routing is active here and why, and whether the daemon runs.
    Status,
    /// Prompt segment: `lctx` while this shell's commands are routed, else nothing.
    Prompt,
    #[command(flatten)]
    Generate(lctx::cli::generate::Generate),
}

fn environment_help() -> String {
    let agents: Vec<&str> = detect::AGENT_VARS.iter().map(|v| v.name).collect();
    format!(
        "Environment:\n  \
         {mode}=on|off|auto  overrides `lctx-shell on|off|auto` in this shell\n  \
         LEAN_CTX_AGENT=1  treat this shell as run by an agent\n  \
         {commands}=\"…\"  space-separated commands `init` wraps (default: {defaults})\n  \
         LEAN_CTX_HOME=DIR  where lean-ctxd keeps its files, the routing flag among them\n\n\
         An agent is detected by any of these set to a non-empty value: {agents}.",
        mode = toggle::MODE_ENV,
        commands = hooks::COMMANDS_ENV,
        defaults = hooks::DEFAULT_COMMANDS.split_whitespace().collect::<Vec<_>>().join(" "),
        agents = agents.join(", "),
    )
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => match run::run(args) {
            run::Ending::Exit(code) => return ExitCode::from(u8::try_from(code & 0xff).unwrap_or(1)),
            run::Ending::Signal(sig) => signals::die_like(sig),
        },
        Command::Hook { host } => {
            claude_hook::answer(host);
            Ok(())
        }
        Command::Init { shell, agent_env } => hooks::init(shell, agent_env).map(|(text, warnings)| {
            for warning in warnings {
                eprintln!("lctx-shell: {warning}");
            }
            lctx::out!("{text}");
        }),
        Command::On => set_mode(toggle::Mode::On),
        Command::Off => set_mode(toggle::Mode::Off),
        Command::Auto => set_mode(toggle::Mode::Auto),
        Command::Status => status::print(),
        Command::Prompt => {
            lctx::out!("{}", prompt::segment());
            Ok(())
        }
        Command::Generate(what) => lctx::cli::generate::print(Cli::command(), what),
    };
    let flushed = std::io::stdout().flush();
    match result.and_then(|()| flushed.map_err(|e| format!("cannot write the output: {e}"))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lctx-shell: {e}");
            ExitCode::FAILURE
        }
    }
}

fn set_mode(mode: toggle::Mode) -> Result<(), String> {
    let dirs = Dirs::from_env()?;
    toggle::set(&toggle::flag_file(&dirs), mode)?;
    let effect = match mode {
        toggle::Mode::On => "commands run without a terminal on stdin are routed, agent or not",
        toggle::Mode::Off => "no command is routed",
        toggle::Mode::Auto => "commands are routed while an AI agent runs the shell",
    };
    lctx::outln!("lctx-shell {}: {effect} (every shell; {}=on|off|auto overrides)", mode.name(), toggle::MODE_ENV);
    Ok(())
}
