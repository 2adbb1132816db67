//! Running tree-sitter with bounded size and time, and containing panics from a parse or an extraction.

use std::any::Any;
use std::cell::OnceCell;
use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use tree_sitter::{ParseOptions, ParseState, Parser, Range, Tree};

use crate::Language;
use crate::unparsed::error_lines;

/// Inputs larger than this are not handed to tree-sitter (its tree costs several times the input
/// in memory, and parsing several seconds per MiB in debug builds); they get the line-based fallback.
pub(crate) const MAX_PARSE_BYTES: usize = 8 << 20;

/// Wall-clock budget for one parse: a base plus an allowance per MiB. It is a backstop against
/// pathological error recovery, set at several times what a normal parse takes even in a debug
/// build on a loaded machine (about 1-2 s/MiB; release about 0.35 s/MiB), so at most ~45 s for
/// the largest input. Only an input that hits it gets a time-dependent (fallback) outline;
/// everything else is byte-deterministic.
const PARSE_TIME_BASE: Duration = Duration::from_secs(5);
const PARSE_TIME_PER_MIB: Duration = Duration::from_secs(5);

/// A file's text, and its copy with C and C++ macro words blanked (see [`crate::macro_words`]),
/// made at most once however many grammars read the file.
pub(crate) struct Source<'s> {
    text: &'s str,
    macro_blanked: OnceCell<Option<String>>,
}

impl<'s> Source<'s> {
    pub(crate) fn new(text: &'s str) -> Source<'s> {
        Source { text, macro_blanked: OnceCell::new() }
    }

    pub(crate) fn text(&self) -> &'s str {
        self.text
    }

    /// The copy with macro words blanked, `None` when the text has none.
    pub(crate) fn macro_blanked(&self) -> Option<&str> {
        self.macro_blanked.get_or_init(|| crate::macro_words::blank_macro_words(self.text)).as_deref()
    }
}

/// Parses `source` (around known gaps of the grammar, see [`crate::recover`]), giving up (`Err`)
/// when it is too large or takes longer than its budget.
pub(crate) fn parse(language: Language, source: &Source) -> Result<Tree, String> {
    let bytes = source.text().len();
    if bytes > MAX_PARSE_BYTES {
        return Err(format!("input is {bytes} bytes, over the {MAX_PARSE_BYTES}-byte parse limit"));
    }
    crate::recover::parse_around_gaps(language, source, |text| {
        parse_before(language, text, None, deadline_for(text.len()))
    })
}

/// Parses `source` as `language` with `parse`, or as another grammar it may be written for when
/// `language`'s could not read it whole and the other reads more of it:
/// - JavaScript as TypeScript (TSX when it seems to hold JSX): code annotated for Flow (vue-router's
///   and React Native's sources, whose every annotation was an error: vue-router's outline held
///   41 % of its definitions, React Native's 28 %), with or without its `@flow` pragma;
/// - C as C++: a `.h` file is read as C, and C++ libraries name their headers so (ICU's
///   `ucharstrie.h`, libstdc++'s `stl_vector.h`, Qt's): C's grammar read `class UCharsTrie :
///   public UMemory {` as a list of variables and its methods as the file's functions.
///
/// The language returned is the tree's.
pub(crate) fn as_written(
    language: Language,
    source: &Source,
    parse: impl Fn(Language, &Source) -> Result<Tree, String>,
) -> Result<(Language, Tree), String> {
    let tree = parse(language, source)?;
    if !tree.root_node().has_error() {
        return Ok((language, tree));
    }
    let text = source.text();
    let jsx = || text.contains("</") || text.contains("/>");
    let others: &[Language] = match language {
        // TSX reads a generic arrow function (`<T>(x: T) => x`) as an element, so TypeScript is
        // tried too when TSX leaves errors.
        Language::JavaScript if jsx() => &[Language::Tsx, Language::TypeScript],
        Language::JavaScript => &[Language::TypeScript],
        Language::C => &[Language::Cpp],
        _ => &[],
    };
    let mut best = (error_lines(&tree, text).len(), language, tree);
    for &candidate in others {
        if best.0 == 0 {
            break;
        }
        if let Ok(tree) = parse(candidate, source) {
            let errors = error_lines(&tree, text).len();
            if errors < best.0 {
                best = (errors, candidate, tree);
            }
        }
    }
    Ok((best.1, best.2))
}

/// Parses only `region` of `source` as a file of its own (a Rust macro's token tree read as
/// items). The tree's positions are those of `source`, so lines need no mapping back.
pub(crate) fn parse_region(language: Language, source: &str, region: Range) -> Result<Tree, String> {
    parse_before(language, source, Some(region), deadline_for(region.end_byte - region.start_byte))
}

