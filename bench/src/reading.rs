//! Issues 3 and 12's figures: tokens per read mode against raw on public code and the share of
//! definitions (found by [`crate::definitions`], without tree-sitter) that signatures and map
//! show, side by side with the reference lean-ctx on the same files and judged by the same check
//! ([`crate::coverage`]); and the whole-process time of a warm `lctx read`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use lean_ctxd::engine::paths::Dirs;
use lean_ctxd::engine::read::ReadParams;
use lean_ctxd::engine::tokens::count_uncached;
use lean_ctxd::engine::{Caller, Engine};

use crate::coverage::{FileViews, Tally, shown_cell};
use crate::definitions::{self, Scanner};
use crate::stats::{ms, summarize};

const MODES: &[&str] = &["signatures", "map", "aggressive", "auto"];
const OUTLINE_MODES: &[&str] = &["signatures", "map"];

pub struct Corpus {
    pub name: String,
    pub root: PathBuf,
    pub scanner: Scanner,
}

/// `LANGUAGE=DIR` as given on the command line (`rust`, `python`, `typescript`, `javascript`,
/// `go`, `java`; `kotlin`, `php`, `lua`, `perl`, `shell` counted by Universal Ctags); the corpus is named by its language and the directory's last two components.
pub fn parse_corpus(spec: &str) -> Result<Corpus, String> {
    let (language, dir) = spec.split_once('=').ok_or_else(|| format!("`{spec}`: expected LANGUAGE=DIR"))?;
    let scanner = definitions::for_language(language).ok_or_else(|| {
        format!("`{spec}`: unknown language `{language}` (rust, python, typescript, javascript, go, java, kotlin, php, lua, perl, shell)")
    })?;
    let root = PathBuf::from(dir);
    if !root.is_dir() {
        return Err(format!("`{spec}`: {dir} is not a directory"));
    }
    let tail: Vec<_> = root.components().rev().take(2).collect();
    let place = tail.iter().rev().map(|part| part.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
    Ok(Corpus { name: format!("{language} ({place})"), root, scanner })
}

/// The corpus's source files in path order: tests (`_test.go`) and declaration files (`.d.ts`)
/// left out, as are files under 200 bytes and from 200 kB (the daemon's own read limit is lower).
pub(crate) fn files(corpus: &Corpus, max: usize) -> Vec<PathBuf> {
    let ext = corpus.scanner.extension;
    let mut out = tree_files(&corpus.root, &|name| {
        name.ends_with(ext) && !name.ends_with(".d.ts") && !name.ends_with("_test.go")
    });
    out.retain(|p| std::fs::metadata(p).is_ok_and(|m| m.len() > 200 && m.len() < 200_000));
    out.truncate(max);
    out
}

/// The files under `dir` whose name `keep` takes, in path order; hidden directories and
/// `node_modules` are not entered.
pub(crate) fn tree_files(dir: &Path, keep: &dyn Fn(&str) -> bool) -> Vec<PathBuf> {
    fn walk(dir: &Path, keep: &dyn Fn(&str) -> bool, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if p.is_dir() {
                if !name.starts_with('.') && name != "node_modules" {
                    walk(&p, keep, out);
                }
            } else if keep(&name) {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, keep, &mut out);
    out
}

/// Every `step`-th index so that at most `max` of `n` files are picked, spread over the corpus.
fn sampled(n: usize, max: usize) -> impl Fn(usize) -> bool {
    let step = n.div_ceil(max.max(1)).max(1);
    move |i| i % step == 0
}

/// The reference's view with its own trailers (tips, hints) removed, as an MCP host would not see
/// them; `None` when it printed nothing twice (its daemon times out under load).
fn reference_view(bin: &Path, home: &Path, root: &Path, file: &Path, mode: &str) -> Option<String> {
    // Run from the corpus root with a relative path: the reference refuses paths outside the
    // project it detects from its working directory.
    let relative = file.strip_prefix(root).ok()?;
    for _ in 0..2 {
        let out = Command::new(bin)
            .arg("read")
            .arg(relative)
            .args(["-m", mode])
            .current_dir(root)
            .env("HOME", home)
            .stdin(Stdio::null())
            .output()
            .ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        let kept: Vec<&str> =
            text.lines().filter(|l| !l.starts_with("[lean-ctx]") && !l.starts_with("--- tip")).collect();
        let view = kept.join("\n").trim_end().to_string();
        if !view.is_empty() {
            return Some(view);
        }
    }
    None
}

/// Ends the background daemons the reference started under the HOME `homes_under` (or under a
/// directory whose name begins with it).
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

/// One corpus's tallies: ours on every file; ours and the reference's on the sampled files.
#[derive(Default)]
struct CorpusTallies {
    ours: Tally,
    ours_sampled: Tally,
    theirs: Tally,
    /// Sampled files the reference printed nothing for (left out of both sides).
    reference_failed: usize,
}

/// The reference to run beside ours: its binary, how many files per corpus it reads, and where
/// to keep both tools' views of those files (`--dump DIR`), to look at what the figures count.
pub struct Reference<'a> {
    pub bin: &'a Path,
    pub files: usize,
    pub dump: Option<&'a Path>,
}

/// Corpora measured at once. Each runs a reference daemon of its own, and one thread per corpus
/// (up to 45 at once) kept this 2-core machine at a load of 35–80: the reference then dropped
/// files and per-set figures moved by ±5 % between runs. The reference mostly waits on its
/// daemon, so twice the cores keep them busy.
fn corpora_at_once() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get() * 2)
}

