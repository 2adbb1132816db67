//! Whether every line a view shows is true to the raw output: a line of it, or one of the compressor's own
//! transformations of its lines, each reversed here and checked against the raw output. Written from the
//! transformations the library performs (`plan.rs`, `shape/*.rs`, `git.rs` and the families' notes), not
//! from its code paths, so a rule that changes a line in a way none of them intends shows up as a line no
//! checker accepts.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use regex::Regex;

pub(crate) mod go_logs;
pub(crate) mod grouped;
pub(crate) mod hunks;

/// A shown line that no checker accepts, with the raw line most like it.
#[derive(Debug)]
pub(crate) struct Untrue {
    pub(crate) line: String,
    pub(crate) nearest: String,
}

/// The lines of `view` (the exit line of a failure aside) that are not true to `raw`.
pub(crate) fn untrue_lines(raw: &str, view: &str, exit: i32) -> Vec<Untrue> {
    let raw = Raw::new(raw);
    let mut lines: Vec<&str> = view.split('\n').collect();
    if view.ends_with('\n') {
        lines.pop();
    }
    if exit != 0 && lines.last() == Some(&format!("[exit:{exit}]").as_str()) {
        lines.pop();
    }
    let mut state = State::default();
    let mut untrue = Vec::new();
    for line in &lines {
        if !state.accepts(&raw, line) {
            untrue.push(Untrue { line: line.to_string(), nearest: raw.nearest(line).to_string() });
        }
    }
    state.settle(&raw, raw.displayed.len());
    untrue.extend(state.miscounts.into_iter().map(|line| Untrue { line, nearest: String::new() }));
    for miscount in [hunks::left_out(&raw.displayed, &lines), go_logs::left_out(&raw.displayed, &lines)]
        .into_iter()
        .filter_map(Result::err)
    {
        untrue.push(Untrue { line: miscount, nearest: String::new() });
    }
    untrue
}

/// An omission marker of a cut (`plan.rs`).
static OMITTED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^… \d+ lines? omitted(?: \(\d+ warnings?\))?$").unwrap());

/// ANSI escapes: CSI, OSC, charset and two-byte sequences.
static ESCAPE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()].|.)").unwrap());

/// `line` without escapes and control characters other than tab (and carriage return when `keep_cr`).
fn plain(line: &str, keep_cr: bool) -> String {
    ESCAPE.replace_all(line, "").chars().filter(|&c| c == '\t' || (keep_cr && c == '\r') || !c.is_control()).collect()
}

/// The raw output, read the ways the compressor reads a line.
struct Raw {
    /// Each line as a terminal left it: escapes removed, the last non-blank carriage-return redraw, trailing
    /// whitespace trimmed. What every ordinary line of a view is compared with.
    displayed: Vec<String>,
    /// Every form a line may be shown in, with the indexes of the lines shown so: displayed; a diff hunk's
    /// body line as printed (escapes and control characters removed, its trailing whitespace and a CRLF
    /// file's `\r` kept); each segment a redraw overwrote (an error hidden by a progress bar is shown on a
    /// line of its own).
    forms: HashMap<String, Vec<usize>>,
    /// How many times each displayed line occurs, for repeat counts.
    count: HashMap<String, usize>,
    /// Each displayed line that starts with a tree's branches: the text after them, with the depths at
    /// which the compressor shows it (half the prefix's width).
    tree: HashMap<String, HashSet<usize>>,
    /// Each displayed line trimmed, for path listings.
    trimmed: HashSet<String>,
    /// Each line of a diff hunk's body, as printed, with the headers of the hunks it is in (`@@ -1,3 +1,4 @@`
    /// counts its lines; rustfmt's `Diff in PATH:LINE:` runs to the first line that is no diff line).
    hunk_of: HashMap<String, HashSet<String>>,
    /// The displayed lines outside any hunk's body.
    outside_hunks: HashSet<String>,
    /// The headers of the hunks.
    hunk_headers: HashSet<String>,
    /// The words of the names `ls -l` rows end with (after mode, links, owner, group, size and date; a link's
    /// target left out), for a listing shown by its names only.
    listed_names: HashSet<String>,
}

/// An `ls -l` row: a mode, then at least eight more cells.
static LONG_LISTING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[bcdlps-][rwxsStT-]{9}[.+@]?(?:\s+\S+){8,}").unwrap());

