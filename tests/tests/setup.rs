//! `lctx setup`: registering lean-ctx in each AI coding host's config file,
//! with the real `lctx` run against files under a temporary HOME and
//! XDG_CONFIG_HOME, from inside a temporary git project, and a dummy
//! `lctx-mcp` named by LEAN_CTX_MCP_BIN.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;

use lean_ctx_tests::{Home, bin, describe};

/// A HOME, an XDG_CONFIG_HOME and an `lctx-mcp`, all under one temp dir.
struct Sandbox {
    home: Home,
}

impl Sandbox {
    fn new() -> Sandbox {
        let sandbox = Sandbox { home: Home::new() };
        for dir in ["home", "xdg", "bin", "empty-path", "project/.git", "project/src"] {
            std::fs::create_dir_all(sandbox.root().join(dir)).unwrap();
        }
        std::fs::write(sandbox.mcp(), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(sandbox.mcp(), std::fs::Permissions::from_mode(0o755)).unwrap();
        sandbox
    }

    fn root(&self) -> &Path {
        self.home.path()
    }

    fn mcp(&self) -> PathBuf {
        self.root().join("bin/lctx-mcp")
    }

    /// `home/…` or `xdg/…` under the sandbox.
    fn path(&self, relative: &str) -> PathBuf {
        self.root().join(relative)
    }

    fn command(&self) -> std::process::Command {
        let mut cmd = self.home.command(bin("lctx"));
        cmd.env("HOME", self.path("home"))
            .env("XDG_CONFIG_HOME", self.path("xdg"))
            .env("LEAN_CTX_MCP_BIN", self.mcp())
            .env("PATH", self.path("empty-path"))
            .env_remove("CODEX_HOME")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("GOOSE_PATH_ROOT")
            .current_dir(self.path("project/src"))
            .arg("setup");
        cmd
    }

    fn lctx(&self, args: &[&str]) -> Output {
        self.command().args(args).output().expect("run lctx")
    }

    fn write(&self, relative: &str, text: &str) {
        let path = self.path(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.path(relative)).unwrap()
    }

    /// Makes a host look installed: a file of its own in its config directory.
    fn installed(&self, evidence: &str) {
        self.write(evidence, "{}");
    }

    /// An executable script at `relative`.
    fn executable(&self, relative: &str) -> PathBuf {
        self.write(relative, "#!/bin/sh\n");
        let path = self.path(relative);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}", describe(out));
    stdout(out)
}

/// One host: a realistic config, where our entry lands in it, the file a
/// fresh setup creates, and a broken variant.
struct Case {
    host: &'static str,
    /// Extra arguments for every call (a scope).
    args: &'static [&'static str],
    /// A file the installed host keeps of its own, under the sandbox.
    evidence: &'static str,
    /// Under the sandbox: `home/…`, `xdg/…` or `project/…`.
    file: &'static str,
    original: &'static str,
    /// Our entry goes right after the (unique) text `anchor`…
    anchor: &'static str,
    /// …as this text, `{MCP}` standing for the lctx-mcp path.
    inserted: &'static str,
    /// The whole file setup creates when there is none.
    fresh: &'static str,
    /// A broken file, and the `file:line:` the refusal must name.
    broken: &'static str,
    broken_line: usize,
}

impl Case {
    fn configured(&self, mcp: &Path) -> String {
        assert_eq!(self.original.matches(self.anchor).count(), 1, "{}: anchor must be unique", self.host);
        let inserted = self.inserted.replace("{MCP}", &mcp.display().to_string());
        self.original.replacen(self.anchor, &format!("{}{inserted}", self.anchor), 1)
    }
}

/// Every behaviour the brief asks of one host, in order on one sandbox.
fn check(case: &Case) {
    let sb = Sandbox::new();
    let file = sb.path(case.file);
    let backup = sb.path(&format!("{}.bak", case.file));
    let expected = case.configured(&sb.mcp());
    sb.installed(case.evidence);
    sb.write(case.file, case.original);
    let run = |args: &[&str]| sb.lctx(&[args, case.args].concat());

    // --dry-run: a diff on stdout, nothing written.
    let dry = ok(&run(&[case.host, "--dry-run"]));
    assert!(dry.contains(&format!("--- {}\n+++ {}\n", file.display(), file.display())), "{dry}");
    assert!(
        dry.contains("\"lean-ctx\"") || dry.contains("[mcp_servers.lean-ctx]") || dry.contains("+  lean-ctx:\n"),
        "{dry}"
    );
    assert!(dry.lines().any(|l| l.starts_with('+') && l.contains(&sb.mcp().display().to_string())), "{dry}");
    assert!(dry.ends_with("(dry run: nothing written)\n"), "{dry}");
    assert_eq!(sb.read(case.file), case.original, "{}: dry run wrote", case.host);
    assert!(!backup.exists(), "{}: dry run made a backup", case.host);

    // setup: our entry added, everything else byte for byte, a backup of the original.
    let first = ok(&run(&[case.host]));
    assert!(first.contains(&format!("written to {}", file.display())), "{first}");
    assert_eq!(sb.read(case.file), expected, "{}", case.host);
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), case.original);

    // Again: nothing changes.
    let again = ok(&run(&[case.host]));
    assert!(again.contains("already configured"), "{again}");
    assert_eq!(sb.read(case.file), expected);
    let dry_again = ok(&run(&[case.host, "--dry-run"]));
    assert!(dry_again.contains("already configured") && !dry_again.contains("+++"), "{dry_again}");

    // --list shows it, with the path.
    let list = ok(&run(&["--list"]));
    let line = list.lines().find(|l| l.starts_with(&format!("{} ", case.host))).unwrap_or_else(|| panic!("{list}"));
    assert!(line.contains(" installed ") && !line.contains("not installed"), "{line}");
    assert!(line.contains(&format!("registered: lean-ctx → {} in {}", sb.mcp().display(), file.display())), "{line}");
    assert!(!line.contains("BROKEN"), "{line}");

    // --remove: the original again, comments and all; the backup setup made goes with the entry.
    let removed = ok(&run(&["--remove", case.host]));
    assert!(removed.contains(&format!("removed lean-ctx from {}", file.display())), "{removed}");
    assert_eq!(sb.read(case.file), case.original, "{}", case.host);
    assert!(!backup.exists(), "{}: {removed}", case.host);
    let nothing = ok(&run(&["--remove", case.host]));
    assert!(nothing.contains("not configured") && nothing.contains("nothing to remove"), "{nothing}");

    // No file: created with just our entry, no backup.
    std::fs::remove_file(&file).unwrap();
    ok(&run(&[case.host]));
    let fresh = case.fresh.replace("{MCP}", &sb.mcp().display().to_string());
    assert_eq!(sb.read(case.file), fresh, "{}", case.host);
    assert!(!backup.exists());
    assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600, "new files are private");
    // Removing it again takes the file setup created away, and leaves no backup.
    let removed = ok(&run(&["--remove", case.host]));
    assert!(removed.contains(&format!("removed {}: `lctx setup` created it", file.display())), "{removed}");
    assert!(!file.exists() && !backup.exists(), "{}", case.host);

    // A broken file: refused with file:line, left alone.
    sb.write(case.file, case.broken);
    for args in [vec![case.host], vec![case.host, "--dry-run"], vec!["--remove", case.host]] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", describe(&out));
        assert!(stderr(&out).contains(&format!("{}:{}:", file.display(), case.broken_line)), "{}", describe(&out));
        assert!(stderr(&out).contains("nothing was changed"), "{}", describe(&out));
    }
    assert_eq!(sb.read(case.file), case.broken);
    assert!(!backup.exists());
    let list = ok(&run(&["--list"]));
    assert!(list.contains(&format!("unreadable: {}:{}:", file.display(), case.broken_line)), "{list}");
}

