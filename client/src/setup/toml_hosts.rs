//! Editing one server table of a TOML config (Codex: `[mcp_servers.NAME]`).
//!
//! toml_edit keeps comments, key order and formatting of everything it is
//! not asked to change, so the user's file survives the edit. It writes the
//! lines it touches with `\n` and drops a byte order mark, though, so both
//! are taken off before an edit and put back after it ([`Breaks`]): each
//! line keeps its break and a BOM stays, as in the JSON and YAML editors.

use lean_ctx_common::line_breaks::Breaks;
use serde_json::Value;
use toml_edit::{Array, DocumentMut, InlineTable, Item, Table};

use super::TextError;

/// The value at key path `path`, as JSON, if every table on the way exists.
pub fn get(text: &str, path: &[&str]) -> Result<Option<Value>, TextError> {
    let breaks = Breaks::of(text);
    located(&breaks, parse(breaks.plain())).map(|doc| find(doc.as_item(), path).map(to_json))
}

/// Sets the table at key path `path` to `fields` (in that order), creating
/// missing tables on the way. `None`: it already holds exactly these fields.
///
/// Inline tables are edited as such: Codex accepts
/// `mcp_servers = { lean-ctx = { command = "…" } }` and `[mcp_servers]`
/// with `lean-ctx = { … }` as well as `[mcp_servers.lean-ctx]`, and the
/// user's choice of form is kept.
pub fn upsert(text: &str, path: &[&str], fields: &[(&str, Value)]) -> Result<Option<String>, TextError> {
    let breaks = Breaks::of(text);
    Ok(located(&breaks, upsert_plain(breaks.plain(), path, fields))?.map(|out| breaks.put_back(&out)))
}

fn upsert_plain(text: &str, path: &[&str], fields: &[(&str, Value)]) -> Result<Option<String>, TextError> {
    let (name, parents) = path.split_last().expect("a non-empty key path");
    let wanted = Value::Object(fields.iter().map(|(k, v)| (k.to_string(), v.clone())).collect());
    let mut doc = parse(text)?;
    if find(doc.as_item(), path).map(to_json).as_ref() == Some(&wanted) {
        return Ok(None);
    }
    let mut item = doc.as_item_mut();
    for (depth, key) in parents.iter().enumerate() {
        let inline = item.is_inline_table();
        let table = item.as_table_like_mut().ok_or_else(|| not_a_table(&path[..depth]))?;
        item = table.entry(key).or_insert_with(|| new_table(inline));
        if item.as_table_like().is_none() {
            return Err(not_a_table(&path[..=depth]));
        }
    }
    let inline = item.is_inline_table();
    let table = item.as_table_like_mut().expect("checked on the way");
    if table.get(name).is_some_and(|item| item.as_table_like().is_none()) {
        return Err(not_a_table(path));
    }
    match table.get_mut(name).and_then(Item::as_table_like_mut) {
        // Refilled rather than replaced: the table keeps its place, its form and the comments above it.
        Some(existing) => {
            existing.clear();
            for (key, value) in fields {
                existing.insert(key, Item::Value(to_toml(value)));
            }
        }
        None if inline => {
            let mut fresh = InlineTable::new();
            fresh.extend(fields.iter().map(|(k, v)| (*k, to_toml(v))));
            table.insert(name, Item::Value(fresh.into()));
        }
        None => {
            let mut fresh = Table::new();
            fresh.extend(fields.iter().map(|(k, v)| (*k, to_toml(v))));
            table.insert(name, Item::Table(fresh));
        }
    }
    Ok(Some(doc.to_string()))
}

/// A table to create on the way: inline inside an inline table (a `[header]`
/// cannot live there), else implicit, so that no empty `[mcp_servers]`
/// header appears above `[mcp_servers.lean-ctx]`.
fn new_table(inline: bool) -> Item {
    if inline {
        return Item::Value(InlineTable::new().into());
    }
    let mut t = Table::new();
    t.set_implicit(true);
    Item::Table(t)
}

/// Deletes the table (or value) at key path `path`. `None`: there is none.
/// With `prune`, a table on the way that this leaves empty goes too (no
/// `[mcp_servers]` or `mcp_servers = {}` stays behind), unless a comment
/// sits on its header.
pub fn remove(text: &str, path: &[&str], prune: bool) -> Result<Option<String>, TextError> {
    let breaks = Breaks::of(text);
    Ok(located(&breaks, remove_plain(breaks.plain(), path, prune))?.map(|out| breaks.put_back(&out)))
}

