//! Every fixture under `tests/fixtures/<family>/<name>.txt` (the development part) or
//! `tests/fixtures/heldout/<family>/<name>.txt` (the held-back part, see its README) is real (or, for `*.synthetic.txt`, documented-format)
//! output of a command. Each file starts with a header:
//!
//! ```text
//! # command: cargo test
//! # exit: 101
//! # ---
//! <raw output, byte for byte>
//! ```
//!
//! and has a `<name>.must` sidecar listing, one per line, text that must appear in the compressed output
//! (failing test names, verdict lines, …). The checks here are written independently of the library's own
//! patterns, so a gap in the library's rules shows up as a failure rather than agreeing with itself.

mod faithful;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use lean_ctx_shell_compress::{Compressed, Options, compress, simple_commands};
use regex::Regex;

/// Which part of the fixtures a file belongs to: the rules are developed on one and measured on both.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Part {
    HeldOut,
    Development,
}

impl Part {
    fn label(self) -> &'static str {
        match self {
            Part::HeldOut => "held-back",
            Part::Development => "developed-on",
        }
    }
}

/// The folder of the held-back part, inside the fixture root.
const HELD_OUT_DIR: &str = "heldout";

struct Fixture {
    path: PathBuf,
    part: Part,
    family: String,
    command: String,
    exit: i32,
    raw: String,
    must: Vec<String>,
}

fn fixtures() -> Vec<Fixture> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut found = load_part(&root, Part::Development);
    found.extend(load_part(&root.join(HELD_OUT_DIR), Part::HeldOut));
    let held_out = found.iter().filter(|f| f.part == Part::HeldOut).count();
    assert!(
        found.len() - held_out >= 60,
        "expected at least 60 development fixtures, found {}",
        found.len() - held_out
    );
    assert!(held_out >= 30, "expected at least 30 held-back fixtures, found {held_out}");
    found
}

/// Loads `<root>/<family>/*.txt`, in name order.
fn load_part(root: &Path, part: Part) -> Vec<Fixture> {
    let mut found = Vec::new();
    let mut families: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() && !p.ends_with(HELD_OUT_DIR))
        .collect();
    families.sort();
    for dir in families {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for path in files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "txt")) {
            found.push(load(&path, dir.file_name().unwrap().to_str().unwrap(), part));
        }
    }
    found
}

fn load(path: &Path, family: &str, part: Part) -> Fixture {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (header, raw) = text.split_once("# ---\n").unwrap_or_else(|| panic!("{}: no header", path.display()));
    let field = |name: &str| {
        header
            .lines()
            .find_map(|l| l.strip_prefix(&format!("# {name}: ")))
            .unwrap_or_else(|| panic!("{}: no {name}", path.display()))
            .to_string()
    };
    let must_path = path.with_file_name(path.file_name().unwrap().to_str().unwrap().replace(".txt", ".must"));
    let must = std::fs::read_to_string(&must_path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    Fixture {
        path: path.to_path_buf(),
        part,
        family: family.to_string(),
        command: field("command"),
        exit: field("exit").parse().unwrap(),
        raw: raw.to_string(),
        must,
    }
}

fn tokens(text: &str) -> usize {
    bpe_openai::o200k_base().count(text)
}

/// What a terminal would have shown: escapes removed, the last carriage-return redraw, no trailing blanks.
fn displayed_lines(raw: &str) -> Vec<String> {
    static ESCAPE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()].|.)").unwrap());
    raw.lines()
        .map(|line| {
            let line = line.strip_suffix('\r').unwrap_or(line);
            let visible = line.rsplit('\r').find(|s| !s.trim().is_empty()).unwrap_or("");
            let plain = ESCAPE.replace_all(visible, "");
            plain.chars().filter(|c| *c == '\t' || !c.is_control()).collect::<String>().trim_end().to_string()
        })
        .collect()
}

/// The specification's error words, in the case variants tools print.
static ERROR_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\b(?:error|Error|ERROR)\b|[a-z](?:Error|Exception)\b|\b(?:failed|Failed|FAILED|FAIL|failure|Failure)\b",
        r"|\b(?:panic|panicked)\b|\b(?:exception|Exception)\b|Traceback|\b(?:fatal|Fatal|FATAL)\b",
        r"|\b(?:assert|Assert)\w*",
        // A failing test marked only by a cross: jest's ✕, vitest's ×, mocha's ✖, and ✗ ✘ ❌ of scripts.
        r"|^\s*(?:[✗×✕✖✘]|❌)\s",
    ))
    .unwrap()
});

