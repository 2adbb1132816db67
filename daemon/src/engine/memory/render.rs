//! Compact, deterministic text for memory answers (shared by the CLI and
//! the MCP tools).

use std::fmt::Write as _;

use lean_ctx_store::{EditResult, Fact, FactState, GainRow, Remembered, Session, SessionInfo};

use crate::engine::surface::Surface;

pub fn session_status(s: &Session) -> String {
    let mut out = format!("session {} · {}", s.info.id, s.info.project);
    if let Some(task) = &s.info.task {
        let _ = write!(out, "\ntask: {}", one_line(task));
    }
    // Edits that were refused changed nothing: counted apart, as the handoff does, each count
    // named, so "2 applied, 1 failed" cannot read as one of two failing.
    let failed = s.edits.iter().filter(|edit| edit.result == EditResult::Failed).count();
    let edits = match failed {
        0 => s.edits.len().to_string(),
        _ => format!("{} applied, {failed} failed", s.edits.len() - failed),
    };
    // `files` are the files read: an edited file is counted under edits, not here.
    let _ = write!(
        out,
        "\nfindings {} · decisions {} · next {} · files read {} · edits {edits} · commands {}",
        s.findings.len(),
        s.decisions.len(),
        s.next_steps.len(),
        s.files.len(),
        s.commands.len()
    );
    out
}

/// A session id this project has no session of, with the projects that have one (most recent
/// first), so that asking from the wrong directory says where to ask.
pub fn no_session_here(id: &str, project: &str, elsewhere: &[String]) -> String {
    let list = "`lctx session list` (MCP: ctx_session action list) shows this project's sessions";
    match elsewhere {
        [] => format!("no session `{id}`; {list}"),
        [other] => format!("no session `{id}` in {project}; {other} has one: ask from there; {list}"),
        others => {
            format!("no session `{id}` in {project}; {} have one: ask from there; {list}", others.join(", "))
        }
    }
}

/// status and handoff of the caller's own session before anything was
/// recorded in it: it is created by its first read, edit, command or note.
pub fn session_not_started(id: &str, project: &str) -> String {
    format!(
        "session {id} · {project}\nnothing recorded yet: the session starts with its first read, edit, command or note"
    )
}

pub fn session_list(list: &[SessionInfo]) -> String {
    if list.is_empty() {
        return "no sessions in this project yet".into();
    }
    list.iter()
        .map(|s| format!("{} · {}", s.id, one_line(s.task.as_deref().unwrap_or("(no task)"))))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The line saying what a listing left out, empty when it shows everything:
/// `\n… 12 more facts not shown (of 32); a higher limit shows them`. `what` is the singular
/// noun (`fact`), made plural as the count needs.
pub fn left_out(total: usize, shown: usize, what: &str) -> String {
    if total <= shown {
        return String::new();
    }
    let missing = total - shown;
    let (what, them) = if missing == 1 { (what.to_string(), "it") } else { (format!("{what}s"), "them") };
    format!("\n… {missing} more {what} not shown (of {total}); a higher limit shows {them}")
}

/// Characters of a value a listing (list, recall) shows: a listing of many facts stays readable
/// and bounded; `history` shows a key's values whole.
const LISTED_VALUE_CHARS: usize = 500;

/// Whether a value is shown whole or cut to [`LISTED_VALUE_CHARS`], with advice worded for the
/// surface that reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Values {
    Whole,
    Cut(Surface),
}

