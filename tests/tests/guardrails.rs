//! Guardrails end to end: the host's instruction files follow the agent
//! into reads, the user's permission rules refuse what they deny or want to
//! approve, dependency sources are readable but not editable, and secrets
//! never leave the daemon — through the daemon, the fallback and lctx-mcp.

use std::path::{Path, PathBuf};
use std::process::Output;

use lean_ctx_tests::mcp::Raw;
use lean_ctx_tests::{Home, bin, describe};
use serde_json::{Value, json};

/// A project with a git marker and one source file per language used here.
fn project(home: &Home) -> PathBuf {
    let root = home.path().join("proj");
    for dir in [".git", "src/deep", "web", "py"] {
        std::fs::create_dir_all(root.join(dir)).unwrap();
    }
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    for (file, text) in [
        ("top.rs", "fn top() {}\n"),
        ("src/a.rs", "fn a() {}\n"),
        ("src/deep/b.rs", "fn b() {}\n"),
        ("web/app.ts", "export const app = 1;\n"),
        ("py/tool.py", "def tool():\n    pass\n"),
    ] {
        std::fs::write(root.join(file), text).unwrap();
    }
    std::fs::create_dir_all(home.path().join("user")).unwrap();
    root
}

fn write(root: &Path, file: &str, text: &str) {
    let path = root.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// lctx in `dir`, with this test's own user home (its ~/.claude).
fn lctx_at(home: &Home, dir: &Path, no_daemon: bool, args: &[&str]) -> Output {
    let mut cmd = home.command(bin("lctx"));
    cmd.current_dir(dir).env("HOME", home.path().join("user")).args(args);
    if no_daemon {
        cmd.env("LEAN_CTX_NO_DAEMON", "1");
    }
    cmd.output().unwrap()
}

fn lctx(home: &Home, dir: &Path, args: &[&str]) -> Output {
    lctx_at(home, dir, false, args)
}

/// `lctx read PATH --json` as `session` with `host`: the one file's view.
fn read(home: &Home, root: &Path, session: &str, host: &str, path: &str) -> Value {
    let out = lctx(home, root, &["--session", session, "--host", host, "read", path, "-m", "full", "--json"]);
    assert!(out.status.success(), "{}", describe(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["files"][0].clone()
}

/// The rule files a view delivered, by path.
fn rule_paths(view: &Value) -> Vec<String> {
    view["rules"].as_array().unwrap().iter().map(|r| r["path"].as_str().unwrap().to_string()).collect()
}

/// A token of `prefix` followed by `len` characters that look random, made
/// here: never a real secret.
fn fake_token(prefix: &str, len: usize, seed: u64) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let tail: String = (0..len)
        .map(|_| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ALPHABET[(state >> 33) as usize % ALPHABET.len()] as char
        })
        .collect();
    format!("{prefix}{tail}")
}

#[test]
fn claude_code_rules_are_delivered_once_per_session_and_again_when_changed() {
    let home = Home::new();
    let root = project(&home);
    write(&root, "CLAUDE.md", "Root rules: the host loads these itself.\n");
    write(&root, "src/CLAUDE.md", "Use tabs in src.\n");
    write(&root, ".claude/rules/rust.md", "---\npaths:\n  - \"src/**/*.rs\"\n---\nNo unwrap in library code.\n");
    write(&root, ".claude/rules/web.md", "---\npaths: [\"web/**\"]\n---\nWeb rules.\n");

    let first = read(&home, &root, "s1", "claude-code", "src/a.rs");
    let mut delivered = rule_paths(&first);
    delivered.sort();
    assert_eq!(delivered, [".claude/rules/rust.md", "src/CLAUDE.md"], "{first}");
    let bodies: Vec<_> = first["rules"].as_array().unwrap().iter().map(|r| r["body"].as_str().unwrap()).collect();
    assert!(bodies.contains(&"Use tabs in src."), "{bodies:?}");
    assert!(bodies.contains(&"No unwrap in library code."), "front matter stripped: {bodies:?}");
    assert_eq!(first["content"], "fn a() {}\n", "the file's view itself is untouched");

    // Same session, another file under the same rules: nothing new.
    assert!(rule_paths(&read(&home, &root, "s1", "claude-code", "src/deep/b.rs")).is_empty());
    // Another session gets its own copy.
    assert_eq!(rule_paths(&read(&home, &root, "s2", "claude-code", "src/a.rs")).len(), 2);
    // A changed rule file is delivered again, once.
    write(&root, "src/CLAUDE.md", "Use spaces in src.\n");
    let again = read(&home, &root, "s1", "claude-code", "src/a.rs");
    assert_eq!(rule_paths(&again), ["src/CLAUDE.md"], "{again}");
    assert_eq!(again["rules"][0]["body"], "Use spaces in src.");
    assert!(rule_paths(&read(&home, &root, "s1", "claude-code", "src/a.rs")).is_empty());

    // The text an agent sees: the rules fenced before the file.
    let out = lctx(&home, &root, &["--session", "s3", "--host", "claude-code", "read", "src/a.rs", "-m", "full"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("[rules from "), "{text}");
    assert!(text.contains("Use spaces in src.") && text.ends_with("fn a() {}\n"), "{text}");

    // ctx_rules lists them, with what this session has.
    let listed = lctx(&home, &root, &["--session", "s1", "--host", "claude-code", "rules", "src/a.rs", "--json"]);
    assert!(listed.status.success(), "{}", describe(&listed));
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    let by_path = |p: &str| listed["rules"].as_array().unwrap().iter().find(|r| r["path"] == p).cloned();
    assert_eq!(by_path("src/CLAUDE.md").unwrap()["delivered"], true, "{listed}");
    assert_eq!(by_path("CLAUDE.md").unwrap()["session_start"], true, "{listed}");
    assert!(by_path(".claude/rules/web.md").is_none(), "its paths do not match: {listed}");
}

#[test]
fn agents_md_closest_wins_and_is_the_default() {
    let home = Home::new();
    let root = project(&home);
    write(&root, "AGENTS.md", "Root agents file.\n");
    write(&root, "src/AGENTS.md", "Src agents file.\n");
    // No --host and no MCP host: AGENTS.md, which most agents read.
    let out = lctx(&home, &root, &["--session", "s", "read", "src/deep/b.rs", "-m", "full", "--json"]);
    assert!(out.status.success(), "{}", describe(&out));
    let view: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rule_paths(&view["files"][0]), ["src/AGENTS.md"], "{view}");
    // The root file is the host's own at session start.
    assert!(rule_paths(&read(&home, &root, "s", "codex", "top.rs")).is_empty());
    // Unless configured.
    let set = lctx(&home, &root, &["config", "set", "rules_session_start", "true"]);
    assert!(set.status.success(), "{}", describe(&set));
    assert_eq!(rule_paths(&read(&home, &root, "t", "codex", "top.rs")), ["AGENTS.md"]);
    // And none at all on request.
    assert!(rule_paths(&read(&home, &root, "u", "none", "src/a.rs")).is_empty());
}

#[test]
fn cursor_and_copilot_rules_apply_by_their_globs() {
    let home = Home::new();
    let root = project(&home);
    write(
        &root,
        ".cursor/rules/ts.mdc",
        "---\ndescription: TypeScript\nglobs: \"**/*.ts\"\nalwaysApply: false\n---\nPrefer const.\n",
    );
    write(&root, ".github/instructions/py.instructions.md", "---\napplyTo: \"**/*.py\"\n---\nType hints everywhere.\n");
    assert_eq!(rule_paths(&read(&home, &root, "c", "cursor", "web/app.ts")), [".cursor/rules/ts.mdc"]);
    assert!(rule_paths(&read(&home, &root, "c", "cursor", "py/tool.py")).is_empty());
    let view = read(&home, &root, "p", "copilot", "py/tool.py");
    assert_eq!(rule_paths(&view), [".github/instructions/py.instructions.md"]);
    assert_eq!(view["rules"][0]["body"], "Type hints everywhere.");
    assert!(rule_paths(&read(&home, &root, "p", "copilot", "web/app.ts")).is_empty());
}

#[test]
fn the_mcp_host_named_at_initialize_selects_its_rules() {
    let home = Home::new();
    let root = project(&home);
    write(&root, "src/CLAUDE.md", "Claude's src rules.\n");
    write(&root, "src/AGENTS.md", "Agents' src rules.\n");
    let mut cmd = home.command(bin("lctx-mcp"));
    cmd.current_dir(&root).env("HOME", home.path().join("user"));
    let mut mcp = Raw::spawn(cmd);
    mcp.initialize("claude-code", "2025-06-18");
    let (text, is_error) = mcp.call_tool(1, "ctx_read", json!({"path": "src/a.rs", "mode": "full"}));
    assert!(!is_error, "{text}");
    assert!(text.contains("Claude's src rules.") && !text.contains("Agents' src rules."), "{text}");
    let (again, _) = mcp.call_tool(2, "ctx_read", json!({"path": "src/deep/b.rs", "mode": "full"}));
    assert!(!again.contains("Claude's src rules."), "once per session: {again}");
    let (listed, is_error) = mcp.call_tool(3, "ctx_rules", json!({"path": "src/a.rs"}));
    assert!(!is_error && listed.contains("src/CLAUDE.md") && listed.contains("delivered to this session"), "{listed}");
}

#[test]
fn permission_rules_deny_and_ask_for_reads_edits_and_commands() {
    let home = Home::new();
    let root = project(&home);
    write(&root, "secrets/prod.txt", "prod credentials live here\n");
    write(&root, "ask/notes.md", "needs approval\n");
    write(&root, "locked.txt", "do not touch\n");
    write(
        &root,
        ".claude/settings.json",
        r#"{"permissions": {
            "allow": ["Read(./secrets/**)"],
            "deny": ["Read(./secrets/**)", "Edit(./locked.txt)", "Bash(git push:*)"],
            "ask": ["Read(./ask/*.md)", "Edit(./ask/**)", "Bash(rm *)"]
        }}"#,
    );
    let settings = root.join(".claude/settings.json").canonicalize().unwrap();
    let refused = |args: &[&str], rule: &str, word: &str| {
        let out = lctx(&home, &root, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", describe(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(rule), "{args:?} names the rule {rule}: {stderr}");
        assert!(stderr.contains(word), "{args:?}: {stderr}");
        stderr.to_string()
    };
    let denied = refused(&["read", "secrets/prod.txt"], "Read(./secrets/**)", "denied");
    assert!(denied.contains(&settings.display().to_string()), "names the file: {denied}");
    refused(&["read", "ask/notes.md"], "Read(./ask/*.md)", "host's own");
    refused(&["edit", "locked.txt", "--old", "do not", "--new", "may"], "Edit(./locked.txt)", "denied");
    assert_eq!(std::fs::read_to_string(root.join("locked.txt")).unwrap(), "do not touch\n");
    refused(&["edit", "ask/notes.md", "--old", "needs", "--new", "got"], "Edit(./ask/**)", "host's own");
    assert_eq!(std::fs::read_to_string(root.join("ask/notes.md")).unwrap(), "needs approval\n");
    refused(&["run", "--", "git push origin main"], "Bash(git push:*)", "denied");
    refused(&["run", "--", "echo ok && git push --force"], "Bash(git push:*)", "denied");
    refused(&["run", "--", "rm -rf build"], "Bash(rm *)", "host's own");
    // A file written that is known only when the command runs cannot be checked against Edit rules.
    refused(&["run", "--", "f=locked.txt; (f=x); echo new > \"$f\""], "Edit(./locked.txt)", "denied");
    refused(&["run", "--", "echo new | tee \"$F\""], "a file known only when the command runs", "host's own");
    // Everything else still works.
    let ok = lctx(&home, &root, &["run", "--", "echo", "allowed"]);
    assert!(ok.status.success() && String::from_utf8_lossy(&ok.stdout).contains("allowed"), "{}", describe(&ok));
    // Search does not leak a denied file's lines, and says it withheld them.
    let found = lctx(&home, &root, &["search", "credentials"]);
    let text = String::from_utf8_lossy(&found.stdout);
    assert!(!text.contains("prod credentials"), "{text}");
    // Every withheld file in the search's scope is counted, whatever the pattern: the ask rule's
    // note too, though `credentials` is written only in the denied one.
    assert!(text.contains("2 files not searched: the user's Read rules withhold them: ask Read(./ask/*.md)"), "{text}");
    assert!(text.contains("deny Read(./secrets/**)"), "{text}");
    let listed = lctx(&home, &root, &["glob", "**/*.txt"]);
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(text.contains("locked.txt") && !text.contains("prod.txt"), "{text}");
    let note =
        "1 file not matched against the pattern: the user's Read rules withhold its name: deny Read(./secrets/**)";
    assert!(text.contains(note), "{text}");
    let listed = lctx(&home, &root, &["glob", "**/*.md"]);
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(text.contains("ask/notes.md"), "an ask rule guards content, not the name: {text}");
    let tree = lctx(&home, &root, &["tree"]);
    let text = String::from_utf8_lossy(&tree.stdout);
    assert!(text.contains("locked.txt") && text.contains("notes.md") && !text.contains("prod.txt"), "{text}");
    assert!(text.contains("1 file withheld by the user's Read rules: deny Read(./secrets/**)"), "{text}");

    // lean-ctx's own lists, for users whose host has no such rules.
    let set = lctx(&home, &root, &["config", "set", "deny_paths", "*.pem"]);
    assert!(set.status.success(), "{}", describe(&set));
    write(&root, "keys/server.pem", "-----BEGIN CERTIFICATE-----\n");
    refused(&["read", "keys/server.pem"], "*.pem", "denied");
    let set = lctx(&home, &root, &["config", "set", "shell_deny", "curl"]);
    assert!(set.status.success(), "{}", describe(&set));
    refused(&["run", "--", "curl", "https://example.invalid"], "curl", "denied");
}

