//! What lean-ctxd stores (state.db, archived command output, logs, search
//! indexes) is readable by its user only, whatever the umask; what was left
//! readable by others is repaired; and the user's own commands still create
//! files with the user's umask.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;

use lean_ctx_tests::{Home, bin, describe};

/// Runs lctx in `dir` under umask 022, the common lax default; a daemon it
/// starts, or its fallback child, inherits that umask.
fn lctx_022(home: &Home, dir: &Path, no_daemon: bool, args: &[&str]) -> Output {
    let mut cmd = home.command("/bin/sh");
    cmd.args(["-c", "umask 022; exec \"$@\"", "sh"]).arg(bin("lctx")).args(args).current_dir(dir);
    if no_daemon {
        cmd.env("LEAN_CTX_NO_DAEMON", "1");
    }
    let out = cmd.output().expect("run lctx");
    assert!(out.status.success(), "lctx {args:?}: {}", describe(&out));
    out
}

fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path).unwrap().permissions().mode() & 0o7777
}

/// Every file and directory under `root` (itself included) with its
/// metadata; symlinks not followed, entries that vanish meanwhile (a
/// running daemon's temporary files) left out.
fn walk(root: &Path) -> Vec<(PathBuf, std::fs::Metadata)> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(path) = pending.pop() {
        let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
        if meta.is_dir() {
            let Ok(entries) = std::fs::read_dir(&path) else { continue };
            pending.extend(entries.filter_map(|entry| entry.ok().map(|entry| entry.path())));
        }
        found.push((path, meta));
    }
    found
}

/// Paths under the home's data, cache, state and runtime directories that are
/// not 0700 (directories) or 0600 (files and the socket), with their modes.
fn not_private(home: &Home) -> Vec<String> {
    let dirs = home.dirs();
    [dirs.data, dirs.cache, dirs.state, dirs.runtime]
        .iter()
        .flat_map(|root| walk(root))
        .filter(|(_, meta)| !meta.is_symlink())
        .filter(|(_, meta)| meta.permissions().mode() & 0o7777 != if meta.is_dir() { 0o700 } else { 0o600 })
        .map(|(path, meta)| format!("{} {:03o}", path.display(), meta.permissions().mode() & 0o7777))
        .collect()
}

/// A git project with one source file, under the home but outside its
/// lean-ctxd directories.
fn project(home: &Home) -> PathBuf {
    let root = home.path().join("project");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/lib.rs"), "pub fn gateway_secret() -> u32 { 42 }\n").unwrap();
    let git = std::process::Command::new("git").args(["init", "-q"]).current_dir(&root).output().unwrap();
    assert!(git.status.success(), "{}", describe(&git));
    root
}

/// A read, an archived command output, a knowledge write and an indexed
/// search, each followed by a check of every stored file (a fallback child
/// repairs at its start what the previous one left, so only a check right
/// after a command sees what that command created).
fn stores_everything_privately(no_daemon: bool) {
    let home = Home::new();
    let root = project(&home);
    for args in [
        &["read", "src/lib.rs"][..],
        &["run", "--", "seq", "1", "3000"],
        &["knowledge", "remember", "build", "cargo build --workspace"],
        &["index"],
        &["search", "gateway_secret"],
    ] {
        lctx_022(&home, &root, no_daemon, args);
        assert_eq!(
            not_private(&home),
            Vec::<String>::new(),
            "after lctx {args:?}: every directory 0700, every file 0600"
        );
    }

    let dirs = home.dirs();
    let stored: Vec<PathBuf> =
        [&dirs.data, &dirs.cache, &dirs.state].into_iter().flat_map(|root| walk(root)).map(|(path, _)| path).collect();
    let has = |what: &str, pred: &dyn Fn(&PathBuf) -> bool| assert!(stored.iter().any(pred), "no {what}: {stored:?}");
    has("state.db", &|p| p.ends_with("data/state.db"));
    has("archived output", &|p| p.starts_with(dirs.data.join("archive")) && p.extension() == Some("zst".as_ref()));
    if !no_daemon {
        has("search index file", &|p| p.starts_with(&dirs.cache) && p.is_file());
        has("log file", &|p| p.starts_with(dirs.log_dir()) && p.is_file());
    }
}

#[test]
fn the_daemon_stores_everything_privately_under_umask_022() {
    stores_everything_privately(false);
}

#[test]
fn the_fallback_child_stores_everything_privately_under_umask_022() {
    stores_everything_privately(true);
}

