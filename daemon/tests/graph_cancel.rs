//! Graph questions whose caller has left stop rather than run on for nobody: impact, a symbol's
//! uses, a trace and the file graph a file's question works out look between steps whether the
//! request was cancelled, as callers and the repo map do.

mod common;

use common::Project;
use lean_ctxd::engine::cancel::Cancel;
use lean_ctxd::engine::error::ErrorKind;
use lean_ctxd::engine::graph::callgraph::{Action, CallgraphParams};
use lean_ctxd::engine::graph::impact::{ImpactAction, ImpactParams};
use lean_ctxd::engine::graph::related::{GraphAction, GraphParams};

fn project() -> Project {
    let p = Project::new();
    p.write("app.py", "from util import helper\n\n\ndef main():\n    return helper()\n");
    p.write("util.py", "def helper():\n    return 1\n");
    p
}

/// A switch already flipped: the client left before the answer was worked out.
fn left() -> Cancel {
    let cancel = Cancel::default();
    cancel.cancel();
    cancel
}

fn impact(path: &str, cancel: Cancel) -> ImpactParams {
    ImpactParams { action: ImpactAction::Analyze, path: path.into(), depth: 0, base: String::new(), cancel }
}

fn related(action: GraphAction, path: &str, cancel: Cancel) -> GraphParams {
    GraphParams { action, path: path.into(), to: String::new(), depth: 0, cancel }
}

#[test]
fn impact_of_a_symbol_stops_when_its_caller_leaves() {
    let p = project();
    let answer = p.engine.impact(&p.caller("s"), &impact("util.py::helper", Cancel::default())).unwrap();
    assert!(answer.groups.iter().any(|g| g.name == "callers" && !g.files.is_empty()), "{:?}", answer.groups);
    let e = p.engine.impact(&p.caller("s"), &impact("util.py::helper", left())).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Cancelled, "{e}");
}

/// The first file question after a change works out the project's file graph, which a caller
/// that left stops too.
#[test]
fn the_file_graph_of_a_files_question_stops_when_its_caller_leaves() {
    let p = project();
    let e = p.engine.impact(&p.caller("s"), &impact("util.py", left())).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Cancelled, "{e}");
    let e = p.engine.graph_query(&p.caller("s"), &related(GraphAction::Related, "util.py", left())).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Cancelled, "{e}");
    // Nothing half made was kept: the next question is answered whole.
    let answer = p.engine.graph_query(&p.caller("s"), &related(GraphAction::Related, "util.py", Cancel::default()));
    let importers = answer.unwrap().groups.into_iter().find(|g| g.name == "importers").expect("importers");
    assert_eq!(importers.files.iter().map(|l| l.file.as_str()).collect::<Vec<_>>(), ["app.py"]);
}

#[test]
fn a_symbols_uses_stop_when_their_caller_leaves() {
    let p = project();
    let ask = |cancel| related(GraphAction::Symbol, "util.py::helper", cancel);
    assert_eq!(p.engine.graph_query(&p.caller("s"), &ask(Cancel::default())).unwrap().uses.len(), 1);
    let e = p.engine.graph_query(&p.caller("s"), &ask(left())).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Cancelled, "{e}");
}

#[test]
fn a_trace_stops_when_its_caller_leaves() {
    let p = project();
    let ask = |cancel| CallgraphParams {
        action: Action::Trace,
        symbol: String::new(),
        file: String::new(),
        depth: 0,
        from: "main".into(),
        to: "helper".into(),
        precise: false,
        cancel,
    };
    assert_eq!(p.engine.callgraph(&p.caller("s"), &ask(Cancel::default())).unwrap().edges.len(), 1);
    let e = p.engine.callgraph(&p.caller("s"), &ask(left())).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Cancelled, "{e}");
}
