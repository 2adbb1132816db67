//! Golden tests: the signatures and map views of realistic fixtures under `tests/fixtures/<lang>/`,
//! compared byte for byte with `<stem>.signatures.txt` and `<stem>.map.txt` beside them.
//!
//! `UPDATE_GOLDEN=1 cargo test --test golden` rewrites the expected files; review the diff.

use std::path::{Path, PathBuf};

use lean_ctx_outline::{
    Definition, KeywordFamily, Kind, Language, Outline, TextFormat, outline, render_map, render_signatures,
    render_text_outline,
};

fn fixture_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(relative)
}

/// Every definition's name, and each name of one that declares several (`A, B`; C's `hdr, h`).
fn all_names(items: &[Definition], names: &mut Vec<String>) {
    for item in items {
        names.push(item.name.clone());
        if item.names().len() > 1 {
            names.extend(item.names().into_iter().map(str::to_string));
        }
        all_names(&item.children, names);
    }
}

/// Renders both views of `relative`, checks them against the golden files, and checks that every
/// planted name was found and appears in both views.
fn check(relative: &str, language: Language, planted: &[&str]) -> Views {
    let path = fixture_path(relative);
    let source = std::fs::read_to_string(&path).unwrap();
    assert_eq!(Language::detect(&path, &source), Some(language), "language of {relative}");
    let outline = outline(language, &source);
    assert_eq!(outline.degraded, None, "{relative} fell back to the heuristic outline");

    let mut names = Vec::new();
    all_names(&outline.items, &mut names);
    let views = [("signatures", render_signatures(&outline)), ("map", render_map(&outline))];
    for name in planted {
        assert!(names.iter().any(|n| n == name), "{relative}: `{name}` not outlined; found {names:?}");
        for (view, text) in &views {
            assert!(text.contains(name), "{relative}: `{name}` missing from the {view} view:\n{text}");
        }
    }

    let stem = path.file_stem().unwrap().to_str().unwrap();
    for (view, text) in &views {
        let golden = path.with_file_name(format!("{stem}.{view}.txt"));
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&golden, text).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&golden)
            .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_GOLDEN=1 to create it)", golden.display()));
        assert!(expected == *text, "{relative}: {view} view differs from {}:\n{text}", golden.display());
    }
    let [(_, signatures), (_, map)] = views;
    Views { names, signatures, map }
}

/// What [`check`] found, for assertions beyond the golden files.
struct Views {
    /// Every definition's name, depth first.
    names: Vec<String>,
    signatures: String,
    map: String,
}

impl Views {
    /// Private members and the like that must not be listed.
    fn hides(&self, names: &[&str]) {
        for name in names {
            assert!(!self.names.iter().any(|n| n == name), "`{name}` is not API but was outlined: {:?}", self.names);
        }
    }

    fn signature_lines_contain(&self, lines: &[&str]) {
        for line in lines {
            assert!(self.signatures.lines().any(|l| l.contains(line)), "no line with `{line}` in\n{}", self.signatures);
        }
    }

    fn complete(&self) {
        for view in [&self.signatures, &self.map] {
            assert!(!view.starts_with("[outline incomplete"), "{view}");
        }
    }

    fn first_lines(&self, expected: &str) {
        for view in [&self.signatures, &self.map] {
            assert_eq!(view.lines().next(), Some(expected));
        }
    }
}

#[test]
fn rust() {
    let views = check(
        "rust/config.rs",
        Language::Rust,
        &[
            "MAX_RETRIES",
            "BANNER",
            "Config",
            "Mode",
            "Result",
            "LoadError",
            "Loader",
            "Config<'a, T>",
            "fmt::Display for Mode",
            "retry",
            "parser",
            "read_raw",
            "abs",
            "tests",
            "ListenerSettings",
            "accept_timeout",
            "parse_buffer_bytes",
            "std::io::Error as IoError",
        ],
    );
    // A re-export is listed with what it names; a private `use` is an import, and so is a
    // `pub(crate) use`, the crate's own plumbing.
    views.signature_lines_contain(&["8 pub use std::io::Error as IoError"]);
    let imports = "imports 2-9: std::{collections, fmt, io}; serde; self::parser::{self, parse}\n";
    assert!(views.map.starts_with(imports), "{}", views.map);
    views.hides(&["socket_options"]);
    // Named without their types, the fields keep their visibility: `pub` ones plain, the others
    // labelled; a field without `pub` is counted, not listed.
    views.signature_lines_contain(&["pub struct ListenerSettings { bind_address, backlog_connections, \
         keepalive_interval; pub(crate): accept_timeout; pub(in crate::parser): parse_buffer_bytes; +1 private }"]);
}

#[test]
fn python() {
    let views = check(
        "python/service.py",
        Language::Python,
        &[
            "DEFAULT_TIMEOUT",
            "STDIN_FILENO",
            "User",
            "display",
            "Repository",
            "NotFound",
            "__init__",
            "empty",
            "load_users",
            "main",
        ],
    );
    // A dataclass's fields are listed with their types.
    assert!(
        views.signatures.contains("19-29 @dataclass(frozen=True) class User { id: int; name: str; tags: list[str] }\n")
    );
    // A name assigned in both branches of a `try` is named once.
    assert!(views.map.contains("11-16 const DEFAULT_TIMEOUT, STDIN_FILENO\n"), "{}", views.map);
}

#[test]
fn python_classes_declared_in_functions() {
    // A class a function or method builds is API (callers get it back); the function's
    // other locals, a decorator's wrapper or a method's helper, are detail.
    let views = check(
        "python/factory.py",
        Language::Python,
        &[
            "retry",
            "make_handler",
            "Handler",
            "get",
            "post",
            "Service",
            "fake",
            "FakeBackend",
            "flush",
            "RowHighlighter",
        ],
    );
    views.hides(&["decorate", "wrapper", "encode", "on_close", "op1", "op10", "LAST_NAME"]);
    // A class under `match` is listed, in each case.
    assert!(views.map.matches("class Console { encoding }").count() == 2, "{}", views.map);
    // The class's attribute is a field of it.
    assert!(views.map.contains(" 26-36 class Handler { route }\n"), "{}", views.map);
    views.signature_lines_contain(&["class Handler(base)", "async def post(self, path: str, body: bytes) -> int"]);
}

#[test]
fn javascript() {
    let views = check(
        "javascript/server.js",
        Language::JavaScript,
        &["PORT", "NOT_A_COMMENT", "handle", "lines", "middleware", "shutdown", "Server", "create", "Client"],
    );
    // CommonJS's export list, as `export { … }` is shown.
    views.signature_lines_contain(&["59 module.exports = { Server, handle }"]);
}

/// A module wrapped in a function called at once (`(function () { … }.call(this))`, `!function
/// () { … }()`) is outlined as the file's own; a function's inner helpers and a callback's stay
/// detail.
#[test]
fn javascript_immediately_invoked_module_bodies() {
    let views = check("javascript/legacy.js", Language::JavaScript, &["debounce", "throttle", "ready"]);
    views.hides(&["later", "start", "fixture"]);
    views.signature_lines_contain(&["10-31 function {debounce, throttle}(fn, wait)", "37-39 function ready(callback)"]);
}

/// A universal module (`(function (root, factory) { … })(this, function () { … })`): the module
/// is the factory passed to the wrapper, outlined as the file's own, as is an AMD module's
/// (`define([…], function (…) { … })`) and a module nested in one; the wrapper's glue, and
/// another callback's helpers, are detail. A wrapper that does not call the function it is
/// passed is the module itself.
#[test]
fn javascript_universal_module_factories() {
    let views = check(
        "javascript/umd.js",
        Language::JavaScript,
        &[
            "hooks",
            "isObject",
            "createLocal",
            "Moment",
            "Moment.prototype.format",
            "hooks.locale",
            "isArrayLike",
            "jQuery",
            "adoptValue",
            "api",
            "insertHelpers",
        ],
    );
    views.hides(&["noConflict", "later", "finished"]);
    views.signature_lines_contain(&["19-21 function isObject(input)", "55-57 function isArrayLike(obj)"]);
    // What the module's function is given at the module's level is its static API.
    views.signature_lines_contain(&[
        "14-16 function hooks()",
        " 36-37 hooks.version = '2.30.1'; hooks.isObject = isObject",
    ]);
}

/// Methods mixed into a prototype or an object at module level (`_.extend(Model.prototype, {
/// toJSON: function … })`, `jQuery.fn.extend({ … })`), or given to one in an object
/// (`Store.prototype = { get: function … }`, `module.exports = { parse(text) {…} }`), are that
/// type's API: listed as its methods. So are the functions of an object bound to a name (a
/// namespace, `var Utils = { trim: function … }`), named on its line. A merge of values, a mixin
/// inside a function and an object without functions are not (a file-level `var` of one is
/// listed as a variable, as a `const` is).
#[test]
fn javascript_methods_mixed_into_prototypes() {
    let views = check(
        "javascript/mixins.js",
        Language::JavaScript,
        &[
            "Model",
            "initialize",
            "toJSON",
            "get",
            "set",
            "fetch",
            "jQuery.fn",
            "css",
            "show",
            "setup",
            "Store.fn",
            "clear",
            "parse",
            "Utils",
            "trim",
            "pad",
            "width",
            "escape",
        ],
    );
    views.hides(&["idAttribute", "version", "timeout", "helper", "settings", "constructor", "VERSION", "separator"]);
    views.signature_lines_contain(&["97 var defaults = { retries: 3 }"]);
    // A getter and its setter are one name; a quoted name is the name.
    views.signature_lines_contain(&["78-95 var Utils { trim, pad, width, escape }"]);
    // A run of quoted keys keeps each name's quotes.
    views.signature_lines_contain(&[" 71-72 {'cache/PackFileCache', 'cache/MemoryCache'}: ()"]);
    views.signature_lines_contain(&[
        "5-8 var Model = Backbone.Model = function (attributes, options)",
        "10-32 _.extend(Model.prototype, Events, {…})",
        " 16-18 toJSON: function (options)",
    ]);
}

/// A class compiled to ES5 (`var Subscriber = (function (_super) { function Subscriber(…) {…}
/// Subscriber.prototype.next = function … }(Subscription))`) lists its constructor and methods;
/// a closure bound to a name that declares no function of that name keeps its helpers private.
#[test]
fn javascript_classes_compiled_to_es5() {
    let views = check(
        "javascript/compiled.js",
        Language::JavaScript,
        &["Subscriber", "Subscriber.create", "Subscriber.prototype.next", "Subscriber.prototype.unsubscribe"],
    );
    views.hides(&["object", "_this", "result"]);
    views.signature_lines_contain(&[
        "8-12 function Subscriber(destination)",
        "16-18 Subscriber.prototype.next = function (value)",
    ]);
    // A binding with a type keeps its line; an untyped one is the function it declares.
    let views = check("typescript/compiled.ts", Language::TypeScript, &["Structural", "createThunk"]);
    views.signature_lines_contain(&[
        "export const Structural: new <A>(args: Types.Simplify<A>) => {}",
        "function createThunk<Returned, Arg>(typePrefix: string, payloadCreator: (arg: Arg) => Returned)",
    ]);
    views.hides(&["args"]);
}

/// A component or plugin written as an object of methods exported by default (Vue's options API)
/// lists its methods, and those of the objects it holds (`methods: { … }`, `computed: { … }`);
/// data properties, functions two objects deep (a prop's `default()`) and what a method's body
/// builds stay detail.
#[test]
fn javascript_default_export_of_methods() {
    let views = check(
        "javascript/component.js",
        Language::JavaScript,
        &["default", "data", "isActive", "id", "handleFocus", "handleHeaderClick", "handleEnterClick", "mounted"],
    );
    views.hides(&["componentName", "contentHeight", "inject", "title"]);
    views.signature_lines_contain(&[
        "6-78 export default {…}",
        " 50-69 methods: {…}",
        "  66-68 handleEnterClick: function ()",
    ]);
}

/// A component or store built by a call from an object of options (`export default
/// defineComponent({ setup() {…}, render() {…} })`, `export const useNotifications =
/// defineStore('notifications', { actions: { … } })`) lists the object's methods as an object
/// bound or exported whole does; an object of data given to a call stays a constant.
#[test]
fn typescript_objects_of_methods_given_to_a_call() {
    let views = check(
        "typescript/component.ts",
        Language::TypeScript,
        &["badgeProps", "default", "setup", "render", "useNotifications", "count", "latest", "push", "clear"],
    );
    views.hides(&["shown", "handleClick", "items", "emits"]);
    views.signature_lines_contain(&["12-30 export default defineComponent({…})", "  41-43 push(message: string)"]);
}

/// Vue 2's way of building the same from an options object: a store or an instance constructed
/// with `new` (`export default new Vuex.Store({ mutations: {…} })`, `const bus = new Vue({…})`)
/// and a component or directive registered at module level (`Vue.component('todo-item', {…})`)
/// list the object's methods; an instance of data and arrow functions alone lists only those.
#[test]
fn javascript_objects_of_methods_given_to_new_and_registrations() {
    let views = check(
        "javascript/store.js",
        Language::JavaScript,
        &["default", "remaining", "add", "toggle", "load", "bus", "notify", "todo-item", "autofocus", "inserted"],
    );
    views.hides(&["strict", "todos", "filter", "props", "template", "set"]);
    views.signature_lines_contain(&[
        "export default new Vuex.Store({…})",
        "  22-27 {add, toggle}(state, todo)",
        "Vue.component('todo-item', {…})",
    ]);
}

/// A Vue 2 `main.js` makes its root instance and mounts it in one statement (`new Vue({ … })
/// .$mount('#app')`): the options' methods are listed as a plain `new Vue({ … })`'s are, however
/// long the chain; a constructor whose result is itself called is not an instance of them.
#[test]
fn javascript_an_instance_mounted_in_its_statement() {
    let views = check(
        "javascript/main.js",
        Language::JavaScript,
        &["Vue", "data", "created", "reportError", "render", "mounted", "toasts", "show"],
    );
    views.hides(&["router", "store", "draw", "Widget"]);
    views.signature_lines_contain(&["10-25 new Vue({…}).$mount('#app')", "  20-22 reportError(error, vm, info)"]);
}

/// A module written as a function called at once that returns its API as an object (the
/// revealing-module pattern), the name it built its API under (lz-string) or an object it filled
/// in, is a module: what it declares and the returned object's functions are listed under the
/// bound name. A function called at once for a value (computed, data, a promise) is not a
/// module, whatever helpers it declares: the name is a file-level variable, listed without them;
/// one returning a function it declares makes the name a function's (listed, its inside not),
/// and one returning a class it declares a class's.
#[test]
fn javascript_revealing_modules() {
    let views = check(
        "javascript/revealing.js",
        Language::JavaScript,
        &[
            "ShoppingCart",
            "findIndex",
            "add",
            "remove",
            "total",
            "Logger",
            "log",
            "Codec",
            "lookup",
            "encode",
            "decode",
            "Store",
            "read",
            "api.set",
            "supported",
            "Lib",
            "h",
            "exports.h",
            "createThunk",
            "Queue",
            "push",
            "Queue2.prototype.drain",
            "Queue2.of",
            "Channel",
            "capacity",
            "size",
            "send",
            "Parser",
            "parse",
        ],
    );
    let helpers = ["probe", "ok", "px", "wait", "env", "twice", "createThunk2", "thunk", "Queue2", "limit2"];
    views.hides(&["items", "TAX_RATE", "cache", "here", "#buffer"]);
    views.hides(&["opened", "Later", "Parser2", "parse2"]);
    views.signature_lines_contain(&[
        "121-123 var startedAt = (function () { return Date.now(); })()",
        "166-176 var limit, origin",
        "206-216 var pending, parser",
    ]);
    views.hides(&helpers);
    views.signature_lines_contain(&[
        "5-42 var ShoppingCart",
        " 18-25 function add(sku, quantity)",
        " 36-40 total: function (prices)",
        " 63-70 var Codec { encode, decode }",
        " 82-84 api.set = function (key, value)",
        // The function a wrapper returns gives the name its parameters.
        "144-152 var createThunk = function createThunk2(type, payloadCreator)",
    ]);
    // The class a bundler's wrapper returns has its base, and its methods and those the wrapper
    // assigns to it under the bound name, with the data it assigns, as at file level.
    assert!(
        views.signatures.contains(
            "156-164 var Queue = class Queue2 extends EventEmitter\n 158 push(item)\n 160 Queue2.prototype.drain = \
             function (limit)\n 161 Queue2.of = function (items)\n 162 Queue2.VERSION = 2\n166-176"
        ),
        "{}",
        views.signatures
    );
    // A constructor function returned with prototype methods is a class, its methods under it.
    assert!(
        views.map.contains("220-231 class Deque\n 224-226 Deque2.prototype.shift\n 227-229 Deque2.from\n"),
        "{}",
        views.map
    );
    views.signature_lines_contain(&["var Deque = function Deque2(items)", "var minified = function(t,n,r)"]);
    // So does one it returns as written; the name a binding gives last is the class, though a
    // function declaration of that name comes after it (declarations are hoisted).
    assert!(views.map.contains("180-194 class Channel { capacity; +1 private }\n 185-187 size\n"), "{}", views.map);
    assert!(views.map.contains("197-203 class Parser\n 199 parse\n"), "{}", views.map);
}

/// Re-exports and imports with import attributes, which the grammars do not read, are outlined
/// as written (they were an error, and the re-exports were missing without a word): with or
/// without a `;`, over several lines, two on a line; and a run never joins them with others.
#[test]
fn re_exports_with_import_attributes() {
    let source = "import config from './config.json' with { type: 'json' };\n\
                  export * from './schema.json' with { type: 'json' }\n\
                  export * from './plain.json'\n\
                  export { version } from './package.json' assert { type: 'json' };\n\
                  export {\n  c,\n  d,\n} from \"./y.json\" with {\n  type: \"json\"\n}\n\
                  export * from './f.json' with { type: '}' }; export * from './g.json' with { type: 'json' };\n\
                  export const y = config.y;\n";
    for language in [Language::TypeScript, Language::JavaScript] {
        let outline = outline(language, source);
        assert_eq!(outline.unparsed, [], "{language:?}");
        assert_eq!(
            render_signatures(&outline),
            "2 export * from './schema.json' with { type: 'json' }\n\
             3 export * from './plain.json'\n\
             4 export { version } from './package.json' assert { type: 'json' }\n\
             5-10 export { c, d } from \"./y.json\" with { type: \"json\" }\n\
             11 export * from './f.json' with { type: '}' }\n\
             11 export * from './g.json' with { type: 'json' }\n\
             12 export const y = config.y\n",
            "{language:?}"
        );
        assert!(render_map(&outline).starts_with("imports 1: ./config.json\n"), "{}", render_map(&outline));
    }
    // Nor does a run join them with others in the map.
    let map = render_map(&outline(Language::TypeScript, source));
    assert!(
        map.contains("\n2 export * from './schema.json' with { type: 'json' }\n3 export * from './plain.json'\n"),
        "{map}"
    );
    // Words that only look like attributes, in a string, a template or a comment, are left alone
    // in a file the copy is made for: every definition stays.
    let source = "export * from './data.json' with { type: 'json' };\n\
                  export const m = \"x\" + ' with {'; export function f() { return 1 }\n\
                  const open = `import data from './x.json' with {`;\nexport const hidden = 1;\nconst close = `}`;\n\
                  export class A {\n  m() {\n    return 1 // like import 'b' with {\n  }\n  n() {}\n}\n";
    let outline = outline(Language::TypeScript, source);
    assert_eq!(outline.unparsed, []);
    assert_eq!(
        render_map(&outline),
        "1 export * from './data.json' with { type: 'json' }\n2 const m\n2 fn f\n3 const open\n4 const hidden\n\
         5 const close\n6-11 class A\n 7-10 {m, n}\n"
    );
}

/// TypeScript's abstract class, returned by a function called at once, is the bound name's too.
#[test]
fn typescript_abstract_class_returned_at_once() {
    let source = "export const Base = (function () {\n  abstract class Base2 {\n    abstract run(): void;\n    \
                  stop(): void {}\n  }\n  return Base2;\n})();\n";
    let outline = outline(Language::TypeScript, source);
    assert_eq!(render_signatures(&outline), "1-7 export const Base\n 3 abstract run(): void\n 4 stop(): void\n");
    assert_eq!(render_map(&outline), "1-7 class Base\n 3 run\n 4 stop\n");
}

