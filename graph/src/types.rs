//! The type of a receiver, worked out from what the code writes: a name's binding
//! ([`crate::bindings`]), `self`/`this`, an attribute assigned in the type's methods or declared
//! in its body, the return types signatures write, and a loop variable's collection (one element
//! of `orders: list[Order]` is an `Order`). `client.getCache().find()` is a call of
//! `find` on whatever `getCache` of `client`'s type returns.
//!
//! Nothing is guessed: a step that cannot be worked out (no binding, an unwritten return type,
//! a type parameter) makes the whole receiver unknown, and resolution falls back to the name.

use std::collections::BTreeSet;

use lean_ctx_outline::Language;

use crate::bindings::{self, Binding, Bound, Pick, Segment, pick_all};
use crate::facts::{Def, FileFacts, Ref, RefKind};
use crate::graph::{DefId, Graph, language_of};

/// How many bindings and return types one receiver's evaluation follows at most.
pub(crate) const MAX_STEPS: u8 = 8;
/// How many levels of base classes a member is looked up through.
pub(crate) const MAX_BASES: u8 = 4;

/// Bindings, each with a reference standing where it was bound (where a bound expression is
/// evaluated).
type BoundAt<'a> = Vec<(Ref, Bound<'a>)>;

/// What a receiver is known to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Known {
    /// A type the project defines, by name.
    Project(String),
    /// A built-in or library type: nothing the project defines is called on it.
    Foreign,
    /// One of several project types, by name, sorted (`Union[Call, Filter]`, `Call | Filter`):
    /// a member is each one's, a step what they agree it gives.
    Union(Vec<String>),
    /// Every one of several project types, by name, as written: a Rust type parameter's trait
    /// bounds (`T: Measure + Named`). A member is the one of those that have it, a step what
    /// those that give one agree it gives.
    All(Vec<String>),
}

impl Known {
    /// What `step` gives for this type: for a union, what it gives for each alternative, where
    /// they agree (or a union of what they give); a library's value stays one.
    fn step(self, step: impl Fn(&str) -> Option<Known>) -> Option<Known> {
        match self {
            Known::Foreign => Some(Known::Foreign),
            Known::Project(type_name) => step(&type_name),
            Known::Union(types) => union(types.iter().map(|t| step(t)).collect::<Option<Vec<_>>>()?),
            Known::All(types) => agree(types.iter().map(|t| step(t)).filter(Option::is_some)),
        }
    }
}

/// The type values of these types have together: the one they agree on, a union of project
/// types, or unknown when a library's type is among several.
fn union(types: Vec<Known>) -> Option<Known> {
    let first = types.first()?.clone();
    if types.iter().all(|t| *t == first) {
        return Some(first);
    }
    let mut names = Vec::new();
    for known in types {
        match known {
            Known::Project(name) => names.push(name),
            Known::Union(more) => names.extend(more),
            Known::Foreign | Known::All(_) => return None,
        }
    }
    names.sort();
    names.dedup();
    Some(Known::Union(names))
}

impl Graph {
    /// The type of `expr` (a receiver as written) where `r` is, in `file`; `None` when unknown.
    pub(crate) fn type_of(&self, file: &str, facts: &FileFacts, r: &Ref, expr: &str, budget: u8) -> Option<Known> {
        if budget == 0 {
            return None;
        }
        if bindings::is_literal(expr) {
            return Some(Known::Foreign);
        }
        match bindings::parenthesized(expr) {
            Some((inner, false)) => return self.type_of(file, facts, r, inner, budget - 1),
            Some((converted_to, true)) if language_of(facts) == Some(Language::Go) => {
                return self.named_type(file, facts, &bindings::type_name(converted_to)?, None, Some(r.line));
            }
            Some(_) => return None,
            None => {}
        }
        // `new Tracer()`, `new tr.Tracer()`: an instance of the class constructed; `new
        // Tracer().child()` is what `child` gives it.
        if let Some(constructed) = expr.strip_prefix("new ")
            && matches!(language_of(facts), Some(Language::JavaScript | Language::TypeScript | Language::Tsx))
        {
            let (class, after) = match constructed.find('(') {
                Some(open) => (&constructed[..open], &constructed[bindings::closing_paren(constructed)? + 1..]),
                None => (constructed, ""),
            };
            let class = class.split('<').next().unwrap_or_default().trim();
            let instance = self.named_type(file, facts, class, None, Some(r.line))?;
            return match after.strip_prefix('.') {
                Some(steps) => self.steps_from(instance, &bindings::segments(steps)?, budget),
                None if after.is_empty() => Some(instance),
                None => None,
            };
        }
        let steps = bindings::segments(expr)?;
        self.chain_type(file, facts, r, &steps, budget)
    }

