//! Programs that read every file under a directory they are given, so
//! `grep -r plans qa` is checked as reading what is under `qa`.
//!
//! - grep, egrep, fgrep with `-r`, `-R`, `--recursive` or
//!   `--dereference-recursive`; rg, ag and ack always (rg and ag skipping
//!   hidden and gitignored files, as they do by default; these read the
//!   working directory when no path is given; their pattern and option
//!   values are not paths, see [`not_operands`]);
//! - tar, zip and rsync (the last operand of rsync is where it writes);
//! - cp and scp with `-r`, `-R`, `-a`, `--recursive` or `--archive`, all
//!   operands but the last (the destination); diff with `-r`;
//! - find with `-exec`, `-execdir`, `-ok` or `-okdir` running a program
//!   that may read (anything but a few that only handle names or metadata,
//!   like rm or chmod), for each start point (`.` when none is given).
//!
//! Each reads what the links it meets lead to where it follows them
//! ([`follows_links`]). Listing programs (ls -R, du, tree) read names, not contents: Read rules
//! guard contents, so they are not here.

/// The arguments (indexes into the words after the program) that the
/// program reads whole, and whether it reads its working directory when
/// none of them names a path.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Whole {
    pub(crate) args: Vec<usize>,
    pub(crate) default_cwd: bool,
    /// Which files under a directory it reads, and whether through the
    /// links it meets.
    pub(crate) reading: Reading,
}

use super::getopt::{Name, Parsed, Spec, long};
use super::walk::{Filter, Reading, Skips};
use super::writers::{Part, destination_options, written};

/// Programs `find -exec` or xargs may run that handle names or metadata,
/// never what a file holds.
const NAME_ONLY: [&str; 14] = [
    "rm", "rmdir", "chmod", "chown", "chgrp", "touch", "ls", "stat", "echo", "printf", "mv", "du", "basename",
    "dirname",
];

/// A program that reads the files its operands name (`cat`, `grep`,
/// `tar`…), and its options: letters of the short ones taking a value,
/// the long ones taking a value and, for a program whose first operand is
/// a pattern or script rather than a file (grep, sed, awk…), which options
/// give it instead (then no operand is one) or give a file of them (a file
/// it reads, not a directory it searches); and which options name another
/// file it reads (a list of names or globs: grep's `--exclude-from`, tar's
/// `-T`).
struct Reader {
    program: &'static str,
    short_values: &'static str,
    /// Long options taking a value, where `all_long` does not say.
    long_values: &'static [&'static str],
    pattern_operand: bool,
    patterns: &'static [&'static str],
    pattern_files: &'static [&'static str],
    files_read: &'static [&'static str],
    /// All of its long options, where a name cut short is read as the
    /// whole one (`grep --reg P` is `--regexp P`).
    all_long: Option<&'static Spec>,
}

impl Reader {
    /// A reader whose operands are all files, with these short options taking a value.
    const fn files(program: &'static str, short_values: &'static str) -> Reader {
        Reader {
            program,
            short_values,
            long_values: &[],
            pattern_operand: false,
            patterns: &[],
            pattern_files: &[],
            files_read: &[],
            all_long: None,
        }
    }

    /// Whether the option `name` (a letter or a long name) names a file it reads.
    fn reads_file(&self, name: &str) -> bool {
        self.pattern_files.contains(&name) || self.files_read.contains(&name)
    }
}

