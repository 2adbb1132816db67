//! The outline used when tree-sitter cannot give one (parser panic, time budget exhausted, input
//! too large): a single linear pass over lines that look like definitions or imports. Spans are
//! one line and nothing is nested except Markdown headings; `Outline::degraded` says why.

use crate::Language;
use crate::extract::markup::{Heading, nest};
use crate::model::{Definition, Import, Kind, Outline};
use crate::text::{MAX_SIGNATURE, collapse, signature_line, truncate, unquote};

/// Lines longer than this are not looked at (minified code has no useful line structure).
const MAX_LINE: usize = 1_000;

/// How to spot definitions in one language by their first words.
struct Cues {
    /// Words skipped before the keyword (`pub`, `export`, `public static`, …).
    modifiers: &'static [&'static str],
    keywords: &'static [(&'static str, Kind)],
    /// Keywords that start a definition only at the top level (unindented): JavaScript's
    /// `const`, which in a body is a local.
    top_level_keywords: &'static [(&'static str, Kind)],
    /// Line starts that make an import, and whether that start is dropped from the import text
    /// (as the tree-sitter outline drops `use `, `import `, …).
    imports: &'static [(&'static str, bool)],
    /// C-family: a line like `int main(int argc)` with a name before `(` is a function.
    call_shaped_functions: bool,
    /// JavaScript: class members are told by their shape — a method's head (`async save(record)
    /// {`, `render: function (h) {`: no statement is a name, its arguments and a block) and a
    /// field with a modifier (`protected isStopped: boolean = false;`).
    members_by_shape: bool,
    /// The keywords another keyword may follow in a definition (Rust's `const fn`); after any
    /// other, a keyword stands where a name should and the line is none (serde's `struct enum
    /// identifier`, a list of words). `None`: any keyword may be followed by one.
    chained: Option<&'static [&'static str]>,
    /// Python: no keyword definition stands in another's head (`def get(self):` inside a
    /// parameter list left open is the next method taken in); elsewhere a head may hold one (Rust's
    /// `callback: fn(u32)`, Go's `f func(int)`, a macro's tokens).
    keywords_never_in_heads: bool,
    /// JavaScript: an unindented `export` statement is the module's API even when no definition
    /// keyword follows (`export default Vue`, `export { parse, stringify }`, `export * from './x'`).
    export_statements: bool,
    /// Java and C#: a definition that starts with an access modifier (`public void fourth() {}`)
    /// stands in no head (no parameter, type or initialiser starts with one), so one inside a
    /// head is the next member taken in by a list left open. C and C++ heads hold macros.
    access_never_in_heads: bool,
}

const RUST: Cues = Cues {
    modifiers: &["pub", "async", "unsafe", "extern", "default"],
    keywords: &[
        ("fn", Kind::Function),
        ("struct", Kind::Struct),
        ("union", Kind::Struct),
        ("enum", Kind::Enum),
        ("trait", Kind::Trait),
        ("impl", Kind::Impl),
        ("mod", Kind::Module),
        ("type", Kind::TypeAlias),
        ("const", Kind::Const),
        ("static", Kind::Variable),
        ("macro_rules!", Kind::Macro),
    ],
    top_level_keywords: &[],
    imports: &[("use ", true)],
    call_shaped_functions: false,
    members_by_shape: false,
    chained: Some(&["const"]),
    keywords_never_in_heads: false,
    export_statements: false,
    access_never_in_heads: false,
};

const PYTHON: Cues = Cues {
    modifiers: &["async"],
    keywords: &[("def", Kind::Function), ("class", Kind::Class)],
    top_level_keywords: &[],
    imports: &[("import ", true), ("from ", false)],
    call_shaped_functions: false,
    members_by_shape: false,
    chained: None,
    keywords_never_in_heads: true,
    export_statements: false,
    access_never_in_heads: false,
};

