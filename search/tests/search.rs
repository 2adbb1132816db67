//! Search, glob and tree behaviour: equal answers from scan and index,
//! project isolation, output shapes, and refusal of bad input.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::*;
use lean_ctx_search::{Action, IndexPhase, SearchEngine, SearchError, SearchRequest, Source, Withhold};

fn sample() -> Fixture {
    Fixture::new(&[
        ("src/config.rs", "pub struct ConfigLoader;\nimpl ConfigLoader {\n    pub fn load_config(path: &str) {}\n}\n"),
        ("src/main.rs", "fn main() {\n    let c = load_config(\"x\");\n    parse_args();\n}\nfn parse_args() {}\n"),
        ("lib/util.py", "def load_config_file(p):\n    return open(p)\n\nclass Loader:\n    pass\n"),
        ("web/app.ts", "export function loadConfig() {}\ninterface AppConfig {}\n"),
        ("README.md", "Run `load_config` first.\n"),
    ])
}

/// Comparable view of matches: everything except scores.
fn lines(result: &lean_ctx_search::SearchResult) -> Vec<(String, u64, String)> {
    result.matches.iter().map(|m| (m.path.clone(), m.line, m.text.clone())).collect()
}

#[test]
fn scan_and_index_give_the_same_answers() {
    let fx = sample();
    let indexed = fx.engine();
    build(&indexed, fx.root());
    // A second engine on the same cache cannot own the index (the first one
    // holds its lock), so it answers from scans: the not-ready state.
    let scanning = fx.engine();

    let request = |action, pattern: &str| {
        let mut request = SearchRequest::new(fx.root(), action, pattern);
        request.max_results = 100;
        request
    };
    for pattern in [r"load_?config", r"fn \w+", "(?i)loader", "^\\s+pass$"] {
        let from_index_state = indexed.search(&request(Action::Regex, pattern)).unwrap();
        let from_scan_state = scanning.search(&request(Action::Regex, pattern)).unwrap();
        assert_eq!(lines(&from_index_state), lines(&from_scan_state), "{pattern}");
        assert_eq!(from_index_state.total, from_scan_state.total);
        assert!(from_index_state.total > 0, "{pattern}");
    }
    for pattern in ["load", "Config", "parse_args"] {
        let index = indexed.search(&request(Action::Symbol, pattern)).unwrap();
        let scan = scanning.search(&request(Action::Symbol, pattern)).unwrap();
        assert_eq!((index.source, scan.source), (Source::Index, Source::Scan));
        assert_eq!(paths(&index), paths(&scan), "{pattern}");
        assert!(scan.note.as_deref().unwrap_or("").contains("searched the files directly"), "{:?}", scan.note);
        assert!(!scan.note.as_deref().unwrap_or("").contains("ranked by"), "{:?}", scan.note);
    }
    for pattern in ["load config", "loader"] {
        let index = indexed.search(&request(Action::Bm25, pattern)).unwrap();
        let scan = scanning.search(&request(Action::Bm25, pattern)).unwrap();
        assert_eq!((index.source, scan.source), (Source::Index, Source::Scan));
        assert_eq!(paths(&index), paths(&scan), "{pattern}");
        assert_eq!(index.total, scan.total, "{pattern}");
        // The scan does not weigh definitions, and says its order may differ from the index's.
        assert!(scan.note.as_deref().unwrap_or("").contains("ranked by word counts alone"), "{:?}", scan.note);
        assert_eq!(index.note, None);
    }
    wait_for(Duration::from_secs(5), "the second engine to give up on the lock", || {
        matches!(scanning.project_status(fx.root()).unwrap().map(|s| s.phase), Some(IndexPhase::Unavailable { .. }))
    });
    assert!(matches!(scanning.build(fx.root(), |_| {}), Err(SearchError::IndexBusy { .. })));
}

#[test]
fn symbol_search_orders_exact_before_prefix_and_is_case_insensitive() {
    let fx = sample();
    let engine = fx.engine();
    build(&engine, fx.root());
    let result = search(&engine, fx.root(), Action::Symbol, "LOADCONFIG");
    assert_eq!(lines(&result), [("web/app.ts".to_string(), 1, "export function loadConfig() {}".to_string())]);
    let result = search(&engine, fx.root(), Action::Symbol, "load_config");
    let got: Vec<(String, u64)> = result.matches.iter().map(|m| (m.path.clone(), m.line)).collect();
    assert_eq!(got, [("src/config.rs".to_string(), 3), ("lib/util.py".to_string(), 1)]);
    assert_eq!(result.matches[1].symbol.as_ref().unwrap().name, "load_config_file");
    assert_eq!(
        result.text,
        "src/config.rs:3:     pub fn load_config(path: &str) {}\nlib/util.py:1: def load_config_file(p):\n\
         2 definitions in 2 files (searched 5 files)\n"
    );
}

#[test]
fn a_qualified_name_whose_owner_is_a_file_module_finds_that_files_definition() {
    // QA (bstr): `utf8::validate` said no `validate` was in a module `utf8`, listing every one.
    let fx = Fixture::new(&[
        ("src/utf8.rs", "pub fn validate(b: &[u8]) {}\n"),
        ("src/ascii.rs", "pub fn validate(b: &[u8]) {}\n"),
        ("pkg/more/__init__.py", "def chunked(xs):\n    pass\n"),
        ("pkg/recipes.py", "def chunked(xs):\n    pass\n"),
    ]);
    for engine in index_and_scan(&fx) {
        for (pattern, file) in [
            ("utf8::validate", "src/utf8.rs"),
            ("crate::utf8::validate", "src/utf8.rs"),
            ("more.chunked", "pkg/more/__init__.py"),
        ] {
            let result = search(&engine, fx.root(), Action::Symbol, pattern);
            let got: Vec<&str> = result.matches.iter().map(|m| m.path.as_str()).collect();
            assert_eq!(got, [file], "{pattern}: {}", result.text);
            assert!(!result.text.contains("was found in a type"), "{pattern}: {}", result.text);
            assert!(result.text.contains("1 definition in 1 file"), "{pattern}: {}", result.text);
        }
        // A module no file stands for: every definition of the name, saying so, as before.
        let elsewhere = search(&engine, fx.root(), Action::Symbol, "utf16::validate");
        assert_eq!(elsewhere.matches.len(), 2, "{}", elsewhere.text);
        assert!(
            elsewhere.text.contains("no `validate` was found in a type or module named `utf16`"),
            "{}",
            elsewhere.text
        );
    }
}

