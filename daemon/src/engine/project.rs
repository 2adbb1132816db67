//! Which files a request may touch: the project root of the request (never
//! a global one) plus the configured `allow_paths`; reads also reach the
//! read-only roots (dependency and toolchain sources), edits never do.

use std::fs::File;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use lean_ctx_common::confined::{OpenError, open_confined};

use crate::engine::error::{EngineError, EngineResult};

/// The project of one request and the extra directories it may reach.
#[derive(Clone, Debug)]
pub struct Scope {
    pub cwd: PathBuf,
    pub root: PathBuf,
    allow: Vec<PathBuf>,
    read_only: Vec<PathBuf>,
    shown: Option<ShownNames>,
}

/// Which file names an answer may show: the user's Read rules withhold some, as glob and tree
/// do. A "did you mean" names only such a name, and none where the scope was given no test.
#[derive(Clone)]
pub struct ShownNames(std::sync::Arc<dyn Fn(&Path) -> bool + Send + Sync>);

impl std::fmt::Debug for ShownNames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ShownNames(..)")
    }
}

impl Scope {
    /// `cwd` must be absolute. The root is `explicit` if given, else the
    /// project of `cwd` (see [`project_of`]).
    pub fn new(cwd: &str, explicit_root: Option<&str>, allow_paths: &[String]) -> EngineResult<Scope> {
        let cwd = Path::new(cwd);
        if cwd.as_os_str().is_empty() || !cwd.is_absolute() {
            return Err(EngineError::invalid(format!(
                "the request's cwd `{}` is not an absolute path; clients must send their working directory",
                cwd.display()
            )));
        }
        let cwd = cwd.canonicalize().map_err(|e| {
            EngineError::not_found(format!("the working directory {} is not accessible: {e}", cwd.display()))
        })?;
        let root = match explicit_root.filter(|r| !r.is_empty()) {
            Some(r) => cwd
                .join(r)
                .canonicalize()
                .map_err(|e| EngineError::not_found(format!("the project root {r} is not accessible: {e}")))?,
            None => project_of(&cwd),
        };
        let allow = allow_paths.iter().filter_map(|p| Path::new(p).canonicalize().ok()).collect();
        Ok(Scope { cwd, root, allow, read_only: Vec::new(), shown: None })
    }

    /// The same scope, with directories reads may reach and edits may not.
    pub fn with_read_only(self, read_only: Vec<PathBuf>) -> Scope {
        Scope { read_only, ..self }
    }

    /// The same scope, naming in its answers only the files `shown` lets it name.
    pub fn with_shown_names(self, shown: impl Fn(&Path) -> bool + Send + Sync + 'static) -> Scope {
        Scope { shown: Some(ShownNames(std::sync::Arc::new(shown))), ..self }
    }

    /// The directory `lctx index PATH` indexes: the request's project when
    /// `input` is empty, else the project `input` lies in (the root a
    /// request from there would have) when that may be reached, else
    /// `input` itself. A directory outside the project and `allow_paths`
    /// is refused like a read.
    pub fn index_root(&self, input: &str) -> EngineResult<PathBuf> {
        if input.trim().is_empty() {
            return Ok(self.root.clone());
        }
        let dir = self.resolve_existing(input)?;
        if !dir.is_dir() {
            return Err(EngineError::invalid(format!("{input} is not a directory; index takes a project directory")));
        }
        let project = project_of(&dir);
        Ok(if self.permitted(&project) { project } else { dir })
    }

    /// Inside the project or `allow_paths`: readable and writable.
    fn permitted(&self, path: &Path) -> bool {
        path.starts_with(&self.root) || self.allow.iter().any(|a| path.starts_with(a))
    }

    fn readable(&self, path: &Path) -> bool {
        self.permitted(path) || self.read_only.iter().any(|r| path.starts_with(r))
    }

    /// Refuses a resolved path edits may not change: one reachable only as
    /// a read-only root.
    pub fn check_writable(&self, path: &Path, shown: &str) -> EngineResult<()> {
        if self.permitted(path) {
            return Ok(());
        }
        Err(EngineError::denied(format!(
            "{shown} lies in a read-only root (dependency or toolchain sources, or read_only_paths): it can be \
             read but not edited"
        )))
    }

