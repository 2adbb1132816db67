//! Receiver types where the code writes them: `x = Order(…)`, `const x = new Order()`,
//! `x: Order`, typed parameters and fields, `with Lock() as x`, `self.repo = repo`, a literal
//! (`x = []`, `sep = ", "`), or an expression whose type [`crate::types`] works out
//! (`x = make()`, `this.cache = client.getCache()`). A call on such a receiver is a call on that
//! type, so `items.pop()` on a list is not a call of a project method that happens to be named
//! `pop`. Every language with reference queries binds names this way (each query's bindings are
//! in `references.rs`): calls on values of unknown type were most of the callers a language
//! server did not confirm (docs/benchmarks.md, "Callers against a language server").

use std::collections::HashMap;
use std::marker::PhantomData;

use lean_ctx_outline::Language;
use serde::{Deserialize, Serialize};

use crate::facts::{Def, Ref};

/// A name bound in a scope, with its type when the binding writes one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    /// `x`, or `self.x` / `this.x` for an attribute assigned in a method.
    pub name: String,
    /// The type's name (`Order` for `new Order()`, `Optional["Order"]`, `Order | None`; with its
    /// module for a Python class called through one, `models.Order` for `models.Order(…)`), or a
    /// literal's built-in type (`str`, `list`, `string`).
    pub type_name: Option<String>,
    /// The type is written with the name (`x: Order`, `orders: Order[]`), not worked out from a
    /// value: it governs the name's other bindings.
    #[serde(default)]
    pub declared: bool,
    /// Without a written type: the expression the name is bound to when its type can be worked
    /// out from the project (`make()`, `self.client.session()`, `a.b`), arguments left out.
    /// Neither set: bound here, to something unknown.
    #[serde(default)]
    pub value: Option<String>,
    /// A written collection type (`list[Order]`, `Order[]`, `[]*Order`, `map[string]*Order`), as
    /// written: its elements' type is read from it ([`pick_all`]).
    #[serde(default)]
    pub collection: Option<String>,
    /// A loop variable: one element of this iterated expression (`for x in self.orders`,
    /// `for (const x of xs)`, `xs.forEach((x) => …)`, `for _, x := range xs`), as written.
    #[serde(default)]
    pub each: Option<String>,
    /// A built-in collection made from an iterable (`list(rows)`, `sorted(rows, key=…)`): the
    /// iterable, as written, whose elements it holds.
    #[serde(default)]
    pub elements_of: Option<String>,
    /// One of several names `value` is unpacked into (`a, b = f()`, `x, err := f()`): its
    /// position among them. With `each`: the item of an element a Rust tuple pattern takes, or 0
    /// for Go's `range` first variable (what [`Pick::Key`] takes).
    #[serde(default)]
    pub position: Option<u32>,
    pub line: u32,
    /// Index in [`crate::FileFacts::defs`] of the innermost definition holding the binding; `None`
    /// at the module's top level.
    pub scope: Option<u32>,
    /// The lines of the anonymous function the name is bound in (a callback's parameter, a local
    /// of its body), inside its scope: outside them the name is another.
    #[serde(default)]
    pub closure: Option<(u32, u32)>,
    /// A parameter of a callback passed to a function (`operate((source, subscriber) => …)`):
    /// the function as written, the callback's position among the arguments and the
    /// parameter's among the callback's; its type is the one the function's signature gives
    /// that parameter ([`callback_params`]), as the checker's contextual typing does.
    #[serde(default)]
    pub callback: Option<(String, u32, u32)>,
}

/// What a binding says about its value's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound<'a> {
    /// The type is named: a project type, or a type from elsewhere (built-in, library); with the
    /// collection type as written when it is one.
    Type(&'a str, Option<&'a str>),
    /// The value of an expression whose type may be worked out.
    Value(&'a str),
    /// One element of an expression whose element type may be worked out.
    Each(&'a str),
    /// The item at this position of one element of an expression, unpacked by a Rust tuple
    /// pattern (`for (k, v) in &map`, `.map(|(i, x)| …)`).
    EachItem(&'a str, usize),
    /// The item at this position of an expression unpacked into several names.
    Unpacked(&'a str, usize),
    /// A built-in collection holding the elements of this iterable.
    Elements(&'a str),
    /// Parameter `.2` of the callback passed as argument `.1` to function `.0`.
    Callback(&'a str, u32, u32),
    /// Bound, type unknown (or bound to different things): no evidence either way.
    Unknown,
}

/// One step of a receiver chain: `client`, `session()` and `routes[0]` in
/// `client.session().routes[0]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment<'a> {
    pub name: &'a str,
    pub call: bool,
    /// What the call's parentheses hold, as written (empty without a call).
    pub arguments: &'a str,
    /// Subscripted after the name (and the call): one part of the collection it gives.
    pub index: bool,
}

impl Segment<'_> {
    /// The step without its subscript: the collection itself.
    pub(crate) fn collection(self) -> Self {
        Segment { index: false, ..self }
    }
}

/// `a.b().c[k]` as its steps; `None` for what is not such a chain (an operator, a literal, a
/// call of a call, a subscript of a subscript).
pub(crate) fn segments(expr: &str) -> Option<Vec<Segment<'_>>> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    // Where the current step's name ends: at its call's `(` or its subscript's `[`.
    let mut name_end = None;
    let (mut call, mut index) = (false, false);
    let mut arguments = (0, 0);
    for (i, c) in expr.char_indices() {
        match c {
            '(' | '[' if depth == 0 => {
                // One call, then one subscript, per step: `f()()`, `a[0][1]`, `a[0]()` are not
                // followed.
                if index || (c == '(' && call) {
                    return None;
                }
                if c == '(' {
                    call = true;
                    arguments = (i + 1, i + 1);
                } else {
                    index = true;
                }
                name_end.get_or_insert(i);
                depth += 1;
            }
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 && c == ')' && call && !index {
                    arguments.1 = i;
                }
            }
            '.' if depth == 0 => {
                let name = &expr[start..name_end.unwrap_or(i)];
                out.push(segment(name, call, &expr[arguments.0..arguments.1], index)?);
                start = i + 1;
                (name_end, call, index, arguments) = (None, false, false, (0, 0));
            }
            _ if depth == 0 && name_end.is_some() => return None,
            _ => {}
        }
    }
    let name = &expr[start..name_end.unwrap_or(expr.len())];
    out.push(segment(name, call, &expr[arguments.0..arguments.1], index)?);
    Some(out)
}

fn segment<'a>(name: &'a str, call: bool, arguments: &'a str, index: bool) -> Option<Segment<'a>> {
    let name = name.trim();
    // `:` for a Rust path (`Store::open()`).
    let word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '#' | '$' | ':');
    (!name.is_empty() && name.chars().all(word)).then_some(Segment { name, call, arguments, index })
}

