//! A function's head without the body written on its line: Kotlin's `fun f() {}` and `fun g(x:
//! Int) = x + 1`, Scala's `def inc(x: Int): Int = x + 1`, Dart's `String get name => _name;`,
//! Lua's `short = function(call) return call.name end`.
//! The signature is the head: a body kept in it made the line code, and a long one pushed the
//! line past its length with the signature cut short behind it.

use super::Family;
use super::code_chars::code_chars;
use crate::text::closing;

/// `head` up to the body it opens on its line: a `{` or a lone `=` outside brackets and strings
/// (in Dart and Groovy also `=>`), the whole head when it opens none. A default value inside the
/// parameters is theirs (`f(x: Int = 1)`), and an operator's name is no body (`def ==(o: Any)`,
/// `operator []=(`, `def x_=(v)`: an `=` without a space before it). A function assigned to a
/// name (`M.load = function(path)`) is headed by its assignment.
pub(super) fn without_body(head: &str, family: Family) -> &str {
    let bytes = head.as_bytes();
    let mut depth = 0i32;
    for (at, c) in code_chars(head, None) {
        let spaced = at > 0 && bytes[at - 1].is_ascii_whitespace();
        let next = bytes.get(at + 1).copied();
        let body = match c {
            '(' | '[' => {
                depth += 1;
                false
            }
            ')' | ']' => {
                depth -= 1;
                false
            }
            '{' => depth == 0,
            '=' if depth == 0 && spaced => match next {
                None | Some(b' ' | b'\t') => !head[at + 1..].trim_start().starts_with("function"),
                Some(b'>') => family == Family::Typed,
                _ => false,
            },
            _ => false,
        };
        if body {
            return head[..at].trim_end();
        }
    }
    head
}

/// A Lua function's `head` up to the `)` that closes its parameters (`short = function(call)
/// return call.name end`, `local function helper() end`), and so without a statement after its
/// `end` (`M.f = function() end; x = 1` was shown whole, as if `x = 1` were its signature); the
/// whole head for a function inside a table or a call written on the line (a one-line table's
/// functions, `{ a = function() end, b = function() end }`, named by all of them).
pub(super) fn lua_without_body(head: &str) -> &str {
    let Some(function) = head.find("function") else { return head };
    let text = &head[function..];
    let Some(open) = text.find('(') else { return head };
    let Some(close) = closing(&text[open + 1..], '(', ')') else { return head };
    let depth = code_chars(&head[..function], Some("--")).fold(0i32, |depth, (_, c)| match c {
        '{' | '(' => depth + 1,
        '}' | ')' => depth - 1,
        _ => depth,
    });
    match depth > 0 {
        true => head,
        false => &head[..function + open + 1 + close + 1],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_on_the_head_line_is_left_out() {
        let general = |head| without_body(head, Family::General);
        assert_eq!(general("def inc(x: Int): Int = x + 1"), "def inc(x: Int): Int");
        assert_eq!(general("def todo(x: Int): String = ???"), "def todo(x: Int): String");
        assert_eq!(general("fun f() {}"), "fun f()");
        assert_eq!(general("init(x: Double) { self.x = x }"), "init(x: Double)");
        assert_eq!(general("sub type { shift->{type} }"), "sub type");
        // A function type's `=>` is Scala's type, a body's only in Dart and Groovy.
        assert_eq!(general("def apply: Int => Int = _ + 1"), "def apply: Int => Int");
        let typed = |head| without_body(head, Family::Typed);
        assert_eq!(typed("bool operator ==(Object other) => other is Offset"), "bool operator ==(Object other)");
        assert_eq!(typed("String get name => _name;"), "String get name");
        // What the parameters hold, an operator's name and an assignment's `=` stay.
        assert_eq!(
            general("fun save(force: Boolean = false, run: () -> Unit = {})"),
            "fun save(force: Boolean = false, run: () -> Unit = {})"
        );
        assert_eq!(general("def ==(other: Any): Boolean"), "def ==(other: Any): Boolean");
        assert_eq!(general("def x_=(v: Int): Unit = set(v)"), "def x_=(v: Int): Unit");
        assert_eq!(typed("void operator []=(int i, int v) { }"), "void operator []=(int i, int v)");
        assert_eq!(general("M.load = function(path)"), "M.load = function(path)");
        assert_eq!(
            general("@Query(\"SELECT a WHERE b = {c}\") fun f(): Int = 1"),
            "@Query(\"SELECT a WHERE b = {c}\") fun f(): Int"
        );
    }

    #[test]
    fn a_lua_body_on_the_head_line_is_left_out() {
        assert_eq!(lua_without_body("short = function(call) return call.name end,"), "short = function(call)");
        assert_eq!(lua_without_body("local function helper(a, b) end"), "local function helper(a, b)");
        assert_eq!(lua_without_body("function M.load(path)"), "function M.load(path)");
        // A statement after the function's `end` is none of its head.
        assert_eq!(lua_without_body("M.f = function() end; x = 1"), "M.f = function()");
        assert_eq!(lua_without_body("M.g = function(a) return a end x = 2"), "M.g = function(a)");
        assert_eq!(lua_without_body("function M.h() end; y = '{'"), "function M.h()");
        let table = "local t = { a = function(s) return s end, b = function(s) return s end }";
        assert_eq!(lua_without_body(table), table);
    }
}