const JS: Cues = Cues {
    modifiers: &["export", "default", "async", "declare", "abstract"],
    keywords: &[
        ("function", Kind::Function),
        ("function*", Kind::Function),
        ("class", Kind::Class),
        ("interface", Kind::Interface),
        ("type", Kind::TypeAlias),
        ("enum", Kind::Enum),
        ("namespace", Kind::Module),
    ],
    top_level_keywords: &[("const", Kind::Const)],
    imports: &[("import ", true)],
    call_shaped_functions: false,
    members_by_shape: true,
    chained: None,
    keywords_never_in_heads: false,
    export_statements: true,
    access_never_in_heads: false,
};

const GO: Cues = Cues {
    modifiers: &[],
    keywords: &[("func", Kind::Function), ("type", Kind::TypeAlias), ("package", Kind::Module)],
    top_level_keywords: &[],
    imports: &[("import ", true)],
    call_shaped_functions: false,
    members_by_shape: false,
    chained: None,
    keywords_never_in_heads: false,
    export_statements: false,
    access_never_in_heads: false,
};

const C_FAMILY: Cues = Cues {
    modifiers: &[
        "public",
        "private",
        "protected",
        "internal",
        "static",
        "final",
        "abstract",
        "sealed",
        "partial",
        "readonly",
        "virtual",
        "override",
        "extern",
        "inline",
        "export",
        "typedef",
    ],
    keywords: &[
        ("class", Kind::Class),
        ("struct", Kind::Struct),
        ("union", Kind::Struct),
        ("enum", Kind::Enum),
        ("interface", Kind::Interface),
        ("record", Kind::Class),
        ("namespace", Kind::Module),
        ("package", Kind::Module),
        ("#define", Kind::Macro),
    ],
    top_level_keywords: &[],
    imports: &[("#include ", true), ("import ", true), ("using ", true)],
    call_shaped_functions: true,
    members_by_shape: false,
    chained: None,
    keywords_never_in_heads: false,
    export_statements: false,
    access_never_in_heads: false,
};

const RUBY: Cues = Cues {
    modifiers: &[],
    keywords: &[("def", Kind::Function), ("class", Kind::Class), ("module", Kind::Module)],
    top_level_keywords: &[],
    imports: &[("require ", true), ("require_relative ", false)],
    call_shaped_functions: false,
    members_by_shape: false,
    chained: None,
    keywords_never_in_heads: false,
    export_statements: false,
    access_never_in_heads: false,
};

/// Java's and C#'s cues: C's, but a member with an access modifier never stands in a head.
const JAVA_CSHARP: Cues = Cues { access_never_in_heads: true, ..C_FAMILY };

/// Words that start statements, not function definitions, in C-like languages.
const STATEMENT_WORDS: [&str; 14] = [
    "if", "for", "while", "switch", "return", "else", "catch", "do", "new", "throw", "case", "using", "foreach",
    "sizeof",
];

pub(crate) fn outline(language: Language, source: &str, reason: String) -> Outline {
    let (imports, items) = match language {
        Language::Markdown => (Vec::new(), nest(&markdown_headings(source), source)),
        Language::Json => (Vec::new(), json_keys(source)),
        Language::Yaml => (Vec::new(), yaml_keys(source)),
        Language::Toml => (Vec::new(), toml_keys(source)),
        _ => cues(language).map_or_else(Default::default, |cues| code(source, cues)),
    };
    Outline {
        language,
        imports,
        items,
        degraded: Some(reason),
        unparsed: crate::unparsed::all_lines(source),
        unlisted: Vec::new(),
        unlisted_keys: crate::model::UnlistedKeys::default(),
    }
}

/// Whether `line` looks like the start of a definition (any line does in markup and data, where
/// headings and keys have no keyword).
pub(crate) fn looks_like_definition(language: Language, line: &str) -> bool {
    cues(language).is_none_or(|cues| definition(line, cues).is_some())
}

/// Whether `line` starts a definition no head of another can hold: a method's head by its shape
/// (JavaScript's `save(record) {`, `size() { return 3 }`, a line no statement can be), or in
/// Python any keyword definition (`def get(self):`).
pub(crate) fn never_in_a_head(language: Language, line: &str) -> bool {
    cues(language).is_some_and(|cues| {
        method_shaped(line.trim(), cues).is_some()
            || (cues.keywords_never_in_heads && keyword_definition(line.trim(), cues, false).is_some())
            || directive(line.trim(), cues)
    })
}

