//! Ruby: modules, classes, `class << self`, `def`, `def self.x`, constants, `require`.

use tree_sitter::Node;

use super::{Constructors, Rule, Spec, field_text, left_side};
use crate::model::Kind;
use crate::text::node_text;

/// Where a Ruby definition's head ends: its body, or `end` when it has none.
const HEAD_END: &[&str] = &["body", "end"];

pub(super) static SPEC: Spec = Spec {
    rules: &[
        Rule::new("module", Kind::Module).head_end(HEAD_END).members("body"),
        Rule::new("class", Kind::Class).head_end(HEAD_END).members("body"),
        Rule::new("singleton_class", Kind::Class).named(singleton_class_name).head_end(HEAD_END).members("body"),
        Rule::new("method", Kind::Function).head_end(HEAD_END),
        Rule::new("singleton_method", Kind::Function).named(singleton_method_name).head_end(HEAD_END),
        Rule::classify("assignment", constant).named(left_side).head_end(&["right"]),
    ],
    wrappers: &[],
    attributes: &[],
    decorations: &[],
    unshown: &[],
    conditional: None,
    implied: &[],
    abridged: &[],
    elided: &[],
    untyped: None,
    reparse: None,
    invoked_body: None,
    overloads: None,
    transparent: &[],
    member_lists: &[],
    imports: &["call"],
    is_import: is_require,
    import_keywords: &["require "],
    constructors: Constructors::Named(&["initialize"]),
};

/// `<< self` for `class << self`.
fn singleton_class_name(node: Node, source: &str) -> Option<String> {
    Some(format!("<< {}", field_text(node, "value", source)?))
}

/// `self.parse` for `def self.parse`.
fn singleton_method_name(node: Node, source: &str) -> Option<String> {
    Some(format!("{}.{}", field_text(node, "object", source)?, field_text(node, "name", source)?))
}

fn constant(node: Node, _: &str) -> Option<Kind> {
    (node.child_by_field_name("left")?.kind() == "constant").then_some(Kind::Const)
}

fn is_require(node: Node, source: &str) -> bool {
    node.child_by_field_name("receiver").is_none()
        && node
            .child_by_field_name("method")
            .is_some_and(|m| matches!(node_text(m, source), "require" | "require_relative"))
}