/// Characters that draw a tree's branches (`shape/trees.rs`), and those where a branch leaves its trunk: a
/// prefix of vertical bars alone is a gutter or a box's side (a diagnostic's `│` before a caret line that
/// points at a column of the line above), not a branch.
const BRANCHES: &[char] = &['│', '├', '└', '─', '┬', '┼', '╰', '╭', '┃', '┣', '┗', '━'];
const BRANCH_POINTS: &[char] = &['├', '└', '┬', '┼', '╰', '╭', '┣', '┗'];

/// A tree's line split into its branches (a prefix of branch characters and spaces holding a branch point)
/// and its text, or `None` for any other line.
fn tree_branches(line: &str) -> Option<(&str, &str)> {
    let end = line.find(|c: char| !BRANCHES.contains(&c) && c != ' ' && c != '\u{a0}').unwrap_or(line.len());
    let (prefix, text) = line.split_at(end);
    prefix.contains(BRANCH_POINTS).then_some((prefix, text))
}

impl Raw {
    fn new(raw: &str) -> Raw {
        let mut split: Vec<&str> = raw.split('\n').collect();
        if raw.ends_with('\n') {
            split.pop();
        }
        let mut displayed = Vec::with_capacity(split.len());
        let mut forms: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, line) in split.into_iter().enumerate() {
            let mut add = |form: String| {
                let at = forms.entry(form).or_default();
                if at.last() != Some(&i) {
                    at.push(i);
                }
            };
            let line_no_cr = line.strip_suffix('\r').unwrap_or(line);
            let visible = line_no_cr.rsplit('\r').find(|s| !s.trim().is_empty()).unwrap_or("");
            let shown = plain(visible, false).trim_end().to_string();
            add(plain(line, true));
            for segment in line_no_cr.split('\r') {
                add(plain(segment, false).trim_end().to_string());
            }
            add(shown.clone());
            displayed.push(shown);
        }
        let mut count: HashMap<String, usize> = HashMap::new();
        let mut tree: HashMap<String, HashSet<usize>> = HashMap::new();
        for line in &displayed {
            *count.entry(line.clone()).or_default() += 1;
            if let Some((prefix, text)) = tree_branches(line) {
                tree.entry(text.to_string()).or_default().insert(prefix.chars().count() / 2);
            }
        }
        let trimmed = displayed.iter().map(|l| l.trim().to_string()).collect();
        let listed_names = displayed
            .iter()
            .filter(|l| LONG_LISTING.is_match(l))
            .flat_map(|l| {
                let name = l.split_whitespace().skip(8).collect::<Vec<_>>().join(" ");
                let name = name.split(" -> ").next().unwrap_or_default().to_string();
                name.split(' ').map(str::to_string).collect::<Vec<_>>()
            })
            .collect();
        let (hunk_of, outside_hunks) = hunks(raw, &displayed);
        let hunk_headers = hunk_of.values().flatten().cloned().collect();
        Raw { displayed, forms, count, tree, trimmed, listed_names, hunk_of, outside_hunks, hunk_headers }
    }

    /// Whether `line` is shown only as a line of some hunk's body.
    fn only_in_hunks(&self, line: &str) -> bool {
        self.hunk_of.contains_key(line) && !self.outside_hunks.contains(line)
    }

    fn has(&self, line: &str) -> bool {
        self.forms.contains_key(line)
    }

    /// The indexes of the lines shown as `line` from `from` on, in order.
    fn at_or_after(&self, line: &str, from: usize) -> &[usize] {
        let at = self.forms.get(line).map_or(&[][..], Vec::as_slice);
        &at[at.partition_point(|&i| i < from)..]
    }

    /// The displayed line most like `line`: the longest common start, then the closest length.
    fn nearest(&self, line: &str) -> &str {
        let common = |raw: &str| raw.chars().zip(line.chars()).take_while(|(a, b)| a == b).count();
        self.displayed
            .iter()
            .max_by_key(|raw| (common(raw), std::cmp::Reverse(raw.len().abs_diff(line.len()))))
            .map_or("", String::as_str)
    }
}

