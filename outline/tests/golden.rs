//! Golden tests: the signatures and map views of realistic fixtures under `tests/fixtures/<lang>/`,
//! compared byte for byte with `<stem>.signatures.txt` and `<stem>.map.txt` beside them.
//!
//! `UPDATE_GOLDEN=1 cargo test --test golden` rewrites the expected files; review the diff.

use std::path::{Path, PathBuf};

use lean_ctx_outline::{Definition, Language, outline, render_map, render_signatures};

fn fixture_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(relative)
}

fn all_names(items: &[Definition], names: &mut Vec<String>) {
    for item in items {
        names.push(item.name.clone());
        all_names(&item.children, names);
    }
}

/// Renders both views of `relative`, checks them against the golden files, and checks that every
/// planted name was found and appears in both views.
fn check(relative: &str, language: Language, planted: &[&str]) {
    let path = fixture_path(relative);
    assert_eq!(Language::from_path(&path), Some(language), "language of {relative}");
    let source = std::fs::read_to_string(&path).unwrap();
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
}

#[test]
fn rust() {
    check(
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
        ],
    );
}

#[test]
fn python() {
    check(
        "python/service.py",
        Language::Python,
        &["DEFAULT_TIMEOUT", "User", "display", "Repository", "NotFound", "__init__", "empty", "load_users", "main"],
    );
}

#[test]
fn javascript() {
    check(
        "javascript/server.js",
        Language::JavaScript,
        &["PORT", "NOT_A_COMMENT", "handle", "lines", "middleware", "shutdown", "Server", "create", "Client"],
    );
}

#[test]
fn typescript_barrel_shows_its_exports() {
    check(
        "typescript/index.ts",
        Language::TypeScript,
        &[
            "{ Store, type Key }",
            "{ BaseStore as Base, createStore }",
            "*",
            "* as levels",
            "{ registry, internalReset as reset }",
            "{ Options }",
            "registry",
        ],
    );
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
fn java() {
    check(
        "java/OrderService.java",
        Language::Java,
        &["com.example.orders", "OrderService", "submit", "Builder", "Status", "Repository", "Order"],
    );
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

#[test]
fn toml() {
    check(
        "toml/manifest.toml",
        Language::Toml,
        &["name", "edition.workspace", "package", "dependencies", "profile.release", "bin"],
    );
}
