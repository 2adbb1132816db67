//! Receiver types where the code writes them: `x = Order(…)`, `x: Order`, `def f(x: Order)`,
//! `with Lock() as x`, `self.repo = Repository()`, a literal (`x = []`, `sep = ", "`). A call on
//! such a receiver is a call on that type, so `items.pop()` on a list is not a call of a project
//! method that happens to be named `pop`.
//!
//! Only Python binds names this way so far: its calls on values of unknown type were most of the
//! callers that a language server did not confirm (docs/benchmarks.md, "Callers against a
//! language server").

use serde::{Deserialize, Serialize};

use lean_ctx_outline::Language;

use crate::facts::{Def, Ref};

/// A name bound in a scope, with its type when the binding writes one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    /// `x`, or `self.x` for an attribute assigned in a method.
    pub name: String,
    /// The type's own name (`Order` for `models.Order(…)`, `Optional["Order"]`, `Order | None`),
    /// a literal's built-in type (`str`, `list`, `dict`), or `None` when nothing says
    /// (`x = make()`): the name is bound here, to something unknown.
    pub type_name: Option<String>,
    pub line: u32,
    /// Index in [`crate::FileFacts::defs`] of the innermost definition holding the binding; `None`
    /// at the module's top level.
    pub scope: Option<u32>,
}

/// What a binding says about its value's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound<'a> {
    /// The type is named: a project type, or a type from elsewhere (built-in, library).
    Type(&'a str),
    /// Bound, type unknown (or bound to different types): no evidence either way.
    Unknown,
}

/// The built-in type a literal's node kind stands for.
pub(crate) fn literal_type(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "string" | "concatenated_string" => "str",
        "list" | "list_comprehension" => "list",
        "dictionary" | "dictionary_comprehension" => "dict",
        "set" | "set_comprehension" => "set",
        "tuple" | "list_splat_pattern" => "tuple",
        "dictionary_splat_pattern" => "dict",
        "integer" => "int",
        "float" => "float",
        _ => return None,
    })
}

/// The name of the type an annotation or a constructor call writes, or `None` when it is no
/// single type: `Order`, `models.Order`, `"Order"`, `Optional[Order]`, `Order | None` → `Order`;
/// `List[str]` → `List`; `Order | Item` → `None`.
pub(crate) fn type_name(written: &str) -> Option<String> {
    let text = written.trim().trim_matches(['"', '\'']).trim();
    let text = match text.strip_prefix("Optional[").or_else(|| text.strip_prefix("typing.Optional[")) {
        Some(inner) => inner.strip_suffix(']')?.trim(),
        None => text,
    };
    let parts: Vec<&str> = text.split('|').map(str::trim).filter(|p| *p != "None").collect();
    let [one] = parts.as_slice() else { return None };
    let head = one.split('[').next().unwrap_or(one).trim().trim_matches(['"', '\'']);
    let name = head.rsplit('.').next().unwrap_or(head);
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')).then(|| name.to_string())
}

/// The type of a value a call of `callee` makes: a class by Python's naming convention, a
/// built-in type (`dict()`, `list()`) or a built-in function's result (`open()` → a file). A
/// lower-case function's result is unknown.
pub(crate) fn constructs(callee: &str) -> Option<&str> {
    if callee.chars().next().is_some_and(char::is_uppercase) {
        return Some(callee);
    }
    Some(match callee {
        "dict" | "list" | "set" | "frozenset" | "tuple" | "str" | "bytes" | "bytearray" => callee,
        "sorted" => "list",
        "open" => "IO",
        _ => return None,
    })
}

/// Method names Python's built-in types (str, bytes, list, dict, set, files) have: a call of one
/// on a value of unknown type is far more often the built-in's than a project method's, so it is
/// not claimed as a call of the project's method of that name.
pub fn builtin_method(language: Language, name: &str) -> bool {
    language == Language::Python && PYTHON_BUILTIN_METHODS.binary_search(&name).is_ok()
}

/// Sorted, for [`builtin_method`]'s binary search.
const PYTHON_BUILTIN_METHODS: &[&str] = &[
    "add",
    "append",
    "clear",
    "close",
    "copy",
    "count",
    "decode",
    "discard",
    "encode",
    "endswith",
    "extend",
    "find",
    "flush",
    "format",
    "get",
    "index",
    "insert",
    "items",
    "join",
    "keys",
    "lower",
    "lstrip",
    "pop",
    "popitem",
    "read",
    "readline",
    "readlines",
    "remove",
    "replace",
    "reverse",
    "rfind",
    "rsplit",
    "rstrip",
    "seek",
    "setdefault",
    "sort",
    "split",
    "splitlines",
    "startswith",
    "strip",
    "tell",
    "truncate",
    "union",
    "update",
    "upper",
    "values",
    "write",
    "writelines",
];

