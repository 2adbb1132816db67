//! Python tooling: pytest, unittest, ruff, flake8/mypy/pyright and pip.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::skip_options;
use crate::diag::{self, Block, Severity};
use crate::family::{Families, Family};
use crate::generic::GENERIC;
use crate::passthrough::PASSTHROUGH;
use crate::plan::{Mark, NoteAt, Plan};
use crate::rules;
use crate::runner::{self, Verdict};

pub(crate) static PYTEST: Family = Family::new("pytest", "python -m pytest -q", pytest).test_runner();
pub(crate) static UNITTEST: Family = Family::new("unittest", "python -m unittest discover", unittest).test_runner();
pub(crate) static RUFF: Family = Family::new("ruff", "ruff check .", |plan, _| ruff(plan));
pub(crate) static FLAKE8: Family = Family::new("flake8", "flake8 src", checker);
pub(crate) static MYPY: Family = Family::new("mypy", "mypy pkg", checker);
pub(crate) static PYRIGHT: Family = Family::new("pyright", "pyright", checker);
pub(crate) static PIP_INSTALL: Family = Family::new("pip-install", "pip install requests", pip_install);
pub(crate) static PIP_LIST: Family = Family::new("pip-list", "pip3 list", pip_list).listing();

/// The tools by program, also when run as `python -m tool`; pip by subcommand.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, args| {
        Some(match program {
            "pytest" | "py.test" => &PYTEST,
            "python" | "py" => interpreter(args),
            "pip" => pip(args),
            "ruff" => &RUFF,
            "flake8" => &FLAKE8,
            "mypy" | "dmypy" => &MYPY,
            "pyright" | "basedpyright" => &PYRIGHT,
            _ => return None,
        })
    },
    members: &[&PYTEST, &UNITTEST, &RUFF, &FLAKE8, &MYPY, &PYRIGHT, &PIP_INSTALL, &PIP_LIST],
};

fn interpreter(args: &[String]) -> &'static Family {
    let mut rest = args;
    while let Some(first) = rest.first().filter(|w| w.starts_with('-') && !matches!(w.as_str(), "-m" | "-c" | "-i")) {
        let step = if matches!(first.as_str(), "-X" | "-W") { 2 } else { 1 };
        rest = &rest[step.min(rest.len())..];
    }
    match rest.first().map(String::as_str) {
        None => &PASSTHROUGH,
        Some("-m") => match rest.get(1).map(String::as_str) {
            Some("pytest") => &PYTEST,
            Some("unittest") => &UNITTEST,
            Some("pip") => pip(&rest[2..]),
            Some("mypy") => &MYPY,
            Some("ruff") => &RUFF,
            Some("flake8") => &FLAKE8,
            Some("pyright") => &PYRIGHT,
            Some("http.server" | "IPython" | "pdb" | "code") => &PASSTHROUGH,
            _ => &GENERIC,
        },
        Some("-i") => &PASSTHROUGH,
        Some(script) if script.ends_with("manage.py") && rest.get(1).is_some_and(|a| a == "runserver") => &PASSTHROUGH,
        _ => &GENERIC,
    }
}

fn pip(args: &[String]) -> &'static Family {
    match skip_options(args, &[]).first().map(String::as_str) {
        Some("install" | "download" | "uninstall") => &PIP_INSTALL,
        Some("list" | "freeze") => &PIP_LIST,
        _ => &GENERIC,
    }
}

/// A progress line: a file's results and its percentage, or the percentage alone (pytest repeats it on a
/// padded line of its own when a plugin prints in between).
static PYTEST_PROGRESS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\S+\.py )?(?:[.sFExX]+\s*(?:\[\s*\d+%\])?|\s*\[\s*\d+%\])$")
        .expect("pytest progress pattern compiles")
});

static PYTEST_VERBOSE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\S+::\S.* (PASSED|SKIPPED|XFAIL|XPASS|FAILED|ERROR)\b").expect("pytest verbose pattern compiles")
});

