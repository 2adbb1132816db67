//! Turning a command's output into what the agent receives: compressed by
//! family, never larger than the original, the original archived whenever
//! anything was left out, and the run recorded in the ledger and session.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI64, Ordering};

use lean_ctx_common::framing::{self, CommandEnd};
use lean_ctx_store::{ArchiveEntry, ArchiveWriter, CommandKind, Event, Shape, WrittenBlob};

use super::exec::ExecOutcome;
use super::spool::{Output, Spilled};

use crate::engine::error::{EngineError, EngineResult};
use crate::engine::memory::{now_ms, store_error};
use crate::engine::{Caller, Engine};

/// Archive retention runs at most this often.
const SWEEP_EVERY_MS: i64 = 60_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shaped {
    pub text: String,
    pub family: String,
    pub shortened: bool,
    pub archive_id: Option<String>,
    pub raw_tokens: u64,
    pub sent_tokens: u64,
}

/// When the archive was last swept (ms since the epoch).
#[derive(Default)]
pub struct SweepClock(AtomicI64);

impl SweepClock {
    fn due(&self, now: i64) -> bool {
        let last = self.0.load(Ordering::Relaxed);
        now - last >= SWEEP_EVERY_MS && self.0.compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_ok()
    }
}

/// Whether `command` ran tests (a session's handoff names the last run of
/// each test command and how it ended): any program of its pipelines and lists does
/// (`cd t && pytest | tail -3` too, whose output as a whole is `tail`'s, and
/// a raw run alike). Their exit status is the line's only when a test runner
/// is the last program; otherwise the line's is another program's, and the
/// run is recorded with that program, so no handoff reads `tail`'s 0 as
/// "passed".
pub(super) fn command_kind(command: &str) -> CommandKind {
    let programs = lean_ctx_shell_compress::programs(command);
    let tests = |p: &lean_ctx_shell_compress::Program| p.runs_tests;
    if !programs.iter().any(tests) {
        return CommandKind::Other;
    }
    match programs.last() {
        Some(last) if !tests(last) => CommandKind::TestNotLast { last: last.name.clone() },
        _ => CommandKind::Test,
    }
}

/// The line naming the archive handle under shortened output.
pub fn handle_line(id: &str) -> String {
    format!("[full output archived: ctx_expand id={id} · lctx expand {id}]")
}

/// The line under shortened output whose original could not be archived.
fn not_archived_line(e: &EngineError) -> String {
    format!(
        "[full output not archived ({e}); what was left out is lost: rerun with raw=true (lctx run --raw) to see it]"
    )
}

/// The line under a spilled output saying what of it was shaped.
fn spilled_line(spilled: &Spilled) -> String {
    format!(
        "[output of {} bytes in {} lines, too large to shape whole; only in the archive: {}, apart from their \
         error, warning and file:line lines shown above]",
        spilled.bytes, spilled.lines, spilled.middle
    )
}

fn with_exit(text: &str, exit_code: i32) -> String {
    if exit_code == 0 {
        return text.to_string();
    }
    let sep = if text.is_empty() || text.ends_with('\n') { "" } else { "\n" };
    format!("{text}{sep}[exit:{exit_code}]")
}

impl Engine {
    /// Where archived outputs live.
    pub(crate) fn archive_dir(&self) -> PathBuf {
        self.dirs.data.join("archive")
    }

