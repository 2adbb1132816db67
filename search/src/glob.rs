//! File-name search: a glob over the paths the project's ignore rules admit.
//! Names only, so binaries and large files are listed too; FIFOs, sockets
//! and devices are not files an agent can read and are counted as skipped.

use std::fmt::Write;

use crate::config::SearchConfig;
use crate::error::SearchError;
use crate::filter::{compile_globs, names_hidden};
use crate::model::GlobResult;
use crate::paths::{Scope, display};
use crate::render::{HIDDEN_NOTE, count, more_note, skipped_note};
use crate::walk::{EntryKind, SkipReason, Skipped, WalkOptions, classify};

/// Paths under the scope matching `pattern` (relative to the scope; `*.rs`
/// matches at any depth), sorted, the first `max_results` shown.
pub(crate) fn glob(
    scope: &Scope,
    pattern: &str,
    max_results: usize,
    config: &SearchConfig,
) -> Result<GlobResult, SearchError> {
    if pattern.trim().is_empty() {
        return Err(SearchError::EmptyQuery { what: "the glob is empty; pass a pattern such as `**/*.rs`" });
    }
    if scope.base.is_file() {
        return Err(SearchError::PathIsFile { path: scope.base_rel.clone() });
    }
    let set = compile_globs(&[pattern.to_string()])?.expect("one glob compiles to a set");
    let mut skipped = Skipped::default();
    let mut paths = Vec::new();
    let hidden = names_hidden(pattern) || scope.is_hidden();
    for entry in WalkOptions::project(config, hidden).builder(&scope.base).build() {
        let Ok(entry) = entry else {
            skipped.count(SkipReason::WalkError);
            continue;
        };
        let admitted = match classify(&entry, u64::MAX) {
            EntryKind::File(_) => true,
            EntryKind::Skip(reason) => {
                skipped.count(reason);
                false
            }
            EntryKind::Dir | EntryKind::Ignored => false,
        };
        let (Ok(rel), Ok(inner)) = (entry.path().strip_prefix(&scope.root), entry.path().strip_prefix(&scope.base))
        else {
            continue;
        };
        if admitted && set.is_match(inner) {
            paths.push(rel.to_path_buf());
        }
    }
    paths.sort();
    let total = paths.len() as u64;
    let paths: Vec<String> = paths.iter().take(max_results).map(|p| display(p)).collect();
    let shown = paths.len() as u64;
    let mut result = GlobResult {
        paths,
        total,
        shown,
        truncated: shown < total,
        skipped,
        hidden_left_out: !hidden,
        text: String::new(),
    };
    result.text = glob_text(&result, max_results);
    Ok(result)
}

/// The text of `result`; the daemon renders it again after withholding
/// paths the user's rules deny.
pub fn glob_text(result: &GlobResult, max_results: usize) -> String {
    let mut text = String::new();
    for path in &result.paths {
        let _ = writeln!(text, "{path}");
    }
    let (total, shown) = (result.total, result.shown);
    let _ = writeln!(text, "{}", if total == 0 { "no files match".to_string() } else { count(total, "file") });
    if total == 0 && result.hidden_left_out {
        let _ = writeln!(text, "{HIDDEN_NOTE}");
    }
    if shown < total {
        let _ = writeln!(text, "{}", more_note(total, shown, max_results, "file"));
    }
    if let Some(note) = skipped_note(&result.skipped) {
        let _ = writeln!(text, "{note}");
    }
    text
}
