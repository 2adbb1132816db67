//! Graph questions the engine itself refuses (a gRPC caller need not go through lctx's checks):
//! a depth out of range, a directory for a file.

mod common;

use common::Project;
use lean_ctxd::engine::cancel::Cancel;
use lean_ctxd::engine::error::ErrorKind;
use lean_ctxd::engine::graph::related::{GraphAction, GraphParams};

#[test]
fn a_path_longer_than_the_graph_follows_is_refused_not_clamped() {
    let p = Project::new();
    p.write("a.py", "import b\n");
    p.write("b.py", "x = 1\n");
    let ask = |depth| GraphParams {
        action: GraphAction::Path,
        path: "a.py".into(),
        to: "b.py".into(),
        depth,
        cancel: Cancel::default(),
    };
    let e = p.engine.graph_query(&p.caller("s"), &ask(13)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    assert!(e.message.contains("depth 13 is out of range for path: use 1 to 12"), "{e}");
    let e =
        p.engine.graph_query(&p.caller("s"), &GraphParams { action: GraphAction::Neighbors, ..ask(4) }).unwrap_err();
    assert!(e.message.contains("out of range for neighbors"), "{e}");
    // Within the range the question is answered.
    assert!(p.engine.graph_query(&p.caller("s"), &ask(12)).is_ok());
}

/// A graph question about a directory names it as one, not as "not a source file".
#[test]
fn a_directory_is_refused_as_a_directory() {
    let p = Project::new();
    std::fs::create_dir(p.root.join("pkg")).unwrap();
    p.write("pkg/a.py", "import b\n");
    let ask = GraphParams {
        action: GraphAction::Related,
        path: "pkg".into(),
        to: String::new(),
        depth: 0,
        cancel: Cancel::default(),
    };
    let e = p.engine.graph_query(&p.caller("s"), &ask).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    assert!(e.message.starts_with("pkg is a directory: ctx_graph takes a source file"), "{e}");
}
