//! The two text views of an [`Outline`]. Both are plain, compact and byte-deterministic: one
//! line per definition, starting with its lines (`<start>-<end>`, `<n>` for one line; a bare number
//! costs one token less than an `L`-prefixed one on every line), one space per nesting level (a
//! second space cost a token on every nested line).
//! A type's consecutive fields share one line, and so do a run of same-named functions (overloads,
//! a property's getter and setter), a run of constants (or variables) declared alike, a run of
//! re-exports from modules of one directory and a run of CommonJS exports of names; a trait impl,
//! and a JavaScript/TypeScript object of methods bound to a name, name their members on their own
//! line. When part of the file was not outlined from a syntax tree, the first line says which
//! lines.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::Write;

use crate::model::{Definition, Kind, Outline};
use crate::text::rejects_calls;
use crate::{Language, commonjs_exports, modules, re_exports};

/// The shortest run of same-named functions shown as one line: a getter and setter pair stays two.
const MIN_GROUP: usize = 3;

/// The longest run of fields or constants the signatures view prints with their types and values.
const MAX_TYPED_LIST: usize = 100;

/// The most variants an enum's line names before it counts the rest (`{ EPERM, ENOENT, …, +98
/// more }`): a long enum is a table (error codes, opcodes, key codes) whose entries are read or
/// searched for where its span says, and each variant stays a definition symbol search finds.
const MAX_VARIANTS: usize = 32;

/// How many unparsed spans the first line lists before it only counts the rest.
const LISTED_SPANS: usize = 5;

/// One line per definition with its span and signature, nested by owner:
///
/// ```text
/// 40-51 impl<'a, T: Clone> Config<'a, T>
///  41-43 pub fn new(name: &'a str) -> Self
/// ```
///
/// A run of fields prints their signatures on one line: `15-17 pub name: String; pub port: u16`.
/// A run of at least [`MIN_GROUP`] functions of one name prints the shortest of their signatures
/// and how many more there are: `63-110 function fromEvent<T>(target: any, name: string) (+11
/// more)`.
pub fn render_signatures(outline: &Outline) -> String {
    let mut out = String::new();
    push_incomplete(outline, &mut out);
    push_unlisted_keys(outline, &mut out);
    push_unlisted_code(outline, &mut out);
    push_level(&Page::of(outline), &outline.items, 0, View::Signatures, &mut out);
    out
}

/// Consecutive re-exports of one module, or of one form from modules of one directory, share a
/// line in both views, where it keeps which module each name is from (see [`re_exports`]):
/// `16-18 export * from './internal/{of, from, defer}'`.
/// So do consecutive CommonJS exports of names (see [`commonjs_exports`]): `40-90
/// exports.{isObject, isNull, isFinite = _isFinite}`.
///
/// Structure: an `imports` line naming each module the file imports from once (the names taken
/// are in the lines it spans), then definitions by kind and name, nested by owner:
///
/// ```text
/// imports 2-6: std::{fmt, io}; serde
/// 14-17 struct Config
///  15-16 fields name, port
/// 40-51 impl Config<'a, T>
///  41-43 new
/// ```
///
/// Markdown headings, data keys, TOML tables and re-exports print as written (`## Usage`, `name`,
/// `[package]`, `export * from './a'`).
pub fn render_map(outline: &Outline) -> String {
    let mut out = String::new();
    push_incomplete(outline, &mut out);
    push_unlisted_keys(outline, &mut out);
    push_unlisted_code(outline, &mut out);
    if let (Some(first), Some(last)) = (outline.imports.first(), outline.imports.last()) {
        let mut modules: Vec<String> = Vec::new();
        for import in &outline.imports {
            for module in modules::modules(outline.language, &import.text) {
                if !modules.contains(&module) {
                    modules.push(module);
                }
            }
        }
        let modules = modules::grouped(outline.language, &modules);
        let _ = writeln!(out, "imports {}: {}", span(first.line, last.end_line), modules.join("; "));
    }
    push_level(&Page::of(outline), &outline.items, 0, View::Map, &mut out);
    out
}

/// Definitions alone, as the map prints them (the heading outline of a text file).
pub(crate) fn render_items(items: &[Definition]) -> String {
    let mut out = String::new();
    push_level(&Page::new(items, Vec::new()), items, 0, View::Map, &mut out);
    out
}

/// [`render_items`] with each definition's signature, not its label.
pub(crate) fn render_item_signatures(items: &[Definition]) -> String {
    let mut out = String::new();
    push_level(&Page::new(items, Vec::new()), items, 0, View::Signatures, &mut out);
    out
}

/// Whether a rendered signatures or map view lists any definition: every definition line starts
/// at column 0 (top level) with its span, a digit; the `imports` and `[outline incomplete…]`
/// lines do not.
pub fn lists_definitions(view: &str) -> bool {
    view.lines().any(|line| line.starts_with(|c: char| c.is_ascii_digit()))
}

#[derive(Clone, Copy)]
enum View {
    Signatures,
    Map,
}

impl View {
    fn head(self, definition: &Definition) -> String {
        match (self, definition.kind) {
            (_, Kind::Export) => {
                re_exports::python_statement(definition).unwrap_or_else(|| definition.signature.clone())
            }
            (View::Signatures, _) | (View::Map, Kind::Heading | Kind::Key | Kind::Table) => {
                definition.signature.clone()
            }
            (View::Map, kind) => self.labelled(kind, &map_name(definition)),
        }
    }

