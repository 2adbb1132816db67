//! Claude Code's PreToolUse hook for its Bash tool: `lctx-shell hook
//! claude-code`, registered in Claude Code's settings (hooks reference:
//! `hooks.PreToolUse` is a list of `{matcher, hooks: [{type: "command",
//! command}]}`; the matcher `Bash` selects the shell tool). User scope:
//! `~/.claude/settings.json` (`$CLAUDE_CONFIG_DIR/settings.json` when set);
//! project scope: `.claude/settings.json` in the project root.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::hook_command;
use crate::setup::{Env, Scope, jsonc};
use jsonc::Step;

/// The hook command for this lctx-shell.
pub fn command(lctx_shell: &Path) -> String {
    format!("{} hook claude-code", shell_word(lctx_shell))
}

/// `path` as one shell word: as it is when plain, else single-quoted.
fn shell_word(path: &Path) -> String {
    let path = path.to_string_lossy();
    let plain = path.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c));
    if plain { path.into_owned() } else { format!("'{}'", path.replace('\'', r"'\''")) }
}

pub fn settings_file(env: &Env, scope: Scope) -> Result<PathBuf, String> {
    match scope {
        Scope::User => Ok(match &env.claude_config_dir {
            Some(dir) => dir.join("settings.json"),
            None => env.home.join(".claude/settings.json"),
        }),
        Scope::Project => Ok(env.project_root()?.join(".claude/settings.json")),
    }
}

/// The settings text with our hook added, `None` when it is there already
/// and runs this `lctx_shell`. Every other byte of the file is kept: the
/// entry is appended to the `PreToolUse` list, or the list is added. A hook
/// of ours that runs another lctx-shell (an earlier install elsewhere,
/// perhaps gone) is pointed at this one in place: only the program's word
/// of its command changes, so a wrapper before it (`nice -n 5 …`) and the
/// entry's layout stay.
pub fn with_hook(env: &Env, file: &Path, text: Option<&str>, lctx_shell: &Path) -> Result<Option<String>, String> {
    let text = text.unwrap_or("");
    let located = |e: crate::setup::TextError| format!("{}; fix the file and run again", e.locate(file, text));
    let path = ["hooks", "PreToolUse"];
    match jsonc::get(text, &["hooks"]).map_err(located)? {
        None | Some(Value::Object(_)) => {}
        Some(_) => return Err(format!("{}: `hooks` is not an object; fix the file and run again", file.display())),
    }
    let command = command(lctx_shell);
    let ours = json!({"matcher": "Bash", "hooks": [{"type": "command", "command": command}]});
    match jsonc::get(text, &path).map_err(located)? {
        Some(Value::Array(entries)) if entries.iter().any(is_ours) => {
            let mut out: Option<String> = None;
            for (index, entry) in entries.iter().enumerate() {
                for (item, hook) in entry["hooks"].as_array().into_iter().flatten().enumerate() {
                    let Some(updated) = hook["command"].as_str().and_then(|c| running(env, c, lctx_shell)) else {
                        continue;
                    };
                    let at = [
                        Step::Key("hooks"),
                        Step::Key("PreToolUse"),
                        Step::Item(index),
                        Step::Key("hooks"),
                        Step::Item(item),
                        Step::Key("command"),
                    ];
                    let current = out.as_deref().unwrap_or(text);
                    if let Some(updated) = jsonc::replace_value(current, &at, &Value::from(updated)).map_err(located)? {
                        out = Some(updated);
                    }
                }
            }
            Ok(out)
        }
        Some(Value::Array(_)) => jsonc::push_item(text, &path, &ours).map_err(located),
        Some(_) => Err(format!("{}: `hooks.PreToolUse` is not a list; fix the file and run again", file.display())),
        None => jsonc::set(text, &path, &json!([ours])).map_err(located),
    }
}

