//! ctx_callgraph: callers, callees or a call path of a symbol, from the project's code graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use lean_ctx_common::plural::{agree, count};
use lean_ctx_graph::{
    DefId, DefSummary, Edge, Graph, Guess, Interrupt, Label, Lookup, MAX_DEPTH, SUPPORTED, has_queries,
};
use lean_ctx_outline::Language;
use lean_ctx_search::Withheld;

use super::{GraphView, Phase};
use crate::engine::cancel::Cancel;
use crate::engine::error::{EngineError, EngineResult, ErrorKind};
use crate::engine::project::Scope;
use crate::engine::search::{Shows, read_rule};
use crate::engine::{Caller, Engine};

/// Edges one answer shows at most.
pub(super) const MAX_EDGES: usize = 200;
/// The files the in-process engine's one-off walk gives the graph (it keeps no index): code, and
/// the configs its module mappings are read from (every name `is_js_config` takes: without
/// `Cargo.toml` no integration test reaches its crate, without `go.mod` no import reaches a Go
/// module's root package).
const CODE_FILES: &str = "**/{*.rs,*.py,*.pyi,*.pyw,*.js,*.mjs,*.cjs,*.jsx,*.ts,*.mts,*.cts,*.tsx,*.go,*.java,package.json,jsconfig.json,tsconfig*.json,Cargo.toml,go.mod}";
/// Files the in-process engine's one-off graph covers at most.
const MAX_ONE_OFF_FILES: usize = 100_000;
/// How long a question waits for a graph that is being built before it is answered with what
/// is ready (and says so): a small project's first question gets a whole answer.
const READY_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Callers,
    Callees,
    Trace,
}

impl Action {
    pub fn name(self) -> &'static str {
        match self {
            Action::Callers => "callers",
            Action::Callees => "callees",
            Action::Trace => "trace",
        }
    }
}

#[derive(Debug, Clone)]
pub struct CallgraphParams {
    pub action: Action,
    pub symbol: String,
    /// Only definitions in this file (relative to cwd, like reads).
    pub file: String,
    /// 1–5; 0 means the action's default ([`default_depth`]).
    pub depth: u32,
    pub from: String,
    pub to: String,
    /// Ask the project's language server (callers, callees); the code graph answers otherwise.
    pub precise: bool,
    /// Flipped when the caller leaves: the graph's walk stops.
    pub cancel: Cancel,
}

#[derive(Debug, Default)]
pub struct CallgraphAnswer {
    /// The definitions the symbol (or `from`) names.
    pub targets: Vec<DefSummary>,
    /// For a trace: the definitions `to` names.
    pub to_targets: Vec<DefSummary>,
    /// The symbol names several definitions in different places: the answer is this list.
    pub ambiguous: Vec<DefSummary>,
    pub edges: Vec<Edge>,
    pub truncated: bool,
    /// Calls to names the project does not define (callees).
    pub external_calls: u64,
    /// False while the graph is still being built: the answer covers the files parsed so far.
    pub complete: bool,
    pub note: Option<String>,
    /// Precise mode was asked: which source answered.
    pub source: Option<super::precise::Source>,
    /// What the code graph's callers leave out by rule (see `Graph::unclaimed_calls`); joins
    /// `note` unless a language server answered instead.
    unclaimed: Option<String>,
}

/// "rust, python, javascript, typescript, tsx, go, java".
pub(super) fn supported() -> String {
    SUPPORTED.iter().map(|l| l.name()).collect::<Vec<_>>().join(", ")
}

