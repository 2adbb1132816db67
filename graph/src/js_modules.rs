//! Bare module specifiers a JavaScript/TypeScript project maps into itself: the `paths` of its
//! `tsconfig.json` / `jsconfig.json` (`"@internal/*": ["src/*"]`, `"@/*": ["./app/*"]`) and the
//! names of its own packages (`package.json` `name`: a test importing `@scope/lib`, or one package
//! of a monorepo importing another). Without these such imports look like dependencies, and
//! every call through them resolves by name alone.
//!
//! The rules follow the TypeScript compiler's where they matter for finding project files: a file
//! is governed by the nearest config above it; `paths` are relative to `baseUrl`, else to the
//! config that writes them; `extends` of a project file is followed and its options are
//! overridden by the extending config's; the pattern with the longest prefix before its `*` wins.
//! A package name maps to the package's `src/` or its directory (projects keep their sources
//! there; the built files a `main` field names are usually not in the project).
//!
//! Rust's crates are read here too, from each `Cargo.toml`'s `[lib] name`, else its
//! `[package] name` (`-` read as `_`): an integration test's `use mycrate::util::helper` names
//! the crate's `src/util.rs`, which the path alone cannot tell from a dependency's module. So are
//! the targets its `[[test]]`, `[[bin]]`, `[[example]]` and `[[bench]]` entries place by `path`,
//! which no convention finds, and whether `autotests`, `autobins`, `autoexamples` or
//! `autobenches = false` leaves a kind's entries the only targets of that kind.
//!
//! So are Go's modules, from each `go.mod`'s `module` path: an import path under it names the
//! directory below the `go.mod`, the module's own root package included (`import
//! "github.com/spf13/afero"` from a test in `afero/zipfs`), which matching directories by the
//! import path's suffix cannot find.

use std::collections::{BTreeMap, BTreeSet};

use lean_ctx_common::jsonc;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::modules::{DeclaredOnly, RustPlace, join, last, module_stem, normalize, parent};

/// How many configs an `extends` chain is followed through.
const MAX_EXTENDS: usize = 8;

/// The project's own mappings of bare specifiers (see the module documentation).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsModules {
    /// Every `tsconfig.json` / `jsconfig.json`, deepest directory first: a file's nearest config
    /// is the first whose directory holds it.
    configs: Vec<PathsConfig>,
    /// The project's packages, longest name first.
    packages: Vec<Package>,
    /// The project's Rust crates, by the name their code uses (`my_crate`), in name order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    crates: Vec<Package>,
    /// The directories of those crates, each with the kinds of target its manifest turns off
    /// Cargo's finding by their place (`autotests = false`, …): a file's crate is found by looking
    /// its directories up, not by testing every crate.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    crate_dirs: BTreeMap<String, DeclaredOnly>,
    /// The test targets manifests declare (`[[test]] name = "all"`, `path =
    /// "tests/suite/all.rs"`), which Cargo may not find by their place: root-relative path →
    /// target name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    cargo_tests: BTreeMap<String, String>,
    /// The other targets manifests declare (`[[bin]]`, `[[example]]`, `[[bench]]`), root-relative:
    /// crate roots wherever they are.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    cargo_roots: BTreeSet<String>,
    /// The project's Go modules, by their `go.mod` module path, longest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    go_modules: Vec<Package>,
    /// tsconfig/jsconfig files (or the bases they extend) that could not be read or parsed, by
    /// path: what they write is not applied.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    broken: Vec<BrokenConfig>,
}

/// A config file whose mappings are not applied, and why (a syntax error and its line, or that
/// it cannot be read), so answers that depend on them can say so instead of resolving quietly
/// by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrokenConfig {
    /// Root-relative path of the config.
    pub path: String,
    /// `line 3: expected `,` or `}``, or `cannot be read`.
    pub problem: String,
}

