//! Tree-sitter outline extraction.
//!
//! Code languages share one walker ([`Walker`]) driven by a per-language [`Spec`]: a table of node
//! kinds that are definitions ([`Rule`]), kinds that wrap a definition and contribute to its head
//! (decorators, `export`, `template<…>`), kinds to look through, and import statements. The
//! per-language modules hold only those tables plus the few naming/classifying functions that
//! a grammar needs. Markup and data formats have their own small extractors.

mod c;
mod csharp;
mod data;
mod go;
mod head;
mod java;
mod js;
mod macro_types;
pub(crate) mod markup;
mod private_fields;
mod python;
mod ruby;
mod rust;

use std::borrow::Cow;
use std::cell::LazyCell;
use std::collections::HashMap;
use std::ops::Range;

use tree_sitter::{Node, Tree};

use crate::Language;
use crate::model::{Definition, Import, Kind, Outline, UnlistedKeys, several_names};
use crate::text::{
    Lines, MAX_SIGNATURE, closing, collapse, collapse_code, line_number, node_lines, node_text, rejects_calls, truncate,
};
use crate::{fallback, parse, unclosed, unparsed};
pub(crate) use head::empty_nested_brackets;
use head::{Head, Role, shorten_alias, top_level_items, without_leading_bar};
pub(crate) use head::{Names, Past, Untyped};
pub use private_fields::PrivateDefinition;
pub(crate) use private_fields::private_fields;

/// How deep the walker follows containers and pass-through nodes. Real code nests a handful of
/// levels; the cap keeps pathological inputs from exhausting the stack.
pub(crate) const MAX_DEPTH: usize = 64;

/// Finds the call signatures a declaration's type lists ([`Spec::overloads`]).
type Overloads = for<'t> fn(Node<'t>) -> Option<Vec<Node<'t>>>;

/// Finds the member lists a definition writes in its head ([`Rule::head_members`]).
type HeadMembers = for<'t> fn(Node<'t>, &str) -> Vec<Node<'t>>;

/// Reads a statement for the word it gives definitions by name ([`Sections::by_name`]).
type ByName = for<'s> fn(Node, &'s str) -> Option<(&'static str, Vec<Cow<'s, str>>)>;

/// Finds a definition's body ([`Rule::body`]).
type Body = for<'t> fn(Node<'t>) -> Option<Node<'t>>;

/// Finds the definition a node's value stands for ([`Rule::value_head`]).
type ValueHead = for<'t> fn(Node<'t>, &str) -> Option<Node<'t>>;

/// How many times its own size a file's macro bodies may be parsed again in all: real code nests
/// item macros two or three deep (`cfg_net! { cfg_unix! { … } }`).
const REPARSE_FACTOR: usize = 4;

/// The longest a clause of [`Spec::abridged`] is shown whole.
const MAX_CLAUSE: usize = 40;

/// The most type parameters a list of [`Spec::abridged`] shows whole, and how long their names
/// may be together when there are more.
const MAX_TYPE_PARAMETERS: usize = 2;
const MAX_TYPE_PARAMETER_NAMES: usize = 24;

/// A field longer than this shows its type without what is nested in the type's own brackets.
const MAX_FIELD: usize = 48;

/// A type alias longer than this shows its value without what is nested in the value's own
/// brackets (`type ColumnDefResolved<TData, TValue = unknown> = Partial<…> & {…}`), and without
/// its value when that is still longer. The name and parameters are what other code writes; a
/// long value is read in the file.
const MAX_TYPE_ALIAS: usize = 80;

/// How many function declarations a function's body holds, at its own level, for it to be a
/// module factory whose functions are listed (see [`Owner::factory`]). Helpers a function keeps
/// for itself come one to a few at a time; a factory's API comes by the dozen. The benchmark's
/// tree-sitter-free scan has its own copy (bench/src/definitions/javascript.rs): keep them equal.
const FACTORY_FUNCTIONS: usize = 10;

/// A constant or variable whose whole declaration fits in this many characters is shown with its
/// value (`const MAX: u32 = 3`); longer ones stop before the value.
const SHORT_VALUE: usize = 60;

/// Builds the outline of an already parsed file.
pub(crate) fn outline(language: Language, source: &str, tree: &Tree) -> Outline {
    let root = tree.root_node();
    let (spec, walked) = match (code_spec(language), language) {
        (Some(spec), _) => (Some(spec), Walker::run(spec, language, root, source)),
        (None, Language::Markdown) => (None, Walked::items(markup::headings(root, source))),
        (None, Language::Json) => (None, Walked::keys(data::json(root, source))),
        (None, Language::Yaml) => (None, Walked::keys(data::yaml(root, source))),
        (None, _) => (None, Walked::keys(data::toml(root, source))),
    };
    let mut errors = unparsed::error_lines(tree, source);
    errors.extend(walked.region_errors);
    // Split into lines only for a file with an error to judge.
    let lines = LazyCell::new(|| Lines::new(source));
    let hiding = match errors.is_empty() {
        true => Vec::new(),
        false => unparsed::may_hide_definitions(errors, &walked.heads, &walked.declarations, language, &lines),
    };
    // Only a tree with errors can hide definitions these ways; a clean file skips the spans.
    let judged = spec.filter(|spec| spec.layout_judged && tree.root_node().has_error());
    let (unoutlined, folded, unclosed, regions, misplaced, swallowed) = if let Some(spec) = judged {
        let starts = outlined_starts(&walked.items, &walked.imports);
        // A head after annotations (Java's `@Override`, C#'s `[HttpGet]`) is no line of a body.
        let heads: Vec<(u32, u32)> = starts.iter().chain(&walked.heads).copied().collect();
        let bodies: Vec<(u32, u32)> =
            every_definition(&walked.items).map(|definition| (definition.head_line, definition.end_line)).collect();
        (
            unparsed::unoutlined_definitions(tree, &starts, language, &lines),
            unparsed::folded_definitions(tree, &bodies, &heads, language, spec.margin_nests, &lines),
            unclosed::unclosed_blocks(tree, &heads, language, &lines),
            unparsed::error_regions(tree, &covered_spans(&walked.items, &walked.imports), language, &lines),
            match spec.indentation_is_syntax {
                true => unparsed::misplaced_definitions(tree, language, &lines),
                false => Vec::new(),
            },
            unparsed::swallowed_by_strings(tree, spec.multiline_strings, language, &lines),
        )
    } else {
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new())
    };
    let named: Vec<(u32, u32)> = hiding
        .into_iter()
        .chain(walked.failed_regions)
        .chain(unoutlined)
        .chain(folded)
        .chain(unclosed)
        .chain(regions)
        .chain(misplaced)
        .chain(swallowed)
        .chain(unparsed::broken_declaration_groups(tree, language))
        .chain(unparsed::misread_classes(tree, language, source))
        .collect();
    let named = match judged.is_some() && !named.is_empty() {
        true => {
            let listed: Vec<(u32, u32)> = walked.items.iter().map(|d| (d.start_line, d.head_line)).collect();
            unparsed::widened_to_unlisted_objects(tree, named, &listed, language, &lines)
        }
        false => named,
    };
    let unparsed = unparsed::merge(named);
    let mut outline = Outline {
        language,
        imports: walked.imports,
        items: walked.items,
        degraded: None,
        unparsed,
        unlisted: walked.unlisted,
        unlisted_keys: walked.unlisted_keys,
    };
    count_hidden_fields(&mut outline, tree, source);
    outline
}

/// Counts on each type the fields its views leave out as no part of its API (see
/// [`Definition::hidden_fields`]): those [`private_fields()`] finds declared in its lines and
/// owned by it, not by a member or a type nested in it; but on a line the views name as not
/// parsed (a struct left open reads the code after it as fields), which the first line already
/// says may hide anything.
fn count_hidden_fields(outline: &mut Outline, tree: &Tree, source: &str) {
    let parsed = |line: u32| !outline.unparsed.iter().any(|(from, to)| (*from..=*to).contains(&line));
    // The lines of the fields each name encloses, in order: a type counts those in its lines.
    let mut enclosed: HashMap<String, Vec<u32>> = HashMap::new();
    for field in private_fields(outline, tree, source) {
        if let Some(encloser) = field.encloser.filter(|_| field.kind == Kind::Field && parsed(field.line)) {
            enclosed.entry(encloser).or_default().push(field.line);
        }
    }
    if enclosed.is_empty() {
        return;
    }
    enclosed.values_mut().for_each(|lines| lines.sort_unstable());
    let mut pending: Vec<&mut Definition> = outline.items.iter_mut().collect();
    while let Some(definition) = pending.pop() {
        if matches!(definition.kind, Kind::Struct | Kind::Class | Kind::Enum)
            && let Some(lines) = enclosed.get(definition.owner_name())
        {
            let inside = lines.partition_point(|line| *line <= definition.end_line)
                - lines.partition_point(|line| *line < definition.start_line);
            definition.hidden_fields = u32::try_from(inside).unwrap_or(u32::MAX);
        }
        pending.extend(definition.children.iter_mut());
    }
}

/// The walker's table for a code language; markup and data formats have their own extractors.
fn code_spec(language: Language) -> Option<&'static Spec> {
    Some(match language {
        Language::Rust => &rust::SPEC,
        Language::Python => &python::SPEC,
        Language::JavaScript | Language::TypeScript | Language::Tsx => &js::SPEC,
        Language::Go => &go::SPEC,
        Language::Java => &java::SPEC,
        Language::C | Language::Cpp => &c::SPEC,
        Language::CSharp => &csharp::SPEC,
        Language::Ruby => &ruby::SPEC,
        Language::Markdown | Language::Json | Language::Yaml | Language::Toml => return None,
    })
}

/// Where each outlined definition starts (its attributes to its declaration's first line; a Go
/// method declared away from its type is its type's child), and the imports' lines. Not a
/// definition's whole span: error recovery can stretch one over what follows (React Native's
/// `export type Props = …` over the 600 lines of the function declared after it).
fn outlined_starts(items: &[Definition], imports: &[Import]) -> Vec<(u32, u32)> {
    let imported = imports.iter().map(|import| (import.line, import.line));
    imported.chain(every_definition(items).map(|definition| (definition.start_line, definition.head_line))).collect()
}

/// Every definition of `items`, members included (in no particular order).
fn every_definition(items: &[Definition]) -> impl Iterator<Item = &Definition> {
    let mut pending: Vec<&Definition> = items.iter().collect();
    std::iter::from_fn(move || {
        let definition = pending.pop()?;
        pending.extend(&definition.children);
        Some(definition)
    })
}

/// Each outlined definition's lines, attributes to end, members included, and each import's.
fn covered_spans(items: &[Definition], imports: &[Import]) -> Vec<unparsed::Covered> {
    let imported =
        imports.iter().map(|import| unparsed::Covered { start: import.line, end: import.line, opaque: true });
    let defined = every_definition(items).map(|definition| {
        let value =
            matches!(definition.kind, Kind::TypeAlias | Kind::Const | Kind::Variable | Kind::Field | Kind::Property);
        let opaque = definition.kind.is_function() || (value && definition.children.is_empty());
        unparsed::Covered { start: definition.start_line, end: definition.end_line, opaque }
    });
    imported.chain(defined).collect()
}