/// `file.ext:12`, `file.ext(12,3)`, `File "x.py", line 12`.
static LOCATION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"\w\.[A-Za-z]\w*(?::\d+|\(\d+,\d+\))|File "[^"]+", line \d+"#).unwrap());

/// A stack frame in node's own code: `at Module._load (node:internal/modules/cjs/loader:1091:12)`,
/// `at node:internal/main/run_main_module:28:49`.
static NODE_FRAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s+at (?:.+ \()?node:[\w/.-]+:\d+:\d+\)?$").unwrap());

/// The line that counts frames of node's own code left out: `… 6 frames of node's own code not shown`.
static NODE_FRAMES_COUNTED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*… (\d+) frames of node's own code not shown$").unwrap());

/// The raw output as the agent gets it when nothing is shortened: followed by the exit marker on failure.
fn unchanged(f: &Fixture) -> String {
    let mut text = f.raw.clone();
    if f.exit != 0 {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("[exit:{}]\n", f.exit));
    }
    text
}

/// Whether `fact` is a whole line of `text`, possibly carrying a repeat count.
fn has_line(text: &str, fact: &str) -> bool {
    text.lines().any(|l| l == fact || l.strip_prefix(fact).is_some_and(|rest| rest.starts_with(" … (×")))
}

/// What one output of a fixture kept of its `.must` facts.
#[derive(Default)]
struct Facts {
    total: usize,
    /// Left out because the output is a listing past its budget, which says how many entries went.
    past_budget: usize,
    /// Left out otherwise.
    lost: Vec<String>,
}

impl Facts {
    fn kept(&self) -> usize {
        self.total - self.past_budget - self.lost.len()
    }
}

/// What a fixture's compression kept of its `.must` facts.
struct Outcome {
    out: Compressed,
    facts: Facts,
}

/// `… 12 of 340 entries not shown`: the closing line of a listing cut at its budget.
static PAST_BUDGET: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?m)^… \d+ of \d+ \w+ not shown$").unwrap());

/// The verdict on one output of a fixture, by whichever compressor produced it.
struct Verdict {
    facts: Facts,
    /// The first invariant the output breaks, if any.
    broken: Option<String>,
}

/// Checks `text`, the output shown for fixture `f` (the exit line included on failure), and `again`, a second
/// run, against every invariant: deterministic, the exit line where it belongs, no more tokens than the raw
/// output plus its exit line, and on failure every error and location line and the last ten lines kept (frames
/// of node's own code among them shown or counted by a note). Also
/// counts the `.must` facts kept. Shared by every compressor measured here, so they are judged alike.
fn verify(f: &Fixture, text: &str, again: &str) -> Verdict {
    let broken = invariant_broken(f, text, again);
    let shown = displayed_lines(text).join("\n");
    let past_budget = tokens(&f.raw) > Options::default().listing_budget && PAST_BUDGET.is_match(&shown);
    let mut facts = Facts { total: f.must.len(), ..Facts::default() };
    // A fact about a warning grouped with others of its message is on the group's line, read back.
    let lost = |fact: &&String| !shown.contains(fact.as_str()) && !faithful::grouped::mentions(&shown, fact);
    for fact in f.must.iter().filter(lost) {
        if past_budget {
            facts.past_budget += 1;
        } else {
            facts.lost.push(fact.clone());
        }
    }
    Verdict { facts, broken }
}

fn invariant_broken(f: &Fixture, text: &str, again: &str) -> Option<String> {
    if text != again {
        return Some("not deterministic".into());
    }
    let exit_line = format!("[exit:{}]\n", f.exit);
    match (f.exit, text.ends_with(&exit_line)) {
        (0, _) if text.contains("[exit:") && !f.raw.contains("[exit:") => {
            return Some("exit marker on success".into());
        }
        (0, _) | (_, true) => {}
        (_, false) => return Some("missing [exit:N] line".into()),
    }
    // The baseline is what the agent gets uncompressed, exit line included.
    let (before, after) = (tokens(&unchanged(f)), tokens(text));
    if after > before {
        return Some(format!("{after} tokens after compression, {before} before"));
    }
    let shown = displayed_lines(text).join("\n");
    if f.exit != 0 {
        let displayed = displayed_lines(&f.raw);
        // A diff's hunks are a file's lines, not a report: those a note counts as left out may go, their
        // `Diff in PATH:LINE:` headers too (the faithfulness check holds the notes to their counts).
        let view: Vec<&str> = text.lines().collect();
        // So may the log lines of passing Go tests a note counts.
        let mut left_out = faithful::hunks::left_out(&displayed, &view).unwrap_or_default();
        left_out.extend(faithful::go_logs::left_out(&displayed, &view).unwrap_or_default());
        for (_, line) in displayed.iter().enumerate().filter(|(i, _)| !left_out.contains(i)) {
            // A warning grouped with others of its message keeps its location on the group's line.
            if (ERROR_LINE.is_match(line) || LOCATION.is_match(line))
                && !has_line(&shown, line)
                && !faithful::grouped::stands_for(&shown, line)
            {
                return Some(format!("error or location line lost: {line:?}"));
            }
        }
        // Frames of node's own code among them may be left out, as many as the output says it left out.
        let counted: usize =
            shown.lines().filter_map(|l| NODE_FRAMES_COUNTED.captures(l)).map(|c| c[1].parse::<usize>().unwrap()).sum();
        let mut uncounted = counted;
        for line in displayed.iter().rev().filter(|l| !l.trim().is_empty()).take(10) {
            if !has_line(&shown, line) {
                if NODE_FRAME.is_match(line) && uncounted > 0 {
                    uncounted -= 1;
                    continue;
                }
                return Some(format!("closing line lost: {line:?}"));
            }
        }
    }
    None
}

