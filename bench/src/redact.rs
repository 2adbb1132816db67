//! Issue 14's figures: the secret redactor's recall on the planted corpus,
//! its hits per 100k lines on real public source trees (every hit listed,
//! for classifying by eye), and its throughput on clean source.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lean_ctx_redact::Redactor;
use lean_ctx_redact::testing::{self, KINDS};

use crate::stats::{summarize, us};

/// A named set of source trees: `NAME=ROOT` or `NAME=ROOT:a-m` (only the
/// directories under ROOT whose names start with a letter from a to m).
pub struct TreeSet {
    pub name: String,
    pub root: PathBuf,
    pub letters: Option<(char, char)>,
}

pub fn parse_set(spec: &str) -> Option<TreeSet> {
    let (name, rest) = spec.split_once('=')?;
    let (root, letters) = match rest.rsplit_once(':') {
        Some((root, range)) if range.len() == 3 && range.as_bytes()[1] == b'-' => {
            let mut c = range.chars();
            (root, Some((c.next()?, c.nth(1)?)))
        }
        _ => (rest, None),
    };
    Some(TreeSet { name: name.into(), root: PathBuf::from(root), letters })
}

/// Files larger than this are skipped (generated data, not source a reader opens).
const MAX_FILE: u64 = 4 << 20;

fn files(set: &TreeSet) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.path());
        for e in entries {
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                walk(&e.path(), out);
            } else if ft.is_file() && e.metadata().is_ok_and(|m| m.len() <= MAX_FILE) {
                out.push(e.path());
            }
        }
    }
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(&set.root) else { return out };
    let mut tops: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    tops.sort();
    for top in tops {
        let first =
            top.file_name().and_then(|n| n.to_str()).and_then(|n| n.chars().next()).map(|c| c.to_ascii_lowercase());
        let wanted = match (set.letters, first) {
            (Some((lo, hi)), Some(c)) => (lo..=hi).contains(&c),
            (Some(_), None) => false,
            (None, _) => true,
        };
        if !wanted {
            continue;
        }
        if top.is_dir() {
            walk(&top, &mut out);
        } else if top.is_file() {
            out.push(top);
        }
    }
    out
}

/// Text files only: valid UTF-8 without NUL bytes.
fn read_text(path: &Path) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    if bytes.contains(&0) {
        return None;
    }
    String::from_utf8(bytes).ok()
}

struct Hit {
    path: String,
    line: usize,
    redacted: String,
}

struct SetResult {
    files: usize,
    lines: usize,
    bytes: usize,
    hits: Vec<Hit>,
    by_kind: BTreeMap<&'static str, usize>,
}

fn scan_set(redactor: &Redactor, set: &TreeSet, clean: &mut Vec<String>) -> SetResult {
    let mut r = SetResult { files: 0, lines: 0, bytes: 0, hits: Vec::new(), by_kind: BTreeMap::new() };
    for path in files(set) {
        let Some(text) = read_text(&path) else { continue };
        r.files += 1;
        r.lines += text.lines().count();
        r.bytes += text.len();
        let out = redactor.redact(&text);
        if out.is_clean() {
            if (10_000..=30_000).contains(&text.len()) {
                clean.push(text);
            }
            continue;
        }
        for (kind, n) in &out.found {
            *r.by_kind.entry(kind).or_default() += n;
        }
        let shown = path.strip_prefix(&set.root).unwrap_or(&path).display().to_string();
        for (i, line) in out.text.lines().enumerate() {
            if lean_ctx_redact::contains_marker(line)
                && !lean_ctx_redact::contains_marker(text.lines().nth(i).unwrap_or(""))
            {
                r.hits.push(Hit { path: shown.clone(), line: i + 1, redacted: around_marker(line.trim()) });
            }
        }
    }
    r
}

/// Up to 140 characters of a redacted line, starting shortly before its
/// first marker: minified bundles put a whole file on one line, and the
/// marker is what the reader needs to see.
fn around_marker(line: &str) -> String {
    let at = line.find("[REDACTED:").unwrap_or(0);
    let start = line[..at].char_indices().rev().nth(59).map_or(0, |(i, _)| i);
    let cut = if start > 0 { "…" } else { "" };
    format!("{cut}{}", line[start..].chars().take(140).collect::<String>())
}

