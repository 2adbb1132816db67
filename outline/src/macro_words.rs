//! Macro words of C and C++ headers, blanked in a copy of the source for a second parse (see
//! [`crate::recover`]). A library marks its API with macros the grammar cannot expand:
//!
//! - an export macro in a type's head, `class MYLIB_API Widget : public Base {`, which the
//!   grammar reads as a function `Widget` returning `class MYLIB_API`, with no error when there is
//!   no base list: the class and its members were lost without a word;
//! - words before a declaration's type or name, `ZEXTERN int ZEXPORT deflate(…);`, `SQLITE_API
//!   SQLITE_EXTERN const char sqlite3_version[];`, read as several declarations (`ZEXTERN int`,
//!   `ZEXPORT deflate`), each a line of the outline under a wrong name;
//! - a line of such words alone before a definition (`_GLIBCXX_NODISCARD _GLIBCXX20_CONSTEXPR`
//!   over a method) or between definitions (`Q_OBJECT`, `_GLIBCXX_BEGIN_NAMESPACE_VERSION`);
//! - a parameter list wrapped for pre-ANSI compilers, `deflate OF((z_streamp strm, int flush))`;
//! - a function's name wrapped in a macro, `BZ_EXTERN int BZ_API(BZ2_bzCompress) (…)`, read as
//!   a function `BZ_API`;
//! - a statement's macro over a block (nlohmann's `JSON_TRY` and `JSON_CATCH (…)` over `{`);
//! - an access macro (`JSON_PRIVATE_UNLESS_TESTED:`), written as the access it names;
//! - words after a parameter list (`_Vector_impl() _GLIBCXX_NOEXCEPT_IF(…) : base()`), and a
//!   calling convention in a function pointer (`typedef BOOL (PASCAL *LPFN_ACCEPTEX)(…)`).
//!
//! A macro word is an upper-case identifier (`MYLIB_API`, `_GLIBCXX20_CONSTEXPR`), with its
//! arguments where it takes some (`EXPORT_MACRO(core)`). The copy writes spaces for these words
//! (and the wrapper's outer parentheses), so every offset stays; the outline reads heads from the
//! original text, so they keep the macros inside them as written. A macro that starts a
//! declaration becomes `extern` where it is as long, for the same reason; a shorter one, and a
//! macro word alone at the margin above a declaration (OpenSSL's `OSSL_DEPRECATEDIN_3_0`, which
//! says what is deprecated), are put back in front of its head (see [`unparsed_lead`]); a line
//! of several, or one indented in a type (`_GLIBCXX20_CONSTEXPR` over a method), is left out. A
//! type named in capitals (`FILE`, `BOOL`) stays where it is the only type of its declaration.

use tree_sitter::Node;

use crate::recover::{blank, closing};

/// `source` with the macro words above written as spaces, or `None` when it has none.
pub(crate) fn blank_macro_words(source: &str) -> Option<String> {
    let mut start = 0;
    let lines: Vec<(usize, usize)> = source
        .split_inclusive('\n')
        .map(|line| {
            let span = (start, start + line.len());
            start += line.len();
            span
        })
        .collect();
    let mut bytes = source.as_bytes().to_vec();
    let mut changed = crate::conditionals::blank_inner_conditionals(&mut bytes, &lines);
    changed |= parameter_wrappers(&mut bytes);
    changed |= wrapped_names(&mut bytes);
    changed |= type_head_macros(&mut bytes);
    changed |= trailing_macros(&mut bytes);
    changed |= calling_conventions(&mut bytes);
    // Each line's next line of code (comment lines skipped), found from the end.
    let comments = comment_lines(source.as_bytes(), &lines);
    let mut next_code = vec![None; lines.len()];
    for index in (1..lines.len()).rev() {
        let (start, end) = lines[index];
        let line = source.as_bytes()[start..end].trim_ascii();
        next_code[index - 1] = if comments[index] { next_code[index] } else { Some(line) };
    }
    for (&(start, end), next) in lines.iter().zip(next_code) {
        changed |= macro_line(&mut bytes, start, end, next);
        changed |= declaration_macros(&mut bytes, start, end);
        changed |= access_macro(&mut bytes, start, end);
    }
    // ASCII replaced by spaces: still UTF-8.
    changed.then(|| String::from_utf8(bytes).expect("ASCII bytes replaced by spaces"))
}

