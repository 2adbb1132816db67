//! Imports and re-exports per language, read from the top-level statements of a file (and a
//! JavaScript function's `require`, see [`crate::commonjs`], or a Python function's `import`):
//! which local name stands for which item (or module) of which module.

use lean_ctx_outline::Language;
use lean_ctx_outline::tree_sitter::Node;

use crate::facts::Import;

/// What a file's top-level statements say about modules.
pub(crate) struct Module {
    /// Its imports in source order.
    pub(crate) imports: Vec<Import>,
    /// Its declared package (Java).
    pub(crate) package: Option<String>,
    /// See [`crate::FileFacts::default_members`].
    pub(crate) default_members: Vec<(String, String)>,
    /// See [`crate::FileFacts::default_export`].
    pub(crate) default_export: Option<String>,
    /// See [`crate::FileFacts::inline_modules`].
    pub(crate) inline_modules: Vec<(u32, u32)>,
}

pub(crate) fn extract(language: Language, root: Node, source: &str) -> Module {
    let mut reader = Reader {
        source,
        out: Vec::new(),
        package: None,
        default_members: Vec::new(),
        default_export: None,
        inline: Vec::new(),
        inline_modules: Vec::new(),
    };
    let mut cursor = root.walk();
    for node in root.named_children(&mut cursor) {
        match language {
            Language::Rust => reader.rust_item(node),
            Language::Python => reader.python(node),
            Language::JavaScript | Language::TypeScript | Language::Tsx => reader.js(node),
            Language::Go => reader.go(node),
            Language::Java => reader.java(node),
            _ => {}
        }
    }
    if matches!(language, Language::JavaScript | Language::TypeScript | Language::Tsx) {
        reader.out.extend(crate::commonjs::required_in_functions(root, source));
        reader.out.sort_by_key(|import| import.line);
    }
    Module {
        imports: reader.out,
        package: reader.package,
        default_members: reader.default_members,
        default_export: reader.default_export,
        inline_modules: reader.inline_modules,
    }
}

struct Reader<'s> {
    source: &'s str,
    out: Vec<Import>,
    package: Option<String>,
    default_members: Vec<(String, String)>,
    default_export: Option<String>,
    /// The lines of the Rust inline modules (`mod tests { … }`) being read, outermost first: an
    /// import there is seen only in them, and its `super::` starts from them.
    inline: Vec<(u32, u32)>,
    inline_modules: Vec<(u32, u32)>,
}

fn line(node: Node) -> u32 {
    node.start_position().row as u32 + 1
}

