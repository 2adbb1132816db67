//! A compact directory tree: directories first, each with the number of
//! files under it at any depth (`src/ (42)`), files after, both sorted.
//! Below `depth` a directory shows only its count and `…`, so an agent sees
//! where the bulk of a project is without listing all of it. Symbolic links
//! not followed are listed as `name -> target` among the files, uncounted.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use crate::config::SearchConfig;
use crate::model::TreeResult;
use crate::paths::{Scope, display, lexically_inside};
use crate::render::skipped_note;
use crate::walk::{EntryKind, SkipReason, Skipped, WalkOptions, classify};
use crate::withheld::Withheld;

/// More files than this in one directory are summarised as `… N more files`.
const MAX_FILES_PER_DIR: usize = 100;

/// The most lines of entries a tree shows: past them it says how many it left out (a depth of 5
/// over a dependency directory listed 25,000 lines).
const MAX_TREE_LINES: usize = 2_000;

#[derive(Default)]
struct Node {
    dirs: BTreeMap<String, Node>,
    files: Vec<String>,
    /// Links not followed, as `name -> target`.
    links: Vec<String>,
    /// Files at any depth below.
    count: u64,
}

impl Node {
    /// Adds one walked entry, given its path components below the tree's base.
    fn insert(&mut self, components: &[String], is_dir: bool) {
        let Some((name, rest)) = components.split_first() else { return };
        if !is_dir {
            self.count += 1;
            if rest.is_empty() {
                self.files.push(name.clone());
                return;
            }
        }
        self.dirs.entry(name.clone()).or_default().insert(rest, is_dir);
    }

    /// Adds a link not followed, given its path components below the tree's base.
    fn insert_link(&mut self, components: &[String], shown: String) {
        match components.split_first() {
            Some((_, [])) => self.links.push(shown),
            Some((dir, rest)) => self.dirs.entry(dir.clone()).or_default().insert_link(rest, shown),
            None => {}
        }
    }

    fn is_empty(&self) -> bool {
        self.dirs.is_empty() && self.files.is_empty() && self.links.is_empty()
    }

    fn dir_count(&self) -> u64 {
        self.dirs.values().map(|d| 1 + d.dir_count()).sum()
    }

    /// Writes the entries of this directory at `level` (1 = the base's children);
    /// directories at `depth` show only their count, with `…` when not empty.
    fn render(&self, out: &mut String, level: usize, depth: usize) {
        let indent = "  ".repeat(level);
        for (name, dir) in &self.dirs {
            let more = if level >= depth && !dir.is_empty() { " …" } else { "" };
            let _ = writeln!(out, "{indent}{name}/ ({}){more}", dir.count);
            if level < depth {
                dir.render(out, level + 1, depth);
            }
        }
        let mut files: Vec<&String> = self.files.iter().chain(&self.links).collect();
        files.sort();
        for name in files.iter().take(MAX_FILES_PER_DIR) {
            let _ = writeln!(out, "{indent}{name}");
        }
        if files.len() > MAX_FILES_PER_DIR {
            let _ = writeln!(out, "{indent}… {} more files", files.len() - MAX_FILES_PER_DIR);
        }
    }
}