#[test]
fn a_qualified_name_finds_its_owners_member_else_that_name_elsewhere_saying_so() {
    // `ConfigLoader::load_config`, as an agent copies it from callgraph, names no symbol: a
    // symbol is its own name. The default extractor knows no owners, so the member is not found
    // as such: the definitions of that exact name are, with a note saying the owner held none.
    let fx = sample();
    for engine in index_and_scan(&fx) {
        for pattern in ["ConfigLoader::load_config", "ConfigLoader.load_config"] {
            let result = search(&engine, fx.root(), Action::Symbol, pattern);
            let got: Vec<&str> = result.matches.iter().map(|m| m.path.as_str()).collect();
            // `load_config_file` starts with the name but is not it.
            assert_eq!(got, ["src/config.rs"], "{pattern}: {}", result.text);
            assert!(
                result.text.contains(
                    "no `load_config` was found in a type or module named `ConfigLoader`: these are the \
                     definitions named `load_config` anywhere; 1 of them has no owner the search knows (a file's own \
                     definition, or one read where owners and enclosing functions are not known: a member or a \
                     nested function is found by its own name there)"
                ),
                "{}",
                result.text
            );
        }
        // Nothing by either name: the answer is the plain empty one.
        let none = search(&engine, fx.root(), Action::Symbol, "ConfigLoader::nothing_here");
        assert_eq!(none.total, 0);
        assert!(!none.text.contains("was found in a type"), "{}", none.text);
    }
    // An extractor that knows owners (the daemon's): only the owner's member, without a note.
    let fx = sample();
    let mut config = fx.config();
    let plain = lean_ctx_search::default_extractor();
    config.extractor = std::sync::Arc::new(move |path: &Path, text: &str| {
        let mut symbols = plain(path, text);
        for symbol in symbols.iter_mut().filter(|s| s.name == "load_config") {
            symbol.owner = Some("ConfigLoader".into());
        }
        symbols
    });
    let owners = lean_ctx_search::SearchEngine::new(config);
    let result = search(&owners, fx.root(), Action::Symbol, "a::ConfigLoader::load_config");
    assert_eq!(lines(&result), [("src/config.rs".to_string(), 3, "    pub fn load_config(path: &str) {}".to_string())]);
    assert!(!result.text.contains("was found in a type"), "{}", result.text);
    let elsewhere = search(&owners, fx.root(), Action::Symbol, "Loader.load_config");
    assert!(
        elsewhere.text.contains("no `load_config` was found in a type or module named `Loader`"),
        "{}",
        elsewhere.text
    );
}

#[test]
fn bm25_ranks_definitions_and_whole_identifiers_first() {
    let fx = sample();
    let engine = fx.engine();
    build(&engine, fx.root());
    let result = search(&engine, fx.root(), Action::Bm25, "ConfigLoader");
    assert_eq!(result.source, Source::Index);
    assert_eq!(result.matches[0].path, "src/config.rs", "{}", result.text);
    assert!(result.matches[0].score.unwrap() > 0.0);
    // The split parts still find the other files.
    assert!(result.total >= 3, "{}", result.text);
}

#[test]
fn bm25_puts_the_file_defining_a_name_before_files_that_use_it_more() {
    // Shaped like httpx: `class Request` in a long module of many definitions, and test files
    // whose functions are named after it and write it on every other line.
    let mut models: String =
        (0..40).map(|i| format!("class Model{i}:\n    def method_{i}(self):\n        return {i}\n\n")).collect();
    models.push_str("class Request:\n    def __init__(self, method, url):\n        self.url = url\n");
    let tests = |n: usize| -> String {
        (0..n)
            .map(|i| {
                format!("def test_request_{i}():\n    request = Request('GET', '/{i}')\n    assert request.url\n\n")
            })
            .collect()
    };
    let client = "from ._models import Request\n\nclass Client:\n    def send(self, request: Request):\n        return request\n";
    let fx = Fixture::new(&[
        ("httpx/_models.py", models.as_str()),
        ("httpx/_client.py", client),
        ("tests/test_requests.py", tests(12).as_str()),
        ("tests/test_client.py", tests(4).as_str()),
    ]);
    let engine = fx.engine();
    build(&engine, fx.root());
    let result = search(&engine, fx.root(), Action::Bm25, "Request");
    assert_eq!(result.matches[0].path, "httpx/_models.py", "{}", result.text);
    // Only a whole name earns it: `test_request_0` defines no `Request`.
    let result = search(&engine, fx.root(), Action::Bm25, "Client");
    assert_eq!(result.matches[0].path, "httpx/_client.py", "{}", result.text);
}

/// A second QA pass: the bonus lifted any definition of the word, so a property `pool` beat the
/// connection pool's module for "connection pool", and a test's nested `def group()` beat
/// `class Group`. The name as typed at a file's top level weighs most, and a word's bonus is
/// shared among the query's words.
#[test]
fn bm25_weighs_a_definition_by_its_case_and_place_and_shares_it_among_the_words() {
    let methods: String = (0..60)
        .map(|i| format!("    def get_connection_{i}(self):\n        return self.pool.connection({i})\n\n"))
        .collect();
    let pool_module = format!("class ConnectionPool:\n{methods}");
    let errors = "class PoolError(Exception):\n    @property\n    def pool(self):\n        return None\n";
    let group_module = format!(
        "class Group:\n{}",
        (0..150).map(|i| format!("    def cmd_{i}(self):\n        return {i}\n")).collect::<String>()
    );
    let test = "def test_group():\n    def group():\n        return 1\n    assert group() == 1\n";
    let mut files = vec![
        ("urllib3/connectionpool.py", pool_module.as_str()),
        ("urllib3/exceptions.py", errors),
        ("click/core.py", group_module.as_str()),
        ("tests/test_group.py", test),
    ];
    let fillers: Vec<(String, String)> =
        (0..8).map(|i| (format!("util/u{i}.py"), format!("def helper_{i}():\n    return {i}\n"))).collect();
    files.extend(fillers.iter().map(|(p, t)| (p.as_str(), t.as_str())));
    let fx = Fixture::new(&files);
    let engine = fx.engine();
    build(&engine, fx.root());
    let first = |query: &str| search(&engine, fx.root(), Action::Bm25, query).matches[0].path.clone();
    assert_eq!(first("connection pool"), "urllib3/connectionpool.py");
    assert_eq!(first("Group"), "click/core.py");
}

#[test]
fn bm25_shows_a_files_definition_of_the_words_and_ten_files_by_default() {
    let uses = "let a = parse_config(x);\n".repeat(4);
    let mut files = vec![("src/config.rs".to_string(), format!("{uses}pub fn parse_config(x: &str) {{}}\n"))];
    for i in 0..11 {
        files.push((format!("src/user{i:02}.rs"), format!("fn user{i}() {{ parse_config(\"{i}\"); }}\n")));
    }
    let fx = Fixture::new(&files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect::<Vec<_>>());
    let indexed = fx.engine();
    build(&indexed, fx.root());
    let scanning = fx.engine();
    for engine in [&indexed, &scanning] {
        let result = search(engine, fx.root(), Action::Bm25, "parse config");
        let shown: Vec<u64> = result.matches.iter().filter(|m| m.path == "src/config.rs").map(|m| m.line).collect();
        assert_eq!(shown, [1, 2, 5], "the definition beats the later uses: {}", result.text);
        assert_eq!((result.shown, result.total), (10, 12), "{}", result.text);
        assert!(result.text.contains("2 files not shown"), "says what it left out: {}", result.text);
    }
}

