//! Files a program opens because a variable of its environment names them,
//! which no word of the command shows:
//! - git appends its trace to the file a trace variable names
//!   (`GIT_TRACE=/abs/f git status` writes f), given an absolute path (a
//!   digit, `1`, `true` are file descriptors, `0`, `false` or nothing turn
//!   it off, a relative name is refused with a warning); a trace2 variable
//!   naming a directory has git write a file of its own naming in it, and
//!   one starting `af_unix:` a socket. `-c trace2.eventTarget=…` and
//!   `GIT_CONFIG_PARAMETERS` are not read for these (git reads trace2
//!   settings from the system and global files only: one `git config
//!   --global` stores there is checked as it is stored, see
//!   [`super::git_config::stored_trace_target`]);
//! - bash, non-interactive, runs the file `BASH_ENV` names before its
//!   script (`bash -c`, `bash script.sh`, a `#!/bin/bash` script any
//!   program may start), and an interactive POSIX shell (`sh -i`, `bash
//!   --posix -i`) the one `ENV` names; both expand the name first,
//!   substitutions included (`BASH_ENV='$(rm -rf qa)' bash -c true` runs
//!   rm);
//! - less runs the command `LESSOPEN` and `LESSCLOSE` give (`|cmd %s`) on
//!   each file it shows, and any program may start less as its pager;
//!   rsync the ones `RSYNC_RSH` and `RSYNC_CONNECT_PROG` give.

use std::path::{Path, PathBuf};

use super::bash::basename;

/// Git's trace variables whose value may name a file (git 2.47's trace.c
/// keys and trace2's targets).
pub(crate) const TRACES: [&str; 13] = [
    "GIT_TRACE",
    "GIT_TRACE_PACK_ACCESS",
    "GIT_TRACE_PACKET",
    "GIT_TRACE_PACKFILE",
    "GIT_TRACE_PERFORMANCE",
    "GIT_TRACE_SETUP",
    "GIT_TRACE_SHALLOW",
    "GIT_TRACE_CURL",
    "GIT_TRACE_REFS",
    "GIT_TRACE_FSMONITOR",
    "GIT_TRACE2",
    "GIT_TRACE2_EVENT",
    "GIT_TRACE2_PERF",
];

/// Variables naming a file a shell runs at start.
pub(crate) const STARTUP: [&str; 2] = ["BASH_ENV", "ENV"];

/// Variables giving a command a program runs: less's input preprocessor, rsync's remote shell
/// and daemon-connection program.
pub(crate) const COMMANDS: [&str; 4] = ["LESSOPEN", "LESSCLOSE", "RSYNC_RSH", "RSYNC_CONNECT_PROG"];

/// The program that runs the command a [`COMMANDS`] variable gives.
pub(crate) fn runner(name: &str) -> &'static str {
    if name.starts_with("RSYNC") { "rsync" } else { "less" }
}

/// What the variable `name` in a command's environment has it do with the
/// file its value names.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Use {
    /// Git writes its trace there; `into_dir`: a directory gets a file of
    /// git's naming (trace2's).
    Trace { into_dir: bool },
    /// A shell expands the value and runs the file it names.
    Startup,
    /// A program runs the value as a command.
    Command,
}

/// What `name` has the command `program` (with `args`, the words after
/// it) do with a file: git's traces for any program, as any may run git;
/// `BASH_ENV` for any, as any may run a bash script; `ENV` for a shell
/// started interactive.
pub(crate) fn use_of(name: &str, program: &str, args: &[&str]) -> Option<Use> {
    if COMMANDS.contains(&name) {
        return Some(Use::Command);
    }
    if TRACES.contains(&name) {
        return Some(Use::Trace { into_dir: name.starts_with("GIT_TRACE2") });
    }
    let interactive_shell = || super::bash::SHELLS.contains(&basename(program)) && interactive(args);
    (name == "BASH_ENV" || (name == "ENV" && interactive_shell())).then_some(Use::Startup)
}

/// The file a trace variable's `value` names: an absolute path (`~/…`
/// too, which the shell expands in an assignment); `None` for a file
/// descriptor, off, a socket, or a relative name git refuses.
pub(crate) fn trace_file(value: &str) -> Option<&str> {
    (value.starts_with('/') || value == "~" || value.starts_with("~/")).then_some(value)
}

/// The file a trace2 variable naming the directory `dir` has git write:
/// one named by its session id (time, host and process), as
/// `20261206T180813.099820Z-H1a2b3c4d-P00004035`, for rules to be
/// matched against.
pub(crate) fn trace2_file_in(dir: &Path) -> PathBuf {
    dir.join("20000101T000000.000000Z-H00000000-P00000000")
}

/// Whether a shell's options (`args`, up to its first operand) include
/// `-i`, alone or among others (`-il`).
fn interactive(args: &[&str]) -> bool {
    let mut words = args.iter();
    while let Some(&word) = words.next() {
        if word == "--" || word == "-" || !word.starts_with(['-', '+']) {
            return false;
        }
        if let Some(long) = word.strip_prefix("--") {
            if matches!(long, "rcfile" | "init-file") {
                words.next();
            }
            continue;
        }
        if word.starts_with('-') && word.contains('i') {
            return true;
        }
        // `-o NAME`, `-O NAME` take the next word.
        for _ in word.chars().filter(|&letter| letter == 'o' || letter == 'O') {
            words.next();
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_programs_a_variable_has_open_a_file() {
        assert_eq!(use_of("GIT_TRACE", "make", &[]), Some(Use::Trace { into_dir: false }));
        assert_eq!(use_of("GIT_TRACE2_EVENT", "git", &["status"]), Some(Use::Trace { into_dir: true }));
        assert_eq!(use_of("GIT_TRACE_REDACT", "git", &[]), None);
        assert_eq!(use_of("BASH_ENV", "./build.sh", &[]), Some(Use::Startup));
        for args in [&["-i"][..], &["-c", "-i", "true"], &["-o", "posix", "-il"], &["--posix", "-i", "-c", "true"]] {
            assert_eq!(use_of("ENV", "/bin/sh", args), Some(Use::Startup), "{args:?}");
        }
        for (program, args) in
            [("sh", &["-c", "true", "-i"][..]), ("sh", &["x.sh", "-i"]), ("npm", &["-i"]), ("sh", &["-o", "i"])]
        {
            assert_eq!(use_of("ENV", program, args), None, "{program} {args:?}");
        }
    }

    #[test]
    fn a_trace_value_names_a_file_when_absolute() {
        assert_eq!(trace_file("/tmp/t"), Some("/tmp/t"));
        assert_eq!(trace_file("~/t"), Some("~/t"));
        for value in ["", "0", "1", "2", "true", "false", "af_unix:/tmp/s", "rel/t"] {
            assert_eq!(trace_file(value), None, "{value}");
        }
    }
}
