//! `lctx run`, `lctx jobs`, `lctx expand`: adapters over
//! [`capability::shell`].

use clap::{Args, Subcommand};
use lean_ctx_proto::v1::JobsAction;

use super::{Exit, Failure, emit, emit_verbatim, failure};
use crate::capability::{self, Surface};
use crate::options::ClientOptions;

#[derive(Args, Debug)]
pub struct RunArgs {
    /// Print the output uncompressed.
    #[arg(long)]
    raw: bool,
    /// Seconds before the command (and everything it started) is killed, to the millisecond (0.5, 2.5);
    /// more than 0, at most 3600.
    #[arg(long, value_name = "S", default_value = "120", value_parser = parse_timeout)]
    timeout: u64,
    /// Start in the background and print the job id.
    #[arg(long)]
    bg: bool,
    /// One argument: a command line, run by `sh -c`. Several: the command and its arguments, each passed as given.
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
    // Not in conflict with an id for clap: `expand` says then that --grep is the search within one
    // output (ctx_expand's `search` with an `id`).
    #[arg(long, value_name = "QUERY", conflicts_with_all = ["lines", "grep"])]
    search: Option<String>,
    /// With an id: at most this many lines (matching lines with --grep); the answer says where the rest starts.
    /// With --search: at most this many outputs, best first (default 20); the answer says how many more match.
    #[arg(short = 'n', long)]
    limit: Option<u32>,
    #[command(flatten)]
    pub caller: super::SessionOpt,
}

/// `--timeout S` in milliseconds: seconds with up to three decimals, more
/// than 0 and at most an hour.
fn parse_timeout(text: &str) -> Result<u64, String> {
    let bad = || format!("`{text}` is not a number of seconds (like 30 or 2.5)");
    let (whole, fraction) = text.trim().split_once('.').unwrap_or((text.trim(), ""));
    if (whole.is_empty() && fraction.is_empty()) || !(whole.bytes().chain(fraction.bytes()).all(|b| b.is_ascii_digit()))
    {
        return Err(bad());
    }
    if fraction.len() > 3 {
        return Err(format!("`{text}`: the timeout counts milliseconds, at most three decimals"));
    }
    let seconds: u64 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| bad())? };
    let millis: u64 = if fraction.is_empty() { 0 } else { format!("{fraction:0<3}").parse().map_err(|_| bad())? };
    let ms = seconds.checked_mul(1000).and_then(|s| s.checked_add(millis)).unwrap_or(u64::MAX);
    if ms == 0 {
        return Err("the timeout must be more than 0 (leave --timeout out for the default of 120 s)".into());
    }
    if ms > lean_ctx_common::limits::MAX_COMMAND_TIMEOUT_MS {
        return Err(format!("`{text}` is more than the longest timeout, 3600 s"));
    }
    Ok(ms)
}

/// The command line `sh -c` runs for the words after `--`: one word is a
/// command line already (`lctx run -- 'make && make test'`); several are a
/// command and its arguments, quoted so the shell sees exactly these words
/// (`lctx run -- grep -c "pub fn" f.rs`).
fn command_line(words: &[String]) -> String {
    match words {
        [line] => line.clone(),
        _ => capability::shell::sh_words(words),
    }
}

/// Runs the command; lctx exits with its exit code (124 after a timeout).
pub async fn run(args: RunArgs, opts: &ClientOptions) -> Exit {
    // The daemon reads `LEAN_CTX_RAW` from the environment it is sent; the output is printed as
    // `--raw` prints it either way.
    let raw = args.raw || std::env::var("LEAN_CTX_RAW").is_ok_and(|value| value == "1");
    let run = capability::shell::RunArgs {
        command: command_line(&args.command),
        raw,
        timeout_ms: Some(args.timeout),
        background: args.bg,
        ..Default::default()
    };
    let backend = super::connect(opts).await?;
    let answer =
        capability::shell::run(&backend, opts.context(), run, Surface::Cli).await.map_err(|e| failure(&backend, e))?;
    Ok(if raw { emit_verbatim(&answer) } else { emit(&answer, false) })
}

