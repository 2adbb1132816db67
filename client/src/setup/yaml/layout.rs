//! Finding, line by line, one top-level key of a YAML file and the entries
//! of the block map under it — and refusing, with the line, whatever would
//! make an edit of single lines unsafe: a file that is not a block map,
//! more than one document, tabs in indentation, a map in flow style,
//! anchors, aliases, tags and merge keys in it, strings that span lines,
//! duplicate keys.
//!
//! Only what decides line boundaries is read: the other top-level keys'
//! values are skipped whole (their lines are indented deeper, whatever they
//! hold), and inside the map a block scalar's lines are skipped as text.

use super::value::{is_empty_value, is_item, split_key};
use crate::setup::TextError;

/// One line of the file.
#[derive(Debug)]
pub(super) struct Line<'a> {
    /// Offset of its first byte (after a byte-order mark on the first line).
    pub start: usize,
    /// Offset where its line break starts (or the end of the text).
    pub content_end: usize,
    /// Offset just past its line break (or the end of the text).
    pub end: usize,
    /// Leading spaces.
    pub indent: usize,
    /// The text after them, without the line break.
    pub rest: &'a str,
}

impl Line<'_> {
    pub fn is_blank(&self) -> bool {
        self.rest.trim().is_empty()
    }

    pub fn is_comment(&self) -> bool {
        self.rest.trim_start_matches([' ', '\t']).starts_with('#')
    }

    fn is_content(&self) -> bool {
        !self.is_blank() && !self.is_comment()
    }

    /// Offset of byte `col` of `rest`.
    pub fn at(&self, col: usize) -> usize {
        self.start + self.indent + col
    }
}

/// The file as lines, and where the map is.
#[derive(Debug)]
pub(super) struct Layout<'a> {
    pub lines: Vec<Line<'a>>,
    /// The file's line break: `\r\n` when it uses them, else `\n`.
    pub eol: &'static str,
    pub map: Option<MapBlock<'a>>,
}

/// The top-level key and the block map under it.
#[derive(Debug)]
pub(super) struct MapBlock<'a> {
    /// Index of the `key:` line.
    pub key_line: usize,
    /// A comment follows `key:` on its line.
    pub key_commented: bool,
    /// Indentation of the entries' keys; `None` when there are none.
    pub indent: Option<usize>,
    pub entries: Vec<Entry<'a>>,
    /// Indexes of comment lines among the map's lines.
    pub comments: Vec<usize>,
    /// Index of its last non-blank line that is not a comment (the key line when empty).
    pub last_content: usize,
}

/// One entry of the map: `name:` and the lines below it.
#[derive(Debug)]
pub(super) struct Entry<'a> {
    pub name: String,
    /// Index of the `name:` line.
    pub first: usize,
    /// Index of its last non-blank line (comments after it belong to what follows).
    pub last: usize,
    /// The text after `name:` on its line.
    pub value: &'a str,
    /// Offset of that text.
    pub value_at: usize,
}

pub(super) fn scan<'a>(text: &'a str, key: &str) -> Result<Layout<'a>, TextError> {
    let lines = split_lines(text);
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut found: Option<usize> = None;
    let mut seen_content = false;
    for (i, line) in lines.iter().enumerate() {
        if line.indent > 0 || !line.is_content() {
            continue;
        }
        let refuse = |message: &str| Err(TextError::at(line.start, message));
        let rest = line.rest;
        if rest.starts_with('\t') {
            return refuse(TAB);
        }
        let marker = |m: &str| rest.starts_with(m) && rest[3..].chars().next().is_none_or(|c| c == ' ' || c == '\t');
        if marker("---") && !seen_content && is_empty_value(&rest[3..]) {
            continue;
        }
        if marker("---") || marker("...") || rest.starts_with('%') {
            return refuse("more than one YAML document, or a directive; lctx edits a single plain document");
        }
        if is_item(rest) {
            if !seen_content {
                return refuse("the file is a YAML list, not a map of settings");
            }
            // The list of the key above, at that key's own indentation (as serde_yaml writes lists).
            continue;
        }
        seen_content = true;
        let (name, value) = split_key(rest).map_err(|m| TextError::at(line.start, m))?;
        if name != key {
            continue;
        }
        if found.is_some() {
            return refuse(&format!("`{key}` appears twice"));
        }
        let value_at = line.at(rest.len() - value.len());
        let v = value.trim_start();
        if v.starts_with(['{', '[']) {
            return Err(TextError::at(
                value_at,
                format!(
                    "`{key}` is written in flow style ({{…}} or […]); lctx edits it only in block style, one entry per line"
                ),
            ));
        }
        if v.starts_with(['&', '*', '!']) {
            return Err(TextError::at(value_at, ANCHORS));
        }
        if !is_empty_value(value) {
            return Err(TextError::at(value_at, format!("`{key}` is not a map")));
        }
        found = Some(i);
    }
    let map = found.map(|key_line| map_block(&lines, key_line)).transpose()?;
    Ok(Layout { lines, eol, map })
}

