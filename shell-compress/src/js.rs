//! JavaScript tooling: package installs and scripts (npm, pnpm, yarn, bun), test runners (jest, vitest,
//! mocha, node/TAP), tsc, eslint and biome.

use std::ops::Range;
use std::sync::LazyLock;

use regex::{Regex, RegexSet};

use crate::detect::{self, has_flag, skip_options};
use crate::diag::{self, Severity};
use crate::family::{Families, Family};
use crate::generic::GENERIC;
use crate::passthrough::PASSTHROUGH;
use crate::plan::{Mark, NoteAt, Plan};
use crate::rules;
use crate::runner::{self, Verdict};

pub(crate) static INSTALL: Family = Family::new("js-install", "npm ci", install).folding_node_frames();
pub(crate) static RUN: Family = Family::new("js-run", "npm run build", script).folding_node_frames();
pub(crate) static TEST: Family = Family::new("js-test", "npm test", script).test_runner();
pub(crate) static JEST: Family = Family::new("jest", "npx jest --ci", jest).test_runner();
pub(crate) static VITEST: Family = Family::new("vitest", "vitest run", vitest).test_runner();
pub(crate) static MOCHA: Family = Family::new("mocha", "mocha test", mocha).test_runner();
pub(crate) static TSC: Family = Family::new("tsc", "tsc --noEmit", |plan, _| tsc(plan));
pub(crate) static ESLINT: Family = Family::new("eslint", "eslint .", eslint);
pub(crate) static BIOME: Family = Family::new("biome", "biome check src", |plan, _| biome(plan));
pub(crate) static NODE_TEST: Family = Family::new("node-test", "node --test", node_test).test_runner();

/// Package managers by verb and script name; the tools by program, unless they watch.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, args| {
        let watch = |flags: &[&str]| has_flag(args, flags);
        Some(match program {
            pm @ ("npm" | "pnpm" | "yarn" | "bun") => package_manager(pm, args),
            "jest" if watch(&["--watch", "--watchAll"]) => &PASSTHROUGH,
            "jest" => &JEST,
            "vitest" if matches!(args.first().map(String::as_str), Some("watch" | "dev")) => &PASSTHROUGH,
            "vitest" if watch(&["--watch", "-w"]) => &PASSTHROUGH,
            "vitest" => &VITEST,
            "mocha" if watch(&["--watch", "-w"]) => &PASSTHROUGH,
            "mocha" => &MOCHA,
            "tsc" | "vue-tsc" if watch(&["--watch", "-w"]) => &PASSTHROUGH,
            "tsc" | "vue-tsc" => &TSC,
            "eslint" => &ESLINT,
            "biome" => &BIOME,
            "node" if watch(&["--watch"]) => &PASSTHROUGH,
            "node" if watch(&["--test"]) => &NODE_TEST,
            _ => return None,
        })
    },
    members: &[&INSTALL, &RUN, &TEST, &JEST, &VITEST, &MOCHA, &TSC, &ESLINT, &BIOME, &NODE_TEST],
};

fn package_manager(pm: &str, args: &[String]) -> &'static Family {
    let rest = skip_options(args, &["--prefix", "-C", "--dir", "--filter", "--cwd", "-w", "--workspace"]);
    let verb = rest.first().map(String::as_str);
    let next = rest.get(1).map(String::as_str);
    match (pm, verb) {
        ("yarn", None) => &INSTALL,
        (_, None) => &GENERIC,
        (
            _,
            Some("install" | "i" | "ci" | "add" | "update" | "up" | "upgrade" | "remove" | "rm" | "uninstall" | "un"),
        ) => &INSTALL,
        (_, Some("test" | "t" | "tst")) => &TEST,
        (_, Some("start")) => &PASSTHROUGH,
        (_, Some("run" | "run-script")) => by_script_name(next),
        ("npm", _) => &GENERIC,
        (
            _,
            Some(
                "list" | "ls" | "info" | "why" | "audit" | "outdated" | "global" | "cache" | "config" | "init"
                | "publish" | "pack" | "link" | "store" | "workspaces" | "workspace",
            ),
        ) => &GENERIC,
        (_, Some(file)) if file.contains('.') || file.contains('/') => &GENERIC,
        (_, name) => by_script_name(name),
    }
}

/// Family of a package.json script, judged by its conventional name.
fn by_script_name(name: Option<&str>) -> &'static Family {
    let Some(name) = name else { return &GENERIC };
    let long_running = ["dev", "start", "serve", "watch", "preview", "storybook"];
    if long_running.iter().any(|p| name == *p || name.starts_with(&format!("{p}:"))) {
        &PASSTHROUGH
    } else if name.contains("test") {
        &TEST
    } else {
        &RUN
    }
}

