//! Wrappers that read their words other than getopt does, so the command
//! they run is checked as any other's (see [`super::wrappers`]):
//! - valgrind and firejail: each word starting with `-` is an option of
//!   its own, a value only after its `=`; the first other word is the
//!   command (firejail's `--chroot`, `--overlay…`, `--private…` and
//!   `--join…` run it among other files: known only when it runs);
//! - gdb: `--args PROGRAM ARGS…`, else its program operand, run by a
//!   `-ex run` of `-batch`; a command `-ex`/`-iex` gives other than running
//!   and inspecting the program (`shell rm x`, `print system("…")`), a
//!   command file (`-x`), or without `-batch` the commands of its input,
//!   may run anything: known only when it runs;
//! - tmux: the shell command `new-session`, `new-window`, `split-window`,
//!   `respawn-pane`/`-window` and `run-shell` are given is a `sh -c`
//!   script (tmux hands it to a shell), in the directory their `-c` names,
//!   as is tmux's own `-c` command; a command typing into a pane or running
//!   others (`send-keys`, `if-shell`, a `;` list…) makes what runs unknown;
//! - screen: the command after its options, as given; `-X`/`-Q` send a
//!   running session commands and `-c` names a file of them: unknown;
//! - sg: `sg [-] GROUP [-c] COMMAND`, one word a shell runs (`sh -c`);
//!   after `-`, a login's, in a directory known only when it runs;
//! - bwrap: options each a word of its own, some taking two values (`--bind
//!   SRC DEST`); the first other word is the command, in the directory
//!   `--chdir` names (from `/`), with the variables `--setenv` sets. One
//!   showing it other files at the paths it names (a bind of a path to
//!   another, a file system over one, `--symlink`, a file it writes from a
//!   descriptor, an overlay, arguments from one, an option not known
//!   here) runs it elsewhere.

use super::wrappers::{Chdir, Output, Run, Wrapped};

pub(crate) const PROGRAMS: [&str; 7] = ["valgrind", "firejail", "gdb", "tmux", "screen", "sg", "bwrap"];

/// What the wrapper `name` runs given `args`; `None` for a program read
/// with getopt's rules or none.
pub(crate) fn run(name: &str, args: &[&str]) -> Option<Wrapped> {
    let (run, chdir, writes) = match name {
        "valgrind" => {
            let (run, writes) = dashed(name, args, &[], &["--log-file=", "--xml-file="]);
            (run, None, writes)
        }
        "firejail" => {
            let elsewhere = ["--chroot", "--overlay", "--private", "--join"];
            let (run, writes) = dashed(name, args, &elsewhere, &["--output=", "--output-stderr="]);
            (run, None, writes)
        }
        "gdb" => (gdb(args), None, Vec::new()),
        "tmux" => {
            let (run, chdir) = tmux(args);
            (run, chdir, Vec::new())
        }
        "screen" => (screen(args), None, Vec::new()),
        "sg" => {
            let (run, chdir) = sg(args);
            (run, chdir, Vec::new())
        }
        "bwrap" => {
            let (run, chdir, sets) = bwrap(args);
            return Some(Wrapped { run, chdir, reads: Vec::new(), writes: Vec::new(), sets });
        }
        _ => return None,
    };
    Some(Wrapped { run, chdir, reads: Vec::new(), writes, sets: Vec::new() })
}

/// A program whose options are each one word (`--log-file=F`): the first
/// other word is the command; an option starting as one of `elsewhere`
/// does runs it among other files; one starting as one of `logs` writes
/// the file it names.
fn dashed(name: &str, args: &[&str], elsewhere: &[&str], logs: &[&str]) -> (Run, Vec<Output>) {
    let mut writes = Vec::new();
    for (at, word) in args.iter().enumerate() {
        match *word {
            "--" => return (args.get(at + 1).map_or(Run::Nothing, |_| Run::Command(at + 1)), writes),
            "-h" | "--help" | "--version" => return (Run::Nothing, writes),
            _ if elsewhere.iter().any(|option| word.starts_with(option)) => {
                return (Run::Unknown(format!("{name} {word}")), writes);
            }
            _ if word.starts_with('-') => {
                if let Some(log) = logs.iter().find(|log| word.starts_with(**log)) {
                    writes.push(Output::Word(at, log.len()));
                }
            }
            _ => return (Run::Command(at), writes),
        }
    }
    (Run::Nothing, writes)
}

