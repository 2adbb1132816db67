//! Shell's functions without a keyword: `name() {`.

/// A shell function, `name() {` or `name () {` (the `function name` form has a keyword).
pub(super) fn shell_function(line: &str) -> Option<&str> {
    let (name, rest) = line.split_once('(')?;
    let name = name.trim_end();
    let simple = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || "_-:.".contains(c));
    let opens = rest.trim_start().strip_prefix(')')?.trim_start();
    (simple
        && name.starts_with(char::is_alphabetic)
        && (opens.starts_with('{') || opens.is_empty())
        && !line.contains('='))
    .then_some(name)
}
