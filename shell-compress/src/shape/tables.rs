//! Column tables (`ls -l`, `pip list`, `docker ps`, `kubectl get`, `dpkg -l`, `du`, `df`): padding squeezed
//! and columns that hold the same value in every row stated once. Past the budget, a listing's table gives
//! way to its names, sorted, which is what one searches a listing for.

use std::sync::LazyLock;

use regex::Regex;

use super::listing::{self, Group, Layout};
use crate::plan::Plan;

/// Fewer rows than this are left alone: a constant column says nothing in a short table.
const MIN_ROWS: usize = 6;

/// Cell separators of an aligned row: two or more spaces.
static GAP: LazyLock<Regex> = LazyLock::new(|| Regex::new(r" {2,}").expect("gap pattern compiles"));

/// The mode column that opens an `ls -l` row.
static MODE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[bcdlps-][rwxsStT-]{9}[.+@]?$").expect("mode pattern compiles"));

/// The start of a log line: a timestamp (`2024-05-01T10:00:00.123Z`, `2024-05-01 10:00:00`, `10:00:00.123`,
/// syslog's `May  1 10:00:00`), possibly in brackets, or a level word (`INFO `, `[WARN]`). A log pads its
/// level, thread and logger to line up (Spring Boot's `INFO 1 --- [           main] o.s.b.w.e.t.TomcatWebServer
/// : …`), which reads as columns, but its last cell is a message of any width and the padding is how the
/// program wrote the line: squeezed, it is a line the output does not have, and often no shorter in tokens.
static LOG_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^\[?(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\d{2}:\d{2}:\d{2}|[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}",
        r"|(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL)\b)",
    ))
    .expect("log line pattern compiles")
});

/// A line of a compiler's or linter's code frame (`813 |     pub fn iter`, rustc's, ruff's): its padding is the
/// code's indentation, not a table's.
static CODE_FRAME: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\d+ +[|+-] ").expect("frame pattern compiles"));

/// Cells before the name in an `ls -l` row: mode, links, owner, group, size and a three-word date.
const LONG_LISTING_CELLS: usize = 8;

/// How the rows of one table split into cells.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Columns {
    /// `ls -l`: single-space separated cells, the name last (it may hold spaces and `-> target`).
    LongListing,
    /// Tab-separated, this many cells (du, wc).
    Tabs(usize),
    /// Aligned under the table's first row: the character positions where its cells start. Positions, not
    /// gaps, because a value that fills its column (`charset-normalizer 3.5.3`) or an empty cell leaves no
    /// gap.
    Aligned(Vec<usize>),
}

impl Columns {
    /// The columns of a table whose first row is `line`, if it can open one.
    fn of(line: &str) -> Option<Columns> {
        if line.starts_with(char::is_whitespace) || line.trim().is_empty() {
            return None;
        }
        if is_long_listing(line) {
            return Some(Columns::LongListing);
        }
        if line.contains('\t') {
            let n = line.split('\t').count();
            return (n >= 2).then_some(Columns::Tabs(n));
        }
        let mut starts = vec![0];
        starts.extend(GAP.find_iter(line).map(|gap| line[..gap.end()].chars().count()));
        (starts.len() >= 2).then_some(Columns::Aligned(starts))
    }

    /// Whether `line` is a row of a table with these columns: every cell boundary falls after a space.
    fn fit(&self, line: &str) -> bool {
        if line.starts_with(char::is_whitespace) || line.trim().is_empty() {
            return false;
        }
        match self {
            Columns::LongListing => is_long_listing(line),
            Columns::Tabs(n) => line.split('\t').count() == *n,
            Columns::Aligned(starts) => {
                let chars: Vec<char> = line.chars().collect();
                !is_long_listing(line)
                    && !line.contains('\t')
                    && chars.len() > starts[1]
                    && starts[1..].iter().all(|&p| p >= chars.len() || chars[p - 1] == ' ')
            }
        }
    }

    fn cells<'a>(&self, line: &'a str) -> Vec<&'a str> {
        match self {
            Columns::Tabs(_) => line.split('\t').collect(),
            Columns::LongListing => {
                let mut cells = Vec::with_capacity(LONG_LISTING_CELLS + 1);
                let mut rest = line;
                for _ in 0..LONG_LISTING_CELLS {
                    rest = rest.trim_start();
                    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                    cells.push(&rest[..end]);
                    rest = &rest[end..];
                }
                cells.push(rest.trim_start());
                cells
            }
            Columns::Aligned(starts) => {
                let byte_at = |p: usize| line.char_indices().nth(p).map_or(line.len(), |(b, _)| b);
                let bounds: Vec<usize> = starts.iter().map(|&p| byte_at(p)).chain([line.len()]).collect();
                bounds.windows(2).map(|w| line[w[0]..w[1]].trim()).collect()
            }
        }
    }
}

