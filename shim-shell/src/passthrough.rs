//! When `run` steps aside and execs the command unchanged instead of
//! capturing it.
//!
//! Capturing changes two things: output arrives only at the end, and it is
//! compressed, with stderr merged into it. That is right when the output goes
//! straight to the agent. It is wrong when a program reads the output (a
//! pipeline, `$(…)`, `> file`), when stderr was sent somewhere else
//! (`2>/dev/null`), when a person must see a prompt or an editor, and when
//! the command never ends by itself (`logs -f`). Getting "watched" wrong in
//! the safe direction costs only a missed compression, so every rule here
//! errs towards stepping aside.

use std::ffi::OsString;
use std::fs::File;
use std::io::IsTerminal;
use std::os::fd::AsFd;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::Path;

/// Identity of an open file: what two descriptors must share to be the
/// same stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileId {
    dev: u64,
    ino: u64,
}

/// What an open descriptor is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Terminal,
    /// A pipe or a socket: someone reads it as it comes.
    Stream,
    Regular,
    /// /dev/null, devices, directories: nobody to compress for.
    Other,
}

#[derive(Clone, Copy, Debug)]
struct Stream {
    id: FileId,
    kind: Kind,
}

fn describe(fd: impl AsFd) -> Option<Stream> {
    let terminal = fd.as_fd().is_terminal();
    let meta = File::from(fd.as_fd().try_clone_to_owned().ok()?).metadata().ok()?;
    let kind = match meta.file_type() {
        _ if terminal => Kind::Terminal,
        t if t.is_fifo() || t.is_socket() => Kind::Stream,
        t if t.is_file() => Kind::Regular,
        _ => Kind::Other,
    };
    Some(Stream { id: FileId { dev: meta.dev(), ino: meta.ino() }, kind })
}

/// Where the hook's shell (`--shell-pid`) sends its own stdout and stderr,
/// which is where the agent reads. Only Linux shows another process's
/// descriptors (/proc); elsewhere this is unknown.
fn shell_streams(pid: u32) -> Option<(FileId, FileId)> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let id =
        |fd: u32| std::fs::metadata(format!("/proc/{pid}/fd/{fd}")).ok().map(|m| FileId { dev: m.dev(), ino: m.ino() });
    Some((id(1)?, id(2)?))
}

/// Whether the output goes straight to whoever runs the shell, so that
/// compressing it (with stderr merged in) changes nothing but its size.
///
/// - stdout must be a terminal, pipe, socket or regular file;
/// - stderr must go where stdout goes, or where the shell's own stderr goes
///   (then the reader sees both streams anyway), or — run directly, without
///   the hook — to a terminal or pipe: `2>/dev/null` steps aside;
/// - a regular file only when stdout and stderr are that same file — an
///   agent's capture file, or a `> log 2>&1` — never a `> data.json`;
/// - under the hook, a terminal, pipe or socket only when it is the shell's
///   own stdout: a pipeline stage or a `$(…)` reads through a pipe of its
///   own. Where the shell's descriptors cannot be seen, only terminals pass.
pub fn output_watched(shell_pid: Option<u32>) -> bool {
    let (Some(out), Some(err)) = (describe(std::io::stdout()), describe(std::io::stderr())) else {
        return false;
    };
    let shell = shell_pid.map(shell_streams);
    watched(out, err, shell)
}

/// [`output_watched`] on given descriptors; `shell` is `None` without the
/// hook, `Some(None)` when the hook's shell cannot be inspected.
fn watched(out: Stream, err: Stream, shell: Option<Option<(FileId, FileId)>>) -> bool {
    let err_follows = err.id == out.id
        || match shell {
            Some(known) => known.is_some_and(|(_, shell_err)| err.id == shell_err),
            None => matches!(err.kind, Kind::Terminal | Kind::Stream),
        };
    match out.kind {
        Kind::Other => false,
        Kind::Regular => err.id == out.id,
        Kind::Terminal | Kind::Stream => {
            err_follows
                && match shell {
                    None => true,
                    Some(Some((shell_out, _))) => out.id == shell_out,
                    Some(None) => out.kind == Kind::Terminal,
                }
        }
    }
}

/// A command that would misbehave when captured.
struct Rule {
    program: &'static str,
    /// Any of these words among the arguments (a subcommand), whose flags
    /// follow it; empty: the program's own flags.
    words: &'static [&'static str],
    when: When,
    /// Only matters when a person could answer: stdin is a terminal.
    interactive: bool,
}

