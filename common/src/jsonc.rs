//! Reading a JSON or JSONC file, and editing one of its members as text.
//!
//! A round trip through serde would drop the user's comments, reorder keys
//! and reformat the whole file. Instead the file is scanned once into a tree
//! of byte offsets (objects, members, values, commas) and only the bytes of
//! one member change: comments, key order, indentation, line endings and
//! trailing commas elsewhere stay as they were. New text copies the
//! indentation of its siblings.
//!
//! Accepted: JSON plus `//` and `/* */` comments and trailing commas (the
//! JSONC that VS Code, Zed and Gemini CLI read) and a leading byte-order mark.

use std::ops::Range;

use serde_json::Value;

use crate::text_error::TextError;

/// Deeper nesting than this is refused rather than risking the stack.
const MAX_DEPTH: usize = 128;

#[derive(Debug)]
enum Node {
    Object(Object),
    Array {
        span: Range<usize>,
        items: Vec<Node>,
        /// Offset of the comma after each item, if any.
        commas: Vec<Option<usize>>,
    },
    /// A string, number, `true`, `false` or `null`: its JSON text.
    Scalar(Range<usize>),
}

#[derive(Debug)]
struct Object {
    /// Offset of `{`.
    open: usize,
    /// Offset of `}`.
    close: usize,
    members: Vec<Member>,
}

#[derive(Debug)]
struct Member {
    /// The decoded key.
    key: String,
    /// Offset of the key's opening quote.
    key_start: usize,
    value: Node,
    /// Offset of the comma after the value, if any.
    comma: Option<usize>,
}

impl Node {
    fn span(&self) -> Range<usize> {
        match self {
            Node::Object(o) => o.open..o.close + 1,
            Node::Array { span, .. } | Node::Scalar(span) => span.clone(),
        }
    }

    fn as_object(&self) -> Option<&Object> {
        match self {
            Node::Object(o) => Some(o),
            _ => None,
        }
    }
}

impl Object {
    /// The member a JSON reader would see: the last one with this key.
    fn member(&self, key: &str) -> Option<usize> {
        self.members.iter().rposition(|m| m.key == key)
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// Whitespace and comments.
    fn skip_trivia(&mut self) -> Result<(), TextError> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'/') if self.text[self.pos..].starts_with("//") => {
                    self.pos = self.text[self.pos..].find('\n').map_or(self.text.len(), |i| self.pos + i);
                }
                Some(b'/') if self.text[self.pos..].starts_with("/*") => {
                    let end =
                        self.text[self.pos + 2..].find("*/").ok_or_else(|| self.error("unterminated /* comment"))?;
                    self.pos += 2 + end + 2;
                }
                _ => return Ok(()),
            }
        }
    }

    fn error(&self, message: &str) -> TextError {
        TextError::at(self.pos, message)
    }

    fn value(&mut self, depth: usize) -> Result<Node, TextError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Node::Scalar),
            Some(b'-' | b'0'..=b'9') => self.number().map(Node::Scalar),
            Some(_) => {
                let start = self.pos;
                let word = ["true", "false", "null"].into_iter().find(|w| self.text[start..].starts_with(w));
                let word = word.ok_or_else(|| self.error("expected a value"))?;
                self.pos += word.len();
                Ok(Node::Scalar(start..self.pos))
            }
            None => Err(self.error("unexpected end of file; expected a value")),
        }
    }

    fn string(&mut self) -> Result<Range<usize>, TextError> {
        let start = self.pos;
        self.pos += 1;
        loop {
            match self.peek() {
                None => return Err(TextError::at(start, "unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(start..self.pos);
                }
                Some(b'\\') => match self.text.as_bytes().get(self.pos + 1) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.pos += 2,
                    Some(b'u') if self.text.get(self.pos + 2..self.pos + 6).is_some_and(is_hex4) => self.pos += 6,
                    _ => return Err(self.error("invalid escape in string")),
                },
                Some(c) if c < 0x20 => return Err(self.error("line break or control character inside a string")),
                Some(_) => self.pos += 1,
            }
        }
    }

    fn number(&mut self) -> Result<Range<usize>, TextError> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let from = p.pos;
            while p.peek().is_some_and(|c| c.is_ascii_digit()) {
                p.pos += 1;
            }
            p.pos > from
        };
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        let int_start = self.pos;
        if !digits(self) || (self.text.as_bytes()[int_start] == b'0' && self.pos - int_start > 1) {
            return Err(TextError::at(start, "invalid number"));
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !digits(self) {
                return Err(TextError::at(start, "invalid number"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !digits(self) {
                return Err(TextError::at(start, "invalid number"));
            }
        }
        Ok(start..self.pos)
    }

    fn object(&mut self, depth: usize) -> Result<Node, TextError> {
        let open = self.pos;
        self.pos += 1;
        let mut members: Vec<Member> = Vec::new();
        loop {
            self.skip_trivia()?;
            let expects_member = members.last().is_none_or(|m| m.comma.is_some());
            match self.peek() {
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Node::Object(Object { open, close: self.pos - 1, members }));
                }
                Some(b'"') if expects_member => {
                    let key_span = self.string()?;
                    let key = serde_json::from_str(&self.text[key_span.clone()])
                        .map_err(|e| TextError::at(key_span.start, format!("invalid key: {e}")))?;
                    self.skip_trivia()?;
                    if self.peek() != Some(b':') {
                        return Err(self.error("expected `:` after the key"));
                    }
                    self.pos += 1;
                    self.skip_trivia()?;
                    let value = self.value(depth + 1)?;
                    self.skip_trivia()?;
                    let comma = (self.peek() == Some(b',')).then_some(self.pos);
                    self.pos += usize::from(comma.is_some());
                    members.push(Member { key, key_start: key_span.start, value, comma });
                }
                None => return Err(TextError::at(open, "this `{` is never closed")),
                Some(_) if expects_member => return Err(self.error("expected a key in double quotes or `}`")),
                Some(_) => return Err(self.error("expected `,` or `}`")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Node, TextError> {
        let open = self.pos;
        self.pos += 1;
        let mut items = Vec::new();
        let mut commas = Vec::new();
        let mut expects_item = true;
        loop {
            self.skip_trivia()?;
            match self.peek() {
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Node::Array { span: open..self.pos, items, commas });
                }
                None => return Err(TextError::at(open, "this `[` is never closed")),
                Some(_) if !expects_item => return Err(self.error("expected `,` or `]`")),
                Some(_) => {
                    items.push(self.value(depth + 1)?);
                    self.skip_trivia()?;
                    expects_item = self.peek() == Some(b',');
                    commas.push(expects_item.then_some(self.pos));
                    self.pos += usize::from(expects_item);
                }
            }
        }
    }
}

fn is_hex4(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// How new text is laid out so it looks like the rest of the file.
struct Style {
    /// One level of indentation, as the file uses it (default two spaces).
    unit: String,
    /// The file's line break.
    nl: &'static str,
}

/// A parsed file.
struct Doc<'a> {
    text: &'a str,
    /// `None`: the file holds no value (empty, or comments only).
    root: Option<Node>,
}

fn parse(text: &str) -> Result<Doc<'_>, TextError> {
    let mut p = Parser { text, pos: if text.starts_with('\u{feff}') { 3 } else { 0 } };
    p.skip_trivia()?;
    let root = if p.peek().is_some() { Some(p.value(0)?) } else { None };
    p.skip_trivia()?;
    if p.peek().is_some() {
        return Err(p.error("unexpected text after the end of the document"));
    }
    Ok(Doc { text, root })
}