/// `withhold` names why a file may not be shown (the user's read rules),
/// or `None`: such files are neither listed nor counted, and a last line
/// says how many were left out and why.
pub(crate) fn tree(
    scope: &Scope,
    depth: usize,
    show_hidden: bool,
    respect_gitignore: bool,
    config: &SearchConfig,
    withhold: &dyn Fn(&Path) -> Option<String>,
) -> TreeResult {
    let options = WalkOptions {
        show_hidden,
        respect_ignore: respect_gitignore,
        follow_links: config.follow_symlinks,
        max_depth: None,
    };
    let label = if scope.base_rel.as_os_str().is_empty() { ".".to_string() } else { display(&scope.base_rel) };
    // The tree of a file is the file itself, asked for by name.
    let mut withheld = Withheld::default();
    if scope.base.is_file() {
        if withheld.check(withhold, &scope.base) {
            return TreeResult {
                text: withheld_line(&withheld),
                files: 0,
                dirs: 0,
                skipped: Skipped::default(),
                withheld: 1,
            };
        }
        return TreeResult { text: format!("{label}\n"), files: 1, dirs: 0, skipped: Skipped::default(), withheld: 0 };
    }
    let mut root = Node::default();
    let mut skipped = Skipped::default();
    for entry in options.builder(&scope.base).build() {
        let Ok(entry) = entry else {
            skipped.count(SkipReason::WalkError);
            continue;
        };
        let Ok(inner) = entry.path().strip_prefix(&scope.base) else { continue };
        let components: Vec<String> = inner.iter().map(|c| c.to_string_lossy().into_owned()).collect();
        if entry.path_is_symlink() && !options.follow_links {
            if withheld.check(withhold, entry.path()) {
                continue;
            }
            // Not walked into, but there: an agent looking for a directory should see where it went.
            let target = link_target(&scope.root, entry.path());
            root.insert_link(&components, format!("{} -> {target}", components.last().map_or("", String::as_str)));
            continue;
        }
        let is_dir = match classify(&entry, u64::MAX) {
            EntryKind::Dir => true,
            EntryKind::File(_) => false,
            EntryKind::Skip(reason) => {
                skipped.count(reason);
                continue;
            }
            EntryKind::Ignored => continue,
        };
        if !is_dir && withheld.check(withhold, entry.path()) {
            continue;
        }
        root.insert(&components, is_dir);
    }
    let mut text = format!("{label}/ ({})\n", root.count);
    root.render(&mut text, 1, depth.max(1));
    cut_to_lines(&mut text, MAX_TREE_LINES + 1);
    if let Some(note) = skipped_note(&skipped) {
        let _ = writeln!(text, "{note}");
    }
    // What the walk left out unasked is said, as an empty search says it: `.github/` and
    // `build/` exist though the tree does not list them.
    let shown = |rel: &Path| withhold(&scope.root.join(rel)).is_none();
    if !show_hidden && crate::walk::skipped_hidden(scope, config, &shown).is_some() {
        let _ = writeln!(
            text,
            "hidden entries (a name starting with `.`) are not listed (ctx_tree show_hidden, lctx tree --hidden)"
        );
    }
    if respect_gitignore {
        let left_out = crate::ignored::ignored_tops(scope, config, show_hidden, &shown);
        if let Some(named) = crate::ignored::named(&left_out) {
            let _ = writeln!(
                text,
                "the project's ignore rules (.gitignore, .ignore) leave out {named}, not listed (ctx_tree \
                 respect_gitignore=false, lctx tree --no-ignore)"
            );
        }
    }
    text.push_str(&withheld_line(&withheld));
    TreeResult { text, files: root.count, dirs: root.dir_count(), skipped, withheld: withheld.results }
}

/// Keeps the first `most` lines of `text`, and says how many it left out.
fn cut_to_lines(text: &mut String, most: usize) {
    let Some((at, _)) = text.match_indices('\n').nth(most - 1) else { return };
    let left_out = text[at + 1..].lines().count();
    if left_out == 0 {
        return;
    }
    text.truncate(at + 1);
    let _ = writeln!(
        text,
        "… {left_out} more lines of this tree not shown (at most {MAX_TREE_LINES}); narrow it with a path or a \
         smaller depth"
    );
}

/// Where the link `link` points, as a tree shows it: its target as written when it resolves inside
/// the project (`root`), else `(outside the project)`: a tree lists the project, not the names of
/// the rest of the machine (`pw -> /etc/passwd`). A dangling target is placed by its path.
fn link_target(root: &Path, link: &Path) -> String {
    let Ok(target) = std::fs::read_link(link) else { return "?".into() };
    let inside = match link.canonicalize() {
        Ok(resolved) => resolved.starts_with(root),
        Err(_) => lexically_inside(root, &link.parent().unwrap_or(root).join(&target)),
    };
    match inside {
        true => target.display().to_string(),
        false => "(outside the project)".into(),
    }
}