/// What a walk found.
#[derive(Default)]
struct Walked {
    imports: Vec<Import>,
    items: Vec<Definition>,
    /// The lines of each definition's declaration, from its first attribute to where its body
    /// begins: a syntax error there did not keep it out of the outline.
    heads: Vec<(u32, u32)>,
    /// The line each definition's own declaration starts on, past its annotations.
    declarations: Vec<u32>,
    /// Syntax errors in regions parsed again (see [`Spec::reparse`]).
    region_errors: Vec<(u32, u32)>,
    /// Lines of regions that could not be parsed again.
    failed_regions: Vec<(u32, u32)>,
    /// File-level code read again as items that gave none (see [`Outline::unlisted`]).
    unlisted: Vec<(u32, u32)>,
    /// A data file's keys nested deeper than listed (see [`Outline::unlisted_keys`]).
    unlisted_keys: UnlistedKeys,
}

impl Walked {
    fn items(items: Vec<Definition>) -> Walked {
        Walked { items, ..Walked::default() }
    }

    fn keys(keys: data::Keys) -> Walked {
        Walked { items: keys.items, unlisted_keys: keys.unlisted, ..Walked::default() }
    }
}

/// What the walker needs to know about one grammar.
pub(crate) struct Spec {
    pub rules: &'static [Rule],
    /// Kinds that wrap definitions (`decorated_definition`, `export_statement`, `lexical_declaration`,
    /// `template_declaration`): searched through, and part of the wrapped definition's signature.
    pub wrappers: &'static [(&'static str, Prefix)],
    /// Kinds searched through for definitions without being one (`#ifdef` blocks, `if` at module
    /// level, `extern "C" { … }`).
    pub transparent: &'static [&'static str],
    /// Kinds of type literal whose members a line break alone may separate (TypeScript's
    /// `{\n  width: number\n  height: number\n}`): on a head's one line they get the `;` the
    /// language allows there, so `{ width: number; height: number }` does not read as one member.
    pub member_lists: &'static [&'static str],
    /// Sibling kinds that belong to the definition after them (Rust attributes), like decorators.
    pub attributes: &'static [&'static str],
    /// Kinds of attributes, decorators and annotations anywhere in a head: shortened first when a
    /// signature is too long, and left out of field signatures.
    pub decorations: &'static [&'static str],
    /// Starts of decorations that tell the compiler or the doc builder something and a reader of
    /// the API nothing (`#[inline]`, `#[allow(…)]`): left out of signatures.
    pub unshown: &'static [&'static str],
    /// The start of a decoration that applies others under a condition (Rust's `#[cfg_attr(cond,
    /// inline)]`, whitespace removed): left out when every decoration it applies is.
    pub conditional: Option<&'static str>,
    /// Statements that set the visibility of the definitions after them in their body (Ruby's
    /// bare `private`): such a definition's head starts with the word, as if it were written
    /// `private def x`.
    pub sections: Option<Sections>,
    /// Whether a function that declares [`FACTORY_FUNCTIONS`] functions is a module factory whose
    /// functions are listed (see `Owner::factory`): a JavaScript idiom; a Python function's
    /// closures, however many, are its detail.
    pub module_factories: bool,
    /// Whether the constants a class body assigns are listed with it, as a module's are: Ruby's,
    /// which other code names through the class (thor's `Shell::Color::CLEAR`, rack's
    /// `ShowExceptions::CONTEXT`). Elsewhere a class's constants are fields, or the locals of a
    /// function that builds a class (an ES5 class's `var`s).
    pub class_constants: bool,
    /// Whether an error over several lines after a function's parameters ends its head: Python,
    /// where nothing after the `:` is head (`def f():` and a call left open, its body found lines
    /// later). Elsewhere such an error may be the head's own (a return type, C++'s `const` on the
    /// next line).
    pub error_ends_head: bool,
    /// Whether a file with a syntax error is judged by its layout for the definitions the error
    /// hid (see `unclosed` and `unparsed`). Not C and C++: they trip the grammar on every unknown
    /// macro (`OSSL_DEPRECATEDIN_3_0 int f(…);`) and leave `extern "C" {` and namespace bodies
    /// unindented, so an error there is routine and the layout says nothing of what it hid; only
    /// their error tokens are judged.
    pub layout_judged: bool,
    /// Whether a definition at its owner's margin inside the owner's body is there only by
    /// mistake, even when it parsed as a declaration of its own (see
    /// `unparsed::folded_definitions`): Python, whose layout is its nesting, and Ruby, whose
    /// every style indents a nested `def`. Where braces make the nesting, an unindented helper in
    /// a wrapper's body is ordinary.
    pub margin_nests: bool,
    /// Whether indentation is the language's syntax (Python): nothing indented stands at file
    /// level, so a definition the parser put there after an error was cut from what holds it
    /// (see `unparsed::misplaced_definitions`).
    pub indentation_is_syntax: bool,
    /// The string kinds whose plain quotes may span lines (Rust's `"…"`, Ruby's), so that a lost
    /// quote makes code a string up to where the grammar trips (see
    /// `unparsed::swallowed_by_strings`). Elsewhere a plain string ends at its line, and a
    /// string over several lines (a template, a triple-quoted docstring) is meant as one.
    pub multiline_strings: &'static [&'static str],
    /// Modifiers (kind and text of a definition's own child) that say what is the default anyway
    /// (TypeScript's `public`): left out of signatures. A parameter's are kept (`constructor(public
    /// x)` declares a field).
    pub implied: &'static [(&'static str, &'static str)],
    /// Clauses shown as their keyword and `…` when longer than [`MAX_CLAUSE`] (Rust's `where`):
    /// bounds a caller rarely needs to read to use the definition, often longer than all the rest.
    pub abridged: &'static [&'static str],
    /// Parts of a head the signatures leave out, with the space before them.
    pub elided: &'static [&'static str],
    /// When a function's head names its parameters without their types; `None` keeps them.
    pub untyped: Option<Untyped>,
    /// Regions whose content the grammar leaves opaque but which usually hold items (a Rust
    /// macro call's token tree): parsed again on their own and walked.
    pub reparse: Option<Reparse>,
    /// At file level, the body of a function that holds a module (JavaScript's `(function () { …
    /// })()`, a universal module's factory, an AMD `define`'s function): walked as the file's own.
    pub invoked_body: Option<for<'t> fn(Node<'t>, &str) -> Option<Node<'t>>>,
    /// Where words before a definition's node start that belong to its head though the tree holds
    /// them in no node: C's macro words a second parse was given as spaces (see
    /// `macro_words::unparsed_lead`).
    pub unparsed_lead: Option<fn(Node, &str) -> Option<usize>>,
    /// A declaration's type that is a list of call signatures (TypeScript's `const f: { (a: A):
    /// B; (b: B): C }`, how a function value declares overloads): its signatures, at least two.
    /// The head shows the shortest (not a guard returning `never`) and counts the others, as a
    /// run of overloads is shown.
    pub overloads: Option<Overloads>,
    /// Kinds that may be imports; `is_import` decides (e.g. only `require` calls in Ruby).
    pub imports: &'static [&'static str],
    pub is_import: fn(Node, &str) -> bool,
    /// Leading keywords dropped from import text because every import has them (`use `, `import `).
    pub import_keywords: &'static [&'static str],
    pub constructors: Constructors,
    /// Declarations symbol search finds by every name, though the views leave out some (see
    /// [`private_fields()`]).
    pub private: &'static [Private],
}

/// A kind of declaration, private fields among them, whose names are each a definition symbol
/// search finds where the views, listing only API, leave it out.
pub(crate) struct Private {
    pub node: &'static str,
    /// Every name the declaration binds, public or not, joined by `, `.
    pub names: fn(Node, &str) -> Option<String>,
    /// What the names are; `None` when they are no definitions (a function's locals).
    pub kind: fn(Node, &str) -> Option<Kind>,
}

impl Private {
    /// Each name a `node` declares is a field.
    pub const fn fields(node: &'static str, names: fn(Node, &str) -> Option<String>) -> Private {
        Private { node, names, kind: |_, _| Some(Kind::Field) }
    }
}

/// How a node's opaque content is read as items (see [`Spec::reparse`]).
#[derive(Clone, Copy)]
pub(crate) struct Reparse {
    /// The whole region, parsed first.
    pub region: fn(Node) -> Option<tree_sitter::Range>,
    /// The region cut where its items would end; when the whole did not parse cleanly and there
    /// are several, each is parsed on its own, so one item's custom syntax (`fn f() { … } ?=
    /// null`) does not take its neighbours, or itself, down with it.
    pub parts: fn(Node) -> Vec<Part>,
    /// A region that does not parse but declares one type in a macro's own syntax (see
    /// [`macro_types`]).
    pub macro_type: for<'t> fn(Node<'t>, &tree_sitter::Range, &str) -> Option<macro_types::MacroType<'t>>,
}

/// One part of a region (see [`Reparse::parts`]).
pub(crate) struct Part {
    pub range: tree_sitter::Range,
    /// The insides of its `{ … }` groups, read as items when the part itself does not parse
    /// (`stable: { fn f() … }`: a macro's own labels around items).
    pub blocks: Vec<tree_sitter::Range>,
}

/// What a region that did not parse cleanly is read as instead.
enum Split {
    /// Its parts, as the spec cuts the node's region.
    Parts(fn(Node) -> Vec<Part>),
    /// The blocks of a part (none: the region's own tree, errors and all).
    Blocks(Vec<tree_sitter::Range>),
}

/// How much of a wrapper goes into the signature of the definition inside it.
#[derive(Clone, Copy)]
pub(crate) enum Prefix {
    /// All of the wrapper's text before the definition (decorators, `export default `, `template<T>`).
    Full,
    /// Only the wrapper's leading keyword (`const` of `const a = …, b = …`, `type` of Go's `type ( … )`).
    Keyword,
    /// Nothing: a list inside a wrapper (the specs of Go's `var ( … )`), which the wrapper's
    /// keyword still heads.
    Nothing,
}

/// See [`Spec::sections`].
pub(crate) struct Sections {
    /// The word a statement sets for the definitions after it: `Some("private")`; `Some("")` for
    /// one that sets the default again (`public`); `None` for any other statement.
    pub word: fn(Node, &str) -> Option<&'static str>,
    /// Whether the word applies to a definition (Ruby's `private` makes `def x` and `attr_reader
    /// :x` private, not `def self.x` or a class).
    pub applies_to: fn(Node, &str) -> bool,
    /// The words under which a field is no API and not listed, as other languages list only
    /// public fields (`private`, `protected`).
    pub unlisted: &'static [&'static str],
    /// The kinds of a conditional's later branches (Ruby's `elsif`, `else`, `when`): only one
    /// branch runs, so each starts in the section in force where the conditional began.
    pub branches: &'static [&'static str],
    /// A statement that gives definitions of its body, before or after it, a word by name
    /// (Ruby's `private_constant :SECRET`, `private :helper`): the word and the names, as the
    /// definitions are named (`private_class_method :build` names `self.build`).
    pub by_name: Option<ByName>,
}

