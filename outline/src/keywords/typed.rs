//! Dart's and Groovy's definitions no keyword starts: a function declared by its return type
//! (`Future<int> load(String id) async {`) and a constructor (`const Foo(this.x);`).

use super::general::name;
use crate::model::Kind;
use crate::text::closing;

/// Words that start a statement, never a function's return type (`return load(id);`).
const NOT_TYPES: &[&str] = &[
    "assert", "await", "case", "catch", "do", "else", "for", "if", "in", "is", "new", "print", "println", "return",
    "switch", "throw", "while", "yield",
];

/// A function declared by its return type, `text` starting with the type: `void main() {`,
/// `Future<Map<String, int>> load(String id) async {`, `String get name => _name;`, an abstract
/// `int parse(String s);`, one whose body is on its line (`void move(int dx) { y += dx; }`). A
/// call in a statement (`return load(id);`) is none.
pub(super) fn typed_function(text: &str) -> Option<(Kind, String)> {
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
    if let Some((operator, after)) = operator(name, after) {
        let body = opens_body(after) || after.contains("=>") || text.trim_end().ends_with([';', '{']);
        return body.then_some((Kind::Function, operator));
    }
    let tail = text.trim_end();
    let body = tail.ends_with('{') || tail.ends_with(';') || tail.contains("=>") || opens_body(after);
    let head = after.starts_with('(') || (getter && after.trim_start().starts_with(['{', '=']));
    (head && body).then(|| (Kind::Function, name.to_string()))
}

/// Dart's operator declaration, `name` its `operator` word and `after` the rest (`+(Point o) =>
/// …`, `==(Object other)`, `[]=(int i, int v)`): named `operator+` as C++ names one, and what
/// follows its symbol.
fn operator<'a>(name: &str, after: &'a str) -> Option<(String, &'a str)> {
    if name != "operator" {
        return None;
    }
    let after = after.trim_start();
    let open = after.find('(')?;
    let symbol = after[..open].trim();
    let valid = !symbol.is_empty() && symbol.chars().all(|c| "+-*/~%=<>[]&|^".contains(c));
    valid.then(|| (format!("operator{symbol}"), &after[open..]))
}

/// Whether a body opens on the line after a function's name (`after`: its parameters, or a
/// getter's nothing): a `{` with only qualifiers between the parameters' `)` and it (`async`,
/// `throws IOException`). A body written on the line ends with its `}`, not the `{` that says a
/// head ends.
fn opens_body(after: &str) -> bool {
    let rest = match after.strip_prefix('(') {
        Some(parameters) => match closing(parameters, '(', ')') {
            Some(close) => &parameters[close + 1..],
            None => return false,
        },
        None => after,
    };
    rest.find('{').is_some_and(|open| rest[..open].chars().all(|c| c.is_alphanumeric() || " \t_*,.".contains(c)))
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

/// A Dart or Groovy constructor among its class's members, `class` its name: `const
/// Foo(this.x);`, `Foo.named(…) : super(…)`, `factory Foo.fromJson(…)`, `public Foo(int x) {`.
/// A named one is named by its last part (`fromJson`), as a receiver's function is.
pub(super) fn typed_constructor(line: &str, class: &str) -> Option<(Kind, String)> {
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
