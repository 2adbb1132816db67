//! The words `env -S STRING` splits its string into, as GNU env does:
//! whitespace separates them, and so does `\_` outside quotes; `'…'` keeps
//! all but `\\` and `\'`; `"…"` and bare text decode `\t`, `\n`, `\"`,
//! `\$`, `\#`…; `\c` ends the string; `#` starting a word starts a
//! comment; `${NAME}` is the environment's NAME (known only when it runs).
//! Each word comes back written for a shell, so that the command env makes
//! of them is split and checked as a script: `cat\_.env` is `'cat' '.env'`.

/// The words of `string`, each written for a shell (a `${NAME}` in it
/// double-quoted, env not splitting its value); `None` for a string env
/// refuses (an unknown escape, `$` without braces, an open quote).
pub(crate) fn split(string: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut text = String::new();
    let mut quote = None;
    let mut chars = string.chars().peekable();
    // Ends the word being read, its text since the last `${NAME}` quoted.
    let end = |word: &mut Option<String>, text: &mut String, words: &mut Vec<String>| {
        if let Some(mut done) = word.take() {
            done.push_str(&quoted(&std::mem::take(text)));
            words.push(done);
        }
    };
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c') => end(&mut word, &mut text, &mut words),
            (None, '#') if word.is_none() => break,
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_default();
            }
            (Some(open), _) if c == open => quote = None,
            (Some('\''), '\\') if matches!(chars.peek(), Some('\\' | '\'')) => {
                word.get_or_insert_default();
                text.push(chars.next()?);
            }
            (Some('\''), _) => {
                word.get_or_insert_default();
                text.push(c);
            }
            (_, '\\') => match chars.next()? {
                'c' if quote.is_none() => break,
                '_' if quote.is_none() => end(&mut word, &mut text, &mut words),
                escaped => {
                    word.get_or_insert_default();
                    text.push(escape(escaped)?);
                }
            },
            (_, '$') => {
                let name: String =
                    (chars.next()? == '{').then(|| chars.by_ref().take_while(|&c| c != '}').collect())?;
                let done = word.get_or_insert_default();
                if !text.is_empty() {
                    done.push_str(&quoted(&std::mem::take(&mut text)));
                }
                done.push_str(&format!("\"${{{name}}}\""));
            }
            _ => {
                word.get_or_insert_default();
                text.push(c);
            }
        }
    }
    if quote.is_some() {
        return None;
    }
    end(&mut word, &mut text, &mut words);
    Some(words)
}

/// The character an escape `\c` stands for (`_` a space, within quotes).
fn escape(c: char) -> Option<char> {
    Some(match c {
        't' => '\t',
        'n' => '\n',
        'r' => '\r',
        'v' => '\x0b',
        'f' => '\x0c',
        '_' => ' ',
        '\\' | '"' | '\'' | '$' | '#' => c,
        _ => return None,
    })
}

/// `text` as a shell reads it back: bare when nothing in it is special,
/// else single-quoted.
fn quoted(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%^".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        return text.to_string();
    }
    format!("'{}'", text.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(string: &str) -> Vec<String> {
        split(string).unwrap()
    }

    #[test]
    fn splits_as_gnu_env_does() {
        assert_eq!(words("cat\\_.env"), ["cat", ".env"]);
        assert_eq!(words("a\\tb \"c\\_d\" 'e\\_f' x\\cy z"), ["'a\tb'", "'c d'", "'e\\_f'", "x"]);
        assert_eq!(words("a#b #c d"), ["'a#b'"]);
        assert_eq!(words("'a\\'b' ${F}x \"\""), ["'a'\\''b'", "\"${F}\"x", "''"]);
        assert_eq!(split("\\q"), None);
        assert_eq!(split("$F"), None);
        assert_eq!(split("'open"), None);
    }
}