/// Session-header lines that describe the environment, not the run.
const PYTEST_PREAMBLE: &[&str] = &["platform ", "cachedir: ", "rootdir: ", "configfile: ", "plugins: ", "collecting "];

/// pytest: session header, progress dots and passing verbose lines go, counted, and so do caret underlines;
/// failure sections (with the `_ _ _` separators between a traceback's frames, which say where one file's
/// frames end), the short summary and the final tally stay. Warnings beyond the first few are counted.
fn pytest(plan: &mut Plan, failed: bool) {
    // Verbose result lines are counted by their outcome: an XFAIL is neither a pass nor a skip.
    runner::results(plan, failed, |line| {
        let caps = PYTEST_VERBOSE.captures(line)?;
        matches!(&caps[1], "FAILED" | "ERROR").then_some(Verdict::Fail)
    });
    // A passing test's name may hold an error word (`test_ParseError PASSED`, `[a-ValueError]`): its
    // outcome says what it is (a QA agent's `-v` run kept 64 such lines).
    let tail = if failed { plan.failure_tail_start() } else { plan.len() };
    for i in 0..tail {
        if PYTEST_VERBOSE.captures(plan.line(i)).is_some_and(|caps| !matches!(&caps[1], "FAILED" | "ERROR")) {
            plan.account(i);
        }
    }
    plan.drop_counted_by_kind("lines of tests not shown", NoteAt::First, failed, |line| {
        let caps = PYTEST_VERBOSE.captures(line)?;
        let outcome = caps.get(1)?.as_str();
        (!matches!(outcome, "FAILED" | "ERROR")).then_some(outcome)
    });
    // A progress line's `F` and `E` are failures the failure sections and the short summary name. A
    // traceback's `^^^^` line underlines the code above it: the frame's location and code say where.
    plan.drop_counted_by_kind("lines not shown", NoteAt::First, failed, |line| {
        let t = line.trim();
        if rules::starts_with_any(line, PYTEST_PREAMBLE) || line.contains(" test session starts ") {
            Some("session header")
        } else if PYTEST_PROGRESS.is_match(line) && !t.is_empty() && t != "E" {
            // A lone `E` is a blank line of an assertion's text (`E         `), not progress: a run whose
            // progress is one erroring test keeps that line.
            Some("progress")
        } else if !t.is_empty() && t.chars().all(|c| c == '^') {
            Some("^^^")
        } else {
            None
        }
    });
    plan.set_where(Mark::Must, |line| {
        let is_test_header = line.starts_with('_') && line.ends_with('_') && line.chars().any(|c| c != '_' && c != ' ');
        is_test_header || is_tally(line)
    });
    pytest_warnings(plan, failed);
}

/// `==== 3 failed, 10 passed in 0.21s ====`.
fn is_tally(line: &str) -> bool {
    line.starts_with('=')
        && line.ends_with('=')
        && (line.contains(" passed") || line.contains(" failed") || line.contains(" error"))
}

static PYTEST_WARNING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s+\S+:\d+: (\w+): ").expect("pytest warning pattern compiles"));

/// The `warnings summary` section lists one block per warning: the tests that raised it, one per line (a
/// test once per time it did), then `path:line: Category: message` and the source line. The first few stay;
/// the rest are counted by category.
fn pytest_warnings(plan: &mut Plan, failed: bool) {
    let Some(start) = (0..plan.len()).find(|&i| plan.line(i).contains(" warnings summary ")) else { return };
    let end = (start + 1..plan.len()).find(|&i| plan.line(i).starts_with("-- Docs: ")).unwrap_or(plan.len());
    let mut blocks: Vec<Block> = Vec::new();
    // A test's line opens a block only once the block before has its message: the tests listed above one
    // message share it, and split apart they read as warnings of their own.
    let has_message = |plan: &Plan, block: &Block| block.lines.clone().any(|j| plan.line(j).starts_with(' '));
    for i in start + 1..end {
        let line = plan.line(i);
        if !line.is_empty() && !line.starts_with(' ') && blocks.last().is_none_or(|b| has_message(plan, b)) {
            blocks.push(Block { lines: i..i + 1, severity: Severity::Warning });
        } else if let Some(block) = blocks.last_mut() {
            block.lines.end = i + 1;
        }
    }
    // The message line names the warning and where it was raised; the test's name before it is one of many.
    let header = |plan: &Plan, b: &Block| {
        b.lines.clone().find(|&i| PYTEST_WARNING.is_match(plan.line(i))).unwrap_or(b.lines.start)
    };
    let category = |line: &str| PYTEST_WARNING.captures(line).map_or_else(|| line.to_string(), |c| c[1].to_string());
    diag::summarize_warnings(plan, &blocks, failed, diag::Shorten::AsProtected, header, category);
}

