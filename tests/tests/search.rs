//! Search end to end: the daemon's index follows edits, deletions and a
//! branch switch; fallback regex equals the daemon's; projects stay apart.

use std::path::Path;
use std::time::Duration;

use lean_ctx_proto::v1::{SearchRequest, SearchSource};
use lean_ctx_tests::{Home, bin, client_options, describe, git, git_project as project, wait_until};

fn lctx(home: &Home, dir: &Path, no_daemon: bool, args: &[&str]) -> String {
    let out = home.lctx_in(dir, no_daemon, args);
    assert!(out.status.success(), "{}", describe(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// (source, text) of a bm25 search through the daemon.
fn bm25(home: &Home, root: &Path, query: &str) -> (SearchSource, String) {
    let opts = client_options(home);
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
        let backend = lctx::backend::Backend::connect(&opts).await.unwrap();
        let mut ctx = opts.context();
        ctx.cwd = root.display().to_string();
        let req = SearchRequest {
            ctx: Some(ctx),
            pattern: query.into(),
            action: lean_ctx_proto::v1::SearchAction::Bm25 as i32,
            ..Default::default()
        };
        let out = backend.search().search(tonic::Request::new(req)).await.unwrap().into_inner();
        (out.source(), out.text)
    })
}

#[test]
fn the_index_follows_edits_deletions_and_branch_switches() {
    let home = Home::new();
    let root = project(
        &home,
        "app",
        &[("src/main.rs", "fn main() { start_engine(); }\n"), ("src/engine.rs", "pub fn start_engine() {}\n")],
    );
    git(&root, &["add", "."]);
    git(&root, &["commit", "-qm", "one"]);
    let _daemon = home.spawn_daemon(&[]);
    assert!(lctx(&home, &root, false, &["index"]).contains("ready"));
    assert_eq!(bm25(&home, &root, "start_engine").0, SearchSource::Index);
    // The daemon's status names the open index, its phase and its size.
    let status: serde_json::Value =
        serde_json::from_str(&lctx(&home, &root, false, &["daemon", "status", "--json"])).unwrap();
    let search = &status["components"]["search"];
    assert_eq!(search["indexes"], 1, "a count is a number: {status}");
    let index = search["index"].as_str().unwrap_or_default();
    assert!(index.contains("/app ready files=2"), "{status}");

    std::fs::write(root.join("src/engine.rs"), "pub fn start_engine() {}\npub fn quasar_flux() {}\n").unwrap();
    assert!(
        wait_until(Duration::from_secs(60), || bm25(&home, &root, "quasar_flux").1.contains("src/engine.rs")),
        "an edit becomes searchable"
    );
    std::fs::remove_file(root.join("src/main.rs")).unwrap();
    assert!(
        wait_until(Duration::from_secs(60), || !bm25(&home, &root, "main").1.contains("src/main.rs")),
        "a deleted file disappears"
    );

    git(&root, &["checkout", "-q", "-b", "feature"]);
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "two"]);
    std::fs::write(root.join("src/feature_only.rs"), "pub fn nebula_drive() {}\n").unwrap();
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-qm", "three"]);
    assert!(wait_until(Duration::from_secs(60), || bm25(&home, &root, "nebula_drive").1.contains("feature_only.rs")));
    git(&root, &["checkout", "-q", "main"]);
    // main has src/main.rs again and no feature_only.rs.
    assert!(
        wait_until(Duration::from_secs(60), || {
            let (_, text) = bm25(&home, &root, "nebula_drive start_engine main");
            !text.contains("feature_only.rs") && text.contains("src/main.rs")
        }),
        "after the checkout the index matches the working tree"
    );
}

