//! File-level edges: which project files each file imports, resolved with the same module rules
//! name resolution uses ([`crate::modules`]), and the questions asked of them: importers,
//! neighbours to a depth, dependents (the reverse closure), and a shortest import path.
//!
//! An import that names no project file (a standard library, a dependency) is no edge. A Go
//! import names its package: every non-test file of the package directory. A Go or Java file
//! uses what the other files of its package define without an import: each such use that
//! resolves is an edge too (`Bar.java` constructing `Foo`, beside it, imports `Foo.java`), and so
//! is a Rust path naming a project module's item without a `use` (`mycrate::make()`). Rust
//! `mod x;` declarations need no import and are not edges here.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::Arc;

use lean_ctx_outline::Language;

use crate::facts::{FileFacts, Import, Ref, RefKind};
use crate::file_ids::FileIds;
use crate::graph::{Graph, Label, language_of, module_binding};
use crate::interrupt::{Interrupt, Interrupted};
use crate::modules::Target;

pub use lean_ctx_common::limits::{MAX_NEIGHBOR_DEPTH, MAX_PATH_LENGTH};

/// The project's import edges, both ways, each file by its number (see [`FileIds`]): built once
/// per version of the graph and kept, a few bytes an edge.
#[derive(Debug)]
pub struct FileGraph {
    ids: Arc<FileIds>,
    /// By file number: the files it imports, in path order.
    imports: Vec<Vec<u32>>,
    /// By file number: the files importing it, in path order.
    importers: Vec<Vec<u32>>,
}

/// Which way an import step goes, seen from where a walk started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    /// The file imports the next one.
    Imports,
    /// The next file imports this one.
    ImportedBy,
}

impl Direction {
    pub fn name(self) -> &'static str {
        match self {
            Direction::Imports => "imports",
            Direction::ImportedBy => "imported by",
        }
    }
}

/// A file found by a walk: how many steps away, and the direction of the first step that
/// reached it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Reached {
    pub file: String,
    pub depth: u32,
    pub direction: Direction,
}

/// One step of an import path: `from` imports `to`, or is imported by it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub from: String,
    pub to: String,
    pub direction: Direction,
}

impl Graph {
    /// Every file's imports resolved to project files (see [`Graph::file_graph`]).
    pub(crate) fn build_file_graph(&self, interrupt: Interrupt<'_>) -> Result<FileGraph, Interrupted> {
        let ids = Arc::new(FileIds::new(self.files().keys().cloned().collect()));
        let package_uses = self.package_uses(interrupt)?;
        let mut imports = vec![Vec::new(); ids.len()];
        let mut importers = vec![Vec::new(); ids.len()];
        // Files are met in path order, so each importers list is built sorted.
        for (id, (file, entry)) in self.files().iter().enumerate() {
            interrupt.check()?;
            let Some(language) = language_of(&entry.facts) else { continue };
            let imported = entry.facts.imports.iter().flat_map(|import| self.import_files(file, language, import));
            let targets = imported.chain(package_uses.get(file).into_iter().flatten().cloned());
            let mut targets: Vec<u32> = targets.filter_map(|target| ids.id(&target)).collect();
            targets.sort_unstable();
            targets.dedup();
            targets.retain(|&target| target != id as u32);
            for &target in &targets {
                importers[target as usize].push(id as u32);
            }
            imports[id] = targets;
        }
        Ok(FileGraph { ids, imports, importers })
    }
}

impl FileGraph {
    /// The numbering of the files, shared with the test links made from this file graph.
    pub(crate) fn ids(&self) -> &Arc<FileIds> {
        &self.ids
    }

    /// Project files `file` imports, in path order.
    pub fn imports_of(&self, file: &str) -> impl Iterator<Item = &String> {
        self.named(self.ids.id(file).map(|id| &self.imports[id as usize]))
    }

    /// Project files importing `file`, in path order.
    pub fn importers_of(&self, file: &str) -> impl Iterator<Item = &String> {
        self.named(self.ids.id(file).map(|id| &self.importers[id as usize]))
    }

    fn named<'a>(&'a self, list: Option<&'a Vec<u32>>) -> impl Iterator<Item = &'a String> {
        list.into_iter().flatten().map(|&id| self.ids.name(id))
    }

