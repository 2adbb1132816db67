//! A definition's head on one line, for every family: with the lines its parameters continue on
//! (Kotlin's `fun findUser(` over `id: Long,` and `): User? {`, PHP's `public function save(User
//! $user,` over `bool $force): void {}`), so its line shows the whole parameter list.

use crate::text::{closing, collapse};

/// The most lines a declaration's parameters are read over (`void save(` and one a line).
const MAX_HEAD_LINES: usize = 24;

/// The declaration head starting at `lines[index]`, on one line: with the lines its parameters
/// continue on (`void save(` over `int id,` and `{required String name}) {`), and a `{` that opens
/// its block on the next line (Groovy's `void publish()` over `{`).
pub(super) fn head(lines: &[&str], index: usize) -> String {
    let mut head = lines[index].trim().to_string();
    let mut next = index + 1;
    if let Some(open) = head.find('(')
        && closing(&head[open + 1..], '(', ')').is_none()
    {
        let mut joined = head.clone();
        let continued = lines.iter().enumerate().skip(next).take(MAX_HEAD_LINES).find_map(|(at, line)| {
            joined.push(' ');
            joined.push_str(line.trim());
            closing(&joined[open + 1..], '(', ')').map(|_| at + 1)
        });
        if let Some(after) = continued {
            head = collapse(&joined);
            next = after;
        }
    }
    let opens_next =
        lines[next.min(lines.len())..].iter().find(|l| !l.trim().is_empty()).is_some_and(|l| l.trim() == "{");
    if opens_next {
        head.push_str(" {");
    }
    head
}
