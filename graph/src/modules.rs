//! Which project files a module path names, per language. Paths are root-relative with `/`.
//!
//! The rules are syntactic: a module path is matched against file paths (Python `a.b` →
//! `a/b.py` or `a/b/__init__.py`, a relative JavaScript specifier against the importing file's
//! directory, a Go import path against package directories by suffix, Java packages against
//! directories, Rust `crate::`/`self::`/`super::` paths against module files). A module that
//! names no project file (a standard library, a dependency) matches nothing.

use std::collections::{BTreeSet, HashMap};

use lean_ctx_outline::Language;
use serde::{Deserialize, Serialize};

/// `a/b/c` for `a/b/c.rs`.
pub(crate) fn stem(path: &str) -> &str {
    match path.rsplit_once('.') {
        Some((stem, ext)) if !ext.contains('/') => stem,
        _ => path,
    }
}

pub(crate) fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

pub(crate) fn join(dir: &str, rest: &str) -> String {
    match (dir.is_empty(), rest.is_empty()) {
        (true, _) => rest.to_string(),
        (_, true) => dir.to_string(),
        _ => format!("{dir}/{rest}"),
    }
}

/// `want` equals `have` or ends it after a `/`.
pub(crate) fn suffix_of(have: &str, want: &str) -> bool {
    !want.is_empty()
        && (have == want
            || (have.len() > want.len()
                && have.ends_with(want)
                && have.as_bytes()[have.len() - want.len() - 1] == b'/'))
}

/// The last component of a `/`-separated path.
pub(crate) fn last(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// `a/b/../c` → `a/c`; `None` when it climbs above the root.
pub(crate) fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

/// How a module path is matched against a file.
#[derive(Debug)]
pub(crate) enum Target {
    /// Files whose stem (path without extension, `/index`, `/__init__`, `/mod` dropped) is this.
    Exact(Vec<String>),
    /// Files whose stem ends with one of these.
    Suffix(Vec<String>),
    /// Files whose stem ends with this after an import root: a directory that is no package (it
    /// holds no `__init__.py`). Python 3 resolves an absolute import from `sys.path`, never from
    /// the importing file's package, so `import json` in `pkg/user.py` is the standard library's
    /// and not `pkg/json.py`; `pkg.json` is, from the directory above `pkg`.
    Rooted(String),
    /// Files directly in a directory whose path ends with this (a Java package).
    Directory(String),
    /// Files directly in a directory whose path ends this import path (a Go package: the
    /// module's own path prefix is not in the project's paths).
    ImportPath(String),
    /// Files directly in this root-relative directory, `""` the root: a Go package of a module
    /// whose `go.mod` the project holds, which says where its import paths are.
    PackageDir(String),
    /// Any of these.
    Any(Vec<Target>),
    /// Nothing in the project.
    None,
}

impl Target {
    pub(crate) fn matches(&self, file: &str) -> bool {
        let stem = module_stem(file);
        match self {
            Target::Exact(stems) => stems.iter().any(|s| *s == stem),
            Target::Suffix(stems) => stems.iter().any(|s| suffix_of(stem, s)),
            Target::Rooted(module) => suffix_of(stem, module),
            Target::Directory(dir) => suffix_of(parent(file), dir),
            Target::ImportPath(path) => suffix_of(path, parent(file)),
            Target::PackageDir(dir) => parent(file) == dir,
            Target::Any(targets) => targets.iter().any(|t| t.matches(file)),
            Target::None => false,
        }
    }
}

/// The stem a module path names: `a/b` for `a/b.py`, `a/b/__init__.py`, `a/b/index.ts`,
/// `a/b/mod.rs`, and for the declaration files of those modules (`a/b.pyi`, `a/b/index.d.ts`).
pub(crate) fn module_stem(file: &str) -> &str {
    let stem = crate::declarations::declared_stem(file).unwrap_or_else(|| stem(file));
    for index in ["__init__", "index", "mod"] {
        // At the root, the module is the root itself (`from . import x` in a package checked
        // out as the project).
        if stem == index {
            return "";
        }
        if let Some(dir) = stem.strip_suffix(index).and_then(|dir| dir.strip_suffix('/')) {
            return dir;
        }
    }
    stem
}

/// The project's files by the last component of their module stem and of their directory:
/// every rule of [`Target`] compares one of those last components, so the files a target can
/// match are found without testing every file of the project.
#[derive(Debug, Default)]
pub(crate) struct FileIndex {
    by_stem: HashMap<String, BTreeSet<String>>,
    by_dir: HashMap<String, BTreeSet<String>>,
}

impl FileIndex {
    pub(crate) fn insert(&mut self, file: &str) {
        self.by_stem.entry(last(module_stem(file)).to_string()).or_default().insert(file.to_string());
        self.by_dir.entry(last(parent(file)).to_string()).or_default().insert(file.to_string());
    }

    pub(crate) fn remove(&mut self, file: &str) {
        for (index, key) in [(&mut self.by_stem, last(module_stem(file))), (&mut self.by_dir, last(parent(file)))] {
            if let Some(files) = index.get_mut(key) {
                files.remove(file);
                if files.is_empty() {
                    index.remove(key);
                }
            }
        }
    }

    /// Whether the root-relative directory `dir` is a Python package: it holds `__init__.py` (or
    /// its stub). The root itself is none.
    fn is_package(&self, dir: &str) -> bool {
        !dir.is_empty()
            && self.by_stem.get(last(dir)).is_some_and(|files| {
                ["__init__.py", "__init__.pyi"].iter().any(|init| files.contains(&format!("{dir}/{init}")))
            })
    }

    /// The files `target` matches, in path order.
    pub(crate) fn matching(&self, target: &Target) -> BTreeSet<&str> {
        let mut out = BTreeSet::new();
        self.collect(target, &mut out);
        out
    }

    fn collect<'a>(&'a self, part: &Target, out: &mut BTreeSet<&'a str>) {
        let (index, keys): (_, Vec<&str>) = match part {
            Target::Exact(stems) | Target::Suffix(stems) => (&self.by_stem, stems.iter().map(|s| last(s)).collect()),
            Target::Rooted(module) => {
                let files = self.by_stem.get(last(module)).into_iter().flatten();
                let rooted = |file: &&String| {
                    let stem = module_stem(file);
                    part.matches(file) && !self.is_package(stem[..stem.len() - module.len()].trim_end_matches('/'))
                };
                out.extend(files.filter(rooted).map(String::as_str));
                return;
            }
            Target::Directory(path) | Target::ImportPath(path) | Target::PackageDir(path) => {
                (&self.by_dir, vec![last(path)])
            }
            Target::Any(parts) => {
                for part in parts {
                    self.collect(part, out);
                }
                return;
            }
            Target::None => return,
        };
        for key in keys {
            let files = index.get(key).into_iter().flatten();
            out.extend(files.filter(|f| part.matches(f)).map(String::as_str));
        }
    }
}

