//! Call-graph questions over a [`Graph`]: which definitions a symbol names, who calls them, what
//! they call, and a call path from one to another. Answers are sorted, so they are deterministic.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::facts::{Def, Ref, RefKind};
use lean_ctx_common::spelling::{edit_budget, edit_distance};
use lean_ctx_outline::Language;

use crate::graph::{DefId, Graph, Label, Resolution, language_of};
use crate::interrupt::{Interrupt, Interrupted};
use crate::types::MAX_BASES;

/// Deepest level `callers`, `callees` and `trace` walk.
pub const MAX_DEPTH: u32 = 5;

/// A definition as an answer shows it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct DefSummary {
    pub file: String,
    pub line: u32,
    /// `Type::name` for a member, `name` otherwise.
    pub name: String,
    pub kind: String,
}

/// One call site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// 1 for direct callers or callees, 2 for theirs, …
    pub depth: u32,
    pub file: String,
    pub line: u32,
    /// 1-based, in characters: calls on one line are sites of their own. 0 where not known.
    pub column: u32,
    /// Another call is written on the same line, whether the answer lists it or not: `file:line`
    /// alone would not say which of them this site is (see [`Graph::other_call_on_line`]).
    pub shares_line: bool,
    /// The function the call is in; `None` at a file's top level.
    pub caller: Option<DefSummary>,
    /// The called definition (for an ambiguous call: the one this answer is about, or the first).
    pub callee: DefSummary,
    pub label: Label,
    /// Every candidate of an ambiguous call.
    pub candidates: Vec<DefSummary>,
}

/// A call site that reaches a target by its name alone, among several definitions of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guess {
    /// The site; its candidates are not listed (they are every definition of the name, thousands
    /// for a name generated code defines in every file).
    pub edge: Edge,
    /// How many definitions of the name it may reach.
    pub among: usize,
}

/// Edges found, and whether the limit cut them.
#[derive(Debug, Default)]
pub struct Walk {
    pub edges: Vec<Edge>,
    /// Callers only: call sites that reach a target by its name alone among several definitions
    /// of it (a method called on a value of unknown type). Kept apart from `edges`: most are
    /// calls of another method of that name, and an answer that lists them says so in a line.
    pub guessed: Vec<Guess>,
    pub truncated: bool,
    /// Calls (callees) to names the project does not define: library and built-in calls.
    pub external_calls: usize,
    /// Callers only: the methods a target overrides or implements and those overriding or
    /// implementing it, whose calls are listed too.
    pub overrides: BTreeSet<DefId>,
    /// The definitions whose calls the walk looked up, level by level (the targets first, then the
    /// callers or callees it went on from): what an answer's notes on unlisted calls are about.
    pub expanded: Vec<DefId>,
}

/// How many method names a note on the calls a callers answer could not list names.
const NOTE_NAMES: usize = 8;

/// What a symbol names.
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup {
    /// One definition (or one scope's overloads).
    Found(Vec<DefId>),
    /// Several definitions in different places: pass a file or `Type::name` to choose.
    Ambiguous(Vec<DefId>),
    /// No definition; the closest defined names.
    Unknown { closest: Vec<String> },
}

impl Graph {
    pub fn summary(&self, id: &DefId) -> Option<DefSummary> {
        let def = self.def(id)?;
        let name = match self.encloser(&id.file, def) {
            Some(encloser) => format!("{}::{}", encloser.name, def.name),
            None => qualified(def),
        };
        Some(DefSummary { file: id.file.clone(), line: def.line, name, kind: def.kind.clone() })
    }

    /// The function whose body declares `def`, when `def` is a function nested in one (see
    /// [`crate::nested`]): the innermost of its file's functions spanning that body's lines,
    /// narrowest first. Neither `def` itself nor a function declared in the same body (a
    /// sibling, which spans those lines when the body is one line) is its encloser.
    fn encloser(&self, file: &str, def: &Def) -> Option<&Def> {
        crate::nested::innermost(crate::nested::enclosers(&self.file(file)?.facts.defs, def))
    }

    /// The definitions `symbol` names: `name`, `Type::name` or `Type.name` (`outer::name` for a
    /// function nested in `outer`), optionally only those in `file`. A bare name in a file that
    /// defines it at its top level is that definition, not the functions nested in its functions
    /// under the same name.
    pub fn lookup(&self, symbol: &str, file: Option<&str>) -> Lookup {
        let symbol = symbol.trim();
        let (container, name) = match symbol.rsplit_once("::").or_else(|| symbol.rsplit_once('.')) {
            // `Layer.prototype.handle_request`: a method of `Layer` (see `crate::js_assigned`).
            Some((container, name)) => {
                let container = container.strip_suffix(".prototype").unwrap_or(container);
                (Some(container.rsplit(['.', ':']).next().unwrap_or(container)), name)
            }
            None => (None, symbol),
        };
        let found: Vec<DefId> = self
            .defs_named(name)
            .filter(|id| file.is_none_or(|f| id.file == f))
            .filter(|id| {
                self.def(id).is_some_and(|d| {
                    let owner = d.container.as_deref().or_else(|| Some(&self.encloser(&id.file, d)?.name));
                    (d.is_callable() || d.is_type()) && container.is_none_or(|c| owner == Some(c))
                })
            })
            .cloned()
            .collect();
        let nested_under_top_level = |id: &DefId| {
            let top_level = |other: &DefId| {
                other.file == id.file && self.def(other).is_some_and(|d| d.scope.is_none() && d.container.is_none())
            };
            container.is_none() && self.def(id).is_some_and(|d| d.scope.is_some()) && found.iter().any(top_level)
        };
        let found: Vec<DefId> = found.iter().filter(|id| !nested_under_top_level(id)).cloned().collect();
        // `Order::Order`, JavaScript's `Animal::constructor`: a constructor asked about by its
        // class's name is the class too, which `new Order()`, `super(…)` and `this(…)` resolve to
        // (see below).
        let mut found = found;
        if let Some(class) = container.filter(|c| *c == name || name == "constructor") {
            let classes: Vec<DefId> = self
                .defs_named(class)
                .filter(|id| found.iter().any(|f| f.file == id.file) && self.def(id).is_some_and(|d| d.is_type()))
                .cloned()
                .collect();
            found.extend(classes);
        }
        // Every alias of a JavaScript function assigned to several members (see `aliases_of`).
        let aliases: Vec<DefId> = found.iter().flat_map(|id| self.aliases_of(id)).collect();
        found.extend(aliases);
        found.sort();
        found.dedup();
        // A declaration asked about is the definition it declares (see `crate::declarations`).
        let found = self.settle(found);
        let one_scope = |ids: &[DefId]| {
            // Functions nested in different functions are different symbols.
            let scope = |id: &DefId| {
                let def = self.def(id);
                (id.file.clone(), def.and_then(|d| d.container.clone()), def.and_then(|d| d.scope))
            };
            ids.iter().all(|id| scope(id) == scope(&ids[0]))
        };
        // A class and its constructors are one symbol: `new Order()` resolves to the constructor.
        let is_class_ctor = |id: &DefId| {
            self.def(id).is_some_and(|d| {
                d.kind == "ctor"
                    && found.iter().any(|o| {
                        o.file == id.file
                            && self.def(o).is_some_and(|o| {
                                o.is_type() && (o.name == d.name || d.container.as_deref() == Some(&o.name))
                            })
                    })
            })
        };
        let (ctors, found): (Vec<DefId>, Vec<DefId>) = found.iter().cloned().partition(is_class_ctor);
        match found.len() {
            0 => Lookup::Unknown { closest: self.closest(name) },
            1 => Lookup::Found([found, ctors].concat()),
            _ if one_scope(&found) => Lookup::Found([found, ctors].concat()),
            _ => Lookup::Ambiguous(found),
        }
    }

