//! Golden tests of the file-level graph per language: every fixture file's project imports,
//! importers and linked tests (with how each test was linked), plus neighbours, dependents and
//! import paths on real-shaped projects.
//!
//! `UPDATE_GOLDEN=1 cargo test -p lean-ctx-graph --test related` rewrites the expected files;
//! review the diff before committing it.

use std::fmt::Write as _;

use lean_ctx_graph::{Direction, Graph};

mod fixture;

use fixture::{build, fixture_dir};

/// One block per file: what it imports, what imports it, its tests or (for a test) what it tests.
fn render_related(graph: &Graph) -> String {
    let files = graph.file_graph();
    let links = graph.test_links();
    let mut out = String::new();
    for (file, entry) in graph.files() {
        let list = |items: Vec<String>| if items.is_empty() { "-".to_string() } else { items.join(", ") };
        let imports = list(files.imports_of(file).cloned().collect());
        let importers = list(files.importers_of(file).cloned().collect());
        let linked = |(f, how): (&String, lean_ctx_graph::LinkHows)| {
            let how: Vec<&str> = how.iter().map(|h| h.name()).collect();
            format!("{f} ({})", how.join("+"))
        };
        writeln!(out, "{file}\n  imports: {imports}\n  importers: {importers}").unwrap();
        if graph.is_test(file, &entry.facts.language) {
            writeln!(out, "  tests: {}", list(links.sources_of(file).map(linked).collect())).unwrap();
        } else {
            writeln!(out, "  tested by: {}", list(links.tests_of(file).map(linked).collect())).unwrap();
        }
    }
    out
}

