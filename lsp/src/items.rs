//! Call hierarchy items and calls as the server sends them, with what an answer needs read out.

use std::path::PathBuf;

use serde_json::Value;

use crate::uri;

/// A function, method or other symbol of the call hierarchy.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub name: String,
    /// LSP `SymbolKind` (see [`kind_name`]).
    pub kind: u64,
    /// The file it is in; `None` for a URI that is not a local file.
    pub path: Option<PathBuf>,
    /// The 0-based line of its name.
    pub line: u32,
    /// The item as received: servers expect it back verbatim (with its `data`).
    raw: Value,
}

impl Item {
    pub(crate) fn from_json(raw: &Value) -> Option<Item> {
        let name = raw["name"].as_str()?.to_string();
        let range = if raw["selectionRange"].is_object() { &raw["selectionRange"] } else { &raw["range"] };
        Some(Item {
            name,
            kind: raw["kind"].as_u64().unwrap_or(0),
            path: raw["uri"].as_str().and_then(uri::to_path),
            line: line_of(range),
            raw: raw.clone(),
        })
    }

    pub(crate) fn raw(&self) -> &Value {
        &self.raw
    }
}

/// One incoming or outgoing call: the other end and the call sites.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The caller (incoming calls) or the callee (outgoing calls).
    pub item: Item,
    /// 0-based lines of the call sites: in the caller's file for both directions.
    pub lines: Vec<u32>,
}

impl Call {
    /// `end` is `from` for incoming calls, `to` for outgoing ones.
    pub(crate) fn from_json(raw: &Value, end: &str) -> Option<Call> {
        let item = Item::from_json(&raw[end])?;
        let mut lines: Vec<u32> = raw["fromRanges"].as_array().into_iter().flatten().map(line_of).collect();
        lines.sort_unstable();
        lines.dedup();
        Some(Call { item, lines })
    }
}

fn line_of(range: &Value) -> u32 {
    range["start"]["line"].as_u64().map_or(0, |l| u32::try_from(l).unwrap_or(u32::MAX))
}

/// The word an answer shows for an LSP `SymbolKind`, in the code graph's vocabulary where it
/// has one (`fn`, `method`, `ctor`, …).
pub fn kind_name(kind: u64) -> &'static str {
    match kind {
        1 => "file",
        2 => "module",
        3 => "namespace",
        4 => "package",
        5 => "class",
        6 => "method",
        7 => "property",
        8 => "field",
        9 => "ctor",
        10 => "enum",
        11 => "interface",
        12 => "fn",
        13 => "variable",
        14 => "const",
        22 => "variant",
        23 => "struct",
        24 => "event",
        25 => "operator",
        26 => "type parameter",
        _ => "symbol",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_incoming_call_names_its_caller_and_each_call_line_once() {
        let raw = json!({
            "from": {"name": "first", "kind": 12, "uri": "file:///p/orders.py",
                     "range": {"start": {"line": 3, "character": 0}, "end": {"line": 5, "character": 0}},
                     "selectionRange": {"start": {"line": 3, "character": 4}, "end": {"line": 3, "character": 9}}},
            "fromRanges": [{"start": {"line": 4, "character": 11}}, {"start": {"line": 4, "character": 20}},
                           {"start": {"line": 2, "character": 1}}],
        });
        let call = Call::from_json(&raw, "from").unwrap();
        assert_eq!(call.item.name, "first");
        assert_eq!(kind_name(call.item.kind), "fn");
        assert_eq!(call.item.path, Some(PathBuf::from("/p/orders.py")));
        assert_eq!(call.item.line, 3);
        assert_eq!(call.lines, vec![2, 4]);
        assert_eq!(Call::from_json(&json!({"from": {"kind": 12}}), "from"), None);
    }
}
