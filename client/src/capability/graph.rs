//! ctx_callgraph: callers, callees or a call path of a symbol, each call site as `file:line`
//! (`:column` too where another site shares the line)
//! with the calling function and how the call was resolved (`exact`, `likely`, `ambiguous`, or
//! `precise`: confirmed by a language server in precise mode).

use std::fmt::Write as _;

use lean_ctx_common::plural::count;
use lean_ctx_proto::v1::{
    CallEdge, CallgraphAction, CallgraphRequest, CallgraphResponse, CodeDefinition, RequestContext,
};
use serde_json::{Value, json};

use super::related::{Choose, def_json, optional_def_json, render_ambiguous, render_partial};
use super::{Answer, Result, Surface};
use crate::backend::Backend;

pub const ACTIONS: [(&str, CallgraphAction); 3] =
    [("callers", CallgraphAction::Callers), ("callees", CallgraphAction::Callees), ("trace", CallgraphAction::Trace)];

pub const ACTION_NAMES: [&str; 3] = super::names(&ACTIONS);

/// Deepest `depth` the daemon accepts.
pub const MAX_DEPTH: u32 = 5;

#[derive(Debug, Clone, Default)]
pub struct CallgraphArgs {
    /// A name of [`ACTIONS`]; empty means callers.
    pub action: String,
    pub symbol: String,
    pub file: String,
    /// 1–5; `None` means 1, for a trace [`MAX_DEPTH`] (the daemon's defaults).
    pub depth: Option<u32>,
    pub from: String,
    pub to: String,
    /// Ask the project's language server; the answer says whether it or the code graph answered.
    pub precise: bool,
}

pub async fn callgraph(
    backend: &Backend,
    ctx: RequestContext,
    args: CallgraphArgs,
    surface: Surface,
) -> Result<Answer> {
    let action = match args.action.trim() {
        "" => CallgraphAction::Callers,
        name => super::parse_name("action", name, &ACTIONS)?,
    };
    // A trace answers one shortest path, so it looks as far as it may unless told otherwise.
    let depth = args.depth.unwrap_or(if action == CallgraphAction::Trace { MAX_DEPTH } else { 1 });
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(super::Error::Usage(format!("depth {depth} is out of range: use 1 to {MAX_DEPTH}")));
    }
    let request = CallgraphRequest {
        ctx: Some(ctx),
        action: action as i32,
        symbol: args.symbol,
        file: args.file,
        depth,
        from: args.from,
        to: args.to,
        precise: args.precise,
    };
    let out = backend.graph().callgraph(request).await?.into_inner();
    let source = args.precise.then(|| source(&out));
    Ok(Answer::ok(render(&out, action, depth, source.as_deref(), surface), to_json(&out, action)))
}

/// `Store::new (src/store.rs:15)`.
fn def_text(d: &CodeDefinition) -> String {
    format!("{} ({}:{})", d.name, d.file, d.line)
}

fn label(edge: &CallEdge) -> &'static str {
    super::related::resolution_name(edge.resolution())
}

/// The resolution, with every candidate of an ambiguous call.
fn resolution_text(edge: &CallEdge) -> String {
    match edge.candidates.as_slice() {
        [] => format!("[{}]", label(edge)),
        candidates => {
            let listed: Vec<String> = candidates.iter().map(def_text).collect();
            format!("[{}: one of {}]", label(edge), listed.join(", "))
        }
    }
}

/// Which source answered a precise question: `precise (pyright-langserver)` or
/// `syntactic (why the server did not answer)`.
fn source(out: &CallgraphResponse) -> String {
    if out.precise { format!("precise ({})", out.language_server) } else { format!("syntactic ({})", out.fallback) }
}

/// `file:line`, and `:column` when another call is written on that line (the daemon says so of
/// calls the answer does not list; a site of the answer on the line is one too): two calls there
/// are told apart without widening every line.
fn place(edge: &CallEdge, edges: &[CallEdge]) -> String {
    let same_line = |e: &&CallEdge| e.file == edge.file && e.line == edge.line;
    match edge.column > 0 && (edge.shares_line || edges.iter().filter(same_line).count() > 1) {
        true => format!("{}:{}:{}", edge.file, edge.line, edge.column),
        false => format!("{}:{}", edge.file, edge.line),
    }
}