impl Doc<'_> {
    fn root_object(&self) -> Result<Option<&Object>, TextError> {
        match &self.root {
            None => Ok(None),
            Some(Node::Object(o)) => Ok(Some(o)),
            Some(other) => Err(TextError::at(other.span().start, "the top level is not an object")),
        }
    }

    /// The object holding the last key of `path`, and that member's index if present.
    /// `None` when a parent object is missing or is not an object.
    fn find(&self, path: &[&str]) -> Result<Option<(&Object, Option<usize>)>, TextError> {
        let (name, parents) = path.split_last().expect("a non-empty key path");
        let Some(mut obj) = self.root_object()? else { return Ok(None) };
        for key in parents {
            match obj.member(key).and_then(|i| obj.members[i].value.as_object()) {
                Some(child) => obj = child,
                None => return Ok(None),
            }
        }
        Ok(Some((obj, obj.member(name))))
    }

    fn value(&self, node: &Node) -> Value {
        match node {
            Node::Object(o) => Value::Object(o.members.iter().map(|m| (m.key.clone(), self.value(&m.value))).collect()),
            Node::Array { items, .. } => Value::Array(items.iter().map(|n| self.value(n)).collect()),
            // Valid JSON by construction; only out-of-range numbers fail, kept as their text.
            Node::Scalar(span) => {
                let raw = &self.text[span.clone()];
                serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()))
            }
        }
    }

    fn style(&self) -> Style {
        let nl = if self.text.contains("\r\n") { "\r\n" } else { "\n" };
        let unit = self.root.as_ref().and_then(|r| self.indent_unit(r)).unwrap_or("  ").to_string();
        Style { unit, nl }
    }

    /// The first indentation step found: a member on its own line, indented
    /// further than the line of its object's `{`.
    fn indent_unit(&self, node: &Node) -> Option<&str> {
        match node {
            Node::Object(o) => {
                let outer = line_indent(self.text, o.open);
                let own = o.members.iter().find(|m| starts_line(self.text, m.key_start)).and_then(|m| {
                    let inner = line_indent(self.text, m.key_start);
                    inner.strip_prefix(outer).filter(|step| !step.is_empty())
                });
                own.or_else(|| o.members.iter().find_map(|m| self.indent_unit(&m.value)))
            }
            Node::Array { items, .. } => items.iter().find_map(|n| self.indent_unit(n)),
            Node::Scalar(_) => None,
        }
    }

    /// Adds member `key: value` at the end of `obj`.
    fn insert(&self, obj: &Object, key: &str, value: &Fragment, style: &Style) -> String {
        let text = self.text;
        let outer = line_indent(text, obj.open);
        let name = json_string(key);
        let Some(last) = obj.members.last() else {
            // Empty: the member goes on its own line; comments inside stay before it.
            let interior = &text[obj.open + 1..obj.close];
            let head = trim_ws_end(interior);
            let inner = format!("{outer}{}", style.unit);
            let closing = closing_break(&interior[head.len()..], outer, style);
            let member = format!("{name}: {}", value.render(&inner, style));
            return splice(text, obj.open + 1..obj.close, &format!("{head}{}{inner}{member}{closing}", style.nl));
        };
        let value_end = last.value.span().end;
        if !text[obj.open..obj.close].contains('\n') {
            // A one-line object stays on one line.
            let member = format!(" {name}: {}", value.render_inline());
            return match last.comma {
                None => splice(text, value_end..value_end, &format!(",{member}")),
                Some(comma) => splice(text, comma + 1..comma + 1, &format!("{member},")),
            };
        }
        let inner = obj
            .members
            .iter()
            .find(|m| starts_line(text, m.key_start))
            .map_or_else(|| format!("{outer}{}", style.unit), |m| line_indent(text, m.key_start).to_string());
        // After the last value: its comma (if any) and comments stay, then our member, then the `}` line.
        let tail = &text[value_end..obj.close];
        let head = trim_ws_end(tail);
        let closing = closing_break(&tail[head.len()..], outer, style);
        let member = format!("{name}: {}", value.render(&inner, style));
        let nl = style.nl;
        let new_tail = match last.comma {
            None => format!(",{head}{nl}{inner}{member}{closing}"),
            // The file uses trailing commas; so does our member.
            Some(_) => format!("{head}{nl}{inner}{member},{closing}"),
        };
        splice(text, value_end..obj.close, &new_tail)
    }

    /// Replaces the value of `obj.members[index]`.
    fn replace(&self, obj: &Object, index: usize, value: &Fragment, style: &Style) -> String {
        let member = &obj.members[index];
        let rendered = if self.text[obj.open..obj.close].contains('\n') {
            value.render(line_indent(self.text, member.key_start), style)
        } else {
            value.render_inline()
        };
        splice(self.text, member.value.span(), &rendered)
    }

    /// Deletes `obj.members[index]` with the right comma; comments around it stay.
    fn delete(&self, obj: &Object, index: usize) -> String {
        let entries: Vec<Entry> =
            obj.members.iter().map(|m| Entry { start: m.key_start, end: m.value.span().end, comma: m.comma }).collect();
        delete_entry(self.text, obj.open..obj.close, &entries, index)
    }
}

