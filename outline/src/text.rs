//! Small text helpers shared by the extractors, the fallback scanner and the renderers.

use tree_sitter::Node;

/// Longest signature (in characters) a view prints; longer ones are cut and end in `…`.
pub(crate) const MAX_SIGNATURE: usize = 200;

/// Trailing tokens that open a body or a value rather than belong to the declaration head.
const HEAD_TERMINATORS: [&str; 7] = ["{", "(", "=>", "=", ":", ";", ","];

/// The source text of `node`, or "" if its range is not on character boundaries (it always is
/// for tree-sitter's UTF-8 input; the fallback keeps this infallible).
pub(crate) fn node_text<'s>(node: Node, source: &'s str) -> &'s str {
    source.get(node.byte_range()).unwrap_or("")
}

/// The first and last 1-based line of `node`, not counting trailing whitespace (a Markdown section or
/// a Rust line comment owns the newline that ends it).
pub(crate) fn node_lines(node: Node, source: &str) -> (u32, u32) {
    let start = line_number(node.start_position().row);
    let text = node_text(node, source);
    let trailing_newlines = text[text.trim_end().len()..].matches('\n').count();
    let end = line_number(node.end_position().row.saturating_sub(trailing_newlines));
    (start, end.max(start))
}

/// Converts a 0-based tree-sitter row to a 1-based line number.
pub(crate) fn line_number(row: usize) -> u32 {
    u32::try_from(row).unwrap_or(u32::MAX - 1) + 1
}

/// Collapses every whitespace run to one space and trims both ends.
pub(crate) fn collapse(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// [`collapse`] for code: no space just inside parentheses and square brackets, and no trailing
/// comma that ended a line before a closing one, so a parameter list written one per line reads
/// `f(a, b)` as it would on one line, not `f( a, b, )`. Angle brackets get the same only where a
/// line break says they enclose a list (`Query<\n  TData,\n>` reads `Query<TData>`): on one line
/// `a < b` may be a comparison.
pub(crate) fn collapse_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text.trim();
    while let Some(at) = rest.find(char::is_whitespace) {
        out.push_str(&rest[..at]);
        let next = rest[at..].trim_start();
        let gap = &rest[at..rest.len() - next.len()];
        let broken = gap.contains('\n');
        let closes = next.starts_with([')', ']']) || (broken && next.starts_with('>'));
        if closes {
            if broken && out.ends_with(',') {
                out.pop();
            }
        } else if broken && next.starts_with('}') {
            // `{ a, b,\n}` reads `{ a, b }`: braces keep their inner spaces.
            if out.ends_with(',') {
                out.pop();
            }
            out.push(' ');
        } else {
            let opens = out.ends_with(['(', '[']) || (broken && out.ends_with('<'));
            if !opens {
                out.push(' ');
            }
        }
        rest = next;
    }
    out.push_str(rest);
    out
}

/// Whether an overload's signature returns `never`: a guard that rejects the calls its
/// constraints name (true-myth's `static of<F extends (...args: any) => null | undefined>(value:
/// F): never`). A run of overloads shows another, the shortest of the rest: the views leave
/// constraints out, and `of<F>(value: F): never` read as if every call failed.
pub(crate) fn rejects_calls(signature: &str) -> bool {
    signature.trim_end().ends_with(": never")
}

/// Turns a raw declaration head into a signature line: [`head_line`] truncated to [`MAX_SIGNATURE`].
pub(crate) fn signature_line(raw: &str) -> String {
    truncate(head_line(raw), MAX_SIGNATURE)
}

/// A raw declaration head collapsed to one line without the token that opens the body (`{`, the
/// `(` of `macro_rules! m (`, `:`, `=`, `=>`, `;`, and the `,` of a `where` clause).
pub(crate) fn head_line(raw: &str) -> String {
    let mut line = collapse_code(raw);
    while let Some(rest) = HEAD_TERMINATORS.iter().find_map(|t| line.strip_suffix(t)) {
        let rest = rest.trim_end();
        if rest.is_empty() {
            break;
        }
        line.truncate(rest.len());
    }
    line
}

/// Cuts `text` to at most `max` characters, marking a cut with `…`. A word the cut would split goes
/// whole (`-> …`, not `-> s…`): a word's first letters name nothing and read as another name.
pub(crate) fn truncate(text: String, max: usize) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    match text.char_indices().nth(max.saturating_sub(1)) {
        Some((cut, at)) if text[cut..].chars().nth(1).is_some() => {
            let head = &text[..cut];
            let before_word = head.trim_end_matches(word);
            let mut short = match word(at) && !before_word.trim().is_empty() {
                // `-> …`: the space before the word stays, as the word's place.
                true if before_word.ends_with(char::is_whitespace) => format!("{} ", before_word.trim_end()),
                true => before_word.to_string(),
                false => head.trim_end().to_string(),
            };
            short.push('…');
            short
        }
        _ => text,
    }
}

/// Where a bracket opened just before `text` closes: the byte index in `text` of the `close` that
/// matches it, nested pairs passed over; `None` when it stays open.
pub(crate) fn closing(text: &str, open: char, close: char) -> Option<usize> {
    let mut depth = 1usize;
    text.char_indices().find_map(|(at, c)| {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(at);
            }
        }
        None
    })
}

