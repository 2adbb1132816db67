//! Which family a command line belongs to.
//!
//! Only the command line is used, never the output, so detection is cheap and predictable. Anything not
//! recognised with confidence is [`Family::Generic`], whose rules are safe for any text.

/// A group of commands whose output shares one format and so one set of compression rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Family {
    GitStatus,
    GitLog,
    GitDiff,
    GitShow,
    GitBranch,
    GitSync,
    GitClone,
    CargoBuild,
    CargoTest,
    CargoNextest,
    JsInstall,
    JsRun,
    JsTest,
    Jest,
    Vitest,
    Mocha,
    Tsc,
    Eslint,
    Biome,
    Pytest,
    Unittest,
    Ruff,
    Flake8,
    Mypy,
    Pyright,
    PipInstall,
    PipList,
    GoBuild,
    GoTest,
    GoVet,
    Make,
    Cmake,
    Ninja,
    Gradle,
    Maven,
    DockerPs,
    DockerImages,
    DockerBuild,
    DockerLogs,
    KubectlGet,
    KubectlDescribe,
    KubectlLogs,
    TerraformPlan,
    TerraformApply,
    Ls,
    Find,
    Grep,
    Tree,
    Du,
    Df,
    Ps,
    Env,
    Curl,
    Wget,
    Generic,
    /// Interactive programs and servers: their output is returned untouched.
    Passthrough,
}

impl Family {
    pub(crate) fn name(self) -> &'static str {
        use Family::*;
        match self {
            GitStatus => "git-status",
            GitLog => "git-log",
            GitDiff => "git-diff",
            GitShow => "git-show",
            GitBranch => "git-branch",
            GitSync => "git-sync",
            GitClone => "git-clone",
            CargoBuild => "cargo-build",
            CargoTest => "cargo-test",
            CargoNextest => "cargo-nextest",
            JsInstall => "js-install",
            JsRun => "js-run",
            JsTest => "js-test",
            Jest => "jest",
            Vitest => "vitest",
            Mocha => "mocha",
            Tsc => "tsc",
            Eslint => "eslint",
            Biome => "biome",
            Pytest => "pytest",
            Unittest => "unittest",
            Ruff => "ruff",
            Flake8 => "flake8",
            Mypy => "mypy",
            Pyright => "pyright",
            PipInstall => "pip-install",
            PipList => "pip-list",
            GoBuild => "go-build",
            GoTest => "go-test",
            GoVet => "go-vet",
            Make => "make",
            Cmake => "cmake",
            Ninja => "ninja",
            Gradle => "gradle",
            Maven => "maven",
            DockerPs => "docker-ps",
            DockerImages => "docker-images",
            DockerBuild => "docker-build",
            DockerLogs => "docker-logs",
            KubectlGet => "kubectl-get",
            KubectlDescribe => "kubectl-describe",
            KubectlLogs => "kubectl-logs",
            TerraformPlan => "terraform-plan",
            TerraformApply => "terraform-apply",
            Ls => "ls",
            Find => "find",
            Grep => "grep",
            Tree => "tree",
            Du => "du",
            Df => "df",
            Ps => "ps",
            Env => "env",
            Curl => "curl",
            Wget => "wget",
            Generic => "generic",
            Passthrough => "passthrough",
        }
    }
}

impl Family {
    /// Families whose output is the list the agent asked for: compacted up to the listing budget, not cut.
    pub(crate) fn is_listing(self) -> bool {
        use Family::*;
        matches!(self, Ls | Find | Tree | Du | PipList | GitBranch | DockerPs | DockerImages | KubectlGet)
    }
}

