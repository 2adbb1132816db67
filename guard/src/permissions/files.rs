//! The files one command line reads and writes, found command by command
//! for [`super::Permissions::check_shell`] to hold against Read and Edit
//! rules: operands and redirection targets as paths (globs and braces
//! expanded, in the directory an earlier `cd` certainly left, see
//! [`super::scope`]), directories a recursive reader is given as
//! everything under them, and the reads whose files are known only when
//! the command runs: named by a variable, or by a relative path after a
//! `cd` whose directory is (`cd $d`, `cd -`, `popd`, a `cd` that may have
//! been skipped, `source`, a call to a function the line defines; a
//! function's body runs where its call is, known where no later command
//! may move the line).

use std::collections::VecDeque;
use std::fs;
use std::path::{Path, PathBuf};

use super::bash::{self, Arg, Invocation};
use super::expand::{self, Expansion};
use super::paths::{PathRule, ThroughProc, canonical_prefix, command_path, lexical, through_proc};
use super::scope::{Place, Settings};
use super::walk::{self, Budget};
use super::{
    MAX_OPERANDS, Permissions, Rule, Target, archivers, awk, braces, env_files, git, git_alias, git_config, git_index,
    inline_scripts, links, made_programs, option_files, program_writes, readers, removals, urls, writers,
};

/// A file a command reads or writes, and how the command names it.
pub(super) struct Named {
    pub(super) path: PathBuf,
    pub(super) cause: String,
}

/// A directory a command reads everything under.
pub(super) struct WholeRead {
    dir: PathBuf,
    /// "`grep` reads everything under `qa`".
    cause: String,
    /// What paths below are shown relative to: the command's directory.
    cwd: PathBuf,
    /// `None`: more than the budget allows, judged from the rules' patterns.
    listing: Option<walk::Tree>,
    /// The command reads what links under it lead to, which may be
    /// anywhere (see [`walk::Reading::follows_links`]).
    follows_links: bool,
    /// A git command whose reads can be narrowed by naming paths (see
    /// [`git::GitReads::takes_pathspecs`]), which a refusal says.
    narrowable: bool,
}

impl WholeRead {
    /// What the command reads under `dir` that `rule` covers, as a clause.
    pub(super) fn hit(&self, rule: &PathRule) -> Option<String> {
        let below = rule.may_cover_below(&self.dir);
        if !below && !self.follows_links {
            return None;
        }
        let Some(tree) = &self.listing else {
            return below.then(|| format!("{}, too much to list, and the rule may cover some of it", self.cause));
        };
        if rule.matches(&self.dir) {
            return Some(self.cause.clone());
        }
        let entry = tree.entries.iter().find(|entry| rule.matches(entry))?;
        // What the agent can do instead.
        let hint = match self.narrowable {
            true => " (name the paths to read after `--`, leaving it out; an exclude pathspec is not taken to)",
            false => "",
        };
        Some(format!("{}, {} among it{hint}", self.cause, shown(entry, &self.cwd)))
    }
}

/// A program the line made by copying or linking another, run later:
/// what it runs as that program (`rm victim.txt` for `cp /bin/rm zz;
/// ./zz victim.txt`), and the clause saying so.
pub(super) struct Copied {
    pub(super) view: String,
    pub(super) cause: String,
}

/// What a command line was found to read and write.
#[derive(Default)]
pub(super) struct Files {
    pub(super) reads: Vec<Named>,
    pub(super) whole_reads: Vec<WholeRead>,
    pub(super) edits: Vec<Named>,
    /// Directories a command writes anything under (`tar x -C dir`): a
    /// rule that may cover what is below one covers the command.
    pub(super) whole_edits: Vec<Named>,
    /// Reads and edits of files known only when the command runs, each as
    /// a clause ("`cat` reads `$f`").
    pub(super) unknown_reads: Vec<String>,
    pub(super) unknown_edits: Vec<String>,
    /// Programs known only when the command runs that only the files
    /// tell: what git runs after its configuration was written, or by an
    /// alias its configuration may give that could not be read.
    pub(super) unknown_programs: Vec<String>,
    /// Programs run as copies of others (see [`Copied`]).
    pub(super) copied_programs: Vec<Copied>,
}

/// Goes through a line's commands in order, with the directory each runs
/// in and the line's budgets.
pub(super) struct Finder<'a> {
    permissions: &'a Permissions,
    /// Entries its globs, braces and directories read whole may look at.
    budget: Budget,
    /// Index entries its git reads may list ([`git_index::LINE_ENTRIES`]).
    git_budget: Budget,
    /// The line's directory, and where its commands move it.
    start: PathBuf,
    dirs: Settings<Dir>,
    /// The directory of the command being looked at; when it is known
    /// only when the command runs, `start` and the command that made it so
    /// (`unknown_dir`).
    cwd: PathBuf,
    unknown_dir: Option<String>,
    /// The links the line's commands made so far.
    links: links::Links,
    /// The files the line's commands wrote so far, as programs a later one may run.
    made: made_programs::Made,
    /// The name the shell knows `cwd` by (`$PWD`): the path a `cd` took,
    /// through the links it followed, which its next `cd ..` climbs.
    pwd: PathBuf,
    /// The name of `start` as given, which the shell may know it by.
    start_pwd: PathBuf,
    /// A `cd`'s `..` may climb from the real path as well as from the
    /// shell's name for it: the line may have run `set -P`, or its
    /// directory was given through a link, a name the shell knows it by
    /// only if its `PWD` says so.
    physical: bool,
    /// Shell options a command of the line may have set that make globs
    /// match more, from that command on (see [`Finder::note_glob_options`]).
    glob_options: expand::Options,
    extglob: bool,
    /// A command of the line set `CDPATH`, which a relative `cd` may then
    /// follow to anywhere; as what sets it, or not, when is not followed.
    cdpath: bool,
    /// The first git command of the line that may have changed a
    /// repository (`git add -f .`), as written: what a later one prints of
    /// one is known only when it runs.
    repository_changed_by: Option<String>,
    /// What wrote a file git reads its configuration or hooks from
    /// (`echo … >> .git/config`): what a later git command runs by them is
    /// known only when it runs. And the edits looked at for it so far.
    git_configured_by: Option<String>,
    edits_seen: usize,
    /// Aliases followed from git's configuration so far, and what reading
    /// it has spent (see [`git_alias`]).
    aliases_read: u32,
    git_reads: git_alias::Reads,
    /// The commands not looked at yet that may move the directory (see
    /// [`Invocation::moves_dir`]), as written: a function's body runs
    /// where the line is when it is called, which one of these may change.
    /// One script's for the line, and one more for each git alias's
    /// commands being looked at (they run in a process of their own, so
    /// theirs move nothing after them, and the line's nothing in them).
    moves: Vec<Moves>,
    pub(super) files: Files,
}

/// The commands of one script yet to be looked at: how many, and those
/// that may move its directory, as written.
struct Moves {
    left: usize,
    queue: VecDeque<String>,
}

impl Moves {
    fn of(invocations: &[Invocation]) -> Moves {
        let queue = invocations.iter().filter(|invocation| invocation.moves_dir).map(written).collect();
        Moves { left: invocations.len(), queue }
    }
}

/// Where a command (`by`, as written) moved the directory: `None` when
/// that is known only when it runs.
#[derive(Clone)]
struct Dir {
    path: Option<Cwd>,
    by: String,
}

/// A directory, and the name the shell knows it by (see [`Finder::pwd`]).
#[derive(Clone)]
struct Cwd {
    real: PathBuf,
    logical: PathBuf,
}

impl Cwd {
    fn real(real: PathBuf) -> Cwd {
        Cwd { logical: real.clone(), real }
    }
}

/// How a `cd` takes a `..`: from the name the shell knows its directory
/// by (bash's default, `-L`), from the real path (`-P`), or either (the
/// line may have run `set -P`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Parents {
    Logical,
    Physical,
    Either,
}