/// unittest: `test_x (mod.Class.test_x) ... ok` lines go; `FAIL`/`ERROR` lines and the tracebacks stay.
fn unittest(plan: &mut Plan, failed: bool) {
    runner::results(plan, failed, |line| {
        let (_, outcome) = line.rsplit_once(" ... ")?;
        if outcome == "ok" || outcome.starts_with("skipped") || outcome == "expected failure" {
            Some(Verdict::Pass)
        } else {
            Some(Verdict::Fail)
        }
    });
    plan.set_where(Mark::Must, |line| line.starts_with("Ran ") || line.starts_with("FAILED (") || line == "OK");
}

static RUFF_HEADER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?:[A-Z]+\d+ |unformatted: )").expect("ruff pattern compiles"));

/// ruff (full format): the first few findings in full, the rest shortened to message and location; the
/// concise format is already one line per finding.
fn ruff(plan: &mut Plan) {
    let header = |line: &str| RUFF_HEADER.is_match(line).then_some(Severity::Error);
    let blocks = diag::blocks(plan, header, |_| false, |_| false);
    let located: Vec<&Block> = blocks.iter().filter(|b| b.lines.len() > 1).collect();
    for block in located.iter().skip(diag::WARNINGS_IN_FULL) {
        diag::condense(plan, block.lines.clone(), block.lines.start);
    }
    if let Some(first) = located.get(diag::WARNINGS_IN_FULL) {
        let rest = located.len() - diag::WARNINGS_IN_FULL;
        plan.note(first.lines.start, format!("… {rest} more findings shortened to message and location"));
    }
}

static CHECKER_WARNING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\S+:\d+(?::\d+)?(?::| -) (?:warning: |[WC]\d+ )(.*)$").expect("checker pattern compiles")
});

/// flake8, mypy, pyright: one line per finding. Warnings beyond the first few are counted by message; errors
/// and notes stay.
fn checker(plan: &mut Plan, failed: bool) {
    let kind = |line: &str| CHECKER_WARNING.captures(line).map_or_else(String::new, |c| diag::message_kind(&c[1]));
    diag::summarize_warning_lines(plan, failed, |line| CHECKER_WARNING.is_match(line), kind);
}

/// pip's per-package resolution and download chatter.
const PIP_NOISE: &[&str] = &[
    "Collecting ",
    "Downloading ",
    "Using cached ",
    "Requirement already satisfied: ",
    "Obtaining dependency information",
    "Preparing metadata",
    "Building wheel",
    "Created wheel",
    "Stored in directory",
    "Installing build dependencies",
    "Getting requirements to build",
    "Installing backend dependencies",
    "Looking in indexes: ",
    "Looking in links: ",
    "Found existing installation: ",
    "Uninstalling ",
    "Attempting uninstall: ",
    "Successfully uninstalled ",
    "━",
    "[notice] ",
];

/// `pip install`: resolution and download lines go, counted by kind; the outcome (`Successfully installed …`),
/// warnings and errors stay.
fn pip_install(plan: &mut Plan, failed: bool) {
    plan.drop_counted_by_kind("lines not shown", NoteAt::First, failed, |line| {
        let prefix = PIP_NOISE.iter().find(|p| line.trim_start().starts_with(**p))?;
        Some(match *prefix {
            "━" => "progress bar",
            "[notice] " => "[notice]",
            prefix => prefix.trim_end_matches([' ', ':']),
        })
    });
}

