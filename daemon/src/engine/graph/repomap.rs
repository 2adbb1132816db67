//! ctx_repomap: the project's most central definitions (PageRank over the code graph's
//! references, personalised by the files the session touched), as an outline that fits a token
//! budget.
//!
//! The ranking is computed under one read of the graph; the chosen files are then read and
//! outlined again (no lock held) so each definition is shown as `read -m signatures` shows it,
//! inside its type or impl. The answer is the largest prefix of the ranking whose whole text —
//! header, file blocks, notes and the closing line — counts at most `max_tokens` o200k tokens.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::Path;

use lean_ctx_common::limits::{DEFAULT_MAP_TOKENS, MAX_MAP_TOKENS, MIN_MAP_TOKENS, map_tokens_out_of_range};
use lean_ctx_common::plural::count;
use lean_ctx_graph::{DefSummary, Interrupt, declared_stem};
use lean_ctx_outline::{Definition, Language, Outline, UnlistedKeys, outline, render_signatures};
use lean_ctx_search::Withheld;

use super::subject::withholds;
use crate::engine::cancel::Cancel;
use crate::engine::config::Config;
use crate::engine::error::{EngineError, EngineResult};
use crate::engine::guard::permissions::Rules;
use crate::engine::project::Scope;
use crate::engine::search::{Shows, read_rule};
use crate::engine::surface::Surface;
use crate::engine::tokens::count_uncached;
use crate::engine::{Caller, Engine};

/// Files the header names when it says which files personalised the map.
const NAMED_TOUCHED: usize = 3;
/// Definitions the first probe of the budget search shows; each further probe doubles it.
const FIRST_PROBE: usize = 8;

#[derive(Debug, Clone)]
pub struct RepomapParams {
    /// `None`: [`DEFAULT_MAP_TOKENS`]; outside [`MIN_MAP_TOKENS`]..=[`MAX_MAP_TOKENS`] it is refused.
    pub max_tokens: Option<u32>,
    /// Only definitions in this directory or file (relative to cwd); empty: the whole project.
    pub path: String,
    pub surface: Surface,
    /// Flipped when the caller leaves: the ranking stops.
    pub cancel: Cancel,
}

/// One definition of the map.
#[derive(Debug, Clone)]
pub struct MapDef {
    pub def: DefSummary,
    pub rank: f64,
}

/// One file of the map: its definitions in rank order and the outline lines shown for them.
#[derive(Debug, Clone)]
pub struct MapFile {
    pub path: String,
    /// The best rank of its definitions.
    pub rank: f64,
    pub defs: Vec<MapDef>,
    pub outline: String,
    /// Its declaration twins (see [`fold_twins`]), in path order.
    pub twins: Vec<String>,
}

#[derive(Debug, Default)]
pub struct RepomapAnswer {
    /// The whole answer as shown; `tokens` counts it.
    pub text: String,
    pub tokens: u32,
    /// The budget applied.
    pub max_tokens: u32,
    pub files: Vec<MapFile>,
    /// Definitions ranked (in `path`, readable).
    pub total_definitions: u64,
    pub omitted_definitions: u64,
    /// Files with definitions none of which is shown.
    pub omitted_files: u64,
    /// The touched files the ranking was personalised by.
    pub personalised_by: Vec<String>,
    /// Why the ranking is not personalised, when it is not.
    pub unpersonalised: Option<String>,
    /// References the ranking followed, by resolution.
    pub exact: u64,
    pub likely: u64,
    pub ambiguous: u64,
    /// False while the graph is being built: the map covers the files parsed so far.
    pub complete: bool,
    pub note: Option<String>,
}

/// A ranked definition, copied out of the graph.
struct Candidate {
    def: DefSummary,
    /// The name as the outline has it (`def.name` is `Type::name` for a member).
    bare: String,
    rank: f64,
}

