//! ctx_impact: what a change reaches. `analyze` takes a file (its dependents: the files
//! importing it, to a depth) or a symbol (its callers, to a depth); `diff` takes what git says
//! changed (a ref range, or the working tree with staged and untracked files), finds the
//! definitions whose lines a hunk touches, and follows their callers and the changed files'
//! dependents. Both end with the tests to run: the tests linked to any file reached, and those
//! files that are tests themselves.

use std::collections::{BTreeMap, BTreeSet};

use lean_ctx_common::plural::count;
use lean_ctx_graph::{DefId, DefSummary, FileGraph, Graph, Interrupt, Label, MAX_DEPTH, RefKind, TestLinks};
use lean_ctx_search::Withheld;

use super::callgraph::Resolved;
use super::diff::{self, FileChange};
use super::subject::{self, Group, Linked, add_note, file_facts, readable, split_subject, withhold, withholds};
use crate::engine::cancel::Cancel;
use crate::engine::error::{EngineError, EngineResult};
use crate::engine::{Caller, Engine};

const TOOL: &str = "ctx_impact";
/// Call sites followed at most.
const MAX_EDGES: usize = 500;
/// Changed files and changed definitions an answer lists at most.
const MAX_CHANGED: usize = 200;
/// Tests to run an answer lists at most.
const TESTS_LIMIT: usize = 100;
const DEFAULT_DEPTH: u32 = 2;
/// The last group of every answer.
const TESTS: &str = "tests to run";
/// The files whose every call of what changed is linked by its name alone, to one of several
/// definitions of that name (`ambiguous` in ctx_callgraph): each may call another of them.
const AMBIGUOUS_CALLERS: &str = "ambiguous callers";
/// The files whose every type use of what changed names it by a bare name several definitions
/// share.
const AMBIGUOUS_TYPE_USES: &str = "ambiguous type uses";
/// What a test's reason ends with when it is to run only for files of those two groups.
const THROUGH_AMBIGUOUS: &str = "[only through ambiguous links]";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImpactAction {
    Analyze,
    Diff,
}

#[derive(Debug, Clone)]
pub struct ImpactParams {
    pub action: ImpactAction,
    /// `analyze`: a file (relative to cwd) or `file::symbol`.
    pub path: String,
    /// 1–5; 0 means 2.
    pub depth: u32,
    /// `diff`: a ref or range; empty means the working tree against HEAD.
    pub base: String,
    /// Flipped when the caller leaves: the callers' walk stops there.
    pub cancel: Cancel,
}

#[derive(Debug, Default)]
pub struct ImpactAnswer {
    /// `analyze`: the file asked about.
    pub file: String,
    /// `analyze` of a symbol: the symbol asked about, whether or not its definitions are found.
    pub symbol: String,
    /// `analyze` of a symbol: its definitions.
    pub targets: Vec<DefSummary>,
    /// The symbol names several definitions in different places; choose with `file::symbol`.
    pub ambiguous: Vec<DefSummary>,
    /// `diff`: the changed files.
    pub changed: Vec<FileChange>,
    /// `diff`: the definitions a hunk touches (the innermost ones).
    pub changed_symbols: Vec<DefSummary>,
    /// `callers`, `dependents`, then `tests to run`.
    pub groups: Vec<Group>,
    pub complete: bool,
    pub note: Option<String>,
}

