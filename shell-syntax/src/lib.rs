//! A shell command line cut into the simple commands it would run, for
//! the two crates that read command lines: the guard matches each command
//! against Bash permission rules (a rule covering `git push` must not be
//! dodged by `make && git push` or `echo $(git push)`), and shell
//! compression finds the program whose output the line prints.
//!
//! Splits on `&&`, `||`, `;`, `|`, `|&`, `&`, newlines and subshell
//! parentheses, outside quotes; the contents of `$(…)`, backticks and
//! `<(…)` / `>(…)` are split as commands of their own (inside double quotes
//! too, where the shell still runs them). Heredoc bodies and `#` comments
//! are skipped: they are data, not commands. Redirection targets are kept
//! apart from the words. Unbalanced quotes or parentheses run to the end of
//! the line, as an unfinished shell line would; nothing here panics.

mod splitter;
#[cfg(test)]
mod tests;

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
}

/// A word of a [`Command`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// Where the word starts in [`Command::raw`].
    pub offset: usize,
    pub text: String,
}

/// A file a redirection reads (`<`) or writes (`>`, `>>`, `&>`, `<>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    pub write: bool,
    pub target: String,
}

/// The simple commands in `line`, those inside substitutions before the
/// command holding them.
pub fn split(line: &str) -> Vec<Command> {
    let mut out = Vec::new();
    Splitter::new(line, 0).run(&mut out);
    out
}