    /// Shapes a command's output as its spool left it: a whole output as
    /// [`Engine::shape_output`] does, a spilled one from what was kept of it. `answered`: the
    /// output is ctx_shell's answer to the command, which ends as [`framing::command_answer`]
    /// ends it — the ledger books that text as sent, since it is what the agent receives.
    pub fn shape_outcome(
        &self,
        caller: &Caller<'_>,
        project: &str,
        command: &str,
        outcome: &ExecOutcome,
        raw: bool,
        answered: bool,
    ) -> Shaped {
        let command = &self.masked_command(command);
        let exit_code = outcome.exit_code;
        let mut shaped = match &outcome.output {
            Output::Whole(bytes) => self.shaped_whole(caller, project, command, bytes, exit_code, raw),
            Output::Spilled(spilled) => self.shaped_spilled(caller, project, command, spilled, exit_code, raw),
        };
        if answered {
            let duration_ms = u64::try_from(outcome.duration.as_millis()).unwrap_or(u64::MAX);
            let end = CommandEnd { exit_code, timed_out: outcome.timed_out, duration_ms, raw };
            // Counted again only when the answer adds to the output (most runs add nothing).
            let answer = framing::command_answer(&shaped.text, &end);
            if answer != shaped.text {
                shaped.sent_tokens = self.tokens.count(&answer) as u64;
                // A raw output's exit line is part of what was asked for: still nothing saved.
                if raw && matches!(outcome.output, Output::Whole(_)) {
                    shaped.raw_tokens = shaped.sent_tokens;
                }
            }
        }
        // A background job's run is recorded in its session when it is found ended
        // (`Engine::record_finished_jobs`), which may be before its output is asked for.
        let ended = (!outcome.timed_out && !outcome.cancelled).then_some(exit_code);
        self.account(caller, project, answered.then_some((command.as_str(), ended)), &shaped);
        shaped
    }

    /// Shapes `output` of `command` and books it. `raw` returns it untouched.
    pub fn shape_output(
        &self,
        caller: &Caller<'_>,
        project: &str,
        command: &str,
        output: &[u8],
        exit_code: i32,
        raw: bool,
    ) -> Shaped {
        let command = &self.masked_command(command);
        let shaped = self.shaped_whole(caller, project, command, output, exit_code, raw);
        self.account(caller, project, Some((command, Some(exit_code))), &shaped);
        shaped
    }

    /// The command line with its secrets masked: it goes into the archive, session memory and
    /// logs.
    pub(super) fn masked_command(&self, command: &str) -> String {
        self.guard.redaction.apply(&self.config.get(), command.to_string()).0
    }

    /// Shapes `output` of (the masked) `command`, not yet booked. `raw` returns it untouched.
    fn shaped_whole(
        &self,
        caller: &Caller<'_>,
        project: &str,
        command: &str,
        output: &[u8],
        exit_code: i32,
        raw: bool,
    ) -> Shaped {
        // Secrets are masked before anything else sees the output: the
        // archive keeps what the agent was shown, never more.
        let config = self.config.get();
        let (text, redacted) = self.guard.redaction.apply(&config, String::from_utf8_lossy(output).into_owned());
        let output = if redacted > 0 { text.as_bytes() } else { output };
        let raw_tokens = self.tokens.count(&text) as u64;
        if raw {
            Shaped {
                text: text.to_string(),
                family: "raw".into(),
                shortened: false,
                archive_id: None,
                raw_tokens,
                sent_tokens: raw_tokens,
            }
        } else {
            let compressed = lean_ctx_shell_compress::compress(command, &text, exit_code);
            let plain = with_exit(&text, exit_code);
            let plain_tokens = self.tokens.count(&plain) as u64;
            let mut shaped = Shaped {
                text: plain,
                family: compressed.family.to_string(),
                shortened: false,
                archive_id: None,
                raw_tokens,
                sent_tokens: plain_tokens,
            };
            if compressed.shortened {
                // The command ran and its side effects happened: a full disk
                // or a broken archive costs the handle, never the answer.
                let archived = staged(&self.archive_dir(), output)
                    .map(|blob| self.archive(caller, project, command, compressed.family, exit_code, blob));
                let last_line = match &archived {
                    Ok(id) => handle_line(id),
                    Err(e) => {
                        tracing::warn!("output of `{command}` not archived: {e}");
                        not_archived_line(e)
                    }
                };
                let text = format!("{}\n{last_line}", compressed.text.trim_end_matches('\n'));
                let tokens = self.tokens.count(&text) as u64;
                // Never larger than what it replaces, last line included.
                if tokens < plain_tokens {
                    let archive_id = archived.ok();
                    shaped = Shaped { text, shortened: true, archive_id, sent_tokens: tokens, ..shaped };
                }
            }
            shaped
        }
    }

