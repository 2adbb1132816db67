//! The small YAML subset rule files put between `---` lines: `key: value`,
//! quoted values, inline lists `key: [a, "b"]`, block lists (`key:` then
//! `- item` lines), comma-separated strings and booleans. Anything else
//! (nested maps, block scalars) is skipped, since no host reads it for
//! deciding when a rule applies.
//!
//! Hosts accept unquoted globs such as `globs: **/*.{ts,tsx}` that a real
//! YAML parser rejects (`*` starts an alias), so values are taken literally
//! rather than through a YAML library.

/// One parsed value. `quoted` remembers whether a scalar was written in
/// quotes: Cursor treats `alwaysApply: "true"` as a string, not a boolean.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Value {
    Scalar { text: String, quoted: bool },
    List(Vec<String>),
}

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct FrontMatter {
    fields: Vec<(String, Value)>,
}

impl FrontMatter {
    fn get(&self, key: &str) -> Option<&Value> {
        // The last occurrence wins, as in YAML parsers that accept duplicates.
        self.fields.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// A list of strings: a YAML list as is, or a scalar split on commas
    /// (outside quotes, braces and brackets, so `*.{ts,tsx}` stays whole).
    /// `None` when the key is absent.
    pub(crate) fn list(&self, key: &str) -> Option<Vec<String>> {
        Some(match self.get(key)? {
            Value::List(items) => items.iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
            Value::Scalar { text, .. } => split_items(text),
        })
    }

    /// True only for an unquoted `true` (any case): a quoted "true" is a
    /// string to the hosts.
    pub(crate) fn flag(&self, key: &str) -> bool {
        matches!(self.get(key), Some(Value::Scalar { text, quoted: false }) if text.eq_ignore_ascii_case("true"))
    }
}

/// A rule file split into its front matter and body.
#[derive(Debug)]
pub(crate) struct Parsed<'a> {
    /// `None` when the file has no front matter, or an unterminated one.
    pub(crate) front: Option<FrontMatter>,
    pub(crate) body: &'a str,
    /// Short descriptions of what was not understood, for notes.
    pub(crate) problems: Vec<String>,
}

/// Splits `text` into front matter and body. An opening `---` without a
/// closing `---` (or `...`) line is reported and the whole text is read as
/// the body with no front matter: the instructions still reach the agent,
/// and a scoped rule degrades to how the host treats an unscoped one.
pub(crate) fn parse(text: &str) -> Parsed<'_> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = LineIter { text, pos: 0 };
    let Some((first, _)) = lines.next() else {
        return Parsed { front: None, body: text, problems: Vec::new() };
    };
    if first.trim_end() != "---" {
        return Parsed { front: None, body: text, problems: Vec::new() };
    }
    let start = lines.pos;
    let mut end = None;
    while let Some((line, line_start)) = lines.next() {
        let line = line.trim_end();
        if line == "---" || line == "..." {
            end = Some((line_start, lines.pos));
            break;
        }
    }
    let Some((fm_end, body_start)) = end else {
        return Parsed {
            front: None,
            body: text,
            problems: vec!["front matter opens with --- but has no closing --- line".to_string()],
        };
    };
    let mut problems = Vec::new();
    let front = parse_fields(&text[start..fm_end], &mut problems);
    Parsed { front: Some(front), body: &text[body_start..], problems }
}

/// Lines with their start offsets; `pos` is where the next line starts.
struct LineIter<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Iterator for LineIter<'a> {
    type Item = (&'a str, usize);

    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.text.len() {
            return None;
        }
        let start = self.pos;
        let rest = &self.text[start..];
        let (line, advance) = match rest.find('\n') {
            Some(i) => (&rest[..i], i + 1),
            None => (rest, rest.len()),
        };
        self.pos += advance;
        Some((line.strip_suffix('\r').unwrap_or(line), start))
    }
}

