//! Whether an agent's shell is really wrapped, found by running one: a
//! non-interactive bash and zsh started the way an agent starts them (bash
//! from a terminal's environment, i.e. under an interactive bash that read
//! `~/.bashrc`; zsh directly, since every zsh reads `~/.zshenv`), with an
//! agent's marker set, run `git`. A stand-in `git` first on PATH reports
//! which program started it: `lctx-shell` when the command was routed, the
//! shell itself when not. When bash was not routed because `BASH_ENV` names
//! a file of the user's (bash reads only one), that is the cause doctor names.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{Check, failed, ok};
use crate::init::shell_files;
use crate::options::ClientOptions;
use crate::setup::Env;

const NAME: &str = "agent shell";

/// A shell that has not answered by then (a slow rc file, a hang) is killed.
const DEADLINE: Duration = Duration::from_secs(20);

/// The stand-in: prints the name of the process that started it.
const PROBE: &str = "#!/bin/sh\nparent=$(cat /proc/$PPID/comm 2>/dev/null || ps -o comm= -p $PPID)\n\
                     echo \"lctx-probe started-by=${parent##*/}\"\n";

pub fn check(opts: &ClientOptions) -> Vec<Check> {
    let Ok(env) = Env::from_process() else { return Vec::new() };
    let shells: Vec<(&str, PathBuf)> =
        [("bash", shell_files::bashrc(&env)), ("zsh", shell_files::zshenv(&env))].into_iter().collect();
    let installed: Vec<&(&str, PathBuf)> = shells.iter().filter(|(_, rc)| shell_files::has_block(rc)).collect();
    if installed.is_empty() {
        return vec![ok(NAME, "no shell integration for agents' shells (optional: `lctx init`)".into())];
    }
    let probe_dir = opts.dirs.runtime.join(format!("doctor-probe-{}", std::process::id()));
    let ours = shell_files::agent_env_file(&opts.dirs.config, "bash");
    let checks = match make_probe(&probe_dir) {
        Ok(()) => installed
            .iter()
            .map(|(shell, rc)| {
                // The file the block reads: gone (moved, deleted), nothing is routed, and that is the cause.
                let agent_env = shell_files::agent_env_file(&opts.dirs.config, shell);
                match agent_env.exists() {
                    true => check_shell(shell, rc, &probe_dir, &ours),
                    false => failed(
                        NAME,
                        format!(
                            "{shell}: {} reads {}, which does not exist, so an agent's `{shell} -c` routes nothing \
                             through lctx-shell",
                            rc.display(),
                            agent_env.display()
                        ),
                        "run `lctx init` again: it writes the file",
                    ),
                }
            })
            .collect(),
        Err(e) => {
            vec![failed(NAME, format!("cannot set up the probe in {}: {e}", probe_dir.display()), "see the message")]
        }
    };
    let _ = std::fs::remove_dir_all(&probe_dir);
    checks
}

fn make_probe(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    lean_ctx_common::privacy::create_private_dir_all(dir)?;
    let git = dir.join("git");
    std::fs::write(&git, PROBE)?;
    std::fs::set_permissions(&git, std::fs::Permissions::from_mode(0o700))
}

