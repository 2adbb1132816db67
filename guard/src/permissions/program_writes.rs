//! Writers whose files an option, a position or their input decides,
//! beside [`super::writers`]' tables: `sort -o F`, `touch`'s operands,
//! `split`'s and `csplit`'s output prefix (each file it writes starts with
//! it, so a rule on the directory covers them), the files vim, vi and ex edit, the files `patch` and `git apply`
//! change (named inside the patch: known only when they run, unless
//! `patch` is given the file), what `git checkout … -- PATH` and `git
//! restore PATH` put back (anything under each pathspec), and what `tar` extracts: everything under its
//! `-C`/`--directory`, or in its working directory, each file named only
//! inside the archive (anywhere with `-P`), and `unzip`'s alike (`-d`); what awk's program prints to a file, and its
//! operands with gawk's `-i inplace`.

use super::writers::{Part, Written};

/// What `program` given `args` writes, when it is one of these.
pub(crate) fn written(program: &str, args: &[&str]) -> Option<Written> {
    match program {
        "sort" => option_values(args, "o", "output", "kStT").map(|targets| Written { targets, ..Written::default() }),
        "touch" => Some(operands_written(args, "rdt")),
        "split" => split_prefix(args),
        "csplit" => prefix_option(args),
        "vim" | "vi" | "nvim" | "ex" | "view" | "vimdiff" => Some(edited_by_vim(args)),
        "patch" => Some(patched(args)),
        "tar" => extracted(args),
        "unzip" => unzipped(args),
        "git" => git_written(args),
        "awk" | "gawk" | "mawk" | "nawk" => awk_written(args),
        _ => None,
    }
}

/// The program text awk runs (its first operand unless `-f` or `-e` gave
/// one: `None`, a file not read here, as a script a shell runs is not) and
/// the index of its first file operand.
fn awk_program<'a>(args: &[&'a str]) -> (Option<&'a str>, usize) {
    let given = args.iter().any(|arg| {
        matches!(*arg, "-f" | "-e" | "--file" | "--source")
            || arg.starts_with("--file=")
            || arg.starts_with("--source=")
    });
    let operands = operands(args, "FvfilEe");
    match operands.first() {
        Some(&at) if !given => (Some(args[at]), operands.get(1).copied().unwrap_or(args.len())),
        first => (None, first.copied().unwrap_or(args.len())),
    }
}

/// Whether awk's program may run a command: `system(…)`, or a pipe to or
/// from one (`print | "sh"`, `"cmd" | getline`; `||` is no pipe). A
/// program file (`-f`) is not read here, as a script a shell runs is not.
pub(crate) fn awk_runs_commands(args: &[&str]) -> bool {
    awk_program(args).0.is_some_and(|program| program.contains("system") || program.replace("||", "").contains('|'))
}

/// What awk writes: the files `print > "f"` or `printf … >> f` name in its
/// program (known only when it runs; `>` after a print or printf, not a
/// comparison before one), and with gawk's `-i inplace` its file operands.
fn awk_written(args: &[&str]) -> Option<Written> {
    let (program, files) = awk_program(args);
    let in_place = args.windows(2).any(|pair| pair[0] == "-i" && pair[1] == "inplace")
        || args.iter().any(|arg| *arg == "-iinplace" || *arg == "--include=inplace");
    let prints_to_file = program.is_some_and(|program| {
        program.match_indices("print").any(|(at, _)| {
            let statement = program[at..].split([';', '}', '\n']).next().unwrap_or_default();
            statement.contains('>')
        })
    });
    let targets = if in_place { (files..args.len()).map(|word| Part { word, from: 0 }).collect() } else { Vec::new() };
    let unknown = prints_to_file.then(|| "the files its program prints to".to_string());
    (in_place || prints_to_file).then_some(Written { targets, unknown, ..Written::default() })
}

/// Whether `arg` is an option word (not `-` alone, standard input).
fn is_option(arg: &str) -> bool {
    arg.starts_with('-') && arg != "-"
}

/// The words, after getopt-style options, that are operands; `values`:
/// the short options taking a value (attached or the next word).
fn operands(args: &[&str], values: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        if *arg == "--" {
            out.extend(at..args.len());
            break;
        }
        if arg.starts_with("--") || !is_option(arg) {
            if !is_option(arg) {
                out.push(at - 1);
            }
            continue;
        }
        let cluster = &arg[1..];
        if let Some(i) = cluster.find(|c| values.contains(c)) {
            at += usize::from(i + 1 == cluster.len());
        }
    }
    out
}

fn operands_written(args: &[&str], values: &str) -> Written {
    let targets = operands(args, values).into_iter().map(|word| Part { word, from: 0 }).collect();
    Written { targets, ..Written::default() }
}

