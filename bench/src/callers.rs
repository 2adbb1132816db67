//! Callers as `lctx callgraph` answers them (depth 1, through a daemon) against a language
//! server's call hierarchy on the same copy of a project: precision and recall over call sites
//! (`file:line`), precision per resolution label, and the latency of the warm calls.
//!
//! The functions and methods asked about are every k-th definition of the project in path and
//! line order (constructors left out: servers differ on what calls one). A symbol is skipped,
//! and counted, when the server finds no function at its name or our answer lists several
//! definitions of it in that file (overloads: the server would answer for one of them).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use lean_ctx_outline::Language;
use serde_json::Value;

use crate::stats::{ms, summarize};
use lean_ctx_lsp::Server;

pub struct Setup<'a> {
    pub project: &'a Path,
    /// The language server's command line (e.g. `pyright-langserver --stdio`).
    pub server: &'a [String],
    /// Its `languageId` for opened documents (`python`, `typescript`).
    pub language_id: &'a str,
    pub symbols: usize,
}

/// A function or method to ask about.
pub(crate) struct Asked {
    pub(crate) file: String,
    pub(crate) symbol: String,
    line: u32,
    column: u32,
}

#[derive(Default)]
struct Tally {
    compared: usize,
    no_server_item: usize,
    several_definitions: usize,
    ours: usize,
    theirs: usize,
    both: usize,
    /// Per resolution label: (our sites, of which the server has).
    by_label: BTreeMap<String, (usize, usize)>,
    latencies: Vec<Duration>,
    /// A few sites each side has alone, for the report.
    only_ours: Vec<String>,
    only_theirs: Vec<String>,
}

pub fn run(bins: &Path, setup: &Setup<'_>) -> String {
    let copy = tempfile::tempdir().expect("temp dir");
    let root = copy.path().canonicalize().expect("canonical temp dir").join("project");
    let status = Command::new("cp").arg("-r").arg(setup.project).arg(&root).status().expect("cp");
    assert!(status.success(), "cannot copy {}", setup.project.display());
    // A TypeScript server sees the whole copy as one project only with a tsconfig.
    if setup.language_id == "typescript" && !root.join("tsconfig.json").exists() {
        std::fs::write(root.join("tsconfig.json"), "{\"include\": [\"**/*.ts\", \"**/*.tsx\"]}\n").unwrap();
    }
    let asked = sample(&root, setup.symbols);
    let home = tempfile::tempdir().expect("temp home");
    let lctx = bins.join("lctx");
    let call = |args: &[&str]| -> Value {
        let out = Command::new(&lctx)
            .args(args)
            .current_dir(&root)
            .env("LEAN_CTX_HOME", home.path())
            .output()
            .expect("run lctx");
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
    };
    // The first call opens the project; wait until its graph is complete.
    let ready = Instant::now();
    if let Some(first) = asked.first() {
        while call(&["callgraph", &first.symbol, "--file", &first.file, "--json"])["complete"] != true {
            assert!(ready.elapsed() < Duration::from_secs(600), "the graph was not ready within 10 minutes");
            std::thread::sleep(Duration::from_millis(500));
        }
    }
    let graph_ready = ready.elapsed();

    let server =
        Server::start(setup.server, &root, Instant::now() + Duration::from_secs(60)).unwrap_or_else(|e| panic!("{e}"));
    let mut tally = Tally::default();
    let mut opened = BTreeSet::new();
    for (n, a) in asked.iter().enumerate() {
        let started = Instant::now();
        let answer = call(&["callgraph", &a.symbol, "--file", &a.file, "--json"]);
        tally.latencies.push(started.elapsed());
        if answer["targets"].as_array().map_or(0, Vec::len) != 1 {
            tally.several_definitions += 1;
            continue;
        }
        let file = root.join(&a.file);
        if opened.insert(a.file.clone()) {
            let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            server.open(&file, setup.language_id, &text).unwrap_or_else(|e| panic!("{e}"));
        }
        // The first question waits for the server's analysis of the project.
        let deadline = Duration::from_secs(if n == 0 { 300 } else { 60 });
        let theirs = match incoming_sites(&server, &root, &file, a.line - 1, a.column, deadline) {
            Ok(Some(sites)) => sites,
            Ok(None) => {
                tally.no_server_item += 1;
                continue;
            }
            Err(e) => panic!("{}: {e}", a.symbol),
        };
        compare(&mut tally, &answer, &theirs, a);
    }
    drop(server);
    let _ = Command::new(&lctx).args(["daemon", "stop"]).env("LEAN_CTX_HOME", home.path()).output();
    report(setup, &tally, asked.len(), graph_ready)
}

/// One call site: the file (relative to the root) and its 1-based line.
type Site = (String, u32);

/// The call sites of the function whose name is at `line`/`column` (0-based) of `file`, as the
/// server's call hierarchy gives them; `None` when it finds no function there.
fn incoming_sites(
    server: &Server,
    root: &Path,
    file: &Path,
    line: u32,
    column: u32,
    deadline: Duration,
) -> Result<Option<Vec<Site>>, lean_ctx_lsp::Error> {
    let until = Instant::now() + deadline;
    let Some(item) = server.prepare_call_hierarchy(file, line, column, until)?.into_iter().next() else {
        return Ok(None);
    };
    let mut sites = Vec::new();
    for call in server.incoming_calls(&item, until)? {
        let Some(relative) = call.item.path.as_deref().and_then(|p| p.strip_prefix(root).ok()) else { continue };
        // Compared by line: the code graph's sites of a line count once here too.
        for site in call.sites {
            sites.push((relative.to_string_lossy().into_owned(), site.line + 1));
        }
    }
    sites.sort();
    sites.dedup();
    Ok(Some(sites))
}

