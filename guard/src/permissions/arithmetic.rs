//! What bash evaluates as arithmetic, and whether that may run a command.
//!
//! In arithmetic a variable's value is itself evaluated as arithmetic, and a
//! subscript in it is expanded first: `x='a[$(rm -rf qa)]'; (( x ))` runs
//! `rm -rf qa`, as do `$((x))`, `[[ $x -eq 0 ]]`, `let x`, `declare -i
//! y=x`, `${a[x]}` and `[[ -v 'a[$(rm -rf qa)]' ]]`. So wherever bash
//! evaluates arithmetic, a variable not known to hold a plain number makes
//! the command's programs known only when it runs: one the line set to a
//! number, or to a literal without `[`, `$` or a backtick whose own
//! variables are known so, is not; nor is one an arithmetic assignment
//! earlier in the line or the expression set (`for ((i=0; i<3; i++))`),
//! nor bash's own counters (`$RANDOM`, `$#`). A substitution's output is
//! evaluated so too (`$(( $(cat f) ))`), unless its program prints a
//! number alone (`date +%s`).
//!
//! Where bash evaluates arithmetic: `((…))` and `for ((…))`, `$((…))` and
//! `$[…]`, `let`'s words, an indexed array's subscript (`${a[i]}`,
//! `a[i]=x`, `${#a[i]}`), a substring's offset and length (`${s:i:n}`),
//! the operands of `[[`'s `-eq`, `-ne`, `-lt`, `-le`, `-gt`, `-ge`, the
//! subscript of `-v NAME[…]` (in `[[`, `[` and `test`) and of a name
//! `unset`, `read` or `printf -v` is given, and what is assigned
//! to a variable given the integer attribute (`declare -i`). An associative
//! array's subscript is no arithmetic: one the line certainly declared so
//! (`declare -A m; m[k]=1`, see [`Variables::associative`]); any other
//! array's is read as an indexed one's.

use std::collections::HashMap;

use lean_ctx_shell_syntax::{Command, Word};

use super::bash::{KEYWORDS, assigned, function_header, is_assignment, name_and_subscript};
use super::variables::{DECLARING, Variables, printf_target};

/// Values evaluated inside values followed at most (`x=y; y=z; ((x))`).
const MAX_DEPTH: usize = 8;

/// Subscripts nested inside subscripts read at most (`a[b[c[i]]]`); past
/// them the expression is unknown: each level is read by a call of its
/// own, and rescans the rest of the text for its `]`.
const MAX_NESTING: usize = 64;

/// Variables bash sets to numbers itself.
const NUMBERS: [&str; 12] = [
    "RANDOM",
    "SRANDOM",
    "SECONDS",
    "EPOCHSECONDS",
    "LINENO",
    "BASHPID",
    "PPID",
    "UID",
    "EUID",
    "OPTIND",
    "BASH_SUBSHELL",
    "SHLVL",
];

/// `[[`'s operators comparing arithmetic.
const COMPARISONS: [&str; 6] = ["-eq", "-ne", "-lt", "-le", "-gt", "-ge"];

/// What an expression does with variables, in order.
#[derive(Debug, PartialEq, Eq)]
enum Event {
    /// Its value is evaluated.
    Reads(String),
    /// It is set to a number wherever the expression is evaluated whole.
    Sets(String),
    /// What is evaluated is known only when it runs: an array's element,
    /// `$1`, `${x:-…}`.
    Unknown(String),
    /// A substitution's output is evaluated: the command it runs (`cat
    /// f`), whose output may be anything (`a[$(rm -rf qa)]`) unless it is
    /// a program known to print a number (see [`prints_number`]).
    Prints(String),
}

