//! An outline of code in a language this crate has no grammar for (Kotlin, Swift, PHP, Scala,
//! Dart, Lua, shell, Perl, Elixir, Julia, Nim, Zig, Solidity, PowerShell, Crystal, Groovy): each
//! line that starts a definition with a keyword (`fun`, `class`, `def`, `function`, …), nested by
//! its indentation; in Dart and Groovy also a function declared by its return type and a
//! constructor, in Lua the functions a table holds. What none of these starts (a Dart field,
//! `final String name;`) is not listed; the view's first line says what is ([`Family::note`]).

mod lua;

use crate::model::{Definition, Kind};
use crate::text::signature_line;

/// Lines longer than this are data or minified code, not a definition's head.
const MAX_LINE: usize = 1_000;

/// The deepest nesting listed: indentation deeper than this many definitions is a body's detail.
const MAX_NESTING: usize = 16;

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
const KEYWORDS: &[(&str, Kind)] = &[
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
const STORAGE: &[(&str, Kind)] =
    &[("val", Kind::Const), ("let", Kind::Const), ("const", Kind::Const), ("var", Kind::Variable)];

/// Words that start a statement, never a function's return type (`return load(id);`).
const NOT_TYPES: &[&str] = &[
    "assert", "await", "case", "catch", "do", "else", "for", "if", "in", "is", "new", "print", "println", "return",
    "switch", "throw", "while", "yield",
];

/// Which keywords a language defines with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// Kotlin, Swift, PHP, Scala and the rest: [`KEYWORDS`], [`STORAGE`] and their modifiers.
    General,
    /// Dart, Groovy and Gradle: [`Family::General`]'s keywords, a function declared by its return
    /// type (`void main() {`, `Future<int> load(String id) async {`, `String get name => _name;`),
    /// a constructor (`const Foo(this.x);`, `factory Foo.fromJson(…)`), and Groovy's `def x = …`
    /// is a variable (a function only with its parameters).
    Typed,
    /// sh, bash, zsh, ksh: `function name` and `name() {` only (`type` is a command there).
    Shell,
    /// Lua: [`Family::General`]'s keywords (`function`, `local function`), and the functions a
    /// table holds: a field's (`M.load = function(path)`, in a function's body too) and a table
    /// constructor's (`local t = { load = function(path) … }`, `return { … }`), under the table
    /// they are members of.
    Lua,
}

impl Family {
    /// The first line of the family's outline: how it was made, and what it lists.
    pub fn note(self) -> &'static str {
        match self {
            Family::General => {
                "[outline by keywords (no grammar for this language here): definitions a keyword starts \
                 (fun, class, def, sub, val, …); others not shown]"
            }
            Family::Typed => {
                "[outline by keywords (no grammar for this language here): definitions a keyword starts, \
                 functions declared by their return type and constructors; fields declared by their type \
                 (final String name;) not shown]"
            }
            Family::Lua => {
                "[outline by keywords (no grammar for this language here): functions and the functions of \
                 tables (M.f = function, t = { f = function }); locals and callbacks passed to calls not shown]"
            }
            Family::Shell => {
                "[outline by keywords (no grammar for this language here): functions only; variables and \
                 aliases not shown]"
            }
        }
    }
}