#[test]
fn claude_code() {
    check(&Case {
        host: "claude-code",
        args: &[],
        evidence: "home/.claude/settings.json",
        file: "home/.claude.json",
        original: r#"{
  "numStartups": 12,
  "theme": "dark",
  "projects": {
    "/home/u/src/app": {
      "allowedTools": [],
      "mcpServers": {}
    }
  },
  "mcpServers": {
    "github": {
      "type": "stdio",
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-github"
      ],
      "env": {
        "GITHUB_TOKEN": "ghp_example"
      }
    }
  },
  "hasCompletedOnboarding": true
}
"#,
        anchor: "\"GITHUB_TOKEN\": \"ghp_example\"\n      }\n    }",
        inserted: ",\n    \"lean-ctx\": {\n      \"type\": \"stdio\",\n      \"command\": \"{MCP}\",\n      \"args\": [],\n      \"env\": {}\n    }",
        fresh: "{\n  \"mcpServers\": {\n    \"lean-ctx\": {\n      \"type\": \"stdio\",\n      \"command\": \"{MCP}\",\n      \"args\": [],\n      \"env\": {}\n    }\n  }\n}\n",
        broken: "{\n  \"numStartups\": 12,\n  \"mcpServers\": {\n    \"github\": {\"command\": \"npx\"}\n    \"b\": {}\n  }\n}\n",
        broken_line: 5,
    });
}

#[test]
fn claude_desktop() {
    check(&Case {
        host: "claude-desktop",
        args: &[],
        evidence: "xdg/Claude/Preferences",
        file: "xdg/Claude/claude_desktop_config.json",
        original: r#"{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/u/Desktop"]
    }
  },
  "globalShortcut": "Ctrl+Space"
}
"#,
        anchor: "\"/home/u/Desktop\"]\n    }",
        inserted: ",\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }",
        fresh: "{\n  \"mcpServers\": {\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }\n  }\n}\n",
        broken: "{\n  \"mcpServers\": {\n    \"filesystem\": {\n      \"command\": \"npx\n    }\n  }\n}\n",
        broken_line: 4,
    });
}

#[test]
fn cursor() {
    check(&Case {
        host: "cursor",
        args: &[],
        evidence: "home/.cursor/argv.json",
        file: "home/.cursor/mcp.json",
        original: r#"{
  "mcpServers": {
    "playwright": {
      "command": "npx",
      "args": ["@playwright/mcp@latest"]
    },
    "remote": {
      "url": "https://example.com/mcp"
    }
  }
}
"#,
        anchor: "\"url\": \"https://example.com/mcp\"\n    }",
        inserted: ",\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }",
        fresh: "{\n  \"mcpServers\": {\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }\n  }\n}\n",
        broken: "{\n  \"mcpServers\": {\n    \"playwright\": {\n      \"command\": \"npx\",\n",
        broken_line: 3,
    });
}

#[test]
fn vscode() {
    check(&Case {
        host: "vscode",
        args: &[],
        evidence: "xdg/Code/User/settings.json",
        file: "xdg/Code/User/mcp.json",
        original: "// User MCP servers (see \"MCP: Open User Configuration\")\n{\n\t\"servers\": {\n\t\t\"memory\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\"command\": \"npx\",\n\t\t\t\"args\": [\"-y\", \"@modelcontextprotocol/server-memory\"], // no key needed\n\t\t},\n\t\t/* \"old\": { \"command\": \"gone\" }, */\n\t},\n\t\"inputs\": [\n\t\t{ \"type\": \"promptString\", \"id\": \"api-key\", \"password\": true }\n\t]\n}\n",
        anchor: "/* \"old\": { \"command\": \"gone\" }, */",
        inserted: "\n\t\t\"lean-ctx\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\"command\": \"{MCP}\",\n\t\t\t\"args\": []\n\t\t},",
        fresh: "{\n  \"servers\": {\n    \"lean-ctx\": {\n      \"type\": \"stdio\",\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }\n  }\n}\n",
        broken: "{\n\t\"servers\": {\n\t\t/* unclosed comment\n\t}\n}\n",
        broken_line: 3,
    });
}

