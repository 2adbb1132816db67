//! The search component: ctx_search, ctx_glob and ctx_tree over the
//! request's project, through `lean-ctx-search` (a tantivy index per
//! project, kept fresh by a watcher). Symbols come from the tree-sitter
//! outlines the reading component uses.

use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lean_ctx_common::limits::check_results;
use lean_ctx_common::plural::count;
use lean_ctx_graph::{extract_from, has_queries};
use lean_ctx_guard::permissions::{Verdict, canonical_prefix};
use lean_ctx_outline::{Definition, Kind, Language, TextFormat, outline_and_tree, qualifying_path};
use lean_ctx_search::{
    Action, Extraction, GlobResult, IndexExtractor, IndexObserver, IndexStatus, Mask, SearchConfig, SearchEngine,
    SearchError, SearchRequest, SearchResult, Symbol, SymbolExtractor, TreeResult, Withhold, default_extractor,
};
use lean_ctx_store::{Event, Shape};

use crate::engine::cancel::Cancel;
use crate::engine::config::Config;
use crate::engine::error::{EngineError, EngineResult, ErrorKind};
use crate::engine::memory::now_ms;
use crate::engine::project::{is_repository, project_of};
use crate::engine::{Caller, Engine};

const DEFAULT_TREE_DEPTH: usize = 3;

#[derive(Debug, Clone, Default)]
pub struct SearchParams {
    pub pattern: String,
    pub path: String,
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    pub max_results: Option<u32>,
    pub action: String,
}

/// What one pass over a file finds: the symbols of code files from their tree-sitter outline (the
/// crate's regex extractor for files without a grammar) and, with `graph_facts`, for a language the
/// code graph reads, the graph's facts from the same parse.
pub(super) fn extraction(path: &Path, text: &str, fallback: &SymbolExtractor, graph_facts: bool) -> Extraction {
    let language = match (Language::detect(path, text), TextFormat::detect(path, text)) {
        (Some(language), _) if !language.is_code() => return Extraction { symbols: Vec::new(), extra: None },
        (Some(language), _) => language,
        // Code without a grammar here: what its views list (Kotlin, PHP, shell…).
        (None, TextFormat::Code(family)) => {
            let mut symbols = Vec::new();
            let outline = namespaced(lean_ctx_outline::keyword_outline(text, family), text);
            walk(&outline, None, false, text, &mut symbols);
            return Extraction { symbols, extra: None };
        }
        // Prose holds no definitions: `class that represents…` in a reStructuredText page is a
        // sentence. The keyword regex is for other code (an extension the views do not know).
        (None, _) if is_prose(path) => return Extraction { symbols: Vec::new(), extra: None },
        (None, _) => return Extraction { symbols: fallback(path, text), extra: None },
    };
    /// `owner`: the name of what `defs` are members of; `in_type`: whether that is a struct or a
    /// class; `text`: the file's.
    fn walk(defs: &[Definition], owner: Option<String>, in_type: bool, text: &str, out: &mut Vec<Symbol>) {
        // A re-export names what another file defines; a CommonJS export of a value made here
        // is a definition of this file.
        for d in defs.iter() {
            if d.kind == Kind::Export {
                if let Some(name) = exported_here(d) {
                    out.push(Symbol {
                        name: name.to_string(),
                        kind: d.kind.label().into(),
                        line: d.head_line,
                        owner: None,
                    });
                }
                // A name an export list gives (`export { a as b }`, from this module or another) is
                // defined by that line alone, found by no other name.
                let renamed: Vec<&str> = d.export_renames().0.into_iter().map(|(_, exported)| exported).collect();
                let lines = name_lines(&renamed, d.head_line, d.end_line, text);
                for (name, line) in renamed.into_iter().zip(lines) {
                    out.push(Symbol { name: name.to_string(), kind: d.kind.label().into(), line, owner: None });
                }
                continue;
            }
            // The declaration's own line, not the attributes or decorators in front.
            let line = d.head_line;
            // A declaration of several names (Go's `var A, B`) is searched for by each.
            // An alias assigned with it (`res.contentType = res.type = function`) is a name of it,
            // at the line it is assigned on.
            let named_kinds = d.named_kinds(in_type);
            // Each name of a declaration over several lines (`export const {` then one name a
            // line) at the line that names it.
            let names: Vec<&str> = named_kinds.iter().map(|(name, _)| *name).collect();
            let lines = match names.len() > 1 && d.end_line > line {
                true => name_lines(&names, line, d.end_line, text),
                false => vec![line; names.len()],
            };
            let named = named_kinds.into_iter().zip(lines).flat_map(|((name, kind), line)| {
                let aliases: Vec<&str> = name.split(" = ").collect();
                let all = aliases.len() > 1 && aliases.iter().all(|alias| defined_outside(alias).is_some());
                match all {
                    true => {
                        let at = alias_lines(&aliases, line, d.end_line, text);
                        aliases.into_iter().zip(at).map(|(alias, line)| (alias, kind, line)).collect()
                    }
                    false => vec![(name, kind, line)],
                }
            });
            for (name, kind, line) in named {
                let (owner, name) = match (kind, defined_outside(name)) {
                    (Kind::Impl, _) | (_, None) => (owner.clone(), name),
                    // Ruby's `def self.escape` in `class Utils` is `Utils`'s.
                    (_, Some(("self", name))) => (owner.clone(), name),
                    (_, Some((of, name))) => (Some(nested(owner.as_deref(), of)), name),
                };
                out.push(Symbol { name: name.to_string(), kind: kind.label().to_string(), line, owner });
            }
            let members_in_type = matches!(d.kind, Kind::Struct | Kind::Class);
            walk(&d.children, Some(members_owner(d, owner.as_deref())), members_in_type, text, out);
        }
    }
    let (outline, tree) = outline_and_tree(language, text);
    let mut symbols = Vec::new();
    walk(&outline.items, None, false, text, &mut symbols);
    // Private fields and names are definitions too, though no view lists them; each is owned by
    // what it is declared in, so `outer::inner2::deepest` finds a nested function as the call
    // graph names it.
    if let Some(tree) = &tree {
        let private = lean_ctx_outline::private_fields(&outline, tree, text);
        symbols.extend(private.into_iter().map(|found| Symbol {
            name: found.name,
            kind: found.kind.label().to_string(),
            line: found.line,
            owner: found.encloser,
        }));
    }
    let extra = (graph_facts && has_queries(language)).then(|| {
        let facts: Box<dyn Any + Send> = Box::new(extract_from(language, text, &outline, tree.as_ref()));
        facts
    });
    Extraction { symbols, extra }
}

/// A keyword outline's definitions with what PHP declares in a namespace moved under it: after
/// `namespace App\Http;`, or in `namespace App\Http { … }` whether its body is indented or not
/// (the outline nests by indentation, and lists an unindented body's classes after the
/// namespace, not in it), up to the next namespace statement, the global `namespace { … }`
/// included, as PHP scopes them. So `App\Http\User` is `User` owned by `App::Http`, and
/// `Other\User::name` is told from it.
fn namespaced(definitions: Vec<Definition>, text: &str) -> Vec<Definition> {
    // The lines of the file's namespace statements; the top-level definitions after one are its.
    let statements: Vec<u32> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| {
            line.trim_start().strip_prefix("namespace").is_some_and(|rest| rest.starts_with([' ', '{', ';']))
        })
        .map(|(index, _)| index as u32 + 1)
        .collect();
    let mut out: Vec<Definition> = Vec::new();
    // Index in `out` of the namespace the next definitions are in.
    let mut current = None;
    for definition in definitions {
        let statement = statements.iter().rev().find(|line| **line <= definition.head_line);
        if current.is_some_and(|at: usize| statement.is_some_and(|line| *line > out[at].head_line)) {
            current = None;
        }
        match current {
            Some(at) => out[at].children.push(definition),
            None => {
                let opens = definition.kind == Kind::Module && statement == Some(&definition.head_line);
                out.push(definition);
                current = opens.then(|| out.len() - 1);
            }
        }
    }
    out
}