/// Per line, whether it holds nothing but comments and white space. A block comment's inner
/// lines count whatever they start with: nlohmann's `NLOHMANN_JSON_NAMESPACE_BEGIN` stood over a
/// `/*!` comment whose lines start with `@brief`, read as the next line of code, so the macro
/// was kept and the grammar read `NLOHMANN_JSON_NAMESPACE_BEGIN class basic_json {…}` as a
/// function: the class and its 5,000 lines of members were lost.
pub(crate) fn comment_lines(bytes: &[u8], lines: &[(usize, usize)]) -> Vec<bool> {
    let mut in_block = false;
    lines
        .iter()
        .map(|&(start, end)| {
            let line = &bytes[start..end];
            let mut code = false;
            let mut at = 0;
            while at < line.len() {
                if in_block {
                    match line[at..].windows(2).position(|pair| pair == b"*/") {
                        Some(close) => (in_block, at) = (false, at + close + 2),
                        None => break,
                    }
                } else if line[at..].starts_with(b"/*") {
                    (in_block, at) = (true, at + 2);
                } else if line[at..].starts_with(b"//") {
                    break;
                } else {
                    if !line[at].is_ascii_whitespace() {
                        code = true;
                        // A quote's text may hold `/*`: the rest of the line is code.
                        if matches!(line[at], b'"' | b'\'') {
                            break;
                        }
                    }
                    at += 1;
                }
            }
            !code
        })
        .collect()
}

/// Where the macro words before a declaration start that [`blank_macro_words`] wrote as spaces,
/// so its head keeps them as the source writes them (compactly, on its line): words on the
/// declaration's line (`API int f(void);`, too short to become `extern`), or one word alone at
/// the margin on the line above a declaration there, as OpenSSL marks what it deprecates
/// (`OSSL_DEPRECATEDIN_3_0` over `int EVP_foo(void);`). Not a line of several words, one
/// indented in a type (`Q_OBJECT` over a constructor says nothing of it), nor one that opens or
/// closes a scope (`__BEGIN_DECLS`, `U_NAMESPACE_BEGIN`, `LLVM_PACKED_START`).
pub(crate) fn unparsed_lead(node: Node, source: &str) -> Option<usize> {
    if !matches!(node.kind(), "declaration" | "function_definition" | "field_declaration" | "type_definition") {
        return None;
    }
    let start = node.start_byte();
    let line_start = source[..start].rfind('\n').map_or(0, |newline| newline + 1);
    let before = &source[line_start..start];
    let words = || before.split_ascii_whitespace();
    if words().next().is_some() {
        let first = line_start + before.len() - before.trim_ascii_start().len();
        return words().all(|word| is_macro_word(word.as_bytes())).then_some(first);
    }
    let above_start = source[..line_start.checked_sub(1)?].rfind('\n').map_or(0, |newline| newline + 1);
    let above = source[above_start..line_start].trim_ascii_end();
    let scope = above.split('_').any(|part| matches!(part, "BEGIN" | "END" | "START"));
    (start == line_start && is_macro_word(above.as_bytes()) && !scope).then_some(above_start)
}

fn is_word_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// An upper-case identifier of two characters or more with a letter: `OF`, `MYLIB_API`, `__P`.
fn is_macro_word(word: &[u8]) -> bool {
    word.len() >= 2
        && !word[0].is_ascii_digit()
        && word.iter().all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && word.iter().any(u8::is_ascii_uppercase)
}

/// The end of the identifier starting at `at`.
fn word_end(bytes: &[u8], at: usize) -> usize {
    at + bytes[at..].iter().take_while(|&&b| is_word_byte(b)).count()
}

fn skip_spaces(bytes: &[u8], at: usize) -> usize {
    at + bytes[at..].iter().take_while(|&&b| b == b' ' || b == b'\t').count()
}