/// `pip list`/`pip freeze`: pip's `[notice]` lines go, counted, and so does the table's rule, which says
/// nothing; long lists are cut like any listing.
fn pip_list(plan: &mut Plan, failed: bool) {
    plan.drop_counted("[notice] lines not shown", NoteAt::End, failed, |line| line.starts_with("[notice] "));
    plan.set_where(Mark::Drop, |line| !line.is_empty() && line.chars().all(|c| c == '-' || c == ' '));
}

#[cfg(test)]
mod tests {
    use crate::compress;

    /// A pytest run over `tests` tests with a warnings summary: `deprecated` DeprecationWarnings, one from each
    /// `test_many[i]`, then one UserWarning; with a failing test when `failed`.
    fn pytest_with_warnings(deprecated: usize, failed: bool) -> String {
        let mut out = String::from("collected 43 items\n\ntest_w.py ....F [100%]\n\n");
        if failed {
            out += "=================================== FAILURES ===================================\n";
            out += "________________________________ test_fail_late ________________________________\n\n";
            out += ">       assert 1 == 2\nE       assert 1 == 2\n\ntest_w.py:13: AssertionError\n";
        }
        out += "=============================== warnings summary ===============================\n";
        for i in 0..deprecated {
            out += &format!(
                "test_w.py::test_many[{i}]\n  /p/test_w.py:3: DeprecationWarning: old_api({i}) is deprecated\n"
            );
            out += "    warnings.warn(f\"old_api({i}) is deprecated\", DeprecationWarning)\n\n";
        }
        out += "test_w.py::test_user\n  /p/test_w.py:11: UserWarning: user-visible thing\n";
        out += "    warnings.warn(\"user-visible thing\", UserWarning)\n\n";
        out += "-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html\n";
        if failed {
            out += "=========================== short test summary info ============================\n";
            out += "FAILED test_w.py::test_fail_late - assert 1 == 2\n";
        }
        out + "================== 42 passed, 41 warnings in 0.03s ===================\n"
    }

    #[test]
    fn a_passing_test_named_for_an_error_is_counted_with_the_passing() {
        // Named for errors, away from the closing lines of the failure (shown whole).
        let mut raw = String::from("tests/test_m.py::test_ParseError PASSED [  1%]\n");
        raw += "tests/test_m.py::test_kinds[a-ValueError] PASSED [  2%]\n";
        raw += &(0..30).map(|i| format!("tests/test_m.py::test_{i} PASSED [{:>3}%]\n", i * 3 + 3)).collect::<String>();
        raw += "tests/test_m.py::test_bad FAILED [100%]\n\n= 1 failed, 32 passed in 0.1s =\n";
        let text = crate::compress("pytest -v", &raw, 1).text;
        assert!(!text.contains("test_ParseError") && !text.contains("ValueError]"), "{text}");
        assert!(text.contains("tests/test_m.py::test_bad FAILED"), "{text}");
    }

    #[test]
    fn the_session_header_and_passing_tests_are_counted() {
        let mut raw =
            String::from("============================= test session starts ==============================\n");
        raw += "platform linux -- Python 3.12.3, pytest-8.3.4, pluggy-1.5.0 -- /usr/bin/python3\n";
        raw += "cachedir: .pytest_cache\nrootdir: /work/shop\nconfigfile: pyproject.toml\n";
        raw += "plugins: anyio-4.6.2, cov-6.0.0\ncollecting ... collected 31 items\n\n";
        raw +=
            &(0..30).map(|i| format!("tests/test_shop.py::test_case_{i} PASSED [{:>3}%]\n", i * 3)).collect::<String>();
        raw += "tests/test_shop.py::test_bad FAILED [100%]\n\n";
        raw += "=========================== short test summary info ============================\n";
        raw += "FAILED tests/test_shop.py::test_bad - assert 1 == 2\n========================= 1 failed, 30 passed in 0.20s =========================\n";
        let text = compress("pytest -v", &raw, 1).text;
        assert!(text.starts_with("… 7 lines not shown: session header\n"), "{text}");
        // The last ten lines of a failure are shown whole, passing tests' among them.
        assert!(
            text.contains("… 24 lines of tests not shown: PASSED; 6 more shown\ntests/test_shop.py::test_case_24"),
            "{text}"
        );
        assert!(text.contains("tests/test_shop.py::test_bad FAILED [100%]\n"), "{text}");
    }

