//! Secret redaction for what lean-ctxd shows an agent: every file view and
//! shell output passes through [`Redactor::redact`], which replaces each
//! secret with `[REDACTED:kind]`.
//!
//! # What is found
//!
//! - **Token formats**, by prefix and shape: AWS access key ids
//!   (`aws_access_key_id`), Google API keys (`google_api_key`), GitHub
//!   (`github_token`), GitLab (`gitlab_token`), Slack tokens and webhook URLs
//!   (`slack_token`, `slack_webhook`), Stripe secret/restricted keys and
//!   webhook secrets (`stripe_key`, `stripe_webhook_secret`), OpenAI-style
//!   `sk-` keys (`openai_key`), Anthropic (`anthropic_key`), npm (`npm_token`),
//!   PyPI (`pypi_token`), SendGrid (`sendgrid_key`), Twilio API key SIDs
//!   (`twilio_key`), Discord and Telegram bot tokens (`discord_bot_token`,
//!   `telegram_bot_token`). See `formats.rs`.
//! - **Private-key blocks** (`private_key`), `-----BEGIN … PRIVATE KEY-----`
//!   to the matching END line, replaced whole; with no END, to the end of the text.
//! - **JWTs** (`jwt`).
//! - **Passwords in URLs**: `postgres://app:[REDACTED:connection_password]@db/app`
//!   for databases, caches and brokers, `url_password` for other schemes.
//!   Only the password goes. See `url.rs`.
//! - **Values under secret-looking names** in env files, shell output, YAML,
//!   JSON, TOML/INI and source code: `API_KEY=[REDACTED:api_key]`. The kind
//!   comes from the name's last word (`password`, `secret`, `token`,
//!   `api_key`, `authorization`), or from a vendor the name pins
//!   (`aws_secret_access_key`, `azure_storage_key`, `twilio_key`); only the
//!   value goes, and only if it is random enough (entropy, character
//!   classes, not a placeholder, not code). See `named.rs` and `entropy.rs`.
//! - **Every other place a text writes a secret found in it** (of 8 bytes or
//!   more), as the kind it was found as: a password named on one line and
//!   written again in prose on another is masked on both.
//!
//! # What is left alone
//!
//! Placeholders and dummies (`changeme`, `xxxx…`, `<your-key>`, anything
//! saying `example`/`test`/`dummy`, AWS's documented `AKIAIOSFODNN7EXAMPLE`),
//! templates and code (`${VAR}`, `$VAR`, `%(var)s`, `{{ var }}`,
//! `os.environ["X"]`, `process.env.X`, calls), paths, UUIDs, numbers,
//! short or low-entropy values, Stripe publishable keys (`pk_…`, public by
//! design), and lockfile digests (`integrity`, `checksum` and the like are
//! not secret names, and no format matches a hex or base64 digest).
//!
//! Knowingly not found: secrets with no format and no telling name (a
//! random string in a bare function argument), passwords that read as
//! words or contain spaces, values split across lines, names and values
//! separated by more than an operator (`--password secret`, XML elements),
//! and random values made only of letters with an English share of vowels.
//!
//! # Guarantees
//!
//! Deterministic; linear in the input (literal prefilters, then checks whose
//! scans are cached so packed anchors never rescan a run); never panics;
//! UTF-8 safe (every rule looks at ASCII syntax, so spans fall on character
//! boundaries); idempotent (a marker is never taken for a secret).
//!
//! # Speed
//!
//! Text with no anchor literal costs one pass of four aho-corasick searchers
//! and two regex prefilters, then is returned borrowed. See
//! docs/benchmarks.md, "Secret redaction (issue 14)".

mod anchors;
mod entropy;
mod formats;
mod kind;
mod named;
mod scan;
#[doc(hidden)]
pub mod testing;
mod url;

use std::borrow::Cow;

use crate::kind::Kind;
use crate::scan::{Scan, Span};

/// The start of every marker: `[REDACTED:`.
pub const MARKER_PREFIX: &str = "[REDACTED:";

/// Compiled once; Send + Sync; share it (e.g. in an Arc or a static).
pub struct Redactor {
    anchors: anchors::Anchors,
}

/// What [`Redactor::redact`] returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redacted<'a> {
    /// Borrowed (no allocation) when nothing was found.
    pub text: Cow<'a, str>,
    /// How many secrets of each kind were replaced, sorted by kind name; empty when none.
    pub found: Vec<(&'static str, usize)>,
}

