//! JavaScript, TypeScript and TSX (one table: TypeScript's grammar extends JavaScript's, and
//! kinds a grammar lacks simply never match).

use std::collections::HashSet;
use std::ops::Range;

use tree_sitter::Node;

use super::{
    Constructors, Names, Past, Prefix, Private, Rule, SHORT_VALUE, Spec, Untyped, field_text, name_field,
    previous_statement,
};
use crate::model::Kind;
use crate::text::node_text;

pub(super) static SPEC: Spec = Spec {
    rules: &[
        // A function's body is walked for the types it declares (immer's `enableMapSet()` holds
        // its `DraftMap` and `DraftSet` classes) and, in a module factory, its function
        // declarations (see `Owner::factory`); its other locals are not outlined.
        Rule::new("function_declaration", Kind::Function).members("body").implements_overloads(implements_overloads),
        Rule::new("generator_function_declaration", Kind::Function).members("body"),
        // Overload signatures and `declare function`.
        Rule::new("function_signature", Kind::Function).whole(),
        Rule::new("class_declaration", Kind::Class).members("body").head_members(base_type_literals),
        Rule::new("abstract_class_declaration", Kind::Class).members("body").head_members(base_type_literals),
        Rule::new("method_definition", Kind::Method).named(method_name).implements_overloads(implements_overloads),
        Rule::new("method_signature", Kind::Method).whole(),
        Rule::new("abstract_method_signature", Kind::Method).whole(),
        // An interface's `new (…): T`: what `new` on a value of the type takes and gives.
        Rule::new("construct_signature", Kind::Method).named(|_, _| Some("new".to_string())).whole(),
        Rule::new("interface_declaration", Kind::Interface).members("body").head_members(base_type_literals),
        // Members other modules can use: interface properties, and class fields that are not
        // `private` or `#private`.
        Rule::classify("property_signature", visible_member).whole(),
        Rule::classify("public_field_definition", visible_member).head_end(&["value"]),
        Rule::classify("field_definition", visible_member).named(field_property).head_end(&["value"]),
        Rule::new("type_alias_declaration", Kind::TypeAlias).whole(),
        // An enum's members are its API, listed as its fields: `Red`, `Green = 'green'`.
        Rule::new("enum_declaration", Kind::Enum).members("body"),
        Rule::new("enum_assignment", Kind::Field).whole(),
        // A member without a value (`Red`, `'x-y'`). The kinds occur elsewhere too (in the error
        // nodes the walk looks into), so only an enum body's count.
        Rule::classify("property_identifier", enum_member).named(whole_text).whole(),
        Rule::classify("string", enum_member).named(whole_text).whole(),
        Rule::new("internal_module", Kind::Module).members("body"),
        Rule::new("module", Kind::Module).members("body"),
        // A function value's body is walked as a declared function's is; lodash binds its
        // factory in parentheses (`var runInContext = (function runInContext(context) { … })`).
        // An object of methods bound to a name (`export const api = { get(path) {…} }`, `var
        // Utils = { trim: function (s) {…} }`) has them as its members.
        Rule::classify("variable_declarator", declarator)
            .named(declared_names)
            .head_end(&["value"])
            .body(function_value_body)
            .head_members(bound_methods)
            .value_head(returned_function_or_class),
        // CommonJS and prototype APIs: `res.send = function send(body) {…}`, `exports.parse =
        // (text) => …`, `Router.prototype.route = function (path) {…}`, and an alias assigned
        // with it (`res.contentType = res.type = function contentType(type) {…}`); CommonJS's
        // export list, `module.exports = { parse, stringify }`, or the one value it exports,
        // `module.exports = res` (express's response.js, its methods assigned to `res`); and an
        // object of methods given
        // to a prototype or an export (`Store.prototype = { get: function (key) {…} }`), read as
        // a mixin below is.
        Rule::classify("assignment_expression", assigned_function)
            .named(assigned_name)
            .head_end(&[])
            .body(assigned_function_body)
            .head_members(assigned_methods),
        // A property a function or class is given data in at module level, its static API:
        // `Emitter.VERSION = '1.0'`, `Select.defaultProps = {…}`. A field of the definition, when
        // the file defines one of that name at its top level (see `Rule::owned_by`).
        Rule::classify("assignment_expression", static_property)
            .named(static_property_name)
            .whole()
            .initializers(long_value)
            .owned_by(property_owner),
        // Data a CommonJS module exports by assignment, `exports.VERSION = '1.0'` (also what tsc
        // writes for `export const VERSION = '1.0'`), or an object of data it exports whole
        // (`module.exports = { retries: 3 }`): its API as much as an exported name is.
        Rule::classify("assignment_expression", exported_data).named(assigned_name).whole().initializers(long_value),
        // Methods mixed into an object at module level, how code written before classes gives a
        // type its API: `_.extend(Model.prototype, Events, { save: function (…) {…} })`,
        // `jQuery.fn.extend({ … })`, `Object.assign(Store.prototype, { … })`. The call is the
        // head, its object read `{…}`; the object's functions are the members.
        Rule::classify("call_expression", mixin).named(mixin_target).whole().head_members(mixed_in),
        // A property given accessors at module level, how code written before classes gives a
        // type a getter: `Object.defineProperty(Emitter.prototype, 'count', { get: function ()
        // {…} })` is `Emitter.prototype.count`, its descriptor read `{…}`, its accessors the
        // members. A descriptor of data only (`{ value: true }`: tsc's `__esModule` mark) is not.
        Rule::classify("call_expression", defined_property)
            .named(defined_property_name)
            .whole()
            .head_members(property_accessors),
        // An instance made by a statement at module level from an options object of methods (a
        // Vue 2 root instance: `new Vue({ methods: { … } })`), read as a mixin's object is.
        Rule::classify("new_expression", constructed).named(constructor_name).whole().head_members(mixed_in),
        // A function-valued property of such an object (`save: function (key, val) {…}`), and an
        // object of methods nested in one (a Vue component's `methods: { toggle() {…} }`).
        // And a name an object `module.exports` is given with methods exports under a key
        // (`module.exports = { parse, format: stringify, escape() {…} }`): listed as a field by
        // its key, as a shorthand one is. Data written out there (`VERSION: '1.0'`, an ESLint
        // rule's `meta: {…}`) is not.
        Rule::classify("pair", function_property)
            .named(property_key)
            .head_end(&["value/body"])
            .head_members(property_methods)
            .initializers(property_value),
        Rule::classify("shorthand_property_identifier", exported_property).named(whole_text).whole(),
        // Without a declaration inside, `export` lists or re-exports names: a barrel file's API.
        // A default export of an object of methods (a Vue component or plugin, an ESLint plugin:
        // `export default { install(app) {…} }`) has them as its members, as `module.exports`.
        // An anonymous function or class exported by default is the module's API, named
        // `default`: `export default class { run() {…} }` has its methods as members.
        Rule::classify("export_statement", export_list)
            .named(exported_names)
            .whole()
            .body(default_value_body)
            .head_members(default_methods),
    ],
    wrappers: &[
        ("export_statement", Prefix::Full),
        ("ambient_declaration", Prefix::Full),
        ("lexical_declaration", Prefix::Keyword),
        ("variable_declaration", Prefix::Keyword),
    ],
    // TypeScript puts a method's decorators before it in the class body.
    attributes: &["decorator"],
    decorations: &["decorator"],
    unshown: &[],
    conditional: None,
    sections: None,
    module_factories: true,
    class_constants: false,
    error_ends_head: false,
    layout_judged: true,
    margin_nests: false,
    indentation_is_syntax: false,
    multiline_strings: &[],
    // A class member is public unless it says otherwise.
    implied: &[("accessibility_modifier", "public")],
    // A long list of what an interface extends or a class implements is the parents' API, not
    // this type's: `interface Table<TData> extends …`. A long list of type parameters or
    // arguments reads `<TQueryFnData, …>`.
    abridged: &["extends_type_clause", "extends_clause", "implements_clause", "type_parameters", "type_arguments"],
    // `<TData extends RowData = any>` reads `<TData>`: the parameter is what a reader writes.
    elided: &["constraint", "default_type"],
    // Generic TypeScript heads run long on parameter types (`options: QueryObserverOptions<…>`);
    // past 100 characters the names and the return type stay.
    untyped: Some(Untyped { past: Past::Characters(100), names: Names::BeforeColon }),
    reparse: None,
    invoked_body: Some(invoked_body),
    unparsed_lead: None,
    overloads: Some(overloaded_type),
    // A statement may assign several names with the comma operator (`exports.a = a, exports.b =
    // b;`, bundled code), and a deleted line can join a definition to the next one that way
    // (`module.exports = {…}, create(context) {…}` after an object lost its `{`).
    transparent: &["expression_statement", "sequence_expression"],
    member_lists: &["object_type"],
    imports: &["import_statement", "lexical_declaration", "variable_declaration"],
    is_import,
    import_keywords: &["import "],
    constructors: Constructors::Named(&["constructor"]),
    private: &[
        Private::fields("public_field_definition", name_field),
        Private::fields("field_definition", field_property),
        Private::fields("required_parameter", parameter_property),
        Private::fields("optional_parameter", parameter_property),
        // A function's nested `function helper() {…}` is its detail in the views, and a reader
        // still looks for it by name, as for a Rust function's nested `fn`; a function value
        // bound to a local (`const helper = () => …`) is a local, as a Rust `let` is.
        Private { node: "function_declaration", names: name_field, kind: |_, _| Some(Kind::Function) },
        Private { node: "generator_function_declaration", names: name_field, kind: |_, _| Some(Kind::Function) },
    ],
};

