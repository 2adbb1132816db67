//! The fingerprint of what the index's symbol extractor finds, so an index whose symbols an older
//! outline found is rebuilt after an upgrade without anyone bumping the search schema's version:
//! the symbols of realistic files of every language the outline reads (the outline crate's golden
//! fixtures), hashed. An extractor change those files do not show still needs the bump.

use std::path::Path;
use std::sync::LazyLock;

use lean_ctx_search::default_extractor;

use super::search::extraction;

macro_rules! samples {
    ($($path:literal),* $(,)?) => {
        [$(($path, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../outline/tests/fixtures/", $path)))),*]
    };
}

/// One file a grammar reads, and one of each keyword family (Kotlin, Dart, Lua, shell, PHP, Perl),
/// a script read by its `#!` line (`ruby/thor`), and JavaScript's destructuring declarations
/// (whose names an outline before 2026-12-07 did not list).
const SAMPLES: [(&str, &str); 19] = samples![
    "rust/config.rs",
    "python/service.py",
    "javascript/server.js",
    "javascript/destructuring.js",
    "typescript/store.ts",
    "tsx/App.tsx",
    "go/server.go",
    "java/OrderService.java",
    "c/buffer.h",
    "cpp/shapes.cpp",
    "csharp/Inventory.cs",
    "ruby/billing.rb",
    "text/CartRepository.kt",
    "text/settings_page.dart",
    "text/recorder.lua",
    "text/deploy.sh",
    "text/OrderRepository.php",
    "text/Transfer.pm",
    "ruby/thor",
];

static FINGERPRINT: LazyLock<String> = LazyLock::new(|| fingerprint(&SAMPLES));

/// The search config's `extractor_version`: computed on the first index opened, once.
pub fn extractor_version() -> &'static str {
    &FINGERPRINT
}

/// 16 hex digits of the hash of every symbol (name, kind, line, owner) the extractor finds in
/// `samples`, file by file.
fn fingerprint(samples: &[(&str, &str)]) -> String {
    let fallback = default_extractor();
    let mut hasher = blake3::Hasher::new();
    for (path, text) in samples {
        hasher.update(path.as_bytes());
        for symbol in extraction(Path::new(path), text, &fallback, false).symbols {
            let owner = symbol.owner.as_deref().unwrap_or_default();
            hasher.update(format!("\n{}\t{}\t{}\t{owner}", symbol.name, symbol.kind, symbol.line).as_bytes());
        }
        hasher.update(b"\0");
    }
    hasher.finalize().to_hex()[..16].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A definition more or less in a sample is another fingerprint; the same samples give the same.
    #[test]
    fn what_the_extractor_finds_is_the_fingerprint() {
        let version = extractor_version();
        assert_eq!(version.len(), 16);
        assert!(version.chars().all(|c| c.is_ascii_hexdigit()), "{version}");
        assert_eq!(fingerprint(&SAMPLES), version);
        let one = [("lib.rs", "pub fn parse() {}\n")];
        let more = [("lib.rs", "pub fn parse() {}\npub fn render() {}\n")];
        let comment = [("lib.rs", "pub fn parse() {}\n// render\n")];
        assert_ne!(fingerprint(&one), fingerprint(&more));
        assert_eq!(fingerprint(&one), fingerprint(&comment));
    }
}
