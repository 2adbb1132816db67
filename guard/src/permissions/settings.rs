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

/// The rules of one settings file, notes on what had to be left out, and why the file as a whole
/// could not be used, if it could not.
#[derive(Debug, Default)]
pub(crate) struct Entries {
    pub(crate) rules: Vec<(List, String)>,
    pub(crate) notes: Vec<String>,
    /// Why no rule of the file can be known (it cannot be read, is no JSON, or `permissions` is
    /// no object): checks then refuse rather than apply none of its rules, silently (see
    /// [`super::Permissions::unusable`]).
    pub(crate) unusable: Option<String>,
}

/// The rule strings in `path`. A missing or empty file has none. A file that cannot be read or
/// parsed has none and is [`Entries::unusable`], as is one whose `deny` or `ask` list, or an entry
/// of one, is of the wrong type (a rule the user meant to hold); comments, trailing commas and a
/// byte-order mark, which editors of JSON settings leave, are read past (see [`lenient`]). A
/// `deny` or `ask` written as one string is that one rule; an `allow` of the wrong type is noted
/// and left out (lean-ctx applies no allow rule).
pub(crate) fn read(path: &Path) -> Entries {
    let mut entries = Entries::default();
    let shown = path.display();
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => return entries,
        Err(e) => {
            entries.unusable = Some(format!("it cannot be read: {e}"));
            return entries;
        }
    };
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        return entries;
    }
    let settings: Value = match serde_json::from_str(&lenient(&text)) {
        Ok(settings) => settings,
        Err(e) => {
            entries.unusable = Some(format!("it is not valid JSON: {e}"));
            return entries;
        }
    };
    if !settings.is_object() {
        entries.unusable = Some(format!("it holds {}, not a JSON object", kind(&settings)));
        return entries;
    }
    let permissions = match settings.get("permissions") {
        None => return entries,
        Some(Value::Object(permissions)) => permissions,
        Some(other) => {
            entries.unusable = Some(format!("its `permissions` is {}, not an object", kind(other)));
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
                        // A deny or ask rule that cannot be read is one the user meant to hold.
                        other if list != List::Allow => {
                            entries.unusable = Some(format!("its permissions.{key} holds {other}, not a rule string"));
                            return entries;
                        }
                        other => entries.notes.push(format!(
                            "{shown}: permissions.{key} holds {other}, not a rule string; it is ignored"
                        )),
                    }
                }
            }
            Some(Value::String(rule)) if list != List::Allow => {
                entries.notes.push(format!(
                    "{shown}: permissions.{key} is one string, not a list; it is applied as the rule {rule:?}"
                ));
                entries.rules.push((list, rule.clone()));
            }
            Some(other) if list != List::Allow => {
                entries.unusable = Some(format!(
                    "its permissions.{key} is {}, not a list of rules like [\"Read(./.env)\"]",
                    kind(other)
                ));
                return entries;
            }
            Some(other) => entries.notes.push(format!(
                "{shown}: permissions.{key} is {}, not a list of rules like [\"Read(./.env)\"]; it is ignored",
                kind(other)
            )),
        }
    }
    entries
}

