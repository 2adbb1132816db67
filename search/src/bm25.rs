//! Ranked word search. With the index ready tantivy scores content (and, at
//! double weight, symbol names) by bm25, and a file defining a symbol named
//! as a query word earns up to that word's most again (see
//! [`definition_bonus`]); before that the same formula is computed over a
//! scan of the content, so an agent gets a ranked answer either way. Each
//! ranked file shows the lines holding the most query words, a definition
//! counting as one word more (the index stores each file's definitions; a
//! scan runs the extractor over the files it shows).

use std::collections::HashMap;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tantivy::collector::{Collector, DocSetCollector, SegmentCollector};
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocAddress, DocId, Score, SegmentOrdinal, SegmentReader, TantivyDocument, Term};

use crate::config::SearchConfig;
use crate::error::SearchError;
use crate::filter::PathFilter;
use crate::mask::{Mask, Masked, Seen, searchable};
use crate::model::{Found, Match};
use crate::paths::{Scope, display};
use crate::project::IndexView;
use crate::render::{Shown, count, shown_line};
use crate::schema::PathColumn;
use crate::tokenizer::{for_each_token, query_terms, query_words};
use crate::walk::{Stop, read_file, scan_files, text_of};

/// Definitions weigh more than mentions.
const SYMBOL_BOOST: Score = 2.0;

/// What a scanned answer says of its order: the scan counts words only (finding each file's
/// definitions would parse it), so the index, which also weighs [`SYMBOL_BOOST`], can order the
/// same files differently.
pub(crate) const SCAN_RANKING: &str =
    "ranked by word counts alone (the index also weighs the files that define the words)";
/// Lines shown per ranked file.
const LINES_PER_FILE: usize = 3;
/// bm25 parameters, tantivy's defaults.
const K1: f32 = 1.2;
const B: f32 = 0.75;
/// The terms a query ranks by at most (line scoring uses a 64-bit set, and a scan looks each
/// token up among them); the words past it are left out, and the note says so.
const MAX_TERMS: usize = 64;

/// A query's words as typed, each with its terms (the word whole and its parts) and the parts
/// that must all occur somewhere for the word to count.
pub(crate) struct QueryWords {
    words: Vec<Word>,
    /// The words past [`MAX_TERMS`], left out before anything is searched.
    over_cap: Vec<String>,
    /// A first word of more terms than [`MAX_TERMS`], which ranks by its first ones only.
    cut: Option<CutWord>,
}

/// A first word cut to [`MAX_TERMS`] terms: as typed, with the parts it lost.
struct CutWord {
    typed: String,
    kept: usize,
    left_out: Vec<String>,
}

struct Word {
    typed: String,
    terms: Vec<String>,
    parts: Vec<String>,
}

pub(crate) fn query(pattern: &str) -> Result<QueryWords, SearchError> {
    let all: Vec<Word> = query_words(pattern)
        .into_iter()
        .map(|(typed, parts)| Word { terms: query_terms(&typed), typed, parts })
        .collect();
    if all.iter().all(|w| w.terms.is_empty()) {
        return Err(SearchError::EmptyQuery {
            what: "the query has no words to rank by; pass identifiers or words, or use the regex action",
        });
    }
    let mut query = QueryWords { words: Vec::new(), over_cap: Vec::new(), cut: None };
    let mut terms: Vec<String> = Vec::new();
    for word in all {
        let new: Vec<String> = word.terms.iter().filter(|t| !terms.contains(t)).cloned().collect();
        // Whole words only, in order: a word cut to its first parts would be reported absent.
        // But a first word of more parts than the cap ranks by, and is looked for by, its first
        // ones rather than find nothing.
        if query.over_cap.is_empty() && terms.len() + new.len() <= MAX_TERMS {
            terms.extend(new);
            query.words.push(word);
        } else if query.words.is_empty() {
            let mut word = word;
            word.terms.truncate(MAX_TERMS);
            let terms_kept = &word.terms;
            let (kept, left_out) = word.parts.into_iter().partition(|part| terms_kept.contains(part));
            word.parts = kept;
            query.cut = Some(CutWord { typed: word.typed.clone(), kept: word.parts.len(), left_out });
            terms.extend(word.terms.iter().cloned());
            query.words.push(word);
        } else {
            query.over_cap.push(word.typed);
        }
    }
    Ok(query)
}

