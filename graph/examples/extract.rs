//! Times [`lean_ctx_graph::extract`] per file, for docs/benchmarks.md ("Graph extraction on long
//! expressions"), and with `--facts` prints every file's facts as one JSON line, so two builds'
//! extraction can be compared byte for byte.
//!
//! `cargo run -p lean-ctx-graph --example extract -- [--facts] PATH...` (files or directories,
//! walked in path order; files of a language without graph queries are skipped).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lean_ctx_outline::Language;

fn main() {
    let mut print_facts = false;
    let mut files = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--facts" => print_facts = true,
            path => collect(Path::new(path), &mut files),
        }
    }
    if files.is_empty() {
        eprintln!("usage: extract [--facts] PATH... (files or directories of Rust, Python, JS/TS, Go or Java)");
        std::process::exit(2);
    }
    let mut total = Duration::ZERO;
    let mut slowest: Vec<(Duration, PathBuf)> = Vec::new();
    for (path, language) in &files {
        let Ok(source) = std::fs::read_to_string(path) else { continue };
        let started = Instant::now();
        let facts = lean_ctx_graph::extract(*language, &source);
        let took = started.elapsed();
        total += took;
        slowest.push((took, path.clone()));
        if print_facts {
            let json = serde_json::to_string(&facts).expect("facts serialize");
            println!("{}\t{json}", path.display());
        }
    }
    slowest.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    eprintln!("{} files in {:.2} s", files.len(), total.as_secs_f64());
    for (took, path) in slowest.iter().take(5) {
        eprintln!("  {:>9.3} s  {}", took.as_secs_f64(), path.display());
    }
}

/// The graph's files under `path`, in path order.
fn collect(path: &Path, files: &mut Vec<(PathBuf, Language)>) {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else { return };
        let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        children.sort();
        for child in children {
            collect(&child, files);
        }
    } else if let Some(language) = Language::from_path(path).filter(|l| lean_ctx_graph::has_queries(*l)) {
        files.push((path.to_path_buf(), language));
    }
}
