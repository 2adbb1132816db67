//! Progress bars and spinners that were printed on lines of their own (not redrawn with `\r`, which
//! cleaning already resolves): they say only that time passed.

use std::sync::LazyLock;

use regex::Regex;

use crate::plan::Plan;

/// A bar of at least five drawing characters, or a percentage next to a count, rate or ETA, or a spinner
/// glyph opening the line.
static PROGRESS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"[█▉▊▋▌▍▎▏░▒▓■□━─#=>]{5,}.*\d{1,3}(?:\.\d+)?\s?%|\d{1,3}(?:\.\d+)?\s?%.*[█▉▊▋▌▍▎▏░▒▓■□━#=]{5,}",
        r"|\d{1,3}(?:\.\d+)?%.*(?:\bETA\b|\d+(?:\.\d+)?\s?(?:[kKMG]i?B|it)/s)",
        r"|^\s*[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏⣾⣽⣻⢿⡿⣟⣯⣷◐◓◑◒] ",
    ))
    .expect("progress pattern compiles")
});

/// Fewer progress lines than this are left: the note would cost as much.
const MIN_LINES: usize = 3;

/// Drops ordinary progress lines, counted where the first was, when there are enough to be worth a note.
pub(crate) fn drop_noise(plan: &mut Plan) {
    let noise: Vec<usize> = (0..plan.len()).filter(|&i| plan.ordinary(i) && PROGRESS.is_match(plan.line(i))).collect();
    if noise.len() < MIN_LINES {
        return;
    }
    plan.replace(&noise, format!("… {} progress lines not shown", noise.len()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_printed_files_bars_are_its_content() {
        let raw: String =
            (0..10).map(|i| format!("[{}{}] {}0% step {i}\n", "#".repeat(i), ".".repeat(10 - i), i)).collect();
        assert!(!crate::compress("cat build.log", &raw, 0).text.contains("progress lines not shown"));
        assert!(crate::compress("./build.sh", &raw, 0).text.contains("progress lines not shown"));
    }

    #[test]
    fn bars_and_spinners_go_with_a_count() {
        let lines: Vec<String> = [
            "start",
            "[#####.....] 50% 10/20",
            "Downloading 45% |██████    | 4.5MB/10MB",
            "⠋ resolving",
            "  12%  3.4 MiB/s  ETA 0:01:02",
            "done: 100 files",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut plan = Plan::new(&lines);
        drop_noise(&mut plan);
        assert_eq!(plan.render(), "start\n… 4 progress lines not shown\ndone: 100 files\n");
    }
}
