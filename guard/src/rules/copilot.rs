//! GitHub Copilot: `.github/instructions/**/*.instructions.md` apply to the
//! files their `applyTo` globs match (relative to the root; without
//! `applyTo` they are not applied automatically), and the repository-wide
//! `.github/copilot-instructions.md` to every request.

use std::path::Path;

use super::globs::Patterns;
use super::scan::Scan;

pub(super) fn discover(scan: &mut Scan) {
    if scan.include_session_start
        && let Some(text) = scan.read_plain(Path::new(".github/copilot-instructions.md"))
    {
        scan.push(text, "repository copilot-instructions.md, loaded at session start".to_string());
    }
    for rel in scan.list(Path::new(".github/instructions"), ".instructions.md") {
        let Some(text) = scan.read_scoped(&rel) else { continue };
        let apply_to = text.front.as_ref().and_then(|front| front.list("applyTo")).unwrap_or_default();
        if apply_to.is_empty() {
            continue;
        }
        match Patterns::compile(&apply_to) {
            Err(problem) => scan.note(&rel, &format!("{problem}; the instructions are skipped, fix the glob")),
            Ok(patterns) => {
                if let Some(glob) = patterns.first_match(&scan.rel_file) {
                    let why = format!("applyTo: {glob}");
                    scan.push(text, why);
                }
            }
        }
    }
}
