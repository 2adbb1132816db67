//! Concurrent knowledge writers on a fresh home (issue 17, item 12): two
//! through a daemon that the first of them starts on demand, two with
//! `LEAN_CTX_NO_DAEMON=1` (each call its own fallback process opening
//! state.db while the others create, migrate and write it). Every write must
//! be acknowledged and stored; none may fail because a daemon is starting or
//! another process holds the database.

use std::path::Path;
use std::process::{Child, Stdio};

use lean_ctx_tests::{Home, bin, describe};

const WRITES_PER_WRITER: usize = 50;

fn writer(home: &Home, dir: &Path, no_daemon: bool, name: &str) -> Child {
    // A failed write names itself on stderr and fails the writer.
    let script = format!(
        r#"for i in $(seq 1 {WRITES_PER_WRITER}); do
  "$LCTX" knowledge remember "{name}-$i" "value $i" -c stress >/dev/null || {{ echo "write {name}-$i failed" >&2; exit 1; }}
done"#
    );
    let mut cmd = home.command("/bin/sh");
    cmd.arg("-c").arg(script).current_dir(dir).env("LCTX", bin("lctx")).stdout(Stdio::null()).stderr(Stdio::piped());
    if no_daemon {
        cmd.env("LEAN_CTX_NO_DAEMON", "1");
    }
    cmd.spawn().unwrap()
}

#[test]
fn four_writers_on_a_fresh_home_store_every_write() {
    let home = Home::new();
    let root = home.path().join("project");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    assert!(!home.dirs().data.join("state.db").exists(), "the home starts without a database");
    let names = ["daemon-a", "daemon-b", "local-a", "local-b"];
    let writers: Vec<Child> = names.iter().map(|n| writer(&home, &root, n.starts_with("local"), n)).collect();
    for (name, w) in names.iter().zip(writers) {
        let out = w.wait_with_output().unwrap();
        assert!(out.status.success(), "writer {name}: {}", describe(&out));
    }
    let out = home
        .command(bin("lctx"))
        .args(["knowledge", "recall", "value", "-c", "stress", "-n", "1000"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let stored = String::from_utf8_lossy(&out.stdout);
    for name in names {
        for i in 1..=WRITES_PER_WRITER {
            let line = format!("{name}-{i} = value {i}");
            assert!(stored.lines().any(|l| l.contains(&line)), "{line} was acknowledged but is not stored:\n{stored}");
        }
    }
}
