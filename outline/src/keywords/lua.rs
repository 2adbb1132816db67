//! Lua's functions held by tables, which no keyword starts: a field's (`M.load = function(path)`)
//! and a table constructor's (`local t = { load = function(path) … }`, `return { … }`, a table
//! given to a call: `local C = class({ … })`, `setmetatable(M, { … })`). A
//! function passed to a call (`describe("x", function() … end)`) is a callback, and a function
//! bound to a local in a body (`local f = function`) a local: neither is listed.

use super::Table;
use super::general::name;
use super::lua_blocks::{block_end, stays_open};
use crate::model::Kind;
use crate::text::{closing, signature_line};

/// Where a line is: what a function assigned there is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    /// The file's level: every function assigned to a name is listed, by the general rules.
    File,
    /// A table constructor: `key = function(`, `["key"] = function(` are its members.
    Table,
    /// A function's body: only a function set as a field (`s.revert = function(self)`) is listed.
    Body,
}

/// What `line` (trimmed) defines as Lua, beyond the keywords: a table that may hold functions
/// (listed if it does; its entries may start on its line, [`head_entries`]), the functions of a
/// table written on one line (named by all of them: `local t = { a = function() end, b =
/// function() end }` is `a, b`), or a table's function.
pub(super) fn definition(line: &str, place: Place) -> Option<(Kind, String, Table)> {
    if let Some((table, after)) = table_head(line, place) {
        let after = after.trim();
        if after.is_empty() || stays_open(after) {
            let role = if table.is_some() { Table::Named } else { Table::Anonymous };
            return Some((Kind::Table, table.unwrap_or_default(), role));
        }
        let functions: Vec<String> = entry_functions(after).into_iter().map(|entry| entry.key).collect();
        return (!functions.is_empty()).then(|| (Kind::Function, functions.join(", "), Table::No));
    }
    let function = match place {
        Place::File => bracketed_field_function(line).or_else(|| path_function(line).map(|(path, _)| path)),
        Place::Table => member_function(line),
        Place::Body => bracketed_field_function(line).or_else(|| {
            let (path, assigned) = path_function(line)?;
            (!assigned || path.contains(['.', ':'])).then_some(path)
        }),
    };
    function.map(|name| (Kind::Function, name, Table::No))
}

/// The functions a line defines one statement after another (`M.f = function() end; M.g =
/// function() end`; Lua needs no `;` between statements), each named as on a line of its own,
/// with its statement. `None` unless there are several: a line of one function, or of a table's
/// functions (named by all of them, see [`definition`]), is read whole. Read whole, the line was
/// its first function's, and the others were in no view nor symbol search.
pub(super) fn function_sequence(line: &str, place: Place) -> Option<Vec<(String, &str)>> {
    let mut sequence = Vec::new();
    let mut rest = line;
    while !rest.is_empty() && table_head(rest, place).is_none() {
        let Some((Kind::Function, name, Table::No)) = definition(rest, place) else { break };
        let function = rest.find("function")?;
        let end = block_end(&rest[function..]).map_or(rest.len(), |end| function + end);
        sequence.push((name, rest[..end].trim_end()));
        rest = rest[end..].trim_start_matches(|c: char| c == ';' || c.is_whitespace());
    }
    (sequence.len() > 1).then_some(sequence)
}

/// A function named by the path it is called by, and whether it is assigned to it: `function
/// M.load(path)`, `function M:bar(x)`, `local function helper()` (not assigned), `M.load =
/// function(path)`, `local f = function()` (assigned). The path is kept whole (`M:bar`, `M.load`):
/// search reads the table it is a member of and its own name from it, as from JavaScript's
/// `exports.parse`, so `bar`, `M.bar` and `M:bar` each find it.
fn path_function(line: &str) -> Option<(String, bool)> {
    let line = line.strip_prefix("local ").unwrap_or(line).trim_start();
    let (path, assigned) = match line.strip_prefix("function") {
        Some(rest) if rest.starts_with(char::is_whitespace) => {
            let rest = rest.trim_start();
            (&rest[..rest.find('(')?], false)
        }
        _ => {
            let (target, value) = line.split_once('=')?;
            let value = value.trim_start().strip_prefix("function")?;
            value.trim_start().starts_with('(').then_some((target, true))?
        }
    };
    let path = path.trim();
    let named = path.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && path.chars().all(|c| c.is_alphanumeric() || "_.:".contains(c))
        && !path.ends_with(['.', ':']);
    named.then(|| (path.to_string(), assigned))
}

