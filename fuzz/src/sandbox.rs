//! Per-process scratch directories for the targets.
//!
//! libFuzzer ends the process with `exit`, so nothing is dropped at the end:
//! a directory is named after the process id, and directories of processes
//! that are gone are removed when the next one starts.

use std::path::{Path, PathBuf};

/// A fresh directory `<tmp>/lean-ctx-fuzz/<name>-<pid>`, created once per
/// process and target.
pub fn dir(name: &str) -> PathBuf {
    let base = std::env::temp_dir().join("lean-ctx-fuzz");
    remove_stale(&base);
    let dir = base.join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("cannot create the fuzz sandbox");
    // Canonical, so the harnesses can compare resolved paths against it.
    dir.canonicalize().expect("cannot resolve the fuzz sandbox")
}

fn remove_stale(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name.to_str().and_then(|n| n.rsplit_once('-')).and_then(|(_, pid)| pid.parse::<u32>().ok());
        if pid.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A small git project (`.git/HEAD`, sources, a nested directory) beside a
/// directory `outside/` holding [`SECRET`], with symlinks from the project to
/// inside and outside it and a symlink loop: what path resolution and the
/// engine must keep apart.
pub fn project(base: &Path) -> PathBuf {
    let root = base.join("project");
    let outside = base.join("outside");
    for dir in [root.join(".git"), root.join("src/sub"), outside.clone()] {
        std::fs::create_dir_all(dir).expect("cannot create the fuzz project");
    }
    let files: [(&Path, &str, &str); 5] = [
        (&root, ".git/HEAD", "ref: refs/heads/main\n"),
        (&root, "src/main.rs", "fn main() {\n    println!(\"hello\");\n}\n\nstruct Config {\n    port: u16,\n}\n"),
        (&root, "src/sub/notes.md", "# Notes\n\n## Build\n\nrun `cargo build`\n"),
        (&root, "README.md", "# project\n\nA fixture for the fuzz targets.\n"),
        (&outside, "secret.txt", SECRET),
    ];
    for (dir, name, text) in files {
        std::fs::write(dir.join(name), text).expect("cannot write the fuzz project");
    }
    let links = [
        ("src/main.rs", "link_in"),
        ("../outside/secret.txt", "link_out"),
        ("../outside", "dir_out"),
        ("loop_b", "loop_a"),
        ("loop_a", "loop_b"),
    ];
    for (target, name) in links {
        std::os::unix::fs::symlink(target, root.join(name)).expect("cannot link in the fuzz project");
    }
    root
}

/// The content of `outside/secret.txt`: no answer about the project may
/// carry it.
pub const SECRET: &str = "FUZZ-SECRET-OUTSIDE-THE-PROJECT\n";
