//! ctx_expand: the archived original of shortened output, whole or in part.

use lean_ctx_store::{ArchiveHit, Event, Shape};
use regex::Regex;

use crate::engine::char_boundary;
use crate::engine::error::{EngineError, EngineResult};
use crate::engine::memory::actions::limit_or_default;
use crate::engine::memory::{now_ms, store_error};
use crate::engine::surface::Surface;
use crate::engine::{Caller, Engine};

/// Lines returned at most by one expand, so a huge original cannot flood
/// the agent by accident; ask for a window to see the rest.
const MAX_LINES: usize = 2_000;
/// Bytes returned at most by one expand: well under the 16 MiB message
/// limit, and all the memory an expand of any output costs.
const MAX_BYTES: usize = 8 << 20;

#[derive(Debug, Default, Clone)]
pub struct ExpandParams {
    pub id: String,
    pub start_line: Option<u32>,
    pub end_line: Option<u32>,
    pub grep: String,
    /// At most this many lines (matching lines with grep); 0: [`MAX_LINES`].
    pub limit: u32,
    /// Who the "more lines" advice is worded for.
    pub surface: Surface,
}

impl Engine {
    /// (text, total lines of the original). Recorded in the ledger as a
    /// spend with nothing raw: expanding sends what shaping left out, and the
    /// saving booked when the output was shaped is that much smaller.
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
            raw_tokens: 0,
            sent_tokens: tokens,
        });
        Ok((text, total))
    }

    /// Reads the archived output a line at a time, keeping only the lines
    /// it returns: an output of any size costs at most [`MAX_BYTES`] here.
    fn expand_text(&self, p: &ExpandParams) -> EngineResult<(String, u64, String)> {
        // Checked before the archive is opened: no lock or I/O for a request that cannot be met.
        if let (Some(first), Some(last)) = (p.start_line, p.end_line)
            && last < first
        {
            return Err(EngineError::invalid(format!(
                "start_line {first} is after end_line {last}: the range is reversed (lines are 1-based, inclusive)"
            )));
        }
        let dir = self.archive_dir();
        let (meta, mut reader) = match self.memory.with(|s| Ok(s.archive_open(&dir, p.id.trim())))? {
            Err(lean_ctx_store::Error::ArchiveNotFound { id }) => {
                // An id an answer named whose archiving then failed (state.db locked past the busy
                // timeout) is no typo: say so rather than "check the id".
                let lost = self.memory.unrecorded().and_then(|lost| lost.writes.get("archived output").copied());
                let why = match lost {
                    Some(n) => format!(
                        "; {} since the daemon started could not be written to state.db (`lctx doctor` says why), \
                         and this may be one",
                        lean_ctx_common::plural::count(n, "archived output")
                    ),
                    None => String::new(),
                };
                return Err(EngineError::not_found(format!(
                    "no archived output {id}: check the id, or find it with {}{why}",
                    p.surface.archive_search()
                )));
            }
            opened => opened.map_err(store_error)?,
        };
        let total = meta.raw_lines;
        let start = u64::from(p.start_line.unwrap_or(1).max(1));
        let end = p.end_line.map_or(total, |e| u64::from(e).min(total));
        if start > end.max(1) && total > 0 {
            return Err(EngineError::invalid(format!("the output has {total} lines; line {start} is past the end")));
        }
        let max_lines = match usize::try_from(p.limit) {
            Ok(0) | Err(_) => MAX_LINES,
            Ok(limit) => limit.min(MAX_LINES),
        };
        let whole = p.start_line.is_none() && p.end_line.is_none() && p.grep.is_empty() && p.limit == 0;
        if whole && total <= MAX_LINES as u64 && meta.raw_bytes <= MAX_BYTES as u64 {
            // The exact original bytes (as text).
            let mut bytes = Vec::new();
            while reader.read_line(&mut bytes).map_err(store_error)? > 0 {}
            return Ok((String::from_utf8_lossy(&bytes).into_owned(), total, meta.project));
        }
        let pattern = if p.grep.is_empty() {
            None
        } else {
            Some(Regex::new(&p.grep).map_err(|e| EngineError::invalid(format!("bad grep pattern: {e}")))?)
        };
        let mut out = String::new();
        let mut shown = 0usize;
        let mut bytes = Vec::new();
        for number in 1..=end {
            bytes.clear();
            if reader.read_line(&mut bytes).map_err(store_error)? == 0 {
                break;
            }
            if number < start {
                continue;
            }
            let text = String::from_utf8_lossy(&bytes);
            // A line as `str::lines` gives it: without its `\n` or `\r\n`.
            let line = text.strip_suffix('\n').map_or(&*text, |l| l.strip_suffix('\r').unwrap_or(l));
            if pattern.as_ref().is_some_and(|re| !re.is_match(line)) {
                continue;
            }
            let prefix = if pattern.is_some() { format!("{number}: ") } else { String::new() };
            let full = shown > 0 && out.len() + prefix.len() + line.len() >= MAX_BYTES;
            if shown == max_lines || full {
                // Name a window one call returns whole: asking for all the rest would stop at the cap
                // again. Bytes ran out first: a window of as many lines as this one held. A grep's
                // cap counts matches, so its window runs to the end.
                let window = if full { shown } else { max_lines } as u64;
                let next_end = if pattern.is_some() { end } else { end.min(number + window - 1) };
                let ask = match p.surface {
                    Surface::Cli => format!("--lines {number}-{next_end}"),
                    Surface::Mcp => format!("start_line={number} end_line={next_end}"),
                };
                let what = if pattern.is_some() { "matching lines" } else { "lines" };
                let cap = match full {
                    true => format!("{} MiB", MAX_BYTES >> 20),
                    false => format!("{max_lines} {what}"),
                };
                out.push_str(&format!(
                    "[… lines {number}-{end} not shown: one expand returns at most {cap}; ask {ask} for the next]\n"
                ));
                break;
            }
            out.push_str(&prefix);
            if line.len() > MAX_BYTES {
                let cut = char_boundary::floor(line, MAX_BYTES);
                out.push_str(&line[..cut]);
                out.push_str(&format!("\n[… line {number} is {} bytes; its first {cut} are shown]\n", line.len()));
            } else if pattern.is_none() {
                // A window is the original's lines as written (`\r\n`, no final newline), so the
                // windows of an output put back together are the output.
                out.push_str(&text);
            } else {
                out.push_str(line);
                out.push('\n');
            }
            shown += 1;
        }
        if shown == 0
            && let Some(re) = &pattern
        {
            // An empty answer would read as an empty output.
            let window = if p.start_line.is_some() || p.end_line.is_some() {
                format!(" in lines {start}-{end} of {total}")
            } else {
                format!(" in its {total} lines")
            };
            out = format!("[no line matches `{}`{window}]\n", re.as_str());
        }
        Ok((out, total, meta.project))
    }

    /// The best `limit` (0: 20) archived outputs of the caller's project
    /// that match `query`, and how many match in all; other projects'
    /// outputs are noise here (an id still expands anywhere).
    pub fn archive_search(&self, caller: &Caller<'_>, query: &str, limit: u32) -> EngineResult<(Vec<ArchiveHit>, u64)> {
        if query.trim().is_empty() {
            return Err(EngineError::invalid("search needs some words to look for"));
        }
        let project = self.scope_of(caller)?.root.display().to_string();
        let dir = self.archive_dir();
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
