//! What a brace left open swallowed, so a view of a file caught mid-edit names those lines.
//!
//! An `if` left open inside a method makes the method end at the class's brace, and every later
//! method parses as statements in its body (a call, a block): the view lists none of them, and
//! those lines hold no error node to flag. In a file laid out by its nesting, each body that took
//! a `}` meant for an outer one is closed at a shallower indentation than the line that opened
//! it; such bodies nest, and the innermost is the one left open.

use tree_sitter::{Node, Tree};

use crate::text::{Lines, line_number, node_lines};
use crate::unparsed::broken_statements;
use crate::{Language, fallback};

/// The spans a brace left open swallowed: in each file-level statement holding an error, from
/// the innermost body closed too shallow to the statement's end; failing that, from a block the
/// parser had to close itself, when what follows its `{` is indented no deeper than the line it
/// is on (`import … {` typed at the top of a file). A span is kept only when a line in it looks
/// like a definition and no outlined definition starts there (`outlined`: each one's first to
/// head line): otherwise nothing was lost, however the braces fell.
pub(crate) fn unclosed_blocks(
    tree: &Tree,
    outlined: &[(u32, u32)],
    language: Language,
    lines: &Lines,
) -> Vec<(u32, u32)> {
    let root = tree.root_node();
    if !root.has_error() || !language.is_code() {
        return Vec::new();
    }
    let (layout, source) = (Layout { lines }, lines.source);
    let outlined_line = lines.covered_by(outlined);
    let hides = |&(start, end): &(u32, u32)| {
        (start..=end.min(lines.count())).any(|line| {
            !outlined_line[line as usize - 1] && fallback::looks_like_definition(language, lines.text(line))
        })
    };
    let mut spans: Vec<(u32, u32)> = broken_statements(root)
        .into_iter()
        .filter_map(|holder| {
            let start = node_lines(layout.innermost_misclosed(holder)?, source).0;
            Some((start, node_lines(holder, source).1.max(start)))
        })
        .filter(hides)
        .collect();
    if spans.is_empty() {
        spans.extend(assumed_closes(root, source).iter().find_map(|close| layout.swallowed_by(close)).filter(hides));
    }
    spans
}

/// A file's lines, to judge blocks by their indentation; rows are tree-sitter's (0-based).
struct Layout<'l, 's> {
    lines: &'l Lines<'s>,
}

impl Layout<'_, '_> {
    fn text(&self, row: usize) -> &str {
        self.lines.text(line_number(row))
    }

    /// A row's indentation in columns, a tab reaching the next multiple of `tab`.
    fn width(&self, row: usize, tab: usize) -> usize {
        self.text(row)
            .chars()
            .take_while(|c| c.is_whitespace())
            .fold(0, |width, c| if c == '\t' { (width / tab + 1) * tab } else { width + 1 })
    }

    /// Whether `row` is indented less than `than`, whether a tab is four columns or eight: a file
    /// may mix tabs and spaces, and either width is common.
    fn shallower(&self, row: usize, than: usize) -> bool {
        [4, 8].iter().all(|&tab| self.width(row, tab) < self.width(than, tab))
    }

    /// What precedes byte `at` on its line.
    fn before_on_line(&self, at: usize) -> &str {
        let before = &self.lines.source[..at];
        &before[before.rfind('\n').map_or(0, |newline| newline + 1)..]
    }

    /// Whether `node` is a body closed at a shallower indentation than the line its owner starts
    /// (a tab counted as four columns and as eight):
    /// the `{` ends a line (`if (x) {`, a head over several lines, `} else {`) or starts one (C#'s
    /// braces), the owner starts its line with a word, and the `}` starts its own. An object or a
    /// type opened on a continuation line (`| {`, `? {`: its owner starts with an operator) is
    /// laid out by the expression it is in, and a `}` indented deeper than its head lost nothing.
    fn closed_too_shallow(&self, node: Node) -> bool {
        let count = u32::try_from(node.child_count()).unwrap_or(0);
        let (Some(open), Some(close), Some(owner)) =
            (node.child(0), node.child(count.saturating_sub(1)), node.parent())
        else {
            return false;
        };
        // Cheap tests first: most nodes are no block, and a block on one line cannot be judged.
        if open.kind() != "{"
            || close.kind() != "}"
            || close.is_missing()
            || close.start_position().row <= open.start_position().row
        {
            return false;
        }
        let rest = self.lines.source[open.end_byte()..].split('\n').next().unwrap_or("").trim();
        let open_ends_or_starts_line = rest.is_empty() || rest.starts_with("//") || starts_its_line(self, open);
        let owner_starts_line = self.lines.source[owner.start_byte()..]
            .starts_with(|c: char| c.is_alphanumeric() || "_$#@*".contains(c))
            && self.before_on_line(owner.start_byte()).trim_start_matches([' ', '\t', '}']).is_empty();
        open_ends_or_starts_line
            && owner_starts_line
            && starts_its_line(self, close)
            && self.shallower(close.start_position().row, owner.start_position().row)
    }