/// The pattern a grep-like command searches for (`-e PATTERN` or the first operand), used to trim long
/// matched lines around the match. `None` for other commands.
pub(crate) fn search_pattern(command_line: &str) -> Option<String> {
    let commands = split_commands(command_line);
    let (words, _) = commands.iter().find(|(words, _)| !is_setup(words))?;
    let words = strip_wrappers(words);
    let program = basename(words.first()?);
    let git_grep = program == "git" && words.get(1).is_some_and(|w| w == "grep");
    if !(git_grep || matches!(program, "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack")) {
        return None;
    }
    const WITH_VALUE: &[&str] =
        &["-A", "-B", "-C", "-m", "-f", "-g", "-t", "-T", "-j", "--glob", "--type", "--max-count"];
    let mut args = words[1..].iter().skip_while(|w| *w == "grep");
    while let Some(word) = args.next() {
        if word == "-e" || word == "--regexp" {
            return args.next().cloned();
        }
        if WITH_VALUE.contains(&word.as_str()) {
            args.next();
        } else if !word.starts_with('-') {
            return Some(word.clone());
        }
    }
    None
}

/// Detects the family of `command_line`.
///
/// Leading setup commands of a chain (`cd x && cargo test`) are skipped because they print nothing. A pipeline
/// keeps its first command's family only when the later stages just pass lines through (`| cat`, `| tee log`);
/// any other filter reshapes the output, so it is generic.
pub(crate) fn detect(command_line: &str) -> Family {
    let commands = split_commands(command_line);
    let Some(start) = commands.iter().position(|(words, _)| !is_setup(words)) else {
        return Family::Generic;
    };
    let mut stage = start;
    while commands[stage].1 == Some(Op::Pipe) {
        stage += 1;
        let Some((next, _)) = commands.get(stage) else { break };
        if !next.first().is_some_and(|p| matches!(basename(p), "cat" | "tee" | "less" | "more")) {
            return Family::Generic;
        }
    }
    classify(strip_wrappers(&commands[start].0))
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    Pipe,
    /// `&&`, `||`, `;`, `&` or a newline: the next command's output simply follows.
    Then,
}

/// Splits a command line into simple commands (words with redirections removed) and the operator after each.
fn split_commands(line: &str) -> Vec<(Vec<String>, Option<Op>)> {
    let mut commands = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    let finish = |words: &mut Vec<String>, word: &mut String, in_word: &mut bool| {
        if *in_word {
            words.push(std::mem::take(word));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                word.extend(chars.by_ref().take_while(|&c| c != '\''));
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            '#' if !in_word => break,
            '|' | ';' | '\n' => {
                finish(&mut words, &mut word, &mut in_word);
                let op = if c == '|' && chars.next_if_eq(&'|').is_none() {
                    chars.next_if_eq(&'&');
                    Op::Pipe
                } else {
                    Op::Then
                };
                commands.push((std::mem::take(&mut words), Some(op)));
            }
            '&' if word.ends_with('>') || chars.peek() == Some(&'>') => {
                in_word = true;
                word.push(c);
            }
            '&' => {
                finish(&mut words, &mut word, &mut in_word);
                chars.next_if_eq(&'&');
                commands.push((std::mem::take(&mut words), Some(Op::Then)));
            }
            c if c.is_whitespace() => finish(&mut words, &mut word, &mut in_word),
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    finish(&mut words, &mut word, &mut in_word);
    commands.push((words, None));
    commands.retain(|(words, _)| !words.is_empty());
    commands.into_iter().map(|(words, op)| (drop_redirections(words), op)).collect()
}

/// Removes `2>&1`, `>out.log`, `> out.log`, `<in` and friends: they do not change what the program prints.
fn drop_redirections(words: Vec<String>) -> Vec<String> {
    let mut kept = Vec::with_capacity(words.len());
    let mut skip_next = false;
    for w in words {
        if std::mem::take(&mut skip_next) {
            continue;
        }
        let op = w.trim_start_matches(|c: char| c.is_ascii_digit());
        if op.starts_with(['>', '<']) || op.starts_with("&>") {
            skip_next = op.trim_start_matches(['>', '<', '&']).is_empty();
            continue;
        }
        kept.push(w);
    }
    kept
}

/// Commands that print nothing when they succeed (and stop an `&&` chain when they fail), so the output of
/// `cd x && cargo test` or `rm -rf node_modules && npm ci` is the second command's.
fn is_setup(words: &[String]) -> bool {
    let Some(first) = words.first() else { return true };
    matches!(
        first.as_str(),
        "cd" | "pushd"
            | "popd"
            | "export"
            | "set"
            | "unset"
            | "source"
            | "."
            | "true"
            | ":"
            | "ulimit"
            | "umask"
            | "alias"
            | "shopt"
            | "rm"
            | "mkdir"
            | "touch"
            | "cp"
            | "mv"
            | "ln"
            | "chmod"
            | "sleep"
            | "clear"
    ) || words.iter().all(|w| is_assignment(w))
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Program name without directory, and without the version suffix of `python3.11` / `pip3`.
fn basename(program: &str) -> &str {
    let name = program.rsplit('/').next().unwrap_or(program);
    for versioned in ["python", "pip"] {
        if name.strip_prefix(versioned).is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.')) {
            return versioned;
        }
    }
    name
}

/// Skips leading options; those listed in `with_value` also consume the following word.
fn skip_options<'w>(mut words: &'w [String], with_value: &[&str]) -> &'w [String] {
    while let Some(first) = words.first().filter(|w| w.starts_with('-')) {
        let step = if with_value.contains(&first.as_str()) { 2 } else { 1 };
        words = &words[step.min(words.len())..];
    }
    words
}