/// `bash_env`: lctx's agent-env file for bash, the one `BASH_ENV` should name.
fn check_shell(shell: &str, rc: &Path, probe_dir: &Path, bash_env: &Path) -> Check {
    let mut command = Command::new(shell);
    match shell {
        // An agent started from a terminal: the interactive bash reads
        // ~/.bashrc and exports BASH_ENV to the agent's `bash -c`; it is
        // printed first, for when that `bash -c` is not routed.
        // An empty HISTFILE: the probe leaves no ~/.bash_history behind.
        "bash" => command
            .args(["-i", "-c", "printf '%s\\n' \"lctx-probe bash-env=${BASH_ENV-}\"; LEAN_CTX_AGENT=1 bash -c git"])
            .env("HISTFILE", ""),
        _ => command.args(["-c", "git"]).env("LEAN_CTX_AGENT", "1"),
    };
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![probe_dir.to_path_buf()];
    dirs.extend(std::env::split_paths(&path));
    // BASH_ENV is kept: an agent started from this terminal inherits it too.
    command.env("PATH", std::env::join_paths(dirs).unwrap_or(path)).env_remove("LEAN_CTX_SHELL");
    match run(command) {
        Ok(out) if out.contains("started-by=lctx-shell") => {
            ok(NAME, format!("{shell}: an agent's `{shell} -c` runs wrapped commands through lctx-shell"))
        }
        Ok(out) => {
            let users = out.lines().find_map(|l| l.strip_prefix("lctx-probe bash-env=")).filter(|v| !v.is_empty());
            if let Some(users) = users.filter(|users| !reads(Path::new(users), bash_env)) {
                return users_bash_env(Path::new(users), rc, bash_env);
            }
            failed(
                NAME,
                format!(
                    "{shell}: an agent's `{shell} -c git` did not go through lctx-shell ({})",
                    out.lines().find(|l| l.starts_with("lctx-probe started-by")).unwrap_or("no answer from the probe")
                ),
                format!("check the lean-ctx block in {} and run `lctx init` again", rc.display()),
            )
        }
        Err(why) => failed(NAME, format!("{shell}: {why}"), "run `lctx init` again, or check the shell's rc files"),
    }
}

/// Whether the file `BASH_ENV` names is lctx's, or reads it.
fn reads(file: &Path, bash_env: &Path) -> bool {
    file == bash_env || std::fs::read_to_string(file).is_ok_and(|text| text.contains(&*bash_env.to_string_lossy()))
}

/// The failure when agents' bash reads the user's own `BASH_ENV` file: the
/// lean-ctx block leaves an existing one alone, and bash reads one file only,
/// so that file has to read lctx's.
fn users_bash_env(users: &Path, rc: &Path, bash_env: &Path) -> Check {
    let inherited = std::env::var_os("BASH_ENV").is_some_and(|v| Path::new(&v) == users);
    let rc_line = std::fs::read_to_string(rc)
        .ok()
        .and_then(|text| shell_files::line_outside_block(&text, |line| line.contains("BASH_ENV=")));
    let set_by = match rc_line {
        _ if inherited => "in the environment lctx doctor started with".to_string(),
        Some(line) => format!("by line {line} of {}", rc.display()),
        None => format!("by {} or a file it reads", rc.display()),
    };
    failed(
        NAME,
        format!(
            "bash: an agent's `bash -c` reads BASH_ENV={}, set {set_by}, not lctx's {}, so its commands are not \
             routed through lctx-shell",
            users.display(),
            bash_env.display()
        ),
        format!("add this line to {}: {}", users.display(), shell_files::source_line(bash_env)),
    )
}

/// Runs the shell with stdout and stderr on one pipe (as agents capture
/// them), killing it at the deadline.
fn run(mut command: Command) -> Result<String, String> {
    let (mut reader, writer) = std::io::pipe().map_err(|e| format!("cannot make a pipe: {e}"))?;
    let writer2 = writer.try_clone().map_err(|e| format!("cannot make a pipe: {e}"))?;
    command.stdin(Stdio::null()).stdout(writer).stderr(writer2);
    let mut child = command.spawn().map_err(|e| format!("cannot start it: {e}"))?;
    drop(command);
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < DEADLINE => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("did not finish within {} s; killed", DEADLINE.as_secs()));
            }
        }
    };
    // A daemon the shell started may hold the pipe's write end still, so
    // read what is there without waiting for the end of it.
    set_nonblocking(&reader);
    let mut bytes = Vec::new();
    let mut buf = [0u8; 8192];
    while let Ok(n @ 1..) = reader.read(&mut buf) {
        bytes.extend_from_slice(&buf[..n]);
    }
    let out = String::from_utf8_lossy(&bytes).into_owned();
    if !status.success() && !out.contains("lctx-probe") {
        return Err(format!("exited with {status}: {}", out.trim()));
    }
    Ok(out)
}

fn set_nonblocking(reader: &std::io::PipeReader) {
    use std::os::fd::AsRawFd;
    let fd = reader.as_raw_fd();
    // SAFETY: fcntl on a descriptor we own; no memory is passed.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
}