const TAB: &str = "a tab in the indentation; lctx edits only YAML indented with spaces";
const ANCHORS: &str = "anchors, aliases, tags and merge keys are not supported here; lctx edits only plain YAML";

/// Reads the block map under the key on line `key_line`: every line up to
/// the next line that starts at column 0 with content.
fn map_block<'a>(lines: &[Line<'a>], key_line: usize) -> Result<MapBlock<'a>, TextError> {
    let key_commented = lines[key_line].rest.contains(" #");
    let mut block = MapBlock {
        key_line,
        key_commented,
        indent: None,
        entries: Vec::new(),
        comments: Vec::new(),
        last_content: key_line,
    };
    // The indentation of a line that opened a block scalar: deeper lines are its text.
    let mut scalar_of: Option<usize> = None;
    for (i, line) in lines.iter().enumerate().skip(key_line + 1) {
        if line.indent == 0 && line.is_content() {
            if is_item(line.rest) {
                return Err(TextError::at(line.start, "this key holds a list, not a map of entries"));
            }
            break;
        }
        if line.is_blank() {
            continue;
        }
        if let Some(parent) = scalar_of {
            if line.indent > parent {
                if let Some(entry) = block.entries.last_mut() {
                    entry.last = i;
                }
                block.last_content = i;
                continue;
            }
            scalar_of = None;
        }
        if line.is_comment() {
            block.comments.push(i);
            continue;
        }
        if line.rest.starts_with('\t') {
            return Err(TextError::at(line.start, TAB));
        }
        block.last_content = i;
        let indent = *block.indent.get_or_insert(line.indent);
        if line.indent < indent {
            return Err(TextError::at(line.start, "this line is indented less than the entries above it"));
        }
        if check_nodes(line)? {
            scalar_of = Some(line.indent);
        }
        if line.indent > indent {
            let Some(entry) = block.entries.last_mut() else {
                return Err(TextError::at(line.start, "unexpected indentation"));
            };
            entry.last = i;
            continue;
        }
        if is_item(line.rest) {
            return Err(TextError::at(line.start, "this key holds a list, not a map of entries"));
        }
        let (name, value) = split_key(line.rest).map_err(|m| TextError::at(line.start, m))?;
        if block.entries.iter().any(|e| e.name == name) {
            return Err(TextError::at(line.start, format!("the entry `{name}` appears twice")));
        }
        let value_at = line.at(line.rest.len() - value.len());
        block.entries.push(Entry { name, first: i, last: i, value, value_at });
    }
    Ok(block)
}

/// Checks every place on a line where a node starts (the line's start,
/// after `- `, after `key: `, inside `[…]` and `{…}`) for an anchor, alias,
/// tag or merge key, and that quoted strings end on the line. `true`: the
/// line opens a block scalar (`key: |`), whose text follows on deeper lines.
fn check_nodes(line: &Line<'_>) -> Result<bool, TextError> {
    let bytes = line.rest.as_bytes();
    let mut node_start = true;
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let next = bytes.get(i + 1).copied();
        let spaced = |n: Option<u8>| matches!(n, None | Some(b' ' | b'\t'));
        match b {
            b' ' | b'\t' => {}
            b'#' if i == 0 || matches!(bytes[i - 1], b' ' | b'\t') => break,
            b'&' | b'*' | b'!' if node_start => return Err(TextError::at(line.at(i), ANCHORS)),
            b'<' if node_start && line.rest[i..].starts_with("<<") => return Err(TextError::at(line.at(i), ANCHORS)),
            b'|' | b'>' if node_start && depth == 0 => return Ok(true),
            b'-' | b'?' if node_start && spaced(next) => {}
            b'"' | b'\'' if node_start => {
                i = quoted_end(bytes, i).ok_or_else(|| {
                    TextError::at(
                        line.at(i),
                        "a quoted string that does not end on its line; lctx cannot edit around it",
                    )
                })?;
                node_start = false;
            }
            b'[' | b'{' => {
                depth += 1;
                node_start = true;
            }
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                node_start = false;
            }
            b',' if depth > 0 => node_start = true,
            b':' if spaced(next) || depth > 0 && matches!(next, Some(b',' | b']' | b'}')) => node_start = true,
            _ => node_start = false,
        }
        i += 1;
    }
    Ok(false)
}