/// What a type literal lists that the outline shows as a member.
const MEMBERS: [&str; 3] = ["property_signature", "method_signature", "construct_signature"];

const FUNCTION_VALUES: [&str; 4] = ["arrow_function", "function_expression", "function", "generator_function"];

/// The body of a declarator's function or class value, however written (see [`assigned_value`]).
/// A declaration typed as a function (`const f: <A>(a: A) => A = …`) has its signature in the
/// type: its head ends before the value, whose parameters would only repeat the type's, and its
/// value is not walked. (A list of call signatures is often shortened to `{ <…>(…): … }`, and
/// the value's parameters then name what the type no longer shows.)
fn function_value_body(declarator: Node) -> Option<Node> {
    let typed = declarator.child_by_field_name("type").and_then(|annotation| annotation.named_child(0));
    if typed.is_some_and(|written| written.kind() == "function_type") {
        return None;
    }
    value_body(declarator.child_by_field_name("value")?)
}

/// The body of an assigned function or class, however written (see [`assigned_value`]).
fn assigned_function_body(assignment: Node) -> Option<Node> {
    value_body(assignment.child_by_field_name("right")?)
}

fn value_body(value: Node) -> Option<Node> {
    let value = assigned_value(value);
    (FUNCTION_VALUES.contains(&value.kind()) || value.kind() == "class").then(|| value.child_by_field_name("body"))?
}

/// `const f = (…) => …` (with any keyword) is a function, and `let Cache = class {…}` a class;
/// another `const` is a constant; an exported or declared `let`/`var` is a variable whatever its
/// value (other code reads it: `export let counter = 0`, `declare var process: Process`), and so
/// is one at file level, as a `const` there is (true-myth's `let NOTHING: Nothing<any>`, which the
/// module's functions share, was missing from the views and from symbol search), and one of an
/// object of methods, or of what a call given one returns (see [`defined_object`]; a namespace:
/// `var Utils = { … }`); another `let`/`var` (a wrapper function's, a block's) is that code's own
/// state, not outlined.
fn declarator(node: Node, source: &str) -> Option<Kind> {
    match node.child_by_field_name("value").map(|value| assigned_value(value).kind()) {
        Some(value) if FUNCTION_VALUES.contains(&value) => return Some(Kind::Function),
        Some("class") => return Some(Kind::Class),
        _ => {}
    }
    // Destructuring (`const { a, b: c } = obj`) binds the names its pattern does, listed as a
    // declaration of several is (see [`declared_names`]); its value is never a module or class.
    let destructures = node.child_by_field_name("name").is_some_and(|name| name.kind() != "identifier");
    if destructures {
        return match node_text(node.parent()?.child(0)?, source) {
            "const" => Some(Kind::Const),
            _ => (is_exported(node) || at_file_level(node)).then_some(Kind::Variable),
        };
    }
    if let Some(returned) = returned_at_once(node, source) {
        if is_module(&returned, source) {
            return Some(Kind::Module);
        }
        if let Some(kind) = returned_declaration(&returned, source) {
            return Some(kind);
        }
    }
    match node_text(node.parent()?.child(0)?, source) {
        "const" => Some(Kind::Const),
        _ if is_exported(node) || at_file_level(node) => Some(Kind::Variable),
        _ => (!bound_methods(node, source).is_empty()).then_some(Kind::Variable),
    }
}

/// What a declarator binds: its name, or each name its destructuring pattern binds, in order and
/// joined by `, ` as a declaration of several is (`a, renamed, rest` for `const { a, b: renamed,
/// ...rest } = obj`; `x, y` for `let [x, , y = 2] = arr`). A property's key, a default value and a
/// hole bind nothing. `None` when the pattern binds no name (`const {} = obj`).
fn declared_names(declarator: Node, source: &str) -> Option<String> {
    let mut names = Vec::new();
    let mut pending = vec![declarator.child_by_field_name("name")?];
    while let Some(pattern) = pending.pop() {
        match pattern.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => names.push(node_text(pattern, source)),
            "pair_pattern" => pending.extend(pattern.child_by_field_name("value")),
            "assignment_pattern" | "object_assignment_pattern" => pending.extend(pattern.child_by_field_name("left")),
            // Children are pushed last first, so they are taken in source order.
            "object_pattern" | "array_pattern" | "rest_pattern" => {
                let mut cursor = pattern.walk();
                let inner: Vec<Node> = pattern.named_children(&mut cursor).collect();
                pending.extend(inner.into_iter().rev());
            }
            _ => {}
        }
    }
    (!names.is_empty()).then(|| names.join(", "))
}

/// Whether a declarator's declaration is a statement of the file.
fn at_file_level(declarator: Node) -> bool {
    let statement = declarator.parent().and_then(|declaration| declaration.parent());
    statement.is_some_and(|statement| statement.kind() == "program")
}

/// Whether a declarator's declaration is exported (`export let a = 1, b = 2`) or declared for
/// other code to use (`declare var process: Process`, a declaration file's global).
fn is_exported(declarator: Node) -> bool {
    let statement = declarator.parent().and_then(|declaration| declaration.parent());
    statement.is_some_and(|statement| matches!(statement.kind(), "export_statement" | "ambient_declaration"))
}

/// The object literal of methods a declarator binds (`const api = { get(path) {…} }`), or gives
/// the call it binds the result of (see [`defined_object`]), when it holds a function; or what a
/// function it calls at once returns, when that is a module or a class.
///
/// A module is written before ES modules: the revealing-module pattern (`var Counter = (function
/// () { function increment(step) {…} return { increment: increment, reset: function () {…} };
/// })()`), an API built under a name (lz-string's `var LZString = { compress: function (input)
/// {…} }; return LZString;`) or in an object it is given (Rollup's `var Vue = (function (exports)
/// { function h(…) {…} … return exports; })({})`). What the body declares and the returned
/// object's functions are the bound name's (the body and the returned value are the member
/// lists); like a module wrapped in a function, its private helpers are listed. A function that
/// returns a value computed, data, a function or a class of its own, or that is `async` or a
/// generator, is not a module; nor is a binding with a type (its API is there).
///
/// A returned class (a bundler's `var Queue = (function () { class Queue2 { push(item) {…} }
/// return Queue2; })()`) has its members under the bound name, and so do the functions the
/// wrapper assigns to it after (`Queue2.prototype.drain = function () {…}`, `Queue2.of =
/// function (…) {…}`), as they would be at file level; so does a returned constructor function
/// given prototype methods, a class written before classes (see [`returned_declaration`]).
fn bound_methods<'t>(declarator: Node<'t>, source: &str) -> Vec<Node<'t>> {
    if let Some(object) = defined_object(declarator.child_by_field_name("value")) {
        return vec![object];
    }
    let Some(returned) = returned_at_once(declarator, source) else {
        return Vec::new();
    };
    if is_module(&returned, source) {
        return vec![returned.body, returned.returned];
    }
    let Some(definition) = returned_definition(&returned, source) else {
        return Vec::new();
    };
    let assigned = returned_assignments(&returned, source);
    match is_class(definition) {
        true => definition.child_by_field_name("body").into_iter().chain(assigned).collect(),
        false if gives_prototype(&assigned, source) => assigned,
        false => Vec::new(),
    }
}

/// The statements of the wrapper's body that assign to a property of the name it returns.
fn returned_assignments<'t>(at_once: &Returned<'t, '_>, source: &str) -> Vec<Node<'t>> {
    let returned_name = Some(at_once.returned).filter(|node| node.kind() == "identifier");
    returned_name.map_or_else(Vec::new, |name| assignments_to(at_once.body, node_text(name, source), source))
}