impl Engine {
    pub fn callgraph(&self, caller: &Caller<'_>, p: &CallgraphParams) -> EngineResult<CallgraphAnswer> {
        let depth = match p.depth {
            0 => default_depth(p.action),
            d if d <= MAX_DEPTH => d,
            d => return Err(EngineError::invalid(format!("depth {d} is out of range: use 1 to {MAX_DEPTH}"))),
        };
        let (first, second) = match p.action {
            Action::Trace => (required(&p.from, "from", "trace")?, Some(required(&p.to, "to", "trace")?)),
            action => (required(&p.symbol, "symbol", action.name())?, None),
        };
        let config = self.config.get();
        let scope = self.scope(caller, &config)?;
        let root = scope.root.clone();
        let file = match p.file.trim() {
            "" => None,
            file => Some(self.graph_file(&scope, &root, file, "ctx_callgraph")?),
        };
        let project = self.project_graph(&root)?;
        let gone = || p.cancel.is_cancelled();
        let interrupt = Interrupt::new(&gone);
        let rules = self.permission_rules(&scope, &config);
        let withholding = |file: &str| read_rule(&rules.permissions, &root.join(file), Shows::Content);
        let visible = |file: &str| withholding(file).is_none();
        let answer =
            project.read(|view| answer(&view, p.action, (first, second), file.as_deref(), depth, &visible, interrupt));
        // A name only files of a language the graph does not read define is no unknown name.
        let answer = answer.map_err(|e| match (e.kind, file.is_none()) {
            (ErrorKind::NotFound, true) => {
                let known = |symbol: &str| project.read(|view| !visible_ids(view.graph, symbol, &visible).is_empty());
                let symbols: Vec<&str> = [Some(first), second].into_iter().flatten().collect();
                self.uncovered_note(&root, &symbols, known).map_or(e, EngineError::not_found)
            }
            _ => e,
        });
        // An unknown name is said to be so with the same note as any answer (QA: it was left out,
        // and the agent took the name for one the project does not define).
        let answer = answer.map_err(|mut e| {
            if e.kind == ErrorKind::NotFound
                && let Some(note) = project.read(|view| withheld_note(view.graph, &withholding))
            {
                e.message.push_str(&format!("; {note}"));
            }
            e
        });
        let mut answer = self.stopped.count_if_cancelled(answer)?;
        if p.precise {
            super::precise::apply(self, &config, &root, p.action, depth, &mut answer);
            // A language server's sites: whether another call is written on the line is the
            // code graph's to say, by the calls it holds (the server's column need not be the
            // graph's for the same call).
            project.read(|view| {
                for e in &mut answer.edges {
                    e.shares_line = view.graph.several_calls_on_line(&e.file, e.line);
                }
            });
        }
        let syntactic = answer.source.as_ref().is_none_or(|s| s.fallback.is_some());
        if let Some(unclaimed) = answer.unclaimed.take().filter(|_| syntactic) {
            answer.note = Some(answer.note.map_or(unclaimed.clone(), |n| format!("{n}; {unclaimed}")));
        }
        // Whatever a withheld file defines or calls is left out (a language server's answer too):
        // a call site there, and a call here of a definition there, which counts as a call of a
        // name the project does not define, as it would without that file.
        let before = answer.edges.len();
        answer.edges.retain(|e| visible(&e.file) && visible(&e.callee.file));
        if p.action == Action::Callees {
            answer.external_calls += (before - answer.edges.len()) as u64;
        }
        for edge in &mut answer.edges {
            edge.candidates.retain(|c| visible(&c.file));
        }
        if let Some(note) = project.read(|view| withheld_note(view.graph, &withholding)) {
            answer.note = Some(answer.note.map_or(note.clone(), |n| format!("{n}\n{note}")));
        }
        Ok(answer)
    }

    /// `file` resolved like a read (inside the project, permitted, of a language with queries),
    /// as the graph names it; `tool` names the asking tool in a refusal.
    pub(super) fn graph_file(&self, scope: &Scope, root: &Path, file: &str, tool: &str) -> EngineResult<String> {
        let path = scope.resolve_existing(file)?;
        let config = self.config.get();
        let rules = self.permission_rules(scope, &config);
        crate::engine::guard::permissions::enforce(rules.permissions.check_read(&path), tool)?;
        let rel = path.strip_prefix(root).map_err(|_| {
            EngineError::denied(format!(
                "{file} is outside the project {}: the code graph covers the project's own files",
                root.display()
            ))
        })?;
        if path.is_dir() {
            return Err(EngineError::invalid(format!(
                "{file} is a directory: {tool} takes a source file (list a directory's files with ctx_tree or \
                 `lctx tree`)"
            )));
        }
        match Language::from_path(&path) {
            Some(language) if has_queries(language) => Ok(rel.to_string_lossy().replace('\\', "/")),
            Some(language) => Err(EngineError::invalid(format!(
                "{file}: the code graph has no queries for {} files yet (it covers {})",
                language.name(),
                supported()
            ))),
            None => Err(EngineError::invalid(format!(
                "{file}: not a source file the code graph reads (it covers {})",
                supported()
            ))),
        }
    }

