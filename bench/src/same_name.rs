//! One method name defined in every file: the shape of generated code, plugins and test suites
//! (`def run(self)`, `fn new()` thousands of times) that once made callers and the repo map
//! quadratic in the number of definitions. Writes a project of N files in Python or Rust, each
//! defining a type with a `run` method (and, in Rust, a `new` function) and calling `run` on a
//! receiver of unknown type and on one of its own type, then times through a daemon
//! `lctx callgraph Worker0::run` (every `run` call site resolves to all N definitions by name),
//! `lctx callgraph new --file …` (Rust) and the first `lctx map` (which resolves every reference).

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::graph_build::{build, daemon_status, isolated_lctx};

/// The languages a project can be written in.
pub const LANGUAGES: [&str; 2] = ["python", "rust"];

/// Writes a project of `files` files in `language` under `dir` (created; must not exist).
pub fn generate(dir: &Path, language: &str, files: usize) {
    assert!(!dir.exists(), "{} exists: give a new directory", dir.display());
    std::fs::create_dir_all(dir.join(".git")).expect("project dir");
    std::fs::write(dir.join(".git/HEAD"), "ref: refs/heads/main\n").expect("HEAD");
    let (sub, extension) = if language == "rust" { ("src", "rs") } else { ("pkg", "py") };
    std::fs::create_dir_all(dir.join(sub)).expect("source dir");
    for i in 0..files {
        let text = match language {
            "rust" => rust_file(i),
            _ => python_file(i),
        };
        std::fs::write(dir.join(format!("{sub}/m{i:05}.{extension}")), text).expect("write a file");
    }
    if language == "rust" {
        let mods: String = (0..files).map(|i| format!("pub mod m{i:05};\n")).collect();
        std::fs::write(dir.join("src/lib.rs"), mods).expect("write lib.rs");
    }
}

/// A class with `run`, a function calling `run` on a parameter nothing types and on an instance.
fn python_file(i: usize) -> String {
    format!(
        "class Worker{i}:\n    def run(self):\n        return {i}\n\n\n\
         def drive{i}(task):\n    task.run()\n    return Worker{i}().run()\n"
    )
}

/// A struct with `new` and `run`, a function calling `run` on a generic value and on an instance.
fn rust_file(i: usize) -> String {
    format!(
        "pub struct Worker{i};\n\nimpl Worker{i} {{\n    pub fn new() -> Self {{\n        Worker{i}\n    }}\n\n    \
         pub fn run(&self) -> usize {{\n        {i}\n    }}\n}}\n\n\
         pub fn drive{i}<T: Clone>(task: T) -> usize {{\n    task.run();\n    Worker{i}::new().run()\n}}\n"
    )
}

/// Times the questions on a generated project of each size and language, in a fresh daemon each.
pub fn run(bins: &Path, dir: &Path, sizes: &[usize], languages: &[&str]) -> String {
    let mut out = String::from(
        "| language | files | callers `Worker0::run` | callers `new` (one file) | first `lctx map` | run sites by name |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    for language in languages {
        for &files in sizes {
            let project = dir.join(format!("{language}-{files}"));
            generate(&project, language, files);
            let row = measure(bins, &project, language, files);
            let _ = writeln!(out, "{row}");
            std::fs::remove_dir_all(&project).expect("remove the generated project");
        }
    }
    out
}

fn measure(bins: &Path, project: &Path, language: &str, files: usize) -> String {
    let project = project.canonicalize().expect("generated project");
    let home = tempfile::tempdir().expect("temp home");
    let lctx = isolated_lctx(bins, &project, home.path());
    let status = || daemon_status(&lctx);
    assert!(lctx(&["daemon", "start"]).status.success(), "the daemon did not start");
    build(&lctx, &status);
    let timed = |args: &[&str]| -> (Duration, Value) {
        let started = Instant::now();
        let out = lctx(args);
        let took = started.elapsed();
        assert!(out.status.success(), "lctx {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        (took, serde_json::from_slice(&out.stdout).unwrap_or_default())
    };
    let (callers, answer) = timed(&["callgraph", "Worker0::run", "--json"]);
    let note = answer["note"].as_str().unwrap_or_default().to_string();
    let new = match language {
        "rust" => format!("{:.2} s", timed(&["callgraph", "new", "--file", "src/m00000.rs", "--json"]).0.as_secs_f64()),
        _ => "—".to_string(),
    };
    let (map, _) = timed(&["map", "--json"]);
    let _ = lctx(&["daemon", "stop"]);
    // The note counts the call sites of `run` that only its name ties to the definition asked about.
    let guessed = [" calls of `run`", " call of `run`"]
        .iter()
        .find_map(|said| note.split_once(said))
        .and_then(|(before, _)| before.rsplit(' ').next())
        .unwrap_or("?");
    format!(
        "| {language} | {files} | {:.2} s | {new} | {:.2} s | {guessed} |",
        callers.as_secs_f64(),
        map.as_secs_f64()
    )
}
