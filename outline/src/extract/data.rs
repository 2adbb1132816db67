//! JSON, YAML and TOML: the top-level keys (TOML: also table headers), each with its line span
//! and, when its value is a mapping, the keys of that mapping on its line (`services {web, db}`),
//! so a file whose top level is one or two keys (a compose file's `services`) is not outlined by
//! them alone. Deeper keys are inside the spans, as a function's body is, and counted with the
//! spans that hold them ([`UnlistedKeys`]) for the views to say so.

use tree_sitter::Node;

use crate::model::{Definition, Kind, UnlistedKeys};
use crate::text::{MAX_SIGNATURE, collapse, node_lines, node_text, truncate, unquote};

/// The keys of a value that is a mapping are listed on its key's line up to this many characters;
/// the rest are counted (`deps {react, lodash, … 398 more}`), so a line stays readable and the
/// view smaller than the mapping it stands for.
const NESTED_KEYS_CHARS: usize = 100;

/// The nodes of a mapping's entries: JSON's and TOML's, and YAML's.
const PAIRS: &[&str] = &["pair"];
const YAML_PAIRS: &[&str] = &["block_mapping_pair", "flow_pair"];

/// A data file's listed keys, and those nested deeper.
#[derive(Default)]
pub(crate) struct Keys {
    pub items: Vec<Definition>,
    pub unlisted: UnlistedKeys,
}

/// A file being read into [`Keys`]: its text and the nodes of its format's pairs.
struct Reader<'s> {
    source: &'s str,
    pair_kinds: &'static [&'static str],
    keys: Keys,
}

impl<'s> Reader<'s> {
    fn new(source: &'s str, pair_kinds: &'static [&'static str]) -> Reader<'s> {
        Reader { source, pair_kinds, keys: Keys::default() }
    }

    /// Adds the entry for `node`, whose value's keys are `mapping`'s pairs: those pairs are named
    /// on its line, and any key nested deeper in `node` is counted as unlisted.
    fn push(&mut self, kind: Kind, head: String, name: String, node: Node, mapping: Option<Node>) {
        let named = mapping.map(|mapping| keys(mapping, self.pair_kinds, self.source)).unwrap_or_default();
        let direct = mapping.map_or(0, |mapping| pair_nodes(mapping, self.pair_kinds).count());
        let deeper = nested_pairs(node, self.pair_kinds) - direct;
        let entry = entry(kind, with_keys(head, &named), name, node, self.source);
        if deeper > 0 {
            self.keys.unlisted.count += deeper;
            // Entries on one line (`{"a": {"b": {…}}, "e": {"f": {…}}}`) or on lines that follow
            // each other are one span: `lines 1, 1` and `lines 4-7, 8-14` named lines twice, or
            // in two ranges, in a note longer than a small file.
            let spans = &mut self.keys.unlisted.spans;
            match spans.last_mut() {
                Some((_, end)) if entry.start_line <= *end + 1 => *end = (*end).max(entry.end_line),
                _ => spans.push((entry.start_line, entry.end_line)),
            }
        }
        self.keys.items.push(entry);
    }

    /// The entries of a mapping's pairs.
    fn pairs(&mut self, mapping: Node) {
        for pair in pair_nodes(mapping, self.pair_kinds) {
            let Some(name) = pair_key(pair, self.source) else { continue };
            let value = pair.child_by_field_name("value");
            let mapping = value.and_then(|value| match value.kind() {
                "object" => Some(value),
                _ => yaml_value_mapping(value),
            });
            self.push(Kind::Key, name.clone(), name, pair, mapping);
        }
    }
}

pub(crate) fn json(root: Node, source: &str) -> Keys {
    let mut reader = Reader::new(source, PAIRS);
    let mut cursor = root.walk();
    if let Some(object) = root.named_children(&mut cursor).find(|n| n.kind() == "object") {
        reader.pairs(object);
    }
    reader.keys
}

/// Keys of every document's top-level mapping (a multi-document stream lists each in turn).
pub(crate) fn yaml(root: Node, source: &str) -> Keys {
    let mut reader = Reader::new(source, YAML_PAIRS);
    let mut cursor = root.walk();
    for document in root.named_children(&mut cursor).filter(|n| n.kind() == "document") {
        if let Some(mapping) = yaml_mapping(document) {
            reader.pairs(mapping);
        }
    }
    reader.keys
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

pub(crate) fn toml(root: Node, source: &str) -> Keys {
    let mut reader = Reader::new(source, PAIRS);
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
        reader.push(kind, format!("{open}{name}{close}"), name, child, mapping);
    }
    reader.keys
}

/// A mapping's pairs, in order.
fn pair_nodes<'t>(mapping: Node<'t>, pair_kinds: &[&str]) -> impl Iterator<Item = Node<'t>> {
    let mut cursor = mapping.walk();
    let pairs: Vec<Node<'t>> = mapping.named_children(&mut cursor).filter(|n| pair_kinds.contains(&n.kind())).collect();
    pairs.into_iter()
}

/// How many pairs `node` holds at any depth, itself not counted.
fn nested_pairs(node: Node, pair_kinds: &[&str]) -> usize {
    let mut count = 0;
    let mut cursor = node.walk();
    let mut pending: Vec<Node> = node.named_children(&mut cursor).collect();
    while let Some(node) = pending.pop() {
        count += usize::from(pair_kinds.contains(&node.kind()));
        let mut cursor = node.walk();
        pending.extend(node.named_children(&mut cursor));
    }
    count
}

/// The keys of a mapping's pairs, in order.
fn keys(mapping: Node, pair_kinds: &[&str], source: &str) -> Vec<String> {
    pair_nodes(mapping, pair_kinds).filter_map(|pair| pair_key(pair, source)).collect()
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
        hidden_fields: 0,
    }
}
