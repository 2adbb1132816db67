//! What git runs as a command because its line configures it to: an alias
//! (`git -c alias.x='!rm f' x`), a pager, or another command-valued key
//! (`core.sshCommand`, `core.fsmonitor`…), given by `-c KEY=VALUE`,
//! `--config-env=KEY=ENV` or the environment (`GIT_PAGER`,
//! `GIT_SSH_COMMAND`…; `GIT_CONFIG_PARAMETERS` and `GIT_CONFIG_COUNT` are
//! read as `-c` settings where they can be). Git takes no `-cKEY=VALUE`.
//!
//! | given | checked as |
//! |---|---|
//! | an alias for the subcommand, `!SCRIPT` | `SCRIPT ARGS…`, a shell script run at the repository's top |
//! | an alias for the subcommand, `VALUE` | `git GLOBALS… VALUE ARGS…`, in the alias's place |
//! | `core.pager`, `pager.*`, `GIT_PAGER`, `PAGER` | its value, a shell script run at the repository's top |
//! | `core.editor`, `sequence.editor`, `GIT_EDITOR`, `GIT_SEQUENCE_EDITOR`, `VISUAL`, `EDITOR` naming a program alone | `PROGRAM "$@"`, a file git passes it |
//! | any other key naming a command (see [`names_command`]), `--exec-path=`, the other variables of [`COMMAND_VARIABLES`] | a program known only when the command runs, and its value a script as a pager's, unless it names a file (`include.path`) |
//!
//! Keys are case-insensitive but for a subsection (`diff.X.textconv`).

/// Environment variables naming a command git runs, or configuration that
/// may name one; git reads `GIT_CONFIG_KEY_n` only with `GIT_CONFIG_COUNT`.
pub(crate) const COMMAND_VARIABLES: [&str; 17] = [
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_EXTERNAL_DIFF",
    "GIT_ASKPASS",
    "GIT_PROXY_COMMAND",
    "GIT_EXEC_PATH",
    "GIT_PAGER",
    // Git's pager when neither `GIT_PAGER` nor `core.pager` gives one.
    "PAGER",
    "VISUAL",
    "EDITOR",
];

/// Variables naming the editor git runs on a file of its own (a commit's
/// message, a rebase's list), the first one set counting; and keys
/// (lower case) doing so.
const EDITOR_VARIABLES: [&str; 4] = ["GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "VISUAL", "EDITOR"];
const EDITOR_KEYS: [(&str, &str); 2] = [("core", "editor"), ("sequence", "editor")];

/// What git runs for an editor's `value` when it is a program's name alone
/// (none of the characters git hands to a shell for, run-command.c's
/// list): that program on a file only git knows, as it runs one named
/// otherwise (`sh -c 'VALUE "$@"' VALUE FILE`); `None` for another value,
/// whose words git may take otherwise.
fn editor_script(value: &str) -> Option<String> {
    const SHELL_METACHARACTERS: &str = "|&;<>()$`\\\"' \t\n*?[#~=%";
    let plain = !value.is_empty() && !value.contains(|c| SHELL_METACHARACTERS.contains(c));
    plain.then(|| format!("{value} \"$@\""))
}

/// Variables (the key's last part, in any section) whose value is a command
/// git or a tool it starts runs, or a file or directory of them
/// (`core.hooksPath`, `include.path`, `mergetool.*.path`).
const COMMAND_NAMES: [&str; 20] = [
    "sshcommand",
    "uploadpack",
    "receivepack",
    "uploadarchive",
    "fsmonitor",
    "editor",
    "askpass",
    "hookspath",
    "gitproxy",
    "external",
    "textconv",
    "clean",
    "smudge",
    "process",
    "driver",
    "helper",
    "program",
    "packobjectshook",
    "path",
    "smtpserver",
];

/// What git given `args` (the words after `git`) and the environment
/// `env` (variable, literal value if known) runs besides itself.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct GitRuns {
    /// The subcommand at `.0` (in `args`) is an alias for `.1`, a git
    /// command line, which git runs in its place.
    pub(crate) alias: Option<(usize, String)>,
    /// Shell scripts run at the repository's top: a `!` alias first, with
    /// the words after it (those from `args[rest_at]`) to add, then pagers
    /// and the literal values of other keys naming a command.
    pub(crate) scripts: Vec<String>,
    pub(crate) rest_at: Option<usize>,
    /// A command known only when git runs (a key naming a command, which
    /// git may run with words of its own or not through a shell): what
    /// gives it, as written.
    pub(crate) unknown: Option<String>,
}