/// Installer progress and chatter, for npm, pnpm, yarn and bun, each with the kind its note names.
const INSTALL_NOISE: &[(&str, &str)] = &[
    ("progress", r"^Progress: resolved |^\++$|^Resolving dependencies|^Resolved, downloaded|^Downloading "),
    ("step", r"^\[\d+/\d+\] "),
    ("info", r"^info "),
    ("npm notice", r"^npm notice"),
    ("lockfile saved", r"^Saved lockfile"),
    ("funding", r"^\s*run `npm fund` for details|^\d+ packages? (?:is|are) looking for funding"),
];

static INSTALL_NOISE_SET: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new(INSTALL_NOISE.iter().map(|(_, pattern)| pattern)).expect("install patterns compile")
});

/// The kind of installer noise `line` is, if it is noise.
fn install_noise(line: &str) -> Option<&str> {
    INSTALL_NOISE_SET.matches(line).iter().next().map(|i| INSTALL_NOISE[i].0)
}

static DEPRECATED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:npm warn deprecated|\s*WARN\s+deprecated|warning .*deprecated)")
        .expect("deprecation pattern compiles")
});

/// `npm install` and friends: progress and funding chatter go, counted by kind; deprecation warnings beyond
/// the first few are counted.
fn install(plan: &mut Plan, failed: bool) {
    plan.drop_counted_by_kind("installer lines not shown", NoteAt::First, failed, install_noise);
    diag::summarize_warning_lines(plan, failed, |line| DEPRECATED.is_match(line), |_| "deprecated package".into());
}

/// The echo of the script a package manager runs: npm/pnpm print `> cmd`, yarn prints `$ cmd`.
fn script_command(line: &str) -> Option<&str> {
    let command = line.strip_prefix("> ").or_else(|| line.strip_prefix("$ "))?;
    let is_package_banner = command.split_whitespace().next().is_some_and(|w| w.contains('@') && !w.starts_with('@'));
    (!is_package_banner).then_some(command)
}

/// `npm run x`, `npm test`, `yarn x`…: the script's own output is compressed with the rules of the command
/// the script runs (`> jest` gets the jest rules). A script with no rules of its own (or running another
/// script) is treated as generic output that may hold TAP results. The package banner (`> pkg@1.0.0 test`)
/// stays: in a workspace run it is what says which package the lines under it, a failure too, belong to.
/// yarn's own two lines go: its version and a link to its documentation say nothing about the run.
fn script(plan: &mut Plan, failed: bool) {
    let mut inner = None;
    for i in 0..plan.len() {
        let line = plan.line(i);
        if let Some(command) = script_command(line) {
            inner.get_or_insert(detect::detect(command));
        } else if line.starts_with("yarn run v") || line.starts_with("info Visit https://yarnpkg.com") {
            plan.set(i, Mark::Drop);
        }
    }
    match inner {
        Some(family) if ![&RUN, &TEST, &PASSTHROUGH, &GENERIC].contains(&family) => family.apply(plan, failed),
        _ => node_test(plan, failed),
    }
}

/// node's test runner (`node --test`; TAP, its reporter when its output is not a terminal, as under lctx)
/// and other TAP: passing tests go with their framing (see [`runner::tap_tests`]), failing ones stay whole;
/// the rest, and another reporter's output, is generic output.
fn node_test(plan: &mut Plan, failed: bool) {
    runner::tap_tests(plan, failed);
    GENERIC.apply(plan, failed);
}

/// jest: `PASS file` and `✓ test` lines go; `FAIL file`, `✕ test` and `● suite › test` headers stay, and
/// so do jest's own `Jest: …` messages (a coverage threshold not met, coverage data not found), which fail
/// the run with no failing test and no error word. The tests' own `console.log` output is folded (see
/// [`jest_console`]); its `● Console` header, though printed like a failure's, heads a passing test's output
/// too and is no failure.
fn jest(plan: &mut Plan, failed: bool) {
    runner::results(plan, failed, |line| {
        let t = line.trim_start();
        if t.starts_with("✓ ") || t.starts_with("○ ") || t.starts_with("✎ ") {
            Some(Verdict::Pass)
        } else if t.starts_with("FAIL ")
            || t.starts_with("✕ ")
            || (t.starts_with("● ") && !is_console_header(t))
            || line.starts_with("Jest: ")
        {
            Some(Verdict::Fail)
        } else {
            None
        }
    });
    plan.set_where(Mark::Must, |line| line.starts_with("Tests:") || line.starts_with("Test Suites:"));
    let sections = console_sections(plan);
    jest_console(plan, &sections, failed);
    jest_files(plan, &sections, failed);
}

/// jest's line for each test file, `PASS file` or `FAIL file`, at the margin.
fn is_file_line(line: &str) -> bool {
    line.starts_with("PASS ") || line.starts_with("FAIL ")
}