    /// Shapes an output too large to hold: its kept lines (redacted by the
    /// spool already) are compressed, and the original streamed while the
    /// command ran is archived; the answer always names the archive, since
    /// the middle was left out whether or not compression shortened the rest.
    fn shaped_spilled(
        &self,
        caller: &Caller<'_>,
        project: &str,
        command: &str,
        spilled: &Spilled,
        exit_code: i32,
        raw: bool,
    ) -> Shaped {
        let (body, family) = if raw {
            (spilled.view.clone(), "raw")
        } else {
            let compressed = lean_ctx_shell_compress::compress(command, &spilled.view, exit_code);
            (compressed.text, compressed.family)
        };
        let archived = match &spilled.blob {
            Ok(blob) => Ok(self.archive(caller, project, command, family, exit_code, blob.clone())),
            Err(e) => Err(EngineError::internal(e.clone())),
        };
        let last_line = match &archived {
            Ok(id) => handle_line(id),
            Err(e) => {
                tracing::warn!("output of `{command}` not archived: {e}");
                format!("[full output not archived ({e}); the lines left out above are lost]")
            }
        };
        let text = format!("{}\n{}\n{last_line}", body.trim_end_matches('\n'), spilled_line(spilled));
        let sent_tokens = self.tokens.count(&text) as u64;
        // A raw request saves nothing by its own choice: its baseline is the head and tail it
        // asked to be sent, as a raw output held whole is booked at what it sends.
        let raw_tokens = if raw { self.tokens.count(&body) as u64 } else { spilled.raw_tokens };
        Shaped { text, family: family.to_string(), shortened: true, archive_id: archived.ok(), raw_tokens, sent_tokens }
    }

    /// Books a shaped output sent again (a background job's, asked for once more): what the agent
    /// would otherwise have read is the same text, so it saves nothing, and the tokens it costs
    /// are sent all the same (a job polled three times was booked once).
    pub(super) fn account_resent(&self, caller: &Caller<'_>, project: &str, shaped: &Shaped) {
        self.book(caller, project, shaped, shaped.sent_tokens);
    }

    /// Records a shaped run in the ledger, and `run` (its command line and exit code) in the
    /// caller's session.
    fn account(&self, caller: &Caller<'_>, project: &str, run: Option<(&str, Option<i32>)>, shaped: &Shaped) {
        self.book(caller, project, shaped, shaped.raw_tokens);
        if let Some((command, exit_code)) = run {
            self.memory.ran(caller, project, (command, exit_code, command_kind(command)), now_ms());
        }
    }

    /// Books what an answer about background jobs sends beside the outputs in it (job lines,
    /// notes, hints), and the answer to starting one: sent, with nothing saved. Each output in
    /// it was booked when it was shaped or sent again; `outputs_sent` is their tokens. The job
    /// was started or cancelled already: a project that cannot be resolved now (its directory
    /// removed meanwhile) leaves the answer unbooked rather than the call failed.
    pub fn account_job_answer(&self, caller: &Caller<'_>, answer: &str, outputs_sent: u64) {
        let project = match self.scope_of(caller) {
            Ok(scope) => scope.root.display().to_string(),
            Err(e) => {
                tracing::warn!("a job answer was not booked: {e}");
                return;
            }
        };
        let framing = (self.tokens.count(answer) as u64).saturating_sub(outputs_sent);
        self.memory.record(&Event {
            at_ms: now_ms(),
            project: &project,
            session: (!caller.session.is_empty()).then_some(caller.session),
            tool: "shell",
            shape: Shape::Family("jobs"),
            raw_tokens: framing,
            sent_tokens: framing,
        });
    }