impl Engine {
    pub fn repomap(&self, caller: &Caller<'_>, p: &RepomapParams) -> EngineResult<RepomapAnswer> {
        let max_tokens = budget(p.max_tokens, p.surface)?;
        let config = self.config.get();
        let scope = self.scope(caller, &config)?;
        let root = scope.root.clone();
        let within = match p.path.trim() {
            "" => String::new(),
            path => within(&scope, &root, path)?,
        };
        let (touched, unpersonalised) = self.touched_files(caller, &root);
        let project = self.project_graph(&root)?;
        let gone = || p.cancel.is_cancelled();
        let interrupt = Interrupt::new(&gone);
        // What a file the Read rules withhold calls must not move the ranking (QA: four calls in
        // a denied file swapped two definitions' ranks).
        let rules = self.permission_rules(&scope, &config);
        let withheld = |file: &str| read_rule(&rules.permissions, &root.join(file), Shows::Content).is_some();
        let ranked = project.read(|view| {
            let ranking = view.graph.rank(&touched, &withheld, interrupt)?;
            let candidates: Vec<Candidate> = ranking
                .defs
                .iter()
                .filter(|r| in_scope(&r.id.file, &within))
                .filter_map(|r| {
                    let def = view.graph.def(&r.id)?;
                    Some(Candidate { def: view.graph.summary(&r.id)?, bare: def.name.clone(), rank: r.score })
                })
                .collect();
            Ok((ranking, candidates, view.phase == super::Phase::Ready, view.notice()))
        });
        let (ranking, candidates, complete, notice) = self.stopped.count_if_cancelled(ranked)?;
        let mut answer = RepomapAnswer {
            max_tokens,
            exact: ranking.exact,
            likely: ranking.likely,
            ambiguous: ranking.ambiguous,
            complete,
            ..Default::default()
        };
        answer.unpersonalised = match (ranking.personal.is_empty(), unpersonalised) {
            (false, _) => None,
            (true, Some(why)) => Some(why),
            (true, None) => Some(match touched.len() {
                1 => "the file this session touched is no source file the graph covers".to_string(),
                n => format!("none of the {n} files this session touched is a source file the graph covers"),
            }),
        };
        answer.personalised_by = ranking.personal;
        let (candidates, withheld) = Self::readable(&rules, &root, candidates);
        let (candidates, twins) = fold_twins(candidates);
        let notes: Vec<String> = [notice, withheld].into_iter().flatten().collect();
        answer.note = (!notes.is_empty()).then(|| notes.join("\n"));
        answer.total_definitions = candidates.len() as u64;
        let place = if within.is_empty() { String::new() } else { format!(" of {within}") };
        let mut map = Map::new(&root, &candidates, &twins, &config, self);
        let words = Words { answer: &answer, place: &place, notes: &notes, surface: p.surface };
        let (shown, text) = map.fit(&words, max_tokens as usize);
        answer.tokens = count_uncached(&text) as u32;
        answer.text = text;
        answer.files = map.files(shown);
        let shown_files = answer.files.len();
        let all_files = candidates.iter().map(|c| c.def.file.as_str()).collect::<BTreeSet<_>>().len();
        answer.omitted_definitions = (candidates.len() - shown) as u64;
        answer.omitted_files = (all_files - shown_files) as u64;
        Ok(answer)
    }

    /// The files the caller's session read or edited in this project, or why there are none.
    fn touched_files(&self, caller: &Caller<'_>, root: &Path) -> (BTreeSet<String>, Option<String>) {
        if caller.session.is_empty() {
            return (BTreeSet::new(), Some("no session".into()));
        }
        let project = root.display().to_string();
        let key = lean_ctx_store::SessionKey { project: &project, id: caller.session };
        let session = match self.memory.with(|store| store.session(key)) {
            Ok(session) => session,
            Err(e) => return (BTreeSet::new(), Some(format!("the session could not be read: {}", e.message))),
        };
        let Some(session) = session else {
            return (BTreeSet::new(), Some("this session touched no file of the project yet".into()));
        };
        let files = session.files.into_iter().map(|f| f.path).chain(session.edits.into_iter().map(|e| e.path));
        let touched: BTreeSet<String> = files.map(|path| path.replace('\\', "/")).collect();
        let why = touched.is_empty().then(|| "this session touched no file of the project yet".to_string());
        (touched, why)
    }

