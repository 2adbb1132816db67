//! Which family a command line belongs to.
//!
//! Only the command line is used, never the output, so detection is cheap and predictable. The line is cut
//! into simple commands by `lean_ctx_shell_syntax`, the splitter the guard matches permission rules with;
//! what they mean for the output is read here (setup commands of a chain, filters in a pipe, wrappers such as
//! `sudo` or `npx`, `bash -c`); which program and arguments mean which family is up to the family modules,
//! asked through `registry`. Anything not recognised with confidence is the generic family, whose rules are
//! safe for any text.

use crate::family::Family;
use crate::generic::GENERIC;
use crate::passthrough::PASSTHROUGH;
use crate::registry;

/// The pattern a grep-like command searches for (`-e PATTERN` or the first operand), used to trim long
/// matched lines around the match. `None` for other commands.
pub(crate) fn search_pattern(command_line: &str) -> Option<String> {
    let words = first_printing(command_line);
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

/// Whether `command_line` prints a file's lines, whole or filtered (`cat app.log`, `tail -n 50 app.log`,
/// `sed -n 1,80p x`, `jq . out.json`), judged like [`search_pattern`] by its first command that prints. Those
/// lines are the data asked for, like a search's matches, not the program's own report.
pub(crate) fn prints_files(command_line: &str) -> bool {
    let words = first_printing(command_line);
    let Some(program) = words.first().map(|program| basename(program)) else { return false };
    // A service's log as it was written (`pm2 logs`, `heroku logs`), like a file's lines.
    let logs = matches!(program, "pm2" | "heroku") && words.get(1).is_some_and(|word| word == "logs");
    logs || (program == "git" && crate::git::shows_a_file(&words[1..]))
        || matches!(
            program,
            "cat"
                | "tac"
                | "zcat"
                | "xzcat"
                | "bzcat"
                | "zstdcat"
                | "bat"
                | "batcat"
                | "less"
                | "zless"
                | "more"
                | "zmore"
                | "head"
                | "tail"
                | "nl"
                | "strings"
                | "sed"
                | "awk"
                | "gawk"
                | "mawk"
                | "cut"
                | "sort"
                | "uniq"
                | "jq"
                | "yq"
                | "journalctl"
                | "stern"
        )
}

/// Whether `command_line` is a `git log` asked for a number of commits (`git log --stat -n 25`).
pub(crate) fn asks_for_commits(command_line: &str) -> bool {
    let words = first_printing(command_line);
    words.first().is_some_and(|program| basename(program) == "git") && crate::git::asks_for_commits(&words[1..])
}

/// The words of the first command of `command_line` that prints (setup such as `cd x &&` skipped), wrappers
/// such as `sudo` peeled off; empty when there is none.
fn first_printing(command_line: &str) -> Vec<String> {
    let commands = commands(command_line);
    let Some(first) = commands.iter().find(|c| !is_setup(&c.words)) else { return Vec::new() };
    let words = strip_wrappers(&first.words);
    // A shell given a script (`bash -lc 'grep …'`, as Codex runs every command) prints what the
    // script's first command does.
    match shell_script(words) {
        Some(script) => first_printing(script),
        None => words.to_vec(),
    }
}

/// The script a shell is given to run (`bash -c 'x'`, `bash -lc 'x'`, `sh -e -c 'x'`), if `words`
/// run one.
fn shell_script(words: &[String]) -> Option<&str> {
    let program = basename(words.first()?);
    if !matches!(program, "bash" | "sh" | "zsh" | "dash") {
        return None;
    }
    let mut args = words[1..].iter();
    while let Some(arg) = args.next() {
        match arg.strip_prefix('-') {
            // `-o pipefail` takes a value; `-lc` and `-c` say the script comes next.
            Some("o") => {
                args.next();
            }
            Some(flags) if !flags.starts_with('-') && flags.contains('c') => return args.next().map(String::as_str),
            Some(_) => {}
            None => return None,
        }
    }
    None
}

/// Detects the family of `command_line`.
///
/// Leading setup commands of a chain (`cd x && cargo test`) are skipped because they print nothing. A pipeline
/// keeps its first command's family only when the later stages just pass lines through (`| cat`, `| tee log`);
/// any other filter reshapes the output, so it is generic. A pipe after a subshell reads what each of its
/// commands prints.
pub(crate) fn detect(command_line: &str) -> &'static Family {
    let commands = commands(command_line);
    let Some(start) = commands.iter().position(|c| !is_setup(&c.words)) else {
        return &GENERIC;
    };
    let mut stage = start;
    while commands[stage].writes_pipe {
        let Some(reader) = commands[stage + 1..].iter().position(|c| c.reads_pipe) else { break };
        stage += 1 + reader;
        if !commands[stage].words.first().is_some_and(|p| matches!(basename(p), "cat" | "tee" | "less" | "more")) {
            return &GENERIC;
        }
    }
    classify(strip_wrappers(&commands[start].words))
}

