//! Which root-relative paths a request admits: the `path` scope plus include
//! and exclude globs; which rules withhold the results of admitted files
//! from the caller; and which secrets of a shown line it may not see. One definition serves scans and index queries alike, so
//! both answer the same question.
//!
//! Globs are matched against the path relative to the scope; a glob without
//! `/` matches the file name at any depth (`*.rs`), as in ripgrep's `-g`.

use std::path::Path;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use crate::error::SearchError;
use crate::mask::Mask;
use crate::paths::Scope;
use crate::withheld::Withhold;

pub(crate) struct PathFilter {
    base_rel: std::path::PathBuf,
    include: Option<GlobSet>,
    exclude: Option<GlobSet>,
    /// The scope or an include glob names a hidden path (see [`names_hidden`]).
    includes_hidden: bool,
    withhold: Option<Withhold>,
    mask: Option<Mask>,
}

impl PathFilter {
    pub(crate) fn new(
        scope: &Scope,
        include: &[String],
        exclude: &[String],
        withhold: Option<Withhold>,
        mask: Option<Mask>,
    ) -> Result<Self, SearchError> {
        Ok(PathFilter {
            base_rel: scope.base_rel.clone(),
            include: compile_globs(include)?,
            exclude: compile_globs(exclude)?,
            includes_hidden: scope.is_hidden() || include.iter().any(|glob| names_hidden(glob)),
            withhold,
            mask,
        })
    }

    /// The rule that withholds the results of the admitted file `rel` from the caller, if any.
    pub(crate) fn withheld_by(&self, rel: &Path) -> Option<String> {
        self.withhold.as_ref().and_then(|withhold| withhold.rule_for(rel))
    }

    /// What masks the secrets of a shown line, if the caller masks them.
    pub(crate) fn mask(&self) -> Option<&Mask> {
        self.mask.as_ref()
    }

    /// Whether the walk must go into hidden paths, which it leaves out unless asked for by name.
    pub(crate) fn includes_hidden(&self) -> bool {
        self.includes_hidden
    }

    /// True when every file under the project root passes (no scope, no globs).
    pub(crate) fn admits_every_path(&self) -> bool {
        self.base_rel.as_os_str().is_empty() && self.include.is_none() && self.exclude.is_none()
    }

    /// True when every file under the project root passes and shows its results (no scope, no
    /// globs, no rules), so an index query need not look at paths.
    pub(crate) fn admits_everything(&self) -> bool {
        self.admits_every_path() && self.withhold.is_none()
    }

    pub(crate) fn admits(&self, rel: &Path) -> bool {
        let Ok(inner) = rel.strip_prefix(&self.base_rel) else { return false };
        // A scope naming a single file leaves nothing to match; use its name.
        let target = if inner.as_os_str().is_empty() { Path::new(rel.file_name().unwrap_or_default()) } else { inner };
        self.include.as_ref().is_none_or(|set| set.is_match(target))
            && !self.exclude.as_ref().is_some_and(|set| set.is_match(target))
    }
}

/// Whether a glob names a hidden path (a component starting with `.`: `.github/**`, `**/.env*`):
/// such paths are left out of walks (as ripgrep leaves them out) unless a glob asks for them.
pub(crate) fn names_hidden(glob: &str) -> bool {
    glob.split('/').any(|part| part.starts_with('.') && part != "." && part != "..")
}

/// Compiles globs into one set (`None` when there are none).
pub(crate) fn compile_globs(patterns: &[String]) -> Result<Option<GlobSet>, SearchError> {
    if patterns.is_empty() {
        return Ok(None);
    }
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        // A leading `/` anchors the glob where the search starts (as in .gitignore).
        let anchored = match pattern.strip_prefix('/') {
            Some(anchored) => anchored.to_string(),
            None if pattern.contains('/') => pattern.clone(),
            None => format!("**/{pattern}"),
        };
        let glob = GlobBuilder::new(&anchored)
            .literal_separator(true)
            .build()
            .map_err(|err| SearchError::InvalidGlob { glob: pattern.clone(), message: err.kind().to_string() })?;
        builder.add(glob);
    }
    let set = builder
        .build()
        .map_err(|err| SearchError::InvalidGlob { glob: patterns.join(", "), message: err.to_string() })?;
    Ok(Some(set))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn filter(base: &str, include: &[&str], exclude: &[&str]) -> PathFilter {
        let scope = Scope { root: PathBuf::from("/r"), base: PathBuf::from("/r").join(base), base_rel: base.into() };
        let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        PathFilter::new(&scope, &strings(include), &strings(exclude), None, None).unwrap()
    }

    #[test]
    fn a_glob_names_a_hidden_path_by_a_component_starting_with_a_dot() {
        for glob in [".github/**", "**/.env*", ".gitignore", "src/.config/*.toml"] {
            assert!(names_hidden(glob), "{glob}");
        }
        for glob in ["*.rs", "./src/*.rs", "../x/*", "src/**/*.d.ts"] {
            assert!(!names_hidden(glob), "{glob}");
        }
    }

    #[test]
    fn globs_without_slash_match_names_at_any_depth() {
        let f = filter("", &["*.rs"], &["*_test.rs"]);
        assert!(f.admits(Path::new("a.rs")));
        assert!(f.admits(Path::new("src/deep/b.rs")));
        assert!(!f.admits(Path::new("src/b_test.rs")));
        assert!(!f.admits(Path::new("src/b.ts")));
    }

    #[test]
    fn globs_with_slash_are_relative_to_the_scope() {
        let f = filter("src", &["engine/*.rs"], &[]);
        assert!(f.admits(Path::new("src/engine/a.rs")));
        assert!(!f.admits(Path::new("src/engine/x/a.rs")));
        assert!(!f.admits(Path::new("other/engine/a.rs")));
        // A leading `/` anchors even a glob of one component at the scope.
        let f = filter("src", &["/*.rs"], &[]);
        assert!(f.admits(Path::new("src/a.rs")));
        assert!(!f.admits(Path::new("src/engine/a.rs")));
    }

    #[test]
    fn bad_glob_is_reported() {
        let err = compile_globs(&["a[".to_string()]).unwrap_err();
        assert!(err.to_string().starts_with("invalid glob `a[`"), "{err}");
    }
}