impl Engine {
    pub fn impact(&self, caller: &Caller<'_>, p: &ImpactParams) -> EngineResult<ImpactAnswer> {
        let depth = match p.depth {
            0 => DEFAULT_DEPTH,
            d if d <= MAX_DEPTH => d,
            d => return Err(EngineError::invalid(format!("depth {d} is out of range: use 1 to {MAX_DEPTH}"))),
        };
        let config = self.config.get();
        let scope = self.scope(caller, &config)?;
        let rules = self.permission_rules(&scope, &config);
        let gone = || p.cancel.is_cancelled();
        let interrupt = Interrupt::new(&gone);
        let (subject, project) = match p.action {
            ImpactAction::Analyze => {
                let (file, symbol) = match split_subject(&p.path) {
                    (Some(""), None) | (None, None) => {
                        return Err(subject::missing_path("analyze", "a file or `file::symbol`"));
                    }
                    (file, symbol) => (file, symbol),
                };
                let project = self.project_graph(&scope.root)?;
                let file = file.map(|f| self.subject_file(&scope, &project, f, TOOL)).transpose()?;
                (Subject::Analyze { file, symbol }, project)
            }
            ImpactAction::Diff => {
                let (changed, cut) = diff::changes(&scope.root, &p.base)?;
                (Subject::Diff { changed, cut, range: p.base.contains("..") }, self.project_graph(&scope.root)?)
            }
        };
        let visible = |file: &str| readable(&rules, &scope.root, file);
        let walk = |depth| {
            self.stopped.count_if_cancelled(project.read(|view| subject.walk(&view, depth, &visible, interrupt)))
        };
        let (mut answer, impacted) = walk(depth)?;
        let root = scope.root.clone();
        // Inline tests are read from the files, after the graph's lock is released.
        let (inline, unchecked) = subject::inline_tests(&root, &impacted);
        if unchecked > 0 {
            add_note(
                &mut answer.note,
                format!(
                    "{} not read for inline #[cfg(test)] tests (too many)",
                    count(unchecked as u64, "impacted Rust file")
                ),
            );
        }
        if let Some(tests) = answer.groups.iter_mut().find(|g| g.name == TESTS) {
            let mut all = std::mem::take(&mut tests.files);
            let known: BTreeSet<String> = all.iter().map(|l| l.file.clone()).collect();
            all.extend(inline.into_iter().filter(|l| !known.contains(&l.file)));
            all.sort_by(|a, b| a.file.cmp(&b.file));
            *tests = Group::new(TESTS, all, TESTS_LIMIT);
        }
        if let Some(cut) = cut_note(&answer.groups) {
            add_note(&mut answer.note, cut);
        }
        if answer.groups.iter().any(|g| g.name == TESTS && g.files.is_empty()) {
            // "none" where the walk stopped at its depth reads as "no test reaches this".
            let deeper = (depth + 1..=MAX_DEPTH).find_map(|deeper| {
                let tests = walk(deeper).map(|(found, _)| found.groups.into_iter().find(|g| g.name == TESTS));
                match tests {
                    Ok(Some(tests)) => {
                        let files: Vec<String> = tests
                            .files
                            .into_iter()
                            .map(|l| l.file)
                            .filter(|file| readable(&rules, &scope.root, file))
                            .collect();
                        (!files.is_empty()).then_some(Ok((deeper, files)))
                    }
                    Ok(None) => None,
                    Err(e) => Some(Err(e)),
                }
            });
            if let Some((deeper, files)) = deeper.transpose()? {
                add_note(&mut answer.note, deeper_tests_note(depth, deeper, &files));
            }
        }
        let mut withheld = Withheld::default();
        answer.changed.retain(|c| !withholds(&mut withheld, &rules, &root, &c.file));
        answer.changed_symbols.retain(|d| readable(&rules, &root, &d.file));
        withhold(&rules, &root, &mut answer.groups, &mut withheld);
        if let Some(note) = withheld.note("file") {
            add_note(&mut answer.note, note);
        }
        // Last: the notes on this answer's own findings come first.
        if let Some(unlisted) = subject::value_calls_note(&answer.targets) {
            add_note(&mut answer.note, format!("{unlisted}; the impact of its file lists every importer"));
        }
        Ok(answer)
    }
}

/// What an answer is about: a file or symbol, or what git says changed.
enum Subject<'a> {
    Analyze {
        file: Option<String>,
        symbol: Option<&'a str>,
    },
    /// `cut`: the diff was too long to read whole; `range`: the base is a ref range.
    Diff {
        changed: Vec<FileChange>,
        cut: bool,
        range: bool,
    },
}