/// The name a CommonJS export defines in its own module: `exports.NAME` (or `module.exports.NAME`)
/// given a value computed or written there (`util.arrayToEnum([…])`, `-1`, `"3.23.8"`) or a name
/// of another (`exports.InvalidOptionArgumentError = InvalidArgumentError`: the alias is this
/// module's own), not one another module defines (`require(…)`) nor one the file defines under the
/// same name (`exports.ZodError = ZodError`, found by that name). The outline keeps the assignment
/// as written in the head, so its value is read there.
fn exported_here(d: &Definition) -> Option<&str> {
    let name = d.name.strip_prefix("module.exports.").or_else(|| d.name.strip_prefix("exports."))?;
    let value = d.signature.split_once(" = ")?.1.trim();
    let named = value.split('.').all(|part| {
        let mut chars = part.chars();
        chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
            && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    });
    // `require('./x')` and `require('./x').x` are the other module's value; `require('./x')()` is
    // made here. (A head cut inside the call, `require(`, is the other module's too.)
    let required = value
        .strip_prefix("require(")
        .is_some_and(|rest| rest.split_once(')').is_none_or(|(_, after)| after.is_empty() || after.starts_with('.')));
    let same_name = value.rsplit('.').next() == Some(name);
    ((!named || !same_name) && !required && !name.contains(['.', ' ', ','])).then_some(name)
}

/// The line each of a declaration's names is written on, within its lines `first..=last`, in
/// order (`export const {` / `  program,` / `  Help,`): see [`lines_in_turn`], the name as a word.
fn name_lines(names: &[&str], first: u32, last: u32, text: &str) -> Vec<u32> {
    let word = |line: &str, name: &str| {
        line.match_indices(name).any(|(at, _)| {
            let part = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
            !line[..at].chars().next_back().is_some_and(part)
                && !line[at + name.len()..].chars().next().is_some_and(part)
        })
    };
    lines_in_turn(names, first, last, text, word)
}

/// The line each alias of a chain is assigned on, within the definition's lines `first..=last`
/// (`res.contentType =` over `res.type =` over `function contentType(type)`: 1, 2): see
/// [`lines_in_turn`], the target of an `=` ([`assigned`]).
fn alias_lines(aliases: &[&str], first: u32, last: u32, text: &str) -> Vec<u32> {
    lines_in_turn(aliases, first, last, text, assigned)
}

/// For each of `names` in turn, the first of the lines `first..=last` at or after its
/// predecessor's where `found(line, name)`, the first looked for from `first`; one not found so
/// (written some other way) is given its predecessor's line.
fn lines_in_turn(names: &[&str], first: u32, last: u32, text: &str, found: impl Fn(&str, &str) -> bool) -> Vec<u32> {
    let span: Vec<&str> = text.lines().skip(first as usize - 1).take(last.saturating_sub(first) as usize + 1).collect();
    let mut at = 0;
    names
        .iter()
        .map(|name| {
            at = (at..span.len()).find(|&line| found(span[line], name)).unwrap_or(at);
            first + at as u32
        })
        .collect()
}

/// Whether `text` assigns to `target` (`res.type =`, not `res.types =` nor `res.type ==`).
fn assigned(text: &str, target: &str) -> bool {
    text.match_indices(target).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let starts = !before.is_some_and(|c| c.is_alphanumeric() || "_$.".contains(c));
        let after = text[at + target.len()..].trim_start();
        starts && after.starts_with('=') && !after.starts_with("==") && !after.starts_with("=>")
    })
}

/// The owner of `definition`'s members, `owner` being its own: its name, after the owners it is
/// nested in and the path it is written with (Ruby's `module Thor; module Util` and `module
/// Thor::Util` are both `Thor::Util`, so `Other::Util.snake_case` is told from
/// `Thor::Util.snake_case`); but for Ruby's singleton class, whose methods are class methods of
/// the object it opens (`class << self` in `module Util` holds `Util.snake_case`, as `def
/// self.snake_case` does; `class << Config` holds `Config`'s): they were owned by `<< self`, so
/// `Util.snake_case` found nothing.
fn members_owner(definition: &Definition, owner: Option<&str>) -> String {
    match definition.name.strip_prefix("<< ").map(str::trim) {
        Some("self") => owner.unwrap_or(&definition.name).to_string(),
        Some(object) if !object.is_empty() => object.to_string(),
        // PHP's namespace `App\Http` is the modules `App::Http`.
        _ => nested(owner, &qualifying_path(&definition.name).replace('\\', "::")),
    }
}

/// `name` as a member of `owner`, if it has one: `Thor::Util`.
fn nested(owner: Option<&str>, name: &str) -> String {
    owner.map_or_else(|| name.to_string(), |owner| format!("{owner}::{name}"))
}

/// A member defined outside its owner, which the outline names by both: `exports.parse = function`
/// and `app.handle = function`, `Router.prototype.route = function`, Go's `Template.Execute` in
/// another file than its type, C++'s `void Widget::draw() {…}`, Lua's `function M:bar()`. Its
/// name is its own, so `parse` finds it, and its owner is the path's last part before the name,
/// `prototype` aside, so `app.handle` and `app::handle` do. `None` for any other name (an impl's
/// `fmt::Display for Item`, an alias chain `res.type = res.contentType`, whose names are each one).
fn defined_outside(name: &str) -> Option<(&str, &str)> {
    let (path, member) = name.rsplit_once("::").or_else(|| name.rsplit_once(['.', ':']))?;
    let identifier = |part: &str| !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    let parts: Vec<&str> = path.split("::").flat_map(|part| part.split(['.', ':'])).collect();
    // A C++ destructor, `Widget::~Widget`, is named with its tilde.
    let named = identifier(member.strip_prefix('~').unwrap_or(member));
    if !named || !parts.iter().all(|part| identifier(part)) {
        return None;
    }
    let owner = parts.iter().rev().find(|part| **part != "prototype")?;
    Some((owner, member))
}

/// Symbols for scans (a search without the index).
fn outline_extractor() -> SymbolExtractor {
    let fallback = default_extractor();
    Arc::new(move |path: &Path, text: &str| extraction(path, text, &fallback, false).symbols)
}

/// The index's extractor: the one parse of a file that gives its symbols also gives the code
/// graph its facts, handed to the graph with the index's batch so the graph does not parse the
/// file again.
fn index_extractor() -> IndexExtractor {
    let fallback = default_extractor();
    Arc::new(move |path: &Path, text: &str| extraction(path, text, &fallback, true))
}

/// The search engine for this process. A short-lived in-process client does
/// not start background indexing (it would exit before it helps).
pub fn new_search_engine(
    cache_dir: &Path,
    config: &Config,
    long_lived: bool,
    observer: Arc<dyn IndexObserver>,
    index_mask: Mask,
) -> SearchEngine {
    let mut c = SearchConfig::new(cache_dir);
    c.memory_budget_bytes = config.search_memory_bytes;
    c.idle_close_secs = config.search_idle_close_secs;
    c.build_on_search = long_lived;
    c.extractor = outline_extractor();
    c.index_extractor = Some(index_extractor());
    c.extractor_version = super::extractor_fingerprint::extractor_version;
    c.index_mask = Some(index_mask);
    c.observer = Some(observer);
    SearchEngine::new(c)
}

pub fn search_error(e: SearchError) -> EngineError {
    let kind = match &e {
        SearchError::RootNotFound { .. } | SearchError::PathNotFound { .. } => ErrorKind::NotFound,
        SearchError::OutsideProject { .. } | SearchError::GitStore { .. } => ErrorKind::PermissionDenied,
        SearchError::RootNotDirectory { .. }
        | SearchError::PathIsFile { .. }
        | SearchError::PathIsSpecial { .. }
        | SearchError::InvalidRegex { .. }
        | SearchError::InvalidGlob { .. }
        | SearchError::EmptyQuery { .. } => ErrorKind::InvalidArgument,
        SearchError::IndexBusy { .. } | SearchError::Closed => ErrorKind::Unavailable,
        SearchError::Cancelled => ErrorKind::Cancelled,
        _ => ErrorKind::Internal,
    };
    EngineError::new(kind, e.to_string())
}

/// An asked-for result count: unset is the default; 0 or more than `limits::MAX_RESULTS` is refused,
/// naming `default`.
fn max_results(asked: Option<u32>, default: &str) -> EngineResult<Option<usize>> {
    check_results("max_results", asked, default).map_err(EngineError::invalid)?;
    Ok(asked.map(|n| n as usize))
}

