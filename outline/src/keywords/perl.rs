//! Perl's constants: `use constant NAME => 1;` and the entries of a `use constant { … }` list.

use super::general::name;
use super::indentation;
use crate::model::Kind;

/// Perl's `use constant NAME => value;` (spaced as it may be: `use constant   NAME  => 1;`).
pub(super) fn perl_constant(line: &str) -> Option<(Kind, String)> {
    constant_entry(use_constant(line)?)
}

/// What follows `use constant` on `line`.
fn use_constant(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("use")?.trim_start().strip_prefix("constant")?;
    rest.starts_with(char::is_whitespace).then_some(rest)
}

/// `NAME => value`: one constant of `use constant`, or of the list it takes.
pub(super) fn constant_entry(text: &str) -> Option<(Kind, String)> {
    let (name, after) = name(text)?;
    after.trim_start().starts_with("=>").then_some((Kind::Const, name))
}

/// The lines of Perl's `use constant {` lists, indented under it up to its closing `}` (a line
/// indented no deeper ends one left open): each `NAME => value,` on them is a constant.
pub(super) fn constant_lists(lines: &[&str]) -> Vec<bool> {
    let mut inside = vec![false; lines.len()];
    // The indentation of the `use constant {` whose list is open.
    let mut open: Option<usize> = None;
    for (flag, line) in inside.iter_mut().zip(lines) {
        let trimmed = line.trim();
        if open.is_some_and(|indent| !trimmed.is_empty() && indentation(line) <= indent) {
            open = None;
        }
        *flag = open.is_some();
        if use_constant(trimmed).is_some_and(|rest| rest.trim() == "{") {
            open = Some(indentation(line));
        }
    }
    inside
}
