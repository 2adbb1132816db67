//! CommonJS imports: a module's top-level `const x = require('./m')` binds what `import` would,
//! so a Node project, or TypeScript's CommonJS output (`const m_1 = require("./m")`, called as
//! `(0, m_1.f)(…)`), has importers, dependents, tests and resolved calls like an ES module's.
//!
//! Read as the import each form is equivalent to: `const u = require('./m')` and TypeScript's
//! `__importStar(require('./m'))` / `__importDefault(…)` bind the module (`import * as u`), `const
//! { a, b: c } = require('./m')` binds its items (`import { a, b as c }`), `const a =
//! require('./m').a` one item, and TypeScript's `import u = require('./m')` the module;
//! `module.exports = require('./m')` and TypeScript's `__exportStar(require('./m'), exports)`
//! re-export the module whole (`export * from`). A `require` inside a function (loaded lazily)
//! is that function's import: the file depends on the module, and only the function's own lines
//! see the names it binds (see [`required_in_functions`]). On the other side, the outline's names
//! of a module's CommonJS exports are read as the module's own (see [`export_name`]).

use lean_ctx_outline::Language;
use lean_ctx_outline::tree_sitter::Node;

use crate::facts::{FileFacts, Import};

/// One name a `require` binds: (local name, the item's own name or `None` for the module, the
/// module as written).
pub(crate) type Required = (String, Option<String>, String);

/// The module a top-level statement re-exports whole: `module.exports = require('./m')`, or
/// TypeScript's `__exportStar(require('./m'), exports)` for `export * from './m'`.
pub(crate) fn reexported(statement: Node, source: &str) -> Option<String> {
    let expression = statement.named_child(0).filter(|_| statement.kind() == "expression_statement")?;
    match expression.kind() {
        "assignment_expression" => {
            let left = expression.child_by_field_name("left")?;
            let target = left.utf8_text(source.as_bytes()).ok()?;
            (target == "module.exports").then(|| required_module(expression.child_by_field_name("right")?, source))?
        }
        "call_expression" => {
            let callee = expression.child_by_field_name("function")?.utf8_text(source.as_bytes()).ok()?;
            let mut cursor = expression.walk();
            let first = expression.child_by_field_name("arguments")?.named_children(&mut cursor).next()?;
            callee.ends_with("__exportStar").then(|| required_module(first, source))?
        }
        _ => None,
    }
}

/// The names a top-level `const`/`let`/`var` statement binds through `require`, or TypeScript's
/// `import u = require('./util')`.
pub(crate) fn required(statement: Node, source: &str) -> Vec<Required> {
    let text = |node: Node| node.utf8_text(source.as_bytes()).unwrap_or_default().to_string();
    if statement.kind() == "import_statement" {
        let mut cursor = statement.walk();
        let clause = statement.named_children(&mut cursor).find(|c| c.kind() == "import_require_clause");
        let mut names = clause.iter().flat_map(|c| {
            let mut cursor = c.walk();
            c.named_children(&mut cursor).filter(|n| n.kind() == "identifier").collect::<Vec<_>>()
        });
        let module = clause.and_then(|c| c.child_by_field_name("source"));
        return match (names.next(), module) {
            (Some(name), Some(module)) => vec![(text(name), None, text(module).trim_matches(['"', '\'']).to_string())],
            _ => Vec::new(),
        };
    }
    if !matches!(statement.kind(), "lexical_declaration" | "variable_declaration") {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut cursor = statement.walk();
    for declarator in statement.named_children(&mut cursor).filter(|c| c.kind() == "variable_declarator") {
        let (Some(name), Some(value)) =
            (declarator.child_by_field_name("name"), declarator.child_by_field_name("value"))
        else {
            continue;
        };
        // `require('./m').a`: the one item.
        let (value, item) = match value.kind() {
            "member_expression" => match (value.child_by_field_name("object"), value.child_by_field_name("property")) {
                (Some(object), Some(property)) => (object, Some(text(property))),
                _ => continue,
            },
            _ => (value, None),
        };
        let Some(module) = required_module(value, source) else { continue };
        match (name.kind(), item) {
            ("identifier", item) => out.push((text(name), item, module)),
            ("object_pattern", None) => out.extend(
                destructured(name, source).into_iter().map(|(local, item)| (local, Some(item), module.clone())),
            ),
            _ => {}
        }
    }
    out
}

/// The `const`/`let`/`var` statements inside functions that bind what a `require` loads
/// (`function f() { const m = require('./m'); m.g() }`), each an import scoped to the lines of
/// the innermost function holding it.
pub(crate) fn required_in_functions(root: Node, source: &str) -> Vec<Import> {
    let mut out = Vec::new();
    // (node, the lines of the innermost function holding it).
    let mut stack: Vec<(Node, Option<(u32, u32)>)> = vec![(root, None)];
    while let Some((node, scope)) = stack.pop() {
        if let Some(scope) = scope
            && matches!(node.kind(), "lexical_declaration" | "variable_declaration")
        {
            let line = node.start_position().row as u32 + 1;
            out.extend(required(node, source).into_iter().map(|(local, name, module)| Import {
                local,
                name,
                module,
                line,
                reexport: false,
                scope: Some(scope),
            }));
        }
        let lines = (node.start_position().row as u32 + 1, node.end_position().row as u32 + 1);
        let inner = if crate::nested::JS_FUNCTIONS.contains(&node.kind()) { Some(lines) } else { scope };
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor).map(|child| (child, inner)));
    }
    out
}

