//! What one file contributes to the graph: its definitions (from the outline), its references and
//! call sites, and its imports. Extraction is a pure function of the file's path and text.

use lean_ctx_outline::tree_sitter::Tree;
use lean_ctx_outline::{Definition, Kind, Language, Outline, outline_and_tree};
use serde::{Deserialize, Serialize};

use crate::bindings::Binding;
use crate::{imports, references};

/// A definition a reference can point at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Def {
    pub name: String,
    /// The outline's label: `fn`, `method`, `ctor`, `struct`, `class`, `trait`, …
    pub kind: String,
    /// The type (class, struct, trait, interface, Rust `impl` target) a member belongs to.
    pub container: Option<String>,
    /// The declaration's own line (after attributes and decorators), 1-based.
    pub line: u32,
    pub start_line: u32,
    pub end_line: u32,
    /// The name a method's body uses for its receiver when the language lets it be chosen (Go's
    /// `func (s *Server)`), so `s.Start()` resolves like `self.start()`.
    pub receiver_var: Option<String>,
    /// The type a function's signature says it returns (see [`crate::bindings::return_type`]).
    #[serde(default)]
    pub returns: Option<String>,
    /// The collection type it returns, as written (see [`crate::bindings::return_collection`]).
    #[serde(default)]
    pub returns_collection: Option<String>,
    /// A method read as an attribute: Python's `@property`, a TypeScript/JavaScript getter.
    #[serde(default)]
    pub property: bool,
    /// A JavaScript/TypeScript member typed as a function (`map: (pos: number) => number`):
    /// called like a method, but claimed only through a known type, since most are callbacks of
    /// an options object and a call of the name on a value of unknown type is another's.
    #[serde(default)]
    pub typed_member: bool,
    /// The bases a type's head names, as written (`B` and `models.Model` for `class
    /// A(B, models.Model)`, `extends B implements C`), in source order.
    #[serde(default)]
    pub bases: Vec<String>,
    /// A TypeScript function's parameters typed as functions, with the types of their own
    /// parameters (see [`crate::bindings::callback_params`]); empty for methods.
    #[serde(default)]
    pub callback_params: Vec<(u32, Vec<Option<String>>)>,
    /// A Java method declared `private` or `static`: a call of it is bound where it is written,
    /// never dispatched to a subclass's method of that name, so it overrides nothing and nothing
    /// overrides it (a static method of a subclass hides it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub non_virtual: bool,
    /// A Java method or type declared `static`, or a nested enum, interface or record (static
    /// without the word): it has no instance of the class around it, so a static nested class
    /// reaches only the static members of the classes it is nested in.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_static: bool,
    /// The first and last lines of the function whose body declares this one (see
    /// [`crate::nested`]): only a bare name there reaches it. `None` for a definition of the
    /// module or of a type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<(u32, u32)>,
    /// The trait a Rust method's `impl` block implements, by the path it is written with
    /// (`shapes::Shape` for `impl shapes::Shape for Circle`), which the file's imports resolve: a
    /// call through the trait (`s.area()` on a `&dyn Shape` or a `T: Shape`) may run this method.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implements: Option<String>,
    /// The other members a JavaScript function is assigned to with this one (`type` of
    /// `res.contentType = res.type = function`), each a definition of its own over the same
    /// lines: one function, which a call through any of them runs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
}

impl Def {
    /// Functions, methods and constructors: what has callees.
    pub fn is_callable(&self) -> bool {
        matches!(self.kind.as_str(), "fn" | "method" | "ctor")
    }

    /// Types a constructor use or a type annotation names.
    pub fn is_type(&self) -> bool {
        matches!(self.kind.as_str(), "struct" | "class" | "enum" | "trait" | "interface" | "type")
    }
}

/// How a reference uses a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RefKind {
    /// `f()`, `Type::f()`, `pkg.F()` with a module or type written in front.
    Call,
    /// `x.f()`: a call on a value.
    Method,
    /// `new T()`, `T { … }`, `T{…}`: a constructor use.
    New,
    /// A type named in an annotation, a signature or an inheritance list.
    Type,
    /// `x.name` not called: a call of a getter when `name` is a property.
    Read,
}

