//! What is installed around lctx: its sibling programs, the MCP hosts that
//! have lean-ctx registered, the shell hook and the user service. Missing
//! pieces are optional (a user may want the CLI alone) and reported as such;
//! only a broken one — a registration or hook whose command is gone, a
//! service whose daemon is gone — fails.

use std::path::{Path, PathBuf};

use super::{Check, failed, ok};
use crate::cli::service;
use crate::options::is_executable;
use crate::setup::{self, Env, HOSTS, Scope};

/// `lctx-mcp` and `lctx-shell`, looked for where `lctx setup` and the hook
/// expect them: beside this executable.
pub fn check_clients() -> Vec<Check> {
    let beside = std::env::current_exe().ok().and_then(|exe| exe.parent().map(Path::to_path_buf));
    ["lctx-mcp", "lctx-shell"]
        .into_iter()
        .map(|name| match beside.as_ref().map(|dir| dir.join(name)).filter(|p| is_executable(p)) {
            Some(path) => ok(name, format!("{} installed", path.display())),
            None => ok(
                name,
                format!(
                    "not installed beside lctx (optional; needed by {}): cargo install --locked --path {}",
                    if name == "lctx-mcp" { "`lctx setup`" } else { "the shell hook" },
                    if name == "lctx-mcp" { "shim-mcp" } else { "shim-shell" }
                ),
            ),
        })
        .collect()
}

/// Every host with lean-ctx registered in its user configuration (project
/// files depend on where doctor runs: `lctx setup --list --scope project`); a
/// registration whose command cannot start fails with the command to repair it.
pub fn check_hosts() -> Vec<Check> {
    const NAME: &str = "mcp hosts";
    let env = match Env::from_process() {
        Ok(env) => env,
        Err(e) => return vec![failed(NAME, e, "set HOME")],
    };
    let mut checks = Vec::new();
    let mut registered = Vec::new();
    for host in HOSTS {
        let status = setup::status(host, &env, Scope::User);
        match status.registered {
            Ok(Some(entry)) => match entry.problem {
                Some(problem) => checks.push(failed(
                    NAME,
                    format!("{}: lean-ctx → {} is broken: {problem}", host.id, entry.command_line),
                    format!("run `lctx setup {}` to point it at the installed lctx-mcp", host.id),
                )),
                None => registered.push(host.id),
            },
            Ok(None) => {}
            Err(e) => checks.push(failed(NAME, format!("{}: {e}", host.id), "fix or move away the file named")),
        }
    }
    if registered.is_empty() && checks.is_empty() {
        checks.push(ok(
            NAME,
            "lean-ctx is registered in no host (optional: `lctx setup --list`, `lctx setup HOST`)".into(),
        ));
    } else if !registered.is_empty() {
        checks.push(ok(NAME, format!("lean-ctx registered in {} (user scope)", registered.join(", "))));
    }
    checks
}

/// Whether a shell's rc file evaluates the hook (`lctx-shell init …` by
/// hand, or the block `lctx init` writes).
pub fn check_hook() -> Check {
    const NAME: &str = "shell hook";
    let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from) else {
        return ok(NAME, "HOME is not set; no rc file to look at".into());
    };
    let found: Vec<String> = [".bashrc", ".bash_profile", ".zshrc", ".zshenv", ".config/fish/config.fish"]
        .iter()
        .filter(|rc| {
            let file = home.join(rc);
            crate::init::shell_files::has_block(&file)
                || std::fs::read_to_string(&file).is_ok_and(|text| text.contains("lctx-shell init"))
        })
        .map(|rc| format!("~/{rc}"))
        .collect();
    if found.is_empty() {
        ok(NAME, "not installed (optional: eval \"$(lctx-shell init bash)\" in ~/.bashrc, or zsh, fish)".into())
    } else {
        ok(NAME, format!("evaluated in {}", found.join(", ")))
    }
}

