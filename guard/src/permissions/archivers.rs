//! What archivers read and write beyond what [`super::readers`]' and
//! [`super::program_writes`]' tables say: the names their standard input
//! lists (`find qa | tar -cf x -T -`, `zip x.zip -@`, `cpio -o`, `pax -w`
//! given no operand), known only when they run; 7z's words (its own
//! syntax: a command, the archive, then what it archives, its working
//! directory when nothing is named); the operand a jar `-C DIR` names from
//! DIR; cpio's and pax's modes.

use super::getopt::{Name, Parsed, Spec, long};
use super::program_writes::{ZIP, archive_written, tar_words};
use super::readers::NotOperands;
use super::writers::{Part, Written};

/// The names a list option or operand gives for standard input.
pub(crate) const STANDARD_INPUT: [&str; 4] = ["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"];

/// 7z and the names it is installed under.
pub(crate) const SEVEN_ZIP: [&str; 4] = ["7z", "7za", "7zr", "7zz"];

const CPIO: Spec = Spec {
    short_values: "CEFHIMOR",
    long: &[
        long("create", "cr", false, Some('o')),
        long("extract", "ex", false, Some('i')),
        long("pass-through", "pa", false, Some('p')),
        long("list", "li", false, Some('t')),
        long("file", "fi", true, Some('F')),
        long("pattern-file", "pat", true, Some('E')),
    ],
};
const PAX: Spec = Spec { short_values: "bfopsxTUG", long: &[] };

/// What the files a command reads are, known only when it runs, where its
/// input or its own wildcards name them.
pub(crate) fn unknown_reads(program: &str, args: &[&str]) -> Vec<String> {
    let input = || format!("`{program}` reads the files its input names");
    match program {
        "tar" if tar_words(args).lists_input => vec![input()],
        "zip" if ZIP.parse(args).has(Name::Short('@')) => vec![input()],
        "cpio" => {
            let parsed = CPIO.parse(args);
            let copies = parsed.has(Name::Short('o')) || parsed.has(Name::Short('p'));
            if copies { vec![input()] } else { Vec::new() }
        }
        "pax" => {
            let (parsed, writes, reads) = pax_mode(args);
            let copied = if reads { parsed.operands.len().saturating_sub(1) } else { parsed.operands.len() };
            if writes && copied == 0 { vec![input()] } else { Vec::new() }
        }
        _ if SEVEN_ZIP.contains(&program) => seven_zip_unknown(program, args),
        _ => Vec::new(),
    }
}

/// The words of an archiver here that are no files to read as operands,
/// and the files its options or its syntax name that it reads (the
/// archive it extracts, a list, a manifest); `None` for another program.
pub(crate) fn not_operands(program: &str, args: &[&str]) -> Option<NotOperands> {
    let (operands, mut files): (Vec<usize>, Vec<Part>) = match program {
        "jar" => {
            let parsed = super::program_writes::jar_options(args);
            let files = ['f', 'm'].into_iter().flat_map(|letter| parsed.values(Name::Short(letter))).collect();
            (parsed.operands, files)
        }
        "cpio" => {
            let parsed = CPIO.parse(args);
            let files = ['E', 'F', 'I'].into_iter().flat_map(|letter| parsed.values(Name::Short(letter))).collect();
            // Its operand (`-p`'s directory) is where it writes.
            (Vec::new(), files)
        }
        "pax" => {
            let (parsed, _, _) = pax_mode(args);
            let archive = parsed.values(Name::Short('f'));
            (parsed.operands, archive)
        }
        _ if SEVEN_ZIP.contains(&program) => {
            let words = seven_zip_words(args);
            let lists = words.files.iter().filter(|&&at| args[at].starts_with('@'));
            let mut files: Vec<Part> = lists.map(|&word| Part { word, from: 1 }).collect();
            files.extend(words.archive.map(|word| Part { word, from: 0 }));
            let read = words.files.iter().copied().filter(|&at| !args[at].starts_with('@')).collect();
            (read, files)
        }
        _ => return None,
    };
    files.retain(|part| !STANDARD_INPUT.contains(&&args[part.word][part.from..]));
    let words = (0..args.len()).filter(|at| !operands.contains(at)).collect();
    Some(NotOperands { words, files })
}