pub fn run(corpora: &[Corpus], reference: Option<&Reference<'_>>, max_files: usize) -> String {
    let home = tempfile::tempdir().expect("temp");
    let next = AtomicUsize::new(0);
    // Each worker takes the next corpus until none is left, and hands back what it measured.
    let mut measured: Vec<(usize, CorpusTallies)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..corpora_at_once().min(corpora.len()))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(corpus) = corpora.get(i) else { break done };
                        let corpus_home = home.path().join(i.to_string());
                        // Corpora may share a directory's name: each dumps under its position.
                        let dump = reference.and_then(|r| r.dump).map(|dir| dir.join(i.to_string()));
                        done.push((i, measure(corpus, &corpus_home, reference, max_files, dump.as_deref())));
                        // Its reference daemon is idle from here on.
                        stop_reference_daemons(&corpus_home.join("reference"));
                    }
                })
            })
            .collect();
        workers.into_iter().flat_map(|worker| worker.join().expect("corpus worker")).collect()
    });
    measured.sort_by_key(|(i, _)| *i);
    let results: Vec<_> = measured.into_iter().map(|(i, tallies)| (&corpora[i], tallies)).collect();
    report(&results, max_files, reference)
}

/// One corpus: our views of every file through an engine of its own, and the reference's of the
/// sampled ones under a HOME of their own (its background daemon keeps the project root of its
/// first call for all later ones).
fn measure(
    corpus: &Corpus,
    home: &Path,
    reference: Option<&Reference<'_>>,
    max_files: usize,
    dump: Option<&Path>,
) -> CorpusTallies {
    std::fs::create_dir_all(home).expect("corpus home");
    let engine = Engine::new(Dirs::under(home));
    let reference_home = home.join("reference");
    let count = |text: &str| count_uncached(text);
    let list = files(corpus, max_files);
    let pick = sampled(list.len(), reference.map_or(0, |r| r.files));
    let mut tallies = CorpusTallies::default();
    for (i, file) in list.iter().enumerate() {
        let cwd = file.parent().unwrap().display().to_string();
        let root = corpus.root.display().to_string();
        let caller = Caller { cwd: &cwd, project_root: Some(&root), agent: "bench", ..Caller::default() };
        let Ok(raw) = std::fs::read_to_string(file) else { continue };
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
        let expected = (corpus.scanner.scan)(&raw);
        let raw_tokens = count(&raw);
        let ours = FileViews { path: file, raw: &raw, raw_tokens, expected: &expected, views: &views };
        tallies.ours.add(&ours, count);
        let Some(reference) = reference.filter(|_| pick(i)) else { continue };
        let theirs: Option<BTreeMap<_, _>> = OUTLINE_MODES
            .iter()
            .map(|mode| Some((*mode, reference_view(reference.bin, &reference_home, &corpus.root, file, mode)?)))
            .collect();
        let Some(theirs) = theirs else {
            tallies.reference_failed += 1;
            continue;
        };
        if let Some(dir) = dump {
            dump_views(dir, file.strip_prefix(&corpus.root).unwrap_or(file), &views, &theirs);
        }
        tallies.theirs.add(&FileViews { views: &theirs, ..ours }, count);
        let outlines = views
            .iter()
            .filter(|(mode, _)| OUTLINE_MODES.contains(mode))
            .map(|(mode, view)| (*mode, view.clone()))
            .collect();
        tallies.ours_sampled.add(&FileViews { views: &outlines, ..ours }, count);
    }
    tallies
}

