//! Bash rules: the specifier of `Bash(…)` and lean-ctx's `shell_deny`, and
//! the ways one simple command is looked at when matching them.
//!
//! Rule forms, as Claude Code documents them:
//! - bare `Bash`, `Bash()` or `Bash(*)`: every command;
//! - `Bash(npm run test:*)`: the legacy prefix form, the command is
//!   `npm run test` or starts with it (a prefix ending in a letter or digit
//!   does not run into a longer word: `rm:*` covers `rm -rf x`, not `rmdir`);
//! - `Bash(git * main)`: `*` matches any text, spaces included; a pattern
//!   ending in ` *` also matches without that tail (`git *` covers `git`);
//!   `\*` is a literal star;
//! - anything else: the exact command.
//!
//! Runs of whitespace count as one space on both sides.
//!
//! Each simple command (see [`lean_ctx_shell_syntax::split`]) is matched
//! in several views, and a rule matching any view matches the command:
//! - as written, and with quotes and redirections removed;
//! - past leading shell keywords (`if`, `then`, `do`, `!`, `{`…) and
//!   `NAME=value` assignments;
//! - past wrappers that run the rest as a command, their options read as
//!   each reads them ([`super::wrappers`]: `sudo`, `env`, `timeout`,
//!   `nice`, `nohup`, `command`, `builtin`, `exec`, `xargs`, `parallel`,
//!   `setsid`, `flock`, `doas`, `time`…; the script of `su -c` or `watch`
//!   is split as `sh -c`'s; an option one does not take makes what it runs
//!   known only when it runs);
//! - with a command given by path (`/bin/rm`) named by its file name;
//! - without the global options a program takes before its subcommand
//!   (`git -C dir push` is matched as `git push` too).
//!
//! The script of `sh -c '…'` (also bash, zsh, dash, ksh), the arguments of
//! `eval`, the commands of `find -exec` (`-execdir`, `-ok`, `-okdir`) and
//! the command `env -S` makes of the words its string splits into (see
//! [`super::env_split`]) and the words after it, and git's aliases and
//! pagers its line configures (see [`super::git_config`]) are
//! split and matched as commands of their own, as is a `trap`'s action
//! (after the line's commands, as it runs on exit, knowing no variable),
//! and so is a
//! command whose program is a variable an earlier command of the same line
//! certainly set to a literal (`x=rm; $x foo` is matched as `rm foo`; see
//! [`super::variables`] for what certainly means). Any other
//! program word that is not a literal (`$x`, `$(echo rm)`, `` `…` ``), or
//! is a glob or braces the shell expands (`/bin/r?`), is noted as
//! [`Invocation::unknown_program`]: no rule can be matched against a
//! program known only when the command runs. A double-quoted variable in
//! the directory before a literal file name (`"$HOME/bin/cargo"`) is not.

use std::collections::{HashMap, HashSet};

use lean_ctx_shell_syntax::{Command, Quote, Quoted, Word};

use super::scope::Place;
use super::variables::{Variables, defined_function};
use super::wrappers::{self, Chdir, Output, Run};
use super::{arithmetic, git_config};
use super::{braces, env_files, env_split, expand, option_files};

/// Nesting of `sh -c` and `eval` followed at most.
const MAX_DEPTH: usize = 8;
/// Bytes of scripts (`sh -c`, `eval`, a program held in a variable) split
/// for one line at most, besides the line's own length: a variable's
/// script is split again with the same variables, so a few hundred bytes
/// (`v1='$v0;$v0;…'; v2='$v1;…'; … $v8`) would otherwise make billions of
/// commands. A script past the budget is not followed and its program is
/// known only when it runs.
const SCRIPT_BUDGET: usize = 1 << 16;
/// Look-through steps (wrappers, assignments, keywords) given views of
/// their own at most, besides the last.
const MAX_VIEW_STEPS: usize = 8;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BashPattern {
    Any,
    Exact(String),
    Prefix(String),
    /// The literal text between stars; `bare` is the pattern without a
    /// trailing ` *`, which also matches.
    Wildcard {
        pieces: Vec<String>,
        bare: Option<String>,
    },
}

impl BashPattern {
    pub(crate) fn parse(spec: &str) -> BashPattern {
        let spec = normalize(spec);
        if spec.is_empty() || spec == "*" {
            return BashPattern::Any;
        }
        if let Some(prefix) = spec.strip_suffix(":*")
            && !has_unescaped_star(prefix)
        {
            let prefix = unescape(prefix).trim_end().to_string();
            return if prefix.is_empty() { BashPattern::Any } else { BashPattern::Prefix(prefix) };
        }
        if !has_unescaped_star(&spec) {
            return BashPattern::Exact(unescape(&spec));
        }
        let pieces = split_stars(&spec);
        let bare = match spec.strip_suffix(" *") {
            Some(head) if !has_unescaped_star(head) && !head.ends_with('\\') => Some(unescape(head)),
            _ => None,
        };
        BashPattern::Wildcard { pieces, bare }
    }

    /// Whether the pattern matches `view` (already whitespace-normalized).
    pub(crate) fn matches(&self, view: &str) -> bool {
        match self {
            BashPattern::Any => true,
            BashPattern::Exact(exact) => view == exact,
            BashPattern::Prefix(prefix) => {
                let as_written = view.strip_prefix(prefix.as_str()).is_some_and(|rest| {
                    let word_end = prefix.ends_with(|c: char| c.is_alphanumeric() || c == '_');
                    !word_end || !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '-')
                });
                as_written || options_given(prefix, view)
            }
            BashPattern::Wildcard { pieces, bare } => bare.as_deref() == Some(view) || wildcard_match(pieces, view),
        }
    }
}

/// Long options that are a short one's long name, per program, for [`options_given`].
const LONG_LETTERS: [(&str, &[(&str, char)]); 1] =
    [("rm", &[("recursive", 'r'), ("force", 'f'), ("dir", 'd'), ("verbose", 'v'), ("interactive", 'i')])];

/// Whether a rule `PROGRAM -LETTERS` (`rm -rf`) covers `view` as the options it names: the program
/// with each of those letters given in any order or grouping, anywhere before `--` (`rm -fr x`, `rm
/// -r -f x`, `rm x -Rf`, `rm --recursive --force x`; rm's `-R` is `-r`). A user denying `rm -rf`
/// means the removal, not how its options are spelt; the rule as written matches too.
fn options_given(prefix: &str, view: &str) -> bool {
    let Some((program, letters)) = prefix.split_once(' ') else { return false };
    let Some(letters) =
        letters.strip_prefix('-').filter(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphabetic()))
    else {
        return false;
    };
    let mut words = view.split(' ');
    if words.next() != Some(program) {
        return false;
    }
    let long = LONG_LETTERS.iter().find(|(name, _)| *name == program).map_or(&[][..], |(_, long)| long);
    let same = |c: char| if program == "rm" && c == 'R' { 'r' } else { c };
    let mut given = String::new();
    for word in words.take_while(|word| *word != "--") {
        if let Some(name) = word.strip_prefix("--") {
            given.extend(long.iter().filter(|(long, _)| *long == name).map(|(_, letter)| *letter));
        } else if let Some(cluster) = word.strip_prefix('-') {
            given.extend(cluster.chars().map(same));
        }
    }
    letters.chars().map(same).all(|letter| given.contains(letter))
}

/// `*` (unescaped) matches any text.
fn wildcard_match(pieces: &[String], text: &str) -> bool {
    let (Some(first), Some(last)) = (pieces.first(), pieces.last()) else { return false };
    if pieces.len() == 1 {
        return text == first;
    }
    if text.len() < first.len() + last.len() || !text.starts_with(first.as_str()) || !text.ends_with(last.as_str()) {
        return false;
    }
    let end = text.len() - last.len();
    let mut at = first.len();
    for piece in &pieces[1..pieces.len() - 1] {
        match text.get(at..end).and_then(|window| window.find(piece.as_str())) {
            Some(found) => at += found + piece.len(),
            None => return false,
        }
    }
    true
}

fn has_unescaped_star(text: &str) -> bool {
    let mut escaped = false;
    for c in text.chars() {
        match (escaped, c) {
            (true, _) => escaped = false,
            (false, '\\') => escaped = true,
            (false, '*') => return true,
            _ => {}
        }
    }
    false
}

/// `\*` → `*`, `\\` → `\`; other backslashes stay.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&next @ ('*' | '\\')) = chars.peek()
        {
            out.push(next);
            chars.next();
        } else {
            out.push(c);
        }
    }
    out
}

fn split_stars(text: &str) -> Vec<String> {
    let mut pieces = vec![String::new()];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if matches!(chars.peek(), Some('*' | '\\')) => {
                pieces.last_mut().expect("never empty").push(chars.next().expect("peeked"));
            }
            '*' => pieces.push(String::new()),
            c => pieces.last_mut().expect("never empty").push(c),
        }
    }
    pieces
}

