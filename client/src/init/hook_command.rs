//! Which lctx-shell a Claude Code hook command runs. Claude Code runs a
//! command hook through the shell, so a user's command may start lctx-shell
//! through a wrapper (`nice -n 5 /opt/lctx-shell hook claude-code`,
//! `env X=1 lctx-shell hook claude-code`) or name it from the home directory
//! (`~/bin/lctx-shell`, `$HOME/bin/lctx-shell`). The program is the word
//! before the closing `hook claude-code`, read as the shell reads a word:
//! quotes removed, `~` and `$HOME` expanded. A word that is one
//! `$(which NAME)` or `$(command -v NAME)` runs what PATH finds as NAME, as
//! NAME written bare would.

use std::ops::Range;
use std::path::{Path, PathBuf};

use lean_ctx_shell_syntax::{Quote, Quoted, Word};

/// The word that runs lctx-shell in a hook command.
#[derive(Debug, PartialEq, Eq)]
pub struct ProgramWord {
    /// Where the word is in the command.
    pub span: Range<usize>,
    /// The program it names (a bare name: the one PATH finds); `None` when
    /// the shell would expand something else in it (another variable, any
    /// other command substitution), which only running it would tell.
    pub program: Option<PathBuf>,
}

/// The program word of `command`, `None` when the command does not end in
/// `PROGRAM hook claude-code`.
pub fn program_word(command: &str, home: &Path) -> Option<ProgramWord> {
    let last = lean_ctx_shell_syntax::split(command).into_iter().rfind(|c| !c.in_substitution)?;
    // The hook's simple command is the last of the line and runs to its end:
    // its text is the line's tail, which places its words in the line.
    let start = command.trim_end().strip_suffix(last.raw.as_str())?.len();
    let [.., program, hook, event] = last.words.as_slice() else { return None };
    if hook.text != "hook" || event.text != "claude-code" {
        return None;
    }
    let span = start + program.span.start..start + program.span.end;
    let home = home.to_string_lossy();
    let named = looked_up(program, &home).or_else(|| expanded(program, &home));
    Some(ProgramWord { span, program: named.map(PathBuf::from) })
}

/// NAME, expanded, when `word` is one `$(which NAME)` or `$(command -v
/// NAME)`, bare or in double quotes: what PATH finds as NAME.
fn looked_up(word: &Word, home: &str) -> Option<String> {
    let whole = 0..word.text.len();
    if !(word.quoted.is_empty() || word.quoted == [Quoted { range: whole, quote: Quote::Double }]) {
        return None;
    }
    // `$((…))` is arithmetic, not a command.
    let inner = word.text.strip_prefix("$(").filter(|inner| !inner.starts_with('('))?.strip_suffix(')')?;
    let commands = lean_ctx_shell_syntax::split(inner);
    let [lookup] = commands.as_slice() else { return None };
    if !lookup.redirects.is_empty() {
        return None;
    }
    match lookup.words.as_slice() {
        [which, name] if which.text == "which" => expanded(name, home),
        [command, v, name] if command.text == "command" && v.text == "-v" => expanded(name, home),
        _ => None,
    }
}

/// `word` as the shell expands it: a bare leading `~` and `$HOME` (`${HOME}`,
/// bare or in double quotes) become `home`. `None` when the shell would
/// expand anything else in it.
fn expanded(word: &Word, home: &str) -> Option<String> {
    let text = word.text.as_str();
    let mut out = String::new();
    let mut at = 0;
    // `~` starts the word bare (no quote before it, not even `''`) and stands alone or before a bare `/`.
    let quote_first = word.quoted.first().is_some_and(|part| part.range.start == 0);
    if text.starts_with('~')
        && !quote_first
        && (text.len() == 1 || (text[1..].starts_with('/') && word.quoted_at(1).is_none()))
    {
        out.push_str(home);
        at = 1;
    }
    while let Some(c) = text[at..].chars().next() {
        let expands = matches!(c, '$' | '`') && word.quoted_at(at).is_none_or(|part| part.quote == Quote::Double);
        // A `$` that ends the word is itself.
        if !expands || (c == '$' && text.len() == at + 1) {
            out.push(c);
            at += c.len_utf8();
            continue;
        }
        let rest = &text[at + 1..];
        let is_name = |name: &&str| {
            let Some(after) = rest.strip_prefix(*name) else { return false };
            let ends = name.starts_with('{') || !after.starts_with(|c: char| c == '_' || c.is_ascii_alphanumeric());
            // `$` and the name within one quoting: `$"HOME"` is no variable.
            ends && word.quoted_at(at) == word.quoted_at(at + name.len())
        };
        let name = ["{HOME}", "HOME"].into_iter().find(is_name);
        // Another variable, a substitution, backticks: only running the command would tell.
        let name = name.filter(|_| c == '$')?;
        out.push_str(home);
        at += 1 + name.len();
    }
    Some(out)
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
        found("\"~\"/lctx-shell hook claude-code", "~/lctx-shell");
        found("''~/lctx-shell hook claude-code", "~/lctx-shell");
        found("'$HOME'/lctx-shell hook claude-code", "$HOME/lctx-shell");
        found("cd /tmp && ~/lctx-shell hook claude-code", "/home/u/lctx-shell");
        assert_eq!(program("$HOMEDIR/lctx-shell hook claude-code"), Some(None));
        assert_eq!(program("/x/lctx-shell$X hook claude-code"), Some(None));
        // `$(which NAME)` and `$(command -v NAME)` run what PATH finds, as NAME does; other substitutions are unknown.
        found("$(which lctx-shell) hook claude-code", "lctx-shell");
        found("\"$(command -v lctx-shell)\" hook claude-code", "lctx-shell");
        found("$(which ~/bin/lctx-shell) hook claude-code", "/home/u/bin/lctx-shell");
        found("'$(which lctx-shell)' hook claude-code", "$(which lctx-shell)");
        for unknown in [
            "$(which -a lctx-shell)",
            "$(which lctx-shell | head -1)",
            "$(command -v $X)",
            "$(a)$(which b)",
            "$((which lctx-shell))",
        ] {
            assert_eq!(program(&format!("{unknown} hook claude-code")), Some(None), "{unknown}");
        }
        assert_eq!(program("/x/lctx-shell hook other"), None);
        assert_eq!(program("'/x/lctx-shell hook claude-code"), None, "an open quote");
        assert_eq!(program("hook claude-code"), None);
    }

    #[test]
    fn the_span_covers_the_word_as_written() {
        let command = "nice -n 5 '/old dir/lctx-shell' hook claude-code";
        let word = program_word(command, Path::new("/h")).unwrap();
        assert_eq!(&command[word.span], "'/old dir/lctx-shell'");
        let command = "  cd /x; FOO='a b' \"$HOME\"/lctx-shell hook claude-code";
        assert_eq!(&command[program_word(command, Path::new("/h")).unwrap().span], "\"$HOME\"/lctx-shell");
        let command = "$(command -v lctx-shell) hook claude-code";
        assert_eq!(&command[program_word(command, Path::new("/h")).unwrap().span], "$(command -v lctx-shell)");
    }
}
