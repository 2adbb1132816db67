//! The per-project graph: every file's facts, indexes by name, and syntactic name resolution.
//!
//! A reference resolves, in this order, through what is written at the use: its receiver (`self`,
//! `this`, a Go receiver variable → the enclosing type; an imported module or package → that
//! module's files; a default import of a module exporting an object → what its property holds; a type name → that type's members), then the enclosing scopes of its file
//! (the caller's own type, then the file's top level, then Go's package or Java's package),
//! then the file's imports (following re-exports). Those are `exact`. A receiver whose type the
//! code writes (`x = Order()`, `x: Order`, `self.repo = repo` of a typed parameter, a function's
//! return type, `client.getCache()`; see [`crate::bindings`] and [`crate::types`]) resolves to
//! that type's member, `exact`, or to nothing when the type is not the project's (a literal,
//! `sep: str`, `sys.stdout`, `new Map()`); where a class of a language whose classes name all
//! their bases lacks the member, to its subclasses' members or to nothing. Without such
//! evidence, a name defined once in the project (leaving out files a build generated, see
//! [`crate::generated`]) is `likely`, several times `ambiguous` (all
//! listed, and marked [`Resolution::by_name`]: callers count such sites rather than list
//! them). A name imported from
//! outside the project, or defined nowhere in it, resolves to nothing; so does a Python bare name
//! its file neither defines nor imports (a built-in), and a Python, JavaScript or TypeScript
//! method called on a value of unknown type when the built-in types have a method of that name
//! (`x.pop()`, `p.then()`).
//!
//! A definition in a declaration file (a `.pyi` stub, a `.d.ts`) stands for the one it declares
//! wherever the project has that implementation (see [`crate::declarations`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, OnceLock};

use lean_ctx_outline::Language;
use serde::{Deserialize, Serialize};

use crate::bindings;
use crate::call_lines::LineCalls;
use crate::facts::{Def, FileFacts, Import, Ref, RefKind};
use crate::interrupt::{Interrupt, Interrupted};
use crate::js_modules::JsModules;
use crate::modules;
use crate::names::{Named, Written};
use crate::rank::RankEdges;
use crate::related::FileGraph;
use crate::tests_link::TestLinks;
use crate::types::{Known, MAX_BASES, MAX_STEPS};

/// How a reference was resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Label {
    /// Through an import, a receiver or an enclosing scope.
    Exact,
    /// The only definition of the name in the project.
    Likely,
    /// One of several definitions of the name; the candidates are listed.
    Ambiguous,
}

impl Label {
    pub fn name(self) -> &'static str {
        match self {
            Label::Exact => "exact",
            Label::Likely => "likely",
            Label::Ambiguous => "ambiguous",
        }
    }
}

/// A definition: a file (root-relative, `/`) and its index in that file's definitions.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DefId {
    pub file: String,
    pub index: u32,
}

/// What a reference points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    pub label: Label,
    /// One for `likely`; every candidate for `ambiguous`; for `exact`, the definitions of the
    /// one scope that decided (several only for overloads). In `DefId` order; shared, since a
    /// name's by-name candidates are one list for all its references.
    pub targets: Arc<[DefId]>,
    /// The name alone decided: no import, scope or receiver type said which definition, so the
    /// targets are every one of that name (a method called on a value of unknown type).
    pub by_name: bool,
}

impl Resolution {
    fn new(label: Label, targets: impl Into<Arc<[DefId]>>, by_name: bool) -> Resolution {
        let targets = targets.into();
        debug_assert!(targets.is_sorted(), "targets out of order: {targets:?}");
        Resolution { label, targets, by_name }
    }

    /// Whether `id` is among the targets.
    pub fn reaches(&self, id: &DefId) -> bool {
        self.targets.binary_search(id).is_ok()
    }
}

/// A stored file: its facts and the stamp they were read at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    pub stamp: Stamp,
    pub facts: FileFacts,
}

/// Size and modification time of a file when it was parsed: unchanged means not parsed again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Stamp {
    pub size: u64,
    pub mtime_ns: u64,
}

/// How many re-exports an import is followed through.
const MAX_REEXPORT_HOPS: usize = 4;

#[derive(Debug, Default)]
pub struct Graph {
    files: BTreeMap<String, FileEntry>,
    /// Definition name → where it is defined.
    defs_by_name: HashMap<String, Named>,
    /// Name written → the references using it.
    refs_by_name: HashMap<String, BTreeSet<(String, u32)>>,
    /// Each file's lines holding calls (see [`crate::call_lines`]).
    call_lines: HashMap<String, HashMap<u32, LineCalls>>,
    /// The files by the path components module paths are matched on.
    modules: modules::FileIndex,
    /// The bare specifiers the project's JavaScript/TypeScript configs map into it.
    js_modules: JsModules,
    /// What is worked out from every file on first need; every change drops it.
    derived: Derived,
}

/// Answers about the whole graph that only a change to it changes, kept until then: each costs
/// seconds on a project of thousands of files and is asked per question.
#[derive(Debug, Default)]
struct Derived {
    /// The reference edges ranking walks.
    rank_edges: OnceLock<RankEdges>,
    /// The other files of its Go or Java package each file uses, and the files a Rust file names
    /// by a module path (see [`Graph::same_package_uses`], [`Graph::rust_path_uses`]), for the
    /// file graph of every impact and related question.
    package_uses: OnceLock<BTreeMap<String, BTreeSet<String>>>,
    /// What each Go file's imports name, for [`Graph::go_visible`] at each of its references.
    go_imports: OnceLock<HashMap<String, Vec<modules::Target>>>,
    /// The directories holding each Java package's files, by their `package` declarations (see
    /// [`Graph::module_target`]).
    java_packages: OnceLock<HashMap<String, BTreeSet<String>>>,
    /// The file graph of every impact and related question (see [`Graph::file_graph`]).
    file_graph: OnceLock<FileGraph>,
    /// The test links of every impact and related question (see [`Graph::test_links`]).
    test_links: OnceLock<TestLinks>,
}

impl Graph {
    pub fn new() -> Graph {
        Graph::default()
    }

    pub fn files(&self) -> &BTreeMap<String, FileEntry> {
        &self.files
    }

    pub fn file(&self, path: &str) -> Option<&FileEntry> {
        self.files.get(path)
    }

    pub fn def(&self, id: &DefId) -> Option<&Def> {
        self.files.get(&id.file)?.facts.defs.get(id.index as usize)
    }

