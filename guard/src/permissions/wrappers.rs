//! Programs that run a command given after their options, read as the
//! program reads its own arguments (getopt's rules, each program's options
//! as its `--help` lists them, sudo's as its manual does, bash's builtins'
//! as bash reads them), so the command they run is checked like any
//! other: `sudo -u me rm x`, `env -i A=1 rm x`, `timeout 5 rm x`, `xargs
//! -0 rm`, `setsid rm x`, `flock f rm x`, `flock f -c 'rm x'`, `su -c 'rm
//! x'`, `watch rm x` (its words are a `sh -c` script), `busybox rm x`,
//! `strace -f -o log rm x`, `prlimit --nofile=1024 rm x`, `setpriv`,
//! `fakeroot`, `numactl`, `catchsegv`, `chroot / rm x`, `pkexec rm x` (in
//! the user's home but with `--keep-cwd`), `unbuffer rm x`,
//! `dbus-run-session -- rm x` (its `--config-file` read), `proot rm x`
//! (another root, or a path bound under another name, unknown)… Those
//! reading their words other than getopt does (valgrind, firejail, gdb,
//! tmux, screen, sg, bwrap) are read in [`super::own_syntax`].
//!
//! An option a program does not list leaves what it runs unknown: reading
//! past it as a flag could take its value for the command (`sudo -c class
//! rm x` would be `class` run by sudo, or `x` run by `rm`), so the guard
//! does not guess. So does one running the command elsewhere (`sudo -R
//! DIR`, another root) or editing files (`sudo -e`), and parallel given no
//! command, which runs the lines of its input or its `:::` words.

use super::own_syntax;

/// What a wrapper runs, from the words after its name.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Run {
    /// The command starting at this word.
    Command(usize),
    /// A script a shell runs (`su -c 'rm x'`, watch's words joined).
    Script(String),
    /// No command: it reports, acts on a running process (`taskset -p`),
    /// or starts an interactive shell.
    Nothing,
    /// An option it does not take, or one it runs elsewhere with (another
    /// root or host, another process's namespaces), as written.
    Unknown(String),
    /// env's `-S`: the command its string (this word, from this byte)
    /// splits into, followed by the words after it.
    Split(usize, usize),
    /// A command run where the paths it names are not the host's (another
    /// root, a path bound under another name), as written: neither the
    /// program nor the files it reads and writes can be checked.
    Elsewhere(String),
}

/// Where a wrapper runs its command, when an option says.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Chdir {
    /// The directory this word names, from this byte.
    Word(usize, usize),
    /// As [`Chdir::Word`], a relative name taken from `/` (bwrap's
    /// `--chdir`, given once it stands at the sandbox's root).
    FromRoot(usize, usize),
    /// A directory known only when it runs (a service's).
    Unknown,
}

/// A file a wrapper reads or writes itself: `xargs -a F`, `time -o F`,
/// script's log.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Output {
    /// The file this word names, from this byte.
    Word(usize, usize),
    /// One it writes when none is given (script's `typescript`).
    Default(&'static str),
}

/// What a wrapper does with its words.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Wrapped {
    pub(crate) run: Run,
    pub(crate) chdir: Option<Chdir>,
    /// The files it reads its arguments from (`xargs -a F`).
    pub(crate) reads: Vec<Output>,
    pub(crate) writes: Vec<Output>,
    /// The variables it sets for the command, each the word naming it and
    /// the word of its value (bwrap's `--setenv NAME VALUE`).
    pub(crate) sets: Vec<(usize, usize)>,
}

/// Whether `name` is a program this module reads.
pub(crate) fn is_wrapper(name: &str) -> bool {
    PROGRAMS.iter().any(|(program, _)| *program == name) || own_syntax::PROGRAMS.contains(&name)
}

/// How an option takes a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Takes {
    Nothing,
    /// In the rest of its word or the next one.
    Value,
    /// Only in the rest of its word (`-d=x` or `-dx`, `--wd=dir`).
    Optional,
    /// As [`Takes::Value`], and the program reads its value in place of
    /// the words after it, which are none of its options (env's `-S`).
    Splice,
}