/// How a method is recognised as a constructor.
pub(crate) enum Constructors {
    /// By name (`__init__`, `constructor`, `initialize`).
    Named(&'static [&'static str]),
    /// By having the owner's name (C++).
    OwnerName,
    /// The grammar has constructor nodes with their own rule (Java, C#); Rust and Go have none.
    Declared,
}

/// A definition node kind.
pub(crate) struct Rule {
    pub node: &'static str,
    pub kind: Classify,
    /// The definition's name; `None` means the node is not a definition after all.
    pub name: fn(Node, &str) -> Option<String>,
    /// Paths (`field` or child kind, `/`-separated) to the node where the head ends, tried in order;
    /// none found means the whole node is the head.
    pub head_end: &'static [&'static str],
    /// Path to the node whose children are this definition's members.
    pub members: Option<&'static str>,
    /// Finds the body where paths cannot say which it is (a JavaScript function value in
    /// parentheses or after an alias: `var f = (function () {…})`): tried before `head_end` for
    /// where the head ends, and before `members` for the members.
    pub body: Option<Body>,
    /// Member lists found outside the body: written in the head (a TypeScript class's base given a
    /// type literal: `extends TaggedError("E")<{ reason: string }>`), shown there as `{…}`,
    /// which would otherwise run them together; or given as the value (an object of methods bound
    /// to a name, after the head). Walked as members before the body's.
    pub head_members: Option<HeadMembers>,
    /// The function or class a name is bound to where its value does not show it, whose head
    /// then follows the name's and an `=` (what is between them in the source must be only
    /// that): what a function called at once returns (`var createThunk = (function () { …
    /// return function thunk(dispatch, getState) {…} })()` reads `var createThunk = function
    /// thunk(dispatch, getState)`).
    pub value_head: Option<ValueHead>,
    /// Also keep the text after the body (C's `typedef struct {…} name`).
    pub keep_tail: bool,
    /// Whether a variable's brackets are its declarator's (C's `int buf[sizeof(struct hdr) * 2]`):
    /// what they hold is shown whole while the signature fits, not emptied as a long head's types
    /// are (`buf[sizeof(…) * (…)]` said neither the size nor what it is counted in).
    pub declarators: bool,
    /// Names the type a method belongs to when it is declared outside it (Go receivers).
    pub receiver: Option<fn(Node, &str) -> Option<String>>,
    /// Names the function or class a definition written outside it belongs to (JavaScript's
    /// `Emitter.VERSION = '1.0'`): one at the file's top level is listed under it when the file
    /// defines it there as a function or class, and is no definition otherwise (a bundle assigns
    /// properties to its objects by the thousand). Walked as a class's members (what a wrapper
    /// assigns to the class it returns), it is the class's; inside anything else, nothing.
    pub owned_by: Option<fn(Node, &str) -> Option<String>>,
    /// A field the node must have to be a definition (`body` for C's `struct` specifiers).
    pub requires: Option<&'static str>,
    /// The initial values in a field declaration (`= 3` of `public int a = 3, b;`), left out of
    /// its signature.
    pub initializers: Option<Initializers>,
    /// What statements in the members' body say about the definition itself, shown after its
    /// head in parentheses: a Ruby class's mixins (`class Version < Base (include Comparable)`),
    /// which are part of its API as its bases are.
    pub body_notes: Option<BodyNotes>,
    /// Whether the node implements the overload signatures written just before it (TypeScript's
    /// `function pick(a: string): string;` … `function pick(a: any) {…}`): callers see only the
    /// signatures, so the implementation is no overload and no line of its own; its lines end
    /// the run's.
    pub implements_overloads: Option<fn(Node, &str) -> bool>,
}

/// Reads a definition's members' body for its [`Rule::body_notes`].
pub(crate) type BodyNotes = fn(Node, &str) -> Option<String>;

/// Byte ranges of the initial values in a field declaration.
pub(crate) type Initializers = fn(Node) -> Vec<Range<usize>>;

/// How a rule decides its [`Kind`].
#[derive(Clone, Copy)]
pub(crate) enum Classify {
    Is(Kind),
    /// Decided by looking at the node; `None` means it is not a definition.
    By(fn(Node, &str) -> Option<Kind>),
}

impl Rule {
    /// A rule named by the `name` field whose head ends at the `body` field.
    pub const fn new(node: &'static str, kind: Kind) -> Rule {
        Rule::by(node, Classify::Is(kind))
    }

    pub const fn classify(node: &'static str, classify: fn(Node, &str) -> Option<Kind>) -> Rule {
        Rule::by(node, Classify::By(classify))
    }

    const fn by(node: &'static str, kind: Classify) -> Rule {
        Rule {
            node,
            kind,
            name: name_field,
            head_end: &["body"],
            members: None,
            body: None,
            head_members: None,
            value_head: None,
            keep_tail: false,
            declarators: false,
            receiver: None,
            owned_by: None,
            requires: None,
            initializers: None,
            body_notes: None,
            implements_overloads: None,
        }
    }

    pub const fn named(self, name: fn(Node, &str) -> Option<String>) -> Rule {
        Rule { name, ..self }
    }

    pub const fn head_end(self, head_end: &'static [&'static str]) -> Rule {
        Rule { head_end, ..self }
    }

    /// The whole node is the head (declarations without a body).
    pub const fn whole(self) -> Rule {
        self.head_end(&[])
    }

    pub const fn members(self, path: &'static str) -> Rule {
        Rule { members: Some(path), ..self }
    }

    pub const fn body(self, body: Body) -> Rule {
        Rule { body: Some(body), ..self }
    }

    pub const fn head_members(self, head_members: HeadMembers) -> Rule {
        Rule { head_members: Some(head_members), ..self }
    }

    pub const fn value_head(self, value_head: ValueHead) -> Rule {
        Rule { value_head: Some(value_head), ..self }
    }

    pub const fn keep_tail(self) -> Rule {
        Rule { keep_tail: true, ..self }
    }

    pub const fn declarators(self) -> Rule {
        Rule { declarators: true, ..self }
    }

    pub const fn receiver(self, receiver: fn(Node, &str) -> Option<String>) -> Rule {
        Rule { receiver: Some(receiver), ..self }
    }

    pub const fn owned_by(self, owned_by: fn(Node, &str) -> Option<String>) -> Rule {
        Rule { owned_by: Some(owned_by), ..self }
    }

    pub const fn requires(self, field: &'static str) -> Rule {
        Rule { requires: Some(field), ..self }
    }

    pub const fn initializers(self, initializers: Initializers) -> Rule {
        Rule { initializers: Some(initializers), ..self }
    }

    pub const fn implements_overloads(self, implements_overloads: fn(Node, &str) -> bool) -> Rule {
        Rule { implements_overloads: Some(implements_overloads), ..self }
    }

    pub const fn body_notes(self, body_notes: BodyNotes) -> Rule {
        Rule { body_notes: Some(body_notes), ..self }
    }
}

/// The node whose children are a definition's members (see [`Rule::body`], [`Rule::members`]).
fn members<'t>(rule: &Rule, node: Node<'t>) -> Option<Node<'t>> {
    rule.body.and_then(|body| body(node)).or_else(|| rule.members.and_then(|path| find_path(node, path)))
}

/// The text of the `name` field.
pub(crate) fn name_field(node: Node, source: &str) -> Option<String> {
    field_text(node, "name", source)
}

/// The target of an assignment or `type X = …` (the `left` field).
pub(crate) fn left_side(node: Node, source: &str) -> Option<String> {
    field_text(node, "left", source)
}

pub(crate) fn field_text(node: Node, field: &str, source: &str) -> Option<String> {
    node.child_by_field_name(field).map(|n| node_text(n, source).to_string())
}

/// The text of the first named child (for nodes whose name has no field, like Java's `package`).
pub(crate) fn first_named_child_text(node: Node, source: &str) -> Option<String> {
    node.named_child(0).map(|n| node_text(n, source).to_string())
}

/// The statement before `statement`, comments passed over: what a function's overload
/// signatures are looked for in (see [`Rule::implements_overloads`]).
pub(crate) fn previous_statement(statement: Node) -> Option<Node> {
    let mut previous = statement.prev_named_sibling();
    while let Some(comment) = previous.filter(|previous| previous.kind() == "comment") {
        previous = comment.prev_named_sibling();
    }
    previous
}

/// Accepts every candidate import node.
pub(crate) fn always(_: Node, _: &str) -> bool {
    true
}

/// Follows a `/`-separated path where each step is a field name or, failing that, the kind of a
/// direct child (named or not, so `{` and `end` work).
pub(crate) fn find_path<'t>(node: Node<'t>, path: &str) -> Option<Node<'t>> {
    path.split('/').try_fold(node, |current, step| {
        current.child_by_field_name(step).or_else(|| {
            let mut cursor = current.walk();
            current.children(&mut cursor).find(|child| child.kind() == step)
        })
    })
}

/// What stands in front of a definition and belongs to it.
struct Lead<'a, 't> {
    /// Attribute siblings just before it (Rust's `#[derive(…)]`).
    attributes: &'a [Node<'t>],
    /// Enclosing wrappers, outermost first.
    wrappers: &'a [Node<'t>],
    /// The visibility a statement before it in its body gave it (see [`Spec::sections`]).
    section: &'static str,
    /// Where the words before it that no node holds start (see [`Spec::unparsed_lead`]).
    unparsed: Option<usize>,
}

/// The enclosing definition, for classifying what is declared inside it.
#[derive(Clone, Copy)]
struct Owner<'a> {
    kind: Kind,
    name: &'a str,
    /// A function whose body declares at least [`FACTORY_FUNCTIONS`] functions: a module built by
    /// a call (lodash's `runInContext`), whose declared functions are its API.
    factory: bool,
}

struct Walker<'s> {
    spec: &'static Spec,
    language: Language,
    comments: &'static [&'static str],
    source: &'s str,
    imports: Vec<Import>,
    /// Methods declared outside their type, with the type's name, attached after the walk.
    detached: Vec<(String, Definition)>,
    /// Definitions a rule names an owner for ([`Rule::owned_by`]), attached after the walk or
    /// dropped.
    owned: Vec<Owned>,
    heads: Vec<(u32, u32)>,
    declarations: Vec<u32>,
    region_errors: Vec<(u32, u32)>,
    failed_regions: Vec<(u32, u32)>,
    /// File-level code read again as items that gave none (see [`Outline::unlisted`]).
    unlisted: Vec<(u32, u32)>,
    /// Bytes that may still be parsed again (see [`Walker::walk_region`]).
    reparse_budget: usize,
    /// The member lists in the head being written ([`Rule::head_members`]), shown as `{…}`.
    head_members: Vec<Range<usize>>,
    /// The visibility the body being walked gives what follows (see [`Spec::sections`]); a
    /// wrapper walked inside the body keeps it (`private` then `memoize def x`).
    section: &'static str,
    /// The words statements of the body being walked give its definitions by name (see
    /// [`Sections::by_name`]).
    named_sections: HashMap<Cow<'s, str>, &'static str>,
}