/// The outline of `source` by its definition keywords, nested by indentation.
pub fn keyword_outline(source: &str, family: Family) -> Vec<Definition> {
    let lines: Vec<&str> = source.lines().collect();
    // Each definition found, with its indentation, the index of its enclosing one and whether it
    // is a Lua table.
    let mut found: Vec<(usize, Option<usize>, Definition, Table)> = Vec::new();
    // Indices into `found` of the definitions still open at the current line.
    let mut open: Vec<usize> = Vec::new();
    let text = text_lines(&lines);
    let constants = if family == Family::General { constant_lists(&lines) } else { vec![false; lines.len()] };
    for (index, line) in lines.iter().enumerate() {
        if text[index] || line.len() > MAX_LINE || line.trim().is_empty() || is_bracket_line(line) {
            continue;
        }
        let indent = indentation(line);
        while open.last().is_some_and(|&last| found[last].0 >= indent) {
            open.pop();
        }
        let parent = open.last().copied();
        // In Dart and Groovy a block that is no definition is a closure (Gradle's `android {`):
        // what it declares is its own, not the file's.
        let in_type = match parent {
            Some(parent) => is_type(found[parent].2.kind),
            None => family != Family::Typed || indent == 0,
        };
        let found_here = if constants[index] {
            constant_entry(line.trim()).map(|(kind, name)| (kind, name, Table::No))
        } else if family == Family::Lua {
            let place = match parent.map(|parent| found[parent].3) {
                Some(Table::Named | Table::Anonymous) => lua::Place::Table,
                _ if in_type => lua::Place::File,
                _ => lua::Place::Body,
            };
            lua::definition(line.trim(), place)
                .or_else(|| definition(line.trim(), family, in_type).map(|(kind, name)| (kind, name, Table::No)))
        } else if family == Family::Typed {
            // A head whose block opens on the next line (Groovy's `void publish()` over `{`) is
            // read as one line.
            let opens_next = lines[index + 1..].iter().find(|l| !l.trim().is_empty()).is_some_and(|l| l.trim() == "{");
            let head = if opens_next { format!("{} {{", line.trim()) } else { line.trim().to_string() };
            let class = parent.filter(|_| in_type).map(|parent| found[parent].2.name.as_str());
            class
                .and_then(|class| typed_constructor(&head, class))
                .or_else(|| definition(&head, family, in_type))
                .map(|(kind, name)| (kind, name, Table::No))
        } else {
            definition(line.trim(), family, in_type).map(|(kind, name)| (kind, name, Table::No))
        };
        let Some((kind, name, table)) = found_here else { continue };
        if open.len() >= MAX_NESTING {
            continue;
        }
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let definition = Definition {
            kind,
            name,
            // A value written over the next lines (`const MAP = [`) is left out with its bracket,
            // a table's constructor (`setmetatable({}, {`) with it: its functions follow.
            signature: match table {
                Table::Named => signature_line(line.trim().split('=').next().unwrap_or_default()),
                _ => signature_line(line.trim().trim_end_matches('[').trim_end()),
            },
            uncut: None,
            start_line: number,
            head_line: number,
            end_line: number,
            children: Vec::new(),
        };
        open.push(found.len());
        found.push((indent, parent, definition, table));
    }
    set_ends(&mut found, &lines, &text);
    // Children after their parents in `found`: moved into them from the last one back, so each
    // list is gathered last first and turned round when its owner's turn comes. A table is
    // listed for the functions it holds: one without is left out, and an unnamed one's
    // (`return {`) are its owner's.
    let mut roots = Vec::new();
    while let Some((_, parent, mut definition, table)) = found.pop() {
        let owners = match parent {
            Some(parent) => &mut found[parent].2.children,
            None => &mut roots,
        };
        match table {
            Table::Named if definition.children.is_empty() => {}
            Table::Anonymous => owners.append(&mut definition.children),
            Table::No | Table::Named => {
                definition.children.reverse();
                owners.push(definition);
            }
        }
    }
    roots.reverse();
    roots
}