/// Whether some of these assignments give a prototype its methods (`Queue2.prototype.push = …`).
fn gives_prototype(assignments: &[Node], source: &str) -> bool {
    assignments
        .iter()
        .filter_map(|statement| statement.named_child(0).and_then(|assignment| assignment.child_by_field_name("left")))
        .any(|left| on_prototype(node_text(left, source)))
}

/// The statements of `body` that assign to a property of `name` (`Name.prototype.x = …`,
/// `Name.x = …`).
fn assignments_to<'t>(body: Node<'t>, name: &str, source: &str) -> Vec<Node<'t>> {
    let assigns_to_name = |statement: &Node| {
        let left = statement
            .named_child(0)
            .filter(|assignment| assignment.kind() == "assignment_expression")
            .and_then(|assignment| assignment.child_by_field_name("left"))
            .filter(|left| is_property(*left));
        left.is_some_and(|left| node_text(property_root(left), source) == name)
    };
    let mut cursor = body.walk();
    body.named_children(&mut cursor)
        .filter(|statement| statement.kind() == "expression_statement" && assigns_to_name(statement))
        .collect()
}

/// The object a chain of property accesses starts from (`Name` of `Name.prototype.x`).
fn property_root(mut target: Node) -> Node {
    while let Some(object) =
        Some(target).filter(|node| is_property(*node)).and_then(|node| node.child_by_field_name("object"))
    {
        target = object;
    }
    target
}

/// The function a declarator's value, a function called at once, returns (see
/// [`returned_definition`]), or the class when it has a base: its parameters or its base are
/// the head's (a class's inner name alone says nothing a caller writes).
fn returned_function_or_class<'t>(declarator: Node<'t>, source: &str) -> Option<Node<'t>> {
    let returned = returned_at_once(declarator, source)?;
    let definition = (!is_module(&returned, source)).then(|| returned_definition(&returned, source))??;
    let mut cursor = definition.walk();
    let has_base = definition.children(&mut cursor).any(|child| child.kind() == "class_heritage");
    (!is_class(definition) || has_base).then_some(definition)
}

/// Whether what a function called at once returns makes it a module (see [`bound_methods`]).
fn is_module(at_once: &Returned, source: &str) -> bool {
    let Returned { call, function, returned, callables, objects, .. } = at_once;
    match returned.kind() {
        "object" => holds_function(*returned) || names_declared(*returned, source, callables, objects),
        "identifier" => {
            let name = node_text(*returned, source);
            objects.contains(name) || (!callables.is_empty() && given_object_as(*call, *function, name, source))
        }
        _ => false,
    }
}

/// What a function called at once returns when that is a function or class it declares or
/// writes in its `return` (see [`returned_definition`]; redux-toolkit's bundled `var
/// createAsyncThunk = (() => { function createAsyncThunk2(…) {…} … return createAsyncThunk2;
/// })()`): the bound name is a function's (or a class's), though none is written after it.
///
/// A returned function whose prototype the wrapper gives methods is a class's constructor
/// (`function Queue2(items) {…} Queue2.prototype.push = function (item) {…}; return Queue2;`).
fn returned_declaration(at_once: &Returned, source: &str) -> Option<Kind> {
    let declared = returned_definition(at_once, source)?;
    let constructor = || gives_prototype(&returned_assignments(at_once, source), source);
    Some(if is_class(declared) || constructor() { Kind::Class } else { Kind::Function })
}

/// Whether a node [`returned_definition`] gives is a class (declared, abstract, or an expression)
/// rather than a function.
fn is_class(declared: Node) -> bool {
    matches!(declared.kind(), "class" | "class_declaration" | "abstract_class_declaration")
}

/// The function or class a function called at once returns: written in its `return`, or named
/// there and declared or bound in the body. As at run time, the name's last binding in the body
/// decides, and a function declaration, hoisted, only when nothing else binds the name (a value
/// bound after or before such a function is not one).
fn returned_definition<'t>(at_once: &Returned<'t, '_>, source: &str) -> Option<Node<'t>> {
    let returned = at_once.returned;
    let definition = |node: Node| is_class(node) || FUNCTION_VALUES.contains(&node.kind());
    if definition(returned) {
        return Some(returned);
    }
    let name = Some(returned).filter(|returned| returned.kind() == "identifier").map(|n| node_text(n, source))?;
    let names = |node: Node| node.child_by_field_name("name").is_some_and(|named| node_text(named, source) == name);
    let mut cursor = at_once.body.walk();
    let (mut hoisted, mut bound) = (None, None);
    for statement in at_once.body.named_children(&mut cursor) {
        match statement.kind() {
            "function_declaration" | "generator_function_declaration" if names(statement) => hoisted = Some(statement),
            "class_declaration" | "abstract_class_declaration" if names(statement) => bound = Some(Some(statement)),
            "variable_declaration" | "lexical_declaration" => {
                let mut declarators = statement.walk();
                for declarator in statement.named_children(&mut declarators).filter(|d| names(*d)) {
                    if let Some(value) = declarator.child_by_field_name("value").map(assigned_value) {
                        bound = Some(Some(value).filter(|value| definition(*value)));
                    }
                }
            }
            // `parse2 = wrap(parse2)`: what the name holds from there on.
            "expression_statement" => {
                let assignment = statement.named_child(0).filter(|node| node.kind() == "assignment_expression");
                let assigns = |assignment: &Node| {
                    assignment
                        .child_by_field_name("left")
                        .is_some_and(|left| left.kind() == "identifier" && node_text(left, source) == name)
                };
                if let Some(value) = assignment.filter(assigns).and_then(|a| a.child_by_field_name("right")) {
                    bound = Some(Some(assigned_value(value)).filter(|value| definition(*value)));
                }
            }
            _ => {}
        }
    }
    bound.unwrap_or(hoisted)
}

/// What a plain function called at once for a declarator's value returns by its last statement,
/// with what its body declares that is API: functions and classes, names bound to functions
/// (`callables`), and names bound to objects of methods or to an empty object filled in later
/// (`objects`), found in one pass over the body.
struct Returned<'t, 's> {
    call: Node<'t>,
    function: Node<'t>,
    body: Node<'t>,
    returned: Node<'t>,
    callables: HashSet<&'s str>,
    objects: HashSet<&'s str>,
}

fn returned_at_once<'t, 's>(declarator: Node<'t>, source: &'s str) -> Option<Returned<'t, 's>> {
    let (call, function, body) = called_function(declarator)?;
    let mut cursor = body.walk();
    let statements: Vec<Node> = body.named_children(&mut cursor).filter(|child| child.kind() != "comment").collect();
    let last = statements.last()?;
    let returned = last.named_child(0).filter(|_| last.kind() == "return_statement").map(unparenthesized)?;
    let mut callables = HashSet::new();
    let mut objects = HashSet::new();
    for statement in &statements {
        declared_api(*statement, source, &mut callables, &mut objects);
    }
    Some(Returned { call, function, body, returned, callables, objects })
}

/// The call, the function it calls at once and that function's body, when a declarator without
/// a type binds what a plain (not `async`, not generator) function called at once returns.
fn called_function<'t>(declarator: Node<'t>) -> Option<(Node<'t>, Node<'t>, Node<'t>)> {
    if declarator.child_by_field_name("type").is_some() {
        return None;
    }
    let call = unparenthesized(declarator.child_by_field_name("value")?);
    let callee = call.child_by_field_name("function").filter(|_| call.kind() == "call_expression")?;
    let function = unparenthesized(callee);
    let is_async = function.child(0).is_some_and(|first| first.kind() == "async");
    if !matches!(function.kind(), "function_expression" | "function" | "arrow_function") || is_async {
        return None;
    }
    let body = function.child_by_field_name("body").filter(|body| body.kind() == "statement_block")?;
    Some((call, function, body))
}

/// Adds what `statement` declares that is API: function and class names to `callables`, with
/// names bound to function values; names bound to an object of methods or to an empty object
/// (filled in later: `var api = {}; api.get = function …`) to `objects`.
fn declared_api<'s>(
    statement: Node,
    source: &'s str,
    callables: &mut HashSet<&'s str>,
    objects: &mut HashSet<&'s str>,
) {
    let name = |node: Node| node.child_by_field_name("name").map(|name| node_text(name, source));
    match statement.kind() {
        "function_declaration" | "class_declaration" => callables.extend(name(statement)),
        "variable_declaration" | "lexical_declaration" => {
            let mut cursor = statement.walk();
            for declarator in statement.named_children(&mut cursor).filter(|d| d.kind() == "variable_declarator") {
                let Some(value) = declarator.child_by_field_name("value").map(assigned_value) else { continue };
                if FUNCTION_VALUES.contains(&value.kind()) {
                    callables.extend(name(declarator));
                } else if value.kind() == "object" && (value.named_child_count() == 0 || holds_function(value)) {
                    objects.extend(name(declarator));
                }
            }
        }
        _ => {}
    }
}