impl<'s> Walker<'s> {
    fn run(spec: &'static Spec, language: Language, root: Node, source: &'s str) -> Walked {
        let mut walker = Walker {
            spec,
            language,
            comments: language.lexical().comments,
            source,
            imports: Vec::new(),
            detached: Vec::new(),
            owned: Vec::new(),
            heads: Vec::new(),
            declarations: Vec::new(),
            region_errors: Vec::new(),
            failed_regions: Vec::new(),
            unlisted: Vec::new(),
            reparse_budget: REPARSE_FACTOR * source.len(),
            head_members: Vec::new(),
            section: "",
            named_sections: HashMap::new(),
        };
        let mut items = Vec::new();
        walker.walk(root, None, &[], 0, &mut items);
        attach_detached(&mut items, std::mem::take(&mut walker.detached));
        let (heads, declarations) = attach_owned(&mut items, std::mem::take(&mut walker.owned));
        walker.heads.extend(heads);
        walker.declarations.extend(declarations);
        Walked {
            imports: walker.imports,
            items,
            heads: walker.heads,
            declarations: walker.declarations,
            region_errors: walker.region_errors,
            failed_regions: walker.failed_regions,
            unlisted: walker.unlisted,
            unlisted_keys: UnlistedKeys::default(),
        }
    }

    /// Collects the definitions among `parent`'s named children into `out`.
    ///
    /// `wrappers` are the wrapper nodes between the nearest definition/pass-through ancestor and
    /// `parent` (inclusive), outermost first.
    fn walk(&mut self, parent: Node, owner: Option<Owner>, wrappers: &[Node], depth: usize, out: &mut Vec<Definition>) {
        if depth > MAX_DEPTH {
            return;
        }
        let mut attributes = Vec::new();
        // A body starts without a section; a wrapper's inside is in its body's, and so is a
        // transparent node's (Ruby's `private` then `if … def x … end`: `x` is private).
        let outer_section = self.section;
        let transparent = self.spec.transparent.contains(&parent.kind());
        let body = wrappers.is_empty() && !transparent;
        let outer_named = match body {
            true => {
                let named = self.named_sections_of(parent);
                Some(std::mem::replace(&mut self.named_sections, named))
            }
            false => None,
        };
        if body {
            self.section = "";
        }
        // The section the last branch of a conditional that set one left (see
        // `Sections::branches`).
        let mut set_in_branch = None;
        let branches = self.spec.sections.as_ref().map_or(&[][..], |sections| sections.branches);
        let mut cursor = parent.walk();
        for child in parent.named_children(&mut cursor) {
            let kind = child.kind();
            if transparent && branches.contains(&kind) {
                if self.section != outer_section {
                    set_in_branch = Some(self.section);
                }
                self.section = outer_section;
            }
            if let Some(word) = self.spec.sections.as_ref().and_then(|sections| (sections.word)(child, self.source)) {
                self.section = word;
                continue;
            }
            if self.spec.attributes.contains(&kind) {
                attributes.push(child);
                continue;
            }
            if self.comments.contains(&kind) {
                continue;
            }
            let attributes = std::mem::take(&mut attributes);
            if owner.is_none() && self.spec.imports.contains(&kind) && (self.spec.is_import)(child, self.source) {
                self.push_import(child);
                continue;
            }
            if owner.is_none()
                && let Some(body) = self.spec.invoked_body.and_then(|invoked_body| invoked_body(child, self.source))
            {
                self.walk(body, owner, &[], depth + 1, out);
                continue;
            }
            // A macro call in a function's body is code (`println!`, `assert_eq!`), not a group
            // of items: only the types the body itself declares are outlined.
            if let Some(reparse) = self.spec.reparse
                && !owner.is_some_and(|owner| owner.kind.is_function())
                && let Some(region) = (reparse.region)(child)
            {
                let found = (out.len(), self.imports.len());
                self.walk_region(child, region, Split::Parts(reparse.parts), owner, depth, out);
                // A file-level call, or one a file-level statement is (`varint!(u32, uint32);`),
                // that gave no item and no import is code the outline cannot see into.
                let statement = match depth {
                    0 => Some(child),
                    1 if transparent && parent.parent().is_some_and(|file| file.parent().is_none()) => {
                        Some(parent).filter(|parent| parent.named_child(0) == Some(child))
                    }
                    _ => None,
                };
                if let Some(statement) = statement
                    && (out.len(), self.imports.len()) == found
                {
                    self.unlisted.push(node_lines(statement, self.source));
                }
                continue;
            }
            let applies = self.spec.sections.as_ref().is_some_and(|sections| (sections.applies_to)(child, self.source));
            let section = if applies { self.section } else { "" };
            let lead = Lead { attributes: &attributes, wrappers, section, unparsed: None };
            // Several rules may take one kind: the first that defines the node wins.
            let spec = self.spec;
            let mut rules = spec.rules.iter().filter(|rule| rule.node == kind);
            let marks = (self.heads.len(), self.declarations.len());
            if let Some((rule, definition)) =
                rules.find_map(|rule| Some((rule, self.define(child, rule, owner, &lead, depth)?)))
            {
                if let Some(owned_by) = rule.owned_by.filter(|_| owner.is_none()) {
                    // Its lines count as a listed head only once it is attached.
                    let (heads, declarations) = (self.heads.split_off(marks.0), self.declarations.split_off(marks.1));
                    if let Some(owner) = owned_by(child, self.source) {
                        self.owned.push(Owned { owner, definition, heads, declarations });
                    }
                    continue;
                }
                // The signatures it implements were just outlined (a body's nested definitions
                // would have no line to go under: such an implementation keeps its own).
                let implemented = rule.implements_overloads.is_some_and(|implements| implements(child, self.source))
                    && definition.children.is_empty();
                let signature = out
                    .last_mut()
                    .filter(|last| implemented && last.kind == definition.kind && last.name == definition.name);
                if let Some(signature) = signature {
                    signature.end_line = definition.end_line;
                    continue;
                }
                match rule.receiver.and_then(|receiver| receiver(child, self.source)) {
                    Some(receiver) if owner.is_none() => self.detached.push((receiver, definition)),
                    _ if definition.kind == Kind::Field => out.extend(each_field(definition)),
                    _ => out.push(definition),
                }
                continue;
            }
            if self.spec.wrappers.iter().any(|(wrapper, _)| *wrapper == kind) {
                let mut inner = wrappers.to_vec();
                inner.push(child);
                self.walk(child, owner, &inner, depth + 1, out);
            } else if self.spec.transparent.contains(&kind) || child.is_error() {
                // What the parser recognised inside an error is outlined like anything else.
                self.walk(child, owner, &[], depth + 1, out);
            }
        }
        if let Some(outer_named) = outer_named {
            self.named_sections = outer_named;
        }
        // A conditional opens no scope: a bare `private` in it holds past its `end`, as Ruby
        // runs it. A wrapper's section and a body's end with them.
        match transparent {
            true if self.section == outer_section => self.section = set_in_branch.unwrap_or(outer_section),
            true => {}
            false => self.section = outer_section,
        }
    }

    /// The words the statements of `body` give its definitions by name, looking through
    /// transparent kinds (see [`Sections::by_name`]).
    /// A name given twice keeps the word found last, as in Ruby the last call decides (`private
    /// :x` then `public :x`: public). Looked up once
    /// per definition: a map, since a Ruby class may name thousands (`private :m1` …).
    fn named_sections_of(&self, body: Node) -> HashMap<Cow<'s, str>, &'static str> {
        let Some(by_name) = self.spec.sections.as_ref().and_then(|sections| sections.by_name) else {
            return HashMap::new();
        };
        let mut named = HashMap::new();
        let mut pending = vec![(body, 0)];
        while let Some((node, depth)) = pending.pop() {
            let mut cursor = node.walk();
            for statement in node.named_children(&mut cursor) {
                if let Some((word, names)) = by_name(statement, self.source) {
                    named.extend(names.into_iter().map(|name| (name, word)));
                } else if depth < MAX_DEPTH && self.spec.transparent.contains(&statement.kind()) {
                    pending.push((statement, depth + 1));
                }
            }
        }
        named
    }

    /// Walks `region` of `node` parsed on its own, as if its items stood where `node` does. Macro
    /// input need not be Rust, so its syntax errors are common; like the file's own, they are
    /// named only where a definition may be hidden (`ffi_fn! { fn f() { … } ?= null }`).
    ///
    /// Nested calls are parsed once per level, so the bytes parsed again are capped at a few
    /// times the file: past that, or past the nesting limit, the region is named as not parsed.
    ///
    /// When the region has errors: a type declared in a macro's own syntax is read from its tokens
    /// ([`macro_types`]); else when `split` cuts it in several parts, each part is parsed and
    /// walked on its own instead; a part with errors (or a region of one part) gives way to its
    /// blocks.
    fn walk_region(
        &mut self,
        node: Node,
        region: tree_sitter::Range,
        split: Split,
        owner: Option<Owner>,
        depth: usize,
        out: &mut Vec<Definition>,
    ) {
        let size = region.end_byte - region.start_byte;
        if size > self.reparse_budget || depth >= MAX_DEPTH {
            self.failed_regions.push(node_lines(node, self.source));
            return;
        }
        self.reparse_budget -= size;
        match parse::parse_region(self.language, self.source, region) {
            Ok(tree) => {
                if tree.root_node().has_error() {
                    if let Some(reparse) = self.spec.reparse
                        && let Some(declared) = (reparse.macro_type)(node, &region, self.source)
                    {
                        let definition = self.macro_type_definition(node, &declared);
                        out.push(definition);
                        return;
                    }
                    let split = match split {
                        Split::Parts(parts_of) => {
                            let mut parts = parts_of(node);
                            if parts.len() > 1 {
                                for part in parts {
                                    self.walk_region(node, part.range, Split::Blocks(part.blocks), owner, depth, out);
                                }
                                return;
                            }
                            // One part is the region itself: `dispatch!(m, Mach, { fn f() … })`.
                            Split::Blocks(parts.pop().map(|part| part.blocks).unwrap_or_default())
                        }
                        blocks => blocks,
                    };
                    if let Split::Blocks(blocks) = split
                        && !blocks.is_empty()
                        && !self.defines_around(tree.root_node(), &blocks)
                    {
                        // The blocks' items, read cleanly, come first (`stable: { pub fn f() … }`
                        // keeps its `pub`); a part whose blocks hold none is read as the parser
                        // recovered it (proptest's `fn f(x in 0..9) { … }` is still a function).
                        let marks = (self.region_errors.len(), self.failed_regions.len());
                        let mut found = Vec::new();
                        for block in blocks {
                            self.walk_region(node, block, Split::Blocks(Vec::new()), owner, depth, &mut found);
                        }
                        if !found.is_empty() {
                            out.append(&mut found);
                            return;
                        }
                        self.region_errors.truncate(marks.0);
                        self.failed_regions.truncate(marks.1);
                    }
                }
                self.walk(tree.root_node(), owner, &[], depth + 1, out);
                self.region_errors.extend(unparsed::error_lines(&tree, self.source));
            }
            Err(_) => self.failed_regions.push(node_lines(node, self.source)),
        }
    }

