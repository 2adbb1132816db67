//! Rust: items, `impl` blocks with their methods, traits, modules, `macro_rules!`, `pub` fields,
//! re-exports (`pub use`), and the items inside macro calls (`cfg_net! { … }`).

use tree_sitter::{Node, Range};

use super::macro_types::macro_type;
use super::{Constructors, Part, Private, Reparse, Rule, Spec, field_text, name_field};
use crate::model::Kind;
use crate::text::node_text;

pub(super) static SPEC: Spec = Spec {
    rules: &[
        // A function's body is walked for the types it declares (a test's `struct Fake` and its
        // `impl Store for Fake`), listed under it; its nested functions and constants are not
        // outlined (symbol search finds them, see `private` below).
        Rule::new("function_item", Kind::Function).members("body"),
        Rule::new("function_signature_item", Kind::Function).whole(),
        // Cut at the braces only: a tuple struct's fields are its signature.
        Rule::new("struct_item", Kind::Struct).head_end(&["field_declaration_list"]).members("body"),
        Rule::new("union_item", Kind::Struct).members("body"),
        Rule::classify("field_declaration", public_field).whole(),
        // An enum's variants are its API, as a struct's public fields are: listed as its fields.
        Rule::new("enum_item", Kind::Enum).members("body"),
        Rule::new("enum_variant", Kind::Field).whole(),
        Rule::new("trait_item", Kind::Trait).members("body"),
        Rule::new("impl_item", Kind::Impl).named(impl_name).members("body"),
        Rule::new("mod_item", Kind::Module).members("body"),
        Rule::new("type_item", Kind::TypeAlias).whole(),
        // `type Output;` of a trait.
        Rule::new("associated_type", Kind::TypeAlias).whole(),
        Rule::new("const_item", Kind::Const).named(const_name).head_end(&["value"]),
        Rule::new("static_item", Kind::Variable).head_end(&["value"]),
        Rule::new("macro_definition", Kind::Macro).head_end(&["macro_rule"]),
        // `pub use` is API: a crate's root re-exports what its users name (`pub use
        // crate::parser::{parse, Parser}`); private uses are imports (see `is_import`).
        Rule::classify("use_declaration", re_export).named(used).whole(),
    ],
    wrappers: &[],
    attributes: &["attribute_item"],
    decorations: &["attribute_item"],
    // Hints to the compiler, lints and documentation (`#[doc = include_str!(…)]`, an alias) tell a
    // reader of the API nothing; `#[doc(hidden)]` does, and stays.
    unshown: &[
        "#[inline",
        "#[track_caller]",
        "#[allow(",
        "#[expect(",
        "#[must_use",
        "#[cfg_attr(docsrs",
        "#[rustfmt::",
        "#[doc=",
        "#[doc(alias",
        "#[doc(cfg",
    ],
    conditional: Some("#[cfg_attr("),
    sections: None,
    module_factories: false,
    class_constants: false,
    error_ends_head: false,
    layout_judged: true,
    margin_nests: false,
    indentation_is_syntax: false,
    multiline_strings: &["string_literal"],
    implied: &[],
    abridged: &["where_clause"],
    elided: &[],
    untyped: None,
    reparse: Some(Reparse { region: macro_items, parts: macro_item_parts, macro_type }),
    invoked_body: None,
    unparsed_lead: None,
    overloads: None,
    // `thread_local!(…);` is a macro call in an expression statement.
    transparent: &["foreign_mod_item", "declaration_list", "expression_statement"],
    member_lists: &[],
    imports: &["use_declaration", "extern_crate_declaration"],
    is_import: private_use,
    // A `pub(crate) use` is an import too (see `re_export`), read like a private one.
    import_keywords: &["use ", "pub(crate) use ", "pub(super) use ", "pub(self) use "],
    constructors: Constructors::Declared,
    private: &[
        Private::fields("field_declaration", name_field),
        // The items a function's body declares that no view lists (its types are listed), a
        // reader still looks for by name: a nested `fn parse`, a `const LIMIT`.
        Private { node: "struct_item", names: name_field, kind: |_, _| Some(Kind::Struct) },
        Private { node: "enum_item", names: name_field, kind: |_, _| Some(Kind::Enum) },
        Private { node: "union_item", names: name_field, kind: |_, _| Some(Kind::Struct) },
        Private { node: "trait_item", names: name_field, kind: |_, _| Some(Kind::Trait) },
        Private { node: "type_item", names: name_field, kind: |_, _| Some(Kind::TypeAlias) },
        Private { node: "function_item", names: name_field, kind: |_, _| Some(Kind::Function) },
        Private { node: "const_item", names: name_field, kind: |_, _| Some(Kind::Const) },
        Private { node: "static_item", names: name_field, kind: |_, _| Some(Kind::Variable) },
    ],
};