    /// `fn connect`, `struct Config`; a method is its bare name, being what a type's members
    /// are unless labelled otherwise (`ctor`, `type`, `const`, `fields`).
    fn labelled(self, kind: Kind, name: &str) -> String {
        match kind {
            Kind::Method => name.to_string(),
            kind => format!("{} {name}", kind.label()),
        }
    }

    /// One line for a run of same-named functions: the shortest signature as written (the first
    /// of equals; not a guard returning `never`, see [`rejects_calls`]) and the count of the
    /// others, or the name with the count. Shortest as written, not as shown: a head short enough
    /// to keep its types would lose to a longer one cut to its names (commander's `option` showed
    /// its deprecated `RegExp` overload).
    fn group(self, functions: &[Definition]) -> String {
        let more = functions.len() - 1;
        match self {
            View::Signatures => {
                let shortest = functions
                    .iter()
                    .min_by_key(|function| {
                        let written = function.uncut.as_deref().unwrap_or(&function.signature);
                        (rejects_calls(written), written.chars().count())
                    })
                    .map(|function| function.signature.as_str())
                    .unwrap_or_default();
                format!("{shortest} (+{more} more)")
            }
            View::Map => format!("{} ×{}", self.head(&functions[0]), functions.len()),
        }
    }

    /// One line for a run of definitions whose signatures differ only in the name: the signature
    /// once with the names in braces (`#[test] fn {parses_empty, parses_one}()`), or the label.
    fn shaped(self, shape: &Shape, definitions: &[Definition]) -> String {
        // The map shows no signature around the names, so no path before them: each is whole.
        let name = |definition| match self {
            View::Signatures => shape.name_of(definition),
            View::Map => shape.quoted(&definition.name),
        };
        let names: Vec<String> = definitions.iter().map(name).collect();
        let names = format!("{{{}}}", names.join(", "));
        match self {
            View::Signatures => format!("{}{names}{}", shape.before, shape.after),
            View::Map => self.labelled(definitions[0].kind, &names),
        }
    }

    /// A definition on one line with its members (see [`names_members`]). An impl's trait fixes
    /// the methods' signatures, so they are named (`fn` is understood); associated types and
    /// constants keep theirs in the signatures view (`type Output = io::Result<()>` is what the
    /// impl decides). An object's methods are named too: their lines are the object's.
    fn named_members(self, owner: &Definition) -> String {
        let mut members: Vec<String> = owner
            .children
            .iter()
            .map(|member| if member.kind.is_function() { member.name.clone() } else { self.head(member) })
            .collect();
        // An impl's members may be signatures; an object's methods read as a list (`{
        // createColumn, createTable }`), like a type's fields, a getter and its setter named once.
        if owner.kind == Kind::Impl {
            return format!("{} {{ {} }}", self.head(owner), members.join("; "));
        }
        members.dedup();
        format!("{} {{ {} }}", self.head(owner), members.join(", "))
    }

    /// One line for a run of fields: their signatures, or their names after `fields`, or bare when
    /// the names are the signatures (see [`View::field_list`]).
    fn fields(self, fields: &[&Definition]) -> String {
        match self.field_list(fields) {
            (list, true) => list,
            (list, false) => format!("{} {list}", if fields.len() > 1 { "fields" } else { "field" }),
        }
    }

    /// One line for a run of constants (or of variables) declared alike: the declaration's
    /// keywords once, then each name with its type and value, after the first separated by
    /// `declarators`, while that fits a short line (`const VersionTLS10 = 0x0301; VersionTLS11 =
    /// 0x0302`, JavaScript's `let D, E = 5`), else their names (`const extensionServerName,
    /// extensionStatusRequest, …`).
    fn constants(self, shape: &Shape, constants: &[Definition], declarators: &str) -> String {
        // A name assigned again in the run (Python's `try: X = … except …: X = …`) is named once.
        let mut seen = HashSet::new();
        let names: Vec<String> = constants
            .iter()
            .filter(|constant| seen.insert(constant.name.as_str()))
            .map(|constant| shape.quoted(&constant.name))
            .collect();
        if let View::Signatures = self {
            // The keywords are shared up to their last space; what is glued to the name is each
            // one's own declarator (C's `char *a; *b`, as C writes `char *a, *b`).
            let (shared, glued) = shape.before.split_at(shape.before.rfind(' ').map_or(0, |at| at + 1));
            let typed: Vec<String> = constants
                .iter()
                .filter_map(|constant| {
                    shape_of(constant).map(|own| format!("{glued}{}{}", own.quoted(&constant.name), own.after))
                })
                .collect();
            let line = format!("{shared}{}", typed.join(declarators));
            let valued = constants.iter().any(|constant| shape_of(constant).is_some_and(|own| !own.after.is_empty()));
            if valued && line.chars().count() <= MAX_TYPED_LIST {
                return line;
            }
            let names: Vec<String> = names.iter().map(|name| format!("{glued}{name}")).collect();
            return format!("{shared}{}", names.join(", "));
        }
        self.labelled(constants[0].kind, &names.join(", "))
    }

