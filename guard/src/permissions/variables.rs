//! The shell variables a command line sets, so a later command's `$x` is
//! known as the value it certainly holds (`x=rm; $x foo` runs `rm foo`),
//! and as unknown whenever it may hold another: set in a subshell that has
//! ended (`(x=ls); $x`), behind `&&`/`||` or inside `if`/`for`/`{ … }`,
//! to something known only when it runs, or by a command that may set any
//! variable. See [`super::scope`] for which commands see a setting.
//!
//! Commands setting variables, besides `NAME=value` alone: `export`,
//! `declare`, `local`, `readonly`, `typeset` (also after `builtin` or
//! `command`; bare `local x` empties it), `NAME+=…` (a literal added to
//! the value before, as a string), arrays `NAME=(…)` and
//! elements `NAME[i]=…` (unknown: `$NAME` is element 0), `for NAME in
//! WORDS` (in the loop's body one of the words, see
//! [`Variables::loop_words`]; unknown after its `done`), and `for` otherwise,
//! `select`, `read`, `mapfile`, `readarray`, `printf -v`, `getopts`,
//! `unset`, `${NAME:=…}` and `NAME=… :` before a special builtin, which
//! outlives it where the shell follows POSIX (unknown). Any variable may be set by `source`,
//! `.`, `eval` of a word known only when it runs, a call to a function the
//! line defines, a setter given a name known only when it runs (`printf -v
//! "$n"`, `read "$n"`, `declare "$n=…"`), and any assignment once a name reference exists
//! (`declare -n y=x; y=rm` sets x). After `shopt -s lastpipe` a pipeline's
//! last stage runs in the shell itself, so what a command in an environment
//! nested in the shell's sets is also unknown in the shell (every nested one,
//! not only last stages: the simple rule errs toward unknown). Once the
//! line may have set `IFS`, an unquoted variable splits into words not known
//! here ([`Variables::splits_at_whitespace`]).

use std::collections::{HashMap, HashSet};

use lean_ctx_shell_syntax::{Command, Word};

use super::arithmetic;
use super::bash::{KEYWORDS, assigned, basename, is_assignment, name_and_subscript};
use super::scope::{Place, Settings};

/// Builtins whose `NAME=value` arguments set variables, after options.
pub(crate) const DECLARING: [&str; 5] = ["export", "declare", "local", "readonly", "typeset"];
/// POSIX's special builtins: assignments before one outlive it in a shell
/// following POSIX.
const SPECIAL_BUILTINS: [&str; 16] = [
    ":", ".", "break", "continue", "eval", "exec", "exit", "export", "readonly", "return", "set", "shift", "times",
    "trap", "unset", "source",
];
/// Builtins that may set any variable of the shell they run in.
const ANY: [&str; 2] = ["source", "."];

/// One setting of a variable.
struct Value {
    /// Its place in order among all settings.
    order: usize,
    /// Its literal value, `None` when not literal.
    text: Option<String>,
    /// It is certainly exported: by `export`/`declare -x`, or as a variable
    /// an earlier setting it certainly follows exported.
    exported: bool,
    /// Set by a `for` loop whose body is running: one of these words (its
    /// text, and its glob when the loop expanded it as one).
    loop_words: Option<Vec<LoopWord>>,
    /// Set by arithmetic (`((i++))`, `let i=1`, `declare -i`): a number,
    /// whatever `text` was.
    number: bool,
}

impl Value {
    /// A setting to what is known only when it runs.
    fn unknown(order: usize) -> Value {
        Value { order, text: None, exported: false, loop_words: None, number: false }
    }

    /// Whether it is a plain number as arithmetic evaluates it: set by
    /// arithmetic, a decimal literal, or a loop's words all such.
    fn is_number(&self) -> bool {
        let decimal = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        self.number
            || self.text.as_deref().is_some_and(decimal)
            || self.loop_words.as_ref().is_some_and(|words| words.iter().all(|(word, _)| decimal(word)))
    }
}

