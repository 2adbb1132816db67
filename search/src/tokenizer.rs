//! Code-aware tokenizer shared by the index and by the scan fallback.
//!
//! Agents search for `parse config` as often as for `parseConfig`, so every
//! identifier is indexed whole *and* split into its camelCase, PascalCase,
//! snake_case, kebab-case and letter/digit parts, all lowercased. Queries run
//! through the same function, so `parseConfig` matches the whole identifier
//! best and its parts still match elsewhere.

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

/// Name the tokenizer is registered under in every index.
pub(crate) const CODE_TOKENIZER: &str = "code";

/// Longer tokens (hashes, base64 blobs, minified lines) only bloat the term
/// dictionary; nobody searches for them by bm25.
const MAX_TOKEN_BYTES: usize = 64;

/// Calls `emit(start, end, lowercased)` for every token of `text`, whole
/// identifiers first, then their parts. Offsets are byte offsets into `text`.
pub(crate) fn for_each_token(text: &str, mut emit: impl FnMut(usize, usize, String)) {
    let mut parts = Vec::new();
    for (start, end) in (WordIter { text, pos: 0 }) {
        let word = &text[start..end];
        split_parts(word, &mut parts);
        let whole_is_single_part = parts.len() == 1 && parts[0] == (0, word.len());
        if word.len() <= MAX_TOKEN_BYTES {
            emit(start, end, word.to_lowercase());
        }
        if !whole_is_single_part {
            for &(from, to) in &parts {
                if to - from <= MAX_TOKEN_BYTES {
                    emit(start + from, start + to, word[from..to].to_lowercase());
                }
            }
        }
    }
}

/// The distinct terms of a query, in first-seen order.
pub(crate) fn query_terms(text: &str) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    for_each_token(text, |_, _, term| {
        if !terms.contains(&term) {
            terms.push(term);
        }
    });
    terms
}

/// The words of a query as typed, each with the parts it is matched by: its identifier parts
/// (`zzqx42`: `zzqx`, `42`), or itself, lowercased, when it has none.
pub(crate) fn query_words(text: &str) -> Vec<(String, Vec<String>)> {
    let words = WordIter { text, pos: 0 }.map(|(start, end)| &text[start..end]);
    words
        .map(|word| {
            let whole = word.to_lowercase();
            let mut parts: Vec<String> = Vec::new();
            for_each_token(word, |_, _, token| {
                if !parts.contains(&token) {
                    parts.push(token);
                }
            });
            if parts.len() > 1 {
                parts.retain(|part| *part != whole);
            }
            (word.to_string(), parts)
        })
        .collect()
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Maximal runs of word characters; a `-` between two alphanumerics joins
/// (kebab-case), anything else separates.
struct WordIter<'a> {
    text: &'a str,
    pos: usize,
}

impl Iterator for WordIter<'_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        let rest = &self.text[self.pos..];
        let offset = rest.find(is_word_char)?;
        let start = self.pos + offset;
        let mut end = start;
        let mut chars = self.text[start..].chars().peekable();
        let mut prev_alnum = false;
        while let Some(c) = chars.next() {
            let joins = c == '-' && prev_alnum && chars.peek().is_some_and(|n| n.is_alphanumeric());
            if !(is_word_char(c) || joins) {
                break;
            }
            prev_alnum = c.is_alphanumeric();
            end += c.len_utf8();
        }
        self.pos = end;
        Some((start, end))
    }
}

#[derive(PartialEq, Clone, Copy)]
enum Class {
    Lower,
    Upper,
    Digit,
    Other,
}

fn class(c: char) -> Class {
    if c.is_lowercase() {
        Class::Lower
    } else if c.is_uppercase() {
        Class::Upper
    } else if c.is_numeric() {
        Class::Digit
    } else {
        Class::Other
    }
}

/// Byte ranges of the parts of one word: split at `_` and `-`, at a
/// lower→upper step (`parseHttp`), before the last capital of an acronym
/// (`HTTPServer` → `HTTP`, `Server`) and between letters and digits.
fn split_parts(word: &str, parts: &mut Vec<(usize, usize)>) {
    parts.clear();
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut start: Option<usize> = None;
    for (i, &(offset, c)) in chars.iter().enumerate() {
        if c == '_' || c == '-' {
            if let Some(s) = start.take() {
                parts.push((s, offset));
            }
            continue;
        }
        let Some(s) = start else {
            start = Some(offset);
            continue;
        };
        let prev = class(chars[i - 1].1);
        let here = class(c);
        let next = chars.get(i + 1).map(|&(_, n)| class(n));
        let boundary = match (prev, here) {
            (Class::Lower, Class::Upper) => true,
            (Class::Upper, Class::Upper) => next == Some(Class::Lower),
            (Class::Digit, Class::Lower | Class::Upper) | (Class::Lower | Class::Upper, Class::Digit) => true,
            _ => false,
        };
        if boundary {
            parts.push((s, offset));
            start = Some(offset);
        }
    }
    if let Some(s) = start {
        parts.push((s, word.len()));
    }
}

