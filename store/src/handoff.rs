//! Handoff: a compact summary of a session for the next agent, always within a token budget.
//!
//! The summary is built from items ranked by importance: the header, the task, then up to
//! [`FIRST_TIER`] items of each list (next steps, last test runs, files edited, decisions,
//! findings, files read), then the rest up to the caller's per-list cap each. The longest prefix
//! of that ranking whose rendering fits the budget is rendered, so the least important items are
//! dropped first and the same session and budget always give the same text; a last line counts
//! what each list left out, so a handoff never reads as the whole session when it is not.
//!
//! Within a list, findings and decisions are newest first (later knowledge refines earlier), test
//! runs and edited files are newest first (the latest state is what the next agent inherits), files
//! read are most touched first. Next steps are shown in the order they were recorded (a plan reads
//! top down) but ranked newest first like the other notes, so a long plan loses its oldest steps,
//! which are the likeliest done, not its latest. Either way what is cut is the least recent (or
//! least touched), and the last line says so.

use crate::Store;
use crate::error::{Error, Result};
use crate::session::{CommandKind, CommandRun, EditResult, EditRun, MAX_NOTE_CHARS, Note, Session, SessionKey};

/// Items of each list that rank before any second item of another list.
const FIRST_TIER: usize = 3;
/// Longest text of one item but a note or the task, in characters; longer ones are cut with an
/// ellipsis.
const MAX_ITEM_CHARS: usize = 300;

/// Sections in the order they are displayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Section {
    Header,
    Task,
    NextSteps,
    Tests,
    Edited,
    Decisions,
    Findings,
    Files,
}

impl Section {
    /// The line that opens a list section; `None` for single-line sections.
    fn title(self) -> Option<&'static str> {
        match self {
            Section::Header | Section::Task => None,
            Section::NextSteps => Some("Next steps:"),
            Section::Tests => Some("Last test runs:"),
            Section::Edited => Some("Files edited:"),
            Section::Decisions => Some("Decisions:"),
            Section::Findings => Some("Findings:"),
            Section::Files => Some("Files most touched:"),
        }
    }

    /// What the items a list left out are, after their count, one and several; `None` for
    /// single-line sections.
    fn left_out(self) -> Option<(&'static str, &'static str)> {
        match self {
            Section::Header | Section::Task => None,
            Section::NextSteps => Some(("earlier next step", "earlier next steps")),
            Section::Tests => Some(("earlier test run", "earlier test runs")),
            Section::Edited => Some(("file edited earlier", "files edited earlier")),
            Section::Decisions => Some(("earlier decision", "earlier decisions")),
            Section::Findings => Some(("earlier finding", "earlier findings")),
            Section::Files => Some(("less touched file", "less touched files")),
        }
    }
}

struct Item {
    section: Section,
    line: String,
}

/// How much a handoff may show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandoffBudget {
    /// Tokens of the whole text, as the caller counts them.
    pub max_tokens: usize,
    /// Items of one list at most.
    pub per_section: usize,
}

impl Store {
    /// A summary of the session that fits `budget` as counted by `count_tokens` (empty if not
    /// even its header fits). Fails if the session does not exist.
    pub fn handoff(
        &self,
        key: SessionKey<'_>,
        budget: HandoffBudget,
        count_tokens: &dyn Fn(&str) -> usize,
    ) -> Result<String> {
        let session = self
            .session(key)?
            .ok_or_else(|| Error::SessionNotFound { id: key.id.to_owned(), project: key.project.to_owned() })?;
        let lists = lists(&session);
        let ranked = ranked_items(&session, &lists, budget.per_section);
        let mut fitting = String::new();
        for kept in 1..=ranked.len() {
            let mut text = render(&ranked[..kept]);
            text.push_str(&left_out(&lists, &ranked[..kept]));
            if count_tokens(&text) > budget.max_tokens {
                break;
            }
            fitting = text;
        }
        Ok(fitting)
    }
}

