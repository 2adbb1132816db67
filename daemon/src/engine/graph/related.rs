//! ctx_graph: a file's imports, importers, tests and co-changed files (`related`), the files
//! a few import steps away (`neighbors`), a shortest import path between two files (`path`),
//! and a definition with its uses grouped by file (`symbol`).

use std::path::Path;

use lean_ctx_graph::{DefSummary, Interrupt, MAX_NEIGHBOR_DEPTH, MAX_PATH_LENGTH, Step, Use};

use lean_ctx_common::plural::count;
use lean_ctx_outline::Language;
use lean_ctx_search::Withheld;

use super::callgraph::Resolved;
use super::subject::{self, Group, Linked, add_note, file_facts, readable, split_subject, withhold, withholds};
use crate::engine::cancel::Cancel;
use crate::engine::error::{EngineError, EngineResult};
use crate::engine::{Caller, Engine};

const TOOL: &str = "ctx_graph";
/// Uses a symbol answer lists at most.
const MAX_USES: usize = 200;
/// Co-changed files a related answer lists at most.
const COCHANGE_LIMIT: usize = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GraphAction {
    Related,
    Neighbors,
    Path,
    Symbol,
}

#[derive(Debug, Clone)]
pub struct GraphParams {
    pub action: GraphAction,
    /// A file (relative to cwd, like reads); for `symbol`, `file::symbol` or a symbol name.
    pub path: String,
    /// `path`: the other file.
    pub to: String,
    /// `neighbors`: 1–3, 0 means 1; `path`: the longest path tried, 0 means the most.
    pub depth: u32,
    /// Flipped when the caller leaves: the search for a symbol's uses stops there.
    pub cancel: Cancel,
}

#[derive(Debug, Default)]
pub struct GraphAnswer {
    /// The file asked about, as the graph names it.
    pub file: String,
    pub groups: Vec<Group>,
    /// `path`: the steps from `path` to `to`.
    pub path: Vec<Step>,
    /// `symbol`: the definitions named.
    pub targets: Vec<DefSummary>,
    /// `symbol`: several definitions in different places; choose with `file::symbol`.
    pub ambiguous: Vec<DefSummary>,
    pub uses: Vec<Use>,
    /// Uses past [`MAX_USES`], and uses in files the Read rules withhold.
    pub uses_omitted: usize,
    pub uses_withheld: usize,
    /// `symbol`: other definitions of the same name elsewhere.
    pub namesakes: Vec<DefSummary>,
    pub complete: bool,
    pub note: Option<String>,
}