impl RefKind {
    /// Whether the reference is a call site (an edge of the call graph).
    pub fn is_call(self) -> bool {
        !matches!(self, RefKind::Type)
    }
}

/// One use of a name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ref {
    pub name: String,
    pub kind: RefKind,
    pub line: u32,
    /// 1-based, in characters: two calls on one line are two sites. 0 where there is no name
    /// written (a binding's evaluation).
    pub column: u32,
    /// What is written in front of the name (`self`, `Config`, `crate::load`, `pkg`, `obj`), as
    /// written; `None` for a bare name.
    pub receiver: Option<String>,
    /// Index in [`FileFacts::defs`] of the innermost definition enclosing the use (the caller).
    pub caller: Option<u32>,
}

/// One imported name (or module) and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Import {
    /// The name the file uses (an alias when one is given); `*` for a wildcard.
    pub local: String,
    /// The imported item's own name; `None` when the import binds a module or package.
    pub name: Option<String>,
    /// The module it comes from, as written (`crate::config`, `..models`, `./store`, `net/http`,
    /// `com.acme.orders`).
    pub module: String,
    pub line: u32,
    /// A re-export (`pub use`, `export … from`): files importing from this one see the name too.
    pub reexport: bool,
    /// The lines of the function whose body holds the import (a JavaScript `require` loaded
    /// lazily): only references there see it, and no other file sees it through this one. `None`
    /// for the module's own imports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<(u32, u32)>,
}

impl Import {
    /// Whether a reference on `line` sees the import.
    pub(crate) fn visible_at(&self, line: u32) -> bool {
        self.scope.is_none_or(|(from, to)| from <= line && line <= to)
    }
}

impl FileFacts {
    /// How many Rust inline modules hold `line` (see [`FileFacts::inline_modules`]).
    pub(crate) fn inline_depth(&self, line: u32) -> usize {
        self.inline_modules.iter().filter(|(from, to)| *from <= line && line <= *to).count()
    }

    /// The import binding `local` that a name written on `line` sees, the innermost function's
    /// first; with no line (a signature's), the module's own.
    pub(crate) fn import_seen(&self, local: &str, line: Option<u32>) -> Option<&Import> {
        match line {
            Some(line) => self.imports_at(local, line).into_iter().next(),
            None => self.imports.iter().find(|i| i.local == local && i.scope.is_none()),
        }
    }

    /// The imports binding `local` that a reference on `line` sees, the one of the innermost
    /// function first (a lazy `require` there shadows the module's import of that name).
    pub(crate) fn imports_at(&self, local: &str, line: u32) -> Vec<&Import> {
        let mut found: Vec<&Import> = self.imports.iter().filter(|i| i.local == local && i.visible_at(line)).collect();
        found.sort_by_key(|i| std::cmp::Reverse(i.scope.map(|(from, _)| from)));
        found
    }
}

/// Everything the graph knows about one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileFacts {
    /// [`Language::name`] of the file.
    pub language: String,
    pub defs: Vec<Def>,
    pub refs: Vec<Ref>,
    pub imports: Vec<Import>,
    /// Names bound with the types or values their bindings write.
    pub bindings: Vec<Binding>,
    /// Java's `package` declaration.
    pub package: Option<String>,
    /// Set when tree-sitter could not parse the file: definitions came from the heuristic outline
    /// and no reference was extracted.
    pub degraded: Option<String>,
    /// The properties of an object a JavaScript/TypeScript module exports as its default, each
    /// with the module's binding it holds: `("parse", "parseUrl")` for `export default { f,
    /// parse: parseUrl }`, so `utils.parse()` after `import utils from` is `parseUrl`.
    #[serde(default)]
    pub default_members: Vec<(String, String)>,
    /// The module's binding a JavaScript/TypeScript module exports as its default (`realName` for
    /// `export default function realName`, `export default class realName`, `export default
    /// realName`), so `import other from` it is that definition under another name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_export: Option<String>,
    /// The text is a few huge lines: minified (see [`crate::generated`]).
    #[serde(default)]
    pub minified: bool,
    /// Objects a JavaScript/TypeScript file gives another's members (see [`crate::js_mixins`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mixins: Vec<crate::js_mixins::Mixin>,
    /// The lines of each Rust inline module (`#[cfg(test)] mod tests { … }`), whose paths start
    /// from it: `super::validate()` there is the file's own `validate`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inline_modules: Vec<(u32, u32)>,
}

