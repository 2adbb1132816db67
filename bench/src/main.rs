//! `lctx-bench`: measures the real binaries end to end and prints a
//! Markdown report for docs/benchmarks.md.
//!
//! Run from the repository root after a release build:
//! `cargo build --release --workspace --bins && ./target/release/lctx-bench foundation`

mod foundation;
mod reading;
mod shell;
mod stats;

use std::path::PathBuf;
use std::process::ExitCode;

/// Directory holding the binaries under test: the one this harness runs from.
fn bin_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("own path");
    exe.parent().expect("bin dir").to_path_buf()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs = args.iter().position(|a| a == "--runs").and_then(|i| args.get(i + 1)).and_then(|r| r.parse().ok());
    match args.first().map(String::as_str) {
        Some("foundation") => {
            if cfg!(debug_assertions) {
                eprintln!("lctx-bench: this is a debug build; figures are meaningless. Build with --release.");
                return ExitCode::FAILURE;
            }
            print!("{}", foundation::run(&bin_dir(), runs.unwrap_or(50)));
            ExitCode::SUCCESS
        }
        Some("reading") => {
            if cfg!(debug_assertions) {
                eprintln!("lctx-bench: this is a debug build; figures are meaningless. Build with --release.");
                return ExitCode::FAILURE;
            }
            let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1));
            let corpora: Vec<_> = args
                .iter()
                .enumerate()
                .filter(|(_, a)| *a == "--corpus")
                .filter_map(|(i, _)| args.get(i + 1).and_then(|c| reading::parse_corpus(c)))
                .collect();
            let reference = value("--reference").map(PathBuf::from);
            let max_files = value("--max-files").and_then(|m| m.parse().ok()).unwrap_or(300);
            print!("{}", reading::run(&corpora, reference.as_deref(), max_files));
            print!("{}", reading::latency(&bin_dir(), runs.unwrap_or(50)));
            ExitCode::SUCCESS
        }
        Some("shell") => {
            if cfg!(debug_assertions) {
                eprintln!("lctx-bench: this is a debug build; figures are meaningless. Build with --release.");
                return ExitCode::FAILURE;
            }
            let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1));
            let repo = std::env::current_dir().expect("cwd");
            let reference = value("--reference").map(PathBuf::from);
            print!("{}", shell::run(&bin_dir(), &repo, reference.as_deref(), runs.unwrap_or(30)));
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!(
                "usage: lctx-bench foundation [--runs N]\n       lctx-bench reading --corpus NAME:EXT=DIR… \
                 [--reference LEAN_CTX_BIN] [--max-files N] [--runs N]\n       \
                 lctx-bench shell [--reference LEAN_CTX_BIN] [--runs N]   (run from the repository root)"
            );
            ExitCode::from(2)
        }
    }
}
