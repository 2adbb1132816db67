//! Programs that write the files their operands name, so `tee config/a`
//! and `cp x config/` are checked against Edit rules as `> config/a` is:
//! tee's operands, dd's `of=`, and the destination of cp, mv, install and
//! ln (the last operand, or the directory `-t`/`--target-directory` gives).

/// The arguments (indexes into the words after the program) `program`
/// writes, and whether they are a destination the other operands are
/// copied or moved to (a directory: into it, under their names).
pub(crate) struct Written {
    pub(crate) targets: Vec<Part>,
    /// The operands copied or moved there.
    pub(crate) sources: Vec<usize>,
}

/// The end of a word that names a file: the whole word (`from` 0), or the
/// value an option holds in it (`--target-directory=dir`, `-tdir`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Part {
    pub(crate) word: usize,
    pub(crate) from: usize,
}

/// Short options taking a value, per program with a destination.
const DESTINATIONS: [(&str, &str); 4] = [("cp", "St"), ("mv", "St"), ("ln", "St"), ("install", "StmogS")];

pub(crate) fn written(program: &str, args: &[&str]) -> Option<Written> {
    if program == "dd" {
        let targets = (0..args.len()).filter(|&at| args[at].starts_with("of=")).map(|word| Part { word, from: 3 });
        return Some(Written { targets: targets.collect(), sources: Vec::new() });
    }
    if program == "tee" {
        let targets = (0..args.len())
            .filter(|&at| !args[at].starts_with('-') || args[at] == "-")
            .map(|word| Part { word, from: 0 })
            .collect();
        return Some(Written { targets, sources: Vec::new() });
    }
    let (_, values) = DESTINATIONS.iter().find(|(name, _)| *name == program)?;
    let mut operands = Vec::new();
    let mut target_directory = None;
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        let mut next = at + 1;
        if *arg == "--" {
            operands.extend(at + 1..args.len());
            break;
        } else if let Some(value) = arg.strip_prefix("--target-directory=") {
            target_directory = Some(Part { word: at, from: arg.len() - value.len() });
        } else if *arg == "--target-directory" {
            target_directory = Some(Part { word: at + 1, from: 0 });
            next = at + 2;
        } else if arg.starts_with("--") {
            // Another long option: its value, if any, is after `=`.
        } else if let Some(cluster) = arg.strip_prefix('-') {
            // Short options run together (`-Dt dir`); the first taking a
            // value takes the rest of the word, or else the next word.
            if let Some((i, option)) = cluster.char_indices().find(|&(_, option)| values.contains(option)) {
                let from = 1 + i + option.len_utf8();
                let value = if from < arg.len() {
                    Part { word: at, from }
                } else {
                    next = at + 2;
                    Part { word: at + 1, from: 0 }
                };
                if option == 't' {
                    target_directory = Some(value);
                }
            }
        } else {
            operands.push(at);
        }
        at = next;
    }
    let (targets, sources) = match target_directory.filter(|part| part.word < args.len()) {
        Some(directory) => (vec![directory], operands),
        None if operands.len() >= 2 => {
            let last = operands.pop().expect("two at least");
            (vec![Part { word: last, from: 0 }], operands)
        }
        None => return None,
    };
    Some(Written { targets, sources })
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
    }
}
