//! The shell integration `lctx init` installs where agents' shells read it.
//!
//! Agents run commands in non-interactive shells, which skip `~/.bashrc` (a
//! stock Debian one returns at its top) and `~/.zshrc`. What they do read:
//! bash the file named by `$BASH_ENV`, zsh `~/.zshenv`. So init writes
//! `lctx-shell init SHELL --agent-env` into the lean-ctx config directory
//! (the hook, defined only when an agent runs the shell), exports
//! `BASH_ENV` from `~/.bashrc` and `~/.zshenv` (so agents started from a
//! terminal inherit it), and sources the zsh file from `~/.zshenv`. Each
//! rc addition is one marked block, replaced in place when init runs again.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::setup::Env;

const BEGIN: &str = "# >>> lean-ctx shell integration (lctx init; `lctx uninstall` removes it) >>>";
const END: &str = "# <<< lean-ctx shell integration <<<";

/// The agent-env files, by shell.
pub fn agent_env_file(config_dir: &Path, shell: &str) -> PathBuf {
    config_dir.join("shell").join(format!("agent-env.{shell}"))
}

/// `~/.zshenv`, or `$ZDOTDIR/.zshenv`.
pub fn zshenv(env: &Env) -> PathBuf {
    let zdotdir = std::env::var_os("ZDOTDIR").filter(|d| !d.is_empty()).map(PathBuf::from);
    zdotdir.unwrap_or_else(|| env.home.clone()).join(".zshenv")
}

pub fn bashrc(env: &Env) -> PathBuf {
    env.home.join(".bashrc")
}