fn parse_fields(block: &str, problems: &mut Vec<String>) -> FrontMatter {
    let mut fields: Vec<(String, Value)> = Vec::new();
    // The key whose value is empty so far: following `- item` lines belong to it.
    let mut open_list: Option<usize> = None;
    for (index, raw) in block.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let item = trimmed.strip_prefix('-').filter(|rest| rest.is_empty() || rest.starts_with([' ', '\t']));
        if let (Some(item), Some(at)) = (item, open_list) {
            let item = unquote(item).0;
            match &mut fields[at].1 {
                Value::List(items) => items.push(item),
                scalar => *scalar = Value::List(vec![item]),
            }
            continue;
        }
        let indented = line.starts_with([' ', '\t']);
        if indented {
            // A continuation of a block scalar or a nested map: not a
            // field any host uses for deciding when a rule applies.
            continue;
        }
        let Some((key, value)) = split_key(trimmed) else {
            problems.push(format!("front matter line {} not understood: {}", index + 2, clip(trimmed)));
            open_list = None;
            continue;
        };
        let value = value.trim();
        let parsed = if value.is_empty() {
            open_list = Some(fields.len());
            Value::Scalar { text: String::new(), quoted: false }
        } else {
            open_list = None;
            if value.starts_with(['|', '>']) {
                // A block scalar: its indented lines are skipped below.
                Value::Scalar { text: String::new(), quoted: false }
            } else if let Some(inner) = value.strip_prefix('[') {
                let inner = match inner.trim_end().strip_suffix(']') {
                    Some(inner) => inner,
                    None => {
                        problems.push(format!("front matter line {}: `[` has no closing `]`", index + 2));
                        inner
                    }
                };
                Value::List(split_items(inner))
            } else {
                let (text, quoted) = unquote(value);
                Value::Scalar { text, quoted }
            }
        };
        fields.push((key.to_string(), parsed));
    }
    FrontMatter { fields }
}

/// `key: value` → (key, value); the colon must end the line or be followed
/// by whitespace, as in YAML (so `http://x` is not a key).
fn split_key(line: &str) -> Option<(&str, &str)> {
    if line.starts_with(['-', '[', '{', '"', '\'']) {
        return None;
    }
    let mut search = 0;
    while let Some(i) = line[search..].find(':') {
        let at = search + i;
        let after = &line[at + 1..];
        if after.is_empty() || after.starts_with([' ', '\t']) {
            let key = line[..at].trim();
            return if key.is_empty() { None } else { Some((key, after)) };
        }
        search = at + 1;
    }
    None
}

/// A scalar without its quotes (YAML escapes in double quotes, `''` in
/// single quotes); a plain scalar loses a trailing ` # comment`.
fn unquote(value: &str) -> (String, bool) {
    let value = value.trim();
    if let Some(inner) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        let mut out = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other @ ('"' | '\\' | '/')) => out.push(other),
                // Unknown escapes are kept as written: a glob's `\*` stays an escaped star.
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            }
        }
        return (out, true);
    }
    if value.len() >= 2 && value.starts_with('\'') && value.ends_with('\'') {
        return (value[1..value.len() - 1].replace("''", "'"), true);
    }
    let plain = match value.find(" #") {
        Some(i) => value[..i].trim_end(),
        None => value,
    };
    (plain.to_string(), false)
}

/// Comma-separated items, splitting outside quotes, `{…}` and `[…]`; each
/// item trimmed and unquoted, empty ones dropped.
pub(crate) fn split_items(text: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '{' | '[') => depth += 1,
            (None, '}' | ']') => depth = depth.saturating_sub(1),
            (None, ',') if depth == 0 => {
                items.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&text[start..]);
    items.into_iter().map(|item| unquote(item).0).filter(|item| !item.is_empty()).collect()
}

