//! What the project's ignore rules (.gitignore, .ignore, git's excludes) leave out of every walk:
//! an empty answer names it, since "no matches" would otherwise read as "this does not exist" for
//! build outputs, dependencies and logs; and a request limited to such a path is not answered from
//! the index, which never holds it.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::config::SearchConfig;
use crate::filter::names_hidden;
use crate::paths::{Scope, display};
use crate::render::count;
use crate::walk::{HINT_WALK, WalkOptions};

/// How many left-out paths an answer names before it only counts the rest.
const NAMED: usize = 5;

/// The topmost paths under a scope that the ignore rules leave out (`target/`, `x.log`).
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Ignored {
    /// Root-relative, sorted; a directory's ends in `/`.
    pub tops: Vec<String>,
    /// The walk stopped at [`HINT_WALK`] entries: there may be more.
    pub partial: bool,
}

/// The topmost paths under `scope` the ignore rules leave out and `admits` takes (given
/// root-relative), hidden ones only with `hidden`, `.git` never. Looks at [`HINT_WALK`] entries of
/// the project's walk at most: a directory the walk reached is listed, and any name in it the walk
/// did not yield is left out by a rule.
pub(crate) fn ignored_tops(
    scope: &Scope,
    config: &SearchConfig,
    hidden: bool,
    admits: &dyn Fn(&Path) -> bool,
) -> Ignored {
    if !scope.base.is_dir() {
        return Ignored::default();
    }
    let mut walked = HashSet::new();
    let mut dirs = Vec::new();
    let mut partial = false;
    for (looked, entry) in WalkOptions::project(config, hidden).builder(&scope.base).build().flatten().enumerate() {
        if looked >= HINT_WALK {
            partial = true;
            break;
        }
        if entry.file_type().is_some_and(|kind| kind.is_dir()) {
            dirs.push(entry.path().to_path_buf());
        }
        walked.insert(entry.into_path());
    }
    let mut tops = Vec::new();
    for dir in &dirs {
        let Ok(children) = std::fs::read_dir(dir) else { continue };
        for child in children.flatten() {
            let path = child.path();
            let name = child.file_name();
            let left_out =
                name != ".git" && (hidden || !names_hidden(&name.to_string_lossy())) && !walked.contains(&path);
            let Some(rel) = path.strip_prefix(&scope.root).ok().filter(|rel| left_out && admits(rel)) else { continue };
            let slash = if child.file_type().is_ok_and(|kind| kind.is_dir()) { "/" } else { "" };
            tops.push(format!("{}{slash}", display(rel)));
        }
    }
    tops.sort();
    Ignored { tops, partial }
}

/// Whether the ignore rules leave out `scope`'s base or a directory above it (below the root):
/// a walk from the root never reaches it, so the index does not hold it.
pub(crate) fn scope_ignored(scope: &Scope, config: &SearchConfig) -> bool {
    let mut parent = scope.root.clone();
    for part in scope.base_rel.components() {
        let child = parent.join(part);
        let mut listing = WalkOptions::project(config, true);
        listing.max_depth = Some(1);
        if !listing.builder(&parent).build().flatten().any(|entry| entry.path() == child) {
            return true;
        }
        parent = child;
    }
    false
}

impl Ignored {
    /// The tops that are files, then the directories: a directory of many files (node_modules)
    /// must not spend the walk's bound before a file beside it is looked at.
    fn in_walk_order(&self) -> impl Iterator<Item = &String> {
        let (dirs, files): (Vec<&String>, Vec<&String>) = self.tops.iter().partition(|top| top.ends_with('/'));
        files.into_iter().chain(dirs)
    }

    /// The tops holding a file `wanted` takes (given root-relative), for a request whose globs
    /// admit only some files: a top holding none of them is nothing it left out. Looks at
    /// [`HINT_WALK`] entries at most; a top not looked into is kept, as one that may hold one.
    pub(crate) fn holding(
        self,
        scope: &Scope,
        config: &SearchConfig,
        hidden: bool,
        wanted: &dyn Fn(&Path) -> bool,
    ) -> Ignored {
        let mut looked = 0;
        let mut tops = Vec::new();
        for top in self.in_walk_order() {
            let (files, cut) = files_under(scope, config, top, hidden, wanted, &mut looked, 1);
            if !files.is_empty() || cut {
                tops.push(top.clone());
            }
        }
        tops.sort();
        Ignored { tops, partial: self.partial }
    }
}