    /// One line for the declarators of a declaration written on one line, some of them patterns
    /// (`const { one } = x, two = 3`): the first's signature, then each other's after the
    /// keywords they share (`shared`, `const `), as the declaration is written; past a short line,
    /// the keywords and every name the declarators bind.
    fn declaration(self, constants: &[Definition], shared: &str) -> String {
        let names: Vec<&str> = constants.iter().map(|constant| constant.name.as_str()).collect();
        if let View::Signatures = self {
            let own: Vec<&str> = constants[1..]
                .iter()
                .map(|constant| constant.signature.strip_prefix(shared).unwrap_or(&constant.signature))
                .collect();
            let line = format!("{}, {}", constants[0].signature, own.join(", "));
            if line.chars().count() <= MAX_TYPED_LIST {
                return line;
            }
            return format!("{shared}{}", names.join(", "));
        }
        self.labelled(constants[0].kind, &names.join(", "))
    }

    /// A type on one line with the fields its members start with, in braces: `struct Config {
    /// pub name: String; pub port: u16 }`, `interface Options { timeout?, retries?, … }`, then
    /// the count of those it leaves out, called `hidden` (`; +2 private`).
    fn with_fields(self, owner: &Definition, fields: &[&Definition], hidden: &str) -> String {
        // Variants are counted by name: one declared under two `cfg`s is one.
        let mut seen = HashSet::new();
        let past_cap = fields.iter().position(|field| seen.insert(field.name.as_str()) && seen.len() > MAX_VARIANTS);
        let (shown, more) = match past_cap {
            Some(at) if owner.kind == Kind::Enum => {
                let names: HashSet<&str> = fields.iter().map(|field| field.name.as_str()).collect();
                (&fields[..at], format!(", +{} more", names.len() - MAX_VARIANTS))
            }
            _ => (fields, String::new()),
        };
        let counted = hidden_fields(owner, hidden).map(|count| format!("; {count}")).unwrap_or_default();
        format!("{} {{ {}{more}{counted} }}", self.head(owner), self.field_list(shown).0)
    }

    /// A definition with nothing on its line but its head, or for a type whose fields are all
    /// left out, their count in braces (`type withMessage struct { +2 unexported }`, `class K {
    /// +1 private }`), so the type does not read as empty.
    fn bare(self, definition: &Definition, hidden: &str) -> String {
        match hidden_fields(definition, hidden) {
            Some(count) => format!("{} {{ {count} }}", self.head(definition)),
            None => self.head(definition),
        }
    }

    /// The fields' signatures (true, names that are their signatures too) or their names
    /// (false). Signatures while they fit a short
    /// line; a longer run is a large type (an options bag, a table's API), whose members' names
    /// are its outline, with TypeScript's optional mark, which says how the type is used.
    fn field_list(self, fields: &[&Definition]) -> (String, bool) {
        if let View::Signatures = self {
            let mut signatures: Vec<&str> = fields.iter().map(|field| field.signature.as_str()).collect();
            // Fields declared together (`Spec, Status string`) share one signature.
            signatures.dedup();
            let line = signatures.join("; ");
            // Signatures that are only names (an enum's plain members) are listed as names, which
            // are then their signatures: no label, as a plain member with a body of its own (Java's
            // `MEDIUM { … }`) has none on its line.
            let bare = fields.iter().all(|field| field.signature == field.name);
            if !bare && line.chars().count() <= MAX_TYPED_LIST {
                return (line, true);
            }
            return (names_by_access(fields), bare);
        }
        let mut seen = HashSet::new();
        let names: Vec<&str> =
            fields.iter().map(|field| field.name.as_str()).filter(|name| seen.insert(*name)).collect();
        (names.join(", "), false)
    }
}

/// `+2 private` for a type with fields the views leave out (see [`Definition::hidden_fields`]),
/// `hidden` being what its language calls them; `None` when it lists them all.
fn hidden_fields(definition: &Definition, hidden: &str) -> Option<String> {
    (definition.hidden_fields > 0).then(|| format!("+{} {hidden}", definition.hidden_fields))
}

/// A definition's name as the map labels it. A type declared with members of it (C's `struct
/// hdr { … } *h;`, named `hdr, h`) reads as declared, `struct hdr h`: the type, then its members.
fn map_name(definition: &Definition) -> Cow<'_, str> {
    let names = definition.names();
    match (definition.kind, &names[..]) {
        (Kind::Struct | Kind::Class | Kind::Enum, [ty, members @ ..]) if !members.is_empty() => {
            Cow::Owned(format!("{ty} {}", members.join(", ")))
        }
        _ => Cow::Borrowed(&definition.name),
    }
}

