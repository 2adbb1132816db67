//! The awk programs given on a command line ([`awk_programs`]), and what
//! they read by name: the file
//! of each `getline < FILE` and `getline VAR < FILE` (a string literal is
//! that file; any other expression, `getline < f`, `getline < d "/x"`,
//! which reads from `d`, is known only when it runs). Strings that are no
//! getline's source name nothing; `"cmd" | getline` runs a command (see
//! [`super::program_writes::runs_command`]).

use super::getopt::{Name, Spec, long};
use super::writers::Part;

/// awk's options taking a value (mawk's `-W` too), with gawk's long names:
/// `-e`/`--source` gives its program's text, `-f`/`--file` and
/// `-E`/`--exec` a file of it (gawk 5.2 takes `--so`, `--fil`, `--e`; `--s`
/// and `--fi` are ambiguous).
pub(crate) const AWK: Spec = Spec {
    short_values: "FvfilEeW",
    long: &[
        long("source", "so", true, Some('e')),
        long("file", "fil", true, Some('f')),
        long("exec", "e", true, Some('E')),
        long("assign", "a", true, Some('v')),
        long("field-separator", "fie", true, Some('F')),
        long("include", "i", true, Some('i')),
        long("load", "lo", true, Some('l')),
    ],
};

/// The program texts awk runs given on the line: each `-e`/`--source`
/// value, and its first operand unless one of those or a program file
/// (`-f`, `-E`: not read here, as a script a shell runs is not) gave the
/// program; and the index of its first file operand.
pub(crate) fn awk_programs(args: &[&str]) -> (Vec<Part>, usize) {
    let parsed = AWK.parse(args);
    let texts = parsed.values(Name::Short('e'));
    let given = !texts.is_empty() || parsed.has(Name::Short('f')) || parsed.has(Name::Short('E'));
    let operands = parsed.operands;
    match operands.first() {
        Some(&word) if !given => (vec![Part { word, from: 0 }], operands.get(1).copied().unwrap_or(args.len())),
        first => (texts, first.copied().unwrap_or(args.len())),
    }
}

/// The files awk reads program text or code from, which are not read
/// here: `-f`/`--file` and `-E`/`--exec` programs (`-f /dev/stdin` too),
/// gawk's `-i`/`--include` libraries and `-l`/`--load` extensions. gawk's
/// own `inplace` library is known: [`in_place`] says what it writes.
pub(crate) fn program_files(args: &[&str]) -> Vec<Part> {
    let parsed = AWK.parse(args);
    let libraries = parsed.values(Name::Short('i'));
    let libraries = libraries.into_iter().filter(|part| &args[part.word][part.from..] != "inplace");
    let files = ['f', 'E', 'l'].into_iter().flat_map(|short| parsed.values(Name::Short(short)));
    files.chain(libraries).collect()
}

/// Whether a program's text loads code from files gawk finds by name (`@include "lib.awk"`,
/// `@load "readfile"`, whose `readfile()` reads any file): what it loads is not read here. A
/// directive is looked for anywhere, strings and comments too: a false ask, never a miss.
pub(crate) fn includes_code(program: &str) -> bool {
    program.contains("@include") || program.contains("@load")
}

/// Whether gawk loads its `inplace` extension (`-i inplace`, `--include
/// inplace`, `--i=inplace`…), which has it write its file operands.
pub(crate) fn in_place(args: &[&str]) -> bool {
    AWK.parse(args).values(Name::Short('i')).iter().any(|part| &args[part.word][part.from..] == "inplace")
}

/// The source of a `getline <` in an awk program.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Source<'a> {
    /// A string literal: the file's name.
    Named(&'a str),
    /// Any other expression, as written (a string with an escape too).
    Unknown(&'a str),
}

/// Each program text awk runs given on the line (see [`awk_programs`]),
/// and the files its getlines read by name.
pub(crate) fn getline_sources<'a>(args: &[&'a str]) -> Vec<(Part, Vec<Source<'a>>)> {
    awk_programs(args).0.into_iter().map(|part| (part, sources(&args[part.word][part.from..]))).collect()
}

