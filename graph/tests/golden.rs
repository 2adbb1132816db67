//! Golden tests: every call site of a fixture project per language, with what it resolves to and
//! how. Fixtures are shaped like real code: methods, traits and interfaces, re-exports, aliased
//! imports, and locals that shadow a definition of the same name.
//!
//! `UPDATE_GOLDEN=1 cargo test -p lean-ctx-graph --test golden` rewrites the expected files;
//! review the diff before committing it.

use lean_ctx_graph::{DefId, Graph, Interrupt, Interrupted, Lookup, RefKind};
use std::collections::BTreeSet;
use std::fmt::Write as _;

mod fixture;

use fixture::{build, fixture_dir};

/// One line per call site: `file:line in caller: name -> target [label]`. An attribute read is a
/// call only when it reaches a property.
fn render_calls(graph: &Graph) -> String {
    let mut out = String::new();
    for (file, entry) in graph.files() {
        for (index, r) in entry.facts.refs.iter().enumerate().filter(|(_, r)| r.kind.is_call()) {
            if r.kind == RefKind::Read && graph.resolve(file, index as u32).is_none() {
                continue;
            }
            let caller = r.caller.and_then(|i| entry.facts.defs.get(i as usize)).map_or("<top>".to_string(), |d| {
                d.container.as_ref().map_or(d.name.clone(), |c| format!("{c}::{}", d.name))
            });
            let written = r.receiver.as_ref().map_or(r.name.clone(), |recv| format!("{recv}.{}", r.name));
            let target = match graph.resolve(file, index as u32) {
                None => "(not in project)".to_string(),
                Some(resolution) => {
                    let targets: Vec<String> = resolution
                        .targets
                        .iter()
                        .map(|id| {
                            let s = graph.summary(id).expect("target exists");
                            format!("{}:{} {}", s.file, s.line, s.name)
                        })
                        .collect();
                    format!("{} [{}]", targets.join(" | "), resolution.label.name())
                }
            };
            writeln!(out, "{file}:{} in {caller}: {written} -> {target}", r.line).unwrap();
        }
    }
    out
}