/// The last line of a handoff that shows only part of some lists: how many items each left out.
fn left_out(lists: &[(Section, Vec<String>)], kept: &[Item]) -> String {
    let parts: Vec<String> = lists
        .iter()
        .filter_map(|(section, lines)| {
            let shown = kept.iter().filter(|item| item.section == *section).count();
            let missing = lines.len().saturating_sub(shown);
            let (one, several) = section.left_out()?;
            (missing > 0).then(|| format!("{missing} {}", if missing == 1 { one } else { several }))
        })
        .collect();
    match parts.is_empty() {
        true => String::new(),
        false => format!("… not shown: {} (a larger limit shows more)\n", parts.join(", ")),
    }
}

/// Every list a handoff draws on, each most important first, whole.
fn lists(session: &Session) -> Vec<(Section, Vec<String>)> {
    let newest_first = |notes: &[Note]| notes.iter().rev().map(|note| clip_note(&note.text)).collect::<Vec<_>>();
    vec![
        (Section::NextSteps, newest_first(&session.next_steps)),
        (Section::Tests, test_runs(&session.commands)),
        (Section::Edited, edited_files(&session.edits)),
        (Section::Decisions, newest_first(&session.decisions)),
        (Section::Findings, newest_first(&session.findings)),
        (
            Section::Files,
            session
                .files
                .iter()
                .map(|file| format!("{} ×{} ({}, {} tokens)", clip(&file.path), file.count, file.mode, file.tokens))
                .collect(),
        ),
    ]
}

/// Every item the handoff may show, most important first: at most `per_section` of each list.
fn ranked_items(session: &Session, lists: &[(Section, Vec<String>)], per_section: usize) -> Vec<Item> {
    let info = &session.info;
    let mut ranked = vec![Item {
        section: Section::Header,
        line: format!("Handoff of session {} ({}) in {}", info.id, info.agent, info.project),
    }];
    if let Some(task) = info.task.as_deref().filter(|task| !task.trim().is_empty()) {
        ranked.push(Item { section: Section::Task, line: format!("Task: {}", clip_note(task)) });
    }
    for tier in [0..FIRST_TIER.min(per_section), FIRST_TIER.min(per_section)..per_section] {
        for (section, lines) in lists {
            for line in lines.iter().take(tier.end).skip(tier.start) {
                ranked.push(Item { section: *section, line: format!("- {line}") });
            }
        }
    }
    ranked
}

/// The latest run of each distinct test command, newest first, with how it ended.
fn test_runs(commands: &[CommandRun]) -> Vec<String> {
    let mut seen = Vec::new();
    let mut lines = Vec::new();
    for run in commands.iter().rev().filter(|run| run.kind.ran_tests()) {
        if seen.contains(&run.command.as_str()) {
            continue;
        }
        seen.push(run.command.as_str());
        let outcome = match (&run.kind, run.exit_code) {
            (_, None) => "did not finish (timed out or cancelled)".to_string(),
            // The line's status is its last program's (`| tail` exits 0 whatever the tests did).
            (CommandKind::TestNotLast { last }, Some(code)) => {
                format!("ran; outcome unknown: the line exited {code}, and it ends with `{last}`")
            }
            (_, Some(0)) => "passed".to_string(),
            (_, Some(code)) => format!("failed (exit {code})"),
        };
        lines.push(format!("{}: {outcome}", clip(&run.command)));
    }
    lines
}

/// Each file the session tried to edit, most recently edited first: how many edits were applied, how many failed, and whether the last attempt failed (the file
/// may not be as intended).
fn edited_files(edits: &[EditRun]) -> Vec<String> {
    let mut order: Vec<&str> = Vec::new();
    for edit in edits.iter().rev() {
        if !order.contains(&edit.path.as_str()) {
            order.push(&edit.path);
        }
    }
    order
        .into_iter()
        .map(|path| {
            let mine: Vec<&EditRun> = edits.iter().filter(|edit| edit.path == path).collect();
            let failed = mine.iter().filter(|edit| edit.result == EditResult::Failed).count();
            // "×2, 1 failed" read as one of two failing; each count says what it counts.
            let mut line = format!("{}: applied {}", clip(path), mine.len() - failed);
            if failed > 0 {
                line.push_str(&format!(", failed {failed}"));
            }
            if mine.last().is_some_and(|edit| edit.result == EditResult::Failed) {
                line.push_str(", the last attempt failed");
            }
            line
        })
        .collect()
}

