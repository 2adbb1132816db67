//! Glob operands expanded as the shell would, so `cat q*/secret/plan.txt`
//! is checked as the file it reads.
//!
//! Each `/`-separated segment with a glob character is matched against the
//! names in the directories reached so far, sorted; as in bash, `*`, `?`
//! and `[…]` do not match a leading `.` unless the segment starts with one.
//! Braces are expanded before (`braces.rs`), as the shell does. `**` is any depth of directories, as with
//! zsh or bash's `globstar` (without it bash reads `**` as `*`, which names
//! less). A pattern that matches nothing or does not compile is passed on
//! as written, as the shell does. One through the command's own
//! `/proc/self/cwd` or `/proc/self/root` is matched from where they lead.

use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};

use super::paths::{command_path, lexical};
use super::walk::Budget;

/// Paths one glob may name before it is judged as naming everything under
/// its fixed prefix instead.
pub(crate) const MAX_MATCHES: usize = 10_000;

#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Expansion {
    /// What the pattern names, in order; none: the word is taken as written.
    Paths(Vec<PathBuf>),
    /// More than can be listed: anything under this directory, the
    /// pattern's literal leading part, may be named.
    Under(PathBuf),
}

/// Shell options that make a glob match more (`shopt -s dotglob`,
/// `nocaseglob`).
#[derive(Clone, Copy, Default)]
pub(crate) struct Options {
    /// `*`, `?` and `[…]` match a leading `.`, and `**` enters hidden
    /// directories.
    pub(crate) dotglob: bool,
    /// Letters match either case.
    pub(crate) nocase: bool,
}

/// The paths `pattern` (one word of [`super::braces::expand`]) names in
/// `cwd`, with the shell's `options`.
pub(crate) fn expand(pattern: &str, cwd: &Path, home: &Path, budget: &mut Budget, options: Options) -> Expansion {
    let (start, rest) = if let Some(rest) = pattern.strip_prefix('/') {
        (Path::new("/"), rest)
    } else if pattern == "~" {
        (home, "")
    } else if let Some(rest) = pattern.strip_prefix("~/") {
        (home, rest)
    } else {
        (cwd, pattern)
    };
    let mut fixed = start.to_path_buf();
    let mut globbed = false;
    let mut reached = vec![start.to_path_buf()];
    for segment in rest.split('/').filter(|segment| !segment.is_empty()) {
        if !has_glob(segment) {
            let name = unescape(segment);
            if !globbed {
                fixed = command_path(&fixed.join(&name), cwd);
            }
            reached.iter_mut().for_each(|path| *path = command_path(&path.join(&name), cwd));
            continue;
        }
        globbed = true;
        let next = if segment == "**" {
            directories_below(&reached, budget, options.dotglob)
        } else {
            let mut glob = GlobBuilder::new(segment);
            let glob = glob.literal_separator(true).backslash_escape(true).case_insensitive(options.nocase);
            let Ok(glob) = glob.build() else {
                return Expansion::Paths(Vec::new());
            };
            matching(&reached, &glob.compile_matcher(), options.dotglob || segment.starts_with('.'), budget)
        };
        match next {
            // A match may be a link of the command's own /proc (`/proc/self/c?d`).
            Some(next) => reached = next.iter().map(|path| command_path(path, cwd)).collect(),
            None => return Expansion::Under(lexical(&fixed)),
        }
    }
    reached.retain(|path| path.symlink_metadata().is_ok());
    Expansion::Paths(reached.iter().map(|path| lexical(path)).collect())
}

/// The names in each of `dirs` that `glob` matches; `None` past the
/// budget or [`MAX_MATCHES`].
fn matching(dirs: &[PathBuf], glob: &GlobMatcher, dotted: bool, budget: &mut Budget) -> Option<Vec<PathBuf>> {
    let mut out = Vec::new();
    for dir in dirs {
        for name in budget.list(dir)? {
            if (dotted || !name.as_encoded_bytes().starts_with(b".")) && glob.is_match(&name) {
                out.push(dir.join(name));
                if out.len() > MAX_MATCHES {
                    return None;
                }
            }
        }
    }
    Some(out)
}