/// Peels `FOO=1`, `sudo`, `env`, `time`, `timeout 10`, `npx`, `uv run`, `pnpm exec` and similar wrappers off
/// the front, leaving the program that actually produces the output.
fn strip_wrappers(mut words: &[String]) -> &[String] {
    loop {
        let Some(first) = words.first() else { return words };
        let rest = &words[1..];
        let second = rest.first().map(String::as_str);
        words = if is_assignment(first) {
            rest
        } else {
            match (basename(first), second) {
                ("sudo" | "doas", _) => skip_options(rest, &["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"]),
                ("env", Some(_)) => {
                    let after = skip_options(rest, &["-u", "-C", "-S", "--unset", "--chdir"]);
                    let program = after.iter().position(|w| !is_assignment(w)).unwrap_or(after.len());
                    if program == after.len() {
                        return words;
                    }
                    &after[program..]
                }
                ("time" | "nohup" | "command" | "exec" | "builtin" | "stdbuf" | "xvfb-run" | "dotenv", _) => {
                    skip_options(rest, &[])
                }
                ("nice", _) => skip_options(rest, &["-n"]),
                ("timeout", _) => {
                    let after = skip_options(rest, &["-s", "-k", "--signal", "--kill-after"]);
                    after.get(1..).unwrap_or(after)
                }
                ("npx" | "bunx" | "pnpx" | "uvx", _) => skip_options(rest, &["-p", "--package"]),
                ("uv" | "poetry" | "pipenv" | "pdm" | "rye" | "hatch" | "pipx", Some("run")) => {
                    skip_options(&rest[1..], &["--with", "-p", "--python", "--env", "-e"])
                }
                ("npm", Some("exec" | "x")) | ("pnpm" | "yarn", Some("exec" | "dlx")) | ("bun", Some("x")) => {
                    let after = skip_options(&rest[1..], &["-p", "--package"]);
                    match after.first() {
                        Some(w) if w == "--" => &after[1..],
                        _ => after,
                    }
                }
                _ => return words,
            }
        };
    }
}

fn has_flag(args: &[String], flags: &[&str]) -> bool {
    args.iter().any(|a| flags.contains(&a.as_str()) || flags.iter().any(|f| a.starts_with(&format!("{f}="))))
}

/// Whether a cluster of short flags such as `-it` contains `letter`.
fn has_short(args: &[String], letter: char) -> bool {
    args.iter().any(|a| a.starts_with('-') && !a.starts_with("--") && a[1..].contains(letter))
}