    fn outside(&self, shown: &str) -> EngineError {
        EngineError::denied(format!(
            "{shown} is outside the project {}; to allow it, add its directory to the allow_paths setting \
             (`lctx config set allow_paths DIR[,DIR…]`)",
            self.root.display()
        ))
    }

    /// Resolves an existing path: relative to cwd, else (from a directory
    /// below the root) relative to the project root, the way every answer
    /// shows paths — so a path a search printed reads back from anywhere in
    /// the project. Symlinks followed, then checked against the project,
    /// `allow_paths` and the read-only roots.
    pub fn resolve_existing(&self, input: &str) -> EngineResult<PathBuf> {
        let joined = self.join(input)?;
        let real = joined.canonicalize().or_else(|e| match self.at_root(input) {
            Some(shown) if e.kind() == std::io::ErrorKind::NotFound => shown.canonicalize(),
            _ => Err(e),
        });
        let real = real.map_err(|e| match e.kind() {
            // A link whose target is gone is listed by ls, glob and tree: "no such file" would
            // contradict them.
            std::io::ErrorKind::NotFound
                if let Some(target) = dangling(&joined).or_else(|| dangling(&self.at_root(input)?)) =>
            {
                EngineError::not_found(format!(
                    "{input} is a symbolic link to {}, which does not exist: read its target once it is there, or \
                     fix the link",
                    target.display()
                ))
            }
            std::io::ErrorKind::NotFound => EngineError::not_found(self.missing(input)),
            _ => EngineError::denied(format!("cannot access {input}: {e}")),
        })?;
        if !self.readable(&real) {
            return Err(self.outside(input));
        }
        Ok(real)
    }

    /// Where `input` would be if it existed, tried in [`Scope::resolve_existing`]'s order: its
    /// directory's canonical path joined with its name, the path a file read before (and deleted
    /// or moved since) was recorded under.
    pub fn would_be(&self, input: &str) -> Vec<PathBuf> {
        let canonical = |path: PathBuf| Some(path.parent()?.canonicalize().ok()?.join(path.file_name()?));
        std::iter::once(self.cwd.join(input)).chain(self.at_root(input)).filter_map(canonical).collect()
    }

    /// `input` joined to the project root, when it is tried there too: from a
    /// directory below the root, a relative path that is not there.
    fn at_root(&self, input: &str) -> Option<PathBuf> {
        (self.cwd != self.root && Path::new(input).is_relative()).then(|| self.root.join(input))
    }

    /// Where `input` names an entry (a symlink too, followed or not), tried
    /// in [`Scope::resolve_existing`]'s order: relative to cwd, else to the
    /// root. `None` when neither holds one.
    pub fn locate(&self, input: &str) -> EngineResult<Option<PathBuf>> {
        let joined = self.join(input)?;
        let present = |p: &PathBuf| std::fs::symlink_metadata(p).is_ok();
        Ok(std::iter::once(joined).chain(self.at_root(input)).find(present))
    }

    /// "no such file" for `input`, naming the directories it was resolved
    /// against and, when that directory holds a name a typo away, that name.
    pub fn missing(&self, input: &str) -> String {
        let tried = match self.at_root(input) {
            Some(_) => format!("{} and the project root {}", self.cwd.display(), self.root.display()),
            None => self.cwd.display().to_string(),
        };
        let hint = self.near_miss(input).map(|near| format!("; did you mean {near}?")).unwrap_or_default();
        format!("no such file: {input} (resolved against {tried}){hint}")
    }