impl QueryWords {
    /// Every distinct term of the query, in first-seen order.
    fn terms(&self) -> Vec<String> {
        let mut terms: Vec<String> = Vec::new();
        for term in self.words.iter().flat_map(|w| &w.terms) {
            if !terms.contains(term) {
                terms.push(term.clone());
            }
        }
        terms
    }

    /// The terms to rank by, given which terms a file the caller may see holds. A word with a part
    /// no such file holds is left out: `zzqx42`, which no file searched contains, would otherwise
    /// rank every file holding `42`.
    fn present(&self, held: impl Fn(&str) -> bool) -> Ranking<'_> {
        let (kept, missing): (Vec<&Word>, Vec<&Word>) =
            self.words.iter().partition(|w| w.parts.iter().all(|part| held(part)));
        let mut terms: Vec<String> = Vec::new();
        for term in kept.iter().flat_map(|w| &w.terms) {
            if !terms.contains(term) {
                terms.push(term.clone());
            }
        }
        let absent = missing
            .iter()
            .map(|w| {
                let absent: Vec<String> = w.parts.iter().filter(|p| !held(p)).map(|p| format!("`{p}`")).collect();
                match w.parts.len() == 1 {
                    true => format!("`{}`", w.typed),
                    false => format!("{} (of `{}`)", absent.join(", "), w.typed),
                }
            })
            .collect();
        let mut defined: Vec<String> = kept.iter().map(|w| w.typed.clone()).collect();
        defined.sort_unstable();
        defined.dedup();
        Ranking { terms, defined, absent, over_cap: &self.over_cap, cut: self.cut.as_ref() }
    }
}

/// What a query ranks by, and what it leaves out.
struct Ranking<'q> {
    terms: Vec<String>,
    /// The kept words whole, as typed: a symbol named so defines one.
    defined: Vec<String>,
    /// The words no visible file holds, each with its absent parts (`` `zzqx` (of `zzqx42`) ``).
    absent: Vec<String>,
    over_cap: &'q [String],
    cut: Option<&'q CutWord>,
}

impl Ranking<'_> {
    /// The note on the words left out. Withheld files are not searched, so what they hold
    /// changes nothing here.
    fn note(&self) -> Option<String> {
        let mut notes = Vec::new();
        if !self.absent.is_empty() {
            let described: Vec<String> = self.absent.iter().map(|a| format!("no file searched contains {a}")).collect();
            notes.push(match self.terms.is_empty() {
                true => described.join("; "),
                false => format!("{}, so it is left out of the ranking", described.join("; ")),
            });
        }
        if let Some(cut) = self.cut {
            notes.push(format!(
                "bm25 ranks by at most {MAX_TERMS} terms, so `{}` counts by its first {} only; its last {} (from \
                 `{}` on) {} left out",
                shortened(&cut.typed),
                count(cut.kept as u64, "part"),
                count(cut.left_out.len() as u64, "part"),
                cut.left_out.first().map_or("", String::as_str),
                if cut.left_out.len() == 1 { "is" } else { "are" },
            ));
        }
        if let Some(first) = self.over_cap.first() {
            notes.push(format!(
                "bm25 ranks by at most {MAX_TERMS} terms, so the query's last {} (from `{}` on) {} left out",
                count(self.over_cap.len() as u64, "word"),
                shortened(first),
                if self.over_cap.len() == 1 { "is" } else { "are" },
            ));
        }
        (!notes.is_empty()).then(|| notes.join("; "))
    }
}

/// A query word as a note quotes it: a generated identifier can be hundreds of characters long.
fn shortened(word: &str) -> String {
    match word.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &word[..cut]),
        None => word.to_owned(),
    }
}