const RG_LONG: &[&str] = &[
    "regexp",
    "file",
    "glob",
    "iglob",
    "type",
    "type-not",
    "type-add",
    "type-clear",
    "max-count",
    "after-context",
    "before-context",
    "context",
    "threads",
    "max-columns",
    "replace",
    "encoding",
    "max-depth",
    "ignore-file",
    "pre",
    "pre-glob",
    "sort",
    "sortr",
    "max-filesize",
    "path-separator",
    "colors",
    "context-separator",
];
/// grep's options; egrep and fgrep take the same.
const GREP: Reader = Reader {
    program: "grep",
    short_values: GREP_OPTIONS.short_values,
    // Its long options and which take a value: `all_long`.
    long_values: &[],
    pattern_operand: true,
    patterns: &["e", "regexp"],
    pattern_files: &["f", "file"],
    files_read: &["exclude-from"],
    all_long: Some(&GREP_OPTIONS),
};
/// awk's options (gawk's long ones too); gawk, mawk and nawk take the same.
const AWK: Reader = Reader {
    program: "awk",
    short_values: super::awk::AWK.short_values,
    // Its long options and which take a value: `all_long`.
    long_values: &[],
    pattern_operand: true,
    patterns: &["e", "source"],
    pattern_files: &["f", "file", "E", "exec"],
    files_read: &[],
    all_long: Some(&super::awk::AWK),
};
const READERS: [Reader; 46] = [
    GREP,
    Reader { program: "egrep", ..GREP },
    Reader { program: "fgrep", ..GREP },
    Reader {
        program: "rg",
        short_values: "efgtTmABCjMrEd",
        long_values: RG_LONG,
        pattern_operand: true,
        patterns: &["e", "regexp"],
        pattern_files: &["f", "file"],
        files_read: &["ignore-file"],
        all_long: None,
    },
    Reader {
        program: "ag",
        short_values: "ABCGgm",
        long_values: &[
            "after",
            "before",
            "context",
            "file-search-regex",
            "max-count",
            "ignore",
            "ignore-dir",
            "depth",
            "pager",
        ],
        pattern_operand: true,
        patterns: &[],
        pattern_files: &[],
        files_read: &[],
        all_long: None,
    },
    Reader {
        program: "ack",
        short_values: "ABCm",
        long_values: &[
            "match",
            "after-context",
            "before-context",
            "context",
            "max-count",
            "type-set",
            "type-add",
            "ignore-dir",
            "ignore-file",
            "output",
        ],
        pattern_operand: true,
        patterns: &["match"],
        pattern_files: &[],
        files_read: &[],
        all_long: None,
    },
    Reader {
        program: "sed",
        short_values: "efl",
        long_values: &["expression", "file", "line-length"],
        pattern_operand: true,
        patterns: &["e", "expression"],
        pattern_files: &["f", "file"],
        files_read: &[],
        all_long: None,
    },
    AWK,
    Reader { program: "gawk", ..AWK },
    Reader { program: "mawk", ..AWK },
    Reader { program: "nawk", ..AWK },
    Reader::files("cat", ""),
    Reader::files("tac", "s"),
    Reader::files("nl", "bdfhilnsvw"),
    Reader { long_values: &["lines", "bytes"], ..Reader::files("head", "nc") },
    Reader { long_values: &["lines", "bytes", "pid", "sleep-interval"], ..Reader::files("tail", "ncs") },
    Reader::files("less", "bhjkxyz"),
    Reader::files("more", "n"),
    Reader::files("wc", ""),
    Reader { long_values: &["key", "output", "field-separator"], ..Reader::files("sort", "kotST") },
    Reader::files("uniq", "fsw"),
    Reader { long_values: &["bytes", "characters", "delimiter", "fields"], ..Reader::files("cut", "bcdf") },
    Reader::files("paste", "d"),
    Reader::files("od", "AjNtw"),
    Reader::files("xxd", "cglos"),
    Reader::files("hexdump", "ens"),
    Reader::files("strings", "nt"),
    Reader::files("base64", "w"),
    Reader::files("md5sum", ""),
    Reader::files("sha1sum", ""),
    Reader::files("sha256sum", ""),
    Reader::files("sha512sum", ""),
    Reader::files("cksum", ""),
    Reader::files("cmp", "in"),
    Reader::files("diff", "CUxI"),
    // Their options are read by their own tables ([`not_operands`]).
    Reader::files("tar", ""),
    Reader::files("jar", ""),
    Reader::files("pax", ""),
    Reader::files("7z", ""),
    Reader::files("7za", ""),
    Reader::files("7zr", ""),
    Reader::files("7zz", ""),
    Reader::files("zip", "bnt"),
    Reader::files("cp", "St"),
    Reader::files("scp", "cJlopPS"),
    Reader {
        long_values: &["files-from", "exclude-from", "include-from"],
        files_read: &["files-from", "exclude-from", "include-from"],
        ..Reader::files("rsync", "BeT")
    },
];

