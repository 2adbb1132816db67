//! Writers whose files an option, a position or their input decides,
//! beside [`super::writers`]' tables: `sort -o F`, `touch`'s operands,
//! `split`'s and `csplit`'s output prefix (each file it writes starts with
//! it, so a rule on the directory covers them; `x`, `xx` in its working
//! directory without one), the files vim, vi and ex edit, the files `patch` and `git apply`
//! change (named inside the patch: known only when they run, unless
//! `patch` is given the file), what `git checkout … -- PATH` and `git
//! restore PATH` put back (anything under each pathspec), what `git
//! reset --hard`, `checkout -f`, `switch -f` and `stash` put back
//! (anything under the work tree) and `git clean` removes, the files find's
//! `-fprint` (`-fprint0`, `-fprintf`, `-fls`) writes, and what `tar` extracts: everything under its
//! `-C`/`--directory`, or in its working directory, each file named only
//! inside the archive (anywhere with `-P`), and `unzip`'s alike (`-d`); what awk's program prints to a file, and its
//! operands with gawk's `-i inplace`. Their options are read as getopt
//! reads them ([`super::getopt`]), and [`runs_command`] says which run a
//! command (awk's program, `split --filter`, tar's `--to-command`…).

use super::awk::{awk_programs, in_place};
use super::getopt::{Given, Name, Parsed, Spec, long};
use super::git_options::{APPLY, CHECKOUT, CLEAN, MV, RESET, RESTORE, RM, SWITCH};
use super::writers::{Part, Written};

const SORT: Spec = Spec {
    short_values: "kStTo",
    long: &[
        long("output", "o", true, Some('o')),
        long("key", "k", true, Some('k')),
        long("field-separator", "f", true, Some('t')),
        long("buffer-size", "bu", true, Some('S')),
        long("temporary-directory", "te", true, Some('T')),
    ],
};
const TOUCH: Spec = Spec {
    short_values: "rdt",
    long: &[long("reference", "r", true, Some('r')), long("date", "d", true, Some('d')), long("time", "t", true, None)],
};
const SPLIT: Spec = Spec {
    short_values: "aCblnt",
    long: &[
        long("lines", "lines", true, Some('l')),
        long("bytes", "b", true, Some('b')),
        long("line-bytes", "line-", true, Some('C')),
        long("number", "numb", true, Some('n')),
        long("suffix-length", "su", true, Some('a')),
        long("additional-suffix", "a", true, None),
        long("filter", "f", true, None),
        long("separator", "se", true, Some('t')),
    ],
};
const CSPLIT: Spec = Spec {
    short_values: "fbn",
    long: &[
        long("prefix", "p", true, Some('f')),
        long("digits", "d", true, Some('n')),
        long("suffix-format", "suf", true, Some('b')),
    ],
};
/// jar's options that matter here: whether it makes or updates an
/// archive, the archive, and the other options taking a value (a
/// manifest, an entry point, a directory to change to).
const JAR: Spec = Spec {
    short_values: "fmeC",
    long: &[
        long("create", "create", false, Some('c')),
        long("update", "update", false, Some('u')),
        long("file", "file", true, Some('f')),
        long("manifest", "manifest", true, Some('m')),
        long("main-class", "main-class", true, Some('e')),
    ],
};
/// zip's options taking a value, `-m`'s and `-O`'s long names: its first
/// operand is the archive, the others what it zips (and with `-m`
/// removes); `-O` writes the archive elsewhere.
pub(crate) const ZIP: Spec = Spec {
    short_values: "bntPOZs",
    long: &[
        long("move", "move", false, Some('m')),
        long("output-file", "ou", true, Some('O')),
        long("names-stdin", "names", false, Some('@')),
    ],
};
/// unzip's options are no getopt's, but alike: `-dDIR`, `-x` names the
/// members left out (the words after it).
const UNZIP: Spec = Spec { short_values: "dx", long: &[] };
const PATCH: Spec = Spec {
    short_values: "BDFgiopYzdrV",
    long: &[
        long("output", "o", true, Some('o')),
        long("directory", "d", true, Some('d')),
        long("input", "in", true, Some('i')),
    ],
};
/// tar's options that matter here: where it extracts, what it runs, the
/// archive it makes or changes.
const TAR: Spec = Spec {
    short_values: "fCbTXgKNLVHIF",
    long: &[
        long("directory", "dir", true, Some('C')),
        long("file", "file", true, Some('f')),
        long("extract", "ext", false, Some('x')),
        long("create", "cr", false, Some('c')),
        long("append", "ap", false, Some('r')),
        long("update", "up", false, Some('u')),
        long("catenate", "cat", false, Some('A')),
        long("concatenate", "conc", false, Some('A')),
        long("delete", "dele", false, None),
        long("get", "ge", false, Some('x')),
        long("to-stdout", "to-s", false, Some('O')),
        long("absolute-names", "ab", false, Some('P')),
        long("to-command", "to-c", true, None),
        long("checkpoint-action", "checkpoint-", true, None),
        long("use-compress-program", "use", true, Some('I')),
        long("info-script", "inf", true, Some('F')),
        long("new-volume-script", "new-", true, Some('F')),
        long("files-from", "files", true, Some('T')),
        long("exclude-from", "exclude-f", true, Some('X')),
        long("exclude", "exclude", true, None),
        long("dereference", "der", false, Some('h')),
        long("remove-files", "rem", false, None),
    ],
};

/// What `program` given `args` writes, when it is one of these.
pub(crate) fn written(program: &str, args: &[&str]) -> Option<Written> {
    match program {
        "sort" => {
            let targets = SORT.parse(args).values(Name::Short('o'));
            (!targets.is_empty()).then_some(Written { targets, ..Written::default() })
        }
        "touch" => Some(operands_written(TOUCH.parse(args).operands)),
        "split" => Some(split_prefix(args)),
        "csplit" => Some(prefix_option(args)),
        "vim" | "vi" | "nvim" | "ex" | "view" | "vimdiff" => Some(edited_by_vim(args)),
        "patch" => Some(patched(args)),
        "tar" => extracted(args).or_else(|| archived(args)),
        "zip" => zipped(args),
        "jar" => jarred(args),
        "ar" => ar_archive(args),
        "cpio" | "pax" => super::archivers::written(program, args),
        _ if super::archivers::SEVEN_ZIP.contains(&program) => super::archivers::written(program, args),
        "unzip" => unzipped(args),
        "git" => git_written(args),
        "find" => find_written(args),
        "awk" | "gawk" | "mawk" | "nawk" => awk_written(args),
        "curl" | "wget" | "wget2" => super::urls::saved(program, args),
        _ => None,
    }
}

