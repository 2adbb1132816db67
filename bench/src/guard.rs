//! What the guardrails cost a read: the engine's `ctx_read` of real source
//! files with redaction and rule discovery on, against the same reads with
//! both off (in process, so the microseconds are not lost in process start).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lean_ctxd::engine::paths::Dirs;
use lean_ctxd::engine::read::ReadParams;
use lean_ctxd::engine::{Caller, Engine};

use crate::stats::{ms, summarize};

/// Source files of `dir` (recursively) with the given extension, sorted, at
/// most `max`.
fn sources(dir: &Path, ext: &str, max: usize) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out.truncate(max);
    out
}

/// Median time of one fresh read of each file in `mode`, over `runs` rounds.
fn per_read(engine: &Engine, root: &Path, files: &[PathBuf], mode: &str, runs: usize) -> Duration {
    let root_text = root.display().to_string();
    let mut samples = Vec::new();
    for round in 0..=runs {
        for file in files {
            let cwd = file.parent().unwrap().display().to_string();
            let caller = Caller {
                cwd: &cwd,
                project_root: Some(&root_text),
                agent: "claude-code",
                session: "bench",
                ..Caller::default()
            };
            let params = ReadParams {
                paths: vec![file.display().to_string()],
                mode: mode.into(),
                fresh: true,
                ..Default::default()
            };
            let start = Instant::now();
            let views = engine.read(&caller, &params).expect("read");
            let took = start.elapsed();
            assert!(views[0].is_ok());
            // Round 0 warms the caches and the rule records.
            if round > 0 {
                samples.push(took);
            }
        }
    }
    summarize(samples).p50
}

/// `project`: a source tree to read (`--corpus DIR:EXT`).
pub fn run(project: &Path, ext: &str, runs: usize) -> String {
    let files = sources(project, ext, 200);
    assert!(!files.is_empty(), "no .{ext} files under {}", project.display());
    let bytes: u64 = files.iter().filter_map(|f| std::fs::metadata(f).ok()).map(|m| m.len()).sum();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "### Guardrails' cost per read ({} .{ext} files of {}, {} KiB on average, {runs} rounds)\n",
        files.len(),
        project.display(),
        bytes / files.len() as u64 / 1024
    );
    // A signatures read is the file's outline, cached after the first round; with redaction on,
    // the view is made of the masked file, so the redactor reads the whole file each time.
    let _ = writeln!(out, "| setting | p50 per full read | p50 per signatures read |");
    let _ = writeln!(out, "|---|---|---|");
    let mut results = Vec::new();
    for (label, config) in [
        ("redaction off, rules_host none", "redaction = false\nrules_host = \"none\"\n"),
        ("redaction on, rules_host none", "rules_host = \"none\"\n"),
        ("redaction on, rules for claude-code (default)", ""),
    ] {
        let home = tempfile::tempdir().expect("temp");
        let dirs = Dirs::under(home.path());
        std::fs::create_dir_all(&dirs.config).unwrap();
        std::fs::write(dirs.config_file(), config).unwrap();
        let engine = Engine::new(dirs);
        let full = per_read(&engine, project, &files, "full", runs);
        let signatures = per_read(&engine, project, &files, "signatures", runs);
        let _ = writeln!(out, "| {label} | {} | {} |", ms(full), ms(signatures));
        results.push((full, signatures));
    }
    let cost = |with: Duration, without: Duration| (with.as_secs_f64() / without.as_secs_f64() - 1.0) * 100.0;
    let _ = writeln!(
        out,
        "\nRedaction adds **{:.1} %** to a full read and **{:.1} %** to a signatures read (goal ≤ 5 %); redaction \
         and rule discovery together {:.1} % / {:.1} %.\n",
        cost(results[1].0, results[0].0),
        cost(results[1].1, results[0].1),
        cost(results[2].0, results[0].0),
        cost(results[2].1, results[0].1)
    );
    out
}