/// What `lctx-shell init SHELL --agent-env` prints.
pub fn agent_env_text(lctx_shell: &Path, shell: &str) -> Result<String, String> {
    let out = Command::new(lctx_shell)
        .args(["init", shell, "--agent-env"])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", lctx_shell.display()))?;
    if !out.status.success() {
        return Err(format!(
            "`{} init {shell} --agent-env` failed: {}",
            lctx_shell.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    String::from_utf8(out.stdout).map_err(|_| format!("{} printed a hook that is not UTF-8", lctx_shell.display()))
}

/// The `~/.bashrc` block: export `BASH_ENV` unless the user has one.
pub fn bashrc_block(bash_env: &Path) -> String {
    format!(
        "# AI agents run commands in non-interactive shells, which read $BASH_ENV: that file routes\n\
         # their commands through lctx-shell and returns at once for anyone else.\n\
         {}\n",
        export_bash_env(bash_env)
    )
}

/// The `~/.zshenv` block (read by every zsh): the same export for the bash
/// an agent may start, the zsh file, and the directory of lctx's
/// completions on `fpath` (set here, before `~/.zshrc` runs `compinit`).
pub fn zshenv_block(bash_env: Option<&Path>, zsh_env: &Path, functions: &Path) -> String {
    let mut block = String::from(
        "# AI agents run commands in non-interactive shells; these lines route their commands\n\
         # through lctx-shell and do nothing for anyone else.\n",
    );
    if let Some(bash_env) = bash_env {
        block.push_str(&export_bash_env(bash_env));
        block.push('\n');
    }
    block.push_str(&source_line(zsh_env));
    block.push('\n');
    let functions = quote(functions);
    // First on fpath, once however often the file is read.
    block.push_str(&format!("fpath=({functions} ${{fpath:#{functions}}})\n"));
    block
}

/// The line that reads `file` when it is there: what the zsh block runs, and
/// what a user's own `BASH_ENV` file needs to wrap bash agents too.
pub fn source_line(file: &Path) -> String {
    let file = quote(file);
    format!("[ ! -r {file} ] || . {file}")
}

fn export_bash_env(bash_env: &Path) -> String {
    format!("[ -n \"${{BASH_ENV-}}\" ] || export BASH_ENV={}", quote(bash_env))
}

/// `path` as one sh word.
fn quote(path: &Path) -> String {
    lean_ctx_shell_syntax::quote(&path.to_string_lossy())
}

/// `text` with the marked block holding `body`: appended, or the existing
/// block replaced. `None` when it is there already; an error when the block
/// lost its end marker (what follows the start may be the user's).
pub fn with_block(text: Option<&str>, body: &str) -> Result<Option<String>, String> {
    let text = text.unwrap_or("");
    let block = format!("{BEGIN}\n{body}{END}\n");
    if let Some(span) = block_span(text)? {
        let replaced = format!("{}{block}{}", &text[..span.start], &text[span.end..]);
        return Ok((replaced != text).then_some(replaced));
    }
    let sep = match text {
        "" => "",
        t if t.ends_with("\n\n") => "",
        t if t.ends_with('\n') => "\n",
        _ => "\n\n",
    };
    Ok(Some(format!("{text}{sep}{block}")))
}

/// `text` without the marked block, and without the blank line init put
/// before it: [`with_block`] adds one after a `before` text (the file before
/// init) that did not end in a blank line. `None` when there is no block; an
/// error when it lost its end marker.
pub fn without_block(text: &str, before: Option<&str>) -> Result<Option<String>, String> {
    let Some(span) = block_span(text)? else { return Ok(None) };
    let mut head = &text[..span.start];
    let separated = before.is_some_and(|b| !b.is_empty() && !b.ends_with("\n\n"));
    if separated && head.ends_with("\n\n") {
        head = &head[..head.len() - 1];
    }
    Ok(Some(format!("{head}{}", &text[span.end..])))
}

/// Where the block is, through its end marker's line break.
fn block_span(text: &str) -> Result<Option<std::ops::Range<usize>>, String> {
    let Some(start) = text.find(BEGIN) else { return Ok(None) };
    let Some(at) = text[start..].find(END) else {
        return Err(format!("the lean-ctx block has lost its end line `{END}`; put it back after the block"));
    };
    let after = start + at + END.len();
    Ok(Some(start..after + usize::from(text[after..].starts_with('\n'))))
}

/// The number of the first line of `text` outside the block that `matches`.
pub fn line_outside_block(text: &str, matches: impl Fn(&str) -> bool) -> Option<usize> {
    let mut inside = false;
    for (index, line) in text.lines().enumerate() {
        match line {
            BEGIN => inside = true,
            END => inside = false,
            _ if !inside && matches(line) => return Some(index + 1),
            _ => {}
        }
    }
    None
}

/// Whether `text` holds the block.
pub fn holds_block(text: &str) -> bool {
    text.contains(BEGIN)
}

/// Whether `file` holds the block (for doctor).
pub fn has_block(file: &Path) -> bool {
    std::fs::read_to_string(file).is_ok_and(|text| holds_block(&text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_is_appended_once_and_replaced_in_place() {
        let first = with_block(Some("alias ll='ls -l'\n"), "x=1\n").unwrap().unwrap();
        assert_eq!(first, format!("alias ll='ls -l'\n\n{BEGIN}\nx=1\n{END}\n"));
        assert_eq!(with_block(Some(&first), "x=1\n"), Ok(None), "idempotent");
        let mine = format!("{first}echo mine\n");
        let second = with_block(Some(&mine), "x=2\n").unwrap().unwrap();
        assert_eq!(second, format!("alias ll='ls -l'\n\n{BEGIN}\nx=2\n{END}\necho mine\n"));
        assert_eq!(with_block(None, "x\n").unwrap().unwrap(), format!("{BEGIN}\nx\n{END}\n"));
        // Without its end line, what follows the start may be the user's: nothing is replaced.
        let unended = format!("{BEGIN}\nx=1\nexport IMPORTANT=1\n");
        assert!(with_block(Some(&unended), "x=2\n").unwrap_err().contains("lost its end line"));
    }

    #[test]
    fn the_block_is_taken_out_and_the_users_lines_stay() {
        let before = Some("alias ll='ls -l'\n");
        let first = with_block(before, "x=1\n").unwrap().unwrap();
        let without = |text: &str, before| without_block(text, before).unwrap().unwrap();
        assert_eq!(without(&first, before), "alias ll='ls -l'\n", "init's blank line goes with it");
        let later = format!("export A=1\n{first}echo mine\n");
        assert_eq!(without(&later, before), "export A=1\nalias ll='ls -l'\necho mine\n");
        let spaced = Some("alias ll='ls -l'\n\n");
        let first = with_block(spaced, "x=1\n").unwrap().unwrap();
        assert_eq!(without(&format!("{first}echo mine\n"), spaced), "alias ll='ls -l'\n\necho mine\n");
        assert_eq!(without_block("alias ll='ls -l'\n", before), Ok(None));
        let unended = format!("{BEGIN}\nx=1\nexport IMPORTANT=1\n");
        assert!(without_block(&unended, before).is_err(), "the user's lines after it are not taken");
    }

    #[test]
    fn lines_are_found_outside_the_block_only() {
        let text = with_block(Some("a=1\n"), "export BASH_ENV=x\n").unwrap().unwrap() + "export BASH_ENV=y\n";
        let exports = |line: &str| line.contains("BASH_ENV=");
        assert_eq!(line_outside_block(&text, exports), Some(text.lines().count()));
        assert_eq!(line_outside_block("a=1\n", exports), None);
    }

    #[test]
    fn blocks_export_bash_env_only_when_unset_and_quote_paths() {
        let block = bashrc_block(Path::new("/h/it's/agent-env.bash"));
        assert!(block.contains(r#"[ -n "${BASH_ENV-}" ] || export BASH_ENV='/h/it'\''s/agent-env.bash'"#), "{block}");
        let zsh = zshenv_block(None, Path::new("/c/agent-env.zsh"), Path::new("/d/site-functions"));
        assert!(zsh.contains("[ ! -r '/c/agent-env.zsh' ] || . '/c/agent-env.zsh'\n") && !zsh.contains("BASH_ENV"));
        assert!(zsh.ends_with("fpath=('/d/site-functions' ${fpath:#'/d/site-functions'})\n"), "{zsh}");
    }
}