/// The table a line's constructor opens, and what follows its `{` on the line: `local t = {`,
/// `M.config = {`, `local s = setmetatable({` are named by their target (its last part), a
/// `return {` is not (`None`); in a table, `key = {` and `["key"] = {` by their key. A call's
/// table whose result is not kept (`setmetatable(M, {`) is named by the call (`setmetatable(M,
/// {…})`): its functions are what the call gives them to.
fn table_head(line: &str, place: Place) -> Option<(Option<String>, &str)> {
    if let Some(value) = line.strip_prefix("return").filter(|rest| rest.starts_with([' ', '{', '('])) {
        let after = constructor(value)?;
        // The module's table, or one the call is given besides (`return setmetatable(M, {`).
        return Some((given_to_call(value.trim()), after));
    }
    if place != Place::Table && !line.contains('=') {
        return Some((Some(given_to_call(line)?), constructor(line)?));
    }
    let (target, value) = line.split_once('=')?;
    let after = constructor(value)?;
    let target = target.trim();
    let name = match place {
        Place::Table => key(target)?.to_string(),
        Place::File | Place::Body => {
            let target = target.strip_prefix("local ").unwrap_or(target).trim_start();
            let simple = target.chars().all(|c| c.is_alphanumeric() || "_.:".contains(c));
            simple.then(|| name(target)).flatten()?.0
        }
    };
    Some((Some(name), after))
}

/// The call a table is given to after another argument, as written (`setmetatable(M, {…})` for
/// `setmetatable(M, {`): what it is named by when the call's result is not kept.
fn given_to_call(text: &str) -> Option<String> {
    let call = text.trim_end().strip_suffix('{')?.trim_end();
    (call.ends_with(',') && constructor(text).is_some()).then(|| format!("{call} {{…}})"))
}

/// What follows the `{` of a value that is a table constructor: `{`, or a call's argument
/// (`setmetatable({`, `setmetatable(obj, {`: the object's metatable, whose functions are its
/// behaviour; `class {`, a call of one table written without parentheses). A call whose
/// arguments start on the next line (`setmetatable(` over `{`) is one too, with nothing after:
/// the table is among its next lines.
fn constructor(value: &str) -> Option<&str> {
    let value = value.trim_start();
    if let Some(after) = value.strip_prefix('{') {
        return Some(after);
    }
    let simple = |callee: &str| !callee.is_empty() && callee.chars().all(|c| c.is_alphanumeric() || "_.:".contains(c));
    if let Some((callee, after)) = value.split_once('{')
        && simple(callee.trim_end())
    {
        return Some(after);
    }
    if let Some(callee) = value.trim_end().strip_suffix('(')
        && simple(callee)
    {
        return Some("");
    }
    let open = value.find('(')?;
    // The table that opens last on the line is the one its next lines fill (`setmetatable({}, {`).
    let brace = match value.trim_end().ends_with('{') {
        true => value.trim_end().len() - 1,
        false => open + value[open..].find('{')?,
    };
    let callee = simple(&value[..open]);
    let argument = value[..brace].trim_end().ends_with(['(', ',']) && !value[..brace].contains("function");
    (callee && argument).then(|| &value[brace + 1..])
}

/// A table field's name: `key` or `["key"]` (`['key']`).
fn key(target: &str) -> Option<&str> {
    let key = target
        .strip_prefix("[\"")
        .and_then(|rest| rest.strip_suffix("\"]"))
        .or_else(|| target.strip_prefix("['").and_then(|rest| rest.strip_suffix("']")))
        .unwrap_or(target);
    let simple = key.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_alphanumeric() || c == '_');
    simple.then_some(key)
}

/// A function set as a table's field by its key in brackets, `M["load"] = function(` or
/// `M['load'] = function(`, named as [`path_function`] names `M.load = function(`: `M.load`.
fn bracketed_field_function(line: &str) -> Option<String> {
    let (target, value) = line.split_once('=')?;
    let target = target.trim_end();
    let (table, field) = target.split_at(target.find('[')?);
    let table_named = !table.is_empty() && table.chars().all(|c| c.is_alphanumeric() || "_.:".contains(c));
    let name = key(field).filter(|name| table_named && !name.starts_with('['))?;
    let function = value.trim_start().strip_prefix("function")?.trim_start().starts_with('(');
    function.then(|| format!("{table}.{name}"))
}

/// A table constructor's function, `key = function(` or `["key"] = function(`.
fn member_function(line: &str) -> Option<String> {
    let (target, value) = line.split_once('=')?;
    let name = key(target.trim())?;
    value.trim_start().strip_prefix("function")?.trim_start().starts_with('(').then(|| name.into())
}

