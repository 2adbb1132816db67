//! The fields a Java or C# class keeps to itself (`private static final long serialVersionUID`,
//! a package-private `int size`): the views leave them out, being no part of the type's API, but
//! they are definitions all the same, which symbol search finds.

use tree_sitter::{Node, Tree};

use super::{Classify, MAX_DEPTH, Rule, Spec, csharp, declaration_start, java};
use crate::Language;
use crate::model::several_names;
use crate::text::line_number;

/// Each name a field declaration the views leave out declares, with the line that names it
/// (past its annotations), in source order. `language` is the grammar `tree` was parsed with.
pub(crate) fn private_fields(language: Language, tree: &Tree, source: &str) -> Vec<(String, u32)> {
    let spec: &Spec = match language {
        Language::Java => &java::SPEC,
        Language::CSharp => &csharp::SPEC,
        _ => return Vec::new(),
    };
    let rules: Vec<&Rule> = spec.rules.iter().filter(|rule| rule.node == "field_declaration").collect();
    let mut fields = Vec::new();
    visit(tree.root_node(), &rules, source, 0, &mut fields);
    fields
}

fn visit(node: Node, rules: &[&Rule], source: &str, depth: usize, fields: &mut Vec<(String, u32)>) {
    if depth > MAX_DEPTH {
        return;
    }
    if node.kind() == "field_declaration" && !rules.iter().any(|rule| listed(rule, node, source)) {
        let line = line_number(declaration_start(node).start_position().row);
        if let Some(name) = rules.first().and_then(|rule| (rule.name)(node, source)) {
            let names = several_names(&name).unwrap_or_else(|| vec![name.as_str()]);
            fields.extend(names.into_iter().map(|name| (name.to_string(), line)));
        }
    }
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        visit(child, rules, source, depth + 1, fields);
    }
}

/// Whether the walker lists a field declaration by `rule`.
fn listed(rule: &Rule, node: Node, source: &str) -> bool {
    match rule.kind {
        Classify::Is(_) => true,
        Classify::By(classify) => classify(node, source).is_some(),
    }
}
