//! Files curl and wget read: a `file:` URL's path (`curl
//! file:///proj/.env` prints .env), and the files their options send or
//! read (`curl -d @.env URL`, `-F f=@.env`, `-K F`; wget's `--post-file`).

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

/// Options of curl taking data whose `@FILE` reads FILE, and curl's and
/// wget's options whose value is a file read (to send, or as options or URLs).
const DATA_OPTIONS: [&str; 7] =
    ["-d", "--data", "--data-binary", "--data-ascii", "--data-urlencode", "--json", "--url-query"];
const FILE_OPTIONS: [&str; 7] = ["-K", "--config", "--post-file", "--body-file", "-i", "--input-file", "--upload-file"];

/// The files `program` (one of [`FETCHERS`]) reads through its options,
/// each with the index of the word naming it.
pub(crate) fn option_files(program: &str, args: &[&str]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (at, arg) in args.iter().enumerate() {
        // The option and its value, in one word (`-d@f`, `--data=@f`) or the next.
        let (option, value, word) = match arg.split_once('=').filter(|(option, _)| option.starts_with("--")) {
            Some((option, value)) => (option, value, at),
            None if arg.len() > 2 && arg.starts_with('-') && !arg.starts_with("--") => (&arg[..2], &arg[2..], at),
            None => match args.get(at + 1) {
                Some(value) => (*arg, *value, at + 1),
                None => continue,
            },
        };
        let file = if FILE_OPTIONS.contains(&option) && !(program == "curl" && option == "-i") {
            Some(value)
        } else if DATA_OPTIONS.contains(&option) && program == "curl" {
            // `@FILE`, or `NAME@FILE` for --data-urlencode.
            value.split_once('@').filter(|(name, _)| name.is_empty() || !name.contains('=')).map(|(_, file)| file)
        } else if matches!(option, "-F" | "--form") && program == "curl" {
            // `NAME=@FILE;type=…` sends the file, `NAME=<FILE` its text.
            value.split_once(['@', '<']).map(|(_, file)| file.split(';').next().unwrap_or_default())
        } else {
            None
        };
        out.extend(file.filter(|file| !file.is_empty() && *file != "-").map(|file| (word, file.to_string())));
    }
    out
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