/// Each of `dirs` and every directory below it not hidden (but with
/// `dotglob`), for `**`.
fn directories_below(dirs: &[PathBuf], budget: &mut Budget, dotglob: bool) -> Option<Vec<PathBuf>> {
    let mut out = Vec::new();
    for dir in dirs.iter().filter(|dir| dir.is_dir()) {
        let mut pending = vec![dir.clone()];
        while let Some(dir) = pending.pop() {
            for name in budget.list(&dir)?.into_iter().rev() {
                let path = dir.join(&name);
                if (dotglob || !name.as_encoded_bytes().starts_with(b"."))
                    && path.symlink_metadata().is_ok_and(|meta| meta.is_dir())
                {
                    pending.push(path);
                }
            }
            out.push(dir);
            if out.len() > MAX_MATCHES {
                return None;
            }
        }
    }
    Some(out)
}

/// Whether the shell would glob `word` (one word of brace expansion): it
/// has a glob character not escaped and is a pattern (`[` alone is not).
pub(crate) fn is_pattern(word: &str) -> bool {
    has_glob(word) && GlobBuilder::new(word).backslash_escape(true).build().is_ok()
}

/// Whether a segment has a glob character not escaped.
fn has_glob(segment: &str) -> bool {
    let mut escaped = false;
    for c in segment.chars() {
        match (escaped, c) {
            (true, _) => escaped = false,
            (false, '\\') => escaped = true,
            (false, '*' | '?' | '[') => return true,
            _ => {}
        }
    }
    false
}

/// A segment without glob characters, its escapes removed.
pub(crate) fn unescape(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    let mut chars = segment.chars();
    while let Some(c) = chars.next() {
        out.push(if c == '\\' { chars.next().unwrap_or('\\') } else { c });
    }
    out
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    fn tree(files: &[&str]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for file in files {
            let path = root.join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "").unwrap();
        }
        (dir, root)
    }

    fn names(pattern: &str, cwd: &Path, root: &Path) -> Vec<String> {
        match expand(pattern, cwd, root, &mut Budget::new(1000), Options::default()) {
            Expansion::Paths(paths) => {
                paths.iter().map(|p| p.strip_prefix(root).unwrap().display().to_string()).collect()
            }
            Expansion::Under(dir) => panic!("{pattern}: too many under {}", dir.display()),
        }
    }

    #[test]
    fn expands_as_the_shell_would() {
        let (_dir, root) = tree(&["qa/secret/plan.txt", "qa/notes.md", ".env", ".envrc", "src/a.rs", "src/b.rs"]);
        assert_eq!(names("q*/secret/plan.txt", &root, &root), ["qa/secret/plan.txt"]);
        assert_eq!(names(".en?", &root, &root), [".env"]);
        assert_eq!(names("src/*.rs", &root, &root), ["src/a.rs", "src/b.rs"]);
        assert_eq!(names("*/[n]otes.*", &root, &root), ["qa/notes.md"]);
        assert_eq!(names("../*/plan.txt", &root.join("qa/secret"), &root), ["qa/secret/plan.txt"]);
        assert_eq!(names("~/src/a.*", Path::new("/"), &root), ["src/a.rs"]);
        assert_eq!(names(&format!("{}/q?", root.display()), Path::new("/"), &root), ["qa"]);
        // A leading dot is matched only by a dot; `**` is any depth.
        assert_eq!(names("*", &root, &root), ["qa", "src"]);
        assert_eq!(names("**/*.txt", &root, &root), ["qa/secret/plan.txt"]);
        // An escaped star is a star; no match or a broken pattern: as written.
        assert!(names("src/\\*.rs", &root, &root).is_empty());
        assert!(names("nothing*", &root, &root).is_empty());
        assert!(names("src/[a", &root, &root).is_empty());
    }

    #[test]
    fn too_many_names_everything_under_the_fixed_prefix() {
        let (_dir, root) = tree(&["big/a/x", "big/b/x", "big/c/x"]);
        let expanded = expand("big/*/x", &root, &root, &mut Budget::new(2), Options::default());
        assert_eq!(expanded, Expansion::Under(root.join("big")));
        let all = ["a", "b", "c"].iter().map(|d| root.join("big").join(d).join("x")).collect();
        assert_eq!(expand("big/*/x", &root, &root, &mut Budget::new(6), Options::default()), Expansion::Paths(all));
    }
}
