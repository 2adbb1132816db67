//! ctx_impact: what a change to a file, a symbol or a git diff reaches — dependents (files
//! importing it), callers, and at the end the tests to run.

use std::fmt::Write as _;

use lean_ctx_common::plural::count;
use lean_ctx_proto::v1::{ImpactAction, ImpactRequest, ImpactResponse, RequestContext};
use serde_json::{Value, json};

use super::related::{
    choose_by_path, def_json, def_text, group_json, render_ambiguous, render_group, render_note, render_partial,
};
use super::{Answer, Result, Surface};
use crate::backend::Backend;

pub const ACTIONS: [(&str, ImpactAction); 2] = [("analyze", ImpactAction::Analyze), ("diff", ImpactAction::Diff)];

pub const ACTION_NAMES: [&str; 2] = super::names(&ACTIONS);

/// Deepest `depth` the daemon accepts.
pub const MAX_DEPTH: u32 = 5;

#[derive(Debug, Clone, Default)]
pub struct ImpactArgs {
    /// A name of [`ACTIONS`]; empty means analyze.
    pub action: String,
    /// analyze: a file or `file::symbol`.
    pub path: String,
    /// 1–5; `None` means 2.
    pub depth: Option<u32>,
    /// diff: a git ref or range; empty means the working tree against HEAD.
    pub base: String,
}

pub async fn impact(backend: &Backend, ctx: RequestContext, args: ImpactArgs, surface: Surface) -> Result<Answer> {
    let action = match args.action.trim() {
        "" => ImpactAction::Analyze,
        name => super::parse_name("action", name, &ACTIONS)?,
    };
    if action == ImpactAction::Analyze && args.path.trim().is_empty() {
        return Err(super::Error::Usage("analyze needs `path`: a file or `file::symbol`".into()));
    }
    let depth = args.depth.unwrap_or(2);
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(super::Error::Usage(format!("depth {depth} is out of range: use 1 to {MAX_DEPTH}")));
    }
    let base = args.base.trim().to_string();
    let request =
        ImpactRequest { ctx: Some(ctx), action: action as i32, path: args.path.clone(), depth, base: base.clone() };
    let out = backend.graph().impact(request).await?.into_inner();
    Ok(Answer::ok(render(&out, action, depth, &base, surface), to_json(&out, action, depth, &base)))
}

fn action_name(action: ImpactAction) -> &'static str {
    ACTIONS.iter().find(|(_, a)| *a == action).map_or("analyze", |(n, _)| n)
}

fn render(out: &ImpactResponse, action: ImpactAction, depth: u32, base: &str, surface: Surface) -> String {
    let mut text = String::new();
    render_partial(&mut text, out.complete);
    if !out.ambiguous.is_empty() {
        render_ambiguous(&mut text, &out.ambiguous, choose_by_path(surface));
        render_note(&mut text, &out.note);
        return text;
    }
    match action {
        ImpactAction::Diff => {
            // A ref is compared with the working tree (as `git diff REF` does); a range is its own.
            let base = base.trim();
            let against = match base {
                "" => "the working tree against HEAD".to_string(),
                range if range.contains("..") => range.to_string(),
                commit => format!("the working tree against {commit}"),
            };
            let _ = writeln!(text, "changes in {against}, depth {depth}:");
            if out.changed.is_empty() {
                let _ = writeln!(text, "changed files: none");
            } else {
                let _ = writeln!(text, "changed files ({}):", out.changed.len());
                for c in &out.changed {
                    let hunks =
                        if c.hunks > 0 { format!(", {}", count(c.hunks.into(), "hunk")) } else { String::new() };
                    let _ = writeln!(text, "  {} ({}{hunks})", c.file, c.status);
                }
            }
            if out.changed_symbols.is_empty() {
                let _ = writeln!(text, "changed definitions: none the graph knows");
            } else {
                let _ = writeln!(text, "changed definitions ({}):", out.changed_symbols.len());
                for d in &out.changed_symbols {
                    let _ = writeln!(text, "  {} ({})", def_text(d), d.kind);
                }
            }
        }
        _ => {
            // A symbol whose definitions the answer lacks (the graph is still being built) is
            // still what the answer is about, not its file.
            let subject = match out.targets.as_slice() {
                [] if out.symbol.is_empty() => out.file.clone(),
                [] if out.file.is_empty() => out.symbol.clone(),
                [] => format!("{}::{}", out.file, out.symbol),
                [one] => def_text(one),
                [first, rest @ ..] => format!("{} and {} more", def_text(first), rest.len()),
            };
            let _ = writeln!(text, "impact of {subject}, depth {depth}:");
        }
    }
    for group in &out.groups {
        render_group(&mut text, group, group.name != "tests to run");
    }
    render_note(&mut text, &out.note);
    text
}