fn caller_name(edge: &CallEdge) -> &str {
    edge.caller.as_ref().map_or("<top level>", |c| c.name.as_str())
}

/// `source` is set when precise mode was asked: the heading says which source answered.
fn render(
    out: &CallgraphResponse,
    action: CallgraphAction,
    depth: u32,
    source: Option<&str>,
    surface: Surface,
) -> String {
    let mut text = String::new();
    render_partial(&mut text, out.complete);
    let source = source.map_or(String::new(), |s| format!(", {s}"));
    let choose = match surface {
        Surface::Cli => Choose { by_file: "--file PATH", by_name: "Type::name", both: "--file PATH with Type::name" },
        Surface::Mcp => {
            Choose { by_file: "file=PATH", by_name: "symbol=Type::name", both: "file=PATH with symbol=Type::name" }
        }
    };
    if !out.ambiguous.is_empty() {
        render_ambiguous(&mut text, &out.ambiguous, choose);
    } else if let Some(first) = out.targets.first() {
        let what = match out.targets.len() {
            1 => def_text(first),
            n => format!("{} and {} more", def_text(first), n - 1),
        };
        match action {
            // Without `to`'s definitions (the graph is still being built) the note says why.
            CallgraphAction::Trace => match out.to_targets.first().map(|first| match out.to_targets.len() {
                1 => def_text(first),
                n => format!("{} or {} more of its name", def_text(first), n - 1),
            }) {
                None => {}
                Some(to) if out.edges.is_empty() => {
                    let _ = writeln!(
                        text,
                        "no call path from {what} to {to} within {}{source}",
                        count(depth.into(), "call")
                    );
                    let further = match (depth < MAX_DEPTH, surface) {
                        (true, Surface::Cli) => format!("a longer one may exist: ask with -d {MAX_DEPTH}"),
                        (true, Surface::Mcp) => format!("a longer one may exist: ask with depth={MAX_DEPTH}"),
                        (false, _) => format!(
                            "{MAX_DEPTH} calls is the longest path a trace looks for, and it follows only calls the \
                             graph resolves (not a library's or a callback's): the callees of the first show where \
                             its calls go"
                        ),
                    };
                    let _ = writeln!(text, "{further}");
                }
                Some(to) => {
                    let _ = writeln!(text, "call path {what} -> {to}{source}:");
                    for edge in &out.edges {
                        let callee = edge.callee.as_ref().map_or("", |c| c.name.as_str());
                        let _ = writeln!(
                            text,
                            "  {}. {} {} -> {callee} {}",
                            edge.depth,
                            place(edge, &out.edges),
                            caller_name(edge),
                            resolution_text(edge)
                        );
                    }
                }
            },
            CallgraphAction::Callees => {
                let _ = writeln!(text, "callees of {what}, depth {depth}{source}:");
                render_levels(&mut text, &out.edges, depth, |edge| {
                    let callee = edge.callee.as_ref().map_or(String::new(), def_text);
                    format!("{} {} -> {callee} {}", place(edge, &out.edges), caller_name(edge), resolution_text(edge))
                });
                let _ = write!(text, "{} in the project", count(out.edges.len() as u64, "call"));
                if out.external_calls > 0 {
                    let _ = write!(
                        text,
                        "; {} to names it does not define (libraries, built-ins)",
                        count(out.external_calls, "call")
                    );
                }
                text.push('\n');
            }
            _ => {
                let _ = writeln!(text, "callers of {what}, depth {depth}{source}:");
                render_levels(&mut text, &out.edges, depth, |edge| {
                    // One level deep the callee is the symbol asked about, unless the call is of a
                    // method in an override relation with it.
                    let asked = edge.callee.as_ref().is_some_and(|c| out.targets.contains(c));
                    let callee = match depth == 1 && asked {
                        true => String::new(),
                        false => format!(" -> {}", edge.callee.as_ref().map_or("", |c| c.name.as_str())),
                    };
                    format!("{} {}{callee} {}", place(edge, &out.edges), caller_name(edge), resolution_text(edge))
                });
                let _ = writeln!(text, "{}", count(out.edges.len() as u64, "call site"));
            }
        }
    }
    if out.truncated {
        let _ = writeln!(
            text,
            "[more call sites than shown; narrow with a lower depth, {} or {}]",
            choose.by_file, choose.by_name
        );
    }
    if !out.note.is_empty() {
        let _ = writeln!(text, "note: {}", out.note.replace('\n', "\nnote: "));
    }
    if text.is_empty() {
        text.push_str("no answer yet\n");
    }
    text
}

