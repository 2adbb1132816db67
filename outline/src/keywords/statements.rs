//! The statements written one after another on a line of a language read by keywords: `fun a()
//! {} fun b() {}`, `const A = 1; const B = 2;`, a type's one-line body's members. Read as one,
//! the line was its first definition's, with what followed glued onto its signature (`val v = 1;
//! val w = 2`) and the later definitions in no view nor symbol search.

use super::code_chars::code_chars;

/// Words that go on the statement a `}` closes (`} else {`, `} catch (e) {`, `do { … } while`,
/// Scala's `for { … } yield`, Kotlin's `foo { 1 } as Bar`, Perl's `… } and …`): after one, the
/// `}` ends no statement.
const CONTINUATIONS: &[&str] = &[
    "and", "as", "catch", "else", "elseif", "elsif", "finally", "in", "is", "match", "on", "or", "then", "until",
    "while", "with", "yield",
];

/// `text`'s statements, each trimmed and with its `;`: a statement ends at a `;` outside brackets
/// and strings, and at a `}` that closes a block outside brackets when a word follows it (the
/// next definition, not `.map`, `else` or `?:`). A comment ends the text (`// fun g()` is no
/// statement). A statement still open at the end (`fun f() {`, its body below) is the last.
pub(super) fn statements(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut code = code_chars(text, None).peekable();
    while let Some((at, c)) = code.next() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' => depth -= 1,
            '}' => {
                depth -= 1;
                if depth == 0 && starts_statement(&text[at + 1..]) {
                    parts.push(&text[start..=at]);
                    start = at + 1;
                }
            }
            ';' if depth == 0 => {
                parts.push(&text[start..=at]);
                start = at + 1;
            }
            '/' if matches!(code.peek(), Some((_, '/' | '*'))) => {
                parts.push(&text[start..at]);
                start = text.len();
                break;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts.into_iter().map(str::trim).filter(|part| !part.is_empty() && *part != ";").collect()
}

/// Whether `rest`, what follows a `}`, starts another statement: a word that does not go on the
/// one the `}` closed, or an annotation (`@Test`; not Perl's `map { … } @list`, an array).
fn starts_statement(rest: &str) -> bool {
    let rest = rest.trim_start();
    let word = rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("");
    let starts_word = rest.starts_with(|c: char| c.is_alphabetic() || c == '_');
    let annotation = rest.strip_prefix('@').is_some_and(|name| name.starts_with(|c: char| c.is_uppercase()));
    (starts_word && !CONTINUATIONS.contains(&word)) || annotation
}

#[cfg(test)]
mod tests {
    use super::statements;

    #[test]
    fn a_line_is_cut_after_each_statement() {
        assert_eq!(statements("fun a() {} fun b() {}"), ["fun a() {}", "fun b() {}"]);
        assert_eq!(statements("val v = 1; val w = 2"), ["val v = 1;", "val w = 2"]);
        assert_eq!(statements("sub a { 1 } sub b { 2 }"), ["sub a { 1 }", "sub b { 2 }"]);
        assert_eq!(statements("fun f() { a(); b() } @Test fun g() {"), ["fun f() { a(); b() }", "@Test fun g() {"]);
        // What goes on a statement, brackets, strings and a comment end none.
        assert_eq!(statements("fun f() {"), ["fun f() {"]);
        assert_eq!(statements("val x = run { 1 }.let { it } ?: y"), ["val x = run { 1 }.let { it } ?: y"]);
        assert_eq!(statements("fun f() { if (a) { } else { } }"), ["fun f() { if (a) { } else { } }"]);
        assert_eq!(statements("for (;;) { a; }"), ["for (;;) { a; }"]);
        assert_eq!(
            statements("const S = \"; fun x() {} \"; const T = ';'"),
            ["const S = \"; fun x() {} \";", "const T = ';'"]
        );
        assert_eq!(statements("fun f() {} // fun g() {}"), ["fun f() {}"]);
        assert_eq!(statements("fun f() = 1; /* fun g() = 2 */"), ["fun f() = 1;"]);
        // A reader: each was cut after its `}`.
        assert_eq!(statements("val xs = for { a <- as } yield a"), ["val xs = for { a <- as } yield a"]);
        assert_eq!(statements("val x = foo { 1 } as Bar"), ["val x = foo { 1 } as Bar"]);
        assert_eq!(statements("my @b = map { $_ * 2 } @list;"), ["my @b = map { $_ * 2 } @list;"]);
    }
}
