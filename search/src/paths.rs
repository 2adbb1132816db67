//! Resolving the caller's root and `path` arguments. Everything the crate
//! reads is inside the canonical project root; a `path` that leaves it
//! (through `..`, an absolute path or a symlink) is refused, not clamped.

use std::path::{Component, Path, PathBuf};

use crate::error::SearchError;

/// What one request covers: the project root and the file or directory under it.
#[derive(Clone, Debug)]
pub(crate) struct Scope {
    /// Canonical project root.
    pub root: PathBuf,
    /// Canonical directory or file the request is limited to.
    pub base: PathBuf,
    /// `base` relative to `root` (empty for the root itself).
    pub base_rel: PathBuf,
}

impl Scope {
    /// Whether the request is limited to a hidden path, so its walk goes into hidden paths (see
    /// [`crate::filter::names_hidden`]).
    pub(crate) fn is_hidden(&self) -> bool {
        crate::filter::names_hidden(&self.base_rel.to_string_lossy())
    }
}

pub(crate) fn resolve_root(root: &Path) -> Result<PathBuf, SearchError> {
    let canonical = root.canonicalize().map_err(|err| match err.kind() {
        std::io::ErrorKind::NotFound => SearchError::RootNotFound { root: root.to_path_buf() },
        _ => SearchError::io(format!("cannot open project root {}", root.display()), err),
    })?;
    if !canonical.is_dir() {
        return Err(SearchError::RootNotDirectory { root: root.to_path_buf() });
    }
    Ok(canonical)
}

pub(crate) fn resolve_scope(root: &Path, path: Option<&Path>) -> Result<Scope, SearchError> {
    let root = resolve_root(root)?;
    let Some(path) = path.filter(|p| !p.as_os_str().is_empty()) else {
        return Ok(Scope { base: root.clone(), root, base_rel: PathBuf::new() });
    };
    let joined = root.join(path);
    let outside = || SearchError::OutsideProject { path: path.to_path_buf(), root: root.clone() };
    let base = match joined.canonicalize() {
        Ok(base) => base,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            // Say "outside" rather than "not found" when the path could never be inside.
            return Err(if lexically_inside(&root, &joined) {
                SearchError::PathNotFound { path: path.to_path_buf() }
            } else {
                outside()
            });
        }
        Err(err) => return Err(SearchError::io(format!("cannot open {}", joined.display()), err)),
    };
    let base_rel = base.strip_prefix(&root).map_err(|_| outside())?.to_path_buf();
    // The walks leave `.git` out below where they start, and they never start in it either.
    if base_rel.components().any(|component| component.as_os_str() == ".git") {
        return Err(SearchError::GitStore { path: path.to_path_buf() });
    }
    Ok(Scope { root, base, base_rel })
}

/// Whether `path`, its `..` taken lexically, lies under `root`.
pub(crate) fn lexically_inside(root: &Path, path: &Path) -> bool {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                normal.pop();
            }
            Component::CurDir => {}
            other => normal.push(other),
        }
    }
    normal.starts_with(root)
}

/// A root-relative path as shown to agents: `/`-separated, lossy for non-UTF-8 names.
pub(crate) fn display(rel: &Path) -> String {
    rel.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_leaving_the_root_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        let scope = resolve_scope(dir.path(), Some(Path::new("src"))).unwrap();
        assert_eq!(scope.base_rel, Path::new("src"));
        for bad in ["..", "../elsewhere", "/etc", "src/../../x"] {
            let err = resolve_scope(dir.path(), Some(Path::new(bad))).unwrap_err();
            assert!(matches!(err, SearchError::OutsideProject { .. }), "{bad}: {err}");
        }
        let err = resolve_scope(dir.path(), Some(Path::new("nope"))).unwrap_err();
        assert!(matches!(err, SearchError::PathNotFound { .. }), "{err}");
    }

    #[test]
    fn symlink_escaping_the_root_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
        let err = resolve_scope(dir.path(), Some(Path::new("link"))).unwrap_err();
        assert!(matches!(err, SearchError::OutsideProject { .. }), "{err}");
    }

    #[test]
    fn missing_root_is_a_clear_error() {
        let err = resolve_root(Path::new("/definitely/not/here")).unwrap_err();
        assert!(err.to_string().contains("does not exist"), "{err}");
    }
}
