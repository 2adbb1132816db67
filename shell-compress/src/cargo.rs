//! `cargo build/check/clippy/run`, `cargo test` and `cargo nextest`: one pass handles all three because a
//! test run starts with a build and nextest prints libtest output of failed tests.
//!
//! Dropped, with a note counting them by kind: progress lines (`Compiling x v1`), passing and ignored test
//! lines (the `test result:` and `Summary` lines count them too). Dropped: empty test binaries. Errors stay
//! whole; warnings beyond the first few are summarised; benchmark results stay.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::skip_options;
use crate::diag::{self, Severity};
use crate::family::{Families, Family};
use crate::generic::GENERIC;
use crate::passthrough::PASSTHROUGH;
use crate::plan::{Mark, NoteAt, Plan};

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
    plan.drop_counted_by_kind("progress lines not shown", NoteAt::First, failed, |line| {
        PROGRESS.is_match(line).then(|| line.split_whitespace().next().unwrap_or_default())
    });
    warnings(plan, failed);
    tests(plan, failed);
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

fn tests(plan: &mut Plan, failed: bool) {
    plan.drop_counted_by_kind("tests not shown", NoteAt::First, failed, |line| match verdict(line)? {
        "ok" | "PASS" => Some("passing"),
        "ignored" => Some("ignored"),
        "SKIP" => Some("skipped"),
        _ => None,
    });
    for i in 0..plan.len() {
        let line = plan.line(i);
        if let Some(verdict) = verdict(line) {
            // A benchmark's line is its result: it stays as it is.
            if !matches!(verdict, "ok" | "PASS" | "ignored" | "SKIP" | "bench:") {
                plan.set(i, Mark::Must);
            }
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

/// What a libtest or nextest line says of its test (`ok`, `FAILED`, `bench:`, `PASS`, `SIGSEGV`, …), if it
/// reports one.
fn verdict(line: &str) -> Option<&str> {
    let caps = LIBTEST.captures(line).or_else(|| NEXTEST_RESULT.captures(line))?;
    caps.get(1).map(|m| m.as_str())
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

#[cfg(test)]
mod tests {
    use crate::compress;

    #[test]
    fn dropped_progress_and_passing_tests_are_counted_by_kind() {
        let mut raw = String::from("    Updating crates.io index\n");
        raw += &(0..42).map(|i| format!("   Compiling dep{i} v0.1.{i}\n")).collect::<String>();
        raw += "    Finished `test` profile [unoptimized + debuginfo] target(s) in 9.81s\n";
        raw += "     Running unittests src/lib.rs (target/debug/deps/ledger-0b1c)\n\nrunning 312 tests\n";
        raw += "test tests::slow ... ignored\n";
        raw += &(0..310).map(|i| format!("test tests::case_{i} ... ok\n")).collect::<String>();
        raw += "test tests::bad ... FAILED\n";
        raw += "\nfailures:\n    tests::bad\n\ntest result: FAILED. 310 passed; 1 failed; 1 ignored\n";
        let text = compress("cargo test", &raw, 101).text;
        assert!(text.contains("… 43 progress lines not shown: Updating ×1, Compiling ×42\n"), "{text}");
        // The last ten lines of a failure are shown whole, six passing tests among them.
        assert!(
            text.contains("… 305 tests not shown: ignored ×1, passing ×304\ntest tests::case_304 ... ok\n"),
            "{text}"
        );
        assert!(text.contains("test tests::bad ... FAILED\n"), "{text}");
        // A benchmark's result is what `cargo bench` is run for.
        let raw: String = (0..30).map(|i| format!("test bench_{i} ... bench:   1,{i:03} ns/iter (+/- 5)\n")).collect();
        let text = compress("cargo bench", &(raw.clone() + "\ntest result: ok. 0 passed; 0 failed\n"), 0).text;
        assert!(text.contains("test bench_17 ... bench:   1,017 ns/iter (+/- 5)\n"), "{text}");
    }
}