/// The names of a run of fields, grouped by the access their signatures start with, so a list
/// of names keeps who may reach each field: the plain API ones first (`pub`, `public` or none:
/// what a listed field is unless labelled), then each other access once with its label, in
/// order of appearance: `a, b; protected: c; static: d`. The map view names no access anywhere.
fn names_by_access(fields: &[&Definition]) -> String {
    let mut groups: Vec<(String, Vec<String>)> = vec![(String::new(), Vec::new())];
    // A name declared in both branches of an `if` or under two `cfg`s is named once.
    let mut seen = HashSet::new();
    for field in fields.iter().filter(|field| seen.insert(field.name.as_str())) {
        let access = access_of(field);
        let at = match groups.iter().position(|(label, _)| *label == access) {
            Some(at) => at,
            None => {
                groups.push((access, Vec::new()));
                groups.len() - 1
            }
        };
        groups[at].1.push(optional_name(field));
    }
    let groups: Vec<String> = groups
        .into_iter()
        .filter(|(_, names)| !names.is_empty())
        .map(|(label, names)| {
            let names = names.join(", ");
            if label.is_empty() { names } else { format!("{label}: {names}") }
        })
        .collect();
    groups.join("; ")
}

/// The access words a field's signature starts with (`protected static`, `pub(crate)`), less
/// the plain API ones (`pub`, `public`), which every listed field is unless labelled otherwise.
fn access_of(field: &Definition) -> String {
    let (words, _) = split_access(&field.signature);
    let words: Vec<&str> = words.into_iter().filter(|word| !matches!(*word, "pub" | "public")).collect();
    words.join(" ")
}

/// The access words a signature starts with (`pub`, `protected static`, `pub(crate)`, Ruby's
/// `private`), and the rest of it.
fn split_access(signature: &str) -> (Vec<&str>, &str) {
    let mut words = Vec::new();
    let mut rest = signature.trim_start();
    loop {
        // `pub(in crate::net)` is one word with its path.
        let end = match rest.strip_prefix("pub(") {
            Some(inner) => inner.find(')').map_or(rest.len(), |close| close + "pub()".len()),
            None => rest.find(char::is_whitespace).unwrap_or(rest.len()),
        };
        let word = &rest[..end];
        match word {
            "pub" | "public" | "protected" | "internal" | "private" | "static" => words.push(word),
            _ if word.starts_with("pub(") => words.push(word),
            _ => break,
        }
        rest = rest[end..].trim_start();
    }
    (words, rest)
}

/// A field's name, with `?` when its signature declares it optional (`timeout?: number`).
fn optional_name(field: &Definition) -> String {
    let optional = field.signature.match_indices(field.name.as_str()).any(|(at, name)| {
        let before = field.signature[..at].chars().next_back();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
            && field.signature[at + name.len()..].starts_with('?')
    });
    if optional { format!("{}?", field.name) } else { field.name.clone() }
}

/// `[outline incomplete: lines 40-57, 90 not parsed]`, with the reason when the whole outline is
/// the line heuristic's.
fn push_incomplete(outline: &Outline, out: &mut String) {
    if outline.unparsed.is_empty() && outline.degraded.is_none() {
        return;
    }
    out.push_str("[outline incomplete: ");
    if !outline.unparsed.is_empty() {
        push_spans(&outline.unparsed, out);
        out.push_str(" not parsed");
    }
    if let Some(reason) = &outline.degraded {
        let _ = write!(out, " ({reason}); definitions found line by line");
    }
    out.push_str("]\n");
}

/// `[12 nested keys not listed, in lines 4-40, 52-60; read those lines (lines:4-60) for them]`:
/// a data file's keys deeper than the key lines name, where they are, and one range holding
/// them all to ask for.
fn push_unlisted_keys(outline: &Outline, out: &mut String) {
    let keys = &outline.unlisted_keys;
    let (Some(&(start, _)), Some(&(_, end))) = (keys.spans.first(), keys.spans.last()) else { return };
    let noun = if keys.count == 1 { "key" } else { "keys" };
    let _ = write!(out, "[{} nested {noun} not listed, in ", keys.count);
    push_spans(&keys.spans, out);
    let _ = writeln!(out, "; read those lines (lines:{}) for them]", span(start, end));
}

/// `[2 macro calls not outlined, in lines 7, 9: read those lines for what they declare]`: file-level
/// code the outline cannot see into (see [`Outline::unlisted`]), a Rust macro call declaring items
/// in its own syntax (`impl_fmt_traits!(Binary, Display)`), which the views would otherwise pass
/// over without a word.
fn push_unlisted_code(outline: &Outline, out: &mut String) {
    if outline.unlisted.is_empty() {
        return;
    }
    let calls = outline.unlisted.len();
    let noun = if calls == 1 { "macro call" } else { "macro calls" };
    let _ = write!(out, "[{calls} {noun} not outlined, in ");
    push_spans(&outline.unlisted, out);
    out.push_str(": read those lines for what they declare]\n");
}

/// `lines 40-57, 90`, the spans past [`LISTED_SPANS`] counted and placed (`and 3 more spans in
/// lines 120-300`), so no line they name goes unsaid.
fn push_spans(spans: &[(u32, u32)], out: &mut String) {
    let listed: Vec<String> = spans.iter().take(LISTED_SPANS).map(|&(start, end)| span(start, end)).collect();
    let one_line = matches!(spans, [(start, end)] if start == end);
    let _ = write!(out, "{} {}", if one_line { "line" } else { "lines" }, listed.join(", "));
    if let [(first, _), .., (_, last)] | [(first, last)] = spans.get(LISTED_SPANS..).unwrap_or_default() {
        let more = spans.len() - LISTED_SPANS;
        let noun = if more == 1 { "span" } else { "spans" };
        let lines = if last > first { "lines" } else { "line" };
        let _ = write!(out, " and {more} more {noun} in {lines} {}", span(*first, *last));
    }
}

