//! The hook `lctx-shell init SHELL` prints for the user's rc file.
//!
//! Each wrapped command becomes a function of the same name, so completion,
//! `type`, pipes, redirections, globbing, `$?` and `set -e` behave as before:
//! the shell expands the arguments and the function passes them on as "$@".
//! The function calls `lctx-shell run` only when routing applies (the rule
//! of `toggle::routes`, checked with shell builtins alone: no process is
//! started for a command that is not routed) and otherwise runs the real
//! command with `command NAME "$@"`.
//!
//! Failing open needs a signal that a broken shim cannot fake, since any exit
//! status it returns could also be the command's. So before calling
//! lctx-shell the function creates an empty "ack" file in a private
//! directory, and lctx-shell removes it the moment it takes charge of the
//! command (run.rs). If the file is still there afterwards, lctx-shell never
//! started the command — missing, not executable, crashed, or refused its
//! arguments — and the function runs the real command itself. The command
//! thus runs exactly once whatever happens to lctx-shell. The one exception
//! is a shim killed by SIGHUP, SIGINT, SIGKILL or SIGTERM before taking
//! charge: someone meant to stop it, so nothing is run.

mod fish;
pub(crate) mod sh;

use std::path::{Path, PathBuf};

use lean_ctx_common::paths::Dirs;
use lean_ctx_common::runtime_dir;

use crate::detect::AGENT_VARS;
use crate::toggle;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

/// What a hook needs to know, fixed when `init` runs.
pub struct Hook<'a> {
    /// This lctx-shell, by absolute path: agents often run commands with a
    /// PATH of their own, and a missing file is caught by the hook.
    pub bin: &'a str,
    /// Private directory (mode 0700) for the ack files.
    pub ack_dir: &'a str,
    /// The mode flag file (toggle.rs).
    pub flag: &'a str,
    pub commands: &'a [String],
}

/// Space-separated names that replace [`DEFAULT_COMMANDS`].
pub const COMMANDS_ENV: &str = "LEAN_CTX_SHELL_COMMANDS";

/// Commands whose output floods an agent's context: builds, tests, package
/// managers, version control, containers, listings and searches. Written as
/// the value of [`COMMANDS_ENV`] would be.
pub const DEFAULT_COMMANDS: &str = "git cargo go make npm npx pnpm yarn bun pytest pip pip3 uv docker kubectl \
                                    terraform mvn gradle tsc ls find grep rg tree";

/// Builtins and reserved words of bash, zsh and fish. The shell runs these
/// itself, so lctx-shell could not run them, and the hook's own functions
/// use several of them.
const SHELL_OWN: &str = "alias and autoload begin bg bind bindkey break builtin caller case cd command compgen \
    complete compopt contains continue count declare dirs disown do done echo elif else emulate enable end esac \
    eval exec exit export false fc fg fi for function functions getopts hash help history if in jobs kill let local \
    logout mapfile math not or popd print printf pushd pwd read readarray readonly return select set setopt shift \
    shopt source status string suspend switch test then time times trap true type typeset ulimit umask unalias \
    unset unsetopt until wait whence while zmodload";

/// The names to wrap (from `LEAN_CTX_SHELL_COMMANDS` when given, else the
/// defaults), and the given names that cannot be wrapped, for a warning.
pub fn commands(configured: Option<&str>) -> (Vec<String>, Vec<String>) {
    let list = configured.filter(|l| !l.trim().is_empty()).unwrap_or(DEFAULT_COMMANDS);
    let mut wrap: Vec<String> = Vec::new();
    let mut refused = Vec::new();
    for name in list.split_whitespace() {
        if !wrappable(name) {
            refused.push(name.to_string());
        } else if !wrap.iter().any(|w| w == name) {
            wrap.push(name.to_string());
        }
    }
    (wrap, refused)
}

/// A plain program name: safe unquoted in every shell's function syntax, and
/// not something the shell runs itself.
fn wrappable(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '+' | '-'))
        && !SHELL_OWN.split_whitespace().any(|own| own == name)
}