/// Java and C#: whether `line` is a definition that starts with an access modifier, which no
/// parameter, type or initialiser does; only a head's own declaration line does, after its
/// annotations (`@Entity` / `[Serializable]` lines and then `public class Store {`), which the
/// callers tell apart.
pub(crate) fn accessed_member(language: Language, line: &str) -> bool {
    cues(language).is_some_and(|cues| cues.access_never_in_heads && accessed_definition(line.trim(), cues))
}

/// Whether `line` (trimmed) is a definition that starts with an access modifier.
fn accessed_definition(line: &str, cues: &Cues) -> bool {
    let access = ["public ", "private ", "protected ", "internal "];
    access.iter().any(|word| line.starts_with(word)) && definition(line, cues).is_some()
}

/// Whether `line` is a preprocessor directive that defines (`#define`): a line of its own,
/// which a declaration may hold anywhere (an enum's body, a struct's) as a definition of its own.
fn directive(line: &str, cues: &Cues) -> bool {
    cues.keywords.iter().any(|(keyword, _)| keyword.starts_with('#') && line.starts_with(keyword))
}

/// Whether `line` starts a definition at file level (unindented) by its first words; never for
/// a language without such cues (markup and data).
pub(crate) fn starts_top_level_definition(language: Language, line: &str) -> bool {
    !line.starts_with(char::is_whitespace) && cues(language).is_some_and(|cues| definition(line, cues).is_some())
}

/// The kind and name of the definition `line` (untrimmed) starts, by its first words.
fn definition<'l>(line: &'l str, cues: &Cues) -> Option<(Kind, &'l str)> {
    let top_level = !line.starts_with(char::is_whitespace);
    keyword_definition(line.trim(), cues, top_level)
        .or_else(|| export_statement(line, cues))
        .or_else(|| call_shaped(line, cues))
        .or_else(|| method_shaped(line.trim(), cues))
        .or_else(|| field_shaped(line.trim(), cues))
}

fn cues(language: Language) -> Option<&'static Cues> {
    Some(match language {
        Language::Rust => &RUST,
        Language::Python => &PYTHON,
        Language::JavaScript | Language::TypeScript | Language::Tsx => &JS,
        Language::Go => &GO,
        Language::C | Language::Cpp => &C_FAMILY,
        Language::Java | Language::CSharp => &JAVA_CSHARP,
        Language::Ruby => &RUBY,
        Language::Markdown | Language::Json | Language::Yaml | Language::Toml => return None,
    })
}

fn numbered_lines(source: &str) -> impl Iterator<Item = (u32, &str)> {
    (1..=u32::MAX).zip(source.lines()).filter(|(_, line)| line.len() <= MAX_LINE)
}

fn one_line(kind: Kind, name: &str, signature: String, line: u32) -> Definition {
    Definition {
        kind,
        name: truncate(name.to_string(), MAX_SIGNATURE),
        signature,
        uncut: None,
        start_line: line,
        head_line: line,
        end_line: line,
        children: Vec::new(),
        hidden_fields: 0,
    }
}

fn code(source: &str, cues: &Cues) -> (Vec<Import>, Vec<Definition>) {
    let (mut imports, mut items) = (Vec::new(), Vec::new());
    // Inside Go's `import ( … )`: every line is an import.
    let mut import_group = false;
    for (line_number, line) in numbered_lines(source) {
        let trimmed = line.trim();
        let import = if import_group {
            import_group = trimmed != ")";
            (import_group && !trimmed.is_empty()).then_some(trimmed)
        } else {
            cues.imports
                .iter()
                .find_map(|&(start, drop)| trimmed.strip_prefix(start).map(|rest| if drop { rest } else { trimmed }))
        };
        if trimmed.ends_with("import (") {
            import_group = true;
        } else if let Some(import) = import {
            // Whole, as a parsed file's imports are: a cut would drop names and say nothing.
            imports.push(Import {
                text: collapse(import.trim_end_matches(';')),
                line: line_number,
                end_line: line_number,
            });
        } else if let Some((kind, name)) = definition(line, cues) {
            items.push(one_line(kind, name, signature_line(trimmed), line_number));
        }
    }
    (imports, items)
}

