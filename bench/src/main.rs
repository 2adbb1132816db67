//! `lctx-bench`: measures the real binaries end to end and prints Markdown
//! for docs/benchmarks.md.
//!
//! Run from the repository root after a release build, e.g.
//! `cargo build --release --workspace --bins && ./target/release/lctx-bench foundation`

mod breakage;
mod callers;
mod coverage;
mod definitions;
mod foundation;
mod graph_build;
mod guard;
mod memory;
mod ranking;
mod reading;
mod redact;
mod repomap;
mod same_name;
mod shell;
mod soak;
mod stats;
mod thin;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "usage: lctx-bench foundation [--runs N]
       lctx-bench reading --corpus LANGUAGE=DIR… [--reference LEAN_CTX_BIN [--reference-files N] [--dump DIR]] [--max-files N] [--runs N]
                          (--runs 0: counts only, no latency; allowed in a debug build)
       lctx-bench breakage --corpus LANGUAGE=DIR… [--every N] [--offset K] [--changes N] [--seed N]
                          (definitions lost to a mid-edit syntax error, and how many silently;
                           counts only, allowed in a debug build)
       lctx-bench shell [--reference LEAN_CTX_BIN] [--runs N]   (from the repository root)
       lctx-bench memory
       lctx-bench thin [--runs N]   (from the repository root)
       lctx-bench guard DIR EXT [--runs N]   (a source tree to read, e.g. ~/.cargo/registry/src/…/tokio-1.x rs)
       lctx-bench soak [--seconds N]   (from the repository root; 32 clients, default 600 s)
       lctx-bench redact [--seed N] --set NAME=DIR[:a-m]…   (recall on planted secrets, hits on real trees)
       lctx-bench callers DIR LANGUAGE_ID [--symbols N] [--no-timing] -- SERVER ARGS…
                          (callers against a language server's call hierarchy, e.g.
                           `callers ~/src/rich python -- pyright-langserver --stdio`;
                           --no-timing: precision and recall only, allowed in a debug build)
       lctx-bench graph DIR [--symbols N] [--rounds N]   (index build, then the graph's, memory, restart,
                          warm `lctx callgraph` latency; default 100 symbols × 3)
       lctx-bench ranking --corpus LANGUAGE=DIR… [--names N]   (the rank of a type's defining file in a bm25
                          search for its name; default 20 names per corpus; counts only, allowed in a debug build)
       lctx-bench repomap DIR NAME,NAME… [--budgets N,N…]   (the map's tokens and the listed names it shows;
                          counts only, allowed in a debug build)
       lctx-bench same-name DIR [--files N,N…] [--languages python,rust]   (projects of N files each
                          defining one method name, written under DIR and removed after: callers and
                          the first map; default 1000,5000 files)";

/// The `--corpus LANGUAGE=DIR` arguments; on none or a bad one, the exit code after saying why.
fn corpora(args: &[String]) -> Result<Vec<reading::Corpus>, ExitCode> {
    let command = args.first().map_or("", String::as_str);
    let corpora: Result<Vec<_>, _> = args
        .iter()
        .enumerate()
        .filter(|(_, a)| *a == "--corpus")
        .filter_map(|(i, _)| args.get(i + 1).map(|c| reading::parse_corpus(c)))
        .collect();
    match corpora {
        Ok(corpora) if !corpora.is_empty() => Ok(corpora),
        Ok(_) => {
            eprintln!("lctx-bench {command}: give at least one --corpus LANGUAGE=DIR\n{USAGE}");
            Err(ExitCode::from(2))
        }
        Err(why) => {
            eprintln!("lctx-bench {command}: {why}");
            Err(ExitCode::from(2))
        }
    }
}

