//! Path lists (`find`, `fd`, `git ls-files`, `ls -1`, untracked files, `tar -t`): sorted, one group per
//! directory with each directory named once, and the prefix all directories share stated once.

use std::collections::BTreeMap;

use super::listing::{self, Group, Layout};
use crate::plan::Plan;

/// Fewer lines than this are left alone: grouping them saves little and reads worse.
const MIN_ENTRIES: usize = 6;

/// Whether `line` is a lone path or file name: one token of path characters with a letter in it (so counters,
/// versions, rules and `key: value` lines are not).
pub(crate) fn is_path(line: &str) -> bool {
    let t = line.trim();
    t.chars().count() >= 2
        && t.chars().any(|c| c.is_alphabetic())
        && t.chars().all(|c| c.is_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '@' | '+' | '~' | '#'))
        && !t.starts_with('-')
}

/// Rewrites every run of path lines; returns how many lines were rewritten. A path followed by indented lines
/// heads their block (eslint's file above its problems) and stays where it is; a run that names a line twice
/// is no listing (a log of short words), and sorting it would drop the repeats and the order. The runs share
/// `budget`: `ls -R` prints a run per directory, and a budget each let a QA pass's listing grow with the
/// number of directories.
pub(crate) fn compact(plan: &mut Plan, budget: usize) -> usize {
    let heads_block = |i: usize| {
        plan.lines().get(i + 1).is_some_and(|next| next.starts_with(char::is_whitespace) && !next.trim().is_empty())
    };
    let regions: Vec<Vec<usize>> = super::regions(plan, true, is_path)
        .into_iter()
        .flat_map(|region| region.split(|&i| heads_block(i)).map(<[usize]>::to_vec).collect::<Vec<_>>())
        .collect();
    let mut rewritten = 0;
    let mut left = budget;
    for region in regions {
        let mut distinct: Vec<&str> = region.iter().map(|&i| plan.line(i).trim()).collect();
        distinct.sort_unstable();
        distinct.dedup();
        if region.len() < MIN_ENTRIES || distinct.len() < region.len() {
            continue;
        }
        let text = render(region.iter().map(|&i| plan.line(i).trim()), left);
        // Joining names saves tokens even when it saves no characters (a newline costs a token of its own).
        if text.chars().count() <= super::size(plan, &region) {
            left = left.saturating_sub(text.chars().count());
            rewritten += region.len();
            plan.replace(&region, text);
        }
    }
    rewritten
}

/// The grouped, sorted form of `paths`.
fn render<'a>(paths: impl Iterator<Item = &'a str>, budget: usize) -> String {
    let mut by_dir: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for path in paths {
        let is_dir = path.len() > 1 && path.ends_with('/');
        let bare = if is_dir { &path[..path.len() - 1] } else { path };
        let (dir, name) = match bare.rsplit_once('/') {
            Some(("", name)) => ("/", name),
            Some((dir, name)) => (dir, name),
            None => ("", bare),
        };
        by_dir.entry(dir).or_default().push(if is_dir { format!("{name}/") } else { name.to_string() });
    }
    for names in by_dir.values_mut() {
        names.sort();
        names.dedup();
    }
    let prefix = if by_dir.len() > 1 { common_dir(by_dir.keys().copied()) } else { "" };
    let mut out = String::new();
    if !prefix.is_empty() {
        out.push_str(&format!("{}/\n", prefix.trim_end_matches('/')));
    }
    let groups: Vec<Group> = by_dir
        .into_iter()
        .map(|(dir, items)| {
            let header = match dir.strip_prefix(prefix) {
                _ if dir.is_empty() => String::new(),
                Some("") if !prefix.is_empty() => "  ".to_string(),
                Some(rel) if !prefix.is_empty() => format!("  {}/: ", rel.trim_start_matches('/')),
                _ => format!("{}/: ", dir.trim_end_matches('/')),
            };
            Group { header, items }
        })
        .collect();
    out.push_str(&listing::render(&groups, Layout::Inline, budget.saturating_sub(out.len()), "entries"));
    out
}