/// Environment variables whose value is a file, a directory, settings or
/// a count, not a command.
const FILE_VARIABLES: [&str; 6] = [
    "GIT_CONFIG",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_EXEC_PATH",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
];

/// What git runs of its configuration; `subcommands`: where its
/// subcommand may start in `args` (`git --attr-source HEAD x`: either word),
/// `literal`: whether each of `args` is known before git runs.
pub(crate) fn runs(args: &[&str], literal: &[bool], subcommands: &[usize], env: &[(&str, Option<&str>)]) -> GitRuns {
    let end = subcommands.iter().copied().max().unwrap_or(args.len());
    let mut out = GitRuns::default();
    let mut alias = None;
    // What the environment sets as `-c` does, read where it can be.
    let from_env = environment_settings(env);
    for (name, value) in env {
        let Some(name) = COMMAND_VARIABLES.iter().find(|known| *known == name) else { continue };
        let editor = value.filter(|_| EDITOR_VARIABLES.contains(name)).and_then(editor_script);
        if let Some(script) = &editor {
            out.scripts.push(script.clone());
        } else if let Some(value) = value.filter(|_| !FILE_VARIABLES.contains(name)) {
            out.scripts.push(value.to_string());
        }
        let read = matches!(*name, "GIT_CONFIG_PARAMETERS" | "GIT_CONFIG_COUNT") && from_env.is_some();
        if !read && editor.is_none() && (!matches!(*name, "GIT_PAGER" | "PAGER") || value.is_none()) {
            out.unknown.get_or_insert_with(|| format!("{name}=…"));
        }
    }
    let from_env = from_env.unwrap_or_default();
    let from_env = from_env.iter().map(|pair| Setting::Literal(pair));
    for setting in from_env.chain(settings(&args[..end.min(args.len())], literal)) {
        let (key, value) = match setting {
            Setting::Literal(text) => text.split_once('=').map_or((text, None), |(key, value)| (key, Some(value))),
            Setting::FromEnvironment(key) => (key, None),
            Setting::Unknown(written) => {
                out.unknown.get_or_insert_with(|| format!("git -c {written}"));
                continue;
            }
            Setting::ExecPath(written) => {
                out.unknown.get_or_insert_with(|| written.to_string());
                continue;
            }
        };
        let written = || format!("git -c {key}");
        let (section, subsection, variable) = parts(key);
        let pager = (section == "core" && variable == "pager") || (section == "pager" && subsection.is_none());
        if section == "alias" && subsection.is_none() {
            // The last value given counts, as git reads them.
            let runs_alias = |&&at: &&usize| args[at].eq_ignore_ascii_case(&variable) && !shows_alias(args, at);
            if let Some(&at) = subcommands.iter().find(runs_alias) {
                alias = Some((at, value, written()));
            }
        } else if let Some(script) = EDITOR_KEYS
            .contains(&(section.as_str(), variable.as_str()))
            .then_some(value)
            .flatten()
            .and_then(editor_script)
        {
            out.scripts.push(script);
        } else if pager || names_command(&section, &variable) {
            // A value naming a file (`include.path`) or a directory (`core.hooksPath`) runs none of its words.
            let file = variable.ends_with("path") || section.starts_with("include");
            out.scripts.extend(value.filter(|_| !file).map(str::to_string));
            if !pager || value.is_none() {
                out.unknown.get_or_insert_with(written);
            }
        }
    }
    match alias {
        Some((_, None, written)) => _ = out.unknown.get_or_insert(written),
        Some((at, Some(value), _)) => match value.strip_prefix('!') {
            Some(script) => {
                out.scripts.insert(0, script.to_string());
                out.rest_at = Some(at + 1);
            }
            None => out.alias = Some((at, value.to_string())),
        },
        None => {}
    }
    out
}