    /// The definitions that are one symbol with `id`, besides itself, which a walk goes on from:
    /// a constructor's class, whose constructions (`new Circle(2)`) are its callers as `super(…)`
    /// is the base constructor's, and the aliases of a function assigned to several members.
    fn same_symbol(&self, id: &DefId) -> Vec<DefId> {
        let Some(def) = self.def(id) else { return Vec::new() };
        let classes = match (def.kind.as_str(), def.container.as_deref()) {
            ("ctor", Some(class)) => self
                .defs_named(class)
                .filter(|other| other.file == id.file && self.def(other).is_some_and(Def::is_type))
                .cloned()
                .collect(),
            _ => Vec::new(),
        };
        [classes, self.aliases_of(id)].concat()
    }

    /// `id` and the definitions that are one symbol with it (see [`Self::same_symbol`]): what a
    /// walk reaching `id` goes on from.
    fn with_same_symbol(&self, id: DefId) -> Vec<DefId> {
        let same = self.same_symbol(&id);
        [vec![id], same].concat()
    }

    /// The other definitions of a function assigned to several members at once (see
    /// [`Def::aliases`]).
    fn aliases_of(&self, id: &DefId) -> Vec<DefId> {
        let (Some(def), Some(entry)) = (self.def(id), self.file(&id.file)) else { return Vec::new() };
        let alias = |other: &Def| def.aliases.contains(&other.name) && other.start_line == def.start_line;
        (0..entry.facts.defs.len() as u32)
            .filter(|&index| index != id.index && alias(&entry.facts.defs[index as usize]))
            .map(|index| DefId { file: id.file.clone(), index })
            .collect()
    }

    /// Up to five defined names nearest to `name` (edit distance, then names containing it).
    pub fn closest(&self, name: &str) -> Vec<String> {
        let lower = name.to_lowercase();
        let budget = edit_budget(name.chars().count());
        let mut scored: Vec<(usize, &str)> = self
            .defined_names()
            .filter_map(|candidate| {
                let distance = edit_distance(&lower, &candidate.to_lowercase());
                let contains = lower.len() >= 3 && candidate.to_lowercase().contains(&lower);
                (distance <= budget || contains).then_some((distance, candidate))
            })
            .collect();
        scored.sort();
        scored.into_iter().take(5).map(|(_, n)| n.to_string()).collect()
    }