impl Engine {
    pub fn graph_query(&self, caller: &Caller<'_>, p: &GraphParams) -> EngineResult<GraphAnswer> {
        let depth = match (p.action, p.depth) {
            (GraphAction::Neighbors, 0) => 1,
            (GraphAction::Neighbors, d) if d > MAX_NEIGHBOR_DEPTH => {
                return Err(EngineError::invalid(format!(
                    "depth {d} is out of range for neighbors: use 1 to {MAX_NEIGHBOR_DEPTH}"
                )));
            }
            (GraphAction::Path, 0) => MAX_PATH_LENGTH,
            (GraphAction::Path, d) if d > MAX_PATH_LENGTH => {
                return Err(EngineError::invalid(format!(
                    "depth {d} is out of range for path: use 1 to {MAX_PATH_LENGTH}"
                )));
            }
            (_, d) => d,
        };
        let path = p.path.trim();
        if path.is_empty() {
            let what = match p.action {
                GraphAction::Symbol => "`file::symbol` or a symbol name",
                _ => "a file of the project",
            };
            return Err(subject::missing_path(action_name(p.action), what));
        }
        let config = self.config.get();
        let scope = self.scope(caller, &config)?;
        let project = self.project_graph(&scope.root)?;
        let root = project.root.clone();
        let rules = self.permission_rules(&scope, &config);
        let gone = || p.cancel.is_cancelled();
        let interrupt = Interrupt::new(&gone);
        let visible = |file: &str| readable(&rules, &root, file);
        let mut answer = match p.action {
            GraphAction::Symbol => {
                let (file, symbol) = match split_subject(path) {
                    (Some(file), Some(symbol)) => (Some(self.subject_file(&scope, &project, file, TOOL)?), symbol),
                    (Some(file), None) if file.contains('/') || Language::from_path(Path::new(file)).is_some() => {
                        return Err(EngineError::invalid(format!(
                            "symbol needs `path` as FILE::SYMBOL (e.g. {file}::name) or a symbol name"
                        )));
                    }
                    (None, Some(symbol)) | (Some(symbol), None) => (None, symbol),
                    (None, None) => return Err(subject::missing_path("symbol", "`file::symbol`")),
                };
                let answer = project.read(|view| symbol_answer(&view, symbol, file.as_deref(), &visible, interrupt));
                let mut answer = self.stopped.count_if_cancelled(answer)?;
                let before = answer.uses.len();
                let mut uses = Withheld::default();
                answer.uses.retain(|u| !withholds(&mut uses, &rules, &root, &u.file));
                answer.uses_withheld = before - answer.uses.len();
                if let Some(note) = uses.note("use") {
                    add_note(&mut answer.note, note);
                }
                answer.namesakes.retain(|d| readable(&rules, &root, &d.file));
                answer
            }
            action => {
                let file = self.subject_file(&scope, &project, path, TOOL)?;
                let to = match action {
                    GraphAction::Path if p.to.trim().is_empty() => {
                        return Err(EngineError::invalid("path needs `to`: the file the import path ends at"));
                    }
                    GraphAction::Path => Some(self.subject_file(&scope, &project, p.to.trim(), TOOL)?),
                    _ => None,
                };
                let answer = project.read(|view| -> EngineResult<GraphAnswer> {
                    let mut answer = GraphAnswer {
                        file: file.clone(),
                        complete: view.phase == super::Phase::Ready,
                        note: view.notice_about(Some(&file)),
                        ..Default::default()
                    };
                    let (files, links) = file_facts(view.graph, interrupt)?;
                    match (action, to.as_deref()) {
                        (GraphAction::Path, Some(to)) if to == file => {
                            add_note(&mut answer.note, format!("`path` and `to` are the same file: {file}"));
                        }
                        // Only through files the caller may read: a path through another would
                        // tell what that file imports.
                        (GraphAction::Path, Some(to)) => match files.path(&file, to, depth, &visible) {
                            Some(steps) => answer.path = steps,
                            None => add_note(
                                &mut answer.note,
                                format!(
                                    "no import path of at most {} between {file} and {to}{}",
                                    count(depth.into(), "step"),
                                    match rules.permissions.is_empty() {
                                        true => "",
                                        false => " through files your Read rules let you read",
                                    }
                                ),
                            ),
                        },
                        (GraphAction::Neighbors, _) => {
                            let near = files.neighbors(&file, depth);
                            let linked = near
                                .into_iter()
                                .map(|r| Linked { file: r.file, depth: r.depth, why: r.direction.name().to_string() })
                                .collect();
                            answer.groups.push(Group::new("neighbors", linked, subject::GROUP_LIMIT));
                        }
                        _ => {
                            let plain = |f: &String, why: &str| Linked { file: f.clone(), depth: 1, why: why.into() };
                            let imports = files.imports_of(&file).map(|f| plain(f, "")).collect();
                            let importers = files.importers_of(&file).map(|f| plain(f, "")).collect();
                            answer.groups.push(Group::new("imports", imports, subject::GROUP_LIMIT));
                            answer.groups.push(Group::new("importers", importers, subject::GROUP_LIMIT));
                            let language = view.graph.file(&file).map(|e| e.facts.language.clone()).unwrap_or_default();
                            let (name, linked): (&str, Vec<_>) = if view.graph.is_test(&file, &language) {
                                ("tested sources", links.sources_of(&file).collect())
                            } else {
                                ("tests", links.tests_of(&file).collect())
                            };
                            let linked = linked
                                .into_iter()
                                .map(|(f, how)| {
                                    let how: Vec<&str> = how.iter().map(|h| h.name()).collect();
                                    plain(f, &how.join("+"))
                                })
                                .collect();
                            answer.groups.push(Group::new(name, linked, subject::GROUP_LIMIT));
                        }
                    }
                    Ok(answer)
                });
                let mut answer = self.stopped.count_if_cancelled(answer)?;
                if action == GraphAction::Related {
                    self.add_related_extras(&root, &mut answer);
                }
                answer
            }
        };
        let mut withheld = Withheld::default();
        withhold(&rules, &root, &mut answer.groups, &mut withheld);
        if let Some(note) = withheld.note("file") {
            add_note(&mut answer.note, note);
        }
        Ok(answer)
    }