fn compare(tally: &mut Tally, answer: &Value, theirs: &[Site], asked: &Asked) {
    let mut ours: BTreeMap<Site, String> = BTreeMap::new();
    for edge in answer["edges"].as_array().into_iter().flatten() {
        let (Some(file), Some(line)) = (edge["file"].as_str(), edge["line"].as_u64()) else { continue };
        let label = edge["resolution"].as_str().unwrap_or("unresolved").to_string();
        ours.insert((file.to_string(), line as u32), label);
    }
    let theirs: BTreeSet<&Site> = theirs.iter().collect();
    // The report lists a few sites each side has alone; `CALLERS_ALL=1` lists every one.
    let shown = if std::env::var_os("CALLERS_ALL").is_some() { usize::MAX } else { 8 };
    tally.compared += 1;
    tally.ours += ours.len();
    tally.theirs += theirs.len();
    for (site, label) in &ours {
        let agreed = theirs.contains(site);
        tally.both += usize::from(agreed);
        let entry = tally.by_label.entry(label.clone()).or_default();
        entry.0 += 1;
        entry.1 += usize::from(agreed);
        if !agreed && tally.only_ours.len() < shown {
            tally.only_ours.push(format!("{}:{} → {} [{label}]", site.0, site.1, asked.symbol));
        }
    }
    for site in theirs.iter().filter(|site| !ours.contains_key(site)) {
        if tally.only_theirs.len() < shown {
            tally.only_theirs.push(format!("{}:{} → {}", site.0, site.1, asked.symbol));
        }
    }
}

/// Every `symbols`-th callable definition (not a constructor) of the project's code files.
pub(crate) fn sample(root: &Path, symbols: usize) -> Vec<Asked> {
    let mut files = Vec::new();
    collect(root, root, &mut files);
    files.sort();
    let mut all = Vec::new();
    for rel in files {
        let path = root.join(&rel);
        let Some(language) = Language::from_path(&path).filter(|l| lean_ctx_graph::has_queries(*l)) else { continue };
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let lines: Vec<&str> = text.lines().collect();
        for def in lean_ctx_graph::extract(language, &text).defs {
            if !matches!(def.kind.as_str(), "fn" | "method") {
                continue;
            }
            // The questions are the declared functions and methods: a JavaScript/TypeScript member
            // typed as a function (`map: (pos: number) => number`), which the graph reads as a
            // method, is left out, so one set of questions compares builds before and after it.
            if def.typed_member {
                continue;
            }
            let Some(column) = lines.get(def.line as usize - 1).and_then(|l| name_column(l, &def.name)) else {
                continue;
            };
            let symbol = match &def.container {
                Some(container) => format!("{container}.{}", def.name),
                None => def.name.clone(),
            };
            all.push(Asked { file: rel.to_string_lossy().into_owned(), symbol, line: def.line, column });
        }
    }
    let step = all.len().div_ceil(symbols.max(1)).max(1);
    all.into_iter().step_by(step).collect()
}

/// The UTF-16 column of `name` as a whole word in `line` (what LSP positions count).
fn name_column(line: &str, name: &str) -> Option<u32> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let at = line.match_indices(name).map(|(i, _)| i).find(|&i| {
        let before = line[..i].chars().next_back();
        let after = line[i + name.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })?;
    Some(line[..at].encode_utf16().count() as u32)
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name == "node_modules" {
            continue;
        }
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => collect(root, &path, out),
            Ok(kind) if kind.is_file() => out.push(path.strip_prefix(root).expect("under root").to_path_buf()),
            _ => {}
        }
    }
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 { "—".to_string() } else { format!("{:.3}", part as f64 / whole as f64) }
}

fn report(setup: &Setup<'_>, tally: &Tally, asked: usize, graph_ready: Duration) -> String {
    let latency = (!tally.latencies.is_empty()).then(|| summarize(tally.latencies.clone()));
    let server = setup.server.first().map_or("", String::as_str);
    let mut out = format!(
        "| project | server | asked | compared | skipped: no server item / several definitions | our sites | server's sites | both | precision | recall | lctx callgraph p50 / p99 | graph ready after |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n\
         | {} | {server} | {asked} | {} | {} / {} | {} | {} | {} | {} | {} | {} | {:.1} s |\n\n",
        setup.project.display(),
        tally.compared,
        tally.no_server_item,
        tally.several_definitions,
        tally.ours,
        tally.theirs,
        tally.both,
        percent(tally.both, tally.ours),
        percent(tally.both, tally.theirs),
        latency.map_or("—".to_string(), |l| format!("{} / {}", ms(l.p50), ms(l.p99))),
        graph_ready.as_secs_f64(),
    );
    out.push_str(
        "Precision by our resolution label:\n\n| label | our sites | the server has | precision |\n|---|---|---|---|\n",
    );
    for (label, (ours, agreed)) in &tally.by_label {
        out.push_str(&format!("| {label} | {ours} | {agreed} | {} |\n", percent(*agreed, *ours)));
    }
    for (title, sites) in [("Only ours", &tally.only_ours), ("Only the server's", &tally.only_theirs)] {
        out.push_str(&format!("\n{title}:\n"));
        for site in sites {
            out.push_str(&format!("- `{site}`\n"));
        }
    }
    out
}
