//! What ctx_graph and ctx_impact share: the subject (`file` or `file::symbol`) resolved against
//! the project, file groups cut to a size with the rest counted, the tests linked to a set of
//! files, and Read-denied files withheld with a count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use lean_ctx_graph::{FileGraph, Graph, Interrupt, Interrupted, TestLinks, has_inline_tests};
use lean_ctx_search::Withheld;

use super::callgraph::{Resolved, resolve_visible};
use super::{GraphView, Phase, ProjectGraph};
use crate::engine::Engine;
use crate::engine::error::{EngineError, EngineResult, ErrorKind};
use crate::engine::guard::permissions::Rules;
use crate::engine::project::Scope;
use crate::engine::search::{Shows, read_rule};
use lean_ctx_guard::permissions::Verdict;

/// Files one group of an answer lists at most; the rest are counted.
pub(super) const GROUP_LIMIT: usize = 30;
/// Characters of one file's reasons a group shows at most (past the first reason): a test
/// linked to hundreds of the files reached would otherwise be one line of thousands.
const WHY_CHARS: usize = 200;
/// Source files whose text is read to find inline tests (Rust `#[cfg(test)]`) at most.
const MAX_INLINE_CHECKS: usize = 500;

/// One file of an answer and why it is there.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Linked {
    pub file: String,
    /// Steps from the subject (1 for direct); 0 where steps do not apply.
    pub depth: u32,
    /// `imports`, `name+import`, `7 commits`, `calls load`, …
    pub why: String,
}

/// A labelled list of files, with how many were left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Group {
    pub name: String,
    pub files: Vec<Linked>,
    /// Files past [`GROUP_LIMIT`].
    pub omitted: usize,
    /// Files withheld by the user's Read rules.
    pub withheld: usize,
}

impl Group {
    /// A group of `files` in the given order, cut at `limit`.
    pub fn new(name: &str, files: Vec<Linked>, limit: usize) -> Group {
        let omitted = files.len().saturating_sub(limit);
        Group { name: name.to_string(), files: files.into_iter().take(limit).collect(), omitted, withheld: 0 }
    }
}

/// `parts` joined by `separator`, as many as fit in [`WHY_CHARS`] (the first always), then how
/// many more there are.
pub(super) fn within_line(parts: impl IntoIterator<Item = String>, separator: &str) -> String {
    let parts: Vec<String> = parts.into_iter().collect();
    let mut line = String::new();
    for (shown, part) in parts.iter().enumerate() {
        if shown > 0 && line.len() + separator.len() + part.len() > WHY_CHARS {
            line.push_str(&format!("{separator}… {} more", parts.len() - shown));
            break;
        }
        if shown > 0 {
            line.push_str(separator);
        }
        line.push_str(part);
    }
    line
}

/// `src/a.rs::Store::new` → (`src/a.rs`, `Store::new`); a path without a symbol (`src/a.rs`, or
/// `src/a.rs::` with nothing after: QA, it looked up a symbol named `` and offered the closest
/// names), or a bare `Type::name` (whose left side names no file), keeps its whole text on the
/// side it belongs to.
pub(super) fn split_subject(subject: &str) -> (Option<&str>, Option<&str>) {
    let subject = subject.trim();
    match subject.split_once("::") {
        Some((file, symbol)) if file.contains(['.', '/']) => {
            (Some(file.trim()), Some(symbol.trim()).filter(|symbol| !symbol.is_empty()))
        }
        Some(_) => (None, Some(subject)),
        None => (Some(subject), None),
    }
}

impl Engine {
    /// `file` as the graph names it, for `tool`; a file that does not exist gets the project's
    /// nearest file names in its error.
    pub(super) fn subject_file(
        &self,
        scope: &Scope,
        project: &ProjectGraph,
        file: &str,
        tool: &str,
    ) -> EngineResult<String> {
        self.graph_file(scope, &project.root, file, tool).map_err(|mut e| {
            if e.kind == ErrorKind::NotFound {
                let closest = project.read(|view| view.graph.closest_files(file));
                if !closest.is_empty() {
                    e.message = format!("{}; closest files in the project: {}", e.message, closest.join(", "));
                }
            }
            e
        })
    }
}

/// The definitions `symbol` names in `file` (all of the project's for no file) among the files
/// `visible` takes (those the caller's Read rules let it read): one, several (ambiguous: the
/// caller lists them), or none yet while the graph is incomplete.
pub(super) fn definitions(
    view: &GraphView<'_>,
    symbol: &str,
    file: Option<&str>,
    visible: &dyn Fn(&str) -> bool,
) -> EngineResult<Resolved> {
    resolve_visible(view.graph, symbol, file, view.phase == Phase::Ready, &view.notice_about(file), visible)
}

/// The tests to run for `files` (each with why it is impacted): the tests linked to them, and
/// those of them that are tests themselves. Sorted by path; `why` names what linked each.
pub(super) fn tests_for(graph: &Graph, links: &TestLinks, files: &BTreeMap<String, String>) -> Vec<Linked> {
    let mut tests: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, why) in files {
        let language = graph.file(file).map(|e| e.facts.language.as_str()).unwrap_or_default();
        if graph.is_test(file, language) {
            tests.entry(file.clone()).or_default().insert(why.clone());
        }
        for (test, how) in links.tests_of(file) {
            let how: Vec<&str> = how.iter().map(|h| h.name()).collect();
            tests.entry(test.clone()).or_default().insert(format!("tests {file} ({})", how.join("+")));
        }
    }
    tests.into_iter().map(|(file, why)| Linked { file, depth: 0, why: within_line(why, "; ") }).collect()
}

