//! Go's interfaces are satisfied structurally: a type implements an interface when its methods
//! include every method the interface lists, with no declaration saying so. A call through an
//! interface (`f.Value.Set(s)`) may run any implementation's method, and gopls lists it among the
//! callers of each; these are the relations the callers answer follows. Method sets are read
//! syntactically, by name: own methods and those promoted through embedded types (the embedded
//! names are the type's `bases`); receiver kinds (`T` or `*T`) and signatures are not compared.
//! A type is named with its package (its directory): another package's type of the same name is
//! another type.

use std::collections::{BTreeMap, BTreeSet};

use lean_ctx_outline::Language;

use crate::facts::Def;
use crate::graph::{DefId, Graph, language_of};
use crate::types::MAX_BASES;

/// For each method name, the types declaring a method of that name, by package and by name alone.
#[derive(Default)]
struct Owners<'a> {
    in_package: BTreeMap<&'a str, BTreeSet<(&'a str, &'a str)>>,
    anywhere: BTreeMap<&'a str, BTreeSet<&'a str>>,
}

impl Graph {
    /// For Go method `def` (`id`) of type `container`: the methods of the same name it may be
    /// called through or may run in place of — for a concrete type's method, those of the
    /// interfaces the type implements; for an interface's method, those of the types
    /// implementing the interface, and of the interfaces whose method lists contain or are
    /// contained in its own.
    pub(crate) fn interface_family(&self, id: &DefId, def: &Def, container: &str) -> BTreeSet<DefId> {
        let package = package_of(&id.file);
        let itself = |member: &DefId, owner: &str| owner == container && package_of(&member.file) == package;
        let members = self.go_members(&def.name).filter(|(member, owner)| !itself(member, owner));
        let Some(own) = self.interface_methods(container, Some(package), MAX_BASES) else {
            // A concrete type: the interfaces declaring the method whose lists it covers, or a type
            // it is promoted to covers (go-toml's `matchBase.setNext`, embedded in six `pathFn`
            // implementations that do not have `setNext` of their own).
            let mut hosts = vec![(container.to_string(), package.to_string())];
            hosts.extend(self.promoted_to(container, &def.name, MAX_BASES));
            return members
                .filter(|(member, owner)| {
                    let listed = self.interface_methods(owner, Some(package_of(&member.file)), MAX_BASES);
                    listed.is_some_and(|names| {
                        let others: Vec<String> = names.into_iter().filter(|name| *name != def.name).collect();
                        let owners = self.method_owners(&others);
                        hosts.iter().any(|(host, package)| {
                            others.iter().all(|name| owners.has(self, host, package, name, MAX_BASES))
                        })
                    })
                })
                .map(|(member, _)| member.clone())
                .collect();
        };
        // Every member declares `def.name`; the rest of the list is looked up once per name.
        let others: Vec<String> = own.iter().filter(|name| **name != def.name).cloned().collect();
        let owners = self.method_owners(&others);
        members
            .filter(|(member, owner)| {
                let owner_package = package_of(&member.file);
                match self.interface_methods(owner, Some(owner_package), MAX_BASES) {
                    Some(theirs) => theirs.is_subset(&own) || own.is_subset(&theirs),
                    None => others.iter().all(|name| owners.has(self, owner, owner_package, name, MAX_BASES)),
                }
            })
            .map(|(member, _)| member.clone())
            .collect()
    }