/// Files left readable by others (an earlier version, a lax umask).
fn leave_shared_files(home: &Home) -> [PathBuf; 3] {
    let dirs = home.dirs();
    let shard = dirs.data.join("archive/ab");
    std::fs::create_dir_all(&shard).unwrap();
    std::fs::create_dir_all(dirs.log_dir()).unwrap();
    let blob = shard.join("ab00000000000000.zst");
    let log = dirs.log_dir().join("lean-ctxd.log.old");
    std::fs::write(&blob, b"output with a secret").unwrap();
    std::fs::write(&log, b"an old log line\n").unwrap();
    for (path, bits) in [(&dirs.data, 0o755), (&shard, 0o755), (&blob, 0o644), (&log, 0o640)] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(bits)).unwrap();
    }
    [shard, blob, log]
}

#[test]
fn shared_files_left_behind_are_made_private_when_the_daemon_starts() {
    let home = Home::new();
    let [shard, blob, log] = leave_shared_files(&home);
    let _daemon = home.spawn_daemon(&[]);
    assert_eq!((mode(&home.dirs().data), mode(&shard), mode(&blob), mode(&log)), (0o700, 0o700, 0o600, 0o600));
    let daemon_log = home.daemon_log();
    assert!(daemon_log.contains(&format!("made {} private: mode 644 -> 600", blob.display())), "{daemon_log}");
    assert_eq!(not_private(&home), Vec::<String>::new());
}

#[test]
fn a_fallback_child_makes_shared_files_private_once_per_build() {
    let home = Home::new();
    let root = project(&home);
    let [shard, blob, log] = leave_shared_files(&home);
    let out = lctx_022(&home, &root, true, &["knowledge", "list"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!((mode(&shard), mode(&blob), mode(&log)), (0o700, 0o600, 0o600));
    // The walk is not repeated on every call: a file made shared after the
    // first repair stays as it is until the daemon starts or doctor runs.
    std::fs::set_permissions(&blob, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = lctx_022(&home, &root, true, &["knowledge", "list"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(mode(&blob), 0o644);
}

#[test]
fn doctor_makes_shared_files_private_and_names_each() {
    let home = Home::new();
    let [_, blob, log] = leave_shared_files(&home);
    let out = lctx_022(&home, home.path(), false, &["doctor"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for (path, was, now) in [(&home.dirs().data, 755, 700), (&blob, 644, 600), (&log, 640, 600)] {
        let line = format!("OK   permissions  made {} private: mode {was} -> {now}", path.display());
        assert!(text.contains(&line), "{line}\n{text}");
    }
    let again = lctx_022(&home, home.path(), false, &["doctor"]);
    let text = String::from_utf8_lossy(&again.stdout);
    assert_eq!(text.matches("permissions").count(), 1, "{text}");
    assert!(text.contains("OK   permissions  config, data, cache and state private"), "{text}");
}

#[test]
fn commands_run_for_the_user_create_files_with_the_users_umask() {
    for no_daemon in [false, true] {
        let home = Home::new();
        let root = project(&home);
        lctx_022(&home, &root, no_daemon, &["run", "--", "touch made_by_user && mkdir dir_by_user"]);
        let modes = format!("{:03o} {:03o}", mode(&root.join("made_by_user")), mode(&root.join("dir_by_user")));
        assert_eq!(modes, "644 755", "no_daemon={no_daemon}: the user's umask 022, not lean-ctxd's 077");
    }
}

/// lctx-mcp's own log file is private under umask 022, with no daemon around that would repair it.
#[test]
fn lctx_mcp_creates_its_log_file_private_under_umask_022() {
    let home = Home::new();
    let root = project(&home);
    let missing = home.path().join("no-lean-ctxd");
    let out = home
        .command("/bin/sh")
        .args(["-c", "umask 022; exec \"$@\" </dev/null", "sh"])
        .arg(bin("lctx-mcp"))
        .env("LEAN_CTX_DAEMON_BIN", &missing)
        .env("LEAN_CTX_LOG", "info")
        .current_dir(&root)
        .output()
        .expect("run lctx-mcp");
    assert!(out.status.success(), "{}", describe(&out));
    let logs: Vec<_> = walk(&home.dirs().log_dir())
        .into_iter()
        .filter(|(path, _)| path.file_name().unwrap().to_string_lossy().starts_with("lctx-mcp."))
        .map(|(path, meta)| (path, meta.permissions().mode() & 0o7777))
        .collect();
    assert!(!logs.is_empty() && logs.iter().all(|(_, mode)| *mode == 0o600), "{logs:?}");
    assert_eq!(not_private(&home), Vec::<String>::new());
}