/// `"key"` and `'key'` become `key`; escapes are left as written.
pub(crate) fn unquote(text: &str) -> &str {
    ['"', '\''].iter().find_map(|q| text.strip_prefix(*q).and_then(|t| t.strip_suffix(*q))).unwrap_or(text)
}

/// A source's lines by number (1-based, as views print them), with where each starts: what the
/// judges of a broken file read line by line, split once.
pub(crate) struct Lines<'s> {
    pub(crate) source: &'s str,
    texts: Vec<&'s str>,
    starts: Vec<usize>,
}

impl<'s> Lines<'s> {
    pub(crate) fn new(source: &'s str) -> Self {
        let mut starts = Vec::with_capacity(source.len() / 32);
        let mut offset = 0;
        for line in source.split_inclusive('\n') {
            starts.push(offset);
            offset += line.len();
        }
        Lines { source, texts: source.lines().collect(), starts }
    }

    pub(crate) fn count(&self) -> u32 {
        u32::try_from(self.texts.len()).unwrap_or(u32::MAX)
    }

    /// A line's text without its line break; empty past the end.
    pub(crate) fn text(&self, line: u32) -> &'s str {
        self.texts.get((line as usize).wrapping_sub(1)).copied().unwrap_or("")
    }

    /// A line's leading whitespace, in bytes.
    pub(crate) fn indent(&self, line: u32) -> usize {
        let text = self.text(line);
        text.len() - text.trim_start().len()
    }

    /// The byte offset where a line starts.
    pub(crate) fn start(&self, line: u32) -> Option<usize> {
        self.starts.get((line as usize).wrapping_sub(1)).copied()
    }

    /// Per line (index 0 is line 1), whether one of `spans` covers it.
    pub(crate) fn covered_by(&self, spans: &[(u32, u32)]) -> Vec<bool> {
        let mut covered = vec![false; self.texts.len()];
        for &(first, last) in spans {
            for line in first.max(1)..=last.min(self.count()) {
                covered[line as usize - 1] = true;
            }
        }
        covered
    }

    /// The byte offset of a line's first non-blank character.
    pub(crate) fn code_at(&self, line: u32) -> Option<usize> {
        self.start(line).map(|start| start + self.indent(line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_line_strips_body_openers() {
        assert_eq!(signature_line("fn f(a: u8)\n    -> u8 {"), "fn f(a: u8) -> u8");
        assert_eq!(signature_line("def f(x) -> int:"), "def f(x) -> int");
        assert_eq!(signature_line("const f = (a) =>"), "const f = (a)");
        assert_eq!(signature_line("Shape() = default;"), "Shape() = default");
        assert_eq!(signature_line("{"), "{");
        // A macro whose rules are in parentheses.
        assert_eq!(signature_line("macro_rules! byte ("), "macro_rules! byte");
    }

    #[test]
    fn a_head_over_several_lines_reads_as_one() {
        let raw = "def connect(\n    self,\n    host: str,\n    port: int = 0,\n) -> Conn:";
        assert_eq!(signature_line(raw), "def connect(self, host: str, port: int = 0) -> Conn");
        assert_eq!(
            signature_line("fn f(\n    a: [u8; 4],\n    b: (u8,),\n) -> u8 {"),
            "fn f(a: [u8; 4], b: (u8,)) -> u8"
        );
        // A comma written before the bracket on the same line is kept: `(T,)` is a one-tuple.
        assert_eq!(signature_line("fn g() -> ( u8, ) {"), "fn g() -> (u8,)");
        // A brace list written one entry a line loses its trailing comma and keeps its spaces.
        assert_eq!(collapse_code("export {\n  a as b,\n  c,\n} from \"./x\""), "export { a as b, c } from \"./x\"");
        assert_eq!(
            signature_line("export type Trigger<\n  ResultType,\n  QueryArg,\n> = (arg: QueryArg) =>"),
            "export type Trigger<ResultType, QueryArg> = (arg: QueryArg)"
        );
        // Without a line break `<` and `>` may compare.
        assert_eq!(signature_line("const SMALL = a < b"), "const SMALL = a < b");
    }

    #[test]
    fn truncate_marks_cut_on_char_boundary() {
        assert_eq!(truncate("abc".into(), 3), "abc");
        assert_eq!(truncate("abcd".into(), 3), "ab…");
        assert_eq!(truncate("ééééé".into(), 3).chars().count(), 3);
        // A word the cut would split goes whole.
        assert_eq!(truncate("def f(x) -> str".into(), 14), "def f(x) -> …");
        assert_eq!(truncate("def f(x) -> Optional[int]".into(), 18), "def f(x) -> …");
    }

    #[test]
    fn a_bracket_closes_past_the_pairs_nested_in_it() {
        assert_eq!(closing("a, (b)) -> c", '(', ')'), Some(6));
        assert_eq!(closing("T : Event<T>> send", '<', '>'), Some(12));
        assert_eq!(closing("never (closed", '(', ')'), None);
    }
}