/// JavaScript annotated for Flow is read with TypeScript's grammar, which parses it whole: its
/// types, annotated functions and class members are listed, and nothing is flagged, where
/// JavaScript's grammar failed on every annotation.
#[test]
fn javascript_annotated_for_flow() {
    let views = check(
        "javascript/flow.js",
        Language::JavaScript,
        &["RouteRecord", "NavigationGuard", "HashHistory", "setupListeners", "push", "checkFallback", "getHash"],
    );
    views.complete();
    views.signature_lines_contain(&["53-59 function checkFallback (base: string): ?boolean"]);
}

/// A function whose body declares ten functions or more is a module built by a call (lodash's
/// `runInContext`): its function declarations are listed under it. A function with fewer (nine),
/// a function value the factory binds, and what its functions declare inside, stay detail.
#[test]
fn javascript_module_factory_functions() {
    let views = check(
        "javascript/factory.js",
        Language::JavaScript,
        &[
            "runInContext",
            "chunk",
            "debounce",
            "memoize",
            "uniq",
            "now",
            "lodash",
            "install",
            "ten",
            "t1",
            "t10",
            "nine",
        ],
    );
    // A function value bound to a name is a factory's local, like its variables.
    views.hides(&["invokeFunc", "trailingEdge", "debounced", "define", "alias", "isArray", "n1", "n9"]);
    views.signature_lines_contain(&[
        // Without the parentheses the function is wrapped in, which close after its body.
        "16-121 var runInContext = function runInContext(context)",
        " 38-54 function debounce(func, wait, options)",
    ]);
}

/// Functions and classes assigned to properties at file level are the API of CommonJS code and of
/// prototypes: listed as written, a prototype's as methods, with the value `module.exports` is
/// set to, which those functions are assigned to. Other assigned values, and what a function
/// assigns inside, are not.
#[test]
fn javascript_functions_assigned_to_properties() {
    let views = check(
        "javascript/response.js",
        Language::JavaScript,
        &[
            "res.status",
            "res.send",
            "res.contentType = res.type",
            "Q[\"try\"] = Q.fcall",
            "exports.parseRange",
            "Route",
            "Route.prototype.dispatch",
            "Route.prototype.all",
            "exports.Router",
            "route",
        ],
    );
    views.hides(&["res.lastChunk", "res.locals", "res.charset"]);
    views.signature_lines_contain(&[
        "16-19 res.status = function status(code)",
        "32-35 res.contentType = res.type = function contentType(type)",
        "37-39 exports.parseRange = (size, header, options)",
        "54-58 exports.Router = class Router",
        " 55-57 route(path)",
        // An object written out is data the module exports.
        "64 module.exports = { status: res.status, version: '4.21.0' }",
    ]);
    assert!(views.map.contains("46-48 Route.prototype.dispatch\n"), "{}", views.map);
    // An alias assigned with a function is named in the map too.
    assert!(views.map.contains("32-35 fn res.contentType = res.type\n"), "{}", views.map);
    // The file's whole API is the object it exports, named first after the variable it is.
    assert!(
        views
            .signatures
            .starts_with("9 var res = Object.create(http.ServerResponse.prototype)\n11 module.exports = res\n"),
        "{}",
        views.signatures
    );
}

/// A function or class the file defines at its top level is published with the data it is
/// given there (`Emitter.VERSION = '2.0.0'`): listed under it as its fields, a long value left
/// out. A property of anything else (what the file requires, an object, a global), a prototype
/// set up for inheritance and a property set inside a function are not. Each name exported under
/// a name of its own (`module.exports.default = Emitter`) is listed, a run of them on one line.
#[test]
fn javascript_static_properties_and_named_exports() {
    let views = check(
        "javascript/emitter.js",
        Language::JavaScript,
        &["Emitter", "VERSION", "defaultMaxListeners", "errorMonitor", "Listener", "defaults", "kind"],
    );
    views.hides(&["inspectDepth", "count", "lastEmitter", "prototype"]);
    views.signature_lines_contain(&[
        "12-14 function Emitter(obj)",
        " 16-18 Emitter.VERSION = '2.0.0'; Emitter.defaultMaxListeners = 10; Emitter.errorMonitor",
        " 53-58 Listener.defaults",
        // Names exported one a line share one, each with what it is given unless that is itself.
        "76-79 module.exports.{default = Emitter, Listener, mixin, inspect = util.inspect}",
    ]);
    // Assigned after the class, the field keeps a line of its own: the class's span is not its
    // line.
    let once = "60 class OnceListener extends Listener\n 61 OnceListener.kind = 'once'\n";
    assert!(views.signatures.contains(once), "{}", views.signatures);
    assert!(views.map.contains("12-14 fn Emitter\n 16-18 fields VERSION, defaultMaxListeners, errorMonitor\n"));
    // Set inside a function, the default is no definition of the function's own.
    assert_eq!(views.names.iter().filter(|name| *name == "defaultMaxListeners").count(), 1);
}

/// Every property of the object `module.exports` is given is an exported name: besides its
/// methods, those given a name (`parse`, `format: stringify`) are listed by name; data written
/// out (`version`) is not. A name exported by `exports.name = …` (Babel's output) is listed; a
/// value that names nothing (`exports.default = void 0`) is not.
#[test]
fn javascript_every_exported_name_is_listed() {
    let views = check(
        "javascript/exports.js",
        Language::JavaScript,
        &["DEFAULT_SEPARATOR", "parse", "format", "escape", "unescape", "exports.parseLine"],
    );
    views.signature_lines_contain(&[
        "18-29 module.exports = {…}",
        // Shorthand properties, whose signatures are their names: listed as written.
        " 19-21 DEFAULT_SEPARATOR, parse, format",
        " 23-25 escape(value)",
        "32 exports.parseLine = parseLine",
        // Data exported by assignment is API too (Babel's `__esModule` marker is not), in one
        // run with the names exported beside it.
        "40-46 exports.{default = _default, MAX_ROWS = 10000, QUOTE = '\"', NONE = -1}",
    ]);
    assert!(!views.signatures.contains("void 0") && !views.signatures.contains("__esModule"), "{}", views.signatures);
    views.hides(&["version"]);
}

/// What an entry module gives its exports is listed whatever computes it: `exports =
/// module.exports = createApplication`, and in the run of exported names a name given a
/// `require(…)` (express's `exports.query` and `exports.static` were left out of it without a
/// word) or another value a call computes (`exports.etag = createETagGenerator(…)`); not a module
/// wrapped in a function called at once.
#[test]
fn javascript_exports_computed_by_a_call_are_listed() {
    let views = check("javascript/entry.js", Language::JavaScript, &["createApplication", "createETagGenerator"]);
    views.signature_lines_contain(&[
        "12 exports = module.exports = createApplication",
        "18-27 exports.{application = proto, json = bodyParser.json, query = require('./middleware/query'), static = \
         require('serve-static'), text = bodyParser.text, etag = createETagGenerator({ weak: false }), flatten = \
         deprecate.function(flatten, 'utils.flatten: use array-flatten npm module instead')}",
    ]);
    assert!(!views.signatures.contains("counter"), "{}", views.signatures);
}

/// A name the module binds to its exports object (`var app = exports = module.exports = {}`) has
/// the module's API given to it: its functions, and what a call computes for it (express's `app.del
/// = deprecate.function(…)` was left out), or a name given to it.
#[test]
fn javascript_an_alias_of_the_exports_exports_what_it_is_given() {
    let views = check("javascript/application.js", Language::JavaScript, &["app.init", "app.delete", "app.listen"]);
    views.signature_lines_contain(&[
        "21 app.del = deprecate.function(app.delete, 'app.del: Use app.delete instead')",
        "23 app.handler = finalhandler",
    ]);
}

/// CommonJS takes a member of a module (`require('safe-buffer').Buffer`) or what calling it
/// returns (`require('depd')('express')`) as often as the module itself: each is an import, and
/// the map's imports line names its module (express's response.js left out four of its twelve).
#[test]
fn javascript_a_member_or_call_of_a_required_module_is_an_import() {
    let response = check("javascript/response.js", Language::JavaScript, &["res.status"]);
    assert!(response.map.starts_with("imports 7-8: safe-buffer; http\n"), "{}", response.map);
    let application = check("javascript/application.js", Language::JavaScript, &["app.init"]);
    assert!(
        application.map.starts_with("imports 7-10: ./utils; finalhandler; depd; cookie-signature\n"),
        "{}",
        application.map
    );
}

/// An object of data given to `module.exports` (a settings module, a tool's `jest.config.js`) is
/// the module's API, each key an exported name: listed as written, as data exported by
/// assignment is (`exports.retries = 3`), nested values emptied when the line is long.
#[test]
fn javascript_an_object_of_data_exported_whole() {
    let views = check("javascript/settings.js", Language::JavaScript, &["module.exports"]);
    let line = "12-23 module.exports = { retries: 3, timeout: 30 * ONE_SECOND, baseURL: process.env.API_URL || \
                'https://api.example.com', cacheDir: path.join(…), headers: {…}, retryOn: […] }";
    for view in [&views.signatures, &views.map] {
        assert!(view.lines().any(|l| l == line), "{view}");
    }
}

#[test]
fn typescript_barrel_shows_its_exports() {
    let views = check(
        "typescript/index.ts",
        Language::TypeScript,
        &["*", "* as levels", "{ registry, internalReset as reset }", "{ Options }", "registry"],
    );
    // Two re-exports of one module share a line.
    views.signature_lines_contain(&["5-6 export { Store, type Key, BaseStore as Base, createStore } from './store'"]);
}

#[test]
fn typescript_runs_of_re_exports_share_lines() {
    let views = check("typescript/barrel.ts", Language::TypeScript, &["* as Options", "*"]);
    // A run's namespaces are named once each, in its template's list.
    for view in [&views.signatures, &views.map] {
        // Every namespace and module stays on the page; a run states what its lines repeat once.
        assert!(view.contains("10-20 export * as <name> from \"./<name>.js\" for Args, CliApp, Command\n"), "{view}");
        // A namespace not named for its module is no part of the run's template.
        assert!(view.contains("27 export * as Options from \"./internal/options.js\"\n"), "{view}");
        assert!(view.contains("30-32 export * from './commands/{blur, clearContent, deleteRange}.js'\n"), "{view}");
        // Another directory starts another run; a module without the run's extension stays alone.
        assert!(
            view.contains("33-34 export * from './helpers/{index, getText}.js'\n35 export * from './Editor'\n"),
            "{view}"
        );
    }
}

#[test]
fn typescript() {
    check(
        "typescript/store.ts",
        Language::TypeScript,
        &[
            "VERSION",
            "Key",
            "Store",
            "Level",
            "find",
            "BaseStore",
            "Codec",
            "encode",
            "decode",
            "\"events\"",
            "createStore",
        ],
    );
}

#[test]
fn tsx() {
    check("tsx/App.tsx", Language::Tsx, &["Props", "Counter", "App", "Legacy", "render"]);
}

/// Both views of `source` as JavaScript and as TypeScript, which must agree.
fn js_and_ts_views(source: &str) -> (String, String) {
    let views = |language| {
        let outline = outline(language, source);
        assert_eq!(outline.unparsed, [], "{language:?}");
        (render_signatures(&outline), render_map(&outline))
    };
    let javascript = views(Language::JavaScript);
    assert_eq!(javascript, views(Language::TypeScript), "JavaScript and TypeScript differ");
    javascript
}

/// An exported `let` or `var` is the module's API whatever its value, as an exported `const` is;
/// each name of a declaration of several is listed. One not exported is listed too, as a `const`
/// is (true-myth's `let NOTHING`, its functions' shared value, was in no view nor search), and
/// one without a value; one in a function or a block is that code's own state. A declaration's
/// declarators are written as JavaScript writes them, separated by commas (QA: `let E, F = 5`
/// was shown as `let E; F = 5`, a declaration and an assignment to an undeclared `F`).
#[test]
fn javascript_exported_let_and_var() {
    let (signatures, map) = js_and_ts_views(
        "export let counter = 0;\nexport var legacy = 1;\nexport let a = 1, b = 2;\nlet hidden = 3;\n\
         export function named() { let local = 1; }\nvar C = 3;\nlet D;\nif (x) { var inner = 1; }\nlet E, F = 5;\n",
    );
    assert_eq!(
        signatures,
        "1 export let counter = 0\n2 export var legacy = 1\n3 export let a = 1, b = 2\n4 let hidden = 3\n\
         5 export function named()\n6 var C = 3\n7-9 let D, E, F = 5\n"
    );
    assert_eq!(map, "1 var counter\n2 var legacy\n3 var a, b\n4 var hidden\n5 fn named\n6 var C\n7-9 var D, E, F\n");
}

/// A declaration that destructures binds each name its pattern does, and a file-level or exported
/// one lists them all on its line, as a declaration of several does (they were in no view nor
/// symbol search): a renamed property by its new name, a default or rest element by its own, a
/// nested pattern's names too, a hole and a key none. A function's own stay unlisted, and a
/// pattern taking what `require` gives is an import.
#[test]
fn javascript_destructuring_declarations_list_every_name_they_bind() {
    let bound = [
        "NODE_ENV",
        "port",
        "passthrough",
        "primaryHost",
        "fallbackHost",
        "retries",
        "initialDelay",
        "factor",
        "firstCode",
        "otherCodes",
        "parse",
        "stringify",
        "major",
        "minor",
        "only",
    ];
    let views = check("javascript/destructuring.js", Language::JavaScript, &bound);
    views.hides(&["dir", "PORT", "backoff", "codes", "readFileSync", "joinPath"]);
    assert!(views.map.starts_with("imports 9-10: fs; path\n"), "{}", views.map);
    views.signature_lines_contain(&["12 const { NODE_ENV, PORT: port = 8080, ...passthrough }"]);
    assert!(views.map.contains("\n14-18 var retries, initialDelay, factor, firstCode, otherCodes\n"), "{}", views.map);

    // TypeScript reads them alike, a typed pattern too; patterns of one name each keep a line
    // each (three once shared `const { alpha } = one, beta } = two, gamma } = three`).
    let (signatures, map) = js_and_ts_views(
        "export const { a, b: [c] } = pair;\nconst { alpha } = one;\nconst { beta } = two;\nconst { gamma } = three;\n",
    );
    assert_eq!(
        signatures,
        "1 export const { a, b: [c] } = pair\n2 const { alpha } = one\n3 const { beta } = two\n4 const { gamma } = three\n"
    );
    assert_eq!(map, "1 const a, c\n2 const alpha\n3 const beta\n4 const gamma\n");
    let typed = outline(Language::TypeScript, "export const { width, height }: Size = measure();\n");
    assert_eq!(render_map(&typed), "1 const width, height\n");
}

/// A declaration of several on one line is one line naming every binding however its
/// declarators are written: `const { one } = x, two = 3` was two lines with one number, as if two
/// declarations, where `const a = 1, b = 2` was one.
#[test]
fn javascript_a_declaration_with_a_pattern_is_one_line() {
    let (signatures, map) = js_and_ts_views(
        "const { one } = x, two = 3;
const a = 1, b = 2;
export const { c } = y, d = 4;
let g = 1, [h, i] = q;
",
    );
    assert_eq!(
        signatures,
        "1 const { one } = x, two = 3\n2 const a = 1, b = 2\n3 export const { c } = y, d = 4\n4 let g = 1, [h, i] = q\n"
    );
    assert_eq!(map, "1 const one, two\n2 const a, b\n3 const c, d\n4 var g, h, i\n");
}

/// A TypeScript `declare let`/`declare var` is the global a declaration file gives other code.
#[test]
fn typescript_declared_let_and_var() {
    let outline = outline(Language::TypeScript, "declare let ambient: number;\ndeclare var process: { env: {} };\n");
    assert_eq!(render_signatures(&outline), "1 declare let ambient: number\n2 declare var process: { env: {} }\n");
    assert_eq!(render_map(&outline), "1 var ambient\n2 var process\n");
}

/// TypeScript's CommonJS export, `export = Parser`, is listed as `module.exports = Parser` is.
#[test]
fn typescript_export_assignment() {
    let outline = outline(Language::TypeScript, "declare class Parser {\n  parse(): void;\n}\nexport = Parser;\n");
    assert_eq!(render_signatures(&outline), "1-3 declare class Parser\n 2 parse(): void\n4 export = Parser\n");
    assert_eq!(render_map(&outline), "1-3 class Parser\n 2 parse\n4 export = Parser\n");
    // A value written out after `=` is no name: its text is not made a head.
    let written = lean_ctx_outline::outline(
        Language::TypeScript,
        "export = {\n  parse(text: string) {\n    return text;\n  },\n};\n",
    );
    assert!(!render_signatures(&written).contains("return text"), "{}", render_signatures(&written));
}

/// A class bound to a name is a class, with any keyword, its methods under it; its head stops at
/// its body, on one line too.
#[test]
fn javascript_class_expressions_bound_to_names() {
    let (signatures, map) = js_and_ts_views(
        "const Store = class Store extends Base {\n  get(key) {}\n};\nlet Cache = class {\n  clear() {}\n};\n\
         var Legacy = class {\n  run() {}\n};\nconst Short = class { m() {} };\n",
    );
    assert_eq!(
        signatures,
        "1-3 const Store = class Store extends Base\n 2 get(key)\n4-6 let Cache = class\n 5 clear()\n\
         7-9 var Legacy = class\n 8 run()\n10 const Short = class\n 10 m()\n"
    );
    assert_eq!(
        map,
        "1-3 class Store\n 2 get\n4-6 class Cache\n 5 clear\n7-9 class Legacy\n 8 run\n10 class Short\n 10 m\n"
    );
}

/// An anonymous function or class exported by default is the module's API: listed as `default`,
/// headed as written, a class with its methods.
#[test]
fn javascript_anonymous_default_exports() {
    let cases = [
        (
            "export default class {\n  run() {}\n}\n",
            "1-3 export default class\n 2 run()\n",
            "1-3 class default\n 2 run\n",
        ),
        ("export default class extends Base {}\n", "1 export default class extends Base\n", "1 class default\n"),
        (
            "export default function (a, b) {\n  return a + b;\n}\n",
            "1-3 export default function (a, b)\n",
            "1-3 fn default\n",
        ),
        ("export default async function () {}\n", "1 export default async function ()\n", "1 fn default\n"),
        ("export default function* () {}\n", "1 export default function* ()\n", "1 fn default\n"),
        ("export default () => 1\n", "1 export default ()\n", "1 fn default\n"),
    ];
    for (source, signatures, map) in cases {
        assert_eq!(js_and_ts_views(source), (signatures.to_string(), map.to_string()), "{source}");
    }
}

/// A property given accessors at module level (`Object.defineProperty(Emitter.prototype, 'count',
/// { get: function () {…} })`) is listed by the name code reads, its accessors under it; one given
/// data only (tsc's `__esModule` mark), or defined inside a function, is not.
#[test]
fn javascript_properties_defined_with_accessors() {
    let (signatures, map) = js_and_ts_views(
        "function Emitter() {}\n\
         Object.defineProperty(Emitter.prototype, 'count', {\n  get: function () { return 0; },\n});\n\
         Object.defineProperty(exports, '__esModule', { value: true });\n\
         function setup(target) {\n  Object.defineProperty(target, 'size', { get() { return 1; } });\n}\n\
         Object.defineProperty(exports, 'map', { enumerable: true, get: function () { return m.map; } });\n",
    );
    // tsc's CommonJS re-export (the last line) is the compiler's plumbing, not a property.
    assert_eq!(
        signatures,
        "1 function Emitter()\n2-4 Object.defineProperty(Emitter.prototype, 'count', {…})\n 3 get: function ()\n\
         6-8 function setup(target)\n"
    );
    assert_eq!(map, "1 fn Emitter\n2-4 prop Emitter.prototype.count\n 3 fn get\n6-8 fn setup\n");
}

/// The types a Rust function declares in its body (a struct a method sorts, a test's fake and its
/// trait impl) are listed under it, each with its lines; its nested functions, constants and
/// macro calls are not.
#[test]
fn rust_types_declared_in_functions() {
    let views = check(
        "rust/local_types.rs",
        Language::Rust,
        &["Clock", "Sessions", "expire", "Due", "tests", "expires_in_order", "FakeClock", "Clock for FakeClock"],
    );
    views.complete();
    views.hides(&["session", "START", "due", "entry"]);
    views.signature_lines_contain(&[
        "  17-21 #[derive(…)] struct Due",
        "  45 struct FakeClock(Cell<u64>)",
        "  47-51 impl Clock for FakeClock { now }",
    ]);
}

#[test]
fn go() {
    check(
        "go/server.go",
        Language::Go,
        &[
            "server",
            "DefaultPort",
            "maxConns",
            "ErrClosed",
            "Handler",
            "Server",
            "Start",
            "Option",
            "ID",
            "New",
            "client",
            "helper",
        ],
    );
}