    pub fn reference(&self, file: &str, index: u32) -> Option<&Ref> {
        self.files.get(file)?.facts.refs.get(index as usize)
    }

    /// The calls written on `line` of `file`; `None` for a line holding none.
    pub(crate) fn calls_on_line(&self, file: &str, line: u32) -> Option<&LineCalls> {
        self.call_lines.get(file)?.get(&line)
    }

    /// Definitions and references held, for Status.
    pub fn counts(&self) -> (usize, usize) {
        let defs = self.files.values().map(|f| f.facts.defs.len()).sum();
        let refs = self.files.values().map(|f| f.facts.refs.len()).sum();
        (defs, refs)
    }

    /// Whether `file` was written by a build (see [`crate::generated`]).
    pub fn is_generated(&self, file: &str) -> bool {
        self.files.get(file).is_some_and(|entry| crate::generated::is_generated(file, &entry.facts))
    }

    /// Every name defined in the project.
    pub fn defined_names(&self) -> impl Iterator<Item = &str> {
        self.defs_by_name.keys().map(String::as_str)
    }

    /// Definitions of `name`, in path order.
    pub fn defs_named(&self, name: &str) -> impl Iterator<Item = &DefId> {
        self.defs_by_name.get(name).into_iter().flat_map(|named| &named.ids)
    }

    /// How many definitions `name` has.
    pub(crate) fn def_count(&self, name: &str) -> usize {
        self.defs_by_name.get(name).map_or(0, |named| named.ids.len())
    }

    /// References written with `name` (see [`Graph::aliases`] for the other names of a definition).
    pub fn refs_named(&self, name: &str) -> impl Iterator<Item = &(String, u32)> {
        self.refs_by_name.get(name).into_iter().flatten()
    }

    /// The reference edges ranking walks: resolved on first need after a change, then shared.
    /// An interrupted resolution keeps nothing; two rankings that begin together both resolve,
    /// and the second's edges (the same) are dropped.
    pub(crate) fn rank_edges(&self, interrupt: Interrupt<'_>) -> Result<&RankEdges, Interrupted> {
        if let Some(edges) = self.derived.rank_edges.get() {
            return Ok(edges);
        }
        let edges = self.reference_edges(interrupt)?;
        Ok(self.derived.rank_edges.get_or_init(|| edges))
    }

    /// Every Go or Java file's uses of the other files of its package, and every Rust file's of
    /// the modules it names by path: resolved on first need after a change, then shared. An interrupted resolution keeps nothing.
    pub(crate) fn package_uses(
        &self,
        interrupt: Interrupt<'_>,
    ) -> Result<&BTreeMap<String, BTreeSet<String>>, Interrupted> {
        if let Some(uses) = self.derived.package_uses.get() {
            return Ok(uses);
        }
        let mut uses = BTreeMap::new();
        for (file, entry) in &self.files {
            interrupt.check()?;
            let mut used = self.same_package_uses(file, &entry.facts);
            used.extend(self.rust_path_uses(file, &entry.facts));
            if !used.is_empty() {
                uses.insert(file.clone(), used);
            }
        }
        Ok(self.derived.package_uses.get_or_init(|| uses))
    }

    /// Every file's imports resolved to project files: worked out on first need after a change,
    /// then shared by every question.
    pub fn file_graph(&self) -> &FileGraph {
        self.file_graph_within(Interrupt::NEVER).expect("a question nobody can leave is not interrupted")
    }

    /// [`Graph::file_graph`] for a question whose caller may leave while it is worked out (every
    /// Go and Java file's references to its package are resolved): an interrupted one keeps
    /// nothing.
    pub fn file_graph_within(&self, interrupt: Interrupt<'_>) -> Result<&FileGraph, Interrupted> {
        if let Some(files) = self.derived.file_graph.get() {
            return Ok(files);
        }
        let files = self.build_file_graph(interrupt)?;
        Ok(self.derived.file_graph.get_or_init(|| files))
    }

    /// The test links of every test file of the project, made from [`Graph::file_graph`] on first
    /// need after a change, then shared by every question.
    pub fn test_links(&self) -> &TestLinks {
        self.derived.test_links.get_or_init(|| self.build_test_links(self.file_graph()))
    }

    /// The project's JavaScript/TypeScript module mappings, as last set.
    pub fn js_modules(&self) -> &JsModules {
        &self.js_modules
    }

    /// Replaces the module mappings (read from the project's configs when they change).
    pub fn set_js_modules(&mut self, js_modules: JsModules) {
        self.js_modules = js_modules;
        self.derived = Derived::default();
    }

    /// The files `module`, imported by `file`, may be: for a bare JavaScript/TypeScript specifier
    /// the project maps (tsconfig `paths`, its own package names), a Rust path in one of the
    /// project's crates (`Cargo.toml`) or a Go import path in one of its modules (`go.mod`), those
    /// files; otherwise as
    /// [`modules::target`] says.
    pub(crate) fn module_target(&self, language: Language, file: &str, module: &str) -> modules::Target {
        let javascript = matches!(language, Language::JavaScript | Language::TypeScript | Language::Tsx);
        if javascript
            && !module.starts_with('.')
            && let Some(stems) = self.js_modules.stems(file, module)
        {
            return modules::Target::Exact(stems);
        }
        // `github.com/spf13/afero/mem`, or the module's root package, from its `go.mod`.
        if language == Language::Go
            && let Some(dir) = self.js_modules.go_package_dir(module)
        {
            return modules::Target::PackageDir(dir);
        }
        // `java.util.concurrent`: the directories whose files declare that package, wherever the
        // project's root is (one checked out at `java/util/concurrent` itself has it at `""`,
        // which the package's path does not end).
        if language == Language::Java
            && let Some(dirs) = self.java_packages().get(module)
        {
            let declared = dirs.iter().map(|dir| modules::Target::PackageDir(dir.clone()));
            let written = modules::target(language, file, module, modules::RustPlace::default());
            return modules::Target::Any(std::iter::once(written).chain(declared).collect());
        }
        if language != Language::Rust {
            let target = modules::target(language, file, module, modules::RustPlace::default());
            // Which files are under an import root is the project's to say: the files, by stem,
            // so that every use of the target (a file's own test too) agrees with the index.
            if let modules::Target::Rooted(_) = target {
                let stems = self.modules.matching(&target).into_iter().map(|f| modules::module_stem(f).to_string());
                return modules::Target::Exact(stems.collect());
            }
            return target;
        }
        let own = modules::target(language, file, module, self.js_modules.rust_place(file));
        // `mycrate::util` from the crate's integration tests, examples or another crate.
        match self.js_modules.crate_stems(module) {
            Some(stems) => modules::Target::Any(vec![modules::Target::Exact(stems), own]),
            None => own,
        }
    }

