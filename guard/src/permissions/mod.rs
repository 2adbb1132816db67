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
//! a command are looked at).

/// Operands of one command resolved as paths at most: each costs a stat.
const MAX_OPERANDS: usize = 4096;

mod bash;
mod paths;
mod settings;

use std::path::{Path, PathBuf};

use bash::BashPattern;
use paths::{Bases, PathRule, Syntax, canonical_prefix, lexical};
use settings::List;

/// What the rules say about one operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Allow,
    /// `rule` exactly as written, `file` the settings or config file holding it.
    Deny {
        rule: String,
        file: PathBuf,
    },
    Ask {
        rule: String,
        file: PathBuf,
    },
}

impl Verdict {
    /// What to tell the agent when `tool` (e.g. "ctx_read") is refused;
    /// `None` for [`Verdict::Allow`].
    pub fn message(&self, tool: &str) -> Option<String> {
        match self {
            Verdict::Allow => None,
            Verdict::Deny { rule, file } => Some(format!(
                "{tool}: denied by {rule} in {}; the user's permission settings forbid this",
                file.display()
            )),
            Verdict::Ask { rule, file } => Some(format!(
                "{tool}: requires approval (ask rule {rule} in {}); run it with the host's own tool so the user is asked",
                file.display()
            )),
        }
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
        self.verdict(|target| matches!(target, Target::Read(rule) if rule.matches(path)))
    }

    /// Whether editing or writing `path` (absolute, canonical) is allowed.
    pub fn check_edit(&self, path: &Path) -> Verdict {
        self.verdict(|target| matches!(target, Target::Edit(rule) if rule.matches(path)))
    }

    /// Whether running `command` in `cwd` is allowed: each simple command of
    /// it against the Bash rules (a deny on any part denies the whole), and
    /// the files it names against the Read and Edit rules.
    pub fn check_shell(&self, command: &str, cwd: &Path) -> Verdict {
        let invocations = bash::invocations(command);
        let mut reads = Vec::new();
        let mut edits = Vec::new();
        let mut cwd = canonical_prefix(cwd);
        for invocation in &invocations {
            if invocation.program.as_deref() == Some("cd") {
                cwd = match invocation.operands.first() {
                    Some(dir) => canonical_prefix(&self.resolve(dir, &cwd)),
                    None => self.home.clone(),
                };
                continue;
            }
            for operand in invocation.operands.iter().take(MAX_OPERANDS) {
                if let Ok(path) = self.resolve(operand, &cwd).canonicalize() {
                    reads.push(path);
                }
            }
            for redirect in &invocation.redirects {
                let path = canonical_prefix(&self.resolve(&redirect.target, &cwd));
                if redirect.write { edits.push(path) } else { reads.push(path) }
            }
        }
        self.verdict(|target| match target {
            Target::Bash(pattern) => invocations.iter().any(|inv| inv.views.iter().any(|view| pattern.matches(view))),
            Target::Read(rule) => reads.iter().any(|path| rule.matches(path)),
            Target::Edit(rule) => edits.iter().any(|path| rule.matches(path)),
        })
    }

    /// No deny or ask rule at all: every check allows.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The first deny rule matching, else the first ask rule, else allow.
    fn verdict(&self, matches: impl Fn(&Target) -> bool) -> Verdict {
        for deny in [true, false] {
            if let Some(rule) = self.rules.iter().find(|rule| rule.deny == deny && matches(&rule.target)) {
                let (rule, file) = (rule.text.clone(), rule.file.clone());
                return if deny { Verdict::Deny { rule, file } } else { Verdict::Ask { rule, file } };
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
