//! JSON, YAML and TOML: the top-level keys (TOML: also table headers), each with its line span
//! and, when its value is a mapping, the keys of that mapping on its line (`services {web, db}`),
//! so a file whose top level is one or two keys (a compose file's `services`) is not outlined by
//! them alone. Deeper keys are inside the spans, as a function's body is.

use tree_sitter::Node;

use crate::model::{Definition, Kind};
use crate::text::{MAX_SIGNATURE, collapse, node_lines, node_text, truncate, unquote};

/// The keys of a value that is a mapping are listed on its key's line up to this many characters;
/// the rest are counted (`deps {react, lodash, … 398 more}`), so a line stays readable and the
/// view smaller than the mapping it stands for.
const NESTED_KEYS_CHARS: usize = 100;

/// The nodes of a mapping's entries: JSON's and TOML's, and YAML's.
const PAIRS: &[&str] = &["pair"];
const YAML_PAIRS: &[&str] = &["block_mapping_pair", "flow_pair"];

pub(crate) fn json(root: Node, source: &str) -> Vec<Definition> {
    let mut cursor = root.walk();
    let object = root.named_children(&mut cursor).find(|n| n.kind() == "object");
    object.map_or_else(Vec::new, |object| pairs(object, PAIRS, source))
}

/// Keys of every document's top-level mapping (a multi-document stream lists each in turn).
pub(crate) fn yaml(root: Node, source: &str) -> Vec<Definition> {
    let mut items = Vec::new();
    let mut cursor = root.walk();
    for document in root.named_children(&mut cursor).filter(|n| n.kind() == "document") {
        if let Some(mapping) = yaml_mapping(document) {
            items.extend(pairs(mapping, YAML_PAIRS, source));
        }
    }
    items
}

/// `document > block_node|flow_node > block_mapping|flow_mapping`, past anchors and tags.
fn yaml_mapping(document: Node) -> Option<Node> {
    let mut cursor = document.walk();
    let node = document.named_children(&mut cursor).find(|n| matches!(n.kind(), "block_node" | "flow_node"))?;
    yaml_value_mapping(node)
}

/// The mapping a YAML value (`block_node`, `flow_node`) is, past anchors and tags.
fn yaml_value_mapping(node: Node) -> Option<Node> {
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
        // A table's keys are its pairs; a pair's, those of its inline table (`serde = { … }`).
        let mapping = match kind {
            Kind::Table => Some(child),
            _ => child.named_child(1).filter(|value| value.kind() == "inline_table"),
        };
        let keys = mapping.map(|mapping| keys(mapping, PAIRS, source)).unwrap_or_default();
        items.push(entry(kind, with_keys(format!("{open}{name}{close}"), &keys), name, child, source));
    }
    items
}

fn pairs(mapping: Node, pair_kinds: &[&str], source: &str) -> Vec<Definition> {
    let mut cursor = mapping.walk();
    let pairs = mapping.named_children(&mut cursor).filter(|n| pair_kinds.contains(&n.kind()));
    pairs
        .filter_map(|pair| {
            let name = pair_key(pair, source)?;
            let value = pair.child_by_field_name("value");
            let mapping = value.and_then(|value| match value.kind() {
                "object" => Some(value),
                _ => yaml_value_mapping(value),
            });
            let keys = mapping.map(|mapping| keys(mapping, pair_kinds, source)).unwrap_or_default();
            Some(entry(Kind::Key, with_keys(name.clone(), &keys), name, pair, source))
        })
        .collect()
}

/// The keys of a mapping's pairs, in order.
fn keys(mapping: Node, pair_kinds: &[&str], source: &str) -> Vec<String> {
    let mut cursor = mapping.walk();
    let pairs = mapping.named_children(&mut cursor).filter(|n| pair_kinds.contains(&n.kind()));
    pairs.filter_map(|pair| pair_key(pair, source)).collect()
}

/// A pair's key, unquoted: a JSON or YAML pair's `key` field, a TOML pair's first child (its
/// grammar names no fields). A YAML pair without a key (`: value`) has none.
fn pair_key(pair: Node, source: &str) -> Option<String> {
    let key = match pair.child_by_field_name("key") {
        Some(key) => key,
        None if pair.kind() == "pair" => pair.named_child(0)?,
        None => return None,
    };
    Some(unquote(&collapse(node_text(key, source))).to_string())
}

/// `head` followed by the keys its value maps (`services {web, db}`), as many as
/// [`NESTED_KEYS_CHARS`] allows, the others counted (`{a, b, … 12 more}`).
fn with_keys(head: String, keys: &[String]) -> String {
    if keys.is_empty() {
        return head;
    }
    let mut shown = 0;
    let mut chars = 0;
    for key in keys {
        let width = key.chars().count() + 2;
        if chars + width > NESTED_KEYS_CHARS {
            break;
        }
        chars += width;
        shown += 1;
    }
    let listed = keys[..shown].join(", ");
    match keys.len() - shown {
        0 => format!("{head} {{{listed}}}"),
        more if shown == 0 => format!("{head} {{… {more} keys}}"),
        more => format!("{head} {{{listed}, … {more} more}}"),
    }
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