/// Whether git given `args` (the words after `git`) shows what the alias
/// at `at` stands for rather than running it: `git x --help` is `git help
/// x`, which prints the alias (and for one naming a git command, that
/// command's manual). Only there: `git x -h` and `git x y --help` run it.
pub(crate) fn shows_alias(args: &[&str], at: usize) -> bool {
    args.get(at + 1) == Some(&"--help")
}

/// Most `GIT_CONFIG_KEY_n` read: a count past it is taken as unreadable.
const MAX_COUNT: usize = 100;

/// The number a `GIT_CONFIG_COUNT` of `count` gives, up to [`MAX_COUNT`].
fn read_count(count: &str) -> Option<usize> {
    count.trim().parse().ok().filter(|&count| count <= MAX_COUNT)
}

/// The `GIT_CONFIG_KEY_n` and `GIT_CONFIG_VALUE_n` git reads for a
/// `GIT_CONFIG_COUNT` of `count`; none for one it cannot read.
pub(crate) fn counted_variables(count: &str) -> Vec<String> {
    (0..read_count(count).unwrap_or(0))
        .flat_map(|n| [format!("GIT_CONFIG_KEY_{n}"), format!("GIT_CONFIG_VALUE_{n}")])
        .collect()
}

/// The settings `GIT_CONFIG_PARAMETERS` and `GIT_CONFIG_COUNT` with its
/// `GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n` give in `env`, each `KEY=VALUE`
/// as `-c` takes it; `None` when one given cannot be read (a value known
/// only when git runs, a key missing, a malformed list).
fn environment_settings(env: &[(&str, Option<&str>)]) -> Option<Vec<String>> {
    let given = |name: &str| env.iter().rev().find(|(set, _)| *set == name).map(|(_, value)| *value);
    let mut out = Vec::new();
    if let Some(parameters) = given("GIT_CONFIG_PARAMETERS") {
        out.extend(single_quoted_words(parameters?)?);
    }
    if let Some(count) = given("GIT_CONFIG_COUNT") {
        for n in 0..read_count(count?)? {
            let key = given(&format!("GIT_CONFIG_KEY_{n}"))??;
            let value = given(&format!("GIT_CONFIG_VALUE_{n}"))??;
            out.push(format!("{key}={value}"));
        }
    }
    Some(out)
}

/// The words of `GIT_CONFIG_PARAMETERS` as git writes it: each
/// single-quoted (a `'` in one as `'\''`), `'KEY=VALUE'` or
/// `'KEY'='VALUE'`, apart by spaces; `None` when it is not so written.
fn single_quoted_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_ascii_whitespace()).is_some() {}
        if chars.peek().is_none() {
            return Some(words);
        }
        let mut word = String::new();
        loop {
            if chars.next()? != '\'' {
                return None;
            }
            loop {
                match chars.next()? {
                    '\'' => break,
                    c => word.push(c),
                }
            }
            // `'\''` goes on with a quote; `=` joins a key to its value.
            if chars.next_if_eq(&'\\').is_some() {
                chars.next_if_eq(&'\'')?;
                word.push('\'');
                if chars.peek() != Some(&'\'') {
                    return None;
                }
            } else if chars.next_if_eq(&'=').is_some() {
                word.push('=');
            } else {
                break;
            }
        }
        words.push(word);
    }
}

