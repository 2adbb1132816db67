//! Cutting text by bytes without splitting a character: answers are cut to byte budgets (an
//! outline's head, an archived line, a status message), and a cut inside a UTF-8 sequence
//! would panic on slicing.

/// The largest character boundary of `text` at or below `at` (its length when past it).
pub fn floor(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}