impl Reader<'_> {
    fn text(&self, node: Node) -> String {
        node.utf8_text(self.source.as_bytes()).unwrap_or_default().split_whitespace().collect()
    }

    fn push(&mut self, node: Node, local: &str, name: Option<&str>, module: &str, reexport: bool) {
        self.out.push(Import {
            local: local.to_string(),
            name: name.map(str::to_string),
            module: module.to_string(),
            line: line(node),
            reexport,
            scope: self.inline.last().copied(),
        });
    }

    // Rust: `use a::b::{c, d as e, f::*};`, `pub use` re-exports.
    fn rust_item(&mut self, node: Node) {
        // `mod store;` makes the file `store.rs` (or `store/mod.rs`) a module of this one.
        if node.kind() == "mod_item" && node.child_by_field_name("body").is_none() {
            if let Some(name) = node.child_by_field_name("name") {
                let name = self.text(name);
                self.push_rust(node, &name, None, &format!("self::{name}"), false);
            }
            return;
        }
        // `#[cfg(test)] mod tests { use super::*; use crate::utf8::{self}; … }`: its imports are
        // its own.
        if node.kind() == "mod_item"
            && let Some(body) = node.child_by_field_name("body")
        {
            let lines = (line(node), node.end_position().row as u32 + 1);
            self.inline_modules.push(lines);
            self.inline.push(lines);
            let mut cursor = body.walk();
            for item in body.named_children(&mut cursor) {
                self.rust_item(item);
            }
            self.inline.pop();
            return;
        }
        if node.kind() != "use_declaration" {
            return;
        }
        let mut cursor = node.walk();
        let reexport = node.named_children(&mut cursor).any(|c| c.kind() == "visibility_modifier");
        if let Some(argument) = node.child_by_field_name("argument") {
            self.rust_tree(argument, &[], reexport, node);
        }
    }

    /// A Rust import, its module path written from the inline modules it is in as one from the
    /// file's own module (see [`crate::modules::out_of_inline`]).
    fn push_rust(&mut self, node: Node, local: &str, name: Option<&str>, module: &str, reexport: bool) {
        let module = crate::modules::out_of_inline(module, self.inline.len());
        self.push(node, local, name, &module, reexport);
    }

    fn rust_tree(&mut self, tree: Node, prefix: &[String], reexport: bool, statement: Node) {
        let joined = |segments: &[String]| segments.join("::");
        let path_of = |reader: &Self, node: Node| -> Vec<String> {
            let mut segments = prefix.to_vec();
            segments.extend(reader.text(node).split("::").filter(|s| !s.is_empty()).map(str::to_string));
            segments
        };
        match tree.kind() {
            "use_as_clause" => {
                let (Some(path), Some(alias)) = (tree.child_by_field_name("path"), tree.child_by_field_name("alias"))
                else {
                    return;
                };
                let segments = path_of(self, path);
                if let Some((name, module)) = segments.split_last() {
                    let alias = self.text(alias);
                    self.push_rust(statement, &alias, Some(name), &joined(module), reexport);
                }
            }
            "use_wildcard" => {
                let segments = path_of(self, tree);
                let module: Vec<String> = segments.into_iter().filter(|s| s != "*").collect();
                self.push_rust(statement, "*", None, &joined(&module), reexport);
            }
            "scoped_use_list" => {
                let segments = tree.child_by_field_name("path").map_or(prefix.to_vec(), |path| path_of(self, path));
                if let Some(list) = tree.child_by_field_name("list") {
                    self.rust_tree(list, &segments, reexport, statement);
                }
            }
            "use_list" => {
                let mut cursor = tree.walk();
                for child in tree.named_children(&mut cursor) {
                    self.rust_tree(child, prefix, reexport, statement);
                }
            }
            "scoped_identifier" | "identifier" | "self" | "crate" | "super" => {
                let segments = path_of(self, tree);
                match segments.split_last() {
                    // `use a::{self}` imports `a` itself.
                    Some((name, module)) if name == "self" => {
                        if let Some((name, module)) = module.split_last() {
                            self.push_rust(statement, name, Some(name), &joined(module), reexport);
                        }
                    }
                    Some((name, module)) => self.push_rust(statement, name, Some(name), &joined(module), reexport),
                    None => {}
                }
            }
            _ => {}
        }
    }

    // Python: `import a.b`, `import a.b as c`, `from .m import x as y`, `from m import *`.
    fn python(&mut self, node: Node) {
        match node.kind() {
            "import_statement" => {
                let mut cursor = node.walk();
                for name in node.children_by_field_name("name", &mut cursor) {
                    match name.kind() {
                        "aliased_import" => {
                            let module = name.child_by_field_name("name").map(|n| self.text(n)).unwrap_or_default();
                            let alias = name.child_by_field_name("alias").map(|n| self.text(n)).unwrap_or_default();
                            self.push(node, &alias, None, &module, false);
                        }
                        _ => {
                            let module = self.text(name);
                            self.push(node, &module, None, &module, false);
                        }
                    }
                }
            }
            "import_from_statement" => {
                let module = node.child_by_field_name("module_name").map(|n| self.text(n)).unwrap_or_default();
                let mut cursor = node.walk();
                let mut any = false;
                for name in node.children_by_field_name("name", &mut cursor) {
                    any = true;
                    let (original, local) = match name.kind() {
                        "aliased_import" => (
                            name.child_by_field_name("name").map(|n| self.text(n)).unwrap_or_default(),
                            name.child_by_field_name("alias").map(|n| self.text(n)).unwrap_or_default(),
                        ),
                        _ => (self.text(name), self.text(name)),
                    };
                    self.push(node, &local, Some(&original), &module, false);
                }
                if !any {
                    self.push(node, "*", None, &module, false);
                }
            }
            // `if TYPE_CHECKING:` and `try:` blocks hold imports too; so do function bodies (an
            // import deferred to the call, against a cycle or a slow module), whose names are
            // then the file's: what the function calls through them is found, and the file is
            // that module's importer.
            "if_statement"
            | "try_statement"
            | "block"
            | "else_clause"
            | "elif_clause"
            | "except_clause"
            | "finally_clause"
            | "with_statement"
            | "for_statement"
            | "while_statement"
            | "decorated_definition"
            | "function_definition"
            | "class_definition" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    self.python(child);
                }
            }
            _ => {}
        }
    }

    // JavaScript/TypeScript: `import d, { a, b as c } from './m'`, `import * as ns from`,
    // `export { a as b } from './m'`, `export * from './m'`, and CommonJS's `require` (see
    // [`crate::commonjs`]).
    fn js(&mut self, node: Node) {
        for (local, name, module) in crate::commonjs::required(node, self.source) {
            self.push(node, &local, name.as_deref(), &module, false);
        }
        if let Some(module) = crate::commonjs::reexported(node, self.source) {
            self.push(node, "*", None, &module, true);
        }
        let is_import = node.kind() == "import_statement";
        if !is_import && node.kind() != "export_statement" {
            return;
        }
        if let Some(value) = node.child_by_field_name("value").filter(|v| v.kind() == "object") {
            self.js_default_object(value);
        }
        if !is_import {
            self.js_default_export(node);
        }
        let Some(source) = node.child_by_field_name("source") else { return };
        let module = self.text(source).trim_matches(['"', '\'', '`']).to_string();
        let mut cursor = node.walk();
        let mut bound = false;
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "import_clause" => {
                    let mut inner = child.walk();
                    for part in child.named_children(&mut inner) {
                        match part.kind() {
                            "identifier" => {
                                let local = self.text(part);
                                self.push(node, &local, Some("default"), &module, false);
                            }
                            "namespace_import" => {
                                let mut names = part.walk();
                                if let Some(alias) = part.named_children(&mut names).find(|n| n.kind() == "identifier")
                                {
                                    let local = self.text(alias);
                                    self.push(node, &local, None, &module, false);
                                }
                            }
                            "named_imports" => self.js_specifiers(part, "import_specifier", &module, node, false),
                            _ => {}
                        }
                    }
                    bound = true;
                }
                "export_clause" => {
                    self.js_specifiers(child, "export_specifier", &module, node, true);
                    bound = true;
                }
                "namespace_export" => {
                    let mut names = child.walk();
                    if let Some(alias) = child.named_children(&mut names).last() {
                        let local = self.text(alias);
                        self.push(node, &local, None, &module, true);
                    }
                    bound = true;
                }
                _ => {}
            }
        }
        if !bound && !is_import {
            self.push(node, "*", None, &module, true);
        }
    }

    /// The binding `export default …` names: a declaration's name (`export default function
    /// realName`, `export default class Store`) or an identifier (`export default realName;`).
    fn js_default_export(&mut self, node: Node) {
        let mut cursor = node.walk();
        if !node.children(&mut cursor).any(|child| child.kind() == "default") {
            return;
        }
        let exported = node.child_by_field_name("declaration").or_else(|| node.child_by_field_name("value"));
        let name = exported.and_then(|e| match e.kind() {
            "identifier" => Some(e),
            _ => e.child_by_field_name("name"),
        });
        if let Some(name) = name {
            self.default_export = Some(self.text(name));
        }
    }

    /// `export default { f, parse: parseUrl }`: each property naming one of the module's bindings.
    fn js_default_object(&mut self, object: Node) {
        let mut cursor = object.walk();
        for property in object.named_children(&mut cursor) {
            let member = match property.kind() {
                "shorthand_property_identifier" => Some((self.text(property), self.text(property))),
                "pair" => property
                    .child_by_field_name("key")
                    .zip(property.child_by_field_name("value"))
                    .filter(|(key, value)| key.kind() == "property_identifier" && value.kind() == "identifier")
                    .map(|(key, value)| (self.text(key), self.text(value))),
                _ => None,
            };
            self.default_members.extend(member);
        }
    }

    fn js_specifiers(&mut self, list: Node, kind: &str, module: &str, statement: Node, reexport: bool) {
        let mut cursor = list.walk();
        for spec in list.named_children(&mut cursor).filter(|s| s.kind() == kind) {
            let Some(name) = spec.child_by_field_name("name") else { continue };
            let name = self.text(name);
            let local = spec.child_by_field_name("alias").map_or_else(|| name.clone(), |alias| self.text(alias));
            self.push(statement, &local, Some(&name), module, reexport);
        }
    }

    // Go: `import "net/http"`, `import nethttp "net/http"`, grouped imports.
    fn go(&mut self, node: Node) {
        match node.kind() {
            "import_declaration" | "import_spec_list" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    self.go(child);
                }
            }
            "import_spec" => {
                let Some(path) = node.child_by_field_name("path") else { return };
                let module = self.text(path).trim_matches(['"', '`']).to_string();
                let local = match node.child_by_field_name("name") {
                    Some(name) => self.text(name),
                    None => module.rsplit('/').next().unwrap_or(&module).to_string(),
                };
                match local.as_str() {
                    "_" => {}
                    "." => self.push(node, "*", None, &module, false),
                    _ => self.push(node, &local, None, &module, false),
                }
            }
            _ => {}
        }
    }

    // Java: `package a.b;`, `import a.b.C;`, `import a.b.*;`, `import static a.b.C.m;`.
    fn java(&mut self, node: Node) {
        match node.kind() {
            "package_declaration" => {
                let mut cursor = node.walk();
                let name = node.named_children(&mut cursor).find(|c| c.kind().ends_with("identifier"));
                self.package = name.map(|n| self.text(n));
            }
            "import_declaration" => {
                let mut cursor = node.walk();
                let children: Vec<Node> = node.named_children(&mut cursor).collect();
                let Some(path) = children.iter().find(|c| c.kind().ends_with("identifier")) else { return };
                let path = self.text(*path);
                if children.iter().any(|c| c.kind() == "asterisk") {
                    self.push(node, "*", None, &path, false);
                } else if let Some((module, name)) = path.rsplit_once('.') {
                    self.push(node, name, Some(name), module, false);
                }
            }
            _ => {}
        }
    }
}
