//! YAML values as the line editor reads and writes them: one-line scalars
//! (plain, single- and double-quoted), flow lists and maps of those, and an
//! entry's block maps and block lists built from them. Anything else (block
//! scalars, anchors, multi-line strings, lists of maps) is refused with a
//! message, never guessed at.

use serde_json::{Map, Number, Value};

/// A content line of a block: its indentation, its text after that, and
/// the offset of that text in the file (for error positions).
#[derive(Debug, Clone, Copy)]
pub(super) struct BlockLine<'a> {
    pub indent: usize,
    pub text: &'a str,
    pub offset: usize,
}

/// A problem at a byte offset in the file.
pub(super) type Located = (usize, String);

/// Splits `key: value` (the key plain or quoted) into the decoded key and
/// the text after the colon. `Err`: the line is not a mapping entry.
pub(super) fn split_key(text: &str) -> Result<(String, &str), String> {
    let (key, after) = match text.chars().next() {
        Some('"') => {
            let mut flow = Flow { s: text, pos: 0 };
            let key = flow.double()?;
            (key, &text[flow.pos..])
        }
        Some('\'') => {
            let mut flow = Flow { s: text, pos: 0 };
            let key = flow.single()?;
            (key, &text[flow.pos..])
        }
        Some('?') => return Err("complex keys (`? key`) are not supported".into()),
        Some('&' | '*' | '!') => return Err("anchors, aliases and tags are not supported".into()),
        Some('[' | '{') => return Err("flow-style collections are not supported here".into()),
        _ => {
            let colon = value_colon(text).ok_or("expected `key: value`")?;
            (text[..colon].trim_end().to_string(), &text[colon..])
        }
    };
    let after = after.trim_start_matches(' ');
    let rest = after.strip_prefix(':').ok_or("expected `:` after the key")?;
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return Err("expected a space after `:`".into());
    }
    if key == "<<" {
        return Err("merge keys (`<<`) are not supported".into());
    }
    Ok((key, rest))
}

/// The offset of the `:` that ends a plain key: the first one followed by a
/// space or the end of the line, before any comment.
fn value_colon(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'#' if i > 0 && matches!(bytes[i - 1], b' ' | b'\t') => return None,
            b':' if matches!(bytes.get(i + 1), None | Some(b' ' | b'\t')) => return Some(i),
            _ => {}
        }
    }
    None
}

