//! Editing one server table of a TOML config (Codex: `[mcp_servers.NAME]`).
//!
//! toml_edit keeps comments, key order and formatting of everything it is
//! not asked to change, so the user's file survives the edit.

use serde_json::Value;
use toml_edit::{Array, DocumentMut, InlineTable, Item, Table};

use super::{Field, TextError};

/// The value at key path `path`, as JSON, if every table on the way exists.
pub fn get(text: &str, path: &[&str]) -> Result<Option<Value>, TextError> {
    let doc = parse(text)?;
    Ok(find(doc.as_item(), path).map(to_json))
}

/// Sets the table at key path `path` to `fields` (in that order), creating
/// missing tables on the way. `None`: it already holds exactly these fields.
pub fn upsert(text: &str, path: &[&str], fields: &[(&str, Field)]) -> Result<Option<String>, TextError> {
    let (name, parents) = path.split_last().expect("a non-empty key path");
    let wanted = Value::Object(fields.iter().map(|(k, v)| (k.to_string(), v.to_json())).collect());
    let mut doc = parse(text)?;
    if find(doc.as_item(), path).map(to_json).as_ref() == Some(&wanted) {
        return Ok(None);
    }
    let mut table = doc.as_table_mut();
    for (depth, key) in parents.iter().enumerate() {
        table = table
            .entry(key)
            .or_insert_with(|| {
                // Implicit: no empty `[mcp_servers]` header, only `[mcp_servers.lean-ctx]`.
                let mut t = Table::new();
                t.set_implicit(true);
                Item::Table(t)
            })
            .as_table_mut()
            .ok_or_else(|| not_a_table(&path[..=depth]))?;
    }
    if table.get(name).is_some_and(|item| item.as_table_like().is_none()) {
        return Err(not_a_table(path));
    }
    match table.get_mut(name).and_then(Item::as_table_like_mut) {
        // Refilled rather than replaced: the table keeps its place and the comments above it.
        Some(existing) => {
            existing.clear();
            for (key, value) in fields {
                existing.insert(key, Item::Value(to_toml(value)));
            }
        }
        None => {
            let mut fresh = Table::new();
            fresh.extend(fields.iter().map(|(k, v)| (*k, to_toml(v))));
            table.insert(name, Item::Table(fresh));
        }
    }
    Ok(Some(doc.to_string()))
}

/// Deletes the table (or value) at key path `path`. `None`: there is none.
pub fn remove(text: &str, path: &[&str]) -> Result<Option<String>, TextError> {
    let (name, parents) = path.split_last().expect("a non-empty key path");
    let mut doc = parse(text)?;
    let Some(parent) = find_mut(doc.as_item_mut(), parents).and_then(Item::as_table_like_mut) else { return Ok(None) };
    Ok(parent.remove(name).map(|_| doc.to_string()))
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

fn to_toml(field: &Field) -> toml_edit::Value {
    match field {
        Field::Text(s) => s.as_str().into(),
        Field::EmptyList => Array::new().into(),
        Field::EmptyMap => InlineTable::new().into(),
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

    fn fields(command: &str) -> Vec<(&'static str, Field)> {
        vec![("command", Field::Text(command.into())), ("args", Field::EmptyList)]
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
        assert_eq!(remove(&out, PATH).unwrap().as_deref(), Some(CONFIG));
        assert_eq!(remove(CONFIG, PATH).unwrap(), None);
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
    fn refuses_broken_files_and_non_tables() {
        let err = upsert("model = \"x\"\n[mcp_servers\n", PATH, &fields("/b")).unwrap_err();
        assert!(err.offset.is_some_and(|o| o >= 12), "{err:?}");
        let err = upsert("mcp_servers = 3\n", PATH, &fields("/b")).unwrap_err();
        assert_eq!(err.message, "`mcp_servers` is not a table; edit it by hand");
        assert_eq!(get("mcp_servers = 3\n", PATH).unwrap(), None);
    }
}