/// A word of a `for` loop's list: its text, and its glob pattern.
pub(crate) type LoopWord = (String, Option<String>);

/// What a line's commands set, in order.
#[derive(Default)]
pub(crate) struct Variables {
    /// Each variable's settings in order.
    names: HashMap<String, Settings<Value>>,
    /// Commands that may have set any variable, numbered as those.
    any: Settings<usize>,
    /// Functions the line defines: calling one may set any variable.
    functions: HashSet<String>,
    /// Aliases the line defines, each with its value when a literal.
    aliases: HashMap<String, Option<String>>,
    /// Settings so far, to order them.
    count: usize,
    /// The line ran `shopt -s lastpipe`.
    lastpipe: bool,
    /// Variables given the integer attribute (`declare -i`): what is
    /// assigned to them is evaluated as arithmetic.
    integers: HashSet<String>,
    /// Arrays declared associative (`declare -A m`), whose subscripts are
    /// strings, not arithmetic: each setting `true` for a declaration,
    /// `false` for an `unset` of the array (an element assigned after it
    /// makes an indexed one), with its place in order among all settings.
    associative: HashMap<String, Settings<(bool, usize)>>,
    /// Loops (`for`, `while`, `until`, `select`) open, and of the `for`
    /// loops among them the variable each sets, with how many were open
    /// when it started: its `done` ends it.
    loop_depth: usize,
    for_loops: Vec<(String, usize)>,
}

impl Variables {
    /// The value a command running in `env` certainly sees in `name`, when
    /// a command of the line set it to a literal.
    pub(crate) fn value(&self, name: &str, env: &[u32]) -> Option<&str> {
        let seen = self.names.get(name)?.seen(env)?;
        if self.any.seen(env).is_some_and(|any| *any.value > seen.value.order) {
            return None;
        }
        seen.value.text.as_deref().filter(|_| seen.certain)
    }

    /// What the alias `name` the line defined stands for: `Some(None)`
    /// when that is known only when it runs.
    pub(crate) fn alias(&self, name: &str) -> Option<Option<&str>> {
        self.aliases.get(name).map(Option::as_deref)
    }

    /// The variables of a script run when not known here (a trap's
    /// action): any may hold anything.
    pub(crate) fn unknown() -> Variables {
        let mut vars = Variables { count: 1, ..Variables::default() };
        vars.any.set(&Place::default(), vars.count);
        vars
    }

    /// The variables a child shell (`sh -c`, `find -exec`) started by a
    /// command running in `env` begins with: those exported to it, each a
    /// literal where it certainly is one, else unknown, and after what may
    /// set any variable (`source`) any may hold anything.
    pub(crate) fn inherited(&self, env: &[u32]) -> Variables {
        let mut child = Variables::default();
        if self.any.seen(env).is_some() {
            child.count += 1;
            child.any.set(&Place::default(), child.count);
        }
        // Sorted, so the child's settings are numbered the same on every run.
        let mut names: Vec<&String> = self.names.keys().collect();
        names.sort();
        for name in names {
            let Some(text) = self.exported(name, env) else { continue };
            child.export_at_start(name, text.map(str::to_string));
        }
        child
    }

    /// The variables of a line run with `env` added to its shell's
    /// environment (ctx_shell's `env`): each exported and certainly holding
    /// its value, as if the line began by exporting it.
    pub(crate) fn environment(env: &[(String, String)]) -> Variables {
        let mut vars = Variables::default();
        for (name, value) in env {
            vars.export_at_start(name, Some(value.clone()));
        }
        vars
    }

    /// Notes `name` exported to the shell as it starts, holding `text`
    /// (`None`: known only when it runs).
    fn export_at_start(&mut self, name: &str, text: Option<String>) {
        self.count += 1;
        let value = Value { order: self.count, text, exported: true, loop_words: None, number: false };
        self.names.entry(name.to_string()).or_default().set(&Place::default(), value);
    }