/// Where a Rust file is among its crate's targets, as the project's manifests say; the default
/// (no manifest) guesses the crate by its directories.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct RustPlace<'a> {
    /// The directory of the crate the file is in (see [`in_crate_dir`]).
    pub crate_dir: Option<&'a str>,
    /// The kinds of target the crate's manifest has Cargo not find by their place.
    pub declared_only: DeclaredOnly,
    /// A `[[test]]`, `[[bin]]`, `[[example]]` or `[[bench]]` entry names the file: a crate root
    /// wherever it is.
    pub declared_target: bool,
}

/// The kinds of Cargo target a manifest turns off finding by their place (`autotests = false`,
/// `autoexamples`, `autobenches`, `autobins`): of those, only its `[[test]]`, `[[example]]`,
/// `[[bench]]` or `[[bin]]` entries are targets, and the other files in their directories are
/// modules the targets include.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct DeclaredOnly {
    pub tests: bool,
    pub examples: bool,
    pub benches: bool,
    pub bins: bool,
}

/// The files `module`, imported by `from`, may be; `place` says where a Rust `from` is among its
/// crate's targets.
pub(crate) fn target(language: Language, from: &str, module: &str, place: RustPlace<'_>) -> Target {
    match language {
        Language::Python => python(from, module),
        Language::JavaScript | Language::TypeScript | Language::Tsx => javascript(from, module),
        Language::Go => Target::ImportPath(module.to_string()),
        Language::Java => Target::Directory(module.replace('.', "/")),
        Language::Rust => rust(from, module, place),
        _ => Target::None,
    }
}

fn python(from: &str, module: &str) -> Target {
    let dots = module.chars().take_while(|c| *c == '.').count();
    let rest = module[dots..].replace('.', "/");
    if dots == 0 {
        return Target::Rooted(rest);
    }
    let mut base = parent(from).to_string();
    for _ in 1..dots {
        base = parent(&base).to_string();
    }
    Target::Exact(vec![join(&base, &rest)])
}

