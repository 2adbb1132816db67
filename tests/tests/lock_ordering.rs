//! LOCK_ORDERING.md must describe exactly the locks the code declares, and
//! no code outside locks/src/lib.rs may build a lock of its own.

use std::path::{Path, PathBuf};

use lean_ctxd::engine::paths::OS_LOCK_FILES;
use lean_ctxd::locks::ids::ALL;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Rows of the table under "## In-process locks": (rank, name, file).
fn documented_locks() -> Vec<(u16, String, String)> {
    let doc = std::fs::read_to_string(repo().join("LOCK_ORDERING.md")).expect("LOCK_ORDERING.md");
    let section = doc.split("## In-process locks").nth(1).expect("an '## In-process locks' section");
    let section = section.split("\n## ").next().unwrap();
    section
        .lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| l.split('|').map(|c| c.trim().trim_matches('`').to_string()).collect::<Vec<_>>())
        .filter(|cells| cells.len() > 4 && cells[1].parse::<u16>().is_ok())
        .map(|cells| (cells[1].parse().unwrap(), cells[2].clone(), cells[3].clone()))
        .collect()
}

#[test]
fn the_document_lists_exactly_the_declared_locks() {
    let declared: Vec<_> = ALL.iter().map(|(_, id)| (id.rank, id.name.to_string(), id.file.to_string())).collect();
    assert_eq!(documented_locks(), declared, "LOCK_ORDERING.md and locks/src/lib.rs disagree");
}

#[test]
fn ranks_are_unique_and_increasing() {
    for pair in ALL.windows(2) {
        assert!(pair[0].1.rank < pair[1].1.rank, "{:?} then {:?}", pair[0], pair[1]);
    }
}

#[test]
fn each_lock_is_built_in_the_file_the_document_names() {
    for (constant, id) in ALL {
        let text = std::fs::read_to_string(repo().join(id.file)).unwrap_or_else(|e| panic!("{}: {e}", id.file));
        assert!(text.contains(&format!("ids::{constant}")), "{} does not use ids::{constant}", id.file);
    }
}

#[test]
fn the_document_lists_every_os_lock_file() {
    let doc = std::fs::read_to_string(repo().join("LOCK_ORDERING.md")).unwrap();
    let section = doc.split("## OS file locks").nth(1).expect("an '## OS file locks' section");
    for file in OS_LOCK_FILES {
        assert!(section.contains(&format!("`{file}`")), "{file} is not documented");
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if name != "target" && !name.to_string_lossy().starts_with('.') {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_lock_is_constructed_outside_locks_rs() {
    // Every workspace member, as cargo knows them: a crate added later is
    // scanned without anyone remembering to list it here.
    let meta = lean_ctx_tests::cargo_metadata();
    let members: Vec<&str> =
        meta["workspace_members"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    let mut files = Vec::new();
    for package in meta["packages"].as_array().unwrap() {
        if !members.contains(&package["id"].as_str().unwrap()) {
            continue;
        }
        let manifest = Path::new(package["manifest_path"].as_str().unwrap());
        rust_files(manifest.parent().unwrap(), &mut files);
    }
    assert!(files.iter().any(|f| f.ends_with("shim-mcp/src/main.rs")), "every member is scanned");
    let forbidden = ["Mutex::new(", "RwLock::new(", "parking_lot", "tokio::sync::Mutex", "tokio::sync::RwLock"];
    let mut offenders = Vec::new();
    for file in files {
        // The lock crate builds them; this file names the patterns.
        if file.ends_with("locks/src/lib.rs") || file.ends_with("tests/tests/lock_ordering.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if let Some(pattern) = forbidden.iter().find(|p| line.contains(*p)) {
                let ranked = line.contains("locks::ids::") || line.contains("ids::");
                if !ranked {
                    offenders.push(format!("{}:{}: {pattern}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "locks must be built through locks/src/lib.rs:\n{}", offenders.join("\n"));
}