/// The words of a command that are not paths to check as operands.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct NotOperands {
    /// Option values and a search program's pattern (`src` in
    /// `grep -r src`, `5` in `grep -m 5 x`): they name no file.
    pub(crate) words: Vec<usize>,
    /// Files its options name that it reads (`-f pats`, `--file=pats`,
    /// `-ifpats`, `--exclude-from F`): not searched as directories; each
    /// value is among `words` too when a word of its own.
    pub(crate) files: Vec<Part>,
}

/// Whether `program` reads the files its operands name, so an operand
/// known only when the command runs (`cat "$f"`) is a file it reads.
pub(crate) fn reads_operands(program: &str) -> bool {
    READERS.iter().any(|reader| reader.program == program)
}

/// Which of `args` a reader (see [`reads_operands`]) takes as option
/// values and, for grep, sed and the like, its pattern or script: the
/// first operand, unless an option gave it. For find, its expression but
/// a `-files0-from` file (a test's pattern, `-newer`'s file whose times it
/// reads, what `-exec` runs, checked as a command of its own); for `ln
/// -s`, each link's text (a later read through the link reads where it
/// leads). Empty for other programs.
pub(crate) fn not_operands(program: &str, args: &[&str]) -> NotOperands {
    let mut out = NotOperands::default();
    match program {
        "find" => {
            let values = args.windows(2).enumerate().filter(|(_, pair)| pair[0] == "-files0-from");
            let names_file: Vec<usize> = values.map(|(at, _)| at + 1).collect();
            out.words = (find_start_range(args).end..args.len()).filter(|at| !names_file.contains(at)).collect();
            return out;
        }
        "ln" => {
            out.words = link_texts(args);
            return out;
        }
        // Its old-style letters (`czf`) and the values of `-C` or `-b` are no files to read.
        "tar" => {
            let tar = super::program_writes::tar_words(args);
            out.words = (0..args.len()).filter(|at| !tar.operands.contains(at)).collect();
            out.files = tar.files;
            return out;
        }
        _ => {}
    }
    if let Some(not) = super::archivers::not_operands(program, args) {
        return not;
    }
    let Some(reader) = READERS.iter().find(|reader| reader.program == program) else { return out };
    let mut pattern_given = false;
    let mut first_operand = None;
    let mut options_ended = false;
    // A file an option names (`-` is standard input).
    let read = |files: &mut Vec<Part>, name: &str, word: usize, from: usize| {
        if reader.reads_file(name) && !matches!(&args[word][from..], "" | "-") {
            files.push(Part { word, from });
        }
    };
    let mut at = 0;
    while at < args.len() {
        let arg = args[at];
        // The option this word ends with, if it takes its value from the next word.
        let mut takes_next = None;
        if options_ended || !arg.starts_with('-') || arg == "-" {
            first_operand = first_operand.or(Some(at));
        } else if arg == "--" {
            options_ended = true;
        } else if let Some(long) = arg.strip_prefix("--") {
            let (name, inline) =
                long.split_once('=').map_or((long, None), |(name, _)| (name, Some("--".len() + name.len() + 1)));
            // A reader with all its long options known reads a cut-short name as the option it
            // stands for, and whether that takes a value from the same table.
            let known = reader.all_long.and_then(|spec| spec.long_named(name));
            let takes_value = known.map_or_else(|| reader.long_values.contains(&name), |option| option.value);
            let name = known.map_or(name, |option| option.name);
            pattern_given |= reader.patterns.contains(&name) || reader.pattern_files.contains(&name);
            match inline {
                Some(from) => read(&mut out.files, name, at, from),
                None if takes_value => takes_next = Some(name),
                None => {}
            }
        } else if let Some((offset, letter)) = arg[1..].char_indices().find(|(_, c)| reader.short_values.contains(*c)) {
            let name = &arg[1 + offset..1 + offset + letter.len_utf8()];
            pattern_given |= reader.patterns.contains(&name) || reader.pattern_files.contains(&name);
            // The rest of the word is its value (`-fpats`, `-ifpats`), else the next word.
            let from = 1 + offset + letter.len_utf8();
            if from == arg.len() {
                takes_next = Some(name);
            } else {
                read(&mut out.files, name, at, from);
            }
        }
        if let Some(name) = takes_next
            && at + 1 < args.len()
        {
            out.words.push(at + 1);
            read(&mut out.files, name, at + 1, 0);
            at += 1;
        }
        at += 1;
    }
    if let Some(pattern) = first_operand.filter(|_| reader.pattern_operand && !pattern_given) {
        out.words.push(pattern);
        out.words.sort_unstable();
    }
    out
}

