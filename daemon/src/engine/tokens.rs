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

pub fn count_uncached(text: &str) -> usize {
    bpe_openai::o200k_base().count(text)
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
}
