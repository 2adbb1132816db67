//! Which family a command line belongs to.
//!
//! Only the command line is used, never the output, so detection is cheap and predictable. The shell's
//! grammar is read here (chains, pipes, redirections, wrappers such as `sudo` or `npx`, `bash -c`); which
//! program and arguments mean which family is up to the family modules, asked through `registry`. Anything
//! not recognised with confidence is the generic family, whose rules are safe for any text.

use crate::family::Family;
use crate::generic::GENERIC;
use crate::passthrough::PASSTHROUGH;
use crate::registry;

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
pub(crate) fn detect(command_line: &str) -> &'static Family {
    let commands = split_commands(command_line);
    let Some(start) = commands.iter().position(|(words, _)| !is_setup(words)) else {
        return &GENERIC;
    };
    let mut stage = start;
    while commands[stage].1 == Some(Op::Pipe) {
        stage += 1;
        let Some((next, _)) = commands.get(stage) else { break };
        if !next.first().is_some_and(|p| matches!(basename(p), "cat" | "tee" | "less" | "more")) {
            return &GENERIC;
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

/// The simple commands of a command line: each one's words (redirections removed) and whether it reads a
/// pipe (`grep x src | head`: `head` does).
pub fn simple_commands(line: &str) -> Vec<(Vec<String>, bool)> {
    let mut piped = false;
    split_commands(line)
        .into_iter()
        .map(|(words, op)| {
            let reads_pipe = std::mem::replace(&mut piped, op == Some(Op::Pipe));
            (words, reads_pipe)
        })
        .collect()
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
            // A command substitution is one word, whatever pipes and chains it holds.
            '$' if chars.peek() == Some(&'(') => {
                in_word = true;
                word.push(c);
                let mut depth = 0;
                for c in chars.by_ref() {
                    word.push(c);
                    depth += i32::from(c == '(') - i32::from(c == ')');
                    if depth == 0 {
                        break;
                    }
                }
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
        "bash" | "sh" | "zsh" | "dash" => match (args.first().map(String::as_str), args.get(1)) {
            (Some("-c"), Some(script)) => detect(script),
            (None, _) => &PASSTHROUGH,
            _ => &GENERIC,
        },
        _ => registry::detect(program, args),
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
