//! The reading component: ctx_read's modes, session-exact stubs, diffs of
//! changed files, and the never-inflate rule.
//!
//! Every request reads and hashes the file (BLAKE3 runs at gigabytes per
//! second; a 1,000-line file costs microseconds), so no decision ever rests
//! on a stale mtime or a watcher that missed an event. Caches are keyed by
//! content hash and therefore cannot be stale either.

mod cache;
mod deliveries;
mod load;
pub mod mode;
mod outline_view;
mod views;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

pub use cache::{Cache, Slot};
pub use deliveries::Deliveries;
pub use load::{Loaded, line_count, load};
use mode::Mode;
use outline_view::DegradedLog;

use crate::engine::config::Config;
use crate::engine::error::{EngineError, EngineResult};
use crate::engine::project::Scope;
use crate::engine::tokens::Tokens;

/// Files at most this many tokens are sent whole in `auto` mode.
const AUTO_FULL_TOKENS: usize = 2_000;
/// Text without an outline is sent whole in `auto` mode up to this size.
const AUTO_TEXT_TOKENS: usize = 8_000;
/// Lines sent of a large file without an outline in `auto` mode.
const AUTO_HEAD_LINES: u32 = 200;

/// What the caller asked for (the reference's ctx_read parameters).
#[derive(Debug, Default, Clone)]
pub struct ReadParams {
    pub paths: Vec<String>,
    pub mode: String,
    pub fresh: bool,
    pub start_line: Option<u32>,
    pub limit: Option<u32>,
}

/// One file's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    pub path: String,
    pub mode: String,
    pub content: String,
    pub raw_tokens: u64,
    pub sent_tokens: u64,
    pub stub: bool,
    pub language: String,
    pub lines: u32,
    pub content_hash: String,
    pub note: String,
}

/// Counters until the ledger (memory issue) records each read.
#[derive(Default)]
pub struct ReadStats {
    pub reads: AtomicU64,
    pub stubs: AtomicU64,
    pub raw_tokens: AtomicU64,
    pub sent_tokens: AtomicU64,
}

pub struct Reader {
    pub cache: Cache,
    pub deliveries: Deliveries,
    pub stats: ReadStats,
    degraded: DegradedLog,
}

impl Reader {
    pub fn new(cache_bytes: usize) -> Reader {
        Reader {
            cache: Cache::new(cache_bytes),
            deliveries: Deliveries::default(),
            stats: ReadStats::default(),
            degraded: DegradedLog::default(),
        }
    }

    /// Reads every path of `params`. With several paths, a file that cannot
    /// be read yields an error entry and the others are still served.
    pub fn read(
        &self,
        tokens: &Tokens,
        config: &Config,
        scope: &Scope,
        session: &str,
        params: &ReadParams,
    ) -> EngineResult<Vec<Result<View, EngineError>>> {
        if params.paths.is_empty() {
            return Err(EngineError::invalid("no path given; pass path or paths"));
        }
        let mode = match (params.start_line, params.limit) {
            (Some(start), limit) => Mode::window(start, limit.unwrap_or(u32::MAX))?,
            (None, Some(limit)) => Mode::window(1, limit)?,
            (None, None) => Mode::parse(&params.mode)?,
        };
        self.cache.set_budget(usize::try_from(config.cache_bytes).unwrap_or(usize::MAX));
        let views: Vec<_> = params
            .paths
            .iter()
            .map(|p| {
                let path = scope.resolve_existing(p)?;
                let loaded = load(&path, config.max_read_bytes)?;
                self.view(tokens, scope, session, &loaded, &mode, params.fresh)
            })
            .collect();
        if params.paths.len() == 1 {
            // A single path answers with its error as the status.
            if let Some(Err(e)) = views.first() {
                return Err(e.clone());
            }
        }
        Ok(views)
    }