    /// The words a `for` loop's variable is one of, for a command running
    /// in `env` inside the loop's body: the loop set it last, and nothing
    /// that may set any variable ran since.
    pub(crate) fn loop_words(&self, name: &str, env: &[u32]) -> Option<&[LoopWord]> {
        let seen = self.names.get(name)?.seen(env)?;
        if self.any.seen(env).is_some_and(|any| *any.value > seen.value.order) {
            return None;
        }
        seen.value.loop_words.as_deref()
    }

    /// What a program running in `env` finds in its environment's `name`
    /// as far as the line decides it: `None` when no command of the line
    /// set it (nor may have: `source`…), so it holds what the line's
    /// environment does; else the literal the line certainly set and
    /// exported, `Some(None)` when that is known only when it runs (a
    /// variable set but not exported is in the environment only if it was
    /// exported before the line).
    pub(crate) fn exported(&self, name: &str, env: &[u32]) -> Option<Option<&str>> {
        let any = self.any.seen(env).map(|any| *any.value);
        let Some(seen) = self.names.get(name).and_then(|settings| settings.seen(env)) else {
            return any.map(|_| None);
        };
        let exported = seen.value.exported && seen.certain && any.is_none_or(|any| any < seen.value.order);
        Some(seen.value.text.as_deref().filter(|_| exported))
    }

    /// Whether a command of the line set or unset `name` itself, as a
    /// program running in `env` sees it: not only one that may set any
    /// variable (`source`).
    pub(crate) fn names(&self, name: &str, env: &[u32]) -> bool {
        self.names.get(name).and_then(|settings| settings.seen(env)).is_some()
    }

    /// Whether `name` has the integer attribute: a `declare -i` (or
    /// `local -i`…) of the line gave it, wherever it ran.
    pub(crate) fn integer(&self, name: &str) -> bool {
        self.integers.contains(name)
    }

    /// Whether `name` is certainly an associative array for a command
    /// running in `env`: declared so by a command it sees that could not be
    /// skipped, and neither unset (which no other setting undoes: bash
    /// refuses to make it indexed) nor possibly so by what may set any
    /// variable since.
    pub(crate) fn associative(&self, name: &str, env: &[u32]) -> bool {
        let Some(settings) = self.associative.get(name) else { return false };
        let any = self.any.seen(env).map(|any| *any.value);
        for seen in settings.seen_back(env) {
            let (declared, order) = *seen.value;
            if !declared || any.is_some_and(|any| any > order) {
                return false;
            }
            if seen.certain {
                return true;
            }
        }
        false
    }

    /// Whether `name` certainly holds a plain number for a command running
    /// in `env`: every setting it may see since the last certain one is a
    /// number (`i=0; while …; do ((i++)); done`), and nothing that may set
    /// any variable ran since.
    pub(crate) fn holds_number(&self, name: &str, env: &[u32]) -> bool {
        let Some(settings) = self.names.get(name) else { return false };
        let any = self.any.seen(env).map(|any| *any.value);
        for seen in settings.seen_back(env) {
            if !seen.value.is_number() || any.is_some_and(|any| any > seen.value.order) {
                return false;
            }
            // In a `for` loop's body its variable is one of the loop's words.
            if seen.certain || seen.value.loop_words.is_some() {
                return true;
            }
        }
        false
    }

    /// Whether `program` may set any variable of the shell it runs in, and
    /// change its directory: `source`, `.`, or a function the line defines.
    pub(crate) fn may_set_anything(&self, program: &str) -> bool {
        ANY.contains(&program) || self.defines_function(program)
    }

    /// Whether `name` is a function the line defines.
    pub(crate) fn defines_function(&self, name: &str) -> bool {
        self.functions.contains(name)
    }

