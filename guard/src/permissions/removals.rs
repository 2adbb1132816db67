//! Programs that remove the files their operands name, or move them
//! away: removing a file changes it at least as much as writing it, so
//! `rm config/a.ini` is checked against Edit rules as `> config/a.ini` is.
//! rm's, unlink's and rmdir's operands, shred's (it overwrites them, and
//! with `-u` removes them), the sources mv moves and `rsync
//! --remove-source-files` sends, what `tar --remove-files` archives and
//! `zip -m` zips, the files a hard link is made of (`ln`, `link`, `cp -l`:
//! the file under another name, written through it), and find's start points when it deletes
//! (`-delete`) or runs one of these on what it finds (`-exec rm {} +`).
//! A directory removed or moved whole (`rm -r`, mv, find, tar, zip) counts
//! as everything under it, empty directories included. `git rm` and `git
//! mv` are [`super::program_writes`]' (git's work tree writes).

use std::path::Path;

use globset::{GlobBuilder, GlobMatcher};

use super::getopt::{Name, Spec, long};
use super::readers::find_starts;
use super::writers::{Part, written};

/// Programs that remove or move away what they are given, run by find's
/// `-exec` or by xargs on names found only when they run.
/// `ln` and `link` make a hard link of each (see [`HARD_LINKS`]).
const REMOVERS: [&str; 7] = ["rm", "unlink", "rmdir", "shred", "mv", "ln", "link"];

/// What a program removes, and how a verdict says it.
#[derive(Debug)]
pub(crate) struct Removed {
    /// "removes", "moves away"…
    pub(crate) verb: &'static str,
    pub(crate) operands: Vec<Part>,
    /// A directory among them goes with everything under it.
    pub(crate) whole: bool,
    /// No operand names one: it removes under its working directory
    /// (`find -delete`).
    pub(crate) default_cwd: bool,
    /// What it removes that is named only when it runs, said so ("the
    /// files `list` names": `tar --remove-files -T list`).
    pub(crate) unknown: Option<String>,
    /// The name patterns each file it removes under a directory matches
    /// (find's `-name`, `-iname`): none, any file.
    names: Vec<GlobMatcher>,
}

impl Removed {
    /// Whether it may remove `path`, found under a directory it removes.
    pub(crate) fn may_remove(&self, path: &Path) -> bool {
        let name = path.file_name().unwrap_or_default();
        self.names.iter().all(|pattern| pattern.is_match(name))
    }
}

const RM: Spec = Spec { short_values: "", long: &[long("recursive", "r", false, Some('r'))] };
/// unlink's and rmdir's options, none taking a value.
const NO_VALUES: Spec = Spec { short_values: "", long: &[] };
const SHRED: Spec = Spec {
    short_values: "ns",
    long: &[
        long("iterations", "i", true, Some('n')),
        long("size", "s", true, Some('s')),
        long("random-source", "ra", true, None),
        long("remove", "re", false, Some('u')),
    ],
};

/// How a verdict says a hard link made of a file, an edit of it as a removal is.
const HARD_LINKS: &str = "gives another name (a hard link, written through) to";

/// Whether `args` hold the short option `letter` (alone or among others, `-sf`) or `long`, or a
/// prefix of it as getopt takes one (`--l` for `--link`).
fn short_or_long(args: &[&str], letter: char, long: &str) -> bool {
    args.iter().take_while(|arg| **arg != "--").any(|arg| match arg.strip_prefix("--") {
        Some(name) => {
            let name = name.split('=').next().unwrap_or_default();
            !name.is_empty() && long.trim_start_matches('-').starts_with(name)
        }
        None => arg.starts_with('-') && arg[1..].contains(letter),
    })
}

