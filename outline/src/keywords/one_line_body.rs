//! A type whose body is written on its line (`interface Svc { fun run() }`, `class P { int x = 0;
//! void go() {} }`): its members are read from the body, one per statement, as they would be
//! from lines of their own. Left on the type's line they were no definitions (symbol
//! search missed them) and a line past the signature's length lost them unsaid.

use super::code_chars::code_chars;
use super::statements::statements;

/// The head before a body opened and closed on `line` (`interface Svc`), and the body's
/// statements, each with its `;` (`fun run()`, `int x = 0;`; see [`statements`]). `None` when no
/// body opens, or it does not close at the line's end (a block over the next lines, `{ … }
/// catch`). Brackets and `;` in strings are text.
pub(super) fn split(line: &str) -> Option<(&str, Vec<&str>)> {
    let open = opening_brace(line)?;
    let body = line[open + 1..].trim_end().trim_end_matches(';').trim_end().strip_suffix('}')?;
    if !balanced(body) {
        return None;
    }
    let parts = statements(body);
    Some((line[..open].trim_end(), parts))
}

/// The `{` that opens the body: the first outside brackets (past a constructor's parameters,
/// `class P(val x: Int) {`) and strings (`class Q(val s: String = "{") {`; a quote in the head
/// once left the whole line unread, its members in no view).
fn opening_brace(line: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (at, c) in code_chars(line, None) {
        match c {
            '(' | '[' | '<' => depth += 1,
            ')' | ']' | '>' => depth -= 1,
            '{' if depth <= 0 => return Some(at),
            _ => {}
        }
    }
    None
}

/// Whether every bracket `text` opens outside its strings it closes, in order.
fn balanced(text: &str) -> bool {
    let mut depth = 0i32;
    for (_, c) in code_chars(text, None) {
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
        // A block over the next lines is no body on the line; an empty one has no parts.
        assert_eq!(split("class P {"), None);
        assert_eq!(split("class P {}"), Some(("class P", vec![])));
        // Brackets and `;` in a string are text, in the head and in the body.
        assert_eq!(split("class P : Base(\"{\") { }"), Some(("class P : Base(\"{\")", vec![])));
        assert_eq!(
            split("class Q(val s: String = \"x\") { fun run() {} }"),
            Some(("class Q(val s: String = \"x\")", vec!["fun run() {}"]))
        );
        assert_eq!(
            split("class B { public function f(string $s = \"{\") { return ';'; } }"),
            Some(("class B", vec!["public function f(string $s = \"{\") { return ';'; }"]))
        );
    }
}
