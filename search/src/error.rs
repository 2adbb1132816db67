//! The one error type of the crate. Every message says what went wrong and
//! what the caller can do about it, because it usually ends up in front of an
//! agent that has to decide its next step from the text alone.

use std::fmt;
use std::path::PathBuf;

#[derive(Debug)]
pub enum SearchError {
    /// The project root does not exist.
    RootNotFound { root: PathBuf },
    /// The project root exists but is not a directory.
    RootNotDirectory { root: PathBuf },
    /// A `path` argument resolves outside the project root.
    OutsideProject { path: PathBuf, root: PathBuf },
    /// A `path` argument inside the project does not exist.
    PathNotFound { path: PathBuf },
    /// A glob's `path` argument is a file, not a directory to list files under.
    PathIsFile { path: PathBuf },
    /// A glob's or tree's `path` argument is a FIFO, socket or device: nothing to list.
    PathIsSpecial { path: PathBuf },
    /// A `path` argument is git's own store (`.git` or under it), which is not the project's content.
    GitStore { path: PathBuf },
    /// The regex does not parse; `column` is 1-based when known.
    InvalidRegex { pattern: String, column: Option<usize>, message: String },
    /// An include/exclude/glob pattern does not parse.
    InvalidGlob { glob: String, message: String },
    /// The query has nothing to search for (empty, or no word characters for bm25).
    EmptyQuery { what: &'static str },
    /// Another process (a daemon or an in-process client) owns this project's index.
    IndexBusy { root: PathBuf },
    /// The engine is shutting down or the project was closed mid-request.
    Closed,
    /// The caller gave up on the request (its client left).
    Cancelled,
    /// Reading or writing the cache directory failed.
    Io { context: String, source: std::io::Error },
    /// The index library reported an error (the index is rebuilt on the next open).
    Index { context: String, message: String },
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::RootNotFound { root } => {
                write!(f, "project root {} does not exist; pass an existing directory", root.display())
            }
            SearchError::RootNotDirectory { root } => {
                write!(f, "project root {} is not a directory; pass the project's top directory", root.display())
            }
            SearchError::OutsideProject { path, root } => write!(
                f,
                "path {} is outside the project {}; pass a path inside the project or search that project instead",
                path.display(),
                root.display()
            ),
            SearchError::PathNotFound { path } => {
                write!(
                    f,
                    "path {} does not exist in the project; check the spelling or list it with tree",
                    path.display()
                )
            }
            SearchError::PathIsFile { path } => write!(
                f,
                "path {} is a file; glob lists the files under a directory: pass its directory, and its name as the \
                 pattern",
                path.display()
            ),
            SearchError::PathIsSpecial { path } => write!(
                f,
                "path {} is a FIFO, socket or device, not a directory to list: pass the directory it is in",
                path.display()
            ),
            SearchError::GitStore { path } => write!(
                f,
                "path {} is in git's own store, which is not searched; ask git (`git log`, `git config --list`) instead",
                path.display()
            ),
            // Rust's regex has no look-around and no backreference: no escape makes one work.
            SearchError::InvalidRegex { column: Some(column), message, .. }
                if message.contains("look-around") || message.contains("backreference") =>
            {
                write!(
                    f,
                    "regex parse error at column {column}: {message}; search for the text itself and narrow the \
                     hits with a second, more exact pattern instead"
                )
            }
            SearchError::InvalidRegex { column: Some(column), message, .. } => write!(
                f,
                "regex parse error at column {column}: {message}; escape special characters (\\( \\[ \\.) to search for them literally"
            ),
            SearchError::InvalidRegex { column: None, message, .. } => write!(f, "regex parse error: {message}"),
            SearchError::InvalidGlob { glob, message } => {
                write!(f, "invalid glob `{glob}`: {message}; use patterns like `*.rs`, `src/**/*.ts`")
            }
            SearchError::EmptyQuery { what } => write!(f, "{what}"),
            SearchError::IndexBusy { root } => write!(
                f,
                "the search index of {} is owned by another lean-ctx process; searches still work by scanning, \
                 retry the build once that process is done",
                root.display()
            ),
            SearchError::Closed => write!(f, "the search engine is shutting down; retry the request"),
            SearchError::Cancelled => write!(f, "the request was cancelled by its caller"),
            SearchError::Io { context, source } => write!(f, "{context}: {source}"),
            SearchError::Index { context, message } => {
                write!(f, "{context}: {message}; the index will be rebuilt, searches scan meanwhile")
            }
        }
    }
}

impl std::error::Error for SearchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SearchError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// By hand because `std::io::Error` is not `Clone`: the copy keeps its kind and text.
/// The index thread answers every waiter of a build with the same error.
impl Clone for SearchError {
    fn clone(&self) -> Self {
        match self {
            SearchError::RootNotFound { root } => SearchError::RootNotFound { root: root.clone() },
            SearchError::RootNotDirectory { root } => SearchError::RootNotDirectory { root: root.clone() },
            SearchError::OutsideProject { path, root } => {
                SearchError::OutsideProject { path: path.clone(), root: root.clone() }
            }
            SearchError::PathNotFound { path } => SearchError::PathNotFound { path: path.clone() },
            SearchError::PathIsFile { path } => SearchError::PathIsFile { path: path.clone() },
            SearchError::PathIsSpecial { path } => SearchError::PathIsSpecial { path: path.clone() },
            SearchError::GitStore { path } => SearchError::GitStore { path: path.clone() },
            SearchError::InvalidRegex { pattern, column, message } => {
                SearchError::InvalidRegex { pattern: pattern.clone(), column: *column, message: message.clone() }
            }
            SearchError::InvalidGlob { glob, message } => {
                SearchError::InvalidGlob { glob: glob.clone(), message: message.clone() }
            }
            SearchError::EmptyQuery { what } => SearchError::EmptyQuery { what },
            SearchError::IndexBusy { root } => SearchError::IndexBusy { root: root.clone() },
            SearchError::Closed => SearchError::Closed,
            SearchError::Cancelled => SearchError::Cancelled,
            SearchError::Io { context, source } => SearchError::Io {
                context: context.clone(),
                source: std::io::Error::new(source.kind(), source.to_string()),
            },
            SearchError::Index { context, message } => {
                SearchError::Index { context: context.clone(), message: message.clone() }
            }
        }
    }
}

impl SearchError {
    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        SearchError::Io { context: context.into(), source }
    }

    pub(crate) fn index(context: impl Into<String>, err: impl fmt::Display) -> Self {
        SearchError::Index { context: context.into(), message: err.to_string() }
    }
}
