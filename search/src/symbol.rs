//! Symbol search: definitions whose name equals the pattern or starts with
//! it, case-insensitively. Closest names come first: exact before prefix,
//! the pattern's own case before another case, shorter before longer; then
//! by path and line.
//! The index answers from its lowercased name terms; before it is ready the
//! extractor runs over a scan, which yields the same definitions.

use std::collections::{BTreeMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use tantivy::TantivyDocument;
use tantivy::collector::DocSetCollector;
use tantivy::query::RegexQuery;

use crate::config::SearchConfig;
use crate::error::SearchError;
use crate::filter::PathFilter;
use crate::mask::{Mask, Seen};
use crate::model::{Found, Match};
use crate::paths::{Scope, display};
use crate::project::IndexView;
use crate::render::{Shown, shown_line};
use crate::symbols::Symbol;
use crate::walk::{ScanStats, Stop, read_file, scan_files, text_of};

/// The name prefix to look for: as typed (for ordering), and lowercased (for matching); or, for
/// a qualified pattern's parts (see [`Needle::members`]), a name prefix and its owner, or a
/// whole name (see [`Needle::named`]).
pub(crate) struct Needle {
    typed: String,
    lower: String,
    /// Only this name, not the names it begins.
    whole: bool,
    /// Only members of a type or module of this name (lowercased).
    owner: Option<String>,
    /// The qualifier's parts before the owner (lowercased): a member whose owner is known to be
    /// nested in other modules or types is one only if they end as these do (see [`nested_in`]).
    outer: Vec<String>,
    /// Only definitions in files whose path holds these names (lowercased), in this order, as
    /// directories or as the file's stem: `zip` of `zip.Writer.Close` is `archive/zip/writer.go`
    /// (see [`Needle::placed`]).
    places: Vec<String>,
}

impl Needle {
    /// Whether `symbol` is one the needle looks for: its name starts with the needle (or is it,
    /// for a whole name), in any case, and it is a member of the needle's owner if it names one.
    fn matches(&self, symbol: &Symbol) -> bool {
        let name = self.compared(&symbol.name);
        let named = match self.whole {
            true => is_exact(name, &self.lower),
            false => lowercase_starts_with(name, &self.lower),
        };
        let owned = |owner: &str| {
            symbol.owner.as_deref().is_some_and(|path| {
                let (outer, of) = path.rsplit_once("::").unwrap_or(("", path));
                is_exact(of, owner) && nested_in(outer, &self.outer)
            })
        };
        named && self.owner.as_deref().is_none_or(owned)
    }

    /// The pattern of the lowercased names the index holds that may match: those starting with
    /// the needle (or equal to it, for a whole name), after a private name's `#` too (see
    /// [`Needle::compared`]).
    fn index_pattern(&self) -> String {
        let private = if self.lower.starts_with('#') { "" } else { "#?" };
        let rest = if self.whole { "" } else { ".*" };
        format!("{private}{}{rest}", regex_syntax::escape(&self.lower))
    }

    /// The part of `name` the needle is compared with: a JavaScript private name (`#count`) is
    /// found by its name alone (`count`) too, as a reader who does not know it is private types it.
    fn compared<'n>(&self, name: &'n str) -> &'n str {
        match name.strip_prefix('#') {
            Some(bare) if !self.lower.starts_with('#') => bare,
            _ => name,
        }
    }

    /// Whether a file at `path` (relative to the root) is in the needle's places, if it names any.
    /// A Go file is placed by its directories alone: a package is a directory, whose files declare
    /// its methods wherever they like (`template.Template.Execute` is in `exec.go`, not in
    /// `template.go`).
    fn placed(&self, path: &Path) -> bool {
        if self.places.is_empty() {
            return true;
        }
        let dirs = path.parent().into_iter().flat_map(Path::components).map(|c| c.as_os_str());
        let stem = path.file_stem().filter(|_| path.extension().is_none_or(|extension| extension != "go"));
        let mut parts = dirs.chain(stem).map(|part| part.to_string_lossy().to_lowercase());
        // In order: each place is found after the one before it.
        self.places.iter().all(|place| parts.any(|part| &part == place))
    }

    /// The members of the qualified pattern's owner whose names start with its name; only those
    /// in files its qualifier's places name (see [`Needle::places`]) when `placed`.
    pub(crate) fn members(pattern: &Qualified<'_>, placed: bool) -> Result<Needle, SearchError> {
        let mut needle = needle(pattern.name)?;
        needle.owner = Some(pattern.owner.to_lowercase());
        needle.outer = pattern.places.iter().map(|place| place.to_lowercase()).collect();
        if placed {
            needle.places = Needle::placed_owner(pattern)?.places;
        }
        Ok(needle)
    }

    /// The definitions of the qualified pattern's owner itself (`Writer` of `zip.Writer.Close`) in
    /// files its qualifier's places name.
    pub(crate) fn placed_owner(pattern: &Qualified<'_>) -> Result<Needle, SearchError> {
        let places = pattern.places.iter().map(|place| place.to_lowercase()).collect();
        Ok(Needle { places, ..Needle::named(pattern.owner)? })
    }

    /// The definitions named `name` exactly, whatever their owner.
    pub(crate) fn named(name: &str) -> Result<Needle, SearchError> {
        Ok(Needle { whole: true, ..needle(name)? })
    }
}