#[test]
fn codex() {
    check(&Case {
        host: "codex",
        args: &[],
        evidence: "home/.codex/auth.json",
        file: "home/.codex/config.toml",
        original: r#"# ~/.codex/config.toml
model = "gpt-5-codex"
approval_policy = "on-request"

[mcp_servers.context7]
command = "npx"
args = ["-y", "@upstash/context7-mcp"] # docs lookups

[mcp_servers.context7.env]
CONTEXT7_KEY = "k"

# per-project trust
[projects."/home/u/src/app"]
trust_level = "trusted"
"#,
        anchor: "CONTEXT7_KEY = \"k\"\n",
        inserted: "\n[mcp_servers.lean-ctx]\ncommand = \"{MCP}\"\nargs = []\n",
        fresh: "[mcp_servers.lean-ctx]\ncommand = \"{MCP}\"\nargs = []\n",
        broken: "model = \"gpt-5-codex\"\n\n[mcp_servers.context7\ncommand = \"npx\"\n",
        broken_line: 3,
    });
}

#[test]
fn windsurf() {
    check(&Case {
        host: "windsurf",
        args: &[],
        evidence: "home/.codeium/windsurf/installation_id",
        file: "home/.codeium/windsurf/mcp_config.json",
        original: r#"{
  "mcpServers": {
    "sequential-thinking": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-sequential-thinking"],
      "disabled": false
    }
  }
}
"#,
        anchor: "\"disabled\": false\n    }",
        inserted: ",\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }",
        fresh: "{\n  \"mcpServers\": {\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }\n  }\n}\n",
        broken: "{\n  \"mcpServers\": {\n    \"x\": {\"disabled\": nope}\n  }\n}\n",
        broken_line: 3,
    });
}

#[test]
fn zed() {
    check(&Case {
        host: "zed",
        args: &[],
        evidence: "xdg/zed/keymap.json",
        file: "xdg/zed/settings.json",
        original: r#"// Zed settings
//
// For information on how to configure Zed, see the Zed
// documentation: https://zed.dev/docs/configuring-zed
{
  "theme": "One Dark",
  "buffer_font_size": 15,
  "context_servers": {
    "postgres": {
      "command": "postgres-mcp",
      "args": ["postgres://localhost/db"], // local only
      "env": {}
    }
  },
  "vim_mode": true,
}
"#,
        anchor: "\"env\": {}\n    }",
        inserted: ",\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": [],\n      \"env\": {}\n    }",
        fresh: "{\n  \"context_servers\": {\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": [],\n      \"env\": {}\n    }\n  }\n}\n",
        broken: "// Zed settings\n{\n  \"theme\": \"One Dark\"\n  \"vim_mode\": true\n}\n",
        broken_line: 4,
    });
}

#[test]
fn gemini() {
    check(&Case {
        host: "gemini",
        args: &[],
        evidence: "home/.gemini/oauth_creds.json",
        file: "home/.gemini/settings.json",
        original: r#"{
  // Gemini CLI strips comments before parsing
  "selectedAuthType": "gemini-api-key",
  "mcpServers": {
    "git": {
      "command": "uvx",
      "args": ["mcp-server-git"]
    }
  },
  "ui": { "theme": "GitHub" }
}
"#,
        anchor: "\"args\": [\"mcp-server-git\"]\n    }",
        inserted: ",\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }",
        fresh: "{\n  \"mcpServers\": {\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }\n  }\n}\n",
        broken: "{\n  \"mcpServers\": {}\n}\n}\n",
        broken_line: 4,
    });
}

#[test]
fn strict_json_hosts_get_valid_json_with_every_other_entry_intact() {
    let sb = Sandbox::new();
    let original = r#"{"numStartups": 3, "mcpServers": {"a": {"command": "x", "args": ["1"]}}, "projects": {"/p": {"mcpServers": {}}}}"#;
    sb.write("home/.claude.json", original);
    sb.installed("home/.claude/settings.json");
    ok(&sb.lctx(&["claude-code"]));
    let before: serde_json::Value = serde_json::from_str(original).unwrap();
    let mut after: serde_json::Value = serde_json::from_str(&sb.read("home/.claude.json")).unwrap();
    let ours = after["mcpServers"].as_object_mut().unwrap().remove("lean-ctx").expect("our entry");
    assert_eq!(
        ours,
        serde_json::json!({"type": "stdio", "command": sb.mcp().display().to_string(), "args": [], "env": {}})
    );
    assert_eq!(after, before, "only our entry was added");
}

#[test]
fn a_changed_path_is_updated_and_permissions_are_kept() {
    let sb = Sandbox::new();
    let file = "home/.cursor/mcp.json";
    sb.write(file, "{\n  \"mcpServers\": {\n    \"lean-ctx\": {\n      \"command\": \"/old/lctx-mcp\",\n      \"args\": []\n    }\n  }\n}\n");
    std::fs::set_permissions(sb.path(file), std::fs::Permissions::from_mode(0o640)).unwrap();
    sb.installed("home/.cursor/argv.json");
    // What is being replaced is said before it goes, in a dry run too.
    let dry = ok(&sb.lctx(&["cursor", "--dry-run"]));
    assert!(dry.starts_with("Cursor: replacing lean-ctx → /old/lctx-mcp\n"), "{dry}");
    let out = ok(&sb.lctx(&["cursor"]));
    assert!(out.starts_with("Cursor: replacing lean-ctx → /old/lctx-mcp\n"), "{out}");
    assert!(!ok(&sb.lctx(&["cursor"])).contains("replacing"), "nothing replaced when nothing changes");
    assert_eq!(
        sb.read(file),
        format!(
            "{{\n  \"mcpServers\": {{\n    \"lean-ctx\": {{\n      \"command\": \"{}\",\n      \"args\": []\n    }}\n  }}\n}}\n",
            sb.mcp().display()
        )
    );
    let mode = |p: PathBuf| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(sb.path(file)), 0o640);
    assert_eq!(mode(sb.path("home/.cursor/mcp.json.bak")), 0o640);
}

