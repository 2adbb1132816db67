//! `lctx init` and `lctx uninstall` end to end, on a fresh HOME: the round
//! trip leaves every file byte-identical (host configs in JSON and Goose's
//! YAML, rc files, the completion files init adds), a plan nobody confirmed
//! changes nothing, a host config or rc file changed since init keeps those
//! changes (only lean-ctx's part goes), a file of lctx's own the user changed
//! is not overwritten silently,
//! and after init the shells an agent starts are wrapped while a person's
//! interactive shell is not.
//!
//! PATH holds only what the test puts there: the shells, a few tools, a
//! stand-in `claude` (so Claude Code counts as installed) and a stand-in
//! `git` that says which program started it. zsh is optional here: the parts
//! that need it say so and are skipped where it is missing (CI installs it).

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use lean_ctx_tests::{Home, bin, describe};

const PROBE_GIT: &str = "#!/bin/sh\nparent=$(cat /proc/$PPID/comm 2>/dev/null || ps -o comm= -p $PPID)\n\
                         echo \"started-by=${parent##*/}\"\n";

const DEBIAN_BASHRC: &str = "# ~/.bashrc\n# If not running interactively, don't do anything\ncase $- in\n    *i*) ;;\n      *) \
                             return;;\nesac\nalias ll='ls -l'\n";

const GOOSE_CONFIG: &str = "# Goose\nGOOSE_PROVIDER: anthropic\nextensions:\n  developer:\n    enabled: true # mine\n    \
                            name: developer\n    type: builtin\n# keep\nGOOSE_MODE: auto\n";

const CLAUDE_SETTINGS: &str = "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"PostToolUse\": [{\"matcher\": \"Edit\", \"hooks\": []}]\n  }\n}\n";

struct Sandbox {
    home: Home,
}

impl Sandbox {
    fn new() -> Sandbox {
        let sandbox = Sandbox { home: Home::new() };
        let user = sandbox.user();
        fs::create_dir_all(user.join(".claude")).unwrap();
        fs::write(user.join(".bashrc"), DEBIAN_BASHRC).unwrap();
        fs::write(user.join(".claude/settings.json"), CLAUDE_SETTINGS).unwrap();
        fs::write(user.join(".claude.json"), "{\"numStartups\": 3}\n").unwrap();
        // Goose has run here; so has a JetBrains IDE (configured by hand: a manual step).
        fs::create_dir_all(user.join(".config/goose")).unwrap();
        fs::write(user.join(".config/goose/config.yaml"), GOOSE_CONFIG).unwrap();
        fs::write(user.join(".config/goose/permission.yaml"), "user: {}\n").unwrap();
        fs::create_dir_all(user.join(".config/JetBrains/IntelliJIdea2025.2/options")).unwrap();
        let tools = sandbox.tools();
        fs::create_dir_all(&tools).unwrap();
        for tool in ["bash", "zsh", "fish", "sh", "cat", "ps", "rm", "env"] {
            if let Some(found) = which(tool) {
                std::os::unix::fs::symlink(found, tools.join(tool)).unwrap();
            }
        }
        for (name, text) in [("claude", "#!/bin/sh\n"), ("git", PROBE_GIT)] {
            fs::write(tools.join(name), text).unwrap();
            fs::set_permissions(tools.join(name), fs::Permissions::from_mode(0o755)).unwrap();
        }
        sandbox
    }

    fn user(&self) -> PathBuf {
        self.home.path().join("user")
    }

    fn tools(&self) -> PathBuf {
        self.home.path().join("tools")
    }

    fn has_zsh(&self) -> bool {
        self.tools().join("zsh").exists()
    }

    /// A command as the user runs it: this HOME, this PATH, no agent marker.
    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = self.home.command(program);
        cmd.env("HOME", self.user())
            .env("XDG_CONFIG_HOME", self.user().join(".config"))
            .env("PATH", self.tools())
            .env_remove("ZDOTDIR")
            .env_remove("XDG_DATA_HOME")
            .env_remove("BASH_COMPLETION_USER_DIR")
            .env_remove("GOOSE_PATH_ROOT")
            .env_remove("BASH_ENV")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("LEAN_CTX_SHELL")
            .env_remove("LEAN_CTX_SHELL_COMMANDS")
            .current_dir(self.home.path());
        for var in AGENT_VARS {
            cmd.env_remove(var);
        }
        cmd
    }

    fn lctx(&self, args: &[&str]) -> Output {
        self.command(bin("lctx")).args(args).output().expect("run lctx")
    }

    /// Every file under the user's HOME with its bytes, and every directory.
    fn snapshot(&self) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
        let mut all = BTreeMap::new();
        walk(&self.user(), &self.user(), &mut all);
        all
    }

    /// What `git` run by `shell_args` reports as the program that started it:
    /// `lctx-shell` when routed; otherwise the shell, or whoever the shell
    /// exec'd itself away for.
    fn started_by(&self, shell: &str, args: &[&str], agent: bool) -> String {
        let mut cmd = self.command(shell);
        cmd.args(args);
        if agent {
            cmd.env("CLAUDECODE", "1");
        }
        let out = cmd.output().expect("run the shell");
        let stdout = String::from_utf8_lossy(&out.stdout);
        stdout
            .lines()
            .find_map(|l| l.strip_prefix("started-by="))
            .unwrap_or_else(|| panic!("{shell} {args:?} printed no probe line: {}", describe(&out)))
            .trim()
            .to_string()
    }
}

