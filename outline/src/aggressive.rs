//! The aggressive view: the source without comments, blank lines, trailing whitespace and runs of
//! inner spaces, with code and literals otherwise untouched.
//!
//! Everything is decided from the syntax tree: comments are comment nodes, and the bytes of
//! string-like nodes (strings, heredocs, regexes, raw strings, code blocks) are never rewritten,
//! so `"// not a comment"` and a multi-line string's blank lines survive.

use tree_sitter::{Tree, TreeCursor};

use crate::Language;

/// One comment or literal, in source order.
struct Region {
    start: usize,
    end: usize,
    comment: bool,
}

/// How whitespace outside literals is tidied.
struct Tidy {
    /// Drop blank lines (code) or squeeze runs of them to one (Markdown, where they end paragraphs).
    drop_blank_lines: bool,
    /// Squeeze inner runs of spaces/tabs to one space (not in Markdown, where alignment can matter).
    squeeze_spaces: bool,
}

pub(crate) fn aggressive(language: Language, source: &str, tree: &Tree) -> String {
    let lexical = language.lexical();
    let regions = regions(tree, source, lexical.comments, lexical.literals);
    let (text, protected) = drop_comments(source, &regions, lexical.directives);
    let markdown = language == Language::Markdown;
    tidy(&text, &protected, &Tidy { drop_blank_lines: !markdown, squeeze_spaces: !markdown })
}

/// Membership table over every symbol id of the grammar, so aliased kinds (several ids, one
/// name) are all caught. Only named kinds: TypeScript's `string` keyword is not a string.
fn kind_table(tree: &Tree, kinds: &[&str]) -> Vec<bool> {
    let grammar = tree.language();
    (0..grammar.node_kind_count())
        .map(|id| {
            u16::try_from(id).ok().is_some_and(|id| {
                grammar.node_kind_is_named(id) && grammar.node_kind_for_id(id).is_some_and(|kind| kinds.contains(&kind))
            })
        })
        .collect()
}

/// Comment and literal nodes, outermost only, in source order (iterative: trees can be deep).
///
/// Spaces and tabs ending a literal node are not part of the literal (a C macro body runs to the
/// end of its line; strings end at their quote).
fn regions(tree: &Tree, source: &str, comments: &[&str], literals: &[&str]) -> Vec<Region> {
    let is_comment = kind_table(tree, comments);
    let is_literal = kind_table(tree, literals);
    let mut found = Vec::new();
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        let id = usize::from(node.kind_id());
        let comment = is_comment.get(id).copied().unwrap_or(false);
        if comment {
            found.push(Region { start: node.start_byte(), end: node.end_byte(), comment });
        } else if is_literal.get(id).copied().unwrap_or(false) {
            let text = source.get(node.byte_range()).unwrap_or("");
            let end = node.start_byte() + text.trim_end_matches([' ', '\t']).len();
            found.push(Region { start: node.start_byte(), end, comment });
        } else if cursor.goto_first_child() {
            continue;
        }
        if !next_subtree(&mut cursor) {
            return found;
        }
    }
}

/// Moves to the next sibling, or to an ancestor's next sibling; `false` at the end of the tree.
fn next_subtree(cursor: &mut TreeCursor) -> bool {
    loop {
        if cursor.goto_next_sibling() {
            return true;
        }
        if !cursor.goto_parent() {
            return false;
        }
    }
}

/// The source without comments, and for each output byte whether it belongs to a literal (or a
/// kept directive comment) and must not be rewritten.
fn drop_comments(source: &str, regions: &[Region], directives: &[&str]) -> (String, Vec<bool>) {
    let mut text = String::with_capacity(source.len());
    let mut protected = Vec::with_capacity(source.len());
    let mut position = 0;
    let mut push = |text: &mut String, piece: &str, keep: bool| {
        text.push_str(piece);
        protected.resize(text.len(), keep);
    };
    for region in regions {
        let Some(raw) = source.get(region.start..region.end).filter(|_| region.start >= position) else { continue };
        push(&mut text, &source[position..region.start], false);
        // A line comment may own its newline; the line break is code, not comment.
        let body = if region.comment { raw.trim_end_matches(['\n', '\r']) } else { raw };
        position = region.start + body.len();
        // A first line's `#!` names the interpreter that runs the file (`#!/bin/bash`,
        // `#!/usr/bin/env -S python3 -u`): what it says is no comment, whatever the grammar calls it.
        let shebang = region.start == 0 && body.starts_with("#!");
        if !region.comment || shebang || directives.iter().any(|d| body.starts_with(d)) {
            push(&mut text, body, true);
            continue;
        }
        // Removing `a/*x*/b` must not glue `a` and `b` together; a comment spanning lines
        // separates like a line break (it matters to Go's and JavaScript's semicolon insertion).
        let glued = text.chars().next_back().is_some_and(|c| !c.is_whitespace())
            && source[position..].chars().next().is_some_and(|c| !c.is_whitespace());
        if glued {
            push(&mut text, if body.contains('\n') { "\n" } else { " " }, false);
        }
    }
    push(&mut text, &source[position..], false);
    (text, protected)
}

/// The aggressive view of a file in a language without a grammar here, by its `extension` (see
/// [`lexical`]); `Err` says why nothing is removed.
pub(crate) fn without_grammar(extension: &str, source: &str) -> Result<String, String> {
    let regions = lexical::regions(extension, source)?;
    let (text, protected) = drop_comments(source, &regions, &[]);
    Ok(tidy(&text, &protected, &Tidy { drop_blank_lines: true, squeeze_spaces: true }))
}

fn tidy(text: &str, protected: &[bool], tidy: &Tidy) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank_pending = false;
    let mut start = 0;
    while start < text.len() {
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let has_newline = end < text.len();
        let line = &text[start..end];
        let mask = &protected[start..end];
        let literal = mask.contains(&true) || (has_newline && protected[end]);
        // A blank line ends a backslash continuation (Python, C macros): dropping it would join
        // the next line to the previous statement.
        let ends_continuation = out.ends_with("\\\n");
        if !literal && line.trim().is_empty() && !ends_continuation {
            // Blank lines before the first kept line are dropped in both modes.
            blank_pending = !out.is_empty();
        } else {
            if blank_pending && !tidy.drop_blank_lines {
                out.push('\n');
            }
            blank_pending = false;
            push_line(&mut out, line, mask, tidy.squeeze_spaces);
            if has_newline {
                out.push('\n');
            }
        }
        start = end + 1;
    }
    out
}

/// Appends one line: indentation kept, trailing whitespace dropped, inner runs of spaces and
/// tabs squeezed to one space; literal bytes copied as they are.
fn push_line(out: &mut String, line: &str, protected: &[bool], squeeze: bool) {
    let bytes = line.as_bytes();
    let is_space = |i: usize| !protected[i] && matches!(bytes[i], b' ' | b'\t');
    let mut end = bytes.len();
    while end > 0 && !protected[end - 1] && bytes[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    let mut i = (0..end).find(|&i| !is_space(i)).unwrap_or(end);
    out.push_str(&line[..i]);
    while i < end {
        let run_end = (i..end).find(|&j| !is_space(j)).unwrap_or(end);
        if run_end > i {
            out.push_str(if squeeze { " " } else { &line[i..run_end] });
            i = run_end;
            continue;
        }
        let next = (i..end).find(|&j| is_space(j)).unwrap_or(end);
        out.push_str(&line[i..next]);
        i = next;
    }
}

mod lexical;
#[cfg(test)]
mod tests;