#[test]
fn go_constants_of_a_run_share_a_line() {
    let views = check(
        "go/consts.go",
        Language::Go,
        &["VersionTLS10", "recordTypeAlert", "magicGNU, versionGNU", "maxSessionTicketLifetime", "errUnknownType"],
    );
    views.signature_lines_contain(&[
        // Values while the line stays short.
        "8-10 const VersionTLS10 = 0x0301; VersionTLS11 = 0x0302; VersionTLS12 = 0x0303",
        // Else the names alone, across blocks: the lines the span gives hold them.
        "22-31 const recordTypeChangeCipherSpec, recordTypeAlert, recordTypeHandshake, recordTypeApplicationData, \
         magicGNU, versionGNU, magicUSTAR, versionUSTAR",
        // The specs of a `var ( … )` block, under its keyword.
        "35-36 var errShortRecord = errorf(\"short record\"); errUnknownType = errorf(\"unknown record type\")",
        // Alone, a constant keeps its line.
        "43 const maxSessionTicketLifetime = 7 * 24 * time.Hour",
    ]);
    // A type and its method between two runs keep them apart: a shared span would cover their lines.
    assert!(views.signatures.contains("13 type recordType uint8\n 16-18 String() string\n"), "{}", views.signatures);
}

#[test]
fn go_long_heads_name_their_parameters() {
    let views = check(
        "go/params.go",
        Language::Go,
        &["mutualVersion", "isSupportedSignatureAlgorithm", "Config", "writeKeyLog"],
    );
    views.signature_lines_contain(&[
        "5-7 func mutualVersion(isClient bool, peerVersions []uint16) (uint16, bool)",
        "10-12 func isSupportedSignatureAlgorithm(sigAlg…, supportedSignatureAlgorithms…) bool",
        // Names declared together are each named, the type they share marked after the last; a
        // function type's own parameters go with it.
        "19-21 writeKeyLog(label…, clientRandom, secret…, handlers…) error",
    ]);
}

/// The types a test function or a method declares are listed under it, each with its lines and
/// its exported fields; a table's anonymous struct (`tests := []struct{…}`), a closure and the
/// function's constants are not.
#[test]
fn go_types_declared_in_functions() {
    let views = check(
        "go/parse_test.go",
        Language::Go,
        &["TestParseDuration", "TestSplitList", "testCase", "TestDecode", "payload", "decoder", "limit", "tick"],
    );
    views.complete();
    views.hides(&["tests", "tt", "run", "got", "max", "name", "secret"]);
    views.signature_lines_contain(&[
        // Unexported fields are counted, not listed.
        " 28-32 type testCase struct { +3 unexported }",
        " 47-51 type payload struct { Name string; Retries int; +1 unexported }",
        " 53-55 type decoder interface",
        "  54 Decode(v any) error",
        " 56 type limit = int",
        "  72 type tick struct { At int64 }",
    ]);
}

#[test]
fn java() {
    check(
        "java/OrderService.java",
        Language::Java,
        &["com.example.orders", "OrderService", "submit", "Builder", "Status", "Repository", "Order"],
    );
}

/// The types a method or constructor declares (a local record a stream groups by, a local
/// enum, interface and class) are listed under it with their members, each with its lines; its
/// locals and an anonymous class it instantiates are not.
#[test]
fn java_types_declared_in_methods() {
    let views = check(
        "java/SalesReport.java",
        Language::Java,
        &["SalesReport", "Slot", "totals", "Key", "label", "flagLarge", "Size", "Rule", "apply", "OverLimit", "Sale"],
    );
    views.complete();
    views.hides(&["byKey", "rule", "done", "run", "Ignored", "seen"]);
    views.signature_lines_contain(&[
        " 12-23 public SalesReport(List<Sale> sales)",
        "  14-20 record Slot(String region, int year)",
        "   15-19 Slot",
        " 26-37 public Map<String, Long> totals()",
        "  27-31 record Key(String region, int year)",
        "   28-30 String label()",
        "  41 enum Size { SMALL, LARGE }",
        "  42-44 interface Rule",
        "   43 Size apply(Sale sale)",
        "  45-53 class OverLimit implements Rule",
        "   48-52 @Override public Size apply(Sale sale)",
    ]);
}

/// The methods an enum constant's body defines, and those of an anonymous class a field holds,
/// are listed under the constant or field, each with its lines; a field whose anonymous class
/// only initialises itself is no API.
#[test]
fn java_methods_of_constant_bodies_and_anonymous_classes() {
    let views = check(
        "java/Operation.java",
        Language::Java,
        &[
            "Operation",
            "PLUS",
            "MINUS",
            "TIMES",
            "applyAsInt",
            "commutes",
            "BY_SYMBOL",
            "compare",
            "WARM_UP",
            "run",
            "BEFORE",
            "AFTER",
            "Level",
            "LOW",
            "MEDIUM",
            "HIGH",
            "CRITICAL",
            "urgent",
        ],
    );
    views.complete();
    views.hides(&["BY_NAME", "put"]);
    views.signature_lines_contain(&[
        " 8-13 PLUS(\"+\")",
        "  9-12 @Override public int applyAsInt(int left, int right)",
        " 20-26 TIMES(\"*\")",
        "  21-22 @Override public int applyAsInt(int left, int right)",
        "  24-25 @Override public boolean commutes()",
        " 45-50 static final Comparator<Operation> BY_SYMBOL",
        "  46-49 @Override public int compare(Operation left, Operation right)",
        // A plain field still shares its type's line, its private one counted there.
        "44-75 class Operations { public static final int MAX_OPERANDS; +1 private }",
        " 54-61 public static final Runnable WARM_UP",
        "  55-60 @Override public void run()",
        // A plain constant between two with bodies is its name, as they are: its signature.
        " 84 HIGH",
    ]);
    for line in [" 8-13 field PLUS\n  9-12 applyAsInt\n", " 45-50 field BY_SYMBOL\n  46-49 compare\n"] {
        assert!(views.map.contains(line), "{}", views.map);
    }
    // The anonymous class of the first of two declarators: its method under the declaration.
    assert!(views.map.contains(" 64-69 field BEFORE, AFTER\n  65-68 run\n"), "{}", views.map);
    // An enum's constants in their order, which is their ordinal, bodies or not.
    let level =
        "78-93 enum Level { LOW }\n 80-83 field MEDIUM\n  81-82 urgent\n 84 field HIGH\n 85-88 field CRITICAL\n";
    assert!(views.map.contains(level), "{}", views.map);
}

#[test]
fn c() {
    check(
        "c/buffer.h",
        Language::C,
        &[
            "BUFFER_INITIAL_CAP",
            "BUFFER_MAX",
            "buffer_t",
            "buffer_status",
            "buffer_visit_fn",
            "word",
            "buffer_init",
            "buffer_free",
            "greeting",
            "buffer_remaining",
            "buffer_append",
            "main",
        ],
    );
}

#[test]
fn cpp() {
    check(
        "cpp/shapes.cpp",
        Language::Cpp,
        &["Id", "geo", "detail", "Point", "Shape", "Visitor", "Circle", "Circle::area", "max_of", "Color", "main"],
    );
}

/// The types a function declares in its body (a local struct a sort compares, with its operator,
/// a `using` alias, an RAII guard class and an enum) are listed under it, each with its lines; its
/// variables and lambdas are not, nor a local class's private data.
#[test]
fn cpp_types_declared_in_functions() {
    let views = check(
        "cpp/scheduler.cpp",
        Language::Cpp,
        &["jobs", "Scheduler::next_batch", "Entry", "operator<", "Clock", "Scheduler::drain", "Guard", "Outcome"],
    );
    views.complete();
    views.hides(&["entries", "due", "batch", "guard", "counts", "flag_"]);
    views.signature_lines_contain(&[
        "  12-20 struct Entry",
        "   17-19 bool operator<(const Entry &other) const",
        "  21 using Clock = std::chrono::steady_clock",
        "  40-47 class Guard",
        "   42 explicit Guard(bool &flag)",
        "  49 enum class Outcome { Ran, Skipped }",
    ]);
}

/// An export macro between `class` and the name (`class MYLIB_API Widget {`) no longer makes the
/// class a function without members; a line of macros over a method, `Q_OBJECT`, and a macro after
/// a parameter list (`… MYLIB_NOEXCEPT : parent_(parent)`) are no errors. A class still read as a
/// function says so.
#[test]
fn cpp_export_macros() {
    let views = check(
        "cpp/widget.hpp",
        Language::Cpp,
        &["Widget", "size", "empty", "resize", "Panel", "parent", "Options", "verbose", "make_widget"],
    );
    views.signature_lines_contain(&[
        " 18-31 class MYLIB_API Widget",
        "  22 int size() const noexcept",
        " 33-44 class MYLIB_API Panel final : public Base",
        " 51 MYLIB_API Widget *make_widget(int size)",
    ]);
    // Only the specialization, whose `<int>` the macro rule does not look past, is misread (as a
    // function `Box<int>`): its body is named, not silently dropped.
    views.first_lines("[outline incomplete: lines 56-59 not parsed]");
    assert!(views.map.contains(" 18-31 class Widget { +1 private }\n  20 ctor Widget\n"), "{}", views.map);
}

/// nlohmann's `json.hpp`: a scope macro over a doc comment, an access macro
/// (`JSON_PRIVATE_UNLESS_TESTED:`), `JSON_TRY`/`JSON_CATCH (…)` over blocks and one-branch `#if`s
/// inside a declaration no longer end the class early (it was read as a function `basic_json`,
/// its members lost with no note, and its last members as the file's): the class spans to its
/// `};` and holds every member, named.
#[test]
fn cpp_json_header_macros() {
    let views = check(
        "cpp/basic_json.hpp",
        Language::Cpp,
        &["basic_json", "parser", "get_allocator", "assert_invariant", "get_impl", "get", "at", "dump"],
    );
    views.signature_lines_contain(&[
        "18-108 class basic_json",
        " 55-65 template <…> ValueType get_impl(detail::priority_tag<…>) const noexcept(noexcept(…))",
        " 102-107 string_t dump(const int indent = -1, const char indent_char = ' ') const",
    ]);
    assert!(!views.signatures.contains("outline incomplete"), "{}", views.signatures);
}

/// A C++ header named `.h` (ICU's, libstdc++'s) is read with C++'s grammar: its class, with its
/// export macro and its `U_FINAL`, holds its members, and no method's body is in a head.
#[test]
fn cpp_header_named_h() {
    let views = check("c/trie.h", Language::C, &["CharsTrie", "State", "getValue", "getNextUChars", "readValue"]);
    views.signature_lines_contain(&[
        "11-37 class U_COMMON_API CharsTrie U_FINAL : public UMemory",
        " 18-23 class State : public UMemory",
        " 25-28 inline int32_t getValue() const",
    ]);
    assert!(views.map.contains("11-37 class CharsTrie { +2 private }\n"), "{}", views.map);
}

/// zlib's and SQLite's declarations: one line each, named by the declared name, with the macros
/// as written (`ZEXTERN int ZEXPORT deflate OF((z_streamp strm, int flush))`), a long parameter
/// list whole, the one a macro wraps too (`deflateInit2_ OF((…))` said nothing of it), and a
/// callback's type whole, named or not (`int (*xAuth)(…)`, `void(…)(…)` said nothing of what a
/// caller must pass); a return type in capitals on its own line
/// and an enum's last enumerator stay as they were; macro calls over a type and a calling
/// convention in a function pointer do not take its name, nor does a macro around the name
/// (bzip2's `BZ_API(BZ2_bzCompressInit) (…)`).
#[test]
fn c_declarations_with_macro_words() {
    let views = check(
        "c/exports.h",
        Language::C,
        &[
            "alloc_func",
            "zlibVersion",
            "deflate",
            "deflateInit2",
            "deflateInit2_",
            "sqlite3_version",
            "sqlite3_open",
            "sqlite3_set_authorizer",
            "sqlite3_bind_text64",
            "CloseHandle",
            "LEVEL_HIGH",
            "BZ2_bzCompressInit",
            "BZ2_bzReadOpen",
        ],
    );
    views.signature_lines_contain(&[
        "14 ZEXTERN const char * ZEXPORT zlibVersion OF((void))",
        "15 ZEXTERN int ZEXPORT deflate OF((z_streamp strm, int flush))",
        "16-18 ZEXTERN int ZEXPORT deflateInit2 OF((z_streamp strm, int level, int method))",
        "20-23 ZEXTERN int ZEXPORT deflateInit2_ OF((z_streamp strm, int level, int method, int windowBits, int \
         memLevel, int strategy, const char *version, int stream_size))",
        "25 SQLITE_API SQLITE_EXTERN const char sqlite3_version[]",
        "27-31 SQLITE_API int sqlite3_set_authorizer(sqlite3*, int (*xAuth)(void*,int,const char*,const char*,const \
         char*,const char*), void *pUserData)",
        "32-33 SQLITE_API int sqlite3_bind_text64(sqlite3_stmt*, int, const char*, sqlite3_uint64, void(*)(void*), \
         unsigned char encoding)",
        // Past 200 characters with nothing after its parameters to cut: whole, and no `…` says
        // otherwise.
        "34-45 SQLITE_API int sqlite3_create_window_function(sqlite3 *db, const char *zFunctionName, int nArg, int \
         eTextRep, void *pApp, void (*xStep)(sqlite3_context*,int,sqlite3_value**), void \
         (*xFinal)(sqlite3_context*), void (*xValue)(sqlite3_context*), void \
         (*xInverse)(sqlite3_context*,int,sqlite3_value**), void(*xDestroy)(void*))",
        "48-49 BOOL CloseHandle(HANDLE handle)",
        "59-61 typedef struct rsa_oaep_params_st RSA_OAEP_PARAMS { int hash }",
        "63-64 typedef BOOL (PASCAL *LPFN_ACCEPTEX) (SOCKET listen, SOCKET accept)",
        // bzip2's name in a macro (`BZ_API(func)`) is the function's name, not `BZ_API`.
        "70-75 BZ_EXTERN int BZ_API(BZ2_bzCompressInit) (bz_stream* strm, int blockSize100k, int verbosity, int \
         workFactor)",
    ]);
    let window = views.signatures.lines().find(|line| line.contains("sqlite3_create_window_function"));
    assert!(window.is_some_and(|line| line.ends_with("void(*xDestroy)(void*))")), "{window:?}");
    views.hides(&["ZEXPORT", "int", "SQLITE_API"]);
    assert!(!views.map.contains("fn BZ_API"), "{}", views.map);
    views.complete();
}

/// OpenSSL's evp.h marks what it deprecates with a macro, on the declaration's line or on a line
/// of its own above it: the head keeps the mark either way (a shorter one too), and a function
/// returning a function pointer under it keeps its name.
#[test]
fn c_deprecation_macros_stay_in_heads() {
    let views = check(
        "c/evp.h",
        Language::C,
        &["EVP_MD_meth_new", "EVP_MD_meth_set_input_blocksize", "EVP_MD_meth_get_init", "EVP_MD_CTX_reset"],
    );
    views.signature_lines_contain(&[
        "12 int EVP_set_default_properties(OSSL_LIB_CTX *libctx, const char *propq)",
        "15 OSSL_DEPRECATEDIN_3_0 EVP_MD *EVP_MD_meth_new(int md_type, int pkey_type)",
        "17-18 OSSL_DEPRECATEDIN_3_0 int EVP_MD_meth_set_input_blocksize(EVP_MD *md, int blocksize)",
        "22-23 OSSL_DEPRECATEDIN_3_0 int (*EVP_MD_meth_get_init(const EVP_MD *md))(EVP_MD_CTX *ctx)",
        "27 DEPR int EVP_MD_CTX_reset(EVP_MD_CTX *ctx)",
        // A macro called over a declaration is no mark of it.
        "33 int EVP_PKEY_get_bits(const EVP_PKEY *pkey)",
        // A long head keeps a callback's type whole: what a caller's function must take.
        "19-21 OSSL_DEPRECATEDIN_3_0 int EVP_MD_meth_set_update(EVP_MD *md, int (*update)(EVP_MD_CTX *ctx, const void \
         *data, size_t count))",
        "41 extern void (*evp_on_free)(EVP_MD *md)",
        "42 extern void (*evp_on_dup[2])(EVP_MD *md)",
        "43-44 extern char *evp_default_name, *evp_fallback_name",
    ]);
    // A function returning a pointer to a function is a function; a pointer to one, or an array
    // of them, is a variable.
    for line in ["22-23 fn EVP_MD_meth_get_init", "36 var evp_default_init", "37 fn evp_get_update", "38 var evp_inits"]
    {
        assert!(views.map.lines().any(|l| l == line), "no line `{line}` in\n{}", views.map);
    }
    views.hides(&["OSSL_DEPRECATEDIN_3_0", "int"]);
    views.complete();
}

/// A C type's fields and enumerators are its API, listed on its line: a bit-field pair, a
/// function pointer, a C11 anonymous union's members (used as the outer type's own), a member
/// whose type is defined in place (its type shown with it); a `#define` written among them is
/// a definition too.
#[test]
fn c_fields_and_enumerators() {
    let views = check(
        "c/fields.h",
        Language::C,
        &[
            "loop_timer",
            "deadline_ms",
            "repeat",
            "active",
            "on_fire",
            "loop_watch",
            "fd",
            "ptr",
            "u64",
            "stats",
            "name",
            "LOOP_ONCE",
            "LOOP_NOWAIT",
            "LOOP_DEFAULT",
            "loop_run",
            "TIMER_ONESHOT",
            "LOOPF_ONCE",
            // A named type defined in a member is listed as the type code names it by.
            "loop_packet_header",
            "magic",
            // Anonymous members two deep are the outer type's own fields.
            "lo",
            "hi",
            "value",
        ],
    );
    views.complete();
    // The counters are `stats.reads`, not the watch's own fields.
    views.hides(&["reads", "writes"]);
    views.signature_lines_contain(&[
        "struct { uint64_t reads, writes; } stats",
        "enum loop_mode { LOOP_ONCE = 1",
        // The type, with the member declared of it.
        "struct loop_packet_header header { unsigned magic, length }",
    ]);
    // The map names the member too: code reads it as `packet.header`.
    assert!(views.map.contains("\n 36-38 struct loop_packet_header header { magic, length }\n"), "{}", views.map);
}

/// A variable or a function's local declaring a named type in place (`struct seen { … }
/// *seen_table;`) lists the type with its fields, which code names (`struct seen *`), and the
/// variable after it; a table's initial value is left out of its line.
/// A C variable's declarator stays whole on a long line: its name and every dimension, what
/// they hold too (`mixer_scratch_frames_of_every_channel[sizeof(…) * (…)]` said neither the size nor what it is counted
/// in); the initializer is left out.
#[test]
fn c_array_declarators_stay_whole() {
    let views = check(
        "c/tables.c",
        Language::C,
        &[
            "mixer_channel_names",
            "mixer_scratch_frames_of_every_channel",
            "mixer_gain_table_for_each_output_channel_and_volume_step",
            "mixer_channel_count",
        ],
    );
    for line in [
        "8-10 static const char *const mixer_channel_names[MIXER_CHANNEL_KIND_COUNT]",
        "12 static float mixer_scratch_frames_of_every_channel[sizeof(struct mixer_frame_header) * (MIXER_CHANNELS + MIXER_HEADROOM_FRAMES)]",
        "14-16 const unsigned short mixer_gain_table_for_each_output_channel_and_volume_step[MIXER_GAIN_STEPS(MIXER_CHANNELS)][MIXER_CHANNELS]",
    ] {
        assert!(views.signatures.lines().any(|shown| shown == line), "no line `{line}` in\n{}", views.signatures);
    }
}

#[test]
fn c_types_defined_in_declarations() {
    let views = check(
        "c/registry.c",
        Language::C,
        &["command", "commands", "run", "seen", "seen_table", "registry_find", "match", "best", "index", "score"],
    );
    views.complete();
    views.signature_lines_contain(&[
        "4-11 static const struct command commands[] { const char *name; int (*run)(int argc, char **argv) }",
        "13 struct seen *seen_table { int id }",
        " 17-20 struct match best { int index; int score }",
    ]);
}

/// A C++ class lists its public and protected data members (the second a subclass's API); a
/// `struct`'s are public until a label says otherwise; private ones are not API.
#[test]
fn cpp_public_data_members() {
    let views = check(
        "cpp/account.hpp",
        Language::Cpp,
        &[
            "bank",
            "Account",
            "owner",
            "currency",
            "balance",
            "audit_level",
            "Transfer",
            "from",
            "to",
            "amount",
            "Status",
            "Pending",
        ],
    );
    // A private member stays private inside a conditional block; each is counted on its type's
    // line, a class's members before any label too.
    views.hides(&["pin_", "balance_", "retries", "debug_counter"]);
    views.signature_lines_contain(&[
        " 6-24 class Account { +3 private }",
        "protected int audit_level",
        "private void audit(const std::string& reason)",
        " 26-32 struct Transfer { Account *from, *to; double amount; +1 private }",
    ]);
}