/// The module `value` loads: `require('./m')`, or TypeScript's helpers wrapped around it
/// (`__importStar(require('./m'))`, `tslib_1.__importDefault(require('./m'))`).
fn required_module(value: Node, source: &str) -> Option<String> {
    if value.kind() != "call_expression" {
        return None;
    }
    let function = value.child_by_field_name("function")?;
    let callee = function.utf8_text(source.as_bytes()).ok()?;
    let callee = callee.rsplit('.').next().unwrap_or(callee);
    let mut cursor = value.walk();
    let argument = value.child_by_field_name("arguments")?.named_children(&mut cursor).next()?;
    match callee {
        "require" if argument.kind() == "string" => {
            let written = argument.utf8_text(source.as_bytes()).ok()?;
            Some(written.trim_matches(['"', '\'']).to_string())
        }
        "__importStar" | "__importDefault" => required_module(argument, source),
        _ => None,
    }
}

/// `{ a, b: c }` as (local, item) pairs: (`a`, `a`) and (`c`, `b`); a nested pattern or a rest
/// element binds no item of the module.
fn destructured(pattern: Node, source: &str) -> Vec<(String, String)> {
    let text = |node: Node| node.utf8_text(source.as_bytes()).unwrap_or_default().to_string();
    let mut out = Vec::new();
    let mut cursor = pattern.walk();
    for property in pattern.named_children(&mut cursor) {
        match property.kind() {
            "shorthand_property_identifier_pattern" => out.push((text(property), text(property))),
            // `{ a = 1 }`: a default for a missing item.
            "object_assignment_pattern" => {
                if let Some(left) = property.child_by_field_name("left").filter(|l| l.kind().starts_with("shorthand")) {
                    out.push((text(left), text(left)));
                }
            }
            "pair_pattern" => {
                let key = property.child_by_field_name("key").filter(|k| k.kind() == "property_identifier");
                let value = property.child_by_field_name("value").filter(|v| v.kind() == "identifier");
                if let (Some(key), Some(value)) = (key, value) {
                    out.push((text(value), text(key)));
                }
            }
            _ => {}
        }
    }
    out
}

/// The module a receiver stands for when it is `m_1.default` after TypeScript's `const m_1 =
/// __importDefault(require('./m'))`: a CommonJS module's default is its `module.exports`, so
/// `m_1.default.f()` calls the module's `f`, as `m_1.f()` would. Any other receiver is itself.
pub(crate) fn module_object<'r>(language: Language, facts: &FileFacts, receiver: &'r str) -> &'r str {
    let js = matches!(language, Language::JavaScript | Language::TypeScript | Language::Tsx);
    match receiver.strip_suffix(".default") {
        Some(module) if js && facts.imports.iter().any(|i| i.local == module && i.name.is_none()) => module,
        _ => receiver,
    }
}

/// A JavaScript module's CommonJS exports as the outline names them — `exports.helper` or
/// `module.exports.helper` for `exports.helper = function …`, a member of `module.exports` for
/// `module.exports = { helper() {…} }` — are the module's own `helper`, as `export function
/// helper` would be. A chain, `exports.a = exports.b = function …`, is split into its names
/// first, each export among them a name of the function; empty unless the first is an export.
pub(crate) fn export_names<'a>(language: Language, name: &'a str, container: Option<&str>) -> Vec<&'a str> {
    if !matches!(language, Language::JavaScript | Language::TypeScript | Language::Tsx) {
        return Vec::new();
    }
    let exported = |name: &'a str| name.strip_prefix("module.exports.").or_else(|| name.strip_prefix("exports."));
    match container {
        None => {
            let mut names = name.split(" = ").map(|n| exported(n.trim())).peekable();
            match names.peek() {
                Some(Some(_)) => names.flatten().collect(),
                _ => Vec::new(),
            }
        }
        Some("module.exports" | "exports") => vec![name],
        Some(_) => Vec::new(),
    }
}

/// Whether a JavaScript receiver is the module's own exports object (`exports.f()`,
/// `module.exports.f()`), whose members are the functions the module exports by assignment.
pub(crate) fn is_own_exports(language: Language, receiver: &str) -> bool {
    matches!(language, Language::JavaScript | Language::TypeScript | Language::Tsx)
        && matches!(receiver, "exports" | "module.exports")
}

#[cfg(test)]
mod tests {
    use crate::callgraph::Lookup;
    use crate::graph::{FileEntry, Graph, Stamp};
    use crate::interrupt::Interrupt;

