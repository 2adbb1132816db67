//! Cursor: `.cursor/rules/**/*.mdc` in the project root and in nested
//! directories. A rule attaches when its `globs` match the file (relative to
//! the directory holding that `.cursor`, so a nested rule speaks about its
//! own subtree), is always on with `alwaysApply: true`, and is otherwise
//! agent-requested or manual, which the host decides and we do not.

use std::path::Path;

use super::globs::Patterns;
use super::scan::{Scan, shown};

pub(super) fn discover(scan: &mut Scan) {
    if scan.include_session_start
        && let Some(text) = scan.read_plain(Path::new(".cursorrules"))
    {
        scan.push(text, "legacy .cursorrules, loaded at session start".to_string());
    }
    let dirs = scan.dirs.clone();
    for (level, dir) in dirs.iter().enumerate() {
        let at_root = level == 0;
        for rel in scan.list(&dir.join(".cursor/rules"), ".mdc") {
            let Some(text) = scan.read_scoped(&rel) else { continue };
            let (always, globs) = match &text.front {
                Some(front) => (front.flag("alwaysApply"), front.list("globs").unwrap_or_default()),
                None => (false, Vec::new()),
            };
            if always {
                // A nested always-on rule applies to its subtree, which the
                // file is in: it is due now, not at session start.
                if !at_root {
                    scan.push(text, format!("alwaysApply, in {}/.cursor/rules", shown(dir)));
                } else if scan.include_session_start {
                    scan.push(text, "alwaysApply, loaded at session start".to_string());
                }
                continue;
            }
            if globs.is_empty() {
                continue;
            }
            let patterns = match Patterns::compile(&globs) {
                Ok(patterns) => patterns,
                Err(problem) => {
                    scan.note(&rel, &format!("{problem}; the rule is skipped, fix the glob"));
                    continue;
                }
            };
            let Ok(under) = scan.rel_file.strip_prefix(dir) else { continue };
            if let Some(glob) = patterns.first_match(under) {
                let why = if at_root {
                    format!("globs: {glob}")
                } else {
                    format!("globs: {glob} (relative to {}/)", shown(dir))
                };
                scan.push(text, why);
            }
        }
    }
}