    /// Whether `program`, run in `env`, is the program of that name as far
    /// as the line decides: no function or alias the line defines stands
    /// for it, nor may one that what may set any variable (`source`)
    /// defined.
    pub(crate) fn runs_itself(&self, program: &str, env: &[u32]) -> bool {
        !self.functions.contains(program) && !self.aliases.contains_key(program) && self.any.seen(env).is_none()
    }

    /// Whether an unquoted variable's value, seen by a command running in
    /// `env`, splits at whitespace: no command of the line may have set
    /// `IFS` before it.
    pub(crate) fn splits_at_whitespace(&self, env: &[u32]) -> bool {
        self.names.get("IFS").and_then(|ifs| ifs.seen(env)).is_none() && self.any.seen(env).is_none()
    }

    /// Notes what a command at `place`, part of a script whose own shell
    /// is `shell`, sets; `anything` when it may set any variable (see
    /// [`Variables::may_set_anything`], or `eval` of a word known only when
    /// it runs); `numbers`, the variables its arithmetic leaves holding a
    /// number (see [`super::arithmetic::numbers`]).
    pub(crate) fn record(&mut self, words: &[Word], numbers: &[String], place: &Place, shell: &Place, anything: bool) {
        let start = words.iter().take_while(|word| KEYWORDS.contains(&word.text.as_str())).count();
        self.loops(&words[..start], place);
        let words = run_builtin(&words[start..]);
        let for_loop = for_loop(words);
        if words.first().is_some_and(|word| matches!(word.text.as_str(), "for" | "select")) {
            self.loop_depth += 1;
        }
        if let Some((name, _)) = &for_loop {
            self.for_loops.push((name.clone(), self.loop_depth));
        }
        if let Some(name) = defined_function(words) {
            self.functions.insert(name);
        }
        if words.first().is_some_and(|word| word.text == "alias") {
            for word in &words[1..] {
                let Some((name, value)) = word.text.split_once('=') else { continue };
                self.aliases.insert(name.to_string(), word.is_literal().then(|| value.to_string()));
            }
        }
        self.lastpipe |= sets_lastpipe(words);
        self.integers.extend(integers(words));
        let nested = place.env.len() > shell.env.len();
        for (name, declared) in associative(words) {
            let settings = self.associative.entry(name).or_default();
            // After `shopt -s lastpipe` an unset in a pipeline's stage may be the shell's own.
            if self.lastpipe && nested && !declared {
                self.count += 1;
                settings.set(&Place { env: shell.env.clone(), conditional: true }, (false, self.count));
            }
            self.count += 1;
            settings.set(place, (declared, self.count));
        }
        let sets = sets(words);
        let exports = exports(words);
        if anything || makes_reference(words) || sets_unknown_name(words) {
            self.count += 1;
            self.any.set(place, self.count);
        }
        let set: Vec<String> = sets.iter().map(|(name, _)| name.clone()).collect();
        for (name, text) in sets {
            let text = match text {
                Some(Literal::Whole(text)) => Some(text),
                // Added to a value known here, as a string; to an integer's, as arithmetic (`numbers` says).
                Some(Literal::Appended(more)) if !self.integer(&name) => {
                    self.value(&name, &place.env).map(|before| format!("{before}{more}"))
                }
                Some(Literal::Appended(_)) | None => None,
            };
            // Assigned arithmetic (`n=$((n + 1))`, `declare -i n=x`), it holds a number.
            let number = numbers.contains(&name);
            // Evaluated, `declare -i n=x` holds x's number, not `x`.
            let text = text.filter(|text| !number || text.bytes().all(|b| b.is_ascii_digit()));
            let loop_words = for_loop.as_ref().filter(|(set, _)| *set == name).and_then(|(_, words)| words.clone());
            let settings = self.names.entry(name).or_default();
            if self.lastpipe && nested {
                self.count += 1;
                let unknown = Place { env: shell.env.clone(), conditional: true };
                settings.set(&unknown, Value::unknown(self.count));
            }
            let before = settings.seen(&place.env);
            let exported = exports || before.is_some_and(|seen| seen.certain && seen.value.exported);
            self.count += 1;
            settings.set(place, Value { order: self.count, text, exported, loop_words, number });
        }
        for name in numbers.iter().filter(|name| !set.contains(name)) {
            self.count += 1;
            let value = Value { number: true, ..Value::unknown(self.count) };
            self.names.entry(name.clone()).or_default().set(place, value);
        }
    }