fn action(name: &str) -> EngineResult<Action> {
    match name.trim() {
        "" | "regex" => Ok(Action::Regex),
        "bm25" => Ok(Action::Bm25),
        "symbol" => Ok(Action::Symbol),
        other => Err(EngineError::invalid(format!("unknown search action `{other}`; valid: regex, bm25, symbol"))),
    }
}

/// Refuses to index `/`, the home directory or a directory above it (every
/// file of the machine or of the user, a project of none) unless it is
/// listed in `index_broad_roots`; `doing` is what would have read it all
/// (`indexing`, `searching`), and the advice suits it.
fn refuse_broad_root(root: &Path, config: &Config, doing: Broad) -> EngineResult<()> {
    let home = std::env::home_dir().and_then(|h| h.canonicalize().ok());
    let what = if root.parent().is_none() {
        "the filesystem root"
    } else if home.as_deref() == Some(root) {
        "your home directory"
    } else if home.as_deref().is_some_and(|h| h.starts_with(root)) {
        "a directory above your home directory"
    } else {
        return Ok(());
    };
    if config.index_broad_roots.iter().any(|listed| Path::new(listed).canonicalize().is_ok_and(|l| l == root)) {
        return Ok(());
    }
    let (doing, instead) = match doing {
        Broad::Indexing => ("indexing", "Run the index from inside a project (a directory holding .git)"),
        Broad::Searching => (
            "searching it (and indexing it, as a project's search does)",
            "Search from inside a project (a directory holding .git) or the directory to search",
        ),
    };
    Err(EngineError::denied(format!(
        "{} is {what}, not a project: {doing} would read every file below it. {instead}, or to index it \
         anyway: lctx config set index_broad_roots {}",
        root.display(),
        root.display()
    )))
}

/// What [`refuse_broad_root`] refuses.
#[derive(Clone, Copy)]
enum Broad {
    Indexing,
    Searching,
}

impl Engine {
    /// `path` resolved against the caller like a read (inside the project
    /// or `allow_paths`), or the project root when empty; and the caller's
    /// directory below the root that its globs are written in (see [`anchored`]).
    fn search_path(&self, caller: &Caller<'_>, path: &str) -> EngineResult<SearchPath> {
        let scope = self.scope_of(caller)?;
        if !path.trim().is_empty() {
            let within = Some(scope.resolve_existing(path)?);
            return Ok(SearchPath { root: scope.root, within, globs_below: None });
        }
        // With no `path` the search's scope is the project root, while the caller writes globs
        // relative to its working directory as every other path it gives.
        let below = scope.cwd.strip_prefix(&scope.root).ok().filter(|rel| !rel.as_os_str().is_empty());
        let globs_below = below.map(|below| below.to_string_lossy().into_owned());
        Ok(SearchPath { root: scope.root, within: None, globs_below })
    }

    /// ctx_search; `cancel` stops a scan at the next file (the client left).
    pub fn search(&self, caller: &Caller<'_>, p: &SearchParams, cancel: &Cancel) -> EngineResult<SearchResult> {
        let SearchPath { mut root, within, globs_below } = self.search_path(caller, &p.path)?;
        // Outside any repository the caller's directory is the project, which in a home
        // directory is every file the user has: scanned, then indexed and watched. A path
        // into a repository (`lctx search foo proj` from home) searches that repository.
        let mut rooted = None;
        if !is_repository(&root) {
            let repository = within.as_deref().map(project_of).filter(|project| is_repository(project));
            rooted = Some(match repository {
                Some(repository) => {
                    let note = format!("searched the repository {} (paths are relative to it)", repository.display());
                    root = repository;
                    note
                }
                None => {
                    refuse_broad_root(&root, &self.config.get(), Broad::Searching)?;
                    // The directory was taken as the project, which a user searching from
                    // outside any repository (`cd /tmp`) may not expect: every file below it
                    // is searched and indexed.
                    let indexed = match self.search.config().build_on_search {
                        true => {
                            format!("; its index is built and kept (`lctx index --remove {}` drops it)", root.display())
                        }
                        false => String::new(),
                    };
                    format!("{}{indexed}", no_repository(&root, "searched"))
                }
            });
        }
        let mut request = SearchRequest::new(&root, action(&p.action)?, p.pattern.clone());
        request.cancel = cancel.flag();
        let anchor = |globs: &[String]| -> EngineResult<Vec<String>> {
            globs.iter().map(|glob| in_project(&root, within.as_deref(), globs_below.as_deref(), glob)).collect()
        };
        request.include = anchor(&p.include)?;
        request.exclude = anchor(&p.exclude)?;
        request.path = within;
        if let Some(n) = max_results(p.max_results, "50; bm25: 10 files")? {
            request.max_results = n;
        }
        request.withhold = self.read_rules_withhold(&root);
        request.mask = self.guard.redaction.search_mask(&self.config.get());
        let mut result = self.search.search(&request).map_err(search_error)?;
        if cancel.is_cancelled() {
            self.stopped.count_cancelled();
        }
        let masked: u32 = result.matches.iter().map(|m| m.secrets).sum();
        if masked > 0 {
            add_note(
                &mut result,
                format!("{} shown as [REDACTED:kind]", count(masked.into(), "secret")),
                request.max_results,
            );
        }
        if let Some(rooted) = rooted {
            add_note(&mut result, rooted, request.max_results);
        }
        let tokens = self.tokens.count(&result.text) as u64;
        let project = root.display().to_string();
        let mode = match request.action {
            Action::Regex => "regex",
            Action::Bm25 => "bm25",
            Action::Symbol => "symbol",
        };
        // A search has no "raw" alternative to compare with: it is recorded
        // at cost, claiming no savings.
        self.memory.record(&Event {
            at_ms: now_ms(),
            project: &project,
            session: (!caller.session.is_empty()).then_some(caller.session),
            tool: "search",
            shape: Shape::Mode(mode),
            raw_tokens: tokens,
            sent_tokens: tokens,
        });
        Ok(result)
    }

    /// The search's view of the user's Read rules: a file under a deny or an ask rule shows none
    /// of its lines (an ask rule guards content; the host's own tool asks the user), and the
    /// answer's note names the rule and where it is written, never the file. The rules are those
    /// of the project searched (`root`). `None` without rules.
    pub(in crate::engine) fn read_rules_withhold(&self, root: &Path) -> Option<Withhold> {
        let rules = self.permission_rules_at(root, &self.config.get());
        if rules.permissions.is_empty() {
            return None;
        }
        let root = root.to_path_buf();
        Some(Withhold::new(move |rel| read_rule(&rules.permissions, &root.join(rel), Shows::Content)))
    }

    pub fn glob(&self, caller: &Caller<'_>, pattern: &str, path: &str, max: Option<u32>) -> EngineResult<GlobResult> {
        let SearchPath { root, within, globs_below } = self.search_path(caller, path)?;
        let max = max_results(max, "50")?.unwrap_or(lean_ctx_search::DEFAULT_MAX_RESULTS);
        let asked = pattern;
        let pattern = in_project(&root, within.as_deref(), globs_below.as_deref(), asked)?;
        // Files the user's rules deny reading are not listed either, and the answer counts them.
        let config = self.config.get();
        let rules = self.permission_rules(&self.scope(caller, &config)?, &config);
        let withhold = |file: &Path| read_rule(&rules.permissions, file, Shows::Names);
        let mut result = self.search.glob(&root, &pattern, within.as_deref(), max, &withhold).map_err(search_error)?;
        // QA: from a subdirectory, a glob written from the project's root as every answer shows
        // paths (`src/requests/*.py` in `src`) matched nothing, without a word.
        let anchored_here = globs_below.as_deref().filter(|_| result.total == 0 && pattern != asked);
        if let Some(below) = anchored_here
            && let Ok(from_root) = in_project(&root, None, None, asked)
            && let Ok(at_root) = self.search.glob(&root, &from_root, None, 1, &withhold)
            && at_root.total > 0
        {
            let hint = format!(
                "a glob is anchored where this call is, {below}/, and there `{asked}` matches nothing; from the \
                 project root it matches {} (as {}): write it from {below}/, or start it with `../`",
                lean_ctx_common::plural::count(at_root.total, "file"),
                at_root.paths.first().map_or("", String::as_str),
            );
            result.text.push_str(&format!("{hint}\n"));
            result.note = [result.note.as_str(), hint.as_str()]
                .into_iter()
                .filter(|n| !n.is_empty())
                .collect::<Vec<_>>()
                .join("\n");
            result.hint = Some(match result.hint.take() {
                Some(before) => format!("{before}\n{hint}"),
                None => hint,
            });
        }
        Ok(result)
    }