/// Whether an object literal names, as a value, a function or object the body declared: `{ add
/// }`, `{ add: add }`.
fn names_declared(object: Node, source: &str, callables: &HashSet<&str>, objects: &HashSet<&str>) -> bool {
    let declared = |node: Node| {
        let name = node_text(node, source);
        callables.contains(name) || objects.contains(name)
    };
    let mut cursor = object.walk();
    object.named_children(&mut cursor).any(|entry| match entry.kind() {
        "shorthand_property_identifier" => declared(entry),
        "pair" => {
            entry.child_by_field_name("value").is_some_and(|value| value.kind() == "identifier" && declared(value))
        }
        _ => false,
    })
}

/// Whether `function` takes a parameter called `name` that `call` gives an object for (Rollup's
/// `(function (exports) { … return exports; })({})`, or `(this.Lib = this.Lib || {})`).
fn given_object_as(call: Node, function: Node, name: &str, source: &str) -> bool {
    let Some(parameters) = function.child_by_field_name("parameters") else {
        return false;
    };
    let mut cursor = parameters.walk();
    let position = parameters.named_children(&mut cursor).position(|parameter| {
        let parameter = parameter.child_by_field_name("pattern").unwrap_or(parameter);
        parameter.kind() == "identifier" && node_text(parameter, source) == name
    });
    let argument = position.and_then(|at| call.child_by_field_name("arguments")?.named_child(at as u32));
    argument.is_some_and(|argument| argument.kind() == "object" || node_text(argument, source).ends_with("{}"))
}

/// The object of methods a value is, or the first one a call it makes is given: a component or
/// store built from its options (`defineComponent({ setup(props) {…}, render() {…} })`,
/// `defineStore('cart', { actions: { add(item) {…} } })`, `Vue.extend({ … })`), whose methods
/// are its API; or the object a `new` at the start of a chain of calls is given (`new Vue({ … })
/// .$mount('#app')`: the instance is what the chain returns).
fn defined_object(value: Option<Node>) -> Option<Node> {
    let value = value.map(assigned_value)?;
    match value.kind() {
        "call_expression" => given_object(constructed_then_called(value).unwrap_or(value)),
        "new_expression" => given_object(value),
        _ => object_of_methods(Some(value)),
    }
}

/// The object of methods a call is given: the first object argument that holds a function
/// (`defineStore('cart', { actions: {…} })`); for `new`, only an options object given first
/// (`new Vuex.Store({ mutations: {…} })`), not the callbacks or handler a constructor is given
/// after its subject (`new Proxy(target, { get() {…} })`), which are not the instance's methods.
fn given_object(call: Node) -> Option<Node> {
    let arguments = call.child_by_field_name("arguments")?;
    let mut cursor = arguments.walk();
    let mut candidates = arguments.named_children(&mut cursor).filter(|argument| argument.kind() != "comment");
    match call.kind() {
        "new_expression" => candidates.next().filter(|first| first.kind() == "object" && holds_function(*first)),
        _ => candidates.find(|argument| argument.kind() == "object" && holds_function(*argument)),
    }
}

/// The value an expression comes to through aliases assigned with it, parentheses and type
/// assertions: the function of `var Model = Backbone.Model = function (attributes) {…}`, of
/// `(() => {…}) as Handler`, and of `<A>(self: A) => …`, which TypeScript's grammar may read as a
/// `<A>` assertion on an arrow function.
fn assigned_value(mut value: Node) -> Node {
    loop {
        value = unparenthesized(value);
        let inner = match value.kind() {
            "assignment_expression" => value.child_by_field_name("right"),
            "as_expression" | "satisfies_expression" => value.named_child(0),
            "type_assertion" => value.named_child(value.named_child_count().saturating_sub(1) as u32),
            _ => None,
        };
        match inner {
            Some(inner) => value = inner,
            None => return value,
        }
    }
}

/// What a parenthesized expression holds, however many parentheses deep.
fn unparenthesized(mut node: Node) -> Node {
    while node.kind() == "parenthesized_expression"
        && let Some(inner) = node.named_child(0)
    {
        node = inner;
    }
    node
}

/// A function or class assigned to a property at file level: a method when it goes on a
/// prototype, else a function (or class); or what `module.exports` names (see [`names_exports`]),
/// or a name exported under a name of its own (`exports.default = Emitter`, `module.exports.parse
/// = parser.parse`).
fn assigned_function(node: Node, source: &str) -> Option<Kind> {
    let left = assigned_property(node, source)?;
    let statement = statement_of(node).filter(|statement| module_level(*statement, source))?;
    let value = assigned_value(node.child_by_field_name("right")?);
    let export_list = node_text(left, source) == "module.exports" && (names_exports(value) || computed(value));
    let exported = is_export(left, source) || on_exports_alias(left, statement, source);
    let exported_name = exported && (names_a_value(value) || computed(value) || operated(value));
    let methods = !assigned_methods(node, source).is_empty();
    let value = value.kind();
    match value {
        _ if export_list || exported_name => Some(Kind::Export),
        _ if methods => Some(Kind::Impl),
        "class" => Some(Kind::Class),
        _ if FUNCTION_VALUES.contains(&value) && on_prototype(node_text(left, source)) => Some(Kind::Method),
        _ if FUNCTION_VALUES.contains(&value) => Some(Kind::Function),
        _ => None,
    }
}

/// The property an assignment gives a value: its target, or the `module.exports` of `exports =
/// module.exports = createApplication`, which keeps the `exports` shorthand on the module's value.
fn assigned_property<'t>(assignment: Node<'t>, source: &str) -> Option<Node<'t>> {
    let left = assignment.child_by_field_name("left")?;
    if is_property(left) {
        return Some(left);
    }
    let chained = assignment.child_by_field_name("right").filter(|right| right.kind() == "assignment_expression");
    let chained = chained.and_then(|right| right.child_by_field_name("left"))?;
    (node_text(left, source) == "exports" && node_text(chained, source) == "module.exports").then_some(chained)
}

/// A value a call computes from values, not from a function written there: `require('./query')`,
/// `createETagGenerator({ weak: false })`, `deprecate.function(flatten, '…')`. A module wrapped in
/// a function called at once (`module.exports = (function () {…})()`) is not one.
fn computed(value: Node) -> bool {
    let function = |node: Node| {
        let node = unparenthesized(node);
        FUNCTION_VALUES.contains(&node.kind()) || node.kind() == "class"
    };
    let arguments = value.child_by_field_name("arguments");
    let mut cursor = value.walk();
    value.kind() == "call_expression"
        && !value.child_by_field_name("function").is_some_and(function)
        && !arguments.is_some_and(|arguments| arguments.named_children(&mut cursor).any(function))
}

/// A value an operator or `new` makes from values (`new Map()`, `process.env.MODE || 'dev'`,
/// `a ? b : c`): exported so, it is defined where it is assigned, as a computed one is.
fn operated(value: Node) -> bool {
    matches!(value.kind(), "new_expression" | "binary_expression" | "ternary_expression" | "await_expression")
}

/// How many statements from a module's start its exports object may be given another name in:
/// CommonJS binds it where it requires what it needs, at the top.
const EXPORTS_ALIAS_STATEMENTS: usize = 64;

/// Whether `target` is a property of a name the module binds to its exports object among its
/// first statements (see [`EXPORTS_ALIAS_STATEMENTS`]): `app.del` after express's `var app =
/// exports = module.exports = {}`, an export as `exports.del` would be.
fn on_exports_alias(target: Node, statement: Node, source: &str) -> bool {
    let object = target.child_by_field_name("object").filter(|object| object.kind() == "identifier");
    let (Some(object), Some(module)) = (object, statement.parent()) else { return false };
    let name = node_text(object, source);
    let mut cursor = module.walk();
    let aliases = |declaration: Node| {
        let mut cursor = declaration.walk();
        let declarators: Vec<Node> = declaration.named_children(&mut cursor).collect();
        declarators.into_iter().any(|declarator| {
            let named = declarator.child_by_field_name("name").is_some_and(|n| node_text(n, source) == name);
            let mut value = declarator.child_by_field_name("value").map(unparenthesized);
            while let Some(assignment) = value.filter(|value| value.kind() == "assignment_expression") {
                let left = assignment.child_by_field_name("left").map(|left| node_text(left, source));
                if named && matches!(left, Some("exports" | "module.exports")) {
                    return true;
                }
                value = assignment.child_by_field_name("right").map(unparenthesized);
            }
            false
        })
    };
    !matches!(name, "exports" | "module")
        && module
            .named_children(&mut cursor)
            .take(EXPORTS_ALIAS_STATEMENTS)
            .filter(|statement| matches!(statement.kind(), "variable_declaration" | "lexical_declaration"))
            .any(aliases)
}