/// The arithmetic `command`, run in `env`, has bash evaluate, each
/// expression as its text. An associative array's subscript is none: one
/// the line certainly declared so (see [`Variables::associative`]), or
/// the command itself does (`declare -A m=([k]=v)`).
fn expressions(command: &Command, variables: &Variables, env: &[u32]) -> Vec<String> {
    let declared = declared_associative(&command.words);
    let indexed = |name: &str| !variables.associative(name, env) && !declared.contains(&name);
    let indexed: Indexed<'_> = &indexed;
    let expansions = body_expansions(command);
    let mut out: Vec<String> = command.arithmetic.iter().map(|text| text.replace('"', "")).collect();
    let words = &command.words;
    let targets = command.redirects.iter().map(|redirect| &redirect.target);
    for word in words.iter().chain(targets).chain(&expansions) {
        out.extend(in_word(word, indexed));
    }
    out.extend(compound_subscripts(words, indexed));
    let (assignments, rest) = leading_assignments(words);
    for word in assignments {
        out.extend(assignment(word, variables.integer(assigned(&word.text).expect("an assignment").0), indexed));
    }
    let Some((program, args)) = rest.split_first() else { return out };
    let texts: Vec<&str> = args.iter().map(|word| word.text.as_str()).collect();
    match program.text.as_str() {
        "let" => out.extend(texts.iter().map(|text| text.to_string())),
        "[[" | "[" | "test" => {
            for (at, text) in texts.iter().enumerate() {
                if *text == "-v"
                    && let Some(subscript) = texts.get(at + 1).and_then(|name| subscript(name, indexed))
                {
                    out.push(subscript.to_string());
                }
                if program.text == "[[" && COMPARISONS.contains(text) {
                    out.extend(at.checked_sub(1).map(|before| texts[before].to_string()));
                    out.extend(texts.get(at + 1).map(|after| after.to_string()));
                }
            }
        }
        // Builtins taking a variable's name expand a subscript in it as arithmetic.
        "unset" | "read" | "wait" => {
            let names = texts.iter().filter(|text| !text.starts_with('-'));
            out.extend(names.filter_map(|name| subscript(name, indexed)).map(str::to_string));
        }
        "printf" => out.extend(printf_target(rest).and_then(|name| subscript(name, indexed)).map(str::to_string)),
        name if DECLARING.contains(&name) => {
            let integer = texts.iter().any(|text| text.starts_with('-') && text.contains('i'));
            for word in args.iter().filter(|word| is_assignment(&word.text)) {
                let name = assigned(&word.text).expect("an assignment").0;
                out.extend(assignment(word, integer || variables.integer(name), indexed));
            }
        }
        _ => {}
    }
    out
}

/// Whether the array a name names is an indexed one, whose subscript is
/// arithmetic.
type Indexed<'a> = &'a dyn Fn(&str) -> bool;

/// The arrays a `declare -A` (`local`, `typeset`, `readonly`) among
/// `words` declares associative.
fn declared_associative(words: &[Word]) -> Vec<&str> {
    let Some((first, args)) = leading_assignments(words).1.split_first() else { return Vec::new() };
    let associative = |word: &Word| word.text.starts_with('-') && word.text.contains('A');
    if !DECLARING.contains(&first.text.as_str()) || !args.iter().any(associative) {
        return Vec::new();
    }
    let names = args.iter().filter(|word| !word.text.starts_with('-'));
    names.filter_map(|word| name_and_subscript(&word.text)).map(|(name, _)| name).collect()
}

/// The expansions of the command's heredoc bodies that evaluate what may
/// run a command, each as a word written bare.
fn body_expansions(command: &Command) -> Vec<Word> {
    let texts = command.body_expansions.iter();
    texts.map(|text| Word { span: 0..text.len(), text: text.clone(), quoted: Vec::new() }).collect()
}

/// The words of a command past its leading keywords and a function
/// definition's header (`f() { local -i n=$1; }`: `local -i n=$1`).
fn past_keywords(words: &[Word]) -> &[Word] {
    let keywords = |words: &[Word]| words.iter().take_while(|word| KEYWORDS.contains(&word.text.as_str())).count();
    let mut rest = &words[keywords(words)..];
    let header = function_header(rest);
    if header > 0 {
        rest = &rest[header..];
        rest = &rest[keywords(rest)..];
    }
    rest
}

