//! Claude Code's PreToolUse hook for its Bash tool: `lctx-shell hook
//! claude-code`, registered in Claude Code's settings (hooks reference:
//! `hooks.PreToolUse` is a list of `{matcher, hooks: [{type: "command",
//! command}]}`; the matcher `Bash` selects the shell tool). User scope:
//! `~/.claude/settings.json` (`$CLAUDE_CONFIG_DIR/settings.json` when set);
//! project scope: `.claude/settings.json` in the project root.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::setup::{Env, Scope, jsonc};

/// The hook command for this lctx-shell.
pub fn command(lctx_shell: &Path) -> String {
    let path = lctx_shell.to_string_lossy();
    let plain = path.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c));
    let path = if plain { path.into_owned() } else { format!("'{}'", path.replace('\'', r"'\''")) };
    format!("{path} hook claude-code")
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

/// The settings text with our hook added, `None` when a hook running
/// `lctx-shell hook claude-code` is there already. Only the `hooks` object
/// is rewritten; the rest of the file keeps its bytes.
pub fn with_hook(file: &Path, text: Option<&str>, lctx_shell: &Path) -> Result<Option<String>, String> {
    let text = text.unwrap_or("");
    let located = |e: crate::setup::TextError| format!("{}; fix the file and run again", e.locate(file, text));
    let hooks = jsonc::get(text, &["hooks"]).map_err(located)?;
    let mut members: Vec<(String, Value)> = match hooks {
        None => Vec::new(),
        Some(Value::Object(map)) => map.into_iter().collect(),
        Some(_) => return Err(format!("{}: `hooks` is not an object; fix the file and run again", file.display())),
    };
    let ours = json!({"matcher": "Bash", "hooks": [{"type": "command", "command": command(lctx_shell)}]});
    match members.iter_mut().find(|(k, _)| k == "PreToolUse") {
        Some((_, Value::Array(entries))) => {
            if entries.iter().any(is_ours) {
                return Ok(None);
            }
            entries.push(ours);
        }
        Some(_) => {
            return Err(format!("{}: `hooks.PreToolUse` is not a list; fix the file and run again", file.display()));
        }
        None => members.push(("PreToolUse".into(), Value::Array(vec![ours]))),
    }
    let members: Vec<(&str, Value)> = members.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    jsonc::upsert(text, &["hooks"], &members).map_err(located)
}

/// A PreToolUse entry that runs some `lctx-shell hook claude-code`.
fn is_ours(entry: &Value) -> bool {
    entry["hooks"].as_array().is_some_and(|hooks| {
        hooks.iter().any(|h| {
            h["command"].as_str().is_some_and(|c| c.contains("lctx-shell") && c.ends_with(" hook claude-code"))
        })
    })
}

/// Whether the file registers the hook (for doctor and init's summary).
pub fn registered(file: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(file) else { return false };
    matches!(jsonc::get(&text, &["hooks", "PreToolUse"]), Ok(Some(Value::Array(entries))) if entries.iter().any(is_ours))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hook_joins_other_hooks_and_is_added_once() {
        let file = Path::new("/h/.claude/settings.json");
        let bin = Path::new("/opt/bin/lctx-shell");
        let text =
            "{\n  \"model\": \"x\",\n  \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Edit\", \"hooks\": []}]}\n}\n";
        let after = with_hook(file, Some(text), bin).unwrap().unwrap();
        let value: Value = serde_json::from_str(&after).unwrap();
        assert_eq!(value["model"], "x");
        let entries = value["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0]["matcher"], "Edit");
        assert_eq!(entries[1]["matcher"], "Bash");
        assert_eq!(entries[1]["hooks"][0]["command"], "/opt/bin/lctx-shell hook claude-code");
        assert_eq!(with_hook(file, Some(&after), bin).unwrap(), None);
        let created = with_hook(file, None, Path::new("/a b/lctx-shell")).unwrap().unwrap();
        let value: Value = serde_json::from_str(&created).unwrap();
        assert_eq!(value["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "'/a b/lctx-shell' hook claude-code");
    }

    #[test]
    fn a_broken_file_is_refused_with_its_place() {
        let err = with_hook(Path::new("/s.json"), Some("{\"hooks\": [}"), Path::new("/b")).unwrap_err();
        assert!(err.starts_with("/s.json:1:"), "{err}");
        let err = with_hook(Path::new("/s.json"), Some("{\"hooks\": []}"), Path::new("/b")).unwrap_err();
        assert!(err.contains("not an object"), "{err}");
    }
}