impl std::fmt::Display for BrokenConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` ({})", self.path, self.problem)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct PathsConfig {
    /// Root-relative directory of the config.
    dir: String,
    rules: Vec<PathRule>,
}

/// One `paths` entry: a pattern (at most one `*`) and where it points, root-relative.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct PathRule {
    pattern: String,
    targets: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Package {
    name: String,
    dir: String,
}

/// Whether `rel` (root-relative) is a file [`JsModules::read`] reads: a change to it changes the
/// mappings.
pub fn is_js_config(rel: &str) -> bool {
    let name = last(rel);
    name == "package.json"
        || name == "jsconfig.json"
        || name == "Cargo.toml"
        || name == "go.mod"
        || (name.starts_with("tsconfig") && name.ends_with(".json"))
}

impl JsModules {
    /// The mappings the config files among `files` (root-relative) write; `read` gives a
    /// root-relative file's text, or `None` when it cannot be read. A config that does not parse
    /// maps nothing; a tsconfig/jsconfig is then listed in [`JsModules::broken`].
    pub fn read<'a>(files: impl IntoIterator<Item = &'a str>, read: impl Fn(&str) -> Option<String>) -> JsModules {
        let mut modules = JsModules::default();
        let mut broken = BTreeMap::new();
        for rel in files {
            match last(rel) {
                "package.json" => {
                    // Not listed when broken: JavaScript tooling keeps deliberately broken
                    // package.json files among its test fixtures, and a project's own broken one
                    // already fails npm loudly.
                    let name = load(rel, &read).ok().and_then(|json| match json.get("name") {
                        Some(Value::String(name)) if !name.is_empty() => Some(name.clone()),
                        _ => None,
                    });
                    if let Some(name) = name {
                        modules.packages.push(Package { name, dir: parent(rel).to_string() });
                    }
                }
                // A broken or workspace-only manifest names no crate; cargo reports the former.
                "Cargo.toml" => {
                    let Some(manifest) = read(rel).and_then(|text| text.parse::<toml_edit::DocumentMut>().ok()) else {
                        continue;
                    };
                    let dir = parent(rel);
                    if let Some(name) = cargo_lib_name(&manifest) {
                        modules.crates.push(Package { name, dir: dir.to_string() });
                        modules.crate_dirs.insert(dir.to_string(), declared_only(&manifest));
                    }
                    for (name, path) in cargo_targets(&manifest, "test", "tests") {
                        if let Some(path) = normalize(&join(dir, &path)) {
                            modules.cargo_tests.insert(path, name);
                        }
                    }
                    let others = [("bin", "src/bin"), ("example", "examples"), ("bench", "benches")];
                    for (kind, places) in others {
                        let paths = cargo_targets(&manifest, kind, places).into_iter();
                        modules.cargo_roots.extend(paths.filter_map(|(_, path)| normalize(&join(dir, &path))));
                    }
                }
                // One without a `module` line is broken; `go` reports it.
                "go.mod" => {
                    if let Some(name) = read(rel).as_deref().and_then(go_module_path) {
                        modules.go_modules.push(Package { name, dir: parent(rel).to_string() });
                    }
                }
                "tsconfig.json" | "jsconfig.json" => {
                    let options = compiler_options(rel, &read, &mut broken, 0);
                    modules.configs.push(PathsConfig { dir: parent(rel).to_string(), rules: options.rules() });
                }
                _ => {}
            }
        }
        modules.broken = broken.into_iter().map(|(path, problem)| BrokenConfig { path, problem }).collect();
        let depth = |dir: &str| if dir.is_empty() { 0 } else { dir.matches('/').count() + 1 };
        modules.configs.sort_by(|a, b| depth(&b.dir).cmp(&depth(&a.dir)).then_with(|| a.dir.cmp(&b.dir)));
        modules.packages.sort_by(|a, b| b.name.len().cmp(&a.name.len()).then_with(|| a.name.cmp(&b.name)));
        modules.crates.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.dir.cmp(&b.dir)));
        modules.go_modules.sort_by(|a, b| b.name.len().cmp(&a.name.len()).then_with(|| a.name.cmp(&b.name)));
        modules
    }

    /// The root-relative directory a Go import path names when it is in one of the project's
    /// modules (the module with the longest path holding it); `None` for any other import path.
    pub(crate) fn go_package_dir(&self, import: &str) -> Option<String> {
        self.go_modules.iter().find_map(|m| {
            let rest = import.strip_prefix(m.name.as_str())?;
            let rest = if rest.is_empty() { rest } else { rest.strip_prefix('/')? };
            Some(join(&m.dir, rest))
        })
    }

    /// Where the Rust file `file` is among its crate's targets, as the manifests say: its crate is
    /// the deepest of the directories above it with a `Cargo.toml` that names a package.
    pub(crate) fn rust_place(&self, file: &str) -> RustPlace<'_> {
        let mut dir = parent(file);
        let krate = loop {
            if let Some(found) = self.crate_dirs.get_key_value(dir) {
                break Some(found);
            }
            if dir.is_empty() {
                break None;
            }
            dir = parent(dir);
        };
        RustPlace {
            crate_dir: krate.map(|(dir, _)| dir.as_str()),
            declared_only: krate.map(|(_, only)| *only).unwrap_or_default(),
            declared_target: self.cargo_tests.contains_key(file) || self.cargo_roots.contains(file),
        }
    }

    /// The name of the test target `file` is by a manifest's `[[test]]` entry, if it is one.
    pub(crate) fn cargo_test(&self, file: &str) -> Option<&str> {
        self.cargo_tests.get(file).map(String::as_str)
    }

    /// The module stems a Rust path whose first segment names one of the project's crates
    /// (`mycrate::util` → `src/util`, `mycrate` → `src/lib`); `None` for any other path.
    pub(crate) fn crate_stems(&self, module: &str) -> Option<Vec<String>> {
        let mut segments = module.split("::").filter(|s| !s.is_empty());
        let first = segments.next()?;
        // Asked for every Rust import a resolution meets (`std::…`, `serde::…`): nothing is built
        // unless a crate of the project has the name (the list is sorted by it).
        self.crates.binary_search_by(|c| c.name.as_str().cmp(first)).ok()?;
        let rest: Vec<&str> = segments.collect();
        let path = if rest.is_empty() { "lib".to_string() } else { rest.join("/") };
        let stems: Vec<String> = self
            .crates
            .iter()
            .filter(|c| c.name == first)
            .map(|c| module_stem(&join(&c.dir, &join("src", &path))).to_string())
            .collect();
        (!stems.is_empty()).then_some(stems)
    }

    /// The configs read that could not be parsed or read, by path.
    pub fn broken(&self) -> &[BrokenConfig] {
        &self.broken
    }

    /// The module stems (as [`module_stem`] gives them) `module`, imported by `from`, names in
    /// the project; `None` when the project maps no such specifier.
    pub(crate) fn stems(&self, from: &str, module: &str) -> Option<Vec<String>> {
        let config = self
            .configs
            .iter()
            .find(|c| c.dir.is_empty() || from.strip_prefix(c.dir.as_str()).is_some_and(|rest| rest.starts_with('/')));
        if let Some(targets) = config.and_then(|c| c.resolve(module)) {
            return Some(targets.iter().filter_map(|t| Some(module_stem(&normalize(t)?).to_string())).collect());
        }
        let package = self.packages.iter().find(|p| {
            module.strip_prefix(p.name.as_str()).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })?;
        let rest = module[package.name.len()..].trim_start_matches('/');
        let stems = [join(&package.dir, &join("src", rest)), join(&package.dir, rest)];
        Some(stems.iter().map(|s| module_stem(s).to_string()).collect())
    }
}

impl PathsConfig {
    /// Where `module` points by the rule TypeScript picks: an exact pattern, else the wildcard
    /// pattern with the longest prefix.
    fn resolve(&self, module: &str) -> Option<Vec<String>> {
        if let Some(rule) = self.rules.iter().find(|r| r.pattern == module) {
            return Some(rule.targets.clone());
        }
        let (rule, star) = self
            .rules
            .iter()
            .filter_map(|rule| {
                let (prefix, suffix) = rule.pattern.split_once('*')?;
                let middle = module.strip_prefix(prefix)?.strip_suffix(suffix)?;
                Some((rule, prefix.len(), middle))
            })
            .max_by_key(|(_, prefix, _)| *prefix)
            .map(|(rule, _, middle)| (rule, middle))?;
        Some(rule.targets.iter().map(|t| t.replacen('*', star, 1)).collect())
    }
}

/// The name a package's code and tests use for its library, as TOML reads the manifest
/// (comments, quoting and spacing as any manifest writes them): `[lib] name` when it is given,
/// else the `[package]` name with `-` read as `_`, as Cargo names it; `None` for a workspace's
/// manifest.
fn cargo_lib_name(manifest: &toml_edit::DocumentMut) -> Option<String> {
    let package = manifest.get("package")?.get("name")?.as_str()?;
    let lib = manifest.get("lib").and_then(|lib| lib.get("name")?.as_str());
    lib.or(Some(package)).filter(|name| !name.is_empty()).map(|name| name.replace('-', "_"))
}

/// The `module` path a `go.mod` declares (`module example.com/x`, quoted or not, a comment after
/// it).
fn go_module_path(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let line = line.split("//").next().unwrap_or(line);
        let path = line.trim().strip_prefix("module")?;
        // `module` and a blank, not a directive that begins with the word.
        if !path.starts_with([' ', '\t']) {
            return None;
        }
        let path = path.trim().trim_matches(['"', '`']);
        (!path.is_empty()).then(|| path.to_string())
    })
}

