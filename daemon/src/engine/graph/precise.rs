//! Precise mode of ctx_callgraph: the callers or callees of the definition the code graph found,
//! as the project's language server's call hierarchy gives them, level by level to the asked
//! depth, all under one deadline. Whenever the server cannot answer (not installed, still
//! starting, too slow, crashed, no function at the definition) the code graph's answer stands
//! and the reason goes with it.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lean_ctx_common::plural::count;
use lean_ctx_graph::{DefSummary, Edge, Label};
use lean_ctx_lsp::{Error, Item, Server, Site, kind_name};
use lean_ctx_outline::Language;

use super::callgraph::{Action, CallgraphAnswer, MAX_EDGES};
use crate::engine::Engine;
use crate::engine::config::Config;
use crate::engine::lsp_pool::{Family, Unavailable};

/// Which source answered a precise question.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Source {
    /// The language server asked (or looked for); empty when none applies.
    pub server: String,
    /// Why the answer is the code graph's; `None` when the server's edges are the answer.
    pub fallback: Option<String>,
}

impl Source {
    fn fallback(server: &str, why: impl Into<String>) -> Source {
        Source { server: server.to_string(), fallback: Some(why.into()) }
    }
}

/// The server family and LSP `languageId` of a language precise mode covers.
fn family(language: Language) -> Option<(Family, &'static str)> {
    match language {
        Language::Rust => Some(("rust", "rust")),
        Language::Python => Some(("python", "python")),
        Language::TypeScript => Some(("typescript", "typescript")),
        Language::Tsx => Some(("typescript", "typescriptreact")),
        Language::JavaScript => Some(("typescript", "javascript")),
        Language::Go => Some(("go", "go")),
        _ => None,
    }
}

fn command(config: &Config, family: Family) -> &[String] {
    match family {
        "rust" => &config.lsp_rust,
        "python" => &config.lsp_python,
        "typescript" => &config.lsp_typescript,
        _ => &config.lsp_go,
    }
}

/// Replaces the code graph's edges in `answer` with the language server's when it answers, and
/// records which source the answer is.
pub(super) fn apply(
    engine: &Engine,
    config: &Config,
    root: &Path,
    action: Action,
    depth: u32,
    answer: &mut CallgraphAnswer,
) {
    let source = match (action, answer.targets.as_slice()) {
        (Action::Trace, _) => {
            Source::fallback("", "precise mode covers callers and callees; a trace is the code graph's")
        }
        (_, []) => Source::fallback("", "no single definition to ask a language server about"),
        (_, targets) => match ask(engine, config, root, action, targets, depth) {
            Ok((server, walk)) => {
                answer.edges = walk.edges;
                answer.truncated = walk.truncated;
                answer.external_calls = walk.external_calls;
                if walk.per_line > 0 {
                    let note = format!(
                        "{server} gave {} without a column: each stands for its line, where the code graph counts \
                         every call",
                        count(walk.per_line as u64, "call site")
                    );
                    super::subject::add_note(&mut answer.note, note);
                }
                Source { server, fallback: None }
            }
            Err(source) => source,
        },
    };
    answer.source = Some(source);
}

/// The server's edges, or the fallback's reason.
fn ask(
    engine: &Engine,
    config: &Config,
    root: &Path,
    action: Action,
    targets: &[DefSummary],
    depth: u32,
) -> Result<(String, Walk), Source> {
    let language = Language::from_path(Path::new(&targets[0].file));
    let Some((family, language_id)) = language.and_then(family) else {
        let name = language.map_or("these", |l| l.name());
        return Err(Source::fallback("", format!("precise mode has no language server for {name} files")));
    };
    let command = command(config, family);
    let Some(program) = command.first() else {
        return Err(Source::fallback(
            "",
            format!("no language server is configured for {family} (lsp_{family} is empty)"),
        ));
    };
    let name = Path::new(program).file_name().map_or(program.clone(), |n| n.to_string_lossy().into_owned());
    let deadline = Duration::from_secs(config.lsp_deadline_secs);
    let idle_stop = Duration::from_secs(config.lsp_idle_stop_secs);
    let until = Instant::now() + deadline;
    let lease = match engine.lsp.lease(root, family, command, until, idle_stop) {
        Ok(lease) => lease,
        Err(Unavailable::Starting) => {
            return Err(Source::fallback(&name, format!("{name} is still starting; ask again in a moment")));
        }
        Err(Unavailable::Failed(Error::NotInstalled(program))) => {
            return Err(Source::fallback(
                &name,
                format!("{program} is not installed (looked for it on PATH; install it or set lsp_{family})"),
            ));
        }
        Err(Unavailable::Failed(e)) => return Err(Source::fallback(&name, why(&e, &name, deadline))),
    };
    let asker =
        Asker { server: &lease.server, root, language_id, until, texts: HashMap::new(), opened: HashSet::new() };
    match asker.walk(action, targets, depth) {
        Ok(Some(walk)) => Ok((name, walk)),
        Ok(None) => {
            let t = &targets[0];
            Err(Source::fallback(&name, format!("{name} finds no function at {}:{}", t.file, t.line)))
        }
        Err(e) => {
            let why = why(&e, &name, deadline);
            engine.lsp.failed(&lease, &why);
            Err(Source::fallback(&name, why))
        }
    }
}

