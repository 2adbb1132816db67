//! Functions declared inside a function's body: a Python function's nested `def` (a decorator's
//! `wrapper`, rich's `make_tag`), a JavaScript/TypeScript function's nested `function helper()`,
//! a Rust function's nested `fn`. The outline leaves them out of its views (they are the
//! function's detail), so the graph reads them from the tree. Each is a definition seen only in
//! the body of the function that declares it: a bare call there is its call, and shadows a
//! module-level definition of the same name; no other file, nor the rest of its own, can call it
//! by that name.

use lean_ctx_outline::Language;
use lean_ctx_outline::tree_sitter::Node;

use crate::facts::{Def, FileFacts, RefKind};
use crate::graph::{DefId, fits};

/// How deep the tree is walked: far past any real nesting, short of a stack overflow on
/// generated code.
const MAX_DEPTH: usize = 256;

/// The node kinds of JavaScript's and TypeScript's functions, whose bodies are scopes of their own.
pub(crate) const JS_FUNCTIONS: [&str; 7] = [
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "function",
    "generator_function",
    "arrow_function",
    "method_definition",
];

/// The node kinds of a language: those whose body is a function's scope, those that declare a
/// named function there, and those whose body is a type's (a class in a function: its methods
/// are no nested functions).
struct Kinds {
    scopes: &'static [&'static str],
    declarations: &'static [&'static str],
    types: &'static [&'static str],
}

fn kinds(language: Language) -> Option<Kinds> {
    Some(match language {
        Language::Python => Kinds {
            scopes: &["function_definition", "lambda"],
            declarations: &["function_definition"],
            types: &["class_definition"],
        },
        Language::JavaScript | Language::TypeScript | Language::Tsx => Kinds {
            scopes: &JS_FUNCTIONS,
            declarations: &["function_declaration", "generator_function_declaration"],
            types: &[],
        },
        Language::Rust => Kinds {
            scopes: &["function_item", "closure_expression"],
            declarations: &["function_item"],
            types: &["impl_item", "trait_item", "mod_item"],
        },
        _ => return None,
    })
}

/// The functions declared in function bodies of the file `root` is the tree of, that `listed`
/// (the outline's definitions) does not hold already, in source order.
pub(crate) fn nested_functions(language: Language, root: Node, source: &str, listed: &[Def]) -> Vec<Def> {
    let Some(kinds) = kinds(language) else { return Vec::new() };
    let mut found = Vec::new();
    visit(&kinds, language, root, source, None, 0, &mut found);
    found.retain(|d: &Def| !listed.iter().any(|l| l.name == d.name && l.line == d.line));
    found
}

fn visit(
    kinds: &Kinds,
    language: Language,
    node: Node,
    source: &str,
    scope: Option<(u32, u32)>,
    depth: usize,
    out: &mut Vec<Def>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let kind = node.kind();
    if let Some(scope) = scope
        && kinds.declarations.contains(&kind)
        && let Some(def) = declared(language, node, source, scope)
    {
        out.push(def);
    }
    let inner = if kinds.types.contains(&kind) {
        None
    } else if kinds.scopes.contains(&kind) {
        Some(lines(node))
    } else {
        scope
    };
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        visit(kinds, language, child, source, inner, depth + 1, out);
    }
}

/// A node's first and last lines, 1-based.
fn lines(node: Node) -> (u32, u32) {
    (node.start_position().row as u32 + 1, node.end_position().row as u32 + 1)
}

/// The definition a function declaration nested in `scope` makes: its head (up to its body) read
/// for its return type as an outlined function's is; its lines from its decorators or attributes.
fn declared(language: Language, node: Node, source: &str, scope: (u32, u32)) -> Option<Def> {
    let name = node.child_by_field_name("name")?.utf8_text(source.as_bytes()).ok()?;
    let head_end = node.child_by_field_name("body").map_or(node.end_byte(), |body| body.start_byte());
    let head = source.get(node.start_byte()..head_end)?.trim_end().trim_end_matches(':');
    let outer = node.parent().filter(|p| p.kind() == "decorated_definition").unwrap_or(node);
    let mut first = outer;
    while let Some(attribute) = first.prev_named_sibling().filter(|s| s.kind() == "attribute_item") {
        first = attribute;
    }
    Some(Def {
        name: name.to_string(),
        kind: "fn".to_string(),
        container: None,
        line: lines(node).0,
        start_line: lines(first).0,
        end_line: lines(node).1,
        receiver_var: None,
        returns: crate::bindings::return_type(language, head),
        returns_collection: crate::bindings::return_collection(language, head),
        property: false,
        typed_member: false,
        bases: Vec::new(),
        callback_params: crate::bindings::callback_params(language, head),
        non_virtual: false,
        is_static: false,
        scope: Some(scope),
        implements: None,
        aliases: Vec::new(),
    })
}

/// The functions nested in an enclosing function of reference `r` of `file` that its name
/// calls: those declared in the innermost function body holding it that declares the name.
pub(crate) fn in_scope(file: &str, facts: &FileFacts, name: &str, line: u32, kind: RefKind) -> Option<Vec<DefId>> {
    let visible =
        |d: &Def| d.name == name && fits(kind, d) && d.scope.is_some_and(|(from, to)| from <= line && line <= to);
    let innermost = facts.defs.iter().filter(|d| visible(d)).filter_map(|d| d.scope).max_by_key(|(from, _)| *from)?;
    let found: Vec<DefId> = facts
        .defs
        .iter()
        .enumerate()
        .filter(|(_, d)| visible(d) && d.scope == Some(innermost))
        .map(|(index, _)| DefId { file: file.to_string(), index: index as u32 })
        .collect();
    (!found.is_empty()).then_some(found)
}

/// The type `self` is of in `caller`: its own type, or for a Python function nested in a method
/// (`def m(self): def local(): return self.n()`), the method's, whose `self` it closes over. A
/// JavaScript nested `function` has a `this` of its own, so only Python's close over it.
pub(crate) fn self_type<'f>(language: Language, facts: &'f FileFacts, caller: Option<&'f Def>) -> Option<&'f str> {
    let caller = caller?;
    if caller.container.is_some() || language != Language::Python {
        return caller.container.as_deref();
    }
    innermost(enclosers(&facts.defs, caller).filter(|d| d.container.is_some()))?.container.as_deref()
}

/// The functions of `defs` whose lines hold the body `def` is declared in (a function nested in
/// a function: see [`Def::scope`]), `def` itself and its siblings in that body aside; none for a
/// definition not nested.
pub(crate) fn enclosers<'f>(defs: &'f [Def], def: &Def) -> impl Iterator<Item = &'f Def> {
    let (scope, itself) = (def.scope, std::ptr::from_ref(def));
    defs.iter().filter(move |d| {
        scope.is_some_and(|(from, to)| {
            !std::ptr::eq(*d, itself) && d.scope != scope && d.is_callable() && d.start_line <= from && to <= d.end_line
        })
    })
}

/// The innermost of `enclosers`: the narrowest, the later on a tie (definitions have lines, not
/// columns).
pub(crate) fn innermost<'f>(enclosers: impl Iterator<Item = &'f Def>) -> Option<&'f Def> {
    enclosers.min_by_key(|d| (d.end_line - d.start_line, std::cmp::Reverse(d.start_line)))
}
