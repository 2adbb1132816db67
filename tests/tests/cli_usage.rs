//! What lctx says about bad input: usage errors exit 2, name the CLI's own
//! flags (not MCP parameters), and change nothing.

use std::path::{Path, PathBuf};

use lean_ctx_tests::{Home, describe};

fn project(home: &Home) -> PathBuf {
    let root = home.path().join("proj");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join("notes.txt"), "alpha\nbeta\nalpha\n").unwrap();
    root
}

fn lctx(home: &Home, dir: &Path, args: &[&str]) -> std::process::Output {
    home.lctx_in(dir, false, args)
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn edit_errors_name_the_cli_flags() {
    let home = Home::new();
    let root = project(&home);
    let missing = lctx(&home, &root, &["edit", "notes.txt", "--old", "gamma", "--new", "x"]);
    assert_eq!(missing.status.code(), Some(1), "{}", describe(&missing));
    assert!(stderr(&missing).contains("--old was not found in notes.txt"), "{}", describe(&missing));
    let twice = lctx(&home, &root, &["edit", "notes.txt", "--old", "alpha", "--new", "x"]);
    assert!(stderr(&twice).contains("--old matches"), "{}", describe(&twice));
    assert!(stderr(&twice).contains("or set --all"), "{}", describe(&twice));
    let absent = lctx(&home, &root, &["edit", "new.txt", "--old", "a", "--new", "b"]);
    assert!(stderr(&absent).contains("pass --create to create it"), "{}", describe(&absent));
    let create = lctx(&home, &root, &["edit", "new.txt", "--create", "--old", "a", "--new", "b"]);
    assert!(stderr(&create).contains("creating a file: leave --old empty"), "{}", describe(&create));
    assert!(!root.join("new.txt").exists(), "nothing created");
    for out in [&missing, &twice, &absent, &create] {
        let text = stderr(out);
        assert!(
            !text.contains("old_string") && !text.contains("replace_all") && !text.contains("create=true"),
            "{text}"
        );
    }
    assert_eq!(std::fs::read_to_string(root.join("notes.txt")).unwrap(), "alpha\nbeta\nalpha\n", "nothing changed");
}

#[test]
fn bad_free_form_values_are_usage_errors() {
    let home = Home::new();
    let root = project(&home);
    let by = lctx(&home, &root, &["gain", "--by", "nonsense"]);
    assert_eq!(by.status.code(), Some(2), "{}", describe(&by));
    assert!(
        stderr(&by).contains("unknown --by `nonsense`; valid: none, tool, mode, family, project"),
        "{}",
        describe(&by)
    );
    let confidence = lctx(&home, &root, &["knowledge", "remember", "k", "v", "--confidence", "7"]);
    assert_eq!(confidence.status.code(), Some(2), "{}", describe(&confidence));
    assert!(stderr(&confidence).contains("give a number from 0 to 1"), "{}", describe(&confidence));
    let list = lctx(&home, &root, &["knowledge", "list"]);
    assert!(!String::from_utf8_lossy(&list.stdout).contains("k = v"), "the refused fact was not stored");
    for args in [
        &["session", "bogus"][..],
        &["read", "notes.txt", "-m", "bogus"],
        &["edit", "notes.txt", "--lines", "0", "--new", "x"],
        &["expand", "abc", "--lines", "9-3"],
        &["config", "set", "no_such_key", "3"],
        &["config", "set", "redaction", "perhaps"],
        &["expand", "abc", "--limit", "0"],
    ] {
        let out = lctx(&home, &root, args);
        assert_eq!(out.status.code(), Some(2), "lctx {args:?}: {}", describe(&out));
        assert!(!stderr(&out).trim().is_empty(), "lctx {args:?} says why");
    }
}

#[test]
fn a_flag_value_out_of_its_range_is_a_usage_error() {
    let home = Home::new();
    let root = project(&home);
    for (args, said) in [
        (&["map", "--max-tokens", "0"][..], "--max-tokens 0 is out of range: use 64 to 16384 (default 1024)"),
        (&["graph", "notes.txt", "-a", "neighbors", "-d", "7"], "depth 7 is out of range for neighbors: use 1 to 3"),
        (&["graph", "notes.txt", "-a", "neighbors", "-d", "0"], "depth 0 is out of range for neighbors: use 1 to 3"),
        (
            &["graph", "notes.txt", "-a", "path", "--to", "notes.txt", "-d", "13"],
            "depth 13 is out of range for path: use 1 to 12",
        ),
        (&["search", "alpha", "-n", "0"], "0 is not in 1..=10000"),
        (&["glob", "*.txt", "-n", "10001"], "10001 is not in 1..=10000"),
        (&["session", "list", "-n", "0"], "0 is not in 1.."),
        (&["knowledge", "list", "-n", "0"], "0 is not in 1.."),
        (&["--host", "bogus", "rules", "notes.txt"], "unknown --host `bogus`; valid: claude-code, codex"),
        (&["read", "notes.txt", "--host", "bogus"], "unknown --host `bogus`"),
        (&["read", "notes.txt", "--start-line", "0"], "--start-line"),
        (&["read", "notes.txt", "--start-line", "1", "--limit", "0"], "--limit"),
        (&["read", "notes.txt", "-m", "signatures", "--start-line", "5"], "--start-line"),
        (&["callgraph", "x", "-d", "9"], "depth 9 is out of range: use 1 to 5"),
        (
            &["expand", "abc", "--search", "FAILED"],
            "to keep the lines of output abc matching FAILED, pass --grep FAILED",
        ),
        (&["impact", "notes.txt", "-d", "0"], "depth 0 is out of range: use 1 to 5"),
        (&["run", "--timeout", "99999", "--", "true"], "3600"),
    ] {
        let out = lctx(&home, &root, args);
        assert_eq!(out.status.code(), Some(2), "lctx {args:?}: {}", describe(&out));
        assert!(stderr(&out).contains(said), "lctx {args:?}: {}", describe(&out));
    }
    // Values inside the range still answer, and a file that is not there is a failure, not a usage error.
    let host = lctx(&home, &root, &["rules", "notes.txt", "--host", "Claude"]);
    assert!(host.status.success(), "{}", describe(&host));
    let window = lctx(&home, &root, &["read", "notes.txt", "--start-line", "2", "--limit", "1"]);
    assert!(String::from_utf8_lossy(&window.stdout).contains("beta"), "{}", describe(&window));
    let missing = lctx(&home, &root, &["read", "missing.txt"]);
    assert_eq!(missing.status.code(), Some(1), "{}", describe(&missing));
}

#[test]
fn gain_daily_draws_one_bar_per_day_and_refuses_what_does_not_combine() {
    let home = Home::new();
    let root = project(&home);
    let read = lctx(&home, &root, &["read", "notes.txt"]);
    assert!(read.status.success(), "{}", describe(&read));
    let chart = lctx(&home, &root, &["gain", "--daily", "--days", "3"]);
    assert!(chart.status.success(), "{}", describe(&chart));
    let text = String::from_utf8_lossy(&chart.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "tokens saved per day · the 3 local days ending today", "{text}");
    assert_eq!(lines.len(), 5, "a header, three days, a total: {text}");
    for day in &lines[1..4] {
        let date = day.split_whitespace().next().unwrap();
        assert!(date.len() == 10 && date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-', "{day}");
    }
    assert!(lines[1] < lines[2] && lines[2] < lines[3], "oldest first: {text}");
    assert!(lines[3].ends_with(" 1 events"), "today holds the read: {text}");
    assert!(lines[1].ends_with(" 0 events") && lines[2].ends_with(" 0 events"), "empty days are shown: {text}");
    assert!(lines[4].starts_with("total "), "{text}");
    let again = lctx(&home, &root, &["gain", "--daily", "--days", "3"]);
    assert_eq!(String::from_utf8_lossy(&again.stdout), text, "the same ledger, the same chart");

    for args in
        [&["gain", "--days", "3"][..], &["gain", "--daily", "--days", "0"], &["gain", "--daily", "--by", "tool"]]
    {
        let out = lctx(&home, &root, args);
        assert_eq!(out.status.code(), Some(2), "lctx {args:?}: {}", describe(&out));
    }
}

#[test]
fn a_mode_given_where_a_file_goes_says_where_it_belongs() {
    let home = Home::new();
    let root = project(&home);
    for (args, said) in [
        (
            &["read", "notes.txt", "lines:2-3"][..],
            "`lines:2-3` is a mode, not a file: write `lctx read notes.txt -m lines:2-3`",
        ),
        (
            &["read", "signatures", "notes.txt"][..],
            "`signatures` is a mode, not a file: write `lctx read notes.txt -m signatures`",
        ),
        (
            &["read", "notes.txt", "lines"][..],
            "`lines` is a mode, not a file: write `lctx read notes.txt -m lines:N-M`",
        ),
    ] {
        let out = lctx(&home, &root, args);
        assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
        assert!(stderr(&out).contains(said), "{}", describe(&out));
    }
    // A file that is really named like a mode is read.
    std::fs::write(root.join("map"), "a map of the land\n").unwrap();
    let out = lctx(&home, &root, &["read", "map", "-m", "full"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("a map of the land"), "{}", describe(&out));
}
