//! Files curl and wget read: a `file:` URL's path (`curl
//! file:///proj/.env` prints .env), and the files their options send or
//! read (`curl -d @.env URL`, `-F f=@.env`, `-K F`; wget's `--post-file`).

use super::getopt::{Name, Spec, long};
use super::writers::{Part, Written};

/// Programs that fetch the URLs they are given.
pub(crate) const FETCHERS: [&str; 3] = ["curl", "wget", "wget2"];

/// The path a `file:` URL names (scheme in any case; `file:/p`,
/// `file:///p`, `file://localhost/p`), percent-decoded, without its query
/// or fragment, as curl reads it; `None` for another word, or a URL of
/// another host, which curl refuses.
pub(crate) fn file_path(word: &str) -> Option<String> {
    let scheme = word.get(..5).filter(|scheme| scheme.eq_ignore_ascii_case("file:"))?;
    let rest = &word[scheme.len()..];
    let path = match rest.strip_prefix("//") {
        Some(authority) => {
            let slash = authority.find('/')?;
            let host = &authority[..slash];
            if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
                return None;
            }
            &authority[slash..]
        }
        None => rest,
    };
    let path = path.split(['?', '#']).next().unwrap_or_default();
    Some(percent_decoded(path))
}

const CURL: Spec = Spec {
    short_values: "EKCbcdDFPHmoUQreXYytzTuAwx",
    long: &[
        long("data", "data", true, Some('d')),
        long("data-binary", "data-b", true, None),
        long("data-ascii", "data-a", true, None),
        long("data-urlencode", "data-u", true, None),
        long("json", "js", true, None),
        long("url-query", "url-", true, None),
        long("form", "form", true, Some('F')),
        long("config", "conf", true, Some('K')),
        long("upload-file", "up", true, Some('T')),
        long("output", "output", true, Some('o')),
        long("output-dir", "output-", true, None),
        long("remote-name", "remote-name", false, Some('O')),
        long("remote-name-all", "remote-name-", false, None),
        long("dump-header", "du", true, Some('D')),
        long("cookie-jar", "cookie-", true, Some('c')),
        long("next", "nex", false, Some(':')),
    ],
};
const WGET: Spec = Spec {
    short_values: "eoaiBtOTwQPUlARDIX",
    long: &[
        long("post-file", "post-f", true, None),
        long("body-file", "body-f", true, None),
        long("input-file", "inp", true, Some('i')),
        long("output-document", "output-d", true, Some('O')),
        long("output-file", "output-f", true, Some('o')),
        long("append-output", "ap", true, Some('a')),
        long("directory-prefix", "di", true, Some('P')),
        long("recursive", "recu", false, Some('r')),
        long("mirror", "mi", false, Some('m')),
    ],
};

/// How an option's value names a file read.
enum Sends {
    /// The value is the file.
    File,
    /// `@FILE`, or `NAME@FILE` for --data-urlencode.
    Data,
    /// `NAME=@FILE;type=…` sends the file, `NAME=<FILE` its text.
    Form,
}

/// The files `program` (one of [`FETCHERS`]) reads through its options,
/// each with the index of the word naming it.
pub(crate) fn option_files(program: &str, args: &[&str]) -> Vec<(usize, String)> {
    let spec = if program == "curl" { &CURL } else { &WGET };
    let mut out = Vec::new();
    for given in spec.parse(args).options {
        let Some(part) = given.value else { continue };
        let sends = match given.name {
            // wget's `-T` is its timeout.
            Name::Short('T') if program != "curl" => continue,
            Name::Short('K' | 'T' | 'i') | Name::Long("post-file" | "body-file") => Sends::File,
            Name::Short('d') | Name::Long("data-binary" | "data-ascii" | "data-urlencode" | "json" | "url-query") => {
                Sends::Data
            }
            Name::Short('F') => Sends::Form,
            _ => continue,
        };
        let value = &args[part.word][part.from..];
        let file = match sends {
            Sends::File => Some(value),
            Sends::Data => {
                value.split_once('@').filter(|(name, _)| name.is_empty() || !name.contains('=')).map(|(_, file)| file)
            }
            Sends::Form => value.split_once(['@', '<']).map(|(_, file)| file.split(';').next().unwrap_or_default()),
        };
        out.extend(file.filter(|file| !file.is_empty() && *file != "-").map(|file| (part.word, file.to_string())));
    }
    out
}