#[test]
fn list_reports_every_host_with_what_is_installed_and_registered() {
    let sb = Sandbox::new();
    sb.installed("home/.gemini/oauth_creds.json");
    std::fs::create_dir_all(sb.path("xdg/zed")).unwrap();
    sb.executable("empty-path/codex");
    sb.write("home/.cursor/mcp.json", r#"{"mcpServers": {"lean-ctx": {"command": "/elsewhere/lctx-mcp"}}}"#);
    let other = sb.executable("bin/other-lctx-mcp");
    sb.write(
        "home/.gemini/settings.json",
        &format!(r#"{{"mcpServers": {{"lean-ctx": {{"command": "{}", "args": ["-v"]}}}}}}"#, other.display()),
    );

    let list = ok(&sb.lctx(&["--list"]));
    let lines: Vec<&str> = list.lines().collect();
    let ids: Vec<&str> = lines.iter().map(|l| l.split_whitespace().next().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "claude-code",
            "claude-desktop",
            "cursor",
            "vscode",
            "codex",
            "windsurf",
            "zed",
            "gemini",
            "opencode",
            "cline",
            "roo-code",
            "kiro",
            "continue",
            "amp",
            "goose",
            "jetbrains"
        ]
    );
    let line = |id: &str| *lines.iter().find(|l| l.starts_with(&format!("{id} "))).unwrap();
    assert!(line("gemini").contains(" installed "), "{list}");
    assert!(
        line("gemini").contains(&format!(
            "registered: lean-ctx → {} -v in {} — this lctx would write {}",
            other.display(),
            sb.path("home/.gemini/settings.json").display(),
            sb.mcp().display()
        )),
        "{list}"
    );
    assert!(line("codex").contains(" installed "), "on PATH: {list}");
    assert!(line("zed").contains("not installed"), "an empty config directory is no evidence: {list}");
    assert!(
        line("zed").contains(&format!("not registered ({})", sb.path("xdg/zed/settings.json").display())),
        "{list}"
    );
    let cursor = line("cursor");
    assert!(!cursor.contains("not installed"), "a config file holding a registration is evidence: {list}");
    assert_eq!(
        line("cursor").split_once("registered: ").map(|(_, r)| r),
        Some(
            format!(
                "lean-ctx → /elsewhere/lctx-mcp in {} — BROKEN: /elsewhere/lctx-mcp does not exist; run `lctx setup cursor` to point it at {}",
                sb.path("home/.cursor/mcp.json").display(),
                sb.mcp().display()
            )
            .as_str()
        ),
        "{list}"
    );
    assert!(line("continue").contains("no user-level file lctx can edit (see --scope project)"), "{list}");
    assert!(line("jetbrains").contains("not installed manual: `lctx setup jetbrains` prints the JSON"), "{list}");
    assert_eq!(ok(&sb.lctx(&["--list"])), list, "deterministic");
}

#[test]
fn hosts_that_are_not_installed_are_refused_unless_forced() {
    let sb = Sandbox::new();
    for args in [vec!["cursor"], vec!["cursor", "--dry-run"]] {
        let out = sb.lctx(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", describe(&out));
        let err = stderr(&out);
        assert!(
            err.contains(&format!(
                "Cursor does not look installed (no files of its own in {}, no `cursor` on PATH); install",
                sb.path("home/.cursor").display()
            )) && err.contains("--force"),
            "{err}"
        );
    }
    assert!(!sb.path("home/.cursor").exists(), "no directory created for a host that is not there");

    let forced = ok(&sb.lctx(&["cursor", "--force"]));
    assert!(forced.contains("created"), "{forced}");
    let list = ok(&sb.lctx(&["--list"]));
    let line = list.lines().find(|l| l.starts_with("cursor ")).unwrap();
    // The entry it holds now shows Cursor chosen here: `lctx setup cursor` repairs it without --force.
    assert!(!line.contains("not installed") && line.contains("registered: lean-ctx →"), "{line}");
    // Removing needs no evidence.
    ok(&sb.lctx(&["--remove", "cursor"]));
    assert!(!sb.path("home/.cursor/mcp.json").exists(), "the file setup created goes");

    // A host's program on PATH is evidence enough.
    sb.executable("empty-path/windsurf");
    ok(&sb.lctx(&["windsurf"]));
    let usage = sb.lctx(&["--list", "--force"]);
    assert_eq!(usage.status.code(), Some(2), "{}", describe(&usage));
}

#[test]
fn removing_a_file_setup_created_takes_the_directories_it_created_and_no_other() {
    let sb = Sandbox::new();
    let dir = sb.path("home/.cursor");
    ok(&sb.lctx(&["cursor", "--force"]));
    let removed = ok(&sb.lctx(&["--remove", "cursor"]));
    let line = format!("Cursor: removed {}: `lctx setup` created it and nothing is left in it\n", dir.display());
    assert!(removed.contains(&line), "{removed}");
    assert!(!dir.exists(), "{removed}");

    // Cursor keeps a file of its own there since: the directory stays, until that is gone too.
    ok(&sb.lctx(&["cursor", "--force"]));
    sb.write("home/.cursor/argv.json", "{}");
    let removed = ok(&sb.lctx(&["--remove", "cursor"]));
    assert!(!removed.contains(&line) && dir.join("argv.json").is_file(), "{removed}");
    std::fs::remove_file(dir.join("argv.json")).unwrap();
    // A removal with nothing to remove touches no directory; the next one that deletes the file
    // takes it.
    assert!(!ok(&sb.lctx(&["--remove", "cursor"])).contains(&line) && dir.is_dir());
    ok(&sb.lctx(&["cursor", "--force"]));
    assert!(ok(&sb.lctx(&["--remove", "cursor"])).contains(&line));
    assert!(!dir.exists());

    // A directory that was there before setup stays, empty or not.
    let project = sb.path("project/.cursor");
    std::fs::create_dir_all(&project).unwrap();
    ok(&sb.lctx(&["cursor", "--scope", "project", "--force"]));
    let removed = ok(&sb.lctx(&["--remove", "cursor", "--scope", "project"]));
    assert!(removed.contains("`lctx setup` created it and nothing else is in it"), "{removed}");
    assert!(!project.join("mcp.json").exists() && project.is_dir(), "{removed}");

    // Setup created it, the user deleted it and made their own: a removal with nothing to remove
    // leaves it alone.
    ok(&sb.lctx(&["cursor", "--force"]));
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::create_dir(&dir).unwrap();
    let removed = ok(&sb.lctx(&["--remove", "cursor"]));
    assert!(!removed.contains(&line) && dir.is_dir(), "{removed}");
}

#[test]
fn an_entry_whose_program_is_gone_or_not_executable_is_flagged() {
    let sb = Sandbox::new();
    sb.installed("home/.cursor/argv.json");
    let old = sb.executable("old/lctx-mcp");
    let out = sb.command().env("LEAN_CTX_MCP_BIN", &old).arg("cursor").output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let line = |sb: &Sandbox| ok(&sb.lctx(&["--list"])).lines().find(|l| l.starts_with("cursor ")).unwrap().to_string();
    assert!(!line(&sb).contains("BROKEN"), "{}", line(&sb));

    std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert!(line(&sb).contains(&format!("BROKEN: {} is not an executable file", old.display())), "{}", line(&sb));
    std::fs::remove_file(&old).unwrap();
    assert!(
        line(&sb).contains(&format!(
            "BROKEN: {} does not exist; run `lctx setup cursor` to point it at {}",
            old.display(),
            sb.mcp().display()
        )),
        "{}",
        line(&sb)
    );
    // The fix the line names works.
    ok(&sb.lctx(&["cursor"]));
    assert!(!line(&sb).contains("BROKEN"), "{}", line(&sb));
}

#[test]
fn a_codex_config_mixing_crlf_and_lf_keeps_each_line_s_break() {
    let sb = Sandbox::new();
    sb.installed("home/.codex/auth.json");
    let file = "home/.codex/config.toml";
    let original =
        "model = \"o3\"\r\n# note\n[profiles.fast]\r\nmodel = \"x\"\n\n[mcp_servers.docs]\r\ncommand = \"d\"\r\n";
    sb.write(file, original);
    ok(&sb.lctx(&["codex"]));
    let mcp = sb.mcp().display().to_string();
    // The user's lines keep their bytes; ours are new, and take CRLF as the file has CRLF lines.
    assert_eq!(sb.read(file), format!("{original}\r\n[mcp_servers.lean-ctx]\r\ncommand = \"{mcp}\"\r\nargs = []\r\n"));
    // Changed since (the user edited a line): only our lines go, every other line's break stays.
    let changed = sb.read(file).replace("model = \"x\"\n", "model = \"y\"\n");
    sb.write(file, &changed);
    ok(&sb.lctx(&["--remove", "codex"]));
    assert_eq!(sb.read(file), original.replace("model = \"x\"\n", "model = \"y\"\n"));
}

#[test]
fn codex_inline_tables_are_edited_in_their_own_form() {
    let sb = Sandbox::new();
    sb.installed("home/.codex/auth.json");
    let file = "home/.codex/config.toml";
    let original = "model = \"gpt-5-codex\"\nmcp_servers = { docs = { command = \"npx\" } } # mine\n";
    sb.write(file, original);
    ok(&sb.lctx(&["codex"]));
    let written = sb.read(file);
    let mcp = sb.mcp().display().to_string();
    assert!(written.contains(&format!("lean-ctx = {{ command = \"{mcp}\", args = [] }}")), "{written}");
    assert!(written.starts_with("model = \"gpt-5-codex\"\nmcp_servers = { docs = { command = \"npx\" }"), "{written}");
    assert!(written.trim_end().ends_with("# mine") && !written.contains("[mcp_servers"), "{written}");
    ok(&sb.lctx(&["--remove", "codex"]));
    assert_eq!(sb.read(file), original);

    let under_header = "[mcp_servers]\nlean-ctx = { command = \"/old/lctx-mcp\" }\ndocs = { command = \"npx\" }\n";
    sb.write(file, under_header);
    let out = ok(&sb.lctx(&["codex"]));
    assert!(out.contains("replacing lean-ctx → /old/lctx-mcp"), "{out}");
    assert_eq!(
        sb.read(file),
        format!("[mcp_servers]\nlean-ctx = {{ command = \"{mcp}\", args = [] }}\ndocs = {{ command = \"npx\" }}\n")
    );
    ok(&sb.lctx(&["--remove", "codex"]));
    assert_eq!(sb.read(file), "[mcp_servers]\ndocs = { command = \"npx\" }\n");
    // The whole inline form, ours alone: removing it leaves no `mcp_servers = {}`.
    sb.write(file, "model = \"m\"\nmcp_servers = { lean-ctx = { command = \"/x\" } }\n");
    ok(&sb.lctx(&["--remove", "codex"]));
    assert_eq!(sb.read(file), "model = \"m\"\n");
}

#[test]
fn project_scope_writes_beside_the_git_root() {
    let sb = Sandbox::new();
    sb.installed("home/.claude/settings.json");
    sb.installed("home/.cursor/argv.json");
    sb.installed("xdg/Code/User/settings.json");
    let mcp = sb.mcp().display().to_string();
    for (host, file) in [("claude-code", ".mcp.json"), ("cursor", ".cursor/mcp.json"), ("vscode", ".vscode/mcp.json")] {
        let out = ok(&sb.lctx(&[host, "--scope", "project"]));
        let path = sb.path(&format!("project/{file}"));
        assert!(out.contains(&format!("created {}", path.display())), "{out}");
        let text = sb.read(&format!("project/{file}"));
        assert!(text.contains(&format!("\"command\": \"{mcp}\"")), "{host}: {text}");
    }
    assert!(
        sb.read("project/.vscode/mcp.json")
            .starts_with("{\n  \"servers\": {\n    \"lean-ctx\": {\n      \"type\": \"stdio\"")
    );
    assert!(
        !sb.path("home/.claude.json").exists() && !sb.path("home/.cursor/mcp.json").exists(),
        "user files untouched"
    );

    let list = ok(&sb.lctx(&["--list", "--scope", "project"]));
    let line = |id: &str| list.lines().find(|l| l.starts_with(&format!("{id} "))).unwrap().to_string();
    assert!(
        line("cursor")
            .contains(&format!("registered: lean-ctx → {mcp} in {}", sb.path("project/.cursor/mcp.json").display())),
        "{list}"
    );
    assert!(line("codex").contains("no project-level config"), "{list}");
    assert!(ok(&sb.lctx(&["--list"])).lines().find(|l| l.starts_with("cursor ")).unwrap().contains("not registered"));

    let out = sb.lctx(&["codex", "--scope", "project"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(stderr(&out).contains("Codex documents no project-level MCP config"), "{}", describe(&out));

    ok(&sb.lctx(&["--remove", "cursor", "--scope", "project"]));
    assert!(!sb.path("project/.cursor/mcp.json").exists(), "created by setup, holding nothing else");

    // A project file the team already keeps is evidence enough, whatever this machine has installed.
    sb.write("project/.kiro/settings/mcp.json", "{\"mcpServers\": {}}\n");
    ok(&sb.lctx(&["kiro", "--scope", "project"]));
    assert!(sb.read("project/.kiro/settings/mcp.json").contains("\"lean-ctx\""));
    assert_eq!(sb.lctx(&["roo-code", "--scope", "project"]).status.code(), Some(1), "no file, no Roo Code");

    // Outside any repository the working directory is the project.
    let loose = sb.path("loose");
    std::fs::create_dir_all(&loose).unwrap();
    let out = sb.command().current_dir(&loose).args(["cursor", "--scope", "project"]).output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    assert!(loose.join(".cursor/mcp.json").is_file());
}

#[test]
fn codex_home_moves_the_codex_config() {
    let sb = Sandbox::new();
    let codex_home = sb.path("codex-home");
    sb.installed("codex-home/auth.json");
    let out = sb.command().env("CODEX_HOME", &codex_home).arg("codex").output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    assert!(codex_home.join("config.toml").exists());
    assert!(!sb.path("home/.codex/config.toml").exists());
}

#[test]
fn usage_errors_exit_2_and_a_missing_lctx_mcp_exits_1() {
    let sb = Sandbox::new();
    for args in [vec!["emacs"], vec![], vec!["zed", "--list"], vec!["--list", "--dry-run"], vec!["--remove", "nano"]] {
        let out = sb.lctx(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", describe(&out));
    }
    assert!(stderr(&sb.lctx(&["emacs"])).contains("claude-code, claude-desktop, cursor"), "lists the hosts");
    sb.installed("home/.claude/settings.json");
    sb.installed("home/.cursor/argv.json");
    assert!(ok(&sb.lctx(&["Claude"])).contains("Claude Code:"), "aliases are accepted");

    let missing = sb.root().join("nowhere/lctx-mcp");
    let out = sb.command().env("LEAN_CTX_MCP_BIN", &missing).arg("cursor").output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(stderr(&out).contains(&format!("lctx-mcp not found at {}", missing.display())), "{}", describe(&out));
    assert!(!sb.path("home/.cursor/mcp.json").exists());
}

#[test]
fn opencode() {
    check(&Case {
        host: "opencode",
        args: &[],
        evidence: "xdg/opencode/package.json",
        file: "xdg/opencode/opencode.json",
        original: r#"{
  "theme": "opencode",
  "mcp": {
    "everything": {
      "type": "local",
      "command": ["npx", "-y", "@modelcontextprotocol/server-everything"],
      "enabled": true
    }
  }
}
"#,
        anchor: "\"enabled\": true\n    }",
        inserted: ",\n    \"lean-ctx\": {\n      \"type\": \"local\",\n      \"command\": [\"{MCP}\"],\n      \"enabled\": true\n    }",
        fresh: "{\n  \"mcp\": {\n    \"lean-ctx\": {\n      \"type\": \"local\",\n      \"command\": [\"{MCP}\"],\n      \"enabled\": true\n    }\n  }\n}\n",
        broken: "{\n  \"mcp\": {\n    \"x\": {\"type\": \"local\",}\n  },\n  \"theme\" \"dark\"\n}\n",
        broken_line: 5,
    });
}

#[test]
fn cline() {
    check(&Case {
        host: "cline",
        args: &[],
        evidence: "home/.cline/data/globalState.json",
        file: "home/.cline/data/settings/cline_mcp_settings.json",
        original: r#"{
  "mcpServers": {
    "git": {
      "command": "uvx",
      "args": ["mcp-server-git"],
      "disabled": false,
      "autoApprove": []
    }
  }
}
"#,
        anchor: "\"autoApprove\": []\n    }",
        inserted: ",\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }",
        fresh: "{\n  \"mcpServers\": {\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }\n  }\n}\n",
        broken: "{\n  \"mcpServers\": {\n    \"git\": [\n  }\n}\n",
        broken_line: 4,
    });
}

#[test]
fn roo_code() {
    check(&Case {
        host: "roo-code",
        args: &[],
        evidence: "xdg/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/1/history.json",
        file: "xdg/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json",
        original: "{\n  \"mcpServers\": {\n    \"fs\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\"],\n      \"alwaysAllow\": [\"read_file\"]\n    }\n  }\n}",
        anchor: "\"alwaysAllow\": [\"read_file\"]\n    }",
        inserted: ",\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }",
        fresh: "{\n  \"mcpServers\": {\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }\n  }\n}\n",
        broken: "{\n  \"mcpServers\": {\n    \"fs\": {\"command\": npx}\n  }\n}",
        broken_line: 3,
    });
}

#[test]
fn kiro() {
    check(&Case {
        host: "kiro",
        args: &[],
        evidence: "home/.kiro/steering/product.md",
        file: "home/.kiro/settings/mcp.json",
        original: r#"{
  "mcpServers": {
    "aws-docs": {
      "command": "uvx",
      "args": ["docs-mcp-server"],
      "env": { "LOG_LEVEL": "error" },
      "disabled": false,
      "autoApprove": []
    }
  }
}
"#,
        anchor: "\"autoApprove\": []\n    }",
        inserted: ",\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }",
        fresh: "{\n  \"mcpServers\": {\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }\n  }\n}\n",
        broken: "{\n  \"mcpServers\": {\n    \"aws-docs\": {\"disabled\": flase}\n  }\n}\n",
        broken_line: 3,
    });
}

#[test]
fn amp() {
    check(&Case {
        host: "amp",
        args: &[],
        evidence: "xdg/amp/AGENTS.md",
        file: "xdg/amp/settings.json",
        original: r#"{
  "amp.notifications.enabled": false,
  "amp.mcpServers": {
    "playwright": {
      "command": "npx",
      "args": ["-y", "@playwright/mcp@latest", "--headless"]
    }
  }
}
"#,
        anchor: "\"--headless\"]\n    }",
        inserted: ",\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }",
        fresh: "{\n  \"amp.mcpServers\": {\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }\n  }\n}\n",
        broken: "{\n  \"amp.mcpServers\": {},,\n}\n",
        broken_line: 2,
    });
}

#[test]
fn continue_in_project_scope() {
    check(&Case {
        host: "continue",
        args: &["--scope", "project"],
        evidence: "home/.continue/config.yaml",
        file: "project/.continue/mcpServers/lean-ctx.json",
        // A file of ours in Continue's block directory; someone may have added a server to it.
        original: "{\n  \"mcpServers\": {\n    \"mine\": {\n      \"command\": \"my-mcp\"\n    }\n  }\n}\n",
        anchor: "\"command\": \"my-mcp\"\n    }",
        inserted: ",\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }",
        fresh: "{\n  \"mcpServers\": {\n    \"lean-ctx\": {\n      \"command\": \"{MCP}\",\n      \"args\": []\n    }\n  }\n}\n",
        broken: "{\n  \"mcpServers\": {\n    \"mine\": {\n",
        broken_line: 3,
    });
    let sb = Sandbox::new();
    sb.installed("home/.continue/config.yaml");
    let out = sb.lctx(&["continue"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(stderr(&out).contains("`lctx setup continue --scope project`"), "{}", describe(&out));
}

/// What Goose itself writes (serde_yaml: lists at their key's indentation,
/// quoted `@`), with a person's comments and another stdio extension.
const GOOSE_CONFIG: &str = "# Goose settings, see goose configure\nGOOSE_PROVIDER: anthropic\nGOOSE_MODEL: claude-sonnet-4-5\nGOOSE_SEARCH_PATHS:\n- /usr/local/bin\n- ~/bin\nextensions:\n  developer:\n    bundled: true\n    display_name: Developer\n    enabled: true # always\n    name: developer\n    timeout: 300\n    type: builtin\n  github:\n    args:\n    - -y\n    - '@modelcontextprotocol/server-github'\n    cmd: npx\n    enabled: false\n    env_keys:\n    - GITHUB_PERSONAL_ACCESS_TOKEN\n    envs: {}\n    name: github\n    timeout: 300\n    type: stdio\n\n# tools\nGOOSE_MODE: smart_approve\n";

#[test]
fn goose() {
    check(&Case {
        host: "goose",
        args: &[],
        evidence: "xdg/goose/permission.yaml",
        file: "xdg/goose/config.yaml",
        original: GOOSE_CONFIG,
        anchor: "    type: stdio\n",
        inserted: "  lean-ctx:\n    type: stdio\n    name: lean-ctx\n    enabled: true\n    cmd: {MCP}\n    args: []\n    envs: {}\n    env_keys: []\n    timeout: 300\n",
        fresh: "extensions:\n  lean-ctx:\n    type: stdio\n    name: lean-ctx\n    enabled: true\n    cmd: {MCP}\n    args: []\n    envs: {}\n    env_keys: []\n    timeout: 300\n",
        broken: "GOOSE_MODE: auto\nextensions: {developer: {enabled: true, type: builtin, name: developer}}\n",
        broken_line: 2,
    });
}

#[test]
fn goose_updates_an_old_entry_saying_what_it_pointed_to() {
    let sb = Sandbox::new();
    sb.installed("xdg/goose/permission.yaml");
    let file = "xdg/goose/config.yaml";
    let old =
        "  lean-ctx:\n    cmd: /old/lctx-mcp\n    args: []\n    enabled: true\n    name: lean-ctx\n    type: stdio\n";
    let with_old = GOOSE_CONFIG.replace("  github:\n", &format!("{old}  github:\n"));
    sb.write(file, &with_old);
    let out = ok(&sb.lctx(&["goose"]));
    assert!(out.starts_with("Goose: replacing lean-ctx → /old/lctx-mcp\n"), "{out}");
    let mcp = sb.mcp().display().to_string();
    let new = format!(
        "  lean-ctx:\n    type: stdio\n    name: lean-ctx\n    enabled: true\n    cmd: {mcp}\n    args: []\n    envs: {{}}\n    env_keys: []\n    timeout: 300\n"
    );
    assert_eq!(sb.read(file), with_old.replace(old, &new), "updated in place, everything else as it was");
    assert!(
        ok(&sb.lctx(&["--list"])).contains(&format!("goose           installed     registered: lean-ctx → {mcp} in"))
    );
    ok(&sb.lctx(&["--remove", "goose"]));
    assert_eq!(sb.read(file), GOOSE_CONFIG);
}

#[test]
fn goose_files_a_line_edit_cannot_be_sure_of_are_refused_with_their_line() {
    let sb = Sandbox::new();
    sb.installed("xdg/goose/permission.yaml");
    let file = sb.path("xdg/goose/config.yaml");
    let cases = [
        ("extensions:\n  developer:\n\tenabled: true\n", 3, "a tab in the indentation"),
        ("base: &base\n  timeout: 300\nextensions:\n  developer:\n    <<: *base\n", 5, "anchors, aliases"),
        ("extensions: &ext\n  developer: {}\n", 1, "anchors, aliases"),
        ("extensions:\n- developer\n", 2, "holds a list"),
        ("extensions: []\n", 1, "flow style"),
    ];
    for (text, line, says) in cases {
        sb.write("xdg/goose/config.yaml", text);
        let out = sb.lctx(&["goose"]);
        assert_eq!(out.status.code(), Some(1), "{text:?}: {}", describe(&out));
        let err = stderr(&out);
        assert!(err.contains(&format!("{}:{line}:", file.display())) && err.contains(says), "{text:?}: {err}");
        assert_eq!(sb.read("xdg/goose/config.yaml"), text, "untouched");
    }
    assert!(!sb.path("xdg/goose/config.yaml.bak").exists());
}

#[test]
fn goose_follows_goose_path_root() {
    let sb = Sandbox::new();
    let root = sb.path("goose-root");
    sb.installed("goose-root/config/permission.yaml");
    let out = sb.command().env("GOOSE_PATH_ROOT", &root).arg("goose").output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    assert!(std::fs::read_to_string(root.join("config/config.yaml")).unwrap().contains("  lean-ctx:\n"));
    assert!(!sb.path("xdg/goose/config.yaml").exists());
}

/// Every file under the sandbox with its bytes.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut all = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            all.push((path.clone(), Vec::new()));
            all.extend(tree(&path));
        } else {
            all.push((path.clone(), std::fs::read(&path).unwrap()));
        }
    }
    all.sort();
    all
}