/// The `[[KIND]]` targets of a manifest (`test`, `bin`, `example`, `bench`), as (name, path
/// relative to the manifest): the `path` given, else the two places in `places` Cargo looks for a
/// target of that name (`tests/NAME.rs`, `tests/NAME/main.rs`), which matter where
/// `autotests = false` (or its kind's switch) leaves only declared targets.
fn cargo_targets(manifest: &toml_edit::DocumentMut, kind: &str, places: &str) -> Vec<(String, String)> {
    let targets = manifest.get(kind).and_then(toml_edit::Item::as_array_of_tables);
    let mut out = Vec::new();
    for target in targets.into_iter().flatten() {
        let Some(name) = target.get("name").and_then(|n| n.as_str()) else { continue };
        match target.get("path").and_then(|p| p.as_str()) {
            Some(path) => out.push((name.to_string(), path.to_string())),
            None => out.extend(
                [format!("{places}/{name}.rs"), format!("{places}/{name}/main.rs")]
                    .map(|path| (name.to_string(), path)),
            ),
        }
    }
    out
}

/// The kinds of target a manifest has Cargo find only where its entries declare them
/// (`autotests = false` and the like under `[package]`).
fn declared_only(manifest: &toml_edit::DocumentMut) -> DeclaredOnly {
    let off =
        |key: &str| manifest.get("package").and_then(|p| p.get(key)).and_then(toml_edit::Item::as_bool) == Some(false);
    DeclaredOnly {
        tests: off("autotests"),
        examples: off("autoexamples"),
        benches: off("autobenches"),
        bins: off("autobins"),
    }
}