/// The settings text without our hook entries, every other byte kept;
/// `None` when it has none. The `PreToolUse` list goes too when that leaves
/// it empty, unless the file had one before init (`before`), and so does a
/// `hooks` object it leaves empty, unless the file had that before init. An entry that
/// holds hooks of the user's beside ours is refused: taking ours out of it
/// would rewrite the user's.
pub fn without_hook(file: &Path, text: &str, before: Option<&str>) -> Result<Option<String>, String> {
    let located = |e: crate::setup::TextError| format!("{}; fix the file and run again", e.locate(file, text));
    let path = ["hooks", "PreToolUse"];
    let Some(Value::Array(entries)) = jsonc::get(text, &path).map_err(located)? else { return Ok(None) };
    let ours: Vec<usize> = (0..entries.len()).filter(|&i| is_ours(&entries[i])).collect();
    if ours.iter().any(|&i| !entries[i]["hooks"].as_array().is_some_and(|h| h.iter().all(is_our_command))) {
        return Err("lean-ctx's PreToolUse entry holds other hooks too".into());
    }
    let had_list = before.is_some_and(|b| matches!(jsonc::get(b, &path), Ok(Some(_))));
    if !ours.is_empty() && ours.len() == entries.len() && !had_list {
        let had_hooks = before.is_some_and(|b| matches!(jsonc::get(b, &["hooks"]), Ok(Some(_))));
        let remove = if had_hooks { jsonc::remove_member } else { jsonc::remove };
        return remove(text, &path).map_err(located);
    }
    let mut out = None;
    for &i in ours.iter().rev() {
        let current = out.as_deref().unwrap_or(text);
        out = Some(jsonc::remove_item(current, &path, i).map_err(located)?.unwrap_or_else(|| current.to_string()));
    }
    Ok(out)
}

/// Hook `command` (one of ours or not) pointed at `lctx_shell`; `None` when it
/// is not ours or runs that lctx-shell already: by path, by a name PATH finds
/// it by (bare, or in `$(which …)`), or through a link to it (a package
/// manager's stable link, which outlives upgrades: not to be replaced by
/// what it points to now). Only the program's word changes; a command whose
/// program lctx cannot read is replaced whole.
fn running(env: &Env, command: &str, lctx_shell: &Path) -> Option<String> {
    if !is_our_command_line(command) {
        return None;
    }
    let Some(word) = hook_command::program_word(command, &env.home) else { return Some(self::command(lctx_shell)) };
    let runs = word.program.as_deref().map(|program| match program.components().count() {
        1 => env.path.iter().map(|dir| dir.join(program)).find(|p| crate::options::is_executable(p)),
        _ => Some(program.to_path_buf()),
    });
    if runs.flatten().is_some_and(|runs| same_file(&runs, lctx_shell)) {
        return None;
    }
    Some(format!("{}{}{}", &command[..word.span.start], shell_word(lctx_shell), &command[word.span.end..]))
}

/// Whether `a` and `b` are one file: the same path, or links to the same file.
fn same_file(a: &Path, b: &Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
}

/// What each hook of ours in `text` runs: the lctx-shell it names (see
/// [`hook_command`]), or its command as written when only running it would tell.
pub fn hook_programs(text: &str, home: &Path) -> Vec<Result<PathBuf, String>> {
    let Ok(Some(Value::Array(entries))) = jsonc::get(text, &["hooks", "PreToolUse"]) else { return Vec::new() };
    entries
        .iter()
        .flat_map(|entry| entry["hooks"].as_array().into_iter().flatten())
        .filter(|hook| is_our_command(hook))
        .filter_map(|hook| hook["command"].as_str())
        .map(|command| {
            hook_command::program_word(command, home).and_then(|w| w.program).ok_or_else(|| command.to_string())
        })
        .collect()
}

/// Whether `text` registers our hook.
pub fn holds_hook(text: &str) -> bool {
    matches!(jsonc::get(text, &["hooks", "PreToolUse"]), Ok(Some(Value::Array(entries))) if entries.iter().any(is_ours))
}

/// A PreToolUse entry that runs some `lctx-shell hook claude-code`.
fn is_ours(entry: &Value) -> bool {
    entry["hooks"].as_array().is_some_and(|hooks| hooks.iter().any(is_our_command))
}

fn is_our_command(hook: &Value) -> bool {
    hook["command"].as_str().is_some_and(is_our_command_line)
}