/// How `program` (a file name) reads what `args` name; `None` when it reads
/// no directory whole. `not` is what [`not_operands`] found in `args`.
pub(crate) fn whole(program: &str, args: &[&str], not: &NotOperands) -> Option<Whole> {
    let operands =
        || (0..args.len()).filter(|&i| !args[i].starts_with('-') && !not.words.contains(&i)).collect::<Vec<_>>();
    let all_but_last = || {
        let mut operands = operands();
        operands.pop();
        operands
    };
    let flagged = |short: &str, long: &[&str]| {
        args.iter().any(|arg| {
            long.contains(arg)
                || (arg.starts_with('-') && !arg.starts_with("--") && arg[1..].contains(|c| short.contains(c)))
        })
    };
    // rg and ag skip hidden and gitignored files unless told not to
    // (`-u`, `--hidden`, `--no-ignore…`; ag's `-U` too).
    let unrestricted = args.iter().any(|arg| {
        matches!(*arg, "--hidden" | "--unrestricted" | "--all-types" | "-.")
            || arg.starts_with("--no-ignore")
            || (arg.starts_with('-')
                && !arg.starts_with("--")
                && arg.contains(['u', if program == "ag" { 'U' } else { 'u' }]))
    });
    let mut filter = Filter::Everything;
    let follows_links = follows_links(program, args, &flagged);
    let (args, default_cwd) = match program {
        "grep" | "egrep" | "fgrep" => {
            let reading = grep_walk(args)?;
            return Some(Whole { args: operands(), default_cwd: true, reading });
        }
        "rg" | "ag" => {
            if !unrestricted {
                filter = Filter::Ignores;
            }
            (operands(), true)
        }
        "ack" => (operands(), true),
        "tar" | "zip" => (operands(), false),
        "jar" | "pax" | "7z" | "7za" | "7zr" | "7zz" => super::archivers::reads_whole(program, args, operands())?,
        "rsync" => (all_but_last(), false),
        "cp" | "scp" if flagged("rRa", &["--recursive", "--archive"]) => (all_but_last(), false),
        // Moving or hard linking puts everything under it where a later command of the line reads it
        // by another name (`mv secret s2 && cat s2/key`): it reaches them as a recursive copy does. A
        // lone `ln TARGET` links it here. A symbolic link leads back, followed where it is read.
        "ln" if !link_texts(args).is_empty() => return None,
        "mv" | "ln" => (written(program, args).map_or_else(operands, |written| written.sources), false),
        "diff" if flagged("r", &["--recursive"]) => (operands(), false),
        "find" => return find(args),
        _ => return None,
    };
    Some(Whole { args, default_cwd, reading: Reading { filter, follows_links, skips: Skips::NONE } })
}