fn classify(words: &[String]) -> Family {
    use Family::*;
    let Some(program) = words.first() else { return Generic };
    let args = &words[1..];
    let first_arg = args.first().map(String::as_str);
    match basename(program) {
        "bash" | "sh" | "zsh" | "dash" => match (first_arg, args.get(1)) {
            (Some("-c"), Some(script)) => detect(script),
            (None, _) => Passthrough,
            _ => Generic,
        },
        "git" => git(args),
        "cargo" => cargo(args),
        "rustc" => CargoBuild,
        pm @ ("npm" | "pnpm" | "yarn" | "bun") => package_manager(pm, args),
        "pytest" | "py.test" => Pytest,
        "python" | "py" => python(args),
        "pip" => pip(args),
        "go" => match first_arg {
            Some("build" | "install") => GoBuild,
            Some("test") => GoTest,
            Some("vet") => GoVet,
            _ => Generic,
        },
        "jest" if has_flag(args, &["--watch", "--watchAll"]) => Passthrough,
        "jest" => Jest,
        "vitest" if matches!(first_arg, Some("watch" | "dev")) || has_flag(args, &["--watch", "-w"]) => Passthrough,
        "vitest" => Vitest,
        "mocha" if has_flag(args, &["--watch", "-w"]) => Passthrough,
        "mocha" => Mocha,
        "tsc" | "vue-tsc" if has_flag(args, &["--watch", "-w"]) => Passthrough,
        "tsc" | "vue-tsc" => Tsc,
        "eslint" => Eslint,
        "biome" => Biome,
        "ruff" => Ruff,
        "flake8" => Flake8,
        "mypy" | "dmypy" => Mypy,
        "pyright" | "basedpyright" => Pyright,
        "make" | "gmake" => Make,
        "cmake" => Cmake,
        "ninja" => Ninja,
        "gradle" | "gradlew" if has_flag(args, &["--continuous", "-t"]) => Passthrough,
        "gradle" | "gradlew" => Gradle,
        "mvn" | "mvnw" => Maven,
        "docker" | "podman" => docker(args),
        "docker-compose" => compose(args),
        "kubectl" | "oc" => kubectl(args),
        "terraform" | "tofu" => match skip_options(args, &[]).first().map(String::as_str) {
            Some("plan") => TerraformPlan,
            Some("apply" | "destroy") => TerraformApply,
            Some("console") => Passthrough,
            _ => Generic,
        },
        "ls" | "ll" | "la" | "exa" | "eza" => Ls,
        "find" | "fd" | "fdfind" => Find,
        "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack" => Grep,
        "tree" => Tree,
        "du" => Du,
        "df" => Df,
        "ps" => Ps,
        "env" | "printenv" => Env,
        "curl" => Curl,
        "wget" => Wget,
        "tail" if has_flag(args, &["-f", "-F", "--follow"]) => Passthrough,
        "journalctl" if has_flag(args, &["-f", "--follow"]) => Passthrough,
        "dmesg" if has_flag(args, &["-w", "--follow"]) => Passthrough,
        "ping" if !has_short(args, 'c') => Passthrough,
        "node" | "deno" | "irb" | "lua" | "ruby" | "R" | "julia" | "php" if args.is_empty() => Passthrough,
        "php" if has_flag(args, &["-S", "-a"]) => Passthrough,
        "flask" if first_arg == Some("run") => Passthrough,
        "rails" if matches!(first_arg, Some("s" | "server" | "c" | "console")) => Passthrough,
        "vite" if matches!(first_arg, None | Some("dev" | "serve" | "preview")) => Passthrough,
        "next" | "nuxt" | "astro" if matches!(first_arg, Some("dev" | "start" | "preview")) => Passthrough,
        "hugo" | "jekyll" | "ng" | "webpack" if matches!(first_arg, Some("server" | "serve")) => Passthrough,
        name if is_interactive(name) => Passthrough,
        _ => Generic,
    }
}