    /// What a callers answer whose walk looked up the calls of `expanded` (the targets, then the
    /// callers it went on from) leaves out by rule: calls on values of unknown type of a method
    /// whose name the language's built-in types also have (see [`crate::builtin_method`]), and
    /// reads of a property on values of unknown type (a read is claimed only through a known type:
    /// most reads are plain fields). Each such name is said once, whatever level it was met at.
    pub fn unclaimed_calls(&self, expanded: &[DefId]) -> Option<String> {
        let members: Vec<(&Def, &crate::FileEntry)> = expanded
            .iter()
            .filter_map(|id| Some((self.def(id)?, self.file(&id.file)?)))
            .filter(|(def, _)| def.container.is_some())
            .collect();
        let names = |rule: &dyn Fn(&Def, &crate::FileEntry) -> bool| {
            let mut names: Vec<&str> =
                members.iter().filter(|(def, entry)| rule(def, entry)).map(|(def, _)| def.name.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            names
        };
        let builtin = names(&|def, entry| {
            crate::graph::language_of(&entry.facts).is_some_and(|l| crate::builtin_method(l, &def.name))
        });
        let property = names(&|def, _| def.property);
        // A deep walk may go on from many such methods: the first few are named, the rest counted.
        let listed = |names: &[&str], form: &dyn Fn(&str) -> String| {
            let mut text = names.iter().take(NOTE_NAMES).map(|name| form(name)).collect::<Vec<_>>().join(", ");
            if names.len() > NOTE_NAMES {
                text.push_str(&format!(" and {} more", names.len() - NOTE_NAMES));
            }
            text
        };
        let notes: Vec<String> = [
            (!builtin.is_empty()).then(|| {
                let too = match builtin.len() {
                    1 => format!("a `{}` too", builtin[0]),
                    _ => "methods of these names too".to_owned(),
                };
                format!(
                    "calls of {} on values of unknown type are not listed: built-in types have {too}",
                    listed(&builtin, &|name| format!("`.{name}()`"))
                )
            }),
            (!property.is_empty()).then(|| {
                format!(
                    "reads of {} on values of unknown type are not listed: only reads through a known type are",
                    listed(&property, &|name| format!("`.{name}`"))
                )
            }),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!notes.is_empty()).then(|| notes.join("; "))
    }

    /// Call sites of `targets` and of the methods in an override relation with them, then of
    /// their callers, `depth` levels deep, at most `limit` edges. A call of an override runs in
    /// place of the method asked about, and a call of the method it overrides or implements,
    /// through the base type, may dispatch to it: both are listed, each with its own callee;
    /// [`Walk::overrides`] names those methods.
    pub fn callers(
        &self,
        targets: &[DefId],
        depth: u32,
        limit: usize,
        interrupt: Interrupt<'_>,
    ) -> Result<Walk, Interrupted> {
        let overrides = self.overrides(targets);
        let mut walk = self.levels(targets, depth, limit, interrupt, |target, level, walk| {
            let mut edges = Vec::new();
            let family = match level {
                1 => overrides.get(target).into_iter().flatten().collect(),
                _ => Vec::new(),
            };
            for callee in std::iter::once(target).chain(family) {
                for (file, r, resolution) in self.sites_of(callee).filter(|(_, r, _)| r.kind.is_call()) {
                    interrupt.check()?;
                    let caller = r.caller.map(|i| DefId { file: file.to_string(), index: i });
                    match resolution.by_name && resolution.label == Label::Ambiguous {
                        true => walk.guessed.push(Guess {
                            edge: self.site(level, file, (r.line, r.column), caller.as_ref(), callee, resolution.label),
                            among: resolution.targets.len(),
                        }),
                        false => {
                            let edge = self.edge(level, file, (r.line, r.column), caller.as_ref(), callee, &resolution);
                            edges.push((edge, caller));
                        }
                    }
                }
            }
            Ok(edges)
        })?;
        // A site guessed for a method and for its override is one site.
        let place = |e: &Edge| (e.file.clone(), e.line, e.column);
        walk.guessed.sort_by_key(|g| place(&g.edge));
        walk.guessed.dedup_by(|a, b| place(&a.edge) == place(&b.edge));
        walk.overrides = overrides.into_values().flatten().collect();
        Ok(walk)
    }

    /// For each method among `targets`, the methods of the same name it overrides or implements
    /// (up its type's bases) and those overriding or implementing it (in the types deriving from
    /// or implementing its type), transitively; in Go, the interfaces' methods it implements or
    /// the implementations of an interface's method (see [`crate::method_sets`]); in Rust, the
    /// trait method a trait impl's method implements (a generic or `dyn` caller reaches the impl
    /// only through it, so without it such callers were missing from the impl's answer).
    /// JavaScript, TypeScript, Java, Go and Rust only: their tools treat a method and its
    /// overrides as one family (TypeScript's server and gopls list the family's calls under each
    /// member), while Python's list a method's own calls, and an answer should mean what the
    /// language's own tools mean by callers.
    fn overrides(&self, targets: &[DefId]) -> BTreeMap<DefId, Vec<DefId>> {
        let mut found = BTreeMap::new();
        for id in targets {
            let Some(def) = self.def(id) else { continue };
            let Some(container) = def.container.as_deref() else { continue };
            let language = self.file(&id.file).and_then(|f| language_of(&f.facts));
            if !matches!(def.kind.as_str(), "fn" | "method") {
                continue;
            }
            let family = match language {
                Some(Language::JavaScript | Language::TypeScript | Language::Tsx | Language::Java) => {
                    self.class_family(def, container)
                }
                Some(Language::Go) => self.interface_family(id, def, container),
                Some(Language::Rust) => self.trait_methods(&id.file, def),
                _ => continue,
            };
            let family: Vec<DefId> = family.into_iter().filter(|other| !targets.contains(other)).collect();
            if !family.is_empty() {
                found.insert(id.clone(), family);
            }
        }
        found
    }

    /// The method a Rust trait impl's method (`def`, of `file`) implements: the trait's own of
    /// that name (its declaration, or its default body), which a call through `&dyn Trait` or a
    /// `T: Trait` resolves to. Not the other way: a call of `Circle::area` runs no other type's
    /// `area`.
    fn trait_methods(&self, file: &str, def: &Def) -> BTreeSet<DefId> {
        let Some(path) = def.implements.as_deref() else { return BTreeSet::new() };
        let traits = self.rust_traits(file, path);
        self.defs_named(&def.name)
            .filter(|id| {
                self.def(id).is_some_and(|d| {
                    d.implements.is_none()
                        && traits.iter().any(|t| {
                            t.file == id.file && self.def(t).is_some_and(|t| d.container.as_deref() == Some(&t.name))
                        })
                })
            })
            .cloned()
            .collect()
    }

    /// The project's traits a trait path written in `file` names, as rustc reads it: a name the
    /// file imports is the import's (none when a library's: `use std::fmt::Display`), else the
    /// file's own trait, else one a glob import of the project's brings; a path
    /// (`fmt::Display`, `crate::shapes::Shape`) starts from the module its first segment is,
    /// imported (`use std::fmt`) or not. A trait of the same last name elsewhere is no evidence.
    fn rust_traits(&self, file: &str, path: &str) -> Vec<DefId> {
        let Some(facts) = self.file(file).map(|f| &f.facts) else { return Vec::new() };
        let is_trait = |d: &Def| d.kind == "trait";
        let imported = |local: &str| facts.imports.iter().find(|i| i.local == local);
        let found = match path.rsplit_once("::") {
            None => match imported(path) {
                Some(import) => self.import_binds(file, Language::Rust, import, &is_trait, 0),
                None => self.in_file(file, |d| d.name == path && is_trait(d)).or_else(|| {
                    let globs = facts.imports.iter().filter(|i| i.local == "*");
                    globs
                        .into_iter()
                        .find_map(|glob| self.imported(file, Language::Rust, &glob.module, path, &is_trait, 0))
                }),
            },
            Some((module, name)) => {
                let (head, rest) = module.split_once("::").map_or((module, None), |(head, rest)| (head, Some(rest)));
                // `fmt::Display` after `use std::fmt;`: the path the import gives its first segment.
                let module = match imported(head) {
                    Some(import) => {
                        let bound = [import.module.as_str(), crate::graph::imported_name(import)].join("::");
                        rest.map_or(bound.clone(), |rest| format!("{bound}::{rest}"))
                    }
                    None => module.to_string(),
                };
                self.imported(file, Language::Rust, &module, name, &is_trait, 0)
            }
        };
        found.unwrap_or_default()
    }

    /// The methods named like `def` up the bases of `container` and in the classes deriving
    /// from it; none for a Java method that is private or static, nor among them.
    fn class_family(&self, def: &Def, container: &str) -> BTreeSet<DefId> {
        // Java's private and static methods are bound where they are called: no family.
        if def.non_virtual {
            return BTreeSet::new();
        }
        let same = |d: &Def| d.name == def.name && matches!(d.kind.as_str(), "fn" | "method") && !d.non_virtual;
        let mut family = self.derived_members(container, &def.name, &same, MAX_BASES);
        let mut owner = container.to_string();
        for _ in 0..MAX_BASES {
            let Some(up) = self.inherited(&owner, &def.name, &same, MAX_BASES) else { break };
            let Some(next) = up.first().and_then(|first| self.def(first)?.container.clone()) else { break };
            family.extend(up);
            owner = next;
        }
        // Same-named classes are one container here: their methods are the method itself.
        family.retain(|other| self.def(other).is_some_and(|d| d.container.as_deref() != Some(container)));
        family
    }

    /// Every reference resolved to `target`, written with any of its names: (file, reference,
    /// resolution), in file and reference order, each resolved as it is taken.
    pub(crate) fn sites_of<'a>(&'a self, target: &'a DefId) -> impl Iterator<Item = (&'a str, &'a Ref, Resolution)> {
        let def = self.def(target);
        let names = def.map(|def| self.aliases(&def.name)).unwrap_or_default();
        let sites: BTreeSet<&(String, u32)> = names.iter().flat_map(|n| self.refs_named(n)).collect();
        sites.into_iter().filter_map(move |(file, index)| {
            let def = def?;
            let r = self.reference(file, *index)?;
            // A read reaches a property, or a method handed on as a value through a known type
            // (`self.on_end` as a callback); the many field reads of other names are not
            // resolved.
            if r.kind == RefKind::Read && !def.property && !matches!(def.kind.as_str(), "fn" | "method") {
                return None;
            }
            let resolution = self.resolve(file, *index).filter(|res| res.reaches(target))?;
            Some((file.as_str(), r, resolution))
        })
    }

    /// Calls made by `targets`, then by what they call, `depth` levels deep. Only `exact` and
    /// `likely` callees are followed further; an ambiguous call is shown with its candidates.
    pub fn callees(
        &self,
        targets: &[DefId],
        depth: u32,
        limit: usize,
        interrupt: Interrupt<'_>,
    ) -> Result<Walk, Interrupted> {
        self.levels(targets, depth, limit, interrupt, |caller, level, walk| {
            let calls = self
                .calls_in(caller, &mut walk.external_calls)
                .into_iter()
                .filter_map(|(index, callee, resolution)| {
                    let r = self.reference(&caller.file, index)?;
                    let edge = self.edge(level, &caller.file, (r.line, r.column), Some(caller), &callee, &resolution);
                    Some((edge, (resolution.label != Label::Ambiguous).then_some(callee)))
                })
                .collect();
            Ok(calls)
        })
    }

