//! C and C++ (one table: C++'s grammar extends C's). Function names are found through the
//! declarator chain (`*`, `&`, parentheses, qualified names).

use tree_sitter::Node;

use super::{Constructors, Prefix, Rule, Spec, always};
use crate::model::Kind;
use crate::text::node_text;

pub(super) static SPEC: Spec = Spec {
    rules: &[
        // The member initialiser list of a constructor is body, not interface.
        Rule::new("function_definition", Kind::Function)
            .named(declarator_name)
            .head_end(&["field_initializer_list", "body"]),
        // Prototypes, and file-level variables.
        Rule::classify("declaration", declaration).named(declarator_name).head_end(&["declarator/value"]),
        // Method declarations in a class; data members are skipped but searched for nested types.
        Rule::classify("field_declaration", method_declaration).named(declarator_name).whole(),
        // Only with a body: `struct foo *p` is a use, `struct foo;` a forward declaration.
        Rule::new("struct_specifier", Kind::Struct).requires("body").members("body"),
        Rule::new("union_specifier", Kind::Struct).requires("body").members("body"),
        Rule::new("class_specifier", Kind::Class).requires("body").members("body"),
        Rule::new("enum_specifier", Kind::Enum).requires("body"),
        Rule::classify("type_definition", typedef).named(declarator_name).head_end(&["type/body"]).keep_tail(),
        Rule::new("namespace_definition", Kind::Module).members("body"),
        Rule::new("alias_declaration", Kind::TypeAlias).whole(),
        Rule::new("preproc_function_def", Kind::Macro).head_end(&["value"]),
        // `#define NAME value`; include guards (`#define NAME`) have no value and are skipped.
        Rule::new("preproc_def", Kind::Const).requires("value").head_end(&["value"]),
    ],
    wrappers: &[("template_declaration", Prefix::Full)],
    attributes: &[],
    // `<typename T, …>` of a template: shortened to `<…>` when the line is too long.
    decorations: &["template_parameter_list"],
    unshown: &[],
    conditional: None,
    sections: None,
    module_factories: false,
    error_ends_head: false,
    layout_judged: false,
    margin_nests: false,
    indentation_is_syntax: false,
    multiline_strings: &[],
    implied: &[],
    abridged: &[],
    elided: &[],
    untyped: None,
    reparse: None,
    invoked_body: None,
    overloads: None,
    transparent: &[
        "preproc_if",
        "preproc_ifdef",
        "preproc_else",
        "preproc_elif",
        "preproc_elifdef",
        "linkage_specification",
        "declaration_list",
        "field_declaration",
        // Anonymous namespaces have no name, so their rule declines them.
        "namespace_definition",
    ],
    member_lists: &[],
    imports: &["preproc_include", "using_declaration"],
    is_import: always,
    import_keywords: &["#include ", "using "],
    constructors: Constructors::OwnerName,
};

/// Declarator kinds that wrap the declared name.
const DECLARATOR_WRAPPERS: [&str; 7] = [
    "function_declarator",
    "pointer_declarator",
    "reference_declarator",
    "init_declarator",
    "array_declarator",
    "parenthesized_declarator",
    "attributed_declarator",
];

/// Follows `declarator` fields (or the wrapped declarator of `&`/parentheses) down to the name.
/// Also reports whether the chain declares a function (as opposed to a pointer to one).
fn declarator_chain(node: Node) -> Option<(Node, bool)> {
    let mut current = node.child_by_field_name("declarator")?;
    let (mut function, mut parenthesized) = (false, false);
    for _ in 0..super::MAX_DEPTH {
        match current.kind() {
            "function_declarator" => function = true,
            // `(*name)(…)`: a pointer to a function, not a function.
            "parenthesized_declarator" => parenthesized = true,
            kind if !DECLARATOR_WRAPPERS.contains(&kind) => return Some((current, function && !parenthesized)),
            _ => {}
        }
        current = current.child_by_field_name("declarator").or_else(|| current.named_child(0))?;
    }
    None
}

fn declarator_name(node: Node, source: &str) -> Option<String> {
    declarator_chain(node).map(|(name, _)| node_text(name, source).to_string())
}

fn declares_function(node: Node) -> bool {
    declarator_chain(node).is_some_and(|(_, function)| function)
}

fn declaration(node: Node, _: &str) -> Option<Kind> {
    Some(if declares_function(node) { Kind::Function } else { Kind::Variable })
}

fn method_declaration(node: Node, _: &str) -> Option<Kind> {
    declares_function(node).then_some(Kind::Function)
}

/// `typedef struct {…} name` is a struct (or enum); other typedefs are aliases.
fn typedef(node: Node, _: &str) -> Option<Kind> {
    let ty = node.child_by_field_name("type")?;
    Some(match (ty.kind(), ty.child_by_field_name("body")) {
        ("struct_specifier" | "union_specifier" | "class_specifier", Some(_)) => Kind::Struct,
        ("enum_specifier", Some(_)) => Kind::Enum,
        _ => Kind::TypeAlias,
    })
}