pub(crate) fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One simple command as rules see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Invocation {
    /// The texts rules are matched against, whitespace-normalized.
    pub(crate) views: Vec<String>,
    /// The command run once wrappers are looked through (`rm` for
    /// `sudo rm -rf x`), and the words after it, options included.
    pub(crate) program: Option<String>,
    /// The program's word, quotes removed (`./zz`, `/bin/rm`), before its
    /// directory was taken off for [`Invocation::program`].
    pub(crate) program_word: Option<String>,
    pub(crate) args: Vec<Arg>,
    pub(crate) redirects: Vec<Redirection>,
    /// The program's word as written when it is not a literal (`$x`,
    /// `$(echo rm)`): what runs is known only when the command does.
    pub(crate) unknown_program: Option<String>,
    /// The wrapper running it where the paths it names are not the host's
    /// (`bwrap --bind . /mnt`, `proot -r dir`), as written: what it reads
    /// and writes is known only when it runs.
    pub(crate) other_files: Option<String>,
    /// The wrapper (`xargs`, `parallel`) that adds to the program's
    /// arguments names it reads from its input when the command runs.
    pub(crate) input_names: Option<String>,
    /// The variables set for the program alone, by name (`GIT_DIR=x git …`,
    /// `env GIT_DIR=x git …`, `bwrap --setenv GIT_DIR x git …`), and those of [`EXPORTS_FOLLOWED`] an earlier
    /// command of the line set (`export GIT_DIR=x; git …`; not a literal
    /// when it may not be exported or hold another value).
    pub(crate) assignments: Vec<(String, Arg)>,
    /// The directory a wrapper runs the program in (`env -C dir`).
    pub(crate) chdir: Option<Arg>,
    /// The environment of the script it hands to a shell of its own (`sh
    /// -c`, `su -c`), which starts in [`Invocation::chdir`].
    pub(crate) script_env: Option<Vec<u32>>,
    /// That script is git's (a `!` alias, a pager), which runs at the top
    /// of the repository git finds, not where git starts.
    pub(crate) script_at_top: bool,
    /// The files a wrapper reads its arguments from (`xargs -a F`,
    /// `parallel … :::: F`), with the wrapper's name.
    pub(crate) wrapper_reads: Vec<(String, Arg)>,
    /// The files a wrapper writes itself (`time -o F`, `script F`), with
    /// the wrapper's name.
    pub(crate) wrapper_writes: Vec<(String, Arg)>,
    /// Where it runs, scripts it is part of (`sh -c`, `eval`) included.
    pub(crate) place: Place,
    /// It may set any variable and change the directory of the shell it
    /// runs in: `source`, `.`, `eval` of a word known only when it runs, a
    /// function the line defines.
    pub(crate) sets_anything: bool,
    /// It is a command of a function's body (`f() { cat x; }`), run when
    /// the function is called, or of a mapfile callback, run between the
    /// lines it reads: in a directory and with variables not known here.
    /// The definition's first command as written (`f() { cat x`), or the
    /// mapfile command.
    pub(crate) function_body: Option<String>,
    /// The function whose header this command is (`f` for `f() { cat x`).
    pub(crate) defines_function: Option<String>,
    /// It is a command of a mapfile callback: each run starts where the
    /// one before left the directory.
    pub(crate) runs_repeatedly: bool,
    /// It may move the directory of the shell it runs in: `cd`, `pushd`,
    /// `popd`, or what may set anything ([`Invocation::sets_anything`]),
    /// but for a call of a function the line defines, whose body's
    /// commands are the line's own.
    pub(crate) moves_dir: bool,
}

/// A word after the program, or a redirection's target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Arg {
    /// Quotes removed.
    pub(crate) text: String,
    /// The word as a glob pattern, when the shell would expand it as one.
    pub(crate) glob: Option<String>,
    /// No variable or substitution decides what the word becomes.
    pub(crate) literal: bool,
    /// For a word that is one variable an earlier command of the line
    /// certainly set to a literal (`f=x; cat "$f"`), the words that value
    /// makes (the word stays not literal: it is said as written). For a
    /// loop's variable in its body, each of the loop's words.
    pub(crate) values: Vec<Arg>,
    /// The word can be nothing but one of `values`, so it is as known as
    /// they are: a variable certainly set to a literal, or a loop's
    /// variable, double-quoted, in the loop's body (`for f in src/*.rs; do
    /// wc -l "$f"; done`).
    pub(crate) only_values: bool,
}

/// The variables a line has set, as a command running at `env` sees them.
struct Seen<'a> {
    variables: &'a Variables,
    env: &'a [u32],
}

impl Seen<'_> {
    fn value(&self, name: &str) -> Option<&str> {
        self.variables.value(name, self.env)
    }

    /// The value of the variable an unquoted `word` names, when the words
    /// it splits into are known: not once the line may have set IFS.
    fn unquoted_value(&self, word: &str) -> Option<&str> {
        variable(word).filter(|_| self.variables.splits_at_whitespace(self.env)).and_then(|name| self.value(name))
    }
}

impl Arg {
    fn of(word: &Word, vars: &Seen<'_>) -> Arg {
        let literal = word.is_literal();
        let (values, only_values) = if literal { (Vec::new(), false) } else { values(word, vars) };
        Arg { text: word.text.clone(), glob: word.glob(), literal, values, only_values }
    }

    pub(crate) fn literal(text: &str, glob: Option<String>) -> Arg {
        Arg { text: text.to_string(), glob, literal: true, values: Vec::new(), only_values: false }
    }

    /// A word known only when the command runs, with nothing known of it.
    fn unknown(text: String) -> Arg {
        Arg { text, glob: None, literal: false, values: Vec::new(), only_values: false }
    }

    /// The end of the word from byte `from` (an option's value written in
    /// its word, `--target-directory=dir`): the option's text holds no
    /// glob, so the glob's end is the value's.
    pub(crate) fn tail(&self, from: usize) -> Arg {
        if from == 0 {
            return self.clone();
        }
        let prefix = &self.text[..from];
        let glob = self.glob.as_deref().and_then(|glob| glob.strip_prefix(prefix)).map(str::to_string);
        let text = self.text[from..].to_string();
        Arg { text, glob, literal: self.literal, values: Vec::new(), only_values: false }
    }
}

/// The words a word that is one variable the line set to a literal
/// becomes: the value, whole when the word is double-quoted, else split at
/// whitespace and each piece globbed (not brace-expanded: braces come
/// before variables); and whether they are all it can be (see
/// [`Arg::only_values`]). None for any other word.
fn values(word: &Word, vars: &Seen<'_>) -> (Vec<Arg>, bool) {
    let quoted = word.quoted_at(0).is_some();
    if let Some(words) = variable(&word.text).and_then(|name| vars.variables.loop_words(name, vars.env)) {
        // Each of the loop's words, as the loop expanded it; split again when unquoted.
        let words = words.iter().map(|(text, glob)| Arg::literal(text, glob.clone())).collect();
        return (words, quoted);
    }
    if quoted {
        let value = variable(&word.text).and_then(|name| vars.value(name));
        return (value.map(|value| Arg::literal(value, None)).into_iter().collect(), value.is_some());
    }
    let Some(value) = vars.unquoted_value(&word.text) else { return (Vec::new(), false) };
    let glob = |piece: &str| {
        expand::is_pattern(piece).then(|| piece.replace('{', "\\{").replace('}', "\\}").replace(',', "\\,"))
    };
    (value.split_whitespace().map(|piece| Arg::literal(piece, glob(piece))).collect(), true)
}

/// A file a redirection reads (`<`) or writes (`>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Redirection {
    pub(crate) write: bool,
    pub(crate) target: Arg,
}

/// The simple commands `line` runs, including `sh -c` scripts and `eval`,
/// in a shell whose environment has `env` added (see
/// [`Variables::environment`]).
pub(crate) fn invocations(line: &str, env: &[(String, String)]) -> Vec<Invocation> {
    let mut out = Vec::new();
    let mut line_ids = 0;
    let mut budget = line.len() + SCRIPT_BUDGET;
    let mut later = Vec::new();
    let mut walk = Walk { ids: &mut line_ids, budget: &mut budget, out: &mut out, later: &mut later };
    collect(line, 0, &Place::default(), &mut Variables::environment(env), &mut walk);
    // A function the environment gives every bash the line starts (see `imported_function`).
    for (name, value) in env {
        if let Some(body) = imported_function(name, value) {
            collect_repeated(body, 0, &Place::default(), &format!("{name}={value}"), &mut walk);
        }
    }
    // A trap's action runs when the shell exits or gets a signal: after the
    // line's commands at the earliest, with its variables then not known here.
    let mut next = 0;
    while let Some((text, depth, place)) = walk.later.get(next).cloned() {
        collect(&text, depth + 1, &place, &mut Variables::unknown(), &mut walk);
        next += 1;
    }
    drop_uncalled_bodies(&mut out);
    out
}

