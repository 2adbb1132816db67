//! File-name search: a glob over the paths the project's ignore rules admit.
//! Names only, so binaries and large files are listed too; FIFOs, sockets
//! and devices are not files an agent can read and are counted as skipped.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use crate::config::SearchConfig;
use crate::error::SearchError;
use crate::filter::{compile_globs, names_hidden};
use crate::ignored;
use crate::model::GlobResult;
use crate::paths::{Scope, display};
use crate::render::{count, more_note, skipped_note, some_paths};
use crate::walk::{EntryKind, SkipReason, Skipped, WalkOptions, classify};
use crate::withheld::Withheld;

/// Paths under the scope matching `pattern` (relative to the scope; `*.rs`
/// matches at any depth), sorted, the first `max_results` shown.
pub(crate) fn glob(
    scope: &Scope,
    pattern: &str,
    max_results: usize,
    config: &SearchConfig,
    withhold: &dyn Fn(&Path) -> Option<String>,
) -> Result<GlobResult, SearchError> {
    if pattern.trim().is_empty() {
        return Err(SearchError::EmptyQuery { what: "the glob is empty; pass a pattern such as `**/*.rs`" });
    }
    if scope.base.is_file() {
        return Err(SearchError::PathIsFile { path: scope.base_rel.clone() });
    }
    let set = compile_globs(&[pattern.to_string()])?.expect("one glob compiles to a set");
    let hidden = names_hidden(pattern) || scope.is_hidden();
    // Links apart: a withheld link is no file the answer left out. Every withheld name the walk
    // meets is counted, whether the pattern matches it or not: counting only those it matches
    // would tell a guess at a withheld name (`secret/cr*`) from a wrong one.
    let (mut withheld, mut withheld_links) = (Withheld::default(), Withheld::default());
    let Matches { mut paths, mut links, skipped } = matching(scope, &set, hidden, config, &mut |path, link| {
        !(if link { &mut withheld_links } else { &mut withheld }).check(withhold, path)
    });
    paths.sort();
    links.sort();
    let total = paths.len() as u64;
    let hint = match total {
        0 => Unmatched { scope, set: &set, pattern, hidden, config, withhold }.hint(),
        _ => None,
    };
    let paths: Vec<String> = paths.iter().take(max_results).map(|p| display(p)).collect();
    let shown = paths.len() as u64;
    let mut result = GlobResult {
        paths,
        total,
        shown,
        truncated: shown < total,
        skipped,
        hint,
        withheld: withheld.results + withheld_links.results,
        withheld_note: Withheld::unmatched_note(&[(&withheld, "file"), (&withheld_links, "link")]),
        links_note: links_note(&links),
        note: String::new(),
        text: String::new(),
    };
    result.note = notes(&result, max_results).join("\n");
    result.text = glob_text(&result);
    Ok(result)
}

/// What a walk for a pattern found, root-relative.
struct Matches {
    paths: Vec<PathBuf>,
    /// Symbolic links the pattern names: walks do not follow links, so they are named apart.
    links: Vec<PathBuf>,
    skipped: Skipped,
}

/// The files under the scope whose path below it `set` matches and `keep` keeps (given the
/// absolute path and whether it is a link), the links it names, and what was skipped; hidden
/// paths walked only with `hidden`. `keep` sees every file and link walked, before the pattern
/// is matched, and a file it does not keep is neither matched nor counted as skipped.
fn matching(
    scope: &Scope,
    set: &globset::GlobSet,
    hidden: bool,
    config: &SearchConfig,
    keep: &mut dyn FnMut(&Path, bool) -> bool,
) -> Matches {
    let mut skipped = Skipped::default();
    let (mut paths, mut links) = (Vec::new(), Vec::new());
    for entry in WalkOptions::project(config, hidden).builder(&scope.base).build() {
        let Ok(entry) = entry else {
            skipped.count(SkipReason::WalkError);
            continue;
        };
        let (Ok(rel), Ok(inner)) = (entry.path().strip_prefix(&scope.root), entry.path().strip_prefix(&scope.base))
        else {
            continue;
        };
        // Only what the pattern names is listed, or counted as skipped (a FIFO elsewhere is no
        // file the answer left out).
        let named = |inner: &Path| set.is_match(inner);
        match classify(&entry, u64::MAX) {
            EntryKind::File(_) | EntryKind::Skip(_) if !keep(entry.path(), false) => {}
            EntryKind::File(_) if named(inner) => paths.push(rel.to_path_buf()),
            EntryKind::Skip(reason) if named(inner) => skipped.count(reason),
            _ if entry.path_is_symlink() && keep(entry.path(), true) && named(inner) => links.push(rel.to_path_buf()),
            _ => {}
        }
    }
    Matches { paths, links, skipped }
}

/// The line naming the links a pattern matched, which the answer does not list as files.
fn links_note(links: &[PathBuf]) -> Option<String> {
    if links.is_empty() {
        return None;
    }
    let verb = if links.len() == 1 { "matches" } else { "match" };
    Some(format!(
        "{} {verb} too, not listed (searches and globs do not follow links): {}",
        count(links.len() as u64, "symbolic link"),
        some_paths(links)
    ))
}

