//! Removing a file, or moving it away, is an edit of it.

use super::*;

/// `Edit(./config/**)` denied, as in the QA project (guard2).
fn config() -> (Setup, Permissions, PathBuf) {
    let s = Setup::new();
    s.project(&permissions(r#"{"deny": ["Read(./secret/**)", "Edit(./config/**)"]}"#));
    for name in ["config/a.ini", "config/sub/b.ini", "a.txt", "src/a.rs", "secret/plan.txt"] {
        s.file(name);
    }
    fs::create_dir_all(s.root.join("config/empty")).unwrap();
    let p = s.load();
    let file = s.project_file();
    (s, p, file)
}

#[test]
fn removing_or_moving_away_a_protected_file_is_an_edit_of_it() {
    let (s, p, file) = config();
    let rule = "Edit(./config/**)";
    let cwd = |dir: &str| format!("its working directory {}", s.root.join(dir).components().as_path().display());
    // QA (guard2 #1–#5): each ran, and the file was gone.
    for (command, part) in [
        ("rm config/a.ini", "`rm` removes `config/a.ini`".to_string()),
        ("rm -f -- config/a.ini", "`rm` removes `config/a.ini`".to_string()),
        ("unlink config/a.ini", "`unlink` removes `config/a.ini`".to_string()),
        ("rm config/*.ini", "`rm` removes `config/*.ini`, which matches config/a.ini".to_string()),
        (
            "find config -name a.ini -delete",
            "`find` deletes anything under `config`, config/a.ini among it".to_string(),
        ),
        ("find . -name '*.ini' -delete", format!("`find` deletes anything under {}, config/a.ini among it", cwd(""))),
        ("find -L config -exec rm {} +", "`find` deletes anything under `config`, config/a.ini among it".to_string()),
        ("cd config && find . -delete", format!("`find` deletes anything under {}, a.ini among it", cwd("config"))),
        (
            "cd config && find -name a.ini -delete",
            format!("`find` deletes anything under {}, a.ini among it", cwd("config")),
        ),
        ("mv config/a.ini /tmp/moved.ini", "`mv` moves away `config/a.ini`".to_string()),
        ("mv -t /tmp config/a.ini", "`mv` moves away `config/a.ini`".to_string()),
        ("mv config /tmp/c", "`mv` moves away anything under `config`, config/a.ini among it".to_string()),
        ("shred -u config/a.ini", "`shred` overwrites `config/a.ini`".to_string()),
        ("shred -n 1 config/a.ini", "`shred` overwrites `config/a.ini`".to_string()),
        ("rmdir config/empty", "`rmdir` removes `config/empty`".to_string()),
        ("rm -r config", "`rm` removes anything under `config`, config/a.ini among it".to_string()),
        ("rm -rf .", format!("`rm` removes anything under {}, config/a.ini among it", cwd(""))),
        (
            "rsync -a --remove-source-files config/ /tmp/c",
            "`rsync` moves away anything under `config`, config/a.ini among it".to_string(),
        ),
        ("sudo rm config/a.ini", "`rm` removes `config/a.ini`".to_string()),
    ] {
        assert_eq!(p.check_shell(command, &s.root), because(deny(rule, &file), &part), "{command}");
    }
    // Only what is under a directory counts, listed: a rule's pattern that could match below it is not
    // enough (`rm -rf build` where `Edit(**/.env)` is).
    let s2 = Setup::new();
    s2.project(&permissions(r#"{"deny": ["Edit(**/.env)"]}"#));
    for name in ["build/out.o", "app/.env"] {
        s2.file(name);
    }
    let p2 = s2.load();
    assert_eq!(p2.check_shell("rm -rf build", &s2.root), Verdict::Allow);
    assert_eq!(
        p2.check_shell("rm -rf app", &s2.root),
        because(deny("Edit(**/.env)", &s2.project_file()), "`rm` removes anything under `app`, app/.env among it")
    );
    // Names found only when it runs.
    assert_eq!(
        p.check_shell("ls config | xargs rm", &s.root),
        unknown_file(rule, &file, "`xargs rm` removes the files named on its input")
    );
    // What no rule covers, not removed, or not there to remove (`rm` without `-r` leaves a directory).
    // find's name tests say which files go only where its remover takes the files it is given, and only
    // before its action (a review: a directory named `config` went whole, `-delete` first deleted all).
    for command in [
        "find . -name config -exec rm -rf {} +",
        "find . -type d -name config -exec mv {} /tmp/ ;",
        "find config -delete -name x",
        "find config -exec rm {} + -name x",
        "find config -exec env rm {} +",
        "find config -exec busybox rm {} +",
    ] {
        let Verdict::Deny { rule: denied, .. } = p.check_shell(command, &s.root) else { panic!("{command}") };
        assert_eq!(denied, rule, "{command}");
    }
    for command in [
        "rm a.txt",
        "rm -r src",
        "mv a.txt b.txt",
        "find src -delete",
        "find config -name a.ini",
        "find . -name '*.pyc' -delete",
        "find config -type f -name '*.bak' -exec rm -f {} +",
        "find config -exec ls {} +",
        "rm config",
        "rsync -a config/ /tmp/c",
        "cp config/a.ini /tmp/a.ini",
    ] {
        assert_eq!(p.check_shell(command, &s.root), Verdict::Allow, "{command}");
    }
    // A link is removed or moved, not what it leads to; a file a link leads to, or under a link to a
    // directory, is.
    std::os::unix::fs::symlink(s.root.join("config/a.ini"), s.root.join("l.ini")).unwrap();
    std::os::unix::fs::symlink(s.root.join("config"), s.root.join("cl")).unwrap();
    for command in ["rm l.ini", "mv l.ini m.ini", "rm -r cl", "ln -s config l2; mv l2 l3"] {
        assert_eq!(p.check_shell(command, &s.root), Verdict::Allow, "{command}");
    }
    for (command, part) in [
        ("rm cl/a.ini", "`rm` removes `cl/a.ini`"),
        ("rm -r cl/", "`rm` removes anything under `config`, config/a.ini among it"),
        ("ln -s config l2; rm l2/a.ini", "`rm` removes `l2/a.ini`, through the link `ln -s config l2` made"),
    ] {
        assert_eq!(p.check_shell(command, &s.root), because(deny(rule, &file), part), "{command}");
    }
}

#[test]
fn git_rm_git_mv_tar_remove_files_and_zip_move_remove_what_they_are_given() {
    let (s, p, file) = config();
    let rule = "Edit(./config/**)";
    // A review: each removed or moved config/a.ini unchecked.
    for (command, part) in [
        ("git rm config/a.ini", "`git` writes `config/a.ini`"),
        ("git rm -q -f -- config/a.ini", "`git` writes `config/a.ini`"),
        ("git rm -r config", "`git` writes anything under `config`"),
        ("git mv config/a.ini moved.ini", "`git` writes `config/a.ini`"),
        ("git mv -f a.txt config/", "`git` writes anything under `config`"),
        ("tar -czf /tmp/c.tgz --remove-files config", "`tar` removes anything under `config`, config/a.ini among it"),
        ("tar czf /tmp/c.tgz --remove-files config/a.ini", "`tar` removes `config/a.ini`"),
        ("zip -m /tmp/c.zip config/a.ini", "`zip` removes `config/a.ini`"),
        ("zip -r --move /tmp/c.zip config", "`zip` removes anything under `config`, config/a.ini among it"),
    ] {
        assert_eq!(p.check_shell(command, &s.root), because(deny(rule, &file), part), "{command}");
    }
    // git matches a pathspec's wildcards itself; `-C` moves where it works.
    for (command, part) in [
        ("git rm '*.ini'", "`git` writes the paths its pathspec `*.ini` matches"),
        ("git -C src rm a.ini", "`git` writes the files `git rm` removes or moves elsewhere"),
    ] {
        assert_eq!(p.check_shell(command, &s.root), unknown_file(rule, &file, part), "{command}");
    }
    // The index alone, a dry run, nothing removed, or nothing the rule covers.
    for command in [
        "git rm --cached config/a.ini",
        "git rm --cach -r config",
        "git rm -n config/a.ini",
        "git mv --dry-run config/a.ini b.ini",
        "git rm a.txt",
        "git mv a.txt b.txt",
        "tar -czf /tmp/c.tgz config",
        "tar -czf /tmp/c.tgz --remove-files src",
        "zip -r /tmp/c.zip config",
    ] {
        assert_eq!(p.check_shell(command, &s.root), Verdict::Allow, "{command}");
    }
}

#[test]
fn an_empty_directory_removed_is_an_edit_of_it() {
    let s = Setup::new();
    s.project(&permissions(r#"{"deny": ["Edit(./config/**)"]}"#));
    s.file("a.txt");
    fs::create_dir_all(s.root.join("config/empty")).unwrap();
    let p = s.load();
    let denied = deny("Edit(./config/**)", &s.project_file());
    let cwd = s.root.components().as_path().display().to_string();
    // A review: the walk listed files only, so removing config whole removed nothing covered.
    for (command, part) in [
        ("rm -r config", "`rm` removes anything under `config`, config/empty among it".to_string()),
        ("rm -r config/empty", "`rm` removes `config/empty`".to_string()),
        ("rmdir config/empty", "`rmdir` removes `config/empty`".to_string()),
        ("rm -rf .", format!("`rm` removes anything under its working directory {cwd}, config/empty among it")),
        ("mv config /tmp/c", "`mv` moves away anything under `config`, config/empty among it".to_string()),
        ("find config -delete", "`find` deletes anything under `config`, config/empty among it".to_string()),
    ] {
        assert_eq!(p.check_shell(command, &s.root), because(denied.clone(), &part), "{command}");
    }
    for command in ["rm -r a.txt", "find . -name '*.txt' -delete", "rmdir --ignore-fail-on-non-empty src"] {
        assert_eq!(p.check_shell(command, &s.root), Verdict::Allow, "{command}");
    }
}

#[test]
fn tar_remove_files_from_a_list_removes_what_only_the_list_names() {
    let (s, p, file) = config();
    s.file("list");
    // A review: `tar --remove-files -T list` removed config/a.ini, named inside the list, unchecked.
    for (command, list) in [
        ("tar -czf /tmp/c.tgz --remove-files -T list", "`list`"),
        ("tar --remove-files -cf /tmp/c.tar --files-from=list", "`list`"),
        ("tar czfT /tmp/c.tgz list --remove-files", "`list`"),
    ] {
        let part = format!("`tar` removes the files {list} names");
        assert_eq!(p.check_shell(command, &s.root), unknown_file("Edit(./config/**)", &file, &part), "{command}");
    }
    // The list is read as any file tar reads.
    assert_eq!(
        p.check_shell("tar -cf /tmp/c.tar --remove-files -T secret/plan.txt", &s.root),
        because(deny("Read(./secret/**)", &file), "`tar` reads `secret/plan.txt`")
    );
    // Without Edit rules nothing it removes is covered; without `--remove-files` it removes nothing.
    let s2 = Setup::new();
    s2.project(&permissions(r#"{"deny": ["Read(./secret/**)"]}"#));
    s2.file("list");
    let p2 = s2.load();
    assert_eq!(p2.check_shell("tar -czf /tmp/c.tgz --remove-files -T list", &s2.root), Verdict::Allow);
    assert_eq!(p.check_shell("tar -czf /tmp/c.tgz -T list", &s.root), Verdict::Allow);
}

#[test]
fn what_tar_and_zip_name_only_when_they_run_is_asked_about() {
    let (s, p, file) = config();
    // A reader: each removed config/a.ini unchecked (tar's operand taken from the working
    // directory, not from `-C`; zip's names read from its input or matched by zip itself).
    for (command, part) in [
        ("tar -cf /tmp/a.tar --remove-files -C config a.ini", "`tar` removes the files named after `-C config`"),
        (
            "tar -cf /tmp/a.tar --remove-files --directory=config a.ini",
            "`tar` removes the files named after `-C config`",
        ),
        ("zip -rm /tmp/o.zip 'conf*'", "`zip` removes the files `conf*` matches"),
    ] {
        assert_eq!(p.check_shell(command, &s.root), unknown_file("Edit(./config/**)", &file, part), "{command}");
    }
    // What zip reads from its input is asked about first, where Read rules exist; where only Edit
    // rules do, what it removes.
    for command in ["find config -print | zip -m -@ /tmp/o.zip", "find config | zip --names-stdin --move /tmp/o.zip"] {
        let read = "`zip` reads the files its input names";
        assert_eq!(p.check_shell(command, &s.root), unknown_file("Read(./secret/**)", &file, read), "{command}");
    }
    let edits = Setup::new();
    edits.project(&permissions(r#"{"deny": ["Edit(./config/**)"]}"#));
    edits.file("config/a.ini");
    let (p2, file2) = (edits.load(), edits.project_file());
    for command in ["find config -print | zip -m -@ /tmp/o.zip", "find config | zip --names-stdin --move /tmp/o.zip"] {
        let removed = "`zip` removes the files named on its input";
        assert_eq!(
            p2.check_shell(command, &edits.root),
            unknown_file("Edit(./config/**)", &file2, removed),
            "{command}"
        );
    }
    // Named before any `-C`: from the working directory, as before.
    assert_eq!(
        p.check_shell("tar -cf /tmp/a.tar --remove-files config/a.ini -C src x", &s.root),
        because(deny("Edit(./config/**)", &file), "`tar` removes `config/a.ini`")
    );
}