/// One member of an object or item of an array: where it starts (a key's
/// quote, or the value), where its value ends, and its comma.
struct Entry {
    start: usize,
    end: usize,
    comma: Option<usize>,
}

/// `text` without `entries[index]` of the container whose brackets are at
/// `brackets.start` and `brackets.end`, with the right comma; comments
/// around it stay.
fn delete_entry(text: &str, brackets: Range<usize>, entries: &[Entry], index: usize) -> String {
    let entry = &entries[index];
    // From the end of whatever precedes the entry (the bracket, a comma or a comment).
    let start = trim_ws_end(&text[..entry.start]).len();
    let mut end = entry.comma.map_or(entry.end, |c| c + 1);
    if entry.comma.is_some() && start == entry.start {
        // `{"lean-ctx": 1, "b": 2}`: no space before the entry to take, so take the one after the comma.
        end = text.len() - text[end..].trim_start_matches([' ', '\t']).len();
    }
    if entries.len() == 1 && is_ws(&text[brackets.start + 1..start]) && is_ws(&text[end..brackets.end]) {
        return splice(text, brackets.start + 1..brackets.end, "");
    }
    match (entry.comma, index.checked_sub(1).map(|i| &entries[i])) {
        // The last entry, without a trailing comma: the previous entry's comma goes too.
        (None, Some(previous)) => {
            let comma = previous.comma.expect("an entry followed by another has a comma");
            if start == comma + 1 {
                splice(text, comma..entry.end, "")
            } else {
                let without_entry = splice(text, start..entry.end, "");
                splice(&without_entry, comma..comma + 1, "")
            }
        }
        _ => splice(text, start..end, ""),
    }
}

/// What is written: JSON values, with objects laid out member by member in order.
#[derive(Debug)]
enum Fragment {
    Leaf(Value),
    Object(Vec<(String, Fragment)>),
}

impl Fragment {
    /// An object of `members`, in that order.
    fn members(members: &[(&str, Value)]) -> Fragment {
        Fragment::Object(members.iter().map(|(k, v)| (k.to_string(), Fragment::Leaf(v.clone()))).collect())
    }

    /// `path`'s keys as nested objects around `inner`.
    fn nested(path: &[&str], inner: Fragment) -> Fragment {
        path.iter().rev().fold(inner, |inner, key| Fragment::Object(vec![(key.to_string(), inner)]))
    }

    fn to_value(&self) -> Value {
        match self {
            Fragment::Leaf(v) => v.clone(),
            Fragment::Object(members) => {
                Value::Object(members.iter().map(|(k, v)| (k.clone(), v.to_value())).collect())
            }
        }
    }

    /// One member per line; `indent` is the indentation of the line it starts on.
    fn render(&self, indent: &str, style: &Style) -> String {
        match self {
            Fragment::Object(members) if !members.is_empty() => {
                let inner = format!("{indent}{}", style.unit);
                let body: Vec<String> = members
                    .iter()
                    .map(|(k, v)| format!("{inner}{}: {}", json_string(k), v.render(&inner, style)))
                    .collect();
                let nl = style.nl;
                format!("{{{nl}{}{nl}{indent}}}", body.join(&format!(",{nl}")))
            }
            _ => self.render_inline(),
        }
    }