/// A macro word at `at`, with its arguments when a `(` follows on the line: its end.
fn macro_use_end(bytes: &[u8], at: usize) -> Option<usize> {
    let end = word_end(bytes, at);
    if end == at || !is_macro_word(&bytes[at..end]) {
        return None;
    }
    let after = skip_spaces(bytes, end);
    match bytes.get(after) {
        Some(b'(') => closing(bytes, after, false).map(|close| close + 1),
        _ => Some(end),
    }
}

/// Whether `word` is at `start` as a whole word, not part of a longer one.
fn whole_word_at(bytes: &[u8], start: usize, word: &[u8]) -> bool {
    bytes[start..].starts_with(word)
        && (start == 0 || !is_word_byte(bytes[start - 1]))
        && bytes.get(start + word.len()).is_none_or(|&b| !is_word_byte(b))
}

/// `class|struct|union MACRO… Name [final|MACRO…] {` or `… : bases`: the macros blanked.
fn type_head_macros(bytes: &mut [u8]) -> bool {
    let mut changed = false;
    for at in 0..bytes.len() {
        let Some(keyword) = [&b"class"[..], b"struct", b"union"].into_iter().find(|k| whole_word_at(bytes, at, k))
        else {
            continue;
        };
        let first = skip_spaces(bytes, at + keyword.len());
        let mut uses = Vec::new();
        let mut end = first;
        while let Some(after) = macro_use_end(bytes, end) {
            uses.push(end..after);
            end = skip_spaces(bytes, after);
        }
        let mut name_end = word_end(bytes, end);
        // `struct PACKED NODE {`: the last word in capitals is the name.
        if name_end == end && uses.len() > 1 && uses.last().is_some_and(|last| word_end(bytes, last.start) == last.end)
        {
            name_end = uses.pop().map(|last| last.end).unwrap_or(end);
        }
        let Some(macros) = uses.first().map(|first| first.start..uses.last().map_or(first.end, |last| last.end)) else {
            continue;
        };
        // After the name, `final` or a macro for it (ICU's `U_FINAL`).
        let mut rest = skip_spaces(bytes, name_end);
        let mut after_name = Vec::new();
        loop {
            if whole_word_at(bytes, rest, b"final") {
                rest = skip_spaces(bytes, rest + b"final".len());
            } else if let Some(after) = macro_use_end(bytes, rest) {
                after_name.push(rest..after);
                rest = skip_spaces(bytes, after);
            } else {
                break;
            }
        }
        let rest = rest + bytes[rest..].iter().take_while(|b| b.is_ascii_whitespace()).count();
        let opens = match bytes.get(rest) {
            Some(b'{') => true,
            Some(b':') => bytes.get(rest + 1) != Some(&b':'),
            _ => false,
        };
        if opens && name_end > macros.end {
            blank(bytes, macros);
            after_name.into_iter().for_each(|range| blank(bytes, range));
            changed = true;
        }
    }
    changed
}

/// `name OF((params))` (zlib's `OF`, Tcl's `_ANSI_ARGS_`, BSD's `__P`): the macro and its outer
/// parentheses blanked, leaving `name    (params) `.
fn parameter_wrappers(bytes: &mut [u8]) -> bool {
    each_word(bytes, |bytes, at, end| {
        let before = bytes[..at].iter().rev().find(|b| !b.is_ascii_whitespace());
        let after_name =
            before.is_some_and(|&b| is_word_byte(b) || b == b')') && (at == 0 || !is_word_byte(bytes[at - 1]));
        let wrapped = bytes.get(end) == Some(&b'(') && bytes.get(end + 1) == Some(&b'(');
        if !(after_name && wrapped && is_macro_word(&bytes[at..end])) {
            return false;
        }
        let outer = closing(bytes, end, true);
        let inner = closing(bytes, end + 1, true);
        let (Some(outer), Some(inner)) = (outer, inner) else { return false };
        if !bytes[inner + 1..outer].iter().all(u8::is_ascii_whitespace) {
            return false;
        }
        blank(bytes, at..end + 1);
        blank(bytes, outer..outer + 1);
        true
    })
}

