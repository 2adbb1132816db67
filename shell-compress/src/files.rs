//! File listings and searches: ls, find/fd, grep/rg, tree, du.
//!
//! These print one path per line, so the savings come from not repeating what lines share: the directory of
//! sibling paths, the file name of consecutive matches, owner and group columns that are the same everywhere.

use std::sync::LazyLock;

use regex::Regex;

use crate::plan::{Mark, Plan};

/// At most this many names are spelled out in one `dir/{a,b,…}` group.
const NAMES_PER_GROUP: usize = 20;

/// Rewrites runs of at least three consecutive lines whose paths share a directory as one `dir/{a,b,c}` line.
/// `path_of` extracts the path from a line; the line's leading whitespace is preserved.
pub(crate) fn group_paths(plan: &mut Plan, indices: &[usize], path_of: impl Fn(&str) -> &str) {
    let lines = plan.lines();
    let parts: Vec<Option<(&str, &str)>> =
        indices.iter().map(|&i| path_of(&lines[i]).trim_end_matches('/').rsplit_once('/')).collect();
    let mut k = 0;
    while k < indices.len() {
        let Some((dir, _)) = parts[k] else {
            k += 1;
            continue;
        };
        let mut end = k + 1;
        while end < indices.len() && indices[end] == indices[end - 1] + 1 && parts[end].is_some_and(|(d, _)| d == dir) {
            end += 1;
        }
        if end - k >= 3 {
            let names: Vec<&str> = parts[k..end].iter().flatten().map(|(_, name)| *name).collect();
            let line = &lines[indices[k]];
            let indent = &line[..line.len() - line.trim_start().len()];
            let shown = names[..names.len().min(NAMES_PER_GROUP)].join(",");
            let more = match names.len().saturating_sub(NAMES_PER_GROUP) {
                0 => String::new(),
                n => format!(",… +{n} more"),
            };
            plan.rewrite(indices[k], format!("{indent}{dir}/{{{shown}{more}}} ({} entries)", names.len()));
            for &i in &indices[k + 1..end] {
                plan.set(i, Mark::Drop);
            }
        }
        k = end;
    }
}

static LONG_ENTRY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([bcdlps-][rwxsStT-]{9}[.+@]?)\s+\d+\s+(\S+)\s+(\S+)\s+(\S+)\s+(\w{3}\s+\d+\s+[\d:]+)\s(.*)$")
        .expect("ls pattern compiles")
});

/// `ls -l`: drops `total` lines and the `.`/`..` entries, and when every entry has the same owner and group,
/// states them once and drops those columns and the link counts.
pub(crate) fn ls(plan: &mut Plan) {
    let mut entries = Vec::new();
    for i in 0..plan.len() {
        let line = plan.line(i);
        if line.starts_with("total ") {
            plan.set(i, Mark::Drop);
        } else if let Some(caps) = LONG_ENTRY.captures(line) {
            if matches!(&caps[6], "." | "..") {
                plan.set(i, Mark::Drop);
            } else {
                entries.push((i, caps));
            }
        }
    }
    let Some((first, owner)) = entries.first().map(|(i, c)| (*i, format!("{}:{}", &c[2], &c[3]))) else { return };
    if entries.len() < 8 || entries.iter().any(|(_, c)| format!("{}:{}", &c[2], &c[3]) != owner) {
        return;
    }
    for (i, caps) in &entries {
        let date = caps[5].split_whitespace().collect::<Vec<_>>().join(" ");
        plan.rewrite(*i, format!("{} {} {date} {}", &caps[1], &caps[4], &caps[6]));
    }
    plan.note(first, format!("(all entries owned by {owner}; link counts not shown)"));
}

/// `find`/`fd`: sibling paths grouped per directory.
pub(crate) fn find(plan: &mut Plan) {
    let paths: Vec<usize> = (0..plan.len()).filter(|&i| plan.line(i).contains('/')).collect();
    group_paths(plan, &paths, |line| line);
}

static MATCH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([^:\s][^:]*[./][^:]*):(\d+[:-].*|.*)$").expect("grep pattern compiles"));

/// `grep -rn`/`rg`: consecutive matches in one file are listed under the file name once; very long matched
/// lines (minified code) are shortened.
pub(crate) fn grep(plan: &mut Plan) {
    plan.max_line_chars = Some(200);
    let mut i = 0;
    while i < plan.len() {
        let Some(path) = MATCH.captures(plan.line(i)).map(|c| c[1].to_string()) else {
            i += 1;
            continue;
        };
        let prefix = format!("{path}:");
        let end = (i..plan.len()).find(|&j| !plan.line(j).starts_with(&prefix)).unwrap_or(plan.len());
        if end - i >= 2 {
            plan.note(i, prefix.clone());
            for j in i..end {
                let rest = &plan.line(j)[prefix.len()..];
                plan.rewrite(j, format!("  {rest}"));
            }
        }
        i = end;
    }
}

/// `tree` and `du`: plain listings that are only cut, but their closing totals always stay.
pub(crate) fn listing(plan: &mut Plan) {
    plan.set_where(Mark::Must, |line| {
        let line = line.trim();
        (line.contains(" director") && line.ends_with(" files")) || line.ends_with("\ttotal")
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_siblings_into_brace_lists() {
        let lines: Vec<String> =
            ["src/a.rs", "src/b.rs", "src/c.rs", "README.md", "tests/x.rs"].iter().map(|s| s.to_string()).collect();
        let mut plan = Plan::new(&lines);
        find(&mut plan);
        assert_eq!(plan.render(), "src/{a.rs,b.rs,c.rs} (3 entries)\nREADME.md\ntests/x.rs\n");
    }

    #[test]
    fn grep_lists_matches_under_their_file() {
        let lines: Vec<String> =
            ["src/a.rs:3:fn a()", "src/a.rs:9:fn b()", "src/b.rs:1:fn c()"].iter().map(|s| s.to_string()).collect();
        let mut plan = Plan::new(&lines);
        grep(&mut plan);
        assert_eq!(plan.render(), "src/a.rs:\n  3:fn a()\n  9:fn b()\nsrc/b.rs:1:fn c()\n");
    }
}