impl Subject<'_> {
    fn walk(
        &self,
        view: &super::GraphView<'_>,
        depth: u32,
        visible: &dyn Fn(&str) -> bool,
        interrupt: Interrupt<'_>,
    ) -> EngineResult<(ImpactAnswer, Impacted)> {
        match self {
            Subject::Analyze { file, symbol } => analyze(view, file.as_deref(), *symbol, depth, visible, interrupt),
            Subject::Diff { changed, cut, range } => {
                let mut out = changes(view, changed.clone(), depth, visible, interrupt)?;
                if *cut {
                    add_note(&mut out.0.note, "the diff was too long to read whole: only its start was used".into());
                }
                if *range {
                    add_note(
                        &mut out.0.note,
                        "changed definitions are found by their lines in the working tree's version of each file"
                            .into(),
                    );
                }
                Ok(out)
            }
        }
    }
}

/// Says that no test was reached within `depth` but one is at `deeper`, naming the first few.
fn deeper_tests_note(depth: u32, deeper: u32, files: &[String]) -> String {
    const NAMED: usize = 3;
    let named = files.iter().take(NAMED).map(String::as_str).collect::<Vec<_>>().join(", ");
    let more = match files.len().saturating_sub(NAMED) {
        0 => String::new(),
        more => format!(" and {more} more"),
    };
    format!(
        "no test is reached within depth {depth}; depth {deeper} reaches {} ({named}{more}): ask with depth {deeper}",
        count(files.len() as u64, "test file")
    )
}

/// What the answer's lists left out, and how to ask a smaller question.
fn cut_note(groups: &[Group]) -> Option<String> {
    let cut: Vec<String> =
        groups.iter().filter(|g| g.omitted > 0).map(|g| format!("{} more {}", g.omitted, g.name)).collect();
    (!cut.is_empty()).then(|| {
        format!(
            "the lists are cut ({} not listed): ask with a lower depth, or about a symbol (`file::symbol`) \
             rather than a whole file, for a smaller answer",
            cut.join(", ")
        )
    })
}

/// The files reached, with their languages (for inline tests).
type Impacted = Vec<(String, String)>;

fn base_answer(view: &super::GraphView<'_>, file: Option<&str>) -> ImpactAnswer {
    ImpactAnswer { complete: view.phase == super::Phase::Ready, note: view.notice_about(file), ..Default::default() }
}

fn analyze(
    view: &super::GraphView<'_>,
    file: Option<&str>,
    symbol: Option<&str>,
    depth: u32,
    visible: &dyn Fn(&str) -> bool,
    interrupt: Interrupt<'_>,
) -> EngineResult<(ImpactAnswer, Impacted)> {
    let graph = view.graph;
    let mut answer = ImpactAnswer {
        file: file.unwrap_or_default().to_string(),
        symbol: symbol.unwrap_or_default().to_string(),
        ..base_answer(view, file)
    };
    let (files, links) = file_facts(graph, interrupt)?;
    let mut reached = Reached::default();
    match symbol {
        Some(symbol) => {
            let ids = match subject::definitions(view, symbol, file, visible)? {
                Resolved::One(ids) => ids,
                Resolved::Several(ids) => {
                    answer.ambiguous = ids.iter().filter_map(|id| graph.summary(id)).collect();
                    return Ok((answer, Vec::new()));
                }
                // Not the file's impact: what was asked is the symbol's.
                Resolved::NotYet(why) => {
                    add_note(&mut answer.note, why);
                    return Ok((answer, Vec::new()));
                }
            };
            answer.targets = ids.iter().filter_map(|id| graph.summary(id)).collect();
            for target in &answer.targets {
                reached.add(&target.file, 0, format!("defines {}", target.name));
            }
            callers_group(graph, &ids, depth, &mut answer, &mut reached, interrupt)?;
            type_uses_group(graph, &ids, &mut answer, &mut reached, interrupt)?;
        }
        None => {
            let file = answer.file.clone();
            reached.add(&file, 0, "the file itself".into());
            dependents_group(files, &[file], Vec::new(), depth, &mut answer, &mut reached);
        }
    }
    Ok(finish(graph, links, answer, reached))
}