/// The languages with reference queries.
pub const SUPPORTED: [Language; 7] = [
    Language::Rust,
    Language::Python,
    Language::JavaScript,
    Language::TypeScript,
    Language::Tsx,
    Language::Go,
    Language::Java,
];

/// Whether the graph extracts references for `language`.
pub fn has_queries(language: Language) -> bool {
    SUPPORTED.contains(&language)
}

/// The facts of one file of a supported language.
pub fn extract(language: Language, source: &str) -> FileFacts {
    let (outline, tree) = outline_and_tree(language, source);
    extract_from(language, source, &outline, tree.as_ref())
}

/// [`extract`] from an outline and tree the caller already has (`outline_and_tree` of `source`),
/// so a file parsed for another purpose, such as the search index's symbols, is not parsed again.
pub fn extract_from(language: Language, source: &str, outline: &Outline, tree: Option<&Tree>) -> FileFacts {
    let mut defs = Vec::new();
    let lines: Vec<&str> = source.lines().collect();
    flatten(&outline.items, (None, None), language, &lines, &mut defs);
    let mut facts = FileFacts {
        language: language.name().to_string(),
        defs,
        refs: Vec::new(),
        imports: Vec::new(),
        bindings: Vec::new(),
        package: None,
        degraded: outline.degraded.clone(),
        default_members: Vec::new(),
        default_export: None,
        minified: crate::generated::minified(source),
        mixins: Vec::new(),
        inline_modules: Vec::new(),
    };
    if let Some(tree) = tree {
        let root = tree.root_node();
        // The grammar the tree is in: a Flow-annotated JavaScript file is parsed as TypeScript.
        let language = outline.language;
        let nested = crate::nested::nested_functions(language, root, source, &facts.defs);
        facts.defs.extend(nested);
        // A field typed as a function is a method already (see `flatten`).
        let fields = crate::js_fields::function_fields(language, root, source);
        let fields: Vec<Def> =
            fields.into_iter().filter(|f| !facts.defs.iter().any(|d| d.name == f.name && d.line == f.line)).collect();
        facts.defs.extend(fields);
        let enclosers = crate::enclosers::Enclosers::new(&facts.defs);
        let extracted = references::extract(language, root, source, &facts.defs, &enclosers);
        (facts.refs, facts.bindings) = (extracted.refs, extracted.bindings);
        for (class, base) in extracted.bases {
            facts.defs[class as usize].bases.push(base);
        }
        let module = imports::extract(language, root, source);
        facts.imports = module.imports;
        facts.package = module.package;
        facts.default_members = module.default_members;
        facts.default_export = module.default_export;
        facts.inline_modules = module.inline_modules;
        facts.mixins = crate::js_mixins::extract(language, root, source, &enclosers);
        crate::module_aliases::add(language, &outline.items, &mut facts);
    }
    facts
}