/// Renders the kept items section by section, each list under its title, next steps in the
/// order they were recorded.
fn render(kept: &[Item]) -> String {
    let mut sections: Vec<Section> = kept.iter().map(|item| item.section).collect();
    sections.sort();
    sections.dedup();
    let mut text = String::new();
    for section in sections {
        let mut lines: Vec<&str> =
            kept.iter().filter(|item| item.section == section).map(|item| item.line.as_str()).collect();
        if section == Section::NextSteps {
            lines.reverse();
        }
        for line in section.title().into_iter().chain(lines) {
            text.push_str(line);
            text.push('\n');
        }
    }
    text
}

/// `text` on one line, cut to [`MAX_ITEM_CHARS`] characters.
fn clip(text: &str) -> String {
    one_line(text, MAX_ITEM_CHARS).0
}

/// A note or the task on one line, whole: those recorded since notes hold at most
/// [`MAX_NOTE_CHARS`] are; one recorded before is cut there, saying how long it is.
fn clip_note(text: &str) -> String {
    match one_line(text, MAX_NOTE_CHARS) {
        (line, Some(total)) => format!("{line} [{MAX_NOTE_CHARS} of {total} characters]"),
        (line, None) => line,
    }
}

/// `text` on one line, cut to `max` characters with an ellipsis, with its length when cut.
fn one_line(text: &str, max: usize) -> (String, Option<usize>) {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(max) {
        Some((cut, _)) => (format!("{}…", &line[..cut]), Some(line.chars().count())),
        None => (line, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::now_ms;
    use crate::session::NoteKind;
    use crate::testutil::temp_store;

    const S1: SessionKey<'static> = SessionKey { project: "/repo", id: "s1" };

    /// A handoff's usual cap per list, and `max_tokens`.
    fn budget(max_tokens: usize) -> HandoffBudget {
        HandoffBudget { max_tokens, per_section: 10 }
    }

    fn words(text: &str) -> usize {
        text.split_whitespace().count()
    }

    fn busy_session(store: &mut Store) {
        store.touch_session(S1, "claude", now_ms()).unwrap();
        store.set_task(S1, "make the parser accept CRLF input").unwrap();
        for i in 0..12 {
            store.add_note(S1, NoteKind::Finding, &format!("finding number {i} about the lexer")).unwrap();
            store.add_note(S1, NoteKind::Decision, &format!("decision number {i}")).unwrap();
            store.add_note(S1, NoteKind::NextStep, &format!("step number {i}")).unwrap();
            for _ in 0..=i {
                store.record_file(S1, &format!("src/file{i}.rs"), "full", 10, now_ms()).unwrap();
            }
        }
    }

    #[test]
    fn one_item_left_out_is_counted_in_the_singular() {
        let (_dir, mut store) = temp_store();
        store.touch_session(S1, "claude", now_ms()).unwrap();
        for i in 0..11 {
            store.add_note(S1, NoteKind::NextStep, &format!("step number {i}")).unwrap();
        }
        let text = store.handoff(S1, budget(100_000), &words).unwrap();
        assert!(text.ends_with("… not shown: 1 earlier next step (a larger limit shows more)\n"), "{text}");
    }

    #[test]
    fn fits_every_budget_and_grows_with_it() {
        let (_dir, mut store) = temp_store();
        busy_session(&mut store);
        for i in 0..12 {
            let result = if i % 4 == 0 { EditResult::Failed } else { EditResult::Applied };
            store.record_edit(S1, &format!("src/edited{i}.rs"), result, now_ms()).unwrap();
            store
                .record_command(S1, &format!("cargo test case_{i}"), Some(i % 2), CommandKind::Test, now_ms())
                .unwrap();
        }
        let everything = store.handoff(S1, budget(100_000), &words).unwrap();
        assert_eq!(everything.matches("- cargo test case_").count(), 10, "{everything}");
        assert_eq!(everything.matches("- src/edited").count(), 10, "{everything}");
        assert!(everything.contains("- cargo test case_11: failed (exit 1)\n- cargo test case_10: passed"));
        // Past the cap of ten a list says how many it left out.
        assert!(everything.ends_with("… not shown: 2 earlier next steps, 2 earlier test runs, 2 files edited earlier, 2 earlier decisions, 2 earlier findings, 2 less touched files (a larger limit shows more)\n"), "{everything}");
        let mut previous = String::new();
        for max_tokens in 0..400 {
            let text = store.handoff(S1, budget(max_tokens), &words).unwrap();
            assert!(words(&text) <= max_tokens, "budget {max_tokens}: {text}");
            for line in previous.lines().filter(|line| !line.starts_with("… not shown")) {
                assert!(text.contains(line), "budget {max_tokens} dropped {line:?} that a smaller budget kept");
            }
            assert_eq!(text, store.handoff(S1, budget(max_tokens), &words).unwrap(), "deterministic");
            previous = text;
        }
        assert_eq!(store.handoff(S1, budget(0), &words).unwrap(), "");
        // A larger cap shows every item, and says nothing is left out.
        let all = store.handoff(S1, HandoffBudget { max_tokens: 100_000, per_section: 50 }, &words).unwrap();
        assert_eq!(all.matches("- cargo test case_").count(), 12, "{all}");
        assert!(!all.contains("not shown"), "{all}");
    }

    #[test]
    fn full_budget_shows_every_section_in_order() {
        let (_dir, mut store) = temp_store();
        busy_session(&mut store);
        let text = store.handoff(S1, budget(10_000), &words).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Handoff of session s1 (claude) in /repo");
        assert_eq!(lines[1], "Task: make the parser accept CRLF input");
        assert_eq!(lines[2], "Next steps:");
        // The latest ten of twelve steps, in the order they were recorded: the oldest are cut.
        assert_eq!(lines[3], "- step number 2");
        assert_eq!(lines[12], "- step number 11");
        assert_eq!(lines.iter().filter(|line| line.starts_with("- step")).count(), 10);
        let decisions = lines.iter().position(|line| *line == "Decisions:").unwrap();
        assert_eq!(lines[decisions + 1], "- decision number 11", "newest decision first");
        let files = lines.iter().position(|line| *line == "Files most touched:").unwrap();
        assert_eq!(lines[files + 1], "- src/file11.rs ×12 (full, 120 tokens)");
        let findings = lines.iter().position(|line| *line == "Findings:").unwrap();
        assert!(decisions < findings && findings < files, "{text}");
    }

    #[test]
    fn small_budgets_drop_the_least_important_first() {
        let (_dir, mut store) = temp_store();
        busy_session(&mut store);
        // Header (7 words) + task (7 words) + the 3 latest next steps, oldest of them first (with
        // title: 2 + 3 * 4 words), and the line saying what was left out (22 words).
        let text = store.handoff(S1, budget(50), &words).unwrap();
        assert!(text.contains("Task: make the parser"), "{text}");
        assert!(text.contains("- step number 9\n- step number 10\n- step number 11\n"), "{text}");
        assert!(!text.contains("Decisions:") && !text.contains("Files"), "{text}");
        assert!(text.ends_with("… not shown: 9 earlier next steps, 12 earlier decisions, 12 earlier findings, 12 less touched files (a larger limit shows more)\n"), "{text}");
        // A first-tier file outranks a fourth next step.
        let text = store.handoff(S1, budget(104), &words).unwrap();
        assert!(text.contains("src/file11.rs") && !text.contains("step number 8"), "{text}");
    }

    /// A note or the task is shown whole, on one line: one past what a handoff shows whole is
    /// refused (a QA pass stored 100,000 characters and read back 300, unsaid). Other items (a
    /// command line, a path) are cut with an ellipsis.
    #[test]
    fn notes_are_shown_whole_and_flattened_and_long_items_clipped() {
        let (_dir, mut store) = temp_store();
        store.touch_session(S1, "a", now_ms()).unwrap();
        let task = format!("line one\nline two {}", "x".repeat(MAX_NOTE_CHARS - 18));
        store.set_task(S1, &task).unwrap();
        let long = "y".repeat(MAX_NOTE_CHARS + 1);
        let refused = store.add_note(S1, NoteKind::Finding, &long).unwrap_err().to_string();
        assert!(
            refused.contains("the finding is 1001 characters; a session's finding holds at most 1000"),
            "{refused}"
        );
        assert!(store.set_task(S1, &long).is_err());
        store
            .record_command(S1, &format!("cargo test {}", "z".repeat(400)), Some(0), CommandKind::Test, now_ms())
            .unwrap();
        let text = store.handoff(S1, budget(10_000), &|text: &str| text.len()).unwrap();
        let shown = text.lines().nth(1).unwrap();
        assert_eq!(shown, format!("Task: {}", task.replace('\n', " ")));
        let command = text.lines().find(|line| line.starts_with("- cargo test")).unwrap();
        assert!(command.ends_with("…: passed"), "{command}");
        assert_eq!(command.chars().count(), "- ".len() + MAX_ITEM_CHARS + 1 + ": passed".len());
        // A note stored before the limit is cut there, saying how long it was.
        let cut = clip_note(&"w".repeat(MAX_NOTE_CHARS + 500));
        assert!(cut.ends_with("… [1000 of 1500 characters]"), "{cut}");
    }

    #[test]
    fn edits_and_test_runs_are_handed_over_newest_first() {
        let (_dir, mut store) = temp_store();
        store.touch_session(S1, "claude", now_ms()).unwrap();
        store.record_edit(S1, "src/a.rs", EditResult::Applied, now_ms()).unwrap();
        store.record_edit(S1, "src/b.rs", EditResult::Failed, now_ms()).unwrap();
        store.record_edit(S1, "src/a.rs", EditResult::Failed, now_ms()).unwrap();
        store.record_edit(S1, "src/a.rs", EditResult::Applied, now_ms()).unwrap();
        store.record_edit(S1, "src/c.rs", EditResult::Applied, now_ms()).unwrap();
        store.record_edit(S1, "src/b.rs", EditResult::Failed, now_ms()).unwrap();
        store.record_command(S1, "cargo test -p x", Some(101), CommandKind::Test, now_ms()).unwrap();
        store.record_command(S1, "git status", Some(0), CommandKind::Other, now_ms()).unwrap();
        store.record_command(S1, "pytest -q", None, CommandKind::Test, now_ms()).unwrap();
        store.record_command(S1, "cargo test -p x", Some(0), CommandKind::Test, now_ms()).unwrap();
        let piped = CommandKind::TestNotLast { last: "tail".into() };
        store.record_command(S1, "pytest -q 2>&1 | tail -3", Some(0), piped, now_ms()).unwrap();
        let text = store.handoff(S1, budget(10_000), &words).unwrap();
        let expected = "Handoff of session s1 (claude) in /repo\n\
                        Last test runs:\n\
                        - pytest -q 2>&1 | tail -3: ran; outcome unknown: the line exited 0, and it ends with `tail`\n\
                        - cargo test -p x: passed\n\
                        - pytest -q: did not finish (timed out or cancelled)\n\
                        Files edited:\n\
                        - src/b.rs: applied 0, failed 2, the last attempt failed\n\
                        - src/c.rs: applied 1\n\
                        - src/a.rs: applied 2, failed 1\n";
        assert_eq!(text, expected);
    }

    #[test]
    fn unknown_session_is_an_error() {
        let (_dir, store) = temp_store();
        assert!(matches!(
            store.handoff(SessionKey { project: "/repo", id: "nope" }, budget(400), &words),
            Err(Error::SessionNotFound { .. })
        ));
    }
}