pub(crate) fn needle(pattern: &str) -> Result<Needle, SearchError> {
    let typed = pattern.trim().to_string();
    if typed.is_empty() {
        return Err(SearchError::EmptyQuery { what: "the symbol name is empty; pass a name or its beginning" });
    }
    Ok(Needle { lower: typed.to_lowercase(), typed, whole: false, owner: None, outer: Vec::new(), places: Vec::new() })
}

/// Whether an owner nested in `outer` (the modules and types around it in its file, `::`-joined,
/// as the extractor gives them: `Thor` of `Thor::Util`) may be the one a qualifier names with
/// `places` before it (lowercased): the two agree where both say something, from the owner out.
/// A qualifier may say more (a crate's, gem's or package's name above the file's modules) or
/// less (`Util.snake_case` for `Thor::Util`'s); `Other::Util.snake_case` names another `Util`.
/// A path's `self` says nothing, and its `crate` or `super` restarts it elsewhere, so what is
/// before either is not compared.
fn nested_in(outer: &str, places: &[String]) -> bool {
    let parts: Vec<&str> = outer.split("::").filter(|part| !part.is_empty() && *part != "self").collect();
    let start = parts.iter().rposition(|part| matches!(*part, "crate" | "super")).map_or(0, |at| at + 1);
    let places = places.iter().filter(|place| !matches!(place.as_str(), "crate" | "self" | "super"));
    parts[start..].iter().rev().zip(places.rev()).all(|(part, place)| is_exact(part, place))
}

/// A qualified pattern's parts: `zip.Writer.Close`, `a::b::C::new`.
pub(crate) struct Qualified<'p> {
    /// All before the name, as typed: `zip.Writer`.
    pub(crate) qualifier: &'p str,
    /// The qualifier's last part, the type or module the name is a member of: `Writer`.
    pub(crate) owner: &'p str,
    /// The qualifier's parts before the owner, its package or module path: `zip`.
    pub(crate) places: Vec<&'p str>,
    /// The (beginning of the) member's name: `Close`.
    pub(crate) name: &'p str,
}

/// The parts of a qualified pattern (`Query::fetch`, `Server.Shutdown`, `a::b::C`, Lua's method
/// `M:bar`, Ruby's `Thor::Util.snake_case` and instance method `Thor::Util#snake_case`, PHP's
/// `Ns\Cls::method`: the qualifier is all before the last separator), when it has a qualifier
/// and a name. A `#` right after a `.` begins the name, a JavaScript private one (`Counter.#count`).
pub(crate) fn qualified(pattern: &str) -> Option<Qualified<'_>> {
    let pattern = pattern.trim();
    let (at, _) = pattern.char_indices().rev().find(|&(at, c)| match c {
        '.' | ':' | '\\' => true,
        '#' => at > 0 && !pattern[..at].ends_with('.'),
        _ => false,
    })?;
    let (qualifier, name) = (pattern[..at].trim_end_matches(':'), &pattern[at + 1..]);
    let mut parts: Vec<&str> =
        qualifier.split([':', '.', '#', '\\']).map(str::trim).filter(|p| !p.is_empty()).collect();
    let owner = parts.pop()?;
    (!name.is_empty()).then_some(Qualified { qualifier, owner, places: parts, name })
}

/// `name.to_lowercase().starts_with(needle)` without allocating when the
/// part of `name` that counts is ASCII (nearly always: this runs for every
/// symbol of every candidate file).
fn lowercase_starts_with(name: &str, needle: &str) -> bool {
    match name.get(..needle.len()) {
        Some(head) if head.is_ascii() && needle.is_ascii() => head.eq_ignore_ascii_case(needle),
        _ => name.to_lowercase().starts_with(needle),
    }
}

/// A sort key, smaller for a name closer to what was typed: the same name (in any case), then
/// the pattern's own case, then the shorter name.
fn closeness(name: &str, needle: &Needle) -> (bool, bool, usize) {
    let name = needle.compared(name);
    (!is_exact(name, &needle.lower), !name.starts_with(&needle.typed), name.chars().count())
}