pub(crate) fn search_index(
    view: &IndexView,
    root: &Path,
    filter: &Arc<PathFilter>,
    query: &QueryWords,
    max_results: usize,
    config: &SearchConfig,
) -> tantivy::Result<Found> {
    let fields = view.fields;
    let mut held = std::collections::HashSet::new();
    for term in query.terms() {
        if view.visible_holds(filter, &term)? {
            held.insert(term);
        }
    }
    let ranking = query.present(|term| held.contains(term));
    let terms = &ranking.terms[..];
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    let mut clause = |field, term: &str, boost| {
        let query = TermQuery::new(Term::from_field_text(field, term), IndexRecordOption::WithFreqs);
        clauses.push((Occur::Should, Box::new(BoostQuery::new(Box::new(query), boost))));
    };
    for term in terms {
        clause(fields.content, term, 1.0);
        clause(fields.symbol_words, term, SYMBOL_BOOST);
    }
    let collector = ScoredDocs { filter: (!filter.admits_everything()).then(|| filter.clone()) };
    let hits = view.searcher.search(&BooleanQuery::new(clauses), &collector)?;
    let defined = definition_bonus(view, &ranking.defined)?;
    // A query of one word is a name looked for: the files defining it come first, the name as
    // typed at a file's top level before a member or another case (a test's `def group()`, short
    // and full of the word, outscored the 300-line module of `class Group` on words alone).
    let one_word = ranking.defined.len() == 1;
    let mut hits: Vec<(Score, Score, DocAddress)> = hits
        .into_iter()
        .map(|(score, address)| {
            let found = defined.get(&address).copied().unwrap_or_default();
            (if one_word { found.weight } else { 0.0 }, score + found.bonus, address)
        })
        .collect();
    let note = ranking.note();
    hits.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1)));
    let total = hits.len() as u64;
    // Keep everything tied with the last shown score so the path tie-break is exact.
    let boundary = hits.get(max_results.saturating_sub(1)).map(|h| (h.0, h.1));
    let kept = hits.iter().enumerate().take_while(|(i, h)| *i < max_results || Some((h.0, h.1)) == boundary);
    let mut ranked = Vec::new();
    for (_, (tier, score, address)) in kept {
        let doc: TantivyDocument = view.searcher.doc(*address)?;
        if let Some(path) = fields.stored_path(&doc) {
            let definitions = fields.stored_symbols(&doc).iter().map(|s| u64::from(s.line)).collect();
            let rel = PathBuf::from(path);
            ranked.push(Ranked { tier: *tier, score: *score, rel, definitions: Some(definitions) });
        }
    }
    let (matches, shown) = finish(ranked, root, terms, max_results, config, filter.mask());
    let searched = view.searched(filter)?;
    Ok(Found {
        matches,
        total,
        shown,
        files_with_matches: total,
        files_searched: searched.files_searched,
        skipped: searched.skipped,
        cut_short: false,
        withheld: searched.withheld,
        note,
    })
}

/// What each file defining a symbol named as one of `words` adds to its score: per word, the
/// most bm25 gives one term, `idf × (k1 + 1)`, with the idf of the files defining that name,
/// shared among the query's words, and weighed by how the file defines it: whole for the name
/// as typed at the file's top level (`class Request` for `Request`), half for another case
/// (`def request`) or a member (a property, a field, a nested helper), a quarter for both. The
/// symbol-words field alone favoured a file by how often the word is part of its names, so
/// `test_request_*` functions outranked `class Request`, and a module of many definitions was
/// held back by its length. A name few files define (a type) earns much; one every file defines
/// (`__init__`, `new`) nearly nothing.
fn definition_bonus(view: &IndexView, words: &[String]) -> tantivy::Result<HashMap<DocAddress, Defines>> {
    let files = view.searcher.num_docs() as f32;
    let share = 1.0 / words.len().max(1) as f32;
    let mut bonus: HashMap<DocAddress, Defines> = HashMap::new();
    for word in words {
        let lower = word.to_lowercase();
        let term = Term::from_field_text(view.fields.symbol_names, &lower);
        let defining = view.searcher.search(&TermQuery::new(term, IndexRecordOption::Basic), &DocSetCollector)?;
        let df = defining.len() as f32;
        let idf = (1.0 + (files - df + 0.5) / (df + 0.5)).ln();
        // Past this many files the name is common and its bonus small: not worth reading each
        // file's stored symbols to weigh it.
        let weigh = defining.len() <= MAX_WEIGHED;
        for address in defining {
            let weight = match weigh {
                true => {
                    let doc: TantivyDocument = view.searcher.doc(address)?;
                    let symbols = view.fields.stored_symbols(&doc);
                    let how = |s: &crate::symbols::Symbol| {
                        let case: Score = if s.name == *word { 1.0 } else { 0.5 };
                        let placed: Score = if s.owner.is_none() { 1.0 } else { 0.5 };
                        case * placed
                    };
                    symbols.iter().filter(|s| s.name.to_lowercase() == lower).map(how).fold(0.0, Score::max)
                }
                false => 0.25,
            };
            let defines = bonus.entry(address).or_default();
            defines.bonus += idf * (K1 + 1.0) * share * weight;
            defines.weight = defines.weight.max(weight);
        }
    }
    Ok(bonus)
}

