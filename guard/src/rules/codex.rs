//! Codex and other AGENTS.md readers: the closest instruction file from the
//! file's directory up to the project root applies, and only that one (the
//! AGENTS.md convention: the nearest file takes precedence). In each
//! directory Codex prefers `AGENTS.override.md` to `AGENTS.md` and skips
//! empty files.

use super::scan::{Scan, shown};

const NAMES: [&str; 2] = ["AGENTS.override.md", "AGENTS.md"];

pub(super) fn discover(scan: &mut Scan) {
    let dirs = scan.dirs.clone();
    for (level, dir) in dirs.iter().enumerate().rev() {
        let at_root = level == 0;
        if at_root && !scan.include_session_start {
            return;
        }
        for name in NAMES {
            let Some(text) = scan.read_plain(&dir.join(name)) else { continue };
            if text.is_empty() {
                continue;
            }
            let why = if at_root {
                format!("project {name}, loaded at session start")
            } else {
                format!("closest {name}, in {}/", shown(dir))
            };
            scan.push(text, why);
            return;
        }
    }
}