/// What a shared line must not span: definitions printed elsewhere, and lines the outline does
/// not describe.
struct Page<'o> {
    /// Every top-level definition.
    file: &'o [Definition],
    /// The outline's unparsed and unlisted spans (see [`Outline::unlisted`]), by start, each with
    /// the furthest end among those up to it.
    breaks: Vec<(u32, u32)>,
    /// What separates the declarators of a run of constants after their shared keywords (see
    /// [`View::constants`]).
    declarators: &'static str,
    /// What the fields a type's line counts but does not list are (see
    /// [`Definition::hidden_fields`]): Go's word, `unexported`, for Go's; `private` for others'.
    hidden: &'static str,
}

impl<'o> Page<'o> {
    fn of(outline: &'o Outline) -> Page<'o> {
        let mut page = Page::new(&outline.items, outline.unparsed.iter().chain(&outline.unlisted).copied().collect());
        // JavaScript separates a declaration's declarators by commas: `let D; E = 5` would read as
        // a declaration of `D` and an assignment to an undeclared `E`, `let D, E = 5` as written.
        if matches!(outline.language, Language::JavaScript | Language::TypeScript | Language::Tsx) {
            page.declarators = ", ";
        }
        if outline.language == Language::Go {
            page.hidden = "unexported";
        }
        page
    }

    fn new(file: &'o [Definition], mut breaks: Vec<(u32, u32)>) -> Page<'o> {
        breaks.sort_unstable();
        let mut furthest = 0;
        for (_, end) in &mut breaks {
            furthest = furthest.max(*end);
            *end = furthest;
        }
        Page { file, breaks, declarators: "; ", hidden: "private" }
    }

    /// Whether a break stands between two definitions: one starting before `after` and ending
    /// after `before` does.
    fn apart(&self, before: &Definition, after: &Definition) -> bool {
        let starting_before = self.breaks.partition_point(|&(start, _)| start < after.start_line);
        starting_before > 0 && self.breaks[starting_before - 1].1 > before.end_line
    }

    /// For each of `definitions`, the end (exclusive) of the stretch it is in that no break
    /// cuts: one line may join definitions of a stretch only. prost's `macro_rules!` either side
    /// of the macro calls that use them are two lines, not one over the calls.
    fn stretch_ends(&self, definitions: &[Definition]) -> Vec<usize> {
        let mut ends = vec![definitions.len(); definitions.len()];
        for at in (0..definitions.len().saturating_sub(1)).rev() {
            ends[at] = if self.apart(&definitions[at], &definitions[at + 1]) { at + 1 } else { ends[at + 1] };
        }
        ends
    }
}

/// Prints `definitions` at `depth`, each shared line within what [`Page`] allows.
fn push_level(page: &Page, definitions: &[Definition], depth: usize, view: View, out: &mut String) {
    let file = page.file;
    let stretch_ends = page.stretch_ends(definitions);
    let mut rest = definitions;
    while let Some(first) = rest.first() {
        let at = definitions.len() - rest.len();
        let joinable = &rest[..stretch_ends[at] - at];
        if let Some((run, line)) = re_exports::run(joinable).or_else(|| commonjs_exports::run(joinable)) {
            push_line(depth, span(first.start_line, rest[run - 1].end_line), &line, out);
            rest = &rest[run..];
            continue;
        }
        let run = joinable.iter().take_while(|definition| on_field_line(definition)).count();
        if run > 0 {
            let (fields, after) = rest.split_at(run);
            let last = &fields[run - 1];
            let fields: Vec<&Definition> = fields.iter().collect();
            push_line(depth, span(first.start_line, last.end_line), &view.fields(&fields), out);
            rest = after;
            continue;
        }
        if let Some((run, shared)) = pattern_declaration(joinable, page.declarators) {
            let (constants, after) = rest.split_at(run);
            push_line(depth, span(first.start_line, first.end_line), &view.declaration(constants, shared), out);
            rest = after;
            continue;
        }
        if let Some((run, shape)) = constant_run(joinable, view).filter(|(run, _)| !interleaved(file, &rest[..*run])) {
            let (constants, after) = rest.split_at(run);
            let line = view.constants(&shape, constants, page.declarators);
            push_line(depth, span(first.start_line, constants[run - 1].end_line), &line, out);
            rest = after;
            continue;
        }
        let group = same_named_functions(joinable);
        if group >= MIN_GROUP {
            let (functions, after) = rest.split_at(group);
            push_line(depth, span(first.start_line, functions[group - 1].end_line), &view.group(functions), out);
            rest = after;
            continue;
        }
        if let Some((run, shape)) = same_shaped(joinable).filter(|(run, _)| !interleaved(file, &rest[..*run])) {
            let (shaped, after) = rest.split_at(run);
            push_line(depth, span(first.start_line, shaped[run - 1].end_line), &view.shaped(&shape, shaped), out);
            rest = after;
            continue;
        }
        if names_members(first) {
            push_line(depth, span(first.start_line, first.end_line), &view.named_members(first), out);
        } else if let Some((fields, members)) = leading_fields(first) {
            push_line(
                depth,
                span(first.start_line, first.end_line),
                &view.with_fields(first, &fields, page.hidden),
                out,
            );
            for members in members {
                push_level(page, members, depth + 1, view, out);
            }
        } else {
            push_line(depth, span(first.start_line, first.end_line), &view.bare(first, page.hidden), out);
            push_level(page, &first.children, depth + 1, view, out);
        }
        rest = &rest[1..];
    }
}

/// A function's signature around its name, and the quotes the name is written in (a quoted key:
/// `'cache/PackFileCache': () => …`), which a run's names keep each (`{'cache/A', 'cache/B'}: ()`).
#[derive(PartialEq, Eq)]
struct Shape<'d> {
    before: &'d str,
    after: &'d str,
    quote: Option<char>,
    /// Whether the names vary by their last part only, the path before it being the shape's
    /// (see [`member_shape_of`]).
    members: bool,
}

impl Shape<'_> {
    /// `name` in the quotes the shape's name was written in, if any.
    fn quoted(&self, name: &str) -> String {
        match self.quote {
            Some(quote) => format!("{quote}{name}{quote}"),
            None => name.to_string(),
        }
    }