/// Drops the commands of the bodies of functions the line defines but
/// never calls (`clean() { rm -rf build; }; echo hi`): defining one runs
/// none of its body. A function is called where a command's program is its
/// name, outside any body or in the body of one called; all are kept where
/// a program is known only when it runs (`$f` may be a call). A call from a
/// script or sourced file is not seen, as what those run by themselves is not.
fn drop_uncalled_bodies(out: &mut Vec<Invocation>) {
    // Each body by its first command, with the functions defined in it (nested ones too).
    let mut defined: HashMap<&str, Vec<&str>> = HashMap::new();
    for run in out.iter() {
        if let (Some(body), Some(name)) = (&run.function_body, &run.defines_function) {
            defined.entry(body.as_str()).or_default().push(name.as_str());
        }
    }
    // bash calls this one itself, for any command it cannot find.
    let mut called: HashSet<&str> = HashSet::from(["command_not_found_handle"]);
    let runs = |run: &Invocation, called: &HashSet<&str>| match run.function_body.as_deref() {
        None => true,
        Some(body) => defined.get(body).is_none_or(|names| names.iter().any(|name| called.contains(name))),
    };
    loop {
        let before = called.len();
        let live: Vec<&Invocation> = out.iter().filter(|run| runs(run, &called)).collect();
        // Any word of a command that runs may call one: the program past wrappers, and the
        // wrappers' own words (`sudo() { rm …; }; sudo ls` runs the function `sudo`).
        called.extend(live.iter().flat_map(|run| {
            let words = run.views.iter().flat_map(|view| view.split_whitespace());
            run.program.as_deref().into_iter().chain(run.program_word.as_deref()).chain(words)
        }));
        if called.len() == before {
            break;
        }
    }
    if out.iter().any(|run| runs(run, &called) && run.unknown_program.is_some()) {
        return;
    }
    let keep: Vec<bool> = out.iter().map(|run| runs(run, &called)).collect();
    let mut keep = keep.into_iter();
    out.retain(|_| keep.next().unwrap_or(true));
}

/// Environments of a script git runs by its configuration (see
/// [`invocations_at`]) are numbered from here, apart from the line's.
const CONFIGURED_IDS: u32 = u32::MAX / 2;

/// The commands of `script`, a command line git runs by its configuration
/// in place of a command at `place` (an alias the files give), the
/// `count`th such script of the line: as a line's, with no variable known,
/// and its environments inside the command's.
pub(crate) fn invocations_at(script: &str, place: &Place, count: u32) -> Vec<Invocation> {
    let mut out = Vec::new();
    let mut ids = CONFIGURED_IDS + count.saturating_mul(1 << 16);
    let mut budget = script.len() + SCRIPT_BUDGET;
    let mut later = Vec::new();
    let mut walk = Walk { ids: &mut ids, budget: &mut budget, out: &mut out, later: &mut later };
    collect(script, 1, place, &mut Variables::default(), &mut walk);
    out
}

/// What splitting one line carries through its scripts: the environment
/// ids taken so far, so a script's own environments get new ones; the
/// script bytes it may still split; the commands found; the scripts run
/// later (a trap's action), with their depth and where they were set.
struct Walk<'a> {
    ids: &'a mut u32,
    budget: &'a mut usize,
    out: &'a mut Vec<Invocation>,
    later: &'a mut Vec<(String, usize, Place)>,
}

/// Collects the commands of `line`, a script run at `within` (the line's
/// own shell, or the command running it) whose variables are `vars`.
fn collect(line: &str, depth: usize, within: &Place, vars: &mut Variables, walk: &mut Walk<'_>) {
    collect_commands(lean_ctx_shell_syntax::split(line), depth, within, vars, walk);
}

/// [`collect`] for a line already split into its commands.
fn collect_commands(commands: Vec<Command>, depth: usize, within: &Place, vars: &mut Variables, walk: &mut Walk<'_>) {
    let base = *walk.ids;
    *walk.ids += commands.iter().flat_map(|command| command.env.iter().copied()).max().unwrap_or(0);
    // The `{ … }` body of a function being defined: the depth of braces
    // its `}` returns to, and its first command as written.
    let mut body: Option<(isize, String)> = None;
    let mut braces_open: isize = 0;
    for (at, command) in commands.iter().enumerate() {
        let env = within.env.iter().copied().chain(command.env.iter().map(|id| base + id)).collect();
        let place = Place { env, conditional: within.conditional || command.conditional };
        vars.enter_loop(&commands[at..], &place);
        let (invocation, scripts, braces) = look_through(command, &place, vars, body.as_ref().map(|(_, first)| first));
        if body.is_none() && invocation.function_body.is_some() && opens_braced_body(&command.words) {
            body = invocation.function_body.clone().map(|first| (braces_open, first));
        }
        braces_open += braces;
        body = body.filter(|(open, _)| braces_open > *open);
        let sets_anything = invocation.sets_anything;
        let scripts = scripts.into_iter().filter(|_| depth < MAX_DEPTH);
        let own = walk.out.len();
        walk.out.push(invocation);
        for Script { text, runs, program } in scripts {
            if text.len() > *walk.budget {
                walk.out[own].unknown_program.get_or_insert(program);
                continue;
            }
            *walk.budget -= text.len();
            if runs == Runs::Later {
                walk.later.push((text, depth, place.clone()));
            } else if matches!(runs, Runs::OwnShell | Runs::Startup) {
                *walk.ids += 1;
                let mut env = place.env.clone();
                env.push(*walk.ids);
                let inner = Place { env, conditional: place.conditional };
                let mut inherited = vars.inherited(&place.env);
                if runs == Runs::Startup {
                    let commands = lean_ctx_shell_syntax::split_expanded(&text);
                    collect_commands(commands, depth + 1, &inner, &mut inherited, walk);
                    continue;
                }
                walk.out[own].script_env = Some(inner.env.clone());
                collect(&text, depth + 1, &inner, &mut inherited, walk);
            } else if runs == Runs::Repeatedly {
                collect_repeated(&text, depth, &place, &normalize(&command.raw), walk);
            } else {
                collect(&text, depth + 1, &place, vars, walk);
            }
        }
        let numbers = arithmetic::numbers(command, vars, &place.env);
        vars.record(&command.words, &numbers, &place, within, sets_anything);
    }
}

/// Collects `text`, run at `place` any number of times (see
/// [`Runs::Repeatedly`]) as `by` has it run: knowing no variable, each of
/// its commands marked as run so.
fn collect_repeated(text: &str, depth: usize, place: &Place, by: &str, walk: &mut Walk<'_>) {
    let first = walk.out.len();
    collect(text, depth + 1, place, &mut Variables::unknown(), walk);
    walk.out[first..].iter_mut().for_each(|run| {
        run.function_body.get_or_insert_with(|| by.to_string());
        run.runs_repeatedly = true;
    });
}

/// The body of the function bash 5.2 defines from the environment
/// variable `name` set to `value`: `f` from `BASH_FUNC_f%%`, when its value
/// starts `() {`. Bash passes it on to the bashes it starts, and runs the
/// body wherever one calls `f`: any number of times, with what it holds then.
pub(crate) fn imported_function<'a>(name: &str, value: &'a str) -> Option<&'a str> {
    let function = name.strip_prefix("BASH_FUNC_")?.strip_suffix("%%")?;
    (!function.is_empty() && value.starts_with("() {")).then(|| &value[2..])
}

/// Commands a command hands to a shell, and whether that shell is a
/// process of its own (`sh -c`, `find -exec`) or the one it runs in
/// (`eval`, a program held in a variable).
struct Script {
    text: String,
    runs: Runs,
    /// The word that runs it as written (`eval`, `sh`, `$x`).
    program: String,
}

/// How a script a command hands on runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Runs {
    /// In the shell the command runs in, now (`eval`, `$x`).
    Here,
    /// In a shell of its own started now (`sh -c`, `find -exec`).
    OwnShell,
    /// In the shell the command runs in, when it exits or gets a signal
    /// (`trap 'action' EXIT`).
    Later,
    /// In the shell the command runs in, while it runs, any number of
    /// times (mapfile's callback): each run follows what the one before
    /// set and where it moved, so none of it is known.
    Repeatedly,
    /// Expanded, not run, by a shell the command starts, as it starts: the
    /// name of the file `BASH_ENV` gives bash (see
    /// [`lean_ctx_shell_syntax::split_expanded`]), whose substitutions run.
    Startup,
}

pub(crate) const KEYWORDS: [&str; 14] =
    ["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}", "case", "esac"];

/// Environment variables an earlier command's export gives the program,
/// followed for git's repository and index (the first), the commands git
/// runs, the files a variable has a program open, and the `PATH` a program
/// the line made may be found through.
const EXPORTS_FOLLOWED: [&[&str]; 6] = [
    &["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"],
    &git_config::COMMAND_VARIABLES,
    &env_files::TRACES,
    &env_files::STARTUP,
    &env_files::COMMANDS,
    &["PATH"],
];