/// Calls `visit` with each word's start and end, in order, and says whether any call changed
/// `bytes` (a visit may blank, never move, what it looks at).
fn each_word(bytes: &mut [u8], mut visit: impl FnMut(&mut [u8], usize, usize) -> bool) -> bool {
    let mut changed = false;
    let mut at = 0;
    while at < bytes.len() {
        let end = word_end(bytes, at);
        if end == at {
            at += 1;
            continue;
        }
        changed |= visit(bytes, at, end);
        at = end;
    }
    changed
}

/// `type MACRO(name) (params)`: bzip2 declares `BZ_EXTERN int BZ_API(BZ2_bzCompress) (…)`, its
/// `BZ_API(func)` being `func`, `WINAPI func` or `(WINAPI * func)` by platform, and the grammar
/// named every such function `BZ_API`. The macro, its `(` and its `)` blanked, leaving `name
/// (params)`. Only after a type (a word or `*`) and before a parameter list, outside a `#define`.
fn wrapped_names(bytes: &mut [u8]) -> bool {
    each_word(bytes, |bytes, at, end| {
        let Some((name, name_end, close)) = wrapped_name(bytes, at, end) else { return false };
        blank(bytes, at..name);
        blank(bytes, name_end..close + 1);
        true
    })
}

/// For the word `at..end`, a macro wrapping a declarator's name in [`wrapped_names`]: where the
/// name starts and ends, and its `)`.
fn wrapped_name(bytes: &[u8], at: usize, end: usize) -> Option<(usize, usize, usize)> {
    let after_type =
        bytes[..at].iter().rev().find(|b| !b.is_ascii_whitespace()).is_some_and(|&b| is_word_byte(b) || b == b'*');
    if !after_type || (at > 0 && is_word_byte(bytes[at - 1])) || !is_macro_word(&bytes[at..end]) {
        return None;
    }
    let open = skip_spaces(bytes, end);
    if bytes.get(open) != Some(&b'(') {
        return None;
    }
    let name = skip_spaces(bytes, open + 1);
    let name_end = word_end(bytes, name);
    let close = skip_spaces(bytes, name_end);
    if name_end == name || bytes.get(close) != Some(&b')') {
        return None;
    }
    let parameters = close + 1 + bytes[close + 1..].iter().take_while(|b| b.is_ascii_whitespace()).count();
    let line_start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |newline| newline + 1);
    let in_define = bytes[line_start..at].trim_ascii_start().starts_with(b"#");
    (bytes.get(parameters) == Some(&b'(') && !in_define).then_some((name, name_end, close))
}

/// Macro words after a parameter list (`_Vector_impl() _GLIBCXX_NOEXCEPT_IF(…)`, `size() const
/// _GLIBCXX_NOEXCEPT`) before the body, the initialiser list, `;` or `= default`, outside a
/// `#define` line.
fn trailing_macros(bytes: &mut [u8]) -> bool {
    const QUALIFIERS: [&[u8]; 5] = [b"const", b"volatile", b"noexcept", b"override", b"final"];
    let mut changed = false;
    // Kept as the scan goes (blanking keeps every newline): a long generated line costs one pass.
    let mut line_start = 0;
    for close in 0..bytes.len() {
        if bytes[close] == b'\n' {
            line_start = close + 1;
        }
        if bytes[close] != b')' {
            continue;
        }
        if bytes[line_start..close].trim_ascii_start().starts_with(b"#") {
            continue;
        }
        let mut at = skip_spaces(bytes, close + 1);
        while let Some(word) = QUALIFIERS.into_iter().find(|word| whole_word_at(bytes, at, word)) {
            at = skip_spaces(bytes, at + word.len());
        }
        let first = at;
        while let Some(after) = macro_use_end(bytes, at).or_else(|| multiline_macro_use_end(bytes, at)) {
            at = skip_spaces(bytes, after);
        }
        let end = at;
        let next = at + bytes[at..].iter().take_while(|b| b.is_ascii_whitespace()).count();
        if end > first && matches!(bytes.get(next), Some(b'{' | b';' | b':' | b'=')) {
            blank(bytes, first..end);
            changed = true;
        }
    }
    changed
}