    /// The part of `definition`'s name the shape varies by, quoted as written.
    fn name_of(&self, definition: &Definition) -> String {
        match self.members {
            true => self.quoted(own_name(&definition.name)),
            false => self.quoted(&definition.name),
        }
    }
}

/// The last part of a name that is a path to a member (`isalpha` of Lua's `stringx.isalpha`,
/// `close` of `SW:close`).
fn own_name(name: &str) -> &str {
    name.rsplit(['.', ':']).next().unwrap_or(name)
}

/// The signature of a definition with nothing nested, split at the first whole-word occurrence of
/// its name.
fn shape_of(definition: &Definition) -> Option<Shape<'_>> {
    split_at_name(definition, &definition.name, false)
}

/// [`shape_of`] a member named by its path (Lua's `function stringx.isalpha(s)`), split at the
/// path's last part: a run of one table's members reads `function stringx.{isalpha, isdigit}(s)`,
/// its path written once. `None` for a name that is no path.
fn member_shape_of(definition: &Definition) -> Option<Shape<'_>> {
    let own = own_name(&definition.name);
    (own.len() < definition.name.len()).then(|| split_at_name(definition, own, true)).flatten()
}

/// `definition`'s signature split at the first whole-word occurrence of `name`, its name or the
/// last part of it (`members`).
fn split_at_name<'d>(definition: &'d Definition, name: &str, members: bool) -> Option<Shape<'d>> {
    split_head_at_name(definition, &definition.signature, name, members)
}

/// `head`, `definition`'s signature or its head as written, split as [`split_at_name`] says.
fn split_head_at_name<'d>(definition: &Definition, head: &'d str, name: &str, members: bool) -> Option<Shape<'d>> {
    // Headings, keys and tables are text whose siblings differ by design; fields and exports have
    // lines of their own.
    let prose = matches!(definition.kind, Kind::Heading | Kind::Key | Kind::Table | Kind::Field | Kind::Export);
    if prose || !definition.children.is_empty() {
        return None;
    }
    let signature = head;
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let (at, _) = signature
        .match_indices(name)
        .find(|(at, _)| !signature[..*at].ends_with(word) && !signature[at + name.len()..].starts_with(word))?;
    let (before, after) = (&signature[..at], &signature[at + name.len()..]);
    // A name bound inside a destructuring pattern (`const { alpha } = one`) is one of those the
    // pattern binds: three such declarations are no shape the names alone vary (QA: `const {
    // alpha } = one, beta } = two` was printed for three of them).
    let unclosed = |open, close| before.matches(open).count() > before.matches(close).count();
    if unclosed('{', '}') || unclosed('[', ']') {
        return None;
    }
    let quote = before.chars().last().filter(|quote| matches!(quote, '\'' | '"') && after.starts_with(*quote));
    Some(match quote {
        Some(quote) => Shape { before: &before[..at - 1], after: &after[1..], quote: Some(quote), members },
        None => Shape { before, after, quote: None, members },
    })
}

/// [`shape_of`] (or [`member_shape_of`]) over `definition`'s head as written: a signature may
/// have shortened what differs between two (`type Omit<T, K…> = Pick<…>` and `type OmitKeys<T,
/// K…> = Pick<…>` bound `K` differently), and a run shares one line only when alike as written.
fn written_shape_of(definition: &Definition, members: bool) -> Option<Shape<'_>> {
    let head = definition.uncut.as_deref().unwrap_or(&definition.signature);
    let name = if members { own_name(&definition.name) } else { &definition.name };
    split_head_at_name(definition, head, name, members)
}