#[test]
fn regex_output_is_grouped_counted_and_truncated() {
    let fx = sample();
    fx.write("src/long.rs", &format!("// load_config {}\n", "x".repeat(500)));
    let engine = fx.engine();
    let mut request = SearchRequest::new(fx.root(), Action::Regex, "load_config");
    request.max_results = 3;
    let result = engine.search(&request).unwrap();
    assert_eq!(result.source, Source::Scan);
    assert_eq!((result.total, result.shown, result.truncated, result.files_with_matches), (5, 3, true, 5));
    let text: Vec<&str> = result.text.lines().collect();
    assert_eq!(text[0], "README.md:1: Run `load_config` first.");
    assert_eq!(text[1], "lib/util.py:1: def load_config_file(p):");
    assert_eq!(text[2], "src/config.rs:3:     pub fn load_config(path: &str) {}");
    assert_eq!(text[3], "5 matches in 5 files (searched 6 files)");
    assert!(text[4].starts_with("… 2 matches not shown (limit 3)"), "{}", text[4]);

    request.path = Some("src".into());
    request.include = vec!["long.rs".into()];
    let result = engine.search(&request).unwrap();
    assert_eq!(result.matches.len(), 1);
    assert!(result.matches[0].text.ends_with('…') && result.matches[0].text.chars().count() == 201);

    request.include = vec![];
    request.exclude = vec!["long.rs".into(), "main.rs".into()];
    let result = engine.search(&request).unwrap();
    assert_eq!(paths(&result), ["src/config.rs"]);
}

#[test]
fn two_projects_never_see_each_other() {
    let one = Fixture::new(&[("one.rs", "fn shared_name() {}\n// sharedword\n")]);
    let two = Fixture::new(&[("two.rs", "fn shared_name() {}\n// sharedword\n"), ("more.rs", "sharedword\n")]);
    let engine = SearchEngine::new(test_config(one.cache.path()));
    build(&engine, one.root());
    build(&engine, two.root());
    for round in 0..3 {
        for action in [Action::Regex, Action::Bm25, Action::Symbol] {
            let pattern = if action == Action::Symbol { "shared_name" } else { "sharedword" };
            assert_eq!(paths(&search(&engine, one.root(), action, pattern)), ["one.rs"], "{round} {action:?}");
            let expected: &[&str] = if action == Action::Symbol { &["two.rs"] } else { &["more.rs", "two.rs"] };
            assert_eq!(paths(&search(&engine, two.root(), action, pattern)), expected, "{round} {action:?}");
        }
    }
    assert_eq!(fs::read_dir(one.cache.path().join("search")).unwrap().count(), 2);
    assert_eq!(engine.status().len(), 2);
}

#[test]
fn glob_respects_ignore_rules_and_sorts() {
    let fx = sample();
    fx.write(".gitignore", "dist/\n");
    fx.write("dist/bundle.js", "x");
    fx.write(".hidden/secret.rs", "x");
    fx.write("src/deep/nested/mod.rs", "x");
    let engine = fx.engine();
    let result = engine.glob(fx.root(), "*.rs", None, 10, &|_| None).unwrap();
    assert_eq!(result.paths, ["src/config.rs", "src/deep/nested/mod.rs", "src/main.rs"]);
    assert_eq!(result.text, "src/config.rs\nsrc/deep/nested/mod.rs\nsrc/main.rs\n3 files\n");
    let result = engine.glob(fx.root(), "src/*.rs", None, 1, &|_| None).unwrap();
    assert_eq!((result.total, result.shown, result.truncated), (2, 1, true));
    assert_eq!(
        result.text,
        "src/config.rs\n2 files\n… 1 file not shown (limit 1); narrow the pattern, path or globs to see the rest\n"
    );
    let result = engine.glob(fx.root(), "**/*.rs", Some(Path::new("src/deep")), 10, &|_| None).unwrap();
    assert_eq!(result.paths, ["src/deep/nested/mod.rs"]);
    assert!(matches!(engine.glob(fx.root(), "a[", None, 10, &|_| None), Err(SearchError::InvalidGlob { .. })));
}

/// Links are not followed, so a glob does not list one as a file; it names the ones it matched
/// instead of leaving them out unsaid.
#[test]
fn a_glob_names_the_links_it_matches() {
    let fx = sample();
    std::os::unix::fs::symlink("main.rs", fx.root().join("src/alias.rs")).unwrap();
    std::os::unix::fs::symlink("src", fx.root().join("code.rs")).unwrap();
    let engine = fx.engine();
    let result = engine.glob(fx.root(), "*.rs", None, 10, &|_| None).unwrap();
    assert_eq!(result.paths, ["src/config.rs", "src/main.rs"]);
    assert_eq!(
        result.text,
        "src/config.rs\nsrc/main.rs\n2 files\n2 symbolic links match too, not listed (searches and globs do not \
         follow links): code.rs, src/alias.rs\n"
    );
    let result = engine.glob(fx.root(), "src/m*.rs", None, 10, &|_| None).unwrap();
    assert_eq!(result.text, "src/main.rs\n1 file\n");
    // A link a Read rule withholds is counted as a link, not among the files withheld.
    let deny = |path: &Path| path.starts_with(fx.root().join("src")).then(|| "deny Read(./src/**)".to_string());
    let result = engine.glob(fx.root(), "src/*.rs", None, 10, &deny).unwrap();
    assert_eq!(
        result.text,
        "no files match\n2 files and 1 link not matched against the pattern: the user's Read rules withhold their \
         names: deny Read(./src/**)\n"
    );
    assert_eq!(result.withheld, 3);
}

/// Whether a glob would match a name the user's Read rules withhold changes nothing in its
/// answer: a guess at the name (`src/ma*`) and a wrong one (`src/x*`) read the same.
#[test]
fn a_glob_answers_the_same_whatever_the_withheld_names_are() {
    let fx = sample();
    std::os::unix::fs::symlink("main.rs", fx.root().join("src/alias.rs")).unwrap();
    let engine = fx.engine();
    let deny = |path: &Path| path.starts_with(fx.root().join("src")).then(|| "deny Read(./src/**)".to_string());
    let answer = |pattern: &str| engine.glob(fx.root(), pattern, None, 10, &deny).unwrap();
    let guessed = answer("src/ma*");
    for wrong in ["src/x*", "src/al*", "src/c*", "**/*.zz"] {
        let other = answer(wrong);
        assert_eq!(other.text, guessed.text, "{wrong}");
        assert_eq!(other.withheld, guessed.withheld, "{wrong}");
    }
    assert!(guessed.text.contains("2 files and 1 link not matched against the pattern"), "{}", guessed.text);
}

