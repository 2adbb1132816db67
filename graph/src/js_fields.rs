//! JavaScript and TypeScript class fields that hold a function: immer's `produce: IProduce =
//! (base, recipe) => {…}`, a React component's `handleClick = () => {…}`. The outline lists them
//! as the fields they are declared as; called as `immer.produce(…)` or `this.handleClick()`, each
//! is its class's method to the graph, with the calls in its body its own, as an object literal's
//! `get(state, prop) {…}` is its object's.

use lean_ctx_outline::Language;
use lean_ctx_outline::tree_sitter::Node;

use crate::facts::Def;

/// How deep the tree is walked: far past any real nesting of classes, short of a stack overflow
/// on generated code.
const MAX_DEPTH: usize = 256;

/// The values that make a field a method.
const FUNCTION_VALUES: [&str; 4] = ["arrow_function", "function_expression", "function", "generator_function"];

/// The function-valued fields of the named classes of the file `root` is the tree of, as methods,
/// in source order: each one's lines from its decorators to its value's end.
pub(crate) fn function_fields(language: Language, root: Node, source: &str) -> Vec<Def> {
    if !matches!(language, Language::JavaScript | Language::TypeScript | Language::Tsx) {
        return Vec::new();
    }
    let mut found = Vec::new();
    visit(root, source, None, 0, &mut found);
    found
}

fn visit(node: Node, source: &str, class: Option<&str>, depth: usize, out: &mut Vec<Def>) {
    if depth > MAX_DEPTH {
        return;
    }
    let text = |node: Node| node.utf8_text(source.as_bytes()).ok();
    if let Some(class) = class
        && matches!(node.kind(), "public_field_definition" | "field_definition")
        && let Some(value) = node.child_by_field_name("value").filter(|v| FUNCTION_VALUES.contains(&v.kind()))
        // TypeScript names the field `name`, JavaScript `property`.
        && let Some(name) = node.child_by_field_name("name").or_else(|| node.child_by_field_name("property"))
        && let Some(name) = text(name)
    {
        out.push(method(class, name, node, value));
    }
    // A class's own name is what its members are qualified by; an anonymous class expression
    // (`const Store = class {…}`) has none the graph knows it by, nor do a nested class's members
    // belong to the class around it.
    let inner = match node.kind() {
        "class_declaration" | "class" | "abstract_class_declaration" => node.child_by_field_name("name").and_then(text),
        _ => class,
    };
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        visit(child, source, inner, depth + 1, out);
    }
}

fn method(class: &str, name: &str, field: Node, value: Node) -> Def {
    let line = |node: Node| node.start_position().row as u32 + 1;
    // Decorators come before the field as its children.
    let mut cursor = field.walk();
    let named = field.children(&mut cursor).find(|child| child.kind() != "decorator").unwrap_or(field);
    Def {
        name: name.to_string(),
        kind: "method".to_string(),
        container: Some(class.to_string()),
        line: line(named),
        start_line: line(field),
        end_line: value.end_position().row as u32 + 1,
        receiver_var: None,
        returns: None,
        returns_collection: None,
        property: false,
        typed_member: false,
        bases: Vec::new(),
        callback_params: Vec::new(),
        non_virtual: false,
        is_static: false,
        scope: None,
        implements: None,
        aliases: Vec::new(),
    }
}
