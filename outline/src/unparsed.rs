//! Which lines a syntax tree could not parse, so a view can say where definitions may be missing.

use tree_sitter::Tree;

use crate::text::node_lines;

/// Line spans the parser could not make sense of: the loose tokens directly inside error nodes
/// and the tokens it had to assume (missing nodes), merged. Whole constructs it recognised inside
/// an error node (a function before the unclosed brace) do not count: they are outlined.
pub(crate) fn error_lines(tree: &Tree, source: &str) -> Vec<(u32, u32)> {
    let mut spans = Vec::new();
    let mut pending = vec![tree.root_node()];
    while let Some(node) = pending.pop() {
        if node.is_missing() {
            spans.push(node_lines(node, source));
            continue;
        }
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if child.has_error() {
                pending.push(child);
            } else if node.is_error() && child.child_count() == 0 {
                spans.push(node_lines(child, source));
            }
        }
        if node.is_error() && node.child_count() == 0 {
            spans.push(node_lines(node, source));
        }
    }
    merge(spans)
}

/// Sorts spans and joins those that overlap or touch.
pub(crate) fn merge(mut spans: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    spans.sort_unstable();
    let mut merged: Vec<(u32, u32)> = Vec::with_capacity(spans.len());
    for (start, end) in spans {
        match merged.last_mut() {
            Some(last) if start <= last.1.saturating_add(1) => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}

/// The whole of `source` as one span, or none for an empty file.
pub(crate) fn all_lines(source: &str) -> Vec<(u32, u32)> {
    let lines = u32::try_from(source.lines().count()).unwrap_or(u32::MAX);
    if lines == 0 { Vec::new() } else { vec![(1, lines)] }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_merge_when_they_overlap_or_touch() {
        assert_eq!(merge(vec![(9, 9), (1, 3), (4, 5), (2, 2), (7, 8)]), [(1, 5), (7, 9)]);
        assert_eq!(all_lines(""), []);
        assert_eq!(all_lines("a\nb\n"), [(1, 2)]);
    }
}
