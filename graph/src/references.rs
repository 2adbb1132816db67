//! References and call sites: one tree-sitter query per language.
//!
//! Captures name what a match is: `@call` (a function named directly or behind a module or type
//! path), `@method` (a call on a value), `@new` (a constructor use), `@type` (a type named), and
//! `@recv` the text written in front of the name; `@member.method`, `@member.read`,
//! `@member.new` and `@member.type` capture a member access whose receiver and name [`member`] reads from the tree. A
//! node matched by several patterns (a type identifier that is also a constructor's name) keeps the
//! most specific kind.
//!
//! `@local` captures names bound inside a function (parameters, `let`, assignments, `:=`): a bare
//! call of such a name calls the local value, not a definition of the same name elsewhere, so it
//! is no reference. Java is left out: its methods and variables have separate namespaces.

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use lean_ctx_outline::Language;
use lean_ctx_outline::tree_sitter::{Node, Query, QueryCursor};
use streaming_iterator::StreamingIterator;

use crate::bindings::{self, Binding};
use crate::enclosers::Enclosers;
use crate::facts::{Def, Ref, RefKind, SUPPORTED};
use crate::parents::Parents;

// A macro's arguments are a token tree, not expressions: `assert!(is_ready(x))`, `assert_eq!(b.len(),
// 3)`. Calls there are read from the tokens: a name, or a path's or receiver's last name, right
// before a parenthesized group (Rust tests make most of their calls inside `assert*!`).
const RUST: &str = r#"
(call_expression function: (identifier) @call)
(call_expression function: (scoped_identifier path: (_) @recv name: (identifier) @call))
(call_expression function: (field_expression) @member.method)
(call_expression function: (generic_function function: (identifier) @call))
(call_expression function: (generic_function function: (scoped_identifier path: (_) @recv name: (identifier) @call)))
(call_expression function: (generic_function function: (field_expression) @member.method))
(token_tree (identifier) @call . (token_tree . "("))
(token_tree [(identifier) (self) (super) (crate)] @recv . "::" . (identifier) @call . (token_tree . "("))
(token_tree [(identifier) (self)] @recv . "." . (identifier) @method . (token_tree . "("))
(struct_expression name: (type_identifier) @new)
(struct_expression name: (scoped_type_identifier path: (_) @recv name: (type_identifier) @new))
(type_identifier) @type
(let_declaration pattern: (identifier) @local)
(parameter pattern: (identifier) @local)
(closure_parameters (identifier) @local)
"#;

const PYTHON: &str = r#"
(call function: (identifier) @call)
(call function: (attribute) @member.method)
(attribute) @member.read
(class_definition superclasses: (argument_list (identifier) @base))
(class_definition superclasses: (argument_list (attribute object: (_) @recv attribute: (identifier) @base)))
(class_definition superclasses: (argument_list (subscript value: (identifier) @base)))
(class_definition superclasses: (argument_list (subscript value: (attribute object: (_) @recv attribute: (identifier) @base))))
(type (identifier) @type)
(type (attribute) @member.type)
(type (string (string_content) @type.quoted))
(assignment left: (identifier) @local)
(parameters (identifier) @local)
(default_parameter name: (identifier) @local)
(typed_parameter (identifier) @local)
(typed_default_parameter name: (identifier) @local)
(assignment left: [(identifier) (attribute)] @bind.name)
(assignment left: [(identifier) (attribute)] @bind.name type: (type) @bind.type)
(assignment left: [(identifier) (attribute)] @bind.name
  right: (call function: [(identifier) (attribute attribute: (identifier))] @bind.call))
(assignment left: [(identifier) (attribute)] @bind.name
  right: [(string) (concatenated_string) (list) (list_comprehension) (dictionary) (dictionary_comprehension)
          (set) (set_comprehension) (integer) (float)] @bind.literal)
(assignment left: [(identifier) (attribute)] @bind.name right: (identifier) @bind.copy)
(assignment left: [(identifier) (attribute)] @bind.name right: [(attribute) (subscript)] @bind.value)
(parameters (identifier) @bind.name)
(parameters [(list_splat_pattern (identifier) @bind.name) (dictionary_splat_pattern (identifier) @bind.name)] @bind.literal)
(default_parameter name: (identifier) @bind.name)
(typed_parameter (identifier) @bind.name type: (type) @bind.type)
(typed_default_parameter name: (identifier) @bind.name type: (type) @bind.type)
(as_pattern (call function: [(identifier) (attribute attribute: (identifier))] @bind.call)
  alias: (as_pattern_target) @bind.name)
(assignment left: (pattern_list [(identifier) (attribute)] @bind.name)
  right: (call function: [(identifier) (attribute attribute: (identifier))] @bind.unpack))
(for_statement left: (identifier) @bind.name right: (_) @bind.each)
(for_in_clause left: (identifier) @bind.name right: (_) @bind.each)
"#;

// `(0, m_1.f)(…)` is how TypeScript's CommonJS output calls an imported function (without a
// `this`), in its .js files and in TypeScript's query below.
const JAVASCRIPT: &str = r#"
(call_expression function: (identifier) @call)
(call_expression function: (member_expression) @member.method)
(call_expression function: (parenthesized_expression (sequence_expression (member_expression) @member.method .)))
(new_expression constructor: (identifier) @new)
(new_expression constructor: (member_expression) @member.new)
(class_heritage (identifier) @base)
(call_expression function: (super) @construct)
(variable_declarator name: (identifier) @local)
(formal_parameters (identifier) @local)
"#;

/// Bindings of JavaScript and TypeScript (see [`crate::bindings`]).
const JS_BINDINGS: &str = r#"
(variable_declarator name: (identifier) @bind.name)
(variable_declarator name: (identifier) @bind.name value: (new_expression constructor: (identifier) @bind.new))
(variable_declarator name: (identifier) @bind.name value: (new_expression constructor: (member_expression) @bind.new))
(variable_declarator name: (identifier) @bind.name
  value: (call_expression function: [(identifier) (member_expression)] @bind.call))
(variable_declarator name: (identifier) @bind.name value: [(member_expression) (subscript_expression)] @bind.value)
(variable_declarator name: (identifier) @bind.name value: [(string) (template_string) (array) (number)] @bind.literal)
(variable_declarator name: (identifier) @bind.name value: (identifier) @bind.copy)
(assignment_expression left: (member_expression object: (this)) @bind.name
  right: (new_expression constructor: [(identifier) (member_expression)] @bind.new))
(assignment_expression left: (member_expression object: (this)) @bind.name
  right: (call_expression function: [(identifier) (member_expression)] @bind.call))