/// Each definition runs to the line before the next one indented as much or less that does not
/// only close something (`}`, `) {`, `end`), less the blank lines and the closing lines of its
/// enclosing definitions (indented less) before that. A declaration that opens no block
/// (`package a.b`, `namespace App;`) is its line.
fn set_ends(found: &mut [(usize, Option<usize>, Definition, Table)], lines: &[&str], text: &[bool]) {
    for (indent, _, definition, _) in found.iter_mut() {
        let start = definition.start_line;
        let head = lines[start as usize - 1].trim_end();
        let block =
            !head.ends_with(';') && (definition.kind != Kind::Module || head.ends_with('{') || head.ends_with(" do"));
        if !block {
            continue;
        }
        let next = (start as usize..lines.len()).find(|&at| {
            let line = lines[at];
            !text[at] && !line.trim().is_empty() && indentation(line) <= *indent && !is_bracket_line(line)
        });
        let mut end = next.unwrap_or(lines.len());
        while end > start as usize {
            let line = lines[end - 1];
            if text[end - 1] || (!line.trim().is_empty() && indentation(line) >= *indent) {
                break;
            }
            end -= 1;
        }
        definition.end_line = u32::try_from(end).unwrap_or(u32::MAX);
    }
}

/// Whether a definition found is a Lua table, listed for the functions it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Table {
    No,
    /// `local t = {`, `M.config = {`, `local s = setmetatable({`: listed with its functions.
    Named,
    /// `return {`: its functions are its owner's.
    Anonymous,
}

/// Which lines are text inside code, whatever their words and indentation: a here-document's
/// body and its closing word (`cat <<EOF`, PHP's `<<<EOT`), a triple-quoted string's lines after
/// its first (`"""`, `\'\'\'`), Perl's and Ruby's documentation (`=head1` … `=cut`, `=begin` …
/// `=end`). A `<<WORD` whose WORD closes no later line is an operator (`1 << WIDTH`).
fn text_lines(lines: &[&str]) -> Vec<bool> {
    let mut text = vec![false; lines.len()];
    let mut at = 0;
    while at < lines.len() {
        let line = lines[at];
        let through = if line.starts_with('=') && line[1..].starts_with(char::is_alphabetic) {
            // The documentation's own lines too, to its `=cut` or `=end`.
            let end = lines[at..].iter().position(|l| l.starts_with("=cut") || l.starts_with("=end"));
            text[at] = true;
            end.map_or(lines.len() - 1, |offset| at + offset)
        } else if let Some(word) = here_document(line) {
            // The word alone on its line, or (PHP) followed by what ends the expression: a line
            // that only starts with it (`SHIFT = 3`) closes nothing.
            let closes = |l: &&str| {
                let rest = l.trim().strip_prefix(word.as_str());
                rest.is_some_and(|rest| rest.is_empty() || rest.starts_with([';', ',', ')', ']']))
            };
            lines[at + 1..].iter().position(closes).map_or(at, |offset| at + 1 + offset)
        } else {
            let quote = ["\"\"\"", "\'\'\'"].into_iter().find(|quote| line.matches(quote).count() % 2 == 1);
            quote.map_or(at, |quote| {
                let close = lines[at + 1..].iter().position(|l| l.contains(quote));
                close.map_or(at, |offset| at + 1 + offset)
            })
        };
        for flag in &mut text[at + 1..=through] {
            *flag = true;
        }
        at = through + 1;
    }
    text
}

/// The word a here-document that `line` opens ends at: `<<EOF`, `<< EOF`, `<<-'EOF'`, `<<~EOF`,
/// `<<"EOF"`, PHP's `<<<EOT`.
fn here_document(line: &str) -> Option<String> {
    let at = line.find("<<")?;
    let rest = line[at + 2..].trim_start_matches('<').trim_start_matches(['-', '~']).trim_start();
    let rest = rest.trim_start_matches(['\'', '"']);
    let word: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    word.starts_with(|c: char| c.is_alphabetic() || c == '_').then_some(word)
}

/// Whether `line` only opens or closes what a definition's head began: a bracket first (`{` on a
/// line of its own, `}`, `) {`, `]`) or a block's `end`. Such a line neither ends a definition
/// nor starts one.
fn is_bracket_line(line: &str) -> bool {
    let trimmed = line.trim_start();
    trimmed.starts_with([')', ']', '}', '{']) || trimmed.split([' ', ';', ')', '.', ',']).next() == Some("end")
}

