//! One session id in two projects: LEAN_CTX_SESSION set once for every shell reaches every
//! project the user works in, and may be two agents at once. A session is its id within a
//! project: the other project's records, and what it was sent, are not this one's.

mod common;

use common::{Project, code};
use lean_ctxd::engine::Caller;

/// A project inside `p`'s (its own repository), read by callers whose cwd is its root.
fn inner(p: &Project) -> String {
    std::fs::create_dir_all(p.root.join("inner/.git")).unwrap();
    p.root.join("inner").display().to_string()
}

/// Read from the outer project, the inner project's file was "[unchanged]" for the same id in
/// the inner project, which had never been sent it.
#[test]
fn a_file_read_in_one_project_is_sent_whole_to_the_same_id_in_another() {
    let p = Project::new();
    let inner_root = inner(&p);
    let text = code(0, 60);
    p.write("inner/lib.rs", &text);
    assert_eq!(p.read("s", "inner/lib.rs", "full", false).content, text);
    assert!(p.read("s", "inner/lib.rs", "full", false).stub, "the same session in the same project: a stub");

    let in_inner = Caller { cwd: &inner_root, session: "s", agent: "test", ..Caller::default() };
    let params =
        lean_ctxd::engine::read::ReadParams { paths: vec!["lib.rs".into()], mode: "full".into(), ..Default::default() };
    let view = p.engine.read(&in_inner, &params).unwrap().remove(0).unwrap();
    assert!(!view.stub, "{}", view.content);
    assert_eq!(view.content, text);
    let again = p.engine.read(&in_inner, &params).unwrap().remove(0).unwrap();
    assert!(again.stub, "sent in this project now, it is held here");
}

/// Status, task and notes of the id in a second project were refused ("session `s` belongs to
/// project A"), and its reads, edits and commands counted as lost session records. Each project
/// now has its own session under that id.
#[test]
fn status_handoff_and_notes_of_the_same_id_in_two_projects_are_each_their_own() {
    let p = Project::new();
    let inner_root = inner(&p);
    p.write("outer.rs", &code(0, 5));
    p.write("inner/lib.rs", &code(1, 5));
    let outer = p.caller("s");
    let in_inner = Caller { cwd: &inner_root, session: "s", agent: "test", ..Caller::default() };
    p.read("s", "outer.rs", "full", false);
    p.engine.session_action(&outer, "task", "outer task", "", 0).unwrap();
    p.engine.session_action(&outer, "finding", "outer finding", "", 0).unwrap();
    let params =
        lean_ctxd::engine::read::ReadParams { paths: vec!["lib.rs".into()], mode: "full".into(), ..Default::default() };
    p.engine.read(&in_inner, &params).unwrap();
    p.engine.session_action(&in_inner, "task", "inner task", "", 0).unwrap();
    let noted = p.engine.session_action(&in_inner, "finding", "inner finding", "", 0).unwrap().text;
    assert_eq!(noted, "finding #1 recorded in s", "the inner session's first finding");

    let status = |caller: &Caller<'_>| p.engine.session_action(caller, "status", "", "", 0).unwrap().text;
    assert_eq!(
        status(&outer),
        format!(
            "session s · {}\ntask: outer task\nfindings 1 · decisions 0 · next 0 · files read 1 · edits 0 · commands 0",
            p.project()
        )
    );
    assert_eq!(
        status(&in_inner),
        format!(
            "session s · {inner_root}\ntask: inner task\nfindings 1 · decisions 0 · next 0 · files read 1 · edits 0 · commands 0"
        )
    );
    let handoff = p.engine.session_action(&in_inner, "handoff", "", "", 0).unwrap().text;
    assert!(handoff.contains("inner finding") && !handoff.contains("outer"), "{handoff}");
    // Asked for from a project that has no session of that id, the one that has is named.
    p.engine.session_action(&outer, "finding", "only outer", "t", 0).unwrap();
    let Err(elsewhere) = p.engine.session_action(&in_inner, "status", "", "t", 0) else {
        panic!("the inner project has no session `t`")
    };
    let elsewhere = elsewhere.message;
    assert!(
        elsewhere.starts_with(&format!("no session `t` in {inner_root}; {} has one: ask from there", p.project())),
        "{elsewhere}"
    );
    let (_, report, lost) = p.engine.gain("all", "none", 0, 0).unwrap();
    assert!(lost.is_none(), "no session record was lost: {report}");
}

/// A background job of the id in one project was listed, shown and cancelled from another.
#[test]
fn a_job_started_in_one_project_is_not_the_same_id_s_in_another() {
    let p = Project::new();
    let inner_root = inner(&p);
    let outer = p.caller("s");
    let in_inner = Caller { cwd: &inner_root, session: "s", agent: "test", ..Caller::default() };
    let run = lean_ctxd::engine::shell::run::RunParams { command: "sleep 30".into(), ..Default::default() };
    let id = p.engine.start_job(&outer, &run).unwrap();
    let ids = |caller: &Caller<'_>, all: bool| -> Vec<(u64, bool)> {
        let views = p.engine.job_action(caller, "list", 0, all).unwrap();
        views.iter().map(|v| (v.info.id, v.yours)).collect()
    };
    assert_eq!(ids(&in_inner, false), []);
    assert_eq!(ids(&in_inner, true), [(id, false)], "every session's listing shows it, not as this one's");
    let Err(refused) = p.engine.job_action(&in_inner, "cancel", id, false) else { panic!("cancelled from elsewhere") };
    assert!(refused.message.contains("another project"), "{}", refused.message);
    assert_eq!(ids(&outer, false), [(id, true)]);
    let cancelled = p.engine.job_action(&outer, "cancel", id, false).unwrap();
    assert!(cancelled[0].info.cancel_requested);
}
