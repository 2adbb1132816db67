//! Second parses that get past known gaps of a grammar, kept only when they parse better.
//!
//! tree-sitter-typescript cannot end an object type's member at a line break when the next
//! member is a generic call signature: in
//!
//! ```ts
//! export const dual: {
//!   <A>(self: A, that: A): A
//!   <A>(that: A): (self: A) => A
//! } = function (arity, body) { … }
//! ```
//!
//! the second `<` is read as a comparison and the whole declaration (often the rest of the file)
//! becomes one error. TypeScript itself separates such members by the line break. A copy of the
//! source with a `;` in place of the last indentation space before each such `<` parses as
//! written; every byte offset and line stays where it was, so the tree of the copy describes the
//! original text (node text is always read from the original).
//!
//! Nor does it read escape sequences in a template literal type: after
//!
//! ```ts
//! type Hint<P extends string> = `use \`class Self extends Class<Self>()(${P})\``
//! ```
//!
//! the escaped backtick ends the type, and what follows it (220 lines in effect's
//! `VariantSchema.ts`) is parsed as one template string, which no outline looks into. The copy writes `__` for each
//! escaped backtick: the same length, and a backtick escaped anywhere (a string, a regular
//! expression, a comment) was never where a literal ends.
//!
//! The same gap is in the TSX grammar; the copy for TSX makes this change, not the one above.
//!
//! JavaScript annotated for Flow is parsed with the TypeScript grammar (see
//! [`crate::parse::as_written`]), which reads most of Flow's types but not its object marks: an
//! exact object `{| a: T |}` and an inexact one `{ a: T, ... }`, `{...}`. The copy writes spaces
//! for the bars and for the `...` before a `}`; neither is valid TypeScript, so no TypeScript
//! that parsed is changed by it.
//!
//! Nor does it read import attributes on a re-export or import (`export * from './data.json'
//! with { type: 'json' }`): the statement, and what follows on its line, is an error, and the
//! re-export was missing from both views without a word. The copy writes spaces for `with {…}`
//! (or the older `assert {…}`) after a module (`from '…'`, or `import '…'`) where the grammar
//! failed on it (an import's it reads; in a string, a template or a comment the words are text),
//! wherever the statement's lines break, and a `;` for its closing brace: the statement then ends there, so
//! the definition's text, read from the original, keeps the attributes. JavaScript gets this
//! copy by way of TypeScript's grammar (see [`crate::parse::as_written`]), so such a file's
//! outline is TypeScript's.
//!
//! Nor does it read type arguments after an import type's member: `import('./HKT').Kind<'Option',
//! void>`, which tsc writes in every `.d.ts` whose types come from a module the file does not
//! import. The type ends before the `<`, and without a `;` after it (tsc's declarations have
//! one, the files people write often none) the `<…>` and the `export declare` of the next line
//! become an error: that declaration was read as private, the arguments were cut from the head,
//! and fp-ts's `Option.d.ts` lost half its definitions. The copy writes `_` for each byte of
//! `import('…')` where type arguments follow its members: a module identifier of the same
//! length (`______.Kind<…>`), which the grammar reads as a generic type.
//!
//! tree-sitter-c-sharp does not know C# 14's extension blocks (`extension<T>(IEnumerable<T> source)
//! { public bool IsEmpty => …; }` in a static class): the header is an error, the block's members
//! are read as the class's, and the class ends at the block's `}` (every member after it was
//! outside any type). The copy writes `struct _x` for the keyword (as long) and spaces for the
//! receiver's parentheses, so the block parses as a nested struct; the outline's C# rules read
//! a struct whose text starts with `extension` as the block (see `extract/csharp.rs`).
//!
//! C and C++ headers mark their API with macros the grammar cannot expand (`class MYLIB_API
//! Widget {`, `ZEXTERN int ZEXPORT deflate OF((…));`): the copy writes spaces for them (see
//! [`crate::macro_words`]; one-branch `#if`s inside a declaration too, see
//! [`crate::conditionals`]). Such a macro misleads the grammar as often without an error as with
//! one (`class MYLIB_API Widget {` reads as a function `Widget`), so this copy is made for every
//! C or C++ file that has one, once however many grammars read the file (a `.h` file is read as
//! C, then as C++; see [`Source`]), and parsed first.
//!
//! The copy's tree is used only when it has fewer unparsed tokens than the original's; the C and
//! C++ copy's, unless it has more: a copy that parses without an error needs no original parse.

use tree_sitter::Tree;

use crate::Language;
use crate::parse::Source;
use crate::unparsed::error_lines;

