//! Compact, deterministic text for memory answers (shared by the CLI and
//! the MCP tools).

use std::fmt::Write as _;

use lean_ctx_store::{Fact, FactState, GainRow, Session, SessionInfo};

pub fn session_status(s: &Session) -> String {
    let mut out = format!("session {} · {}", s.info.id, s.info.project);
    if let Some(task) = &s.info.task {
        let _ = write!(out, "\ntask: {task}");
    }
    let _ = write!(
        out,
        "\nfindings {} · decisions {} · next {} · files {} · edits {} · commands {}",
        s.findings.len(),
        s.decisions.len(),
        s.next_steps.len(),
        s.files.len(),
        s.edits.len(),
        s.commands.len()
    );
    out
}

pub fn session_list(list: &[SessionInfo]) -> String {
    if list.is_empty() {
        return "no sessions in this project yet".into();
    }
    list.iter()
        .map(|s| format!("{} · {}", s.id, s.task.as_deref().unwrap_or("(no task)")))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The line saying what a listing left out, empty when it shows everything:
/// `\n… 12 more facts not shown (of 32); a higher limit shows them`.
pub fn left_out(total: usize, shown: usize, what: &str, limited: bool) -> String {
    if total <= shown {
        return String::new();
    }
    let how = if limited { "; a higher limit shows them" } else { "" };
    format!("\n… {} more {what} not shown (of {total}){how}", total - shown)
}

pub fn facts(facts: &[Fact], empty: &str) -> String {
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
            format!("[{}] {} = {} · {:.2}{state}", f.category, f.key, f.value, f.confidence)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

const BAR_WIDTH: usize = 24;

/// A table with a bar per row showing the share of tokens saved.
pub fn gain(rows: &[GainRow]) -> String {
    if rows.is_empty() {
        return "no events recorded yet".into();
    }
    let mut out = String::new();
    let _ = writeln!(out, "{:<22} {:>8} {:>12} {:>12} {:>12} {:>7}", "", "events", "raw", "sent", "saved", "saved");
    for r in rows {
        let key = r.key.as_deref().unwrap_or("(all)");
        let filled = ((r.saved_pct.clamp(0.0, 100.0) / 100.0) * BAR_WIDTH as f64).round() as usize;
        let bar = format!("{}{}", "█".repeat(filled), "░".repeat(BAR_WIDTH - filled));
        let _ = writeln!(
            out,
            "{key:<22} {:>8} {:>12} {:>12} {:>12} {:>6.1}% {bar}",
            r.events, r.raw_tokens, r.sent_tokens, r.saved_tokens, r.saved_pct
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gain_table_has_a_bar_per_row() {
        let rows = vec![GainRow {
            key: Some("read".into()),
            events: 2,
            raw_tokens: 1000,
            sent_tokens: 250,
            saved_tokens: 750,
            saved_pct: 75.0,
        }];
        let text = gain(&rows);
        assert!(text.contains("read"));
        assert!(text.contains(&"█".repeat(18)), "{text}");
        assert_eq!(gain(&[]), "no events recorded yet");
    }
}
