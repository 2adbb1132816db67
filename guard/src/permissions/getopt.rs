//! A program's options read as GNU getopt (and curl, alike) reads them,
//! from a table of those that matter: short options run together (`-sd
//! @f`), a value attached (`-oF`, `-dconfig`) or in the next word, long
//! options cut short to a prefix that is theirs alone (`--out=F`, `--sym`,
//! `--dir D`), and options anywhere among the operands until `--`. Every
//! occurrence is kept: a repeated `-C` counts each time.

use super::writers::Part;

/// A long option: its name (without `--`), the shortest prefix that is
/// its alone among all the program's long options (getopt takes that
/// prefix for it; an exact name wins over a longer one it begins), whether
/// it takes a value, and the short option it is the long name of.
pub(crate) struct Long {
    pub(crate) name: &'static str,
    pub(crate) shortest: &'static str,
    pub(crate) value: bool,
    pub(crate) short: Option<char>,
}

pub(crate) const fn long(name: &'static str, shortest: &'static str, value: bool, short: Option<char>) -> Long {
    Long { name, shortest, value, short }
}

/// What options a program has that matter here.
pub(crate) struct Spec {
    /// Short options taking a value.
    pub(crate) short_values: &'static str,
    pub(crate) long: &'static [Long],
}

/// An option given: a short one (or a long one that is its long name), or
/// a long one with no short name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Name {
    Short(char),
    Long(&'static str),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Given {
    pub(crate) name: Name,
    /// Its value, where it has one.
    pub(crate) value: Option<Part>,
}

#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Parsed {
    /// In the order given.
    pub(crate) options: Vec<Given>,
    /// The words that are operands.
    pub(crate) operands: Vec<usize>,
    /// The words naming a long option the table has not (or a prefix of
    /// more than one): what the program makes of them is not known here.
    pub(crate) unknown: Vec<usize>,
}

impl Parsed {
    pub(crate) fn has(&self, name: Name) -> bool {
        self.options.iter().any(|given| given.name == name)
    }

    /// The values of every occurrence of `name`, in order.
    pub(crate) fn values(&self, name: Name) -> Vec<Part> {
        self.options.iter().filter(|given| given.name == name).filter_map(|given| given.value).collect()
    }
}

impl Spec {
    /// `args` read as getopt reads them; a value missing at the end is dropped.
    pub(crate) fn parse(&self, args: &[&str]) -> Parsed {
        let mut parsed = Parsed::default();
        let mut at = 0;
        while let Some(arg) = args.get(at) {
            at += 1;
            if *arg == "--" {
                parsed.operands.extend(at..args.len());
                break;
            }
            if let Some(rest) = arg.strip_prefix("--") {
                let (word, attached) = match rest.split_once('=') {
                    Some((word, _)) => (word, Some(Part { word: at - 1, from: 2 + word.len() + 1 })),
                    None => (rest, None),
                };
                let Some(option) = self.long_named(word) else {
                    parsed.unknown.push(at - 1);
                    continue;
                };
                let value = match attached {
                    Some(value) => Some(value),
                    None if option.value => {
                        at += 1;
                        Some(Part { word: at - 1, from: 0 })
                    }
                    None => None,
                };
                let name = option.short.map_or(Name::Long(option.name), Name::Short);
                parsed.options.push(Given { name, value: value.filter(|part| part.word < args.len()) });
                continue;
            }
            let Some(cluster) = arg.strip_prefix('-').filter(|cluster| !cluster.is_empty()) else {
                parsed.operands.push(at - 1);
                continue;
            };
            for (i, letter) in cluster.char_indices() {
                if !self.short_values.contains(letter) {
                    parsed.options.push(Given { name: Name::Short(letter), value: None });
                    continue;
                }
                // The rest of the word is its value, else the next word.
                let from = 1 + i + letter.len_utf8();
                let value = if from < arg.len() {
                    Part { word: at - 1, from }
                } else {
                    at += 1;
                    Part { word: at - 1, from: 0 }
                };
                parsed.options.push(Given {
                    name: Name::Short(letter),
                    value: Some(value).filter(|part| part.word < args.len()),
                });
                break;
            }
        }
        parsed
    }

    /// Whether the option word `arg` takes the next word as its value: a
    /// long one with a value and no `=`, or a cluster of short ones whose
    /// letter taking a value ends it (`-iA 3`).
    pub(crate) fn takes_next(&self, arg: &str) -> bool {
        self.parse(&[arg, ""]).options.iter().any(|given| given.value.is_some_and(|part| part.word == 1))
    }

    /// The long option `word` (after `--`, before any `=`) names, whole or cut short.
    pub(crate) fn long_named(&self, word: &str) -> Option<&Long> {
        let exact = self.long.iter().find(|option| option.name == word);
        exact.or_else(|| {
            self.long.iter().find(|option| option.name.starts_with(word) && word.starts_with(option.shortest))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: Spec = Spec {
        short_values: "oC",
        long: &[
            long("output", "o", true, Some('o')),
            long("directory", "dir", true, Some('C')),
            long("sym", "s", false, None),
        ],
    };

    fn parse(line: &str) -> Parsed {
        SPEC.parse(&line.split_whitespace().collect::<Vec<_>>())
    }

    fn values(parsed: &Parsed, name: Name) -> Vec<(usize, usize)> {
        parsed.values(name).iter().map(|part| (part.word, part.from)).collect()
    }

    #[test]
    fn short_clusters_attached_values_abbreviations_and_repeats() {
        let parsed = parse("-xo a in -C b --dir=c --di d --out e -xCf -- -o");
        assert_eq!(values(&parsed, Name::Short('o')), [(1, 0), (9, 0)]);
        assert_eq!(values(&parsed, Name::Short('C')), [(4, 0), (5, 6), (10, 3)]);
        assert_eq!(parsed.operands, [2, 7, 12]);
        assert!(parsed.has(Name::Short('x')));
        assert!(parse("--s").has(Name::Long("sym")));
        assert_eq!(values(&parse("-o"), Name::Short('o')), Vec::<(usize, usize)>::new());
        for (arg, takes) in
            [("-o", true), ("-xC", true), ("-oF", false), ("--dir", true), ("--out=F", false), ("--s", false)]
        {
            assert_eq!(SPEC.takes_next(arg), takes, "{arg}");
        }
    }
}