/// gdb's options taking the next word as their value (one or two dashes,
/// or an `=`).
const GDB_VALUES: [&str; 24] = [
    "ex",
    "eval-command",
    "iex",
    "init-eval-command",
    "x",
    "command",
    "ix",
    "init-command",
    "p",
    "pid",
    "c",
    "core",
    "cd",
    "d",
    "directory",
    "s",
    "symbols",
    "e",
    "exec",
    "se",
    "b",
    "D",
    "data-directory",
    "tty",
];

/// gdb commands that run or look at the program and nothing else.
const GDB_HARMLESS: [&str; 27] = [
    "run",
    "r",
    "start",
    "starti",
    "bt",
    "backtrace",
    "where",
    "full",
    "info",
    "i",
    "registers",
    "threads",
    "quit",
    "q",
    "continue",
    "c",
    "kill",
    "k",
    "thread",
    "apply",
    "all",
    "frame",
    "f",
    "up",
    "down",
    "next",
    "step",
];

fn gdb(args: &[&str]) -> Run {
    let (mut program, mut batch, mut runs) = (None, false, false);
    let mut at = 0;
    while let Some(&word) = args.get(at) {
        at += 1;
        let Some(option) = word.strip_prefix("--").or_else(|| word.strip_prefix('-')) else {
            program.get_or_insert(at - 1);
            continue;
        };
        let (option, inline) = option.split_once('=').map_or((option, None), |(name, value)| (name, Some(value)));
        match option {
            "args" => {
                program = Some(at);
                break;
            }
            "batch" | "batch-silent" => batch = true,
            "help" | "h" | "version" | "v" => return Run::Nothing,
            "x" | "command" | "ix" | "init-command" => return Run::Unknown(format!("gdb {word} (its commands)")),
            // The program it runs given as its executable file, not as the operand read here.
            "e" | "exec" | "se" => return Run::Unknown(format!("gdb {word} (the program it runs)")),
            _ => {}
        }
        if !GDB_VALUES.contains(&option) {
            continue;
        }
        let value = inline.or_else(|| args.get(at).copied()).unwrap_or_default();
        at += usize::from(inline.is_none());
        if matches!(option, "ex" | "eval-command" | "iex" | "init-eval-command") {
            if !value.split_whitespace().all(|command| GDB_HARMLESS.contains(&command)) {
                return Run::Unknown(format!("gdb {word} '{value}'"));
            }
            runs |= matches!(value.split_whitespace().next(), Some("run" | "r" | "start" | "starti"));
        }
    }
    match program.filter(|&at| at < args.len()) {
        _ if !batch => Run::Unknown("gdb (the commands of its input)".to_string()),
        Some(at) if runs => Run::Command(at),
        _ => Run::Nothing,
    }
}