/// A command's leading assignment words (past its keywords), and the
/// words from its program on, a `builtin` or `command` before it skipped.
fn leading_assignments(words: &[Word]) -> (&[Word], &[Word]) {
    let words = past_keywords(words);
    let count = words.iter().take_while(|word| is_assignment(&word.text)).count();
    let mut rest = &words[count..];
    while rest.first().is_some_and(|word| matches!(word.text.as_str(), "builtin" | "command")) {
        rest = &rest[1..];
    }
    (&words[..count], rest)
}

/// The words of a command that assign for the rest of its shell: a
/// command of assignments alone, or those a declaring builtin is given
/// (`declare n=1`). Elsewhere a word like one is an argument (`echo
/// n=$((1))`), and assignments before a program are its own (`n=$((1))
/// true` leaves n as it was).
fn assignment_words(words: &[Word]) -> &[Word] {
    match leading_assignments(words) {
        (assignments, []) => assignments,
        (_, [program, args @ ..]) if DECLARING.contains(&program.text.as_str()) => args,
        _ => &[],
    }
}

/// The subscripts of a compound array assignment's elements, evaluated as
/// arithmetic (`b=( [x]=1 )`, `declare -a b=([x]=1 [y]=2)`): the words
/// from the one opening it (`b=(`) on.
fn compound_subscripts(words: &[Word], indexed: Indexed<'_>) -> Vec<String> {
    let Some(open) = words
        .iter()
        .position(|word| assigned(&word.text).is_some_and(|(_, rest)| rest.trim_start_matches('+').starts_with("=(")))
    else {
        return Vec::new();
    };
    if !assigned(&words[open].text).is_some_and(|(name, _)| indexed(name)) {
        return Vec::new();
    }
    let first = words[open].text.split_once("=(").map_or("", |(_, rest)| rest);
    let elements = std::iter::once(first).chain(words[open + 1..].iter().map(|word| word.text.as_str()));
    elements
        .filter(|element| element.starts_with('['))
        .filter_map(|element| {
            let close = closing(element, b'[', b']');
            let after = element.get(close + 1..).unwrap_or_default();
            (after.starts_with('=') || after.starts_with("+=")).then(|| element[1..close].to_string())
        })
        .collect()
}

/// What of `command` bash evaluates in a way not read here, so that a
/// command its values hold may run: an expansion a blank cut in the
/// line's words (`${s: x}`, `${a[ x ]}`, `$[ x ]`), a variable named by a
/// value (`${!x}`, whose `a[$(…)]` bash expands), or a variable with the
/// integer attribute set to what is known only when it runs (`read n`).
fn unreadable(command: &Command, variables: &Variables, env: &[u32]) -> Option<String> {
    let targets = command.redirects.iter().map(|redirect| &redirect.target);
    let expansions = body_expansions(command);
    for word in command.words.iter().chain(targets).chain(&expansions) {
        let text = &word.text;
        for (at, _) in text.match_indices('$').filter(|(at, _)| word.expands_at(*at)) {
            let rest = &text[at + 1..];
            let close = |open, close| closing(rest, open, close);
            if rest.starts_with('[') && close(b'[', b']') == rest.len() {
                return Some(format!("${rest} (arithmetic a blank cuts, not read here)"));
            }
            let Some(after) = rest.strip_prefix('{') else { continue };
            let end = close(b'{', b'}');
            let inner = &rest[1..end.max(1)];
            if end == rest.len() && cut_expansion(after) {
                return Some(format!("${rest} (arithmetic a blank cuts, not read here)"));
            }
            // A prompt's expansion (`${x@P}`) runs the substitutions in the value.
            if let Some(name) = inner.strip_suffix("@P")
                && variables.value(name, env).is_none_or(|value| value.contains(['$', '`']))
            {
                return Some(format!("${{{inner}}} (a value expanded as a prompt, whose $(…) runs)"));
            }
            if let Some(name) = inner.strip_prefix('!')
                && !names_plain_variable(name, variables, env)
            {
                return Some(format!("${{{inner}}} (a variable a value names, whose subscript may run a command)"));
            }
            let integer_default = name_and_subscript(after)
                .filter(|(name, rest)| variables.integer(name) && (rest.starts_with(":=") || rest.starts_with('=')));
            if let Some((name, _)) = integer_default {
                return Some(format!(
                    "{name} (an integer variable set to a value evaluated as arithmetic: ${{{inner}}})"
                ));
            }
        }
    }
    let (_, rest) = leading_assignments(&command.words);
    let (program, args) = rest.split_first()?;
    let integer = |text: &str| name_and_subscript(text).is_some_and(|(name, _)| variables.integer(name));
    let set = match program.text.as_str() {
        // They set the variables they are given to what they read or are told.
        "read" | "mapfile" | "readarray" | "getopts" | "wait" => {
            args.iter().map(|word| word.text.as_str()).find(|text| !text.starts_with('-') && integer(text))
        }
        "printf" => printf_target(rest).filter(|name| integer(name)),
        // Without `in` (`for n; do`), a loop sets it to each positional parameter.
        "for" | "select" => args.first().map(|word| word.text.as_str()).filter(|name| integer(name)).filter(|_| {
            let words = args.iter().skip(2);
            program.text == "select"
                || args.get(1).is_none_or(|word| word.text != "in")
                || !words.clone().all(|word| word.is_literal() && word.text.parse::<u64>().is_ok())
        }),
        _ => None,
    };
    set.map(|name| format!("{name} (an integer variable set to a value evaluated as arithmetic: {})", command.raw))
}

