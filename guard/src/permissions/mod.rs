//! The user's permission rules, applied to what agents read, edit and run
//! through lean-ctxd.
//!
//! Sources, in load order: the managed settings file (on Linux
//! `/etc/claude-code/managed-settings.json`, passed in), `~/.claude/settings.json`,
//! `<root>/.claude/settings.json`, `<root>/.claude/settings.local.json`, then
//! lean-ctx's own `deny_paths` and `shell_deny` for users without such a host.
//!
//! As in Claude Code, deny beats ask beats allow across all files: an allow
//! never overrides a deny, whichever file each is in. Allow rules are parsed
//! (a malformed one is noted) but grant nothing: only deny and ask change
//! what lean-ctxd does.
//!
//! Tools: `Read(…)` rules apply to [`Permissions::check_read`]; `Edit(…)`,
//! `Write(…)`, `MultiEdit(…)` and `NotebookEdit(…)` to
//! [`Permissions::check_edit`] (a Read rule does not cover edits, as in
//! Claude Code); `Bash(…)` to [`Permissions::check_shell`]. Rules for other
//! tools (WebFetch, MCP tools…) are not lean-ctxd's to apply and are skipped.
//! `deny_paths` deny both reading and editing.
//!
//! [`Permissions::check_shell`] also applies the Read and Edit rules to the
//! files a command names, best effort: an operand that resolves (against the
//! working directory, following `cd` in the same line) to an existing path
//! is checked like a read, and a `>` redirection target like an edit, so
//! `cat .env` is denied where `Read(./.env)` is (the first 4096 operands of
//! a command are looked at). Beyond what is written:
//! - a glob operand is expanded as the shell would, braces first
//!   (`braces.rs`, whether or not files exist) then each word's glob
//!   (`expand.rs`), and each path checked; braces making more than 1024
//!   words, or a glob matching more than 10,000 paths, count as naming
//!   everything under the literal leading directory;
//! - a directory given to a program that reads it recursively (`readers.rs`:
//!   `grep -r`, rg, tar, `cp -r`, `find -exec cat`…) counts as reading
//!   everything under it (for rg and ag, what they read by default: not
//!   hidden, not gitignored; for none, inside `.git`): listed within a
//!   budget of entries (`walk.rs`), and
//!   past it judged from the rules' patterns (`PathRule::may_cover_below`);
//! - a program word that is not a literal (`$x`, `$(…)`) or is a glob
//!   (`/bin/r?`) cannot be matched by Bash rules: where any exist, the
//!   command is an ask.
//!
//! Not seen: what a script or program reads by itself (`bash script.sh`,
//! `python -c …`), variables and substitutions in operands (`cat $f`),
//! file names piped to another command (`ls | xargs cat`), and globs in
//! redirection targets.
//!
//! A verdict on a command carries a [`Cause`]: the part of the command the
//! rule covers, so the agent and the user see what was refused and why.

/// Operands of one command resolved as paths at most: each costs a stat.
const MAX_OPERANDS: usize = 4096;

mod bash;
mod braces;
mod expand;
pub mod paths;
mod readers;
mod settings;
mod walk;

use std::path::{Path, PathBuf};

use bash::{Arg, BashPattern};
use expand::Expansion;
use paths::{Bases, PathRule, Syntax, canonical_prefix, lexical};
use settings::List;
use walk::Budget;

/// What the rules say about one operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Allow,
    /// `rule` exactly as written, `file` the settings or config file
    /// holding it, `cause` what in a shell command made it apply.
    Deny {
        rule: String,
        file: PathBuf,
        cause: Option<Cause>,
    },
    Ask {
        rule: String,
        file: PathBuf,
        cause: Option<Cause>,
    },
}

/// What in a shell command a verdict is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// The part of the command the rule covers, said as a clause
    /// ("`cat` reads `.env`").
    Part(String),
    /// The program's word as written (`$x`): it is known only when the
    /// command runs, so the rule (the project's first Bash rule) cannot be
    /// checked against it.
    UnknownProgram(String),
}