/// Cleared in every command: the machine running the tests may itself be
/// driven by an agent.
const AGENT_VARS: &[&str] = &[
    "LEAN_CTX_AGENT",
    "CLAUDECODE",
    "CODEX_SANDBOX",
    "CODEX_SANDBOX_NETWORK_DISABLED",
    "CODEX_THREAD_ID",
    "GEMINI_CLI",
    "CURSOR_AGENT",
    "OPENCODE",
    "GOOSE_TERMINAL",
    "CLINE_ACTIVE",
];

fn which(tool: &str) -> Option<PathBuf> {
    ["/usr/bin", "/bin", "/usr/local/bin"].iter().map(|d| Path::new(d).join(tool)).find(|p| p.exists())
}

fn walk(root: &Path, dir: &Path, all: &mut BTreeMap<PathBuf, Option<Vec<u8>>>) {
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let relative = path.strip_prefix(root).unwrap().to_path_buf();
        if entry.file_type().unwrap().is_dir() {
            all.insert(relative, None);
            walk(root, &path, all);
        } else {
            all.insert(relative, Some(fs::read(&path).unwrap()));
        }
    }
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn init_then_uninstall_leaves_every_file_as_it_was() {
    let sandbox = Sandbox::new();
    let before = sandbox.snapshot();

    let init = sandbox.lctx(&["init", "--yes"]);
    assert!(init.status.success(), "{}", describe(&init));
    let shown = text(&init);
    assert!(shown.contains("OK   agent shell  bash: an agent's `bash -c` runs wrapped commands"), "{shown}");
    assert!(shown.contains("shell hook   evaluated in ~/.bashrc"), "doctor sees the block init wrote: {shown}");
    let user = sandbox.user();
    let bashrc = fs::read_to_string(user.join(".bashrc")).unwrap();
    assert!(bashrc.starts_with(DEBIAN_BASHRC) && bashrc.contains("export BASH_ENV="), "{bashrc}");
    let settings: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(user.join(".claude/settings.json")).unwrap()).unwrap();
    assert_eq!(settings["model"], "opus");
    assert_eq!(settings["hooks"]["PostToolUse"][0]["matcher"], "Edit");
    let hook = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"].as_str().unwrap();
    assert!(hook.ends_with("lctx-shell hook claude-code"), "{hook}");
    let claude: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(user.join(".claude.json")).unwrap()).unwrap();
    assert_eq!(claude["numStartups"], 3);
    assert!(claude["mcpServers"]["lean-ctx"]["command"].as_str().unwrap().ends_with("lctx-mcp"));
    assert_eq!(sandbox.has_zsh(), user.join(".zshenv").exists(), "~/.zshenv is written exactly when zsh is there");
    let goose = fs::read_to_string(user.join(".config/goose/config.yaml")).unwrap();
    assert!(goose.starts_with(&GOOSE_CONFIG[..GOOSE_CONFIG.find("# keep").unwrap()]), "{goose}");
    assert!(
        goose.contains("  lean-ctx:\n    type: stdio\n") && goose.ends_with("# keep\nGOOSE_MODE: auto\n"),
        "{goose}"
    );
    assert!(
        shown.contains("note: JetBrains AI Assistant: manual step: run `lctx setup jetbrains` and paste the JSON"),
        "{shown}"
    );

    // Completions, shown in the plan and loadable by each shell.
    let bash_completion = user.join(".local/share/bash-completion/completions/lctx");
    assert!(
        shown.contains(&format!("# bash: completions for lctx\n--- /dev/null\n+++ {}\n@@ ", bash_completion.display()))
            && shown.contains(" lines, as `lctx completions bash` prints them @@\n"),
        "{shown}"
    );
    let source = format!("source {} && complete -p lctx", bash_completion.display());
    let complete = sandbox.command("bash").args(["-c", &source]).output().unwrap();
    assert!(String::from_utf8_lossy(&complete.stdout).trim_end().ends_with(" lctx"), "{}", describe(&complete));
    if sandbox.has_zsh() {
        let functions = user.join(".local/share/zsh/site-functions");
        assert!(functions.join("_lctx").is_file());
        let fpath = sandbox.command("zsh").args(["-c", "print -r -- $fpath[1]"]).output().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&fpath.stdout).trim(),
            functions.display().to_string(),
            "~/.zshenv puts it first"
        );
        let compinit = "autoload -Uz compinit && compinit -u -D && whence -w _lctx";
        let loaded = sandbox.command("zsh").args(["-c", compinit]).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&loaded.stdout).trim(), "_lctx: function", "{}", describe(&loaded));
    }
    assert_eq!(sandbox.tools().join("fish").exists(), user.join(".config/fish/completions/lctx.fish").is_file());

    let again = sandbox.lctx(&["init", "--yes"]);
    assert!(again.status.success(), "{}", describe(&again));
    assert!(text(&again).contains("nothing to change"), "a second init changes nothing: {}", text(&again));

    let undo = sandbox.lctx(&["uninstall"]);
    assert!(undo.status.success(), "{}", describe(&undo));
    assert_eq!(sandbox.snapshot(), before, "every file byte-identical, created files and directories gone");
    assert!(!sandbox.home.dirs().data.join("init").exists(), "the record is gone with what it recorded");
    let nothing = sandbox.lctx(&["uninstall"]);
    assert!(nothing.status.success() && text(&nothing).contains("nothing to undo"), "{}", describe(&nothing));
}