    /// `input` with its file name replaced by the nearest name in its
    /// directory (the first of the directories tried that exists), when one
    /// is near enough to be what was meant.
    fn near_miss(&self, input: &str) -> Option<String> {
        let shown = self.shown.as_ref()?;
        let name = Path::new(input).file_name()?.to_str()?;
        let dir = std::iter::once(self.cwd.join(input))
            .chain(self.at_root(input))
            .filter_map(|p| p.parent().map(Path::to_path_buf))
            .find(|d| d.is_dir())?;
        if !self.readable(&dir.canonicalize().ok()?) {
            return None;
        }
        // Sorted, so that of two names equally near the same one is named every time.
        // A name the user's Read rules withhold is not named (a reader: `secrets.jsn` was answered
        // with the denied `secrets.json`).
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .ok()?
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| (shown.0)(&dir.join(name)))
            .collect();
        names.sort();
        let near = lean_ctx_common::spelling::closest(name, names.iter().map(String::as_str))?;
        Some(Path::new(input).with_file_name(near).display().to_string())
    }

    /// Opens an existing file for reading, resolved and checked like
    /// [`Scope::resolve_existing`], so that the file read is the file
    /// checked: the descriptor's real path is checked again (see
    /// `lean_ctx_common::confined`). A path that becomes a symlink while it
    /// is opened is resolved once more (a file swapped back and forth would
    /// otherwise make reads fail at random), then refused.
    pub fn open_existing(&self, input: &str) -> EngineResult<Opened> {
        let mut path = self.resolve_existing(input)?;
        let mut opened = open_confined(&path, |real| self.readable(real));
        if matches!(opened, Err(OpenError::Raced)) {
            path = self.resolve_existing(input)?;
            opened = open_confined(&path, |real| self.readable(real));
        }
        self.opened(opened, path, input)
    }

    /// Opens the resolved `path` for reading like [`Scope::open_existing`],
    /// without resolving it again; `shown` names it in errors.
    pub fn open_resolved(&self, path: &Path, shown: &str) -> EngineResult<Opened> {
        self.opened(open_confined(path, |real| self.readable(real)), path.to_path_buf(), shown)
    }

    fn opened(&self, result: Result<(File, PathBuf), OpenError>, path: PathBuf, shown: &str) -> EngineResult<Opened> {
        match result {
            Ok((file, real)) => Ok(Opened { file, path, real }),
            Err(OpenError::Raced) => Err(EngineError::denied(format!(
                "{shown} changed while it was opened (it became a symlink or was moved): not read; read it again \
                 once it stays put"
            ))),
            Err(OpenError::Outside(_)) => Err(self.outside(shown)),
            Err(OpenError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                Err(EngineError::not_found(format!("no such file: {shown} (it was removed while it was opened)")))
            }
            Err(OpenError::Io(e)) => Err(EngineError::denied(format!("cannot open {shown}: {e}"))),
        }
    }

    /// A command's working directory: the request's cwd, or `input` (relative
    /// to it) when that is a directory inside the project or `allow_paths`.
    pub fn workdir(&self, input: &str) -> EngineResult<PathBuf> {
        if input.is_empty() {
            return Ok(self.cwd.clone());
        }
        let dir = self.resolve_existing(input)?;
        if !dir.is_dir() {
            return Err(EngineError::invalid(format!("cwd {input} is not a directory")));
        }
        if !self.permitted(&dir) {
            return Err(self.outside(input));
        }
        Ok(dir)
    }

    /// Resolves a path that may not exist yet (a file to create): its
    /// directory must exist and be permitted. The directory is taken
    /// relative to cwd when it is there, else (from a directory below the
    /// root) relative to the root, as [`Scope::resolve_existing`] does.
    pub fn resolve_new(&self, input: &str) -> EngineResult<PathBuf> {
        let joined = self.join(input)?;
        let name = joined
            .file_name()
            .filter(|n| !matches!(Path::new(n).components().next(), Some(Component::ParentDir)))
            .ok_or_else(|| EngineError::invalid(format!("{input} does not name a file")))?
            .to_owned();
        let parents: Vec<PathBuf> = std::iter::once(joined)
            .chain(self.at_root(input))
            .map(|p| p.parent().unwrap_or(Path::new("/")).to_path_buf())
            .collect();
        let real_parent = parents.iter().find_map(|p| p.canonicalize().ok()).ok_or_else(|| {
            EngineError::not_found(match &parents[..] {
                [here, from_root] => format!(
                    "the directory {} does not exist, nor does {} (from the project root); create the one you mean \
                     first",
                    here.display(),
                    from_root.display()
                ),
                _ => format!("the directory {} does not exist; create it first", parents[0].display()),
            })
        })?;
        let real = real_parent.join(name);
        if !self.permitted(&real) {
            return Err(self.outside(input));
        }
        Ok(real)
    }

    fn join(&self, input: &str) -> EngineResult<PathBuf> {
        if input.is_empty() {
            return Err(EngineError::invalid("empty path"));
        }
        if input.contains('\0') {
            return Err(EngineError::invalid("the path contains a NUL byte"));
        }
        Ok(self.cwd.join(input))
    }

    /// How a resolved path is shown: relative to the root when inside it.
    /// `path` from the project's root, the root itself being `.` (an empty name was refused by
    /// the session store: `ctx_edit` of `.` failed to record its failure).
    pub fn display(&self, path: &Path) -> String {
        match path.strip_prefix(&self.root) {
            Ok(inside) if inside.as_os_str().is_empty() => ".".to_string(),
            Ok(inside) => inside.display().to_string(),
            Err(_) => path.display().to_string(),
        }
    }
}