/// Wrappers that run the command on names they read from their input.
const INPUT_NAMES: [&str; 2] = ["xargs", "parallel"];

/// Shells whose `-c` runs a script: bash's family (rbash), ksh's, busybox's,
/// and others taking `-c` alike (fish, csh), split as `sh` splits it.
pub(crate) const SHELLS: [&str; 18] = [
    "sh", "bash", "rbash", "zsh", "dash", "ash", "hush", "ksh", "ksh93", "mksh", "lksh", "pdksh", "oksh", "yash",
    "posh", "fish", "csh", "tcsh",
];

/// Programs whose global options come before a subcommand, and those of the options that take a
/// value as the next word: a rule names the subcommand (`git push`), which the options would
/// otherwise keep it from matching (`git -C . push`).
const GLOBAL_OPTIONS: [(&str, &[&str]); 5] = [
    ("git", &["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path"]),
    ("cargo", &["-C", "-Z", "--config", "--color"]),
    ("npm", &["--prefix", "-C", "-w", "--workspace", "--userconfig"]),
    ("docker", &["-H", "--host", "-c", "--context", "--config", "-l", "--log-level"]),
    ("kubectl", &["-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server"]),
];

/// The views of `command`, and the scripts it hands to a shell: a `sh -c`
/// script, `eval`'s words, the command itself with a program held in a
/// variable the line set to a literal (`x=rm; $x foo` runs `rm foo`), or
/// what git runs of its configuration (an alias, a pager, both).
/// `body`: the first command of the function body it is part of, as
/// written. Also how many braces (`{`, `}`) it opens, less those it closes.
fn look_through(
    command: &Command,
    place: &Place,
    variables: &Variables,
    body: Option<&String>,
) -> (Invocation, Vec<Script>, isize) {
    let words = &command.words;
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    // Where the command starts at each step of looking through; views are
    // made for the first steps and the last, so a line of a thousand
    // assignments costs a few views, not a thousand.
    let mut starts = vec![0];
    while let Some(next) = skip_prefix(words, &texts, *starts.last().expect("never empty")) {
        starts.push(next);
    }
    // A function's body runs when it is called, with what the line holds then.
    let header = starts.iter().find(|&&start| function_header(&words[start..]) > 0);
    let defines = header.is_some();
    let defines_function = header.and_then(|&start| defined_function(&words[start..]));
    let braces = starts.iter().map(|&start| isize::from(texts.get(start) == Some(&"{"))).sum::<isize>()
        - closing_braces(words, &starts);
    let function_body = match body {
        Some(first) => Some(first.clone()),
        None => defines.then(|| normalize(&command.raw)),
    };
    let aliases = variables;
    let unknown = Variables::unknown();
    let variables = if function_body.is_some() { &unknown } else { variables };
    let vars = &Seen { variables, env: &place.env };
    let mut views = Vec::new();
    let mut add = |view: String| {
        if !view.is_empty() && !views.contains(&view) {
            views.push(view);
        }
    };
    add(normalize(&command.raw));
    let at = *starts.last().expect("never empty");
    let shown_starts =
        starts.iter().take(MAX_VIEW_STEPS).chain(starts.last().filter(|_| starts.len() > MAX_VIEW_STEPS));
    for &start in shown_starts {
        add(normalize(command.raw.get(words.get(start).map_or(0, |w| w.span.start)..).unwrap_or_default()));
        add(normalize(&texts.get(start..).unwrap_or_default().join(" ")));
        // A program given by path; an assignment's value is none (`X=/bin/rm ls` runs ls).
        let by_path = |word: &&&str| word.contains('/') && !is_assignment(word);
        if let Some(name) = texts.get(start).filter(by_path).map(|word| basename(word)) {
            let rest = texts.get(start + 1..).unwrap_or_default();
            add(normalize(&format!("{name} {}", rest.join(" "))));
        }
    }
    let program = texts.get(at).map(|word| basename(word).to_string());
    if let Some(name) = program.as_deref() {
        for subcommand in subcommand_starts(&texts, at) {
            add(normalize(&format!("{name} {}", texts[subcommand..].join(" "))));
        }
    }
    let args: Vec<Arg> = words.get(at + 1..).unwrap_or_default().iter().map(|word| Arg::of(word, vars)).collect();
    let redirects = command
        .redirects
        .iter()
        .map(|redirect| Redirection { write: redirect.write, target: Arg::of(&redirect.target, vars) })
        .collect();
    let input_names = starts[..starts.len() - 1]
        .iter()
        .map(|&start| basename(texts[start]))
        .find(|wrapper| INPUT_NAMES.contains(wrapper))
        .map(str::to_string);
    // The program itself may be a wrapper running a script there (`su -l -c …`).
    let chdir = starts.iter().filter_map(|&start| Some((start, wrapper_chdir(&texts, start)?))).next_back();
    let chdir_at = chdir.as_ref().map(|(start, _)| *start);
    let chdir = chdir.map(|(_, chdir)| match chdir {
        Chdir::Word(word, from) => {
            let word = &words[word];
            Arg { text: word.text[from..].to_string(), glob: None, ..Arg::of(word, vars) }
        }
        Chdir::FromRoot(word, from) => {
            let word = &words[word];
            let text = &word.text[from..];
            let text = if text.starts_with('/') { text.to_string() } else { format!("/{text}") };
            Arg { text, glob: None, ..Arg::of(word, vars) }
        }
        Chdir::Unknown => Arg::unknown(texts.get(at).copied().unwrap_or_default().to_string()),
    });
    // The files a wrapper reads itself (`xargs -a F`, `dbus-run-session --config-file F`).
    let wrapper_reads = starts
        .windows(2)
        .flat_map(|pair| {
            let wrapper = basename(texts[pair[0]]);
            let options = pair[0] + 1;
            let files = wrappers::run(wrapper, &texts[options..]).map(|wrapped| wrapped.reads).unwrap_or_default();
            let files = files.into_iter().filter_map(|file| match file {
                Output::Word(word, from) => Some(Arg::of(&words[options + word], vars).tail(from)),
                Output::Default(_) => None,
            });
            let sources = match wrapper {
                "parallel" => option_files::parallel_sources(&texts[pair[1]..]),
                _ => Vec::new(),
            };
            let sources = sources.into_iter().map(|at| Arg::of(&words[pair[1] + at], vars));
            files.chain(sources).map(|file| (wrapper.to_string(), file)).collect::<Vec<_>>()
        })
        .collect();
    let wrapper_writes = starts
        .iter()
        .filter_map(|&start| Some((start, wrappers::run(basename(texts.get(start)?), &texts[start + 1..])?)))
        .flat_map(|(start, wrapped)| {
            let wrapper = basename(texts[start]).to_string();
            wrapped.writes.into_iter().map(move |output| {
                let file = match output {
                    Output::Word(word, from) => Arg::of(&words[start + 1 + word], vars).tail(from),
                    Output::Default(name) => Arg::literal(name, None),
                };
                // Written where the wrapper runs, not where a wrapper after it moves the command
                // (`time -o f env -C dir …`), which the directory the command runs in is.
                let elsewhere = chdir_at.is_some_and(|chdir| chdir > start) && !file.text.starts_with('/');
                (wrapper.clone(), if elsewhere { Arg::unknown(file.text) } else { file })
            })
        })
        .collect();
    let mut unknown_program = words.get(at).filter(|word| known_only_when_run(word)).map(|word| word.text.clone());
    let mut other_files = None;
    let program_word = words.get(at).map(|word| word.text.clone()).unwrap_or_default();
    let script = |runs: Runs| {
        let program = program_word.clone();
        move |text: String| Script { text, runs, program }
    };
    let (same_shell, own_shell) = (script(Runs::Here), script(Runs::OwnShell));
    let script = match program.as_deref() {
        Some("eval") => Some(same_shell(texts.get(at + 1..).unwrap_or_default().join(" "))),
        Some(shell) if SHELLS.contains(&shell) => match shell_runs(&texts[at + 1..]) {
            ShellRuns::Command(text) => Some(own_shell(text.to_string())),
            // Commands its input holds are known only when it runs (`echo 'rm -rf x' | sh`).
            ShellRuns::Input => {
                unknown_program.get_or_insert_with(|| format!("{shell} (the commands of its input)"));
                None
            }
            ShellRuns::File => None,
        },
        Some("find") => find_commands(command, at).map(own_shell),
        Some("trap") => trap_action(&texts[at + 1..]).map(|(action, _)| script(Runs::Later)(action.to_string())),
        // Its callback is evaluated with an index and the line read, single-quoted, after it.
        Some("mapfile" | "readarray") => {
            mapfile_callback(&texts[at + 1..]).map(|callback| script(Runs::Repeatedly)(format!("{callback} 0 \"$_\"")))
        }
        Some(name) if wrappers::is_wrapper(name) => match wrappers::run(name, &texts[at + 1..]).map(|w| w.run) {
            Some(Run::Script(text)) => Some(own_shell(text)),
            Some(Run::Unknown(written)) => {
                unknown_program.get_or_insert(written);
                None
            }
            Some(Run::Elsewhere(written)) => {
                other_files = Some(format!("`{written}`, which shows its command other files at the paths it names"));
                unknown_program.get_or_insert(written);
                None
            }
            Some(Run::Split(word, from)) => {
                // env takes the words its string splits into as its own, in the
                // flag's place: options (`-C dir`), assignments, then the command.
                let option = at + 1 + word;
                env_split::split(&texts[option][from..]).map(|split| {
                    let (flag_word, flag) =
                        if from == 0 { (option - 1, texts[option - 1]) } else { (option, &texts[option][..from]) };
                    let others = flag.strip_suffix('S').filter(|others| !others.starts_with("--") && *others != "-");
                    let raw = |word: usize| {
                        words.get(word).and_then(|word| command.raw.get(word.span.start..)).unwrap_or_default()
                    };
                    let before = &raw(at + 1)[..raw(at + 1).len() - raw(flag_word).len()];
                    let options = format!("{before}{}", others.unwrap_or_default());
                    // Without options, the command alone, so what it matches is said as it.
                    let bare = options.trim().is_empty() && !split.first().is_some_and(|word| word.starts_with('-'));
                    let env = if bare { String::new() } else { format!("env {options} ") };
                    own_shell(format!("{env}{} {}", split.join(" "), raw(option + 1)))
                })
            }
            _ => None,
        },
        _ => {
            let quoted = words.get(at).is_some_and(|word| word.quoted_at(0).is_some());
            let value = match unknown_program.as_deref() {
                Some(word) if quoted => variable(word).and_then(|name| vars.value(name)),
                Some(word) => vars.unquoted_value(word),
                None => None,
            };
            value.map(|value| {
                unknown_program = None;
                let rest = words.get(at + 1).and_then(|next| command.raw.get(next.span.start..)).unwrap_or_default();
                same_shell(format!("{value} {rest}"))
            })
        }
    };
    // An alias the line defined may stand for the program (once `shopt -s expand_aliases` ran, on a
    // later line): what it expands to runs too.
    let alias = words.get(at).filter(|word| word.quoted.is_empty()).and_then(|word| aliases.alias(&word.text));
    let script = match alias {
        Some(Some(value)) if script.is_none() => {
            let rest = words.get(at + 1).and_then(|next| command.raw.get(next.span.start..)).unwrap_or_default();
            Some(Script { text: format!("{value} {rest}"), runs: Runs::Here, program: program_word.clone() })
        }
        Some(_) => {
            unknown_program.get_or_insert_with(|| texts[at].to_string());
            script
        }
        None => script,
    };
    // Defining a function runs none of it; a body whose end is not followed
    // (`f() ( … )`) is taken as running its commands now.
    let sets_anything = (defines && !opens_braced_body(words))
        || match program.as_deref() {
            Some("eval") => !args.iter().all(|arg| arg.literal),
            Some("mapfile" | "readarray") => mapfile_callback(&texts[at + 1..]).is_some(),
            // Unless on exit alone, its action may run between later commands (DEBUG: before each).
            Some("trap") => {
                trap_action(&texts[at + 1..]).is_some_and(|(_, signals)| !signals.iter().all(|s| on_exit(s)))
            }
            Some(name) => variables.may_set_anything(name),
            None => false,
        };
    let calls_function = program.as_deref().is_some_and(|name| aliases.defines_function(name));
    let moves_dir = matches!(program.as_deref(), Some("cd" | "pushd" | "popd")) || (sets_anything && !calls_function);
    let assignments = (0..at.min(words.len())).filter(|&i| is_assignment(&words[i].text)).map(|i| {
        let (name, value) = words[i].text.split_once('=').expect("an assignment");
        (i, name.to_string(), Arg { text: value.to_string(), glob: None, ..Arg::of(&words[i], vars) })
    });
    // A wrapper's own (`bwrap --setenv NAME VALUE`), in the order the words give them.
    let wrapper_set = wrapper_sets(&texts, &starts);
    let set = wrapper_set.iter().map(|&(name, value)| (name, value));
    let set = set.map(|(name, value)| (name, texts[name].to_string(), Arg::of(&words[value], vars)));
    let mut assignments: Vec<_> = assignments.chain(set).collect();
    assignments.sort_by_key(|(at, _, _)| *at);
    let mut assignments: Vec<(String, Arg)> = assignments.into_iter().map(|(_, name, value)| (name, value)).collect();
    let follow_export = |name: &str, assignments: &mut Vec<(String, Arg)>| {
        // A command git runs, a file opened or a `PATH` that a sourced file may have exported is as
        // one the environment held before the line: not seen, as a function such a file defines is not.
        let sourced_only = !EXPORTS_FOLLOWED[0].contains(&name) && !variables.names(name, &place.env);
        if sourced_only || assignments.iter().any(|(set, _)| set == name) {
            return;
        }
        let value = match variables.exported(name, &place.env) {
            Some(Some(value)) => Arg::literal(value, None),
            Some(None) => Arg::unknown(format!("${name}")),
            None => return,
        };
        assignments.push((name.to_string(), value));
    };
    for name in EXPORTS_FOLLOWED.concat() {
        follow_export(name, &mut assignments);
    }
    // The keys and values a `GIT_CONFIG_COUNT` given to git has it read, exported too.
    let count = assignments.iter().find(|(name, value)| name == "GIT_CONFIG_COUNT" && value.literal);
    for name in count.map(|(_, count)| git_config::counted_variables(&count.text)).unwrap_or_default() {
        follow_export(&name, &mut assignments);
    }
    // What git runs of the configuration its line gives it (`git -c alias.x='!rm f' x`): each
    // applies, an alias, the scripts the environment and options give, what `git config` stores.
    let mut script_at_top = false;
    let mut scripts: Vec<Script> = Vec::new();
    if program.as_deref() == Some("git") && script.is_none() {
        let env: Vec<(&str, Option<&str>)> = assignments
            .iter()
            .map(|(name, value)| (name.as_str(), value.literal.then_some(value.text.as_str())))
            .collect();
        let mut subcommands: Vec<usize> =
            subcommand_starts(&texts, at).into_iter().map(|start| start - at - 1).collect();
        // Without global options the subcommand is git's first word.
        if subcommands.is_empty() && texts.len() > at + 1 {
            subcommands.push(0);
        }
        let raw = |word: usize| words.get(at + 1 + word).and_then(|word| command.raw.get(word.span.start..));
        let run = |text: String, runs: Runs| Script { text, runs, program: program_word.clone() };
        let literal: Vec<bool> = words[at + 1..].iter().map(Word::is_literal).collect();
        let runs = git_config::runs(&texts[at + 1..], &literal, &subcommands, &env);
        if let Some(written) = runs.unknown {
            unknown_program.get_or_insert(written);
        }
        if let Some((alias, value)) = runs.alias {
            // Git runs the alias's command line in the alias's place, with its global options.
            let (globals, rest) = (raw(0).unwrap_or_default(), raw(alias + 1).unwrap_or_default());
            let globals = &globals[..globals.len() - raw(alias).unwrap_or_default().len()];
            scripts.push(run(format!("git {globals}{value} {rest}"), Runs::Here));
        }
        if !runs.scripts.is_empty() {
            let mut own = runs.scripts;
            // A `!` alias's script, first, takes the words after the alias.
            if let Some(rest) = runs.rest_at.map(|rest_at| raw(rest_at).unwrap_or_default()) {
                own[0] = format!("{} {rest}", own[0]);
            }
            scripts.push(run(own.join("\n"), Runs::OwnShell));
            script_at_top = true;
        }
        if let Some(config) = subcommands.iter().copied().find(|&sub| texts.get(at + 1 + sub) == Some(&"config")) {
            // What `git config` stores runs later, unseen then: checked now.
            let stored = git_config::stored(&texts[at + 1 + config + 1..], &literal[config + 1..]);
            if let Some(written) = stored.unknown {
                unknown_program.get_or_insert(written);
            }
            if !stored.scripts.is_empty() {
                scripts.push(run(stored.scripts.join("\n"), Runs::Later));
            }
        }
    }
    // A shell the command starts expands the name of the file it runs first, quotes in it plain
    // characters (`BASH_ENV='$(rm -rf qa)'` runs rm). A value the line's shell expanded is known
    // only when it runs (see `Finder::environment_file`).
    for (name, value) in &assignments {
        let startup =
            env_files::use_of(name, program.as_deref().unwrap_or_default(), texts.get(at + 1..).unwrap_or_default())
                == Some(env_files::Use::Startup);
        if startup && value.literal && value.text.contains(['$', '`']) {
            scripts.push(Script { text: value.text.clone(), runs: Runs::Startup, program: name.clone() });
        }
    }
    // A function bash imports from a variable env or sudo sets (see `imported_function`).
    let assigned = words.get(..at).unwrap_or_default().iter().filter_map(|word| {
        let (name, value) = word.text.split_once('=')?;
        Some((word.text.clone(), name, value, word.is_literal()))
    });
    let set = wrapper_set.iter().map(|&(name, value)| {
        let literal = words[name].is_literal() && words[value].is_literal();
        (format!("{} {}", texts[name], texts[value]), texts[name], texts[value], literal)
    });
    for (written, name, value, literal) in assigned.chain(set) {
        let Some(body) = imported_function(name, value) else { continue };
        if literal {
            scripts.push(Script { text: body.to_string(), runs: Runs::Repeatedly, program: written });
        } else {
            unknown_program.get_or_insert(format!("{written} (a function bash imports)"));
        }
    }
    scripts.extend(script);
    // What its arithmetic evaluates may run a command known only then.
    let unknown_program = unknown_program
        .or_else(|| arithmetic::unknown(command, variables, &place.env))
        .or_else(|| trace_prompt(&command.words));
    let place = place.clone();
    let invocation = Invocation {
        views,
        program,
        program_word: texts.get(at).map(|word| word.to_string()),
        args,
        redirects,
        unknown_program,
        other_files,
        input_names,
        assignments,
        chdir,
        script_env: None,
        script_at_top,
        wrapper_reads,
        wrapper_writes,
        place,
        sets_anything,
        function_body,
        defines_function,
        runs_repeatedly: false,
        moves_dir,
    };
    (invocation, scripts, braces)
}

