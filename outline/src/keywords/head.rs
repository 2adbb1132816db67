//! A definition's head on one line, for every family: with the lines its parameters continue on
//! (Kotlin's `fun findUser(` over `id: Long,` and `): User? {`, PHP's `public function save(User
//! $user,` over `bool $force): void {}`), so its line shows the whole parameter list.

use super::code_chars::code_chars;
use super::{Family, MAX_LINE};
use crate::text::collapse;

/// The most lines a declaration's parameters are read over (`void save(` and one a line).
const MAX_HEAD_LINES: usize = 24;

/// The declaration head starting at `lines[index]`, on one line: with the lines its parameters
/// continue on (`void save(` over `int id,` and `{required String name}) {`), and a `{` that opens
/// its block on the next line (Groovy's `void publish()` over `{`). Parameters that do not close
/// within [`MAX_HEAD_LINES`] lines and [`MAX_LINE`] bytes are not joined: what runs on that long
/// is a call's data, not a head.
///
/// A comment at a line's end is none of the head (`fun f(): Int // it's {x}` showed it, and the
/// `{` in it was read as the body's).
pub(super) fn head(lines: &[&str], index: usize, family: Family) -> String {
    let mut head = code(lines[index], family).trim().to_string();
    let mut next = index + 1;
    let open = code_chars(&head, None).find(|&(_, c)| c == '(').map(|(at, _)| at);
    if let Some(open) = open
        && let Some(depth) = still_open(1, &head[open + 1..])
        && let Some((joined, count)) = joined(&head, depth, &lines[next..], family)
    {
        head = collapse(&joined);
        next += count;
    }
    // Only the lines a head takes are read for comments: every line of a file may start a head
    // (Dart's, Groovy's), so reading the next ones each time cost each line many readings.
    let opens_next = lines[next.min(lines.len())..]
        .iter()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.len() <= MAX_LINE && code(l, family).trim() == "{");
    if opens_next {
        head.push_str(" {");
    }
    head
}

/// `line` without the comment at its end, as `family` writes one: `--` in Lua; in shell `#` after
/// a space; elsewhere `//` after a space (not `http://` nor Perl's `$a//$b`), or `#` and a space
/// after one (Perl's, PHP's and Elixir's; not Swift's `#if`, PHP's `#[Attribute]`). Strings are
/// passed over.
fn code(line: &str, family: Family) -> &str {
    let bytes = line.as_bytes();
    let spaced = |at: usize| at == 0 || bytes[at - 1].is_ascii_whitespace();
    let comment = code_chars(line, None).find(|&(at, c)| match (family, c, bytes.get(at + 1).copied()) {
        (Family::Lua, '-', Some(b'-')) => true,
        (Family::Lua, ..) => false,
        (Family::Shell, '#', _) => spaced(at),
        (_, '/', Some(b'/')) => spaced(at),
        (_, '#', None | Some(b' ' | b'\t')) => spaced(at),
        _ => false,
    });
    match comment {
        Some((at, _)) => line[..at].trim_end(),
        None => line,
    }
}

/// `first` with the lines of `rest` it continues on, `depth` parentheses still open at its end,
/// and how many lines were joined; `None` when they stay open past the bounds. Each line is read
/// once, the depth carried over, so a head never joined costs its bounds, not their square.
fn joined(first: &str, mut depth: usize, rest: &[&str], family: Family) -> Option<(String, usize)> {
    let mut joined = first.to_string();
    for (count, line) in rest.iter().take(MAX_HEAD_LINES).enumerate() {
        if line.len() > MAX_LINE {
            return None;
        }
        let line = code(line, family).trim();
        if joined.len() + 1 + line.len() > MAX_LINE {
            return None;
        }
        joined.push(' ');
        joined.push_str(line);
        match still_open(depth, line) {
            Some(open) => depth = open,
            None => return Some((joined, count + 1)),
        }
    }
    None
}

/// How many parentheses are open after `text`, `depth` of them open before it; `None` once they
/// have all closed. One in a string is text (`fun f(s: String = "(") {` joined the lines of its
/// body to its head, read as parameters still open).
fn still_open(depth: usize, text: &str) -> Option<usize> {
    code_chars(text, None).try_fold(depth, |depth, (_, c)| match c {
        '(' => Some(depth + 1),
        ')' => (depth > 1).then(|| depth - 1),
        _ => Some(depth),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_joined_within_the_lines_and_bytes_a_head_is_read_over() {
        let lines = ["fun save(", "    id: Long,", "    name: String,", "): User {"];
        assert_eq!(head(&lines, 0, Family::General), "fun save( id: Long, name: String, ): User {");
        let tall: Vec<&str> =
            std::iter::once("fun save(").chain(["id: Long,"; MAX_HEAD_LINES]).chain(["): User {"]).collect();
        assert_eq!(head(&tall, 0, Family::General), "fun save(");
        let fits = format!("{}): User {{", "id: Long, ".repeat(MAX_LINE / 10 - 10));
        assert!(head(&["fun save(", &fits], 0, Family::General).ends_with("id: Long, ): User {"));
        let wide = format!("{}): User {{", "id: Long, ".repeat(MAX_LINE / 10));
        assert_eq!(head(&["fun save(", &wide], 0, Family::General), "fun save(");
    }

    #[test]
    fn a_parenthesis_in_a_string_opens_no_parameters() {
        let lines = ["fun f(s: String = \"(\") {", "    println(s)", "}"];
        assert_eq!(head(&lines, 0, Family::General), "fun f(s: String = \"(\") {");
        let lines = ["fun q(s: String = \")\",", "    a: Int,", ") {"];
        assert_eq!(head(&lines, 0, Family::General), "fun q(s: String = \")\", a: Int, ) {");
    }

    #[test]
    fn a_comment_at_a_lines_end_is_no_part_of_the_head() {
        let general = |line| head(&[line], 0, Family::General);
        assert_eq!(general("fun f(a: Int): Int // it's {fine}"), "fun f(a: Int): Int");
        assert_eq!(general("val u = \"http://x\" // url"), "val u = \"http://x\"");
        assert_eq!(general("public function f() # it's {x}"), "public function f()");
        assert_eq!(general("#[Pure] public function f(): int"), "#[Pure] public function f(): int");
        assert_eq!(general("sub f { $a//$b }"), "sub f { $a//$b }");
        let lines = ["fun save(", "    id: Long, // the cart's", "    force: Boolean,", ") {"];
        assert_eq!(head(&lines, 0, Family::General), "fun save( id: Long, force: Boolean, ) {");
        assert_eq!(head(&["function deploy { # build first"], 0, Family::Shell), "function deploy {");
        assert_eq!(head(&["local function f(a) -- it's (x)"], 0, Family::Lua), "local function f(a)");
    }
}