/// Programs that take over the terminal or run until stopped: their output is not a result to compress.
fn is_interactive(name: &str) -> bool {
    matches!(
        name,
        "vim"
            | "vi"
            | "nvim"
            | "view"
            | "nano"
            | "pico"
            | "emacs"
            | "micro"
            | "hx"
            | "helix"
            | "joe"
            | "less"
            | "more"
            | "most"
            | "man"
            | "info"
            | "top"
            | "htop"
            | "btop"
            | "atop"
            | "iotop"
            | "nvtop"
            | "glances"
            | "watch"
            | "ssh"
            | "mosh"
            | "telnet"
            | "ftp"
            | "sftp"
            | "tmux"
            | "screen"
            | "zellij"
            | "psql"
            | "mysql"
            | "mariadb"
            | "sqlite3"
            | "redis-cli"
            | "mongo"
            | "mongosh"
            | "ipython"
            | "bpython"
            | "ptpython"
            | "ghci"
            | "iex"
            | "erl"
            | "pry"
            | "fzf"
            | "lazygit"
            | "tig"
            | "nnn"
            | "ranger"
            | "mc"
            | "vifm"
            | "ncdu"
            | "gdb"
            | "lldb"
            | "nodemon"
            | "uvicorn"
            | "gunicorn"
            | "hypercorn"
            | "http-server"
            | "live-server"
            | "serve"
            | "webpack-dev-server"
    )
}

fn git(args: &[String]) -> Family {
    use Family::*;
    let rest = skip_options(args, &["-C", "-c", "--git-dir", "--work-tree", "--namespace"]);
    let Some(sub) = rest.first() else { return Generic };
    let sub_args = &rest[1..];
    match sub.as_str() {
        "status" => GitStatus,
        "log" | "reflog" | "shortlog" | "whatchanged" => GitLog,
        "diff" => GitDiff,
        "show" => GitShow,
        "branch" => GitBranch,
        "push" | "pull" | "fetch" => GitSync,
        "clone" => GitClone,
        "grep" => Grep,
        "add" if has_flag(sub_args, &["--patch", "--interactive", "--edit"]) || has_short(sub_args, 'p') => Passthrough,
        "rebase" if has_flag(sub_args, &["--interactive"]) || has_short(sub_args, 'i') => Passthrough,
        "commit" if !commit_has_message(sub_args) => Passthrough,
        "mergetool" | "difftool" => Passthrough,
        _ => Generic,
    }
}

/// `git commit` without a message source opens an editor.
fn commit_has_message(args: &[String]) -> bool {
    has_flag(args, &["--message", "--file", "--no-edit", "--reuse-message", "--fixup"])
        || has_short(args, 'm')
        || has_short(args, 'F')
        || has_short(args, 'C')
}

fn cargo(args: &[String]) -> Family {
    use Family::*;
    let after_toolchain = match args.first() {
        Some(t) if t.starts_with('+') => &args[1..],
        _ => args,
    };
    match skip_options(after_toolchain, &["--color", "-Z", "--config", "-C"]).first().map(String::as_str) {
        Some("build" | "b" | "check" | "c" | "clippy" | "doc" | "d" | "rustc" | "fix" | "install" | "run" | "r") => {
            CargoBuild
        }
        Some("test" | "t" | "bench") => CargoTest,
        Some("nextest") => CargoNextest,
        Some("watch") => Passthrough,
        _ => Generic,
    }
}