/// The values of the short option `short` (`-o F`, `-oF`) and the long
/// one `long` (`--output=F`, `--output F`); `None` when neither is given.
/// `values`: the program's other short options taking a value.
fn option_values(args: &[&str], short: &str, long: &str, values: &str) -> Option<Vec<Part>> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        if *arg == "--" {
            break;
        }
        if let Some(rest) = arg.strip_prefix("--") {
            match rest.split_once('=') {
                Some((name, _)) if name == long => {
                    out.push(Part { word: at - 1, from: arg.len() - (rest.len() - name.len() - 1) })
                }
                None if rest == long => {
                    out.push(Part { word: at, from: 0 });
                    at += 1;
                }
                _ => {}
            }
        } else if is_option(arg) {
            let cluster = &arg[1..];
            let Some(i) = cluster.find(|c| short.contains(c) || values.contains(c)) else { continue };
            let option = &cluster[i..i + 1];
            let attached = i + 1 < cluster.len();
            if option == short {
                out.push(if attached { Part { word: at - 1, from: 2 + i } } else { Part { word: at, from: 0 } });
            }
            at += usize::from(!attached);
        }
    }
    out.retain(|part| part.word < args.len());
    (!out.is_empty()).then_some(out)
}

/// `split [FILE [PREFIX]]`: the prefix, else `x` in its directory.
fn split_prefix(args: &[&str]) -> Option<Written> {
    let operands = operands(args, "abCdlnt");
    let targets = operands.get(1).map(|&word| vec![Part { word, from: 0 }]);
    Some(Written { targets: targets.unwrap_or_default(), ..Written::default() })
}

/// `csplit -f PREFIX`: each file starts with it (`xx` in its directory without one).
fn prefix_option(args: &[&str]) -> Option<Written> {
    let targets = option_values(args, "f", "prefix", "bn").unwrap_or_default();
    Some(Written { targets, ..Written::default() })
}

/// vim and its names edit the files they are given, and `-w`/`-W` write a
/// script of the keys typed: a `-c`/`+` command (`wq`, `w! other`) or
/// `-s` script may write any of them, or any other file, unseen here.
fn edited_by_vim(args: &[&str]) -> Written {
    let mut targets = Vec::new();
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
    Written { targets, ..Written::default() }
}

/// `patch [FILE [PATCH]]` writes FILE (and `-o OUT`); without FILE, in
/// another directory (`-d`), or after a long option that may take the next
/// word (`--input p.diff`), the files the patch names.
fn patched(args: &[&str]) -> Written {
    let operands = operands(args, "BDFgiopYzdrV");
    let mut targets = option_values(args, "o", "output", "BDFgipYzdrV").unwrap_or_default();
    let long_with_value = args.iter().any(|arg| arg.starts_with("--") && *arg != "--" && !arg.contains('='));
    let elsewhere = long_with_value || option_values(args, "d", "directory", "BDFgiopYzrV").is_some();
    let unknown = match operands.first() {
        Some(&word) if !elsewhere => {
            targets.push(Part { word, from: 0 });
            None
        }
        _ => Some("the files its patch names".to_string()),
    };
    Written { targets, unknown, ..Written::default() }
}

/// What `tar` extracts (`x`, `--extract`, `--get`; not to its output):
/// everything under each `-C` directory, else under its working directory.
fn extracted(args: &[&str]) -> Option<Written> {
    let (mut extracting, mut to_output, mut absolute) = (false, false, false);
    let mut under = Vec::new();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        at += 1;
        if let Some(long) = arg.strip_prefix("--") {
            extracting |= long == "extract" || long == "get";
            to_output |= long == "to-stdout" || long.starts_with("to-command");
            absolute |= long == "absolute-names";
            if let Some(dir) = long.strip_prefix("directory=") {
                under.push(Part { word: at - 1, from: arg.len() - dir.len() });
            } else if long == "directory" {
                under.push(Part { word: at, from: 0 });
                at += 1;
            }
            continue;
        }
        // The first word's letters are options without a dash (`tar xfC a.tar dir`).
        let Some(cluster) = arg.strip_prefix('-').or(if at == 1 { Some(arg) } else { None }) else { continue };
        // Each letter taking a value takes the next word, in order; attached, the rest of the word.
        let mut next = at;
        for (i, letter) in cluster.char_indices() {
            extracting |= letter == 'x';
            to_output |= letter == 'O';
            absolute |= letter == 'P';
            if !"fCbTXgKNLVH".contains(letter) {
                continue;
            }
            let attached = arg.starts_with('-') && i + 1 < cluster.len();
            let value = if attached { Part { word: at - 1, from: 2 + i } } else { Part { word: next, from: 0 } };
            if letter == 'C' {
                under.push(value);
            }
            if attached {
                break;
            }
            next += 1;
        }
        at = next;
    }
    if !extracting || to_output {
        return None;
    }
    under.retain(|part| part.word < args.len());
    // With `-P` a member's absolute path is written as it is, anywhere.
    let unknown = absolute.then(|| "the absolute paths its archive names".to_string());
    Some(Written { under: Some(under), unknown, ..Written::default() })
}