/// What the changes reach. A changed file `visible` does not take (the caller's Read rules
/// withhold it) is counted by the caller and walked from no further: its changed definitions'
/// callers and its importers would say what it defines and that it changed (QA).
fn changes(
    view: &super::GraphView<'_>,
    changed: Vec<FileChange>,
    depth: u32,
    visible: &dyn Fn(&str) -> bool,
    interrupt: Interrupt<'_>,
) -> EngineResult<(ImpactAnswer, Impacted)> {
    let graph = view.graph;
    let mut answer = base_answer(view, None);
    let (files, links) = file_facts(graph, interrupt)?;
    let mut reached = Reached::default();
    let mut ids = Vec::new();
    let shown: Vec<&FileChange> = changed.iter().filter(|c| visible(&c.file)).collect();
    for change in shown.iter().copied() {
        reached.add(&change.file, 0, change.status.name().to_string());
        ids.extend(touched(graph, change));
    }
    answer.changed_symbols = ids.iter().filter_map(|id| graph.summary(id)).collect();
    if answer.changed_symbols.len() > MAX_CHANGED {
        let more = answer.changed_symbols.len() - MAX_CHANGED;
        answer.changed_symbols.truncate(MAX_CHANGED);
        add_note(
            &mut answer.note,
            format!("{} not listed (all were followed)", count(more as u64, "more changed definition")),
        );
    }
    callers_group(graph, &ids, depth, &mut answer, &mut reached, interrupt)?;
    type_uses_group(graph, &ids, &mut answer, &mut reached, interrupt)?;
    let in_graph: Vec<String> = shown.iter().map(|c| c.file.clone()).filter(|f| graph.file(f).is_some()).collect();
    // A deleted file is in the graph no more: what imported it is found by what the imports
    // write, and they are the first to break.
    let deleted = shown.iter().filter(|c| c.status == super::diff::Status::Deleted && graph.file(&c.file).is_none());
    let importers_of_deleted: Vec<Linked> = deleted
        .flat_map(|change| {
            let why = format!("imports {}, deleted", change.file);
            graph.importers_of_missing(&change.file).into_iter().map(move |file| Linked {
                file,
                depth: 1,
                why: why.clone(),
            })
        })
        .collect();
    dependents_group(files, &in_graph, importers_of_deleted, depth, &mut answer, &mut reached);
    if changed.len() > MAX_CHANGED {
        add_note(
            &mut answer.note,
            format!("{} not listed", count((changed.len() - MAX_CHANGED) as u64, "more changed file")),
        );
    }
    answer.changed = changed.into_iter().take(MAX_CHANGED).collect();
    Ok(finish(graph, links, answer, reached))
}

/// The definitions of a changed file whose lines a hunk touches: for each hunk, the innermost
/// ones (a changed method, not the class around it).
fn touched(graph: &Graph, change: &FileChange) -> Vec<DefId> {
    let Some(entry) = graph.file(&change.file) else { return Vec::new() };
    let defs = &entry.facts.defs;
    let mut out = BTreeSet::new();
    for &(from, to) in &change.ranges {
        let hit: Vec<usize> =
            (0..defs.len()).filter(|&i| defs[i].start_line <= to && from <= defs[i].end_line).collect();
        // `j` lies within `i` (of two with the same lines, the later one counts as inner).
        let inside = |j: usize, i: usize| {
            let (a, b) = (&defs[j], &defs[i]);
            let within = a.start_line >= b.start_line && a.end_line <= b.end_line;
            let smaller = a.end_line - a.start_line < b.end_line - b.start_line;
            j != i && within && (smaller || j > i)
        };
        out.extend(hit.iter().copied().filter(|&i| !hit.iter().any(|&j| inside(j, i))));
    }
    out.into_iter().map(|i| DefId { file: change.file.clone(), index: i as u32 }).collect()
}

