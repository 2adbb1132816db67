//! The `lctx` command line. Exit codes: 0 ok, 1 failure, 2 usage.

mod config_cmd;
mod daemon_cmd;
mod doctor;
pub mod generate;
mod graph_cmd;
mod impact_cmd;
mod index_cmd;
mod init_cmd;
mod map_cmd;
mod memory_cmd;
mod read_cmd;
mod related_cmd;
mod render;
mod search_cmd;
mod service;
mod setup_cmd;
mod shell_cmd;

use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand};
use lean_ctx_proto::v1::ClientKind;

use render::print_text;

use crate::backend::Backend;
use crate::capability::{self, Answer};
use crate::options::ClientOptions;

#[derive(Parser, Debug)]
#[command(name = "lctx", version, about = "Context gateway for AI coding agents (client of lean-ctxd)")]
pub struct Cli {
    /// Session of a read, edit, search, run, memory or map command (default: $LEAN_CTX_SESSION); also taken
    /// after the command's name.
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// Whose instruction files `read` and `rules` deliver: claude-code, codex, cursor, copilot or none
    /// (default: $LEAN_CTX_HOST, else the rules_host setting); also taken after the command's name.
    #[arg(long = "host", id = "rules_host", value_name = "HOST")]
    host: Option<String>,
    #[command(subcommand)]
    command: Command,
}

// `--session`, on the commands whose answer depends on the session. (Plain
// comments on these flattened option groups: a doc comment would become the
// `about` of each command they are flattened into, once it is built.)
#[derive(Args, Debug, Default)]
pub struct SessionOpt {
    /// Session the request belongs to (default: $LEAN_CTX_SESSION).
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
}

// `--session` for a command with subcommands, taken after any of them.
#[derive(Args, Debug, Default)]
pub struct SessionOptAll {
    /// Session the request belongs to (default: $LEAN_CTX_SESSION).
    #[arg(long, global = true, value_name = "ID")]
    pub session: Option<String>,
}

// `--host`, on the commands that deliver or list instruction files.
#[derive(Args, Debug, Default)]
pub struct HostOpt {
    /// Whose instruction files are delivered: claude-code, codex, cursor, copilot or none (default:
    /// $LEAN_CTX_HOST, else the rules_host setting).
    #[arg(long = "host", id = "host_here", value_name = "HOST")]
    pub host: Option<String>,
}

// Each command's arguments are built only when that command is parsed (or
// when help, completions or man pages need them all): building all of them on
// every call doubled the heap `lctx daemon status` touches (203 KB at its
// peak, 117 KB deferred) and cost a fifth of its instructions.
#[derive(Subcommand, Debug)]
#[command(defer = true)]
enum Command {
    /// Read files in a compact mode (ctx_read).
    Read(read_cmd::ReadArgs),
    /// Replace exact text in a file, atomically (ctx_edit).
    Edit(read_cmd::EditArgs),
    /// The host's instruction files that apply to a path (ctx_rules).
    Rules(read_cmd::RulesArgs),
    /// Search the project: regex, bm25 or symbol (ctx_search).
    Search(search_cmd::SearchArgs),
    /// Files matching a glob, respecting ignore rules (ctx_glob).
    Glob(search_cmd::GlobArgs),
    /// A compact directory tree with file counts (ctx_tree).
    Tree(search_cmd::TreeArgs),
    /// Who calls a symbol, what it calls, or a call path between two (ctx_callgraph).
    Callgraph(graph_cmd::CallgraphArgs),
    /// The project's most central definitions as an outline within a token budget (ctx_repomap).
    Map(map_cmd::MapArgs),
    /// A file's imports, importers, tests and co-changed files; neighbours; an import path; a symbol's uses (ctx_graph).
    Graph(related_cmd::GraphArgs),
    /// What a change reaches: dependents, callers and the tests to run, for a file, a symbol or a git diff (ctx_impact).
    Impact(impact_cmd::ImpactArgs),
    /// Build the project's search index now (it is otherwise built on first search); list or remove indexes.
    Index {
        /// A directory: the project it lies in is indexed, or with --remove unindexed (default: the current project).
        path: Option<String>,
        /// List every index on disk: project, size, whether a lean-ctx process has it open.
        #[arg(long, conflicts_with_all = ["path", "remove"])]
        list: bool,
        /// Remove the index of the project PATH lies in (it must not be open in a lean-ctx process).
        #[arg(long)]
        remove: bool,
    },
    /// Run a command; print its output compressed, exit with its exit code (ctx_shell).
    Run(shell_cmd::RunArgs),
    #[command(flatten)]
    Jobs(Jobs),
    /// The full original of shortened output (ctx_expand).
    Expand(shell_cmd::ExpandArgs),
    /// Session memory: task, findings, decisions, next steps, handoff (ctx_session).
    Session(memory_cmd::SessionArgs),
    #[command(flatten)]
    Knowledge(Knowledge),
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
    /// Set up everything at once: MCP server in each installed host, shell integration, optionally the service.
    Init(init_cmd::InitArgs),
    /// Undo `lctx init`: every file it changed back byte for byte, what it created removed.
    Uninstall(init_cmd::UninstallArgs),
    /// Check the installation; each line says OK or FAIL with the fix.
    Doctor {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    #[command(flatten)]
    Generate(generate::Generate),
}

// `jobs` and `knowledge` are registered eagerly, each flattened from an enum
// of its own: clap copies every command's subcommands under `help` before it
// builds deferred commands, so deferred, their subcommands would be missing
// from `lctx help jobs …` completions.
#[derive(Subcommand, Debug)]
enum Jobs {
    /// This session's background jobs (started with `lctx run --bg`): list, status ID, cancel ID.
    Jobs {
        #[command(flatten)]
        caller: SessionOptAll,
        /// List every session's jobs, each with its session (the others' without their output).
        #[arg(long)]
        all: bool,
        #[command(subcommand)]
        cmd: Option<shell_cmd::JobsCmd>,
    },
}

#[derive(Subcommand, Debug)]
enum Knowledge {
    /// Project facts that outlive a chat (ctx_knowledge).
    Knowledge {
        #[command(flatten)]
        caller: SessionOptAll,
        #[command(subcommand)]
        cmd: memory_cmd::KnowledgeCmd,
    },
}

impl Command {
    /// The `--session` and `--host` given after the command's name, or `None`
    /// for a command whose answer depends on neither.
    fn caller(&self) -> Option<(Option<&str>, Option<&str>)> {
        fn session(s: &Option<String>) -> Option<&str> {
            s.as_deref()
        }
        Some(match self {
            Command::Read(a) => (session(&a.caller.session), a.rules_host.host.as_deref()),
            Command::Rules(a) => (session(&a.caller.session), a.rules_host.host.as_deref()),
            Command::Edit(a) => (session(&a.caller.session), None),
            Command::Search(a) => (session(&a.caller.session), None),
            Command::Glob(a) => (session(&a.caller.session), None),
            Command::Tree(a) => (session(&a.caller.session), None),
            Command::Run(a) => (session(&a.caller.session), None),
            Command::Expand(a) => (session(&a.caller.session), None),
            Command::Session(a) => (session(&a.caller.session), None),
            Command::Map(a) => (session(&a.caller.session), None),
            Command::Jobs(Jobs::Jobs { caller, .. }) | Command::Knowledge(Knowledge::Knowledge { caller, .. }) => {
                (session(&caller.session), None)
            }
            _ => return None,
        })
    }