/// A config's `baseUrl` and `paths` after its `extends` chain, each root-relative where it was
/// written.
#[derive(Default)]
struct Options {
    /// `baseUrl`, root-relative.
    base_url: Option<String>,
    /// `paths` and the directory of the config that wrote them.
    paths: Option<(Map<String, Value>, String)>,
}

impl Options {
    fn rules(&self) -> Vec<PathRule> {
        let Some((paths, written_in)) = &self.paths else { return Vec::new() };
        let base = self.base_url.as_deref().unwrap_or(written_in);
        paths
            .iter()
            .filter_map(|(pattern, targets)| {
                let targets: Vec<String> =
                    targets.as_array()?.iter().filter_map(|t| Some(join(base, t.as_str()?))).collect();
                (pattern.matches('*').count() <= 1 && !targets.is_empty())
                    .then(|| PathRule { pattern: pattern.clone(), targets })
            })
            .collect()
    }
}

/// The options of the config at `rel`, with what its `extends` chain gives where it says nothing;
/// a config of the chain that cannot be read or parsed goes into `broken`.
fn compiler_options(
    rel: &str,
    read: &impl Fn(&str) -> Option<String>,
    broken: &mut BTreeMap<String, String>,
    depth: usize,
) -> Options {
    let json = match load(rel, read) {
        Ok(json) => json,
        Err(problem) => {
            broken.insert(rel.to_string(), problem);
            return Options::default();
        }
    };
    let dir = parent(rel);
    let mut options = Options::default();
    if depth < MAX_EXTENDS {
        let bases = match json.get("extends") {
            Some(Value::String(one)) => vec![one.as_str()],
            Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        // Of several, a later one overrides an earlier one.
        for base in bases.into_iter().filter_map(|b| extended(dir, b)) {
            let inherited = compiler_options(&base, read, broken, depth + 1);
            options.base_url = inherited.base_url.or(options.base_url);
            options.paths = inherited.paths.or(options.paths);
        }
    }
    let own = json.get("compilerOptions");
    if let Some(Value::String(base_url)) = own.and_then(|o| o.get("baseUrl")) {
        options.base_url = normalize(&join(dir, base_url));
    }
    if let Some(Value::Object(paths)) = own.and_then(|o| o.get("paths")) {
        options.paths = Some((paths.clone(), dir.to_string()));
    }
    options
}

/// The project file an `extends` names, root-relative; `None` for a package's config (not in the
/// project) or a path above the root.
fn extended(dir: &str, base: &str) -> Option<String> {
    if !base.starts_with('.') {
        return None;
    }
    let path = normalize(&join(dir, base))?;
    Some(if path.ends_with(".json") { path } else { format!("{path}.json") })
}

/// The config at `rel`, parsed, or what is wrong with it.
fn load(rel: &str, read: &impl Fn(&str) -> Option<String>) -> Result<Value, String> {
    read(rel).ok_or_else(|| "cannot be read".to_string()).and_then(|text| parse(&text))
}

/// A JSON document that may hold comments and trailing commas, as tsconfig files do; an error
/// says its line and what was wrong there.
fn parse(text: &str) -> Result<Value, String> {
    match jsonc::value(text) {
        Ok(Some(json)) => Ok(json),
        // An empty config (or one of comments only) configures nothing, as for TypeScript.
        Ok(None) => Ok(Value::Object(Map::new())),
        Err(e) => Err(match e.position(text) {
            Some((line, _)) => format!("line {line}: {}", e.message),
            None => e.message,
        }),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn modules(files: &[(&str, &str)]) -> JsModules {
        let texts: HashMap<&str, &str> = files.iter().copied().collect();
        JsModules::read(files.iter().map(|(rel, _)| *rel), |rel| texts.get(rel).map(|t| t.to_string()))
    }

    #[test]
    fn rust_crates_are_named_by_their_manifests_lib_or_package() {
        let m = modules(&[
            ("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n"),
            ("crates/my-core/Cargo.toml", "[package]\nname = \"my-core\"\n\n[dependencies]\nname = \"x\"\n"),
            (
                "mini/Cargo.toml",
                "[lib]\nname = \"other\"\n[package]\nversion = \"1\"\nname=\"mini\"\n\n[[test]]\nname = \"suite\"\npath = \
                 \"tests/suite/all.rs\"\n\n[[test]]\nname = \"plain\"\n",
            ),
            ("spaced/Cargo.toml", "[ package ] # the crate\nname = \"spaced-out\" # its name\n"),
        ]);
        assert_eq!(m.crate_stems("spaced_out::a"), Some(vec!["spaced/src/a".to_string()]));
        assert_eq!(m.crate_stems("my_core::store"), Some(vec!["crates/my-core/src/store".to_string()]));
        // Its tests write `use other::…`: `mini::` names no crate.
        assert_eq!(m.crate_stems("other::a"), Some(vec!["mini/src/a".to_string()]));
        assert_eq!(m.crate_stems("mini"), None);
        assert_eq!(m.crate_stems("std::collections"), None);
        assert_eq!(m.crate_stems("my-core"), None);
        assert_eq!(m.cargo_test("mini/tests/suite/all.rs"), Some("suite"));
        assert_eq!(m.cargo_test("mini/tests/other.rs"), None);
        // A `[[test]]` without a path is where Cargo looks for one of its name.
        assert_eq!(m.cargo_test("mini/tests/plain.rs"), Some("plain"));
        let place = m.rust_place("crates/my-core/tests/deep/x.rs");
        assert_eq!((place.crate_dir, place.declared_only), (Some("crates/my-core"), DeclaredOnly::default()));
        assert_eq!(m.rust_place("elsewhere/src/lib.rs").crate_dir, None);
        assert!(is_js_config("crates/my-core/Cargo.toml"));
    }

    #[test]
    fn go_import_paths_under_a_module_name_the_directories_below_its_go_mod() {
        let m = modules(&[
            ("go.mod", "// the library\nmodule github.com/spf13/afero // root\n\ngo 1.16\n"),
            ("tools/go.mod", "module \"github.com/spf13/afero/tools\"\n"),
            ("broken/go.mod", "modulex nothing\n"),
        ]);
        assert_eq!(m.go_package_dir("github.com/spf13/afero"), Some(String::new()));
        assert_eq!(m.go_package_dir("github.com/spf13/afero/mem"), Some("mem".to_string()));
        // The nested module holds its own paths.
        assert_eq!(m.go_package_dir("github.com/spf13/afero/tools/gen"), Some("tools/gen".to_string()));
        assert_eq!(m.go_package_dir("github.com/spf13/aferox"), None);
        assert_eq!(m.go_package_dir("nothing"), None);
        assert!(is_js_config("tools/go.mod"));
    }

    #[test]
    fn comments_and_trailing_commas_are_dropped_but_not_inside_strings() {
        let text = "{\n  // a comment\n  \"a\": \"http://x/*y*/\", /* b */\n  \"c\": [1, 2,],\n}";
        assert_eq!(parse(text), Ok(serde_json::json!({"a": "http://x/*y*/", "c": [1, 2]})));
    }

    #[test]
    fn paths_are_relative_to_base_url_and_the_longest_prefix_wins() {
        let m = modules(&[(
            "web/tsconfig.json",
            r#"{ "compilerOptions": { "baseUrl": "./src", "paths": {
                "@/*": ["./*"], "@/ui/*": ["components/*", "legacy/*"], "config": ["conf/index.ts"] } } }"#,
        )]);
        assert_eq!(m.stems("web/src/app.ts", "@/store/cart"), Some(vec!["web/src/store/cart".to_string()]));
        assert_eq!(
            m.stems("web/src/app.ts", "@/ui/button"),
            Some(vec!["web/src/components/button".to_string(), "web/src/legacy/button".to_string()])
        );
        assert_eq!(m.stems("web/src/app.ts", "config"), Some(vec!["web/src/conf".to_string()]));
        assert_eq!(m.stems("web/src/app.ts", "react"), None);
        // A file outside the config's directory is not governed by it.
        assert_eq!(m.stems("other/app.ts", "@/store/cart"), None);
    }

    #[test]
    fn extends_gives_paths_relative_to_the_config_that_wrote_them_and_the_nearest_config_governs() {
        let m = modules(&[
            ("tsconfig.base.json", r#"{ "compilerOptions": { "paths": { "@lib/*": ["packages/lib/src/*"] } } }"#),
            ("packages/app/tsconfig.json", r#"{ "extends": "../../tsconfig.base", "compilerOptions": {} }"#),
            ("packages/solo/tsconfig.json", r#"{ "compilerOptions": { "strict": true } }"#),
        ]);
        assert_eq!(m.stems("packages/app/src/main.ts", "@lib/parse"), Some(vec!["packages/lib/src/parse".to_string()]));
        // Its own config maps nothing, so the specifier is left to the packages (none here).
        assert_eq!(m.stems("packages/solo/main.ts", "@lib/parse"), None);
    }

    #[test]
    fn the_project_s_own_package_names_map_to_its_sources() {
        let m = modules(&[
            ("package.json", r#"{ "name": "@acme/toolkit", "main": "dist/index.js" }"#),
            ("packages/query/package.json", r#"{ "name": "@acme/toolkit-query" }"#),
        ]);
        assert_eq!(m.stems("tests/a.test.ts", "@acme/toolkit"), Some(vec!["src".to_string(), String::new()]));
        assert_eq!(
            m.stems("tests/a.test.ts", "@acme/toolkit/react"),
            Some(vec!["src/react".to_string(), "react".to_string()])
        );
        assert_eq!(
            m.stems("src/a.ts", "@acme/toolkit-query"),
            Some(vec!["packages/query/src".to_string(), "packages/query".to_string()])
        );
        assert_eq!(m.stems("src/a.ts", "@acme/toolkitx"), None);
    }

    #[test]
    fn a_broken_config_maps_nothing_and_is_named_with_the_line_of_its_error() {
        let m = modules(&[
            // The error's line counts the lines of a block comment.
            (
                "tsconfig.json",
                "{\n  /* aliases\n  */\n  \"compilerOptions\": {\n    \"paths\": {}\n    \"strict\": true\n  }\n}\n",
            ),
            ("app/tsconfig.json", r#"{ "extends": "../base/tsconfig.json" }"#),
            ("package.json", "[]"),
            // A broken package.json maps nothing and is not listed (test fixtures hold such).
            ("lib/package.json", "{ \"name\": "),
        ]);
        assert_eq!(m.stems("a.ts", "@/x"), None);
        let broken: Vec<String> = m.broken().iter().map(ToString::to_string).collect();
        assert_eq!(broken, ["`base/tsconfig.json` (cannot be read)", "`tsconfig.json` (line 6: expected `,` or `}`)",]);
        // A config that parses, even one that maps nothing (or is empty, or starts with a byte
        // order mark), is not broken.
        let quiet = modules(&[
            ("package.json", "[]"),
            ("a/tsconfig.json", ""),
            ("b/tsconfig.json", "// nothing yet\n"),
            ("c/tsconfig.json", "\u{feff}{ \"compilerOptions\": { \"paths\": { \"@c/*\": [\"./src/*\"] } } }"),
        ]);
        assert!(quiet.broken().is_empty(), "{:?}", quiet.broken());
        assert_eq!(quiet.stems("c/main.ts", "@c/x"), Some(vec!["c/src/x".to_string()]));
        assert!(is_js_config("a/tsconfig.build.json") && is_js_config("package.json") && !is_js_config("a/b.json"));
    }
}
