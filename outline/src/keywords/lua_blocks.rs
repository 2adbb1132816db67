//! Where Lua's blocks and table constructors close on a line: whether a table opened on a line
//! goes on over the next ones (`local M = setmetatable({ new = function(self, o)`), and where a
//! function written there ends (`a = function() return 1 end,`), if it does. Strings and a
//! comment are passed over.

use super::code_chars::code_chars;

/// Whether a table constructor whose `{` came just before `text` is still open at its end.
pub(super) fn stays_open(text: &str) -> bool {
    let depth = code_chars(text, Some("--")).try_fold(1usize, |depth, (_, c)| match c {
        '{' => Some(depth + 1),
        '}' => depth.checked_sub(1).filter(|&depth| depth > 0),
        _ => Some(depth),
    });
    depth.is_some()
}

/// Where the block `text` starts with (a `function`) ends: the byte offset just past its `end`,
/// `None` when it goes on past the text. Each `function`, `if`, `do` and `repeat` opens a block
/// (`for` and `while` by their `do`), each `end` and `until` closes one.
pub(super) fn block_end(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut word_start = None;
    let code = code_chars(text, Some("--")).chain(std::iter::once((text.len(), ' ')));
    for (at, c) in code {
        let in_word = c.is_alphanumeric() || c == '_';
        match (word_start, in_word) {
            (None, true) => word_start = Some(at),
            (Some(start), false) => {
                word_start = None;
                match &text[start..at] {
                    "function" | "if" | "do" | "repeat" => depth += 1,
                    "end" | "until" => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(at);
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_and_blocks_close_where_their_code_does() {
        assert!(stays_open(" new = function(self, o)"));
        assert!(stays_open(" a = function() return {} end,"));
        assert!(!stays_open(" plain = function(s) return s end }"));
        // A brace in a string or a comment is none.
        assert!(stays_open(" sep = '}', -- }"));
        assert_eq!(block_end("function(s) return s end, b = 1"), Some(24));
        assert_eq!(block_end("function(s) if s then return 1 end"), None);
        assert_eq!(block_end("function(s) for i = 1, 2 do f(i) end return 'end' end"), Some(53));
        assert_eq!(block_end("function(self, o)"), None);
    }
}