/// The index of the quote closing the string that opens at `open`.
fn quoted_end(bytes: &[u8], open: usize) -> Option<usize> {
    let quote = bytes[open];
    let mut i = open + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quote == b'"' => i += 1,
            b'\'' if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 1,
            b if b == quote => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

fn split_lines(text: &str) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    let mut start = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    while start < text.len() {
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i + 1);
        let line = text[start..end].strip_suffix('\n').unwrap_or(&text[start..end]);
        let line = line.strip_suffix('\r').unwrap_or(line);
        let rest = line.trim_start_matches(' ');
        let indent = line.len() - rest.len();
        lines.push(Line { start, content_end: start + line.len(), end, indent, rest });
        start = end;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(text: &str) -> (usize, String) {
        let err = scan(text, "extensions").unwrap_err();
        let located = err.locate(std::path::Path::new("f"), text);
        let line = located.split(':').nth(1).unwrap().parse().unwrap();
        (line, located)
    }

    #[test]
    fn finds_the_entries_of_the_map_and_skips_everything_else() {
        let text = "---\n# top\nGOOSE_MODE: auto\nnotes: |\n  extensions:\n    fake: 1\nextensions:\n  developer:\n    \
                    description: |\n      # not a comment\n      - *not an alias\n    enabled: true\n# between\n  \
                    lean-ctx: {cmd: x}\n\n  github:\n    args:\n    - -y\n# trailing\nlast: 1\n";
        let layout = scan(text, "extensions").unwrap();
        let map = layout.map.unwrap();
        assert_eq!(map.key_line, 6);
        assert_eq!(map.indent, Some(2));
        let names: Vec<_> = map.entries.iter().map(|e| (e.name.as_str(), e.first, e.last)).collect();
        assert_eq!(names, [("developer", 7, 11), ("lean-ctx", 13, 13), ("github", 15, 17)]);
        assert_eq!(map.comments, [12, 18]);
        assert_eq!(map.last_content, 17);
        assert_eq!(map.entries[1].value, " {cmd: x}");
        assert!(scan("a: 1\n", "extensions").unwrap().map.is_none());
        let lists = scan("paths:\n- /usr/bin\nextensions:\n  a: {}\nmore:\n- x\n", "extensions").unwrap();
        assert_eq!(lists.map.unwrap().entries.len(), 1, "top-level lists at column 0 belong to their keys");
    }

    #[test]
    fn refuses_what_a_line_edit_could_break_naming_the_line() {
        let cases = [
            ("a: 1\nextensions: {developer: {enabled: true}}\n", 2, "flow style"),
            ("extensions: []\n", 1, "flow style"),
            ("extensions:\n  dev:\n\tenabled: true\n", 3, "tab"),
            ("extensions:\n  dev: &d\n    enabled: true\n  other: *d\n", 2, "anchors"),
            ("extensions:\n  dev:\n    <<: *base\n", 3, "anchors"),
            ("extensions:\n  dev:\n    cmd: !!str x\n", 3, "anchors"),
            ("extensions: &e\n  dev: {}\n", 1, "anchors"),
            ("extensions:\n  - dev\n", 2, "list"),
            ("extensions:\n- dev\n", 2, "list"),
            ("extensions:\n  a: 1\n- dev\n", 3, "list"),
            ("- a\n", 1, "list"),
            ("a: 1\n---\nb: 2\n", 2, "document"),
            ("extensions:\n  a: 1\n  a: 2\n", 3, "twice"),
            ("extensions:\n  a: 1\nextensions:\n  b: 1\n", 3, "twice"),
            ("extensions:\n    a:\n  b: 1\n", 3, "indented less"),
            ("extensions:\n  a:\n    description: \"long\n      text\"\n", 3, "quoted string"),
            ("extensions: yes\n", 1, "not a map"),
            ("extensions:\n  just text\n", 2, "expected `key: value`"),
        ];
        for (text, line, says) in cases {
            let (at, message) = refusal(text);
            assert_eq!(at, line, "{text:?}: {message}");
            assert!(message.contains(says), "{text:?}: {message}");
        }
    }

    #[test]
    fn lines_keep_their_breaks_and_a_bom_is_skipped() {
        let text = "\u{feff}a: 1\r\nb:";
        let layout = scan(text, "b").unwrap();
        assert_eq!(layout.eol, "\r\n");
        let second = &layout.lines[1];
        assert_eq!((second.start, second.content_end, second.end), (9, 11, 11));
        assert_eq!(layout.lines[0].rest, "a: 1");
        assert_eq!(layout.map.unwrap().key_line, 1);
    }
}
