//! C#: namespaces (block and file-scoped), types, extension blocks, members including properties,
//! operators, indexers, events and public fields, with attributes; a program's top-level functions.

use std::ops::Range;

use tree_sitter::Node;

use super::{Constructors, Private, Rule, Spec, always, name_field};
use crate::model::Kind;
use crate::text::{collapse_code, node_text};

pub(super) static SPEC: Spec = Spec {
    rules: &[
        Rule::new("namespace_declaration", Kind::Module).members("body"),
        // `namespace X;` applies to the rest of the file; its types stay top-level siblings.
        Rule::new("file_scoped_namespace_declaration", Kind::Module).whole(),
        Rule::new("class_declaration", Kind::Class).members("body"),
        Rule::new("record_declaration", Kind::Class).members("body"),
        Rule::classify("struct_declaration", struct_kind).named(struct_name).members("body"),
        Rule::new("interface_declaration", Kind::Interface).members("body"),
        // An enum's members are its API, listed as its fields.
        Rule::new("enum_declaration", Kind::Enum).members("body"),
        Rule::new("enum_member_declaration", Kind::Field).whole(),
        Rule::new("delegate_declaration", Kind::TypeAlias).whole(),
        Rule::new("method_declaration", Kind::Function),
        // A program of top-level statements declares its functions as local functions at file
        // level (`static int Add(int a, int b) => a + b;`); inside a method they are its detail,
        // and a method's body is not walked.
        Rule::new("local_function_statement", Kind::Function),
        Rule::new("constructor_declaration", Kind::Constructor),
        Rule::new("destructor_declaration", Kind::Method),
        Rule::new("property_declaration", Kind::Property).head_end(&["accessors", "value"]),
        // Operators, conversions, indexers and events are a type's API as much as its methods
        // and properties: `operator +`, `explicit operator double`, `this[int i]`, `event Changed`.
        Rule::new("operator_declaration", Kind::Method).named(operator_name),
        Rule::new("conversion_operator_declaration", Kind::Method).named(conversion_name),
        Rule::new("indexer_declaration", Kind::Property).named(indexer_name).head_end(&["accessors", "value"]),
        Rule::new("event_declaration", Kind::Property).head_end(&["accessors"]),
        Rule::new("event_field_declaration", Kind::Property).named(variable_names).whole(),
        Rule::classify("field_declaration", api_field).named(variable_names).whole().initializers(initializers),
    ],
    wrappers: &[],
    attributes: &[],
    decorations: &["attribute_list"],
    unshown: &[],
    conditional: None,
    sections: None,
    module_factories: false,
    class_constants: false,
    error_ends_head: false,
    layout_judged: true,
    margin_nests: false,
    indentation_is_syntax: false,
    multiline_strings: &[],
    implied: &[],
    abridged: &[],
    elided: &[],
    untyped: None,
    reparse: None,
    invoked_body: None,
    unparsed_lead: None,
    overloads: None,
    transparent: &["global_statement"],
    member_lists: &[],
    imports: &["using_directive"],
    is_import: always,
    import_keywords: &["using "],
    constructors: Constructors::Declared,
    private: &[
        Private::fields("field_declaration", variable_names),
        // A method's local functions are its detail in the views, and a reader still looks for
        // them by name (`int Helper(int x) => …` a method calls), as for a Rust function's
        // nested `fn`. C# has no local types.
        Private { node: "local_function_statement", names: name_field, kind: |_, _| Some(Kind::Function) },
    ],
};

/// A struct, or a C# 14 extension block (`extension<T>(IEnumerable<T> source) { … }`), which the
/// grammar reads only from the copy that writes it as a struct (see `recover.rs`): its text, read
/// from the original, starts with `extension`, as no struct's does. It is listed as what it is, an
/// implementation of members for its receiver, named by its header.
fn struct_kind(node: Node, source: &str) -> Option<Kind> {
    Some(if extension_header(node, source).is_some() { Kind::Impl } else { Kind::Struct })
}

fn struct_name(node: Node, source: &str) -> Option<String> {
    extension_header(node, source)
        .or_else(|| node.child_by_field_name("name").map(|name| node_text(name, source).to_string()))
}

/// `extension<T>(IEnumerable<T> source)` of an extension block, on one line.
fn extension_header(node: Node, source: &str) -> Option<String> {
    let text = node_text(node, source);
    let body = node.child_by_field_name("body")?;
    let header = text.get(..body.start_byte() - node.start_byte())?;
    header.starts_with("extension").then(|| collapse_code(header))
}

/// A field another assembly can use: `public`, or `protected` (a subclass's API, as in Java) but
/// not `private protected`, which only this assembly's subclasses see.
fn api_field(node: Node, source: &str) -> Option<Kind> {
    let mut cursor = node.walk();
    let modifiers: Vec<&str> = node
        .named_children(&mut cursor)
        .filter(|child| child.kind() == "modifier")
        .map(|child| node_text(child, source))
        .collect();
    let api = modifiers.contains(&"public") || (modifiers.contains(&"protected") && !modifiers.contains(&"private"));
    api.then_some(Kind::Field)
}

/// `operator +` (an operator is named by its symbol, as C# calls it: `op_Addition` is the CLR's).
fn operator_name(node: Node, source: &str) -> Option<String> {
    Some(format!("operator {}", node_text(node.child_by_field_name("operator")?, source)))
}

/// `operator double` for `explicit operator double(Vector v)`: a conversion is named by its type.
fn conversion_name(node: Node, source: &str) -> Option<String> {
    Some(format!("operator {}", node_text(node.child_by_field_name("type")?, source)))
}

/// `this`, as C# names an indexer in code (`this[int i]`) and in its docs' `this[]`.
fn indexer_name(_: Node, _: &str) -> Option<String> {
    Some("this".to_string())
}

/// `X, Y` for `public int X, Y;` (and `Changed` for `public event EventHandler Changed;`).
fn variable_names(node: Node, source: &str) -> Option<String> {
    let names: Vec<&str> = declarators(node).iter().map(|(name, _)| node_text(*name, source)).collect();
    (!names.is_empty()).then(|| names.join(", "))
}

/// `= 5` of each declarator in `public int X = 5, Y;`.
fn initializers(node: Node) -> Vec<Range<usize>> {
    declarators(node).into_iter().map(|(name, declarator)| name.end_byte()..declarator.end_byte()).collect()
}

/// Each declared name with its declarator.
fn declarators(node: Node) -> Vec<(Node, Node)> {
    let mut cursor = node.walk();
    let Some(declaration) = node.named_children(&mut cursor).find(|child| child.kind() == "variable_declaration")
    else {
        return Vec::new();
    };
    let mut cursor = declaration.walk();
    declaration
        .named_children(&mut cursor)
        .filter(|child| child.kind() == "variable_declarator")
        .filter_map(|declarator| Some((declarator.child_by_field_name("name")?, declarator)))
        .collect()
}