/// The type a function's signature says it returns, as [`type_name`] reads it: Python's and
/// Rust's `-> T`, TypeScript's `): T`, Go's `) T` or the first of `) (T, error)`. `None` when it writes none or the outline's shortening
/// cut it (`Query<…>` still names `Query`; `Prom…` names nothing).
pub fn return_type(language: Language, signature: &str) -> Option<String> {
    let written = written_return(language, signature)?;
    match collection(written) {
        // Go's results: a call's value is the first.
        Some(Collection::Tuple(items)) if written.starts_with('(') => type_name(items.first()?),
        _ => type_name(written),
    }
}

/// The collection type a function's signature says it returns, as written (`-> list[Order]`,
/// `): Order[]`, `) []*Order`, Go's several results `(*FlagSet, error)`); `None` when it returns
/// no collection [`pick_all`] reads.
pub fn return_collection(language: Language, signature: &str) -> Option<String> {
    let written = written_return(language, signature)?;
    is_collection(written).then(|| written.to_string())
}

/// The return type as a signature writes it, without the syntax around it.
fn written_return(language: Language, signature: &str) -> Option<&str> {
    Some(match language {
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
            head[close + 1..].trim().trim_end_matches('{').trim()
        }
        _ => return None,
    })
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

/// For each parameter of a JavaScript/TypeScript function's head typed as a function (`init:
/// (source: Observable<T>, subscriber: Subscriber<R>) => void`): its position, and the type
/// named for each parameter of that function type (`Observable`, `Subscriber`). A callback
/// passed there gets those types for its parameters ([`Binding::callback`]).
pub fn callback_params(language: Language, signature: &str) -> Vec<(u32, Vec<Option<String>>)> {
    if !matches!(language, Language::JavaScript | Language::TypeScript | Language::Tsx) {
        return Vec::new();
    }
    let (Some(open), Some(close)) = (signature.find('('), closing_paren(signature)) else { return Vec::new() };
    // TypeScript's `this:` parameter types `this`; callers pass no argument for it.
    let parameters = split_top(&signature[open + 1..close], ',').into_iter().filter(|p| !p.starts_with("this:"));
    let typed = parameters.enumerate().filter_map(|(position, parameter)| {
        let (_, written) = parameter.split_once(':')?;
        let function_type = written.trim();
        let inner_close = function_type.starts_with('(').then(|| closing_paren(function_type)).flatten()?;
        function_type[inner_close + 1..].trim_start().starts_with("=>").then_some(())?;
        let types = split_top(&function_type[1..inner_close], ',')
            .into_iter()
            .filter(|p| !p.is_empty())
            .map(|p| p.split_once(':').and_then(|(_, t)| type_name(t.trim())))
            .collect();
        Some((position as u32, types))
    });
    typed.collect()
}