/// The fixture's path inside the crate, for messages.
fn name_of(f: &Fixture) -> String {
    f.path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap().display().to_string()
}

fn check(f: &Fixture) -> Result<Outcome, String> {
    check_output(f, compress(&f.command, &f.raw, f.exit), compress(&f.command, &f.raw, f.exit))
}

/// Checks `out`, the compression of `f`, and `again`, a second one, against every invariant ([`verify`]) and
/// this library's own promises: the family the directory names, fewer bytes when shortened (the raw output is
/// archived), the raw output itself when not, and every shown line true to the output ([`faithful`]: a line
/// of it or one of the compressor's transformations, reversed and checked). On the developed-on part every `.must` fact is required; on the
/// held-back part a lost fact is a measurement, counted by the report, not a failure to tune away.
fn check_output(f: &Fixture, out: Compressed, again: Compressed) -> Result<Outcome, String> {
    let name = name_of(f);
    let fail = |what: String| Err(format!("{name}: {what}"));

    if out.family != f.family {
        return fail(format!("family {} detected, directory says {}", out.family, f.family));
    }
    if out != again {
        return fail("not deterministic".into());
    }
    if out.shortened {
        if out.text.len() >= f.raw.len() {
            return fail("not smaller in bytes".into());
        }
    } else if out.text != unchanged(f) {
        return fail("not shortened, but text differs from the raw output".into());
    }
    let verdict = verify(f, &out.text, &again.text);
    if let Some(broken) = verdict.broken {
        return fail(broken);
    }
    let untrue = faithful::untrue_lines(&f.raw, &out.text, f.exit);
    if !untrue.is_empty() {
        let lines: Vec<String> =
            untrue.iter().map(|u| format!("  {:?} (nearest raw line: {:?})", u.line, u.nearest)).collect();
        return fail(format!("shows {} line(s) the output does not have:\n{}", untrue.len(), lines.join("\n")));
    }
    if f.part == Part::Development
        && let Some(fact) = verdict.facts.lost.first()
    {
        return fail(format!("required text missing: {fact:?}"));
    }
    Ok(Outcome { out, facts: verdict.facts })
}

#[test]
fn every_fixture_keeps_every_invariant() {
    let mut failures = Vec::new();
    for f in fixtures() {
        match check(&f) {
            Err(e) => failures.push(e),
            Ok(outcome) if !outcome.facts.lost.is_empty() => {
                println!("held-back {}: facts lost: {:?}", name_of(&f), outcome.facts.lost);
            }
            Ok(_) => {}
        }
    }
    assert!(failures.is_empty(), "{} fixture(s) failed:\n{}", failures.len(), failures.join("\n"));
}

/// The checks can fail: outputs that lose an error line, a closing line, a fact or the exit line, grow, or
/// differ between runs are all rejected; on the held-back part a lost fact is counted instead.
#[test]
fn the_invariant_checks_reject_broken_outputs() {
    let all = fixtures();
    let f = all.iter().find(|f| f.path.ends_with("heldout/pytest/pytest_twelve_tracebacks.txt")).unwrap();
    let good = compress(&f.command, &f.raw, f.exit);
    assert!(check_output(f, good.clone(), good.clone()).is_ok());
    let with_text = |text: String| Compressed { text, ..good.clone() };
    let without = |needle: &str| {
        let kept: Vec<&str> = good.text.lines().filter(|l| !l.contains(needle)).collect();
        with_text(kept.join("\n") + "\n")
    };
    let broken = [
        ("an error line", without("ValueError: invalid literal for int() with base 10: '7t'")),
        ("a failing test", without("test_import_row[mn-7t]")),
        ("a location", without("shop/pricing.py:25: ValueError")),
        ("the exit line", with_text(good.text.replace("[exit:1]\n", ""))),
        ("the last lines", without("12 failed, 1 passed")),
        ("size", with_text(f.raw.clone() + &f.raw + "[exit:1]\n")),
    ];
    for (what, out) in broken {
        assert!(check_output(f, out.clone(), out).is_err(), "losing {what} went unnoticed");
    }
    assert!(check_output(f, good.clone(), with_text(good.text.replace("failed", "FAILED"))).is_err());

    // Frames of node's own code among a crash's last lines are counted, not lost: without the count they are.
    let node = all.iter().find(|f| f.path.ends_with("fixtures/generic/node_script_throw.txt")).unwrap();
    let good = compress(&node.command, &node.raw, node.exit);
    assert!(
        good.text.contains("frames of node's own code not shown")
            && check_output(node, good.clone(), good.clone()).is_ok()
    );
    let uncounted = good.text.lines().filter(|l| !l.contains("node's own code")).collect::<Vec<_>>().join("\n") + "\n";
    let uncounted = Compressed { text: uncounted, ..good };
    assert!(check_output(node, uncounted.clone(), uncounted).is_err(), "node's frames lost without a count");

    // A fact is required on the developed-on part and counted on the held-back part.
    let dev = all.iter().find(|f| f.path.ends_with("fixtures/go-test/pass_verbose.txt")).unwrap();
    let good = compress(&dev.command, &dev.raw, dev.exit);
    let fact = "ok  \texample.com/calc";
    assert!(dev.must.iter().any(|m| m.starts_with(fact)) && good.text.contains(fact));
    // Left out, not changed: a changed line would fail the faithfulness check on either part.
    let kept: Vec<&str> = good.text.lines().filter(|l| !l.contains(fact)).collect();
    let lossy = Compressed { text: kept.join("\n") + "\n", ..good.clone() };
    assert!(check_output(dev, lossy.clone(), lossy.clone()).is_err());
    let lost = verify(dev, &lossy.text, &lossy.text).facts.lost;
    assert_eq!(lost.len(), 1);
    let held = Fixture { part: Part::HeldOut, ..clone_fixture(dev) };
    assert!(check_output(&held, lossy.clone(), lossy).is_ok_and(|o| o.facts.lost == lost));
}