/// Edges under a heading per depth when there is more than one level.
fn render_levels(text: &mut String, edges: &[CallEdge], depth: u32, line: impl Fn(&CallEdge) -> String) {
    for level in 1..=depth {
        let at: Vec<&CallEdge> = edges.iter().filter(|e| e.depth == level).collect();
        if depth > 1 && !at.is_empty() {
            let _ = writeln!(text, " depth {level}:");
        }
        for edge in at {
            let _ = writeln!(text, "  {}", line(edge));
        }
    }
}

fn to_json(out: &CallgraphResponse, action: CallgraphAction) -> Value {
    let action = ACTIONS.iter().find(|(_, a)| *a == action).map_or("callers", |(n, _)| n);
    let edges: Vec<Value> = out
        .edges
        .iter()
        .map(|e| {
            json!({
                "depth": e.depth, "file": e.file, "line": e.line, "column": e.column,
                "caller": optional_def_json(e.caller.as_ref()), "callee": optional_def_json(e.callee.as_ref()),
                "resolution": label(e), "candidates": e.candidates.iter().map(def_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "action": action, "root": out.root,
        "targets": out.targets.iter().map(def_json).collect::<Vec<_>>(),
        "to_targets": out.to_targets.iter().map(def_json).collect::<Vec<_>>(),
        "ambiguous": out.ambiguous.iter().map(def_json).collect::<Vec<_>>(),
        "edges": edges, "truncated": out.truncated, "external_calls": out.external_calls,
        "complete": out.complete, "note": out.note,
        "precise": out.precise, "language_server": out.language_server, "fallback": out.fallback,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use lean_ctx_proto::v1::Resolution;

    fn def(file: &str, line: u32, name: &str) -> CodeDefinition {
        CodeDefinition { file: file.into(), line, name: name.into(), kind: "fn".into() }
    }

    #[test]
    fn callers_show_each_site_with_its_caller_and_resolution() {
        let out = CallgraphResponse {
            targets: vec![def("src/util.rs", 1, "log")],
            edges: vec![
                CallEdge {
                    depth: 1,
                    file: "src/lib.rs".into(),
                    line: 10,
                    column: 5,
                    shares_line: false,
                    caller: Some(def("src/lib.rs", 8, "open")),
                    callee: Some(def("src/util.rs", 1, "log")),
                    resolution: Resolution::Exact as i32,
                    candidates: vec![],
                },
                CallEdge {
                    depth: 1,
                    file: "src/main.rs".into(),
                    line: 3,
                    column: 1,
                    shares_line: false,
                    caller: None,
                    callee: Some(def("src/util.rs", 1, "log")),
                    resolution: Resolution::Ambiguous as i32,
                    candidates: vec![def("src/util.rs", 1, "log"), def("src/other.rs", 4, "log")],
                },
            ],
            complete: false,
            note: "the project's graph is still being built (3/9 files parsed)".into(),
            ..Default::default()
        };
        let text = render(&out, CallgraphAction::Callers, 1, None, Surface::Cli);
        // Said once, by the note, with how far the build is.
        assert_eq!(text.matches("still being built").count(), 1, "{text}");
        assert_eq!(
            text,
            "[partial: this answer covers only the files parsed so far, ask again in a moment]\ncallers of log \
             (src/util.rs:1), depth 1:\n  src/lib.rs:10 open [exact]\n  src/main.rs:3 <top level> \
             [ambiguous: one of log (src/util.rs:1), log (src/other.rs:4)]\n2 call sites\nnote: the project's graph \
             is still being built (3/9 files parsed)\n"
        );
        let json = to_json(&out, CallgraphAction::Callers);
        assert_eq!(json["edges"][1]["resolution"], "ambiguous");
        assert_eq!(json["complete"], false);
    }

    #[test]
    fn calls_on_one_line_are_sites_of_their_own_told_apart_by_column() {
        let site = |line, column| CallEdge {
            depth: 1,
            file: "app.py".into(),
            line,
            column,
            shares_line: false,
            caller: Some(def("app.py", 5, "run")),
            callee: Some(def("app.py", 1, "log")),
            resolution: Resolution::Exact as i32,
            candidates: vec![],
        };
        let out = CallgraphResponse {
            targets: vec![def("app.py", 1, "log")],
            edges: vec![site(6, 5), site(6, 13), site(7, 12)],
            complete: true,
            ..Default::default()
        };
        assert_eq!(
            render(&out, CallgraphAction::Callers, 1, None, Surface::Cli),
            "callers of log (app.py:1), depth 1:\n  app.py:6:5 run [exact]\n  app.py:6:13 run [exact]\n  app.py:7 run \
             [exact]\n3 call sites\n"
        );
        assert_eq!(to_json(&out, CallgraphAction::Callers)["edges"][1]["column"], 13);
        // A call of another method on the line, which the answer does not list: `a.run(); b.run()`
        // is one caller of `A::run`, and `app.py:6` alone did not say which call it is.
        let shared = CallEdge { shares_line: true, ..site(6, 13) };
        let out = CallgraphResponse { edges: vec![shared, site(7, 12)], ..out };
        assert_eq!(
            render(&out, CallgraphAction::Callers, 1, None, Surface::Mcp),
            "callers of log (app.py:1), depth 1:\n  app.py:6:13 run [exact]\n  app.py:7 run [exact]\n2 call sites\n"
        );
    }

    #[test]
    fn an_ambiguous_symbol_lists_its_definitions_and_how_to_choose() {
        let out = CallgraphResponse {
            ambiguous: vec![def("a.py", 1, "load"), def("b.py", 7, "Store::load")],
            complete: true,
            ..Default::default()
        };
        let text = render(&out, CallgraphAction::Callers, 1, None, Surface::Mcp);
        assert_eq!(
            text,
            "the symbol names 2 definitions; choose one with file=PATH or symbol=Type::name:\n  a.py:1 load (fn)\n  \
             b.py:7 Store::load (fn)\n"
        );
        // Definitions of one name are told apart by their files alone.
        let out = CallgraphResponse {
            ambiguous: vec![
                def("src/lib.rs", 523, "VersionReq::matches"),
                def("tests/node/mod.rs", 13, "VersionReq::matches"),
            ],
            complete: true,
            ..Default::default()
        };
        let text = render(&out, CallgraphAction::Trace, 1, None, Surface::Mcp);
        assert!(text.starts_with("the symbol names 2 definitions; choose one with file=PATH:\n"), "{text}");
        // A name defined thousands of times lists the first thirty and counts the rest.
        let many = CallgraphResponse {
            ambiguous: (1..=7151).map(|i| def(&format!("gen/m{i}.py"), 1, "helper_0")).collect(),
            complete: true,
            ..Default::default()
        };
        let text = render(&many, CallgraphAction::Callers, 1, None, Surface::Cli);
        assert_eq!(text.lines().count(), 1 + 30 + 1, "{text}");
        assert!(text.starts_with("the symbol names 7151 definitions") && text.ends_with("  … 7121 more\n"), "{text}");
    }

    /// Two definitions of a name in one file are told apart by their names with their types: the
    /// file chooses neither, and was all the answer offered when the names were alike elsewhere.
    #[test]
    fn definitions_in_one_file_are_chosen_by_their_qualified_names() {
        let ambiguous = |defs: Vec<CodeDefinition>| {
            let out = CallgraphResponse { ambiguous: defs, complete: true, ..Default::default() };
            render(&out, CallgraphAction::Callers, 1, None, Surface::Mcp)
        };
        let text = ambiguous(vec![def("m.py", 2, "Reader::load"), def("m.py", 9, "Writer::load")]);
        assert!(text.starts_with("the symbol names 2 definitions; choose one with symbol=Type::name:\n"), "{text}");
        // A name of two types in two files: one needs both.
        let text = ambiguous(vec![
            def("a.py", 2, "Reader::load"),
            def("a.py", 9, "Writer::load"),
            def("b.py", 1, "Reader::load"),
        ]);
        assert!(
            text.starts_with(
                "the symbol names 3 definitions; choose one with file=PATH, symbol=Type::name or file=PATH with \
                 symbol=Type::name:\n"
            ),
            "{text}"
        );
        // A bare name names the method in its file too: nothing chooses the function, and the
        // answer says so.
        let text = ambiguous(vec![def("m.py", 1, "load"), def("m.py", 5, "Store::load")]);
        assert_eq!(
            text,
            "the symbol names 2 definitions; choose one with symbol=Type::name:\n  m.py:1 load (fn)\n  m.py:5 \
             Store::load (fn)\n  (no parameter chooses m.py:1 load: its file holds another definition its name \
             names)\n"
        );
    }

    /// No path is said plainly, never under a heading that reads like a path found, with how to
    /// look further in the reader's own words.
    #[test]
    fn a_trace_without_a_path_says_so_and_how_to_look_further() {
        let out = CallgraphResponse {
            targets: vec![def("m.py", 691, "Schema::load")],
            to_targets: vec![def("m.py", 1104, "Schema::_invoke_field_validators")],
            complete: true,
            ..Default::default()
        };
        assert_eq!(
            render(&out, CallgraphAction::Trace, 1, None, Surface::Mcp),
            "no call path from Schema::load (m.py:691) to Schema::_invoke_field_validators (m.py:1104) within 1 \
             call\na longer one may exist: ask with depth=5\n"
        );
        let text = render(&out, CallgraphAction::Trace, 5, None, Surface::Cli);
        assert!(text.contains("within 5 calls\n5 calls is the longest path a trace looks for"), "{text}");
        assert!(!text.contains(" -> ") && !text.contains("call path Schema"), "no heading of a path: {text}");
    }

    #[test]
    fn a_precise_answer_names_its_server_and_a_fallback_its_reason() {
        let edge = CallEdge {
            depth: 1,
            file: "orders.py".into(),
            line: 5,
            column: 0,
            shares_line: false,
            caller: Some(def("orders.py", 4, "first")),
            callee: Some(def("pricing.py", 1, "target")),
            resolution: Resolution::Precise as i32,
            candidates: vec![],
        };
        let precise = CallgraphResponse {
            targets: vec![def("pricing.py", 1, "target")],
            edges: vec![edge],
            precise: true,
            language_server: "pyright-langserver".into(),
            complete: true,
            ..Default::default()
        };
        let source = source(&precise);
        assert_eq!(
            render(&precise, CallgraphAction::Callers, 1, Some(&source), Surface::Cli),
            "callers of target (pricing.py:1), depth 1, precise (pyright-langserver):\n  orders.py:5 first [precise]\n1 \
             call site\n"
        );
        assert_eq!(to_json(&precise, CallgraphAction::Callers)["edges"][0]["resolution"], "precise");
        let fallback = CallgraphResponse {
            targets: vec![def("pricing.py", 1, "target")],
            language_server: "gopls".into(),
            fallback: "gopls is not installed".into(),
            complete: true,
            ..Default::default()
        };
        let source = super::source(&fallback);
        let text = render(&fallback, CallgraphAction::Callees, 1, Some(&source), Surface::Mcp);
        assert_eq!(
            text.lines().next(),
            Some("callees of target (pricing.py:1), depth 1, syntactic (gopls is not installed):")
        );
    }
}
