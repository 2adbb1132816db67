//! Which lctx-shell a Claude Code hook command runs. Claude Code runs a
//! command hook through the shell, so a user's command may start lctx-shell
//! through a wrapper (`nice -n 5 /opt/lctx-shell hook claude-code`,
//! `env X=1 lctx-shell hook claude-code`) or name it from the home directory
//! (`~/bin/lctx-shell`, `$HOME/bin/lctx-shell`). The program is the word
//! before the closing `hook claude-code`, read as the shell reads a word:
//! quotes removed, `~` and `$HOME` expanded.

use std::ops::Range;
use std::path::{Path, PathBuf};

/// The word that runs lctx-shell in a hook command.
#[derive(Debug, PartialEq, Eq)]
pub struct ProgramWord {
    /// Where the word is in the command.
    pub span: Range<usize>,
    /// The program it names; `None` when the shell would expand something
    /// else in it (another variable, a command substitution), which only
    /// running it would tell.
    pub program: Option<PathBuf>,
}

/// The program word of `command`, `None` when the command does not end in
/// `PROGRAM hook claude-code` (or its quotes do not close).
pub fn program_word(command: &str, home: &Path) -> Option<ProgramWord> {
    let words = words(command, home)?;
    let [.., program, hook, event] = words.as_slice() else { return None };
    if hook.value.as_deref() != Some("hook") || event.value.as_deref() != Some("claude-code") {
        return None;
    }
    Some(ProgramWord { span: program.span.clone(), program: program.value.as_ref().map(PathBuf::from) })
}

struct Word {
    span: Range<usize>,
    /// The word after quote removal and expansion; `None`: an expansion lctx does not make.
    value: Option<String>,
}

/// `command` split into words as the shell splits them. `None`: a quote that does not close.
fn words(command: &str, home: &Path) -> Option<Vec<Word>> {
    let home = home.to_string_lossy();
    let mut words = Vec::new();
    let mut chars = command.char_indices().peekable();
    while let Some(&(start, _)) = chars.peek() {
        if chars.next_if(|(_, c)| c.is_ascii_whitespace()).is_some() {
            continue;
        }
        let mut value = Some(String::new());
        let push = |value: &mut Option<String>, s: &str| {
            if let Some(v) = value {
                v.push_str(s);
            }
        };
        let mut at_start = true;
        while let Some(&(at, c)) = chars.peek() {
            if c.is_ascii_whitespace() {
                break;
            }
            chars.next();
            match c {
                '\'' => {
                    let (close, quoted) = until(command, at + 1, |ch| ch == '\'')?;
                    push(&mut value, quoted);
                    skip_to(&mut chars, close);
                }
                '"' => {
                    let mut inner = String::new();
                    let mut closed = false;
                    while let Some((_, ch)) = chars.next() {
                        match ch {
                            '"' => {
                                closed = true;
                                break;
                            }
                            '\\' if chars.peek().is_some_and(|&(_, n)| "$`\"\\".contains(n)) => {
                                inner.push(chars.next().expect("peeked").1);
                            }
                            '$' => expand(command, &mut chars, &home, &mut inner, &mut value),
                            '`' => value = None,
                            _ => inner.push(ch),
                        }
                    }
                    if !closed {
                        return None;
                    }
                    push(&mut value, &inner);
                }
                '\\' => {
                    if let Some((_, escaped)) = chars.next() {
                        push(&mut value, escaped.encode_utf8(&mut [0; 4]));
                    }
                }
                '~' if at_start && chars.peek().is_none_or(|&(_, n)| n == '/' || n.is_ascii_whitespace()) => {
                    push(&mut value, &home);
                }
                '$' => {
                    let mut expanded = String::new();
                    expand(command, &mut chars, &home, &mut expanded, &mut value);
                    push(&mut value, &expanded);
                }
                '`' => value = None,
                _ => push(&mut value, c.encode_utf8(&mut [0; 4])),
            }
            at_start = false;
        }
        let end = chars.peek().map_or(command.len(), |&(at, _)| at);
        words.push(Word { span: start..end, value });
    }
    Some(words)
}