/// Whether a `use` or `extern crate` item is the file's own import, not a re-export.
fn private_use(node: Node, source: &str) -> bool {
    re_export(node, source).is_none()
}

/// A `pub use` re-exports what it names to the crate's users. A `pub(crate) use` shares an
/// import with the crate's other modules (rustix's `c.rs` imports hundreds of libc names so):
/// plumbing, an import like a private one.
fn re_export(node: Node, source: &str) -> Option<Kind> {
    let mut cursor = node.walk();
    let public = node
        .named_children(&mut cursor)
        .any(|child| child.kind() == "visibility_modifier" && node_text(child, source) == "pub");
    (node.kind() == "use_declaration" && public).then_some(Kind::Export)
}

/// A constant's name. A flag a macro declares without a type (`const ABC = Self::A.bits() |
/// Self::B.bits();`, bitflags' internal macros) is read with its name and `=` as an error, and
/// the grammar takes the `Self` of its value for the name: the name is then the error's first
/// word.
fn const_name(node: Node, source: &str) -> Option<String> {
    let name = node.child_by_field_name("name")?;
    let error = name.prev_sibling().filter(|before| before.is_error());
    let untyped = error.and_then(|error| error.named_child(0)).filter(|first| first.kind() == "identifier");
    Some(node_text(untyped.unwrap_or(name), source).to_string())
}

/// What a re-export names: its path and tree (`crate::parser::{parse, Parser}`).
fn used(node: Node, source: &str) -> Option<String> {
    field_text(node, "argument", source)
}

/// `Type` for inherent impls, `Trait for Type` for trait impls.
fn impl_name(node: Node, source: &str) -> Option<String> {
    let target = field_text(node, "type", source)?;
    Some(match field_text(node, "trait", source) {
        Some(tr) => format!("{tr} for {target}"),
        None => target,
    })
}

/// A field with any visibility (`pub`, `pub(crate)`): part of the type's API.
fn public_field(node: Node, _: &str) -> Option<Kind> {
    let mut cursor = node.walk();
    let public = node.named_children(&mut cursor).any(|child| child.kind() == "visibility_modifier");
    public.then_some(Kind::Field)
}

/// The inside of a macro call's token tree (`cfg_rt! { … }`, `thread_local!(…)`): crates wrap
/// whole groups of items in such calls, and a grammar sees only tokens there.
fn macro_items(node: Node) -> Option<Range> {
    group_inside(macro_token_tree(node)?)
}

/// A macro call's tokens cut where items end: after a `;`, or after a `{ … }` group that no `;`
/// follows (`fn f() { … }`, `impl T { … }`, but `const C: S = S { … };` runs on to its `;`).
fn macro_item_parts(node: Node) -> Vec<Part> {
    let Some(tree) = macro_token_tree(node) else { return Vec::new() };
    let mut cursor = tree.walk();
    let tokens: Vec<Node> = tree.children(&mut cursor).collect();
    let inner = tokens.get(1..tokens.len().saturating_sub(1)).unwrap_or_default();
    let braces = |token: &Node| token.kind() == "token_tree" && token.child(0).is_some_and(|open| open.kind() == "{");
    let mut parts = Vec::new();
    let mut start: Option<Node> = None;
    let mut blocks = Vec::new();
    for (i, token) in inner.iter().enumerate() {
        let first = *start.get_or_insert(*token);
        if braces(token) {
            blocks.extend(group_inside(*token));
        }
        let next = inner.get(i + 1);
        let ends = token.kind() == ";" || (braces(token) && next.is_none_or(|n| n.kind() != ";"));
        if ends || next.is_none() {
            let range = between(first.start_byte(), first.start_position(), *token, false);
            parts.push(Part { range, blocks: std::mem::take(&mut blocks) });
            start = None;
        }
    }
    parts
}

/// The inside of a token group (`{ … }`, `( … )`), without its delimiters; `None` when empty.
fn group_inside(group: Node) -> Option<Range> {
    let open = group.child(0)?;
    let close = group.child(u32::try_from(group.child_count().checked_sub(1)?).ok()?)?;
    (open.end_byte() < close.start_byte()).then(|| between(open.end_byte(), open.end_position(), close, true))
}

/// A macro call's token tree (its tokens, delimiters included).
fn macro_token_tree(node: Node) -> Option<Node> {
    if node.kind() != "macro_invocation" {
        return None;
    }
    let mut cursor = node.walk();
    node.named_children(&mut cursor).find(|child| child.kind() == "token_tree")
}

/// The range from a start to `last` (up to its start when `before`, else through its end).
fn between(start_byte: usize, start_point: tree_sitter::Point, last: Node, before: bool) -> Range {
    let (end_byte, end_point) =
        if before { (last.start_byte(), last.start_position()) } else { (last.end_byte(), last.end_position()) };
    Range { start_byte, end_byte, start_point, end_point }
}