    #[test]
    fn the_tests_listed_above_one_warning_stay_together() {
        // QA: 2×test_equal, 3×test_unequal_lists and 3×test_strict above one DeprecationWarning came back as
        // four lines and a note counting `test_unequal_lists ×2, test_strict ×1` as three more warnings.
        let mut raw = String::from("tests/test_more.py ....F\n=================== FAILURES ===================\n");
        raw += &"E   assert 1 == 2\n".repeat(3);
        raw += "=============================== warnings summary ===============================\n";
        for (test, n) in
            [("ZipEqualTest::test_equal", 2), ("ZipEqualTest::test_unequal_lists", 3), ("T::test_strict", 3)]
        {
            raw += &format!("tests/test_more.py::{test}\n").repeat(n);
        }
        raw +=
            "  /p/more_itertools/more.py:1742: DeprecationWarning: zip_equal will be removed\n    warnings.warn(\n\n";
        raw += "-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html\n";
        raw += &(0..30).map(|i| format!("FAILED tests/test_more.py::test_{i} - assert 1 == 2\n")).collect::<String>();
        raw += "============ 30 failed, 4 passed, 8 warnings in 0.5s ============\n";
        let text = compress("pytest -q tests/", &raw, 1).text;
        assert!(
            text.contains(concat!(
                "tests/test_more.py::ZipEqualTest::test_equal … (×2)\n",
                "tests/test_more.py::ZipEqualTest::test_unequal_lists … (×3)\n",
                "tests/test_more.py::T::test_strict … (×3)\n",
                "  /p/more_itertools/more.py:1742: DeprecationWarning: zip_equal will be removed\n",
            )),
            "{text}"
        );
        assert!(!text.contains("more warnings"), "{text}");
    }

    #[test]
    fn verbose_results_are_counted_by_outcome() {
        // QA: an XFAIL among passing tests was counted as "passing or skipped".
        let mut raw: String = (0..30).map(|i| format!("tests/test_qa.py::test_{i} PASSED [{:>3}%]\n", i * 3)).collect();
        raw += "tests/test_qa.py::test_xfail_real XFAIL (known bug) [ 95%]\n";
        raw += "tests/test_qa.py::test_slow SKIPPED (slow) [ 97%]\n";
        raw += "tests/test_qa.py::test_bad FAILED [100%]\n\n";
        raw += &(0..12).map(|i| format!("E   detail line {i}\n")).collect::<String>();
        raw += "FAILED tests/test_qa.py::test_bad - assert 1 == 2\n=== 1 failed, 30 passed, 1 skipped, 1 xfailed ===\n";
        let text = compress("pytest -v tests/test_qa.py", &raw, 1).text;
        assert!(text.starts_with("… 32 lines of tests not shown: PASSED ×30, XFAIL ×1, SKIPPED ×1\n"), "{text}");
    }

