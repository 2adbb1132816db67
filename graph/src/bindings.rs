//! Receiver types where the code writes them: `x = Order(…)`, `const x = new Order()`,
//! `x: Order`, typed parameters and fields, `with Lock() as x`, `self.repo = repo`, a literal
//! (`x = []`, `sep = ", "`), or an expression whose type [`crate::types`] works out
//! (`x = make()`, `this.cache = client.getCache()`). A call on such a receiver is a call on that
//! type, so `items.pop()` on a list is not a call of a project method that happens to be named
//! `pop`. Every language with reference queries binds names this way (each query's bindings are
//! in `references.rs`): calls on values of unknown type were most of the callers a language
//! server did not confirm (docs/benchmarks.md, "Callers against a language server").

use lean_ctx_outline::Language;
use serde::{Deserialize, Serialize};

use crate::facts::{Def, Ref};

/// A name bound in a scope, with its type when the binding writes one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    /// `x`, or `self.x` / `this.x` for an attribute assigned in a method.
    pub name: String,
    /// The type's own name (`Order` for `models.Order(…)`, `new Order()`, `Optional["Order"]`,
    /// `Order | None`), or a literal's built-in type (`str`, `list`, `string`).
    pub type_name: Option<String>,
    /// Without a written type: the expression the name is bound to when its type can be worked
    /// out from the project (`make()`, `self.client.session()`, `a.b`), arguments left out.
    /// Neither set: bound here, to something unknown.
    #[serde(default)]
    pub value: Option<String>,
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
    /// The value of an expression whose type may be worked out.
    Value(&'a str),
    /// Bound, type unknown (or bound to different things): no evidence either way.
    Unknown,
}

/// One step of a receiver chain: `client` and `session()` in `client.session()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment<'a> {
    pub name: &'a str,
    pub call: bool,
}

/// `a.b().c` as its steps; `None` for what is not such a chain (an index, an operator, a
/// literal, a call of a call).
pub(crate) fn segments(expr: &str) -> Option<Vec<Segment<'_>>> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let mut open = None;
    for (i, c) in expr.char_indices() {
        match c {
            // One call per step: `f()()` calls what a call returns.
            '(' if depth == 0 && open.is_some() => return None,
            '(' if depth == 0 => {
                open = Some(i);
                depth += 1;
            }
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.checked_sub(1)?,
            '.' if depth == 0 => {
                out.push(segment(&expr[start..i], open.map(|o| o - start))?);
                start = i + 1;
                open = None;
            }
            _ if depth == 0 && open.is_some() => return None,
            _ => {}
        }
    }
    out.push(segment(&expr[start..], open.map(|o| o - start))?);
    Some(out)
}

fn segment(text: &str, open: Option<usize>) -> Option<Segment<'_>> {
    let name = open.map_or(text, |o| &text[..o]).trim();
    // `:` for a Rust path (`Store::open()`).
    let word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '#' | '$' | ':');
    (!name.is_empty() && name.chars().all(word)).then_some(Segment { name, call: open.is_some() })
}

/// The type a function's signature says it returns, as [`type_name`] reads it: Python's and
/// Rust's `-> T`, TypeScript's `): T`, Go's `) T` or the first of `) (T, error)`. `None` when it writes none or the outline's shortening
/// cut it (`Query<…>` still names `Query`; `Prom…` names nothing).
pub fn return_type(language: Language, signature: &str) -> Option<String> {
    let written = match language {
        Language::Python | Language::Rust => {
            let (_, tail) = signature.rsplit_once("->")?;
            let tail = tail.split(" where ").next().unwrap_or(tail);
            tail.trim().trim_end_matches(['{', ':']).trim()
        }
        Language::TypeScript | Language::Tsx | Language::JavaScript => {
            let close = closing_paren(signature)?;
            let tail = signature[close + 1..].trim_start().strip_prefix(':')?;
            tail.trim().trim_end_matches(['{', ';']).trim()
        }
        Language::Java => java_return(signature)?,
        Language::Go => {
            let head = signature.trim_start().trim_start_matches("func").trim_start();
            // A method's receiver comes first: `(s *Server) Start() error`.
            let head = match head.starts_with('(') {
                true => &head[closing_paren(head)? + 1..],
                false => head,
            };
            let close = closing_paren(head)?;
            let tail = head[close + 1..].trim().trim_end_matches('{').trim();
            match tail.strip_prefix('(') {
                Some(results) => results.split([',', ')']).next()?.trim(),
                None => tail,
            }
        }
        _ => return None,
    };
    type_name(written)
}