fn remove_plain(text: &str, path: &[&str], prune: bool) -> Result<Option<String>, TextError> {
    let (name, parents) = path.split_last().expect("a non-empty key path");
    let mut doc = parse(text)?;
    let Some(parent) = find_mut(doc.as_item_mut(), parents).and_then(Item::as_table_like_mut) else { return Ok(None) };
    if parent.remove(name).is_none() {
        return Ok(None);
    }
    for depth in (1..=parents.len()).rev().filter(|_| prune) {
        let (key, above) = parents[..depth].split_last().expect("depth >= 1");
        let Some(holder) = find_mut(doc.as_item_mut(), above).and_then(Item::as_table_like_mut) else { break };
        if !holder.get(key).is_some_and(is_empty_and_uncommented) {
            break;
        }
        holder.remove(key);
    }
    Ok(Some(doc.to_string()))
}

/// An error's offset in the plain text turned into one in the user's file.
fn located<T>(breaks: &Breaks<'_>, result: Result<T, TextError>) -> Result<T, TextError> {
    result.map_err(|mut e| {
        e.offset = e.offset.map(|at| breaks.original_offset(at));
        e
    })
}

fn is_empty_and_uncommented(item: &Item) -> bool {
    let commented = |decor: &toml_edit::Decor| {
        [decor.prefix(), decor.suffix()].into_iter().flatten().any(|raw| raw.as_str().is_none_or(|s| s.contains('#')))
    };
    match item {
        Item::Table(t) => t.is_empty() && !commented(t.decor()),
        Item::Value(toml_edit::Value::InlineTable(t)) => t.is_empty() && !commented(t.decor()),
        _ => false,
    }
}

fn parse(text: &str) -> Result<DocumentMut, TextError> {
    text.parse::<DocumentMut>()
        .map_err(|e| TextError { offset: e.span().map(|s| s.start), message: e.message().trim().to_string() })
}

fn not_a_table(path: &[&str]) -> TextError {
    TextError { offset: None, message: format!("`{}` is not a table; edit it by hand", path.join(".")) }
}

fn find<'a>(item: &'a Item, path: &[&str]) -> Option<&'a Item> {
    path.iter().try_fold(item, |item, key| item.as_table_like()?.get(key))
}

fn find_mut<'a>(item: &'a mut Item, path: &[&str]) -> Option<&'a mut Item> {
    path.iter().try_fold(item, |item, key| item.as_table_like_mut()?.get_mut(key))
}

/// A JSON value of an entry as TOML: objects as inline tables; `null`, which TOML lacks, as an
/// empty string (no entry lctx writes or keeps holds one).
fn to_toml(value: &Value) -> toml_edit::Value {
    match value {
        Value::Null => "".into(),
        Value::Bool(b) => (*b).into(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.into(),
            None => n.as_f64().unwrap_or(0.0).into(),
        },
        Value::String(s) => s.as_str().into(),
        Value::Array(items) => items.iter().map(to_toml).collect::<Array>().into(),
        Value::Object(members) => {
            let mut table = InlineTable::new();
            table.extend(members.iter().map(|(k, v)| (k.as_str(), to_toml(v))));
            table.into()
        }
    }
}

/// Any TOML item as JSON, to compare with what we would write.
fn to_json(item: &Item) -> Value {
    match item {
        Item::None => Value::Null,
        Item::Value(v) => value_to_json(v),
        Item::Table(t) => Value::Object(t.iter().map(|(k, v)| (k.to_string(), to_json(v))).collect()),
        Item::ArrayOfTables(a) => Value::Array(
            a.iter().map(|t| Value::Object(t.iter().map(|(k, v)| (k.to_string(), to_json(v))).collect())).collect(),
        ),
    }
}

