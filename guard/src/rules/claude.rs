//! Claude Code: `CLAUDE.md` memory files in each directory and the
//! project's `.claude/rules`. Claude loads the memory files of the
//! directories above its working directory at launch and those of deeper
//! directories when it reads files there; `.claude/rules` files load at
//! launch unless their `paths` front matter scopes them to some files.

use std::path::Path;

use super::globs::Patterns;
use super::scan::{Scan, shown};

/// The memory files Claude Code reads in one directory, in its load order.
const MEMORY_FILES: [&str; 3] = ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"];

pub(super) fn discover(scan: &mut Scan) {
    let dirs = scan.dirs.clone();
    for (level, dir) in dirs.iter().enumerate() {
        let at_root = level == 0;
        if !at_root || scan.include_session_start {
            for name in MEMORY_FILES {
                let Some(text) = scan.read_plain(&dir.join(name)) else { continue };
                let why = if at_root {
                    format!("project {name}, loaded at session start")
                } else {
                    format!("nested {name} in {}/", shown(dir))
                };
                scan.push(text, why);
            }
        }
        if at_root {
            rules(scan);
        }
    }
}

/// `.claude/rules/**/*.md` under the root, globs relative to the root.
fn rules(scan: &mut Scan) {
    for rel in scan.list(Path::new(".claude/rules"), ".md") {
        let Some(text) = scan.read_scoped(&rel) else { continue };
        let paths = text.front.as_ref().and_then(|front| front.list("paths")).unwrap_or_default();
        if paths.is_empty() {
            if scan.include_session_start {
                scan.push(text, ".claude/rules file without paths, loaded at session start".to_string());
            }
            continue;
        }
        match Patterns::compile(&paths) {
            Err(problem) => scan.note(&rel, &format!("{problem}; the rule is skipped, fix the glob")),
            Ok(patterns) => {
                if let Some(glob) = patterns.first_match(&scan.rel_file) {
                    let why = format!("paths: {glob}");
                    scan.push(text, why);
                }
            }
        }
    }
}