/// Whether a block line is a list item (`- x`, or `-` alone).
pub(super) fn is_item(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

/// Whether the text after `key:` holds no value (nothing, or a comment).
pub(super) fn is_empty_value(rest: &str) -> bool {
    let rest = rest.trim_start();
    rest.is_empty() || rest.starts_with('#')
}

/// A one-line value (the text after `key:` or `- `) as JSON; a comment may follow it.
pub(super) fn parse_inline(text: &str) -> Result<Value, String> {
    let mut flow = Flow { s: text, pos: 0 };
    flow.skip_space();
    let value = flow.node(false)?;
    flow.skip_space();
    match &text[flow.pos..] {
        "" => Ok(value),
        rest if rest.starts_with('#') => Ok(value),
        rest => Err(format!("unexpected `{}` after the value", rest.trim_end())),
    }
}

/// Reads the block under an entry's `key:` line, its lines being the
/// entry's content lines (all indented deeper than the key).
pub(super) fn parse_block(lines: &[BlockLine<'_>]) -> Result<Value, Located> {
    let Some(first) = lines.first() else { return Ok(Value::Null) };
    let mut at = 0;
    let value = node(lines, &mut at, first.indent)?;
    match lines.get(at) {
        None => Ok(value),
        Some(line) => Err((line.offset, "unexpected indentation".into())),
    }
}

fn node(lines: &[BlockLine<'_>], at: &mut usize, indent: usize) -> Result<Value, Located> {
    if is_item(lines[*at].text) { list(lines, at, indent) } else { map(lines, at, indent) }
}

fn map(lines: &[BlockLine<'_>], at: &mut usize, indent: usize) -> Result<Value, Located> {
    let mut members = Map::new();
    while let Some(line) = lines.get(*at).filter(|l| l.indent == indent && !is_item(l.text)) {
        let (key, rest) = split_key(line.text).map_err(|m| (line.offset, m))?;
        *at += 1;
        let value = if is_empty_value(rest) {
            match lines.get(*at) {
                Some(next) if next.indent > indent => node(lines, at, next.indent)?,
                // A list may sit at its key's own indentation (what serde_yaml writes).
                Some(next) if next.indent == indent && is_item(next.text) => list(lines, at, indent)?,
                _ => Value::Null,
            }
        } else {
            let offset = line.offset + (line.text.len() - rest.len());
            parse_inline(rest).map_err(|m| (offset, m))?
        };
        members.insert(key, value);
    }
    Ok(Value::Object(members))
}

fn list(lines: &[BlockLine<'_>], at: &mut usize, indent: usize) -> Result<Value, Located> {
    let mut items = Vec::new();
    while let Some(line) = lines.get(*at).filter(|l| l.indent == indent && is_item(l.text)) {
        let item = &line.text[1..];
        if is_empty_value(item) || split_key(item.trim_start()).is_ok() {
            return Err((line.offset, "lists of maps or nested lists are not supported here".into()));
        }
        items.push(parse_inline(item).map_err(|m| (line.offset, m))?);
        *at += 1;
    }
    Ok(Value::Array(items))
}

/// A cursor over one line's flow text.
struct Flow<'a> {
    s: &'a str,
    pos: usize,
}

impl Flow<'_> {
    fn peek(&self) -> Option<char> {
        self.s[self.pos..].chars().next()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.pos += 1;
        }
    }

    fn node(&mut self, in_flow: bool) -> Result<Value, String> {
        match self.peek() {
            None => Ok(Value::Null),
            Some('"') => self.double().map(Value::String),
            Some('\'') => self.single().map(Value::String),
            Some('[') => self.list(),
            Some('{') => self.map(),
            Some('&' | '*' | '!') => Err("anchors, aliases and tags are not supported".into()),
            Some('|' | '>') => Err("block scalars (`|`, `>`) are not supported here".into()),
            Some(_) => Ok(resolve_plain(self.plain(in_flow))),
        }
    }

    /// A plain scalar: up to `: `, ` #`, the end of the line, or in a flow
    /// collection `,`, `]`, `}`.
    fn plain(&mut self, in_flow: bool) -> &str {
        let rest = &self.s[self.pos..];
        let bytes = rest.as_bytes();
        let mut end = bytes.len();
        for (i, &b) in bytes.iter().enumerate() {
            let next = bytes.get(i + 1).copied();
            let breaks = |n: Option<u8>| {
                matches!(n, None | Some(b' ' | b'\t')) || in_flow && matches!(n, Some(b',' | b']' | b'}'))
            };
            let stop = match b {
                b':' => breaks(next),
                b'#' => i > 0 && matches!(bytes[i - 1], b' ' | b'\t'),
                b',' | b'[' | b']' | b'{' | b'}' => in_flow,
                _ => false,
            };
            if stop {
                end = i;
                break;
            }
        }
        self.pos += end;
        rest[..end].trim_end()
    }

    fn double(&mut self) -> Result<String, String> {
        let mut out = String::new();
        let mut chars = self.s[self.pos + 1..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += 1 + i + 1;
                    return Ok(out);
                }
                '\\' => {
                    let (_, e) = chars.next().ok_or(UNCLOSED)?;
                    let hex = |n: usize, chars: &mut std::str::CharIndices<'_>| -> Result<char, String> {
                        let digits: String = chars.by_ref().take(n).map(|(_, c)| c).collect();
                        u32::from_str_radix(&digits, 16)
                            .ok()
                            .filter(|_| digits.len() == n)
                            .and_then(char::from_u32)
                            .ok_or_else(|| format!("bad escape `\\{e}{digits}`"))
                    };
                    out.push(match e {
                        '0' => '\0',
                        'a' => '\x07',
                        'b' => '\x08',
                        't' | '\t' => '\t',
                        'n' => '\n',
                        'v' => '\x0b',
                        'f' => '\x0c',
                        'r' => '\r',
                        'e' => '\x1b',
                        ' ' | '"' | '/' | '\\' => e,
                        'N' => '\u{85}',
                        '_' => '\u{a0}',
                        'L' => '\u{2028}',
                        'P' => '\u{2029}',
                        'x' => hex(2, &mut chars)?,
                        'u' => hex(4, &mut chars)?,
                        'U' => hex(8, &mut chars)?,
                        other => return Err(format!("unknown escape `\\{other}`")),
                    });
                }
                c => out.push(c),
            }
        }
        Err(UNCLOSED.into())
    }

    fn single(&mut self) -> Result<String, String> {
        let body = &self.s[self.pos + 1..];
        let mut out = String::new();
        let mut i = 0;
        while let Some(c) = body[i..].chars().next() {
            if c == '\'' {
                if body[i + 1..].starts_with('\'') {
                    out.push('\'');
                    i += 2;
                    continue;
                }
                self.pos += 1 + i + 1;
                return Ok(out);
            }
            out.push(c);
            i += c.len_utf8();
        }
        Err(UNCLOSED.into())
    }

    fn list(&mut self) -> Result<Value, String> {
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            self.skip_space();
            if self.eat(']') {
                return Ok(Value::Array(items));
            }
            items.push(self.node(true)?);
            self.skip_space();
            if !self.eat(',') && self.peek() != Some(']') {
                return Err("expected `,` or `]` (a flow list must end on its line)".into());
            }
        }
    }

    fn map(&mut self) -> Result<Value, String> {
        self.pos += 1;
        let mut members = Map::new();
        loop {
            self.skip_space();
            if self.eat('}') {
                return Ok(Value::Object(members));
            }
            let key = match self.node(true)? {
                Value::String(s) => s,
                Value::Null => String::new(),
                other => other.to_string(),
            };
            self.skip_space();
            let value = if self.eat(':') {
                self.skip_space();
                if matches!(self.peek(), Some(',' | '}')) { Value::Null } else { self.node(true)? }
            } else {
                Value::Null
            };
            members.insert(key, value);
            self.skip_space();
            if !self.eat(',') && self.peek() != Some('}') {
                return Err("expected `,` or `}` (a flow map must end on its line)".into());
            }
        }
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.peek() == Some(c);
        if found {
            self.pos += c.len_utf8();
        }
        found
    }
}