/// The hunk bodies of `raw` (see [`Raw::hunk_of`]) and the displayed lines outside them.
fn hunks(raw: &str, displayed: &[String]) -> (HashMap<String, HashSet<String>>, HashSet<String>) {
    static HEADER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@").unwrap());
    let mut hunk_of: HashMap<String, HashSet<String>> = HashMap::new();
    let mut outside = HashSet::new();
    let (mut header, mut old, mut new, mut rustfmt) = (String::new(), 0usize, 0usize, false);
    for (printed, shown) in raw.split('\n').zip(displayed) {
        let printed = plain(printed, true);
        let body_line = shown.is_empty() || printed.starts_with([' ', '+', '-', '\\']);
        let inside = if rustfmt {
            rustfmt = body_line;
            rustfmt
        } else if old + new > 0 && body_line {
            match printed.as_bytes().first() {
                Some(b'-') => old = old.saturating_sub(1),
                Some(b'+') => new = new.saturating_sub(1),
                Some(b'\\') => {}
                _ => (old, new) = (old.saturating_sub(1), new.saturating_sub(1)),
            }
            true
        } else {
            (old, new) = (0, 0);
            false
        };
        if inside {
            hunk_of.entry(printed).or_default().insert(header.clone());
            continue;
        }
        outside.insert(shown.clone());
        if let Some(c) = HEADER.captures(shown) {
            let count = |n: Option<regex::Match>| n.map_or(1, |n| n.as_str().parse().unwrap());
            (header, old, new) = (shown.clone(), count(c.get(1)), count(c.get(2)));
        } else if shown.starts_with("Diff in ") && shown.ends_with(':') {
            (header, rustfmt) = (shown.clone(), true);
        }
    }
    (hunk_of, outside)
}

/// What earlier lines of the view said that later ones are read with.
#[derive(Default)]
struct State {
    /// The cells of the last `(every row: …)` line: (header name, value) each, the name empty when the
    /// table has no header.
    constants: Vec<(String, String)>,
    /// The table rows accepted since the last line that was no squeezed row: for each position where the
    /// text before a row's last cell ends in its raw line, where that last cell starts. A table's padding
    /// moves its last column to one place; two rows whose earlier cells end alike and whose last cells start
    /// apart are text whose own indentation was taken for padding (`git blame`'s code).
    last_cell_starts: HashMap<usize, usize>,
    /// The prefix a path listing states once (`src/`), and the directory of the group being listed.
    path_prefix: Option<String>,
    path_dir: Option<String>,
    /// The file a group of search matches is listed under (`src/a.rs:`).
    match_file: Option<String>,
    /// Whether an `ls -l` listing past its budget is being listed by its names only.
    names_only: bool,
    /// The last hunk header shown, and whether the line before was an omission marker: a hunk's body line
    /// shown after lines were omitted must be under its own hunk's header, which says where it is.
    hunk_header: String,
    after_omission: bool,
    /// Where the next line shown as the output has it must be found: past the raw line the last one was
    /// matched to (see [`State::in_order`]).
    cursor: usize,
    /// The text of the last `(×N)` repeat, until the next matched line says whether a copy was left uncounted.
    repeated: Option<(String, usize)>,
    /// The lines a repeated block's `… N lines as in T above` notes count since the last matched line, until
    /// the next one says how many lines shown above the output has between them; `None` when no such note
    /// came, or another note did too (a cut's lines are no block's).
    as_above: Option<usize>,
    /// The lines shown so far, for a repeated block's `… N lines as in T above`.
    seen: HashSet<String>,
    /// Counts a later matched line (or the output's end) found untrue: a repeat counting fewer copies than
    /// its run has, a repeated block's note counting other than the lines it left out.
    miscounts: Vec<String>,
}

/// `X … (×N)`: a line folded with its identical neighbours.
static REPEAT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(.*) … \(×(\d+)\)$").unwrap());

/// `  … 4 lines as in test_a above`: lines of a repeated block left out, each a line of a block shown above.
static AS_ABOVE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^  … (\d+) lines? as in .+ above$").unwrap());

impl State {
    fn accepts(&mut self, raw: &Raw, line: &str) -> bool {
        let located = self.under_its_header(raw, line);
        let accepted = located && self.true_line(raw, line);
        let ordered = self.in_order(raw, line);
        self.seen.insert(line.to_string());
        accepted && ordered
    }