    /// Adds or replaces one file's facts.
    pub fn upsert(&mut self, path: &str, entry: FileEntry) {
        self.remove(path);
        self.derived = Derived::default();
        for (index, def) in entry.facts.defs.iter().enumerate() {
            let id = DefId { file: path.to_string(), index: index as u32 };
            self.defs_by_name.entry(def.name.clone()).or_default().insert(id);
        }
        for (index, r) in entry.facts.refs.iter().enumerate() {
            self.refs_by_name.entry(r.name.clone()).or_default().insert((path.to_string(), index as u32));
        }
        self.call_lines.insert(path.to_string(), crate::call_lines::of(&entry.facts.refs));
        self.modules.insert(path);
        self.files.insert(path.to_string(), entry);
    }

    /// Drops one file; false when it was not there.
    pub fn remove(&mut self, path: &str) -> bool {
        let Some(old) = self.files.remove(path) else { return false };
        self.derived = Derived::default();
        self.call_lines.remove(path);
        self.modules.remove(path);
        for (index, def) in old.facts.defs.iter().enumerate() {
            let id = DefId { file: path.to_string(), index: index as u32 };
            if let Some(named) = self.defs_by_name.get_mut(&def.name) {
                named.remove(&id);
                if named.ids.is_empty() {
                    self.defs_by_name.remove(&def.name);
                }
            }
        }
        for (index, r) in old.facts.refs.iter().enumerate() {
            if let Some(set) = self.refs_by_name.get_mut(&r.name) {
                set.remove(&(path.to_string(), index as u32));
                if set.is_empty() {
                    self.refs_by_name.remove(&r.name);
                }
            }
        }
        true
    }

    /// What reference `index` of `file` points at; `None` for a name the project does not define
    /// (a standard library call) or imports from outside.
    pub fn resolve(&self, file: &str, index: u32) -> Option<Resolution> {
        let facts = &self.files.get(file)?.facts;
        let r = facts.refs.get(index as usize)?;
        let language = language_of(facts)?;
        let caller = r.caller.and_then(|i| facts.defs.get(i as usize));
        let fits = |def: &Def| fits(r.kind, def);
        if let Some(receiver) = r.receiver.as_deref() {
            return self.through_receiver(file, facts, language, r, receiver, caller);
        }
        // A function nested in a function body holding the call shadows any other of its name.
        if let Some(found) = self.exact(crate::nested::in_scope(file, facts, &r.name, r.line, r.kind)) {
            return Some(found);
        }
        // The caller's own type and its bases, then the types it is nested in (Java calls their
        // methods without `this`, an inner class its outer class's).
        if language == Language::Java
            && let Some((_, found)) = self.enclosing_members(file, facts, r, &r.name, &fits)
        {
            return self.exact(Some(found));
        }
        // The file's own top level.
        let local = self.in_file(file, |d| d.name == r.name && fits(d) && d.container.is_none() && d.scope.is_none());
        if let Some(found) = self.exact(local) {
            return Some(found);
        }
        if let Some(import) = facts.imports_at(&r.name, r.line).first() {
            // An import from outside the project resolves to nothing, whatever the project defines.
            return self.exact(self.import_binds(file, language, import, &|d| fits(d), 0));
        }
        // The package: Go's directory, Java's package.
        let same_package = self
            .top_level_named(&r.name, |id, d| fits(d) && id.file != file && self.same_package(file, facts, &id.file));
        if let Some(found) = self.exact(same_package) {
            return Some(found);
        }
        for wildcard in facts.imports.iter().filter(|i| i.local == "*") {
            let target = self.module_target(language, file, &wildcard.module);
            let found = self.top_level_named(&r.name, |id, d| fits(d) && target.matches(&id.file));
            if let Some(found) = self.exact(found) {
                return Some(found);
            }
        }
        // A Python name is local, global in its module, imported or built in: one that none of
        // these scopes defines is a built-in (`print`, `len`), whatever other modules define.
        if language == Language::Python {
            return None;
        }
        self.by_name(&r.name, Written::Bare, r.kind)
    }

