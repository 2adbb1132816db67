//! Where a problem in a text file is: a byte offset, turned into `file:line:column` when shown.

use std::path::Path;

/// A parse or edit problem and where it is, as a byte offset into the file's text.
#[derive(Debug, PartialEq, Eq)]
pub struct TextError {
    /// `None`: the problem is with the file as a whole.
    pub offset: Option<usize>,
    pub message: String,
}

impl TextError {
    pub fn at(offset: usize, message: impl Into<String>) -> Self {
        TextError { offset: Some(offset), message: message.into() }
    }

    /// The 1-based line and column (in characters) of the problem in `text`.
    pub fn position(&self, text: &str) -> Option<(usize, usize)> {
        Some(line_and_column(text, self.offset?))
    }

    /// `file:line:col: message`, for people and editors.
    pub fn locate(&self, file: &Path, text: &str) -> String {
        match self.position(text) {
            Some((line, column)) => format!("{}:{line}:{column}: {}", file.display(), self.message),
            None => format!("{}: {}", file.display(), self.message),
        }
    }
}

/// The 1-based line and column (in characters) of byte `offset` of `text` (its end when past it,
/// or the start of the character it falls inside).
pub fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before[before.rfind('\n').map_or(0, |i| i + 1)..].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_file_line_and_column() {
        let err = TextError::at(9, "expected `,`");
        assert_eq!(err.locate(Path::new("/f.json"), "{\n  \"a\": 1\n"), "/f.json:2:8: expected `,`");
        let whole = TextError { offset: None, message: "bad".into() };
        assert_eq!(whole.locate(Path::new("/f"), ""), "/f: bad");
        // Columns count characters; an offset inside one, or past the end, does not panic.
        assert_eq!(line_and_column("é\néa", 5), (2, 2));
        assert_eq!(line_and_column("é", 1), (1, 1));
        assert_eq!(line_and_column("ab", 9), (1, 3));
    }
}