fn is_long_listing(line: &str) -> bool {
    let mut words = line.split_whitespace();
    words.next().is_some_and(|w| MODE.is_match(w)) && words.count() >= LONG_LISTING_CELLS
}

/// Compacts every table; `is_listing(rows)` says whether output with `rows` more list-shaped lines is a
/// listing, which may be cut to its names past the budget. Returns how many lines were rewritten.
pub(crate) fn compact(plan: &mut Plan, budget: usize, is_listing: impl Fn(usize) -> bool) -> usize {
    let mut rewritten = 0;
    // One budget for every table: `ls -lR` prints one per directory (see `paths::compact`).
    let mut left = budget;
    let row_like = |line: &str| {
        !line.starts_with(char::is_whitespace)
            && !line.trim().is_empty()
            && !LOG_LINE.is_match(line)
            && !CODE_FRAME.is_match(line)
    };
    for region in super::regions(plan, false, row_like) {
        let mut start = 0;
        while start < region.len() {
            let Some(columns) = Columns::of(plan.line(region[start])) else {
                start += 1;
                continue;
            };
            let len = 1 + region[start + 1..].iter().take_while(|&&i| columns.fit(plan.line(i))).count();
            let rows = &region[start..start + len];
            start += len;
            if rows.len() < MIN_ROWS {
                continue;
            }
            let Some(text) = render(plan, rows, &columns, left, &is_listing) else { continue };
            if text.chars().count() < super::size(plan, rows) {
                left = left.saturating_sub(text.chars().count());
                rewritten += rows.len();
                plan.replace(rows, text);
            }
        }
    }
    rewritten
}

/// The compact form of one table, or `None` when it is over budget and not a listing (ordinary folding and
/// cutting then apply).
fn render(
    plan: &Plan,
    rows: &[usize],
    columns: &Columns,
    budget: usize,
    is_listing: impl Fn(usize) -> bool,
) -> Option<String> {
    let long_listing = *columns == Columns::LongListing;
    let table: Vec<Vec<&str>> = rows.iter().map(|&i| columns.cells(plan.line(i))).collect();
    let width = table[0].len();
    let has_header = !long_listing && !plan.line(rows[0]).contains(|c: char| c.is_ascii_digit());
    let body = &table[usize::from(has_header)..];
    // Never the last column: it is the name, the description or the command, the point of the row.
    let constant: Vec<usize> = (0..width - 1).filter(|&c| body.iter().all(|row| row[c] == body[0][c])).collect();
    // Aligned under a prefix they all share (pytest's `E` lines, `key   = value`), rows are text with a margin,
    // not a table: the padding is how the text is laid out, and the prefix is part of every line's meaning.
    if matches!(columns, Columns::Aligned(_)) && constant.len() == width - 1 {
        return None;
    }
    let stated = if constant.is_empty() {
        String::new()
    } else {
        let values: Vec<String> = constant
            .iter()
            .map(|&c| if has_header { format!("{}={}", table[0][c], body[0][c]) } else { body[0][c].to_string() })
            .collect();
        format!("(every row: {})\n", values.join(" "))
    };
    let mut out = stated.clone();
    // A tab is as cheap as a two-space gap and keeps tab-separated output (du, wc) as it was.
    let separator = match columns {
        Columns::LongListing => " ",
        Columns::Tabs(_) => "\t",
        Columns::Aligned(_) => "  ",
    };
    let compact_row = |row: &Vec<&str>| {
        (0..width).filter(|c| !constant.contains(c)).map(|c| row[c]).collect::<Vec<_>>().join(separator)
    };
    for row in &table {
        out.push_str(&compact_row(row));
        out.push('\n');
    }
    if out.chars().count() <= budget {
        return Some(out);
    }
    if !is_listing(rows.len()) {
        return None;
    }
    // Past the budget: sorted by name, which is the last column when it holds paths (ls -l, du) and the
    // first that varies otherwise (pip, dpkg). An `ls -l` listing keeps only the names, which is what one
    // searches it for, and says so; other tables keep whole rows (du's sizes are its point).
    let paths_last =
        body.iter().filter(|row| super::paths::is_path(name(row[width - 1], long_listing))).count() * 2 > body.len();
    let key = if paths_last { width - 1 } else { (0..width).find(|c| !constant.contains(c)).unwrap_or(0) };
    let mut sorted: Vec<&Vec<&str>> = body.iter().collect();
    sorted.sort_by_key(|row| name(row[key], long_listing));
    let (head, items, layout, what) = if long_listing {
        let names = sorted.iter().map(|row| name(row[key], long_listing).to_string()).collect();
        // Said, so the agent knows to expand the output for them. Link targets were measured kept too: on
        // /usr/bin they crowd names out of the budget.
        let links = if body.iter().any(|row| row[0].starts_with('l')) { ", link targets" } else { "" };
        let head = format!("{} entries by name only (modes, sizes, dates{links} not shown), sorted:\n", body.len());
        (head, names, Layout::Inline, "entries")
    } else {
        let header = if has_header { compact_row(&table[0]) + "\n" } else { String::new() };
        (header, sorted.iter().map(|row| compact_row(row)).collect(), Layout::Lines, "rows")
    };
    let head = stated + &head;
    let group = Group { header: String::new(), items };
    Some(head.clone() + &listing::render(&[group], layout, budget.saturating_sub(head.chars().count()), what))
}