pub async fn jobs(cmd: Option<JobsCmd>, all: bool, opts: &ClientOptions) -> Exit {
    let (action, id) = match cmd {
        None => (JobsAction::List, 0),
        Some(JobsCmd::Status { id }) => (JobsAction::Status, id),
        Some(JobsCmd::Cancel { id }) => (JobsAction::Cancel, id),
    };
    if all && action != JobsAction::List {
        return Err(Failure::Usage(
            "--all lists every session's jobs; status and cancel take a job of your session (--session ID)".into(),
        ));
    }
    let backend = super::connect(opts).await?;
    let query = capability::shell::JobsQuery { action, id, all_sessions: all };
    let answer = capability::shell::jobs(&backend, opts.context(), query, Surface::Cli)
        .await
        .map_err(|e| failure(&backend, e))?;
    Ok(emit(&answer, false))
}

fn parse_lines(spec: &str) -> Result<(u32, u32), Failure> {
    let bad = || Failure::Usage(format!("--lines takes N-M (1-based), got `{spec}`"));
    let (a, b) = spec.split_once('-').ok_or_else(bad)?;
    let start = a.trim().parse().map_err(|_| bad())?;
    let end = b.trim().parse().map_err(|_| bad())?;
    if start == 0 {
        return Err(bad());
    }
    if end < start {
        return Err(Failure::Usage(format!("--lines {spec} is reversed: N-M runs from N up to M (N <= M)")));
    }
    Ok((start, end))
}

pub async fn expand(args: ExpandArgs, opts: &ClientOptions) -> Exit {
    if args.limit == Some(0) {
        return Err(Failure::Usage("--limit must be at least 1".into()));
    }
    if let (Some(id), Some(query)) = (&args.id, &args.search) {
        return Err(Failure::Usage(format!(
            "--search looks through every archived output and takes no id; to keep the lines of output {id} \
             matching {query}, pass --grep {query}"
        )));
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
    // Without an id the answer is a list of hits, not an archived output to reproduce byte for byte.
    let searching = args.id.is_none();
    let expand = capability::shell::ExpandArgs {
        id: args.id.unwrap_or_default(),
        start_line,
        end_line,
        search: args.grep.or(args.search).unwrap_or_default(),
        limit: args.limit.unwrap_or(0),
    };
    let backend = super::connect(opts).await?;
    let answer = capability::shell::expand(&backend, opts.context(), expand).await.map_err(|e| failure(&backend, e))?;
    Ok(if searching { emit(&answer, false) } else { emit_verbatim(&answer) })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `sh -c LINE` passes to a program: its words, each ended by NUL.
    fn words_sh_sees(line: &str) -> Vec<String> {
        let out = std::process::Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("for w in {line}; do printf '%s\\0' \"$w\"; done"))
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        text.split_terminator('\0').map(String::from).collect()
    }

    #[test]
    fn several_words_reach_sh_exactly_as_given() {
        let words: Vec<String> =
            ["grep", "-c", "pub fn new", "$HOME", "it's", "", "*", "~", "a;b", "\\n", "x\ny", "--x=1"]
                .map(String::from)
                .to_vec();
        let line = command_line(&words);
        assert_eq!(words_sh_sees(&line), words, "{line}");
        assert_eq!(command_line(&["cargo".into(), "test".into(), "-p".into(), "lctx".into()]), "cargo test -p lctx");
        assert_eq!(command_line(&["A=1".into(), "make".into()]), "'A=1' make");
        assert_eq!(command_line(&["for".into(), "x".into()]), "'for' x");
    }

    #[test]
    fn one_word_stays_a_command_line() {
        assert_eq!(command_line(&["make && make test".into()]), "make && make test");
    }

    #[test]
    fn timeouts_count_milliseconds() {
        assert_eq!(parse_timeout("120"), Ok(120_000));
        assert_eq!(parse_timeout("2.5"), Ok(2_500));
        assert_eq!(parse_timeout("0.001"), Ok(1));
        assert_eq!(parse_timeout(".25"), Ok(250));
        assert_eq!(parse_timeout("3600"), Ok(3_600_000));
        for bad in ["0", "0.000", "3600.001", "1.2345", "", ".", "-1", "1e3", "soon", "99999999999999999999"] {
            assert!(parse_timeout(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_reversed_range_is_named_as_such() {
        assert_eq!(parse_lines("2-4").unwrap(), (2, 4));
        assert!(matches!(parse_lines("10-5"), Err(Failure::Usage(m)) if m.contains("reversed")));
        assert!(matches!(parse_lines("0-5"), Err(Failure::Usage(m)) if m.contains("N-M")));
    }
}