/// Whether the program `word` runs is known only when the command runs:
/// a variable or substitution decides it, or the shell expands it as a
/// glob or braces (`/bin/r?`, `/bin/r[m]`: any program may match). A
/// double-quoted `$NAME` or `${NAME}` in a directory before a literal file
/// name (`"$HOME/.cargo/bin/cargo"`) leaves the program's name known;
/// unquoted, the variable's value would be split into words, and the first
/// of them run.
fn known_only_when_run(word: &Word) -> bool {
    if let Some(pattern) = word.glob() {
        // At most one word, or `None`.
        return braces::expand(&pattern, 1).is_none_or(|words| words.iter().any(|word| expand::is_pattern(word)));
    }
    if word.is_literal() {
        return false;
    }
    let Some(slash) = word.text.rfind('/') else { return true };
    let text = word.text.as_bytes();
    let globs = |at: usize| word.quoted_at(at).is_none() && b"*?[{".contains(&text[at]);
    let name_known = !(slash + 1..text.len()).any(|at| word.expands_at(at) || globs(at));
    let directory_quoted_variables = (0..slash).filter(|&at| word.expands_at(at)).all(|at| {
        let double = matches!(word.quoted_at(at), Some(Quoted { quote: Quote::Double, .. }));
        let rest = &word.text[at + 1..];
        let name = rest.strip_prefix('{').and_then(|braced| braced.split_once('}')).map_or_else(
            || rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or_default(),
            |(name, _)| name,
        );
        text[at] == b'$' && double && variable(&format!("${name}")).is_some()
    });
    !(name_known && directory_quoted_variables)
}

