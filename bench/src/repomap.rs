//! How well the repo map orients: for a project and a list of its central types chosen by hand
//! (before looking at the map), the map's tokens at a few budgets and the share of the listed
//! names among the definitions it shows. Counts only: they do not depend on the build.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use lean_ctxd::engine::cancel::Cancel;
use lean_ctxd::engine::graph::repomap::RepomapParams;
use lean_ctxd::engine::paths::Dirs;
use lean_ctxd::engine::surface::Surface;
use lean_ctxd::engine::{Caller, Engine};

/// `a,b,c` → the names.
pub fn parse_names(list: &str) -> Vec<String> {
    list.split(',').map(str::trim).filter(|n| !n.is_empty()).map(String::from).collect()
}

/// One table of `project`'s map at each of `budgets`.
pub fn run(project: &Path, names: &[String], budgets: &[u32]) -> String {
    let home = tempfile::tempdir().expect("temporary home");
    let engine = Engine::new(Dirs::under(home.path()));
    let root = project.canonicalize().expect("project directory");
    let root_text = root.display().to_string();
    let caller = Caller { cwd: &root_text, project_root: Some(&root_text), ..Caller::default() };
    let mut out = String::new();
    let _ = writeln!(out, "#### {} — listed: {}\n", project.display(), names.join(", "));
    let _ = writeln!(out, "| max_tokens | tokens | definitions shown | files shown | listed names shown | missing |");
    let _ = writeln!(out, "|---:|---:|---:|---:|---:|---|");
    let mut totals = None;
    for &budget in budgets {
        let params = RepomapParams {
            max_tokens: Some(budget),
            path: String::new(),
            surface: Surface::Cli,
            cancel: Cancel::default(),
        };
        let answer = engine.repomap(&caller, &params).expect("a map");
        let shown: BTreeSet<&str> = answer
            .files
            .iter()
            .flat_map(|f| &f.defs)
            .map(|d| d.def.name.rsplit("::").next().unwrap_or(&d.def.name))
            .collect();
        let missing: Vec<&str> = names.iter().map(String::as_str).filter(|n| !shown.contains(n)).collect();
        let defs: usize = answer.files.iter().map(|f| f.defs.len()).sum();
        let _ = writeln!(
            out,
            "| {budget} | {} | {defs} of {} | {} | {}/{} | {} |",
            answer.tokens,
            answer.total_definitions,
            answer.files.len(),
            names.len() - missing.len(),
            names.len(),
            missing.join(", ")
        );
        totals = Some((answer.exact, answer.likely, answer.ambiguous));
    }
    if let Some((exact, likely, ambiguous)) = totals {
        let _ = writeln!(out, "\nReferences ranked: {exact} exact, {likely} likely, {ambiguous} ambiguous.\n");
    }
    out
}