/// The width of a line's leading whitespace, a tab counting as four.
fn indentation(line: &str) -> usize {
    line.chars().take_while(|c| c.is_whitespace()).map(|c| if c == '\t' { 4 } else { 1 }).sum()
}

fn is_type(kind: Kind) -> bool {
    matches!(kind, Kind::Class | Kind::Interface | Kind::Trait | Kind::Struct | Kind::Enum | Kind::Impl | Kind::Module)
}

/// What `line` (trimmed) defines, and its name: after annotations (`@Test`), modifiers and
/// keywords (`private suspend fun`, `enum class`, `const val`: the last keyword says what is
/// defined), a name; or in shell, a function (`name() {`). At the top level and among a type's
/// members, also a PHP property (`private ?Foo $foo = null;`), a Perl constant (`use constant
/// NAME => 1;`) and a function assigned to a name (Lua's `M.load = function(path)`).
fn definition(line: &str, family: Family, in_type: bool) -> Option<(Kind, String)> {
    if family == Family::Shell {
        return shell_function(line)
            .map(|name| (Kind::Function, name.to_string()))
            .or_else(|| keyword_definition(line, family, in_type));
    }
    if is_anonymous_class(line) {
        return Some((Kind::Class, "class@anonymous".to_string()));
    }
    let assigned = in_type.then(|| perl_constant(line).or_else(|| assigned_function(line))).flatten();
    assigned.or_else(|| keyword_definition(line, family, in_type))
}

/// Whether `line` (trimmed) opens PHP's anonymous class (`return new class($logger) extends
/// Handler {`, `$h = new class {`): its members are a type's, whatever encloses it. PHP names it
/// `class@anonymous`.
fn is_anonymous_class(line: &str) -> bool {
    let comment = line.starts_with(['#', '*']) || line.starts_with("//");
    let mut after = line.match_indices("new class").map(|(at, found)| &line[at + found.len()..]);
    !comment
        && after.any(|after| {
            after.is_empty()
                || after.starts_with(['(', '{'])
                || [" {", " extends ", " implements "].iter().any(|next| after.starts_with(next))
        })
}

/// A Dart or Groovy constructor among its class's members, `class` its name: `const
/// Foo(this.x);`, `Foo.named(…) : super(…)`, `factory Foo.fromJson(…)`, `public Foo(int x) {`.
/// A named one is named by its last part (`fromJson`), as a receiver's function is.
fn typed_constructor(line: &str, class: &str) -> Option<(Kind, String)> {
    let mut rest = line;
    while let Some(after) = ["const ", "factory ", "external ", "public ", "protected ", "private "]
        .iter()
        .find_map(|m| rest.strip_prefix(m))
    {
        rest = after.trim_start();
    }
    let after = rest.strip_prefix(class)?;
    let (name, after) = match after.strip_prefix('.') {
        Some(named) => name(named)?,
        None => (class.to_string(), after),
    };
    after.trim_start().starts_with('(').then_some((Kind::Constructor, name))
}

