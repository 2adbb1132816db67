//! Replays every checked-in corpus (`corpus/TARGET/*`) through its harness
//! on the stable toolchain, so an input that once crashed, or a seed that
//! stopped holding, fails an ordinary `cargo test` run. CI runs it with
//! `--no-default-features` (no libFuzzer needed).

use std::path::Path;

fn replay(target: &str, run: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("a corpus entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "the corpus of {target} is empty");
    for file in files {
        let data = std::fs::read(&file).unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        eprintln!("{target}: {}", file.display());
        run(&data);
    }
}

#[test]
fn mcp_stdio() {
    replay("mcp_stdio", lean_ctx_fuzz::mcp_stdio::run);
}

#[test]
fn daemon_requests() {
    replay("daemon_requests", lean_ctx_fuzz::daemon_requests::run);
}

#[test]
fn config() {
    replay("config", lean_ctx_fuzz::config::run);
}

#[test]
fn host_config() {
    replay("host_config", lean_ctx_fuzz::host_config::run);
}

#[test]
fn shell_compress() {
    replay("shell_compress", lean_ctx_fuzz::shell_compress::run);
}

#[test]
fn outline() {
    replay("outline", lean_ctx_fuzz::outline::run);
}

#[test]
fn paths() {
    replay("paths", lean_ctx_fuzz::paths::run);
}
