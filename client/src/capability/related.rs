//! ctx_graph: a file's imports, importers, tests and co-changed files; its import neighbours; an
//! import path between two files; a definition with its uses by file. Each group of files is
//! labelled and counted, and says what it leaves out.

use std::collections::HashMap;
use std::fmt::Write as _;

use lean_ctx_common::limits::{MAX_NEIGHBOR_DEPTH, MAX_PATH_LENGTH};
use lean_ctx_common::plural::count;
use lean_ctx_proto::v1::{
    CodeDefinition, RelatedAction, RelatedGroup, RelatedRequest, RelatedResponse, RequestContext, SymbolUse,
};
use serde_json::{Value, json};

use super::{Answer, Result, Surface};
use crate::backend::Backend;

pub const ACTIONS: [(&str, RelatedAction); 4] = [
    ("related", RelatedAction::Related),
    ("neighbors", RelatedAction::Neighbors),
    ("path", RelatedAction::Path),
    ("symbol", RelatedAction::Symbol),
];

pub const ACTION_NAMES: [&str; 4] = super::names(&ACTIONS);

#[derive(Debug, Clone, Default)]
pub struct GraphArgs {
    /// A name of [`ACTIONS`]; empty means related.
    pub action: String,
    /// A file; for `symbol`, `file::symbol` or a symbol name.
    pub path: String,
    /// `path`: the file the import path ends at.
    pub to: String,
    /// neighbors: 1–3; path: the longest path tried. `None`: the daemon's default.
    pub depth: Option<u32>,
}

pub async fn graph(backend: &Backend, ctx: RequestContext, args: GraphArgs, surface: Surface) -> Result<Answer> {
    let action = match args.action.trim() {
        "" => RelatedAction::Related,
        name => super::parse_name("action", name, &ACTIONS)?,
    };
    if args.path.trim().is_empty() {
        let what = match action {
            RelatedAction::Symbol => "`file::symbol` or a symbol name",
            _ => "a file of the project",
        };
        return Err(super::Error::Usage(format!("{} needs `path`: {what}", action_name(action))));
    }
    let most = match action {
        RelatedAction::Neighbors => Some(MAX_NEIGHBOR_DEPTH),
        RelatedAction::Path => Some(MAX_PATH_LENGTH),
        _ => None,
    };
    if let Some(most) = most
        && let Some(depth) = args.depth.filter(|d| !(1..=most).contains(d))
    {
        return Err(super::Error::Usage(format!(
            "depth {depth} is out of range for {}: use 1 to {most}",
            action_name(action)
        )));
    }
    let request = RelatedRequest {
        ctx: Some(ctx),
        action: action as i32,
        path: args.path,
        to: args.to,
        depth: args.depth.unwrap_or(0),
    };
    let out = backend.graph().related(request).await?.into_inner();
    Ok(Answer::ok(render(&out, action, surface), to_json(&out, action)))
}

fn action_name(action: RelatedAction) -> &'static str {
    ACTIONS.iter().find(|(_, a)| *a == action).map_or("related", |(n, _)| n)
}

/// `Store::new (src/store.rs:15)`.
pub(crate) fn def_text(d: &CodeDefinition) -> String {
    format!("{} ({}:{})", d.name, d.file, d.line)
}

/// `importers (2):` then one file per line with why it is there, then what the group left out.
pub(crate) fn render_group(text: &mut String, group: &RelatedGroup, show_depth: bool) {
    let total = group.files.len() + group.omitted as usize;
    if total == 0 && group.withheld == 0 {
        let _ = writeln!(text, "{}: none", group.name);
        return;
    }
    let _ = writeln!(text, "{} ({total}):", group.name);
    for file in &group.files {
        let mut why = Vec::new();
        if show_depth && file.depth > 0 {
            why.push(format!("depth {}", file.depth));
        }
        if !file.why.is_empty() {
            why.push(file.why.clone());
        }
        if why.is_empty() {
            let _ = writeln!(text, "  {}", file.file);
        } else {
            let _ = writeln!(text, "  {} ({})", file.file, why.join(", "));
        }
    }
    if group.omitted > 0 {
        let _ = writeln!(text, "  [{} more]", group.omitted);
    }
    if group.withheld > 0 {
        let _ = writeln!(text, "  [{} withheld by Read rules]", group.withheld);
    }
}