/// `pub async fn name(` → (Function, "name"). A keyword followed by another keyword is a modifier
/// (`const fn`).
fn keyword_definition<'l>(line: &'l str, cues: &Cues, top_level: bool) -> Option<(Kind, &'l str)> {
    let top_level_keywords = if top_level { cues.top_level_keywords } else { &[] };
    let keywords = || cues.keywords.iter().chain(top_level_keywords);
    let mut words = line.split_whitespace().take(8).peekable();
    while let Some(word) = words.next() {
        // `pub(crate)`, `pub(in crate::backend)`, and `extern "C"`'s ABI string.
        if word.starts_with("pub(") {
            if !word.ends_with(')') {
                words.find(|word| word.ends_with(')'));
            }
            continue;
        }
        if cues.modifiers.contains(&word) || word.starts_with('"') {
            continue;
        }
        let (_, kind) = keywords().find(|(keyword, _)| *keyword == word)?;
        let next = words.peek()?;
        if keywords().any(|(keyword, _)| keyword == next) {
            if cues.chained.is_some_and(|chained| !chained.contains(&word)) {
                return None;
            }
            continue;
        }
        // Go methods: `func (s *Server) Start(`.
        let name_word = if next.starts_with('(') { line.split_once(')')?.1.split_whitespace().next()? } else { next };
        return identifier_prefix(name_word).map(|name| (*kind, name));
    }
    None
}

/// `export default Vue` → (Export, "Vue"); `export { a, b }` → (Export, "{ a, b }"); `export * from
/// './x'`: a list of names the module exports, as the outline lists it (`export default
/// define({…})` exports a value, which it does not).
fn export_statement<'l>(line: &'l str, cues: &Cues) -> Option<(Kind, &'l str)> {
    let rest = line.strip_prefix("export ").filter(|_| cues.export_statements)?.trim().trim_end_matches(';').trim_end();
    if rest.starts_with(['{', '*']) {
        return Some((Kind::Export, rest));
    }
    let name = rest.strip_prefix("default ")?.trim();
    identifier_prefix(name).filter(|prefix| prefix.len() == name.len()).map(|name| (Kind::Export, name))
}

/// `int main(int argc) {` or `public List<T> find(String q)`: a typed name before `(`, shallowly
/// indented, not a statement or a call ending in `;`.
fn call_shaped<'l>(line: &'l str, cues: &Cues) -> Option<(Kind, &'l str)> {
    if !cues.call_shaped_functions || line.len() - line.trim_start().len() > 8 {
        return None;
    }
    let trimmed = line.trim();
    let (before, _) = trimmed.split_once('(')?;
    let first = before.split_whitespace().next()?;
    let looks_like_statement = STATEMENT_WORDS.contains(&first)
        || trimmed.ends_with(';')
        || before.contains('=')
        || !before.trim_end().contains(' ')
        || trimmed.starts_with(['#', '/', '*', '@']);
    if looks_like_statement {
        return None;
    }
    let name = before.trim_end().rsplit([' ', '*', '&']).next()?;
    identifier_prefix(name).map(|name| (Kind::Function, name))
}

/// `async save(record) {`, `static get type() {`, `render: function (h) {`, `*entries() {`: a
/// method's head, which is never a statement in JavaScript (a call followed by a block needs a
/// line break between them); also with its body on the same line (`size() { return 3 }`).
fn method_shaped<'l>(trimmed: &'l str, cues: &Cues) -> Option<(Kind, &'l str)> {
    if !cues.members_by_shape {
        return None;
    }
    let head = match trimmed.strip_suffix('{') {
        Some(head) => head,
        None if trimmed.ends_with('}') => {
            let close = trimmed.find(')')?;
            &trimmed[..close + trimmed[close..].find('{')?]
        }
        None => return None,
    }
    .trim_end();
    let (before, arguments) = head.split_once('(')?;
    // `describe('store', () => {`, `$(function () {`: a call's callback, not a method.
    let callback =
        ["function (", "function(", "function*", "async function"].iter().any(|word| arguments.contains(word));
    if head.ends_with("=>") || callback {
        return None;
    }
    let before = before.trim_end();
    // `render: function (h) {`, and a named function value, `ordinal: function ordinal(n) {`:
    // the property names the method.
    let property = [": function", ": async function"].iter().find_map(|word| {
        let (property, rest) = before.split_once(word)?;
        let rest = rest.trim();
        rest.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '$')).then_some(property)
    });
    let before = property.unwrap_or(before);
    let mut words: Vec<&str> = before.split_whitespace().collect();
    // `find<T>(id: string): T {`: the name before its type parameters.
    let name = words.pop()?.trim_start_matches('*');
    let name = name.split_once('<').map_or(name, |(name, _)| name);
    let modifiers = ["async", "static", "get", "set", "public", "private", "protected", "override", "*"];
    let is_name = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '#'));
    let keyword = STATEMENT_WORDS.contains(&name) || matches!(name, "function" | "with" | "super");
    let kind = if name == "constructor" { Kind::Constructor } else { Kind::Method };
    (is_name && !keyword && words.iter().all(|word| modifiers.contains(word))).then_some((kind, name))
}

