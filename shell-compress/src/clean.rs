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
    let mut lines = Vec::with_capacity(shown.len());
    for ((raw, shown), inside) in raw.iter().zip(shown).zip(inside) {
        if inside {
            lines.push(strip_escapes(raw, |c| c == '\r'));
        } else {
            lines.extend(overwritten_reports(raw));
            lines.push(shown);
        }
    }
    lines
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