/// The first line of an answer over a graph still being built: an empty list there means "not
/// parsed yet", not "none", which a reader must know before the list, not after it. That the
/// graph is being built, and how far, the daemon's note says (every such answer has it).
pub(crate) fn render_partial(text: &mut String, complete: bool) {
    if !complete {
        text.push_str("[partial: this answer covers only the files parsed so far, ask again in a moment]\n");
    }
}

pub(crate) fn render_note(text: &mut String, note: &str) {
    if !note.is_empty() {
        let _ = writeln!(text, "note: {}", note.replace('\n', "\nnote: "));
    }
}

/// Definitions of an ambiguous name listed at most: a name defined thousands of times (`run`,
/// `helper_0` in generated code) would otherwise fill the answer with its list.
const AMBIGUOUS_LISTED: usize = 30;

/// The definitions to choose from (the first [`AMBIGUOUS_LISTED`], then how many more), and how
/// to choose (`choose`: the surface's own parameters) each one: by its file where no other listed
/// is in it, by its name with its type (`Store::load`) where no other listed has that name, by
/// the two together where neither alone does. Definitions that all have one name
/// (`VersionReq::matches` in src/lib.rs and in tests/node/mod.rs) are told apart by their files
/// only: naming the type again would choose nothing; two in one file (`A::load`, `B::load`) by
/// their names only: the file would choose neither. One no parameter chooses (a bare `load` in
/// the file of `Store::load`, which the name `load` names too) is said to be so.
pub(crate) fn render_ambiguous(text: &mut String, ambiguous: &[CodeDefinition], choose: Choose) {
    let mut in_file: HashMap<&str, usize> = HashMap::new();
    let mut named: HashMap<&str, usize> = HashMap::new();
    let mut in_file_named: HashMap<(&str, &str), usize> = HashMap::new();
    for d in ambiguous {
        *in_file.entry(&d.file).or_default() += 1;
        *named.entry(&d.name).or_default() += 1;
        *in_file_named.entry((&d.file, &d.name)).or_default() += 1;
    }
    // A bare name names every definition listed: only a name with its type chooses.
    let qualified = |d: &CodeDefinition| d.name.contains("::");
    let by_file = |d: &CodeDefinition| in_file[d.file.as_str()] == 1;
    let by_name = |d: &CodeDefinition| qualified(d) && named[d.name.as_str()] == 1;
    let by_both = |d: &CodeDefinition| qualified(d) && in_file_named[&(d.file.as_str(), d.name.as_str())] == 1;
    let mut ways = Vec::new();
    if ambiguous.iter().any(by_file) {
        ways.push(choose.by_file);
    }
    if ambiguous.iter().any(by_name) {
        ways.push(choose.by_name);
    }
    if ambiguous.iter().any(|d| !by_file(d) && !by_name(d) && by_both(d)) {
        ways.push(choose.both);
    }
    let how = match ways.split_last() {
        None => "no parameter chooses one: each shares its file and its name with another".to_string(),
        Some((last, [])) => format!("choose one with {last}"),
        Some((last, rest)) => format!("choose one with {} or {last}", rest.join(", ")),
    };
    let _ = writeln!(text, "the symbol names {} definitions; {how}:", ambiguous.len());
    for d in ambiguous.iter().take(AMBIGUOUS_LISTED) {
        let _ = writeln!(text, "  {}:{} {} ({})", d.file, d.line, d.name, d.kind);
    }
    if ambiguous.len() > AMBIGUOUS_LISTED {
        let _ = writeln!(text, "  … {} more", ambiguous.len() - AMBIGUOUS_LISTED);
    }
    let unchosen: Vec<String> = ambiguous
        .iter()
        .filter(|d| !by_file(d) && !by_name(d) && !by_both(d))
        .map(|d| format!("{}:{} {}", d.file, d.line, d.name))
        .collect();
    if !unchosen.is_empty() && !ways.is_empty() {
        let _ = writeln!(
            text,
            "  (no parameter chooses {}: its file holds another definition its name names)",
            unchosen.join(", ")
        );
    }
}

