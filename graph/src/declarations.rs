//! Declaration files: a Python stub (`m.pyi`) or a TypeScript declaration file (`m.d.ts`)
//! declares the types of a module implemented beside it (`m.py`; `m.ts`, `m.js`). The module's
//! users import it by the one module path, so a reference resolves to the declaration as often
//! as to the implementation — for a package whose `__init__.pyi` declares what its `__init__.py`
//! only re-exports, always to the declaration. A call of a declared function is a call of the
//! implementation, though: that is where its callers, its tests and its rank belong. So every
//! resolution takes a declaration for the definition it declares when the project has that
//! implementation (see [`Graph::settle`]); a declaration with none (a stub-only package, a
//! compiled extension's stub) stays the target.
//!
//! Type inference reads declarations as they are (see [`crate::types`]): their annotations are
//! what the implementation often leaves unwritten.

use std::collections::HashSet;

use lean_ctx_outline::Language;

use crate::facts::Def;
use crate::graph::{DefId, Graph, language_of};

/// Each declaration file suffix with the suffixes of the files it may declare, most likely first.
const DECLARES: [(&str, &[&str]); 4] = [
    (".pyi", &[".py"]),
    (".d.ts", &[".ts", ".tsx", ".js", ".jsx"]),
    (".d.mts", &[".mts", ".mjs"]),
    (".d.cts", &[".cts", ".cjs"]),
];

/// `a/b` for the declaration file `a/b.pyi` or `a/b.d.ts`; `None` for any other file.
pub fn declared_stem(file: &str) -> Option<&str> {
    DECLARES.iter().find_map(|(suffix, _)| file.strip_suffix(suffix))
}

pub(crate) fn is_declaration(file: &str) -> bool {
    declared_stem(file).is_some()
}

/// The files declaration file `file` may declare, most likely first.
fn implementations(file: &str) -> Vec<String> {
    DECLARES
        .iter()
        .filter_map(|(suffix, declared)| Some((file.strip_suffix(suffix)?, declared)))
        .flat_map(|(stem, declared)| declared.iter().map(move |ext| format!("{stem}{ext}")))
        .collect()
}

impl Graph {
    /// `targets` with each definition of a declaration file replaced by the definitions it
    /// declares, where the project has them; in `DefId` order.
    pub(crate) fn settle(&self, targets: Vec<DefId>) -> Vec<DefId> {
        if !targets.iter().any(|id| is_declaration(&id.file)) {
            return targets;
        }
        let mut settled: Vec<DefId> =
            targets.into_iter().flat_map(|id| self.implementation(&id).unwrap_or_else(|| vec![id])).collect();
        // A declaration not beside its module (a package's `types` entry, commander's
        // `typings/index.d.ts`) gives way to a definition of the same name in the same type among
        // the targets: it has no body to run, and as a second candidate it made every call of a
        // method it declares ambiguous.
        let implemented: HashSet<(&str, Option<&str>)> = settled
            .iter()
            .filter(|id| !is_declaration(&id.file))
            .filter_map(|id| self.def(id))
            .map(|d| (d.name.as_str(), d.container.as_deref()))
            .collect();
        let declared_elsewhere = |id: &DefId| {
            is_declaration(&id.file)
                && self.def(id).is_some_and(|d| implemented.contains(&(d.name.as_str(), d.container.as_deref())))
        };
        let keep: Vec<bool> = settled.iter().map(|id| !declared_elsewhere(id)).collect();
        let mut keep = keep.into_iter();
        settled.retain(|_| keep.next().unwrap_or(true));
        settled.sort();
        settled.dedup();
        settled
    }

    /// What declaration `id` declares in the module implemented beside its file: the same name
    /// at the module's top level (its own or re-exported), or the same member of the type of
    /// that name.
    fn implementation(&self, id: &DefId) -> Option<Vec<DefId>> {
        let def = self.def(id)?;
        let (module, language) = implementations(&id.file).into_iter().find_map(|file| {
            let language = language_of(&self.file(&file)?.facts)?;
            Some((file, language))
        })?;
        let Some(container) = def.container.as_deref() else {
            return self.module_level(&module, language, &def.name, &|_| true);
        };
        let members: Vec<DefId> = self
            .module_level(&module, language, container, &Def::is_type)?
            .iter()
            .filter_map(|home| {
                // The type under the name its own module gives it (`from ._a import A_ as A`).
                let type_name = &self.def(home)?.name;
                self.in_file(&home.file, |d| d.name == def.name && d.container.as_ref() == Some(type_name))
            })
            .flatten()
            .collect();
        (!members.is_empty()).then_some(members)
    }

    /// [`Graph::module_level_named`], none of a declaration.
    fn module_level(
        &self,
        module: &str,
        language: Language,
        name: &str,
        fits: &dyn Fn(&Def) -> bool,
    ) -> Option<Vec<DefId>> {
        let found = self.module_level_named(module, language, name, fits)?;
        let found: Vec<DefId> = found.into_iter().filter(|id| !is_declaration(&id.file)).collect();
        (!found.is_empty()).then_some(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declaration_file_declares_the_module_of_its_stem() {
        assert_eq!(declared_stem("pkg/__init__.pyi"), Some("pkg/__init__"));
        assert_eq!(declared_stem("src/lib.d.ts"), Some("src/lib"));
        assert_eq!(declared_stem("src/lib.ts"), None);
        assert_eq!(declared_stem("pkg/m.py"), None);
        assert_eq!(implementations("pkg/m.pyi"), ["pkg/m.py"]);
        assert_eq!(implementations("lib.d.mts"), ["lib.mts", "lib.mjs"]);
        assert!(implementations("lib.ts").is_empty());
    }
}
