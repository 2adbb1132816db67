//! Issue 3's figures: tokens per read mode against raw on public code, the
//! share of top-level definitions (per Universal Ctags) that signatures and
//! map keep, side by side with the reference lean-ctx when given; and the
//! whole-process time of a warm `lctx read`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use lean_ctxd::engine::paths::Dirs;
use lean_ctxd::engine::read::ReadParams;
use lean_ctxd::engine::tokens::count_uncached;
use lean_ctxd::engine::{Caller, Engine};

use crate::stats::{ms, summarize};

const MODES: &[&str] = &["signatures", "map", "aggressive", "auto"];
/// Ctags kinds that count as definitions an outline must keep.
const DEFINITION_KINDS: &[&str] = &[
    "function",
    "class",
    "struct",
    "enum",
    "interface",
    "trait",
    "typedef",
    "type",
    "alias",
    "macro",
    "namespace",
    "module",
    "union",
    "method",
];
/// Files per corpus run through the (slow, one process per file) reference.
const REFERENCE_FILES: usize = 40;

pub struct Corpus {
    pub name: String,
    pub root: PathBuf,
    pub extension: String,
}

/// `NAME:EXT=DIR` as given on the command line.
pub fn parse_corpus(spec: &str) -> Option<Corpus> {
    let (head, dir) = spec.split_once('=')?;
    let (name, ext) = head.split_once(':')?;
    Some(Corpus { name: name.into(), root: PathBuf::from(dir), extension: ext.into() })
}

fn files(corpus: &Corpus, max: usize) -> Vec<PathBuf> {
    fn walk(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if p.is_dir() {
                if !name.starts_with('.') && name != "node_modules" {
                    walk(&p, ext, out);
                }
            } else if name.ends_with(&format!(".{ext}")) && !name.ends_with(".d.ts") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&corpus.root, &corpus.extension, &mut out);
    out.retain(|p| std::fs::metadata(p).is_ok_and(|m| m.len() > 200 && m.len() < 200_000));
    out.truncate(max);
    out
}

/// Top-level definition names of a file according to Universal Ctags.
fn ctags_definitions(file: &Path) -> Vec<String> {
    let Ok(out) = Command::new("ctags").args(["--output-format=json", "--fields=+K", "-f", "-"]).arg(file).output()
    else {
        return Vec::new();
    };
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let name = field(l, "name")?;
            let kind = field(l, "kind")?;
            (DEFINITION_KINDS.contains(&kind.as_str()) && !l.contains("\"scope\"")).then_some(name)
        })
        .collect()
}

/// A string field of a one-line JSON object (ctags emits flat objects).
fn field(line: &str, key: &str) -> Option<String> {
    let start = line.find(&format!("\"{key}\": \""))? + key.len() + 5;
    let end = line[start..].find('"')? + start;
    Some(line[start..end].to_string())
}

fn covered(defs: &[String], view: &str) -> usize {
    defs.iter().filter(|d| view.contains(d.as_str())).count()
}

/// The reference's view with its own trailers (tips, hints) removed, as an
/// MCP host would not see them.
fn reference_view(bin: &Path, home: &Path, file: &Path, mode: &str) -> Option<String> {
    // Run inside the file's directory: the reference refuses paths outside
    // the project it detects from its working directory.
    let out = Command::new(bin)
        .args(["read"])
        .arg(file.file_name()?)
        .args(["-m", mode])
        .current_dir(file.parent()?)
        .env("HOME", home)
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with("[lean-ctx]") && !l.starts_with("--- tip")).collect();
    Some(kept.join("\n").trim_end().to_string())
}

/// Ends the background daemons the reference started under our temp HOMEs.
fn stop_reference_daemons(homes_under: &Path) {
    let needle = format!("HOME={}", homes_under.display());
    let Ok(entries) = std::fs::read_dir("/proc") else { return };
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else { continue };
        let env = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        if env.split(|b| *b == 0).any(|kv| kv.starts_with(needle.as_bytes())) && pid != std::process::id() as i32 {
            let _ = Command::new("kill").arg(pid.to_string()).status();
        }
    }
}

#[derive(Default)]
struct Totals {
    files: usize,
    raw: usize,
    tokens: BTreeMap<&'static str, usize>,
    defs: usize,
    covered: BTreeMap<&'static str, usize>,
}

