//! Java: types (nested too, and those a method or constructor declares), methods and their
//! overloads, constructors, annotation type elements, public and protected fields, with
//! annotations.

use std::ops::Range;

use tree_sitter::Node;

use super::{Constructors, Private, Rule, Spec, always, first_named_child_text, name_field};
use crate::model::Kind;
use crate::text::node_text;

pub(super) static SPEC: Spec = Spec {
    rules: &[
        Rule::new("package_declaration", Kind::Module).named(first_named_child_text).whole(),
        Rule::new("class_declaration", Kind::Class).members("body"),
        Rule::new("record_declaration", Kind::Class).members("body"),
        Rule::new("interface_declaration", Kind::Interface).members("body"),
        Rule::new("annotation_type_declaration", Kind::Interface).members("body"),
        Rule::new("enum_declaration", Kind::Enum).members("body"),
        // An enum's constants are its API, listed as its fields; the methods a constant's own
        // body defines (`PLUS { int apply(int a, int b) {…} }`) are listed under it.
        Rule::new("enum_constant", Kind::Field).head_end(&["body"]).members("body"),
        // A method's or constructor's body is walked for the types it declares (a local `record
        // Key(String region, int year)` a stream groups by, a test's `class Recorder implements
        // Listener`), listed under it with their members; its other locals are not outlined.
        Rule::new("method_declaration", Kind::Function).members("body"),
        // An annotation type's elements are what its users write (`@Deprecated(since = "9")`).
        Rule::new("annotation_type_element_declaration", Kind::Function),
        Rule::new("constructor_declaration", Kind::Constructor).members("body"),
        Rule::new("compact_constructor_declaration", Kind::Constructor).members("body"),
        // A field holding an instance of an anonymous class (`static Runnable r = new Runnable()
        // { public void run() {…} };`) has that class's methods as its members, listed under it
        // whatever its own access, as a class's private methods are.
        Rule::classify("field_declaration", field)
            .named(declarator_names)
            .whole()
            .initializers(initializers)
            .head_members(anonymous_class),
        // An interface's fields are public constants.
        Rule::new("constant_declaration", Kind::Field)
            .named(declarator_names)
            .whole()
            .initializers(initializers)
            .head_members(anonymous_class),
    ],
    wrappers: &[],
    attributes: &[],
    decorations: &["marker_annotation", "annotation"],
    unshown: &["@SuppressWarnings"],
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
    // Methods of an enum follow its constants.
    transparent: &["enum_body_declarations"],
    member_lists: &[],
    imports: &["import_declaration"],
    is_import: always,
    import_keywords: &["import "],
    constructors: Constructors::Declared,
    private: &[
        Private::fields("field_declaration", declarator_names),
        // A type declared deeper in a method than its body's own level (in a lambda, an `if`, an
        // initializer block) is in no view, and a reader still looks for it by name.
        Private { node: "class_declaration", names: name_field, kind: |_, _| Some(Kind::Class) },
        Private { node: "record_declaration", names: name_field, kind: |_, _| Some(Kind::Class) },
        Private { node: "interface_declaration", names: name_field, kind: |_, _| Some(Kind::Interface) },
        Private { node: "enum_declaration", names: name_field, kind: |_, _| Some(Kind::Enum) },
        // Their members too (a method of a class in a lambda); a listed type's are listed.
        Private { node: "method_declaration", names: name_field, kind: |_, _| Some(Kind::Method) },
        Private { node: "constructor_declaration", names: name_field, kind: |_, _| Some(Kind::Constructor) },
    ],
};

/// A `public` or `protected` field: both are API, the second to subclasses (`FilterInputStream`'s
/// `protected volatile InputStream in` is what every subclass reads, and Javadoc documents it).
/// Or a field of any access that holds an anonymous class's methods (see [`anonymous_class`]).
fn field(node: Node, source: &str) -> Option<Kind> {
    let mut cursor = node.walk();
    let modifiers = node.named_children(&mut cursor).find(|child| child.kind() == "modifiers");
    let api = modifiers.is_some_and(|modifiers| {
        let mut cursor = modifiers.walk();
        modifiers.children(&mut cursor).any(|modifier| matches!(node_text(modifier, source), "public" | "protected"))
    });
    (api || !anonymous_class(node, source).is_empty()).then_some(Kind::Field)
}

/// The bodies of the anonymous classes whose instances a field's declarators are given, those
/// that declare a method: `new Runnable() { public void run() {…} }`, in `Runnable a = new
/// Runnable() {…}, b = null;` too. Not a class that only initialises itself (`new HashMap<>()
/// {{ put(…); }}`), which adds no API.
fn anonymous_class<'t>(field: Node<'t>, _: &str) -> Vec<Node<'t>> {
    let body = |declarator: Node<'t>| {
        let value =
            declarator.child_by_field_name("value").filter(|value| value.kind() == "object_creation_expression")?;
        let mut cursor = value.walk();
        value.named_children(&mut cursor).find(|child| child.kind() == "class_body")
    };
    let declares_method = |body: &Node| {
        let mut cursor = body.walk();
        body.named_children(&mut cursor).any(|member| member.kind() == "method_declaration")
    };
    let mut cursor = field.walk();
    let declarators: Vec<Node> = field.children_by_field_name("declarator", &mut cursor).collect();
    declarators.into_iter().filter_map(body).filter(declares_method).collect()
}

/// `MIN, MAX` for `public static final int MIN = 0, MAX = 9;`.
fn declarator_names(node: Node, source: &str) -> Option<String> {
    let mut cursor = node.walk();
    let names: Vec<&str> = node
        .children_by_field_name("declarator", &mut cursor)
        .filter_map(|declarator| declarator.child_by_field_name("name"))
        .map(|name| node_text(name, source))
        .collect();
    (!names.is_empty()).then(|| names.join(", "))
}

/// `= 0` of each declarator in `int MIN = 0, MAX = 9`.
fn initializers(node: Node) -> Vec<Range<usize>> {
    let mut cursor = node.walk();
    node.children_by_field_name("declarator", &mut cursor)
        .filter_map(|declarator| Some(declarator.child_by_field_name("name")?.end_byte()..declarator.end_byte()))
        .collect()
}