/// What `program` given `args` (the words after it) removes, when it is
/// one of these.
pub(crate) fn removed(program: &str, args: &[&str]) -> Option<Removed> {
    let of = |verb, operands: Vec<usize>, whole| Removed {
        verb,
        operands: operands.into_iter().map(|word| Part { word, from: 0 }).collect(),
        whole,
        default_cwd: false,
        unknown: None,
        names: Vec::new(),
    };
    match program {
        "rm" => {
            let parsed = RM.parse(args);
            let recursive = parsed.has(Name::Short('r')) || parsed.has(Name::Short('R'));
            Some(of("removes", parsed.operands, recursive))
        }
        "unlink" | "rmdir" => Some(of("removes", NO_VALUES.parse(args).operands, false)),
        "shred" => Some(of("overwrites", SHRED.parse(args).operands, false)),
        "mv" => Some(of("moves away", written(program, args)?.sources, true)),
        // A hard link is the file under another name: a write through it (`ctx_edit` of the new
        // name, `> link`) writes the file, which no rule covering the name alone would see.
        "ln" if !short_or_long(args, 's', "--symbolic") => Some(of(HARD_LINKS, written(program, args)?.sources, false)),
        "link" => Some(of(HARD_LINKS, NO_VALUES.parse(args).operands.into_iter().take(1).collect(), false)),
        "cp" if short_or_long(args, 'l', "--link") => {
            let recursive = short_or_long(args, 'r', "--recursive")
                || short_or_long(args, 'R', "--recursive")
                || short_or_long(args, 'a', "--archive");
            Some(of(HARD_LINKS, written(program, args)?.sources, recursive))
        }
        "tar" => {
            let removed = super::program_writes::tar_removed(args)?;
            let word = |part: &Part| &args[part.word][part.from..];
            // Each list is read as a file tar reads (see `readers`); what it names, only when it
            // runs; so are the operands named from a `-C` directory, which may change between them.
            let named = removed.lists.iter().map(|list| format!("`{}`", word(list))).collect::<Vec<_>>();
            let verb = if named.len() == 1 { "names" } else { "name" };
            let listed = (!named.is_empty()).then(|| format!("the files {} {verb}", named.join(" and ")));
            let under = removed.after_directory.map(|dir| format!("the files named after `-C {}`", word(&dir)));
            let unknown = [listed, under].into_iter().flatten().collect::<Vec<_>>();
            let unknown = (!unknown.is_empty()).then(|| unknown.join(" and "));
            Some(Removed { unknown, ..of("removes", removed.operands, true) })
        }
        "zip" => {
            let parsed = super::program_writes::ZIP.parse(args);
            let inputs = parsed.operands.get(1..).filter(|_| parsed.has(Name::Short('m')))?;
            // zip reads names from its input (`-@`) and matches wildcards itself (`'conf*'`):
            // those files are known only when it runs.
            let stdin = parsed.has(Name::Short('@')).then(|| "the files named on its input".to_string());
            let patterns = inputs.iter().map(|&at| args[at]).filter(|input| input.contains(['*', '?', '[']));
            let matched = patterns.map(|pattern| format!("the files `{pattern}` matches"));
            let unknown = stdin.into_iter().chain(matched).collect::<Vec<_>>();
            let unknown = (!unknown.is_empty()).then(|| unknown.join(" and "));
            Some(Removed { unknown, ..of("removes", inputs.to_vec(), true) })
        }
        // Each file it copies is a hard link of the same file under `--link-dest`'s directory.
        "rsync" if args.iter().any(|arg| arg.starts_with("--link-d")) => {
            let dirs = args.iter().enumerate().filter_map(|(at, arg)| match arg.split_once('=') {
                Some((name, _)) if name.starts_with("--link-d") => Some(Part { word: at, from: name.len() + 1 }),
                None if arg.starts_with("--link-d") => Some(Part { word: at + 1, from: 0 }),
                _ => None,
            });
            let (absolute, relative): (Vec<Part>, Vec<Part>) = dirs
                .filter(|part| part.word < args.len())
                .partition(|part| args[part.word][part.from..].starts_with(['/', '~']));
            // rsync reads a relative one from the destination directory, not from here.
            let unknown = (!relative.is_empty())
                .then(|| "the files under the directory a relative `--link-dest` names from the destination".into());
            Some(Removed { operands: absolute, unknown, ..of(HARD_LINKS, Vec::new(), true) })
        }
        "rsync" if args.iter().any(|arg| arg.starts_with("--remove-source")) => {
            Some(of("moves away", written(program, args)?.sources, true))
        }
        "find" => {
            let runs_remover = find_commands(args).any(|command| command.iter().any(|word| removes_names(word)));
            if !runs_remover && !args.contains(&"-delete") {
                return None;
            }
            let starts = find_starts(args);
            let names = find_names(&args[starts.last().map_or(0, |&last| last + 1)..]);
            Some(Removed { default_cwd: true, names, ..of("deletes", starts, true) })
        }
        _ => None,
    }
}