/// grep's options as GNU grep 3.11 reads them: all of its long ones, so a
/// prefix is known to be one's alone (`--inc` is `--include`) and an
/// option's value is not taken for an option (`-e --exclude-dir=x`).
const GREP_OPTIONS: Spec = Spec {
    short_values: "efmABCdD",
    long: &[
        long("after-context", "a", true, Some('A')),
        long("basic-regexp", "ba", false, Some('G')),
        long("before-context", "be", true, Some('B')),
        long("binary-files", "binary-", true, None),
        long("byte-offset", "by", false, Some('b')),
        long("context", "con", true, Some('C')),
        // `--color` takes its value only after `=`.
        long("color", "col", false, None),
        long("colour", "colou", false, None),
        long("count", "cou", false, Some('c')),
        long("devices", "dev", true, Some('D')),
        long("directories", "di", true, Some('d')),
        long("exclude", "exclude", true, None),
        long("exclude-from", "exclude-f", true, None),
        long("exclude-dir", "exclude-d", true, None),
        long("extended-regexp", "ext", false, Some('E')),
        long("file", "file", true, Some('f')),
        long("files-with-matches", "files-with-", false, Some('l')),
        long("files-without-match", "files-witho", false, Some('L')),
        long("fixed-strings", "fix", false, Some('F')),
        long("help", "h", false, None),
        long("include", "inc", true, None),
        long("ignore-case", "ig", false, Some('i')),
        long("no-ignore-case", "no-i", false, None),
        long("initial-tab", "ini", false, Some('T')),
        long("label", "la", true, None),
        long("line-buffered", "line-b", false, None),
        long("line-number", "line-n", false, Some('n')),
        long("line-regexp", "line-r", false, Some('x')),
        long("max-count", "m", true, Some('m')),
        long("no-filename", "no-f", false, Some('h')),
        long("no-group-separator", "no-g", false, None),
        long("group-separator", "g", true, None),
        long("no-messages", "no-m", false, Some('s')),
        long("null", "null", false, Some('Z')),
        long("null-data", "null-", false, Some('z')),
        long("only-matching", "o", false, Some('o')),
        long("perl-regexp", "p", false, Some('P')),
        long("quiet", "q", false, Some('q')),
        long("recursive", "rec", false, Some('r')),
        long("dereference-recursive", "der", false, Some('R')),
        long("regexp", "reg", true, Some('e')),
        long("invert-match", "inv", false, Some('v')),
        long("silent", "s", false, Some('q')),
        long("text", "t", false, Some('a')),
        long("binary", "binary", false, Some('U')),
        long("unix-byte-offsets", "u", false, Some('u')),
        long("version", "v", false, Some('V')),
        long("with-filename", "wi", false, Some('H')),
        long("word-regexp", "wo", false, Some('w')),
    ],
};

/// How grep given `args` walks directories: `None` when it does not
/// (the last of `-r`, `-R` and `-d ACTION` says; `-d recurse`, cut short
/// to `rec` or more, is `-r`), else whether it follows the links it meets
/// (`-R` anywhere: a later `-r` keeps it) and what it leaves out.
fn grep_walk(args: &[&str]) -> Option<Reading> {
    let parsed = GREP_OPTIONS.parse(args);
    let value = |part: Part| &args[part.word][part.from..];
    let last = parsed.options.iter().rev().find(|given| matches!(given.name, Name::Short('r' | 'R' | 'd')))?;
    let recursive = match last.name {
        Name::Short('d') => {
            last.value.map(value).is_some_and(|action| action.len() >= 3 && "recurse".starts_with(action))
        }
        _ => true,
    };
    if !recursive {
        return None;
    }
    let follows_links = parsed.has(Name::Short('R'));
    Some(Reading { filter: Filter::Everything, follows_links, skips: grep_skips(&parsed, &value) })
}

