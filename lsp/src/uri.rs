//! `file://` URIs of local paths, percent-encoded as servers expect.

use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

pub fn from_path(path: &Path) -> String {
    let mut uri = String::from("file://");
    for &b in path.as_os_str().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

/// The local path a `file://` URI names; `None` for other schemes or a malformed escape.
pub fn to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let mut bytes = Vec::with_capacity(rest.len());
    let mut input = rest.bytes();
    while let Some(b) = input.next() {
        if b == b'%' {
            let hex = [input.next()?, input.next()?];
            bytes.push(u8::from_str_radix(std::str::from_utf8(&hex).ok()?, 16).ok()?);
        } else {
            bytes.push(b);
        }
    }
    Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_and_unicode_survive_the_round_trip() {
        let path = Path::new("/tmp/my project/café.py");
        let uri = from_path(path);
        assert_eq!(uri, "file:///tmp/my%20project/caf%C3%A9.py");
        assert_eq!(to_path(&uri).as_deref(), Some(path));
        assert_eq!(to_path("file:///c%3A/x").as_deref(), Some(Path::new("/c:/x")));
        assert_eq!(to_path("untitled:1"), None);
    }
}