/// Whether the text of `${…}` after its `!` names a variable whose value
/// is known to be a plain variable's name (or empty), or lists names or
/// keys (`${!prefix*}`, `${!a[@]}`): what bash expands then runs nothing.
fn names_plain_variable(name: &str, variables: &Variables, env: &[u32]) -> bool {
    let plain = |text: &str| text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if let Some(prefix) = name.strip_suffix(['*', '@']) {
        return plain(prefix) || prefix.strip_suffix('[').is_some_and(&plain);
    }
    let keys =
        name.strip_suffix(']').and_then(|name| name.strip_suffix(['@', '*'])).and_then(|name| name.strip_suffix('['));
    // `${!#}`: the last positional parameter.
    if keys.is_some_and(plain) || name == "#" {
        return true;
    }
    !name.is_empty() && plain(name) && variables.value(name, env).is_some_and(plain)
}

/// Whether the text after a `${` that its word does not close (a blank cut
/// it) evaluates arithmetic: a subscript, or an offset after `:`.
fn cut_expansion(after: &str) -> bool {
    let after = after.strip_prefix(['#', '!']).unwrap_or(after);
    let end = match after.bytes().next() {
        Some(b'@' | b'*' | b'#' | b'?' | b'$' | b'!' | b'-') => 1,
        _ => after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len()),
    };
    let rest = &after[end..];
    rest.starts_with('[') || rest.strip_prefix(':').is_some_and(|range| !range.starts_with(['-', '=', '+', '?']))
}

/// The arithmetic an assignment word has evaluated: its subscript
/// (`a[i]=x`), and its value when the variable has the integer attribute.
fn assignment(word: &Word, integer: bool, indexed: Indexed<'_>) -> Vec<String> {
    let (_, rest) = assigned(&word.text).expect("an assignment");
    let mut out: Vec<String> = subscript(&word.text, indexed).map(str::to_string).into_iter().collect();
    if integer {
        out.extend(rest.split_once('=').map(|(_, value)| value.to_string()));
    }
    out
}

/// The subscript of `NAME[…]` at the start of `text`, when NAME is an
/// `indexed` array's, evaluated as arithmetic.
fn subscript<'a>(text: &'a str, indexed: Indexed<'_>) -> Option<&'a str> {
    let (name, rest) = name_and_subscript(text).filter(|(name, _)| indexed(name))?;
    let after_name = &text[name.len()..];
    let inner = after_name.strip_prefix('[')?;
    Some(&inner[..inner.len() - rest.len() - 1])
}

