//! Results the caller may not see (the user's Read rules deny their files). They are taken out
//! before the answer is cut to its limit, so the limit, the counts and the ranking are of what
//! the caller may see, and only a note counts the rest.

use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use crate::render::count;

/// Which rule, if any, withholds the results of a file (given root-relative); the caller's
/// description of the rule, for the note. Called on the search's threads.
#[derive(Clone)]
pub struct Withhold(Arc<RuleFor>);

type RuleFor = dyn Fn(&Path) -> Option<String> + Send + Sync;

impl Withhold {
    pub fn new(rule_for: impl Fn(&Path) -> Option<String> + Send + Sync + 'static) -> Self {
        Withhold(Arc::new(rule_for))
    }

    pub(crate) fn rule_for(&self, rel: &Path) -> Option<String> {
        (self.0)(rel)
    }
}

impl fmt::Debug for Withhold {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Withhold(..)")
    }
}

/// The results taken out and the rules that took them (each once, sorted, whatever order the
/// files were met in): a search's matches, the files a listing (glob, tree) leaves out, or the
/// files, call sites and uses a graph answer leaves out, one result per withheld file or edge.
#[derive(Debug, Default)]
pub struct Withheld {
    pub(crate) results: u64,
    rules: BTreeSet<String>,
}

impl Withheld {
    /// Counts `results` taken out by `rule` (named as its note will name it).
    pub fn add(&mut self, rule: String, results: u64) {
        self.results += results;
        self.rules.insert(rule);
    }

    /// Whether `withhold` withholds the file `path` (given absolute); counted as one result if so.
    pub fn check(&mut self, withhold: &dyn Fn(&Path) -> Option<String>, path: &Path) -> bool {
        let Some(rule) = withhold(path) else { return false };
        self.add(rule, 1);
        true
    }

    /// `3 matches withheld by the user's Read rules: R1; R2`, or nothing. Neither the files nor
    /// their number are named: only what the rules, which the user wrote, already say.
    pub fn note(&self, unit: &str) -> Option<String> {
        Withheld::note_of(&[(self, unit)])
    }

    /// One note for results of several kinds, each counted in its own unit (`1 matching file and
    /// 1 matching link withheld …`), the rules of all of them named once; nothing when none was
    /// withheld.
    pub fn note_of(parts: &[(&Withheld, &str)]) -> Option<String> {
        Withheld::described(parts, "withheld by the user's Read rules")
    }

    /// `2 files not searched: the user's Read rules withhold them: R1; R2`, or nothing: a search
    /// reads no withheld file, so its answer counts them by name (those in its scope), never by
    /// what they hold, which a pattern matching or not would give away.
    pub fn unsearched_note(&self) -> Option<String> {
        let what = match self.results {
            1 => "not searched: the user's Read rules withhold it",
            _ => "not searched: the user's Read rules withhold them",
        };
        Withheld::described(&[(self, "file")], what)
    }

    /// `2 files and 1 link not matched against the pattern: the user's Read rules withhold their
    /// names: R1`, or nothing: a listing counts every withheld name it walks past, so whether a
    /// pattern would have matched one changes nothing.
    pub fn unmatched_note(parts: &[(&Withheld, &str)]) -> Option<String> {
        let total: u64 = parts.iter().map(|(w, _)| w.results).sum();
        let what = match total {
            1 => "not matched against the pattern: the user's Read rules withhold its name",
            _ => "not matched against the pattern: the user's Read rules withhold their names",
        };
        Withheld::described(parts, what)
    }

    /// The counts of `parts`, then `what` befell them, then the rules of all of them, each once.
    fn described(parts: &[(&Withheld, &str)], what: &str) -> Option<String> {
        let counted: Vec<String> =
            parts.iter().filter(|(w, _)| w.results > 0).map(|(w, unit)| count(w.results, unit)).collect();
        (!counted.is_empty()).then(|| {
            let rules: BTreeSet<&str> = parts.iter().flat_map(|(w, _)| w.rules.iter().map(String::as_str)).collect();
            let rules: Vec<&str> = rules.into_iter().collect();
            format!("{} {what}: {}", counted.join(" and "), rules.join("; "))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_names_every_rule_once_in_order() {
        let mut withheld = Withheld::default();
        assert_eq!(withheld.note("match"), None);
        withheld.add("deny Read(./b)".into(), 2);
        withheld.add("ask Read(./a)".into(), 1);
        withheld.add("deny Read(./b)".into(), 1);
        assert_eq!(
            withheld.note("match").unwrap(),
            "4 matches withheld by the user's Read rules: ask Read(./a); deny Read(./b)"
        );
        assert_eq!(
            withheld.unsearched_note().unwrap(),
            "4 files not searched: the user's Read rules withhold them: ask Read(./a); deny Read(./b)"
        );
    }
}
