//! Lines a test runner or script marks as passed with a tick (`✓`, `✔`, `✅`), in output no family reads:
//! each says one check passed, which a count says as well. Not in a printed file (`cat CHECKLIST.md`,
//! `git show HEAD:CHECKLIST.md`), whose ticked lines are its content, each saying something of its own. They are counted once over the whole output,
//! not per run between failures, so failures spread among them do not multiply the folds; each failure's
//! line and the lines under it stay where they were.

use std::sync::LazyLock;

use regex::Regex;

use crate::plan::{Cut, Plan};

static TICK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(?:[✓✔]|✅)\x{FE0F}?\s").expect("tick pattern compiles"));

/// Drops the ordinary ticked lines, counted where the first was, when there are more than a cut keeps of one
/// run: fewer are left to the other rules, as a run that short would be.
pub(crate) fn count(plan: &mut Plan) {
    let passed: Vec<usize> = (0..plan.len()).filter(|&i| plan.ordinary(i) && TICK.is_match(plan.line(i))).collect();
    if passed.len() > Cut::DEFAULT.max {
        plan.replace(&passed, format!("… {} passing (✓) lines not shown", passed.len()));
    }
}

#[cfg(test)]
mod tests {
    use crate::compress;

    #[test]
    fn spread_failures_do_not_multiply_the_count_of_passing_lines() {
        let mut raw = String::new();
        for i in 0..3000 {
            raw += &if i % 60 == 30 {
                format!("  ✗ check {i} renders header\n    expected status 200, got 500\n")
            } else {
                format!("  ✓ case {} of suite {} works\n", i * 7 % 11, i % 13)
            };
        }
        raw += "3 suites, 50 failing\n";
        let text = compress("python3 mk2.py", &raw, 1).text;
        // The last ten lines of a failure are shown whole: nine passing lines and the verdict.
        assert!(text.starts_with("… 2941 passing (✓) lines not shown\n  ✗ check 30 renders header\n"), "{text}");
        for i in (30..3000).step_by(60) {
            let failure = format!("  ✗ check {i} renders header\n    expected status 200, got 500\n");
            assert!(text.contains(&failure), "{failure:?} lost:\n{text}");
        }
        // Two lines per failure, the count, the last ten lines and the exit code.
        assert_eq!(text.lines().count(), 50 * 2 + 1 + 10 + 1, "{text}");
        // A few ticks are left to the other rules, as a run that short is.
        let raw: String =
            (0..30).map(|i| format!("  ✓ case {i} works fine today\n")).collect::<String>() + "  ✗ case 30 fails\n";
        assert!(!compress("./check.sh", &raw, 1).text.contains("passing (✓) lines not shown"));
    }

    #[test]
    fn a_printed_files_ticked_lines_are_its_content() {
        let words = ["docs", "tests", "lints", "review", "release", "notes"];
        let raw: String = (0..60)
            .map(|i| format!("✓ {} {} checked by {}\n", words[i % 6], words[i / 10], words[(i + 3) % 5]))
            .collect();
        for command in ["cat CHECKLIST.md", "git show HEAD:CHECKLIST.md"] {
            // Cut as any long file is, to its first and last lines, not counted away as passing checks.
            let lines: Vec<&str> = raw.lines().collect();
            let cut = format!("{}\n… 30 lines omitted\n{}\n", lines[..15].join("\n"), lines[45..].join("\n"));
            assert_eq!(compress(command, &raw, 0).text, cut, "{command}");
        }
    }
}