    #[test]
    fn pip_counts_what_it_drops_by_kind() {
        let mut raw = String::from("Looking in links: /opt/wheels\n");
        for name in ["requests", "rich", "idna"] {
            raw += &format!("Collecting {name}\n  Downloading {name}-2.34.2-py3-none-any.whl (73 kB)\n");
            raw += "     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 73.1/73.1 kB 1.0 MB/s eta 0:00:00\n";
        }
        raw += "Found existing installation: idna 3.4\nUninstalling idna-3.4:\n  Successfully uninstalled idna-3.4\n";
        raw += "Successfully installed idna-2.34.2 requests-2.34.2 rich-2.34.2\n";
        let text = compress("pip install requests rich", &raw, 0).text;
        assert!(
            text.starts_with(
                "… 13 lines not shown: Looking in links ×1, Collecting ×3, Downloading ×3, progress bar ×3, \
                 Found existing installation ×1, Uninstalling ×1, Successfully uninstalled ×1\n"
            ),
            "{text}"
        );

        let mut raw: String = (0..30).map(|i| format!("package-{i:<20} 1.{i}.0\n")).collect();
        raw = format!("Package              Version\n-------------------- -------\n{raw}");
        raw += "\n[notice] A new release of pip is available: 23.0.1 -> 25.3\n[notice] To update, run: pip install --upgrade pip\n";
        let text = compress("pip list", &raw, 0).text;
        assert!(text.ends_with("… 2 [notice] lines not shown\n"), "{text}");
    }

    #[test]
    fn a_percentage_on_a_line_of_its_own_is_progress() {
        // QA: hypothesis made pytest repeat `[ 35%]` on a padded line, which stayed as a blank-looking line while
        // the progress lines around it went.
        let mut raw = String::from("collected 237 items\n\n");
        for (k, name) in ["filters", "hooks", "make", "next_gen", "funcs"].iter().enumerate() {
            raw += &format!("tests/test_{name}.py {}F{} [ {}%]\n", ".".repeat(37), ".".repeat(14), 7 * k + 7);
        }
        raw += &format!("{:>79}\n", "[ 35%]");
        raw += &format!("tests/test_validators.py {} [100%]\n", ".".repeat(47));
        raw += "=================================== FAILURES ===================================\n";
        raw += "____________________________ TestAssoc.test_unknown ____________________________\n\n";
        for frame in 0..6 {
            raw += &format!(
                "src/attr/_funcs.py:{}: in assoc\n    new = _evolve(inst, changes, frame={frame})\n",
                300 + frame
            );
        }
        raw += "E   assert 1 == 2\n=========================== 1 failed, 236 passed in 3.40s ===========================\n";
        let text = compress("python -m pytest tests", &raw, 1).text;
        assert!(text.contains("… 7 lines not shown: progress\n"), "{text}");
        assert!(!text.contains("[ 35%]"), "{text}");
    }

    #[test]
    fn an_assertions_blank_e_lines_are_not_progress() {
        // QA: 30 failing `assert list == list` tests came back with "… 31 lines not shown: progress": the
        // blank `E         ` lines of each assertion's diff were taken for progress lines of one `E`.
        let mut raw = String::from("FFF                                                                      [100%]\n");
        raw += "=================================== FAILURES ===================================\n";
        for i in 0..3 {
            raw += &format!("_________________________________ test_case_{i} _________________________________\n\n");
            raw += &format!(
                "    def test_case_{i}():\n>       assert [1, 2] == [1, {i}]\nE       assert [1, 2] == [1, {i}]\n"
            );
            raw += &format!(
                "E         \nE         At index 1 diff: 2 != {i}\nE         \n\ntests/test_many.py:3: AssertionError\n"
            );
        }
        raw += "============================== 3 failed in 0.05s ===============================\n";
        let text = compress("pytest -q", &raw, 1).text;
        assert!(text.starts_with("… 1 line not shown: progress\n"), "{text}");
        assert_eq!(text.matches("\nE\n").count(), 6, "every blank line of the three assertions stays: {text}");
    }