    /// Breadth first from `start`, `depth` levels, at most `limit` edges: `expand` gives a
    /// definition's edges at a level, each with the definition to follow from it, if any.
    fn levels(
        &self,
        start: &[DefId],
        depth: u32,
        limit: usize,
        interrupt: Interrupt<'_>,
        mut expand: impl FnMut(&DefId, u32, &mut Walk) -> Result<Vec<(Edge, Option<DefId>)>, Interrupted>,
    ) -> Result<Walk, Interrupted> {
        let mut walk = Walk::default();
        let mut seen: BTreeSet<DefId> = start.iter().cloned().collect();
        let mut frontier: Vec<DefId> = start.to_vec();
        for level in 1..=depth.clamp(1, MAX_DEPTH) {
            let mut next = BTreeSet::new();
            let mut edges = Vec::new();
            walk.expanded.extend(frontier.iter().cloned());
            for def in &frontier {
                interrupt.check()?;
                for (edge, follow) in expand(def, level, &mut walk)? {
                    edges.push(edge);
                    let follow = follow.map(|f| self.with_same_symbol(f)).unwrap_or_default();
                    next.extend(follow.into_iter().filter(|f| !seen.contains(f)));
                }
            }
            if self.take(&mut walk, edges, limit) {
                break;
            }
            seen.extend(next.iter().cloned());
            frontier = next.into_iter().collect();
        }
        Ok(walk)
    }

    /// A shortest call path from one of `from` to one of `to`, at most `depth` calls long,
    /// following every candidate of ambiguous calls (the path says which edges were ambiguous);
    /// `Ok(None)` when there is none.
    /// Only definitions in files `through` takes are gone through (a caller's Read rules): a
    /// path through any other file is no path.
    pub fn trace(
        &self,
        from: &[DefId],
        to: &[DefId],
        depth: u32,
        through: &dyn Fn(&str) -> bool,
        interrupt: Interrupt<'_>,
    ) -> Result<Option<Vec<Edge>>, Interrupted> {
        let goal: BTreeSet<&DefId> = to.iter().collect();
        let mut came_from: BTreeMap<DefId, (DefId, u32, Resolution)> = BTreeMap::new();
        let mut queue: VecDeque<(DefId, u32)> = from.iter().map(|id| (id.clone(), 0)).collect();
        let mut seen: BTreeSet<DefId> = from.iter().cloned().collect();
        let mut ignored = 0;
        while let Some((at, level)) = queue.pop_front() {
            if goal.contains(&at) {
                return Ok(Some(self.path(&came_from, at)));
            }
            interrupt.check()?;
            if level >= depth.clamp(1, MAX_DEPTH) {
                continue;
            }
            for (index, callee, resolution) in self.calls_in(&at, &mut ignored) {
                let candidates =
                    resolution.targets.iter().filter(|c| **c == callee || resolution.label == Label::Ambiguous);
                // The call reaches every name of its callee: a body written once for several
                // members is the first's, and its calls are made under each.
                for next in candidates.cloned().flat_map(|c| self.with_same_symbol(c)) {
                    if through(&next.file) && seen.insert(next.clone()) {
                        came_from.insert(next.clone(), (at.clone(), index, resolution.clone()));
                        queue.push_back((next, level + 1));
                    }
                }
            }
        }
        Ok(None)
    }

    /// The edges leading to `end` in a trace.
    fn path(&self, came_from: &BTreeMap<DefId, (DefId, u32, Resolution)>, end: DefId) -> Vec<Edge> {
        let mut edges = Vec::new();
        let mut at = end;
        while let Some((caller, index, resolution)) = came_from.get(&at) {
            let at_call = self.reference(&caller.file, *index).map_or((0, 0), |r| (r.line, r.column));
            edges.push(self.edge(0, &caller.file, at_call, Some(caller), &at, resolution));
            at = caller.clone();
        }
        edges.reverse();
        for (i, edge) in edges.iter_mut().enumerate() {
            edge.depth = i as u32 + 1;
        }
        edges
    }

    /// The resolved calls inside `caller`'s body: (reference index, callee, resolution), one per
    /// call (an ambiguous call once, with its first candidate); unresolved calls are counted.
    fn calls_in(&self, caller: &DefId, external: &mut usize) -> Vec<(u32, DefId, Resolution)> {
        let Some(entry) = self.file(&caller.file) else { return Vec::new() };
        let mut calls = Vec::new();
        for (index, r) in entry.facts.refs.iter().enumerate() {
            if r.caller != Some(caller.index) || !r.kind.is_call() {
                continue;
            }
            match self.resolve(&caller.file, index as u32) {
                Some(resolution) => {
                    let callee = resolution.targets[0].clone();
                    calls.push((index as u32, callee, resolution));
                }
                // An attribute read that is no property is no call at all.
                None if r.kind == RefKind::Read => {}
                None => *external += 1,
            }
        }
        calls
    }

    /// A call site (`at`: its line and column), with every candidate of an ambiguous call.
    fn edge(
        &self,
        depth: u32,
        file: &str,
        at: (u32, u32),
        caller: Option<&DefId>,
        callee: &DefId,
        resolution: &Resolution,
    ) -> Edge {
        let candidates = match resolution.label {
            Label::Ambiguous => resolution.targets.iter().map(|id| self.summary_or_missing(id)).collect(),
            _ => Vec::new(),
        };
        Edge { candidates, ..self.site(depth, file, at, caller, callee, resolution.label) }
    }

    /// A call site (`at`: its line and column), its candidates not listed.
    fn site(
        &self,
        depth: u32,
        file: &str,
        (line, column): (u32, u32),
        caller: Option<&DefId>,
        callee: &DefId,
        label: Label,
    ) -> Edge {
        Edge {
            depth,
            file: file.to_string(),
            line,
            column,
            shares_line: self.other_call_on_line(file, line, column),
            caller: caller.map(|id| self.summary_or_missing(id)),
            callee: self.summary_or_missing(callee),
            label,
            candidates: Vec::new(),
        }
    }

    /// Whether `file` has a call written on `line` other than the one at `column`: a call, a
    /// method call or a construction, resolved or not (an attribute read is left out: it is a
    /// call only where it reaches a property).
    pub fn other_call_on_line(&self, file: &str, line: u32, column: u32) -> bool {
        self.calls_on_line(file, line).is_some_and(|calls| calls.other_than(column))
    }

    /// Whether `line` of `file` holds two calls or more: for a site another tool located (a
    /// language server), whose column need not be where the graph puts the call.
    pub fn several_calls_on_line(&self, file: &str, line: u32) -> bool {
        self.calls_on_line(file, line).is_some_and(|calls| calls.several())
    }

    fn summary_or_missing(&self, id: &DefId) -> DefSummary {
        self.summary(id).unwrap_or_else(|| missing(id))
    }

    /// Adds one level's edges in order; true when the limit was reached.
    fn take(&self, walk: &mut Walk, mut edges: Vec<Edge>, limit: usize) -> bool {
        // One edge per call site and callee: the overloads of a method (TypeScript's signatures
        // before its body) are one method, and a site is reached through each of them.
        fn key(e: &Edge) -> (&str, u32, u32, &str, &str, u32) {
            (&e.file, e.line, e.column, &e.callee.file, &e.callee.name, e.callee.line)
        }
        edges.sort_by(|a, b| key(a).cmp(&key(b)));
        edges.dedup_by(|a, b| {
            (&a.file, a.line, a.column, &a.callee.file, &a.callee.name)
                == (&b.file, b.line, b.column, &b.callee.file, &b.callee.name)
        });
        let room = limit.saturating_sub(walk.edges.len());
        walk.truncated |= edges.len() > room;
        walk.edges.extend(edges.into_iter().take(room));
        walk.truncated
    }
}