    /// `self.f()`, `s.f()` in a Go method of `s`, `Type::f()`, `pkg.F()`, `module.f()`, `obj.f()`.
    fn through_receiver(
        &self,
        file: &str,
        facts: &FileFacts,
        language: Language,
        r: &Ref,
        receiver: &str,
        caller: Option<&Def>,
    ) -> Option<Resolution> {
        let receiver = crate::commonjs::module_object(language, facts, receiver);
        // `exports.f()`: the module's own `f`, which `exports.f = function` defines.
        if crate::commonjs::is_own_exports(language, receiver) && r.kind != RefKind::Read {
            return self.exact(self.module_level_named(file, language, &r.name, &|d| fits(r.kind, d)));
        }
        // Most reads are of fields: a name no method or property has reaches nothing, and is not
        // typed at all (the repo map resolves every reference).
        if r.kind == RefKind::Read
            && !self.defs_named(&r.name).any(|id| self.def(id).is_some_and(|d| fits_member(r.kind, d)))
        {
            return None;
        }
        // `<A as Array>::size()` calls the trait's `size`, as `Array::size()` does.
        let as_trait = match language {
            Language::Rust => bindings::qualified_trait(receiver),
            _ => None,
        };
        let receiver = as_trait.unwrap_or(receiver);
        let is_self = matches!(receiver, "self" | "this" | "cls" | "Self")
            || caller.is_some_and(|c| c.receiver_var.as_deref() == Some(receiver));
        let member_of = |container: &str, d: &Def| {
            d.name == r.name && d.container.as_deref() == Some(container) && fits_member(r.kind, d)
        };
        if is_self && let Some(container) = crate::nested::self_type(language, facts, caller) {
            if let Some(found) = self.exact(self.in_file(file, |d| member_of(container, d))) {
                return Some(found);
            }
            // A Rust type's methods may sit in impls of other files; a Go type's in its package.
            let elsewhere =
                self.members_named(&r.name, container, |id, d| member_of(container, d) && self.near(file, &id.file));
            if let Some(found) = self.exact(elsewhere) {
                return Some(found);
            }
        }
        // `super().f()`, `super.f()`, `super(Type, self).f()`: the method the caller's type inherits.
        if (matches!(receiver, "super()" | "super") || receiver.starts_with("super("))
            && let Some(container) = crate::nested::self_type(language, facts, caller)
        {
            return self.exact(self.inherited(container, &r.name, &|d| fits_member(r.kind, d), MAX_BASES));
        }
        // An imported module or package: `pkg.F()`, `models.load()`, `np.array()`. A module has
        // no properties: a read of one of its names (`syscall.EINVAL`, `time.Second`) is no call.
        // A name the caller binds itself (a parameter `config`, `pkg = App()`) is not the module
        // imported under that name.
        // Asked only of a receiver an import names: most receivers are no module, and the
        // bindings are searched per reference.
        let head = receiver.split(['.', ':']).next().unwrap_or(receiver);
        // `const u = require('./util')` binds `u` and is the import of it, not another binding.
        let bound_here = std::cell::LazyCell::new(|| {
            let is_import =
                |b: &&bindings::Binding| facts.imports.iter().any(|i| i.local == b.name && i.line == b.line);
            crate::bindings::name_bindings(language, &facts.bindings, r, head)
                .is_some_and(|found| !found.iter().all(is_import))
        });
        let module = facts.imports_at(receiver, r.line).into_iter().filter(|_| !*bound_here);
        if let Some((import, target)) =
            module.filter_map(|i| Some((i, self.imported_module(file, language, i)?))).next()
        {
            if r.kind == RefKind::Read {
                return None;
            }
            let found = self.top_level_named(&r.name, |id, _| target.matches(&id.file));
            if found.is_some() {
                return self.exact(found);
            }
            // A package that re-exports the name: `pkg.make_response()` after `import pkg`, its
            // `__init__.py` importing `make_response` from `.helpers`. Called through a module,
            // it is a plain call, which constructs a class (`httpx.DigestAuth(...)`).
            let module = module_binding(language, import)?;
            let kind = if r.kind == RefKind::Method { RefKind::Call } else { r.kind };
            return self.through_import(file, language, &module, &r.name, &|d| fits(kind, d), 0);
        }
        // A member of the object a module exports as its default: `utils.isFormData()` after
        // `import utils from './utils.js'`, utils.js ending `export default { isFormData, … }`.
        if r.kind != RefKind::Read
            && let Some(import) =
                facts.imports_at(receiver, r.line).into_iter().find(|i| i.name.as_deref() == Some("default"))
            && !*bound_here
            && let Some(found) = self.default_member(file, language, import, &r.name, &|d| fits(RefKind::Call, d))
        {
            return self.exact(Some(found));
        }
        // A submodule reached through an imported package: `pkg.helpers.f()` after `import pkg`
        // is `f` of pkg/helpers.py, whatever methods of that name the project has.
        if language == Language::Python
            && r.kind != RefKind::Read
            && let Some((first, rest)) = receiver.split_once('.')
            && let Some(package) = facts.imports.iter().find(|i| i.local == first && i.name.is_none())
            && !*bound_here
        {
            let target = self.module_target(language, file, &format!("{}.{rest}", package.module));
            if !self.modules.matching(&target).is_empty() {
                let found = self.top_level_named(&r.name, |id, _| target.matches(&id.file));
                return self.exact(found);
            }
        }
        // A module path: `crate::config::load()`, `config::load()`, `super::util::f()` (from a
        // `mod tests { … }`, the file's own `f` by `super::f()`).
        if language == Language::Rust
            && r.kind != RefKind::Read
            && (receiver.contains("::") || receiver.chars().next().is_some_and(char::is_lowercase))
        {
            let path = modules::out_of_inline(receiver, facts.inline_depth(r.line));
            let target = self.module_target(language, file, &path);
            let found = self.top_level_named(&r.name, |id, _| target.matches(&id.file));
            if found.is_some() {
                return self.exact(found);
            }
        }
        // A type, maybe imported under another name: `Config::new()`, `Order.of()`, `Db::open()`.
        // Go has no static methods: a dotted receiver (`f.Value`, `pkg.Default`) is a field or a
        // package's variable, whose type is worked out below.
        let written = receiver.rsplit(['.', ':']).next().unwrap_or(receiver);
        let names_a_type = written.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !(language == Language::Go && receiver.contains('.'));
        if names_a_type && written.chars().next().is_some_and(char::is_uppercase) {
            let alias = facts.import_seen(written, Some(r.line));
            // Imported under a name a re-export gave it (`use kv::Db`, kv's `pub use
            // store::Store as Db`): the type it is defined as.
            let defined = alias.and_then(|i| self.import_binds(file, language, i, &Def::is_type, 0));
            let defined = defined.and_then(|ids| Some(self.def(ids.first()?)?.name.as_str()));
            let type_name = defined.or(alias.and_then(|i| i.name.as_deref())).unwrap_or(written);
            // A type the project does not define (`HashMap::new()`, `Math.max()`) is no evidence
            // for a member of the same name elsewhere.
            let members = self.members_named(&r.name, type_name, |_, d| member_of(type_name, d));
            // `<[u8; 4] as Array>::size()` names a trait: the project's one trait of that name.
            let the_trait = |id: &DefId| self.def(id).is_some_and(|d| d.kind == "trait");
            let known = alias.is_some()
                || self.in_file(file, |d| d.name == type_name && d.is_type()).is_some()
                || (as_trait.is_some() && self.def_count(type_name) == 1 && self.defs_named(type_name).all(the_trait));
            match members {
                Some(members) => {
                    // Several in one file are one type's overloads (Java's `of(int)` and
                    // `of(long)`): one method, not candidates.
                    return Some(self.resolution(members, false, |members| {
                        match (known, members.iter().all(|m| m.file == members[0].file)) {
                            (true, true) => Label::Exact,
                            (false, true) => Label::Likely,
                            _ => Label::Ambiguous,
                        }
                    }));
                }
                // In Go a capital names anything exported, most often a package variable
                // (`CommandLine.Parse()`): its type is worked out below.
                None if language == Language::Go => {}
                // A Rust type parameter (`A::size()` with `A: Array`): the member of the trait
                // that bounds it, the project's; a library trait's (`T::default()`) is none.
                None if *bound_here => {
                    return match self.type_of(file, facts, r, receiver, MAX_STEPS) {
                        Some(Known::Project(bound)) => self.member_of_type(file, &bound, r, language).flatten(),
                        Some(Known::All(bounds)) => self.member_of_bounds(file, &bounds, r, language),
                        _ => None,
                    };
                }
                None => return None,
            }
        }
        // An object given a project module's members (`mixin(app, proto)`): that module's member,
        // whatever the object was made as (`var app = function (…) {…}`).
        if r.kind != RefKind::Read
            && let Some(found) = self.mixed_in(file, facts, language, r, receiver)
        {
            return Some(found);
        }
        // A receiver whose type the code writes (a binding, a return type, a literal): that type's
        // member, or nothing in the project when the type is not the project's (`[].pop()`,
        // `sep: str`, `sys.stdout.write()`).
        match self.type_of(file, facts, r, receiver, MAX_STEPS) {
            Some(Known::Foreign) => return None,
            Some(Known::Project(type_name)) => {
                if let Some(decided) = self.member_of_type(file, &type_name, r, language) {
                    return decided;
                }
            }
            // One of several types (`node: Union[Call, Filter]`): the member each has.
            Some(Known::Union(types)) => {
                let each: Option<Vec<Option<Resolution>>> =
                    types.iter().map(|t| self.member_of_type(file, t, r, language)).collect();
                if let Some(each) = each {
                    let mut targets: Vec<DefId> =
                        each.into_iter().flatten().flat_map(|found| found.targets.to_vec()).collect();
                    targets.sort();
                    targets.dedup();
                    let label = |targets: &[DefId]| if targets.len() == 1 { Label::Exact } else { Label::Ambiguous };
                    return (!targets.is_empty()).then(|| self.resolution(targets, false, label));
                }
            }
            Some(Known::All(bounds)) => {
                if let Some(found) = self.member_of_bounds(file, &bounds, r, language) {
                    return Some(found);
                }
            }
            None => {}
        }
        // A value of unknown type: any member of that name, unless built-in types have the name too.
        // An attribute read is claimed only through a known type: most reads are plain fields.
        // Nor is a call (`pos.node()`) claimed for a property (`get node()`): a property is read,
        // and the method called is most likely a library's of the same name; nor for a member
        // typed as a function (see `Def::typed_member`).
        if r.kind == RefKind::Read || bindings::builtin_method(language, &r.name) {
            return None;
        }
        self.by_name(&r.name, Written::OnReceiver, r.kind)
    }