/// A run of at least two differently named definitions of one kind whose signatures are the same
/// but for the name (tests, builder setters, getters, `mod a;` declarations): its length and
/// shared shape. A type or module with a body of its own is not shared: listed without its
/// members (a budgeted repository map), two classes on one line would hide where the second
/// starts (`160-1157 class {Context, BaseCommand}`).
fn same_shaped(definitions: &[Definition]) -> Option<(usize, Shape<'_>)> {
    let first = definitions.first()?;
    let container = matches!(
        first.kind,
        Kind::Struct | Kind::Class | Kind::Enum | Kind::Trait | Kind::Interface | Kind::Impl | Kind::Module
    );
    let bodiless = |definition: &Definition| !container || definition.end_line == definition.start_line;
    if !bodiless(first) {
        return None;
    }
    // Members of one path share it (`stringx.{isalpha, isdigit}`); others (`{self.keywords,
    // reset!}`) vary by their whole names.
    let run_of = |shape: fn(&Definition) -> Option<Shape<'_>>| {
        let first_shape = shape(first)?;
        let first_written = written_shape_of(first, first_shape.members);
        // A name defined again (Ruby's `if … def clock_time … else def clock_time …`) ends the
        // run: `{a, b, b}` would read as a typo, and each definition keeps a line that names it.
        let mut names = HashSet::from([first.name.as_str()]);
        let run = 1 + definitions[1..]
            .iter()
            .take_while(|next| {
                next.kind == first.kind
                    && names.insert(next.name.as_str())
                    && bodiless(next)
                    && shape(next).as_ref() == Some(&first_shape)
                    && written_shape_of(next, first_shape.members) == first_written
            })
            .count();
        (run >= 2).then_some((run, first_shape))
    };
    run_of(member_shape_of).or_else(|| run_of(shape_of))
}

/// A run of at least two constants, or of variables, whose signatures start alike up to the name
/// (`const `, `export const `, `pub const `), none of them a function: its length and the first's
/// shape. The map names no access, so there they need only start alike after it (Ruby's `A = 1`,
/// `private B = 2` are `const A, B`). A constant typed as a function (`export const get: (url:
/// string) => Request`) is an API whose signature is what a reader needs, so it stays on a line
/// of its own.
fn constant_run(definitions: &[Definition], view: View) -> Option<(usize, Shape<'_>)> {
    let first = definitions.first().filter(|first| matches!(first.kind, Kind::Const | Kind::Variable))?;
    let first_shape = shape_of(first).filter(|shape| !declares_function(shape))?;
    // A name inside its declarator's brackets (C's `int (*handler)(int)`) cannot share them with
    // the next name in a list of names: such declarations keep a line each in signatures.
    let glued = &first_shape.before[first_shape.before.rfind(' ').map_or(0, |at| at + 1)..];
    if matches!(view, View::Signatures) && glued.contains(['(', '[']) {
        return None;
    }
    let alike = |shape: &Shape| match view {
        View::Signatures => shape.before == first_shape.before,
        View::Map => split_access(shape.before).1 == split_access(first_shape.before).1,
    };
    let run = 1 + definitions[1..]
        .iter()
        .take_while(|next| {
            next.kind == first.kind && shape_of(next).is_some_and(|shape| alike(&shape) && !declares_function(&shape))
        })
        .count();
    (run >= 2).then_some((run, first_shape))
}

/// The declarators of one line's declaration, when one of them is a pattern (`const { one } = x,
/// two = 3`): how many there are and the keywords they share (`const `, `export let `). A run
/// of plain names is [`constant_run`]'s; a pattern has no shape the names alone vary, and each
/// declarator kept its own line, both numbered with the declaration's line as if it were two.
/// Only where declarators are separated by commas (`declarators`, JavaScript's).
fn pattern_declaration<'d>(definitions: &'d [Definition], declarators: &str) -> Option<(usize, &'d str)> {
    let first = definitions.first().filter(|first| matches!(first.kind, Kind::Const | Kind::Variable))?;
    let line = first.start_line;
    let run = definitions
        .iter()
        .take_while(|next| {
            next.kind == first.kind && next.start_line == line && next.end_line == line && next.children.is_empty()
        })
        .count();
    let patterned = definitions[..run].iter().any(|definition| shape_of(definition).is_none());
    if declarators != ", " || run < 2 || !patterned {
        return None;
    }
    // The keywords all share: their common start, up to the last space before anything that is
    // not a word (`const { a } = x` and `const { b } = y` share `const `, not `const { `).
    let mut shared = first.signature.as_str();
    for next in &definitions[1..run] {
        let common = shared.chars().zip(next.signature.chars()).take_while(|(a, b)| a == b).count();
        shared = &shared[..shared.char_indices().nth(common).map_or(shared.len(), |(at, _)| at)];
    }
    let words = shared.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ' ')).unwrap_or(shared.len());
    let shared = &shared[..shared[..words].rfind(' ').map_or(0, |at| at + 1)];
    (!shared.is_empty()).then_some((run, shared))
}

/// Whether what follows a constant's name declares a function: an arrow, or a type that is a
/// call signature (`: (url: string)`, `: <A>(a: A)`).
fn declares_function(shape: &Shape) -> bool {
    let after = shape.after.trim_start();
    after.contains("=>") || after.strip_prefix(':').is_some_and(|tail| tail.trim_start().starts_with(['(', '<', '{']))
}

/// Whether a definition outside `run` (nor nested in it, nor enclosing it) starts within the
/// run's lines: a Go method printed under its type may sit between two functions of the file.
/// One line for the run would span it, and a reader looking for that line would find the run's.
fn interleaved(file: &[Definition], run: &[Definition]) -> bool {
    let (Some(first), Some(last)) = (run.first(), run.last()) else { return false };
    let (start, end) = (first.start_line, last.end_line);
    let mut pending: Vec<&Definition> = file.iter().collect();
    while let Some(definition) = pending.pop() {
        if run.iter().any(|member| std::ptr::eq(member, definition)) {
            continue;
        }
        let encloses = definition.start_line <= start && definition.end_line >= end;
        if !encloses && (start..=end).contains(&definition.start_line) {
            return true;
        }
        // Go methods lie outside their type's lines.
        pending.extend(&definition.children);
    }
    false
}

