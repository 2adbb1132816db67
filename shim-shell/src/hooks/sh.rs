//! The hook for bash and zsh, one text for both: they differ only in how a
//! function learns the pid of the (sub)shell running it, and in how it asks
//! whether a function is already defined.
//!
//! Written for `set -e`, `set -u`, `noclobber` and aliases: every test that
//! may fail sits where `set -e` ignores it, every variable has a default, the
//! ack file is written with `>|`, and functions are declared as
//! `function NAME { … }`, whose name is never alias-expanded.

use lean_ctx_shell_syntax::quote;

use super::{AGENT_VARS, Hook, preamble};

/// What differs between bash and zsh.
pub struct Dialect {
    name: &'static str,
    /// Sets `__lctx_id` to the pid of the process running the function; it
    /// names the ack file, so the two sides of a pipeline never share one.
    own_pid: &'static str,
    /// Subshell depth: where the own pid is unknown, `$$` is only unique at
    /// depth 0.
    depth_var: &'static str,
    /// Succeeds when a function NAME exists already; a user's own wrapper is
    /// left alone.
    has_function: &'static str,
    /// How the function calls lctx-shell (CALL) and keeps its status in
    /// `__lctx_rc`: out of reach of `set -e`, which would end the shell before
    /// the fallback could run, yet keeping 130 when Ctrl-C interrupts it.
    /// Each shell reports the interrupted status through one form only: bash
    /// through `||` (its `if` gives 0), zsh through `if` (its `||` gives 1).
    keep_status: &'static str,
}

pub const BASH: Dialect = Dialect {
    name: "bash",
    own_pid: "__lctx_id=\"${BASHPID-}\"",
    depth_var: "BASH_SUBSHELL",
    has_function: "declare -F NAME >/dev/null",
    keep_status: "CALL || __lctx_rc=$?",
};

pub const ZSH: Dialect = Dialect {
    name: "zsh",
    own_pid: "zmodload -F zsh/system p:sysparams 2>/dev/null && __lctx_id=\"${sysparams[pid]-}\"",
    depth_var: "ZSH_SUBSHELL",
    has_function: "(( ${+functions[NAME]} ))",
    keep_status: "if CALL; then :; else __lctx_rc=$?; fi",
};

const TEMPLATE: &str = r#"__lctx_shell_wants() {
  local __lctx_agent= __lctx_mode="${LEAN_CTX_SHELL-}"
  [ -z "@AGENTS@" ] || __lctx_agent=1
  if [ -z "$__lctx_agent" ] && [ -t 0 ]; then return 1; fi
  if [ -z "$__lctx_mode" ]; then { read -r __lctx_mode <@FLAG@; } 2>/dev/null || :; fi
  case "$__lctx_mode" in
    off) return 1 ;;
    on) return 0 ;;
  esac
  [ -n "$__lctx_agent" ]
}
__lctx_shell_run() {
  if __lctx_shell_wants && [ -x @BIN@ ]; then
    local __lctx_id= __lctx_ack= __lctx_rc=0
    @OWN_PID@
    [ -n "$__lctx_id" ] || [ "${@DEPTH@-0}" != 0 ] || __lctx_id=$$
    __lctx_ack=@ACK_DIR@/shell-ack.$__lctx_id
    if [ -n "$__lctx_id" ] && { : >|"$__lctx_ack"; } 2>/dev/null; then
      @KEEP_STATUS@
      [ -e "$__lctx_ack" ] || return "$__lctx_rc"
      case "$__lctx_rc" in 129|130|137|143) return "$__lctx_rc" ;; esac
      command rm -f -- "$__lctx_ack" 2>/dev/null || :
    fi
  fi
  command "$@"
}
"#;

const CALL: &str = r#"@BIN@ run --ack "$__lctx_ack" --shell-pid "$$" -- "$@""#;

pub fn render(dialect: &Dialect, hook: &Hook<'_>) -> String {
    let agents: String = AGENT_VARS.iter().map(|v| format!("${{{}-}}", v.name)).collect();
    let mut text = preamble(dialect.name);
    text.push_str(
        &TEMPLATE
            .replace("@KEEP_STATUS@", &dialect.keep_status.replace("CALL", CALL))
            .replace("@AGENTS@", &agents)
            .replace("@FLAG@", &quote(hook.flag))
            .replace("@BIN@", &quote(hook.bin))
            .replace("@OWN_PID@", dialect.own_pid)
            .replace("@DEPTH@", dialect.depth_var)
            .replace("@ACK_DIR@", &quote(hook.ack_dir)),
    );
    for name in hook.commands {
        let exists = dialect.has_function.replace("NAME", name);
        // `${1+"$@"}`: bash before 4.4 calls a bare "$@" unbound under `set -u`.
        text.push_str(&format!("{exists} || function {name} {{ __lctx_shell_run {name} ${{1+\"$@\"}}; }}\n"));
    }
    text
}

/// The hook as a file that every non-interactive shell reads (`BASH_ENV`,
/// `~/.zshenv`): it returns at once unless an agent runs the shell, so a
/// person's shells and scripts stay exactly as they were, at the cost of one
/// test. `return` ends a sourced file in bash and zsh alike.
pub fn agent_env(hook: &str) -> String {
    let agents: String = AGENT_VARS.iter().map(|v| format!("${{{}-}}", v.name)).collect();
    format!(
        "# Read by non-interactive shells (BASH_ENV, ~/.zshenv) through `lctx init`; `lctx uninstall` removes it.\n\
         # Nothing below runs unless an AI agent runs this shell.\n\
         [ -n \"{agents}\" ] || return 0\n{hook}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialects_differ_only_where_declared() {
        let commands = ["git".to_string()];
        let hook = Hook { bin: "/b", ack_dir: "/r", flag: "/f", commands: &commands };
        let bash = render(&BASH, &hook);
        let zsh = render(&ZSH, &hook);
        assert!(bash.contains("${BASHPID-}") && !bash.contains("sysparams"));
        assert!(zsh.contains("${sysparams[pid]-}") && !zsh.contains("BASHPID"));
        assert!(bash.contains("declare -F git >/dev/null || function git { __lctx_shell_run git ${1+\"$@\"}; }"));
        assert!(zsh.contains("(( ${+functions[git]} )) || function git {"));
    }
}