/// Files reached so far: the smallest depth each was reached at, and why; and those reached only
/// through ambiguous calls.
#[derive(Default)]
struct Reached {
    files: BTreeMap<String, (u32, String)>,
    ambiguous_only: BTreeSet<String>,
}

impl Reached {
    fn add(&mut self, file: &str, depth: u32, why: String) {
        self.files.entry(file.to_string()).or_insert((depth, why));
        self.ambiguous_only.remove(file);
    }

    /// A file reached by ambiguous calls alone, unless it was reached otherwise before.
    fn add_ambiguous(&mut self, file: &str, depth: u32, why: String) {
        if !self.files.contains_key(file) {
            self.ambiguous_only.insert(file.to_string());
        }
        self.files.entry(file.to_string()).or_insert((depth, why));
    }
}

/// The files holding call sites of `ids`, to `depth`, one line each with what they call.
fn callers_group(
    graph: &Graph,
    ids: &[DefId],
    depth: u32,
    answer: &mut ImpactAnswer,
    reached: &mut Reached,
    interrupt: Interrupt<'_>,
) -> EngineResult<()> {
    if ids.is_empty() {
        return Ok(());
    }
    let walk = graph.callers(ids, depth, MAX_EDGES, interrupt)?;
    // Each file's depth, what it calls, and whether any of its calls is not ambiguous.
    let mut by_file: BTreeMap<String, (u32, BTreeSet<String>, bool)> = BTreeMap::new();
    // A possible dependent counts: a call reaching `ids` by name alone is one too, listed apart.
    for edge in walk.edges.iter().chain(walk.guessed.iter().map(|guess| &guess.edge)) {
        let slot = by_file.entry(edge.file.clone()).or_insert((edge.depth, BTreeSet::new(), false));
        slot.0 = slot.0.min(edge.depth);
        slot.1.insert(format!("{} [{}]", edge.callee.name, edge.label.name()));
        slot.2 |= edge.label != Label::Ambiguous;
    }
    let (mut linked, mut ambiguous) = (Vec::new(), Vec::new());
    for (file, (depth, callees, resolved)) in by_file {
        let why = format!("calls {}", subject::within_line(callees, ", "));
        match resolved {
            true => reached.add(&file, depth, why.clone()),
            false => reached.add_ambiguous(&file, depth, why.clone()),
        }
        let list = if resolved { &mut linked } else { &mut ambiguous };
        list.push(Linked { file, depth, why });
    }
    let by_depth = |a: &Linked, b: &Linked| (a.depth, &a.file).cmp(&(b.depth, &b.file));
    linked.sort_by(by_depth);
    ambiguous.sort_by(by_depth);
    if !ambiguous.is_empty() {
        add_note(
            &mut answer.note,
            format!(
                "{} of the {} calling files call what changed only through ambiguous calls (linked by name alone to one of \
                 several definitions of that name, which they may not call): listed apart as {AMBIGUOUS_CALLERS}, \
                 and the tests run only for them end with {THROUGH_AMBIGUOUS}",
                ambiguous.len(),
                linked.len() + ambiguous.len()
            ),
        );
    }
    answer.groups.push(Group::new("callers", linked, subject::GROUP_LIMIT));
    if !ambiguous.is_empty() {
        answer.groups.push(Group::new(AMBIGUOUS_CALLERS, ambiguous, subject::GROUP_LIMIT));
    }
    if walk.truncated {
        add_note(&mut answer.note, format!("more than {MAX_EDGES} call sites: the callers are cut there"));
    }
    Ok(())
}