    /// The type of one part of `expr` (a collection as written: a loop's iterable, what is
    /// subscripted or unpacked) where `r` is, in `file`: the part `picks` take one after the other
    /// of the collection type a binding, an attribute or a signature writes for it
    /// (`orders: list[Order]`, `-> list[Order]`, `items: Item[]`, `[]*Flag`,
    /// `dict[str, Convertor]`, `-> tuple[Pattern, dict[str, Convertor]]`); `None` when unknown.
    pub(crate) fn part_of(
        &self,
        file: &str,
        facts: &FileFacts,
        r: &Ref,
        expr: &str,
        picks: &[Pick],
        budget: u8,
    ) -> Option<Known> {
        if budget == 0 || bindings::is_literal(expr) {
            return None;
        }
        // A dict's view is read from the dict's written type; a project type's own `values()`
        // from its signature, below.
        if language_of(facts) == Some(Language::Python)
            && let Some((mapping, view_picks)) = bindings::dict_view(expr, picks)
            && let Some(found) = self.part_of(file, facts, r, mapping, &view_picks, budget - 1)
        {
            return Some(found);
        }
        let steps = bindings::segments(expr)?;
        let (last, init) = steps.split_last()?;
        // A part of a subscript (`for x in groups[k]`): the subscript's part first.
        let subscripted;
        let (last, picks) = match last.index {
            true => {
                subscripted = [&[Pick::Index], picks].concat();
                (last.collection(), subscripted.as_slice())
            }
            false => (*last, picks),
        };
        if init.is_empty() {
            return self.head_part(file, facts, r, last, picks, budget);
        }
        if let [module] = init
            && let Some(functions) = self.module_function(file, facts, r.line, *module, last)
        {
            return self.agreed_part(&functions, None, picks);
        }
        // A member of a library's or a built-in value: what it holds is no project value either
        // way, but its collection type is not written anywhere the graph reads.
        match self.chain_type(file, facts, r, init, budget)? {
            Known::Foreign => None,
            known => known.step(|type_name| self.member_part(type_name, last, picks, budget - 1)),
        }
    }

