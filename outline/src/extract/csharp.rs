//! C#: namespaces (block and file-scoped), types, members including properties, with attributes.

use super::{Constructors, Rule, Spec, always};
use crate::model::Kind;

pub(super) static SPEC: Spec = Spec {
    rules: &[
        Rule::new("namespace_declaration", Kind::Module).members("body"),
        // `namespace X;` applies to the rest of the file; its types stay top-level siblings.
        Rule::new("file_scoped_namespace_declaration", Kind::Module).whole(),
        Rule::new("class_declaration", Kind::Class).members("body"),
        Rule::new("record_declaration", Kind::Class).members("body"),
        Rule::new("struct_declaration", Kind::Struct).members("body"),
        Rule::new("interface_declaration", Kind::Interface).members("body"),
        Rule::new("enum_declaration", Kind::Enum),
        Rule::new("delegate_declaration", Kind::TypeAlias).whole(),
        Rule::new("method_declaration", Kind::Function),
        Rule::new("constructor_declaration", Kind::Constructor),
        Rule::new("destructor_declaration", Kind::Method),
        Rule::new("property_declaration", Kind::Property).head_end(&["accessors", "value"]),
    ],
    wrappers: &[],
    attributes: &[],
    transparent: &[],
    imports: &["using_directive"],
    is_import: always,
    import_keywords: &["using "],
    constructors: Constructors::Declared,
};
