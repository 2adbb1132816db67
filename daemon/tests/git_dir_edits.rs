//! Edits never write inside `.git` (hooks and config there run code at the
//! next git command) unless the configuration allows it.

mod common;

use common::Project;
use lean_ctxd::engine::edit::EditParams;
use lean_ctxd::engine::error::ErrorKind;

fn create(p: &Project, path: &str) -> Result<(), lean_ctxd::engine::error::EngineError> {
    let params = EditParams {
        path: path.into(),
        new_string: "#!/bin/sh\necho pwned\n".into(),
        create: true,
        ..Default::default()
    };
    p.engine.edit(&p.caller("s"), &params).map(drop)
}

#[test]
fn edits_inside_git_are_refused_saying_how_to_allow_them() {
    let p = Project::new();
    std::fs::create_dir_all(p.root.join(".git/hooks")).unwrap();
    p.write(".git/config", "[core]\n\tbare = false\n");
    let e = p.edit("s", ".git/config", "bare = false", "fsmonitor = /tmp/x").unwrap_err();
    assert_eq!(e.kind, ErrorKind::PermissionDenied);
    assert!(e.message.contains("git_dir_edits allow"), "{e}");
    assert_eq!(p.text(".git/config"), "[core]\n\tbare = false\n");
    let e = create(&p, ".git/hooks/pre-commit").unwrap_err();
    assert_eq!(e.kind, ErrorKind::PermissionDenied, "{e}");
    assert!(!p.root.join(".git/hooks/pre-commit").exists());
    // A symlink from the project into .git leads to the same refusal.
    std::os::unix::fs::symlink(p.root.join(".git"), p.root.join("meta")).unwrap();
    assert_eq!(create(&p, "meta/hooks/post-checkout").unwrap_err().kind, ErrorKind::PermissionDenied);
    // Files merely named like git's are ordinary files.
    p.write(".gitignore", "target/\n");
    p.edit("s", ".gitignore", "target/", "build/").unwrap();
}

#[test]
fn the_configuration_may_allow_edits_inside_git() {
    let p = Project::new();
    std::fs::create_dir_all(p.root.join(".git/hooks")).unwrap();
    let config = p.engine.dirs.config_file();
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "git_dir_edits = \"allow\"\n").unwrap();
    create(&p, ".git/hooks/pre-commit").unwrap();
    assert!(p.text(".git/hooks/pre-commit").contains("pwned"));
}