#[test]
fn csharp() {
    check(
        "csharp/Inventory.cs",
        Language::CSharp,
        &["Shop.Inventory", "Item", "IInventory", "Inventory", "Name", "LoadAsync", "Slot", "Changed", "Mode"],
    );
}

#[test]
fn ruby() {
    check(
        "ruby/billing.rb",
        Language::Ruby,
        &["Billing", "VERSION", "Error", "Invoice", "initialize", "self.parse", "<< self", "Taxes", "top_level_helper"],
    );
}

/// The methods a block given to a call defines are listed under the call: a concern's
/// `included do` and `class_methods do`, `Struct.new do` bound to a constant (a class), a spec's
/// helpers; blocks without methods are not.
#[test]
fn ruby_methods_defined_in_blocks() {
    let views = check(
        "ruby/trackable.rb",
        Language::Ruby,
        &["Trackable", "included", "created_event", "class_methods", "tracked_names", "track_all", "track", "untrack"],
    );
    views.hides(&["has_many", "scope", "after_create", "it \"stores each event\""]);
    views.signature_lines_contain(&[
        " 21-29 class_methods do",
        "  26-28 def track_all(names, payload: {})",
        "41-49 Point = Struct.new(:x, :y) do",
        " 42-44 def distance_to(other)",
        "57-70 RSpec.describe Trackable do",
        "  61-63 def track_twice(name)",
    ]);
    assert!(views.map.contains("41-49 class Point\n"), "{}", views.map);
}

/// What Ruby says about a method's visibility is in its head: `private def x`, and a bare
/// `private` (or `protected`, `module_function`) for the instance methods and attributes after it,
/// up to `public`; `attr_*` are the class's fields.
#[test]
fn ruby_visibility_and_attributes() {
    let views = check(
        "ruby/tokenizer.rb",
        Language::Ruby,
        &[
            "Tokenizer",
            "source",
            "position",
            "strict",
            "each_token",
            "self.build",
            "eof?",
            "rest",
            "next_token",
            "self.scan",
        ],
    );
    views.signature_lines_contain(&[
        "4-53 class Tokenizer { attr_reader :source, :position; attr_accessor :strict; +1 private }",
        " 20-22 private_class_method def self.build(text)",
        " 24-26 private def eof?",
        " 30-32 protected def rest",
        " 38-42 private def next_token",
        " 59-61 module_function def tokenize(text)",
        " 66-68 memoize def keywords_seen",
        " 70-72 helper_method(def last_token",
    ]);
    // A private attribute is no API, as other languages' private fields are not listed.
    assert!(!views.signatures.contains("attr_writer"), "{}", views.signatures);
    // `private` does not make a class method private, and `public` ends the section.
    views.signature_lines_contain(&[" 44-52 def {self.keywords, reset!}"]);
    // `private_class_method :scan` does, as its `def` form does, and not the instance's `scan`.
    views.signature_lines_contain(&[
        " 77-79 def self.open(path)",
        " 81-83 private_class_method def self.scan(text)",
        " 86-88 def scan",
    ]);
}

/// What a conditional or a `begin … rescue … ensure` defines is listed at its owner's level with
/// its own lines, each branch's definition of one name too (rack's `clock_time`, `MockResponse`'s
/// fallback `Cookie`), in the visibility section around it.
#[test]
fn ruby_definitions_under_conditionals() {
    let views = check(
        "ruby/conditional.rb",
        Language::Ruby,
        &["clock_time", "secure_compare", "DEFAULT_SEP", "Cookie", "method_missing", "self.cookie_class", "Runner"],
    );
    views.signature_lines_contain(&[
        "  12-14 module_function def clock_time",
        "  17-19 module_function def clock_time",
        "  24-30 module_function def secure_compare(a, b)",
        "  33 DEFAULT_SEP = /[&] */n",
        "  43 Cookie = CGI::Cookie",
        "  45-56 class Cookie { attr_reader :name, :value, :path, :domain, :expires, :secure }",
        "   53-55 def method_missing(method_name, *args, &block)",
        "  69-71 def engine_note",
        "  81-83 private def parse_cookies_from_header",
        "  85-87 private def parse_cookies_from_header",
        "  90 private def identify_cookie_attributes(cookie_filling)",
        "97-99 class Runner",
        "102-108 Rack::Request.class_eval do",
        " 104-106 def forwarded_for",
    ]);
    // A `require` under a top-level `if` is still an import; one in a class body is not.
    assert!(views.map.starts_with("imports 3-95: 'uri'; 'rack'\n"), "{}", views.map);
}

/// A class's constants are listed as a module's are, on a line of their own after its head
/// (thor's `Shell::Color::CLEAR`, rack's `ShowExceptions::CONTEXT`, a `Struct.new` bound to one).
#[test]
fn ruby_class_constants() {
    let views = check(
        "ruby/color.rb",
        Language::Ruby,
        &["Color", "CLEAR", "ON_BLACK", "CONTEXT", "TEMPLATE", "DEFAULT_SEP", "KEYS", "Params", "set_color"],
    );
    views.signature_lines_contain(&[
        r#"   12-22 CLEAR = "\e[0m"; BOLD = "\e[1m"; BLACK = "\e[30m"; RED = "\e[31m"; ON_BLACK = "\e[40m""#,
        "  47 CONTEXT = 7",
        "  66-69 DEFAULT_SEP, COMMON_SEP, KEYS, Params",
    ]);
    // The class's line stays its head: constants are no fields in its braces.
    for head in ["  10-37 class Color < Basic\n", " 65-80 class QueryParser\n"] {
        assert!(views.signatures.contains(head), "{}", views.signatures);
    }
    assert!(views.map.contains("\n  47 const CONTEXT\n"), "{}", views.map);
}

/// The methods `alias`, `alias_method` and `define_method` add are listed by their symbols, in
/// the visibility section they are written in (i18n's `alias :t :translate`, rack's `alias
/// headers header`); one whose name is computed (`define_method("#{name}?")`) names nothing.
#[test]
fn ruby_aliases_and_defined_methods() {
    let views = check(
        "ruby/aliases.rb",
        Language::Ruby,
        &[
            "t",
            "t!",
            "l",
            "headers",
            "to_a",
            "redirect?",
            "set_header",
            "each_header",
            "scan_tag_#",
            "each_line",
            "write_chunk",
            "buffered?",
        ],
    );
    views.signature_lines_contain(&[
        "  15 alias :t :translate",
        "  34 alias headers header",
        "  45 alias to_a finish",
        "  47-49 define_method(:redirect?) do",
        "  51-53 define_method(:set_header) do |key, value|",
        "  59 alias_method :each_header, :each",
        // A quoted symbol names it too (QA: mustache's `alias_method :'scan_tag_#', …` were dropped).
        "  61 alias_method :'scan_tag_#', :each",
        "  62 alias :\"each_line\" :each",
        "  69 private alias_method :write_chunk, :append",
        "  71 private define_method(:buffered?)",
    ]);
    assert!(!views.signatures.contains("#{name}") && !views.signatures.contains(".each"), "{}", views.signatures);
    assert!(views.map.contains("\n  15 fn t\n") && views.map.contains("\n  34 headers\n"), "{}", views.map);
}

/// The fields a Ruby class declares after its constants are on its line, as those it starts
/// with are (rack's `Cascade`: `NotFound = […]` then `attr_reader :apps`).
#[test]
fn ruby_fields_after_constants() {
    let views = check("ruby/request.rb", Language::Ruby, &["Request", "env", "script_name", "ErrorPage", "status"]);
    views.signature_lines_contain(&[
        "{ attr_reader :env, :params; attr_accessor :script_name }",
        " 65-74 class ErrorPage { attr_reader :status }",
    ]);
    assert!(views.map.contains(" 65-74 class ErrorPage { status }\n"), "{}", views.map);
    assert!(!views.signatures.contains("\n  19-20 attr_reader"), "{}", views.signatures);
}

/// A Ruby literal in a head keeps its text as written: `/a  b/x` collapsed to `/a b/x`, or
/// thor's `/( |\t)\Z/` to `/(|\t)\Z/`, is another pattern. One over several lines is cut where
/// its first line ends.
#[test]
fn ruby_literals_as_written() {
    let views = check("ruby/request.rb", Language::Ruby, &["NOT_FOUND", "say"]);
    views.signature_lines_contain(&[
        r#"  66-67 NOT_FOUND = "<h1>Not Found</h1>…""#,
        r#"  78-81 def say(message = "", color = nil, force_new_line = (message.to_s !~ /( |\t)\Z/))"#,
    ]);
    let color = check("ruby/color.rb", Language::Ruby, &["TEMPLATE"]);
    color.signature_lines_contain(&["  57 TEMPLATE = ERB.new(<<-'HTML'.gsub(/^      /, ''))"]);
}

/// A bare `private` inside a conditional at class level holds past the conditional's `end`, as
/// Ruby's visibility is the class body's; only one branch runs, so the next starts without it.
#[test]
fn ruby_private_in_a_conditional() {
    let views = check("ruby/request.rb", Language::Ruby, &["split_header", "wrap_ipv6"]);
    views.signature_lines_contain(&[
        "  37-39 private def split_header(value)",
        "  41-43 def split_header(value)",
        "  46-48 private def wrap_ipv6(host)",
    ]);
}

/// What a statement names gets its visibility wherever the definition is in the body:
/// `private_constant :AUTHORITY` (rack's `Request::AUTHORITY`, `QueryParser::PARAMS_LIMIT`),
/// `private :accepts_html?`, `public :commit_session`, `protected :query_parser`.
#[test]
fn ruby_visibility_given_by_name() {
    let views = check("ruby/request.rb", Language::Ruby, &["AUTHORITY", "HEADER_SECRET", "trusted_proxy?"]);
    views.signature_lines_contain(&[
        r"  15 private AUTHORITY = /\A([^:]+)  (:\d+)?\z/x",
        r#"  16 DEFAULT_SEP = "&;  ""#,
        r#"  17 private HEADER_SECRET = "X-Rack-Secret""#,
        "  13 SCHEME_WHITELIST = %w(https http).freeze",
        "  53-55 def trusted_proxy?(ip)",
        "  58-60 protected def query_parser",
    ]);
    // The map names no access, as for methods, so a private constant does not split a run.
    assert!(
        views.map.contains("\n  13-17 const SCHEME_WHITELIST, AUTHORITY, DEFAULT_SEP, HEADER_SECRET\n"),
        "{}",
        views.map
    );
}

/// A Ruby class's or module's mixins follow its head in parentheses, as its base precedes them
/// (rack's `include Env, Helpers`, thor's `prepend Correctable if Correctable`); the map, which
/// names no base, names none.
#[test]
fn ruby_mixins_follow_the_head() {
    let views = check("ruby/request.rb", Language::Ruby, &["Request"]);
    views.signature_lines_contain(&[
        " 8-62 class Request < BaseRequest (include Env, Helpers; extend Forwardable; prepend Instrumented) {",
    ]);
    assert!(views.map.contains(" 8-62 class Request {"), "{}", views.map);
    let billing = check("ruby/billing.rb", Language::Ruby, &["Invoice"]);
    billing.signature_lines_contain(&[" 11-39 class Invoice < Base (include Comparable) { attr_reader :lines }"]);
}

/// `define_method(:x) { |a| … }` reads as a head its `}` closes, as `do |a|` reads with its
/// `end` on a line of its own.
#[test]
fn ruby_define_method_with_braces() {
    let views = check("ruby/request.rb", Language::Ruby, &["each_param", "param?"]);
    views.signature_lines_contain(&["  50 private define_method(:each_param) { |name, &block| }"]);
    assert!(views.signatures.contains("\n  51 private define_method(:param?)\n"), "{}", views.signatures);
}

#[test]
fn markdown() {
    check(
        "markdown/guide.md",
        Language::Markdown,
        &["Outline Guide", "Install", "From source", "Usage", "Setext Heading", "Flags", "Verbose", "FAQ"],
    );
}

#[test]
fn json() {
    check("json/package.json", Language::Json, &["name", "version", "scripts", "dependencies", "files", "private"]);
}

#[test]
fn yaml() {
    check("yaml/deploy.yaml", Language::Yaml, &["apiVersion", "kind", "metadata", "spec", "script", "quoted key"]);
}

/// A compose file's services are listed on `services`' line; what each service sets (its image,
/// build, ports, healthcheck) is two levels deeper and not: the views count those keys and say
/// which lines hold them, first, rather than let the spans stand for them unsaid.
#[test]
fn yaml_keys_nested_deeper_are_counted() {
    let views = check("yaml/compose.yaml", Language::Yaml, &["name", "services", "volumes"]);
    views.first_lines("[19 nested keys not listed, in lines 4-27; read those lines (lines:4-27) for them]");
    views.signature_lines_contain(&["4-27 services {web, api, db}", "29-30 volumes {pgdata}"]);
}

#[test]
fn toml() {
    check(
        "toml/manifest.toml",
        Language::Toml,
        &["name", "edition.workspace", "package", "dependencies", "profile.release", "bin"],
    );
}

/// A data key whose value is a mapping shows that mapping's keys on its line, so a file of one or
/// two top-level keys (a compose file's `services`) is not outlined by them alone; past a line's
/// room the rest are counted, never dropped unsaid.
#[test]
fn data_keys_show_the_keys_of_their_mappings() {
    let services: String = (0..40).map(|n| format!("  service{n}:\n    image: img{n}\n")).collect();
    let compose = format!("version: '3'\nservices:\n{services}base: &base {{restart: always, init: true}}\n");
    assert_eq!(
        render_signatures(&outline(Language::Yaml, &compose)),
        "[40 nested keys not listed, in lines 2-82; read those lines (lines:2-82) for them]\n1 version\n2-82 services {service0, service1, service2, service3, service4, service5, service6, \
         service7, service8, service9, … 30 more}\n83 base {restart, init}\n"
    );
    // A key inside a list is no mapping's key on a line: counted, with where it is.
    let json = "{\n  \"deps\": {\"a\": \"1\", \"b\": \"2\"},\n  \"list\": [{\"x\": 1}]\n}\n";
    assert_eq!(
        render_map(&outline(Language::Json, json)),
        "[1 nested key not listed, in line 3; read those lines (lines:3) for them]\n2 deps {a, b}\n3 list\n"
    );
    let toml = "top = { inline = 1, table = 2 }\n\n[server]\nhost = \"h\"\nport = 1\n";
    assert_eq!(render_map(&outline(Language::Toml, toml)), "1 top {inline, table}\n3-5 [server] {host, port}\n");
    // Keys that hold deeper ones on one line, or on lines that follow each other, are one span.
    let json = "{\"a\": {\"b\": {\"c\": 1, \"d\": 2}}, \"e\": {\"f\": {\"g\": 3}}}\n";
    assert_eq!(
        render_map(&outline(Language::Json, json)),
        "[3 nested keys not listed, in line 1; read those lines (lines:1) for them]\n1 a {b}\n1 e {f}\n"
    );
    let yaml = "a:\n  b:\n    c: 1\ne:\n  f:\n    g: 3\n";
    assert!(render_map(&outline(Language::Yaml, yaml)).starts_with("[2 nested keys not listed, in lines 1-6; read"));
}

#[test]
fn rust_items_inside_macro_calls() {
    let views = check(
        "rust/net.rs",
        Language::Rust,
        &[
            "cfg_net",
            "TcpStream",
            "peer",
            "nodelay",
            "connect",
            "peer_addr",
            "Runtime",
            "unix",
            "socketpair",
            "split",
            "CURRENT",
            "set_reuse_port",
            "bind_all",
            "READABLE",
            "MAX_PERMITS",
            "Iter",
            "Future",
            "to_socket_addrs",
        ],
    );
    views.hides(&["io", "assert_impl_all"]);
    views.signature_lines_contain(&[
        "19-23 pub struct TcpStream",
        " 27-30 pub async fn connect<A: ToSocketAddrs>(addr: A) -> io::Result<TcpStream>",
        " 56-58 pub fn split(&mut self)",
        // The docs.rs-only `#[cfg_attr(docsrs, …)]` is left out.
        "66-70 #[cfg(…)] pub fn set_reuse_port(socket: &socket2::Socket, reuse: bool) -> io::Result<()>",
        // Also when written over several lines; `#[inline]` is left out too.
        " 97-104 pub fn quickack(&self) -> io::Result<bool>",
    ]);
}

/// Compact forms that keep every name: an impl of a trait on one line with its members, a run of
/// functions that differ only in their names on one line, a long attribute without its arguments.
#[test]
fn rust_trait_impls_and_same_shaped_functions_share_lines() {
    let views = check(
        "rust/builder.rs",
        Language::Rust,
        &["Builder", "worker_threads", "max_blocking_threads", "on_thread_start", "fmt", "Item", "size_hint"],
    );
    views.signature_lines_contain(&[
        " 24-33 pub fn {worker_threads, max_blocking_threads}(&mut self, val: usize) -> &mut Self",
        // A where clause over 40 characters is abridged; a short one stays.
        " 36-43 #[cfg(…)] pub fn on_thread_start<F>(&mut self, f: F) -> &mut Self where …",
        // `#[must_use]` and a doc alias say nothing about the API.
        " 46-53 pub fn build<T>(&mut self) -> io::Result<T> where T: Default",
        "62-72 impl Iterator for Builder { type Item = Duration; next; size_hint }",
        "74 impl Default for Builder",
        " 80-93 #[test] fn {builds_current_thread, sets_worker_threads, sets_blocking_threads}()",
        " 95-97 fn helper() -> Builder",
    ]);
    assert!(views.map.contains("56-60 impl fmt::Debug for Builder { fmt }\n"), "{}", views.map);
    // A conditional attribute that only inlines or documents says nothing either; one that derives
    // a trait is kept.
    views.signature_lines_contain(&[
        " 102-106 pub fn event_interval(&mut self, ticks: u32) -> &mut Self",
        " 108-112 #[cfg_attr(…)] pub fn enable_time(&mut self) -> &mut Self",
    ]);
}

/// A class member's default `public` is left out (a parameter's is kept: it declares a field), and a
/// long field type keeps its outer part; so does every type on a long line of fields.
#[test]
fn typescript_members_without_implied_modifiers() {
    let views = check(
        "typescript/client.ts",
        Language::TypeScript,
        &[
            "ResponseEnvelope",
            "status",
            "headers",
            "retry",
            "RequestOptions",
            "onProgress",
            "cache",
            "HttpClient",
            "baseUrl",
            "pending",
            "request",
            "create",
        ],
    );
    views.hides(&["secret"]);
    views.signature_lines_contain(&[
        "5-11 export interface ResponseEnvelope<TData, TError…> { readonly status: number; data?: TData; \
         error?: TError; headers: Map<string, ReadonlyArray<…>> }",
        " 10 retry(delayMs: number): Promise<ResponseEnvelope<TData, TError>>",
        // Fields over 100 characters with their types are a large type: their names, optional
        // ones marked, on the type's line when it has nothing else.
        "14-24 export interface RequestOptions<TBody…> { method?, headers?, body?, signal?, timeoutMs?, \
         retries?, onProgress?, parse?, cache? }",
        // A list of names keeps each field's access: the plain API ones first, then the others
        // labelled; the private ones counted.
        "26-49 export class HttpClient<TContext…> extends EventEmitter { baseUrl, transport, timeoutMs; protected: \
         pending; +1 private }",
        " 33-36 constructor(baseUrl: string, public context: TContext, private readonly logger?: Logger)",
        " 38-40 async request<TData>(path: string, init?: RequestInit): Promise<ResponseEnvelope<TData>>",
    ]);
}

/// Functions that differ only in their names share a line, but not across a method printed under
/// its type: the shared line would span the method's lines.
#[test]
fn go_same_shaped_functions_around_a_method() {
    let views =
        check("go/handlers.go", Language::Go, &["Page", "Render", "ErrNotFound", "ErrGone", "healthz", "livez"]);
    views.signature_lines_contain(&[
        " 19-22 Render(w http.ResponseWriter) error",
        "16 var ErrNotFound",
        "25 var ErrGone",
        "27-37 func {healthz, readyz, livez}(w http.ResponseWriter, r *http.Request)",
    ]);
}