/// find's tests that leave which files its expression matches as the
/// name tests say, and take the next word (`-type f`, `-maxdepth 2`).
const FIND_NARROWING: [&str; 6] = ["-name", "-iname", "-type", "-xtype", "-maxdepth", "-mindepth"];
/// find's words that change nothing of which files match.
const FIND_NEUTRAL: [&str; 9] = ["-delete", "-print", "-print0", "-depth", "-xdev", "-mount", "-a", "-and", "-noleaf"];

/// The commands find's `-exec`, `-execdir`, `-ok` and `-okdir` run, each
/// its words up to the `;` or `+` that ends it.
fn find_commands<'a>(args: &'a [&'a str]) -> impl Iterator<Item = &'a [&'a str]> {
    let opens = |at: &usize| matches!(args[*at], "-exec" | "-execdir" | "-ok" | "-okdir");
    (0..args.len()).filter(opens).map(|at| {
        let words = &args[at + 1..];
        &words[..words.iter().position(|word| matches!(*word, ";" | "+")).unwrap_or(words.len())]
    })
}

/// Whether `command`, run by find on each file it finds, removes only that
/// file, so that find's name tests say which files go: rm without `-r`,
/// unlink, shred. A recursive rm, rmdir or mv of a directory whose name
/// matches takes everything under it, whatever their names.
fn removes_only_files(command: &[&str]) -> bool {
    let recursive = |word: &&str| {
        *word == "--recursive" || (word.starts_with('-') && !word.starts_with("--") && word.contains(['r', 'R']))
    };
    match command.split_first() {
        Some((program, args)) => {
            matches!(super::bash::basename(program), "rm" | "unlink" | "shred") && !args.iter().any(recursive)
        }
        None => false,
    }
}

/// The name patterns find's expression `expression` removes files by, when
/// it is all `-name`/`-iname` tests (and so a file's name matching every
/// one) before any action, the tests and options above, and `-delete` or
/// actions removing only the files they are given; else none (any file:
/// `-o`, `!`, `-path`, `-newer`… are not followed, and a test after an
/// action narrows nothing, find having acted on every file by then).
fn find_names(expression: &[&str]) -> Vec<GlobMatcher> {
    let mut names = Vec::new();
    let mut acted = false;
    let mut at = 0;
    while let Some(&word) = expression.get(at) {
        at += 1;
        if FIND_NARROWING.contains(&word) {
            if acted {
                return Vec::new();
            }
            let Some(value) = expression.get(at) else { return Vec::new() };
            at += 1;
            if matches!(word, "-name" | "-iname") {
                let glob = GlobBuilder::new(value).case_insensitive(word == "-iname").backslash_escape(true).build();
                match glob {
                    Ok(glob) => names.push(glob.compile_matcher()),
                    Err(_) => return Vec::new(),
                }
            }
        } else if matches!(word, "-exec" | "-execdir" | "-ok" | "-okdir") {
            let end = expression[at..].iter().position(|word| matches!(*word, ";" | "+"));
            match end {
                Some(end) if removes_only_files(&expression[at..at + end]) => at += end + 1,
                _ => return Vec::new(),
            }
            acted = true;
        } else if FIND_NEUTRAL.contains(&word) {
            acted |= word == "-delete";
        } else {
            return Vec::new();
        }
    }
    names
}

/// Whether `program`, run on names found only when it runs (by xargs or
/// `find -exec`), removes what they name.
pub(crate) fn removes_names(program: &str) -> bool {
    REMOVERS.contains(&super::bash::basename(program))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(program: &str, line: &str) -> Option<(Vec<usize>, bool)> {
        let args: Vec<&str> = line.split_whitespace().collect();
        removed(program, &args).map(|removed| (removed.operands.iter().map(|part| part.word).collect(), removed.whole))
    }

    #[test]
    fn operands_removed_and_whether_directories_go_whole() {
        assert_eq!(of("rm", "-f a b"), Some((vec![1, 2], false)));
        assert_eq!(of("rm", "-rf dir"), Some((vec![1], true)));
        assert_eq!(of("rm", "a -R"), Some((vec![0], true)));
        assert_eq!(of("rm", "--recursive --interactive=never dir"), Some((vec![2], true)));
        assert_eq!(of("rm", "-- -f"), Some((vec![1], false)));
        assert_eq!(of("unlink", "a"), Some((vec![0], false)));
        assert_eq!(of("rmdir", "-p a/b -- -x"), Some((vec![1, 3], false)));
        assert_eq!(of("shred", "-n 3 -u a"), Some((vec![3], false)));
        assert_eq!(of("shred", "--size=1K --remove=wipe a"), Some((vec![2], false)));
        assert_eq!(of("mv", "a b dest"), Some((vec![0, 1], true)));
        assert_eq!(of("mv", "-t dest a"), Some((vec![2], true)));
        assert_eq!(of("rsync", "-a --remove-source-files a dest"), Some((vec![2], true)));
        assert_eq!(of("rsync", "-a a dest"), None);
        assert_eq!(of("tar", "czf a.tgz --remove-files a b"), Some((vec![3, 4], true)));
        assert_eq!(of("tar", "-c --rem -f a.tar -C x a"), Some((vec![], true)), "`a` is x/a: known when it runs");
        assert_eq!(of("tar", "-c --rem -f a.tar b -C x a"), Some((vec![4], true)));
        assert_eq!(of("tar", "-czf a.tgz a"), None);
        let listed = |line: &str| {
            let args: Vec<&str> = line.split_whitespace().collect();
            removed("tar", &args).and_then(|removed| removed.unknown)
        };
        assert_eq!(listed("-czf a.tgz --remove-files -T list"), Some("the files `list` names".into()));
        assert_eq!(
            listed("-czf a.tgz --remove-files -Tl1 --files-from=l2 a"),
            Some("the files `l1` and `l2` name".into())
        );
        assert_eq!(listed("-czf a.tgz --remove-files a"), None);
        assert_eq!(of("zip", "-rm out.zip a b"), Some((vec![2, 3], true)));
        assert_eq!(of("zip", "--move -P pw out.zip a"), Some((vec![4], true)));
        assert_eq!(of("zip", "-r out.zip a"), None);
        assert_eq!(of("find", "a b -name x -delete"), Some((vec![0, 1], true)));
        assert_eq!(of("find", "-L a -exec /bin/rm {} +"), Some((vec![1], true)));
        assert_eq!(of("find", "-name x -delete"), Some((vec![], true)));
        assert_eq!(of("find", "a -exec cat {} +"), None);
        assert_eq!(of("cat", "a"), None);
    }

    #[test]
    fn find_removes_only_what_its_name_tests_match() {
        let may_remove = |line: &str, path: &str| {
            let args: Vec<&str> = line.split_whitespace().collect();
            removed("find", &args).expect("it deletes").may_remove(Path::new(path))
        };
        assert!(may_remove(". -name *.pyc -delete", "a/b.pyc"));
        assert!(!may_remove(". -name *.pyc -delete", "a/b.ini"));
        assert!(may_remove(". -type f -iname *.PYC -exec rm -f {} +", "a/b.pyc"));
        assert!(!may_remove(". -name *.pyc -name x* -delete", "a/b.pyc"));
        // Any other test, or an `-o`, may match anything: not followed.
        for line in
            [". -name *.pyc -o -name *.ini -delete", ". ! -name *.pyc -delete", ". -newer f -delete", ". -delete"]
        {
            assert!(may_remove(line, "a/b.ini"), "{line}");
        }
    }
}