(assignment_expression left: (member_expression object: (this)) @bind.name right: (identifier) @bind.copy)
(for_in_statement left: (identifier) @bind.name operator: "of" right: (_) @bind.each)
(arguments . (arrow_function parameter: (identifier) @bind.name)) @bind.callback
"#;

/// TypeScript's written types: annotated variables, parameters and fields, parameter properties.
const TS_BINDINGS: &str = r#"
(variable_declarator name: (identifier) @bind.name type: (type_annotation) @bind.type)
(required_parameter pattern: (identifier) @bind.name)
(optional_parameter pattern: (identifier) @bind.name)
(required_parameter pattern: (identifier) @bind.name type: (type_annotation) @bind.type)
(optional_parameter pattern: (identifier) @bind.name type: (type_annotation) @bind.type)
(required_parameter (accessibility_modifier) pattern: (identifier) @bind.field type: (type_annotation) @bind.type)
(required_parameter "readonly" pattern: (identifier) @bind.field type: (type_annotation) @bind.type)
(public_field_definition name: [(property_identifier) (private_property_identifier)] @bind.name
  type: (type_annotation) @bind.type)
(public_field_definition name: [(property_identifier) (private_property_identifier)] @bind.name
  value: (new_expression constructor: (identifier) @bind.new))
(arguments . [(arrow_function parameters: (formal_parameters . (required_parameter pattern: (identifier) @bind.name)))
              (function_expression parameters: (formal_parameters . (required_parameter pattern: (identifier) @bind.name)))])
  @bind.callback
(call_expression function: (identifier) @bind.callee
  arguments: (arguments (arrow_function parameters: (formal_parameters (required_parameter pattern: (identifier) @bind.name)))))
(call_expression function: (identifier) @bind.callee arguments: (arguments (arrow_function parameter: (identifier) @bind.name)))
"#;

const JSX: &str = r#"
(jsx_opening_element name: (identifier) @new)
(jsx_self_closing_element name: (identifier) @new)
"#;

const TYPESCRIPT: &str = r#"
(call_expression function: (identifier) @call)
(call_expression function: (member_expression) @member.method)
(call_expression function: (parenthesized_expression (sequence_expression (member_expression) @member.method .)))
(member_expression) @member.read
(new_expression constructor: (identifier) @new)
(new_expression constructor: (member_expression) @member.new)
(extends_clause value: (identifier) @base)
(call_expression function: (super) @construct)
(implements_clause [(type_identifier) @base (generic_type name: (type_identifier) @base)])
(extends_type_clause [(type_identifier) @base (generic_type name: (type_identifier) @base)])
(type_identifier) @type
(variable_declarator name: (identifier) @local)
(required_parameter pattern: (identifier) @local)
(optional_parameter pattern: (identifier) @local)
"#;

const GO: &str = r#"
(call_expression function: (identifier) @call)
(call_expression function: (selector_expression) @member.method)
(selector_expression) @member.read
(composite_literal type: (type_identifier) @new)
(composite_literal type: (qualified_type package: (package_identifier) @recv name: (type_identifier) @new))
(composite_literal type: (generic_type type: (type_identifier) @new))
(composite_literal type: (generic_type type: (qualified_type package: (package_identifier) @recv name: (type_identifier) @new)))
(call_expression function: (identifier) @bind.var (#eq? @bind.var "new") arguments: (argument_list .
  [(type_identifier) @new
   (qualified_type package: (package_identifier) @recv name: (type_identifier) @new)
   (generic_type type: (type_identifier) @new)
   (generic_type type: (qualified_type package: (package_identifier) @recv name: (type_identifier) @new))]))
(qualified_type package: (package_identifier) @recv name: (type_identifier) @type)
(type_identifier) @type
(short_var_declaration left: (expression_list (identifier) @local))
(parameter_declaration name: (identifier) @local)
(var_spec name: (identifier) @local)
(interface_type (type_elem (type_identifier) @base))
(interface_type (type_elem (qualified_type package: (package_identifier) @recv name: (type_identifier) @base)))
(field_declaration !name type: (type_identifier) @base)
(field_declaration !name type: (qualified_type package: (package_identifier) @recv name: (type_identifier) @base))
"#;

/// Rust's bindings: typed `let`s, parameters and fields, `let x = T { … }`, `let x = f()`, a
/// `for` loop's variable and an iterator adapter's closure parameter (`items.iter().map(|s| …)`)
/// with the collection they take elements of, each name of a tuple pattern there (`for (k, v) in
/// &map`) with its position; and a type parameter bound by traits (`<A: Array>`, `where A: crate::arr::Array + Clone`), typed by
/// all of them: `A::size()` and `a.size()` call the `size` of the trait that has one.
const RUST_BINDINGS: &str = r#"
(type_parameter name: (type_identifier) @bind.name bounds: (trait_bounds) @bind.bounds)
(where_predicate left: (type_identifier) @bind.name bounds: (trait_bounds) @bind.bounds)
(let_declaration pattern: (identifier) @bind.name)
(let_declaration pattern: (identifier) @bind.name type: (_) @bind.type)
(let_declaration pattern: (identifier) @bind.name !type
  value: (call_expression function: [(identifier) (scoped_identifier) (field_expression)] @bind.call))
(let_declaration pattern: (identifier) @bind.name !type value: (struct_expression name: (_) @bind.type))
(parameter pattern: (identifier) @bind.name type: (_) @bind.type)
(field_declaration name: (field_identifier) @bind.name type: (_) @bind.type)
(for_expression pattern: [(identifier) @bind.name (reference_pattern (identifier) @bind.name)] value: (_) @bind.each)
(for_expression pattern: (tuple_pattern (identifier) @bind.name) @bind.tuple value: (_) @bind.each)
(arguments . (closure_expression parameters: (closure_parameters .
  [(identifier) @bind.name (reference_pattern (identifier) @bind.name)]))) @bind.callback
(arguments . (closure_expression parameters: (closure_parameters . (tuple_pattern (identifier) @bind.name) @bind.tuple)))
  @bind.callback
"#;

/// Go's bindings: typed parameters, fields and `var`s, `x := T{…}` / `&T{…}` / `new(T)`, `x := f()`,
/// `x := make(chan T)` (or a slice or map: the type `make` is given), `y := x` (what `x` was
/// bound to), and a `range` loop's variables: the first is a channel's element or a map's key
/// (`bind.key`), the second an element.
const GO_BINDINGS: &str = r#"
(parameter_declaration name: (identifier) @bind.name type: (_) @bind.type)
(field_declaration name: (field_identifier) @bind.name type: (_) @bind.type)
(var_spec name: (identifier) @bind.name type: (_) @bind.type)
(var_spec name: (identifier) @bind.name !type
  value: (expression_list . (call_expression function: [(identifier) (selector_expression)] @bind.call)))