fn is_exact(name: &str, needle: &str) -> bool {
    if name.is_ascii() && needle.is_ascii() {
        return name.eq_ignore_ascii_case(needle);
    }
    name.to_lowercase() == needle
}

pub(crate) fn search_index(
    view: &IndexView,
    root: &Path,
    filter: &PathFilter,
    needle: &Needle,
    max_results: usize,
    config: &SearchConfig,
) -> tantivy::Result<Found> {
    let fields = view.fields;
    let query = RegexQuery::from_pattern(&needle.index_pattern(), fields.symbol_names)?;
    let mut hits = Vec::new();
    for address in view.searcher.search(&query, &DocSetCollector)? {
        let doc: TantivyDocument = view.searcher.doc(address)?;
        let Some(path) = fields.stored_path(&doc).map(PathBuf::from) else { continue };
        // A withheld file's definitions are left out unseen: only its name is counted (see
        // `IndexView::searched`), so no name it defines changes the answer.
        if !filter.admits(&path) || filter.withheld_by(&path).is_some() || !needle.placed(&path) {
            continue;
        }
        let found = fields.stored_symbols(&doc).into_iter().filter(|s| needle.matches(s));
        hits.extend(found.map(|symbol| (path.clone(), symbol)));
    }
    Ok(finish(hits, root, needle, max_results, config, view.searched(filter)?, filter.mask()))
}

/// The same definitions from running the extractor over a scan; stops
/// reading files at `deadline`.
pub(crate) fn search_scan(
    scope: &Scope,
    filter: &PathFilter,
    needle: &Needle,
    max_results: usize,
    config: &SearchConfig,
    stop: &Stop<'_>,
) -> Found {
    let mut hits = Vec::new();
    let stats = scan_files(
        scope,
        filter,
        config,
        stop,
        |rel, bytes| {
            if !needle.placed(rel) {
                return None;
            }
            let text = text_of(bytes);
            // As when indexing: a panicking extractor (a plug-in) costs that file its symbols.
            let extracted = catch_unwind(AssertUnwindSafe(|| (config.extractor)(&scope.root.join(rel), &text)));
            let found: Vec<Symbol> = extracted.unwrap_or_default().into_iter().filter(|s| needle.matches(s)).collect();
            (!found.is_empty()).then_some(found)
        },
        |rel, found| hits.extend(found.into_iter().map(|symbol| (rel.clone(), symbol))),
    );
    finish(hits, &scope.root, needle, max_results, config, stats, filter.mask())
}