impl Verdict {
    /// What to tell the agent when `tool` (e.g. "ctx_read") is refused;
    /// `None` for [`Verdict::Allow`].
    pub fn message(&self, tool: &str) -> Option<String> {
        let grounds = self.grounds()?;
        Some(match self {
            Verdict::Deny { .. } => format!("{tool}: denied by {grounds}; the user's permission settings forbid this"),
            _ => format!("{tool}: requires approval ({grounds}); run it with the host's own tool so the user is asked"),
        })
    }

    /// Why the operation is not simply allowed: the rule, its file and what
    /// made it apply; `None` for [`Verdict::Allow`].
    pub fn grounds(&self) -> Option<String> {
        let (rule, file, cause, ask) = match self {
            Verdict::Allow => return None,
            Verdict::Deny { rule, file, cause } => (rule, file.display(), cause, ""),
            Verdict::Ask { rule, file, cause } => (rule, file.display(), cause, "ask rule "),
        };
        Some(match cause {
            None => format!("{ask}{rule} in {file}"),
            Some(Cause::Part(part)) => format!("{ask}{rule} in {file}: {part}"),
            Some(Cause::UnknownProgram(word)) => format!(
                "the program `{word}` is known only when the command runs, so it cannot be checked against {rule} in {file}"
            ),
        })
    }
}

/// The deny and ask rules in force for one project.
#[derive(Clone, Debug)]
pub struct Permissions {
    rules: Vec<Rule>,
    home: PathBuf,
}

#[derive(Clone, Debug)]
struct Rule {
    text: String,
    file: PathBuf,
    deny: bool,
    target: Target,
}

#[derive(Clone, Debug)]
enum Target {
    Read(PathRule),
    Edit(PathRule),
    Bash(BashPattern),
}

/// A file a command reads or writes, and how the command names it.
struct Named {
    path: PathBuf,
    cause: String,
}

/// A directory a command reads everything under.
struct WholeRead {
    dir: PathBuf,
    /// "`grep` reads everything under `qa`".
    cause: String,
    /// What paths below are shown relative to: the command's directory.
    cwd: PathBuf,
    /// `None`: more than the budget allows, judged from the rules' patterns.
    listing: Option<walk::Tree>,
}

impl WholeRead {
    /// What the command reads under `dir` that `rule` covers, as a clause.
    fn hit(&self, rule: &PathRule) -> Option<String> {
        if !rule.may_cover_below(&self.dir) {
            return None;
        }
        let Some(tree) = &self.listing else {
            return Some(format!("{}, too much to list, and the rule may cover some of it", self.cause));
        };
        if rule.matches(&self.dir) {
            return Some(self.cause.clone());
        }
        if let Some(entry) = tree.entries.iter().find(|entry| rule.matches(entry)) {
            return Some(format!("{}, {} among it", self.cause, shown(entry, &self.cwd)));
        }
        let linked = tree.linked_dirs.iter().find(|dir| rule.may_cover_below(dir))?;
        Some(format!("{}, through a link to {}", self.cause, linked.display()))
    }
}

/// `path` relative to `cwd` when it is below it, else absolute.
fn shown(path: &Path, cwd: &Path) -> String {
    path.strip_prefix(cwd).ok().filter(|rel| !rel.as_os_str().is_empty()).unwrap_or(path).display().to_string()
}

impl Permissions {
    /// Loads the Claude Code settings files and lean-ctx's rules. `managed`
    /// is the managed settings file, if the platform has one. In Claude
    /// rules a leading `/` is relative to the project root for the project
    /// and managed files and to `home` for `~/.claude/settings.json`.
    /// `deny_paths` are gitignore-style globs or paths (relative ones against
    /// the root, `/…` absolute, `~/…` under home); `shell_deny` entries are
    /// command prefixes (`git push`) or Claude Bash rules (`Bash(git * main)`).
    /// `config_file` is named in verdicts on those. Malformed files and rules
    /// become notes; the rest still applies.
    pub fn load(
        home: &Path,
        root: &Path,
        managed: Option<&Path>,
        deny_paths: &[String],
        shell_deny: &[String],
        config_file: &Path,
    ) -> (Permissions, Vec<String>) {
        let home = canonical_prefix(home);
        let root = canonical_prefix(root);
        let mut loader = Loader { home: &home, root: &root, rules: Vec::new(), notes: Vec::new(), loaded: Vec::new() };
        if let Some(managed) = managed {
            loader.settings_file(managed, &root);
        }
        loader.settings_file(&home.join(".claude/settings.json"), &home);
        loader.settings_file(&root.join(".claude/settings.json"), &root);
        loader.settings_file(&root.join(".claude/settings.local.json"), &root);
        loader.config(deny_paths, shell_deny, config_file);
        let Loader { rules, notes, .. } = loader;
        (Permissions { rules, home }, notes)
    }

