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
pub use deliveries::{Deliveries, Held};
use lean_ctx_common::framing;
use lean_ctx_redact::MaskedLines;
pub use load::{Loaded, line_count, load};
use load::{load_window, over_limit};
use mode::Mode;
use outline_view::DegradedLog;

use crate::engine::cancel::{Cancel, Stop};
use crate::engine::config::Config;
use crate::engine::error::{EngineError, EngineResult, ErrorKind};
use crate::engine::guard::redaction::Redaction;
use crate::engine::project::Scope;
use crate::engine::session::SessionIn;
use crate::engine::surface::Surface;
use crate::engine::tokens::Tokens;

/// Files at most this many tokens are sent whole in `auto` mode.
const AUTO_FULL_TOKENS: usize = 2_000;
/// Text without an outline is sent whole in `auto` mode up to this size.
const AUTO_TEXT_TOKENS: usize = 8_000;
/// Lines sent of a large file without an outline in `auto` mode.
const AUTO_HEAD_LINES: u32 = 200;
/// Bytes of those lines sent at most (about [`AUTO_TEXT_TOKENS`] tokens): the head of a file of
/// long lines (a minified bundle, a JSON document on one line) must not be the whole file.
const AUTO_HEAD_BYTES: usize = 32_000;
/// Paths one read request may name. Each costs a load, a view and a ledger
/// record; a request naming a hundred thousand would hold a worker for
/// many seconds, far past any agent's use.
pub const MAX_READ_PATHS: usize = 1_000;
/// Bytes one read request may load, in files of the largest readable size
/// (`max_read_bytes`): enough for any answer a message can carry, while a
/// thousand large files cannot hold a worker for minutes.
pub const READ_BUDGET_FILES: u64 = 32;

/// What the caller asked for (the reference's ctx_read parameters).
#[derive(Debug, Default, Clone)]
pub struct ReadParams {
    pub paths: Vec<String>,
    pub mode: String,
    pub fresh: bool,
    pub start_line: Option<u32>,
    pub limit: Option<u32>,
    /// Flipped when the caller leaves: the read stops before its next file.
    pub cancel: Cancel,
    /// Who the notes and the stub's advice are worded for.
    pub surface: Surface,
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
    /// Instruction files delivered with this view (see `engine::guard`).
    pub rules: Vec<RuleText>,
    /// Secrets masked in `content`.
    pub redacted: u32,
}

/// An instruction file as delivered: where it is, why it applies, its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleText {
    pub path: String,
    pub why: String,
    pub body: String,
}

/// Counters for Status (the ledger records each read too).
#[derive(Default)]
pub struct ReadStats {
    pub reads: AtomicU64,
    pub stubs: AtomicU64,
    pub raw_tokens: AtomicU64,
    pub sent_tokens: AtomicU64,
}