    /// The candidates in files the user's Read rules allow, and a note on those withheld.
    fn readable(rules: &Rules, root: &Path, candidates: Vec<Candidate>) -> (Vec<Candidate>, Option<String>) {
        let mut withheld = Withheld::default();
        // Each file checked once, so each withheld file is counted once.
        let mut denied: HashMap<String, bool> = HashMap::new();
        let mut kept = Vec::with_capacity(candidates.len());
        for candidate in candidates {
            let file = &candidate.def.file;
            let withheld_file =
                *denied.entry(file.clone()).or_insert_with(|| withholds(&mut withheld, rules, root, file));
            if !withheld_file {
                kept.push(candidate);
            }
        }
        (kept, withheld.note("file"))
    }
}

/// The budget to apply: the one asked for, or the default.
fn budget(asked: Option<u32>, surface: Surface) -> EngineResult<u32> {
    match asked {
        None => Ok(DEFAULT_MAP_TOKENS),
        Some(n) if (MIN_MAP_TOKENS..=MAX_MAP_TOKENS).contains(&n) => Ok(n),
        Some(n) => Err(EngineError::invalid(map_tokens_out_of_range(surface.max_tokens(), n))),
    }
}

/// `path` as the graph names it: a directory or file inside the project (empty for the root).
fn within(scope: &Scope, root: &Path, path: &str) -> EngineResult<String> {
    let resolved = scope.resolve_existing(path)?;
    let rel = resolved.strip_prefix(root).map_err(|_| {
        EngineError::denied(format!(
            "{path} is outside the project {}: the map covers the project's own files",
            root.display()
        ))
    })?;
    Ok(rel.to_string_lossy().replace('\\', "/"))
}

fn in_scope(file: &str, within: &str) -> bool {
    within.is_empty() || file.strip_prefix(within).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// A package's declaration files of one module for different module systems (`index.d.ts`,
/// `index.d.cts`, `index.d.mts`) declare the same names, each ranked as high as the other: the
/// twin ranked first stands for them all (its block names the others), so their copies do not
/// crowd the project's code out of the map. Returns the candidates left, and each standing
/// file's twins.
fn fold_twins(candidates: Vec<Candidate>) -> (Vec<Candidate>, BTreeMap<String, Vec<String>>) {
    let mut standing: HashMap<String, String> = HashMap::new();
    let mut twins: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let kept = candidates
        .into_iter()
        .filter(|c| {
            let Some(stem) = declared_stem(&c.def.file) else { return true };
            let first = standing.entry(stem.to_string()).or_insert_with(|| c.def.file.clone());
            if *first == c.def.file {
                return true;
            }
            twins.entry(first.clone()).or_default().insert(c.def.file.clone());
            false
        })
        .collect();
    (kept, twins.into_iter().map(|(file, twins)| (file, twins.into_iter().collect())).collect())
}

/// `index.d.ts:`, or `index.d.ts (and its twin index.d.cts):`.
fn file_heading(file: &str, twins: &[String]) -> String {
    match twins {
        [] => format!("{file}:"),
        [one] => format!("{file} (and its twin {one}):"),
        many => format!("{file} (and its twins {}):", many.join(", ")),
    }
}

/// The map being fitted: the candidates grouped by file, and each file's outline (read once).
struct Map<'a> {
    root: &'a Path,
    candidates: &'a [Candidate],
    /// A standing declaration file → its twins (see [`fold_twins`]).
    twins: &'a BTreeMap<String, Vec<String>>,
    config: &'a Config,
    engine: &'a Engine,
    /// File → its outline as read now (`None`: unreadable, or not code any more).
    outlines: HashMap<String, Option<Outline>>,
    /// (file, definitions shown) → the file's block.
    blocks: HashMap<(String, usize), String>,
}

