//! A shell command line cut into the simple commands it would run, for
//! every reader of command lines: the guard matches each command against
//! Bash permission rules (a rule covering `git push` must not be dodged by
//! `make && git push` or `echo $(git push)`), shell compression finds the
//! program whose output the line prints, and `lctx init` finds the
//! lctx-shell a Claude Code hook command runs (expanding `~` and `$HOME`
//! where a word has them bare, which is what [`Word::quoted`] tells).
//!
//! Splits on `&&`, `||`, `;`, `|`, `|&`, `&`, newlines and subshell
//! parentheses, outside quotes; the contents of `$(…)`, backticks and
//! `<(…)` / `>(…)` are split as commands of their own (inside double quotes
//! too, where the shell still runs them). Heredoc bodies, `#` comments and
//! `case` patterns are skipped: they are data, not commands. A conditional
//! expression, `[[` to its `]]`, is one command: its `&&`, `||`,
//! parentheses, `<`, `>` and newlines are the test's. Redirection targets are kept
//! apart from the words. Unbalanced quotes or parentheses run to the end of
//! the line, as an unfinished shell line would; nothing here panics.

mod ansi_c;
mod levels;
mod splitter;
#[cfg(test)]
mod tests;

use std::ops::Range;

use splitter::Splitter;

/// One simple command of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The command as written, from its first word to its end.
    pub raw: String,
    /// Its words, quotes and escapes removed.
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
    /// It reads the output of the command before it through `|` or `|&`
    /// (`head` in `grep -rn x src | head`; in `ls | (sort; echo)`, `sort`).
    pub reads_pipe: bool,
    /// What it prints goes into a pipe (`grep` in `grep -rn x src | head`;
    /// in `(a; b) | c`, both `a` and `b`).
    pub writes_pipe: bool,
    /// It runs inside `$(…)`, backticks or `<(…)` / `>(…)`: what it prints
    /// becomes part of another command's words or a file it reads, not the
    /// line's output.
    pub in_substitution: bool,
    /// The shell environments it runs in, outermost first; empty: the
    /// line's own shell. A subshell `( … )`, a substitution, each stage of
    /// a pipeline and a list run in the background (`&`) are environments
    /// of their own: what a command sets (a variable, the directory) is
    /// seen by the later commands whose `env` starts with its own, by no
    /// other. Past 32 levels no more are added, and the commands deeper are
    /// [`Command::conditional`].
    pub env: Vec<u32>,
    /// It may be skipped though the commands before it in its environment
    /// ran: it follows `&&` or `||` in its list, or is part of a compound
    /// command (`if`, `while`, `until`, `for`, `select`, `case`, `{ … }`, a
    /// function's body). What it sets may or may not be set after it.
    pub conditional: bool,
    /// The arithmetic it evaluates as written, each without its
    /// parentheses: an arithmetic command's `((…))` (`for ((…))` too) and
    /// each `$((…))` in its words and in a heredoc's body (not one inside
    /// another, whose text is part of that one's). Bash evaluates a
    /// variable's value there as arithmetic again, and a subscript in that
    /// value runs what its `$(…)` holds, so readers of the line need these
    /// texts.
    pub arithmetic: Vec<String>,
    /// The expansions of its heredocs' bodies that evaluate a subscript, an
    /// offset, an indirection or a transformation (`${a[x]}`, `$[x]`),
    /// each whole as written: kept apart from [`Command::arithmetic`], whose
    /// expressions may be written the same (`((${x}))`).
    pub body_expansions: Vec<String>,
}

/// A word of a [`Command`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// Where the word is in [`Command::raw`], as written (quotes and escapes included).
    pub span: Range<usize>,
    /// The word with quotes and escapes removed; `$…` and backticks stay as written.
    pub text: String,
    /// The parts of `text` that were written quoted or escaped, in order (an
    /// empty `''` too, as an empty range); the rest of it was written bare.
    /// Only a word with quotes or escapes allocates this.
    pub quoted: Vec<Quoted>,
}

impl Word {
    /// The quoted part holding the byte of `text` at `at`, `None` when it was written bare.
    pub fn quoted_at(&self, at: usize) -> Option<&Quoted> {
        self.quoted.iter().find(|part| part.range.contains(&at))
    }

    /// Whether the shell leaves the word as its text says: no `$` or
    /// backtick outside single quotes and escapes, so no variable,
    /// substitution or arithmetic decides what it becomes.
    pub fn is_literal(&self) -> bool {
        !(0..self.text.len()).any(|at| self.expands_at(at))
    }

    /// Whether the byte of `text` at `at` starts an expansion: a `$` or
    /// backtick outside single quotes and escapes.
    pub fn expands_at(&self, at: usize) -> bool {
        matches!(self.text.as_bytes().get(at), Some(b'$' | b'`'))
            && !matches!(self.quoted_at(at), Some(Quoted { quote: Quote::Literal, .. }))
    }

    /// The word as a glob pattern (`*`, `?`, `[…]` and `{a,b}` special,
    /// `\` escaping) when the shell would expand it as one: it is literal
    /// and has a glob character written bare. The characters that were
    /// quoted are escaped, so `'*'.txt` stays a literal star.
    pub fn glob(&self) -> Option<String> {
        const SPECIAL: &[u8] = b"*?[]{},\\";
        let bare_glob =
            self.text.bytes().enumerate().any(|(at, b)| b"*?[{".contains(&b) && self.quoted_at(at).is_none());
        if !bare_glob || !self.is_literal() {
            return None;
        }
        let mut pattern = String::with_capacity(self.text.len() + 4);
        for (at, c) in self.text.char_indices() {
            if c.is_ascii() && SPECIAL.contains(&(c as u8)) && (c == '\\' || self.quoted_at(at).is_some()) {
                pattern.push('\\');
            }
            pattern.push(c);
        }
        Some(pattern)
    }
}

/// A part of a [`Word`]'s text written inside quotes or escaped: what the
/// shell would still expand in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quoted {
    /// Its bytes in [`Word::text`].
    pub range: Range<usize>,
    pub quote: Quote,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quote {
    /// `'…'`, `$'…'` or a backslash escape: nothing in it expands.
    Literal,
    /// `"…"`: `$` and backticks still expand; `~` and globs do not.
    Double,
}

/// A file a redirection reads (`<`) or writes (`>`, `>>`, `&>`, `<>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    pub write: bool,
    /// The file's word, which the shell expands as it would an argument.
    pub target: Word,
}

/// `text` as one sh word: single-quoted, a `'` in it written `'\''`, so a path with spaces or
/// quotes pasted into a shell stays one argument.
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The simple commands in `line`, those inside substitutions before the
/// command holding them.
pub fn split(line: &str) -> Vec<Command> {
    let mut out = Vec::new();
    Splitter::new(line, 0, Vec::new(), 0, 0).run(&mut out);
    out
}

/// The commands the shell runs expanding `text` as it expands a heredoc's
/// body, or bash the name of the file `BASH_ENV` gives it (as in double
/// quotes: a `\` keeps the next byte, quotes are plain characters): those
/// of its `$(…)` and backticks, then one with no words and `text` as its
/// [`Command::raw`] holding the text's own arithmetic and expansions
/// ([`Command::arithmetic`], [`Command::body_expansions`]), as the command
/// opening a heredoc holds its body's.
pub fn split_expanded(text: &str) -> Vec<Command> {
    let mut out = Vec::new();
    Splitter::new(text, 0, Vec::new(), 0, 0).expand(&mut out);
    out
}