    /// Whether reading `path` (absolute, canonical) is allowed.
    pub fn check_read(&self, path: &Path) -> Verdict {
        self.verdict(|target| matches!(target, Target::Read(rule) if rule.matches(path)).then_some(None))
    }

    /// Whether editing or writing `path` (absolute, canonical) is allowed.
    pub fn check_edit(&self, path: &Path) -> Verdict {
        self.verdict(|target| matches!(target, Target::Edit(rule) if rule.matches(path)).then_some(None))
    }

    /// Whether running `command` in `cwd` is allowed: each simple command of
    /// it against the Bash rules (a deny on any part denies the whole), and
    /// the files it names against the Read and Edit rules: its operands as
    /// paths, globs expanded, directories a recursive reader is given as
    /// everything under them, and its redirection targets.
    pub fn check_shell(&self, command: &str, cwd: &Path) -> Verdict {
        let invocations = bash::invocations(command);
        let mut reads = Vec::new();
        let mut whole_reads = Vec::new();
        let mut edits = Vec::new();
        let mut budget = Budget::new(walk::MAX_ENTRIES);
        let mut cwd = canonical_prefix(cwd);
        for invocation in &invocations {
            let program = invocation.program.as_deref().unwrap_or_default();
            if program == "cd" {
                cwd = match invocation.operands().next() {
                    Some(dir) => match self.paths_of(dir, &cwd, &mut budget).swap_remove(0) {
                        Expansion::Paths(paths) => canonical_prefix(&paths[0]),
                        Expansion::Under(dir) => dir,
                    },
                    None => self.home.clone(),
                };
                continue;
            }
            let texts: Vec<&str> = invocation.args.iter().map(|arg| arg.text.as_str()).collect();
            let whole = readers::whole(program, &texts);
            let not_operands = readers::not_operands(program, &texts).words;
            // Whether a directory the program reads whole was named, so it
            // does not read its working directory.
            let mut named_any = false;
            let operands = invocation
                .args
                .iter()
                .enumerate()
                .filter(|(at, arg)| !arg.text.starts_with('-') && !not_operands.contains(at));
            for (at, arg) in operands.take(MAX_OPERANDS) {
                let reads_whole = whole.as_ref().is_some_and(|whole| whole.args.contains(&at));
                let mut paths = Vec::new();
                for expansion in self.paths_of(arg, &cwd, &mut budget) {
                    match expansion {
                        Expansion::Paths(named) => paths.extend(named),
                        Expansion::Under(dir) => {
                            let cause = format!(
                                "`{program}` reads `{}`, which names too many paths to list under {}",
                                arg.text,
                                shown(&dir, &cwd)
                            );
                            whole_reads.extend(self.whole_read(dir, cause, &cwd, None));
                        }
                    }
                }
                for path in paths {
                    let Ok(path) = path.canonicalize() else { continue };
                    named_any |= reads_whole;
                    let named = match &arg.glob {
                        Some(_) => format!("`{}`, which matches {}", arg.text, shown(&path, &cwd)),
                        None => format!("`{}`", arg.text),
                    };
                    if reads_whole && path.is_dir() {
                        let cause = format!("`{program}` reads everything under {named}");
                        let filter = whole.as_ref().map_or(walk::Filter::Everything, |whole| whole.filter);
                        whole_reads.extend(self.whole_read(path.clone(), cause, &cwd, Some((&mut budget, filter))));
                    }
                    reads.push(Named { path, cause: format!("`{program}` reads {named}") });
                }
            }
            if let Some(whole) = whole.filter(|whole| whole.default_cwd && !named_any) {
                let cause = format!("`{program}` reads everything under its working directory {}", cwd.display());
                whole_reads.extend(self.whole_read(cwd.clone(), cause, &cwd, Some((&mut budget, whole.filter))));
            }
            for redirect in &invocation.redirects {
                let path = canonical_prefix(&self.resolve(&redirect.target, &cwd));
                let (operator, list) = if redirect.write { ("`>`", &mut edits) } else { ("`<`", &mut reads) };
                list.push(Named { path, cause: format!("{operator} names `{}`", redirect.target) });
            }
        }
        let verdict = self.verdict(|target| match target {
            Target::Bash(pattern) => invocations
                .iter()
                .find(|inv| inv.views.iter().any(|view| pattern.matches(view)))
                .map(|inv| Some(format!("`{}` matches it", inv.views.first().map_or("", String::as_str)))),
            Target::Read(rule) => reads
                .iter()
                .find(|read| rule.matches(&read.path))
                .map(|read| read.cause.clone())
                .or_else(|| whole_reads.iter().find_map(|whole| whole.hit(rule)))
                .map(Some),
            Target::Edit(rule) => {
                edits.iter().find(|edit| rule.matches(&edit.path)).map(|edit| Some(edit.cause.clone()))
            }
        });
        let unknown = invocations.iter().find_map(|inv| inv.unknown_program.as_deref());
        match (verdict, unknown) {
            (Verdict::Allow, Some(word)) => self.unchecked(word),
            (verdict, _) => verdict,
        }
    }