    /// The first block in `holder` closed too shallow, then the innermost such block within it.
    fn innermost_misclosed<'tree>(&self, holder: Node<'tree>) -> Option<Node<'tree>> {
        let mut blocks = Vec::new();
        let mut pending = vec![holder];
        while let Some(node) = pending.pop() {
            if self.closed_too_shallow(node) {
                blocks.push(node);
            }
            let mut cursor = node.walk();
            pending.extend(node.children(&mut cursor).filter(|child| child.child_count() > 0));
        }
        blocks.sort_by_key(Node::start_byte);
        let (&first, rest) = blocks.split_first()?;
        // In start order, the first block inside the current one is the next level down.
        Some(rest.iter().fold(first, |open, &inner| {
            if inner.start_byte() > open.start_byte() && inner.end_byte() <= open.end_byte() { inner } else { open }
        }))
    }

    /// The lines from a `{` the parser closed itself to where it did, when a line after it is
    /// indented no deeper than the `{` line; none when only the last brace is missing.
    fn swallowed_by(&self, close: &AssumedClose) -> Option<(u32, u32)> {
        let opened = close.open.start_position().row;
        let swallowed = (opened + 1..(self.lines.count() as usize).min(close.line as usize)).any(|row| {
            let text = self.text(row).trim();
            // A line of one character (a bracket) says nothing of the nesting.
            text.len() > 1 && !self.shallower(opened, row) && !text.starts_with('}')
        });
        // A brace assumed at the end of the file sits after its last line break.
        let last_line = self.lines.count();
        let start = line_number(opened);
        swallowed.then(|| (start, close.line.clamp(start, last_line.max(start))))
    }
}

/// Whether only spaces precede `node` on its line.
fn starts_its_line(layout: &Layout, node: Node) -> bool {
    layout.before_on_line(node.start_byte()).trim().is_empty()
}

/// Where the parser closed a block it found no `}` for.
struct AssumedClose<'tree> {
    /// The `{` it left open.
    open: Node<'tree>,
    /// The line where the parser closed it instead.
    line: u32,
}

/// Each place where the parser closed a block without its `}`, in document order: a `}` it had to
/// assume (a missing node, closing the block it ends), or an error node holding a `{` with no
/// `}` after it (C#'s `namespace N {` whose brace a class took), closed where the error ends.
fn assumed_closes<'tree>(root: Node<'tree>, source: &str) -> Vec<AssumedClose<'tree>> {
    let mut found = Vec::new();
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        if node.is_missing() && node.kind() == "}" {
            if let Some(open) = node.parent().and_then(|block| block.child(0)).filter(|open| open.kind() == "{") {
                found.push((node.start_byte(), AssumedClose { open, line: line_number(node.start_position().row) }));
            }
            continue;
        }
        if node.is_error()
            && let Some(open) = brace_left_open(node)
        {
            found.push((node.end_byte(), AssumedClose { open, line: node_lines(node, source).1 }));
        }
        let mut cursor = node.walk();
        pending.extend(node.children(&mut cursor).filter(|child| child.has_error()));
    }
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().map(|(_, close)| close).collect()
}