    pub fn tree(
        &self,
        caller: &Caller<'_>,
        path: &str,
        depth: u32,
        show_hidden: bool,
        respect_gitignore: bool,
    ) -> EngineResult<TreeResult> {
        let SearchPath { root, within, .. } = self.search_path(caller, path)?;
        let depth = if depth == 0 { DEFAULT_TREE_DEPTH } else { depth as usize };
        // Files the user's rules deny reading are not listed either (as in glob).
        let config = self.config.get();
        let rules = self.permission_rules(&self.scope(caller, &config)?, &config);
        let withhold = |file: &Path| read_rule(&rules.permissions, file, Shows::Names);
        self.search
            .tree(&root, within.as_deref(), depth, show_hidden, respect_gitignore, &withhold)
            .map_err(search_error)
    }

    /// `lctx index`: builds the index of the project `path` lies in (the
    /// caller's project when empty) and waits for it. Only what a read may
    /// reach is indexed, and never a directory as broad as `/` or the home
    /// directory unless the configuration names it. The note says when the
    /// directory is in no git repository (it is then the project, which a
    /// user may not expect) and when the build goes on past the wait. Once
    /// `cancel` is set (the caller left) the wait ends, and a build this
    /// request started stops.
    pub fn build_index(
        &self,
        caller: &Caller<'_>,
        path: &str,
        cancel: &Cancel,
    ) -> EngineResult<(IndexStatus, Option<String>)> {
        let config = self.config.get();
        let root = self.scope(caller, &config)?.index_root(path)?;
        refuse_broad_root(&root, &config, Broad::Indexing)?;
        let built = self.search.build_until(&root, |_| {}, &cancel.flag());
        if cancel.is_cancelled() {
            self.stopped.count_cancelled();
        }
        let status = built.map_err(search_error)?;
        let mut notes = Vec::new();
        if let lean_ctx_search::IndexPhase::Building { done, total } = status.phase {
            self.stopped.past_deadline.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            notes.push(format!(
                "still building after {} s ({done}/{total} files); it goes on in the background, `lctx index \
                 --list` shows its progress and searches scan meanwhile",
                self.search.config().build_wait.as_secs()
            ));
        }
        if !is_repository(&root) {
            notes.push(no_repository(&root, "indexed"));
        }
        Ok((status, (!notes.is_empty()).then(|| notes.join("; "))))
    }
}

/// What an answer says when `root`, in no git repository, was taken as the project.
fn no_repository(root: &Path, done: &str) -> String {
    format!("{} is in no git repository, so it was {done} as a project of its own", root.display())
}

/// Adds a line to `result`'s note and renders its text again.
fn add_note(result: &mut SearchResult, note: String, max: usize) {
    result.note = Some(result.note.take().map_or(note.clone(), |n| format!("{n}\n{note}")));
    result.text = lean_ctx_search::search_text(result, max);
}

/// What an answer shows of the files it finds.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Shows {
    /// Their lines (search): deny and ask rules withhold them.
    Content,
    /// Their names (glob, tree): an ask rule guards the content, not the name, so only deny rules
    /// withhold them.
    Names,
}

/// The Read rule that withholds `file` from an answer that `shows` this much of it, as the
/// answer's note names it (the rule and where it is written, never the file), or `None`.
pub(crate) fn read_rule(
    permissions: &lean_ctx_guard::permissions::Permissions,
    file: &Path,
    shows: Shows,
) -> Option<String> {
    use lean_ctx_guard::permissions::Cause;
    match permissions.check_read(file) {
        Verdict::Allow => None,
        // QA: "deny every rule (the file cannot be read)" named no cause to fix.
        Verdict::Deny { file, cause: Some(Cause::Unusable(why)), .. } => {
            Some(format!("{} cannot be used as settings ({why}): nothing is shown until it is fixed", file.display()))
        }
        Verdict::Deny { rule, file, .. } => Some(format!("deny {rule} in {}", file.display())),
        // QA: a hard link's ask read as an ask rule the user never wrote.
        Verdict::Ask { rule, file, cause: Some(Cause::OtherNames { .. }) } if shows == Shows::Content => Some(format!(
            "a file with another name (a hard link) that {rule} in {} covers (the host's own read asks the user)",
            file.display()
        )),
        Verdict::Ask { rule, file, .. } if shows == Shows::Content => {
            Some(format!("ask {rule} in {} (the host's own read asks the user)", file.display()))
        }
        Verdict::Ask { .. } => None,
    }
}

/// Where a search looks, from [`Engine::search_path`].
struct SearchPath {
    root: PathBuf,
    /// The file or directory asked for, `None` for the whole project.
    within: Option<PathBuf>,
    /// The caller's directory below the root, when its globs are to be anchored there.
    globs_below: Option<String>,
}

/// A caller's glob as the search matches it: an absolute one inside the directory searched
/// (`within`, else the root) made relative to it, anchored there (`/src/*.ts`), any other
/// [`anchored`] where the caller is (`below`, `None` at the root or when the search has its own
/// PATH). A glob naming files outside the project or the directory searched, absolute or by
/// `../`, is refused: it would match nothing there, or other files inside.
fn in_project(root: &Path, within: Option<&Path>, below: Option<&str>, glob: &str) -> EngineResult<String> {
    if glob.starts_with('/') {
        return from_absolute(root, within.unwrap_or(root), glob);
    }
    anchored(below.unwrap_or(""), glob).map_err(|why| {
        EngineError::invalid(match why {
            Unanchored::AboveRoot => format!(
                "the glob `{glob}` climbs above the project {} with `../`: globs match the project's files; write \
                 one that stays inside it",
                root.display()
            ),
            Unanchored::AfterWildcard => format!(
                "the glob `{glob}` has `..` after a wildcard, which names no one directory to go back from: write \
                 the path without it"
            ),
        })
    })
}

/// An absolute `glob` as a pattern anchored at `base` (the directory searched): its literal
/// directory (up to the first glob character) is resolved as the file system would, links
/// included, so `/tmp/link/src/*.ts` of a project reached through a link is its `/src/*.ts`.
fn from_absolute(root: &Path, base: &Path, glob: &str) -> EngineResult<String> {
    let literal = &glob[..glob.find(['*', '?', '[', '{']).unwrap_or(glob.len())];
    let (dir, rest) = match literal.len() == glob.len() && Path::new(glob).is_dir() {
        true => (glob, ""),
        false => {
            let slash = literal.rfind('/').unwrap_or(0);
            (if slash == 0 { "/" } else { &glob[..slash] }, &glob[slash + 1..])
        }
    };
    let dir = canonical_prefix(Path::new(dir));
    let refuse = |outside: String| {
        EngineError::invalid(format!(
            "the glob `{glob}` names files outside {outside}: globs match the files searched; write one relative to \
             the directory you are in"
        ))
    };
    let rel = match dir.strip_prefix(base) {
        Ok(rel) => rel.to_string_lossy().into_owned(),
        Err(_) if dir.starts_with(root) => return Err(refuse(format!("the path searched, {}", base.display()))),
        Err(_) => return Err(refuse(format!("the project {}", root.display()))),
    };
    let pattern: Vec<&str> = [rel.as_str(), rest].into_iter().filter(|part| !part.is_empty()).collect();
    if pattern.is_empty() {
        return Err(EngineError::invalid(format!(
            "the glob `{glob}` names the directory searched, and a glob matches files: `**` lists every file under it"
        )));
    }
    Ok(format!("/{}", pattern.join("/")))
}