/// The arithmetic a word's expansions have evaluated: `$[…]`, and in
/// `${…}` a subscript or a substring's offset and length.
fn in_word(word: &Word, indexed: Indexed<'_>) -> Vec<String> {
    let text = &word.text;
    let mut out = Vec::new();
    for (at, _) in text.match_indices('$').filter(|(at, _)| word.expands_at(*at)) {
        let rest = &text[at + 1..];
        if rest.starts_with('[') {
            out.push(rest[1..closing(rest, b'[', b']')].to_string());
        } else if rest.starts_with('{') {
            out.extend(in_braces(&rest[1..closing(rest, b'{', b'}')], indexed));
        }
    }
    out
}

/// The arithmetic in the text of `${…}`: a subscript (not `@` nor `*`),
/// and after `:` (not `:-`, `:=`, `:+`, `:?`) an offset and a length.
fn in_braces(inner: &str, indexed: Indexed<'_>) -> Vec<String> {
    let inner = inner.strip_prefix('#').unwrap_or(inner);
    // A positional parameter or all of them (`${@:x}`, `${1:x}`) take an offset too.
    let special = inner
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(inner.len())
        .max(usize::from(inner.starts_with(['@', '*'])));
    let name = match name_and_subscript(inner) {
        Some((name, _)) => name,
        // `${#:x}`: `$#`'s, the `#` taken above.
        None if special > 0 || inner.starts_with(':') => &inner[..special],
        None => return Vec::new(),
    };
    let mut rest = &inner[name.len()..];
    let mut out = Vec::new();
    if rest.starts_with('[') {
        let close = closing(rest, b'[', b']');
        let subscript = &rest[1..close];
        if subscript != "@" && subscript != "*" && indexed(name) {
            out.push(subscript.to_string());
        }
        rest = rest.get(close + 1..).unwrap_or_default();
    }
    if let Some(range) = rest.strip_prefix(':').filter(|range| !range.starts_with(['-', '=', '+', '?'])) {
        out.extend(range.splitn(2, ':').map(str::to_string));
    }
    out
}

/// The index of the byte closing the bracket `text` starts with, counting
/// nesting; the text's length when none does.
fn closing(text: &str, open: u8, close: u8) -> usize {
    let mut depth = 0usize;
    for (at, byte) in text.bytes().enumerate() {
        if byte == open {
            depth += 1;
        } else if byte == close {
            depth -= 1;
            if depth == 0 {
                return at;
            }
        }
    }
    text.len()
}

/// What an arithmetic expression does with variables, in order.
fn events(expr: &str) -> Vec<Event> {
    let mut out = Vec::new();
    scan(expr, &mut out, &mut false, 0);
    out
}

