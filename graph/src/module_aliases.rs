//! Names a module gives one of its functions or classes, or a name it imports, by assignment or
//! by an export list: Python's `ib = attr = attrib` (attrs' public spelling of `attrib`), `Str =
//! String` (marshmallow's of its field classes) and
//! JavaScript's and TypeScript's `export { internalTwo as publicTwo }`. A call through such a
//! name (`attr.ib()` after `import attr`, `p2()` after `import { publicTwo as p2 } from
//! './util'`) runs what it names; it was taken for a library's call, and the function's callers
//! and the tests a change of it reaches left it out.
//!
//! An alias of a function or class defined here is a definition of its own over the same lines (as each
//! member a JavaScript function is assigned to is, see [`crate::facts::Def::aliases`]); an alias
//! of an imported name is an import of it under the new name, which files importing this one see.

use lean_ctx_outline::{Definition, Kind, Language};

use crate::facts::{FileFacts, Import};

/// Adds to `facts` the aliases the module-level `items` of a file in `language` write.
pub(crate) fn add(language: Language, items: &[Definition], facts: &mut FileFacts) {
    for (alias, target, line) in written(language, items) {
        let defined = facts.defs.iter().position(|d| {
            d.name == target
                && d.container.is_none()
                && d.scope.is_none()
                && (d.kind == Kind::Function.label() || d.kind == Kind::Class.label())
        });
        if let Some(at) = defined {
            let mut def = facts.defs[at].clone();
            def.aliases = [vec![target.to_string()], def.aliases.clone()].concat();
            def.name = alias.to_string();
            facts.defs[at].aliases.push(alias.to_string());
            facts.defs.push(def);
            continue;
        }
        let imported = facts.imports.iter().find(|import| import.local == target && import.scope.is_none());
        if let Some(import) = imported.cloned() {
            facts.imports.push(Import { local: alias.to_string(), line, reexport: true, ..import });
        }
    }
}

/// `(alias, target, line)` for each alias the module-level `items` write.
fn written(language: Language, items: &[Definition]) -> Vec<(&str, &str, u32)> {
    let mut out = Vec::new();
    for item in items {
        match language {
            Language::Python if matches!(item.kind, Kind::Variable | Kind::Const) => {
                let parts: Vec<&str> = item.signature.split(" = ").map(str::trim).collect();
                if let [targets @ .., value] = &parts[..]
                    && !targets.is_empty()
                    && [value].into_iter().chain(targets).all(|name| identifier(name))
                {
                    out.extend(
                        targets
                            .iter()
                            .filter(|target| *target != value)
                            .map(|target| (*target, *value, item.head_line)),
                    );
                }
            }
            Language::JavaScript | Language::TypeScript | Language::Tsx if item.kind == Kind::Export => {
                // `export { a as b } from './m'` is an import of the other module's (see `imports`).
                if let (renames, false) = item.export_renames() {
                    out.extend(renames.into_iter().map(|(local, exported)| (exported, local, item.head_line)));
                }
            }
            _ => {}
        }
    }
    out
}

fn identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_') && chars.all(|c| c.is_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use lean_ctx_outline::Language;

    use crate::facts::extract;

    #[test]
    fn a_python_alias_of_a_function_is_one_of_its_names_and_of_an_import_an_import() {
        let source = "from ._make import attrib\n\ndef attrs(maybe_cls=None):\n    pass\n\ns = attributes = attrs\nib = attr = attrib\nVERSION = '1'\n";
        let facts = extract(Language::Python, source);
        let named: Vec<(&str, u32, Vec<String>)> = facts
            .defs
            .iter()
            .filter(|d| d.kind == "fn")
            .map(|d| (d.name.as_str(), d.start_line, d.aliases.clone()))
            .collect();
        let attrs = |others: &[&str]| others.iter().map(|name| name.to_string()).collect::<Vec<_>>();
        assert_eq!(
            named,
            [
                ("attrs", 3, attrs(&["s", "attributes"])),
                ("s", 3, attrs(&["attrs"])),
                ("attributes", 3, attrs(&["attrs", "s"]))
            ]
        );
        let imports: Vec<(&str, Option<&str>, &str, bool)> = facts
            .imports
            .iter()
            .map(|i| (i.local.as_str(), i.name.as_deref(), i.module.as_str(), i.reexport))
            .collect();
        assert_eq!(
            imports,
            [
                ("attrib", Some("attrib"), "._make", false),
                ("ib", Some("attrib"), "._make", true),
                ("attr", Some("attrib"), "._make", true)
            ]
        );
    }

    /// QA (marshmallow): `Str = String` is how the module names its field classes; the 80 calls
    /// of `fields.Str(…)` were no callers of `String`, and `Str` was no symbol to ask about.
    #[test]
    fn a_python_alias_of_a_class_is_one_of_its_names() {
        let source = "class String:\n    pass\n\n\nStr = String\n";
        let facts = extract(Language::Python, source);
        let named: Vec<(&str, &str, u32, Vec<String>)> = facts
            .defs
            .iter()
            .map(|d| (d.name.as_str(), d.kind.as_str(), d.start_line, d.aliases.clone()))
            .filter(|(_, kind, _, _)| *kind == "class")
            .collect();
        assert_eq!(
            named,
            [("String", "class", 1, vec!["Str".to_string()]), ("Str", "class", 1, vec!["String".to_string()])]
        );
    }

    #[test]
    fn an_es_export_list_names_a_function_anew_and_a_re_export_stays_an_import() {
        let source = "import { helper } from './util';\nfunction internalTwo() {}\nexport { internalTwo as publicTwo, helper as aid };\nexport { x as y } from './other';\n";
        let facts = extract(Language::TypeScript, source);
        assert!(facts.defs.iter().any(|d| d.name == "publicTwo" && d.aliases == ["internalTwo"] && d.start_line == 2));
        assert!(
            facts
                .imports
                .iter()
                .any(|i| i.local == "aid" && i.name.as_deref() == Some("helper") && i.module == "./util")
        );
        assert!(
            facts.imports.iter().any(|i| i.local == "y" && i.name.as_deref() == Some("x") && i.module == "./other")
        );
        assert!(!facts.defs.iter().any(|d| d.name == "y"), "another module's");
    }
}