/// The type written before a Java method's name: `Optional<Order>` in
/// `public Optional<Order> find(String id)`; `None` for a constructor.
fn java_return(signature: &str) -> Option<&str> {
    let before = signature[..signature.find('(')?].trim_end();
    let name_at = before.rfind(|c: char| c.is_whitespace() || c == '>')? + 1;
    let rest = before[..name_at].trim_end();
    let start = if rest.ends_with('>') {
        // Back to the `<` that opens the type arguments, then to the start of the type's name.
        let mut depth = 0usize;
        let open = rest.char_indices().rev().find(|(_, c)| {
            match c {
                '>' => depth += 1,
                '<' => depth -= 1,
                _ => {}
            }
            depth == 0
        })?;
        rest[..open.0].rfind(char::is_whitespace).map_or(0, |i| i + 1)
    } else {
        rest.rfind(char::is_whitespace).map_or(0, |i| i + 1)
    };
    let written = &rest[start..];
    let modifier = ["public", "private", "protected", "static", "final", "abstract", "synchronized", "default"];
    (!written.is_empty() && !modifier.contains(&written) && written != "void").then_some(written)
}

/// The `)` closing a signature's parameter list (after any `<…>` type parameters).
fn closing_paren(signature: &str) -> Option<usize> {
    let open = signature.find('(')?;
    let mut depth = 0usize;
    for (i, c) in signature[open..].char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 && c == ')' {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether `name` is a built-in type of `language` (never a project type).
pub(crate) fn builtin_type(language: Language, name: &str) -> bool {
    match language {
        Language::Python => matches!(
            name,
            "str"
                | "int"
                | "float"
                | "bool"
                | "bytes"
                | "bytearray"
                | "list"
                | "dict"
                | "set"
                | "frozenset"
                | "tuple"
                | "object"
                | "type"
                | "IO"
                | "List"
                | "Dict"
                | "Set"
                | "Tuple"
        ),
        Language::Rust => matches!(
            name,
            "String"
                | "str"
                | "Vec"
                | "VecDeque"
                | "HashMap"
                | "HashSet"
                | "BTreeMap"
                | "BTreeSet"
                | "Option"
                | "Result"
                | "usize"
                | "isize"
                | "u8"
                | "u16"
                | "u32"
                | "u64"
                | "u128"
                | "i8"
                | "i16"
                | "i32"
                | "i64"
                | "i128"
                | "f32"
                | "f64"
                | "bool"
                | "char"
                | "PathBuf"
                | "Path"
                | "Duration"
                | "Instant"
                | "slice"
                | "array"
        ),
        Language::Java => matches!(
            name,
            "String"
                | "Object"
                | "Integer"
                | "Long"
                | "Double"
                | "Boolean"
                | "int"
                | "long"
                | "double"
                | "boolean"
                | "char"
                | "byte"
                | "short"
                | "float"
                | "List"
                | "Map"
                | "Set"
                | "Optional"
                | "Collection"
                | "Iterable"
                | "Stream"
                | "StringBuilder"
        ),
        Language::Go => matches!(
            name,
            "string"
                | "bool"
                | "byte"
                | "rune"
                | "int"
                | "int8"
                | "int16"
                | "int32"
                | "int64"
                | "uint"
                | "uint8"
                | "uint16"
                | "uint32"
                | "uint64"
                | "uintptr"
                | "float32"
                | "float64"
                | "complex64"
                | "complex128"
                | "error"
                | "any"
                | "slice"
                | "array"
                | "map"
                | "chan"
                | "func"
        ),
        Language::TypeScript | Language::Tsx | Language::JavaScript => matches!(
            name,
            "string"
                | "number"
                | "boolean"
                | "bigint"
                | "symbol"
                | "object"
                | "void"
                | "Array"
                | "ReadonlyArray"
                | "Promise"
                | "Map"
                | "Set"
                | "WeakMap"
                | "WeakSet"
                | "Record"
                | "Date"
                | "RegExp"
                | "Error"
                | "Function"
                | "String"
                | "Number"
                | "Boolean"
        ),
        _ => false,
    }
}

/// The built-in type a literal's node kind stands for.
pub(crate) fn literal_type(language: Language, kind: &str) -> Option<&'static str> {
    if language != Language::Python {
        return Some(match kind {
            "string" | "template_string" => "string",
            "array" => "Array",
            "number" => "number",
            _ => return None,
        });
    }
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
    let text = written.trim().trim_start_matches(':').trim().trim_matches(['"', '\'']).trim();
    let text = match text.strip_prefix("Optional[").or_else(|| text.strip_prefix("typing.Optional[")) {
        Some(inner) => inner.strip_suffix(']')?.trim(),
        None => text,
    };
    let absent = |p: &&str| matches!(*p, "None" | "null" | "undefined");
    let parts: Vec<&str> = text.split('|').map(str::trim).filter(|p| !p.is_empty() && !absent(p)).collect();
    let [one] = parts.as_slice() else { return None };
    // Go's and Rust's pointers and references are their type; slices, maps, channels and
    // function types are built in.
    let mut one = one.trim_start_matches(['*', '&']).trim();
    for prefix in ["mut ", "dyn ", "impl "] {
        one = one.strip_prefix(prefix).unwrap_or(one).trim();
    }
    // Rust's smart pointers call their content's methods.
    for pointer in ["Arc<", "Rc<", "Box<"] {
        if let Some(inner) = one.strip_prefix(pointer).and_then(|i| i.strip_suffix('>')) {
            return type_name(inner);
        }
    }
    for (prefix, builtin) in [("[]", "slice"), ("[", "array"), ("map[", "map"), ("chan ", "chan"), ("func(", "func")] {
        if one.starts_with(prefix) {
            return Some(builtin.to_string());
        }
    }
    let head = one.split(['[', '<']).next().unwrap_or(one).trim().trim_matches(['"', '\'']);
    // The name as written, with its module (`models.Order`, `pathlib.Path`): the module decides
    // whether it is the project's.
    let word = |part: &str| !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || c == '_');
    head.split('.').all(word).then(|| head.to_string())
}

