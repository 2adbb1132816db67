//! The characters of a line that are code: what a keyword outline scans for brackets, bodies and
//! block words, passing over quoted strings (a `{` or `=` in one is text) and a line comment.

/// The characters of `text` that are code, with their byte offsets: not inside a `"` or `'`
/// string (a backslash escapes the next character), nor a quote itself, and before `comment`
/// (Lua's `--`) when one is given.
pub(super) fn code_chars<'t>(text: &'t str, comment: Option<&'static str>) -> impl Iterator<Item = (usize, char)> + 't {
    let mut quote = None;
    let mut escaped = false;
    let mut chars = text.char_indices();
    std::iter::from_fn(move || {
        for (at, c) in chars.by_ref() {
            match quote {
                Some(open) => match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    _ if c == open => quote = None,
                    _ => {}
                },
                None if c == '"' || c == '\'' => quote = Some(c),
                None if comment.is_some_and(|comment| text[at..].starts_with(comment)) => return None,
                None => return Some((at, c)),
            }
        }
        None
    })
}