/// A simple command whose output is the line's: its words, redirections removed and a substitution kept as
/// one word.
struct Simple {
    words: Vec<String>,
    reads_pipe: bool,
    writes_pipe: bool,
}

/// The simple commands of `line` but those run inside a substitution: what they print only makes another
/// command's words.
fn commands(line: &str) -> Vec<Simple> {
    lean_ctx_shell_syntax::split(line)
        .into_iter()
        .filter(|command| !command.in_substitution)
        .map(|command| Simple {
            words: command.words.into_iter().map(|word| word.text).collect(),
            reads_pipe: command.reads_pipe,
            writes_pipe: command.writes_pipe,
        })
        .collect()
}

/// The simple commands of a command line whose output is the line's: each one's words (redirections removed,
/// a substitution kept as one word) and whether it reads a pipe (`grep x src | head`: `head` does).
pub fn simple_commands(line: &str) -> Vec<(Vec<String>, bool)> {
    commands(line).into_iter().map(|command| (command.words, command.reads_pipe)).collect()
}

/// A program a command line runs, with the family its output would have if it ran alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Its name without directory or wrappers (`tail` for `/usr/bin/tail -3`, `pytest` for `uv run pytest`).
    pub name: String,
    /// [`crate::Compressed::family`]'s name for it (`pytest`, `cargo-test`, `generic`, …).
    pub family: &'static str,
    /// Whether it runs tests (its family is a test runner's).
    pub runs_tests: bool,
}

/// The programs `line` runs, in order, each judged on its own, those in `sh -c` scripts included: which of them
/// ran tests, and which one the line ends with (whose exit status is the line's, without `pipefail`), for a
/// caller that records runs, where [`detect`] tells how the output reads and so lets a filter decide.
pub fn programs(line: &str) -> Vec<Program> {
    let mut out = Vec::new();
    for command in commands(line) {
        let words = strip_wrappers(&command.words);
        let Some(first) = words.first() else { continue };
        let name = basename(first);
        match (name, words.get(1).map(String::as_str), words.get(2)) {
            ("bash" | "sh" | "zsh" | "dash", Some("-c"), Some(script)) => out.extend(programs(script)),
            _ => {
                let family = classify(words);
                out.push(Program { name: name.to_string(), family: family.name, runs_tests: family.runs_tests });
            }
        }
    }
    out
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
pub(crate) fn skip_options<'w>(mut words: &'w [String], with_value: &[&str]) -> &'w [String] {
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
                // A compiler cache runs the compiler it is given (`ccache aarch64-linux-gnu-gcc -c a.c`); its
                // own options (`ccache -s`) leave no program, which is generic.
                ("ccache" | "sccache" | "distcc", _) => skip_options(rest, &[]),
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

/// Whether `args` contain one of `flags`, alone or as `--flag=value`.
pub(crate) fn has_flag(args: &[String], flags: &[&str]) -> bool {
    args.iter().any(|a| flags.contains(&a.as_str()) || flags.iter().any(|f| a.starts_with(&format!("{f}="))))
}

/// Whether a cluster of short flags such as `-it` contains `letter`.
pub(crate) fn has_short(args: &[String], letter: char) -> bool {
    args.iter().any(|a| a.starts_with('-') && !a.starts_with("--") && a[1..].contains(letter))
}

