//! Programs a line makes before running them: `cp /bin/rm ./zz; ./zz x`
//! runs rm, and `cat x > s; chmod +x s; ./s` runs what s holds, known only
//! when it runs. A file a command wrote, copied or linked is found by the
//! path a later program word names, or by its name alone once the line
//! changed `PATH` (`PATH=.:$PATH zz`); `hash -p /bin/rm zz` has the shell
//! run /bin/rm for `zz`.

use std::path::{Path, PathBuf};

/// The files the line's commands wrote so far, each with the program it
/// is a copy of (`cp /bin/rm zz`: `rm`), `None` when that is not known.
#[derive(Default)]
pub(super) struct Made {
    files: Vec<(PathBuf, Option<String>)>,
    /// Names `hash -p` gave a program, with that program as [`Made::at`] says.
    hashed: Vec<(String, Option<String>)>,
}

impl Made {
    pub(super) fn wrote(&mut self, path: PathBuf, copy_of: Option<String>) {
        self.files.push((path, copy_of));
    }

    pub(super) fn hash(&mut self, name: &str, program: Option<String>) {
        self.hashed.push((name.to_string(), program));
    }

    /// The program `hash -p` made `name` run, when it did.
    pub(super) fn hashed(&self, name: &str) -> Option<Option<&str>> {
        self.hashed.iter().rev().find(|(hashed, _)| hashed == name).map(|(_, program)| program.as_deref())
    }

    /// What the file at `path` is a copy of, when the line wrote it (the
    /// last write counting): `Some(None)` for what is known only then.
    pub(super) fn at(&self, path: &Path) -> Option<Option<&str>> {
        self.files.iter().rev().find(|(made, _)| made == path).map(|(_, copy_of)| copy_of.as_deref())
    }

    /// As [`Made::at`], for a file of that name anywhere (a program looked
    /// up through a `PATH` the line changed).
    pub(super) fn named(&self, name: &str) -> Option<Option<&str>> {
        let named = |made: &PathBuf| made.file_name().is_some_and(|file| file == name);
        self.files.iter().rev().find(|(made, _)| named(made)).map(|(_, copy_of)| copy_of.as_deref())
    }
}