/// Hidden paths are left out as ripgrep leaves them out, but a request that names one (a glob,
/// an include glob, the path) gets them, and an empty answer says what it did not look at.
#[test]
fn hidden_paths_are_searched_when_a_request_names_them() {
    let fx = sample();
    fx.write(".github/workflows/ci.yml", "python-version: 3.12\n");
    fx.write(".env.example", "API_URL=http://localhost\n");
    fx.write(".git/config", "python-version in git's own store\n");
    let engine = fx.engine();
    let hidden_note = "hidden paths (a name starting with `.`) are left out unless the path or a glob names one";

    let result = engine.glob(fx.root(), "**/*.yml", None, 10, &|_| None).unwrap();
    assert_eq!(result.total, 0);
    let glob_note = "1 file under hidden paths (a name starting with `.`) matches, left out unless the pattern or \
                     the path names one: .github/workflows/ci.yml";
    assert_eq!(result.text, format!("no files match\n{glob_note}\n"));
    // Nothing hidden matches either: nothing to say of hidden paths.
    assert_eq!(engine.glob(fx.root(), "**/*.toml", None, 10, &|_| None).unwrap().text, "no files match\n");
    let result = engine.glob(fx.root(), ".github/**", None, 10, &|_| None).unwrap();
    assert_eq!(result.paths, [".github/workflows/ci.yml"]);
    assert!(!result.text.contains(hidden_note), "{}", result.text);
    // Files the user's rules withhold are counted, not listed, and no hint points at them; the
    // note names every rule that withheld one.
    fx.write(".secrets/key.pem", "k\n");
    fx.write("certs/ca.pem", "c\n");
    fx.write("keys/b.pem", "b\n");
    let deny = |path: &Path| {
        let rule =
            |dir: &str| path.components().any(|c| c.as_os_str() == dir).then(|| format!("deny Read(./{dir}/**)"));
        rule(".secrets").or_else(|| rule("certs")).or_else(|| rule("keys"))
    };
    let result = engine.glob(fx.root(), "**/*.pem", None, 10, &deny).unwrap();
    let note = "2 files not matched against the pattern: the user's Read rules withhold their names: deny \
                Read(./certs/**); deny Read(./keys/**)";
    assert_eq!(result.text, format!("no files match\n{note}\n"));
    // From a subdirectory, a glob written from the root says where it matches.
    let result = engine.glob(fx.root(), "src/*.rs", Some(Path::new("src")), 10, &|_| None).unwrap();
    let hint = "a glob is taken from the directory searched, src/, where this one matches nothing; from the project \
                root it matches 2 files: `*.rs` from here";
    assert_eq!(result.text, format!("no files match\n{hint}\n"));
    // A pattern naming a directory says how to list its files.
    for dir in ["src", "src/", "web"] {
        let result = engine.glob(fx.root(), dir, None, 10, &|_| None).unwrap();
        let name = dir.trim_end_matches('/');
        let hint = format!("`{name}` is a directory and a glob matches files: `{name}/**` lists the files under it");
        assert_eq!(result.text, format!("no files match\n{hint}\n"), "{dir}");
    }
    assert_eq!(engine.glob(fx.root(), ".env*", None, 10, &|_| None).unwrap().paths, [".env.example"]);
    assert_eq!(
        engine.glob(fx.root(), "*.yml", Some(Path::new(".github")), 10, &|_| None).unwrap().paths,
        [".github/workflows/ci.yml"]
    );
    assert_eq!(
        engine.glob(fx.root(), ".git/**", None, 10, &|_| None).unwrap().total,
        0,
        "git's own store is never walked"
    );

    for action in [Action::Regex, Action::Bm25] {
        let mut request = SearchRequest::new(fx.root(), action, "python");
        let result = engine.search(&request).unwrap();
        assert_eq!(result.total, 0, "{action:?}");
        assert!(result.text.contains(hidden_note), "{}", result.text);
        request.include = vec![".github/**".into()];
        let result = engine.search(&request).unwrap();
        assert_eq!(lines(&result).first().map(|m| m.0.as_str()), Some(".github/workflows/ci.yml"), "{action:?}");
        // Hidden paths are never indexed: no index will order them otherwise.
        assert!(!result.text.contains("once the index is ready"), "{}", result.text);
        request.include = vec![".git/**".into()];
        assert_eq!(engine.search(&request).unwrap().total, 0, "{action:?}: git's own store is never searched");
        request.include = vec![];
        for store in [".git", ".git/config", "./.git"] {
            request.path = Some(store.into());
            let err = engine.search(&request).unwrap_err();
            assert!(matches!(err, SearchError::GitStore { .. }), "{store}: {err}");
        }
    }
    assert!(matches!(
        engine.glob(fx.root(), "**", Some(Path::new(".git")), 10, &|_| None),
        Err(SearchError::GitStore { .. })
    ));
}

/// An empty search names hidden paths only when it left out a hidden file it could have searched:
/// none in the project, or none its globs admit, and it says nothing of them.
#[test]
fn an_empty_search_names_hidden_paths_only_when_it_skipped_a_hidden_file() {
    let fx = sample();
    let engine = fx.engine();
    let hidden_note = "hidden paths (a name starting with `.`) are left out unless the path or a glob names one";
    let empty = |include: &[&str]| {
        [Action::Regex, Action::Bm25, Action::Symbol].map(|action| {
            let mut request = SearchRequest::new(fx.root(), action, "nowhere_to_be_found");
            request.include = include.iter().map(|glob| glob.to_string()).collect();
            let result = engine.search(&request).unwrap();
            assert_eq!(result.total, 0, "{action:?}");
            result.text
        })
    };
    for text in empty(&[]) {
        assert!(!text.contains(hidden_note), "no hidden file: {text}");
    }
    fx.write(".circleci/config.yml", "python-version: 3.12\n");
    for text in empty(&[]) {
        // QA: the note's example must be one that finds the file it left out.
        assert!(text.contains(&format!("{hidden_note}, as `.circleci/**` (`.circleci/` holds such files)")), "{text}");
    }
    for text in empty(&["*.rs"]) {
        assert!(!text.contains(hidden_note), "no hidden file the globs admit: {text}");
    }
}