/// How an answer about a name defined more than once says to choose one of its definitions: by
/// file, by name with its type, or both together.
#[derive(Clone, Copy)]
pub(crate) struct Choose {
    pub by_file: &'static str,
    pub by_name: &'static str,
    pub both: &'static str,
}

/// How a related-files or impact answer chooses among a name's definitions.
pub(crate) fn choose_by_path(surface: Surface) -> Choose {
    match surface {
        Surface::Cli => Choose { by_file: "PATH::SYMBOL", by_name: "Type::name", both: "PATH::Type::name" },
        Surface::Mcp => Choose { by_file: "path=FILE::SYMBOL", by_name: "Type::name", both: "path=FILE::Type::name" },
    }
}

pub(crate) fn resolution_name(resolution: lean_ctx_proto::v1::Resolution) -> &'static str {
    match resolution {
        lean_ctx_proto::v1::Resolution::Exact => "exact",
        lean_ctx_proto::v1::Resolution::Likely => "likely",
        lean_ctx_proto::v1::Resolution::Ambiguous => "ambiguous",
        lean_ctx_proto::v1::Resolution::Precise => "precise",
        lean_ctx_proto::v1::Resolution::Unspecified => "unresolved",
    }
}

fn use_text(u: &SymbolUse) -> String {
    let place = u.caller.as_ref().map_or("<top level>".to_string(), |c| c.name.clone());
    let label = match u.candidates.as_slice() {
        [] => resolution_name(u.resolution()).to_string(),
        candidates => {
            let listed: Vec<String> = candidates.iter().map(def_text).collect();
            format!("ambiguous: one of {}", listed.join(", "))
        }
    };
    format!("{} {} in {place} [{label}]", u.line, u.kind)
}

fn render(out: &RelatedResponse, action: RelatedAction, surface: Surface) -> String {
    let mut text = String::new();
    render_partial(&mut text, out.complete);
    match action {
        RelatedAction::Symbol => render_symbol(&mut text, out, surface),
        RelatedAction::Path => {
            let to = out.path.last().map_or("", |s| s.to.as_str());
            if !out.path.is_empty() {
                let _ = writeln!(text, "import path {} -> {to} ({}):", out.file, count(out.path.len() as u64, "step"));
                for step in &out.path {
                    let how = if step.imports { "imports" } else { "is imported by" };
                    let _ = writeln!(text, "  {} {how} {}", step.from, step.to);
                }
            }
        }
        RelatedAction::Neighbors => {
            let _ = writeln!(text, "{}", out.file);
            for group in &out.groups {
                render_group(&mut text, group, true);
            }
        }
        _ => {
            let _ = writeln!(text, "{}", out.file);
            for group in &out.groups {
                render_group(&mut text, group, false);
            }
        }
    }
    render_note(&mut text, &out.note);
    if text.is_empty() {
        text.push_str("no answer yet\n");
    }
    text
}