    #[test]
    fn a_require_inside_a_function_is_that_functions_import() {
        let m = "function g() {}\nfunction h() {}\nmodule.exports = { g, h };\n";
        let a = "function lazy() {\n  const m = require('./m');\n  return m.g();\n}\n\n\
                 function picked() {\n  const { h } = require('./m');\n  h();\n}\n\n\
                 function outside() {\n  return m.g();\n}\n";
        let mut graph = Graph::new();
        for (path, source) in [("m.js", m), ("a.js", a)] {
            let facts = crate::extract(lean_ctx_outline::Language::JavaScript, source);
            graph.upsert(path, FileEntry { stamp: Stamp::default(), facts });
        }
        let callers = |symbol: &str| {
            let Lookup::Found(targets) = graph.lookup(symbol, None) else { panic!("{symbol}") };
            let walk = graph.callers(&targets, 1, 10, Interrupt::NEVER).unwrap();
            walk.edges
                .iter()
                .map(|e| format!("{} [{}]", e.caller.as_ref().unwrap().name, e.label.name()))
                .collect::<Vec<_>>()
        };
        // The module the function loads is what its `m` and `h` are; another function's `m` is
        // not that import (a value of unknown type, whose `g` is no module function).
        assert_eq!(callers("g"), ["lazy [exact]"]);
        assert_eq!(callers("h"), ["picked [exact]"]);
        // And the file depends on the module it loads lazily.
        assert_eq!(graph.file_graph().imports_of("a.js").collect::<Vec<_>>(), ["m.js"]);
    }

    /// Types are inferred only from the imports a line sees: another function's `m`, a
    /// parameter, is not the module one function requires as `m`, nor is its `Made` the class
    /// that function requires as `Made`.
    #[test]
    fn a_require_inside_a_function_types_nothing_outside_it() {
        let a = "export class Order {\n  total(): number { return 1; }\n}\n\n\
                 export function make(): Order {\n  return new Order();\n}\n";
        let b = "export class Bill {\n  total(): number { return 2; }\n}\n";
        let main = "function one() {\n  const m = require('./a');\n  const { Order: Made } = require('./a');\n  \
                    const o = new Made();\n  return m.make().total() + o.total();\n}\n\n\
                    function two(m) {\n  const o = new Made();\n  return m.make().total() + o.total();\n}\n";
        let mut graph = Graph::new();
        for (path, source) in [("a.ts", a), ("b.ts", b), ("main.ts", main)] {
            let facts = crate::extract(lean_ctx_outline::Language::TypeScript, source);
            graph.upsert(path, FileEntry { stamp: Stamp::default(), facts });
        }
        let Lookup::Found(targets) = graph.lookup("Order.total", Some("a.ts")) else { panic!("Order.total") };
        let walk = graph.callers(&targets, 1, 10, Interrupt::NEVER).unwrap();
        let edges: Vec<String> = walk
            .edges
            .iter()
            .map(|e| format!("{}:{} {} [{}]", e.file, e.line, e.caller.as_ref().unwrap().name, e.label.name()))
            .collect();
        // Neither `two`'s `m` nor its `o` is of a type known here: its `total`s are not `Order`'s.
        assert_eq!(edges, ["main.ts:5 one [exact]", "main.ts:5 one [exact]"]);
    }

    #[test]
    fn a_function_exported_under_several_names_is_the_modules_under_each() {
        let m = "exports.a = exports.b = function (x) {\n  return x;\n};\n";
        let facts = crate::extract(lean_ctx_outline::Language::JavaScript, m);
        let names: Vec<(&str, Option<&str>, &str)> =
            facts.defs.iter().map(|d| (d.name.as_str(), d.container.as_deref(), d.kind.as_str())).collect();
        assert_eq!(names, [("a", None, "fn"), ("b", None, "fn")]);
        let user = "const m = require('./m');\n\nfunction run() {\n  return m.b(1);\n}\n";
        let mut graph = Graph::new();
        for (path, source) in [("m.js", m), ("user.js", user)] {
            let facts = crate::extract(lean_ctx_outline::Language::JavaScript, source);
            graph.upsert(path, FileEntry { stamp: Stamp::default(), facts });
        }
        for symbol in ["a", "b"] {
            let Lookup::Found(targets) = graph.lookup(symbol, None) else { panic!("{symbol}") };
            let walk = graph.callers(&targets, 1, 10, Interrupt::NEVER).unwrap();
            let edges: Vec<String> = walk.edges.iter().map(|e| format!("{}:{}", e.file, e.line)).collect();
            assert_eq!(edges, ["user.js:4"], "{symbol}");
        }
    }

    #[test]
    fn a_function_assigned_to_module_exports_is_no_method_of_module() {
        let facts = crate::extract(
            lean_ctx_outline::Language::JavaScript,
            "module.exports = function f(x) {\n  return x;\n};\n",
        );
        let names: Vec<(&str, Option<&str>, &str)> =
            facts.defs.iter().map(|d| (d.name.as_str(), d.container.as_deref(), d.kind.as_str())).collect();
        assert_eq!(names, [("module.exports", None, "fn")]);
    }
}