#[test]
fn jetbrains_prints_the_json_to_paste_and_writes_nothing() {
    let sb = Sandbox::new();
    sb.installed("xdg/JetBrains/IntelliJIdea2025.2/options/other.xml");
    let before = tree(sb.root());
    for args in [vec!["jetbrains"], vec!["jetbrains", "--dry-run"], vec!["idea", "--scope", "project"]] {
        let out = ok(&sb.lctx(&args));
        assert!(
            out.starts_with(
                "JetBrains AI Assistant keeps its MCP servers in its settings, not in a file lctx can edit; add \
                 lean-ctx there:\n  1. open Settings | Tools | AI Assistant | Model Context Protocol (MCP)"
            ),
            "{out}"
        );
        let snippet = format!(
            "{{\n  \"mcpServers\": {{\n    \"lean-ctx\": {{\n      \"command\": \"{}\",\n      \"args\": []\n    }}\n  }}\n}}\n",
            sb.mcp().display()
        );
        assert!(out.contains(&snippet), "{out}");
        assert!(out.ends_with("(nothing was written)\n"), "{out}");
    }
    let removed = ok(&sb.lctx(&["--remove", "jetbrains"]));
    assert!(removed.contains("removed by hand") && removed.contains("nothing was written"), "{removed}");
    let list = ok(&sb.lctx(&["--list"]));
    let line = list.lines().find(|l| l.starts_with("jetbrains ")).unwrap();
    assert_eq!(
        line,
        "jetbrains       installed     manual: `lctx setup jetbrains` prints the JSON to paste into its settings"
    );
    assert_eq!(tree(sb.root()), before, "nothing written anywhere");
}