    /// Notes that a loop (`for`, `while`, `until`, `select`) may start with
    /// the first of `commands` (the rest of its script, running at
    /// `place`): its body runs again after itself, so what any command of
    /// the body sets may already hold another value when an earlier one
    /// runs (`x=ls; while …; do $x foo; x=rm; done` runs rm).
    pub(crate) fn enter_loop(&mut self, commands: &[Command], place: &Place) {
        let Some(body) = loop_body(commands) else { return };
        let mut anything = false;
        // Each variable the body sets, and whether each setting is a number; the arrays it unsets.
        let mut names: Vec<(String, bool)> = Vec::new();
        let mut unset = Vec::new();
        for command in body {
            let words = &command.words;
            let start = words.iter().take_while(|word| KEYWORDS.contains(&word.text.as_str())).count();
            let words = run_builtin(&words[start..]);
            let assignments = words.iter().take_while(|word| is_assignment(&word.text)).count();
            let program = run_builtin(&words[assignments..]).first().map(|word| basename(&word.text));
            anything |= defined_function(words).is_some()
                || makes_reference(words)
                || sets_unknown_name(words)
                || sets_lastpipe(words)
                || program.is_some_and(|program| self.may_set_anything(program) || matches!(program, "eval" | "trap"));
            // A setting the same command's arithmetic makes a number is one (`n=$((n + 1))`).
            let numbers = arithmetic::numbers(command, self, &place.env);
            unset.extend(associative(words).into_iter().filter(|(_, declared)| !declared).map(|(name, _)| name));
            // What the body adds to a value may be added again: no number known.
            let decimal =
                |text: Option<Literal>| matches!(text, Some(Literal::Whole(text)) if text.parse::<u64>().is_ok());
            let set = sets(words).into_iter().map(|(name, text)| (numbers.contains(&name) || decimal(text), name));
            names.extend(set.map(|(number, name)| (name, number)));
            names.extend(numbers.into_iter().map(|name| (name, true)));
        }
        let maybe = Place { env: place.env.clone(), conditional: true };
        if anything {
            self.count += 1;
            self.any.set(&maybe, self.count);
        }
        for name in unset {
            self.count += 1;
            self.associative.entry(name).or_default().set(&maybe, (false, self.count));
        }
        for (name, _) in &names {
            let number = names.iter().filter(|(set, _)| set == name).all(|(_, number)| *number);
            self.count += 1;
            let unknown = Value { number, ..Value::unknown(self.count) };
            self.names.entry(name.clone()).or_default().set(&maybe, unknown);
        }
    }

    /// Follows the loops a command's leading keywords open (`while`,
    /// `until`) and close (`done`): after a `for` loop's `done`, its
    /// variable holds its last word, or what it held before when the list
    /// was empty, so it is unknown.
    fn loops(&mut self, keywords: &[Word], place: &Place) {
        for keyword in keywords {
            match keyword.text.as_str() {
                "while" | "until" => self.loop_depth += 1,
                "done" => {
                    self.loop_depth = self.loop_depth.saturating_sub(1);
                    while let Some((name, _)) = self.for_loops.pop_if(|(_, depth)| *depth > self.loop_depth) {
                        self.count += 1;
                        self.names.entry(name).or_default().set(place, Value::unknown(self.count));
                    }
                }
                _ => {}
            }
        }
    }
}