/// The family of one simple command, wrappers already peeled off. A shell running a script (`bash -c '…'`)
/// is judged by the script; any other program by the family modules (see `registry`).
fn classify(words: &[String]) -> &'static Family {
    let Some(program) = words.first() else { return &GENERIC };
    let program = basename(program);
    let args = &words[1..];
    match program {
        "bash" | "sh" | "zsh" | "dash" => match shell_script(words) {
            Some(script) => detect(script),
            None if args.is_empty() => &PASSTHROUGH,
            None => &GENERIC,
        },
        _ => registry::detect(program, args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_each_judged_alone_in_order() {
        let programs = |line| programs(line).into_iter().map(|p| (p.name, p.family)).collect::<Vec<_>>();
        let named = |pairs: &[(&str, &'static str)]| {
            pairs.iter().map(|(name, family)| (name.to_string(), *family)).collect::<Vec<_>>()
        };
        assert_eq!(
            programs("cd tests && uv run pytest -q 2>&1 | tail -2"),
            named(&[("cd", "generic"), ("pytest", "pytest"), ("tail", "generic")])
        );
        assert_eq!(programs("bash -c 'cargo test; echo $?'"), named(&[("cargo", "cargo-test"), ("echo", "generic")]));
        assert_eq!(
            programs("echo $(date)"),
            named(&[("echo", "generic")]),
            "a substitution's program is not the line's"
        );
    }

    #[test]
    fn search_patterns_of_grep_like_commands() {
        assert_eq!(search_pattern("grep -rn 'fn new' src").as_deref(), Some("fn new"));
        assert_eq!(search_pattern("cd x && rg -n -g '*.rs' -e unwrap src").as_deref(), Some("unwrap"));
        assert_eq!(search_pattern("git grep -n TODO").as_deref(), Some("TODO"));
        assert_eq!(search_pattern("cargo test"), None);
        assert!(prints_files("cd logs && tail -n 50 app.log | cat") && prints_files("sudo cat /var/log/app.log"));
        assert!(!prints_files("node app.js | tail -40") && !prints_files("npm test"));
        // A shell's script is judged by its own first command, as agents wrap every command.
        assert!(prints_files("bash -lc 'cat app.log'") && prints_files("sh -e -c 'tail -n 200 app.log'"));
        assert!(prints_files("journalctl -u app") && prints_files("pm2 logs") && prints_files("xzcat app.log.xz"));
        assert!(!prints_files("bash -lc 'node app.js'") && !prints_files("pm2 start app.js"));
        assert!(prints_files("git show HEAD:CHECKLIST.md") && prints_files("git -C repo show v1.0:src/lib.rs"));
        assert!(!prints_files("git show HEAD~1") && !prints_files("git show --format=%H:%s HEAD"));
        // An option's value given as the next word is no `REV:PATH`; a file named after it is one.
        assert!(!prints_files("git show -s --date format:%Y-%m-%d HEAD") && !prints_files("git show --author a:b"));
        assert!(prints_files("git show --date iso HEAD:src/lib.rs"));
        assert_eq!(search_pattern("bash -lc 'grep -n node:internal app.log'").as_deref(), Some("node:internal"));
    }

    #[test]
    fn simple_commands_keep_substitutions_and_quotes_whole_and_say_which_read_a_pipe() {
        let words = |line| simple_commands(line).into_iter().map(|(w, piped)| (w.join(" "), piped)).collect::<Vec<_>>();
        assert_eq!(
            words("grep -rn \"a|b\" src 2>&1 | head -5"),
            [("grep -rn a|b src".to_string(), false), ("head -5".to_string(), true)]
        );
        assert_eq!(
            words("echo $(git log | head -1) && cargo test # done"),
            [("echo $(git log | head -1)".to_string(), false), ("cargo test".to_string(), false)]
        );
        // The family of a line whose substitution holds a pipe is its first command's.
        assert_eq!(detect("cargo test --features $(cat feats | tr -d ' ')").name, "cargo-test");
    }

    /// What the shell passes on: inside double quotes a backslash before a `.` stays.
    #[test]
    fn search_patterns_are_what_the_program_receives() {
        assert_eq!(search_pattern(r#"grep -rn "fn a\.b" src"#).as_deref(), Some(r"fn a\.b"));
        assert_eq!(search_pattern(r#"rg -e "\$HOME" ."#).as_deref(), Some("$HOME"));
    }

    /// Each command of `line` whose output is the line's, its words joined, after `| ` when it reads a pipe.
    fn commands(line: &str) -> Vec<String> {
        let shown =
            |(words, piped): (Vec<String>, bool)| format!("{}{}", if piped { "| " } else { "" }, words.join(" "));
        simple_commands(line).into_iter().map(shown).collect()
    }

    /// Read as the shell reads them (detection's own tokenizer did not, before it shared the guard's splitter).
    #[test]
    fn heredocs_comments_continuations_subshells_and_backticks() {
        // A heredoc's body is data: its lines are neither commands nor pipes, nor is its delimiter.
        assert_eq!(
            commands("cat > notes.txt <<'EOF'\ncargo test | head\nEOF\nwc -l notes.txt"),
            ["cat", "wc -l notes.txt"]
        );
        assert_eq!(detect("source /dev/stdin <<'EOF'\nexport A=1\nEOF\ncargo test").name, "cargo-test");
        // A comment ends with its line, not with the script.
        assert_eq!(commands("cargo build # release\ncargo test"), ["cargo build", "cargo test"]);
        assert_eq!(detect("# run the tests\ncargo test").name, "cargo-test");
        // A backslash before a newline continues the command.
        assert_eq!(commands("cargo test \\\n  --release"), ["cargo test --release"]);
        // A subshell's parenthesis is no part of a word; a filter after the subshell still reshapes its output.
        assert_eq!(detect("(cd sub && cargo test)").name, "cargo-test");
        assert_eq!(commands("(cd sub && cargo test) 2>&1 | tail -5"), ["cd sub", "cargo test", "| tail -5"]);
        assert_eq!(detect("(cd sub && cargo test) 2>&1 | tail -5").name, "generic");
        assert_eq!(detect("(cargo build; cargo test) 2>&1 | tail -5").name, "generic");
        assert_eq!(detect("(cargo build; cargo test) 2>&1 | tee log").name, "cargo-build");
        // Backticks are a substitution as `$(…)` is: the pipe inside is not the line's.
        assert_eq!(
            commands("cargo test --features `cat feats | tr -d ' '`"),
            ["cargo test --features `cat feats | tr -d ' '`"]
        );
        assert_eq!(detect("cargo test --features `cat feats | tr -d ' '`").name, "cargo-test");
    }

    #[test]
    fn plain_commands() {
        for (line, family) in [
            ("git status", "git-status"),
            ("git log --oneline -n 5", "git-log"),
            ("git diff --cached", "git-diff"),
            ("git show HEAD~1", "git-show"),
            ("git branch -a", "git-branch"),
            ("git push origin main", "git-sync"),
            ("git pull --rebase", "git-sync"),
            ("git fetch --all", "git-sync"),
            ("git clone /srv/repo.git x", "git-clone"),
            ("git commit -m 'msg'", "generic"),
            ("git commit -am wip", "generic"),
            ("cargo build --release", "cargo-build"),
            ("cargo clippy --all-targets -- -D warnings", "cargo-build"),
            ("cargo test -p foo", "cargo-test"),
            ("cargo nextest run", "cargo-nextest"),
            ("npm install", "js-install"),
            ("npm ci", "js-install"),
            ("npm test", "js-test"),
            ("npm run build", "js-run"),
            ("npm run test:unit", "js-test"),
            ("pnpm add lodash", "js-install"),
            ("pnpm lint", "js-run"),
            ("yarn", "js-install"),
            ("yarn build", "js-run"),
            ("bun install", "js-install"),
            ("bun test", "js-test"),
            ("pytest -x", "pytest"),
            ("python -m unittest discover", "unittest"),
            ("go test ./...", "go-test"),
            ("go build ./cmd/x", "go-build"),
            ("go vet ./...", "go-vet"),
            ("jest", "jest"),
            ("vitest run", "vitest"),
            ("mocha test", "mocha"),
            ("tsc --noEmit", "tsc"),
            ("eslint .", "eslint"),
            ("biome check src", "biome"),
            ("ruff check .", "ruff"),
            ("flake8 src", "flake8"),
            ("mypy pkg", "mypy"),
            ("pyright", "pyright"),
            ("make -j8", "make"),
            ("cmake --build build", "cmake"),
            ("ninja -C build", "ninja"),
            ("./gradlew build", "gradle"),
            ("mvn -B test", "maven"),
            ("docker ps -a", "docker-ps"),
            ("docker images", "docker-images"),
            ("docker build -t x .", "docker-build"),
            ("docker buildx build .", "docker-build"),
            ("docker logs api", "docker-logs"),
            ("kubectl get pods -A", "kubectl-get"),
            ("kubectl -n shop describe pod api-1", "kubectl-describe"),
            ("kubectl logs api-1", "kubectl-logs"),
            ("terraform plan", "terraform-plan"),
            ("terraform -chdir=infra apply -auto-approve", "terraform-apply"),
            ("pip install requests", "pip-install"),
            ("pip3 list", "pip-list"),
            ("ls -la", "ls"),
            ("find . -name '*.rs'", "find"),
            ("fd -e ts", "find"),
            ("rg -n foo", "grep"),
            ("grep -rn 'a|b' src", "grep"),
            ("git grep -n foo", "grep"),
            ("tree -L 2", "tree"),
            ("du -sh *", "du"),
            ("df -h", "df"),
            ("ps aux", "ps"),
            ("env", "env"),
            ("printenv", "env"),
            ("curl -s https://x.invalid", "curl"),
            ("wget https://x.invalid/f", "wget"),
            ("echo hi", "generic"),
            ("", "generic"),
        ] {
            assert_eq!(detect(line).name, family, "{line}");
        }
    }

    #[test]
    fn wrappers_paths_and_module_runners() {
        for (line, family) in [
            ("FOO=1 BAR=2 cargo test", "cargo-test"),
            ("sudo -u deploy /usr/bin/git status", "git-status"),
            ("env RUST_LOG=debug cargo test", "cargo-test"),
            ("time npm test", "js-test"),
            ("timeout -s KILL 60 pytest", "pytest"),
            ("python -m pytest -q", "pytest"),
            ("python3.11 -u -m pytest", "pytest"),
            ("python3 -m pip install -r req.txt", "pip-install"),
            ("npx jest --ci", "jest"),
            ("npx -y tsc -p .", "tsc"),
            ("npm exec -- eslint .", "eslint"),
            ("pnpm exec vitest run", "vitest"),
            ("uv run pytest", "pytest"),
            ("poetry run mypy .", "mypy"),
            ("cargo +nightly test", "cargo-test"),
            ("ccache aarch64-linux-gnu-gcc -Wall -c a.c", "cc"),
            ("distcc g++ -c a.cc", "cc"),
            ("ccache -s", "generic"),
            ("cargo -q build", "cargo-build"),
            ("git -C repo --no-pager log", "git-log"),
            ("bash -c 'cargo test 2>&1'", "cargo-test"),
            ("/usr/local/bin/kubectl --context prod get pods", "kubectl-get"),
        ] {
            assert_eq!(detect(line).name, family, "{line}");
        }
    }

    #[test]
    fn chains_pipes_and_redirections() {
        for (line, family) in [
            ("cd crate && cargo test", "cargo-test"),
            ("cd a; export X=1; make", "make"),
            ("cargo test 2>&1 | tee test.log", "cargo-test"),
            ("cargo build 2>&1", "cargo-build"),
            ("cargo build > build.log 2>&1", "cargo-build"),
            ("git log | head -20", "generic"),
            ("cargo test 2>&1 | grep FAILED", "generic"),
            ("make && make install", "make"),
            ("pytest; echo done", "pytest"),
            ("grep -c 'a|b' file", "grep"),
            ("cd x", "generic"),
            ("rm -rf node_modules && npm ci", "js-install"),
        ] {
            assert_eq!(detect(line).name, family, "{line}");
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
            assert_eq!(detect(line).name, "passthrough", "{line}");
        }
        assert_eq!(detect("ping -c 3 host").name, "generic");
        assert_eq!(detect("docker compose up -d").name, "generic");
    }
}