/// The daemon's symbol search walks the outline's definitions and points at `head_line`: an item
/// declared inside a macro call is found at its real line.
#[test]
fn macro_wrapped_items_have_their_real_lines() {
    assert_real_lines(
        "rust/net.rs",
        &[
            ("TcpStream", Kind::Struct, 19, 23),
            ("connect", Kind::Method, 27, 30),
            ("socketpair", Kind::Function, 43, 45),
            ("split", Kind::Method, 56, 58),
        ],
    );
}

/// A flag under an attribute is found at its own line, as an item under `#[cfg(…)]` is.
#[test]
fn items_in_a_macros_own_syntax_have_their_real_lines() {
    assert_real_lines(
        "rust/macro_syntax.rs",
        &[
            ("OpenFlags", Kind::Struct, 11, 22),
            ("DIRECT", Kind::Field, 18, 18),
            ("SPLICE_F_MORE", Kind::Field, 38, 38),
            ("HourBase", Kind::Enum, 49, 53),
            ("refill_wide", Kind::Function, 62, 64),
            ("GraphBase", Kind::Trait, 70, 74),
            ("FILE", Kind::TypeAlias, 92, 92),
        ],
    );
}

/// Each (name, kind, head line, end line) of a Rust fixture's outline, which has no unparsed lines.
fn assert_real_lines(relative: &str, expected: &[(&str, Kind, u32, u32)]) {
    let outline = outline(Language::Rust, &std::fs::read_to_string(fixture_path(relative)).unwrap());
    for &(name, kind, head_line, end_line) in expected {
        assert_eq!(lines_of(&outline, name), Some((kind, head_line, end_line)), "{name} in {relative}");
    }
    assert!(outline.unparsed.is_empty(), "{:?}", outline.unparsed);
}

/// A definition's (kind, head line, end line) by name at any depth (impl blocks left out: they
/// share their type's name).
fn lines_of(outline: &Outline, name: &str) -> Option<(Kind, u32, u32)> {
    let mut pending: Vec<&Definition> = outline.items.iter().collect();
    while let Some(definition) = pending.pop() {
        if definition.name == name && definition.kind != Kind::Impl {
            return Some((definition.kind, definition.head_line, definition.end_line));
        }
        pending.extend(&definition.children);
    }
    None
}

/// A `def` over the signature's length is shortened decorators first, then its parameters to
/// their names (each marked `…`, its annotation or default dropped), and only then its return type; never its name. Its `-> X` was cut first, where
/// its parameters' names left room for it.
#[test]
fn python_long_heads_keep_their_return_type() {
    let source = "class Client:\n    def request_with_retries(self, method: str, url: str, *, params: Mapping[str, str] | None = None, \
                  json_body: dict[str, Any] | None = None, timeout_seconds: float = DEFAULT_TIMEOUT, retries: int = 3, \
                  verify_tls: bool | SSLContext = True, **headers: str) -> Awaitable[ResponseEnvelope]:\n        pass\n\n    @cache.memoize(ttl=60)\n    \
                  @trace.span(\"client\")\n    @retry(attempts=3)\n    @log_calls\n    def fetch(self, account_id: int, \
                  page: int = 1, include_archived: bool = False, sort_by: str = \"created_at\") \
                  -> Page[Transaction]:\n        pass\n";
    let outline = outline(Language::Python, source);
    let signatures = render_signatures(&outline);
    assert!(source.lines().nth(1).unwrap().len() > 250);
    assert_eq!(
        signatures,
        "1-10 class Client\n 2-3 def request_with_retries(self, method…, url…, *, params…, json_body…, timeout_seconds…, \
         retries…, verify_tls…, **headers…) -> Awaitable[ResponseEnvelope]\n 5-10 @cache.memoize(…) @trace.span(…) @retry(…) \
         @log_calls def fetch(self, account_id: int, page: int = 1, include_archived: bool = False, \
         sort_by: str = \"created_at\") -> Page[Transaction]\n"
    );
}

#[test]
fn python_names_survive_long_decorator_runs() {
    let views =
        check("python/cli.py", Language::Python, &["DEFAULT_TIMEOUT", "cli", "deploy", "Rollout", "fetch_status"]);
    views.signature_lines_contain(&[
        "@click.group(…) @click.version_option(…) @click.pass_context def cli(ctx: click.Context) -> None",
        "@cli.command() @click.option(…) ×6 @click.pass_obj def deploy(config: Config, environment: str, version: str, \
         replicas: int, dry_run: bool, timeout: float, verbose: bool) -> None",
        // Decorations over 40 characters lose their arguments even when the line would fit.
        "@staticmethod @functools.lru_cache(maxsize=None) @retry(…) def fetch_status(deployment_name: str, \
         namespace: str = \"default\", \
         *, include_events: bool = False)",
    ]);
}

#[test]
fn go_exported_fields_and_interface_methods() {
    let views = check(
        "go/types.go",
        Language::Go,
        &[
            "ObjectMeta",
            "Name",
            "Namespace",
            "Labels",
            "CreatedAt",
            "Pod",
            "TypeMeta",
            "Mutex",
            "Spec",
            "Status",
            "Store",
            "Indexer",
            "Get",
            "List",
            "Key",
            "podList",
        ],
    );
    views.hides(&["uid", "cache", "items"]);
    views.signature_lines_contain(&[
        // The fields a type starts with are on its line, its unexported ones counted.
        "22-29 type Pod struct { metav1.TypeMeta; ObjectMeta; *sync.Mutex; Spec, Status string; +1 unexported }",
        // Under its type a method is shown without the receiver the type line already names, and
        // without `func`, as the interface methods are.
        " 43 Key() string",
        // An embedded unexported type is an unexported field, counted as a named one is.
        "type Service struct { Port int; +1 unexported }",
        // A constraint's type set is what the interface means.
        "type Quantity interface { ~int64 | ~float64 }",
        "type Keyed interface { ~string }",
    ]);
    // In the map a type's methods are their bare names.
    assert!(views.map.contains("\n 43 Key\n"), "{}", views.map);
}

#[test]
fn typescript_interface_and_class_members() {
    let views = check(
        "typescript/models.ts",
        Language::TypeScript,
        &[
            "User",
            "id",
            "email",
            "roles",
            "displayName",
            "Page",
            "UserCardComponent",
            "user",
            "compact",
            "selected",
            "DEFAULT_AVATAR",
            "initials",
            "onResize",
        ],
    );
    views.hides(&["cache", "#renders"]);
    views.signature_lines_contain(&["@Component(…) export class UserCardComponent implements OnChanges"]);
}

#[test]
fn java_public_fields() {
    let views = check(
        "java/OrderController.java",
        Language::Java,
        &[
            "OrderController",
            "MAX_PAGE_SIZE",
            "DEFAULT_PAGE_SIZE",
            "orders",
            "region",
            "listItems",
            "retries",
            "TOPIC",
            "PARTITIONS",
        ],
    );
    views.hides(&["clock"]);
    // Over 120 characters, what the parameters' types and annotations nest is left out; every
    // parameter name stays.
    views.signature_lines_contain(&["@GetMapping(…) @PreAuthorize(…) public ResponseEntity<List<…>> \
         listItems(@PathVariable(…) long orderId, @RequestParam(…) int size)"]);
}

/// Protected fields are what a subclass builds on (`FilterInputStream.in`,
/// `BufferedInputStream.buf`): listed like public ones, annotated, volatile or several at once.
#[test]
fn java_protected_fields() {
    let views = check(
        "java/BufferedSource.java",
        Language::Java,
        &["in", "buf", "count", "pos", "markpos", "totalRead", "EOF", "BufferedSource", "fill"],
    );
    views.hides(&["DEFAULT_BUFFER_SIZE", "eof"]);
    // Each declarator of `protected int pos, markpos = -1;` is named.
    // A list of names says which are protected and which static; the private ones are counted.
    views.signature_lines_contain(&[
        "class BufferedSource extends InputStream { protected: in, buf, count, pos, markpos, totalRead; static: EOF; \
         +2 private }",
    ]);
}

/// An annotation type's elements are its API (`@Audited(value = "orders", withArguments = true)`).
#[test]
fn java_annotation_type_elements() {
    let views = check(
        "java/Audited.java",
        Language::Java,
        &["Audited", "MAX_REASON", "value", "withArguments", "levels", "redactors", "Level"],
    );
    views.signature_lines_contain(&["boolean withArguments() default false"]);
}

/// Operators, conversions, indexers and events are a type's API, listed as its methods and
/// properties are.
#[test]
fn csharp_operators_indexers_and_events() {
    let views = check(
        "csharp/Vector.cs",
        Language::CSharp,
        &["Vector2", "operator +", "operator ==", "operator double", "this", "Changed", "Trimmed", "Moved", "Area"],
    );
    views.signature_lines_contain(&[
        "public static explicit operator double(Vector2 v)",
        "public double this[int axis]",
        "public event EventHandler<int>? Trimmed",
    ]);
}

/// C# 14 extension blocks, which the grammar does not know: each is listed with its members under
/// its class, and the class keeps the members after them.
#[test]
fn csharp_extension_blocks() {
    let views = check(
        "csharp/Extensions.cs",
        Language::CSharp,
        &["SequenceExtensions", "IsEmpty", "WhereNot", "WordCount", "Join", "CountWhere"],
    );
    views.signature_lines_contain(&[
        "8-28 public static class SequenceExtensions",
        " 10-17 extension<TSource>(IEnumerable<TSource> source)",
        " 19-24 extension(string text)",
        "  23 public static string Join(IEnumerable<string> parts)",
        " 26-27 public static int CountWhere<T>(this IEnumerable<T> items, Func<T, bool> predicate)",
    ]);
}

/// A program of top-level statements: its local functions at file level are its functions.
#[test]
fn csharp_top_level_functions() {
    let views = check("csharp/Program.cs", Language::CSharp, &["FindOrNotFound", "WarmUpAsync", "Program"]);
    views.hides(&["NotFound"]);
    views.signature_lines_contain(&["10-15 static IResult FindOrNotFound(Inventory inventory, int id)"]);
}

#[test]
fn csharp_public_fields() {
    let views = check(
        "csharp/Settings.cs",
        Language::CSharp,
        &[
            "RetryPolicy",
            "DefaultAttempts",
            "MaxAttempts",
            "Delay",
            "MaxDelay",
            "None",
            "ExecuteAsync",
            "Width",
            "Height",
            "Retries",
        ],
    );
    // `private protected` is for this assembly's subclasses only. What is left out, `internal`
    // included, is counted on the type's line.
    views.hides(&["observed", "attemptsSeen", "_logger", "dpi"]);
    views.signature_lines_contain(&[
        "static: None; protected: Retries; +3 private }",
        "[Obsolete(…)] [MethodImpl(…)] public async Task<TResult> ExecuteAsync<TResult>",
        "27-31 public struct Window { public int Width, Height; +1 private }",
    ]);
}

#[test]
fn unparsed_lines_that_may_hide_definitions_are_named_first() {
    // The unclosed call swallows `insert`, `evict` and `shared`, and recovery wraps the file from
    // the `impl` on in an error: one span from the `impl`'s head to the end.
    check("rust/broken.rs", Language::Rust, &["Cache", "entries", "get"])
        .first_lines("[outline incomplete: lines 9-28 not parsed]");
    // `save` folded into `load`: from its head to the end of `load`.
    check("python/broken.py", Language::Python, &["Settings", "load", "default_path"])
        .first_lines("[outline incomplete: lines 14-16 not parsed]");
    // An `if` left open: the function after it parsed inside the one before, from the `if` on.
    check("go/broken.go", Language::Go, &["Job", "Retry"]).first_lines("[outline incomplete: lines 9-18 not parsed]");
    // A grouped declaration an error broke is named whole, with the statements its specs became;
    // a struct left open does not list the next function as its field.
    let views = check("go/mid_edit.go", Language::Go, &["Config", "Name", "Port"]);
    views.first_lines("[outline incomplete: lines 6-17, 22-24 not parsed]");
    views.hides(&["NewConfig"]);
    // The same in a method or a match arm: the later methods read as statements (a call, a
    // block), and the functions after the class as its methods, with no error node among them.
    check("javascript/unclosed.js", Language::JavaScript, &["SessionStore", "constructor", "get"])
        .first_lines("[outline incomplete: lines 14-34 not parsed]");
    check("rust/unclosed.rs", Language::Rust, &["Pool", "max_idle", "new", "checkout"])
        .first_lines("[outline incomplete: lines 18-33 not parsed]");
    // A lost `"` made the first `print` part of a string in the attribute's tokens, which runs
    // to the next `"`; the grammar trips only on that attribute's line, which looks like no
    // definition. The string's lines are named, to the error.
    check("rust/lost_quote.rs", Language::Rust, &["Colorizer", "print", "fmt"])
        .first_lines("[outline incomplete: lines 11-17 not parsed]");
    // A method that lost its closing brace: the methods after it read as calls and blocks,
    // each closed by its own brace, so no block is closed at another indentation; their heads,
    // named by their shape (a name, its arguments and a block is no statement) and at the
    // constructor's margin, name the rest of the constructor.
    check(
        "javascript/fallback.js",
        Language::JavaScript,
        &["FallbackDependency", "constructor", "category", "serialize"],
    )
    .first_lines("[outline incomplete: lines 17-23 not parsed]");
    // A function in an object that lost its brace: recovery wraps the whole call in an error,
    // and as one of its lines the view does not list looks like a definition (`ordinal:
    // function`), all of them are named, the call's head too, not only its error tokens'.
    check("javascript/locale.js", Language::JavaScript, &["isPM", "meridiem"])
        .first_lines("[outline incomplete: lines 5-26 not parsed]");
    // Python: a call left open takes in the functions and the class after it, with no error
    // until much later; a definition at the margin inside another names the rest of it, and a
    // method the broken class no longer holds, shown at file level though indented, is named.
    check("python/unclosed.py", Language::Python, &["TEST_KEY", "common_object_test", "test_from_object"])
        .first_lines("[outline incomplete: lines 25-36, 38-40 not parsed]");
    // A parameter list left open takes the one-line method after it into its head: that line
    // of the head holds an error and looks like a method with its body (`dot(other: Vector):
    // number { … }`), so it is named.
    check("typescript/onelined.ts", Language::TypeScript, &["Vector", "length", "add", "ZERO"])
        .first_lines("[outline incomplete: line 9 not parsed]");
    // A parameter that lost its `:` turns the method and the field after it into one error; the
    // field's line has a field's shape (a modifier, a name, a type), so the error's lines are named.
    check("typescript/subscriber.ts", Language::TypeScript, &["Subscriber", "destination", "constructor", "next"])
        .first_lines("[outline incomplete: lines 7-11 not parsed]");
    // A `def` head that lost its `(`: `add_argument` is lost at its line, and the method after it,
    // cut from the class, stands at file level though indented: where indentation is syntax,
    // that is named too.
    check("python/broken_head.py", Language::Python, &["OptionParser", "parse_args"])
        .first_lines("[outline incomplete: lines 13-16, 18-19 not parsed]");
    // The same, where recovery puts the error between the class's name and its body: the class's
    // head ends at the error (its text is no part of it), and the lines are named.
    let swallowed = check("python/swallowed_class.py", Language::Python, &["first", "Parser", "parse_args"]);
    swallowed.first_lines("[outline incomplete: lines 12-21, 24-25 not parsed]");
    assert!(swallowed.signatures.lines().any(|line| line.ends_with(" class Parser")), "{}", swallowed.signatures);
    // A parameter list left open takes the next method into the head; a `def` line is no line of
    // a head, so it is named.
    check("python/open_parameters.py", Language::Python, &["Store", "__init__", "add"])
        .first_lines("[outline incomplete: line 12 not parsed]");
    // Ruby: an `if` that lost its `end` makes the methods after it methods nested in the one
    // it is in, parsed whole and listed nowhere; at that method's margin, they name the rest of
    // it. The class's `end` closed the method, so the module's is missing: its line too.
    check("ruby/unclosed.rb", Language::Ruby, &["Invoice", "initialize", "total", "settled?", "Line"])
        .first_lines("[outline incomplete: lines 5, 25-40 not parsed]");
    // Java methods under annotations, with a statement half written in one of them: the
    // signature after an annotation is the head's, not a line of the class's body, so nothing
    // is named.
    check("java/Annotated.java", Language::Java, &["RecordStore", "toString", "save", "broken", "load"]).complete();
    // Annotations over several lines are the head's own, not members taken in: an error in a
    // body names nothing, and a method the grammar cannot read (newer syntax) is named with or
    // without an attribute above it alike.
    let mapped = check("java/Mapped.java", Language::Java, &["Mapped", "getId"]);
    mapped.complete();
    mapped.signature_lines_contain(&["@Entity @Table(…) public class Mapped"]);
    let spans = check("csharp/Spans.cs", Language::CSharp, &["Spans", "Fill", "Copy"]);
    assert_eq!(spans.signatures.starts_with("[outline"), spans.map.starts_with("[outline"));
    assert!(!spans.signatures.contains("line 8"), "{}", spans.signatures);
    // A parameter list left open takes the next method into its head: its line is named.
    check("java/Pricing.java", Language::Java, &["Pricing", "net", "discounted"])
        .first_lines("[outline incomplete: line 15 not parsed]");
    // A class that took its namespace's brace: the namespace is an error holding a `{` it
    // never closes.
    check("csharp/unclosed.cs", Language::CSharp, &["LruCache", "Capacity", "TryGet"])
        .first_lines("[outline incomplete: lines 6, 17-32 not parsed]");
    // Inside macro calls: a function followed by the macro's own syntax (`} ?= null`) is read
    // on its own, and those the parser recognised inside an error node are outlined: nothing is
    // left to name. A `use` group without a parent names each member's module (it printed
    // `{ alloc::boxed; { alloc::core::ffi`, a path that does not exist).
    let ffi = check(
        "rust/ffi.rs",
        Language::Rust,
        &["hyper_body_new", "hyper_body_free", "WorkerMetrics", "from_config", "body_roundtrips", "body_frees"],
    );
    ffi.complete();
    let imports = ffi.map.lines().next().unwrap();
    // The span ends where the last import, written over four lines, ends (it ended where it began).
    assert_eq!(imports, "imports 3-7: std::ptr; alloc::{boxed, vec}; core::ffi");
    // Generic call signatures one per line: the grammar reads the second `<` as a comparison
    // (the whole declaration and all after it used to vanish unflagged); a second parse with the
    // members separated outlines everything.
    check(
        "typescript/pipeable.ts",
        Language::TypeScript,
        &["dataFirstOrLast", "Comparator", "compareBy", "member", "PipeableTypeLambda", "constant", "flip", "Request"],
    )
    .complete();
    // The error is a statement inside a function body: every definition is outlined.
    check("typescript/broken.ts", Language::TypeScript, &["Job", "schedule", "Queue", "push", "MAX_ATTEMPTS"])
        .complete();
}

/// Classes listed without their members (as a budgeted repository map lists them) keep a line
/// each: one shared line would hide where the second starts.
#[test]
fn classes_without_their_members_keep_their_own_lines() {
    let source =
        "class Context:\n    def a(self):\n        pass\n\n\nclass BaseCommand:\n    def b(self):\n        pass\n";
    let mut classes = outline(Language::Python, source);
    for item in &mut classes.items {
        item.children.clear();
    }
    assert_eq!(render_signatures(&classes), "1-3 class Context\n6-8 class BaseCommand\n");
    // One-line declarations still share one.
    let modules = outline(Language::Rust, "mod a;\nmod b;\n");
    assert_eq!(render_signatures(&modules), "1-2 mod {a, b}\n");
}

/// Types a function declares in its body are its members, whether it is declared or bound to a
/// name; its helpers and locals are not.
#[test]
fn typescript_types_declared_inside_a_function() {
    let views = check(
        "typescript/plugin.ts",
        Language::TypeScript,
        &[
            "enableMapDrafts",
            "DraftMap",
            "get",
            "DraftOptions",
            "deep",
            "helper",
            "TaggedError",
            "Base",
            "join",
            "firstOf",
        ],
    );
    views.hides(&["proxyMap", "seen", "inner"]);
    views.signature_lines_contain(&[
        "48-49 export const join = <A, E>(self: Handle<A, E>): Effect<void, E>",
        "52 export const firstOf: <A>(items: ReadonlyArray<A>) => A | undefined",
    ]);
}

/// A type alias too long for one line loses its value, never the join of its name and parameters.
#[test]
fn typescript_long_type_alias_keeps_its_name_whole() {
    check("typescript/pipeable.ts", Language::TypeScript, &["Endpoint", "Request"])
        .signature_lines_contain(&[" 69-85 export type Request<Ep…> = …"]);
}