/// How a file defines the query's words (see [`definition_bonus`]).
#[derive(Clone, Copy, Default)]
struct Defines {
    /// Added to its score.
    bonus: Score,
    /// The best weight of a definition of a word: 1 for the name as typed at the top level.
    weight: Score,
}

/// The files defining a name whose definitions [`definition_bonus`] weighs one by one.
const MAX_WEIGHED: usize = 64;

/// The same ranking over a scan; stops reading files at `deadline` (the
/// ranking then covers the files read).
pub(crate) fn search_scan(
    scope: &Scope,
    filter: &PathFilter,
    query: &QueryWords,
    max_results: usize,
    config: &SearchConfig,
    stop: &Stop<'_>,
) -> Found {
    let terms = &query.terms()[..];
    let total_tokens = AtomicU64::new(0);
    let mut docs: Vec<(PathBuf, Vec<u32>, u64)> = Vec::new();
    let stats = scan_files(
        scope,
        filter,
        config,
        stop,
        |_, bytes| {
            let mut freqs = vec![0u32; terms.len()];
            let mut length = 0u64;
            // Ranked by the words the index holds: secrets left out (see `searchable`).
            let mask = filter.mask().or(config.index_mask.as_ref());
            for_each_token(&searchable(&text_of(bytes), mask), |_, _, token| {
                length += 1;
                if let Some(i) = terms.iter().position(|t| *t == token) {
                    freqs[i] += 1;
                }
            });
            total_tokens.fetch_add(length, Ordering::Relaxed);
            freqs.iter().any(|&f| f > 0).then_some((freqs, length))
        },
        |rel, (freqs, length)| docs.push((rel, freqs, length)),
    );
    let n = stats.files_searched.max(1) as f32;
    let average_length = (total_tokens.load(Ordering::Relaxed) as f32 / n).max(1.0);
    let df: Vec<usize> = (0..terms.len()).map(|i| docs.iter().filter(|(_, freqs, _)| freqs[i] > 0).count()).collect();
    let ranking = query.present(|term| terms.iter().position(|t| t == term).is_some_and(|i| df[i] > 0));
    let (kept, note) = (&ranking.terms, ranking.note());
    // (index into `terms`, idf) of the terms ranked by.
    let idf: Vec<(usize, f32)> = (0..terms.len())
        .filter(|&i| kept.contains(&terms[i]))
        .map(|i| (i, (1.0 + (n - df[i] as f32 + 0.5) / (df[i] as f32 + 0.5)).ln()))
        .collect();
    let ranked: Vec<Ranked> = docs
        .into_iter()
        .filter(|(_, freqs, _)| idf.iter().any(|&(i, _)| freqs[i] > 0))
        .map(|(rel, freqs, length)| {
            let norm = K1 * (1.0 - B + B * length as f32 / average_length);
            let score = idf.iter().map(|&(i, idf)| idf * freqs[i] as f32 * (K1 + 1.0) / (freqs[i] as f32 + norm)).sum();
            Ranked { tier: 0.0, score, rel, definitions: None }
        })
        .collect();
    let total = ranked.len() as u64;
    let (matches, shown) = finish(ranked, &scope.root, kept, max_results, config, filter.mask());
    Found {
        matches,
        total,
        shown,
        files_with_matches: total,
        files_searched: stats.files_searched,
        skipped: stats.skipped,
        cut_short: stats.cut_short,
        withheld: stats.withheld,
        note,
    }
}