fn check_golden(name: &str) -> Graph {
    let graph = build(name);
    let actual = render_related(&graph);
    let expected_path = fixture_dir(&format!("{name}.related"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&expected_path, &actual).expect("write golden");
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    assert_eq!(actual, expected, "{name}: file links differ from {}", expected_path.display());
    graph
}

fn tests_of(graph: &Graph, file: &str) -> Vec<String> {
    graph.test_links().tests_of(file).map(|(t, _)| t.clone()).collect()
}

#[test]
fn rust_related() {
    let graph = check_golden("rust");
    let files = graph.file_graph();
    // `mod util;` in lib.rs, `use crate::util::{self, …}` in store.rs and `use crate::util;` in checks.rs.
    assert_eq!(files.importers_of("src/util.rs").collect::<Vec<_>>(), ["src/checks.rs", "src/lib.rs", "src/store.rs"]);
    // `pub mod store;`, `pub use store::Store as Db`, `mod checks;` and `mod generic;`.
    assert_eq!(
        files.imports_of("src/lib.rs").collect::<Vec<_>>(),
        ["src/checks.rs", "src/generic.rs", "src/store.rs", "src/util.rs"]
    );
    assert_eq!(tests_of(&graph, "src/store.rs"), ["tests/store.rs"]);
    // Linked through `use kv::…`, the `[lib] name`; the helper beside the test is no test.
    assert_eq!(tests_of(&graph, "src/lib.rs"), ["tests/store.rs"]);
    assert!(!graph.is_test("tests/common/mod.rs", "rust"));
    // `mod common;` in the test, a crate root, includes `tests/common/mod.rs`: a change to the
    // helper runs the test.
    assert_eq!(tests_of(&graph, "tests/common/mod.rs"), ["tests/store.rs"]);
}

#[test]
fn rust_nested_crate_related() {
    // A crate whose directory is under a `src/` of the workspace's, as rust-lang/rust's
    // `src/tools/*`: its manifest makes `tests/` its test directory.
    let graph = check_golden("rust_workspace");
    let krate = "src/tools/mytool";
    assert!(graph.is_test(&format!("{krate}/tests/cli.rs"), "rust"));
    assert!(!graph.is_test(&format!("{krate}/tests/common/mod.rs"), "rust"));
    // `mod common;` in the test includes the helper (which calls `mytool::make`): a change to the
    // helper, or through it to the library, runs `tests/cli.rs`.
    let cli = format!("{krate}/tests/cli.rs");
    let common = format!("{krate}/tests/common/mod.rs");
    assert_eq!(graph.file_graph().imports_of(&cli).collect::<Vec<_>>(), [&common]);
    assert_eq!(tests_of(&graph, &common), [cli]);
}

#[test]
fn python_related() {
    let graph = check_golden("python");
    assert_eq!(tests_of(&graph, "shop/pricing.py"), ["tests/test_pricing.py"]);
    // `test_auth.py` tests `auth.py`, not its private namesake `_auth.py` beside it.
    assert_eq!(tests_of(&graph, "shop/auth.py"), ["tests/test_auth.py"]);
    assert_eq!(tests_of(&graph, "shop/_auth.py"), Vec::<String>::new());
    // Linked by import only: it tests the service through `make_service`.
    assert_eq!(tests_of(&graph, "shop/service.py"), ["tests/test_service.py"]);
    let files = graph.file_graph();
    let path = files.path("app.py", "shop/pricing.py", 5, &|_| true).expect("app reaches pricing");
    let steps: Vec<String> = path.iter().map(|s| format!("{} {} {}", s.from, s.direction.name(), s.to)).collect();
    assert_eq!(steps.len(), 2, "{steps:?}");
    assert_eq!(steps.last().map(String::as_str), Some("shop/service.py imports shop/pricing.py"));
    // A path goes only through the files it may: without the service, through none of its.
    let around = files.path("app.py", "shop/pricing.py", 5, &|file| file != "shop/service.py");
    assert!(around.iter().flatten().all(|s| s.from != "shop/service.py" && s.to != "shop/service.py"), "{around:?}");
    // Dependents of pricing: the service imports it, then the package, the app and the tests.
    let dependents: Vec<(String, u32)> =
        files.dependents(&["shop/pricing.py".to_string()], 2).into_iter().map(|r| (r.file, r.depth)).collect();
    assert!(dependents.contains(&("shop/service.py".to_string(), 1)), "{dependents:?}");
    assert!(dependents.contains(&("tests/test_pricing.py".to_string(), 1)), "{dependents:?}");
    assert!(dependents.contains(&("app.py".to_string(), 2)), "{dependents:?}");
}

#[test]
fn typescript_related() {
    let graph = check_golden("typescript");
    assert_eq!(tests_of(&graph, "src/store/codec.ts"), ["src/store/codec.test.ts"]);
    let files = graph.file_graph();
    let near = files.neighbors("src/store/index.ts", 1);
    let shown: Vec<String> = near.iter().map(|r| format!("{} {}", r.direction.name(), r.file)).collect();
    assert_eq!(
        shown,
        ["imported by src/app.ts", "imports src/store/codec.ts", "imports src/store/memory.ts"],
        "one step either way"
    );
    let two = files.neighbors("src/app.ts", 2);
    assert!(two.iter().any(|r| r.file == "src/store/codec.ts" && r.depth == 2 && r.direction == Direction::Imports));
}

#[test]
fn javascript_related() {
    let graph = check_golden("javascript");
    assert_eq!(tests_of(&graph, "src/App.jsx"), ["src/__tests__/App.test.jsx"]);
}

#[test]
fn commonjs_related() {
    let graph = check_golden("commonjs");
    let files = graph.file_graph();
    // `require('./util')` is an import; `require('./lib/util')` names lib/util/index.js.
    assert_eq!(
        files.importers_of("util.js").collect::<Vec<_>>(),
        ["main.js", "other.js", "test/util.test.js", "tsconsumer.ts"]
    );
    assert_eq!(files.importers_of("lib/util/index.js").collect::<Vec<_>>(), ["lib/types.js", "main.js", "other.js"]);
    // Re-exported whole: `__exportStar(require("./helpers/parseUtil"), exports)` and
    // `module.exports = require('./lib')`.
    assert_eq!(files.importers_of("lib/helpers/parseUtil.js").collect::<Vec<_>>(), ["lib/index.js", "lib/types.js"]);
    assert_eq!(files.importers_of("lib/index.js").collect::<Vec<_>>(), ["index.js"]);
    assert_eq!(tests_of(&graph, "util.js"), ["test/util.test.js"]);
}

#[test]
fn go_related() {
    let graph = check_golden("go");
    // By name in the same package; the package's other file is tested through it only by name.
    assert_eq!(tests_of(&graph, "internal/store/store.go"), ["internal/store/store_test.go"]);
    // An import names the whole package.
    let files = graph.file_graph();
    let imported: Vec<&String> = files.imports_of("cmd/shop/main.go").collect();
    assert!(imported.iter().any(|f| f.ends_with("normalize.go")), "{imported:?}");
    assert!(imported.iter().any(|f| f.ends_with("store/store.go")), "{imported:?}");
    // Within the package, a file imports the files whose definitions it names.
    let own: Vec<&String> = files.imports_of("internal/store/open.go").collect();
    assert_eq!(own, ["internal/store/store.go"]);
}

#[test]
fn java_related() {
    let graph = check_golden("java");
    assert_eq!(
        tests_of(&graph, "src/main/java/com/acme/orders/Order.java"),
        ["src/test/java/com/acme/orders/OrderTest.java"]
    );
    let files = graph.file_graph();
    let from = "src/main/java/com/acme/app/OrderService.java";
    assert!(files.imports_of(from).any(|f| f == "src/main/java/com/acme/orders/Order.java"));
    assert!(files.path(from, "src/main/java/com/acme/orders/Repository.java", 1, &|_| true).is_some());
    assert!(files.path("src/main/java/com/acme/orders/Order.java", "no/such/File.java", 12, &|_| true).is_none());
    // The same package needs no import: its files that name `Order` depend on it all the same,
    // and a change to it reaches them (and the tests of what they are).
    let dependents: Vec<String> = files
        .dependents(&["src/main/java/com/acme/orders/Order.java".to_string()], 1)
        .into_iter()
        .map(|r| r.file)
        .collect();
    assert_eq!(
        dependents,
        [
            "src/main/java/com/acme/app/OrderService.java",
            "src/main/java/com/acme/orders/MemoryRepository.java",
            "src/main/java/com/acme/orders/Repository.java",
            "src/test/java/com/acme/orders/OrderTest.java"
        ]
    );
}

/// The same-package uses are worked out once per version of the graph: a file added, changed or
/// removed after a question is in the next one's answer.
#[test]
fn same_package_uses_follow_every_change() {
    let mut graph = build("java");
    let order = "src/main/java/com/acme/orders/Order.java";
    let user = "src/main/java/com/acme/orders/Invoice.java";
    let importers = |graph: &Graph| graph.file_graph().importers_of(order).cloned().collect::<Vec<_>>();
    let before = importers(&graph);
    assert!(!before.iter().any(|f| f == user), "{before:?}");
    let text = "package com.acme.orders;\n\npublic class Invoice {\n    Order order = new Order();\n}\n";
    let facts = lean_ctx_graph::extract(lean_ctx_outline::Language::Java, text);
    graph.upsert(user, lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
    assert!(importers(&graph).iter().any(|f| f == user), "a new user of Order depends on it");
    let facts =
        lean_ctx_graph::extract(lean_ctx_outline::Language::Java, "package com.acme.orders;\n\nclass Invoice {}\n");
    graph.upsert(user, lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
    assert_eq!(importers(&graph), before, "it no longer names Order");
    graph.remove("src/main/java/com/acme/orders/Repository.java");
    assert_eq!(importers(&graph).len(), before.len() - 1);
}

/// The file graph is worked out once per version of the graph and kept: asked again, it is the
/// one already made; a Go file added to a package, then removed, is imported through the package
/// in the next answer and then no longer.
#[test]
fn the_file_graph_is_kept_until_the_graph_changes() {
    let mut graph = build("go");
    let first: *const lean_ctx_graph::FileGraph = graph.file_graph();
    assert!(std::ptr::eq(first, graph.file_graph()), "a second question does not build it again");
    let main = "cmd/shop/main.go";
    let added = "internal/store/extra.go";
    let facts = lean_ctx_graph::extract(lean_ctx_outline::Language::Go, "package store\n\nfunc Extra() {}\n");
    graph.upsert(added, lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
    assert!(graph.file_graph().imports_of(main).any(|f| f == added), "the package's new file is imported");
    assert_eq!(graph.file_graph().importers_of(added).collect::<Vec<_>>(), [main]);
    graph.remove(added);
    assert!(!graph.file_graph().imports_of(main).any(|f| f == added));
    assert_eq!(graph.file_graph().importers_of(added).count(), 0, "a file not in the graph has no edges");
}

/// The test links are made once per version of the graph and kept like the file graph: a test
/// added to a package links to what it names and imports in the next answer, and not once it is
/// removed.
#[test]
fn the_test_links_are_kept_until_the_graph_changes() {
    let mut graph = build("go");
    let first: *const lean_ctx_graph::TestLinks = graph.test_links();
    assert!(std::ptr::eq(first, graph.test_links()), "a second question does not link them again");
    let test = "internal/store/normalize_test.go";
    let text = "package store\n\nimport \"testing\"\n\nfunc TestNormalize(t *testing.T) { normalize(\"\") }\n";
    let facts = lean_ctx_graph::extract(lean_ctx_outline::Language::Go, text);
    graph.upsert(test, lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
    let linked: Vec<(String, Vec<&str>)> = graph
        .test_links()
        .sources_of(test)
        .map(|(source, hows)| (source.clone(), hows.iter().map(|how| how.name()).collect()))
        .collect();
    assert_eq!(linked, [("internal/store/normalize.go".to_string(), vec!["name", "import"])]);
    assert!(tests_of(&graph, "internal/store/normalize.go").iter().any(|t| t == test));
    graph.remove(test);
    assert!(!tests_of(&graph, "internal/store/normalize.go").iter().any(|t| t == test));
    assert_eq!(graph.test_links().sources_of(test).count(), 0, "a file not in the graph has no links");
}

#[test]
fn uses_of_a_symbol_and_closest_files() {
    let graph = build("python");
    let lean_ctx_graph::Lookup::Found(targets) = graph.lookup("Repository", None) else { panic!("Repository") };
    let uses: Vec<String> = graph
        .uses(&targets, lean_ctx_graph::Interrupt::NEVER)
        .unwrap()
        .iter()
        .map(|u| format!("{}:{} {} [{}]", u.file, u.line, u.kind.name(), u.label.name()))
        .collect();
    // Constructed under its alias, and named as a type in the service's signature.
    assert!(uses.contains(&"shop/service.py:25 call [exact]".to_string()), "{uses:?}");
    // Whoever asked has gone: the search for uses stops rather than running on for nobody.
    let gone = || true;
    let stopped = graph.uses(&targets, lean_ctx_graph::Interrupt::new(&gone));
    assert_eq!(stopped.err(), Some(lean_ctx_graph::Interrupted));
    assert_eq!(graph.closest_files("shop/pricng.py"), ["shop/pricing.py"]);
    assert_eq!(graph.closest_files("model.py"), ["shop/models.py"]);
    assert!(graph.closest_files("zzz/nothing_like_it.go").is_empty());
}

/// A test target a manifest declares with its path (`[[test]]`) is a test wherever it is, and
/// the helper beside it is not.
#[test]
fn a_manifests_test_targets_are_tests() {
    let mut graph = Graph::new();
    let manifest = "[package]\nname = \"kv\"\nautotests = false\n\n[[test]]\nname = \"suite\"\npath = \
                    \"tests/suite/all.rs\"\n";
    graph.set_js_modules(lean_ctx_graph::JsModules::read(["Cargo.toml"], |_| Some(manifest.to_string())));
    let add = |graph: &mut Graph, path: &str, text: &str| {
        let facts = lean_ctx_graph::extract(lean_ctx_outline::Language::Rust, text);
        graph.upsert(path, lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
    };
    add(&mut graph, "src/lib.rs", "pub fn open() -> u32 {\n    0\n}\n");
    add(&mut graph, "tests/suite/all.rs", "use kv::open;\n\n#[test]\nfn opens() {\n    open();\n}\n");
    add(&mut graph, "tests/suite/helpers.rs", "use kv::open;\n\npub fn fresh() -> u32 {\n    open()\n}\n");
    assert!(graph.is_test("tests/suite/all.rs", "rust"));
    assert!(!graph.is_test("tests/suite/helpers.rs", "rust"));
    assert_eq!(tests_of(&graph, "src/lib.rs"), ["tests/suite/all.rs"]);
}

/// QA: semver's `tests/test_autotrait.rs` names the crate's items only by path (`semver::Op`), with
/// no `use`: it was no dependent of `src/lib.rs`, and not among its tests to run. A method call on
/// a value (`v.len()`) names no module.
#[test]
fn a_rust_path_naming_the_crate_is_a_dependency_without_a_use() {
    let mut graph = Graph::new();
    let manifest = "[package]\nname = \"kv\"\n";
    graph.set_js_modules(lean_ctx_graph::JsModules::read(["Cargo.toml"], |_| Some(manifest.to_string())));
    let add = |graph: &mut Graph, path: &str, text: &str| {
        let facts = lean_ctx_graph::extract(lean_ctx_outline::Language::Rust, text);
        graph.upsert(path, lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
    };
    add(&mut graph, "src/lib.rs", "pub mod util;\npub struct Store;\npub fn open() -> Store {\n    Store\n}\n");
    add(&mut graph, "src/util.rs", "pub fn helper() -> u8 {\n    1\n}\n");
    add(&mut graph, "src/cli.rs", "pub fn run(v: Vec<u8>) -> usize {\n    crate::util::helper();\n    v.len()\n}\n");
    add(&mut graph, "tests/typed.rs", "#[test]\nfn typed() {\n    let _s: kv::Store = kv::open();\n}\n");
    add(&mut graph, "tests/deep.rs", "#[test]\nfn deep() {\n    assert_eq!(kv::util::helper(), 1);\n}\n");
    let imports = |file: &str| graph.file_graph().imports_of(file).cloned().collect::<Vec<_>>();
    assert_eq!(imports("tests/typed.rs"), ["src/lib.rs"]);
    assert_eq!(imports("tests/deep.rs"), ["src/util.rs"]);
    assert_eq!(imports("src/cli.rs"), ["src/util.rs"]);
    assert_eq!(tests_of(&graph, "src/lib.rs"), ["tests/typed.rs"]);
    assert_eq!(tests_of(&graph, "src/util.rs"), ["tests/deep.rs"]);
}

/// With `autotests = false` Cargo builds only the `[[test]]` entries: `tests/loose.rs` is then a
/// module a target includes, not a test to run, and its `mod inner;` is below it. A `[[test]]`
/// at a path of its own is a crate root: its `mod helpers;` is beside it, as rustc reads it.
#[test]
fn without_autotests_only_declared_test_targets_are_tests_and_crate_roots() {
    let mut graph = Graph::new();
    let manifest = "[package]\nname = \"kv\"\nautotests = false\n\n[[test]]\nname = \"suite\"\npath = \
                    \"tests/suite/all.rs\"\n\n[[test]]\nname = \"plain\"\n";
    graph.set_js_modules(lean_ctx_graph::JsModules::read(["Cargo.toml"], |_| Some(manifest.to_string())));
    let add = |graph: &mut Graph, path: &str, text: &str| {
        let facts = lean_ctx_graph::extract(lean_ctx_outline::Language::Rust, text);
        graph.upsert(path, lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
    };
    add(&mut graph, "src/lib.rs", "pub fn open() -> u32 {\n    0\n}\n");
    add(&mut graph, "tests/suite/all.rs", "mod helpers;\n\n#[test]\nfn opens() {\n    helpers::fresh();\n}\n");
    add(&mut graph, "tests/suite/helpers.rs", "use kv::open;\n\npub fn fresh() -> u32 {\n    open()\n}\n");
    add(&mut graph, "tests/plain.rs", "mod loose;\n\n#[test]\nfn plain() {}\n");
    add(&mut graph, "tests/loose.rs", "mod inner;\n");
    add(&mut graph, "tests/loose/inner.rs", "use kv::open;\n\npub fn again() -> u32 {\n    open()\n}\n");
    add(&mut graph, "tests/inner.rs", "pub fn other() {}\n");
    assert!(graph.is_test("tests/suite/all.rs", "rust"));
    assert!(graph.is_test("tests/plain.rs", "rust"), "a [[test]] without a path is at tests/NAME.rs");
    assert!(!graph.is_test("tests/loose.rs", "rust"), "no test target: autotests = false");
    let files = graph.file_graph();
    assert_eq!(files.imports_of("tests/suite/all.rs").collect::<Vec<_>>(), ["tests/suite/helpers.rs"]);
    assert_eq!(files.imports_of("tests/loose.rs").collect::<Vec<_>>(), ["tests/loose/inner.rs"]);
    // A change to a module a target includes runs that target.
    assert_eq!(tests_of(&graph, "tests/suite/helpers.rs"), ["tests/suite/all.rs"]);
    assert_eq!(tests_of(&graph, "tests/loose.rs"), ["tests/plain.rs"]);
}

/// `autoexamples`, `autobenches` and `autobins = false` do for their kinds what `autotests =
/// false` does for tests: a file in `examples/`, `benches/` or `src/bin/` that no entry declares is
/// a module (its `mod x;` is below it), and a declared target is a crate root wherever it is.
#[test]
fn without_auto_discovery_only_declared_examples_benches_and_bins_are_crate_roots() {
    let manifest = "[package]\nname = \"kv\"\nautoexamples = false\nautobenches = false\nautobins = false\n\n\
                    [[example]]\nname = \"tour\"\npath = \"examples/tour/start.rs\"\n\n[[bench]]\nname = \
                    \"speed\"\n\n[[bin]]\nname = \"tool\"\n";
    let mut graph = Graph::new();
    graph.set_js_modules(lean_ctx_graph::JsModules::read(["Cargo.toml"], |_| Some(manifest.to_string())));
    let add = |graph: &mut Graph, path: &str, text: &str| {
        let facts = lean_ctx_graph::extract(lean_ctx_outline::Language::Rust, text);
        graph.upsert(path, lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
    };
    add(&mut graph, "src/lib.rs", "pub fn open() {}\n");
    for kind in ["examples", "benches", "src/bin"] {
        for module in ["helper.rs", "loose/helper.rs"] {
            add(&mut graph, &format!("{kind}/{module}"), "pub fn help() {}\n");
        }
        add(&mut graph, &format!("{kind}/loose.rs"), "mod helper;\n");
    }
    add(&mut graph, "examples/tour/start.rs", "mod steps;\n");
    add(&mut graph, "examples/tour/steps.rs", "pub fn step() {}\n");
    add(&mut graph, "benches/speed.rs", "mod helper;\n");
    add(&mut graph, "src/bin/tool.rs", "mod helper;\n");
    let imports = |file: &str| graph.file_graph().imports_of(file).cloned().collect::<Vec<_>>();
    for kind in ["examples", "benches", "src/bin"] {
        let loose = format!("{kind}/loose.rs");
        assert_eq!(imports(&loose), [format!("{kind}/loose/helper.rs")], "{loose} is no target, so a module");
    }
    assert_eq!(imports("examples/tour/start.rs"), ["examples/tour/steps.rs"], "declared by path");
    assert_eq!(imports("benches/speed.rs"), ["benches/helper.rs"], "declared at benches/NAME.rs");
    assert_eq!(imports("src/bin/tool.rs"), ["src/bin/helper.rs"], "declared at src/bin/NAME.rs");
}

/// The file graph is worked out on first need after a change, resolving every Go and Java
/// file's references to its package: a question whose caller left stops it, and keeps nothing
/// half made.
#[test]
fn an_interrupted_file_graph_is_not_kept() {
    let graph = build("java");
    let gone = || true;
    assert_eq!(graph.file_graph_within(lean_ctx_graph::Interrupt::new(&gone)).err(), Some(lean_ctx_graph::Interrupted));
    let files = graph.file_graph_within(lean_ctx_graph::Interrupt::NEVER).unwrap();
    assert_eq!(
        files.imports_of("src/main/java/com/acme/app/Outbox.java").collect::<Vec<_>>(),
        ["src/main/java/com/acme/app/Spool.java"]
    );
}

/// Cargo finds binaries in a package's own `src/bin/`, beside its manifest: one in a member
/// crate's is a crate root (its `mod x;` is beside it), one in a directory of another crate that
/// merely ends in `src/bin` (a sample project kept as data) is a module like any other.
#[test]
fn only_a_packages_own_src_bin_holds_binaries() {
    let manifests = |path: &str| {
        Some(match path {
            "Cargo.toml" => "[package]\nname = \"kv\"\n".to_string(),
            _ => "[package]\nname = \"kv-cli\"\n".to_string(),
        })
    };
    let mut graph = Graph::new();
    graph.set_js_modules(lean_ctx_graph::JsModules::read(["Cargo.toml", "cli/Cargo.toml"], manifests));
    let add = |graph: &mut Graph, path: &str, text: &str| {
        let facts = lean_ctx_graph::extract(lean_ctx_outline::Language::Rust, text);
        graph.upsert(path, lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
    };
    for dir in ["cli/src/bin", "samples/app/src/bin"] {
        add(&mut graph, &format!("{dir}/run.rs"), "mod args;\n");
        add(&mut graph, &format!("{dir}/args.rs"), "pub fn parse() {}\n");
        add(&mut graph, &format!("{dir}/run/args.rs"), "pub fn parse() {}\n");
    }
    let imports = |file: &str| graph.file_graph().imports_of(file).cloned().collect::<Vec<_>>();
    assert_eq!(imports("cli/src/bin/run.rs"), ["cli/src/bin/args.rs"]);
    assert_eq!(imports("samples/app/src/bin/run.rs"), ["samples/app/src/bin/run/args.rs"]);
}

#[test]
fn crate_paths_stay_in_their_own_crate() {
    let mut graph = Graph::new();
    let add = |graph: &mut Graph, path: &str, text: &str| {
        let facts = lean_ctx_graph::extract(lean_ctx_outline::Language::Rust, text);
        graph.upsert(path, lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
    };
    add(&mut graph, "graph/src/graph.rs", "pub struct Graph;\n");
    add(&mut graph, "graph/src/walk.rs", "use crate::graph::Graph;\n\npub fn walk(_: &Graph) {}\n");
    add(&mut graph, "daemon/src/engine/graph/mod.rs", "pub struct CodeGraph;\n");
    add(&mut graph, "tests/tests/graph.rs", "#[test]\nfn t() {}\n");
    let files = graph.file_graph();
    assert_eq!(files.imports_of("graph/src/walk.rs").collect::<Vec<_>>(), ["graph/src/graph.rs"]);
}

fn add_file(graph: &mut Graph, language: lean_ctx_outline::Language, path: &str, text: &str) {
    let facts = lean_ctx_graph::extract(language, text);
    graph.upsert(path, lean_ctx_graph::FileEntry { stamp: lean_ctx_graph::Stamp::default(), facts });
}

/// A test package mirrors the sources' layout (`tests/client/` for `pkg/_client.py`): its
/// `__init__.py` is named for the directory, like the source, but is part of the tests, not what
/// `tests/client/test_client.py` tests.
#[test]
fn a_test_package_is_not_the_source_its_tests_test() {
    use lean_ctx_outline::Language::Python;
    let mut graph = Graph::new();
    add_file(&mut graph, Python, "pkg/__init__.py", "");
    add_file(&mut graph, Python, "pkg/_client.py", "class Client:\n    pass\n");
    add_file(&mut graph, Python, "tests/__init__.py", "");
    add_file(&mut graph, Python, "tests/client/__init__.py", "");
    add_file(&mut graph, Python, "tests/client/test_client.py", "def test_client():\n    pass\n");
    let sources: Vec<String> =
        graph.test_links().sources_of("tests/client/test_client.py").map(|(s, _)| s.clone()).collect();
    assert_eq!(sources, ["pkg/_client.py"]);
    assert_eq!(tests_of(&graph, "pkg/_client.py"), ["tests/client/test_client.py"]);
}

/// `#[cfg(test)] mod tests;` in lib.rs: `src/tests.rs` is a module of the crate root, whose
/// `use super::*` imports lib.rs, so it tests lib.rs and its calls of lib.rs's functions are
/// lib.rs's.
#[test]
fn a_crate_roots_out_of_line_test_module_tests_the_root() {
    use lean_ctx_outline::Language::Rust;
    let mut graph = Graph::new();
    add_file(
        &mut graph,
        Rust,
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests;\n",
    );
    add_file(&mut graph, Rust, "src/add.rs", "pub fn add(a: i32) -> i32 { a }\n");
    add_file(&mut graph, Rust, "src/tests.rs", "use super::*;\n#[test]\nfn t() { assert_eq!(add(1, 2), 3); }\n");
    assert!(graph.is_test("src/tests.rs", "rust"));
    assert_eq!(tests_of(&graph, "src/lib.rs"), ["src/tests.rs"]);
    let facts = &graph.file("src/tests.rs").unwrap().facts;
    let call = facts.refs.iter().position(|r| r.name == "add").unwrap();
    let resolved = graph.resolve("src/tests.rs", call as u32).unwrap();
    assert_eq!(resolved.label, lean_ctx_graph::Label::Exact);
    assert_eq!(resolved.targets.iter().map(|id| id.file.as_str()).collect::<Vec<_>>(), ["src/lib.rs"]);
}