/// The outline of a text file under `tests/fixtures/text/`, compared with `<stem>.outline.txt`.
fn check_text(name: &str, format: TextFormat) -> String {
    let path = fixture_path(&format!("text/{name}"));
    let source = std::fs::read_to_string(&path).unwrap();
    assert_eq!(TextFormat::detect(&path, &source), format, "format of {name}");
    let view = render_text_outline(format, &source).text;
    let golden = path.with_file_name(format!("{}.outline.txt", path.file_stem().unwrap().to_str().unwrap()));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &view).unwrap();
    } else {
        let expected = std::fs::read_to_string(&golden)
            .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_GOLDEN=1 to create it)", golden.display()));
        assert!(expected == view, "{name}: outline differs from {}:\n{view}", golden.display());
    }
    view
}

#[test]
fn text_files_outline_their_headings() {
    let rst = check_text("index.rst", TextFormat::ReStructuredText);
    for heading in
        ["# requests-cache: the guide", "## Installation", "### From source", "### Sessions", "#### Expiration"]
    {
        assert!(rst.contains(heading), "`{heading}` missing:\n{rst}");
    }
    let asciidoc = check_text("manual.adoc", TextFormat::AsciiDoc);
    assert!(asciidoc.contains("#### Margins") && !asciidoc.contains("not a heading"), "{asciidoc}");
    let org = check_text("plan.org", TextFormat::Org);
    assert!(org.contains("### Examples") && !org.contains("star line") && !org.contains("bold"), "{org}");
}

/// Code in a language without a grammar here is outlined by its definition keywords, nested by
/// indentation, under a first line that says how; a function's locals and a script's commands
/// (`type strip` in shell) are not definitions.
#[test]
fn code_without_a_grammar_is_outlined_by_keywords() {
    let kotlin = check_text("CartRepository.kt", TextFormat::Code(KeywordFamily::General));
    assert!(kotlin.starts_with("[outline by keywords"), "{kotlin}");
    for line in [
        "7-39 class CartRepository(",
        " 15-19 suspend fun load(id: CartId): Result<Cart>",
        " 29-31 fun clear(id: CartId)",
        " 35-38 companion object",
        "  36 const val MAX_LINES = 200",
        "45-48 sealed interface CartEvent",
        // A body after `=` or in braces on the head's line is no part of the signature.
        "50 fun <T> List<T>.secondOrNull(): T?",
        " 63-64 suspend fun save(cart: Cart, force: Boolean): Unit",
        "52 typealias CartId = String",
    ] {
        assert!(kotlin.lines().any(|shown| shown.starts_with(line)), "no line starting `{line}`:\n{kotlin}");
    }
    // A body on the type's line: its members are listed, as from lines of their own.
    let members = "\n54 interface CartCache\n 54 fun get(id: CartId): Cart?\n 54 fun put(cart: Cart)\n 54 fun evict(id: CartId)\n";
    assert!(kotlin.contains(members), "{kotlin}");
    assert!(!kotlin.contains("= getOrNull") && !kotlin.contains("Unit {}"), "{kotlin}");
    assert!(!kotlin.contains("val cached") && !kotlin.contains("val updated"), "{kotlin}");
    let shell = check_text("deploy.sh", TextFormat::Code(KeywordFamily::Shell));
    let names: Vec<&str> = shell.lines().skip(1).collect();
    // Two functions alike but for the name share a line, as everywhere.
    assert_eq!(names, ["8-16 {log, build}()", "18-22 function upload", "24-26 function restart()", "28-34 main()"]);
}

/// A script without an extension is read by the interpreter its `#!` line names (`bin/thor`'s
/// `#!/usr/bin/env ruby` is Ruby, `#!/usr/bin/env bash` shell): its path said nothing, and its
/// signatures and map were a head of its text.
#[test]
fn scripts_without_an_extension_are_read_by_their_shebang() {
    assert_eq!(Language::from_path(&fixture_path("ruby/thor")), None);
    check("ruby/thor", Language::Ruby, &["Release", "CLI", "self.exit_on_failure?", "cut", "run_git"]);
    assert_eq!(TextFormat::from_path(&fixture_path("text/release")), TextFormat::Plain);
    let shell = check_text("release", TextFormat::Code(KeywordFamily::Shell));
    shows_lines(&shell, &["7-14 {usage, build}()", "16-19 function publish", "21-25 main()"]);
}

/// A function's head ends at its signature: the body written on its line (`= x + 1`, `= ???`,
/// `{}`, `{ a; b }`) is left out, so a long one-line body no longer fills the line in place of
/// the signature, and an empty type body (`class Subscription {}`) is not shown.
#[test]
fn keyword_heads_end_before_a_body_on_their_line() {
    let general = TextFormat::Code(KeywordFamily::General);
    let scala = check_text("RateLimiter.scala", general);
    let kotlin = check_text("EventBus.kt", general);
    let shown = [
        (&scala, " 12 def allowed(key: String): Boolean"),
        (&scala, " 16 def recent(key: String): Vector[Long]"),
        (&scala, " 18-20 def reset(): Unit"),
        (&scala, " 22 def reportTo(sink: String): Unit"),
        (&scala, " 26 val DefaultLimit: Int = 100"),
        (&scala, " 28 def apply(clock: Clock): RateLimiter"),
        (&kotlin, "3 class Subscription"),
        (&kotlin, " 12 fun subscribe(listener: Listener): Subscription"),
        (&kotlin, " 14 fun clear()"),
        (&kotlin, " 16 fun count(): Int"),
        (&kotlin, " 18-20 fun publish(name: String)"),
    ];
    for (view, line) in shown {
        assert!(view.lines().any(|shown| shown == line), "no line `{line}`:\n{view}");
    }
}

/// A head whose parameters go on over the next lines is shown with all of them, in every
/// language read by keywords, as Dart's always was (`fun findCart(` alone said nothing of them,
/// `suspend fun save(cart: Cart` cut the list without a mark).
#[test]
fn keyword_heads_show_parameters_continued_on_next_lines() {
    let general = TextFormat::Code(KeywordFamily::General);
    let kotlin = check_text("CartRepository.kt", general);
    shows_lines(
        &kotlin,
        &[
            "7-39 class CartRepository(private val api: CartApi, private val cache: CartCache,)",
            " 57-62 fun findCart(id: CartId, includeDeleted: Boolean = false): Cart?",
            " 63-64 suspend fun save(cart: Cart, force: Boolean): Unit",
        ],
    );
    let php = check_text("OrderRepository.php", general);
    shows_lines(
        &php,
        &[
            " 86-91 public function findOrder(int $id, bool $includeDeleted = false): ?Order",
            " 92-93 public function save(Order $order, bool $force): void",
        ],
    );
    let swift = check_text("HeaderView.swift", general);
    shows_lines(&swift, &[" 37-42 func findHeader(id: Int, includeHidden: Bool = false) -> HeaderView?"]);
    let scala = check_text("HeaderStore.scala", general);
    shows_lines(
        &scala,
        &[
            " 4-7 def findHeader(id: Long, includeHidden: Boolean = false): Option[Header]",
            " 9-10 def save(header: Header, force: Boolean): Unit",
        ],
    );
}

/// Asserts that every one of `lines` starts a line of `view`.
fn shows_lines(view: &str, lines: &[&str]) {
    for line in lines {
        assert!(view.lines().any(|shown| shown.starts_with(line)), "no line starting `{line}`:\n{view}");
    }
}

/// A keyword where a name is due is the name (`sub init {`, `var type = …`), and the modifiers
/// and forms of real Kotlin, Swift and Perl are read: `lateinit`, `annotation class`, `fun
/// interface`, `weak var`, `required init?(`, a package with a version, a package whose last
/// part also ends an earlier one.
#[test]
fn keyword_outline_reads_kotlin_swift_and_perl_as_written() {
    let kotlin = check_text("ScreenHeader.kt", TextFormat::Code(KeywordFamily::General));
    shows_lines(
        &kotlin,
        &[
            "1 package com.example.screens.stack.screen",
            "7 annotation class HeaderType",
            "10-12 fun interface OnHeaderHeightChange",
            " 15 var type = Type.LEFT",
            " 16 internal lateinit var eventEmitter: HeaderEventEmitter",
            " 19 @Query(\"SELECT height FROM headers WHERE id = :id\") suspend fun storedHeight(id: Int): Int",
            " 21-23 fun <T : Event<T>> sendEvent(event: T)",
            "45 fun View.findHeader(): ScreenHeader?",
        ],
    );
    let swift = check_text("HeaderView.swift", TextFormat::Code(KeywordFamily::General));
    shows_lines(
        &swift,
        &[
            "3-5 protocol HeaderViewDelegate: AnyObject",
            " 8 weak var delegate: HeaderViewDelegate?",
            " 16-18 required init?(coder: NSCoder)",
            "25-29 extension HeaderView: UIGestureRecognizerDelegate",
        ],
    );
    let perl = check_text("Transfer.pm", TextFormat::Code(KeywordFamily::General));
    // Subs alike but for their names share a line, as everywhere.
    shows_lines(&perl, &["1 package Net::Transfer 3.14", "15-37 sub {new, init, type}"]);
}

/// A PHP property, a Perl constant and a Lua function assigned to a module's field are
/// definitions at the top level and among a type's members (a PHP anonymous class's too); in a
/// function's body they are locals.
#[test]
fn keyword_outline_lists_properties_constants_and_assigned_functions() {
    let php = check_text("OrderRepository.php", TextFormat::Code(KeywordFamily::General));
    shows_lines(
        &php,
        &[
            "10-14 enum OrderStatus: string",
            "16-24 trait LogsQueries",
            " 18 protected ?LoggerInterface $logger = null",
            "26-29 abstract class Repository",
            " 28 abstract protected function table(): string",
            "31-56 final class OrderRepository extends Repository",
            " 35 public const PAGE_SIZE = 50",
            " 37 private array $cache = []",
            " 38 private static $instances = 0",
            " 39 public readonly Connection $connection",
            "58-63 readonly class OrderView",
            // An anonymous class's members are a type's, its properties listed, inside a method.
            "  69-80 return new class($connection) implements \\IteratorAggregate",
            "   70 private int $batchSize = 500",
            "   76-79 public function getIterator(): \\Generator",
        ],
    );
    assert!(!php.contains("$rows"), "{php}");
    let lua = check_text("stringx.lua", TextFormat::Code(KeywordFamily::Lua));
    shows_lines(
        &lua,
        &[
            "9-11 local function assert_string(n, s)",
            "20-25 stringx.wrap = function(s, width, breaklong)",
            // The file's function bound to a local is its definition, as a `local function` is.
            "31-33 local escape = function(s)",
        ],
    );
    assert!(!lua.contains("local line ="), "{lua}");
    let perl = check_text("Transfer.pm", TextFormat::Code(KeywordFamily::General));
    shows_lines(&perl, &["8 use constant DEFAULT_PORT => 21", "9 use constant PASSIVE => 1"]);
    // A list's constants are each listed, and so named.
    for name in ["MODE_ASCII", "MODE_BINARY"] {
        assert!(perl.contains(name), "{name}:\n{perl}");
    }
}

/// A PHP enum's cases are listed on its line as a Rust enum's variants are (`enum Level: int {
/// Debug, Info, … }`), and a trait use as its statement, its adaptations on its line (QA: monolog's
/// `case Debug = 100;` and `use FormattableHandlerTrait { … }` were in neither view). A `case` of
/// a method's `switch` is no enum's, and a file's `use` is an import.
#[test]
fn keyword_outline_lists_php_enum_cases_and_trait_uses() {
    let php = check_text("Level.php", TextFormat::Code(KeywordFamily::General));
    shows_lines(
        &php,
        &[
            "10-47 enum Level: int { Debug, Info, Notice, Warning, Error, Critical, Alert, Emergency }",
            " 31-38 public static function fromName(string $name): self",
            "49-53 enum Channel { App, Security }",
            " 57 use ProcessableHandlerTrait",
            " 58-61 use FormattableHandlerTrait, LoggerAwareTrait { getFormatter as protected baseFormatter; \
             FormattableHandlerTrait::setFormatter insteadof LoggerAwareTrait; }",
            " 63-71 public function handle(LogRecord $record): bool",
            " 78 use ResettableTrait",
            " 80 protected int $bufferSize = 0",
        ],
    );
    assert!(!php.contains("LogLevel;") && !php.contains("Level::Debug"), "{php}");
}

/// Lua's functions held by tables are listed under the table they are members of: a table
/// constructor's (at the file's level or in a function, a metatable's too), a field's set in a
/// function (`r.format = function`), and a returned table's as the file's or the function's own;
/// callbacks passed to calls and functions bound to a function's locals are not, and the first
/// line says so.
#[test]
fn keyword_outline_lists_the_functions_lua_tables_hold() {
    let lua = check_text("recorder.lua", TextFormat::Code(KeywordFamily::Lua));
    assert!(lua.starts_with("[outline by keywords (no grammar for this language here): functions and the functions of tables (M.f = function, t = { f = function }); variables, callbacks passed to calls and a function body's local f = function not shown]\n"), "{lua}");
    shows_lines(
        &lua,
        &[
            "8-13 local formats",
            // Without the body on its line, a one-line function is shaped as its sibling is.
            " 9-12 {short, long} = function(call)",
            "15 local colors = { plain = function(s) return s end, bold = function(s)",
            "17-42 recorder.new = function(callback)",
            " 22-34 local r",
            "  26-29 clear = function(self)",
            "  31-33 called = function(self, times)",
            " 35-37 r.format = function(self, style)",
            "44-52 function recorder.on(target, key)",
            " 47-51 setmetatable(target[key], {…})",
            "  48-50 __call = function(self, ...)",
            "54-58 recorder.mt",
            " 55-57 __index = function(self, key)",
            "67-69 [\"is_recorder\"] = function(object)",
        ],
    );
    for hidden in ["local record", "calls = calls", "describe(", "it(", "util.each", "new = recorder.new"] {
        assert!(!lua.contains(hidden), "{hidden}:\n{lua}");
    }
}

/// A table given to a call (a class library's `class({ … })` or `class { … }`, `setmetatable(`
/// over the table on the next lines) holds its functions for the name the call's result is bound
/// to; one given to a call whose result is not kept (`setmetatable(shapes, {`, `return
/// setmetatable(shapes, {`) is named by the call. A field set by its key in brackets
/// (`shapes["unregister"] = function`) is a function too (QA: `M["quoted"]` was in neither view).
#[test]
fn keyword_outline_lists_the_functions_of_tables_given_to_calls() {
    let lua = check_text("shapes.lua", TextFormat::Code(KeywordFamily::Lua));
    let tables = "\n8-16 local Shape\n 9-11 _init = function(self, name)\n 13-15 describe = function(self)\n\
                  18-23 shapes.Circle\n 20-22 area = function(self)\n\
                  25-32 local registry\n 27-29 add = function(self, shape)\n\
                  34-38 setmetatable(shapes, {…})\n 35-37 __index = function(_, name)\n\
                  40-43 function shapes.register(shape)\n\
                  45-47 shapes[\"unregister\"] = function(name)\n\
                  49-53 setmetatable(shapes, {…})\n 50-52 __call = function(_, name, ...)\n";
    assert!(lua.ends_with(tables), "{lua}");
    // A function set on a table outside its constructor is named by its path, which search reads
    // its table from (`shapes.register` finds it, not only `register`).
    let source = std::fs::read_to_string(fixture_path("text/shapes.lua")).unwrap();
    let mut names = Vec::new();
    all_names(&lean_ctx_outline::keyword_outline(&source, KeywordFamily::Lua), &mut names);
    for name in ["shapes.register", "shapes.unregister", "_init", "area"] {
        assert!(names.iter().any(|found| found == name), "{name}: {names:?}");
    }
}

/// Functions alike but for their names share a line; those of one object or table write its path
/// once in signatures (`api.{get, put}`), and each its whole name in the map, where no signature
/// shows the path.
#[test]
fn a_run_of_one_objects_functions_writes_its_path_once() {
    let source = "var api = {};\napi.get = function (a) {};\napi.put = function (a) {};\nother.x = function (a) {};\n";
    let views = outline(Language::JavaScript, source);
    assert_eq!(
        render_signatures(&views),
        "1 var api = {}\n2-3 api.{get, put} = function (a)\n4 other.x = function (a)\n"
    );
    assert_eq!(render_map(&views), "1 var api\n2-3 fn {api.get, api.put}\n4 fn other.x\n");
}

/// A table whose first functions are written on the line that opens it (`local Queue =
/// setmetatable({ new = function(cls, capacity)`, the body on the lines below) lists them under
/// it with the rest: the line was read as that one function, its head joined with its body up to
/// the call's `)`, and the table's other functions were not listed. A run of one table's
/// functions alike but for their names is one line, the table's path written once (`function
/// Queue:{pop, size, is_empty}()`, not `function {Queue:pop, Queue:size, …}()`).
#[test]
fn keyword_outline_lists_the_functions_on_a_tables_first_line() {
    let lua = check_text("queue.lua", TextFormat::Code(KeywordFamily::Lua));
    let tables = "\n4-16 local Queue\n 4-7 new = function(cls, capacity)\n 9-15 push = function(self, value)\n\
                  19-25 local Stack\n 19 size = function(self)\n 19-21 push = function(self, value)\n 22-24 pop = function(self)\n\
                  27-40 function Queue:{pop, size, is_empty}()\n42-44 function Queue.is_queue(value)\n";
    assert!(lua.ends_with(tables), "{lua}");
}

/// Dart and Groovy declare functions by their return type (`void main()`, `Future<…> load(…)
/// async {`, a getter), which the outline lists, and constructors by their class's name (`const
/// Foo(…)`, `Foo.named(…)`, `factory Foo.fromJson(…)`); Groovy's `def x = …` is a variable, a
/// function's own a local. What it cannot list (a field declared by its type) its first line says.
#[test]
fn keyword_outline_lists_functions_declared_by_their_return_type() {
    let dart = check_text("settings_page.dart", TextFormat::Code(KeywordFamily::Typed));
    assert!(dart.starts_with("[outline by keywords (no grammar for this language here): definitions a keyword starts, functions declared by their return type and constructors; fields declared by their type (final String name;) not shown]\n"), "{dart}");
    shows_lines(
        &dart,
        &[
            "3 typedef OnSaved = void Function(Settings settings)",
            "5 const int maxRetries = 3",
            "7-9 void main()",
            "11-14 Future<Map<String, int>> loadCounts(String path) async",
            " 20 static const Duration debounce = Duration(milliseconds: 300)",
            " 23 State<SettingsPage> createState()",
            " 29 bool get isDirty",
            " 31-33 set dirty(bool value)",
            " 36-39 Widget build(BuildContext context)",
            " 41-44 Future<void> _save() async",
            " 48 String? validate(String value)",
            " 52 String get label",
            "55-66 class Settings",
            " 59 Settings(this.name, {this.retries = maxRetries})",
            " 61 Settings.defaults() : this('default')",
            " 63-65 factory Settings.fromJson(Map<String, dynamic> json)",
            // A body on the head's line, a mixin's member too, is left out.
            " 70 set position(int value)",
            " 71 void move(int dx)",
            " 72 Future<List<int>> pending() async",
            " 73 void reset()",
            // Parameters from the line after the name, one a line.
            "78-84 Future<void> saveSettings(SettingsStore store, Settings settings, { bool notify = true, }) async",
            " 89-96 Widget buildField(BuildContext context, String label,)",
            // Operators, named `operator+` (QA: `Point operator +(Point o) => …` was in neither view).
            " 103 Offset operator +(Offset other)",
            " 104 bool operator ==(Object other)",
            " 105-107 double operator [](int i)",
        ],
    );
    for body in ["=> _", "=> name", "{ offset", "{ return", "{}", "=> Offset", "=> other"] {
        assert!(!dart.contains(body), "{body}:\n{dart}");
    }
    // Members of a body on the type's line.
    assert!(dart.contains("\n76 abstract class SettingsStore\n 76 Future<Settings> read()\n 76 Future<void> write(Settings settings)\n"), "{dart}");
    assert!(!dart.contains("final int retries"), "{dart}");
    assert!(!dart.contains("print(") && !dart.contains("return Scaffold"), "{dart}");
    let gradle = check_text("build.gradle", TextFormat::Code(KeywordFamily::Typed));
    shows_lines(
        &gradle,
        &[
            "5-7 def safeExtGet(prop, fallback)",
            "13 def reactNativeVersion = safeExtGet('reactNativeVersion', '0.76.0')",
            "26-29 String resolveNodeModule(String name)",
            "31-34 task copyNativeLibs(type: Copy)",
            "41 task cleanLibs(type: Delete)",
        ],
    );
    assert!(!gradle.contains("def dir") && !gradle.contains("project("), "{gradle}");
}