    /// The paths an argument names in `cwd`, for each word its braces
    /// become: the word's glob matches, or the word as written (not
    /// necessarily existing). Never empty.
    fn paths_of(&self, arg: &Arg, cwd: &Path, budget: &mut Budget) -> Vec<Expansion> {
        let Some(pattern) = &arg.glob else { return vec![Expansion::Paths(vec![self.resolve(&arg.text, cwd)])] };
        let Some(words) = braces::expand(pattern) else {
            return vec![Expansion::Under(self.resolve(&braces::literal_dir(pattern), cwd))];
        };
        let expand_word = |word: &String| match expand::expand(word, cwd, &self.home, budget) {
            Expansion::Paths(paths) if paths.is_empty() => {
                Expansion::Paths(vec![self.resolve(&expand::unescape(word), cwd)])
            }
            expansion => expansion,
        };
        words.iter().map(expand_word).collect()
    }

    /// A directory read whole, when some Read rule could cover part of it:
    /// listed within the budget (what the filter lets the program read), or
    /// judged from the rules' patterns when it has too much in it or there
    /// is no budget (a glob already ran out).
    fn whole_read(
        &self,
        dir: PathBuf,
        cause: String,
        cwd: &Path,
        listing: Option<(&mut Budget, walk::Filter)>,
    ) -> Option<WholeRead> {
        let covered = self.rules.iter().any(|rule| matches!(&rule.target, Target::Read(r) if r.may_cover_below(&dir)));
        if !covered {
            return None;
        }
        let listing = listing.and_then(|(budget, filter)| walk::tree(&dir, budget, filter));
        Some(WholeRead { dir, cause, cwd: cwd.to_path_buf(), listing })
    }

    /// A command whose program is known only when it runs, in a project
    /// with Bash rules: none of them can be checked, so the user is asked,
    /// named the first rule (a deny before an ask). Without Bash rules it runs.
    fn unchecked(&self, word: &str) -> Verdict {
        let bash =
            |deny: bool| self.rules.iter().find(|rule| rule.deny == deny && matches!(rule.target, Target::Bash(_)));
        match bash(true).or_else(|| bash(false)) {
            Some(rule) => Verdict::Ask {
                rule: rule.text.clone(),
                file: rule.file.clone(),
                cause: Some(Cause::UnknownProgram(word.to_string())),
            },
            None => Verdict::Allow,
        }
    }

    /// No deny or ask rule at all: every check allows.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The first deny rule that applies, else the first ask rule, else
    /// allow. `applies` tells for each rule's target, and for a shell command
    /// what part of it the rule covers (`Some(None)`: nothing to say).
    fn verdict(&self, applies: impl Fn(&Target) -> Option<Option<String>>) -> Verdict {
        for deny in [true, false] {
            let found = self
                .rules
                .iter()
                .filter(|rule| rule.deny == deny)
                .find_map(|rule| Some((rule, applies(&rule.target)?)));
            if let Some((rule, part)) = found {
                let (rule, file, cause) = (rule.text.clone(), rule.file.clone(), part.map(Cause::Part));
                return if deny { Verdict::Deny { rule, file, cause } } else { Verdict::Ask { rule, file, cause } };
            }
        }
        Verdict::Allow
    }