    /// The files one step from `at` the way `direction` says, each with it.
    fn step(&self, at: u32, direction: Direction) -> impl Iterator<Item = (u32, Direction)> + '_ {
        let list = match direction {
            Direction::Imports => &self.imports[at as usize],
            Direction::ImportedBy => &self.importers[at as usize],
        };
        list.iter().map(move |&next| (next, direction))
    }

    /// Files up to `depth` import steps away in either direction (1 to [`MAX_NEIGHBOR_DEPTH`]),
    /// nearest first, then by path.
    pub fn neighbors(&self, file: &str, depth: u32) -> Vec<Reached> {
        let depth = depth.clamp(1, MAX_NEIGHBOR_DEPTH);
        self.walk(&[file.to_string()], depth, &[Direction::Imports, Direction::ImportedBy])
    }

    /// Files that import one of `files`, then files importing those, `depth` levels deep.
    pub fn dependents(&self, files: &[String], depth: u32) -> Vec<Reached> {
        self.walk(files, depth, &[Direction::ImportedBy])
    }

    /// Breadth-first from `start`, each file once at its smallest depth.
    fn walk(&self, start: &[String], depth: u32, directions: &[Direction]) -> Vec<Reached> {
        let mut seen = vec![false; self.ids.len()];
        let mut frontier: Vec<u32> = start.iter().filter_map(|file| self.ids.id(file)).collect();
        for &at in &frontier {
            seen[at as usize] = true;
        }
        let mut out = Vec::new();
        for level in 1..=depth {
            // By number, which is path order.
            let mut found: BTreeMap<u32, Direction> = BTreeMap::new();
            for &at in &frontier {
                for (file, direction) in directions.iter().flat_map(|&direction| self.step(at, direction)) {
                    if !seen[file as usize] {
                        // Either way counts; `imports` wins a tie so the answer does not depend
                        // on visiting order.
                        let slot = found.entry(file).or_insert(direction);
                        *slot = (*slot).min(direction);
                    }
                }
            }
            for &file in found.keys() {
                seen[file as usize] = true;
            }
            frontier = found.keys().copied().collect();
            out.extend(found.into_iter().map(|(file, direction)| Reached {
                file: self.ids.name(file).clone(),
                depth: level,
                direction,
            }));
            if frontier.is_empty() {
                break;
            }
        }
        out
    }

    /// A shortest chain of imports connecting `from` and `to`, each step taken in either
    /// direction, going only through files `through` takes (a caller's Read rules); `None` when
    /// none is at most `max` steps long.
    pub fn path(&self, from: &str, to: &str, max: u32, through: &dyn Fn(&str) -> bool) -> Option<Vec<Step>> {
        if from == to {
            return Some(Vec::new());
        }
        let (from, to) = (self.ids.id(from)?, self.ids.id(to)?);
        let mut came_from: HashMap<u32, (u32, Direction)> = HashMap::new();
        let mut queue: VecDeque<(u32, u32)> = VecDeque::from([(from, 0)]);
        let mut seen = vec![false; self.ids.len()];
        seen[from as usize] = true;
        while let Some((at, length)) = queue.pop_front() {
            if at == to {
                let mut steps = Vec::new();
                let mut here = at;
                while let Some(&(prev, direction)) = came_from.get(&here) {
                    let (from, to) = (self.ids.name(prev).clone(), self.ids.name(here).clone());
                    steps.push(Step { from, to, direction });
                    here = prev;
                }
                steps.reverse();
                return Some(steps);
            }
            if length >= max.min(MAX_PATH_LENGTH) {
                continue;
            }
            let next = self.step(at, Direction::Imports).chain(self.step(at, Direction::ImportedBy));
            for (next, direction) in next {
                if !seen[next as usize] && through(self.ids.name(next)) {
                    seen[next as usize] = true;
                    came_from.insert(next, (at, direction));
                    queue.push_back((next, length + 1));
                }
            }
        }
        None
    }
}