/// The tantivy face of [`for_each_token`].
#[derive(Clone, Default)]
pub(crate) struct CodeTokenizer {
    tokens: Vec<Token>,
}

pub(crate) struct CodeTokenStream<'a> {
    tokens: &'a mut [Token],
    next: usize,
}

impl Tokenizer for CodeTokenizer {
    type TokenStream<'a> = CodeTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> CodeTokenStream<'a> {
        self.tokens.clear();
        for_each_token(text, |offset_from, offset_to, term| {
            let position = self.tokens.len();
            self.tokens.push(Token { offset_from, offset_to, position, text: term, position_length: 1 });
        });
        CodeTokenStream { tokens: &mut self.tokens, next: 0 }
    }
}

impl TokenStream for CodeTokenStream<'_> {
    fn advance(&mut self) -> bool {
        self.next += 1;
        self.next <= self.tokens.len()
    }

    fn token(&self) -> &Token {
        &self.tokens[self.next - 1]
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.tokens[self.next - 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for_each_token(text, |_, _, t| out.push(t));
        out
    }

    #[test]
    fn camel_and_pascal_case_split_and_keep_whole() {
        assert_eq!(tokens("parseHTTPRequest"), ["parsehttprequest", "parse", "http", "request"]);
        assert_eq!(tokens("XMLHttpRequest"), ["xmlhttprequest", "xml", "http", "request"]);
        assert_eq!(tokens("SearchEngine"), ["searchengine", "search", "engine"]);
    }

    #[test]
    fn snake_and_kebab_case_split() {
        assert_eq!(tokens("snake_case_name"), ["snake_case_name", "snake", "case", "name"]);
        assert_eq!(tokens("__init__"), ["__init__", "init"]);
        assert_eq!(tokens("max-width: 10px"), ["max-width", "max", "width", "10px", "10", "px"]);
        // A minus between spaces is an operator, not kebab-case.
        assert_eq!(tokens("a - b"), ["a", "b"]);
    }

    #[test]
    fn digits_split_from_letters() {
        assert_eq!(tokens("utf8Decoder"), ["utf8decoder", "utf", "8", "decoder"]);
        assert_eq!(tokens("v2"), ["v2", "v", "2"]);
        assert_eq!(tokens("42"), ["42"]);
    }

    #[test]
    fn single_words_are_emitted_once_lowercased() {
        assert_eq!(tokens("fn Main() { return; }"), ["fn", "main", "return"]);
        assert_eq!(tokens("Größe_über"), ["größe_über", "größe", "über"]);
    }

    #[test]
    fn offsets_point_at_the_source_text() {
        let text = "let fooBar = 1;";
        let mut spans = Vec::new();
        for_each_token(text, |s, e, t| spans.push((text[s..e].to_string(), t)));
        assert_eq!(spans[1], ("fooBar".to_string(), "foobar".to_string()));
        assert_eq!(spans[3], ("Bar".to_string(), "bar".to_string()));
    }

    #[test]
    fn overlong_tokens_are_dropped() {
        let blob = "a".repeat(MAX_TOKEN_BYTES + 1);
        assert!(tokens(&blob).is_empty());
    }

    #[test]
    fn query_terms_are_distinct() {
        assert_eq!(query_terms("parse parseConfig"), ["parse", "parseconfig", "config"]);
    }

    #[test]
    fn query_words_keep_what_was_typed_with_its_parts() {
        let words = query_words("zzqx42 parseConfig, yaml");
        let parts = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            words,
            [
                ("zzqx42".to_string(), parts(&["zzqx", "42"])),
                ("parseConfig".to_string(), parts(&["parse", "config"])),
                ("yaml".to_string(), parts(&["yaml"])),
            ]
        );
    }

    #[test]
    fn tantivy_stream_yields_every_token() {
        let mut tokenizer = CodeTokenizer::default();
        let mut stream = tokenizer.token_stream("getUser id");
        let mut seen = Vec::new();
        while stream.advance() {
            seen.push(stream.token().text.clone());
        }
        assert_eq!(seen, ["getuser", "get", "user", "id"]);
    }
}