/// A line shortened for a note.
fn clip(line: &str) -> String {
    const MAX: usize = 60;
    match line.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn front(text: &str) -> FrontMatter {
        let parsed = parse(text);
        assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
        parsed.front.expect("front matter")
    }

    #[test]
    fn no_front_matter_is_all_body() {
        let parsed = parse("# Title\n\nbody\n");
        assert!(parsed.front.is_none());
        assert_eq!(parsed.body, "# Title\n\nbody\n");
        assert!(parsed.problems.is_empty());
    }

    #[test]
    fn scalars_quoted_and_plain() {
        let fm = front(
            "---\ndescription: \"Use \\\"strict\\\" mode\"\nname: 'it''s'\nglobs: src/**/*.ts # ts only\n---\nbody",
        );
        assert_eq!(fm.list("description").unwrap(), vec!["Use \"strict\" mode"]);
        assert_eq!(fm.list("name").unwrap(), vec!["it's"]);
        assert_eq!(fm.list("globs").unwrap(), vec!["src/**/*.ts"]);
    }

    #[test]
    fn body_follows_the_closing_line() {
        let parsed = parse("---\na: b\n---\n\nThe body.\n");
        assert_eq!(parsed.body, "\nThe body.\n");
        let parsed = parse("---\r\na: b\r\n...\r\nBody");
        assert_eq!(parsed.body, "Body");
        assert_eq!(parsed.front.unwrap().list("a").unwrap(), vec!["b"]);
    }

    #[test]
    fn comma_separated_strings_keep_braces_whole() {
        let fm = front("---\nglobs: \"app/**/*,**/*.{ts,tsx}\"\napplyTo: '**/*.ts, **/*.js'\n---\n");
        assert_eq!(fm.list("globs").unwrap(), vec!["app/**/*", "**/*.{ts,tsx}"]);
        assert_eq!(fm.list("applyTo").unwrap(), vec!["**/*.ts", "**/*.js"]);
        let fm = front("---\nglobs: **/*.{ts,tsx}, src/[ab],c/*\n---\n");
        assert_eq!(fm.list("globs").unwrap(), vec!["**/*.{ts,tsx}", "src/[ab]", "c/*"]);
    }

    #[test]
    fn inline_and_block_lists() {
        let fm = front("---\npaths: [src/**/*.rs, \"tests/**\", 'a,b']\n---\n");
        assert_eq!(fm.list("paths").unwrap(), vec!["src/**/*.rs", "tests/**", "a,b"]);
        let fm = front("---\npaths:\n  - \"src/api/**/*.ts\"\n  - tests/**/*.test.ts\n- **/*.md\nother: x\n---\n");
        assert_eq!(fm.list("paths").unwrap(), vec!["src/api/**/*.ts", "tests/**/*.test.ts", "**/*.md"]);
        assert_eq!(fm.list("other").unwrap(), vec!["x"]);
    }

    #[test]
    fn empty_key_is_an_empty_list_and_absent_key_is_none() {
        let fm = front("---\nglobs:\nalwaysApply: false\n---\n");
        assert_eq!(fm.list("globs").unwrap(), Vec::<String>::new());
        assert!(fm.list("paths").is_none());
        assert!(!fm.flag("alwaysApply"));
    }

    #[test]
    fn booleans_are_unquoted_true_only() {
        assert!(front("---\nalwaysApply: true\n---\n").flag("alwaysApply"));
        assert!(front("---\nalwaysApply: True\n---\n").flag("alwaysApply"));
        assert!(!front("---\nalwaysApply: \"true\"\n---\n").flag("alwaysApply"));
        assert!(!front("---\nalwaysApply: yes please\n---\n").flag("alwaysApply"));
        assert!(!front("---\nalwaysApply:\n  - true\n---\n").flag("alwaysApply"));
    }

    #[test]
    fn nested_maps_and_block_scalars_are_skipped() {
        let fm = front("---\ndescription: |\n  line one\n  line: two\nmeta:\n  owner: me\nglobs: x\n---\n");
        assert_eq!(fm.list("globs").unwrap(), vec!["x"]);
        assert_eq!(fm.list("description").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn unterminated_front_matter_is_body_with_a_problem() {
        let text = "---\npaths: src/**\nno end here\n";
        let parsed = parse(text);
        assert!(parsed.front.is_none());
        assert_eq!(parsed.body, text);
        assert_eq!(parsed.problems.len(), 1);
        let parsed = parse("---");
        assert!(parsed.front.is_none());
        assert_eq!(parsed.problems.len(), 1);
    }

    #[test]
    fn odd_lines_are_reported_and_the_rest_kept() {
        let parsed = parse("---\njust words\nglobs: [a, b\nurl:http://x\n---\nbody");
        let fm = parsed.front.unwrap();
        assert_eq!(parsed.problems.len(), 3, "{:?}", parsed.problems);
        assert!(parsed.problems[0].contains("line 2"));
        assert_eq!(fm.list("globs").unwrap(), vec!["a", "b"]);
        assert_eq!(parsed.body, "body");
    }

    #[test]
    fn duplicate_keys_last_wins() {
        assert_eq!(front("---\na: 1\na: 2\n---\n").list("a").unwrap(), vec!["2"]);
    }

    #[test]
    fn byte_order_mark_is_ignored() {
        let fm = front("\u{feff}---\na: b\n---\n");
        assert_eq!(fm.list("a").unwrap(), vec!["b"]);
    }

    /// Random text never panics and the body is always a suffix of the input.
    #[test]
    fn random_input_never_panics() {
        let alphabet: Vec<char> = "-:[]{},'\"#\\ \t\r\nabcé*/.…\u{feff}".chars().collect();
        let mut rng = crate::test_rng::Rng::new(7);
        for _ in 0..4000 {
            let len = rng.below(80);
            let mut text = if rng.below(2) == 0 { String::from("---\n") } else { String::new() };
            for _ in 0..len {
                text.push(alphabet[rng.below(alphabet.len())]);
            }
            let parsed = parse(&text);
            assert!(text.ends_with(parsed.body));
            if let Some(fm) = parsed.front {
                let _ = fm.list("globs");
                let _ = fm.flag("alwaysApply");
            }
            let _ = split_items(&text);
        }
    }
}