const UNCLOSED: &str = "a quoted string that does not end on its line";

/// A plain scalar's value under YAML 1.2's core schema.
fn resolve_plain(s: &str) -> Value {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    let looks_numeric = digits.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && digits.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'));
    if looks_numeric {
        if let Ok(i) = s.parse::<i64>() {
            return Value::from(i);
        }
        let radix = |prefix: &str, radix: u32| s.strip_prefix(prefix).and_then(|d| i64::from_str_radix(d, radix).ok());
        if let Some(i) = radix("0x", 16).or_else(|| radix("0o", 8)) {
            return Value::from(i);
        }
        if let Some(n) = s.parse::<f64>().ok().and_then(Number::from_f64) {
            return Value::Number(n);
        }
    }
    Value::String(s.to_string())
}

/// A value as one line of YAML (flow style for lists and maps).
pub(super) fn format(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => scalar(s),
        Value::Array(items) => format!("[{}]", items.iter().map(format).collect::<Vec<_>>().join(", ")),
        Value::Object(members) => format!(
            "{{{}}}",
            members.iter().map(|(k, v)| format!("{}: {}", scalar(k), format(v))).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// A string as a plain scalar when that reads back as the same string in
/// block and flow context alike, else double-quoted (JSON's escapes are
/// all YAML escapes).
pub(super) fn scalar(s: &str) -> String {
    let plain = s.chars().next().is_some_and(|c| !"-?:,[]{}#&*!|>'\"%@`".contains(c) && !c.is_whitespace())
        && !s.ends_with([' ', ':'])
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.chars().any(|c| c.is_control() || c == '\u{feff}' || ",[]{}".contains(c))
        && resolve_plain(s) == Value::String(s.to_string());
    if plain { s.to_string() } else { Value::String(s.to_string()).to_string() }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn inline_values_follow_the_core_schema() {
        assert_eq!(parse_inline(" npx").unwrap(), json!("npx"));
        assert_eq!(parse_inline(" 300 # seconds").unwrap(), json!(300));
        assert_eq!(parse_inline(" 1.5").unwrap(), json!(1.5));
        assert_eq!(parse_inline(" true").unwrap(), json!(true));
        assert_eq!(parse_inline(" ~").unwrap(), json!(null));
        assert_eq!(parse_inline(" 0x1f").unwrap(), json!(31));
        assert_eq!(parse_inline(" 1.2.3").unwrap(), json!("1.2.3"));
        assert_eq!(parse_inline(" /a/b c#d").unwrap(), json!("/a/b c#d"));
        assert_eq!(parse_inline(r#" "a\"b\\c\u00e9\x41""#).unwrap(), json!("a\"b\\céA"));
        assert_eq!(parse_inline(" 'it''s'").unwrap(), json!("it's"));
        assert_eq!(
            parse_inline(r#" ["-y", '@scope/pkg', plain, 3, {}] "#).unwrap(),
            json!(["-y", "@scope/pkg", "plain", 3, {}])
        );
        assert_eq!(parse_inline(" {A: 1, \"b\": [x], c:}").unwrap(), json!({"A": 1, "b": ["x"], "c": null}));
        for bad in [" *alias", " &a x", " !!str x", " |", " \"open", " [a, b", " a: b", r#" "\q""#] {
            assert!(parse_inline(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn keys_are_split_plain_or_quoted() {
        assert_eq!(split_key("cmd: npx").unwrap(), ("cmd".to_string(), " npx"));
        assert_eq!(split_key("lean-ctx:").unwrap(), ("lean-ctx".to_string(), ""));
        assert_eq!(split_key("\"a: b\" : 1").unwrap(), ("a: b".to_string(), " 1"));
        assert_eq!(split_key("'x''y': 1").unwrap(), ("x'y".to_string(), " 1"));
        assert_eq!(split_key("http://x: 1").unwrap(), ("http://x".to_string(), " 1"));
        for bad in ["no colon", "a:b", "? k", "&a k: v", "<<: *x", "k # c: v"] {
            assert!(split_key(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn blocks_read_maps_and_lists_in_both_indentations() {
        let line = |indent, text| BlockLine { indent, text, offset: 0 };
        let lines = [
            line(4, "cmd: npx"),
            line(4, "args:"),
            line(4, "- -y"),
            line(4, "- '@m/server'"),
            line(4, "envs:"),
            line(6, "KEY: v"),
            line(4, "env_keys:"),
            line(6, "- A"),
            line(4, "none:"),
        ];
        assert_eq!(
            parse_block(&lines).unwrap(),
            json!({"cmd": "npx", "args": ["-y", "@m/server"], "envs": {"KEY": "v"}, "env_keys": ["A"], "none": null})
        );
        assert!(parse_block(&[line(4, "a:"), line(6, "- k: v")]).is_err(), "lists of maps");
        assert!(parse_block(&[line(4, "a: 1"), line(6, "b: 2")]).is_err(), "stray indentation");
    }

    #[test]
    fn written_values_read_back_as_themselves() {
        let values = [
            json!("/home/u/.local/bin/lctx-mcp"),
            json!("/path with spaces/lctx-mcp"),
            json!("true"),
            json!("300"),
            json!(""),
            json!("-x"),
            json!("a: b"),
            json!("tab\there"),
            json!("x #y"),
            json!("[x]"),
            json!(300),
            json!(true),
            json!([]),
            json!({}),
            json!(["a", "b c", "#"]),
            json!({"K": "v", "e": []}),
        ];
        for value in values {
            let text = format(&value);
            assert_eq!(parse_inline(&format!(" {text}")).unwrap(), value, "{text}");
        }
        assert_eq!(scalar("/opt/lctx-mcp"), "/opt/lctx-mcp");
        assert_eq!(scalar("lean-ctx"), "lean-ctx");
        assert_eq!(scalar("stdio"), "stdio");
        assert_eq!(scalar("null"), "\"null\"");
    }
}
