//! Brace expansion, which the shell does before globbing and whether or
//! not files exist: `cat {.env,README}` reads `.env`, `.e{n..n}v` is
//! `.env`, and `{qa/secret/plan.txt,x}` crosses `/`.
//!
//! Works on a word's glob pattern ([`lean_ctx_shell_syntax::Word::glob`]:
//! `\` escapes what was quoted). `{a,b}` with a comma at its own level
//! becomes each alternative (nested ones too), `{x..y}` and `{x..y..step}`
//! the integers or single letters from x to y, zero-padded as bash does; a
//! brace forming neither stays, escaped, so the glob that follows takes it
//! literally.

use super::expand::unescape;

/// Words one shell word may become before it is judged as naming anything
/// under its literal leading directory instead.
pub(crate) const MAX_WORDS: usize = 1024;

/// The words `pattern` becomes, each a glob pattern without braces; `None`
/// when more than `max`, found without making more than `max` of them.
pub(crate) fn expand(pattern: &str, max: usize) -> Option<Vec<String>> {
    expand_chars(&pattern.chars().collect::<Vec<_>>(), max)
}

/// The directory written before the first character that expands (`qa/`
/// in `qa/{1..99999}`), escapes removed; empty when there is none.
pub(crate) fn literal_dir(pattern: &str) -> String {
    let mut escaped = false;
    let end = pattern
        .char_indices()
        .find(|&(_, c)| {
            let special = !escaped && matches!(c, '*' | '?' | '[' | '{');
            escaped = !escaped && c == '\\';
            special
        })
        .map_or(pattern.len(), |(at, _)| at);
    unescape(pattern[..end].rfind('/').map_or("", |slash| &pattern[..=slash]))
}

fn expand_chars(chars: &[char], max: usize) -> Option<Vec<String>> {
    let mut prefix = String::new();
    let mut at = 0;
    while at < chars.len() {
        match chars[at] {
            '\\' => {
                prefix.extend(&chars[at..(at + 2).min(chars.len())]);
                at += 2;
            }
            '{' => {
                if let Some((close, alternatives)) = brace(chars, at, max) {
                    let suffixes = expand_chars(&chars[close + 1..], max)?;
                    let mut words = Vec::new();
                    for alternative in alternatives {
                        for middle in alternative? {
                            for suffix in &suffixes {
                                words.push(format!("{prefix}{middle}{suffix}"));
                                if words.len() > max {
                                    return None;
                                }
                            }
                        }
                    }
                    return Some(words);
                }
                prefix.push_str("\\{");
                at += 1;
            }
            c @ ('}' | ',') => {
                prefix.push('\\');
                prefix.push(c);
                at += 1;
            }
            c => {
                prefix.push(c);
                at += 1;
            }
        }
    }
    Some(vec![prefix])
}

/// The expansion opening at `open`: where it closes and the words of each
/// alternative (`None` for one too large); `None` when the brace is literal.
type Alternatives = Vec<Option<Vec<String>>>;

fn brace(chars: &[char], open: usize, max: usize) -> Option<(usize, Alternatives)> {
    let mut depth = 0;
    let mut commas = Vec::new();
    let mut at = open + 1;
    let close = loop {
        match chars.get(at)? {
            '\\' => at += 1,
            '{' => depth += 1,
            '}' if depth == 0 => break at,
            '}' => depth -= 1,
            ',' if depth == 0 => commas.push(at),
            _ => {}
        }
        at += 1;
    };
    if commas.is_empty() {
        let inner: String = chars[open + 1..close].iter().collect();
        return Some((close, vec![sequence(&inner, max)?]));
    }
    let bounds = std::iter::once(open).chain(commas).chain(std::iter::once(close)).collect::<Vec<_>>();
    let alternatives = bounds.windows(2).map(|pair| expand_chars(&chars[pair[0] + 1..pair[1]], max)).collect();
    Some((close, alternatives))
}

