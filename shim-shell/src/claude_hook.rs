//! `lctx-shell hook claude-code`: Claude Code's PreToolUse hook for its Bash
//! tool. Claude Code runs its commands in a non-interactive shell that never
//! reads the rc files, so the shell hook cannot reach them; this hook does,
//! by rewriting the tool's command into `lctx-shell run -- COMMAND`.
//!
//! Claude Code sends the tool call as JSON on stdin (`tool_name`,
//! `tool_input.command`, …) and reads an answer on stdout:
//! `hookSpecificOutput.updatedInput` replaces the whole tool input, so every
//! other field (description, timeout, run_in_background) is passed on as
//! it came. No `permissionDecision` is given: granting a permission is the
//! user's business, and Claude Code's own rules and prompts decide as before.
//! The rules of the original command are enforced again by `lctx-shell run`
//! (`--unasked`: an ask rule refuses there, since the user was shown the
//! rewritten command, not the original one). So a command an ask rule covers
//! is not rewritten: Claude Code asks its user about it, as it would without
//! the hook.
//!
//! Only a plain command whose program lctx-shell wraps is rewritten: one
//! command, no pipe, list, redirection, substitution or variable assignment,
//! so prefixing it changes nothing but who runs it. Everything else — other
//! tools, unknown programs, routing off, malformed input, any error — gets
//! no answer at all and exit 0: the original command runs unchanged.

use std::io::Read;

use serde_json::{Value, json};

use crate::{hooks, toggle};

/// Hosts with a pre-tool hook this subcommand speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum HookHost {
    ClaudeCode,
}

/// Bytes of hook input read at most; a tool call is far smaller.
const MAX_INPUT: u64 = 4 << 20;

/// Answers one hook call: prints the rewrite, if any. Never fails.
pub fn answer(_host: HookHost) {
    let mut input = String::new();
    if std::io::stdin().take(MAX_INPUT).read_to_string(&mut input).is_err() {
        return;
    }
    let Some(bin) = own_path() else { return };
    let commands = hooks::commands(std::env::var(hooks::COMMANDS_ENV).ok().as_deref()).0;
    let mode = match lean_ctx_common::paths::Dirs::from_env() {
        Ok(dirs) => toggle::effective(std::env::var(toggle::MODE_ENV).ok().as_deref(), &toggle::flag_file(&dirs)).0,
        Err(_) => return,
    };
    if mode == toggle::Mode::Off {
        return;
    }
    let Some((output, command)) = rewrite(&input, &bin, &commands) else { return };
    // The rules are those of the directory Claude Code runs the command in.
    if let Some(cwd) =
        serde_json::from_str::<Value>(&input).ok().and_then(|call| call["cwd"].as_str().map(String::from))
        && std::env::set_current_dir(&cwd).is_err()
    {
        return;
    }
    if !crate::permission::asks(&command) {
        lctx::outln!("{output}");
    }
}

/// This lctx-shell as an absolute path in UTF-8, for the rewritten command.
fn own_path() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    exe.is_absolute().then(|| exe.to_str().map(str::to_string)).flatten()
}

/// The hook's answer for `input` with the command it routes, or `None` to let the command run
/// as it is.
fn rewrite(input: &str, bin: &str, commands: &[String]) -> Option<(String, String)> {
    let call: Value = serde_json::from_str(input).ok()?;
    if call.get("tool_name")?.as_str()? != "Bash" {
        return None;
    }
    let tool_input = call.get("tool_input")?.as_object()?;
    let command = tool_input.get("command")?.as_str()?.trim();
    let program = routable_program(command)?;
    if !commands.iter().any(|c| c == program) {
        return None;
    }
    let mut updated = tool_input.clone();
    let routed = format!("{} run --unasked -- {command}", lean_ctx_shell_syntax::quote(bin));
    updated.insert("command".into(), Value::String(routed));
    let answer = json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "updatedInput": updated,
        }
    });
    Some((answer.to_string(), command.to_string()))
}

/// The program of a command that is one plain simple command, else `None`.
/// Quotes and globs are fine (the shell treats them the same after the
/// prefix); anything that makes it more than one command, redirects it, or
/// sets variables for it is not.
fn routable_program(command: &str) -> Option<&str> {
    const SHELL_SYNTAX: &[char] = &['|', '&', ';', '<', '>', '(', ')', '$', '`', '\n', '\r', '\\'];
    if command.contains(SHELL_SYNTAX) {
        return None;
    }
    let program = command.split_whitespace().next()?;
    let plain = program.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '+' | '-'));
    plain.then_some(program)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commands() -> Vec<String> {
        hooks::commands(None).0
    }

    fn call(command: &str) -> String {
        json!({
            "session_id": "s",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "d", "timeout": 120000}
        })
        .to_string()
    }

    #[test]
    fn a_wrapped_program_is_routed_and_the_other_fields_kept() {
        let (out, routed) = rewrite(&call("cargo test --workspace"), "/opt/b/lctx-shell", &commands()).unwrap();
        assert_eq!(routed, "cargo test --workspace");
        let out: Value = serde_json::from_str(&out).unwrap();
        let specific = &out["hookSpecificOutput"];
        assert_eq!(specific["hookEventName"], "PreToolUse");
        assert_eq!(specific["updatedInput"]["command"], "'/opt/b/lctx-shell' run --unasked -- cargo test --workspace");
        assert_eq!(specific["updatedInput"]["description"], "d");
        assert_eq!(specific["updatedInput"]["timeout"], 120000);
        assert!(specific.get("permissionDecision").is_none(), "the hook never grants a permission");
    }

    #[test]
    fn quoting_survives_the_prefix() {
        let (out, _) = rewrite(&call("git log --format='%h %s' -n 3"), "/b", &commands()).unwrap();
        assert!(out.contains(r#"run --unasked -- git log --format='%h %s' -n 3""#), "{out}");
    }

    #[test]
    fn anything_else_is_left_alone() {
        for command in [
            "python3 x.py",
            "git status | head",
            "cd x && cargo test",
            "cargo test > log",
            "FOO=1 cargo test",
            "echo $(git rev-parse HEAD)",
            "git status; rm x",
            "",
            "./git status",
        ] {
            assert_eq!(rewrite(&call(command), "/b", &commands()), None, "{command}");
        }
        let other_tool = json!({"tool_name": "Read", "tool_input": {"file_path": "/x"}}).to_string();
        assert_eq!(rewrite(&other_tool, "/b", &commands()), None);
        for malformed in
            ["", "not json", "[]", r#"{"tool_name":"Bash"}"#, r#"{"tool_name":"Bash","tool_input":{"command":7}}"#]
        {
            assert_eq!(rewrite(malformed, "/b", &commands()), None, "{malformed}");
        }
    }
}