fn to_json(out: &ImpactResponse, action: ImpactAction, depth: u32, base: &str) -> Value {
    let changed: Vec<Value> =
        out.changed.iter().map(|c| json!({"file": c.file, "status": c.status, "hunks": c.hunks})).collect();
    json!({
        "action": action_name(action), "root": out.root, "file": out.file, "symbol": out.symbol, "depth": depth,
        "base": base,
        "targets": out.targets.iter().map(def_json).collect::<Vec<_>>(),
        "ambiguous": out.ambiguous.iter().map(def_json).collect::<Vec<_>>(),
        "changed": changed,
        "changed_symbols": out.changed_symbols.iter().map(def_json).collect::<Vec<_>>(),
        "groups": out.groups.iter().map(group_json).collect::<Vec<_>>(),
        "complete": out.complete, "note": out.note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use lean_ctx_proto::v1::{ChangedFile, CodeDefinition, RelatedFile, RelatedGroup};

    #[test]
    fn a_diff_names_changed_files_and_definitions_then_the_tests_to_run() {
        let out = ImpactResponse {
            changed: vec![ChangedFile { file: "shop/pricing.py".into(), status: "modified".into(), hunks: 1 }],
            changed_symbols: vec![CodeDefinition {
                file: "shop/pricing.py".into(),
                line: 1,
                name: "apply_discount".into(),
                kind: "fn".into(),
            }],
            groups: vec![
                RelatedGroup {
                    name: "callers".into(),
                    files: vec![RelatedFile {
                        file: "shop/service.py".into(),
                        depth: 1,
                        why: "calls apply_discount [exact]".into(),
                    }],
                    ..Default::default()
                },
                RelatedGroup {
                    name: "tests to run".into(),
                    files: vec![RelatedFile {
                        file: "tests/test_pricing.py".into(),
                        depth: 0,
                        why: "tests shop/pricing.py (name+import)".into(),
                    }],
                    ..Default::default()
                },
            ],
            complete: true,
            ..Default::default()
        };
        assert_eq!(
            render(&out, ImpactAction::Diff, 2, "", Surface::Cli),
            "changes in the working tree against HEAD, depth 2:\nchanged files (1):\n  shop/pricing.py (modified, 1 \
             hunk)\nchanged definitions (1):\n  apply_discount (shop/pricing.py:1) (fn)\ncallers (1):\n  \
             shop/service.py (depth 1, calls apply_discount [exact])\ntests to run (1):\n  tests/test_pricing.py \
             (tests shop/pricing.py (name+import))\n"
        );
        let heading =
            |base: &str| render(&out, ImpactAction::Diff, 2, base, Surface::Cli).lines().next().unwrap().to_string();
        assert_eq!(heading("HEAD~2"), "changes in the working tree against HEAD~2, depth 2:");
        assert_eq!(heading("main..HEAD"), "changes in main..HEAD, depth 2:");
        let json = to_json(&out, ImpactAction::Diff, 2, "");
        assert_eq!(json["groups"][1]["files"][0]["file"], "tests/test_pricing.py");
        assert_eq!(json["changed"][0]["hunks"], 1);
    }

    #[test]
    fn a_symbol_not_parsed_yet_is_what_the_answer_is_about_not_its_file() {
        let out = ImpactResponse {
            file: "main.py".into(),
            symbol: "nosuch".into(),
            complete: false,
            note: "the project's graph is still being built (3/9 files parsed)\nno definition of `nosuch` in main.py \
                   among the files parsed so far: ask again in a moment"
                .into(),
            ..Default::default()
        };
        let text = render(&out, ImpactAction::Analyze, 2, "", Surface::Cli);
        assert!(text.contains("\nimpact of main.py::nosuch, depth 2:\n"), "{text}");
        assert!(!text.contains("impact of main.py,"), "{text}");
        // The JSON names the same subject: the symbol, in its file.
        let json = to_json(&out, ImpactAction::Analyze, 2, "");
        assert_eq!(
            (&json["file"], &json["symbol"], &json["targets"]),
            (&json!("main.py"), &json!("nosuch"), &json!([]))
        );
    }
}