/// The body of a function a file-level statement calls at once: `(function () { … }).call(this)`,
/// `(() => { … })()`, `!function () { … }()`. Older libraries (lodash's 17,000 lines) wrap a
/// whole module in one; its functions are the file's. A universal module (moment, jQuery) calls
/// a wrapper that only decides how to export, passing it the module as a function: `(function
/// (root, factory) { … })(this, function () { … })`; then that function's body is the module.
/// So is that of a function called at once to build what a name is bound to, when it declares a
/// function of that name: a class compiled to ES5 (`var Subscriber = (function (_super) {
/// function Subscriber(destination) {…} Subscriber.prototype.next = function (value) {…}; return
/// Subscriber; }(Subscription))`), whose constructor and methods would otherwise not be seen.
fn invoked_body<'t>(statement: Node<'t>, source: &str) -> Option<Node<'t>> {
    match statement.kind() {
        "expression_statement" => called_body(statement.named_child(0)?, source),
        "variable_declaration" | "lexical_declaration" => compiled_class_body(statement, source),
        _ => None,
    }
}

/// The body of the function `(function (_super) { function Name(…) {…} … }(Base))` a one-name
/// declaration binds `Name` to the result of (see [`invoked_body`]). A binding with a type has
/// its API there (`export const Structural: new <A>(args: …) => {} = (function () {…})()`): it
/// is outlined as written.
fn compiled_class_body<'t>(declaration: Node<'t>, source: &str) -> Option<Node<'t>> {
    let declarator = sole_declarator(declaration)?;
    if declarator.child_by_field_name("type").is_some() {
        return None;
    }
    let name = node_text(declarator.child_by_field_name("name")?, source);
    let value = declarator.child_by_field_name("value").map(unparenthesized);
    let value = value.filter(|value| value.kind() == "call_expression")?;
    let body = called_body(value, source)?;
    let mut cursor = body.walk();
    let declares_name = body.named_children(&mut cursor).any(|statement| {
        statement.kind() == "function_declaration"
            && statement.child_by_field_name("name").is_some_and(|declared| node_text(declared, source) == name)
    });
    declares_name.then_some(body)
}

/// The body of the function `expression` calls at once, if it does (see [`invoked_body`]).
fn called_body<'t>(expression: Node<'t>, source: &str) -> Option<Node<'t>> {
    let mut node = expression;
    loop {
        node = match node.kind() {
            "parenthesized_expression" => node.named_child(0)?,
            "unary_expression" => node.child_by_field_name("argument")?,
            "call_expression" => {
                let callee = node.child_by_field_name("function")?;
                match callee.kind() {
                    // `.call(this)`, `.apply(this, arguments)` on the function.
                    "member_expression" => callee.child_by_field_name("object")?,
                    _ if FUNCTION_VALUES.contains(&unparenthesized(callee).kind()) => {
                        factory_argument(node, unparenthesized(callee), source).unwrap_or(callee)
                    }
                    // An AMD module: `define(["./core"], function (jQuery) { … })`.
                    "identifier" if node_text(callee, source) == "define" => function_argument(node)?.1,
                    _ => callee,
                }
            }
            kind if FUNCTION_VALUES.contains(&kind) => {
                return node.child_by_field_name("body").filter(|body| body.kind() == "statement_block");
            }
            _ => return None,
        };
    }
}

/// Whether an assignment target is a prototype's property (`A.prototype.x`, `A.prototype["throw"]`).
fn on_prototype(target: &str) -> bool {
    target.contains(".prototype.") || target.contains(".prototype[")
}

/// The statement an expression is, or is one of a comma-separated sequence of.
fn statement_of(mut node: Node) -> Option<Node> {
    loop {
        let parent = node.parent()?;
        if parent.kind() != "sequence_expression" {
            return Some(parent);
        }
        node = parent;
    }
}

/// Whether `statement` is at the module's own level: the file's, or that of a module wrapped in a
/// function called at once (see [`invoked_body`]) or bound as one (see [`bound_methods`]), however
/// deep such wrappers nest.
fn module_level(statement: Node, source: &str) -> bool {
    let Some(parent) = statement.parent() else {
        return false;
    };
    if parent.kind() == "program" || (parent.kind() == "export_statement" && module_level(parent, source)) {
        return true;
    }
    let statement_kinds = ["expression_statement", "variable_declaration", "lexical_declaration"];
    let mut wrapper = parent.parent();
    while let Some(node) = wrapper.filter(|node| !statement_kinds.contains(&node.kind())) {
        wrapper = node.parent();
    }
    wrapper.is_some_and(|wrapper| {
        // The cheap structural look first: a compiled class's body is found by it too.
        let body = called_body_of(wrapper).filter(|body| *body == parent).or_else(|| invoked_body(wrapper, source));
        body == Some(parent) && module_level(wrapper, source)
    })
}

/// The body of the function a one-name declaration binds the result of calling at once. Only a
/// module's such body is walked for statements (see [`bound_methods`]; a returned class's body
/// gives members), so this is enough to tell that a statement there is at the module's level,
/// and cheap: it is asked for every statement.
fn called_body_of(declaration: Node) -> Option<Node> {
    called_function(sole_declarator(declaration)?).map(|(_, _, body)| body)
}

/// The declarator of a declaration that binds one name.
fn sole_declarator(declaration: Node) -> Option<Node> {
    let mut cursor = declaration.walk();
    let mut declarators = declaration.named_children(&mut cursor).filter(|child| child.kind() == "variable_declarator");
    declarators.next().filter(|_| declarators.next().is_none())
}

/// The calls that mix methods into an object ([`mixin`]), or register a Vue 2 component or
/// directive made of them, by the name of the function called.
const MIXINS: [&str; 5] = ["extend", "assign", "mixin", "component", "directive"];

/// A call at module level of `….extend`, `Object.assign`, `….mixin`, `Vue.component` or
/// `Vue.directive` given an object literal that holds functions: the object's functions are
/// methods of what it extends or registers.
fn mixin(call: Node, source: &str) -> Option<Kind> {
    if let Some(new) = constructed_then_called(call) {
        return constructed_at(new, call, source);
    }
    let callee = call.child_by_field_name("function").filter(|callee| callee.kind() == "member_expression")?;
    let method = node_text(callee.child_by_field_name("property")?, source);
    (MIXINS.contains(&method) && given_at_module_level(call, call, source)).then_some(Kind::Impl)
}

/// The `new` given an object of methods that a chain of calls on the instance starts from:
/// `new Vue({ … })` in `new Vue({ … }).$mount('#app')`, a Vue 2 app's usual `main.js`. Made of the
/// same options, it is read as a [`constructed`] statement is, or as the value bound or exported
/// (see [`defined_object`]). A `new` without such an object leaves the chain to the rules for
/// its calls (`new Vue().component('todo', { … })` registers a component).
fn constructed_then_called(call: Node) -> Option<Node> {
    let mut link = call;
    while link.kind() == "call_expression" {
        let callee = link.child_by_field_name("function").filter(|callee| callee.kind() == "member_expression")?;
        link = unparenthesized(callee.child_by_field_name("object")?);
    }
    (link.kind() == "new_expression" && given_object(link).is_some()).then_some(link)
}

/// `new Vue({ … })` as a statement at module level, given an object literal that holds functions.
fn constructed(new: Node, source: &str) -> Option<Kind> {
    constructed_at(new, new, source)
}

/// A `new` given an object of methods, whose `statement` (itself, or a chain of calls it starts)
/// is a statement at module level.
fn constructed_at(new: Node, statement: Node, source: &str) -> Option<Kind> {
    given_at_module_level(new, statement, source).then_some(Kind::Impl)
}

/// Whether a call (or `new`) is given an object of methods (see [`mixed_in`]) and `expression`
/// (the call itself, or a chain of calls it starts) is a statement of its own at module level.
fn given_at_module_level(call: Node, expression: Node, source: &str) -> bool {
    !mixed_in(call, source).is_empty() && is_module_statement(expression, source)
}

/// Whether an expression is a statement of its own at module level.
fn is_module_statement(expression: Node, source: &str) -> bool {
    expression
        .parent()
        .filter(|parent| parent.kind() == "expression_statement")
        .is_some_and(|statement| module_level(statement, source))
}