fn javascript(from: &str, module: &str) -> Target {
    if !module.starts_with('.') {
        // A package: node_modules, not the project.
        return Target::None;
    }
    match normalize(&join(parent(from), module)) {
        // `./index`, `./lib/index.js` name the directory's index file, as `./lib` does.
        Some(path) => Target::Exact(vec![module_stem(&path).to_string(), path]),
        None => Target::None,
    }
}

/// The module directory of a Rust file: `src` for `src/lib.rs` or `src/a/mod.rs`'s parent module
/// children, `src/a` for `src/a.rs`; a target is a crate root too, whose `mod x;` is beside it as
/// rustc reads it, so `mod common;` in `tests/cli.rs` is `tests/common/mod.rs`.
fn rust_module_dir(file: &str, place: RustPlace<'_>) -> String {
    let stem = stem(file);
    let name = stem.rsplit('/').next().unwrap_or(stem);
    match name {
        "lib" | "main" | "mod" => parent(file).to_string(),
        _ if place.declared_target || is_rust_target_root(file, place) => parent(file).to_string(),
        _ => stem.to_string(),
    }
}

/// `tests/x.rs`, `examples/x.rs`, `benches/x.rs` and `src/bin/x.rs` in the crate's directory (see
/// [`in_crate_dir`]; a `src/bin` elsewhere is a module's directory), each unless the manifest
/// declares its targets of that kind only: a target Cargo finds by its place, a crate of its own.
fn is_rust_target_root(file: &str, place: RustPlace<'_>) -> bool {
    let dir = parent(file);
    let (above, leaf) = dir.rsplit_once('/').unwrap_or(("", dir));
    let declared_only = place.declared_only;
    let found_by_place = match leaf {
        "tests" => !declared_only.tests,
        "examples" => !declared_only.examples,
        "benches" => !declared_only.benches,
        _ => false,
    };
    let bin = leaf == "bin" && last(above) == "src" && !declared_only.bins;
    (found_by_place && in_crate_dir(above, place.crate_dir)) || (bin && in_crate_dir(parent(above), place.crate_dir))
}

/// Whether `dir` is a crate's directory, where Cargo looks for its `tests/`, `examples/` and
/// `benches/`: the crate's own, `crate_dir`, when a manifest names it (rust-lang/rust's
/// `src/tools/x/tests/` is `x`'s tests); with none, any directory outside a `src/` (whose
/// `src/store/tests/` is a module of the crate's unit tests).
pub(crate) fn in_crate_dir(dir: &str, crate_dir: Option<&str>) -> bool {
    match crate_dir {
        Some(krate) => dir == krate,
        None => !dir.split('/').any(|c| c == "src"),
    }
}

/// A Rust module path written in `depth` inline modules (`mod tests { … }`) of a file, as written
/// from the file's own module: each `super::` up to `depth` leaves one of them, and the path
/// then starts at the file's module (`self::…`); `super::super::f` one deep is `super::f`. An
/// inline module's own items are the file's to the graph, so a path within them is the file's too.
pub(crate) fn out_of_inline(path: &str, depth: usize) -> std::borrow::Cow<'_, str> {
    let mut rest = path;
    let mut left = 0;
    while left < depth
        && let Some(tail) = rest.strip_prefix("super").filter(|tail| tail.is_empty() || tail.starts_with("::"))
    {
        rest = tail.trim_start_matches("::");
        left += 1;
    }
    match (left, rest) {
        (0, _) => std::borrow::Cow::Borrowed(path),
        (_, "") => std::borrow::Cow::Borrowed("self"),
        // A `super` beyond the inline modules (not a module named `supervisor`).
        (_, rest) if rest == "super" || rest.starts_with("super::") => std::borrow::Cow::Borrowed(rest),
        (_, rest) => std::borrow::Cow::Owned(format!("self::{rest}")),
    }
}

