//! How a client frames what it sends beside a tool's own output: a read's note, an instruction
//! file delivered with it, the lines ctx_shell adds after a command's output, and its answers
//! about background jobs. The daemon counts
//! the framed text (the ledger's "sent" is what the agent receives, docs/accounting.md), so both
//! sides build it here.

use crate::surface::Surface;

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

/// A background job as an answer about it shows it.
#[derive(Debug, Clone, Copy)]
pub struct JobShown<'a> {
    pub id: u64,
    pub command: &'a str,
    pub running: bool,
    pub cancelling: bool,
    pub cancelled: bool,
    pub timed_out: bool,
    pub exit_code: i32,
    pub elapsed_ms: u64,
    /// The session that started it.
    pub session: &'a str,
    /// The asking session started it in the asking project.
    pub yours: bool,
    /// Its output, when this answer sends it.
    pub output: Option<&'a str>,
}

/// What was asked of the background jobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobQuestion {
    List,
    Status,
    Cancel,
}

/// The answer to starting a command in the background.
pub fn job_started(id: u64, surface: Surface) -> String {
    match surface {
        Surface::Cli => format!("job {id} started; `lctx jobs status {id}` shows it"),
        Surface::Mcp => format!("job {id} started; ctx_shell background_action=status job_id={id} shows it"),
    }
}

/// The answer to a question about background jobs: each job's line, what a cancel did, and its
/// output when sent (a finished job's output goes with the first answer after it ended; a
/// listing says where to get it again).
pub fn jobs_answer(jobs: &[JobShown<'_>], question: JobQuestion, all_sessions: bool, surface: Surface) -> String {
    let mut text = String::new();
    if jobs.is_empty() {
        text.push_str(if all_sessions { "no background jobs" } else { "no background jobs in this session" });
    }
    for job in jobs {
        let mut line = job_line(job);
        if all_sessions {
            line.push_str(&session_tag(job.session, job.yours));
        }
        push_block(&mut text, &line);
        if question == JobQuestion::Cancel {
            push_block(&mut text, &cancel_note(job, surface));
        }
        if let Some(output) = job.output {
            push_block(&mut text, output);
        } else if job.yours && !job.running && question == JobQuestion::List {
            let hint = job_status_hint(job.id, surface);
            push_block(&mut text, &format!("[output sent earlier; {hint} sends it again]"));
        }
    }
    text
}

/// `job 7 · exit 0 · 1.2 s · cargo test`.
fn job_line(job: &JobShown<'_>) -> String {
    let state = if job.running && job.cancelling {
        "cancelling".to_string()
    } else if job.running {
        "running".to_string()
    } else if job.cancelled {
        "cancelled".to_string()
    } else if job.timed_out {
        "timed out".to_string()
    } else {
        format!("exit {}", job.exit_code)
    };
    format!("job {} · {state} · {} · {}", job.id, duration(job.elapsed_ms), job.command)
}

/// ` · session ID` in a listing of every session's jobs; `yours`: the caller's session started it
/// in the caller's project (the same id in another project is another session).
fn session_tag(job_session: &str, yours: bool) -> String {
    let name = if job_session.is_empty() { "no session".to_string() } else { format!("session {job_session}") };
    if yours { format!(" · {name} (this one)") } else { format!(" · {name}") }
}

/// How to ask for job `id`'s status.
fn job_status_hint(id: u64, surface: Surface) -> String {
    match surface {
        Surface::Cli => format!("`lctx jobs status {id}`"),
        Surface::Mcp => format!("background_action=status job_id={id}"),
    }
}

/// What a cancel did, said plainly: the job was stopped, is still being stopped, or had ended
/// before it.
fn cancel_note(job: &JobShown<'_>, surface: Surface) -> String {
    if job.running {
        let hint = job_status_hint(job.id, surface);
        format!(
            "[cancel in progress: the job and everything it started were sent a kill but have not ended yet; {hint} \
             shows when they have]"
        )
    } else if job.cancelled {
        "[cancelled: the command and everything it started were killed]".to_string()
    } else {
        format!("[job {} had already ended; nothing was cancelled]", job.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_lines_read_naturally() {
        let job = JobShown {
            id: 7,
            command: "make",
            running: false,
            cancelling: false,
            cancelled: false,
            timed_out: false,
            exit_code: 2,
            elapsed_ms: 1250,
            session: "",
            yours: true,
            output: None,
        };
        assert_eq!(job_line(&job), "job 7 · exit 2 · 1.2 s · make");
        assert_eq!(job_line(&JobShown { running: true, ..job }), "job 7 · running · 1.2 s · make");
        assert_eq!(job_line(&JobShown { cancelled: true, ..job }), "job 7 · cancelled · 1.2 s · make");
        let stopping = JobShown { running: true, cancelling: true, ..job };
        assert_eq!(job_line(&stopping), "job 7 · cancelling · 1.2 s · make");
        assert!(cancel_note(&stopping, Surface::Cli).starts_with("[cancel in progress"));
        assert!(cancel_note(&JobShown { cancelled: true, ..job }, Surface::Mcp).starts_with("[cancelled"));
        assert!(cancel_note(&job, Surface::Cli).contains("already ended"));
        assert_eq!(session_tag("", false), " · no session");
        assert_eq!(session_tag("s1", true), " · session s1 (this one)");
        assert_eq!(
            jobs_answer(&[job], JobQuestion::List, false, Surface::Mcp),
            "job 7 · exit 2 · 1.2 s · make\n[output sent earlier; background_action=status job_id=7 sends it again]"
        );
        assert_eq!(job_started(7, Surface::Cli), "job 7 started; `lctx jobs status 7` shows it");
    }

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