    /// Whether `--host` changes the answer: reads and rules only.
    fn takes_host(&self) -> bool {
        matches!(self, Command::Read(_) | Command::Rules(_))
    }
}

/// `--host HOST` is a usage error when the daemon would not know the host: a name of
/// `lean_ctx_common::hosts` (any case), `none` or `auto`. (An unknown `$LEAN_CTX_HOST` or
/// `rules_host` setting is the daemon's to refuse: no flag was given.)
fn check_host(host: &str) -> Result<(), String> {
    let name = host.trim();
    if matches!(name, "none" | "auto") || lean_ctx_common::hosts::canonical(name).is_some() {
        Ok(())
    } else {
        Err(format!("unknown --host `{name}`; valid: {}, none", lean_ctx_common::hosts::CANONICAL.join(", ")))
    }
}

/// A failure already explained to the user; maps to exit code 1.
pub type CmdResult = Result<(), String>;

/// Why a command could not give its answer.
#[derive(Debug)]
pub enum Failure {
    /// The arguments make no request: exit code 2.
    Usage(String),
    /// The call failed: exit code 1.
    Failed(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Failed(message)
    }
}

/// What a capability command ends with: the exit code of its answer.
pub type Exit = Result<i32, Failure>;

/// A capability's usage error, as the CLI reports it.
fn usage(e: capability::Error) -> Failure {
    match e {
        capability::Error::Usage(message) => Failure::Usage(message),
        capability::Error::Status(status) => Failure::Failed(status.message().to_string()),
    }
}

/// A capability's error, with a broken fallback child explained.
fn failure(backend: &Backend, e: capability::Error) -> Failure {
    match e {
        capability::Error::Usage(message) => Failure::Usage(message),
        capability::Error::Status(status) => Failure::Failed(backend.explain(&status)),
    }
}

/// Prints an answer — its text, or its JSON — and returns the exit code. An
/// answer that is a failure as a whole goes to stderr, like other failures.
fn emit(answer: &Answer, json: bool) -> i32 {
    if json {
        crate::outln!("{}", answer.json);
    } else if answer.is_error {
        eprintln!("lctx: {}", answer.text.trim_end());
    } else {
        print_text(&answer.text);
    }
    answer.exit_code
}

/// [`emit`] for text that is a command's own output (`run --raw`, `expand`): printed byte for byte, without
/// the newline a terminal would like at the end, so `lctx expand ID > copy` reproduces the original.
fn emit_verbatim(answer: &Answer) -> i32 {
    if answer.is_error {
        return emit(answer, false);
    }
    crate::out!("{}", answer.text);
    answer.exit_code
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => return fail(&Failure::Failed(format!("cannot start the async runtime: {e}"))),
    };
    let mut opts = match ClientOptions::from_env(ClientKind::Cli, "lctx") {
        Ok(o) => o,
        Err(e) => return fail(&Failure::Failed(e)),
    };
    let Some((session, host)) = cli.command.caller() else {
        if cli.session.is_some() || cli.host.is_some() {
            return fail(&Failure::Usage(
                "--session and --host belong to read, edit, rules, search, glob, tree, run, jobs, expand, session, \
                 knowledge and map; this command does not depend on them"
                    .into(),
            ));
        }
        return dispatch(cli.command, runtime, opts);
    };
    if cli.host.is_some() && !cli.command.takes_host() {
        return fail(&Failure::Usage("--host belongs to read and rules only".into()));
    }
    if let Some(session) = session.or(cli.session.as_deref()) {
        opts.session_id = session.to_string();
    }
    if let Some(host) = host.or(cli.host.as_deref()) {
        if let Err(message) = check_host(host) {
            return fail(&Failure::Usage(message));
        }
        opts.host = host.to_string();
    }
    dispatch(cli.command, runtime, opts)
}