fn sources(program: &str) -> Vec<Source<'_>> {
    let bytes = program.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        i = match bytes[i] {
            b'"' => string_end(bytes, i),
            b'#' => comment_end(bytes, i),
            // Bytes, not `program[i..]`: `i` steps through a multi-byte character (`/café/`).
            _ if bytes[i..].starts_with(b"getline")
                && !(i > 0 && is_name_byte(bytes[i - 1]))
                && !bytes.get(i + 7).is_some_and(|&b| is_name_byte(b)) =>
            {
                let after = lvalue_end(bytes, skip_blanks(bytes, i + 7));
                let at = skip_blanks(bytes, after);
                if bytes.get(at) == Some(&b'<') && bytes.get(at + 1) != Some(&b'=') {
                    let (source, end) = source(program, skip_blanks(bytes, at + 1));
                    out.push(source);
                    end
                } else {
                    after.max(i + 7)
                }
            }
            _ => i + 1,
        };
    }
    out
}

/// Whether an awk program may change its arguments, `ARGV` or `ARGC`:
/// after `BEGIN` awk reads as its input the files `ARGV[1]` up to
/// `ARGV[ARGC-1]` name, so a program that sets them (`ARGV[1]="f"; ARGC=2`,
/// `ARGV[ARGC++]="f"`, `split(s, ARGV)`, `sub(/a/, "f", ARGV[1])`,
/// `getline ARGV[1]`, or `f(ARGV)`: an array is passed by reference) reads
/// files known only when it runs. Reading them (`print ARGV[1]`, `i in
/// ARGV`, `length(ARGV)`, `delete ARGV[1]`) adds no file.
pub(crate) fn sets_arguments(program: &str) -> bool {
    let bytes = program.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        i = match bytes[i] {
            b'"' => string_end(bytes, i),
            b'#' => comment_end(bytes, i),
            b if is_name_byte(b) => {
                let end = bytes[i..].iter().position(|&b| !is_name_byte(b)).map_or(bytes.len(), |n| i + n);
                if matches!(&program[i..end], "ARGV" | "ARGC") && sets(program, i, end) {
                    return true;
                }
                end
            }
            _ => i + 1,
        };
    }
    false
}