impl Graph {
    /// The other files of `file`'s Go or Java package that its references resolve to (not by
    /// name alone among several definitions). Using another file's code means naming what it
    /// defines: a bare name (`NewMemory()`, `new Foo()`, a type) or, in Java, a class in front of
    /// a static member (`Foo.of()`); calls on values (`foo.compute()`) are not resolved here,
    /// where every file's would be on each question. Nor is a reference whose name no file of
    /// the package defines.
    pub(crate) fn same_package_uses(&self, file: &str, facts: &FileFacts) -> BTreeSet<String> {
        let mut found = BTreeSet::new();
        let java = match facts.language.as_str() {
            "go" => false,
            "java" => true,
            _ => return found,
        };
        let names_code = |r: &Ref| match r.receiver.as_deref() {
            None => true,
            Some(receiver) => {
                java && receiver.chars().next().is_some_and(char::is_uppercase)
                    && receiver.chars().all(|c| c.is_alphanumeric() || c == '_')
            }
        };
        let neighbour = |other: &str| other != file && self.same_package(file, facts, other);
        for (index, r) in facts.refs.iter().enumerate() {
            if !names_code(r) || !self.defs_named(&r.name).any(|id| neighbour(&id.file)) {
                continue;
            }
            let Some(resolution) = self.resolve(file, index as u32) else { continue };
            if resolution.by_name && resolution.label == Label::Ambiguous {
                continue;
            }
            found.extend(resolution.targets.iter().filter(|id| neighbour(&id.file)).map(|id| id.file.clone()));
        }
        found
    }

    /// The project files a Rust file names by a path its `use` statements need not bring:
    /// `mycrate::make()` in an integration test, `crate::util::helper()`, a type written
    /// `mycrate::Foo` (a QA pass's semver test naming `semver::Op` only so was no dependent of
    /// `src/lib.rs`, and not among its tests to run). A path starting with a type (`Foo::new()`)
    /// is left to the `use` that brings the type, as resolving every such call for every file
    /// would cost each question after a change.
    pub(crate) fn rust_path_uses(&self, file: &str, facts: &FileFacts) -> BTreeSet<String> {
        let mut found = BTreeSet::new();
        if facts.language != "rust" {
            return found;
        }
        // A method call's receiver is a value (`items.len()`), not a path.
        let module_path = |r: &Ref| {
            r.kind != RefKind::Method
                && r.receiver.as_deref().and_then(|receiver| receiver.split("::").next()).is_some_and(|first| {
                    first.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
                        && first.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                })
        };
        for (index, _) in facts.refs.iter().enumerate().filter(|(_, r)| module_path(r)) {
            let Some(resolution) = self.resolve(file, index as u32) else { continue };
            if resolution.by_name {
                continue;
            }
            found.extend(resolution.targets.iter().filter(|id| id.file != file).map(|id| id.file.clone()));
        }
        found
    }

    /// The files one import names: the module it binds when that is a project module, else the
    /// module its item comes from (a Java class: its own file, else its package).
    fn import_files(&self, file: &str, language: Language, import: &Import) -> BTreeSet<String> {
        let files = self.named_files(file, language, import);
        let crate_path = import.module == "crate" || import.module.starts_with("crate::");
        match language {
            // A Go package's `_test.go` files are no part of what importing it brings.
            Language::Go => files.into_iter().filter(|f| !f.ends_with("_test.go")).collect(),
            // `crate::` is the importing file's own crate, not a namesake module of another crate
            // of the workspace.
            Language::Rust if crate_path => match rust_src_root(file) {
                Some(root) => files.into_iter().filter(|f| f.starts_with(root)).collect(),
                None => files,
            },
            _ => files,
        }
    }

    fn named_files(&self, file: &str, language: Language, import: &Import) -> BTreeSet<String> {
        let bound =
            module_binding(language, import).map(|m| self.files_matching(&self.module_target(language, file, &m)));
        match bound.filter(|f| !f.is_empty()) {
            Some(files) => files,
            None if language == Language::Java && import.local != "*" => {
                let path = import.module.replace('.', "/");
                let name = import.name.as_deref().unwrap_or(&import.local);
                let own_file = self.files_matching(&Target::Suffix(vec![format!("{path}/{name}")]));
                if own_file.is_empty() {
                    // A nested class or a static member: the file of the enclosing class.
                    self.files_matching(&Target::Suffix(vec![path]))
                } else {
                    own_file
                }
            }
            None => self.files_matching(&self.module_target(language, file, &import.module)),
        }
    }
}

/// `graph/src/` for `graph/src/a/b.rs`, `src/` for `src/main.rs`; `None` outside a `src` directory.
fn rust_src_root(file: &str) -> Option<&str> {
    match file.find("/src/") {
        Some(i) => Some(&file[..i + 5]),
        None => file.starts_with("src/").then_some("src/"),
    }
}