/// What `unzip` extracts: everything under its `-d` directory, else its
/// working directory; nothing when it lists, tests or prints (`-l`, `-t`,
/// `-v`, `-p`, `-c`, `-z`, `-Z`).
fn unzipped(args: &[&str]) -> Option<Written> {
    let options = args.iter().filter(|arg| is_option(arg) && !arg.starts_with("--"));
    if options.clone().any(|arg| arg[1..].contains(['l', 't', 'v', 'p', 'c', 'z', 'Z'])) {
        return None;
    }
    let under = option_values(args, "d", "exdir", "x").unwrap_or_default();
    Some(Written { under: Some(under), ..Written::default() })
}

/// What a git subcommand writes in the working tree: `checkout` and
/// `restore` the paths they put back, `apply` the files its patch names
/// (unless it only reports, or changes the index alone).
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
    if rest.iter().any(|arg| arg.starts_with("--pathspec-from-file")) && matches!(args[at], "checkout" | "restore") {
        return Some(Written { unknown: Some("the paths its pathspec file names".into()), ..Written::default() });
    }
    let mut branch_or_path = None;
    let paths: Vec<usize> = match args[at] {
        "checkout" => match rest.iter().position(|arg| *arg == "--") {
            Some(dash) => (dash + 1..rest.len()).collect(),
            // `git checkout [REV] PATH…`: its first operand is a path when it can be
            // nothing else (`.`, `a/b`), a revision when a branch is made from it.
            None => {
                let creates = rest.iter().any(|arg| matches!(*arg, "-b" | "-B" | "--orphan"));
                let mut operands = operands(rest, "bBU").into_iter();
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
            let staged_only = rest.contains(&"--staged") || rest.contains(&"-S");
            let worktree = rest.iter().any(|arg| matches!(*arg, "--worktree" | "-W"));
            if staged_only && !worktree {
                return None;
            }
            operands(rest, "s")
        }
        "apply" => {
            let reports = rest.iter().any(|arg| matches!(*arg, "--check" | "--stat" | "--numstat" | "--summary"));
            if rest.contains(&"--cached") || (reports && !rest.contains(&"--apply")) {
                return None;
            }
            return Some(Written { unknown: Some("the files its patch names".into()), ..Written::default() });
        }
        _ => return None,
    };
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
    fn targets_by_option_position_and_input() {
        assert_eq!(of("sort", "-o out in"), Some((vec![(1, 0)], None, false)));
        assert_eq!(of("sort", "-k2 -oout in"), Some((vec![(1, 2)], None, false)));
        assert_eq!(of("sort", "--output=out in"), Some((vec![(0, 9)], None, false)));
        assert_eq!(of("sort", "in"), None);
        assert_eq!(of("touch", "-d now a b"), Some((vec![(2, 0), (3, 0)], None, false)));
        assert_eq!(of("split", "-l1 in pre"), Some((vec![(2, 0)], None, false)));
        assert_eq!(of("csplit", "-f pre in 1"), Some((vec![(1, 0)], None, false)));
        assert_eq!(of("vim", "-es -c wq f"), Some((vec![(3, 0)], None, false)));
        assert_eq!(of("ex", "-s +wq -W log f"), Some((vec![(3, 0), (4, 0)], None, false)));
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
        assert_eq!(of("tar", "-cf a.tar -C dir ."), None);
        assert_eq!(of("git", "checkout HEAD -- a b"), Some((vec![], Some(vec![3, 4]), false)));
        assert_eq!(of("git", "checkout HEAD a"), Some((vec![], Some(vec![2]), false)));
        assert_eq!(of("git", "checkout main"), Some((vec![], None, false)));
        assert_eq!(of("git", "checkout ."), Some((vec![], Some(vec![1]), false)));
        assert_eq!(of("git", "checkout -b new origin/main"), None);
        assert_eq!(of("git", "restore --source=HEAD a"), Some((vec![], Some(vec![2]), false)));
        assert_eq!(of("git", "restore --staged a"), None);
        assert_eq!(of("git", "apply p.diff"), Some((vec![], None, true)));
        assert_eq!(of("git", "apply --check p.diff"), None);
        assert_eq!(of("git", "-C sub checkout -- a"), Some((vec![], None, true)));
        assert_eq!(of("git", "-c a.b=c checkout -- a"), Some((vec![], Some(vec![4]), false)));
        assert_eq!(of("git", "status"), None);
        assert_eq!(of("awk", "BEGIN{print\"x\">\"f\"}"), Some((vec![], None, true)));
        assert_eq!(of("awk", "$1>2{print;next} a"), None);
        assert_eq!(of("awk", "-f prog.awk a"), None);
        assert_eq!(of("gawk", "-i inplace {print} a b"), Some((vec![(3, 0), (4, 0)], None, false)));
    }
}