/// The tree of `source` that `parse` reads best: the original's, or a patched copy's when a known
/// gap of `language`'s grammar explains the original's errors and working around it removes
/// some. Only a failed parse of the original is an error.
pub(crate) fn parse_around_gaps(
    language: Language,
    source: &Source,
    parse: impl Fn(&str) -> Result<Tree, String>,
) -> Result<Tree, String> {
    let text = source.text();
    if matches!(language, Language::C | Language::Cpp)
        && let Some(blanked) = source.macro_blanked()
        && let Ok(copy) = parse(blanked)
    {
        let after = error_lines(&copy, text).len();
        if after == 0 {
            return Ok(copy);
        }
        let tree = parse(text)?;
        return Ok(if after <= error_lines(&tree, text).len() { copy } else { tree });
    }
    let tree = parse(text)?;
    if !tree.root_node().has_error() {
        return Ok(tree);
    }
    let patched = match language {
        Language::TypeScript | Language::Tsx => typescript_gaps(language, text, &tree),
        Language::CSharp => csharp_extension_blocks(text),
        _ => None,
    };
    let better = patched.and_then(|patched| parse(&patched).ok());
    Ok(match better {
        Some(better) if error_lines(&better, text).len() < error_lines(&tree, text).len() => better,
        _ => tree,
    })
}

/// `source` with every TypeScript (or TSX) gap above worked around, or `None` when it has none.
fn typescript_gaps(language: Language, source: &str, tree: &Tree) -> Option<String> {
    let unescaped = unescape_backticks(source);
    // In TSX a `<` starting a line is as likely an element as type parameters.
    let separated = (language == Language::TypeScript)
        .then(|| separate_generic_call_signatures(unescaped.as_deref().unwrap_or(source)))
        .flatten()
        .or(unescaped);
    let unmarked = flow_object_marks(separated.as_deref().unwrap_or(source));
    let patched = unmarked.or(separated);
    let unattributed = import_attributes(patched.as_deref().unwrap_or(source), tree);
    let patched = unattributed.or(patched);
    let typed = generic_import_types(patched.as_deref().unwrap_or(source));
    typed.or(patched)
}

/// `source` with `_` for every byte of each `import('m')` followed by `.Name` members and `<`
/// (an import type with type arguments), or `None` when there is none. In an expression
/// (`import('./m').then<T>(…)`) the same text is a call whose callee becomes an identifier:
/// nothing an outline names.
fn generic_import_types(source: &str) -> Option<String> {
    if !source.contains("import(") {
        return None;
    }
    let mut bytes = source.as_bytes().to_vec();
    let mut changed = false;
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    for (at, keyword) in source.match_indices("import(") {
        if source[..at].ends_with(word) {
            continue;
        }
        let call = &source[at + keyword.len()..];
        let Some(quote) = call.chars().next().filter(|quote| ['\'', '"'].contains(quote)) else {
            continue;
        };
        let Some(module) = call[1..].find([quote, '\n']).filter(|&end| call[1 + end..].starts_with(quote)) else {
            continue;
        };
        let Some(members) = call[module + 2..].strip_prefix(')') else {
            continue;
        };
        // `.A.B` then `<`: the members' length, when there is at least one.
        let mut rest = members;
        while let Some(member) = rest.strip_prefix('.') {
            let name = member.find(|c: char| !word(c)).unwrap_or(member.len());
            if name == 0 {
                break;
            }
            rest = &member[name..];
        }
        if rest.len() < members.len() && rest.starts_with('<') {
            let end = at + keyword.len() + module + 3;
            bytes[at..end].fill(b'_');
            changed = true;
        }
    }
    // Whole characters replaced by ASCII: still UTF-8.
    changed.then(|| String::from_utf8(bytes).expect("whole characters replaced by ASCII"))
}

/// `source` with `;` as the last indentation character of every line that starts with a type
/// parameter list (`<` then a letter, `_`, `$` or the line's end), or `None` when there is no
/// such line. A line that goes on a list the line before leaves open (ending in `<` or `,`: the
/// type arguments of `dual<\n  <A>(a: A) => A,\n  <A>() => A\n>(…)`) is an entry of it, not a
/// member.
fn separate_generic_call_signatures(source: &str) -> Option<String> {
    let mut bytes = source.as_bytes().to_vec();
    let mut changed = false;
    let mut start = 0;
    let mut previous_end = None;
    for line in source.split_inclusive('\n') {
        let code = line.trim_start_matches([' ', '\t']);
        let indent = line.len() - code.len();
        let mut chars = code.chars();
        // `<A, B>(…)`, or `<` alone with the parameters on the lines below.
        let opens_type_parameters = chars.next() == Some('<')
            && chars.next().is_none_or(|c| c.is_ascii_alphabetic() || matches!(c, '_' | '$' | '\n' | '\r'));
        let continues_a_list = matches!(previous_end, Some('<' | ','));
        if indent > 0 && opens_type_parameters && !continues_a_list {
            bytes[start + indent - 1] = b';';
            changed = true;
        }
        previous_end = code.trim_end().chars().last().or(previous_end);
        start += line.len();
    }
    // Only ASCII whitespace was replaced by ASCII: still UTF-8.
    changed.then(|| String::from_utf8(bytes).expect("an ASCII byte replaced by an ASCII byte"))
}