/// Adds what `expr` does to `out`. `conditional`: an `&&`, `||` or `?`
/// came before, so an assignment after it may not be evaluated.
/// `nesting`: the subscripts `expr` is inside.
fn scan(expr: &str, out: &mut Vec<Event>, conditional: &mut bool, nesting: usize) {
    if nesting > MAX_NESTING {
        out.push(Event::Unknown(format!("subscripts nested deeper than {MAX_NESTING}")));
        return;
    }
    let bytes = expr.as_bytes();
    let name_end = |from: usize| {
        let rest = bytes.get(from..).unwrap_or_default();
        rest.iter().position(|b| !(b.is_ascii_alphanumeric() || *b == b'_')).map_or(bytes.len(), |n| from + n)
    };
    let next_after = |from: usize| {
        bytes.get(from..).unwrap_or_default().iter().position(|b| !b.is_ascii_whitespace()).map(|n| from + n)
    };
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        match byte {
            b'$' => match bytes.get(i + 1) {
                // A nested `$((…))` or `$[…]`: its text is part of this one.
                Some(b'(') if bytes.get(i + 2) == Some(&b'(') => i += 3,
                Some(b'[') => i += 2,
                Some(b'(') => {
                    // What a substitution prints is evaluated; its commands are the line's.
                    let close = i + 1 + closing(&expr[i + 1..], b'(', b')');
                    out.push(Event::Prints(expr.get(i + 2..close).unwrap_or_default().to_string()));
                    i = close + 1;
                }
                Some(b'{') => {
                    let close = i + 1 + closing(&expr[i + 1..], b'{', b'}');
                    braced(&expr[i + 2..close.min(expr.len())], out, conditional, nesting);
                    i = close + 1;
                }
                Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {
                    let end = name_end(i + 1);
                    out.push(Event::Reads(expr[i + 1..end].to_string()));
                    i = end;
                }
                Some(b'#' | b'?' | b'$' | b'!') => i += 2,
                _ => {
                    let end = (i + 2).min(expr.len());
                    out.push(Event::Unknown(expr.get(i..end).unwrap_or("$").to_string()));
                    i = end;
                }
            },
            b'`' => {
                out.push(Event::Unknown("`".to_string()));
                i += 1 + expr[i + 1..].find('`').map_or(expr.len() - i - 1, |n| n + 1);
            }
            b'&' | b'|' if bytes.get(i + 1) == Some(&byte) => {
                *conditional = true;
                i += 2;
            }
            b'?' => {
                *conditional = true;
                i += 1;
            }
            b if b.is_ascii_digit() => {
                // A number, in any base (`16#ff`, `0x1F`).
                i += bytes[i..]
                    .iter()
                    .position(|b| !(b.is_ascii_alphanumeric() || b"_#@".contains(b)))
                    .unwrap_or(bytes.len() - i);
            }
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let end = name_end(i);
                let name = expr[i..end].to_string();
                let prefix = expr[..i].trim_end();
                let incremented = prefix.ends_with("++") || prefix.ends_with("--");
                let after = next_after(end);
                if after.is_some_and(|at| bytes[at] == b'[') {
                    // An element: its subscript is evaluated, and its value, not followed.
                    let open = after.expect("checked");
                    let close = open + closing(&expr[open..], b'[', b']');
                    scan(&expr[open + 1..close.min(expr.len())], out, conditional, nesting + 1);
                    let assigned =
                        next_after(close + 1).is_some_and(|at| bytes[at] == b'=' && bytes.get(at + 1) != Some(&b'='));
                    if !assigned {
                        out.push(Event::Unknown(format!("{name}[…]")));
                    }
                    i = close + 1;
                    continue;
                }
                let assigns = after.is_some_and(|at| bytes[at] == b'=' && bytes.get(at + 1) != Some(&b'='));
                if !assigns {
                    out.push(Event::Reads(name.clone()));
                }
                let rest = after.map_or("", |at| &expr[at..]);
                let updates = assigns
                    || incremented
                    || rest.starts_with("++")
                    || rest.starts_with("--")
                    || ["+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="]
                        .iter()
                        .any(|op| rest.starts_with(op));
                if updates && !*conditional {
                    out.push(Event::Sets(name));
                }
                i = end;
            }
            _ => i += 1,
        }
    }
}

/// What `${…}` (its text `inner`) in arithmetic does: `${NAME}` reads it,
/// a length (`${#NAME}`, `${#a[@]}`) is a number, anything else is
/// known only when it runs.
fn braced(inner: &str, out: &mut Vec<Event>, conditional: &mut bool, nesting: usize) {
    if let Some(length) = inner.strip_prefix('#') {
        match name_and_subscript(length) {
            Some((name, "")) if length.len() > name.len() => {
                let subscript = &length[name.len() + 1..length.len() - 1];
                if subscript != "@" && subscript != "*" {
                    scan(subscript, out, conditional, nesting + 1);
                }
            }
            Some((_, "")) => {}
            _ if matches!(length, "" | "@" | "*") => {}
            _ => out.push(Event::Unknown(format!("${{{inner}}}"))),
        }
        return;
    }
    match name_and_subscript(inner) {
        Some((name, "")) if name.len() == inner.len() => out.push(Event::Reads(name.to_string())),
        _ => out.push(Event::Unknown(format!("${{{inner}}}"))),
    }
}