/// One option: its short letter (`' '` for none), its long name, how it
/// takes a value.
type Opt = (char, &'static str, Takes);

/// A program's options, whether they may follow operands (GNU getopt
/// permutes unless the program asks it not to, as most wrappers do), and
/// whether a long one may be cut short (`--time` for `--timeout`).
struct Options {
    options: &'static [Opt],
    permute: bool,
    abbreviate: bool,
}

use Takes::{Nothing as N, Optional as O, Splice, Value as V};

static PROGRAMS: [(&str, Options); 39] = [
    ("sudo", Options { options: SUDO, permute: false, abbreviate: true }),
    ("env", Options { options: ENV, permute: false, abbreviate: true }),
    (
        "timeout",
        Options {
            options: &[
                (' ', "preserve-status", N),
                (' ', "foreground", N),
                ('k', "kill-after", V),
                ('s', "signal", V),
                ('v', "verbose", N),
            ],
            permute: false,
            abbreviate: true,
        },
    ),
    ("nice", Options { options: &[('n', "adjustment", V)], permute: false, abbreviate: true }),
    ("nohup", Options { options: &[], permute: false, abbreviate: true }),
    // Bash's builtins: short options only, none after an operand.
    ("command", Options { options: &[('p', "", N), ('v', "", N), ('V', "", N)], permute: false, abbreviate: false }),
    ("builtin", Options { options: &[], permute: false, abbreviate: false }),
    // Bash's reserved word: `coproc COMMAND…`, or `coproc [NAME] { …; }` (or `( … )`), run in a
    // subshell; it takes no options, so a word starting with `-` is the command's.
    ("coproc", Options { options: &[], permute: false, abbreviate: false }),
    ("exec", Options { options: &[('a', "", V), ('c', "", N), ('l', "", N)], permute: false, abbreviate: false }),
    ("xargs", Options { options: XARGS, permute: false, abbreviate: true }),
    // Options it does not list here are many; as it may have another one a
    // name cut short stands for, none is taken cut short.
    ("parallel", Options { options: PARALLEL, permute: false, abbreviate: false }),
    (
        "setsid",
        Options { options: &[('c', "ctty", N), ('f', "fork", N), ('w', "wait", N)], permute: false, abbreviate: true },
    ),
    (
        "flock",
        Options {
            options: &[
                ('s', "shared", N),
                ('x', "exclusive", N),
                ('e', "exclusive", N),
                ('u', "unlock", N),
                ('n', "nonblock", N),
                ('n', "nb", N),
                ('w', "timeout", V),
                ('w', "wait", V),
                ('E', "conflict-exit-code", V),
                ('o', "close", N),
                ('F', "no-fork", N),
                (' ', "verbose", N),
            ],
            permute: false,
            abbreviate: true,
        },
    ),
    (
        "chrt",
        Options {
            options: &[
                ('b', "batch", N),
                ('d', "deadline", N),
                ('f', "fifo", N),
                ('i', "idle", N),
                ('o', "other", N),
                ('r', "rr", N),
                ('R', "reset-on-fork", N),
                ('T', "sched-runtime", V),
                ('P', "sched-period", V),
                ('D', "sched-deadline", V),
                ('a', "all-tasks", N),
                ('m', "max", N),
                ('p', "pid", N),
                ('v', "verbose", N),
            ],
            permute: false,
            abbreviate: true,
        },
    ),
    (
        "taskset",
        Options {
            options: &[('a', "all-tasks", N), ('p', "pid", N), ('c', "cpu-list", N)],
            permute: false,
            abbreviate: true,
        },
    ),
    (
        "ionice",
        Options {
            options: &[
                ('c', "class", V),
                ('n', "classdata", V),
                ('p', "pid", V),
                ('P', "pgid", V),
                ('u', "uid", V),
                ('t', "ignore", N),
            ],
            permute: false,
            abbreviate: true,
        },
    ),
    (
        "stdbuf",
        Options {
            options: &[('i', "input", V), ('o', "output", V), ('e', "error", V)],
            permute: false,
            abbreviate: true,
        },
    ),
    (
        "watch",
        Options {
            options: &[
                ('b', "beep", N),
                ('c', "color", N),
                ('C', "no-color", N),
                ('d', "differences", O),
                ('e', "errexit", N),
                ('g', "chgexit", N),
                ('q', "equexit", V),
                ('n', "interval", V),
                ('p', "precise", N),
                ('r', "no-rerun", N),
                ('t', "no-title", N),
                ('w', "no-wrap", N),
                ('x', "exec", N),
                ('v', "version", N),
            ],
            permute: false,
            abbreviate: true,
        },
    ),
    ("su", Options { options: SU, permute: true, abbreviate: true }),
    ("runuser", Options { options: RUNUSER, permute: true, abbreviate: true }),
    (
        "script",
        Options {
            options: &[
                ('I', "log-in", V),
                ('O', "log-out", V),
                ('B', "log-io", V),
                ('T', "log-timing", V),
                ('t', "timing", O),
                ('m', "logging-format", V),
                ('a', "append", N),
                ('c', "command", V),
                ('e', "return", N),
                ('f', "flush", N),
                (' ', "force", N),
                ('E', "echo", V),
                ('o', "output-limit", V),
                ('q', "quiet", N),
            ],
            permute: true,
            abbreviate: true,
        },
    ),
    ("busybox", Options { options: &[], permute: false, abbreviate: true }),
    (
        "unshare",
        Options {
            options: &[
                ('m', "mount", O),
                ('u', "uts", O),
                ('i', "ipc", O),
                ('n', "net", O),
                ('p', "pid", O),
                ('U', "user", O),
                ('C', "cgroup", O),
                ('T', "time", O),
                ('f', "fork", N),
                (' ', "map-user", V),
                (' ', "map-group", V),
                ('r', "map-root-user", N),
                ('c', "map-current-user", N),
                (' ', "map-auto", N),
                (' ', "map-users", V),
                (' ', "map-groups", V),
                (' ', "kill-child", O),
                (' ', "mount-proc", O),
                (' ', "propagation", V),
                (' ', "setgroups", V),
                (' ', "keep-caps", N),
                ('R', "root", V),
                ('w', "wd", V),
                ('S', "setuid", V),
                ('G', "setgid", V),
                (' ', "monotonic", V),
                (' ', "boottime", V),
            ],
            permute: false,
            abbreviate: true,
        },
    ),
    (
        "nsenter",
        Options {
            options: &[
                ('a', "all", N),
                ('t', "target", V),
                ('m', "mount", O),
                ('u', "uts", O),
                ('i', "ipc", O),
                ('n', "net", O),
                ('p', "pid", O),
                ('C', "cgroup", O),
                ('U', "user", O),
                ('T', "time", O),
                ('S', "setuid", V),
                ('G', "setgid", V),
                (' ', "preserve-credentials", N),
                ('r', "root", O),
                ('w', "wd", O),
                ('W', "wdns", V),
                ('F', "no-fork", N),
                ('Z', "follow-context", N),
            ],
            permute: false,
            abbreviate: true,
        },
    ),
    ("systemd-run", Options { options: SYSTEMD_RUN, permute: false, abbreviate: true }),
    (
        "time",
        Options {
            options: &[
                ('a', "append", N),
                ('f', "format", V),
                ('o', "output", V),
                ('p', "portability", N),
                ('q', "quiet", N),
                ('v', "verbose", N),
            ],
            permute: false,
            abbreviate: true,
        },
    ),
    (
        "doas",
        Options {
            options: &[('a', "", V), ('C', "", V), ('L', "", N), ('n', "", N), ('s', "", N), ('u', "", V)],
            permute: false,
            abbreviate: true,
        },
    ),
    // Tracers, sandboxes and resource setters that run their command (`+` in their getopt strings:
    // options before it only).
    ("strace", Options { options: STRACE, permute: false, abbreviate: true }),
    ("ltrace", Options { options: LTRACE, permute: false, abbreviate: true }),
    ("setpriv", Options { options: SETPRIV, permute: false, abbreviate: true }),
    ("prlimit", Options { options: PRLIMIT, permute: false, abbreviate: true }),
    (
        "fakeroot",
        Options {
            options: &[
                ('l', "lib", V),
                (' ', "faked", V),
                ('i', "", V),
                ('s', "", V),
                ('u', "unknown-is-real", N),
                ('b', "fd-base", V),
                ('v', "version", N),
            ],
            permute: false,
            abbreviate: true,
        },
    ),
    (
        "chroot",
        Options {
            options: &[(' ', "groups", V), (' ', "userspec", V), (' ', "skip-chdir", N)],
            permute: false,
            abbreviate: true,
        },
    ),
    (
        "numactl",
        Options {
            options: &[
                ('a', "all", N),
                ('i', "interleave", V),
                ('w', "weighted-interleave", V),
                ('p', "preferred", V),
                ('P', "preferred-many", V),
                ('C', "physcpubind", V),
                ('N', "cpunodebind", V),
                ('m', "membind", V),
                ('l', "localalloc", N),
                ('b', "balancing", N),
                ('s', "show", N),
                ('H', "hardware", N),
            ],
            permute: false,
            abbreviate: true,
        },
    ),
    ("catchsegv", Options { options: &[], permute: false, abbreviate: true }),
    // Options matched whole, each a word of its own.
    (
        "pkexec",
        Options {
            options: &[('u', "user", V), (' ', "disable-internal-agent", N), (' ', "keep-cwd", N)],
            permute: false,
            abbreviate: false,
        },
    ),
    ("unbuffer", Options { options: &[('p', "", N)], permute: false, abbreviate: false }),
    (
        "dbus-run-session",
        Options { options: &[(' ', "config-file", V), (' ', "dbus-daemon", V)], permute: false, abbreviate: false },
    ),
    ("proot", Options { options: PROOT, permute: false, abbreviate: false }),
];

/// proot 5's options (`-b` and `-m` alike bind a path, `HOST[:GUEST]`).
const PROOT: &[Opt] = &[
    ('r', "rootfs", V),
    ('b', "bind", V),
    ('m', "mount", V),
    ('q', "qemu", V),
    ('w', "pwd", V),
    (' ', "cwd", V),
    ('k', "kernel-release", V),
    ('0', "root-id", N),
    ('i', "change-id", V),
    ('v', "verbose", V),
    ('R', "", V),
    ('S', "", V),
    ('L', "link2symlink", N),
    ('n', "netcoop", N),
    ('p', "port", V),
    (' ', "kill-on-exit", N),
];

/// strace 6's (`+a:Ab:cCdDe:E:fFhiI:kno:O:p:P:qrs:S:tTu:U:vVwxX:yYzZ`) and the
/// long names its manual lists.
const STRACE: &[Opt] = &[
    ('a', "columns", V),
    ('A', "", N),
    ('b', "detach-on", V),
    ('c', "summary-only", N),
    ('C', "summary", N),
    ('d', "debug", N),
    ('D', "daemonize", O),
    ('e', "", V),
    (' ', "trace", V),
    (' ', "signal", V),
    (' ', "status", V),
    (' ', "trace-fds", V),
    (' ', "abbrev", V),
    (' ', "verbose", V),
    (' ', "raw", V),
    (' ', "read", V),
    (' ', "write", V),
    (' ', "inject", V),
    (' ', "fault", V),
    ('E', "env", V),
    ('f', "follow-forks", N),
    ('F', "", N),
    (' ', "output-separately", N),
    ('i', "instruction-pointer", N),
    ('I', "interruptible", V),
    ('k', "stack-trace", N),
    ('n', "syscall-number", N),
    ('o', "output", V),
    ('O', "summary-syscall-overhead", V),
    ('p', "attach", V),
    ('P', "trace-path", V),
    ('q', "quiet", O),
    ('r', "relative-timestamps", O),
    ('s', "string-limit", V),
    ('S', "summary-sort-by", V),
    ('t', "absolute-timestamps", O),
    ('T', "syscall-times", O),
    ('u', "user", V),
    ('U', "summary-columns", V),
    ('v', "no-abbrev", N),
    ('w', "summary-wall-clock", N),
    ('x', "strings-in-hex", O),
    ('X', "const-print-style", V),
    ('y', "decode-fds", O),
    ('Y', "decode-pids", O),
    ('z', "successful-only", N),
    ('Z', "failed-only", N),
    (' ', "seccomp-bpf", N),
    (' ', "timestamps", O),
];

/// ltrace 0.7's (`+cfhiLrStTVa:A:D:e:F:l:n:o:p:s:u:x:X:w:`).
const LTRACE: &[Opt] = &[
    ('a', "align", V),
    ('A', "", V),
    ('b', "no-signals", N),
    ('c', "", N),
    ('C', "demangle", N),
    ('D', "debug", V),
    ('e', "", V),
    ('f', "", N),
    ('F', "config", V),
    ('i', "", N),
    ('l', "library", V),
    ('L', "", N),
    ('n', "indent", V),
    ('o', "output", V),
    ('p', "", V),
    ('r', "", N),
    ('s', "", V),
    ('S', "", N),
    ('t', "", N),
    ('T', "", N),
    ('u', "", V),
    ('w', "where", V),
    ('x', "", V),
];

/// util-linux setpriv's.
const SETPRIV: &[Opt] = &[
    ('d', "dump", N),
    (' ', "clear-groups", N),
    (' ', "groups", V),
    (' ', "inh-caps", V),
    (' ', "ambient-caps", V),
    (' ', "bounding-set", V),
    (' ', "keep-groups", N),
    (' ', "init-groups", N),
    (' ', "list-caps", N),
    (' ', "no-new-privs", N),
    (' ', "regid", V),
    (' ', "reuid", V),
    (' ', "rgid", V),
    (' ', "ruid", V),
    (' ', "egid", V),
    (' ', "euid", V),
    (' ', "securebits", V),
    (' ', "pdeathsig", V),
    (' ', "selinux-label", V),
    (' ', "apparmor-profile", V),
    (' ', "landlock-access", V),
    (' ', "landlock-rule", V),
    (' ', "reset-env", N),
];

/// util-linux prlimit's: each resource's limit is optional, attached.
const PRLIMIT: &[Opt] = &[
    ('p', "pid", V),
    ('o', "output", V),
    (' ', "noheadings", N),
    (' ', "raw", N),
    (' ', "verbose", N),
    ('c', "core", O),
    ('d', "data", O),
    ('e', "nice", O),
    ('f', "fsize", O),
    ('i', "sigpending", O),
    ('l', "memlock", O),
    ('m', "rss", O),
    ('n', "nofile", O),
    ('q', "msgqueue", O),
    ('r', "rtprio", O),
    ('s', "stack", O),
    ('t', "cpu", O),
    ('u', "nproc", O),
    ('v', "as", O),
    ('x', "locks", O),
    ('y', "rttime", O),
];

/// sudo 1.9's (`+Aa:BbC:c:D:Eeg:Hh::iKklNnPp:R:r:SsT:t:U:u:Vv`); its
/// `-h` takes the next word as a host unless that is an option.
const SUDO: &[Opt] = &[
    ('A', "askpass", N),
    ('a', "auth-type", V),
    ('B', "bell", N),
    ('b', "background", N),
    ('C', "close-from", V),
    ('c', "login-class", V),
    ('D', "chdir", V),
    ('E', "", N),
    (' ', "preserve-env", O),
    ('e', "edit", N),
    ('g', "group", V),
    ('H', "set-home", N),
    ('h', "host", V),
    (' ', "help", N),
    ('i', "login", N),
    ('K', "remove-timestamp", N),
    ('k', "reset-timestamp", N),
    ('l', "list", N),
    ('N', "no-update", N),
    ('n', "non-interactive", N),
    ('P', "preserve-groups", N),
    ('p', "prompt", V),
    ('R', "chroot", V),
    ('r', "role", V),
    ('S', "stdin", N),
    ('s', "shell", N),
    ('T', "command-timeout", V),
    ('t', "type", V),
    ('U', "other-user", V),
    ('u', "user", V),
    ('v', "validate", N),
];

const ENV: &[Opt] = &[
    ('i', "ignore-environment", N),
    ('0', "null", N),
    ('u', "unset", V),
    ('C', "chdir", V),
    ('S', "split-string", Splice),
    (' ', "block-signal", O),
    (' ', "default-signal", O),
    (' ', "ignore-signal", O),
    (' ', "list-signal-handling", N),
    ('v', "debug", N),
];

const XARGS: &[Opt] = &[
    ('0', "null", N),
    ('a', "arg-file", V),
    ('d', "delimiter", V),
    ('E', "", V),
    ('e', "eof", O),
    ('I', "", V),
    ('i', "replace", O),
    ('L', "max-lines", V),
    ('l', "", O),
    ('n', "max-args", V),
    ('o', "open-tty", N),
    ('P', "max-procs", V),
    ('p', "interactive", N),
    (' ', "process-slot-var", V),
    ('r', "no-run-if-empty", N),
    ('s', "max-chars", V),
    (' ', "show-limits", N),
    ('t', "verbose", N),
    ('x', "exit", N),
];

/// GNU parallel's commonest, from its option table (each alias its own
/// entry, as none is taken cut short).
const PARALLEL: &[Opt] = &[
    ('j', "jobs", V),
    ('S', "sshlogin", V),
    ('P', "max-procs", V),
    ('k', "keep-order", N),
    (' ', "keeporder", N),
    ('X', "", N),
    ('m', "", N),
    (' ', "xargs", N),
    ('v', "", N),
    ('t', "verbose", N),
    ('0', "null", N),
    ('a', "arg-file", V),
    (' ', "argfile", V),
    ('d', "delimiter", V),
    ('n', "max-args", V),
    ('N', "max-replace-args", V),
    ('L', "", V),
    ('l', "max-lines", O),
    ('I', "", V),
    ('i', "replace", O),
    ('E', "", V),
    ('e', "eof", O),
    ('C', "colsep", V),
    (' ', "col-sep", V),
    ('s', "max-chars", V),
    ('q', "quote", N),
    ('u', "ungroup", N),
    ('r', "no-run-if-empty", N),
    (' ', "line-buffer", N),
    (' ', "lb", N),
    (' ', "tag", N),
    (' ', "tagstring", V),
    (' ', "tag-string", V),
    (' ', "bar", N),
    (' ', "progress", N),
    (' ', "eta", N),
    (' ', "dry-run", N),
    (' ', "dryrun", N),
    (' ', "joblog", V),
    (' ', "results", V),
    (' ', "delay", V),
    (' ', "retries", V),
    (' ', "timeout", V),
    (' ', "tmpdir", V),
    (' ', "pipe", N),
    (' ', "block", V),
    (' ', "header", V),
    (' ', "plus", N),
    (' ', "silent", N),
    (' ', "will-cite", N),
];

const SU: &[Opt] = &[
    ('m', "preserve-environment", N),
    ('p', "preserve-environment", N),
    ('w', "whitelist-environment", V),
    ('g', "group", V),
    ('G', "supp-group", V),
    ('l', "login", N),
    ('c', "command", V),
    (' ', "session-command", V),
    ('f', "fast", N),
    ('s', "shell", V),
    ('P', "pty", N),
];

const RUNUSER: &[Opt] = &[
    ('m', "preserve-environment", N),
    ('p', "preserve-environment", N),
    ('w', "whitelist-environment", V),
    ('g', "group", V),
    ('G', "supp-group", V),
    ('l', "login", N),
    ('c', "command", V),
    (' ', "session-command", V),
    ('f', "fast", N),
    ('s', "shell", V),
    ('P', "pty", N),
    ('u', "user", V),
];

const SYSTEMD_RUN: &[Opt] = &[
    (' ', "no-ask-password", N),
    (' ', "user", N),
    (' ', "system", N),
    ('H', "host", V),
    ('M', "machine", V),
    (' ', "scope", N),
    ('u', "unit", V),
    ('p', "property", V),
    (' ', "description", V),
    (' ', "slice", V),
    (' ', "slice-inherit", N),
    (' ', "no-block", N),
    ('r', "remain-after-exit", N),
    (' ', "wait", N),
    (' ', "send-sighup", N),
    (' ', "service-type", V),
    (' ', "uid", V),
    (' ', "gid", V),
    (' ', "nice", V),
    (' ', "working-directory", V),
    ('d', "same-dir", N),
    ('E', "setenv", V),
    ('t', "pty", N),
    ('P', "pipe", N),
    ('q', "quiet", N),
    ('G', "collect", N),
    ('S', "shell", N),
    (' ', "path-property", V),
    (' ', "socket-property", V),
    (' ', "on-active", V),
    (' ', "on-boot", V),
    (' ', "on-startup", V),
    (' ', "on-unit-active", V),
    (' ', "on-unit-inactive", V),
    (' ', "on-calendar", V),
    (' ', "on-timezone-change", N),
    (' ', "on-clock-change", N),
    (' ', "timer-property", V),
];

/// Options every one of them takes and that run nothing.
static REPORTS: [Opt; 2] = [('h', "help", N), ('V', "version", N)];

/// The options given and the operands, as indexes of the words.
#[derive(Default)]
struct Parsed {
    /// Each option given, with where its value is: word and byte.
    options: Vec<(&'static Opt, Option<(usize, usize)>)>,
    operands: Vec<usize>,
}

impl Parsed {
    /// Whether an option was given, named by its long name or (for one
    /// without) its letter.
    fn has(&self, name: &str) -> bool {
        self.options.iter().any(|(opt, _)| is(opt, name))
    }

    /// The last value given to an option named so.
    fn value(&self, name: &str) -> Option<(usize, usize)> {
        self.values(name).last()
    }

    /// Every value given to an option named so, in order.
    fn values(&self, name: &str) -> impl Iterator<Item = (usize, usize)> {
        self.options.iter().filter(move |(opt, _)| is(opt, name)).filter_map(|(_, value)| *value)
    }

    /// Read from `by` words on: its indexes are `by` more.
    fn shifted(mut self, by: usize) -> Parsed {
        self.options.iter_mut().flat_map(|(_, value)| value).for_each(|(word, _)| *word += by);
        self.operands.iter_mut().for_each(|at| *at += by);
        self
    }
}

fn is(opt: &Opt, name: &str) -> bool {
    if opt.1.is_empty() { name.len() == 1 && name.starts_with(opt.0) } else { opt.1 == name }
}

/// Reads `args` as getopt_long does with `spec`; `Err` names the first
/// word it does not take (an unknown or ambiguous option, one missing its
/// value).
fn parse(spec: &'static Options, args: &[&str]) -> Result<Parsed, String> {
    let all = || spec.options.iter().chain(&REPORTS);
    let mut parsed = Parsed::default();
    let mut at = 0;
    while let Some(&word) = args.get(at) {
        at += 1;
        if word == "--" {
            parsed.operands.extend(at..args.len());
            break;
        }
        if !word.starts_with('-') || word == "-" {
            parsed.operands.push(at - 1);
            if !spec.permute {
                parsed.operands.extend(at..args.len());
                break;
            }
            continue;
        }
        if let Some(long) = word.strip_prefix("--") {
            let (given, inline) = long.split_once('=').map_or((long, None), |(name, _)| (name, Some(name.len() + 3)));
            // getopt takes a unique prefix of a long name (`--time` for `--timeout`).
            let exact = all().find(|opt| !opt.1.is_empty() && opt.1 == given);
            let mut prefixed = all().filter(|opt| spec.abbreviate && !opt.1.is_empty() && opt.1.starts_with(given));
            let opt = match (exact, prefixed.next()) {
                (Some(opt), _) => opt,
                (None, Some(opt)) if prefixed.all(|other| other.1 == opt.1) => opt,
                _ => return Err(word.to_string()),
            };
            let value = match (opt.2, inline) {
                (N, Some(_)) => return Err(word.to_string()),
                (N, None) | (O, None) => None,
                (_, Some(from)) => Some((at - 1, from)),
                (V | Splice, None) if at < args.len() => {
                    at += 1;
                    Some((at - 1, 0))
                }
                (V | Splice, None) => return Err(word.to_string()),
            };
            parsed.options.push((opt, value));
            if opt.2 == Splice {
                parsed.operands.extend(at..args.len());
                return Ok(parsed);
            }
            continue;
        }
        for (i, letter) in word.char_indices().skip(1) {
            let Some(opt) = all().find(|opt| opt.0 == letter) else { return Err(word.to_string()) };
            let rest = i + letter.len_utf8();
            let value = match opt.2 {
                N => None,
                _ if rest < word.len() => Some((at - 1, rest)),
                O => None,
                V | Splice if at < args.len() => {
                    at += 1;
                    Some((at - 1, 0))
                }
                V | Splice => return Err(word.to_string()),
            };
            parsed.options.push((opt, value));
            if opt.2 == Splice {
                parsed.operands.extend(at..args.len());
                return Ok(parsed);
            }
            if value.is_some() || opt.2 == O {
                break;
            }
        }
    }
    Ok(parsed)
}

/// Whether chrt takes `word` as a priority, as strtol does with base 10
/// (leading white space, a sign: ` 0`, `+0`, `-0`); past it is the command.
fn is_number(word: &str) -> bool {
    let trimmed = word.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let digits = trimmed.strip_prefix(['+', '-']).unwrap_or(trimmed);
    !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit())
}

/// What the wrapper `name` runs given `args`, the words after it; `None`
/// for a program this module does not read.
pub(crate) fn run(name: &str, args: &[&str]) -> Option<Wrapped> {
    let wrapped =
        |run: Run| Some(Wrapped { run, chdir: None, reads: Vec::new(), writes: Vec::new(), sets: Vec::new() });
    if let Some(wrapped) = own_syntax::run(name, args) {
        return Some(wrapped);
    }
    let (_, spec) = PROGRAMS.iter().find(|(program, _)| *program == name)?;
    // nice's old form comes first: `nice -10 cmd`, `nice --5 cmd`.
    let legacy = usize::from(name == "nice" && args.first().is_some_and(|word| is_adjustment(word)));
    let parsed = match parse(spec, &args[legacy..]) {
        Ok(parsed) => parsed.shifted(legacy),
        // sudo's `-h` with no word after it for a host is its help.
        Err(word) if name == "sudo" && word == "-h" => return wrapped(Run::Nothing),
        Err(word) => return wrapped(Run::Unknown(format!("{name} {word}"))),
    };
    if parsed.has("help") || parsed.has("version") {
        return wrapped(Run::Nothing);
    }
    let elsewhere = |options: &[&str]| {
        let found = options.iter().find(|option| parsed.has(option))?;
        let option = if found.len() == 1 { format!("-{found}") } else { format!("--{found}") };
        Some(Run::Unknown(format!("{name} {option}")))
    };
    let value = |option: &str| parsed.value(option).map(|(word, from)| args[word][from..].to_string());
    let first = parsed.operands.first().copied();
    let command = |at: Option<usize>| at.filter(|&at| at < args.len()).map_or(Run::Nothing, Run::Command);
    // env and sudo take each `NAME=value` before the command as a variable, whatever characters
    // NAME has (`env 'A-B=1' cmd`, `env 'BASH_FUNC_f%%=() { …; }' cmd`), not as the command.
    let past_variables =
        |at: Option<usize>| at.map(|at| (at..args.len()).find(|&i| !args[i].contains('=')).unwrap_or(args.len()));
    // su's and runuser's login shell starts in the user's home.
    let login = parsed.has("login") || parsed.operands.first().is_some_and(|&at| args[at] == "-");
    let mut chdir = (matches!(name, "su" | "runuser") && login).then_some(Chdir::Unknown);
    // sudo's login shell starts in the user's home; its `-D` and env's `-C` name the directory
    // (for env's `-S`, the command its string makes is given `-C` again).
    if matches!(name, "sudo" | "env") {
        chdir = match parsed.value("chdir") {
            _ if parsed.has("split-string") => None,
            _ if parsed.has("login") => Some(Chdir::Unknown),
            Some((word, from)) => Some(Chdir::Word(word, from)),
            None => None,
        };
    }
    let run = match name {
        // `flock FILE COMMAND…`, `flock FILE -c SCRIPT`; `flock FD` only locks.
        "flock" => match first.map(|file| (file, args.get(file + 1).copied())) {
            Some((file, Some("-c" | "--command"))) => {
                args.get(file + 2).map_or(Run::Nothing, |script| Run::Script(script.to_string()))
            }
            Some((file, _)) => command(Some(file + 1)),
            None => Run::Nothing,
        },
        // `chrt -p` and `taskset -p` set a running process's; `chrt -m` reports.
        "chrt" if parsed.has("pid") || parsed.has("max") => Run::Nothing,
        "chrt" => {
            let priority = first.filter(|&at| is_number(args[at]));
            command(priority.map_or(first, |at| Some(at + 1)))
        }
        "taskset" if parsed.has("pid") => Run::Nothing,
        "taskset" => command(first.map(|mask| mask + 1)),
        "ionice" if parsed.has("pid") || parsed.has("pgid") || parsed.has("uid") => Run::Nothing,
        "watch" if parsed.has("exec") => command(first),
        "watch" => first.map_or(Run::Nothing, |at| Run::Script(args[at..].join(" "))),
        // Another root, or files it edits rather than a command it runs.
        "sudo" => elsewhere(&["chroot", "edit"]).unwrap_or_else(|| match () {
            _ if parsed.has("list") || parsed.has("validate") || parsed.has("remove-timestamp") => Run::Nothing,
            _ => command(past_variables(first)),
        }),
        // `env -` is `env -i`; `-S` splits its string into the command.
        "env" => match parsed.value("split-string") {
            Some((word, from)) => Run::Split(word, from),
            None => command(past_variables(first.filter(|&at| args[at] != "-").or(first.map(|at| at + 1)))),
        },
        // A NAME before a compound command; the command in it follows its `{` or `(`.
        "coproc" => match args {
            ["{" | "(", ..] => command(Some(1)),
            [_, "{" | "(", ..] => command(Some(2)),
            _ => command(Some(0)),
        },
        // The duration comes before the command.
        "timeout" => command(first.map(|duration| duration + 1)),
        "command" if parsed.has("v") || parsed.has("V") => Run::Nothing,
        // On other hosts (`-S`), their files; with no command it runs its input's lines, or
        // its `:::` words, as commands.
        "parallel" => elsewhere(&["sshlogin"]).unwrap_or_else(|| match first.map(|at| args[at]) {
            Some(word) if !word.starts_with(":::") => command(first),
            _ => Run::Unknown(format!("{name} (the commands of its input)")),
        }),
        "runuser" if parsed.has("user") => command(first),
        "su" | "runuser" => match value("command").or_else(|| value("session-command")) {
            Some(script) => Run::Script(script),
            None => {
                // `su [-] [USER [ARG…]]`: ARGs go to the user's shell, as `sh ARG…` would take them.
                let login = first.filter(|&at| args[at] == "-").map_or(0, |_| 1);
                match parsed.operands.get(login + 1) {
                    Some(&at) => Run::Unknown(format!("{name} {}", args[at])),
                    None => Run::Nothing,
                }
            }
        },
        "script" => value("command").map_or(Run::Nothing, Run::Script),
        "unshare" => {
            chdir = parsed.value("wd").map(|(word, from)| Chdir::Word(word, from));
            elsewhere(&["root"]).unwrap_or_else(|| command(first))
        }
        // Another process's namespaces: its files and directories.
        "nsenter" => elsewhere(&["all", "mount", "root", "wd", "wdns"]).unwrap_or_else(|| command(first)),
        "systemd-run" => {
            let properties: Vec<&str> = parsed
                .options
                .iter()
                .filter(|(opt, _)| is(opt, "property"))
                .filter_map(|(_, value)| value.map(|(word, from)| &args[word][from..]))
                .collect();
            let sets = |names: &[&str]| {
                properties.iter().find(|property| names.iter().any(|name| property.split('=').next() == Some(name)))
            };
            // A service runs in / (a user's in home); a scope where it is started. A property
            // may set it too, and which of it and an option counts is not followed.
            chdir = match parsed.value("working-directory") {
                _ if sets(&["WorkingDirectory"]).is_some() => Some(Chdir::Unknown),
                Some((word, from)) => Some(Chdir::Word(word, from)),
                None if parsed.has("same-dir") || parsed.has("scope") => None,
                None => Some(Chdir::Unknown),
            };
            // Another root, or other files mounted over some.
            let mounts = ["RootDirectory", "RootImage", "BindPaths", "BindReadOnlyPaths", "MountImages"];
            let mounted = sets(&mounts).map(|property| Run::Unknown(format!("{name} -p {property}")));
            elsewhere(&["host", "machine"]).or(mounted).unwrap_or_else(|| command(first))
        }
        // `doas -C config` checks, `-L` clears persisted logins.
        "doas" if parsed.has("C") || parsed.has("L") => Run::Nothing,
        // Another process's, or a report.
        "strace" | "ltrace" | "prlimit" if first.is_none() => Run::Nothing,
        // strace's `-o |cmd` (or `!cmd`) pipes its trace to a command.
        "strace" | "ltrace" if value("output").is_some_and(|file| file.starts_with(['|', '!'])) => {
            Run::Unknown(format!("{name} -o {}", value("output").unwrap_or_default()))
        }
        "setpriv" if parsed.has("dump") || parsed.has("list-caps") => Run::Nothing,
        "numactl" if parsed.has("show") || parsed.has("hardware") => Run::Nothing,
        // `chroot / cmd` runs cmd in `/` (but for `--skip-chdir`); another root, with other files.
        "chroot" => match first {
            Some(root) if matches!(args[root], "/" | "/." | "//") => {
                if !parsed.has("skip-chdir") {
                    chdir = Some(Chdir::Word(root, 0));
                }
                command(Some(root + 1))
            }
            Some(root) => Run::Unknown(format!("{name} {}", args[root])),
            None => Run::Nothing,
        },
        // pkexec runs its command in the user's home, unless told to stay.
        "pkexec" => {
            chdir = (!parsed.has("keep-cwd")).then_some(Chdir::Unknown);
            command(first)
        }
        // Its bus daemon is a program of the user's choosing.
        "dbus-run-session" => elsewhere(&["dbus-daemon"]).unwrap_or_else(|| command(first)),
        "proot" => {
            chdir = parsed.value("pwd").or(parsed.value("cwd")).map(|(word, from)| Chdir::Word(word, from));
            // Another root, a path shown under another name, or run through an emulator.
            let root = value("rootfs").filter(|root| !matches!(root.as_str(), "/" | "/." | "//"));
            let renamed = ["bind", "mount"]
                .into_iter()
                .flat_map(|name| parsed.values(name))
                .find(|&(word, from)| args[word][from..].split_once(':').is_some_and(|(host, guest)| host != guest));
            match (root, renamed) {
                (Some(root), _) => Run::Elsewhere(format!("{name} -r {root}")),
                (_, Some((word, from))) => Run::Elsewhere(format!("{name} -b {}", &args[word][from..])),
                _ => elsewhere(&["R", "S", "qemu"]).unwrap_or_else(|| command(first)),
            }
        }
        _ => command(first),
    };
    let reads = match name {
        "xargs" | "parallel" => parsed.values("arg-file").map(|(word, from)| Output::Word(word, from)).collect(),
        "dbus-run-session" => parsed.values("config-file").map(|(word, from)| Output::Word(word, from)).collect(),
        _ => Vec::new(),
    };
    Some(Wrapped { run, chdir, reads, writes: writes(name, &parsed), sets: Vec::new() })
}

/// Whether nice takes `word` as its old form's adjustment: `-` and a
/// number, possibly signed (`-10`, `--5`, `-+5`).
fn is_adjustment(word: &str) -> bool {
    let number = word.strip_prefix('-').map(|rest| rest.strip_prefix(['-', '+']).unwrap_or(rest));
    number.is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit()))
}