/// The type of a value a call of `callee` makes in Python: a class by its naming convention, a
/// built-in type (`dict()`, `list()`) or a built-in function's result (`open()` → a file). A
/// lower-case function's result is unknown.
pub(crate) fn constructs(language: Language, callee: &str) -> Option<&str> {
    if language != Language::Python {
        // JavaScript constructs with `new`; an upper-case call is a factory like any other.
        return None;
    }
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

/// Whether a method's signature makes it a property: a `@property` / `@cached_property`
/// decorator, or `get` right before the name (a getter).
pub fn is_property(signature: &str, name: &str) -> bool {
    let Some(at) = signature.find(&format!("{name}(")) else { return false };
    let before = &signature[..at];
    before.contains("@property") || before.contains("cached_property") || before.trim_end().ends_with("get")
}

/// Method names the language's built-in types have (Python's str, bytes, list, dict, set and
/// files; JavaScript's arrays, strings, maps, sets and promises): a call of one on a value of
/// unknown type is far more often the built-in's than a project method's, so it is not claimed
/// as a call of the project's method of that name.
pub fn builtin_method(language: Language, name: &str) -> bool {
    let names = match language {
        Language::Python => PYTHON_BUILTIN_METHODS,
        Language::JavaScript | Language::TypeScript | Language::Tsx => JS_BUILTIN_METHODS,
        _ => return false,
    };
    names.binary_search(&name).is_ok()
}

/// Sorted, for [`builtin_method`]: methods of JavaScript's arrays, strings, maps, sets, promises,
/// functions, regular expressions and iterators.
const JS_BUILTIN_METHODS: &[&str] = &[
    "add",
    "apply",
    "bind",
    "call",
    "catch",
    "clear",
    "concat",
    "delete",
    "endsWith",
    "entries",
    "every",
    "exec",
    "filter",
    "finally",
    "find",
    "findIndex",
    "forEach",
    "get",
    "has",
    "includes",
    "indexOf",
    "join",
    "keys",
    "map",
    "match",
    "next",
    "pop",
    "push",
    "reduce",
    "replace",
    "reverse",
    "set",
    "shift",
    "slice",
    "some",
    "sort",
    "splice",
    "split",
    "startsWith",
    "test",
    "then",
    "toLowerCase",
    "toString",
    "toUpperCase",
    "trim",
    "unshift",
    "values",
];

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

/// What `name` is bound to where `r` is written: the caller's own binding of it before `r`, else
/// the module's.
pub(crate) fn name_type<'a>(bindings: &'a [Binding], r: &Ref, name: &str) -> Option<Bound<'a>> {
    let named = |scope: Option<u32>| {
        let found: Vec<&Binding> =
            bindings.iter().filter(|b| b.name == name && b.scope == scope && b.line <= r.line).collect();
        (!found.is_empty()).then_some(found)
    };
    let in_caller = r.caller.and_then(|caller| named(Some(caller)));
    agreed(in_caller.or_else(|| named(None))?.into_iter())
}