/// Runs the parsed command and turns its outcome into the exit code.
fn dispatch(command: Command, runtime: tokio::runtime::Runtime, opts: ClientOptions) -> ExitCode {
    let done = |r: CmdResult| r.map(|()| 0).map_err(Failure::Failed);
    let result = runtime.block_on(async {
        match command {
            Command::Run(args) => shell_cmd::run(args, &opts).await,
            Command::Read(args) => read_cmd::read(args, &opts).await,
            Command::Edit(args) => read_cmd::edit(args, &opts).await,
            Command::Rules(args) => read_cmd::rules(args, &opts).await,
            Command::Search(args) => search_cmd::search(args, &opts).await,
            Command::Glob(args) => search_cmd::glob(args, &opts).await,
            Command::Tree(args) => search_cmd::tree(args, &opts).await,
            Command::Callgraph(args) => graph_cmd::callgraph(args, &opts).await,
            Command::Map(args) => map_cmd::map(args, &opts).await,
            Command::Graph(args) => related_cmd::graph(args, &opts).await,
            Command::Impact(args) => impact_cmd::impact(args, &opts).await,
            Command::Index { list: true, .. } => done(index_cmd::list(&opts)),
            Command::Index { remove: true, path, .. } => done(index_cmd::remove(&opts, path.as_deref())),
            Command::Index { path, .. } => search_cmd::index(path, &opts).await,
            Command::Jobs(Jobs::Jobs { cmd, all, .. }) => shell_cmd::jobs(cmd, all, &opts).await,
            Command::Expand(args) => shell_cmd::expand(args, &opts).await,
            Command::Session(args) => memory_cmd::session(args, &opts).await,
            Command::Knowledge(Knowledge::Knowledge { cmd, .. }) => memory_cmd::knowledge(cmd, &opts).await,
            Command::Gain(args) => memory_cmd::gain(args, &opts).await,
            Command::Ledger(cmd) => memory_cmd::ledger(cmd, &opts).await,
            Command::Daemon(cmd) => done(daemon_cmd::run(cmd, &opts).await),
            Command::Service(cmd) => done(service::run(cmd, &opts)),
            Command::Config(cmd) => config_cmd::run(cmd, &opts).map(|()| 0),
            Command::Setup(args) => done(setup_cmd::run(args, &opts.dirs.data)),
            Command::Init(args) => init_cmd::init(args, &opts).await,
            Command::Uninstall(args) => init_cmd::uninstall(args, &opts),
            Command::Doctor { json } => done(doctor::run(json, &opts).await),
            Command::Generate(what) => done(generate::print(Cli::command(), what)),
        }
    });
    // Dropping the runtime closes a fallback child's connection; it exits,
    // and what it wrote on stderr is passed on before this process exits.
    drop(runtime);
    crate::child::await_stderr();
    match result {
        Ok(code) => ExitCode::from(u8::try_from(code.clamp(0, 255)).unwrap_or(1)),
        Err(failure) => fail(&failure),
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

fn fail(failure: &Failure) -> ExitCode {
    let (msg, code) = match failure {
        Failure::Usage(msg) => (msg, 2),
        Failure::Failed(msg) => (msg, 1),
    };
    if !msg.is_empty() {
        eprintln!("lctx: {msg}");
    }
    ExitCode::from(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names_are_those_the_daemon_reads() {
        for name in ["claude-code", "Claude", "AGENTS.md", "github-copilot", "cursor", "none", "auto"] {
            assert!(check_host(name).is_ok(), "{name}");
        }
        assert_eq!(
            check_host("bogus"),
            Err("unknown --host `bogus`; valid: claude-code, codex, cursor, copilot, none".into())
        );
        assert!(check_host("NONE").is_err(), "the daemon reads `none` as written");
    }
}