/// The line naming how many files the tree leaves out and every rule that did, or nothing.
fn withheld_line(withheld: &Withheld) -> String {
    withheld.note("file").map_or_else(String::new, |note| format!("{note}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn tree_of(dir: &Path, depth: usize) -> String {
        let config = SearchConfig::new("/nonexistent");
        let scope = crate::paths::resolve_scope(dir, None).unwrap();
        tree(&scope, depth, false, true, &config, &|_| None).text
    }

    #[test]
    fn tree_counts_files_per_directory_and_cuts_at_depth() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for file in ["Cargo.toml", "src/lib.rs", "src/a/b.rs", "src/a/c/d.rs", "docs/x.md", ".hidden/y", "target/z"] {
            fs::create_dir_all(root.join(file).parent().unwrap()).unwrap();
            fs::write(root.join(file), "x").unwrap();
        }
        fs::create_dir(root.join("empty")).unwrap();
        fs::write(root.join(".gitignore"), "target/\n").unwrap();
        // QA: what the walk leaves out unasked is said, not only left out.
        let notes = "hidden entries (a name starting with `.`) are not listed (ctx_tree show_hidden, lctx tree \
                     --hidden)\nthe project's ignore rules (.gitignore, .ignore) leave out `target/`, not listed \
                     (ctx_tree respect_gitignore=false, lctx tree --no-ignore)\n";
        assert_eq!(
            tree_of(root, 2),
            format!(
                "./ (5)\n  docs/ (1)\n    x.md\n  empty/ (0)\n  src/ (3)\n    a/ (2) …\n    lib.rs\n  Cargo.toml\n{notes}"
            )
        );
        assert_eq!(
            tree_of(root, 1),
            format!("./ (5)\n  docs/ (1) …\n  empty/ (0)\n  src/ (3) …\n  Cargo.toml\n{notes}")
        );
    }

    /// QA: a deep tree of a dependency directory listed 25,000 lines.
    #[test]
    fn a_tree_stops_at_its_line_bound_saying_how_many_it_left_out() {
        let dir = tempfile::tempdir().unwrap();
        for d in 0..30 {
            for f in 0..90 {
                let path = dir.path().join(format!("d{d:02}/f{f:02}.rs"));
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(path, "x").unwrap();
            }
        }
        let text = tree_of(dir.path(), 3);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), MAX_TREE_LINES + 2, "the label, the bound's lines, the note");
        let left_out = 1 + 30 * 91 - (MAX_TREE_LINES + 1);
        assert_eq!(
            lines.last().unwrap().to_string(),
            format!(
                "… {left_out} more lines of this tree not shown (at most 2000); narrow it with a path or a smaller depth"
            )
        );
    }

    #[test]
    fn links_not_followed_are_listed_with_their_targets_and_not_counted() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("src/real")).unwrap();
        fs::write(root.join("src/real/a.rs"), "x").unwrap();
        std::os::unix::fs::symlink("real", root.join("src/shared")).unwrap();
        std::os::unix::fs::symlink("gone.rs", root.join("src/dangling.rs")).unwrap();
        assert_eq!(
            tree_of(root, 3),
            "./ (1)\n  src/ (1)\n    real/ (1)\n      a.rs\n    dangling.rs -> gone.rs\n    shared -> real\n"
        );
    }

    #[test]
    fn links_to_outside_the_project_do_not_name_their_targets() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = dir.path().join("project");
        fs::create_dir_all(root.join("src")).unwrap();
        fs::write(root.join("src/a.rs"), "x").unwrap();
        fs::write(outside.path().join("passwd"), "x").unwrap();
        std::os::unix::fs::symlink(outside.path().join("passwd"), root.join("pw")).unwrap();
        std::os::unix::fs::symlink("../../elsewhere", root.join("src/up")).unwrap();
        std::os::unix::fs::symlink("/nowhere/x", root.join("src/dangling.rs")).unwrap();
        std::os::unix::fs::symlink(root.join("src/a.rs"), root.join("same.rs")).unwrap();
        let text = tree_of(&root, 3);
        assert_eq!(
            text,
            format!(
                "./ (1)\n  src/ (1)\n    a.rs\n    dangling.rs -> (outside the project)\n    up -> (outside the project)\n  \
                 pw -> (outside the project)\n  same.rs -> {}\n",
                root.join("src/a.rs").display()
            )
        );
    }

    #[test]
    fn the_tree_of_a_file_is_the_file() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("src")).unwrap();
        fs::write(dir.path().join("src/lib.rs"), "x").unwrap();
        let config = SearchConfig::new("/nonexistent");
        let scope = crate::paths::resolve_scope(dir.path(), Some(Path::new("src/lib.rs"))).unwrap();
        let result = tree(&scope, 3, false, true, &config, &|_| None);
        assert_eq!((result.text.as_str(), result.files, result.dirs), ("src/lib.rs\n", 1, 0));
    }

    #[test]
    fn withheld_files_are_neither_listed_nor_counted_and_the_tree_names_every_rule() {
        let dir = tempfile::tempdir().unwrap();
        for file in ["src/lib.rs", "secrets/prod.env", "secrets/dev.env", "keys/a.pem", ".env"] {
            fs::create_dir_all(dir.path().join(file).parent().unwrap()).unwrap();
            fs::write(dir.path().join(file), "x").unwrap();
        }
        let config = SearchConfig::new("/nonexistent");
        let scope = crate::paths::resolve_scope(dir.path(), None).unwrap();
        let deny = |p: &Path| {
            let p = p.to_string_lossy();
            let rule = if p.contains("secrets/") { "deny Read(./secrets/**)" } else { "deny Read(./keys/**)" };
            (p.contains("secrets/") || p.contains("keys/")).then(|| rule.to_string())
        };
        let result = tree(&scope, 3, true, true, &config, &deny);
        assert!(!result.text.contains("prod.env") && !result.text.contains("a.pem"), "{}", result.text);
        assert!(result.text.starts_with("./ (2)\n"), "{}", result.text);
        let note = "3 files withheld by the user's Read rules: deny Read(./keys/**); deny Read(./secrets/**)\n";
        assert!(result.text.ends_with(note), "{}", result.text);
        assert_eq!((result.files, result.withheld), (2, 3));
        let scope = crate::paths::resolve_scope(dir.path(), Some(Path::new("secrets/prod.env"))).unwrap();
        let result = tree(&scope, 3, true, true, &config, &deny);
        let note = "1 file withheld by the user's Read rules: deny Read(./secrets/**)\n";
        assert_eq!((result.text.as_str(), result.files), (note, 0));
    }
}