/// The words of the key and the value `git config` (the words after the
/// subcommand, `args`) stores; `None` when it reads, unsets or lists.
fn stored_setting(args: &[&str]) -> Option<(usize, usize)> {
    let mut operands = Vec::new();
    let mut at = 0;
    while let Some(&word) = args.get(at) {
        at += 1;
        match word {
            "--" => {
                operands.extend(at..args.len());
                break;
            }
            "-f" | "--file" | "--blob" | "--type" | "--default" | "--comment" | "--value" => at += 1,
            _ if word.starts_with("--get")
                || word.starts_with("--unset")
                || matches!(word, "-l" | "--list" | "-e" | "--edit" | "--remove-section" | "--rename-section") =>
            {
                return None;
            }
            _ if word.starts_with('-') => {}
            _ => operands.push(at - 1),
        }
    }
    // `git config set KEY VALUE` (git 2.46), or the older `git config KEY VALUE`.
    let operands = match operands.first().map(|&first| args[first]) {
        Some("set") => &operands[1..],
        Some("get" | "unset" | "list" | "edit" | "rename-section" | "remove-section") => return None,
        _ => &operands[..],
    };
    match operands {
        [key, value, ..] => Some((*key, *value)),
        _ => None,
    }
}

/// The trace target (`trace2.eventTarget`, `normalTarget`, `perfTarget`)
/// `git config` (`args`, the words after the subcommand) stores in a file
/// git reads it from, the system or global one (`--system`, `--global`,
/// or `--file`, which may name either; a repository's is not read for
/// it): the key and the word of its value. Every later git, the next
/// `git config` too, writes its trace there.
pub(crate) fn stored_trace_target<'a>(args: &[&'a str]) -> Option<(&'a str, usize)> {
    let scope = |word: &&str| matches!(*word, "--system" | "--global" | "-f" | "--file") || word.starts_with("--file=");
    let (key, value) = stored_setting(args).filter(|_| args.iter().any(scope))?;
    let (section, subsection, variable) = parts(args[key]);
    let target = matches!(variable.as_str(), "eventtarget" | "normaltarget" | "perftarget");
    (section == "trace2" && subsection.is_none() && target).then_some((args[key], value))
}

/// Whether `help.autocorrect` set to `value` has git run no guess of a mistyped subcommand
/// (off, or only shown).
pub(crate) fn autocorrect_runs_nothing(value: &str) -> bool {
    matches!(value.trim().to_ascii_lowercase().as_str(), "0" | "false" | "no" | "off" | "never" | "show")
}

/// Whether a key of `section` whose last part is `variable` (both lower
/// case) names a command, or a file or directory that may hold one: a
/// variable of [`COMMAND_NAMES`] in any section, or ending in `cmd` or
/// `command` (`sendemail.toCmd`, `core.alternateRefsCommand`), or an
/// included config file, which may set any of them.
fn names_command(section: &str, variable: &str) -> bool {
    COMMAND_NAMES.contains(&variable)
        || variable.ends_with("cmd")
        || variable.ends_with("command")
        || matches!(section, "include" | "includeif")
}

/// A key's section and variable in lower case, and its subsection as
/// written (case-sensitive in git).
fn parts(key: &str) -> (String, Option<&str>, String) {
    let (section, rest) = key.split_once('.').unwrap_or((key, ""));
    let (subsection, variable) = match rest.rsplit_once('.') {
        Some((subsection, variable)) => (Some(subsection), variable),
        None => (None, rest),
    };
    (section.to_ascii_lowercase(), subsection, variable.to_ascii_lowercase())
}