/// A calling convention in a function pointer's declarator, `typedef BOOL (PASCAL *LPFN_ACCEPTEX)(…)`:
/// the grammar named the type after it (`PASCAL`). Only before a parameter list, so an
/// expression's `(SIZE * n)` stays.
fn calling_conventions(bytes: &mut [u8]) -> bool {
    let mut changed = false;
    for open in 0..bytes.len() {
        if bytes[open] != b'(' {
            continue;
        }
        let at = skip_spaces(bytes, open + 1);
        let end = word_end(bytes, at);
        if end == at || !is_macro_word(&bytes[at..end]) {
            continue;
        }
        let star = skip_spaces(bytes, end);
        let pointer_to_function = bytes.get(star) == Some(&b'*')
            && closing(bytes, open, false).is_some_and(|close| {
                let next = close + 1 + bytes[close + 1..].iter().take_while(|b| b.is_ascii_whitespace()).count();
                bytes.get(next) == Some(&b'(')
            });
        if pointer_to_function {
            blank(bytes, at..end);
            changed = true;
        }
    }
    changed
}

/// A macro word whose arguments go on over lines (`_GLIBCXX_NOEXCEPT_IF(\n  is_nothrow…)`): its end.
fn multiline_macro_use_end(bytes: &[u8], at: usize) -> Option<usize> {
    let end = word_end(bytes, at);
    if end == at || !is_macro_word(&bytes[at..end]) || bytes.get(end) != Some(&b'(') {
        return None;
    }
    closing(bytes, end, true).map(|close| close + 1)
}

/// A line of macro words alone (`_GLIBCXX_NODISCARD _GLIBCXX20_CONSTEXPR`, `Q_OBJECT`) followed
/// by a line that starts a declaration (not an enum's `}` after its last enumerator in capitals).
fn macro_line(bytes: &mut [u8], start: usize, end: usize, next: Option<&[u8]>) -> bool {
    let first = start + bytes[start..end].iter().take_while(|b| b.is_ascii_whitespace()).count();
    let indented = first > start;
    let mut at = first;
    let mut called = false;
    while let Some(after) = macro_use_end(&bytes[..end], at) {
        called |= after > word_end(bytes, at);
        at = skip_spaces(bytes, after);
    }
    let alone = at > first && bytes[at..end].iter().all(u8::is_ascii_whitespace);
    // Not when, at the margin, the next line starts with the name (`BOOL` over
    // `CloseHandle(HANDLE h)`): the line holds the declaration's type. A keyword is no name
    // (`int (*EVP_MD_meth_get_init(const EVP_MD *md))(…)` returns a function pointer). Indented,
    // in a class, the next line may be a constructor (`_GLIBCXX20_CONSTEXPR` over
    // `_Vector_impl()`), and a macro called with arguments is no type
    // (`DECLARE_ASN1_FUNCTIONS(RSA_PSS_PARAMS)` over another).
    // Indented over a block, a statement's macro (nlohmann's `JSON_TRY` and `JSON_CATCH (…)`
    // over `{`, standing for `try` and `catch`): the block stays a block.
    let declaration_follows = next.is_some_and(|line| match line.first() {
        Some(b'~' | b'[') => true,
        Some(b'{') => indented,
        Some(&b) if is_word_byte(b) => {
            let first = word_end(line, 0);
            let keyword = KEYWORDS.iter().any(|keyword| keyword.as_bytes() == &line[..first]);
            indented || called || keyword || line.get(skip_spaces(line, first)) != Some(&b'(')
        }
        _ => false,
    });
    if alone && declaration_follows {
        blank(bytes, first..at);
    }
    alone && declaration_follows
}