/// Where the wrapper at `start` (in `texts`) runs the command at `at`,
/// when an option of it says: env's `-C`, sudo's `-D` (or `-i`, the user's
/// home), unshare's `-w`, systemd-run's (see [`wrappers`]); the word
/// (of `texts`) naming the directory and where in it the name starts.
fn wrapper_chdir(texts: &[&str], start: usize) -> Option<Chdir> {
    match wrappers::run(basename(texts.get(start)?), texts.get(start + 1..)?)?.chdir? {
        Chdir::Word(word, from) => Some(Chdir::Word(start + 1 + word, from)),
        Chdir::FromRoot(word, from) => Some(Chdir::FromRoot(start + 1 + word, from)),
        Chdir::Unknown => Some(Chdir::Unknown),
    }
}

/// The variables the wrappers starting at `starts` (in `texts`) set for
/// the command by options of theirs (see [`wrappers::Wrapped::sets`]):
/// the words naming each and its value.
fn wrapper_sets(texts: &[&str], starts: &[usize]) -> Vec<(usize, usize)> {
    let wrappers = starts
        .iter()
        .filter_map(|&start| Some((start, wrappers::run(basename(texts.get(start)?), &texts[start + 1..])?)));
    wrappers
        .flat_map(|(start, wrapped)| {
            wrapped.sets.into_iter().map(move |(name, value)| (start + 1 + name, start + 1 + value))
        })
        .collect()
}

/// The name in a word that is one variable, `$name` or `${name}`.
fn variable(word: &str) -> Option<&str> {
    let rest = word.strip_prefix('$')?;
    let name = rest.strip_prefix('{').and_then(|rest| rest.strip_suffix('}')).unwrap_or(rest);
    let valid = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then_some(name)
}

/// The index past keywords, assignments, a function's header or one
/// wrapper with its options starting at `at` (in `words`, whose texts are
/// `texts`); `None` when a wrapper has no command after it.
fn skip_prefix(words: &[Word], texts: &[&str], at: usize) -> Option<usize> {
    let word = *texts.get(at)?;
    // `case WORD in` runs nothing: WORD is matched against its patterns.
    if word == "case" {
        return None;
    }
    if KEYWORDS.contains(&word) || is_assignment(word) {
        return Some(at + 1);
    }
    let header = function_header(&words[at..]);
    if header > 0 {
        return Some(at + header);
    }
    let wrapped = wrappers::run(basename(word), &texts[at + 1..])?;
    match wrapped.run {
        Run::Command(command) => Some(at + 1 + command),
        Run::Script(_) | Run::Nothing | Run::Unknown(_) | Run::Split(..) | Run::Elsewhere(_) => None,
    }
}

/// How many `}` at the command's steps (`starts`, in `words`) close a
/// group. Bash takes `}` as one only where a reserved word may stand: the
/// command's first word or one after another reserved word (`fi }`), and
/// unquoted; `'}'`, `\}`, `command }` or `x=1 }` run a program named `}`,
/// and the function's body goes on past them. A `{` is counted wherever it
/// stands: taking one too many keeps a body open longer, which only makes
/// more of the line unknown.
fn closing_braces(words: &[Word], starts: &[usize]) -> isize {
    let reserved = starts
        .iter()
        .map_while(|&start| words.get(start))
        .take_while(|word| word.quoted.is_empty() && KEYWORDS.contains(&word.text.as_str()));
    reserved.filter(|word| word.text == "}").count().try_into().unwrap_or(isize::MAX)
}

/// `PS4=VALUE` set by the command (alone, before a program, or by
/// `export`, `declare`…) when VALUE may run a command: bash expands it,
/// substitutions included, before each command it traces once `set -x` is
/// on (`PS4='$(rm -rf qa)'; set -x; true` runs rm). Such a value, or one
/// known only when it runs, makes what runs unknown.
fn trace_prompt(words: &[Word]) -> Option<String> {
    let words = words.iter().skip_while(|word| KEYWORDS.contains(&word.text.as_str()));
    let runs = |word: &Word| {
        let value = word.text.split_once('=').map_or("", |(_, value)| value);
        !word.is_literal()
            || value.contains("$(")
            || value.contains(['`', '['])
            || value.contains("${!")
            || value.contains("@P")
    };
    let mut set = words.filter(|word| assigned(&word.text).is_some_and(|(name, _)| name == "PS4"));
    set.find(|word| runs(word))
        .map(|_| "PS4=… (a prompt bash expands, running its substitutions, where it traces)".to_string())
}

/// Whether `words` define a function whose body is a `{ … }` group, whose
/// end the brace that closes it marks.
fn opens_braced_body(words: &[Word]) -> bool {
    let header = (0..words.len()).map(|at| function_header(&words[at..])).find(|&header| header > 0);
    header.is_some_and(|header| words.get(header..).unwrap_or_default().first().is_some_and(|word| word.text == "{"))
}

/// How many words at the start of `words` are a function definition's
/// header (`f()`, `f ()`, `function f`, `function f()`, none of it
/// quoted: `cat '()' .env` reads two files), with the `(` opening a body
/// run in a subshell: the body's first command follows.
pub(crate) fn function_header(words: &[Word]) -> usize {
    let bare = |at: usize| words.get(at).filter(|word| word.quoted.is_empty()).map(|word| word.text.as_str());
    let header = match (bare(0), bare(1), bare(2)) {
        (Some("function"), Some(_), Some("()")) => 3,
        (Some("function"), Some(_), _) | (Some(_), Some("()"), _) => 2,
        (Some(name), ..) if name.len() > 2 && name.ends_with("()") => 1,
        _ => 0,
    };
    header + usize::from(header > 0 && bare(header) == Some("("))
}