impl Redacted<'_> {
    /// Whether nothing was replaced.
    pub fn is_clean(&self) -> bool {
        self.found.is_empty()
    }

    /// How many secrets were replaced in all.
    pub fn total(&self) -> usize {
        self.found.iter().map(|(_, n)| n).sum()
    }
}

impl Redactor {
    pub fn new() -> Redactor {
        Redactor { anchors: anchors::Anchors::new() }
    }

    /// `text` with every secret replaced by `[REDACTED:kind]`.
    pub fn redact<'a>(&self, text: &'a str) -> Redacted<'a> {
        let spans = self.spans(text);
        if spans.is_empty() {
            return Redacted { text: Cow::Borrowed(text), found: Vec::new() };
        }
        let mut out = String::with_capacity(text.len());
        let mut counts = [0usize; Kind::ALL.len()];
        let mut last = 0;
        for span in &spans {
            out.push_str(&text[last..span.start]);
            out.push_str(MARKER_PREFIX);
            out.push_str(span.kind.name());
            out.push(']');
            counts[span.kind as usize] += 1;
            last = span.end;
        }
        out.push_str(&text[last..]);
        let mut found: Vec<(&'static str, usize)> =
            Kind::ALL.iter().filter(|k| counts[**k as usize] > 0).map(|k| (k.name(), counts[*k as usize])).collect();
        found.sort_unstable();
        Redacted { text: Cow::Owned(out), found }
    }

    /// Each secret [`Redactor::redact`] masks in `text`, in order: where it is and the marker that
    /// stands for it. An edit that keeps a marker where its secret was writes the secret back.
    pub fn secrets(&self, text: &str) -> Vec<Secret> {
        self.spans(text)
            .into_iter()
            .map(|span| Secret { range: span.start..span.end, marker: format!("{MARKER_PREFIX}{}]", span.kind.name()) })
            .collect()
    }

    /// `text` with each secret replaced by its marker followed by the line breaks the secret
    /// spanned, so every line keeps its number (a private key's body lines read empty under the
    /// marker on its first line); `None` when it holds no secret.
    pub fn mask_lines(&self, text: &str) -> Option<MaskedLines> {
        let secrets = self.secrets(text);
        if secrets.is_empty() {
            return None;
        }
        let mut out = LineWriter { text: String::with_capacity(text.len()), line: 1, line_start: 0 };
        let mut markers = Vec::with_capacity(secrets.len());
        let mut last = 0;
        for secret in secrets {
            out.push(&text[last..secret.range.start]);
            let (first, column) = (out.line, out.text.len() - out.line_start);
            out.text.push_str(&secret.marker);
            let inner = &text[secret.range.clone()];
            for (at, _) in inner.match_indices('\n') {
                out.push(if inner[..at].ends_with('\r') { "\r\n" } else { "\n" });
            }
            markers.push(MarkerAt { lines: first..=out.line, column: column..column + secret.marker.len() });
            last = secret.range.end;
        }
        out.push(&text[last..]);
        let masked = out.text;
        Some(MaskedLines { text: masked, markers })
    }

    /// The lines (1-based) each secret [`Redactor::mask_lines`] masks in `text` spans, in order:
    /// its markers' `lines`, found without writing the masked text.
    pub fn secret_lines(&self, text: &str) -> Vec<std::ops::RangeInclusive<u32>> {
        let breaks = |from: usize, to: usize| {
            u32::try_from(memchr::memchr_iter(b'\n', &text.as_bytes()[from..to]).count()).unwrap_or(u32::MAX)
        };
        let (mut line, mut counted) = (1u32, 0);
        self.spans(text)
            .into_iter()
            .map(|span| {
                let first = line.saturating_add(breaks(counted, span.start));
                line = first.saturating_add(breaks(span.start, span.end));
                counted = span.end;
                first..=line
            })
            .collect()
    }

    fn spans(&self, text: &str) -> Vec<Span> {
        let mut scan = Scan::new(text.as_bytes());
        self.anchors.scan(&mut scan);
        with_repeats(text, resolve(scan.spans))
    }
}

/// The shortest secret looked for again wherever else it is written in the text.
const MIN_REPEATED: usize = 8;