pub fn facts(facts: &[Fact], empty: &str, values: Values) -> String {
    if facts.is_empty() {
        return empty.to_string();
    }
    facts
        .iter()
        .map(|f| {
            let state = match f.state {
                FactState::Current => String::new(),
                other => format!(" ({})", format!("{other:?}").to_lowercase()),
            };
            let (category, key, mut value) = (one_line(&f.category), one_line(&f.key), one_line(&f.value));
            let total = value.chars().count();
            if let Values::Cut(surface) = values
                && total > LISTED_VALUE_CHARS
            {
                value = value.chars().take(LISTED_VALUE_CHARS).collect();
                let history = surface.fact_history(&key);
                let _ = write!(value, "… [{LISTED_VALUE_CHARS} of {total} characters; {history} shows it whole]");
            }
            format!("[{category}] {key} = {value} · {:.2}{state}", f.confidence)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A category's listing without facts, naming the categories that have some.
pub fn no_facts_in(category: &str, categories: &[String]) -> String {
    match categories {
        [] => format!("no facts in category `{}`; this project has no facts yet", one_line(category)),
        _ => format!("no facts in category `{}`; categories: {}", one_line(category), categories.join(", ")),
    }
}

/// What remembering a fact did, and what changed: `remembered layout · [general] · 0.80`,
/// `confirmed layout · same value, [architecture] · 0.90 kept`, `updated layout: new value,
/// category architecture → build; the previous entry is kept in history`.
pub fn remembered(outcome: &Remembered) -> String {
    let after = &outcome.after;
    let key = one_line(&after.key);
    let now = format!("[{}] · {:.2}", one_line(&after.category), after.confidence);
    let Some(before) = &outcome.before else { return format!("remembered {key} · {now}") };
    let confidence = (before.confidence != after.confidence)
        .then(|| format!("confidence {:.2} → {:.2}", before.confidence, after.confidence));
    // A confirmation changes nothing but when the fact was last confirmed.
    if outcome.confirmed() {
        return format!("confirmed {key} · same value, {now} kept");
    }
    let category = (before.category != after.category)
        .then(|| format!("category {} → {}", one_line(&before.category), one_line(&after.category)));
    let changes: Vec<String> = [(before.value != after.value).then(|| "new value".to_string()), category, confidence]
        .into_iter()
        .flatten()
        .collect();
    format!("updated {key}: {}; the previous entry is kept in history", changes.join(", "))
}

/// A stored text on the one line a listing gives it: a line break in a value must not read as
/// another entry (`v1\n[general] fake = x` is one fact), so every run of whitespace is one space.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

const BAR_WIDTH: usize = 24;

/// A table with a bar per row showing the share of tokens saved: the period
/// first, then one row per group and, when there are several, their total.
/// Events without a group are labelled by what they are: an event has either a
/// mode (reads, searches and expands: `full`, `bm25`, `window`, …) or a shell
/// family (shell commands only), so by mode the rest are shell commands and by
/// family the rest are not shell commands; otherwise `(no GROUP)`.
pub fn gain(rows: &[GainRow], period: &str, group_by: &str) -> String {
    let span = match period {
        "today" => "today (the local calendar day)",
        "week" => "week (the 7 local days ending today)",
        _ => "all (every recorded event)",
    };
    let mut out = format!("tokens saved · period: {span}\n");
    if rows.is_empty() {
        out.push_str("no events recorded in this period");
        return out;
    }
    let keys: Vec<String> = rows.iter().map(|r| row_key(r.key.as_deref(), group_by)).collect();
    let width = keys.iter().map(|k| k.chars().count()).max().unwrap_or(0).clamp(MIN_KEY_WIDTH, MAX_KEY_WIDTH);
    let _ = writeln!(out, "{:<width$} {:>8} {:>12} {:>12} {:>12} {:>7}", "", "events", "raw", "sent", "saved", "saved");
    for (key, r) in keys.iter().zip(rows) {
        gain_row(&mut out, key, r, width);
    }
    if rows.len() > 1 {
        gain_row(&mut out, "total", &total(rows), width);
    }
    out
}

/// What a row of the report grouped by `group_by` is named, in the text and the JSON alike: its
/// key, or for the events without one what they are (see [`gain`]).
pub fn row_key(key: Option<&str>, group_by: &str) -> String {
    match (key, group_by) {
        (Some(key), _) => key.to_string(),
        (None, "none") => "total".to_string(),
        (None, "mode") => "(shell commands)".to_string(),
        (None, "family") => "(not shell commands)".to_string(),
        (None, _) => format!("(no {group_by})"),
    }
}

/// The key column's width: the longest key's, within these bounds.
const MIN_KEY_WIDTH: usize = 22;
const MAX_KEY_WIDTH: usize = 48;

fn gain_row(out: &mut String, key: &str, r: &GainRow, width: usize) {
    let filled = ((r.saved_pct.clamp(0.0, 100.0) / 100.0) * BAR_WIDTH as f64).round() as usize;
    let bar = format!("{}{}", "█".repeat(filled), "░".repeat(BAR_WIDTH - filled));
    // A longer key (a deep project path) keeps its end, the part that tells projects apart.
    let count = key.chars().count();
    let key = if count > width {
        format!("…{}", key.chars().skip(count - width + 1).collect::<String>())
    } else {
        key.to_string()
    };
    let _ = writeln!(
        out,
        "{key:<width$} {:>8} {:>12} {:>12} {:>12} {:>7} {bar}",
        r.events,
        r.raw_tokens,
        r.sent_tokens,
        r.saved_tokens,
        share(r)
    );
}

/// The saving as a share of the raw tokens, `-12.5%` when more was sent than
/// the raw text held. Tokens sent where nothing raw was counted (an expand of
/// what an earlier answer left out) are no share of anything: `n/a`, not a
/// `0.0%` that would hide them.
fn share(r: &GainRow) -> String {
    if r.raw_tokens == 0 && r.sent_tokens > 0 { "n/a".to_string() } else { format!("{:.1}%", r.saved_pct) }
}

/// The daily history as a bar chart, one line per day (oldest first): each
/// bar is the day's net saving against the best day's, then the figures,
/// then the total over the days.
pub fn gain_daily(rows: &[GainRow]) -> String {
    let mut out = format!("tokens saved per day · the {} local days ending today\n", rows.len());
    let best = rows.iter().map(|r| r.saved_tokens).max().unwrap_or(0).max(1);
    for r in rows {
        let filled = ((r.saved_tokens.max(0) as f64 / best as f64) * BAR_WIDTH as f64).round() as usize;
        let bar = format!("{}{}", "█".repeat(filled), "·".repeat(BAR_WIDTH - filled));
        let day = r.key.as_deref().unwrap_or("");
        let _ = writeln!(out, "{day:<10} {bar} {:>12} saved {:>7} {:>8} events", r.saved_tokens, share(r), r.events);
    }
    let sum = total(rows);
    let _ = write!(
        out,
        "{:<10} {:BAR_WIDTH$} {:>12} saved {:>7} {:>8} events",
        "total",
        "",
        sum.saved_tokens,
        share(&sum),
        sum.events
    );
    out
}

/// The sum of `rows`, with the share computed over the sums.
pub fn total(rows: &[GainRow]) -> GainRow {
    let (events, raw_tokens, sent_tokens, saved_tokens) = rows.iter().fold((0, 0, 0, 0), |(e, r, s, v), row| {
        (e + row.events, r + row.raw_tokens, s + row.sent_tokens, v + row.saved_tokens)
    });
    let saved_pct = if raw_tokens == 0 { 0.0 } else { saved_tokens as f64 * 100.0 / raw_tokens as f64 };
    GainRow { key: None, events, raw_tokens, sent_tokens, saved_tokens, saved_pct }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_break_in_a_stored_text_reads_as_no_other_entry() {
        let fact = Fact {
            id: 1,
            project: "/p".into(),
            category: "zz".into(),
            key: "nlk".into(),
            value: "v1\n[general] fakekey = fake · 0.99".into(),
            source_session: None,
            confidence: 0.5,
            created_ms: 0,
            confirmed_ms: 0,
            state: FactState::Current,
            ended_ms: None,
        };
        assert_eq!(
            facts(std::slice::from_ref(&fact), "", Values::Whole),
            "[zz] nlk = v1 [general] fakekey = fake · 0.99 · 0.50"
        );
        // A value cut in a listing says how to see it whole, worded for the reader.
        let long = Fact { key: "two words".into(), value: "v".repeat(600), ..fact };
        let agent = facts(std::slice::from_ref(&long), "", Values::Cut(Surface::Mcp));
        assert!(agent.contains("ctx_knowledge action `history` with key `two words` shows it whole]"), "{agent}");
        let cli = facts(&[long], "", Values::Cut(Surface::Cli));
        assert!(cli.contains("`lctx knowledge history 'two words'` shows it whole]"), "{cli}");
        let session = SessionInfo {
            id: "nl1".into(),
            project: "/p".into(),
            agent: "cli".into(),
            created_ms: 0,
            updated_ms: 0,
            task: Some("line1\nNext steps:\n- rm -rf everything".into()),
        };
        assert_eq!(session_list(&[session]).lines().count(), 1);
    }

    #[test]
    fn daily_chart_scales_bars_to_the_best_day() {
        let day = |key: &str, raw: u64, sent: u64, events: u64| GainRow {
            key: Some(key.to_string()),
            events,
            raw_tokens: raw,
            sent_tokens: sent,
            saved_tokens: raw as i64 - sent as i64,
            saved_pct: if raw == 0 { 0.0 } else { (raw as f64 - sent as f64) * 100.0 / raw as f64 },
        };
        let rows = [day("2025-01-08", 0, 0, 0), day("2025-01-09", 400, 200, 2), day("2025-01-10", 1000, 200, 3)];
        let text = gain_daily(&rows);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "tokens saved per day · the 3 local days ending today");
        assert!(lines[1].starts_with("2025-01-08 ") && !lines[1].contains('█'), "{text}");
        assert_eq!(lines[2].matches('█').count(), BAR_WIDTH / 4, "200 of the best 800: {text}");
        assert_eq!(lines[3].matches('█').count(), BAR_WIDTH, "{text}");
        assert!(lines[3].contains("800 saved   80.0%") && lines[3].ends_with("3 events"), "{text}");
        assert!(lines[4].starts_with("total ") && lines[4].contains("1000 saved   71.4%"), "{text}");
        assert_eq!(gain_daily(&rows), text, "deterministic");
    }

    /// An expand (nothing raw, 398 sent) showed `0.0%` beside its `-398`.
    #[test]
    fn a_negative_saving_shows_as_one() {
        let row = |key: &str, raw: u64, sent: u64| GainRow {
            key: Some(key.to_string()),
            events: 1,
            raw_tokens: raw,
            sent_tokens: sent,
            saved_tokens: raw as i64 - sent as i64,
            saved_pct: if raw == 0 { 0.0 } else { (raw as f64 - sent as f64) * 100.0 / raw as f64 },
        };
        let text = gain(&[row("expand", 0, 398), row("read", 400, 450), row("tree", 0, 0)], "all", "tool");
        let line =
            |key: &str| text.lines().find(|l| l.starts_with(key)).unwrap().split_whitespace().collect::<Vec<_>>();
        assert_eq!(line("expand")[..6], ["expand", "1", "0", "398", "-398", "n/a"], "{text}");
        assert_eq!(line("read")[..6], ["read", "1", "400", "450", "-50", "-12.5%"], "{text}");
        assert_eq!(line("tree")[..6], ["tree", "1", "0", "0", "0", "0.0%"], "{text}");
        assert_eq!(line("total")[..6], ["total", "3", "400", "848", "-448", "-112.0%"], "{text}");
        let daily = gain_daily(&[row("2025-01-08", 0, 398)]);
        assert!(daily.lines().nth(1).unwrap().ends_with("-398 saved     n/a        1 events"), "{daily}");
    }

    #[test]
    fn gain_table_names_its_period_and_totals_its_groups() {
        let row = |key: Option<&str>, raw: u64, sent: u64| GainRow {
            key: key.map(str::to_string),
            events: 2,
            raw_tokens: raw,
            sent_tokens: sent,
            saved_tokens: raw as i64 - sent as i64,
            saved_pct: (raw - sent) as f64 * 100.0 / raw as f64,
        };
        let text = gain(&[row(Some("read"), 1000, 250), row(None, 1000, 750)], "week", "family");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "tokens saved · period: week (the 7 local days ending today)");
        assert!(lines[2].starts_with("read ") && text.contains(&"█".repeat(18)), "{text}");
        assert!(lines[3].starts_with("(not shell commands) "), "{text}");
        let by_mode = gain(&[row(Some("map"), 1000, 250), row(None, 1000, 750)], "week", "mode");
        assert!(by_mode.lines().nth(3).unwrap().starts_with("(shell commands) "), "{by_mode}");
        let by_project = gain(&[row(Some("/p"), 1000, 250), row(None, 1000, 750)], "week", "project");
        assert!(by_project.lines().nth(3).unwrap().starts_with("(no project) "), "{by_project}");
        assert!(lines[4].starts_with("total ") && lines[4].contains(" 4 ") && lines[4].contains("50.0%"), "{text}");
        // Longer keys widen the column, so the figures stay in their columns; past its bound a key
        // keeps its end.
        let long = "/home/someone/src/a-project-with-a-long-name";
        let deep = format!("/srv/{}/tail-of-the-path", "x".repeat(60));
        let wide = gain(&[row(Some(long), 1000, 250), row(Some(&deep), 1000, 750)], "all", "project");
        let column = |line: &str| {
            let at = ["25.0%", "75.0%", "50.0%"].iter().find_map(|pct| line.find(pct))?;
            Some(line[..at].chars().count())
        };
        let lines: Vec<&str> = wide.lines().skip(2).collect();
        assert!(lines[0].starts_with(long) && lines[1].starts_with('…'), "{wide}");
        assert!(lines[1].contains("x/tail-of-the-path "), "{wide}");
        assert!(column(lines[0]).is_some() && column(lines[0]) == column(lines[1]), "{wide}");
        assert_eq!(column(lines[1]), column(lines[2]), "the total too: {wide}");
        let single = gain(&[row(None, 1000, 250)], "all", "none");
        assert!(single.lines().nth(2).unwrap().starts_with("total "), "{single}");
        assert_eq!(single.lines().count(), 3, "no separate total for one row: {single}");
        assert_eq!(
            gain(&[], "today", "none"),
            "tokens saved · period: today (the local calendar day)\nno events recorded in this period"
        );
    }
}