/// The first part of `command`'s arithmetic that may run a command known
/// only when it runs, said with the expression (`x (a value evaluated as
/// arithmetic: x > 1)`).
pub(crate) fn unknown(command: &Command, variables: &Variables, env: &[u32]) -> Option<String> {
    if let Some(unreadable) = unreadable(command, variables, env) {
        return Some(unreadable);
    }
    let mut known = HashMap::new();
    for expr in expressions(command, variables, env) {
        let mut set = Vec::new();
        for event in events(&expr) {
            let problem = match event {
                Event::Sets(name) => {
                    set.push(name);
                    continue;
                }
                Event::Reads(name) if set.contains(&name) || holds_number(&name, variables, env, &mut known, 0) => {
                    continue;
                }
                Event::Reads(name) => name,
                Event::Prints(command) if prints_number(&command, variables, env) => continue,
                Event::Prints(_) => "$(".to_string(),
                Event::Unknown(part) => part,
            };
            let expr = expr.trim();
            return Some(format!("{problem} (a value evaluated as arithmetic: {expr})"));
        }
    }
    None
}

/// The variables `command`'s arithmetic leaves holding numbers: those it
/// assigns wherever it is evaluated whole (`((i = 0))`, `let i++`), and
/// those with the integer attribute it assigns.
pub(crate) fn numbers(command: &Command, variables: &Variables, env: &[u32]) -> Vec<String> {
    let mut out: Vec<String> = expressions(command, variables, env)
        .iter()
        .flat_map(|expr| events(expr))
        .filter_map(|event| match event {
            Event::Sets(name) => Some(name),
            _ => None,
        })
        .collect();
    // A variable with the integer attribute, or assigned one arithmetic expansion (`n=$((n + 1))`).
    let words = assignment_words(&command.words).iter();
    let numbers = words.filter_map(|word| assigned(&word.text)).filter(|(name, rest)| {
        let value = rest.split_once('=').map_or("", |(_, value)| value);
        variables.integer(name) || is_expansion(value)
    });
    out.extend(numbers.map(|(name, _)| name.to_string()));
    out
}

/// Whether `value` is one arithmetic expansion, `$((…))` or `$[…]`, whole.
fn is_expansion(value: &str) -> bool {
    let close = |open: u8, close: u8| closing(&value[1..], open, close) + 1 == value.len() - 1;
    (value.starts_with("$((") && value.ends_with("))") && close(b'(', b')'))
        || (value.starts_with("$[") && value.ends_with(']') && close(b'[', b']'))
}

/// Whether the command of a substitution (`command`, run in `env`) prints a
/// number alone, which arithmetic evaluates as none of its variables:
/// `date` given only numeric conversions (`date +%s`, `date -u
/// +%Y%m%d`), or `nproc`. Written plainly (no quote, expansion or other
/// command), and each the program itself: no function or alias of the
/// line, nor what `source` may define, stands for it, nor a `PATH` the
/// line set leads to another.
fn prints_number(command: &str, variables: &Variables, env: &[u32]) -> bool {
    let plain = command.bytes().all(|b| b.is_ascii_alphanumeric() || b" \t+-%_".contains(&b));
    let words: Vec<&str> = command.split_whitespace().collect();
    let Some((&program, args)) = words.split_first() else { return false };
    if !plain || !variables.runs_itself(program, env) || variables.names("PATH", env) {
        return false;
    }
    let numeric = |format: &str| {
        // Each conversion a number's (GNU date's flags and width before it); the text between, digits.
        let mut parts = format.split('%');
        let text_between = parts.next().is_some_and(|text| text.bytes().all(|b| b.is_ascii_digit()));
        text_between
            && parts.all(|part| {
                let conversion =
                    part.trim_start_matches(['-', '_', '0', '^', '#']).trim_start_matches(|c: char| c.is_ascii_digit());
                let mut chars = conversion.chars();
                chars.next().is_some_and(|c| "sNYCymdeHIklMSjuwUVWGg".contains(c)) && chars.all(|c| c.is_ascii_digit())
            })
    };
    match (program, args) {
        ("date", [format] | ["-u" | "--utc", format]) => format.strip_prefix('+').is_some_and(numeric),
        ("nproc", []) => true,
        _ => false,
    }
}

