//! Edits of one file by two engines, as a fallback engine beside the daemon makes them: the
//! in-process path locks are each engine's own, so only the OS lock between them keeps each
//! preimage check honest.

mod common;

use std::sync::Barrier;

use common::Project;
use lean_ctxd::engine::Engine;
use lean_ctxd::engine::edit::EditParams;
use lean_ctxd::engine::paths::Dirs;

/// QA: two lean-ctxd processes editing one file at once each had edits answered "1 replacement"
/// that the other's write then lost. Every edit reported applied is in the file.
#[test]
fn concurrent_edits_by_two_engines_each_land_or_are_refused() {
    let p = Project::new();
    p.write("shared.txt", "HEAD\nEND\n");
    let other = Engine::new(Dirs::under(&p.root.parent().unwrap().join("home2")));
    let start = Barrier::new(2);
    let run = |engine: &Engine, name: &str| {
        start.wait();
        let mut applied = Vec::new();
        for k in 0..40 {
            let line = format!("{name}-{k}");
            let params = EditParams {
                path: "shared.txt".into(),
                old_string: "END\n".into(),
                new_string: format!("{line}\nEND\n"),
                ..EditParams::default()
            };
            if engine.edit(&p.caller(name), &params).is_ok() {
                applied.push(line);
            }
        }
        applied
    };
    let (first, second) = std::thread::scope(|scope| {
        let a = scope.spawn(|| run(&p.engine, "a"));
        let b = scope.spawn(|| run(&other, "b"));
        (a.join().unwrap(), b.join().unwrap())
    });
    let text = p.text("shared.txt");
    let lost: Vec<&String> = first.iter().chain(&second).filter(|line| !text.lines().any(|l| l == *line)).collect();
    assert!(lost.is_empty(), "reported applied, not in the file: {lost:?}\n{text}");
    assert_eq!(text.lines().count(), 2 + first.len() + second.len(), "{text}");
}
