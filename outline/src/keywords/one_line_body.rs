//! A type whose body is written on its line (`interface Svc { fun run() }`, `class P { int x = 0;
//! void go() {} }`): its members are read from the body, one per `;`-separated part, as they
//! would be from lines of their own. Left on the type's line they were no definitions (symbol
//! search missed them) and a line past the signature's length lost them unsaid.

/// The head before a body opened and closed on `line` (`interface Svc`), and the body's parts,
/// each with its `;` (`fun run()`, `int x = 0;`). `None` when no body opens, or it does not close
/// at the line's end (a block over the next lines, `{ … } catch`).
pub(super) fn split(line: &str) -> Option<(&str, Vec<&str>)> {
    let open = opening_brace(line)?;
    let body = line[open + 1..].trim_end().trim_end_matches(';').trim_end().strip_suffix('}')?;
    if !balanced(body) {
        return None;
    }
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (at, c) in body.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ';' if depth == 0 => {
                parts.push(&body[start..=at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    let parts = parts.into_iter().map(str::trim).filter(|part| !part.is_empty() && *part != ";").collect();
    Some((line[..open].trim_end(), parts))
}

/// The `{` that opens the body: the first outside brackets (past a constructor's parameters,
/// `class P(val x: Int) {`) and before any string.
fn opening_brace(line: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (at, c) in line.char_indices() {
        match c {
            '(' | '[' | '<' => depth += 1,
            ')' | ']' | '>' => depth -= 1,
            '{' if depth <= 0 => return Some(at),
            '"' | '\'' => return None,
            _ => {}
        }
    }
    None
}

/// Whether every bracket `text` opens it closes, in order.
fn balanced(text: &str) -> bool {
    let mut depth = 0i32;
    for c in text.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn a_body_on_the_line_is_split_into_its_members() {
        assert_eq!(split("interface Svc { fun run() }"), Some(("interface Svc", vec!["fun run()"])));
        assert_eq!(
            split("class P(val x: Int) { val y = 1; fun go() = listOf(1, 2) }"),
            Some(("class P(val x: Int)", vec!["val y = 1;", "fun go() = listOf(1, 2)"]))
        );
        assert_eq!(
            split("abstract class Svc { void run(); void go() { a(); b(); } };"),
            Some(("abstract class Svc", vec!["void run();", "void go() { a(); b(); }"]))
        );
        // A block over the next lines, an empty body and a brace in a string are none.
        assert_eq!(split("class P {"), None);
        assert_eq!(split("class P {}"), Some(("class P", vec![])));
        assert_eq!(split("class P : Base(\"{\") { }"), None);
    }
}