/// Whether a definition's members are named on its own line: those of a Rust `impl Trait for
/// Type`, and the methods of an object bound to a constant or variable in JavaScript or
/// TypeScript (`export const ColumnFiltering: TableFeature = { createColumn: …, … }`, often a
/// type's implementation too), when none has members of its own. Only such an object gives a
/// constant or variable members; no other language's rules nest anything under one.
fn names_members(definition: &Definition) -> bool {
    let trait_impl = definition.kind == Kind::Impl && definition.name.contains(" for ");
    (trait_impl || matches!(definition.kind, Kind::Const | Kind::Variable))
        && !definition.children.is_empty()
        && definition.children.iter().all(|member| member.children.is_empty())
}

/// Whether a definition is a field that shares a line with the fields beside it: not one with
/// members of its own (a Java enum constant's body, the anonymous class a field holds), which
/// has its own line to nest them under, naming it once.
fn on_field_line(definition: &Definition) -> bool {
    definition.kind == Kind::Field && definition.children.is_empty()
}

/// The fields a type's members start with, if any: they are cheaper on the type's line than on
/// a line of their own below it. Constants among them stay members (a Ruby class's `VERSION =
/// "1"` before its `attr_reader :major`): the type's other members, in the runs the fields leave
/// between them, come second, and so do fields with members of their own (see
/// [`on_field_line`]). In an enum the first of those ends the fields: it and the constants after
/// it keep their lines, since the constants' order is their ordinal (Java's `ONE, TWO {…},
/// THREE`). Not a field assigned after the type (JavaScript's `Else.kind = 'else'` after `class
/// Else {}`), whose line the type's span does not cover.
fn leading_fields(definition: &Definition) -> Option<(Vec<&Definition>, Vec<&[Definition]>)> {
    if !matches!(definition.kind, Kind::Struct | Kind::Class | Kind::Interface | Kind::Enum) {
        return None;
    }
    let children = &definition.children;
    let inside = |member: &&Definition| member.end_line <= definition.end_line;
    let ordered = definition.kind == Kind::Enum;
    let leads = |m: &&Definition| {
        matches!(m.kind, Kind::Field | Kind::Const) && inside(m) && (!ordered || m.children.is_empty())
    };
    let lead = children.iter().take_while(leads).count();
    let fields: Vec<&Definition> = children[..lead].iter().filter(|member| on_field_line(member)).collect();
    if fields.is_empty() {
        return None;
    }
    // What is left: the runs of constants between the fields, then the rest. Each run is
    // printed on its own: one line for constants a field stood between would span that
    // field's line, which the type's line names now.
    let mut members = Vec::new();
    let mut start = 0;
    for (at, member) in children.iter().enumerate().take(lead) {
        if on_field_line(member) {
            members.push(&children[start..at]);
            start = at + 1;
        }
    }
    members.push(&children[start..]);
    members.retain(|run| !run.is_empty());
    Some((fields, members))
}

/// How many definitions from the first are functions of its kind and name with nothing nested.
fn same_named_functions(definitions: &[Definition]) -> usize {
    let Some(first) = definitions.first().filter(|first| first.kind.is_function()) else {
        return 0;
    };
    definitions
        .iter()
        .take_while(|definition| {
            definition.kind == first.kind && definition.name == first.name && definition.children.is_empty()
        })
        .count()
}

fn push_line(depth: usize, span: String, text: &str, out: &mut String) {
    let _ = writeln!(out, "{:indent$}{span} {text}", "", indent = depth);
}

fn span(start: u32, end: u32) -> String {
    if end > start { format!("{start}-{end}") } else { format!("{start}") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Language;
    use crate::model::UnlistedKeys;

    fn note(unparsed: Vec<(u32, u32)>) -> String {
        let outline = Outline {
            language: Language::Rust,
            imports: Vec::new(),
            items: Vec::new(),
            degraded: None,
            unparsed,
            unlisted: Vec::new(),
            unlisted_keys: UnlistedKeys::default(),
        };
        let mut out = String::new();
        push_incomplete(&outline, &mut out);
        out
    }

    #[test]
    fn spans_past_the_listed_ones_are_still_placed() {
        assert_eq!(note(vec![(3, 3)]), "[outline incomplete: line 3 not parsed]\n");
        let seven = vec![(1, 1), (3, 4), (6, 6), (8, 8), (10, 10), (12, 12), (40, 90)];
        assert_eq!(
            note(seven),
            "[outline incomplete: lines 1, 3-4, 6, 8, 10 and 2 more spans in lines 12-90 not parsed]\n"
        );
        let six = vec![(1, 1), (3, 4), (6, 6), (8, 8), (10, 10), (12, 12)];
        assert_eq!(note(six), "[outline incomplete: lines 1, 3-4, 6, 8, 10 and 1 more span in line 12 not parsed]\n");
    }
}