/// The first of an error node's own `{` tokens that none of them closes.
fn brace_left_open(error: Node) -> Option<Node> {
    let mut cursor = error.walk();
    let mut open = Vec::new();
    for child in error.children(&mut cursor) {
        match child.kind() {
            "{" => open.push(child),
            "}" => {
                open.pop();
            }
            _ => {}
        }
    }
    open.first().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(language: Language, source: &str) -> Tree {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&language.grammar()).unwrap();
        parser.parse(source, None).unwrap()
    }

    fn spans(language: Language, outlined: &[(u32, u32)], source: &str) -> Vec<(u32, u32)> {
        unclosed_blocks(&tree(language, source), outlined, language, &Lines::new(source))
    }

    #[test]
    fn a_brace_left_open_names_the_lines_it_swallowed() {
        let source = "class Store {\n  get(key) {\n    if (key) {\n      return 1;\n    return 2;\n  }\n\n  \
                      set(key, value) {\n    this.map[key] = value;\n  }\n}\n\nfunction open() {}\n";
        // The `if` (line 3) took `get`'s brace, `get` the class's, the class none; `set` (line
        // 8) is in it. Were `set` outlined, nothing would be lost.
        assert_eq!(spans(Language::JavaScript, &[(1, 1), (2, 2)], source), [(3, 13)]);
        assert_eq!(spans(Language::JavaScript, &[(1, 1), (2, 2), (8, 8), (13, 13)], source), []);
        // Closed: nothing assumed.
        let closed = source.replacen("return 1;\n", "return 1;\n    }\n", 1);
        assert_eq!(spans(Language::JavaScript, &[], &closed), []);
        // Only the last brace missing: every block closed where it opened, nothing swallowed.
        let cut = "fn main() {\n    if x {\n        y();\n    }\n";
        assert!(tree(Language::Rust, cut).root_node().has_error());
        assert_eq!(spans(Language::Rust, &[], cut), []);
        // A block closed at another indentation in a statement without an error (`a`) is not
        // taken for the open one.
        let odd = "func a() {\n\tx()\n\t}\n\nfunc f() {\n\tif x {\n\t\ty()\n\n\treturn\n}\n\nfunc g() {\n}\n";
        assert_eq!(spans(Language::Go, &[(1, 1), (5, 5)], odd), [(6, 13)]);
        // A brace typed after an import: the block it opens holds the rest of the file, less
        // indented than it should be; the span starts at that brace.
        let typed = "import { a } from './a'\nimport { b } from './b' {\n\nexport function f() {\n  return a\n}\n";
        assert_eq!(spans(Language::TypeScript, &[], typed), [(2, 6)]);
    }

    #[test]
    fn a_body_after_a_head_over_several_lines_is_judged_by_the_head() {
        // rustfmt's layout: `checkout` loses its `}`; its `match` block took it, and `checkout`
        // the impl's, whose line starts at the margin.
        let source = "impl Pool {\n    pub fn checkout(\n        &mut self,\n        key: u32,\n    ) -> Option<u32> {\n        \
                      match key {\n            0 => None,\n            _ => Some(key),\n\n    }\n\n    pub fn release(&mut self) {}\n}\n";
        assert_eq!(spans(Language::Rust, &[(1, 1), (2, 2)], source), [(6, 13)]);
    }

    #[test]
    fn tabs_of_four_or_eight_columns_are_no_loss() {
        // An unrelated error in the file, and an `if` closed by eight spaces under two tabs: two
        // tabs are eight columns to an editor set to four, so nothing is closed too shallow.
        let source = "describe('store', function () {\n\tit('saves', function () {\n\t\tif (ok) {\n\t\t\tsave();\n        }\n\t});\n\tconst = ;\n\tfunction helper() {\n\t\treturn 1;\n\t}\n});\n";
        assert!(tree(Language::JavaScript, source).root_node().has_error());
        assert_eq!(spans(Language::JavaScript, &[], source), []);
        // Four spaces under two tabs is shallower at either width: `save` took a brace.
        let lost = source.replace("        }\n\t});", "    }\n\t});");
        let parsed = tree(Language::JavaScript, &lost);
        assert!(Layout { lines: &Lines::new(&lost) }.shallower(4, 2));
        assert!(!Layout { lines: &Lines::new(source) }.shallower(4, 2));
        assert!(parsed.root_node().has_error());
    }

    #[test]
    fn odd_layout_of_valid_code_is_no_loss() {
        // An unrelated error (`extern "C" {` to the C grammar's taste is fine; an unknown macro
        // is not) in the file, and a block closed deeper than its head, or with eight spaces
        // under a tab: nothing swallowed, nothing named.
        let source = "#ifndef STORE_H\n#define STORE_H\nSTORE_API int broken(;\n\nstatic int get(int k)\n{\n\tif (k) {\n\t\treturn 1;\n        }\n\treturn 0;\n}\n\nstruct s {\n  int a;\n    };\n#endif\n";
        let parsed = tree(Language::C, source);
        assert!(parsed.root_node().has_error());
        assert_eq!(spans(Language::C, &[(3, 3), (5, 5), (13, 13)], source), []);
    }
}