/// What may refuse or stop a read: the user's rules for each path, and the
/// caller leaving or the request's deadline passing.
#[derive(Clone, Copy)]
pub struct Limits<'a> {
    pub permit: &'a dyn Fn(&std::path::Path) -> EngineResult<()>,
    pub stop: &'a Stop<'a>,
    /// Masks the secrets of what is shown (every view is made of the masked text).
    pub redaction: &'a Redaction,
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

    /// Reads every path of `params` that `limits.permit` lets through. With several
    /// paths, a file that cannot be read yields an error entry and the
    /// others are still served. `stop` is checked before each file: once the
    /// caller left the request fails (recording no delivery), once its
    /// deadline passed the remaining files get an error entry.
    pub fn read(
        &self,
        tokens: &Tokens,
        config: &Config,
        scope: &Scope,
        session: SessionIn<'_>,
        params: &ReadParams,
        limits: &Limits<'_>,
    ) -> EngineResult<Vec<Result<View, EngineError>>> {
        let Limits { permit, stop, redaction } = *limits;
        let mask = |text: &str| redaction.mask_lines(config, text);
        if params.paths.is_empty() {
            return Err(EngineError::invalid("no path given; pass path or paths"));
        }
        if params.paths.len() > MAX_READ_PATHS {
            return Err(EngineError::invalid(format!(
                "{} paths in one read; at most {MAX_READ_PATHS} per request: split them into several reads, \
                 or use search or tree to narrow them down",
                params.paths.len()
            )));
        }
        let asked = Mode::parse(&params.mode)?;
        let mode = match (params.start_line, params.limit) {
            (None, None) => asked,
            // Two answers to one question: say so rather than pick one silently.
            _ if asked != Mode::Auto => {
                return Err(EngineError::invalid(format!(
                    "mode `{}` and a start_line/limit window ask for different views; give one of them \
                     (lines:N-M is the mode for a window)",
                    params.mode.trim()
                )));
            }
            (Some(start), limit) => Mode::window(start, limit.unwrap_or(u32::MAX))?,
            (None, Some(limit)) => Mode::window(1, limit)?,
        };
        self.cache.set_budget(usize::try_from(config.cache_bytes).unwrap_or(usize::MAX));
        let budget = config.max_read_bytes.saturating_mul(READ_BUDGET_FILES);
        let mut spent = 0u64;
        // The files this request recorded as delivered to the session.
        let mut delivered = Vec::new();
        let mut one = |p: &str| -> EngineResult<View> {
            let opened = scope.open_existing(p).map_err(|e| self.gone_since_read(session, scope, p, e))?;
            permit(&opened.path)?;
            if opened.real != opened.path {
                // Moved inside the project while it was opened: the
                // user's rules apply to where it is now, too.
                permit(&opened.real)?;
            }
            if spent >= budget {
                return Err(EngineError::new(
                    ErrorKind::ResourceExhausted,
                    format!(
                        "{p} was not read: this request already loaded {spent} bytes, the most one read may \
                         ({READ_BUDGET_FILES} × max_read_bytes); read it in another request"
                    ),
                ));
            }
            let loaded = match &mode {
                // A window of a file over the limit is read by streaming it (see `load_window`).
                Mode::Lines(ranges) if over_limit(&opened.file, config.max_read_bytes) => {
                    let keep = |line: u32| ranges.iter().any(|&(start, end)| (start..=end).contains(&line));
                    let stopped = || stop.check(&format!("{p} was not read to its end; read it in another request"));
                    load_window(opened.file, &opened.path, config.max_read_bytes, keep, config.redaction, &stopped)?
                }
                // A window of it is read as it is: the refusal says so, beside raising the limit.
                _ => load(opened.file, &opened.path, config.max_read_bytes).map_err(|e| match e.kind {
                    ErrorKind::ResourceExhausted => EngineError {
                        message: format!("{}, or read a window of it as it is ({})", e.message, params.surface.lines()),
                        ..e
                    },
                    _ => e,
                })?,
            };
            spent += loaded.text.len() as u64;
            delivered.push(opened.path);
            self.view(tokens, scope, session, &loaded, &mode, params, &mask)
        };
        let mut views = Vec::with_capacity(params.paths.len());
        for p in &params.paths {
            match stop.check(&format!("{p} was not read; read it in another request")) {
                Ok(()) => views.push(one(p)),
                Err(e) if e.kind == ErrorKind::Cancelled => {
                    // Nobody receives these views: the session holds none of them.
                    for path in &delivered {
                        self.deliveries.forget(session, path);
                    }
                    return Err(e);
                }
                // Past the deadline: this and every later file get an error entry.
                Err(e) => views.push(Err(e)),
            }
        }
        if params.paths.len() == 1 {
            // A single path answers with its error as the status.
            if let Some(Err(e)) = views.first() {
                return Err(e.clone());
            }
        }
        Ok(views)
    }

    /// Chooses and renders the view of one loaded file, then sends the
    /// "[unchanged]" stub instead when the session holds this very content
    /// whole and the mode allows it. Every view is made of the file with its
    /// secrets masked (`mask`), so no cut (a line range, a text's head, a long
    /// line's end) can leave part of a secret showing; the session's record
    /// and the diff bases keep the file as it is.
    #[allow(clippy::too_many_arguments)]
    pub fn view(
        &self,
        tokens: &Tokens,
        scope: &Scope,
        session: SessionIn<'_>,
        loaded: &Loaded,
        asked: &Mode,
        params: &ReadParams,
        mask: &Mask<'_>,
    ) -> EngineResult<View> {
        let ReadParams { fresh, surface, .. } = *params;
        let masked = mask(&loaded.text);
        let masked_file = masked.as_ref().map(|m| Loaded { text: Arc::from(m.text.as_str()), ..loaded.clone() });
        let file = masked_file.as_ref().unwrap_or(loaded);
        let shown = scope.display(&file.path);
        let language = outline_view::language_of(&file.path, &file.text);
        let file_tokens = tokens.count(&file.text);
        let held = self.deliveries.held(session, &file.path);
        // Outlines of a masked text are cached apart from the file's own, so turning redaction
        // on or off never serves the other's.
        let outline_key = match masked {
            Some(_) => blake3::keyed_hash(MASKED_OUTLINES, file.hash.as_bytes()),
            None => file.hash,
        };
        let ctx =
            FileCtx { tokens, shown: &shown, file, held, file_tokens, language, fresh, surface, mask, outline_key };

        let (mut render, mut note) = self.answer(&ctx, asked)?;
        // The agent receives the note with the content.
        let cost = |render: &Rendered, note: &str| {
            tokens.count(&render.text) + if note.is_empty() { 0 } else { tokens.count(&framing::note(note)) }
        };
        // An outline, the aggressive view and the reference line stand for the file, asked for by
        // name or sent for it (aggressive of text it knows no comments of is the file and a note):
        // the note counts against them (a one-line file's "no definitions found" note cost four
        // times the file, `reference`'s line and aggressive's "sent in full" note up to five).
        let stands_for_file = [asked, &render.mode]
            .into_iter()
            .any(|mode| matches!(mode, Mode::Signatures | Mode::Map | Mode::Aggressive | Mode::Reference));
        let view_cost = cost(&render, &note);
        let inflates = if stands_for_file { view_cost } else { tokens.count(&render.text) } > file_tokens;
        // A window of a file over the limit has no whole to fall back on (nor needs one); an
        // empty file's "empty file" note is its answer (see `answer`).
        if inflates && file.window.is_none() && !file.text.is_empty() {
            // Never inflate: a view costing more than the file is the file, with a note saying so
            // when the two still cost less than the view. A view that stands for the file is the
            // file even when the note does not fit (the content shows what it is); a range or a
            // diff stays what the agent asked for. An answer that is the file already keeps its
            // own note, by the same rule.
            let whole = render.mode == Mode::Full;
            let whole_note = match whole {
                true => note.clone(),
                false => format!("sent in full: smaller than its {} view", render.mode.name()),
            };
            let note_cost = tokens.count(&framing::note(&whole_note));
            // In place of a view that stands for it, a tiny file says why only when saying so
            // costs no more than the file itself.
            let note_fits =
                (whole || file_tokens + note_cost < view_cost) && (!stands_for_file || note_cost <= file_tokens);
            let swap = if note_fits { Some(whole_note) } else { stands_for_file.then(String::new) };
            if let Some(whole_note) = swap {
                note = whole_note;
                render = Rendered { baseline: render.baseline, ..Rendered::whole(file) };
            }
        }
        let has_it = !fresh && asked.may_stub() && held == Some(Held::whole(file.hash));
        let name = || file.path.file_name().map_or_else(|| shown.clone(), |n| n.to_string_lossy().into_owned());
        // Only where it helps: a small file, or a diff's "[no change]" line, costs less than the
        // stub that would stand for it, and is sent.
        let stub_text = has_it
            .then(|| views::stub(&name(), file.lines, surface))
            .filter(|stub| tokens.count(stub) < cost(&render, &note));
        let stub = stub_text.is_some();
        if let Some(text) = stub_text {
            // Worth what it stands for: the view this request would have sent.
            let baseline = Baseline::Tokens(cost(&render, &note));
            render = Rendered { text, holds: Holds::AsBefore, baseline, mode: render.mode };
            note.clear();
        }
        // A view that is not the masked file's lines as they are (an outline joins a head's lines)
        // may form a secret none of them held: it is masked itself. The file whole and its line
        // ranges were masked with the file, and a stub holds no file text, so the redactor passes
        // over each read's text once.
        if !stub
            && !matches!(render.mode, Mode::Full | Mode::Lines(_))
            && let Some(masked_view) = mask(&render.text)
        {
            render.text = masked_view.text;
        }
        let sent = cost(&render, &note);
        let raw = match render.baseline {
            // What a plain read would have cost: the file as it is, secrets and all.
            Baseline::File if masked.is_some() => tokens.count(&loaded.text),
            Baseline::File => file_tokens,
            Baseline::Tokens(n) => n,
            Baseline::Sent => sent,
        };
        let redacted = match (&masked, file.window.is_some()) {
            // A window's lines are not the file's: count what it shows (see `load_window`).
            (_, true) => u32::try_from(lean_ctx_redact::markers(&render.text).count()).unwrap_or(u32::MAX),
            (Some(masked), false) => secrets_shown(masked, &render),
            (None, false) => 0,
        };
        let holds = match render.holds {
            Holds::Whole => Some(Held::whole(file.hash)),
            Holds::DiffBase(held) => {
                Some(Held { hash: file.hash, diffed: held.diffed || held.hash != file.hash, ..held })
            }
            Holds::AsBefore => None,
        };
        // The version whose line numbers the session has now: not one a `reference` line, an
        // `aggressive` view (no numbers, lines left out), a `[no diff …]` line or a diff from a base
        // it does not know stands for (QA passes' refused edits by number went ahead after each).
        // A diff from a version it holds whole, or whose lines it saw last, gives it the new lines.
        let shows_lines = match render.mode {
            Mode::Reference | Mode::Aggressive => false,
            Mode::Diff if matches!(render.holds, Holds::AsBefore) => false,
            Mode::Diff => held.is_some_and(|h| h.whole || Some(h.hash) == self.deliveries.seen(session, &loaded.path)),
            _ => true,
        };
        self.keep(session, loaded, holds, shows_lines);
        self.stats.reads.fetch_add(1, Ordering::Relaxed);
        self.stats.stubs.fetch_add(u64::from(stub), Ordering::Relaxed);
        self.stats.raw_tokens.fetch_add(raw as u64, Ordering::Relaxed);
        self.stats.sent_tokens.fetch_add(sent as u64, Ordering::Relaxed);
        Ok(View {
            path: shown,
            mode: render.mode.name(),
            content: render.text,
            raw_tokens: raw as u64,
            sent_tokens: sent as u64,
            stub,
            language: language.map_or("text", |l| l.name()).to_string(),
            lines: file.lines,
            content_hash: file.hash.to_hex().to_string(),
            note,
            rules: Vec::new(),
            redacted,
        })
    }

    /// A missing file this session read before is said to be gone since, not just missing: "no
    /// such file; did you mean <a look-alike>?" sent the agent to another file (QA).
    fn gone_since_read(&self, session: SessionIn<'_>, scope: &Scope, input: &str, e: EngineError) -> EngineError {
        let read_before = || scope.would_be(input).iter().any(|path| self.deliveries.seen(session, path).is_some());
        match e.kind == ErrorKind::NotFound && read_before() {
            true => EngineError::not_found(format!(
                "{input} is gone: it was deleted or moved since this session read it (ctx_glob or `lctx glob` finds \
                 a moved file by its name)"
            )),
            false => e,
        }
    }

    /// Records the version the session was shown and what it now holds, keeping a content it
    /// holds as the base of its next diff.
    fn keep(&self, session: SessionIn<'_>, file: &Loaded, held: Option<Held>, shows_lines: bool) {
        self.deliveries.record(session, &file.path, file.hash, held, shows_lines);
        if held.is_some() {
            self.cache.put(file.hash, Slot::Content, file.text.clone());
        }
    }

    /// The view `asked` resolves to (auto picks one; an outline without
    /// definitions does not stand in for the file) and a note saying why
    /// it differs from the one asked for.
    fn answer(&self, ctx: &FileCtx<'_>, asked: &Mode) -> EngineResult<(Rendered, String)> {
        let FileCtx { shown, file, file_tokens, language, surface, .. } = *ctx;
        if file.text.is_empty()
            && matches!(asked, Mode::Auto | Mode::Full | Mode::Signatures | Mode::Map | Mode::Aggressive)
        {
            // An empty answer reads like a failure; three tokens say it is not one. A range or a
            // diff keeps its own rules.
            return Ok((Rendered::whole(file), "empty file".to_string()));
        }
        // A language without a grammar here has its comments found by a scan (PHP, Kotlin, shell…).
        let lexical = (*asked == Mode::Aggressive && language.is_none())
            .then(|| lean_ctx_outline::aggressive_without_grammar(std::path::Path::new(shown), &file.text));
        let (mode, mut note) = match (asked, &lexical) {
            (Mode::Auto, _) => auto_mode(&file.text, file_tokens, language.is_some(), surface),
            (_, Some(Err(why))) => aggressive_text(shown, why, &file.text, file_tokens, surface),
            (other, _) => (other.clone(), String::new()),
        };
        // The default read of a file the session held whole in an older version says what changed
        // (a map alone gave no sign its copy was stale, a QA pass): where auto sends the whole file,
        // a diff stands for it as for a full re-read; a map or a head notes the change below (a diff
        // would stand for more than auto sends).
        if *asked == Mode::Auto
            && mode == Mode::Full
            && let Some(diff) = self.changed_as_diff(ctx)
        {
            return Ok((diff, "auto: changed since your last read, answered with a diff".into()));
        }
        let mut render = match lexical {
            Some(Ok(text)) => {
                Rendered { text, holds: Holds::AsBefore, baseline: Baseline::File, mode: Mode::Aggressive }
            }
            _ => self.render(ctx, &mode, &mut note)?,
        };
        // A text file's view says itself whether it outlines anything (see `render`).
        if language.is_some() && render.is_empty_outline() {
            if *asked == Mode::Auto {
                // A file without definitions (a barrel of re-exports, a script
                // of statements) has an empty map: auto treats it as text.
                let (mode, text_note) = auto_mode(&file.text, file_tokens, false, surface);
                note = match text_note.strip_prefix("auto: ") {
                    Some(why) => format!("auto: no definitions found; {why}"),
                    None => format!("auto: no definitions found → {}", mode.name()),
                };
                render = self.render(&FileCtx { language: None, ..*ctx }, &mode, &mut note)?;
            } else if language.is_some_and(|language| !language.is_code()) {
                // Markdown without headings, data without keys: shown as other text is, by its
                // head (which says what it leaves out) or whole when small; nothing saved.
                render = self.render(&FileCtx { language: None, ..*ctx }, &mode, &mut note)?;
            } else {
                // An outline that lost everything to a syntax error: its flag line (the view)
                // says where, the note that nothing could be outlined.
                let unparsed = render.text.starts_with("[outline incomplete");
                let found = if unparsed { "no definitions could be outlined" } else { "no definitions found" };
                let (full, lines) = (surface.mode("full"), surface.lines());
                note = format!("{found} in {shown} ({} lines): {full} or {lines} shows the content", file.lines);
                // It tells the agent to read again: nothing saved.
                render.baseline = Baseline::Sent;
            }
        }
        if *asked == Mode::Auto {
            // Auto asks for the file, whichever view answers it; but the head of a long text is
            // some of the text, sent as it is: its baseline is the lines it shows, as a range's is
            // (a QA pass: a head then the rest by range booked the file as saved).
            if !matches!(render.mode, Mode::Lines(_)) {
                render.baseline = Baseline::File;
            }
            if render.mode == Mode::Map {
                self.bound_auto_map(ctx, &mut render, &mut note);
            }
            // Changed since the version the session holds, and too much for a diff: said, so the
            // agent does not go on from its stale copy.
            if render.mode != Mode::Full && ctx.held.is_some_and(|held| held.whole && held.hash != file.hash) {
                let changed = format!("changed since your last read ({} for the content)", surface.mode("full"));
                note = if note.is_empty() { changed } else { format!("{note}; {changed}") };
            }
        }
        Ok((render, note))
    }

    /// Cuts a map `auto` sends to its first [`AUTO_TEXT_TOKENS`] when the map itself is long
    /// (20,000 functions: 99,000 tokens in one answer, more than most hosts take in a tool result):
    /// auto is the default read, bounded as it bounds text; `mode=map` asked by name still sends
    /// the whole map. The note says
    /// what was left out and how to get it.
    fn bound_auto_map(&self, ctx: &FileCtx<'_>, render: &mut Rendered, note: &mut String) {
        let Some(head) = views::outline_head(&render.text, AUTO_TEXT_TOKENS) else { return };
        let surface = ctx.surface;
        let map_tokens = ctx.tokens.count(&render.text);
        let shown = match head.shown {
            0 => "the start of its first line".to_string(),
            shown => format!("its first {shown} of {} lines", head.total),
        };
        let rest = match head.resumes_at {
            Some(from) => format!(
                "; {} for the whole map, {} for the file from the first definition left out",
                surface.mode("map"),
                surface.mode(&format!("lines:{from}-{}", ctx.file.lines))
            ),
            None => format!("; {} for the whole map", surface.mode("map")),
        };
        note.push_str(&format!("; the map is {map_tokens} tokens: {shown} sent{rest}"));
        render.text = head.text;
    }

    /// Renders `mode` (not a stub); may set `note` to say why the view
    /// differs from the one asked for.
    fn render(&self, ctx: &FileCtx<'_>, mode: &Mode, note: &mut String) -> EngineResult<Rendered> {
        let FileCtx { tokens, shown, file, held, file_tokens, language, fresh, surface, .. } = *ctx;
        let whole = || Rendered::whole(file);
        Ok(match mode {
            Mode::Full => match self.changed_as_diff(ctx) {
                Some(diff) => {
                    *note = "full re-read of a file changed since your last read: answered with a diff".into();
                    diff
                }
                None => whole(),
            },
            Mode::Lines(ranges) => {
                let selection = views::lines(&file.text, file.window.as_deref(), file.lines, ranges, shown)?;
                Rendered {
                    holds: if selection.complete { Holds::Whole } else { Holds::AsBefore },
                    baseline: Baseline::Tokens(tokens.count(&selection.plain)),
                    text: selection.text,
                    mode: mode.clone(),
                }
            }
            Mode::Diff if fresh => whole(),
            Mode::Diff => {
                // The file as the session has it: no cache needed when unchanged.
                let base = held.and_then(|h| {
                    let old = if h.hash == file.hash { Some(file.text.clone()) } else { self.base(ctx, h.hash) };
                    old.map(|old| (h, old))
                });
                match base {
                    Some((h, old)) => Rendered {
                        text: views::diff(shown, &old, &file.text, h),
                        // Applied to a whole version it gives the whole file;
                        // to a diff base, the base moves on.
                        holds: if h.whole { Holds::Whole } else { Holds::DiffBase(h) },
                        // A session that received the file whole would otherwise read it again to
                        // see what changed; one whose base is only what its edit wrote never had
                        // the file, so no re-read was spared.
                        baseline: if h.whole || h.received { Baseline::File } else { Baseline::Sent },
                        mode: Mode::Diff,
                    },
                    None => Rendered {
                        text: views::no_diff_base(shown, held.is_some(), surface),
                        holds: Holds::AsBefore,
                        baseline: Baseline::Sent,
                        mode: Mode::Diff,
                    },
                }
            }
            Mode::Reference => {
                let language_name = language.map_or("text", |l| l.name());
                Rendered {
                    text: views::reference(shown, file.lines, file_tokens, language_name),
                    holds: Holds::AsBefore,
                    // Facts about the file, not a stand-in for it: no saving claimed.
                    baseline: Baseline::Sent,
                    mode: Mode::Reference,
                }
            }
            Mode::Signatures | Mode::Map | Mode::Aggressive => {
                let slot = match mode {
                    Mode::Signatures => Slot::Signatures,
                    Mode::Map => Slot::Map,
                    _ => Slot::Aggressive,
                };
                match language {
                    Some(lang) => Rendered {
                        text: self.outline_text(slot, lang, file, ctx.outline_key).to_string(),
                        holds: Holds::AsBefore,
                        baseline: Baseline::File,
                        mode: mode.clone(),
                    },
                    None => {
                        // Prose: its headings, or its head with a note that
                        // says how much was left out; a small file whole.
                        // (`aggressive` of text is resolved by `aggressive_text`.)
                        let format = lean_ctx_outline::TextFormat::detect(std::path::Path::new(shown), &file.text);
                        let view = lean_ctx_outline::render_text_outline(format, &file.text);
                        Rendered {
                            text: view.text,
                            holds: Holds::AsBefore,
                            // A head is some of the text, sent as it is: nothing saved.
                            baseline: if view.headings { Baseline::File } else { Baseline::Sent },
                            mode: mode.clone(),
                        }
                    }
                }
            }
            Mode::Auto => unreachable!("auto_mode resolves auto before rendering"),
        })
    }

    /// The content of `hash`, if it is still cached, masked as the file's views are.
    fn base(&self, ctx: &FileCtx<'_>, hash: blake3::Hash) -> Option<Arc<str>> {
        let text = self.cache.get(hash, Slot::Content)?;
        Some((ctx.mask)(&text).map_or(text, |masked| Arc::from(masked.text)))
    }

    /// A full re-read of a file this session held whole in an older version
    /// is answered with a diff when that costs less than half the file. A
    /// session that holds only a diff base gets the file: it never had the
    /// rest of it.
    fn changed_as_diff(&self, ctx: &FileCtx<'_>) -> Option<Rendered> {
        let FileCtx { tokens, shown, file, held, file_tokens, fresh, surface, .. } = *ctx;
        let held = held.filter(|h| h.whole && h.hash != file.hash && !fresh)?;
        let old = self.base(ctx, held.hash)?;
        let text = format!(
            "[changed since your last read · diff below · {} for the whole file]\n{}",
            surface.fresh(),
            views::diff(shown, &old, &file.text, held)
        );
        (tokens.count(&text) * 2 < file_tokens).then_some(Rendered {
            text,
            holds: Holds::Whole,
            baseline: Baseline::File,
            mode: Mode::Diff,
        })
    }

    fn outline_text(
        &self,
        slot: Slot,
        language: lean_ctx_outline::Language,
        file: &Loaded,
        key: blake3::Hash,
    ) -> Arc<str> {
        if let Some(hit) = self.cache.get(key, slot) {
            return hit;
        }
        let text: Arc<str> = Arc::from(outline_view::render(slot, language, &file.text, &self.degraded));
        self.cache.put(key, slot, text.clone());
        text
    }
}