/// `found` and every other place in `text` where one of its secrets is written: what told a
/// value apart as a secret (`password: …`) is often on one line only, and the same value on
/// another (`db password is … in DATABASE_URL`) would be shown in the clear. One automaton over
/// the distinct values keeps this linear in the text.
fn with_repeats(text: &str, found: Vec<Span>) -> Vec<Span> {
    let mut values: Vec<(&str, Kind)> = found
        .iter()
        .map(|span| (&text[span.start..span.end], span.kind))
        .filter(|(value, _)| value.len() >= MIN_REPEATED)
        .collect();
    values.sort_unstable_by_key(|(value, kind)| (*value, *kind));
    values.dedup_by_key(|(value, _)| *value);
    let Ok(searcher) = aho_corasick::AhoCorasick::builder()
        .match_kind(aho_corasick::MatchKind::LeftmostLongest)
        .build(values.iter().map(|(value, _)| value))
    else {
        return found;
    };
    let mut spans = found;
    let known = spans.len();
    for hit in searcher.find_iter(text) {
        // Where it was found, its own kind stands (one value may be found as two kinds).
        if spans[..known].binary_search_by_key(&hit.start(), |span| span.start).is_ok() {
            continue;
        }
        spans.push(Span { start: hit.start(), end: hit.end(), kind: values[hit.pattern().as_usize()].1 });
    }
    match spans.len() > known {
        true => resolve(spans),
        false => spans,
    }
}

/// The bytes of the first private key in `text` that [`Redactor::redact`] masks, as it masks it
/// there: from a header `-----BEGIN <label> PRIVATE KEY-----` that key material follows (a header
/// only mentioned, in prose or as a parser's constant, opens none) to its END line, or to the
/// text's end. For a reader that holds a text in parts (a window of a file too large to load) and
/// must know, as the redactor of the whole would, where a key opens in a part it does not show.
pub fn private_key_block(text: &[u8]) -> Option<std::ops::Range<usize>> {
    let mut scan = Scan::new(text);
    for at in memchr::memmem::find_iter(text, b"PRIVATE KEY") {
        formats::private_key(&mut scan, at);
        if let Some(span) = scan.spans.first() {
            return Some(span.start..span.end);
        }
    }
    None
}

/// The marker a private key becomes: what a view shows for a key block it sees only part of.
pub fn private_key_marker() -> String {
    format!("{MARKER_PREFIX}{}]", Kind::PrivateKey.name())
}

/// A text being written, counting the line it is on and where that line starts.
struct LineWriter {
    text: String,
    line: u32,
    line_start: usize,
}

impl LineWriter {
    fn push(&mut self, piece: &str) {
        for (at, _) in piece.match_indices('\n') {
            self.line = self.line.saturating_add(1);
            self.line_start = self.text.len() + at + 1;
        }
        self.text.push_str(piece);
    }
}

/// A text as [`Redactor::mask_lines`] masks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaskedLines {
    pub text: String,
    /// Where each secret's marker stands, in order.
    pub markers: Vec<MarkerAt>,
}

/// A marker of [`MaskedLines`]: the lines (1-based) the secret spanned, and the marker's bytes on
/// the first of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkerAt {
    pub lines: std::ops::RangeInclusive<u32>,
    pub column: std::ops::Range<usize>,
}

/// A secret in a text, as [`Redactor::secrets`] finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Secret {
    /// Its bytes in the text.
    pub range: std::ops::Range<usize>,
    /// What stands for it in a redacted view: `[REDACTED:kind]`.
    pub marker: String,
}

impl Default for Redactor {
    fn default() -> Redactor {
        Redactor::new()
    }
}

/// Sorted, disjoint spans. Where two rules found the same bytes, the one
/// that starts first wins, then the longer, then the more specific kind
/// (formats are declared before named values); a span that sticks out of
/// the one it overlaps extends it, so nothing found is left showing.
fn resolve(mut spans: Vec<Span>) -> Vec<Span> {
    spans.sort_unstable_by_key(|s| (s.start, std::cmp::Reverse(s.end), s.kind));
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    for span in spans {
        match out.last_mut() {
            Some(last) if span.start < last.end => last.end = last.end.max(span.end),
            _ => out.push(span),
        }
    }
    out
}

/// Whether `text` contains a redaction marker (an edit whose old text holds
/// one is refused): `[REDACTED:` followed by a snake_case kind and `]`.
pub fn contains_marker(text: &str) -> bool {
    markers(text).next().is_some()
}

/// Each redaction marker in `text`, in order: its byte range.
pub fn markers(text: &str) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    memchr::memmem::find_iter(text.as_bytes(), MARKER_PREFIX.as_bytes()).filter_map(|at| {
        let rest = &text.as_bytes()[at + MARKER_PREFIX.len()..];
        let kind = rest.iter().take_while(|&&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_').count();
        (kind > 0 && rest.get(kind) == Some(&b']')).then(|| at..at + MARKER_PREFIX.len() + kind + 1)
    })
}