/// `protected isStopped: boolean = false;`, `static readonly VERSION = 3;`, `private cache?: Map<…>;`:
/// a class field's declaration, told from an object's property (`name: value,`) by the modifier
/// it starts with. Where methods have their shape (JavaScript), as they do.
fn field_shaped<'l>(trimmed: &'l str, cues: &Cues) -> Option<(Kind, &'l str)> {
    if !cues.members_by_shape {
        return None;
    }
    let modifiers = ["public", "private", "protected", "readonly", "static", "declare", "override", "abstract"];
    let mut words = trimmed.split_whitespace().peekable();
    let mut modified = false;
    while words.next_if(|word| modifiers.contains(word)).is_some() {
        modified = true;
    }
    let rest = words.next()?;
    let name_end = rest.find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '#'))).unwrap_or(rest.len());
    let (name, after) = rest.split_at(name_end);
    let after = after.trim_start_matches(['?', '!']);
    let declares = after.starts_with([':', ';', '='])
        || (after.is_empty() && words.peek().is_some_and(|w| w.starts_with([':', '='])));
    (modified && !name.is_empty() && declares && !STATEMENT_WORDS.contains(&name)).then_some((Kind::Field, name))
}

/// The leading identifier-ish part of a word (`parse<T>(x)` → `parse`, `self.parse` kept whole).
fn identifier_prefix(word: &str) -> Option<&str> {
    let end = word
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | ':' | '!' | '?' | '~')))
        .unwrap_or(word.len());
    let name = word[..end].trim_end_matches(':');
    (!name.is_empty()).then_some(name)
}

/// ATX (`## Title`) and setext (`Title` over `===`/`---`) headings outside fenced code blocks.
fn markdown_headings(source: &str) -> Vec<Heading> {
    let mut headings = Vec::new();
    let mut fence: Option<&str> = None;
    // The previous line, if it could be the text of a setext heading.
    let mut paragraph: Option<(u32, &str)> = None;
    for (line_number, line) in numbered_lines(source) {
        let trimmed = line.trim_start();
        let candidate = paragraph.take();
        if line.len() - trimmed.len() > 3 {
            continue;
        }
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (Some(open), Some(m)) if open == m => fence = None,
            (None, Some(m)) => fence = Some(m),
            (None, None) => {
                let level = trimmed.chars().take_while(|&c| c == '#').count();
                let rest = &trimmed[level..];
                let underline = trimmed.trim_end();
                if (1..=6).contains(&level) && (rest.is_empty() || rest.starts_with([' ', '\t'])) {
                    let text = collapse(rest.trim().trim_end_matches('#'));
                    headings.push(Heading { level, text, line: line_number });
                } else if let Some((text_line, text)) = candidate
                    && let Some(level) = setext_level(underline)
                {
                    headings.push(Heading { level, text: collapse(text), line: text_line });
                } else if !trimmed.trim().is_empty() {
                    paragraph = Some((line_number, trimmed));
                }
            }
            _ => {}
        }
    }
    headings
}

