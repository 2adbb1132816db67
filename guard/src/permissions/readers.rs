//! Programs that read every file under a directory they are given, so
//! `grep -r plans qa` is checked as reading what is under `qa`.
//!
//! - grep, egrep, fgrep with `-r`, `-R`, `--recursive` or
//!   `--dereference-recursive`; rg, ag and ack always (these read the
//!   working directory when no path is given);
//! - tar, zip and rsync (the last operand of rsync is where it writes);
//! - cp and scp with `-r`, `-R`, `-a`, `--recursive` or `--archive`, all
//!   operands but the last (the destination); diff with `-r`;
//! - find with `-exec`, `-execdir`, `-ok` or `-okdir` running a program
//!   that may read (anything but a few that only handle names or metadata,
//!   like rm or chmod), for each start point (`.` when none is given).
//!
//! Listing programs (ls -R, du, tree) read names, not contents: Read rules
//! guard contents, so they are not here.

/// The arguments (indexes into the words after the program) that the
/// program reads whole, and whether it reads its working directory when
/// none of them names a path.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Whole {
    pub(crate) args: Vec<usize>,
    pub(crate) default_cwd: bool,
}

/// Programs `find -exec` may run that handle names or metadata, never
/// what a file holds.
const NAME_ONLY: [&str; 14] = [
    "rm", "rmdir", "chmod", "chown", "chgrp", "touch", "ls", "stat", "echo", "printf", "mv", "du", "basename",
    "dirname",
];

/// How `program` (a file name) reads what `args` name; `None` when it reads
/// no directory whole.
pub(crate) fn whole(program: &str, args: &[&str]) -> Option<Whole> {
    let operands = || (0..args.len()).filter(|&i| !args[i].starts_with('-')).collect::<Vec<_>>();
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
    let (args, default_cwd) = match program {
        "grep" | "egrep" | "fgrep" if flagged("rR", &["--recursive", "--dereference-recursive"]) => (operands(), true),
        "rg" | "ag" | "ack" => (operands(), true),
        "tar" | "zip" => (operands(), false),
        "rsync" => (all_but_last(), false),
        "cp" | "scp" if flagged("rRa", &["--recursive", "--archive"]) => (all_but_last(), false),
        "diff" if flagged("r", &["--recursive"]) => (operands(), false),
        "find" => return find(args),
        _ => return None,
    };
    Some(Whole { args, default_cwd })
}

/// find's start points, when an action it takes may read the files.
fn find(args: &[&str]) -> Option<Whole> {
    let reads = args.windows(2).any(|pair| {
        matches!(pair[0], "-exec" | "-execdir" | "-ok" | "-okdir")
            && !NAME_ONLY.contains(&super::bash::basename(pair[1]))
    });
    if !reads {
        return None;
    }
    let options = args.iter().take_while(|arg| matches!(**arg, "-H" | "-L" | "-P")).count();
    let starts = args[options..].iter().take_while(|arg| !arg.starts_with(['-', '(', '!', ')'])).count();
    Some(Whole { args: (options..options + starts).collect(), default_cwd: true })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_whole(line: &str) -> Option<(Vec<&str>, bool)> {
        let words: Vec<&str> = line.split(' ').collect();
        let found = whole(words[0], &words[1..])?;
        Some((found.args.iter().map(|&i| words[i + 1]).collect(), found.default_cwd))
    }

    #[test]
    fn recursive_readers_and_what_they_read() {
        assert_eq!(read_whole("grep -r plans qa"), Some((vec!["plans", "qa"], true)));
        assert_eq!(read_whole("grep -rn plans"), Some((vec!["plans"], true)));
        assert_eq!(read_whole("grep --recursive x a b"), Some((vec!["x", "a", "b"], true)));
        assert_eq!(read_whole("rg plans"), Some((vec!["plans"], true)));
        assert_eq!(read_whole("tar cf - qa/secret"), Some((vec!["cf", "qa/secret"], false)));
        assert_eq!(read_whole("cp -a qa /tmp/out"), Some((vec!["qa"], false)));
        assert_eq!(read_whole("rsync -av qa host:backup"), Some((vec!["qa"], false)));
        assert_eq!(read_whole("diff -ru a b"), Some((vec!["a", "b"], false)));
        assert_eq!(read_whole("find qa src -name *.txt -exec cat {} ;"), Some((vec!["qa", "src"], true)));
        assert_eq!(read_whole("find -L -exec grep x {} +"), Some((vec![], true)));
        // Not reading contents, or not recursive.
        for line in
            ["grep plans qa/notes.md", "cp qa/a b", "find qa -exec rm {} ;", "find qa -name x", "du -sh qa", "ls -R qa"]
        {
            assert_eq!(read_whole(line), None, "{line}");
        }
    }
}