/// The faithfulness check fails views that show lines the output does not have: the four a reading of fresh
/// captures found (2026-12-06, sixth pass), rebuilt on those captures' good views, and a line changed past
/// what each transformation allows.
#[test]
fn the_faithfulness_check_rejects_lines_the_output_does_not_have() {
    let all = fixtures();
    let view_of = |path: &str| {
        let f = all.iter().find(|f| f.path.ends_with(path)).unwrap_or_else(|| panic!("{path}: no such fixture"));
        let out = compress(&f.command, &f.raw, f.exit);
        assert!(faithful::untrue_lines(&f.raw, &out.text, f.exit).is_empty(), "{path}: the good view fails");
        (f, out.text)
    };
    let rejected = |f: &Fixture, view: &str, what: &str| {
        assert!(!faithful::untrue_lines(&f.raw, view, f.exit).is_empty(), "{what} went unnoticed:\n{view}");
    };
    let lines = |view: &str| view.lines().map(str::to_string).collect::<Vec<_>>();

    // git blame with the indentation of the code it annotates squeezed as if it were a table's padding.
    let (f, view) = view_of("heldout/generic/git_blame_go_rs.txt");
    let gap = Regex::new(r"^(\S+ \([^)]*\)) {2,}").unwrap();
    let squeezed: Vec<String> = lines(&view).iter().map(|l| gap.replace(l, "$1  ").into_owned()).collect();
    rejected(f, &(squeezed.join("\n") + "\n"), "a blame row's indentation squeezed");

    // pytest's `E` lines stated once as `(every row: E)` above the lines without it.
    let (f, view) = view_of("heldout/pytest/pytest_q_more_itertools_bugs.txt");
    let mut margined = Vec::new();
    for line in lines(&view) {
        match line.strip_prefix("E ") {
            Some(text) => {
                if !margined.last().is_some_and(|l: &String| l.starts_with("(every row: E)") || !l.starts_with('E')) {
                    margined.push("(every row: E)".to_string());
                }
                margined.push(text.trim_start().to_string());
            }
            None => margined.push(line),
        }
    }
    rejected(f, &(margined.join("\n") + "\n"), "pytest's E lines as a table");

    // cargo fmt --check: two identical changed lines of a hunk folded into one with a count.
    let (f, view) = view_of("heldout/generic/cargo_fmt_check_globset.txt");
    let shown = lines(&view);
    let k = (1..shown.len()).find(|&k| shown[k] == shown[k - 1] && !shown[k].trim().is_empty()).unwrap();
    let mut folded = shown.clone();
    folded[k - 1] = format!("{} … (×2)", shown[k]);
    folded.remove(k);
    rejected(f, &(folded.join("\n") + "\n"), "a hunk's identical lines folded");

    // black --diff: a cut through the end of one hunk into the next, its header hidden with the rest.
    let (f, view) = view_of("heldout/generic/black_check_diff_six.txt");
    let shown = lines(&view);
    let k = (2..shown.len() - 1).find(|&k| shown[k].starts_with("@@") && shown[k - 1].starts_with(' ')).unwrap();
    let mut headless = shown.clone();
    headless.splice(k - 1..k + 2, ["… 3 lines omitted".to_string()]);
    rejected(f, &(headless.join("\n") + "\n"), "a hunk's body shown without its header");

    // cargo fmt --check over many files: a note counting more hunks of a file than the view leaves out.
    let (f, view) = view_of("fixtures/generic/cargo_fmt_check_many_files.txt");
    let note = view.lines().find(|l| l.starts_with("… 4 hunks of ")).unwrap();
    let miscounted = view.replacen(note, &note.replacen("… 4 hunks", "… 5 hunks", 1), 1);
    rejected(f, &miscounted, "a hunk count past the hunks left out");

    // A repeat counting more or fewer copies than its run, and two lines shown in the other order.
    let (f, view) = view_of("fixtures/generic/repeated_pipeline.txt");
    for count in ["(×401)", "(×399)"] {
        rejected(f, &view.replace("(×400)", count), "a repeat count other than its run's");
    }
    let (f, view) = view_of("heldout/pytest/pytest_twelve_tracebacks.txt");
    let shown = lines(&view);
    let k = (1..shown.len()).find(|&k| shown[k].starts_with("E  ") && shown[k + 1].ends_with(": ValueError")).unwrap();
    let mut swapped = shown.clone();
    swapped.swap(k, k + 1);
    rejected(f, &(swapped.join("\n") + "\n"), "two lines in the other order");
    // A repeated block's note counting one line more or fewer than it left out.
    for count in ["  … 9 lines as in", "  … 11 lines as in"] {
        rejected(f, &view.replacen("  … 10 lines as in", count, 1), "a repeated block's count");
    }

    // Each transformation, taken past what it allows.
    let (f, view) = view_of("heldout/pytest/pytest_twelve_tracebacks.txt");
    let line = view.lines().find(|l| l.contains("ValueError: invalid literal")).unwrap();
    rejected(f, &view.replacen(line, &line.replace("invalid", "valid"), 1), "a changed line");
    rejected(f, &view.replacen(line, &format!("{line} … (×99)"), 1), "a repeat count past the copies");
    let (f, view) = view_of("fixtures/tree/node_modules_jest.txt");
    let deep = view.lines().find(|l| l.starts_with("    ")).unwrap();
    rejected(f, &view.replacen(deep, &deep[2..], 1), "a tree line at another depth");
    let (f, view) = view_of("fixtures/find/find_tokio_src.txt");
    let names = view.lines().find(|l| l.contains(".rs ")).unwrap();
    rejected(f, &view.replacen(names, &names.replacen(".rs ", ".rs nosuch.rs ", 1), 1), "a path not listed");
}

