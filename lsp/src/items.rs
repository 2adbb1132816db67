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
    /// The call sites, each once, in the caller's file for both directions.
    pub sites: Vec<Site>,
}

/// Where a call starts, as the server gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Site {
    /// 0-based.
    pub line: u32,
    /// 0-based, in UTF-16 code units (LSP's default position encoding); `None` when the server's
    /// range has no `character`.
    pub character: Option<u32>,
}

impl Call {
    /// `end` is `from` for incoming calls, `to` for outgoing ones.
    pub(crate) fn from_json(raw: &Value, end: &str) -> Option<Call> {
        let item = Item::from_json(&raw[end])?;
        let mut sites: Vec<Site> = raw["fromRanges"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|range| Site { line: line_of(range), character: number(&range["start"]["character"]) })
            .collect();
        sites.sort_unstable();
        sites.dedup();
        Some(Call { item, sites })
    }
}

fn line_of(range: &Value) -> u32 {
    number(&range["start"]["line"]).unwrap_or(0)
}

fn number(value: &Value) -> Option<u32> {
    value.as_u64().map(|n| u32::try_from(n).unwrap_or(u32::MAX))
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
    fn an_incoming_call_names_its_caller_and_each_call_site_once() {
        let raw = json!({
            "from": {"name": "first", "kind": 12, "uri": "file:///p/orders.py",
                     "range": {"start": {"line": 3, "character": 0}, "end": {"line": 5, "character": 0}},
                     "selectionRange": {"start": {"line": 3, "character": 4}, "end": {"line": 3, "character": 9}}},
            "fromRanges": [{"start": {"line": 4, "character": 11}}, {"start": {"line": 4, "character": 20}},
                           {"start": {"line": 2, "character": 1}}, {"start": {"line": 4, "character": 11}},
                           {"start": {"line": 7}}],
        });
        let call = Call::from_json(&raw, "from").unwrap();
        assert_eq!(call.item.name, "first");
        assert_eq!(kind_name(call.item.kind), "fn");
        assert_eq!(call.item.path, Some(PathBuf::from("/p/orders.py")));
        assert_eq!(call.item.line, 3);
        let site = |line, character| Site { line, character };
        // Two calls on one line are two sites; a range without a column is a line.
        assert_eq!(call.sites, [site(2, Some(1)), site(4, Some(11)), site(4, Some(20)), site(7, None)]);
        assert_eq!(Call::from_json(&json!({"from": {"kind": 12}}), "from"), None);
    }
}
