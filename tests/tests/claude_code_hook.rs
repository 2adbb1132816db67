//! `lctx-shell hook claude-code`, Claude Code's PreToolUse hook, end to end:
//! the tool call's JSON in, the answer's JSON out, for a routed command, an
//! unrouted one and malformed input (no answer: the original runs); and the
//! rewritten command, run by a shell as Claude Code would, runs the program
//! through lctx-shell with its exit code and error line.

use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::process::{Output, Stdio};

use lean_ctx_tests::{Home, bin, describe};

/// A failing `git` that says which program started it.
const PROBE_GIT: &str = r#"#!/bin/sh
parent=$(cat /proc/$PPID/comm 2>/dev/null || ps -o comm= -p $PPID)
echo "started-by=${parent##*/}"
echo "error: something failed at src/lib.rs:12" >&2
exit 3
"#;

fn hook(home: &Home, input: &str, env: &[(&str, &str)]) -> Output {
    let mut cmd = home.command(bin("lctx-shell"));
    cmd.args(["hook", "claude-code"])
        .env_remove("LEAN_CTX_SHELL")
        .env_remove("LEAN_CTX_SHELL_COMMANDS")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start lctx-shell hook");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn bash_call(command: &str) -> String {
    bash_call_in(command, std::path::Path::new("/tmp"))
}

fn bash_call_in(command: &str, cwd: &std::path::Path) -> String {
    serde_json::json!({
        "session_id": "abc",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Build", "timeout": 120000, "run_in_background": false},
        "tool_use_id": "toolu_1"
    })
    .to_string()
}

#[test]
fn a_routed_command_is_rewritten_and_runs_through_lctx_shell_with_its_exit_code() {
    let home = Home::new();
    let out = hook(&home, &bash_call("git status --short"), &[]);
    assert!(out.status.success(), "{}", describe(&out));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON answer");
    let specific = &answer["hookSpecificOutput"];
    assert_eq!(specific["hookEventName"], "PreToolUse");
    assert!(specific.get("permissionDecision").is_none(), "the hook grants no permission: {answer}");
    let updated = &specific["updatedInput"];
    assert_eq!(updated["description"], "Build", "the other fields pass through");
    assert_eq!(updated["timeout"], 120000);
    assert_eq!(updated["run_in_background"], false);
    let command = updated["command"].as_str().unwrap();
    assert!(command.ends_with(" run --unasked -- git status --short"), "{command}");
    assert!(command.contains(&*bin("lctx-shell").to_string_lossy()), "by absolute path: {command}");

    // Claude Code runs the updated command with its shell.
    let fake = home.path().join("fakebin");
    fs::create_dir_all(&fake).unwrap();
    fs::write(fake.join("git"), PROBE_GIT).unwrap();
    fs::set_permissions(fake.join("git"), fs::Permissions::from_mode(0o755)).unwrap();
    let run = home
        .command("bash")
        .arg("-c")
        .arg(command)
        .env("PATH", format!("{}:/usr/bin:/bin", fake.display()))
        .env("CLAUDECODE", "1")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(3), "the command's own exit code: {}", describe(&run));
    let shown = String::from_utf8_lossy(&run.stdout);
    assert!(shown.contains("started-by=lctx-shell"), "git ran under lctx-shell: {}", describe(&run));
    assert!(shown.contains("error: something failed at src/lib.rs:12"), "stderr merged, the error kept: {shown}");
}

#[test]
fn an_unrouted_command_and_other_tools_get_no_answer() {
    let home = Home::new();
    for command in ["python3 train.py", "git status | head -3", "cd sub && cargo test", "FOO=1 git log"] {
        let out = hook(&home, &bash_call(command), &[]);
        assert!(out.status.success() && out.stdout.is_empty(), "{command}: {}", describe(&out));
    }
    let read = r#"{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/x"}}"#;
    let out = hook(&home, read, &[]);
    assert!(out.status.success() && out.stdout.is_empty(), "{}", describe(&out));
    let off = hook(&home, &bash_call("git status"), &[("LEAN_CTX_SHELL", "off")]);
    assert!(off.status.success() && off.stdout.is_empty(), "routing off: {}", describe(&off));
}

#[test]
fn malformed_input_fails_open() {
    let home = Home::new();
    for input in ["", "{not json", "[1,2]", r#"{"tool_name":"Bash","tool_input":{"command":["git"]}}"#] {
        let out = hook(&home, input, &[]);
        assert_eq!(out.status.code(), Some(0), "{input:?}: {}", describe(&out));
        assert!(out.stdout.is_empty(), "no rewrite for {input:?}: {}", describe(&out));
    }
}

#[test]
fn the_rewritten_command_still_obeys_the_rules_of_the_original() {
    let home = Home::new();
    let root = home.path().join("proj");
    fs::create_dir_all(root.join(".git")).unwrap();
    fs::create_dir_all(home.path().join("user")).unwrap();
    fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    fs::create_dir_all(root.join(".claude")).unwrap();
    fs::write(
        root.join(".claude/settings.json"),
        r#"{"permissions": {"deny": ["Bash(git push:*)"], "ask": ["Bash(git reset:*)"]}}"#,
    )
    .unwrap();
    let runs = home.path().join("git-runs.log");
    let fake = home.path().join("fakebin");
    fs::create_dir_all(&fake).unwrap();
    fs::write(fake.join("git"), format!("#!/bin/sh\necho \"$*\" >> '{}'\necho ran\n", runs.display())).unwrap();
    fs::set_permissions(fake.join("git"), fs::Permissions::from_mode(0o755)).unwrap();
    let user_home = home.path().join("user");
    let asked = |command: &str| hook(&home, &bash_call_in(command, &root), &[("HOME", user_home.to_str().unwrap())]);
    // What Claude Code would run for each command, in its shell tool (CLAUDECODE set).
    let run = |command: &str| {
        let answer: serde_json::Value = serde_json::from_slice(&asked(command).stdout).unwrap();
        let rewritten = answer["hookSpecificOutput"]["updatedInput"]["command"].as_str().unwrap().to_string();
        home.command("bash")
            .arg("-c")
            .arg(rewritten)
            .current_dir(&root)
            .env("HOME", home.path().join("user"))
            .env("PATH", format!("{}:/usr/bin:/bin", fake.display()))
            .env("CLAUDECODE", "1")
            .output()
            .unwrap()
    };
    let out = run("git push origin main");
    assert_eq!(out.status.code(), Some(126), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Bash(git push:*)"), "{}", describe(&out));
    // QA: a command an ask rule covers was rewritten, and lctx-shell, which cannot ask, refused
    // it even after the user approved it in Claude Code. It is left as it is: Claude Code asks.
    let ask = asked("git reset --hard");
    assert!(ask.status.success() && ask.stdout.is_empty(), "no rewrite: {}", describe(&ask));
    assert_eq!(fs::read_to_string(&runs).unwrap_or_default(), "", "nothing refused ran");
    let allowed = run("git status");
    assert!(
        allowed.status.success() && String::from_utf8_lossy(&allowed.stdout).contains("ran"),
        "{}",
        describe(&allowed)
    );
}