/// `glob` as written in directory `below` (relative to the project root): one naming directories
/// is put under it, its `./` and `../` parts taken from there wherever they are (`src/../x.py` is
/// `x.py`), with `below`'s own glob characters escaped (Next.js's `app/[id]/`); one without `/`,
/// or starting with `**/`, names files wherever they are and is left as it is.
fn anchored(below: &str, glob: &str) -> Result<String, Unanchored> {
    if !glob.contains('/') {
        return Ok(glob.to_string());
    }
    let escape = |part: &str| -> String {
        part.chars().map(|c| if "?*[]{}".contains(c) { format!("[{c}]") } else { c.to_string() }).collect()
    };
    // Each part as written in the pattern, and whether `..` may take it back (a literal name).
    let mut parts: Vec<(String, bool)> = match glob.starts_with("**/") {
        true => Vec::new(),
        false => below.split('/').filter(|part| !part.is_empty()).map(|part| (escape(part), true)).collect(),
    };
    for part in glob.split('/') {
        match part {
            "" | "." => {}
            ".." => match parts.pop() {
                Some((_, true)) => {}
                Some(_) => return Err(Unanchored::AfterWildcard),
                None => return Err(Unanchored::AboveRoot),
            },
            part => parts.push((part.to_string(), !part.contains(['*', '?', '[', '{']))),
        }
    }
    let pattern = parts.into_iter().map(|(part, _)| part).collect::<Vec<_>>().join("/");
    // A glob naming directories that comes down to a bare name (`src/../setup.py`) names the
    // file at the top, not one of that name anywhere: anchored, as a leading `/` anchors.
    Ok(if pattern.contains('/') { pattern } else { format!("/{pattern}") })
}

/// Why a glob's `..` cannot be taken from where the caller is.
#[derive(Debug, PartialEq)]
enum Unanchored {
    /// It climbs above the project root.
    AboveRoot,
    /// It follows a wildcard (`*/..`), which names no one directory to go back from.
    AfterWildcard,
}

/// Files without an extension that hold prose; others are code without one (a `Jenkinsfile`, a
/// `Vagrantfile`, `SConstruct`, a script).
const PROSE_NAMES: [&str; 15] = [
    "README",
    "LICENSE",
    "LICENCE",
    "COPYING",
    "NOTICE",
    "AUTHORS",
    "CHANGELOG",
    "CHANGES",
    "HISTORY",
    "CONTRIBUTING",
    "CONTRIBUTORS",
    "TODO",
    "NEWS",
    "INSTALL",
    "THANKS",
];

