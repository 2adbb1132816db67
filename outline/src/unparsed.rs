//! Which lines a syntax tree could not parse, so a view can say where definitions may be missing.

use tree_sitter::Tree;

use crate::text::node_lines;

/// Line spans of the outermost error nodes and of the tokens the parser had to assume (missing
/// nodes), merged.
pub(crate) fn error_lines(tree: &Tree, source: &str) -> Vec<(u32, u32)> {
    let mut spans = Vec::new();
    let mut pending = vec![tree.root_node()];
    while let Some(node) = pending.pop() {
        if node.is_error() || node.is_missing() {
            spans.push(node_lines(node, source));
        } else if node.has_error() {
            let mut cursor = node.walk();
            pending.extend(node.children(&mut cursor));
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
