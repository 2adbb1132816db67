//! Programs that write the files their operands name, so `tee config/a`
//! and `cp x config/` are checked against Edit rules as `> config/a` is:
//! tee's operands, dd's `of=`, the destination of cp, mv, install, ln and
//! rsync (the last operand, or the directory `-t`/`--target-directory`
//! gives), the files sed and perl edit in place (`-i`), and the operands
//! of truncate, sponge and ed; more in [`super::program_writes`].

use super::getopt::{Name, Parsed, Spec, long};
use super::program_writes;

/// The arguments (indexes into the words after the program) `program`
/// writes, and whether they are a destination the other operands are
/// copied or moved to (a directory: into it, under their names).
#[derive(Default)]
pub(crate) struct Written {
    pub(crate) targets: Vec<Part>,
    /// The operands copied or moved there.
    pub(crate) sources: Vec<usize>,
    /// Directories it writes anything under, files only its input names
    /// (`tar x -C DIR`); `Some` of none: its working directory.
    pub(crate) under: Option<Vec<Part>>,
    /// Each of `under` is relative to the one before, and it writes under
    /// the last (tar's `-C`, a change of directory in turn).
    pub(crate) under_in_turn: bool,
    /// Files it writes that only its input names, said so (`patch -p1 <
    /// p.diff`: "the files its patch names").
    pub(crate) unknown: Option<String>,
    /// It writes or removes anything under its working directory, with no
    /// operand naming where (`git clean -f`).
    pub(crate) all_under_cwd: bool,
    /// It puts back or removes files anywhere in git's work tree (`git
    /// reset --hard`, `git stash`): everything under its top.
    pub(crate) work_tree: bool,
    /// `git checkout NAME`'s operand, a branch when one is so named, else
    /// a pathspec: the files decide (one that exists is a path).
    pub(crate) branch_or_path: Option<usize>,
    /// The file it writes, in its working directory, when no operand or
    /// option names one (`split`'s `x…`): the prefix of each name it makes.
    pub(crate) named_in_cwd: Option<&'static str>,
    /// It writes a file in its working directory whose name is known only
    /// when it runs (`wget URL`: the URL's or server's).
    pub(crate) unnamed_in_cwd: bool,
    /// Files named by a word inside the directory another names, the two
    /// joined as text (curl's `-o NAME` under `--output-dir DIR` is
    /// `DIR/NAME`, an absolute NAME too): (directory, name).
    pub(crate) joined: Vec<(Part, Part)>,
    /// Files named by a word with an ending the program adds to it (zip's
    /// `.zip`, to a name with no `.` in its last part).
    pub(crate) extended: Vec<(Part, &'static str)>,
}

/// The end of a word that names a file: the whole word (`from` 0), or the
/// value an option holds in it (`--target-directory=dir`, `-tdir`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Part {
    pub(crate) word: usize,
    pub(crate) from: usize,
}

/// The options of each program with a destination: those taking a value,
/// `-t` naming it, and those [`super::links::making`] reads.
const DESTINATIONS: [(&str, Spec); 5] = [
    (
        "cp",
        Spec {
            short_values: "St",
            long: &[
                long("target-directory", "t", true, Some('t')),
                long("suffix", "su", true, Some('S')),
                long("no-target-directory", "no-t", false, Some('T')),
                long("symbolic-link", "sy", false, Some('s')),
                long("link", "l", false, Some('l')),
                long("archive", "ar", false, Some('a')),
                long("recursive", "rec", false, Some('r')),
                long("no-dereference", "no-d", false, Some('P')),
                long("dereference", "d", false, Some('L')),
            ],
        },
    ),
    (
        "mv",
        Spec {
            short_values: "St",
            long: &[
                long("target-directory", "t", true, Some('t')),
                long("suffix", "su", true, Some('S')),
                long("no-target-directory", "no-t", false, Some('T')),
            ],
        },
    ),
    (
        "ln",
        Spec {
            short_values: "St",
            long: &[
                long("target-directory", "t", true, Some('t')),
                long("suffix", "su", true, Some('S')),
                long("no-target-directory", "no-t", false, Some('T')),
                long("symbolic", "sy", false, Some('s')),
                long("relative", "r", false, Some('r')),
            ],
        },
    ),
    (
        "install",
        Spec {
            short_values: "StmogS",
            long: &[
                long("target-directory", "t", true, Some('t')),
                long("suffix", "su", true, Some('S')),
                long("mode", "m", true, Some('m')),
                long("owner", "o", true, Some('o')),
                long("group", "g", true, Some('g')),
                long("strip-program", "strip-", true, None),
            ],
        },
    ),
    // rsync's options are popt's, not cut short.
    ("rsync", Spec { short_values: "eBfTM", long: &[] }),
];

