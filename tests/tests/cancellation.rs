//! A client that leaves an expensive request does not leave the daemon
//! working for nobody (issue 17, item 6): reads of many files, edits of a
//! large file and index builds stop once their call is dropped, the daemon
//! counts them in Status (`stopped.cancelled`), and the next request is
//! served.
//!
//! Nothing here measures time: each test waits (with a generous bound) for
//! the daemon to say it stopped, then checks what was and was not done.

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Duration;

use lean_ctx_tests::{Home, bin, describe, kill, wait_until};

/// Far longer than any step here takes on a loaded machine; reaching it is a failure.
const PATIENCE: Duration = Duration::from_secs(120);

fn project(home: &Home) -> PathBuf {
    let root = home.path().join("project");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(root.join("small.txt"), "one small file\n").unwrap();
    root
}

/// Source-like text of about `bytes` bytes: every line different, so no
/// cache or memo makes a second file cheaper than the first.
fn code(seed: usize, bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 100);
    let mut n = 0;
    while text.len() < bytes {
        text.push_str(&format!("fn item_{seed}_{n}(value: u64) -> u64 {{ value.wrapping_mul({n}) ^ {seed} }}\n"));
        n += 1;
    }
    text
}

fn status(home: &Home) -> serde_json::Value {
    home.lctx_json(&["daemon", "status", "--json"])
}

fn figure(st: &serde_json::Value, component: &str, name: &str) -> u64 {
    st["components"][component][name].as_u64().unwrap_or_else(|| panic!("no {component}.{name} in {st}"))
}

fn cancelled(home: &Home) -> u64 {
    figure(&status(home), "stopped", "cancelled")
}

/// Starts `lctx ARGS` in `dir` against the running daemon, its output discarded.
fn client(home: &Home, dir: &Path, args: &[&str]) -> Child {
    home.command(bin("lctx"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn lctx")
}

fn leave(mut client: Child) {
    kill(client.id(), libc::SIGKILL);
    let _ = client.wait();
}

#[test]
fn a_read_of_many_files_stops_when_its_client_leaves() {
    let home = Home::new();
    let root = project(&home);
    let names: Vec<String> = (0..1000).map(|i| format!("f{i:04}.rs")).collect();
    for (i, name) in names.iter().enumerate() {
        std::fs::write(root.join(name), code(i, 64 << 10)).unwrap();
    }
    let _daemon = home.spawn_daemon(&[]);
    let mut args = vec!["--session", "s", "read", "-m", "full"];
    args.extend(names.iter().map(String::as_str));
    let reader = client(&home, &root, &args);
    assert!(
        wait_until(PATIENCE, || figure(&status(&home), "read", "reads") > 0),
        "the daemon never began the read: {}",
        home.daemon_log()
    );
    leave(reader);
    assert!(wait_until(PATIENCE, || cancelled(&home) == 1), "the daemon did not stop the read: {}", status(&home));
    let st = status(&home);
    let done = figure(&st, "read", "reads");
    assert!(done < names.len() as u64, "all {done} files were read for a client that had left: {st}");

    // The daemon is free, the stopped request reads nothing more, and the
    // session holds none of what it never received: no "[unchanged]" stub.
    let out = home
        .command(bin("lctx"))
        .args(["--session", "s", "read", "-m", "full", &names[0]])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("fn item_0_0("), "the content, not a stub: {text:.300}");
    assert_eq!(figure(&status(&home), "read", "reads"), done + 1);
}

#[test]
fn an_edit_of_a_large_file_stops_unapplied_when_its_client_leaves() {
    let home = Home::new();
    let root = project(&home);
    // Large enough that counting its tokens twice takes far longer than a
    // client takes to leave; max_read_bytes is raised to admit it.
    let original = code(7, 60 << 20);
    std::fs::write(root.join("big.rs"), &original).unwrap();
    let set = home.lctx(&["config", "set", "max_read_bytes", &(128u64 << 20).to_string()]);
    assert!(set.status.success(), "{}", describe(&set));
    let _daemon = home.spawn_daemon(&[]);
    let before = status(&home)["requests_served"].as_u64().unwrap();
    let editor = client(&home, &root, &["edit", "big.rs", "--old", "wrapping_mul", "--new", "wrapping_add", "--all"]);
    // The status call itself is a request: more than one past `before` means the edit arrived.
    assert!(
        wait_until(PATIENCE, || status(&home)["requests_served"].as_u64().unwrap() > before + 1),
        "the edit never reached the daemon"
    );
    leave(editor);
    assert!(wait_until(PATIENCE, || cancelled(&home) == 1), "the daemon did not stop the edit: {}", status(&home));
    assert!(std::fs::read_to_string(root.join("big.rs")).unwrap() == original, "the abandoned edit was applied");

    let out = home
        .command(bin("lctx"))
        .args(["edit", "small.txt", "--old", "small", "--new", "tiny"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(out.status.success(), "the next edit is served: {}", describe(&out));
    assert_eq!(std::fs::read_to_string(root.join("small.txt")).unwrap(), "one tiny file\n");
}

#[test]
fn an_index_build_stops_when_its_client_leaves() {
    let home = Home::new();
    let root = project(&home);
    for d in 0..20 {
        let dir = root.join(format!("d{d:02}"));
        std::fs::create_dir_all(&dir).unwrap();
        for f in 0..100 {
            std::fs::write(dir.join(format!("m{f:03}.rs")), code(d * 100 + f, 8 << 10)).unwrap();
        }
    }
    let _daemon = home.spawn_daemon(&[]);
    let builder = client(&home, &root, &["index"]);
    let building = |st: &serde_json::Value| figure(st, "search", "indexes") == 1;
    assert!(wait_until(PATIENCE, || building(&status(&home))), "the build never began: {}", home.daemon_log());
    leave(builder);
    assert!(wait_until(PATIENCE, || cancelled(&home) == 1), "the daemon did not stop the build: {}", status(&home));
    // The project the build opened is closed again: no thread keeps indexing it.
    assert!(
        wait_until(PATIENCE, || figure(&status(&home), "search", "indexes") == 0),
        "the index is still open: {}",
        status(&home)
    );
    // The daemon serves the next request.
    let out = home.command(bin("lctx")).args(["read", "small.txt"]).current_dir(&root).output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("one small file"), "{}", describe(&out));
}
