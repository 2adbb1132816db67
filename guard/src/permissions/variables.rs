//! The shell variables a command line sets, so a later command's `$x` is
//! known as the value it certainly holds (`x=rm; $x foo` runs `rm foo`),
//! and as unknown whenever it may hold another: set in a subshell that has
//! ended (`(x=ls); $x`), behind `&&`/`||` or inside `if`/`for`/`{ … }`,
//! to something known only when it runs, or by a command that may set any
//! variable. See [`super::scope`] for which commands see a setting.
//!
//! Commands setting variables, besides `NAME=value` alone: `export`,
//! `declare`, `local`, `readonly`, `typeset` (with `-n` a name reference,
//! unknown; bare `local x` empties it), `NAME+=…` and arrays `NAME=(…)`
//! (unknown), and `for`, `select`, `read`, `mapfile`, `readarray`,
//! `printf -v`, `getopts`, `unset` and `${NAME:=…}` (unknown). Any variable
//! may be set by `source`, `.`, `eval` of a word known only when it runs,
//! and a call to a function the line defines.

use std::collections::{HashMap, HashSet};

use lean_ctx_shell_syntax::Word;

use super::bash::{KEYWORDS, basename, is_assignment};
use super::scope::{Place, Settings};

/// Builtins whose `NAME=value` arguments set variables, after options.
const DECLARING: [&str; 5] = ["export", "declare", "local", "readonly", "typeset"];
/// Builtins that may set any variable of the shell they run in.
const ANY: [&str; 2] = ["source", "."];

/// What a line's commands set, in order.
#[derive(Default)]
pub(crate) struct Variables {
    /// Each variable's settings, numbered in order among all: its literal
    /// value, `None` when not literal.
    names: HashMap<String, Settings<(usize, Option<String>)>>,
    /// Commands that may have set any variable, numbered as those.
    any: Settings<usize>,
    /// Functions the line defines: calling one may set any variable.
    functions: HashSet<String>,
    /// Settings so far, to order them.
    count: usize,
}

impl Variables {
    /// The value a command running in `env` certainly sees in `name`, when
    /// a command of the line set it to a literal.
    pub(crate) fn value(&self, name: &str, env: &[u32]) -> Option<&str> {
        let seen = self.names.get(name)?.seen(env)?;
        let (order, value) = seen.value;
        if self.any.seen(env).is_some_and(|any| any.value > order) {
            return None;
        }
        value.as_deref().filter(|_| seen.certain)
    }

    /// Whether `program` may set any variable of the shell it runs in, and
    /// change its directory: `source`, `.`, or a function the line defines.
    pub(crate) fn may_set_anything(&self, program: &str) -> bool {
        ANY.contains(&program) || self.functions.contains(program)
    }

    /// Notes what a command at `place` sets; `anything` when it may set any
    /// variable (see [`Variables::may_set_anything`], or `eval` of a word
    /// known only when it runs).
    pub(crate) fn record(&mut self, words: &[Word], place: &Place, anything: bool) {
        if anything {
            self.count += 1;
            self.any.set(place, self.count);
        }
        let start = words.iter().take_while(|word| KEYWORDS.contains(&word.text.as_str())).count();
        let words = &words[start..];
        if let Some(name) = defined_function(words) {
            self.functions.insert(name);
        }
        for (name, value) in sets(words) {
            self.count += 1;
            self.names.entry(name).or_default().set(place, (self.count, value));
        }
    }
}

/// The name of the function `words` define, `f() …`, `f () …` or `function f …`.
fn defined_function(words: &[Word]) -> Option<String> {
    let name = match words {
        [function, name, ..] if function.text == "function" => &name.text,
        [name, parens, ..] if parens.text == "()" => &name.text,
        [name, ..] => name.text.strip_suffix("()")?,
        [] => return None,
    };
    Some(name.strip_suffix("()").unwrap_or(name).to_string())
}

/// The variables a command (past its leading keywords) sets for the rest
/// of its shell, each with its value when that is a literal. Assignments
/// before a program (`x=rm make`) set it for that program only.
fn sets(words: &[Word]) -> Vec<(String, Option<String>)> {
    let Some(first) = words.first() else { return Vec::new() };
    let names = |words: &[Word]| -> Vec<(String, Option<String>)> {
        words.iter().filter(|word| is_name(&word.text)).map(|word| (word.text.clone(), None)).collect()
    };
    let mut sets = match basename(&first.text) {
        _ if is_assignment(&first.text) => {
            // A command of assignments alone; an array's `(` may have split its words.
            let array = first.text.contains("=(");
            let assignments = words.iter().take_while(|word| is_assignment(&word.text));
            let all = array || words.iter().all(|word| is_assignment(&word.text));
            if all { assignments.map(|word| assignment(word, false)).collect() } else { Vec::new() }
        }
        name if DECLARING.contains(&name) => {
            let options: Vec<&str> =
                words[1..].iter().map(|w| w.text.as_str()).filter(|w| w.starts_with('-')).collect();
            let reference = options.iter().any(|option| option.contains('n'));
            let empties = matches!(name, "local" | "declare" | "typeset");
            let operands = words[1..].iter().filter(|word| !word.text.starts_with('-'));
            operands
                .filter_map(|word| match is_assignment(&word.text) {
                    true => Some(assignment(word, reference)),
                    false if empties && is_name(&word.text) => Some((word.text.clone(), None)),
                    false => None,
                })
                .collect()
        }
        "for" | "select" => names(&words[1..2.min(words.len())]),
        "read" | "unset" | "mapfile" | "readarray" | "getopts" => {
            let mut set = names(&words[1..]);
            set.extend(["REPLY", "MAPFILE", "OPTARG", "OPTIND"].map(|name| (name.to_string(), None)));
            set
        }
        "printf" => words.windows(2).filter(|pair| pair[0].text == "-v").flat_map(|pair| names(&pair[1..])).collect(),
        _ => Vec::new(),
    };
    sets.extend(words.iter().flat_map(|word| default_assignments(&word.text)).map(|name| (name, None)));
    sets
}

/// The name and value a `NAME=value` or `NAME+=value` word sets: the value
/// when it is a literal, and not an array or appended to, nor (`reference`)
/// a name of another variable.
fn assignment(word: &Word, reference: bool) -> (String, Option<String>) {
    let (name, value) = word.text.split_once('=').expect("an assignment");
    let known = word.is_literal() && !reference && !name.ends_with('+') && !value.starts_with('(');
    (name.trim_end_matches('+').to_string(), known.then(|| value.to_string()))
}

/// The names `${NAME:=…}` and `${NAME=…}` in `text` assign when unset.
fn default_assignments(text: &str) -> Vec<String> {
    text.match_indices("${")
        .filter_map(|(at, _)| {
            let rest = &text[at + 2..];
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
            let operator = &rest[end..];
            (end > 0 && (operator.starts_with(":=") || operator.starts_with('='))).then(|| rest[..end].to_string())
        })
        .collect()
}

fn is_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}