/// A file that matched, with its score.
struct Ranked {
    /// Ordered on before the score: how a one-word query's name is defined in it (see
    /// `search_index`); 0 otherwise.
    tier: f32,
    score: f32,
    rel: PathBuf,
    /// The lines its definitions start on, when the index stored them.
    definitions: Option<Vec<u64>>,
}

/// Orders by tier, score, then path, cuts to `max_results` and reads the best
/// lines of each file; returns the matches and the number of files shown.
fn finish(
    mut ranked: Vec<Ranked>,
    root: &Path,
    terms: &[String],
    max_results: usize,
    config: &SearchConfig,
    mask: Option<&Mask>,
) -> (Vec<Match>, u64) {
    ranked.sort_by(|a, b| b.tier.total_cmp(&a.tier).then(b.score.total_cmp(&a.score)).then_with(|| a.rel.cmp(&b.rel)));
    ranked.truncate(max_results);
    let shown = ranked.len() as u64;
    let picker = LinePicker::new(terms);
    let mut matches = Vec::new();
    for Ranked { score, rel, definitions, .. } in ranked {
        let path = display(&rel);
        let absolute = root.join(&rel);
        let lines = read_file(root, &absolute, config.max_file_bytes)
            .map(|(bytes, _)| {
                let text = text_of(&bytes);
                let mut definitions = definitions.unwrap_or_else(|| {
                    // As when indexing: a panicking extractor (a plug-in) costs the file its definitions.
                    let extracted = catch_unwind(AssertUnwindSafe(|| (config.extractor)(&absolute, &text)));
                    extracted.unwrap_or_default().iter().map(|s| u64::from(s.line)).collect()
                });
                definitions.sort_unstable();
                // Lines are shown from the text as the caller may see it (see `Mask`).
                let seen = Seen::of(text.into_owned(), mask);
                picker.best_lines(seen.text(), &definitions, seen.masked())
            })
            .unwrap_or_default();
        if lines.is_empty() {
            // The index ranked what the file held when it was read; the watcher has not caught up.
            let text = match absolute.exists() {
                true => "(no line with the query words now; the file changed)",
                false => "(deleted since it was indexed)",
            };
            matches.push(Match { path, line: 0, text: text.into(), secrets: 0, score: Some(score), symbol: None });
            continue;
        }
        for (line, Shown { text, secrets }) in lines {
            matches.push(Match { path: path.clone(), line, text, secrets, score: Some(score), symbol: None });
        }
    }
    (matches, shown)
}

/// Picks the lines of a ranked file to show.
struct LinePicker<'t> {
    terms: &'t [String],
    /// One substring finder per term when every term is ASCII: a line can
    /// only hold a term's token if its ASCII-lowercased text contains the
    /// term, so only those lines are tokenized (tokenizing whole files was
    /// 95 % of a bm25 query). `None` for non-ASCII terms: every line is
    /// tokenized. The one gap: a non-ASCII letter that Unicode lowercases to
    /// ASCII (the Kelvin sign `K` → `k`) is not seen by the prefilter, so
    /// such a line is not offered as a snippet; ranking is unaffected.
    finders: Option<Vec<memchr::memmem::Finder<'t>>>,
}

impl<'t> LinePicker<'t> {
    fn new(terms: &'t [String]) -> Self {
        let ascii = terms.iter().all(|t| t.is_ascii());
        let finders = ascii.then(|| terms.iter().map(|t| memchr::memmem::Finder::new(t.as_bytes())).collect());
        LinePicker { terms, finders }
    }