/// The files under the left-out path `top` (root-relative) that `wanted` takes, at most `most`,
/// walked without the ignore rules; `looked` counts the entries walked across calls, and the walk
/// stops past [`HINT_WALK`] of them, saying it was cut.
fn files_under(
    scope: &Scope,
    config: &SearchConfig,
    top: &str,
    hidden: bool,
    wanted: &dyn Fn(&Path) -> bool,
    looked: &mut usize,
    most: usize,
) -> (Vec<PathBuf>, bool) {
    let mut everything = WalkOptions::project(config, hidden);
    everything.respect_ignore = false;
    let mut found = Vec::new();
    for entry in everything.builder(&scope.root.join(top)).build().flatten() {
        *looked += 1;
        if *looked > HINT_WALK {
            return (found, true);
        }
        let Ok(rel) = entry.path().strip_prefix(&scope.root) else { continue };
        if entry.file_type().is_some_and(|kind| kind.is_file()) && wanted(rel) {
            found.push(rel.to_path_buf());
            if found.len() >= most {
                break;
            }
        }
    }
    (found, false)
}

/// What an empty search adds about the paths it did not search.
pub(crate) fn search_note(ignored: &Ignored) -> Option<String> {
    let named = named(ignored)?;
    Some(format!(
        "the project's ignore rules (.gitignore, .ignore) leave out {named}, not searched; name one as the path to \
         search it"
    ))
}

/// What an empty glob adds: the files under left-out paths that `matches` (given root-relative)
/// takes, looked for only now, [`HINT_WALK`] entries at most.
pub(crate) fn glob_note(
    scope: &Scope,
    config: &SearchConfig,
    ignored: &Ignored,
    hidden: bool,
    matches: &dyn Fn(&Path) -> bool,
) -> Option<String> {
    let mut looked = 0;
    let mut found: Vec<PathBuf> = Vec::new();
    let mut partial = ignored.partial;
    for top in ignored.in_walk_order() {
        let (files, cut) = files_under(scope, config, top, hidden, matches, &mut looked, usize::MAX);
        found.extend(files);
        partial |= cut;
    }
    if found.is_empty() {
        return None;
    }
    found.sort();
    let (total, verb) = (found.len() as u64, if found.len() == 1 { "matches" } else { "match" });
    let more = if partial { " (or more)" } else { "" };
    Some(format!(
        "{}{more} that the project's ignore rules (.gitignore, .ignore) leave out {verb}: {}",
        count(total, "file"),
        crate::render::some_paths(&found)
    ))
}

/// `ignored`'s tops, the first [`NAMED`] by name and the rest counted; None when it has none.
pub(crate) fn named(ignored: &Ignored) -> Option<String> {
    if ignored.tops.is_empty() {
        return None;
    }
    let mut named: Vec<String> = ignored.tops.iter().take(NAMED).map(|top| format!("`{top}`")).collect();
    let rest = ignored.tops.len() - named.len();
    if rest > 0 || ignored.partial {
        named.push(match ignored.partial {
            true => "more".to_string(),
            false => count(rest as u64, "more path"),
        });
    }
    Some(match named.len() {
        1 => named.remove(0),
        _ => {
            let last = named.pop().expect("two or more");
            format!("{} and {last}", named.join(", "))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// QA: a glob's note said nothing of `run.log` once `node_modules/` beside it held more files
    /// than the walk's bound: files are looked at before directories.
    #[test]
    fn files_are_looked_at_before_directories() {
        let ignored = Ignored { tops: vec!["a/".into(), "node_modules/".into(), "run.log".into()], partial: false };
        assert_eq!(ignored.in_walk_order().collect::<Vec<_>>(), ["run.log", "a/", "node_modules/"]);
    }
}