/// A Groovy method whose `{` opens on the next line is listed as one with it on its own line, as
/// is one whose body is on its head's line, and its body's `def` is its local, not the class's.
#[test]
fn keyword_outline_reads_groovy_braces_on_their_own_line() {
    let groovy = check_text("ReleaseNotes.groovy", TextFormat::Code(KeywordFamily::Typed));
    shows_lines(
        &groovy,
        &[
            "8-34 class ReleaseNotes implements Serializable",
            " 13-17 ReleaseNotes(def script, String version)",
            " 19-23 List<String> changes(String since)",
            " 25-28 void publish(String channel)",
            " 30-33 static Map parse(String json)",
            "36-40 def call(Map config)",
            // A body on the head's line is left out.
            " 44 String label(String prefix)",
            " 45 static Channel of(String name)",
            " 46 private List<String> members()",
            " 47 Map<String, Integer> counts()",
            " 48 void close()",
            "51 void main(String[] args)",
        ],
    );
    for body in ["{ \"", "{ new", "{ [", "{}", "{ println"] {
        assert!(!groovy.contains(body), "{body}:\n{groovy}");
    }
    assert!(!groovy.contains("def log") && !groovy.contains("def notes"), "{groovy}");
}

#[test]
fn a_text_file_without_headings_shows_its_head_and_says_so() {
    let view = check_text("NOTICE.txt", TextFormat::Plain);
    assert!(view.starts_with("[no headings: lines 1-40 of 60 shown]\nLine 1 of"), "{view}");
    assert_eq!(view.lines().count(), 41);
}

#[test]
fn javascript_public_class_fields() {
    let views = check(
        "javascript/widget.js",
        Language::JavaScript,
        &["CounterWidget", "observedAttributes", "defaults", "count", "step", "render"],
    );
    views.hides(&["#shadow", "#clicks"]);
    views.signature_lines_contain(&[
        // Its `#private` fields are counted, not listed.
        "4-29 export class CounterWidget extends HTMLElement { static observedAttributes; static defaults; count; step; \
         +2 private }",
    ]);
}

#[test]
fn cpp_long_template_heads_keep_the_name() {
    let views = check("cpp/shapes.cpp", Language::Cpp, &["merge_maps"]);
    views.signature_lines_contain(&[
        "template <…> std::unordered_map<Key, Value, Hash, KeyEqual, Allocator> merge_maps(const std::unordered_map<",
    ]);
}

/// A run of overloads, or a list of call signatures, shows the shortest that is not a guard
/// returning `never`: true-myth's `Maybe.of` showed `static of<F>(value: F): never (+5 more)`,
/// its constraint elided, as if every call failed. File-level `let` and `var` are listed.
#[test]
fn overload_guards_returning_never_are_not_shown() {
    let views = check("typescript/guards.ts", Language::TypeScript, &["NOTHING", "created", "Maybe", "of", "just"]);
    views.signature_lines_contain(&[
        "2 let NOTHING: Nothing<any> | undefined",
        "3 var created = 0",
        // The shortest as written (not `of<F…>(value: F)`, shorter only once its bound is elided).
        " 7-15 static of(value: unknown): Maybe<{}> (+4 more)",
        "20-23 export const just: <T…>(value: T): Maybe<T> (+1 more)",
    ]);
    assert!(!views.signatures.contains("never"), "{}", views.signatures);
}

#[test]
fn overloads_share_one_line_and_accessor_pairs_do_not() {
    let views = check("typescript/overloads.ts", Language::TypeScript, &["from", "timer", "Cache", "get", "size"]);
    // Three `from` overloads are one line with the shortest, spanning the implementation too.
    views.signature_lines_contain(&["5-13 export function from<T>(input: ArrayLike<T>): Observable<T> (+2 more)"]);
    assert!(views.map.contains("5-13 fn from ×3"), "{}", views.map);
    // Two signatures are below the group size: `timer` and the getter/setter pair stay as written.
    assert_eq!(views.signatures.matches("timer(").count(), 2, "{}", views.signatures);
    assert_eq!(views.signatures.matches(" size(").count(), 2, "{}", views.signatures);
    // A signature written over several lines reads as one, without a space inside its brackets.
    assert!(!views.signatures.contains("( ") && !views.signatures.contains(", )"), "{}", views.signatures);

    let python =
        check("python/typed.py", Language::Python, &["parse", "Window", "__init__", "width", "resize", "read_items"]);
    // A Python overload run is its `@overload` signatures, as TypeScript's is: the untyped
    // implementation after them was shown as the run's shortest and counted as one more. Two
    // keep a line each; three share one, the implementation's lines ending it.
    python.signature_lines_contain(&[
        "7-8 @overload def parse(value: str) -> int",
        "9-14 @overload def parse(value: bytes, *, encoding: str = \"utf-8\") -> int",
        " 64-72 @overload def get(self, key: int) -> str (+2 more)",
        " 74-75 def only(self, key)",
        "def __init__(self, width: int, height: int, *, title: str | None = None) -> None",
        // A long head drops `Annotated`'s metadata before it empties nested types.
        "def read_items(skip: int = 0, limit: Optional[…] = None, tags: list[…] = [], user: User = None) -> list[Item]",
        // An unpacking and a chain bind every name they list (a private name is shown in its
        // declaration but listed as no field).
        "MIN_WIDTH, MAX_WIDTH = 80, 3840",
        "DEFAULT_WIDTH = DEFAULT_HEIGHT = 1024",
        "class Viewport { origin_x = origin_y; width, height; _cache, cached }",
    ]);
    // A class's private attributes are counted on its line, never listed.
    python.signature_lines_contain(&["78-88 class Settings { path: str; +2 private }"]);
    python.hides(&["_loaded", "_lock"]);
    // A constant of several names is one definition named by all of them (as Go's `var A, B`); a
    // field declaration is one definition per field.
    // A module's lower-case names are its variables, API all the same.
    for name in ["MAX_WIDTH", "DEFAULT_HEIGHT", "ALIGN_RIGHT", "first_width", "origin_y", "height", "cached"] {
        let named = |n: &String| n.split(", ").any(|part| part == name);
        assert!(python.names.iter().any(named), "`{name}` not outlined: {:?}", python.names);
    }
    python.signature_lines_contain(&["54 first_width, *other_widths = (MIN_WIDTH, MAX_WIDTH)"]);
    assert!(!python.signatures.contains("def parse(value, *"), "{}", python.signatures);
    assert!(!python.signatures.contains("def get(self, key)"), "{}", python.signatures);
    assert!(python.map.contains("7-8 fn parse\n9-14 fn parse\n") && python.map.contains(" 64-72 get ×3\n"));
    assert!(!python.names.iter().any(|n| n.contains("_cache")), "_cache: a private name is no field");
}

/// A module's public assignments are its API (`fields.Str`, `marshmallow.missing`), whatever
/// their case: aliases, singletons, type aliases, a logger, a dunder (`__version__`); `__all__`
/// with its names.
#[test]
fn python_module_variables() {
    let views = check(
        "python/module_api.py",
        Language::Python,
        &[
            "__all__",
            "__version__",
            "logger",
            "StrSequenceOrSet",
            "Validator",
            "missing",
            "Str",
            "Bool",
            "Int",
            "json_module",
        ],
    );
    // Private names, a loop's variable, a function's locals and what a script's `__main__` block
    // assigns are not the module's API.
    views.hides(&["_registry", "last_seen", "cached", "parsed_args", "DEBUG_RUN"]);
    views.signature_lines_contain(&[
        "23-35 missing = _Missing(); Str = String; Bool = Boolean; Int = Integer; json_module = None",
        // `__all__` is the module's list of exports: its names are the outline.
        "7 __all__ = [\"missing\", \"Str\", \"Bool\", \"Int\", \"StrSequenceOrSet\"]",
        "8 __all__ += [\"get_class\"]",
    ]);
}

/// A package's `__init__.py` with a long `__all__`: the line is cut between two names and says
/// how many it leaves out, never in the middle of a name or with the rest unsaid.
#[test]
fn python_long_export_list_counts_what_it_cuts() {
    let views = check("python/package_init.py", Language::Python, &["__all__", "__go"]);
    for view in [&views.signatures, &views.map] {
        let line = view.lines().find(|line| line.contains("__all__")).expect("__all__ listed");
        let shown = line.matches("\", \"").count() + 1;
        assert!(line.ends_with(&format!(", +{} more]", 117 - shown)), "{line}");
        assert!(line.contains("\"Column\", \"ColumnDefault\""), "{line}");
    }
}

#[test]
fn re_exports_share_a_line_where_it_keeps_their_modules() {
    let views = check("typescript/operators.ts", Language::TypeScript, &["*", "{ config }"]);
    for view in [&views.signatures, &views.map] {
        assert!(
            view.contains(
                "2-3 export { <name> } from './internal/operators/<name>' for audit, auditTime\n\
                 4 export { buffer, BufferConfig } from './internal/operators/buffer'\n\
                 5 export { bufferCount } from './internal/operators/bufferCount'\n"
            ),
            "{view}"
        );
        // Re-exports of one module keep its path.
        assert!(
            view.contains("8-9 export { merge, mergeAll, MergeAllConfig } from './internal/observable/merge'"),
            "{view}"
        );
        assert!(view.contains("11 export * from './internal/types'"), "{view}");
    }
}

/// A library's large types: every member named at a fraction of the tokens of their types.
#[test]
fn typescript_heads_written_over_lines_read_as_one() {
    let views = check(
        "typescript/queries.ts",
        Language::TypeScript,
        &[
            "QueryObserverResult",
            "QueryState",
            "group",
            "groupQueries",
            "setQueryData",
            "DeepKeys",
            "QueryObserver",
            "getOptimisticResult",
            "build",
        ],
    );
    views.signature_lines_contain(&[
        // A type parameter per line reads as a list written on one line.
        "export type QueryObserverResult<TData…, TError…> =",
        // A long head empties what its types nest; a pair that holds nothing stays as written.
        "20-25 export function group<TData, TError>(rows: Array<…>, keys: Key[]): Map<string, QueryState<…>[]>",
        // Still long: the parameters are named without their types; the return type stays.
        "31-39 export function groupQueries<TQueryFnData, TError>(queries…, keys…, hash…, onGroup?…): Map<",
        // So are those of a function type that is a constant's signature.
        "42-45 export const setQueryData: (client…, queryKey…, updater…, options?…): void (+1 more)",
        // A long list of type arguments is its first, like a list of type parameters.
        "64-66 build(client: QueryClient): Query<TQueryFnData, …>",
        // An alias whose value is still long without what its brackets hold shows no value.
        "48-52 export type DeepKeys<T, TDepth…> = …",
        // A long list of type parameters is its first; two stay.
        "54-67 export class QueryObserver<TQueryFnData, …> extends Subscribable<…>",
        "getOptimisticResult<TResult…, TKey>(key: TKey)",
    ]);
}

#[test]
fn typescript_members_declared_in_a_base_type_literal_are_listed() {
    let views = check(
        "typescript/errors.ts",
        Language::TypeScript,
        &[
            "RequestError",
            "request",
            "reason",
            "cause",
            "description",
            "WatchBackend",
            "register",
            "close",
            "new",
            // After a template literal type with escaped backticks, which the grammar cannot read.
            "Variants",
            "members",
            "variants",
        ],
    );
    views.signature_lines_contain(&[
        // The literal reads `{…}` in the head; its members are the type's, listed like its fields.
        "export class RequestError extends TypeIdError(TypeId, \"RequestError\")<{…}> { request, reason, cause?, \
         description? }",
        "export class QuitException extends TypeIdError(TypeId, \"QuitException\")<{}>",
        "<WatchBackend, {…}>() { register, close }",
        // Not the literal inside a member's own type.
        "export class Counter extends Component<{…}, {…}> { readonly initial: number; label?: string; open: boolean; count }",
        // Not a literal in a call's arguments or in what a class implements, nor one with a call
        // signature (which `{…}` would hide).
        "export class Registry extends Mixin(Base, make<{ hidden: boolean }>()) implements Resolve<{ user: User }>",
        "export interface Formatter extends Base<{ (value: number): string; readonly tag: \"format\" }>",
        "new(_: never): {}",
        // A mapped type names no members: it stays as written.
        "export interface Variants<Members> extends Union<{ readonly [K in keyof Members]: Members[K] }> { readonly \
         members: Members }",
    ]);
    views.complete();
    let not_members = ["path", "onEvent", "hidden", "user", "id", "tag"];
    assert!(!views.names.iter().any(|name| not_members.contains(&name.as_str())), "{:?}", views.names);
}

#[test]
fn typescript_large_types_keep_every_name_and_shed_their_detail() {
    let views = check(
        "typescript/features.ts",
        Language::TypeScript,
        &[
            "PaginationDefaults",
            "PageRange",
            "manualPagination",
            "getPaginationRowModel",
            "PaginationInstance",
            "getPageCount",
            "PaginationError",
            "clampPage",
            "Pagination",
            "getInitialState",
            "createTable",
            "getDefaultOptions",
        ],
    );
    views.signature_lines_contain(&[
        // A type of fields and nothing else has them on its line, with their types when they are short.
        "5-8 export interface PaginationState { pageIndex: number; pageSize: number }",
        // Longer ones (over 100 characters with their types) are the members' names, optional ones
        // marked.
        "17-28 export interface PaginationOptions { manualPagination?, onPaginationChange?, autoResetPageIndex?, \
         pageCount?, rowCount?, getPaginationRowModel? }",
        "43-49 export class PaginationError extends Error { readonly pageIndex: number }",
        // A long alias keeps its name and parameters; its value loses what its brackets hold.
        "15 export type PageRange<TData…, TIndex…> = Partial<…> & {…}",
        // A long list of parents is named by its keyword; a short one stays.
        // Type parameters without their bounds and defaults.
        "30-41 export interface PaginationInstance<TData…> extends … { setPageIndex,",
        "43-49 export class PaginationError extends Error",
        // The members a type literal in a type's head declares are listed as its members.
        "64-68 export interface PageChange extends PaginationEvent<'pagechange', {…}> { readonly previousIndex: \
         number; readonly nextIndex: number; readonly table: Table<unknown> }",
        // A function value declared with overloaded call signatures shows the shortest.
        "54-59 export const clampPage: (pageIndex: number, pageCount: number): number (+1 more)",
        // Members written one a line are separated on the head's one line.
        "71-74 export type PagePosition = { pageIndex: number; isLast: boolean }",
        "76-79 export const pageOf = (at: { row: number; size: number }): number",
        // An object of methods (a table feature's hooks) names them on its line; its data is
        // not listed.
        "82-96 export const Pagination: TableFeature { getInitialState, createTable, getDefaultOptions }",
    ]);
    views.hides(&["defaults"]);
}

/// A parenthesis in a comment is not a parenthesis of the head: the ones a head leaves out are
/// those wrapping a value around its body (`var f = (function f(a) {…})`), read from the tree.
#[test]
fn a_commented_parenthesis_leaves_the_head_whole() {
    let rust = "pub fn pairs<I>(i: I) -> u8\nwhere\n    I: Iterator<Item = (u8, u8)>, // see (notes\n{\n    0\n}\n\
                pub struct Wrapper<T = (u8, u8)> // wraps (things\n{\n    pub inner: T,\n}\n";
    let text = render_signatures(&outline(Language::Rust, rust));
    assert!(text.contains("where I: Iterator<Item = (u8, u8)>"), "{text}");
    assert!(text.contains("pub struct Wrapper<T = (u8, u8)>"), "{text}");
    let python = "class Foo(Base,  # (see\n          metaclass=(Meta)):\n    pass\n";
    let text = render_signatures(&outline(Language::Python, python));
    assert!(text.contains("metaclass=(Meta))"), "{text}");
    let javascript = "exports.f = (function f(a) {\n  return a;\n});\nvar g = /* c */ ((function g(b) {\n}));\n";
    let text = render_signatures(&outline(Language::JavaScript, javascript));
    assert!(text.contains("exports.f = function f(a)") && text.contains("var g = function g(b)"), "{text}");
}

/// A type parameter list with a comment on each parameter reads as one line without the
/// comments, and a long union's members are emptied whole, not shown up to a cut.
#[test]
fn commented_type_parameters_and_long_alias_values_read_cleanly() {
    let source = "export type DeepValue<\n  // The object we're reading from\n  TValue,\n  // The path we're following\n  \
                  TAccessor,\n  TNullable extends boolean = IsNullable<TValue>,\n> = unknown extends TValue\n  ? TValue\n  : \
                  TValue extends ReadonlyArray<any>\n    ? DeepValue<TValue[number], TAccessor, TNullable>\n    : \
                  TValue[TAccessor & keyof TValue]\n\nexport type Event =\n  | { type: \"action\"; name: string; object: \
                  unknown; arguments: unknown[] }\n  | { type: \"scheduled-reaction\"; name: string }\n  | { type: \
                  \"reaction\"; name: string }\n  | { type: \"error\"; name: string; message: string; error: string }\n  \
                  | { type: \"report-end\"; spyReportEnd: true; time?: number }\n";
    let text = render_signatures(&outline(Language::TypeScript, source));
    assert_eq!(
        text,
        "1-11 export type DeepValue<TValue, …> = …\n13-18 export type Event = {…} | {…} | {…} | {…} | {…}\n"
    );
}

/// A decorator with a comment among its arguments is shortened as one decorator.
#[test]
fn a_decorator_with_a_comment_inside_is_shortened_whole() {
    let body: String = (0..40).map(|i| format!("    value_{i} = {i} * 2\n")).collect();
    let source = format!(
        "@pytest.mark.parametrize(\n    \"name,expected\",\n    (\n        (\"a\", 1),\n        # an edge case\n        \
         (\"b\", 2),\n        (\"c\", 3),\n    ),\n)\ndef test_values(name, expected):\n{body}"
    );
    let text = render_signatures(&outline(Language::Python, &source));
    assert_eq!(text, "1-50 @pytest.mark.parametrize(…) def test_values(name, expected)\n");
}

/// A variable whose value is a call keeps its arguments as written, or leaves them out; they are
/// not read as parameters named by their first words (`testingKey(\` -----BEGIN)`).
#[test]
fn a_call_in_a_value_is_not_read_as_parameters() {
    let source = "package x\n\nvar key = testingKey(`\n-----BEGIN TESTING KEY-----\nMC4CAQAwBQYDK2VwBCIEINifzf07d9qx3d44\
                  e0FSbV4mC/xQxT644RRbpgNpin7I\n-----END TESTING KEY-----`)\n\nfunc testingKey(s string) string { return \
                  s }\n";
    let text = render_signatures(&outline(Language::Go, source));
    assert!(!text.contains("testingKey(` -----BEGIN)"), "{text}");
    // A string over several lines is cut where its first line ends.
    assert!(text.contains("3-6 var key = testingKey(`…`)\n"), "{text}");
    assert!(text.contains("func testingKey(s string) string"), "{text}");
}

/// Ruby's last visibility call for a name decides, as at run time.
#[test]
fn ruby_the_last_visibility_given_by_name_holds() {
    let source = "class Session\n  def token\n    @token\n  end\n  private :token\n  public :token\n\n  def secret\n  end\n  public :secret\n  private :secret\nend\n";
    let text = render_signatures(&outline(Language::Ruby, source));
    assert!(text.contains(" 2-4 def token") && text.contains("private def secret"), "{text}");
}

/// A string or pattern in a head keeps its spaces as written in every language: collapsed, `"a  b"`
/// would read as another value and `/a  b/` as another pattern.
#[test]
fn literals_in_heads_keep_their_spaces() {
    let cases = [
        (Language::Python, "SEPARATOR = \"a  b\"\nPATTERN = re.compile(r\"x  y\")\n", ["\"a  b\"", "r\"x  y\""]),
        // A string over several lines is cut where its first line ends, and closed.
        (Language::Python, "def f(x=\"a   b\", y='''multi\n  line'''):\n    pass\n", ["\"a   b\"", "y='''multi…''')"]),
        (
            Language::TypeScript,
            "export const SEPARATOR = 'a  b';\nexport const PATTERN = /x  y/;\n",
            ["'a  b'", "/x  y/"],
        ),
        (Language::Go, "package p\n\nconst Separator = \"a  b\"\n\nvar Tab = `x  y`\n", ["\"a  b\"", "`x  y`"]),
        (
            Language::Rust,
            "pub const SEPARATOR: &str = \"a  b\";\npub const TAB: char = '\\t';\n",
            ["\"a  b\"", "'\\t'"],
        ),
    ];
    for (language, source, kept) in cases {
        let text = render_signatures(&outline(language, source));
        for literal in kept {
            assert!(text.contains(literal), "{language:?}: {literal} not as written in\n{text}");
        }
    }
}

