//! Keywords, modifiers and names, as every family but shell's reads a definition's line:
//! `private suspend fun`, `enum class A`, `fun <T> List<T>.second`, `namespace App\\Http;`, and a
//! function assigned to a name (`M.load = function(path)`).

use super::Family;
use super::code_chars::code_chars;
use super::php::php_property;
use super::typed::typed_function;
use crate::model::Kind;
use crate::text::closing;

/// Words that may come before a definition's keyword.
const MODIFIERS: &[&str] = &[
    "abstract",
    "actor",
    "actual",
    "annotation",
    "async",
    "case",
    "companion",
    "const",
    "convenience",
    "data",
    "dynamic",
    "expect",
    "export",
    "extern",
    "external",
    "fileprivate",
    "final",
    "implicit",
    "indirect",
    "infix",
    "inline",
    "inner",
    "internal",
    "lateinit",
    "lazy",
    "local",
    "mutable",
    "mutating",
    "nonisolated",
    "open",
    "operator",
    "override",
    "partial",
    "private",
    "protected",
    "pub",
    "public",
    "readonly",
    "required",
    "sealed",
    "static",
    "suspend",
    "tailrec",
    "unowned",
    "unsafe",
    "value",
    "virtual",
    "weak",
];

/// Definition keywords and what they define.
pub(super) const KEYWORDS: &[(&str, Kind)] = &[
    ("fun", Kind::Function),
    ("func", Kind::Function),
    ("function", Kind::Function),
    ("def", Kind::Function),
    ("defp", Kind::Function),
    ("defmacro", Kind::Macro),
    ("fn", Kind::Function),
    ("sub", Kind::Function),
    ("proc", Kind::Function),
    ("method", Kind::Function),
    ("iterator", Kind::Function),
    ("template", Kind::Macro),
    ("macro", Kind::Macro),
    ("modifier", Kind::Function),
    ("event", Kind::Function),
    ("class", Kind::Class),
    ("object", Kind::Class),
    ("record", Kind::Class),
    ("mixin", Kind::Class),
    ("contract", Kind::Class),
    ("library", Kind::Module),
    ("interface", Kind::Interface),
    ("protocol", Kind::Interface),
    ("defprotocol", Kind::Interface),
    ("trait", Kind::Trait),
    ("struct", Kind::Struct),
    ("enum", Kind::Enum),
    ("extension", Kind::Impl),
    ("impl", Kind::Impl),
    ("defimpl", Kind::Impl),
    ("module", Kind::Module),
    ("defmodule", Kind::Module),
    ("namespace", Kind::Module),
    ("package", Kind::Module),
    ("typealias", Kind::TypeAlias),
    ("typedef", Kind::TypeAlias),
    ("type", Kind::TypeAlias),
];

/// Keywords of storage, a definition at the top level or among a type's members only (in a
/// function's body they declare locals).
pub(super) const STORAGE: &[(&str, Kind)] =
    &[("val", Kind::Const), ("let", Kind::Const), ("const", Kind::Const), ("var", Kind::Variable)];

/// What `line` defines by its keywords (see [`super::definition`]), or, when only modifiers come before
/// a `$name` (a type between them), the PHP property of that name.
pub(super) fn keyword_definition(line: &str, family: Family, in_type: bool) -> Option<(Kind, String)> {
    let mut last = None;
    let mut offset = 0;
    let mut modified = false;
    // The parentheses an annotation's arguments left open (`@Query("SELECT a FROM t")`), counted
    // outside its strings: `@Query("(")` left one open, and the definition after it unread.
    let mut annotation_depth = 0usize;
    let parentheses: Vec<(usize, char)> = code_chars(line, None).filter(|&(_, c)| matches!(c, '(' | ')')).collect();
    for word in line.split_whitespace() {
        let at = offset + line[offset..].find(word)?;
        offset = at + word.len();
        if annotation_depth > 0 || (word.starts_with('@') && last.is_none()) {
            let in_word = parentheses.iter().filter(|&&(place, _)| (at..offset).contains(&place));
            for &(_, c) in in_word {
                annotation_depth = if c == '(' { annotation_depth + 1 } else { annotation_depth.saturating_sub(1) };
            }
            continue;
        }
        // A keyword glued to what follows it: `init(x:`, `init?(coder:`, `fun<T>`.
        let glued = word.find(['(', '<', '?', '!']).filter(|&cut| cut > 0);
        let keyword_word = glued.map_or(word, |cut| &word[..cut]);
        match keyword_kind(keyword_word, family, in_type) {
            // A keyword's word where a name is due is that name (`sub init {`, `var type = 1`,
            // `def init(self)`); one followed by a name says what is defined (`enum class A`).
            Some(_) if last.is_some() && (glued.is_some() || !starts_name(&line[offset..])) => break,
            Some(kind) => {
                let rest_at = glued.map_or(offset, |cut| at + cut);
                last = Some((keyword_word, kind, rest_at));
                if glued.is_some() {
                    break;
                }
            }
            None if MODIFIERS.contains(&modifier_word(word)) && family != Family::Shell => modified = true,
            None if last.is_none() && family == Family::Typed => {
                return in_type.then(|| typed_function(&line[at..])).flatten();
            }
            None if last.is_none() && modified && in_type => return php_property(&line[at..]),
            None => break,
        }
    }
    let (keyword, kind, rest_at) = last?;
    let rest = &line[rest_at..];
    if kind == Kind::Constructor {
        return rest.trim_start().starts_with(['(', '?', '!']).then(|| (kind, keyword.to_string()));
    }
    match name(rest) {
        // A module's name ends its line or opens its block (`package a.b;`, `defmodule A do`,
        // `namespace App {`); more words after it are prose (`package name. The C<open> …`).
        Some((_, after)) if kind == Kind::Module && !declares_module(after) => None,
        // Groovy's `def` without parameters binds a variable, which only a type's or the file's is.
        Some((name, after)) if family == Family::Typed && keyword == "def" && !after.trim_start().starts_with('(') => {
            in_type.then_some((Kind::Variable, name))
        }
        // A type before the name (`static const int max = 3`).
        Some((_, after))
            if family == Family::Typed && matches!(kind, Kind::Const | Kind::Variable) && starts_name(after) =>
        {
            name(after).map(|(name, _)| (kind, name))
        }
        Some((name, _)) => Some((kind, name)),
        // Kotlin's `companion object {` is named `Companion` unless named.
        None if keyword == "object" && line.split_whitespace().any(|word| word == "companion") => {
            Some((kind, "Companion".to_string()))
        }
        None => None,
    }
}