    /// The Go types embedding `type_name`, directly or through each other to `depth` levels, whose
    /// method sets its method `name` is promoted to (those declaring a `name` of their own do not
    /// take it), each with its package.
    fn promoted_to(&self, type_name: &str, name: &str, depth: u8) -> Vec<(String, String)> {
        let mut found = Vec::new();
        if depth == 0 {
            return found;
        }
        let files: BTreeSet<&String> = self.refs_named(type_name).map(|(file, _)| file).collect();
        for file in files.into_iter().filter(|file| self.is_go(file)) {
            let Some(entry) = self.file(file) else { continue };
            let embeds = |d: &&Def| {
                d.is_type() && d.name != type_name && d.bases.iter().any(|b| b.rsplit('.').next() == Some(type_name))
            };
            for embedder in entry.facts.defs.iter().filter(embeds) {
                let package = package_of(file);
                let shadowed =
                    self.go_members(name).any(|(m, owner)| owner == embedder.name && package_of(&m.file) == package);
                if shadowed || found.iter().any(|(t, p): &(String, String)| *t == embedder.name && p == package) {
                    continue;
                }
                found.push((embedder.name.clone(), package.to_string()));
                found.extend(self.promoted_to(&embedder.name, name, depth - 1));
            }
        }
        found
    }

    /// The Go methods named `name`, each with the type declaring it.
    fn go_members<'a>(&'a self, name: &'a str) -> impl Iterator<Item = (&'a DefId, &'a str)> + 'a {
        self.defs_named(name).filter_map(move |id| {
            let owner = self.def(id).filter(|d| d.is_callable())?.container.as_deref()?;
            self.is_go(&id.file).then_some((id, owner))
        })
    }

    /// Who declares methods of each of `names`, read in one pass over each name's definitions.
    fn method_owners<'a>(&'a self, names: &'a [String]) -> Owners<'a> {
        let mut owners = Owners::default();
        for name in names {
            for (member, owner) in self.go_members(name) {
                owners.in_package.entry(name).or_default().insert((package_of(&member.file), owner));
                owners.anywhere.entry(name).or_default().insert(owner);
            }
        }
        owners
    }

    /// The names of the methods Go interface `type_name` lists, its own and its embedded
    /// interfaces'; `None` when the package (any package, for `None`) declares no interface of
    /// that name. An embedded interface is looked for in the same package first.
    fn interface_methods(&self, type_name: &str, package: Option<&str>, depth: u8) -> Option<BTreeSet<String>> {
        let mut names = BTreeSet::new();
        let mut found = false;
        for id in self.defs_named(type_name) {
            if package.is_some_and(|p| package_of(&id.file) != p) || !self.is_go(&id.file) {
                continue;
            }
            let Some(entry) = self.file(&id.file) else { continue };
            if self.def(id).is_none_or(|d| d.kind != "interface") {
                continue;
            }
            found = true;
            let listed =
                entry.facts.defs.iter().filter(|d| d.container.as_deref() == Some(type_name) && d.is_callable());
            names.extend(listed.map(|d| d.name.clone()));
        }
        if found && depth > 0 {
            for base in self.bases(type_name) {
                let embedded = self
                    .interface_methods(&base, package, depth - 1)
                    .or_else(|| self.interface_methods(&base, None, depth - 1));
                names.extend(embedded.into_iter().flatten());
            }
        }
        found.then_some(names)
    }

    fn is_go(&self, file: &str) -> bool {
        self.file(file).and_then(|f| language_of(&f.facts)) == Some(Language::Go)
    }
}

impl Owners<'_> {
    /// Whether `type_name` of `package` has a method `name`: its own, or promoted from a type it
    /// embeds (an embedded type's package is not known here: any type of that name counts).
    fn has(&self, graph: &Graph, type_name: &str, package: &str, name: &str, depth: u8) -> bool {
        if self.in_package.get(name).is_some_and(|owners| owners.contains(&(package, type_name))) {
            return true;
        }
        depth > 0 && graph.bases(type_name).iter().any(|base| self.promotes(graph, base, name, depth - 1))
    }

    fn promotes(&self, graph: &Graph, type_name: &str, name: &str, depth: u8) -> bool {
        if self.anywhere.get(name).is_some_and(|owners| owners.contains(type_name)) {
            return true;
        }
        depth > 0 && graph.bases(type_name).iter().any(|base| self.promotes(graph, base, name, depth - 1))
    }
}