/// What of `program`'s, given `args`, runs a command known only when it
/// runs: awk's program (`system(…)`, a pipe), split's `--filter`, tar's
/// options naming a program or command.
pub(crate) fn runs_command(program: &str, args: &[&str]) -> Option<String> {
    match program {
        "awk" | "gawk" | "mawk" | "nawk" if awk_runs_commands(args) => {
            Some(format!("`{program}`'s program, which may run commands"))
        }
        "split" if SPLIT.parse(args).has(Name::Long("filter")) => Some("`split --filter`'s command".into()),
        "vim" | "vi" | "nvim" | "ex" | "view" | "vimdiff" if vim_scripted(args) => {
            Some(format!("`{program}`'s commands, which may run programs (`!cmd`)"))
        }
        "tar" => tar_runs(args).map(|option| format!("`tar {option}`'s command")),
        "sed" | "gsed" if sed_script_unchecked(args) => Some(format!(
            "`{program}`'s script, which may run commands or read and write files it names (`e`, `r`, `w`, `-f`)"
        )),
        "zip"
            if args.iter().any(|a| {
                (!a.starts_with("--") && a.starts_with('-') && a.contains("TT")) || a.starts_with("--unz")
            }) =>
        {
            Some("`zip -TT`'s command".into())
        }
        "ssh" | "scp" | "sftp" => ssh_runs_local_command(program, args),
        "git" => git_runs_command(args),
        "rsync"
            if args
                .iter()
                .any(|a| a.starts_with("--rs") || (!a.starts_with("--") && a.starts_with('-') && a.contains('e'))) =>
        {
            Some("`rsync -e`'s remote shell".into())
        }
        _ => None,
    }
}

/// Whether sed's script may run a command or reach a file no operand names: GNU sed's `e` command
/// (`1e rm x`) and the `e` flag of `s`, `r`/`R` (read a file) and `w`/`W` and the `w` flag of `s`
/// (write one), or a script read from a file (`-f`), which is not read here, as awk's is not;
/// unless `--sandbox` forbids them. Options as GNU getopt reads them: bundled (`-ne`), long ones
/// cut to a prefix (`--expr`), none after `--`.
fn sed_script_unchecked(args: &[&str]) -> bool {
    let mut scripts: Vec<&str> = Vec::new();
    let mut operands = Vec::new();
    let (mut from_file, mut sandbox) = (false, false);
    let long = |name: &str, option: &str, shortest: usize| name.len() >= shortest && option.starts_with(name);
    let mut at = 0;
    while let Some(&arg) = args.get(at) {
        at += 1;
        if arg == "--" {
            operands.extend(&args[at..]);
            break;
        }
        if let Some(option) = arg.strip_prefix("--") {
            let (name, value) = match option.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (option, None),
            };
            if long(name, "expression", 1) {
                match value {
                    Some(value) => scripts.push(value),
                    None => {
                        scripts.extend(args.get(at));
                        at += 1;
                    }
                }
            } else if long(name, "file", 2) {
                from_file = true;
            } else if long(name, "sandbox", 2) {
                sandbox = true;
            } else if long(name, "line-length", 2) && value.is_none() {
                at += 1;
            }
        } else if let Some(letters) = arg.strip_prefix('-').filter(|l| !l.is_empty()) {
            // The first letter taking a value ends the bundle: the rest, or the next word, is it
            // (`-i`'s suffix is only ever the rest).
            let Some(taking) = letters.find(['e', 'f', 'l', 'i']) else { continue };
            let letter = letters.as_bytes()[taking];
            let rest = &letters[taking + 1..];
            if letter == b'i' {
                continue;
            }
            let value = match rest {
                "" => {
                    at += 1;
                    args.get(at - 1).copied()
                }
                rest => Some(rest),
            };
            match letter {
                b'e' => scripts.extend(value),
                b'f' => from_file = true,
                _ => {}
            }
        } else {
            operands.push(arg);
        }
    }
    if sandbox {
        return false;
    }
    if scripts.is_empty() && !from_file {
        scripts.extend(operands.first());
    }
    from_file || scripts.iter().any(|script| sed_script_reaches(script))
}

/// Whether a sed script holds a command [`sed_command_reaches`] takes. `a`, `i` and `c` take the
/// rest of their line as text (`$a\` on, its next lines while each ends in `\`), which is no
/// command (a QA pass: `sed '$a\<newline>end'` was asked about).
fn sed_script_reaches(script: &str) -> bool {
    let mut text_follows = false;
    for line in script.lines() {
        if text_follows {
            text_follows = line.ends_with('\\');
            continue;
        }
        for command in line.split(';') {
            match sed_command(command).chars().next() {
                Some('a' | 'i' | 'c') => {
                    text_follows = line.ends_with('\\');
                    break;
                }
                _ if sed_command_reaches(command) => return true,
                _ => {}
            }
        }
    }
    false
}

/// One sed command past its address: line numbers, `$`, `/regex/`, `\cregexc`, ranges, steps,
/// negation, blocks.
fn sed_command(command: &str) -> &str {
    let mut rest = command.trim_start();
    loop {
        let before = rest;
        rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || "$,~!{} \t+".contains(c));
        if let Some(regex) = rest.strip_prefix('/') {
            rest = skip_delimited(regex, '/');
        } else if let Some(custom) = rest.strip_prefix('\\') {
            let mut chars = custom.chars();
            if let Some(delimiter) = chars.next() {
                rest = skip_delimited(chars.as_str(), delimiter);
            }
        }
        rest = rest.trim_start_matches(['I', 'M']).trim_start();
        if rest == before {
            return rest;
        }
    }
}

/// Whether one sed command (its address and all) is `e`, `r`, `R`, `w` or `W`, or an `s` with
/// the `e` or `w` flag.
fn sed_command_reaches(command: &str) -> bool {
    let mut chars = sed_command(command).chars();
    match chars.next() {
        Some('e' | 'r' | 'R' | 'w' | 'W') => true,
        Some('s') => {
            let Some(delimiter) = chars.next() else { return false };
            let after_pattern = skip_delimited(chars.as_str(), delimiter);
            let flags = skip_delimited(after_pattern, delimiter);
            flags.contains(['e', 'w'])
        }
        _ => false,
    }
}

/// `text` after its first `delimiter` not escaped by a backslash; empty when there is none.
fn skip_delimited(text: &str, delimiter: char) -> &str {
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        match (escaped, c) {
            (true, _) => escaped = false,
            (false, '\\') => escaped = true,
            (false, c) if c == delimiter => return &text[at + c.len_utf8()..],
            _ => {}
        }
    }
    ""
}

