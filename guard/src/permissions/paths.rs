//! Path rules: the specifier of `Read(…)` / `Edit(…)` rules and lean-ctx's
//! `deny_paths`, gitignore-style patterns matched against canonical paths.
//!
//! Claude Code's forms: `//abs/path` is absolute, `~/path` is under the home
//! directory, `/path` is relative to the settings file's base (the project
//! root for project settings, the home directory for `~/.claude/settings.json`),
//! and `./path` or `path` is relative to the project root. As in gitignore, a
//! relative pattern without a `/` inside (`*.env`, `./.env`) matches at any
//! depth below the root: the wider reading, so a deny rule never covers less
//! than the user may have meant. A trailing `/` is dropped and every rule
//! also covers what is below what it names, so a directory rule covers its
//! contents.

use std::fs;
use std::path::{Component, Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher, GlobSet, GlobSetBuilder};

/// Where a relative path rule starts and what it names below.
#[derive(Debug, Clone)]
pub(crate) struct PathRule {
    /// Canonicalized where it exists, like the paths checked against it.
    base: PathBuf,
    /// `None`: the base itself and everything below it.
    below: Option<GlobSet>,
    /// The segments of `below`'s pattern, to tell whether anything under a
    /// directory could match; `None` when a segment does not compile alone
    /// (a `{a,b/c}` spanning a `/`), and then anything could.
    segments: Option<Vec<Segment>>,
}

/// One `/`-separated piece of a rule's pattern.
#[derive(Debug, Clone)]
enum Segment {
    /// `**`: any number of directories.
    Any,
    Glob(GlobMatcher),
}

/// The directories rules are relative to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bases<'a> {
    pub(crate) home: &'a Path,
    pub(crate) root: &'a Path,
    /// What a Claude `/path` is relative to: the settings file's base.
    pub(crate) settings: &'a Path,
}

/// How a leading `/` reads: Claude Code settings make it relative to the
/// settings file's base; lean-ctx's `deny_paths` take it as absolute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Syntax {
    Claude,
    Config,
}

impl PathRule {
    /// Everything: a bare `Read` or `Edit`.
    pub(crate) fn everything() -> PathRule {
        PathRule { base: PathBuf::from("/"), below: None, segments: None }
    }

    pub(crate) fn parse(spec: &str, syntax: Syntax, bases: Bases<'_>) -> Result<PathRule, String> {
        let spec = spec.trim();
        if spec.is_empty() {
            return Ok(PathRule::everything());
        }
        let (base, pattern, anchored) = if let Some(rest) = spec.strip_prefix("//") {
            (Path::new("/"), rest, true)
        } else if spec == "~" {
            (bases.home, "", true)
        } else if let Some(rest) = spec.strip_prefix("~/") {
            (bases.home, rest, true)
        } else if let Some(rest) = spec.strip_prefix('/') {
            let base = if syntax == Syntax::Claude { bases.settings } else { Path::new("/") };
            (base, rest, true)
        } else {
            let rest = spec.strip_prefix("./").unwrap_or(spec);
            let rest_trimmed = rest.trim_end_matches('/');
            (bases.root, rest, rest_trimmed.contains('/') || rest_trimmed == "." || rest_trimmed == "..")
        };
        let pattern = pattern.trim_end_matches('/');
        let mut base = base.to_path_buf();
        let mut segments = pattern.split('/').filter(|s| !s.is_empty() && *s != ".").peekable();
        if anchored {
            // Literal leading segments join the base, so `..` resolves and the
            // base can be canonicalized like the paths checked against it.
            while let Some(segment) = segments.next_if(|s| !has_glob_meta(s)) {
                if segment == ".." {
                    base.pop();
                } else {
                    base.push(segment);
                }
            }
        }
        let mut rest: Vec<&str> = segments.collect();
        if !anchored && !rest.is_empty() {
            rest.insert(0, "**");
        }
        let below = if rest.is_empty() {
            None
        } else {
            Some(compile(&rest.join("/")).map_err(|e| format!("pattern `{spec}` does not compile ({e})"))?)
        };
        let segments = rest.iter().map(|segment| Segment::parse(segment)).collect();
        Ok(PathRule { base: canonical_prefix(&base), below, segments })
    }

    /// Whether the rule covers `path` (absolute, canonical).
    pub(crate) fn matches(&self, path: &Path) -> bool {
        let Ok(rel) = path.strip_prefix(&self.base) else { return false };
        match &self.below {
            None => true,
            Some(glob) => !rel.as_os_str().is_empty() && glob.is_match(rel),
        }
    }

