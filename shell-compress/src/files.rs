//! File listings and searches: ls, find/fd, grep/rg, tree, du.
//!
//! Grouping paths per directory, matches per file and stating constant columns once are structural rules
//! (see `shape`) that apply to any output; what stays here is specific to these commands.

use crate::family::{Families, Family};
use crate::plan::{Mark, Plan};

pub(crate) static LS: Family = Family::new("ls", "ls -la", |plan, _| ls(plan)).listing();
/// Path lists are a structural shape (see `shape`): nothing is specific to find.
pub(crate) static FIND: Family = Family::new("find", "find . -name '*.rs'", |_, _| {}).listing();
pub(crate) static GREP: Family = Family::new("grep", "rg -n foo", |plan, _| grep(plan));
pub(crate) static TREE: Family = Family::new("tree", "tree -L 2", |plan, _| listing(plan)).listing();
pub(crate) static DU: Family = Family::new("du", "du -sh *", |plan, _| listing(plan)).listing();

/// One family per program (and its modern replacements); `git grep` is claimed by the git module.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, _| match program {
        "ls" | "ll" | "la" | "exa" | "eza" => Some(&LS),
        "find" | "fd" | "fdfind" => Some(&FIND),
        "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack" => Some(&GREP),
        "tree" => Some(&TREE),
        "du" => Some(&DU),
        _ => None,
    },
    members: &[&LS, &FIND, &GREP, &TREE, &DU],
};

/// `ls -l`: drops `total` lines and the `.`/`..` entries; the table rules state constant columns once.
fn ls(plan: &mut Plan) {
    plan.set_where(Mark::Drop, |line| {
        let name = line.rsplit(' ').next().unwrap_or(line);
        line.starts_with("total ") || (line.len() > 10 && line.starts_with('d') && matches!(name, "." | ".."))
    });
}

/// `grep`/`rg`: very long matched lines (minified code) are shortened; grouping per file is structural.
fn grep(plan: &mut Plan) {
    plan.max_line_chars = Some(200);
}

/// `tree` and `du`: plain listings that are only cut, but their closing totals always stay.
fn listing(plan: &mut Plan) {
    plan.set_where(Mark::Must, |line| {
        let line = line.trim();
        (line.contains(" director") && line.ends_with(" files")) || line.ends_with("\ttotal")
    });
}