/// A `PASS file` line goes unless some output of its file is shown: the lines under it (its `● Console`
/// section), or with `--verbose` the console section printed just above it. Then it stays, since without it
/// one file's console output reads as the previous file's, after that file's failure too. A passing run with
/// nothing shown keeps none. Its test tree (`--verbose`, see [`test_tree`]) goes whole. One note counts what
/// went, by kind: the `PASS` lines, the `describe` headings and the tests the runner's own note left shown.
/// What jest prints of a file is indented under its line; a line at the margin (the coverage table, a
/// threshold message) is the run's, so it neither goes with the file nor keeps the file's line.
fn jest_files(plan: &mut Plan, sections: &[Range<usize>], failed: bool) {
    let ends: Vec<usize> = (0..plan.len())
        .filter(|&i| is_file_line(plan.line(i)) || plan.line(i).starts_with("Test Suites:"))
        .chain(std::iter::once(plan.len()))
        .collect();
    let mut dropped: Vec<(usize, &str)> = Vec::new();
    for pair in ends.windows(2) {
        let (file, next) = (pair[0], pair[1]);
        if !plan.line(file).starts_with("PASS ") {
            continue;
        }
        let own = (file + 1..next)
            .find(|&i| !plan.line(i).trim().is_empty() && indent(plan.line(i)) == 0)
            .map_or(file + 1..next, |margin| file + 1..margin);
        let tree = test_tree(plan, own.clone());
        let above = sections.iter().find(|s| s.end == file && !is_headed(plan, s)).cloned().unwrap_or(file..file);
        if plan.shows_any(tree.end..own.end, failed) || plan.shows_any(above, failed) {
            plan.set(file, Mark::Must);
        } else {
            dropped.push((file, "PASS"));
        }
        for i in tree.filter(|&i| plan.visible(i)) {
            dropped.push((i, if is_test(plan.line(i)) { "test" } else { "describe" }));
        }
    }
    // A file's line was found after the tree above it: the note lists kinds in the order they came.
    dropped.sort_unstable_by_key(|&(i, _)| i);
    plan.drop_kinds_counted(&dropped, "lines not shown", None, failed);
}

/// The test tree `--verbose` prints under a passing file's line, at the start of `lines` (the file's own,
/// indented lines): up to a blank line or the file's `● Console` section, its tests (`✓`, `✕`, skipped `○`,
/// todo `✎`) and the names of its `describe` blocks, each above deeper lines. Empty when any line there has
/// another shape, which is then no tree to drop.
fn test_tree(plan: &Plan, lines: Range<usize>) -> Range<usize> {
    let end = lines
        .clone()
        .find(|&i| {
            let t = plan.line(i).trim();
            t.is_empty() || t.starts_with("● ")
        })
        .unwrap_or(lines.end);
    let is_describe = |i: usize| i + 1 < end && indent(plan.line(i + 1)) > indent(plan.line(i));
    if (lines.start..end).all(|i| is_test(plan.line(i)) || is_describe(i)) {
        lines.start..end
    } else {
        lines.start..lines.start
    }
}

/// A test's line in jest's `--verbose` tree: passed `✓`, failed `✕`, skipped `○`, todo `✎`.
fn is_test(line: &str) -> bool {
    ["✓ ", "✕ ", "○ ", "✎ "].iter().any(|m| line.trim_start().starts_with(m))
}

/// jest's console sections print each `console.*` call of the tests as a block: the call, the message and
/// the `at` frame of the call. That is the test's own output, not a failure: of the blocks printed from one
/// place, the first is shown and the rest are counted where they were, also after a failure (their `at` line
/// is then an exact copy of the first's, and their call, `console.error` too, is counted by the note). A block
/// with an error-looking message is shown whole, and so is one among the last lines of a failure.
fn jest_console(plan: &mut Plan, sections: &[Range<usize>], failed: bool) {
    let shortenable = if failed { plan.failure_tail_start() } else { plan.len() };
    for section in sections {
        let mut shown: Vec<Vec<&str>> = Vec::new();
        let mut folded = FoldedConsole::default();
        for block in console_blocks(plan, section.clone()) {
            let lines = &plan.lines()[block.clone()];
            let places: Vec<&str> = lines.iter().map(String::as_str).filter(|l| rules::has_location(l)).collect();
            let error = lines[1..].iter().any(|l| !rules::has_location(l) && rules::is_error(l));
            if error || block.end > shortenable || !shown.contains(&places) {
                shown.push(places);
                folded.note(plan);
                continue;
            }
            for i in block.clone() {
                if i == block.start || rules::has_location(plan.line(i)) {
                    plan.drop_copy(i);
                } else {
                    plan.set(i, Mark::Drop);
                }
            }
            folded.add(block.start, plan.line(block.start).trim());
        }
        folded.note(plan);
    }
}

/// A run of folded console blocks: where it starts, and how many blocks of each call (`console.log`, …).
#[derive(Default)]
struct FoldedConsole {
    first: Option<usize>,
    calls: Vec<(String, usize)>,
}

impl FoldedConsole {
    fn add(&mut self, at: usize, call: &str) {
        self.first.get_or_insert(at);
        match self.calls.iter_mut().find(|(c, _)| c == call) {
            Some((_, n)) => *n += 1,
            None => self.calls.push((call.to_string(), 1)),
        }
    }

