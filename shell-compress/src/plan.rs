//! The editing plan a family fills in: one mark per cleaned line, optional rewrites and inserted notes.
//!
//! Families only decide what is noise. Folding repeats, cutting long runs, protecting failure facts and
//! rendering live here, once, so every family gets the same guarantees: a line marked [`Mark::Must`] is
//! printed exactly as it was, and a removal for length is always announced. A line in the body of a diff hunk
//! is file content an agent may copy into an edit: it is shown exactly as printed or, when a family or a cut
//! takes it out, not at all; it is never rewritten, shortened or folded.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::Range;

use crate::rules;

/// What happens to one cleaned output line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Mark {
    /// Noise the agent never needs (hints, redraws, passing tests already counted by a summary line).
    Drop,
    /// Removed for length; rendered as a counted marker so the agent knows lines are missing.
    Omit,
    /// Shown, but may be rewritten, folded with identical neighbours, shortened or cut from a long run.
    Keep,
    /// Shown exactly as printed; nothing later may drop, rewrite, shorten or cut it.
    Must,
}

/// How long runs of ordinary lines are shortened: runs longer than `max` keep `head` and `tail` lines.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cut {
    pub(crate) max: usize,
    pub(crate) head: usize,
    pub(crate) tail: usize,
}

impl Cut {
    /// Long enough for a screenful of context, short enough that a 10 000-line log costs a few dozen lines.
    pub(crate) const DEFAULT: Cut = Cut { max: 40, head: 15, tail: 15 };
}

/// Where a summary note goes: where the summarised lines began, or after everything.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum NoteAt {
    First,
    End,
}

/// How many of the last non-blank lines survive a failure: tools print their verdict at the end.
pub(crate) const FAILURE_TAIL: usize = 10;

/// Runs of at least this many lines that differ only in numbers fold to first, count and last.
const SIMILAR_RUN: usize = 4;

/// A number in the same place of a run's lines is one of the run's constants when at least this percentage of
/// the lines hold the same value there: `failed=0`, `exit code 0`, `0 errors`. A line where a constant has
/// another value says something different and is not folded away. Indexes, durations and ids vary too often
/// to be constants.
const CONSTANT_PERCENT: usize = 75;

/// A number slot that takes at most this many values over a run, and comes back to a value it left, is a
/// status, whatever the values' shares: with 30 of 100 lines at `exit code 1`, no value is a constant, but the
/// slot still says which lines failed. One that only moves on (a timestamp's hour: 09, then 10) is a phase.
const STATUS_VALUES: usize = 3;
/// A run of at least this many lines of one shape is looked at for rare values (see [`Plan::keep_rare_values`]).
const RARE_RUN: usize = 20;
/// A number slot that takes at most this many values over such a run is a category (an HTTP status, an exit
/// code, a level); more is a counter, a time or an id.
const CATEGORY_VALUES: usize = 8;
/// A category's value is rare when at most one line in this many holds it (and one always is).
const RARE_SHARE: usize = 50;

pub(crate) struct Plan<'a> {
    lines: &'a [String],
    marks: Vec<Mark>,
    /// Whether each line is in the body of a diff hunk (see [`rules::hunk_bodies`]).
    in_hunk: Vec<bool>,
    /// Whether each line was dropped for good because the view accounts for it otherwise: an exact copy of it
    /// is shown elsewhere ([`Plan::drop_copy`]) or a note counts it ([`Plan::fold_counted`]). Protection does
    /// not bring such a line back.
    accounted: Vec<bool>,
    rewrites: Vec<Option<String>>,
    repeats: Vec<usize>,
    notes: Vec<(usize, String)>,
    /// The runs [`Plan::fold_similar`] folded: a fold's note stands for ordinary lines, so it does not end a run
    /// for cutting, and a cut through the fold's first line takes the lines its note stood for too.
    similar: Vec<SimilarFold>,
    /// Ordinary lines longer than this many characters are shortened; `None` keeps them whole.
    pub(crate) max_line_chars: Option<usize>,
    pub(crate) cut: Cut,
    /// Whether runs that differ only in numbers fold (logs, process tables); off where numbers are the point.
    pub(crate) similar_folding: bool,
    /// Output whose purpose is the list itself: while the rendered text stays within this many characters,
    /// runs are not cut (a listing is compacted, not elided). `None` for ordinary output.
    pub(crate) listing_chars: Option<usize>,
    /// Whether a cut may fall between two lines, the earlier first: [`rules::boundary_before`] unless a family
    /// knows its blocks better.
    pub(crate) boundary: fn(&str, &str) -> bool,
}

impl<'a> Plan<'a> {
    pub(crate) fn new(lines: &'a [String]) -> Self {
        Plan {
            lines,
            marks: vec![Mark::Keep; lines.len()],
            in_hunk: rules::hunk_bodies(lines),
            accounted: vec![false; lines.len()],
            rewrites: vec![None; lines.len()],
            repeats: vec![1; lines.len()],
            notes: Vec::new(),
            similar: Vec::new(),
            max_line_chars: Some(400),
            cut: Cut::DEFAULT,
            similar_folding: false,
            listing_chars: None,
            boundary: rules::boundary_before,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.lines.len()
    }

    pub(crate) fn line(&self, i: usize) -> &'a str {
        &self.lines[i]
    }

