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
        let before = &text[..self.offset?.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before[before.rfind('\n').map_or(0, |i| i + 1)..].chars().count() + 1;
        Some((line, column))
    }

    /// `file:line:col: message`, for people and editors.
    pub fn locate(&self, file: &Path, text: &str) -> String {
        match self.position(text) {
            Some((line, column)) => format!("{}:{line}:{column}: {}", file.display(), self.message),
            None => format!("{}: {}", file.display(), self.message),
        }
    }
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
    }
}