/// The `)` closing a signature's parameter list (after any `<…>` type parameters).
pub(crate) fn closing_paren(signature: &str) -> Option<usize> {
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
                | "interface"
                | "struct"
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
    let one = single_type(written)?;
    // Rust's smart pointers call their content's methods.
    for pointer in ["Arc<", "Rc<", "Box<"] {
        if let Some(inner) = one.strip_prefix(pointer).and_then(|i| i.strip_suffix('>')) {
            return type_name(inner);
        }
    }
    if one.ends_with("[]") {
        return Some("Array".to_string());
    }
    // Go's anonymous types: no project type's methods are called through one.
    for anonymous in ["interface", "struct"] {
        if one.strip_prefix(anonymous).is_some_and(|rest| rest.trim_start().starts_with('{')) {
            return Some(anonymous.to_string());
        }
    }
    let builtins = [
        ("[]", "slice"),
        ("[", "array"),
        ("map[", "map"),
        ("chan ", "chan"),
        ("chan<-", "chan"),
        ("<-chan", "chan"),
        ("func(", "func"),
    ];
    for (prefix, builtin) in builtins {
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

/// The type an annotation declares, past Python's qualifiers (`Final[Order]`, `ClassVar[Order]`
/// → `Order`); `None` for a bare `Final` or `ClassVar`, which leaves the type to the value
/// assigned (pluggy's `self.hook: Final = HookRelay()`), and is no type itself: read as one, it
/// is a library's, and every call through the attribute was taken for a library call.
pub(crate) fn declared_type(language: Language, written: &str) -> Option<&str> {
    if language != Language::Python {
        return Some(written);
    }
    let trimmed = written.trim().trim_start_matches(':').trim();
    let qualifier = |name: &str| matches!(name.rsplit('.').next(), Some("Final" | "ClassVar"));
    match trimmed.strip_suffix(']').and_then(|t| t.split_once('[')) {
        Some((head, inner)) if qualifier(head.trim()) => declared_type(language, inner),
        None if qualifier(trimmed) => None,
        _ => Some(written),
    }
}

/// The one type an annotation writes, without quotes, `Optional[…]`, absent alternatives
/// (`| None`), pointers and references; `None` for a union of several types.
fn single_type(written: &str) -> Option<&str> {
    let [one] = alternatives(written)[..] else { return None };
    // Go's and Rust's pointers and references are their type; slices, maps, channels and
    // function types are built in.
    let mut one = one.trim_start_matches(['*', '&']).trim();
    for prefix in ["mut ", "dyn ", "impl ", "readonly "] {
        one = one.strip_prefix(prefix).unwrap_or(one).trim();
    }
    Some(one)
}

/// A union of several named types as a binding records it (`Call | Filter` for `Union[Call,
/// Filter]`, `Call | Filter | None`, `t.Union["Call", "Filter"]`); `None` for one type or
/// anything else (`Callable[…] | str` names no type in one of its parts).
pub(crate) fn union_type(written: &str) -> Option<String> {
    let names = alternatives(written).into_iter().map(type_name).collect::<Option<Vec<String>>>()?;
    (names.len() > 1).then(|| names.join(UNION))
}

/// The types an annotation writes as alternatives, without quotes and absent ones (`None`,
/// `null`, `undefined`): at the top level only (`Callable[[A], B | None]` is one type), and
/// inside Python's `Optional[…]` and `Union[…]` under any module alias (`typing.`, `t.`).
fn alternatives(written: &str) -> Vec<&str> {
    let text = written.trim().trim_start_matches(':').trim().trim_matches(['"', '\'']).trim();
    let (text, separator) = python_alternatives(text).unwrap_or((text, '|'));
    let absent = |p: &&str| matches!(*p, "None" | "null" | "undefined");
    split_top(text, separator).into_iter().filter(|p| !p.is_empty() && !absent(p)).collect()
}

/// How [`union_type`] joins its alternatives.
const UNION: &str = " | ";

/// The alternatives of a union [`union_type`] recorded.
pub(crate) fn union_alternatives(recorded: &str) -> Option<impl Iterator<Item = &str>> {
    recorded.contains(UNION).then(|| recorded.split(UNION))
}

/// What Python's `Optional[…]` and `Union[…]` hold (`typing.Optional[T]`, `t.Union[A, None]`),
/// with what separates the alternatives there.
fn python_alternatives(text: &str) -> Option<(&str, char)> {
    let (generic, inner) = text.strip_suffix(']')?.split_once('[')?;
    let (module, name) = generic.rsplit_once('.').unwrap_or(("", generic));
    let is_module = module.split('.').all(|part| part.chars().all(|c| c.is_alphanumeric() || c == '_'));
    match name {
        "Optional" if is_module => Some((inner.trim(), '|')),
        "Union" if is_module => Some((inner.trim(), ',')),
        _ => None,
    }
}

/// A Rust type parameter's trait bounds as a binding records them: the traits' names, without
/// their paths and arguments, joined (`Clone + Measure` for `: Clone + crate::m::Measure<u8> +
/// 'a + ?Sized`); a lifetime and a relaxed bound (`?Sized`) bound no method. `None` when none is
/// left.
pub(crate) fn trait_bounds(written: &str) -> Option<String> {
    let traits: Vec<&str> = split_top(written.trim().trim_start_matches(':'), '+')
        .into_iter()
        .filter(|bound| !bound.starts_with(['\'', '?']))
        .filter_map(|bound| {
            let path = bound.split(['<', '(']).next().unwrap_or(bound).trim();
            let name = path.rsplit("::").next().unwrap_or(path);
            (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')).then_some(name)
        })
        .collect();
    (!traits.is_empty()).then(|| traits.join(BOUNDS))
}

/// The trait a Rust qualified path's type is taken as: `Array` for `<A as Array>`,
/// `crate::m::Array` for `<A as crate::m::Array<u8>>`.
pub(crate) fn qualified_trait(receiver: &str) -> Option<&str> {
    let (_, as_trait) = receiver.strip_prefix('<')?.strip_suffix('>')?.split_once(" as ")?;
    Some(as_trait.split('<').next().unwrap_or(as_trait).trim())
}

/// How [`trait_bounds`] joins the traits.
const BOUNDS: &str = " + ";

/// The traits of the bounds [`trait_bounds`] recorded, when there are several.
pub(crate) fn bound_traits(recorded: &str) -> Option<impl Iterator<Item = &str>> {
    recorded.contains(BOUNDS).then(|| recorded.split(BOUNDS))
}

/// `text` split at `separator` outside brackets, each part trimmed.
fn split_top(text: &str, separator: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            // `=>` in a function type closes nothing.
            '>' if text[..i].ends_with('=') => {}
            ')' | ']' | '}' | '>' => depth = depth.saturating_sub(1),
            _ if c == separator && depth == 0 => {
                parts.push(text[start..i].trim());
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(text[start..].trim());
    parts
}

/// Which part of a collection an expression takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pick {
    /// One element, as the language's `for` loop yields it (Go's `range` for its second
    /// variable): a sequence's or set's element, a Python dict's key, a Go map's value.
    Each,
    /// A subscript (`xs[i]`, `by_name[key]`): a sequence's element, a mapping's value.
    Index,
    /// One of several names a value is unpacked into (`a, b = f()`, Go's `x, err := f()`), by
    /// position: that item of a tuple, any element of a sequence.
    Nth(usize),
    /// One element as Rust iterates a collection: a sequence's or set's element; a map's entry is
    /// a (key, value) pair, no one type.
    Entry,
    /// An item of one element as Rust iterates a collection, by position: a map entry's key (0)
    /// or value (1), that item of a sequence's or set's tuple element.
    EntryItem(usize),
    /// What Go's `range` gives its first variable: a channel's element, a map's key (a
    /// sequence's index is no type written in the collection).
    Key,
}

impl Pick {
    /// This part of the written collection type `written`, as written.
    fn written(self, written: &str) -> Option<&str> {
        Some(match (collection(written)?, self) {
            (Collection::Mapping(key, _), Pick::EntryItem(0)) => key,
            (Collection::Mapping(_, value), Pick::EntryItem(1)) => value,
            (Collection::Sequence(element) | Collection::Set(element), Pick::EntryItem(n)) => {
                Pick::Nth(n).written(element)?
            }
            (Collection::Sequence(element) | Collection::Set(element), Pick::Entry) => element,
            (_, Pick::Entry | Pick::EntryItem(_)) => return None,
            (Collection::Channel(element), Pick::Each | Pick::Key) => element,
            (Collection::GoMap(key, _), Pick::Key) => key,
            (_, Pick::Key) | (Collection::Channel(_), _) => return None,
            // Go's results: a call's value, unless unpacked, is the first.
            (Collection::Tuple(items), Pick::Each | Pick::Index) if written.trim_start().starts_with('(') => {
                self.written(items.first()?)?
            }
            (Collection::Sequence(element), _) => element,
            (Collection::Set(element), Pick::Each | Pick::Nth(_)) => element,
            (Collection::Mapping(key, _), Pick::Each | Pick::Nth(_)) => key,
            (Collection::Mapping(_, value) | Collection::GoMap(_, value), Pick::Index) => value,
            (Collection::GoMap(_, value), _) => value,
            (Collection::Tuple(items), Pick::Nth(n)) => items.get(n).copied()?,
            (Collection::Set(_), Pick::Index) | (Collection::Tuple(_), _) => return None,
        })
    }
}

/// What a Rust loop or iterator adapter's element `position` (of a tuple pattern; `None` for the
/// whole element) takes of the collection `iterated` (as [`iterated`] left it): a map's
/// `values()` its values, its `keys()` its keys, `enumerate()`'s second item the element of what
/// it enumerates (its first, an index, is no project type), anything else [`Pick::Entry`]. The
/// collection, and the picks that take the part; `None` for an index.
pub(crate) fn rust_iteration(expr: &str, position: Option<usize>) -> Option<(&str, Vec<Pick>)> {
    let item = position.map(Pick::Nth);
    match expr.strip_suffix("()").and_then(|call| call.rsplit_once('.')) {
        Some((map, "values" | "values_mut" | "into_values")) => {
            Some((map, [Pick::Index].into_iter().chain(item).collect()))
        }
        Some((map, "keys" | "into_keys")) => Some((map, [Pick::Each].into_iter().chain(item).collect())),
        Some((enumerated, "enumerate")) => match position {
            Some(1) => rust_iteration(iterated(Language::Rust, enumerated), None),
            _ => None,
        },
        _ => Some((expr, vec![position.map_or(Pick::Entry, Pick::EntryItem)])),
    }
}

/// A Python dict's view iterated (`for x in d.values()`, `for k in d.keys()`): the dict, and the
/// picks that take the same part of it.
pub(crate) fn dict_view<'a>(expr: &'a str, picks: &[Pick]) -> Option<(&'a str, Vec<Pick>)> {
    let (first, rest) = picks.split_first()?;
    if *first != Pick::Each {
        return None;
    }
    let (mapping, view) = expr.strip_suffix("()")?.rsplit_once('.')?;
    let pick = match view {
        "values" => Pick::Index,
        "keys" => Pick::Each,
        _ => return None,
    };
    Some((mapping, [&[pick], rest].concat()))
}

/// The type name of the part of the written collection type `written` that `picks` take one after
/// the other: with `[Each]`, `list[Order]`, `Sequence["Order"]`, `Iterable[Order]`,
/// `tuple[Order, ...]`, `dict[Order, int]`, `Order[]`, `Array<Order>`, `Set<Order>`, `[]*Order`,
/// `map[string]*Order`, `List<Order>` all give `Order`; with `[Index]`, `dict[str, Order]` and
/// `Record<string, Order>` do too; with `[Nth(1), Index]`, `tuple[str, dict[str, Order]]`.
/// `None` when a step meets no such collection or a part that is not one type or a union of named
/// types ([`union_type`]).
pub(crate) fn pick_all(written: &str, picks: &[Pick]) -> Option<String> {
    let part = picks.iter().try_fold(written, |written, pick| pick.written(written))?;
    type_name(part).or_else(|| union_type(part))
}

/// A written collection type by what its parts are.
enum Collection<'a> {
    /// Iterated and indexed by position: Python's lists and `tuple[T, ...]`, arrays, slices,
    /// Rust's vectors (iterables that cannot be indexed are counted here too: indexing one does
    /// not compile).
    Sequence(&'a str),
    /// Iterated, not indexed: sets.
    Set(&'a str),
    /// Iterated by key (Python), indexed by key to a value: dicts, records, maps.
    Mapping(&'a str, &'a str),
    /// Go's map, key and value: `range`'s second variable and an index both give the value.
    GoMap(&'a str, &'a str),
    /// Go's channel, of either direction: `range` gives its element.
    Channel(&'a str),
    /// Items of their own types by position: Python's `tuple[A, B]`, TypeScript's `[A, B]`,
    /// Go's results `(A, error)`.
    Tuple(Vec<&'a str>),
}

/// Whether `written` names a collection whose parts [`pick_all`] reads.
pub(crate) fn is_collection(written: &str) -> bool {
    collection(written).is_some()
}

fn collection(written: &str) -> Option<Collection<'_>> {
    // Go's results, each maybe named: `(*FlagSet, error)`, `(n int, err error)`.
    if let Some(results) = written.trim().strip_prefix('(').and_then(|w| w.strip_suffix(')')) {
        return Some(Collection::Tuple(split_top(results, ',').into_iter().map(unnamed).collect()));
    }
    let one = single_type(written)?;
    // Go: `[]T`, `[N]T`, `map[K]V`, `chan T`, `<-chan T`, `chan<- T`.
    if let Some(map) = one.strip_prefix("map")
        && map.starts_with('[')
    {
        let value = after_brackets(map)?;
        let key = &map[1..map.len() - value.len() - 1];
        return Some(Collection::GoMap(key, value));
    }
    if let Some(element) = ["<-chan ", "chan<- ", "chan "].iter().find_map(|prefix| one.strip_prefix(prefix)) {
        return Some(Collection::Channel(element.trim()));
    }
    if let Some(inside) = one.strip_prefix('[') {
        return Some(match after_brackets(one)? {
            "" => {
                let inside = inside.strip_suffix(']')?;
                let items = split_top(inside, ',');
                match split_top(inside, ';')[..] {
                    // Rust's array `[T; N]`.
                    [element, _] => Collection::Sequence(element),
                    // Rust's slice `[T]`; TypeScript's one-item tuple `[A]` has the same parts.
                    _ if items.len() == 1 => Collection::Sequence(items[0]),
                    // TypeScript's `[A, B]`.
                    _ => Collection::Tuple(items),
                }
            }
            element => Collection::Sequence(element),
        });
    }
    if let Some(inner) = one.strip_suffix("[]") {
        return Some(Collection::Sequence(inner.trim_start_matches('(').trim_end_matches(')')));
    }
    let open = one.find(['[', '<'])?;
    let close = if one[open..].starts_with('[') { ']' } else { '>' };
    let args = split_top(one[open + 1..].strip_suffix(close)?, ',');
    let head = one[..open].trim();
    Some(match (head.rsplit('.').next().unwrap_or(head), args.as_slice()) {
        (
            "list" | "List" | "Sequence" | "MutableSequence" | "deque" | "Deque" | "Iterable" | "Iterator"
            | "Collection" | "Generator" | "AsyncIterable" | "AsyncIterator" | "AsyncGenerator" | "Array"
            | "ReadonlyArray" | "IterableIterator" | "Vec" | "VecDeque",
            [element, ..],
        ) => Collection::Sequence(element),
        ("tuple" | "Tuple", [element, "..."]) => Collection::Sequence(element),
        ("tuple" | "Tuple", items) => Collection::Tuple(items.to_vec()),
        (
            "set" | "Set" | "frozenset" | "FrozenSet" | "AbstractSet" | "MutableSet" | "ReadonlySet" | "HashSet"
            | "BTreeSet" | "IndexSet",
            [element],
        ) => Collection::Set(element),
        (
            "dict" | "Dict" | "Mapping" | "MutableMapping" | "OrderedDict" | "defaultdict" | "Record" | "HashMap"
            | "BTreeMap" | "IndexMap",
            [key, value],
        ) => Collection::Mapping(key, value),
        _ => return None,
    })
}

/// A Go result or parameter without its name: `error` for `err error`, `[]*Flag` for `[]*Flag`.
fn unnamed(written: &str) -> &str {
    let written = written.trim();
    match written.split_once(' ') {
        Some((name, rest))
            if name.chars().all(|c| c.is_alphanumeric() || c == '_') && !matches!(name, "func" | "chan" | "map") =>
        {
            rest.trim()
        }
        _ => written,
    }
}

/// The expression a loop iterates, as written, without what does not change its elements:
/// `self.routes or []` is `self.routes`, `sorted(orders, key=…)` and `reversed(orders)` are
/// `orders`, and so are Rust's `&orders` and `orders.iter().rev()` and JavaScript's
/// `orders.filter(…)`.
pub(crate) fn iterated(language: Language, expr: &str) -> &str {
    iterated_in(language, expr, &mut Walked::default())
}

/// [`iterated`], for one of many expressions of one file: `walked` keeps what the adapter chains
/// seen so far were walked back to.
pub(crate) fn iterated_in<'s>(language: Language, expr: &'s str, walked: &mut Walked<'s>) -> &'s str {
    let mut expr = expr.trim();
    match language {
        // `&items`, `&mut items`.
        Language::Rust => {
            let unborrowed = expr.trim_start_matches('&').trim_start();
            return through_adapters(unborrowed.strip_prefix("mut ").unwrap_or(unborrowed), &RUST_ADAPTERS, walked);
        }
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            return through_adapters(expr, &JS_ADAPTERS, walked);
        }
        _ => {}
    }
    if language == Language::Python {
        for empty in [" or []", " or ()", " or {}"] {
            expr = expr.strip_suffix(empty).unwrap_or(expr).trim();
        }
        for wrapper in ["sorted(", "reversed(", "list(", "tuple(", "iter("] {
            if let Some(inner) = expr.strip_prefix(wrapper).and_then(|e| e.strip_suffix(')')) {
                let argument = split_top(inner, ',');
                return argument.first().map_or(expr, |first| iterated_in(language, first, walked));
            }
        }
    }
    expr
}

/// Rust's iterator methods that hand on the elements they are given (as they are, or copies).
const RUST_ADAPTERS: [&str; 12] = [
    "iter",
    "iter_mut",
    "into_iter",
    "rev",
    "cloned",
    "copied",
    "by_ref",
    "peekable",
    "skip",
    "take",
    "filter",
    "step_by",
];

/// JavaScript's array methods that return an array of (some of) its elements.
const JS_ADAPTERS: [&str; 5] = ["filter", "slice", "reverse", "toReversed", "toSorted"];

/// The collection whose elements an expression iterates, through calls of `adapters` that hand on
/// the elements they are given: `items` for `items.iter().filter(|s| s.big()).rev()` in Rust or
/// `items.filter((s) => s.big)` in JavaScript.
fn through_adapters<'s>(expr: &'s str, adapters: &[&str], walked: &mut Walked<'s>) -> &'s str {
    // Each receiver is a prefix of `expr`: where it starts and its length name it.
    let start = expr.as_ptr();
    let mut passed = Vec::new();
    let mut receiver = expr;
    let collection = loop {
        if let Some(&length) = walked.lengths.get(&(start, receiver.len())) {
            break &receiver[..length];
        }
        match adapted(receiver, adapters) {
            Some(before) => {
                passed.push(receiver.len());
                receiver = before;
            }
            None => break receiver,
        }
    };
    walked.lengths.extend(passed.into_iter().map(|length| ((start, length), collection.len())));
    collection
}

/// The receiver of an adapter call that `expr` is (`items.iter()` of `items.iter().rev()`).
fn adapted<'s>(expr: &'s str, adapters: &[&str]) -> Option<&'s str> {
    let open = expr.strip_suffix(')').and_then(opening_paren)?;
    let (receiver, method) = expr[..open].rsplit_once('.')?;
    adapters.contains(&method.trim()).then(|| receiver.trim_end())
}

/// What [`through_adapters`] walked the adapter chains of one file's text back to: each callback
/// of a chain (`.filter(|s| …)`) asks for the collection its receiver, the chain before it,
/// iterates, and walking every one back to the chain's start made a chain of thousands of
/// adapters quadratic. Keyed by where an expression starts and its length, which name one slice
/// of a text that lives as long as this (`'s`); the value is the length of the collection, a
/// prefix of it.
#[derive(Default)]
pub(crate) struct Walked<'s> {
    lengths: HashMap<(*const u8, usize), usize>,
    text: PhantomData<&'s str>,
}