    /// Notes the run where it started, if there is one, and starts a new one.
    fn note(&mut self, plan: &mut Plan) {
        let Some(at) = self.first.take() else { return };
        let calls = std::mem::take(&mut self.calls);
        let total: usize = calls.iter().map(|(_, n)| n).sum();
        let what = diag::count_list(&calls);
        plan.note(at, format!("… {total} more console blocks from the same call sites not shown: {what}"));
    }
}

/// Whether `line` is the `● Console` header jest prints over a test file's console output.
pub(crate) fn is_console_header(line: &str) -> bool {
    line.trim() == "● Console"
}

/// A test file's console output: jest prints it under a `● Console` header below the file's line, or with
/// `--verbose` with no header, above it. Either way a section runs from its first `console.*` call to the
/// first line indented less than that call, and the calls at that indentation open its blocks.
fn console_sections(plan: &Plan) -> Vec<Range<usize>> {
    let mut sections: Vec<Range<usize>> = Vec::new();
    for start in 0..plan.len() {
        if !is_console_call(plan.line(start)) || sections.last().is_some_and(|s| s.contains(&start)) {
            continue;
        }
        let margin = indent(plan.line(start));
        let end = (start + 1..plan.len())
            .find(|&i| !plan.line(i).trim().is_empty() && indent(plan.line(i)) < margin)
            .unwrap_or(plan.len());
        sections.push(start..end);
    }
    sections
}

/// Whether a console section is printed under a `● Console` header, so belongs to the file line above it.
fn is_headed(plan: &Plan, section: &Range<usize>) -> bool {
    (0..section.start).rev().find(|&i| !plan.line(i).trim().is_empty()).is_some_and(|i| is_console_header(plan.line(i)))
}

/// The blocks of a console section: each from its `console.*` line to the next at the same indentation.
fn console_blocks(plan: &Plan, section: Range<usize>) -> Vec<Range<usize>> {
    let margin = indent(plan.line(section.start));
    let starts: Vec<usize> =
        section.clone().filter(|&i| is_console_call(plan.line(i)) && indent(plan.line(i)) == margin).collect();
    let ends = starts.iter().skip(1).copied().chain(std::iter::once(section.end));
    starts.iter().zip(ends).map(|(&start, end)| start..end).collect()
}

/// The line jest opens a console block with: `console.log`, `console.warn`, … alone.
fn is_console_call(line: &str) -> bool {
    line.trim()
        .strip_prefix("console.")
        .is_some_and(|call| !call.is_empty() && call.chars().all(|c| c.is_ascii_alphabetic()))
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// vitest: passing tests and files go; failing ones, the `FAIL` detail headers and the totals stay.
fn vitest(plan: &mut Plan, failed: bool) {
    runner::results(plan, failed, |line| {
        let t = line.trim_start();
        let failed_file = t.starts_with("❯ ") && t.contains(" failed");
        if t.starts_with("× ") || t.starts_with("✗ ") || t.starts_with("FAIL ") || failed_file {
            Some(Verdict::Fail)
        } else if t.starts_with("✓ ") || t.starts_with("↓ ") {
            Some(Verdict::Pass)
        } else {
            None
        }
    });
    plan.set_where(Mark::Must, |line| {
        let t = line.trim_start();
        t.starts_with("Test Files ") || t.starts_with("Tests ")
    });
}

static MOCHA_FAILURE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s+\d+\) \S").expect("mocha pattern compiles"));

/// mocha: `✔ test` and pending `- test` lines go; numbered failures and the passing/failing/pending counts
/// stay. Per-test lines are only looked for before the `N passing (…)` summary: after it come the failure
/// details, whose assertion diffs have `- actual` and `+ expected` lines that are the point of the failure.
fn mocha(plan: &mut Plan, failed: bool) {
    let summary = (0..plan.len()).find(|&i| is_mocha_summary(plan.line(i))).unwrap_or(plan.len());
    runner::results_in(plan, 0..summary, failed, |line| {
        let t = line.trim_start();
        if t.starts_with("✔ ") || t.starts_with("✓ ") || t.starts_with("- ") {
            Some(Verdict::Pass)
        } else if MOCHA_FAILURE.is_match(line) {
            Some(Verdict::Fail)
        } else {
            None
        }
    });
    plan.set_where(Mark::Must, |line| {
        let t = line.trim();
        t.ends_with(" failing") || is_mocha_summary(line) || t.ends_with(" pending")
    });
}

fn is_mocha_summary(line: &str) -> bool {
    line.contains(" passing (")
}

static TSC_ERROR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\S+(?:\(\d+,\d+\): | - | )error TS\d+").expect("tsc pattern compiles"));