/// What the ignore rules leave out is never searched unasked, so an empty answer names it, a glob
/// counts its matching files, and a request limited to it searches its files (the index never
/// holds them).
#[test]
fn an_empty_answer_names_what_the_ignore_rules_left_out() {
    let fx = sample();
    fx.write(".gitignore", "build/\n*.log\n");
    fx.write("build/out/gen.rs", "fn generated_only() {}\n");
    fx.write("run.log", "generated_only failed\n");
    for engine in index_and_scan(&fx) {
        let search = |action, path: Option<&str>| {
            let mut request = SearchRequest::new(fx.root(), action, "generated_only");
            request.path = path.map(Into::into);
            engine.search(&request).unwrap()
        };
        for action in [Action::Regex, Action::Bm25, Action::Symbol] {
            let result = search(action, None);
            assert_eq!(result.total, 0, "{action:?}");
            assert!(
                result.text.contains(
                    "the project's ignore rules (.gitignore, .ignore) leave out `build/` and `run.log`, not searched; \
                     name one as the path to search it"
                ),
                "{action:?}: {}",
                result.text
            );
            let named = search(action, Some("build"));
            assert_eq!(lines(&named), [("build/out/gen.rs".to_string(), 1, "fn generated_only() {}".to_string())]);
        }
        let result = search(Action::Regex, Some("run.log"));
        assert_eq!(lines(&result), [("run.log".to_string(), 1, "generated_only failed".to_string())]);
        // With globs, only what they would have searched was left out.
        let with_include = |glob: &str| {
            let mut request = SearchRequest::new(fx.root(), Action::Regex, "generated_only");
            request.include = vec![glob.to_string()];
            engine.search(&request).unwrap().text
        };
        assert!(!with_include("*.xyz").contains("ignore rules"), "{}", with_include("*.xyz"));
        assert!(with_include("*.log").contains("leave out `run.log`, not searched"), "{}", with_include("*.log"));
        assert!(with_include("*.rs").contains("leave out `build/`, not searched"), "{}", with_include("*.rs"));
        // A search that found something, or one of a directory with nothing left out, says nothing of it.
        assert!(!search(Action::Regex, Some("src")).text.contains("ignore rules"));

        let glob = engine.glob(fx.root(), "*.log", None, 10, &|_| None).unwrap();
        assert_eq!(
            glob.text,
            "no files match\n1 file that the project's ignore rules (.gitignore, .ignore) leave out matches: run.log\n"
        );
        // Withheld names stay unsaid.
        let deny = |path: &Path| path.ends_with("run.log").then(|| "deny Read(./run.log)".to_string());
        let glob = engine.glob(fx.root(), "*.log", None, 10, &deny).unwrap();
        assert!(!glob.text.contains("run.log"), "{}", glob.text);
        assert!(
            engine.glob(fx.root(), "*.rs", Some(Path::new("build")), 10, &|_| None).unwrap().paths
                == ["build/out/gen.rs"]
        );
    }
}

#[test]
fn tree_lists_counts_with_depth_hidden_and_ignore_switches() {
    let fx = sample();
    fx.write(".gitignore", "dist/\n");
    fx.write("dist/bundle.js", "x");
    fx.write("src/deep/nested/mod.rs", "x");
    let engine = fx.engine();
    let tree = engine.tree(fx.root(), None, 2, false, true, &|_| None).unwrap();
    let notes = "hidden entries (a name starting with `.`) are not listed (ctx_tree show_hidden, lctx tree --hidden)\n\
                 the project's ignore rules (.gitignore, .ignore) leave out `dist/`, not listed (ctx_tree \
                 respect_gitignore=false, lctx tree --no-ignore)\n";
    assert_eq!(
        tree.text,
        format!(
            "./ (6)\n  lib/ (1)\n    util.py\n  src/ (3)\n    deep/ (1) …\n    config.rs\n    main.rs\n  web/ (1)\n    \
             app.ts\n  README.md\n{notes}"
        )
    );
    assert_eq!((tree.files, tree.dirs), (6, 5));
    let tree = engine.tree(fx.root(), Some(Path::new("src")), 5, false, true, &|_| None).unwrap();
    assert_eq!(tree.text, "src/ (3)\n  deep/ (1)\n    nested/ (1)\n      mod.rs\n  config.rs\n  main.rs\n");
    let tree = engine.tree(fx.root(), None, 1, true, false, &|_| None).unwrap();
    assert_eq!(
        tree.text,
        "./ (8)\n  dist/ (1) …\n  lib/ (1) …\n  src/ (3) …\n  web/ (1) …\n  .gitignore\n  README.md\n"
    );
}

#[test]
fn bad_input_is_refused_with_a_clear_error() {
    let fx = sample();
    let engine = fx.engine();
    let err = engine.search(&SearchRequest::new(fx.root(), Action::Regex, "foo(bar")).unwrap_err();
    assert!(err.to_string().starts_with("regex parse error at column 4: unclosed group"), "{err}");
    assert!(matches!(err, SearchError::InvalidRegex { column: Some(4), .. }));

    let mut request = SearchRequest::new(fx.root(), Action::Regex, "x");
    for outside in ["..", "../..", "/etc", "src/../../"] {
        request.path = Some(outside.into());
        let err = engine.search(&request).unwrap_err();
        assert!(matches!(err, SearchError::OutsideProject { .. }), "{outside}: {err}");
    }
    assert!(matches!(
        engine.glob(fx.root(), "*", Some(Path::new("/tmp")), 5, &|_| None),
        Err(SearchError::OutsideProject { .. })
    ));
    let err = engine.glob(fx.root(), "*.rs", Some(Path::new("src/main.rs")), 5, &|_| None).unwrap_err();
    assert!(err.to_string().starts_with("path src/main.rs is a file; glob lists the files under a directory"), "{err}");
    assert!(matches!(
        engine.tree(fx.root(), Some(Path::new("..")), 1, false, true, &|_| None),
        Err(SearchError::OutsideProject { .. })
    ));

    let missing = fx.root().join("nope");
    let err = engine.search(&SearchRequest::new(&missing, Action::Bm25, "x")).unwrap_err();
    assert!(matches!(err, SearchError::RootNotFound { .. }), "{err}");
    assert!(err.to_string().contains("does not exist"));
    assert!(matches!(engine.build(&missing, |_| {}), Err(SearchError::RootNotFound { .. })));
    let err = engine.search(&SearchRequest::new(fx.root(), Action::Bm25, "  ...  ")).unwrap_err();
    assert!(matches!(err, SearchError::EmptyQuery { .. }), "{err}");
}

/// An answer from the index says what it did not search, as a scan does: files too large to
/// index (found by the walk, or grown past the limit after it) and FIFOs, within the search's path.
#[test]
fn every_answer_counts_the_files_too_large_to_search_within_its_path() {
    let fx = sample();
    let large = format!("pub fn load_config_big() {{}}\n{}", "// filler line of a generated file\n".repeat(31_000));
    assert!(large.len() > 1 << 20);
    fs::write(fx.root().join("src/generated.rs"), &large).unwrap();
    let status = Command::new("mkfifo").arg(fx.root().join("lib/pipe.py")).status().unwrap();
    assert!(status.success());
    let engines = index_and_scan(&fx);
    let note = "skipped 2 files: 1 too large, 1 special (fifo/socket/device)";
    for engine in &engines {
        for (action, pattern) in
            [(Action::Regex, "load_config"), (Action::Bm25, "load_config"), (Action::Symbol, "load")]
        {
            let result = search(engine, fx.root(), action, pattern);
            let what = format!("{action:?} from {:?}: {}", result.source, result.text);
            assert!(result.text.contains(note), "{what}");
            let mut in_lib = SearchRequest::new(fx.root(), action, pattern);
            in_lib.path = Some("lib".into());
            let result = engine.search(&in_lib).unwrap();
            assert!(result.text.contains("skipped 1 file: 1 special (fifo/socket/device)"), "lib/ only: {what}");
        }
    }
    // A file that grows past the limit after the index was built is left out and counted too.
    let indexed = &engines[0];
    fs::write(fx.root().join("web/app.ts"), &large).unwrap();
    wait_for(Duration::from_secs(20), "the grown file to leave the index", || {
        search(indexed, fx.root(), Action::Bm25, "loadConfig").text.contains("skipped 3 files: 2 too large")
    });
}