/// Of `files`, the Rust sources that hold their own tests (read now: the graph keeps no text),
/// and how many were not read for it (past [`MAX_INLINE_CHECKS`]).
pub(super) fn inline_tests(root: &Path, graph_files: &[(String, String)]) -> (Vec<Linked>, usize) {
    let rust: Vec<&String> =
        graph_files.iter().filter(|(_, language)| language == "rust").map(|(file, _)| file).collect();
    let found = rust
        .iter()
        .take(MAX_INLINE_CHECKS)
        .filter(|file| {
            super::read_project_file(root, &root.join(file)).is_some_and(|text| has_inline_tests("rust", &text))
        })
        .map(|file| Linked { file: (*file).clone(), depth: 0, why: "inline #[cfg(test)] tests".into() })
        .collect();
    (found, rust.len().saturating_sub(MAX_INLINE_CHECKS))
}

/// The file graph and test links of a project, under one read of its graph.
pub(super) fn file_facts<'a>(
    graph: &'a Graph,
    interrupt: Interrupt<'_>,
) -> Result<(&'a FileGraph, &'a TestLinks), Interrupted> {
    // The file graph first, where a question may stop; the test links are made from it.
    let files = graph.file_graph_within(interrupt)?;
    Ok((files, graph.test_links()))
}

/// The language the graph gives each of `files` (for [`inline_tests`]).
pub(super) fn languages(graph: &Graph, files: impl IntoIterator<Item = String>) -> Vec<(String, String)> {
    files.into_iter().filter_map(|f| graph.file(&f).map(|e| e.facts.language.clone()).map(|l| (f, l))).collect()
}

/// Whether the user's Read rules withhold `file` (root-relative) from a graph answer; if so, it
/// is counted in `withheld` as one result and its rule noted. Named as search names them: what a
/// graph answer shows of a file (its lines, its definitions) is its content.
pub(super) fn withholds(withheld: &mut Withheld, rules: &Rules, root: &Path, file: &str) -> bool {
    withheld.check(&|path| read_rule(&rules.permissions, path, Shows::Content), &root.join(file))
}

/// Drops the files the user's Read rules deny from every group, counting them in the group, and
/// notes the rules in `withheld`, each file once however many groups held it (QA: one file both
/// imported and changed with the subject was "2 files withheld").
pub(super) fn withhold(rules: &Rules, root: &Path, groups: &mut [Group], withheld: &mut Withheld) {
    let mut seen: std::collections::HashMap<String, bool> = std::collections::HashMap::new();
    for group in groups {
        let before = group.files.len();
        group.files.retain(|linked| {
            !*seen.entry(linked.file.clone()).or_insert_with(|| withholds(withheld, rules, root, &linked.file))
        });
        group.withheld += before - group.files.len();
    }
}

/// Whether the user's Read rules let `file` be shown.
pub(super) fn readable(rules: &Rules, root: &Path, file: &str) -> bool {
    matches!(rules.permissions.check_read(&root.join(file)), Verdict::Allow)
}

/// `a` then `b` on separate lines.
/// What callers of a function or class leave out, said wherever they are listed (QA: `const g =
/// f; g(1)` made "callers: none, tests to run: none" of a function used and tested; `Q = K; Q()`
/// the same of a class). An import under another name (`import f as g`) is followed.
pub(super) fn value_calls_note(targets: &[lean_ctx_graph::DefSummary]) -> Option<String> {
    targets.iter().any(|t| matches!(t.kind.as_str(), "fn" | "method" | "class")).then(|| {
        "calls through a variable it was assigned to or a parameter it was passed as (`g = f; g()`, a callback) \
         are not listed"
            .to_string()
    })
}

pub(super) fn add_note(note: &mut Option<String>, more: String) {
    *note = Some(match note.take() {
        Some(before) => format!("{before}\n{more}"),
        None => more,
    });
}

/// The error for a subject that is missing.
pub(super) fn missing_path(action: &str, what: &str) -> EngineError {
    EngineError::invalid(format!("{action} needs `path`: {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_split_into_file_and_symbol() {
        assert_eq!(split_subject("src/store.rs::Store::new"), (Some("src/store.rs"), Some("Store::new")));
        assert_eq!(split_subject("app.py"), (Some("app.py"), None));
        assert_eq!(split_subject("app.py:: "), (Some("app.py"), None), "nothing after `::`: the file");
        assert_eq!(split_subject("Store::new"), (None, Some("Store::new")));
        assert_eq!(split_subject(" shop/models.py :: Order "), (Some("shop/models.py"), Some("Order")));
    }

    #[test]
    fn groups_count_what_they_leave_out() {
        let files: Vec<Linked> =
            (0..5).map(|i| Linked { file: format!("f{i}.py"), depth: 1, why: String::new() }).collect();
        let group = Group::new("importers", files, 3);
        assert_eq!((group.files.len(), group.omitted), (3, 2));
    }

    #[test]
    fn a_long_list_of_reasons_is_cut_saying_how_many_more() {
        let short = within_line(["calls a".to_string(), "calls b".to_string()], "; ");
        assert_eq!(short, "calls a; calls b");
        let reasons = (0..500).map(|i| format!("tests src/pkg{i}/file.go (name)"));
        let line = within_line(reasons, "; ");
        assert!(line.len() < WHY_CHARS + 20 && line.ends_with("; … 494 more"), "{line}");
        // One reason longer than the line is shown whole: a reason is never cut inside.
        assert_eq!(within_line(["x".repeat(300)], ", ").len(), 300);
    }
}
