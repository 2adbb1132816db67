//! Go: functions, methods (attached to their receiver type), types with their exported fields
//! (those a function declares too), interface methods and constraints' type sets, package-level
//! const/var.

use tree_sitter::Node;

use super::{
    Constructors, Names, Past, Prefix, Private, Rule, Spec, Untyped, always, first_named_child_text, name_field,
};
use crate::model::Kind;
use crate::text::{collapse, node_text};

pub(super) static SPEC: Spec = Spec {
    rules: &[
        Rule::new("package_clause", Kind::Module).named(first_named_child_text).whole(),
        // A function's or method's body is walked for the types it declares (a test's `type
        // testCase struct`, a JSON shape decoded once), listed under it; its other locals are
        // not outlined, nor the anonymous struct of a table (`tests := []struct{…}`). The grammar
        // holds a block's statements in a `statement_list`.
        Rule::new("function_declaration", Kind::Function).members("body/statement_list"),
        Rule::new("method_declaration", Kind::Method).receiver(receiver_type).members("body/statement_list"),
        Rule::classify("type_spec", type_kind).head_end(&["type/field_declaration_list", "type/{"]).members("type"),
        Rule::new("type_alias", Kind::TypeAlias).whole(),
        Rule::new("method_elem", Kind::Method).whole(),
        // The struct tag is for encoders, not for a reader of the API.
        Rule::classify("field_declaration", exported_field).named(field_names).head_end(&["tag"]),
        // An interface embedded in an interface (`io.Reader`) brings its methods.
        Rule::classify("type_elem", exported_interface).named(embedded_interface).whole(),
        Rule::new("const_spec", Kind::Const).named(spec_names).head_end(&["value"]),
        Rule::new("var_spec", Kind::Variable).named(spec_names).head_end(&["value"]),
    ],
    wrappers: &[
        ("type_declaration", Prefix::Keyword),
        ("const_declaration", Prefix::Keyword),
        ("var_declaration", Prefix::Keyword),
        ("var_spec_list", Prefix::Nothing),
    ],
    attributes: &[],
    decorations: &[],
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
    // `func isSupportedSignatureAlgorithm(sigAlg…, supportedSignatureAlgorithms…) bool` past 100
    // characters.
    untyped: Some(Untyped { past: Past::Characters(100), names: Names::FirstWord }),
    reparse: None,
    invoked_body: None,
    unparsed_lead: None,
    overloads: None,
    transparent: &["import_declaration", "import_spec_list", "field_declaration_list"],
    member_lists: &[],
    imports: &["import_spec"],
    is_import: always,
    import_keywords: &[],
    constructors: Constructors::Declared,
    private: &[
        Private::fields("field_declaration", every_field_name),
        // A type declared deeper in a function than its body's own level is in no view, and a
        // reader still looks for it by name: a `type testCase struct` in a `t.Run` closure.
        Private { node: "type_spec", names: name_field, kind: type_kind },
        Private { node: "type_alias", names: name_field, kind: |_, _| Some(Kind::TypeAlias) },
    ],
};

fn type_kind(node: Node, _: &str) -> Option<Kind> {
    Some(match node.child_by_field_name("type").map(|t| t.kind()) {
        Some("struct_type") => Kind::Struct,
        Some("interface_type") => Kind::Interface,
        _ => Kind::TypeAlias,
    })
}

/// `a, b` for `const a, b = 1, 2` (the grammar's `name` field also yields the commas between).
fn spec_names(node: Node, source: &str) -> Option<String> {
    let mut cursor = node.walk();
    let names: Vec<&str> = node
        .children_by_field_name("name", &mut cursor)
        .filter(|name| name.is_named())
        .map(|n| node_text(n, source))
        .collect();
    (!names.is_empty()).then(|| names.join(", "))
}

/// The receiver's type name without pointer or type arguments: `Server` for `(s *Server[T])`.
fn receiver_type(node: Node, source: &str) -> Option<String> {
    let mut pending = vec![node.child_by_field_name("receiver")?];
    while let Some(current) = pending.pop() {
        if current.kind() == "type_identifier" {
            return Some(node_text(current, source).to_string());
        }
        let mut cursor = current.walk();
        let children: Vec<Node> = current.named_children(&mut cursor).collect();
        pending.extend(children.into_iter().rev());
    }
    None
}

/// A struct field another package can use: an exported name, or an embedded exported type. An
/// embedded unexported type (`*stack`) is a field of that unexported name, as `msg string` is:
/// both are counted on the struct's line (see
/// [`crate::model::Definition::hidden_fields`]), not listed.
fn exported_field(node: Node, source: &str) -> Option<Kind> {
    // A struct left open reads the next function as fields (`func New() *Config` is an error
    // for `func` and a field `New`): a field after an error on its own line is none, and its line
    // is named as not parsed instead.
    let after_error = node
        .prev_sibling()
        .is_some_and(|before| before.is_error() && before.end_position().row == node.start_position().row);
    if after_error {
        return None;
    }
    field_names(node, source).map(|_| Kind::Field)
}

/// An interface embedded in an interface: its methods are the outer one's, exported or not.
fn exported_interface(node: Node, source: &str) -> Option<Kind> {
    embedded_interface(node, source).map(|_| Kind::Field)
}

/// The exported names of a field declaration (`Host, Port`); an embedded field is named by its
/// type (`Mutex` for `*sync.Mutex`).
fn field_names(node: Node, source: &str) -> Option<String> {
    let mut cursor = node.walk();
    let names: Vec<&str> = node
        .children_by_field_name("name", &mut cursor)
        .map(|n| node_text(n, source))
        .filter(|name| name.starts_with(|c: char| c.is_uppercase()))
        .collect();
    if !names.is_empty() {
        return Some(names.join(", "));
    }
    if node.child_by_field_name("name").is_some() {
        return None;
    }
    embedded_name(node, source).filter(|name| name.starts_with(|c: char| c.is_uppercase()))
}

/// Every name a field declaration gives its fields, exported or not (`host, Port`; `stack` for
/// an embedded `*stack`).
fn every_field_name(node: Node, source: &str) -> Option<String> {
    let mut cursor = node.walk();
    let names: Vec<&str> = node.children_by_field_name("name", &mut cursor).map(|n| node_text(n, source)).collect();
    match names.is_empty() {
        true => embedded_name(node, source),
        false => Some(names.join(", ")),
    }
}

/// The name of an embedded field: its type's (`Mutex` for `*sync.Mutex`).
fn embedded_name(node: Node, source: &str) -> Option<String> {
    type_name(node_text(node.child_by_field_name("type")?, source))
}

/// `Reader` for `io.Reader`; a constraint's type set as written (`~int | ~float64`): what a
/// generic function's type parameter may be is the whole meaning of such an interface.
fn embedded_interface(node: Node, source: &str) -> Option<String> {
    let text = node_text(node, source);
    if text.contains(['|', '~']) {
        return Some(collapse(text));
    }
    type_name(text)
}

/// The name an embedded type is known by: `Mutex` for `*sync.Mutex`, `List` for `List[T]`.
fn type_name(text: &str) -> Option<String> {
    let name = text.split('[').next()?.rsplit(['.', '*']).next()?;
    (!name.is_empty()).then(|| name.to_string())
}