#[test]
fn regex_search_is_the_same_in_fallback_and_through_the_daemon() {
    let home = Home::new();
    let files: Vec<(String, String)> = (0..30)
        .map(|i| (format!("m{i}/lib.rs"), format!("// module {i}\npub fn handler_{i}(x: u32) -> u32 {{ x * {i} }}\n")))
        .collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let root = project(&home, "regex", &refs);
    let pattern = r"handler_\d+\(x";
    let via_daemon = lctx(&home, &root, false, &["search", pattern, "-n", "100"]);
    let local = lctx(&home, &root, true, &["search", pattern, "-n", "100"]);
    assert_eq!(via_daemon, local);
    assert!(via_daemon.contains("30 matches in 30 files"), "{via_daemon}");
}

/// A JavaScript private name is found by the name a reader types, without its `#`, from the
/// index (through the daemon) and from a scan (no daemon) alike; typed with it, only private names.
#[test]
fn a_private_name_is_found_without_its_hash() {
    let home = Home::new();
    let class = "export class Counter {\n  #zqtally = 0;\n}\n";
    let other = "export class Gauge {\n  zqtallyPublic = 1;\n}\n";
    let root = project(&home, "private", &[("src/counter.js", class), ("src/gauge.js", other)]);
    // The daemon answers from its index once built (a scan says so), which is what is checked first.
    let indexed = wait_until(Duration::from_secs(30), || {
        !lctx(&home, &root, false, &["search", "Counter", "-a", "symbol"]).contains("searched the files directly")
    });
    assert!(indexed, "the index was not built");
    for no_daemon in [false, true] {
        let found = lctx(&home, &root, no_daemon, &["search", "zqtally", "-a", "symbol"]);
        assert!(found.contains("src/counter.js:2:   #zqtally = 0;"), "{found}");
        assert!(found.starts_with("src/counter.js:2:"), "the exact name comes first: {found}");
        let hashed = lctx(&home, &root, no_daemon, &["search", "#zqtally", "-a", "symbol"]);
        assert!(hashed.contains("#zqtally = 0") && !hashed.contains("zqtallyPublic"), "{hashed}");
    }
}