fn clone_fixture(f: &Fixture) -> Fixture {
    Fixture {
        path: f.path.clone(),
        part: f.part,
        family: f.family.clone(),
        command: f.command.clone(),
        exit: f.exit,
        raw: f.raw.clone(),
        must: f.must.clone(),
    }
}

#[test]
fn every_family_directory_has_a_real_or_synthetic_fixture_and_sidecars() {
    for f in fixtures() {
        assert!(!f.must.is_empty() || f.raw.trim().is_empty(), "{}: empty .must sidecar", f.path.display());
    }
}

/// Per-family sums of one compressor on one part for the reports.
#[derive(Default)]
struct Tally {
    fixtures: usize,
    raw: usize,
    compressed: usize,
    facts: usize,
    facts_kept: usize,
    /// Compressed text larger (in tokens) than the raw output plus its exit line: must stay 0.
    larger_than_baseline: usize,
    /// Compressed text larger (in tokens) than the raw output without the exit line.
    larger_than_raw: usize,
    /// Outputs that break an invariant of [`verify`].
    broken: usize,
    worst: Option<(f64, String)>,
}

impl Tally {
    /// Counts one fixture's output `text` with its verdict.
    fn count(&mut self, f: &Fixture, text: &str, verdict: &Verdict) {
        let (before, after) = (tokens(&unchanged(f)), tokens(text));
        let saved = if before == 0 { 0.0 } else { 100.0 * (before as f64 - after as f64) / before as f64 };
        let name = f.path.file_name().unwrap().to_str().unwrap().trim_end_matches(".txt").to_string();
        self.add(&Tally {
            fixtures: 1,
            raw: before,
            compressed: after,
            facts: verdict.facts.total,
            facts_kept: verdict.facts.kept(),
            larger_than_baseline: usize::from(after > before),
            larger_than_raw: usize::from(after > tokens(&f.raw)),
            broken: usize::from(verdict.broken.is_some()),
            worst: None,
        });
        if self.worst.as_ref().is_none_or(|(worst, _)| saved < *worst) {
            self.worst = Some((saved, name));
        }
    }

    fn add(&mut self, other: &Tally) {
        self.fixtures += other.fixtures;
        self.raw += other.raw;
        self.compressed += other.compressed;
        self.facts += other.facts;
        self.facts_kept += other.facts_kept;
        self.larger_than_baseline += other.larger_than_baseline;
        self.larger_than_raw += other.larger_than_raw;
        self.broken += other.broken;
    }

    fn saved(&self) -> f64 {
        if self.raw == 0 { 0.0 } else { 100.0 * (self.raw as f64 - self.compressed as f64) / self.raw as f64 }
    }