/// `===` underlines a level-1 heading, `---` a level-2 one.
fn setext_level(line: &str) -> Option<usize> {
    let level = match line.chars().next()? {
        '=' => 1,
        '-' => 2,
        _ => return None,
    };
    line.chars().all(|c| c == line.as_bytes()[0] as char).then_some(level)
}

/// Keys of the top-level object, found by tracking nesting depth and strings.
fn json_keys(source: &str) -> Vec<Definition> {
    let mut keys = Vec::new();
    let (mut depth, mut line) = (0usize, 1u32);
    let mut chars = source.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\n' => line += 1,
            '{' | '[' => depth += 1,
            '}' | ']' => depth = depth.saturating_sub(1),
            '"' => {
                let start_line = line;
                let mut end = source.len();
                while let Some((i, c)) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '\n' => line += 1,
                        '"' => {
                            end = i;
                            break;
                        }
                        _ => {}
                    }
                }
                let is_key = source[end..].trim_start_matches(|c: char| c == '"' || c.is_whitespace()).starts_with(':');
                if depth == 1 && is_key {
                    let name = &source[at + 1..end];
                    keys.push(one_line(Kind::Key, name, truncate(name.to_string(), MAX_SIGNATURE), start_line));
                }
            }
            _ => {}
        }
    }
    keys
}

/// `key: value` at column 0, not a comment, list item or document marker.
fn yaml_keys(source: &str) -> Vec<Definition> {
    keys_at_column_zero(source, |line| {
        if line.starts_with([' ', '\t', '#', '-', '.', '%']) {
            return None;
        }
        let key = line.split_once(": ").map_or_else(|| line.trim_end().strip_suffix(':'), |(key, _)| Some(key))?;
        Some((Kind::Key, unquote(key.trim()).to_string()))
    })
}

/// Top-level `key = value` pairs before the first table, and `[table]` / `[[array]]` headers,
/// skipping multi-line strings.
fn toml_keys(source: &str) -> Vec<Definition> {
    let mut in_tables = false;
    let mut open_string: Option<&str> = None;
    keys_at_column_zero(source, |line| {
        let quotes = ["\"\"\"", "'''"];
        if let Some(quote) = open_string {
            if line.matches(quote).count() % 2 == 1 {
                open_string = None;
            }
            return None;
        }
        if let Some(quote) = quotes.into_iter().find(|q| line.matches(q).count() % 2 == 1) {
            open_string = Some(quote);
        }
        // Indented lines continue a value (`[1, 2],` inside a multi-line array).
        if line.starts_with('[') {
            in_tables = true;
            let header = line.split_once(" #").map_or(line, |(header, _)| header).trim_end();
            return Some((Kind::Table, header.to_string()));
        }
        let (key, _) = line.split_once('=')?;
        (!in_tables && !line.starts_with([' ', '\t', '#'])).then(|| (Kind::Key, key.trim().to_string()))
    })
}