/// What of git's own options runs a shell command (a second QA pass cat'ed .env and removed files
/// under `Bash(rm:*)` through each): `rebase -x`/`--exec`, the program the other side runs
/// for a local transport (`--upload-pack`, clone's `-u` — fetch's and pull's `-u` is
/// `--update-head-ok` — `--receive-pack`, `--exec`),
/// `submodule foreach`, and an `ext::` URL, whose text is a command. Long options as git reads
/// them, cut to a prefix.
fn git_runs_command(args: &[&str]) -> Option<String> {
    if let Some(url) = args.iter().find(|arg| arg.starts_with("ext::")) {
        return Some(format!("`git`'s `{url}` transport command"));
    }
    for at in super::git::subcommand_starts(args) {
        let Some(&subcommand) = args.get(at) else { continue };
        let rest = &args[at + 1..];
        let long = |names: &[&str]| {
            rest.iter().take_while(|arg| **arg != "--").any(|arg| {
                arg.strip_prefix("--").is_some_and(|name| {
                    let name = name.split('=').next().unwrap_or_default();
                    name.len() >= 3 && names.iter().any(|n| n.starts_with(name))
                })
            })
        };
        let short = |letter: char| {
            rest.iter()
                .take_while(|arg| **arg != "--")
                .any(|arg| !arg.starts_with("--") && arg.starts_with('-') && arg[1..].contains(letter))
        };
        let runs = match subcommand {
            "rebase" => long(&["exec"]) || short('x'),
            "clone" | "fetch" | "pull" | "ls-remote" => {
                long(&["upload-pack", "exec"]) || (subcommand == "clone" && short('u'))
            }
            "push" | "send-pack" => long(&["receive-pack", "exec"]),
            "archive" => long(&["exec"]),
            "submodule" => rest.contains(&"foreach"),
            _ => false,
        };
        if runs {
            return Some(format!("`git {subcommand}`'s command"));
        }
    }
    None
}

/// What of ssh's, scp's or sftp's options runs a local command: `-o` setting ProxyCommand,
/// LocalCommand or KnownHostsCommand (however spaced, bundled `-qo`), a config file (`-F`, which
/// may set them), scp's `-S` and sftp's `-S`/`-D` programs. Options as getopt reads them: the
/// first letter taking a value ends a bundle, the rest or the next word being the value.
fn ssh_runs_local_command(program: &str, args: &[&str]) -> Option<String> {
    let (takes_value, runs): (&str, &str) = match program {
        "scp" => ("cDFiJlmoPSX", "FS"),
        "sftp" => ("BbcDFiJlloPRSs", "FSD"),
        _ => ("BbcDEeFIiJLlmOoPpQRSWw", "F"),
    };
    let sets_command = |option: &str| {
        let name = option.trim_start().split(['=', ' ', '\t']).next().unwrap_or_default().to_ascii_lowercase();
        matches!(name.as_str(), "proxycommand" | "localcommand" | "knownhostscommand")
    };
    let mut at = 0;
    while let Some(&arg) = args.get(at) {
        at += 1;
        if arg == "--" || !arg.starts_with('-') || arg.starts_with("--") {
            continue;
        }
        let letters = &arg[1..];
        let Some(taking) = letters.find(|c| takes_value.contains(c)) else { continue };
        let letter = letters.as_bytes()[taking] as char;
        let value = match &letters[taking + 1..] {
            "" => {
                at += 1;
                args.get(at - 1).copied().unwrap_or_default()
            }
            rest => rest,
        };
        if letter == 'o' && sets_command(value) {
            return Some(format!("`{program}`'s ProxyCommand, LocalCommand or KnownHostsCommand"));
        }
        if runs.contains(letter) {
            return Some(format!("`{program} -{letter}`'s program or configuration, which may run commands"));
        }
    }
    None
}

/// Whether awk's program may run a command: `system(…)`, or a pipe to or
/// from one (`print | "sh"`, `"cmd" | getline`; `||` is no pipe). A
/// program file (`-f`) is not read here, as a script a shell runs is not.
fn awk_runs_commands(args: &[&str]) -> bool {
    let texts = awk_programs(args).0.into_iter().map(|part| &args[part.word][part.from..]);
    texts.into_iter().any(|program| program.contains("system") || program.replace("||", "").contains('|'))
}

/// What awk writes: the files `print > "f"` or `printf … >> f` name in its
/// program (known only when it runs; `>` after a print or printf, not a
/// comparison before one), and with gawk's `-i inplace` its file operands.
fn awk_written(args: &[&str]) -> Option<Written> {
    let (programs, files) = awk_programs(args);
    let in_place = in_place(args);
    let prints_to_file = programs
        .iter()
        .map(|part| &args[part.word][part.from..])
        .any(|program| program.match_indices("print").any(|(at, _)| redirects(&program[at..])));
    let targets = if in_place { (files..args.len()).map(|word| Part { word, from: 0 }).collect() } else { Vec::new() };
    let unknown = prints_to_file.then(|| "the files its program prints to".to_string());
    (in_place || prints_to_file).then_some(Written { targets, unknown, ..Written::default() })
}

/// Whether the awk statement `statement` starts (up to its `;`, `}` or
/// line's end) has a `>` outside its string literals: `print "a;b" > "f"`
/// writes f, `print "a>b"` nothing.
fn redirects(statement: &str) -> bool {
    let mut in_string = false;
    let mut chars = statement.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if in_string => {
                chars.next();
            }
            '"' => in_string = !in_string,
            '>' if !in_string => return true,
            ';' | '}' | '\n' if !in_string => return false,
            _ => {}
        }
    }
    false
}

/// Whether `arg` is an option word (not `-` alone, standard input).
fn is_option(arg: &str) -> bool {
    arg.starts_with('-') && arg != "-"
}

fn operands_written(operands: Vec<usize>) -> Written {
    let targets = operands.into_iter().map(|word| Part { word, from: 0 }).collect();
    Written { targets, ..Written::default() }
}

/// `split [FILE [PREFIX]]`: the prefix, else `x` in its working directory.
fn split_prefix(args: &[&str]) -> Written {
    match SPLIT.parse(args).operands.get(1) {
        Some(&word) => prefixes(args, vec![Part { word, from: 0 }]),
        None => Written { named_in_cwd: Some("x"), ..Written::default() },
    }
}

/// `csplit -f PREFIX`: each file starts with it (`xx` in its working directory without one).
fn prefix_option(args: &[&str]) -> Written {
    match CSPLIT.parse(args).values(Name::Short('f')) {
        parts if parts.is_empty() => Written { named_in_cwd: Some("xx"), ..Written::default() },
        parts => prefixes(args, parts),
    }
}

