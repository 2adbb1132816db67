//! The command a tracer, sandbox, resource setter or terminal session
//! runs is checked as if run directly.

use super::*;

#[test]
fn tracers_sandboxes_and_sessions_run_their_command_as_if_run_directly() {
    let s = Setup::new();
    s.project(&permissions(r#"{"deny": ["Read(./.env)", "Read(./secret/**)", "Bash(rm:*)", "Bash(curl:*)"]}"#));
    for name in [".env", "secret/plan.txt", "victim.txt", "a.txt"] {
        s.file(name);
    }
    let p = s.load();
    let denied_by = |command: &str, rule: &str| {
        let verdict = p.check_shell(command, &s.root);
        assert!(matches!(&verdict, Verdict::Deny { rule: r, .. } if r == rule), "{command}: {verdict:?}");
    };
    let victim = s.root.join("victim.txt");
    let victim = victim.display();
    // QA (guard1 #40–#51, guard2 #20–#26): each ran its command unchecked.
    for command in [
        "strace -o /dev/null rm victim.txt".to_string(),
        "strace -f -e trace=file -o /dev/null rm victim.txt".to_string(),
        format!("chroot / rm {victim}"),
        "setpriv rm victim.txt".to_string(),
        "setpriv --reuid=1000 --clear-groups rm victim.txt".to_string(),
        "prlimit --nofile=1024 rm victim.txt".to_string(),
        "prlimit -n1024 --cpu=10 rm victim.txt".to_string(),
        "fakeroot rm victim.txt".to_string(),
        "fakeroot -- rm victim.txt".to_string(),
        "gdb -batch -ex run --args rm victim.txt".to_string(),
        "valgrind -q rm victim.txt".to_string(),
        "valgrind --tool=memcheck --log-file=/dev/null rm victim.txt".to_string(),
        "tmux new-session -d 'rm victim.txt'".to_string(),
        "tmux new -d rm victim.txt".to_string(),
        "screen -dm rm victim.txt".to_string(),
        "screen -S s -d -m rm victim.txt".to_string(),
        "ltrace -o /dev/null rm victim.txt".to_string(),
        "numactl --localalloc rm victim.txt".to_string(),
        "firejail --quiet --noprofile rm victim.txt".to_string(),
        "catchsegv rm victim.txt".to_string(),
        "/usr/bin/time -o /dev/null rm victim.txt".to_string(),
        "chrt -o 0 taskset 1 ionice -c 3 rm victim.txt".to_string(),
        "sudo strace -f valgrind -q rm victim.txt".to_string(),
    ] {
        denied_by(&command, "Bash(rm:*)");
    }
    denied_by("strace -o /dev/null curl -s file:///etc/hostname", "Bash(curl:*)");
    for (command, rule) in [
        ("tmux new-session -d 'cat .env > /tmp/leak.txt'", "Read(./.env)"),
        ("fakeroot sh -c 'cat secret/plan.txt'", "Read(./secret/**)"),
        ("valgrind -q sh -c 'cat secret/plan.txt'", "Read(./secret/**)"),
        ("strace -f -o /dev/null sh -c 'cat secret/plan.txt'", "Read(./secret/**)"),
        ("tmux new-session -d 'cp secret/plan.txt /tmp/tmux2.txt'", "Read(./secret/**)"),
        ("tmux new-session -d -c secret 'cat plan.txt'", "Read(./secret/**)"),
        ("tmux -c 'cat .env'", "Read(./.env)"),
    ] {
        denied_by(command, rule);
    }
    // Run elsewhere, or by commands known only when they run: asked about.
    for (command, written) in [
        ("chroot /srv rm victim.txt", "chroot /srv"),
        ("firejail --private rm victim.txt", "firejail --private"),
        ("gdb --args rm victim.txt", "gdb (the commands of its input)"),
        ("gdb -batch -ex 'shell rm victim.txt' --args ls", "gdb -ex 'shell rm victim.txt'"),
        ("tmux send-keys -t s 'rm victim.txt' Enter", "tmux send-keys"),
        ("screen -S s -X stuff 'rm victim.txt'", "screen -X"),
        ("strace -o '|rm victim.txt' ls", "strace -o |rm victim.txt"),
    ] {
        let verdict = p.check_shell(command, &s.root);
        assert_eq!(verdict, unknown_program("Bash(rm:*)", &s.project_file(), written), "{command}");
    }
    // What runs nothing denied, or nothing at all.
    for command in [
        "strace -c ls",
        "strace -p 700",
        "valgrind ls",
        "tmux ls",
        "tmux new-session -d",
        "screen -ls",
        "gdb -batch --args rm victim.txt",
        "setpriv --dump",
        "prlimit --pid 700",
        "numactl --hardware",
        "chroot / ls",
    ] {
        assert_eq!(p.check_shell(command, &s.root), Verdict::Allow, "{command}");
    }
}

#[test]
fn what_a_reviewer_found_tmux_gdb_valgrind_and_firejail_do_is_checked() {
    let s = Setup::new();
    s.project(&permissions(r#"{"deny": ["Edit(./config/**)", "Bash(curl:*)"]}"#));
    s.file("config/app.ini");
    let p = s.load();
    let denied = |command: &str| {
        let verdict = p.check_shell(command, &s.root);
        assert!(
            matches!(&verdict, Verdict::Deny { rule, .. } if rule == "Edit(./config/**)"),
            "{command}: {verdict:?}"
        );
    };
    // tmux runs several words as a program: a `#` among them is no comment.
    denied("tmux new -d rm -f '#' config/app.ini");
    // The files valgrind and firejail log to are written.
    denied("valgrind --log-file=config/app.ini true");
    denied("valgrind --xml=yes --xml-file=config/app.ini true");
    denied("firejail --output=config/app.ini true");
    // A word ending in `;` ends a tmux command as `;` does; gdb's executable file is a program run: what
    // they run is known only then, asked about where Bash rules are.
    for command in ["tmux new -d 'true;' run-shell 'rm -rf config'", "gdb -batch -ex run -e /bin/sh"] {
        let verdict = p.check_shell(command, &s.root);
        assert!(matches!(verdict, Verdict::Ask { .. }), "{command}: {verdict:?}");
    }
}

#[test]
fn pkexec_sg_unbuffer_dbus_run_session_bwrap_and_proot_run_their_command_as_if_run_directly() {
    let s = Setup::new();
    s.project(&permissions(r#"{"deny": ["Read(./.env)", "Read(./secret/**)", "Bash(rm:*)"]}"#));
    for name in [".env", "secret/plan.txt", "victim.txt"] {
        s.file(name);
    }
    let p = s.load();
    let denied_by = |command: &str, rule: &str| {
        let verdict = p.check_shell(command, &s.root);
        assert!(matches!(&verdict, Verdict::Deny { rule: r, .. } if r == rule), "{command}: {verdict:?}");
    };
    // A review: each ran its command unchecked.
    for command in [
        "pkexec rm victim.txt",
        "pkexec --user root --keep-cwd rm victim.txt",
        "sg wheel -c 'rm victim.txt'",
        "sg - wheel 'rm victim.txt'",
        "unbuffer rm victim.txt",
        "unbuffer -p rm victim.txt",
        "dbus-run-session rm victim.txt",
        "dbus-run-session -- rm victim.txt",
        "bwrap --ro-bind / / --dev /dev --unshare-all rm victim.txt",
        "bwrap --bind / / --setenv A 1 -- rm victim.txt",
        "proot rm victim.txt",
        "proot -b /dev -0 rm victim.txt",
        "sudo unbuffer bwrap --bind / / pkexec rm victim.txt",
    ] {
        denied_by(command, "Bash(rm:*)");
    }
    for (command, rule) in [
        ("pkexec --keep-cwd cat .env", "Read(./.env)"),
        ("sg wheel -c 'cat secret/plan.txt'", "Read(./secret/**)"),
        ("unbuffer cat .env", "Read(./.env)"),
        ("dbus-run-session -- sh -c 'cat .env'", "Read(./.env)"),
        ("dbus-run-session --config-file=.env true", "Read(./.env)"),
        ("bwrap --ro-bind / / cat .env", "Read(./.env)"),
        ("proot -w secret cat plan.txt", "Read(./secret/**)"),
    ] {
        denied_by(command, rule);
    }
    // In the user's home (pkexec), another root, files under other names, an option not known: asked.
    let verdict = p.check_shell("pkexec cat .env", &s.root);
    assert!(matches!(&verdict, Verdict::Ask { rule, .. } if rule == "Read(./.env)"), "{verdict:?}");
    for (command, written) in [
        ("bwrap --bind /tmp /srv rm victim.txt", "bwrap --bind /tmp /srv"),
        ("bwrap --symlink /x /y rm victim.txt", "bwrap --symlink /x /y"),
        ("bwrap --frobnicate rm victim.txt", "bwrap --frobnicate"),
        ("proot -r /srv/root rm victim.txt", "proot -r /srv/root"),
        ("proot -b /tmp:/srv rm victim.txt", "proot -b /tmp:/srv"),
        ("dbus-run-session --dbus-daemon=/bin/rm true", "dbus-run-session --dbus-daemon"),
        ("pkexec --frobnicate rm victim.txt", "pkexec --frobnicate"),
    ] {
        let verdict = p.check_shell(command, &s.root);
        assert_eq!(verdict, unknown_program("Bash(rm:*)", &s.project_file(), written), "{command}");
    }
    for command in ["unbuffer ls", "sg wheel", "bwrap --ro-bind / / ls", "proot ls", "pkexec --help"] {
        assert_eq!(p.check_shell(command, &s.root), Verdict::Allow, "{command}");
    }
}

/// The project a review checked bwrap and proot in: secrets to read, a
/// directory not to edit, a file of the host's.
fn sandboxed() -> (Setup, Permissions) {
    let s = Setup::new();
    let rules = r#"{"deny": ["Read(./secret/**)", "Edit(./config/**)", "Read(./.env)", "Read(//etc/passwd)"]}"#;
    s.project(&permissions(rules));
    for name in [".env", "secret/plan.txt", "config/app.toml", "a.txt"] {
        s.file(name);
    }
    let p = s.load();
    (s, p)
}

#[test]
fn a_variable_bwrap_sets_is_checked_as_one_env_sets() {
    let (s, p) = sandboxed();
    // The review's: bash reads the file BASH_ENV names, as with `env BASH_ENV=… bash`.
    for command in [
        "env BASH_ENV=secret/plan.txt bash -c true",
        "bwrap --ro-bind / / --setenv BASH_ENV secret/plan.txt bash -c true",
        "bwrap --ro-bind / / --setenv A 1 --setenv ENV secret/plan.txt sh -i",
    ] {
        let verdict = p.check_shell(command, &s.root);
        assert!(
            matches!(&verdict, Verdict::Deny { rule, .. } if rule == "Read(./secret/**)"),
            "{command}: {verdict:?}"
        );
    }
    // A function bash imports from the environment runs as bash starts.
    let command = "bwrap --ro-bind / / --setenv 'BASH_FUNC_f%%' '() { cat /etc/passwd; }' bash -c f";
    let verdict = p.check_shell(command, &s.root);
    assert!(matches!(&verdict, Verdict::Deny { rule, .. } if rule == "Read(//etc/passwd)"), "{command}: {verdict:?}");
    assert_eq!(p.check_shell("bwrap --ro-bind / / --setenv BASH_ENV a.txt bash -c true", &s.root), Verdict::Allow);
}

#[test]
fn bwrap_runs_its_command_from_the_sandbox_root_or_where_a_bind_shows_the_working_directory() {
    let (s, p) = sandboxed();
    let denied_by = |command: &str, rule: &str| {
        let verdict = p.check_shell(command, &s.root);
        assert!(matches!(&verdict, Verdict::Deny { rule: r, .. } if r == rule), "{command}: {verdict:?}");
    };
    // bwrap stands at `/` when it takes `--chdir`: `etc` is /etc.
    denied_by("bwrap --ro-bind / / --chdir etc cat passwd", "Read(//etc/passwd)");
    denied_by(&format!("bwrap --ro-bind / / --chdir {}/secret cat plan.txt", s.root.display()), "Read(./secret/**)");
    denied_by("bwrap --ro-bind / / cat secret/plan.txt", "Read(./secret/**)");
    denied_by("bwrap --bind \"$PWD\" \"$PWD\" --ro-bind /usr /usr cat .env", "Read(./.env)");
    assert_eq!(p.check_shell("bwrap --ro-bind / / --chdir tmp cat plan.txt", &s.root), Verdict::Allow);
    // No bind shows the working directory: it starts in $HOME, else `/`.
    let verdict = p.check_shell("bwrap --ro-bind /etc /etc cat etc/passwd", &s.root);
    assert!(matches!(&verdict, Verdict::Ask { rule, .. } if rule == "Read(./secret/**)"), "{verdict:?}");
}

#[test]
fn a_sandbox_showing_other_files_at_the_paths_named_is_asked_about_where_file_rules_exist() {
    let (s, p) = sandboxed();
    for (command, written, rule) in [
        ("bwrap --ro-bind . /mnt cat /mnt/secret/plan.txt", "bwrap --ro-bind . /mnt", "Read(./secret/**)"),
        // `.` shows the working directory at `/`.
        ("bwrap --bind . . cat /secret/plan.txt", "bwrap --bind . .", "Read(./secret/**)"),
        ("bwrap --ro-bind / / --tmpfs /x cat x", "bwrap --tmpfs /x", "Read(./secret/**)"),
        ("bwrap --ro-bind / / --overlay-src . --tmp-overlay /x cat x", "bwrap --overlay-src", "Read(./secret/**)"),
        ("proot -b .:/mnt cat /mnt/secret/plan.txt", "proot -b .:/mnt", "Read(./secret/**)"),
        ("proot -r /srv/root cat /x", "proot -r /srv/root", "Read(./secret/**)"),
    ] {
        let cause = format!("`{written}`, which shows its command other files at the paths it names");
        assert_eq!(p.check_shell(command, &s.root), unknown_file(rule, &s.project_file(), &cause), "{command}");
    }
    // Where only Edit rules exist, what it writes is as unknown.
    let edits = Setup::new();
    edits.project(&permissions(r#"{"deny": ["Edit(./config/**)"]}"#));
    let cause = "`bwrap --bind . /mnt`, which shows its command other files at the paths it names";
    let verdict = edits.load().check_shell("bwrap --bind . /mnt touch /mnt/config/x", &edits.root);
    assert_eq!(verdict, unknown_file("Edit(./config/**)", &edits.project_file(), cause));
    // Paths bound to themselves are the host's.
    for command in ["bwrap --ro-bind / / cat a.txt", "proot -b /usr -b /dev cat a.txt", "proot -b /tmp:/tmp cat a.txt"]
    {
        assert_eq!(p.check_shell(command, &s.root), Verdict::Allow, "{command}");
    }
}
