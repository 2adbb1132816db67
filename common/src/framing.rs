//! How a client frames what it sends beside a tool's own output: a read's note, an instruction
//! file delivered with it, and the lines ctx_shell adds after a command's output. The daemon counts
//! the framed text (the ledger's "sent" is what the agent receives, docs/accounting.md), so both
//! sides build it here.

/// A read's note as shown after the content: `[note]`.
pub fn note(note: &str) -> String {
    format!("[{note}]")
}

/// An instruction file delivered with a read, fenced so the agent can tell it from the file's
/// content.
pub fn rules(path: &str, why: &str, body: &str) -> String {
    format!("[rules from {path} ({why}) — follow them for this file]\n{body}\n[end of {path}]\n")
}

/// Exit code of a command the timeout killed, as timeout(1) gives it.
pub const TIMED_OUT: i32 = 124;

/// How a foreground command ended, as ctx_shell's answer tells it after the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandEnd {
    /// What the command ended with (137 when the timeout killed it).
    pub exit_code: i32,
    pub timed_out: bool,
    pub duration_ms: u64,
    /// The output is the command's own, untouched (`raw`): it carries no `[exit:N]` of its own.
    pub raw: bool,
}

/// ctx_shell's answer to a command: its shaped output (which carries `[exit:N]`; a raw output
/// gets it here, as a QA pass's `exit 3` with raw=true read `(no output)`), the timeout note, and
/// `(no output)` for a command that printed nothing and exited 0 — an empty answer reads like a
/// lost one. The client shows exactly this and the daemon books its tokens as sent.
pub fn command_answer(output: &str, end: &CommandEnd) -> String {
    let mut text = output.to_string();
    if end.raw && end.exit_code != 0 {
        push_block(&mut text, &format!("[exit:{}]\n", end.exit_code));
    }
    if end.timed_out {
        push_block(&mut text, &timed_out_note(end.duration_ms, end.exit_code));
    }
    if text.is_empty() {
        text.push_str("(no output)");
    }
    text
}

/// The note after a timed-out command's output. The output's `[exit:N]` is what the killed command ended
/// with (137 for SIGKILL); the note says so and gives the code the call ends with, so the two do not
/// contradict each other.
fn timed_out_note(duration_ms: u64, exit_code: i32) -> String {
    let killed =
        format!("[timed out after {}: the command and everything it started were killed", duration(duration_ms));
    if exit_code == 0 {
        format!("{killed}; exit code {TIMED_OUT}, as timeout(1) gives]")
    } else {
        format!("{killed}, hence [exit:{exit_code}]; exit code {TIMED_OUT}, as timeout(1) gives]")
    }
}

/// `350 ms` under a second (a short timeout reads as what it was), else `2.5 s`.
pub fn duration(ms: u64) -> String {
    if ms < 1000 { format!("{ms} ms") } else { format!("{:.1} s", ms as f64 / 1000.0) }
}

/// Appends `block` on a line of its own (views, outputs and notes each end on a line of their own).
pub fn push_block(text: &mut String, block: &str) {
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(block);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end(exit_code: i32, timed_out: bool, duration_ms: u64) -> CommandEnd {
        CommandEnd { exit_code, timed_out, duration_ms, raw: false }
    }

    #[test]
    fn a_raw_output_is_followed_by_the_exit_code_it_does_not_carry() {
        let raw = |exit_code, timed_out| CommandEnd { raw: true, ..end(exit_code, timed_out, 1000) };
        // Ended by a newline, as a shaped output's exit line is (a QA pass's `while read` lost it).
        assert_eq!(command_answer("", &raw(3, false)), "[exit:3]\n");
        assert_eq!(command_answer("hi\n", &raw(3, false)), "hi\n[exit:3]\n");
        assert_eq!(command_answer("no newline", &raw(2, false)), "no newline\n[exit:2]\n");
        assert_eq!(command_answer("", &raw(0, false)), "(no output)");
        assert_eq!(command_answer("ok", &raw(0, false)), "ok");
        assert!(command_answer("tick\n", &raw(137, true)).starts_with("tick\n[exit:137]\n[timed out after 1.0 s"));
    }

    #[test]
    fn a_silent_success_says_so_to_an_agent() {
        // QA: `go vet ./...` (exit 0, no output) came back to the agent as an empty string.
        assert_eq!(command_answer("", &end(0, false, 5)), "(no output)");
        assert_eq!(command_answer("[exit:1]", &end(1, false, 5)), "[exit:1]");
        assert_eq!(command_answer("ok\n", &end(0, false, 5)), "ok\n");
    }

    #[test]
    fn a_timeout_note_explains_the_shown_exit_code_and_gives_the_real_one() {
        assert_eq!(
            command_answer("tick\n[exit:137]", &end(137, true, 1000)),
            "tick\n[exit:137]\n[timed out after 1.0 s: the command and everything it started were killed, hence \
             [exit:137]; exit code 124, as timeout(1) gives]"
        );
        assert!(command_answer("", &end(0, true, 350)).ends_with("were killed; exit code 124, as timeout(1) gives]"));
    }

    #[test]
    fn durations_read_in_the_unit_that_shows_them() {
        assert_eq!(duration(100), "100 ms");
        assert_eq!(duration(999), "999 ms");
        assert_eq!(duration(2504), "2.5 s");
    }
}