/// A file opened by [`Scope::open_existing`].
#[derive(Debug)]
pub struct Opened {
    pub file: File,
    /// The path as resolved: the file's identity for sessions and display.
    pub path: PathBuf,
    /// Where the opened file really is; the same as `path` unless the file
    /// was moved (inside what may be read) while it was opened.
    pub real: PathBuf,
}

/// The target of `path` when it is a symbolic link whose target does not exist.
fn dangling(path: &Path) -> Option<PathBuf> {
    let target = std::fs::read_link(path).ok()?;
    (!path.exists()).then_some(target)
}

/// The project a directory belongs to: its nearest ancestor (itself
/// included) that is a git repository, else the directory itself.
pub fn project_of(dir: &Path) -> PathBuf {
    dir.ancestors().find(|d| is_repository(d)).unwrap_or(dir).to_path_buf()
}

/// The `.git` entries [`project_of`] looks at to find `root` from `dir`: one
/// per directory from `dir` up to `root`, or up to `/` when `root` is no
/// repository (none was found). While none of them changes, the project of
/// `dir` stays `root`.
pub fn root_markers(dir: &Path, root: &Path) -> Vec<PathBuf> {
    let found = is_repository(root);
    let mut markers = Vec::new();
    for d in dir.ancestors() {
        markers.push(d.join(".git"));
        if found && d == root {
            break;
        }
    }
    markers
}