/// A qualified name, as callgraph and stack traces write it, finds its owner's member in each
/// language (a Go receiver, a Rust `impl`, a Java or Python class), from the index and a scan.
#[test]
fn a_qualified_name_finds_the_member_its_owner_defines() {
    let home = Home::new();
    let files = [
        (
            "stream.go",
            "package json\n\ntype Decoder struct{}\n\nfunc (d *Decoder) Decode(v any) error { return nil }\n\nfunc Decode(v any) {}\n",
        ),
        (
            "date.rs",
            "pub struct NaiveDate;\n\nimpl<T> From<T> for NaiveDate {\n    fn from(t: T) -> Self { NaiveDate }\n}\n\nimpl NaiveDate {\n    pub fn from_ymd(y: i32) -> Self { NaiveDate }\n}\n\npub fn from_ymd() {}\n",
        ),
        (
            "LogManager.java",
            "public class LogManager {\n    public void readConfiguration() {}\n}\nclass Other {\n    void readConfiguration() {}\n}\n",
        ),
        ("console.py", "class Console:\n    def export_svg(self):\n        pass\n\ndef export_svg():\n    pass\n"),
        (
            "archive/tar/writer.go",
            "package tar\n\ntype Writer struct{}\n\nfunc (tw *Writer) Close() error { return nil }\n\n\
             func (tw *Writer) Flush() error { return nil }\n",
        ),
        (
            "archive/zip/writer.go",
            "package zip\n\ntype Writer struct{}\n\nfunc (w *Writer) Close() error { return nil }\n",
        ),
        // A Go package's methods in other files than its type's, the package being the project's
        // root as in text/template.
        ("template.go", "package template\n\ntype Template struct{}\n"),
        ("exec.go", "package template\n\nfunc (t *Template) Execute(w io.Writer) error { return nil }\n"),
        (
            "option.go",
            "package template\n\ntype option struct{}\n\nfunc (t *Template) Option(opt ...string) *Template { return t }\n",
        ),
        // Members assigned to an object, as express's are.
        ("lib/utils.js", "exports.compileETag = function(val) {\n  return val;\n};\n"),
        (
            "lib/application.js",
            "var app = exports = module.exports = {};\n\napp.lazyrouter = function lazyrouter() {};\n",
        ),
    ];
    let root = project(&home, "owners", &files);
    let indexed = wait_until(Duration::from_secs(30), || {
        !lctx(&home, &root, false, &["search", "Decoder", "-a", "symbol"]).contains("searched the files directly")
    });
    assert!(indexed, "the index was not built");
    // The owner's members starting with the name, the same name first; a package path before the
    // owner keeps the files under it.
    let cases = [
        ("Decoder.Decode", "stream.go:5:", "1 definition in 1 file"),
        ("NaiveDate::from_ymd", "date.rs:8:", "1 definition in 1 file"),
        ("NaiveDate::from", "date.rs:4:", "2 definitions in 1 file"),
        ("LogManager.readConfiguration", "LogManager.java:2:", "1 definition in 1 file"),
        ("LogManager.readConf", "LogManager.java:2:", "1 definition in 1 file"),
        ("Console.export_svg", "console.py:2:", "1 definition in 1 file"),
        ("zip.Writer.Close", "archive/zip/writer.go:5:", "1 definition in 1 file"),
        ("archive.tar.Writer.Clo", "archive/tar/writer.go:5:", "1 definition in 1 file"),
        ("Writer.Close", "archive/tar/writer.go:5:", "2 definitions in 2 files"),
        // A package path no directory of the project holds narrows nothing, and says nothing.
        ("json.Decoder.Decode", "stream.go:5:", "1 definition in 1 file"),
        ("chrono::NaiveDate::from_ymd", "date.rs:8:", "1 definition in 1 file"),
        ("Template::Execute", "exec.go:3:", "1 definition in 1 file"),
        ("template.Template.Execute", "exec.go:3:", "1 definition in 1 file"),
        ("Template::Option", "option.go:5:", "1 definition in 1 file"),
        ("Execute", "exec.go:3:", "1 definition in 1 file"),
        ("compileETag", "lib/utils.js:1:", "1 definition in 1 file"),
        ("exports.compileETag", "lib/utils.js:1:", "1 definition in 1 file"),
        ("lazyrouter", "lib/application.js:3:", "1 definition in 1 file"),
        ("app.lazyrouter", "lib/application.js:3:", "1 definition in 1 file"),
        ("app::lazyrouter", "lib/application.js:3:", "1 definition in 1 file"),
    ];
    for no_daemon in [false, true] {
        for (pattern, first, summary) in cases {
            let found = lctx(&home, &root, no_daemon, &["search", pattern, "-a", "symbol"]);
            assert!(found.starts_with(first) && found.contains(summary), "{pattern}: {found}");
            assert!(!found.contains("under a path") && !found.contains("was found in a type"), "{pattern}: {found}");
        }
        // The owner under the path lacks the member: every owner's member, saying so.
        let found = lctx(&home, &root, no_daemon, &["search", "zip.Writer.Flush", "-a", "symbol"]);
        assert!(found.starts_with("archive/tar/writer.go:7:") && found.contains("1 definition in 1 file"), "{found}");
        assert!(
            found.contains("the `Writer` under a path holding `zip` has no member starting with `Flush`"),
            "{found}"
        );
        // An owner that holds no such member: every definition of the name, saying so.
        let found = lctx(&home, &root, no_daemon, &["search", "Other.export_svg", "-a", "symbol"]);
        assert!(found.contains("console.py:2:") && found.contains("console.py:5:"), "{found}");
        assert!(found.contains("no `export_svg` was found in a type or module named `Other`"), "{found}");
    }
}