/// A Go file's package: its directory.
pub(crate) fn package_of(file: &str) -> &str {
    file.rsplit_once('/').map_or("", |(dir, _)| dir)
}

#[cfg(test)]
mod tests {
    use crate::callgraph::Lookup;
    use crate::facts::extract;
    use crate::graph::{FileEntry, Graph, Stamp};
    use lean_ctx_outline::Language;

    fn graph(files: &[(&str, &str)]) -> Graph {
        let mut graph = Graph::new();
        for (path, source) in files {
            graph.upsert(path, FileEntry { stamp: Stamp::default(), facts: extract(Language::Go, source) });
        }
        graph
    }

    /// The methods named with the answer for `symbol` in `file`, as `file Type::name`.
    fn family(graph: &Graph, symbol: &str, file: &str) -> Vec<String> {
        let Lookup::Found(targets) = graph.lookup(symbol, Some(file)) else { panic!("{symbol} in {file}") };
        let walk = graph.callers(&targets, 1, 100, crate::Interrupt::NEVER).unwrap();
        walk.overrides.iter().map(|id| format!("{} {}", id.file, graph.summary(id).unwrap().name)).collect()
    }

    #[test]
    fn another_package_type_of_an_interface_name_is_no_interface() {
        let store = "package store\n\ntype Value interface {\n\tSet(string) error\n}\n\ntype count int\n\n\
                     func (c *count) Set(s string) error { return nil }\n";
        let cli = "package main\n\ntype Value struct{}\n\nfunc (v *Value) Set(s string) error { return nil }\n";
        let graph = graph(&[("store/store.go", store), ("cmd/main.go", cli)]);
        // `count` implements `store.Value`; `main.Value` is a struct, so not an interface `count`
        // could be called through, and it implements `store.Value` itself.
        assert_eq!(family(&graph, "count.Set", "store/store.go"), ["store/store.go Value::Set"]);
        assert_eq!(
            family(&graph, "Value.Set", "store/store.go"),
            ["cmd/main.go Value::Set", "store/store.go count::Set"]
        );
        assert_eq!(family(&graph, "Value.Set", "cmd/main.go"), ["store/store.go Value::Set"]);
    }

    /// QA (go-toml's `matchBase.setNext`): a method a struct is given by an embedded type is the
    /// interface's method through that struct, so a call through the interface is a caller of
    /// the embedded type's method; a struct declaring the method itself does not take it.
    #[test]
    fn a_method_promoted_to_an_implementation_is_in_its_interfaces_family() {
        let source = "package e\n\ntype Fn interface {\n\tSetNext(n Fn)\n\tCall()\n}\n\n\
                      type base struct{ next Fn }\n\nfunc (b *base) SetNext(n Fn) { b.next = n }\n\n\
                      type keyFn struct{ base }\n\nfunc (k *keyFn) Call() {}\n\n\
                      type lone struct{}\n\nfunc (l *lone) SetNext(n Fn) {}\n\n\
                      func Build(f Fn, g Fn) { f.SetNext(g) }\n";
        let graph = graph(&[("e/a.go", source)]);
        assert_eq!(family(&graph, "base.SetNext", "e/a.go"), ["e/a.go Fn::SetNext"]);
        let Lookup::Found(targets) = graph.lookup("base.SetNext", Some("e/a.go")) else { panic!("base.SetNext") };
        let walk = graph.callers(&targets, 1, 100, crate::Interrupt::NEVER).unwrap();
        let callers: Vec<String> = walk.edges.iter().map(|e| format!("{}:{}", e.file, e.line)).collect();
        assert_eq!(callers, ["e/a.go:20"]);
        // `lone` has SetNext but no Call: no implementation, so no family.
        assert_eq!(family(&graph, "lone.SetNext", "e/a.go"), Vec::<String>::new());
    }
}