/// A documentation or plain text file by its extension (Markdown has a grammar of its own), or
/// by its name when it has none (`README`, `LICENSE`).
fn is_prose(path: &Path) -> bool {
    let extension = path.extension().and_then(|ext| ext.to_str()).map(str::to_ascii_lowercase);
    match extension.as_deref() {
        None => path
            .file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| PROSE_NAMES.iter().any(|prose| prose.eq_ignore_ascii_case(name))),
        Some("txt" | "text") => true,
        Some(_) => !matches!(TextFormat::from_path(path), TextFormat::Plain | TextFormat::Code(_)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_point_at_the_line_that_names_them() {
        let text = "/// Docs.\n#[derive(Debug)]\npub struct Selection {\n    a: u8,\n}\n\n#[test]\nfn checks() {}\n";
        let symbols = outline_extractor()(Path::new("lib.rs"), text);
        let lines: Vec<_> = symbols.iter().map(|s| (s.name.as_str(), s.line)).collect();
        assert_eq!(lines, [("Selection", 3), ("checks", 8), ("a", 4)]);
        let python = "@property\ndef prop(self):\n    pass\n\n@app.get(\"/users\")\ndef users():\n    pass\n";
        let symbols = outline_extractor()(Path::new("views.py"), python);
        let lines: Vec<_> = symbols.iter().map(|s| (s.name.as_str(), s.line)).collect();
        assert_eq!(lines, [("prop", 2), ("users", 6)]);
        // Annotations, attributes and decorators the grammar puts inside the declaration.
        let java = "class A {\n    @SuppressWarnings(\"unchecked\")\n    E elementData(int i) { return null; }\n\n    \
                    @Override\n    @Deprecated\n    public String toString() { return \"\"; }\n}\n";
        let symbols = outline_extractor()(Path::new("A.java"), java);
        let lines: Vec<_> = symbols.iter().map(|s| (s.name.as_str(), s.line)).collect();
        assert_eq!(lines, [("A", 1), ("elementData", 3), ("toString", 7)]);
        let csharp = "[Serializable]\npublic class B {\n    [HttpGet]\n    public void Get() {}\n}\n";
        let symbols = outline_extractor()(Path::new("B.cs"), csharp);
        let lines: Vec<_> = symbols.iter().map(|s| (s.name.as_str(), s.line)).collect();
        assert_eq!(lines, [("B", 2), ("Get", 4)]);
        let typescript = "@Component({\n  selector: 'c',\n})\nexport class C {\n  @Input()\n  name: string;\n\n  \
                          @HostListener('click')\n  onClick(): void {}\n}\n";
        let symbols = outline_extractor()(Path::new("c.ts"), typescript);
        let lines: Vec<_> = symbols.iter().map(|s| (s.name.as_str(), s.line)).collect();
        assert_eq!(lines, [("C", 4), ("name", 6), ("onClick", 9)]);
    }

    /// Symbol search finds every field a class or struct declares, and every name a Python
    /// module or class body binds, though the views list only their API's: `private static final
    /// long serialVersionUID` and `DEFAULT_CAPACITY` were found by grep alone, and so were a Rust
    /// struct's fields without `pub`, TypeScript's `private` and `#private` fields, a Python
    /// module's `_PRIVATE`, a Go struct's unexported fields, a C++ class's private data and a
    /// Ruby class's `private` `attr_reader`. Each once, at the line that names it.
    /// Code without a grammar is searched for what its views list: a Kotlin constant, a shell
    /// function in `name() {` form, which the keyword regex did not find.
    #[test]
    fn code_without_a_grammar_has_the_symbols_its_views_list() {
        let names = |path: &str, text: &str| -> Vec<(String, u32)> {
            outline_extractor()(Path::new(path), text).into_iter().map(|s| (s.name, s.line)).collect()
        };
        let kotlin = "object Limits {\n    const val LIMIT = 3\n    fun check() {}\n}\n";
        let expected = [("Limits", 1), ("LIMIT", 2), ("check", 3)].map(|(n, l)| (n.to_string(), l));
        assert_eq!(names("Limits.kt", kotlin), expected);
        let shell = "usage() {\n  echo x\n}\n";
        assert_eq!(names("run.sh", shell), [("usage".to_string(), 1)]);
    }

    /// Asserts the symbols a search finds in `text`, read as the file `path`: name, kind, line.
    fn expect(path: &str, text: &str, expected: &[(&str, &str, u32)]) {
        let symbols = outline_extractor()(Path::new(path), text);
        let found: Vec<(&str, &str, u32)> =
            symbols.iter().map(|s| (s.name.as_str(), s.kind.as_str(), s.line)).collect();
        assert_eq!(found, expected, "{path}");
    }

    #[test]
    fn private_fields_are_symbols() {
        let java = "class A {\n    protected int a;\n    private static final int B = 1;\n    static int c, d;\n    \
                    @Deprecated\n    private final String e = \"\";\n    void f() { int local = 0; }\n}\n";
        let (class, field, method) = ("class", "field", "method");
        expect(
            "A.java",
            java,
            &[
                ("A", class, 1),
                ("a", field, 2),
                ("f", method, 7),
                ("B", field, 3),
                ("c", field, 4),
                ("d", field, 4),
                ("e", field, 6),
            ],
        );
        let csharp = "class G {\n    public int h;\n    private int i;\n    int j;\n}\n";
        expect("G.cs", csharp, &[("G", class, 1), ("h", field, 2), ("i", field, 3), ("j", field, 4)]);
        let rust = "struct S {\n    pub a: i32,\n    zqpriv: i32,\n}\n";
        expect("s.rs", rust, &[("S", "struct", 1), ("a", field, 2), ("zqpriv", field, 3)]);
        let typescript = "class C {\n  pub = 0;\n  private zqTsPriv = 1;\n  #zqHash = 2;\n  private m() {}\n}\n";
        let expected =
            [("C", class, 1), ("pub", field, 2), ("m", method, 5), ("zqTsPriv", field, 3), ("#zqHash", field, 4)];
        expect("c.ts", typescript, &expected);
        expect("d.js", "class D {\n  #h = 1;\n  v = 2;\n}\n", &[("D", class, 1), ("v", field, 3), ("#h", field, 2)]);
        // A function's locals are no definitions; a chain's names are each found once.
        let python = "_PRIV_ZQ = 1\n_cache = _alias = {}\nPUBLIC = 2\n\nclass K:\n    _x_zq = 1\n    y = 2\n\n\
                      def f():\n    _local = 3\n";
        let expected = [
            ("PUBLIC", "const", 3),
            ("K", class, 5),
            ("y", field, 7),
            ("f", "fn", 9),
            ("_PRIV_ZQ", "const", 1),
            ("_cache", "var", 2),
            ("_alias", "var", 2),
            ("_x_zq", field, 6),
        ];
        expect("m.py", python, &expected);
        let go = "package p\n\ntype T struct {\n\tExported int\n\tzqgofield, Both int\n}\n";
        let expected =
            [("p", "mod", 1), ("T", "struct", 3), ("Exported", field, 4), ("Both", field, 5), ("zqgofield", field, 5)];
        expect("t.go", go, &expected);
        let cpp = "class Q {\n    int a;\npublic:\n    int b;\nprivate:\n    int c;\n    void helper();\n};\n";
        expect(
            "q.cpp",
            cpp,
            &[("Q", class, 1), ("b", field, 4), ("helper", method, 7), ("a", field, 2), ("c", field, 6)],
        );
        let ruby = "class R\n  attr_reader :pub\n  private attr_reader :wrapped\n  private\n  attr_reader :sec\n  \
                    def hidden; end\nend\n";
        let expected =
            [("R", class, 1), ("pub", field, 2), ("hidden", method, 6), ("wrapped", field, 3), ("sec", field, 5)];
        expect("r.rb", ruby, &expected);
    }

    /// The types a function declares in its body are found, where the views list them, with
    /// their members: a Java method's local record and class, a Go test's `type testCase struct`
    /// and a C function's `struct edit_entry` were found by grep alone.
    #[test]
    fn types_declared_in_functions_are_symbols() {
        let java = "class A {\n    void m() {\n        record P(int x) {}\n        class Local {\n            \
                    int f() { return 1; }\n        }\n    }\n}\n";
        let (class, method) = ("class", "method");
        expect(
            "A.java",
            java,
            &[("A", class, 1), ("m", method, 2), ("P", class, 3), ("Local", class, 4), ("f", method, 5)],
        );
        let go = "package p\n\nfunc TestSplit(t *testing.T) {\n\ttype testCase struct {\n\t\tIn string\n\t}\n\t\
                  tests := []testCase{}\n\t_ = tests\n}\n";
        expect(
            "p_test.go",
            go,
            &[("p", "mod", 1), ("TestSplit", "fn", 3), ("testCase", "struct", 4), ("In", "field", 5)],
        );
        let c = "int count(void) {\n    struct edit_entry {\n        int id;\n    };\n    return 0;\n}\n";
        expect("count.c", c, &[("count", "fn", 1), ("edit_entry", "struct", 2), ("id", "field", 3)]);
        // A type defined in a declaration, at the file's level, in a function or as a member,
        // with the variable or field declared of it, which is no type.
        let c = "struct seen { int id; } *table;\n\nvoid f(void) {\n    struct inner { int x; } *t = 0;\n}\n\n\
                 struct packet {\n    struct hdr { int len; } *h;\n};\n";
        let expected = [
            ("seen", "struct", 1),
            ("table", "var", 1),
            ("id", "field", 1),
            ("f", "fn", 3),
            ("inner", "struct", 4),
            ("t", "var", 4),
            ("x", "field", 4),
            ("packet", "struct", 7),
            ("hdr", "struct", 8),
            ("h", "field", 8),
            ("len", "field", 8),
        ];
        expect("seen.c", c, &expected);
    }

    /// A function's nested named functions are found, as a Rust function's nested `fn` is; a
    /// function value bound to a local is a local.
    #[test]
    fn nested_functions_are_symbols() {
        let python = "def outer():\n    def helper():\n        pass\n    return helper\n";
        expect("n.py", python, &[("outer", "fn", 1), ("helper", "fn", 2)]);
        let javascript = "function outer() {\n  function helper() {}\n  const local = () => {};\n  return helper;\n}\n";
        expect("n.js", javascript, &[("outer", "fn", 1), ("helper", "fn", 2)]);
        expect("n.ts", javascript, &[("outer", "fn", 1), ("helper", "fn", 2)]);
    }

    #[test]
    fn globs_are_anchored_where_the_caller_is() {
        let anchored = |below, glob| anchored(below, glob).expect("inside the project");
        assert_eq!(anchored("package", "src/**"), "package/src/**");
        assert_eq!(anchored("pkg", "*/c.ts"), "pkg/*/c.ts");
        assert_eq!(anchored("pkg/a", "../shared/*.ts"), "pkg/shared/*.ts");
        assert_eq!(anchored("pkg", "./src/*.ts"), "pkg/src/*.ts");
        assert_eq!(anchored("pkg", "../x/*.ts"), "x/*.ts");
        assert_eq!(anchored("", "./src/*.ts"), "src/*.ts");
        assert_eq!(anchored("app/[id]", "src/*.ts"), "app/[[]id[]]/src/*.ts");
        for unanchored in ["*.ts", "**/src/*.ts"] {
            assert_eq!(anchored("pkg", unanchored), unanchored);
        }
        // `..` inside a glob is taken as it would be at its start (it matched nothing, silently).
        assert_eq!(anchored("", "src/../setup.py"), "/setup.py");
        assert_eq!(anchored("pkg", "../setup.py"), "/setup.py");
        assert_eq!(anchored("pkg", "a/b/../../c/*.ts"), "pkg/c/*.ts");
        assert_eq!(anchored("pkg", "src//./x.ts"), "pkg/src/x.ts");
        assert_eq!(super::anchored("", "src/../../x.py"), Err(Unanchored::AboveRoot));
        assert_eq!(super::anchored("pkg", "*/../x.py"), Err(Unanchored::AfterWildcard));
    }

    #[test]
    fn globs_outside_the_project_are_refused_and_absolute_ones_inside_anchored_where_searched() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap().join("proj");
        std::fs::create_dir_all(root.join("pkg/src")).unwrap();
        std::fs::create_dir_all(root.join("lib")).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&root, &link).unwrap();
        let at = |path: &Path| format!("{}", path.display());
        let in_project = |within: Option<&Path>, below, glob: &str| in_project(&root, within, below, glob);
        let pkg = root.join("pkg");
        assert_eq!(in_project(None, Some("pkg"), &format!("{}/lib/*.js", at(&root))).unwrap(), "/lib/*.js");
        assert_eq!(in_project(None, None, &format!("{}/*.js", at(&root))).unwrap(), "/*.js");
        assert_eq!(in_project(Some(&pkg), None, &format!("{}/src/*.ts", at(&pkg))).unwrap(), "/src/*.ts");
        assert_eq!(in_project(None, None, &format!("{}/pkg/src/*.ts", at(&link))).unwrap(), "/pkg/src/*.ts");
        assert_eq!(in_project(None, None, &format!("{}/pkg/src", at(&root))).unwrap(), "/pkg/src");
        // Through a link into a directory that does not exist yet; `..` taken before the check.
        assert_eq!(in_project(None, None, &format!("{}/pkg/new/*.ts", at(&link))).unwrap(), "/pkg/new/*.ts");
        assert_eq!(in_project(None, None, &format!("{}/pkg/../lib/*.js", at(&root))).unwrap(), "/lib/*.js");
        let refused = |within: Option<&Path>, below, glob: &str, why: &str| {
            let err = in_project(within, below, glob).unwrap_err();
            assert!(err.message.contains(&format!("the glob `{glob}` {why}")), "{glob}: {err}");
        };
        refused(None, Some("pkg"), "../../x/*.ts", "climbs above the project");
        refused(None, None, "../other/**/*.py", "climbs above the project");
        refused(None, None, "/work/other/*.ts", &format!("names files outside the project {}", at(&root)));
        refused(None, None, &format!("{}x/*.ts", at(&root)), "names files outside the project");
        refused(None, None, &format!("{}/src/../../other/*.ts", at(&root)), "names files outside the project");
        refused(Some(&pkg), None, &format!("{}/lib/*.js", at(&root)), "names files outside the path searched");
        refused(None, None, &at(&root), "names the directory searched");
    }

    #[test]
    fn prose_holds_no_symbols_and_code_without_a_grammar_does() {
        let prose = "The Flask object\n================\n\nclass that represents the app.\n";
        for path in ["docs/api.rst", "NOTES.txt", "README", "guide.adoc"] {
            assert!(outline_extractor()(Path::new(path), prose).is_empty(), "{path}");
        }
        let kotlin = "class Cart(val items: List<Item>)\nfun total(cart: Cart): Int = 0\n";
        let names: Vec<String> =
            outline_extractor()(Path::new("Cart.kt"), kotlin).into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["Cart", "total"]);
        let script = "#!/usr/bin/env python3\ndef deploy(target):\n    pass\n";
        let names: Vec<String> =
            outline_extractor()(Path::new("bin/deploy"), script).into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["deploy"]);
        let vagrant = "def configure_box(config)\nend\n";
        let names: Vec<String> =
            outline_extractor()(Path::new("Vagrantfile"), vagrant).into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["configure_box"]);
    }

    /// A script without an extension is read as its `#!` line says, as its views read it: a
    /// shell script's `name() {` functions, which no keyword starts, and a Ruby script's methods
    /// under their class were not found.
    #[test]
    fn a_script_without_an_extension_is_read_by_its_shebang() {
        let symbols = |path: &str, text: &str| -> Vec<(String, Option<String>)> {
            outline_extractor()(Path::new(path), text).into_iter().map(|s| (s.name, s.owner)).collect()
        };
        let shell = "#!/usr/bin/env bash\nset -eu\nusage() {\n  exit 2\n}\nmain() {\n  usage\n}\nmain \"$@\"\n";
        assert_eq!(symbols("bin/release", shell), [("usage".to_string(), None), ("main".to_string(), None)]);
        let ruby = "#!/usr/bin/env ruby\nclass CLI < Thor\n  def cut(version)\n  end\nend\n";
        assert_eq!(
            symbols("bin/thor", ruby),
            [("CLI".to_string(), None), ("cut".to_string(), Some("CLI".to_string()))]
        );
    }

    #[test]
    fn each_name_of_a_declaration_of_several_is_a_symbol() {
        let python = "MIN_WIDTH, MAX_WIDTH = 80, 3840\nDEFAULT_WIDTH = DEFAULT_HEIGHT = 1024\n";
        let go = "package p\n\nvar Alpha, Beta = 1, 2\n\ntype Pair[K comparable, V any] struct{}\n";
        let names = |path: &str, text: &str| -> Vec<(String, u32)> {
            outline_extractor()(Path::new(path), text).into_iter().map(|s| (s.name, s.line)).collect()
        };
        let python = names("sizes.py", python);
        for (name, line) in [("MIN_WIDTH", 1), ("MAX_WIDTH", 1), ("DEFAULT_WIDTH", 2), ("DEFAULT_HEIGHT", 2)] {
            assert!(python.contains(&(name.to_string(), line)), "{name}: {python:?}");
        }
        let go = names("pair.go", go);
        for (name, line) in [("Alpha", 3), ("Beta", 3), ("Pair", 5)] {
            assert!(go.contains(&(name.to_string(), line)), "{name}: {go:?}");
        }
    }

    #[test]
    fn definitions_inside_macro_invocations_are_symbols() {
        let text = "cfg_net! {\n    pub struct TcpStream {\n        io: u8,\n    }\n\n    impl TcpStream {\n        pub async fn connect() {}\n    }\n}\n";
        let symbols = outline_extractor()(Path::new("tcp.rs"), text);
        let lines: Vec<_> = symbols.iter().map(|s| (s.name.as_str(), s.line)).collect();
        assert!(lines.contains(&("TcpStream", 2)), "{lines:?}");
        assert!(lines.contains(&("connect", 7)), "{lines:?}");
    }

    #[test]
    fn broad_roots_are_indexed_only_when_listed() {
        let config = Config::default();
        let e = refuse_broad_root(Path::new("/"), &config, Broad::Indexing).unwrap_err();
        assert_eq!(e.kind, ErrorKind::PermissionDenied);
        assert!(e.message.contains("filesystem root") && e.message.contains("index_broad_roots /"), "{e}");
        if let Some(home) = std::env::home_dir().and_then(|h| h.canonicalize().ok()) {
            let e = refuse_broad_root(&home, &config, Broad::Searching).unwrap_err();
            assert!(e.message.contains("your home directory") && e.message.contains("Search from inside"), "{e}");
            let listed = Config { index_broad_roots: vec![home.display().to_string()], ..Config::default() };
            assert!(refuse_broad_root(&home, &listed, Broad::Searching).is_ok());
        }
        let project = tempfile::tempdir().unwrap();
        assert!(refuse_broad_root(&project.path().canonicalize().unwrap(), &config, Broad::Indexing).is_ok());
    }

    #[test]
    fn zero_or_too_many_results_are_refused_and_unset_is_the_default() {
        assert_eq!(max_results(None, "50").unwrap(), None);
        assert_eq!(max_results(Some(7), "50").unwrap(), Some(7));
        let e = max_results(Some(0), "50").unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument);
        assert!(e.message.contains("max_results 0 is out of range: use 1 to 10000"), "{e}");
        assert_eq!(max_results(Some(lean_ctx_common::limits::MAX_RESULTS), "50").unwrap(), Some(10_000));
        let e = max_results(Some(u32::MAX), "50").unwrap_err();
        assert!(e.message.contains("max_results 4294967295 is out of range: use 1 to 10000"), "{e}");
    }

    /// A member defined outside its owner is found by its own name: express's `exports.compileETag
    /// = function` and `app.lazyrouter = function`, a Go method in another file than its type and
    /// a C++ method defined outside its class were found only by the whole `exports.compileETag`
    /// or `Template.Execute`, so `compileETag` and `Template::Execute` found nothing.
    #[test]
    fn members_defined_outside_their_owner_are_named_by_their_own_name() {
        let owned = |path: &str, text: &str| -> Vec<(Option<String>, String, u32)> {
            outline_extractor()(Path::new(path), text).into_iter().map(|s| (s.owner, s.name, s.line)).collect()
        };
        let member = |owner: &str, name: &str, line: u32| (Some(owner.to_string()), name.to_string(), line);
        let js = "exports.compileETag = function(val) {\n  return val;\n};\n\napp.lazyrouter = function lazyrouter() \
                  {};\n\nRouter.prototype.route = function (path) {};\n\nmodule.exports.parse = function () {};\n";
        let expected = [
            member("exports", "compileETag", 1),
            member("app", "lazyrouter", 5),
            member("Router", "route", 7),
            member("exports", "parse", 9),
        ];
        assert_eq!(owned("lib/utils.js", js), expected);
        // Each alias of a chain at the line it is assigned on.
        let aliased = "res.contentType =\nres.type = function contentType(type) {};\n\na.x =\n  a.y =\n  a.z =\n  \
                       function () {\n    return 1;\n  };\nres.send = res.json = function send(body) {};\n";
        let expected = [
            member("res", "contentType", 1),
            member("res", "type", 2),
            member("a", "x", 4),
            member("a", "y", 5),
            member("a", "z", 6),
            member("res", "send", 10),
            member("res", "json", 10),
        ];
        assert_eq!(owned("response.js", aliased), expected);
        let go = "package template\n\nfunc (t *Template) Execute(w io.Writer) error { return nil }\n";
        assert_eq!(owned("exec.go", go), [(None, "template".to_string(), 1), member("Template", "Execute", 3)]);
        let cpp = "void Widget::draw() {}\nWidget::~Widget() {}\nbool operator==(A a, A b) { return true; }\n";
        let found = owned("widget.cpp", cpp);
        assert_eq!(found[..2], [member("Widget", "draw", 1), member("Widget", "~Widget", 2)], "{found:?}");
        let ruby = "class Utils\n  def self.escape(s)\n    s\n  end\nend\n";
        assert_eq!(owned("utils.rb", ruby), [(None, "Utils".to_string(), 1), member("Utils", "escape", 2)]);
        // So is one in `class << self`: the class's or module's, as `def self.x` is.
        let singleton = "module Util\n  class << self\n    def snake_case(s)\n    end\n  end\nend\n\
                         class << Config\n  def load\n  end\nend\n";
        let found = owned("util.rb", singleton);
        assert!(found.contains(&member("Util", "snake_case", 3)), "{found:?}");
        assert!(found.contains(&member("Config", "load", 8)), "{found:?}");
        // Names that are no path to a member keep their owner as the outline gives it.
        assert_eq!(defined_outside("fmt::Display for Item"), None);
        assert_eq!(defined_outside("res.contentType = res.type"), None);
        assert_eq!(defined_outside("a.b.c"), Some(("b", "c")));
    }

    /// A qualified name as a stack trace or the docs write it finds the member when its owner's
    /// path is the one the file nests it in, and says so when the path names another owner:
    /// `Thor::Util.snake_case` found nothing (it was read as the name `Util.snake_case` of an
    /// owner `Thor`), nor did `Thor::Util#snake_case`, and `Other::Util.snake_case` was
    /// answered with `Thor::Util`'s method as if that were what was asked for.
    #[test]
    fn a_qualified_name_finds_the_member_its_owners_path_nests() {
        let project = tempfile::tempdir().unwrap();
        let files = [
            (
                "lib/thor/util.rb",
                "module Thor\n  module Util\n    def self.snake_case(s)\n    end\n\n    def camel_case(s)\n    \
                 end\n  end\nend\n",
            ),
            ("lib/thor/shell.rb", "module Thor::Shell\n  def self.snake_case(s)\n  end\nend\n"),
            (
                "src/lib.rs",
                "mod inner {\n    pub struct Type;\n    impl Type {\n        pub fn method() {}\n    }\n}\n",
            ),
            ("src/widget.cpp", "namespace ns {\nclass Widget {\n public:\n  void draw() {}\n};\n}\n"),
            (
                "src/Shop/Cart.php",
                "<?php\nnamespace Shop;\n\nclass Cart {\n    public function total() {}\n}\n\nfunction helper() {}\n",
            ),
            (
                "src/Models.php",
                "<?php\nnamespace App\\Models {\nclass Order {\n    public function total() {}\n}\n}\nnamespace {\n\
                 function boot() {}\n}\n",
            ),
        ];
        for (path, text) in files {
            let path = project.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let cache = tempfile::tempdir().unwrap();
        let mut config = SearchConfig::new(cache.path());
        config.build_on_search = false;
        config.extractor = outline_extractor();
        let engine = SearchEngine::new(config);
        let found = |pattern: &str| {
            let result = engine.search(&SearchRequest::new(project.path(), Action::Symbol, pattern)).unwrap();
            let at = result.matches.iter().map(|m| format!("{}:{}", m.path, m.line)).collect::<Vec<_>>();
            (at, result.note.unwrap_or_default())
        };
        let nowhere = "was found in a type or module named";
        for (pattern, at) in [
            ("Thor::Util.snake_case", "lib/thor/util.rb:3"),
            ("Thor::Util#snake_case", "lib/thor/util.rb:3"),
            ("Util.snake_case", "lib/thor/util.rb:3"),
            ("Thor::Util#camel_case", "lib/thor/util.rb:6"),
            ("Thor::Shell.snake_case", "lib/thor/shell.rb:2"),
            ("crate::inner::Type::method", "src/lib.rs:4"),
            ("inner::Type::method", "src/lib.rs:4"),
            ("ns::Widget::draw", "src/widget.cpp:4"),
            ("Shop\\Cart::total", "src/Shop/Cart.php:5"),
            ("\\Shop\\Cart::total", "src/Shop/Cart.php:5"),
            ("Shop\\Cart", "src/Shop/Cart.php:4"),
            ("Shop\\helper", "src/Shop/Cart.php:8"),
            ("App\\Models\\Order::total", "src/Models.php:4"),
            ("Models\\Order", "src/Models.php:3"),
            ("boot", "src/Models.php:8"),
        ] {
            let (got, note) = found(pattern);
            assert_eq!(got, [at], "{pattern}: {note}");
            assert!(!note.contains(nowhere), "{pattern}: {note}");
        }
        // Another owner of that name: every definition of the name, saying the owner has none.
        for (pattern, owner) in [
            ("Other::Util.snake_case", "Other::Util"),
            ("crate::outer::Type::method", "crate::outer::Type"),
            ("other::Widget::draw", "other::Widget"),
            ("Other\\Cart::total", "Other\\Cart"),
            ("Other\\Order::total", "Other\\Order"),
        ] {
            let (_, note) = found(pattern);
            assert!(note.contains(&format!("{nowhere} `{owner}`")), "{pattern}: {note}");
        }
    }

    #[test]
    fn re_exports_are_not_symbols() {
        let symbols =
            outline_extractor()(Path::new("index.ts"), "export { Store } from './store';\nexport function open() {}\n");
        let names: Vec<_> = symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["open"]);
    }

    /// A name an export list gives is defined there: `export { A as B }` made `B` public and no
    /// symbol search found it, nor `export { A as B } from './m'` (a QA pass).
    #[test]
    fn a_name_an_export_list_gives_is_a_symbol() {
        let text = "function parse() {}\ntype Opts = {};\nexport {\n  parse as parseArgs,\n  parse,\n  Opts as default,\n};\n\
                    export type { Opts as ParseOptions };\nexport { parse as reparse } from './other';\n";
        let symbols = outline_extractor()(Path::new("index.ts"), text);
        let found: Vec<_> = symbols.iter().map(|s| (s.name.as_str(), s.kind.as_str(), s.line)).collect();
        let export = Kind::Export.label();
        assert_eq!(
            found,
            [
                ("parse", Kind::Function.label(), 1),
                ("Opts", Kind::TypeAlias.label(), 2),
                ("parseArgs", export, 4),
                ("ParseOptions", export, 8),
                ("reparse", export, 9)
            ]
        );
    }

    /// A CommonJS export given a value computed or written in its module defines it there: zod's
    /// `exports.ZodIssueCode = util_1.util.arrayToEnum([…])` was listed by the map and found by no
    /// symbol search. What is defined elsewhere (`require(…)`) or under its own name in the file
    /// (`exports.ZodError = ZodError`) stays out, as any re-export.
    #[test]
    fn a_commonjs_export_of_a_value_made_here_is_a_symbol() {
        let text = "\"use strict\";\nexports.ZodIssueCode = exports.quoteless = void 0;\nconst util_1 = require(\"./util\");\n\
                    exports.ZodIssueCode = util_1.util.arrayToEnum([\n    \"invalid_type\",\n]);\n\
                    exports.NONE = -1;\nexports.query = require(\"./query\");\nclass ZodError {}\n\
                    exports.ZodError = ZodError;\nmodule.exports.version = \"3.23.8\";\n\
                    exports.viaCall = require('./x')();\nexports.viaNew = new Map();\n\
                    exports.fromX = require('./x').x;\nexports.cut = require(\n  './y');\n\
                    module.exports.MODE = process.env.MODE || 'dev';\n\
                    exports.LegacyError = ZodError;\n";
        let symbols = outline_extractor()(Path::new("lib/ZodError.js"), text);
        let found: Vec<_> = symbols.iter().map(|s| (s.name.as_str(), s.line, s.owner.as_deref())).collect();
        let expected = [
            ("ZodIssueCode", 4, None),
            ("NONE", 7, None),
            ("ZodError", 9, None),
            ("version", 11, None),
            ("viaCall", 12, None),
            ("viaNew", 13, None),
            ("MODE", 17, None),
            // Another name for a value: the alias is this module's own (s11qb: commander's
            // `exports.InvalidOptionArgumentError = InvalidArgumentError` was found by no search).
            ("LegacyError", 18, None),
        ];
        assert_eq!(found, expected);
    }

    /// Each name of a declaration written over several lines is at the line that names it
    /// (s11qb: commander's `export const {` put all eleven names at its first line).
    #[test]
    fn each_name_of_a_declaration_over_several_lines_is_at_its_own_line() {
        let text = "import commander from './index.js';\n\nexport const {\n  program,\n  // a note naming Help\n  \
                    createCommand, Help,\n  InvalidOptionArgumentError, // deprecated old name\n} = commander;\n";
        let symbols = outline_extractor()(Path::new("esm.mjs"), text);
        let found: Vec<_> = symbols.iter().map(|s| (s.name.as_str(), s.line)).collect();
        assert_eq!(found, [("program", 4), ("createCommand", 6), ("Help", 6), ("InvalidOptionArgumentError", 7)]);
    }
}