    fn render_inline(&self) -> String {
        match self {
            Fragment::Leaf(v) => v.to_string(),
            Fragment::Object(members) => {
                let body: Vec<String> =
                    members.iter().map(|(k, v)| format!("{}: {}", json_string(k), v.render_inline())).collect();
                format!("{{{}}}", body.join(", "))
            }
        }
    }
}

/// The whole document as a value; `None` when it holds none (empty, or comments only).
pub fn value(text: &str) -> Result<Option<Value>, TextError> {
    let doc = parse(text)?;
    Ok(doc.root.as_ref().map(|root| doc.value(root)))
}

/// The value at key path `path`, if every object on the way exists.
pub fn get(text: &str, path: &[&str]) -> Result<Option<Value>, TextError> {
    let doc = parse(text)?;
    Ok(doc.find(path)?.and_then(|(obj, index)| index.map(|i| doc.value(&obj.members[i].value))))
}

/// Sets the value at key path `path` to an object of `members` (in that
/// order), creating missing objects on the way. `None`: the value already
/// equals it (as JSON; layout and member order aside), nothing to change.
pub fn upsert(text: &str, path: &[&str], members: &[(&str, Value)]) -> Result<Option<String>, TextError> {
    put(text, path, Fragment::members(members))
}

/// Sets the value at key path `path` to `value` (written on one line),
/// creating missing objects on the way; `None` when it is that already.
pub fn set(text: &str, path: &[&str], value: &Value) -> Result<Option<String>, TextError> {
    put(text, path, Fragment::Leaf(value.clone()))
}

fn put(text: &str, path: &[&str], entry: Fragment) -> Result<Option<String>, TextError> {
    let (name, parents) = path.split_last().expect("a non-empty key path");
    let doc = parse(text)?;
    let style = doc.style();
    let Some(mut obj) = doc.root_object()? else {
        // Nothing but whitespace or comments: the document is ours to start.
        let head = trim_ws_end(text);
        let sep = if head.is_empty() { "" } else { style.nl };
        let root = Fragment::nested(path, entry).render("", &style);
        return Ok(Some(format!("{head}{sep}{root}{}", style.nl)));
    };
    for (depth, key) in parents.iter().enumerate() {
        let Some(index) = obj.member(key) else {
            let missing = Fragment::nested(&path[depth + 1..], entry);
            return Ok(Some(doc.insert(obj, key, &missing, &style)));
        };
        let member = &obj.members[index];
        obj = member.value.as_object().ok_or_else(|| {
            TextError::at(member.key_start, format!("`{}` is not an object", path[..=depth].join(".")))
        })?;
    }
    match obj.member(name) {
        Some(index) if doc.value(&obj.members[index].value) == entry.to_value() => Ok(None),
        Some(index) => Ok(Some(doc.replace(obj, index, &entry, &style))),
        None => Ok(Some(doc.insert(obj, name, &entry, &style))),
    }
}

/// Appends `value` (written on one line) to the array at key path `path`,
/// the rest of the document kept byte for byte: on a line of its own,
/// indented like the last item, when that item starts a line. `None`: there
/// is no array there.
pub fn push_item(text: &str, path: &[&str], value: &Value) -> Result<Option<String>, TextError> {
    let doc = parse(text)?;
    let Some((obj, Some(member))) = doc.find(path)? else { return Ok(None) };
    let Node::Array { span, items, commas } = &obj.members[member].value else { return Ok(None) };
    let item = value.to_string();
    let (Some(last), Some(&comma)) = (items.last(), commas.last()) else {
        // Empty: the item goes right after `[`; comments inside stay after it.
        return Ok(Some(splice(text, span.start + 1..span.start + 1, &item)));
    };
    let last_start = last.span().start;
    let sep = if starts_line(text, last_start) {
        let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
        format!("{nl}{}", line_indent(text, last_start))
    } else {
        " ".to_string()
    };
    Ok(Some(match comma {
        // The file uses trailing commas; so does our item.
        Some(comma) => splice(text, comma + 1..comma + 1, &format!("{sep}{item},")),
        None => splice(text, last.span().end..last.span().end, &format!(",{sep}{item}")),
    }))
}

/// Deletes the member at key path `path` (every copy of a duplicated key),
/// leaving the objects on the way as they are, empty or not. `None`: there is none.
pub fn remove_member(text: &str, path: &[&str]) -> Result<Option<String>, TextError> {
    let mut current = text.to_string();
    loop {
        let doc = parse(&current)?;
        let Some((obj, Some(index))) = doc.find(path)? else { break };
        current = doc.delete(obj, index);
    }
    Ok((current != text).then_some(current))
}

/// One step into a document: a member of an object, or an item of an array.
#[derive(Debug, Clone, Copy)]
pub enum Step<'a> {
    Key(&'a str),
    Item(usize),
}