/// `x..y` or `x..y..step` of integers or single letters; `None` when the
/// text is neither (the brace is literal), `Some(None)` when it is longer than `max`.
fn sequence(inner: &str, max: usize) -> Option<Option<Vec<String>>> {
    let parts: Vec<&str> = inner.split("..").collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let step = match parts.get(2) {
        Some(step) => step.parse::<i64>().ok()?.unsigned_abs().max(1),
        None => 1,
    };
    let (from, to) = (parts[0], parts[1]);
    let (start, end, letters) = match (from.parse::<i64>(), to.parse::<i64>()) {
        (Ok(start), Ok(end)) => (start, end, false),
        _ => {
            let letter = |text: &str| match text.as_bytes() {
                [c] if c.is_ascii_alphabetic() => Some(i64::from(*c)),
                _ => None,
            };
            (letter(from)?, letter(to)?, true)
        }
    };
    if start.abs_diff(end) / step >= max as u64 {
        return Some(None);
    }
    let padded = |text: &str| text.trim_start_matches('-').len() > 1 && text.trim_start_matches('-').starts_with('0');
    let width = if !letters && (padded(from) || padded(to)) { from.len().max(to.len()) } else { 0 };
    let count = start.abs_diff(end) / step + 1;
    let words = (0..count)
        .map(|i| {
            // In i128: the step may be larger than any i64 (`{-9..9..-9223372036854775808}`).
            let offset = i128::from(i) * i128::from(step);
            let value = (i128::from(start) + if start <= end { offset } else { -offset }) as i64;
            if letters {
                escape(char::from(value as u8))
            } else if value < 0 {
                format!("-{:0>width$}", value.unsigned_abs(), width = width.saturating_sub(1))
            } else {
                format!("{value:0>width$}")
            }
        })
        .collect();
    Some(Some(words))
}

/// A character the sequence made, escaped when a glob would read it.
fn escape(c: char) -> String {
    if "*?[]{},\\".contains(c) { format!("\\{c}") } else { c.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(pattern: &str) -> Vec<String> {
        expand(pattern, MAX_WORDS).unwrap()
    }

    #[test]
    fn expands_as_bash_does() {
        assert_eq!(words("{.env,README}"), [".env", "README"]);
        assert_eq!(words("{.,}env"), [".env", "env"]);
        assert_eq!(words(".e{n..n}v"), [".env"]);
        assert_eq!(words("qa/{secret/plan.txt,notes.md}"), ["qa/secret/plan.txt", "qa/notes.md"]);
        assert_eq!(words("{a,b}{1..3..2}"), ["a1", "a3", "b1", "b3"]);
        assert_eq!(words("x{a,b{c,d}}"), ["xa", "xbc", "xbd"]);
        assert_eq!(words("{3..1}"), ["3", "2", "1"]);
        assert_eq!(words("{08..10}"), ["08", "09", "10"]);
        assert_eq!(words("{-1..1}"), ["-1", "0", "1"]);
        assert_eq!(words("{-9223372036854775808..-9223372036854775807}").len(), 2);
        assert_eq!(words("{-9223372036854775808..9223372036854775807..-9223372036854775808}").len(), 2);
        assert_eq!(words("{Y..a}"), ["Y", "Z", "\\[", "\\\\", "\\]", "^", "_", "`", "a"]);
        // Braces forming no expansion, or escaped, stay literal; globs stay.
        assert_eq!(words("{a}{b,c}*"), ["\\{a\\}b*", "\\{a\\}c*"]);
        assert_eq!(words("\\{a,b\\}"), ["\\{a\\,b\\}"]);
        assert_eq!(words("{a,b"), ["\\{a\\,b"]);
        assert_eq!(words("{1..x}"), ["\\{1..x\\}"]);
    }

    #[test]
    fn too_many_words_is_none_and_names_the_literal_directory() {
        assert_eq!(expand("qa/{1..100000}", MAX_WORDS), None);
        assert_eq!(expand("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", MAX_WORDS), None);
        assert_eq!(expand("{1..1024}", MAX_WORDS).map(|words| words.len()), Some(1024));
        assert_eq!(expand("{a,b}{1..3}", 5), None);
        assert_eq!(expand("{a,b}{1..3}", 6).map(|words| words.len()), Some(6));
        assert_eq!(literal_dir("qa/sub/x{1..9}/y"), "qa/sub/");
        assert_eq!(literal_dir("\\{a/{b,c}"), "{a/");
        assert_eq!(literal_dir("{a,b}/c"), "");
    }
}