    /// Whether the parser, recovering from errors, still read a definition around every block
    /// (petgraph's `trait_template! { pub trait GraphBase { @escape [type NodeId] … } }` is a
    /// trait whose body holds markers of the macro's own): the blocks' items alone would lose it.
    fn defines_around(&self, root: Node, blocks: &[tree_sitter::Range]) -> bool {
        blocks.iter().all(|block| {
            let mut node = root.descendant_for_byte_range(block.start_byte, block.end_byte);
            while let Some(current) = node {
                if self.spec.rules.iter().any(|rule| rule.node == current.kind()) {
                    return true;
                }
                node = current.parent();
            }
            false
        })
    }

    /// A type declared in a macro's syntax; a flags type's flags are its fields: `pub struct Flags:
    /// u32 { const A; const B }`, or their names when they are many.
    fn macro_type_definition(&mut self, within: Node, declared: &macro_types::MacroType) -> Definition {
        let mut head = Head::for_type();
        for attribute in declared.attributes.iter().filter(|attribute| self.shown((*attribute).clone())) {
            self.push_code(&mut head, Role::Decoration, within, attribute.clone());
            head.push(Role::Core, " ");
        }
        self.push_code(&mut head, Role::Core, within, declared.head.clone());
        let (line, _, written) = head.lines();
        let start_line = node_lines(declared.first, self.source).0;
        let head_line = node_lines(declared.head_start, self.source).0;
        let (body_line, end_line) = node_lines(declared.last, self.source);
        self.heads.push((start_line, body_line));
        let children = declared
            .flags
            .iter()
            .map(|flag| Definition {
                kind: Kind::Field,
                name: flag.name.clone(),
                signature: if flag.constant { format!("const {}", flag.name) } else { flag.name.clone() },
                uncut: None,
                start_line: node_lines(flag.first, self.source).0,
                head_line: node_lines(flag.head, self.source).0,
                end_line: node_lines(flag.last, self.source).1,
                children: Vec::new(),
                hidden_fields: 0,
            })
            .collect();
        Definition {
            kind: declared.kind,
            name: declared.name.clone(),
            uncut: (written != line).then_some(written),
            signature: line,
            start_line,
            head_line,
            end_line,
            children,
            hidden_fields: 0,
        }
    }

    fn push_import(&mut self, node: Node) {
        let text = collapse_code(node_text(node, self.source));
        let text = text.trim_end_matches(';').trim_end();
        let text = self.spec.import_keywords.iter().find_map(|keyword| text.strip_prefix(keyword)).unwrap_or(text);
        let (line, end_line) = node_lines(node, self.source);
        // Whole: the module a long statement names comes last in some languages (`import { a, …
        // } from './x'`), and the names of a Rust group are the modules the map lists.
        self.imports.push(Import { text: text.to_string(), line, end_line });
    }

    fn define(
        &mut self,
        node: Node,
        rule: &Rule,
        owner: Option<Owner>,
        lead: &Lead,
        depth: usize,
    ) -> Option<Definition> {
        if rule.requires.is_some_and(|field| node.child_by_field_name(field).is_none()) {
            return None;
        }
        if rule.owned_by.is_some() && owner.is_some_and(|owner| owner.kind != Kind::Class) {
            return None;
        }
        let kind = match rule.kind {
            Classify::Is(kind) => kind,
            Classify::By(classify) => classify(node, self.source)?,
        };
        // A list of names (`from .core import A as A, B as B`, `MIN, MAX = 1, 9`) is each name a
        // symbol is searched by and a view lists: cut, it would lose some and garble one.
        let name = collapse(&(rule.name)(node, self.source)?);
        let name = if several_names(&name).is_some() { name } else { truncate(name, MAX_SIGNATURE) };
        if name.is_empty() {
            return None;
        }
        // A statement naming the definition says its visibility wherever it stands in the body.
        let named = self.named_sections.get(name.as_str());
        let unparsed = self.spec.unparsed_lead.and_then(|unparsed_lead| unparsed_lead(node, self.source));
        let lead = &Lead { section: named.map_or(lead.section, |word| word), unparsed, ..*lead };
        let unlisted = self.spec.sections.as_ref().is_some_and(|sections| sections.unlisted.contains(&lead.section));
        if kind == Kind::Field && unlisted {
            return None;
        }
        // Constants and statics are outline-worthy at file or module level, and as associated
        // constants of a Rust impl or trait (`Interest::READABLE`) or of a Ruby class (see
        // [`Spec::class_constants`]); inside other classes and functions they are detail.
        let api_level = |owner: Owner| {
            matches!(owner.kind, Kind::Module | Kind::Impl | Kind::Trait)
                || (self.spec.class_constants && owner.kind == Kind::Class)
        };
        if matches!(kind, Kind::Const | Kind::Variable) && owner.is_some_and(|o| !api_level(o)) {
            return None;
        }
        // Inside a function (or method) only the types it declares are outlined, with a Rust
        // function's traits and the impls that give its types their methods, and a factory's
        // function declarations; its other helpers are detail.
        let declares_type = matches!(
            kind,
            Kind::Class | Kind::Interface | Kind::Enum | Kind::Struct | Kind::TypeAlias | Kind::Trait | Kind::Impl
        );
        let factory_function = owner.is_some_and(|o| o.factory) && self.is_function_declaration(node);
        let in_function = owner.is_some_and(|o| matches!(o.kind, Kind::Function | Kind::Method | Kind::Constructor));
        if in_function && !declares_type && !factory_function {
            return None;
        }
        let kind = match (kind, owner) {
            (Kind::Function, Some(owner)) if owner.kind.owns_methods() => Kind::Method,
            (kind, _) => kind,
        };
        let kind = if kind == Kind::Method && self.is_constructor(&name, owner) { Kind::Constructor } else { kind };
        // Where the head ends: the body, or what the rule names instead.
        let own_body = rule.body.and_then(|body| body(node));
        let body = own_body.or_else(|| rule.head_end.iter().find_map(|path| find_path(node, path)));
        let head_members = rule.head_members.map_or_else(Vec::new, |lists| lists(node, self.source));
        self.head_members = head_members.iter().map(Node::byte_range).collect();
        let (signature, uncut) = self.signature(node, rule, body, kind, &name, lead);
        self.head_members.clear();
        // The lines a head left open took in are another definition's, which its signature left
        // out: named, whether or not the parser put an error token on them.
        let head_end = self.head_end(node, body);
        if let Some(taken) = self.taken_in(node, head_end) {
            let last = self.source[..head_end].trim_end().len().max(taken + 1);
            self.failed_regions.push((self.line_in(node, taken), self.line_in(node, last - 1)));
        }
        let (node_line, end_line) = node_lines(node, self.source);
        // The line that names it, past the annotations the grammar puts inside the node (Java's
        // `@Override`, C#'s `[HttpGet]`): what a symbol points at.
        let head_line = line_number(declaration_start(node).start_position().row);
        // Attributes, decorators and `export` in front belong to the definition's span.
        let first = lead.attributes.first().copied().or_else(|| self.full_wrappers(lead.wrappers).next());
        let start_line = first.map_or(node_line, |first| node_lines(first, self.source).0);
        let above = |start: usize| self.source[start..node.start_byte()].matches('\n').count();
        let above = lead.unparsed.map_or(0, |start| u32::try_from(above(start)).unwrap_or(u32::MAX));
        let start_line = start_line.min(node_line.saturating_sub(above));
        let members = members(rule, node);
        // The head ends where the body or the members begin (an object's methods are not its
        // head: an error among them may hide one).
        let inner = body.or(members).or_else(|| head_members.first().copied());
        let head_last = inner.map_or(end_line, |inner| line_number(inner.start_position().row));
        let head_last =
            self.swallowing_error(node).map_or(head_last, |error| head_last.min(node_lines(error, self.source).0));
        self.heads.push((start_line, head_last.max(start_line)));
        self.declarations.push(head_line);
        let mut children = Vec::new();
        let bodies = head_members.into_iter().chain(members);
        for body in bodies {
            let factory = self.spec.module_factories
                && kind == Kind::Function
                && self.function_declarations(body) >= FACTORY_FUNCTIONS;
            self.walk(body, Some(Owner { kind, name: &name, factory }), &[], depth + 1, &mut children);
        }
        Some(Definition { kind, name, signature, uncut, start_line, head_line, end_line, children, hidden_fields: 0 })
    }

    /// Whether `node` is a function declaration statement (not a function value bound to a name,
    /// which inside a function is usually a callback or a handler): a node whose rule makes it a
    /// function unconditionally (JavaScript's `function f() {…}`, TypeScript's overload heads).
    fn is_function_declaration(&self, node: Node) -> bool {
        self.spec.rules.iter().any(|rule| rule.node == node.kind() && matches!(rule.kind, Classify::Is(Kind::Function)))
    }

    /// How many function declarations `body` holds at its own level. Those the parser left inside
    /// an error are not counted, though the walk still lists them: a broken factory may fall
    /// below the threshold and read as an ordinary function.
    fn function_declarations(&self, body: Node) -> usize {
        let mut cursor = body.walk();
        body.named_children(&mut cursor).filter(|child| self.is_function_declaration(*child)).count()
    }