/// Commands that hide the files they read (globs, recursive readers, variables, xargs, git's
/// objects) or the program they run (a variable, a substitution) are checked for what they do, and
/// ordinary ones still run.
#[test]
fn commands_are_checked_for_what_globs_recursive_readers_and_variables_make_them_do() {
    let home = Home::new();
    let root = project(&home);
    write(&root, "qa/secret/plan.txt", "the secret plans\n");
    write(&root, "qa/notes.md", "public plans\n");
    write(&root, ".env", "API_URL=local\n");
    write(
        &root,
        ".claude/settings.json",
        r#"{"permissions": {"deny": ["Read(./qa/secret/**)", "Read(./.env)", "Bash(rm:*)"]}}"#,
    );
    let refused = |command: &str, grounds: &[&str]| {
        let out = lctx(&home, &root, &["run", "--", command]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command}: {}", describe(&out));
        assert!(!String::from_utf8_lossy(&out.stdout).contains("secret plans"), "{command}: {}", describe(&out));
        for part in grounds {
            assert!(stderr.contains(part), "{command}: {part:?} in {stderr}");
        }
    };
    refused(
        "cat q*/secret/plan.txt",
        &["denied by Read(./qa/secret/**)", "`q*/secret/plan.txt`, which matches qa/secret/plan.txt"],
    );
    refused("cat .en?", &["denied by Read(./.env)", "`.en?`, which matches .env"]);
    refused(
        "grep -r plans qa",
        &["denied by Read(./qa/secret/**)", "`grep` reads everything under `qa`, qa/secret/plan.txt among it"],
    );
    refused(
        "tar cf - qa/secret | tar xOf -",
        &["denied by Read(./qa/secret/**)", "`tar` reads everything under `qa/secret`"],
    );
    // A search pattern naming a path is no path: the working directory is read.
    refused("grep -r src", &["denied by Read(./qa/secret/**)", "`grep` reads everything under its working directory"]);
    // Braces expand whether or not files exist.
    refused("cat {.,}env", &["denied by Read(./.env)", "`{.,}env`, which matches .env"]);
    refused("x=rm; $x foo", &["denied by Bash(rm:*)", "`rm foo` matches it"]);
    refused("find qa -name '*.md' -exec rm {} +", &["denied by Bash(rm:*)", "`rm {}` matches it"]);
    // A glob may make the program any program.
    refused("/bin/r? -rf qa", &["requires approval", "the program `/bin/r?` is known only when the command runs"]);
    assert!(root.join("qa/notes.md").exists());
    refused(
        "$(echo rm) x",
        &[
            "requires approval",
            "the program `$(echo rm)` is known only when the command runs",
            "Bash(rm:*)",
            "host's own tool",
        ],
    );
    // A redirection's glob, names xargs reads, a variable's file, what git holds.
    refused("cat < .e*", &["denied by Read(./.env)", "`<` names `.e*`, which matches .env"]);
    refused(
        "find qa -type f | xargs cat",
        &[
            "requires approval",
            "`xargs cat` reads the files named on its input, a file known only when the command runs",
        ],
    );
    refused("cat \"$F\"", &["requires approval", "`cat` reads `$F`, a file known only when the command runs"]);
    refused(
        "f=qa/secret/plan.txt; cat $f",
        &["denied by Read(./qa/secret/**)", "`cat` reads `$f` = `qa/secret/plan.txt`"],
    );
    // A cd to a directory known only when it runs, a subshell's assignment, a write to a variable's file.
    refused(
        "cd \"$(dirname qa/secret/x)\" && cat plan.txt",
        &["requires approval", "`cat` reads `plan.txt` after `cd \"$(dirname qa/secret/x)\"`"],
    );
    refused("x=rm; (x=ls); $x qa/notes.md", &["denied by Bash(rm:*)", "`rm qa/notes.md` matches it"]);
    assert!(root.join("qa/notes.md").exists());
    let git = std::process::Command::new("git").args(["init", "-q"]).current_dir(&root).output().unwrap();
    assert!(git.status.success(), "{}", describe(&git));
    let git = std::process::Command::new("git").args(["add", "qa", "src"]).current_dir(&root).output().unwrap();
    assert!(git.status.success(), "{}", describe(&git));
    refused(
        "git show :qa/secret/plan.txt",
        &["denied by Read(./qa/secret/**)", "`git show` reads `:qa/secret/plan.txt`"],
    );
    refused(
        &format!("git --git-dir={}/.git show :qa/secret/plan.txt", root.display()),
        &["denied by Read(./qa/secret/**)", "`git show` reads `:qa/secret/plan.txt`"],
    );
    refused(
        "git grep plans",
        &[
            "denied by Read(./qa/secret/**)",
            "`git grep` reads the files git tracks under",
            "qa/secret/plan.txt among it",
        ],
    );
    for (command, shown) in [
        ("grep -r fn src", "fn a()"),
        ("cat src/*.rs", "fn a()"),
        ("ls qa", "notes.md"),
        ("git grep -h fn src", "fn a()"),
    ] {
        let out = lctx(&home, &root, &["run", "--", command]);
        assert!(out.status.success(), "{command}: {}", describe(&out));
        assert!(String::from_utf8_lossy(&out.stdout).contains(shown), "{command}: {}", describe(&out));
    }
    // rg skips gitignored files, as it does by default: not refused (rg
    // itself may be missing here, so only the verdict is looked at).
    write(&root, ".gitignore", ".env\nqa/secret/\n");
    let out = lctx(&home, &root, &["run", "--", "rg -l plans"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("denied by"), "{}", describe(&out));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("secret"), "{}", describe(&out));
    // lctx-shell cannot ask, and says why it did not run the command.
    let out = shell_run(&home, &root, &[("CODEX_SANDBOX", "seatbelt")], &["sh", "-c", "$(echo rm) x"]);
    assert_eq!(out.status.code(), Some(126), "{}", describe(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the program `$(echo rm)` is known only when the command runs"), "{stderr}");
}

/// `lctx-shell run -- ARGS…` in `dir` as an agent would reach it (the fake
/// tools first on PATH), with `extra` environment.
/// The results of files under deny and ask rules are taken out before `-n` applies: what is
/// listed, counted and cut is what the agent may see, and the note counts the rest by rule.
#[test]
fn search_limits_and_counts_only_what_the_rules_let_the_agent_see() {
    let home = Home::new();
    let root = project(&home);
    for name in ["a", "b", "c", "d", "e"] {
        write(&root, &format!("evo/{name}.py"), "def evolve(x):\n    return x\n");
    }
    write(
        &root,
        ".claude/settings.json",
        r#"{"permissions": {"deny": ["Read(./evo/b.py)"], "ask": ["Read(./evo/d.py)"]}}"#,
    );
    let settings = root.join(".claude/settings.json").canonicalize().unwrap().display().to_string();
    let rules = format!(
        "the user's Read rules withhold them: ask Read(./evo/d.py) in {settings} (the host's own read asks the \
         user); deny Read(./evo/b.py) in {settings}"
    );
    let search = |args: &[&str]| -> (String, Value) {
        let text = lctx(&home, &root, args);
        assert!(text.status.success(), "{}", describe(&text));
        let json = lctx(&home, &root, &[args, &["--json"]].concat());
        (String::from_utf8_lossy(&text.stdout).into_owned(), serde_json::from_slice(&json.stdout).unwrap())
    };
    for (args, summary) in [
        (&["search", "def evolve", "-n", "3"][..], "3 matches in 3 files"),
        (&["search", "evolve", "-a", "symbol", "-n", "3"], "3 definitions in 3 files"),
        (&["search", "evolve", "-a", "bm25", "-n", "3"], "3 files ranked by bm25"),
    ] {
        let (text, json) = search(args);
        let listed: Vec<&str> =
            text.lines().filter_map(|l| l.split(':').next()).filter(|p| p.ends_with(".py")).collect();
        assert_eq!(listed, ["evo/a.py", "evo/c.py", "evo/e.py"], "{args:?}: {text}");
        assert!(text.contains(summary) && !text.contains("not shown"), "{args:?}: {text}");
        assert!(text.contains(&format!("2 files not searched: {rules}\n")), "{args:?}: {text}");
        assert_eq!((json["shown"].as_u64(), json["total"].as_u64()), (Some(3), Some(3)), "{args:?}: {json}");
    }
    // The limit cuts what may be seen, and the totals do not move with it.
    let (text, json) = search(&["search", "def evolve", "-n", "2"]);
    assert!(text.contains("3 matches in 3 files") && text.contains("… 1 match not shown (limit 2)"), "{text}");
    assert_eq!((json["shown"].as_u64(), json["total"].as_u64()), (Some(2), Some(3)), "{json}");
}

fn shell_run(home: &Home, dir: &Path, extra: &[(&str, &str)], args: &[&str]) -> Output {
    let path = format!("{}:{}", home.path().join("fakebin").display(), std::env::var("PATH").unwrap_or_default());
    let mut cmd = home.command(bin("lctx-shell"));
    cmd.current_dir(dir).env("HOME", home.path().join("user")).env("PATH", path).arg("run").arg("--").args(args);
    // Only the agent a case names runs this shell.
    for var in ["LEAN_CTX_AGENT", "CLAUDECODE", "CODEX_SANDBOX", "CODEX_THREAD_ID", "GEMINI_CLI", "CURSOR_AGENT"] {
        cmd.env_remove(var);
    }
    cmd.envs(extra.iter().copied()).output().unwrap()
}

#[test]
fn lctx_shell_applies_the_rules_to_the_commands_it_runs() {
    let home = Home::new();
    let root = project(&home);
    // A git that records each run, so a refused command is seen not to run.
    let runs = home.path().join("git-runs.log");
    let fake = home.path().join("fakebin/git");
    write(home.path(), "fakebin/git", &format!("#!/bin/sh\necho \"$*\" >> '{}'\necho ran\n", runs.display()));
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    write(
        &root,
        ".claude/settings.json",
        r#"{"permissions": {"deny": ["Bash(git push:*)", "Read(./secrets/**)"], "ask": ["Bash(git reset:*)"]}}"#,
    );
    write(&root, "secrets/prod.txt", "prod credentials\n");
    let ran = || std::fs::read_to_string(&runs).unwrap_or_default();
    let refused = |out: &Output, rule: &str, word: &str| {
        assert_eq!(out.status.code(), Some(126), "{}", describe(out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(rule) && stderr.contains(word), "names {rule}: {stderr}");
        assert!(out.stdout.is_empty(), "{}", describe(out));
    };

    refused(&shell_run(&home, &root, &[], &["git", "push", "origin", "main"]), "Bash(git push:*)", "denied");
    // The files a command names are checked like reads.
    refused(
        &shell_run(&home, &root.join("src"), &[], &["git", "add", "../secrets/prod.txt"]),
        "Read(./secrets/**)",
        "denied",
    );
    // Nobody can be asked in a plain agent shell; Claude Code's own shell
    // tool has asked the user before the command got here.
    refused(
        &shell_run(&home, &root, &[("CODEX_SANDBOX", "seatbelt")], &["git", "reset", "--hard"]),
        "Bash(git reset:*)",
        "ask rule",
    );
    assert_eq!(ran(), "", "nothing refused ran");
    let asked = shell_run(&home, &root, &[("CLAUDECODE", "1")], &["git", "reset", "--hard"]);
    assert!(asked.status.success(), "{}", describe(&asked));
    // A `;` inside an argument is not a second command.
    let quoted = shell_run(&home, &root, &[], &["git", "commit", "-m", "fix; git push"]);
    assert!(
        quoted.status.success() && String::from_utf8_lossy(&quoted.stdout).contains("ran"),
        "{}",
        describe(&quoted)
    );
    assert_eq!(ran(), "reset --hard\ncommit -m fix; git push\n");

    // The same answer from a fallback child, and lean-ctx's own list.
    let fallback = shell_run(&home, &root, &[("LEAN_CTX_NO_DAEMON", "1")], &["git", "push", "--force"]);
    refused(&fallback, "Bash(git push:*)", "denied");
    let set = lctx(&home, &root, &["config", "set", "shell_deny", "git fetch"]);
    assert!(set.status.success(), "{}", describe(&set));
    refused(&shell_run(&home, &root, &[], &["git", "fetch", "origin"]), "git fetch", "denied");
    assert_eq!(ran(), "reset --hard\ncommit -m fix; git push\n", "nothing refused ran");
}

#[test]
fn lctx_shell_asks_again_as_soon_as_a_rule_could_apply() {
    let home = Home::new();
    let root = project(&home);
    let sub = root.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    write(home.path(), "fakebin/git", "#!/bin/sh\necho ran\n");
    std::fs::set_permissions(home.path().join("fakebin/git"), std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .unwrap();
    let runs = |dir: &Path, extra: &[(&str, &str)], args: &[&str]| {
        let out = shell_run(&home, dir, extra, args);
        assert!(out.status.success() && out.stdout == b"ran\n", "{args:?}: {}", describe(&out));
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let refused = |dir: &Path, args: &[&str], rule: &str| {
        let out = shell_run(&home, dir, &[], args);
        assert_eq!(out.status.code(), Some(126), "{args:?}: {}", describe(&out));
        assert!(String::from_utf8_lossy(&out.stderr).contains(rule), "{args:?}: {}", describe(&out));
    };
    // No rule anywhere: the answer is kept, so with no engine to ask the
    // command still runs without a "not checked" note.
    runs(&root, &[], &["git", "status"]);
    runs(&sub, &[], &["git", "status"]);
    let no_engine = [("LEAN_CTX_NO_DAEMON", "1"), ("LEAN_CTX_DAEMON_BIN", "/nonexistent/lean-ctxd")];
    assert_eq!(runs(&root, &no_engine, &["git", "status"]), "", "answered from the kept stamps");
    // A directory never asked about has no kept answer.
    let other = root.join("web");
    assert!(runs(&other, &no_engine, &["git", "status"]).contains("not checked"));

    // A settings file that appears, the config, a repository that appears
    // in between: each is seen on the very next command.
    write(&root, ".claude/settings.json", r#"{"permissions": {"deny": ["Bash(git push:*)"]}}"#);
    refused(&root, &["git", "push"], "Bash(git push:*)");
    std::fs::remove_file(root.join(".claude/settings.json")).unwrap();
    runs(&root, &[], &["git", "push"]);
    let set = lctx(&home, &root, &["config", "set", "shell_deny", "git fetch"]);
    assert!(set.status.success(), "{}", describe(&set));
    refused(&root, &["git", "fetch"], "git fetch");
    refused(&sub, &["git", "fetch"], "git fetch");
    let unset = lctx(&home, &root, &["config", "set", "shell_deny", ""]);
    assert!(unset.status.success(), "{}", describe(&unset));
    runs(&sub, &[], &["git", "tag", "v1"]);
    write(&sub, ".git/HEAD", "ref: refs/heads/main\n");
    write(&sub, ".claude/settings.json", r#"{"permissions": {"deny": ["Bash(git tag:*)"]}}"#);
    refused(&sub, &["git", "tag", "v1"], "Bash(git tag:*)");
}

#[test]
fn a_command_stays_in_the_project_and_read_only_roots_are_never_edited() {
    let home = Home::new();
    let root = project(&home);
    let deps = home.path().join("deps/serde-1.0");
    write(&deps, "src/lib.rs", "pub trait Serialize {}\n");
    let lib = deps.join("src/lib.rs").canonicalize().unwrap();
    let lib = lib.to_str().unwrap();
    let out = lctx(&home, &root, &["read", lib]);
    assert_eq!(out.status.code(), Some(1), "outside the project: {}", describe(&out));

    let deps_root = home.path().join("deps").canonicalize().unwrap();
    let set = lctx(&home, &root, &["config", "set", "read_only_paths", deps_root.to_str().unwrap()]);
    assert!(set.status.success(), "{}", describe(&set));
    let out = lctx(&home, &root, &["read", lib, "-m", "full"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("pub trait Serialize"));
    let out = lctx(&home, &root, &["edit", lib, "--old", "Serialize", "--new", "Hacked"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("read-only root"), "{}", describe(&out));
    assert!(std::fs::read_to_string(lib).unwrap().contains("Serialize"));

    // ctx_shell's cwd: inside the project only.
    let mut mcp_cmd = home.command(bin("lctx-mcp"));
    mcp_cmd.current_dir(&root).env("HOME", home.path().join("user"));
    let mut mcp = Raw::spawn(mcp_cmd);
    mcp.initialize("test-host", "2025-06-18");
    let (text, is_error) = mcp.call_tool(1, "ctx_shell", json!({"command": "pwd", "cwd": "src"}));
    assert!(!is_error && text.contains("/proj/src"), "{text}");
    for outside in ["..", "/", deps_root.to_str().unwrap()] {
        let (text, is_error) = mcp.call_tool(2, "ctx_shell", json!({"command": "pwd", "cwd": outside}));
        assert!(is_error && text.contains("outside the project"), "{outside}: {text}");
    }
}

#[test]
fn secrets_are_masked_in_every_output_and_edits_still_reach_their_lines() {
    let home = Home::new();
    let root = project(&home);
    let github = fake_token("ghp_", 36, 7);
    let aws = fake_token("AKIA", 16, 9).to_uppercase();
    write(&root, ".env", &format!("GITHUB_TOKEN={github}\nAWS_ACCESS_KEY_ID={aws}\nDEBUG=true\n"));
    let leaks = |what: &str, text: &str| {
        assert!(!text.contains(&github) && !text.contains(&aws), "{what} leaks a secret: {text}");
        assert!(text.contains("[REDACTED:"), "{what} shows the marker: {text}");
    };

    // Read, through the daemon and the fallback alike.
    for no_daemon in [false, true] {
        let out = lctx_at(&home, &root, no_daemon, &["read", ".env", "-m", "full", "--json"]);
        assert!(out.status.success(), "{}", describe(&out));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let file = &v["files"][0];
        leaks("read", file["content"].as_str().unwrap());
        assert!(file["content"].as_str().unwrap().contains("DEBUG=true"), "{file}");
        assert_eq!(file["redacted"], 2, "{file}");
        let note = file["note"].as_str().unwrap();
        assert!(note.contains("REDACTED"), "{file}");
        // lctx names its own flag for the way around a marker, not ctx_edit's parameters.
        assert!(note.contains("(lctx edit --lines N-M)") && note.contains("whose --old holds"), "{note}");
        assert!(!note.contains("start_line") && !note.contains("old_string"), "{note}");
    }
    // Shell output, and its archived original.
    let out = lctx(&home, &root, &["run", "--", "cat", ".env"]);
    leaks("shell", &String::from_utf8_lossy(&out.stdout));
    let noisy = format!("for i in $(seq 1 400); do echo \"line $i\"; done; echo \"token={github}\"; exit 3");
    let out = lctx(&home, &root, &["run", "--", &noisy]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    leaks("long shell output", &text);
    let id = text.split("ctx_expand id=").nth(1).unwrap_or_else(|| panic!("shortened and archived: {text}"));
    let id: String = id.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
    let expanded = lctx(&home, &root, &["expand", &id]);
    assert!(expanded.status.success(), "{}", describe(&expanded));
    leaks("expand", &String::from_utf8_lossy(&expanded.stdout));
    let archived = lctx(&home, &root, &["expand", "--search", "token"]);
    assert!(!String::from_utf8_lossy(&archived.stdout).contains(&github), "{}", describe(&archived));
    // Search lines (search skips hidden files such as .env).
    write(&root, "src/ci.rs", &format!("const CI_TOKEN: &str = \"{github}\";\n"));
    let found = lctx(&home, &root, &["search", "CI_TOKEN"]);
    leaks("search", &String::from_utf8_lossy(&found.stdout));
    // Memory.
    let remembered = lctx(&home, &root, &["knowledge", "remember", "ci-token", &format!("the CI uses {github}")]);
    assert!(remembered.status.success(), "{}", describe(&remembered));
    let recalled = lctx(&home, &root, &["knowledge", "recall", "ci"]);
    leaks("knowledge", &String::from_utf8_lossy(&recalled.stdout));
    // Memory holds the mask, not the secret: recall matches words by their start, and a kept
    // secret could be read back a few characters at a time through what matches.
    assert!(String::from_utf8_lossy(&remembered.stdout).contains("stored as [REDACTED:"), "{}", describe(&remembered));
    let probe = lctx(&home, &root, &["knowledge", "recall", &github[4..10]]);
    assert!(String::from_utf8_lossy(&probe.stdout).contains("no matching facts"), "{}", describe(&probe));
    // A category is masked as a key and a value are (the files below hold none of them).
    let categorized = lctx(&home, &root, &["knowledge", "remember", "ci-runner", "linux", "-c", &github]);
    assert!(
        String::from_utf8_lossy(&categorized.stdout).contains("stored as [REDACTED:"),
        "{}",
        describe(&categorized)
    );
    leaks("knowledge list", &String::from_utf8_lossy(&lctx(&home, &root, &["knowledge", "list"]).stdout));
    // A category or key given to find a fact is masked as it was stored, so the fact is found.
    let listed = lctx(&home, &root, &["knowledge", "list", "-c", &github]);
    assert!(String::from_utf8_lossy(&listed.stdout).contains("ci-runner = linux"), "{}", describe(&listed));
    let keyed = lctx(&home, &root, &["knowledge", "remember", &format!("tok {github}"), "v"]);
    assert!(keyed.status.success(), "{}", describe(&keyed));
    let forgot = lctx(&home, &root, &["knowledge", "forget", &format!("tok {github}")]);
    assert!(forgot.status.success(), "{}", describe(&forgot));
    leaks(
        "knowledge forget",
        &format!("{}{}", String::from_utf8_lossy(&forgot.stdout), String::from_utf8_lossy(&forgot.stderr)),
    );
    let noted = lctx(&home, &root, &["--session", "s1", "session", "finding", &format!("token is {github}")]);
    assert!(noted.status.success(), "{}", describe(&noted));
    // Nor does any file the daemon keeps (the database and its write-ahead log).
    for entry in std::fs::read_dir(home.path().join("data")).unwrap().flatten() {
        let bytes = std::fs::read(entry.path()).unwrap_or_default();
        let held = bytes.windows(github.len()).any(|window| window == github.as_bytes());
        assert!(!held, "{} holds the secret", entry.path().display());
    }

    // An edit cannot match a marker; a line edit can replace it.
    let shown = lctx(&home, &root, &["read", ".env", "-m", "full"]);
    let first_line = String::from_utf8_lossy(&shown.stdout).lines().next().unwrap().to_string();
    let out = lctx(&home, &root, &["edit", ".env", "--old", &first_line, "--new", "GITHUB_TOKEN=rotated"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--lines"), "{}", describe(&out));
    let out = lctx(&home, &root, &["edit", ".env", "--lines", "1", "--new", "GITHUB_TOKEN=rotated"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(
        std::fs::read_to_string(root.join(".env")).unwrap(),
        format!("GITHUB_TOKEN=rotated\nAWS_ACCESS_KEY_ID={aws}\nDEBUG=true\n")
    );
    // A line edit that keeps a marker where its secret is (the lines as the agent saw them, one
    // value changed) writes the secret back, not the mask.
    let masked_lines: String = String::from_utf8_lossy(&lctx(&home, &root, &["read", ".env", "-m", "full"]).stdout)
        .lines()
        .skip(1)
        .take(2)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(masked_lines.starts_with("AWS_ACCESS_KEY_ID=[REDACTED:"), "{masked_lines}");
    let edited = masked_lines.replace("DEBUG=true", "DEBUG=false");
    let out = lctx(&home, &root, &["edit", ".env", "--lines", "2-3", "--new", &edited]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(
        std::fs::read_to_string(root.join(".env")).unwrap(),
        format!("GITHUB_TOKEN=rotated\nAWS_ACCESS_KEY_ID={aws}\nDEBUG=false\n")
    );
    // A marker moved onto a changed line (the key renamed) while its secret is written back
    // nowhere is refused: the secret would be lost under the mask.
    let renamed = edited.replace("AWS_ACCESS_KEY_ID=", "AWS_KEY=");
    let out = lctx(&home, &root, &["edit", ".env", "--lines", "2-3", "--new", &renamed]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("would lose a secret or move it"), "{}", describe(&out));
    assert_eq!(
        std::fs::read_to_string(root.join(".env")).unwrap(),
        format!("GITHUB_TOKEN=rotated\nAWS_ACCESS_KEY_ID={aws}\nDEBUG=false\n")
    );
    // A marker that stands for no secret (a doc or a test about redaction) is the text it is.
    let doc = "The read shows `KEY=[REDACTED:api_key]` in place of the value.\n";
    let out = lctx(&home, &root, &["edit", "REDACTION.md", "--create", "--new", doc]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(std::fs::read_to_string(root.join("REDACTION.md")).unwrap(), doc);

    // Turned off, the file is shown as it is.
    let set = lctx(&home, &root, &["config", "set", "redaction", "false"]);
    assert!(set.status.success(), "{}", describe(&set));
    let out = lctx(&home, &root, &["read", ".env", "-m", "full"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains(&aws), "{}", describe(&out));
}

#[test]
fn no_cut_shows_part_of_a_secret_and_no_search_spells_one_out() {
    let home = Home::new();
    let root = project(&home);
    let github = fake_token("ghp_", 36, 11);
    let body: Vec<String> = (0..4).map(|i| fake_token("", 64, 30 + i)).collect();
    // Any eight characters of a secret in a row give part of it away.
    let shows_part = |text: &str| {
        let secrets = std::iter::once(&github).chain(&body);
        secrets.flat_map(|s| (0..=s.len() - 8).map(move |i| &s[i..i + 8])).any(|part| text.contains(part))
    };
    let read = |args: &[&str]| {
        let out = lctx(&home, &root, args);
        assert!(out.status.success(), "{}", describe(&out));
        String::from_utf8_lossy(&out.stdout).to_string()
    };

    // A text without headings is shown by its head, cut at 4,000 characters: here inside the token.
    // (The lines after it make the head cost less than the file, which is otherwise sent whole.)
    let rest = "more notes of the day\n".repeat(400);
    write(&root, "notes.txt", &format!("first line\n{} {github} tail\n{rest}", "w".repeat(3_980)));
    let head = read(&["read", "notes.txt", "-m", "map"]);
    assert!(head.contains("line 2 cut") && !shows_part(&head), "{head}");

    // A key over lines keeps every line where it is: its body reads blank, under its marker.
    let key = format!("-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----", body.join("\n"));
    write(&root, "deploy.pem", &format!("# deploy key\n{key}\nafter = 1\n"));
    let range = read(&["--session", "s", "read", "deploy.pem", "-m", "lines:3-4"]);
    assert!(!shows_part(&range) && range.contains("1 secret shown"), "{range}");
    let full = read(&["--session", "s", "read", "deploy.pem", "-m", "full"]);
    assert!(!shows_part(&full), "{full}");
    assert_eq!(full.lines().nth(1), Some("[REDACTED:private_key]"), "{full}");
    assert_eq!(full.lines().nth(7), Some("after = 1"), "line 8 of the file is line 8 of the view: {full}");
    // A diff of the changed file is made of both versions masked.
    write(&root, "deploy.pem", &format!("# deploy key\n{key}\nafter = 2\n"));
    let diff = read(&["--session", "s", "read", "deploy.pem", "-m", "diff"]);
    assert!(diff.contains("after = 2") && !shows_part(&diff), "{diff}");
    // Replacing some of the key's lines (shown blank) would break it: refused, the file kept.
    let out = lctx(&home, &root, &["edit", "deploy.pem", "--lines", "3-4", "--new", "x"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("part of a secret on lines 2-7"), "{}", describe(&out));
    assert!(std::fs::read_to_string(root.join("deploy.pem")).unwrap().contains(&body[1]));

    // A search's long line is cut around its match after the secret is masked.
    let line = format!("// {} token = \"{github}\" end", "x".repeat(150));
    write(&root, "src/long.rs", &format!("{line}\n"));
    let found = read(&["search", "token", "src"]);
    assert!(found.contains("[REDACTED:github_token]") && !shows_part(&found), "{found}");
    // A regex matches the line as shown, so no pattern tells a secret's characters apart.
    let probe = read(&["search", &github[..7], "src"]);
    assert!(probe.starts_with("no matches"), "{probe}");
    let probe = read(&["search", "token = \"ghp_[A-Za-z0-9]", "src"]);
    assert!(probe.starts_with("no matches"), "{probe}");
    // Not even with a branch for the marker: the raw line decides nothing.
    for guess in [&github[..8], "ghp_0000"] {
        let probe = read(&["search", &format!("token = \"({guess}|\\[)"), "src"]);
        assert!(probe.contains("[REDACTED:github_token]"), "either guess matches the masked line alike: {probe}");
    }
    // A key's body lines are none of any search's lines, and bm25 ranks by none of their words:
    // a file found would tell where the key is. The answer may quote the query, nothing more.
    let query = &body[1][..12];
    for action in ["regex", "bm25"] {
        let found = read(&["search", query, "-a", action]);
        assert!(found.starts_with("no matches"), "{action}: {found}");
        assert!(!found.lines().filter(|line| !line.contains(query)).any(shows_part), "{action}: {found}");
    }
}

/// A broken instruction file never stops a read. A broken permission settings file does, saying
/// which and where: its rules are the user's, and applying none of them silently let a denied
/// file through (a QA pass).
#[test]
fn broken_rule_files_never_stop_a_read_and_a_broken_settings_file_says_it_stops_every_one() {
    let home = Home::new();
    let root = project(&home);
    write(&root, ".claude/settings.json", "{\"permissions\": {\"deny\": [\"Read(./x)\"");
    let out = lctx(&home, &root, &["--host", "claude-code", "read", "src/a.rs"]);
    assert!(!out.status.success(), "{}", describe(&out));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(".claude/settings.json cannot be used (it is not valid JSON: EOF while parsing a list at line 1")
            && said.contains("lean-ctx refuses until the file is fixed"),
        "{said}"
    );
    write(&root, ".claude/settings.json", "{\"permissions\": {\"deny\": [\"Read(./x)\"],}}");
    write(&root, ".claude/rules/broken.md", "---\npaths: [\"src/**\"\nno closing fence\n");
    write(&root, "src/CLAUDE.md", &"A very long rule line.\n".repeat(5_000));
    let outside = home.path().join("outside.md");
    std::fs::write(&outside, "Rules from outside the project.\n").unwrap();
    std::fs::create_dir_all(root.join("src/deep")).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("src/deep/CLAUDE.md")).unwrap();
    let view = read(&home, &root, "s", "claude-code", "src/deep/b.rs");
    assert_eq!(view["content"], "fn b() {}\n", "{view}");
    let all: String = view["rules"].as_array().unwrap().iter().map(|r| r["body"].as_str().unwrap()).collect();
    assert!(!all.contains("Rules from outside the project."), "{view}");
    assert!(all.len() < 100_000, "a huge rule file is cut: {} bytes", all.len());
    assert!(all.contains("truncated"), "and says so");
    let listed = lctx(&home, &root, &["--host", "claude-code", "rules", "src/deep/b.rs"]);
    assert!(listed.status.success(), "{}", describe(&listed));
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(text.contains("note:"), "what could not be used is said: {text}");
}