/// Where the `(` that the `)` ending `text` (already cut off) closes is.
fn opening_paren(text: &str) -> Option<usize> {
    let mut depth = 1usize;
    for (i, c) in text.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// What follows the bracketed part a Go collection type starts with: `*Order` in `[]*Order`,
/// `map[string]*Order` read from its `[`.
fn after_brackets(open: &str) -> Option<&str> {
    let mut depth = 0usize;
    for (i, c) in open.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(&open[i + 1..]);
                }
            }
            _ => {}
        }
    }
    None
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

/// Whether a Python call of `callee` makes a built-in collection of its first argument's
/// elements.
pub(crate) fn copies_elements(callee: &str) -> bool {
    matches!(callee, "list" | "tuple" | "set" | "frozenset" | "sorted")
}

/// Whether a method's signature makes it a property: a `@property` / `@cached_property`
/// decorator, or `get` right before the name (a getter).
pub fn is_property(signature: &str, name: &str) -> bool {
    let Some(at) = signature.find(&format!("{name}(")) else { return false };
    let before = &signature[..at];
    before.contains("@property") || before.contains("cached_property") || before.trim_end().ends_with("get")
}

/// Method names the language's built-in types have (Python's str, bytes, list, dict, set and
/// files; JavaScript's arrays, strings, maps, sets and promises; Go's `error` and the
/// `fmt.Stringer` every standard type implements): a call of one on a value of unknown type is
/// far more often the built-in's than a project method's, so it is not claimed as a call of the
/// project's method of that name.
pub fn builtin_method(language: Language, name: &str) -> bool {
    let names = match language {
        Language::Python => PYTHON_BUILTIN_METHODS,
        Language::JavaScript | Language::TypeScript | Language::Tsx => JS_BUILTIN_METHODS,
        Language::Go => &["Error", "String"],
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

/// The bindings of `name` that reach `r`: the caller's own before `r`, else the module's (all of
/// them from inside a function, which runs after the module is loaded; those before `r` at the
/// top level); `None` when the name is bound in neither. Several are all kept: the name is known when they agree on
/// its type, which may be written differently (`for x in self.items` and
/// `self.all().forEach((x) => …)`). In Python, whose only anonymous functions take no written
/// types, a type written for the name governs the assignments; elsewhere a closure's typed
/// parameter shares its function's scope here (`func(w http.ResponseWriter, r *http.Request)`
/// beside `r := NewRouter()`), so none does.
pub(crate) fn name_bindings<'a>(
    language: Language,
    bindings: &'a [Binding],
    r: &Ref,
    name: &str,
) -> Option<Vec<&'a Binding>> {
    // `url = url.copy_with(…)`: the `url` its value reads is bound before, not by itself.
    let rebinds_itself = |b: &Binding| {
        let read = b.value.as_deref().or(b.each.as_deref()).unwrap_or_default();
        b.line == r.line && read.strip_prefix(name).is_some_and(|rest| rest.starts_with(['.', '(', '[']))
    };
    let named = |scope: Option<u32>, before: bool| {
        let found: Vec<&Binding> = bindings
            .iter()
            .filter(|b| b.name == name && b.scope == scope && (!before || b.line <= r.line) && !rebinds_itself(b))
            .filter(|b| b.closure.is_none_or(|(from, to)| from <= r.line && r.line <= to))
            .collect();
        match language {
            _ if found.is_empty() => None,
            Language::Python => Some(deciding(found)),
            _ => Some(found),
        }
    };
    r.caller.and_then(|caller| named(Some(caller), true)).or_else(|| named(None, r.caller.is_none()))
}