/// C's words of a declaration before its name that are neither a type nor a macro.
const KEYWORDS: &[&str] = &[
    "void",
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "signed",
    "unsigned",
    "bool",
    "_Bool",
    "const",
    "volatile",
    "static",
    "extern",
    "inline",
    "register",
    "restrict",
    "_Atomic",
    "_Noreturn",
    "__inline",
    "__inline__",
    "__extension__",
    "typedef",
    "constexpr",
    "consteval",
    "constinit",
    "virtual",
    "explicit",
    "friend",
    "mutable",
    "thread_local",
    "_Thread_local",
];

/// The built-in types among [`KEYWORDS`]: a declaration with one of them has no type in capitals.
const BUILT_IN: &[&str] =
    &["void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "bool", "_Bool"];

/// The keywords a type's tag follows: `struct z_stream_s`.
const TAGS: &[&str] = &["struct", "union", "enum"];

/// Words that start a statement, not a declaration.
const STATEMENTS: &[&str] = &["return", "case", "goto", "else", "do", "throw", "delete", "new", "sizeof"];

/// A line `MACRO:` whose macro names an access (nlohmann's `JSON_PRIVATE_UNLESS_TESTED:`, which
/// is `public` only in its tests): written as that access, padded, as a normal build reads it.
/// The grammar read the line as a bit field and took the member after it into the error.
fn access_macro(bytes: &mut [u8], start: usize, end: usize) -> bool {
    let first = skip_spaces(bytes, start);
    let word = word_end(bytes, first);
    let rest = &bytes[skip_spaces(bytes, word)..end];
    let label = rest.first() == Some(&b':') && rest[1..].iter().all(u8::is_ascii_whitespace);
    if !label || !is_macro_word(&bytes[first..word]) {
        return false;
    }
    let name = &bytes[first..word];
    let Some(access) = ["PRIVATE", "PROTECTED", "PUBLIC"]
        .into_iter()
        .find(|access| name.split(|&b| b == b'_').any(|part| part == access.as_bytes()))
    else {
        return false;
    };
    blank(bytes, first..word);
    bytes[first..first + access.len()].copy_from_slice(access.to_ascii_lowercase().as_bytes());
    true
}

/// On a line declaring a name (`ZEXTERN int ZEXPORT deflate(`, `SQLITE_API SQLITE_EXTERN const
/// char sqlite3_version[];`), the macro words before the name blanked, all but one when every
/// word that could be the type is one (`BOOL WINAPI CloseHandle(`: `BOOL` blanked, `WINAPI` read
/// as the type). Only plain C words, `*` and `&` count: a line with C++'s `::` or `<…>` is left.
fn declaration_macros(bytes: &mut [u8], start: usize, end: usize) -> bool {
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut at = skip_spaces(bytes, start);
    // A comment's line (` * Returns FOO bar(…)`) declares nothing.
    if bytes.get(at) == Some(&b'*') {
        return false;
    }
    loop {
        match bytes.get(at) {
            _ if at >= end => return false,
            Some(b' ' | b'\t' | b'*' | b'&') => at += 1,
            Some(&b) if is_word_byte(b) => {
                let word_end = word_end(bytes, at);
                words.push((at, word_end));
                at = word_end;
            }
            Some(b'(' | b'[' | b';' | b'=' | b',' | b'{') => break,
            _ => return false,
        }
    }
    let text = |(s, e): (usize, usize)| std::str::from_utf8(&bytes[s..e]).unwrap_or_default();
    let Some((_, specifiers)) = words.split_last() else { return false };
    if specifiers.is_empty() || STATEMENTS.contains(&text(specifiers[0])) {
        return false;
    }
    let mut types: Vec<(usize, usize)> = Vec::new();
    let mut built_in = false;
    let mut tagged = false;
    for (i, &word) in specifiers.iter().enumerate() {
        let word_text = text(word);
        if TAGS.contains(&word_text) {
            tagged = true;
        } else if BUILT_IN.contains(&word_text) {
            built_in = true;
        } else if !KEYWORDS.contains(&word_text) && (i == 0 || !TAGS.contains(&text(specifiers[i - 1]))) {
            types.push(word);
        }
    }
    let macros: Vec<_> = types.iter().copied().filter(|&w| is_macro_word(text(w).as_bytes())).collect();
    let other_type = built_in || tagged || macros.len() < types.len();
    let blanked: &[(usize, usize)] = match (other_type, macros.split_last()) {
        (true, _) => &macros,
        // All candidates in capitals: the last stays as the type.
        (false, Some((_, rest))) => rest,
        (false, None) => &[],
    };
    for &(s, e) in blanked {
        blank(bytes, s..e);
    }
    // A declaration starts where the grammar reads its first word: a macro that starts it becomes
    // `extern` where it is as long, so the head keeps it (`ZEXTERN int ZEXPORT deflate`).
    if let Some(&(start, _)) = blanked.first().filter(|&&first| first == specifiers[0] && first.1 - first.0 >= 6) {
        bytes[start..start + 6].copy_from_slice(b"extern");
    }
    !blanked.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blanked(source: &str) -> String {
        let patched = blank_macro_words(source).unwrap_or_else(|| source.to_string());
        assert_eq!(patched.len(), source.len());
        patched
    }

    #[test]
    fn a_scope_macro_over_a_block_comment_is_blanked() {
        // The comment's inner lines (`@brief …`) are no code: the class below is the next line.
        let source = "NS_BEGIN\n/*!\n@brief a class\n*/\nclass basic_json {};\n";
        assert_eq!(blanked(source), format!("        {}", &source[8..]));
        // A quote's `/*` opens no comment.
        assert_eq!(comment_lines(b"s = \"/*\";\nx;\n", &[(0, 10), (10, 13)]), [false, false]);
    }

    #[test]
    fn an_access_macro_becomes_its_access() {
        assert_eq!(blanked("  JSON_PRIVATE_UNLESS_TESTED:\n"), "  private                   :\n");
        assert_eq!(blanked("  MY_PROTECTED_API :\n"), "  protected        :\n");
        // A label naming no access, and `::`, stay.
        for source in ["  CLEANUP:\n", "  SIGNALS:\n", "  PUBLIC::x;\n"] {
            assert_eq!(blanked(source), source);
        }
    }

    #[test]
    fn a_statement_macro_over_a_block_is_blanked() {
        assert_eq!(
            blanked("    JSON_TRY\n    {\n    }\n    JSON_CATCH (std::out_of_range&)\n    {\n    }\n"),
            "            \n    {\n    }\n                                   \n    {\n    }\n"
        );
        // At the margin it may be a type's name over its body.
        assert_eq!(blanked("FOO\n{\n"), "FOO\n{\n");
    }

    #[test]
    fn export_macros_in_a_type_head_become_spaces() {
        assert_eq!(blanked("class MYLIB_API Widget {\n"), "class           Widget {\n");
        assert_eq!(
            blanked("class Q_DECL_EXPORT Panel final : public Base {"),
            "class               Panel final : public Base {"
        );
        assert_eq!(blanked("struct EXPORT_MACRO(core) Options\n{"), "struct                    Options\n{");
        assert_eq!(
            blanked("class U_I18N_API DateIntervalInfo U_FINAL : public UObject {"),
            "class            DateIntervalInfo         : public UObject {"
        );
        // The last word in capitals is the name; a use of a type, a base and a forward
        // declaration are left.
        assert_eq!(blanked("struct PACKED NODE {"), "struct        NODE {");
        for source in ["struct FOO_T *p;\n", "class Plain : public BASE_API {\n", "class API;\n", "a::B::C c;\n"] {
            assert_eq!(blanked(source), source);
        }
    }

    #[test]
    fn macro_words_of_a_declaration_become_spaces_or_extern() {
        assert_eq!(
            blanked("ZEXTERN int ZEXPORT deflate OF((z_streamp strm,\n    int flush));\n"),
            "extern  int         deflate    (z_streamp strm,\n    int flush) ;\n"
        );
        assert_eq!(
            blanked("SQLITE_API SQLITE_EXTERN const char sqlite3_version[];\n"),
            "extern                   const char sqlite3_version[];\n"
        );
        assert_eq!(blanked("API int f(void);\n"), "    int f(void);\n");
        // Every word that could be the type is in capitals: the last stays the type.
        assert_eq!(blanked("BOOL WINAPI CloseHandle(HANDLE h);\n"), "     WINAPI CloseHandle(HANDLE h);\n");
        // A type in capitals alone, a statement, a name in capitals: left.
        for source in ["FILE *fopen(const char *path);\n", "return FOO(x);\n", "static int MAX_SIZE = 5;\n"] {
            assert_eq!(blanked(source), source);
        }
    }

    #[test]
    fn a_line_of_macro_words_before_a_declaration_becomes_spaces() {
        let source = "  _GLIBCXX_NODISCARD _GLIBCXX20_CONSTEXPR\n  // doc\n  size_type size() const;\n";
        assert_eq!(blanked(source), source.replace("_GLIBCXX_NODISCARD _GLIBCXX20_CONSTEXPR", &" ".repeat(39)));
        assert_eq!(
            blanked("  Q_OBJECT\n\npublic:\n  Panel();\n"),
            format!("{}\n\npublic:\n  Panel();\n", " ".repeat(10))
        );
        let source =
            "DECLARE_ASN1_FUNCTIONS(RSA_PSS_PARAMS)\nDECLARE_ASN1_DUP_FUNCTION(RSA_PSS_PARAMS)\ntypedef int t;\n";
        assert_eq!(blanked(source).trim_start(), "typedef int t;\n");
        assert_eq!(
            blanked("OSSL_DEPRECATEDIN_3_0\nint (*get_init(const EVP_MD *md))(EVP_MD_CTX *ctx);\n").trim_start(),
            "int (*get_init(const EVP_MD *md))(EVP_MD_CTX *ctx);\n"
        );
        // At the margin above a name and its parameters the line is the return type; an enum's
        // last enumerator is followed by its `}`.
        for source in ["BOOL\nCloseHandle(HANDLE h);\n", "enum level {\n  LOW,\n  HIGH\n};\n"] {
            assert_eq!(blanked(source), source);
        }
    }

    #[test]
    fn a_macro_around_a_function_name_becomes_spaces() {
        assert_eq!(
            blanked("BZ_EXTERN int BZ_API(BZ2_bzCompress) ( \n      bz_stream* strm \n   );\n"),
            "extern    int        BZ2_bzCompress  ( \n      bz_stream* strm \n   );\n"
        );
        assert_eq!(
            blanked("BZ_EXTERN BZFILE* BZ_API(BZ2_bzopen) (const char *path);\n"),
            "extern    BZFILE*        BZ2_bzopen  (const char *path);\n"
        );
        // Its definition, a call in an expression, and a use without parameters are left.
        for source in ["#   define BZ_API(func) (WINAPI * func)\n", "x = MAX(a) (b);\n", "int BZ_API(f);\n"] {
            assert_eq!(blanked(source), source);
        }
    }

    #[test]
    fn macro_words_in_and_after_a_declarator_become_spaces() {
        let source = "  Vec() _GLIBCXX_NOEXCEPT_IF(\n    is_nothrow<T>::value)\n  : base() { }\n";
        let expected = source
            .replace("_GLIBCXX_NOEXCEPT_IF(", &" ".repeat(21))
            .replace("    is_nothrow<T>::value)", &" ".repeat(25));
        assert_eq!(blanked(source), expected);
        assert_eq!(blanked("  int size() const NOEXCEPT;\n"), "  int size() const         ;\n");
        assert_eq!(
            blanked("typedef BOOL (PASCAL *LPFN_ACCEPTEX)\n    (SOCKET s);\n"),
            "typedef BOOL (       *LPFN_ACCEPTEX)\n    (SOCKET s);\n"
        );
        assert_eq!(blanked("int n = (SIZE * 2);\n"), "int n = (SIZE * 2);\n");
        // A `#define`'s value is the macro's text.
        assert_eq!(blanked("#define F(x) NOEXCEPT;\n"), "#define F(x) NOEXCEPT;\n");
    }
}