#[test]
fn without_a_terminal_or_yes_init_only_shows_the_plan() {
    let sandbox = Sandbox::new();
    let before = sandbox.snapshot();
    let out = sandbox.lctx(&["init"]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("+++ ") && stdout.contains("export BASH_ENV="), "the plan is shown as a diff: {stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("lctx init --yes"), "{}", describe(&out));
    assert_eq!(sandbox.snapshot(), before, "nothing changed");
    assert!(!sandbox.home.dirs().data.join("init").exists(), "nothing recorded");
}

#[test]
fn uninstall_takes_lean_ctx_out_of_shared_files_changed_since_init() {
    let sandbox = Sandbox::new();
    let init = sandbox.lctx(&["init", "--yes"]);
    assert!(init.status.success(), "{}", describe(&init));
    let user = sandbox.user();
    // Since init: the user added a line to ~/.bashrc; Claude Code rewrote
    // ~/.claude.json and its settings.
    let bashrc = user.join(".bashrc");
    fs::write(&bashrc, format!("{}export EDITOR=vi\n", fs::read_to_string(&bashrc).unwrap())).unwrap();
    let claude_json = user.join(".claude.json");
    let rewritten = fs::read_to_string(&claude_json).unwrap().replace("\"numStartups\": 3", "\"numStartups\": 4");
    fs::write(&claude_json, rewritten.replacen('{', "{\n  \"tipsShown\": [\"a\", \"b\"],", 1)).unwrap();
    let settings = user.join(".claude/settings.json");
    fs::write(&settings, fs::read_to_string(&settings).unwrap().replace("\"opus\"", "\"sonnet\"")).unwrap();
    // The user took lean-ctx out of Goose's config by hand and added a setting of their own.
    let goose = user.join(".config/goose/config.yaml");
    let removed = sandbox.lctx(&["setup", "--remove", "goose"]);
    assert!(removed.status.success(), "{}", describe(&removed));
    fs::write(&goose, format!("{}GOOSE_TEMPERATURE: 0.2\n", fs::read_to_string(&goose).unwrap())).unwrap();

    let undo = sandbox.lctx(&["uninstall"]);
    assert!(undo.status.success(), "{}", describe(&undo));
    assert!(
        text(&undo).contains(&format!("{} holds nothing of lean-ctx's any more; left as it is", goose.display())),
        "{}",
        text(&undo)
    );
    assert!(
        text(&undo).contains(&format!("took lean-ctx out of {}, keeping the changes", claude_json.display())),
        "{}",
        text(&undo)
    );
    assert_eq!(fs::read_to_string(&bashrc).unwrap(), format!("{DEBIAN_BASHRC}export EDITOR=vi\n"));
    assert_eq!(fs::read_to_string(&claude_json).unwrap(), "{\n  \"tipsShown\": [\"a\", \"b\"],\"numStartups\": 4}\n");
    assert_eq!(fs::read_to_string(&settings).unwrap(), CLAUDE_SETTINGS.replace("\"opus\"", "\"sonnet\""));
    assert_eq!(fs::read_to_string(&goose).unwrap(), format!("{GOOSE_CONFIG}GOOSE_TEMPERATURE: 0.2\n"));
    let backups: Vec<_> =
        sandbox.snapshot().into_keys().filter(|p| p.to_string_lossy().ends_with(".lctx-uninstall.bak")).collect();
    assert!(backups.is_empty(), "uninstall needed no backup: {backups:?}");
    assert!(!sandbox.home.dirs().data.join("init").exists(), "the record is gone with what it recorded");
}

#[test]
fn uninstall_keeps_an_empty_servers_object_the_file_had_before_init() {
    let sandbox = Sandbox::new();
    let claude_json = sandbox.user().join(".claude.json");
    fs::write(&claude_json, "{\n  \"numStartups\": 3,\n  \"mcpServers\": {}\n}\n").unwrap();
    let init = sandbox.lctx(&["init", "--yes"]);
    assert!(init.status.success(), "{}", describe(&init));
    // Claude Code rewrote the file since, so only lean-ctx's entry can come out.
    let rewritten = fs::read_to_string(&claude_json).unwrap().replace("\"numStartups\": 3", "\"numStartups\": 4");
    fs::write(&claude_json, rewritten).unwrap();
    let undo = sandbox.lctx(&["uninstall"]);
    assert!(undo.status.success(), "{}", describe(&undo));
    assert_eq!(fs::read_to_string(&claude_json).unwrap(), "{\n  \"numStartups\": 4,\n  \"mcpServers\": {}\n}\n");
}

#[test]
fn uninstall_keeps_links_removes_emptied_files_and_refuses_a_block_without_its_end() {
    let sandbox = Sandbox::new();
    let user = sandbox.user();
    fs::remove_file(user.join(".claude/settings.json")).unwrap();
    fs::remove_dir(user.join(".claude")).unwrap();
    let init = sandbox.lctx(&["init", "--yes"]);
    assert!(init.status.success(), "{}", describe(&init));
    // Since init: ~/.bashrc moved to a dotfiles directory and linked back, with a line added;
    // Claude Code re-saved the settings file init created, meaning the same.
    let dots = user.join("dots");
    fs::create_dir_all(&dots).unwrap();
    fs::rename(user.join(".bashrc"), dots.join("bashrc")).unwrap();
    std::os::unix::fs::symlink(dots.join("bashrc"), user.join(".bashrc")).unwrap();
    fs::write(dots.join("bashrc"), format!("{}export EDITOR=vi\n", fs::read_to_string(dots.join("bashrc")).unwrap()))
        .unwrap();
    let settings = user.join(".claude/settings.json");
    let value: serde_json::Value = serde_json::from_str(&fs::read_to_string(&settings).unwrap()).unwrap();
    fs::write(&settings, serde_json::to_string_pretty(&value).unwrap()).unwrap();

    // A block that lost its end line is not taken out: the lines after its start may be the user's.
    let zshenv = user.join(".zshenv");
    if sandbox.has_zsh() {
        let text = fs::read_to_string(&zshenv).unwrap();
        let end = text.lines().find(|l| l.starts_with("# <<< lean-ctx")).unwrap().to_string();
        fs::write(&zshenv, format!("{}export IMPORTANT=1\n", text.replace(&format!("{end}\n"), ""))).unwrap();
        let refused = sandbox.lctx(&["uninstall"]);
        assert_eq!(refused.status.code(), Some(1), "{}", describe(&refused));
        assert!(String::from_utf8_lossy(&refused.stderr).contains("lost its end line"), "{}", describe(&refused));
        fs::write(&zshenv, text).unwrap();
    }

    let undo = sandbox.lctx(&["uninstall"]);
    assert!(undo.status.success(), "{}", describe(&undo));
    assert!(fs::symlink_metadata(user.join(".bashrc")).unwrap().file_type().is_symlink(), "still a link");
    assert_eq!(fs::read_to_string(dots.join("bashrc")).unwrap(), format!("{DEBIAN_BASHRC}export EDITOR=vi\n"));
    assert!(!settings.exists() && !user.join(".claude").exists(), "created, and nothing else in it: gone");
}

#[test]
fn uninstall_refuses_to_overwrite_a_file_of_its_own_changed_since_init_unless_forced() {
    let sandbox = Sandbox::new();
    let init = sandbox.lctx(&["init", "--yes"]);
    assert!(init.status.success(), "{}", describe(&init));
    // A file init wrote whole: the user's edit is theirs to keep or drop.
    let agent_env = sandbox.home.dirs().config.join("shell/agent-env.bash");
    let edited = format!("{}# mine\n", fs::read_to_string(&agent_env).unwrap());
    fs::write(&agent_env, &edited).unwrap();
    let settings_after_init = fs::read(sandbox.user().join(".claude/settings.json")).unwrap();

    let refused = sandbox.lctx(&["uninstall"]);
    assert_eq!(refused.status.code(), Some(1), "{}", describe(&refused));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains(&agent_env.display().to_string()) && message.contains("--force"), "{message}");
    assert_eq!(fs::read_to_string(&agent_env).unwrap(), edited, "nothing removed");
    assert_eq!(fs::read(sandbox.user().join(".claude/settings.json")).unwrap(), settings_after_init, "all or nothing");

    // QA: a file made read-only since was named only once the changed one was dealt with.
    let bashrc = sandbox.user().join(".bashrc");
    fs::set_permissions(&bashrc, fs::Permissions::from_mode(0o444)).unwrap();
    let refused = sandbox.lctx(&["uninstall"]);
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains(&format!("changed since `lctx init`: {}", agent_env.display())), "{message}");
    assert!(message.contains(&format!("read-only since `lctx init`: {} (mode 444)", bashrc.display())), "{message}");
    assert!(message.contains("nothing was changed"), "{message}");
    fs::set_permissions(&bashrc, fs::Permissions::from_mode(0o644)).unwrap();

    // A read-only copy where --force would keep the current version is refused like a
    // read-only file: nothing changes.
    let kept = agent_env.with_file_name("agent-env.bash.lctx-uninstall.bak");
    fs::write(&kept, "an older copy of mine\n").unwrap();
    fs::set_permissions(&kept, fs::Permissions::from_mode(0o444)).unwrap();
    let refused = sandbox.lctx(&["uninstall", "--force"]);
    assert_eq!(refused.status.code(), Some(1), "{}", describe(&refused));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains(&format!("{} (mode 444)", kept.display())), "{message}");
    assert_eq!(fs::read_to_string(&kept).unwrap(), "an older copy of mine\n");
    assert_eq!(fs::read_to_string(&agent_env).unwrap(), edited, "nothing removed");
    fs::remove_file(&kept).unwrap();

    let forced = sandbox.lctx(&["uninstall", "--force"]);
    assert!(forced.status.success(), "{}", describe(&forced));
    assert!(!agent_env.exists(), "init created it; uninstall removes it");
    assert_eq!(fs::read_to_string(agent_env.with_file_name("agent-env.bash.lctx-uninstall.bak")).unwrap(), edited);
    assert_eq!(fs::read_to_string(sandbox.user().join(".claude/settings.json")).unwrap(), CLAUDE_SETTINGS);
    assert_eq!(fs::read_to_string(sandbox.user().join(".bashrc")).unwrap(), DEBIAN_BASHRC);
}