    /// The type a chain of steps evaluates to, step by step from its head; a subscripted step is
    /// the part of its collection the subscript takes.
    fn chain_type(&self, file: &str, facts: &FileFacts, r: &Ref, steps: &[Segment<'_>], budget: u8) -> Option<Known> {
        let (head, rest) = steps.split_first()?;
        let (known, rest) = match (head.index, rest) {
            // `tr.Tracer()`: an instance of a Python class a project module defines.
            (false, [call, rest @ ..])
                if call.call
                    && !call.index
                    && !head.call
                    && language_of(facts) == Some(Language::Python)
                    && self.module_class(file, facts, r.line, *head, *call) =>
            {
                (self.named_type(file, facts, &format!("{}.{}", head.name, call.name), None, Some(r.line))?, rest)
            }
            // `pkg.F()`, `models.make()`: what the project module's function returns.
            (false, [call, rest @ ..])
                if let Some(functions) = self.module_function(file, facts, r.line, *head, *call) =>
            {
                let known = match call.index {
                    true => self.agreed_part(&functions, None, &[Pick::Index])?,
                    false => self.agreed_return(&functions, None)?,
                };
                (known, rest)
            }
            (true, _) => (self.head_part(file, facts, r, head.collection(), &[Pick::Index], budget)?, rest),
            (false, _) => (self.head_type(file, facts, r, *head, budget)?, rest),
        };
        self.steps_from(known, rest, budget)
    }

    /// What `steps` give one after the other from a value of type `known`.
    fn steps_from(&self, mut known: Known, steps: &[Segment<'_>], budget: u8) -> Option<Known> {
        for step in steps {
            known = known.step(|type_name| match step.index {
                true => self.member_part(type_name, step.collection(), &[Pick::Index], budget - 1),
                false => self.member_type(type_name, *step, budget - 1),
            })?;
        }
        Some(known)
    }

    /// A part of a chain's first step as a collection: of a bound name's written collection type,
    /// or of what a called function's signature says it returns.
    fn head_part(
        &self,
        file: &str,
        facts: &FileFacts,
        r: &Ref,
        head: Segment<'_>,
        picks: &[Pick],
        budget: u8,
    ) -> Option<Known> {
        let language = language_of(facts)?;
        match bindings::name_bindings(language, &facts.bindings, r, head.name) {
            Some(_) if head.call => None,
            Some(found) => {
                agree(found.iter().map(|b| self.bound_part(file, facts, &site(b), b.bound(), picks, budget)))
            }
            None if head.call => self.agreed_part(&self.functions_named(file, head.name)?, None, picks),
            None if language == Language::Go => {
                let (other, facts, found) = self.package_bindings(file, head.name)?;
                agree(found.iter().map(|(at, bound)| self.bound_part(other, facts, at, *bound, picks, budget)))
            }
            None => None,
        }
    }

    /// A part of a member step of `type_name` as a collection: of an attribute's written
    /// collection type, or of what a method's (or property's) signature says it returns.
    fn member_part(&self, type_name: &str, step: Segment<'_>, picks: &[Pick], budget: u8) -> Option<Known> {
        if budget == 0 {
            return None;
        }
        if !step.call
            && let Some((home, found)) = self.attribute_bindings(type_name, step.name)
        {
            let facts = &self.file(&home)?.facts;
            let part = |(at, bound): (Ref, Bound<'_>)| self.bound_part(&home, facts, &at, bound, picks, budget);
            return agree(found.into_iter().map(part));
        }
        self.agreed_part(&self.members(type_name, step.name)?, Some(type_name), picks)
    }

    /// The first step of a chain: `self`, a bound name, a called function or class, an imported
    /// library name, a project type.
    fn head_type(&self, file: &str, facts: &FileFacts, r: &Ref, head: Segment<'_>, budget: u8) -> Option<Known> {
        let language = language_of(facts)?;
        let caller = r.caller.and_then(|i| facts.defs.get(i as usize));
        let is_self = matches!(head.name, "self" | "this" | "cls" | "Self")
            || caller.is_some_and(|c| c.receiver_var.as_deref() == Some(head.name));
        // (Outside a type, `self` is a parameter like any other: `def wrapper(self: Scaffold)`.)
        if is_self
            && !head.call
            && let Some(container) = crate::nested::self_type(language, facts, caller)
        {
            return Some(Known::Project(container.to_string()));
        }
        // A Rust path: `Store::open()` makes what `Store`'s `open` returns.
        if let Some((path, function)) = head.name.rsplit_once("::") {
            let type_name = path.rsplit("::").next().unwrap_or(path);
            let Some(Known::Project(type_name)) = self.named_type(file, facts, type_name, None, Some(r.line)) else {
                return None;
            };
            let functions = self.members_named(function, &type_name, |_, _| true)?;
            return head.call.then(|| self.agreed_return(&functions, Some(&type_name))).flatten();
        }
        match bindings::name_bindings(language, &facts.bindings, r, head.name) {
            Some(_) if head.call => None,
            // Each binding's value is evaluated where it was bound (`url = url.copy_with()` reads
            // the `url` bound before it).
            Some(found) => agree(found.iter().map(|b| self.bound_type(file, facts, &site(b), b.bound(), None, budget))),
            // Go's built-in `new(T)` makes a `*T`.
            None if head.call && head.name == "new" && language == Language::Go => {
                self.named_type(file, facts, &bindings::type_name(head.arguments)?, None, Some(r.line))
            }
            // Java calls a method without `this.`: see `enclosing_members`.
            None if head.call
                && language == Language::Java
                && let Some((owner, methods)) =
                    self.enclosing_members(file, facts, r, head.name, &Def::is_callable) =>
            {
                self.agreed_return(&methods, Some(owner))
            }
            None if head.call => self.call_type(file, facts, language, head.name, r.line),
            // Java reads a field without `this.`: the innermost enclosing class's that has it (its
            // own or inherited), an inner class's outer class's too.
            None if language == Language::Java
                && let Some(owner) = enclosing_types(facts, r)
                    .into_iter()
                    .map(|owner| owner.name.as_str())
                    .find(|owner| self.attribute_bindings(owner, head.name).is_some()) =>
            {
                self.attribute(owner, head.name, budget)
            }
            // A Go package variable declared in another file of the package.
            None if language == Language::Go
                && let Some((other, facts, found)) = self.package_bindings(file, head.name) =>
            {
                agree(found.iter().map(|(at, bound)| self.bound_type(other, facts, at, *bound, None, budget)))
            }
            None => self.named_type(file, facts, head.name, None, Some(r.line)).filter(|known| match known {
                // A bare project type is its own receiver (`Order.of()`); a value of it is not.
                Known::Project(_) | Known::Union(_) | Known::All(_) => true,
                // So is an imported library name, and Python's unbound built-in type names
                // (`dict.__repr__(self)`, `int.__new__(cls, value)`).
                Known::Foreign => {
                    facts.import_seen(head.name, Some(r.line)).is_some()
                        || (language == Language::Python && bindings::builtin_type(language, head.name))
                        // A Java library class read unqualified: `System.err`, java.lang's.
                        || (language == Language::Java && head.name.starts_with(|c: char| c.is_ascii_uppercase()))
                }
            }),
        }
    }

    /// The top-level bindings of Go package variable `name` in another file of `file`'s package,
    /// with that file and a reference standing where each was bound.
    fn package_bindings<'a>(&'a self, file: &'a str, name: &str) -> Option<(&'a str, &'a FileFacts, BoundAt<'a>)> {
        self.package_files(file).find_map(|(other, entry)| {
            let facts = &entry.facts;
            let found: BoundAt<'_> = facts
                .bindings
                .iter()
                .filter(|b| b.name == name && b.scope.is_none())
                .map(|b| (site(b), b.bound()))
                .collect();
            (!found.is_empty()).then_some((other, facts, found))
        })
    }

    /// What a call of the bare name `callee` makes: an instance of a Python class, or what a
    /// project function of that name (the only one, or all agreeing) says it returns.
    fn call_type(&self, file: &str, facts: &FileFacts, language: Language, callee: &str, line: u32) -> Option<Known> {
        let is_class = self.all_named(callee, |_, d| d.is_type()).is_some();
        if is_class && language == Language::Python {
            return Some(Known::Project(callee.to_string()));
        }
        let functions = self.functions_named(file, callee)?;
        self.agreed_return(&functions, None).or_else(|| {
            // A library function: its result is no project value.
            facts
                .import_seen(callee, Some(line))
                .is_some_and(|i| self.is_foreign_import(file, language, i))
                .then_some(Known::Foreign)
        })
    }

    /// The type a member step of `type_name` gives: a method's return type, an attribute's
    /// binding, a property's return type.
    fn member_type(&self, type_name: &str, step: Segment<'_>, budget: u8) -> Option<Known> {
        if budget == 0 {
            return None;
        }
        if step.name == "__dict__" {
            return Some(Known::Foreign);
        }
        let members = self.members(type_name, step.name);
        if step.call {
            return self.agreed_return(&members?, Some(type_name));
        }
        if let Some(known) = self.attribute(type_name, step.name, budget) {
            return Some(known);
        }
        // A property: a method read as an attribute.
        if let Some(members) = members {
            return self.agreed_return(&members, Some(type_name));
        }
        // An attribute the type makes up as it is read: Python's `__getattr__` gives every name
        // it does not have (pluggy's `HookRelay.__getattr__(…) -> HookCaller` types each hook).
        self.agreed_return(&self.members(type_name, "__getattr__")?, Some(type_name))
    }

    /// The functions `module.call()` on `line` calls when `module` is a module or package of the
    /// project that `file` imports there.
    fn module_function(
        &self,
        file: &str,
        facts: &FileFacts,
        line: u32,
        module: Segment<'_>,
        call: Segment<'_>,
    ) -> Option<Vec<DefId>> {
        if module.call || module.index || !call.call {
            return None;
        }
        let language = language_of(facts)?;
        let import = facts.import_seen(module.name, Some(line))?;
        let target = self.imported_module(file, language, import)?;
        self.top_level_named(call.name, |id, d| d.is_callable() && target.matches(&id.file))
    }

    /// Whether `module.Class` on `line` names a class that a project module `file` imports there
    /// defines.
    fn module_class(&self, file: &str, facts: &FileFacts, line: u32, module: Segment<'_>, class: Segment<'_>) -> bool {
        let Some(language) = language_of(facts) else { return false };
        let Some(import) = facts.import_seen(module.name, Some(line)) else { return false };
        let Some(target) = self.imported_module(file, language, import) else { return false };
        self.top_level_named(class.name, |id, d| d.is_type() && target.matches(&id.file)).is_some()
    }

    /// The functions a bare call of `callee` in `file` calls: the file's own, else the project's.
    fn functions_named(&self, file: &str, callee: &str) -> Option<Vec<DefId>> {
        let local = self.in_file(file, |d| d.name == callee && d.container.is_none() && d.is_callable());
        local.or_else(|| self.top_level_named(callee, |_, d| d.is_callable()))
    }

    /// The definitions named `name` fitting `fits` that a Java name written without `this.` at `r`
    /// reaches, with the type they are members of: the innermost enclosing type's own or inherited,
    /// else the next enclosing type's, as Java looks in a class and its bases before the class
    /// around it. Past a static nested class only static members (and nested types) are reached:
    /// it has no instance of the classes around it.
    pub(crate) fn enclosing_members<'a>(
        &self,
        file: &str,
        facts: &'a FileFacts,
        r: &Ref,
        name: &str,
        fits: &dyn Fn(&Def) -> bool,
    ) -> Option<(&'a str, Vec<DefId>)> {
        let mut static_only = false;
        for owner in enclosing_types(facts, r) {
            let reached = |d: &Def| fits(d) && (!static_only || d.is_static || d.is_type());
            let own = self.in_file(file, |d| d.name == name && d.container.as_ref() == Some(&owner.name) && reached(d));
            if let Some(found) = own.or_else(|| self.inherited(&owner.name, name, &reached, MAX_BASES)) {
                return Some((&owner.name, found));
            }
            static_only |= owner.is_static;
        }
        None
    }

    /// The methods named `name` of `type_name`, its own or else inherited.
    fn members(&self, type_name: &str, name: &str) -> Option<Vec<DefId>> {
        self.members_named(name, type_name, |_, d| d.is_callable())
            .or_else(|| self.inherited(type_name, name, &Def::is_callable, MAX_BASES))
    }

    /// Members named `name` that `type_name` inherits: its bases' own, then theirs, depth first in
    /// the order the class head names them (Python's method resolution order for single
    /// inheritance; a first approximation for several bases).
    pub(crate) fn inherited(
        &self,
        type_name: &str,
        name: &str,
        fits: &dyn Fn(&Def) -> bool,
        depth: u8,
    ) -> Option<Vec<DefId>> {
        if depth == 0 {
            return None;
        }
        self.bases(type_name).into_iter().find_map(|base| {
            let own = self.members_named(name, &base, |_, d| fits(d));
            own.or_else(|| self.inherited(&base, name, fits, depth - 1))
        })
    }

    /// The project types the classes named `type_name` name as their bases (`class A(B)`,
    /// `extends B`, a Go type's embedded ones), in the order written, each once. A base of the
    /// type's own name (`type Config struct { base.Config }`) is left out: same-named types are
    /// one container here, so it would only send the walk round again.
    pub(crate) fn bases(&self, type_name: &str) -> Vec<String> {
        let mut bases: Vec<String> = Vec::new();
        for class in self.all_named(type_name, |_, d| d.is_type()).into_iter().flatten() {
            let Some(entry) = self.file(&class.file) else { continue };
            let Some(def) = entry.facts.defs.get(class.index as usize) else { continue };
            for base in def.bases.iter().filter(|base| **base != def.name) {
                if let Some(Known::Project(base)) = self.named_type(&class.file, &entry.facts, base, None, None)
                    && base != type_name
                    && !bases.contains(&base)
                {
                    bases.push(base);
                }
            }
        }
        bases
    }

    /// Members named `name` of the project's classes derived from `type_name` (their own, or what
    /// they inherit from another of their bases), and of the classes derived from those, to
    /// `depth` levels: where a call through a value of `type_name` that has no such member goes.
    pub(crate) fn derived_members(
        &self,
        type_name: &str,
        name: &str,
        fits: &dyn Fn(&Def) -> bool,
        depth: u8,
    ) -> BTreeSet<DefId> {
        let mut found = BTreeSet::new();
        if depth == 0 {
            return found;
        }
        // The files that name `type_name`, where the classes naming it as a base are.
        let files: BTreeSet<&String> = self.refs_named(type_name).map(|(file, _)| file).collect();
        let project_type = Some(Known::Project(type_name.to_string()));
        for file in files {
            let Some(entry) = self.file(file) else { continue };
            let derives = |class: &&Def| {
                class.name != type_name
                    && class.bases.iter().any(|base| {
                        base.rsplit('.').next() == Some(type_name)
                            && self.named_type(file, &entry.facts, base, None, None) == project_type
                    })
            };
            for class in entry.facts.defs.iter().filter(derives) {
                let own = self.members_named(name, &class.name, |_, d| fits(d));
                found.extend(own.or_else(|| self.inherited(&class.name, name, fits, MAX_BASES)).into_iter().flatten());
                found.extend(self.derived_members(&class.name, name, fits, depth - 1));
            }
        }
        found
    }

    /// Attribute `name` of `type_name` from the bindings of the files that define the type.
    fn attribute(&self, type_name: &str, name: &str, budget: u8) -> Option<Known> {
        let (home, found) = self.attribute_bindings(type_name, name)?;
        let facts = &self.file(&home)?.facts;
        agree(found.into_iter().map(|(at, bound)| self.bound_type(&home, facts, &at, bound, Some(type_name), budget)))
    }

    /// The bindings of attribute `name` of `type_name` in the first file defining the type that
    /// binds it, each with a reference standing where it was bound (in the method that assigned
    /// it), where a bound expression is evaluated; else those of the first of its bases that
    /// binds it (`left: Expr` declared in `BinExpr`, read in its subclass `And`).
    fn attribute_bindings(&self, type_name: &str, name: &str) -> Option<(String, BoundAt<'_>)> {
        self.attribute_bindings_within(type_name, name, MAX_BASES)
    }

    fn attribute_bindings_within(&self, type_name: &str, name: &str, depth: u8) -> Option<(String, BoundAt<'_>)> {
        if depth == 0 {
            return None;
        }
        for home in self.all_named(type_name, |_, d| d.is_type())? {
            let Some(entry) = self.file(&home.file) else { continue };
            let facts = &entry.facts;
            let found = bindings::attribute_bindings(&facts.bindings, &facts.defs, type_name, name);
            if found.is_empty() {
                continue;
            }
            return Some((home.file, found.into_iter().map(|b| (site(b), b.bound())).collect()));
        }
        self.bases(type_name).into_iter().find_map(|base| self.attribute_bindings_within(&base, name, depth - 1))
    }

    /// The type of the value a binding at `at` in `file` holds; `container` is the type whose
    /// attribute it binds.
    fn bound_type(
        &self,
        file: &str,
        facts: &FileFacts,
        at: &Ref,
        bound: Bound<'_>,
        container: Option<&str>,
        budget: u8,
    ) -> Option<Known> {
        match bound {
            Bound::Type(written, _) => self
                .named_type(file, facts, written, container, Some(at.line))
                .or_else(|| self.type_parameter(file, facts, at, written)),
            Bound::Value(value) => self.type_of(file, facts, at, value, budget - 1),
            // The whole of one part of a collection.
            Bound::Unpacked(..) | Bound::Each(_) | Bound::EachItem(..) => {
                self.bound_part(file, facts, at, bound, &[], budget)
            }
            // A list, tuple or set: a built-in's methods.
            Bound::Elements(_) => Some(Known::Foreign),
            Bound::Callback(function, argument, parameter) => {
                // A library's function of the same name as a project one types nothing here.
                let language = language_of(facts)?;
                if facts.import_seen(function, Some(at.line)).is_some_and(|i| self.is_foreign_import(file, language, i))
                {
                    return None;
                }
                let functions = self.functions_named(file, function)?;
                self.agreed_signature(&functions, None, |d| {
                    let (_, types) = d.callback_params.iter().find(|(position, _)| *position == argument)?;
                    types.get(parameter as usize)?.clone()
                })
            }
            Bound::Unknown => None,
        }
    }

    /// What Rust type parameter `name` stands for where `at` is (`item: &T` with `T: Measure`): the
    /// traits bounding it in its function's generics or where clause, which may follow the
    /// parameters, so it is looked up from the function's end.
    fn type_parameter(&self, file: &str, facts: &FileFacts, at: &Ref, name: &str) -> Option<Known> {
        if language_of(facts)? != Language::Rust {
            return None;
        }
        let end = at.caller.and_then(|i| facts.defs.get(i as usize)).map_or(at.line, |d| d.end_line);
        let anywhere = Ref { line: end, ..at.clone() };
        let found = bindings::name_bindings(Language::Rust, &facts.bindings, &anywhere, name)?;
        agree(found.iter().map(|b| match b.bound() {
            Bound::Type(bounds, _) => self.named_type(file, facts, bounds, None, Some(at.line)),
            _ => None,
        }))
    }

    /// The type of the part `picks` take of the collection a binding at `at` in `file` holds (an
    /// element written `Self` is left unknown).
    fn bound_part(
        &self,
        file: &str,
        facts: &FileFacts,
        at: &Ref,
        bound: Bound<'_>,
        picks: &[Pick],
        budget: u8,
    ) -> Option<Known> {
        match bound {
            Bound::Type(_, collection) => {
                let part = pick_all(collection?, picks)?;
                // An element of a Rust type parameter (`items: &[T]`) has its bounds, as `t: &T`.
                self.named_type(file, facts, &part, None, Some(at.line))
                    .or_else(|| self.type_parameter(file, facts, at, &part))
            }
            Bound::Value(value) => self.part_of(file, facts, at, value, picks, budget - 1),
            Bound::Each(iterable) => self.element_part(file, facts, at, iterable, None, picks, budget),
            Bound::EachItem(iterable, position) => {
                self.element_part(file, facts, at, iterable, Some(position), picks, budget)
            }
            Bound::Unpacked(value, position) => {
                self.part_of(file, facts, at, value, &[&[Pick::Nth(position)], picks].concat(), budget - 1)
            }
            // Any element of the copy is one of the iterable's.
            Bound::Elements(iterable) => {
                let (_, rest) = picks.split_first()?;
                self.part_of(file, facts, at, iterable, &[&[Pick::Each], rest].concat(), budget - 1)
            }
            // A function type's parameter is read as a type name, not as a collection.
            Bound::Callback(..) | Bound::Unknown => None,
        }
    }

    /// The type of the part `picks` take of one element of `iterable` (a loop's or a callback's),
    /// or of its item `position` that a Rust tuple pattern unpacks. Rust iterates a map by (key,
    /// value) pairs and has views of it (see [`bindings::rust_iteration`]); Go's `range` gives its
    /// first variable (`position` 0) a channel's element or a map's key ([`Pick::Key`]); the
    /// others iterate by [`Pick::Each`].
    #[allow(clippy::too_many_arguments)]
    fn element_part(
        &self,
        file: &str,
        facts: &FileFacts,
        at: &Ref,
        iterable: &str,
        position: Option<usize>,
        picks: &[Pick],
        budget: u8,
    ) -> Option<Known> {
        let then = |first: &[Pick]| [first, picks].concat();
        // Go's `range` gives its first variable a channel's element or a map's key.
        if language_of(facts) == Some(Language::Go) {
            let first = position.map_or(Pick::Each, |_| Pick::Key);
            return self.part_of(file, facts, at, iterable, &then(&[first]), budget - 1);
        }
        if language_of(facts) != Some(Language::Rust) {
            let first: Vec<Pick> = std::iter::once(Pick::Each).chain(position.map(Pick::Nth)).collect();
            return self.part_of(file, facts, at, iterable, &then(&first), budget - 1);
        }
        let (collection, first) = bindings::rust_iteration(iterable, position)?;
        let found = self.part_of(file, facts, at, collection, &then(&first), budget - 1);
        // A project type's own `values()` or `keys()`: the elements of what its signature returns.
        match found {
            None if collection != iterable => {
                let element = position.map_or(Pick::Entry, Pick::EntryItem);
                self.part_of(file, facts, at, iterable, &then(&[element]), budget - 1)
            }
            found => found,
        }
    }

    /// The return type the given functions agree on, read in their own files; `Self`/`this` is
    /// `container`.
    fn agreed_return(&self, functions: &[DefId], container: Option<&str>) -> Option<Known> {
        self.agreed_signature(functions, container, |d| d.returns.clone())
    }

    /// The part `picks` take of the collections the given functions agree they return.
    fn agreed_part(&self, functions: &[DefId], container: Option<&str>, picks: &[Pick]) -> Option<Known> {
        self.agreed_signature(functions, container, |d| pick_all(d.returns_collection.as_deref()?, picks))
    }

    /// The type the given functions' signatures agree on, as `written` reads it from each.
    fn agreed_signature(
        &self,
        functions: &[DefId],
        container: Option<&str>,
        written: impl Fn(&Def) -> Option<String>,
    ) -> Option<Known> {
        let mut agreed: Option<Known> = None;
        for id in functions {
            let def: &Def = self.def(id)?;
            let written = written(def)?;
            let known = match written.as_str() {
                "Self" | "this" => Known::Project(def.container.clone().or(container.map(str::to_string))?),
                written => self.named_type(&id.file, &self.file(&id.file)?.facts, written, container, None)?,
            };
            match &agreed {
                Some(previous) if *previous != known => return None,
                _ => agreed = Some(known),
            }
        }
        agreed
    }

    /// A type name as written in `file`, on `line` (whose functions' own imports it sees; `None`
    /// in a signature, which sees the module's): through an import alias to a project type, a
    /// built-in or library type, or unknown (a type parameter, a name defined nowhere).
    fn named_type(
        &self,
        file: &str,
        facts: &FileFacts,
        written: &str,
        container: Option<&str>,
        line: Option<u32>,
    ) -> Option<Known> {
        if matches!(written, "Self" | "this") {
            return container.map(|c| Known::Project(c.to_string()));
        }
        if let Some(alternatives) = bindings::union_alternatives(written) {
            let each = alternatives.map(|alternative| self.named_type(file, facts, alternative, container, line));
            return union(each.collect::<Option<Vec<_>>>()?);
        }
        // A Rust type parameter's bounds: the project's traits among them (a library trait's
        // methods are no project method, and the others' are told apart by name).
        if let Some(traits) = bindings::bound_traits(written) {
            let mut project: Vec<String> = Vec::new();
            for bound in traits {
                if let Some(Known::Project(name)) = self.named_type(file, facts, bound, container, line)
                    && !project.contains(&name)
                {
                    project.push(name);
                }
            }
            return match project.len() {
                0 => None,
                1 => Some(Known::Project(project.remove(0))),
                _ => Some(Known::All(project)),
            };
        }
        let language = language_of(facts)?;
        // A qualified name: its module decides (`pathlib.Path` is a library's, `models.Order` or
        // Go's `pkg.Type` from a project module is the type of that name).
        if let Some((module, name)) = written.rsplit_once('.') {
            let head = module.split('.').next().unwrap_or(module);
            let import = facts.import_seen(head, line);
            if import.is_some_and(|i| self.is_foreign_import(file, language, i)) {
                return Some(Known::Foreign);
            }
            let project = self.all_named(name, |_, d| d.is_type()).map(|_| Known::Project(name.to_string()));
            // Java's `java.io.PrintWriter`: a library's, as below.
            return project.or_else(|| (language == Language::Java).then_some(Known::Foreign));
        }
        let import = facts.import_seen(written, line);
        if import.is_some_and(|i| self.is_foreign_import(file, language, i)) {
            return Some(Known::Foreign);
        }
        // An imported type, followed through re-exports and renames to its definition.
        if let Some(import) = import {
            let found = self.exact(self.import_binds(file, language, import, &Def::is_type, 0));
            let def = found.and_then(|f| f.targets.first().and_then(|id| self.def(id)).map(|d| d.name.clone()));
            return def.map(Known::Project);
        }
        if self.all_named(written, |_, d| d.is_type()).is_some() {
            return Some(Known::Project(written.to_string()));
        }
        // Java declares every type it names: one the project does not define is a library's
        // (java.lang's `System`, `PrintWriter` from `import java.io.*`, or written whole as
        // `java.io.PrintWriter`), but for a type parameter
        // (`T`, `E2`, as the convention names them), whose bound may be the project's.
        if language == Language::Java && !is_type_parameter(written) {
            return Some(Known::Foreign);
        }
        let type_name = written;
        bindings::builtin_type(language, type_name).then_some(Known::Foreign)
    }
}

/// A Java type parameter by the naming convention: one capital letter, maybe digits (`T`, `E2`).
fn is_type_parameter(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase()) && chars.all(|c| c.is_ascii_digit())
}

/// The one type all evaluations agree on; `None` when one is unknown or two differ.
fn agree(mut types: impl Iterator<Item = Option<Known>>) -> Option<Known> {
    let first = types.next()??;
    types.all(|t| t.as_ref() == Some(&first)).then_some(first)
}

/// The types declared around reference `r` in its file, innermost first: the class whose method
/// holds it, then the classes that class is nested in (an anonymous class is no definition: its
/// methods' references are its enclosing method's).
fn enclosing_types<'a>(facts: &'a FileFacts, r: &Ref) -> Vec<&'a Def> {
    let mut around: Vec<&Def> =
        facts.defs.iter().filter(|d| d.is_type() && d.start_line <= r.line && r.line <= d.end_line).collect();
    around.sort_by_key(|d| std::cmp::Reverse(d.start_line));
    around
}

/// A reference standing where `binding` was bound (in the function that bound it, or at the top
/// level): where the expression it binds is evaluated.
fn site(binding: &Binding) -> Ref {
    Ref {
        name: String::new(),
        kind: RefKind::Method,
        line: binding.line,
        column: 0,
        receiver: None,
        caller: binding.scope,
    }
}
