//! Files a listing (tree, glob) leaves out because the user's rules deny reading them: counted,
//! with the first reason given, never named.

use std::path::Path;

#[derive(Default)]
pub(crate) struct Unlisted {
    pub count: u64,
    why: Option<String>,
}

impl Unlisted {
    /// Whether `path` is withheld by `withhold`; counts it if so.
    pub fn check(&mut self, withhold: &dyn Fn(&Path) -> Option<String>, path: &Path) -> bool {
        let Some(why) = withhold(path) else { return false };
        self.count += 1;
        self.why.get_or_insert(why);
        true
    }

    /// `3 {what}: {why}` (`3 file(s) not listed: …`), a line.
    pub fn note(&self, what: &str) -> String {
        format!("{} {what}: {}\n", self.count, self.why.as_deref().unwrap_or("not readable"))
    }
}
