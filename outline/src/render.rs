//! The two text views of an [`Outline`]. Both are plain, compact and byte-deterministic: one
//! line per definition, `L<start>-<end>` spans (`L<n>` for one line), two spaces per nesting level.
//! A type's consecutive fields share one line. When part of the file was not outlined from a
//! syntax tree, the first line says which lines.

use std::fmt::Write;

use crate::model::{Definition, Kind, Outline};

/// How many unparsed spans the first line lists before it only counts the rest.
const LISTED_SPANS: usize = 5;

/// One line per definition with its span and signature, nested by owner:
///
/// ```text
/// L40-51 impl<'a, T: Clone> Config<'a, T>
///   L41-43 pub fn new(name: &'a str) -> Self
/// ```
///
/// A run of fields prints their signatures on one line: `L15-17 pub name: String; pub port: u16`.
pub fn render_signatures(outline: &Outline) -> String {
    let mut out = String::new();
    push_incomplete(outline, &mut out);
    push_level(&outline.items, 0, View::Signatures, &mut out);
    out
}

/// Structure: an `imports` line, then definitions by kind and name, nested by owner:
///
/// ```text
/// imports L2-6: std::fmt; serde::Deserialize
/// L14-17 struct Config
///   L15-16 fields name, port
/// L40-51 impl Config<'a, T>
///   L41-43 method new
/// ```
///
/// Markdown headings, data keys, TOML tables and re-exports print as written (`## Usage`, `name`,
/// `[package]`, `export * from './a'`).
pub fn render_map(outline: &Outline) -> String {
    let mut out = String::new();
    push_incomplete(outline, &mut out);
    if let (Some(first), Some(last)) = (outline.imports.first(), outline.imports.last()) {
        let texts: Vec<&str> = outline.imports.iter().map(|import| import.text.as_str()).collect();
        let _ = writeln!(out, "imports {}: {}", span(first.line, last.line), texts.join("; "));
    }
    push_level(&outline.items, 0, View::Map, &mut out);
    out
}

/// Definitions alone, as the map prints them (the heading outline of a text file).
pub(crate) fn render_items(items: &[Definition]) -> String {
    let mut out = String::new();
    push_level(items, 0, View::Map, &mut out);
    out
}

/// Whether a rendered signatures or map view lists any definition: every definition line starts
/// at column 0 (top level) with its `L<n>` span; the `imports` and `[outline incomplete…]` lines
/// do not.
pub fn lists_definitions(view: &str) -> bool {
    view.lines().any(|line| line.strip_prefix('L').is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit())))
}

#[derive(Clone, Copy)]
enum View {
    Signatures,
    Map,
}

impl View {
    fn head(self, definition: &Definition) -> String {
        match (self, definition.kind) {
            (View::Signatures, _) | (View::Map, Kind::Heading | Kind::Key | Kind::Table | Kind::Export) => {
                definition.signature.clone()
            }
            (View::Map, kind) => format!("{} {}", kind.label(), definition.name),
        }
    }

    /// One line for a run of fields: their signatures, or their names.
    fn fields(self, fields: &[Definition]) -> String {
        match self {
            View::Signatures => {
                let mut signatures: Vec<&str> = fields.iter().map(|field| field.signature.as_str()).collect();
                // Fields declared together (`Spec, Status string`) share one signature.
                signatures.dedup();
                signatures.join("; ")
            }
            View::Map => {
                let names: Vec<&str> = fields.iter().map(|field| field.name.as_str()).collect();
                let label = if fields.len() > 1 { "fields" } else { "field" };
                format!("{label} {}", names.join(", "))
            }
        }
    }
}

/// `[outline incomplete: lines 40-57, 90 not parsed]`, with the reason when the whole outline is
/// the line heuristic's.
fn push_incomplete(outline: &Outline, out: &mut String) {
    if outline.unparsed.is_empty() && outline.degraded.is_none() {
        return;
    }
    out.push_str("[outline incomplete: ");
    if !outline.unparsed.is_empty() {
        let listed: Vec<String> =
            outline.unparsed.iter().take(LISTED_SPANS).map(|&(start, end)| span_text(start, end)).collect();
        let one_line = matches!(outline.unparsed[..], [(start, end)] if start == end);
        let _ = write!(out, "{} {}", if one_line { "line" } else { "lines" }, listed.join(", "));
        let more = outline.unparsed.len().saturating_sub(LISTED_SPANS);
        if more > 0 {
            let _ = write!(out, " and {more} more spans");
        }
        out.push_str(" not parsed");
    }
    if let Some(reason) = &outline.degraded {
        let _ = write!(out, " ({reason}); definitions found line by line");
    }
    out.push_str("]\n");
}

fn push_level(definitions: &[Definition], depth: usize, view: View, out: &mut String) {
    let mut rest = definitions;
    while let Some(first) = rest.first() {
        let run = rest.iter().take_while(|definition| definition.kind == Kind::Field).count();
        if run > 0 {
            let (fields, after) = rest.split_at(run);
            let last = &fields[run - 1];
            push_line(depth, span(first.start_line, last.end_line), &view.fields(fields), out);
            rest = after;
            continue;
        }
        push_line(depth, span(first.start_line, first.end_line), &view.head(first), out);
        push_level(&first.children, depth + 1, view, out);
        rest = &rest[1..];
    }
}

fn push_line(depth: usize, span: String, text: &str, out: &mut String) {
    let _ = writeln!(out, "{:indent$}{span} {text}", "", indent = depth * 2);
}

fn span(start: u32, end: u32) -> String {
    format!("L{}", span_text(start, end))
}

fn span_text(start: u32, end: u32) -> String {
    if end > start { format!("{start}-{end}") } else { format!("{start}") }
}