/// The facts about one file that every renderer needs.
#[derive(Clone, Copy)]
struct FileCtx<'a> {
    tokens: &'a Tokens,
    shown: &'a str,
    file: &'a Loaded,
    held: Option<Held>,
    file_tokens: usize,
    language: Option<lean_ctx_outline::Language>,
    fresh: bool,
    surface: Surface,
    mask: &'a Mask<'a>,
    /// What the file's outlines are cached under (see `view`).
    outline_key: blake3::Hash,
}

/// The secrets of a text masked line for line, or `None` (see [`Redaction::mask_lines`]).
pub type Mask<'a> = dyn Fn(&str) -> Option<MaskedLines> + 'a;

/// The key that sets apart the outlines of a masked text in the cache.
const MASKED_OUTLINES: &[u8; 32] = b"lean-ctxd outline of masked text";

/// How many of a masked file's secrets the view shows: those on the lines a range shows, else
/// the markers the view holds (an outline or a diff is no span of lines), never more than the file
/// holds (a QA pass's file with a marker written into it as text counted it as a secret).
fn secrets_shown(masked: &MaskedLines, render: &Rendered) -> u32 {
    let count = match &render.mode {
        Mode::Lines(ranges) => masked
            .markers
            .iter()
            .map(|marker| &marker.lines)
            .filter(|span| ranges.iter().any(|&(start, end)| start <= *span.end() && *span.start() <= end))
            .count(),
        _ => lean_ctx_redact::markers(&render.text).count().min(masked.markers.len()),
    };
    u32::try_from(count).unwrap_or(u32::MAX)
}