    #[test]
    fn a_tracebacks_caret_underlines_are_counted() {
        let mut raw = String::from("FFF                                                                      [100%]\n");
        raw += "=================================== FAILURES ===================================\n";
        for name in ["label", "average", "take"] {
            raw += &format!("_________________________________ test_{name} _________________________________\n");
            raw += &format!(
                "tests/test_stock.py:17: in test_{name}\n    assert Stock(\"fig\", 2).{name}() == \"FIG:2\"\n"
            );
            raw += "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n";
            raw += &format!("inventory/stock.py:20: in {name}\n    return self.sku.upper() + \":\" + self.count\n");
            raw += "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\nE   TypeError: can only concatenate str\n";
        }
        raw += "=========================== short test summary info ============================\n";
        raw += "FAILED tests/test_stock.py::test_label - TypeError\nFAILED tests/test_stock.py::test_average - TypeError\n";
        raw += "FAILED tests/test_stock.py::test_take - TypeError\n============================== 3 failed in 0.05s ===============================\n";
        let text = compress("pytest -q --tb=short", &raw, 1).text;
        // The last ten lines of a failure are shown whole, the last frame's two underlines among them.
        assert!(text.starts_with("… 5 lines not shown: progress ×1, ^^^ ×4; 2 more shown\n"), "{text}");
        assert_eq!(text.matches("           ^^^^^^").count(), 2, "{text}");
    }

    #[test]
    fn pytest_counts_warnings_by_category_and_shows_each_category() {
        let text = compress("pytest", &pytest_with_warnings(40, false), 0).text;
        assert!(text.contains("\n  /p/test_w.py:11: UserWarning: user-visible thing\n"), "{text}");
        assert!(text.contains("\n… 37 more warnings not shown: DeprecationWarning ×37\n"), "{text}");
        assert_eq!(text.matches(": DeprecationWarning: ").count(), 3, "{text}");
    }

    #[test]
    fn after_a_failure_pytest_says_which_warnings_it_shortened() {
        let text = compress("pytest", &pytest_with_warnings(40, true), 1).text;
        // Every warning keeps its message and location; the note counts those whose test and source line went,
        // not the three shown in full nor the two among the last lines, which a failure shows whole.
        assert_eq!(text.matches(": DeprecationWarning: ").count(), 40, "{text}");
        assert_eq!(text.matches("warnings.warn(").count(), 5, "{text}");
        assert!(
            text.contains("\n… 36 more warnings shortened to message and location: DeprecationWarning ×36\n"),
            "{text}"
        );
        assert!(!text.contains("not shown"), "{text}");
    }

    #[test]
    fn a_checkers_located_warnings_after_a_failure_are_shown_not_counted() {
        let mut out: String = (1..=12).map(|i| format!("src/app.py:{i}:80: W291 trailing whitespace\n")).collect();
        out += "src/app.py:40:1: E999 SyntaxError: invalid syntax\n";
        out += &(0..100).map(|i| format!("checked module {i}\n")).collect::<String>();
        let text = compress("flake8 src", &out, 1).text;
        assert_eq!(text.matches(": W291 trailing whitespace").count(), 12, "{text}");
        assert!(!text.contains("more warnings"), "{text}");
    }

    #[test]
    fn pytest_keeps_every_frame_separator_of_a_traceback() {
        let separator = "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _";
        let out = format!(
            concat!(
                "test_many.py {dots} [100%]\n\n",
                "=================================== FAILURES ===================================\n",
                "________________________________ test_deep_fail ________________________________\n\n",
                ">       inner(7)\n\ntest_many.py:1208: \n{sep} \n",
                "test_many.py:1205: in inner\n    return helper(x)\n           ^^^^^^^^^\n{sep} \n\n",
                "y = 7\n\n>       raise ValueError(f'bad value {{y}}')\nE       ValueError: bad value 7\n\n",
                "test_many.py:1207: ValueError\n",
                "=========================== short test summary info ============================\n",
                "FAILED test_many.py::test_deep_fail - ValueError: bad value 7\n",
                "======================== 1 failed, 400 passed in 0.29s =========================\n",
            ),
            dots = ".".repeat(60),
            sep = separator,
        );
        let text = compress("pytest", &out, 1).text;
        assert_eq!(text.matches(separator).count(), 2, "{text}");
    }
}