    /// Whether `line` comes after the lines shown before it, as the output has them in order: a line shown
    /// as the output has it is matched to its first copy past the last line matched, a `(×N)` repeat to N
    /// copies from there. The next line matched checks the counts before it: no copy of a repeat's line may
    /// come first (a note in between may stand for it), and the lines between that are shown above must be
    /// as many as a repeated block's `… N lines as in T above` notes say (lines a family drops as noise are
    /// not shown above). Other lines (notes, rewritten rows) are not matched: their own checks hold them to
    /// the output.
    fn in_order(&mut self, raw: &Raw, line: &str) -> bool {
        if line.trim().is_empty() {
            return true;
        }
        if let Some(c) = AS_ABOVE.captures(line) {
            let n: usize = c[1].parse().unwrap();
            self.as_above = Some(self.as_above.unwrap_or(0) + n);
            self.repeated = None;
            return true;
        }
        let (text, n) = match REPEAT.captures(line) {
            Some(c) if raw.has(&c[1]) => (c.get(1).unwrap().as_str(), c[2].parse::<usize>().unwrap()),
            _ => (line, 1),
        };
        if !raw.has(text) {
            if line.trim_start().starts_with("… ") {
                (self.repeated, self.as_above) = (None, None);
            }
            return true;
        }
        let copies = raw.at_or_after(text, self.cursor);
        let Some(&first) = copies.first() else { return false };
        self.settle(raw, first);
        let Some(&last) = copies.get(n - 1) else { return false };
        self.cursor = last + 1;
        self.repeated = (n > 1).then(|| (text.to_string(), n));
        true
    }

    /// Checks the counts of the notes since the last matched line against the raw lines from there up to
    /// `next`, where the next matched line is (or the output's end).
    fn settle(&mut self, raw: &Raw, next: usize) {
        if let Some((previous, count)) = self.repeated.take()
            && raw.at_or_after(&previous, self.cursor).first().is_some_and(|&copy| copy < next)
        {
            self.miscounts.push(format!("{previous} … (×{count}): the run has more copies"));
        }
        if let Some(n) = self.as_above.take() {
            let shown_above = (self.cursor..next)
                .filter(|&i| !raw.displayed[i].trim().is_empty() && self.seen.contains(&raw.displayed[i]))
                .count();
            if shown_above != n {
                self.miscounts.push(format!("{n} lines noted as in a block above, {shown_above} there"));
            }
        }
    }

    /// Whether `line`, when it is a line of a hunk's body shown right after an omission, is shown under the
    /// header of a hunk it is in.
    fn under_its_header(&mut self, raw: &Raw, line: &str) -> bool {
        let after_omission = std::mem::replace(&mut self.after_omission, OMITTED.is_match(line));
        if raw.hunk_headers.contains(line) {
            self.hunk_header = line.to_string();
        }
        !after_omission || !raw.only_in_hunks(line) || raw.hunk_of[line].contains(&self.hunk_header)
    }

    fn true_line(&mut self, raw: &Raw, line: &str) -> bool {
        let squeezed = self.table_row(raw, line);
        if !squeezed {
            self.last_cell_starts.clear();
        }
        let accepted = raw.has(line)
            || line.is_empty()
            || self.heading(raw, line)
            || squeezed
            || self.stated(line)
            || is_note(raw, line)
            || self.repeat(raw, line)
            || truncated(raw, line)
            || tree_line(raw, line)
            || commit_line(raw, line)
            || status_names(raw, line)
            || grouped::true_to(&raw.displayed, line)
            || self.path_line(raw, line)
            || self.match_line(raw, line)
            || self.names_line(raw, line)
            || single_match(raw, line);
        self.track(line);
        accepted
    }

    /// Reads what `line` says later lines are shown under: a table's stated cells, a path listing's prefix
    /// and group, a match group's file.
    fn track(&mut self, line: &str) {
        if line.contains(" entries by name only (") {
            self.names_only = true;
        } else if line.starts_with("… ") {
            self.names_only = false;
        }
        if let Some(file) = line.strip_suffix(':').filter(|f| !f.contains(' ') && !f.is_empty()) {
            self.match_file = Some(file.to_string());
        }
        if let Some(prefix) = line.strip_suffix('/').filter(|p| !p.contains(' ') && !p.is_empty()) {
            self.path_prefix = Some(prefix.to_string());
            self.path_dir = Some(prefix.to_string());
        }
    }

    /// A line naming what the lines after it are listed under: a path listing's shared prefix (`src/`, some
    /// raw path starting with it) or a match group's file (`src/a.rs:`, some raw match line in it).
    fn heading(&self, raw: &Raw, line: &str) -> bool {
        static MATCH_IN: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(?::\d+:|-\d+-)").unwrap());
        if let Some(prefix) = line.strip_suffix('/').filter(|p| !p.contains(' ') && !p.is_empty()) {
            return raw.trimmed.iter().any(|r| r.strip_prefix(prefix).is_some_and(|rest| rest.starts_with('/')));
        }
        line.strip_suffix(':').filter(|f| !f.contains(' ') && !f.is_empty()).is_some_and(|file| {
            raw.displayed.iter().any(|r| r.strip_prefix(file).is_some_and(|rest| MATCH_IN.is_match(rest)))
        })
    }