/// The commands of the loop the first of `commands` starts, up to the
/// `done` ending it (all of them when none does: `for x in a; { …; }`).
fn loop_body(commands: &[Command]) -> Option<&[Command]> {
    let mut depth = 0usize;
    for (at, Command { words, .. }) in commands.iter().enumerate() {
        let keywords = words.iter().map_while(|word| KEYWORDS.contains(&word.text.as_str()).then_some(&word.text));
        let (mut opens, mut closes) = (0, 0);
        for keyword in keywords {
            opens += usize::from(matches!(keyword.as_str(), "while" | "until"));
            closes += usize::from(keyword == "done");
        }
        let start = words.iter().take_while(|word| KEYWORDS.contains(&word.text.as_str())).count();
        opens += usize::from(words.get(start).is_some_and(|word| matches!(word.text.as_str(), "for" | "select")));
        if at == 0 && opens == 0 {
            return None;
        }
        depth = (depth + opens).saturating_sub(closes);
        if depth == 0 {
            return Some(&commands[..=at]);
        }
    }
    Some(commands)
}

/// The variable a `for` or `select` loop (`words`) sets, and for
/// `for NAME in WORDS` whose words are all literal, those words; `select`
/// sets what the user picks.
fn for_loop(words: &[Word]) -> Option<(String, Option<Vec<LoopWord>>)> {
    let [keyword, name, rest @ ..] = words else { return None };
    if !matches!(keyword.text.as_str(), "for" | "select") || !is_name(&name.text) {
        return None;
    }
    let list = match rest {
        [is_in, list @ ..] if keyword.text == "for" && is_in.text == "in" => Some(list),
        _ => None,
    };
    // Over no word the body never runs and the variable keeps what it held.
    let literal = list.filter(|list| !list.is_empty() && list.iter().all(Word::is_literal));
    let words = literal.map(|list| list.iter().map(|word| (word.text.clone(), word.glob())).collect());
    Some((name.text.clone(), words))
}

/// The words of a command past `builtin` or `command` (with `-p`, and `--`), which
/// run the builtin named after them as it runs alone.
fn run_builtin(words: &[Word]) -> &[Word] {
    let options = |allowed: &[&str]| {
        let options = words[1..].iter().take_while(|word| allowed.contains(&word.text.as_str())).count();
        // `--` ends the options: the builtin's name follows it.
        1 + options + usize::from(words.get(1 + options).is_some_and(|word| word.text == "--"))
    };
    match words.first().map(|word| word.text.as_str()) {
        Some("builtin") => run_builtin(&words[options(&[])..]),
        Some("command") => run_builtin(&words[options(&["-p"])..]),
        _ => words,
    }
}

/// Whether the variables the command sets are exported: `export`, or
/// `declare`, `local` or `typeset` with `-x`.
fn exports(words: &[Word]) -> bool {
    let Some(first) = words.first() else { return false };
    match basename(&first.text) {
        "export" => !words[1..].iter().any(|word| word.text.starts_with('-') && word.text.contains('n')),
        "declare" | "local" | "typeset" => {
            words[1..].iter().any(|word| word.text.starts_with('-') && word.text.contains('x'))
        }
        _ => false,
    }
}

/// Whether the command makes a name reference (`declare -n y=x`): after
/// it, assigning to one name may set another; or gives a variable a case
/// (`declare -l x=RM` holds rm): after it, a value assigned is not what
/// the variable holds.
fn makes_reference(words: &[Word]) -> bool {
    let Some(first) = words.first() else { return false };
    matches!(basename(&first.text), "declare" | "local" | "typeset")
        && words[1..].iter().any(|word| word.text.starts_with('-') && word.text.contains(['n', 'l', 'u']))
}

/// The variables a `declare -i` (`local`, `typeset`, `readonly`,
/// `export`) gives the integer attribute.
fn integers(words: &[Word]) -> Vec<String> {
    let Some((first, args)) = words.split_first() else { return Vec::new() };
    let integer = |word: &Word| word.text.starts_with('-') && word.text.contains('i');
    if !DECLARING.contains(&basename(&first.text)) || !args.iter().any(integer) {
        return Vec::new();
    }
    let names = args.iter().filter(|word| !word.text.starts_with('-'));
    names.filter_map(|word| name_and_subscript(&word.text)).map(|(name, _)| name.to_string()).collect()
}