/// The `-C` directories each operand of tar or jar is named from (those
/// with any): tar's every `-C` before it, each from the one before; jar's
/// the one just before it alone (jar changes directory for one operand).
pub(crate) fn operand_directories(program: &str, args: &[&str]) -> Vec<(usize, Vec<Part>)> {
    let (operands, directories) = match program {
        "tar" => {
            let tar = tar_words(args);
            (tar.operands, tar.directories)
        }
        "jar" => {
            let parsed = super::program_writes::jar_options(args);
            let directories = parsed.values(Name::Short('C'));
            (parsed.operands, directories)
        }
        _ => return Vec::new(),
    };
    let before = |operand: usize| -> Vec<Part> {
        let earlier = directories.iter().copied().filter(|dir| dir.word < operand);
        match program {
            "jar" => earlier.filter(|dir| dir.word + 1 == operand).collect(),
            _ => earlier.collect(),
        }
    };
    operands.into_iter().map(|operand| (operand, before(operand))).filter(|(_, dirs)| !dirs.is_empty()).collect()
}

/// Whether an archiver reads what its operands name whole (a directory and
/// everything under it), and its working directory when it names nothing;
/// `None` for another program or a mode reading no operand.
pub(crate) fn reads_whole(program: &str, args: &[&str], operands: Vec<usize>) -> Option<(Vec<usize>, bool)> {
    match program {
        "jar" => Some((operands, false)),
        "pax" => {
            let (_, writes, reads) = pax_mode(args);
            let mut copied = operands;
            if reads {
                copied.pop();
            }
            writes.then_some((copied, false))
        }
        _ if SEVEN_ZIP.contains(&program) => {
            let words = seven_zip_words(args);
            // `7z a x.7z` archives everything in its working directory.
            words.adds().then_some((operands, true))
        }
        _ => None,
    }
}