#[test]
fn fifos_and_binaries_are_skipped_and_counted() {
    let fx = sample();
    let fifo = fx.root().join("src/pipe.rs");
    let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    fs::write(fx.root().join("src/blob.rs"), b"load_config\0\x01\x02").unwrap();
    let engine = fx.engine();
    let result = search(&engine, fx.root(), Action::Regex, "load_config");
    assert_eq!((result.skipped.special, result.skipped.binary), (1, 1));
    assert_eq!(result.total, 4);
    assert!(result.text.contains("skipped 2 files: 1 binary, 1 special (fifo/socket/device)"), "{}", result.text);
    // The indexer skips them too instead of blocking on the FIFO.
    build(&engine, fx.root());
    let status = engine.project_status(fx.root()).unwrap().unwrap();
    assert_eq!((status.files, status.skipped.special, status.skipped.binary), (5, 1, 1), "{status:?}");
    assert_eq!(engine.glob(fx.root(), "pipe.rs", None, 5, &|_| None).unwrap().skipped.special, 1);
    // A glob that does not name the FIFO left no file it names out.
    let other = engine.glob(fx.root(), "*.py", None, 5, &|_| None).unwrap();
    assert_eq!(other.skipped.special, 0);
    assert!(!other.text.contains("skipped"), "{}", other.text);
    assert!(
        engine.tree(fx.root(), None, 3, false, true, &|_| None).unwrap().text.contains("skipped 1 file: 1 special")
    );
    // Listing the FIFO itself is refused: it read as an empty directory, `src/pipe.rs/ (0)`.
    for listed in [
        engine.tree(fx.root(), Some(&fifo), 3, false, true, &|_| None).map(|t| t.text),
        engine.glob(fx.root(), "*", Some(&fifo), 5, &|_| None).map(|g| g.text),
    ] {
        assert!(listed.as_ref().is_err_and(|e| e.to_string().contains("is a FIFO, socket or device")), "{listed:?}");
    }
}

#[test]
fn symlink_loops_terminate_whether_or_not_links_are_followed() {
    let fx = sample();
    std::os::unix::fs::symlink("..", fx.root().join("src/up")).unwrap();
    std::os::unix::fs::symlink(fx.root(), fx.root().join("lib/root")).unwrap();
    // Not followed (the default): the links are simply not walked.
    let engine = fx.engine();
    let result = search(&engine, fx.root(), Action::Regex, "load_config");
    assert_eq!((result.total, result.skipped.walk_errors), (4, 0));
    drop(engine);

    let mut config = fx.config();
    config.follow_symlinks = true;
    let engine = SearchEngine::new(config);
    let result = search(&engine, fx.root(), Action::Regex, "load_config");
    assert!(result.skipped.walk_errors >= 2, "{:?}", result.skipped);
    assert!(result.text.contains("walk errors (symlink loops"), "{}", result.text);
    build(&engine, fx.root());
    assert!(engine.glob(fx.root(), "*.rs", None, 100, &|_| None).unwrap().skipped.walk_errors >= 2);
}

#[test]
fn a_regex_scan_stops_at_its_budget_or_when_cancelled_and_says_so() {
    let fx = sample();
    let mut config = fx.config();
    config.regex_budget = Duration::ZERO;
    let result = search(&SearchEngine::new(config), fx.root(), Action::Regex, "fn");
    assert_eq!((result.total, result.files_searched), (0, 0));
    let note = result.note.unwrap();
    assert!(note.contains("stopped at its 0ns budget after 0 files, so the results are partial"), "{note}");
    assert!(result.text.contains("partial"), "the agent sees it: {}", result.text);

    // A caller that gave up (its client left) stops the scan at once.
    let engine = fx.engine();
    let request = SearchRequest::new(fx.root(), Action::Regex, "fn");
    request.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
    let result = engine.search(&request).unwrap();
    assert_eq!(result.files_searched, 0);
    assert!(result.note.unwrap().contains("cancelled"));
    // And the same search, not cut, finds its lines.
    assert!(search(&engine, fx.root(), Action::Regex, "fn").total > 0);
}

/// Each engine in turn: one answering from its index, one from scans (a second engine on the
/// same cache cannot own the index while the first is alive: iterate over a borrow to be sure).
fn index_and_scan(fx: &Fixture) -> [SearchEngine; 2] {
    let indexed = fx.engine();
    build(&indexed, fx.root());
    [indexed, fx.engine()]
}

#[test]
fn withheld_results_are_left_out_before_the_limit_and_counted_only_in_the_note() {
    let files: Vec<(String, &str)> =
        ["a", "b", "c", "d", "e"].iter().map(|f| (format!("{f}.py"), "def evolve(x):\n    return x\n")).collect();
    let files: Vec<(&str, &str)> = files.iter().map(|(f, t)| (f.as_str(), *t)).collect();
    let fx = Fixture::new(&files);
    let withhold = Withhold::new(|rel: &Path| match rel.to_str() {
        Some("b.py") => Some("deny Read(./b.py) in settings.json".to_string()),
        Some("d.py") => Some("ask Read(./d.py) in settings.json".to_string()),
        _ => None,
    });
    let rules = "the user's Read rules withhold them: ask Read(./d.py) in settings.json; deny Read(./b.py) in \
                 settings.json";
    for engine in index_and_scan(&fx) {
        let actions = [
            (Action::Regex, "def evolve", "match"),
            (Action::Symbol, "evolve", "definition"),
            (Action::Bm25, "evolve", "file"),
        ];
        for (action, pattern, one) in actions {
            for limit in [2, 3] {
                let mut request = SearchRequest::new(fx.root(), action, pattern);
                request.max_results = limit;
                request.withhold = Some(withhold.clone());
                let result = engine.search(&request).unwrap();
                let what = format!("{action:?} -n {limit} from {:?}: {}", result.source, result.text);
                let shown: Vec<&str> = result.matches.iter().map(|m| m.path.as_str()).collect();
                assert_eq!(shown, ["a.py", "c.py", "e.py"][..limit], "{what}");
                assert_eq!((result.shown, result.total, result.withheld), (limit as u64, 3, 2), "{what}");
                assert_eq!(result.truncated, limit < 3, "{what}");
                assert!(result.text.contains(&format!("2 files not searched: {rules}\n")), "{what}");
                assert!(!result.text.contains("b.py:") && !result.text.contains("d.py:"), "{what}");
                assert_eq!(result.text.contains(&format!("… 1 {one} not shown (limit 2)")), limit == 2, "{what}");
            }
        }
    }
}