    /// Whether the rule could cover a file directly in `dir` (absolute,
    /// canonical) whose name is known only when it is written (`wget URL`),
    /// judged from the pattern alone.
    pub(crate) fn may_cover_child(&self, dir: &Path) -> bool {
        if self.below.is_none() && self.base.parent() == Some(dir) {
            return true;
        }
        let Ok(rel) = dir.strip_prefix(&self.base) else { return false };
        let Some(segments) = &self.segments else { return true };
        let mut segments = segments.iter();
        for name in rel.components() {
            match segments.next() {
                // The pattern ran out: it covers `dir` and all below it.
                None | Some(Segment::Any) => return true,
                Some(Segment::Glob(glob)) if !glob.is_match(name.as_os_str()) => return false,
                Some(Segment::Glob(_)) => {}
            }
        }
        // What is left must match one name, or `**` any.
        let left: Vec<&Segment> = segments.collect();
        left.len() <= 1 || matches!(left[0], Segment::Any)
    }

    /// Whether the rule could cover `dir` (absolute, canonical) or anything
    /// below it, judged from the pattern alone: nothing under `dir` is
    /// looked at, so a pattern that may match deeper down (`**/.env`) counts.
    pub(crate) fn may_cover_below(&self, dir: &Path) -> bool {
        if self.base.starts_with(dir) {
            return true;
        }
        let Ok(rel) = dir.strip_prefix(&self.base) else { return false };
        let Some(segments) = &self.segments else { return true };
        // Each level of `dir` must match its segment until the pattern runs
        // out (it then covers `dir` whole) or `dir` does (what is below it
        // may match the rest); `**` can stand for whatever is left.
        for (name, segment) in rel.components().zip(segments) {
            match segment {
                Segment::Any => return true,
                Segment::Glob(glob) if !glob.is_match(name.as_os_str()) => return false,
                Segment::Glob(_) => {}
            }
        }
        true
    }
}

impl Segment {
    /// `None` when the segment does not compile alone.
    fn parse(segment: &str) -> Option<Segment> {
        if segment == "**" {
            return Some(Segment::Any);
        }
        let glob = GlobBuilder::new(segment).literal_separator(true).backslash_escape(true).build().ok()?;
        Some(Segment::Glob(glob.compile_matcher()))
    }
}

/// The glob and the same glob with `/**`: a match covers what is below it.
fn compile(glob: &str) -> Result<GlobSet, globset::ErrorKind> {
    let mut set = GlobSetBuilder::new();
    for pattern in [glob.to_string(), format!("{glob}/**")] {
        let glob = GlobBuilder::new(&pattern)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(|e| e.kind().clone())?;
        set.add(glob);
    }
    set.build().map_err(|e| e.kind().clone())
}

fn has_glob_meta(segment: &str) -> bool {
    segment.contains(['*', '?', '[', ']', '{', '}', '\\'])
}

/// `path` with its longest existing ancestor canonicalized: a rule naming a
/// file that does not exist yet still lines up with canonical paths. A `..`
/// climbs from where what precedes it leads, as in [`command_path`].
pub fn canonical_prefix(path: &Path) -> PathBuf {
    let normal = resolved(path, None, Parents::Real);
    let mut existing = normal.as_path();
    let mut missing = Vec::new();
    loop {
        if let Ok(canon) = fs::canonicalize(existing) {
            let mut out = canon;
            out.extend(missing.iter().rev());
            return out;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                missing.push(name.to_os_string());
                existing = parent;
            }
            _ => return normal,
        }
    }
}

/// Where a path through a process's `/proc` links leads.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum ThroughProc<'a> {
    /// `/proc/self/cwd/REST` (or `thread-self`): REST in the directory of
    /// the command opening it, not lean-ctxd's, whose own link it would be.
    Cwd(&'a str),
    /// `/proc/self/root/REST`: `/REST`.
    Root(&'a str),
    /// `/proc/N/cwd` or `/proc/N/root` of another process: where it leads
    /// is known only when the command runs.
    OtherProcess,
}

/// How `path` (absolute, lexical) goes through a `/proc` link, its own
/// process's or one of its threads', if it does.
pub(crate) fn through_proc(path: &str) -> Option<ThroughProc<'_>> {
    let (process, rest) = path.strip_prefix("/proc/")?.split_once('/')?;
    // A thread's links (`/proc/self/task/TID/cwd`) are its process's.
    let rest = rest.strip_prefix("task/").and_then(|task| Some(task.split_once('/')?.1)).unwrap_or(rest);
    let (link, rest) = rest.split_once('/').unwrap_or((rest, ""));
    match (process, link) {
        ("self" | "thread-self", "cwd") => Some(ThroughProc::Cwd(rest)),
        ("self" | "thread-self", "root") => Some(ThroughProc::Root(rest)),
        (_, "cwd" | "root") => Some(ThroughProc::OtherProcess),
        _ => None,
    }
}

