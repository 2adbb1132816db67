//! Whether bm25 search finds where a name is defined: for type names each defined in one source
//! file of a project and written in at least three others, the rank of the first file defining
//! it (that source file or a declaration file, `.d.ts`, `.pyi`) in `ctx_search action=bm25 NAME`. Definitions are found by a line pattern per language, not by the
//! engine's own outline, so the figure does not grade the engine by its own extractor. Counts
//! only: they do not depend on the build.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use lean_ctxd::engine::cancel::Cancel;
use lean_ctxd::engine::paths::Dirs;
use lean_ctxd::engine::search::SearchParams;
use lean_ctxd::engine::{Caller, Engine};
use regex::Regex;

use crate::reading::{Corpus, tree_files};

/// Files the search may show, and so the worst rank counted.
const SHOWN: u32 = 20;
/// A name is asked for only if at least this many other files mention it.
const MIN_MENTIONS: usize = 3;

/// The line pattern of a type definition in `language` (the name is group 1).
fn definition_pattern(language: &str) -> Option<Regex> {
    let pattern = match language {
        "python" => r"^class\s+([A-Za-z_]\w*)",
        "rust" => r"^\s*pub(?:\([^)]*\))?\s+(?:struct|enum|trait|union|type)\s+([A-Za-z_]\w*)",
        // Bundled declaration files declare without `export` and export a list after.
        "typescript" | "javascript" => {
            r"^(?:export\s+)?(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:class|interface|type|enum)\s+([A-Za-z_$][\w$]*)"
        }
        "go" => r"^type\s+([A-Z]\w*)\s",
        "java" => r"^public\s+(?:final\s+|abstract\s+)*(?:class|interface|enum|record)\s+([A-Za-z_]\w*)",
        _ => return None,
    };
    Some(Regex::new(pattern).expect("a valid pattern"))
}

/// The extensions of `language`'s files, declaration files (`.d.ts`, `.pyi`) among them.
fn extensions(language: &str) -> &'static [&'static str] {
    match language {
        "python" => &["py", "pyi"],
        "rust" => &["rs"],
        "typescript" | "javascript" => &["ts", "tsx", "mts", "cts", "js", "mjs", "cjs"],
        "go" => &["go"],
        "java" => &["java"],
        _ => &[],
    }
}

/// A declaration of what another file defines: it defines the name as much for a reader, but the
/// name is asked for only if one source file defines it.
fn is_declaration(rel: &str) -> bool {
    rel.ends_with(".d.ts") || rel.ends_with(".d.mts") || rel.ends_with(".d.cts") || rel.ends_with(".pyi")
}

/// Every file of `root`'s tree with one of `extensions`, as (root-relative path, text).
fn texts(root: &Path, extensions: &[&str]) -> Vec<(String, String)> {
    let keep = |name: &str| name.rsplit_once('.').is_some_and(|(_, ext)| extensions.contains(&ext));
    tree_files(root, &keep)
        .into_iter()
        .filter_map(|path| {
            let rel = path.strip_prefix(root).ok()?.to_string_lossy().replace('\\', "/");
            Some((rel, std::fs::read_to_string(&path).ok()?))
        })
        .collect()
}

/// A name to ask for, with the files that define it (its one source file and any declarations).
struct Asked {
    name: String,
    defining: BTreeSet<String>,
}

/// The names to ask for: defined in one source file (declaration files aside), mentioned as a
/// whole word in [`MIN_MENTIONS`] files that do not define it, at least four characters long;
/// `per_corpus` of them spread over the sorted list.
fn candidates(corpus: &Corpus, language: &str, pattern: &Regex, per_corpus: usize) -> Vec<Asked> {
    let texts = texts(&corpus.root, extensions(language));
    let mut defined: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (rel, text) in &texts {
        for line in text.lines() {
            if let Some(name) = pattern.captures(line).and_then(|c| c.get(1)) {
                defined.entry(name.as_str().to_owned()).or_default().insert(rel.clone());
            }
        }
    }
    let mentions = |name: &str, defining: &BTreeSet<String>| {
        let word = Regex::new(&format!(r"\b{}\b", regex::escape(name))).expect("an escaped name");
        texts.iter().filter(|(rel, text)| !defining.contains(rel) && word.is_match(text)).count()
    };
    let asked: Vec<Asked> = defined
        .into_iter()
        .filter(|(name, files)| name.len() >= 4 && files.iter().filter(|f| !is_declaration(f)).count() == 1)
        .filter(|(name, files)| mentions(name, files) >= MIN_MENTIONS)
        .map(|(name, defining)| Asked { name, defining })
        .collect();
    let step = asked.len().div_ceil(per_corpus.max(1)).max(1);
    asked.into_iter().step_by(step).collect()
}

/// One table row per corpus: names asked, the defining file first / in the first three, the mean
/// reciprocal rank, and the names whose file ranked below third.
pub fn run(corpora: &[Corpus], per_corpus: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| corpus | names | defining file 1st | in top 3 | MRR | ranked below 3rd (rank, `-`: not in {SHOWN}) |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---|");
    let (mut all, mut all_first, mut all_top3, mut all_rr) = (0usize, 0usize, 0usize, 0f64);
    for corpus in corpora {
        let language = corpus.name.split(' ').next().unwrap_or_default();
        let Some(pattern) = definition_pattern(language) else {
            let _ = writeln!(out, "| {} | no definition pattern for {language} | | | | |", corpus.name);
            continue;
        };
        let names = candidates(corpus, language, &pattern, per_corpus);
        let home = tempfile::tempdir().expect("temporary home");
        let engine = Engine::new(Dirs::under(home.path()));
        let root = corpus.root.canonicalize().expect("corpus directory");
        let root_text = root.display().to_string();
        let caller = Caller { cwd: &root_text, project_root: Some(&root_text), ..Caller::default() };
        // The index weighs definitions; a scan would not, so wait for it.
        while let Ok((status, _)) = engine.build_index(&caller, "", &Cancel::default()) {
            if !matches!(status.phase, lean_ctx_search::IndexPhase::Building { .. }) {
                break;
            }
        }
        let (mut first, mut top3, mut rr, mut below) = (0, 0, 0f64, Vec::new());
        for Asked { name, defining } in &names {
            let params = SearchParams {
                pattern: name.clone(),
                action: "bm25".into(),
                max_results: Some(SHOWN),
                ..SearchParams::default()
            };
            let found = engine.search(&caller, &params, &Cancel::default()).expect("a search");
            let mut ranked: Vec<&str> = Vec::new();
            for m in &found.matches {
                if !ranked.contains(&m.path.as_str()) {
                    ranked.push(&m.path);
                }
            }
            let rank = ranked.iter().position(|p| defining.contains(*p)).map(|i| i as u32 + 1);
            first += usize::from(rank == Some(1));
            top3 += usize::from(rank.is_some_and(|r| r <= 3));
            rr += rank.map_or(0.0, |r| 1.0 / f64::from(r));
            if rank.is_none_or(|r| r > 3) {
                below.push(format!("{name} ({})", rank.map_or("-".into(), |r| r.to_string())));
            }
        }
        let n = names.len();
        let _ = writeln!(
            out,
            "| {} | {n} | {first} | {top3} | {:.2} | {} |",
            corpus.name,
            rr / n.max(1) as f64,
            below.join(", ")
        );
        (all, all_first, all_top3, all_rr) = (all + n, all_first + first, all_top3 + top3, all_rr + rr);
    }
    let _ = writeln!(out, "| **all** | {all} | {all_first} | {all_top3} | {:.2} | |", all_rr / all.max(1) as f64);
    out
}