/// Re-exports written one name a line join into one clause without doubled or trailing commas.
#[test]
fn re_exports_one_name_a_line_join_cleanly() {
    let source = "export {\n  DeferredData as UNSAFE_DeferredData,\n  decodePath as UNSAFE_decodePath,\n} from \"./utils\";\n\n\
                  export {\n  invariant as UNSAFE_invariant,\n  warning as UNSAFE_warning,\n} from \"./utils\";\n";
    let text = render_signatures(&outline(Language::TypeScript, source));
    assert_eq!(
        text,
        "1-9 export { DeferredData as UNSAFE_DeferredData, decodePath as UNSAFE_decodePath, invariant as \
         UNSAFE_invariant, warning as UNSAFE_warning } from \"./utils\"\n"
    );
}

/// A class whose heritage is a long expression keeps all of it, emptied, rather than its first
/// 200 characters.
#[test]
fn a_long_class_heritage_is_emptied_not_cut() {
    let source = "export class Lowercase extends transform(\n  String$.annotations({ description: \"a string that will be \
                  converted to lowercase\" }),\n  Lowercased,\n  { strict: true, decode: (s) => s.toLowerCase(), encode: \
                  identity }\n).annotations({ identifier: \"Lowercase\", description: \"a lowercase string\" }) {}\n";
    let text = render_signatures(&outline(Language::TypeScript, source));
    assert_eq!(
        text,
        "1-5 export class Lowercase extends transform(String$.annotations(…), Lowercased, {…}).annotations({…})\n"
    );
    // Still too long once emptied: what is cut is the emptied head.
    let names: Vec<String> = (0..12).map(|i| format!("'option_name_{i}'")).collect();
    let source = format!(
        "export interface RootOptions extends Omit<RouteOptions<TRegister, {{}}, RootRouteId>, {}>, Extensions {{}}\n",
        names.join(" | ")
    );
    let text = render_signatures(&outline(Language::TypeScript, &source));
    assert!(
        text.starts_with("1 export interface RootOptions extends Omit<RouteOptions<…>, 'option_name_0' |"),
        "{text}"
    );
}

/// bitflags' `pub struct Flags: u32 { const A = …; }` is not Rust: read from the macro call's
/// tokens, the type is listed with its flags, and the view is not flagged incomplete for it. So
/// is an enum with a head of the macro's own, an opaque type declared by name alone, a function
/// after the macro's arguments, and a trait with the macro's markers in its body.
#[test]
fn rust_items_in_a_macros_own_syntax() {
    let views = check(
        "rust/macro_syntax.rs",
        Language::Rust,
        &[
            "OpenFlags",
            "READ",
            "WRITE",
            "READ_WRITE",
            "DIRECT",
            "WatchMask",
            "ACCESS",
            "MODIFY",
            "SpliceFlags",
            "SPLICE_F_MOVE",
            "SPLICE_F_MORE",
            "HourBase",
            "SignBehavior",
            "refill_wide",
            "GraphBase",
            "writable",
            "open",
            "DIR",
            "FILE",
        ],
    );
    views.hides(&["_", "Twelve", "EPERM"]);
    views.complete();
    views.signature_lines_contain(&[
        "9-22 #[repr(transparent)] #[derive(…)] pub struct OpenFlags: u32 { const READ; const WRITE; const READ_WRITE; const DIRECT }",
        "25-29 #[derive(…)] pub(crate) struct WatchMask: libc::c_uint { const ACCESS; const MODIFY }",
        "34-39 pub struct SpliceFlags: c_uint { SPLICE_F_MOVE, SPLICE_F_NONBLOCK, SPLICE_F_MORE }",
    ]);
    assert!(views.map.contains("9-22 struct OpenFlags { READ, WRITE, READ_WRITE, DIRECT }\n"), "{}", views.map);
}

/// An enum's variants are its fields, on its line; a long one (a table of codes) names its first
/// 32 and counts the rest, each still a definition symbol search finds.
#[test]
fn long_enums_name_their_first_variants_and_count_the_rest() {
    let variants: Vec<String> = (0..40).map(|i| format!("    E{i},\n")).collect();
    let source = format!("pub enum Errno {{\n{}}}\n", variants.concat());
    let outline = outline(Language::Rust, &source);
    let mut names = Vec::new();
    all_names(&outline.items, &mut names);
    assert_eq!(names.len(), 41, "{names:?}");
    let shown: Vec<String> = (0..32).map(|i| format!("E{i}")).collect();
    let line = format!("1-42 pub enum Errno {{ {}, +8 more }}\n", shown.join(", "));
    assert_eq!(render_signatures(&outline), line);
    assert_eq!(render_map(&outline), line.replace("pub enum", "enum"));
}

/// A name bound to a returned class whose head is cut for length keeps its `=` after the name.
#[test]
fn a_long_value_head_keeps_its_equals_sign_after_the_name() {
    let base = "Namespace".repeat(25);
    let source =
        format!("var Big = (function () {{\n  class Big2 extends {base} {{ run() {{}} }}\n  return Big2;\n}})();\n");
    let text = render_signatures(&outline(Language::JavaScript, &source));
    // The base's name is cut whole: its first letters would read as another name.
    assert!(text.starts_with("1-4 var Big = class Big2 extends …\n"), "{text}");
}

/// Review findings on the fields and sections: each case as a user would meet it.
#[test]
fn enum_members_fields_and_sections_read_as_written() {
    // A string-named enum member without a value is a member too.
    let ts = render_map(&outline(Language::TypeScript, "enum S { 'x-y', \"z\", w }\n"));
    assert_eq!(ts, "1 enum S { 'x-y', \"z\", w }\n");
    // A name in an error node is no field.
    let broken = "class Q {\n  method() { return this.x }\n  get =\n}\nobj.prop qux.zap\nfunction f( { return x.y }\n";
    let map = render_map(&outline(Language::JavaScript, broken));
    assert!(map.contains(" field get\n") && !map.contains("function"), "{map}");
    // A class attribute assigned in both branches is named once.
    let python = "class B:\n    if X:\n        flag = 1\n    else:\n        flag = 2\n";
    assert_eq!(render_map(&outline(Language::Python, python)), "1-5 class B { flag }\n");
    // A method a call wraps after a bare `private` is private; a private attribute is counted, not
    // listed.
    let ruby = "class W\n  attr_reader :id\n  private attr_reader :secret\n\n  private\n\n  attr_reader :hidden\n\n  \
                memoize def memo\n    1\n  end\nend\n";
    let signatures = render_signatures(&outline(Language::Ruby, ruby));
    assert_eq!(signatures, "1-12 class W { attr_reader :id; +2 private }\n 9-11 private memoize def memo\n");
}

/// A variant declared once per `cfg` counts once toward the cap and in what is left out.
#[test]
fn a_long_enum_counts_its_variants_by_name() {
    let mut variants: Vec<String> = (0..40).map(|i| format!("    E{i},\n")).collect();
    variants.insert(1, "    #[cfg(unix)]\n    E0,\n".to_string());
    let source = format!("pub enum Errno {{\n{}}}\n", variants.concat());
    let map = render_map(&outline(Language::Rust, &source));
    let shown: Vec<String> = (0..32).map(|i| format!("E{i}")).collect();
    assert!(map.contains(&format!("{{ {}, +8 more }}", shown.join(", "))), "{map}");
}

/// tsc's declarations of types from modules a file does not import (`import('./HKT').Kind<'Option',
/// A>`), without semicolons: every declaration after the first such type stays exported and
/// whole, and nothing is left unparsed. A declaration not exported shows no `export`.
#[test]
fn typescript_import_types_with_type_arguments() {
    let views =
        check("typescript/option.d.ts", Language::TypeScript, &["guard", "Alternative", "flap", "apFirst", "elem"]);
    assert!(!views.signatures.starts_with("[outline incomplete"), "{}", views.signatures);
    views.signature_lines_contain(&[
        "12 export declare const guard: (b: boolean) => import('./HKT').Kind<'Option', void>",
        "17 export declare const Alternative: Alternative1<URI>",
        "38 declare const internalOnly: import('./HKT').URItoKind<string>",
    ]);
}

/// An import too long for a signature line keeps its module on the map's `imports` line: the
/// module comes last in TypeScript, and a Rust group's members are the modules listed.
#[test]
fn long_imports_keep_their_modules() {
    let names = (0..60).map(|i| format!("name{i}")).collect::<Vec<_>>().join(", ");
    let typescript = format!("import {{ {names} }} from './x';\nexport const a = 1;\n");
    let map = render_map(&outline(Language::TypeScript, &typescript));
    assert!(map.starts_with("imports 1: ./x\n"), "{map}");
    let rust = format!("use y::{{{names}}};\npub fn f() {{}}\n");
    let map = render_map(&outline(Language::Rust, &rust));
    assert!(map.starts_with(&format!("imports 1: y::{{{names}}}\n")), "{map}");
}

/// A parameter whose default is dropped from a long head leaves no space behind it.
#[test]
fn typescript_parameters_lose_their_defaults_whole() {
    check("typescript/registry.ts", Language::TypeScript, &["Registry", "_addSchema", "compile"])
        .signature_lines_contain(&[
            " 7-15 _addSchema(schema…, meta?…, baseId?…, validateSchema…, addSchema…): SchemaEnv",
        ]);
}

/// A Python enum (an enum base, or members given `auto()` under a base from another module) is
/// listed as other languages' enums are: past 32 members the rest are counted, each still a
/// definition symbol search finds.
#[test]
fn python_enums_count_their_members_past_the_cap() {
    let views = check("python/enums.py", Language::Python, &["Dialects", "TokenType", "Opcode", "Settings"]);
    assert!(views.names.iter().any(|name| name == "ARROW"), "{:?}", views.names);
    assert!(!views.signatures.contains("ARROW"), "{}", views.signatures);
    views.signature_lines_contain(&[
        "17-56 class TokenType(AutoName) { L_PAREN, R_PAREN,",
        ", PIPE_SLASH, +4 more }",
        "59-61 class Opcode(enum.IntFlag) { READ, WRITE }",
    ]);
    for line in ["9-14 enum Dialects", "17-56 enum TokenType", "59-61 enum Opcode", "64-68 class Settings"] {
        assert!(views.map.lines().any(|l| l.starts_with(line)), "no `{line}` in\n{}", views.map);
    }
}

/// A flag a macro declares without a type keeps its name (the grammar took `Self` of its value
/// for it), and a line joining a run does not span what the outline does not describe: the
/// lines of another macro call it could not read, or macro calls that declare nothing it sees.
#[test]
fn rust_runs_stop_at_macro_calls_and_unparsed_lines() {
    let views = check(
        "rust/generated.rs",
        Language::Rust,
        &["AB", "encode_repeated", "varint", "fixed_width", "length_delimited", "MIN_TAG"],
    );
    assert!(!views.names.iter().any(|name| name == "Self"), "{:?}", views.names);
    views.signature_lines_contain(&[
        "10 const AB = Self::A.bits() | Self::B.bits()",
        "18 const AB = Self::A.bits() | Self::B.bits()",
        "22-38 macro_rules! {encode_repeated, varint}",
        "42-48 macro_rules! fixed_width",
        "51-55 macro_rules! length_delimited",
        "57-58 pub const MIN_TAG: u32 = 1; MAX_TAG: u32 = (1 << 29) - 1",
    ]);
}

/// Python's re-exports (`from .core import Command as Command`, the form type checkers read as
/// one) are listed, a line per module, like TypeScript's `export { … } from`; a plain import
/// is an import, and a dunder assignment (`__version__`) is the module's API.
#[test]
fn python_re_exports_share_a_line_per_module() {
    let views = check(
        "python/reexports.py",
        Language::Python,
        &["Command", "group", "get_current_context", "json", "CompletionItem", "__version__"],
    );
    views.signature_lines_contain(&[
        "7-9 from .core import Argument, Command, Context",
        // A statement that also imports a name for itself is written out: the run's line would
        // name the re-exports alone and lose `pass_context`.
        "10 from .decorators import command as command",
        "11-15 from .decorators import (group as group, option as option, pass_context)",
        "16 from .globals import get_current_context as get_current_context",
        "17-18 from .utils import echo, open_file",
        "25 __version__ = \"8.1.7\"",
    ]);
    views.hides(&["pass_context", "_default_text_stdout", "_private_version", "CliRunner"]);
    assert!(views.map.starts_with("imports 5-19: typing; ._compat\n"), "{}", views.map);
    // A statement too long for a signature names every name all the same, alone, in a run, and
    // beside a name it imports for itself; each is a definition of its own name.
    let names = |stem: &str, count: usize| (0..count).map(|i| format!("{stem}{i}")).collect::<Vec<_>>().join(", ");
    for view in [&views.signatures, &views.map] {
        for line in [
            format!("36 from .names import {}", names("Name", 30)),
            format!("37-38 from .types import {}, LastType", names("Type", 30)),
            format!("39 from .mixed import {}, mixed_helper", names("Mixed", 20)),
        ] {
            assert!(view.lines().any(|l| l == line), "no line `{line}` in\n{view}");
        }
    }
    for name in ["Name29", "Type29", "Mixed19"] {
        assert!(views.names.iter().any(|n| n == name), "`{name}` not a definition: {:?}", views.names);
    }
}

/// A type parameter whose bound or default a signature drops reads `K…`, never as if it had none;
/// and a run shares a line only when its heads are alike as written: zod's `type {Omit,
/// OmitKeys}<T, K> = …` hid that one bounds `K` by `keyof T`, the other by `string`.
#[test]
fn typescript_heads_say_what_their_type_parameters_lost() {
    let views = check("typescript/heads.ts", Language::TypeScript, &["Omit", "OmitKeys", "First", "Head"]);
    views.signature_lines_contain(&[
        "4 export type Omit<T, K…> = Pick<T, Exclude<keyof T, K>>",
        "5 export type OmitKeys<T, K…> = Pick<T, Exclude<keyof T, K>>",
        "8-9 export type {First, Head}<T> = T[0]",
        "11 export type Optional<T, D…> = T | D",
        "13 export const arrayToEnum: <T…, U…>(items: U) =>",
    ]);
    assert!(views.map.contains("4 type Omit\n5 type OmitKeys\n"), "{}", views.map);
}

/// A run of overloads is shown and counted by its signatures: the implementation after them
/// (`function pick(a: any, b?: any): any {…}`) cannot be called as written, so it is neither a
/// signature shown nor one more overload; its lines end the run's. Two overloads keep a line
/// each, as two same-named functions do.
#[test]
fn typescript_overloads_are_their_signatures_not_their_implementation() {
    let views = check("typescript/heads.ts", Language::TypeScript, &["pick", "K", "get", "Codec", "decode", "parse"]);
    for lines in [
        "16 export function pick(a: string): string\n17-18 export function pick(a: number, b: number): number\n",
        "19 export class K\n 19 get(key: string): string (+2 more)\n",
        " 23 decode(bytes: Uint8Array): string\n 25-28 decode(bytes: ArrayBuffer): string\n",
    ] {
        assert!(views.signatures.contains(lines), "no `{lines}` in\n{}", views.signatures);
    }
    assert!(!views.signatures.contains("any"), "{}", views.signatures);
    assert!(views.map.contains("16 fn pick\n17-18 fn pick\n19 class K\n 19 get ×3\n"), "{}", views.map);
}

/// A constant or variable shows its value when the declaration is short as written, not once its
/// brackets were emptied: attrs' `Attribute = _add_hash(_add_eq(…), attrs=[…])` (a long value,
/// emptied short) showed a value that `Factory = _add_hash(…)` (a shorter one) did not.
#[test]
fn python_values_are_judged_short_as_written() {
    let views = check("python/rebound.py", Language::Python, &["DEFAULT_TIMEOUT", "Factory", "Attribute"]);
    for line in ["3 DEFAULT_TIMEOUT = 3\n", "10 Factory\n", "17-23 Attribute\n"] {
        assert!(views.signatures.contains(line), "no `{line}` in\n{}", views.signatures);
    }
}

/// pkg/errors: a struct's unexported fields, named or embedded, are counted on its line, never
/// listed, and a struct with only such fields says so instead of appearing bare.
#[test]
fn go_unexported_fields_are_counted_not_listed() {
    let source = "package errors\n\n\
                  type fundamental struct {\n\tmsg string\n\t*stack\n}\n\n\
                  type withMessage struct {\n\tcause error\n\tmsg   string\n}\n\n\
                  type B struct {\n\tA\n\tx, y int\n\tTag string\n}\n\n\
                  type Open struct {\n\tName string\n}\n";
    let outline = lean_ctx_outline::outline(Language::Go, source);
    let signatures = lean_ctx_outline::render_signatures(&outline);
    let lines: Vec<&str> = signatures.lines().collect();
    assert_eq!(
        lines,
        [
            "1 package errors",
            "3-6 type fundamental struct { +2 unexported }",
            "8-11 type withMessage struct { +2 unexported }",
            "13-17 type B struct { A; Tag string; +2 unexported }",
            "19-21 type Open struct { Name string }",
        ],
        "{signatures}"
    );
}

/// immer's `IProduce`: an interface of call signatures only is a function's overloads, shown by
/// the shortest with the count of the others, not bare.
#[test]
fn typescript_interface_of_call_signatures_shows_them() {
    let source = "export interface IProduce {\n\
                  \t<Base, D = any>(base: Base, recipe: (draft: D) => void, listener?: PatchListener): Base\n\
                  \t<Base>(recipe: (draft: Base) => void): (base: Base) => Base\n\
                  \t(base: any, recipe: any): any\n\
                  }\n\n\
                  export interface Curried {\n\t(state: number): number\n}\n\n\
                  export interface Plain {\n\tname: string\n}\n";
    let outline = lean_ctx_outline::outline(Language::TypeScript, source);
    let signatures = lean_ctx_outline::render_signatures(&outline);
    let lines: Vec<&str> = signatures.lines().collect();
    assert_eq!(
        lines,
        [
            "1-5 export interface IProduce { (base: any, recipe: any): any (+2 more) }",
            "7-9 export interface Curried { (state: number): number }",
            "11-13 export interface Plain { name: string }",
        ],
        "{signatures}"
    );
}

/// A run of overloads shows the one shortest as written: a head short enough to keep its types
/// lost to a longer one cut to its names (s11qb: commander's `option` showed its deprecated
/// `RegExp` overload, `requiredOption` beside it the shortest).
#[test]
fn typescript_overload_run_shows_the_shortest_as_written() {
    let views = check("typescript/command.d.ts", Language::TypeScript, &["option", "requiredOption", "name"]);
    views.signature_lines_contain(&[
        " 4-7 option(flags: string, description?: string, defaultValue?: string | boolean | string[]): this (+2 more)",
    ]);
    assert!(!views.signatures.contains("regexp"), "{}", views.signatures);
}

/// A private field written on the line of a public one is counted on its type: the public one
/// was taken for what the private one is declared in, and the type counted none.
#[test]
fn a_private_field_on_a_public_ones_line_is_counted() {
    let cases = [
        (
            Language::Rust,
            "pub struct Q {\n    pub a: u8, b: u8,\n    c: u8,\n}\n",
            "1-4 pub struct Q { pub a: u8; +2 private }\n",
        ),
        (
            Language::Go,
            "package a\n\ntype T struct {\n\tA int\n\tC string; d int\n}\n",
            "1 package a\n3-6 type T struct { A int; C string; +1 unexported }\n",
        ),
        (
            Language::TypeScript,
            "export class K { private a = 1; b = 2; #c = 3 }\n",
            "1 export class K { b; +2 private }\n",
        ),
        (
            Language::Java,
            "public class A {\n    public int x, y; private int z; int w;\n}\n",
            "1-3 public class A { public int x, y; +2 private }\n",
        ),
        (Language::Python, "class C:\n    a: int; _b: int\n    c = 1\n", "1-3 class C { a: int; c; +1 private }\n"),
    ];
    for (language, source, expected) in cases {
        assert_eq!(render_signatures(&outline(language, source)), expected, "{language:?}");
    }
}

/// An assignment of several names is outlined when any is public: attrs' `s = attributes =
/// attrs` was dropped whole for its one-letter `s` (a QA pass), `attributes` with it. One that
/// binds only a one-letter or private name stays out, as before.
#[test]
fn python_a_chained_alias_with_a_public_name_is_listed() {
    let source = "s = attrib\nattributes = s = attrib\nT = evolve\n_x, public_y = 1, 2\nlonger = evolve\n";
    let found = outline(Language::Python, source);
    assert_eq!(render_signatures(&found), "2 attributes = s = attrib\n4-5 _x, public_y = 1, 2; longer = evolve\n");
    assert_eq!(render_map(&found), "2 var attributes, s\n4-5 var _x, public_y, longer\n");
}