fn keys_at_column_zero(source: &str, mut key: impl FnMut(&str) -> Option<(Kind, String)>) -> Vec<Definition> {
    numbered_lines(source)
        .filter_map(|(line_number, line)| {
            let (kind, text) = key(line)?;
            let name = text.trim_start_matches('[').trim_end_matches(']').to_string();
            Some(one_line(kind, &name, truncate(text, MAX_SIGNATURE), line_number))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(items: &[Definition]) -> Vec<&str> {
        items.iter().map(|item| item.name.as_str()).collect()
    }

    #[test]
    fn data_keys_skip_nested_values_and_strings() {
        let json = "{\"a\": {\"inner\": 1}, \"b\\\"q\": \"x: y\",\n \"c\": [1, {\"d\": 2}]}";
        assert_eq!(names(&json_keys(json)), ["a", "b\\\"q", "c"]);
        assert_eq!(json_keys(json)[2].start_line, 2);
        let toml =
            "top = 1\nlist = [\n  [1, 2],\n]\ntext = \"\"\"\n[not-a-table]\nkey = 2\n\"\"\"\n[table] # c\ninner = 3\n";
        assert_eq!(names(&toml_keys(toml)), ["top", "list", "text", "table"]);
        let yaml = "# c\na: 1\nb:\n  nested: 2\n- item\n\"q\": 3\n---\nd: 4\n";
        assert_eq!(names(&yaml_keys(yaml)), ["a", "b", "q", "d"]);
    }

    #[test]
    fn an_import_line_stays_whole() {
        let names: Vec<String> = (0..60).map(|n| format!("name{n}")).collect();
        let source = format!("from package.module import {}\n\ndef f():\n    pass\n", names.join(", "));
        let outline = outline(Language::Python, &source, "test".to_string());
        assert_eq!(outline.imports[0].text, format!("from package.module import {}", names.join(", ")));
    }

    #[test]
    fn code_lines_by_their_first_words() {
        assert_eq!(definition("pub(crate) const fn new() -> Self {", &RUST), Some((Kind::Function, "new")));
        assert_eq!(definition("pub const MAX: u32 = 3;", &RUST), Some((Kind::Const, "MAX")));
        // A keyword where a name should be: a list of words (serde's `forward_to_deserialize_any!`).
        assert_eq!(definition("        struct enum identifier ignored_any", &RUST), None);
        assert_eq!(
            definition("func (s *Server) Start(ctx context.Context) error {", &GO),
            Some((Kind::Function, "Start"))
        );
        assert_eq!(definition("export default async function handler(req) {", &JS), Some((Kind::Function, "handler")));
        assert_eq!(definition("static int parse(const char *s)", &C_FAMILY), Some((Kind::Function, "parse")));
        assert_eq!(definition("    public List<T> find(String q) {", &C_FAMILY), Some((Kind::Function, "find")));
        assert_eq!(definition("    return parse(s);", &C_FAMILY), None);
        assert_eq!(definition("    if (x) {", &C_FAMILY), None);
        // JavaScript methods by their shape: a name, its arguments and a block.
        assert_eq!(definition("\tasync save(record) {", &JS), Some((Kind::Method, "save")));
        assert_eq!(definition("  static get type() {", &JS), Some((Kind::Method, "type")));
        assert_eq!(definition("  *entries() {", &JS), Some((Kind::Method, "entries")));
        assert_eq!(definition("  constructor(requests) {", &JS), Some((Kind::Constructor, "constructor")));
        assert_eq!(definition("    ordinal: function (number) {", &JS), Some((Kind::Method, "ordinal")));
        assert_eq!(definition("    } else if (x) {", &JS), None);
        assert_eq!(definition("    while (queue.length) {", &JS), None);
        assert_eq!(definition("    describe('store', () => {", &JS), None);
        assert_eq!(definition("describe('Store', function () {", &JS), None);
        assert_eq!(definition("$(function () {", &JS), None);
        assert_eq!(definition("  find<T>(id: string): T {", &JS), Some((Kind::Method, "find")));
        assert_eq!(definition("  compose(...functions) {", &JS), Some((Kind::Method, "compose")));
        assert_eq!(
            definition("pub extern \"C\" fn hyper_read(userdata: *mut c_void) -> usize {", &RUST),
            Some((Kind::Function, "hyper_read"))
        );
        assert_eq!(definition("    this.save(record) {", &JS), None);
        assert_eq!(definition("    save(record);", &JS), None);
        assert_eq!(definition("def self.parse(text)", &RUBY), Some((Kind::Function, "self.parse")));
        assert_eq!(definition("export const dual: {", &JS), Some((Kind::Const, "dual")));
        assert_eq!(definition("export default Vue", &JS), Some((Kind::Export, "Vue")));
        assert_eq!(definition("  ordinal: function ordinal(n) {", &JS), Some((Kind::Method, "ordinal")));
        assert_eq!(definition("  render: async function (h) {", &JS), Some((Kind::Method, "render")));
        let restricted = "pub(in crate::backend) unsafe fn syscall2(";
        assert_eq!(definition(restricted, &RUST), Some((Kind::Function, "syscall2")));
        assert_eq!(definition("export { parse, stringify };", &JS), Some((Kind::Export, "{ parse, stringify }")));
        assert_eq!(definition("export default define('x', {", &JS), None, "a value, not a name");
        assert_eq!(definition("  export default x", &JS), None, "only at file level");
        assert_eq!(definition("  const local = 1", &JS), None, "a local in a body");
    }
}
