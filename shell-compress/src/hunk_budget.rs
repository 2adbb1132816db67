//! A diff's hunks past a budget, in any output that holds one: `git diff`, `git log -p` and `git show`, a
//! formatter's check (`cargo fmt --check`'s `Diff in PATH:LINE:` blocks, `black --diff`, `ruff format
//! --diff`, `gofmt -d`) or `diff -u`. Whole hunks are kept from the start and the end; those between go, with
//! one note per file naming it and counting its hunks and their lines, and the original is archived like any
//! shortened output. A hunk's lines are a file's lines, data rather than a report, so a left-out hunk takes
//! its error-looking lines and its location header with it, after a failure too: a formatter's check and
//! `diff` exit non-zero whenever there is a diff, so a failure is what such output always is.

use crate::plan::{Cut, Mark, Plan};
use crate::rules;

/// A diff whose hunks would show more than this many characters (about 4,000 tokens) keeps whole hunks
/// from its start and its end and names, per file, the hunks left out between them. A hunk is never cut
/// inside beyond the usual long-run cut.
const DIFF_BUDGET_CHARS: usize = 12_000;
/// Share of the budget for the hunks at the start; the rest goes to those at the end.
const DIFF_HEAD_SHARE: usize = 3;
const DIFF_SHARES: usize = 4;

/// One hunk: its header line (`@@ … @@`, `@@@ … @@@` or rustfmt's `Diff in PATH:LINE:`), the end of its body
/// (exclusive), and the file it belongs to, when a header says.
struct Hunk<'a> {
    header: usize,
    end: usize,
    file: Option<&'a str>,
}

/// Leaves out the hunks between those kept within [`DIFF_BUDGET_CHARS`], counted per file, and protects the
/// headers of the hunks shown so every kept change stays locatable. Hunks a family already left out (a
/// lockfile's, a deleted file's) are not counted again.
pub(crate) fn apply(plan: &mut Plan) {
    let hunks = hunks(plan);
    budget(plan, &hunks);
    for hunk in &hunks {
        if plan.mark(hunk.header) == Mark::Keep {
            plan.set(hunk.header, Mark::Must);
        }
    }
}

/// The visible hunks of the output, in order, each with the file the closest `+++ ` line above it names (a
/// deleted file's `--- ` line when that is `/dev/null`), or its own `Diff in` header.
fn hunks<'a>(plan: &Plan<'a>) -> Vec<Hunk<'a>> {
    let mut found = Vec::new();
    let mut file = None;
    let mut i = 0;
    while i < plan.len() {
        let line = plan.line(i);
        if plan.in_hunk(i) {
            i += 1;
            continue;
        }
        if let Some(path) = line.strip_prefix("+++ ") {
            let old = i.checked_sub(1).and_then(|k| plan.line(k).strip_prefix("--- "));
            file = Some(file_name(path, old));
        }
        let rustfmt = rustfmt_file(line);
        let combined = line.starts_with("@@@ ");
        if rustfmt.is_none() && !combined && rules::hunk_counts(line).is_none() {
            i += 1;
            continue;
        }
        file = rustfmt.or(file);
        // A combined diff's body (`git diff` during a merge) has one column per parent and no counts the
        // shared reading of hunks follows: its body is the diff lines that follow.
        let in_body = |k: usize| plan.in_hunk(k) || (combined && plan.line(k).starts_with([' ', '+', '-']));
        let end = (i + 1..plan.len()).find(|&k| !in_body(k)).unwrap_or(plan.len());
        if plan.visible(i) {
            found.push(Hunk { header: i, end, file });
        }
        i = end;
    }
    found
}

/// The path a `+++ ` line names: without the timestamp `diff -u` and black add after a tab, and without git's
/// `b/` when the `--- ` line before has its `a/`; a deleted file's `+++ /dev/null` names it by `old`.
fn file_name<'a>(new: &'a str, old: Option<&'a str>) -> &'a str {
    let path = |p: &'a str| p.split('\t').next().unwrap_or(p);
    let (new, old) = (path(new), old.map(path));
    match old {
        Some(old) if new == "/dev/null" => old.strip_prefix("a/").unwrap_or(old),
        Some(old) if old.starts_with("a/") || old == "/dev/null" => new.strip_prefix("b/").unwrap_or(new),
        _ => new,
    }
}