    pub(crate) fn lines(&self) -> &'a [String] {
        self.lines
    }

    pub(crate) fn mark(&self, i: usize) -> Mark {
        self.marks[i]
    }

    /// Whether line `i` is in the body of a diff hunk, so never rewritten, shortened or folded.
    pub(crate) fn in_hunk(&self, i: usize) -> bool {
        self.in_hunk[i]
    }

    /// Whether line `i` is an ordinary line that later passes may rewrite, fold or shorten: marked
    /// [`Mark::Keep`] and not in a hunk's body.
    pub(crate) fn ordinary(&self, i: usize) -> bool {
        self.marks[i] == Mark::Keep && !self.in_hunk[i]
    }

    /// Sets `mark` unless the line is already [`Mark::Must`]: protection is never undone.
    pub(crate) fn set(&mut self, i: usize, mark: Mark) {
        if mark == Mark::Must {
            self.must(i);
        } else if self.marks[i] != Mark::Must {
            self.marks[i] = mark;
        }
    }

    /// Protects a line; a protected line is printed as it was, so any rewrite is discarded.
    pub(crate) fn must(&mut self, i: usize) {
        self.marks[i] = Mark::Must;
        self.rewrites[i] = None;
    }

    pub(crate) fn set_range(&mut self, range: Range<usize>, mark: Mark) {
        for i in range {
            self.set(i, mark);
        }
    }

    /// Applies `mark` to every line matching `pred`.
    pub(crate) fn set_where(&mut self, mark: Mark, pred: impl Fn(&str) -> bool) {
        for i in 0..self.len() {
            if pred(self.line(i)) {
                self.set(i, mark);
            }
        }
    }

    /// Drops every line matching `pred` and notes how many went, `… {n} {what}`, where the first of them was or
    /// at the end (see [`Plan::drop_counted_by_kind`]).
    pub(crate) fn drop_counted(&mut self, what: &str, at: NoteAt, failed: bool, pred: impl Fn(&str) -> bool) {
        self.drop_counted_by_kind(what, at, failed, |line| pred(line).then_some(""));
    }

    /// Drops every line `kind` names a kind of and notes how many went, where the first of them was or at the
    /// end, with how many of each kind in the order they came: `… 42 {what}: Compiling ×40, Downloaded ×2`, or
    /// `… 40 {what}: Compiling` for one kind (an empty kind, of [`Plan::drop_counted`], is not named). A line the
    /// shared protection shows for a command that `failed` or not (an error line, a failure's closing lines) is
    /// protected here and not counted, so no caller can hide it, whatever runs after; the note says how many
    /// such lines stay (`…; 3 more shown`). Lines no longer than their note stay instead.
    pub(crate) fn drop_counted_by_kind(
        &mut self,
        what: &str,
        at: NoteAt,
        failed: bool,
        kind: impl Fn(&'a str) -> Option<&'a str>,
    ) {
        self.drop_counted_by_kind_in(0..self.len(), what, at, failed, kind);
    }

    /// [`Plan::drop_counted_by_kind`] for the lines `range` only, with the note where the first of them was
    /// or at the range's end: where one output holds several runs (a test binary each), so each note sits with
    /// what it counts.
    pub(crate) fn drop_counted_by_kind_in(
        &mut self,
        range: Range<usize>,
        what: &str,
        at: NoteAt,
        failed: bool,
        kind: impl Fn(&'a str) -> Option<&'a str>,
    ) {
        let end = range.end;
        let lines: Vec<(usize, &str)> = range.filter_map(|i| Some((i, kind(self.line(i))?))).collect();
        let at = if at == NoteAt::End { Some(end) } else { None };
        self.drop_kinds_counted(&lines, what, at, failed);
    }

    /// Drops the lines `lines`, each with the name of its kind, and notes how many of each kind went (see
    /// [`Plan::drop_counted_by_kind`]) before line `at`, or where the first of them was.
    pub(crate) fn drop_kinds_counted(&mut self, lines: &[(usize, &str)], what: &str, at: Option<usize>, failed: bool) {
        let matching: Vec<usize> = lines.iter().map(|&(i, _)| i).collect();
        let hidden = self.countable(&matching, failed);
        let Some(&first) = hidden.first() else { return };
        // `hidden` is `lines` less the protected ones, in the same order: walked side by side, each
        // hidden line is met once, with no table as long as the output (a call per test binary
        // would otherwise cost the whole output each time).
        let mut rest = hidden.iter().peekable();
        let kinds = counted_in_order(lines.iter().filter(|&&(i, _)| rest.next_if_eq(&&i).is_some()).map(|&(_, k)| k));
        let mut note = match hidden.len() {
            // "1 progress line", not "1 progress lines" (every `what` counts lines).
            1 => format!("… 1 {}", what.replacen("lines", "line", 1)),
            n => format!("… {n} {what}"),
        };
        match kinds.as_slice() {
            [(kind, _)] if !kind.is_empty() => {
                let _ = write!(note, ": {kind}");
            }
            [_, _, ..] => {
                let named: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} ×{n}")).collect();
                let _ = write!(note, ": {}", named.join(", "));
            }
            _ => {}
        }
        // Lines of these kinds that stay (a failure's closing lines, an error among them) are said to: a note
        // naming `--- PASS ×9` over three more `--- PASS` lines read as a miscount.
        let shown = matching.len() - hidden.len();
        if shown > 0 {
            let _ = write!(note, "; {shown} more shown");
        }
        if !self.shorter(&note, &hidden) {
            return;
        }
        for &i in &hidden {
            self.set(i, Mark::Drop);
        }
        self.note(at.unwrap_or(first), note);
    }

    /// Drops the blocks of lines `blocks` (in order) and shows `text`, given how many went, where the first
    /// was: for a block that says nothing as a whole (a test binary without tests), so the note counts blocks.
    /// A block protection would show a line of, for a command that `failed` or not, is shown whole instead and
    /// not counted. Nothing goes when the note is not the shorter.
    pub(crate) fn drop_blocks_counted(
        &mut self,
        blocks: &[Range<usize>],
        failed: bool,
        text: impl FnOnce(usize) -> String,
    ) {
        let mut hidden_blocks = 0;
        let mut hidden = Vec::new();
        for block in blocks {
            let lines: Vec<usize> = block.clone().collect();
            if self.countable(&lines, failed).len() == lines.len() {
                hidden_blocks += 1;
                hidden.extend(lines);
            } else {
                self.set_range(block.clone(), Mark::Must);
            }
        }
        if hidden.is_empty() {
            return;
        }
        let text = text(hidden_blocks);
        if self.shorter(&text, &hidden) {
            self.replace(&hidden, text);
        }
    }

    /// Whether line `i` is shown as a rule rewrote it rather than as printed.
    pub(crate) fn rewritten(&self, i: usize) -> bool {
        self.rewrites[i].is_some()
    }

    /// Shows `text` instead of line `i` (ignored for protected lines and lines of a hunk's body).
    pub(crate) fn rewrite(&mut self, i: usize, text: String) {
        if self.marks[i] != Mark::Must && !self.in_hunk[i] {
            self.rewrites[i] = Some(text);
        }
    }

    /// Inserts a summary line before line `at` (`at == len()` appends).
    pub(crate) fn note(&mut self, at: usize, text: String) {
        self.notes.push((at, text));
    }

    /// [`Plan::replace`] of the lines of `indices` that protection would not show anyway (for a command that
    /// `failed` or not), with `text` given how many those are; nothing when none is left or `text` is not the
    /// shorter. The others are protected here (see [`Plan::countable`]).
    pub(crate) fn replace_counted(&mut self, indices: &[usize], failed: bool, text: impl FnOnce(usize) -> String) {
        self.replace_hidden(indices, failed, |hidden| Some(text(hidden.len())));
    }

    /// [`Plan::replace_counted`] with `text` given the lines it stands for, which it may decline (`None`).
    pub(crate) fn replace_hidden(
        &mut self,
        indices: &[usize],
        failed: bool,
        text: impl FnOnce(&[usize]) -> Option<String>,
    ) {
        let hidden = self.countable(indices, failed);
        if !hidden.is_empty()
            && let Some(text) = text(&hidden)
            && self.shorter(&text, &hidden)
        {
            self.replace(&hidden, text);
        }
    }

    /// Whether `note` takes fewer characters than the lines `indices` it would stand for: a count that is not
    /// shorter leaves the lines shown.
    fn shorter(&self, note: &str, indices: &[usize]) -> bool {
        note.len() + 1 < indices.iter().map(|&i| self.line(i).len() + 1).sum()
    }

    /// Protects the lines of `indices` that the shared protection shows for a command that `failed` or not,
    /// and returns the others: those a count of lines not shown may count. Protecting them here rather than
    /// trusting the later pass matters where that pass does not run (a listing or a search that exited 0):
    /// a line a count leaves out must then still be shown, not silently dropped.
    pub(crate) fn countable(&mut self, indices: &[usize], failed: bool) -> Vec<usize> {
        let tail = if failed { self.failure_tail_start() } else { self.len() };
        // A line a family already protected stays too (setting a mark never undoes protection), and so is
        // shown, not counted.
        let (shown, hidden): (Vec<usize>, Vec<usize>) =
            indices.iter().partition(|&&i| self.marks[i] == Mark::Must || self.protects(i, failed, tail));
        for i in shown {
            self.must(i);
        }
        hidden
    }

    /// Shows `text` (one or more lines) in place of the ordinary lines `indices`, where the first of them was.
    /// Protected lines among `indices` stay where they are.
    pub(crate) fn replace(&mut self, indices: &[usize], text: String) {
        let Some(&first) = indices.first() else { return };
        for &i in indices {
            self.set(i, Mark::Drop);
        }
        self.note(first, text.trim_end_matches('\n').to_string());
    }

    /// Line `i`'s outcome is its family's verdict on it (a passing test's line): an error word in it (a test
    /// named `test_ParseError`, `should_panic`) does not protect it from being counted. Not for the closing
    /// lines of a failure, which are shown whole.
    pub(crate) fn account(&mut self, i: usize) {
        self.accounted[i] = true;
    }

    /// Drops line `i` even when protected, because the caller shows an identical line elsewhere: a repeated
    /// fact survives as its first copy. Protection applied later does not bring it back.
    pub(crate) fn drop_copy(&mut self, i: usize) {
        self.marks[i] = Mark::Drop;
        self.accounted[i] = true;
    }

    /// Drops the lines `indices` for good, protected or not and even from the closing lines of a failure, and
    /// shows `text` where the first was: for lines that tell the agent nothing a count would not (frames of
    /// node's own code), so the count stands for them.
    pub(crate) fn fold_counted(&mut self, indices: &[usize], text: String) {
        let Some(&first) = indices.first() else { return };
        for &i in indices {
            self.drop_copy(i);
        }
        self.note(first, text);
    }

    /// Whether line `i` will be shown (possibly folded or cut later).
    pub(crate) fn visible(&self, i: usize) -> bool {
        matches!(self.marks[i], Mark::Keep | Mark::Must)
    }

    /// Whatever the exit code: lines reporting an error or a failure must reach the agent verbatim. A line of
    /// a hunk's body is a line of a file (`except AttributeError:`), not a report: it goes with its hunk.
    pub(crate) fn protect_reports(&mut self) {
        for i in 0..self.len() {
            if self.protects(i, false, self.len()) {
                self.must(i);
            }
        }
    }

    /// Shows every warning among the ordinary lines (outside a hunk's body) when there are at most `limit`.
    pub(crate) fn protect_few_warnings(&mut self, limit: usize) {
        let warnings: Vec<usize> =
            (0..self.len()).filter(|&i| self.ordinary(i) && rules::is_warning(self.line(i))).collect();
        if warnings.len() <= limit {
            for i in warnings {
                self.must(i);
            }
        }
    }

    /// After a failure: error lines, location lines and the closing lines must reach the agent verbatim.
    pub(crate) fn protect_failure(&mut self) {
        let tail = self.failure_tail_start();
        for i in 0..self.len() {
            if self.protects(i, true, tail) {
                self.must(i);
            }
        }
    }

    /// Whether [`Plan::protect_failure`] (`failed`, with the closing lines from `tail` on) or
    /// [`Plan::protect_reports`] shows line `i` whatever a family marked it.
    fn protects(&self, i: usize, failed: bool, tail: usize) -> bool {
        let line = self.line(i);
        if failed {
            !self.accounted[i] && (rules::protected(line, true) || (i >= tail && !line.trim().is_empty()))
        } else {
            !self.in_hunk[i] && !self.accounted[i] && rules::protected(line, false)
        }
    }

    /// Whether any non-blank line of `range` is shown: visible now, or brought back later by the shared
    /// protection for a command that `failed` or not (see [`Plan::protects`]). For a line that only says what
    /// the lines around it belong to, and is worth showing only with them.
    pub(crate) fn shows_any(&self, range: Range<usize>, failed: bool) -> bool {
        let tail = if failed { self.failure_tail_start() } else { self.len() };
        range
            .into_iter()
            .any(|i| !self.line(i).trim().is_empty() && (self.visible(i) || self.protects(i, failed, tail)))
    }

    /// Where the last [`FAILURE_TAIL`] non-blank lines start: after a failure they are shown whatever a family
    /// marked them, so a family must not announce them as removed or shortened.
    pub(crate) fn failure_tail_start(&self) -> usize {
        (0..self.len()).rev().filter(|&i| !self.line(i).trim().is_empty()).take(FAILURE_TAIL).last().unwrap_or(0)
    }

    /// Drops blank lines at the edges and all but one of consecutive visible blank lines, protected or not. A
    /// blank line in a hunk's body is an unchanged empty line of the file, not spacing: it stays.
    pub(crate) fn tidy_blanks(&mut self) {
        let mut previous_blank = true;
        let mut last_visible = None;
        for i in 0..self.len() {
            if !self.visible(i) {
                continue;
            }
            let blank = !self.in_hunk[i] && self.text(i).trim().is_empty();
            if blank && previous_blank {
                // Even a protected blank line: spacing carries no fact, and one blank line already separates.
                self.drop_copy(i);
                continue;
            }
            previous_blank = blank;
            last_visible = Some(i);
        }
        if let Some(i) = last_visible.filter(|&i| self.text(i).trim().is_empty()) {
            self.drop_copy(i);
        }
    }

    /// Folds consecutive identical visible lines into the first, which then carries a `(×N)` count, when the
    /// count is shorter than the copies it replaces. Only neighbours fold: the same line printed apart (a
    /// `self = <…>` in each frame of a traceback) belongs where it was printed. Lines of a hunk's body never
    /// fold: each is a line of the file.
    pub(crate) fn fold_repeats(&mut self) {
        let starts = self.note_starts();
        // Consecutive visible lines with the same text, dropped lines between them aside.
        let mut group: Vec<usize> = Vec::new();
        for (i, &note_before) in starts.iter().enumerate() {
            if i == self.len() || note_before {
                self.fold_group(&std::mem::take(&mut group));
                if i == self.len() {
                    break;
                }
            }
            match self.marks[i] {
                Mark::Drop => {}
                Mark::Omit => self.fold_group(&std::mem::take(&mut group)),
                Mark::Keep | Mark::Must if self.in_hunk[i] => self.fold_group(&std::mem::take(&mut group)),
                Mark::Keep | Mark::Must => {
                    if group.first().is_none_or(|&p| self.text(p) != self.text(i)) {
                        self.fold_group(&std::mem::take(&mut group));
                    }
                    group.push(i);
                }
            }
        }
    }

    /// Folds `group`, visible lines of one text, into its first line unless the count would be the longer.
    fn fold_group(&mut self, group: &[usize]) {
        let Some((&first, copies)) = group.split_first() else { return };
        let total: usize = group.iter().map(|&i| self.repeats[i]).sum();
        let replaced: usize = copies.iter().map(|&i| self.text(i).len() + 1).sum();
        if format!(" … (×{total})").len() >= replaced {
            return;
        }
        if copies.iter().any(|&i| self.marks[i] == Mark::Must) {
            self.must(first);
        }
        self.repeats[first] = total;
        for &i in copies {
            self.marks[i] = Mark::Drop;
        }
    }

    /// Folds runs of ordinary lines that differ only in numbers (progress counters, pids, timestamps) to the
    /// first line, a count and the last line. A run is first split where one of its constants (see
    /// [`CONSTANT_PERCENT`]) changes, so `failed=1` among `failed=0` lines is shown in place between two folds.
    pub(crate) fn fold_similar(&mut self) {
        self.keep_rare_values();
        for run in self.similar_runs() {
            let texts: Vec<&str> = run.iter().map(|&i| self.text(i)).collect();
            for part in split_where_constants_change(&texts) {
                self.fold_similar_run(&run[part]);
            }
        }
    }

    /// Shows in place each line of a long run of one shape whose value in a category slot (see
    /// [`CATEGORY_VALUES`]) is rare: the one `500` among `200`s and `304`s of an access log, which no
    /// error word marks (a QA pass saw it folded into a count, and cut from the middle of a shorter log).
    fn keep_rare_values(&mut self) {
        let mut rare = Vec::new();
        for run in self.similar_runs().into_iter().filter(|run| run.len() >= RARE_RUN) {
            let numbers: Vec<Vec<&str>> = run.iter().map(|&i| rules::numbers(self.text(i))).collect();
            let slots = numbers.iter().map(Vec::len).max().unwrap_or(0);
            let full = || numbers.iter().enumerate().filter(|(_, line)| line.len() == slots);
            for slot in 0..slots {
                let mut counts: HashMap<&str, usize> = HashMap::new();
                for (_, line) in full() {
                    *counts.entry(line[slot]).or_default() += 1;
                }
                if !(2..=CATEGORY_VALUES).contains(&counts.len()) {
                    continue;
                }
                let rarest = (full().count() / RARE_SHARE).max(1);
                rare.extend(full().filter(|(_, line)| counts[line[slot]] <= rarest).map(|(k, _)| run[k]));
            }
        }
        for i in rare {
            self.must(i);
        }
    }

    /// Maximal runs of at least [`SIMILAR_RUN`] consecutive ordinary lines with the same [`rules::shape`],
    /// none crossing a note.
    fn similar_runs(&self) -> Vec<Vec<usize>> {
        let starts = self.note_starts();
        let mut runs: Vec<Vec<usize>> = Vec::new();
        // The shape of the line before, while it is ordinary.
        let mut previous: Option<String> = None;
        for (i, &note_before) in starts.iter().enumerate().take(self.len()) {
            if !self.ordinary(i) {
                previous = None;
                continue;
            }
            let shape = rules::shape(self.text(i));
            match runs.last_mut() {
                Some(run) if !note_before && previous.as_ref() == Some(&shape) => run.push(i),
                _ => runs.push(vec![i]),
            }
            previous = Some(shape);
        }
        runs.retain(|run| run.len() >= SIMILAR_RUN);
        runs
    }

    /// Folds `run`, consecutive lines of one shape, to its first line, a count and its last line, unless it is
    /// too short or the count would not be shorter than the lines it replaces.
    fn fold_similar_run(&mut self, run: &[usize]) {
        if run.len() < SIMILAR_RUN {
            return;
        }
        let texts: Vec<&str> = run.iter().map(|&i| self.text(i)).collect();
        if hides_names(&texts) {
            return;
        }
        let middle = &run[1..run.len() - 1];
        let count: usize = middle.iter().map(|&j| self.repeats[j]).sum();
        let note = format!("… {count} lines differing only in numbers omitted");
        let replaced: usize = middle.iter().map(|&j| self.rendered(j).len()).sum();
        if note.len() + 1 >= replaced {
            return;
        }
        for &j in middle {
            self.marks[j] = Mark::Drop;
        }
        self.similar.push(SimilarFold { note: self.notes.len(), first: run[0], middle: middle.to_vec() });
        self.note(middle[0], note);
    }

    /// Shortens every run of ordinary lines (between protected lines, notes and omissions) longer than
    /// `self.cut.max` to about its head and tail. A cut starts and ends at block boundaries (see
    /// [`Plan::boundary`]) so it lands between frames, hunks and paragraphs; a hunk without
    /// boundaries is kept whole up to three times the limit. A listing within its budget is not cut at all.
    pub(crate) fn cut_runs(&mut self) {
        if self.listing_chars.is_some_and(|budget| self.render().chars().count() <= budget) {
            return;
        }
        // A log whose lines fold by shape every few lines would otherwise be a string of runs too short to
        // cut: 16,000 lines of `INFO`/`DEBUG`/`WARN` came back as 10,800.
        let mut fold_notes = vec![false; self.notes.len()];
        for fold in &self.similar {
            fold_notes[fold.note] = true;
        }
        let starts = self.note_starts_where(|note| !fold_notes[note]);
        let mut run: Vec<usize> = Vec::new();
        for (i, &note_before) in starts.iter().enumerate() {
            let boundary = i == self.len() || note_before || matches!(self.marks[i], Mark::Omit | Mark::Must);
            if boundary {
                if run.len() > self.cut.max {
                    let omitted = self.cut_range(&run);
                    let header = self.header_of_hunk_cut_into(&run, omitted.clone());
                    for &j in run[omitted].iter().filter(|&&j| Some(j) != header) {
                        self.marks[j] = Mark::Omit;
                    }
                }
                run.clear();
            }
            if i < self.len() && self.marks[i] == Mark::Keep {
                run.push(i);
            }
        }
        self.absorb_cut_folds();
    }

    /// A fold whose first line a cut took goes into the cut: its lines are counted in the cut's marker
    /// rather than by a note among omitted lines.
    fn absorb_cut_folds(&mut self) {
        let mut absorbed: Vec<usize> = Vec::new();
        for fold in &self.similar {
            if self.marks[fold.first] == Mark::Omit {
                for &j in &fold.middle {
                    self.marks[j] = Mark::Omit;
                }
                absorbed.push(fold.note);
            }
        }
        absorbed.sort_unstable();
        for note in absorbed.into_iter().rev() {
            self.notes.remove(note);
        }
        self.similar.clear();
    }

    /// Which part of a too-long `run` (indices into the lines) is omitted.
    fn cut_range(&self, run: &[usize]) -> Range<usize> {
        let Cut { max, head, tail } = self.cut;
        // Inside a diff hunk's body a blank line is an unchanged empty line, not a paragraph break.
        let is_boundary = |k: usize| !self.in_hunk[run[k]] && (self.boundary)(self.line(run[k - 1]), self.line(run[k]));
        let start = (head..run.len()).find(|&k| is_boundary(k));
        let end = (1..=run.len() - tail).rev().find(|&k| is_boundary(k));
        if let (Some(start), Some(end)) = (start, end)
            && start < end
        {
            return start..end;
        }
        if run.len() <= 3 * max && rules::is_patch(run.iter().map(|&j| self.line(j))) {
            return 0..0;
        }
        // Without boundaries the cut goes through the middle of the run, but not into a hunk's body within
        // three times the limit: that hunk stays whole (a `black --diff` hunk followed by the next file's
        // `would reformat` and `---`/`+++` lines was cut through its changed lines). Only a longer one is cut.
        let start = self.hunk_split_at(run, head).filter(|body| body.len() <= 3 * max).map_or(head, |body| body.end);
        let end = run.len() - tail;
        let end = self.hunk_split_at(run, end).filter(|body| body.len() <= 3 * max).map_or(end, |body| body.start);
        if start < end { start..end } else { 0..0 }
    }

    /// The positions in `run` of the hunk a cut before position `k` would split (`k` and the position before
    /// it are lines of one body): its body, and its header when that is the run's line before the body.
    fn hunk_split_at(&self, run: &[usize], k: usize) -> Option<Range<usize>> {
        let continues =
            |j: usize| j > 0 && run[j - 1] + 1 == run[j] && self.in_hunk[run[j - 1]] && self.in_hunk[run[j]];
        if k >= run.len() || !continues(k) {
            return None;
        }
        let first = (0..k).rev().find(|&j| !continues(j)).unwrap_or(0);
        let start = if first > 0 && run[first - 1] + 1 == run[first] { first - 1 } else { first };
        let end = (k + 1..run.len()).find(|&j| !continues(j)).unwrap_or(run.len());
        Some(start..end)
    }

    /// When the `omitted` part of `run` ends inside the body of a hunk whose header it would hide too, that
    /// header: it stays, since it says where the body lines shown after the cut are (a cut through the middle
    /// of one long hunk into the next hid `@@ -301,19 +319,16 @@` above lines of its body).
    fn header_of_hunk_cut_into(&self, run: &[usize], omitted: Range<usize>) -> Option<usize> {
        if !self.in_hunk[*run.get(omitted.end)?] {
            return None;
        }
        // A header is the line before a body's first line; lines of the same body may sit between it and the end.
        let header = run[omitted].iter().rev().copied().find(|&j| !self.in_hunk[j])?;
        self.in_hunk.get(header + 1).copied().unwrap_or(false).then_some(header)
    }

    /// Produces the final text, one `\n`-terminated line per visible line, note and omission marker.
    pub(crate) fn render(&self) -> String {
        let mut notes: Vec<&(usize, String)> = self.notes.iter().collect();
        notes.sort_by_key(|(at, _)| *at);
        let mut notes = notes.into_iter().peekable();
        let mut out = String::new();
        let mut omitted = Omitted::default();
        for i in 0..=self.len() {
            while let Some((_, text)) = notes.next_if(|(at, _)| *at == i) {
                flush_omitted(&mut out, &mut omitted);
                out.push_str(text);
                out.push('\n');
            }
            if i == self.len() {
                break;
            }
            match self.marks[i] {
                Mark::Drop => {}
                // A line that stands for its exact copies counts them: the marker says how many lines of the
                // output are not shown.
                Mark::Omit => {
                    omitted.lines += self.repeats[i];
                    if rules::is_warning(self.text(i)) {
                        omitted.warnings += self.repeats[i];
                    }
                }
                Mark::Keep | Mark::Must => {
                    flush_omitted(&mut out, &mut omitted);
                    self.push_line(&mut out, i);
                }
            }
        }
        flush_omitted(&mut out, &mut omitted);
        out
    }

    /// Line `i` as [`Plan::render`] shows it, newline included.
    fn rendered(&self, i: usize) -> String {
        let mut out = String::new();
        self.push_line(&mut out, i);
        out
    }

    fn push_line(&self, out: &mut String, i: usize) {
        let text = self.text(i);
        match self.max_line_chars {
            Some(limit) if self.ordinary(i) && text.chars().count() > limit => {
                let keep: String = text.chars().take(limit).collect();
                let _ = write!(out, "{keep}… [+{} chars]", text.chars().count() - limit);
            }
            _ => out.push_str(text),
        }
        if self.repeats[i] > 1 {
            let _ = write!(out, " … (×{})", self.repeats[i]);
        }
        out.push('\n');
    }

    fn text(&self, i: usize) -> &str {
        self.rewrites[i].as_deref().unwrap_or(&self.lines[i])
    }

    /// `starts[i]` is true when a note sits before line `i`; notes separate runs for folding and cutting.
    fn note_starts(&self) -> Vec<bool> {
        self.note_starts_where(|_| true)
    }

    /// [`Plan::note_starts`] of the notes whose index into the notes `counts`.
    fn note_starts_where(&self, counts: impl Fn(usize) -> bool) -> Vec<bool> {
        let mut starts = vec![false; self.len() + 1];
        for (k, (at, _)) in self.notes.iter().enumerate() {
            if counts(k) {
                starts[*at] = true;
            }
        }
        starts
    }
}