#[test]
fn removal_gives_back_what_setup_found_and_takes_away_what_it_created() {
    let sb = Sandbox::new();
    sb.installed("home/.cursor/argv.json");
    let file = sb.path("home/.cursor/mcp.json");
    let backup = sb.path("home/.cursor/mcp.json.bak");
    // An empty or blank file, and a servers object of the user's that is empty.
    for original in ["", " \n\n", "{\n\t\"theme\": \"dark\",\n\t\"mcpServers\": {}\n}\n"] {
        sb.write("home/.cursor/mcp.json", original);
        ok(&sb.lctx(&["cursor"]));
        assert!(sb.read("home/.cursor/mcp.json").contains("\"lean-ctx\""));
        ok(&sb.lctx(&["--remove", "cursor"]));
        assert_eq!(sb.read("home/.cursor/mcp.json"), original);
        assert!(!backup.exists(), "{original:?}");
    }

    // Changed since setup (the host rewrote it): only our entry goes, and the
    // previous version is kept.
    sb.write("home/.cursor/mcp.json", "");
    ok(&sb.lctx(&["cursor"]));
    let changed = sb.read("home/.cursor/mcp.json").replacen('{', "{\n  \"theme\": \"dark\",", 1);
    sb.write("home/.cursor/mcp.json", &changed);
    ok(&sb.lctx(&["--remove", "cursor"]));
    assert_eq!(sb.read("home/.cursor/mcp.json"), "{\n  \"theme\": \"dark\"\n}\n");
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), changed);
    assert!(file.exists());

    // Changed since, where the file had an empty servers object of the user's before setup: the
    // backup, which holds no entry of ours, shows it was there, so it stays.
    std::fs::remove_file(&backup).unwrap();
    let theirs = "{\n  \"mcpServers\": {}\n}\n";
    sb.write("home/.cursor/mcp.json", theirs);
    ok(&sb.lctx(&["cursor"]));
    let changed = sb.read("home/.cursor/mcp.json").replacen('{', "{\n  \"theme\": \"dark\",", 1);
    sb.write("home/.cursor/mcp.json", &changed);
    ok(&sb.lctx(&["--remove", "cursor"]));
    assert_eq!(sb.read("home/.cursor/mcp.json"), "{\n  \"theme\": \"dark\",\n  \"mcpServers\": {}\n}\n");

    // Project scope: a `.mcp.json` setup created goes, with no backup left.
    ok(&sb.lctx(&["claude-code", "--scope", "project", "--force"]));
    let out = ok(&sb.lctx(&["--remove", "claude-code", "--scope", "project"]));
    assert!(out.contains("`lctx setup` created it and nothing else is in it"), "{out}");
    assert!(!sb.path("project/.mcp.json").exists() && !sb.path("project/.mcp.json.bak").exists(), "{out}");
}