(var_spec name: (identifier) @bind.name !type
  value: (expression_list . [(composite_literal type: (_) @bind.type)
                             (unary_expression operand: (composite_literal type: (_) @bind.type))]))
(short_var_declaration left: (expression_list (identifier) @bind.name))
(short_var_declaration left: (expression_list . (identifier) @bind.name)
  right: (expression_list . (call_expression function: [(identifier) (selector_expression)] @bind.call)))
(short_var_declaration left: (expression_list . (identifier) @bind.name)
  right: (expression_list . [(composite_literal type: (_) @bind.type)
                             (unary_expression operand: (composite_literal type: (_) @bind.type))]))
(short_var_declaration left: (expression_list . (identifier) @bind.name)
  right: (expression_list . (call_expression function: (identifier) @bind.var (#eq? @bind.var "new")
    arguments: (argument_list . (_) @bind.type))))
(var_spec name: (identifier) @bind.name !type
  value: (expression_list . (call_expression function: (identifier) @bind.var (#eq? @bind.var "new")
    arguments: (argument_list . (_) @bind.type))))
(short_var_declaration left: (expression_list . (identifier) @bind.name)
  right: (expression_list . (call_expression function: (identifier) @bind.var (#eq? @bind.var "make")
    arguments: (argument_list . (_) @bind.type))))
(var_spec name: (identifier) @bind.name !type
  value: (expression_list . (call_expression function: (identifier) @bind.var (#eq? @bind.var "make")
    arguments: (argument_list . (_) @bind.type))))
(short_var_declaration left: (expression_list . (identifier) @bind.name)
  right: (expression_list . (identifier) @bind.copy .))
(short_var_declaration left: (expression_list . (identifier) @bind.name)
  right: (expression_list . [(selector_expression) (index_expression)] @bind.value))
(short_var_declaration left: (expression_list . (identifier) @bind.name)
  right: (expression_list . (type_assertion_expression type: (_) @bind.type)))
(short_var_declaration left: (expression_list (_) (identifier) @bind.name)
  right: (expression_list . (call_expression function: [(identifier) (selector_expression)] @bind.unpack) .))
(range_clause left: (expression_list . (identifier) @bind.name) right: (_) @bind.key)
(range_clause left: (expression_list . (_) . (identifier) @bind.name) right: (_) @bind.each)
"#;

const JAVA: &str = r#"
(method_invocation !object name: (identifier) @call)
(method_invocation object: (_)) @member.method
(object_creation_expression type: (type_identifier) @new)
(object_creation_expression type: (generic_type (type_identifier) @new))
(object_creation_expression type: (scoped_type_identifier (_) @recv (type_identifier) @new))
(object_creation_expression type: (generic_type (scoped_type_identifier (_) @recv (type_identifier) @new)))
(explicit_constructor_invocation constructor: [(super) (this)] @construct)
(superclass [(type_identifier) @base (generic_type (type_identifier) @base)])
(super_interfaces (type_list [(type_identifier) @base (generic_type (type_identifier) @base)]))
(extends_interfaces (type_list [(type_identifier) @base (generic_type (type_identifier) @base)]))
(type_identifier) @type
"#;

/// Java's bindings: typed locals, parameters and fields; `var x = new T()`.
const JAVA_BINDINGS: &str = r#"
(local_variable_declaration type: (_) @bind.type (#not-eq? @bind.type "var")
  declarator: (variable_declarator name: (identifier) @bind.name))
(local_variable_declaration type: (type_identifier) @bind.var (#eq? @bind.var "var")
  declarator: (variable_declarator name: (identifier) @bind.name value: (object_creation_expression type: (_) @bind.new)))
(formal_parameter type: (_) @bind.type name: (identifier) @bind.name)
(field_declaration type: (_) @bind.type declarator: (variable_declarator name: (identifier) @bind.name))
(enhanced_for_statement type: (_) @bind.type (#not-eq? @bind.type "var") name: (identifier) @bind.name)
"#;

/// The query text of a language; `None` for one without queries.
fn query_source(language: Language) -> Option<String> {
    Some(match language {
        Language::Rust => format!("{RUST}{RUST_BINDINGS}"),
        Language::Python => PYTHON.to_string(),
        Language::JavaScript => format!("{JAVASCRIPT}{JS_BINDINGS}{JSX}"),
        Language::TypeScript => format!("{TYPESCRIPT}{JS_BINDINGS}{TS_BINDINGS}"),
        Language::Tsx => format!("{TYPESCRIPT}{JS_BINDINGS}{TS_BINDINGS}{JSX}"),
        Language::Go => format!("{GO}{GO_BINDINGS}"),
        Language::Java => format!("{JAVA}{JAVA_BINDINGS}"),
        _ => return None,
    })
}

/// The compiled query of a language, compiled once per process: tree-sitter's analysis of a
/// query costs more than parsing a typical file (it was most of a graph build of tokio when it
/// ran per file). A compiled query is immutable, so sharing it is safe.
pub(crate) fn query(language: Language) -> Option<&'static Query> {
    static COMPILED: [OnceLock<Option<Query>>; SUPPORTED.len()] = [const { OnceLock::new() }; SUPPORTED.len()];
    let slot = SUPPORTED.iter().position(|supported| *supported == language)?;
    // The queries are constants checked by this crate's tests for every language.
    COMPILED[slot].get_or_init(|| Query::new(&language.grammar(), &query_source(language)?).ok()).as_ref()
}

/// What the queries find in one file.
#[derive(Default)]
pub(crate) struct Extracted {
    /// Every reference, in source order, each with the innermost definition enclosing it.
    pub refs: Vec<Ref>,
    /// The names bound, with what their bindings say about their types (see [`crate::bindings`]).
    pub bindings: Vec<Binding>,
    /// The bases each type's head names (`class A(B)`, `extends B implements C`): the index of
    /// the type in the definitions, and the base as written.
    pub bases: Vec<(u32, String)>,
}

pub(crate) fn extract(language: Language, root: Node, source: &str, defs: &[Def], enclosers: &Enclosers) -> Extracted {
    let Some(query) = query(language) else { return Extracted::default() };
    let names = query.capture_names();
    let text = |node: Node| node.utf8_text(source.as_bytes()).unwrap_or_default();
    let parents = Parents::new(root);
    // By the site's position: the site, the node naming what it uses (the site itself, but for a
    // Java `super(…)`), its kind and its receiver.
    let mut found: BTreeMap<usize, (Node, Node, RefKind, Option<Node>)> = BTreeMap::new();
    // Each name with the lines binding it.
    let mut locals: HashMap<&str, Vec<u32>> = HashMap::new();
    // By the bound name's position and the name bound there (a parameter property binds both `x`
    // and `this.x`): a name several patterns match keeps the one that says most.
    let mut bound: BTreeMap<(usize, String), Binding> = BTreeMap::new();
    // In the order the heads name them: a class's bases are searched in that order.
    let mut bases: Vec<(u32, String)> = Vec::new();
    // What the adapter chains iterated so far were walked back to: a chain's callbacks ask in turn.
    let mut walked = bindings::Walked::default();
    // The types named in quoted annotations (Python's `u: "User"`), which have no nodes of their own.
    let mut quoted = Vec::new();
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(query, root, source.as_bytes());
    'matches: while let Some(m) = matches.next() {
        let mut target = None;
        // What the target names when its own text does not: the class a `super(…)` constructs.
        let mut named = None;
        let mut receiver = None;
        // The bound name's node, and the prefix it takes (`this.` for a parameter property).
        let mut binding: Option<(Node, Option<&str>)> = None;
        let mut base = None;
        let mut bound_type = None;
        let mut collection = None;
        let mut declared = false;
        let mut value = None;
        let mut each = None;
        let mut elements_of = None;
        let mut position = None;
        let mut unpacked = false;
        let mut tuple_item = false;
        let mut copied = None;
        let mut callee = None;
        for capture in m.captures {
            match names[capture.index as usize] {
                "bind.name" => binding = Some((capture.node, None)),
                "bind.field" => binding = Some((capture.node, Some("this."))),
                "bind.type" => {
                    declared = true;
                    let Some(written) = bindings::declared_type(language, text(capture.node)) else { continue };
                    bound_type = bindings::type_name(written).or_else(|| bindings::union_type(written));
                    let written = written.trim_start_matches(':').trim();
                    collection = bindings::is_collection(written).then(|| written.to_string());
                }
                "bind.bounds" => {
                    declared = true;
                    bound_type = bindings::trait_bounds(text(capture.node));
                }
                "bind.new" => bound_type = Some(text(capture.node).to_string()),
                "bind.call" => {
                    let function = text(capture.node);
                    let callee = function.rsplit('.').next().unwrap_or_default();
                    match bindings::constructs(language, callee) {
                        // A class with its module (`httpcore.ConnectionPool(…)` is a library's).
                        Some(type_name) if type_name == callee && function.contains('.') => {
                            bound_type = Some(compact(function));
                        }
                        Some(type_name) => {
                            bound_type = Some(type_name.to_string());
                            // `list(rows)`, `sorted(rows, key=…)`: the elements are the iterable's.
                            elements_of = bindings::copies_elements(callee)
                                .then(|| first_argument(capture.node, source, &parents))
                                .flatten()
                                .map(|iterable| compact(bindings::iterated_in(language, iterable, &mut walked)));
                        }
                        None => value = Some(format!("{}()", compact(function))),
                    }
                }
                "bind.value" => value = Some(compact(text(capture.node))),
                "bind.literal" => {
                    bound_type = bindings::literal_type(language, capture.node.kind()).map(str::to_string)
                }
                "bind.copy" => copied = Some(text(capture.node)),
                "bind.callee" => callee = Some(text(capture.node)),
                "bind.unpack" => {
                    value = Some(format!("{}()", compact(text(capture.node))));
                    unpacked = true;
                }
                "bind.each" => each = Some(compact(bindings::iterated_in(language, text(capture.node), &mut walked))),
                // Go's `range` first variable: item 0 of what is ranged over
                // ([`bindings::Pick::Key`]).
                "bind.key" => {
                    each = Some(compact(bindings::iterated_in(language, text(capture.node), &mut walked)));
                    position = Some(0);
                }
                "bind.callback" => match iterated_by_callback(capture.node, &parents, source) {
                    Some(collection) => {
                        each = Some(compact(bindings::iterated_in(language, text(collection), &mut walked)))
                    }
                    None => continue 'matches,
                },
                // Only a pattern's condition (Java's `var`, Go's `new`).
                "bind.var" => {}
                "bind.tuple" => tuple_item = true,
                "recv" => receiver = Some(capture.node),
                "type.quoted" => {
                    if in_literal(capture.node, &parents, source) {
                        continue 'matches;
                    }
                    let line = capture.node.start_position().row as u32 + 1;
                    let caller = caller_of(capture.node, line, enclosers, &parents, source);
                    quoted.extend(quoted_types(text(capture.node), line, column_of(capture.node, source), caller));
                    continue 'matches;
                }
                site @ ("member.method" | "member.read" | "member.new" | "member.type") => {
                    let Some((object, name)) = member(capture.node) else { continue 'matches };
                    let kind = match site {
                        "member.method" => RefKind::Method,
                        "member.read" => RefKind::Read,
                        "member.type" => RefKind::Type,
                        _ => RefKind::New,
                    };
                    (target, receiver) = (Some((name, kind)), Some(object));
                }
                "local" => {
                    let name = capture.node.utf8_text(source.as_bytes()).unwrap_or_default();
                    locals.entry(name).or_default().push(capture.node.start_position().row as u32 + 1);
                }
                "call" => target = Some((capture.node, RefKind::Call)),
                "method" => target = Some((capture.node, RefKind::Method)),
                "new" => target = Some((capture.node, RefKind::New)),
                "construct" => {
                    let Some(class) = constructed(capture.node, &parents) else { continue };
                    target = Some((capture.node, RefKind::New));
                    named = Some(class);
                }
                "read" => target = Some((capture.node, RefKind::Read)),
                "base" => {
                    target = Some((capture.node, RefKind::Type));
                    base = Some(capture.node);
                }
                _ => target = Some((capture.node, RefKind::Type)),
            }
        }
        if let Some((node, prefix)) = binding {
            // `x = None`, `this.x = null`: an optional's empty case says nothing of its type.
            if assigns_nothing(node, &parents) {
                continue;
            }
            // Its place among the names a value is unpacked into (`a, b = f()`).
            if unpacked {
                position = Some(position_among_siblings(node));
            }
            if tuple_item {
                position = Some(tuple_position(node));
            }
            // `self.repo = repo`: what `repo` was bound to before, in the same scope.
            if let Some(copied) = copied {
                let line = node.start_position().row as u32 + 1;
                let scope = enclosers.at(line);
                let mut earlier = bound.values().filter(|b| b.name == copied && b.scope == scope);
                match earlier.rfind(|b| b.line <= line) {
                    Some(earlier) => {
                        (bound_type, collection) = (earlier.type_name.clone(), earlier.collection.clone());
                        (value, each, position) = (earlier.value.clone(), earlier.each.clone(), earlier.position);
                        elements_of = earlier.elements_of.clone();
                    }
                    // Not bound here: a global, an import, a class (`_Segment = Segment`).
                    None => value = Some(copied.to_string()),
                }
            }
            let name = format!("{}{}", prefix.unwrap_or_default(), text(node));
            let line = node.start_position().row as u32 + 1;
            let scope = enclosers.at(line);
            let closure = enclosing_closure(node, &parents);
            let callback =
                callee.and_then(|callee| callback_position(node, &parents).map(|(a, p)| (callee.to_string(), a, p)));
            let binding = Binding {
                name,
                type_name: bound_type,
                declared,
                value,
                collection,
                each,
                elements_of,
                position,
                line,
                scope,
                closure,
                callback,
            };
            record_binding(&mut bound, node, binding);
            continue;
        }
        if let Some(base) = base
            && let Some(class) = declaring_type(base, defs, &parents)
        {
            let written = match receiver {
                Some(module) => format!("{}.{}", text(module), text(base)),
                None => text(base).to_string(),
            };
            if !bases.iter().any(|(c, b)| *c == class && *b == written) {
                bases.push((class, written));
            }
        }
        let Some((node, kind)) = target else { continue };
        if kind == RefKind::Type && names_a_declaration(node, &parents) {
            continue;
        }
        // In a macro's tokens a name after `.` or `::` is a method's or a path's: the pattern with
        // its receiver says so, not the bare-name one. And not every name before a group is a call.
        if in_tokens(node, &parents)
            && !(called_in_tokens(node, &parents) && (receiver.is_some() || !after_a_path_or_receiver(node)))
        {
            continue;
        }
        let named = named.unwrap_or(node);
        let entry = found.entry(node.start_byte()).or_insert((node, named, kind, receiver));
        if rank(kind) > rank(entry.2) {
            *entry = (node, named, kind, receiver);
        }
    }
    let refs = found.into_values().map(|(node, named, kind, receiver)| {
        let line = node.start_position().row as u32 + 1;
        let receiver = receiver.and_then(|r| receiver_text(r, source, &parents)).map(|text| compact(&text));
        Ref {
            name: text(named).to_string(),
            kind,
            line,
            column: column_of(node, source),
            receiver,
            caller: caller_of(node, line, enclosers, &parents, source),
        }
    });
    let mut refs: Vec<Ref> = refs.filter(|r| !calls_a_local(r, &locals, defs, enclosers)).collect();
    if !quoted.is_empty() {
        refs.extend(quoted);
        refs.sort_by_key(|r| (r.line, r.column));
    }
    Extracted { refs, bindings: bound.into_values().collect(), bases }
}

/// The callable a reference at `node` on `line` is in: the innermost whose lines hold it, but on a
/// line several callables share (see [`Enclosers::shared`]) the innermost of its ancestors in the
/// tree that is one, known by its name and the line that names it: `fn a() { g(); } fn b() {
/// f(); }` on one line gave `a` the calls of `b`.
fn caller_of<'t>(node: Node<'t>, line: u32, enclosers: &Enclosers, parents: &Parents<'t>, source: &str) -> Option<u32> {
    if enclosers.shared(line) {
        let declared = parents.ancestors(node).find_map(|ancestor| {
            // A Python decorator is read as the decorated function's, as its lines say.
            let definition = match ancestor.kind() {
                "decorated_definition" => ancestor.child_by_field_name("definition")?,
                _ => ancestor,
            };
            let name = definition.child_by_field_name("name")?;
            enclosers.declared(name.start_position().row as u32 + 1, name.utf8_text(source.as_bytes()).ok()?)
        });
        if declared.is_some() {
            return declared;
        }
    }
    enclosers.at(line)
}

/// The name of the class a constructor's `super(…)` (its class's base; Java, JavaScript,
/// TypeScript) or Java's `this(…)` (its own class) constructs: a call of that class's constructor.
fn constructed<'t>(keyword: Node<'t>, parents: &Parents<'t>) -> Option<Node<'t>> {
    let class = parents.ancestors(keyword).find(|n| {
        matches!(
            n.kind(),
            "class_declaration" | "enum_declaration" | "record_declaration" | "class" | "abstract_class_declaration"
        )
    })?;
    if keyword.kind() == "this" {
        return class.child_by_field_name("name");
    }
    let mut cursor = class.walk();
    if let Some(heritage) = class.named_children(&mut cursor).find(|c| c.kind() == "class_heritage") {
        return js_base(heritage);
    }
    let mut base = class.child_by_field_name("superclass")?.named_child(0)?;
    loop {
        base = match base.kind() {
            "type_identifier" => return Some(base),
            // `Base<T>`: its type; `outer.Base`: its last name.
            "generic_type" => base.named_child(0)?,
            "scoped_type_identifier" => base.named_child((base.named_child_count() as u32).checked_sub(1)?)?,
            _ => return None,
        };
    }
}

/// The name of the class a JavaScript or TypeScript class's `extends` names: `Base` of `extends
/// Base`, `extends Base<T>` and `extends models.Base`.
fn js_base(heritage: Node) -> Option<Node> {
    let mut cursor = heritage.walk();
    let first = heritage.named_children(&mut cursor).next()?;
    // TypeScript writes the expression in an `extends_clause`, JavaScript directly.
    let value = match first.kind() {
        "extends_clause" => first.child_by_field_name("value")?,
        _ => first,
    };
    match value.kind() {
        "identifier" => Some(value),
        "member_expression" => value.child_by_field_name("property"),
        _ => None,
    }
}

/// The receiver and the name of a member access `site` (`a.b`, each grammar's own node): what
/// the query's patterns capture as the site only, since a pattern that captured the receiver and
/// then the name after it kept a state open over the receiver's whole subtree, one per link of a
/// chain `a.b().c()…` for every node below it (quadratic).
fn member(site: Node) -> Option<(Node, Node)> {
    let (object, name, name_kind) = match site.kind() {
        "field_expression" => ("value", "field", "field_identifier"),
        "member_expression" => ("object", "property", "property_identifier"),
        "attribute" => ("object", "attribute", "identifier"),
        "selector_expression" => ("operand", "field", "field_identifier"),
        "method_invocation" => ("object", "name", "identifier"),
        _ => return None,
    };
    let object = site.child_by_field_name(object).filter(|o| o.is_named())?;
    let name = site.child_by_field_name(name).filter(|n| n.kind() == name_kind)?;
    Some((object, name))
}

/// The methods whose callback is given the elements of their receiver, one at a time: Rust's
/// iterator adapters and JavaScript's array methods.
const RUST_CALLBACK_METHODS: [&str; 16] = [
    "map",
    "for_each",
    "filter",
    "filter_map",
    "flat_map",
    "find",
    "find_map",
    "any",
    "all",
    "position",
    "inspect",
    "take_while",
    "skip_while",
    "map_while",
    "max_by_key",
    "min_by_key",
];
const JS_CALLBACK_METHODS: [&str; 8] = ["forEach", "map", "flatMap", "filter", "find", "findLast", "some", "every"];

/// For the `arguments` of a call whose first argument is a callback (what `@bind.callback`
/// captures): the receiver whose elements the callback is given, when the call is one of the
/// methods that hand them on (`items.iter().map(|s| …)`, `items.forEach((s) => …)`). Read from the
/// tree, not the pattern, for the reason [`member`] gives: the call's receiver comes before its
/// arguments.
fn iterated_by_callback<'t>(arguments: Node<'t>, parents: &Parents<'t>, source: &str) -> Option<Node<'t>> {
    let call = parents.of(arguments).filter(|call| call.kind() == "call_expression")?;
    if call.child_by_field_name("arguments") != Some(arguments) {
        return None;
    }
    let (receiver, method) = member(call.child_by_field_name("function")?)?;
    let methods: &[&str] = match method.kind() {
        "field_identifier" => &RUST_CALLBACK_METHODS,
        _ => &JS_CALLBACK_METHODS,
    };
    methods.contains(&method.utf8_text(source.as_bytes()).ok()?).then_some(receiver)
}

/// The first positional argument of the call whose function is `function`, as written.
fn first_argument<'s, 't>(function: Node<'t>, source: &'s str, parents: &Parents<'t>) -> Option<&'s str> {
    let arguments = parents.of(function)?.child_by_field_name("arguments")?;
    let first = arguments.named_child(0).filter(|a| !matches!(a.kind(), "keyword_argument" | "comment"))?;
    first.utf8_text(source.as_bytes()).ok()
}

/// The lines of the innermost anonymous function holding `node` (a callback's parameter or a
/// local of its body), which the outline does not list as a definition of its own.
fn enclosing_closure<'t>(node: Node<'t>, parents: &Parents<'t>) -> Option<(u32, u32)> {
    for ancestor in parents.ancestors(node) {
        let anonymous = matches!(
            ancestor.kind(),
            "func_literal"
                | "arrow_function"
                | "function_expression"
                | "function"
                | "generator_function"
                | "lambda"
                | "lambda_expression"
                | "closure_expression"
        );
        if anonymous {
            let line = |row: usize| row as u32 + 1;
            return Some((line(ancestor.start_position().row), line(ancestor.end_position().row)));
        }
    }
    None
}

/// The type definition whose head holds `base` (a base class or interface it names), or, in Go,
/// whose body embeds it.
fn declaring_type<'t>(base: Node<'t>, defs: &[Def], parents: &Parents<'t>) -> Option<u32> {
    for current in parents.ancestors(base) {
        let declares = matches!(
            current.kind(),
            "class_definition"
                | "class_declaration"
                | "abstract_class_declaration"
                | "class"
                | "interface_declaration"
                | "type_spec"
        );
        if declares {
            let line = current.start_position().row as u32 + 1;
            if let Some(index) = defs.iter().position(|d| d.line == line && d.is_type()) {
                return Some(index as u32);
            }
            let javascript_class =
                matches!(current.kind(), "class_declaration" | "abstract_class_declaration" | "class");
            return javascript_class.then(|| returned_class_owner(line, defs)).flatten();
        }
    }
    None
}

/// The definition a JavaScript/TypeScript class on `line` that is not listed itself belongs to:
/// the name a function called at once binds it to (`var Model = (function () { return class
/// extends Store {…} })()` is listed as `Model`, lines before the class), when that is the
/// innermost definition around it and a type. A class made inside a function or method is none.
fn returned_class_owner(line: u32, defs: &[Def]) -> Option<u32> {
    let (index, innermost) = defs
        .iter()
        .enumerate()
        .filter(|(_, def)| def.start_line <= line && line <= def.end_line)
        .max_by_key(|(_, def)| (def.start_line, std::cmp::Reverse(def.end_line)))?;
    innermost.is_type().then_some(index as u32)
}

/// For the name of a callback's parameter: the callback's position among the call's arguments and
/// the parameter's among the callback's (`f(a, (x, y) => …)`: 1 and 1 for `y`).
fn callback_position<'t>(name: Node<'t>, parents: &Parents<'t>) -> Option<(u32, u32)> {
    let parent = parents.of(name)?;
    let (function, parameter) = match parent.kind() {
        "required_parameter" => (parents.of(parents.of(parent)?)?, position_among_siblings(parent)),
        _ => (parent, 0),
    };
    Some((position_among_siblings(function), parameter))
}

/// How many named nodes come before `node` under its parent, comments not counted.
fn position_among_siblings(node: Node) -> u32 {
    let mut position = 0;
    let mut previous = node.prev_named_sibling();
    while let Some(sibling) = previous {
        position += u32::from(!sibling.is_extra());
        previous = sibling.prev_named_sibling();
    }
    position
}

/// The position of a Rust tuple pattern's item: `1` for `v` of `(k, v)` and of `(_, v)`, whose
/// `_` is no named node.
fn tuple_position(item: Node) -> u32 {
    let mut position = 0;
    let mut previous = item.prev_sibling();
    while let Some(sibling) = previous {
        position += u32::from(!sibling.is_extra() && !matches!(sibling.kind(), "(" | "," | ")"));
        previous = sibling.prev_sibling();
    }
    position
}

/// Whether the name `node` is assigned `None`, `null`, `undefined` or `nil`, and no type is
/// written with it.
fn assigns_nothing<'t>(node: Node<'t>, parents: &Parents<'t>) -> bool {
    let Some(assignment) = parents.of(node) else { return false };
    let value = assignment.child_by_field_name("right").or_else(|| assignment.child_by_field_name("value"));
    let typed = assignment.child_by_field_name("type").is_some();
    !typed && value.is_some_and(|value| matches!(value.kind(), "none" | "null" | "undefined" | "nil"))
}

/// Keeps a binding of a plain name or a `self.` attribute; of several matches of one name, the
/// one that says most: a written type, else an expression to evaluate.
fn record_binding(bound: &mut BTreeMap<(usize, String), Binding>, node: Node, binding: Binding) {
    let plain = |n: &str| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '#' | '$'));
    let name = binding.name.as_str();
    let attribute = name.strip_prefix("self.").or_else(|| name.strip_prefix("this."));
    if !(plain(name) || attribute.is_some_and(plain)) {
        return;
    }
    let says = |b: &Binding| match (&b.type_name, &b.value, &b.each) {
        (Some(_), _, _) if b.collection.is_some() || b.elements_of.is_some() => 3,
        (Some(_), _, _) => 2,
        (None, Some(_), _) | (None, None, Some(_)) => 1,
        _ if b.callback.is_some() => 1,
        _ => 0,
    };
    let entry = bound.entry((node.start_byte(), binding.name.clone())).or_insert_with(|| binding.clone());
    if says(&binding) > says(entry) {
        *entry = binding;
    }
}

/// A bare call of a name bound earlier in the same function or one enclosing it (a parameter, a
/// closure in a variable; a decorator's `f` called in its nested `wrapper`). A function's own
/// name is no local of it (`const f = () => …` declares `f`).
fn calls_a_local(r: &Ref, locals: &HashMap<&str, Vec<u32>>, defs: &[Def], enclosers: &Enclosers) -> bool {
    let Some(caller) = r.caller.and_then(|i| defs.get(i as usize)) else { return false };
    let holds_caller = |binder: Option<u32>| {
        binder
            .and_then(|i| defs.get(i as usize))
            .is_some_and(|b| b.is_callable() && b.start_line <= caller.start_line && caller.end_line <= b.end_line)
    };
    r.kind == RefKind::Call
        && r.receiver.is_none()
        && r.name != caller.name
        && locals
            .get(r.name.as_str())
            .is_some_and(|lines| lines.iter().any(|&line| line <= r.line && holds_caller(enclosers.at(line))))
}

/// The types a quoted annotation names (`"User"`, `"models.User | None"`, `"list[User]"`), each a
/// type use with what is written before its last dot as its receiver, placed where it is written
/// (a quoted annotation spans one line but for rare triple-quoted ones, placed on their first).
fn quoted_types(annotation: &str, line: u32, column: u32, caller: Option<u32>) -> Vec<Ref> {
    let mut out = Vec::new();
    let mut rest = annotation.char_indices().peekable();
    while let Some((start, c)) = rest.next() {
        if !(c.is_alphabetic() || c == '_') {
            continue;
        }
        let mut end = start + c.len_utf8();
        while let Some(&(i, c)) = rest.peek().filter(|(_, c)| c.is_alphanumeric() || *c == '_' || *c == '.') {
            end = i + c.len_utf8();
            rest.next();
        }
        let path = annotation[start..end].trim_end_matches('.');
        let (receiver, name) = match path.rsplit_once('.') {
            Some((receiver, name)) => (Some(receiver.to_string()), name),
            None => (None, path),
        };
        if name.is_empty() || name == "None" {
            continue;
        }
        let offset = annotation[..start].chars().count() as u32;
        out.push(Ref {
            name: name.to_string(),
            kind: RefKind::Type,
            line,
            column: column + offset + receiver.as_ref().map_or(0, |r| r.chars().count() as u32 + 1),
            receiver,
            caller,
        });
    }
    out
}

/// Whether a quoted annotation is a value of `Literal[…]` (`Literal["open", "closed"]`), which names
/// no type.
fn in_literal<'t>(content: Node<'t>, parents: &Parents<'t>, source: &str) -> bool {
    parents
        .ancestors(content)
        .find(|a| a.kind() == "generic_type")
        .and_then(|generic| generic.named_child(0))
        .is_some_and(|name| {
            let name = name.utf8_text(source.as_bytes()).unwrap_or_default();
            name == "Literal" || name.ends_with(".Literal")
        })
}