impl<'a> Finder<'a> {
    pub(super) fn new(permissions: &'a Permissions, cwd: &Path) -> Finder<'a> {
        let start = canonical_prefix(cwd);
        let given = lexical(cwd);
        Finder {
            permissions,
            budget: Budget::new(walk::MAX_ENTRIES),
            git_budget: Budget::new(git_index::LINE_ENTRIES),
            cwd: start.clone(),
            physical: given != start,
            pwd: given.clone(),
            start_pwd: given,
            glob_options: expand::Options::default(),
            extglob: false,
            start,
            dirs: Settings::default(),
            unknown_dir: None,
            links: links::Links::default(),
            made: made_programs::Made::default(),
            cdpath: false,
            repository_changed_by: None,
            git_configured_by: None,
            edits_seen: 0,
            aliases_read: 0,
            git_reads: git_alias::Reads::default(),
            moves: Vec::new(),
            files: Files::default(),
        }
    }

    /// Notes which of the line's commands, looked at in this order, may move its directory.
    pub(super) fn expect_moves(&mut self, invocations: &[Invocation]) {
        self.moves = vec![Moves::of(invocations)];
    }

    /// The files one command reads and writes; a `cd` moves the commands
    /// after it that see it. Returns the commands git runs in its place by
    /// an alias its configuration gives, to be looked at next.
    pub(super) fn invocation(&mut self, invocation: &Invocation) -> Vec<Invocation> {
        let program = invocation.program.as_deref().unwrap_or_default();
        if invocation.moves_dir
            && let Some(script) = self.moves.last_mut()
        {
            script.queue.pop_front();
        }
        self.enter(&invocation.place);
        self.runs_made_program(invocation);
        self.runs_made_script(invocation, program);
        self.note_git_configuration_written();
        self.look_at(invocation, program);
        // In the directory it runs in, which looking at it found.
        let configured = if program == "git" { self.git_configured(invocation) } else { Vec::new() };
        self.moves_looked_at(&configured);
        configured
    }

    /// Counts a command of the innermost script as looked at; the commands
    /// git runs in its place (`configured`) are a script of their own, next.
    /// A script whose commands are all looked at is done, but the line's.
    fn moves_looked_at(&mut self, configured: &[Invocation]) {
        if let Some(script) = self.moves.last_mut() {
            script.left = script.left.saturating_sub(1);
        }
        if !configured.is_empty() {
            self.moves.push(Moves::of(configured));
        }
        while self.moves.len() > 1 && self.moves.last().is_some_and(|script| script.left == 0) {
            self.moves.pop();
        }
    }

    /// A program word naming a file an earlier command of the line wrote or
    /// linked, by its path or, once the line changed `PATH`, its name: a
    /// copy of a program runs as that program, anything else is known only
    /// when it runs.
    fn runs_made_program(&mut self, invocation: &Invocation) {
        let Some(word) = invocation.program_word.as_deref() else { return };
        let hashed = self.made.hashed(word).map(|program| program.map(str::to_string));
        let found = if word.contains('/') {
            self.made_program(word)
        } else if hashed.is_some() {
            hashed
        } else {
            match invocation.assignments.iter().rev().find(|(name, _)| name == "PATH") {
                // Each directory a literal PATH lists, in order, as the shell looks (empty: its own).
                Some((_, path)) if path.literal => path.text.split(':').find_map(|dir| {
                    let dir = if dir.is_empty() { "." } else { dir.trim_end_matches('/') };
                    self.made_program(&format!("{dir}/{word}"))
                }),
                // A PATH known only when it runs may find any file of that name.
                Some(_) => {
                    let linked = self.links.named(word).map(|target| target.as_deref().and_then(file_name));
                    linked.or_else(|| self.made.named(word).map(|copy_of| copy_of.map(str::to_string)))
                }
                None => None,
            }
        };
        match found {
            Some(Some(program)) if program == word => {}
            Some(Some(program)) => {
                let args = invocation.args.iter().map(|arg| arg.text.as_str());
                let view = std::iter::once(program.as_str()).chain(args).collect::<Vec<_>>().join(" ");
                let cause = format!("`{view}` matches it, `{word}` being a copy of {program} the line made");
                self.files.copied_programs.push(Copied { view, cause });
            }
            Some(None) => {
                self.files.unknown_programs.push(format!("`{word}`, a file the line wrote before running it"))
            }
            None => {}
        }
        if invocation.program.as_deref() == Some("hash") {
            self.note_hashed(&invocation.args);
        }
    }

    /// A shell, `source` or an interpreter given a script an earlier command of the line wrote
    /// (`echo 'cat .env' > s.sh; sh s.sh`, `… > x.py; python3 x.py`): the programs it runs and
    /// the files it reads are known only when it runs. A script already there is not looked into.
    fn runs_made_script(&mut self, invocation: &Invocation, program: &str) {
        let runs_scripts = bash::SHELLS.contains(&program)
            || matches!(program, "source" | ".")
            || inline_scripts::is_interpreter(program);
        if !runs_scripts {
            return;
        }
        let Some(script) = invocation.args.iter().find(|arg| !arg.text.starts_with('-')) else { return };
        if self.made_program(&script.text).is_none() {
            return;
        }
        let runs = format!("`{program} {}`, a script the line wrote before running it", script.text);
        self.files.unknown_programs.push(runs.clone());
        self.files.unknown_reads.push(format!("what {runs}, reads"));
    }

    /// `hash -p PATH NAME…`: the shell runs PATH for each NAME after it.
    fn note_hashed(&mut self, args: &[Arg]) {
        let Some(at) = args.iter().position(|arg| arg.text.starts_with('-') && arg.text.contains('p')) else { return };
        let Some(path) = args.get(at + 1) else { return };
        let program = self.copy_of(path);
        for name in &args[at + 2..] {
            self.made.hash(&name.text, program.clone());
        }
    }

    /// Notes an edit since the last command of a file git reads its
    /// configuration or hooks from.
    fn note_git_configuration_written(&mut self) {
        let home = &self.permissions.home;
        let edits = &self.files.edits[self.edits_seen..];
        if self.git_configured_by.is_none() {
            self.git_configured_by = edits
                .iter()
                .find(|edit| git_alias::configures_git(&edit.path, home))
                .map(|edit| edit.cause.replace('`', ""));
        }
        self.edits_seen = self.files.edits.len();
    }

    /// What git runs by its configuration for `invocation` (a git command)
    /// that the line does not give: after the line wrote that
    /// configuration, unknown; else an alias the files give for its
    /// subcommand, whose command line is returned to be checked.
    fn git_configured(&mut self, invocation: &Invocation) -> Vec<Invocation> {
        if let Some(by) = &self.git_configured_by {
            self.files.unknown_programs.push(format!("git (after {by}, which may configure what it runs)"));
            return Vec::new();
        }
        // What it runs is unknown already (`git -c include.path=… x`): reading more changes nothing, but costs time.
        if invocation.unknown_program.is_some() {
            return Vec::new();
        }
        let cwd = self.unknown_dir.is_none().then_some(self.cwd.as_path());
        let expanded = match git_alias::expand(invocation, cwd, &mut self.git_reads) {
            // A chain of aliases is followed so far.
            Ok(Some(_)) | Err(_) if self.aliases_read >= git_alias::MAX_READ => {
                Err(format!("git (aliases past {} read)", git_alias::MAX_READ))
            }
            expanded => expanded,
        };
        match expanded {
            Ok(Some(line)) => {
                self.aliases_read += 1;
                bash::invocations_at(&line, &invocation.place, self.aliases_read)
            }
            Ok(None) => Vec::new(),
            Err(unknown) => {
                self.files.unknown_programs.push(unknown);
                Vec::new()
            }
        }
    }

    /// The files one command reads and writes, and where it moves the
    /// commands after it.
    fn look_at(&mut self, invocation: &Invocation, program: &str) {
        // A function's body runs where the line is when it is called: here, unless a later command
        // may move it first; a mapfile callback's, where its run before left it.
        let moved_before_run = match &invocation.function_body {
            Some(first) if invocation.runs_repeatedly => Some(format!("`{first}`")),
            Some(_) => self.moves.last().and_then(|script| script.queue.front()).cloned(),
            None => None,
        };
        if let Some(by) = moved_before_run {
            self.unknown_dir.get_or_insert(by);
        }
        let sets_cdpath = |text: &str| text.starts_with("CDPATH=") || text.starts_with("CDPATH+=");
        self.cdpath |= invocation.assignments.iter().any(|(name, _)| name == "CDPATH" || name == "CDPATH+")
            || invocation.args.iter().any(|arg| sets_cdpath(&arg.text));
        if let Some(dir) = &invocation.chdir {
            let dir = self.dir_of("env", dir, written(invocation), Parents::Physical);
            // The script it runs starts there (`env -C qa sh -c 'cat secret/plan.txt'`).
            if let Some(env) = &invocation.script_env {
                self.dirs.set(&Place { env: env.clone(), conditional: false }, dir.clone());
            }
            match dir {
                Dir { path: Some(path), .. } => {
                    (self.cwd, self.pwd, self.unknown_dir) = (path.real.clone(), path.real, None);
                }
                Dir { path: None, by } => self.unknown_dir = Some(by),
            }
        }
        if invocation.script_at_top
            && let Some(env) = &invocation.script_env
        {
            let top = self.git_top(invocation);
            self.dirs.set(&Place { env: env.clone(), conditional: false }, top);
        }
        self.physical |= program == "set" && sets_physical(&invocation.args);
        self.note_glob_options(program, invocation);
        // `pushd -n` only adds to the stack.
        let stays = program == "pushd" && invocation.args.iter().any(|arg| arg.text == "-n");
        if matches!(program, "cd" | "pushd" | "popd") && !stays {
            let dir = self.moved_to(program, invocation);
            self.dirs.set(&invocation.place, dir);
            return;
        }
        if invocation.sets_anything {
            self.dirs.set(&invocation.place, Dir { path: None, by: written(invocation) });
        }
        let texts: Vec<&str> = invocation.args.iter().map(|arg| arg.text.as_str()).collect();
        let not_operands = readers::not_operands(program, &texts);
        let whole = readers::whole(program, &texts, &not_operands);
        // Whether a directory the program reads whole was named, so it
        // does not read its working directory.
        let mut named_any = false;
        let keeps_links = links::carries(program, &texts);
        let operands = invocation
            .args
            .iter()
            .enumerate()
            .filter(|(at, arg)| !arg.text.starts_with('-') && !not_operands.words.contains(at));
        let operand_directories = archivers::operand_directories(program, &texts);
        for (at, arg) in operands.take(MAX_OPERANDS) {
            let whole = whole.as_ref().filter(|whole| whole.args.contains(&at)).map(|whole| &whole.reading);
            let directories: Vec<Arg> = operand_directories
                .iter()
                .filter(|(operand, _)| *operand == at)
                .flat_map(|(_, dirs)| dirs.iter().map(|dir| invocation.args[dir.word].tail(dir.from)))
                .collect();
            let Some(arg) = self.under_directories(program, arg, &directories) else { continue };
            named_any |= self.operand(program, &arg, whole, keeps_links);
        }
        for part in &not_operands.files {
            self.file(&format!("`{program}` reads"), &invocation.args[part.word].tail(part.from), false);
        }
        self.files.unknown_reads.extend(archivers::unknown_reads(program, &texts));
        if let Some(whole) = whole.filter(|whole| whole.default_cwd && !named_any) {
            match &self.unknown_dir {
                Some(by) => {
                    self.files.unknown_reads.push(format!("`{program}` reads its working directory after {by}"))
                }
                None => {
                    let cause =
                        format!("`{program}` reads everything under its working directory {}", self.cwd.display());
                    self.whole_read(self.cwd.clone(), cause, Some(&whole.reading));
                }
            }
        }
        if let Some(written) = writers::written(program, &texts) {
            self.writes(program, &invocation.args, &written);
            if written.work_tree {
                self.writes_work_tree(invocation);
            }
        }
        if let Some(removed) = removals::removed(program, &texts) {
            self.removes(program, &invocation.args, &removed);
        }
        self.note_links(program, invocation, &texts);
        if urls::FETCHERS.contains(&program) {
            for (url, path) in texts.iter().filter_map(|text| urls::file_path(text).map(|path| (text, path))) {
                // curl expands `{a,b}` and `[a-z]` in a URL as the shell's braces and globs do.
                let glob = path.contains(['{', '[']).then(|| path.clone());
                self.file(&format!("`{program}` reads `{url}`:"), &Arg::literal(&path, glob), false);
            }
            for (word, file) in urls::option_files(program, &texts) {
                let arg = &invocation.args[word];
                let file = if arg.literal { Arg::literal(&file, None) } else { arg.clone() };
                self.file(&format!("`{program}` sends or reads"), &file, false);
            }
        }
        if matches!(program, "awk" | "gawk" | "mawk" | "nawk") {
            self.awk_reads(program, &invocation.args, &texts);
        }
        // lean-ctx's own client writes its config, where `deny_paths`, `shell_deny` and `redaction` are.
        if program == "lctx" && texts.starts_with(&["config", "set"]) {
            let path = self.permissions.config_file.clone();
            self.files.edits.push(Named { path, cause: "`lctx config set` writes lean-ctx's config".into() });
        }
        for (word, name) in inline_scripts::named_files(program, &texts) {
            if invocation.args[word].literal {
                self.file(&format!("`{program}`'s script names"), &Arg::literal(&name, None), false);
            }
        }
        if let Some(runs) = program_writes::runs_command(program, &texts) {
            // A command run so may read or write anything: where only Read or Edit rules exist,
            // they are asked about too (QA: `sed '1r secret/plan.txt'` under Read rules alone).
            self.unknown(false, runs.clone());
            self.unknown(true, runs.clone());
            self.files.unknown_programs.push(runs);
        }
        if program == "git" {
            self.git(invocation, &texts);
            self.stored_trace(invocation, &texts);
            if git::may_change_repository(&texts).is_some() {
                self.repository_changed_by.get_or_insert_with(|| written(invocation));
            }
        }
        if program == "make" {
            self.make(&invocation.args, &texts);
        }
        let dd_input = if program == "dd" { option_files::dd_input(&texts) } else { Vec::new() };
        for part in dd_input {
            self.file(&format!("`{program}` reads"), &invocation.args[part.word].tail(part.from), false);
        }
        // Its paths are not the host's: any file it names may be one a rule covers.
        if let Some(part) = &invocation.other_files {
            self.unknown(false, part.clone());
            self.unknown(true, part.clone());
        }
        for (wrapper, file) in &invocation.wrapper_reads {
            self.file(&format!("`{wrapper}` reads"), file, false);
        }
        for (wrapper, file) in &invocation.wrapper_writes {
            self.file(&format!("`{wrapper}` writes"), file, true);
        }
        for (name, value) in &invocation.assignments {
            if let Some(opened) = env_files::use_of(name, program, &texts) {
                self.environment_file(name, value, opened);
            }
        }
        for redirect in &invocation.redirects {
            self.redirect(&redirect.target, redirect.write);
        }
        if let Some(wrapper) = &invocation.input_names
            && (invocation.unknown_program.is_some() || readers::may_read(program))
        {
            let program = invocation.unknown_program.as_deref().unwrap_or(program);
            self.files.unknown_reads.push(format!("`{wrapper} {program}` reads the files named on its input"));
        }
        if let Some(wrapper) = &invocation.input_names
            && (invocation.unknown_program.is_some() || removals::removes_names(program))
        {
            let program = invocation.unknown_program.as_deref().unwrap_or(program);
            self.unknown(true, format!("`{wrapper} {program}` removes the files named on its input"));
        }
    }

    /// Notes what `program` reads through one operand; `whole`, how it
    /// reads a directory named there whole, if it does. Whether the operand
    /// names such a directory (or may: it is known only when it runs).
    ///
    /// An operand known only when the command runs (`"$f"`, `$(…)`) of a
    /// program that reads its operands is a file read that cannot be
    /// checked; what a variable the line set to a literal holds is checked
    /// besides, so `f=.env; cat $f` is denied rather than asked about.
    /// The name an operand given after `-C` directories (tar's) stands for: the directories' names
    /// joined with it (`tar -czf - -C qa secret` archives `qa/secret`). `None`, noted as a read
    /// known only when it runs, when a directory or the operand is not literal or the operand is a
    /// glob: the shell expands it here, and tar then reads the names it makes from the directory.
    fn under_directories(&mut self, program: &str, arg: &Arg, directories: &[Arg]) -> Option<Arg> {
        if directories.is_empty() {
            return Some(arg.clone());
        }
        let known = |arg: &Arg| arg.literal && arg.glob.is_none();
        if !known(arg) || !directories.iter().all(known) {
            let named: Vec<&str> = directories.iter().map(|dir| dir.text.as_str()).collect();
            self.files.unknown_reads.push(format!("`{program}` reads `{}` in `-C {}`", arg.text, named.join(" -C ")));
            return None;
        }
        let joined = directories.iter().fold(PathBuf::new(), |path, dir| path.join(&dir.text)).join(&arg.text);
        Some(Arg::literal(&joined.to_string_lossy(), None))
    }

    fn operand(&mut self, program: &str, arg: &Arg, whole: Option<&walk::Reading>, keeps_links: bool) -> bool {
        // A program that only handles names (`echo`, `ls`, `rm`) is checked as reading the paths it is
        // given all the same, but said to name them: `eval "$(echo cat .env)"` reads .env by what
        // echo prints, known only when it runs, not by echo. One reaching all under a directory
        // (`mv dir`) reads it as cp -r does.
        let names_only = whole.is_none() && !readers::may_read(program);
        let verb = if names_only { format!("`{program}` names") } else { format!("`{program}` reads") };
        if !arg.literal && !arg.only_values && (whole.is_some() || readers::reads_operands(program)) {
            self.files.unknown_reads.push(format!("{verb} `{}`", arg.text));
        }
        let mut named_whole = !arg.literal && whole.is_some();
        for (word, prefix) in forms(arg) {
            if let Some(by) = self.relative_to_unknown(word) {
                named_whole |= whole.is_some();
                if whole.is_some() || readers::reads_operands(program) {
                    self.files.unknown_reads.push(format!("{verb} `{}` after {by}", arg.text));
                }
                continue;
            }
            for path in self.paths(word, &verb, false) {
                // Through a link an earlier command made (`ln -s secret s; cat s/x`), but one copied or
                // moved as a link.
                let made = canonical_prefix(&path);
                if !(keeps_links && self.links.target_of(&made).is_some()) {
                    let cause = format!("{verb} {prefix}{}", named(word, &made, &self.cwd));
                    self.operand_through_links(&made, &cause, whole);
                }
                let Some(path) = operand_path(&path, keeps_links) else { continue };
                named_whole |= whole.is_some();
                let named = format!("{prefix}{}", named(word, &path, &self.cwd));
                let dir = fs::symlink_metadata(&path).is_ok_and(|meta| meta.is_dir());
                if let Some(reading) = whole.filter(|_| dir) {
                    self.whole_read(path.clone(), format!("{verb} everything under {named}"), Some(reading));
                }
                self.files.reads.push(Named { path, cause: format!("{verb} {named}") });
            }
        }
        named_whole
    }

    /// Notes what a git command prints of what its repository holds; where
    /// it is known only when the command runs (after `cd $d`, or named by
    /// `-C`, `--git-dir`, `--work-tree`, `GIT_DIR` or `GIT_WORK_TREE` with
    /// a variable), that is a read that cannot be checked.
    fn git(&mut self, invocation: &Invocation, args: &[&str]) {
        let opaque: Vec<&str> =
            invocation.args.iter().filter(|arg| !arg.literal).map(|arg| arg.text.as_str()).collect();
        let Some(subcommand) = git::may_print_files(args, &opaque) else { return };
        if let Some(by) = &self.repository_changed_by {
            self.files.unknown_reads.push(format!("`git {subcommand}` reads what its repository holds after {by}"));
        }
        let variable = |name: &str| invocation.assignments.iter().find(|(set, _)| set == name).map(|(_, value)| value);
        let (git_dir, work_tree) = (variable("GIT_DIR"), variable("GIT_WORK_TREE"));
        let globals = invocation.args.iter().take_while(|arg| arg.text != subcommand);
        let unknown = git_dir.iter().chain(&work_tree).copied().chain(globals).find(|arg| !arg.literal);
        let by = match (unknown, &self.unknown_dir) {
            (Some(arg), _) => Some(format!("in the repository `{}` names", arg.text)),
            (None, Some(by)) => Some(format!("after {by}")),
            (None, None) => None,
        };
        if let Some(by) = by {
            self.files.unknown_reads.push(format!("`git {subcommand}` reads what its repository holds {by}"));
            return;
        }
        // Another index lists other files (`GIT_INDEX_FILE=/tmp/i git add -f .env` made one listing .env).
        if let Some(index) = variable("GIT_INDEX_FILE") {
            let index = &index.text;
            self.files.unknown_reads.push(format!("`git {subcommand}` reads what the index `{index}` lists"));
            return;
        }
        let text = |arg: Option<&Arg>| arg.map(|arg| arg.text.clone());
        let (git_dir, work_tree) = (text(git_dir), text(work_tree));
        let Some(reads) = git::reads(args, &opaque, &self.cwd, git_dir.as_deref(), work_tree.as_deref()) else {
            return;
        };
        let command = &reads.command;
        if let Some(source) = &reads.unknown_source {
            self.files.unknown_reads.push(format!("{command} reads {source}"));
        }
        for (word, path) in reads.objects {
            self.files.reads.push(Named { path, cause: format!("{command} reads `{word}`") });
        }
        let repository = reads.repository.as_ref();
        for dir in reads.tracked {
            let cause = format!("{command} reads the files git tracks under {}", shown_dir(&dir, &self.cwd));
            let list = |dir: &Path, budget: &mut Budget| git_index::tracked(repository, dir, budget);
            self.whole_read_by(dir, cause, Pool::GitIndex, false, list, reads.takes_pathspecs);
        }
        for dir in reads.everything {
            let cause = format!("{command} reads everything under {}", shown_dir(&dir, &self.cwd));
            self.whole_read(dir, cause, Some(&walk::Reading::EVERYTHING));
        }
    }

    /// Notes the trace file a `git config` (`args`: the words after `git`)
    /// stores for every later git to write (see
    /// [`git_config::stored_trace_target`]), as one the environment names.
    fn stored_trace(&mut self, invocation: &Invocation, args: &[&str]) {
        for at in git::subcommand_starts(args).into_iter().filter(|&at| args.get(at) == Some(&"config")) {
            if let Some((key, value)) = git_config::stored_trace_target(&args[at + 1..]) {
                let opened = env_files::Use::Trace { into_dir: true };
                self.environment_file(key, &invocation.args[at + 1 + value], opened);
            }
        }
    }

    /// Where git runs a script of its configuration (a `!` alias, a
    /// pager), and the work tree it writes whole (`git reset --hard`): the
    /// top of the repository it finds, else its directory;
    /// unknown where a variable names either.
    fn git_top(&self, invocation: &Invocation) -> Dir {
        let variable = |name: &str| invocation.assignments.iter().find(|(set, _)| set == name).map(|(_, value)| value);
        let (git_dir, work_tree) = (variable("GIT_DIR"), variable("GIT_WORK_TREE"));
        let unknown = git_dir.iter().chain(&work_tree).copied().chain(&invocation.args).find(|arg| !arg.literal);
        if let Some(by) = unknown.map(|arg| format!("`{}`", arg.text)).or_else(|| self.unknown_dir.clone()) {
            return Dir { path: None, by };
        }
        let text = |arg: Option<&Arg>| arg.map(|arg| arg.text.clone());
        let args: Vec<&str> = invocation.args.iter().map(|arg| arg.text.as_str()).collect();
        let top = git::top(&args, &self.cwd, text(git_dir).as_deref(), text(work_tree).as_deref());
        Dir { path: Some(Cwd::real(top)), by: written(invocation) }
    }

    /// Notes the files awk's program reads by name (see [`awk`]): a program
    /// file is not read, so what it reads, writes or runs is unknown, as are
    /// the files a program puts in `ARGV` to read them as input; a string
    /// is a file read as an operand is, unless the shell made the program
    /// (`"…$f…"`); any other expression is known only when it runs.
    fn awk_reads(&mut self, program: &str, args: &[Arg], texts: &[&str]) {
        let verb = format!("`{program}` reads");
        // A program from a file may read, write or run anything: each kind of rule is asked about.
        for part in awk::program_files(texts) {
            let from = format!("`{program}`'s program from `{}`", &texts[part.word][part.from..]);
            self.unknown(false, format!("what {from} reads"));
            self.unknown(true, format!("what {from} writes"));
            self.files.unknown_programs.push(format!("{from}, which may run commands"));
        }
        let programs = awk::awk_programs(texts).0;
        // gawk's `@include "f"` and `@load "ext"` in the program text are program files too.
        if programs.iter().any(|part| awk::includes_code(&texts[part.word][part.from..])) {
            let from = format!("the files `{program}`'s program loads with `@include` or `@load`");
            self.unknown(false, format!("what {from} read"));
            self.unknown(true, format!("what {from} write"));
            self.files.unknown_programs.push(format!("{from}, which may run commands"));
        }
        if programs.iter().any(|part| awk::sets_arguments(&texts[part.word][part.from..])) {
            self.unknown(false, format!("{verb} the files its program puts in `ARGV`"));
        }
        for (text, sources) in awk::getline_sources(texts) {
            for source in sources {
                match source {
                    awk::Source::Named(name) if args[text.word].literal => {
                        self.file(&verb, &Arg::literal(name, None), false);
                    }
                    awk::Source::Named(name) | awk::Source::Unknown(name) => {
                        self.unknown(false, format!("{verb} `{name}`"))
                    }
                }
            }
        }
    }

    /// Notes the makefile make reads: each `-f` one, else the first of
    /// [`option_files::DEFAULT_MAKEFILES`] in its directory, after `-C`.
    /// A directory known only when it runs leaves it unknown.
    fn make(&mut self, args: &[Arg], texts: &[&str]) {
        let options = option_files::make(texts);
        let (cwd, unknown_dir) = (self.cwd.clone(), self.unknown_dir.clone());
        for part in &options.directories {
            let word = args[part.word].tail(part.from);
            if !word.literal {
                self.files.unknown_reads.push(format!("`make` reads its makefile in `{}`", word.text));
                return;
            }
            if self.relative_to_unknown(&word).is_none() {
                self.unknown_dir = None;
            }
            self.cwd = self.permissions.resolve(&word.text, &self.cwd);
        }
        if options.makefiles.is_empty() {
            match &self.unknown_dir {
                Some(by) => self.files.unknown_reads.push(format!("`make` reads its makefile after {by}")),
                None => {
                    let dir = &self.cwd;
                    let found =
                        option_files::DEFAULT_MAKEFILES.iter().map(|name| dir.join(name)).find(|path| path.is_file());
                    if let Some(path) = found.map(|path| canonical_prefix(&path)) {
                        let cause = format!("`make` reads `{}`", shown(&path, &cwd));
                        self.files.reads.push(Named { path, cause });
                    }
                }
            }
        }
        for part in &options.makefiles {
            self.file("`make` reads", &args[part.word].tail(part.from), false);
        }
        (self.cwd, self.unknown_dir) = (cwd, unknown_dir);
    }

    /// Notes the file the variable `name`, set to `value` in the command's
    /// environment, has it open (see [`env_files`]): a trace git writes,
    /// checked as a `>` target is, or a startup file a shell runs, a read.
    /// A startup file's name the shell expands (a variable, a `$(…)` even
    /// quoted) is known only when it runs. What its substitutions run is
    /// checked as the line's commands are (see `bash::Runs::Startup`),
    /// unless the line's own shell made the value: that may hold any.
    fn environment_file(&mut self, name: &str, value: &Arg, opened: env_files::Use) {
        match opened {
            env_files::Use::Trace { into_dir } => {
                let verb = format!("`{name}` has git write its trace to");
                if !value.literal {
                    self.unknown(true, format!("{verb} `{}`", value.text));
                    return;
                }
                let Some(file) = env_files::trace_file(&value.text) else { return };
                let dir = self.permissions.resolve(file, &self.cwd);
                if into_dir && dir.is_dir() {
                    let path = env_files::trace2_file_in(&canonical_prefix(&dir));
                    let cause = format!("`{name}` has git write a trace file of its naming into `{file}`");
                    self.files.edits.push(Named { path, cause });
                } else {
                    self.file(&verb, value, true);
                }
            }
            // Which program its words run is not read here: known only when it runs.
            env_files::Use::Command if value.text.is_empty() => {}
            env_files::Use::Command => {
                let runner = env_files::runner(name);
                self.files.unknown_programs.push(format!("{name}={} (a command {runner} runs)", value.text))
            }
            env_files::Use::Startup => {
                let shell = if name == "ENV" { "the shell" } else { "bash" };
                if value.literal && !value.text.contains(['$', '`']) {
                    self.file(&format!("`{name}` has {shell} run"), value, false);
                    return;
                }
                let part = format!("`{name}` has {shell} run `{}`", value.text);
                if !value.literal {
                    let expanded = format!("{name}={} (a file {shell} runs, its name expanded)", value.text);
                    self.files.unknown_programs.push(expanded);
                }
                self.unknown(false, part);
            }
        }
    }

    /// Notes the file a `<` (or, `write`, a `>`) names; a `<` known only
    /// when the command runs is a read that cannot be checked.
    fn redirect(&mut self, target: &Arg, write: bool) {
        let operator = if write { "`>`" } else { "`<`" };
        self.file(&format!("{operator} names"), target, write);
    }

    /// Notes the files `program` writes through its arguments (see
    /// [`writers`]): each target, and for a directory that sources are
    /// copied or moved into, each source's name in it.
    fn writes(&mut self, program: &str, args: &[Arg], written: &writers::Written) {
        let verb = format!("`{program}` writes");
        if let Some(what) = &written.unknown {
            self.unknown(true, format!("{verb} {what}"));
        }
        match written.under.as_deref() {
            Some([]) => self.writes_under_cwd(&verb),
            Some([before @ .., last]) if written.under_in_turn => {
                // Each directory is relative to the one before: it writes under the last.
                let (cwd, unknown_dir) = (self.cwd.clone(), self.unknown_dir.clone());
                for dir in before {
                    let word = args[dir.word].tail(dir.from);
                    if !word.literal {
                        self.unknown(true, format!("{verb} anything under a directory after `{}`", word.text));
                        break;
                    }
                    if self.relative_to_unknown(&word).is_none() {
                        self.unknown_dir = None;
                    }
                    self.cwd = canonical_prefix(&self.permissions.resolve(&word.text, &self.cwd));
                }
                self.writes_under(&verb, &args[last.word].tail(last.from));
                (self.cwd, self.unknown_dir) = (cwd, unknown_dir);
            }
            Some(dirs) => {
                for dir in dirs {
                    self.writes_under(&verb, &args[dir.word].tail(dir.from));
                }
            }
            None => {}
        }
        if written.all_under_cwd {
            self.writes_under(&verb, &Arg::literal(".", None));
        }
        if written.unnamed_in_cwd {
            let covered = |rule: &Rule| matches!(&rule.target, Target::Edit(edit) if edit.may_cover_child(&self.cwd));
            if self.unknown_dir.is_some() || self.permissions.rules.iter().any(covered) {
                self.unknown(true, format!("{verb} a file in its working directory named only when it runs"));
            }
        }
        if let Some(name) = written.named_in_cwd {
            self.file(&verb, &Arg::literal(name, None), true);
        }
        for (dir, name) in &written.joined {
            let (dir, name) = (args[dir.word].tail(dir.from), args[name.word].tail(name.from));
            let path = format!("{}/{}", dir.text, name.text);
            match dir.literal && name.literal {
                true => _ = self.file(&verb, &Arg::literal(&path, None), true),
                false => self.unknown(true, format!("{verb} `{path}`")),
            }
        }
        for (part, ending) in &written.extended {
            let word = args[part.word].tail(part.from);
            let named = format!("{}{ending}", word.text);
            match word.literal {
                true => _ = self.file(&verb, &Arg::literal(&named, None), true),
                false => self.unknown(true, format!("{verb} `{named}`")),
            }
        }
        if let Some(word) = written.branch_or_path {
            self.branch_or_path(&verb, &args[word]);
        }
        // What a file copied, moved or linked from a program is, run later on the line.
        let copies: Vec<Option<String>> = written.sources.iter().map(|&at| self.copy_of(&args[at])).collect();
        for target in written.targets.iter().take(MAX_OPERANDS) {
            let paths = self.file(&verb, &args[target.word].tail(target.from), true);
            if let [copy] = &copies[..] {
                for file in paths.iter().filter(|path| !path.is_dir()) {
                    self.made.wrote(file.clone(), copy.clone());
                }
            }
            for dir in paths.iter().filter(|path| path.is_dir()) {
                for (source, copy) in written.sources.iter().map(|&at| &args[at]).zip(&copies) {
                    let name = Path::new(&source.text).file_name();
                    match name.filter(|_| source.literal) {
                        Some(name) => {
                            self.made.wrote(dir.join(name), copy.clone());
                            self.files.edits.push(Named {
                                path: dir.join(name),
                                cause: format!("{verb} `{}` into {}", source.text, shown(dir, &self.cwd)),
                            });
                        }
                        None => self.unknown(true, format!("{verb} `{}` into {}", source.text, shown(dir, &self.cwd))),
                    }
                }
            }
        }
    }

    /// Notes what `program` removes or moves away (see [`removals`]) as
    /// edits of it: a directory it takes whole, as everything under it.
    fn removes(&mut self, program: &str, args: &[Arg], removed: &removals::Removed) {
        let verb = format!("`{program}` {}", removed.verb);
        if let Some(what) = &removed.unknown {
            self.unknown(true, format!("{verb} {what}"));
        }
        if removed.default_cwd && removed.operands.is_empty() {
            match &self.unknown_dir {
                Some(by) => self.unknown(true, format!("{verb} under its working directory after {by}")),
                None => self.removes_under(&verb, self.cwd.clone(), removed),
            }
        }
        for part in removed.operands.iter().take(MAX_OPERANDS) {
            let paths = self.file_by(&verb, &args[part.word].tail(part.from), true, Last::Own);
            let is_dir = |path: &PathBuf| fs::symlink_metadata(path).is_ok_and(|meta| meta.is_dir());
            for dir in paths.into_iter().filter(|path| removed.whole && is_dir(path)) {
                self.removes_under(&verb, dir, removed);
            }
        }
    }

    /// A directory removed or moved away whole: each file and directory
    /// under it an Edit rule covers and `removed` may take (find's `-name`; not where links
    /// lead: they stay), listed within the budget; past it, judged from the
    /// rules' patterns.
    fn removes_under(&mut self, verb: &str, dir: PathBuf, removed: &removals::Removed) {
        let cause = format!("{verb} anything under {}", shown_dir(&dir, &self.cwd));
        let rules = &self.permissions.rules;
        let edit_rules =
            || rules.iter().filter_map(|rule| if let Target::Edit(edit) = &rule.target { Some(edit) } else { None });
        if !edit_rules().any(|rule| rule.may_cover_below(&dir)) {
            return;
        }
        let Some(tree) = walk::tree(&dir, &mut self.budget, &walk::Reading::EVERYTHING) else {
            self.files.whole_edits.push(Named { path: dir, cause: format!("{cause}, too much to list") });
            return;
        };
        // A directory goes too, however empty.
        let removed_entries = tree.entries.into_iter().chain(tree.dirs);
        let covered = removed_entries.filter(|entry| entry.starts_with(&dir) && removed.may_remove(entry));
        for entry in covered.filter(|entry| edit_rules().any(|rule| rule.matches(entry))) {
            let cause = format!("{cause}, {} among it", shown(&entry, &self.cwd));
            self.files.edits.push(Named { path: entry, cause });
        }
    }

    /// The program a copy of `source` is: the one a file or link the line
    /// made is, else its own name; `None` when known only when it runs
    /// (a glob's, `/bin/r[m]`, is the name of what it matches then).
    fn copy_of(&self, source: &Arg) -> Option<String> {
        if !source.literal || source.glob.is_some() {
            return None;
        }
        match self.made_program(&source.text) {
            Some(copy_of) => copy_of,
            None => Some(bash::basename(&source.text).to_string()),
        }
    }

    /// What the file at the path `word` names is a copy of, when an
    /// earlier command of the line wrote or linked it (`Some(None)`: known
    /// only when it runs).
    fn made_program(&self, word: &str) -> Option<Option<String>> {
        let path = canonical_prefix(&self.permissions.resolve(word, &self.cwd));
        match self.links.through(&path) {
            Some(through) => Some(through.path.as_deref().and_then(file_name)),
            None => self.made.at(&path).map(|copy_of| copy_of.map(str::to_string)),
        }
    }

    /// A command writing anything under the directory `dir` names.
    fn writes_under(&mut self, verb: &str, dir: &Arg) {
        for path in self.file(verb, dir, true) {
            let cause = format!("{verb} anything under {}", shown_dir(&path, &self.cwd));
            self.files.whole_edits.push(Named { path, cause });
        }
    }

    /// A git command putting back or removing files anywhere in its work
    /// tree (`git reset --hard`, `git stash`): a write of anything under
    /// its top, known only when it runs where a variable or an earlier
    /// `cd` decides where that is.
    fn writes_work_tree(&mut self, invocation: &Invocation) {
        match self.git_top(invocation) {
            Dir { path: Some(top), .. } => {
                let cause = format!("`git` writes anything under {}", shown_dir(&top.real, &self.cwd));
                self.files.whole_edits.push(Named { path: top.real, cause });
            }
            Dir { path: None, by } => {
                self.unknown(true, format!("`git` writes anything under its work tree (where {by} leads)"))
            }
        }
    }

    /// `git checkout NAME`: git takes NAME for a branch when one is so
    /// named, else for a pathspec. One that exists is a path written under;
    /// one that does not (a file deleted, git puts back) is known only when
    /// it runs, where an Edit rule may cover something under it.
    fn branch_or_path(&mut self, verb: &str, arg: &Arg) {
        if !arg.literal || self.unknown_dir.is_some() {
            return self.writes_under_cwd(verb);
        }
        let path = canonical_prefix(&self.permissions.resolve(&arg.text, &self.cwd));
        if path.exists() {
            return self.writes_under(verb, arg);
        }
        // A branch (or a path not there): switching to it writes the files that differ, any of
        // the tracked ones (a QA pass wrote an Edit-denied file by `git checkout cfg`).
        if self.permissions.rules.iter().any(|rule: &Rule| matches!(&rule.target, Target::Edit(_))) {
            let part = format!("{verb} `{}` unless it names a branch, and the files that differ if it does", arg.text);
            self.unknown(true, part);
        }
    }

    /// A command writing files only its input names into its working
    /// directory (`tar x`): known only when it runs, where an Edit rule may
    /// cover something there.
    fn writes_under_cwd(&mut self, verb: &str) {
        let covered = |rule: &Rule| matches!(&rule.target, Target::Edit(edit) if edit.may_cover_below(&self.cwd));
        if self.unknown_dir.is_some() || self.permissions.rules.iter().any(covered) {
            self.unknown(true, format!("{verb} what its input holds under its working directory"));
        }
    }

    /// A path at or under a link an earlier command of the line made is
    /// also the path the link leads to (known only when it runs for a link
    /// to what is).
    fn through_links(&mut self, path: &Path, cause: &str, write: bool) {
        let Some(through) = self.links.through(path) else { return };
        let cause = format!("{cause}, through the link {} made", through.by);
        match through.path {
            // A write through a link to a directory lands in it (`ln -s config c; cp f c`, `tar x
            // -C c`): anything under where the link leads.
            Some(target) if write => self.files.whole_edits.push(Named { path: canonical_prefix(&target), cause }),
            Some(target) => self.files.reads.push(Named { path: canonical_prefix(&target), cause }),
            None => self.unknown(write, cause),
        }
    }

    /// An operand at or under a link the line made reads where it leads
    /// (see [`Finder::through_links`]), a directory there whole for a
    /// program reading one so (`whole`).
    fn operand_through_links(&mut self, path: &Path, cause: &str, whole: Option<&walk::Reading>) {
        let Some(through) = self.links.through(path) else { return };
        let (target, by) = (through.path.map(|target| canonical_prefix(&target)), through.by.to_string());
        if let (Some(reading), Some(target)) = (whole, target.filter(|target| target.is_dir())) {
            let cause = format!("{cause}, through the link {by} made, everything under it");
            self.whole_read(target, cause, Some(reading));
        }
        self.through_links(path, cause, false);
    }

    /// Notes the links `program` makes (see [`links`]) where the line's
    /// later commands may read or write through them.
    fn note_links(&mut self, program: &str, invocation: &Invocation, texts: &[&str]) {
        let kind = links::making(program, texts);
        if kind.is_none() && !links::carries(program, texts) {
            return;
        }
        let by = written(invocation);
        let Some(written) = writers::written(program, texts) else { return };
        let Some(dest) = written.targets.first().map(|part| invocation.args[part.word].tail(part.from)) else {
            return;
        };
        if !dest.literal || (self.unknown_dir.is_some() && !dest.text.starts_with(['/', '~'])) {
            return;
        }
        let dest = canonical_prefix(&self.permissions.resolve(&dest.text, &self.cwd));
        let no_target_directory = texts.iter().any(|arg| matches!(*arg, "-T" | "-n" | "--no-target-directory"));
        // `-t DIR` puts each in DIR, whether or not it exists now.
        let target_directory = writers::destination_options(program, texts)
            .is_some_and(|parsed| parsed.has(super::getopt::Name::Short('t')));
        let into = target_directory || written.sources.len() > 1 || (dest.is_dir() && !no_target_directory);
        for source in written.sources.iter().map(|&at| &invocation.args[at]) {
            let name = match Path::new(&source.text).file_name() {
                Some(file) if into => dest.join(file),
                _ => dest.clone(),
            };
            let known = source.literal && (self.unknown_dir.is_none() || source.text.starts_with(['/', '~']));
            let resolved = |from: &Path| canonical_prefix(&self.permissions.resolve(&source.text, from));
            let link_dir = name.parent().unwrap_or(&self.cwd).to_path_buf();
            let (target, text) = match kind {
                // A moved link, or one copied as a link, leads where it did, unless its text is relative:
                // then from its new directory.
                None => match self.links.target_of(&resolved(&self.cwd)).or_else(|| self.link_on_disk(source, known)) {
                    Some((_, Some(text))) => (Some(canonical_prefix(&link_dir.join(&text))), Some(text)),
                    Some((target, None)) => (target, None),
                    None => continue,
                },
                Some(_) if !known => (None, None),
                Some(links::RelativeTo::Cwd) => (Some(resolved(&self.cwd)), None),
                Some(links::RelativeTo::Rewritten) => {
                    let target = resolved(&self.cwd);
                    let text = links::relative_text(&canonical_prefix(&link_dir), &target);
                    (Some(target), Some(text))
                }
                Some(links::RelativeTo::LinkDir) => {
                    // The shell made `~/x` absolute before ln saw it.
                    let relative = !source.text.starts_with(['/', '~']);
                    (Some(resolved(&link_dir)), relative.then(|| source.text.clone()))
                }
            };
            self.links.made(name, target, text, by.clone());
        }
    }

    /// Where the symbolic link already on disk that `source` names leads, and its text when
    /// relative; not looked for where the name is `known` only when the command runs.
    fn link_on_disk(&self, source: &Arg, known: bool) -> Option<(Option<PathBuf>, Option<String>)> {
        if !known {
            return None;
        }
        let path = self.permissions.resolve(&source.text, &self.cwd);
        let text = std::fs::read_link(&path).ok()?.to_str()?.to_string();
        let relative = !text.starts_with('/');
        Some((Some(canonical_prefix(&path)), relative.then_some(text)))
    }

    /// Notes the file `target` names that the command reads or (`write`)
    /// writes, `verb` saying how ("`<` names"), and returns its paths; one
    /// known only when the command runs (a variable, or relative after
    /// `cd $d`) is a read or edit that cannot be checked.
    fn file(&mut self, verb: &str, target: &Arg, write: bool) -> Vec<PathBuf> {
        self.file_by(verb, target, write, Last::Followed)
    }

    /// [`Finder::file`], with the last name of each path taken as `last` says.
    fn file_by(&mut self, verb: &str, target: &Arg, write: bool, last: Last) -> Vec<PathBuf> {
        if !target.literal && !target.only_values {
            self.unknown(write, format!("{verb} `{}`", target.text));
        }
        let mut all = Vec::new();
        for (word, prefix) in forms(target) {
            if let Some(by) = self.relative_to_unknown(word) {
                self.unknown(write, format!("{verb} `{}` after {by}", target.text));
                continue;
            }
            for path in self.paths(word, verb, write) {
                let path = match last {
                    Last::Own if !word.text.ends_with('/') => own_name(&path),
                    _ => canonical_prefix(&path),
                };
                let cause = format!("{verb} {prefix}{}", named(word, &path, &self.cwd));
                match (last, path.parent()) {
                    (Last::Own, Some(dir)) => self.through_links(dir, &cause, write),
                    _ => self.through_links(&path, &cause, write),
                }
                if write {
                    self.made.wrote(path.clone(), None);
                }
                let list = if write { &mut self.files.edits } else { &mut self.files.reads };
                list.push(Named { path: path.clone(), cause });
                all.push(path);
            }
        }
        all
    }

    /// Notes a read or (`write`) an edit of a file known only when the
    /// command runs, `part` saying which.
    fn unknown(&mut self, write: bool, part: String) {
        let unknown = if write { &mut self.files.unknown_edits } else { &mut self.files.unknown_reads };
        unknown.push(part);
    }

    /// The directory the command at `place` runs in: where the last `cd`
    /// it sees left it, when that `cd` certainly ran and its directory is
    /// known; else the line's (unused: `unknown_dir` says why).
    fn enter(&mut self, place: &Place) {
        let (cwd, unknown_dir) = match self.dirs.seen(&place.env) {
            None => (Cwd { real: self.start.clone(), logical: self.start_pwd.clone() }, None),
            Some(seen) => match (&seen.value.path, seen.certain) {
                (Some(path), true) => (path.clone(), None),
                _ => (Cwd::real(self.start.clone()), Some(seen.value.by.clone())),
            },
        };
        (self.cwd, self.pwd, self.unknown_dir) = (cwd.real, cwd.logical, unknown_dir);
    }

    /// Where `cd`, `pushd` or `popd` moves the directory. Known only when
    /// it runs: after `popd`, `pushd` without a directory, `cd -`,
    /// `cd ~user`, a directory a variable or substitution names (but for
    /// one the line certainly set), one that is not an existing directory
    /// now, `pushd +N`, a relative one once the line set `CDPATH`, or a
    /// relative one from a directory that is itself unknown (said to be
    /// after the command making it so), or one whose `..` climbs elsewhere
    /// from the real path than from the shell's name for it once the line
    /// may have run `set -P`.
    fn moved_to(&mut self, program: &str, invocation: &Invocation) -> Dir {
        let by = written(invocation);
        let at = invocation.args.iter().position(|arg| arg.text == "-" || !arg.text.starts_with('-'));
        let Some(at) = at else {
            let path = (program == "cd").then(|| Cwd::real(self.permissions.home.clone()));
            return Dir { path, by };
        };
        // The last of `-L` and `-P` counts, over `set -P`.
        let options = invocation.args[..at].iter().filter(|arg| arg.text != "--");
        let letters = options.flat_map(|arg| arg.text.chars().skip(1)).filter(|&c| c == 'L' || c == 'P');
        let parents = match letters.last() {
            Some('P') => Parents::Physical,
            Some(_) => Parents::Logical,
            None if self.physical => Parents::Either,
            None => Parents::Logical,
        };
        self.dir_of(program, &invocation.args[at], by, parents)
    }

    /// The directory `operand` of `program` (`cd`, `pushd`, `popd`, or
    /// `env` for its `-C`) names, known as [`Self::moved_to`] says, a `..`
    /// in it taken as `parents` says.
    fn dir_of(&mut self, program: &str, operand: &Arg, by: String, parents: Parents) -> Dir {
        let unknown = |by: String| Dir { path: None, by };
        let word = match &operand.values[..] {
            _ if operand.literal => operand,
            [value] => value,
            _ => return unknown(by),
        };
        let home_of_another = word.text.starts_with('~') && word.text != "~" && !word.text.starts_with("~/");
        // `pushd +1` turns the stack (`-1` is no operand: as `pushd` alone);
        // CDPATH may lead a relative name anywhere.
        let rotates = program == "pushd" && word.text.starts_with('+');
        let by_cdpath = self.cdpath && !word.text.starts_with(['/', '~', '.']);
        if program == "popd" || word.text == "-" || home_of_another || rotates || by_cdpath {
            return unknown(by);
        }
        if let Some(before) = self.relative_to_unknown(word) {
            return unknown(before.to_string());
        }
        let path = match self.paths_of(word).swap_remove(0) {
            Expansion::Paths(paths) if in_other_process(&paths[0]) => return unknown(by),
            Expansion::Paths(paths) => canonical_prefix(&paths[0]),
            Expansion::Under(dir) => dir,
        };
        let climbs = word.text.split('/').any(|name| name == "..");
        let path = match parents {
            Parents::Physical => Cwd::real(path),
            // A glob's matches are the real directory's names, and bash's
            // `..` after them climbs their names: not followed.
            _ if word.glob.is_some() => match climbs || self.pwd != self.cwd {
                true => return unknown(by),
                false => Cwd::real(path),
            },
            _ => {
                let logical = self.logical_dir(&word.text);
                let real = canonical_prefix(&command_path(&logical, &self.cwd));
                match () {
                    // Another root's or process's directory, which bash names as it reached it.
                    _ if logical.starts_with("/proc") && climbs => return unknown(by),
                    _ if parents == Parents::Either && real != path && real.is_dir() => return unknown(by),
                    // Bash goes there; when that is no directory, to the word as the kernel takes it.
                    _ if real.is_dir() => Cwd { real, logical },
                    _ => Cwd::real(path),
                }
            }
        };
        // A `cd` to what is no directory fails and leaves the shell where it
        // was, which may be anywhere once the line goes on (`cd x || …`).
        if !path.real.is_dir() {
            return unknown(by);
        }
        Dir { path: Some(path), by }
    }

    /// Notes the shell options a command may set that make a glob match
    /// more: `dotglob` (also set by assigning `GLOBIGNORE`), `nocaseglob`
    /// and `extglob`, wherever a word of it names one (`shopt -s dotglob`,
    /// `bash -O extglob -c …`, `BASHOPTS=…`: every one), or all of them
    /// for a `shopt` whose options are known only when it runs. A subshell
    /// or a later `shopt -u` is not followed: they hold for the rest of the
    /// line, which names more files, never fewer.
    fn note_glob_options(&mut self, program: &str, invocation: &Invocation) {
        let names = invocation.assignments.iter().map(|(name, _)| name.as_str());
        let words = names.chain(invocation.args.iter().map(|arg| arg.text.as_str())).chain([program]);
        let (mut dotglob, mut nocase, mut extglob) = (false, false, false);
        let all = program == "shopt" && invocation.args.iter().any(|arg| !arg.literal);
        for word in words {
            let every = all || word.contains("BASHOPTS");
            dotglob |= every || word.contains("dotglob") || word.contains("GLOBIGNORE");
            nocase |= every || word.contains("nocaseglob");
            extglob |= every || word.contains("extglob");
        }
        self.glob_options.dotglob |= dotglob;
        self.glob_options.nocase |= nocase;
        self.extglob |= extglob;
    }

    /// The directory a `cd` to `word` (no glob) names as bash's `cd` takes
    /// it: from the name the shell knows its directory by ([`Self::pwd`]),
    /// a `..` dropping the name before it (`cd link/..` stays).
    fn logical_dir(&self, word: &str) -> PathBuf {
        let home = &self.permissions.home;
        let path = match word.strip_prefix('~') {
            Some("") => home.clone(),
            Some(rest) if rest.starts_with('/') => home.join(&rest[1..]),
            _ => self.pwd.join(word),
        };
        lexical(&path)
    }

    /// The command that left the directory unknown, when `word` is a
    /// relative path from it (not `/…`, `~` or `~/…`).
    fn relative_to_unknown(&self, word: &Arg) -> Option<&str> {
        let anchored = word.text.starts_with('/') || word.text == "~" || word.text.starts_with("~/");
        self.unknown_dir.as_deref().filter(|_| !anchored)
    }

    /// The paths `arg` names (not necessarily existing). What it names
    /// beyond a list (too many paths) is noted as a directory read whole,
    /// `verb` saying what the command does with it ("`cat` reads"); one
    /// through another process's `/proc/N/cwd` as a file read or
    /// (`write`) written that is known only when the command runs.
    fn paths(&mut self, arg: &Arg, verb: &str, write: bool) -> Vec<PathBuf> {
        let mut paths = Vec::new();
        for expansion in self.paths_of(arg) {
            match expansion {
                Expansion::Paths(named) => {
                    let (elsewhere, named): (Vec<_>, Vec<_>) =
                        named.into_iter().partition(|path| in_other_process(path));
                    if !elsewhere.is_empty() {
                        self.unknown(write, format!("{verb} `{}`, through another process's directory", arg.text));
                    }
                    paths.extend(named);
                }
                Expansion::Under(dir) => {
                    let shown_dir = shown(&dir, &self.cwd);
                    let cause = format!("{verb} `{}`, which names too many paths to list under {shown_dir}", arg.text);
                    self.whole_read(dir, cause, None);
                }
            }
        }
        paths
    }

    /// The paths an argument names in the working directory, for each
    /// word its braces become: the word's glob matches, or the word as
    /// written (not necessarily existing). Never empty. Each word costs one
    /// entry of the budget, as each is looked up: past it, or past
    /// [`braces::MAX_WORDS`], the argument names everything under its
    /// literal leading directory.
    fn paths_of(&mut self, arg: &Arg) -> Vec<Expansion> {
        let (cwd, home) = (&self.cwd, &self.permissions.home);
        let resolve = |word: &str| self.permissions.resolve(word, cwd);
        // An extended pattern (`@(…)`, `!(…)`…) may match anything under the directory before it.
        let extended = ["?(", "*(", "+(", "@(", "!("].iter().filter_map(|start| arg.text.find(start)).min();
        if let Some(at) = extended.filter(|_| self.extglob) {
            let dir = arg.text[..at].rfind('/').map_or("", |slash| &arg.text[..=slash]);
            return vec![Expansion::Under(resolve(&expand::unescape(dir)))];
        }
        let Some(pattern) = &arg.glob else { return vec![Expansion::Paths(vec![resolve(&arg.text)])] };
        let Some(words) = braces::expand(pattern, braces::MAX_WORDS.min(self.budget.left())) else {
            return vec![Expansion::Under(resolve(&braces::literal_dir(pattern)))];
        };
        self.budget.spend(words.len());
        let budget = &mut self.budget;
        let options = self.glob_options;
        let expand_word = |word: &String| match expand::expand(word, cwd, home, budget, options) {
            Expansion::Paths(paths) if paths.is_empty() => Expansion::Paths(vec![resolve(&expand::unescape(word))]),
            expansion => expansion,
        };
        words.iter().map(expand_word).collect()
    }

    /// A directory read whole, noted when some Read rule could cover part
    /// of it (any, when links it meets are followed): listed within the
    /// budget (what `reading` lets the program read), or judged from the
    /// rules' patterns when it has too much in it or `reading` is `None`
    /// (a glob already ran out).
    fn whole_read(&mut self, dir: PathBuf, cause: String, reading: Option<&walk::Reading>) {
        let follows_links = reading.is_some_and(|reading| reading.follows_links);
        let list = |dir: &Path, budget: &mut Budget| reading.and_then(|reading| walk::tree(dir, budget, reading));
        self.whole_read_by(dir, cause, Pool::Walk, follows_links, list, false);
    }

    /// A directory read whole as [`Finder::whole_read`] notes it, `list`
    /// listing what the program reads under it within the budget `pool`
    /// names. Past the budget, where the links it follows lead is known
    /// only when it runs.
    fn whole_read_by(
        &mut self,
        dir: PathBuf,
        cause: String,
        pool: Pool,
        follows_links: bool,
        list: impl FnOnce(&Path, &mut Budget) -> Option<walk::Tree>,
        narrowable: bool,
    ) {
        let rules = &self.permissions.rules;
        let may_read =
            |rule: &Rule| matches!(&rule.target, Target::Read(r) if follows_links || r.may_cover_below(&dir));
        if !rules.iter().any(may_read) {
            return;
        }
        let budget = match pool {
            Pool::Walk => &mut self.budget,
            Pool::GitIndex => &mut self.git_budget,
        };
        let listing = list(&dir, budget);
        if follows_links && listing.is_none() {
            self.unknown(false, format!("{cause}, too much to list, through links that may lead anywhere"));
        }
        let cwd = self.cwd.clone();
        self.files.whole_reads.push(WholeRead { dir, cause, cwd, listing, follows_links, narrowable });
    }
}

/// How a path's last name is taken: through a link it is, as opening it
/// does, or as its own, as removing or moving it does (`rm l` removes the
/// link l, not what it leads to; a name ending in `/` is followed still).
#[derive(Clone, Copy)]
enum Last {
    Followed,
    Own,
}

/// `path` with the links of its directory followed, not its own.
fn own_name(path: &Path) -> PathBuf {
    match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => canonical_prefix(dir).join(name),
        _ => canonical_prefix(path),
    }
}