fn deadline_for(bytes: usize) -> Instant {
    let mebibytes = u32::try_from(bytes >> 20).unwrap_or(u32::MAX);
    Instant::now() + PARSE_TIME_BASE + PARSE_TIME_PER_MIB * mebibytes
}

/// Parses `source` (or only `region` of it), cancelling the parse once `deadline` has passed.
fn parse_before(language: Language, source: &str, region: Option<Range>, deadline: Instant) -> Result<Tree, String> {
    let mut parser = Parser::new();
    parser.set_language(&language.grammar()).map_err(|e| format!("grammar rejected: {e:?}"))?;
    if let Some(region) = region {
        parser.set_included_ranges(&[region]).map_err(|e| format!("region rejected: {e:?}"))?;
    }
    // Called by tree-sitter every 100 parser operations.
    let mut progress =
        |_: &ParseState| if Instant::now() < deadline { ControlFlow::Continue(()) } else { ControlFlow::Break(()) };
    let bytes = source.as_bytes();
    let mut read = |offset: usize, _| bytes.get(offset..).unwrap_or_default();
    let options = ParseOptions::new().progress_callback(&mut progress);
    parser
        .parse_with_options(&mut read, None, Some(options))
        .ok_or_else(|| "parse exceeded its time budget".to_string())
}

/// Runs `work`, turning a panic into `Err` with the panic message.
pub(crate) fn contained<T>(work: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(work))
        .unwrap_or_else(|payload| Err(format!("panicked: {}", panic_message(&*payload))))
}

fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("non-string panic payload")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn javascript_with_annotations_is_read_as_typescript() {
        let read = |source: &str| as_written(Language::JavaScript, &Source::new(source), parse).unwrap().0;
        // Flow's annotations, with its pragma or without (React Native's `@noflow` files).
        assert_eq!(
            read("/* @flow */\nexport type Route = { path: ?string }\nfunction f(a: number): void {}\n"),
            Language::TypeScript
        );
        assert_eq!(read("const Toast = {\n  show: function (message: string): void {},\n};\n"), Language::TypeScript);
        assert_eq!(read("// @flow\nconst view = (to: string) => <Link to={to} />;\n"), Language::Tsx);
        // TSX is tried first when the text holds `/>` (here in a comment), TypeScript after it:
        // only TypeScript reads a `<T>a` assertion.
        assert_eq!(read("// see <br/>\nfunction f<T>(a: T): T { return <T>a; }\n"), Language::TypeScript);
        // JavaScript that parses stays JavaScript; so does an error TypeScript reads no better.
        assert_eq!(read("const view = <Link to={to} />;\nfunction f(a) {}\n"), Language::JavaScript);
        assert_eq!(read("function f( {\n"), Language::JavaScript);
        // Only JavaScript and C are read another way.
        assert_eq!(as_written(Language::Python, &Source::new("def f(:\n"), parse).unwrap().0, Language::Python);
    }

    #[test]
    fn a_header_with_classes_is_read_as_cpp() {
        let read = |source: &str| as_written(Language::C, &Source::new(source), parse).unwrap().0;
        assert_eq!(read("class Trie : public UMemory {\npublic:\n  Trie();\n};\n"), Language::Cpp);
        assert_eq!(read("template <typename T>\nstruct Box { T value; };\n"), Language::Cpp);
        // C stays C, with an error that C++ reads no better, or C++'s keywords as names.
        assert_eq!(read("int f(int a);\nstruct s { int x; };\n"), Language::C);
        assert_eq!(read("int f( {\n"), Language::C);
        assert_eq!(read("int class = 1;\nint f(int new;\n"), Language::C);
    }

    #[test]
    fn a_passed_deadline_cancels_the_parse() {
        let source = "fn f() {}\n".repeat(1_000);
        assert!(parse_before(Language::Rust, &source, None, Instant::now() + Duration::from_secs(60)).is_ok());
        let past = Instant::now();
        assert_eq!(parse_before(Language::Rust, &source, None, past).unwrap_err(), "parse exceeded its time budget");
    }

    #[test]
    fn oversized_input_is_refused_before_parsing() {
        let source = " ".repeat(MAX_PARSE_BYTES + 1);
        assert!(parse(Language::Json, &Source::new(&source)).unwrap_err().contains("parse limit"));
    }

    #[test]
    fn panics_become_errors() {
        let result: Result<(), String> = contained(|| panic!("boom {}", 7));
        assert_eq!(result.unwrap_err(), "panicked: boom 7");
        let result: Result<(), String> = contained(|| std::panic::panic_any(3_u8));
        assert_eq!(result.unwrap_err(), "panicked: non-string panic payload");
    }
}
