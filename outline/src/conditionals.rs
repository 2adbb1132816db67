//! Preprocessor conditionals inside a C or C++ declaration, blanked in the copy of the source
//! [`crate::macro_words`] makes. nlohmann's `json.hpp` writes
//!
//! ```cpp
//! template < typename ValueTypeCV, typename ValueType = detail::uncvref_t<ValueTypeCV>>
//! #if defined(JSON_HAS_CPP_14)
//!     constexpr
//! #endif
//!     auto get() const noexcept(…)
//! ```
//!
//! and `#if … #endif` around a template argument: the grammar reads a directive only between
//! declarations or statements, so these became errors that ended `class basic_json` 3,200 lines
//! early, its later members read as the file's. A conditional with one branch (no `#else` or
//! `#elif`) whose `#if` comes where a declaration or statement goes on (the code before it does
//! not end with `;`, `{`, `}` or `:`) has its directive lines written as spaces: the copy reads
//! as if its condition held, and every offset stays.

use crate::macro_words::comment_lines;
use crate::recover::blank;

/// One `#if`'s directive lines (with their `\` continuations), as byte ranges.
struct Conditional {
    directives: Vec<std::ops::Range<usize>>,
    inside_declaration: bool,
    branches: bool,
}

/// Blanks the directive lines of each one-branch conditional inside a declaration (see the
/// module's doc); whether any was.
pub(crate) fn blank_inner_conditionals(bytes: &mut [u8], lines: &[(usize, usize)]) -> bool {
    if !bytes.contains(&b'#') {
        return false;
    }
    let comments = comment_lines(bytes, lines);
    let mut open: Vec<Conditional> = Vec::new();
    let mut blanked = Vec::new();
    let mut last_code: Option<u8> = None;
    let mut index = 0;
    while index < lines.len() {
        let (start, end) = lines[index];
        let line = bytes[start..end].trim_ascii();
        let Some(directive) = line.strip_prefix(b"#") else {
            if !comments[index] {
                last_code = code_end(line).or(last_code);
            }
            index += 1;
            continue;
        };
        // The directive's continuation lines are part of it.
        let mut last = index;
        while bytes[lines[last].0..lines[last].1].trim_ascii_end().ends_with(b"\\") && last + 1 < lines.len() {
            last += 1;
        }
        let range = start..lines[last].1;
        let name = directive.trim_ascii_start();
        let name = &name[..name.iter().take_while(|b| b.is_ascii_alphabetic()).count()];
        match name {
            b"if" | b"ifdef" | b"ifndef" => open.push(Conditional {
                directives: vec![range],
                inside_declaration: last_code.is_some_and(|byte| !matches!(byte, b';' | b'{' | b'}' | b':')),
                branches: false,
            }),
            b"elif" | b"elifdef" | b"elifndef" | b"else" => {
                if let Some(conditional) = open.last_mut() {
                    conditional.branches = true;
                }
            }
            b"endif" => {
                if let Some(mut conditional) = open.pop()
                    && conditional.inside_declaration
                    && !conditional.branches
                {
                    conditional.directives.push(range);
                    blanked.extend(conditional.directives);
                }
            }
            _ => {}
        }
        index = last + 1;
    }
    let changed = !blanked.is_empty();
    blanked.into_iter().for_each(|range| blank(bytes, range));
    changed
}

/// The last byte of a line of code before a `//` comment (a `//` in a quote ends the scan: the
/// quote's last byte stands for the line).
fn code_end(line: &[u8]) -> Option<u8> {
    let mut quote = None;
    let mut end = line.len();
    let mut at = 0;
    while at < line.len() {
        match (quote, line[at]) {
            (Some(_), b'\\') => at += 1,
            (Some(open), byte) if byte == open => quote = None,
            (None, b'"' | b'\'') => quote = Some(line[at]),
            (None, b'/') if line.get(at + 1) == Some(&b'/') => {
                end = at;
                break;
            }
            _ => {}
        }
        at += 1;
    }
    line[..end].trim_ascii_end().last().copied()
}

#[cfg(test)]
mod tests {
    use crate::macro_words::blank_macro_words;

    #[test]
    fn a_one_branch_conditional_inside_a_declaration_is_blanked() {
        let source = "template <typename T>\n#if defined(CPP14)\n    constexpr\n#endif\nauto get() const;\n";
        let blanked = blank_macro_words(source).expect("a conditional to blank");
        assert_eq!(blanked, "template <typename T>\n                  \n    constexpr\n      \nauto get() const;\n");
        // In a template's arguments, after a `,`; nested, with continuation lines.
        let source =
            "template <typename T,\n#if A && \\\n  B\n#ifdef C\n  int N = 1,\n#endif\n#endif\n  int M = 0> void f();\n";
        let blanked = blank_macro_words(source).unwrap();
        assert!(!blanked.contains('#'), "{blanked}");
        assert_eq!(blanked.len(), source.len());
    }

    #[test]
    fn conditionals_between_declarations_or_with_branches_stay() {
        for source in [
            "int a;\n#if A\nint b;\n#endif\n",
            "class C {\n#ifdef X\n  int x;\n#endif\n};\n",
            "void f()\n#if A\n  const\n#else\n  volatile\n#endif\n{}\n",
            "// a comment ending in a word\n#if A\nint b;\n#endif\n",
            "#ifndef GUARD\n#define GUARD\n#endif\n",
        ] {
            assert_eq!(blank_macro_words(source), None, "{source}");
        }
    }
}