/// The files naming `ids` in a type (an annotation, a signature, a bound, an inheritance list)
/// that no call of them reached: a change to a type reaches them as a call reaches a caller (a
/// QA agent's impact of a TypeScript interface used in 4 files, and of a Rust trait used in 84
/// places, read "callers: none, tests to run: none"). One step, as a type use is no call to walk
/// further from; their tests are run too. A file naming them only by a bare name several
/// definitions share is listed apart, as ambiguous callers are.
fn type_uses_group(
    graph: &Graph,
    ids: &[DefId],
    answer: &mut ImpactAnswer,
    reached: &mut Reached,
    interrupt: Interrupt<'_>,
) -> EngineResult<()> {
    let names: BTreeSet<String> = ids.iter().filter_map(|id| graph.summary(id)).map(|d| d.name).collect();
    // Each file naming them in a type, and whether any of its type uses is not ambiguous.
    let mut by_file: BTreeMap<String, bool> = BTreeMap::new();
    for used in graph.uses(ids, interrupt)?.into_iter().filter(|u| u.kind == RefKind::Type) {
        *by_file.entry(used.file).or_default() |= used.label != Label::Ambiguous;
    }
    // A file listed already is not listed again, unless it was listed only as an ambiguous
    // caller and names them surely here.
    by_file.retain(|file, sure| !reached.files.contains_key(file) || (*sure && reached.ambiguous_only.contains(file)));
    if by_file.is_empty() {
        return Ok(());
    }
    let why = format!("names {} in a type", subject::within_line(names, ", "));
    let (mut linked, mut ambiguous) = (Vec::new(), Vec::new());
    for (file, sure) in by_file {
        let entry = Linked { file, depth: 1, why: why.clone() };
        if sure {
            reached.add(&entry.file, 1, why.clone());
            linked.push(entry);
        } else {
            reached.add_ambiguous(&entry.file, 1, why.clone());
            ambiguous.push(entry);
        }
    }
    if !ambiguous.is_empty() {
        add_note(
            &mut answer.note,
            format!(
                "{} of the {} files naming it in a type name it only by a name several definitions share: listed \
                 apart as {AMBIGUOUS_TYPE_USES}, and the tests run only for them end with {THROUGH_AMBIGUOUS}",
                ambiguous.len(),
                linked.len() + ambiguous.len()
            ),
        );
    }
    answer.groups.push(Group::new("type uses", linked, subject::GROUP_LIMIT));
    if !ambiguous.is_empty() {
        answer.groups.push(Group::new(AMBIGUOUS_TYPE_USES, ambiguous, subject::GROUP_LIMIT));
    }
    Ok(())
}

/// The files importing `start`, to `depth`, and `deleted`'s importers (see
/// [`Graph::importers_of_missing`]) where not among them.
fn dependents_group(
    files: &FileGraph,
    start: &[String],
    deleted: Vec<Linked>,
    depth: u32,
    answer: &mut ImpactAnswer,
    reached: &mut Reached,
) {
    let mut linked: Vec<Linked> = files
        .dependents(start, depth)
        .into_iter()
        .map(|r| {
            let why = format!("imports it{}", if r.depth > 1 { " indirectly" } else { "" });
            Linked { file: r.file, depth: r.depth, why }
        })
        .collect();
    if !deleted.is_empty() {
        for importer in deleted {
            if !linked.iter().any(|l| l.file == importer.file) {
                linked.push(importer);
            }
        }
        linked.sort_by(|a, b| (a.depth, &a.file).cmp(&(b.depth, &b.file)));
    }
    for l in &linked {
        reached.add(&l.file, l.depth, l.why.clone());
    }
    answer.groups.push(Group::new("dependents", linked, subject::GROUP_LIMIT));
}

