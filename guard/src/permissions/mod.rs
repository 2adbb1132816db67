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
//! working directory, following a `cd` earlier in the line where the shell
//! would, `scope.rs`) to an existing path
//! is checked like a read, and a `>` redirection target like an edit (a
//! target's globs expanded as an operand's), so
//! `cat .env` is denied where `Read(./.env)` is (the first 4096 operands of
//! a command are looked at). Beyond what is written:
//! - a glob operand is expanded as the shell would, braces first
//!   (`braces.rs`, whether or not files exist) then each word's glob
//!   (`expand.rs`), and each path checked; braces making more than 1024
//!   words (or more than the walk's budget has left: each is looked up), or
//!   a glob matching more than 10,000 paths, count as naming everything
//!   under the literal leading directory;
//! - a directory given to a program that reads it recursively (`readers.rs`:
//!   `grep -r`, rg, tar, `cp -r`, `find -exec cat`…) counts as reading
//!   everything under it (for rg and ag, what they read by default: not
//!   hidden, not gitignored; for none, inside `.git`): listed within a
//!   budget of entries (`walk.rs`), through the links it meets where the
//!   program follows them (`grep -R`, `cp -L`, `tar -h`, `zip -r`), and
//!   past it judged from the rules' patterns (`PathRule::may_cover_below`;
//!   where it follows links, which may lead anywhere, an ask);
//! - a program word that is not a literal (`$x`, `$(…)`) or is a glob
//!   (`/bin/r?`) cannot be matched by Bash rules: where any exist, the
//!   command is an ask;
//! - arithmetic reading a variable not known to hold a plain number
//!   (`arithmetic.rs`: bash evaluates its value again, running a
//!   subscript's `$(…)` in it) makes the command's programs known only
//!   when it runs, as a program word that is not a literal does;
//! - the files an awk program reads by name (`awk.rs`: `getline < "f"`);
//! - what git prints of the files its repository holds (`git.rs`):
//!   `git show HEAD:.env` reads .env, `git diff`, `git grep`, `git archive`
//!   read the files its index tracks (`git_index.rs`), and so do the
//!   copies of them `git clone`, `worktree add` and `bundle create` make;
//! - a file known only when the command runs (`files.rs`: an operand of a
//!   reader with a variable or substitution, `cat "$f"`, a `<` target with
//!   one, a relative one after `cd $d`, the names xargs and parallel read
//!   from their input) cannot be
//!   matched by Read rules: where any exist, the command is an ask; so for
//!   a file known only when it runs that is written (`> "$f"`, `tee $f`,
//!   `cp a $f`: `writers.rs`) where Edit rules exist;
//! - a file a command removes or moves away (`removals.rs`: `rm`, `unlink`,
//!   `rmdir`, `shred`, mv's sources, `find -delete`), an edit: a directory
//!   removed whole, everything under it;
//! - a file a variable of the command's environment has it open
//!   (`env_files.rs`): the trace git writes (`GIT_TRACE=/abs/f`), an edit,
//!   and the file a shell runs at start (`BASH_ENV`, `ENV`), a read.
//!
//! What git runs by its configuration is checked where the line gives it
//! (`git_config.rs`), and for a subcommand none of git's builtins, the
//! alias git's files give it, read now (`git_alias.rs`); after a line wrote
//! those files other than by `git config`, what git runs is unknown.
//!
//! Not seen: what a script or program reads by itself (`bash script.sh`,
//! `python -c …`), a variable in an operand of a program not known to
//! read its operands, and what git prints of files only its history holds.
//!
//! A verdict on a command carries a [`Cause`]: the part of the command the
//! rule covers, so the agent and the user see what was refused and why.

/// Operands of one command resolved as paths at most: each costs a stat.
const MAX_OPERANDS: usize = 4096;