/// A glob that matched nothing, and what it was matched under: what its empty answer's hint
/// looks at.
struct Unmatched<'a> {
    scope: &'a Scope,
    set: &'a globset::GlobSet,
    pattern: &'a str,
    hidden: bool,
    config: &'a SearchConfig,
    withhold: &'a dyn Fn(&Path) -> Option<String>,
}

impl Unmatched<'_> {
    /// Where the files of the pattern may be: a directory it names (`lib`, `lib/`: a glob
    /// matches files), the project's root, hidden paths or paths the ignore rules leave out,
    /// walked again only now to say whether any match.
    fn hint(&self) -> Option<String> {
        let dir = self.pattern.trim_start_matches('/').trim_end_matches('/');
        let literal = !dir.is_empty() && !dir.contains(['*', '?', '[', ']', '{', '}']);
        if literal && self.scope.base.join(dir).is_dir() {
            return Some(format!(
                "`{dir}` is a directory and a glob matches files: `{dir}/**` lists the files under it"
            ));
        }
        if let Some(from_root) = self.root_hint() {
            return Some(from_root);
        }
        let (scope, set) = (self.scope, self.set);
        let unwithheld = |rel: &Path| (self.withhold)(&scope.root.join(rel)).is_none();
        let left_out = ignored::ignored_tops(scope, self.config, self.hidden, &unwithheld);
        let named =
            |rel: &Path| rel.strip_prefix(&scope.base_rel).is_ok_and(|inner| set.is_match(inner)) && unwithheld(rel);
        let ignored_note = ignored::glob_note(scope, self.config, &left_out, self.hidden, &named);
        let hidden_note = (!self.hidden).then(|| self.hidden_matches()).flatten();
        let notes: Vec<String> = hidden_note.into_iter().chain(ignored_note).collect();
        (!notes.is_empty()).then(|| notes.join("\n"))
    }

    /// The files matched under `scope` with hidden paths walked as `hidden` says.
    fn matches_under(&self, scope: &Scope, hidden: bool) -> Vec<PathBuf> {
        let keep = &mut |path: &Path, _| (self.withhold)(path).is_none();
        matching(scope, self.set, hidden, self.config, keep).paths
    }

    /// QA: from a subdirectory, a glob written from the project's root (`src/requests/*.py` in
    /// `src`, as every answer shows paths) matched nothing, without a word. When the pattern
    /// matches from the root, the hint says so, and how to write it from here when it starts with
    /// this directory's path.
    fn root_hint(&self) -> Option<String> {
        let scope = self.scope;
        if scope.base_rel.as_os_str().is_empty() || !self.pattern.contains('/') {
            return None;
        }
        let root = Scope { root: scope.root.clone(), base: scope.root.clone(), base_rel: PathBuf::new() };
        let found = self.matches_under(&root, self.hidden).len() as u64;
        if found == 0 {
            return None;
        }
        let here = display(&scope.base_rel);
        let rewrite = self
            .pattern
            .trim_start_matches("./")
            .strip_prefix(&format!("{here}/"))
            .map(|rest| format!(": `{rest}` from here"))
            .unwrap_or_default();
        Some(format!(
            "a glob is taken from the directory searched, {here}/, where this one matches nothing; from the project \
             root it matches {}{rewrite}",
            count(found, "file")
        ))
    }

    /// The files under hidden paths, which the walk left out, that the pattern matches: counted
    /// and named (QA: "2 files under hidden paths match" said neither which nor where).
    fn hidden_matches(&self) -> Option<String> {
        let mut found = self.matches_under(self.scope, true);
        found.sort();
        (!found.is_empty()).then(|| {
            format!(
                "{} under hidden paths (a name starting with `.`) {}, left out unless the pattern or the path names \
                 one: {}",
                count(found.len() as u64, "file"),
                if found.len() == 1 { "matches" } else { "match" },
                some_paths(&found),
            )
        })
    }
}

/// What `result`'s text says after its count, one line each: where the files of an empty answer
/// may be, and what the answer did not list.
fn notes(result: &GlobResult, max_results: usize) -> Vec<String> {
    let (total, shown) = (result.total, result.shown);
    let hint = result.hint.clone().filter(|_| total == 0);
    let more = (shown < total).then(|| more_note(total, shown, max_results, "file"));
    let listed = [hint, more, skipped_note(&result.skipped), result.withheld_note.clone(), result.links_note.clone()];
    listed.into_iter().flatten().collect()
}

/// The text of `result`: its paths, its count, then its note.
fn glob_text(result: &GlobResult) -> String {
    let mut text = String::new();
    for path in &result.paths {
        let _ = writeln!(text, "{path}");
    }
    let total = result.total;
    let _ = writeln!(text, "{}", if total == 0 { "no files match".to_string() } else { count(total, "file") });
    for line in result.note.lines() {
        let _ = writeln!(text, "{line}");
    }
    text
}