/// Writes both tools' views of one file under `dir`, at the file's path in its corpus:
/// `src/a.ts.signatures.ours`, `src/a.ts.signatures.reference`. Modes the reference was not
/// asked for (`aggressive`, `auto`) are written for ours alone.
fn dump_views(dir: &Path, relative: &Path, ours: &BTreeMap<&str, String>, theirs: &BTreeMap<&str, String>) {
    let base = dir.join(relative);
    let written = base.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|()| {
        let sides = [("ours", ours), ("reference", theirs)];
        sides.iter().flat_map(|(side, views)| views.iter().map(move |(mode, view)| (side, mode, view))).try_for_each(
            |(side, mode, view)| {
                let mut name = base.file_name().unwrap_or_default().to_os_string();
                name.push(format!(".{mode}.{side}"));
                std::fs::write(base.with_file_name(name), view)
            },
        )
    });
    if let Err(e) = written {
        eprintln!("lctx-bench reading: cannot dump the views of {} under {}: {e}", relative.display(), dir.display());
    }
}

fn report(results: &[(&Corpus, CorpusTallies)], max_files: usize, reference: Option<&Reference<'_>>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "### Read modes on public code (≤ {max_files} files per corpus)\n");
    let _ = writeln!(
        out,
        "| corpus | files | flagged incomplete | raw tokens | signatures | map | aggressive | auto | defs | \
         in macro calls (shown) | fields (shown) | in signatures | in map |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (corpus, t) in results {
        let o = &t.ours;
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            corpus.name,
            o.files,
            o.incomplete,
            o.raw,
            o.tokens_cell("signatures"),
            o.tokens_cell("map"),
            o.tokens_cell("aggressive"),
            o.tokens_cell("auto"),
            o.expected,
            shown_cell(o.in_macro_shown, o.in_macro),
            shown_cell(o.fields_shown, o.fields),
            o.coverage_cell("signatures"),
            o.coverage_cell("map"),
        );
    }
    let Some(reference) = reference else { return out };
    let _ = writeln!(
        out,
        "\nSide by side with the reference on the same files (at most {} per corpus, spread evenly), \
         per corpus and per language:\n",
        reference.files
    );
    let _ = writeln!(
        out,
        "| corpus | files | tool | signatures tokens | map tokens | signatures vs reference | map vs reference | \
         defs | in signatures | in map |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|");
    let mut languages: BTreeMap<&str, CorpusTallies> = BTreeMap::new();
    for (corpus, t) in results {
        side_by_side(&mut out, &corpus.name, t);
        let total = languages.entry(corpus.scanner.language).or_default();
        total.ours_sampled.merge(&t.ours_sampled);
        total.theirs.merge(&t.theirs);
        total.reference_failed += t.reference_failed;
    }
    for (language, t) in &languages {
        side_by_side(&mut out, &format!("**{language}, all corpora**"), t);
    }
    out
}

/// Our row and the reference's for one corpus (or language), ours with the token change against
/// the reference.
fn side_by_side(out: &mut String, name: &str, t: &CorpusTallies) {
    let change = |mode: &str| {
        let (ours, theirs) = (t.ours_sampled.tokens.get(mode).copied(), t.theirs.tokens.get(mode).copied());
        let (ours, theirs) = (ours.unwrap_or(0) as f64, theirs.unwrap_or(0).max(1) as f64);
        format!("{:+.0} %", (ours / theirs - 1.0) * 100.0)
    };
    let failed =
        if t.reference_failed > 0 { format!(" ({} left out: no answer)", t.reference_failed) } else { String::new() };
    for (tool, tally, ours) in [("lean-ctxd", &t.ours_sampled, true), ("lean-ctx 3.11.4", &t.theirs, false)] {
        let _ = writeln!(
            out,
            "| {name} | {}{failed} | {tool} | {} | {} | {} | {} | {} | {} | {} |",
            tally.files,
            tally.tokens_cell("signatures"),
            tally.tokens_cell("map"),
            if ours { change("signatures") } else { String::new() },
            if ours { change("map") } else { String::new() },
            tally.expected,
            tally.coverage_cell("signatures"),
            tally.coverage_cell("map"),
        );
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dump_keeps_each_side_s_views_at_the_file_s_path() {
        let dir = tempfile::tempdir().unwrap();
        let ours = BTreeMap::from([("signatures", "3 fn a()\n".to_string()), ("auto", "fn a() {}\n".to_string())]);
        let theirs = BTreeMap::from([("signatures", "fn a() @L3\n".to_string())]);
        dump_views(dir.path(), Path::new("src/a.rs"), &ours, &theirs);
        let read = |name: &str| std::fs::read_to_string(dir.path().join("src").join(name)).ok();
        assert_eq!(read("a.rs.signatures.ours").as_deref(), Some("3 fn a()\n"));
        assert_eq!(read("a.rs.auto.ours").as_deref(), Some("fn a() {}\n"));
        assert_eq!(read("a.rs.signatures.reference").as_deref(), Some("fn a() @L3\n"));
        assert_eq!(read("a.rs.auto.reference"), None, "the reference was not asked for it");
    }
}