/// The arrays a command declares associative (`declare -A m`, `local`,
/// `typeset`, `readonly`: `true`) or unsets whole (`unset m`, `unset -v
/// m`: `false`; `unset 'm[k]'` unsets an element, `unset -f` a function).
fn associative(words: &[Word]) -> Vec<(String, bool)> {
    let Some((first, args)) = words.split_first() else { return Vec::new() };
    let options = || args.iter().filter(|word| word.text.starts_with('-'));
    let names = || args.iter().filter(|word| !word.text.starts_with('-'));
    let declared = match basename(&first.text) {
        "unset" if !options().any(|word| word.text.contains('f')) => false,
        name if DECLARING.contains(&name) && options().any(|word| word.text.contains('A')) => true,
        _ => return Vec::new(),
    };
    let named = names().filter_map(|word| Some((name_and_subscript(&word.text)?.0, &word.text)));
    // `declare -A m=(…)` declares m; `unset m[k]` leaves it.
    let named = named.filter(|(name, word)| declared || name == word);
    named.map(|(name, _)| (name.to_string(), declared)).collect()
}

/// Whether the command sets a variable whose name is known only when it
/// runs (`printf -v "$n" …`, `read "$n"`, `declare "$n=…"`): it may set
/// any variable.
fn sets_unknown_name(words: &[Word]) -> bool {
    let assignments = words.iter().take_while(|word| is_assignment(&word.text)).count();
    let Some((first, args)) = run_builtin(&words[assignments..]).split_first() else { return false };
    // Whether the name a word gives (before an `=`) expands.
    let unknown = |word: &Word| {
        let name_end = word.text.find('=').unwrap_or(word.text.len());
        (0..name_end).any(|at| word.expands_at(at))
    };
    // The words naming variables, past the options taking a value (`read -p PROMPT`) but
    // those taking a name (`read -a NAME`, `wait -p NAME`).
    let names = |values: &str, naming: &str| {
        let mut names = Vec::new();
        let mut words = args.iter();
        while let Some(word) = words.next() {
            match word.text.strip_prefix('-').filter(|cluster| !cluster.is_empty() && *cluster != "-") {
                Some(cluster) => {
                    let Some(option) =
                        cluster.chars().find(|option| values.contains(*option) || naming.contains(*option))
                    else {
                        continue;
                    };
                    let attached = cluster.len() > cluster.find(option).unwrap_or(0) + 1;
                    let value = if attached { Some(word) } else { words.next() };
                    names.extend(value.filter(|_| naming.contains(option)));
                }
                None => names.push(word),
            }
        }
        names
    };
    match basename(&first.text) {
        name if DECLARING.contains(&name) => args.iter().filter(|word| !word.text.starts_with('-')).any(unknown),
        "read" => names("dinNptu", "a").into_iter().any(unknown),
        "mapfile" | "readarray" => names("dnOsuCc", "").into_iter().any(unknown),
        "getopts" => args.get(1).is_some_and(unknown),
        "wait" => names("", "p").into_iter().any(unknown),
        "unset" => args.iter().filter(|word| !word.text.starts_with('-')).any(unknown),
        "for" | "select" => args.first().is_some_and(unknown),
        "printf" => {
            let options = args.iter().take_while(|word| word.text.starts_with('-') && word.text != "--");
            let mut options = options.enumerate();
            options.any(|(at, word)| match word.text.strip_prefix("-v") {
                Some("") => args.get(at + 1).is_some_and(unknown),
                Some(_) => unknown(word),
                None => false,
            })
        }
        _ => false,
    }
}