/// tsc: every error block (message, elaboration and code frame) stays whole and is never cut.
fn tsc(plan: &mut Plan) {
    let header = |line: &str| TSC_ERROR.is_match(line).then_some(Severity::Error);
    let ends = |line: &str| !line.starts_with(char::is_whitespace) && !line.starts_with(|c: char| c.is_ascii_digit());
    for block in diag::blocks(plan, header, |_| false, ends) {
        plan.set_range(block.lines, Mark::Must);
    }
    plan.set_where(Mark::Must, |line| line.starts_with("Found ") && line.contains(" error"));
}

static ESLINT_PROBLEM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s+\d+:\d+\s+(error|warning)\s+.*?\s{2,}(\S+)$").expect("eslint pattern compiles"));

/// eslint (stylish format): errors stay; warnings beyond the first few are counted by rule. The file header
/// lines stay so every kept problem is attributable.
fn eslint(plan: &mut Plan, failed: bool) {
    let is_warning = |line: &str| ESLINT_PROBLEM.captures(line).is_some_and(|c| &c[1] == "warning");
    let rule = |line: &str| ESLINT_PROBLEM.captures(line).map_or_else(String::new, |c| c[2].to_string());
    diag::summarize_warning_lines(plan, failed, is_warning, rule);
}

static BIOME_HEADER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\S+:\d+:\d+ [\w/-]+").expect("biome pattern compiles"));

/// biome: the first few findings in full, the rest shortened to their header (location and rule) and
/// message line.
fn biome(plan: &mut Plan) {
    let headers: Vec<usize> = (0..plan.len()).filter(|&i| BIOME_HEADER.is_match(plan.line(i))).collect();
    for (n, &start) in headers.iter().enumerate().skip(diag::WARNINGS_IN_FULL) {
        let end = headers.get(n + 1).copied().unwrap_or_else(|| {
            (start + 1..plan.len())
                .find(|&j| !plan.line(j).starts_with(' ') && !plan.line(j).is_empty())
                .unwrap_or(plan.len())
        });
        let message = (start + 1..end).find(|&j| !plan.line(j).trim().is_empty());
        for j in start + 1..end {
            if Some(j) != message {
                plan.set(j, Mark::Drop);
            }
        }
    }
    if let Some(&first) = headers.get(diag::WARNINGS_IN_FULL) {
        let rest = headers.len() - diag::WARNINGS_IN_FULL;
        plan.note(first, format!("… {rest} more findings shortened to location, rule and message"));
    }
}

#[cfg(test)]
mod tests {
    use crate::compress;

    #[test]
    fn node_test_keeps_failing_blocks_whole_and_drops_passing_ones_with_their_framing() {
        let pass = |n: usize, name: &str, pad: &str| {
            format!("{pad}# Subtest: {name}\n{pad}ok {n} - {name}\n{pad}  ---\n{pad}  duration_ms: 0.05\n{pad}  ...\n")
        };
        let mut raw = String::from("TAP version 13\n");
        for n in 1..=20 {
            raw.push_str(&pass(n, &format!("case {n}"), ""));
        }
        raw.push_str("# Subtest: suite\n");
        raw.push_str(&pass(1, "inner ok", "    "));
        raw.push_str(concat!(
            "    # Subtest: inner bad\n    not ok 2 - inner bad\n      ---\n      duration_ms: 0.1\n",
            "      location: '/p/x.test.mjs:6:11'\n      error: 'exploded'\n      ...\n    1..2\n",
            "not ok 21 - suite\n  ---\n  error: '1 subtest failed'\n  ...\n",
            "1..21\n# tests 22\n# pass 20\n# fail 2\n",
        ));
        let out = compress("node --test", &raw, 1);
        assert_eq!(out.family, "node-test");
        for kept in ["    # Subtest: inner bad", "      error: 'exploded'", "not ok 21 - suite", "# fail 2", "[exit:1]"]
        {
            assert!(out.text.lines().any(|l| l == kept), "{kept}: {}", out.text);
        }
        for gone in ["case 7", "inner ok", "duration_ms: 0.05"] {
            assert!(!out.text.contains(gone), "{gone}: {}", out.text);
        }
        // QA: the passing, skipped and todo tests went with no note saying so.
        assert!(out.text.starts_with("TAP version 13\n… 21 tests not shown: passing ×21\n"), "{}", out.text);
        // After a failure the last lines are shown whole: a passing test among them keeps all its framing.
        let mut raw = String::from("TAP version 13\n# Subtest: bad\nnot ok 1 - bad\n  ---\n  error: 'no'\n  ...\n");
        for n in 2..=30 {
            raw.push_str(&pass(n, &format!("case {n}"), ""));
        }
        raw.push_str("1..30\n# tests 30\n# pass 29\n# fail 1\n");
        let out = compress("node --test", &raw, 1);
        let count = |mark: &str| out.text.lines().filter(|l| *l == mark).count();
        assert_eq!(count("  ---"), count("  ..."), "no block is cut in half: {}", out.text);
        // A skipped test goes with its opening line too.
        let skipped = "TAP version 13\n# Subtest: slow one\nok 1 - slow one # SKIP not today\n  ---\n  ...\n";
        let todo = "# Subtest: later\nok 2 - later # TODO write it\n  ---\n  ...\n";
        let out = compress("node --test", &format!("{skipped}{todo}{}", "# Subtest: x\nok 3 - x\n".repeat(3)), 0);
        assert!(!out.text.contains("slow one"), "{}", out.text);
        assert!(out.text.contains("… 5 tests not shown: skipped ×1, todo ×1, passing ×3\n"), "{}", out.text);
    }

