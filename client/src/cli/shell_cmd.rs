//! `lctx run`, `lctx jobs`, `lctx expand`.

use clap::{Args, Subcommand};
use lean_ctx_proto::v1::{ExecRequest, ExpandRequest, JobsRequest};

use super::CmdResult;
use super::render::print_text;
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
}

#[derive(Subcommand, Debug)]
pub enum JobsCmd {
    /// A job's state and, once finished, its output.
    Status { id: u64 },
    /// Kill a job and everything it started.
    Cancel { id: u64 },
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
}

/// Exit code for a command the timeout killed, as timeout(1) uses.
const TIMED_OUT: i32 = 124;

/// Runs the command; returns its exit code for lctx to exit with.
pub async fn run(args: RunArgs, opts: &ClientOptions) -> Result<i32, String> {
    let backend = super::connect(opts).await?;
    let request = ExecRequest {
        ctx: Some(opts.context()),
        command: args.command.join(" "),
        // Variables that are not UTF-8 cannot travel in the protocol; skip
        // them rather than fail (std::env::vars would panic).
        env: std::env::vars_os().filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?))).collect(),
        timeout_secs: args.timeout,
        raw: args.raw,
        background: args.bg,
    };
    let out = backend.shell().exec(tonic::Request::new(request)).await.map_err(|s| backend.explain(&s))?;
    let out = out.into_inner();
    if args.bg {
        println!("job {} started; `lctx jobs status {}` shows it", out.job_id, out.job_id);
        return Ok(0);
    }
    if let Some(shaped) = out.output {
        print_text(&shaped.text);
    }
    if out.timed_out {
        eprintln!("lctx: the command timed out after {} s and was killed with everything it started", args.timeout);
        return Ok(TIMED_OUT);
    }
    Ok(out.exit_code)
}

pub async fn jobs(cmd: Option<JobsCmd>, opts: &ClientOptions) -> CmdResult {
    let backend = super::connect(opts).await?;
    let (action, id) = match cmd {
        None => ("list", 0),
        Some(JobsCmd::Status { id }) => ("status", id),
        Some(JobsCmd::Cancel { id }) => ("cancel", id),
    };
    let request = JobsRequest { ctx: Some(opts.context()), action: action.into(), id };
    let out = backend.shell().jobs(tonic::Request::new(request)).await.map_err(|s| backend.explain(&s))?;
    let jobs = out.into_inner().jobs;
    if jobs.is_empty() {
        println!("no background jobs");
    }
    for job in jobs {
        println!("{}", crate::summary::job_line(&job));
        if action != "list"
            && let Some(output) = job.output
        {
            print_text(&output.text);
        }
    }
    Ok(())
}

fn parse_lines(spec: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--lines takes N-M (1-based), got `{spec}`");
    let (a, b) = spec.split_once('-').ok_or_else(bad)?;
    let start = a.trim().parse().map_err(|_| bad())?;
    let end = b.trim().parse().map_err(|_| bad())?;
    if start == 0 || end < start {
        return Err(bad());
    }
    Ok((start, end))
}

pub async fn expand(args: ExpandArgs, opts: &ClientOptions) -> CmdResult {
    let (start_line, end_line) = match &args.lines {
        Some(spec) => {
            let (a, b) = parse_lines(spec)?;
            (Some(a), Some(b))
        }
        None => (None, None),
    };
    let backend = super::connect(opts).await?;
    let request = ExpandRequest {
        ctx: Some(opts.context()),
        id: args.id.unwrap_or_default(),
        start_line,
        end_line,
        grep: args.grep.unwrap_or_default(),
        search: args.search.unwrap_or_default(),
    };
    let out = backend.shell().expand(tonic::Request::new(request)).await.map_err(|s| backend.explain(&s))?;
    let out = out.into_inner();
    print_text(&out.text);
    Ok(())
}