/// What the text around the definitions says.
struct Words<'b> {
    answer: &'b RepomapAnswer,
    /// ` of src/` when the map is restricted to a path.
    place: &'b str,
    notes: &'b [String],
    surface: Surface,
}

/// How much of the frame around the definitions is shown; a small budget drops the header first.
#[derive(Clone, Copy)]
enum Frame {
    Full,
    NotesOnly,
    ClosingOnly,
}

impl<'a> Map<'a> {
    fn new(
        root: &'a Path,
        candidates: &'a [Candidate],
        twins: &'a BTreeMap<String, Vec<String>>,
        config: &'a Config,
        engine: &'a Engine,
    ) -> Map<'a> {
        Map { root, candidates, twins, config, engine, outlines: HashMap::new(), blocks: HashMap::new() }
    }

    fn twins_of(&self, file: &str) -> &'a [String] {
        self.twins.get(file).map_or(&[], Vec::as_slice)
    }

    /// The text with the most top definitions that fits `budget`, and how many it shows. The
    /// header goes when it would leave no room for a single definition; the notes only when
    /// nothing else fits (the budget is at least [`MIN_MAP_TOKENS`], which the closing line fits).
    fn fit(&mut self, words: &Words<'_>, budget: usize) -> (usize, String) {
        let empty = self.candidates.is_empty();
        [Frame::Full, Frame::NotesOnly, Frame::ClosingOnly]
            .into_iter()
            .filter_map(|frame| self.largest(words, frame, budget))
            .find(|(n, _)| *n > 0 || empty)
            .or_else(|| self.largest(words, Frame::ClosingOnly, budget))
            .unwrap_or_else(|| (0, self.text(words, Frame::ClosingOnly, 0)))
    }

    /// The most top definitions whose text in `frame` fits `budget` (doubling probes, then
    /// bisection between the last that fit and the first that did not); `None` when not even
    /// the frame alone fits.
    fn largest(&mut self, words: &Words<'_>, frame: Frame, budget: usize) -> Option<(usize, String)> {
        let total = self.candidates.len();
        let mut probe = |n: usize| {
            let text = self.text(words, frame, n);
            (count_uncached(&text) <= budget).then_some(text)
        };
        let mut best = (0, probe(0)?);
        let (mut fits, mut fails) = (0, None);
        let mut n = FIRST_PROBE;
        while fits < total && fails.is_none() {
            n = n.min(total);
            match probe(n) {
                Some(text) => {
                    best = (n, text);
                    fits = n;
                    n *= 2;
                }
                None => fails = Some(n),
            }
        }
        if let Some(mut fails) = fails {
            while fails - fits > 1 {
                let mid = (fits + fails) / 2;
                match probe(mid) {
                    Some(text) => {
                        best = (mid, text);
                        fits = mid;
                    }
                    None => fails = mid,
                }
            }
        }
        Some(best)
    }

    /// The top `n` candidates as files in order of their best rank, each with its definitions.
    fn groups(&self, n: usize) -> Vec<(&'a str, Vec<&'a Candidate>)> {
        let mut order: Vec<&str> = Vec::new();
        let mut by_file: BTreeMap<&str, Vec<&Candidate>> = BTreeMap::new();
        for candidate in &self.candidates[..n] {
            let file = candidate.def.file.as_str();
            let defs = by_file.entry(file).or_default();
            if defs.is_empty() {
                order.push(file);
            }
            defs.push(candidate);
        }
        order.into_iter().map(|file| (file, by_file.remove(file).unwrap_or_default())).collect()
    }

    /// The answer's text with the top `n` definitions.
    fn text(&mut self, words: &Words<'_>, frame: Frame, n: usize) -> String {
        let mut text = String::new();
        if matches!(frame, Frame::Full) && !self.candidates.is_empty() {
            text.push_str(&header(words.answer, words.place, self.candidates));
        }
        for (file, defs) in self.groups(n) {
            let _ = writeln!(text, "{}", file_heading(file, self.twins_of(file)));
            text.push_str(&self.block(file, &defs));
        }
        let notes_shown = !matches!(frame, Frame::ClosingOnly) && !words.notes.is_empty();
        if notes_shown {
            for note in words.notes {
                let _ = writeln!(text, "note: {note}");
            }
        }
        text.push_str(&closing(self.candidates, n, words, notes_shown));
        text
    }

    /// The outline lines of `defs` (a prefix of the file's ranked definitions) in `file`.
    fn block(&mut self, file: &str, defs: &[&Candidate]) -> String {
        let key = (file.to_string(), defs.len());
        if let Some(block) = self.blocks.get(&key) {
            return block.clone();
        }
        let root = self.root;
        let outline = self.outlines.entry(file.to_string()).or_insert_with(|| read_outline(root, file));
        let wanted: BTreeSet<(&str, u32)> = defs.iter().map(|c| (c.bare.as_str(), c.def.line)).collect();
        let mut found = BTreeSet::new();
        let mut block = match outline {
            Some(outline) => {
                let items = pruned(&outline.items, &wanted, &mut found);
                render_signatures(&Outline {
                    language: outline.language,
                    imports: Vec::new(),
                    items,
                    degraded: None,
                    unparsed: Vec::new(),
                    unlisted: Vec::new(),
                    unlisted_keys: UnlistedKeys::default(),
                })
            }
            None => String::new(),
        };
        // A definition the file no longer has where the graph saw it (changed since it was
        // parsed): shown as the graph knows it rather than left out.
        for c in defs.iter().filter(|c| !found.contains(&(c.bare.clone(), c.def.line))) {
            let _ = writeln!(block, "{} {} {}", c.def.line, c.def.kind, c.def.name);
        }
        let (block, _) = self.engine.guard.redaction.apply(self.config, block);
        self.blocks.insert(key, block.clone());
        block
    }

    /// The shown files with their definitions and outline lines.
    fn files(&mut self, n: usize) -> Vec<MapFile> {
        let groups = self.groups(n);
        groups
            .into_iter()
            .map(|(file, defs)| MapFile {
                path: file.to_string(),
                rank: defs.first().map_or(0.0, |c| c.rank),
                outline: self.block(file, &defs),
                defs: defs.iter().map(|c| MapDef { def: c.def.clone(), rank: c.rank }).collect(),
                twins: self.twins_of(file).to_vec(),
            })
            .collect()
    }
}