/// `Object.defineProperty(target, 'name', descriptor)` as a statement at module level, its
/// descriptor holding a function (a getter, a setter, a method as the value): a property of
/// `target` that other code reads. Not on `exports`: that is how tsc and Babel compile `export {
/// x } from` into CommonJS, a getter per name (rxjs's `dist/cjs/index.js` has 200), whose API
/// its source and declaration files list.
fn defined_property(call: Node, source: &str) -> Option<Kind> {
    let (target, _, descriptor) = property_definition(call, source)?;
    let compiled_export = matches!(node_text(target, source), "exports" | "module.exports");
    let listed = !compiled_export && holds_function(descriptor) && is_module_statement(call, source);
    listed.then_some(Kind::Property)
}

/// The target, the quoted name and the descriptor object of an `Object.defineProperty` call.
fn property_definition<'t>(call: Node<'t>, source: &str) -> Option<(Node<'t>, Node<'t>, Node<'t>)> {
    let callee = call.child_by_field_name("function")?;
    if node_text(callee, source) != "Object.defineProperty" {
        return None;
    }
    let arguments = call.child_by_field_name("arguments")?;
    let mut cursor = arguments.walk();
    let arguments: Vec<Node> = arguments.named_children(&mut cursor).filter(|a| a.kind() != "comment").collect();
    let [target, name, descriptor] = arguments[..] else {
        return None;
    };
    (name.kind() == "string" && descriptor.kind() == "object").then_some((target, name, descriptor))
}

/// The property a [`defined_property`] call defines, as code reads it: `Emitter.prototype.count`.
fn defined_property_name(call: Node, source: &str) -> Option<String> {
    let (target, name, _) = property_definition(call, source)?;
    Some(format!("{}.{}", node_text(target, source), unquoted(node_text(name, source))))
}

/// The descriptor of a [`defined_property`] call, whose functions are the property's accessors.
fn property_accessors<'t>(call: Node<'t>, source: &str) -> Vec<Node<'t>> {
    property_definition(call, source).map(|(_, _, descriptor)| descriptor).into_iter().collect()
}

/// What a [`constructed`] instance is made with: `Vue` for `new Vue({ … })`.
fn constructor_name(new: Node, source: &str) -> Option<String> {
    Some(node_text(new.child_by_field_name("constructor")?, source).to_string())
}

/// The object of methods a [`mixin`] call or a [`constructed`] instance is given (see
/// [`given_object`]).
fn mixed_in<'t>(call: Node<'t>, _: &str) -> Vec<Node<'t>> {
    given_object(constructed_then_called(call).unwrap_or(call)).into_iter().collect()
}

/// Whether an object literal holds a function, directly or in an object it holds directly (a
/// Vue component's `methods: { … }`): either is listed (see [`function_property`]).
fn holds_function(object: Node) -> bool {
    holds_function_within(object, true)
}

/// Whether an object literal holds a function itself, or (`nested`) in an object it holds.
fn holds_function_within(object: Node, nested: bool) -> bool {
    let mut cursor = object.walk();
    object.named_children(&mut cursor).any(|entry| match entry.kind() {
        "method_definition" => true,
        "pair" => is_function_value(entry) || (nested && nested_methods(entry).is_some()),
        _ => false,
    })
}

/// What a [`mixin`] extends: its first argument when that is not the object (`Model` for
/// `_.extend(Model.prototype, …)`; `todo-item` for `Vue.component('todo-item', …)`), else what
/// `extend` is called on (`jQuery.fn`).
fn mixin_target(call: Node, source: &str) -> Option<String> {
    if let Some(new) = constructed_then_called(call) {
        return constructor_name(new, source);
    }
    let first = call.child_by_field_name("arguments")?.named_child(0)?;
    let target = match first.kind() {
        "object" => call.child_by_field_name("function")?.child_by_field_name("object")?,
        "string" | "template_string" => {
            return Some(node_text(first, source).trim_matches(['\'', '"', '`']).to_string());
        }
        _ => first,
    };
    Some(owner_of(node_text(target, source)).to_string())
}

/// Whose methods an object given to `target` holds: `Store` for `Store.prototype`.
fn owner_of(target: &str) -> &str {
    target.strip_suffix(".prototype").unwrap_or(target)
}

/// A property whose value is a function: a method of the object; or an object of methods, whose
/// own methods are its members; or a name exported by an object `module.exports` is given (see
/// [`exported_property`]).
fn function_property(pair: Node, source: &str) -> Option<Kind> {
    match is_function_value(pair) {
        true => Some(Kind::Function),
        false if !property_methods(pair, source).is_empty() => Some(Kind::Impl),
        false if pair.child_by_field_name("value").is_some_and(names_a_value) => exported_property(pair, source),
        false => None,
    }
}

/// A property of the object `module.exports` is given (through aliases and parentheses:
/// `module.exports = exports = {…}`): an exported name, a field of the export. Such an object is
/// walked only when it holds methods; one of names alone is an export list, read whole.
fn exported_property(entry: Node, source: &str) -> Option<Kind> {
    let mut value = entry.parent().filter(|object| object.kind() == "object")?;
    while let Some(holder) = value.parent() {
        match holder.kind() {
            "parenthesized_expression" => {}
            "assignment_expression" if holder.child_by_field_name("right") == Some(value) => {
                if holder.child_by_field_name("left").is_some_and(|left| node_text(left, source) == "module.exports") {
                    return Some(Kind::Field);
                }
            }
            _ => return None,
        }
        value = holder;
    }
    None
}

/// The value of an exported property, with its `:`: the export's fields are listed by name.
fn property_value(pair: Node) -> Vec<Range<usize>> {
    let key = pair.child_by_field_name("key");
    key.map(|key| key.end_byte()..pair.end_byte()).into_iter().collect()
}

fn is_function_value(pair: Node) -> bool {
    pair.child_by_field_name("value").is_some_and(|value| FUNCTION_VALUES.contains(&unparenthesized(value).kind()))
}

/// The object of methods a property's value is (see [`nested_methods`]), when the property is
/// in an object that is not itself held by one: one level of nesting is listed, so a component's
/// `methods` are, and its props' `default()` functions (`props: { size: { default() {…} } }`)
/// and a configuration's deep handlers are its detail.
fn property_methods<'t>(pair: Node<'t>, _: &str) -> Vec<Node<'t>> {
    let nested = pair.parent().and_then(|object| object.parent()).is_some_and(|holder| holder.kind() == "pair");
    match nested {
        true => Vec::new(),
        false => nested_methods(pair).into_iter().collect(),
    }
}

/// The object a property's value is, when it holds a function itself (`methods: { toggle() {…}
/// }`). Not under a computed key: effect's `[TypeId]: { _A: (_: never) => _ }` marks a type's
/// variance, no API.
fn nested_methods(pair: Node) -> Option<Node> {
    let computed = pair.child_by_field_name("key").is_some_and(|key| key.kind() == "computed_property_name");
    let value = unparenthesized(pair.child_by_field_name("value")?);
    (!computed && value.kind() == "object" && holds_function_within(value, false)).then_some(value)
}

/// A property's key as it is called (`'save'` is `save`).
fn property_key(pair: Node, source: &str) -> Option<String> {
    Some(unquoted(node_text(pair.child_by_field_name("key")?, source)))
}

/// A name in an enum's body is a member of the enum.
fn enum_member(node: Node, _: &str) -> Option<Kind> {
    node.parent().is_some_and(|parent| parent.kind() == "enum_body").then_some(Kind::Field)
}

/// A node's own text (an enum member's name).
fn whole_text(node: Node, source: &str) -> Option<String> {
    Some(node_text(node, source).to_string())
}

/// A method's name as it is called (`'get'(key) {…}` is `get`).
fn method_name(method: Node, source: &str) -> Option<String> {
    Some(unquoted(node_text(method.child_by_field_name("name")?, source)))
}

/// A name without the quotes it is written in, if any (`'get'` is `get`; `"'"` is `'`).
fn unquoted(name: &str) -> String {
    let quoted = |quote: char| name.len() >= 2 && name.starts_with(quote) && name.ends_with(quote);
    match ['\'', '"'].into_iter().any(quoted) {
        true => name[1..name.len() - 1].to_string(),
        false => name.to_string(),
    }
}

/// The first function a call passes, out of its parentheses, with its position.
fn function_argument(call: Node) -> Option<(usize, Node)> {
    let arguments = call.child_by_field_name("arguments")?;
    let mut cursor = arguments.walk();
    arguments
        .named_children(&mut cursor)
        .map(unparenthesized)
        .enumerate()
        .find(|(_, argument)| FUNCTION_VALUES.contains(&argument.kind()))
}