/// The more specific kind wins when patterns overlap: a Python annotation's `models.User` is a
/// type use, not a read of the module's attribute.
fn rank(kind: RefKind) -> u8 {
    match kind {
        RefKind::Read => 0,
        RefKind::Type => 1,
        RefKind::Method => 2,
        RefKind::Call => 3,
        RefKind::New => 4,
    }
}

/// The 1-based column of `node`'s first character on its line, counted in characters as an
/// editor shows it (tree-sitter counts bytes).
fn column_of(node: Node, source: &str) -> u32 {
    let start = node.start_byte();
    let line_start = start - node.start_position().column;
    source.get(line_start..start).map_or(0, |before| before.chars().count() as u32) + 1
}

/// A receiver as written. Among a macro's tokens a path is loose tokens, so the path before a
/// name is gathered back from them: `super::checks` of `super::checks::is_ready(level)`.
fn receiver_text<'s, 't>(
    receiver: Node<'t>,
    source: &'s str,
    parents: &Parents<'t>,
) -> Option<std::borrow::Cow<'s, str>> {
    let own = receiver.utf8_text(source.as_bytes()).ok()?;
    if !in_tokens(receiver, parents) {
        return Some(own.into());
    }
    if let Some(qualified) = qualified_in_tokens(receiver) {
        return source.get(qualified).map(Into::into);
    }
    let mut start = receiver;
    while let Some(separator) = start.prev_sibling().filter(|previous| previous.kind() == "::")
        && let Some(segment) = separator
            .prev_sibling()
            .filter(|previous| matches!(previous.kind(), "identifier" | "self" | "super" | "crate"))
    {
        start = segment;
    }
    source.get(start.start_byte()..receiver.end_byte()).map(Into::into)
}