/// What `program` (one of [`FETCHERS`]) saves: the files its options name
/// (curl's `-o`, `-D`, `-c`; wget's `-O`, `-o`, `-a`; not `-`, its
/// output; curl's `-o NAME` with `--output-dir DIR` writes `DIR/NAME`,
/// `..` or an absolute NAME too: curl 7.88 joins them as text; past a
/// `--next` each group has its own, so each name is checked as given and
/// in each directory), anything under curl's `--output-dir` when `-O`
/// saves there or wget's `-P`, else
/// with a name the URL or server gives (curl's `-O`, wget without `-O`) a
/// file in its working directory named only when it runs, or anything
/// under it (wget's `-r`, `-m`).
pub(crate) fn saved(program: &str, args: &[&str]) -> Option<Written> {
    let spec = if program == "curl" { &CURL } else { &WGET };
    let parsed = spec.parse(args);
    let not_output = |part: &Part| &args[part.word][part.from..] != "-";
    let values = |letters: &[char]| -> Vec<Part> {
        letters.iter().flat_map(|&letter| parsed.values(Name::Short(letter))).filter(not_output).collect()
    };
    let mut written = Written::default();
    if program == "curl" {
        let named = parsed.values(Name::Short('o'));
        let remote = parsed.has(Name::Short('O')) || parsed.has(Name::Long("remote-name-all"));
        written.targets = values(&['D', 'c']);
        let named: Vec<Part> = named.into_iter().filter(not_output).collect();
        let dirs = parsed.values(Name::Long("output-dir"));
        let groups = parsed.has(Name::Short(':'));
        written.joined = dirs.iter().flat_map(|&dir| named.iter().map(move |&name| (dir, name))).collect();
        written.under = (remote && !dirs.is_empty()).then(|| dirs.clone());
        if dirs.is_empty() || groups {
            written.targets.extend(named);
            written.unnamed_in_cwd = remote;
        }
    } else {
        let document = parsed.values(Name::Short('O'));
        written.targets = values(&['O', 'o', 'a']);
        let recursive = parsed.has(Name::Short('r')) || parsed.has(Name::Short('m'));
        match parsed.values(Name::Short('P')).pop() {
            Some(dir) if document.is_empty() => written.under = Some(vec![dir]),
            _ if recursive && document.is_empty() => written.under = Some(Vec::new()),
            // A URL given, or a file listing them (not `wget --version`).
            _ => {
                let fetches = !parsed.operands.is_empty() || parsed.has(Name::Short('i'));
                written.unnamed_in_cwd = document.is_empty() && fetches;
            }
        }
    }
    let writes =
        !written.targets.is_empty() || written.under.is_some() || written.unnamed_in_cwd || !written.joined.is_empty();
    writes.then_some(written)
}

/// `text` with each `%XX` made the byte it stands for.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = bytes.get(at + 1..at + 3).and_then(|hex| std::str::from_utf8(hex).ok());
        match hex.and_then(|hex| u8::from_str_radix(hex, 16).ok()).filter(|_| bytes[at] == b'%') {
            Some(byte) => {
                out.push(byte);
                at += 3;
            }
            None => {
                out.push(bytes[at]);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_a_file_url_names() {
        assert_eq!(file_path("file:///p/secret/plan.txt").as_deref(), Some("/p/secret/plan.txt"));
        assert_eq!(file_path("FILE://localhost/p/secr%65t/x?y#z").as_deref(), Some("/p/secret/x"));
        assert_eq!(file_path("file:/p/x").as_deref(), Some("/p/x"));
        assert_eq!(file_path("file://other/p/x"), None);
        assert_eq!(file_path("https://example.com/x"), None);
        assert_eq!(file_path("-s"), None);
    }

    #[test]
    fn files_options_send() {
        let files = |program: &str, line: &str| {
            let args: Vec<&str> = line.split_whitespace().collect();
            option_files(program, &args)
        };
        let one = |word: usize, file: &str| vec![(word, file.to_string())];
        assert_eq!(files("curl", "-d @a u"), one(1, "a"));
        assert_eq!(files("curl", "-d@a u"), one(0, "a"));
        assert_eq!(files("curl", "--data-binary=@a u"), one(0, "a"));
        assert_eq!(files("curl", "--data-urlencode n@a u"), one(1, "a"));
        assert_eq!(files("curl", "-F f=@a;type=text/plain u"), one(1, "a"));
        assert_eq!(files("curl", "-F f=<a u"), one(1, "a"));
        assert_eq!(files("curl", "-K a u"), one(1, "a"));
        assert_eq!(files("wget", "--post-file=a u"), one(0, "a"));
        assert_eq!(files("wget", "-i a"), one(1, "a"));
        assert_eq!(files("curl", "-d x=1 -i u"), vec![]);
        assert_eq!(files("curl", "-d @- u"), vec![]);
    }
}