/// `path` (absolute) as a command running in `cwd` reaches it: `.`
/// dropped, a `..` climbing from where what precedes it leads (its real
/// path when it exists: `link/..` is the link target's parent, as the
/// kernel takes it), and its own `/proc/self/cwd` and `/proc/self/root`
/// followed (see [`through_proc`]) where they appear, so a `..` after one
/// climbs from where it leads (`/proc/self/cwd/../x` is `x` beside the
/// directory).
pub(crate) fn command_path(path: &Path, cwd: &Path) -> PathBuf {
    resolved(path, Some(cwd), Parents::Real)
}

/// `path` with `.` and `..` resolved lexically, as git takes a path
/// within its repository.
pub(crate) fn lexical(path: &Path) -> PathBuf {
    resolved(path, None, Parents::Lexical)
}

/// How a `..` is taken.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Parents {
    /// It drops the last name.
    Lexical,
    /// It climbs from the real path of what precedes it, when that exists
    /// and is not under `/proc` (another process's links lead where they
    /// do only when the command runs; the command's own are followed
    /// here, not through lean-ctxd's).
    Real,
}

/// `path` with `.` and `..` resolved as `parents` says, and with
/// `command_cwd` the command's own `/proc/self/cwd` and `/proc/self/root`
/// followed as each is reached (see [`command_path`]).
fn resolved(path: &Path, command_cwd: Option<&Path>, parents: Parents) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if parents == Parents::Real
                    && out.is_absolute()
                    && !out.starts_with("/proc")
                    && let Ok(real) = fs::canonicalize(&out)
                {
                    out = real;
                }
                out.pop();
            }
            other => out.push(other),
        }
        let Some(cwd) = command_cwd else { continue };
        match out.to_str().and_then(through_proc) {
            Some(ThroughProc::Cwd("")) => out = cwd.to_path_buf(),
            Some(ThroughProc::Root("")) => out = PathBuf::from("/"),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixture {
        _dir: tempfile::TempDir,
        home: PathBuf,
        root: PathBuf,
    }

    fn fixture() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().canonicalize().unwrap().join("home");
        let root = home.join("proj");
        fs::create_dir_all(root.join("secrets")).unwrap();
        Fixture { _dir: dir, home, root }
    }

    fn rule(f: &Fixture, spec: &str) -> PathRule {
        let bases = Bases { home: &f.home, root: &f.root, settings: &f.root };
        PathRule::parse(spec, Syntax::Claude, bases).unwrap()
    }

    #[test]
    fn relative_with_a_slash_is_anchored_to_the_root() {
        let f = fixture();
        let r = rule(&f, "./secrets/**");
        assert!(r.matches(&f.root.join("secrets/key.pem")));
        assert!(r.matches(&f.root.join("secrets/a/b")));
        assert!(!r.matches(&f.root.join("secrets")));
        assert!(!r.matches(&f.root.join("sub/secrets/key.pem")));
        assert!(!r.matches(&f.home.join("secrets/key.pem")));
        let r = rule(&f, "src/*.rs");
        assert!(r.matches(&f.root.join("src/main.rs")));
        assert!(!r.matches(&f.root.join("src/a/main.rs")));
    }

    #[test]
    fn relative_without_a_slash_matches_at_any_depth() {
        let f = fixture();
        for spec in ["*.env", ".env", "./.env", "./.env/"] {
            let r = rule(&f, spec);
            assert!(r.matches(&f.root.join(".env")), "{spec}");
            assert!(r.matches(&f.root.join("a/b/.env")), "{spec}");
            assert!(!r.matches(&f.home.join(".env")), "{spec}: outside the root");
        }
        assert!(!rule(&f, ".env").matches(&f.root.join(".env.local")));
        assert!(rule(&f, ".env.*").matches(&f.root.join("cfg/.env.local")));
    }

    #[test]
    fn a_directory_rule_covers_its_contents() {
        let f = fixture();
        for spec in ["./secrets", "secrets/", "/secrets"] {
            let r = rule(&f, spec);
            assert!(r.matches(&f.root.join("secrets")), "{spec}");
            assert!(r.matches(&f.root.join("secrets/deep/key")), "{spec}");
        }
        let r = rule(&f, "build");
        assert!(r.matches(&f.root.join("a/build/out.o")));
    }

    #[test]
    fn absolute_home_and_settings_relative_forms() {
        let f = fixture();
        let abs = format!("/{}/secrets/**", f.root.display());
        assert!(rule(&f, &abs).matches(&f.root.join("secrets/x")));
        let r = rule(&f, "~/.ssh/**");
        assert!(r.matches(&f.home.join(".ssh/id_rsa")));
        assert!(!r.matches(&f.root.join(".ssh/id_rsa")));
        assert!(rule(&f, "~").matches(&f.home.join("anything")));
        assert!(rule(&f, "~/.aws").matches(&f.home.join(".aws/credentials")));
        let user = Bases { home: &f.home, root: &f.root, settings: &f.home };
        let r = PathRule::parse("/notes/*.md", Syntax::Claude, user).unwrap();
        assert!(r.matches(&f.home.join("notes/a.md")));
        assert!(!r.matches(&f.root.join("notes/a.md")));
    }

    #[test]
    fn config_syntax_reads_a_leading_slash_as_absolute() {
        let f = fixture();
        let bases = Bases { home: &f.home, root: &f.root, settings: &f.root };
        let abs = f.home.join("private").display().to_string();
        let r = PathRule::parse(&abs, Syntax::Config, bases).unwrap();
        assert!(r.matches(&f.home.join("private/diary.txt")));
        assert!(!r.matches(&f.root.join("private/diary.txt")));
    }

    #[test]
    fn parent_segments_resolve_and_symlinked_bases_canonicalize() {
        let f = fixture();
        assert!(rule(&f, "../other/**").matches(&f.home.join("other/x")));
        assert!(rule(&f, "..").matches(&f.home.join("elsewhere")));
        assert!(rule(&f, ".").matches(&f.root.join("any/file")));
        assert!(!rule(&f, ".").matches(&f.home.join("x")));
        assert!(rule(&f, "secrets/../keys/*").matches(&f.root.join("keys/k")));
        let link = f.home.join("link");
        std::os::unix::fs::symlink(&f.root, &link).unwrap();
        let spec = format!("/{}/secrets", link.display());
        assert!(rule(&f, &spec).matches(&f.root.join("secrets/x")));
        // A base that does not exist yet still lines up.
        assert!(rule(&f, "new/dir/**").matches(&f.root.join("new/dir/x")));
    }

    #[test]
    fn whether_a_rule_may_cover_something_under_a_directory() {
        let f = fixture();
        let secret = rule(&f, "./qa/secret/**");
        for dir in ["", "qa", "qa/secret", "qa/secret/deep"] {
            assert!(secret.may_cover_below(&f.root.join(dir)), "{dir}");
        }
        for dir in ["src", "qa/public", "qa/secretive"] {
            assert!(!secret.may_cover_below(&f.root.join(dir)), "{dir}");
        }
        assert!(!secret.may_cover_below(&f.home.join("other")));
        // A glob in the middle is matched level by level; `**` and names at
        // any depth reach everything under the root.
        let plans = rule(&f, "./q*/plans/*.txt");
        assert!(plans.may_cover_below(&f.root.join("qa")) && plans.may_cover_below(&f.root.join("qa/plans")));
        assert!(!plans.may_cover_below(&f.root.join("src")) && !plans.may_cover_below(&f.root.join("qa/notes")));
        assert!(rule(&f, "*.env").may_cover_below(&f.root.join("src/deep")));
        assert!(rule(&f, "./a/**/key").may_cover_below(&f.root.join("a/b/c")));
        assert!(!rule(&f, "./a/**/key").may_cover_below(&f.root.join("b")));
    }

    #[test]
    fn whether_a_rule_may_cover_a_file_directly_in_a_directory() {
        let f = fixture();
        let secret = rule(&f, "./qa/secret/**");
        assert!(
            secret.may_cover_child(&f.root.join("qa/secret")) && secret.may_cover_child(&f.root.join("qa/secret/d"))
        );
        assert!(!secret.may_cover_child(&f.root) && !secret.may_cover_child(&f.root.join("qa")));
        assert!(rule(&f, "./.env").may_cover_child(&f.root));
        assert!(rule(&f, "./q*/*.txt").may_cover_child(&f.root.join("qa")));
        assert!(!rule(&f, "./q*/*.txt").may_cover_child(&f.root));
        assert!(rule(&f, "*.env").may_cover_child(&f.root.join("src")));
    }

    #[test]
    fn everything_and_bad_patterns() {
        let f = fixture();
        assert!(PathRule::everything().matches(Path::new("/etc/passwd")));
        assert!(rule(&f, "").matches(Path::new("/etc/passwd")));
        let bases = Bases { home: &f.home, root: &f.root, settings: &f.root };
        assert!(PathRule::parse("src/[a", Syntax::Claude, bases).is_err());
    }
}