fn render_symbol(text: &mut String, out: &RelatedResponse, surface: Surface) {
    if !out.ambiguous.is_empty() {
        render_ambiguous(text, &out.ambiguous, choose_by_path(surface));
        return;
    }
    let Some(first) = out.targets.first() else { return };
    for target in &out.targets {
        let _ = writeln!(text, "{} ({})", def_text(target), target.kind);
    }
    let mut files: Vec<&str> = out.uses.iter().map(|u| u.file.as_str()).collect();
    files.dedup();
    let total = out.uses.len() + out.uses_omitted as usize;
    let _ = writeln!(text, "uses of {} ({total}) in {}:", first.name, count(files.len() as u64, "file"));
    for file in files {
        let _ = writeln!(text, " {file}:");
        for u in out.uses.iter().filter(|u| u.file == file) {
            let _ = writeln!(text, "  {}", use_text(u));
        }
    }
    if out.uses_omitted > 0 {
        let _ = writeln!(text, " [{} more]", out.uses_omitted);
    }
    if out.uses_withheld > 0 {
        let _ = writeln!(text, " [{} withheld by Read rules]", out.uses_withheld);
    }
    // The graph reads calls and type uses: cobra's `Args: NoArgs` and `getCommand(NoArgs, false)`
    // were "uses of NoArgs (0)", which reads as dead code (a QA pass).
    if matches!(first.kind.as_str(), "fn" | "method") {
        text.push_str(" [calls only: where the function is passed as a value, not called, is not counted]\n");
    }
    let mut defined: Vec<&str> = out.targets.iter().chain(&out.namesakes).map(|d| d.file.as_str()).collect();
    defined.sort_unstable();
    defined.dedup();
    let _ = writeln!(
        text,
        "`{}` is defined in: {}",
        first.name.rsplit("::").next().unwrap_or(&first.name),
        defined.join(", ")
    );
}

pub(crate) fn def_json(d: &CodeDefinition) -> Value {
    json!({"file": d.file, "line": d.line, "name": d.name, "kind": d.kind})
}

/// A definition that may be absent — a call at a module's top level has no
/// caller — as docs/json.md has a missing value: the same object with its
/// members empty, so a program reads `caller.name` without checking.
pub(crate) fn optional_def_json(d: Option<&CodeDefinition>) -> Value {
    d.map_or_else(|| def_json(&CodeDefinition::default()), def_json)
}

pub(crate) fn group_json(g: &RelatedGroup) -> Value {
    let files: Vec<Value> = g.files.iter().map(|f| json!({"file": f.file, "depth": f.depth, "why": f.why})).collect();
    json!({"name": g.name, "files": files, "omitted": g.omitted, "withheld": g.withheld})
}