pub fn run(corpora: &[Corpus], reference: Option<&Path>, max_files: usize) -> String {
    let home = tempfile::tempdir().expect("temp");
    let engine = Engine::new(Dirs::under(home.path()));
    let mut out = String::new();
    let _ = writeln!(out, "### Read modes on public code (≤ {max_files} files per corpus)\n");
    let _ = writeln!(
        out,
        "| corpus | files | raw tokens | signatures | map | aggressive | auto | defs (ctags) | in signatures | in map |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|");
    let mut reference_rows = String::new();
    for corpus in corpora {
        let list = files(corpus, max_files);
        let mut ours = Totals::default();
        let (mut theirs, mut ours_subset) = (Totals::default(), Totals::default());
        for (i, file) in list.iter().enumerate() {
            let cwd = file.parent().unwrap().display().to_string();
            let root = corpus.root.display().to_string();
            let caller = Caller { cwd: &cwd, project_root: Some(&root), agent: "bench", ..Caller::default() };
            let Ok(raw) = std::fs::read_to_string(file) else { continue };
            let defs = ctags_definitions(file);
            let mut views = BTreeMap::new();
            for mode in MODES {
                let params =
                    ReadParams { paths: vec![file.display().to_string()], mode: (*mode).into(), ..Default::default() };
                if let Ok(mut v) = engine.read(&caller, &params)
                    && let Ok(v) = v.remove(0)
                {
                    views.insert(*mode, v.content);
                }
            }
            if views.len() != MODES.len() {
                continue;
            }
            let raw_tokens = count_uncached(&raw);
            add(&mut ours, raw_tokens, &views, &defs);
            if let Some(bin) = reference
                && i < REFERENCE_FILES
            {
                let mut theirs_views = BTreeMap::new();
                // One HOME per corpus: the reference's background daemon
                // keeps the project root of its first call for all later ones.
                let reference_home = home.path().join(format!("ref-{}", corpus.name));
                for mode in ["signatures", "map"] {
                    if let Some(v) = reference_view(bin, &reference_home, file, mode) {
                        theirs_views.insert(mode, v);
                    }
                }
                if theirs_views.len() == 2 {
                    add(&mut theirs, raw_tokens, &theirs_views, &defs);
                    add(&mut ours_subset, raw_tokens, &views, &defs);
                }
            }
        }
        let pct = |n: usize, of: usize| if of == 0 { 0.0 } else { n as f64 * 100.0 / of as f64 };
        let cell = |t: &Totals, m: &str| {
            let n = t.tokens.get(m).copied().unwrap_or(0);
            format!("{n} ({:.1} %)", pct(n, t.raw))
        };
        let cov = |t: &Totals, m: &str| format!("{:.1} %", pct(t.covered.get(m).copied().unwrap_or(0), t.defs));
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            corpus.name,
            ours.files,
            ours.raw,
            cell(&ours, "signatures"),
            cell(&ours, "map"),
            cell(&ours, "aggressive"),
            cell(&ours, "auto"),
            ours.defs,
            cov(&ours, "signatures"),
            cov(&ours, "map")
        );
        if theirs.files > 0 {
            for (who, t) in [("lean-ctxd", &ours_subset), ("lean-ctx 3.11.4", &theirs)] {
                let _ = writeln!(
                    reference_rows,
                    "| {} | {who} | {} | {} | {} | {} | {} |",
                    corpus.name,
                    t.files,
                    cell(t, "signatures"),
                    cell(t, "map"),
                    cov(t, "signatures"),
                    cov(t, "map")
                );
            }
        }
    }
    stop_reference_daemons(home.path());
    if !reference_rows.is_empty() {
        let _ = writeln!(out, "\nSide by side on the first {REFERENCE_FILES} files of each corpus:\n");
        let _ = writeln!(
            out,
            "| corpus | tool | files | signatures tokens | map tokens | defs in signatures | defs in map |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|---|");
        out.push_str(&reference_rows);
    }
    out
}

fn add(t: &mut Totals, raw: usize, views: &BTreeMap<&'static str, String>, defs: &[String]) {
    t.files += 1;
    t.raw += raw;
    t.defs += defs.len();
    for (mode, text) in views {
        *t.tokens.entry(mode).or_default() += count_uncached(text);
        *t.covered.entry(mode).or_default() += covered(defs, text);
    }
}

/// Whole-process `lctx read` of a 1,000-line file against a warm daemon,
/// and the size of the re-read stub.
pub fn latency(bins: &Path, runs: usize) -> String {
    let home = tempfile::Builder::new().prefix("lctxr").tempdir_in("/tmp").expect("temp");
    let proj = home.path().join("p");
    std::fs::create_dir_all(proj.join(".git")).unwrap();
    let body: String =
        (0..500).map(|i| format!("/// Adds {i}.\npub fn add_{i}(x: u64) -> u64 {{ x.wrapping_add({i}) }}\n")).collect();
    std::fs::write(proj.join("big.rs"), &body).unwrap();
    let lctx = bins.join("lctx");
    let run = |args: &[&str]| {
        let start = Instant::now();
        let out = Command::new(&lctx).args(args).current_dir(&proj).env("LEAN_CTX_HOME", home.path()).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (start.elapsed(), out.stdout)
    };
    run(&["daemon", "start"]);
    let mut out = String::new();
    let _ = writeln!(out, "### Warm `lctx read` of a 1,000-line file ({runs} runs, whole process)\n");
    let _ = writeln!(out, "| command | p50 | p99 |");
    let _ = writeln!(out, "|---|---|---|");
    for mode in ["full", "signatures", "map"] {
        run(&["read", "big.rs", "-m", mode]);
        let samples = (0..runs).map(|_| run(&["read", "big.rs", "-m", mode]).0).collect();
        let s = summarize(samples);
        let _ = writeln!(out, "| `lctx read big.rs -m {mode}` | {} | {} |", ms(s.p50), ms(s.p99));
    }
    run(&["--session", "bench", "read", "big.rs", "-m", "full"]);
    let (_, stub) = run(&["--session", "bench", "read", "big.rs", "-m", "full"]);
    let stub = String::from_utf8_lossy(&stub);
    let _ =
        writeln!(out, "\nRe-read stub: `{}` = **{} tokens** (goal ≤ 20)\n", stub.trim(), count_uncached(stub.trim()));
    run(&["daemon", "stop"]);
    out
}