/// The name in a key cell: for `ls -l`, a symlink's target is left out.
fn name(cell: &str, long_listing: bool) -> &str {
    if long_listing { cell.split(" -> ").next().unwrap_or(cell) } else { cell }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compacted(lines: &[String], budget: usize, listing: bool) -> String {
        let mut plan = Plan::new(lines);
        compact(&mut plan, budget, |_| listing);
        plan.render()
    }

    fn ls_rows() -> Vec<String> {
        (0..8).map(|i| format!("-rw-r--r-- {} root root {:>5} Dec  1 07:11 file{i}.txt", i % 2 + 1, i * 100)).collect()
    }

    #[test]
    fn constant_columns_are_stated_once() {
        let text = compacted(&ls_rows(), 10_000, false);
        assert!(text.starts_with("(every row: -rw-r--r-- root root Dec 1 07:11)\n"), "{text}");
        assert!(text.contains("\n2 100 file1.txt\n"), "{text}");
    }

    #[test]
    fn a_log_is_no_table_whatever_its_padding() {
        // Spring Boot pads level, thread and logger to line up; a JSON-less log from a container looks so.
        let loggers =
            ["o.s.b.w.embedded.tomcat.TomcatWebServer", "com.zaxxer.hikari.HikariDataSource", "org.hibernate.Version"];
        let lines: Vec<String> = (0..9)
            .map(|i| {
                let logger = loggers[i % 3];
                format!(
                    "2024-05-01T10:00:0{i}.123Z  INFO 1 --- [           main] {logger:<40} : step {i} done in {} ms",
                    i * 7
                )
            })
            .collect();
        assert_eq!(compacted(&lines, 10_000, false), lines.join("\n") + "\n");
        // So is one whose lines start with their level, or syslog's time.
        let levelled: Vec<String> = lines.iter().map(|l| format!("INFO  {}", &l[30..])).collect();
        assert_eq!(compacted(&levelled, 10_000, false), levelled.join("\n") + "\n");
        let syslog: Vec<String> = lines.iter().map(|l| format!("May  1 10:00:0{}  {}", &l[18..19], &l[30..])).collect();
        assert_eq!(compacted(&syslog, 10_000, false), syslog.join("\n") + "\n");
    }

    #[test]
    fn a_header_names_the_constant_values() {
        let mut lines = vec!["Package    Location  Version".to_string()];
        lines.extend((0..7).map(|i| format!("pkg{i}       /site     1.{i}.0")));
        let text = compacted(&lines, 10_000, false);
        assert!(text.starts_with("(every row: Location=/site)\nPackage  Version\npkg0  1.0.0\n"), "{text}");
    }

    #[test]
    fn cells_follow_the_first_row_even_where_a_value_fills_its_column() {
        let mut lines = vec!["Package            Location  Version".to_string()];
        lines.extend((0..6).map(|i| format!("pkg{i}               /site     1.{i}.0")));
        lines.push("charset-normalizer /site     3.5.3".into());
        let text = compacted(&lines, 10_000, false);
        assert!(text.ends_with("pkg5  1.5.0\ncharset-normalizer  3.5.3\n"), "{text}");
    }

    #[test]
    fn a_listing_past_its_budget_keeps_its_names_sorted_and_counts_the_rest() {
        let mut lines = ls_rows();
        lines.reverse();
        let text = compacted(&lines, 150, true);
        assert!(
            text.starts_with(
                "(every row: -rw-r--r-- root root Dec 1 07:11)\n8 entries by name only (modes, sizes, dates not shown), \
                 sorted:\n"
            ),
            "{text}"
        );
        assert!(text.contains("file0.txt file1.txt") && text.contains("file7.txt\n"), "{text}");
        assert!(text.trim_end().ends_with("entries not shown"), "{text}");
        assert_eq!(compacted(&lines, 150, false), lines.join("\n") + "\n");
        // A listing with links says their targets are left out too.
        lines[3] = "lrwxrwxrwx 1 root root     9 Dec  1 07:11 python3 -> python3.12".into();
        let text = compacted(&lines, 150, true);
        assert!(
            text.contains(" entries by name only (modes, sizes, dates, link targets not shown), sorted:\n"),
            "{text}"
        );
    }

    #[test]
    fn lines_that_share_only_a_marker_are_no_table() {
        // pytest's `E` lines explaining a failed assertion: the `E` and its padding are how pytest marks them.
        let lines: Vec<String> = [
            "E               AssertionError: Lists differ: [(1, 2), (2, None)] != [(1, 2)]",
            "E               First list contains 1 additional elements.",
            "E               First extra element 1:",
            "E               (2, None)",
            "E               - [(1, 2), (2, None)]",
            "E               ?        -----------",
            "E               + [(1, 2)]",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(compacted(&lines, 10_000, false), lines.join("\n") + "\n");
    }

    #[test]
    fn a_printed_file_keeps_its_padding_and_every_cell() {
        // `cat` of a file whose lines look like a table: the padding is the file's text, and so is a value
        // every line shares.
        let file: String = (0..40).map(|i| format!("VAR_{i:<4}  =  value_{i} here\n")).collect();
        let out = crate::compress("cat config.mk", &file, 0);
        assert!(!out.text.contains("every row"), "{}", out.text);
        for line in out.text.lines().filter(|l| l.starts_with("VAR_")) {
            assert!(file.lines().any(|l| l == line), "{line:?} is no line of the file:\n{}", out.text);
        }
    }

    #[test]
    fn a_tree_drawing_is_flattened_not_taken_for_a_table() {
        // `cargo tree`: the gap after a `│` looked like column padding, so the rows below the first were cut
        // into cells (`│  ├── bytes v1.12.2`, `├──  hyper-util v0.1.21`) over the tree's own flattening.
        let mut tree = String::from("app v0.1.0 (/work/app)\n");
        for dep in 0..20 {
            tree += &format!("├── dep{dep} v1.0.0\n");
            for sub in 0..8 {
                tree += &format!("│   {} dep{dep}-part{sub} v0.{sub}.1\n", if sub == 7 { "└──" } else { "├──" });
            }
        }
        let out = crate::compress("cargo tree -e normal --depth 2", &tree, 0);
        assert!(out.shortened, "{}", out.text);
        assert!(out.text.starts_with("app v0.1.0 (/work/app)\n  dep0 v1.0.0\n    dep0-part0 v0.0.1\n"), "{}", out.text);
        assert!(!out.text.contains(['│', '├', '└']), "{}", out.text);
    }

    /// QA: clippy's frame `813 | /     pub fn iter` came back as `813 | /  pub fn iter`, its nesting lost.
    #[test]
    fn a_code_frame_keeps_its_indentation() {
        let frame = |n: usize| {
            format!(
                "warning: this could be a `const fn`\n   --> src/lib{n}.rs:813:5\n    |\n\
                 813 | /     pub fn iter(&self) -> Either<L, R>\n\
                 814 | |     where\n\
                 815 | |         for<'a> &'a L: IntoIterator,\n\
                 816 | |         for<'a> &'a R: IntoIterator,\n\
                 817 | |     {{\n\
                 818 | |         map_both!(self, inner => inner.into_iter())\n\
                 819 | |     }}\n    | |_____^\n    |\n"
            )
        };
        let raw: String = (0..30).map(frame).collect::<String>() + "warning: `either` (lib) generated 30 warnings\n";
        let out = crate::compress("cargo clippy --all-targets", &raw, 0);
        let shown: Vec<&str> = out.text.lines().filter(|line| line.starts_with("81")).collect();
        assert!(shown.len() >= 7, "{}", out.text);
        for line in shown {
            assert!(raw.lines().any(|l| l == line), "{line:?} is no line of the output:\n{}", out.text);
        }
    }

    #[test]
    fn git_blame_keeps_the_indentation_of_the_code_it_annotates() {
        let blame: String = (100..160)
            .map(|n| {
                let indent = " ".repeat(4 * (n % 3));
                format!("a97c96df (Dev Example 2026-12-02 01:34:00 +0000 {n}) {indent}let x{n} = {n};\n")
            })
            .collect();
        let out = crate::compress("git blame src/lib.rs", &blame, 0);
        let shown: Vec<&str> = out.text.lines().filter(|l| l.starts_with("a97c96df")).collect();
        assert!(shown.len() >= 10, "{}", out.text);
        for line in shown {
            assert!(blame.lines().any(|l| l == line), "{line:?} is no line of the output:\n{}", out.text);
        }
    }
}