    /// The [`LINES_PER_FILE`] lines holding the most distinct query words, a
    /// line that starts a definition (`definitions`: sorted line numbers)
    /// counting one more, in line order.
    /// `masked`: `text` is a file's text with its secrets masked, whose markers are counted.
    fn best_lines(&self, text: &str, definitions: &[u64], masked: Option<&Masked>) -> Vec<(u64, Shown)> {
        let best_possible = self.terms.len() as u32 + 1;
        let lowered = self.finders.as_ref().map(|_| text.to_ascii_lowercase());
        // (score, defines, line number, text, where the query's foremost term on the line is)
        let mut scored: Vec<(u32, bool, u64, &str, Range<usize>)> = Vec::new();
        let mut complete = 0;
        let mut offset = 0;
        for (index, raw) in text.split_inclusive('\n').enumerate() {
            let range = offset..offset + raw.len();
            offset = range.end;
            if let (Some(finders), Some(lowered)) = (&self.finders, &lowered)
                && !finders.iter().any(|f| f.find(&lowered.as_bytes()[range.clone()]).is_some())
            {
                continue;
            }
            let line = raw.strip_suffix('\n').map_or(raw, |l| l.strip_suffix('\r').unwrap_or(l));
            let mut present = 0u64;
            // The query's terms come whole words first, then their parts: a long line is shown
            // around `qa5needle` rather than around the first `5`.
            let mut foremost: Option<(usize, Range<usize>)> = None;
            for_each_token(line, |start, end, token| {
                if let Some(i) = self.terms.iter().position(|t| *t == token) {
                    present |= 1 << i;
                    if foremost.as_ref().is_none_or(|(best, _)| i < *best) {
                        foremost = Some((i, start..end));
                    }
                }
            });
            if present != 0 {
                let number = index as u64 + 1;
                let defines = definitions.binary_search(&number).is_ok();
                let score = present.count_ones() + u32::from(defines);
                scored.push((score, defines, number, line, foremost.map_or(0..0, |(_, at)| at)));
                // Lines of the best possible score cannot be beaten by later
                // ones (ties go to the earlier line): enough of them end the
                // scan. Without a definition left below, a line holding every
                // term is the best possible.
                let unbeatable = score == best_possible
                    || (score + 1 == best_possible && definitions.last().is_none_or(|&last| last <= number));
                complete += usize::from(unbeatable);
                if complete == LINES_PER_FILE {
                    break;
                }
            }
        }
        // Equal scores: definitions first, then the earlier line.
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
        scored.truncate(LINES_PER_FILE);
        scored.sort_by_key(|s| s.2);
        scored.into_iter().map(|(_, _, line, text, at)| (line, shown_line(text, line, at, masked))).collect()
    }
}

/// Every matching document with its score, minus those whose path the
/// filter rejects or whose results it withholds (counted by name, apart: see
/// `IndexView::searched`); paths are read from the `path` fast field, no
/// stored-doc access.
struct ScoredDocs {
    filter: Option<Arc<PathFilter>>,
}

struct SegmentScored {
    segment: SegmentOrdinal,
    paths: Option<(PathColumn, Arc<PathFilter>)>,
    hits: Vec<(Score, DocAddress)>,
}

impl Collector for ScoredDocs {
    type Fruit = Vec<(Score, DocAddress)>;
    type Child = SegmentScored;

    fn for_segment(&self, segment: SegmentOrdinal, reader: &SegmentReader) -> tantivy::Result<SegmentScored> {
        let paths = match &self.filter {
            Some(filter) => Some((PathColumn::of(reader)?, filter.clone())),
            None => None,
        };
        Ok(SegmentScored { segment, paths, hits: Vec::new() })
    }

    fn requires_scoring(&self) -> bool {
        true
    }

    fn merge_fruits(&self, fruits: Vec<Self::Fruit>) -> tantivy::Result<Self::Fruit> {
        Ok(fruits.into_iter().flatten().collect())
    }
}

impl SegmentCollector for SegmentScored {
    type Fruit = Vec<(Score, DocAddress)>;

    fn collect(&mut self, doc: DocId, score: Score) {
        if let Some((paths, filter)) = &mut self.paths {
            let shown = paths.path(doc).is_some_and(|path| filter.admits(path) && filter.withheld_by(path).is_none());
            if !shown {
                return;
            }
        }
        self.hits.push((score, DocAddress::new(self.segment, doc)));
    }