/// What `line` defines by its keywords (see [`definition`]), or, when only modifiers come before
/// a `$name` (a type between them), the PHP property of that name.
fn keyword_definition(line: &str, family: Family, in_type: bool) -> Option<(Kind, String)> {
    let mut last = None;
    let mut offset = 0;
    let mut modified = false;
    // The parentheses an annotation's arguments left open (`@Query("SELECT a FROM t")`).
    let mut annotation_depth = 0usize;
    for word in line.split_whitespace() {
        let at = offset + line[offset..].find(word)?;
        offset = at + word.len();
        if annotation_depth > 0 || (word.starts_with('@') && last.is_none()) {
            annotation_depth = (annotation_depth + word.matches('(').count()).saturating_sub(word.matches(')').count());
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

/// A function declared by its return type, `text` starting with the type: `void main() {`,
/// `Future<Map<String, int>> load(String id) async {`, `String get name => _name;`, an abstract
/// `int parse(String s);`. A call in a statement (`return load(id);`) is none.
fn typed_function(text: &str) -> Option<(Kind, String)> {
    let return_type = type_token(text);
    if return_type.is_empty() || NOT_TYPES.contains(&return_type) {
        return None;
    }
    let mut rest = text[return_type.len()..].trim_start();
    let mut getter = return_type == "get";
    if let Some(after) = rest.strip_prefix("get ").or_else(|| rest.strip_prefix("set ")) {
        getter = rest.starts_with("get ");
        rest = after.trim_start();
    }
    let length = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).unwrap_or(rest.len());
    let (name, after) = rest.split_at(length);
    if !name.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$') {
        return None;
    }
    let tail = text.trim_end();
    let body = tail.ends_with('{') || tail.ends_with(';') || tail.contains("=>");
    let head = after.starts_with('(') || (getter && after.trim_start().starts_with(['{', '=']));
    (head && body).then(|| (Kind::Function, name.to_string()))
}

/// The type `text` starts with: a name, dotted, with its type arguments (spaces inside them
/// too), `?` and `[]`.
fn type_token(text: &str) -> &str {
    let mut depth = 0usize;
    let end = text
        .char_indices()
        .find(|&(_, c)| match c {
            '<' => {
                depth += 1;
                false
            }
            '>' if depth > 0 => {
                depth -= 1;
                false
            }
            _ if depth > 0 => false,
            c => !(c.is_alphanumeric() || "_.?[]".contains(c)),
        })
        .map_or(text.len(), |(at, _)| at);
    let token = &text[..end];
    if token.starts_with(|c: char| c.is_alphabetic() || c == '_') { token } else { "" }
}

/// A PHP property, `$name` first in `rest` or after its type (`?Foo $foo = null;`).
fn php_property(rest: &str) -> Option<(Kind, String)> {
    let mut words = rest.split_whitespace();
    let first = words.next()?;
    let word = if first.starts_with('$') { first } else { words.next().filter(|w| w.starts_with('$'))? };
    let name: String = word.chars().take_while(|c| c.is_alphanumeric() || "_$".contains(*c)).collect();
    (name.len() > 1).then_some((Kind::Variable, name))
}

/// Perl's `use constant NAME => value;` (spaced as it may be: `use constant   NAME  => 1;`).
fn perl_constant(line: &str) -> Option<(Kind, String)> {
    constant_entry(use_constant(line)?)
}

/// What follows `use constant` on `line`.
fn use_constant(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("use")?.trim_start().strip_prefix("constant")?;
    rest.starts_with(char::is_whitespace).then_some(rest)
}

/// `NAME => value`: one constant of `use constant`, or of the list it takes.
fn constant_entry(text: &str) -> Option<(Kind, String)> {
    let (name, after) = name(text)?;
    after.trim_start().starts_with("=>").then_some((Kind::Const, name))
}

/// The lines of Perl's `use constant {` lists, indented under it up to its closing `}` (a line
/// indented no deeper ends one left open): each `NAME => value,` on them is a constant.
fn constant_lists(lines: &[&str]) -> Vec<bool> {
    let mut inside = vec![false; lines.len()];
    // The indentation of the `use constant {` whose list is open.
    let mut open: Option<usize> = None;
    for (flag, line) in inside.iter_mut().zip(lines) {
        let trimmed = line.trim();
        if open.is_some_and(|indent| !trimmed.is_empty() && indentation(line) <= indent) {
            open = None;
        }
        *flag = open.is_some();
        if use_constant(trimmed).is_some_and(|rest| rest.trim() == "{") {
            open = Some(indentation(line));
        }
    }
    inside
}

/// A function assigned to a name or a field: `M.load = function(path)`, `local f = function()`.
fn assigned_function(line: &str) -> Option<(Kind, String)> {
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

/// A modifier's word without what it takes (`private(set)`).
fn modifier_word(word: &str) -> &str {
    word.split('(').next().unwrap_or(word)
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

/// The name a definition keyword is followed by, and what follows the name: past type parameters
/// (`fun <T> List<T>.second`), a receiver's type and a module's (`String.trim`, `M:name` are
/// `trim` and `name`), a Nim export mark (`proc name*`); a module's dotted name stays whole
/// (`defmodule App.Repo`, PHP's `namespace App\Http`).
fn name(rest: &str) -> Option<(String, &str)> {
    let mut rest = rest.trim_start();
    if rest.starts_with('<') {
        // Type parameters, nested as they may be (`fun <T : Event<T>> send`).
        let mut depth = 0usize;
        let close = rest.find(|c| {
            match c {
                '<' => depth += 1,
                '>' => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth == 0
        })?;
        rest = rest[close + 1..].trim_start();
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

/// A shell function, `name() {` or `name () {` (the `function name` form has a keyword).
fn shell_function(line: &str) -> Option<&str> {
    let (name, rest) = line.split_once('(')?;
    let name = name.trim_end();
    let simple = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || "_-:.".contains(c));
    let opens = rest.trim_start().strip_prefix(')')?.trim_start();
    (simple
        && name.starts_with(char::is_alphabetic)
        && (opens.starts_with('{') || opens.is_empty())
        && !line.contains('='))
    .then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(items: &[Definition], depth: usize, out: &mut Vec<String>) {
        for item in items {
            out.push(format!(
                "{}{}-{} {:?} {}",
                " ".repeat(depth),
                item.start_line,
                item.end_line,
                item.kind,
                item.name
            ));
            flat(&item.children, depth + 1, out);
        }
    }

    fn outline(source: &str, family: Family) -> Vec<String> {
        let mut out = Vec::new();
        flat(&keyword_outline(source, family), 0, &mut out);
        out
    }

    #[test]
    fn kotlin_definitions_nest_by_indentation_and_end_before_their_parents_close() {
        let source = "package demo\n\nclass Cart(val id: Int) {\n    private val items = mutableListOf<String>()\n\n    \
                      suspend fun add(item: String): Boolean {\n        val local = 1\n        return true\n    }\n\n    \
                      @Test fun <T> List<T>.second(): T = this[1]\n}\n\nenum class Color { RED }\nconst val MAX = 3\n";
        assert_eq!(
            outline(source, Family::General),
            [
                "1-1 Module demo",
                "3-12 Class Cart",
                " 4-4 Const items",
                " 6-9 Function add",
                " 11-11 Function second",
                "14-14 Class Color",
                "15-15 Const MAX",
            ]
        );
    }

    #[test]
    fn other_languages_keywords_shell_functions_and_constructors() {
        let swift = "struct Point {\n    var x: Double\n    init(x: Double) { self.x = x }\n    mutating func move() {}\n}\n\
                     extension Point: Equatable {}\n";
        assert_eq!(
            outline(swift, Family::General),
            ["1-5 Struct Point", " 2-2 Variable x", " 3-3 Constructor init", " 4-4 Function move", "6-6 Impl Point"]
        );
        let shell = "#!/bin/sh\n# def not_this\nbuild() {\n  cargo build\n}\nfunction deploy {\n  x=$(f)\n}\n";
        assert_eq!(outline(shell, Family::Shell), ["3-5 Function build", "6-8 Function deploy"]);
        let php = "<?php\nnamespace App\\Http;\nfinal class User\n{\n    public function name(): string {}\n}\n";
        assert_eq!(outline(php, Family::General), ["2-2 Module App\\Http", "3-6 Class User", " 5-5 Function name"]);
        // A here-document's and a raw string's lines are text: no definition, no end to one.
        let heredoc = "usage() {\n  cat <<TXT\nfunction fake_in_heredoc\nTXT\n  exit 1\n}\n\nmain() {\n  usage\n}\n";
        assert_eq!(outline(heredoc, Family::Shell), ["1-6 Function usage", "8-10 Function main"]);
        let spaced = heredoc.replace("<<TXT", "<< 'TXT'");
        assert_eq!(outline(&spaced, Family::Shell), ["1-6 Function usage", "8-10 Function main"]);
        let php = "<?php\nclass Mailer {\n    public function body() {\n        return <<<EOT\nfunction notReal() is mentioned here\nEOT;\n    }\n    public function send() {}\n}\n";
        assert_eq!(outline(php, Family::General), ["2-9 Class Mailer", " 3-7 Function body", " 8-8 Function send"]);
        let kotlin = "class Repo {\n    val query = \"\"\"\nfun notAFunction()\n\"\"\"\n    fun run() {}\n}\nval width = 1 << WIDTH\nfun last() {}\nWIDTH = 3\n";
        assert_eq!(
            outline(kotlin, Family::General),
            ["1-6 Class Repo", " 2-4 Const query", " 5-5 Function run", "7-7 Const width", "8-8 Function last"]
        );
        // A `use constant {` list left open ends at the next line no deeper than it.
        let perl = "use constant {\n    A => 1,\nsub run {\n}\n";
        assert_eq!(outline(perl, Family::General), ["2-2 Const A", "3-4 Function run"]);
        // Perl's documentation is prose, whatever its words.
        let perl = "package Tool;\n\n=head1 USAGE\n\nsub in_pod { }\n\n=cut\n\nsub run {\n}\n";
        assert_eq!(outline(perl, Family::General), ["1-1 Module Tool", "9-10 Function run"]);
        let lua = "local M = {}\nfunction M.load(path)\nend\nlocal function helper() end\n";
        assert_eq!(outline(lua, Family::Lua), ["2-3 Function load", "4-4 Function helper"]);
        let elixir = "defmodule App.Repo do\n  def get(id), do: id\n  defp check(x), do: x\nend\n";
        assert_eq!(
            outline(elixir, Family::General),
            ["1-4 Module App.Repo", " 2-2 Function get", " 3-3 Function check"]
        );
    }

    #[test]
    fn groovy_def_binds_a_variable_unless_it_has_parameters() {
        let groovy = "def version = '1.0'\n\ndef bump(String v) {\n    def parts = v.split('.')\n    parts.join('.')\n}\n\n\
                      class Release {\n    def notes\n    void publish() {\n    }\n}\n";
        assert_eq!(
            outline(groovy, Family::Typed),
            [
                "1-1 Variable version",
                "3-6 Function bump",
                "8-12 Class Release",
                " 9-9 Variable notes",
                " 10-11 Function publish",
            ]
        );
    }

    #[test]
    fn a_keyword_where_a_name_is_due_is_the_name() {
        let perl = "package Net::FTP 3.14;\n\nsub init {\n}\nsub type { shift->{type} }\n";
        assert_eq!(outline(perl, Family::General), ["1-1 Module Net::FTP", "3-4 Function init", "5-5 Function type"]);
        let kotlin = "package com.swmansion.rnscreens.gamma.stack.screen\n\nclass Header {\n    var type = Type.LEFT\n    \
                      private lateinit var host: View\n    override val object: Any = 1\n}\nfun interface Listener {\n    \
                      fun onEvent()\n}\nannotation class Keep\n";
        assert_eq!(
            outline(kotlin, Family::General),
            [
                "1-1 Module screen",
                "3-7 Class Header",
                " 4-4 Variable type",
                " 5-5 Variable host",
                " 6-6 Const object",
                "8-10 Interface Listener",
                " 9-9 Function onEvent",
                "11-11 Class Keep",
            ]
        );
        let swift =
            "class Cell: UIView {\n    required init?(coder: NSCoder) { nil }\n    weak var delegate: Delegate?\n}\n";
        assert_eq!(
            outline(swift, Family::General),
            ["1-4 Class Cell", " 2-2 Constructor init", " 3-3 Variable delegate"]
        );
    }
}