    /// `(every row: A=1 B=x)`: the cells a table's rows all share, stated once (`shape/tables.rs`).
    fn stated(&mut self, line: &str) -> bool {
        let Some(cells) = line.strip_prefix("(every row: ").and_then(|l| l.strip_suffix(')')) else { return false };
        self.constants = cells
            .split(' ')
            .map(|cell| match cell.split_once('=') {
                Some((name, value)) if !name.is_empty() => (name.to_string(), value.to_string()),
                _ => (String::new(), cell.to_string()),
            })
            .collect();
        true
    }

    /// A table row with its padding squeezed and, when an `(every row: …)` line stated them, the shared
    /// cells left out: some raw line is the row's words with the stated values (or, for the header row, their
    /// names) put back in order, its last cell is the row's last cell as printed, and rows whose earlier cells
    /// end at one column start their last cells at one column (a table's columns are aligned; text whose
    /// indentation was taken for padding is not).
    fn table_row(&mut self, raw: &Raw, line: &str) -> bool {
        if line.starts_with(char::is_whitespace) || line.trim().is_empty() || raw.has(line) {
            return false;
        }
        let last = last_cell(line);
        // A row shows at least two of its cells: lines that share every cell but their text (pytest's `E`
        // lines) are text with a margin, and stating the margin once shows lines the output does not have.
        let two_cells = line.contains("  ") || line.contains('\t');
        let values: Vec<&str> = self.constants.iter().flat_map(|(_, v)| v.split_whitespace()).collect();
        let names: Vec<&str> = self.constants.iter().flat_map(|(n, _)| n.split_whitespace()).collect();
        let shown: Vec<&str> = line.split_whitespace().collect();
        for r in &raw.displayed {
            // A tree's line is flattened (see [`tree_line`]), never cut into cells.
            if tree_branches(r).is_some()
                || r.starts_with(char::is_whitespace)
                || !r.ends_with(last)
                || !(two_cells || LONG_LISTING.is_match(r))
            {
                continue;
            }
            let words: Vec<&str> = r.split_whitespace().collect();
            let fits = [&[][..], &values[..], &names[..]].iter().any(|stated| interleaves(&shown, stated, &words));
            if fits {
                let before = &r[..r.len() - last.len()];
                let (end, start) = (before.trim_end().chars().count(), before.chars().count());
                if *self.last_cell_starts.entry(end).or_insert(start) == start {
                    return true;
                }
            }
        }
        false
    }

    /// `X … (×N)`: a line folded with its identical neighbours; `X` is true and, when it is a raw line, the
    /// output has at least N of it (and [`State::in_order`] holds N to the run where the view shows it).
    fn repeat(&mut self, raw: &Raw, line: &str) -> bool {
        let Some(c) = REPEAT.captures(line) else { return false };
        let (text, n) = (c.get(1).unwrap().as_str(), c[2].parse::<usize>().unwrap());
        if raw.has(text) {
            // A hunk's body is file content: two identical lines of it are two lines of the file.
            return raw.count.get(text).copied().unwrap_or(0) >= n && !raw.only_in_hunks(text);
        }
        n >= 2 && self.true_line(raw, text)
    }

    /// A path listing's line (`shape/paths.rs`): `dir/: a b c` or, under a stated prefix, `  rel/: a b`, or
    /// names alone (the prefix's own directory, a wrapped group's next line, names without a directory), each
    /// name `…` or, joined to its directory, a raw path line.
    fn path_line(&mut self, raw: &Raw, line: &str) -> bool {
        static HEADER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(  )?(\S*)/: (.*)$").unwrap());
        let (dir, items) = match HEADER.captures(line) {
            Some(c) => {
                let rel = c.get(2).unwrap().as_str();
                let dir = match (c.get(1), &self.path_prefix) {
                    (Some(_), Some(prefix)) => format!("{prefix}/{rel}"),
                    (Some(_), None) => return false,
                    (None, _) if rel.is_empty() => "/".to_string(),
                    (None, _) => rel.to_string(),
                };
                (Some(dir), c.get(3).unwrap().as_str())
            }
            None => match line.strip_prefix("  ") {
                Some(items) => (self.path_dir.clone(), items),
                None => (None, line),
            },
        };
        let is_path = |item: &str| {
            let full = match &dir {
                Some(dir) if dir == "/" => format!("/{item}"),
                Some(dir) => format!("{dir}/{item}"),
                None => item.to_string(),
            };
            raw.trimmed.contains(&full)
        };
        let ok = !items.is_empty() && items.split(' ').all(|item| item == "…" || is_path(item));
        if ok {
            self.path_dir = dir;
        }
        ok
    }