/// The options of a program with a destination (see [`DESTINATIONS`]) read.
pub(crate) fn destination_options(program: &str, args: &[&str]) -> Option<Parsed> {
    DESTINATIONS.iter().find(|(name, _)| *name == program).map(|(_, spec)| spec.parse(args))
}

/// Programs editing the files their operands name, with their short
/// options taking a value (attached or the next word; see
/// [`attached_value`] for those taking only an attached one) and, for sed
/// and perl, the option (`-i`) that has them edit in place rather than
/// print.
const IN_PLACE: [(&str, &str, Option<char>); 5] = [
    ("sed", "efl", Some('i')),
    ("perl", "eEI", Some('i')),
    ("truncate", "sr", None),
    ("sponge", "", None),
    ("ed", "p", None),
];

/// The operands an in-place editor (see [`IN_PLACE`]) writes: all of them,
/// but the script sed or perl takes as its first when no `-e` gave one;
/// `None` when it edits none (sed or perl without `-i`).
fn edited(program: &str, args: &[&str]) -> Option<Written> {
    let (_, values, in_place) = IN_PLACE.iter().find(|(name, _, _)| *name == program)?;
    let (mut editing, mut script_given) = (in_place.is_none(), false);
    let mut operands = Vec::new();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        if *arg == "--" {
            operands.extend(at..args.len());
            break;
        } else if let Some(long) = arg.strip_prefix("--") {
            editing |= long.starts_with("in-place");
            script_given |= long.starts_with("expression") || long.starts_with("file");
            // A long option's value after `=`, or the next word for those taking one.
            let takes = ["expression", "file", "line-length", "size", "reference"];
            if !long.contains('=') && takes.contains(&long) {
                at += 1;
            }
        } else if let Some(mut cluster) = arg.strip_prefix('-').filter(|cluster| !cluster.is_empty()) {
            while let Some(option) = cluster.chars().next() {
                cluster = &cluster[option.len_utf8()..];
                if Some(option) == *in_place {
                    // Its suffix (`-i.bak`) is the rest of the word.
                    editing = true;
                    break;
                }
                if values.contains(option) {
                    script_given |= option == 'e' || option == 'E' || option == 'f';
                    at += usize::from(cluster.is_empty());
                    break;
                }
                cluster = &cluster[attached_value(program, option, cluster)..];
            }
        } else {
            operands.push(at - 1);
        }
    }
    if !editing {
        return None;
    }
    let skip = usize::from(in_place.is_some() && !script_given);
    let targets = operands.into_iter().skip(skip).map(|word| Part { word, from: 0 }).collect();
    Some(Written { targets, ..Written::default() })
}

/// The length of the value `program`'s short `option` takes from the
/// rest of its word, `rest`, when it takes one only so; the options after
/// it in the word are read on. Perl's `-l` and `-0` take octal digits
/// (`-0x` hex ones), `-C` digits or its letters, and `-M`, `-m` and `-x` the
/// rest of the word: `perl -lpi` edits in place, as `perl -l -pi` does.
fn attached_value(program: &str, option: char, rest: &str) -> usize {
    let taken = |allowed: &str| rest.find(|c: char| !allowed.contains(c)).unwrap_or(rest.len());
    match (program, option) {
        // `-0xHH` takes hex digits to the word's end; other text after the x is `-x`'s (perl's `-0 -xFOO`).
        ("perl", '0') if rest.starts_with('x') => rest.len(),
        ("perl", 'l' | '0') => taken("01234567"),
        ("perl", 'C') => taken("0123456789IOEioSDALa"),
        ("perl", 'M' | 'm' | 'x') => rest.len(),
        _ => 0,
    }
}