/// Which of a line's budgets a listing draws on: a walk's (and globs'),
/// or its git reads' of their index.
#[derive(Clone, Copy)]
enum Pool {
    Walk,
    GitIndex,
}

/// Whether `set`'s `args` may make `cd` physical: `-P` (also among other
/// letters, `-eP`) or `-o physical`.
fn sets_physical(args: &[Arg]) -> bool {
    args.iter().any(|arg| arg.text == "physical" || (arg.text.starts_with('-') && arg.text.contains('P')))
}

/// The file an operand `path` names, as the program reaches it: the path
/// canonical, but for a program copying or moving a link as a link
/// (`keeps_links`: `cp -P`, `mv`) the link itself, not where it leads;
/// `None` when nothing is there.
fn operand_path(path: &Path, keeps_links: bool) -> Option<PathBuf> {
    let link = fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink());
    match (keeps_links && link, path.parent(), path.file_name()) {
        (true, Some(parent), Some(name)) => Some(parent.canonicalize().ok()?.join(name)),
        _ => path.canonicalize().ok(),
    }
}

/// Whether `path` leads through another process's `/proc/N/cwd` or `root`.
fn in_other_process(path: &Path) -> bool {
    path.to_str().and_then(through_proc) == Some(ThroughProc::OtherProcess)
}