type Chars<'c> = std::iter::Peekable<std::str::CharIndices<'c>>;

/// After a `$`: `HOME` or `{HOME}` becomes `home`; any other expansion leaves the word unknown.
fn expand(command: &str, chars: &mut Chars<'_>, home: &str, out: &mut String, value: &mut Option<String>) {
    let Some(&(at, _)) = chars.peek() else {
        out.push('$');
        return;
    };
    let rest = &command[at..];
    let name = ["{HOME}", "HOME"].into_iter().find(|name| {
        rest.starts_with(name)
            && (name.starts_with('{')
                || !rest[name.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
    });
    match name {
        Some(name) => {
            out.push_str(home);
            skip_to(chars, at + name.len() - 1);
        }
        None => {
            *value = None;
            // `$(…)` is one part of the word, spaces and all.
            if rest.starts_with('(') {
                let mut depth = 0usize;
                let close = rest.char_indices().find(|&(_, c)| {
                    depth = match c {
                        '(' => depth + 1,
                        ')' => depth - 1,
                        _ => depth,
                    };
                    depth == 0
                });
                skip_to(chars, close.map_or(command.len(), |(i, _)| at + i));
            }
        }
    }
}

/// The offset of the first character from `from` that `end` accepts, and the text before it.
fn until(command: &str, from: usize, end: impl Fn(char) -> bool) -> Option<(usize, &str)> {
    let close = from + command[from..].find(end)?;
    Some((close, &command[from..close]))
}

/// Consumes characters up to and including the one at byte `last`.
fn skip_to(chars: &mut Chars<'_>, last: usize) {
    while chars.next_if(|&(i, _)| i <= last).is_some() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(command: &str) -> Option<Option<PathBuf>> {
        program_word(command, Path::new("/home/u")).map(|w| w.program)
    }

    #[test]
    fn the_program_is_the_word_before_hook_claude_code_as_the_shell_reads_it() {
        let found = |command: &str, path: &str| assert_eq!(program(command), Some(Some(path.into())), "{command}");
        found("/opt/lctx-shell hook claude-code", "/opt/lctx-shell");
        found("nice -n 5 /opt/lctx-shell hook claude-code", "/opt/lctx-shell");
        found("env X=1 lctx-shell hook claude-code", "lctx-shell");
        found("~/bin/lctx-shell hook claude-code", "/home/u/bin/lctx-shell");
        found("$HOME/bin/lctx-shell  hook\tclaude-code", "/home/u/bin/lctx-shell");
        found("\"${HOME}/my bin/lctx-shell\" hook claude-code", "/home/u/my bin/lctx-shell");
        found("'/a b/it'\\''s/lctx-shell' hook claude-code", "/a b/it's/lctx-shell");
        found("/a\\ b/lctx-shell hook claude-code", "/a b/lctx-shell");
        // A quoted `~` or a `$HOMEDIR` is no home.
        found("'~/lctx-shell' hook claude-code", "~/lctx-shell");
        assert_eq!(program("$HOMEDIR/lctx-shell hook claude-code"), Some(None));
        assert_eq!(program("$(which lctx-shell) hook claude-code"), Some(None));
        assert_eq!(program("/x/lctx-shell hook other"), None);
        assert_eq!(program("'/x/lctx-shell hook claude-code"), None, "an open quote");
        assert_eq!(program("hook claude-code"), None);
    }

    #[test]
    fn the_span_covers_the_word_as_written() {
        let command = "nice -n 5 '/old dir/lctx-shell' hook claude-code";
        let word = program_word(command, Path::new("/h")).unwrap();
        assert_eq!(&command[word.span], "'/old dir/lctx-shell'");
        let command = "$(command -v lctx-shell) hook claude-code";
        assert_eq!(&command[program_word(command, Path::new("/h")).unwrap().span], "$(command -v lctx-shell)");
    }
}
