//! Turns raw terminal bytes into the lines a person would have seen.
//!
//! Colour codes and progress redraws cost many tokens and carry nothing an agent can use, so they go first,
//! before any family looks at the text: every later rule then matches plain lines.

use crate::rules;

/// Splits `output` into display lines: ANSI escapes removed, carriage-return redraws resolved to what stayed on
/// screen, trailing whitespace trimmed. A final newline does not produce an empty last line. A redraw that
/// overwrote an error (`error: refused\rretrying... 100%`) hid it from the screen but not from the log: such
/// segments get lines of their own before what stayed visible.
///
/// Lines in the body of a diff hunk are the exception: they are file content an agent copies into edits, so
/// only escapes and control characters go; a CRLF file's `\r` is content and stays, as do a blank context
/// line `" "` and trailing whitespace, as the hunk's line counts and the file have them.
pub(crate) fn lines(output: &str) -> Vec<String> {
    let mut raw: Vec<&str> = output.split('\n').collect();
    if output.ends_with('\n') {
        raw.pop();
    }
    let shown: Vec<String> = raw.iter().map(|raw| trim_end(strip_ansi(visible_segment(raw)))).collect();
    let inside = rules::hunk_bodies(&shown);
    let binary = binary_lines(&shown, &inside);
    let mut lines = Vec::with_capacity(shown.len());
    let mut binary_run = 0;
    for (((raw, shown), inside), binary) in raw.iter().zip(shown).zip(inside).zip(binary) {
        if binary {
            binary_run += 1;
            continue;
        }
        push_binary_run(&mut lines, &mut binary_run);
        if inside {
            lines.push(strip_escapes(raw, |c| c == '\r'));
        } else {
            lines.extend(overwritten_reports(raw));
            lines.push(shown);
        }
    }
    push_binary_run(&mut lines, &mut binary_run);
    lines
}

/// The shortest line that may be taken for binary data by itself.
const MIN_BINARY_CHARS: usize = 16;

/// Which lines (outside diff hunks) are binary data rather than text: `cat` of an image, a
/// compressed stream, whose characters carry nothing an agent can read, at a token or more each.
/// A line is, when a quarter or more of its characters are unreadable (bytes that are not UTF-8,
/// shown as U+FFFD, or control characters); so is one with any unreadable character next to such
/// lines (a short line of the same data, cut where a random byte was a line break).
fn binary_lines(lines: &[String], inside_hunks: &[bool]) -> Vec<bool> {
    let counts: Vec<(usize, usize)> = lines.iter().map(|line| unreadable(line)).collect();
    let mut binary: Vec<bool> = counts
        .iter()
        .zip(inside_hunks)
        .map(|(&(chars, bad), &inside)| !inside && chars >= MIN_BINARY_CHARS && bad * 4 >= chars)
        .collect();
    let joins = |at: usize| !inside_hunks[at] && counts[at].1 > 0;
    for at in 1..lines.len() {
        binary[at] |= binary[at - 1] && joins(at);
    }
    for at in (0..lines.len().saturating_sub(1)).rev() {
        binary[at] |= binary[at + 1] && joins(at);
    }
    binary
}

/// A line's characters, and how many of them are unreadable. Tabs, a man page's overstrike
/// backspaces and form feeds are text's own controls.
fn unreadable(line: &str) -> (usize, usize) {
    let (mut chars, mut bad) = (0usize, 0usize);
    for c in line.chars() {
        chars += 1;
        let text_control = matches!(c, '\t' | '\u{8}' | '\u{b}' | '\u{c}' | '\u{1b}');
        bad += usize::from(c == char::REPLACEMENT_CHARACTER || (c.is_control() && !text_control));
    }
    (chars, bad)
}

/// One line standing for the `run` binary lines just passed, if any.
fn push_binary_run(lines: &mut Vec<String>, run: &mut usize) {
    match std::mem::take(run) {
        0 => {}
        1 => lines.push("[1 line of binary data, not shown]".to_string()),
        n => lines.push(format!("[{n} lines of binary data, not shown]")),
    }
}

/// A progress bar rewrites its line with `\r`; only the last non-empty redraw remained visible.
fn visible_segment(raw: &str) -> &str {
    let raw = raw.strip_suffix('\r').unwrap_or(raw);
    raw.rsplit('\r').find(|segment| !segment.trim().is_empty()).unwrap_or("")
}