/// The files names starting with each prefix `parts` give: a prefix ending in `/` is a directory
/// the files are made in (`split -l1 f config/` writes `config/xaa`), so what is under it.
fn prefixes(args: &[&str], parts: Vec<Part>) -> Written {
    let (under, targets): (Vec<Part>, Vec<Part>) =
        parts.into_iter().partition(|part| args.get(part.word).is_some_and(|word| word.ends_with('/')));
    Written { targets, under: (!under.is_empty()).then_some(under), ..Written::default() }
}

/// vim and its names edit the files they are given, and `-w`/`-W` write a
/// script of the keys typed: a `-c`/`+` command (`wq`, `w! other`) or
/// `-s` script may write any of them, or any other file, unseen here.
fn edited_by_vim(args: &[&str]) -> Written {
    let mut targets = Vec::new();
    let unknown = vim_scripted(args).then(|| "the files its commands name (`-c`, `+`, `-S`, `-s`)".to_string());
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        match *arg {
            "--" => {
                targets.extend((at..args.len()).map(|word| Part { word, from: 0 }));
                break;
            }
            "--cmd" => at += 1,
            _ if arg.starts_with('+') || arg.starts_with("--") => {}
            "-w" | "-W" => {
                targets.push(Part { word: at, from: 0 });
                at += 1;
            }
            // Options taking the next word: a command, a file sourced, a terminal, a tag….
            "-c" | "-S" | "-u" | "-U" | "-i" | "-T" | "-t" | "-q" => at += 1,
            _ if is_option(arg) => {}
            _ => targets.push(Part { word: at - 1, from: 0 }),
        }
    }
    targets.retain(|part| part.word < args.len());
    Written { targets, unknown, ..Written::default() }
}

/// Whether vim is given Ex commands to run (`-c`, `--cmd`, a `+cmd` other than a line number, a
/// script `-S`/`-s`): `e other`, `w! other`, `r secret`, `!cmd` can each name any file or
/// program, known only when they run.
fn vim_scripted(args: &[&str]) -> bool {
    args.iter().take_while(|arg| **arg != "--").any(|arg| {
        matches!(*arg, "-c" | "--cmd" | "-S" | "-s")
            || (arg.starts_with("-c") && arg.len() > 2)
            || arg.strip_prefix('+').is_some_and(|cmd| !cmd.is_empty() && !cmd.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// `patch [FILE [PATCH]]` writes FILE (and `-o OUT`); without FILE, in
/// another directory (`-d`), or after a long option that may take the next
/// word (`--input p.diff`), the files the patch names.
fn patched(args: &[&str]) -> Written {
    let parsed = PATCH.parse(args);
    let mut targets = parsed.values(Name::Short('o'));
    let long_with_value = args.iter().any(|arg| arg.starts_with("--") && *arg != "--" && !arg.contains('='));
    let elsewhere = long_with_value || parsed.has(Name::Short('d'));
    let unknown = match parsed.operands.first() {
        Some(&word) if !elsewhere => {
            targets.push(Part { word, from: 0 });
            None
        }
        _ => Some("the files its patch names".to_string()),
    };
    Written { targets, unknown, ..Written::default() }
}

/// The files find's `-fprint`, `-fprint0`, `-fprintf` and `-fls` write
/// the names it finds to (a word after `-exec … ;` is its command's).
fn find_written(args: &[&str]) -> Option<Written> {
    let mut targets = Vec::new();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        match *arg {
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                at += args[at..].iter().position(|word| matches!(*word, ";" | "+")).map_or(args.len(), |end| end + 1);
            }
            "-fprint" | "-fprint0" | "-fprintf" | "-fls" if at < args.len() => targets.push(Part { word: at, from: 0 }),
            _ => {}
        }
    }
    (!targets.is_empty()).then_some(Written { targets, ..Written::default() })
}

/// What `tar` extracts (`x`, `--extract`, `--get`; not to its output):
/// everything under each `-C` directory, else under its working directory.
fn extracted(args: &[&str]) -> Option<Written> {
    let (letters, parsed) = tar_options(args);
    let has = |letter: char| letters.contains(letter) || parsed.has(Name::Short(letter));
    let to_output = has('O') || parsed.has(Name::Long("to-command"));
    if !has('x') || to_output {
        return None;
    }
    // With `-P` a member's absolute path is written as it is, anywhere.
    let unknown = has('P').then(|| "the absolute paths its archive names".to_string());
    Some(Written { under: Some(parsed.values(Name::Short('C'))), under_in_turn: true, unknown, ..Written::default() })
}

/// The archive tar makes or changes (`-c`, `-r`, `-u`, `-A`, `--delete`):
/// the last `-f`/`--file` it is given, but `-` (its output). Without `-f`
/// it writes to its output too (GNU tar's default; a `TAPE` the
/// environment sets, naming a file instead, is not followed).
fn archived(args: &[&str]) -> Option<Written> {
    let parsed = tar_options(args).1;
    let changes = ['c', 'r', 'u', 'A'].into_iter().any(|letter| parsed.has(Name::Short(letter)));
    archive_option(args, &parsed, changes || parsed.has(Name::Long("delete")))
}

/// The archive `jar` makes or updates (`c`, `u`, `--create`, `--update`):
/// its last `f`/`--file`, old-style letters read as tar's are (`jar cfm
/// a.jar manifest …`); without one it writes to its output.
fn jarred(args: &[&str]) -> Option<Written> {
    let parsed = jar_options(args);
    archive_option(args, &parsed, parsed.has(Name::Short('c')) || parsed.has(Name::Short('u')))
}

/// jar's options and operands (see [`old_style_options`]).
pub(crate) fn jar_options(args: &[&str]) -> Parsed {
    old_style_options(&JAR, args).1
}

/// The archive `ar` changes: `ar KEY [RELPOS] [COUNT] ARCHIVE MEMBERS…`,
/// its key's operation `d`, `m`, `q` or `r` (or `s` alone, writing its
/// index), the word after the key, and after the member `a`, `b` or `i`
/// places others by and the count `N` takes. Its long options (`--plugin
/// P`, `--target=T`) come before the key.
fn ar_archive(args: &[&str]) -> Option<Written> {
    // Long options go before or after the key (`ar rcs --target=elf64 lib.a`: a reader found the
    // option taken for the archive); four of them take the next word when not given `=`.
    let mut words = Vec::new();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += match arg.strip_prefix("--") {
            Some("plugin" | "target" | "output" | "record-libdeps") => 2,
            Some(_) => 1,
            None => {
                words.push(at);
                1
            }
        };
    }
    let (&key, operands) = words.split_first()?;
    let key = args[key].trim_start_matches('-');
    let operation = key.chars().find(|letter| "dmpqrtx".contains(*letter));
    let writes = matches!(operation, Some('d' | 'm' | 'q' | 'r')) || (operation.is_none() && key.contains('s'));
    if !writes {
        return None;
    }
    let archive = *operands.get(usize::from(key.contains(['a', 'b', 'i'])) + usize::from(key.contains('N')))?;
    Some(Written { targets: vec![Part { word: archive, from: 0 }], ..Written::default() })
}

/// The archive the last `-f` of `parsed` (a program's options, of `args`)
/// names, where the program `changes` it; none for `-`, its output.
fn archive_option(args: &[&str], parsed: &Parsed, changes: bool) -> Option<Written> {
    if !changes {
        return None;
    }
    let archive = parsed.values(Name::Short('f')).pop().filter(|part| &args[part.word][part.from..] != "-")?;
    Some(Written { targets: vec![archive], ..Written::default() })
}

/// The archive `zip` writes: its `-O` (`--output-file`), else its first
/// operand, the one it makes or updates; nothing for `-` (its output).
/// zip adds `.zip` to a name without a `.` in its last part (`zip
/// config/app a.txt` writes config/app.zip).
fn zipped(args: &[&str]) -> Option<Written> {
    let parsed = ZIP.parse(args);
    let archive = match parsed.values(Name::Short('O')).pop() {
        Some(output) => output,
        None => Part { word: *parsed.operands.first()?, from: 0 },
    };
    if &args[archive.word][archive.from..] == "-" {
        return None;
    }
    Some(archive_written(args, archive, ".zip"))
}

/// The archive `archive` names, written: the file, or with `extension` added when its name has
/// no `.` (zip and 7z add theirs so).
pub(crate) fn archive_written(args: &[&str], archive: Part, extension: &'static str) -> Written {
    let name = &args[archive.word][archive.from..];
    match name.rsplit('/').next().unwrap_or(name).contains('.') {
        true => Written { targets: vec![archive], ..Written::default() },
        false => Written { extended: vec![(archive, extension)], ..Written::default() },
    }
}

/// tar's options and operands (see [`old_style_options`]).
fn tar_options<'a>(args: &[&'a str]) -> (&'a str, Parsed) {
    old_style_options(&TAR, args)
}