fn value_to_json(value: &toml_edit::Value) -> Value {
    match value {
        toml_edit::Value::String(s) => Value::from(s.value().as_str()),
        toml_edit::Value::Integer(i) => Value::from(*i.value()),
        toml_edit::Value::Float(f) => Value::from(*f.value()),
        toml_edit::Value::Boolean(b) => Value::from(*b.value()),
        toml_edit::Value::Datetime(d) => Value::from(d.value().to_string()),
        toml_edit::Value::Array(a) => Value::Array(a.iter().map(value_to_json).collect()),
        toml_edit::Value::InlineTable(t) => {
            Value::Object(t.iter().map(|(k, v)| (k.to_string(), value_to_json(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATH: &[&str] = &["mcp_servers", "lean-ctx"];

    fn fields(command: &str) -> Vec<(&'static str, Value)> {
        vec![("command", Value::from(command)), ("args", serde_json::json!([]))]
    }

    const CONFIG: &str = r#"# Codex settings
model = "o4-mini" # the default

[mcp_servers.docs]
# documentation lookups
command = "npx"
args = ["-y", "docs-mcp"]

[profiles.fast]
model = "gpt-4.1-mini"
"#;

    #[test]
    fn adds_a_table_after_the_other_servers_keeping_comments() {
        let out = upsert(CONFIG, PATH, &fields("/bin/lctx-mcp")).unwrap().unwrap();
        assert_eq!(
            out,
            CONFIG.replace(
                "args = [\"-y\", \"docs-mcp\"]\n",
                "args = [\"-y\", \"docs-mcp\"]\n\n[mcp_servers.lean-ctx]\ncommand = \"/bin/lctx-mcp\"\nargs = []\n"
            )
        );
        assert_eq!(upsert(&out, PATH, &fields("/bin/lctx-mcp")).unwrap(), None);
        assert_eq!(get(&out, PATH).unwrap(), Some(serde_json::json!({"command": "/bin/lctx-mcp", "args": []})));
        assert_eq!(remove(&out, PATH, true).unwrap().as_deref(), Some(CONFIG));
        assert_eq!(remove(CONFIG, PATH, true).unwrap(), None);
    }

    #[test]
    fn creates_the_servers_table_without_an_empty_header() {
        assert_eq!(
            upsert("", PATH, &fields("/b")).unwrap().unwrap(),
            "[mcp_servers.lean-ctx]\ncommand = \"/b\"\nargs = []\n"
        );
        let out = upsert("model = \"x\"\n", PATH, &fields("/b")).unwrap().unwrap();
        assert_eq!(out, "model = \"x\"\n\n[mcp_servers.lean-ctx]\ncommand = \"/b\"\nargs = []\n");
    }

    #[test]
    fn an_outdated_entry_is_updated_in_place() {
        let text = "[mcp_servers.lean-ctx]\ncommand = \"/old\"\nargs = []\n\n[other]\nx = 1\n";
        let out = upsert(text, PATH, &fields("/new")).unwrap().unwrap();
        assert_eq!(out, "[mcp_servers.lean-ctx]\ncommand = \"/new\"\nargs = []\n\n[other]\nx = 1\n");
        let inline = "[mcp_servers]\nlean-ctx = { command = \"/old\" }\n";
        let out = upsert(inline, PATH, &fields("/new")).unwrap().unwrap();
        assert_eq!(get(&out, PATH).unwrap(), Some(serde_json::json!({"command": "/new", "args": []})));
    }

    #[test]
    fn inline_tables_are_accepted_and_stay_inline() {
        let inline = "mcp_servers = { lean-ctx = { command = \"/old\" }, docs = { command = \"npx\" } }\n";
        let out = upsert(inline, PATH, &fields("/new")).unwrap().unwrap();
        assert_eq!(
            out,
            "mcp_servers = { lean-ctx = { command = \"/new\", args = [] }, docs = { command = \"npx\" } }\n"
        );
        assert_eq!(upsert(&out, PATH, &fields("/new")).unwrap(), None);

        let others = "model = \"x\"\nmcp_servers = { docs = { command = \"npx\" } }\n";
        let out = upsert(others, PATH, &fields("/b")).unwrap().unwrap();
        assert_eq!(get(&out, PATH).unwrap(), Some(serde_json::json!({"command": "/b", "args": []})));
        assert!(out.starts_with("model = \"x\"\nmcp_servers = { docs = { command = \"npx\" }"), "{out}");
        assert!(!out.contains("[mcp_servers"), "no header inside an inline table: {out}");
        assert_eq!(remove(&out, PATH, true).unwrap().as_deref(), Some(others));

        let under_header = "[mcp_servers]\ndocs = { command = \"npx\" }\n";
        let out = upsert(under_header, PATH, &fields("/b")).unwrap().unwrap();
        assert_eq!(get(&out, PATH).unwrap(), Some(serde_json::json!({"command": "/b", "args": []})));
        assert_eq!(remove(&out, PATH, true).unwrap().as_deref(), Some(under_header));
    }

    #[test]
    fn removal_drops_server_tables_it_emptied() {
        let only_ours = "model = \"x\"\nmcp_servers = { lean-ctx = { command = \"/b\" } }\n";
        assert_eq!(remove(only_ours, PATH, true).unwrap().as_deref(), Some("model = \"x\"\n"));
        let header = "model = \"x\"\n\n[mcp_servers]\nlean-ctx = { command = \"/b\" }\n";
        assert_eq!(remove(header, PATH, true).unwrap().as_deref(), Some("model = \"x\"\n"));
        let fresh = upsert("", PATH, &fields("/b")).unwrap().unwrap();
        assert_eq!(remove(&fresh, PATH, true).unwrap().as_deref(), Some(""));
        let commented = "# my servers\n[mcp_servers]\nlean-ctx = { command = \"/b\" }\n";
        assert_eq!(remove(commented, PATH, true).unwrap().as_deref(), Some("# my servers\n[mcp_servers]\n"));
        // Not pruned: a servers table the file had before our entry stays, empty.
        assert_eq!(remove(header, PATH, false).unwrap().as_deref(), Some("model = \"x\"\n\n[mcp_servers]\n"));
    }

    #[test]
    fn crlf_breaks_and_a_byte_order_mark_are_kept() {
        for (bom, eol) in [("", "\r\n"), ("\u{feff}", "\n"), ("\u{feff}", "\r\n")] {
            let original = format!("{bom}model = \"o3\"{eol}{eol}[mcp_servers.docs]{eol}command = \"d\"{eol}");
            let out = upsert(&original, PATH, &fields("/b")).unwrap().unwrap();
            assert_eq!(
                out,
                format!("{original}{eol}[mcp_servers.lean-ctx]{eol}command = \"/b\"{eol}args = []{eol}"),
                "{bom:?} {eol:?}"
            );
            assert_eq!(get(&out, PATH).unwrap(), Some(serde_json::json!({"command": "/b", "args": []})));
            assert_eq!(remove(&out, PATH, true).unwrap(), Some(original), "{bom:?} {eol:?}");
        }
        // A parse error points at the same line and column of the user's file.
        let (plain, crlf) = ("model = \"x\"\n[mcp_servers\n", "\u{feff}model = \"x\"\r\n[mcp_servers\r\n");
        let at = |text: &str| {
            let offset = upsert(text, PATH, &fields("/b")).unwrap_err().offset.unwrap();
            lean_ctx_common::text_error::line_and_column(text, offset)
        };
        assert_eq!(at(crlf).0, 2);
        assert_eq!(at(crlf), at(plain));
    }

    #[test]
    fn a_file_mixing_crlf_and_lf_keeps_each_line_s_break() {
        let original =
            "model = \"o3\"\r\n# note\n[profiles.fast]\r\nmodel = \"x\"\n\n[mcp_servers.docs]\r\ncommand = \"d\"\r\n";
        let out = upsert(original, PATH, &fields("/b")).unwrap().unwrap();
        // Our lines are new: CRLF, since the file has CRLF lines.
        assert_eq!(out, format!("{original}\r\n[mcp_servers.lean-ctx]\r\ncommand = \"/b\"\r\nargs = []\r\n"));
        assert_eq!(remove(&out, PATH, true).unwrap().as_deref(), Some(original));
    }

    #[test]
    fn refuses_broken_files_and_non_tables() {
        let err = upsert("model = \"x\"\n[mcp_servers\n", PATH, &fields("/b")).unwrap_err();
        assert!(err.offset.is_some_and(|o| o >= 12), "{err:?}");
        let err = upsert("mcp_servers = 3\n", PATH, &fields("/b")).unwrap_err();
        assert_eq!(err.message, "`mcp_servers` is not a table; edit it by hand");
        assert_eq!(get("mcp_servers = 3\n", PATH).unwrap(), None);
    }
}