/// The outline's tree as a flat list: members carry their type's name as `container`; a Rust
/// `impl` contributes its methods (under the implemented type, with the trait a trait impl
/// implements: `owner`'s second part), not a definition of its own.
/// `lines` is the file's source: a Go receiver is read from the declaration as written, since the
/// outline's signature of a method placed under its type leaves the receiver out.
fn flatten(
    items: &[Definition],
    owner: (Option<&str>, Option<&str>),
    language: Language,
    lines: &[&str],
    out: &mut Vec<Def>,
) {
    let (container, implements) = owner;
    for item in items {
        // A JavaScript/TypeScript member typed as a function (`map: (pos: number) => number` in an
        // interface) is called like a method: one, with the head a method of that type would have.
        let as_method = match item.kind {
            Kind::Field if matches!(language, Language::JavaScript | Language::TypeScript | Language::Tsx) => {
                function_member_head(&item.name, item.uncut.as_deref().unwrap_or(&item.signature))
            }
            _ => None,
        };
        let kind = if as_method.is_some() { Kind::Method } else { item.kind };
        let keep = matches!(
            kind,
            Kind::Function
                | Kind::Method
                | Kind::Constructor
                | Kind::Struct
                | Kind::Class
                | Kind::Enum
                | Kind::Trait
                | Kind::Interface
                | Kind::TypeAlias
        );
        if keep {
            let head = lines.get((item.head_line as usize).saturating_sub(1)).copied().unwrap_or_default();
            let receiver_var =
                (language == Language::Go && item.kind == Kind::Method).then(|| go_receiver_var(head)).flatten();
            let function = matches!(kind, Kind::Function | Kind::Method);
            // Types are read from the head as written, not from the view's shortened line.
            let head_text = as_method.as_deref().unwrap_or(item.uncut.as_deref().unwrap_or(&item.signature));
            // A Go method declared in another file than its type's is outlined at the top level
            // as `Type.name`; its receiver names the type it belongs to.
            let (name, container) = match (container, item.name.split_once('.')) {
                (None, Some((_, name))) if language == Language::Go && item.kind == Kind::Method => {
                    (name, go_receiver_type(head))
                }
                _ => (item.name.as_str(), container.map(str::to_string)),
            };
            let assigned = match container.is_none() && matches!(kind, Kind::Function | Kind::Method) {
                true => crate::js_assigned::members(language, name),
                false => Vec::new(),
            };
            // Each alias of a function assigned to several members is a definition of its own
            // over the same lines, so a call through any of them reaches it (see
            // `Graph::same_symbol`, which makes them one symbol again).
            let exported = crate::commonjs::export_names(language, name, container.as_deref());
            let function_kind = if kind == Kind::Method { Kind::Function } else { kind };
            let named: Vec<(&str, Option<String>, Kind)> = match (exported.is_empty(), assigned.is_empty()) {
                (false, _) => exported.into_iter().map(|exported| (exported, None, function_kind)).collect(),
                (true, false) => assigned
                    .into_iter()
                    .map(|(member, owner)| (member, Some(owner.to_string()), Kind::Method))
                    .collect(),
                (true, true) => vec![(name, container, kind)],
            };
            let names: Vec<&str> = named.iter().map(|(name, _, _)| *name).collect();
            for (name, container, kind) in named.iter().cloned() {
                out.push(Def {
                    aliases: names.iter().filter(|other| **other != name).map(|other| other.to_string()).collect(),
                    name: name.to_string(),
                    kind: kind.label().to_string(),
                    container,
                    line: item.head_line,
                    start_line: item.start_line,
                    end_line: item.end_line,
                    receiver_var: receiver_var.clone(),
                    returns: function.then(|| crate::bindings::return_type(language, head_text)).flatten(),
                    returns_collection: function
                        .then(|| crate::bindings::return_collection(language, head_text))
                        .flatten(),
                    property: item.kind == Kind::Method && crate::bindings::is_property(head_text, name),
                    typed_member: as_method.is_some(),
                    bases: Vec::new(),
                    // Looked up for calls of a named function only (not of a method).
                    callback_params: match kind {
                        Kind::Function => crate::bindings::callback_params(language, head_text),
                        _ => Vec::new(),
                    },
                    non_virtual: language == Language::Java
                        && kind == Kind::Method
                        && java_non_virtual(head_text, name),
                    is_static: language == Language::Java && java_static(kind, head_text, name),
                    scope: None,
                    implements: implements.filter(|_| function).map(str::to_string),
                });
            }
        }
        let inner = match item.kind {
            Kind::Impl => Some(item.owner_name().to_string()),
            Kind::Struct | Kind::Class | Kind::Enum | Kind::Trait | Kind::Interface => Some(item.name.clone()),
            // A Go type defined on another (`type intValue int`) has methods like a struct's.
            Kind::TypeAlias if language == Language::Go => Some(item.name.clone()),
            // An object of methods bound to a name (`var Text = { trim(s) {…} }`): `Text.trim`.
            Kind::Const | Kind::Variable if !item.children.is_empty() => Some(item.name.clone()),
            // A module's members are top-level names of their own (a Python function's nested
            // functions keep the enclosing container).
            _ => container.map(str::to_string),
        };
        let implements = match item.kind {
            Kind::Impl => implemented_trait(&item.name),
            _ => None,
        };
        flatten(&item.children, (inner.as_deref(), implements), language, lines, out);
    }
}

