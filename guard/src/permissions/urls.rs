//! URLs naming local files: curl and wget fetch a `file:` URL by reading
//! the file its path names (`curl file:///proj/.env` prints .env).

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
}