#[test]
fn after_init_agent_shells_are_wrapped_and_a_persons_shell_is_not() {
    let sandbox = Sandbox::new();
    let init = sandbox.lctx(&["init", "--yes"]);
    assert!(init.status.success(), "{}", describe(&init));

    // An agent started from a terminal runs `bash -c`: the interactive bash
    // read ~/.bashrc (which returns early for non-interactive shells).
    let agent = sandbox.started_by("bash", &["-i", "-c", "CLAUDECODE=1 bash -c git"], false);
    assert_eq!(agent, "lctx-shell", "an agent's non-interactive bash routes git through lctx-shell");
    // A login shell's /etc/profile sets PATH anew: the stand-in is put first again.
    let login_command = format!("CLAUDECODE=1 bash -lc 'export PATH={}; git'", sandbox.tools().display());
    let login = sandbox.started_by("bash", &["-i", "-c", &login_command], false);
    assert_eq!(login, "lctx-shell", "so does a login `bash -lc`, as Codex runs commands");
    let person = sandbox.started_by("bash", &["-i", "-c", "git"], false);
    assert_ne!(person, "lctx-shell", "a person's interactive bash runs git itself");
    let script = sandbox.started_by("bash", &["-i", "-c", "bash -c git"], false);
    assert_ne!(script, "lctx-shell", "a person's scripts are untouched");
    let kind = sandbox.command("bash").args(["-i", "-c", "type -t git"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&kind.stdout).trim(), "file", "no function in a person's shell");

    if !sandbox.has_zsh() {
        eprintln!("zsh not installed: the zsh half of this test is skipped");
        return;
    }
    assert_eq!(sandbox.started_by("zsh", &["-c", "git"], true), "lctx-shell", "an agent's zsh -c is wrapped");
    assert_ne!(sandbox.started_by("zsh", &["-i", "-c", "git"], false), "lctx-shell", "a person's zsh is not");
    let kind = sandbox.command("zsh").args(["-i", "-c", "whence -w git"]).output().unwrap();
    assert!(String::from_utf8_lossy(&kind.stdout).contains("git: command"), "{}", describe(&kind));
}