    /// Member `r` called on `receiver` where the caller gives it the members of modules it
    /// imports (see [`crate::js_mixins`]): theirs of that name, `likely`.
    fn mixed_in(
        &self,
        file: &str,
        facts: &FileFacts,
        language: Language,
        r: &Ref,
        receiver: &str,
    ) -> Option<Resolution> {
        let mixins = facts.mixins.iter().filter(|m| m.target == receiver && m.caller == r.caller);
        let imports =
            mixins.flat_map(|m| &m.sources).filter_map(|source| facts.imports.iter().find(|i| i.local == *source));
        let mut targets: Vec<DefId> = imports
            .filter_map(|import| self.imported_module(file, language, import))
            .flat_map(|module| self.modules.matching(&module).into_iter().map(str::to_string).collect::<Vec<_>>())
            .filter_map(|module_file| self.in_file(&module_file, |d| d.name == r.name && fits_member(r.kind, d)))
            .flatten()
            .collect();
        targets.sort();
        targets.dedup();
        (!targets.is_empty()).then(|| self.resolution(targets, false, |_| Label::Likely))
    }

    /// Member `r` of a value of every one of `bounds` (a Rust type parameter's traits): of those
    /// that have one, `ambiguous` when several do (Rust has the call say which).
    fn member_of_bounds(&self, file: &str, bounds: &[String], r: &Ref, language: Language) -> Option<Resolution> {
        let found = bounds.iter().filter_map(|bound| self.member_of_type(file, bound, r, language).flatten());
        let mut targets: Vec<DefId> = found.flat_map(|found| found.targets.to_vec()).collect();
        targets.sort();
        targets.dedup();
        let label = |targets: &[DefId]| if targets.len() == 1 { Label::Exact } else { Label::Ambiguous };
        (!targets.is_empty()).then(|| self.resolution(targets, false, label))
    }

    /// Member `r` of values of project type `type_name`: its own or inherited, `exact` (several
    /// files' for Rust impls and Go packages, `ambiguous`); `Some(None)` when the type decides
    /// that no project method is called; `None` when it cannot say.
    fn member_of_type(&self, file: &str, type_name: &str, r: &Ref, language: Language) -> Option<Option<Resolution>> {
        let member_of =
            |d: &Def| d.name == r.name && d.container.as_deref() == Some(type_name) && fits_member(r.kind, d);
        // Same-named types of another language (a Python and a JavaScript `Tracer`) are no
        // candidates: a call never crosses into another language's code.
        let family = self.file(file).map(|f| language_family(&f.facts.language).to_string());
        let same_family =
            |id: &DefId| family.as_deref() == self.file(&id.file).map(|f| language_family(&f.facts.language));
        let own = self.members_named(&r.name, type_name, |id, d| member_of(d) && same_family(id));
        let own = match own {
            Some(members) if language == Language::Go => Some(self.go_visible(file, members)),
            Some(members) if derives_in_head(language) => Some(self.of_the_type_named_here(file, language, members)),
            own => own,
        };
        if let Some(members) =
            own.or_else(|| self.inherited(type_name, &r.name, &|d| fits_member(r.kind, d), MAX_BASES))
        {
            let one_place = |members: &[DefId]| members.iter().all(|m| m.file == members[0].file);
            let label = |members: &[DefId]| if one_place(members) { Label::Exact } else { Label::Ambiguous };
            return Some(Some(self.resolution(members, false, label)));
        }
        // Neither the type's own member nor one it inherits from the project's classes. Where a
        // class names its bases in its head, that leaves the methods of the classes derived from
        // it (an abstract call, a mixin's host) — or none at all: the name is an attribute
        // holding a callable (`self.send = send`), or a library base class's method. (An
        // interface's or a type alias's members are not all definitions: `revoke_: () => void`.)
        let classes = self.all_named(type_name, |_, d| d.is_type());
        let only_classes =
            classes.is_some_and(|ids| ids.iter().all(|id| self.def(id).is_some_and(|d| d.kind == "class")));
        if !derives_in_head(language) || !only_classes {
            return None;
        }
        // An attribute the class does not have is a plain field, not a subclass's method.
        if r.kind == RefKind::Read {
            return Some(None);
        }
        let derived = self.derived_members(type_name, &r.name, &|d| fits_member(r.kind, d), MAX_BASES);
        let label = |derived: &[DefId]| if derived.len() == 1 { Label::Likely } else { Label::Ambiguous };
        Some((!derived.is_empty()).then(|| self.resolution(derived.into_iter().collect(), false, label)))
    }