/// Directory holding the binaries under test: the one this harness runs from.
fn bin_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("own path");
    exe.parent().expect("bin dir").to_path_buf()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let runs: Option<usize> = value("--runs").and_then(|r| r.parse().ok());
    let reference = value("--reference").map(PathBuf::from);
    // Token and coverage counts do not depend on the build; only timings do.
    let counts_only = args.first().is_some_and(|a| a == "repomap" || a == "breakage" || a == "ranking")
        || (args.first().is_some_and(|a| a == "reading") && runs == Some(0))
        || (args.first().is_some_and(|a| a == "callers") && args.iter().any(|a| a == "--no-timing"));
    if cfg!(debug_assertions) && !counts_only {
        eprintln!("lctx-bench: this is a debug build; figures are meaningless. Build with --release.");
        return ExitCode::FAILURE;
    }
    let report = match args.first().map(String::as_str) {
        Some("foundation") => foundation::run(&bin_dir(), runs.unwrap_or(50)),
        Some("reading") => {
            let corpora = match corpora(&args) {
                Ok(corpora) => corpora,
                Err(code) => return code,
            };
            let max_files = value("--max-files").and_then(|m| m.parse().ok()).unwrap_or(300);
            let reference_files = value("--reference-files").and_then(|m| m.parse().ok()).unwrap_or(40);
            let dump = value("--dump").map(PathBuf::from);
            let reference = reference.as_deref().map(|bin| reading::Reference {
                bin,
                files: reference_files,
                dump: dump.as_deref(),
            });
            let counts = reading::run(&corpora, reference.as_ref(), max_files);
            match runs {
                Some(0) => counts,
                _ => counts + &reading::latency(&bin_dir(), runs.unwrap_or(50)),
            }
        }
        Some("breakage") => {
            let corpora = match corpora(&args) {
                Ok(corpora) => corpora,
                Err(code) => return code,
            };
            let number = |flag: &str, default: usize| value(flag).and_then(|n| n.parse().ok()).unwrap_or(default);
            let sample = breakage::Sample {
                every: number("--every", 25),
                offset: number("--offset", 0),
                changes_per_file: number("--changes", 6),
                seed: value("--seed").and_then(|n| n.parse().ok()).unwrap_or(0x9e37_79b9),
            };
            breakage::run(&corpora, &sample)
        }
        Some("ranking") => {
            let corpora = match corpora(&args) {
                Ok(corpora) => corpora,
                Err(code) => return code,
            };
            ranking::run(&corpora, value("--names").and_then(|n| n.parse().ok()).unwrap_or(20))
        }
        Some("shell") => {
            let repo = std::env::current_dir().expect("cwd");
            shell::run(&bin_dir(), &repo, reference.as_deref(), runs.unwrap_or(30))
        }
        Some("memory") => memory::run(&bin_dir()),
        Some("guard") => match (args.get(1), args.get(2)) {
            (Some(dir), Some(ext)) => guard::run(Path::new(dir), ext, runs.unwrap_or(5)),
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        },
        Some("redact") => {
            let sets: Vec<_> = args
                .iter()
                .enumerate()
                .filter(|(_, a)| *a == "--set")
                .filter_map(|(i, _)| args.get(i + 1).and_then(|s| redact::parse_set(s)))
                .collect();
            redact::run(&sets, value("--seed").and_then(|s| s.parse().ok()).unwrap_or(14))
        }
        Some("repomap") => match (args.get(1), args.get(2)) {
            (Some(dir), Some(names)) => {
                let budgets = value("--budgets").unwrap_or_else(|| "1024,4096".into());
                let budgets: Vec<u32> = budgets.split(',').filter_map(|b| b.trim().parse().ok()).collect();
                repomap::run(Path::new(dir), &repomap::parse_names(names), &budgets)
            }
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        },
        Some("soak") => {
            let repo = std::env::current_dir().expect("cwd");
            let seconds = value("--seconds").and_then(|s| s.parse().ok()).unwrap_or(600);
            soak::run(&bin_dir(), &repo, std::time::Duration::from_secs(seconds))
        }
        Some("graph") => match args.get(1) {
            Some(dir) if !dir.starts_with("--") => {
                let symbols = value("--symbols").and_then(|s| s.parse().ok()).unwrap_or(100);
                let rounds = value("--rounds").and_then(|s| s.parse().ok()).unwrap_or(3);
                graph_build::run(&bin_dir(), Path::new(dir), symbols, rounds)
            }
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        },
        Some("callers") => {
            let server: Vec<String> =
                args.iter().position(|a| a == "--").map(|i| args[i + 1..].to_vec()).unwrap_or_default();
            let (Some(project), Some(language_id)) = (args.get(1), args.get(2)) else {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            };
            if server.is_empty() {
                eprintln!("lctx-bench callers: give the language server's command after `--`\n{USAGE}");
                return ExitCode::from(2);
            }
            let symbols = value("--symbols").and_then(|s| s.parse().ok()).unwrap_or(200);
            let setup = callers::Setup { project: Path::new(project), server: &server, language_id, symbols };
            callers::run(&bin_dir(), &setup)
        }
        Some("same-name") => match args.get(1) {
            Some(dir) if !dir.starts_with("--") => {
                let sizes = value("--files").unwrap_or_else(|| "1000,5000".into());
                let sizes: Vec<usize> = sizes.split(',').filter_map(|n| n.trim().parse().ok()).collect();
                let languages = value("--languages").unwrap_or_else(|| same_name::LANGUAGES.join(","));
                let languages: Vec<&str> =
                    same_name::LANGUAGES.into_iter().filter(|l| languages.split(',').any(|a| a.trim() == *l)).collect();
                same_name::run(&bin_dir(), Path::new(dir), &sizes, &languages)
            }
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        },
        Some("thin") => {
            let repo = std::env::current_dir().expect("cwd");
            thin::run(&bin_dir(), &repo, runs.unwrap_or(50))
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    print!("{report}");
    ExitCode::SUCCESS
}
