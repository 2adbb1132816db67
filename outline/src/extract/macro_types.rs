//! Types that a macro call declares in its own syntax, which is not Rust: bitflags' `bitflags! {
//! #[derive(…)] pub struct Flags: u32 { const A = 1; … } }` (with the `O_APPEND;` entries of
//! crates' own variants of it, such as nix's `libc_bitflags!`), the most common item syntax of
//! macro calls that a grammar reads as errors; enums with a head of the macro's own
//! (`modifier! { enum HourBase(bool) { … } }`); and opaque types declared by name alone (libc's
//! `extern_ty! { pub type DIR; }`). Without this the type, and its flags, would be lost; they are
//! read here from the macro call's tokens.

use std::ops::Range;

use tree_sitter::Node;

use crate::model::Kind;

/// `[attributes] [visibility] struct Name: Bits { flags }`, `… enum Name … { … }` or `… type
/// Name;`.
pub(crate) struct MacroType<'t> {
    /// Struct (a flags type), enum or type.
    pub kind: Kind,
    /// Its attributes, `#` to `]`, in order (doc comments are not among them).
    pub attributes: Vec<Range<usize>>,
    /// From the visibility (or keyword) to the body or the `;`: `pub struct Flags: u32`.
    pub head: Range<usize>,
    /// Where the declaration starts (its first attribute or its head), and its last token (the
    /// `{ … }`, or the `;` of a type).
    pub first: Node<'t>,
    pub head_start: Node<'t>,
    pub last: Node<'t>,
    pub name: String,
    /// A flags type's flags; none for an enum (variants are not outlined).
    pub flags: Vec<Flag<'t>>,
}

/// One named flag: `const A = …;` (`constant`) or `O_APPEND;`.
pub(crate) struct Flag<'t> {
    pub name: String,
    pub constant: bool,
    /// Its first token (an attribute's `#`), its own first (`const` or the name), its last.
    pub first: Node<'t>,
    pub head: Node<'t>,
    pub last: Node<'t>,
}

/// The type that `region` of `macro_call` declares, when it declares exactly one and nothing else.
pub(crate) fn macro_type<'t>(macro_call: Node<'t>, region: &tree_sitter::Range, source: &str) -> Option<MacroType<'t>> {
    let group = macro_call.descendant_for_byte_range(region.start_byte, region.end_byte)?;
    if group.kind() != "token_tree" {
        return None;
    }
    let mut cursor = group.walk();
    let tokens: Vec<Node<'t>> = group
        .children(&mut cursor)
        .filter(|token| region.start_byte <= token.start_byte() && token.end_byte() <= region.end_byte)
        .filter(|token| !is_comment(*token))
        .collect();
    let (attributes, rest) = leading_attributes(&tokens);
    let (&head_start, _) = rest.split_first()?;
    let rest = skip_visibility(rest, source);
    let [keyword, name, between @ .., last] = rest else { return None };
    let text = |token: &Node| source.get(token.byte_range()).unwrap_or("");
    // What stands between the name and the end is a few tokens (`: u32`, `(bool)`); a `{ … }` or
    // `;` among them means the region holds more than one declaration.
    if name.kind() != "identifier" || between.iter().any(|t| is_braces(*t) || t.kind() == ";") {
        return None;
    }
    let (kind, flags) = match (text(keyword), is_braces(*last)) {
        ("struct", true) if between.first().is_some_and(|colon| colon.kind() == ":") => {
            (Kind::Struct, flags(*last, source)?)
        }
        ("enum", true) => (Kind::Enum, Vec::new()),
        ("type", false) if between.is_empty() && last.kind() == ";" => (Kind::TypeAlias, Vec::new()),
        _ => return None,
    };
    let head_end = between.last().unwrap_or(name).end_byte();
    Some(MacroType {
        kind,
        attributes: attributes.iter().map(|(start, end)| start.start_byte()..end.end_byte()).collect(),
        head: head_start.start_byte()..head_end,
        first: attributes.first().map_or(head_start, |(start, _)| *start),
        head_start,
        last: *last,
        name: text(name).to_string(),
        flags,
    })
}

/// The flags of a `{ … }` group, in order; `None` when an entry is not a flag.
fn flags<'t>(body: Node<'t>, source: &str) -> Option<Vec<Flag<'t>>> {
    let mut cursor = body.walk();
    let tokens: Vec<Node<'t>> = body.children(&mut cursor).filter(|token| !is_comment(*token)).collect();
    let inner = tokens.get(1..tokens.len().checked_sub(1)?)?;
    let mut flags = Vec::new();
    for entry in inner.split(|token| token.kind() == ";").filter(|entry| !entry.is_empty()) {
        let (attributes, rest) = leading_attributes(entry);
        let text = |token: &Node| source.get(token.byte_range()).unwrap_or("");
        let constant = rest.first().is_some_and(|token| text(token) == "const");
        let name = rest.get(usize::from(constant))?;
        // `const _ = !0;` names no flag: it declares that every bit is defined.
        if text(name) == "_" {
            continue;
        }
        if name.kind() != "identifier" {
            return None;
        }
        let first = attributes.first().map_or(rest[0], |(start, _)| *start);
        let last = *entry.last()?;
        flags.push(Flag { name: text(name).to_string(), constant, first, head: rest[0], last });
    }
    Some(flags)
}

/// The `#[…]` attributes (as their `#` and `[…]` tokens) that `tokens` start with, and the rest.
fn leading_attributes<'a, 't>(tokens: &'a [Node<'t>]) -> (Vec<(Node<'t>, Node<'t>)>, &'a [Node<'t>]) {
    let mut attributes = Vec::new();
    let mut rest = tokens;
    while let [hash, group, after @ ..] = rest
        && hash.kind() == "#"
        && group.kind() == "token_tree"
        && group.child(0).is_some_and(|open| open.kind() == "[")
    {
        attributes.push((*hash, *group));
        rest = after;
    }
    (attributes, rest)
}

/// `tokens` after a leading `pub`, `pub(crate)`, `pub(in path)`.
fn skip_visibility<'a, 't>(tokens: &'a [Node<'t>], source: &str) -> &'a [Node<'t>] {
    match tokens {
        [word, rest @ ..] if source.get(word.byte_range()) == Some("pub") => match rest {
            [group, after @ ..] if group.kind() == "token_tree" && group.child(0).is_some_and(|o| o.kind() == "(") => {
                after
            }
            _ => rest,
        },
        _ => tokens,
    }
}

fn is_braces(token: Node) -> bool {
    token.kind() == "token_tree" && token.child(0).is_some_and(|open| open.kind() == "{")
}

fn is_comment(token: Node) -> bool {
    matches!(token.kind(), "line_comment" | "block_comment")
}