/// A universal module's factory: the function `call` passes to `wrapper` when the wrapper calls
/// the parameter that receives it (`(function (root, factory) { … factory() … })(this, function
/// () { … })`) and it is the larger of the two, the wrapper being glue. A wrapper that only takes
/// a callback, or is given a small stub (`(function (require) { … })(function () { return … })`),
/// is the module itself.
fn factory_argument<'t>(call: Node<'t>, wrapper: Node<'t>, source: &str) -> Option<Node<'t>> {
    let (position, factory) = function_argument(call)?;
    let parameters = wrapper.child_by_field_name("parameters")?;
    let parameter = node_text(parameters.named_child(u32::try_from(position).ok()?)?, source);
    let glue = wrapper.child_by_field_name("body")?;
    let larger = factory.child_by_field_name("body")?.byte_range().len() > glue.byte_range().len();
    (larger && node_text(glue, source).contains(&format!("{parameter}("))).then_some(factory)
}

/// A property as an assignment's target: `res.send`, `Q["try"]`.
fn is_property(target: Node) -> bool {
    matches!(target.kind(), "member_expression" | "subscript_expression")
}

/// A property of CommonJS's exports as an assignment's target: `exports.default`,
/// `module.exports.parse`.
fn is_export(target: Node, source: &str) -> bool {
    let object = target.child_by_field_name("object").filter(|_| is_property(target));
    object.is_some_and(|object| matches!(node_text(object, source), "exports" | "module.exports"))
}

/// A property given data at module level (see [`property_owner`]): a field of its owner.
fn static_property(node: Node, source: &str) -> Option<Kind> {
    property_owner(node, source)?;
    statement_of(node).is_some_and(|statement| module_level(statement, source)).then_some(Kind::Field)
}

/// The name a property is assigned on, `Emitter` of `Emitter.VERSION = '1.0'`. Not `exports`
/// nor `module` (an export, see [`assigned_function`]), nor for a prototype (`Foo.prototype =
/// Object.create(Base.prototype)` sets up inheritance), nor deeper (`a.b.c = 1`).
fn property_owner(node: Node, source: &str) -> Option<String> {
    let left = node.child_by_field_name("left").filter(|left| left.kind() == "member_expression")?;
    let object = left.child_by_field_name("object").filter(|object| object.kind() == "identifier")?;
    let property = left.child_by_field_name("property")?;
    let owner = node_text(object, source);
    let reserved = matches!(owner, "exports" | "module") || node_text(property, source) == "prototype";
    (!reserved).then(|| owner.to_string())
}

/// Data given to a property of `exports` or `module.exports` at module level, or to
/// `module.exports` itself (`module.exports = { retries: 3, name: 'x' }`: a module of settings
/// exports each key; see [`assigned_function`] for names and functions). Not tsc's hoisted
/// declarations, `exports.a = exports.b = void 0`, which give nothing, nor Babel's
/// `exports.__esModule = true`, nor an empty object filled in by later assignments, listed
/// themselves.
fn exported_data(node: Node, source: &str) -> Option<Kind> {
    const DATA: [&str; 9] =
        ["string", "number", "template_string", "array", "object", "regex", "true", "false", "null"];
    let left = node.child_by_field_name("left")?;
    let value = assigned_value(node.child_by_field_name("right")?);
    let exported = match node_text(left, source) {
        "module.exports" => !is_empty_object(value),
        _ => {
            is_export(left, source) && field_text(left, "property", source).is_some_and(|name| !name.starts_with("__"))
        }
    };
    // A signed number is a unary expression to the grammar (`exports.NONE = -1`).
    let signed = value.kind() == "unary_expression"
        && value.child_by_field_name("argument").is_some_and(|argument| argument.kind() == "number")
        && matches!(value.child_by_field_name("operator").map(|op| node_text(op, source)), Some("-" | "+"));
    let data = (signed || DATA.contains(&value.kind())) && object_of_methods(Some(value)).is_none();
    let module = statement_of(node).is_some_and(|statement| module_level(statement, source));
    (data && module && exported).then_some(Kind::Export)
}

/// `{}`, comments aside.
fn is_empty_object(value: Node) -> bool {
    let mut cursor = value.walk();
    value.kind() == "object" && value.named_children(&mut cursor).all(|entry| entry.kind() == "comment")
}

/// The property a [`static_property`] assignment gives: `VERSION`.
fn static_property_name(node: Node, source: &str) -> Option<String> {
    field_text(node.child_by_field_name("left")?, "property", source)
}

/// The value of a [`static_property`] assignment, with its ` = `, when the statement is too long
/// to show whole: a long value is left out, as a constant's is.
fn long_value(node: Node) -> Vec<Range<usize>> {
    let left = node.child_by_field_name("left").filter(|_| node.byte_range().len() > SHORT_VALUE);
    left.map(|left| left.end_byte()..node.end_byte()).into_iter().collect()
}

/// The targets of an assignment, an alias assigned with it named too (`res.send`, `res.contentType
/// = res.type`, `exports.default`), or what `module.exports` names (`{ parse, stringify }`, `res`).
fn assigned_name(node: Node, source: &str) -> Option<String> {
    let value = assigned_value(node.child_by_field_name("right")?);
    let left = node_text(node.child_by_field_name("left")?, source);
    let property = assigned_property(node, source).map(|property| node_text(property, source));
    if property == Some("module.exports") && names_exports(value) {
        return Some(node_text(value, source).to_string());
    }
    // An object of methods: they belong to what it is given to (`Store` for `Store.prototype`).
    if !assigned_methods(node, source).is_empty() {
        return Some(owner_of(left).to_string());
    }
    let mut targets = vec![left];
    let mut right = node.child_by_field_name("right");
    while let Some(alias) = right.filter(|right| right.kind() == "assignment_expression") {
        targets.extend(
            alias.child_by_field_name("left").filter(|left| is_property(*left)).map(|left| node_text(left, source)),
        );
        right = alias.child_by_field_name("right");
    }
    Some(targets.join(" = "))
}

/// The object literal of methods an assignment gives (`Store.prototype = { get: function … }`,
/// `jQuery.fn = jQuery.prototype = { … }`), when it holds a function.
fn assigned_methods<'t>(assignment: Node<'t>, _: &str) -> Vec<Node<'t>> {
    object_of_methods(assignment.child_by_field_name("right")).into_iter().collect()
}

/// The object literal `value` comes to, when it holds a function (an export list of names holds
/// none).
fn object_of_methods(value: Option<Node>) -> Option<Node> {
    value.map(assigned_value).filter(|value| value.kind() == "object" && holds_function(*value))
}

/// What `module.exports` is given that names the module's API without writing it out: an export
/// list (see [`names_only`]) or one value (`res`, `lib.Parser`), whose API is assigned to it or
/// defined elsewhere in the file.
fn names_exports(value: Node) -> bool {
    names_a_value(value) || names_only(value)
}

/// A name, or a property of one (`parser.Parser`): a value defined elsewhere.
fn names_a_value(value: Node) -> bool {
    matches!(value.kind(), "identifier" | "member_expression")
}

/// An object literal that only names values (`{ parse, stringify, Parser: parser.Parser }`): an
/// export list, not an object written out.
fn names_only(value: Node) -> bool {
    let mut cursor = value.walk();
    let mut entries = value.named_children(&mut cursor).filter(|entry| entry.kind() != "comment").peekable();
    value.kind() == "object"
        && entries.peek().is_some()
        && entries.all(|entry| match entry.kind() {
            "shorthand_property_identifier" => true,
            "pair" => entry.child_by_field_name("value").is_some_and(names_a_value),
            _ => false,
        })
}

/// `export { a, b }`, `export { a } from './a'`, `export * from './b'`, `export default name`,
/// `export = name`; not `export function …` (the declaration is the definition) nor `export
/// default <expression>`, unless that is an object of methods (see [`default_methods`]) or an
/// anonymous function or class (see [`anonymous_default`]).
fn export_list(node: Node, source: &str) -> Option<Kind> {
    if !default_methods(node, source).is_empty() {
        return Some(Kind::Impl);
    }
    if let Some(kind) = anonymous_default(node) {
        return Some(kind);
    }
    let value = node.child_by_field_name("value");
    let declares =
        node.child_by_field_name("declaration").is_some() || value.is_some_and(|value| value.kind() != "identifier");
    (!declares).then_some(Kind::Export)
}

/// What a default export of a function or class value is (`export default class {…}`,
/// `export default async function () {…}`, `export default () => …`). A named function or class
/// exported by default is a declaration, outlined by its own rule.
fn anonymous_default(export: Node) -> Option<Kind> {
    let value = assigned_value(export.child_by_field_name("value")?).kind();
    match value {
        "class" => Some(Kind::Class),
        _ => FUNCTION_VALUES.contains(&value).then_some(Kind::Function),
    }
}