fn package_manager(pm: &str, args: &[String]) -> Family {
    use Family::*;
    let rest = skip_options(args, &["--prefix", "-C", "--dir", "--filter", "--cwd", "-w", "--workspace"]);
    let verb = rest.first().map(String::as_str);
    let next = rest.get(1).map(String::as_str);
    match (pm, verb) {
        ("yarn", None) => JsInstall,
        (_, None) => Generic,
        (
            _,
            Some("install" | "i" | "ci" | "add" | "update" | "up" | "upgrade" | "remove" | "rm" | "uninstall" | "un"),
        ) => JsInstall,
        (_, Some("test" | "t" | "tst")) => JsTest,
        (_, Some("start")) => Passthrough,
        (_, Some("run" | "run-script")) => script(next),
        ("npm", _) => Generic,
        (
            _,
            Some(
                "list" | "ls" | "info" | "why" | "audit" | "outdated" | "global" | "cache" | "config" | "init"
                | "publish" | "pack" | "link" | "store" | "workspaces" | "workspace",
            ),
        ) => Generic,
        (_, Some(file)) if file.contains('.') || file.contains('/') => Generic,
        (_, name) => script(name),
    }
}

/// Family of a package.json script, judged by its conventional name.
fn script(name: Option<&str>) -> Family {
    let Some(name) = name else { return Family::Generic };
    let long_running = ["dev", "start", "serve", "watch", "preview", "storybook"];
    if long_running.iter().any(|p| name == *p || name.starts_with(&format!("{p}:"))) {
        Family::Passthrough
    } else if name.contains("test") {
        Family::JsTest
    } else {
        Family::JsRun
    }
}

fn python(args: &[String]) -> Family {
    use Family::*;
    let mut rest = args;
    while let Some(first) = rest.first().filter(|w| w.starts_with('-') && !matches!(w.as_str(), "-m" | "-c" | "-i")) {
        let step = if matches!(first.as_str(), "-X" | "-W") { 2 } else { 1 };
        rest = &rest[step.min(rest.len())..];
    }
    match rest.first().map(String::as_str) {
        None => Passthrough,
        Some("-m") => match rest.get(1).map(String::as_str) {
            Some("pytest") => Pytest,
            Some("unittest") => Unittest,
            Some("pip") => pip(&rest[2..]),
            Some("mypy") => Mypy,
            Some("ruff") => Ruff,
            Some("flake8") => Flake8,
            Some("pyright") => Pyright,
            Some("http.server" | "IPython" | "pdb" | "code") => Passthrough,
            _ => Generic,
        },
        Some("-i") => Passthrough,
        Some(script) if script.ends_with("manage.py") && rest.get(1).is_some_and(|a| a == "runserver") => Passthrough,
        _ => Generic,
    }
}

fn pip(args: &[String]) -> Family {
    match skip_options(args, &[]).first().map(String::as_str) {
        Some("install" | "download" | "uninstall") => Family::PipInstall,
        Some("list" | "freeze") => Family::PipList,
        _ => Family::Generic,
    }
}

fn docker(args: &[String]) -> Family {
    use Family::*;
    let rest = skip_options(args, &["--context", "-c", "-H", "--host", "--log-level", "-l", "--config"]);
    let Some(sub) = rest.first() else { return Generic };
    let sub_args = &rest[1..];
    let follow = has_flag(sub_args, &["-f", "--follow"]);
    match (sub.as_str(), sub_args.first().map(String::as_str)) {
        ("ps", _) | ("container", Some("ls" | "list" | "ps")) => DockerPs,
        ("images", _) | ("image", Some("ls" | "list")) => DockerImages,
        ("build", _) | ("image" | "buildx" | "builder", Some("build")) => DockerBuild,
        ("logs", _) | ("container", Some("logs")) if follow => Passthrough,
        ("logs", _) | ("container", Some("logs")) => DockerLogs,
        ("compose", _) => compose(sub_args),
        ("run" | "exec", _) if has_flag(sub_args, &["--interactive", "--tty"]) || has_short(sub_args, 'i') => {
            Passthrough
        }
        ("attach" | "events", _) => Passthrough,
        ("stats", _) if !has_flag(sub_args, &["--no-stream"]) => Passthrough,
        _ => Generic,
    }
}