/// What `word` defines as a keyword of `family`, given whether storage keywords define here.
fn keyword_kind(word: &str, family: Family, in_type: bool) -> Option<Kind> {
    if family == Family::Shell {
        return (word == "function").then_some(Kind::Function);
    }
    if matches!(word, "init" | "constructor") {
        return Some(Kind::Constructor);
    }
    let storage = STORAGE.iter().filter(|_| in_type);
    KEYWORDS.iter().chain(storage).find(|(keyword, _)| *keyword == word).map(|(_, kind)| *kind)
}

/// A modifier's word without what it takes (`private(set)`).
fn modifier_word(word: &str) -> &str {
    word.split('(').next().unwrap_or(word)
}

/// Whether `text` starts with a name (or the type parameters before one: `fun <T> f`).
fn starts_name(text: &str) -> bool {
    text.trim_start().starts_with(|c: char| c.is_alphabetic() || "_$<".contains(c))
}

/// Whether what follows a module's name (`after`) makes it a module's declaration: nothing, what
/// opens its block or ends it, or (Perl) a version first (`package File::Compare 1.10;`).
fn declares_module(after: &str) -> bool {
    let after = after.trim_start();
    let first = after.split_whitespace().next().unwrap_or("");
    let version = first.trim_start_matches('v').starts_with(|c: char| c.is_ascii_digit())
        && first.trim_end_matches(';').chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_');
    if version {
        let tail = after[first.len()..].trim_start();
        return first.ends_with(';') || tail.is_empty() || tail.starts_with([';', '{']);
    }
    after.is_empty() || after.starts_with([';', '{', '(', '=', ':']) || ["do", "where", "exposing"].contains(&first)
}

/// The name a definition keyword is followed by, and what follows the name: past type parameters
/// (`fun <T> List<T>.second`), a receiver's type and a module's (`String.trim`, `M:name` are
/// `trim` and `name`), a Nim export mark (`proc name*`); a module's dotted name stays whole
/// (`defmodule App.Repo`, PHP's `namespace App\Http`).
pub(super) fn name(rest: &str) -> Option<(String, &str)> {
    let mut rest = rest.trim_start();
    if let Some(parameters) = rest.strip_prefix('<') {
        // Type parameters, nested as they may be (`fun <T : Event<T>> send`).
        let close = closing(parameters, '<', '>')?;
        rest = parameters[close + 1..].trim_start();
    }
    // The token, without the type arguments of a receiver (`List<T>.second` is `List.second`).
    let mut token = String::new();
    let mut depth = 0usize;
    let mut end = rest.len();
    for (at, c) in rest.char_indices() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            c if c.is_alphanumeric() || "_$.:!?\\".contains(c) || (c == '-' && next_is_letter(rest, at)) => {
                token.push(c)
            }
            _ => {
                end = at;
                break;
            }
        }
    }
    let token = token.trim_end_matches([':', '.']);
    let first = token.chars().next()?;
    if !(first.is_alphabetic() || first == '_' || first == '$') {
        return None;
    }
    let dotted_type = token.split(['.', '\\']).all(|part| part.starts_with(char::is_uppercase));
    let name = if dotted_type { token } else { token.rsplit(['.', ':', '\\']).next().unwrap_or(token) };
    (!name.is_empty()).then(|| (name.to_string(), &rest[end..]))
}

fn next_is_letter(text: &str, at: usize) -> bool {
    text[at + 1..].starts_with(char::is_alphabetic)
}

/// A function assigned to a name or a field: `M.load = function(path)`, `local f = function()`.
pub(super) fn assigned_function(line: &str) -> Option<(Kind, String)> {
    let (target, value) = line.split_once('=')?;
    let target = target.trim_end();
    let target = target.strip_prefix("local ").unwrap_or(target).trim_start();
    let value = value.trim_start().strip_prefix("function")?;
    let simple = target.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && target.chars().all(|c| c.is_alphanumeric() || "_.:".contains(c));
    if !simple || !value.trim_start().starts_with('(') {
        return None;
    }
    name(target).map(|(name, _)| (Kind::Function, name))
}
