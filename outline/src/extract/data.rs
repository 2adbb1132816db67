//! JSON, YAML and TOML: the top-level keys (TOML: also table headers), each with its line span.

use tree_sitter::Node;

use crate::model::{Definition, Kind};
use crate::text::{MAX_SIGNATURE, collapse, node_lines, node_text, truncate, unquote};

pub(crate) fn json(root: Node, source: &str) -> Vec<Definition> {
    let mut cursor = root.walk();
    let object = root.named_children(&mut cursor).find(|n| n.kind() == "object");
    object.map_or_else(Vec::new, |object| pairs(object, &["pair"], source))
}

/// Keys of every document's top-level mapping (a multi-document stream lists each in turn).
pub(crate) fn yaml(root: Node, source: &str) -> Vec<Definition> {
    let mut items = Vec::new();
    let mut cursor = root.walk();
    for document in root.named_children(&mut cursor).filter(|n| n.kind() == "document") {
        if let Some(mapping) = yaml_mapping(document) {
            items.extend(pairs(mapping, &["block_mapping_pair", "flow_pair"], source));
        }
    }
    items
}

/// `document > block_node|flow_node > block_mapping|flow_mapping`, past anchors and tags.
fn yaml_mapping(document: Node) -> Option<Node> {
    let mut cursor = document.walk();
    let node = document.named_children(&mut cursor).find(|n| matches!(n.kind(), "block_node" | "flow_node"))?;
    let mut cursor = node.walk();
    node.named_children(&mut cursor).find(|n| matches!(n.kind(), "block_mapping" | "flow_mapping"))
}

pub(crate) fn toml(root: Node, source: &str) -> Vec<Definition> {
    let mut items = Vec::new();
    let mut cursor = root.walk();
    for child in root.named_children(&mut cursor) {
        let (kind, open, close) = match child.kind() {
            "pair" => (Kind::Key, "", ""),
            "table" => (Kind::Table, "[", "]"),
            "table_array_element" => (Kind::Table, "[[", "]]"),
            _ => continue,
        };
        let Some(key) = child.named_child(0) else { continue };
        let name = collapse(node_text(key, source));
        items.push(entry(kind, format!("{open}{name}{close}"), name, child, source));
    }
    items
}

fn pairs(mapping: Node, pair_kinds: &[&str], source: &str) -> Vec<Definition> {
    let mut cursor = mapping.walk();
    let pairs = mapping.named_children(&mut cursor).filter(|n| pair_kinds.contains(&n.kind()));
    pairs
        .filter_map(|pair| {
            let name = unquote(&collapse(node_text(pair.child_by_field_name("key")?, source))).to_string();
            Some(entry(Kind::Key, name.clone(), name, pair, source))
        })
        .collect()
}

fn entry(kind: Kind, signature: String, name: String, node: Node, source: &str) -> Definition {
    let (start_line, end_line) = node_lines(node, source);
    Definition {
        kind,
        name: truncate(name, MAX_SIGNATURE),
        signature: truncate(signature, MAX_SIGNATURE),
        uncut: None,
        start_line,
        head_line: start_line,
        end_line,
        children: Vec::new(),
    }
}