/// Whether `dir` is the top of a git repository: its `.git` is a directory
/// holding `HEAD`, or a file pointing at one (`gitdir: …`, a worktree or
/// submodule). An empty or stray `.git` left in some ancestor does not make
/// that ancestor the project of everything below it.
pub fn is_repository(dir: &Path) -> bool {
    let git = dir.join(".git");
    match std::fs::metadata(&git) {
        Ok(m) if m.is_dir() => git.join("HEAD").is_file(),
        Ok(m) if m.is_file() => {
            let mut head = [0u8; 7];
            std::fs::File::open(&git).and_then(|mut f| f.read_exact(&mut head)).is_ok() && &head == b"gitdir:"
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::error::ErrorKind;

    fn project() -> (tempfile::TempDir, Scope) {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("repo/.git")).unwrap();
        std::fs::write(d.path().join("repo/.git/HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::create_dir_all(d.path().join("repo/src")).unwrap();
        std::fs::write(d.path().join("repo/src/a.rs"), "fn a() {}").unwrap();
        std::fs::write(d.path().join("secret.txt"), "no").unwrap();
        let cwd = d.path().join("repo/src").canonicalize().unwrap();
        let scope = Scope::new(cwd.to_str().unwrap(), None, &[]).unwrap();
        (d, scope)
    }

    /// ctx_tree and ls list a link whose target is gone; reading it said only "no such file".
    #[test]
    fn a_link_whose_target_is_gone_is_named_as_one() {
        let (d, scope) = project();
        std::os::unix::fs::symlink("../nowhere/gone.lua", d.path().join("repo/src/dangling.lua")).unwrap();
        let error = scope.resolve_existing("dangling.lua").unwrap_err();
        assert_eq!(error.kind, ErrorKind::NotFound);
        assert_eq!(
            error.message,
            "dangling.lua is a symbolic link to ../nowhere/gone.lua, which does not exist: read its target once it \
             is there, or fix the link"
        );
        // From the project root's relative path too, as other reads resolve there.
        std::os::unix::fs::symlink("gone.txt", d.path().join("repo/top.txt")).unwrap();
        let error = scope.resolve_existing("top.txt").unwrap_err();
        assert!(error.message.starts_with("top.txt is a symbolic link to gone.txt, "), "{}", error.message);
        assert!(scope.resolve_existing("missing.rs").unwrap_err().message.starts_with("no such file: missing.rs"));
    }

    #[test]
    fn root_is_the_nearest_git_ancestor() {
        let (d, scope) = project();
        assert_eq!(scope.root, d.path().join("repo").canonicalize().unwrap());
        let a = scope.resolve_existing("a.rs").unwrap();
        assert_eq!(scope.display(&a), "src/a.rs");
    }

    #[test]
    fn from_a_subdirectory_paths_as_answers_show_them_resolve_against_the_root() {
        let (_d, scope) = project();
        // The cwd is repo/src: `src/a.rs` is what a search there prints.
        assert_eq!(scope.resolve_existing("src/a.rs").unwrap(), scope.root.join("src/a.rs"));
        // A path under the cwd wins when both exist.
        std::fs::create_dir_all(scope.cwd.join("src")).unwrap();
        std::fs::write(scope.cwd.join("src/a.rs"), "fn inner() {}").unwrap();
        assert_eq!(scope.resolve_existing("src/a.rs").unwrap(), scope.cwd.join("src/a.rs"));
        let e = scope.resolve_existing("src/none.rs").unwrap_err();
        assert_eq!(e.kind, ErrorKind::NotFound);
        assert!(e.message.contains("and the project root"), "{e}");
        // The root's own escape checks still hold.
        assert_eq!(scope.resolve_existing("../secret.txt").unwrap_err().kind, ErrorKind::PermissionDenied);
    }

    /// From src/pkg, `src/pkg/new.py` (as answers print paths) was created under
    /// src/pkg/src/pkg, and the error asked for that duplicate directory.
    #[test]
    fn from_a_subdirectory_a_new_file_s_directory_is_found_as_reads_find_files() {
        let (_d, scope) = project();
        assert_eq!(scope.resolve_new("src/new.rs").unwrap(), scope.root.join("src/new.rs"));
        assert_eq!(scope.locate("src/a.rs").unwrap(), Some(scope.root.join("src/a.rs")));
        assert_eq!(scope.locate("src/none.rs").unwrap(), None);
        // A directory below the cwd wins when both exist.
        std::fs::create_dir_all(scope.cwd.join("src")).unwrap();
        assert_eq!(scope.resolve_new("src/new.rs").unwrap(), scope.cwd.join("src/new.rs"));
        let e = scope.resolve_new("lib/new.rs").unwrap_err();
        assert_eq!(e.kind, ErrorKind::NotFound);
        let (here, from_root) = (scope.cwd.join("lib"), scope.root.join("lib"));
        assert_eq!(
            e.message,
            format!(
                "the directory {} does not exist, nor does {} (from the project root); create the one you mean first",
                here.display(),
                from_root.display()
            )
        );
        // At the root, one directory is tried and named.
        let at_root = Scope::new(scope.root.to_str().unwrap(), None, &[]).unwrap();
        let e = at_root.resolve_new("lib/new.rs").unwrap_err();
        assert_eq!(e.message, format!("the directory {} does not exist; create it first", from_root.display()));
    }

    /// `_hook.py` for `_hooks.py` said only "no such file".
    #[test]
    fn a_missing_file_names_the_nearest_name_in_its_directory() {
        let (_d, scope) = project();
        let scope = scope.with_shown_names(|file| !file.ends_with("src/secrets.json"));
        std::fs::write(scope.root.join("src/secrets.json"), "").unwrap();
        std::fs::write(scope.root.join("src/ab.rs"), "").unwrap();
        std::fs::write(scope.root.join("src/lib.rs"), "").unwrap();
        let e = scope.resolve_existing("src/b.rs").unwrap_err();
        assert!(e.message.ends_with("; did you mean src/a.rs?"), "{e}");
        assert!(scope.resolve_existing("src/libs.rs").unwrap_err().message.ends_with("; did you mean src/lib.rs?"));
        // Nothing near: no guess.
        assert!(!scope.resolve_existing("src/zzzzzz.rs").unwrap_err().message.contains("did you mean"));
        // A directory outside what may be read is not listed.
        assert!(!scope.resolve_existing("../../secret.tx").unwrap_err().message.contains("did you mean"));
        // Nor a name the user's Read rules withhold (a reader: it was named).
        assert!(!scope.resolve_existing("src/secrets.jsn").unwrap_err().message.contains("did you mean"));
        // Where no test of what may be named was given, nothing is named.
        let (_d, plain) = project();
        assert!(!plain.resolve_existing("src/b.rs").unwrap_err().message.contains("did you mean"));
    }

    #[test]
    fn outside_paths_and_escaping_symlinks_are_denied_naming_the_setting() {
        let (d, scope) = project();
        let e = scope.resolve_existing("../../secret.txt").unwrap_err();
        assert_eq!(e.kind, ErrorKind::PermissionDenied);
        assert!(e.message.contains("allow_paths"), "{e}");
        std::os::unix::fs::symlink(d.path().join("secret.txt"), d.path().join("repo/src/link.txt")).unwrap();
        assert_eq!(scope.resolve_existing("link.txt").unwrap_err().kind, ErrorKind::PermissionDenied);
        let allowed = Scope::new(scope.cwd.to_str().unwrap(), None, &[d.path().display().to_string()]).unwrap();
        assert!(allowed.resolve_existing("link.txt").is_ok());
    }

    fn content(opened: Opened) -> String {
        let mut text = String::new();
        let mut file = opened.file;
        file.read_to_string(&mut text).unwrap();
        text
    }

    #[test]
    fn a_file_swapped_for_an_escaping_symlink_after_the_check_is_not_read() {
        let (d, scope) = project();
        let outside = d.path().join("secret.txt");
        let checked = scope.resolve_existing("a.rs").unwrap();
        // Between the check and the open, a.rs becomes a link out of the project.
        let a = scope.cwd.join("a.rs");
        std::fs::remove_file(&a).unwrap();
        std::os::unix::fs::symlink(&outside, &a).unwrap();
        let e = scope.open_resolved(&checked, "a.rs").unwrap_err();
        assert_eq!(e.kind, ErrorKind::PermissionDenied);
        assert!(e.message.contains("changed while it was opened"), "{e}");
        // Resolved again, it is where it leads now: outside, refused as such.
        let e = scope.open_existing("a.rs").unwrap_err();
        assert!(e.message.contains("allow_paths"), "{e}");
        // A link that stays inside is followed and read.
        std::fs::write(scope.root.join("b.rs"), "fn b() {}").unwrap();
        std::fs::remove_file(&a).unwrap();
        std::os::unix::fs::symlink(scope.root.join("b.rs"), &a).unwrap();
        let opened = scope.open_existing("a.rs").unwrap();
        assert_eq!((opened.path.clone(), opened.real.clone()), (scope.root.join("b.rs"), scope.root.join("b.rs")));
        assert_eq!(content(opened), "fn b() {}");
    }

    #[test]
    fn a_directory_swapped_for_an_escaping_symlink_after_the_check_is_not_read() {
        let (d, scope) = project();
        let checked = scope.resolve_existing("a.rs").unwrap();
        let elsewhere = d.path().join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("a.rs"), "OUTSIDE").unwrap();
        std::fs::rename(scope.root.join("src"), scope.root.join("moved")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, scope.root.join("src")).unwrap();
        let e = scope.open_resolved(&checked, "a.rs").unwrap_err();
        assert_eq!(e.kind, ErrorKind::PermissionDenied);
        assert!(e.message.contains("outside the project"), "{e}");
        // With the directory allowed, the same open reads it.
        let allowed = Scope::new(scope.cwd.to_str().unwrap(), None, &[elsewhere.display().to_string()]).unwrap();
        assert_eq!(content(allowed.open_resolved(&checked, "a.rs").unwrap()), "OUTSIDE");
    }

    #[test]
    fn a_command_runs_only_in_a_directory_of_the_project() {
        let (d, scope) = project();
        assert_eq!(scope.workdir("").unwrap(), scope.cwd);
        assert_eq!(scope.workdir("..").unwrap(), scope.root);
        assert_eq!(scope.workdir("../..").unwrap_err().kind, ErrorKind::PermissionDenied);
        assert_eq!(scope.workdir("/").unwrap_err().kind, ErrorKind::PermissionDenied);
        assert_eq!(scope.workdir("a.rs").unwrap_err().kind, ErrorKind::InvalidArgument);
        let allowed = Scope::new(scope.cwd.to_str().unwrap(), None, &[d.path().display().to_string()]).unwrap();
        assert_eq!(allowed.workdir("../..").unwrap(), d.path().canonicalize().unwrap());
    }

    #[test]
    fn read_only_roots_are_readable_but_not_writable() {
        let (d, scope) = project();
        let deps = d.path().join("deps");
        std::fs::create_dir_all(&deps).unwrap();
        std::fs::write(deps.join("lib.rs"), "pub fn dep() {}").unwrap();
        let deps = deps.canonicalize().unwrap();
        let file = deps.join("lib.rs");
        assert_eq!(scope.resolve_existing(file.to_str().unwrap()).unwrap_err().kind, ErrorKind::PermissionDenied);
        let scope = scope.with_read_only(vec![deps.clone()]);
        assert_eq!(scope.resolve_existing(file.to_str().unwrap()).unwrap(), file);
        let e = scope.check_writable(&file, "lib.rs").unwrap_err();
        assert!(e.message.contains("read-only root"), "{e}");
        assert_eq!(
            scope.resolve_new(deps.join("new.rs").to_str().unwrap()).unwrap_err().kind,
            ErrorKind::PermissionDenied
        );
        assert_eq!(scope.workdir(deps.to_str().unwrap()).unwrap_err().kind, ErrorKind::PermissionDenied);
        assert!(scope.check_writable(&scope.root.join("src/a.rs"), "src/a.rs").is_ok());
    }

    #[test]
    fn missing_files_and_bad_input_are_explained() {
        let (_d, scope) = project();
        assert_eq!(scope.resolve_existing("nope.rs").unwrap_err().kind, ErrorKind::NotFound);
        assert_eq!(scope.resolve_existing("").unwrap_err().kind, ErrorKind::InvalidArgument);
        assert_eq!(scope.resolve_new("missing-dir/x.rs").unwrap_err().kind, ErrorKind::NotFound);
        assert!(scope.resolve_new("new.rs").unwrap().ends_with("repo/src/new.rs"));
        assert!(Scope::new("relative", None, &[]).is_err());
    }

    #[test]
    fn only_a_real_repository_makes_an_ancestor_the_root() {
        let (d, scope) = project();
        // An empty `.git` above the repository changes nothing …
        std::fs::create_dir_all(d.path().join(".git")).unwrap();
        let outer = d.path().join("outer/inner");
        std::fs::create_dir_all(&outer).unwrap();
        let at = |dir: &Path| Scope::new(dir.to_str().unwrap(), None, &[]).unwrap().root;
        assert_eq!(at(&scope.cwd), scope.root);
        // … nor for a directory outside any repository: it is its own root.
        assert_eq!(at(&outer), outer.canonicalize().unwrap());
        // A stray `.git` file is no repository; a `gitdir:` file is one.
        std::fs::write(d.path().join("outer/.git"), "junk").unwrap();
        assert_eq!(at(&outer), outer.canonicalize().unwrap());
        std::fs::write(d.path().join("outer/.git"), "gitdir: /elsewhere/.git/worktrees/w\n").unwrap();
        assert_eq!(at(&outer), d.path().join("outer").canonicalize().unwrap());
    }

    #[test]
    fn the_index_root_stays_inside_what_the_request_may_reach() {
        let (d, scope) = project();
        assert_eq!(scope.index_root("").unwrap(), scope.root);
        assert_eq!(scope.index_root(".").unwrap(), scope.root);
        assert_eq!(scope.index_root("..").unwrap(), scope.root);
        for outside in ["../..", "/", "/etc"] {
            assert_eq!(scope.index_root(outside).unwrap_err().kind, ErrorKind::PermissionDenied, "{outside}");
        }
        assert_eq!(scope.index_root("a.rs").unwrap_err().kind, ErrorKind::InvalidArgument);
        // A directory without a repository of its own is its own project.
        let plain = d.path().join("plain/dir");
        std::fs::create_dir_all(&plain).unwrap();
        let around = Scope::new(d.path().join("plain").to_str().unwrap(), None, &[]).unwrap();
        assert_eq!(around.index_root("dir").unwrap(), plain.canonicalize().unwrap());
        let other = d.path().join("other/.git");
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(other.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::create_dir_all(d.path().join("other/deep")).unwrap();
        let other = d.path().join("other").canonicalize().unwrap();
        let allowed = Scope::new(scope.cwd.to_str().unwrap(), None, &[other.display().to_string()]).unwrap();
        assert_eq!(allowed.index_root(other.join("deep").to_str().unwrap()).unwrap(), other);
        let deep_only = Scope::new(scope.cwd.to_str().unwrap(), None, &[other.join("deep").display().to_string()]);
        assert_eq!(deep_only.unwrap().index_root("../../other/deep").unwrap(), other.join("deep"));
    }
}