/// A search's answer never depends on what a withheld file holds: a pattern that matches only
/// inside it (a guess at a secret, a name it defines) and one that matches nowhere read the same,
/// byte for byte, from the index and from a scan, in every action.
#[test]
fn a_search_answers_the_same_whatever_a_withheld_file_holds() {
    let fx = Fixture::new(&[
        ("app.py", "def visible():\n    return 1\n"),
        ("secret/creds.py", "TOKEN = 'PURPLE-OTTER-4471'\ndef load_internal_token():\n    return TOKEN\n"),
    ]);
    let withhold = Withhold::new(|rel: &Path| {
        rel.starts_with("secret").then(|| "deny Read(./secret/**) in settings.json".to_string())
    });
    let pairs = [
        (Action::Regex, "PURPLE-OTTER-4", "PURPLE-OTTER-5"),
        (Action::Regex, "OTTER-[0-4]", "OTTER-[5-9]"),
        (Action::Symbol, "load_internal_token", "load_internal_tokem"),
        (Action::Bm25, "purple otter", "violet heron"),
    ];
    for engine in index_and_scan(&fx) {
        for (action, inside, nowhere) in pairs {
            let answer = |pattern: &str| {
                let mut request = SearchRequest::new(fx.root(), action, pattern);
                request.withhold = Some(withhold.clone());
                engine.search(&request).unwrap()
            };
            let (inside, nowhere) = (answer(inside), answer(nowhere));
            let what = format!("{action:?} from {:?}: {}", inside.source, inside.text);
            let unsaid = |text: &str| text.replace("purple otter", "WORDS").replace("violet heron", "WORDS");
            let (a, b) = (unsaid(&inside.text), unsaid(&nowhere.text));
            let (a, b) = (
                a.replace("`purple`", "`W`").replace("`otter`", "`W`"),
                b.replace("`violet`", "`W`").replace("`heron`", "`W`"),
            );
            assert_eq!(a, b, "{what}");
            assert_eq!((inside.total, inside.withheld), (0, 1), "{what}");
            assert!(inside.text.contains("1 file not searched: the user's Read rules withhold it"), "{what}");
        }
    }
}

#[test]
fn a_match_far_into_a_long_line_is_shown_around_it() {
    let numbers: Vec<String> = (0..30_000).map(|i| i.to_string()).collect();
    let minified = format!("var a={};function qa5needle(){{return 1}};\n", numbers.join(","));
    let fx = Fixture::new(&[("dist/min.js", &minified)]);
    // Symbols too, through the daemon's outlines (tests/tests/search.rs): this crate's own
    // extractor finds definitions only at a line's start.
    for engine in index_and_scan(&fx) {
        for action in [Action::Regex, Action::Bm25] {
            let result = search(&engine, fx.root(), action, "qa5needle");
            let text = &result.matches[0].text;
            let what = format!("{action:?} from {:?}: {}", result.source, result.text);
            assert!(text.contains("function qa5needle(){return 1};"), "{what}");
            assert!(text.starts_with('…') && text.chars().count() <= 202, "{what}");
            assert!(result.text.starts_with("dist/min.js:1: …"), "{what}");
        }
    }
}

#[test]
fn bm25_leaves_out_a_word_no_file_contains_and_says_so() {
    let fx = Fixture::new(&[
        ("a.rs", "const ANSWER: u32 = 42;\n"),
        ("b.rs", "fn answer() -> u32 { 42 }\n"),
        ("c.rs", "fn other() {}\n"),
    ]);
    for engine in index_and_scan(&fx) {
        let absent = search(&engine, fx.root(), Action::Bm25, "zzqx42");
        assert_eq!(absent.total, 0, "{}", absent.text);
        assert!(absent.text.starts_with("no matches"), "{}", absent.text);
        assert!(absent.text.contains("no file searched contains `zzqx` (of `zzqx42`)\n"), "{}", absent.text);
        let partly = search(&engine, fx.root(), Action::Bm25, "zzqx42 answer");
        assert_eq!(paths(&partly), ["a.rs", "b.rs"], "{}", partly.text);
        assert!(
            partly.text.contains("no file searched contains `zzqx` (of `zzqx42`), so it is left out of the ranking"),
            "{}",
            partly.text
        );
        let present = search(&engine, fx.root(), Action::Bm25, "answer");
        assert!(!present.text.contains("no file searched contains"), "{}", present.text);
    }
}

/// Each way of narrowing a search to `src/`: its path, an include glob, an exclude glob.
fn narrowed_to_src(root: &Path, pattern: &str) -> [SearchRequest; 3] {
    let request = |path: Option<&str>, include: &[&str], exclude: &[&str]| {
        let mut request = SearchRequest::new(root, Action::Bm25, pattern);
        request.path = path.map(Into::into);
        request.include = include.iter().map(|g| g.to_string()).collect();
        request.exclude = exclude.iter().map(|g| g.to_string()).collect();
        request
    };
    [request(Some("src"), &[], &[]), request(None, &["src/**"], &[]), request(None, &[], &["other/**"])]
}

#[test]
fn bm25_looks_for_a_word_only_in_the_files_the_search_admits() {
    let fx = Fixture::new(&[
        ("src/a.rs", "fn a() { let v = 42; }\n"),
        ("src/b.rs", "fn b() -> u32 { 42 }\n"),
        ("other/c.rs", "fn zzqx() {}\n"),
    ]);
    let mut sources = Vec::new();
    for engine in &index_and_scan(&fx) {
        for request in narrowed_to_src(fx.root(), "zzqx42") {
            let result = engine.search(&request).unwrap();
            let what = format!(
                "{:?} {:?} {:?} from {:?}: {}",
                request.path, request.include, request.exclude, result.source, result.text
            );
            assert_eq!(result.total, 0, "{what}");
            assert!(result.text.starts_with("no matches"), "{what}");
            assert!(result.text.contains("no file searched contains `zzqx` (of `zzqx42`)\n"), "{what}");
            sources.push(result.source);
        }
    }
    assert_eq!(sources, [[Source::Index; 3], [Source::Scan; 3]].concat());
}

/// A withheld file is not searched, so a word only it holds is in no file searched, said as of
/// any word no file holds.
#[test]
fn bm25_searches_no_withheld_file() {
    let fx = Fixture::new(&[("a.rs", "const ANSWER: u32 = 42;\n"), ("secret.rs", "fn zzqx() {}\n")]);
    let withhold = Withhold::new(|rel: &Path| {
        (rel == Path::new("secret.rs")).then(|| "deny Read(./secret.rs) in settings.json".to_string())
    });
    let mut sources = Vec::new();
    for engine in &index_and_scan(&fx) {
        for (pattern, shown) in [("zzqx42", &[][..]), ("zzqx42 answer", &["a.rs"][..])] {
            let mut request = SearchRequest::new(fx.root(), Action::Bm25, pattern);
            request.withhold = Some(withhold.clone());
            let result = engine.search(&request).unwrap();
            let what = format!("{pattern} from {:?}: {}", result.source, result.text);
            assert_eq!(paths(&result), shown, "{what}");
            assert_eq!(result.withheld, 1, "{what}");
            assert!(result.text.contains("no file searched contains `zzqx` (of `zzqx42`)"), "{what}");
            let note = "1 file not searched: the user's Read rules withhold it: deny Read(./secret.rs)";
            assert!(result.text.contains(note), "{what}");
            sources.push(result.source);
        }
        // Without rules the word is in a file searched, and ranks.
        let open = search(engine, fx.root(), Action::Bm25, "zzqx42");
        assert!(paths(&open).contains(&"secret.rs".to_string()), "{}", open.text);
    }
    assert_eq!(sources, [Source::Index, Source::Index, Source::Scan, Source::Scan]);
}