/// The first word of a program taking old-style letters (tar, jar) when
/// it is its letters without a dash (`tar xfC a.tar dir`: each taking a
/// value takes the next word, in order), and all its options and
/// operands as `spec` reads them, indexing `args`.
fn old_style_options<'a>(spec: &Spec, args: &[&'a str]) -> (&'a str, Parsed) {
    let letters = args.first().copied().filter(|first| !first.starts_with('-')).unwrap_or_default();
    let mut old_style = Parsed::default();
    let mut rest = usize::from(!letters.is_empty());
    for letter in letters.chars() {
        let value = spec.short_values.contains(letter).then(|| {
            rest += 1;
            Part { word: rest - 1, from: 0 }
        });
        old_style.options.push(Given { name: Name::Short(letter), value: value.filter(|part| part.word < args.len()) });
    }
    let mut parsed = spec.parse(args.get(rest..).unwrap_or_default());
    for given in &mut parsed.options {
        given.value = given.value.map(|part| Part { word: rest + part.word, ..part });
    }
    old_style.options.append(&mut parsed.options);
    old_style.operands = parsed.operands.iter().map(|word| rest + word).collect();
    (letters, old_style)
}

/// What tar's words name: its operands, the `-C` directories and the files
/// it reads (`-f`, `-T`, `-X` and their long names), as tar reads its options
/// (old-style letters first, getopt's rules after).
pub(crate) struct TarWords {
    pub(crate) operands: Vec<usize>,
    /// Each `-C DIR`, in order: an operand after one is named from there.
    pub(crate) directories: Vec<Part>,
    /// The archive and the lists of names or patterns it reads (`-` is its
    /// standard input or output, no file).
    pub(crate) files: Vec<Part>,
    /// A `-T` list is its standard input (`find qa | tar -cf x -T -`).
    pub(crate) lists_input: bool,
}

pub(crate) fn tar_words(args: &[&str]) -> TarWords {
    let parsed = tar_options(args).1;
    let standard_input = |part: &Part| super::archivers::STANDARD_INPUT.contains(&&args[part.word][part.from..]);
    let lists_input = parsed.values(Name::Short('T')).iter().any(standard_input);
    let mut files: Vec<Part> =
        ['f', 'T', 'X'].into_iter().flat_map(|letter| parsed.values(Name::Short(letter))).collect();
    files.retain(|part| !args[part.word][part.from..].is_empty() && !standard_input(part));
    files.sort_by_key(|part| part.word);
    TarWords { directories: parsed.values(Name::Short('C')), files, operands: parsed.operands, lists_input }
}

/// The operands `tar --remove-files` removes once it has archived them,
/// and the lists naming more it removes (`-T`/`--files-from`).
pub(crate) fn tar_removed(args: &[&str]) -> Option<TarRemoved> {
    let parsed = tar_options(args).1;
    if !parsed.has(Name::Long("remove-files")) {
        return None;
    }
    let lists = parsed.values(Name::Short('T'));
    // An operand after a `-C DIR` is DIR's (`tar -cf a.tar --remove-files -C config a.ini`).
    let first_dir = parsed.values(Name::Short('C')).into_iter().min_by_key(|dir| dir.word);
    let (here, elsewhere) = parsed.operands.iter().partition(|&&word| first_dir.is_none_or(|dir| word < dir.word));
    Some(TarRemoved { operands: here, lists, after_directory: first_dir.filter(|_| !Vec::is_empty(&elsewhere)) })
}

/// What `tar --remove-files` removes ([`tar_removed`]).
pub(crate) struct TarRemoved {
    /// The operands named from its working directory.
    pub(crate) operands: Vec<usize>,
    /// Its `-T` lists, whose names are known only when it runs.
    pub(crate) lists: Vec<Part>,
    /// The first `-C` directory, when operands follow it: named from there.
    pub(crate) after_directory: Option<Part>,
}

/// Whether tar archives what the links it meets lead to (`-h`, `--dereference`).
pub(crate) fn tar_dereferences(args: &[&str]) -> bool {
    tar_options(args).1.has(Name::Short('h'))
}

/// The option of tar's that has it run a command: `--to-command`,
/// `--checkpoint-action=exec=…`, `-I`/`--use-compress-program`,
/// `-F`/`--info-script`/`--new-volume-script`.
fn tar_runs(args: &[&str]) -> Option<&'static str> {
    tar_options(args).1.options.iter().find_map(|given| match given.name {
        Name::Long("to-command") => Some("--to-command"),
        Name::Long("checkpoint-action") => {
            let value = given.value.map(|part| &args[part.word][part.from..]).unwrap_or_default();
            value.starts_with("exec").then_some("--checkpoint-action")
        }
        Name::Short('I') => Some("--use-compress-program"),
        Name::Short('F') => Some("--info-script"),
        _ => None,
    })
}

