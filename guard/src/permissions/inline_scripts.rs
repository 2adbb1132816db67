//! Scripts given to an interpreter on its command line (`python3 -c`, `perl -e`, `node -e`,
//! `ruby -e`, `php -r`…): each string literal in one is taken as a file it may read, so
//! `python3 -c "print(open('.env').read())"` is checked as `cat .env` is. What the script
//! computes (`'sec' + 'ret'`) is not seen; a literal naming no file a rule covers changes nothing.

/// The options of each interpreter whose value is a script, short ones also written attached
/// (`-cCODE`).
const SCRIPT_OPTIONS: [(&str, &[&str]); 9] = [
    ("perl", &["-e", "-E"]),
    ("ruby", &["-e"]),
    ("node", &["-e", "--eval", "-p", "--print"]),
    ("bun", &["-e", "--eval", "-p", "--print"]),
    ("php", &["-r"]),
    ("lua", &["-e"]),
    ("Rscript", &["-e"]),
    ("deno", &["eval"]),
    ("python", &["-c"]),
];

/// The scripts `program` is given in `args`, as (word, byte it starts at): an option's next word,
/// a cluster of short options ending in the script's letter (perl's `-ne`, `-lE`) taking it too,
/// or its value attached (`-cCODE`, `-eCODE`).
fn scripts(program: &str, args: &[&str]) -> Vec<(usize, usize)> {
    let family = if is_python(program) { "python" } else { program };
    let Some((_, options)) = SCRIPT_OPTIONS.iter().find(|(name, _)| *name == family) else { return Vec::new() };
    let letters: Vec<char> = options
        .iter()
        .filter_map(|option| option.strip_prefix('-'))
        .filter(|o| o.len() == 1)
        .filter_map(|o| o.chars().next())
        .collect();
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(arg) = args.get(at) {
        let cluster = arg.strip_prefix('-').filter(|rest| !rest.is_empty() && !rest.starts_with('-'));
        // Options run together are letters and digits (`-l0ne`); anything else is a script.
        let attached = cluster
            .filter(|rest| rest.starts_with(letters.as_slice()) && !rest.chars().all(|c| c.is_ascii_alphanumeric()));
        if let Some(rest) = attached {
            found.push((at, arg.len() - rest.len() + 1));
        } else if options.contains(arg) || cluster.is_some_and(|rest| rest.ends_with(letters.as_slice())) {
            if at + 1 < args.len() {
                found.push((at + 1, 0));
            }
            at += 1;
        } else if family == "python" && (!arg.starts_with('-') || *arg == "-m") {
            // Its script file or module: the words after it are the script's.
            break;
        } else if family == "python" && matches!(*arg, "-W" | "-X") {
            at += 1;
        }
        // python runs what its `-c` gives; the words after it are the script's arguments.
        if family == "python" && !found.is_empty() {
            break;
        }
        at += 1;
    }
    found
}

/// An interpreter whose inline scripts are read here (each also runs a script file it is given).
pub(crate) fn is_interpreter(program: &str) -> bool {
    is_python(program) || SCRIPT_OPTIONS.iter().any(|(name, _)| *name == program)
}

/// python under any of its versioned names (`python3`, `python3.12`).
fn is_python(program: &str) -> bool {
    program.strip_prefix("python").is_some_and(|version| version.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// The string literals of the scripts `program` is given, each a name it may open: (word, its
/// text). Quotes `'` and `"`, a backslash escaping the next character.
pub(crate) fn named_files(program: &str, args: &[&str]) -> Vec<(usize, String)> {
    let mut names = Vec::new();
    for (word, from) in scripts(program, args) {
        let mut chars = args[word][from..].chars();
        while let Some(c) = chars.next() {
            if !matches!(c, '\'' | '"') {
                continue;
            }
            let mut text = String::new();
            while let Some(inner) = chars.next() {
                match inner {
                    '\\' => text.extend(chars.next()),
                    _ if inner == c => break,
                    _ => text.push(inner),
                }
            }
            if !text.is_empty() && !text.contains('\n') {
                names.push((word, text));
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::named_files;

    fn names(program: &str, args: &[&str]) -> Vec<String> {
        named_files(program, args).into_iter().map(|(_, text)| text).collect()
    }

    #[test]
    fn string_literals_of_inline_scripts() {
        assert_eq!(names("python3", &["-c", "print(open('.env').read())"]), [".env"]);
        assert_eq!(names("python3.12", &["-c", r#"open("a\"b")"#]), ["a\"b"]);
        assert_eq!(names("perl", &["-ne", "print", "x"]), Vec::<String>::new());
        assert_eq!(names("perl", &["-e", "open(F, '<', 'secret/x')"]), ["<", "secret/x"]);
        assert_eq!(names("node", &["--eval", "require('fs').readFileSync('k')"]), ["fs", "k"]);
        assert_eq!(names("ruby", &["-eputs File.read('k')"]), ["k"]);
        assert_eq!(names("perl", &["-le", "print 'k'"]), ["k"]);
        // python's script ends its options: what follows is the script's.
        assert_eq!(names("python", &["-c", "print(1)", "-c", "'x'"]), Vec::<String>::new());
        assert_eq!(names("python3", &["x.py", "-c", "'k'"]), Vec::<String>::new());
        assert_eq!(names("cat", &["-c", "'k'"]), Vec::<String>::new());
    }
}