fn is_our_command_line(command: &str) -> bool {
    command.contains("lctx-shell") && command.ends_with(" hook claude-code")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> Env {
        Env::plain("/h", "/p")
    }

    #[test]
    fn a_user_s_wrapper_and_layout_stay_when_the_hook_is_pointed_here() {
        let file = Path::new("/h/.claude/settings.json");
        let entry = |command: &str| {
            format!(
                "{{\n  \"hooks\": {{\n    \"PreToolUse\": [\n      {{\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          \
                 {{\n            \"type\": \"command\",\n            \"command\": \"{command}\",\n            \"timeout\": 30\n          \
                 }}\n        ]\n      }}\n    ]\n  }}\n}}\n"
            )
        };
        let old = entry("nice -n 5 ~/old/lctx-shell hook claude-code");
        let new = with_hook(&env(), file, Some(&old), Path::new("/new dir/lctx-shell")).unwrap().unwrap();
        assert_eq!(new, entry("nice -n 5 '/new dir/lctx-shell' hook claude-code"), "only the program's word changed");
        assert_eq!(hook_programs(&new, Path::new("/h")), [Ok(PathBuf::from("/new dir/lctx-shell"))]);
        // Running this lctx-shell already, through a wrapper, from home or by a name PATH finds: nothing to do.
        let here = Path::new("/h/bin/lctx-shell");
        for command in ["env X=1 /h/bin/lctx-shell hook claude-code", "~/bin/lctx-shell hook claude-code"] {
            assert_eq!(with_hook(&env(), file, Some(&entry(command)), here).unwrap(), None, "{command}");
        }
        let dir = tempfile::tempdir().unwrap();
        let on_path = dir.path().join("lctx-shell");
        std::fs::write(&on_path, "").unwrap();
        std::fs::set_permissions(&on_path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        let env = Env { path: vec![dir.path().into()], ..env() };
        let bare = entry("env X=1 lctx-shell hook claude-code");
        assert_eq!(with_hook(&env, file, Some(&bare), &on_path).unwrap(), None);
        // What only running it would tell is named as written.
        let unknown = entry("$LCTX/lctx-shell hook claude-code");
        assert_eq!(hook_programs(&unknown, Path::new("/h")), [Err("$LCTX/lctx-shell hook claude-code".to_string())]);
    }

    #[test]
    fn a_hook_finding_this_lctx_shell_on_path_is_left_as_written() {
        let file = Path::new("/h/.claude/settings.json");
        let settings = |command: &str| {
            json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}})
                .to_string()
        };
        let executable = |path: &Path| {
            std::fs::write(path, "").unwrap();
            std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        };
        let (install, links, other) =
            (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let ours = install.path().join("lctx-shell");
        executable(&ours);
        // PATH finds it through a link, as a package manager installs it.
        std::os::unix::fs::symlink(&ours, links.path().join("lctx-shell")).unwrap();
        let env = Env { path: vec![links.path().into()], ..env() };
        let found = [
            "lctx-shell hook claude-code",
            "$(which lctx-shell) hook claude-code",
            "$(command -v lctx-shell) hook claude-code",
        ];
        for command in found {
            assert_eq!(with_hook(&env, file, Some(&settings(command)), &ours).unwrap(), None, "{command}");
        }
        // One that finds another lctx-shell is pointed at this one, in place.
        executable(&other.path().join("lctx-shell"));
        let env = Env { path: vec![other.path().into()], ..env };
        let pointed =
            with_hook(&env, file, Some(&settings("nice $(which lctx-shell) hook claude-code")), &ours).unwrap();
        assert_eq!(pointed, Some(settings(&format!("nice {} hook claude-code", ours.display()))));
    }

    #[test]
    fn the_hook_joins_other_hooks_and_is_added_once() {
        let file = Path::new("/h/.claude/settings.json");
        let bin = Path::new("/opt/bin/lctx-shell");
        let text =
            "{\n  \"model\": \"x\",\n  \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Edit\", \"hooks\": []}]}\n}\n";
        let after = with_hook(&env(), file, Some(text), bin).unwrap().unwrap();
        let kept = "{\n  \"model\": \"x\",\n  \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Edit\", \"hooks\": []}, {";
        assert!(after.starts_with(kept), "the user's bytes stay: {after}");
        let value: Value = serde_json::from_str(&after).unwrap();
        assert_eq!(value["model"], "x");
        let entries = value["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0]["matcher"], "Edit");
        assert_eq!(entries[1]["matcher"], "Bash");
        assert_eq!(entries[1]["hooks"][0]["command"], "/opt/bin/lctx-shell hook claude-code");
        assert_eq!(with_hook(&env(), file, Some(&after), bin).unwrap(), None);
        let created = with_hook(&env(), file, None, Path::new("/a b/lctx-shell")).unwrap().unwrap();
        let value: Value = serde_json::from_str(&created).unwrap();
        assert_eq!(value["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "'/a b/lctx-shell' hook claude-code");
        assert_eq!(hook_programs(&created, Path::new("/h")), [Ok(PathBuf::from("/a b/lctx-shell"))]);
    }

    #[test]
    fn a_hook_running_another_lctx_shell_is_pointed_at_this_one_in_place() {
        let file = Path::new("/h/.claude/settings.json");
        let old =
            with_hook(&env(), file, Some("{\n  \"model\": \"x\"\n}\n"), Path::new("/old/lctx-shell")).unwrap().unwrap();
        let old = old.replacen("\"command\"", "\"timeout\": 30, \"command\"", 1);
        let new = with_hook(&env(), file, Some(&old), Path::new("/new/lctx-shell")).unwrap().unwrap();
        let value: Value = serde_json::from_str(&new).unwrap();
        let entries = value["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(entries.len(), 1, "replaced, not added: {new}");
        assert_eq!(entries[0]["hooks"][0]["command"], "/new/lctx-shell hook claude-code");
        assert_eq!(entries[0]["hooks"][0]["timeout"], 30, "the user's field stays");
        assert!(new.starts_with("{\n  \"model\": \"x\","), "{new}");
        assert_eq!(hook_programs(&new, Path::new("/h")), [Ok(PathBuf::from("/new/lctx-shell"))]);
        assert_eq!(with_hook(&env(), file, Some(&new), Path::new("/new/lctx-shell")).unwrap(), None);
    }

    #[test]
    fn only_our_hook_is_taken_out() {
        let file = Path::new("/h/.claude/settings.json");
        let before = "{\n  \"model\": \"x\"\n}\n";
        let ours = with_hook(&env(), file, Some(before), Path::new("/b/lctx-shell")).unwrap().unwrap();
        // Claude Code changed a setting since; taking the hook out keeps it.
        let later = ours.replacen("\"model\": \"x\"", "\"model\": \"y\",\n  \"theme\": \"dark\"", 1);
        let out = without_hook(file, &later, Some(before)).unwrap().unwrap();
        assert_eq!(out, "{\n  \"model\": \"y\",\n  \"theme\": \"dark\"\n}\n");
        assert_eq!(without_hook(file, &out, Some(before)).unwrap(), None, "nothing left to take out");
        // The user's own entries keep their bytes; so does a list the file had before.
        let text = r#"{"hooks": {"PreToolUse": [{"matcher":"Edit" , "hooks": []},
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "/b/lctx-shell hook claude-code"}]}]}}"#;
        let out = without_hook(file, text, Some("{}")).unwrap().unwrap();
        assert_eq!(out, r#"{"hooks": {"PreToolUse": [{"matcher":"Edit" , "hooks": []}]}}"#);
        let had_list = r#"{"hooks": {"PreToolUse": []}}"#;
        let only_ours = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "/b/lctx-shell hook claude-code"}]}]}}"#;
        assert_eq!(without_hook(file, only_ours, Some(had_list)).unwrap().unwrap(), had_list);
        // An empty `hooks` of the user's stays, in whatever layout the host wrote since.
        let had_hooks = "{\"hooks\": {}}";
        let reformatted = with_hook(&env(), file, Some(had_hooks), Path::new("/b/lctx-shell")).unwrap().unwrap();
        let reformatted = serde_json::to_string_pretty(&serde_json::from_str::<Value>(&reformatted).unwrap()).unwrap();
        assert_eq!(without_hook(file, &reformatted, Some(had_hooks)).unwrap().unwrap(), "{\n  \"hooks\": {}\n}");
        assert_eq!(without_hook(file, &reformatted, Some("{}")).unwrap().unwrap(), "{}");
        // A hook of the user's added to our entry: not ours to rewrite.
        let mixed = only_ours.replace("}]}]", r#"}, {"type": "command", "command": "audit"}]}]"#);
        assert!(without_hook(file, &mixed, Some("{}")).unwrap_err().contains("other hooks"));
    }

    #[test]
    fn a_broken_file_is_refused_with_its_place() {
        let err = with_hook(&env(), Path::new("/s.json"), Some("{\"hooks\": [}"), Path::new("/b")).unwrap_err();
        assert!(err.starts_with("/s.json:1:"), "{err}");
        let err = with_hook(&env(), Path::new("/s.json"), Some("{\"hooks\": []}"), Path::new("/b")).unwrap_err();
        assert!(err.contains("not an object"), "{err}");
    }
}