/// Claude Code's PreToolUse hook in the user's settings: each lctx-shell it
/// runs must start, or every Bash command of Claude Code shows a hook error
/// and runs unwrapped (an install moved or removed since `lctx init`).
pub fn check_claude_hook() -> Check {
    const NAME: &str = "claude hook";
    let env = match Env::from_process() {
        Ok(env) => env,
        Err(e) => return ok(NAME, format!("cannot tell ({e})")),
    };
    let file = match crate::init::claude_settings_file(&env, Scope::User) {
        Ok(file) => file,
        Err(e) => return ok(NAME, format!("cannot tell ({e})")),
    };
    let programs = std::fs::read_to_string(&file)
        .map(|text| crate::init::claude_hook_programs(&text, &env.home))
        .unwrap_or_default();
    let Some(first) = programs.first() else {
        return ok(
            NAME,
            format!("not in {} (optional: `lctx init` adds it when Claude Code is installed)", file.display()),
        );
    };
    let broken = programs.iter().flatten().find_map(|p| setup::program_problem(&p.to_string_lossy(), &env));
    match (broken, first) {
        (Some(problem), _) => failed(
            NAME,
            format!("{}: the PreToolUse hook cannot run: {problem}", file.display()),
            "run `lctx init` to point it at the lctx-shell beside lctx",
        ),
        (None, Ok(program)) => {
            ok(NAME, format!("{} routes Claude Code's Bash tool through {}", file.display(), program.display()))
        }
        // A variable or command substitution names the program: only running the hook would tell which.
        (None, Err(command)) => ok(
            NAME,
            format!(
                "{} runs `{command}` for Claude Code's Bash tool (lctx cannot tell which program that is)",
                file.display()
            ),
        ),
    }
}

/// The user service: absent (the daemon starts on demand), or installed with
/// a daemon that still exists.
pub fn check_service() -> Check {
    const NAME: &str = "service";
    let file = match service::service_file() {
        Ok(file) => file,
        Err(e) => return ok(NAME, format!("cannot tell ({e})")),
    };
    let Ok(text) = std::fs::read_to_string(&file) else {
        return ok(NAME, "not installed; the daemon starts on demand (optional: `lctx service install`)".into());
    };
    match daemon_of(&text).filter(|daemon| !is_executable(Path::new(daemon))) {
        Some(daemon) => failed(
            NAME,
            format!("{} runs {daemon}, which is not there any more", file.display()),
            "run `lctx service install` again to point it at the installed lean-ctxd",
        ),
        None => ok(NAME, format!("{} installed", file.display())),
    }
}

/// The program a unit's `ExecStart=` or a plist's first program argument names.
fn daemon_of(text: &str) -> Option<String> {
    if let Some(line) = text.lines().find_map(|l| l.strip_prefix("ExecStart=")) {
        let line = line.trim();
        return Some(match line.strip_prefix('"') {
            Some(rest) => rest.split('"').next().unwrap_or_default().to_string(),
            None => line.split_whitespace().next().unwrap_or_default().to_string(),
        });
    }
    let after = text.split("<key>ProgramArguments</key>").nth(1)?;
    let start = after.find("<string>")? + "<string>".len();
    Some(after[start..].split("</string>").next()?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_daemon_is_read_from_a_unit_or_a_plist() {
        assert_eq!(
            daemon_of("[Service]\nExecStart=\"/opt/a b/lean-ctxd\" --foreground\n").unwrap(),
            "/opt/a b/lean-ctxd"
        );
        assert_eq!(daemon_of("ExecStart=/usr/bin/lean-ctxd --foreground").unwrap(), "/usr/bin/lean-ctxd");
        let plist =
            "<key>ProgramArguments</key>\n<array>\n<string>/x/lean-ctxd</string>\n<string>--foreground</string>";
        assert_eq!(daemon_of(plist).unwrap(), "/x/lean-ctxd");
        assert_eq!(daemon_of("nothing here"), None);
    }
}
