//! `lctx run`, `lctx jobs`, `lctx expand`: adapters over
//! [`capability::shell`].

use clap::{Args, Subcommand};
use lean_ctx_proto::v1::JobsAction;

use super::{Exit, Failure, emit, failure};
use crate::capability::{self, Surface};
use crate::options::ClientOptions;

#[derive(Args, Debug)]
pub struct RunArgs {
    /// Print the output uncompressed.
    #[arg(long)]
    raw: bool,
    /// Seconds before the command (and everything it started) is killed; at most 3600.
    #[arg(long, value_name = "S", default_value_t = 120)]
    timeout: u32,
    /// Start in the background and print the job id.
    #[arg(long)]
    bg: bool,
    /// The command line, run by `sh -c`.
    #[arg(last = true, required = true, num_args = 1..)]
    command: Vec<String>,
    #[command(flatten)]
    pub caller: super::SessionOpt,
}

#[derive(Subcommand, Debug)]
pub enum JobsCmd {
    /// A job's state and, once finished, its output.
    Status {
        /// The id `lctx run --bg` printed.
        id: u64,
    },
    /// Kill a job and everything it started.
    Cancel {
        /// The id `lctx run --bg` printed.
        id: u64,
    },
}

#[derive(Args, Debug)]
pub struct ExpandArgs {
    /// The id printed under shortened output.
    #[arg(required_unless_present = "search")]
    id: Option<String>,
    /// Only lines N-M (1-based, inclusive).
    #[arg(long, value_name = "N-M")]
    lines: Option<String>,
    /// Only lines matching this regex.
    #[arg(long, value_name = "PATTERN")]
    grep: Option<String>,
    /// Find archived outputs mentioning these words.
    #[arg(long, value_name = "QUERY", conflicts_with_all = ["id", "lines", "grep"])]
    search: Option<String>,
    /// With --search: at most this many outputs, best first (default 20); the answer says how many more match.
    #[arg(short = 'n', long)]
    limit: Option<u32>,
    #[command(flatten)]
    pub caller: super::SessionOpt,
}

/// Runs the command; lctx exits with its exit code (124 after a timeout).
pub async fn run(args: RunArgs, opts: &ClientOptions) -> Exit {
    let run = capability::shell::RunArgs {
        command: args.command.join(" "),
        raw: args.raw,
        timeout_secs: args.timeout,
        background: args.bg,
        ..Default::default()
    };
    let backend = super::connect(opts).await?;
    let answer =
        capability::shell::run(&backend, opts.context(), run, Surface::Cli).await.map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, false))
}

pub async fn jobs(cmd: Option<JobsCmd>, opts: &ClientOptions) -> Exit {
    let (action, id) = match cmd {
        None => (JobsAction::List, 0),
        Some(JobsCmd::Status { id }) => (JobsAction::Status, id),
        Some(JobsCmd::Cancel { id }) => (JobsAction::Cancel, id),
    };
    let backend = super::connect(opts).await?;
    let answer =
        capability::shell::jobs(&backend, opts.context(), action, id).await.map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, false))
}

fn parse_lines(spec: &str) -> Result<(u32, u32), Failure> {
    let bad = || Failure::Usage(format!("--lines takes N-M (1-based), got `{spec}`"));
    let (a, b) = spec.split_once('-').ok_or_else(bad)?;
    let start = a.trim().parse().map_err(|_| bad())?;
    let end = b.trim().parse().map_err(|_| bad())?;
    if start == 0 || end < start {
        return Err(bad());
    }
    Ok((start, end))
}

pub async fn expand(args: ExpandArgs, opts: &ClientOptions) -> Exit {
    if args.limit.is_some() && args.search.is_none() {
        return Err(Failure::Usage("--limit belongs to `lctx expand --search`".into()));
    }
    let (start_line, end_line) = match &args.lines {
        Some(spec) => {
            let (a, b) = parse_lines(spec)?;
            (Some(a), Some(b))
        }
        None => (None, None),
    };
    // One `search` field, as lean-ctx has it: a grep within an output when
    // an id is given, a search of the archive otherwise.
    let expand = capability::shell::ExpandArgs {
        id: args.id.unwrap_or_default(),
        start_line,
        end_line,
        search: args.grep.or(args.search).unwrap_or_default(),
        limit: args.limit.unwrap_or(0),
    };
    let backend = super::connect(opts).await?;
    let answer = capability::shell::expand(&backend, opts.context(), expand).await.map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, false))
}