    /// What `related` adds beyond the graph: inline tests (read from the file) and the files
    /// changed together with it in git history.
    fn add_related_extras(&self, root: &Path, answer: &mut GraphAnswer) {
        let language = Language::from_path(Path::new(&answer.file)).map(|l| l.name().to_string()).unwrap_or_default();
        // One file: never past the bound.
        let (inline, _) = subject::inline_tests(root, &[(answer.file.clone(), language)]);
        if let Some(tests) = answer.groups.iter_mut().find(|g| g.name == "tests") {
            tests.files.splice(0..0, inline.into_iter().map(|l| Linked { file: l.file, depth: 1, why: l.why }));
        }
        match self.graph.cochange.get(root) {
            Ok(counts) => {
                let together: Vec<Linked> = counts
                    .with(&answer.file)
                    .into_iter()
                    .filter(|(f, _)| root.join(f).exists())
                    .map(|(file, n)| Linked { file, depth: 1, why: count(n as u64, "commit") })
                    .collect();
                answer.groups.push(Group::new("co-changed", together, COCHANGE_LIMIT));
                if counts.skipped > 0 {
                    add_note(
                        &mut answer.note,
                        format!(
                            "co-change read {}; {} touching more than {} files were skipped",
                            count(counts.commits as u64, "commit"),
                            counts.skipped,
                            super::cochange::MAX_FILES_PER_COMMIT
                        ),
                    );
                }
            }
            Err(e) => add_note(&mut answer.note, format!("co-change unavailable: {e}")),
        }
    }
}

pub fn action_name(action: GraphAction) -> &'static str {
    match action {
        GraphAction::Related => "related",
        GraphAction::Neighbors => "neighbors",
        GraphAction::Path => "path",
        GraphAction::Symbol => "symbol",
    }
}

/// A definition, its uses grouped by file (in file order) and its namesakes.
fn symbol_answer(
    view: &super::GraphView<'_>,
    symbol: &str,
    file: Option<&str>,
    visible: &dyn Fn(&str) -> bool,
    interrupt: Interrupt<'_>,
) -> EngineResult<GraphAnswer> {
    let graph = view.graph;
    let mut answer = GraphAnswer {
        file: file.unwrap_or_default().to_string(),
        complete: view.phase == super::Phase::Ready,
        note: view.notice_about(file),
        ..Default::default()
    };
    let summaries = |ids: &[lean_ctx_graph::DefId]| ids.iter().filter_map(|id| graph.summary(id)).collect::<Vec<_>>();
    let ids = match subject::definitions(view, symbol, file, visible)? {
        Resolved::One(ids) => ids,
        Resolved::Several(ids) => {
            answer.ambiguous = summaries(&ids);
            return Ok(answer);
        }
        Resolved::NotYet(why) => {
            add_note(&mut answer.note, why);
            return Ok(answer);
        }
    };
    answer.targets = summaries(&ids);
    let mut uses = graph.uses(&ids, interrupt)?;
    answer.uses_omitted = uses.len().saturating_sub(MAX_USES);
    uses.truncate(MAX_USES);
    answer.uses = uses;
    let name = symbol.rsplit(['.', ':']).next().unwrap_or(symbol);
    answer.namesakes =
        graph.defs_named(name).filter(|id| !ids.contains(id)).filter_map(|id| graph.summary(id)).collect();
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_symbol_not_parsed_yet_is_said_to_be_so_while_the_graph_is_built() {
        let building = super::super::Building::new();
        let view = building.view();
        let answer = symbol_answer(&view, "nosuch", Some("main.py"), &|_| true, Interrupt::NEVER).unwrap();
        assert!(answer.targets.is_empty() && answer.uses.is_empty() && !answer.complete);
        assert_eq!(
            answer.note.as_deref(),
            Some(
                "the project's graph is still being built (1/9 files parsed)\nno definition of `nosuch` in main.py \
                 among the files parsed so far: ask again in a moment"
            )
        );
    }
}