/// The files the wrapper `name` writes itself, given what it was given:
/// GNU time's report (`-o`), script's logs (its file operand, else
/// `typescript` unless `-O`/`-B` logs the output elsewhere).
fn writes(name: &str, parsed: &Parsed) -> Vec<Output> {
    let logs: &[&str] = match name {
        "time" | "strace" | "ltrace" => &["output"],
        "script" => &["log-in", "log-out", "log-io", "log-timing", "timing"],
        _ => return Vec::new(),
    };
    let given = parsed.options.iter().filter(|(opt, _)| logs.iter().any(|log| is(opt, log)));
    let mut writes: Vec<Output> =
        given.filter_map(|(_, value)| *value).map(|(word, from)| Output::Word(word, from)).collect();
    if name == "script" {
        let output_given = parsed.has("log-out") || parsed.has("log-io");
        match parsed.operands.first() {
            Some(&file) => writes.push(Output::Word(file, 0)),
            None if !output_given => writes.push(Output::Default("typescript")),
            None => {}
        }
    }
    writes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<&str> {
        line.split_whitespace().collect()
    }

    fn runs(name: &str, line: &str) -> Run {
        run(name, &words(line)).expect("a wrapper").run
    }

    #[test]
    fn an_option_the_older_wrappers_do_not_take_leaves_the_command_unknown() {
        // sudo's `-c` takes a login class: rm is the command, not `class`.
        assert_eq!(runs("sudo", "-c class rm -rf qa"), Run::Command(2));
        assert_eq!(runs("sudo", "-iu root -E --preserve-env=PATH -- rm"), Run::Command(5));
        assert_eq!(runs("sudo", "-Z rm"), Run::Unknown("sudo -Z".into()));
        assert_eq!(runs("sudo", "--bogus rm"), Run::Unknown("sudo --bogus".into()));
        assert_eq!(runs("sudo", "-R /srv rm x"), Run::Unknown("sudo --chroot".into()));
        assert_eq!(runs("sudo", "--chroot=/srv rm x"), Run::Unknown("sudo --chroot".into()));
        assert_eq!(runs("sudo", "-e .env"), Run::Unknown("sudo --edit".into()));
        assert_eq!(runs("sudo", "-l rm"), Run::Nothing);
        assert_eq!(runs("sudo", "-h"), Run::Nothing);
        assert_eq!(runs("sudo", "-h host rm"), Run::Command(2));
        assert_eq!(runs("env", "-i - A=1 rm"), Run::Command(3));
        assert_eq!(runs("env", "- rm"), Run::Command(1));
        assert_eq!(runs("env", "--unset=A -u B rm"), Run::Command(3));
        assert_eq!(runs("env", "-iSrm -rf x"), Run::Split(0, 3));
        assert_eq!(runs("env", "-x rm"), Run::Unknown("env -x".into()));
        assert_eq!(runs("timeout", "-k 5 --signal=KILL 10 rm"), Run::Command(4));
        assert_eq!(runs("timeout", "-z 10 rm"), Run::Unknown("timeout -z".into()));
        assert_eq!(runs("nice", "-10 rm"), Run::Command(1));
        assert_eq!(runs("nice", "--5 -n 2 rm"), Run::Command(3));
        assert_eq!(runs("nice", "-x rm"), Run::Unknown("nice -x".into()));
        assert_eq!(runs("nohup", "-- rm"), Run::Command(1));
        assert_eq!(runs("coproc", "rm -rf qa"), Run::Command(0));
        assert_eq!(runs("coproc", "NAME { rm"), Run::Command(2));
        assert_eq!(runs("coproc", "{ rm"), Run::Command(1));
        assert_eq!(runs("command", "-p rm"), Run::Command(1));
        assert_eq!(runs("command", "-v rm"), Run::Nothing);
        assert_eq!(runs("exec", "-cl -a name rm"), Run::Command(3));
        assert_eq!(runs("exec", "--help-me rm"), Run::Unknown("exec --help-me".into()));
        assert_eq!(runs("xargs", "-0 -n 1 -I{} rm {}"), Run::Command(4));
        assert_eq!(runs("xargs", "-i rm {}"), Run::Command(1));
        assert_eq!(runs("xargs", "-Z rm"), Run::Unknown("xargs -Z".into()));
        assert_eq!(runs("parallel", "-j4 -k --bar rm ::: a"), Run::Command(3));
        // One cut short may be any of its many options: none is guessed.
        assert_eq!(runs("parallel", "--ta rm ::: a"), Run::Unknown("parallel --ta".into()));
        assert_eq!(runs("parallel", "-j4 ::: 'rm x'"), Run::Unknown("parallel (the commands of its input)".into()));
        assert_eq!(runs("parallel", ""), Run::Unknown("parallel (the commands of its input)".into()));
        assert_eq!(runs("parallel", "-S host rm ::: x"), Run::Unknown("parallel --sshlogin".into()));
    }

    #[test]
    fn xargs_and_parallel_read_their_argument_files() {
        let reads = |name: &str, line: &str| -> Vec<(usize, usize)> {
            let reads = run(name, &words(line)).expect("a wrapper").reads;
            reads
                .into_iter()
                .map(|read| match read {
                    Output::Word(word, from) => (word, from),
                    Output::Default(_) => unreachable!("no default"),
                })
                .collect()
        };
        assert_eq!(reads("xargs", "-0 -a list cat"), [(2, 0)]);
        assert_eq!(reads("xargs", "-alist --arg-file=b --arg-file c cat"), [(0, 2), (1, 11), (3, 0)]);
        assert_eq!(reads("xargs", "-0a list -ra.env cat"), [(1, 0), (2, 3)]);
        assert!(reads("xargs", "-na cat").is_empty(), "`a` is -n's value");
        assert_eq!(reads("parallel", "-a f --arg-file g cat"), [(1, 0), (3, 0)]);
        // Past the command its words are its own.
        assert!(reads("xargs", "cat -a f").is_empty());
    }
}