    /// The project's graph: the daemon's follows the search index (opened now if it is not);
    /// the in-process engine, which keeps no index, loads the snapshot and brings it up to date
    /// with one walk.
    pub(super) fn project_graph(&self, root: &Path) -> EngineResult<std::sync::Arc<super::ProjectGraph>> {
        let followed = self.search.open(root).map_err(crate::engine::search::search_error)?;
        let project = self.graph.project(root);
        if followed {
            // A graph loaded from its snapshot is ready at once, but what changed while no daemon
            // watched reaches it only once the index has walked the tree: wait for both.
            let deadline = std::time::Instant::now() + READY_WAIT;
            let unready = || project.read(|view| view.phase != Phase::Ready) || !self.search.caught_up(root);
            while unready() && std::time::Instant::now() < deadline {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            // A question right after an edit (rename, then callers) sees the edit: the graph
            // learns of it from the index's batch. Past the bounded wait it answers as it is,
            // and says so.
            project.set_lagging(!self.search.caught_up(root) || !self.search.wait_fresh(root));
        } else {
            let listed = self.search.glob(root, CODE_FILES, None, MAX_ONE_OFF_FILES, &|_| None);
            let files: Vec<std::path::PathBuf> =
                listed.map_err(crate::engine::search::search_error)?.paths.into_iter().map(Into::into).collect();
            self.graph.sync_all(root, &files, lean_ctx_search::Extras::new());
        }
        Ok(project)
    }
}

/// The depth of a request that names none. Callers and callees grow with every level, so one level
/// is asked for unless more are; a trace answers one shortest path whatever the depth, so it looks
/// as far as it may: a shorter default would answer "no path" for paths it could have found.
fn default_depth(action: Action) -> u32 {
    match action {
        Action::Trace => MAX_DEPTH,
        Action::Callers | Action::Callees => 1,
    }
}

fn required<'a>(value: &'a str, name: &str, action: &str) -> EngineResult<&'a str> {
    match value.trim() {
        "" => Err(EngineError::invalid(format!("{action} needs `{name}`: a function, method or type name"))),
        value => Ok(value),
    }
}

/// What a call graph answer says of the files the user's Read rules withhold, whatever was
/// asked: that what they define and call is left out, and by which rules. Said whenever the graph
/// holds such a file, so whether one defines or calls the symbol changes nothing.
fn withheld_note(graph: &Graph, withholding: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let mut withheld = Withheld::default();
    for file in graph.files().keys() {
        if let Some(rule) = withholding(file) {
            withheld.add(rule, 1);
        }
    }
    withheld.note("file").map(|note| format!("{note}: what they define and call is left out"))
}

/// The definitions `symbol` names anywhere that lie in files `visible` takes.
fn visible_ids(graph: &Graph, symbol: &str, visible: &dyn Fn(&str) -> bool) -> Vec<DefId> {
    match graph.lookup(symbol, None) {
        Lookup::Found(ids) | Lookup::Ambiguous(ids) => ids.into_iter().filter(|id| visible(&id.file)).collect(),
        Lookup::Unknown { .. } => Vec::new(),
    }
}