enum Setting<'a> {
    /// `KEY=VALUE` (or `KEY`, true).
    Literal(&'a str),
    /// `--config-env=KEY=ENV`, or `-c KEY=VALUE` with a variable in its
    /// value: the value is known only when git runs.
    FromEnvironment(&'a str),
    /// A setting whose key is known only when git runs (`-c $k=x`).
    Unknown(&'a str),
    /// `--exec-path=DIR`: git's own commands come from `DIR`.
    ExecPath(&'a str),
}

/// The settings git's global options (`globals`, each `literal` or not) give.
fn settings<'a>(globals: &[&'a str], literal: &[bool]) -> Vec<Setting<'a>> {
    let mut out = Vec::new();
    let mut words = globals.iter().zip(literal);
    let key = |given: &'a str| given.split_once('=').map_or(given, |(key, _)| key);
    let config_env = |given: &'a str| Setting::FromEnvironment(key(given));
    // A variable in the key may make it any key; in the value, any value.
    let setting = |given: &'a str, literal: bool| match literal {
        true => Setting::Literal(given),
        false if key(given).contains(['$', '`']) => Setting::Unknown(given),
        false => config_env(given),
    };
    while let Some((&word, _)) = words.next() {
        match word {
            "-c" => out.extend(words.next().map(|(text, &literal)| setting(text, literal))),
            "--config-env" => out.extend(words.next().map(|(given, _)| config_env(given))),
            _ if word.starts_with("--config-env=") => out.push(config_env(&word["--config-env=".len()..])),
            _ if word.starts_with("--exec-path=") => out.push(Setting::ExecPath(word)),
            // Options taking the next word: it is no setting (`-C -c`).
            "-C" | "--git-dir" | "--work-tree" | "--namespace" => _ = words.next(),
            _ => {}
        }
    }
    out
}

/// What `git config` (the words after the subcommand, `args`, each `literal` or not) stores
/// that git will run later as a command, checked now as that command, since nothing sees it
/// when it runs (`git config alias.x '!rm f' && git x`, or `git x` in a later call): a `!`
/// alias's script, another alias's git command line, a pager's or another key's command. A
/// value known only when it runs is unknown. Reading, unsetting or listing stores nothing.
pub(crate) fn stored(args: &[&str], literal: &[bool]) -> GitRuns {
    let mut out = GitRuns::default();
    let Some((key, value)) = stored_setting(args) else { return out };
    let (section, subsection, variable) = parts(args[key]);
    let pager = (section == "core" && variable == "pager") || (section == "pager" && subsection.is_none());
    let alias = section == "alias" && subsection.is_none();
    // A later git guessing at a subcommand it lacks runs its guess: an alias, or another builtin.
    if section == "help" && variable == "autocorrect" && !(literal[value] && autocorrect_runs_nothing(args[value])) {
        out.unknown = Some(format!("git config {} …", args[key]));
        return out;
    }
    if !(alias || pager || names_command(&section, &variable)) {
        return out;
    }
    if !literal[key] || !literal[value] {
        out.unknown = Some(format!("git config {} …", args[key]));
        return out;
    }
    let value = args[value];
    let file = variable.ends_with("path") || section.starts_with("include");
    match value.strip_prefix('!') {
        Some(script) if alias => out.scripts.push(script.to_string()),
        None if alias => out.scripts.push(format!("git {value}")),
        _ if !file => out.scripts.push(value.to_string()),
        _ => out.unknown = Some(format!("git config {} …", args[key])),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_settings_are_read_as_git_writes_them() {
        let read = |env: &[(&str, Option<&str>)]| environment_settings(env);
        assert_eq!(
            read(&[("GIT_CONFIG_PARAMETERS", Some("'alias.x'='!rm f' 'a.b=c d'"))]),
            Some(vec!["alias.x=!rm f".into(), "a.b=c d".into()])
        );
        assert_eq!(read(&[("GIT_CONFIG_PARAMETERS", Some("'a.b=it'\\''s'"))]), Some(vec!["a.b=it's".into()]));
        assert_eq!(read(&[("GIT_CONFIG_PARAMETERS", Some("a.b=c"))]), None);
        assert_eq!(read(&[("GIT_CONFIG_PARAMETERS", Some("'a.b=c"))]), None);
        assert_eq!(read(&[("GIT_CONFIG_PARAMETERS", None)]), None);
        let count = [
            ("GIT_CONFIG_COUNT", Some("1")),
            ("GIT_CONFIG_KEY_0", Some("alias.x")),
            ("GIT_CONFIG_VALUE_0", Some("!rm f")),
        ];
        assert_eq!(read(&count), Some(vec!["alias.x=!rm f".into()]));
        assert_eq!(read(&count[..2]), None);
        assert_eq!(read(&[("GIT_CONFIG_COUNT", Some("x"))]), None);
        assert_eq!(read(&[]), Some(vec![]));
    }
}