/// What an archiver here writes: 7z's archive (`.7z` added to a name
/// without an extension, as 7z adds it) and what it extracts (under `-oDIR`
/// or its working directory); what cpio extracts or copies; what pax reads
/// from an archive or copies into a directory.
pub(crate) fn written(program: &str, args: &[&str]) -> Option<Written> {
    match program {
        "cpio" => {
            let parsed = CPIO.parse(args);
            if parsed.has(Name::Short('t')) {
                return None;
            }
            if parsed.has(Name::Short('p')) {
                let dir = *parsed.operands.last()?;
                return Some(Written { under: Some(vec![Part { word: dir, from: 0 }]), ..Written::default() });
            }
            if parsed.has(Name::Short('i')) {
                return Some(Written { under: Some(Vec::new()), ..Written::default() });
            }
            let archive = ['O', 'F'].into_iter().flat_map(|letter| parsed.values(Name::Short(letter))).last()?;
            Some(Written { targets: vec![archive], ..Written::default() })
        }
        "pax" => {
            let (parsed, writes, reads) = pax_mode(args);
            match (reads, writes) {
                (true, true) => {
                    let dir = *parsed.operands.last()?;
                    Some(Written { under: Some(vec![Part { word: dir, from: 0 }]), ..Written::default() })
                }
                (true, false) => Some(Written { under: Some(Vec::new()), ..Written::default() }),
                (false, true) => parsed
                    .values(Name::Short('f'))
                    .pop()
                    .map(|archive| Written { targets: vec![archive], ..Written::default() }),
                (false, false) => None,
            }
        }
        _ if SEVEN_ZIP.contains(&program) => {
            let words = seven_zip_words(args);
            match words.command? {
                'a' | 'u' | 'd' | 'r' => Some(archive_written(args, Part { word: words.archive?, from: 0 }, ".7z")),
                'x' | 'e' => {
                    let output = args.iter().rposition(|arg| arg.starts_with("-o"));
                    let under = output.map(|word| vec![Part { word, from: 2 }]).unwrap_or_default();
                    Some(Written { under: Some(under), ..Written::default() })
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// pax's options, and whether it writes an archive or copies (`-w`) and
/// whether it reads one or copies (`-r`): both is a copy into its last
/// operand.
fn pax_mode(args: &[&str]) -> (Parsed, bool, bool) {
    let parsed = PAX.parse(args);
    let (writes, reads) = (parsed.has(Name::Short('w')), parsed.has(Name::Short('r')));
    (parsed, writes, reads)
}

/// 7z's words: `7z COMMAND [SWITCHES] ARCHIVE [FILES]`, its switches
/// starting with `-` (their values attached: `-oDIR`, `-tzip`) anywhere
/// before `--`.
struct SevenZip {
    /// The command's letter (`a`, `u`, `d`, `rn` as `r`, `x`, `e`, `l`, `t`…).
    command: Option<char>,
    archive: Option<usize>,
    /// The words after the archive: files, `@list` files, wildcards.
    files: Vec<usize>,
    /// Its `-i` switches (files included by name, list or wildcard).
    includes: Vec<usize>,
}

impl SevenZip {
    /// Whether it reads files into the archive.
    fn adds(&self) -> bool {
        matches!(self.command, Some('a' | 'u'))
    }
}

fn seven_zip_words(args: &[&str]) -> SevenZip {
    let mut plain = Vec::new();
    let mut includes = Vec::new();
    let mut switches_ended = false;
    for (at, arg) in args.iter().enumerate() {
        match arg.strip_prefix('-') {
            Some("-") if !switches_ended => switches_ended = true,
            Some(switch) if !switches_ended => {
                if switch.starts_with('i') {
                    includes.push(at);
                }
            }
            _ => plain.push(at),
        }
    }
    let command = plain.first().and_then(|&at| args[at].chars().next()).map(|letter| letter.to_ascii_lowercase());
    SevenZip { command, archive: plain.get(1).copied(), files: plain.iter().skip(2).copied().collect(), includes }
}

/// What 7z reads that only its run decides: the files an `-i` switch or an
/// `@list` names, and its own wildcards (a quoted `'*.key'` it matches
/// itself, under every directory with `-r`).
fn seven_zip_unknown(program: &str, args: &[&str]) -> Vec<String> {
    let words = seven_zip_words(args);
    if !words.adds() {
        return Vec::new();
    }
    let own_wildcard = |at: &usize| args[*at].starts_with('@') || args[*at].contains(['*', '?']);
    let named = words.includes.iter().chain(words.files.iter().filter(|at| own_wildcard(at)));
    named.map(|&at| format!("`{program}` reads the files `{}` names", args[at])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<&str> {
        line.split_whitespace().collect()
    }

    #[test]
    fn seven_zip_reads_what_it_adds_and_writes_its_archive() {
        let args = words("a -tzip /tmp/x qa -mx9 src");
        let not = not_operands("7z", &args).unwrap();
        assert_eq!(not.files, vec![Part { word: 2, from: 0 }]);
        let operands: Vec<usize> = (0..args.len()).filter(|at| !not.words.contains(at)).collect();
        assert_eq!(operands, [3, 5]);
        assert_eq!(reads_whole("7z", &args, operands), Some((vec![3, 5], true)));
        let archive = written("7z", &args).unwrap();
        assert_eq!(archive.extended, vec![(Part { word: 2, from: 0 }, ".7z")]);
        assert_eq!(reads_whole("7z", &words("x a.7z"), vec![]), None);
        assert_eq!(written("7z", &words("x a.7z -oout")).unwrap().under, Some(vec![Part { word: 2, from: 2 }]));
        assert!(written("7z", &words("l a.7z")).is_none());
    }

    #[test]
    fn names_known_only_when_it_runs() {
        let of = |program: &str, line: &str| unknown_reads(program, &words(line));
        assert_eq!(of("zip", "/tmp/x.zip -@"), ["`zip` reads the files its input names"]);
        assert_eq!(of("cpio", "-o -H newc"), ["`cpio` reads the files its input names"]);
        assert_eq!(of("cpio", "-pdm /tmp/out"), ["`cpio` reads the files its input names"]);
        assert!(of("cpio", "-idv").is_empty());
        assert_eq!(of("pax", "-w -f /tmp/x"), ["`pax` reads the files its input names"]);
        assert!(of("pax", "-w -f /tmp/x qa").is_empty());
        assert_eq!(of("7z", "a x.7z -ir!*.key"), ["`7z` reads the files `-ir!*.key` names"]);
        assert_eq!(
            of("7z", "a x.7z @list *.key"),
            ["`7z` reads the files `@list` names", "`7z` reads the files `*.key` names"]
        );
        assert!(of("7z", "x x.7z *.key").is_empty());
    }
}
