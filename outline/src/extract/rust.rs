//! Rust: items, `impl` blocks with their methods, traits, modules, `macro_rules!`.

use tree_sitter::Node;

use super::{Constructors, Rule, Spec, always, field_text};
use crate::model::Kind;

pub(super) static SPEC: Spec = Spec {
    rules: &[
        Rule::new("function_item", Kind::Function),
        Rule::new("function_signature_item", Kind::Function).whole(),
        // Cut at the braces only: a tuple struct's fields are its signature.
        Rule::new("struct_item", Kind::Struct).head_end(&["field_declaration_list"]),
        Rule::new("union_item", Kind::Struct),
        Rule::new("enum_item", Kind::Enum),
        Rule::new("trait_item", Kind::Trait).members("body"),
        Rule::new("impl_item", Kind::Impl).named(impl_name).members("body"),
        Rule::new("mod_item", Kind::Module).members("body"),
        Rule::new("type_item", Kind::TypeAlias).whole(),
        Rule::new("const_item", Kind::Const).head_end(&["value"]),
        Rule::new("static_item", Kind::Variable).head_end(&["value"]),
        Rule::new("macro_definition", Kind::Macro).head_end(&["macro_rule"]),
    ],
    wrappers: &[],
    attributes: &["attribute_item"],
    transparent: &["foreign_mod_item", "declaration_list"],
    imports: &["use_declaration", "extern_crate_declaration"],
    is_import: always,
    import_keywords: &["use "],
    constructors: Constructors::Declared,
};

/// `Type` for inherent impls, `Trait for Type` for trait impls.
fn impl_name(node: Node, source: &str) -> Option<String> {
    let target = field_text(node, "type", source)?;
    Some(match field_text(node, "trait", source) {
        Some(tr) => format!("{tr} for {target}"),
        None => target,
    })
}
