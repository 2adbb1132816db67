//! Links a line makes before writing through them: `ln -s config c; echo
//! x > c/app.ini` writes config/app.ini, though `c` does not exist when
//! the line is checked. `ln` (symbolic or hard), `cp -s`/`cp -l` make one;
//! `mv` of one made earlier gives it its new name, and `cp` copying it as
//! a link (`-P`, `-d`, `-a`, `-r`) another. A symbolic link holds a text: a
//! relative one leads from the directory the link is in, so a copy or move
//! of it elsewhere leads elsewhere (`ln -s ../config a/b/c; cp -a a/b/c x/`
//! makes `x/c`, leading to `config`, not `a/config`); so for a link already
//! on disk copied or moved.

use std::path::{Path, PathBuf};

use super::getopt::{Name, Parsed};

/// Links followed one through another at most (a link to a link…).
const MAX_HOPS: usize = 8;

struct Link {
    /// Where the link is, absolute.
    name: PathBuf,
    /// Where it leads, absolute; `None`: known only when it runs.
    target: Option<PathBuf>,
    /// A symbolic link's text when relative.
    text: Option<String>,
    /// The command making it, as written.
    by: String,
}

/// The links a line made so far.
#[derive(Default)]
pub(super) struct Links(Vec<Link>);

/// Where a path leads through the links made before it.
pub(super) struct Through<'a> {
    /// `None`: a link whose target is known only when it runs.
    pub(super) path: Option<PathBuf>,
    /// The command making the (first) link, as written.
    pub(super) by: &'a str,
}

impl Links {
    /// A link made at `name`, leading to `target`; `text`, a symbolic link's relative text.
    pub(super) fn made(&mut self, name: PathBuf, target: Option<PathBuf>, text: Option<String>, by: String) {
        self.0.push(Link { name, target, text, by });
    }

    /// Where the link named `name` leads and its relative text, when the line made one there.
    pub(super) fn target_of(&self, name: &Path) -> Option<(Option<PathBuf>, Option<String>)> {
        self.0.iter().rev().find(|link| link.name == name).map(|link| (link.target.clone(), link.text.clone()))
    }

    /// Where a link of that file name made anywhere leads (a program
    /// looked up through a `PATH` the line changed).
    pub(super) fn named(&self, file: &str) -> Option<Option<PathBuf>> {
        let named = |link: &&Link| link.name.file_name().is_some_and(|name| name == file);
        self.0.iter().rev().find(named).map(|link| link.target.clone())
    }

    /// Where `path` leads when it is, or is under, a link made earlier on
    /// the line (the latest made there counting), followed through links
    /// to links; `None` when it is not.
    pub(super) fn through(&self, path: &Path) -> Option<Through<'_>> {
        let mut by = None;
        let mut path = path.to_path_buf();
        for _ in 0..MAX_HOPS {
            let Some(link) = self.0.iter().rev().find(|link| path.starts_with(&link.name)) else { break };
            by.get_or_insert(link.by.as_str());
            let Some(target) = &link.target else { return Some(Through { path: None, by: by? }) };
            let rest = path.strip_prefix(&link.name).expect("starts with it");
            let next = if rest.as_os_str().is_empty() { target.clone() } else { target.join(rest) };
            if next == path {
                break;
            }
            path = next;
        }
        by.map(|by| Through { path: Some(path), by })
    }
}

/// Whether `program` given `args` makes links, and what their relative
/// targets are taken from: the link's directory for a symbolic one (`ln
/// -s`, `cp -s`) unless `-r` made it relative to where it runs, that for a
/// hard one; `None` when it makes none.
pub(super) fn making(program: &str, args: &[&str]) -> Option<RelativeTo> {
    let parsed = super::writers::destination_options(program, args)?;
    let has = |letter: char| parsed.has(Name::Short(letter));
    match program {
        "ln" if has('s') && !has('r') => Some(RelativeTo::LinkDir),
        "ln" if has('s') => Some(RelativeTo::Rewritten),
        "ln" => Some(RelativeTo::Cwd),
        "cp" if has('s') => Some(RelativeTo::LinkDir),
        "cp" if has('l') => Some(RelativeTo::Cwd),
        _ => None,
    }
}

/// Whether `program` given `args` copies a link as a link, leading where
/// it did: `mv`, and GNU cp as [`cp_dereferencing`] says, `-a`, `-d` or
/// `-P` last (`cp` alone copies what it leads to, `-H` what an operand does).
pub(super) fn carries(program: &str, args: &[&str]) -> bool {
    if program == "mv" {
        return true;
    }
    let Some(parsed) = super::writers::destination_options(program, args).filter(|_| program == "cp") else {
        return false;
    };
    matches!(cp_dereferencing(&parsed), Some('a' | 'd' | 'P'))
}

/// Which of GNU cp's options says what it does with a link (its short
/// letter): the last of `-a`, `-d`, `-P` (copy it as a link), `-L` (copy
/// what it leads to) and `-H` (so for an operand only), each setting it
/// anew (`cp -PL` follows); with none of them, `-r`/`-R` as `-P`.
pub(super) fn cp_dereferencing(parsed: &Parsed) -> Option<char> {
    let last = parsed.options.iter().rev().find_map(|given| match given.name {
        Name::Short(letter @ ('a' | 'd' | 'P' | 'L' | 'H')) => Some(letter),
        _ => None,
    });
    last.or_else(|| (parsed.has(Name::Short('r')) || parsed.has(Name::Short('R'))).then_some('P'))
}

/// See [`making`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum RelativeTo {
    /// A hard link: the file itself.
    Cwd,
    /// A symbolic link whose text is the name given.
    LinkDir,
    /// A symbolic link to the name given where it runs, its text made
    /// relative to the link's directory (`ln -sr`, see [`relative_text`]).
    Rewritten,
}

/// The text `ln -r` writes for a link in `dir` leading to `target` (both
/// canonical): `..` up to their common directory, then down.
pub(super) fn relative_text(dir: &Path, target: &Path) -> String {
    let common = dir.components().zip(target.components()).take_while(|(a, b)| a == b).count();
    let ups = std::iter::repeat_n("..".to_string(), dir.components().count() - common);
    let downs = target.components().skip(common).map(|part| part.as_os_str().to_string_lossy().into_owned());
    let text = ups.chain(downs).collect::<Vec<_>>().join("/");
    if text.is_empty() { ".".to_string() } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_under_a_link_lead_to_its_target_through_chains() {
        let mut links = Links::default();
        links.made("/p/c".into(), Some("/p/config".into()), None, "ln -s config c".into());
        links.made("/p/t".into(), Some("/p/c/app.ini".into()), None, "ln -s c/app.ini t".into());
        links.made("/p/u".into(), None, None, "ln -s $x u".into());
        let through = |path: &str| links.through(Path::new(path)).map(|t| (t.path, t.by.to_string()));
        assert_eq!(through("/p/c/app.ini"), Some((Some("/p/config/app.ini".into()), "ln -s config c".into())));
        assert_eq!(through("/p/t"), Some((Some("/p/config/app.ini".into()), "ln -s c/app.ini t".into())));
        assert_eq!(through("/p/u/x"), Some((None, "ln -s $x u".into())));
        assert_eq!(through("/p/cc"), None);
    }

    #[test]
    fn ln_r_writes_the_way_from_the_links_directory() {
        assert_eq!(relative_text(Path::new("/p/a/b"), Path::new("/p/a/config")), "../config");
        assert_eq!(relative_text(Path::new("/p"), Path::new("/p/config/x")), "config/x");
        assert_eq!(relative_text(Path::new("/p/a"), Path::new("/p/a")), ".");
    }
}