/// What `unzip` extracts: everything under its `-d` directory, else its
/// working directory; nothing when it lists, tests or prints (`-l`, `-t`,
/// `-v`, `-p`, `-c`, `-z`, `-Z`).
fn unzipped(args: &[&str]) -> Option<Written> {
    let parsed = UNZIP.parse(args);
    let only_reads = ['l', 't', 'v', 'p', 'c', 'z', 'Z'].map(Name::Short);
    if parsed.options.iter().any(|given| given.value.is_none() && only_reads.contains(&given.name)) {
        return None;
    }
    Some(Written { under: Some(parsed.values(Name::Short('d'))), ..Written::default() })
}

/// Whether `git SUBCOMMAND ARGS…` puts back or removes files anywhere in
/// its work tree, whatever its operands: `reset --hard` (`--merge`,
/// `--keep`), `checkout -f` switching (or staying on) a branch, `switch
/// -f`/`--discard-changes`, and `stash` but for the subcommands that leave
/// the work tree (`list`, `show`, `drop`, `clear`, `create`, `store`):
/// `git stash` (`push`, `save`, `-q`…) puts back what was changed, `pop`
/// and `apply` write it again.
fn puts_back_work_tree(subcommand: &str, rest: &[&str]) -> bool {
    match subcommand {
        "reset" => {
            let parsed = RESET.parse(rest);
            ["hard", "merge", "keep"].iter().any(|&name| parsed.has(Name::Long(name)))
        }
        // With `--` or a path, `checkout -f` writes only its pathspecs (see `git_written`).
        "checkout" => {
            let parsed = CHECKOUT.parse(rest);
            parsed.has(Name::Short('f')) && !rest.contains(&"--") && parsed.operands.len() <= 1
        }
        "switch" => SWITCH.parse(rest).has(Name::Short('f')),
        "stash" => !matches!(rest.first(), Some(&("list" | "show" | "drop" | "clear" | "create" | "store"))),
        _ => false,
    }
}

/// What a git command that moves the work tree to other commits writes: the tracked files that
/// differ, known only when it runs (a QA pass wrote an Edit-denied file through each of these).
/// `switch -c NEW` with no start point writes nothing; `checkout -b NEW REV` (`-B`, `--orphan`) writes
/// what differs in REV.
fn writes_what_differs(subcommand: &str, rest: &[&str]) -> Option<String> {
    let operands = rest.iter().filter(|arg| !arg.starts_with('-')).count();
    let creates_here =
        rest.iter().any(|arg| matches!(*arg, "-c" | "-C" | "--create" | "--force-create")) && operands <= 1;
    let checkout_creates_from = || {
        let parsed = CHECKOUT.parse(rest);
        let creates = [Name::Short('b'), Name::Short('B'), Name::Long("orphan")].iter().any(|&n| parsed.has(n));
        // A `--` with no path after it names no path: the branch is still switched to (a QA pass
        // wrote an Edit-denied file by `git checkout -b NEW REV --`).
        let paths_after_dashes = rest.iter().position(|arg| *arg == "--").is_some_and(|at| at + 1 < rest.len());
        creates && parsed.operands.len() == 1 && !paths_after_dashes
    };
    match subcommand {
        "switch" if !creates_here => {}
        "checkout" if checkout_creates_from() => {}
        "merge" | "revert" | "cherry-pick" | "pull" | "rebase" | "am" => {}
        _ => return None,
    }
    Some(format!("the files `git {subcommand}` writes (those that differ)"))
}

/// What the pathspecs `paths` (indexes into `rest`) name where git alone
/// knows it: git matches a pathspec's wildcards across directories
/// (`'*.ini'` is `config/app.ini` too) and reads its magic (`:/`,
/// `:(top)`, `:(glob)…`).
fn matched_by_git(rest: &[&str], paths: &[usize]) -> Option<Written> {
    let magic = paths.iter().find(|&&word| rest[word].starts_with(':') || rest[word].contains(['*', '?', '[']))?;
    Some(Written { unknown: Some(format!("the paths its pathspec `{}` matches", rest[*magic])), ..Written::default() })
}

/// What `git rm` removes from the work tree and `git mv` moves: anything
/// under each of its operands (`paths`, indexes into `rest`, which starts
/// at `args[offset]`), `git mv`'s destination too, a directory whole (`git
/// rm` takes one only with `-r`, and refuses the command else). Where the
/// pathspecs are git's to match (`git rm '*.ini'`, `:/`), or after an
/// option moving where git works, what it removes is known only when it
/// runs.
fn removed_by_git(subcommand: &str, rest: &[&str], offset: usize, paths: &[usize], moved: bool) -> Option<Written> {
    if paths.is_empty() {
        return None;
    }
    if moved {
        let unknown = format!("the files `git {subcommand}` removes or moves elsewhere");
        return Some(Written { unknown: Some(unknown), ..Written::default() });
    }
    if subcommand == "rm"
        && let Some(matched) = matched_by_git(rest, paths)
    {
        return Some(matched);
    }
    let under = paths.iter().map(|&word| Part { word: offset + word, from: 0 }).collect();
    Some(Written { under: Some(under), ..Written::default() })
}

