//! Byte classes, the per-call scan state and the spans it collects.
//!
//! Every rule works on bytes: all the syntax it looks at is ASCII, and a span
//! starts and ends next to an ASCII byte, so it always falls on a UTF-8
//! character boundary of the `&str` it came from.

use crate::kind::Kind;

/// A set of bytes, as a lookup table.
pub(crate) struct Class([bool; 256]);

impl Class {
    const fn new(ranges: &[(u8, u8)], extra: &[u8]) -> Class {
        let mut table = [false; 256];
        let mut i = 0;
        while i < ranges.len() {
            let (lo, hi) = ranges[i];
            let mut b = lo;
            while b <= hi {
                table[b as usize] = true;
                b += 1;
            }
            i += 1;
        }
        let mut j = 0;
        while j < extra.len() {
            table[extra[j] as usize] = true;
            j += 1;
        }
        Class(table)
    }

    const fn except(mut self, bytes: &[u8]) -> Class {
        let mut i = 0;
        while i < bytes.len() {
            self.0[bytes[i] as usize] = false;
            i += 1;
        }
        self
    }

    pub(crate) fn has(&self, b: u8) -> bool {
        self.0[b as usize]
    }
}

const LETTERS_DIGITS: [(u8, u8); 3] = [(b'a', b'z'), (b'A', b'Z'), (b'0', b'9')];

/// `[A-Za-z0-9]`
pub(crate) static ALNUM: Class = Class::new(&LETTERS_DIGITS, b"");
/// `[A-Za-z0-9_-]`: base64url, and what most token bodies are made of.
pub(crate) static B64URL: Class = Class::new(&LETTERS_DIGITS, b"_-");
/// `[A-Za-z0-9_]`
pub(crate) static WORD: Class = Class::new(&LETTERS_DIGITS, b"_");
/// `[A-Za-z0-9-]`: Slack token bodies.
pub(crate) static ALNUM_DASH: Class = Class::new(&LETTERS_DIGITS, b"-");
/// `[A-Za-z0-9+/=]`: base64 with padding (PEM bodies, Basic credentials).
pub(crate) static B64: Class = Class::new(&LETTERS_DIGITS, b"+/=");
/// `[A-Za-z0-9/_-]`: the path of a webhook URL.
pub(crate) static URL_PATH: Class = Class::new(&LETTERS_DIGITS, b"/_-");

/// Bytes of an unquoted value: printable ASCII up to a delimiter of the
/// surrounding syntax (space, quote, `,;&|`, brackets).
pub(crate) static VALUE: Class = Class::new(&[(b'!', b'~')], b"").except(b"\"'`,;&|()[]{}<>");

/// Index into the run cache; one slot per class whose runs can be long.
#[derive(Clone, Copy)]
pub(crate) enum RunClass {
    Alnum,
    B64Url,
    Word,
    AlnumDash,
    UrlPath,
    Value,
}

impl RunClass {
    fn class(self) -> &'static Class {
        match self {
            RunClass::Alnum => &ALNUM,
            RunClass::B64Url => &B64URL,
            RunClass::Word => &WORD,
            RunClass::AlnumDash => &ALNUM_DASH,
            RunClass::UrlPath => &URL_PATH,
            RunClass::Value => &VALUE,
        }
    }
}

/// A stretch of the text to replace by `[REDACTED:kind]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) kind: Kind,
}

/// State of one `redact` call: the text, the spans found so far, and caches
/// that keep every rule linear however the anchors are packed (a text of
/// `eyJeyJeyJ…` must not rescan the same run from each anchor).
pub(crate) struct Scan<'t> {
    pub(crate) text: &'t [u8],
    pub(crate) spans: Vec<Span>,
    /// For each run class, the last maximal run measured: `(from, end)`.
    /// A run measured from any position inside `from..end` ends at `end`.
    runs: [(usize, usize); 6],
    /// For each searched byte, the last `(from, found)` of a forward search,
    /// so searches from inside `from..=found` need not scan again.
    next_byte: Vec<(u8, usize, usize)>,
    /// End of the last private-key block redacted: anchors before it are
    /// inside the block.
    pub(crate) key_block_end: usize,
    /// End of the last name the named-value rule looked at.
    pub(crate) name_end: usize,
}

impl<'t> Scan<'t> {
    pub(crate) fn new(text: &'t [u8]) -> Scan<'t> {
        Scan {
            text,
            spans: Vec::new(),
            runs: [(usize::MAX, 0); 6],
            next_byte: Vec::new(),
            key_block_end: 0,
            name_end: 0,
        }
    }

    pub(crate) fn push(&mut self, start: usize, end: usize, kind: Kind) {
        if start < end {
            self.spans.push(Span { start, end, kind });
        }
    }

    pub(crate) fn byte(&self, i: usize) -> Option<u8> {
        self.text.get(i).copied()
    }

    /// The byte before `i`, if any.
    pub(crate) fn before(&self, i: usize) -> Option<u8> {
        i.checked_sub(1).and_then(|j| self.byte(j))
    }

    /// Whether `i` starts a token: no letter or digit before it. A `-` or `_` may join a token to
    /// the word before (`key-sk_live_…`, `STRIPE_sk_live_…`): the formats' own prefixes and bodies
    /// are strict enough to stand alone there (a QA pass saw such tokens kept in the clear).
    pub(crate) fn token_start(&self, i: usize) -> bool {
        self.before(i).is_none_or(|b| !b.is_ascii_alphanumeric())
    }

    /// Whether `i` starts a token that no `-` or `_` joins to a word before it either: for the
    /// formats whose prefix is common inside names (`sk-` in kebab-case, `app-sk-worker-7c9f8d6b5`
    /// a pod's name; `SK` and hex after `_` in a digest's).
    pub(crate) fn standalone_start(&self, i: usize) -> bool {
        self.before(i).is_none_or(|b| !B64URL.has(b))
    }

    /// End of the maximal run of `class` bytes starting at `from`.
    pub(crate) fn run_end(&mut self, from: usize, class: RunClass) -> usize {
        let slot = &mut self.runs[class as usize];
        if slot.0 <= from && from <= slot.1 {
            return slot.1;
        }
        let table = class.class();
        let end = self.text[from.min(self.text.len())..]
            .iter()
            .position(|&b| !table.has(b))
            .map_or(self.text.len(), |n| from + n);
        *slot = (from, end);
        end
    }

    /// Position of the first `needle` at or after `from`, if any.
    pub(crate) fn find_byte(&mut self, from: usize, needle: u8) -> Option<usize> {
        if from >= self.text.len() {
            return None;
        }
        if let Some(&(_, f, found)) = self.next_byte.iter().find(|(b, _, _)| *b == needle)
            && f <= from
            && from <= found
        {
            return (found < self.text.len()).then_some(found);
        }
        let found = memchr::memchr(needle, &self.text[from..]).map_or(self.text.len(), |n| from + n);
        match self.next_byte.iter_mut().find(|(b, _, _)| *b == needle) {
            Some(slot) => *slot = (needle, from, found),
            None => self.next_byte.push((needle, from, found)),
        }
        (found < self.text.len()).then_some(found)
    }

    /// End of the line holding `i` (the position of its `\n`, or the text's end).
    pub(crate) fn line_end(&mut self, i: usize) -> usize {
        self.find_byte(i, b'\n').unwrap_or(self.text.len())
    }
}
