//! `lctx setup`: registering lean-ctx in each AI coding host's config file,
//! with the real `lctx` run against files under a temporary HOME and
//! XDG_CONFIG_HOME, and a dummy `lctx-mcp` named by LEAN_CTX_MCP_BIN.

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
        for dir in ["home", "xdg", "bin", "empty-path"] {
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
    /// Under the sandbox: `home/…` or `xdg/…`.
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
    sb.write(case.file, case.original);

    // --dry-run: a diff on stdout, nothing written.
    let dry = ok(&sb.lctx(&[case.host, "--dry-run"]));
    assert!(dry.contains(&format!("--- {}\n+++ {}\n", file.display(), file.display())), "{dry}");
    assert!(dry.contains("\"lean-ctx\"") || dry.contains("[mcp_servers.lean-ctx]"), "{dry}");
    assert!(dry.lines().any(|l| l.starts_with('+') && l.contains(&sb.mcp().display().to_string())), "{dry}");
    assert!(dry.ends_with("(dry run: nothing written)\n"), "{dry}");
    assert_eq!(sb.read(case.file), case.original, "{}: dry run wrote", case.host);
    assert!(!backup.exists(), "{}: dry run made a backup", case.host);

    // setup: our entry added, everything else byte for byte, a backup of the original.
    let first = ok(&sb.lctx(&[case.host]));
    assert!(first.contains(&format!("written to {}", file.display())), "{first}");
    assert_eq!(sb.read(case.file), expected, "{}", case.host);
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), case.original);

    // Again: nothing changes.
    let again = ok(&sb.lctx(&[case.host]));
    assert!(again.contains("already configured"), "{again}");
    assert_eq!(sb.read(case.file), expected);
    let dry_again = ok(&sb.lctx(&[case.host, "--dry-run"]));
    assert!(dry_again.contains("already configured") && !dry_again.contains("+++"), "{dry_again}");

    // --list shows it, with the path.
    let list = ok(&sb.lctx(&["--list"]));
    let line = list.lines().find(|l| l.starts_with(&format!("{} ", case.host))).unwrap_or_else(|| panic!("{list}"));
    assert!(line.contains("installed") && !line.contains("not found"), "{line}");
    assert!(line.contains(&format!("lean-ctx → {} in {}", sb.mcp().display(), file.display())), "{line}");

    // --remove: the original again, comments and all.
    let removed = ok(&sb.lctx(&["--remove", case.host]));
    assert!(removed.contains(&format!("removed lean-ctx from {}", file.display())), "{removed}");
    assert_eq!(sb.read(case.file), case.original, "{}", case.host);
    assert_eq!(std::fs::read_to_string(&backup).unwrap(), expected);
    let nothing = ok(&sb.lctx(&["--remove", case.host]));
    assert!(nothing.contains("not configured") && nothing.contains("nothing to remove"), "{nothing}");

    // No file: created with just our entry, no backup.
    std::fs::remove_file(&file).unwrap();
    std::fs::remove_file(&backup).unwrap();
    ok(&sb.lctx(&[case.host]));
    assert_eq!(sb.read(case.file), case.fresh.replace("{MCP}", &sb.mcp().display().to_string()), "{}", case.host);
    assert!(!backup.exists());
    assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600, "new files are private");

    // A broken file: refused with file:line, left alone.
    sb.write(case.file, case.broken);
    for args in [vec![case.host], vec![case.host, "--dry-run"], vec!["--remove", case.host]] {
        let out = sb.lctx(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", describe(&out));
        assert!(stderr(&out).contains(&format!("{}:{}:", file.display(), case.broken_line)), "{}", describe(&out));
        assert!(stderr(&out).contains("nothing was changed"), "{}", describe(&out));
    }
    assert_eq!(sb.read(case.file), case.broken);
    assert!(!backup.exists());
    let list = ok(&sb.lctx(&["--list"]));
    assert!(list.contains(&format!("unreadable: {}:{}:", file.display(), case.broken_line)), "{list}");
}

#[test]
fn claude_code() {
    check(&Case {
        host: "claude-code",
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
    ok(&sb.lctx(&["cursor"]));
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
fn list_reports_every_host_with_what_is_installed_and_configured() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.path("home/.gemini")).unwrap();
    let codex = sb.path("empty-path/codex");
    std::fs::write(&codex, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&codex, std::fs::Permissions::from_mode(0o755)).unwrap();
    sb.write("home/.cursor/mcp.json", r#"{"mcpServers": {"lean-ctx": {"command": "/elsewhere/lctx-mcp"}}}"#);

    let list = ok(&sb.lctx(&["--list"]));
    let lines: Vec<&str> = list.lines().collect();
    let ids: Vec<&str> = lines.iter().map(|l| l.split_whitespace().next().unwrap()).collect();
    assert_eq!(ids, ["claude-code", "claude-desktop", "cursor", "vscode", "codex", "windsurf", "zed", "gemini"]);
    let line = |id: &str| *lines.iter().find(|l| l.starts_with(&format!("{id} "))).unwrap();
    assert!(line("gemini").contains(" installed ") && line("gemini").contains("not configured"), "{list}");
    assert!(line("codex").contains(" installed "), "on PATH: {list}");
    assert!(line("zed").contains("not found"), "{list}");
    assert!(
        line("cursor")
            .contains(&format!("lean-ctx → /elsewhere/lctx-mcp in {}", sb.path("home/.cursor/mcp.json").display()))
            && line("cursor").contains(&format!("this lctx would write {}", sb.mcp().display())),
        "{list}"
    );
    assert_eq!(ok(&sb.lctx(&["--list"])), list, "deterministic");
}

#[test]
fn codex_home_moves_the_codex_config() {
    let sb = Sandbox::new();
    let codex_home = sb.path("codex-home");
    std::fs::create_dir_all(&codex_home).unwrap();
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
    assert!(ok(&sb.lctx(&["Claude"])).contains("Claude Code:"), "aliases are accepted");

    let missing = sb.root().join("nowhere/lctx-mcp");
    let out = sb.command().env("LEAN_CTX_MCP_BIN", &missing).arg("cursor").output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(stderr(&out).contains(&format!("lctx-mcp not found at {}", missing.display())), "{}", describe(&out));
    assert!(!sb.path("home/.cursor/mcp.json").exists());
}
