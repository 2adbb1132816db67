//! A copy of a repository's content made by git is read from it: git reads
//! every tracked file making it.

use super::*;

/// `Read(./secret/**)` denied, secret/plan.txt tracked, as in the QA project (guard2).
fn tracked_secret() -> (Setup, Permissions, PathBuf) {
    let s = Setup::new();
    s.project(&permissions(r#"{"deny": ["Read(./secret/**)"]}"#));
    for name in ["secret/plan.txt", "src/a.rs"] {
        s.file(name);
    }
    git(&s.root, &["init", "-q"]);
    git(&s.root, &["add", "secret", "src"]);
    let p = s.load();
    let file = s.project_file();
    (s, p, file)
}

#[test]
fn clone_worktree_bundle_and_fast_export_read_every_tracked_file() {
    let (s, p, file) = tracked_secret();
    let secret = deny("Read(./secret/**)", &file);
    let top = s.root.display();
    // QA (guard2 #14–#17): each copy held secret/plan.txt, read from there.
    for (command, program) in [
        ("git worktree add -q /tmp/wt HEAD && cat /tmp/wt/secret/plan.txt", "worktree"),
        ("git clone -q . /tmp/clone", "clone"),
        ("git clone --depth 1 -- . /tmp/clone", "clone"),
        (&format!("git clone file://{top} /tmp/clone") as &str, "clone"),
        (&format!("cd /tmp && git clone {top}/.git c") as &str, "clone"),
        ("git bundle create /tmp/g2.bundle HEAD && git clone -q /tmp/g2.bundle /tmp/b", "bundle"),
        ("git fast-export --all > /tmp/all.stream", "fast-export"),
        ("git init -q /tmp/r && git -C /tmp/r fetch -q $PWD/.. main", "fetch"),
    ] {
        let command = command.replace("$PWD/..", &top.to_string());
        let verdict = p.check_shell(&command, &s.root);
        let Verdict::Deny { rule, cause: Some(Cause::Part(said)), .. } = &verdict else {
            panic!("{command}: {verdict:?}")
        };
        assert_eq!(rule, "Read(./secret/**)", "{command}");
        let reads = format!("`git {program}` reads the files git tracks under ");
        assert!(said.starts_with(&reads) && said.ends_with("secret/plan.txt among it"), "{command}: {said}");
    }
    assert_eq!(
        p.check_shell("git clone -q . /tmp/clone", &s.root),
        because(
            secret,
            &format!(
                "`git clone` reads the files git tracks under its working directory {top}, secret/plan.txt among it"
            )
        )
    );
    // A repository a variable names is known only when it runs.
    assert_eq!(
        p.check_shell("git clone \"$d\" /tmp/c", &s.root),
        unknown_file("Read(./secret/**)", &file, "`git clone` reads the repository `$d` names")
    );
    // Another host's repository, one no rule covers, a remote's name, or no copy made.
    for command in [
        "git clone https://example.com/r.git /tmp/c",
        "git clone git@example.com:r.git /tmp/c",
        "git clone -q src /tmp/c",
        "git fetch origin",
        "git pull",
        // From the repository one is in: nothing is copied out (a review: these were denied).
        "git fetch . topic:main",
        "git pull . feature",
        "git worktree list",
        "git bundle verify /tmp/g2.bundle",
    ] {
        assert_eq!(p.check_shell(command, &s.root), Verdict::Allow, "{command}");
    }
    // A file git does not track is not copied.
    let (s, p) = ignored_env_repository();
    for command in ["git clone -q . /tmp/c", "git worktree add /tmp/wt", "git bundle create /tmp/b HEAD"] {
        assert_eq!(p.check_shell(command, &s.root), Verdict::Allow, "{command}");
    }
}

#[test]
fn push_to_a_local_path_reads_every_tracked_file() {
    let (s, p, file) = tracked_secret();
    let top = s.root.display();
    // A review: each copied secret/plan.txt out unchecked.
    for command in [
        "git push /tmp/x main".to_string(),
        "git push -q ../copy".to_string(),
        "git push file:///tmp/x HEAD".to_string(),
        "git push --repo=/tmp/x".to_string(),
        "git push --repo /tmp/x".to_string(),
        // A reader: git takes the operand over `--repo` (origin is another host's here).
        "git push --repo=origin /tmp/x main".to_string(),
        // A reader: the option's value was taken for where it pushes.
        "git push --recurse-submodules on-demand /tmp/x main".to_string(),
        "git push -o ci.skip --force /tmp/x main".to_string(),
        "git -C src push /tmp/x main".to_string(),
        "git push ./.. main".to_string(),
        // A reader: a relative destination is the top's, as git runs a push from there (this
        // pushed to the top's parent, taken for the repository itself).
        "git -C src push .. HEAD:main".to_string(),
        "cd src && git push ../.. HEAD:main".to_string(),
    ] {
        let verdict = p.check_shell(&command, &s.root);
        let Verdict::Deny { rule, cause: Some(Cause::Part(said)), .. } = &verdict else {
            panic!("{command}: {verdict:?}")
        };
        assert_eq!(rule, "Read(./secret/**)", "{command}");
        let reads = "`git push` reads the files git tracks under ";
        assert!(said.starts_with(reads) && said.ends_with("secret/plan.txt among it"), "{command}: {said}");
    }
    assert_eq!(
        p.check_shell("git push /tmp/x main", &s.root),
        because(
            deny("Read(./secret/**)", &file),
            &format!(
                "`git push` reads the files git tracks under its working directory {top}, secret/plan.txt among it"
            )
        )
    );
    // Where a variable names it, it may be another host: asked about.
    assert_eq!(
        p.check_shell("git push \"$d\" main", &s.root),
        unknown_file("Read(./secret/**)", &file, "`git push` reads the files git tracks, to copy them to `$d`")
    );
    // Another host's, a remote's name (its URL not followed), the repository itself, or an option's value.
    for command in [
        "git push",
        "git push origin main",
        "git push https://example.com/r.git main",
        "git push git@example.com:r.git main",
        "git push . HEAD:main",
        "git -C src push . HEAD:main",
        &format!("git push {top} HEAD:main") as &str,
        "git push -o /tmp/x origin main",
    ] {
        assert_eq!(p.check_shell(command, &s.root), Verdict::Allow, "{command}");
    }
    // A file git does not track is not copied.
    let (s, p) = ignored_env_repository();
    assert_eq!(p.check_shell("git push /tmp/x main", &s.root), Verdict::Allow);
}
#[test]
fn push_to_a_bare_repository_inside_the_work_tree_reads_every_tracked_file() {
    let (s, p, file) = tracked_secret();
    let top = s.root.display();
    git(&s.root, &["init", "-q", "--bare", "copy.git"]);
    let reads = because(
        deny("Read(./secret/**)", &file),
        &format!("`git push` reads the files git tracks under its working directory {top}, secret/plan.txt among it"),
    );
    // A reader: a bare repository inside the work tree was taken for the repository itself.
    for command in ["git push ./copy.git HEAD:main", "git push --repo ./copy.git"] {
        assert_eq!(p.check_shell(command, &s.root), reads, "{command}");
    }
    assert_eq!(p.check_shell("git push ./.git HEAD:main", &s.root), Verdict::Allow, "the repository itself");
}