/// `Shape` for the impl named `Shape for Circle`, `fmt::Display` for `fmt::Display for Item<'a>`,
/// `From` for `From<(A, B)> for Pair`; `None` for an inherent impl (`Circle`).
fn implemented_trait(impl_name: &str) -> Option<&str> {
    let (written, _) = impl_name.rsplit_once(" for ")?;
    let path = written.split('<').next().unwrap_or(written).trim();
    Some(path.trim_start_matches("::")).filter(|path| !path.is_empty() && !path.ends_with("::"))
}

/// `map(pos: number): number` for the member `map: (pos: number) => number` or `map?: <T>(pos: T)
/// => T`: the head of the method a member typed as a function amounts to; `None` for any other
/// member.
fn function_member_head(name: &str, signature: &str) -> Option<String> {
    let rest = signature.trim_start_matches("readonly ").strip_prefix(name)?;
    let rest = rest.trim_start_matches('?').trim_start().strip_prefix(':')?.trim_start();
    if !rest.starts_with(['(', '<']) {
        return None;
    }
    let close = crate::bindings::closing_paren(rest)?;
    let open = rest.find('(')?;
    let ret = rest[close + 1..].trim_start().strip_prefix("=>")?.trim();
    (!ret.is_empty()).then(|| format!("{name}{}: {ret}", &rest[open..=close]))
}

/// Whether a Java method's head (`private static int of(int a)`) has a modifier that binds its
/// calls statically: `private` or `static`, among the words before its name.
fn java_non_virtual(head: &str, name: &str) -> bool {
    java_method_modifiers(head, name).any(|word| matches!(word, "private" | "static"))
}

/// Whether a Java method or type is static: `static` among the words before a method's name or a
/// type's keyword (`public static final class Sink`), or a type that is static without the word
/// when nested (an enum, an interface, a record).
fn java_static(kind: Kind, head: &str, name: &str) -> bool {
    match kind {
        Kind::Method => java_method_modifiers(head, name).any(|word| word == "static"),
        Kind::Enum | Kind::Interface => true,
        Kind::Class => {
            let keyword = |word: &&str| matches!(*word, "class" | "record");
            let mut modifiers = head.split_whitespace().take_while(|word| !keyword(word));
            modifiers.any(|word| word == "static") || head.split_whitespace().find(keyword) == Some("record")
        }
        _ => false,
    }
}

/// The words before a Java method's name in its head: its modifiers, type parameters and type.
fn java_method_modifiers<'a>(head: &'a str, name: &str) -> std::str::SplitWhitespace<'a> {
    head.find(&format!("{name}(")).map_or(head, |at| &head[..at]).split_whitespace()
}

/// `Server` for `func (s *Server) Start() {`, `func (Server) Name()` and
/// `func (l *List[T]) Len()`.
fn go_receiver_type(head: &str) -> Option<String> {
    let inside = head.split_once("func (")?.1.split_once(')')?.0;
    let written = inside.rsplit(' ').next()?.trim_start_matches('*');
    let name = written.split('[').next().unwrap_or(written);
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')).then(|| name.to_string())
}

