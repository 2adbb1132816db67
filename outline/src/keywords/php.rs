//! PHP's definitions no keyword starts: a property (`private ?Foo $foo = null;`), and the
//! anonymous class whose members are a type's (`return new class($x) {`).

use crate::model::Kind;

/// A PHP property, `$name` first in `rest` or after its type (`?Foo $foo = null;`).
pub(super) fn php_property(rest: &str) -> Option<(Kind, String)> {
    let mut words = rest.split_whitespace();
    let first = words.next()?;
    let word = if first.starts_with('$') { first } else { words.next().filter(|w| w.starts_with('$'))? };
    let name: String = word.chars().take_while(|c| c.is_alphanumeric() || "_$".contains(*c)).collect();
    (name.len() > 1).then_some((Kind::Variable, name))
}

/// Whether `line` (trimmed) opens PHP's anonymous class (`return new class($logger) extends
/// Handler {`, `$h = new class {`): its members are a type's, whatever encloses it. PHP names it
/// `class@anonymous`.
pub(super) fn is_anonymous_class(line: &str) -> bool {
    let comment = line.starts_with(['#', '*']) || line.starts_with("//");
    let mut after = line.match_indices("new class").map(|(at, found)| &line[at + found.len()..]);
    !comment
        && after.any(|after| {
            after.is_empty()
                || after.starts_with(['(', '{'])
                || [" {", " extends ", " implements "].iter().any(|next| after.starts_with(next))
        })
}