/// Whether the command is `shopt -s … lastpipe …`.
fn sets_lastpipe(words: &[Word]) -> bool {
    let texts = || words.iter().map(|word| word.text.as_str());
    texts().next() == Some("shopt")
        && texts().any(|text| text == "lastpipe")
        && texts().any(|text| text.starts_with('-') && text.contains('s'))
}

/// The name of the function `words` define, `f() …`, `f () …` or `function f …`.
pub(crate) fn defined_function(words: &[Word]) -> Option<String> {
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
fn sets(words: &[Word]) -> Vec<(String, Option<Literal>)> {
    let Some(first) = words.first() else { return Vec::new() };
    let names = |words: &[Word]| -> Vec<(String, Option<Literal>)> {
        words.iter().filter_map(|word| variable_named(&word.text)).map(|name| (name.to_string(), None)).collect()
    };
    let mut sets = match basename(&first.text) {
        _ if is_assignment(&first.text) => {
            // A command of assignments alone; an array's `(` may have split its words.
            let array = first.text.contains("=(");
            let assignments = words.iter().take_while(|word| is_assignment(&word.text));
            if array || words.iter().all(|word| is_assignment(&word.text)) {
                return assignments.map(|word| assignment(word, false)).collect();
            }
            // Those are the program's own, but a builtin after them still sets what it
            // sets (`IFS= read -r x`). Before a special builtin they stay set where the
            // shell follows POSIX (`sh -c`, bash's `set -o posix`: `f=x :`), so they may.
            let count = assignments.count();
            let program = run_builtin(&words[count..]);
            let mut sets = sets(program);
            if program.first().is_some_and(|word| SPECIAL_BUILTINS.contains(&word.text.as_str())) {
                sets.extend(words[..count].iter().map(|word| (assignment(word, false).0, None)));
            }
            return sets;
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
                    false if empties => variable_named(&word.text).map(|name| (name.to_string(), None)),
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
        "printf" => {
            printf_target(words).and_then(variable_named).map(|name| (name.to_string(), None)).into_iter().collect()
        }
        _ => Vec::new(),
    };
    sets.extend(words.iter().flat_map(|word| default_assignments(&word.text)).map(|name| (name, None)));
    sets
}

/// A literal a command sets a variable to: its whole value, or (`x+=…`)
/// what it adds to the value before.
enum Literal {
    Whole(String),
    Appended(String),
}

/// The name and value a `NAME=value`, `NAME+=value` or `NAME[i]=value`
/// word sets: the value when it is a literal, and not an array or an
/// element, nor (`reference`) a name of another variable.
fn assignment(word: &Word, reference: bool) -> (String, Option<Literal>) {
    let (name, rest) = assigned(&word.text).expect("an assignment");
    let plain = |value: &&str| word.is_literal() && !reference && !value.starts_with('(');
    let value = match rest.strip_prefix('+') {
        Some(appended) => appended.strip_prefix('=').filter(plain).map(|value| Literal::Appended(value.to_string())),
        None => rest.strip_prefix('=').filter(plain).map(|value| Literal::Whole(value.to_string())),
    };
    (name.to_string(), value)
}

/// The variable `printf -v NAME` or `printf -vNAME` prints into.
pub(crate) fn printf_target(words: &[Word]) -> Option<&str> {
    let options = words[1..].iter().take_while(|word| word.text.starts_with('-') && word.text != "--");
    let mut options = options.map(|word| word.text.as_str()).enumerate();
    options.find_map(|(at, option)| match option.strip_prefix("-v")? {
        "" => words.get(at + 2).map(|word| word.text.as_str()),
        name => Some(name),
    })
}

/// The variable a word names alone, `NAME` or an element `NAME[i]`.
fn variable_named(text: &str) -> Option<&str> {
    name_and_subscript(text).filter(|(_, rest)| rest.is_empty()).map(|(name, _)| name)
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
    variable_named(text).is_some_and(|name| name == text)
}