/// `source` with spaces for Flow's exact-object bars (`{|`, `|}`) and for an inexact object's
/// `...` (followed, past any whitespace, by `}`), or `None` when there is none.
fn flow_object_marks(source: &str) -> Option<String> {
    let mut bytes = source.as_bytes().to_vec();
    let mut changed = false;
    for i in 0..bytes.len() {
        let exact = (bytes[i] == b'{' && bytes.get(i + 1) == Some(&b'|'))
            || (bytes[i] == b'|' && bytes.get(i + 1) == Some(&b'}'));
        if exact {
            let bar = if bytes[i] == b'|' { i } else { i + 1 };
            bytes[bar] = b' ';
            changed = true;
        }
        let inexact =
            bytes[i..].starts_with(b"...") && bytes[i + 3..].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'}');
        if inexact {
            bytes[i..i + 3].copy_from_slice(b"   ");
            changed = true;
        }
    }
    // ASCII replaced by ASCII: still UTF-8.
    changed.then(|| String::from_utf8(bytes).expect("ASCII bytes replaced by ASCII bytes"))
}

/// `source` with the import attributes after each module (`from './a.json' with { type: 'json'
/// }`, `import './b.css' assert {…}`) written as spaces (line breaks kept) and a `;` in place of
/// their `}`, or `None` when there are none. Only a keyword that `tree` (the original's) could not
/// parse counts: the same words in a string, a template, a comment or a regular expression were
/// read as such, and blanking from there would swallow the code up to the next `}`.
fn import_attributes(source: &str, tree: &Tree) -> Option<String> {
    let mut bytes = source.as_bytes().to_vec();
    let mut changed = false;
    for keyword in ["with", "assert"] {
        for (at, _) in source.match_indices(keyword) {
            let after = &source[at + keyword.len()..];
            let opens =
                after.trim_start().starts_with('{') && after.starts_with(|c: char| c.is_whitespace() || c == '{');
            if !opens || !after_module(&source[..at]) || !inside_error(tree, at..at + keyword.len()) {
                continue;
            }
            let open = at + keyword.len() + after.find('{').unwrap_or_default();
            if let Some(close) = closing_brace(source, open) {
                blank(&mut bytes, at..close);
                bytes[close] = b';';
                changed = true;
            }
        }
    }
    // Whole characters replaced by ASCII: still UTF-8.
    changed.then(|| String::from_utf8(bytes).expect("whole characters replaced by ASCII"))
}

/// `source` with each extension block's header (`extension<T>(Seq<T> s) {` from a line's start)
/// written as a struct's (`struct _x<T>` and spaces, line breaks kept), or `None` when there is
/// none.
fn csharp_extension_blocks(source: &str) -> Option<String> {
    const KEYWORD: &str = "extension";
    let mut bytes = source.as_bytes().to_vec();
    let mut changed = false;
    let mut start = 0;
    for line in source.split_inclusive('\n') {
        let at = start + line.len() - line.trim_start().len();
        start += line.len();
        let after = &source[at..].strip_prefix(KEYWORD).unwrap_or_default();
        if !after.starts_with(['<', '(']) {
            continue;
        }
        let Some(open) = after.find('(').map(|open| at + KEYWORD.len() + open) else {
            continue;
        };
        // A block follows: no valid C# of older versions has that shape (a constructor of a
        // class named `extension` aside), and the grammar reads the header as it likes (an
        // error, a call), so the shape decides, not where the grammar failed.
        let Some(close) =
            closing(source.as_bytes(), open, true).filter(|&close| source[close + 1..].trim_start().starts_with('{'))
        else {
            continue;
        };
        bytes[at..at + KEYWORD.len()].copy_from_slice(b"struct _x");
        blank(&mut bytes, open..close + 1);
        changed = true;
    }
    // Whole characters replaced by ASCII: still UTF-8.
    changed.then(|| String::from_utf8(bytes).expect("whole characters replaced by ASCII"))
}

