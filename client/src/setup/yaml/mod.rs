//! Editing one entry of a top-level map in a YAML file, as text (Goose:
//! `extensions.lean-ctx` in its `config.yaml`).
//!
//! No YAML library in reach keeps comments through a round trip, and the
//! file is the user's. So it is read line by line ([`layout`]), just far
//! enough to find the map, its entries and the lines of ours, and only our
//! entry's lines change: comments, blank lines, other entries, key order and
//! quoting elsewhere keep their bytes. A file this reader cannot be sure of
//! is refused with its line (see [`layout`]) rather than guessed at. Our
//! entry is written in block style at its siblings' indentation, its values
//! on one line each ([`value`]); removing it leaves the file as it was
//! before it was added, the map's key included when nothing else is left
//! under it.

mod layout;
mod value;

use serde_json::Value;

use super::TextError;
use layout::{Entry, Layout};
use value::BlockLine;

/// Indentation of a map lctx starts, and of the fields under a new entry.
const STEP: usize = 2;

/// The entry at `path` (`[map key, entry name]`), as JSON.
pub fn get(text: &str, path: &[&str]) -> Result<Option<Value>, TextError> {
    let (key, name) = split_path(path)?;
    let layout = layout::scan(text, key)?;
    let Some(entry) = layout.map.as_ref().and_then(|map| map.entries.iter().find(|e| e.name == name)) else {
        return Ok(None);
    };
    read(&layout, entry).map(Some)
}

/// Sets the entry at `path` to a map of `fields` (in that order), creating
/// the top-level map at the end of the file when there is none. `None`: it
/// already holds exactly these fields (as JSON; layout and order aside).
pub fn upsert(text: &str, path: &[&str], fields: &[(&str, Value)]) -> Result<Option<String>, TextError> {
    let (key, name) = split_path(path)?;
    let layout = layout::scan(text, key)?;
    let Some(map) = &layout.map else {
        let mut lines = vec![format!("{}:", value::scalar(key))];
        lines.extend(render(name, fields, STEP, STEP));
        return Ok(Some(insert(text, &layout, text.len(), &lines)));
    };
    let indent = map.indent.unwrap_or(STEP);
    // New fields sit one step below the entry, the step its siblings use.
    let lines = render(name, fields, indent, indent);
    match map.entries.iter().find(|e| e.name == name) {
        Some(entry) => {
            let wanted = Value::Object(fields.iter().map(|(k, v)| (k.to_string(), v.clone())).collect());
            if read(&layout, entry)? == wanted {
                return Ok(None);
            }
            let (start, end) = (layout.lines[entry.first].start, layout.lines[entry.last].content_end);
            let body = lines.join(layout.eol);
            Ok(Some(format!("{}{body}{}", &text[..start], &text[end..])))
        }
        None => Ok(Some(insert(text, &layout, layout.lines[map.last_content].end, &lines))),
    }
}

/// Deletes the entry at `path`. `None`: there is none. A map this leaves
/// empty goes too, unless a comment sits in it or on its key's line.
pub fn remove(text: &str, path: &[&str]) -> Result<Option<String>, TextError> {
    let (key, name) = split_path(path)?;
    let layout = layout::scan(text, key)?;
    let Some(map) = &layout.map else { return Ok(None) };
    let Some(entry) = map.entries.iter().find(|e| e.name == name) else { return Ok(None) };
    let alone = map.entries.len() == 1
        && !map.key_commented
        && map.comments.iter().all(|&c| (entry.first..=entry.last).contains(&c));
    let first = if alone { map.key_line } else { entry.first };
    let lines = &layout.lines;
    let last = &lines[entry.last];
    let (start, end) = if last.end == last.content_end && first > 0 {
        // The file ends on our entry's last line without a line break: the
        // break before our first line goes instead, so none is left dangling.
        (lines[first - 1].content_end, last.end)
    } else {
        (lines[first].start, last.end)
    };
    Ok(Some(format!("{}{}", &text[..start], &text[end..])))
}

fn split_path<'a>(path: &[&'a str]) -> Result<(&'a str, &'a str), TextError> {
    match path {
        [key, name] => Ok((key, name)),
        _ => Err(TextError { offset: None, message: "lctx edits YAML only as `key.entry`".into() }),
    }
}