/// Replaces the value at `steps` with `value` (written on one line), the
/// rest of the document kept byte for byte: the members around it keep their
/// layout and order. `None`: there is no value there, or it equals `value`.
pub fn replace_value(text: &str, steps: &[Step<'_>], value: &Value) -> Result<Option<String>, TextError> {
    let doc = parse(text)?;
    let Some(mut node) = doc.root.as_ref() else { return Ok(None) };
    for step in steps {
        let next = match (step, node) {
            (Step::Key(key), Node::Object(o)) => o.member(key).map(|i| &o.members[i].value),
            (Step::Item(index), Node::Array { items, .. }) => items.get(*index),
            _ => None,
        };
        let Some(next) = next else { return Ok(None) };
        node = next;
    }
    if doc.value(node) == *value {
        return Ok(None);
    }
    Ok(Some(splice(text, node.span(), &value.to_string())))
}

/// Deletes the member at key path `path` (every copy of a duplicated key).
/// `None`: there is none.
///
/// An object on the way that this leaves empty goes too (`"mcpServers": {}`
/// would otherwise stay behind after `setup` created it and `--remove`
/// took our entry out), up to but not including the top level. One that
/// still holds a comment stays: the comment is the user's.
pub fn remove(text: &str, path: &[&str]) -> Result<Option<String>, TextError> {
    let Some(mut current) = remove_member(text, path)? else { return Ok(None) };
    for depth in (1..path.len()).rev() {
        let doc = parse(&current)?;
        let Some((obj, Some(index))) = doc.find(&path[..depth])? else { break };
        let Some(child) = obj.members[index].value.as_object() else { break };
        if !child.members.is_empty() || !is_ws(&current[child.open + 1..child.close]) {
            break;
        }
        current = doc.delete(obj, index);
    }
    Ok(Some(current))
}

/// Deletes item `index` of the array at key path `path`, the rest of the
/// document kept byte for byte. `None`: there is no such array or item.
pub fn remove_item(text: &str, path: &[&str], index: usize) -> Result<Option<String>, TextError> {
    let doc = parse(text)?;
    let Some((obj, Some(member))) = doc.find(path)? else { return Ok(None) };
    let Node::Array { span, items, commas } = &obj.members[member].value else { return Ok(None) };
    if index >= items.len() {
        return Ok(None);
    }
    if let ([item], [comma]) = (items.as_slice(), commas.as_slice()) {
        // The only item: the list keeps its own spacing (`[ ]`, `[\n  ]`), as before an item was pushed.
        let end = comma.map_or(item.span().end, |comma| comma + 1);
        return Ok(Some(splice(text, item.span().start..end, "")));
    }
    let entries: Vec<Entry> = items
        .iter()
        .zip(commas)
        .map(|(item, &comma)| Entry { start: item.span().start, end: item.span().end, comma })
        .collect();
    Ok(Some(delete_entry(text, span.start..span.end - 1, &entries, index)))
}

fn json_string(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

fn splice(text: &str, range: Range<usize>, with: &str) -> String {
    format!("{}{with}{}", &text[..range.start], &text[range.end..])
}

fn is_ws(s: &str) -> bool {
    s.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

/// `s` without trailing JSON whitespace.
fn trim_ws_end(s: &str) -> &str {
    s.trim_end_matches([' ', '\t', '\n', '\r'])
}

/// The whitespace of the line holding `pos`, up to its first other character.
fn line_indent(text: &str, pos: usize) -> &str {
    let line = &text[text[..pos].rfind('\n').map_or(0, |i| i + 1)..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// Whether only indentation precedes `pos` on its line.
fn starts_line(text: &str, pos: usize) -> bool {
    text[..pos].rsplit('\n').next().is_some_and(|before| before.bytes().all(|b| b == b' ' || b == b'\t'))
}

/// The line break and indentation before a closing `}`: the file's own when
/// the `}` starts a line, else a new line indented like the `{`.
fn closing_break(ws: &str, outer: &str, style: &Style) -> String {
    match ws.rfind('\n') {
        Some(i) => ws[if ws[..i].ends_with('\r') { i - 1 } else { i }..].to_string(),
        None => format!("{}{outer}", style.nl),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const PATH: &[&str] = &["mcpServers", "lean-ctx"];

    fn entry() -> Vec<(&'static str, Value)> {
        vec![("command", json!("/bin/lctx-mcp")), ("args", json!([]))]
    }

    fn upserted(text: &str) -> String {
        upsert(text, PATH, &entry()).unwrap().expect("a change")
    }

    /// The JSON a comment-stripping reader sees.
    fn semantic(text: &str) -> Value {
        let doc = parse(text).unwrap();
        doc.root.as_ref().map_or(Value::Null, |r| doc.value(r))
    }

    #[test]
    fn inserts_after_the_last_sibling_with_its_indentation() {
        let text = "{\n    \"mcpServers\": {\n        \"other\": {\n            \"command\": \"x\"\n        }\n    },\n    \"theme\": \"dark\"\n}\n";
        let out = upserted(text);
        assert_eq!(
            out,
            "{\n    \"mcpServers\": {\n        \"other\": {\n            \"command\": \"x\"\n        },\n        \"lean-ctx\": {\n            \"command\": \"/bin/lctx-mcp\",\n            \"args\": []\n        }\n    },\n    \"theme\": \"dark\"\n}\n"
        );
        assert_eq!(upsert(&out, PATH, &entry()).unwrap(), None, "second run changes nothing");
        assert_eq!(remove(&out, PATH).unwrap().as_deref(), Some(text), "remove restores the bytes");
    }

    #[test]
    fn comments_with_braces_and_quotes_and_strings_with_slashes_are_not_structure() {
        let text = r#"{
  /* { "mcpServers": { } } */
  "url": "http://example.com/*not-a-comment*/", // "}" { [
  "mcpServers": {
    "a": { "command": "//not/a/comment" } // keep "me" }
  }
}
"#;
        let out = upserted(text);
        assert!(out.contains("/* { \"mcpServers\": { } } */"), "{out}");
        assert!(out.contains("// \"}\" { ["), "{out}");
        assert!(
            out.contains("\"a\": { \"command\": \"//not/a/comment\" }, // keep \"me\" }\n    \"lean-ctx\": {"),
            "{out}"
        );
        assert_eq!(semantic(&out)["url"], "http://example.com/*not-a-comment*/");
        assert_eq!(semantic(&out)["mcpServers"]["lean-ctx"]["command"], "/bin/lctx-mcp");
        assert_eq!(remove(&out, PATH).unwrap().as_deref(), Some(text));
    }

    #[test]
    fn trailing_commas_are_accepted_and_kept() {
        let text = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\", \"args\": [1, 2,],},\n  },\n}\n";
        let out = upserted(text);
        assert!(out.contains("\"args\": [1, 2,],},\n    \"lean-ctx\": {\n      \"command\": \"/bin/lctx-mcp\",\n      \"args\": []\n    },\n  },\n}"), "{out}");
        assert_eq!(remove(&out, PATH).unwrap().as_deref(), Some(text));
    }

    #[test]
    fn empty_objects_and_empty_documents() {
        let nested = "{\n  \"mcpServers\": {\n    \"lean-ctx\": {\n      \"command\": \"/bin/lctx-mcp\",\n      \"args\": []\n    }\n  }\n}\n";
        assert_eq!(upserted(""), nested);
        assert_eq!(upserted("{}"), nested.trim_end());
        assert_eq!(upserted("{}\n"), nested);
        assert_eq!(upserted("// settings\n"), format!("// settings\n{nested}"));
        let servers = upserted("{\n  \"mcpServers\": {}\n}\n");
        assert_eq!(servers, nested);
        // The emptied servers object goes with our entry.
        assert_eq!(remove(&servers, PATH).unwrap().unwrap(), "{}\n");
        assert_eq!(remove(nested, PATH).unwrap().unwrap(), "{}\n");
        let commented = upserted("{\n  \"mcpServers\": { // none yet\n  }\n}\n");
        assert!(commented.starts_with("{\n  \"mcpServers\": { // none yet\n    \"lean-ctx\": {\n"), "{commented}");
        assert_eq!(remove(&commented, PATH).unwrap().unwrap(), "{\n  \"mcpServers\": { // none yet\n  }\n}\n");
    }

    #[test]
    fn nested_paths_create_missing_objects() {
        let path = ["agent", "servers", "lean-ctx"];
        let members = [("command", json!("c"))];
        let out = upsert("{\n\t\"theme\": 1\n}", &path, &members).unwrap().unwrap();
        assert_eq!(
            out,
            "{\n\t\"theme\": 1,\n\t\"agent\": {\n\t\t\"servers\": {\n\t\t\t\"lean-ctx\": {\n\t\t\t\t\"command\": \"c\"\n\t\t\t}\n\t\t}\n\t}\n}"
        );
        let partial = upsert("{\"agent\": {\"x\": true}}", &path, &members).unwrap().unwrap();
        assert_eq!(partial, "{\"agent\": {\"x\": true, \"servers\": {\"lean-ctx\": {\"command\": \"c\"}}}}");
        assert_eq!(get(&partial, &path).unwrap(), Some(json!({"command": "c"})));
        assert_eq!(get(&partial, &["agent", "nope", "lean-ctx"]).unwrap(), None);
        let err = upsert("{\n  \"agent\": [1]\n}", &path, &members).unwrap_err();
        assert_eq!(err, TextError::at(4, "`agent` is not an object"));
        assert!(upsert("[1]", &path, &members).unwrap_err().message.contains("top level"));
    }

    #[test]
    fn an_entry_that_differs_is_replaced_in_place() {
        let text = "{\n  \"mcpServers\": {\n    \"lean-ctx\": {\"command\": \"/old\"}, // ours\n    \"b\": {}\n  }\n}";
        let out = upserted(text);
        assert_eq!(
            out,
            "{\n  \"mcpServers\": {\n    \"lean-ctx\": {\n      \"command\": \"/bin/lctx-mcp\",\n      \"args\": []\n    }, // ours\n    \"b\": {}\n  }\n}"
        );
        // Equal as JSON although laid out differently: nothing to do.
        let same = "{\"mcpServers\": {\"lean-ctx\": {\"args\": [], \"command\": \"/bin/lctx-mcp\"}}}";
        assert_eq!(upsert(same, PATH, &entry()).unwrap(), None);
    }

    #[test]
    fn removal_handles_commas_in_every_position() {
        let cases = [
            ("{\"mcpServers\": {\"lean-ctx\": 1, \"b\": 2}}", "{\"mcpServers\": {\"b\": 2}}"),
            ("{\"mcpServers\": {\"a\": 1, \"lean-ctx\": 1, \"b\": 2}}", "{\"mcpServers\": {\"a\": 1, \"b\": 2}}"),
            ("{\"mcpServers\": {\"a\": 1, \"lean-ctx\": 1}}", "{\"mcpServers\": {\"a\": 1}}"),
            ("{\"mcpServers\": {\"a\": 1, \"lean-ctx\": 1,}}", "{\"mcpServers\": {\"a\": 1,}}"),
            ("{\"mcpServers\": {\"lean-ctx\": 1}}", "{}"),
            ("{\"a\": 1, \"mcpServers\": {\"lean-ctx\": 1}}", "{\"a\": 1}"),
            ("{\"mcpServers\": {\"lean-ctx\": 1}, \"a\": 1}", "{\"a\": 1}"),
            ("{\"mcpServers\": {\"a\": 1, /* c */ \"lean-ctx\": 1}}", "{\"mcpServers\": {\"a\": 1 /* c */}}"),
            ("{\"mcpServers\": {\"lean-ctx\": 1, \"a\": 2, \"lean-ctx\": 3}}", "{\"mcpServers\": {\"a\": 2}}"),
        ];
        for (before, after) in cases {
            assert_eq!(remove(before, PATH).unwrap().as_deref(), Some(after), "{before}");
        }
        assert_eq!(remove("{\"mcpServers\": {\"a\": 1}}", PATH).unwrap(), None);
        assert_eq!(remove("", PATH).unwrap(), None);
    }

    #[test]
    fn item_removal_handles_commas_and_keeps_the_rest() {
        let path = ["hooks", "Pre"];
        let cases = [
            ("{\"hooks\": {\"Pre\": [1, 2, 3]}}", 0, "{\"hooks\": {\"Pre\": [2, 3]}}"),
            ("{\"hooks\": {\"Pre\": [1, 2, 3]}}", 1, "{\"hooks\": {\"Pre\": [1, 3]}}"),
            ("{\"hooks\": {\"Pre\": [1, 2, 3]}}", 2, "{\"hooks\": {\"Pre\": [1, 2]}}"),
            ("{\"hooks\": {\"Pre\": [1, 2,]}}", 1, "{\"hooks\": {\"Pre\": [1,]}}"),
            ("{\"hooks\": {\"Pre\": [ {\"a\": [1]} ]}}", 0, "{\"hooks\": {\"Pre\": [  ]}}"),
            (
                "{\"hooks\": {\"Pre\": [\n  {\"x\":1},\n  {\"y\":2} // ours\n]}}",
                1,
                "{\"hooks\": {\"Pre\": [\n  {\"x\":1} // ours\n]}}",
            ),
        ];
        for (before, index, after) in cases {
            assert_eq!(remove_item(before, &path, index).unwrap().as_deref(), Some(after), "{before} [{index}]");
        }
        assert_eq!(remove_item("{\"hooks\": {\"Pre\": [1]}}", &path, 1).unwrap(), None);
        assert_eq!(remove_item("{\"hooks\": {\"Pre\": {}}}", &path, 0).unwrap(), None);
        assert_eq!(remove_item("{}", &path, 0).unwrap(), None);
    }

    #[test]
    fn pushed_items_follow_the_arrays_layout() {
        let path = ["hooks", "Pre"];
        let item = json!({"m": 1});
        let cases = [
            ("{\"hooks\": {\"Pre\": []}}", 0, "{\"hooks\": {\"Pre\": [{\"m\":1}]}}"),
            ("{\"hooks\": {\"Pre\": [ ]}}", 0, "{\"hooks\": {\"Pre\": [{\"m\":1} ]}}"),
            ("{\"hooks\": {\"Pre\": [\n  ]}}", 0, "{\"hooks\": {\"Pre\": [{\"m\":1}\n  ]}}"),
            ("{\"hooks\": {\"Pre\": [0]}}", 1, "{\"hooks\": {\"Pre\": [0, {\"m\":1}]}}"),
            ("{\"hooks\": {\"Pre\": [0,]}}", 1, "{\"hooks\": {\"Pre\": [0, {\"m\":1},]}}"),
            (
                "{\"hooks\": {\"Pre\": [\n    {\"a\" : 0}\n  ]}}",
                1,
                "{\"hooks\": {\"Pre\": [\n    {\"a\" : 0},\n    {\"m\":1}\n  ]}}",
            ),
        ];
        for (before, index, after) in cases {
            assert_eq!(push_item(before, &path, &item).unwrap().as_deref(), Some(after), "{before}");
            assert_eq!(remove_item(after, &path, index).unwrap().as_deref(), Some(before), "the exact undo");
        }
        assert_eq!(push_item("{\"hooks\": {}}", &path, &item).unwrap(), None);
        let two = "{\"hooks\": {\"Pre\": [\n    {\"a\" : 0,  \"z\": [1]},\n    {\"m\":1}\n  ]}}";
        let at = |index, key| [Step::Key("hooks"), Step::Key("Pre"), Step::Item(index), Step::Key(key)];
        let replaced = replace_value(two, &at(0, "a"), &json!("x y")).unwrap().unwrap();
        assert_eq!(replaced, "{\"hooks\": {\"Pre\": [\n    {\"a\" : \"x y\",  \"z\": [1]},\n    {\"m\":1}\n  ]}}");
        assert_eq!(replace_value(two, &at(1, "m"), &json!(1)).unwrap(), None, "equal already");
        assert_eq!(replace_value(two, &at(2, "m"), &json!(2)).unwrap(), None, "no such item");
        assert_eq!(replace_value(two, &at(1, "q"), &json!(2)).unwrap(), None, "no such member");
        assert_eq!(replace_value(two, &[Step::Key("hooks"), Step::Item(0)], &json!(2)).unwrap(), None, "not a list");
        let set = set("{\"a\": 1}", &path, &json!([item])).unwrap().unwrap();
        assert_eq!(set, "{\"a\": 1, \"hooks\": {\"Pre\": [{\"m\":1}]}}");
    }

    #[test]
    fn removal_prunes_only_objects_it_emptied_up_to_the_top_level() {
        let path = ["agent", "servers", "lean-ctx"];
        let text = "{\n  \"theme\": 1,\n  \"agent\": {\n    \"servers\": {\n      \"lean-ctx\": {}\n    }\n  }\n}\n";
        assert_eq!(remove(text, &path).unwrap().unwrap(), "{\n  \"theme\": 1\n}\n");
        let kept = "{\"agent\": {\"x\": 1, \"servers\": {\"lean-ctx\": {}}}}";
        assert_eq!(remove(kept, &path).unwrap().unwrap(), "{\"agent\": {\"x\": 1}}");
        let commented = "{\"agent\": {\"servers\": {/* mine */ \"lean-ctx\": {}}}}";
        assert_eq!(remove(commented, &path).unwrap().unwrap(), "{\"agent\": {\"servers\": {/* mine */}}}");
        // Nothing of ours: an empty object elsewhere is not touched.
        assert_eq!(remove("{\"agent\": {\"servers\": {}}}", &path).unwrap(), None);
    }

    #[test]
    fn one_line_objects_stay_on_one_line() {
        assert_eq!(
            upserted("{\"mcpServers\": {\"a\": 1}}"),
            "{\"mcpServers\": {\"a\": 1, \"lean-ctx\": {\"command\": \"/bin/lctx-mcp\", \"args\": []}}}"
        );
        assert_eq!(
            upserted("{\"mcpServers\": {\"a\": 1,}}"),
            "{\"mcpServers\": {\"a\": 1, \"lean-ctx\": {\"command\": \"/bin/lctx-mcp\", \"args\": []},}}"
        );
    }

    #[test]
    fn edits_change_our_entry_and_nothing_else() {
        let docs = [
            "",
            "  \n",
            "{}",
            "{\"mcpServers\": {\"lean-ctx\": 5}}",
            "{\"a\": [1, {\"b\": null}, []], \"mcpServers\": {\"x\": 1}, \"z\": -0.5e-3}",
            "// c\n{\n  \"mcpServers\": {\n    \"x\": {}, // c\n    /* d */\n  },\n}\n",
            "{\n\t\"mcpServers\": {\n\t\t\"x\": true\n\t},\n\t\"after\": \"\\u00e9\"\n}",
            "{\"k\": \"\\\"}{//\", \"mcpServers\" : { \"x\" : 1 , } }",
            "{\"mcpServers\": {\"x\": 1}, \"mcpServers\": {\"y\": 2}}",
        ];
        // The document as a JSON reader sees it, with our entry taken out.
        let without_ours = |text: &str| {
            let mut v = match semantic(text) {
                Value::Null => json!({}),
                v => v,
            };
            let servers = v.as_object_mut().unwrap().entry("mcpServers").or_insert(json!({}));
            servers.as_object_mut().unwrap().remove("lean-ctx");
            v
        };
        for doc in docs {
            let added = upserted(doc);
            assert_eq!(get(&added, PATH).unwrap(), Some(json!({"command": "/bin/lctx-mcp", "args": []})), "{doc}");
            assert_eq!(without_ours(&added), without_ours(doc), "{doc}");
            let removed = remove(&added, PATH).unwrap().expect("our entry");
            assert_eq!(get(&removed, PATH).unwrap(), None, "{doc}");
            assert_eq!(without_ours(&removed), without_ours(doc), "{doc}");
        }
    }

    #[test]
    fn crlf_files_stay_crlf() {
        let text = "{\r\n  \"mcpServers\": {\r\n    \"a\": 1\r\n  }\r\n}\r\n";
        let out = upserted(text);
        assert!(!out.replace("\r\n", "").contains('\n'), "{out:?}");
        assert_eq!(remove(&out, PATH).unwrap().as_deref(), Some(text));
    }

    #[test]
    fn syntax_errors_have_offsets() {
        let cases = [
            ("{\"a\": 1 \"b\": 2}", 8, "expected `,` or `}`"),
            ("{\"a\": \"unterminated}", 6, "unterminated string"),
            ("{\n  \"a\": 1\n", 0, "this `{` is never closed"),
            ("{\"a\": tru}", 6, "expected a value"),
            ("{\"a\": 01}", 6, "invalid number"),
            ("{\"a\": \"x\ny\"}", 8, "line break or control character inside a string"),
            ("{\"a\": 1} x", 9, "unexpected text after the end of the document"),
            ("{/* open", 1, "unterminated /* comment"),
            ("{,}", 1, "expected a key in double quotes or `}`"),
            ("[1 2]", 3, "expected `,` or `]`"),
            ("{\"a\": \"\\q\"}", 7, "invalid escape in string"),
        ];
        for (text, offset, message) in cases {
            assert_eq!(get(text, PATH).unwrap_err(), TextError::at(offset, message), "{text}");
        }
        let deep = "[".repeat(MAX_DEPTH + 2);
        assert_eq!(get(&deep, PATH).unwrap_err().message, "nested too deeply");
    }

    #[test]
    fn values_decode_escapes_numbers_and_a_bom() {
        let text = "\u{feff}{\"mcpServers\": {\"lean-ctx\": {\"command\": \"C:\\\\x \\u00e9\", \"n\": -1.5e3, \"t\": [true, null]}}}";
        assert_eq!(get(text, PATH).unwrap(), Some(json!({"command": "C:\\x é", "n": -1500.0, "t": [true, null]})));
    }
}