mod archivers;
mod arithmetic;
mod awk;
mod bash;
mod braces;
mod env_files;
mod env_split;
mod expand;
mod files;
mod getopt;
mod git;
mod git_alias;
mod git_config;
mod git_index;
mod git_options;
mod index_cache;
mod inline_scripts;
mod links;
mod made_programs;
mod option_files;
mod own_syntax;
mod paths;
mod program_writes;
mod readers;
mod removals;
mod scope;
mod settings;
mod urls;
mod variables;
mod walk;
mod wrappers;
mod writers;

pub use paths::canonical_prefix;

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use bash::BashPattern;
use files::{Files, Finder};
use paths::{Bases, PathRule, Syntax, command_path};
use settings::List;

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
    /// The part of the command that reads or writes a file known only when
    /// it runs, as a clause ("`cat` reads `$f`"), so the rule (the
    /// project's first Read rule, or Edit rule) cannot be checked against it.
    UnknownFile(String),
    /// The settings file named cannot be read as settings, for this reason ("it is not valid
    /// JSON: …"): what its rules allow is unknown, so nothing they could cover is.
    Unusable(String),
    /// The file `what` names ("the file", "`cat` reads `hl`, and the file") has `names` other
    /// names (hard links), which a rule may cover: reading or writing it reads or writes them.
    OtherNames { what: String, names: u64 },
}