#[test]
fn init_from_a_new_install_points_claude_codes_hook_at_it_and_doctor_fails_a_hook_whose_program_is_gone() {
    let sandbox = Sandbox::new();
    // An earlier install in another directory, since removed.
    let old = sandbox.home.path().join("old-install");
    fs::create_dir_all(&old).unwrap();
    for name in ["lctx", "lctx-mcp", "lctx-shell", "lean-ctxd"] {
        fs::copy(bin(name), old.join(name)).unwrap();
    }
    let first = sandbox.command(old.join("lctx")).args(["init", "--yes"]).output().unwrap();
    assert!(first.status.success(), "{}", describe(&first));
    fs::remove_dir_all(&old).unwrap();
    let settings = sandbox.user().join(".claude/settings.json");
    let hook = |file: &Path| -> String {
        let value: serde_json::Value = serde_json::from_str(&fs::read_to_string(file).unwrap()).unwrap();
        let entries = value["hooks"]["PreToolUse"].as_array().unwrap().clone();
        assert_eq!(entries.len(), 1, "one entry of ours: {entries:?}");
        entries[0]["hooks"][0]["command"].as_str().unwrap().to_string()
    };
    assert_eq!(hook(&settings), format!("{} hook claude-code", old.join("lctx-shell").display()));

    let doctor = sandbox.lctx(&["doctor"]);
    let shown = text(&doctor);
    assert!(!doctor.status.success(), "{shown}");
    assert!(
        shown.contains(&format!(
            "FAIL claude hook  {}: the PreToolUse hook cannot run: {} does not exist\n",
            settings.display(),
            old.join("lctx-shell").display()
        )) && shown.contains("fix: run `lctx init` to point it at the lctx-shell beside lctx"),
        "{shown}"
    );

    let again = sandbox.lctx(&["init", "--yes"]);
    let shown = text(&again);
    assert!(shown.contains("# Claude Code: point the PreToolUse hook at this lctx-shell"), "{shown}");
    assert_eq!(hook(&settings), format!("{} hook claude-code", bin("lctx-shell").display()));
    assert!(shown.contains("OK   claude hook  "), "{shown}");
}

