//! Test ↔ source links. A file is a test by its language's convention (Rust: Cargo's integration
//! test targets `tests/x.rs` and `tests/x/main.rs` unless the manifest says `autotests = false`,
//! and those a manifest's `[[test]]` declares, not the helpers they include beside them, and `*_test.rs`, `tests.rs`; Python `test_*.py`, `*_test.py` — pytest's default patterns — and a
//! package's `tests.py` (Django's), not a helper or a fixture app beside them in `tests/`; Go
//! `*_test.go`;
//! JS/TS `*.test.*`, `*.spec.*`, `__tests__/`; Java `src/test/…`, `*Test.java`, `*Tests.java`,
//! `*IT.java`). It is linked to a source file by name (the test's name with the test marks
//! taken off, the nearest such source when several have that name; Go: in the same directory) and
//! by import (every non-test project file it imports).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use lean_ctx_outline::Language;

use crate::file_ids::FileIds;
use crate::graph::{Graph, language_family};
use crate::modules::{self, RustPlace};
use crate::related::FileGraph;

/// Why a test is linked to a source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LinkHow {
    /// The test's name is the source's with a test mark (`test_models.py` → `models.py`).
    Name,
    /// The test imports the source.
    Import,
}

impl LinkHow {
    pub fn name(self) -> &'static str {
        match self {
            LinkHow::Name => "name",
            LinkHow::Import => "import",
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The ways one test and one source are linked: a set of [`LinkHow`] in a byte, since a
/// project's links are kept by the hundred thousand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LinkHows(u8);

impl LinkHows {
    fn with(self, how: LinkHow) -> LinkHows {
        LinkHows(self.0 | how.bit())
    }

    /// In order: `name`, then `import`.
    pub fn iter(self) -> impl Iterator<Item = LinkHow> {
        [LinkHow::Name, LinkHow::Import].into_iter().filter(move |how| self.0 & how.bit() != 0)
    }
}

/// Every link of a project, both ways, each with how it was made; files by their numbers (see
/// [`FileIds`]): made once per version of the graph and kept.
#[derive(Debug)]
pub struct TestLinks {
    ids: Arc<FileIds>,
    /// By source file: its tests, in path order.
    tests_of: Vec<Vec<(u32, LinkHows)>>,
    /// By test file: its sources, in path order.
    sources_of: Vec<Vec<(u32, LinkHows)>>,
}

impl TestLinks {
    /// The tests linked to a source file, in path order.
    pub fn tests_of(&self, source: &str) -> impl Iterator<Item = (&String, LinkHows)> {
        self.named(self.ids.id(source).map(|id| &self.tests_of[id as usize]))
    }

    /// The source files a test is linked to, in path order.
    pub fn sources_of(&self, test: &str) -> impl Iterator<Item = (&String, LinkHows)> {
        self.named(self.ids.id(test).map(|id| &self.sources_of[id as usize]))
    }

    fn named<'a>(&'a self, list: Option<&'a Vec<(u32, LinkHows)>>) -> impl Iterator<Item = (&'a String, LinkHows)> {
        list.into_iter().flatten().map(|&(id, hows)| (self.ids.name(id), hows))
    }

    /// The links `(test, source, how)`, in any order and repeated, gathered both ways.
    fn new(ids: Arc<FileIds>, mut links: Vec<(u32, u32, LinkHow)>) -> TestLinks {
        let mut tests_of = vec![Vec::new(); ids.len()];
        let mut sources_of = vec![Vec::new(); ids.len()];
        // By test, then source: each list below is built in path order, a pair's ways merged.
        links.sort_unstable();
        let mut merged: Vec<(u32, u32, LinkHows)> = Vec::with_capacity(links.len());
        for (test, source, how) in links {
            match merged.last_mut() {
                Some(last) if (last.0, last.1) == (test, source) => last.2 = last.2.with(how),
                _ => merged.push((test, source, LinkHows::default().with(how))),
            }
        }
        for (test, source, hows) in merged {
            tests_of[source as usize].push((test, hows));
            sources_of[test as usize].push((source, hows));
        }
        TestLinks { ids, tests_of, sources_of }
    }
}

impl Graph {
    /// The test links of every test file of the project (see [`Graph::test_links`]).
    pub(crate) fn build_test_links(&self, files: &FileGraph) -> TestLinks {
        let ids = files.ids();
        let mut sources: HashMap<(&str, &str), Vec<&String>> = HashMap::new();
        let mut tests = Vec::new();
        for (file, entry) in self.files() {
            let family = language_family(&entry.facts.language);
            match self.tested_name(file, &entry.facts.language) {
                Some(name) => tests.push((file, family, name)),
                None => sources.entry((family, source_name(file, family))).or_default().push(file),
            }
        }
        let id = |file: &str| ids.id(file).expect("a link's files are the graph's");
        let mut links = Vec::new();
        for (test, family, name) in tests {
            let candidates = sources.get(&(family, name.as_str())).map(Vec::as_slice).unwrap_or_default();
            let krate = (family == "rust").then(|| rust_crate_of(test, self.js_modules().rust_place(test))).flatten();
            for source in nearest(test, family, &name, krate.as_deref(), candidates) {
                links.push((id(test), id(source), LinkHow::Name));
            }
            for source in files.imports_of(test) {
                let is_test = self.file(source).is_some_and(|e| self.tested_name(source, &e.facts.language).is_some());
                if !is_test {
                    links.push((id(test), id(source), LinkHow::Import));
                }
            }
        }
        TestLinks::new(ids.clone(), links)
    }

