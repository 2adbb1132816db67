//! Files a program or wrapper reads itself that its options name, rather
//! than its operands: xargs's and parallel's argument files (`-a F`,
//! `-aF`, `--arg-file F`, `--arg-file=F`), the files after parallel's
//! `::::`, dd's `if=F`, and make's makefile (`-f F`, else the one in the
//! directory `-C` names). What these read becomes the command's arguments
//! or is printed (`xargs -a .env echo` prints .env), so each is a read.

use super::writers::Part;

/// The words among a wrapper's options (the words between xargs or
/// parallel and its command, `takes_value` the options of it that take a
/// value) naming a file it reads its arguments from.
pub(crate) fn argument_files(options: &[&str], takes_value: &[&str]) -> Vec<Part> {
    let mut parts = Vec::new();
    for (at, option) in options.iter().enumerate() {
        if *option == "--arg-file" {
            parts.extend((at + 1 < options.len()).then_some(Part { word: at + 1, from: 0 }));
        } else if option.starts_with("--arg-file=") {
            parts.push(Part { word: at, from: "--arg-file=".len() });
        } else if let Some(('a', from)) = short_value(option, takes_value) {
            let part = if from == option.len() { Part { word: at + 1, from: 0 } } else { Part { word: at, from } };
            parts.extend(Some(part).filter(|part| part.word < options.len()));
        }
    }
    parts
}

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
        let (directory, value) = match *arg {
            "--" => break,
            "-C" | "--directory" | "-f" | "--file" | "--makefile" => {
                next = at + 2;
                let value = Some(Part { word: at + 1, from: 0 }).filter(|part| part.word < args.len());
                (matches!(*arg, "-C" | "--directory"), value)
            }
            _ if arg.starts_with("--directory=") => (true, Some(Part { word: at, from: "--directory=".len() })),
            _ if arg.starts_with("--file=") => (false, Some(Part { word: at, from: "--file=".len() })),
            _ if arg.starts_with("--makefile=") => (false, Some(Part { word: at, from: "--makefile=".len() })),
            _ if arg.starts_with("-C") => (true, Some(Part { word: at, from: 2 })),
            _ if arg.starts_with("-f") => (false, Some(Part { word: at, from: 2 })),
            _ => (false, None),
        };
        let list = if directory { &mut found.directories } else { &mut found.makefiles };
        list.extend(value);
        at = next;
    }
    found
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
    fn argument_files_and_parallel_sources() {
        let xargs = ["-a", "-n"];
        assert_eq!(parts(&argument_files(&words("-0 -a list"), &xargs)), [(2, 0)]);
        assert_eq!(
            parts(&argument_files(&words("-alist --arg-file=b --arg-file c"), &xargs)),
            [(0, 2), (1, 11), (3, 0)]
        );
        assert_eq!(parts(&argument_files(&words("-0a list -ra.env"), &xargs)), [(1, 0), (2, 3)]);
        assert!(argument_files(&words("-n 1 -a"), &xargs).is_empty());
        assert!(argument_files(&words("-na"), &xargs).is_empty(), "`a` is -n's value");
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
    }
}