    fn row(&self, label: &str) -> String {
        let worst = self.worst.as_ref().map_or(String::new(), |(saved, name)| format!("{saved:.1}% ({name})"));
        format!(
            "| {label} | {} | {} | {} | {:.1}% | {worst} | {}/{} | {} | {} |",
            self.fixtures,
            self.raw,
            self.compressed,
            self.saved(),
            self.facts_kept,
            self.facts,
            self.larger_than_baseline,
            self.larger_than_raw,
        )
    }
}

/// `cargo test --test fixtures -- --ignored --nocapture report` prints, for the held-back and the
/// developed-on part separately, tokens saved per family and in total, facts kept and outputs larger than raw.
#[test]
#[ignore]
fn report() {
    let mut parts: BTreeMap<Part, BTreeMap<String, Tally>> = BTreeMap::new();
    let mut lost = Vec::new();
    for f in fixtures() {
        let outcome = check(&f).unwrap_or_else(|e| panic!("{e}"));
        let verdict = Verdict { facts: outcome.facts, broken: None };
        parts.entry(f.part).or_default().entry(f.family.clone()).or_default().count(&f, &outcome.out.text, &verdict);
        lost.extend(verdict.facts.lost.iter().map(|fact| format!("{}: {fact:?}", name_of(&f))));
    }
    for (part, families) in &parts {
        println!("\n### {} part\n", part.label());
        println!(
            "| family | fixtures | raw tokens | compressed | saved | worst (fixture) | facts kept | larger than raw + exit line | larger than raw alone |"
        );
        println!("|---|---:|---:|---:|---:|---|---:|---:|---:|");
        let mut total = Tally::default();
        for (family, tally) in families {
            println!("{}", tally.row(family));
            total.add(tally);
        }
        println!("{}", total.row("**total**"));
    }
    println!("\nfacts lost (held-back part only; on the developed-on part every fact is required):");
    for line in &lost {
        println!("- {line}");
    }
    println!(
        "\n(o200k tokens; baseline = raw output plus the exit line; facts = `.must` sidecar lines, those not kept \
         were left out past the listing budget, which the output says, or are listed above; \"raw alone\" counts \
         outputs that only the `[exit:N]` line of a failure makes larger)"
    );
}

/// `LCTX_DUMP=/some/dir cargo test --test fixtures -- --ignored dump` writes each compressed fixture next to
/// its raw output for review.
#[test]
#[ignore]
fn dump() {
    let dir = PathBuf::from(std::env::var("LCTX_DUMP").expect("set LCTX_DUMP to an output directory"));
    for f in fixtures() {
        let out = compress(&f.command, &f.raw, f.exit);
        let target = dir.join(&f.family).join(f.path.file_name().unwrap());
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        let header = format!(
            "# {} | shortened={} | {} -> {} tokens\n",
            f.command,
            out.shortened,
            tokens(&f.raw),
            tokens(&out.text)
        );
        std::fs::write(target, header + &out.text).unwrap();
    }
}

/// The reference lean-ctx binary, from `LEAN_CTX_REFERENCE`, for [`reference_report`].
const REFERENCE_VAR: &str = "LEAN_CTX_REFERENCE";

/// How a stored fixture is replayed through the reference: its command line as given to `lean-ctx -c`, and
/// the programs that line starts, each replaced on PATH by a script that prints the stored output once and
/// exits with the stored code.
#[derive(Debug, PartialEq)]
struct Replay {
    command: String,
    programs: Vec<String>,
}

/// How to replay `command`, or why it cannot be: the programs that start its commands (not those reading a
/// pipe, which run for real on the replayed output) are faked; a program given by path is faked under its
/// name, and the path in the command line becomes that name.
fn replay(command: &str) -> Result<Replay, String> {
    let mut replay = Replay { command: command.to_string(), programs: Vec::new() };
    for (words, piped) in simple_commands(command) {
        if piped {
            continue;
        }
        let mut words = words.iter().skip_while(|w| w.contains('=') && !w.starts_with(['=', '-', '/']));
        let Some(program) = words.next() else { continue };
        match program.as_str() {
            "cd" => match words.next() {
                Some(dir) if Path::new(dir).is_dir() => {}
                dir => return Err(format!("`cd {}`: the directory is gone", dir.map_or("", String::as_str))),
            },
            "for" | "while" | "until" | "if" | "case" | "{" | "(" | "echo" | "printf" | "exit" => {
                return Err(format!("`{program}` is shell syntax or a builtin, not a program to fake"));
            }
            _ => {
                let name = program.rsplit('/').next().unwrap_or(program).to_string();
                if name != *program {
                    replay.command = replay.command.replace(program.as_str(), &name);
                }
                if !replay.programs.contains(&name) {
                    replay.programs.push(name);
                }
            }
        }
    }
    if replay.programs.is_empty() {
        return Err("no program to fake".into());
    }
    Ok(replay)
}

