//! The type of a receiver, worked out from what the code writes: a name's binding
//! ([`crate::bindings`]), `self`/`this`, an attribute assigned in the type's methods or declared
//! in its body, and the return types signatures write. `client.getCache().find()` is a call of
//! `find` on whatever `getCache` of `client`'s type returns.
//!
//! Nothing is guessed: a step that cannot be worked out (no binding, an unwritten return type,
//! a type parameter) makes the whole receiver unknown, and resolution falls back to the name.

use lean_ctx_outline::Language;

use crate::bindings::{self, Binding, Bound, Segment};
use crate::facts::{Def, FileFacts, Ref, RefKind};
use crate::graph::{DefId, Graph, imported_name, language_of};

/// How many bindings and return types one receiver's evaluation follows at most.
pub(crate) const MAX_STEPS: u8 = 8;
/// How many levels of base classes a member is looked up through.
pub(crate) const MAX_BASES: u8 = 4;

/// What a receiver is known to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Known {
    /// A type the project defines, by name.
    Project(String),
    /// A built-in or library type: nothing the project defines is called on it.
    Foreign,
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
        let steps = bindings::segments(expr)?;
        let (head, rest) = steps.split_first()?;
        let mut known = self.head_type(file, facts, r, *head, budget)?;
        for step in rest {
            let Known::Project(type_name) = known else { return Some(Known::Foreign) };
            known = self.member_type(&type_name, *step, budget - 1)?;
        }
        Some(known)
    }

    /// The first step of a chain: `self`, a bound name, a called function or class, an imported
    /// library name, a project type.
    fn head_type(&self, file: &str, facts: &FileFacts, r: &Ref, head: Segment<'_>, budget: u8) -> Option<Known> {
        let language = language_of(facts)?;
        let caller = r.caller.and_then(|i| facts.defs.get(i as usize));
        let is_self = matches!(head.name, "self" | "this" | "cls" | "Self")
            || caller.is_some_and(|c| c.receiver_var.as_deref() == Some(head.name));
        if is_self && !head.call {
            return caller.and_then(|c| c.container.clone()).map(Known::Project);
        }
        // A Rust path: `Store::open()` makes what `Store`'s `open` returns.
        if let Some((path, function)) = head.name.rsplit_once("::") {
            let type_name = path.rsplit("::").next().unwrap_or(path);
            let Some(Known::Project(type_name)) = self.named_type(file, facts, type_name, None) else { return None };
            let functions = self.all_named(function, |_, d| d.container.as_deref() == Some(type_name.as_str()))?;
            return head.call.then(|| self.agreed_return(&functions, Some(&type_name))).flatten();
        }
        match bindings::name_type(&facts.bindings, r, head.name) {
            Some(_) if head.call => None,
            Some(Bound::Type(written)) => self.named_type(file, facts, written, None),
            Some(Bound::Value(value)) => self.type_of(file, facts, r, value, budget - 1),
            Some(Bound::Unknown) => None,
            None if head.call => self.call_type(file, facts, language, head.name),
            // Java reads a field of the caller's own type without `this.`.
            None if let Some(field) = caller
                .and_then(|c| c.container.as_deref())
                .filter(|_| language == Language::Java)
                .and_then(|container| self.attribute(container, head.name, budget)) =>
            {
                Some(field)
            }
            None => self.named_type(file, facts, head.name, None).filter(|known| match known {
                // A bare project type is its own receiver (`Order.of()`); a value of it is not.
                Known::Project(_) => true,
                Known::Foreign => facts.imports.iter().any(|i| i.local == head.name),
            }),
        }
    }

    /// What a call of the bare name `callee` makes: an instance of a Python class, or what a
    /// project function of that name (the only one, or all agreeing) says it returns.
    fn call_type(&self, file: &str, facts: &FileFacts, language: Language, callee: &str) -> Option<Known> {
        let is_class = self.all_named(callee, |_, d| d.is_type()).is_some();
        if is_class && language == Language::Python {
            return Some(Known::Project(callee.to_string()));
        }
        let local = self.in_file(file, |d| d.name == callee && d.container.is_none() && d.is_callable());
        let functions = local.or_else(|| self.all_named(callee, |_, d| d.container.is_none() && d.is_callable()))?;
        self.agreed_return(&functions, None).or_else(|| {
            // A library function: its result is no project value.
            facts
                .imports
                .iter()
                .any(|i| i.local == callee && self.is_foreign_import(file, language, i))
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
        let members = self
            .all_named(step.name, |_, d| d.container.as_deref() == Some(type_name) && d.is_callable())
            .or_else(|| self.inherited(type_name, step.name, &Def::is_callable, MAX_BASES));
        if step.call {
            return self.agreed_return(&members?, Some(type_name));
        }
        if let Some(known) = self.attribute(type_name, step.name, budget) {
            return Some(known);
        }
        // A property: a method read as an attribute.
        self.agreed_return(&members?, Some(type_name))
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
        for class in self.all_named(type_name, |_, d| d.is_type())? {
            let Some(entry) = self.file(&class.file) else { continue };
            let Some(def) = entry.facts.defs.get(class.index as usize) else { continue };
            // The types the class's head line names: its bases (`class A(B)`, `extends B`).
            let bases = entry.facts.refs.iter().filter(|r| {
                r.kind == RefKind::Type && r.caller == Some(class.index) && r.line == def.line && r.name != def.name
            });
            for base in bases {
                let Some(Known::Project(base)) = self.named_type(&class.file, &entry.facts, &base.name, None) else {
                    continue;
                };
                let own = self.all_named(name, |_, d| d.container.as_deref() == Some(base.as_str()) && fits(d));
                if let Some(found) = own.or_else(|| self.inherited(&base, name, fits, depth - 1)) {
                    return Some(found);
                }
            }
        }
        None
    }

    /// Attribute `name` of `type_name` from the bindings of the files that define the type.
    fn attribute(&self, type_name: &str, name: &str, budget: u8) -> Option<Known> {
        let homes = self.all_named(type_name, |_, d| d.is_type())?;
        for home in homes {
            let Some(entry) = self.file(&home.file) else { continue };
            let facts = &entry.facts;
            let found: Vec<&Binding> = bindings::attribute_bindings(&facts.bindings, &facts.defs, type_name, name);
            let Some(first) = found.first() else { continue };
            return match bindings::agreed(found.iter().copied())? {
                Bound::Type(written) => self.named_type(&home.file, facts, written, Some(type_name)),
                Bound::Value(value) => {
                    // Evaluated where it was bound: in the method that assigned it.
                    let at = Ref {
                        name: String::new(),
                        kind: RefKind::Method,
                        line: first.line,
                        receiver: None,
                        caller: first.scope,
                    };
                    self.type_of(&home.file, facts, &at, value, budget - 1)
                }
                Bound::Unknown => None,
            };
        }
        None
    }

    /// The return type the given functions agree on, read in their own files; `Self`/`this` is
    /// `container`.
    fn agreed_return(&self, functions: &[DefId], container: Option<&str>) -> Option<Known> {
        let mut agreed: Option<Known> = None;
        for id in functions {
            let def: &Def = self.def(id)?;
            let written = def.returns.as_deref()?;
            let known = match written {
                "Self" | "this" => Known::Project(def.container.clone().or(container.map(str::to_string))?),
                _ => self.named_type(&id.file, &self.file(&id.file)?.facts, written, container)?,
            };
            match &agreed {
                Some(previous) if *previous != known => return None,
                _ => agreed = Some(known),
            }
        }
        agreed
    }

    /// A type name as written in `file`: through an import alias to a project type, a built-in
    /// or library type, or unknown (a type parameter, a name defined nowhere).
    fn named_type(&self, file: &str, facts: &FileFacts, written: &str, container: Option<&str>) -> Option<Known> {
        if matches!(written, "Self" | "this") {
            return container.map(|c| Known::Project(c.to_string()));
        }
        let language = language_of(facts)?;
        // A qualified name: its module decides (`pathlib.Path` is a library's, `models.Order` or
        // Go's `pkg.Type` from a project module is the type of that name).
        if let Some((module, name)) = written.rsplit_once('.') {
            let head = module.split('.').next().unwrap_or(module);
            let import = facts.imports.iter().find(|i| i.local == head);
            if import.is_some_and(|i| self.is_foreign_import(file, language, i)) {
                return Some(Known::Foreign);
            }
            return self.all_named(name, |_, d| d.is_type()).map(|_| Known::Project(name.to_string()));
        }
        let import = facts.imports.iter().find(|i| i.local == written);
        if import.is_some_and(|i| self.is_foreign_import(file, language, i)) {
            return Some(Known::Foreign);
        }
        // An imported type, followed through re-exports and renames to its definition.
        if let Some(import) = import {
            let found = self.through_import(file, language, &import.module, imported_name(import), &Def::is_type, 0);
            let def = found.and_then(|f| f.targets.first().and_then(|id| self.def(id)).map(|d| d.name.clone()));
            return def.map(Known::Project);
        }
        if self.all_named(written, |_, d| d.is_type()).is_some() {
            return Some(Known::Project(written.to_string()));
        }
        let type_name = written;
        bindings::builtin_type(language, type_name).then_some(Known::Foreign)
    }
}