#[test]
fn a_hook_run_through_a_wrapper_or_from_home_is_read_by_its_program_and_keeps_the_users_layout() {
    let sandbox = Sandbox::new();
    let settings = sandbox.user().join(".claude/settings.json");
    let with_command = |command: &str| {
        format!(
            "{{\n  \"hooks\": {{\n    \"PreToolUse\": [\n      {{\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          \
             {{\n            \"type\": \"command\",\n            \"command\": \"{command}\",\n            \"timeout\": 30\n          \
             }}\n        ]\n      }}\n    ]\n  }}\n}}\n"
        )
    };
    // The user's own lctx-shell in ~/bin, run through wrappers doctor must see past.
    let home_bin = sandbox.user().join("bin");
    fs::create_dir_all(&home_bin).unwrap();
    fs::copy(bin("lctx-shell"), home_bin.join("lctx-shell")).unwrap();
    std::os::unix::fs::symlink(home_bin.join("lctx-shell"), sandbox.tools().join("lctx-shell")).unwrap();
    let wrapped = format!("nice -n 5 {} hook claude-code", home_bin.join("lctx-shell").display());
    for command in [wrapped.as_str(), "~/bin/lctx-shell hook claude-code", "env X=1 lctx-shell hook claude-code"] {
        fs::write(&settings, with_command(command)).unwrap();
        let shown = text(&sandbox.lctx(&["doctor"]));
        let through = format!("routes Claude Code's Bash tool through {}", home_bin.join("lctx-shell").display());
        let named = "routes Claude Code's Bash tool through lctx-shell\n";
        assert!(shown.contains(&through) || shown.contains(named), "{command}: {shown}");
        assert!(!shown.contains("FAIL claude hook"), "{command}: {shown}");
    }

    // init points it at this install: the wrapper and the user's layout stay, only the program changes.
    fs::write(&settings, with_command(&wrapped)).unwrap();
    let init = sandbox.lctx(&["init", "--yes"]);
    assert!(init.status.success(), "{}", describe(&init));
    let ours = format!("nice -n 5 {} hook claude-code", bin("lctx-shell").display());
    assert_eq!(fs::read_to_string(&settings).unwrap(), with_command(&ours));
    assert!(text(&sandbox.lctx(&["init", "--yes"])).contains("the lctx-shell hook is in"), "nothing left to change");
}