/// `text` with what strict JSON refuses but editors of settings files write blanked out: a
/// byte-order mark, `//` and `/* */` comments, and a comma before a closing bracket. Each is
/// replaced by spaces (a newline kept), so a remaining error's line and column are the file's.
fn lenient(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').map_or_else(|| text.to_owned(), |rest| format!(" {rest}"));
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    let (mut at, mut in_string) = (0, false);
    while at < chars.len() {
        let c = chars[at];
        if in_string {
            out.push(c);
            match c {
                '\\' if at + 1 < chars.len() => {
                    out.push(chars[at + 1]);
                    at += 1;
                }
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '/' && chars.get(at + 1) == Some(&'/') {
            while at < chars.len() && chars[at] != '\n' {
                out.push(' ');
                at += 1;
            }
            continue;
        } else if c == '/' && chars.get(at + 1) == Some(&'*') {
            let end = (at + 2..chars.len().saturating_sub(1)).find(|&i| chars[i] == '*' && chars[i + 1] == '/');
            let Some(end) = end else {
                // An unclosed comment is left for the parser to refuse.
                out.extend(&chars[at..]);
                break;
            };
            out.extend(chars[at..end + 2].iter().map(|&c| if c == '\n' { '\n' } else { ' ' }));
            at = end + 2;
            continue;
        } else {
            in_string = c == '"';
            out.push(c);
        }
        at += 1;
    }
    // A comma whose next non-blank character closes a list or object, outside strings.
    let mut blank = vec![false; out.len()];
    let mut in_string = false;
    let mut escaped = false;
    for (i, &c) in out.iter().enumerate() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            ',' => blank[i] = out[i + 1..].iter().find(|c| !c.is_whitespace()).is_some_and(|c| matches!(c, ']' | '}')),
            _ => {}
        }
    }
    out.iter().zip(blank).map(|(&c, blank)| if blank { ' ' } else { c }).collect()
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
        for json in ["", "  \n", "\u{feff}", "{}", r#"{"model": "opus"}"#, r#"{"permissions": {}}"#] {
            let e = entries(json);
            assert!(e.rules.is_empty() && e.notes.is_empty() && e.unusable.is_none(), "{json}");
        }
    }

    #[test]
    fn what_editors_leave_in_json_is_read_past() {
        let deny = |e: &Entries| e.rules == [(List::Deny, "Read(./secret/**)".to_string())];
        for json in [
            r#"{"permissions": {"deny": ["Read(./secret/**)",]}}"#,
            "\u{feff}{\"permissions\": {\"deny\": [\"Read(./secret/**)\"]}}",
            "{\n  // the team's rules\n  \"permissions\": {\"deny\": [\"Read(./secret/**)\"], /* none yet */ \"ask\": []},\n}\n",
        ] {
            let e = entries(json);
            assert!(deny(&e) && e.unusable.is_none() && e.notes.is_empty(), "{json}: {e:?}");
        }
        // Inside a string a `//` or `,]` is text.
        let e = entries(r#"{"permissions": {"deny": ["Bash(curl https://x.test/a,])"]}}"#);
        assert_eq!(e.rules, [(List::Deny, "Bash(curl https://x.test/a,])".to_string())]);
    }

    #[test]
    fn a_file_that_cannot_be_read_as_settings_is_unusable_and_says_where() {
        for (json, said) in [
            (
                r#"{"permissions": {"deny": ["Read(x)",, "Bash(rm:*)"]}}"#,
                "it is not valid JSON: expected value at line 1 column 37",
            ),
            (
                "{\"permissions\": {\"deny\": [\"Read(x)\"",
                "it is not valid JSON: EOF while parsing a list at line 1 column 35",
            ),
            ("[1, 2]", "it holds a list, not a JSON object"),
            (r#"{"permissions": ["Read(x)"]}"#, "its `permissions` is a list, not an object"),
        ] {
            let e = entries(json);
            assert!(e.rules.is_empty(), "{json}");
            assert_eq!(e.unusable.as_deref(), Some(said), "{json}");
        }
    }

    #[test]
    fn wrong_types_are_noted_and_the_rest_applies() {
        let e = entries(r#"{"permissions": {"deny": "Read(./x)", "ask": ["Bash(a)"], "allow": {"x": 1}}}"#);
        let rules = [(List::Deny, "Read(./x)"), (List::Ask, "Bash(a)")];
        assert_eq!(e.rules, rules.map(|(list, rule)| (list, rule.to_string())));
        assert_eq!(e.notes.len(), 2, "{:?}", e.notes);
        assert!(e.notes[0].contains("permissions.deny is one string, not a list; it is applied"));
        assert!(e.notes[1].contains("permissions.allow is an object"));
        assert!(e.unusable.is_none());
        // A deny or ask list, or an entry of one, of the wrong type held a rule the user meant.
        for (json, said) in [
            (r#"{"permissions": {"ask": ["Bash(a)", 3]}}"#, "its permissions.ask holds 3, not a rule string"),
            (
                r#"{"permissions": {"deny": [["Read(./x)"]]}}"#,
                "its permissions.deny holds [\"Read(./x)\"], not a rule string",
            ),
            (
                r#"{"permissions": {"deny": {"a": "Read(./x)"}}}"#,
                "its permissions.deny is an object, not a list of rules like [\"Read(./.env)\"]",
            ),
            (r#"{"permissions": null}"#, "its `permissions` is null, not an object"),
        ] {
            assert_eq!(entries(json).unusable.as_deref(), Some(said), "{json}");
        }
    }
}