    #[test]
    fn a_failing_jests_console_blocks_fold_and_its_failure_stays_whole() {
        let console = |i: usize, message: &str| {
            format!("    console.log\n      {message} {i}\n\n      at Object.log (jp/f.test.js:1:65)\n\n")
        };
        let mut out = String::from("FAIL jp/f.test.js\n  ● Console\n\n");
        for i in 0..40 {
            out += &console(i, if i == 20 { "TypeError: cannot read" } else { "debug value" });
        }
        let failure = concat!(
            "  ● fcase 5\n\n    expect(received).toBe(expected) // Object.is equality\n\n",
            "    Expected: 0\n    Received: 5\n\n      at Object.toBe (jp/f.test.js:1:98)\n\n",
        );
        out += failure;
        out += "Test Suites: 1 failed, 1 total\nTests:       1 failed, 39 passed, 40 total\nSnapshots:   0 total\n";
        let text = compress("npx jest", &out, 1).text;
        assert!(text.contains(failure), "{text}");
        assert!(text.contains("TypeError: cannot read 20\n"), "a block with an error stays: {text}");
        // Blocks 1 to 19 and 21 to 38 are counted where they were; the last is among a failure's last lines.
        for n in [19, 18] {
            let note = format!("… {n} more console blocks from the same call sites not shown: console.log ×{n}\n");
            assert!(text.contains(&note), "{text}");
        }
        assert_eq!(text.matches("    console.log\n").count(), 3, "{text}");
        assert!(text.contains("at Object.log (jp/f.test.js:1:65)"), "the call site is shown once: {text}");
    }

    #[test]
    fn jests_console_header_is_no_failure() {
        // Two passing files whose tests log through one helper: their console sections are alike.
        let section = |file: &str| {
            let block = "    console.log\n      cache miss\n\n      at log (src/cache.js:3:11)\n\n";
            format!("PASS {file}\n  ● Console\n\n{}", block.repeat(3))
        };
        let raw = format!(
            "{}{}FAIL test/c.test.js\n  ● c › adds\n\n    Expected: 2\n    Received: 3\n\n\
             Test Suites: 1 failed, 2 passed, 3 total\nTests:       1 failed, 9 passed, 10 total\n",
            section("test/a.test.js"),
            section("test/b.test.js"),
        );
        let text = compress("npx jest", &raw, 1).text;
        // Read as a failure, the second section was shortened to a pointer at a test named "Console".
        assert!(!text.contains("as in Console above"), "{text}");
        assert_eq!(text.matches("  ● Console\n\n    console.log\n      cache miss\n").count(), 2, "{text}");
    }

    #[test]
    fn a_passing_files_line_says_whose_console_output_is_shown() {
        let block = |pad: &str, file: &str, i: usize| {
            format!("{pad}console.log\n{pad}  order {i}\n\n      at Object.log ({file}:5:15)\n\n")
        };
        let failure = concat!(
            "FAIL test/cart.test.js\n  ● total › rounds cents\n\n    Expected: 0.3\n    Received: 0.31\n\n",
            "      at Object.toBe (test/cart.test.js:8:45)\n\n",
        );
        let mut raw = format!("PASS test/empty.test.js\n{failure}PASS test/order.test.js\n  ● Console\n\n");
        raw += &(1..=6).map(|i| block("    ", "test/order.test.js", i)).collect::<String>();
        raw += "PASS test/quiet.test.js\nPASS test/user.test.js\n  ● Console\n\n";
        raw += &block("    ", "test/user.test.js", 1);
        raw += "Test Suites: 1 failed, 3 passed, 4 total\nTests:       1 failed, 12 passed, 13 total\n";
        raw += "Snapshots:   0 total\nTime:        1.123 s\nRan all test suites.\n";
        let text = compress("npx jest", &raw, 1).text;
        // Without its file's line, order's console output read as the failing cart test's.
        assert!(
            text.contains("      at Object.toBe (test/cart.test.js:8:45)\n\nPASS test/order.test.js\n  ● Console\n"),
            "{text}"
        );
        assert!(
            !text.contains("empty.test.js") && !text.contains("quiet.test.js"),
            "nothing of theirs is shown: {text}"
        );
        assert!(text.starts_with("… 2 lines not shown: PASS\nFAIL test/cart.test.js\n"), "{text}");

        // With --verbose a file's console output comes above its line, with no header.
        let mut raw = String::new();
        for file in ["test/order.test.js", "test/stock.test.js"] {
            raw += &(1..=6).map(|i| block("  ", file, i)).collect::<String>();
            raw += &format!("PASS {file}\n  suite\n    ✓ one (2 ms)\n    ✓ two\n\n");
        }
        raw += "PASS test/quiet.test.js\n  quiet\n    ✓ three\n\n";
        raw += "Test Suites: 3 passed, 3 total\nTests:       5 passed, 5 total\n";
        let text = compress("npx jest --verbose", &raw, 0).text;
        for file in ["test/order.test.js", "test/stock.test.js"] {
            let shown = format!(
                "      at Object.log ({file}:5:15)\n\n… 5 more console blocks from the same call sites not shown: console.log ×5\nPASS {file}\n"
            );
            assert!(text.contains(&shown), "{text}");
        }
        assert!(!text.contains("quiet.test.js"), "{text}");
        // The `describe` headings went with the passing tests under them, and the note says so.
        assert!(text.contains("PASS test/order.test.js\n… 4 lines not shown: describe ×3, PASS ×1\n"), "{text}");
        // A passing run that prints nothing keeps no file line, and says how many went.
        let raw: String = (0..20).map(|i| format!("PASS test/t{i}.test.js\n")).collect::<String>()
            + "\nTest Suites: 20 passed, 20 total\nTests:       20 passed, 20 total\n";
        let text = compress("npx jest", &raw, 0).text;
        assert!(text.starts_with("… 20 lines not shown: PASS\nTest Suites:"), "{text}");
    }