/// The hook for `shell`, and warnings for stderr: names that cannot be
/// wrapped, or a hook directory that cannot be used (then every command runs
/// unrouted, which is safe, but should be said).
pub fn init(shell: Shell, agent_env: bool) -> Result<(String, Vec<String>), String> {
    if agent_env && shell == Shell::Fish {
        return Err(
            "--agent-env is for bash and zsh: fish reads its config.fish in every shell, interactive or not".into()
        );
    }
    let dirs = Dirs::from_env()?;
    let bin = own_path()?;
    let (commands, refused) = commands(std::env::var(COMMANDS_ENV).ok().as_deref());
    let mut warnings: Vec<String> = refused
        .iter()
        .map(|name| format!("{COMMANDS_ENV}: `{name}` is not a program name lctx-shell can wrap; skipped"))
        .collect();
    if let Err(why) = runtime_dir::ensure_private_dir(&dirs.runtime) {
        warnings.push(format!("commands will run unrouted until this is fixed: {why}"));
    }
    let flag = toggle::flag_file(&dirs);
    let hook = Hook {
        bin: path_text(&bin)?,
        ack_dir: path_text(&dirs.runtime)?,
        flag: path_text(&flag)?,
        commands: &commands,
    };
    let text = render(shell, &hook);
    Ok((if agent_env { sh::agent_env(&text) } else { text }, warnings))
}

/// This executable as the PATH entry that reaches it, when one does (a
/// symlink such as ~/.cargo/bin/lctx-shell keeps working when an upgrade
/// moves its target), else as the running file.
fn own_path() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let real = exe.canonicalize().unwrap_or_else(|_| exe.clone());
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("lctx-shell"))
            .find(|candidate| candidate.is_absolute() && candidate.canonicalize().is_ok_and(|c| c == real))
    });
    Ok(on_path.unwrap_or(exe))
}

fn render(shell: Shell, hook: &Hook<'_>) -> String {
    match shell {
        Shell::Bash => sh::render(&sh::BASH, hook),
        Shell::Zsh => sh::render(&sh::ZSH, hook),
        Shell::Fish => fish::render(hook),
    }
}

/// A path as text for a hook; the hooks are text, so a path that is not
/// UTF-8 cannot be written into one.
fn path_text(path: &Path) -> Result<&str, String> {
    path.to_str().ok_or_else(|| format!("{} is not valid UTF-8, so no hook can name it", path.display()))
}

/// The first lines of every hook: what it does and how to turn it off.
fn preamble(shell: &str) -> String {
    format!(
        "# lean-ctxd shell hook for {shell}, from `lctx-shell init {shell}` (lctx-shell {version}).\n\
         # The functions below send these commands through `lctx-shell run` (compressed output,\n\
         # same exit code) only when an AI agent runs this shell, or after `lctx-shell on` when\n\
         # stdin is not a terminal; `lctx-shell off` or LEAN_CTX_SHELL=off stops that. Otherwise,\n\
         # or when lctx-shell is missing or fails, the real command runs untouched.\n",
        version = env!("CARGO_PKG_VERSION"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configured_commands_replace_the_defaults_and_bad_names_are_refused() {
        let (wrap, refused) = commands(Some(" git  my-tool g++ git cd rm;x $(x) -rf ./x "));
        assert_eq!(wrap, ["git", "my-tool", "g++"]);
        assert_eq!(refused, ["cd", "rm;x", "$(x)", "-rf", "./x"]);
        let (defaults, none) = commands(Some("  "));
        assert!(defaults.contains(&"cargo".to_string()) && none.is_empty());
        assert_eq!(commands(None), (DEFAULT_COMMANDS.split_whitespace().map(String::from).collect(), Vec::new()));
    }

    #[test]
    fn no_default_is_a_shell_builtin() {
        assert!(DEFAULT_COMMANDS.split_whitespace().all(wrappable));
    }

    #[test]
    fn every_hook_checks_every_agent_marker() {
        let commands = ["git".to_string()];
        let hook =
            Hook { bin: "/opt/x/lctx-shell", ack_dir: "/run/u", flag: "/cfg/shell-routing", commands: &commands };
        for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
            let text = render(shell, &hook);
            for var in AGENT_VARS {
                assert!(text.contains(var.name), "{shell:?} misses {}", var.name);
            }
            assert!(text.contains("'/opt/x/lctx-shell' run --ack"), "{shell:?}:\n{text}");
            assert!(text.contains("'/cfg/shell-routing'"), "{shell:?}");
            assert!(text.contains("function git"), "{shell:?}");
        }
    }
}