#[test]
fn bm25_ranks_by_at_most_64_terms_and_says_which_words_it_left_out() {
    let words: Vec<String> =
        (0..70).map(|i| format!("k{}{}", (b'a' + i / 26) as char, (b'a' + i % 26) as char)).collect();
    let text = format!("{}\n", words.join(" "));
    let fx = Fixture::new(&[("all.txt", &text), ("last.txt", "kcr\n")]);
    for engine in &index_and_scan(&fx) {
        let result = search(engine, fx.root(), Action::Bm25, &words.join(" "));
        let what = format!("from {:?}: {}", result.source, result.text);
        assert_eq!(paths(&result), ["all.txt"], "the 70th word, `kcr`, is left out: {what}");
        assert!(
            result
                .text
                .contains("bm25 ranks by at most 64 terms, so the query's last 6 words (from `kcm` on) are left out"),
            "{what}"
        );
        assert!(!result.text.contains("no file searched contains"), "{what}");
    }
}

/// One generated identifier of more parts than the cap still finds the file holding it.
#[test]
fn bm25_finds_a_word_of_more_parts_than_it_ranks_by() {
    let parts: Vec<String> =
        (0..70).map(|i| format!("p{}{}", (b'a' + i / 26) as char, (b'a' + i % 26) as char)).collect();
    let word = parts.join("_");
    let fx = Fixture::new(&[("gen.rs", &format!("fn {word}() {{}}\n")), ("other.rs", "fn paa() {}\n")]);
    for engine in &index_and_scan(&fx) {
        let result = search(engine, fx.root(), Action::Bm25, &word);
        let what = format!("from {:?}: {}", result.source, result.text);
        assert_eq!(paths(&result).first().map(String::as_str), Some("gen.rs"), "{what}");
        // Of its 70 parts, the 65th (`pcm`) is the first past the cap.
        let note = "bm25 ranks by at most 64 terms, so `paa_pab_pac_pad_pae_paf_pag_pah_pai_paj_…` counts by its \
                    first 64 parts only; its last 6 parts (from `pcm` on) are left out";
        assert!(result.text.contains(note), "{what}");
    }
}

#[test]
fn every_answer_counts_the_files_its_filters_admit() {
    let fx = sample();
    for engine in index_and_scan(&fx) {
        for (action, pattern) in [(Action::Regex, "load"), (Action::Symbol, "load"), (Action::Bm25, "load")] {
            let mut request = SearchRequest::new(fx.root(), action, pattern);
            request.include = vec!["*.rs".into()];
            let result = engine.search(&request).unwrap();
            assert_eq!(result.files_searched, 2, "{action:?} from {:?}: {}", result.source, result.text);
            request.include = vec![];
            request.path = Some("src/config.rs".into());
            assert_eq!(engine.search(&request).unwrap().files_searched, 1, "{action:?}");
        }
    }
}

#[test]
fn a_qualified_prefix_finds_the_owners_members_in_the_qualifiers_package() {
    // `zip.Writer.Clo`: the members of every `Writer` starting with `Clo`, but only those in a
    // file under `zip` when one is; `Writer.Close` of tar is not what was asked for.
    let fx = Fixture::new(&[
        (
            "archive/tar/writer.go",
            "package tar\n\ntype Writer struct{}\n\nfunc (tw *Writer) Close() error { return nil }\n\n\
             func (tw *Writer) Flush() error { return nil }\n",
        ),
        (
            "archive/zip/writer.go",
            "package zip\n\ntype Writer struct{}\n\nfunc (w *Writer) Close() error { return nil }\n",
        ),
        ("archive/zip/reader.go", "package zip\n\nfunc (r *Reader) Close() error { return nil }\n"),
    ]);
    let mut config = fx.config();
    // The daemon's extractor knows owners; the default one does not: give each method its receiver.
    let plain = lean_ctx_search::default_extractor();
    config.extractor = std::sync::Arc::new(move |path: &Path, text: &str| {
        let owner = if text.contains("(r *Reader)") { "Reader" } else { "Writer" };
        let mut symbols = plain(path, text);
        for symbol in symbols.iter_mut().filter(|s| s.name == "Close" || s.name == "Flush") {
            symbol.owner = Some(owner.into());
        }
        symbols
    });
    // From the index, then from a scan (a second engine cannot open the index the first holds).
    let indexed = SearchEngine::new(config.clone());
    build(&indexed, fx.root());
    for engine in [indexed, SearchEngine::new(config)] {
        let found = |pattern: &str| {
            let result = search(&engine, fx.root(), Action::Symbol, pattern);
            (result.matches.iter().map(|m| format!("{}:{}", m.path, m.line)).collect::<Vec<_>>(), result.text)
        };
        for pattern in ["Writer.Clo", "Writer::Close", "Writer.c"] {
            let (got, text) = found(pattern);
            assert_eq!(got, ["archive/tar/writer.go:5", "archive/zip/writer.go:5"], "{pattern}: {text}");
            assert!(!text.contains("no `"), "{pattern}: {text}");
        }
        for pattern in ["zip.Writer.Close", "archive::zip::Writer::Clo"] {
            let (got, text) = found(pattern);
            assert_eq!(got, ["archive/zip/writer.go:5"], "{pattern}: {text}");
            assert!(!text.contains("no `") && !text.contains("under a path"), "{pattern}: {text}");
        }
        // A package path no file is under narrows nothing (a crate's or a Java package's name
        // above the project's files), nor does a Go file's name, which is no package: every
        // owner's member, as without the path, and no note about it.
        for pattern in ["rar.Writer.Close", "zip.archive.Writer.Close", "zip.writer.Writer.Close"] {
            let (got, text) = found(pattern);
            assert_eq!(got, ["archive/tar/writer.go:5", "archive/zip/writer.go:5"], "{pattern}: {text}");
            assert!(!text.contains("under a path") && !text.contains("no `"), "{pattern}: {text}");
        }
        // The owner under the path has no such member: another package's, saying so.
        let (got, text) = found("zip.Writer.Flush");
        assert_eq!(got, ["archive/tar/writer.go:7"], "{text}");
        let note = "the `Writer` under a path holding `zip` has no member starting with `Flush`: these are the \
                    members of every `Writer`";
        assert!(text.contains(note), "{text}");
        // A prefix names no whole definition elsewhere: nothing, without a note.
        let (got, text) = found("Buffer.Clo");
        assert!(got.is_empty() && !text.contains("no `"), "{text}");
    }
}