#[test]
fn a_hook_that_finds_this_lctx_shell_on_path_is_left_as_the_user_wrote_it() {
    let sandbox = Sandbox::new();
    let settings = sandbox.user().join(".claude/settings.json");
    // This install's lctx-shell is on PATH through a link, as a package manager puts it there.
    std::os::unix::fs::symlink(bin("lctx-shell"), sandbox.tools().join("lctx-shell")).unwrap();
    for command in ["$(which lctx-shell) hook claude-code", "$(command -v lctx-shell) hook claude-code"] {
        let written = format!(
            "{{\"hooks\": {{\"PreToolUse\": [{{\"matcher\": \"Bash\", \"hooks\": [{{\"type\": \"command\", \
             \"command\": \"{command}\"}}]}}]}}}}\n"
        );
        fs::write(&settings, &written).unwrap();
        let shown = text(&sandbox.lctx(&["init", "--yes"]));
        assert_eq!(fs::read_to_string(&settings).unwrap(), written, "{command}: {shown}");
        let note = format!("note: Claude Code: the lctx-shell hook is in {} already\n", settings.display());
        assert!(shown.contains(&note), "{command}: {shown}");
        let doctor =
            format!("OK   claude hook  {} routes Claude Code's Bash tool through lctx-shell\n", settings.display());
        assert!(shown.contains(&doctor), "{command}: {shown}");
    }
}

#[test]
fn uninstall_takes_out_a_directory_setup_created_that_init_s_file_was_the_last_in() {
    let sandbox = Sandbox::new();
    let cursor = sandbox.user().join(".cursor");
    assert!(sandbox.lctx(&["setup", "cursor", "--force"]).status.success());
    // The user deleted setup's file by hand; init writes its own there.
    fs::remove_file(cursor.join("mcp.json")).unwrap();
    fs::write(sandbox.tools().join("cursor"), "#!/bin/sh\n").unwrap();
    fs::set_permissions(sandbox.tools().join("cursor"), fs::Permissions::from_mode(0o755)).unwrap();
    assert!(sandbox.lctx(&["init", "--yes"]).status.success());
    assert!(cursor.join("mcp.json").is_file());
    let uninstall = sandbox.lctx(&["uninstall"]);
    let shown = text(&uninstall);
    assert!(shown.contains(&format!("removed {}\n", cursor.display())), "{shown}");
    assert!(!cursor.exists(), "{shown}");
}

/// Where `lctx setup` lists the directories it created, found under the sandbox.
fn created_dirs_list(dir: &Path) -> Option<PathBuf> {
    for entry in fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.ends_with("setup/created-dirs.json") {
            return Some(path);
        }
        if path.is_dir()
            && !path.is_symlink()
            && let Some(found) = created_dirs_list(&path)
        {
            return Some(found);
        }
    }
    None
}

#[test]
fn a_damaged_list_of_setup_s_directories_does_not_stop_uninstall_half_way() {
    let sandbox = Sandbox::new();
    assert!(sandbox.lctx(&["setup", "cursor", "--force"]).status.success());
    let cursor = sandbox.user().join(".cursor");
    fs::remove_file(cursor.join("mcp.json")).unwrap();
    fs::write(sandbox.tools().join("cursor"), "#!/bin/sh\n").unwrap();
    fs::set_permissions(sandbox.tools().join("cursor"), fs::Permissions::from_mode(0o755)).unwrap();
    assert!(sandbox.lctx(&["init", "--yes"]).status.success());
    let list = created_dirs_list(sandbox.home.path()).expect("setup listed ~/.cursor");
    fs::write(&list, "{bad").unwrap();
    let uninstall = sandbox.lctx(&["uninstall"]);
    let shown = text(&uninstall);
    assert!(uninstall.status.success(), "{shown}");
    assert!(shown.contains("is damaged") && shown.contains("the directories `lctx setup` created are left"), "{shown}");
    assert!(shown.contains("`lctx init` is undone"), "{shown}");
    let again = text(&sandbox.lctx(&["uninstall"]));
    assert!(!again.contains("`lctx init` is undone"), "init's record went with the undo: {again}");
}

#[test]
fn a_read_only_rc_file_is_left_alone_with_the_lines_to_add_by_hand() {
    let sandbox = Sandbox::new();
    let bashrc = sandbox.user().join(".bashrc");
    fs::set_permissions(&bashrc, fs::Permissions::from_mode(0o444)).unwrap();
    let init = sandbox.lctx(&["init", "--yes"]);
    let shown = text(&init);
    assert_eq!(fs::read_to_string(&bashrc).unwrap(), DEBIAN_BASHRC, "{shown}");
    assert_eq!(fs::metadata(&bashrc).unwrap().permissions().mode() & 0o777, 0o444);
    assert!(
        shown.contains(&format!(
            "note: bash: export BASH_ENV for agents started from a terminal: {0} is read-only (mode 444), so lctx \
             leaves it alone: make it writable (`chmod u+w {0}`)",
            bashrc.display()
        )),
        "{shown}"
    );
    assert!(shown.contains("\n+[ -n \"${BASH_ENV-}\" ] || export BASH_ENV="), "the lines to add are shown: {shown}");
    let settings: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(sandbox.user().join(".claude/settings.json")).unwrap()).unwrap();
    assert!(settings["hooks"]["PreToolUse"].is_array(), "the writable files are set up");
}

