//! Claude Code settings files: the rule lists under `permissions`.

use std::fs;
use std::io::ErrorKind;
use std::path::Path;

use serde_json::Value;

/// Which list a rule came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum List {
    Allow,
    Ask,
    Deny,
}

impl List {
    fn key(self) -> &'static str {
        match self {
            List::Allow => "allow",
            List::Ask => "ask",
            List::Deny => "deny",
        }
    }
}

/// The rules of one settings file, and notes on what had to be left out.
#[derive(Debug, Default)]
pub(crate) struct Entries {
    pub(crate) rules: Vec<(List, String)>,
    pub(crate) notes: Vec<String>,
}

/// The rule strings in `path`. A missing file has none and no note; a file
/// that cannot be read or parsed has none and a note; a list or entry of the
/// wrong type is noted and left out while the rest applies.
pub(crate) fn read(path: &Path) -> Entries {
    let mut entries = Entries::default();
    let shown = path.display();
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => return entries,
        Err(e) => {
            entries.notes.push(format!("{shown} cannot be read ({e}); its permission rules are not applied"));
            return entries;
        }
    };
    if text.trim().is_empty() {
        return entries;
    }
    let settings: Value = match serde_json::from_str(&text) {
        Ok(settings) => settings,
        Err(e) => {
            entries
                .notes
                .push(format!("{shown} is not valid JSON ({e}); its permission rules are not applied, fix the file"));
            return entries;
        }
    };
    if !settings.is_object() {
        entries.notes.push(format!("{shown} is not a JSON object; its permission rules are not applied"));
        return entries;
    }
    let permissions = match settings.get("permissions") {
        None | Some(Value::Null) => return entries,
        Some(Value::Object(permissions)) => permissions,
        Some(_) => {
            entries.notes.push(format!("{shown}: `permissions` is not an object; its rules are not applied"));
            return entries;
        }
    };
    for list in [List::Deny, List::Ask, List::Allow] {
        let key = list.key();
        match permissions.get(key) {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) => {
                for item in items {
                    match item {
                        Value::String(rule) => entries.rules.push((list, rule.clone())),
                        other => entries.notes.push(format!(
                            "{shown}: permissions.{key} holds {other}, not a rule string; it is ignored"
                        )),
                    }
                }
            }
            Some(other) => entries.notes.push(format!(
                "{shown}: permissions.{key} is {}, not a list of rules like [\"Read(./.env)\"]; it is ignored",
                kind(other)
            )),
        }
    }
    entries
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(json: &str) -> Entries {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        fs::write(&path, json).unwrap();
        read(&path)
    }

    #[test]
    fn lists_in_deny_ask_allow_order() {
        let e = entries(
            r#"{"permissions": {"allow": ["Bash"], "deny": ["Read(./.env)", "Bash(rm:*)"], "ask": ["Bash(git push:*)"]}}"#,
        );
        assert!(e.notes.is_empty());
        assert_eq!(
            e.rules,
            [
                (List::Deny, "Read(./.env)".to_string()),
                (List::Deny, "Bash(rm:*)".to_string()),
                (List::Ask, "Bash(git push:*)".to_string()),
                (List::Allow, "Bash".to_string()),
            ]
        );
    }

    #[test]
    fn missing_and_empty_files_and_no_permissions() {
        assert!(read(Path::new("/nonexistent/settings.json")).notes.is_empty());
        for json in ["", "  \n", "{}", r#"{"model": "opus"}"#, r#"{"permissions": {}}"#] {
            let e = entries(json);
            assert!(e.rules.is_empty() && e.notes.is_empty(), "{json}");
        }
    }

    #[test]
    fn malformed_json_is_noted() {
        let e = entries(r#"{"permissions": {"deny": ["Read(x)",]}}"#);
        assert!(e.rules.is_empty());
        assert_eq!(e.notes.len(), 1);
        assert!(e.notes[0].contains("is not valid JSON"), "{:?}", e.notes);
    }

    #[test]
    fn wrong_types_are_noted_and_the_rest_applies() {
        let e = entries(
            r#"{"permissions": {"deny": "Read(./x)", "ask": ["Bash(a)", 3, null, "Bash(b)"], "allow": {"x": 1}}}"#,
        );
        assert_eq!(e.rules, [(List::Ask, "Bash(a)".to_string()), (List::Ask, "Bash(b)".to_string())]);
        assert_eq!(e.notes.len(), 4, "{:?}", e.notes);
        assert!(e.notes[0].contains("permissions.deny is a string"));
        assert!(e.notes[1].contains("permissions.ask holds 3"));
        let e = entries(r#"{"permissions": ["Read(x)"]}"#);
        assert!(e.notes[0].contains("`permissions` is not an object"));
        let e = entries("[1, 2]");
        assert!(e.notes[0].contains("is not a JSON object"));
    }
}