/// A receiver written in parentheses: `x` for `(x)` and Go's `(*x)`, and for a Go conversion
/// (`(*T)(x)`, `T(x)` is a call) the type it converts to, as `(T, true)`.
pub(crate) fn parenthesized(expr: &str) -> Option<(&str, bool)> {
    let rest = expr.strip_prefix('(')?;
    let mut depth = 1usize;
    let close = rest.char_indices().find_map(|(i, c)| {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        (depth == 0).then_some(i)
    })?;
    let inner = rest[..close].trim().trim_start_matches('*').trim();
    match rest[close + 1..].trim() {
        "" => Some((inner, false)),
        after if after.starts_with('(') && after.ends_with(')') && !after[1..].contains('(') => Some((inner, true)),
        _ => None,
    }
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
    deciding(bindings.iter().filter(in_type).collect())
}

/// The bindings that decide a name's type: those that write it where any does (a declared type
/// governs what is assigned: `self.thread: Optional[Thread] = None`, then `self.thread =
/// start()`), else all of them.
fn deciding(found: Vec<&Binding>) -> Vec<&Binding> {
    match found.iter().any(|b| b.declared) {
        true => found.into_iter().filter(|b| b.declared).collect(),
        false => found,
    }
}

impl Binding {
    /// What the binding says about its value's type.
    pub(crate) fn bound(&self) -> Bound<'_> {
        match (&self.type_name, &self.value, &self.each) {
            (Some(_), _, _) if let Some(iterable) = &self.elements_of => Bound::Elements(iterable),
            (Some(name), _, _) => Bound::Type(name, self.collection.as_deref()),
            (None, Some(value), _) => match self.position {
                Some(position) => Bound::Unpacked(value, position as usize),
                None => Bound::Value(value),
            },
            (None, None, Some(each)) => match self.position {
                Some(position) => Bound::EachItem(each, position as usize),
                None => Bound::Each(each),
            },
            _ => match &self.callback {
                Some((function, argument, parameter)) => Bound::Callback(function, *argument, *parameter),
                None => Bound::Unknown,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_trait_bounds_keep_every_trait_by_its_name() {
        assert_eq!(trait_bounds(": Array").as_deref(), Some("Array"));
        assert_eq!(trait_bounds(": Clone + crate::m::Measure<u8> + 'a + ?Sized").as_deref(), Some("Clone + Measure"));
        assert_eq!(trait_bounds(": Fn(&str) -> usize + Send").as_deref(), Some("Fn + Send"));
        assert_eq!(trait_bounds(": 'static"), None);
        assert_eq!(qualified_trait("<A as Array>"), Some("Array"));
        assert_eq!(qualified_trait("<Vec<u8> as crate::m::Array<u8>>"), Some("crate::m::Array"));
        assert_eq!(qualified_trait("<Vec<u8>>"), None);
        assert_eq!(qualified_trait("Array"), None);
    }

    #[test]
    fn callback_parameters_are_read_from_function_typed_parameters() {
        let head = "operate<T, R>(init: (liftedSource: Observable<T>, subscriber: Subscriber<R>) => (() => void) | void): OperatorFunction<T, R>";
        let found = callback_params(Language::TypeScript, head);
        assert_eq!(found, [(0, vec![Some("Observable".to_string()), Some("Subscriber".to_string())])]);
        // Only function-typed parameters, at their positions; an untyped one has no type.
        let head = "on(name: string, handler: (event, target: Node) => void, options?: Options)";
        assert_eq!(callback_params(Language::TypeScript, head), [(1, vec![None, Some("Node".to_string())])]);
        // `this:` takes no argument.
        let head = "each(this: Set<Node>, visit: (node: Node) => void)";
        assert_eq!(callback_params(Language::TypeScript, head), [(0, vec![Some("Node".to_string())])]);
        assert!(callback_params(Language::Python, "def on(handler: Callable[[Node], None])").is_empty());
    }

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
        assert_eq!(type_name("t.Optional[EvalContext]").as_deref(), Some("EvalContext"));
        assert_eq!(type_name("typing.Union[\"Order\", None]").as_deref(), Some("Order"));
        assert_eq!(type_name("Union[Order, Invoice]"), None);
        assert_eq!(type_name("List[str]").as_deref(), Some("List"));
        assert_eq!(type_name("Order[]").as_deref(), Some("Array"));
        assert_eq!(pick_all("readonly Order[]", &[Pick::Index]).as_deref(), Some("Order"));
        assert_eq!(type_name("interface{ Usage() string }").as_deref(), Some("interface"));
        assert_eq!(type_name("Order | Item"), None);
        assert_eq!(type_name("Callable[[int], str]").as_deref(), Some("Callable"));
        assert_eq!(type_name("Callable[[int], str | None]").as_deref(), Some("Callable"));
    }

    #[test]
    fn elements_and_subscripts_are_read_from_written_collections() {
        let each = |written| pick_all(written, &[Pick::Each]);
        let index = |written| pick_all(written, &[Pick::Index]);
        for written in [
            "list[Order]",
            "typing.List[\"Order\"]",
            "Sequence[models.Order]",
            "Optional[Iterable[Order]]",
            "tuple[Order, ...]",
            "dict[Order, int]",
            "Order[]",
            "Array<Order>",
            "ReadonlyArray<Order> | undefined",
            "[]*Order",
            "[4]Order",
            "map[string]*Order",
            "map[Key[int]]Order",
            "List<Order>",
        ] {
            let expected = if written.contains("models.") { "models.Order" } else { "Order" };
            assert_eq!(each(written).as_deref(), Some(expected), "{written}");
        }
        assert_eq!(each("[]string").as_deref(), Some("string"));
        // Go's `range` first variable: a channel's element (either direction), a map's key, no
        // slice's index.
        let key = |written| pick_all(written, &[Pick::Key]);
        for channel in ["chan *Order", "<-chan Order", "chan<- Order"] {
            assert_eq!(key(channel).as_deref(), Some("Order"), "{channel}");
            assert_eq!(each(channel).as_deref(), Some("Order"), "{channel}");
        }
        assert_eq!(key("map[Order]int").as_deref(), Some("Order"));
        assert_eq!(key("map[Key[int]]Order").as_deref(), Some("Key"));
        assert_eq!(key("[]Order"), None);
        assert_eq!(type_name("<-chan Order").as_deref(), Some("chan"));
        // Rust's slices and arrays.
        assert_eq!(each("&[Order]").as_deref(), Some("Order"));
        assert_eq!(each("[Order; 4]").as_deref(), Some("Order"));
        // Elements of several types are one of them each ([`union_type`]).
        assert_eq!(each("list[Order | Item]").as_deref(), Some("Order | Item"));
        for none in ["Order", "tuple[Order, Item]", "Map<string, Order>", "list", "Callable[[Order], int]"] {
            assert_eq!(each(none), None, "{none}");
        }
        // A subscript of a mapping is its value; of a sequence, its element; of a set, nothing.
        assert_eq!(index("dict[str, Convertor[Any]]").as_deref(), Some("Convertor"));
        assert_eq!(index("Record<string, Order>").as_deref(), Some("Order"));
        assert_eq!(index("map[string]*Order").as_deref(), Some("Order"));
        assert_eq!(index("list[Order]").as_deref(), Some("Order"));
        assert_eq!(index("set[Order]"), None);
        assert_eq!(each("dict[str, Order]").as_deref(), Some("str"));
    }

    #[test]
    fn parenthesized_receivers_are_read_through() {
        assert_eq!(parenthesized("(*maskFlag)"), Some(("maskFlag", false)));
        assert_eq!(parenthesized("(*time.Duration)(d)"), Some(("time.Duration", true)));
        assert_eq!(parenthesized("(a or b)"), Some(("a or b", false)));
        assert_eq!(parenthesized("(a)(b)(c)"), None);
        assert_eq!(parenthesized("(a).b"), None);
        assert_eq!(parenthesized("a"), None);
    }

    #[test]
    fn loops_iterate_through_fallbacks_and_order_wrappers() {
        assert_eq!(iterated(Language::Python, "self.routes or []"), "self.routes");
        assert_eq!(iterated(Language::Python, "sorted(self.items, key=lambda i: i.name)"), "self.items");
        assert_eq!(iterated(Language::Python, "reversed(list(stack))"), "stack");
        assert_eq!(iterated(Language::Python, "enumerate(rows)"), "enumerate(rows)");
        assert_eq!(iterated(Language::TypeScript, "sorted(xs)"), "sorted(xs)");
        assert_eq!(iterated(Language::TypeScript, "xs.filter((x) => x.ok()).slice(1)"), "xs");
        assert_eq!(iterated(Language::TypeScript, "xs.map((x) => x.ok())"), "xs.map((x) => x.ok())");
        assert_eq!(iterated(Language::Rust, "&mut self.items"), "self.items");
        assert_eq!(iterated(Language::Rust, "items.iter().filter(|s| s.area() > 1.0).rev()"), "items");
        assert_eq!(iterated(Language::Rust, "items.iter().enumerate()"), "items.iter().enumerate()");
        assert_eq!(iterated(Language::Rust, "shapes(x).into_iter()"), "shapes(x)");
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
        assert!(builtin_method(Language::Go, "Error") && builtin_method(Language::Go, "String"));
    }

    #[test]
    fn chains_split_into_names_and_calls() {
        let steps = |e| {
            segments(e).map(|s| {
                let step =
                    |s: &Segment| format!("{}{}{}", s.name, ["", "()"][s.call as usize], ["", "[]"][s.index as usize]);
                s.iter().map(step).collect::<Vec<_>>()
            })
        };
        assert_eq!(steps("client.getCache(a.b, [1]).find").unwrap(), ["client", "getCache()", "find"]);
        assert_eq!(steps("this.#cache").unwrap(), ["this", "#cache"]);
        assert_eq!(steps("make()").unwrap(), ["make()"]);
        assert_eq!(steps("Store::open(path)").unwrap(), ["Store::open()"]);
        assert_eq!(steps("self.by_name[key].convert").unwrap(), ["self", "by_name[]", "convert"]);
        assert_eq!(steps("rows()[0]").unwrap(), ["rows()[]"]);
        let arguments: Vec<&str> =
            segments("new(Route).Host(\"a\")[0].x").unwrap().iter().map(|s| s.arguments).collect();
        assert_eq!(arguments, ["Route", "\"a\"", ""]);
        assert_eq!(steps("items[0][1]"), None);
        assert_eq!(steps("items[0]()"), None);
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
        let collection = |language, signature| return_collection(language, signature);
        let all = collection(Language::Go, "func (f *FlagSet) All() ([]*Flag, err error)");
        assert_eq!(all.as_deref(), Some("([]*Flag, err error)"));
        assert_eq!(pick_all(&all.unwrap(), &[Pick::Each]).as_deref(), Some("Flag"));
        let lookup = collection(Language::Go, "func (f *FlagSet) Lookup(name string) (*Flag, bool)").unwrap();
        assert_eq!(
            [0, 1].map(|n| pick_all(&lookup, &[Pick::Nth(n)])),
            [Some("Flag".to_string()), Some("bool".to_string())]
        );
        let py =
            collection(Language::Python, "def compile_path(path: str) -> tuple[Pattern, str, dict[str, Convertor]]");
        let py = py.unwrap();
        assert_eq!(pick_all(&py, &[Pick::Nth(2)]).as_deref(), Some("dict"));
        assert_eq!(pick_all(&py, &[Pick::Nth(2), Pick::Index]).as_deref(), Some("Convertor"));
        assert_eq!(pick_all("[string, Order]", &[Pick::Nth(1)]).as_deref(), Some("Order"));
        assert_eq!(collection(Language::Python, "def orders(self) -> list[Order]").as_deref(), Some("list[Order]"));
        assert_eq!(collection(Language::TypeScript, "items(): Item[]").as_deref(), Some("Item[]"));
        assert_eq!(collection(Language::TypeScript, "item(): Item"), None);
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