/// Adds the tests to run for every file reached; those to run only for files reached through
/// ambiguous calls say so.
fn finish(graph: &Graph, links: &TestLinks, mut answer: ImpactAnswer, reached: Reached) -> (ImpactAnswer, Impacted) {
    let why: BTreeMap<String, String> = reached.files.iter().map(|(f, (_, why))| (f.clone(), why.clone())).collect();
    let mut tests = subject::tests_for(graph, links, &why);
    if !reached.ambiguous_only.is_empty() {
        let mut resolved = why;
        resolved.retain(|file, _| !reached.ambiguous_only.contains(file));
        let needed: BTreeSet<String> =
            subject::tests_for(graph, links, &resolved).into_iter().map(|t| t.file).collect();
        for test in tests.iter_mut().filter(|test| !needed.contains(&test.file)) {
            test.why = format!("{} {THROUGH_AMBIGUOUS}", test.why);
        }
    }
    answer.groups.push(Group::new(TESTS, tests, usize::MAX));
    let impacted = subject::languages(graph, reached.files.into_keys());
    (answer, impacted)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph of `files`, all in `language`.
    fn graph_of(language: lean_ctx_outline::Language, files: &[(&str, &str)]) -> Graph {
        let mut graph = Graph::new();
        for (path, source) in files {
            let facts = lean_ctx_graph::extract(language, source);
            graph.upsert(path, lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
        }
        graph
    }

    /// The impact of `symbol` of `file` at depth 1: each group with its files as `file (why)`, and
    /// the note.
    fn impact_groups(graph: &Graph, file: &str, symbol: &str) -> (Vec<(String, Vec<String>)>, String) {
        let too_large = BTreeSet::new();
        let view =
            super::super::GraphView { graph, phase: super::super::Phase::Ready, lagging: false, too_large: &too_large };
        let (answer, _) = analyze(&view, Some(file), Some(symbol), 1, &|_| true, Interrupt::NEVER).unwrap();
        let groups = answer
            .groups
            .iter()
            .map(|g| (g.name.clone(), g.files.iter().map(|l| format!("{} ({})", l.file, l.why)).collect()))
            .collect();
        (groups, answer.note.unwrap_or_default())
    }

    fn named(name: &str, files: &[&str]) -> (String, Vec<String>) {
        (name.to_string(), files.iter().map(|f| f.to_string()).collect())
    }

    /// A file whose only call of the symbol is linked by its name alone (`channel.send`, of a
    /// `channel` of unknown type, may be `Mail.send` or `Sms.send`) was listed among the callers
    /// like any other, and its tests among those to run, without saying they may be no callers.
    #[test]
    fn callers_only_by_an_ambiguous_name_are_listed_apart_and_counted() {
        let files = [
            (
                "transports.py",
                "class Mail:\n    def send(self, body):\n        return body\n\n\nclass Sms:\n    def send(self, body):\n        return body\n",
            ),
            ("notify.py", "def notify(channel):\n    channel.send(\"hi\")\n"),
            ("mailer.py", "from transports import Mail\n\n\ndef mail():\n    Mail().send(\"hi\")\n"),
            ("test_notify.py", "from notify import notify\n\n\ndef test_notify():\n    notify(None)\n"),
            ("test_mailer.py", "from mailer import mail\n\n\ndef test_mail():\n    mail()\n"),
        ];
        let graph = graph_of(lean_ctx_outline::Language::Python, &files);
        let groups = |symbol: &str| impact_groups(&graph, "transports.py", symbol);
        let (sms, note) = groups("Sms.send");
        assert_eq!(
            sms,
            [
                named("callers", &[]),
                named("ambiguous callers", &["notify.py (calls Sms::send [ambiguous])"]),
                named(
                    "tests to run",
                    &["test_notify.py (tests notify.py (name+import) [only through ambiguous links])"]
                ),
            ]
        );
        assert!(note.contains("1 of the 1 calling files call what changed only through ambiguous calls"), "{note}");
        // A file with a call linked by its type is a caller, whatever else it calls by name.
        let (mail, note) = groups("Mail.send");
        assert_eq!(mail[0], named("callers", &["mailer.py (calls Mail::send [exact])"]));
        assert!(
            mail[1].0 == "ambiguous callers" && mail[1].1 == ["notify.py (calls Mail::send [ambiguous])"],
            "{mail:?}"
        );
        assert_eq!(
            mail[2],
            named(
                "tests to run",
                &[
                    "test_mailer.py (tests mailer.py (name+import))",
                    "test_notify.py (tests notify.py (name+import) [only through ambiguous links])"
                ]
            )
        );
        assert!(note.contains("1 of the 2 calling files"), "{note}");
    }

    /// A file naming a type only by a bare name two definitions share (`User` of `admin.rs` or of
    /// `shop.rs`, not imported) was listed among the type uses like a sure one, its tests like
    /// sure ones, and a file listed as an ambiguous caller was listed again under them.
    #[test]
    fn type_uses_only_by_an_ambiguous_name_are_listed_apart_and_once() {
        let files = [
            ("src/admin.rs", "pub struct User {}\n"),
            ("src/shop.rs", "pub struct User {}\n"),
            ("src/orders.rs", "use crate::shop::User;\n\npub fn owner(u: &User) -> &User {\n    u\n}\n"),
            ("src/audit.rs", "pub fn log(u: &User) -> &User {\n    u\n}\n"),
            ("src/sync.rs", "pub fn push(u: &User) -> User {\n    User {}\n}\n"),
            ("tests/audit.rs", "use amb::audit::log;\n\n#[test]\nfn logs() {\n    log(&amb::shop::User);\n}\n"),
        ];
        let graph = graph_of(lean_ctx_outline::Language::Rust, &files);
        let (user, note) = impact_groups(&graph, "src/shop.rs", "User");
        assert_eq!(
            user,
            vec![
                named("callers", &[]),
                // Listed once: as an ambiguous caller, not again for its ambiguous type use.
                named("ambiguous callers", &["src/sync.rs (calls User [ambiguous])"]),
                named("type uses", &["src/orders.rs (names User in a type)"]),
                named("ambiguous type uses", &["src/audit.rs (names User in a type)"]),
                named("tests to run", &["tests/audit.rs (tests src/audit.rs (name) [only through ambiguous links])"]),
            ]
        );
        assert!(note.contains("1 of the 2 files naming it in a type name it only by a name several"), "{note}");
    }

    /// QA: the impact of a Python class listed the files annotating with its bare name only, not
    /// `models.User` nor a quoted `"User | None"`.
    #[test]
    fn python_type_uses_through_a_module_and_in_quotes_are_listed() {
        let files = [
            ("pkg/__init__.py", ""),
            ("pkg/models.py", "class User:\n    pass\n"),
            ("by_module.py", "from pkg import models\n\n\ndef f(u: models.User) -> None:\n    pass\n"),
            ("by_path.py", "import pkg.models\n\n\ndef f(u: pkg.models.User) -> None:\n    pass\n"),
            ("quoted.py", "from pkg.models import User\n\n\ndef f(u: \"User | None\") -> None:\n    pass\n"),
            ("literal.py", "from typing import Literal\n\n\ndef f(u: Literal[\"User\"]) -> None:\n    pass\n"),
        ];
        let graph = graph_of(lean_ctx_outline::Language::Python, &files);
        let (groups, _) = impact_groups(&graph, "pkg/models.py", "User");
        let uses = groups.into_iter().find(|(name, _)| name == "type uses").map(|(_, files)| files);
        assert_eq!(
            uses,
            Some(vec![
                "by_module.py (names User in a type)".to_string(),
                "by_path.py (names User in a type)".to_string(),
                "quoted.py (names User in a type)".to_string()
            ])
        );
    }

    #[test]
    fn a_symbol_not_parsed_yet_is_said_to_be_so_not_answered_for_its_file() {
        let building = super::super::Building::new();
        let view = building.view();
        let (answer, impacted) =
            analyze(&view, Some("main.py"), Some("nosuch"), 2, &|_| true, Interrupt::NEVER).unwrap();
        assert!(answer.groups.is_empty() && answer.targets.is_empty() && impacted.is_empty());
        assert_eq!((answer.file.as_str(), answer.symbol.as_str()), ("main.py", "nosuch"));
        assert_eq!(
            answer.note.as_deref(),
            Some(
                "the project's graph is still being built (1/9 files parsed)\nno definition of `nosuch` in main.py \
                 among the files parsed so far: ask again in a moment"
            )
        );
        // A symbol it has is answered about.
        let (found, _) = analyze(&view, Some("main.py"), Some("main"), 2, &|_| true, Interrupt::NEVER).unwrap();
        assert_eq!(found.targets.len(), 1);
    }
}