/// Runs `lean-ctx -c` on fixture `f` replayed as `how`, in a fresh directory with its own HOME, and returns
/// what the agent sees: its stdout (the replayed command writes everything there; the reference's stderr holds
/// its own timestamped log lines and is not counted), then `[exit:N]` when lean-ctx exits with the fixture's
/// non-zero code (the same line the baseline and lean-ctxd carry; a different code gets none, which the exit
/// check then reports).
///
/// Every run uses the same directory, emptied first, because the reference prints where it saved the full
/// output, under HOME: a path that differed between runs would make its output differ.
fn run_reference(reference: &Path, f: &Fixture, how: &Replay) -> String {
    use std::os::unix::fs::PermissionsExt;
    let root = std::env::temp_dir().join(format!("lctx-reference-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (bin, home, work) = (root.join("bin"), root.join("home"), root.join("work"));
    for dir in [&bin, &home, &work] {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(root.join("raw"), &f.raw).unwrap();
    for program in &how.programs {
        // lean-ctx asks git for the project root before it runs the command; that probe is answered as
        // "not a repository" unless the fixture's own command is that probe.
        let probe = if program == "git" && !f.command.contains("rev-parse") {
            "[ \"$*\" = 'rev-parse --show-toplevel' ] && exit 128\n"
        } else {
            ""
        };
        let script = format!(
            "#!/bin/sh\n{probe}if mkdir '{root}/printed' 2>/dev/null; then cat '{root}/raw'; fi\nexit {}\n",
            f.exit,
            root = root.display(),
        );
        let path = bin.join(program);
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut child = std::process::Command::new(reference)
        .arg("-c")
        .arg(&how.command)
        .current_dir(&work)
        .env("PATH", path)
        .env("HOME", &home)
        // Its shell allowlist would refuse docker, kubectl, terraform and others outright; with the gate off
        // it still compresses.
        .env("LEAN_CTX_SHELL_SECURITY", "off")
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", reference.display()));
    let (mut stdout, mut stderr) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let err_reader = std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut stdout, &mut out).unwrap();
    err_reader.join().unwrap().unwrap();
    let status = child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&root);
    let mut text = String::from_utf8_lossy(&out).into_owned();
    if f.exit != 0 && status.code() == Some(f.exit) {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("[exit:{}]\n", f.exit));
    }
    text
}

#[test]
fn replays_fake_the_programs_that_start_commands() {
    let r = replay("RUST_BACKTRACE=1 cargo test 2>&1 | tee log").unwrap();
    assert_eq!(
        r,
        Replay { command: "RUST_BACKTRACE=1 cargo test 2>&1 | tee log".into(), programs: vec!["cargo".into()] }
    );
    let r = replay("rm -rf node_modules && /opt/venv/bin/pip install 'a b'").unwrap();
    assert_eq!(r.programs, ["rm", "pip"]);
    assert_eq!(r.command, "rm -rf node_modules && pip install 'a b'");
    assert_eq!(replay("cd /tmp && git status").unwrap().programs, ["git"]);
    assert!(replay("cd /no/such/dir/lctx && git status").is_err());
    assert!(replay("for i in $(seq 1 3); do echo $i; done").is_err());
    assert_eq!(simple_commands("grep -rn \"a|b\" src | head -5").len(), 2);
}

/// `LEAN_CTX_REFERENCE=/path/to/lean-ctx cargo test --test fixtures -- --ignored --nocapture reference_report`
/// replays every fixture through the reference lean-ctx (`lean-ctx -c "<command>"` with the command's programs
/// faked on PATH to print the stored output) and prints, per part and family, tokens and facts of lean-ctxd and
/// of the reference, judged by the same [`verify`].
#[test]
#[ignore]
fn reference_report() {
    let Some(reference) = std::env::var_os(REFERENCE_VAR).map(PathBuf::from) else {
        println!("skipped: set {REFERENCE_VAR} to the reference lean-ctx binary to compare with it");
        return;
    };
    assert!(reference.is_file(), "{REFERENCE_VAR}={} is not a file", reference.display());
    type Pair = (Tally, Tally);
    let mut parts: BTreeMap<Part, BTreeMap<String, Pair>> = BTreeMap::new();
    let (mut skipped, mut broken) = (Vec::new(), Vec::new());
    for f in &fixtures() {
        let how = match replay(&f.command) {
            Ok(how) => how,
            Err(why) => {
                skipped.push(format!("{}: {why}", name_of(f)));
                continue;
            }
        };
        let (ours, ours_again) = (compress(&f.command, &f.raw, f.exit), compress(&f.command, &f.raw, f.exit));
        let ours_verdict = verify(f, &ours.text, &ours_again.text);
        let theirs = run_reference(&reference, f, &how);
        let theirs_again = run_reference(&reference, f, &how);
        let theirs_verdict = verify(f, &theirs, &theirs_again);
        for (who, verdict) in [("lean-ctxd", &ours_verdict), ("reference", &theirs_verdict)] {
            if let Some(why) = &verdict.broken {
                broken.push(format!("{who} {}: {why}", name_of(f)));
            }
        }
        let pair = parts.entry(f.part).or_default().entry(f.family.clone()).or_default();
        pair.0.count(f, &ours.text, &ours_verdict);
        pair.1.count(f, &theirs, &theirs_verdict);
    }
    let row = |label: &str, (ours, theirs): &Pair| {
        format!(
            "| {label} | {} | {} | {} | {:.1}% | {} | {:.1}% | {}/{} | {}/{} | {} / {} | {} / {} |",
            ours.fixtures,
            ours.raw,
            ours.compressed,
            ours.saved(),
            theirs.compressed,
            theirs.saved(),
            ours.facts_kept,
            ours.facts,
            theirs.facts_kept,
            theirs.facts,
            ours.larger_than_baseline,
            theirs.larger_than_baseline,
            ours.broken,
            theirs.broken,
        )
    };
    for (part, families) in &parts {
        println!("\n### {} part: lean-ctxd and the reference\n", part.label());
        println!(
            "| family | fixtures | raw tokens | lean-ctxd | saved | reference | saved | facts kept, lean-ctxd | facts kept, reference | larger than raw + exit line (ours / ref) | invariant failures (ours / ref) |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        let mut total = (Tally::default(), Tally::default());
        for (family, pair) in families {
            println!("{}", row(family, pair));
            total.0.add(&pair.0);
            total.1.add(&pair.1);
        }
        println!("{}", row("**total**", &total));
    }
    println!("\nnot replayed ({}):", skipped.len());
    for line in &skipped {
        println!("- {line}");
    }
    println!("\ninvariant failures ({}):", broken.len());
    for line in &broken {
        println!("- {line}");
    }
    println!(
        "\n(o200k tokens; raw = the stored output plus the `[exit:N]` line of a failure; the reference's output is \
         its stdout, plus that line when it exits with the fixture's code, its shell allowlist off; both judged by \
         `verify`)"
    );
}

/// Families whose notes all count lines (`… 12 lines not shown: …`, `… 4 refs up to date`, a repeat's `(×3)`),
/// so that their view accounts for every raw line: shown, or counted by a note. Other families' notes count
/// other things (warnings shortened, hunks and their `+`/`-` lines, console blocks, test binaries) or show a
/// listing in a shorter form (paths grouped by directory), which a sum of lines cannot check; their own tests
/// check that what goes is counted.
const COUNTING_LINES: &[&str] = &[
    "docker-build",
    "docker-images",
    "docker-ps",
    "git-clone",
    "git-merge",
    "git-status",
    "git-sync",
    "js-install",
    "kubectl-get",
    "pip-install",
    "pip-list",
    "terraform-apply",
    "terraform-plan",
];

#[test]
fn every_line_a_view_leaves_out_is_counted_where_notes_count_lines() {
    static COUNT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*… (\d+) |…? \(×(\d+)\)$").unwrap());
    // `git status` entries of one kind listed by name (git pads a kind's entries to line up: its own lines
    // never have one space after the colon).
    static STATUS_NAMES: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^(?:\t[a-z][a-z ]*: |[ MTADRCU?!]{2} )\S.*, ").unwrap());
    // Conflicts counted with the `Auto-merging` line before each: a line for each of both.
    static CONFLICTS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^… (\d+) more conflicts not shown \(\d+ in all(?:, with (\d+) Auto-merging lines)?\)").unwrap()
    });
    // A blank line, a rule (`─`, `-` or `=`, across columns too), a terraform box's bare `│` and a bare
    // `remote:` (the remote's blank line) say nothing to count: views show or drop them as blank lines. Any
    // other line is shown or counted, a `++++` bar or a `^^^` underline too.
    let says_something = |line: &&str| {
        !line.chars().all(|c| matches!(c, ' ' | '\t' | '─' | '-' | '=' | '│')) && line.trim() != "remote:"
    };
    let mut uncounted = Vec::new();
    for f in fixtures().iter().filter(|f| COUNTING_LINES.contains(&f.family.as_str())) {
        let out = compress(&f.command, &f.raw, f.exit);
        let raw = displayed_lines(&f.raw).iter().map(String::as_str).filter(says_something).count();
        let shown = out.text.lines().filter(|l| !l.starts_with("[exit:")).filter(says_something);
        let accounted: usize = shown
            .map(|line| {
                if STATUS_NAMES.is_match(line) {
                    // `\tdeleted: dir/{a, b}, c`: one raw entry per name.
                    return line.matches(", ").count() + 1;
                }
                if let Some(c) = CONFLICTS.captures(line) {
                    return c.iter().skip(1).flatten().map(|n| n.as_str().parse::<usize>().unwrap()).sum();
                }
                COUNT.captures(line).map_or(1, |c| c.iter().flatten().last().unwrap().as_str().parse().unwrap())
            })
            .sum();
        // Equal, not merely no fewer: a note counting too many would hide one counting too few.
        if accounted != raw {
            uncounted.push(format!("{}: {accounted} lines shown or counted, of {raw}", name_of(f)));
        }
    }
    assert!(uncounted.is_empty(), "{}", uncounted.join("\n"));
}
