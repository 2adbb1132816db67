//! `cargo build/check/clippy/run`, `cargo test` and `cargo nextest`: one pass handles all three because a
//! test run starts with a build and nextest prints libtest output of failed tests.
//!
//! Dropped: progress lines (`Compiling x v1`), passing and ignored test lines (the `test result:` and
//! `Summary` lines count them), empty test binaries. Errors stay whole; warnings beyond the first few are
//! summarised.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::skip_options;
use crate::diag::{self, Severity};
use crate::family::{Families, Family};
use crate::generic::GENERIC;
use crate::passthrough::PASSTHROUGH;
use crate::plan::{Mark, Plan};

pub(crate) static BUILD: Family = Family::new("cargo-build", "cargo build --release", plan);
pub(crate) static TEST: Family = Family::new("cargo-test", "cargo test -p foo", plan).test_runner();
pub(crate) static NEXTEST: Family = Family::new("cargo-nextest", "cargo nextest run", plan).test_runner();

/// cargo's families, by subcommand; rustc alone prints what `cargo build` does.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, args| match program {
        "cargo" => Some(subcommand(args)),
        "rustc" => Some(&BUILD),
        _ => None,
    },
    members: &[&BUILD, &TEST, &NEXTEST],
};

fn subcommand(args: &[String]) -> &'static Family {
    let after_toolchain = match args.first() {
        Some(t) if t.starts_with('+') => &args[1..],
        _ => args,
    };
    match skip_options(after_toolchain, &["--color", "-Z", "--config", "-C"]).first().map(String::as_str) {
        Some("build" | "b" | "check" | "c" | "clippy" | "doc" | "d" | "rustc" | "fix" | "install" | "run" | "r") => {
            &BUILD
        }
        Some("test" | "t" | "bench") => &TEST,
        Some("nextest") => &NEXTEST,
        Some("watch") => &PASSTHROUGH,
        _ => &GENERIC,
    }
}

static PROGRESS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^\s*(?:Compiling|Checking|Documenting|Downloaded|Downloading|Updating|Locking|Adding|Fresh|Blocking",
        r"|Fetching|Unpacking|Packaging|Verifying|Archiving|Installing|Replacing|Removing|Updated|Dirty) \S",
    ))
    .expect("progress pattern compiles")
});

static HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\S+:\d+:\d+: )?(error|warning)(?:\[[\w-]+\])?: ").expect("diagnostic pattern compiles")
});

static LIBTEST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^test .+ \.\.\. (ok|ignored|FAILED|bench:)").expect("libtest pattern compiles"));

static NEXTEST_RESULT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s+(PASS|SKIP|FAIL|SIGSEGV|SIGABRT|TIMEOUT|LEAK|FLAKY|TRY \d+ \w+|SLOW) ")
        .expect("nextest pattern compiles")
});

fn plan(plan: &mut Plan, failed: bool) {
    progress(plan);
    warnings(plan, failed);
    tests(plan);
}

fn progress(plan: &mut Plan) {
    let mut first = None;
    let mut compiled = 0;
    for i in 0..plan.len() {
        let line = plan.line(i);
        if PROGRESS.is_match(line) {
            first.get_or_insert(i);
            compiled +=
                usize::from(line.trim_start().starts_with("Compiling") || line.trim_start().starts_with("Checking"));
            plan.set(i, Mark::Drop);
        }
    }
    if let Some(at) = first.filter(|_| compiled > 1) {
        plan.note(at, format!("… built {compiled} crates"));
    }
}

fn severity(line: &str) -> Option<Severity> {
    let caps = HEADER.captures(line)?;
    if line.contains(") generated ") {
        return None;
    }
    Some(if &caps[1] == "error" { Severity::Error } else { Severity::Warning })
}

fn warnings(plan: &mut Plan, failed: bool) {
    let blocks = diag::blocks(plan, severity, |_| false, |line| PROGRESS.is_match(line));
    for block in blocks.iter().filter(|b| b.severity == Severity::Error) {
        plan.set_range(block.lines.clone(), Mark::Must);
    }
    diag::summarize_warnings(
        plan,
        &blocks,
        failed,
        |_, b| b.lines.start,
        |header| {
            let message = HEADER.find(header).map_or(header, |m| &header[m.end()..]);
            diag::message_kind(message)
        },
    );
}

fn tests(plan: &mut Plan) {
    for i in 0..plan.len() {
        let line = plan.line(i);
        if let Some(caps) = LIBTEST.captures(line) {
            let mark = if &caps[1] == "FAILED" { Mark::Must } else { Mark::Drop };
            plan.set(i, mark);
        } else if let Some(caps) = NEXTEST_RESULT.captures(line) {
            let mark = if matches!(&caps[1], "PASS" | "SKIP") { Mark::Drop } else { Mark::Must };
            plan.set(i, mark);
        } else if (line.starts_with("test result: ") || line.trim_start().starts_with("Summary ["))
            && plan.mark(i) != Mark::Drop
        {
            plan.set(i, Mark::Must);
        } else if line.trim_start().starts_with("Nextest run ID") {
            plan.set(i, Mark::Drop);
        } else if line == "running 0 tests" {
            drop_empty_binary(plan, i);
        }
    }
}

/// A test binary without tests prints four lines of nothing: its `Running`/`Doc-tests` line, `running 0
/// tests`, a blank line and an all-zero `test result`.
fn drop_empty_binary(plan: &mut Plan, running: usize) {
    let result = (running + 1..plan.len()).find(|&j| !plan.line(j).trim().is_empty());
    let Some(result) = result.filter(|&j| plan.line(j).starts_with("test result: ok. 0 passed; 0 failed")) else {
        return;
    };
    let header = (0..running).rev().find(|&j| !plan.line(j).trim().is_empty());
    let start = header
        .filter(|&j| {
            plan.line(j).trim_start().starts_with("Running ") || plan.line(j).trim_start().starts_with("Doc-tests ")
        })
        .unwrap_or(running);
    for j in start..=result {
        plan.set(j, Mark::Drop);
    }
}
