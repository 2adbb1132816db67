//! The words of a user's free-text query (knowledge recall, archive search) as FTS5 terms.
//!
//! A query is plain words, never FTS syntax, so quotes, parentheses or `OR` typed by a user cannot
//! break it. Words that say nothing about what is looked for do not count: English function words
//! ("how do I run the tests" looks for `run` and `tests`) and one-letter words. Each of them
//! matches nearly every fact, and bm25 ranks by every matching term, so a fact with "the" in it
//! outranked the one about tests. They count only when the query has no other word. A word of
//! [`MIN_PREFIX_CHARS`] or more also finds the longer words it starts (`token` finds `tokenizer`);
//! a shorter one only itself, since `io*` matches far more than `io`. An English word's plural or
//! inflected ending is cut first ([`stem`]), so `tests` and `testing` look for `test…`, as they
//! find `test_cmd` (the index splits that into `test` and `cmd`). Words of scripts written
//! without spaces (Chinese, Japanese) or with particles attached (Korean) are kept whatever their
//! length and always match as prefixes: the index holds `数据库使用` as one word, which `数据`
//! finds only as a prefix, and one character (`锁`) is a word there.

/// Most terms a query uses; the rest are ignored to keep the query cheap.
const MAX_TERMS: usize = 32;

/// The shortest term that also matches the words it starts.
const MIN_PREFIX_CHARS: usize = 3;

/// English function words: articles, pronouns, auxiliaries, prepositions, conjunctions and
/// question words. Sorted, for the binary search.
const STOPWORDS: &[&str] = &[
    "a", "about", "am", "an", "and", "are", "as", "at", "be", "been", "being", "but", "by", "can", "could", "did",
    "do", "does", "doing", "for", "from", "had", "has", "have", "he", "her", "his", "how", "i", "if", "in", "into",
    "is", "it", "its", "me", "my", "of", "on", "or", "our", "she", "should", "so", "than", "that", "the", "their",
    "them", "then", "there", "these", "they", "this", "those", "to", "was", "we", "were", "what", "when", "where",
    "which", "who", "whom", "whose", "why", "will", "with", "would", "you", "your",
];

/// The search terms of a user's query: each run of letters and digits (what the unicode61
/// tokenizer indexes), lowercased, duplicates dropped, stopwords and one-letter words left out
/// unless nothing else is left, at most [`MAX_TERMS`].
pub(crate) fn search_terms(query: &str) -> Vec<String> {
    let (mut telling, mut others) = (Vec::new(), Vec::new());
    for word in query.split(|c: char| !c.is_alphanumeric()).filter(|word| !word.is_empty()) {
        let word = word.to_lowercase();
        // Function words are known, and kept, by their whole form (`does` is not `doe…`).
        let (list, word): (&mut Vec<String>, String) =
            if tells(&word) { (&mut telling, stem(&word)) } else { (&mut others, word) };
        if list.len() < MAX_TERMS && !list.contains(&word) {
            list.push(word);
        }
        if telling.len() == MAX_TERMS {
            break;
        }
    }
    if telling.is_empty() { others } else { telling }
}

/// `word` without an English plural or inflected ending, when at least four letters are left to
/// look for by their start (fewer would find unrelated words: `uses` → `use…` finds `user`):
/// `tests` → `test`, `files` → `file`, `classes` → `class`, `libraries` → `librar`, `failed` →
/// `fail`, `testing` → `test`. An `s` after `s`, `u` or `i` (`class`, `status`, `redis`) and an `ed`
/// after `e` (`proceed`) are no endings; words that are not plain ASCII letters stay as they are.
/// A stem only widens what a word finds: `test…` finds every word `tests…` does.
fn stem(word: &str) -> String {
    const SHORTEST: usize = 4;
    if !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return word.to_string();
    }
    let cut = |ending: &str| word.strip_suffix(ending).filter(|rest| rest.len() >= SHORTEST);
    let sibilant_es = ["sses", "shes", "ches", "xes", "zes"].iter().any(|ending| word.ends_with(ending));
    let stemmed = cut("ies")
        .or_else(|| cut("es").filter(|_| sibilant_es))
        .or_else(|| cut("ing"))
        .or_else(|| cut("ed").filter(|rest| !rest.ends_with('e')))
        .or_else(|| cut("s").filter(|rest| !rest.ends_with(['s', 'u', 'i'])));
    stemmed.unwrap_or(word).to_string()
}

/// Whether `word` says something about what is looked for.
fn tells(word: &str) -> bool {
    unspaced(word) || (word.chars().nth(1).is_some() && STOPWORDS.binary_search(&word).is_err())
}

/// Whether `word` holds Han, kana or Hangul: a script whose runs of characters the index keeps
/// as one word, however many words they are.
fn unspaced(word: &str) -> bool {
    word.chars().any(|c| {
        matches!(u32::from(c),
            0x1100..=0x11FF | 0x3040..=0x30FF | 0x3130..=0x318F | 0x31F0..=0x31FF | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFF66..=0xFF9F | 0x20000..=0x2FA1F)
    })
}