enum When {
    Always,
    AnyFlag(&'static [&'static str]),
    NoFlag(&'static [&'static str]),
}

const EDITOR_FLAGS: &[&str] = &["-p", "--patch", "-i", "--interactive", "-e", "--edit"];
const STDIN_TTY_FLAGS: &[&str] = &["-i", "-t", "--interactive", "--tty", "--stdin"];
const FOLLOW_FLAGS: &[&str] = &["-f", "--follow"];

const RULES: &[Rule] = &[
    // An editor opens for the message unless one is given.
    Rule {
        program: "git",
        words: &["commit"],
        when: When::NoFlag(&[
            "-m",
            "--message",
            "-F",
            "--file",
            "-C",
            "--reuse-message",
            "--no-edit",
            "--fixup",
            "--dry-run",
        ]),
        interactive: true,
    },
    Rule {
        program: "git",
        words: &["rebase"],
        when: When::AnyFlag(&["-i", "--interactive", "--edit-todo", "--continue"]),
        interactive: true,
    },
    Rule {
        program: "git",
        words: &["add", "checkout", "reset", "restore", "stash", "clean"],
        when: When::AnyFlag(EDITOR_FLAGS),
        interactive: true,
    },
    Rule { program: "git", words: &["mergetool", "difftool"], when: When::Always, interactive: true },
    Rule {
        program: "docker",
        words: &["run", "exec", "start"],
        when: When::AnyFlag(STDIN_TTY_FLAGS),
        interactive: true,
    },
    Rule { program: "docker", words: &["attach"], when: When::Always, interactive: true },
    Rule { program: "docker", words: &["logs"], when: When::AnyFlag(FOLLOW_FLAGS), interactive: false },
    Rule { program: "docker", words: &["events"], when: When::Always, interactive: false },
    Rule { program: "docker", words: &["stats"], when: When::NoFlag(&["--no-stream"]), interactive: false },
    Rule {
        program: "kubectl",
        words: &["exec", "run", "attach", "debug"],
        when: When::AnyFlag(STDIN_TTY_FLAGS),
        interactive: true,
    },
    Rule { program: "kubectl", words: &["edit"], when: When::Always, interactive: true },
    Rule { program: "kubectl", words: &["logs"], when: When::AnyFlag(FOLLOW_FLAGS), interactive: false },
    Rule { program: "kubectl", words: &[], when: When::AnyFlag(&["-w", "--watch"]), interactive: false },
    Rule { program: "kubectl", words: &["port-forward", "proxy"], when: When::Always, interactive: false },
    Rule { program: "npm", words: &["init", "login", "adduser"], when: When::Always, interactive: true },
    Rule { program: "pnpm", words: &["init", "login"], when: When::Always, interactive: true },
    Rule { program: "yarn", words: &["init", "login"], when: When::Always, interactive: true },
    Rule { program: "cargo", words: &["login"], when: When::Always, interactive: true },
    Rule { program: "pytest", words: &[], when: When::AnyFlag(&["--pdb", "--trace"]), interactive: true },
    Rule { program: "tail", words: &[], when: When::AnyFlag(&["-f", "-F", "--follow"]), interactive: false },
    Rule { program: "journalctl", words: &[], when: When::AnyFlag(&["-f", "--follow"]), interactive: false },
];

/// Programs that own the terminal; only ever wrapped if a user lists them.
const FULL_SCREEN: &str = "vi vim nvim nano emacs less more man top htop btop watch ssh tmux screen fzf";

/// Whether `command` needs the terminal or never ends by itself.
pub fn needs_terminal(command: &[OsString], stdin_is_terminal: bool) -> bool {
    let Some(program) = command.first().and_then(|p| Path::new(p).file_name()).and_then(|p| p.to_str()) else {
        return false;
    };
    let args: Vec<&str> = command[1..].iter().filter_map(|a| a.to_str()).collect();
    if FULL_SCREEN.split_whitespace().any(|p| p == program) {
        return stdin_is_terminal;
    }
    RULES.iter().filter(|r| r.program == program && (stdin_is_terminal || !r.interactive)).any(|r| {
        // Flags count after the subcommand only: `git -C dir commit` has
        // no `commit -C`.
        let after = if r.words.is_empty() {
            Some(&args[..])
        } else {
            args.iter().position(|a| r.words.contains(a)).map(|at| &args[at + 1..])
        };
        after.is_some_and(|flags_of| match r.when {
            When::Always => true,
            When::AnyFlag(flags) => flags.iter().any(|f| has_flag(flags_of, f)),
            When::NoFlag(flags) => !flags.iter().any(|f| has_flag(flags_of, f)),
        })
    })
}