/// Whether `name` is known to hold a number as arithmetic evaluates it:
/// bash's own counters, a variable the line left holding a number, or one
/// it set to a literal without `[`, `$` or a backtick whose own variables
/// are so (`x=y; y=0`). `known`: the answers so far, each name's
/// value read once (`v1='v2+v2+v2'; v2='v3+v3+v3'…` would otherwise be
/// read exponentially often); a name being read counts as no number, so
/// a cycle (`x=y; y=x`) is none.
fn holds_number(
    name: &str,
    variables: &Variables,
    env: &[u32],
    known: &mut HashMap<String, bool>,
    depth: usize,
) -> bool {
    if let Some(&number) = known.get(name) {
        return number;
    }
    known.insert(name.to_string(), false);
    let number = NUMBERS.contains(&name)
        || variables.holds_number(name, env)
        || match variables.value(name, env) {
            Some(value) if depth < MAX_DEPTH && !value.contains(['[', '$', '`']) => {
                events(value).into_iter().all(|event| match event {
                    Event::Reads(name) => holds_number(&name, variables, env, known, depth + 1),
                    Event::Sets(_) => true,
                    Event::Unknown(_) | Event::Prints(_) => false,
                })
            }
            _ => false,
        };
    known.insert(name.to_string(), number);
    number
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_in_order() {
        let reads = |name: &str| Event::Reads(name.to_string());
        let sets = |name: &str| Event::Sets(name.to_string());
        assert_eq!(events("i=0;i<n;i++"), [sets("i"), reads("i"), reads("n"), reads("i"), sets("i")]);
        assert_eq!(events("16#ff + 0x1F + $x + ${y} + ${#z[@]}"), [reads("x"), reads("y")]);
        assert_eq!(events("a[$i] = 1"), [reads("i")]);
        // After `?`, `&&` or `||` an assignment may not happen.
        assert_eq!(events("c ? x = 1 : 0"), [reads("c")]);
        assert_eq!(events("$(cat f) + $1"), [Event::Prints("cat f".into()), Event::Unknown("$1".into())]);
        assert_eq!(events("b[i]"), [reads("i"), Event::Unknown("b[…]".into())]);
        assert_eq!(events("${x:-1}"), [Event::Unknown("${x:-1}".into())]);
    }

    #[test]
    fn random_input_never_panics() {
        let alphabet: Vec<char> = "ab_1 $[](){}`#=+-?&|:@*'\"é".chars().collect();
        let mut rng = crate::test_rng::Rng::new(7);
        for _ in 0..5000 {
            let len = rng.below(24);
            let text: String = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
            let _ = events(&text);
            let _ = in_word(&Word { span: 0..text.len(), text: text.clone(), quoted: Vec::new() }, &|_| true);
            let _ = subscript(&text, &|_| true);
        }
    }

    #[test]
    fn one_arithmetic_expansion_whole() {
        assert!(is_expansion("$((n + 1))") && is_expansion("$[n]") && is_expansion("$(( (1) + (2) ))"));
        assert!(!is_expansion("$((1))$((2))") && !is_expansion("$(cat f)") && !is_expansion("x$((1))"));
        assert!(!is_expansion(""));
    }

    #[test]
    fn subscripts_and_offsets_in_words() {
        let word = |text: &str| Word { span: 0..text.len(), text: text.to_string(), quoted: Vec::new() };
        let all = &|_: &str| true;
        assert_eq!(in_word(&word("${a[x]}/${#b[y+1]}${c[@]}${s:o:n}$[z]${d:-e}"), all), ["x", "y+1", "o", "n", "z"]);
        assert_eq!(in_word(&word("${@:o}${*:p:q}${1:r}${#:-s}${#}"), all), ["o", "p", "q", "r"]);
        assert_eq!(subscript("a[$(rm x)]", all), Some("$(rm x)"));
        assert_eq!(subscript("a[i]=1", all), Some("i"));
        assert_eq!(subscript("a", all), None);
        // An associative array's subscript is a string.
        let indexed = &|name: &str| name != "m";
        assert_eq!(in_word(&word("${m[k]}${a[i]}${m[j]:o}"), indexed), ["i", "o"]);
        assert_eq!(subscript("m[k]=1", indexed), None);
    }
}
