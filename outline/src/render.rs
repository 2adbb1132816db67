//! The two text views of an [`Outline`]. Both are plain, compact and byte-deterministic: one
//! line per definition, `L<start>-<end>` spans (`L<n>` for one line), two spaces per nesting level.

use std::borrow::Cow;
use std::fmt::Write;

use crate::model::{Definition, Kind, Outline};

/// One line per definition with its span and signature, nested by owner:
///
/// ```text
/// L40-51 impl<'a, T: Clone> Config<'a, T>
///   L41-43 pub fn new(name: &'a str) -> Self
/// ```
pub fn render_signatures(outline: &Outline) -> String {
    let mut out = String::new();
    push_degraded(outline, &mut out);
    for item in &outline.items {
        push_tree(item, 0, &mut out, &|d: &Definition| Cow::Borrowed(d.signature.as_str()));
    }
    out
}

/// Structure: an `imports` line, then definitions by kind and name, nested by owner:
///
/// ```text
/// imports L2-6: std::fmt; serde::Deserialize
/// L14-17 struct Config
/// L40-51 impl Config<'a, T>
///   L41-43 method new
/// ```
///
/// Markdown headings, data keys, TOML tables and re-exports print as written (`## Usage`, `name`,
/// `[package]`, `export * from './a'`).
pub fn render_map(outline: &Outline) -> String {
    let mut out = String::new();
    push_degraded(outline, &mut out);
    if let (Some(first), Some(last)) = (outline.imports.first(), outline.imports.last()) {
        let texts: Vec<&str> = outline.imports.iter().map(|import| import.text.as_str()).collect();
        let _ = writeln!(out, "imports {}: {}", span(first.line, last.line), texts.join("; "));
    }
    for item in &outline.items {
        push_tree(item, 0, &mut out, &map_head);
    }
    out
}

/// Whether a rendered signatures or map view lists any definition: every definition line starts
/// at column 0 (top level) with its `L<n>` span; the `imports` and `!` lines do not.
pub fn lists_definitions(view: &str) -> bool {
    view.lines().any(|line| line.strip_prefix('L').is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit())))
}

fn map_head(definition: &Definition) -> Cow<'_, str> {
    match definition.kind {
        Kind::Heading | Kind::Key | Kind::Table | Kind::Export => Cow::Borrowed(&definition.signature),
        kind => Cow::Owned(format!("{} {}", kind.label(), definition.name)),
    }
}

fn push_degraded(outline: &Outline, out: &mut String) {
    if let Some(reason) = &outline.degraded {
        let _ = writeln!(out, "! heuristic outline ({reason})");
    }
}

fn push_tree(definition: &Definition, depth: usize, out: &mut String, head: &dyn Fn(&Definition) -> Cow<'_, str>) {
    let _ = writeln!(
        out,
        "{:indent$}{} {}",
        "",
        span(definition.start_line, definition.end_line),
        head(definition),
        indent = depth * 2
    );
    for child in &definition.children {
        push_tree(child, depth + 1, out, head);
    }
}

fn span(start: u32, end: u32) -> String {
    if end > start { format!("L{start}-{end}") } else { format!("L{start}") }
}