/// The path of rustfmt's `Diff in PATH:LINE:` header.
fn rustfmt_file(line: &str) -> Option<&str> {
    let located = line.strip_prefix("Diff in ")?.strip_suffix(':')?;
    located.rsplit_once(':').filter(|(_, n)| n.parse::<usize>().is_ok()).map(|(path, _)| path)
}

/// The `--- `/`+++ ` lines right above `group`, the left-out hunks of one file, when they are the file's whole
/// diff (`next`, the hunk after them, is another file's): the note names the file as they do.
fn file_header(plan: &Plan, group: &[Hunk], next: Option<&Hunk>) -> Vec<usize> {
    let first = group[0].header;
    let whole = next.is_none_or(|n| n.file != group[0].file);
    let header =
        first.checked_sub(2).filter(|&h| plan.line(h).starts_with("--- ") && plan.line(h + 1).starts_with("+++ "));
    header.filter(|_| whole).map(|h| vec![h, h + 1]).unwrap_or_default()
}

/// What a hunk shows: its header and its body, or what the long-run cut leaves of it (a hunk body, having no
/// block boundary inside, is kept whole up to three times the cut's limit; see `Plan::cut_runs`).
fn cost(plan: &Plan, hunk: &Hunk) -> usize {
    let Cut { max, head, tail } = plan.cut;
    let body: Vec<usize> = (hunk.header + 1..hunk.end).collect();
    let shown: Vec<usize> = if body.len() <= 3 * max {
        body
    } else {
        body[..head].iter().chain(&body[body.len() - tail..]).copied().collect()
    };
    std::iter::once(hunk.header).chain(shown).map(|k| plan.line(k).len() + 1).sum()
}