    /// A shell word as a path: `~` expanded, relative ones against `cwd`.
    fn resolve(&self, word: &str, cwd: &Path) -> PathBuf {
        let path = if word == "~" {
            self.home.clone()
        } else if let Some(rest) = word.strip_prefix("~/") {
            self.home.join(rest)
        } else {
            cwd.join(word)
        };
        lexical(&path)
    }
}

struct Loader<'a> {
    home: &'a Path,
    root: &'a Path,
    rules: Vec<Rule>,
    notes: Vec<String>,
    /// Settings files already read: home may be the project root.
    loaded: Vec<PathBuf>,
}

impl Loader<'_> {
    /// `settings_base` is what a `/path` rule in this file is relative to.
    fn settings_file(&mut self, path: &Path, settings_base: &Path) {
        if self.loaded.iter().any(|loaded| loaded == path) {
            return;
        }
        self.loaded.push(path.to_path_buf());
        let entries = settings::read(path);
        self.notes.extend(entries.notes);
        let bases = Bases { home: self.home, root: self.root, settings: settings_base };
        for (list, text) in entries.rules {
            match parse_rule(&text, bases) {
                Err(problem) => {
                    self.notes.push(format!("{}: rule {text:?} {problem}; it is ignored, fix it", path.display()))
                }
                Ok(targets) if list != List::Allow => {
                    for target in targets {
                        let deny = list == List::Deny;
                        self.rules.push(Rule { text: text.clone(), file: path.to_path_buf(), deny, target });
                    }
                }
                Ok(_) => {}
            }
        }
    }

    fn config(&mut self, deny_paths: &[String], shell_deny: &[String], config_file: &Path) {
        let bases = Bases { home: self.home, root: self.root, settings: self.root };
        for entry in deny_paths {
            match PathRule::parse(entry, Syntax::Config, bases) {
                Ok(rule) => {
                    for target in [Target::Read(rule.clone()), Target::Edit(rule)] {
                        self.deny(entry, config_file, target);
                    }
                }
                Err(problem) => self.notes.push(format!(
                    "{}: deny_paths entry {entry:?}: {problem}; it is ignored, fix it",
                    config_file.display()
                )),
            }
        }
        for entry in shell_deny {
            let spec = entry.trim();
            let pattern = match spec.strip_prefix("Bash(").and_then(|rest| rest.strip_suffix(')')) {
                Some(inner) => BashPattern::parse(inner),
                None if spec.is_empty() => {
                    self.notes.push(format!("{}: an empty shell_deny entry is ignored", config_file.display()));
                    continue;
                }
                None => BashPattern::parse(&format!("{spec}:*")),
            };
            self.deny(entry, config_file, Target::Bash(pattern));
        }
    }

    fn deny(&mut self, text: &str, file: &Path, target: Target) {
        self.rules.push(Rule { text: text.to_string(), file: file.to_path_buf(), deny: true, target });
    }
}

/// The targets of a rule written `Tool` or `Tool(specifier)`: none for
/// tools lean-ctxd does not stand in for.
fn parse_rule(text: &str, bases: Bases<'_>) -> Result<Vec<Target>, String> {
    let text = text.trim();
    let (tool, spec) = match text.find('(') {
        Some(open) => match text.strip_suffix(')') {
            Some(inner) => (&text[..open], Some(&inner[open + 1..])),
            None => return Err("has no closing parenthesis".to_string()),
        },
        None => (text, None),
    };
    let tool = tool.trim();
    if tool.is_empty() {
        return Err("names no tool".to_string());
    }
    let path_rule = || match spec {
        None => Ok(PathRule::everything()),
        Some(spec) => PathRule::parse(spec, Syntax::Claude, bases),
    };
    Ok(match tool {
        "Read" => vec![Target::Read(path_rule()?)],
        "Edit" | "Write" | "MultiEdit" | "NotebookEdit" => vec![Target::Edit(path_rule()?)],
        "Bash" => vec![Target::Bash(BashPattern::parse(spec.unwrap_or_default()))],
        _ => Vec::new(),
    })
}

#[cfg(test)]
mod tests;