/// `repo map of src/: 340 definitions in 41 files, ranked by 1234 references (…); personalised
/// by …`.
fn header(answer: &RepomapAnswer, place: &str, candidates: &[Candidate]) -> String {
    let files = candidates.iter().map(|c| c.def.file.as_str()).collect::<BTreeSet<_>>().len();
    let references = answer.exact + answer.likely + answer.ambiguous;
    let mut text = format!(
        "repo map{place}: {} in {}, ranked by {} ({} exact, {} likely, {} ambiguous); ",
        count(candidates.len() as u64, "definition"),
        count(files as u64, "file"),
        count(references, "reference"),
        answer.exact,
        answer.likely,
        answer.ambiguous
    );
    match &answer.unpersonalised {
        Some(why) => {
            let _ = write!(text, "not personalised: {why}");
        }
        None => {
            let named: Vec<&str> = answer.personalised_by.iter().take(NAMED_TOUCHED).map(String::as_str).collect();
            let _ = write!(text, "personalised by the files this session touched: {}", named.join(", "));
            let more = answer.personalised_by.len().saturating_sub(NAMED_TOUCHED);
            if more > 0 {
                let _ = write!(text, " and {more} more");
            }
        }
    }
    text.push('\n');
    text
}

/// The last line: what was left out and how to see more, or that nothing was.
/// While the graph is being built, what it holds so far is all a map can rank, which this line
/// says even when the notes do not fit; when they are shown (`notes_shown`), they say that the
/// graph is being built and how far, and this line only that the map is partial.
fn closing(candidates: &[Candidate], shown: usize, words: &Words<'_>, notes_shown: bool) -> String {
    let (place, surface) = (words.place, words.surface);
    let building = match notes_shown {
        true => "",
        false => ": the project's graph is still being built",
    };
    let partial = match words.answer.complete {
        true => String::new(),
        false => format!("; partial{building}, ask again in a moment"),
    };
    if candidates.is_empty() {
        let place = if place.is_empty() { " in the project".to_string() } else { place.replace(" of ", " in ") };
        if !words.answer.complete {
            return format!("[no definitions to map{place} yet{building}, ask again in a moment]\n");
        }
        return format!("[no definitions to map{place}: the map covers {} files]\n", super::callgraph::supported());
    }
    let left = candidates.len() - shown;
    if left == 0 {
        return match candidates.len() {
            1 => format!("[the one definition shown{partial}]\n"),
            n => format!("[all {n} definitions shown{partial}]\n"),
        };
    }
    let files: BTreeSet<&str> = candidates.iter().map(|c| c.def.file.as_str()).collect();
    let shown_files: BTreeSet<&str> = candidates[..shown].iter().map(|c| c.def.file.as_str()).collect();
    let how = match surface {
        Surface::Cli => "raise --max-tokens, or `lctx read FILE -m signatures`",
        Surface::Mcp => "raise max_tokens, or ctx_read a file with mode=signatures",
    };
    let hidden = files.len() - shown_files.len();
    let (left, hidden) = (count(left as u64, "definition"), count(hidden as u64, "file"));
    format!("[{left} left out ({hidden} not shown); {how}{partial}]\n")
}