/// Keeps whole hunks from the start within the head share of the budget and from the end within the rest;
/// the hunks between go for good, with one note per file saying how many of its hunks and lines were left
/// out.
fn budget(plan: &mut Plan, hunks: &[Hunk]) {
    let costs: Vec<usize> = hunks.iter().map(|h| cost(plan, h)).collect();
    if costs.iter().sum::<usize>() <= DIFF_BUDGET_CHARS {
        return;
    }
    let fit = |budget: usize, order: &mut dyn Iterator<Item = usize>| {
        let mut used = 0;
        order
            .take_while(|&k| {
                used += costs[k];
                used <= budget
            })
            .count()
    };
    // The first hunk is shown whatever its size (a long one is cut inside as any long run is).
    let head = fit(DIFF_BUDGET_CHARS * DIFF_HEAD_SHARE / DIFF_SHARES, &mut (0..hunks.len())).max(1);
    // So is the last: after a failure the closing lines are owed, and a diff's are its last hunk's.
    let tail = fit(DIFF_BUDGET_CHARS / DIFF_SHARES, &mut (head..hunks.len()).rev()).max(1).min(hunks.len() - head);
    let dropped = &hunks[head..hunks.len() - tail];
    let mut k = 0;
    while k < dropped.len() {
        // One note per file, where its first left-out hunk was.
        let file = dropped[k].file;
        let same_file = dropped[k..].iter().take_while(|h| h.file == file).count();
        let group = &dropped[k..k + same_file];
        let (mut added, mut removed, mut left_out) = (0, 0, file_header(plan, group, hunks.get(head + k + same_file)));
        for hunk in group {
            for line in &plan.lines()[hunk.header + 1..hunk.end] {
                added += usize::from(line.starts_with('+'));
                removed += usize::from(line.starts_with('-'));
            }
            left_out.extend(hunk.header..hunk.end);
        }
        let hunks = if same_file == 1 { "hunk" } else { "hunks" };
        let name = file.unwrap_or("this file");
        plan.fold_counted(&left_out, format!("… {same_file} {hunks} of {name} not shown (+{added} -{removed} lines)"));
        k += same_file;
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::compress;

    /// `files` files of `hunks` hunks each, every hunk a header, 3 context lines and 4 changed ones.
    pub(crate) fn long_diff(files: usize, hunks: usize) -> String {
        let mut out = String::new();
        for f in 0..files {
            out += &format!("diff --git a/src/f{f}.rs b/src/f{f}.rs\nindex 1111111..2222222 100644\n");
            out += &format!("--- a/src/f{f}.rs\n+++ b/src/f{f}.rs\n");
            for h in 0..hunks {
                let at = 10 + h * 20;
                out += &format!("@@ -{at},5 +{at},5 @@ fn function_{f}_{h}() {{\n");
                out += &format!("     let context = compute_something_{h}(input, {f});\n");
                out += &format!("-    let old_value_{h} = previous_implementation(context);\n");
                out += &format!("-    validate(old_value_{h}).expect(\"old\");\n");
                out += &format!("+    let new_value_{h} = better_implementation(context, {f});\n");
                out += &format!("+    validate(new_value_{h}).expect(\"new\");\n");
                out += "     Ok(())\n     }\n";
            }
        }
        out
    }

    #[test]
    fn a_long_diff_keeps_whole_hunks_at_both_ends_and_names_the_rest_per_file() {
        let raw = long_diff(6, 30);
        let out = compress("git diff", &raw, 0);
        assert!(out.shortened);
        assert!(out.text.len() < 16_000, "within the budget: {} chars", out.text.len());
        // The first and the last hunk are whole.
        assert!(out.text.contains("@@ -10,5 +10,5 @@ fn function_0_0() {\n     let context"), "{}", out.text);
        assert!(out.text.contains("+    validate(new_value_29).expect(\"new\");\n     Ok(())\n     }\n"));
        // Every file is named, and each left-out hunk is counted with its lines.
        for f in 0..6 {
            assert!(out.text.contains(&format!("src/f{f}.rs")), "f{f}: {}", out.text);
        }
        let noted: usize =
            out.text.lines().filter_map(|l| l.strip_prefix("… ")?.split_once(" hunk")?.0.parse::<usize>().ok()).sum();
        let shown = out.text.lines().filter(|l| l.starts_with("@@ ")).count();
        assert_eq!(noted + shown, 6 * 30, "every hunk shown or counted");
        assert!(out.text.contains("(+60 -60 lines)"), "a whole file's count: {}", out.text);
        assert_eq!(compress("git diff", &raw, 0).text, out.text, "deterministic");
    }

    #[test]
    fn a_left_out_hunk_takes_its_error_looking_lines_with_it() {
        // Code in a diff is data: `except AttributeError:` is a line of the file, not a report of a failure.
        let raw = long_diff(6, 30).replace("     Ok(())\n", "         except AttributeError:\n");
        let out = compress("git diff HEAD", &raw, 0);
        let shown = out.text.lines().filter(|l| l.starts_with("@@ ")).count();
        assert!(shown < 6 * 30, "some hunks are left out: {}", out.text);
        assert_eq!(out.text.matches("except AttributeError:").count(), shown, "{}", out.text);
    }

    #[test]
    fn hunks_kept_whole_by_the_cut_are_costed_whole() {
        // 30 hunks of 150 body lines: each is kept whole by the long-run cut, so the budget must count it so.
        let mut raw = String::from("diff --git a/big.txt b/big.txt\n--- a/big.txt\n+++ b/big.txt\n");
        for h in 0..30 {
            raw += &format!("@@ -{0},150 +{0},150 @@\n", 1 + h * 200);
            for i in 0..150 {
                raw += &format!("-line {h}.{i} of a long hunk body\n");
            }
        }
        let out = compress("git diff", &raw, 0);
        assert!(out.text.len() < 16_000, "near the budget: {} chars", out.text.len());
        assert!(out.text.contains("hunks of big.txt not shown"), "{}", out.text);
    }

    #[test]
    fn a_diff_of_one_huge_hunk_still_shows_it() {
        let mut raw =
            String::from("diff --git a/big.txt b/big.txt\n--- a/big.txt\n+++ b/big.txt\n@@ -1,900 +1,900 @@\n");
        for i in 0..900 {
            raw += &format!("-old line number {i} with some words to make it long enough\n");
        }
        let out = compress("git diff", &raw, 0);
        assert!(out.text.contains("@@ -1,900 +1,900 @@\n-old line number 0 "), "{}", out.text);
        assert!(out.text.contains("-old line number 899 "), "its end too: {}", out.text);
        assert!(!out.text.contains(" of big.txt not shown"), "no hunk left out: {}", out.text);
    }

    #[test]
    fn a_short_diff_keeps_every_hunk_and_a_failed_long_one_is_budgeted_alike() {
        let short = compress("git diff", &long_diff(1, 5), 0);
        assert_eq!(short.text.lines().filter(|l| l.starts_with("@@ ")).count(), 5);
        // `--exit-code` fails whenever there is a diff: its hunks are data as on success, and the last one is
        // shown whole, as a failure's closing lines are.
        let failed = compress("git diff --exit-code", &long_diff(6, 30), 1);
        assert_eq!(failed.text, compress("git diff", &long_diff(6, 30), 0).text + "[exit:1]\n");
    }

    /// `cargo fmt --check` over `files` files of `hunks` hunks each, as rustfmt prints them (uncoloured).
    fn rustfmt_check(files: usize, hunks: usize) -> String {
        let mut out = String::new();
        for f in 0..files {
            for h in 0..hunks {
                out += &format!("Diff in /p/src/f{f}.rs:{}:\n", 3 + h * 40);
                out += &format!("     let context = compute_something_{h}(input, {f});\n");
                out += &format!("-    let value = previous( context,{f} ).map_err(|e| Error::Io(e))?;\n");
                out += &format!("+    let value = previous(context, {f}).map_err(|e| Error::Io(e))?;\n");
                out += "     Ok(value)\n";
            }
        }
        out
    }

    #[test]
    fn a_long_formatter_check_names_every_file_and_counts_its_left_out_hunks() {
        let raw = rustfmt_check(40, 4);
        let out = compress("cargo fmt --check", &raw, 1);
        assert!(out.text.len() < 16_000, "within the budget: {} chars", out.text.len());
        for f in 0..40 {
            assert!(out.text.contains(&format!("/p/src/f{f}.rs")), "f{f} not named: {}", out.text);
        }
        // A left-out hunk goes with its location header and its error-looking code; every hunk is shown
        // or counted.
        let shown = out.text.lines().filter(|l| l.starts_with("Diff in ")).count();
        let noted: usize =
            out.text.lines().filter_map(|l| l.strip_prefix("… ")?.split_once(" hunk")?.0.parse::<usize>().ok()).sum();
        assert!(shown < 40 * 4, "some hunks are left out: {}", out.text);
        assert_eq!(shown + noted, 40 * 4, "{}", out.text);
        assert_eq!(out.text.matches("previous( context,").count(), shown, "{}", out.text);
        assert!(out.text.contains("… 4 hunks of /p/src/f20.rs not shown (+4 -4 lines)\n"), "{}", out.text);
        // The last hunk, the output's closing lines, is whole.
        assert!(out.text.ends_with("Diff in /p/src/f39.rs:123:\n     let context = compute_something_3(input, 39);\n-    let value = previous( context,39 ).map_err(|e| Error::Io(e))?;\n+    let value = previous(context, 39).map_err(|e| Error::Io(e))?;\n     Ok(value)\n[exit:1]\n"), "{}", out.text);
        // A report outside the hunks stays.
        let broken = raw + "error: expected one of `,` or `}`, found `let`\n --> /p/src/broken.rs:7:5\n";
        let out = compress("cargo fmt --check", &broken, 1);
        assert!(out.text.contains("error: expected one of `,` or `}`, found `let`\n --> /p/src/broken.rs:7:5\n"));
    }

    #[test]
    fn a_unified_diff_names_its_files_without_timestamps_and_its_left_out_headers_go() {
        // black --check --diff: `--- PATH<tab>TIME` and `+++ PATH<tab>TIME`, a `would reformat` line per file.
        let mut raw = String::new();
        for f in 0..200 {
            raw += &format!("--- /p/shop/m{f}.py\t2026-12-06 12:50:08.351514+00:00\n");
            raw += &format!("+++ /p/shop/m{f}.py\t2026-12-06 12:50:09.150847+00:00\n");
            raw +=
                "@@ -1,4 +1,4 @@\n import json\n-from typing import Dict,List\n+from typing import Dict, List\n \n \n";
            raw += &format!("would reformat /p/shop/m{f}.py\n");
        }
        raw += "\nOh no! 💥 💔 💥\n200 files would be reformatted.\n";
        let out = compress("black --check --diff shop", &raw, 1);
        assert!(
            out.text
                .contains("\n… 1 hunk of /p/shop/m120.py not shown (+1 -1 lines)\nwould reformat /p/shop/m120.py\n"),
            "{}",
            out.text
        );
        assert!(!out.text.contains("+++ /p/shop/m120.py"), "the note names the file its header named: {}", out.text);
        assert!(out.text.contains("+++ /p/shop/m0.py\t2026-12-06 12:50:09.150847+00:00\n@@ -1,4 +1,4 @@\n"));
        assert!(out.text.ends_with("200 files would be reformatted.\n[exit:1]\n"), "{}", out.text);
    }
}