fn rust(from: &str, module: &str, place: RustPlace<'_>) -> Target {
    let segments: Vec<&str> = module.split("::").filter(|s| !s.is_empty()).collect();
    match segments.split_first() {
        None => Target::Exact(vec![module_stem(from).to_string()]),
        Some((&"self", rest)) => Target::Exact(vec![join(&rust_module_dir(from, place), &rest.join("/"))]),
        Some((&"super", rest)) => {
            let mut dir = parent(&rust_module_dir(from, place)).to_string();
            let mut rest = rest;
            while let Some((&"super", tail)) = rest.split_first() {
                dir = parent(&dir).to_string();
                rest = tail;
            }
            if rest.is_empty() {
                // The parent module itself: `dir.rs`, `dir/mod.rs`, or at a crate's root
                // (`src/tests.rs` under `src/lib.rs`) the crate root, which names no module.
                return Target::Exact(vec![join(&dir, "lib"), join(&dir, "main"), dir]);
            }
            Target::Exact(vec![join(&dir, &rest.join("/"))])
        }
        Some((&"crate", [])) => Target::Suffix(vec!["lib".to_string(), "main".to_string()]),
        Some((&"crate", rest)) => Target::Suffix(vec![rest.join("/")]),
        // A child module declared in this module (`mod config;` then `use config::X`), or
        // another crate: one of the workspace (`<crate>/src/…`) or a dependency, matching nothing.
        Some((krate, rest)) => {
            let child = Target::Exact(vec![join(&rust_module_dir(from, place), &segments.join("/"))]);
            let path = if rest.is_empty() { "lib".to_string() } else { rest.join("/") };
            let dashed = krate.replace('_', "-");
            Target::Any(vec![
                child,
                Target::Suffix(vec![format!("{dashed}/src/{path}"), format!("{krate}/src/{path}")]),
            ])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(language: Language, from: &str, module: &str, file: &str) -> bool {
        target(language, from, module, RustPlace::default()).matches(file)
    }

    #[test]
    fn python_modules_absolute_and_relative() {
        assert!(matches(Language::Python, "app/main.py", "app.models", "app/models.py"));
        assert!(matches(Language::Python, "app/main.py", "app.models", "src/app/models/__init__.py"));
        assert!(matches(Language::Python, "app/api/views.py", "..models", "app/models.py"));
        assert!(matches(Language::Python, "app/api/views.py", ".", "app/api/__init__.py"));
        assert!(!matches(Language::Python, "app/main.py", "os.path", "app/path.py"));
        // A package checked out as the project: its `__init__.py` is at the root.
        assert!(matches(Language::Python, "jupyter.py", ".", "__init__.py"));
        assert!(!matches(Language::Python, "jupyter.py", ".", "console.py"));
    }

    #[test]
    fn javascript_specifiers_are_relative_or_packages() {
        assert!(matches(Language::TypeScript, "src/ui/app.ts", "../store", "src/store.ts"));
        assert!(matches(Language::TypeScript, "src/ui/app.ts", "../store", "src/store/index.ts"));
        assert!(matches(Language::JavaScript, "src/a.js", "./b.js", "src/b.js"));
        assert!(matches(Language::JavaScript, "a.js", "./index", "index.js"));
        assert!(matches(Language::JavaScript, "src/a.js", "./lib/index.js", "src/lib/index.js"));
        // Declaration files are their modules' too.
        assert!(matches(Language::TypeScript, "src/ui/app.ts", "../store", "src/store.d.ts"));
        assert!(matches(Language::TypeScript, "src/ui/app.ts", "../store", "src/store/index.d.ts"));
        assert!(matches(Language::JavaScript, "src/a.js", "./b.js", "src/b.d.ts"));
        assert!(!matches(Language::TypeScript, "src/a.ts", "react", "src/react.ts"));
    }

    #[test]
    fn rust_paths_from_crate_self_and_super() {
        assert!(matches(Language::Rust, "src/main.rs", "crate::config", "src/config.rs"));
        assert!(matches(Language::Rust, "src/main.rs", "crate::config", "src/config/mod.rs"));
        assert!(matches(Language::Rust, "src/net/mod.rs", "self::tcp", "src/net/tcp.rs"));
        assert!(matches(Language::Rust, "src/net/tcp.rs", "super::udp", "src/net/udp.rs"));
        assert!(matches(Language::Rust, "src/net/tcp.rs", "super::super::config", "src/config.rs"));
        assert!(matches(Language::Rust, "src/net/tcp.rs", "super", "src/net/mod.rs"));
        // A module of the crate root (`mod tests;` in lib.rs): its `super` is the root.
        assert!(matches(Language::Rust, "src/tests.rs", "super", "src/lib.rs"));
        assert!(matches(Language::Rust, "src/bin/tool/args.rs", "super", "src/bin/tool/main.rs"));
        assert!(!matches(Language::Rust, "src/net/tcp.rs", "super", "src/lib.rs"));
        assert!(matches(Language::Rust, "src/main.rs", "config", "src/config.rs"));
        assert!(matches(
            Language::Rust,
            "daemon/src/main.rs",
            "lean_ctx_graph::facts",
            "graph/lean-ctx-graph/src/facts.rs"
        ));
        assert!(!matches(Language::Rust, "src/net/tcp.rs", "std::collections", "src/collections.rs"));
        // An integration test, an example or a binary is a crate root: its `mod x;` is beside it.
        assert!(matches(Language::Rust, "tests/test_macros.rs", "common", "tests/common/mod.rs"));
        assert!(matches(Language::Rust, "cli/tests/run.rs", "self::common", "cli/tests/common.rs"));
        assert!(matches(Language::Rust, "examples/demo.rs", "util", "examples/util.rs"));
        assert!(matches(Language::Rust, "src/bin/tool.rs", "args", "src/bin/args.rs"));
        // A module named `tests` inside the crate keeps its own directory.
        assert!(matches(Language::Rust, "src/tests/cases.rs", "inner", "src/tests/cases/inner.rs"));
    }

    #[test]
    fn go_and_java_packages_are_directories() {
        assert!(matches(Language::Go, "cmd/main.go", "example.com/shop/internal/store", "internal/store/db.go"));
        assert!(!matches(Language::Go, "cmd/main.go", "net/http", "internal/store/db.go"));
        assert!(matches(Language::Java, "src/App.java", "com.acme.orders", "src/main/java/com/acme/orders/Order.java"));
    }

    #[test]
    fn the_file_index_finds_what_testing_every_file_finds() {
        let files = [
            "app/main.py",
            "app/models.py",
            "src/app/models/__init__.py",
            "app/api/views.py",
            "app/api/__init__.py",
            "src/ui/app.ts",
            "src/store.ts",
            "src/store/index.ts",
            "src/a.js",
            "src/b.js",
            "src/main.rs",
            "src/config.rs",
            "src/config/mod.rs",
            "src/net/mod.rs",
            "src/net/tcp.rs",
            "src/lib.rs",
            "other-crate/src/lib.rs",
            "other-crate/src/util.rs",
            "cmd/server/main.go",
            "internal/store/store.go",
            "src/main/java/com/acme/orders/Order.java",
            "top.py",
        ];
        let mut index = FileIndex::default();
        for file in files {
            index.insert(file);
        }
        index.insert("gone.py");
        index.remove("gone.py");
        let cases = [
            (Language::Python, "app/main.py", "app.models"),
            (Language::Python, "app/api/views.py", "..models"),
            (Language::Python, "app/api/views.py", "."),
            (Language::Python, "app/main.py", "top"),
            (Language::Python, "app/main.py", "gone"),
            (Language::TypeScript, "src/ui/app.ts", "../store"),
            (Language::JavaScript, "src/a.js", "./b.js"),
            (Language::Rust, "src/main.rs", "crate::config"),
            (Language::Rust, "src/net/mod.rs", "self::tcp"),
            (Language::Rust, "src/net/tcp.rs", "super"),
            (Language::Rust, "src/config.rs", "super"),
            (Language::Rust, "src/main.rs", "crate"),
            (Language::Rust, "src/main.rs", "other_crate::util"),
            (Language::Go, "cmd/server/main.go", "example.com/x/internal/store"),
            (Language::Java, "src/main/java/com/acme/App.java", "com.acme.orders"),
        ];
        for (language, from, module) in cases {
            let target = target(language, from, module, RustPlace::default());
            let tested: BTreeSet<&str> = files.iter().copied().filter(|f| target.matches(f)).collect();
            assert_eq!(index.matching(&target), tested, "{module} from {from}");
        }
    }

    #[test]
    fn a_path_out_of_inline_modules_leaves_one_per_super() {
        assert_eq!(out_of_inline("super::validate", 1), "self::validate");
        assert_eq!(out_of_inline("super::super::f", 1), "super::f");
        assert_eq!(out_of_inline("super", 1), "self");
        // A reader: a module whose name starts with `super` is no `super`.
        assert_eq!(out_of_inline("super::supervisor::start", 1), "self::supervisor::start");
        assert_eq!(out_of_inline("crate::a", 1), "crate::a");
    }
}