/// Answers over one consistent view of the graph, from the definitions in files `visible` takes.
fn answer(
    view: &GraphView<'_>,
    action: Action,
    (first, second): (&str, Option<&str>),
    file: Option<&str>,
    depth: u32,
    visible: &dyn Fn(&str) -> bool,
    interrupt: Interrupt<'_>,
) -> EngineResult<CallgraphAnswer> {
    let graph = view.graph;
    let complete = view.phase == Phase::Ready;
    let progress = view.notice_about(file);
    let mut out = CallgraphAnswer { complete, note: progress.clone(), ..Default::default() };
    let summaries = |ids: &[DefId]| ids.iter().filter_map(|id| graph.summary(id)).collect::<Vec<_>>();
    // For a trace, `file` narrows `from`.
    let targets = match resolve_visible(graph, first, file, complete, &progress, visible)? {
        Resolved::One(ids) => ids,
        Resolved::Several(ids) => {
            out.ambiguous = summaries(&ids);
            return Ok(out);
        }
        Resolved::NotYet(why) => {
            super::subject::add_note(&mut out.note, why);
            return Ok(out);
        }
    };
    out.targets = summaries(&targets);
    match (action, second) {
        (Action::Trace, Some(to)) => {
            let goal = match resolve_visible(graph, to, None, complete, &progress, visible)? {
                Resolved::One(ids) | Resolved::Several(ids) => ids,
                Resolved::NotYet(why) => {
                    super::subject::add_note(&mut out.note, why);
                    return Ok(out);
                }
            };
            out.to_targets = summaries(&goal);
            // No path is an answer with no edges: the client says so, and how to look further, in
            // its reader's words.
            if let Some(path) = graph.trace(&targets, &goal, depth, visible, interrupt)? {
                // A name of several definitions is traced to any of them: the answer names the
                // one the path reaches, and says the others were candidates (QA: `to: compare`
                // was headed with `SemVer::compare` while the path reached another `compare`).
                let reached: Vec<DefSummary> = path
                    .last()
                    .map(|last| out.to_targets.iter().filter(|t| **t == last.callee).cloned().collect())
                    .unwrap_or_default();
                if out.to_targets.len() > 1 && !reached.is_empty() {
                    let others = out.to_targets.len() - reached.len();
                    super::subject::add_note(
                        &mut out.note,
                        format!(
                            "`{to}` names {} definitions; the path found reaches the one headed, not {} other{} \
                             (a method is named as `Type::name`)",
                            out.to_targets.len(),
                            others,
                            if others == 1 { "" } else { "s" }
                        ),
                    );
                    out.to_targets = reached;
                }
                out.edges = path;
            }
        }
        (Action::Callees, _) => {
            fill(&mut out, graph.callees(&targets, depth, MAX_EDGES, interrupt)?);
            if let Some(stopped) = unfollowed_note(&out.edges, depth) {
                super::subject::add_note(&mut out.note, stopped);
            }
        }
        _ => {
            let walk = graph.callers(&targets, depth, MAX_EDGES, interrupt)?;
            let guessed: Vec<Guess> = walk.guessed.iter().filter(|g| visible(&g.edge.file)).cloned().collect();
            let guessed = guessed_note(&guessed);
            let overrides = walk.overrides.iter().filter(|id| visible(&id.file)).cloned().collect();
            if let Some(listed) = overrides_note(graph, &overrides) {
                out.note = Some(out.note.take().map_or(listed.clone(), |note| format!("{note}; {listed}")));
            }
            // Past the first level the walk looked up the callers' own calls: a note on what it could
            // not list of them names them too, unless their file is withheld.
            let expanded: Vec<DefId> = walk.expanded.iter().filter(|id| visible(&id.file)).cloned().collect();
            let unclaimed = graph.unclaimed_calls(&expanded);
            fill(&mut out, walk);
            let values = super::subject::value_calls_note(&out.targets);
            let notes: Vec<String> = [unclaimed, values, guessed].into_iter().flatten().collect();
            out.unclaimed = (!notes.is_empty()).then(|| notes.join("; "));
        }
    }
    Ok(out)
}

/// How many members of an override family the note names; each edge names its own callee, and a
/// Go interface may have dozens of implementations.
const FAMILY_NAMED: usize = 8;

/// What a callers answer adds for the methods in an override relation with the one asked about.
fn overrides_note(graph: &lean_ctx_graph::Graph, overrides: &BTreeSet<DefId>) -> Option<String> {
    let names: Vec<String> =
        overrides.iter().filter_map(|id| graph.summary(id)).map(|s| format!("`{}`", s.name)).collect();
    (!names.is_empty()).then(|| {
        let mut listed = names.iter().take(FAMILY_NAMED).cloned().collect::<Vec<_>>().join(", ");
        if names.len() > FAMILY_NAMED {
            listed.push_str(&format!(" and {} more", names.len() - FAMILY_NAMED));
        }
        format!(
            "calls of the methods it overrides or implements, or that override or implement it, are listed too, \
             each with its callee: {listed} (a call through a base type, an interface or a trait may run any of them; deeper \
             levels follow the callers found, not their override families)"
        )
    })
}

/// What a callers answer leaves out as guesses, one clause per name: call sites that reach a
/// target by its name alone, among several definitions of it.
fn guessed_note(guessed: &[Guess]) -> Option<String> {
    let mut by_name: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for guess in guessed {
        let name = guess.edge.callee.name.rsplit("::").next().unwrap_or(&guess.edge.callee.name);
        let slot = by_name.entry(name).or_default();
        slot.0 += 1;
        slot.1 = slot.1.max(guess.among);
    }
    let clauses: Vec<String> = by_name
        .into_iter()
        .map(|(name, (sites, definitions))| {
            format!(
                "{} of `{name}` on values of unknown type {} not listed: nothing written says which of the \
                 {definitions} definitions named `{name}` {} (search for `{name}(` to see them)",
                count(sites as u64, "call"),
                agree(sites as u64, "is", "are"),
                agree(sites as u64, "it reaches", "they reach"),
            )
        })
        .collect();
    (!clauses.is_empty()).then(|| clauses.join("; "))
}

/// What a callees walk of more than one level leaves out: the calls of an ambiguous callee, since
/// which of its candidates runs is not known.
fn unfollowed_note(edges: &[Edge], depth: u32) -> Option<String> {
    let last = depth.clamp(1, MAX_DEPTH);
    let stopped = edges.iter().filter(|e| e.label == Label::Ambiguous && e.depth < last).count();
    (stopped > 0).then(|| {
        format!(
            "{} {} not followed to the next depth: which candidate runs is not known (ask about {} to follow it)",
            count(stopped as u64, "ambiguous call"),
            agree(stopped as u64, "is", "are"),
            agree(stopped as u64, "it", "one of them"),
        )
    })
}

