//! Shell completions for lctx, installed where each shell looks for a
//! user's own. bash: bash-completion loads `completions/lctx` from
//! `$BASH_COMPLETION_USER_DIR`, else `$XDG_DATA_HOME/bash-completion`, the
//! first time `lctx` is completed. zsh: `_lctx` in a directory of `$fpath`;
//! no user-writable one is on zsh's default `fpath`, so init's `~/.zshenv`
//! block adds `$XDG_DATA_HOME/zsh/site-functions` (read before `~/.zshrc`
//! runs `compinit`). fish: `$XDG_CONFIG_HOME/fish/completions/lctx.fish`,
//! autoloaded.

use std::path::PathBuf;

use crate::cli::generate::Shell;
use crate::setup::Env;

/// The file `shell` loads lctx's completions from.
pub fn file(env: &Env, shell: Shell) -> PathBuf {
    match shell {
        Shell::Bash => {
            let user_dir = std::env::var_os("BASH_COMPLETION_USER_DIR").filter(|d| !d.is_empty()).map(PathBuf::from);
            user_dir.unwrap_or_else(|| env.xdg_data().join("bash-completion")).join("completions/lctx")
        }
        Shell::Zsh => zsh_functions_dir(env).join("_lctx"),
        Shell::Fish => env.xdg_config().join("fish/completions/lctx.fish"),
    }
}

/// The `fpath` directory init puts `_lctx` in.
pub fn zsh_functions_dir(env: &Env) -> PathBuf {
    env.xdg_data().join("zsh/site-functions")
}
