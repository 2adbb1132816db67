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

/// One test per target, named after it.
macro_rules! replays {
    ($($target:ident),*) => {
        $(#[test]
        fn $target() {
            replay(stringify!($target), lean_ctx_fuzz::$target::run);
        })*
    };
}

replays!(mcp_stdio, daemon_requests, config, host_config, shell_compress, outline, paths);