/// A run [`Plan::fold_similar`] folded: its note (an index into the plan's notes), the first line shown
/// before the note, and the lines the note stands for.
struct SimilarFold {
    note: usize,
    first: usize,
    middle: Vec<usize>,
}

/// Whether folding `texts`, lines of one shape, to the first, a count and the last would hide names that
/// cannot be rebuilt from them: a word that varies is a file name (it has an extension, `victim10.txt`,
/// `migrations/0013_old.py`), and its number does not run first, first + 1, …, last. A
/// status listing sorted by name (`victim10.txt`, `victim11.txt`, `victim2.txt`) says which files are
/// gone only by naming them all.
fn hides_names(texts: &[&str]) -> bool {
    let words: Vec<Vec<&str>> = texts.iter().map(|t| t.split_whitespace().collect()).collect();
    let Some(first) = words.first() else { return false };
    (0..first.len()).any(|k| {
        let column: Vec<&str> = words.iter().filter_map(|w| w.get(k).copied()).collect();
        let names_a_file = |word: &str| {
            word.rsplit_once('.').is_some_and(|(_, ext)| ext.starts_with(|c: char| c.is_ascii_alphabetic()))
        };
        if column.len() != texts.len() || column.iter().all(|w| *w == column[0]) || !names_a_file(column[0]) {
            return false;
        }
        let numbers: Vec<Vec<&str>> = column.iter().map(|w| rules::numbers(w)).collect();
        let varying: Vec<usize> =
            (0..numbers[0].len()).filter(|&n| numbers.iter().any(|ns| ns.get(n) != numbers[0].get(n))).collect();
        let [n] = varying[..] else { return true };
        let values: Option<Vec<u128>> = numbers.iter().map(|ns| ns.get(n)?.parse().ok()).collect();
        !values.is_some_and(|v| v.windows(2).all(|w| w[0].checked_add(1) == Some(w[1])))
    })
}