/// A rendered view and what it implies for the session's record and the
/// ledger.
struct Rendered {
    text: String,
    holds: Holds,
    baseline: Baseline,
    mode: Mode,
}

/// What the session holds of the file once it has received a view.
#[derive(Clone, Copy)]
enum Holds {
    /// The whole current content.
    Whole,
    /// The current content as the base of its next diff, not whole, held as
    /// this holding was (see [`Held::received`]).
    DiffBase(Held),
    /// Whatever it held before (a part, an outline, a stub).
    AsBefore,
}

/// The ledger's "raw" for a read: what the agent would otherwise have read
/// for that request (docs/accounting.md).
#[derive(Clone, Copy)]
enum Baseline {
    /// The whole file.
    File,
    /// So many tokens: the lines asked for, or the view a stub stands for.
    Tokens(usize),
    /// What was sent: nothing saved.
    Sent,
}

impl Rendered {
    /// The file's exact content.
    fn whole(file: &Loaded) -> Self {
        Rendered { text: file.text.to_string(), holds: Holds::Whole, baseline: Baseline::File, mode: Mode::Full }
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

/// `auto`: small files whole; larger files of an outlined language (code, and
/// Markdown, JSON, YAML, TOML: [`outline_view::language_of`]) as their map (a
/// long map by its head: `bound_auto_map`);
/// larger text whole up to a bound, then its head: the first lines within
/// [`AUTO_HEAD_BYTES`], or when the first line alone is longer, the start of it
/// (the text map, which says where it cut).
fn auto_mode(text: &str, raw_tokens: usize, has_outline: bool, surface: Surface) -> (Mode, String) {
    let (mode, why) = shortened(text, raw_tokens, has_outline, surface);
    (mode, why.map(|why| format!("auto: {why}")).unwrap_or_default())
}

/// The view `auto` sends of a file of `raw_tokens`, and, when it is not the whole file, what was
/// done, for the note (without the mode that did it: `aggressive` of text shortens the same way).
fn shortened(text: &str, raw_tokens: usize, has_outline: bool, surface: Surface) -> (Mode, Option<String>) {
    let (full, lines) = (surface.mode("full"), surface.lines());
    if raw_tokens <= AUTO_FULL_TOKENS {
        (Mode::Full, None)
    } else if has_outline {
        (Mode::Map, Some(format!("{raw_tokens} tokens → map; ask {full} or {lines} for the content")))
    } else if raw_tokens <= AUTO_TEXT_TOKENS {
        (Mode::Full, None)
    } else {
        match head_lines(text) {
            0 => (
                Mode::Map,
                Some(format!(
                    "{raw_tokens} tokens of text, its first line alone too long to show → its start; ask {full} for all of it"
                )),
            ),
            end => (
                Mode::Lines(vec![(1, end)]),
                Some(format!("{raw_tokens} tokens of text → first {end} lines; ask {lines} for more")),
            ),
        }
    }
}

/// `aggressive` of a file whose comments are not known (`why`: no comment syntax for its
/// language, or a string or comment whose end a scan could not see): it shortens as `auto` does
/// text (whole up to [`AUTO_TEXT_TOKENS`], then its head), the note saying so: a 5 MB log was
/// sent whole under "no outline", a reason that belongs to the outline views.
fn aggressive_text(shown: &str, why: &str, text: &str, raw_tokens: usize, surface: Surface) -> (Mode, String) {
    let why = format!("aggressive: {why} for {shown}");
    match shortened(text, raw_tokens, false, surface) {
        (mode, Some(done)) => (mode, format!("{why}; {done}")),
        (mode, None) => (mode, format!("{why}: sent in full")),
    }
}

/// How many of the first [`AUTO_HEAD_LINES`] lines of `text` fit in [`AUTO_HEAD_BYTES`].
fn head_lines(text: &str) -> u32 {
    let mut bytes = 0;
    let mut fit = 0;
    for line in text.split_inclusive('\n').take(AUTO_HEAD_LINES as usize) {
        bytes += line.len();
        if bytes > AUTO_HEAD_BYTES {
            break;
        }
        fit += 1;
    }
    fit
}