    fn harvest(self) -> Self::Fruit {
        self.hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ranked_file_gone_or_changed_since_it_was_indexed_says_which() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("changed.rs"), "fn other() {}\n").unwrap();
        let config = SearchConfig::new("/nonexistent");
        let ranked = ["changed.rs", "gone.rs"]
            .map(|rel| Ranked { tier: 0.0, score: 1.0, rel: PathBuf::from(rel), definitions: None })
            .into();
        let terms = query_terms("load config");
        let (matches, _) = finish(ranked, dir.path(), &terms, 10, &config, None);
        let said: Vec<(&str, u64, &str)> = matches.iter().map(|m| (m.path.as_str(), m.line, m.text.as_str())).collect();
        assert_eq!(
            said,
            [
                ("changed.rs", 0, "(no line with the query words now; the file changed)"),
                ("gone.rs", 0, "(deleted since it was indexed)")
            ]
        );
    }

    #[test]
    fn best_lines_prefer_lines_with_more_query_words() {
        let text = "parse\nnothing\nparse config here\r\nconfig\nparseConfig()";
        let terms = query_terms("parse config");
        let best: Vec<(u64, String)> =
            LinePicker::new(&terms).best_lines(text, &[], None).into_iter().map(|(l, s)| (l, s.text)).collect();
        assert_eq!(best, [(1, "parse".into()), (3, "parse config here".into()), (5, "parseConfig()".into())]);
    }

    #[test]
    fn the_ascii_prefilter_picks_the_same_lines_as_tokenizing_everything() {
        let text = "PARSE_CONFIG = 1\nreparse configs\nfn parse() {}\n// Config: parse it\nnone\nConfigParser\n";
        let text = format!("{text}Ünïcode parse config\nparse_config(a)\nconfig.parse()\nlast parse config line\n");
        for query in ["parse config", "config", "parser", "é parse", "it", "ünïcode"] {
            let terms = query_terms(query);
            let filtered = LinePicker::new(&terms);
            let every_line = LinePicker { terms: &terms, finders: None };
            for definitions in [&[][..], &[3, 9]] {
                assert_eq!(
                    filtered.best_lines(&text, definitions, None),
                    every_line.best_lines(&text, definitions, None),
                    "{query}"
                );
            }
        }
    }

    #[test]
    fn with_many_complete_lines_the_earliest_three_are_shown() {
        let text = "config\nparse config\nnoise\nparseConfig\nparse_config\nparse config again\n";
        let terms = query_terms("parse config");
        let lines: Vec<u64> = LinePicker::new(&terms).best_lines(text, &[], None).into_iter().map(|(l, _)| l).collect();
        assert_eq!(lines, [2, 4, 5], "the first three complete lines (the scan stops there), not the later one");
    }

    #[test]
    fn a_definition_counts_one_word_more() {
        let text =
            "use parse;\nlet parsed = parse(config);\nx.parse(config)\nparse config again\nfn parse(text: &str) {}\n";
        let terms = query_terms("parse config");
        let lines = |definitions: &[u64]| -> Vec<u64> {
            LinePicker::new(&terms).best_lines(text, definitions, None).into_iter().map(|(l, _)| l).collect()
        };
        assert_eq!(lines(&[]), [2, 3, 4], "without definitions, the first lines with both words");
        assert_eq!(lines(&[5]), [2, 3, 5], "the definition ties the lines with both words and goes first");
        assert_eq!(lines(&[1]), [1, 2, 3], "a definition holding one word ties; the rest by line");
    }

    #[test]
    fn a_definition_further_down_is_not_cut_off_by_complete_lines_above() {
        let text = "parse config\nparse config\nparse config\nparse config\nfn parse_config() {}\n";
        let terms = query_terms("parse config");
        let lines: Vec<u64> =
            LinePicker::new(&terms).best_lines(text, &[5], None).into_iter().map(|(l, _)| l).collect();
        assert_eq!(lines, [1, 2, 5]);
    }
}