/// The body of an [`anonymous_default`] export's function or class.
fn default_value_body(export: Node) -> Option<Node> {
    value_body(export.child_by_field_name("value")?)
}

/// The object of methods a default export is (`export default { name: 'Modal', methods: {…} }`)
/// or gives the call it exports the result of (`export default defineComponent({ … })`).
fn default_methods<'t>(export: Node<'t>, _: &str) -> Vec<Node<'t>> {
    defined_object(export.child_by_field_name("value")).into_iter().collect()
}

/// The exported names as written (`{ a, b as c }`, `*`, `* as ns`, the default export's name,
/// what `export =` gives; `default` for an object of methods, whose text is its members, and for
/// an anonymous function or class).
fn exported_names(node: Node, source: &str) -> Option<String> {
    if !default_methods(node, source).is_empty() || anonymous_default(node).is_some() {
        return Some("default".to_string());
    }
    if let Some(value) = node.child_by_field_name("value") {
        return Some(node_text(value, source).to_string());
    }
    let mut cursor = node.walk();
    let mut children = node.children(&mut cursor);
    // TypeScript's CommonJS export, `export = Parser`, names what the module is after its `=`;
    // a value written out there (`export = { parse() {…} }`) is no name, and its text no head.
    let names = children.find(|child| matches!(child.kind(), "export_clause" | "namespace_export" | "*" | "="))?;
    let names = match names.kind() {
        "=" => children.find(|child| child.is_named()).filter(|value| names_a_value(*value))?,
        _ => names,
    };
    Some(node_text(names, source).to_string())
}

/// ES `import`s, and CommonJS declarations whose every value is taken from a `require(…)` call.
fn is_import(node: Node, source: &str) -> bool {
    if node.kind() == "import_statement" {
        return true;
    }
    let mut cursor = node.walk();
    let mut declarators = node.named_children(&mut cursor).filter(|n| n.kind() == "variable_declarator").peekable();
    declarators.peek().is_some()
        && declarators
            .all(|declarator| declarator.child_by_field_name("value").is_some_and(|value| required(value, source)))
}

/// Whether `value` is a `require(…)` call, or what one gives: a member of the module
/// (`require('safe-buffer').Buffer`) or what calling it returns (`require('depd')('express')`),
/// as express takes most of what it needs.
fn required(value: Node, source: &str) -> bool {
    let mut value = value;
    loop {
        let next = match value.kind() {
            "call_expression" => value.child_by_field_name("function"),
            "member_expression" => value.child_by_field_name("object"),
            _ => return false,
        };
        let Some(next) = next else { return false };
        if value.kind() == "call_expression" && node_text(next, source) == "require" {
            return true;
        }
        value = next;
    }
}

fn visible_member(node: Node, source: &str) -> Option<Kind> {
    let mut cursor = node.walk();
    let private = node.children(&mut cursor).any(|child| {
        child.kind() == "private_property_identifier"
            || (child.kind() == "accessibility_modifier" && node_text(child, source) == "private")
    });
    (!private).then_some(Kind::Field)
}

/// JavaScript's `field_definition` names its field `property`.
fn field_property(node: Node, source: &str) -> Option<String> {
    super::field_text(node, "property", source)
}

/// The field a TypeScript constructor declares with a modifier on a parameter (`constructor(private
/// readonly http: HttpClient)`): the class has an `http` from then on. A plain parameter is none.
fn parameter_property(node: Node, source: &str) -> Option<String> {
    let mut cursor = node.walk();
    let modifiers = ["accessibility_modifier", "override_modifier", "readonly"];
    if !node.children(&mut cursor).any(|child| modifiers.contains(&child.kind())) {
        return None;
    }
    let pattern = node.child_by_field_name("pattern").filter(|pattern| pattern.kind() == "identifier")?;
    Some(source[pattern.byte_range()].to_string())
}

/// The call signatures of `const f: { <A>(self: A): A; (): void }`, when the declared type is such
/// a list of two or more and nothing else.
/// Whether a function or method with a body follows overload signatures of its name (comments
/// aside; an exported one's export statement follows an exported signature): it is their
/// implementation, which callers cannot call as written.
fn implements_overloads(node: Node, source: &str) -> bool {
    let statement = match node.parent() {
        Some(parent) if parent.kind() == "export_statement" => parent,
        _ => node,
    };
    let signature = match previous_statement(statement) {
        Some(export) if export.kind() == "export_statement" => export.child_by_field_name("declaration"),
        other => other,
    };
    let name = |node: Node| field_text(node, "name", source);
    signature.is_some_and(|signature| {
        matches!(signature.kind(), "function_signature" | "method_signature")
            && node.child_by_field_name("body").is_some()
            && name(signature).is_some()
            && name(signature) == name(node)
    })
}

fn overloaded_type(node: Node) -> Option<Vec<Node>> {
    // An interface of call signatures only (immer's `interface IProduce { <Base>(base: Base, …):
    // …; … }`): they are the whole type, a function's overloads, and its line shows them as
    // such rather than bare.
    if node.kind() == "interface_declaration" {
        let body = node.child_by_field_name("body")?;
        let mut cursor = body.walk();
        let members: Vec<Node> = body.named_children(&mut cursor).filter(|member| member.kind() != "comment").collect();
        let only_calls = members.iter().all(|member| member.kind() == "call_signature");
        return (only_calls && !members.is_empty()).then_some(members);
    }
    let annotation = node.child_by_field_name("type")?;
    let list = annotation.named_child(0).filter(|list| list.kind() == "object_type")?;
    let mut cursor = list.walk();
    let members: Vec<Node> = list.named_children(&mut cursor).filter(|member| member.kind() != "comment").collect();
    let only_calls = members.iter().all(|member| member.kind() == "call_signature");
    (only_calls && members.len() >= 2).then_some(members)
}

/// The type literals a class's or interface's base is given as type arguments (`extends
/// TypeIdError(Id, "RequestError")<{ readonly reason: Reason }>`, `extends Context.Tag("Api")<Api,
/// { readonly run: … }>()`): the shape of the error's fields or of the service, which code using
/// the type reads. Only the base's own arguments count: not a literal nested in another type
/// (`Map<K, { … }>`), in a call's arguments, or in what a class implements.
fn base_type_literals<'t>(declaration: Node<'t>, _: &str) -> Vec<Node<'t>> {
    let mut arguments = Vec::new();
    let mut cursor = declaration.walk();
    for clause in declaration.children(&mut cursor) {
        let mut cursor = clause.walk();
        match clause.kind() {
            // `class_heritage` holds the `extends_clause` (and `implements_clause`, skipped).
            "class_heritage" => {
                let extends = clause.children(&mut cursor).find(|child| child.kind() == "extends_clause");
                if let Some(extends) = extends {
                    arguments.extend(called_type_arguments(extends));
                }
            }
            "extends_type_clause" => {
                let bases = clause.children_by_field_name("type", &mut cursor);
                arguments.extend(bases.filter_map(|base| base.child_by_field_name("type_arguments")));
            }
            _ => {}
        }
    }
    let mut literals: Vec<Node> = arguments
        .iter()
        .flat_map(|list| {
            let mut cursor = list.walk();
            list.named_children(&mut cursor).filter(|argument| lists_members(*argument)).collect::<Vec<_>>()
        })
        .collect();
    literals.sort_by_key(|literal| literal.start_byte());
    literals
}

/// The type argument lists of an `extends` clause: its own (`extends Base<{ … }>`) and those of
/// each call along its base expression (`TaggedError<Self>()("E", …)`, `Tag("Api")<Api, { … }>()`).
fn called_type_arguments(extends: Node) -> Vec<Node> {
    let mut lists = Vec::new();
    let mut cursor = extends.walk();
    lists.extend(extends.children_by_field_name("type_arguments", &mut cursor));
    let mut base = extends.child_by_field_name("value");
    while let Some(call) = base.filter(|node| node.kind() == "call_expression") {
        lists.extend(call.child_by_field_name("type_arguments"));
        base = call.child_by_field_name("function");
    }
    lists
}

/// A type literal whose every entry is a member the outline lists: not `{}`, nor a mapped type
/// (`{ [K in keyof T]: … }`) or one with call or index signatures, which would vanish behind the
/// head's `{…}`.
fn lists_members(literal: Node) -> bool {
    let mut cursor = literal.walk();
    let mut entries = literal.named_children(&mut cursor).filter(|entry| entry.kind() != "comment").peekable();
    literal.kind() == "object_type" && entries.peek().is_some() && entries.all(|entry| MEMBERS.contains(&entry.kind()))
}
