//! Graph questions whose caller has left stop rather than run on for nobody: impact, a symbol's
//! uses and a trace look between steps whether the request was cancelled, as callers and the
//! repo map do.

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

#[test]
fn impact_of_a_symbol_stops_when_its_caller_leaves() {
    let p = project();
    let ask = |cancel| ImpactParams {
        action: ImpactAction::Analyze,
        path: "util.py::helper".into(),
        depth: 0,
        base: String::new(),
        cancel,
    };
    let answer = p.engine.impact(&p.caller("s"), &ask(Cancel::default())).unwrap();
    assert!(answer.groups.iter().any(|g| g.name == "callers" && !g.files.is_empty()), "{:?}", answer.groups);
    let e = p.engine.impact(&p.caller("s"), &ask(left())).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Cancelled, "{e}");
}

#[test]
fn a_symbols_uses_stop_when_their_caller_leaves() {
    let p = project();
    let ask = |cancel| GraphParams {
        action: GraphAction::Symbol,
        path: "util.py::helper".into(),
        to: String::new(),
        depth: 0,
        cancel,
    };
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