/// What tmux runs, and where: its `-c` command, or the shell command of
/// one that starts a pane or runs one, in the directory its `-c` names.
fn tmux(args: &[&str]) -> (Run, Option<Chdir>) {
    // tmux ends a command at a word ending in an unescaped `;` as at a `;` alone.
    if args.iter().any(|word| word.ends_with(';') && !word.ends_with("\\;")) {
        return (Run::Unknown("tmux (a list of commands)".to_string()), None);
    }
    let mut at = 0;
    while let Some(&word) = args.get(at).filter(|word| word.starts_with('-')) {
        at += 1;
        if word == "--" {
            break;
        }
        for (i, letter) in word.char_indices().skip(1) {
            match letter {
                'V' => return (Run::Nothing, None),
                'c' | 'f' | 'L' | 'S' | 'T' => {
                    let value = if i + 1 < word.len() { word[i + 1..].to_string() } else { next(args, &mut at) };
                    if letter == 'c' {
                        return (Run::Script(value), None);
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    let Some(&command) = args.get(at) else { return (Run::Nothing, None) };
    let values = match command {
        "new-session" | "new" => "cefFnstxy",
        "new-window" | "neww" => "ceFnt",
        "split-window" | "splitw" => "celtF",
        "respawn-pane" | "respawnp" | "respawn-window" | "respawnw" => "cet",
        "run-shell" | "run" => "cdt",
        "ls" | "list-sessions" | "list-windows" | "lsw" | "list-panes" | "lsp" | "kill-server" | "kill-session"
        | "kill-window" | "killw" | "kill-pane" | "killp" | "has-session" | "has" | "attach" | "attach-session"
        | "a" | "detach" | "detach-client" | "display-message" | "display" | "capture-pane" | "capturep"
        | "start-server" | "start" | "wait-for" | "wait" => return (Run::Nothing, None),
        _ => return (Run::Unknown(format!("tmux {command}")), None),
    };
    let mut chdir = None;
    at += 1;
    while let Some(&word) = args.get(at).filter(|word| word.starts_with('-')) {
        at += 1;
        if word == "--" {
            break;
        }
        for (i, letter) in word.char_indices().skip(1) {
            if values.contains(letter) {
                let from = i + 1;
                let (value_word, value_from) = if from < word.len() { (at - 1, from) } else { (at, 0) };
                at += usize::from(from >= word.len());
                if letter == 'c' && value_word < args.len() {
                    chdir = Some(Chdir::Word(value_word, value_from));
                }
                break;
            }
            // run-shell's `-C` runs a tmux command, not a shell's.
            if letter == 'C' && matches!(command, "run-shell" | "run") {
                return (Run::Unknown(format!("tmux {command} -C")), None);
            }
        }
    }
    // One word is a shell command; several are run as a program and its arguments (no shell reads
    // them, so a `#` among them is no comment), except by run-shell, which always hands a shell.
    match args.get(at..).unwrap_or_default() {
        [] => (Run::Nothing, None),
        [script] => (Run::Script(script.to_string()), chdir),
        _ if matches!(command, "run-shell" | "run") => (Run::Unknown(format!("tmux {command} (several words)")), None),
        _ => (Run::Command(at), chdir),
    }
}

/// The word at `at`, moving past it (empty past the end).
fn next(args: &[&str], at: &mut usize) -> String {
    *at += 1;
    args.get(*at - 1).map_or(String::new(), |word| word.to_string())
}

/// screen's options spelled as words (`-ls`), and of its letters those
/// taking a value (the rest of the word, else the next one).
const SCREEN_WORDS: [&str; 6] = ["-ls", "-list", "-wipe", "-Logfile", "-logfile", "-version"];
const SCREEN_VALUES: &str = "SehptTs";

fn screen(args: &[&str]) -> Run {
    let mut at = 0;
    while let Some(&word) = args.get(at) {
        at += 1;
        if word == "--" {
            break;
        }
        if SCREEN_WORDS.contains(&word) {
            at += usize::from(word.eq_ignore_ascii_case("-logfile"));
            continue;
        }
        let Some(letters) = word.strip_prefix('-') else { return Run::Command(at - 1) };
        for (i, letter) in letters.char_indices() {
            if matches!(letter, 'X' | 'Q' | 'c') {
                return Run::Unknown(format!("screen -{letter}"));
            }
            if SCREEN_VALUES.contains(letter) {
                at += usize::from(i + 1 == letters.len());
                break;
            }
        }
    }
    args.get(at).map_or(Run::Nothing, |_| Run::Command(at))
}

/// `sg [-] GROUP [-c] COMMAND`: the one word sg hands `sh -c`; with
/// none, a shell. `-` starts a login's, which may move.
fn sg(args: &[&str]) -> (Run, Option<Chdir>) {
    let login = args.first() == Some(&"-");
    let rest = &args[usize::from(login)..];
    let command = if rest.get(1) == Some(&"-c") { 2 } else { 1 };
    let run = rest.get(command).map_or(Run::Nothing, |script| Run::Script(script.to_string()));
    (run, login.then_some(Chdir::Unknown))
}

/// bwrap's options taking two values, and one.
const BWRAP_TWO: [&str; 12] = [
    "--bind",
    "--bind-try",
    "--dev-bind",
    "--dev-bind-try",
    "--ro-bind",
    "--ro-bind-try",
    "--setenv",
    "--chmod",
    "--symlink",
    "--file",
    "--bind-data",
    "--ro-bind-data",
];
const BWRAP_ONE: [&str; 29] = [
    "--chdir",
    "--unsetenv",
    "--remount-ro",
    "--exec-label",
    "--file-label",
    "--proc",
    "--dev",
    "--tmpfs",
    "--mqueue",
    "--dir",
    "--lock-file",
    "--sync-fd",
    "--info-fd",
    "--json-status-fd",
    "--block-fd",
    "--userns-block-fd",
    "--seccomp",
    "--add-seccomp-fd",
    "--uid",
    "--gid",
    "--hostname",
    "--cap-add",
    "--cap-drop",
    "--perms",
    "--size",
    "--argv0",
    "--userns",
    "--userns2",
    "--pidns",
];
const BWRAP_NONE: [&str; 17] = [
    "--unshare-all",
    "--share-net",
    "--unshare-user",
    "--unshare-user-try",
    "--unshare-ipc",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-uts",
    "--unshare-cgroup",
    "--unshare-cgroup-try",
    "--die-with-parent",
    "--as-pid-1",
    "--new-session",
    "--clearenv",
    "--disable-userns",
    "--assert-userns-disabled",
    "--level-prefix",
];
/// Of those, the ones making a file appear under another name (a link, or
/// a descriptor's data written where the sandbox may be the host's files).
const BWRAP_RENAMING: [&str; 4] = ["--symlink", "--file", "--bind-data", "--ro-bind-data"];

/// What bwrap runs, where, and the variables it sets: the first word past
/// its options, in the directory `--chdir` names (from `/`, where bwrap
/// stands once the sandbox is set up), else the current one if a bind
/// shows it, else one known only when it runs ($HOME or `/`). A bind of
/// one path to another, a file system mounted over a path, an option
/// renaming files, or one not known here leaves it unknown (the command
/// sees other files at the paths it names).
fn bwrap(args: &[&str]) -> (Run, Option<Chdir>, Vec<(usize, usize)>) {
    let (mut chdir, mut sets, mut shows_cwd) = (None, Vec::new(), false);
    let mut at = 0;
    while let Some(&word) = args.get(at) {
        if word == "--" {
            at += 1;
            break;
        }
        if matches!(word, "--help" | "--version") {
            return (Run::Nothing, None, Vec::new());
        }
        let values = if BWRAP_TWO.contains(&word) {
            2
        } else if BWRAP_ONE.contains(&word) {
            1
        } else if BWRAP_NONE.contains(&word) {
            0
        } else if word.starts_with('-') {
            // An overlay, arguments from a descriptor, or what it may mount: as other files.
            return (Run::Elsewhere(format!("bwrap {word}")), None, Vec::new());
        } else {
            break;
        };
        let Some(given) = args.get(at + 1..at + 1 + values) else { return (Run::Nothing, None, Vec::new()) };
        let binds = word.contains("bind") && !word.contains("data");
        let rebinds = binds && !(given[0] == given[1] && absolute(given[0]));
        // A file system of its own over a path hides the host's files there; proc, devices and
        // message queues where they always are hide none the command is checked against.
        let mounts_over = match word {
            "--tmpfs" => true,
            "--proc" => given[0] != "/proc",
            "--dev" => given[0] != "/dev",
            "--mqueue" => given[0] != "/dev/mqueue",
            _ => false,
        };
        if rebinds || mounts_over || BWRAP_RENAMING.contains(&word) {
            return (Run::Elsewhere(format!("bwrap {word} {}", given.join(" "))), None, Vec::new());
        }
        shows_cwd |= binds && shows_working_directory(given[1]);
        match word {
            "--chdir" => chdir = Some(Chdir::FromRoot(at + 1, 0)),
            "--setenv" => sets.push((at + 1, at + 2)),
            _ => {}
        }
        at += 1 + values;
    }
    let chdir = chdir.or((!shows_cwd).then_some(Chdir::Unknown));
    (args.get(at).map_or(Run::Nothing, |_| Run::Command(at)), chdir, sets)
}

/// Whether a path a sandbox binds to itself is absolute: a relative one is
/// taken from the working directory as the source, from `/` as where it
/// shows it, so `--bind . .` shows the working directory at `/`.
fn absolute(path: &str) -> bool {
    path.starts_with('/') || working_directory_variable(path).is_some()
}

/// Whether a bind to `dest` shows the working directory where it is: the
/// root, or `$PWD` or a path under it (bwrap makes the directories above
/// where it binds a path).
fn shows_working_directory(dest: &str) -> bool {
    dest.trim_end_matches('/').is_empty() || working_directory_variable(dest) == Some("PWD")
}

/// The variable a path starts with when it is `$PWD` or `$HOME`, the
/// shell's absolute directories, or one under them.
fn working_directory_variable(path: &str) -> Option<&'static str> {
    ["PWD", "HOME"].into_iter().find(|name| {
        [format!("${name}"), format!("${{{name}}}")]
            .iter()
            .any(|var| path.strip_prefix(var.as_str()).is_some_and(|rest| rest.is_empty() || rest.starts_with('/')))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(name: &str, line: &str) -> Run {
        run(name, &line.split_whitespace().collect::<Vec<_>>()).expect("a wrapper").run
    }

    #[test]
    fn the_command_each_runs() {
        assert_eq!(runs("valgrind", "-q --leak-check=full rm x"), Run::Command(2));
        assert_eq!(runs("valgrind", "--version"), Run::Nothing);
        assert_eq!(runs("firejail", "--noprofile --quiet rm x"), Run::Command(2));
        assert_eq!(runs("firejail", "--private=/tmp/h rm x"), Run::Unknown("firejail --private=/tmp/h".into()));
        assert_eq!(runs("gdb", "-batch -ex run --args rm x"), Run::Command(4));
        assert_eq!(runs("gdb", "-q -batch -ex=r -ex bt --args rm x"), Run::Command(6));
        assert_eq!(runs("gdb", "-batch -ex run rm"), Run::Command(3));
        assert_eq!(runs("gdb", "-batch --args rm x"), Run::Nothing);
        assert_eq!(runs("gdb", "--args rm x"), Run::Unknown("gdb (the commands of its input)".into()));
        assert_eq!(runs("gdb", "-batch -ex shell --args rm"), Run::Unknown("gdb -ex 'shell'".into()));
        assert_eq!(runs("gdb", "-batch -x cmds rm"), Run::Unknown("gdb -x (its commands)".into()));
        assert_eq!(runs("tmux", "new-session -d rm x"), Run::Command(2));
        assert_eq!(runs("tmux", "-L s new -d -s n -x 80 rm x"), Run::Command(8));
        assert_eq!(run("tmux", &["new-session", "-d", "rm x"]).unwrap().run, Run::Script("rm x".into()));
        assert_eq!(runs("tmux", "-c rm"), Run::Script("rm".into()));
        assert_eq!(runs("tmux", "new-session -d"), Run::Nothing);
        assert_eq!(runs("tmux", "run-shell -b rm"), Run::Script("rm".into()));
        assert_eq!(runs("tmux", "run -C kill-server"), Run::Unknown("tmux run -C".into()));
        assert_eq!(runs("tmux", "send-keys -t s rm Enter"), Run::Unknown("tmux send-keys".into()));
        assert_eq!(runs("tmux", "ls"), Run::Nothing);
        assert_eq!(runs("screen", "-dmS name rm x"), Run::Command(2));
        assert_eq!(runs("screen", "-d -m -S name rm x"), Run::Command(4));
        assert_eq!(runs("screen", "-S name -X stuff x"), Run::Unknown("screen -X".into()));
        assert_eq!(runs("screen", "-Sname -dm rm"), Run::Command(2));
        assert_eq!(runs("screen", "-ls"), Run::Nothing);
        let chdir = run("tmux", &["new", "-d", "-c", "qa", "cat", "x"]).unwrap().chdir;
        assert_eq!(chdir, Some(Chdir::Word(3, 0)));
        assert_eq!(runs("sg", "wheel -c rm"), Run::Script("rm".into()));
        assert_eq!(runs("sg", "- wheel rm"), Run::Script("rm".into()));
        assert_eq!(runs("sg", "wheel"), Run::Nothing);
        assert_eq!(runs("bwrap", "--ro-bind / / --dev /dev --unshare-net rm x"), Run::Command(6));
        assert_eq!(runs("bwrap", "--bind / / --setenv A 1 -- rm"), Run::Command(7));
        assert_eq!(runs("bwrap", "--bind /tmp /proj rm"), Run::Elsewhere("bwrap --bind /tmp /proj".into()));
        assert_eq!(runs("bwrap", "--bind . . rm"), Run::Elsewhere("bwrap --bind . .".into()));
        assert_eq!(runs("bwrap", "--bind / / --tmpfs /tmp rm"), Run::Elsewhere("bwrap --tmpfs /tmp".into()));
        assert_eq!(runs("bwrap", "--bind / / --proc /x rm"), Run::Elsewhere("bwrap --proc /x".into()));
        assert_eq!(runs("bwrap", "--bind $PWD $PWD --proc /proc --dev /dev rm"), Run::Command(7));
        assert_eq!(runs("bwrap", "--symlink a b rm"), Run::Elsewhere("bwrap --symlink a b".into()));
        assert_eq!(runs("bwrap", "--frobnicate rm"), Run::Elsewhere("bwrap --frobnicate".into()));
        assert_eq!(runs("bwrap", "--overlay-src /a --tmp-overlay /b rm"), Run::Elsewhere("bwrap --overlay-src".into()));
        assert_eq!(runs("bwrap", "--bind /"), Run::Nothing);
        let chdir = run("bwrap", &["--bind", "/", "/", "--chdir", "qa", "cat", "x"]).unwrap().chdir;
        assert_eq!(chdir, Some(Chdir::FromRoot(4, 0)));
    }

    #[test]
    fn bwrap_stays_in_the_working_directory_where_a_bind_shows_it_and_sets_variables() {
        let bwrap = |line: &str| run("bwrap", &line.split_whitespace().collect::<Vec<_>>()).expect("a wrapper");
        assert_eq!(bwrap("--ro-bind / / cat x").chdir, None);
        assert_eq!(bwrap("--ro-bind ${PWD}/.. ${PWD}/.. cat x").chdir, None);
        assert_eq!(bwrap("--ro-bind /usr /usr cat x").chdir, Some(Chdir::Unknown));
        assert_eq!(bwrap("--ro-bind $HOME $HOME cat x").chdir, Some(Chdir::Unknown));
        assert_eq!(bwrap("--bind / / --setenv A 1 --unshare-net --setenv B 2 env").sets, [(4, 5), (8, 9)]);
    }
}