/// Whether the `ARGV` or `ARGC` written from `start` to `end` is set there
/// (see [`sets_arguments`]).
fn sets(program: &str, start: usize, end: usize) -> bool {
    let bytes = program.as_bytes();
    let before = program[..start].trim_end();
    let word_before = &before[before.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_').len()..];
    let subscript = skip_blanks(bytes, end);
    let subscripted = bytes.get(subscript) == Some(&b'[');
    let after = if subscripted { balanced_end(bytes, subscript, b'[', b']') } else { end };
    let next = &program[skip_blanks(bytes, after)..];
    let assigned = (next.starts_with('=') && !next.starts_with("=="))
        || ["+=", "-=", "*=", "/=", "%=", "^=", "++", "--"].iter().any(|op| next.starts_with(op))
        || before.ends_with("++")
        || before.ends_with("--")
        || word_before == "getline";
    let call = enclosing_call(program, start);
    let whole_array = !subscripted && &program[start..end] == "ARGV";
    assigned
        || matches!(call, Some("sub" | "gsub"))
        || (whole_array && !matches!(word_before, "in" | "delete") && call != Some("length"))
}

/// The name of the function whose parentheses hold `at`, within its statement.
fn enclosing_call(program: &str, at: usize) -> Option<&str> {
    let bytes = program.as_bytes();
    let mut depth = 0usize;
    for i in (0..at).rev() {
        match bytes[i] {
            b')' => depth += 1,
            b'(' if depth == 0 => {
                let name = program[..i].trim_end();
                return Some(&name[name.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_').len()..]);
            }
            b'(' => depth -= 1,
            b'{' | b'}' | b';' | b'\n' => return None,
            _ => {}
        }
    }
    None
}

/// The file expression starting at `at`: a string literal, else the
/// primary written there (a parenthesized one whole, else up to a blank,
/// `)`, `;`, `}` or a line's end);
/// and where it ends.
fn source(program: &str, at: usize) -> (Source<'_>, usize) {
    let bytes = program.as_bytes();
    if bytes.get(at) == Some(&b'"') {
        let end = string_end(bytes, at);
        let closed = end > at + 1 && bytes.get(end - 1) == Some(&b'"');
        // An unclosed string may end inside a character: its text is read only when closed.
        return match closed.then(|| &program[at + 1..end - 1]) {
            Some(inner) if !inner.contains('\\') => (Source::Named(inner), end),
            _ => (Source::Unknown(&program[at..end]), end),
        };
    }
    let end = match bytes.get(at) {
        Some(b'(') => balanced_end(bytes, at, b'(', b')'),
        _ => bytes[at..].iter().position(|b| b" \t\n);}".contains(b)).map_or(bytes.len(), |n| at + n),
    };
    (Source::Unknown(&program[at..end]), end)
}

/// Past the variable a getline may assign: a name (with a subscript) or a field (`$2`, `$(i)`).
fn lvalue_end(bytes: &[u8], at: usize) -> usize {
    let mut i = at;
    if bytes.get(i) == Some(&b'$') {
        i += 1;
        if bytes.get(i) == Some(&b'(') {
            return balanced_end(bytes, i, b'(', b')');
        }
    }
    while bytes.get(i).is_some_and(|&b| is_name_byte(b)) {
        i += 1;
    }
    if i > at && bytes.get(i) == Some(&b'[') {
        return balanced_end(bytes, i, b'[', b']');
    }
    i
}

/// Past the `close` matching the `open` at `at` (the text's end when none does).
fn balanced_end(bytes: &[u8], at: usize, open: u8, close: u8) -> usize {
    let mut depth = 0usize;
    let mut i = at;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i = string_end(bytes, i);
                continue;
            }
            b if b == open => depth += 1,
            b if b == close => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// Past the string literal whose `"` is at `at` (its escapes kept).
fn string_end(bytes: &[u8], at: usize) -> usize {
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The end of the comment whose `#` is at `at`: its line's.
fn comment_end(bytes: &[u8], at: usize) -> usize {
    bytes[at..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |n| at + n)
}

fn skip_blanks(bytes: &[u8], at: usize) -> usize {
    bytes[at.min(bytes.len())..].iter().position(|b| !matches!(b, b' ' | b'\t')).map_or(bytes.len(), |n| at + n)
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn getline_sources_are_the_files_it_reads_by_name() {
        use Source::{Named, Unknown};
        for (program, expected) in [
            (r#"{ while ((getline line < "secret/key") > 0) print line }"#, vec![Named("secret/key")]),
            (
                r#"BEGIN{getline<"a";getline v <"b"; getline a[i "x"] < "c"; getline $(2) < "d"}"#,
                vec![Named("a"), Named("b"), Named("c"), Named("d")],
            ),
            (
                r#"{ getline x < f; getline < d "/x"; getline < ("a" "b") }"#,
                vec![Unknown("f"), Unknown("d"), Unknown(r#"("a" "b")"#)],
            ),
            (r#"{ getline < "k\145y" }"#, vec![Unknown(r#""k\145y""#)]),
            // No getline's source: a comparison, a string, a comment, a command's output, the main input.
            (r#"{ print "getline < \"x\"" } # getline < "y""#, vec![]),
            (r#"{ "cat secret/key" | getline; getline; n = getlines < 3; if ((getline) < 1) exit }"#, vec![]),
        ] {
            assert_eq!(sources(program), expected, "{program}");
        }
    }

    #[test]
    fn a_program_setting_argv_or_argc_sets_its_arguments() {
        for program in [
            r#"BEGIN { ARGV[1] = "secret/x"; ARGC = 2 }"#,
            r#"BEGIN{ARGV[ARGC++]="secret/x"}"#,
            "BEGIN { ARGC=2 }",
            "BEGIN { ++ARGC }",
            "BEGIN { ARGV [1] = \"x\" }",
            r#"BEGIN { split("secret/x", ARGV) }"#,
            r#"BEGIN { sub(/a/, "secret/x", ARGV[1]) }"#,
            r#"BEGIN { getline ARGV[1] < "list" }"#,
            "function f(a) { a[1] = 1 } BEGIN { f(ARGV) }",
        ] {
            assert!(sets_arguments(program), "{program}");
        }
        for program in [
            "{ print ARGV[1] }",
            "BEGIN { for (i in ARGV) print ARGV[i]; n = length(ARGV); delete ARGV[1] }",
            r#"BEGIN { if (ARGV[1] == "x") print ARGC }"#,
            r#"{ print "ARGV[1] = x" } # ARGC = 2"#,
            "{ MYARGV[1] = 1; ARGCOUNT = 2 }",
        ] {
            assert!(!sets_arguments(program), "{program}");
        }
    }
}