    #[test]
    fn npms_error_lines_stay_when_the_step_exits_zero() {
        // `npm run build --if-present || true`: a long build log with npm's error report in its middle.
        let name = |i: usize| -> String { [i / 26 % 26, i % 26].iter().map(|&k| char::from(b'a' + k as u8)).collect() };
        let log = |from: usize| (from..from + 150).map(|i| format!("wrote dist/{}.js\n", name(i))).collect::<String>();
        let report = "npm ERR! code ELIFECYCLE\nnpm error path /srv/app\n";
        let raw = format!("\n> app@1.0.0 build\n> node build.js\n\n{}{report}{}", log(0), log(150));
        let text = compress("npm run build --if-present || true", &raw, 0).text;
        assert!(text.len() < raw.len(), "{text}");
        assert!(text.contains("npm ERR! code ELIFECYCLE\n") && text.contains("npm error path /srv/app\n"), "{text}");
        assert!(text.contains("> app@1.0.0 build\n"), "the package banner names the package: {text}");
    }

    #[test]
    fn installer_chatter_is_counted_by_kind() {
        let mut raw: String =
            (1..=9).map(|i| format!("Progress: resolved {}, reused 0, downloaded {i}, added 0\n", i * 10)).collect();
        raw += "Packages: +44\n++++++++++++++++++++++++++++++++++++++++++++\n";
        raw += "Progress: resolved 92, reused 0, downloaded 44, added 44, done\n\ndevDependencies:\n";
        raw += "+ typescript 5.9.3 (7.0.2 is available)\n+ vitest 2.1.9 (5.1.2 is available)\n\n";
        raw += "3 packages are looking for funding\n  run `npm fund` for details\n\nDone in 3.3s using pnpm v9.15.9\n";
        let text = compress("pnpm add -D vitest@2 typescript@5", &raw, 0).text;
        assert!(
            text.starts_with("… 13 installer lines not shown: progress ×11, funding ×2\nPackages: +44\n"),
            "{text}"
        );
        assert!(text.contains("+ vitest 2.1.9 (5.1.2 is available)\n"), "{text}");
    }

    #[test]
    fn jests_coverage_table_and_threshold_failure_are_shown_without_a_files_line() {
        let rule = "----------|---------|----------|---------|---------|-------------------\n";
        let mut table =
            format!("{rule}File      | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s \n{rule}");
        table += "All files |   71.42 |       50 |   66.66 |   71.42 |                   \n";
        for (i, file) in ["a.js", "b.js", "c.js", "d.js", "e.js"].iter().enumerate() {
            table += &format!(
                " {file}     |   {}.5 |       50 |     100 |   {}.5 | {}-{}               \n",
                60 + i,
                60 + i,
                i,
                i + 3
            );
        }
        table += rule;
        table += "Jest: \"global\" coverage threshold for lines (90%) not met: 71.42%\n";
        let summary = "\nTest Suites: 12 passed, 12 total\nTests:       40 passed, 40 total\nSnapshots:   0 total\n\
                       Time:        1.2 s\nRan all test suites.\n";
        let files: String = (0..12).map(|i| format!("PASS src/feature_{i}.test.js\n")).collect();
        let tree: String = (0..12)
            .map(|i| format!("PASS src/feature_{i}.test.js\n  feature {i}\n    ✓ works (2 ms)\n    ✓ copes\n\n"))
            .collect();
        for (command, raw) in [
            ("npx jest --coverage", files + &table + summary),
            ("npx jest --coverage --verbose", tree + &table + summary),
        ] {
            for exit in [0, 1] {
                let out = compress(command, &raw, exit);
                // The lines of a file's test tree ran on to the table, which went with them.
                let kept: String = table.lines().map(|l| l.trim_end().to_string() + "\n").collect();
                assert!(out.text.contains(&kept), "{command} (exit {exit}): {}", out.text);
                assert!(
                    !out.text.lines().any(|l| l.starts_with("PASS ") || l.contains("✓")),
                    "{command} (exit {exit}): {}",
                    out.text
                );
            }
        }
    }

