//! Java: types (nested too), methods and their overloads, constructors, with annotations.

use super::{Constructors, Rule, Spec, always, first_named_child_text};
use crate::model::Kind;

pub(super) static SPEC: Spec = Spec {
    rules: &[
        Rule::new("package_declaration", Kind::Module).named(first_named_child_text).whole(),
        Rule::new("class_declaration", Kind::Class).members("body"),
        Rule::new("record_declaration", Kind::Class).members("body"),
        Rule::new("interface_declaration", Kind::Interface).members("body"),
        Rule::new("annotation_type_declaration", Kind::Interface).members("body"),
        Rule::new("enum_declaration", Kind::Enum).members("body"),
        Rule::new("method_declaration", Kind::Function),
        Rule::new("constructor_declaration", Kind::Constructor),
        Rule::new("compact_constructor_declaration", Kind::Constructor),
    ],
    wrappers: &[],
    // Methods of an enum follow its constants.
    attributes: &[],
    transparent: &["enum_body_declarations"],
    imports: &["import_declaration"],
    is_import: always,
    import_keywords: &["import "],
    constructors: Constructors::Declared,
};
