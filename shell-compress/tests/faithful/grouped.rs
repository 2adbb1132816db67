//! Compiler warnings with one message, shortened and grouped on one line with every location (`diag.rs`):
//! `warning: unneeded `return` statement ×3 (src/lib.rs:28:5, 32:9, src/b.rs:4:1)`, a location in the file
//! of the one before it given by its line and column. Read back here into the warnings they stand for, each
//! checked against the raw output: `path:line:col: message` (gcc, clang) or the message with a `--> path:…`
//! line (rustc).

use std::sync::LazyLock;

use regex::Regex;

static GROUPED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(.+) ×(\d+) \(([^()]+)\)$").unwrap());

/// A location without its path: line, or line and column.
static POSITION: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\d+(?::\d+)?$").unwrap());

/// The message of a grouped line and each of its locations in full, when `line` is one and its count is the
/// number of locations it lists.
pub(crate) fn expand(line: &str) -> Option<(&str, Vec<String>)> {
    let c = GROUPED.captures(line)?;
    let mut path = String::new();
    let mut locations = Vec::new();
    for item in c.get(3)?.as_str().split(", ") {
        if POSITION.is_match(item) {
            if path.is_empty() {
                return None;
            }
            locations.push(format!("{path}:{item}"));
        } else {
            let at = item.find(':')?;
            path = item[..at].to_string();
            locations.push(item.to_string());
        }
    }
    (locations.len() == c[2].parse::<usize>().ok()?).then(|| (c.get(1).map_or("", |m| m.as_str()), locations))
}

/// Whether every warning `line` stands for is in `displayed` (the raw output's lines as shown).
pub(crate) fn true_to(displayed: &[String], line: &str) -> bool {
    let Some((message, locations)) = expand(line) else { return false };
    let has = |wanted: &str| displayed.iter().any(|l| l == wanted);
    let arrow = |location: &str| displayed.iter().any(|l| l.trim_start() == format!("--> {location}"));
    locations.iter().all(|at| has(&format!("{at}: {message}")) || (has(message) && arrow(at)))
}

/// Whether the raw output's line `raw_line` is one of the warnings (its header with the location in front, or
/// its `-->` line) a grouped line of `view` stands for.
pub(crate) fn stands_for(view: &str, raw_line: &str) -> bool {
    view.lines().filter_map(expand).any(|(message, locations)| {
        locations
            .iter()
            .any(|at| raw_line.trim_start() == format!("--> {at}") || raw_line == format!("{at}: {message}"))
    })
}

/// Whether `fact` is part of a warning a grouped line of `view` stands for, written out as the raw output
/// has it (`path:line:col: message`, or `--> path:line:col`).
pub(crate) fn mentions(view: &str, fact: &str) -> bool {
    view.lines().filter_map(expand).any(|(message, locations)| {
        locations
            .iter()
            .any(|at| format!("{at}: {message}").contains(fact) || format!("--> {at}").contains(fact.trim_start()))
    })
}