/// The offset of the `)` closing the `(` at `open`, on the same line unless `lines` allows more,
/// or `None` when a brace or `;` comes first (no parameter list holds one outside a string) or
/// it is not found within 4 KiB.
pub(crate) fn closing(bytes: &[u8], open: usize, lines: bool) -> Option<usize> {
    let mut depth = 0usize;
    for (at, &byte) in bytes.iter().enumerate().skip(open).take(4096) {
        match byte {
            b'(' => depth += 1,
            b')' if depth == 1 => return Some(at),
            b')' => depth -= 1,
            b'\n' if !lines => return None,
            b'{' | b'}' | b';' => return None,
            _ => {}
        }
    }
    None
}

/// Writes spaces over `range`, line breaks kept: every line keeps its number.
pub(crate) fn blank(bytes: &mut [u8], range: std::ops::Range<usize>) {
    bytes[range].iter_mut().filter(|b| !matches!(b, b'\n' | b'\r')).for_each(|b| *b = b' ');
}

/// Whether `before` ends with a module an import or re-export names: a quoted string after
/// `from` or `import`, and whitespace.
fn after_module(before: &str) -> bool {
    let before = before.trim_end();
    let Some(quote) = before.chars().last().filter(|quote| ['\'', '"'].contains(quote)) else {
        return false;
    };
    let inner = &before[..before.len() - 1];
    let Some(open) = inner.rfind(quote) else {
        return false;
    };
    let keyword = inner[..open].trim_end();
    let word = |word: &str| {
        keyword
            .strip_suffix(word)
            .is_some_and(|rest| !rest.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$'))
    };
    !before[open + 1..].contains('\n') && (word("from") || word("import"))
}

/// Whether the text at `range` is inside an error of `tree`.
fn inside_error(tree: &Tree, range: std::ops::Range<usize>) -> bool {
    let mut node = tree.root_node().descendant_for_byte_range(range.start, range.end);
    while let Some(current) = node {
        if current.is_error() {
            return true;
        }
        node = current.parent();
    }
    false
}

/// The offset of the `}` closing the brace at `open`, past quoted strings and comments; attributes
/// do not nest, and a string does not run past its line.
fn closing_brace(source: &str, open: usize) -> Option<usize> {
    let bytes = source.as_bytes();
    let from = |at: usize, what: &[u8]| bytes[at..].windows(what.len()).position(|w| w == what).map(|p| at + p);
    let mut at = open + 1;
    while let Some(&byte) = bytes.get(at) {
        at = match byte {
            b'\'' | b'"' => {
                let end = at + 1 + bytes[at + 1..].iter().position(|&b| b == byte || b == b'\n')?;
                (bytes[end] == byte).then_some(end)?
            }
            b'/' if bytes.get(at + 1) == Some(&b'/') => from(at, b"\n")?,
            b'/' if bytes.get(at + 1) == Some(&b'*') => from(at + 2, b"*/")? + 1,
            b'}' => return Some(at),
            b'{' => return None,
            _ => at,
        } + 1;
    }
    None
}

/// `source` with `__` for every escaped backtick (`\``, not `\\``), or `None` when there is none.
fn unescape_backticks(source: &str) -> Option<String> {
    let mut bytes = source.as_bytes().to_vec();
    let mut changed = false;
    let mut backslashes = 0;
    for i in 0..bytes.len() {
        match bytes[i] {
            b'\\' => backslashes += 1,
            b'`' if backslashes % 2 == 1 => {
                bytes[i - 1] = b'_';
                bytes[i] = b'_';
                changed = true;
                backslashes = 0;
            }
            _ => backslashes = 0,
        }
    }
    // ASCII replaced by ASCII: still UTF-8.
    changed.then(|| String::from_utf8(bytes).expect("ASCII bytes replaced by ASCII bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_indented_lines_opening_type_parameters_get_a_separator() {
        let source =
            "const f: {\n  <A>(a: A): A\n\t<B>(b: B): B\n<C>(c: C): C\n  a << b\n  < 3\n  <\n    D\n  >(d: D): D\n}\n";
        let patched = separate_generic_call_signatures(source).unwrap();
        assert_eq!(
            patched,
            "const f: {\n ;<A>(a: A): A\n;<B>(b: B): B\n<C>(c: C): C\n  a << b\n  < 3\n ;<\n    D\n  >(d: D): D\n}\n"
        );
        assert_eq!(patched.len(), source.len());
        assert_eq!(separate_generic_call_signatures("const a = 1 < 2\n  < 3\n"), None);
        // Type arguments one per line are not members.
        assert_eq!(separate_generic_call_signatures("} = dual<\n  <A>(a: A) => A,\n  <A>() => A\n>(2, f)\n"), None);
    }

    #[test]
    fn flow_object_marks_become_spaces() {
        let source =
            "type P = {| +a: T |};\nclass Q {\n  m: {[key: string]: (void) => {...}, ...};\n  n: {\n    ...\n  };\n}\n";
        let patched = flow_object_marks(source).unwrap();
        assert_eq!(
            patched,
            "type P = {  +a: T  };\nclass Q {\n  m: {[key: string]: (void) => {   },    };\n  n: {\n       \n  };\n}\n"
        );
        assert_eq!(patched.len(), source.len());
        // A spread, a rest parameter and a logical or are not marks.
        assert_eq!(flow_object_marks("const a = { ...b, c };\nf(...args)\nx = y || z\n"), None);
    }

    fn typescript(source: &str) -> Tree {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into()).unwrap();
        parser.parse(source, None).unwrap()
    }

    #[test]
    fn import_attributes_become_spaces_and_an_end() {
        // Each attribute list of a re-export, `}` included, becomes as many spaces with a `;` last;
        // an import's, which the grammar reads, stays.
        let blank = |text: &str| format!("{};", " ".repeat(text.len() - 1));
        let source = "export * from './g.json' with { type: '}' };\nimport d from \"./d.json\" assert { type: \"json\" }\n\
                      export {\n  c,\n} from \"./y.json\" with {\n  type: \"json\"\n}\nexport * from './s.css' with {type:'css'}\n";
        let expected = source
            .replace("with { type: '}' }", &blank("with { type: '}' }"))
            .replace("with {\n  type: \"json\"\n}", &format!("{}\n{}\n;", " ".repeat(6), " ".repeat(14)))
            .replace("with {type:'css'}", &blank("with {type:'css'}"));
        let patched = import_attributes(source, &typescript(source)).unwrap();
        assert_eq!(patched.replace('\n', "|"), expected.replace('\n', "|"));
        assert_eq!(patched.len(), source.len());
        // Words the grammar read as a string, a template, a comment: left as they are, though a
        // real attribute list elsewhere makes the file one with errors.
        let real = "export * from './g.json' with { type: 'json' };\n";
        for text in [
            "export const m = \"x\" + ' with {'; function f() {}\n",
            "const open = `import data from './x.json' with {`;\nexport const hidden = 1;\nconst close = `}`;\n",
            "class A {\n  m() {\n    return 1 // like import 'b' with {\n  }\n  n() {}\n}\n",
        ] {
            let source = format!("{real}{text}");
            let patched = import_attributes(&source, &typescript(&source)).unwrap();
            assert_eq!(&patched[real.len()..], text);
        }
        // A comment inside the list, with a quote or a brace in it, is skipped.
        let source = "export * from './d.json' with { // don't inline\n  type: 'json' /* } */ };\n";
        let patched = import_attributes(source, &typescript(source)).unwrap();
        let (at, close) = (source.find("with").unwrap(), source.rfind('}').unwrap());
        let mut expected = source.as_bytes().to_vec();
        expected[at..close].iter_mut().filter(|b| **b != b'\n').for_each(|b| *b = b' ');
        expected[close] = b';';
        assert_eq!(patched.as_bytes(), expected);
    }

    #[test]
    fn import_types_with_type_arguments_become_identifiers() {
        let source = "const g: () => import('./HKT').Kind<'Option', void>\ntype T = import(\"./a/b\").N.M<X> | import('./c').D\n";
        let patched = generic_import_types(source).unwrap();
        assert_eq!(
            patched,
            "const g: () => _______________.Kind<'Option', void>\ntype T = _______________.N.M<X> | import('./c').D\n"
        );
        assert_eq!(patched.len(), source.len());
        // Without members or type arguments, or not the keyword: left as written.
        for source in ["const m = import('./m')<T>\n", "type A = import('./a').B\n", "reimport('./m').A<B>\n"] {
            assert_eq!(generic_import_types(source), None, "{source}");
        }
    }

    #[test]
    fn escaped_backticks_become_two_plain_characters() {
        let source = "type H = `use \\`x\\``\nconst path = `C:\\\\`\n";
        let patched = unescape_backticks(source).unwrap();
        assert_eq!(patched, "type H = `use __x__`\nconst path = `C:\\\\`\n");
        assert_eq!(patched.len(), source.len());
        assert_eq!(unescape_backticks("const a = `plain ${b}`\n"), None);
    }
}