#[test]
fn uninstall_leaves_a_file_made_read_only_since_and_changes_nothing() {
    let sandbox = Sandbox::new();
    let bashrc = sandbox.user().join(".bashrc");
    let settings = sandbox.user().join(".claude/settings.json");
    assert!(sandbox.lctx(&["init", "--yes"]).status.success());
    let (bashrc_after_init, settings_after_init) =
        (fs::read_to_string(&bashrc).unwrap(), fs::read_to_string(&settings).unwrap());
    fs::set_permissions(&bashrc, fs::Permissions::from_mode(0o444)).unwrap();
    let uninstall = sandbox.lctx(&["uninstall"]);
    let shown = text(&uninstall);
    assert!(!uninstall.status.success(), "{shown}");
    assert!(shown.contains(&format!("read-only since `lctx init`: {} (mode 444)", bashrc.display())), "{shown}");
    assert!(shown.contains("nothing was changed"), "{shown}");
    assert_eq!(fs::read_to_string(&bashrc).unwrap(), bashrc_after_init);
    assert_eq!(fs::metadata(&bashrc).unwrap().permissions().mode() & 0o777, 0o444);
    assert_eq!(fs::read_to_string(&settings).unwrap(), settings_after_init, "no file was undone");
}

/// QA: with the agent-env file moved away, doctor said the lean-ctx block in `.bashrc` was fine
/// and an agent's bash was not routed, without the cause.
#[test]
fn a_missing_agent_env_file_is_named_as_the_cause() {
    let sandbox = Sandbox::new();
    assert!(sandbox.lctx(&["init", "--yes"]).status.success());
    let ours = sandbox.home.dirs().config.join("shell/agent-env.bash");
    fs::rename(&ours, ours.with_extension("away")).unwrap();
    let shown = text(&sandbox.lctx(&["doctor"]));
    let bashrc = sandbox.user().join(".bashrc");
    let cause = format!(
        "FAIL agent shell  bash: {} reads {}, which does not exist, so an agent's `bash -c` routes nothing through \
         lctx-shell\n",
        bashrc.display(),
        ours.display()
    );
    assert!(shown.contains(&cause), "{shown}");
    assert!(shown.contains("fix: run `lctx init` again: it writes the file"), "{shown}");
    assert!(sandbox.lctx(&["init", "--yes"]).status.success(), "init writes it again");
    assert!(ours.exists());
}

#[test]
fn a_bash_env_of_the_users_is_named_as_the_cause_with_the_line_that_fixes_it() {
    let sandbox = Sandbox::new();
    let user = sandbox.user();
    let bashrc = user.join(".bashrc");
    fs::write(&bashrc, format!("{DEBIAN_BASHRC}export BASH_ENV=$HOME/.myenv\n")).unwrap();
    let myenv = user.join(".myenv");
    fs::write(&myenv, "export MINE=1\n").unwrap();

    let init = sandbox.lctx(&["init", "--yes"]);
    let shown = text(&init);
    assert!(!init.status.success(), "{shown}");
    let ours = sandbox.home.dirs().config.join("shell/agent-env.bash");
    let cause = format!(
        "FAIL agent shell  bash: an agent's `bash -c` reads BASH_ENV={}, set by line 8 of {}, not lctx's {}, so its \
         commands are not routed through lctx-shell\n",
        myenv.display(),
        bashrc.display(),
        ours.display()
    );
    assert!(shown.contains(&cause), "{shown}");
    let line = format!("[ ! -r '{0}' ] || . '{0}'", ours.display());
    assert!(shown.contains(&format!("fix: add this line to {}: {line}\n", myenv.display())), "{shown}");

    // The fix, as printed, works.
    fs::write(&myenv, format!("export MINE=1\n{line}\n")).unwrap();
    let doctor = sandbox.lctx(&["doctor"]);
    let shown = text(&doctor);
    assert!(shown.contains("OK   agent shell  bash: an agent's `bash -c` runs wrapped commands"), "{shown}");
    let agent = sandbox.started_by("bash", &["-i", "-c", "CLAUDECODE=1 bash -c git"], false);
    assert_eq!(agent, "lctx-shell", "{shown}");
}