/// The bindings of one file for attribute `attribute` of type `container`: assignments to
/// `self.x` / `this.x` in its methods, or a field `x: T` in its body.
pub(crate) fn attribute_bindings<'a>(
    bindings: &'a [Binding],
    defs: &[Def],
    container: &str,
    attribute: &str,
) -> Vec<&'a Binding> {
    let in_type = |b: &&Binding| {
        let scope = b.scope.and_then(|i| defs.get(i as usize));
        let assigned = b.name.strip_prefix("self.").or_else(|| b.name.strip_prefix("this.")) == Some(attribute);
        (assigned && scope.is_some_and(|d| d.container.as_deref() == Some(container)))
            || (b.name == attribute && scope.is_some_and(|d| d.is_type() && d.name == container))
    };
    bindings.iter().filter(in_type).collect()
}

/// The one type or expression a set of bindings agrees on, or [`Bound::Unknown`].
pub(crate) fn agreed<'a>(mut found: impl Iterator<Item = &'a Binding>) -> Option<Bound<'a>> {
    let first = found.next()?;
    let same = found.all(|b| b.type_name == first.type_name && b.value == first.value);
    Some(match (&first.type_name, &first.value, same) {
        (Some(name), _, true) => Bound::Type(name),
        (None, Some(value), true) => Bound::Value(value),
        _ => Bound::Unknown,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_are_read_through_optional_unions_quotes_and_modules() {
        assert_eq!(type_name("Order").as_deref(), Some("Order"));
        assert_eq!(type_name("models.Order").as_deref(), Some("models.Order"));
        assert_eq!(type_name("*Flag").as_deref(), Some("Flag"));
        assert_eq!(type_name("[]*Flag").as_deref(), Some("slice"));
        assert_eq!(type_name("map[string]*Flag").as_deref(), Some("map"));
        assert_eq!(type_name("&mut Store").as_deref(), Some("Store"));
        assert_eq!(type_name("Arc<dyn Backend>").as_deref(), Some("Backend"));
        assert_eq!(type_name("HashMap<String, String>").as_deref(), Some("HashMap"));
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
        assert!(JS_BUILTIN_METHODS.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(builtin_method(Language::TypeScript, "then") && builtin_method(Language::Tsx, "values"));
        assert!(builtin_method(Language::Python, "add") && builtin_method(Language::Python, "writelines"));
        assert!(builtin_method(Language::Python, "setdefault"));
        assert!(!builtin_method(Language::Python, "render") && !builtin_method(Language::TypeScript, "render"));
        assert!(!builtin_method(Language::Go, "pop"));
    }

    #[test]
    fn chains_split_into_names_and_calls() {
        let steps = |e| {
            segments(e)
                .map(|s| s.iter().map(|s| format!("{}{}", s.name, if s.call { "()" } else { "" })).collect::<Vec<_>>())
        };
        assert_eq!(steps("client.getCache(a.b, [1]).find").unwrap(), ["client", "getCache()", "find"]);
        assert_eq!(steps("this.#cache").unwrap(), ["this", "#cache"]);
        assert_eq!(steps("make()").unwrap(), ["make()"]);
        assert_eq!(steps("Store::open(path)").unwrap(), ["Store::open()"]);
        assert_eq!(steps("items[0]"), None);
        assert_eq!(steps("f()()"), None);
        assert_eq!(steps("a + b"), None);
    }

    #[test]
    fn return_types_are_read_from_signatures() {
        let py = |s| return_type(Language::Python, s);
        let ts = |s| return_type(Language::TypeScript, s);
        assert_eq!(py("def session(self, x: int = 1) -> Session").as_deref(), Some("Session"));
        assert_eq!(py("@property def url(self) -> \"URL | None\"").as_deref(), Some("URL"));
        assert_eq!(py("def close(self) -> None"), None);
        assert_eq!(py("def f(self)"), None);
        assert_eq!(ts("getQueryCache(): QueryCache").as_deref(), Some("QueryCache"));
        assert_eq!(ts("build<T>(options: Opts<T> = {}): Query<T> | undefined").as_deref(), Some("Query"));
        assert_eq!(ts("function make(a: (x: number) => void): Client {").as_deref(), Some("Client"));
        assert_eq!(ts("constructor(config: Config)"), None);
        assert_eq!(ts("fetch(options: FetchQueryOptions<…>) …"), None);
        assert_eq!(ts("fetch(options: Options<…>): Promise…"), None);
        assert_eq!(ts("build(options: Options<…>): Query<…>").as_deref(), Some("Query"));
        assert_eq!(return_type(Language::Rust, "pub fn new(path: &str) -> Self").as_deref(), Some("Self"));
        let java = |s| return_type(Language::Java, s);
        assert_eq!(java("public Optional<Order> find(String id)").as_deref(), Some("Optional"));
        assert_eq!(java("public static Order of(long id)").as_deref(), Some("Order"));
        assert_eq!(java("Map<String, List<Order>> index()").as_deref(), Some("Map"));
        assert_eq!(java("public void save(Order order)"), None);
        assert_eq!(java("public OrderService(Repository repository)"), None);
        let go = |s| return_type(Language::Go, s);
        assert_eq!(go("func (f *FlagSet) Lookup(name string) *Flag").as_deref(), Some("Flag"));
        assert_eq!(go("func NewFlagSet(name string) (*FlagSet, error)").as_deref(), Some("FlagSet"));
        assert_eq!(go("Lookup(name string) *Flag").as_deref(), Some("Flag"));
        assert_eq!(go("func (f *FlagSet) Parse(arguments []string)"), None);
    }

    #[test]
    fn properties_are_read_from_decorators_and_getters() {
        assert!(is_property("@property def url(self) -> URL", "url"));
        assert!(is_property("@functools.cached_property def size(self) -> int", "size"));
        assert!(is_property("get isFetching(): boolean", "isFetching"));
        assert!(is_property("static get instance(): Store", "instance"));
        assert!(!is_property("def get(self, key)", "get"));
        assert!(!is_property("getValue(): number", "getValue"));
        assert!(!is_property("@url.setter def url(self, value)", "url"));
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