/// A command as a verdict names it: as written, in backquotes.
fn written(invocation: &Invocation) -> String {
    format!("`{}`", invocation.views.first().map_or("", String::as_str))
}

/// The words to look up for `arg`, each with what to say before naming
/// it: the word itself when it is literal, else the words a value the line
/// gave its variable makes ("`$f` = ").
fn forms(arg: &Arg) -> Vec<(&Arg, String)> {
    if arg.literal {
        return vec![(arg, String::new())];
    }
    arg.values.iter().map(|value| (value, format!("`{}` = ", arg.text))).collect()
}

/// How a command names `path` through `arg`: "`.env`", or "`.en?`, which
/// matches .env" when a glob made it.
fn named(arg: &Arg, path: &Path, cwd: &Path) -> String {
    match &arg.glob {
        Some(_) => format!("`{}`, which matches {}", arg.text, shown(path, cwd)),
        None => format!("`{}`", arg.text),
    }
}

/// A directory as a verdict names it: relative to `cwd` when below it, else absolute.
fn shown_dir(dir: &Path, cwd: &Path) -> String {
    if dir == cwd { format!("its working directory {}", dir.display()) } else { format!("`{}`", shown(dir, cwd)) }
}

/// The last component of `path`, a program's name when it runs.
fn file_name(path: &Path) -> Option<String> {
    path.file_name().map(|name| name.to_string_lossy().into_owned())
}

/// `path` relative to `cwd` when it is below it, else absolute.
fn shown(path: &Path, cwd: &Path) -> String {
    path.strip_prefix(cwd).ok().filter(|rel| !rel.as_os_str().is_empty()).unwrap_or(path).display().to_string()
}
