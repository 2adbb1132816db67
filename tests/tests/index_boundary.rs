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

#[test]
fn indexes_on_disk_are_listed_and_removed_only_when_no_process_has_them_open() {
    let home = Home::new();
    let mut roots = Vec::new();
    for name in ["alpha", "beta"] {
        let root = home.path().join(name);
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::write(root.join("lib.rs"), "pub fn one() -> u32 {\n    1\n}\n").unwrap();
        let built = lctx_index(&home, &root, None);
        assert!(built.status.success(), "{}", describe(&built));
        roots.push(root.canonicalize().unwrap());
    }
    let run = |dir: &Path, args: &[&str]| home.command(bin("lctx")).current_dir(dir).args(args).output().unwrap();
    let listed = run(&roots[0], &["index", "--list"]);
    let text = String::from_utf8_lossy(&listed.stdout).to_string();
    assert!(listed.status.success(), "{}", describe(&listed));
    assert!(text.contains(&format!("{} · ", roots[0].display())) && text.contains("· open"), "{text}");
    assert!(text.contains("2 index(es)"), "{text}");
    // Open in the daemon: refused, and nothing is lost.
    refused(&run(&roots[0].join(".git"), &["index", "--remove"]), "lctx daemon stop");
    assert!(run(&roots[0], &["daemon", "stop"]).status.success());
    // A project whose directory went away is said so.
    std::fs::remove_dir_all(&roots[1]).unwrap();
    let text = String::from_utf8_lossy(&run(home.path(), &["index", "--list"]).stdout).to_string();
    assert!(text.contains("closed · its directory is gone"), "{text}");
    let removed = run(home.path(), &["index", "--remove", roots[1].to_str().unwrap()]);
    assert!(removed.status.success(), "{}", describe(&removed));
    // From a subdirectory, the index of its project.
    let removed = run(&roots[0].join(".git"), &["index", "--remove"]);
    assert!(String::from_utf8_lossy(&removed.stdout).contains("removed the index of"), "{}", describe(&removed));
    let text = String::from_utf8_lossy(&run(home.path(), &["index", "--list"]).stdout).to_string();
    assert!(text.starts_with("no search index on disk"), "{text}");
    // Anything else in the cache is named, not skipped.
    std::fs::create_dir_all(home.dirs().cache.join("search/stray")).unwrap();
    let text = String::from_utf8_lossy(&run(home.path(), &["index", "--list"]).stdout).to_string();
    assert!(text.contains("stray · 0.0 MiB · not an index"), "{text}");
    refused(&run(home.path(), &["index", "--remove", "alpha"]), "no search index covers");
}