/// Our entry as lines: `name:` at `indent`, each field `step` deeper.
fn render(name: &str, fields: &[(&str, Value)], indent: usize, step: usize) -> Vec<String> {
    let (pad, field_pad) = (" ".repeat(indent), " ".repeat(indent + step));
    std::iter::once(format!("{pad}{}:", value::scalar(name)))
        .chain(fields.iter().map(|(k, v)| format!("{field_pad}{}: {}", value::scalar(k), value::format(v))))
        .collect()
}

/// `text` with `lines` inserted at `at`, which is the start of a line or
/// the end of the text. A text that ends without a line break still does.
fn insert(text: &str, layout: &Layout<'_>, at: usize, lines: &[String]) -> String {
    let body = lines.join(layout.eol);
    let unterminated = at == text.len() && !text.is_empty() && !text.ends_with('\n');
    if unterminated {
        // A final `\r` is half a `\r\n` break: complete it rather than add another.
        let eol = if text.ends_with('\r') { "\n" } else { layout.eol };
        format!("{text}{eol}{body}")
    } else {
        format!("{}{body}{}{}", &text[..at], layout.eol, &text[at..])
    }
}

/// An entry's value: the text after `name:`, or the lines below it.
fn read(layout: &Layout<'_>, entry: &Entry<'_>) -> Result<Value, TextError> {
    if !value::is_empty_value(entry.value) {
        return value::parse_inline(entry.value).map_err(|m| TextError::at(entry.value_at, m));
    }
    let body: Vec<BlockLine<'_>> = layout.lines[entry.first + 1..=entry.last]
        .iter()
        .filter(|l| !l.is_blank() && !l.is_comment())
        .map(|l| BlockLine { indent: l.indent, text: l.rest, offset: l.at(0) })
        .collect();
    value::parse_block(&body).map_err(|(offset, m)| TextError::at(offset, m))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const PATH: &[&str] = &["extensions", "lean-ctx"];

    fn fields(cmd: &str) -> Vec<(&'static str, Value)> {
        vec![
            ("type", json!("stdio")),
            ("name", json!("lean-ctx")),
            ("enabled", json!(true)),
            ("cmd", json!(cmd)),
            ("args", json!([])),
            ("envs", json!({})),
            ("env_keys", json!([])),
            ("timeout", json!(300)),
        ]
    }

    const ENTRY: &str = "  lean-ctx:\n    type: stdio\n    name: lean-ctx\n    enabled: true\n    cmd: /b/lctx-mcp\n    \
                         args: []\n    envs: {}\n    env_keys: []\n    timeout: 300\n";

    /// What serde_yaml (Goose) writes, plus a person's comments.
    const CONFIG: &str = "# goose settings\nGOOSE_PROVIDER: anthropic\nextensions:\n  developer:\n    bundled: true\n    \
                          enabled: true # the default\n    name: developer\n    timeout: 300\n    type: builtin\n  \
                          github:\n    args:\n    - -y\n    - '@modelcontextprotocol/server-github'\n    cmd: npx\n    \
                          enabled: false\n    envs:\n      GITHUB_TOKEN: x\n    type: stdio\n# my notes\nGOOSE_MODE: \
                          smart_approve\n";

    #[test]
    fn adds_after_the_last_entry_updates_in_place_and_removes_exactly() {
        let added = upsert(CONFIG, PATH, &fields("/b/lctx-mcp")).unwrap().unwrap();
        assert_eq!(
            added,
            CONFIG.replace("    type: stdio\n# my notes", &format!("    type: stdio\n{ENTRY}# my notes"))
        );
        assert_eq!(
            get(&added, PATH).unwrap(),
            Some(Value::Object(fields("/b/lctx-mcp").into_iter().map(|(k, v)| (k.into(), v)).collect()))
        );
        assert_eq!(upsert(&added, PATH, &fields("/b/lctx-mcp")).unwrap(), None, "already there");
        let updated = upsert(&added, PATH, &fields("/new/lctx-mcp")).unwrap().unwrap();
        assert_eq!(updated, added.replace("cmd: /b/lctx-mcp", "cmd: /new/lctx-mcp"));
        assert_eq!(remove(&updated, PATH).unwrap().as_deref(), Some(CONFIG));
        assert_eq!(remove(CONFIG, PATH).unwrap(), None);
        assert_eq!(
            get(CONFIG, &["extensions", "github"]).unwrap(),
            Some(json!({"args": ["-y", "@modelcontextprotocol/server-github"], "cmd": "npx", "enabled": false,
                        "envs": {"GITHUB_TOKEN": "x"}, "type": "stdio"}))
        );
    }

    #[test]
    fn creates_the_map_and_takes_it_away_again() {
        for original in ["", "GOOSE_MODE: auto\n", "GOOSE_MODE: auto", "a: 1\r\nb: 2\r\n"] {
            let added = upsert(original, PATH, &fields("/b/lctx-mcp")).unwrap().unwrap();
            let eol = if original.contains('\r') { "\r\n" } else { "\n" };
            let block = format!("extensions:\n{ENTRY}").replace('\n', eol);
            match original {
                "GOOSE_MODE: auto" => assert_eq!(added, format!("{original}\n{}", block.trim_end())),
                _ => assert_eq!(added, format!("{original}{block}")),
            }
            assert_eq!(remove(&added, PATH).unwrap().as_deref(), Some(original), "{original:?}");
        }
    }

    #[test]
    fn an_empty_or_commented_map_is_kept_as_the_user_left_it() {
        let bare = "extensions:\nGOOSE_MODE: auto\n";
        let added = upsert(bare, PATH, &fields("/b")).unwrap().unwrap();
        assert!(added.starts_with("extensions:\n  lean-ctx:\n") && added.ends_with("GOOSE_MODE: auto\n"), "{added}");
        let commented = "extensions: # mine\n  # dev: off\n";
        let added = upsert(commented, PATH, &fields("/b")).unwrap().unwrap();
        assert!(added.starts_with("extensions: # mine\n  lean-ctx:\n"), "{added}");
        assert_eq!(remove(&added, PATH).unwrap().as_deref(), Some(commented));
    }

    #[test]
    fn entries_indented_by_four_get_a_sibling_indented_by_four() {
        let text = "extensions:\n    developer:\n        enabled: true\n";
        let added = upsert(text, PATH, &[("cmd", json!("/b"))]).unwrap().unwrap();
        assert_eq!(added, format!("{text}    lean-ctx:\n        cmd: /b\n"));
        assert_eq!(remove(&added, PATH).unwrap().as_deref(), Some(text));
    }

    #[test]
    fn any_prefix_of_a_file_is_edited_or_refused_never_a_panic() {
        let wanted = Value::Object(fields("/b").into_iter().map(|(k, v)| (k.to_string(), v)).collect());
        let samples = [
            CONFIG,
            "\u{feff}é: ü\r\nextensions:\r\n  ö: 'ä''x'\r\n  lean-ctx: {cmd: \"\\u00e9\", args: [a, 'b']}\r\n",
            "extensions:\n  a:\n    description: |\n      # x\n    args: [\"\\\"\", '']\n---\n",
        ];
        for sample in samples {
            for end in (0..=sample.len()).filter(|&i| sample.is_char_boundary(i)) {
                let text = &sample[..end];
                let _ = get(text, PATH);
                let _ = remove(text, PATH);
                if let Ok(Some(out)) = upsert(text, PATH, &fields("/b")) {
                    assert_eq!(
                        get(&out, PATH).map_err(|e| format!("{text:?} → {out:?}: {e:?}")),
                        Ok(Some(wanted.clone()))
                    );
                }
            }
        }
    }

    #[test]
    fn an_entry_written_by_hand_in_flow_style_is_read_and_replaced() {
        let text = "extensions:\n  lean-ctx: {cmd: /old, args: []} # mine\n  dev: {}\n";
        assert_eq!(get(text, PATH).unwrap(), Some(json!({"cmd": "/old", "args": []})));
        let out = upsert(text, PATH, &[("cmd", json!("/new"))]).unwrap().unwrap();
        assert_eq!(out, "extensions:\n  lean-ctx:\n    cmd: /new\n  dev: {}\n");
        let odd = "extensions:\n  lean-ctx:\n    cmd: |\n      /x\n";
        assert!(get(odd, PATH).unwrap_err().message.contains("block scalars"));
    }
}
