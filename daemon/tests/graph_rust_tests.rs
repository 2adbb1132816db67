//! The tests `impact` lists for a change to a Rust crate: Cargo's test targets that reach it
//! through the library's name (its `[lib] name`, not the package's), and for a helper under
//! `tests/` the targets that include it with `mod` — never the helper itself.

mod common;

use common::Project;
use lean_ctxd::engine::cancel::Cancel;
use lean_ctxd::engine::graph::impact::{ImpactAction, ImpactParams};

fn tests_to_run(p: &Project, path: &str) -> Vec<String> {
    let params = ImpactParams {
        action: ImpactAction::Analyze,
        path: path.into(),
        depth: 0,
        base: String::new(),
        cancel: Cancel::default(),
    };
    let answer = p.engine.impact(&p.caller("s"), &params).unwrap();
    let tests = answer.groups.iter().find(|g| g.name == "tests to run").expect("a tests group");
    tests.files.iter().map(|linked| linked.file.clone()).collect()
}

#[test]
fn a_crates_tests_are_its_cargo_targets_reached_through_its_lib_name() {
    let p = Project::new();
    for dir in ["src", "tests/common"] {
        std::fs::create_dir_all(p.root.join(dir)).unwrap();
    }
    p.write("Cargo.toml", "[package]\nname = \"kv-store\"\nversion = \"0.1.0\"\n\n[lib]\nname = \"kv\"\n");
    p.write("src/lib.rs", "pub fn open() -> u32 {\n    0\n}\n");
    p.write("tests/common/mod.rs", "use kv::open;\n\npub fn fresh() -> u32 {\n    open()\n}\n");
    p.write(
        "tests/store.rs",
        "mod common;\n\nuse kv::open;\n\n#[test]\nfn opens() {\n    assert_eq!(open(), common::fresh());\n}\n",
    );
    assert_eq!(tests_to_run(&p, "src/lib.rs"), ["tests/store.rs"]);
    assert_eq!(tests_to_run(&p, "tests/common/mod.rs"), ["tests/store.rs"]);
}

/// `#[cfg(test)] mod tests;` puts the crate root's tests in `src/tests.rs`: that file is the test
/// to run, and the root holds none inline.
#[test]
fn an_out_of_line_test_module_is_the_test_of_the_module_declaring_it() {
    let p = Project::new();
    std::fs::create_dir_all(p.root.join("src")).unwrap();
    p.write("Cargo.toml", "[package]\nname = \"kv\"\nversion = \"0.1.0\"\n");
    p.write("src/lib.rs", "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests;\n");
    p.write("src/tests.rs", "use super::*;\n\n#[test]\nfn adds() {\n    assert_eq!(add(1, 2), 3);\n}\n");
    assert_eq!(tests_to_run(&p, "src/lib.rs"), ["src/tests.rs"]);
}