    /// Chooses and renders the view of one loaded file.
    pub fn view(
        &self,
        tokens: &Tokens,
        scope: &Scope,
        session: &str,
        file: &Loaded,
        asked: &Mode,
        fresh: bool,
    ) -> EngineResult<View> {
        let shown = scope.display(&file.path);
        let name = file.path.file_name().map_or_else(|| shown.clone(), |n| n.to_string_lossy().into_owned());
        let language = outline_view::language_of(&file.path);
        let language_name = language.map_or("text", |l| l.name());
        let raw_tokens = tokens.count(&file.text);
        let had = self.deliveries.complete(session, &file.path);

        let (mode, mut note) = match asked {
            Mode::Auto => auto_mode(raw_tokens, language.is_some(), file.lines),
            other => (other.clone(), String::new()),
        };
        let stub_allowed = matches!(asked, Mode::Full | Mode::Lines(_) | Mode::Diff | Mode::Auto);
        let mut render = if !fresh && stub_allowed && had == Some(file.hash) {
            Rendered { text: views::stub(&name, file.lines), complete: true, stub: true, mode: mode.clone() }
        } else {
            let ctx = FileCtx { tokens, shown: &shown, file, had, raw_tokens, language, fresh };
            let render = self.render(&ctx, &mode, &mut note)?;
            if !render.is_empty_outline() {
                render
            } else if *asked == Mode::Auto {
                // A file without definitions (a barrel of re-exports, a script
                // of statements) has an empty map: auto treats it as text.
                let (mode, text_note) = auto_mode(raw_tokens, false, file.lines);
                note = match text_note.strip_prefix("auto: ") {
                    Some(why) => format!("auto: no definitions found; {why}"),
                    None => format!("auto: no definitions found → {}", mode.name()),
                };
                self.render(&ctx, &mode, &mut note)?
            } else {
                note = format!(
                    "no definitions found in {shown} ({} lines): mode=full or lines:N-M shows the content",
                    file.lines
                );
                render
            }
        };
        let mut sent = tokens.count(&render.text);
        if !render.stub && sent > raw_tokens {
            // Never inflate: a view costing more than the file is the file.
            note = format!(
                "{} would cost {sent} tokens, more than the file's {raw_tokens}: sent in full",
                render.mode.name()
            );
            render = Rendered::complete(file.text.to_string(), Mode::Full);
            sent = raw_tokens;
        }
        if render.complete {
            self.deliveries.record_complete(session, &file.path, file.hash);
            self.cache.put(file.hash, Slot::Content, file.text.clone());
        }
        self.stats.reads.fetch_add(1, Ordering::Relaxed);
        self.stats.stubs.fetch_add(u64::from(render.stub), Ordering::Relaxed);
        self.stats.raw_tokens.fetch_add(raw_tokens as u64, Ordering::Relaxed);
        self.stats.sent_tokens.fetch_add(sent as u64, Ordering::Relaxed);
        Ok(View {
            path: shown,
            mode: render.mode.name(),
            content: render.text,
            raw_tokens: raw_tokens as u64,
            sent_tokens: sent as u64,
            stub: render.stub,
            language: language_name.to_string(),
            lines: file.lines,
            content_hash: file.hash.to_hex().to_string(),
            note,
        })
    }

    /// Renders `mode` (not a stub); may set `note` to say why the view
    /// differs from the one asked for.
    fn render(&self, ctx: &FileCtx<'_>, mode: &Mode, note: &mut String) -> EngineResult<Rendered> {
        let FileCtx { tokens, shown, file, had, raw_tokens, language, fresh } = *ctx;
        let whole = || Rendered::complete(file.text.to_string(), Mode::Full);
        Ok(match mode {
            Mode::Full => match self.changed_as_diff(tokens, shown, file, had, raw_tokens, fresh) {
                Some(diff) => {
                    *note = "full re-read of a file changed since your last read: answered with a diff".into();
                    diff
                }
                None => whole(),
            },
            Mode::Lines(ranges) => {
                let (text, complete) = views::lines(&file.text, file.lines, ranges, shown)?;
                Rendered { text, complete, stub: false, mode: mode.clone() }
            }
            Mode::Diff if fresh => whole(),
            Mode::Diff => match self.base(had) {
                Some(old) => Rendered::complete(views::diff(shown, &old, &file.text), Mode::Diff),
                None => {
                    *note = "no earlier complete read of this file in this session: sent in full".into();
                    whole()
                }
            },
            Mode::Reference => {
                let language_name = language.map_or("text", |l| l.name());
                Rendered::lossy(views::reference(shown, file.lines, raw_tokens, language_name), Mode::Reference)
            }
            Mode::Signatures | Mode::Map | Mode::Aggressive => {
                let slot = match mode {
                    Mode::Signatures => Slot::Signatures,
                    Mode::Map => Slot::Map,
                    _ => Slot::Aggressive,
                };
                match language {
                    Some(lang) => Rendered::lossy(self.outline_text(slot, lang, file).to_string(), mode.clone()),
                    None => {
                        *note = format!("no outline for {shown} (unknown language): sent in full");
                        whole()
                    }
                }
            }
            Mode::Auto => unreachable!("auto_mode resolves auto before rendering"),
        })
    }