/// Splits a run of lines of one shape into consecutive parts, as ranges of indices into `texts`, so that
/// within each part every constant of the run (see [`CONSTANT_PERCENT`]) keeps one value.
fn split_where_constants_change(texts: &[&str]) -> Vec<Range<usize>> {
    let numbers: Vec<Vec<&str>> = texts.iter().map(|text| rules::numbers(text)).collect();
    // Lines of one shape mostly have the same number of numbers, but not always: the shape writes a number
    // as `#`, and a line may hold a `#` of its own (`req # code 500` among `req 6 code 200`). Its numbers
    // would line up with the wrong slots, so such a line is a part of its own, and the slots are those of
    // the run's other lines.
    let slots = numbers.iter().map(Vec::len).max().unwrap_or(0);
    let full: Vec<&Vec<&str>> = numbers.iter().filter(|line| line.len() == slots).collect();
    let constants: Vec<usize> = (0..slots).filter(|&slot| is_constant(full.iter().map(|line| line[slot]))).collect();
    let differs = |a: usize, b: usize| {
        numbers[a].len() != slots
            || numbers[b].len() != slots
            || constants.iter().any(|&slot| numbers[a][slot] != numbers[b][slot])
    };
    let mut parts = Vec::new();
    let mut start = 0;
    for k in 1..=texts.len() {
        if k == texts.len() || differs(start, k) {
            parts.push(start..k);
            start = k;
        }
    }
    parts
}