pub fn run(sets: &[TreeSet], seed: u64) -> String {
    let redactor = Redactor::new();
    let mut out = String::new();

    // (1) Recall on the planted corpus.
    let corpus = testing::planted_corpus(seed, 20);
    let mut per_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut misses = Vec::new();
    for p in &corpus {
        let cell = per_kind.entry(p.kind).or_default();
        cell.1 += 1;
        match testing::check(p, &redactor.redact(&p.text).text) {
            Ok(()) => cell.0 += 1,
            Err(why) => misses.push(format!("{} in {}: {why}", p.kind, p.context)),
        }
    }
    let total: usize = per_kind.values().map(|c| c.1).sum();
    let found: usize = per_kind.values().map(|c| c.0).sum();
    let _ = writeln!(
        out,
        "### Recall on the planted corpus\n\nSeed {seed}, {total} secrets: {} kinds × up to {} contexts ({}) × 20 each. \
         Found **{found} of {total}** ({:.2} %).\n",
        KINDS.len(),
        testing::CONTEXTS.len(),
        testing::CONTEXTS.join(", "),
        100.0 * found as f64 / total as f64
    );
    let _ = writeln!(out, "| kind | found | recall |\n|---|---|---|");
    for kind in KINDS {
        let (f, t) = per_kind.get(kind).copied().unwrap_or_default();
        let _ = writeln!(out, "| `{kind}` | {f} / {t} | {:.1} % |", 100.0 * f as f64 / t.max(1) as f64);
    }
    for m in misses.iter().take(20) {
        let _ = writeln!(out, "- missed: {m}");
    }

    // (2) Hits on real trees.
    let mut clean = Vec::new();
    let _ = writeln!(out, "\n### Hits on public source trees\n");
    let _ =
        writeln!(out, "| set | files | lines | MB | hits | per 100k lines | kinds |\n|---|---|---|---|---|---|---|");
    let mut listings = String::new();
    for set in sets {
        let r = scan_set(&redactor, set, &mut clean);
        let kinds: Vec<String> = r.by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.1} | {} | {:.2} | {} |",
            set.name,
            r.files,
            r.lines,
            r.bytes as f64 / 1e6,
            r.hits.len(),
            r.hits.len() as f64 * 100_000.0 / r.lines.max(1) as f64,
            kinds.join(", ")
        );
        let _ = writeln!(listings, "\nLines redacted in {} ({}):\n", set.name, r.hits.len());
        for h in &r.hits {
            let _ = writeln!(listings, "- `{}:{}`: `{}`", h.path, h.line, h.redacted.replace('`', "'"));
        }
    }
    out.push_str(&listings);

    // (3) Throughput on clean source files of 10–30 KB, one call per file.
    let _ = writeln!(out, "\n### Throughput on clean source\n");
    if clean.is_empty() {
        let _ = writeln!(out, "No clean 10–30 KB files in the sets given.");
        return out;
    }
    clean.truncate(2000);
    let bytes: usize = clean.iter().map(String::len).sum();
    for text in &clean {
        std::hint::black_box(redactor.redact(text));
    }
    let mut per_file = Vec::new();
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        for text in &clean {
            let s = Instant::now();
            std::hint::black_box(redactor.redact(std::hint::black_box(text)));
            per_file.push(s.elapsed());
        }
        best = best.min(t.elapsed());
    }
    let mean_len = bytes / clean.len();
    let s = summarize(per_file);
    let _ = writeln!(
        out,
        "{} clean files of 10–30 KB (mean {:.1} KB, {:.1} MB in all), each redacted as one call, 5 rounds:\n\n\
         - throughput (best round): **{:.0} MB/s**\n- per file: p50 {}, p99 {}, min {} (n = {})",
        clean.len(),
        mean_len as f64 / 1e3,
        bytes as f64 / 1e6,
        bytes as f64 / best.as_secs_f64() / 1e6,
        us(s.p50),
        us(s.p99),
        us(s.min),
        s.n
    );
    out
}