    /// Whether `path` is a test file (`language` as the graph names it, empty for a file the graph
    /// does not read): code only (see [`OTHER_TEST_CODE`]), by its language's convention (a Rust
    /// crate's `tests/` directory found by its manifest), or a test target a Cargo manifest
    /// declares (`[[test]]`, `path = "tests/suite/all.rs"`).
    pub fn is_test(&self, path: &str, language: &str) -> bool {
        is_code(path) && self.tested_name(path, language).is_some()
    }

    /// [`tested_name`] with the crate the project's manifests give, or for a `[[test]]` target
    /// found nowhere else, its name.
    fn tested_name(&self, path: &str, language: &str) -> Option<String> {
        let place =
            if language_family(language) == "rust" { self.js_modules().rust_place(path) } else { RustPlace::default() };
        tested_name(path, language, place).or_else(|| self.js_modules().cargo_test(path).map(str::to_string))
    }
}

/// Extensions of test code in languages the graph does not read (`tests/FooTest.php`,
/// `tests/test_cli.sh`, `.bats`, Kotlin, Swift, …). Anything else in a test directory that is not
/// code the graph reads is its documentation, data or fixtures (`README`, `sample.json`,
/// `expected.stderr`, `page.html`): no test to run.
const OTHER_TEST_CODE: [&str; 24] = [
    "bash", "bats", "clj", "dart", "erl", "ex", "exs", "fs", "groovy", "hs", "jl", "kt", "kts", "lua", "ml", "php",
    "pl", "ps1", "r", "scala", "sh", "swift", "t", "zig",
];

/// Whether `path` is code, in a language the graph reads or in [`OTHER_TEST_CODE`].
fn is_code(path: &str) -> bool {
    let path_ref = Path::new(path);
    let extension = path_ref.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    Language::from_path(path_ref).is_some_and(Language::is_code)
        || extension.is_some_and(|extension| OTHER_TEST_CODE.contains(&extension.as_str()))
}

/// Whether a source file holds its own tests: a Rust `#[cfg(test)]` item or `#[test]` function
/// (read from its text, which the graph does not keep). `#[cfg(test)] mod tests;` is not one:
/// its tests are in the file it names, a test file of its own (see [`tested_name`]).
pub fn has_inline_tests(language: &str, source: &str) -> bool {
    language == "rust"
        && (source.contains("#[test]")
            || source.split("#[cfg(test)]").skip(1).any(|after| !declares_an_out_of_line_module(after)))
}

/// Whether the item at the start of `item` (after attributes and comments) is a module declared
/// without a body: `mod tests;`, `pub(crate) mod tests;`.
fn declares_an_out_of_line_module(item: &str) -> bool {
    let mut rest = item.trim_start();
    loop {
        if let Some(comment) = rest.strip_prefix("//") {
            rest = comment.split_once('\n').map_or("", |(_, after)| after).trim_start();
        } else if rest.starts_with("#[") {
            // Another attribute on the same item (`#[path = "t.rs"]`): to its closing bracket.
            rest = rest.split_once(']').map_or("", |(_, after)| after).trim_start();
        } else {
            break;
        }
    }
    let rest = rest.strip_prefix("pub").map_or(rest, |after| {
        let after = after.trim_start();
        after.strip_prefix('(').and_then(|v| v.split_once(')')).map_or(after, |(_, item)| item).trim_start()
    });
    rest.strip_prefix("mod ").and_then(|m| m.split_once(';')).is_some_and(|(name, _)| {
        let name = name.trim();
        !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The name a source file is tested under: its module's last segment (`models` for
/// `shop/models.py`, `store` for `src/store/mod.rs` or `src/store/index.ts`); a private Python
/// module's without its underscores (`auth` for `httpx/_auth.py`, tested by `test_auth.py`).
fn source_name<'a>(path: &'a str, family: &str) -> &'a str {
    let name = leaf(modules::module_stem(path));
    // A dunder module (`__main__`) is named as it is.
    match name.trim_start_matches('_') {
        public if family == "python" && !public.is_empty() && !name.starts_with("__") => public,
        _ => name,
    }
}

fn leaf(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Directories that hold tests, not code.
const TEST_DIRS: [&str; 3] = ["tests", "test", "__tests__"];

/// For a test file, the name of what it tests (`models` for `tests/test_models.py`); `None` for a
/// file that is no test. `place` is where a Rust `path` is in its crate, as the manifests say.
fn tested_name(path: &str, language: &str, place: RustPlace<'_>) -> Option<String> {
    let stem = modules::stem(path);
    let name = leaf(stem);
    let dir = modules::parent(path);
    let strip = |marks: &[&str], prefix: bool| -> Option<String> {
        marks.iter().find_map(|mark| {
            let rest = if prefix { name.strip_prefix(mark) } else { name.strip_suffix(mark) };
            rest.filter(|r| !r.is_empty()).map(str::to_string)
        })
    };
    let marked = match language_family(language) {
        "go" => return strip(&["_test"], false),
        // In a crate's `tests/` directory Cargo builds `tests/x.rs` and `tests/x/main.rs`; any
        // other file there (`tests/common/mod.rs`, a trybuild case under `tests/ui/`) is a helper
        // or data those targets include, run by no `cargo test --test`.
        "rust" if let Some(target) = integration_target(path, place) => {
            let target = target?;
            let unmarked = ["_tests", "_test"].iter().find_map(|mark| target.strip_suffix(mark));
            return Some(unmarked.filter(|r| !r.is_empty()).unwrap_or(target).to_string());
        }
        "rust" if name == "tests" || name == "test" => Some(leaf(dir).to_string()),
        "rust" => strip(&["_tests", "_test"], false),
        // pytest collects marked files only; a Django app's `tests.py` tests its package.
        "python" if name == "tests" => return Some(leaf(dir).to_string()).filter(|package| !package.is_empty()),
        "python" => return strip(&["test_"], true).or_else(|| strip(&["_test"], false)),
        "js" => strip(&[".test", ".spec"], false),
        "java" => strip(&["Tests", "Test", "IT"], false),
        _ => None,
    };
    marked.or_else(|| in_test_dir(path).then(|| name.to_string()))
}

/// Whether `path` is under a directory that holds tests.
fn in_test_dir(path: &str) -> bool {
    modules::parent(path).split('/').any(|c| TEST_DIRS.contains(&c))
}

/// For a Rust file in a crate's integration test directory (`tests` in the crate's directory, see
/// [`modules::in_crate_dir`]; the innermost when no manifest says): `Some` of the test target's
/// name Cargo finds it by (`cli` for `tests/cli.rs` or `tests/cli/main.rs`), or `Some(None)` for
/// any other file there and for every file of a crate whose manifest declares its tests only
/// (`autotests = false`); `None` for a file outside one (`src/store/tests/cases.rs` is a module of
/// the crate's own tests).
fn integration_target<'a>(path: &'a str, place: RustPlace<'_>) -> Option<Option<&'a str>> {
    let crate_dir = place.crate_dir;
    let components: Vec<&str> = path.split('/').collect();
    let at = match crate_dir {
        Some(krate) => krate.split('/').filter(|c| !c.is_empty()).count(),
        None => components.iter().rposition(|c| *c == "tests")?,
    };
    if components.get(at) != Some(&"tests") || at + 1 >= components.len() {
        return None;
    }
    if !modules::in_crate_dir(&components[..at].join("/"), crate_dir) {
        return None;
    }
    Some(match components[at + 1..] {
        _ if place.declared_only.tests => None,
        [file] => file.strip_suffix(".rs"),
        [dir, "main.rs"] => Some(dir),
        _ => None,
    })
}

/// Of the sources tested under `name`, the ones whose directories are nearest to `test`'s once
/// test and layout directories are set aside (`tests/shop/test_models.py` → `shop/models.py`,
/// `src/test/java/a/FooTest.java` → `src/main/java/a/Foo.java`), of those the ones named exactly
/// `name` (`auth.py` over its private namesake `_auth.py`); Go tests only their own directory.
/// A source outside the test directories comes first: one inside is the tests' own (a test
/// package's `tests/client/__init__.py`, named `client` after the layout it mirrors).
/// A Rust integration test can only test its own crate, whose sources are under `krate` (see
/// [`rust_crate_of`]).
fn nearest<'a>(
    test: &str,
    family: &str,
    name: &str,
    krate: Option<&str>,
    candidates: &[&'a String],
) -> Vec<&'a String> {
    let test_dir = modules::parent(test);
    if family == "go" {
        return candidates.iter().filter(|c| modules::parent(c) == test_dir).copied().collect();
    }
    let candidates: Vec<&'a String> =
        candidates.iter().filter(|c| krate.is_none_or(|k| c.starts_with(k))).copied().collect();
    let plain = |dir: &str| -> Vec<String> {
        dir.split('/')
            .filter(|c| !c.is_empty() && !TEST_DIRS.contains(c) && !matches!(*c, "src" | "main" | "java" | "lib"))
            .map(str::to_string)
            .collect()
    };
    let mine = plain(test_dir);
    let score = |candidate: &str| {
        let theirs = plain(modules::parent(candidate));
        let common = mine.iter().rev().zip(theirs.iter().rev()).take_while(|(a, b)| a == b).count();
        (!in_test_dir(candidate), common, mine == theirs, leaf(modules::module_stem(candidate)) == name)
    };
    let Some(best) = candidates.iter().map(|c| score(c)).max() else { return Vec::new() };
    candidates.iter().filter(|c| score(c) == best).copied().collect()
}

/// `daemon/src/` for `daemon/tests/cli.rs`, `src/` for `tests/cli.rs`: the sources of the crate
/// in whose integration test directory `test` is (see [`integration_target`]); `None` outside one.
fn rust_crate_of(test: &str, place: RustPlace<'_>) -> Option<String> {
    integration_target(test, place)?;
    // The `tests` directory the target is in: the workspace's `tests/tests/x.rs` is crate `tests`.
    let dir = match place.crate_dir {
        Some(krate) => krate,
        None => test.rfind("/tests/").map_or("", |i| &test[..i]),
    };
    Some(modules::join(dir, "src/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_files_by_language_convention() {
        let tested = |path: &str, language: &str| tested_name(path, language, RustPlace::default());
        assert_eq!(tested("tests/test_models.py", "python").as_deref(), Some("models"));
        assert_eq!(tested("shop/models_test.py", "python").as_deref(), Some("models"));
        assert_eq!(tested("shop/models.py", "python"), None);
        // Beside the tests, helpers and fixture apps are collected by no runner.
        assert_eq!(tested("tests/helpers.py", "python"), None);
        assert_eq!(tested("tests/fixtures/app.py", "python"), None);
        assert_eq!(tested("tests/conftest.py", "python"), None);
        assert_eq!(tested("shop/tests.py", "python").as_deref(), Some("shop"));
        assert_eq!(tested("internal/store/store_test.go", "go").as_deref(), Some("store"));
        // A Go package named `test` holds code, not tests.
        assert_eq!(tested("internal/test/helpers.go", "go"), None);
        assert_eq!(tested("src/store.test.ts", "typescript").as_deref(), Some("store"));
        assert_eq!(tested("src/ui/Button.spec.jsx", "javascript").as_deref(), Some("Button"));
        assert_eq!(tested("src/__tests__/codec.ts", "typescript").as_deref(), Some("codec"));
        assert_eq!(tested("src/test/java/com/acme/OrderTest.java", "java").as_deref(), Some("Order"));
        assert_eq!(tested("src/main/java/com/acme/Order.java", "java"), None);
        assert_eq!(tested("tests/store.rs", "rust").as_deref(), Some("store"));
        assert_eq!(tested("src/store/tests.rs", "rust").as_deref(), Some("store"));
        assert_eq!(tested("src/store_test.rs", "rust").as_deref(), Some("store"));
        assert_eq!(tested("src/store.rs", "rust"), None);
        // Cargo's test targets, and what they include, which no `cargo test --test` runs.
        assert_eq!(tested("tests/cli/main.rs", "rust").as_deref(), Some("cli"));
        assert_eq!(tested("daemon/tests/store_test.rs", "rust").as_deref(), Some("store"));
        assert_eq!(tested("tests/common/mod.rs", "rust"), None);
        assert_eq!(tested("tests/cli/helpers.rs", "rust"), None);
        assert_eq!(tested("tests/ui/bad_macro.rs", "rust"), None);
        assert_eq!(tested("tests/tests/graph.rs", "rust").as_deref(), Some("graph"));
        assert_eq!(tested("tests/src/lib.rs", "rust"), None);
        // A `tests` directory under `src/` is a module of the crate's own tests.
        assert_eq!(tested("src/store/tests/cases.rs", "rust").as_deref(), Some("cases"));
    }

    #[test]
    fn a_private_python_module_is_tested_under_its_public_name() {
        assert_eq!(source_name("httpx/_auth.py", "python"), "auth");
        assert_eq!(source_name("httpx/__init__.py", "python"), "httpx");
        assert_eq!(source_name("src/_private.ts", "js"), "_private");
    }

    #[test]
    fn a_test_directorys_data_and_docs_are_no_tests() {
        let graph = Graph::new();
        let is_test = |path: &str, language: &str| graph.is_test(path, language);
        assert!(!is_test("tests/README.txt", ""));
        assert!(!is_test("tests/fixtures/sample.json", ""));
        assert!(!is_test("tests/AGENTS.md", ""));
        assert!(is_test("tests/store.rs", "rust"));
        for data in [
            "tests/fixtures/rows.csv",
            "tests/__snapshots__/app.test.ts.snap",
            "tests/README",
            "tests/data/expected_output",
            "tests/ui/bad.stderr",
            "tests/fixtures/page.html",
            "tests/fixtures/schema.sql",
        ] {
            assert!(!is_test(data, ""), "{data}");
        }
        // Code the graph does not read is still a test by the directory's convention.
        for test in ["test/models/order_test.rb", "tests/FooTest.php", "tests/FooTest.kt", "tests/test_cli.sh"] {
            assert!(is_test(test, ""), "{test}");
        }
    }

    #[test]
    fn the_nearest_namesake_is_the_tested_source() {
        let a = "shop/models.py".to_string();
        let b = "legacy/models.py".to_string();
        assert_eq!(nearest("tests/shop/test_models.py", "python", "models", None, &[&a, &b]), [&a]);
        let main = "src/main/java/com/acme/Order.java".to_string();
        let other = "src/main/java/com/other/Order.java".to_string();
        assert_eq!(nearest("src/test/java/com/acme/OrderTest.java", "java", "Order", None, &[&main, &other]), [&main]);
        let here = "pkg/a/store.go".to_string();
        let there = "pkg/b/store.go".to_string();
        assert_eq!(nearest("pkg/b/store_test.go", "go", "store", None, &[&here, &there]), [&there]);
        let own = "search/src/engine/search.rs".to_string();
        let other = "daemon/src/engine/search.rs".to_string();
        assert_eq!(nearest("search/tests/search.rs", "rust", "search", Some("search/src/"), &[&other, &own]), [&own]);
        assert!(
            nearest("search/tests/search.rs", "rust", "search", Some("search/src/"), &[&other]).is_empty(),
            "another crate is not tested"
        );
        assert_eq!(nearest("tests/store.rs", "rust", "store", Some("src/"), &[&"src/store.rs".to_string()]).len(), 1);
        assert_eq!(rust_crate_of("tests/tests/graph.rs", RustPlace::default()).as_deref(), Some("tests/src/"));
        // `test_auth.py` tests `auth.py`; its private namesake only when there is no `auth.py`.
        let public = "httpx/auth.py".to_string();
        let private = "httpx/_auth.py".to_string();
        assert_eq!(nearest("tests/test_auth.py", "python", "auth", None, &[&private, &public]), [&public]);
        assert_eq!(nearest("tests/test_auth.py", "python", "auth", None, &[&private]), [&private]);
        let package = "tests/client/__init__.py".to_string();
        let client = "httpx/_client.py".to_string();
        assert_eq!(nearest("tests/client/test_client.py", "python", "client", None, &[&package, &client]), [&client]);
    }

    #[test]
    fn inline_tests_are_a_rust_thing() {
        assert!(has_inline_tests("rust", "fn a() {}\n#[cfg(test)]\nmod tests {}\n"));
        assert!(!has_inline_tests("rust", "fn a() {}\n"));
        assert!(!has_inline_tests("python", "#[test]"));
        // An out-of-line test module's tests are in its own file.
        assert!(!has_inline_tests("rust", "fn a() {}\n\n#[cfg(test)]\nmod tests;\n"));
        assert!(!has_inline_tests("rust", "#[cfg(test)]\n#[path = \"t.rs\"] // why\npub(crate) mod tests;\n"));
        assert!(has_inline_tests("rust", "#[cfg(test)]\nmod tests;\n#[cfg(test)]\nfn helper() {}\n"));
        assert!(has_inline_tests("rust", "#[cfg(test)]\nmod tests {\n    fn t() {}\n}\n"));
    }
}
