//! File listings and searches: ls, find/fd, grep/rg, tree, du.
//!
//! Grouping paths per directory, matches per file and stating constant columns once are structural rules
//! (see `shape`) that apply to any output; what stays here is specific to these commands.

use crate::plan::{Mark, Plan};

/// `ls -l`: drops `total` lines and the `.`/`..` entries; the table rules state constant columns once.
pub(crate) fn ls(plan: &mut Plan) {
    plan.set_where(Mark::Drop, |line| {
        let name = line.rsplit(' ').next().unwrap_or(line);
        line.starts_with("total ") || (line.len() > 10 && line.starts_with('d') && matches!(name, "." | ".."))
    });
}

/// `grep`/`rg`: very long matched lines (minified code) are shortened; grouping per file is structural.
pub(crate) fn grep(plan: &mut Plan) {
    plan.max_line_chars = Some(200);
}

/// `tree` and `du`: plain listings that are only cut, but their closing totals always stay.
pub(crate) fn listing(plan: &mut Plan) {
    plan.set_where(Mark::Must, |line| {
        let line = line.trim();
        (line.contains(" director") && line.ends_with(" files")) || line.ends_with("\ttotal")
    });
}
