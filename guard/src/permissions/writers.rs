//! Programs that write the files their operands name, so `tee config/a`
//! and `cp x config/` are checked against Edit rules as `> config/a` is:
//! tee's operands, and the destination of cp, mv, install and ln (the last
//! operand, or the directory `-t`/`--target-directory` gives).

/// The arguments (indexes into the words after the program) `program`
/// writes, and whether they are a destination the other operands are
/// copied or moved to (a directory: into it, under their names).
pub(crate) struct Written {
    pub(crate) targets: Vec<usize>,
    /// The operands copied or moved there.
    pub(crate) sources: Vec<usize>,
}

/// Short options taking a value, per program with a destination.
const DESTINATIONS: [(&str, &str); 4] = [("cp", "St"), ("mv", "St"), ("ln", "St"), ("install", "StmogS")];

pub(crate) fn written(program: &str, args: &[&str]) -> Option<Written> {
    if program == "tee" {
        let targets = (0..args.len()).filter(|&at| !args[at].starts_with('-') || args[at] == "-").collect();
        return Some(Written { targets, sources: Vec::new() });
    }
    let (_, values) = DESTINATIONS.iter().find(|(name, _)| *name == program)?;
    let mut operands = Vec::new();
    let mut target_directory = None;
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        let takes_value = arg.len() == 2 && arg.starts_with('-') && values.contains(&arg[1..]);
        if *arg == "-t" || *arg == "--target-directory" {
            target_directory = Some(at + 1).filter(|&value| value < args.len());
        }
        if *arg == "--" {
            operands.extend(at + 1..args.len());
            break;
        }
        if !arg.starts_with('-') {
            operands.push(at);
        }
        at += if takes_value || *arg == "--target-directory" { 2 } else { 1 };
    }
    let (targets, sources) = match target_directory {
        Some(directory) => (vec![directory], operands),
        None if operands.len() >= 2 => {
            let last = operands.pop().expect("two at least");
            (vec![last], operands)
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
        written(program, &args).map(|written| (written.targets, written.sources))
    }

    #[test]
    fn targets_and_sources() {
        assert_eq!(of("tee", "-a out log"), Some((vec![1, 2], vec![])));
        assert_eq!(of("cp", "-r a b dest"), Some((vec![3], vec![1, 2])));
        assert_eq!(of("cp", "-t dest a b"), Some((vec![1], vec![2, 3])));
        assert_eq!(of("mv", "-S .bak a b"), Some((vec![3], vec![2])));
        assert_eq!(of("install", "-m 644 a /usr/x"), Some((vec![3], vec![2])));
        assert_eq!(of("cp", "a"), None);
        assert_eq!(of("cat", "a b"), None);
    }
}