/// The longest leading run of whole path components every directory in `dirs` starts with.
fn common_dir<'a>(mut dirs: impl Iterator<Item = &'a str>) -> &'a str {
    let Some(first) = dirs.next() else { return "" };
    let mut len = first.len();
    for dir in dirs {
        len = len.min(dir.len());
        len = first.bytes().zip(dir.bytes()).take(len).take_while(|(a, b)| a == b).count();
        // Back off to a component boundary in both.
        while len > 0 && !(at_boundary(first, len) && at_boundary(dir, len)) {
            len -= 1;
        }
    }
    &first[..len]
}

fn at_boundary(path: &str, len: usize) -> bool {
    len == path.len() || path.as_bytes()[len] == b'/'
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Mark;

    /// A QA pass: `ls -R` of three directories of 600 names each came back at three budgets' size, each
    /// directory's run compacted within a budget of its own.
    #[test]
    fn the_directories_of_a_recursive_listing_share_one_budget() {
        let mut raw = String::from(".:\na\nb\nc\n");
        for dir in ["a", "b", "c"] {
            raw += &format!("\n./{dir}:\n");
            raw += &(1..=600).map(|i| format!("file_with_a_longish_name_{i}.txt\n")).collect::<String>();
        }
        let options = crate::Options::default();
        let out = crate::compress_with("ls -R .", &raw, 0, &options).text;
        let budget = options.listing_budget * crate::CHARS_PER_TOKEN;
        assert!(out.chars().count() < budget + budget / 4, "{} chars: {out}", out.chars().count());
        for dir in ["./a:", "./b:", "./c:"] {
            assert!(out.contains(dir), "each directory is named: {out}");
        }
        assert!(out.contains("… 599 of 600 entries not shown"), "what is left out is counted: {out}");
    }

    fn compacted(lines: &[&str]) -> String {
        let lines: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        let mut plan = Plan::new(&lines);
        compact(&mut plan, 10_000);
        plan.render()
    }

    #[test]
    fn groups_by_directory_once_each_sorted_with_the_shared_prefix_once() {
        let text = compacted(&[
            "./src/parser/b.rs",
            "./src/lib.rs",
            "./src/builder/z.rs",
            "./src/parser/a.rs",
            "./src/builder/a.rs",
            "./src/parser/c.rs",
        ]);
        assert_eq!(text, "./src/\n  lib.rs\n  builder/: a.rs z.rs\n  parser/: a.rs b.rs c.rs\n");
    }

    #[test]
    fn plain_names_become_one_sorted_line() {
        let text = compacted(&["zeta", "alpha.txt", "beta", "gamma", "delta", "epsilon"]);
        assert_eq!(text, "alpha.txt beta delta epsilon gamma zeta\n");
    }

    #[test]
    fn block_heads_and_repeated_words_are_no_listing() {
        // eslint after a failure: each file heads its problems, which are protected, and the blank lines
        // between files were dropped with the warnings; grouping the files would leave the problems
        // unattributed.
        let mut eslint = Vec::new();
        for n in 1..=7 {
            eslint.extend([
                format!("/p/src/l{n}.js"),
                "  3:5  error  'x' is not defined  no-undef".into(),
                String::new(),
            ]);
        }
        let mut plan = Plan::new(&eslint);
        for i in 0..eslint.len() {
            match i % 3 {
                1 => plan.must(i),
                2 => plan.set(i, Mark::Drop),
                _ => {}
            }
        }
        compact(&mut plan, 10_000);
        let kept: String = eslint.iter().filter(|line| !line.is_empty()).map(|line| format!("{line}\n")).collect();
        assert_eq!(plan.render(), kept);
        // Short words printed twice each are output, not a listing: order and repeats stay.
        let words = ["AA", "AA", "BB", "BB", "CC", "CC", "DD", "DD"];
        assert_eq!(compacted(&words), "AA\nAA\nBB\nBB\nCC\nCC\nDD\nDD\n");
    }

    #[test]
    fn short_lists_and_other_lines_are_left_alone() {
        assert_eq!(compacted(&["a/b", "a/c", "a/d"]), "a/b\na/c\na/d\n");
        assert!(!is_path("1.2.3") && !is_path("key: value") && !is_path("----") && !is_path("two words"));
    }

    #[test]
    fn common_prefix_stops_at_a_component_boundary() {
        assert_eq!(common_dir(["src/parser", "src/parse"].into_iter()), "src");
        assert_eq!(common_dir(["/usr/lib", "/usr/lib/x"].into_iter()), "/usr/lib");
    }
}