/// The globs grep's `--exclude-dir`, `--exclude` and `--include` give,
/// whose names it leaves out as it walks (see [`Skips`]); whether an
/// include came before any exclude (`--exclude-from` is one: its globs,
/// unread here, only leave more out). None when a long option is not
/// known for certain (grep may take it for one of these).
fn grep_skips<'a>(parsed: &Parsed, value: &impl Fn(Part) -> &'a str) -> Skips {
    if !parsed.unknown.is_empty() {
        return Skips::NONE;
    }
    let mut skips = Skips::NONE;
    let mut first = None;
    for given in &parsed.options {
        let Name::Long(name @ ("exclude-dir" | "exclude" | "exclude-from" | "include")) = given.name else { continue };
        first.get_or_insert(name);
        let list = match name {
            "exclude-dir" => &mut skips.dirs,
            "exclude" => &mut skips.files,
            "include" => &mut skips.include,
            _ => continue,
        };
        list.extend(given.value.map(|part| value(part).to_string()));
    }
    skips.include_first = first == Some("include");
    skips
}

/// Whether `program` given `args` reads what the links it meets walking a
/// directory lead to (`flagged`: whether a short option among those
/// letters or a long one listed is given; grep: see [`grep_walk`]): rg with `-L`,
/// ag with `-f`, ack with `--follow`, tar with `-h`, zip unless `-y`,
/// rsync with `-L`, `-k` or `--copy-unsafe-links`, cp with `-L` last
/// (see [`super::links::cp_dereferencing`]), scp
/// always, diff unless `--no-dereference`, and the program find runs,
/// given each link's name.
fn follows_links(program: &str, args: &[&str], flagged: &impl Fn(&str, &[&str]) -> bool) -> bool {
    match program {
        "rg" => flagged("L", &["--follow"]),
        "ag" => flagged("f", &["--follow"]),
        "ack" => flagged("", &["--follow"]),
        "tar" => super::program_writes::tar_dereferences(args),
        "zip" => !zip_stores_links(args),
        "rsync" => flagged("Lk", &["--copy-links", "--copy-unsafe-links", "--copy-dirlinks"]),
        "cp" => destination_options(program, args)
            .is_some_and(|parsed| super::links::cp_dereferencing(&parsed) == Some('L')),
        "diff" => !args.contains(&"--no-dereference"),
        "scp" | "find" => true,
        _ => false,
    }
}

/// Whether zip certainly stores the links it meets as links: `-y` or
/// `--symlinks`, in a word of letters that are each an option taking no
/// value and starting no option of two letters (`-ry`, not `-lfy`, `-xy`:
/// `-lf` and `-x` take the rest as their value), that is no option's value
/// (`-P -y`: a password): the word before it is an operand or such a
/// word. Anything less sure follows links (reads where they lead).
fn zip_stores_links(args: &[&str]) -> bool {
    const PLAIN_LETTERS: &str = "0123456789qrRjJgmoDXkeuvy";
    let mut after_value_option = false;
    for arg in args.iter().take_while(|arg| **arg != "--") {
        let plain = *arg == "--symlinks"
            || arg.strip_prefix('-').is_some_and(|letters| {
                !letters.is_empty() && letters.chars().all(|letter| PLAIN_LETTERS.contains(letter))
            });
        if plain && !after_value_option && arg.contains('y') {
            return true;
        }
        // An option word of other letters (or another long option) may take the next word as its value.
        after_value_option = arg.starts_with('-') && !plain;
    }
    false
}

/// Whether `program`, run on names found when the command runs (by
/// `find -exec` or xargs), may read what they name: anything but a
/// program that only handles names or metadata.
pub(crate) fn may_read(program: &str) -> bool {
    !NAME_ONLY.contains(&super::bash::basename(program))
}

/// find's start points, when an action it takes may read the files.
fn find(args: &[&str]) -> Option<Whole> {
    let reads =
        args.windows(2).any(|pair| matches!(pair[0], "-exec" | "-execdir" | "-ok" | "-okdir") && may_read(pair[1]));
    if !reads {
        return None;
    }
    let reading = Reading { filter: Filter::Everything, follows_links: true, skips: Skips::NONE };
    Some(Whole { args: find_starts(args), default_cwd: true, reading })
}

/// find's start points (the words after its `-H`/`-L`/`-P`, up to its
/// expression): `.` when there are none.
pub(crate) fn find_starts(args: &[&str]) -> Vec<usize> {
    find_start_range(args).collect()
}

