//! The hook for fish. Same rule and handshake as the bash/zsh hook. fish
//! runs functions inside its own process, never in a subshell, so a counter
//! kept in a global variable makes each ack file name unique.

use super::{AGENT_VARS, Hook, preamble};

const TEMPLATE: &str = r#"function __lctx_shell_wants
    set -l agent "@AGENTS@"
    if test -z "$agent"; and test -t 0
        return 1
    end
    set -l mode "$LEAN_CTX_SHELL"
    if test -z "$mode"; and test -r @FLAG@
        read mode <@FLAG@; or true
    end
    switch "$mode"
        case off
            return 1
        case on
            return 0
    end
    test -n "$agent"
end
function __lctx_shell_run
    if __lctx_shell_wants; and test -x @BIN@
        set -q __lctx_shell_calls; or set -g __lctx_shell_calls 0
        set -g __lctx_shell_calls (math $__lctx_shell_calls + 1)
        set -l ack @ACK_DIR@/shell-ack.$fish_pid.$__lctx_shell_calls
        if begin; true >$ack; end 2>/dev/null
            @BIN@ run --ack $ack --shell-pid $fish_pid -- $argv
            set -l rc $status
            if not test -e $ack; or contains -- $rc 129 130 137 143
                return $rc
            end
            command rm -f -- $ack 2>/dev/null
        end
    end
    command $argv
end
"#;

pub fn render(hook: &Hook<'_>) -> String {
    let agents: String = AGENT_VARS.iter().map(|v| format!("${}", v.name)).collect();
    let mut text = preamble("fish");
    text.push_str(
        &TEMPLATE
            .replace("@AGENTS@", &agents)
            .replace("@FLAG@", &quote(hook.flag))
            .replace("@BIN@", &quote(hook.bin))
            .replace("@ACK_DIR@", &quote(hook.ack_dir)),
    );
    for name in hook.commands {
        text.push_str(&format!(
            "if not functions -q {name}\n    function {name}\n        __lctx_shell_run {name} $argv\n    end\nend\n"
        ));
    }
    text
}

/// Single-quoted for fish, where backslash escapes `\` and `'`.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\\', r"\\").replace('\'', r"\'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_escapes_backslash_and_quote() {
        assert_eq!(quote(r"/a\b/it's"), r"'/a\\b/it\'s'");
    }
}
