//! An agent started in a subdirectory edits the paths every answer prints
//! (relative to the project root), as it reads them.

mod common;

use common::Project;
use lean_ctxd::engine::Caller;
use lean_ctxd::engine::edit::EditParams;

fn edit_in(p: &Project, cwd: &str, params: EditParams) -> Result<String, String> {
    let cwd = p.root.join(cwd);
    let caller = Caller { cwd: cwd.to_str().unwrap(), session: "s", agent: "test", ..Caller::default() };
    p.engine.edit(&caller, &params).map(|o| o.path).map_err(|e| e.message)
}

#[test]
fn from_a_subdirectory_root_relative_paths_are_edited_and_created_where_they_are_shown() {
    let p = Project::new();
    std::fs::write(p.root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::create_dir_all(p.root.join("src/pkg")).unwrap();
    p.write("src/pkg/a.py", "x = 1\n");
    let replace = EditParams {
        path: "src/pkg/a.py".into(),
        old_string: "x = 1".into(),
        new_string: "x = 2".into(),
        ..EditParams::default()
    };
    assert_eq!(edit_in(&p, "src/pkg", replace.clone()), Ok("src/pkg/a.py".into()));
    assert_eq!(p.text("src/pkg/a.py"), "x = 2\n");
    // A path relative to the cwd still edits the file there.
    let here = EditParams { path: "a.py".into(), old_string: "x = 2".into(), new_string: "x = 3".into(), ..replace };
    assert_eq!(edit_in(&p, "src/pkg", here), Ok("src/pkg/a.py".into()));
    assert_eq!(p.text("src/pkg/a.py"), "x = 3\n");

    let create =
        EditParams { path: "src/pkg/b.py".into(), new_string: "y = 1\n".into(), create: true, ..EditParams::default() };
    assert_eq!(edit_in(&p, "src/pkg", create), Ok("src/pkg/b.py".into()));
    assert_eq!(p.text("src/pkg/b.py"), "y = 1\n");
    assert!(!p.root.join("src/pkg/src").exists(), "no duplicate tree below the cwd");

    // A path that is nowhere is refused naming both places tried; create=true is offered
    // only then.
    let missing = EditParams {
        path: "src/pkg/c.py".into(),
        old_string: "a".into(),
        new_string: "b".into(),
        ..EditParams::default()
    };
    let e = edit_in(&p, "src/pkg", missing).unwrap_err();
    assert!(e.starts_with("no such file: src/pkg/c.py (resolved against "), "{e}");
    assert!(e.contains("and the project root") && e.ends_with("pass create=true to create it"), "{e}");
    let nowhere =
        EditParams { path: "nowhere/c.py".into(), new_string: "z".into(), create: true, ..EditParams::default() };
    let e = edit_in(&p, "src/pkg", nowhere).unwrap_err();
    assert!(e.contains("src/pkg/nowhere does not exist, nor does ") && e.contains("(from the project root)"), "{e}");
}