/// Whether one value accounts for at least [`CONSTANT_PERCENT`] of `values`, or they are a status (see
/// [`STATUS_VALUES`]): either way a change of value says something about a line.
fn is_constant<'a>(values: impl Iterator<Item = &'a str>) -> bool {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    let (mut total, mut changes, mut previous) = (0, 0, None);
    for value in values {
        *counts.entry(value).or_default() += 1;
        total += 1;
        changes += usize::from(previous.is_some_and(|previous| previous != value));
        previous = Some(value);
    }
    // Each value in one block makes `len - 1` changes; more means a value came back.
    let status = counts.len() <= STATUS_VALUES && changes >= counts.len();
    status || counts.values().max().is_some_and(|&most| most * 100 >= total * CONSTANT_PERCENT)
}

/// Lines a cut took, counted until its marker is written; a warning among them is said (a journal's few
/// warnings past the number shown whole).
#[derive(Default)]
struct Omitted {
    lines: usize,
    warnings: usize,
}

fn flush_omitted(out: &mut String, omitted: &mut Omitted) {
    let Omitted { lines, warnings } = std::mem::take(omitted);
    let noun = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match (lines, warnings) {
        (0, _) => {}
        (_, 0) => {
            let _ = writeln!(out, "… {} omitted", noun(lines, "line", "lines"));
        }
        _ => {
            let _ =
                writeln!(out, "… {} omitted ({})", noun(lines, "line", "lines"), noun(warnings, "warning", "warnings"));
        }
    }
}

