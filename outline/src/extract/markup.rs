//! Markdown: headings nested by level. Shared with the fallback scanner, which finds headings
//! line by line and nests them the same way.

use tree_sitter::Node;

use super::MAX_DEPTH;
use crate::model::{Definition, Kind};
use crate::text::{MAX_SIGNATURE, collapse, node_text, truncate};

/// A heading in document order.
pub(crate) struct Heading {
    pub level: usize,
    pub text: String,
    pub line: u32,
}

pub(crate) fn headings(root: Node, source: &str) -> Vec<Definition> {
    let mut found = Vec::new();
    collect(root, source, 0, &mut found);
    nest(&found, source)
}

/// Document-level headings: those in sections, not in block quotes or lists.
fn collect(node: Node, source: &str, depth: usize, found: &mut Vec<Heading>) {
    if depth > MAX_DEPTH {
        return;
    }
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        match child.kind() {
            "section" => collect(child, source, depth + 1, found),
            "atx_heading" | "setext_heading" => {
                let Some(level) = heading_level(child) else { continue };
                let text = child.child_by_field_name("heading_content").map_or("", |c| node_text(c, source));
                let line = crate::text::line_number(child.start_position().row);
                found.push(Heading { level, text: collapse(text), line });
            }
            _ => {}
        }
    }
}

/// From the marker child: `atx_h3_marker` is 3, `setext_h2_underline` is 2.
fn heading_level(heading: Node) -> Option<usize> {
    let mut cursor = heading.walk();
    let levels = heading.children(&mut cursor).find_map(|child| {
        let kind = child.kind();
        let digit = kind.strip_prefix("atx_h").or_else(|| kind.strip_prefix("setext_h"))?.chars().next()?;
        digit.to_digit(10)
    });
    levels.map(|level| level as usize)
}

/// Nests headings by level. A heading's section runs to the line before the next heading of the
/// same or a higher level (or to the end), not counting trailing blank lines.
pub(crate) fn nest(headings: &[Heading], source: &str) -> Vec<Definition> {
    let lines: Vec<&str> = source.lines().collect();
    let mut ends = vec![u32::try_from(lines.len()).unwrap_or(u32::MAX); headings.len()];
    let mut open: Vec<usize> = Vec::new();
    for (index, heading) in headings.iter().enumerate() {
        while let Some(&top) = open.last() {
            if headings[top].level < heading.level {
                break;
            }
            ends[top] = heading.line.saturating_sub(1);
            open.pop();
        }
        open.push(index);
    }
    for (end, heading) in ends.iter_mut().zip(headings) {
        while *end > heading.line && lines.get(*end as usize - 1).is_some_and(|line| line.trim().is_empty()) {
            *end -= 1;
        }
        *end = (*end).max(heading.line);
    }
    let mut next = 0;
    build(headings, &ends, &mut next, 0)
}

/// Consumes headings deeper than `parent_level`; recursion depth is bounded by the six levels.
fn build(headings: &[Heading], ends: &[u32], next: &mut usize, parent_level: usize) -> Vec<Definition> {
    let mut out = Vec::new();
    while let Some(heading) = headings.get(*next).filter(|h| h.level > parent_level) {
        let end_line = ends[*next];
        *next += 1;
        let children = build(headings, ends, next, heading.level);
        out.push(Definition {
            kind: Kind::Heading,
            name: heading.text.clone(),
            signature: truncate(format!("{} {}", "#".repeat(heading.level), heading.text), MAX_SIGNATURE),
            uncut: None,
            start_line: heading.line,
            head_line: heading.line,
            end_line,
            children,
            hidden_fields: 0,
        });
    }
    out
}