/// The distinct segments of a redrawn line, before the visible one, that report an error or a failure.
fn overwritten_reports(raw: &str) -> Vec<String> {
    let raw = raw.strip_suffix('\r').unwrap_or(raw);
    let Some((overwritten, _)) = raw.rsplit_once('\r') else { return Vec::new() };
    let visible = trim_end(strip_ansi(visible_segment(raw)));
    let mut reports: Vec<String> = Vec::new();
    for segment in overwritten.split('\r').map(|s| trim_end(strip_ansi(s))) {
        let report = rules::is_error(&segment) || rules::is_report(&segment);
        if report && segment != visible && !reports.contains(&segment) {
            reports.push(segment);
        }
    }
    reports
}

fn trim_end(mut line: String) -> String {
    line.truncate(line.trim_end().len());
    line
}

/// Removes CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ESC \`), charset and two-byte escape sequences, plus stray
/// control characters other than tab.
pub(crate) fn strip_ansi(line: &str) -> String {
    strip_escapes(line, |_| false)
}

/// [`strip_ansi`], keeping the control characters `keep` accepts.
fn strip_escapes(line: &str, keep: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\x1b' => match chars.next() {
                Some('[') => {
                    for c in chars.by_ref() {
                        if ('\x40'..='\x7e').contains(&c) {
                            break;
                        }
                    }
                }
                Some(']') => {
                    while let Some(c) = chars.next() {
                        if c == '\x07' || (c == '\x1b' && chars.next_if_eq(&'\\').is_some()) {
                            break;
                        }
                    }
                }
                Some('(' | ')') => {
                    chars.next();
                }
                _ => {}
            },
            c if c == '\t' || keep(c) => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// QA: `cat` of random bytes sent 14 KB of U+FFFD (about 5k tokens). Binary lines are
    /// counted, text around them kept.
    #[test]
    fn binary_lines_are_counted_and_text_kept() {
        let garbage = "\u{fffd}\u{1}\u{fffd}ab\u{fffd}\u{fffd}cd\u{2}\u{fffd}ef\u{fffd}\u{fffd}gh\u{fffd}";
        let output =
            format!("{garbage}\nx\u{fffd}\n{garbage}\nerror: truncated archive\n{garbage}\nok\n\nshort \u{fffd}\n");
        assert_eq!(
            lines(&output),
            [
                "[3 lines of binary data, not shown]",
                "error: truncated archive",
                "[1 line of binary data, not shown]",
                "ok",
                "",
                "short \u{fffd}"
            ]
        );
        assert_eq!(lines("plain text with a tab\tand é\n"), ["plain text with a tab\tand é"]);
        assert_eq!(lines("N\u{8}NA\u{8}AM\u{8}ME\u{8}E ls\u{8}ls - list\n").len(), 1, "a man page's overstrike");
        assert!(!lines("N\u{8}NA\u{8}AM\u{8}ME\u{8}E ls\u{8}ls - list\n")[0].contains("binary"));
    }

    #[test]
    fn strips_colour_and_osc_links() {
        let line = "\x1b[1m\x1b[31merror\x1b[0m: \x1b]8;;file:///x\x1b\\x.rs\x1b]8;;\x07 done";
        assert_eq!(strip_ansi(line), "error: x.rs done");
    }

    #[test]
    fn keeps_last_visible_redraw() {
        let out = "start\nfetch 10%\rfetch 50%\rfetch 100%\r\ndone\r\n";
        assert_eq!(lines(out), ["start", "fetch 100%", "done"]);
    }

    #[test]
    fn keeps_tabs_and_interior_blank_lines() {
        assert_eq!(lines("a\tb  \n\nc"), ["a\tb", "", "c"]);
    }

    #[test]
    fn hunk_bodies_keep_blank_context_and_trailing_whitespace() {
        let out = "note  \n@@ -1,4 +1,4 @@\n \n \r\n-old  \n+\x1b[32mnew\x1b[m\t\nafter  \n";
        assert_eq!(lines(out), ["note", "@@ -1,4 +1,4 @@", " ", " \r", "-old  ", "+new\t", "after"]);
    }

    #[test]
    fn a_line_ending_change_in_a_hunk_stays_visible() {
        let out = "@@ -1,2 +1,2 @@\n a\r\n-b\r\n+b\n";
        assert_eq!(lines(out), ["@@ -1,2 +1,2 @@", " a\r", "-b\r", "+b"]);
    }

    #[test]
    fn an_overwritten_error_gets_a_line_of_its_own() {
        let out = "error: refused to db:5432\rretrying... 40%\rretrying... 100%\nfetch 1%\rfetch 2%\n";
        assert_eq!(lines(out), ["error: refused to db:5432", "retrying... 100%", "fetch 2%"]);
    }
}