/// The bytes of a qualified path among a macro's tokens whose trait is `receiver`: `<[u8; 4] as
/// Array>` of `assert_eq!(<[u8; 4] as Array>::size(), 4)`, which names the trait as written
/// outside a macro (see [`bindings::qualified_trait`]).
fn qualified_in_tokens(receiver: Node) -> Option<std::ops::Range<usize>> {
    let close = receiver.next_sibling().filter(|next| next.kind() == ">")?;
    receiver.prev_sibling().filter(|previous| previous.kind() == "as")?;
    let mut depth = 0usize;
    let mut token = receiver.prev_sibling();
    while let Some(node) = token {
        match node.kind() {
            ">" => depth += 1,
            "<" if depth == 0 => return Some(node.start_byte()..close.end_byte()),
            "<" => depth -= 1,
            _ => {}
        }
        token = node.prev_sibling();
    }
    None
}

/// Whether `node` is one of a token tree's tokens.
fn in_tokens<'t>(node: Node<'t>, parents: &Parents<'t>) -> bool {
    parents.of(node).is_some_and(|parent| parent.kind() == "token_tree")
}

/// Whether a name among a token tree's tokens follows `.` or `::`.
fn after_a_path_or_receiver(node: Node) -> bool {
    node.prev_sibling().is_some_and(|previous| matches!(previous.kind(), "." | "::"))
}