impl Verdict {
    /// What to tell the agent when `tool` (e.g. "ctx_read") is refused;
    /// `None` for [`Verdict::Allow`].
    pub fn message(&self, tool: &str) -> Option<String> {
        let grounds = self.grounds()?;
        Some(match self {
            Verdict::Deny { cause: Some(Cause::Unusable(_)), .. } => format!("{tool}: refused: {grounds}"),
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
        // lean-ctx's own guard of a file the rules are read from ([`Loader::guard_own_files`]) is
        // no rule the user wrote, and the refusal must not name it as one in their file.
        let own = matches!(self, Verdict::Ask { .. }) && *rule == format!("Edit({file})");
        Some(match cause {
            None if own => format!(
                "{file} is one of the files the user's permission rules are read from, and lean-ctx asks before \
                 any change to it"
            ),
            Some(Cause::Part(part)) if own => format!(
                "{file} is one of the files the user's permission rules are read from, and lean-ctx asks before \
                 any change to it: {part}"
            ),
            None => format!("{ask}{rule} in {file}"),
            Some(Cause::Part(part)) => format!("{ask}{rule} in {file}: {part}"),
            // A word as written (`$x`), or a description of what runs one (`` `sed`'s script… ``).
            Some(Cause::UnknownProgram(word)) if word.starts_with('`') => format!(
                "{word}: what it runs is known only when the command runs, so it cannot be checked against {rule} in {file}"
            ),
            Some(Cause::UnknownProgram(word)) => format!(
                "the program `{word}` is known only when the command runs, so it cannot be checked against {rule} in {file}"
            ),
            Some(Cause::UnknownFile(part)) => format!(
                "{part}, a file known only when the command runs, so it cannot be checked against {rule} in {file}"
            ),
            Some(Cause::OtherNames { what, names }) => format!(
                "{what} has {names} other {} (hard {}), which lean-ctx cannot check against {rule} in {file}",
                if *names == 1 { "name" } else { "names" },
                if *names == 1 { "link" } else { "links" }
            ),
            Some(Cause::Unusable(why)) => format!(
                "the permission settings {file} cannot be used ({why}), so what their rules allow is unknown and \
                 lean-ctx refuses until the file is fixed (or moved away)"
            ),
        })
    }
}

/// How many other names (hard links) the regular file `path` has, when it has any.
fn other_names(path: &Path) -> Option<u64> {
    let meta = fs::metadata(path).ok()?;
    (meta.is_file() && meta.nlink() > 1).then(|| meta.nlink() - 1)
}

/// The rule a refusal for an unusable settings file names (see [`Cause::Unusable`]).
const UNUSABLE_RULE: &str = "every rule (the file cannot be read)";

/// The deny and ask rules in force for one project.
#[derive(Clone, Debug)]
pub struct Permissions {
    rules: Vec<Rule>,
    /// A settings file that cannot be read as settings, and why: every check refuses, naming it.
    /// Applying the other files' rules alone would silently drop the ones the user wrote there.
    unusable: Option<(PathBuf, String)>,
    home: PathBuf,
    /// lean-ctx's config file (canonical), which `lctx config set` writes.
    config_file: PathBuf,
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
    /// A file rules are read from (absolute, canonical): an edit naming it, or moving or
    /// removing the directory holding it, is asked about ([`Loader::guard_own_files`]). Not an
    /// Edit rule: a write known only when it runs, or one of everything under the project
    /// (`git stash`, `tar xf`), is not asked about for it.
    OwnFile(PathBuf),
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
        let mut loader = Loader {
            home: &home,
            root: &root,
            rules: Vec::new(),
            notes: Vec::new(),
            loaded: Vec::new(),
            unusable: None,
        };
        if let Some(managed) = managed {
            loader.settings_file(managed, &root);
        }
        loader.settings_file(&home.join(".claude/settings.json"), &home);
        loader.settings_file(&root.join(".claude/settings.json"), &root);
        loader.settings_file(&root.join(".claude/settings.local.json"), &root);
        loader.config(deny_paths, shell_deny, config_file);
        let mut settings = vec![home.join(".claude/settings.json"), root.join(".claude/settings.json")];
        settings.extend([root.join(".claude/settings.local.json"), config_file.to_path_buf()]);
        settings.extend(managed.map(Path::to_path_buf));
        loader.guard_own_files(&settings);
        let Loader { rules, notes, unusable, .. } = loader;
        (Permissions { rules, unusable, home, config_file: canonical_prefix(config_file) }, notes)
    }

    /// The refusal every check gives while a settings file cannot be used.
    fn unusable(&self) -> Option<Verdict> {
        let (file, why) = self.unusable.as_ref()?;
        Some(Verdict::Deny {
            rule: UNUSABLE_RULE.into(),
            file: file.clone(),
            cause: Some(Cause::Unusable(why.clone())),
        })
    }

    /// Whether reading `path` (absolute, canonical) is allowed.
    pub fn check_read(&self, path: &Path) -> Verdict {
        if let Some(refused) = self.unusable() {
            return refused;
        }
        let verdict = self.verdict(|target| matches!(target, Target::Read(rule) if rule.matches(path)).then_some(None));
        match verdict {
            Verdict::Allow => self.check_other_names(path, |target| matches!(target, Target::Read(_))),
            refused => refused,
        }
    }

    /// A regular file with other hard links is also those files, whose names are not known here
    /// (finding them would walk the file system): where a rule of the kind `kind` picks exists, an
    /// ask naming it. QA read a Read-denied file, and edited an Edit-denied one, through a hard
    /// link of another name.
    fn check_other_names(&self, path: &Path, kind: impl Fn(&Target) -> bool) -> Verdict {
        // No `stat` where no rule of the kind could apply (a search checks every file it walks).
        if !self.rules.iter().any(|rule| kind(&rule.target)) {
            return Verdict::Allow;
        }
        match other_names(path) {
            Some(names) => self.unchecked(kind, Cause::OtherNames { what: "the file".into(), names }),
            None => Verdict::Allow,
        }
    }

    /// Whether editing or writing `path` (absolute, canonical) is allowed.
    pub fn check_edit(&self, path: &Path) -> Verdict {
        if let Some(refused) = self.unusable() {
            return refused;
        }
        let verdict = self.verdict(|target| {
            let own = |file: &Path| path.starts_with(file);
            matches!(target, Target::Edit(rule) if rule.matches(path))
                .then_some(None)
                .or_else(|| matches!(target, Target::OwnFile(file) if own(file)).then_some(None))
        });
        match verdict {
            Verdict::Allow => self.check_other_names(path, |target| matches!(target, Target::Edit(_))),
            refused => refused,
        }
    }

    /// Whether running `command` in `cwd` is allowed: each simple command of
    /// it against the Bash rules (a deny on any part denies the whole), and
    /// the files it names against the Read and Edit rules: its operands as
    /// paths, globs expanded, directories a recursive reader is given as
    /// everything under them, and its redirection targets.
    pub fn check_shell(&self, command: &str, cwd: &Path) -> Verdict {
        self.check_shell_with_env(command, cwd, &[])
    }

    /// [`Permissions::check_shell`] for a command run with `env` added to
    /// its shell's environment (ctx_shell's `env`): every rule reading a
    /// variable the line exports reads these (`GIT_CONFIG_COUNT`… as git's
    /// settings, `C=rm` for `$C x`).
    pub fn check_shell_with_env(&self, command: &str, cwd: &Path, env: &[(String, String)]) -> Verdict {
        if let Some(refused) = self.unusable() {
            return refused;
        }
        let mut invocations = bash::invocations(command, env);
        let mut finder = Finder::new(self, cwd);
        finder.expect_moves(&invocations);
        let mut at = 0;
        while let Some(invocation) = invocations.get(at) {
            // What git runs by the configuration it reads is checked right after it.
            let configured = finder.invocation(invocation);
            invocations.splice(at + 1..at + 1, configured);
            at += 1;
        }
        let Files {
            reads,
            whole_reads,
            edits,
            whole_edits,
            unknown_reads,
            unknown_edits,
            unknown_programs,
            copied_programs,
        } = finder.files;
        let verdict = self.verdict(|target| match target {
            Target::Bash(pattern) => invocations
                .iter()
                .find(|inv| inv.views.iter().any(|view| pattern.matches(view)))
                .map(|inv| Some(format!("`{}` matches it", inv.views.first().map_or("", String::as_str))))
                .or_else(|| {
                    copied_programs.iter().find(|copy| pattern.matches(&copy.view)).map(|copy| Some(copy.cause.clone()))
                }),
            Target::Read(rule) => reads
                .iter()
                .find(|read| rule.matches(&read.path))
                .map(|read| read.cause.clone())
                .or_else(|| whole_reads.iter().find_map(|whole| whole.hit(rule)))
                .map(Some),
            Target::Edit(rule) => {
                let under = || whole_edits.iter().find(|whole| rule.may_cover_below(&whole.path));
                edits.iter().find(|edit| rule.matches(&edit.path)).or_else(under).map(|edit| Some(edit.cause.clone()))
            }
            Target::OwnFile(file) => {
                let own = |path: &Path| path.starts_with(file) || file.parent() == Some(path);
                edits.iter().chain(&whole_edits).find(|edit| own(&edit.path)).map(|edit| Some(edit.cause.clone()))
            }
        });
        if verdict != Verdict::Allow {
            return verdict;
        }
        let is_bash = |target: &Target| matches!(target, Target::Bash(_));
        let is_read: fn(&Target) -> bool = |target| matches!(target, Target::Read(_));
        let is_edit: fn(&Target) -> bool = |target| matches!(target, Target::Edit(_));
        // A file a command reads or writes under another name (a hard link) is that file too.
        let linked = |named: &[files::Named], kind: fn(&Target) -> bool| {
            if !self.rules.iter().any(|rule| kind(&rule.target)) {
                return Verdict::Allow;
            }
            let found = named.iter().find_map(|n| Some((n, other_names(&n.path)?)));
            match found {
                Some((n, names)) => {
                    self.unchecked(kind, Cause::OtherNames { what: format!("{}, and the file", n.cause), names })
                }
                None => Verdict::Allow,
            }
        };
        for verdict in [linked(&reads, is_read), linked(&edits, is_edit)] {
            if verdict != Verdict::Allow {
                return verdict;
            }
        }
        let program =
            invocations.iter().find_map(|inv| inv.unknown_program.clone()).or(unknown_programs.into_iter().next());
        let unknown = [
            program.map(|word| self.unchecked(is_bash, Cause::UnknownProgram(word))),
            unknown_reads.into_iter().next().map(|part| self.unchecked(is_read, Cause::UnknownFile(part))),
            unknown_edits.into_iter().next().map(|part| self.unchecked(is_edit, Cause::UnknownFile(part))),
        ];
        unknown.into_iter().flatten().find(|verdict| *verdict != Verdict::Allow).unwrap_or(Verdict::Allow)
    }

    /// A command with a part known only when it runs (`cause`: its
    /// program, or a file it reads or writes), in a project with rules of the kind
    /// that part would be checked against (`kind`): none of them can be, so
    /// the user is asked, named the first such rule (a deny before an ask).
    /// Without such rules it runs.
    fn unchecked(&self, kind: impl Fn(&Target) -> bool, cause: Cause) -> Verdict {
        let first = |deny: bool| self.rules.iter().find(|rule| rule.deny == deny && kind(&rule.target));
        match first(true).or_else(|| first(false)) {
            Some(rule) => Verdict::Ask { rule: rule.text.clone(), file: rule.file.clone(), cause: Some(cause) },
            None => Verdict::Allow,
        }
    }

    /// Whether `verdict` is an ask of lean-ctx's own about a file the rules are read from (see
    /// [`Loader::guard_own_files`]), not one of the user's rules: a host that asks its user
    /// about its own ask rules has not asked about this one.
    pub fn asks_for_its_own_files(&self, verdict: &Verdict) -> bool {
        let Verdict::Ask { rule, file, .. } = verdict else { return false };
        self.rules.iter().any(|own| matches!(&own.target, Target::OwnFile(path) if path == file) && own.text == *rule)
    }

    /// No deny or ask rule at all, and every settings file usable: every check allows.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.unusable.is_none()
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

    /// A shell word as a path: `~` expanded, relative ones against `cwd`,
    /// the command's own `/proc/self/cwd` and `/proc/self/root` followed
    /// ([`command_path`]).
    fn resolve(&self, word: &str, cwd: &Path) -> PathBuf {
        let path = if word == "~" {
            self.home.clone()
        } else if let Some(rest) = word.strip_prefix("~/") {
            self.home.join(rest)
        } else {
            cwd.join(word)
        };
        command_path(&path, cwd)
    }
}

struct Loader<'a> {
    home: &'a Path,
    root: &'a Path,
    rules: Vec<Rule>,
    notes: Vec<String>,
    /// Settings files already read: home may be the project root.
    loaded: Vec<PathBuf>,
    /// The first settings file that cannot be used (see [`Permissions::unusable`]).
    unusable: Option<(PathBuf, String)>,
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
        if let Some(why) = entries.unusable {
            self.notes.push(format!("{}: {why}; every check refuses until it is fixed", path.display()));
            self.unusable.get_or_insert((path.to_path_buf(), why));
        }
        let bases = Bases { home: self.home, root: self.root, settings: settings_base };
        for (list, text) in entries.rules {
            match parse_rule(&text, bases) {
                // A deny or ask rule that cannot be read held something the user meant to keep.
                Err(problem) if list != List::Allow => {
                    let why = format!("its rule {text:?} {problem}");
                    self.notes.push(format!("{}: {why}; every check refuses until it is fixed", path.display()));
                    self.unusable.get_or_insert((path.to_path_buf(), why));
                }
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

    /// Where any rule holds, an edit of the files rules are read from is asked about: an agent
    /// that could rewrite, move or remove them (`sed -i` on `.claude/settings.json`, `mv
    /// .claude /tmp`) would lift every rule on its next call, as the host asks before its own
    /// tools change its settings. Each is an ask rule `Edit(FILE)` said to be in FILE itself.
    fn guard_own_files(&mut self, files: &[PathBuf]) {
        if self.rules.is_empty() {
            return;
        }
        let mut files: Vec<PathBuf> = files.iter().map(|file| canonical_prefix(file)).collect();
        // The home directory may be the project's root.
        files.sort();
        files.dedup();
        for file in files {
            let text = format!("Edit({})", file.display());
            self.rules.push(Rule { text, file: file.clone(), deny: false, target: Target::OwnFile(file) });
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