    fn full_wrappers<'w, 't>(&self, wrappers: &'w [Node<'t>]) -> impl Iterator<Item = Node<'t>> + 'w {
        let spec = self.spec;
        wrappers.iter().copied().filter(move |wrapper| matches!(prefix_of(spec, *wrapper), Some(Prefix::Full)))
    }

    fn is_constructor(&self, name: &str, owner: Option<Owner>) -> bool {
        match self.spec.constructors {
            Constructors::Named(names) => names.contains(&name),
            // A type declared with a member of it is named by both, itself first (`hdr, h`).
            Constructors::OwnerName => owner.is_some_and(|owner| owner.name.split(", ").next() == Some(name)),
            Constructors::Declared => false,
        }
    }

    /// The definition's signature line, and its whole head when the signature shortened it.
    fn signature(
        &self,
        node: Node,
        rule: &Rule,
        body: Option<Node>,
        kind: Kind,
        name: &str,
        lead: &Lead,
    ) -> (String, Option<String>) {
        let head_end = self.head_end(node, body);
        let head_end = self.taken_in(node, head_end).unwrap_or(head_end);
        let section = match lead.section {
            "" => String::new(),
            word => format!("{word} "),
        };
        if kind == Kind::Field {
            // A field's own signature, after what its section and wrappers say (Ruby's `private
            // attr_reader :secret`).
            let mut prefix = Head::default();
            prefix.push(Role::Core, &section);
            self.push_wrappers(&mut prefix, lead.wrappers, node);
            let field = self.field_signature(node, rule, head_end, name);
            return match prefix.line() {
                prefix if prefix.is_empty() => (field, None),
                prefix => (format!("{prefix} {field}"), None),
            };
        }
        let declares_members = matches!(kind, Kind::Interface | Kind::Class | Kind::Struct | Kind::Trait);
        let declarator = rule.declarators && matches!(kind, Kind::Variable | Kind::Const);
        let mut head = if declares_members || declarator { Head::for_type() } else { Head::untyped(self.spec.untyped) };
        head.push(Role::Core, &section);
        if let Some(start) = lead.unparsed {
            head.push(Role::Decoration, &collapse(&self.source[start..node.start_byte()]));
            head.push(Role::Core, " ");
        }
        // Decorators inside a wrapper (`@Component(…) export class`) come with its prefix.
        let in_wrapper = |attribute: &Node| {
            lead.wrappers.iter().any(|wrapper| wrapper.byte_range().contains(&attribute.start_byte()))
        };
        for attribute in lead.attributes.iter().filter(|attribute| !in_wrapper(attribute)) {
            if self.shown(attribute.byte_range()) {
                self.push_code(&mut head, Role::Decoration, *attribute, attribute.byte_range());
                head.push(Role::Core, " ");
            }
        }
        self.push_wrappers(&mut head, lead.wrappers, node);
        // Only a small node can collapse to a short line; a huge table is not even looked at. An
        // object of methods is not a value to show: its methods are listed as its members.
        let valued = matches!(kind, Kind::Const | Kind::Variable) && self.head_members.is_empty();
        if valued && node.byte_range().len() <= 4 * SHORT_VALUE {
            let mut valued = head.clone();
            self.push_split(&mut valued, node, node.byte_range());
            // Judged before its brackets were emptied: attrs' `Attribute = _add_hash(_add_eq(…),
            // attrs=[…])` showed a value its neighbours `Factory = _add_hash(…)` did not, only
            // because a longer value is emptied more.
            let (line, whole, written) = valued.lines();
            if whole.chars().count() <= SHORT_VALUE {
                return (line.clone(), (written != line).then_some(written));
            }
        }
        let core_end = core_end(node).unwrap_or(head_end).clamp(node.start_byte(), head_end);
        // Decorations come before the name; those inside the parameters are part of them.
        let named_at = node.child_by_field_name("name").map_or(core_end, |name| name.start_byte());
        let named_at = named_at.clamp(node.start_byte(), core_end);
        let mut position = node.start_byte();
        for implied in self.implied(node).into_iter().filter(|implied| implied.end <= named_at) {
            self.push_split(&mut head, node, position..implied.start);
            position = implied.end;
        }
        // The parentheses a value is wrapped in open in the head and close after the body
        // (`var runInContext = (function runInContext(context) {…})`): left out.
        let wrappers = wrapper_parentheses(node, body, position..head_end);
        for part in unwrapped(position..named_at, &wrappers) {
            self.push_split(&mut head, node, part);
        }
        for part in unwrapped(named_at..core_end, &wrappers) {
            self.push_code(&mut head, Role::Core, node, part);
        }
        // Only a list after the parameters: `const f: {…} = function(a, b) {…}` has its own.
        let overloads = self.spec.overloads.and_then(|overloads| overloads(node)).unwrap_or_default();
        let list = overloads.first().and_then(|first| first.parent()).filter(|list| list.start_byte() >= core_end);
        let shortest = overloads.iter().min_by_key(|signature| {
            let text = collapse(node_text(**signature, self.source));
            (rejects_calls(&text), text.len())
        });
        let value = rule.value_head.and_then(|value_head| value_head(node, self.source));
        match (list, shortest) {
            (Some(list), Some(shortest)) => {
                // The list's braces are where the shortest signature goes; an interface's keeps
                // them, being a body.
                let braces = node.kind() == "interface_declaration";
                self.push_code(&mut head, Role::Tail, node, core_end..list.start_byte());
                if braces {
                    head.push(Role::Tail, "{ ");
                }
                self.push_code(&mut head, Role::Tail, node, shortest.byte_range());
                if overloads.len() > 1 {
                    head.push(Role::Tail, &format!(" (+{} more)", overloads.len() - 1));
                }
                if braces {
                    head.push(Role::Tail, " }");
                }
            }
            // The value a rule names stands for what is after the name, which is only `=` there
            // (see `Rule::value_head`): the `=` is written as core, so that shortening a long
            // tail cannot move it behind the value's own tail.
            _ if value.is_some() => head.push(Role::Core, " = "),
            _ => {
                for part in unwrapped(core_end..head_end, &wrappers) {
                    self.push_code(&mut head, Role::Tail, node, part);
                }
            }
        }
        if let Some(value) = value {
            // Its parameters are the definition's, as a function's own are; the rest is its tail.
            let value_end = value.child_by_field_name("body").map_or(value.end_byte(), |body| body.start_byte());
            let value_core_end =
                self::core_end(value).unwrap_or(value.start_byte()).clamp(value.start_byte(), value_end);
            self.push_code(&mut head, Role::Core, value, value.start_byte()..value_core_end);
            self.push_code(&mut head, Role::Tail, value, value_core_end..value_end);
        }
        if rule.keep_tail
            && let Some(body) = body
        {
            // C's `typedef struct {…} name`: the name comes after the body. A variable's initial
            // value (`struct entry {…} table[] = { … };`, often a table of many lines) is no
            // part of what is declared, and is left out with its `=`.
            head.push(Role::Core, " ");
            let mut start = body.end_byte();
            let mut cursor = node.walk();
            let declarators: Vec<Node> = node.children_by_field_name("declarator", &mut cursor).collect();
            for value in declarators.iter().filter_map(|declarator| declarator.child_by_field_name("value")) {
                let before = self.source[..value.start_byte()].trim_end().trim_end_matches('=').trim_end().len();
                self.push_code(&mut head, Role::Core, node, start..before.max(start));
                start = value.end_byte();
            }
            self.push_code(&mut head, Role::Core, node, start..node.end_byte());
        }
        let notes = rule.body_notes.zip(members(rule, node)).and_then(|(notes, body)| notes(body, self.source));
        if let Some(notes) = notes {
            head.push(Role::Tail, &format!(" ({notes})"));
        }
        let (line, whole, written) = head.lines();
        let (line, whole, written) = match kind {
            Kind::TypeAlias => (without_leading_bar(line), without_leading_bar(whole), without_leading_bar(written)),
            _ => (line, whole, written),
        };
        // Shortened from the whole line: the line may already be cut inside the value's brackets.
        let line = match kind == Kind::TypeAlias && line.chars().count() > MAX_TYPE_ALIAS {
            true => Some(shorten_alias(&whole, MAX_TYPE_ALIAS))
                .filter(|short| short.chars().count() < line.chars().count())
                .unwrap_or(line),
            false => line,
        };
        let uncut = (written != line).then_some(written);
        (line, uncut)
    }

    /// The error over several lines after a function's parameters (a class's bases or name)
    /// that ends its head, in a language where it does ([`Spec::error_ends_head`]).
    fn swallowing_error<'t>(&self, node: Node<'t>) -> Option<Node<'t>> {
        if !self.spec.error_ends_head {
            return None;
        }
        let after =
            ["parameters", "superclasses", "name"].iter().find_map(|field| node.child_by_field_name(field))?.end_byte();
        let mut cursor = node.walk();
        node.children(&mut cursor).find(|child| {
            child.is_error() && child.start_position().row < child.end_position().row && child.start_byte() >= after
        })
    }

    /// The 1-based line holding byte `at` of the source, at or after `node`'s start (counted from
    /// there: a file of thousands of definitions is not scanned from its top for each).
    fn line_in(&self, node: Node, at: usize) -> u32 {
        let bytes = self.source.as_bytes().get(node.start_byte()..at).unwrap_or_default();
        line_number(node.start_position().row + bytes.iter().filter(|&&b| b == b'\n').count())
    }

    /// Where `node`'s head ends, before its body (or the error that swallowed the rest).
    fn head_end(&self, node: Node, body: Option<Node>) -> usize {
        let swallowed = self.swallowing_error(node).map(|error| error.start_byte());
        body.map_or(node.end_byte(), |b| b.start_byte()).min(swallowed.unwrap_or(usize::MAX))
    }

    /// Where a head left open took in the next definition: the start of its first later line
    /// that starts a definition no head holds (a method's shape; Python's `def`; in Java and C#
    /// one with an access modifier, past the declaration's own first line). That text is the
    /// next definition's, whose line the incomplete note names; the head stops before it.
    fn taken_in(&self, node: Node, head_end: usize) -> Option<usize> {
        if !node.has_error() {
            return None;
        }
        let start = node.start_byte();
        // The declaration's own first line ends here; only later lines can be a member taken in.
        let declaration = declaration_start(node).start_byte();
        let declared = self.source.get(declaration..)?.find('\n').map_or(head_end, |end| declaration + end);
        let mut at = start;
        for line in self.source.get(start..head_end)?.split_inclusive('\n') {
            let member = at > declared && fallback::accessed_member(self.language, line);
            if at > start && (member || fallback::never_in_a_head(self.language, line)) {
                return Some(at);
            }
            at += line.len();
        }
        None
    }

    /// Appends what the wrappers around `node` put before it, outermost first.
    fn push_wrappers(&self, head: &mut Head, wrappers: &[Node], node: Node) {
        for (i, wrapper) in wrappers.iter().enumerate() {
            let next = wrappers.get(i + 1).copied().unwrap_or(node);
            match prefix_of(self.spec, *wrapper) {
                Some(Prefix::Full) => self.push_split(head, *wrapper, wrapper.start_byte()..next.start_byte()),
                Some(Prefix::Keyword) => {
                    if let Some(keyword) = wrapper.child(0).filter(|first| !first.is_named()) {
                        head.push(Role::Core, node_text(keyword, self.source));
                        head.push(Role::Core, " ");
                    }
                }
                Some(Prefix::Nothing) | None => {}
            }
        }
    }

    /// Appends the source in `range` (inside `within`) as core, its decorations as such.
    fn push_split(&self, head: &mut Head, within: Node, range: Range<usize>) {
        let mut position = range.start;
        for decoration in nodes_in(within, &range, self.spec.decorations) {
            self.push_code(head, Role::Core, within, position..decoration.start);
            if self.shown(decoration.clone()) {
                self.push_code(head, Role::Decoration, within, decoration.clone());
            }
            position = decoration.end;
        }
        self.push_code(head, Role::Core, within, position..range.end);
    }

    fn shown(&self, decoration: Range<usize>) -> bool {
        // Without whitespace, so `#[cfg_attr(\n    docsrs, …)]` matches `#[cfg_attr(docsrs`.
        let text: String = self.source.get(decoration).unwrap_or("").split_whitespace().collect();
        self.shown_text(&text)
    }

    fn shown_text(&self, text: &str) -> bool {
        if self.spec.unshown.iter().any(|start| text.starts_with(start)) {
            return false;
        }
        if let Some(inside) = self.spec.conditional.and_then(|start| text.strip_prefix(start)?.strip_suffix(")]")) {
            // The condition, then what it applies: `feature="inline-more",inline` says nothing more
            // than `#[inline]`.
            let applied = top_level_items(inside).into_iter().skip(1).filter(|item| !item.is_empty());
            let mut applied = applied.peekable();
            if applied.peek().is_some() {
                return applied.any(|item| self.shown_text(&format!("#[{item}]")));
            }
        }
        true
    }

    /// A field's declaration up to `head_end` without its decorations and initial values: it is
    /// one entry on its type's line of fields.
    fn field_signature(&self, node: Node, rule: &Rule, head_end: usize, name: &str) -> String {
        let range = node.start_byte()..head_end;
        let mut dropped = nodes_in(node, &range, self.spec.decorations);
        dropped.extend(rule.initializers.map_or_else(Vec::new, |initializers| initializers(node)));
        dropped.extend(self.implied(node));
        dropped.sort_by_key(|drop| drop.start);
        let mut head = Head::default();
        let mut position = range.start;
        for drop in dropped.into_iter().filter(|drop| drop.end <= range.end) {
            if drop.start >= position {
                self.push_code(&mut head, Role::Core, node, position..drop.start);
                position = drop.end;
            }
        }
        self.push_code(&mut head, Role::Core, node, position..range.end);
        let line = head.line();
        // A long type keeps its outer part: `shape: Maybe<inferErrorShape<…>>`; but never at the
        // cost of a name the field declares (C's anonymous `union { struct { unsigned lo, hi; }; … }`
        // declares `lo` and `hi` inside brackets).
        let shortened = match line.chars().count() > MAX_FIELD {
            true => empty_nested_brackets(&line),
            false => return line,
        };
        let keeps_names = name.split(", ").all(|declared| shortened.contains(declared));
        if keeps_names { shortened } else { line }
    }

    /// The byte ranges of `node`'s own [`Spec::implied`] modifiers, with the space after each.
    fn implied(&self, node: Node) -> Vec<Range<usize>> {
        let mut cursor = node.walk();
        node.children(&mut cursor)
            .filter(|child| {
                self.spec
                    .implied
                    .iter()
                    .any(|(kind, text)| child.kind() == *kind && node_text(*child, self.source) == *text)
            })
            .map(|child| {
                let spaces = self.source[child.end_byte()..].len() - self.source[child.end_byte()..].trim_start().len();
                child.start_byte()..child.end_byte() + spaces
            })
            .collect()
    }

    /// Appends the source in `range` (inside `within`) without the comments in it.
    fn push_code(&self, head: &mut Head, role: Role, within: Node, range: Range<usize>) {
        // What is cut out, and what stands for it: a space for a comment, `where …` for a long
        // clause.
        let comments = nodes_in(within, &range, self.comments);
        let mut cuts: Vec<(Range<usize>, String)> =
            comments.iter().map(|comment| (comment.clone(), " ".to_string())).collect();
        // What one type parameter elides (its bound and its default) is one `…`: `K…`.
        let mut elided: Vec<Range<usize>> = Vec::new();
        for part in nodes_in(within, &range, self.spec.elided) {
            let before = self.source[..part.start].trim_end().len().max(range.start);
            match elided.last_mut() {
                Some(last) if last.end == before => last.end = part.end,
                _ => elided.push(before..part.end),
            }
        }
        for part in elided {
            let text = self.without_comments(&comments, &part);
            cuts.push((part, head::elided(&text)));
        }
        for clause in nodes_in(within, &range, self.spec.abridged) {
            // The clause is judged and shortened without its comments (a commented type
            // parameter list would otherwise carry `// …` into the one-line head).
            let text = self.without_comments(&comments, &clause);
            if let Some(short) = abridged(&text) {
                cuts.push((clause, short));
            }
        }
        let listed = self.head_members.iter().filter(|list| range.start <= list.start && list.end <= range.end);
        cuts.extend(listed.map(|list| (list.clone(), "{…}".to_string())));
        cuts.extend(self.kept_literals(within, &range));
        let breaks = line_separated_members(within, &range, self.spec.member_lists, self.source);
        cuts.extend(breaks.into_iter().map(|at| (at..at, ";".to_string())));
        cuts.sort_by_key(|(cut, _)| cut.start);
        // Gathered first and pushed once: a decoration with a comment inside stays one
        // decoration (decorations do not join in the head, so each piece would be shortened alone).
        let mut text = String::with_capacity(range.len());
        let mut position = range.start;
        for (cut, replacement) in cuts {
            // A comment inside a clause already cut.
            if cut.start < position {
                continue;
            }
            text.push_str(self.source.get(position..cut.start).unwrap_or(""));
            text.push_str(&replacement);
            position = cut.end;
        }
        text.push_str(self.source.get(position..range.end).unwrap_or(""));
        head.push(role, &text);
    }

    /// The source in `range` with a space for each of `comments` inside it.
    fn without_comments(&self, comments: &[Range<usize>], range: &Range<usize>) -> String {
        let mut text = String::new();
        let mut position = range.start;
        for comment in comments.iter().filter(|c| range.start <= c.start && c.end <= range.end) {
            text.push_str(self.source.get(position..comment.start).unwrap_or(""));
            text.push(' ');
            position = comment.end;
        }
        text.push_str(self.source.get(position..range.end).unwrap_or(""));
        text
    }

    /// The literals in `range` (the language's strings, regexes, characters) whose text a head's
    /// collapsed whitespace would change (`/a  b/x`, `"a  b"` would be another pattern or value),
    /// each with its text as [`head::kept`] keeps it: as written, or cut with `…` where its first
    /// line ends.
    fn kept_literals(&self, within: Node, range: &Range<usize>) -> Vec<(Range<usize>, String)> {
        let mut kept = Vec::new();
        let literals = self.language.lexical().literals;
        visit_in(within, range, |node| {
            if !literals.contains(&node.kind()) {
                return true;
            }
            // A quote left open makes a "literal" of code up to the next quote, lines away: its
            // text is no value to keep.
            if node.parent().is_some_and(|parent| parent.has_error()) {
                return false;
            }
            let span = node.start_byte().max(range.start)..node.end_byte().min(range.end);
            let text = self.source.get(span.clone()).unwrap_or("");
            if collapse_code(text) != text {
                // What closes the literal (`"`, `/x`) is what follows its last content, or that
                // last part itself where the grammar names it (Python's `string_end`: `'''`).
                let last = u32::try_from(node.named_child_count().saturating_sub(1)).ok();
                let last = last.and_then(|last| node.named_child(last));
                let closing_from = last.map(|last| match last.kind().ends_with("_end") {
                    true => last.start_byte(),
                    false => last.end_byte(),
                });
                let closing = closing_from.and_then(|from| self.source.get(from.max(span.start)..span.end));
                kept.push((span, head::kept(text, closing.unwrap_or(""))));
            }
            false
        });
        kept
    }
}