    /// The complete content a session had, if it is still cached.
    fn base(&self, had: Option<blake3::Hash>) -> Option<Arc<str>> {
        self.cache.get(had?, Slot::Content)
    }

    /// A full re-read of a file this session had in an older version is
    /// answered with a diff when that costs less than half the file.
    fn changed_as_diff(
        &self,
        tokens: &Tokens,
        shown: &str,
        file: &Loaded,
        had: Option<blake3::Hash>,
        raw_tokens: usize,
        fresh: bool,
    ) -> Option<Rendered> {
        if fresh || had == Some(file.hash) {
            return None;
        }
        let old = self.base(had)?;
        let text = format!(
            "[changed since your last read · diff below · fresh=true for the whole file]\n{}",
            views::diff(shown, &old, &file.text)
        );
        (tokens.count(&text) * 2 < raw_tokens).then(|| Rendered::complete(text, Mode::Diff))
    }

    fn outline_text(&self, slot: Slot, language: lean_ctx_outline::Language, file: &Loaded) -> Arc<str> {
        if let Some(hit) = self.cache.get(file.hash, slot) {
            return hit;
        }
        let text: Arc<str> = Arc::from(outline_view::render(slot, language, &file.text, &self.degraded));
        self.cache.put(file.hash, slot, text.clone());
        text
    }
}

/// The facts about one file that every renderer needs.
#[derive(Clone, Copy)]
struct FileCtx<'a> {
    tokens: &'a Tokens,
    shown: &'a str,
    file: &'a Loaded,
    had: Option<blake3::Hash>,
    raw_tokens: usize,
    language: Option<lean_ctx_outline::Language>,
    fresh: bool,
}

/// A rendered view and what it implies for the session's record.
struct Rendered {
    text: String,
    /// The session now holds the file's whole current content.
    complete: bool,
    stub: bool,
    mode: Mode,
}

impl Rendered {
    fn complete(text: String, mode: Mode) -> Self {
        Rendered { text, complete: true, stub: false, mode }
    }

    fn lossy(text: String, mode: Mode) -> Self {
        Rendered { text, complete: false, stub: false, mode }
    }

    /// An outline view without a definition (at most an imports line): it
    /// would hide the whole file.
    fn is_empty_outline(&self) -> bool {
        match self.mode {
            Mode::Signatures | Mode::Map => !lean_ctx_outline::lists_definitions(&self.text),
            Mode::Aggressive => self.text.trim().is_empty(),
            _ => false,
        }
    }
}

/// `auto`: small files whole; larger code as its map; larger text whole up
/// to a bound, then its head.
fn auto_mode(raw_tokens: usize, has_outline: bool, lines: u32) -> (Mode, String) {
    if raw_tokens <= AUTO_FULL_TOKENS {
        (Mode::Full, String::new())
    } else if has_outline {
        (Mode::Map, format!("auto: {raw_tokens} tokens → map; ask mode=full or lines:N-M for code"))
    } else if raw_tokens <= AUTO_TEXT_TOKENS {
        (Mode::Full, String::new())
    } else {
        let end = AUTO_HEAD_LINES.min(lines.max(1));
        (
            Mode::Lines(vec![(1, end)]),
            format!("auto: {raw_tokens} tokens of text → first {end} lines; ask lines:N-M for more"),
        )
    }
}