/// Where the subcommand of the program at `at` may start when global options come before it (see
/// [`GLOBAL_OPTIONS`]; cargo's `+toolchain` is one); none when no option does. An option the table
/// does not know may take the word after it as its value (`--attr-source HEAD push`) or not
/// (`--no-pager push`), so both readings are given: a rule matching either view matches, which
/// errs toward a deny, never toward an allow.
pub(crate) fn subcommand_starts(texts: &[&str], at: usize) -> Vec<usize> {
    let Some((_, takes_value)) = texts.get(at).and_then(|word| {
        let name = basename(word);
        GLOBAL_OPTIONS.iter().find(|(program, _)| *program == name)
    }) else {
        return Vec::new();
    };
    let cargo = basename(texts[at]) == "cargo";
    let is_option =
        |word: &str| (word.starts_with('-') && word.len() > 1 && word != "--") || (cargo && word.starts_with('+'));
    let mut starts = Vec::new();
    let mut next = at + 1;
    while let Some(&word) = texts.get(next) {
        if !is_option(word) {
            starts.push(next);
            break;
        }
        let value = texts.get(next + 1).filter(|value| !is_option(value));
        match (takes_value.contains(&word), value) {
            (true, _) => next += 2,
            // Unknown, spelt without `=`: its value, or the subcommand.
            (false, Some(_)) if !word.contains('=') && !word.starts_with('+') => {
                starts.push(next + 1);
                next += 2;
            }
            _ => next += 1,
        }
    }
    starts.retain(|&start| start > at + 1 && start < texts.len());
    starts
}

/// The commands find runs for what it finds (`-exec rm {} +`), as written,
/// one line of them.
fn find_commands(command: &Command, at: usize) -> Option<String> {
    let words = &command.words;
    let mut scripts = Vec::new();
    let mut next = at + 1;
    while let Some(start) = (next..words.len())
        .find(|&i| matches!(words[i].text.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir"))
        .map(|i| i + 1)
    {
        let end = (start..words.len()).find(|&i| matches!(words[i].text.as_str(), ";" | "+")).unwrap_or(words.len());
        if let (Some(first), Some(last)) = (words.get(start), end.checked_sub(1).and_then(|i| words.get(i))) {
            scripts.extend(command.raw.get(first.span.start..last.span.end).map(str::to_string));
        }
        next = end + 1;
    }
    (!scripts.is_empty()).then(|| scripts.join("\n"))
}

/// What a shell given `args` runs: `-c`'s script, its first operand once `-c` is among its
/// options (alone or in a cluster, `-lc`), wherever it stands among them (`bash -c -e 'cmd'`);
/// else the commands of its input (no script file named, or `-s`: `echo 'rm -rf x' | sh`); else a
/// script file. Options end at `--`, `-` or the first operand; `-o`/`+o` (and bash's `-O`/`+O`),
/// also in a cluster, take the next word, as do `--rcfile` and `--init-file` (`bash -O extglob -c
/// 'cmd'`).
enum ShellRuns<'a> {
    Command(&'a str),
    Input,
    File,
}

fn shell_runs<'a>(args: &[&'a str]) -> ShellRuns<'a> {
    let (mut command, mut input) = (false, false);
    let mut at = 0;
    while let Some(&arg) = args.get(at) {
        if arg == "--" || arg == "-" {
            at += 1;
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            at += 1 + usize::from(matches!(long, "rcfile" | "init-file"));
            continue;
        }
        let Some(cluster) = arg.strip_prefix(['-', '+']) else { break };
        command |= arg.starts_with('-') && cluster.contains('c');
        input |= arg.starts_with('-') && cluster.contains('s');
        at += 1 + cluster.chars().filter(|&letter| letter == 'o' || letter == 'O').count();
    }
    match args.get(at) {
        Some(script) if command => ShellRuns::Command(script),
        Some(_) if !input => ShellRuns::File,
        _ => ShellRuns::Input,
    }
}

/// The action `trap ACTION SIGNAL…` sets and its signals (from its words
/// after `trap`): none for `trap -p`, `trap -l`, nor for `trap - SIGNAL`
/// or `trap SIGNAL`, which reset.
fn trap_action<'a>(args: &'a [&'a str]) -> Option<(&'a str, &'a [&'a str])> {
    let operands = match args {
        ["--", rest @ ..] => rest,
        [option, ..] if option.starts_with('-') && *option != "-" => return None,
        _ => args,
    };
    match operands {
        [action, signals @ ..] if *action != "-" && !signals.is_empty() => Some((action, signals)),
        _ => None,
    }
}

/// The callback `mapfile -C CALLBACK` (`args`: the words after its name)
/// evaluates every `-c` lines; the last given counts.
fn mapfile_callback<'a>(args: &[&'a str]) -> Option<&'a str> {
    let mut callback = None;
    let mut at = 0;
    while let Some(&word) = args.get(at).filter(|word| word.starts_with('-') && **word != "-") {
        at += 1;
        if word == "--" {
            break;
        }
        for (i, letter) in word.char_indices().skip(1) {
            if !"dnOsuCc".contains(letter) {
                continue;
            }
            let rest = &word[i + 1..];
            let value = if rest.is_empty() { args.get(at).copied() } else { Some(rest) };
            at += usize::from(rest.is_empty());
            if letter == 'C' {
                callback = value.or(callback);
            }
            break;
        }
    }
    callback
}

/// Whether a trap's condition is the shell's exit (`EXIT`, `0`, `SIGEXIT`).
fn on_exit(signal: &str) -> bool {
    matches!(signal.to_ascii_uppercase().as_str(), "EXIT" | "SIGEXIT" | "0")
}

/// `NAME=value` or `NAME+=value`, `NAME` possibly with an array's
/// subscript (`x[0]=rm`, which bash also takes as an assignment).
pub(crate) fn is_assignment(word: &str) -> bool {
    assigned(word).is_some()
}

/// The variable a `NAME=value`, `NAME+=value` or `NAME[subscript]=value`
/// word sets, and what follows its name (`=value`, `+=value`, `[0]=value`).
pub(crate) fn assigned(word: &str) -> Option<(&str, &str)> {
    let (name, rest) = name_and_subscript(word)?;
    (rest.starts_with('=') || rest.starts_with("+=")).then_some((name, &word[name.len()..]))
}

/// A variable's name at the start of `word` and what follows it, past a
/// subscript if one comes right after it: `x` and `=1` for `x[a]=1`.
pub(crate) fn name_and_subscript(word: &str) -> Option<(&str, &str)> {
    let end = word.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(word.len());
    let name = &word[..end];
    if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return None;
    }
    let rest = &word[end..];
    let rest = match rest.strip_prefix('[') {
        Some(subscript) => &subscript[subscript.find(']')? + 1..],
        None => rest,
    };
    Some((name, rest))
}