#[test]
fn two_projects_never_see_each_others_files() {
    let home = Home::new();
    let a = project(&home, "alpha", &[("a.rs", "fn shared_name() {} // alpha\n")]);
    let b = project(&home, "beta", &[("b.rs", "fn shared_name() {} // beta\n")]);
    let _daemon = home.spawn_daemon(&[]);
    for _ in 0..3 {
        for (root, mine, theirs) in [(&a, "a.rs", "b.rs"), (&b, "b.rs", "a.rs")] {
            for action in ["regex", "bm25", "symbol"] {
                let out = lctx(&home, root, false, &["search", "shared_name", "-a", action]);
                assert!(out.contains(mine) && !out.contains(theirs), "{action} in {}: {out}", root.display());
            }
        }
    }
}

#[test]
fn bad_search_input_is_explained() {
    let home = Home::new();
    let root = project(&home, "bad", &[("x.rs", "fn x() {}\n")]);
    let out = home.command(bin("lctx")).current_dir(&root).args(["search", "a(b"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("column"), "{}", describe(&out));
    let out = home.command(bin("lctx")).current_dir(&root).args(["search", "x", "../.."]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("outside the project"), "{}", describe(&out));
}

/// `--depth 0` is refused naming the range, never replaced by the default.
#[test]
fn tree_depth_zero_is_refused_not_replaced() {
    let home = Home::new();
    let root = project(&home, "deep", &[("a/b/c/d.rs", "fn d() {}\n"), ("top.rs", "fn t() {}\n")]);
    let out = home.lctx_in(&root, true, &["tree", "--depth", "0"]);
    assert!(!out.status.success(), "{}", describe(&out));
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("depth 0 is out of range: use 1 or more"),
        "{}",
        describe(&out)
    );
    let one = lctx(&home, &root, true, &["tree", "--depth", "1"]);
    assert!(one.contains("a/") && !one.contains("b/"), "{one}");
}

#[test]
fn globs_naming_directories_are_relative_to_the_callers_directory() {
    let home = Home::new();
    let root = project(
        &home,
        "mono",
        &[("package/src/a.ts", "export const hashKey = 1;\n"), ("other/src/b.ts", "export const hashKey = 2;\n")],
    );
    let package = root.join("package");
    for no_daemon in [true, false] {
        // Run in package/, `src/**` is package/src, as a path given there would be.
        let found = lctx(&home, &package, no_daemon, &["search", "hashKey", "--include", "src/**"]);
        assert!(found.contains("package/src/a.ts:1") && !found.contains("other/"), "{found}");
        let listed = lctx(&home, &package, no_daemon, &["glob", "src/*.ts"]);
        assert_eq!(listed, "package/src/a.ts\n1 file\n");
        // A glob without `/` names files at any depth, anchored nowhere.
        let everywhere = lctx(&home, &package, no_daemon, &["glob", "*.ts"]);
        assert!(everywhere.contains("other/src/b.ts"), "{everywhere}");
        // QA: one written from the root, as answers show paths, matched nothing without a word.
        let from_root = lctx(&home, &package, no_daemon, &["glob", "other/src/*.ts"]);
        assert_eq!(
            from_root,
            "no files match\na glob is anchored where this call is, package/, and there `other/src/*.ts` matches \
             nothing; from the project root it matches 1 file (as other/src/b.ts): write it from package/, or start \
             it with `../`\n"
        );
        // The JSON carries what the text says after its count.
        let json: serde_json::Value =
            serde_json::from_str(&lctx(&home, &package, no_daemon, &["glob", "other/src/*.ts", "--json"])).unwrap();
        assert!(
            json["note"].as_str().unwrap().starts_with("a glob is anchored where this call is, package/"),
            "{json}"
        );
    }
}

