//! Files a program or wrapper reads itself that its options name, rather
//! than its operands: the files after parallel's `::::`, dd's `if=F`, and
//! make's makefile (`-f F`, else the one in the directory `-C` names);
//! xargs's and parallel's `-a F` are [`super::wrappers`]'. What these read
//! becomes the command's arguments or is printed (`xargs -a .env echo`
//! prints .env), so each is a read.

use super::getopt::{Name, Spec, long};
use super::writers::Part;

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

/// make's options naming a directory or makefile, cut short as getopt
/// takes them (`--fil`, `--mak`, `--di`; `--ma` is also --max-load's,
/// `--d` --debug's); -I, -o and -W take other values.
const MAKE: Spec = Spec {
    short_values: "CfIoW",
    long: &[
        long("directory", "di", true, Some('C')),
        long("file", "f", true, Some('f')),
        long("makefile", "mak", true, Some('f')),
    ],
};

pub(crate) fn make(args: &[&str]) -> Make {
    let parsed = MAKE.parse(args);
    Make { directories: parsed.values(Name::Short('C')), makefiles: parsed.values(Name::Short('f')) }
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
    fn parallel_sources_and_dd_input() {
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