/// `s` for `func (s *Server) Start() {`; `None` for an unnamed receiver.
fn go_receiver_var(head: &str) -> Option<String> {
    let inside = head.split_once("func (")?.1;
    let (var, rest) = inside.split_once(' ')?;
    (!var.is_empty() && !rest.starts_with(')') && var.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .then(|| var.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_typed_as_functions_read_as_method_heads() {
        let head = |sig: &str| function_member_head("map", sig);
        assert_eq!(
            head("map: (pos: number, assoc?: number) => number").as_deref(),
            Some("map(pos: number, assoc?: number): number")
        );
        assert_eq!(head("map?: <T>(f: (x: T) => T) => Result<T>").as_deref(), Some("map(f: (x: T) => T): Result<T>"));
        assert_eq!(head("readonly map: () => void").as_deref(), Some("map(): void"));
        assert_eq!(head("map: Map<string, number>"), None);
        assert_eq!(head("map: (string | number)[]"), None);
    }

    /// A Flow-annotated JavaScript file is parsed with TypeScript's grammar; its references are
    /// queried in that grammar, and the file stays JavaScript.
    #[test]
    fn flow_javascript_is_queried_in_the_grammar_it_was_parsed_with() {
        let source = "// @flow\nimport { clean } from './path'\nexport function hash(base: ?string): string {\n  \
                      return clean(base || '')\n}\nfunction push(path: string) {\n  hash(path)\n}\n";
        let facts = extract(Language::JavaScript, source);
        assert_eq!(facts.language, "javascript");
        let calls: Vec<(&str, u32)> = facts.refs.iter().map(|r| (r.name.as_str(), r.line)).collect();
        assert!(calls.contains(&("clean", 4)) && calls.contains(&("hash", 7)), "{calls:?}");
        assert!(facts.imports.iter().any(|import| import.local == "clean"), "{:?}", facts.imports);
    }

    #[test]
    fn a_default_export_is_read_by_the_name_its_module_gives_it() {
        let default = |source: &str| extract(Language::JavaScript, source).default_export;
        assert_eq!(default("export default function realName(x) { return x; }\n").as_deref(), Some("realName"));
        assert_eq!(default("export default class Store {}\n").as_deref(), Some("Store"));
        assert_eq!(default("function realName() {}\nexport default realName;\n").as_deref(), Some("realName"));
        assert_eq!(default("export default function (x) { return x; }\n"), None);
        assert_eq!(default("const a = 1;\nexport default { a };\n"), None);
        assert_eq!(default("export function realName() {}\n"), None);
    }

    #[test]
    fn java_private_and_static_methods_are_read_from_the_words_before_the_name() {
        assert!(java_non_virtual("private void check()", "check"));
        assert!(java_non_virtual("public static <T> List<T> of(T one)", "of"));
        assert!(!java_non_virtual("@Override public void post()", "post"));
        assert!(!java_non_virtual("void staticCheck(int privateCount)", "staticCheck"));
    }

    #[test]
    fn java_static_methods_and_nested_types_are_read_from_their_heads() {
        assert!(java_static(Kind::Method, "public static <T> List<T> of(T one)", "of"));
        assert!(!java_static(Kind::Method, "private void check()", "check"));
        assert!(java_static(Kind::Class, "public static final class Sink extends OutputStream", "Sink"));
        assert!(!java_static(Kind::Class, "final class Retry", "Retry"));
        assert!(!java_static(Kind::Class, "class Pump extends Spool implements Static", "Pump"));
        assert!(java_static(Kind::Class, "record Point(int x, int y)", "Point"));
        assert!(java_static(Kind::Enum, "enum State", "State"));
        assert!(java_static(Kind::Interface, "interface Listener", "Listener"));
    }

    #[test]
    fn go_receiver_variables_are_read_from_the_signature() {
        assert_eq!(go_receiver_var("func (s *Server) Start() error").as_deref(), Some("s"));
        assert_eq!(go_receiver_var("func (Server) Name() string"), None);
        assert_eq!(go_receiver_var("func helper()"), None);
        assert_eq!(go_receiver_type("func (s *Server) Start() error").as_deref(), Some("Server"));
        assert_eq!(go_receiver_type("func (Server) Name() string").as_deref(), Some("Server"));
        assert_eq!(go_receiver_type("func (l *List[T]) Len() int").as_deref(), Some("List"));
        assert_eq!(go_receiver_type("func helper()"), None);
    }
}