/// A definition whose file changed between resolving and summarizing cannot happen under one
/// read of the graph; shown plainly rather than panicking.
fn missing(id: &DefId) -> DefSummary {
    DefSummary { file: id.file.clone(), line: 0, name: format!("#{}", id.index), kind: String::new() }
}

/// `Type::name` for a member.
fn qualified(def: &Def) -> String {
    match &def.container {
        Some(container) => format!("{container}::{}", def.name),
        None => def.name.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{FileEntry, Stamp};
    use crate::interrupt::Interrupt;

    fn graph(files: &[(&str, &str)]) -> Graph {
        let mut graph = Graph::new();
        for (path, source) in files {
            let language = Language::from_path(std::path::Path::new(path)).expect("a known language");
            graph.upsert(path, FileEntry { stamp: Stamp::default(), facts: crate::extract(language, source) });
        }
        graph
    }

    /// The callers of `symbol` as `file:line caller -> callee`, and the family the answer adds.
    fn callers(graph: &Graph, symbol: &str, file: &str) -> (Vec<String>, Vec<String>) {
        let Lookup::Found(targets) = graph.lookup(symbol, Some(file)) else { panic!("{symbol} not found in {file}") };
        let walk = graph.callers(&targets, 1, 100, Interrupt::NEVER).unwrap();
        let edges = walk
            .edges
            .iter()
            .map(|e| format!("{}:{} {} -> {}", e.file, e.line, e.caller.as_ref().unwrap().name, e.callee.name))
            .collect();
        (edges, walk.overrides.iter().map(|id| graph.summary(id).unwrap().name).collect())
    }

    /// immer's `produce: IProduce = (base, recipe) => {…}`: a class field holding a function is
    /// its class's method, with callers and callees.
    #[test]
    fn a_typescript_class_field_holding_a_function_is_a_method() {
        let source = "export class Immer {\n  produce: IProduce = (base: any, recipe: any) => {\n    \
                      return this.finish(recipe(base))\n  }\n\n  handler = function () {\n    return 1\n  }\n\n  \
                      finish(x: any) {\n    return x\n  }\n}\n\nconst immer = new Immer()\n\
                      export function run() {\n  return immer.produce({}, (d: any) => d) + immer.handler()\n}\n";
        let graph = graph(&[("src/immer.ts", source)]);
        let (edges, _) = callers(&graph, "Immer::produce", "src/immer.ts");
        assert_eq!(edges, ["src/immer.ts:17 run -> Immer::produce"]);
        let (edges, _) = callers(&graph, "handler", "src/immer.ts");
        assert_eq!(edges, ["src/immer.ts:17 run -> Immer::handler"]);
        let Lookup::Found(targets) = graph.lookup("Immer.produce", None) else { panic!("produce is no method") };
        let walk = graph.callees(&targets, 1, 100, Interrupt::NEVER).unwrap();
        let callees: Vec<String> =
            walk.edges.iter().map(|e| format!("{}:{} {}", e.file, e.line, e.callee.name)).collect();
        assert_eq!(callees, ["src/immer.ts:3 Immer::finish"]);
    }

    /// QA: pluggy's `_tracing.TagTracer().get(…)` (a class through its module, called on the new
    /// instance) was no call of `TagTracer.get`; JavaScript's `new Tracer().get(…)` and `const t =
    /// new tr.Tracer(); t.get(…)` were none either.
    #[test]
    fn a_method_called_on_a_new_instance_is_linked_to_its_class() {
        let tracer_py = "class Tracer:\n    def get(self, n):\n        return n\n";
        let use_py = "from pkg import tr\n\n\ndef a():\n    tr.Tracer().get(\"x\")\n";
        let tracer_js = "class Tracer {\n  get(n) { return n }\n}\nmodule.exports = { Tracer }\n";
        let use_js = "const tr = require('./tr')\nconst { Tracer } = require('./tr')\nfunction b() {\n  \
                      new Tracer().get('x')\n  const t = new tr.Tracer()\n  t.get('y')\n  new tr.Tracer().get('z')\n}\n";
        let tracers = graph(&[
            ("pkg/__init__.py", ""),
            ("pkg/tr.py", tracer_py),
            ("pkg/use.py", use_py),
            ("tr.js", tracer_js),
            ("use.js", use_js),
        ]);
        let (edges, _) = callers(&tracers, "Tracer::get", "pkg/tr.py");
        assert_eq!(edges, ["pkg/use.py:5 a -> Tracer::get"]);
        let (edges, _) = callers(&tracers, "Tracer::get", "tr.js");
        assert_eq!(edges, ["use.js:4 b -> Tracer::get", "use.js:6 b -> Tracer::get", "use.js:7 b -> Tracer::get"]);
        // A step after the construction is what that step gives, not the class constructed.
        let chained = "class Tracer {\n  child(): Span { return new Span() }\n  get(n: string) { return n }\n}\n\
                       class Span {\n  get(n: string) { return n }\n}\nfunction c() {\n  new Tracer().child().get('x')\n}\n";
        let spans = graph(&[("span.ts", chained)]);
        let (edges, _) = callers(&spans, "Tracer::get", "span.ts");
        assert_eq!(edges, Vec::<String>::new());
        let (edges, _) = callers(&spans, "Span::get", "span.ts");
        assert_eq!(edges, ["span.ts:9 c -> Span::get"]);
    }

    /// QA (commander): `typings/index.d.ts` declares `Help.formatHelp` without a body, away from
    /// `lib/help.js`: as a second candidate it made `helper.formatHelp()` ambiguous, and the
    /// callers of the implementation listed none.
    #[test]
    fn a_declaration_away_from_its_module_gives_way_to_the_implementation() {
        let help = "class Help {\n  formatHelp(cmd) {\n    return cmd\n  }\n}\nmodule.exports = { Help }\n";
        let cmd = "function show(helper) {\n  return helper.formatHelp('x')\n}\nmodule.exports = { show }\n";
        let typings = "export class Help {\n  formatHelp(cmd: string): string;\n}\n";
        let graph = graph(&[("lib/help.js", help), ("lib/cmd.js", cmd), ("typings/index.d.ts", typings)]);
        let (edges, _) = callers(&graph, "Help::formatHelp", "lib/help.js");
        assert_eq!(edges, ["lib/cmd.js:2 show -> Help::formatHelp"]);
    }

    /// pluggy: `pm.hook.hello.call_extra(…)`, where `hook` is declared `Final` (a qualifier, not a
    /// type: the value assigned types it) and `HookRelay.__getattr__` says what each hook is.
    #[test]
    fn a_python_attribute_made_up_by_getattr_has_its_return_type() {
        let hooks = "from typing import TYPE_CHECKING, Final\n\n\n\
                     class HookCaller:\n    def call_extra(self, methods, kwargs):\n        return None\n\n\n\
                     class HookRelay:\n    def fire(self):\n        return None\n\n    \
                     if TYPE_CHECKING:\n\n        def __getattr__(self, name: str) -> HookCaller: ...\n\n\n\
                     class Other:\n    def fire(self):\n        return None\n\n\n\
                     class PluginManager:\n    def __init__(self) -> None:\n        self.hook: Final = HookRelay()\n";
        let test = "from hooks import PluginManager\n\n\n\
                    def test_extra(pm: PluginManager) -> None:\n    pm.hook.hello.call_extra([], kwargs=dict())\n    \
                    pm.hook.fire()\n";
        let graph = graph(&[("hooks.py", hooks), ("test_details.py", test)]);
        let (edges, _) = callers(&graph, "HookCaller::call_extra", "hooks.py");
        assert_eq!(edges, ["test_details.py:5 test_extra -> HookCaller::call_extra"]);
        let (edges, _) = callers(&graph, "HookRelay::fire", "hooks.py");
        assert_eq!(edges, ["test_details.py:6 test_extra -> HookRelay::fire"]);
        let Lookup::Found(targets) = graph.lookup("HookCaller::call_extra", Some("hooks.py")) else { panic!() };
        let walk = graph.callers(&targets, 1, 100, Interrupt::NEVER).unwrap();
        assert_eq!(walk.edges[0].label, Label::Exact, "the annotation writes the type");
    }

    /// bstr's src/utf8.rs: its own `#[cfg(test)] mod tests` calls the module's functions by the
    /// module's path (`utf8::validate` after `use crate::utf8::{self}`, `crate::utf8::decode`,
    /// `super::validate`), as other modules do.
    #[test]
    fn a_rust_modules_inline_tests_call_its_functions_by_its_path() {
        let lib = "mod utf8;\n\npub fn check(b: &[u8]) -> bool { utf8::validate(b) }\n";
        let utf8 = "pub fn validate(b: &[u8]) -> bool { true }\n\n\
                    pub fn decode(b: &[u8]) -> char { 'a' }\n\n\
                    #[cfg(test)]\nmod tests {\n    use crate::utf8::{self};\n\n    \
                    #[test]\n    fn by_name() {\n        assert!(utf8::validate(b\"a\"));\n    }\n\n    \
                    #[test]\n    fn by_path() {\n        assert_eq!(crate::utf8::decode(b\"a\"), 'a');\n    }\n\n    \
                    #[test]\n    fn by_super() {\n        assert!(super::validate(b\"a\"));\n    }\n}\n";
        let graph = graph(&[("src/lib.rs", lib), ("src/utf8.rs", utf8)]);
        let (edges, _) = callers(&graph, "validate", "src/utf8.rs");
        assert_eq!(
            edges,
            [
                "src/lib.rs:3 check -> validate",
                "src/utf8.rs:11 by_name -> validate",
                "src/utf8.rs:21 by_super -> validate"
            ]
        );
        let (edges, _) = callers(&graph, "decode", "src/utf8.rs");
        assert_eq!(edges, ["src/utf8.rs:16 by_path -> decode"]);
    }

    const SHAPES: &str = "pub trait Shape {\n    fn area(&self) -> f64;\n}\n\npub struct Circle;\n\n\
                          impl Shape for Circle {\n    fn area(&self) -> f64 { 1.0 }\n}\n\n\
                          pub fn total<T: Shape>(s: &T) -> f64 { s.area() }\n\
                          pub fn dynamic(s: &dyn Shape) -> f64 { s.area() }\n\
                          pub fn direct(c: &Circle) -> f64 { c.area() }\n";

    #[test]
    fn a_rust_trait_impls_method_is_called_through_its_trait_too() {
        // Another type's inherent `Shape::area` is no trait's method.
        let other = "pub struct Shape;\n\nimpl Shape {\n    pub fn area(&self) -> f64 { 2.0 }\n}\n";
        let graph = graph(&[("src/lib.rs", SHAPES), ("src/other.rs", other)]);
        // A generic and a `dyn` caller reach `Circle::area` through `Shape::area`, each edge
        // naming the method it calls; the family names the trait's method.
        let (edges, family) = callers(&graph, "Circle::area", "src/lib.rs");
        assert_eq!(
            edges,
            [
                "src/lib.rs:11 total -> Shape::area",
                "src/lib.rs:12 dynamic -> Shape::area",
                "src/lib.rs:13 direct -> Circle::area"
            ]
        );
        assert_eq!(family, ["Shape::area"]);
        // A call of `Circle::area` runs no other type's `area`: the trait's callers stay its own.
        let (edges, family) = callers(&graph, "Shape::area", "src/lib.rs");
        assert_eq!(edges, ["src/lib.rs:11 total -> Shape::area", "src/lib.rs:12 dynamic -> Shape::area"]);
        assert!(family.is_empty(), "{family:?}");
    }

    /// An impl is tied to the trait its path names as the file's imports and paths say: the
    /// project's own `Display` is not std's `fmt::Display`, nor a `Display` the file imports from
    /// std; an alias, a `crate::` path and a glob import of the project's reach its own.
    #[test]
    fn a_rust_impl_implements_the_trait_its_path_names() {
        let lib = "pub mod item;\npub mod other;\n\npub trait Display {\n    fn fmt(&self) -> String;\n}\n\n\
                   pub fn show<T: Display>(x: &T) -> String { x.fmt() }\n";
        let item = "use std::fmt;\n\npub struct Item;\n\nimpl fmt::Display for Item {\n    \
                    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }\n}\n\n\
                    pub struct Named;\n\nimpl std::fmt::Display for Named {\n    \
                    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }\n}\n";
        let imported = "use std::fmt::Display;\n\npub struct Plain;\n\nimpl Display for Plain {\n    \
                        fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { Ok(()) }\n}\n";
        let own = "use crate::Display as Shown;\n\npub struct Aliased;\n\nimpl Shown for Aliased {\n    \
                   fn fmt(&self) -> String { String::new() }\n}\n\npub struct Pathed;\n\n\
                   impl crate::Display for Pathed {\n    fn fmt(&self) -> String { String::new() }\n}\n";
        let glob = "use super::*;\n\npub struct Globbed;\n\nimpl Display for Globbed {\n    \
                    fn fmt(&self) -> String { String::new() }\n}\n";
        let graph = graph(&[
            ("src/lib.rs", lib),
            ("src/item.rs", item),
            ("src/plain.rs", imported),
            ("src/other.rs", own),
            ("src/globbed.rs", glob),
        ]);
        for (symbol, file) in
            [("Item::fmt", "src/item.rs"), ("Named::fmt", "src/item.rs"), ("Plain::fmt", "src/plain.rs")]
        {
            let (edges, family) = callers(&graph, symbol, file);
            assert!(edges.is_empty() && family.is_empty(), "{symbol}: {edges:?} {family:?}");
        }
        for (symbol, file) in
            [("Aliased::fmt", "src/other.rs"), ("Pathed::fmt", "src/other.rs"), ("Globbed::fmt", "src/globbed.rs")]
        {
            let (edges, family) = callers(&graph, symbol, file);
            assert_eq!(edges, ["src/lib.rs:8 show -> Display::fmt"], "{symbol}");
            assert_eq!(family, ["Display::fmt"], "{symbol}");
        }
    }

    /// The callers of `symbol` in `file` as `file:line caller [label]`.
    fn labelled(graph: &Graph, symbol: &str, file: &str) -> Vec<String> {
        let Lookup::Found(targets) = graph.lookup(symbol, Some(file)) else { panic!("{symbol} not found in {file}") };
        let walk = graph.callers(&targets, 1, 100, Interrupt::NEVER).unwrap();
        walk.edges
            .iter()
            .map(|e| format!("{}:{} {} [{}]", e.file, e.line, e.caller.as_ref().unwrap().name, e.label.name()))
            .collect()
    }

    /// Iterating a Rust map gives (key, value) pairs, its `values()` the values and its `keys()`
    /// the keys; `enumerate()` pairs an index with each element.
    #[test]
    fn a_rust_maps_entries_are_key_value_pairs() {
        let rust = "use indexmap::IndexMap;\nuse std::collections::{BTreeMap, HashMap};\n\
                    pub struct Order;\nimpl Order {\n    pub fn total(&self) -> u32 { 1 }\n}\n\
                    pub struct Key;\nimpl Key {\n    pub fn total(&self) -> u32 { 2 }\n}\n\n\
                    pub struct Book {\n    by_key: HashMap<Key, Order>,\n    sorted: BTreeMap<Key, Order>,\n    ordered: IndexMap<Key, Order>,\n}\n\n\
                    impl Book {\n\
                    pub fn pairs(&self) -> u32 { let mut n = 0; for (k, v) in self.by_key.iter() { n += v.total(); } n }\n\
                    pub fn values(&mut self) -> u32 { let mut n = 0; for v in self.by_key.values_mut() { n += v.total(); } n }\n\
                    pub fn mapped(&self) -> u32 { self.sorted.values().map(|v| v.total()).sum() }\n\
                    pub fn keys(&self) -> u32 { self.by_key.keys().map(|k| k.total()).sum() }\n\
                    pub fn borrowed(&self) -> u32 { let mut n = 0; for (k, v) in &self.sorted { n += v.total() + k.total(); } n }\n\
                    pub fn entries(self) -> u32 { self.by_key.into_iter().map(|(k, v)| v.total()).sum() }\n\
                    pub fn indexed(&self, orders: &[Order]) -> u32 { let mut n = 0; for (i, o) in orders.iter().enumerate() { n += o.total(); } n }\n\
                    pub fn whole(&self) -> u32 { let mut n = 0; for e in self.by_key.iter() { n += e.total(); } n }\n\
                    pub fn ordered(&self) -> u32 { self.ordered.values().map(|v| v.total()).sum() }\n\
                    }\n";
        let graph = graph(&[("src/lib.rs", rust)]);
        assert_eq!(
            labelled(&graph, "Order::total", "src/lib.rs"),
            [
                "src/lib.rs:19 Book::pairs [exact]",
                "src/lib.rs:20 Book::values [exact]",
                "src/lib.rs:21 Book::mapped [exact]",
                "src/lib.rs:23 Book::borrowed [exact]",
                "src/lib.rs:24 Book::entries [exact]",
                "src/lib.rs:25 Book::indexed [exact]",
                "src/lib.rs:27 Book::ordered [exact]",
            ]
        );
        // A pair (`whole`'s `e`) has neither's method.
        assert_eq!(
            labelled(&graph, "Key::total", "src/lib.rs"),
            ["src/lib.rs:22 Book::keys [exact]", "src/lib.rs:23 Book::borrowed [exact]"]
        );
    }

    #[test]
    fn a_closures_parameter_is_an_element_of_the_collection_it_is_handed() {
        // Two `area`s, so a call on a value of unknown type would be a guess between them.
        let rust = "pub struct Circle;\n\nimpl Circle {\n    pub fn area(&self) -> f64 { 1.0 }\n}\n\n\
                    pub fn sum(items: &[Circle]) -> f64 { items.iter().map(|s| s.area()).sum() }\n\n\
                    pub fn big(items: Vec<Circle>) -> usize {\n    items.iter().filter(|&c| c.area() > 1.0).count()\n}\n\n\
                    pub fn each(items: [Circle; 2]) {\n    for c in items.iter().rev() {\n        c.area();\n    }\n}\n";
        let ts = "export class Circle {\n  area(): number { return 1; }\n  big(): boolean { return true; }\n}\n\n\
                  export function areas(items: Circle[]) {\n  return items.filter((c) => c.big()).map((s) => s.area());\n}\n\n\
                  export function each(items: Array<Circle>) {\n  items.forEach(function (s) { s.area(); });\n}\n";
        let square = "pub struct Square;\n\nimpl Square {\n    pub fn area(&self) -> f64 { 4.0 }\n}\n";
        let in_rust = graph(&[("src/lib.rs", rust), ("src/square.rs", square)]);
        assert_eq!(
            labelled(&in_rust, "Circle::area", "src/lib.rs"),
            ["src/lib.rs:7 sum [exact]", "src/lib.rs:10 big [exact]", "src/lib.rs:15 each [exact]"]
        );
        let in_ts =
            graph(&[("web/circle.ts", ts), ("web/square.ts", "export class Square {\n  area() { return 4; }\n}\n")]);
        assert_eq!(
            labelled(&in_ts, "Circle::area", "web/circle.ts"),
            ["web/circle.ts:7 areas [exact]", "web/circle.ts:11 each [exact]"]
        );
    }

    #[test]
    fn functions_nested_in_two_functions_are_two_symbols_named_by_their_encloser() {
        let source = "def load():\n    def parse(x):\n        return x\n    return parse(1)\n\n\
                      def save():\n    def parse(y):\n        return y\n    return parse(2)\n\n\
                      class Store:\n    def parse(self):\n        pass\n";
        let graph = graph(&[("io.py", source)]);
        let names = |ids: &[DefId]| ids.iter().map(|id| graph.summary(id).unwrap().name).collect::<Vec<_>>();
        // A method of the name is no top-level function the nested ones would give way to.
        let Lookup::Ambiguous(all) = graph.lookup("parse", Some("io.py")) else { panic!("three parse") };
        assert_eq!(names(&all), ["Store::parse", "load::parse", "save::parse"]);
        let Lookup::Found(one) = graph.lookup("save::parse", Some("io.py")) else { panic!("save::parse") };
        assert_eq!(labelled(&graph, "save::parse", "io.py"), ["io.py:9 save [exact]"]);
        assert_eq!(names(&one), ["save::parse"]);
    }

    #[test]
    fn functions_nested_on_one_line_are_named_by_their_encloser_not_a_sibling() {
        let graph = graph(&[("a.js", "function outer() { function a() {} function b() {} }\n")]);
        let name = |symbol: &str| {
            let Lookup::Found(ids) = graph.lookup(symbol, Some("a.js")) else { panic!("{symbol}") };
            ids.iter().map(|id| graph.summary(id).unwrap().name).collect::<Vec<_>>()
        };
        assert_eq!(name("a"), ["outer::a"]);
        assert_eq!(name("b"), ["outer::b"]);
        assert_eq!(name("outer::a"), ["outer::a"]);
    }

    /// A Go `range` over a channel gives its one variable the channel's element, as a range over
    /// a map gives its first the map's key: a method called on it is that type's. It was left
    /// untyped (the first variable was read as a slice's index), so with two types defining
    /// `Run` the call was a guess by name and the loop's function was no caller.
    #[test]
    fn a_go_range_over_a_channel_calls_the_elements_methods() {
        let source = "package jobs\n\ntype Job struct{}\n\nfunc (j *Job) Run() {}\n\ntype Task struct{}\n\n\
                      func (t Task) Run() {}\n\ntype Pool struct {\n\tqueue chan *Job\n}\n\n\
                      func consume(ch <-chan *Job) {\n\tfor j := range ch {\n\t\tj.Run()\n\t}\n}\n\n\
                      func (p *Pool) drain() {\n\tfor j := range p.queue {\n\t\tj.Run()\n\t}\n}\n\n\
                      func send(ch chan<- Task, byTask map[Task]int) {\n\tfor t := range byTask {\n\t\tt.Run()\n\t}\n}\n\n\
                      func indices(tasks []Task) {\n\tfor i := range tasks {\n\t\t_ = i\n\t}\n\tfor _, t := range tasks {\n\t\tt.Run()\n\t}\n}\n";
        let graph = graph(&[("jobs.go", source)]);
        let (edges, _) = callers(&graph, "Job::Run", "jobs.go");
        assert_eq!(edges, ["jobs.go:17 consume -> Job::Run", "jobs.go:23 Pool::drain -> Job::Run"]);
        let (edges, _) = callers(&graph, "Task::Run", "jobs.go");
        assert_eq!(edges, ["jobs.go:29 send -> Task::Run", "jobs.go:38 indices -> Task::Run"]);
    }

    /// A Go variable made by `make` has the type `make` is given: a channel's, slice's or map's
    /// elements are that type's, so a method called on one (ranged over, or through a copy of
    /// the variable) is that type's. The variable was left untyped, and with two types defining
    /// `Run` each call was a guess by name.
    #[test]
    fn a_go_variable_made_by_make_has_the_type_it_is_given() {
        let source = "package jobs\n\ntype Job struct{}\n\nfunc (j *Job) Run() {}\n\ntype Task struct{}\n\n\
                      func (t Task) Run() {}\n\n\
                      func consume() {\n\tch := make(chan *Job)\n\tfor j := range ch {\n\t\tj.Run()\n\t}\n}\n\n\
                      func copied() {\n\tch := make(chan *Job, 4)\n\tout := ch\n\tfor j := range out {\n\t\tj.Run()\n\t}\n}\n\n\
                      func listed() {\n\tjobs := make([]*Job, 0)\n\tfor _, j := range jobs {\n\t\tj.Run()\n\t}\n}\n\n\
                      func keyed() {\n\tvar byTask = make(map[Task]int)\n\tfor t := range byTask {\n\t\tt.Run()\n\t}\n}\n";
        let graph = graph(&[("jobs.go", source)]);
        let (edges, _) = callers(&graph, "Job::Run", "jobs.go");
        assert_eq!(
            edges,
            ["jobs.go:14 consume -> Job::Run", "jobs.go:22 copied -> Job::Run", "jobs.go:29 listed -> Job::Run"]
        );
        let (edges, _) = callers(&graph, "Task::Run", "jobs.go");
        assert_eq!(edges, ["jobs.go:36 keyed -> Task::Run"]);
    }

    /// A site on a line where another call is written says so, though the answer lists only
    /// it: `a.run(); b.run()` with `a` and `b` of two types is one caller of each `run`, and
    /// `file:line` alone did not say which call on the line it is.
    #[test]
    fn a_site_knows_another_call_shares_its_line() {
        let source = "class A:\n    def run(self):\n        pass\n\nclass B:\n    def run(self):\n        pass\n\n\
                      def both(a: A, b: B):\n    a.run(); b.run()\n\ndef alone(a: A):\n    a.run(); x = a.name\n";
        let graph = graph(&[("m.py", source)]);
        let Lookup::Found(targets) = graph.lookup("A::run", Some("m.py")) else { panic!("A::run") };
        let walk = graph.callers(&targets, 1, 100, Interrupt::NEVER).unwrap();
        let sites: Vec<(u32, u32, bool)> = walk.edges.iter().map(|e| (e.line, e.column, e.shares_line)).collect();
        // An attribute read on a line is no call.
        assert_eq!(sites, [(10, 7, true), (13, 7, false)]);
    }

    /// Calls on one line are each an edge, told apart by column: two calls of one callee from
    /// different callers (`fn a() { g(1); } fn b() { f(g(2)); }`), calls of different callees
    /// (`g(1); h()`), the same callee twice from one caller, and nested ones (`f(g(h()))`). Where
    /// two definitions shared a line, the second's calls were the first's: `b` called nothing
    /// and `a` called `f`.
    #[test]
    fn each_call_on_a_line_is_its_callers_own() {
        let sources = [
            (
                "m.rs",
                "fn g(x: u8) -> u8 { x }\nfn h() -> u8 { 1 }\nfn f(x: u8) -> u8 { x }\nfn a() { g(1); h(); g(2); } fn b() { f(g(h())); }\n",
            ),
            (
                "m.js",
                "function g(x) { return x }\nfunction h() { return 1 }\nfunction f(x) { return x }\nfunction a() { g(1); h(); g(2) } function b() { f(g(h())) }\n",
            ),
            (
                "M.java",
                "class M {\n  int g(int x) { return x; }\n  int h() { return 1; }\n  int f(int x) { return x; }\n  void a() { g(1); h(); g(2); } void b() { f(g(h())); }\n}\n",
            ),
            (
                "m.py",
                "def g(x):\n    return x\n\ndef h():\n    return 1\n\ndef f(x):\n    return x\n\ndef a(): g(1); h(); g(2)\n\ndef b(): f(g(h()))\n",
            ),
        ];
        for (path, source) in sources {
            let graph = graph(&[(path, source)]);
            let ids = |name: &str| match graph.lookup(name, Some(path)) {
                Lookup::Found(ids) => ids,
                _ => panic!("{name} not found in {path}"),
            };
            let short = |name: &str| name.rsplit("::").next().unwrap_or(name).to_string();
            let callers = |name: &str| -> Vec<(String, u32)> {
                let walk = graph.callers(&ids(name), 1, 100, Interrupt::NEVER).unwrap();
                walk.edges.iter().map(|e| (short(&e.caller.as_ref().unwrap().name), e.column)).collect()
            };
            let callees = |name: &str| -> Vec<String> {
                let walk = graph.callees(&ids(name), 1, 100, Interrupt::NEVER).unwrap();
                walk.edges.iter().map(|e| short(&e.callee.name)).collect()
            };
            let from: Vec<String> = callers("g").into_iter().map(|(caller, _)| caller).collect();
            assert_eq!(from, ["a", "a", "b"], "{path}");
            let columns: BTreeSet<u32> = callers("g").into_iter().map(|(_, column)| column).collect();
            assert_eq!(columns.len(), 3, "{path}: each call its own column");
            assert_eq!(callers("h").into_iter().map(|(c, _)| c).collect::<Vec<_>>(), ["a", "b"], "{path}");
            assert_eq!(callers("f").into_iter().map(|(c, _)| c).collect::<Vec<_>>(), ["b"], "{path}");
            assert_eq!(callees("a"), ["g", "h", "g"], "{path}");
            assert_eq!(callees("b"), ["f", "g", "h"], "{path}");
        }
        // Arrow functions declared together: each its own calls.
        let graph = graph(&[("n.js", "function g(x) { return x }\nconst c = () => g(1), d = () => g(2);\n")]);
        let Lookup::Found(ids) = graph.lookup("g", Some("n.js")) else { panic!("g not found") };
        let walk = graph.callers(&ids, 1, 100, Interrupt::NEVER).unwrap();
        let from: Vec<&str> = walk.edges.iter().map(|e| e.caller.as_ref().unwrap().name.as_str()).collect();
        assert_eq!(from, ["c", "d"]);
    }
}
