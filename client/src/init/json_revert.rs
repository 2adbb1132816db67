//! Taking out of a JSON file only what `lctx init` put in, when the file changed since: a host
//! rewrites its own files (Claude Code saves `~/.claude.json` with its counters and projects all
//! the time), so restoring the file as it was before init would throw away everything the host
//! wrote since.
//!
//! A three-way revert of the values: each member init added or changed goes back to what it was
//! when it still holds what init wrote; an array init appended to loses the elements init added
//! and keeps the others; a member that both init and the host changed is a conflict, and the
//! file is left to the caller's usual rule (refuse, or restore under `--force`).

use serde_json::{Map, Value};

/// `current` with init's change (`before` → `after`) taken out, as the text to write; `None` when
/// a text is no JSON object or a member init wrote was changed since.
pub fn revert(before: Option<&str>, after: &str, current: &str) -> Option<String> {
    let before = match before {
        Some(text) => serde_json::from_str(text).ok()?,
        None => Value::Object(Map::new()),
    };
    let (after, current): (Value, Value) = (serde_json::from_str(after).ok()?, serde_json::from_str(current).ok()?);
    let reverted = revert_value(&before, &after, current)?;
    let mut text = serde_json::to_string_pretty(&reverted).ok()?;
    text.push('\n');
    Some(text)
}

/// `current` with what changed from `before` to `after` undone, where `current` still holds it.
fn revert_value(before: &Value, after: &Value, current: Value) -> Option<Value> {
    if current == *after {
        return Some(before.clone());
    }
    match (before, after, current) {
        (Value::Object(before), Value::Object(after), Value::Object(mut current)) => {
            let keys: Vec<&String> = after.keys().chain(before.keys().filter(|k| !after.contains_key(*k))).collect();
            for key in keys {
                let (was, wrote) = (before.get(key), after.get(key));
                if was == wrote {
                    continue;
                }
                let now = current.remove(key);
                let put_back = match (was, wrote, now) {
                    // Removed by init and not put back since: it comes back.
                    (Some(was), None, None) => Some(was.clone()),
                    (was, Some(wrote), Some(now)) => {
                        // A member init added is taken out of as if it had been empty before.
                        let empty = match wrote {
                            Value::Object(_) => Value::Object(Map::new()),
                            Value::Array(_) => Value::Array(Vec::new()),
                            _ => Value::Null,
                        };
                        let reverted = revert_value(was.unwrap_or(&empty), wrote, now)?;
                        // One init added, left as it was before (empty), goes.
                        (was.is_some() || reverted != empty).then_some(reverted)
                    }
                    // Init's member removed since: nothing of init's is left there.
                    (_, Some(_), None) => None,
                    // Init removed it and the host added it again: the host's.
                    (_, None, Some(now)) => Some(now),
                    (None, None, None) => None,
                };
                if let Some(value) = put_back {
                    current.insert(key.clone(), value);
                }
            }
            Some(Value::Object(current))
        }
        // A list init appended to (hooks): the elements it added go, the host's stay.
        (Value::Array(before), Value::Array(after), Value::Array(current)) if after.starts_with(before) => {
            let added = &after[before.len()..];
            Some(Value::Array(current.into_iter().filter(|element| !added.contains(element)).collect()))
        }
        // A value both init and the host changed: whose it is cannot be told.
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn revert_json(before: Option<Value>, after: Value, current: Value) -> Option<Value> {
        let before = before.map(|value| value.to_string());
        let text = revert(before.as_deref(), &after.to_string(), &current.to_string())?;
        Some(serde_json::from_str(&text).unwrap())
    }

    #[test]
    fn what_init_added_goes_and_what_the_host_wrote_since_stays() {
        let before = json!({"numStartups": 1, "mcpServers": {"docs": {"command": "npx"}}});
        let after = json!({"numStartups": 1, "mcpServers": {"docs": {"command": "npx"}, "lean-ctx": {"command": "/b/lctx-mcp"}}});
        let current = json!({"numStartups": 7, "projects": {"/p": {}}, "mcpServers": {"docs": {"command": "npx"}, "lean-ctx": {"command": "/b/lctx-mcp"}}});
        assert_eq!(
            revert_json(Some(before), after, current),
            Some(json!({"numStartups": 7, "projects": {"/p": {}}, "mcpServers": {"docs": {"command": "npx"}}}))
        );
    }

    #[test]
    fn hooks_init_appended_go_and_the_host_s_stay() {
        let ours = json!({"matcher": "Bash", "hooks": [{"type": "command", "command": "lctx-shell hook claude-code"}]});
        let theirs = json!({"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt"}]});
        let after = json!({"hooks": {"PreToolUse": [ours.clone()]}});
        let current = json!({"hooks": {"PreToolUse": [ours, theirs.clone()]}, "model": "opus"});
        // The file did not exist before init.
        assert_eq!(
            revert_json(None, after, current),
            Some(json!({"hooks": {"PreToolUse": [theirs]}, "model": "opus"}))
        );
    }

    #[test]
    fn a_member_both_changed_or_a_text_that_is_no_json_is_left_to_the_caller() {
        let before = json!({"mcpServers": {}});
        let after = json!({"mcpServers": {"lean-ctx": {"command": "/b/lctx-mcp"}}});
        let edited = json!({"mcpServers": {"lean-ctx": {"command": "/elsewhere/lctx-mcp"}}});
        assert_eq!(revert_json(Some(before.clone()), after.clone(), edited), None);
        assert_eq!(revert(Some("{}"), "{}", "# shell\n"), None);
        // Init's member removed since by the host: nothing to take out.
        assert_eq!(
            revert_json(Some(before), after, json!({"mcpServers": {}, "x": 1})),
            Some(json!({"mcpServers": {}, "x": 1}))
        );
    }
}
