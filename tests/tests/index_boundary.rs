//! `lctx index` stays inside what a read may reach: the request's project
//! and `allow_paths`, and never `/` or the home directory unless configured.

use std::path::Path;
use std::process::Output;

use lean_ctx_tests::{Home, bin, describe};

fn lctx_index(home: &Home, dir: &Path, path: Option<&str>) -> Output {
    let mut cmd = home.command(bin("lctx"));
    // The home directory the daemon refuses to index is this test's.
    cmd.current_dir(dir).env("HOME", home.path()).arg("index").args(path);
    cmd.output().unwrap()
}

fn refused(out: &Output, says: &str) {
    assert!(!out.status.success(), "{}", describe(out));
    assert!(String::from_utf8_lossy(&out.stderr).contains(says), "expected {says:?}: {}", describe(out));
}

#[test]
fn index_refuses_what_lies_outside_the_project_and_broad_roots() {
    let home = Home::new();
    let root = home.path().join("proj");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(root.join("lib.rs"), "pub fn one() -> u32 {\n    1\n}\n").unwrap();

    for outside in ["/etc", "..", "/"] {
        refused(&lctx_index(&home, &root, Some(outside)), "allow_paths");
    }
    // The home directory as the project of a request (no repository there).
    refused(&lctx_index(&home, home.path(), None), "index_broad_roots");

    let ok = lctx_index(&home, &root, None);
    assert!(ok.status.success(), "{}", describe(&ok));
    assert!(String::from_utf8_lossy(&ok.stdout).contains("ready"), "{}", describe(&ok));
    assert!(!String::from_utf8_lossy(&ok.stdout).contains("no git repository"), "{}", describe(&ok));
    // A directory in no repository is indexed as it is, and the answer says so.
    let loose = home.path().join("notes");
    std::fs::create_dir_all(&loose).unwrap();
    std::fs::write(loose.join("todo.md"), "# Todo\n").unwrap();
    let out = lctx_index(&home, &loose, None);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("is in no git repository"), "{}", describe(&out));
    // From the home directory, a project below it is what gets indexed.
    let below = lctx_index(&home, home.path(), Some("proj"));
    assert!(below.status.success(), "{}", describe(&below));
    assert!(String::from_utf8_lossy(&below.stdout).contains("proj"), "{}", describe(&below));
}