/// Where find's start points are among its `args`: past `-H`, `-L`,
/// `-P`, up to its expression.
fn find_start_range(args: &[&str]) -> std::ops::Range<usize> {
    let options = args.iter().take_while(|arg| matches!(**arg, "-H" | "-L" | "-P")).count();
    let starts = args[options..].iter().take_while(|arg| !arg.starts_with(['-', '(', '!', ')'])).count();
    options..options + starts
}

/// The words `ln -s` (`--symbolic`) stores as its links' texts: every
/// operand with `-t DIR`, else all but the last (the link), or the one
/// operand (a link of its name here). None for a hard link, which is the
/// file itself by another name.
fn link_texts(args: &[&str]) -> Vec<usize> {
    let Some(parsed) = destination_options("ln", args).filter(|parsed| parsed.has(Name::Short('s'))) else {
        return Vec::new();
    };
    let into_directory = parsed.has(Name::Short('t'));
    let mut operands = parsed.operands;
    if !into_directory && operands.len() > 1 {
        operands.pop();
    }
    operands
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the command `line` (words split at spaces) reads whole.
    fn whole_of(line: &str) -> Option<Whole> {
        let words: Vec<&str> = line.split(' ').collect();
        whole(words[0], &words[1..], &not_operands(words[0], &words[1..]))
    }

    fn read_whole(line: &str) -> Option<(Vec<&str>, bool)> {
        let words: Vec<&str> = line.split(' ').collect();
        let found = whole_of(line)?;
        Some((found.args.iter().map(|&i| words[i + 1]).collect(), found.default_cwd))
    }

    #[test]
    fn rg_and_ag_skip_ignored_files_unless_told_not_to() {
        let filter = |line: &str| whole_of(line).unwrap().reading.filter;
        assert_eq!(filter("rg x"), Filter::Ignores);
        assert_eq!(filter("ag -i x src"), Filter::Ignores);
        for line in ["rg -uu x", "rg --hidden x", "rg --no-ignore-vcs x", "ag -U x", "ack x", "grep -r x"] {
            assert_eq!(filter(line), Filter::Everything, "{line}");
        }
    }

    #[test]
    fn recursive_readers_and_what_they_read() {
        assert_eq!(read_whole("grep -r plans qa"), Some((vec!["qa"], true)));
        assert_eq!(read_whole("grep -rn plans"), Some((vec![], true)));
        assert_eq!(read_whole("grep --recursive x a b"), Some((vec!["a", "b"], true)));
        assert_eq!(read_whole("rg plans"), Some((vec![], true)));
        assert_eq!(read_whole("tar cf - qa/secret"), Some((vec!["qa/secret"], false)));
        assert_eq!(read_whole("cp -a qa /tmp/out"), Some((vec!["qa"], false)));
        assert_eq!(read_whole("rsync -av qa host:backup"), Some((vec!["qa"], false)));
        assert_eq!(read_whole("diff -ru a b"), Some((vec!["a", "b"], false)));
        assert_eq!(read_whole("find qa src -name *.txt -exec cat {} ;"), Some((vec!["qa", "src"], true)));
        assert_eq!(read_whole("find -L -exec grep x {} +"), Some((vec![], true)));
        // The pattern and option values name no path; an option may give the pattern.
        assert_eq!(read_whole("grep -r -e src"), Some((vec![], true)));
        assert_eq!(read_whole("grep -rm 5 --include *.rs src qa"), Some((vec!["qa"], true)));
        assert_eq!(read_whole("grep -r -f pats src"), Some((vec!["src"], true)));
        assert_eq!(read_whole("rg --regexp=x -g *.rs src"), Some((vec!["src"], true)));
        assert_eq!(read_whole("rg -- -x qa"), Some((vec!["qa"], true)));
        // Not reading contents, or not recursive.
        for line in
            ["grep plans qa/notes.md", "cp qa/a b", "find qa -exec rm {} ;", "find qa -name x", "du -sh qa", "ls -R qa"]
        {
            assert_eq!(read_whole(line), None, "{line}");
        }
    }
}