fn fill(out: &mut CallgraphAnswer, walk: lean_ctx_graph::Walk) {
    out.edges = walk.edges;
    out.truncated = walk.truncated;
    out.external_calls = walk.external_calls as u64;
}

pub(super) enum Resolved {
    One(Vec<DefId>),
    Several(Vec<DefId>),
    /// Not found while the graph is incomplete: the answer adds this sentence to its note
    /// instead of failing.
    NotYet(String),
}

/// The definitions `symbol` names (in `file`), as if the files `visible` does not take (the
/// caller's Read rules withhold them) were not in the graph: their definitions are none of the
/// symbol's, nor among the closest names an unknown one is given.
pub(super) fn resolve_visible(
    graph: &Graph,
    symbol: &str,
    file: Option<&str>,
    complete: bool,
    progress: &Option<String>,
    visible: &dyn Fn(&str) -> bool,
) -> EngineResult<Resolved> {
    let unknown = || {
        let name = symbol.trim().rsplit(['.', ':']).next().unwrap_or(symbol);
        let closest = graph.closest(name).into_iter().filter(|n| !visible_ids(graph, n, visible).is_empty()).collect();
        Lookup::Unknown { closest }
    };
    let lookup = match graph.lookup(symbol, file) {
        Lookup::Found(ids) => {
            let ids: Vec<DefId> = ids.into_iter().filter(|id| visible(&id.file)).collect();
            if ids.is_empty() { unknown() } else { Lookup::Found(ids) }
        }
        Lookup::Ambiguous(ids) => {
            let ids: Vec<DefId> = ids.into_iter().filter(|id| visible(&id.file)).collect();
            match ids.len() {
                0 => unknown(),
                1 => Lookup::Found(ids),
                _ => Lookup::Ambiguous(ids),
            }
        }
        Lookup::Unknown { .. } => unknown(),
    };
    resolved(lookup, symbol, file, complete, progress)
}

/// What a lookup of `symbol` (in `file`) answers.
fn resolved(
    lookup: Lookup,
    symbol: &str,
    file: Option<&str>,
    complete: bool,
    progress: &Option<String>,
) -> EngineResult<Resolved> {
    match lookup {
        Lookup::Found(ids) => Ok(Resolved::One(ids)),
        Lookup::Ambiguous(ids) => Ok(Resolved::Several(ids)),
        Lookup::Unknown { .. } if !complete && progress.is_some() => {
            let place = file.map_or(String::new(), |f| format!(" in {f}"));
            Ok(Resolved::NotYet(format!(
                "no definition of `{symbol}`{place} among the files parsed so far: ask again in a moment"
            )))
        }
        Lookup::Unknown { closest } => {
            let place = file.map_or("the project".to_string(), |f| f.to_string());
            let hint = match closest.as_slice() {
                [] => String::new(),
                names => format!("; closest: {}", names.join(", ")),
            };
            // A note says what the graph leaves out (a file too large for it, a broken config):
            // the name may be defined there.
            let note = progress.as_ref().map_or(String::new(), |note| format!("; {note}"));
            Err(EngineError::not_found(format!(
                "no function, method or type named `{symbol}` in {place}{hint} (the call graph covers {} files){note}",
                supported()
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_symbol_not_parsed_yet_is_said_to_be_so_while_the_graph_is_built() {
        let building = super::super::Building::new();
        let view = building.view();
        let progress = "the project's graph is still being built (1/9 files parsed)";
        let ask = |action, first, second| {
            answer(&view, action, (first, second), None, 1, &|_| true, Interrupt::NEVER).unwrap()
        };
        let callers = ask(Action::Callers, "nosuch", None);
        assert!(callers.targets.is_empty() && callers.edges.is_empty() && !callers.complete);
        assert_eq!(
            callers.note.as_deref(),
            Some(format!("{progress}\nno definition of `nosuch` among the files parsed so far: ask again in a moment"))
                .as_deref()
        );
        // A trace whose end is not parsed yet says which end.
        let trace = ask(Action::Trace, "main", Some("later"));
        assert_eq!(trace.targets.len(), 1);
        assert_eq!(
            trace.note.as_deref(),
            Some(format!("{progress}\nno definition of `later` among the files parsed so far: ask again in a moment"))
                .as_deref()
        );
    }
}