    /// Of the members of same-named types of several files (`src/q.ts`'s `Query` and its compiled
    /// copy in `build/q.js`), those of the one `file` names: its own, else the one it imports
    /// (`import { Query } from './q'`). All of them when it names none: the type came through
    /// another file's annotation. Only where a type's members are in its file.
    fn of_the_type_named_here(&self, file: &str, language: Language, members: Vec<DefId>) -> Vec<DefId> {
        let Some(type_name) = members.first().and_then(|m| self.def(m)?.container.clone()) else { return members };
        if members.iter().all(|m| m.file == members[0].file) {
            return members;
        }
        let own = self.in_file(file, |d| d.name == type_name && d.is_type());
        let named = own.or_else(|| {
            let import = self.file(file)?.facts.imports.iter().find(|i| imported_name(i) == type_name)?;
            self.import_binds(file, language, import, &Def::is_type, 0)
        });
        let homes: BTreeSet<&str> = named.iter().flatten().map(|id| id.file.as_str()).collect();
        let here: Vec<DefId> = members.iter().filter(|m| homes.contains(m.file.as_str())).cloned().collect();
        if here.is_empty() { members } else { here }
    }

    /// Of the members of same-named Go types of several packages (afero's `Fs` interface,
    /// `zipfs.Fs`), those of the packages `file` can name a type of: its own and those it
    /// imports. A type is named in its own package or through an import, so one that neither
    /// holds is not the one a receiver of `file` was declared with. All of them when that leaves
    /// none.
    fn go_visible(&self, file: &str, members: Vec<DefId>) -> Vec<DefId> {
        use crate::method_sets::package_of;
        let packages: BTreeSet<&str> = members.iter().map(|m| package_of(&m.file)).collect();
        if packages.len() < 2 {
            return members;
        }
        let imported = self.go_imports().get(file).map_or(&[][..], Vec::as_slice);
        let visible = |member: &DefId| {
            package_of(&member.file) == package_of(file) || imported.iter().any(|t| t.matches(&member.file))
        };
        let kept: Vec<DefId> = members.iter().filter(|m| visible(m)).cloned().collect();
        if kept.is_empty() { members } else { kept }
    }

    /// What each Go file's imports name: worked out once per file after a change, not at each
    /// reference resolved through a type.
    fn go_imports(&self) -> &HashMap<String, Vec<modules::Target>> {
        self.derived.go_imports.get_or_init(|| {
            let go = self.files.iter().filter(|(_, entry)| entry.facts.language == Language::Go.name());
            go.map(|(file, entry)| {
                let targets = entry.facts.imports.iter().map(|i| self.module_target(Language::Go, file, &i.module));
                (file.clone(), targets.collect())
            })
            .collect()
        })
    }

    /// The directories of each Java package, read from the files' `package` declarations once
    /// per change.
    fn java_packages(&self) -> &HashMap<String, BTreeSet<String>> {
        self.derived.java_packages.get_or_init(|| {
            let mut packages: HashMap<String, BTreeSet<String>> = HashMap::new();
            for (file, entry) in &self.files {
                if let Some(package) = entry.facts.package.as_deref() {
                    let dir = modules::parent(file);
                    packages.entry(package.to_string()).or_default().insert(dir.to_string());
                }
            }
            packages
        })
    }

    /// Resolves `name` in `module` (imported by `file`), following re-exports.
    pub(crate) fn through_import(
        &self,
        file: &str,
        language: Language,
        module: &str,
        name: &str,
        fits: &dyn Fn(&Def) -> bool,
        hops: usize,
    ) -> Option<Resolution> {
        self.exact(self.imported(file, language, module, name, fits, hops))
    }

    /// What `import` of `file` binds, followed through re-exports: the item of that name in its
    /// module; for a default import, the module's default export by the name it has there
    /// (`import other from`, `export default function realName`), else the item named as the
    /// import, else the anonymous default export (`export default (config) => …`, outlined as
    /// `default`).
    pub(crate) fn import_binds(
        &self,
        file: &str,
        language: Language,
        import: &Import,
        fits: &dyn Fn(&Def) -> bool,
        hops: usize,
    ) -> Option<Vec<DefId>> {
        let declared = match import.name.as_deref() {
            Some("default") => self.default_export(file, language, &import.module, fits),
            _ => None,
        };
        let named =
            declared.or_else(|| self.imported(file, language, &import.module, imported_name(import), fits, hops));
        match import.name.as_deref() {
            Some("default") if named.is_none() => self.imported(file, language, &import.module, "default", fits, hops),
            _ => named,
        }
    }

    /// What `module` (imported by `file`) exports as its default under a name of its own
    /// (`export default function realName`): that definition, whatever the importer calls it.
    fn default_export(
        &self,
        file: &str,
        language: Language,
        module: &str,
        fits: &dyn Fn(&Def) -> bool,
    ) -> Option<Vec<DefId>> {
        let target = self.module_target(language, file, module);
        self.modules.matching(&target).into_iter().find_map(|module_file| {
            let exported = self.files.get(module_file)?.facts.default_export.as_deref()?;
            self.module_level_named(module_file, language, exported, fits)
        })
    }

    /// What property `name` of the object `import`'s module exports as its default holds: the
    /// module's own definition or one it imports. `None` when no module of the project exports
    /// such an object with that property.
    fn default_member(
        &self,
        file: &str,
        language: Language,
        import: &Import,
        name: &str,
        fits: &dyn Fn(&Def) -> bool,
    ) -> Option<Vec<DefId>> {
        let target = self.module_target(language, file, &import.module);
        self.modules.matching(&target).into_iter().find_map(|module_file| {
            let facts = &self.files.get(module_file)?.facts;
            let (_, local) = facts.default_members.iter().find(|(property, _)| property == name)?;
            self.module_level_named(module_file, language, local, fits)
        })
    }

