//! The globs rule files scope themselves with (`paths`, `globs`, `applyTo`).
//! All three hosts match them against the path relative to a base
//! directory with `*` staying inside one path segment and `**` crossing
//! segments, which is globset's `literal_separator(true)`.

use std::path::Path;

use globset::{Glob, GlobBuilder, GlobMatcher};

#[derive(Debug)]
pub(crate) struct Patterns {
    globs: Vec<(String, GlobMatcher)>,
}

impl Patterns {
    /// Compiles every pattern, or names the first one that does not compile.
    /// A leading `./` or `/` is dropped: both mean the base directory.
    pub(crate) fn compile(patterns: &[String]) -> Result<Patterns, String> {
        let mut globs = Vec::with_capacity(patterns.len());
        for written in patterns {
            let pattern = written.trim();
            let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
            let pattern = pattern.trim_start_matches('/');
            if pattern.is_empty() {
                continue;
            }
            let glob = build(pattern).map_err(|e| format!("glob `{written}` does not compile ({})", e.kind()))?;
            globs.push((written.trim().to_string(), glob.compile_matcher()));
        }
        Ok(Patterns { globs })
    }

    /// The first pattern (as written) matching `rel`.
    pub(crate) fn first_match(&self, rel: &Path) -> Option<&str> {
        self.globs.iter().find(|(_, glob)| glob.is_match(rel)).map(|(written, _)| written.as_str())
    }
}

fn build(pattern: &str) -> Result<Glob, globset::Error> {
    GlobBuilder::new(pattern).literal_separator(true).backslash_escape(true).build()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patterns(list: &[&str]) -> Patterns {
        Patterns::compile(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn star_stays_in_one_segment_and_double_star_crosses() {
        let p = patterns(&["*.md", "src/**/*.rs"]);
        assert_eq!(p.first_match(Path::new("README.md")), Some("*.md"));
        assert_eq!(p.first_match(Path::new("docs/README.md")), None);
        assert_eq!(p.first_match(Path::new("src/lib.rs")), Some("src/**/*.rs"));
        assert_eq!(p.first_match(Path::new("src/a/b/lib.rs")), Some("src/**/*.rs"));
        assert_eq!(p.first_match(Path::new("other/lib.rs")), None);
    }

    #[test]
    fn braces_everything_and_leading_dot_slash() {
        let p = patterns(&["./web/**/*.{ts,tsx}", "/top.txt"]);
        assert_eq!(p.first_match(Path::new("web/a/x.tsx")), Some("./web/**/*.{ts,tsx}"));
        assert_eq!(p.first_match(Path::new("top.txt")), Some("/top.txt"));
        assert_eq!(patterns(&["**"]).first_match(Path::new("a/b/c")), Some("**"));
    }

    #[test]
    fn a_bad_glob_is_named() {
        let err = Patterns::compile(&["ok/**".to_string(), "src/[a".to_string()]).unwrap_err();
        assert!(err.contains("src/[a"), "{err}");
    }
}
