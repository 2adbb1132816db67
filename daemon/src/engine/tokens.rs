//! Token counting with o200k_base (the encoding of current OpenAI models,
//! a close proxy for other agents' tokenizers), memoized by content hash:
//! the same view or file is counted once however often it is served.

use crate::engine::lru::Lru;
use crate::locks::{self, Mutex};

/// Texts shorter than this are counted directly; hashing costs about as much.
const MEMO_MIN_BYTES: usize = 256;
const MEMO_ENTRIES: usize = 65_536;

pub struct Tokens {
    memo: Mutex<Lru<blake3::Hash, usize>>,
}

impl Default for Tokens {
    fn default() -> Self {
        Tokens { memo: Mutex::new(locks::ids::TOKENS_MEMO, Lru::new(MEMO_ENTRIES)) }
    }
}

impl Tokens {
    pub fn count(&self, text: &str) -> usize {
        if text.len() < MEMO_MIN_BYTES {
            return count_uncached(text);
        }
        let key = blake3::hash(text.as_bytes());
        if let Some(n) = self.memo.lock().get(&key) {
            return n;
        }
        // Counted outside the lock: other threads keep using the memo.
        let n = count_uncached(text);
        self.memo.lock().insert(key, n, 1);
        n
    }

    pub fn memo_entries(&self) -> usize {
        self.memo.lock().len()
    }
}

/// Texts are given to the tokenizer in parts of about this many bytes: its
/// working memory grows with its input (about 12 bytes a byte), so a 4 MiB
/// command output counted whole cost some 50 MiB at once.
const PART_BYTES: usize = 64 << 10;

pub fn count_uncached(text: &str) -> usize {
    let bpe = bpe_openai::o200k_base();
    parts(text, PART_BYTES).map(|part| bpe.count(part)).sum()
}

/// `text` cut into parts of at least `target` bytes (the last may be
/// shorter), each cut just after a newline followed by a printable ASCII
/// byte other than `/`. No o200k pre-token runs across such a place (a
/// newline ends every pre-token it is in unless `/`, `\r` or more
/// whitespace follows), so the parts' counts add up to the whole's exactly.
/// A text with no such place is one part.
fn parts(text: &str, target: usize) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= bytes.len() {
            return None;
        }
        let from = start.saturating_add(target).min(bytes.len());
        let cut = memchr::memchr_iter(b'\n', &bytes[from..])
            .map(|i| from + i + 1)
            .find(|&end| bytes.get(end).is_some_and(|&b| b.is_ascii_graphic() && b != b'/'))
            .unwrap_or(bytes.len());
        // Cut after an ASCII newline: always a char boundary.
        let part = &text[start..cut];
        start = cut;
        Some(part)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_o200k_tokens_and_memoizes() {
        let tokens = Tokens::default();
        assert_eq!(tokens.count(""), 0);
        assert_eq!(tokens.count("hello world"), 2);
        let long = "fn main() { println!(\"hello\"); }\n".repeat(50);
        let n = tokens.count(&long);
        assert!(n > 100 && n < long.len() / 2, "{n}");
        assert_eq!(tokens.count(&long), n);
        assert_eq!(tokens.memo_entries(), 1);
    }

    /// Counting in parts gives the whole text's count, wherever the parts
    /// are cut: code, logs, paths after newlines, blank-line runs, CRLF,
    /// non-ASCII letters and spaces after newlines.
    #[test]
    fn parts_add_up_to_the_whole() {
        let texts = [
            "fn main() {\n    let x = 1;\n}\n\n\nstruct S;\n".repeat(40),
            "error[E0308]: mismatched types\n --> src/lib.rs:3:5\n/usr/lib/x\n/tmp\nend;\n/path\n.hidden\n's\n"
                .repeat(30),
            "line one\r\nline two\r\n\r\n  indented\n\tTabbed\n".repeat(30),
            "Größe\nÜber\n\u{a0}nbsp\n日本語テキスト\nemoji 🎉\n!!!\n???\n...\n".repeat(30),
            "aGVsbG8gd29ybGQ=\nZm9vYmFy\n+/+/+/==\n0123456789\n".repeat(50),
        ];
        let bpe = bpe_openai::o200k_base();
        for text in &texts {
            let whole = bpe.count(text);
            for target in [1, 2, 3, 7, 16, 100, 1000] {
                let joined: String = parts(text, target).collect();
                assert_eq!(&joined, text);
                let summed: usize = parts(text, target).map(|p| bpe.count(p)).sum();
                assert_eq!(summed, whole, "target {target} on {:?}", &text[..40]);
            }
        }
    }

    #[test]
    fn a_text_without_a_cut_is_one_part() {
        assert_eq!(parts("no newline at all", 2).count(), 1);
        assert_eq!(parts("", 2).count(), 0);
        assert_eq!(parts("a\n/b\n c", 1).count(), 1);
    }
}