/// The fallback's reason for a server's failure.
fn why(e: &Error, name: &str, deadline: Duration) -> String {
    match e {
        Error::Timeout(_) => format!("no answer from {name} within {}s", deadline.as_secs()),
        Error::Exited(last) => format!(
            "{name} exited before answering{}; it is started again on the next question",
            last.as_ref().map_or(String::new(), |last| format!(" ({last})"))
        ),
        Error::NotInstalled(_) | Error::Start(_) => e.to_string(),
        Error::Refused { .. } => format!("{name}: {e}"),
    }
}

#[derive(Debug, Default)]
struct Walk {
    edges: Vec<Edge>,
    truncated: bool,
    external_calls: u64,
    /// Edges whose site the server gave without a column (column 0: the line).
    per_line: usize,
}

/// One question's conversation with a server.
struct Asker<'a> {
    server: &'a Server,
    root: &'a Path,
    language_id: &'static str,
    until: Instant,
    /// Files this question has read, as they are now (`None`: unreadable).
    texts: HashMap<PathBuf, Option<String>>,
    /// Files this question has sent the server.
    opened: HashSet<PathBuf>,
}

impl Asker<'_> {
    /// The calls to `depth` levels; `None` when the server has no call hierarchy item at a target.
    fn walk(mut self, action: Action, targets: &[DefSummary], depth: u32) -> Result<Option<Walk>, Error> {
        let mut level = Vec::new();
        for target in targets {
            let path = self.root.join(&target.file);
            let Some(text) = self.open(&path)? else { return Ok(None) };
            let Some((line, character)) = position(&text, target) else { return Ok(None) };
            level.extend(self.server.prepare_call_hierarchy(&path, line, character, self.until)?);
        }
        if level.is_empty() {
            return Ok(None);
        }
        let mut seen: HashSet<(Option<PathBuf>, u32)> = level.iter().map(|i| (i.path.clone(), i.line)).collect();
        let mut walk = Walk::default();
        'levels: for d in 1..=depth {
            let mut next = Vec::new();
            for item in &level {
                let Some(this) = self.summary(item) else { continue };
                if let Some(path) = &item.path {
                    self.open(path)?;
                }
                let calls = match action {
                    Action::Callees => self.server.outgoing_calls(item, self.until)?,
                    _ => self.server.incoming_calls(item, self.until)?,
                };
                for call in calls {
                    // Outside the project (standard library, dependencies): no caller to show,
                    // and a callee the project does not define.
                    let Some(other) = self.summary(&call.item) else {
                        if action == Action::Callees {
                            walk.external_calls += call.sites.len().max(1) as u64;
                        }
                        continue;
                    };
                    let (file, caller, callee) = match action {
                        Action::Callees => (this.file.clone(), this.clone(), other.clone()),
                        _ => (other.file.clone(), other.clone(), this.clone()),
                    };
                    // A call at a module's top level has no calling function.
                    let caller = (!matches!(caller.kind.as_str(), "file" | "module")).then_some(caller);
                    for site in &call.sites {
                        let column = self.column(&file, *site);
                        // The server's doing only when it gave no column (a line not read is ours).
                        walk.per_line += usize::from(site.character.is_none());
                        let edge = Edge {
                            depth: d,
                            file: file.clone(),
                            line: site.line + 1,
                            column,
                            // Read from the code graph once the answer is whole (`callgraph`).
                            shares_line: false,
                            caller: caller.clone(),
                            callee: callee.clone(),
                            label: Label::Exact,
                            candidates: Vec::new(),
                        };
                        walk.edges.push(edge);
                    }
                    if seen.insert((call.item.path.clone(), call.item.line)) {
                        next.push(call.item);
                    }
                }
                if walk.edges.len() > MAX_EDGES {
                    walk.truncated = true;
                    break 'levels;
                }
            }
            level = next;
        }
        walk.edges.sort_by(|a, b| {
            let key = |e: &Edge| (e.depth, e.file.clone(), e.line, e.column, e.caller.clone(), e.callee.clone());
            key(a).cmp(&key(b))
        });
        walk.edges.dedup();
        walk.edges.truncate(MAX_EDGES);
        Ok(Some(walk))
    }

    /// Sends the server `path`'s current text once per question; `None` when it cannot be read.
    fn open(&mut self, path: &Path) -> Result<Option<String>, Error> {
        let Some(text) = self.read(path).map(str::to_string) else { return Ok(None) };
        if self.opened.insert(path.to_path_buf()) {
            self.server.open(path, self.language_id, &text)?;
        }
        Ok(Some(text))
    }

    /// `path`'s text, read once per question.
    fn read(&mut self, path: &Path) -> Option<&str> {
        let root = self.root;
        self.texts.entry(path.to_path_buf()).or_insert_with(|| super::read_project_file(root, path)).as_deref()
    }

    /// The 1-based column in characters, as the code graph counts its sites, of a site the server
    /// gives in UTF-16 code units on a line of `file` (root-relative); 0 when it gives no column
    /// or the line cannot be read.
    fn column(&mut self, file: &str, site: Site) -> u32 {
        let Some(character) = site.character else { return 0 };
        let line = self.read(&self.root.join(file)).and_then(|text| text.lines().nth(site.line as usize));
        line.map_or(0, |code| character_column(code, character))
    }

    /// An item as an answer shows it; `None` outside the project.
    fn summary(&self, item: &Item) -> Option<DefSummary> {
        let file = relative(self.root, item.path.as_deref()?)?;
        Some(DefSummary { file, line: item.line + 1, name: item.name.clone(), kind: kind_name(item.kind).to_string() })
    }
}

