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
        "git push --repo /tmp/x main".to_string(),
        "git push -o ci.skip --force /tmp/x main".to_string(),
        "git -C src push /tmp/x main".to_string(),
        "git push ./.. main".to_string(),
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
fn push_to_a_remote_whose_url_is_a_local_path_reads_every_tracked_file() {
    let (s, p, file) = tracked_secret();
    for (name, url) in
        [("backup", "/tmp/x"), ("rel", "../copy"), ("f", "file:///tmp/x"), ("hub", "https://example.com/r.git")]
    {
        git(&s.root, &["remote", "add", name, url]);
    }
    let top = s.root.display();
    let reads = |under: &str| {
        because(
            deny("Read(./secret/**)", &file),
            &format!("`git push` reads the files git tracks under {under}, secret/plan.txt among it"),
        )
    };
    // A review: each copied secret/plan.txt out unchecked, the remote's URL not followed.
    for command in [
        "git push backup main",
        "git push -q rel",
        "git push f HEAD",
        "git push --repo=backup",
        "git push --repo backup main",
        "git -C src push backup main",
    ] {
        assert_eq!(p.check_shell(command, &s.root), reads(&format!("its working directory {top}")), "{command}");
    }
    // A name no remote has is a path, where there is one.
    git(&s.root, &["init", "-q", "mirror"]);
    assert_eq!(p.check_shell("git push mirror main", &s.root), reads(&format!("its working directory {top}")));
    // A reader: a bare repository inside the work tree was taken for the repository itself.
    git(&s.root, &["init", "-q", "--bare", "copy.git"]);
    for command in
        ["git push ./copy.git HEAD:main", "git push --repo ./copy.git HEAD:main", "git -C src push ../copy.git"]
    {
        assert_eq!(p.check_shell(command, &s.root), reads(&format!("its working directory {top}")), "{command}");
    }
    for command in ["git push ./.git HEAD:main", "git -C src push .. HEAD:main"] {
        assert_eq!(p.check_shell(command, &s.root), Verdict::Allow, "{command}: the repository itself");
    }
    // Another host's, or no such remote (and no such path): git pushes nowhere local.
    for command in ["git push hub main", "git push origin main", "git push"] {
        assert_eq!(p.check_shell(command, &s.root), Verdict::Allow, "{command}");
    }
    // A push naming no remote goes to its default one.
    git(&s.root, &["config", "remote.pushDefault", "backup"]);
    assert_eq!(p.check_shell("git push", &s.root), reads(&format!("its working directory {top}")));
    git(&s.root, &["config", "remote.pushDefault", "hub"]);
    assert_eq!(p.check_shell("git push", &s.root), Verdict::Allow);
    // A remote the line adds (or may change) goes where it is known only when it runs.
    assert_eq!(
        p.check_shell("git remote add b2 /tmp/y && git push b2 main", &s.root),
        unknown_file(
            "Read(./secret/**)",
            &file,
            "`git push` reads the files git tracks, to copy them to the remote `b2`, whose URL may change after `git remote add b2 /tmp/y`"
        )
    );
}