/// How many times each of `names` comes, in the order each first comes.
pub(crate) fn counted_in_order<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<(&'a str, usize)> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for name in names {
        match counts.iter_mut().find(|(known, _)| *known == name) {
            Some((_, n)) => *n += 1,
            None => counts.push((name, 1)),
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owned(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn folds_identical_neighbours_with_count() {
        let lines = owned(&["start", "retry", "retry", "retry", "done"]);
        let mut plan = Plan::new(&lines);
        plan.fold_repeats();
        assert_eq!(plan.render(), "start\nretry … (×3)\ndone\n");
    }

    #[test]
    fn folding_keeps_protection_on_the_surviving_copy() {
        let lines = owned(&["retrying connection", "retrying connection"]);
        let mut plan = Plan::new(&lines);
        plan.must(1);
        plan.fold_repeats();
        assert_eq!(plan.mark(0), Mark::Must);
        assert_eq!(plan.render(), "retrying connection … (×2)\n");
    }

    #[test]
    fn a_count_longer_than_the_copies_it_replaces_is_not_used() {
        let lines = owned(&["}", "}", "", "", "", "done", "ok", "ok", "ok", "ok"]);
        let mut plan = Plan::new(&lines);
        plan.set_range(0..lines.len(), Mark::Must);
        plan.tidy_blanks();
        plan.fold_repeats();
        assert_eq!(plan.render(), "}\n}\n\ndone\nok\nok\nok\nok\n");
    }

    #[test]
    fn cuts_long_runs_to_head_and_tail_with_marker() {
        let lines: Vec<String> = (1..=100).map(|i| format!("line {i}")).collect();
        let mut plan = Plan::new(&lines);
        plan.cut = Cut { max: 10, head: 3, tail: 2 };
        plan.cut_runs();
        assert_eq!(plan.render(), "line 1\nline 2\nline 3\n… 95 lines omitted\nline 99\nline 100\n");
    }

    #[test]
    fn cuts_fall_on_block_boundaries_not_inside_a_frame() {
        // Ten frames of four lines, each opened by `  File "…"`: a cut may only start and end at a frame.
        let lines: Vec<String> = (0..10)
            .flat_map(|i| {
                [
                    format!("  File \"m{i}.py\", line {i}, in f{i}"),
                    "    x = 1".into(),
                    "    y = 2".into(),
                    "    z()".into(),
                ]
            })
            .collect();
        let mut plan = Plan::new(&lines);
        plan.cut = Cut { max: 10, head: 3, tail: 3 };
        plan.cut_runs();
        let text = plan.render();
        assert!(text.starts_with("  File \"m0.py\", line 0, in f0\n    x = 1\n    y = 2\n    z()\n… "), "{text}");
        assert!(text.contains(" lines omitted\n  File \"m9.py\""), "{text}");
    }

    #[test]
    fn a_hunk_is_kept_whole_rather_than_cut_in_the_middle() {
        let lines: Vec<String> =
            (0..50).map(|i| if i % 5 == 0 { format!("+added {i}") } else { format!(" same {i}") }).collect();
        let mut plan = Plan::new(&lines);
        plan.cut = Cut { max: 40, head: 15, tail: 15 };
        plan.cut_runs();
        assert_eq!(plan.render(), lines.join("\n") + "\n");
    }

    #[test]
    fn a_cut_never_starts_at_a_blank_line_inside_a_hunk() {
        // Three files of one hunk each (as `gofmt -d` prints them); the first hunk has an empty unchanged line
        // (trimmed to "") past the head, which used to be taken for a paragraph break and opened the cut.
        let file = |name: &str, context: usize, blank_at: Option<usize>| {
            let mut lines = vec![
                format!("diff {name}.orig {name}"),
                format!("--- {name}.orig"),
                format!("+++ {name}"),
                format!("@@ -1,{0} +1,{0} @@", context + 1),
            ];
            for i in 0..context {
                lines.push(if Some(i) == blank_at { String::new() } else { format!(" {name} line {i}") });
            }
            lines.extend([format!("-{name} old"), format!("+{name} new")]);
            lines
        };
        let mut lines = file("a.go", 14, Some(10));
        lines.extend(file("b.go", 6, None));
        lines.extend(file("c.go", 4, None));
        let mut plan = Plan::new(&lines);
        plan.cut = Cut { max: 20, head: 12, tail: 4 };
        plan.cut_runs();
        let text = plan.render();
        // The cut starts where the second file starts, after the first hunk, and ends where the third starts.
        let first = file("a.go", 14, Some(10)).join("\n");
        assert!(text.starts_with(&format!("{first}\n… 12 lines omitted\ndiff c.go.orig c.go\n")), "{text}");
    }

    #[test]
    fn a_cut_into_a_hunk_leaves_its_header_above_the_body_lines_shown() {
        // Two hunks longer than three times the limit with no blank line or other boundary inside (`black
        // --diff` prints such): the cut goes through both, and the second's header, which locates the lines
        // shown after it, stays.
        let hunk = |at: usize| {
            std::iter::once(format!("@@ -{at},23 +{at},25 @@"))
                .chain(
                    (0..25).map(move |i| if i % 8 == 4 { format!("+new {at}.{i}") } else { format!(" same {at}.{i}") }),
                )
                .chain(std::iter::once(format!("-old {at}")))
        };
        let lines: Vec<String> = hunk(10).chain(hunk(300)).collect();
        let mut plan = Plan::new(&lines);
        plan.cut = Cut { max: 5, head: 3, tail: 3 };
        plan.cut_runs();
        let text = plan.render();
        assert!(text.contains("\n@@ -300,23 +300,25 @@\n… "), "{text}");
        assert!(text.ends_with(" same 300.23\n same 300.24\n-old 300\n"), "{text}");
    }

    #[test]
    fn a_hunk_within_three_times_the_limit_is_not_cut_by_the_lines_after_it() {
        // `black --diff`: a hunk's body, then the next file's `would reformat`, `---` and `+++` lines, with no
        // boundary where a cut could end; cutting the run through its middle hid changed lines of the hunk.
        let mut lines = vec!["@@ -1,44 +1,44 @@".to_string()];
        for i in 0..44 {
            match i % 11 {
                5 => lines.extend([format!("-old {i}"), format!("+new {i}")]),
                _ => lines.push(format!(" same {i}")),
            }
        }
        lines.extend(["would reformat a.py", "--- b.py\t2026-12-06", "+++ b.py\t2026-12-06"].map(str::to_string));
        let mut plan = Plan::new(&lines);
        plan.must(0);
        plan.cut_runs();
        assert_eq!(plan.render(), lines.join("\n") + "\n");
    }

    #[test]
    fn a_listing_within_its_budget_is_not_cut() {
        let lines: Vec<String> = (0..100).map(|i| format!("entry {i}")).collect();
        let mut plan = Plan::new(&lines);
        plan.listing_chars = Some(10_000);
        plan.cut_runs();
        assert_eq!(plan.render(), lines.join("\n") + "\n");
        plan.listing_chars = Some(100);
        plan.cut_runs();
        assert!(plan.render().contains("lines omitted"));
    }

    #[test]
    fn protected_lines_split_runs_and_survive_cuts() {
        let lines: Vec<String> = (1..=30).map(|i| format!("l{i}")).collect();
        let mut plan = Plan::new(&lines);
        plan.cut = Cut { max: 4, head: 1, tail: 1 };
        plan.must(14);
        plan.cut_runs();
        assert_eq!(plan.render(), "l1\n… 12 lines omitted\nl14\nl15\nl16\n… 13 lines omitted\nl30\n");
    }

    #[test]
    fn similar_lines_fold_to_first_count_last() {
        let lines: Vec<String> = (1..=6).map(|i| format!("batch {i}: ok")).collect();
        let mut plan = Plan::new(&lines);
        plan.fold_similar();
        assert_eq!(plan.render(), "batch 1: ok\n… 4 lines differing only in numbers omitted\nbatch 6: ok\n");
    }

    /// A QA pass: an access log's one `500` among `200`s and `304`s was folded into a count, or cut
    /// from the middle; no error word marks it.
    #[test]
    fn a_rare_value_of_a_category_is_shown_in_place() {
        let lines: Vec<String> = (1..=60)
            .map(|i| {
                format!(
                    "GET /items/{i} {}",
                    if i == 30 {
                        500
                    } else if i % 2 == 0 {
                        304
                    } else {
                        200
                    }
                )
            })
            .collect();
        let out = crate::compress("cat access.log", &(lines.join("\n") + "\n"), 0).text;
        assert!(out.contains("\nGET /items/30 500\n"), "{out}");
        let mut log: Vec<String> = (1..=300)
            .map(|i| {
                format!(
                    "10.0.0.{} - - [07/Dec/2026:10:{:02}:00] \"GET /api/{i} HTTP/1.1\" {} 512",
                    i % 7,
                    i % 60,
                    [200, 304, 404][i % 3]
                )
            })
            .collect();
        log[120] = log[120].replace("\" 200 ", "\" 500 ").replace("\" 304 ", "\" 500 ").replace("\" 404 ", "\" 500 ");
        log[250] = log[250].replace("\" 200 ", "\" 502 ").replace("\" 304 ", "\" 502 ").replace("\" 404 ", "\" 502 ");
        let raw = log.join("\n") + "\n";
        let out = crate::compress("cat access.log", &raw, 0).text;
        assert!(out.contains(&log[120]) && out.contains(&log[250]), "{out}");
        assert!(out.len() < raw.len() / 2, "still compressed: {out}");
    }

    #[test]
    fn a_line_where_a_constant_number_differs_is_shown_between_folds() {
        let mut lines: Vec<String> = (1..=50).map(|i| format!("[{i}/50] exit code 0")).collect();
        lines[20] = "[21/50] exit code 1".into();
        let mut plan = Plan::new(&lines);
        plan.fold_similar();
        assert_eq!(
            plan.render(),
            "[1/50] exit code 0\n… 18 lines differing only in numbers omitted\n[20/50] exit code 0\n[21/50] exit code 1\n\
             [22/50] exit code 0\n… 27 lines differing only in numbers omitted\n[50/50] exit code 0\n"
        );
    }

    #[test]
    fn a_status_with_few_values_splits_the_run_however_often_it_changes() {
        // A third of the runs failed: no value holds on 75 % of the lines, but two values are a status.
        let lines: Vec<String> = (1..=30).map(|i| format!("[{i}/30] exit code {}", u8::from(i % 3 == 0))).collect();
        let mut plan = Plan::new(&lines);
        plan.fold_similar();
        let shown = plan.render();
        for i in (3..=30).step_by(3) {
            assert!(shown.contains(&format!("[{i}/30] exit code 1\n")), "{shown}");
        }
        // An hour that moves on once is a phase, not a status: the run folds whole.
        let lines: Vec<String> =
            (0..40).map(|i| format!("{:02}:{:02} cache latency {}ms", 9 + i / 20, i, i * 7 % 13)).collect();
        let mut plan = Plan::new(&lines);
        plan.fold_similar();
        assert_eq!(
            plan.render(),
            "09:00 cache latency 0ms\n… 38 lines differing only in numbers omitted\n10:39 cache latency 0ms\n"
        );
    }

    #[test]
    fn a_literal_hash_where_others_have_a_number_is_no_slot_of_its_own() {
        // `step # of batch` has the shape of `step 5 of batch` and no number.
        let lines: Vec<String> =
            ["step 1 of batch", "step 2 of batch", "step 3 of batch", "step # of batch", "step 5 of batch"]
                .map(String::from)
                .to_vec();
        let mut plan = Plan::new(&lines);
        plan.fold_similar();
        assert_eq!(
            plan.render(),
            "step 1 of batch\nstep 2 of batch\nstep 3 of batch\nstep # of batch\nstep 5 of batch\n"
        );
        // Nor does it hide what differs after it: its numbers would line up with the wrong slots.
        let mut lines: Vec<String> = (1..=12).map(|i| format!("req {i} code 200")).collect();
        lines[5] = "req # code 500".into();
        let mut plan = Plan::new(&lines);
        plan.fold_similar();
        assert!(plan.render().contains("req # code 500\n"), "{}", plan.render());
    }

    #[test]
    fn numbers_that_vary_freely_split_nothing() {
        // Durations and indexes differ on most lines: no value of theirs is a constant of the run.
        let lines: Vec<String> = (1..=40).map(|i| format!("case {i} took {}ms", i * 37 % 11)).collect();
        let mut plan = Plan::new(&lines);
        plan.fold_similar();
        assert_eq!(plan.render(), "case 1 took 4ms\n… 38 lines differing only in numbers omitted\ncase 40 took 6ms\n");
    }

    #[test]
    fn a_fold_is_never_longer_than_the_lines_it_replaces() {
        let lines = owned(&["a 1", "a 2", "a 3", "a 4"]);
        let mut plan = Plan::new(&lines);
        plan.fold_similar();
        assert_eq!(plan.render(), "a 1\na 2\na 3\na 4\n");
    }

    #[test]
    fn lines_repeated_apart_stay_where_they_were() {
        let frame = "self = <tests.test_funcs.TestAssoc object at 0x7f5b827bad10>";
        let lines = owned(&[frame, "    def test(self):", frame, "    def helper(self):", frame, frame]);
        let mut plan = Plan::new(&lines);
        plan.fold_repeats();
        assert_eq!(
            plan.render(),
            format!("{frame}\n    def test(self):\n{frame}\n    def helper(self):\n{frame} … (×2)\n")
        );
    }

    #[test]
    fn hunk_bodies_are_not_tidied_folded_or_shortened() {
        let removed: Vec<String> = (1..=6).map(|i| format!("-removed line {i}")).collect();
        let body: Vec<String> =
            [" ", " "].into_iter().map(String::from).chain(removed).chain(["+new".into(), " ".into()]).collect();
        let mut lines = vec!["@@ -1,9 +1,4 @@".to_string()];
        lines.extend(body.iter().cloned());
        lines.extend(["".to_string(), "".to_string()]);
        let mut plan = Plan::new(&lines);
        plan.must(0);
        plan.max_line_chars = Some(5);
        plan.tidy_blanks();
        plan.fold_repeats();
        plan.fold_similar();
        // The blank lines after the hunk (its counts are used up) are spacing and go.
        assert_eq!(plan.render(), format!("@@ -1,9 +1,4 @@\n{}\n", body.join("\n")));
    }

    #[test]
    fn failure_protection_covers_errors_locations_and_tail() {
        let mut lines: Vec<String> = (0..30).map(|i| format!("step {i}")).collect();
        lines[3] = "error: boom".into();
        lines[5] = "  at src/x.rs:3:4".into();
        let mut plan = Plan::new(&lines);
        plan.set_range(0..30, Mark::Drop);
        plan.protect_failure();
        let shown: Vec<usize> = (0..30).filter(|&i| plan.mark(i) == Mark::Must).collect();
        assert_eq!(shown, [3, 5, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
    }

    #[test]
    fn a_counted_drop_shows_the_failures_it_leaves_out_of_its_count_itself() {
        // Where no protection runs after the family (a listing, a search that exited 0), a line the count
        // leaves out because it reports a failure must still not be cut away among ordinary lines.
        let mut lines: Vec<String> = (0..20).map(|i| format!("go: downloading example.com/m{i} v1.0.{i}")).collect();
        lines.extend((0..60).map(|i| format!("step {i} of the build")));
        lines[50] = "go: downloading example.com/bad v1.0.0: verifying module: checksum mismatch FAILED".into();
        let mut plan = Plan::new(&lines);
        plan.drop_counted("module downloads not shown", NoteAt::First, false, |line| {
            line.starts_with("go: downloading ")
        });
        plan.cut_runs();
        let text = plan.render();
        assert!(text.starts_with("… 20 module downloads not shown; 1 more shown\nstep 0 of the build\n"), "{text}");
        assert!(text.contains(&format!("\n{}\n", lines[50])), "{text}");
    }

    #[test]
    fn long_ordinary_lines_are_shortened_but_protected_ones_are_not() {
        let lines = owned(&[&"a".repeat(20), &"b".repeat(20)]);
        let mut plan = Plan::new(&lines);
        plan.max_line_chars = Some(5);
        plan.must(1);
        assert_eq!(plan.render(), format!("aaaaa… [+15 chars]\n{}\n", "b".repeat(20)));
    }

    #[test]
    fn blank_runs_collapse() {
        let lines = owned(&["", "a", "", "", "b", ""]);
        let mut plan = Plan::new(&lines);
        plan.tidy_blanks();
        assert_eq!(plan.render(), "a\n\nb\n");
    }
}