/// The definitions `wanted` (name, line) and the types and impls enclosing them.
fn pruned(
    items: &[Definition],
    wanted: &BTreeSet<(&str, u32)>,
    found: &mut BTreeSet<(String, u32)>,
) -> Vec<Definition> {
    let mut kept = Vec::new();
    for item in items {
        let children = pruned(&item.children, wanted, found);
        // The graph names `res.send = function` by its member, `send`, as a method of `res`, and
        // each target of `res.set = res.header = function` so.
        let members = item.name.split(" = ").map(|target| target.rsplit('.').next().unwrap_or(target));
        let hit =
            std::iter::once(item.name.as_str()).chain(members).find(|name| wanted.contains(&(*name, item.head_line)));
        if let Some(name) = hit {
            found.insert((name.to_string(), item.head_line));
        }
        if hit.is_some() || !children.is_empty() {
            kept.push(Definition {
                kind: item.kind,
                name: item.name.clone(),
                signature: item.signature.clone(),
                uncut: item.uncut.clone(),
                start_line: item.start_line,
                head_line: item.head_line,
                end_line: item.end_line,
                children,
                hidden_fields: item.hidden_fields,
            });
        }
    }
    kept
}

/// The outline of a project file as it is now.
fn read_outline(root: &Path, file: &str) -> Option<Outline> {
    let path = root.join(file);
    let language = Language::from_path(&path)?;
    Some(outline(language, &super::read_project_file(root, &path)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JavaScript function assigned to a member is shown by its outline line, not the graph's
    /// `LINE method name` (QA: express's map listed `112 method send` beside outline lines).
    #[test]
    fn a_function_assigned_to_a_member_is_shown_by_its_outline_line() {
        let source = "var res = module.exports = {};\n\nres.send = function send(body) {\n  return body;\n};\n\n\
                      res.set =\nres.header = function header(field) {\n  return field;\n};\n";
        let outline = outline(Language::JavaScript, source);
        let wanted = BTreeSet::from([("send", 3), ("header", 7)]);
        let mut found = BTreeSet::new();
        let items = pruned(&outline.items, &wanted, &mut found);
        assert_eq!(found, BTreeSet::from([("header".to_string(), 7), ("send".to_string(), 3)]));
        let shown = render_signatures(&Outline { items, ..outline });
        assert!(shown.contains("res.send = function send(body)"), "{shown}");
        assert!(shown.contains("res.set = res.header = function header(field)"), "{shown}");
    }

    #[test]
    fn a_budget_outside_its_range_is_refused_naming_the_range() {
        let mcp = Surface::Mcp;
        assert_eq!(budget(None, mcp).unwrap(), DEFAULT_MAP_TOKENS);
        for fits in [MIN_MAP_TOKENS, 500, MAX_MAP_TOKENS] {
            assert_eq!(budget(Some(fits), mcp).unwrap(), fits);
        }
        for outside in [0, MIN_MAP_TOKENS - 1, MAX_MAP_TOKENS + 1, u32::MAX] {
            let refused = budget(Some(outside), mcp).unwrap_err();
            assert_eq!(
                refused.message,
                format!("max_tokens {outside} is out of range: use 64 to 16384 (default 1024)"),
                "{outside}"
            );
        }
        // A person at lctx is told the flag.
        assert!(budget(Some(10), Surface::Cli).unwrap_err().message.starts_with("--max-tokens 10 is out of range"));
    }

    #[test]
    fn a_map_of_a_graph_still_being_built_says_so_in_its_closing_line() {
        let partial = RepomapAnswer { complete: false, ..Default::default() };
        let words = Words { answer: &partial, place: "", notes: &[], surface: Surface::Mcp };
        assert_eq!(
            closing(&[], 0, &words, false),
            "[no definitions to map in the project yet: the project's graph is still being built, ask again in a \
             moment]\n"
        );
        // The notes say it, with how far the graph is: once is enough.
        assert_eq!(
            closing(&[], 0, &words, true),
            "[no definitions to map in the project yet, ask again in a moment]\n"
        );
        let ready = RepomapAnswer { complete: true, ..Default::default() };
        let words = Words { answer: &ready, ..words };
        assert!(closing(&[], 0, &words, false).starts_with("[no definitions to map in the project: the map covers "));
    }

    #[test]
    fn the_header_counts_in_the_singular_where_there_is_one() {
        let def = DefSummary { file: "main.py".into(), line: 1, name: "main".into(), kind: "fn".into() };
        let one = [Candidate { def, bare: "main".into(), rank: 1.0 }];
        let answer = RepomapAnswer { exact: 1, unpersonalised: Some("no session".into()), ..Default::default() };
        assert_eq!(
            header(&answer, "", &one),
            "repo map: 1 definition in 1 file, ranked by 1 reference (1 exact, 0 likely, 0 ambiguous); not \
             personalised: no session\n"
        );
        let ready = RepomapAnswer { complete: true, ..Default::default() };
        let words = Words { answer: &ready, place: "", notes: &[], surface: Surface::Mcp };
        assert_eq!(closing(&one, 1, &words, false), "[the one definition shown]\n");
        let second = DefSummary { line: 2, ..one[0].def.clone() };
        let two = [
            Candidate { def: one[0].def.clone(), bare: "main".into(), rank: 1.0 },
            Candidate { def: second, bare: "main".into(), rank: 0.5 },
        ];
        assert!(closing(&two, 1, &words, false).starts_with("[1 definition left out (0 files not shown); "));
    }

    #[test]
    fn a_path_restricts_to_itself_and_what_is_below_it() {
        assert!(in_scope("src/a.rs", ""));
        assert!(in_scope("src/a.rs", "src"));
        assert!(in_scope("src/a.rs", "src/a.rs"));
        assert!(!in_scope("srcx/a.rs", "src"));
    }
}