#[test]
fn a_read_only_config_is_refused_with_the_change_to_make_by_hand() {
    let sb = Sandbox::new();
    sb.installed("home/.codex/auth.json");
    sb.write("home/.codex/config.toml", "model = \"o3\"\n");
    let file = sb.path("home/.codex/config.toml");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = sb.lctx(&["codex"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "{0} is read-only (mode 444), so lctx leaves it alone: make it writable (`chmod u+w {0}`)",
            file.display()
        )) && err.contains("+[mcp_servers.lean-ctx]"),
        "{err}"
    );
    assert_eq!(sb.read("home/.codex/config.toml"), "model = \"o3\"\n");
    assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o444);
}

#[test]
fn a_removal_that_would_replace_a_read_only_backup_changes_nothing() {
    let sb = Sandbox::new();
    sb.installed("home/.cursor/argv.json");
    let original = "{\n  \"theme\": \"dark\"\n}\n";
    sb.write("home/.cursor/mcp.json", original);
    ok(&sb.lctx(&["cursor"]));
    let configured = sb.read("home/.cursor/mcp.json");
    // The user keeps the version from before setup, read-only.
    let backup = sb.path("home/.cursor/mcp.json.bak");
    std::fs::set_permissions(&backup, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = sb.lctx(&["--remove", "cursor"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "{0} is read-only (mode 444), so lctx leaves it alone: make it writable",
            backup.display()
        )),
        "{err}"
    );
    assert_eq!(sb.read("home/.cursor/mcp.json"), configured, "the file is not restored either");
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), original);
    assert_eq!(std::fs::metadata(&backup).unwrap().permissions().mode() & 0o777, 0o444);
}