    #[test]
    fn every_coverage_threshold_jest_failed_on_is_shown() {
        // Per-file thresholds: each file under its threshold is a line of its own, and fails the run.
        let misses: String = (0..50)
            .map(|i| format!("Jest: \"./src/m{i}.js\" coverage threshold for lines (80%) not met: {}%\n", 40 + i % 7))
            .collect();
        let raw =
            format!("PASS src/m.test.js\n{misses}\nTest Suites: 1 passed, 1 total\nTests:       3 passed, 3 total\n");
        // Piped through `cat`, whose exit code the shell reports.
        let out = compress("npx jest --coverage | cat", &raw, 0);
        for miss in misses.lines() {
            assert!(out.text.lines().any(|l| l == miss), "{miss}: {}", out.text);
        }
    }

    #[test]
    fn a_folded_console_error_call_is_counted_not_shown_after_a_failure() {
        let block = |i: usize| {
            format!("    console.error\n      retrying {i}\n\n      at Object.error (test/a.test.js:3:13)\n\n")
        };
        let mut raw = String::from("PASS test/a.test.js\n  ● Console\n\n");
        raw += &(0..8).map(block).collect::<String>();
        raw += "FAIL test/b.test.js\n  ● b › x\n\n    Expected: 1\n    Received: 2\n\n      at Object.toBe (test/b.test.js:2:10)\n\n";
        raw += "Test Suites: 1 failed, 1 passed, 2 total\nTests:       1 failed, 8 passed, 9 total\nSnapshots:   0 total\n";
        raw += "Time:        0.5 s\nRan all test suites.\n";
        let text = compress("npx jest", &raw, 1).text;
        // The call of each folded block, read as an error line, came back on its own: `console.error … (×7)`.
        assert!(
            text.contains("… 7 more console blocks from the same call sites not shown: console.error ×7\nFAIL"),
            "{text}"
        );
        assert_eq!(text.matches("console.error\n").count(), 1, "{text}");
    }

    #[test]
    fn the_eslint_note_after_a_failure_counts_the_warnings_left_out() {
        let mut out = String::from("\n/p/lint/x.js\n");
        for i in 1..=50 {
            out += &format!("  {i}:5   warning  'unused{i}' is assigned a value but never used  no-unused-vars\n");
            out += &format!("  {i}:18  warning  Missing semicolon                              semi\n");
        }
        out += "  51:5   error    'a' is not defined                             no-undef\n\n";
        out += "✖ 101 problems (1 error, 100 warnings)\n";
        let text = compress("npx eslint lint", &out, 1).text;
        let shown = text.lines().filter(|l| l.contains("  warning  ")).count();
        let note =
            text.lines().find_map(|l| l.strip_prefix("… ")?.split(" more warnings not shown: ").next()?.parse().ok());
        assert_eq!(shown + note.unwrap_or(0), 100, "{text}");
        assert!(shown > 3, "the last lines of a failure are shown whole: {text}");
        assert!(text.contains("  51:5   error    'a' is not defined"), "{text}");
    }

    #[test]
    fn mocha_keeps_both_sides_of_an_assertion_diff_and_drops_pending_tests() {
        let mut out = String::from("\n  math\n");
        out += &(0..40).map(|i| format!("    ✔ adds {i}\n")).collect::<String>();
        out += "    - skipped for now\n    1) deep\n\n  40 passing (10ms)\n  1 pending\n  1 failing\n\n";
        out += "  1) math\n       deep:\n\n      AssertionError: Expected values to be strictly deep-equal:\n";
        out += "+ actual - expected\n\n  {\n    a: [\n      1,\n+     2\n-     3\n    ]\n  }\n";
        out += "      + expected - actual\n\n       [\n      -  2\n      +  3\n       ]\n\n";
        out += "      at Context.<anonymous> (test/t.js:124:33)\n";
        let text = compress("mocha", &out, 1).text;
        let details = text.split("  1 failing\n").nth(1).expect("summary kept");
        for line in ["+     2", "-     3", "      -  2", "      +  3"] {
            assert!(details.lines().any(|l| l == line), "{line:?} missing from:\n{text}");
        }
        assert!(!text.contains("skipped for now"), "{text}");
        assert!(!text.contains("adds 3"), "{text}");
    }
}
