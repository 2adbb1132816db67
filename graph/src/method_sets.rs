//! Go's interfaces are satisfied structurally: a type implements an interface when its methods
//! include every method the interface lists, with no declaration saying so. A call through an
//! interface (`f.Value.Set(s)`) may run any implementation's method, and gopls lists it among the
//! callers of each; these are the relations the callers answer follows. Method sets are read
//! syntactically, by name: own methods and those promoted through embedded types (the embedded
//! names are the type's `bases`); receiver kinds (`T` or `*T`) and signatures are not compared.

use std::collections::BTreeSet;

use lean_ctx_outline::Language;

use crate::facts::Def;
use crate::graph::{DefId, Graph, language_of};
use crate::types::MAX_BASES;

impl Graph {
    /// For Go method `def` of type `container`: the methods of the same name it may be called
    /// through or may run in place of — for a concrete type's method, those of the interfaces
    /// the type implements; for an interface's method, those of the types implementing the
    /// interface and of the interfaces it implements.
    pub(crate) fn interface_family(&self, def: &Def, container: &str) -> BTreeSet<DefId> {
        let Some(own) = self.interface_methods(container) else {
            // A concrete type: the interfaces declaring the method whose lists it covers.
            return self
                .go_members(&def.name, |owner| owner != container && self.is_interface(owner))
                .filter(|(_, owner)| self.covers(container, owner))
                .map(|(id, _)| id)
                .collect();
        };
        self.go_members(&def.name, |owner| owner != container)
            .filter(|(_, owner)| match self.interface_methods(owner) {
                // An interface listing fewer methods is implemented by this one.
                Some(theirs) => theirs.is_subset(&own) || own.is_subset(&theirs),
                None => own.iter().all(|name| self.has_method(owner, name, MAX_BASES)),
            })
            .map(|(id, _)| id)
            .collect()
    }

    /// Go methods named `name` declared by a type `keep` accepts, with that type.
    fn go_members<'a>(
        &'a self,
        name: &'a str,
        keep: impl Fn(&str) -> bool + 'a,
    ) -> impl Iterator<Item = (DefId, &'a str)> + 'a {
        self.defs_named(name).filter_map(move |id| {
            let def = self.def(id).filter(|d| d.is_callable())?;
            let owner = def.container.as_deref()?;
            (self.is_go(&id.file) && keep(owner)).then(|| (id.clone(), owner))
        })
    }

    /// Whether `type_name`'s methods include every one interface `interface` lists.
    fn covers(&self, type_name: &str, interface: &str) -> bool {
        self.interface_methods(interface)
            .is_some_and(|names| names.iter().all(|name| self.has_method(type_name, name, MAX_BASES)))
    }

    /// Whether Go type `type_name` has a method `name`, its own or promoted from a type it
    /// embeds.
    fn has_method(&self, type_name: &str, name: &str, depth: u8) -> bool {
        let own = self.go_members(name, |owner| owner == type_name).next().is_some();
        own || (depth > 0 && self.bases(type_name).iter().any(|base| self.has_method(base, name, depth - 1)))
    }

    fn is_interface(&self, type_name: &str) -> bool {
        self.defs_named(type_name).any(|id| self.is_go(&id.file) && self.def(id).is_some_and(|d| d.kind == "interface"))
    }

    /// The names of the methods Go interface `type_name` lists, its own and its embedded
    /// interfaces'; `None` when no Go interface of the project has that name.
    fn interface_methods(&self, type_name: &str) -> Option<BTreeSet<String>> {
        self.interface_methods_within(type_name, MAX_BASES)
    }

    fn interface_methods_within(&self, type_name: &str, depth: u8) -> Option<BTreeSet<String>> {
        let mut names = BTreeSet::new();
        let mut found = false;
        for id in self.defs_named(type_name) {
            let Some(entry) = self.file(&id.file).filter(|f| language_of(&f.facts) == Some(Language::Go)) else {
                continue;
            };
            if self.def(id).is_none_or(|d| d.kind != "interface") {
                continue;
            }
            found = true;
            let listed =
                entry.facts.defs.iter().filter(|d| d.container.as_deref() == Some(type_name) && d.is_callable());
            names.extend(listed.map(|d| d.name.clone()));
        }
        if depth > 0 {
            for base in self.bases(type_name) {
                names.extend(self.interface_methods_within(&base, depth - 1).into_iter().flatten());
            }
        }
        found.then_some(names)
    }

    fn is_go(&self, file: &str) -> bool {
        self.file(file).and_then(|f| language_of(&f.facts)) == Some(Language::Go)
    }
}