/// A clause longer than [`MAX_CLAUSE`] as its keyword and `…` (`where …`), else `None`. Not one
/// with braces: a type literal there declares members (`extends Op<Tag, { readonly upstream: E }>`).
/// A type's parents (`extends`, `implements`) lose their type arguments first and stay named
/// when that fits (`extends Subscribable<…>`: `extends …` said nothing of what the class is).
/// A type parameter list of more than [`MAX_TYPE_PARAMETERS`] as its first and `…`.
fn abridged(clause: &str) -> Option<String> {
    let clause = collapse(clause);
    if let Some(list) = clause.strip_prefix('<') {
        return abridged_type_parameters(list);
    }
    let keyword = clause.split_whitespace().next()?;
    if clause.chars().count() <= MAX_CLAUSE || clause.contains('{') {
        return None;
    }
    let parents = Some(without_type_arguments(&clause))
        .filter(|parents| matches!(keyword, "extends" | "implements") && parents.chars().count() <= MAX_CLAUSE);
    Some(parents.unwrap_or_else(|| format!("{keyword} …")))
}

/// `text` with what each outermost pair of angle brackets holds as `…`: `extends Base<…>,
/// Other<…>` for `extends Base<A<B>, C>, Other<D>` (a function type's arrow closes nothing).
fn without_type_arguments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    let mut previous = ' ';
    for c in text.chars() {
        match c {
            '>' if matches!(previous, '=' | '-') => {}
            '<' => {
                if depth == 0 {
                    out.push_str("<…");
                }
                depth += 1;
            }
            '>' if depth > 0 => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            out.push(c);
        }
        previous = c;
    }
    out
}

/// `<TQueryFnData, …>` for `<TQueryFnData, TError = Error, TData = TQueryFnData, TQueryKey>`, and
/// `Query<TQueryFnData, …>` for `Query<TQueryFnData, TError, TData, TQueryKey>`: generic code
/// repeats long lists of type parameters and arguments on every head, which callers rarely write
/// (they are inferred) and the file states; the first says the definition is generic. Lists of
/// at most [`MAX_TYPE_PARAMETERS`], or whose entries fit [`MAX_TYPE_PARAMETER_NAMES`] characters
/// (`<A, B, C>`), stay.
fn abridged_type_parameters(list: &str) -> Option<String> {
    let mut depth = 0usize;
    let mut start = 0;
    let mut entries = Vec::new();
    let mut previous = ' ';
    for (at, c) in list.char_indices() {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            // The arrow of a function type closes nothing.
            '>' if matches!(previous, '=' | '-') => {}
            '>' if depth == 0 => {
                entries.push(&list[start..at]);
                break;
            }
            '>' | ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                entries.push(&list[start..at]);
                start = at + 1;
            }
            _ => {}
        }
        previous = c;
    }
    // A parameter without its modifiers, bound and default; a trailing comma separates nothing.
    let entries: Vec<&str> = entries
        .iter()
        .map(|entry| {
            let entry = entry.trim();
            let entry = ["const ", "in ", "out "]
                .iter()
                .fold(entry, |entry, modifier| entry.strip_prefix(modifier).unwrap_or(entry).trim_start());
            [" extends ", " = "].iter().fold(entry, |entry, bound| before_top_level(entry, bound))
        })
        .filter(|entry| !entry.is_empty())
        .collect();
    let length = entries.iter().map(|entry| entry.chars().count() + 2).sum::<usize>();
    (entries.len() > MAX_TYPE_PARAMETERS && length > MAX_TYPE_PARAMETER_NAMES).then(|| format!("<{}, …>", entries[0]))
}