fn check_golden(name: &str) -> Graph {
    let graph = build(name);
    let actual = render_calls(&graph);
    let expected_path = fixture_dir(&format!("{name}.calls"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&expected_path, &actual).expect("write golden");
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    assert_eq!(actual, expected, "{name}: call sites differ from {}", expected_path.display());
    graph
}

/// The callers of a symbol as `file:line caller [label]`.
fn callers(graph: &Graph, symbol: &str, file: Option<&str>) -> Vec<String> {
    let Lookup::Found(targets) = graph.lookup(symbol, file) else { panic!("{symbol} not found uniquely") };
    let walk = graph.callers(&targets, 1, 100, Interrupt::NEVER).unwrap();
    walk.edges
        .iter()
        .map(|e| {
            let caller = e.caller.as_ref().map_or("<top>", |c| c.name.as_str());
            format!("{}:{} {caller} [{}]", e.file, e.line, e.label.name())
        })
        .collect()
}

#[test]
fn rust_calls() {
    let graph = check_golden("rust");
    // A receiver of a generic type bound by a trait calls the trait's method, as `B::get(x)` would.
    assert_eq!(callers(&graph, "Backend::get", None), ["src/util.rs:17 lookup [exact]"]);
    // Through the renamed re-export `pub use store::Store as Db`, and from the integration test
    // through the library's name (`use kv::Db`, Cargo.toml's `[lib] name = "kv"` of package `kv-store`).
    assert_eq!(
        callers(&graph, "Store::new", None),
        [
            "src/lib.rs:9 open [exact]",
            "tests/common/mod.rs:5 empty_store [exact]",
            "tests/store.rs:7 a_new_store_is_empty [exact]"
        ]
    );
    assert_eq!(callers(&graph, "open", None), ["tests/store.rs:13 opened_through_the_crate [exact]"]);
    // Through `use crate::util::{self, log as trace}` and the module path; the shadowing closure is not a caller.
    assert_eq!(
        callers(&graph, "log", Some("src/util.rs")),
        ["src/lib.rs:10 open [exact]", "src/store.rs:16 Store::new [exact]", "src/store.rs:27 Store::get [exact]"]
    );
    // Through a type parameter bound by the trait, in the generics of an impl or a function, in a
    // where clause, by the trait's path.
    assert_eq!(
        callers(&graph, "Array::size", None),
        [
            "src/generic.rs:13 Holder::capacity [exact]",
            "src/generic.rs:18 bounded [exact]",
            "src/generic.rs:25 in_where [exact]",
            "src/generic.rs:29 through_a_path [exact]",
            "src/generic.rs:59 qualified [exact]"
        ]
    );
    // A method called on a value of a type parameter: of whichever of its bounds has it, the
    // first, a later one, or one in a where clause.
    assert_eq!(
        callers(&graph, "Measure::weight", None),
        ["src/generic.rs:43 heaviest [exact]", "src/generic.rs:54 tagged [exact]"]
    );
    assert_eq!(
        callers(&graph, "Named::label", None),
        ["src/generic.rs:50 described [exact]", "src/generic.rs:54 tagged [exact]"]
    );
}

#[test]
fn python_calls() {
    let graph = check_golden("python");
    assert_eq!(
        callers(&graph, "Order.empty", None),
        ["app.py:9 main [exact]", "shop/models.py:26 Repository::find [exact]"]
    );
    // The parameter of format_total shadows it; `shop.pricing.apply_discount` after `import shop`
    // reaches it through the package.
    assert_eq!(
        callers(&graph, "apply_discount", None),
        [
            "shop/service.py:15 OrderService::place [exact]",
            "tests/test_package.py:6 test_through_the_package [exact]",
            "tests/test_pricing.py:5 test_discount_rounds_to_cents [exact]"
        ]
    );
    // A class the package re-exports is constructed through it, as its functions are called.
    assert_eq!(
        callers(&graph, "OrderService", None),
        [
            "shop/service.py:25 make_service [exact]",
            "tests/test_package.py:16 test_the_service_through_the_package [exact]"
        ]
    );
    // `lines = Lines()` and `Lines().pop()`; `names = []` is a list, whose `pop` is no caller.
    // …and `super().pop()` in the subclass.
    assert_eq!(
        callers(&graph, "Lines.pop", None),
        [
            "shop/report.py:17 summary [exact]",
            "shop/report.py:32 fresh_pop [exact]",
            "shop/report.py:37 Report::pop [exact]"
        ]
    );
    // `with Lines() as held`; `", ".join(…)` and `sep: str` are strings. `sep` in `Lines.join`
    // has no written type, and strings have a `join`: not claimed. `Report` inherits `join`.
    // `for sheet in reversed(self.sheets or [])` where `self.sheets: list[Lines]`.
    assert_eq!(
        callers(&graph, "Lines.join", None),
        [
            "shop/batch.py:20 Batch::check [exact]",
            "shop/report.py:21 summary [exact]",
            "shop/report.py:40 Report::drain [exact]"
        ]
    );
    // Loop and comprehension variables over `list[Order]` attributes and a method returning one,
    // a subscript of a `dict[int, Order]`, and subscripts of the items `split` returns in a
    // tuple, unpacked; `for row in rows` (no written type) is only the name's one definition.
    assert_eq!(
        callers(&graph, "Order.validate", None)
            .into_iter()
            .filter(|c| c.starts_with("shop/batch.py"))
            .collect::<Vec<_>>(),
        [
            "shop/batch.py:16 Batch::pending [exact]",
            "shop/batch.py:21 Batch::check [exact]",
            "shop/batch.py:24 Batch::recheck [exact]",
            "shop/batch.py:31 check_all [likely]",
            // `kept[0].validate() and by_id[1].validate()`: two sites.
            "shop/batch.py:41 first_valid [exact]",
            "shop/batch.py:41 first_valid [exact]"
        ]
    );
    assert_eq!(callers(&graph, "Batch.check", None), ["shop/batch.py:29 check_all [exact]"]);
    // `self.send = send` holds a callable, not a method; `Transport.send` is reached through the
    // return type of a head too long for the views (`open`).
    assert_eq!(callers(&graph, "Transport.send", None), ["shop/dispatch.py:74 Middleware::relay [exact]"]);
    // Python's callers of a method are its own calls, as pyright's: the call of the base's
    // `relay` through `super()` is not listed under the override, nor would a call of the
    // override be under the base.
    assert_eq!(callers(&graph, "Middleware.relay", None), ["shop/dispatch.py:90 Logged::relay [exact]"]);
    assert!(callers(&graph, "Logged.relay", None).is_empty());
    // A base's call of a method only its subclasses define goes to one of theirs; so does a call
    // through a union of them, also one read from a list made of what a function yields.
    assert_eq!(
        callers(&graph, "Streamed.flush", None),
        [
            "shop/dispatch.py:14 Transport::send [ambiguous]",
            "shop/dispatch.py:96 configure [ambiguous]",
            "shop/dispatch.py:120 flush_routes [ambiguous]"
        ]
    );
    // A library's pool (`httpcore.ConnectionPool(…)`) has its own `drain`; `Outbox(Queue[str])`
    // inherits the project's.
    assert_eq!(callers(&graph, "Queue.drain", None), ["shop/dispatch.py:75 Middleware::relay [exact]"]);
    // Through a dict's values, a declared attribute (also read in a subclass) that is cleared
    // with `None`, `Optional[…]` under a module alias, and a name rebound from itself.
    assert_eq!(
        callers(&graph, "Transport.close", None),
        [
            "shop/dispatch.py:77 Middleware::relay [exact]",
            "shop/dispatch.py:81 Middleware::stop [exact]",
            "shop/dispatch.py:91 Logged::relay [exact]",
            "shop/dispatch.py:95 configure [exact]",
            "shop/dispatch.py:98 configure [exact]",
            "shop/dispatch.py:101 configure [exact]",
            "shop/dispatch.py:122 flush_routes [exact]"
        ]
    );
    // `super(Logged, self)`, and `self` typed in a decorator's wrapper.
    assert_eq!(callers(&graph, "Middleware.relay", None), ["shop/dispatch.py:90 Logged::relay [exact]"]);
    // …and `self.on_close = self.stop`, the method handed on as a value.
    assert_eq!(
        callers(&graph, "Middleware.stop", None),
        ["shop/dispatch.py:54 Middleware::__init__ [exact]", "shop/dispatch.py:106 traced::wrapper [exact]"]
    );
    let Lookup::Found(join) = graph.lookup("Lines.join", None) else { panic!("Lines.join") };
    assert_eq!(
        graph.unclaimed_calls(&join).as_deref(),
        Some("calls of `.join()` on values of unknown type are not listed: built-in types have a `join` too")
    );
    let Lookup::Found(save) = graph.lookup("Repository.save", None) else { panic!("Repository.save") };
    assert_eq!(graph.unclaimed_calls(&save), None);
    // A property read is a call of its getter.
    assert_eq!(callers(&graph, "Receipt.total", None), ["shop/report.py:50 print_receipt [exact]"]);
    let Lookup::Found(total) = graph.lookup("Receipt.total", None) else { panic!("Receipt.total") };
    assert_eq!(
        graph.unclaimed_calls(&total).as_deref(),
        Some("reads of `.total` on values of unknown type are not listed: only reads through a known type are")
    );
    // Constructed under the alias `Repo`.
    assert_eq!(
        callers(&graph, "Repository", None),
        ["shop/report.py:27 reload [exact]", "shop/service.py:25 make_service [exact]"]
    );
}

#[test]
fn typescript_calls() {
    let graph = check_golden("typescript");
    // `new Store()` through `export { MemoryStore as Store } from './memory'`; the test imports
    // it through the tsconfig's `"@store/*": ["src/store/*"]`.
    assert_eq!(
        callers(&graph, "MemoryStore", None),
        ["src/app.ts:5 load [exact]", "tests/app.test.ts:4 <top> [exact]"]
    );
    // The test imports `load` by the project's own package name (`package.json`), which maps to
    // `src/index.ts` and its re-export.
    assert_eq!(callers(&graph, "load", None), ["src/app.ts:13 run [exact]", "tests/app.test.ts:6 <top> [exact]"]);
    // Inherited through a head over several lines, past a callback's parameter of the same name.
    assert_eq!(callers(&graph, "Observer.refetch", None), ["src/observer.ts:27 watch [exact]"]);
    assert_eq!(callers(&graph, "PagedObserver.notifyAll", None), ["src/observer.ts:9 Observer::refetch [likely]"]);
    // `decode as parse` through `export * from './codec'`.
    assert_eq!(
        callers(&graph, "decode", None),
        ["src/app.ts:6 load [exact]", "src/store/codec.test.ts:5 <top> [exact]"]
    );
    // `for (const store of this.stores)` over a `MemoryStore[]` field, and callbacks of
    // `forEach` on what a method typed `Array<MemoryStore>` returns; maps have `set` and `get`
    // too, so without the element type these would not be claimed. `readonly stores: readonly
    // MemoryStore[]` is a parameter property. In `touch`, callbacks passed to `withStore`, whose
    // parameter `init` is typed `(store: MemoryStore, key: string) => R`.
    assert_eq!(
        callers(&graph, "MemoryStore.set", None),
        [
            "src/app.ts:6 load [exact]",
            "src/queue.ts:6 flush [exact]",
            "src/queue.ts:43 touch [exact]",
            "src/queue.ts:44 touch [exact]",
            "src/store/batch.ts:16 Batch::clear [exact]"
        ]
    );
    // A method's callers include the calls of the method it implements (`backend.get` in
    // `peek`, through the `Backend` interface, may dispatch to it), and an interface method's
    // callers the calls of its implementations (a call of one runs in its place). Each edge
    // keeps its own callee; the walk names the related methods.
    let both_ways = [
        "src/queue.ts:17 peek [exact]",
        "src/store/batch.ts:18 Batch::clear [exact]",
        "src/store/batch.ts:19 Batch::clear [exact]",
        "src/store/batch.ts:27 Snapshot::first [exact]",
        "tests/app.test.ts:5 <top> [exact]",
    ];
    // `pick('a') + pick(1)`: two calls on one line are two sites.
    assert_eq!(callers(&graph, "pick", None), ["src/queue.ts:55 pickBoth [exact]", "src/queue.ts:55 pickBoth [exact]"]);
    assert_eq!(callers(&graph, "MemoryStore.get", None), both_ways);
    assert_eq!(callers(&graph, "Backend.get", None), both_ways);
    let related = |symbol: &str| {
        let Lookup::Found(targets) = graph.lookup(symbol, None) else { panic!("{symbol}") };
        let walk = graph.callers(&targets, 1, 100, Interrupt::NEVER).unwrap();
        let callees: BTreeSet<String> = walk.edges.iter().map(|e| e.callee.name.clone()).collect();
        let named: Vec<String> = walk.overrides.iter().map(|id| graph.summary(id).unwrap().name).collect();
        (named, callees.into_iter().collect::<Vec<_>>())
    };
    assert_eq!(
        related("Backend.get"),
        (vec!["MemoryStore::get".into()], vec!["Backend::get".into(), "MemoryStore::get".into()])
    );
    assert_eq!(
        related("MemoryStore.get"),
        (vec!["Backend::get".into()], vec!["Backend::get".into(), "MemoryStore::get".into()])
    );
    // The arrow function in `run` shadows it.
    assert_eq!(
        callers(&graph, "encode", None),
        ["src/store/codec.test.ts:5 <top> [exact]", "src/store/memory.ts:20 MemoryStore::set [exact]"]
    );
}

#[test]
fn javascript_calls() {
    let graph = check_golden("javascript");
    // A JSX element of a default-imported component.
    assert_eq!(callers(&graph, "Button", None), ["src/App.jsx:6 App::render [exact]"]);
    assert_eq!(callers(&graph, "save", None), ["src/App.jsx:6 App::render [exact]"]);
    // The functions of an object bound to a name are its methods (`Text.trim`), not free functions.
    assert_eq!(callers(&graph, "Text.trim", None), ["src/text.js:6 Text::shout [likely]"]);
    assert_eq!(callers(&graph, "Text.shout", None), ["src/text.js:11 label [likely]"]);
    // Through the object a module exports as its default (`import utils from`, utils.js ending
    // `export default { isFormData, … }`), under its own name or another, or imported by it.
    assert_eq!(callers(&graph, "isFormData", None), ["src/helpers/resolveConfig.js:4 default [exact]"]);
    assert_eq!(
        callers(&graph, "kindOf", None),
        ["src/adapters/xhr.js:6 xhrAdapter [exact]", "src/adapters/xhr.js:7 xhrAdapter [exact]"]
    );
    assert_eq!(
        callers(&graph, "track", None),
        ["src/App.jsx:10 App::save [exact]", "src/helpers/resolveConfig.js:5 default [exact]"]
    );
    // A default export with a name of its own, imported under another.
    assert_eq!(callers(&graph, "formatPrice", None), ["src/checkout.js:4 checkout [exact]"]);
    // A default export with no name of its own, called by the name it is imported as.
    assert_eq!(
        callers(&graph, "default", Some("src/helpers/resolveConfig.js")),
        ["src/adapters/xhr.js:5 xhrAdapter [exact]"]
    );
    // A class a function called at once returns is the bound name's, and so is its base: what it
    // inherits is called on the name's instances.
    assert_eq!(
        callers(&graph, "Store.load", None),
        ["src/model.js:7 Model::own [exact]", "src/model.js:19 run [exact]", "src/model.js:20 run [exact]"]
    );
}

#[test]
fn commonjs_calls() {
    let graph = check_golden("commonjs");
    // `const u = require('./util')` then `u.helper()`, and `const { helper } = require('./util')`
    // then `helper()`: both call util.js's `helper`; so do a test destructuring it and
    // TypeScript's `import util = require('./util')`.
    assert_eq!(
        callers(&graph, "helper", None),
        [
            "main.js:6 run [exact]",
            "main.js:6 run [exact]",
            "other.js:6 viaMember [exact]",
            "test/util.test.js:4 <top> [exact]",
            "tsconsumer.ts:4 viaTs [exact]"
        ]
    );
    // A renamed item, `require('./m').item`, and TypeScript's `__importDefault(require('./m'))`
    // then `m_1.default.format()`, of a directory's index.js.
    assert_eq!(
        callers(&graph, "format", None),
        ["lib/types.js:10 handleResult [exact]", "main.js:6 run [exact]", "other.js:6 viaMember [exact]"]
    );
    // TypeScript's CommonJS output: `(0, parseUtil_1.isValid)(…)`, `parseUtil_1.isValid(…)`,
    // `new parseUtil_1.ParseStatus()`.
    // And through the re-exports of `module.exports = require('./lib')` and TypeScript's
    // `__exportStar(require("./helpers/parseUtil"), exports)`.
    assert_eq!(
        callers(&graph, "isValid", None),
        ["consumer.js:4 check [exact]", "lib/types.js:7 handleResult [exact]", "lib/types.js:8 handleResult [exact]"]
    );
    assert_eq!(callers(&graph, "ParseStatus", None), ["lib/types.js:6 handleResult [exact]"]);
    // What the other side exports: `exports.f = function …`, `module.exports.f = …` and the
    // functions of `module.exports = { f() {…}, g: function … }` are the module's `f` and `g`.
    for exported in ["viaExports", "viaModuleExports", "shorthand", "keyed"] {
        assert_eq!(callers(&graph, exported, None), ["usesExports.js:5 useAll [exact]"], "{exported}");
    }
}

#[test]
fn go_calls() {
    let graph = check_golden("go");
    // Same package, another file.
    assert_eq!(callers(&graph, "normalize", None), ["internal/store/store.go:24 Memory::Put [exact]"]);
    // Method values handed on (`return l.lexValue`, `l.state = l.lexKey`); field reads are none.
    assert_eq!(
        callers(&graph, "lexer.lexKey", None),
        ["internal/store/lexer.go:19 lexer::lexValue [exact]", "internal/store/lexer.go:23 lexer::run [exact]"]
    );
    // Through the aliased import `st`, and from the package's own test.
    assert_eq!(
        callers(&graph, "NewMemory", None),
        [
            "cmd/shop/main.go:25 main [exact]",
            "internal/store/batch.go:34 <top> [exact]",
            "internal/store/len.go:18 <top> [exact]",
            "internal/store/open.go:14 Open [exact]",
            "internal/store/store_test.go:6 TestMemoryPutGet [exact]"
        ]
    );
    // Through the field's written type: `s.db` is a `st.Store`, the interface; `*Memory` has
    // every method `Store` lists, so the calls of `Memory.Get` may be this method's too, and
    // the other way round (`m := NewMemory()`, which returns a `*Memory`; `b.stores[i]`, an
    // element of a `[]*Memory`).
    let gets = [
        "cmd/shop/main.go:14 server::handle [exact]",
        "internal/store/batch.go:21 Batch::PutAll [exact]",
        "internal/store/store_test.go:8 TestMemoryPutGet [exact]",
    ];
    // `internal/cache` has a `Store` of its own, with a `Get`: files that import only the store
    // package (or are in it) call the store's, and the cache's own call is the cache's.
    assert_eq!(callers(&graph, "Store.Get", Some("internal/store/store.go")), gets);
    assert_eq!(
        callers(&graph, "Store.Get", Some("internal/cache/cache.go")),
        ["internal/cache/cache.go:17 Warm [exact]"]
    );
    assert_eq!(callers(&graph, "Memory.Get", None), gets);
    // `range` over a `[]*Memory` field, a `map[string]Store` and a package `var` of a slice
    // literal, a type assertion, and `Default`, a package variable of another file (a capital
    // names no type in Go); in `seed`, the first result of `st.Open()`, a function of the
    // imported package; `s.Put` through `Store`, the interface `*Memory` implements, whose
    // method has the calls of its one implementation.
    let puts = [
        "cmd/shop/main.go:35 seed [exact]",
        "internal/store/batch.go:15 Batch::PutAll [exact]",
        "internal/store/batch.go:18 Batch::PutAll [exact]",
        "internal/store/batch.go:29 Flush [exact]",
        "internal/store/batch.go:39 Reset [exact]",
        "internal/store/batch.go:42 Reset [exact]",
        "internal/store/open.go:23 Reopen [exact]",
        "internal/store/store_test.go:7 TestMemoryPutGet [exact]",
    ];
    assert_eq!(callers(&graph, "Memory.Put", None), puts);
    assert_eq!(callers(&graph, "Store.Put", None), puts);
    // A method declared in another file than its type belongs to the type.
    // `Total` calls it on `(*Default)`, a package variable declared below it, and ranges over
    // `defaults`, a package variable of another file.
    assert_eq!(
        callers(&graph, "Memory.Len", None),
        [
            "internal/store/batch.go:49 Batch::Len [exact]",
            "internal/store/len.go:10 Total [exact]",
            "internal/store/len.go:12 Total [exact]"
        ]
    );
    // `m, err := Open()`: `m` is the first result, a `*Memory` (open.go:23, above); `err` the
    // second, the built-in `error`, whose `Error` is not the project's `NotFound.Error`; nor is
    // `Error` called on a value of unknown type (`problems[0]` in `Describe`): Go's errors have it.
    assert_eq!(callers(&graph, "NotFound.Error", None), Vec::<String>::new());
    // The module's root package, imported by the module path `go.mod` declares.
    assert_eq!(callers(&graph, "Version", None), ["cmd/shop/version.go:7 version [exact]"]);
    // Go's built-in `new(T)`.
    assert_eq!(callers(&graph, "Batch.PutAll", None), ["internal/store/batch.go:41 Reset [exact]"]);
    // Go's interfaces are satisfied by method names alone: `count` (a type defined on `int`)
    // has `Set` and `String`, so it is a `Value` and a call through `Value` may run its `Set`;
    // it has no `Append`, so it is no `SliceValue`. `names` is both.
    assert_eq!(callers(&graph, "count.Set", None), ["internal/store/setting.go:53 Setting::Apply [exact]"]);
    assert_eq!(
        callers(&graph, "names.Set", None),
        ["internal/store/setting.go:39 names::Append [exact]", "internal/store/setting.go:53 Setting::Apply [exact]"]
    );
    assert_eq!(callers(&graph, "names.Append", None), ["internal/store/setting.go:51 Setting::Apply [exact]"]);
    // An interface's method: the calls through it and those of every implementation.
    assert_eq!(
        callers(&graph, "Value.Set", None),
        ["internal/store/setting.go:39 names::Append [exact]", "internal/store/setting.go:53 Setting::Apply [exact]"]
    );
    // `Counter` embeds `*count`: `c.String()` is the promoted method, and `Counter` declares no
    // `Set` of its own to list.
    assert_eq!(callers(&graph, "count.String", None), ["internal/store/setting.go:62 Report [exact]"]);
}

#[test]
fn java_calls() {
    let graph = check_golden("java");
    assert_eq!(
        callers(&graph, "Order.of", None),
        [
            "src/main/java/com/acme/app/OrderService.java:11 OrderService::place [exact]",
            // The same package needs no import: the one `Order` of the project, not proven.
            "src/test/java/com/acme/orders/OrderTest.java:10 OrderTest::ofKeepsTheId [likely]"
        ]
    );
    // Called without `this` from a lambda inside the class, and from an inner class.
    assert_eq!(
        callers(&graph, "place", None),
        [
            "src/main/java/com/acme/app/OrderService.java:17 OrderService::lookup [exact]",
            "src/main/java/com/acme/app/OrderService.java:33 Retry::again [exact]"
        ]
    );
    // The class and its constructor are one symbol.
    assert_eq!(callers(&graph, "Order", None), ["src/main/java/com/acme/orders/Order.java:15 Order::of [exact]"]);
    // A constructor's `this(…)` calls its own class's constructor, `super(…)` its base's.
    let account = [
        "src/main/java/com/acme/orders/Account.java:7 Account::Account [exact]",
        "src/main/java/com/acme/orders/Account.java:17 SavingsAccount::SavingsAccount [exact]",
    ];
    assert_eq!(callers(&graph, "Account", None), account);
    assert_eq!(callers(&graph, "Account::Account", None), account);
    assert_eq!(
        callers(&graph, "audit", None),
        ["src/main/java/com/acme/orders/MemoryRepository.java:18 MemoryRepository::save [exact]"]
    );
    // Private and static methods are bound where they are called: a subclass's namesake neither
    // overrides nor is overridden by them.
    assert_eq!(
        callers(&graph, "AuditedLedger.check", None),
        ["src/main/java/com/acme/orders/AuditedLedger.java:9 AuditedLedger::review [exact]"]
    );
    assert_eq!(
        callers(&graph, "Ledger.check", None),
        ["src/main/java/com/acme/orders/Ledger.java:7 Ledger::close [exact]"]
    );
    assert_eq!(
        callers(&graph, "Ledger.size", None),
        ["src/main/java/com/acme/orders/Ledger.java:15 Ledger::post [exact]"]
    );
    // Overloads are one method: a call through the class is exact, not one of two candidates.
    assert_eq!(
        callers(&graph, "Amount.cents", None),
        ["src/main/java/com/acme/orders/Amount.java:13 Amount::twice [exact]"]
    );
    // A static nested class reaches only the static methods of the class around it: its flush()
    // is its library base's, not the enclosing instance's it does not have.
    assert_eq!(callers(&graph, "Outbox.flush", None), Vec::<String>::new());
    assert_eq!(
        callers(&graph, "Outbox.capacity", None),
        ["src/main/java/com/acme/app/Outbox.java:22 Sink::write [exact]"]
    );
    // An inner class's own base comes before the class around it.
    assert_eq!(callers(&graph, "Outbox.drain", None), Vec::<String>::new());
    assert_eq!(callers(&graph, "Spool.drain", None), ["src/main/java/com/acme/app/Outbox.java:29 Pump::run [exact]"]);
    // The field's declared type: the interface's method, as Java's own call hierarchy has it;
    // read from an inner class and an anonymous class too (the enclosing class's field); a
    // getter's declared return type.
    assert_eq!(
        callers(&graph, "Repository.save", None),
        [
            "src/main/java/com/acme/app/OrderService.java:12 OrderService::place [exact]",
            "src/main/java/com/acme/app/OrderService.java:26 OrderService::replay [exact]",
            "src/main/java/com/acme/app/OrderService.java:32 Retry::again [exact]",
            "src/main/java/com/acme/app/OrderService.java:41 OrderService::later [exact]"
        ]
    );
}

/// A `.pyi` stub or a `.d.ts` beside the module it declares: calls resolved to a declaration
/// are the implementation's, which has the callers; a declaration without one stays the target.
#[test]
fn declaration_files_calls() {
    let graph = check_golden("stubs");
    // `from pkg import compute`: `pkg/__init__.pyi` declares it, `pkg/__init__.py` re-exports
    // it from `._impl`. One definition, not a stub and its implementation.
    assert_eq!(
        callers(&graph, "compute", Some("pkg/_impl.py")),
        ["pkg/_impl.py:13 Store::put [exact]", "tests/test_pkg.py:7 test_compute [exact]"]
    );
    assert_eq!(callers(&graph, "compute", None), callers(&graph, "compute", Some("pkg/_impl.py")));
    // Asked about the declaration: the implementation it declares answers.
    assert_eq!(callers(&graph, "compute", Some("pkg/__init__.pyi")), callers(&graph, "compute", None));
    // A member, through `store: Store` typed by the stub's class; a same-named module's stub.
    assert_eq!(callers(&graph, "Store.get", None), ["tests/test_pkg.py:17 check [exact]"]);
    // By its name alone, on a value of unknown type: the one method, not two candidates.
    assert_eq!(
        callers(&graph, "Store.put", None),
        ["tests/test_pkg.py:12 test_store [exact]", "tests/test_pkg.py:26 refill [likely]"]
    );
    assert_eq!(callers(&graph, "helper", Some("pkg/util.py")), ["tests/test_pkg.py:21 test_helper_and_native [exact]"]);
    // A stub with no implementation in the project (a compiled extension's) is the target.
    assert_eq!(callers(&graph, "fast", None), ["tests/test_pkg.py:22 test_helper_and_native [exact]"]);
    // The same for TypeScript: `lib.d.ts` declares `lib.js`; `native.d.ts` declares nothing here.
    assert_eq!(
        callers(&graph, "format", Some("web/lib.js")),
        ["web/app.ts:6 render [exact]", "web/lib.js:7 Cache::get [exact]"]
    );
    assert_eq!(callers(&graph, "Cache.get", None), ["web/app.ts:6 render [exact]"]);
    assert_eq!(callers(&graph, "tick", None), ["web/app.ts:5 render [exact]"]);
}

#[test]
fn nested_functions_calls() {
    let graph = check_golden("nested");
    // A Python function's nested def (in a method too), a TypeScript function's nested function
    // and a Rust function's nested fn are definitions, called where they are in scope.
    assert_eq!(callers(&graph, "make_tag", None), ["qa_nested.py:31 Console::render [exact]"]);
    assert_eq!(
        callers(&graph, "inner_helper", None),
        ["qa_nested.py:17 LocalCls::meth [exact]", "qa_nested.py:19 outer [exact]"]
    );
    assert_eq!(callers(&graph, "deepest_fn", None), ["qa_nested.py:10 outer::inner_helper [exact]"]);
    // A nested name shadows the module's in the body declaring it (in the functions nested there
    // too), and only there; a call of it elsewhere (another file's, by name alone) is not the
    // nested function's. The two are two symbols: the module's by its name, the nested one by
    // its enclosing function's (`outer::helper`), with a file or without.
    let sites = |symbol: &str, file: Option<&str>| {
        let Lookup::Found(targets) = graph.lookup(symbol, file) else { panic!("{symbol}") };
        let walk = graph.callers(&targets, 1, 100, Interrupt::NEVER).unwrap();
        walk.edges
            .iter()
            .map(|e| format!("{}:{} -> {}", e.line, e.caller.as_ref().unwrap().name, e.callee.line))
            .collect::<Vec<_>>()
    };
    assert_eq!(sites("helper", None), ["23:other -> 1"]);
    assert_eq!(sites("helper", Some("qa_nested.py")), ["23:other -> 1"]);
    assert_eq!(sites("outer::helper", Some("qa_nested.py")), ["8:inner_helper::deepest_fn -> 12", "19:outer -> 12"]);
    assert_eq!(callers(&graph, "innerTsHelper", None), ["app.ts:5 outerTs [exact]", "app.ts:5 outerTs [exact]"]);
    assert_eq!(sites("local_helper", Some("src/lib.rs")), ["13:again -> 8"]);
    assert_eq!(sites("run::local_helper", None), ["5:run -> 2"]);
    // The enclosing function's callees are the nested functions, not names it does not define.
    let Lookup::Found(outer) = graph.lookup("outer", None) else { panic!("outer") };
    let walk = graph.callees(&outer, 1, 100, Interrupt::NEVER).unwrap();
    let callees: Vec<String> = walk.edges.iter().map(|e| format!("{} {}", e.callee.name, e.callee.line)).collect();
    assert_eq!(callees, ["outer::inner_helper 6", "outer::helper 12"]);
    assert_eq!(walk.external_calls, 0);
    // The repo map lists the file's own definitions, as the outline does: a nested function is
    // the detail of the one declaring it.
    let ranking = graph.rank(&BTreeSet::new(), &|_| false, Interrupt::NEVER).unwrap();
    let listed: BTreeSet<&str> = ranking.defs.iter().map(|r| graph.def(&r.id).unwrap().name.as_str()).collect();
    assert!(listed.contains("outer") && !listed.contains("inner_helper") && !listed.contains("make_tag"), "{listed:?}");
}

#[test]
fn java_calls_on_library_values_are_no_project_calls() {
    let mut graph = Graph::new();
    let files = [
        (
            "sql/DriverManager.java",
            "package sql;\n\npublic class DriverManager {\n    public static void println(String message) {\n    }\n}\n",
        ),
        (
            "log/Handler.java",
            "package log;\n\nimport java.io.*;\n\npublic class Handler {\n    private java.io.PrintWriter out;\n    \
             void report(String text, T item) {\n        System.err.println(text);\n        \
             PrintWriter pw = new PrintWriter(new StringWriter());\n        pw.println();\n        out.println();\n        \
             item.println();\n    }\n}\n",
        ),
    ];
    for (path, source) in files {
        let facts = lean_ctx_graph::extract(lean_ctx_outline::Language::Java, source);
        graph.upsert(path, lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
    }
    // `System.err` (a field of java.lang's `System`), `pw`, declared a `PrintWriter` from
    // `import java.io.*`, and a field declared a `java.io.PrintWriter` are library values: their
    // `println` is no call of the project's. A value of a type parameter may still be the
    // project's.
    assert_eq!(callers(&graph, "DriverManager.println", None), ["log/Handler.java:12 Handler::report [likely]"]);
}

#[test]
fn callees_trace_and_lookups() {
    let graph = build("python");
    let Lookup::Found(place) = graph.lookup("OrderService.place", None) else { panic!("place") };
    let walk = graph.callees(&place, 1, 100, Interrupt::NEVER).unwrap();
    let callees: Vec<String> =
        walk.edges.iter().map(|e| format!("{}:{} {} [{}]", e.file, e.line, e.callee.name, e.label.name())).collect();
    assert_eq!(
        callees,
        [
            "shop/service.py:15 Order [exact]",
            "shop/service.py:15 apply_discount [exact]",
            // `self.repo = repo`, and `repo: Repo` is `Repository` imported under another name.
            "shop/service.py:16 Repository::save [exact]",
            "shop/service.py:17 OrderService::notify [exact]",
        ]
    );
    // The second level: Repository.save validates the order; notify calls only the library.
    let deeper = graph.callees(&place, 2, 100, Interrupt::NEVER).unwrap();
    let second: Vec<String> = deeper
        .edges
        .iter()
        .filter(|e| e.depth == 2)
        .map(|e| format!("{}:{} {}", e.file, e.line, e.callee.name))
        .collect();
    assert_eq!(second, ["shop/models.py:22 Order::validate"]);
    assert!(deeper.external_calls > 0, "logging and built-in calls are counted, not shown");

    let Lookup::Found(main) = graph.lookup("main", Some("app.py")) else { panic!("main") };
    let Lookup::Found(discount) = graph.lookup("apply_discount", None) else { panic!("apply_discount") };
    let path =
        graph.trace(&main, &discount, 5, &|_| true, Interrupt::NEVER).unwrap().expect("main reaches apply_discount");
    let hops: Vec<String> =
        path.iter().map(|e| format!("{} -> {}", e.caller.as_ref().expect("caller").name, e.callee.name)).collect();
    assert_eq!(hops, ["main -> OrderService::place", "OrderService::place -> apply_discount"]);
    assert!(graph.trace(&main, &discount, 1, &|_| true, Interrupt::NEVER).unwrap().is_none(), "one call is not enough");
    // A path only through a file the caller may not go through is no path.
    let place_file = path[0].callee.file.clone();
    let elsewhere = |file: &str| file != place_file;
    assert!(graph.trace(&main, &discount, 5, &elsewhere, Interrupt::NEVER).unwrap().is_none(), "{place_file}");
    // Whoever asked has gone: the walk stops rather than running on for nobody.
    let gone = || true;
    assert_eq!(graph.trace(&main, &discount, 5, &|_| true, Interrupt::new(&gone)), Err(Interrupted));

    assert_eq!(graph.lookup("aply_discount", None), Lookup::Unknown { closest: vec!["apply_discount".into()] });
    let rust = build("rust");
    let Lookup::Ambiguous(gets) = rust.lookup("get", None) else { panic!("get is a trait method and its impl") };
    assert_eq!(gets.len(), 2);
    assert!(matches!(rust.lookup("Store::get", None), Lookup::Found(ids) if ids.len() == 1));
}

#[test]
fn calls_on_one_line_are_sites_of_their_own() {
    let mut graph = Graph::new();
    let source = "def log(x):\n    return x\n\n\ndef run():\n    log(1); log(2)\n    return log(log(3))\n";
    let facts = lean_ctx_graph::extract(lean_ctx_outline::Language::Python, source);
    graph.upsert("app.py", lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
    let Lookup::Found(log) = graph.lookup("log", None) else { panic!("log") };
    let walk = graph.callers(&log, 1, 100, Interrupt::NEVER).unwrap();
    let sites: Vec<(u32, u32)> = walk.edges.iter().map(|e| (e.line, e.column)).collect();
    assert_eq!(sites, [(6, 5), (6, 13), (7, 12), (7, 16)]);
    let Lookup::Found(run) = graph.lookup("run", None) else { panic!("run") };
    assert_eq!(graph.callees(&run, 1, 100, Interrupt::NEVER).unwrap().edges.len(), 4);
}

/// A compiled copy of a module (`build/q.js` of `q.ts`) defines the same class: a caller that
/// imports the class from `./q` calls `q.ts`'s method, not one of two.
#[test]
fn the_imported_class_decides_among_same_named_classes() {
    use lean_ctx_outline::Language::{JavaScript, TypeScript};
    let mut graph = Graph::new();
    let mut add = |path: &str, language, source: &str| {
        let facts = lean_ctx_graph::extract(language, source);
        graph.upsert(path, lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
    };
    add("q.ts", TypeScript, "export class Query {\n  fetch(): number { return 1 }\n}\n");
    add("build/q.js", JavaScript, "export class Query {\n  fetch() { return 1 }\n}\n");
    add(
        "o.ts",
        TypeScript,
        "import { Query } from './q'\nexport class Observer {\n  cur: Query = new Query()\n  a() { return this.cur.fetch() }\n  \
         c(q: Query) { return q.fetch() }\n}\n",
    );
    assert_eq!(
        callers(&graph, "Query::fetch", Some("q.ts")),
        ["o.ts:4 Observer::a [exact]", "o.ts:5 Observer::c [exact]"]
    );
    assert!(callers(&graph, "Query::fetch", Some("build/q.js")).is_empty());
}

/// The graph of a project written in the test: (path, text) pairs, each file's language by its
/// extension.
fn project(files: &[(&str, &str)]) -> Graph {
    let mut graph = Graph::new();
    for (path, source) in files {
        let language = lean_ctx_outline::Language::from_path(std::path::Path::new(path)).expect("a code file");
        let facts = lean_ctx_graph::extract(language, source);
        graph.upsert(path, lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
    }
    graph
}

/// Functions assigned to an object's property or a constructor's prototype (express's
/// `app.handle = function handle(…)`, `Layer.prototype.handle_request = function …`) are that
/// object's or type's methods: asked about by the name they are written with, and called through
/// `this` in the object's other methods.
#[test]
fn javascript_functions_assigned_to_properties_are_methods() {
    let graph = project(&[
        (
            "lib/application.js",
            "var app = exports = module.exports = {};\n\napp.init = function init() {\n  this.lazyrouter();\n};\n\n\
             app.lazyrouter = function lazyrouter() {\n  return 1;\n};\n\napp.handle = function handle(req) {\n  \
             this.lazyrouter();\n  return req;\n};\n",
        ),
        (
            "lib/layer.js",
            "function Layer(path) {\n  this.path = path;\n}\n\nLayer.prototype.handle_request = function handle(req) {\n  \
             return req;\n};\n\nmodule.exports = Layer;\n",
        ),
        ("lib/router.js", "var Layer = require('./layer');\n\nfunction next(layer) {\n  layer.handle_request(1);\n}\n"),
    ]);
    assert_eq!(
        callers(&graph, "app.lazyrouter", None),
        ["lib/application.js:4 app::init [exact]", "lib/application.js:12 app::handle [exact]"]
    );
    assert_eq!(callers(&graph, "lazyrouter", Some("lib/application.js")), callers(&graph, "app.lazyrouter", None));
    assert!(matches!(graph.lookup("app.handle", None), Lookup::Found(ids) if ids.len() == 1));
    let handle_request = ["lib/router.js:4 next [likely]"];
    assert_eq!(callers(&graph, "Layer.prototype.handle_request", None), handle_request);
    assert_eq!(callers(&graph, "handle_request", None), handle_request);
}

/// `exports.f()` calls the module's own `f`, which `exports.f = function` defines.
#[test]
fn javascript_calls_through_exports_are_the_modules_own() {
    let graph = project(&[(
        "lib/utils.js",
        "exports.normalizeType = function (type) {\n  return type;\n};\n\nexports.normalizeTypes = function (types) {\n  \
         var ret = [];\n  for (var i = 0; i < types.length; ++i) {\n    ret.push(exports.normalizeType(types[i]));\n  }\n  \
         return ret;\n};\n",
    )]);
    assert_eq!(callers(&graph, "normalizeType", None), ["lib/utils.js:8 normalizeTypes [exact]"]);
}

/// A JavaScript or TypeScript constructor's `super(…)` calls its base class's constructor, as
/// Java's does: the class and its constructor are one symbol.
#[test]
fn javascript_and_typescript_super_calls_construct_the_base() {
    let graph = project(&[
        (
            "src/shape.ts",
            "export abstract class Base {\n  constructor(protected readonly label: string) {}\n}\n\
             export class Circle extends Base {\n  constructor(private r: number) { super(\"circle\"); }\n}\n",
        ),
        (
            "src/anim.js",
            "class Animal {\n  constructor(name) { this.name = name; }\n}\nclass Dog extends Animal {\n  \
             constructor(name) { super(name); }\n}\n",
        ),
    ]);
    assert_eq!(callers(&graph, "Base", None), ["src/shape.ts:5 Circle::constructor [exact]"]);
    assert_eq!(callers(&graph, "Animal::constructor", None), ["src/anim.js:5 Dog::constructor [exact]"]);
    let Lookup::Found(circle) = graph.lookup("Circle::constructor", None) else { panic!("Circle::constructor") };
    let callees = graph.callees(&circle, 1, 100, Interrupt::NEVER).unwrap();
    let callees: Vec<String> =
        callees.edges.iter().map(|e| format!("{}:{} {}", e.file, e.line, e.callee.name)).collect();
    assert_eq!(callees, ["src/shape.ts:5 Base"]);
}

/// `new Outer.Nested<T>(…)` constructs the nested class, as `new Outer.Nested(…)` does.
#[test]
fn java_generic_nested_class_creation_is_a_call() {
    let graph = project(&[
        (
            "util/Task.java",
            "package util;\n\npublic class Task<T> {\n    static final class Root<E> {\n        Root(int n) {}\n    }\n}\n",
        ),
        (
            "util/Pool.java",
            "package util;\n\npublic class Pool {\n    void submit() {\n        Task.Root<String> root = new Task.Root<String>(1);\n    }\n}\n",
        ),
    ]);
    assert_eq!(callers(&graph, "Task::Root", None), ["util/Pool.java:5 Pool::submit [likely]"]);
}

/// A project checked out at its package's directory (`java/util/concurrent` as the root): an
/// import of the package's class from a subpackage finds it by its `package` declaration.
#[test]
fn java_imports_find_a_package_by_its_declaration() {
    let graph = project(&[
        (
            "TimeUnit.java",
            "package java.util.concurrent;\n\npublic enum TimeUnit {\n    SECONDS;\n    public long toNanos(long d) {\n        \
             return d;\n    }\n}\n",
        ),
        (
            "locks/Lock.java",
            "package java.util.concurrent.locks;\n\nimport java.util.concurrent.TimeUnit;\n\npublic class Lock {\n    \
             boolean tryLock(long timeout, TimeUnit unit) {\n        return unit.toNanos(timeout) > 0;\n    }\n}\n",
        ),
    ]);
    assert_eq!(callers(&graph, "TimeUnit::toNanos", None), ["locks/Lock.java:7 Lock::tryLock [exact]"]);
}

/// `self` in a Python function nested in a method is the method's, which it closes over: its
/// methods and the types of its attributes.
#[test]
fn python_self_in_a_nested_function_is_the_methods() {
    let graph = project(&[(
        "nest.py",
        "class Store:\n    def n(self):\n        return 0\n\n\nclass C:\n    def __init__(self):\n        \
         self.store = Store()\n\n    def m(self):\n        def local():\n            self.store.n()\n            \
         return self.n()\n        return local()\n\n    def n(self):\n        return 1\n\n\nclass D:\n    \
         def n(self):\n        return 2\n",
    )]);
    assert_eq!(callers(&graph, "C.n", None), ["nest.py:13 m::local [exact]"]);
    assert_eq!(callers(&graph, "Store.n", None), ["nest.py:12 m::local [exact]"]);
}

/// `<[u8; 4] as Array>::size()` names the trait, in a macro's arguments too: the project's only
/// trait `Array` is certain, imported or not (smallvec's tests name it so). `Array::size()` may
/// be another type's, unless the file imports or defines it.
#[test]
fn rust_calls_written_with_the_trait_are_its_methods() {
    let graph = project(&[
        (
            "src/lib.rs",
            "pub unsafe trait Array {\n    fn size() -> usize;\n}\n\nunsafe impl<T, const N: usize> Array for [T; N] {\n    \
             fn size() -> usize {\n        N\n    }\n}\n\n#[cfg(test)]\nmod tests;\n",
        ),
        (
            "src/tests.rs",
            "#[test]\nfn array_size() {\n    assert_eq!(<[u8; 4] as Array>::size(), 4);\n    \
             let n = <[u8; 8] as Array>::size();\n    assert_eq!(Array::size(), n);\n}\n",
        ),
    ]);
    assert_eq!(
        callers(&graph, "Array::size", None),
        [
            "src/tests.rs:3 array_size [exact]",
            "src/tests.rs:4 array_size [exact]",
            "src/tests.rs:5 array_size [likely]"
        ]
    );
}

/// An object given a project module's members (express's `mixin(app, proto, false)`, `proto`
/// being `require('./application')`) has that module's methods: `app.handle()` is application.js's
/// `app.handle`, not one of every `handle`, though `app` was made as a function.
#[test]
fn javascript_objects_given_a_modules_members_call_them() {
    let graph = project(&[
        (
            "lib/application.js",
            "var app = exports = module.exports = {};\n\napp.init = function init() {\n  return 1;\n};\n\n\
             app.handle = function handle(req) {\n  return req;\n};\n",
        ),
        (
            "lib/router.js",
            "var proto = module.exports = {};\n\nproto.handle = function handle(req) {\n  return req;\n};\n",
        ),
        (
            "lib/express.js",
            "var mixin = require('merge-descriptors');\nvar proto = require('./application');\n\n\
             function createApplication() {\n  var app = function (req) {\n    app.handle(req);\n  };\n  \
             mixin(app, proto, false);\n  app.init();\n  return app;\n}\n\nfunction other(app) {\n  app.handle(1);\n}\n",
        ),
    ]);
    assert_eq!(callers(&graph, "app.handle", None), ["lib/express.js:6 createApplication [likely]"]);
    assert_eq!(callers(&graph, "app.init", None), ["lib/express.js:9 createApplication [likely]"]);
}

/// A function assigned to several members at once (express's `res.contentType = res.type =
/// function contentType(type)`) is one function under each name: asked about by any of them, its
/// callers are the calls through all of them, and a walk goes on from a caller under any name.
#[test]
fn javascript_functions_assigned_to_several_members_are_one_under_each_name() {
    let graph = project(&[(
        "lib/response.js",
        "var res = Object.create(null);\nmodule.exports = res;\n\nres.send = function send(body) {\n  \
         this.type('html');\n  return this;\n};\n\nres.json = function json(obj) {\n  this.contentType('json');\n  \
         return this.send(obj);\n};\n\nres.contentType =\nres.type = function contentType(type) {\n  \
         return this.set('Content-Type', type);\n};\n\nres.set =\nres.header = function header(field, val) {\n  \
         return this;\n};\n",
    )]);
    let sites = ["lib/response.js:5 res::send [exact]", "lib/response.js:10 res::json [exact]"];
    for symbol in ["contentType", "type", "res.type", "res::contentType"] {
        assert_eq!(callers(&graph, symbol, None), sites, "{symbol}");
    }
    let Lookup::Found(header) = graph.lookup("res.header", None) else { panic!("res.header") };
    let walk = graph.callers(&header, 2, 100, Interrupt::NEVER).unwrap();
    let reached: Vec<String> = walk.edges.iter().map(|e| format!("{} {}:{}", e.depth, e.file, e.line)).collect();
    assert_eq!(reached, ["1 lib/response.js:16", "2 lib/response.js:5", "2 lib/response.js:10"]);
}

/// A constructor that calls its base's through `super(…)` is one symbol with its class: the next
/// level of callers is the class's constructions (`new Circle(2)`, Java's `new User()`), as
/// impact's walk needs to reach the code that builds a subclass.
#[test]
fn callers_go_on_from_a_constructor_to_its_classs_constructions() {
    let graph = project(&[
        (
            "src/shape.ts",
            "export abstract class Base {\n  constructor(protected readonly label: string) {}\n}\n\
             export class Circle extends Base {\n  constructor(private r: number) { super(\"circle\"); }\n}\n",
        ),
        (
            "src/main.ts",
            "import { Circle } from \"./shape\";\nexport function run(): number {\n  const c = new Circle(2);\n  \
             return 1;\n}\n",
        ),
        ("Base.java", "package com.ex.pkg;\n\npublic class Base {\n    public Base(int k) {}\n}\n"),
        ("User.java", "package com.ex.pkg;\n\npublic class User extends Base {\n    public User() { super(3); }\n}\n"),
        (
            "UserTest.java",
            "package com.ex.pkg;\n\npublic class UserTest {\n    public void testUse() { new User(); }\n}\n",
        ),
    ]);
    let two_levels = |symbol: &str, file: &str| {
        let Lookup::Found(targets) = graph.lookup(symbol, Some(file)) else { panic!("{symbol}") };
        let walk = graph.callers(&targets, 2, 100, Interrupt::NEVER).unwrap();
        let edges = walk.edges.iter().map(|e| {
            let caller = e.caller.as_ref().map_or("<top>", |c| c.name.as_str());
            format!("{} {}:{} {caller}", e.depth, e.file, e.line)
        });
        edges.collect::<Vec<_>>()
    };
    assert_eq!(two_levels("Base", "src/shape.ts"), ["1 src/shape.ts:5 Circle::constructor", "2 src/main.ts:3 run"]);
    assert_eq!(two_levels("Base", "Base.java"), ["1 User.java:4 User::User", "2 UserTest.java:4 UserTest::testUse"]);
}

/// A walk past its first level looks up the callers' own calls, so what it cannot list of those
/// (a built-in method's name called on a value of unknown type) is said too, each name once.
#[test]
fn a_deeper_callers_walk_says_what_it_could_not_list_at_every_level() {
    let graph = project(&[(
        "shop/cache.py",
        "def load(key):\n    return key\n\nclass Store:\n    def get(self, key):\n        return load(key)\n\n\
         class Page:\n    def items(self):\n        return Store().get(1)\n\ndef show(page: Page):\n    \
         return page.items()\n",
    )]);
    let Lookup::Found(targets) = graph.lookup("load", None) else { panic!("load") };
    let one = graph.callers(&targets, 1, 100, Interrupt::NEVER).unwrap();
    assert_eq!(graph.unclaimed_calls(&one.expanded), None, "`load` is no method");
    let two = graph.callers(&targets, 2, 100, Interrupt::NEVER).unwrap();
    assert_eq!(
        graph.unclaimed_calls(&two.expanded).as_deref(),
        Some("calls of `.get()` on values of unknown type are not listed: built-in types have a `get` too")
    );
    let three = graph.callers(&targets, 3, 100, Interrupt::NEVER).unwrap();
    assert_eq!(three.edges.iter().map(|e| e.depth).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(
        graph.unclaimed_calls(&three.expanded).as_deref(),
        Some(
            "calls of `.get()`, `.items()` on values of unknown type are not listed: built-in types have methods of \
             these names too"
        )
    );
}

/// A deep walk may go on from many built-in-named methods: the note names eight and counts the rest.
#[test]
fn the_note_on_unlisted_calls_names_eight_methods_and_counts_the_rest() {
    let names = ["append", "clear", "copy", "get", "items", "keys", "pop", "split", "update", "values"];
    let methods: String = names.iter().map(|name| format!("    def {name}(self):\n        return 1\n")).collect();
    let graph = project(&[("shop/bag.py", &format!("class Bag:\n{methods}"))]);
    let ids: Vec<DefId> = names
        .iter()
        .flat_map(|name| match graph.lookup(&format!("Bag.{name}"), None) {
            Lookup::Found(ids) => ids,
            other => panic!("Bag.{name}: {other:?}"),
        })
        .collect();
    assert_eq!(
        graph.unclaimed_calls(&ids).as_deref(),
        Some(
            "calls of `.append()`, `.clear()`, `.copy()`, `.get()`, `.items()`, `.keys()`, `.pop()`, `.split()` and 2 \
             more on values of unknown type are not listed: built-in types have methods of these names too"
        )
    );
}

/// A closure's parameter over the elements of a generic `T: Shape` collection
/// (`items.iter().map(|s| s.area())` with `items: &[T]`) is a `T`, bounded by `Shape`, as a
/// parameter written `s: &T` is: its call is of `Shape`'s `area`.
#[test]
fn rust_closure_parameters_over_a_generic_collection_are_of_its_bounds() {
    let graph = project(&[(
        "src/lib.rs",
        "pub trait Shape {\n    fn area(&self) -> f64;\n}\n\npub struct Circle { pub r: f64 }\n\n\
         impl Shape for Circle {\n    fn area(&self) -> f64 { self.r }\n}\n\n\
         pub fn total<T: Shape>(items: &[T]) -> f64 {\n    items.iter().map(|s| s.area()).sum()\n}\n\n\
         pub fn first<T>(items: Vec<T>) -> f64 where T: Shape {\n    items.into_iter().map(|s| s.area()).sum()\n}\n",
    )]);
    assert_eq!(callers(&graph, "Shape::area", None), ["src/lib.rs:12 total [exact]", "src/lib.rs:16 first [exact]"]);
}

/// A trace goes on through a function assigned to several members under any of its names:
/// `res.send` calls `this.type()`, whose body (written once, for `res.contentType` too) calls
/// `this.set()`.
#[test]
fn a_trace_goes_through_a_function_assigned_to_several_members() {
    let graph = project(&[(
        "lib/response.js",
        "var res = Object.create(null);\nmodule.exports = res;\n\nres.send = function send(body) {\n  \
         this.type('html');\n  return this;\n};\n\nres.contentType =\nres.type = function contentType(type) {\n  \
         return this.set('Content-Type', type);\n};\n\nres.set = function set(field, val) {\n  return this;\n};\n",
    )]);
    let Lookup::Found(send) = graph.lookup("res.send", None) else { panic!("res.send") };
    let Lookup::Found(set) = graph.lookup("res.set", None) else { panic!("res.set") };
    let path =
        graph.trace(&send, &set, 5, &|_| true, Interrupt::NEVER).unwrap().expect("send reaches set through type");
    let hops: Vec<String> = path
        .iter()
        .map(|e| format!("{}:{} {} -> {}", e.file, e.line, e.caller.as_ref().expect("caller").name, e.callee.name))
        .collect();
    assert_eq!(
        hops,
        ["lib/response.js:5 res::send -> res::contentType", "lib/response.js:11 res::contentType -> res::set"]
    );
}

/// A name a module gives one of its functions or imports by assignment or an export list is a
/// way to call it: attrs' `ib = attr = attrib` in `attr/__init__.py` (its tests call `attr.ib()`
/// 450 times) and `export { internalTwo as publicTwo }` were followed by no caller (a QA pass),
/// and such calls were counted as a library's.
#[test]
fn calls_through_a_module_s_aliases_reach_the_function() {
    let graph = project(&[
        ("attr/_make.py", "def attrib(default=None):\n    return default\n"),
        ("attr/__init__.py", "from ._make import attrib\n\nib = attr = attrib\n"),
        ("tests/test_make.py", "import attr\n\n\ndef test_default():\n    attr.ib()\n    attr.attrib()\n"),
        ("src/util.ts", "function internalTwo(): number {\n  return 2;\n}\nexport { internalTwo as publicTwo };\n"),
        (
            "src/main.ts",
            "import { publicTwo as p2 } from './util';\n\nexport function run(): number {\n  return p2();\n}\n",
        ),
    ]);
    assert_eq!(
        callers(&graph, "attrib", None),
        ["tests/test_make.py:5 test_default [exact]", "tests/test_make.py:6 test_default [exact]"]
    );
    assert_eq!(callers(&graph, "internalTwo", None), ["src/main.ts:4 run [exact]"]);
}

/// QA: `import json` in a package was taken for the package's own `json.py` (Python 3 resolves an
/// absolute import from sys.path, never from the importing package), giving `exact` callers of a
/// function they never call, importers and tests it does not have. A module is found from an
/// import root only: a directory that is no package.
#[test]
fn an_absolute_python_import_is_not_a_packages_namesake() {
    let graph = project(&[
        ("src/pkg/__init__.py", ""),
        ("src/pkg/json.py", "def loads(s):\n    return s\n"),
        ("src/pkg/user.py", "import json\n\n\ndef go():\n    return json.loads('1')\n"),
        ("src/pkg/mine.py", "import pkg.json\n\n\ndef own():\n    return pkg.json.loads('1')\n"),
        ("tests/test_other.py", "from json import loads\n\n\ndef test_x():\n    loads('1')\n"),
    ]);
    let files = graph.file_graph();
    assert_eq!(files.importers_of("src/pkg/json.py").collect::<Vec<_>>(), ["src/pkg/mine.py"]);
    assert_eq!(callers(&graph, "loads", None), ["src/pkg/mine.py:5 own [exact]"]);
}

/// QA: an import inside a function (deferred against a cycle) was not read, so the function
/// called "names it does not define" and the module it imports had no importer, callers nor
/// tests: `impact` answered "dependents: none".
#[test]
fn an_import_inside_a_python_function_is_the_files() {
    let graph = project(&[
        ("pkg/__init__.py", ""),
        ("pkg/dbg.py", "def helper():\n    return 1\n"),
        ("pkg/core.py", "def run():\n    from .dbg import helper\n    return helper()\n"),
        ("test_core.py", "def test_run():\n    from pkg.core import run\n    assert run() == 1\n"),
    ]);
    assert_eq!(callers(&graph, "helper", None), ["pkg/core.py:3 run [exact]"]);
    assert_eq!(callers(&graph, "run", None), ["test_core.py:3 test_run [exact]"]);
    let files = graph.file_graph();
    assert_eq!(files.importers_of("pkg/dbg.py").collect::<Vec<_>>(), ["pkg/core.py"]);
}