    /// The names of an `ls -l` listing past its budget, sorted, after `N entries by name only (…), sorted:`:
    /// each word a word of a row's name (its last cell, a link's target left out), `…` where names went.
    fn names_line(&self, raw: &Raw, line: &str) -> bool {
        self.names_only && line.split(' ').all(|word| word == "…" || raw.listed_names.contains(word))
    }

    /// A search's match listed under its file (`shape/matches.rs`): `  12:text` or `  12-text` under `file:`,
    /// whose raw line is `file:12:text` (a column, `file:12:3:text`, left out), the text possibly a window of
    /// the raw text between `[…N chars]` marks.
    fn match_line(&self, raw: &Raw, line: &str) -> bool {
        static ITEM: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^  (\d+)([:-])(.*)$").unwrap());
        let (Some(file), Some(c)) = (&self.match_file, ITEM.captures(line)) else { return false };
        let (number, sep, text) = (&c[1], &c[2], &c[3]);
        // The text after `file:12:`, or after a column too (`file:12:3:`), which grouping leaves out.
        let shows = |r: &str| {
            let Some(rest) = r
                .strip_prefix(file.as_str())
                .and_then(|r| r.strip_prefix(sep)?.strip_prefix(number)?.strip_prefix(sep))
            else {
                return false;
            };
            let column = rest.split_once(':').filter(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            window_of(rest, text) || column.is_some_and(|(_, after)| window_of(after, text))
        };
        raw.displayed.iter().any(|r| shows(r))
    }
}

/// The last cell of a squeezed row: after its last two-space gap or tab or, in an `ls -l` row (cells one
/// space apart), its last word.
fn last_cell(line: &str) -> &str {
    let after = [line.rfind("  ").map(|i| i + 2), line.rfind('\t').map(|i| i + 1)].into_iter().flatten().max();
    &line[after.or_else(|| line.rfind(' ').map(|i| i + 1)).unwrap_or(0)..]
}

/// A search's match in its one-line form (`file:12:text`, `shape/matches.rs`) with its text a window of the
/// raw line's text, marked `[…N chars]` on each side that was cut.
fn single_match(raw: &Raw, line: &str) -> bool {
    line.contains(" chars]")
        && raw.displayed.iter().any(|r| {
            let common = r.bytes().zip(line.bytes()).take_while(|(a, b)| a == b).count();
            (1..=common)
                .rev()
                .filter(|&k| r.is_char_boundary(k) && matches!(&r[k - 1..k], ":" | "-"))
                .any(|k| line.is_char_boundary(k) && window_of(&r[k..], &line[k..]))
        })
}

/// Whether `whole` is `shown` and `stated` interleaved, each in its order, `stated` whole.
fn interleaves(shown: &[&str], stated: &[&str], whole: &[&str]) -> bool {
    if shown.len() + stated.len() != whole.len() {
        return false;
    }
    // reachable[j]: whole[..i+j] is shown[..i] and stated[..j] interleaved.
    let mut reachable = vec![false; stated.len() + 1];
    reachable[0] = true;
    for j in 1..=stated.len() {
        reachable[j] = reachable[j - 1] && stated[j - 1] == whole[j - 1];
    }
    for i in 1..=shown.len() {
        reachable[0] = reachable[0] && shown[i - 1] == whole[i - 1];
        for j in 1..=stated.len() {
            let w = whole[i + j - 1];
            reachable[j] = (reachable[j] && shown[i - 1] == w) || (reachable[j - 1] && stated[j - 1] == w);
        }
    }
    reachable[stated.len()]
}

/// Whether `shown` is `text`, or a window of it marked `[…N chars]` on each side that was cut.
fn window_of(text: &str, shown: &str) -> bool {
    static BEFORE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\[…(\d+) chars\]").unwrap());
    static AFTER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\[…(\d+) chars\]$").unwrap());
    if text == shown {
        return true;
    }
    let (mut body, mut skip, mut rest) = (shown, 0, 0);
    if let Some(c) = BEFORE.captures(body) {
        skip = c[1].parse().unwrap();
        body = &body[c[0].len()..];
    }
    if let Some(c) = AFTER.captures(body) {
        rest = c[1].parse().unwrap();
        body = &body[..body.len() - c[0].len()];
    }
    let chars: Vec<char> = text.chars().collect();
    let len = body.chars().count();
    skip + len + rest == chars.len() && chars[skip..skip + len].iter().collect::<String>() == body
}

/// `X… [+N chars]`: an ordinary line cut at its start (`plan.rs`), the raw line being `X` and N characters
/// more.
fn truncated(raw: &Raw, line: &str) -> bool {
    static CUT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(.*)… \[\+(\d+) chars\]$").unwrap());
    let Some(c) = CUT.captures(line) else { return false };
    let (kept, more) = (c.get(1).unwrap().as_str(), c[2].parse::<usize>().unwrap());
    let total = kept.chars().count() + more;
    raw.displayed.iter().any(|r| r.starts_with(kept) && r.chars().count() == total)
}

/// A tree line with its branches turned into indentation of half their width (`shape/trees.rs`).
fn tree_line(raw: &Raw, line: &str) -> bool {
    let text = line.trim_start_matches(' ');
    let depth = line.len() - text.len();
    raw.tree.get(text).is_some_and(|depths| depths.contains(&depth))
}

/// `commit 0123456789ab (refs) · Author Name · date` (`git.rs`): a `git log` commit's header with its
/// `Author:` and `Date:` lines, the author's address left out.
fn commit_line(raw: &Raw, line: &str) -> bool {
    static COMMIT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^commit ([0-9a-f]{12})(.*?) · (.*) · (.*)$").unwrap());
    let Some(c) = COMMIT.captures(line) else { return false };
    let (sha, refs, author, date) = (&c[1], &c[2], &c[3], &c[4]);
    raw.displayed.iter().enumerate().any(|(i, r)| {
        let Some(rest) = r.strip_prefix("commit ").and_then(|r| r.strip_prefix(sha)) else { return false };
        let refs_ok = rest.trim_start_matches(|c: char| c.is_ascii_hexdigit()) == refs;
        let fields: Vec<(&str, &str)> = raw.displayed[i + 1..]
            .iter()
            .map_while(|l| {
                l.split_once(": ").filter(|(f, _)| !f.is_empty() && f.chars().all(|c| c.is_ascii_alphabetic()))
            })
            .collect();
        let author_ok = author.is_empty()
            || fields.iter().any(|&(f, v)| f == "Author" && v.trim().split(" <").next() == Some(author));
        let date_ok =
            date.is_empty() || fields.iter().any(|&(f, v)| matches!(f, "Date" | "AuthorDate") && v.trim() == date);
        refs_ok && author_ok && date_ok
    })
}

/// `\tdeleted: dir/{a, b}, c` or `?? dir/{a, b}, c` (`git.rs`): `git status` entries of one kind listed by
/// name, consecutive names in one directory grouped; each name, put back into its entry (`\tdeleted:    dir/a`,
/// the bare path for `untracked` and `ignored`, `?? dir/a`), a raw line.
fn status_names(raw: &Raw, line: &str) -> bool {
    static LISTED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^(?:\t([a-z][a-z ]*): |([ MTADRCU?!]{2}) )(\S.*)$").unwrap());
    let Some(c) = LISTED.captures(line) else { return false };
    let mut paths = Vec::new();
    let mut rest = &c[3];
    while !rest.is_empty() {
        let (item, after) = match rest.find('{').filter(|&b| rest.find(", ").is_none_or(|comma| b < comma)) {
            Some(brace) => {
                let Some(close) = rest.find('}') else { return false };
                let dir = &rest[..brace];
                paths.extend(rest[brace + 1..close].split(", ").map(|name| format!("{dir}{name}")));
                ("", &rest[close + 1..])
            }
            None => rest.split_once(", ").map_or((rest, ""), |(item, after)| (item, after)),
        };
        if !item.is_empty() {
            paths.push(item.to_string());
        }
        rest = after.strip_prefix(", ").unwrap_or(after);
    }
    let entry = |path: &str| -> bool {
        match (c.get(1).map(|k| k.as_str()), c.get(2)) {
            (Some("untracked" | "ignored"), _) => raw.has(&format!("\t{path}")),
            (Some(kind), _) => raw.displayed.iter().any(|r| {
                r.strip_prefix('\t')
                    .and_then(|e| e.strip_prefix(kind)?.strip_prefix(':'))
                    .is_some_and(|p| p.starts_with(' ') && p.trim_start() == path)
            }),
            (None, Some(code)) => raw.has(&format!("{} {path}", code.as_str())),
            (None, None) => false,
        }
    };
    !paths.is_empty() && paths.iter().all(|p| entry(p))
}

/// The notes the compressor adds, each in the words of the rule that writes it (`plan.rs`, `shape/*.rs`, the
/// families' `drop_counted` and `note` calls). A count of lines left out is checked to be no more than the
/// output has lines.
fn is_note(raw: &Raw, line: &str) -> bool {
    static NOTES: LazyLock<Vec<Regex>> = LazyLock::new(|| {
        [
            // plan.rs: a cut, a run differing only in numbers.
            r"^… (\d+) lines? omitted(?: \(\d+ warnings?\))?$",
            r"^… (\d+) lines differing only in numbers omitted$",
            // Plan::drop_counted and its kin: `… N what` or `… N what: kind ×n, …` (or one kind alone), and
            // how many lines of those kinds stay shown (`; 3 more shown`); `line` for one.
            concat!(
                r"^… (\d+) (?:lines? of advice \(use .git ….\) not shown|index lines? \(blob ids\) not shown",
                r"|transfer lines? not shown|refs up to date|task lines? not shown|artifact downloads not shown",
                r"|compiler invocations not shown|progress lines? not shown|module downloads not shown",
                r"|lines? of tests not shown|packages without test files|lines? of bookkeeping not shown",
                r"|healthy rows \(running/up and ready\) or dangling images not shown",
                r"|step output, timing and transfer lines? not shown|tests not shown|Nextest run ID lines? not shown",
                r"|lines? not shown|\[notice\] lines? not shown|pseudo filesystems \(tmpfs, loop, …\) not shown",
                r"|kernel threads not shown|attributes known only after apply not shown|installer lines? not shown)",
                r"(?:: .+?)?(?:; \d+ more shown)?$",
            ),
            // git.rs
            r"^\s*… (\d+) more .+ entries not shown(?: \(\d+ in all\))?(?:; ctx_expand has them)?$",
            // conflicts.rs
            r"^… (\d+) more conflicts not shown \(\d+ in all(?:, with \d+ Auto-merging lines)?\); ctx_expand has them$",
            r"^… authors' e-mail addresses not shown$",
            r"^… (?:deleted file|lockfile): \+\d+ -\d+ lines not shown$",
            r"^… \d+ hunks? of .+ not shown \(\+\d+ -\d+ lines\)$",
            // cargo.rs, diag.rs, python.rs, js.rs, runner.rs, node_frames.rs
            r"^… \d+ test binaries without tests not shown$",
            r"^… \d+ more warnings (?:shortened to message and location|not shown): .+$",
            r"^… \d+ more findings shortened to (?:message and location|location, rule and message)$",
            r"^… (\d+) lines of passing or skipped tests not shown$",
            r"^… (\d+) log lines? of passing (?:or skipped )?tests not shown: .+$",
            r"^… \d+ more console blocks from the same call sites not shown: .+$",
            r"^\s*… \d+ frames of node's own code not shown$",
            // shape/*.rs
            r"^… (\d+) deeper tree lines not shown$",
            r"^… (\d+) progress lines not shown$",
            r"^… (\d+) passing \(✓\) lines not shown$",
            r"^  … (\d+) lines? as in .+ above$",
            r"^… \d+ of \d+ (?:entries|rows|matches) not shown$",
            r"^\d+ entries by name only \(modes, sizes, dates(?:, link targets)? not shown\), sorted:$",
        ]
        .iter()
        .map(|p| Regex::new(p).unwrap())
        .collect()
    });
    NOTES
        .iter()
        .filter_map(|note| note.captures(line))
        .any(|c| c.get(1).is_none_or(|n| n.as_str().parse::<usize>().is_ok_and(|n| n <= raw.displayed.len())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleaving_puts_the_stated_cells_back_in_order() {
        assert!(interleaves(&["a", "c"], &["b"], &["a", "b", "c"]));
        assert!(!interleaves(&["a", "c"], &["b"], &["a", "c", "c"]));
        assert!(interleaves(&["a"], &[], &["a"]));
    }
}
