//! ctx_expand: the archived original of shortened output, whole or in part.

use lean_ctx_store::{ArchiveHit, Event, Shape};
use regex::Regex;

use crate::engine::error::{EngineError, EngineResult};
use crate::engine::memory::actions::limit_or_default;
use crate::engine::memory::now_ms;
use crate::engine::{Caller, Engine};

/// Lines returned at most by one expand, so a huge original cannot flood
/// the agent by accident; ask for a window to see the rest.
const MAX_LINES: usize = 2_000;

#[derive(Debug, Default, Clone)]
pub struct ExpandParams {
    pub id: String,
    pub start_line: Option<u32>,
    pub end_line: Option<u32>,
    pub grep: String,
}

impl Engine {
    /// (text, total lines of the original). Recorded in the ledger at cost:
    /// expanding spends tokens to recover what shaping left out.
    pub fn expand(&self, p: &ExpandParams) -> EngineResult<(String, u64)> {
        let (text, total, project) = self.expand_text(p)?;
        // Archives kept before redaction was on may still hold secrets.
        let (text, _) = self.guard.redaction.apply(&self.config.get(), text);
        let tokens = self.tokens.count(&text) as u64;
        self.memory.record(&Event {
            at_ms: now_ms(),
            project: &project,
            session: None,
            tool: "expand",
            shape: Shape::Mode(if p.grep.is_empty() { "window" } else { "grep" }),
            raw_tokens: tokens,
            sent_tokens: tokens,
        });
        Ok((text, total))
    }

    fn expand_text(&self, p: &ExpandParams) -> EngineResult<(String, u64, String)> {
        let dir = self.dirs.data.join("archive");
        let archived = self.memory.with(|s| s.archive_get(&dir, p.id.trim()))?;
        let project = archived.meta.project.clone();
        let text = String::from_utf8_lossy(&archived.bytes);
        let lines: Vec<&str> = text.lines().collect();
        let total = lines.len() as u64;
        let start = p.start_line.unwrap_or(1).max(1) as usize;
        let end = p.end_line.map_or(lines.len(), |e| (e as usize).min(lines.len()));
        if start > end.max(1) && !lines.is_empty() {
            return Err(EngineError::invalid(format!("the output has {total} lines; line {start} is past the end")));
        }
        let whole = p.start_line.is_none() && p.end_line.is_none() && p.grep.is_empty();
        if whole && lines.len() <= MAX_LINES {
            // The exact original bytes (as text).
            return Ok((text.into_owned(), total, project));
        }
        let pattern = if p.grep.is_empty() {
            None
        } else {
            Some(Regex::new(&p.grep).map_err(|e| EngineError::invalid(format!("bad grep pattern: {e}")))?)
        };
        let mut out = String::new();
        let mut shown = 0usize;
        for (i, line) in lines.iter().enumerate().take(end).skip(start - 1) {
            if pattern.as_ref().is_some_and(|re| !re.is_match(line)) {
                continue;
            }
            if shown == MAX_LINES {
                out.push_str(&format!("[… more lines; ask start_line={} for the rest]\n", i + 1));
                break;
            }
            if pattern.is_some() {
                out.push_str(&format!("{}: {line}\n", i + 1));
            } else {
                out.push_str(line);
                out.push('\n');
            }
            shown += 1;
        }
        Ok((out, total, project))
    }

    /// The best `limit` (0: 20) archived outputs of the caller's project
    /// that match `query`, and how many match in all; other projects'
    /// outputs are noise here (an id still expands anywhere).
    pub fn archive_search(&self, caller: &Caller<'_>, query: &str, limit: u32) -> EngineResult<(Vec<ArchiveHit>, u64)> {
        if query.trim().is_empty() {
            return Err(EngineError::invalid("search needs some words to look for"));
        }
        let project = self.scope_of(caller)?.root.display().to_string();
        let dir = self.dirs.data.join("archive");
        self.memory
            .with(|s| {
                let hits = s.archive_search(&dir, query, Some(&project), limit_or_default(limit))?;
                let total = s.archive_matches(query, Some(&project))?;
                Ok((hits, total))
            })
            .map(|(hits, total)| {
                let config = self.config.get();
                let hits = hits
                    .into_iter()
                    .map(|hit| ArchiveHit { snippet: self.guard.redaction.apply(&config, hit.snippet).0, ..hit })
                    .collect();
                (hits, total)
            })
    }
}