fn to_json(out: &RelatedResponse, action: RelatedAction) -> Value {
    let uses: Vec<Value> = out
        .uses
        .iter()
        .map(|u| {
            json!({
                "file": u.file, "line": u.line, "kind": u.kind, "caller": optional_def_json(u.caller.as_ref()),
                "resolution": resolution_name(u.resolution()),
                "candidates": u.candidates.iter().map(def_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    let path: Vec<Value> = out.path.iter().map(|s| json!({"from": s.from, "to": s.to, "imports": s.imports})).collect();
    json!({
        "action": action_name(action), "root": out.root, "file": out.file,
        "groups": out.groups.iter().map(group_json).collect::<Vec<_>>(),
        "path": path,
        "targets": out.targets.iter().map(def_json).collect::<Vec<_>>(),
        "ambiguous": out.ambiguous.iter().map(def_json).collect::<Vec<_>>(),
        "uses": uses, "uses_omitted": out.uses_omitted, "uses_withheld": out.uses_withheld,
        "namesakes": out.namesakes.iter().map(def_json).collect::<Vec<_>>(),
        "complete": out.complete, "note": out.note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use lean_ctx_proto::v1::{ImportStep, RelatedFile, Resolution};

    fn file(name: &str, why: &str) -> RelatedFile {
        RelatedFile { file: name.into(), depth: 1, why: why.into() }
    }

    #[test]
    fn related_groups_are_labelled_counted_and_say_what_they_leave_out() {
        let out = RelatedResponse {
            file: "shop/pricing.py".into(),
            groups: vec![
                RelatedGroup { name: "imports".into(), ..Default::default() },
                RelatedGroup {
                    name: "importers".into(),
                    files: vec![file("shop/service.py", "")],
                    omitted: 2,
                    withheld: 1,
                },
                RelatedGroup {
                    name: "tests".into(),
                    files: vec![file("tests/test_pricing.py", "name+import")],
                    ..Default::default()
                },
            ],
            note: "co-change unavailable: the project is not a git repository".into(),
            complete: true,
            ..Default::default()
        };
        assert_eq!(
            render(&out, RelatedAction::Related, Surface::Cli),
            "shop/pricing.py\nimports: none\nimporters (3):\n  shop/service.py\n  [2 more]\n  [1 withheld by Read \
             rules]\ntests (1):\n  tests/test_pricing.py (name+import)\nnote: co-change unavailable: the project is \
             not a git repository\n"
        );
        assert_eq!(to_json(&out, RelatedAction::Related)["groups"][1]["omitted"], 2);
    }

    #[test]
    fn a_path_lists_each_step_with_its_direction() {
        let out = RelatedResponse {
            file: "app.py".into(),
            path: vec![
                ImportStep { from: "app.py".into(), to: "shop/service.py".into(), imports: true },
                ImportStep { from: "shop/service.py".into(), to: "tests/test_service.py".into(), imports: false },
            ],
            complete: true,
            ..Default::default()
        };
        assert_eq!(
            render(&out, RelatedAction::Path, Surface::Mcp),
            "import path app.py -> tests/test_service.py (2 steps):\n  app.py imports shop/service.py\n  \
             shop/service.py is imported by tests/test_service.py\n"
        );
    }

    #[test]
    fn symbol_uses_are_grouped_by_file_with_their_resolution() {
        let def = |file: &str, line, name: &str| CodeDefinition {
            file: file.into(),
            line,
            name: name.into(),
            kind: "class".into(),
        };
        let out = RelatedResponse {
            targets: vec![def("shop/models.py", 5, "Order")],
            uses: vec![SymbolUse {
                file: "app.py".into(),
                line: 9,
                kind: "call".into(),
                caller: Some(def("app.py", 5, "main")),
                resolution: Resolution::Exact as i32,
                candidates: vec![],
            }],
            namesakes: vec![def("legacy/models.py", 2, "Order")],
            complete: true,
            ..Default::default()
        };
        assert_eq!(
            render(&out, RelatedAction::Symbol, Surface::Cli),
            "Order (shop/models.py:5) (class)\nuses of Order (1) in 1 file:\n app.py:\n  9 call in main \
             [exact]\n`Order` is defined in: legacy/models.py, shop/models.py\n"
        );
    }

    /// A function's uses are its calls: where it is passed as a value is not among them, and the
    /// answer says so rather than read as dead code (cobra's `Args: NoArgs`).
    #[test]
    fn a_function_s_uses_say_they_are_calls_only() {
        let target = CodeDefinition { file: "args.go".into(), line: 31, name: "NoArgs".into(), kind: "fn".into() };
        let out = RelatedResponse { targets: vec![target], complete: true, ..Default::default() };
        assert_eq!(
            render(&out, RelatedAction::Symbol, Surface::Mcp),
            "NoArgs (args.go:31) (fn)\nuses of NoArgs (0) in 0 files:\n [calls only: where the function is passed as a \
             value, not called, is not counted]\n`NoArgs` is defined in: args.go\n"
        );
    }

    /// docs/json.md: a missing value is empty, never null.
    #[test]
    fn a_use_at_a_module_s_top_level_has_an_empty_caller() {
        let out = RelatedResponse {
            uses: vec![SymbolUse { file: "app.py".into(), line: 3, kind: "call".into(), ..Default::default() }],
            ..Default::default()
        };
        let json = to_json(&out, RelatedAction::Symbol);
        assert_eq!(json["uses"][0]["caller"], serde_json::json!({"file": "", "kind": "", "line": 0, "name": ""}));
    }
}