pub(crate) fn written(program: &str, args: &[&str]) -> Option<Written> {
    if let Some(written) = edited(program, args).or_else(|| program_writes::written(program, args)) {
        return Some(written);
    }
    if program == "dd" {
        let targets = (0..args.len()).filter(|&at| args[at].starts_with("of=")).map(|word| Part { word, from: 3 });
        return Some(Written { targets: targets.collect(), ..Written::default() });
    }
    if program == "tee" {
        let targets = (0..args.len())
            .filter(|&at| !args[at].starts_with('-') || args[at] == "-")
            .map(|word| Part { word, from: 0 })
            .collect();
        return Some(Written { targets, ..Written::default() });
    }
    let parsed = destination_options(program, args)?;
    // rsync's `-T` is its temporary directory, not cp's `--no-target-directory`.
    let target_directory = parsed.values(Name::Short('t')).pop().filter(|_| program != "rsync");
    let mut operands = parsed.operands;
    let (targets, sources) = match target_directory {
        Some(directory) => (vec![directory], operands),
        None if operands.len() >= 2 => {
            let last = operands.pop().expect("two at least");
            (vec![Part { word: last, from: 0 }], operands)
        }
        None => return None,
    };
    Some(Written { targets, sources, ..Written::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(program: &str, line: &str) -> Option<(Vec<usize>, Vec<usize>)> {
        let args: Vec<&str> = line.split_whitespace().collect();
        let targets = |written: &Written| written.targets.iter().map(|part| part.word).collect();
        written(program, &args).map(|written| (targets(&written), written.sources))
    }

    #[test]
    fn targets_and_sources() {
        assert_eq!(of("tee", "-a out log"), Some((vec![1, 2], vec![])));
        assert_eq!(of("cp", "-r a b dest"), Some((vec![3], vec![1, 2])));
        assert_eq!(of("cp", "-t dest a b"), Some((vec![1], vec![2, 3])));
        assert_eq!(of("mv", "-S .bak a b"), Some((vec![3], vec![2])));
        assert_eq!(of("install", "-m 644 a /usr/x"), Some((vec![3], vec![2])));
        assert_eq!(of("cp", "a --target-directory=dest"), Some((vec![1], vec![0])));
        assert_eq!(of("cp", "-tdest a"), Some((vec![0], vec![1])));
        assert_eq!(of("install", "-Dt dest a"), Some((vec![1], vec![2])));
        assert_eq!(of("cp", "a"), None);
        assert_eq!(of("cat", "a b"), None);
        assert_eq!(of("dd", "if=a of=b bs=1"), Some((vec![1], vec![])));
        assert_eq!(of("rsync", "-a -e ssh a b dest"), Some((vec![5], vec![3, 4])));
        // In place: sed's and perl's script is their first operand unless `-e` gave it.
        assert_eq!(of("sed", "-i s/a/b/ f g"), Some((vec![2, 3], vec![])));
        assert_eq!(of("sed", "-ni.bak -e p f"), Some((vec![3], vec![])));
        assert_eq!(of("sed", "--in-place=.b --expression p f"), Some((vec![3], vec![])));
        assert_eq!(of("sed", "-Ei s/a/b/ f"), Some((vec![2], vec![])));
        assert_eq!(of("sed", "s/a/b/ f"), None);
        assert_eq!(of("sed", "-ei f"), None);
        assert_eq!(of("perl", "-pi -e s/a/b/ f"), Some((vec![3], vec![])));
        assert_eq!(of("perl", "-i.bak script.pl f"), Some((vec![2], vec![])));
        assert_eq!(of("perl", "-e print f"), None);
        assert_eq!(of("truncate", "-s 0 f g"), Some((vec![2, 3], vec![])));
        assert_eq!(of("sponge", "-a f"), Some((vec![1], vec![])));
        assert_eq!(of("ed", "-s f"), Some((vec![1], vec![])));
    }
}