/// `path` relative to `root`, with `/` separators; `None` outside it.
fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = match path.strip_prefix(root) {
        Ok(rel) => rel.to_path_buf(),
        // Servers may report resolved paths where the project's root is reached through a symlink.
        Err(_) => path.strip_prefix(root.canonicalize().ok()?).ok()?.to_path_buf(),
    };
    Some(rel.to_string_lossy().replace('\\', "/"))
}

/// The 1-based column in characters of the UTF-16 offset `character` of `code`.
fn character_column(code: &str, character: u32) -> u32 {
    let mut units = 0;
    let before = code.chars().take_while(|c| {
        units += c.len_utf16() as u32;
        units <= character
    });
    before.count() as u32 + 1
}

/// The 0-based line and UTF-16 column of the definition's name on its line.
fn position(text: &str, target: &DefSummary) -> Option<(u32, u32)> {
    let line = target.line.checked_sub(1)?;
    let code = text.lines().nth(line as usize)?;
    let name = target.name.rsplit("::").next().unwrap_or(&target.name);
    let name = name.rsplit('.').next().unwrap_or(name);
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
    let at = code
        .match_indices(name)
        .map(|(i, _)| i)
        .find(|&i| !ident(code[..i].chars().next_back()) && !ident(code[i + name.len()..].chars().next()))?;
    Some((line, code[..at].encode_utf16().count() as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(line: u32, name: &str) -> DefSummary {
        DefSummary { file: "a.py".into(), line, name: name.into(), kind: "fn".into() }
    }

    #[test]
    fn the_position_is_the_name_as_a_whole_word_in_utf16_columns() {
        let text = "x = 1\ndef load_all(): pass\n    def load(self): é = load_all()\n";
        assert_eq!(position(text, &def(2, "load_all")), Some((1, 4)));
        assert_eq!(position(text, &def(3, "Store::load")), Some((2, 8)));
        assert_eq!(position("/* é */ fn go() {}", &def(1, "go")), Some((0, 11)));
        assert_eq!(position(text, &def(9, "load")), None);
    }

    #[test]
    fn a_servers_utf16_offset_is_the_graphs_character_column() {
        assert_eq!(character_column("    return target(1)", 11), 12);
        // `é` is one unit, `🎉` two: both one character.
        assert_eq!(character_column("é🎉 = target(1)", 6), 6);
        assert_eq!(character_column("", 0), 1);
    }
}