    /// The top-level definitions `name` names in `module`: its own, or what it imports under
    /// that name (an `__init__.py` re-exporting its submodules' functions).
    pub(crate) fn module_level_named(
        &self,
        module: &str,
        language: Language,
        name: &str,
        fits: &dyn Fn(&Def) -> bool,
    ) -> Option<Vec<DefId>> {
        self.in_file(module, |d| d.name == name && d.container.is_none() && d.scope.is_none() && fits(d))
            .or_else(|| self.reexported(module, language, name, fits, 0))
    }

    /// The top-level definitions named `name` in `module` (imported by `file`), or those it
    /// re-exports under that name.
    pub(crate) fn imported(
        &self,
        file: &str,
        language: Language,
        module: &str,
        name: &str,
        fits: &dyn Fn(&Def) -> bool,
        hops: usize,
    ) -> Option<Vec<DefId>> {
        let target = self.module_target(language, file, module);
        let defined = self.top_level_named(name, |id, d| fits(d) && target.matches(&id.file));
        if defined.is_some() || hops >= MAX_REEXPORT_HOPS {
            return defined;
        }
        self.modules
            .matching(&target)
            .into_iter()
            .find_map(|module_file| self.reexported(module_file, language, name, fits, hops))
    }

    /// What `module_file` re-exports as `name` (`pub use`, `export { x } from`, an `__init__.py`
    /// importing it), `hops` re-exports away from the import asked about.
    pub(crate) fn reexported(
        &self,
        module_file: &str,
        language: Language,
        name: &str,
        fits: &dyn Fn(&Def) -> bool,
        hops: usize,
    ) -> Option<Vec<DefId>> {
        let facts = &self.files.get(module_file)?.facts;
        // A function's own `require` is not what the module exports.
        let exported = facts.imports.iter().filter(|i| i.scope.is_none());
        exported.filter(|i| i.local == name || i.local == "*").find_map(|next| match next.local.as_str() {
            "*" => self.imported(module_file, language, &next.module, name, fits, hops + 1),
            _ => self.import_binds(module_file, language, next, fits, hops + 1),
        })
    }

    /// The project files `target` matches.
    pub(crate) fn files_matching(&self, target: &modules::Target) -> BTreeSet<String> {
        self.modules.matching(target).into_iter().map(str::to_string).collect()
    }

    /// The files whose imports name `path`, a file the graph does not hold (deleted since): what
    /// imported it while it was there, read from the modules the imports write. An impact of a
    /// deletion has no other way to them (QA: `git rm` of an imported module had "dependents:
    /// none").
    pub fn importers_of_missing(&self, path: &str) -> BTreeSet<String> {
        let mut importers = BTreeSet::new();
        for (file, entry) in &self.files {
            let Some(language) = language_of(&entry.facts) else { continue };
            let names = |import: &Import| {
                let place = self.js_modules.rust_place(file);
                crate::modules::target(language, file, &import.module, place).matches(path)
            };
            if entry.facts.imports.iter().any(names) {
                importers.insert(file.clone());
            }
        }
        importers
    }

    /// An import from outside the project: its module names no project file.
    pub(crate) fn is_foreign_import(&self, file: &str, language: Language, import: &Import) -> bool {
        self.modules.matching(&self.module_target(language, file, &import.module)).is_empty()
    }

    /// The files of a module an import binds (`import a.b as m`, `from . import models`, `use
    /// crate::util::{self}`, `import * as ns`); `None` when it binds an item.
    pub(crate) fn imported_module(&self, file: &str, language: Language, import: &Import) -> Option<modules::Target> {
        let target = self.module_target(language, file, &module_binding(language, import)?);
        let names_files = import.name.is_none() || !self.modules.matching(&target).is_empty();
        names_files.then_some(target)
    }

    /// Every name `def` is known by: its own and the aliases imports and re-exports give it
    /// (`import { Store as Db }`, `pub use store::Store as Db`, `import other from` a module
    /// whose default export it is) or a default-exported object's property (`export default {
    /// typeOf: kindOf }`), transitively.
    pub fn aliases(&self, name: &str) -> BTreeSet<String> {
        let mut names = BTreeSet::from([name.to_string()]);
        loop {
            let before = names.len();
            // Modules exporting one of the names as their default: a default import of one of
            // them names it too (`import other from './lib.js'`).
            let exporting: Vec<&str> = self
                .files
                .iter()
                .filter(|(_, entry)| entry.facts.default_export.as_ref().is_some_and(|n| names.contains(n)))
                .map(|(path, _)| path.as_str())
                .collect();
            for (path, entry) in &self.files {
                for import in &entry.facts.imports {
                    if import.name.as_ref().is_some_and(|n| names.contains(n)) {
                        names.insert(import.local.clone());
                    }
                    if import.name.as_deref() == Some("default")
                        && !exporting.is_empty()
                        && let Some(language) = language_of(&entry.facts)
                    {
                        let target = self.module_target(language, path, &import.module);
                        if exporting.iter().any(|f| target.matches(f)) {
                            names.insert(import.local.clone());
                        }
                    }
                }
                for (property, local) in &entry.facts.default_members {
                    if names.contains(local) {
                        names.insert(property.clone());
                    }
                }
            }
            if names.len() == before || names.len() > 64 {
                return names;
            }
        }
    }

    /// Definitions of `file` that satisfy `keep`.
    pub(crate) fn in_file(&self, file: &str, keep: impl Fn(&Def) -> bool) -> Option<Vec<DefId>> {
        let facts = &self.files.get(file)?.facts;
        let found: Vec<DefId> = facts
            .defs
            .iter()
            .enumerate()
            .filter(|(_, d)| keep(d))
            .map(|(i, _)| DefId { file: file.to_string(), index: i as u32 })
            .collect();
        (!found.is_empty()).then_some(found)
    }

    /// Definitions named `name` anywhere that satisfy `keep`.
    pub(crate) fn all_named(&self, name: &str, keep: impl Fn(&DefId, &Def) -> bool) -> Option<Vec<DefId>> {
        let found: Vec<DefId> =
            self.defs_named(name).filter(|id| self.def(id).is_some_and(|d| keep(id, d))).cloned().collect();
        (!found.is_empty()).then_some(found)
    }

    /// Members of `container` named `name` that satisfy `keep`.
    pub(crate) fn members_named(
        &self,
        name: &str,
        container: &str,
        keep: impl Fn(&DefId, &Def) -> bool,
    ) -> Option<Vec<DefId>> {
        let named = self.defs_by_name.get(name)?;
        let members = named.members(container, |id| self.def(id));
        let found: Vec<DefId> =
            members.iter().filter(|id| self.def(id).is_some_and(|d| keep(id, d))).cloned().collect();
        (!found.is_empty()).then_some(found)
    }