/// Turns search terms into an FTS5 expression that cannot be a syntax error: each term quoted,
/// a prefix term (`"word"*`) when long enough, OR-ed together. `None` when there is no term.
pub(crate) fn terms_expression(terms: &[String]) -> Option<String> {
    if terms.is_empty() {
        return None;
    }
    let term = |term: &String| match is_prefix(term) {
        true => format!("\"{term}\"*"),
        false => format!("\"{term}\""),
    };
    Some(terms.iter().map(term).collect::<Vec<_>>().join(" OR "))
}

/// Whether the (lowercase) word `word` is one `term` matches, as [`terms_expression`] has FTS5
/// match it.
pub(crate) fn matches(word: &str, term: &str) -> bool {
    if is_prefix(term) { word.starts_with(term) } else { word == term }
}

/// The terms FTS5 cannot find inside a word (those of scripts whose runs the index keeps whole),
/// as a JSON array for `json_each`, or `None` when there are none. A term is letters and digits
/// only, so it needs no escaping.
pub(crate) fn infix_terms(terms: &[String]) -> Option<String> {
    let quoted: Vec<String> = terms.iter().filter(|term| unspaced(term)).map(|term| format!("\"{term}\"")).collect();
    (!quoted.is_empty()).then(|| format!("[{}]", quoted.join(",")))
}

fn is_prefix(term: &str) -> bool {
    unspaced(term) || term.chars().count() >= MIN_PREFIX_CHARS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expression(query: &str) -> Option<String> {
        terms_expression(&search_terms(query))
    }

    #[test]
    fn stopwords_are_sorted_lowercase_and_unique() {
        assert!(STOPWORDS.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(STOPWORDS.iter().all(|word| word.chars().all(|c| c.is_ascii_lowercase())));
    }

    #[test]
    fn function_words_and_single_letters_do_not_count_unless_alone() {
        assert_eq!(search_terms("How do I run the tests?"), ["run", "test"]);
        assert_eq!(expression("how do I run the tests"), Some("\"run\"* OR \"test\"*".into()));
        assert_eq!(search_terms("x y z"), ["x", "y", "z"], "nothing else: they count");
        assert_eq!(search_terms("the"), ["the"]);
        assert_eq!(search_terms("what is it"), ["what", "is", "it"]);
        assert_eq!(search_terms("a b cache"), ["cache"]);
        assert_eq!(search_terms("Tokenizer tokenizer TOKENIZER"), ["tokenizer"]);
    }

    #[test]
    fn english_endings_are_cut_where_a_word_is_left() {
        assert_eq!(search_terms("tests testing tested test"), ["test"]);
        assert_eq!(
            search_terms("libraries files classes matches caches failed"),
            ["librar", "file", "class", "match", "cach", "fail"]
        );
        // Fewer than four letters left, or not an ending: kept (`uses` is no `use…`, which finds `user`).
        assert_eq!(
            search_terms("uses cors lens news string thing"),
            ["uses", "cors", "lens", "news", "string", "thing"]
        );
        assert_eq!(
            search_terms("class status redis proceed exceed"),
            ["class", "status", "redis", "proceed", "exceed"]
        );
        assert_eq!(search_terms("Größes tésts"), ["größes", "tésts"], "only plain ASCII words are cut");
        assert_eq!(search_terms("does the cache"), ["cache"], "a function word is known before its ending is cut");
        assert_eq!(search_terms("this does"), ["this", "does"], "and keeps its ending when it counts");
    }

    #[test]
    fn only_words_of_three_or_more_characters_are_prefixes() {
        assert_eq!(expression("io uring"), Some("\"io\" OR \"uring\"*".into()));
        assert_eq!(expression("i"), Some("\"i\"".into()));
        assert!(matches("tokenizer", "tok") && !matches("iobuf", "io") && matches("io", "io"));
        assert_eq!(expression("(( ))"), None);
    }

    #[test]
    fn words_of_unspaced_scripts_count_at_any_length_and_are_prefixes() {
        assert_eq!(expression("测试"), Some("\"测试\"*".into()));
        assert_eq!(expression("锁 timeout"), Some("\"锁\"* OR \"timeout\"*".into()));
        assert_eq!(expression("설정"), Some("\"설정\"*".into()));
        assert!(matches("数据库使用", "数据") && matches("설정은", "설정"));
    }

    #[test]
    fn fts_syntax_is_only_words() {
        assert_eq!(expression("foo\"bar OR ("), Some("\"foo\"* OR \"bar\"*".into()), "`or` is a function word");
        assert_eq!(expression("NEAR(foo bar)"), Some("\"near\"* OR \"foo\"* OR \"bar\"*".into()));
    }

    #[test]
    fn at_most_max_terms_are_used() {
        let query: String = (0..40).map(|i| format!("word{i} the ")).collect();
        let terms = search_terms(&query);
        assert_eq!(terms.len(), MAX_TERMS);
        assert_eq!(terms[0], "word0");
    }
}