/// `entry` up to the first `separator` outside its brackets: a type argument's own `extends` (in
/// `{ [K in keyof A]: K extends keyof B ? … }`) is part of it, not a bound.
fn before_top_level<'e>(entry: &'e str, separator: &str) -> &'e str {
    let mut depth = 0usize;
    let mut previous = ' ';
    for (at, c) in entry.char_indices() {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            '>' if matches!(previous, '=' | '-') => {}
            '>' | ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 && entry[at..].starts_with(separator) => return &entry[..at],
            _ => {}
        }
        previous = c;
    }
    entry
}

/// Where a definition's uncuttable part ends: after its parameters (found through C declarators
/// and the value of `const f = (…) =>`), else after its name.
fn core_end(node: Node) -> Option<usize> {
    let mut current = node;
    for _ in 0..MAX_DEPTH {
        if let Some(parameters) = current.child_by_field_name("parameters") {
            return Some(parameters.end_byte());
        }
        match current.child_by_field_name("declarator").or_else(|| current.child_by_field_name("value")) {
            Some(inner) => current = inner,
            None => break,
        }
    }
    node.child_by_field_name("name").map(|name| name.end_byte())
}

/// The first node of a declaration's own text, past the annotations, attributes and decorators
/// in front of it (Java's `@Table(name = "orders",` over several lines, C#'s `[DllImport(…)]`,
/// TypeScript's `@Component({…})` over a class), which the grammar puts inside the declaration's
/// node and which may hold anything.
fn declaration_start(node: Node) -> Node {
    const ANNOTATIONS: [&str; 4] = ["annotation", "marker_annotation", "attribute_list", "decorator"];
    let skipped = |child: &Node| ANNOTATIONS.contains(&child.kind()) || child.is_extra();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if skipped(&child) {
            continue;
        }
        if child.kind() == "modifiers" {
            let mut inner = child.walk();
            match child.children(&mut inner).find(|modifier| !skipped(modifier)) {
                Some(first) => return first,
                None => continue,
            }
        }
        return child;
    }
    node
}

/// A field declaration of several names as one field each, sharing its signature. Not one with
/// members (`Runnable a = new Runnable() {…}, b = null;`): they are one declarator's, and one
/// line naming both over them says so without repeating the signature.
fn each_field(declaration: Definition) -> Vec<Definition> {
    let names: Vec<String> = declaration.names().into_iter().map(str::to_string).collect();
    if names.len() == 1 || !declaration.children.is_empty() {
        return vec![declaration];
    }
    names.into_iter().map(|name| Definition { name, ..declaration.clone() }).collect()
}

fn prefix_of(spec: &Spec, wrapper: Node) -> Option<Prefix> {
    spec.wrappers.iter().find(|(kind, _)| *kind == wrapper.kind()).map(|(_, prefix)| *prefix)
}

/// Byte ranges of the outermost nodes of `kinds` inside `range`, in order, clipped to it.
fn nodes_in(node: Node, range: &Range<usize>, kinds: &[&str]) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    if !kinds.is_empty() {
        visit_in(node, range, |current| {
            let matches = kinds.contains(&current.kind());
            if matches {
                found.push(current.start_byte().max(range.start)..current.end_byte().min(range.end));
            }
            !matches
        });
    }
    found
}

/// Where a `;` goes after a member of a `kinds` list inside `range` that only a line break
/// separates from the next (see [`Spec::member_lists`]), comments aside.
fn line_separated_members(node: Node, range: &Range<usize>, kinds: &[&str], source: &str) -> Vec<usize> {
    let mut found = Vec::new();
    if kinds.is_empty() {
        return found;
    }
    visit_in(node, range, |list| {
        if !kinds.contains(&list.kind()) {
            return true;
        }
        let mut cursor = list.walk();
        let children: Vec<Node> = list.children(&mut cursor).collect();
        let mut previous: Option<Node> = None;
        for child in children.iter().filter(|child| child.is_named() && child.kind() != "comment") {
            if let Some(before) = previous {
                let between = before.end_byte()..child.start_byte();
                // Read from the source: a tree from a patched copy (`recover`) has `;` tokens
                // where the file has only a line break.
                let separated = children.iter().any(|token| {
                    !token.is_named()
                        && matches!(token.kind(), ";" | ",")
                        && between.contains(&token.start_byte())
                        && source.get(token.byte_range()) == Some(token.kind())
                });
                if !separated && source[between].contains('\n') && range.contains(&before.end_byte()) {
                    found.push(before.end_byte());
                }
            }
            previous = Some(*child);
        }
        true
    });
    found
}

/// Visits `node` and its descendants that overlap `range`, in order; `visit` says whether to
/// look inside the node it was given.
fn visit_in<'t>(node: Node<'t>, range: &Range<usize>, mut visit: impl FnMut(Node<'t>) -> bool) {
    let mut stack = vec![node];
    while let Some(current) = stack.pop() {
        if current.end_byte() <= range.start || current.start_byte() >= range.end || !visit(current) {
            continue;
        }
        let mut cursor = current.walk();
        let children: Vec<Node> = current.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
}

/// Places methods declared outside their type (Go receivers) under that type when this file
/// defines it, without the receiver and `func` (the type above says both, and its interface
/// methods read the same way), else keeps them at top level named `Type.method`.
fn attach_detached(items: &mut Vec<Definition>, detached: Vec<(String, Definition)>) {
    if detached.is_empty() {
        return;
    }
    for (receiver, mut method) in detached {
        match items.iter_mut().find(|item| item.name == receiver && item.kind != Kind::Method) {
            Some(owner) => {
                method.signature = without_receiver(&method.signature);
                owner.children.push(method);
            }
            None => {
                method.name = format!("{receiver}.{}", method.name);
                items.push(method);
            }
        }
    }
    items.sort_by_key(|item| item.start_line);
    for item in items.iter_mut() {
        item.children.sort_by_key(|child| child.start_line);
    }
}

/// A definition [`Rule::owned_by`] names an owner for, with the lines the walk noted for it (see
/// [`Walked::heads`] and [`Walked::declarations`]).
struct Owned {
    owner: String,
    definition: Definition,
    heads: Vec<(u32, u32)>,
    declarations: Vec<u32>,
}

/// Places each owned definition under the function or class of its owner's name among `items`
/// (the first, if the file defines the name twice), in line order, and gives back the lines the
/// walk noted for those placed. Those whose owner is not there are dropped.
fn attach_owned(items: &mut [Definition], owned: Vec<Owned>) -> (Vec<(u32, u32)>, Vec<u32>) {
    if owned.is_empty() {
        return (Vec::new(), Vec::new());
    }
    // Looked up by name: a file may assign thousands of properties.
    let mut owners: HashMap<&str, usize> = HashMap::new();
    for (at, item) in items.iter().enumerate().filter(|(_, item)| matches!(item.kind, Kind::Function | Kind::Class)) {
        owners.entry(item.name.as_str()).or_insert(at);
    }
    let (mut heads, mut declarations) = (Vec::new(), Vec::new());
    let mut placed = Vec::new();
    for owned in owned {
        if let Some(&at) = owners.get(owned.owner.as_str()) {
            heads.extend(owned.heads);
            declarations.extend(owned.declarations);
            placed.push((at, owned.definition));
        }
    }
    let mut touched: Vec<usize> = placed.iter().map(|(at, _)| *at).collect();
    for (at, definition) in placed {
        items[at].children.push(definition);
    }
    touched.sort_unstable();
    touched.dedup();
    for at in touched {
        items[at].children.sort_by_key(|child| child.start_line);
    }
    (heads, declarations)
}

/// `func (s *Server) Start(ctx context.Context) error` → `Start(ctx context.Context) error`.
fn without_receiver(signature: &str) -> String {
    let Some(receiver) = signature.strip_prefix("func (") else {
        return signature.to_string();
    };
    match closing(receiver, '(', ')') {
        Some(close) => receiver[close + 1..].trim_start().to_string(),
        None => signature.to_string(),
    }
}

/// `range` in parts around the parentheses that open at `wrappers` (see [`wrapper_parentheses`]).
fn unwrapped(range: Range<usize>, wrappers: &[usize]) -> Vec<Range<usize>> {
    let mut parts = Vec::new();
    let mut position = range.start;
    for &open in wrappers.iter().filter(|open| range.contains(open)) {
        parts.push(position..open);
        position = open + 1;
    }
    parts.push(position..range.end);
    parts
}

/// Where the parentheses that hold `body` and open inside `head` start, in order: those of a
/// value written `(function f(a) {…})`, which close after the body. Read from the tree, so a
/// parenthesis in a comment or a string is never one.
fn wrapper_parentheses(node: Node, body: Option<Node>, head: Range<usize>) -> Vec<usize> {
    let mut opens = Vec::new();
    let mut current = body.and_then(|body| body.parent());
    while let Some(enclosing) = current.filter(|enclosing| enclosing.id() != node.id()) {
        if enclosing.kind() == "parenthesized_expression" && head.contains(&enclosing.start_byte()) {
            opens.push(enclosing.start_byte());
        }
        current = enclosing.parent();
    }
    opens.reverse();
    opens
}

#[cfg(test)]
mod tests {
    use super::abridged;

    #[test]
    fn long_type_lists_read_as_their_first() {
        assert_eq!(
            abridged("<TQueryFnData = unknown, TError = Error, TData extends object = TQueryFnData>").as_deref(),
            Some("<TQueryFnData, …>")
        );
        // A function type's arrow closes nothing; the list's own `>` does.
        assert_eq!(
            abridged("<Handler extends (event: Event) => void, TContext, TOptions>").as_deref(),
            Some("<Handler, …>")
        );
        // An object type's own conditional (`K extends … ? … : …`) is not a bound: the first
        // argument stays whole, its braces closed.
        assert_eq!(
            abridged("<{ [K in keyof A | keyof S]: K extends keyof A ? A[K] : never }, E1 | Error, R1 | Context>")
                .as_deref(),
            Some("<{ [K in keyof A | keyof S]: K extends keyof A ? A[K] : never }, …>")
        );
        assert_eq!(abridged("<A, B, C>"), None);
        assert_eq!(abridged("<TQueryFnData, TError>"), None);
    }

    /// A long list of parents keeps their names without their type arguments while that fits;
    /// other clauses, and parents too many to name, read as their keyword.
    #[test]
    fn long_parents_keep_their_names() {
        let named = |clause| abridged(clause).unwrap_or_else(|| clause.to_string());
        assert_eq!(named("extends Subscribable<QueryObserverListener<TData, TError>>"), "extends Subscribable<…>");
        assert_eq!(
            named("implements Handler<(event: Event) => void>, Disposable<Resource>"),
            "implements Handler<…>, Disposable<…>"
        );
        assert_eq!(
            named("extends PaginationOptions, PaginationDefaultsInstance<TData>, Record<string, unknown>"),
            "extends …"
        );
        assert_eq!(named("where T: Iterator<Item = u8> + Send + Sync + 'static, U: Clone"), "where …");
        assert_eq!(named("extends Base<T>"), "extends Base<T>");
    }
}