/// What a git subcommand writes in the working tree: `checkout` and
/// `restore` the paths they put back, `apply` the files its patch names
/// (unless it only reports, or changes the index alone), `clean` what it
/// removes, `rm` and `mv` what they remove and move ([`removed_by_git`]),
/// and what [`puts_back_work_tree`] says writes all of it.
fn git_written(args: &[&str]) -> Option<Written> {
    // Past global options moving where git works (`-C`, `--work-tree`, `--git-dir`) its paths are
    // not followed; `-c` takes the next word.
    let (mut at, mut moved) = (0, false);
    while let Some(arg) = args.get(at).filter(|arg| is_option(arg)) {
        let moves = ["-C", "--work-tree", "--git-dir"];
        moved |= moves
            .iter()
            .any(|option| arg.strip_prefix(option).is_some_and(|rest| rest.is_empty() || rest.starts_with('=')));
        at += if matches!(*arg, "-C" | "-c" | "--work-tree" | "--git-dir" | "--namespace" | "--config-env") {
            2
        } else {
            1
        };
    }
    args.get(at)?;
    let rest = &args[at + 1..];
    if puts_back_work_tree(args[at], rest) {
        return Some(Written { work_tree: true, ..Written::default() });
    }
    if let Some(what) = writes_what_differs(args[at], rest) {
        return Some(Written { unknown: Some(what), ..Written::default() });
    }
    // Their long options may be cut short (`--pathspec-fr`, `--st`: see `git_options`).
    let parsed = match args[at] {
        "checkout" => CHECKOUT.parse(rest),
        "restore" => RESTORE.parse(rest),
        "apply" => APPLY.parse(rest),
        "clean" => CLEAN.parse(rest),
        "rm" => RM.parse(rest),
        "mv" => MV.parse(rest),
        _ => return None,
    };
    // `git rm --cached` changes the index alone; `-n` only lists.
    let only_lists = matches!(args[at], "rm" | "mv") && parsed.has(Name::Short('n'));
    if only_lists || (args[at] == "rm" && parsed.has(Name::Long("cached"))) {
        return None;
    }
    if parsed.has(Name::Long("pathspec-from-file")) {
        return Some(Written { unknown: Some("the paths its pathspec file names".into()), ..Written::default() });
    }
    if matches!(args[at], "rm" | "mv") {
        return removed_by_git(args[at], rest, at + 1, &parsed.operands, moved);
    }
    // `git clean` removes untracked files under its pathspecs, else its directory; `-n` only lists them.
    if args[at] == "clean" {
        if parsed.has(Name::Short('n')) {
            return None;
        }
        if moved {
            return Some(Written { unknown: Some("the files it cleans elsewhere".into()), ..Written::default() });
        }
        if let Some(matched) = matched_by_git(rest, &parsed.operands) {
            return Some(matched);
        }
        let under: Vec<Part> = parsed.operands.into_iter().map(|word| Part { word: at + 1 + word, from: 0 }).collect();
        let all_under_cwd = under.is_empty();
        return Some(Written { under: (!all_under_cwd).then_some(under), all_under_cwd, ..Written::default() });
    }
    let mut branch_or_path = None;
    let paths: Vec<usize> = match args[at] {
        "checkout" => match rest.iter().position(|arg| *arg == "--") {
            Some(dash) => (dash + 1..rest.len()).collect(),
            // `git checkout [REV] PATH…`: its first operand is a path when it can be
            // nothing else (`.`, `a/b`), a revision when a branch is made from it.
            None => {
                let creates = [Name::Short('b'), Name::Short('B'), Name::Long("orphan")].iter().any(|&n| parsed.has(n));
                let mut operands = parsed.operands.into_iter();
                let first = operands.next();
                let paths: Vec<usize> = operands.collect();
                match first {
                    Some(first) if !creates && (rest[first] == "." || rest[first].contains('/')) => {
                        std::iter::once(first).chain(paths).collect()
                    }
                    Some(first) if !creates && paths.is_empty() => {
                        branch_or_path = Some(at + 1 + first);
                        paths
                    }
                    _ => paths,
                }
            }
        },
        "restore" => {
            if parsed.has(Name::Short('S')) && !parsed.has(Name::Short('W')) {
                return None;
            }
            parsed.operands
        }
        _ => {
            let reports = ["check", "stat", "numstat", "summary"].iter().any(|&name| parsed.has(Name::Long(name)));
            if parsed.has(Name::Long("cached")) || (reports && !parsed.has(Name::Long("apply"))) {
                return None;
            }
            return Some(Written { unknown: Some("the files its patch names".into()), ..Written::default() });
        }
    };
    if let Some(matched) = matched_by_git(rest, &paths) {
        return Some(matched);
    }
    if moved && (branch_or_path.is_some() || !paths.is_empty()) {
        return Some(Written { unknown: Some(format!("the paths it {} elsewhere", args[at])), ..Written::default() });
    }
    // A pathspec names what is under it too (`git checkout -- .`).
    let under = paths.into_iter().map(|word| Part { word: at + 1 + word, from: 0 }).collect::<Vec<_>>();
    let under = (!under.is_empty()).then_some(under);
    (under.is_some() || branch_or_path.is_some()).then_some(Written { under, branch_or_path, ..Written::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The targets (word, from), the words naming directories written under, and whether it
    /// writes files only its input names.
    type Shown = (Vec<(usize, usize)>, Option<Vec<usize>>, bool);

    fn of(program: &str, line: &str) -> Option<Shown> {
        let args: Vec<&str> = line.split_whitespace().collect();
        written(program, &args).map(|w| {
            let parts = w.targets.iter().map(|part| (part.word, part.from)).collect();
            (parts, w.under.map(|under| under.iter().map(|part| part.word).collect()), w.unknown.is_some())
        })
    }

    #[test]
    fn zip_adds_its_ending_to_a_name_without_one() {
        let args = ["-r", "out", "a"];
        let extended = written("zip", &args).expect("it writes").extended;
        assert_eq!(extended, [(Part { word: 1, from: 0 }, ".zip")]);
        // A `.` in a directory's name is none of the file's.
        let args = ["-r", "a.d/out", "a"];
        assert_eq!(written("zip", &args).expect("it writes").extended, [(Part { word: 1, from: 0 }, ".zip")]);
        let args = ["-r", "out.zip", "a"];
        assert_eq!(written("zip", &args).expect("it writes").extended, []);
    }

    #[test]
    fn targets_by_option_position_and_input() {
        assert_eq!(of("sort", "-o out in"), Some((vec![(1, 0)], None, false)));
        assert_eq!(of("sort", "-k2 -oout in"), Some((vec![(1, 2)], None, false)));
        assert_eq!(of("sort", "--output=out in"), Some((vec![(0, 9)], None, false)));
        assert_eq!(of("sort", "in"), None);
        assert_eq!(of("touch", "-d now a b"), Some((vec![(2, 0), (3, 0)], None, false)));
        assert_eq!(of("split", "-l1 in pre"), Some((vec![(2, 0)], None, false)));
        assert_eq!(of("csplit", "-f pre in 1"), Some((vec![(1, 0)], None, false)));
        // Its commands may name any other file too (`-c 'w! other'`).
        assert_eq!(of("vim", "-es -c wq f"), Some((vec![(3, 0)], None, true)));
        assert_eq!(of("ex", "-s +wq -W log f"), Some((vec![(3, 0), (4, 0)], None, true)));
        assert_eq!(of("vim", "+12 f"), Some((vec![(1, 0)], None, false)));
        assert_eq!(of("patch", "f p.diff"), Some((vec![(0, 0)], None, false)));
        assert_eq!(of("patch", "-p1 -i p.diff"), Some((vec![], None, true)));
        assert_eq!(of("patch", "-d sub f p.diff"), Some((vec![], None, true)));
        assert_eq!(of("tar", "xf a.tar -C dir"), Some((vec![], Some(vec![3]), false)));
        assert_eq!(of("tar", "-xf a.tar --directory=dir"), Some((vec![], Some(vec![2]), false)));
        assert_eq!(of("tar", "xfC a.tar dir"), Some((vec![], Some(vec![2]), false)));
        assert_eq!(of("tar", "-xf a.tar"), Some((vec![], Some(vec![]), false)));
        assert_eq!(of("tar", "-xOf a.tar"), None);
        assert_eq!(of("unzip", "-o a.zip -d dir"), Some((vec![], Some(vec![3]), false)));
        assert_eq!(of("unzip", "-l a.zip"), None);
        assert_eq!(of("tar", "-xPf a.tar -C dir"), Some((vec![], Some(vec![3]), true)));
        // The archive it makes or changes; not its output (`-f -`, or no `-f`).
        assert_eq!(of("tar", "-cf a.tar -C dir ."), Some((vec![(1, 0)], None, false)));
        assert_eq!(of("tar", "cf a.tar src"), Some((vec![(1, 0)], None, false)));
        assert_eq!(of("tar", "-rf a.tar b"), Some((vec![(1, 0)], None, false)));
        assert_eq!(of("tar", "-uvf a.tar b"), Some((vec![(1, 0)], None, false)));
        assert_eq!(of("tar", "-Af a.tar b.tar"), Some((vec![(1, 0)], None, false)));
        assert_eq!(of("tar", "-cfa.tar b"), Some((vec![(0, 3)], None, false)));
        assert_eq!(of("tar", "--create --file=a.tar b"), Some((vec![(1, 7)], None, false)));
        assert_eq!(of("tar", "--delete -f a.tar b"), Some((vec![(2, 0)], None, false)));
        assert_eq!(of("tar", "--cr --file a.tar b"), Some((vec![(2, 0)], None, false)));
        assert_eq!(of("tar", "-c -f - src"), None);
        assert_eq!(of("tar", "-cz src"), None);
        assert_eq!(of("tar", "-tf a.tar"), None);
        assert_eq!(of("jar", "cf a.jar -C dir ."), Some((vec![(1, 0)], None, false)));
        assert_eq!(of("jar", "cmf manifest a.jar b"), Some((vec![(2, 0)], None, false)));
        assert_eq!(of("jar", "--update --file=a.jar b"), Some((vec![(1, 7)], None, false)));
        assert_eq!(of("jar", "-c -f a.jar b"), Some((vec![(2, 0)], None, false)));
        assert_eq!(of("jar", "cf0 a.jar b"), Some((vec![(1, 0)], None, false)));
        assert_eq!(of("jar", "c b"), None);
        assert_eq!(of("jar", "tf a.jar"), None);
        assert_eq!(of("ar", "rcs lib.a a.o b.o"), Some((vec![(1, 0)], None, false)));
        assert_eq!(of("ar", "-d lib.a a.o"), Some((vec![(1, 0)], None, false)));
        assert_eq!(of("ar", "--plugin p.so mb a.o lib.a b.o"), Some((vec![(4, 0)], None, false)));
        assert_eq!(of("ar", "--target=elf64 qN 2 lib.a a.o"), Some((vec![(3, 0)], None, false)));
        assert_eq!(of("ar", "s lib.a"), Some((vec![(1, 0)], None, false)));
        assert_eq!(of("ar", "rcs --target=elf64 lib.a a.o"), Some((vec![(2, 0)], None, false)));
        assert_eq!(of("ar", "rcs --target elf64 lib.a a.o"), Some((vec![(3, 0)], None, false)));
        assert_eq!(of("ar", "t lib.a"), None);
        assert_eq!(of("ar", "xv lib.a"), None);
        assert_eq!(of("zip", "-r out.zip a"), Some((vec![(1, 0)], None, false)));
        assert_eq!(of("zip", "-P pw -m out.zip a"), Some((vec![(3, 0)], None, false)));
        assert_eq!(of("zip", "in.zip a -O out.zip"), Some((vec![(3, 0)], None, false)));
        assert_eq!(of("zip", "-r - a"), None);
        assert_eq!(of("git", "checkout HEAD -- a b"), Some((vec![], Some(vec![3, 4]), false)));
        assert_eq!(of("git", "checkout HEAD a"), Some((vec![], Some(vec![2]), false)));
        assert_eq!(of("git", "checkout main"), Some((vec![], None, false)));
        assert_eq!(of("git", "checkout ."), Some((vec![], Some(vec![1]), false)));
        // A branch made from another commit is switched to it: what differs is written.
        assert_eq!(of("git", "checkout -b new origin/main"), Some((vec![], None, true)));
        assert_eq!(of("git", "checkout -b new"), None);
        assert_eq!(of("git", "restore --source=HEAD a"), Some((vec![], Some(vec![2]), false)));
        assert_eq!(of("git", "restore --staged a"), None);
        assert_eq!(of("git", "apply p.diff"), Some((vec![], None, true)));
        assert_eq!(of("git", "apply --check p.diff"), None);
        assert_eq!(of("git", "-C sub checkout -- a"), Some((vec![], None, true)));
        assert_eq!(of("git", "-c a.b=c checkout -- a"), Some((vec![], Some(vec![4]), false)));
        assert_eq!(of("git", "status"), None);
        assert_eq!(of("find", ". -name *.rs -fprint out"), Some((vec![(4, 0)], None, false)));
        assert_eq!(of("find", ". -fprintf out %p -fls l"), Some((vec![(2, 0), (5, 0)], None, false)));
        assert_eq!(of("find", ". -exec echo -fprint x ; -print"), None);
        assert_eq!(of("find", ". -name x"), None);
        assert_eq!(of("awk", "BEGIN{print\"x\">\"f\"}"), Some((vec![], None, true)));
        assert_eq!(of("awk", "$1>2{print;next} a"), None);
        assert_eq!(of("awk", "-f prog.awk a"), None);
        assert_eq!(of("gawk", "-e BEGIN{print\"x\">\"f\"} a"), Some((vec![], None, true)));
        assert_eq!(of("gawk", "--source=BEGIN{print\"x\">\"f\"} a"), Some((vec![], None, true)));
        assert_eq!(of("gawk", "-e BEGIN{} {print>\"f\"}"), None);
        assert_eq!(of("gawk", "-i inplace {print} a b"), Some((vec![(3, 0), (4, 0)], None, false)));
        // QA (gawk 5.2): each rewrote its operand.
        assert_eq!(of("gawk", "--include inplace {print} a"), Some((vec![(3, 0)], None, false)));
        assert_eq!(of("gawk", "--i=inplace {print} a"), Some((vec![(2, 0)], None, false)));
        assert_eq!(of("gawk", "-iinplace {print} a"), Some((vec![(2, 0)], None, false)));
        assert_eq!(of("gawk", "-i other.awk {print} a"), None);
    }
}