#[test]
fn a_search_outside_any_repository_says_which_directory_it_took_as_the_project() {
    let home = Home::new();
    let dir = home.path().join("scratch");
    for i in 0..20 {
        std::fs::create_dir_all(dir.join(format!("d{i}"))).unwrap();
        std::fs::write(dir.join(format!("d{i}/f.txt")), format!("line {i} holds foo\n")).unwrap();
    }
    let shown = dir.canonicalize().unwrap().display().to_string();
    let taken = format!("{shown} is in no git repository, so it was searched as a project of its own");
    let through_daemon = lctx(&home, &dir, false, &["search", "foo", "-a", "bm25"]);
    assert!(through_daemon.contains(&format!("{taken}; its index is built and kept")), "{through_daemon}");
    // The engine a client runs itself builds no index, and does not say it does.
    let local = lctx(&home, &dir, true, &["search", "foo"]);
    assert!(local.contains("20 matches in 20 files") && local.contains(&format!("{taken}\n")), "{local}");
}

/// From the home directory, outside any repository, a search would scan and index every file the
/// user has: it is refused with what to do instead, by the daemon and by a client's own engine.
#[test]
fn a_search_from_the_home_directory_is_refused_with_what_to_do() {
    let home = Home::new();
    std::fs::write(home.path().join("notes.txt"), "foo\n").unwrap();
    for no_daemon in [false, true] {
        // The daemon started here inherits this HOME.
        let mut command = home.command(bin("lctx"));
        command.env("HOME", home.path()).current_dir(home.path()).args(["search", "foo"]);
        if no_daemon {
            command.env("LEAN_CTX_NO_DAEMON", "1");
        }
        let out = command.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{}", describe(&out));
        assert!(
            stderr.contains("is your home directory, not a project") && stderr.contains("Search from inside a project"),
            "{stderr}"
        );
    }
    // A path into a repository searches that repository, and says so.
    let repository = project(
        &home,
        "proj",
        &[
            ("f.txt", "foo\n"),
            ("secret.txt", "foo password\n"),
            (".claude/settings.json", r#"{"permissions":{"deny":["Read(./secret.txt)"]}}"#),
        ],
    );
    let mut command = home.command(bin("lctx"));
    command.env("HOME", home.path()).current_dir(home.path()).args(["search", "foo", "proj"]);
    let out = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", describe(&out));
    let said =
        format!("searched the repository {} (paths are relative to it)", repository.canonicalize().unwrap().display());
    assert!(stdout.starts_with("f.txt:1: foo\n") && stdout.contains(&said), "{stdout}");
    // The repository's rules hold, as they do for a search run inside it.
    assert!(!stdout.contains("password") && stdout.contains("deny Read(./secret.txt)"), "{stdout}");
    // The repository has an index now; the home directory none.
    let listed = home.lctx(&["index", "--list"]);
    let home_index = format!("{} · ", home.path().display());
    assert!(
        !String::from_utf8_lossy(&listed.stdout).lines().any(|l| l.starts_with(&home_index)),
        "{}",
        describe(&listed)
    );
}

#[test]
fn a_match_far_into_a_minified_line_is_shown_around_it() {
    let home = Home::new();
    let numbers: Vec<String> = (0..80_000).map(|i| i.to_string()).collect();
    let minified = format!("var a={};function qa5needle(){{return 1}};\n", numbers.join(","));
    let root = project(&home, "web", &[("static/min.js", &minified)]);
    for action in ["regex", "symbol", "bm25"] {
        let text = lctx(&home, &root, false, &["search", "qa5needle", "-a", action]);
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("static/min.js:1: …") && first.contains("function qa5needle(){return 1};"),
            "{action}: {first}"
        );
        assert!(first.chars().count() < 230, "{action}: a window, not the line: {first}");
        let json: serde_json::Value =
            serde_json::from_str(&lctx(&home, &root, false, &["search", "qa5needle", "-a", action, "--json"])).unwrap();
        assert!(json["matches"][0]["text"].as_str().unwrap_or_default().contains("qa5needle"), "{action}: {json}");
    }
}