/// Whether a name among a macro call's tokens is called: the very next token (punctuation
/// counts: the query's anchors skip it) is a parenthesized group, the name is not a definition's
/// (`fn connect(…)` in `cfg_net! { … }`), and the tokens are a macro call's arguments, not an
/// attribute's (`#[cfg(not(test))]` calls nothing).
fn called_in_tokens<'t>(node: Node<'t>, parents: &Parents<'t>) -> bool {
    let group = node.next_sibling().filter(|next| next.kind() == "token_tree");
    let parenthesized = group.and_then(|group| group.child(0)).is_some_and(|open| open.kind() == "(");
    let defined =
        node.prev_sibling().is_some_and(|previous| matches!(previous.kind(), "fn" | "struct" | "enum" | "union"));
    let macro_call = parents
        .ancestors(node)
        .find(|ancestor| ancestor.kind() != "token_tree")
        .is_some_and(|owner| owner.kind() == "macro_invocation");
    parenthesized && !defined && macro_call
}

/// A type identifier that is the name of its own declaration (`struct Foo`, `class Foo`).
fn names_a_declaration<'t>(node: Node<'t>, parents: &Parents<'t>) -> bool {
    let Some(parent) = parents.of(node) else { return false };
    let declares = ["_item", "_declaration", "_definition", "_spec", "type_parameter"];
    parent.child_by_field_name("name") == Some(node) && declares.iter().any(|suffix| parent.kind().ends_with(suffix))
}