/// Orders the closest names first (see the module documentation), then by
/// path, line and name: with `Regist`, `Registry` before the thirty methods
/// named `register`; shows each definition's source line (or `kind name` if
/// the file is unreadable).
fn finish(
    hits: Vec<(PathBuf, Symbol)>,
    root: &Path,
    needle: &Needle,
    max_results: usize,
    config: &SearchConfig,
    stats: ScanStats,
    mask: Option<&Mask>,
) -> Found {
    // How close each name is, once per hit rather than per comparison.
    let mut keyed: Vec<((bool, bool, usize), PathBuf, Symbol)> =
        hits.into_iter().map(|(path, symbol)| (closeness(&symbol.name, needle), path, symbol)).collect();
    keyed.sort_by(|(ka, pa, a), (kb, pb, b)| (ka, pa, a.line, &a.name).cmp(&(kb, pb, b.line, &b.name)));
    let mut hits: Vec<(PathBuf, Symbol)> = keyed.into_iter().map(|(_, path, symbol)| (path, symbol)).collect();
    let total = hits.len() as u64;
    let files_with_matches = hits.iter().map(|(p, _)| p).collect::<HashSet<_>>().len() as u64;
    hits.truncate(max_results);
    // Each file's text as the caller may see it: lines are shown from it (see `Mask`).
    let mut texts: BTreeMap<&PathBuf, Option<Seen>> = BTreeMap::new();
    for (path, _) in &hits {
        texts.entry(path).or_insert_with(|| {
            let (bytes, _) = read_file(root, &root.join(path), config.max_file_bytes).ok()?;
            Some(Seen::of(text_of(&bytes).into_owned(), mask))
        });
    }
    let matches = hits
        .iter()
        .map(|(path, symbol)| {
            let index = (symbol.line as usize).checked_sub(1);
            let seen = texts[path].as_ref();
            let line = seen.zip(index).and_then(|(seen, index)| seen.text().lines().nth(index));
            let Shown { text, secrets } = line.map_or_else(
                || Shown { text: format!("{} {}", symbol.kind, symbol.name), secrets: 0 },
                |line| {
                    // Around the name, so a definition far into a long line is shown.
                    let at = line.find(&symbol.name).map_or(0..0, |at| at..at + symbol.name.len());
                    shown_line(line, u64::from(symbol.line), at, seen.and_then(Seen::masked))
                },
            );
            Match {
                path: display(path),
                line: u64::from(symbol.line),
                text,
                secrets,
                score: None,
                symbol: Some(symbol.clone()),
            }
        })
        .collect::<Vec<_>>();
    Found {
        shown: matches.len() as u64,
        matches,
        total,
        files_with_matches,
        files_searched: stats.files_searched,
        skipped: stats.skipped,
        cut_short: stats.cut_short,
        withheld: stats.withheld,
        note: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closest_names_come_first() {
        let needle = needle(" Regist ").unwrap();
        let mut names = ["register", "RegistrationRecord", "registry", "Registry", "Regist", "REGIST"];
        names.sort_by_key(|name| closeness(name, &needle));
        assert_eq!(names, ["Regist", "REGIST", "Registry", "RegistrationRecord", "register", "registry"]);
    }

    #[test]
    fn a_private_name_is_found_without_its_hash() {
        let symbol = |name: &str| Symbol { name: name.to_string(), kind: "field".to_string(), line: 1, owner: None };
        let plain = needle("count").unwrap();
        assert!(plain.matches(&symbol("#count")) && plain.matches(&symbol("count")));
        assert!(
            needle("#cou").unwrap().matches(&symbol("#count")) && !needle("#cou").unwrap().matches(&symbol("count"))
        );
        let mut names = ["#counter", "countAll", "#count"];
        names.sort_by_key(|name| closeness(name, &plain));
        assert_eq!(names, ["#count", "#counter", "countAll"]);
    }

    /// The name is what follows the last separator of any kind: `Thor::Util.snake_case` was read
    /// as the name `Util.snake_case` of an owner `Thor`, and `#` and `\\` were no separators.
    #[test]
    fn a_qualified_pattern_is_split_at_its_last_separator() {
        fn parts(pattern: &str) -> Option<(&str, Vec<&str>, &str, &str)> {
            qualified(pattern).map(|q| (q.qualifier, q.places, q.owner, q.name))
        }
        let cases = [
            ("Thor::Util.snake_case", Some(("Thor::Util", vec!["Thor"], "Util", "snake_case"))),
            ("Thor::Util#snake_case", Some(("Thor::Util", vec!["Thor"], "Util", "snake_case"))),
            ("a::b::C::new", Some(("a::b::C", vec!["a", "b"], "C", "new"))),
            ("zip.Writer.Close", Some(("zip.Writer", vec!["zip"], "Writer", "Close"))),
            ("M:bar", Some(("M", vec![], "M", "bar"))),
            ("Ns\\Cls::method", Some(("Ns\\Cls", vec!["Ns"], "Cls", "method"))),
            ("\\Ns\\Cls::method", Some(("\\Ns\\Cls", vec!["Ns"], "Cls", "method"))),
            ("Counter.#count", Some(("Counter", vec![], "Counter", "#count"))),
            ("#count", None),
            ("snake_case", None),
            ("Util::", None),
            ("::new", None),
        ];
        for (pattern, expected) in cases {
            assert_eq!(parts(pattern), expected, "{pattern}");
        }
    }

    #[test]
    fn an_owners_nesting_agrees_with_the_qualifier_where_both_say_something() {
        let places = |written: &[&str]| written.iter().map(|p| p.to_lowercase()).collect::<Vec<_>>();
        assert!(nested_in("Thor", &places(&["Thor"])));
        assert!(nested_in("Thor", &places(&[])), "`Util.snake_case` says nothing of Thor");
        assert!(nested_in("Thor", &places(&["gem", "thor"])), "a gem's name above the file's modules");
        assert!(nested_in("", &places(&["anything"])), "nothing known of the owner's nesting");
        assert!(!nested_in("Thor", &places(&["Other"])));
        assert!(!nested_in("a::Thor", &places(&["b", "Thor"])));
        // `crate` and `super` restart a path; `self` says nothing.
        assert!(nested_in("crate::model", &places(&["mylib", "model"])));
        assert!(nested_in("inner::super", &places(&["outer"])));
        assert!(nested_in("model", &places(&["crate", "self", "model"])));
    }

    #[test]
    fn case_folding_matches_the_lowercase_definition() {
        let cases =
            [("ParseConfig", "parse"), ("parse", "parseconfig"), ("Über", "über"), ("\u{212A}ey", "key"), ("ab", "b")];
        for (name, needle) in cases {
            assert_eq!(lowercase_starts_with(name, needle), name.to_lowercase().starts_with(needle), "{name} {needle}");
            assert_eq!(is_exact(name, needle), name.to_lowercase() == needle, "{name} {needle}");
        }
    }
}