    /// One ledger event for `shaped` as sent, against `raw_tokens`.
    fn book(&self, caller: &Caller<'_>, project: &str, shaped: &Shaped, raw_tokens: u64) {
        self.memory.record(&Event {
            at_ms: now_ms(),
            project,
            session: (!caller.session.is_empty()).then_some(caller.session),
            tool: "shell",
            shape: Shape::Family(&shaped.family),
            raw_tokens,
            sent_tokens: shaped.sent_tokens,
        });
    }

    /// Archives the output `blob` holds and returns the id the answer names. The blob was
    /// written before (a failure costs the handle, and the answer says so); its row is written
    /// after the answer (`Memory::archive`), so the answer never waits for state.db's write lock.
    fn archive(
        &self,
        caller: &Caller<'_>,
        project: &str,
        command: &str,
        family: &str,
        exit_code: i32,
        blob: WrittenBlob,
    ) -> String {
        let dir = self.archive_dir();
        let entry = ArchiveEntry {
            kind: "shell",
            label: command,
            family,
            exit_code: Some(exit_code),
            session: (!caller.session.is_empty()).then_some(caller.session),
            project,
            text: &[],
        };
        // Sweep before the put: the output archived now must stay expandable
        // even when it alone exceeds archive_max_bytes (a later sweep may
        // expire it once it is the oldest).
        let now = now_ms();
        if self.archive_sweep.due(now) {
            let config = self.config.get();
            let max_age = i64::try_from(config.archive_max_age_days).unwrap_or(i64::MAX / 86_400_000) * 86_400_000;
            self.memory.sweep_archive(&dir, now, max_age, config.archive_max_bytes);
        }
        self.memory.archive(&dir, &entry, blob)
    }
}

/// `bytes` written to the archive's staging area under `dir`, as a streamed output is: ready to
/// be put by the writer, the file locked against the sweep until then.
fn staged(dir: &Path, bytes: &[u8]) -> EngineResult<WrittenBlob> {
    let mut writer = ArchiveWriter::create(dir).map_err(store_error)?;
    writer.write(bytes).map_err(store_error)?;
    writer.finish().map_err(store_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_runners_are_told_from_other_commands() {
        for command in [
            "cargo test -p x",
            "cargo nextest run",
            "go test ./...",
            "pytest -q",
            "npx jest",
            "npm test",
            "node --test",
            "node --test --test-reporter=spec",
        ] {
            assert_eq!(command_kind(command), CommandKind::Test, "{command}");
        }
        for command in ["cd tests && pytest -q", "pytest -q tests 2>&1", "sh -c 'cargo test'"] {
            assert_eq!(command_kind(command), CommandKind::Test, "{command}");
        }
        for command in ["cargo build", "git status", "ls -la", "make", "echo pytest | tail"] {
            assert_eq!(command_kind(command), CommandKind::Other, "{command}");
        }
    }

    /// A test run piped into a filter or followed by other commands is a test run whose exit
    /// status is not its own: the program that gave it is recorded instead of an outcome.
    #[test]
    fn a_test_run_that_is_not_last_names_the_program_whose_status_the_line_has() {
        let last = |name: &str| CommandKind::TestNotLast { last: name.into() };
        assert_eq!(command_kind("pytest -q tests 2>&1 | tail -3"), last("tail"));
        assert_eq!(command_kind("cd tests && pytest -x | tail -2"), last("tail"));
        assert_eq!(command_kind("cargo test; echo done"), last("echo"));
        assert_eq!(command_kind("npm test | tee log"), last("tee"));
    }

    #[test]
    fn exit_line_only_on_failure() {
        assert_eq!(with_exit("ok\n", 0), "ok\n");
        assert_eq!(with_exit("bad", 2), "bad\n[exit:2]");
        assert_eq!(with_exit("", 1), "[exit:1]");
    }
}