fn compose(args: &[String]) -> Family {
    use Family::*;
    let rest = skip_options(args, &["-f", "--file", "-p", "--project-name", "--profile", "--env-file"]);
    let sub_args = rest.get(1..).unwrap_or_default();
    match rest.first().map(String::as_str) {
        Some("build") => DockerBuild,
        Some("ps") => DockerPs,
        Some("images") => DockerImages,
        Some("logs") if has_flag(sub_args, &["-f", "--follow"]) => Passthrough,
        Some("logs") => DockerLogs,
        Some("up") if !has_flag(sub_args, &["-d", "--detach"]) => Passthrough,
        _ => Generic,
    }
}

fn kubectl(args: &[String]) -> Family {
    use Family::*;
    let rest = skip_options(args, &["-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s"]);
    let Some(sub) = rest.first() else { return Generic };
    let sub_args = &rest[1..];
    match sub.as_str() {
        "get" if has_flag(sub_args, &["-w", "--watch", "--watch-only"]) => Passthrough,
        "get" => KubectlGet,
        "describe" => KubectlDescribe,
        "logs" if has_flag(sub_args, &["-f", "--follow"]) => Passthrough,
        "logs" => KubectlLogs,
        "exec" | "run" if has_flag(sub_args, &["--stdin", "--tty"]) || has_short(sub_args, 'i') => Passthrough,
        "attach" | "port-forward" | "proxy" | "edit" => Passthrough,
        _ => Generic,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_patterns_of_grep_like_commands() {
        assert_eq!(search_pattern("grep -rn 'fn new' src").as_deref(), Some("fn new"));
        assert_eq!(search_pattern("cd x && rg -n -g '*.rs' -e unwrap src").as_deref(), Some("unwrap"));
        assert_eq!(search_pattern("git grep -n TODO").as_deref(), Some("TODO"));
        assert_eq!(search_pattern("cargo test"), None);
    }
    use Family::*;

    #[test]
    fn plain_commands() {
        for (line, family) in [
            ("git status", GitStatus),
            ("git log --oneline -n 5", GitLog),
            ("git diff --cached", GitDiff),
            ("git show HEAD~1", GitShow),
            ("git branch -a", GitBranch),
            ("git push origin main", GitSync),
            ("git pull --rebase", GitSync),
            ("git fetch --all", GitSync),
            ("git clone /srv/repo.git x", GitClone),
            ("git commit -m 'msg'", Generic),
            ("git commit -am wip", Generic),
            ("cargo build --release", CargoBuild),
            ("cargo clippy --all-targets -- -D warnings", CargoBuild),
            ("cargo test -p foo", CargoTest),
            ("cargo nextest run", CargoNextest),
            ("npm install", JsInstall),
            ("npm ci", JsInstall),
            ("npm test", JsTest),
            ("npm run build", JsRun),
            ("npm run test:unit", JsTest),
            ("pnpm add lodash", JsInstall),
            ("pnpm lint", JsRun),
            ("yarn", JsInstall),
            ("yarn build", JsRun),
            ("bun install", JsInstall),
            ("bun test", JsTest),
            ("pytest -x", Pytest),
            ("python -m unittest discover", Unittest),
            ("go test ./...", GoTest),
            ("go build ./cmd/x", GoBuild),
            ("go vet ./...", GoVet),
            ("jest", Jest),
            ("vitest run", Vitest),
            ("mocha test", Mocha),
            ("tsc --noEmit", Tsc),
            ("eslint .", Eslint),
            ("biome check src", Biome),
            ("ruff check .", Ruff),
            ("flake8 src", Flake8),
            ("mypy pkg", Mypy),
            ("pyright", Pyright),
            ("make -j8", Make),
            ("cmake --build build", Cmake),
            ("ninja -C build", Ninja),
            ("./gradlew build", Gradle),
            ("mvn -B test", Maven),
            ("docker ps -a", DockerPs),
            ("docker images", DockerImages),
            ("docker build -t x .", DockerBuild),
            ("docker buildx build .", DockerBuild),
            ("docker logs api", DockerLogs),
            ("kubectl get pods -A", KubectlGet),
            ("kubectl -n shop describe pod api-1", KubectlDescribe),
            ("kubectl logs api-1", KubectlLogs),
            ("terraform plan", TerraformPlan),
            ("terraform -chdir=infra apply -auto-approve", TerraformApply),
            ("pip install requests", PipInstall),
            ("pip3 list", PipList),
            ("ls -la", Ls),
            ("find . -name '*.rs'", Find),
            ("fd -e ts", Find),
            ("rg -n foo", Grep),
            ("grep -rn 'a|b' src", Grep),
            ("git grep -n foo", Grep),
            ("tree -L 2", Tree),
            ("du -sh *", Du),
            ("df -h", Df),
            ("ps aux", Ps),
            ("env", Env),
            ("printenv", Env),
            ("curl -s https://x.invalid", Curl),
            ("wget https://x.invalid/f", Wget),
            ("echo hi", Generic),
            ("", Generic),
        ] {
            assert_eq!(detect(line), family, "{line}");
        }
    }

    #[test]
    fn wrappers_paths_and_module_runners() {
        for (line, family) in [
            ("FOO=1 BAR=2 cargo test", CargoTest),
            ("sudo -u deploy /usr/bin/git status", GitStatus),
            ("env RUST_LOG=debug cargo test", CargoTest),
            ("time npm test", JsTest),
            ("timeout -s KILL 60 pytest", Pytest),
            ("python -m pytest -q", Pytest),
            ("python3.11 -u -m pytest", Pytest),
            ("python3 -m pip install -r req.txt", PipInstall),
            ("npx jest --ci", Jest),
            ("npx -y tsc -p .", Tsc),
            ("npm exec -- eslint .", Eslint),
            ("pnpm exec vitest run", Vitest),
            ("uv run pytest", Pytest),
            ("poetry run mypy .", Mypy),
            ("cargo +nightly test", CargoTest),
            ("cargo -q build", CargoBuild),
            ("git -C repo --no-pager log", GitLog),
            ("bash -c 'cargo test 2>&1'", CargoTest),
            ("/usr/local/bin/kubectl --context prod get pods", KubectlGet),
        ] {
            assert_eq!(detect(line), family, "{line}");
        }
    }

    #[test]
    fn chains_pipes_and_redirections() {
        for (line, family) in [
            ("cd crate && cargo test", CargoTest),
            ("cd a; export X=1; make", Make),
            ("cargo test 2>&1 | tee test.log", CargoTest),
            ("cargo build 2>&1", CargoBuild),
            ("cargo build > build.log 2>&1", CargoBuild),
            ("git log | head -20", Generic),
            ("cargo test 2>&1 | grep FAILED", Generic),
            ("make && make install", Make),
            ("pytest; echo done", Pytest),
            ("grep -c 'a|b' file", Grep),
            ("cd x", Generic),
            ("rm -rf node_modules && npm ci", JsInstall),
        ] {
            assert_eq!(detect(line), family, "{line}");
        }
    }

    #[test]
    fn interactive_programs_and_servers_pass_through() {
        for line in [
            "vim src/main.rs",
            "less log.txt",
            "top",
            "ssh host",
            "npm run dev",
            "npm start",
            "yarn dev",
            "python -m http.server 8000",
            "python",
            "node",
            "tail -f app.log",
            "docker logs -f api",
            "docker run -it ubuntu bash",
            "docker compose up",
            "kubectl logs -f api",
            "kubectl exec -it api -- sh",
            "jest --watch",
            "tsc -w",
            "cargo watch -x test",
            "git commit",
            "git add -p",
            "git rebase -i HEAD~3",
            "ping example.invalid",
            "python manage.py runserver",
            "bash",
        ] {
            assert_eq!(detect(line), Passthrough, "{line}");
        }
        assert_eq!(detect("ping -c 3 host"), Generic);
        assert_eq!(detect("docker compose up -d"), Generic);
    }
}