/// A receiver on one line with inner whitespace collapsed, cut at 80 characters. Only what is
/// kept is read: the receivers of a chain `a.b().c()…` are each the whole chain before them.
fn compact(text: &str) -> String {
    const KEPT: usize = 80;
    let mut one_line = String::new();
    let (mut kept, mut space) = (0, false);
    for c in text.chars() {
        if c.is_whitespace() {
            space = kept > 0;
            continue;
        }
        for c in space.then_some(' ').into_iter().chain([c]) {
            if kept == KEPT {
                one_line.push('…');
                return one_line;
            }
            one_line.push(c);
            kept += 1;
        }
        space = false;
    }
    one_line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::SUPPORTED;

    #[test]
    fn every_query_compiles_against_its_grammar() {
        for language in SUPPORTED {
            let source = query_source(language).expect("a supported language has a query");
            if let Err(err) = Query::new(&language.grammar(), &source) {
                panic!("{language:?}: {err}");
            }
        }
        assert!(query(Language::Ruby).is_none());
    }

    /// Each link of a long chain is a method call on the chain before it, and a closure's
    /// parameter is typed by the receiver its adapter is called on (what the queries found before
    /// they read receivers from the tree; a chain like this one, 20,000 links long, took minutes).
    /// QA: the impact of a Python class missed the files naming it as `models.User` or in a quoted
    /// annotation; a `Literal["…"]`'s strings name no type.
    #[test]
    fn python_annotations_name_types_through_modules_and_in_quotes() {
        let source = "from pkg import models\n\n\ndef f(a: models.User, b: \"User | None\", c: \"pkg.models.Group\", \
                      d: Literal[\"Admin\"]) -> list[\"Team\"]:\n    pass\n";
        let facts = crate::facts::extract(Language::Python, source);
        let types: Vec<(String, Option<String>, u32)> = facts
            .refs
            .iter()
            .filter(|r| r.kind == RefKind::Type)
            .map(|r| (r.name.clone(), r.receiver.clone(), r.column))
            .collect();
        // Columns of the names, after any receiver: `models.User` at 10, `"User` at 26, …
        let line = source.lines().nth(3).unwrap();
        let column = |written: &str, skip: usize| line.find(written).unwrap() as u32 + 1 + skip as u32;
        let (models, pkg) = (Some("models".to_string()), Some("pkg.models".to_string()));
        assert_eq!(
            types,
            [
                ("User".to_string(), models, column("models.User", 7)),
                ("User".to_string(), None, column("\"User", 1)),
                ("Group".to_string(), pkg, column("pkg.models.Group", 11)),
                ("Team".to_string(), None, column("\"Team", 1)),
            ]
        );
        assert!(facts.refs.iter().all(|r| r.name != "Admin"));
    }

    #[test]
    fn every_link_of_a_long_chain_is_read() {
        let links = 2_000;
        let source = format!("fn f(x: Vec<Order>) {{\n    x.iter(){};\n}}\n", ".map(|s| s.total())".repeat(links));
        let facts = crate::facts::extract(Language::Rust, &source);
        let maps: Vec<&Ref> = facts.refs.iter().filter(|r| r.name == "map").collect();
        assert_eq!(maps.len(), links);
        assert!(maps.iter().all(|r| r.kind == RefKind::Method));
        assert_eq!(maps[0].receiver.as_deref(), Some("x.iter()"));
        let last = maps[links - 1].receiver.as_deref().expect("a receiver");
        assert_eq!(last, format!("{}…", &format!("x.iter(){}", ".map(|s| s.total())".repeat(5))[..80]));
        assert_eq!(
            facts.refs.iter().filter(|r| r.name == "total" && r.receiver.as_deref() == Some("s")).count(),
            links
        );
        let each: Vec<Option<&str>> =
            facts.bindings.iter().filter(|b| b.name == "s").map(|b| b.each.as_deref()).collect();
        assert_eq!(each.len(), links);
        assert_eq!(each[0], Some("x"), "iter() hands on x's elements");
        assert_eq!(each[1], Some("x.iter().map(|s| s.total())"));
    }

    /// Every callback of an adapter chain iterates the chain's collection: each asked for it by
    /// walking the chain before it back to its start, so this chain of 5,000 `filter`s took 9.6 s
    /// of a debug build's CPU (0.5 s now; docs/benchmarks.md). A second chain in the same file,
    /// whose adapters follow a `map`, iterates what the `map` gives.
    #[test]
    fn every_callback_of_a_long_adapter_chain_iterates_its_collection() {
        let adapters = 5_000;
        let source = format!(
            "fn f(x: Vec<Order>, y: Vec<Order>) {{\n    x.iter(){};\n    y.iter().map(|t| t).filter(|u| u.ok()).rev().filter(|v| \
             v.ok());\n}}\n",
            ".filter(|s| s.ok())".repeat(adapters)
        );
        let facts = crate::facts::extract(Language::Rust, &source);
        let each = |name: &str| -> Vec<Option<String>> {
            facts.bindings.iter().filter(|b| b.name == name).map(|b| b.each.clone()).collect()
        };
        assert_eq!(each("s"), vec![Some("x".to_string()); adapters]);
        assert_eq!(each("u"), [Some("y.iter().map(|t| t)".to_string())]);
        assert_eq!(each("v"), [Some("y.iter().map(|t| t)".to_string())]);
    }

    #[test]
    fn a_receiver_is_one_line_of_at_most_80_characters() {
        assert_eq!(compact("  a\n   .b()\t.c() "), "a .b() .c()");
        let long = "é".repeat(80);
        assert_eq!(compact(&long), long, "exactly 80 kept whole");
        assert_eq!(compact(&format!("{long} \n")), long, "trailing whitespace is no 81st character");
        assert_eq!(compact(&format!("{long} x")), format!("{long}…"), "the space is the 81st");
        assert_eq!(compact(&format!("{}.b()", "a".repeat(100_000))), format!("{}…", "a".repeat(80)));
    }
}