/// `--long`, `--long=value`, `-x`, or `x` inside a short cluster of short
/// flags (`-am`, `-dit`). Longer clusters are taken for a value glued to a
/// flag (`-owide`, `-ojson`), which must not read as `-w`.
fn has_flag(args: &[&str], flag: &str) -> bool {
    const LONGEST_CLUSTER: usize = 3;
    args.iter().take_while(|a| **a != "--").any(|arg| {
        if flag.starts_with("--") {
            return *arg == flag || arg.strip_prefix(flag).is_some_and(|rest| rest.starts_with('='));
        }
        *arg == flag
            || arg.strip_prefix('-').is_some_and(|cluster| {
                cluster.len() <= LONGEST_CLUSTER
                    && cluster.chars().all(|c| c.is_ascii_alphabetic())
                    && cluster.contains(&flag[1..])
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn editors_and_prompts_step_aside_only_at_a_terminal() {
        for line in [
            "git commit",
            "git commit -a",
            "git commit --amend",
            "/usr/bin/git -C x commit",
            "git rebase -i HEAD~3",
            "git add -p",
            "docker run -it alpine sh",
            "kubectl exec -ti pod -- sh",
            "npm init",
            "vim x",
        ] {
            assert!(needs_terminal(&cmd(line), true), "{line}");
            assert!(!needs_terminal(&cmd(line), false), "{line}: nobody could answer anyway");
        }
        for line in
            ["git commit -m x", "git commit -am x", "git commit --message=x", "git status", "docker run alpine ls"]
        {
            assert!(!needs_terminal(&cmd(line), true), "{line}");
        }
    }

    #[test]
    fn endless_commands_always_step_aside() {
        for line in ["docker logs -f web", "kubectl logs --follow pod", "kubectl get pods -w", "tail -F log"] {
            assert!(needs_terminal(&cmd(line), false), "{line}");
        }
        assert!(!needs_terminal(&cmd("docker logs web"), false));
        assert!(!needs_terminal(&cmd("kubectl get pods -owide"), false), "a glued value is not a cluster");
        assert!(!needs_terminal(&cmd("cargo test -- -f"), false), "flags after -- belong to the program");
    }

    const A: FileId = FileId { dev: 1, ino: 10 };
    const B: FileId = FileId { dev: 1, ino: 11 };
    const C: FileId = FileId { dev: 1, ino: 12 };

    fn s(id: FileId, kind: Kind) -> Stream {
        Stream { id, kind }
    }

    #[test]
    fn output_to_the_shells_own_stream_is_watched() {
        let shell = Some(Some((A, B)));
        assert!(watched(s(A, Kind::Stream), s(B, Kind::Stream), shell), "agent's separate pipes");
        assert!(watched(s(A, Kind::Stream), s(A, Kind::Stream), shell), "2>&1 into the agent's pipe");
        assert!(watched(s(A, Kind::Terminal), s(A, Kind::Terminal), shell), "a terminal");
        assert!(watched(s(A, Kind::Regular), s(A, Kind::Regular), shell), "an agent's capture file");
        assert!(watched(s(A, Kind::Stream), s(A, Kind::Stream), None), "run directly");
        assert!(watched(s(A, Kind::Stream), s(B, Kind::Stream), None), "run directly, separate pipes");
    }

    #[test]
    fn output_read_by_a_program_or_redirected_is_not() {
        let shell = Some(Some((A, B)));
        assert!(!watched(s(C, Kind::Stream), s(B, Kind::Stream), shell), "pipeline stage or $(…)");
        assert!(!watched(s(A, Kind::Stream), s(C, Kind::Other), shell), "2>/dev/null");
        assert!(!watched(s(C, Kind::Regular), s(B, Kind::Stream), shell), "> data.json");
        assert!(!watched(s(C, Kind::Other), s(C, Kind::Other), shell), ">/dev/null 2>&1");
        assert!(!watched(s(A, Kind::Stream), s(B, Kind::Stream), Some(None)), "shell not inspectable");
        assert!(!watched(s(A, Kind::Stream), s(C, Kind::Other), None), "run directly, 2>/dev/null");
        assert!(watched(s(A, Kind::Terminal), s(A, Kind::Terminal), Some(None)));
    }
}