pub(crate) fn basename(word: &str) -> &str {
    word.rsplit('/').next().filter(|name| !name.is_empty()).unwrap_or(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(rule: &str, command: &str) -> bool {
        let pattern = BashPattern::parse(rule);
        invocations(command, &[]).iter().any(|inv| inv.views.iter().any(|view| pattern.matches(view)))
    }

    #[test]
    fn parse_forms() {
        assert_eq!(BashPattern::parse(""), BashPattern::Any);
        assert_eq!(BashPattern::parse(" * "), BashPattern::Any);
        assert_eq!(BashPattern::parse(":*"), BashPattern::Any);
        assert_eq!(BashPattern::parse("npm  test"), BashPattern::Exact("npm test".into()));
        assert_eq!(BashPattern::parse("npm run test:*"), BashPattern::Prefix("npm run test".into()));
        assert_eq!(BashPattern::parse("echo \\*"), BashPattern::Exact("echo *".into()));
        assert_eq!(
            BashPattern::parse("git * main"),
            BashPattern::Wildcard { pieces: vec!["git ".into(), " main".into()], bare: None }
        );
        assert_eq!(
            BashPattern::parse("git diff *"),
            BashPattern::Wildcard { pieces: vec!["git diff ".into(), "".into()], bare: Some("git diff".into()) }
        );
    }

    #[test]
    fn exact() {
        assert!(matches("npm test", "npm test"));
        assert!(matches("npm test", "  npm   test "));
        assert!(!matches("npm test", "npm test --watch"));
        assert!(!matches("npm test", "npm tes"));
    }

    #[test]
    fn prefix() {
        assert!(matches("npm run test:*", "npm run test"));
        assert!(matches("npm run test:*", "npm run test -- --watch"));
        assert!(matches("npm run test:*", "npm run test:unit"));
        assert!(!matches("npm run test:*", "npm run testing"));
        assert!(!matches("npm run test:*", "npm run build"));
        assert!(matches("rm:*", "rm -rf /"));
        assert!(!matches("rm:*", "rmdir x"));
        assert!(matches("curl http://github.com/:*", "curl http://github.com/x"));
    }

    #[test]
    fn wildcard() {
        assert!(matches("git * main", "git push origin main"));
        assert!(matches("git * main", "git checkout main"));
        assert!(!matches("git * main", "git push origin dev"));
        assert!(matches("git diff *", "git diff HEAD~1"));
        assert!(matches("git diff *", "git diff"));
        assert!(!matches("git diff *", "git diffx"));
        assert!(matches("ls *", "ls -la"));
        assert!(!matches("ls *", "lsof"));
        assert!(matches("* --version", "node --version"));
        assert!(matches("a*b*c", "abc"));
        assert!(matches("a*b*c", "a-b-b-c"));
        assert!(!matches("a*bc*bc", "abc"));
        assert!(matches("echo \\**", "echo *x"));
        assert!(!matches("echo \\**", "echo x"));
    }

    #[test]
    fn every_part_of_a_compound_command() {
        assert!(matches("git push:*", "make && git push"));
        assert!(matches("git push:*", "echo $(git push)"));
        assert!(matches("curl:*", "echo hi | curl -d @- evil"));
        assert!(matches("rm:*", "if true; then rm -rf x; fi"));
        assert!(!matches("git push:*", "echo 'git push'"));
    }

    #[test]
    fn wrappers_and_assignments_are_looked_through() {
        for command in [
            "sudo rm -rf /",
            "sudo -u root -E rm -rf /",
            "FOO=1 BAR='a b' rm -rf /",
            "env -i PATH=/bin rm -rf /",
            "timeout -s KILL 10 rm -rf /",
            "nice -n 5 nohup rm -rf /",
            "nice -10 rm -rf /",
            "time rm -rf /",
            "command rm -rf /",
            "find . | xargs -0 -n 1 rm -rf /",
            "/bin/rm -rf /",
            "sudo /usr/bin/rm -rf /",
            "\"rm\" -rf /",
            "! rm -rf /",
            // A subshell after reserved words.
            "if true; then (rm -rf /); fi",
            "for x in a; do (rm -rf /); done",
            // Short options run together: the last taking a value takes the next word.
            "sudo -iu root rm -rf /",
            "xargs -0a list rm -rf /",
            "xargs -tn 1 rm -rf /",
            "xargs --process-slot-var X rm -rf /",
        ] {
            assert!(matches("rm:*", command), "{command}");
        }
        // The wrapped form is still matched as written too.
        assert!(matches("sudo:*", "sudo rm -rf /"));
        assert!(!matches("rm:*", "sudo -l"));
        let many = "A=1 ".repeat(5000) + "rm -rf /";
        assert!(matches("rm:*", &many));
        assert!(invocations(&many, &[])[0].views.len() <= 3 * (MAX_VIEW_STEPS + 1));
    }

    #[test]
    fn global_options_before_a_subcommand_are_looked_through() {
        for command in [
            "git -C . push origin main",
            "git -c color.ui=never push",
            "git --git-dir=.git --work-tree=. push",
            "git --no-pager -C /repo push --force",
            "/usr/bin/git -C . push",
            "sudo git -C . push",
        ] {
            assert!(matches("git push:*", command), "{command}");
        }
        assert!(matches("cargo publish:*", "cargo +nightly -Z unstable-options publish"));
        assert!(matches("kubectl delete:*", "kubectl -n prod delete pod x"));
        // Options the table does not know, with a value or without one.
        for (rule, command) in [
            ("git push:*", "git --attr-source HEAD push"),
            ("npm publish:*", "npm --registry https://r.example publish"),
            ("docker push:*", "docker --tlscacert ca.pem push img"),
            ("kubectl delete:*", "kubectl --as admin delete pod x"),
            ("kubectl delete:*", "kubectl -v 5 delete pod x"),
            ("git push:*", "git --no-pager push"),
        ] {
            assert!(matches(rule, command), "{command}");
        }
        // An option's value is not the subcommand: `-C push` names a directory.
        assert!(!matches("git push:*", "git -C push status"));
        assert!(!matches("git push:*", "git -C . status"));
    }

    #[test]
    fn shell_scripts_and_eval_are_split() {
        assert!(matches("rm:*", "bash -c 'cd /tmp && rm -rf x'"));
        assert!(matches("rm:*", "sh -lc \"rm -rf x\""));
        assert!(matches("rm:*", "eval rm -rf x"));
        assert!(matches("rm:*", "sudo bash -c 'eval \"rm -rf x\"'"));
        assert!(!matches("rm:*", "bash script.sh"));
        // Its options may stand on either side of `-c`, some taking a value.
        for command in [
            "bash -O extglob -c 'rm -rf x'",
            "bash -c -e 'rm -rf x'",
            "sh -c -- 'rm -rf x'",
            "bash -eo pipefail -c 'rm -rf x'",
            "bash -co errexit 'rm -rf x'",
            "bash +O extglob --rcfile f -c 'rm -rf x'",
        ] {
            assert!(matches("rm:*", command), "{command}");
        }
        assert!(!matches("rm:*", "bash -o rm script.sh"));
        for command in ["rbash -c 'rm -rf x'", "busybox ash -c 'rm -rf x'", "mksh -c 'rm -rf x'", "csh -c 'rm -rf x'"] {
            assert!(matches("rm:*", command), "{command}");
        }
    }

    #[test]
    fn what_find_runs_is_a_command_too() {
        assert!(matches("rm:*", "find . -name '*.o' -exec rm {} \\;"));
        assert!(matches("rm:*", "find . -type f -execdir rm -f {} + -print"));
        assert!(matches("rm:*", "find . -exec echo {} \\; -ok sh -c 'rm \"$1\"' _ {} \\;"));
        assert!(!matches("rm:*", "find . -name rm"));
        assert!(!matches("rm:*", "find . -exec"));
    }

    #[test]
    fn program_and_operands() {
        let inv = &invocations("sudo -u me cat -n ./a 'b c' '*'.md *.rs > out", &[])[0];
        assert_eq!(inv.program.as_deref(), Some("cat"));
        let operands: Vec<_> = inv
            .args
            .iter()
            .filter(|arg| !arg.text.starts_with('-'))
            .map(|arg| (arg.text.as_str(), arg.glob.as_deref()))
            .collect();
        assert_eq!(operands, [("./a", None), ("b c", None), ("*.md", None), ("*.rs", Some("*.rs"))]);
        assert_eq!(inv.args[0].text, "-n");
        assert_eq!(
            inv.redirects.iter().map(|r| (r.write, r.target.text.as_str())).collect::<Vec<_>>(),
            [(true, "out")]
        );
        assert_eq!(inv.unknown_program, None);
    }

    #[test]
    fn a_program_known_only_when_the_command_runs() {
        let unknown = |line: &str| -> Vec<String> {
            invocations(line, &[]).into_iter().filter_map(|inv| inv.unknown_program).collect()
        };
        assert_eq!(unknown("$(echo rm) x"), ["$(echo rm)"]);
        assert_eq!(unknown("`echo rm` x"), ["`echo rm`"]);
        assert_eq!(unknown("sudo \"$cmd\" x"), ["$cmd"]);
        assert_eq!(unknown("x=$(echo rm); $x foo"), ["$x"]);
        assert_eq!(unknown("eval \"$v\""), ["$v"]);
        assert_eq!(unknown("sh -c \"$v\""), ["$v"]);
        assert_eq!(unknown("FOO=$(date) make; echo $HOME; '$x' y"), Vec::<String>::new());
        // A glob or braces the shell expands may run any program; a `[` that is no glob is the test command.
        assert_eq!(unknown("/bin/r? -rf qa; /bin/r[m] x; /bin/{rm,ls} y"), ["/bin/r?", "/bin/r[m]", "/bin/{rm,ls}"]);
        assert!(unknown("[ -f x ] && [[ -d y ]]; /bin/{ls} z; '/bin/r?' w").is_empty());
        // A double-quoted variable in the directory leaves the program's name known.
        assert!(unknown("\"$HOME/.cargo/bin/cargo\" build; \"${HOME}\"/bin/x").is_empty());
        assert!(matches("cargo build:*", "\"$HOME/.cargo/bin/cargo\" build"));
        assert_eq!(
            unknown("$HOME/bin/x; \"$(echo /bin/rm)\"; \"$D/$N\"; \"$D\"/r*; ${PYTHON:-python3} x.py; \"`D`/x\""),
            ["$HOME/bin/x", "$(echo /bin/rm)", "$D/$N", "$D/r*", "${PYTHON:-python3}", "`D`/x"]
        );
        // A variable the line set to a literal is that program.
        assert!(unknown("x=rm; $x foo").is_empty());
        assert!(matches("rm:*", "x=rm; $x foo"));
        assert!(matches("rm:*", "x='rm -rf'; ${x} /"));
        assert!(!matches("rm:*", "x=ls; $x foo"));
    }

    #[test]
    fn random_input_never_panics() {
        let alphabet: Vec<char> = "ab $()`'\"\\;&|<>-#{}\n=*écsudo/".chars().collect();
        let mut rng = crate::test_rng::Rng::new(3);
        let pattern = BashPattern::parse("a*b *");
        for _ in 0..3000 {
            let len = rng.below(50);
            let line: String = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
            for inv in invocations(&line, &[]) {
                for view in &inv.views {
                    let _ = pattern.matches(view);
                }
            }
            let _ = BashPattern::parse(&line).matches(&line);
        }
    }
}
