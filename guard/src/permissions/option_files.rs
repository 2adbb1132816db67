//! Files a program or wrapper reads itself that its options name, rather
//! than its operands: the files after parallel's `::::`, dd's `if=F`, and
//! make's makefile (`-f F`, else the one in the directory `-C` names);
//! xargs's and parallel's `-a F` are [`super::wrappers`]'. What these read
//! becomes the command's arguments or is printed (`xargs -a .env echo`
//! prints .env), so each is a read.

use super::writers::Part;

/// In a word of short options run together (`-0a list`, `-iu root`,
/// `-n1`), the first that takes a value (`takes_value` lists them as
/// `-a`…) and where its value starts: the rest of the word, or when
/// nothing is left of it (the word's length) the next word, as getopt
/// reads it.
pub(crate) fn short_value(option: &str, takes_value: &[&str]) -> Option<(char, usize)> {
    let letters = option.strip_prefix('-').filter(|letters| !letters.starts_with('-'))?;
    letters.char_indices().find_map(|(at, letter)| {
        let takes = takes_value.iter().any(|taking| taking.strip_prefix('-') == Some(letter.encode_utf8(&mut [0; 4])));
        takes.then_some((letter, 1 + at + letter.len_utf8()))
    })
}

/// The words after parallel's `::::` (up to its next input separator):
/// files it reads its arguments from. `args` are the words after its
/// options, its command's included.
pub(crate) fn parallel_sources(args: &[&str]) -> Vec<usize> {
    let mut sources = Vec::new();
    let mut from_files = false;
    for (at, arg) in args.iter().enumerate() {
        match *arg {
            "::::" | "::::+" => from_files = true,
            ":::" | ":::+" => from_files = false,
            _ if from_files => sources.push(at),
            _ => {}
        }
    }
    sources
}

/// dd's `if=F` words: the file it copies from.
pub(crate) fn dd_input(args: &[&str]) -> Vec<Part> {
    (0..args.len()).filter(|&at| args[at].starts_with("if=")).map(|word| Part { word, from: "if=".len() }).collect()
}

/// The directories make runs in (`-C dir`, `-Cdir`, `--directory[=]dir`;
/// each relative to the one before) and the makefiles it is given
/// (`-f F`, `-fF`, `--file[=]F`, `--makefile[=]F`), in order.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Make {
    pub(crate) directories: Vec<Part>,
    pub(crate) makefiles: Vec<Part>,
}

/// The makefiles make looks for in its directory when none is given, in
/// its order: it reads the first that exists.
pub(crate) const DEFAULT_MAKEFILES: [&str; 3] = ["GNUmakefile", "makefile", "Makefile"];

pub(crate) fn make(args: &[&str]) -> Make {
    let mut found = Make::default();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        let mut next = at + 1;
        // Whether the option names a directory (else a makefile), and where its value is.
        let long = make_long_option(arg);
        let (directory, value) = match (*arg, long) {
            ("--", _) => break,
            ("-C" | "-f", _) | (_, Some((_, None))) => {
                next = at + 2;
                let value = Some(Part { word: at + 1, from: 0 }).filter(|part| part.word < args.len());
                (*arg == "-C" || long.is_some_and(|(name, _)| name == "--directory"), value)
            }
            (_, Some((name, Some(from)))) => (name == "--directory", Some(Part { word: at, from })),
            // Short options run together (`-sC dir`, `-kfMakefile`); -I, -o and -W take other values.
            _ => match short_value(arg, &["-C", "-f", "-I", "-o", "-W"]) {
                Some((letter, from)) => {
                    let part = if from == arg.len() {
                        next = at + 2;
                        Part { word: at + 1, from: 0 }
                    } else {
                        Part { word: at, from }
                    };
                    (letter == 'C', Some(part).filter(|part| matches!(letter, 'C' | 'f') && part.word < args.len()))
                }
                None => (false, None),
            },
        };
        let list = if directory { &mut found.directories } else { &mut found.makefiles };
        list.extend(value);
        at = next;
    }
    found
}

/// The long option of make's that names a file or directory `arg` is
/// (`--directory`, `--file`, `--makefile`), written whole or as getopt
/// takes it, cut short to a prefix no other option has (`--fil`, `--mak`,
/// `--di`), and where its value starts in `arg` after a `=` (`None`: the
/// next word).
fn make_long_option(arg: &str) -> Option<(&'static str, Option<usize>)> {
    let (name, value) = match arg.split_once('=') {
        Some((name, _)) => (name, Some(name.len() + 1)),
        None => (arg, None),
    };
    // Each option with the shortest prefix that is its alone.
    let options = [("--directory", "--di"), ("--file", "--f"), ("--makefile", "--mak")];
    let (option, _) =
        options.into_iter().find(|(option, shortest)| name.starts_with(shortest) && option.starts_with(name))?;
    Some((option, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<&str> {
        line.split_whitespace().collect()
    }

    fn parts(parts: &[Part]) -> Vec<(usize, usize)> {
        parts.iter().map(|part| (part.word, part.from)).collect()
    }

    #[test]
    fn short_values_parallel_sources_and_dd_input() {
        assert_eq!(short_value("-iu", &["-u"]), Some(('u', 3)));
        assert_eq!(short_value("-uroot", &["-u"]), Some(('u', 2)));
        assert_eq!(short_value("--user", &["-u"]), None);
        assert_eq!(parallel_sources(&words("echo ::: a b :::: f g ::: c ::::+ h")), [5, 6, 10]);
        assert!(parallel_sources(&words("echo ::: a")).is_empty());
        assert_eq!(parts(&dd_input(&words("bs=1 if=x of=y"))), [(1, 3)]);
    }

    #[test]
    fn make_directories_and_makefiles() {
        let make = make(&words("-C a -Cb --directory=c -f m -fn --file=o --makefile p -s all"));
        assert_eq!(parts(&make.directories), [(1, 0), (2, 2), (3, 12)]);
        assert_eq!(parts(&make.makefiles), [(5, 0), (6, 2), (7, 7), (9, 0)]);
        assert_eq!(super::make(&words("test -j4")), Make::default());
        // Cut short as getopt takes them; `--ma` is also --max-load's, `--d` --debug's.
        let make = super::make(&words("--fil=a --mak b --di c --dir=d --ma e --d f"));
        assert_eq!(parts(&make.directories), [(4, 0), (5, 6)]);
        assert_eq!(parts(&make.makefiles), [(0, 6), (2, 0)]);
        let make = super::make(&words("-sC a -kfb -I c -sIc -o d"));
        assert_eq!(parts(&make.directories), [(1, 0)]);
        assert_eq!(parts(&make.makefiles), [(2, 3)]);
    }
}