/// A function a table constructor holds, written on the line that opens the table (`local M =
/// setmetatable({ new = function(self, o)`): its head (`new = function(self, o)`), and whether its
/// body ends on the line too.
pub(super) struct HeadEntry {
    pub key: String,
    pub signature: String,
    pub closed: bool,
}

/// The functions on the line that opens a table whose entries go on over the next lines, in
/// order, up to the first whose body goes on past the line: what follows on the line is that
/// body. Without them the table's first function was missing from the views, or the line was
/// read as that function's head, joined with its body's lines up to the call's `)`.
pub(super) fn head_entries(line: &str, place: Place) -> Vec<HeadEntry> {
    let Some((_, after)) = table_head(line, place) else { return Vec::new() };
    entries_of_open_table(after)
}

/// The functions of a table that a line closing the one before opens (`}, { __index =
/// function(_, key)`: `setmetatable({ … }, { … })`'s metatable), which are its owner's as those of
/// the table before are; see [`head_entries`]. Left as a line that only closes, they were in
/// neither view, and the function before ran on to them.
pub(super) fn closing_line_entries(line: &str) -> Vec<HeadEntry> {
    let rest = line.trim_start_matches(|c: char| c.is_whitespace() || "})],".contains(c));
    match rest.strip_prefix('{') {
        Some(after) if rest.len() < line.trim_start().len() => entries_of_open_table(after),
        _ => Vec::new(),
    }
}

/// [`head_entries`] of the table whose constructor's text, after its `{`, is `after`.
fn entries_of_open_table(after: &str) -> Vec<HeadEntry> {
    if !stays_open(after) {
        return Vec::new();
    }
    let mut entries = Vec::new();
    // Where the last closed entry's body ended: the functions before it are its own.
    let mut passed = 0;
    for entry in entry_functions(after) {
        if entry.key_at < passed {
            continue;
        }
        let function = &after[entry.function_at..];
        let end = block_end(function);
        let parameters = function.find('(').and_then(|open| Some(open + closing(&function[open + 1..], '(', ')')? + 1));
        let head_end = entry.function_at + parameters.map_or(function.len(), |close| close + 1);
        entries.push(HeadEntry {
            key: entry.key,
            signature: signature_line(&after[entry.key_at..head_end]),
            closed: end.is_some(),
        });
        match end {
            Some(end) => passed = entry.function_at + end,
            None => break,
        }
    }
    entries
}

/// A `key = function` in a table constructor's text: the key, where it starts, and where its
/// `function` does.
struct Entry {
    key: String,
    key_at: usize,
    function_at: usize,
}

/// The functions in a table constructor written on one line (`text`: what follows its `{`), each
/// `key = function` right after the `{` or a `,`.
fn entry_functions(text: &str) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (at, _) in text.match_indices("function") {
        let Some(before) = text[..at].trim_end().strip_suffix('=') else { continue };
        let before = before.trim_end();
        let start = before
            .char_indices()
            .rev()
            .find(|&(_, c)| !(c.is_alphanumeric() || "_[]\"'".contains(c)))
            .map_or(0, |(at, c)| at + c.len_utf8());
        let opens = before[..start].trim_end();
        if (opens.is_empty() || opens.ends_with([',', '{']))
            && let Some(key) = key(&before[start..])
        {
            entries.push(Entry { key: key.to_string(), key_at: start, function_at: at });
        }
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_written_one_after_another_are_each_their_own() {
        let names = |line| {
            function_sequence(line, Place::File).map(|sequence| sequence.into_iter().map(|(name, _)| name).collect())
        };
        assert_eq!(
            names("M.f = function() end; M.g = function() end"),
            Some(vec!["M.f".to_string(), "M.g".to_string()])
        );
        assert_eq!(
            names("local function a() return 1 end local function b(x) end"),
            Some(vec!["a".to_string(), "b".to_string()])
        );
        // One function, a table's functions and a function then other code are read whole.
        assert_eq!(names("M.f = function() return g() end"), None);
        assert_eq!(names("local t = { a = function() end, b = function() end }"), None);
        assert_eq!(names("return setmetatable({}, { __index = function(t, k) end, __call = function() end })"), None);
        assert_eq!(names("M.f = function() end; x = 1"), None);
    }

    /// A key after a character of several bytes (`→f`) is cut at a character's boundary.
    #[test]
    fn keys_after_wide_characters_are_read() {
        let keys = |text| entry_functions(text).into_iter().map(|entry| entry.key).collect::<Vec<_>>();
        assert_eq!(keys(" →f = function() end, g = function() end }"), ["g"]);
        assert_eq!(keys(" f = function() end, g→ = function() end }"), ["f"]);
    }
}