/// A receiver written as a literal (`"".join`, `[1, 2].index`, `{}.get`, `b"x".decode`): a call
/// on a built-in type, never on a project definition.
pub(crate) fn is_literal(receiver: &str) -> bool {
    let unprefixed = receiver.trim_start_matches(['f', 'b', 'r', 'u', 'F', 'B', 'R', 'U']);
    let string = unprefixed.len() < receiver.len() && unprefixed.starts_with(['"', '\'']);
    string || receiver.starts_with(['"', '\'', '`', '[', '{']) || receiver.starts_with(|c: char| c.is_ascii_digit())
}

/// What `r`'s receiver is bound to where `r` is written: the caller's own binding of that name
/// before the call, else (for a plain name) the module's; for `self.x`, an assignment to
/// `self.x` in any method of the caller's type or an annotation `x: T` in its body.
pub(crate) fn receiver_type<'a>(bindings: &'a [Binding], defs: &[Def], r: &Ref, receiver: &str) -> Option<Bound<'a>> {
    if let Some(attribute) = receiver.strip_prefix("self.").filter(|a| !a.contains(['.', '(', '['])) {
        let container = r.caller.and_then(|i| defs.get(i as usize)).and_then(|c| c.container.as_deref())?;
        let in_type = |b: &&Binding| {
            let scope = b.scope.and_then(|i| defs.get(i as usize));
            (b.name == receiver && scope.is_some_and(|d| d.container.as_deref() == Some(container)))
                || (b.name == attribute && scope.is_some_and(|d| d.is_type() && d.name == container))
        };
        return agreed(bindings.iter().filter(in_type));
    }
    if !receiver.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let named = |scope: Option<u32>| {
        let found: Vec<&Binding> =
            bindings.iter().filter(|b| b.name == receiver && b.scope == scope && b.line <= r.line).collect();
        (!found.is_empty()).then_some(found)
    };
    let in_caller = r.caller.and_then(|caller| named(Some(caller)));
    agreed(in_caller.or_else(|| named(None))?.into_iter())
}

/// The one type a set of bindings agrees on, or [`Bound::Unknown`].
fn agreed<'a>(mut found: impl Iterator<Item = &'a Binding>) -> Option<Bound<'a>> {
    let first = found.next()?;
    let same = found.all(|b| b.type_name == first.type_name);
    Some(match (&first.type_name, same) {
        (Some(name), true) => Bound::Type(name),
        _ => Bound::Unknown,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_are_read_through_optional_unions_quotes_and_modules() {
        assert_eq!(type_name("Order").as_deref(), Some("Order"));
        assert_eq!(type_name("models.Order").as_deref(), Some("Order"));
        assert_eq!(type_name("\"Order\"").as_deref(), Some("Order"));
        assert_eq!(type_name("Optional[\"Order\"]").as_deref(), Some("Order"));
        assert_eq!(type_name("Order | None").as_deref(), Some("Order"));
        assert_eq!(type_name("List[str]").as_deref(), Some("List"));
        assert_eq!(type_name("Order | Item"), None);
        assert_eq!(type_name("Callable[[int], str]").as_deref(), Some("Callable"));
    }

    #[test]
    fn the_builtin_method_names_are_sorted_for_the_search() {
        assert!(PYTHON_BUILTIN_METHODS.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(builtin_method(Language::Python, "add") && builtin_method(Language::Python, "writelines"));
        assert!(builtin_method(Language::Python, "setdefault"));
        assert!(!builtin_method(Language::Python, "render") && !builtin_method(Language::TypeScript, "pop"));
    }

    #[test]
    fn literals_are_recognised_by_their_first_characters() {
        for literal in ["\"\"", "', '", "f\"{x}\"", "b'x'", "[1, 2]", "{}", "3"] {
            assert!(is_literal(literal), "{literal}");
        }
        for value in ["self", "items", "bar", "fmt", "rb", "Order"] {
            assert!(!is_literal(value), "{value}");
        }
    }
}
