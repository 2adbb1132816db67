//! Regex search: ripgrep's matcher and searcher over a fresh walk of the
//! tree. It never needs the index — a scan is exact and, with ripgrep's
//! literal optimisations, fast enough — so results do not depend on whether
//! the index is ready or up to date.

use grep_matcher::Matcher;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::sinks::Lossy;
use grep_searcher::{BinaryDetection, SearcherBuilder};

use crate::config::SearchConfig;
use crate::error::SearchError;
use crate::filter::PathFilter;
use crate::model::Found;
use crate::paths::Scope;
use crate::render::{FirstLines, shown_line};
use crate::walk::{Stop, scan_files};

/// Compiles a line regex; a syntax error names its 1-based column.
pub(crate) fn compile(pattern: &str) -> Result<RegexMatcher, SearchError> {
    if pattern.is_empty() {
        return Err(SearchError::EmptyQuery { what: "the regex is empty; pass a pattern such as `fn main`" });
    }
    // Parse first: grep-regex flattens the error to a string, regex-syntax keeps the span.
    if let Err(err) = regex_syntax::Parser::new().parse(pattern) {
        return Err(syntax_error(pattern, &err));
    }
    RegexMatcherBuilder::new().line_terminator(Some(b'\n')).build(pattern).map_err(|err| SearchError::InvalidRegex {
        pattern: pattern.to_string(),
        column: None,
        message: err.to_string(),
    })
}

fn syntax_error(pattern: &str, err: &regex_syntax::Error) -> SearchError {
    let (column, message) = match err {
        regex_syntax::Error::Parse(e) => (Some(e.span().start.column), e.kind().to_string()),
        regex_syntax::Error::Translate(e) => (Some(e.span().start.column), e.kind().to_string()),
        other => (None, other.to_string()),
    };
    SearchError::InvalidRegex { pattern: pattern.to_string(), column, message }
}

/// Every matching line under the scope, the first `max_results` of them in
/// (path, line) order.
pub(crate) fn search(
    scope: &Scope,
    filter: &PathFilter,
    matcher: &RegexMatcher,
    max_results: usize,
    config: &SearchConfig,
    stop: &Stop<'_>,
) -> Found {
    let mut kept = FirstLines::new(max_results);
    let (mut total, mut files) = (0, 0);
    let stats = scan_files(
        scope,
        filter,
        config,
        stop,
        |_, bytes| {
            // Binaries were already skipped by the reader; don't stop at a stray NUL later.
            let mut searcher =
                SearcherBuilder::new().line_number(true).binary_detection(BinaryDetection::none()).build();
            // Searched as the caller sees it: every file is masked first, since skipping those that
            // do not match as written would let a guess at a secret decide which files are searched.
            let masked = filter.mask().and_then(|mask| mask.apply(&String::from_utf8_lossy(bytes)));
            let haystack = masked.as_ref().map_or(bytes, |masked| masked.text.as_bytes());
            let (mut count, mut lines) = (0u64, Vec::new());
            let sink = Lossy(|line_number, line: &str| {
                count += 1;
                if lines.len() < max_results {
                    // Where the line matched, so a long line is shown around it.
                    let at = matcher.find(line.as_bytes()).ok().flatten().map_or(0..0, |m| m.start()..m.end());
                    lines.push((line_number, shown_line(line, line_number, at, masked.as_ref())));
                }
                Ok(true)
            });
            // Searching a slice has no I/O that could fail.
            let _ = searcher.search_slice(matcher, haystack, sink);
            (count > 0).then_some((count, lines))
        },
        |rel, (count, lines)| {
            total += count;
            files += 1;
            kept.insert(rel, lines);
        },
    );
    let matches = kept.into_matches();
    Found {
        shown: matches.len() as u64,
        matches,
        total,
        files_with_matches: files,
        files_searched: stats.files_searched,
        skipped: stats.skipped,
        cut_short: stats.cut_short,
        withheld: stats.withheld,
        note: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(pattern: &str) -> String {
        compile(pattern).err().map(|e| e.to_string()).unwrap_or_default()
    }

    #[test]
    fn syntax_errors_name_the_column() {
        assert!(
            error_of("foo(bar").starts_with("regex parse error at column 4: unclosed group"),
            "{}",
            error_of("foo(bar")
        );
        assert!(error_of("ab[c").starts_with("regex parse error at column 3: unclosed character class"));
        assert!(error_of("x{2,1}").starts_with("regex parse error at column 2:"), "{}", error_of("x{2,1}"));
        assert!(error_of("a(").ends_with("escape special characters (\\( \\[ \\.) to search for them literally"));
    }

    /// No escape makes a look-around or a backreference work: the advice says what does.
    #[test]
    fn unsupported_syntax_is_told_another_way() {
        for pattern in ["foo(?=bar)", "(?<!x)y", r"(a)\1"] {
            let error = error_of(pattern);
            assert!(
                error.ends_with(
                    "search for the text itself and narrow the hits with a second, more exact pattern instead"
                ),
                "{error}"
            );
            assert!(!error.contains("escape"), "{error}");
        }
    }

    #[test]
    fn empty_regex_is_refused() {
        assert!(error_of("").contains("empty"));
    }
}