    /// Definitions named `name` in no type that satisfy `keep`.
    pub(crate) fn top_level_named(&self, name: &str, keep: impl Fn(&DefId, &Def) -> bool) -> Option<Vec<DefId>> {
        let named = self.defs_by_name.get(name)?;
        let top_level = named.top_level(|id| self.def(id));
        let found: Vec<DefId> =
            top_level.iter().filter(|id| self.def(id).is_some_and(|d| keep(id, d))).cloned().collect();
        (!found.is_empty()).then_some(found)
    }

    /// A scope's definitions as one `exact` answer (several for overloads are listed, still exact:
    /// the scope decided).
    pub(crate) fn exact(&self, found: Option<Vec<DefId>>) -> Option<Resolution> {
        found.map(|targets| self.resolution(targets, false, |_| Label::Exact))
    }

    /// What a reference reaches: `targets`, a declaration taken for what it declares (see
    /// [`crate::declarations`]), labelled by `label` from what is left — a function and its stub
    /// are one definition, not two candidates.
    fn resolution(&self, targets: Vec<DefId>, by_name: bool, label: impl FnOnce(&[DefId]) -> Label) -> Resolution {
        let targets = self.settle(targets);
        Resolution::new(label(&targets), targets, by_name)
    }

    /// Without evidence: the name's one definition (`likely`) or all of them (`ambiguous`) that a
    /// reference of `kind` written as `written` reaches.
    fn by_name(&self, name: &str, written: Written, kind: RefKind) -> Option<Resolution> {
        let named = self.defs_by_name.get(name)?;
        let mut found = named.unqualified(written, kind, |id| self.def(id), |file| self.is_generated(file));
        // Settled only where a declaration file defines the name: the list is shared otherwise,
        // not copied at each of a common name's thousands of references.
        if named.declared(|id| self.def(id)) {
            found = self.settle(found.to_vec()).into();
        }
        let label = match found.len() {
            0 => return None,
            1 => Label::Likely,
            _ => Label::Ambiguous,
        };
        Some(Resolution::new(label, found, true))
    }

    /// Files of one package: Go's directory, Java's declared package.
    pub(crate) fn same_package(&self, file: &str, facts: &FileFacts, other: &str) -> bool {
        match facts.language.as_str() {
            "go" => crate::method_sets::package_of(file) == crate::method_sets::package_of(other),
            "java" => {
                let theirs = self.files.get(other).and_then(|f| f.facts.package.as_deref());
                facts.package.is_some() && facts.package.as_deref() == theirs
            }
            _ => false,
        }
    }

    /// A file of the same crate or package as `file`, where a type's members may also live.
    /// The files of `file`'s Go package (its directory), `file` left out.
    pub(crate) fn package_files<'a>(&'a self, file: &'a str) -> impl Iterator<Item = (&'a str, &'a FileEntry)> + 'a {
        let dir = file.rfind('/').map_or("", |i| &file[..=i]);
        self.files
            .range::<str, _>((std::ops::Bound::Included(dir), std::ops::Bound::Unbounded))
            .take_while(move |(path, _)| path.starts_with(dir))
            .filter(move |(path, _)| path.as_str() != file && !path[dir.len()..].contains('/'))
            .map(|(path, entry)| (path.as_str(), entry))
    }

    fn near(&self, file: &str, other: &str) -> bool {
        let language = |p: &str| self.files.get(p).map(|f| f.facts.language.clone());
        language(file) == language(other)
    }
}

/// Whether a reference of `kind` can point at `def`.
/// Languages whose classes name every base they inherit members from in their head (`class
/// A(B)`, `extends B`), so a type's members are known from its classes alone. Not Go (embedded
/// fields) nor Rust (trait methods).
fn derives_in_head(language: Language) -> bool {
    matches!(language, Language::Python | Language::JavaScript | Language::TypeScript | Language::Tsx | Language::Java)
}

/// A member reached through a value of a known type: what [`fits`] takes, and for a read a
/// method too — `self.on_end` handed on as a callback is that method, bound.
fn fits_member(kind: RefKind, def: &Def) -> bool {
    fits(kind, def) || (kind == RefKind::Read && matches!(def.kind.as_str(), "fn" | "method"))
}

pub(crate) fn fits(kind: RefKind, def: &Def) -> bool {
    match kind {
        RefKind::Call => def.is_callable() || is_ctor(def),
        RefKind::Method => def.is_callable(),
        // A JSX element names a function component.
        RefKind::New => def.is_type() || def.kind == "fn",
        RefKind::Type => def.is_type(),
        RefKind::Read => def.property,
    }
}

/// A class called like a function constructs it (Python, Rust tuple structs); a Python enum
/// called so looks its member up by value (`Status("paid")`). No other language calls an enum.
pub(crate) fn is_ctor(def: &Def) -> bool {
    matches!(def.kind.as_str(), "class" | "struct" | "enum")
}

/// The module path an import would bind if it names a module rather than an item: the module
/// itself, or (Python, Rust) the module joined with the imported name (`from . import models`,
/// `use crate::util::{self}`); `None` where an imported name is always an item.
pub(crate) fn module_binding(language: Language, import: &Import) -> Option<String> {
    let Some(name) = import.name.as_deref() else { return Some(import.module.clone()) };
    match language {
        Language::Python if import.module.ends_with('.') => Some(format!("{}{name}", import.module)),
        Language::Python => Some(format!("{}.{name}", import.module)),
        Language::Rust if import.module.is_empty() => Some(name.to_string()),
        Language::Rust => Some(format!("{}::{name}", import.module)),
        _ => None,
    }
}

/// Languages whose files use each other's definitions: JavaScript, TypeScript and TSX import and
/// test each other's files; any other language only its own.
pub(crate) fn language_family(language: &str) -> &str {
    match language {
        "javascript" | "typescript" | "tsx" => "js",
        other => other,
    }
}

/// The language of a file's facts.
pub(crate) fn language_of(facts: &FileFacts) -> Option<Language> {
    crate::facts::SUPPORTED.into_iter().find(|l| l.name() == facts.language)
}

/// The name an import brings from its module: the item's own name, or the local name for a
/// default import or a module.
pub(crate) fn imported_name(import: &Import) -> &str {
    match import.name.as_deref() {
        Some("default") | None => &import.local,
        Some(name) => name,
    }
}
