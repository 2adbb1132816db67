use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::PathBuf;

use tempfile::TempDir;

use super::*;

struct Project {
    dir: TempDir,
}

impl Project {
    fn new() -> Project {
        Project { dir: tempfile::tempdir().unwrap() }
    }

    fn root(&self) -> PathBuf {
        self.dir.path().canonicalize().unwrap()
    }

    fn write(&self, rel: &str, content: &str) -> &Project {
        self.write_bytes(rel, content.as_bytes())
    }

    fn write_bytes(&self, rel: &str, content: &[u8]) -> &Project {
        let path = self.root().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, content).unwrap();
        self
    }

    fn discover(&self, file: &str, host: Host, session: bool) -> Discovery {
        discover(&self.root(), &self.root().join(file), host, session)
    }

    /// (shown, why) of each rule, asserting there are no notes.
    fn found(&self, file: &str, host: Host, session: bool) -> Vec<(String, String)> {
        let discovery = self.discover(file, host, session);
        assert!(discovery.notes.is_empty(), "{:?}", discovery.notes);
        discovery.rules.into_iter().map(|rule| (rule.shown, rule.why)).collect()
    }
}

fn shown(found: &[(String, String)]) -> Vec<&str> {
    found.iter().map(|(shown, _)| shown.as_str()).collect()
}

#[test]
fn host_names() {
    assert_eq!(Host::from_agent("claude-code 1.0.3"), Some(Host::ClaudeCode));
    assert_eq!(Host::from_agent("Claude Code"), Some(Host::ClaudeCode));
    assert_eq!(Host::from_agent("cursor-vscode 1.0"), Some(Host::Cursor));
    assert_eq!(Host::from_agent("codex-mcp-client"), Some(Host::Codex));
    assert_eq!(Host::from_agent("Visual Studio Code"), Some(Host::Copilot));
    assert_eq!(Host::from_agent("Visual Studio Code - Insiders"), Some(Host::Copilot));
    assert_eq!(Host::from_agent("zed"), None);
    assert_eq!(Host::from_agent(""), None);
    for (name, host) in [
        ("claude", Host::ClaudeCode),
        ("Claude-Code", Host::ClaudeCode),
        ("codex", Host::Codex),
        ("AGENTS", Host::Codex),
        (" cursor ", Host::Cursor),
        ("copilot", Host::Copilot),
    ] {
        assert_eq!(Host::parse(name), Some(host), "{name}");
    }
    assert_eq!(Host::parse("vim"), None);
    for host in [Host::ClaudeCode, Host::Codex, Host::Cursor, Host::Copilot] {
        assert_eq!(Host::parse(host.name()), Some(host));
    }
    // Every host the shared name table knows is one of these.
    for name in lean_ctx_common::hosts::CANONICAL {
        assert_eq!(Host::parse(name).map(Host::name), Some(name));
    }
}

#[test]
fn claude_nested_memory_files_outermost_first() {
    let p = Project::new();
    p.write("CLAUDE.md", "root")
        .write("src/CLAUDE.md", "src")
        .write("src/api/CLAUDE.md", "api")
        .write("src/api/CLAUDE.local.md", "api local")
        .write("src/api/.claude/CLAUDE.md", "api dot")
        .write("src/other/CLAUDE.md", "sibling")
        .write("src/api/deeper/CLAUDE.md", "below the file");
    let found = p.found("src/api/handler.rs", Host::ClaudeCode, false);
    assert_eq!(
        shown(&found),
        ["src/CLAUDE.md", "src/api/CLAUDE.md", "src/api/.claude/CLAUDE.md", "src/api/CLAUDE.local.md"]
    );
    assert_eq!(found[0].1, "nested CLAUDE.md in src/");
    let found = p.found("src/api/handler.rs", Host::ClaudeCode, true);
    assert_eq!(found[0], ("CLAUDE.md".to_string(), "project CLAUDE.md, loaded at session start".to_string()));
    assert_eq!(found.len(), 5);
    // A file at the root has only session-start memory.
    assert!(p.found("main.rs", Host::ClaudeCode, false).is_empty());
}

#[test]
fn claude_rules_with_and_without_paths() {
    let p = Project::new();
    p.write(".claude/rules/rust.md", "---\npaths:\n  - \"src/**/*.rs\"\n---\n\nRust rules\n")
        .write(".claude/rules/web/ts.md", "---\npaths: web/**/*.{ts,tsx}\n---\nTS rules")
        .write(".claude/rules/general.md", "General rules, no front matter")
        .write(".claude/rules/empty-paths.md", "---\npaths: []\n---\nalso general")
        .write(".claude/rules/notes.txt", "not a rule file");
    let found = p.found("src/a/lib.rs", Host::ClaudeCode, false);
    assert_eq!(found, [(".claude/rules/rust.md".to_string(), "paths: src/**/*.rs".to_string())]);
    let discovery = p.discover("src/a/lib.rs", Host::ClaudeCode, false);
    assert_eq!(discovery.rules[0].body, "Rust rules");
    assert_eq!(discovery.rules[0].path, p.root().join(".claude/rules/rust.md"));
    assert_eq!(shown(&p.found("web/x/App.tsx", Host::ClaudeCode, false)), [".claude/rules/web/ts.md"]);
    assert!(p.found("README.md", Host::ClaudeCode, false).is_empty());
    let session = p.found("README.md", Host::ClaudeCode, true);
    assert_eq!(shown(&session), [".claude/rules/empty-paths.md", ".claude/rules/general.md"]);
    assert!(session[0].1.contains("session start"));
}

#[test]
fn claude_rule_with_a_bad_glob_is_noted_and_skipped() {
    let p = Project::new();
    p.write(".claude/rules/bad.md", "---\npaths: [\"src/[a\", \"**/*.rs\"]\n---\nbody")
        .write(".claude/rules/good.md", "---\npaths: \"**/*.rs\"\n---\nbody");
    let discovery = p.discover("src/lib.rs", Host::ClaudeCode, false);
    assert_eq!(discovery.rules.len(), 1);
    assert_eq!(discovery.rules[0].shown, ".claude/rules/good.md");
    assert_eq!(discovery.notes.len(), 1);
    assert!(discovery.notes[0].starts_with(".claude/rules/bad.md: glob `src/[a`"), "{:?}", discovery.notes);
}

#[test]
fn codex_closest_agents_md_only() {
    let p = Project::new();
    p.write("AGENTS.md", "root").write("a/AGENTS.md", "a").write("a/b/AGENTS.md", "b").write("c/AGENTS.md", "c");
    assert_eq!(
        p.found("a/b/x.py", Host::Codex, false),
        [("a/b/AGENTS.md".to_string(), "closest AGENTS.md, in a/b/".to_string())]
    );
    assert_eq!(shown(&p.found("a/x.py", Host::Codex, true)), ["a/AGENTS.md"]);
    assert_eq!(shown(&p.found("a/z/x.py", Host::Codex, false)), ["a/AGENTS.md"]);
    // The closest is the root's: session start only.
    assert!(p.found("d/x.py", Host::Codex, false).is_empty());
    assert_eq!(shown(&p.found("d/x.py", Host::Codex, true)), ["AGENTS.md"]);
}

#[test]
fn codex_override_wins_and_empty_files_are_skipped() {
    let p = Project::new();
    p.write("a/AGENTS.md", "a")
        .write("a/b/AGENTS.md", "b")
        .write("a/b/AGENTS.override.md", "override")
        .write("a/c/AGENTS.md", "  \n\n");
    assert_eq!(shown(&p.found("a/b/x.py", Host::Codex, false)), ["a/b/AGENTS.override.md"]);
    assert_eq!(shown(&p.found("a/c/x.py", Host::Codex, false)), ["a/AGENTS.md"]);
}

#[test]
fn cursor_globs_always_apply_and_manual_rules() {
    let p = Project::new();
    p.write(
        ".cursor/rules/ts.mdc",
        "---\ndescription: TS\nglobs: \"**/*.ts,**/*.tsx\"\nalwaysApply: false\n---\nts body",
    )
    .write(".cursor/rules/core.mdc", "---\nalwaysApply: true\n---\ncore")
    .write(".cursor/rules/requested.mdc", "---\ndescription: only when relevant\n---\nrequested")
    .write(".cursor/rules/manual.mdc", "manual, no front matter")
    .write(".cursor/rules/quoted.mdc", "---\nalwaysApply: \"true\"\n---\nquoted")
    .write(".cursor/rules/unquoted.mdc", "---\nglobs: src/**/*.{ts,tsx}\n---\nunquoted braces")
    .write(".cursorrules", "legacy");
    let found = p.found("src/app.ts", Host::Cursor, false);
    assert_eq!(
        found,
        [
            (".cursor/rules/ts.mdc".to_string(), "globs: **/*.ts".to_string()),
            (".cursor/rules/unquoted.mdc".to_string(), "globs: src/**/*.{ts,tsx}".to_string()),
        ]
    );
    let session = p.found("src/app.ts", Host::Cursor, true);
    assert_eq!(
        shown(&session),
        [".cursorrules", ".cursor/rules/core.mdc", ".cursor/rules/ts.mdc", ".cursor/rules/unquoted.mdc"]
    );
    assert!(p.found("README.md", Host::Cursor, false).is_empty());
}

#[test]
fn cursor_nested_rules_apply_relative_to_their_directory() {
    let p = Project::new();
    p.write("pkg/web/.cursor/rules/react.mdc", "---\nglobs: src/**/*.tsx\n---\nreact")
        .write("pkg/web/.cursor/rules/always.mdc", "---\nalwaysApply: true\n---\nweb always")
        .write("pkg/api/.cursor/rules/api.mdc", "---\nglobs: \"**\"\n---\napi")
        .write(".cursor/rules/top.mdc", "---\nglobs: pkg/web/src/**\n---\ntop");
    let found = p.found("pkg/web/src/App.tsx", Host::Cursor, false);
    assert_eq!(
        found,
        [
            (".cursor/rules/top.mdc".to_string(), "globs: pkg/web/src/**".to_string()),
            ("pkg/web/.cursor/rules/always.mdc".to_string(), "alwaysApply, in pkg/web/.cursor/rules".to_string()),
            ("pkg/web/.cursor/rules/react.mdc".to_string(), "globs: src/**/*.tsx (relative to pkg/web/)".to_string()),
        ]
    );
    // Relative to pkg/web, not to the root: a root-relative path does not match.
    assert!(p.found("src/App.tsx", Host::Cursor, false).is_empty());
}

#[test]
fn copilot_apply_to_and_repository_instructions() {
    let p = Project::new();
    p.write(".github/copilot-instructions.md", "repo wide")
        .write(".github/instructions/ts.instructions.md", "---\napplyTo: \"**/*.ts,**/*.tsx\"\n---\nts")
        .write(".github/instructions/all.instructions.md", "---\napplyTo: '**'\n---\neverything")
        .write(".github/instructions/none.instructions.md", "---\ndescription: no applyTo\n---\nnot automatic")
        .write(".github/instructions/sub/py.instructions.md", "---\napplyTo:\n  - \"**/*.py\"\n---\npython")
        .write(".github/instructions/readme.md", "---\napplyTo: '**'\n---\nwrong suffix");
    let found = p.found("src/x.ts", Host::Copilot, false);
    assert_eq!(
        found,
        [
            (".github/instructions/all.instructions.md".to_string(), "applyTo: **".to_string()),
            (".github/instructions/ts.instructions.md".to_string(), "applyTo: **/*.ts".to_string()),
        ]
    );
    assert_eq!(
        shown(&p.found("tools/run.py", Host::Copilot, true)),
        [
            ".github/copilot-instructions.md",
            ".github/instructions/all.instructions.md",
            ".github/instructions/sub/py.instructions.md"
        ]
    );
}

#[test]
fn unterminated_front_matter_is_noted_and_read_as_text() {
    let p = Project::new();
    p.write(".claude/rules/broken.md", "---\npaths: src/**\nRules without an end\n")
        .write(".cursor/rules/broken.mdc", "---\nglobs: **\n");
    let discovery = p.discover("src/lib.rs", Host::ClaudeCode, true);
    assert_eq!(discovery.rules.len(), 1);
    assert!(discovery.rules[0].why.contains("without paths"));
    assert!(discovery.rules[0].body.contains("Rules without an end"));
    assert_eq!(discovery.notes.len(), 1);
    assert!(discovery.notes[0].starts_with(".claude/rules/broken.md: front matter opens with ---"));
    let discovery = p.discover("src/lib.rs", Host::Cursor, true);
    assert!(discovery.rules.is_empty());
    assert_eq!(discovery.notes.len(), 1);
}

#[test]
fn large_files_are_truncated_at_a_line_with_a_marker() {
    let p = Project::new();
    let line = "x".repeat(99) + "\n";
    let content = line.repeat(1000); // 100 000 bytes
    p.write("src/CLAUDE.md", &content);
    let discovery = p.discover("src/lib.rs", Host::ClaudeCode, false);
    assert_eq!(discovery.notes.len(), 1);
    assert!(discovery.notes[0].starts_with("src/CLAUDE.md: is larger than 64 KiB"), "{:?}", discovery.notes);
    let body = &discovery.rules[0].body;
    let kept = (64 * 1024 / 100) * 100;
    let (text, marker) = body.rsplit_once('\n').unwrap();
    assert_eq!(marker, format!("[… truncated: {} more bytes in src/CLAUDE.md]", 100_000 - kept));
    assert!(text.lines().all(|l| l.len() == 99));
    assert_eq!(discovery.rules[0].hash, *blake3::hash(content.as_bytes()).as_bytes());

    // One huge line of multi-byte characters is cut at a character boundary.
    p.write("src/CLAUDE.md", &"é".repeat(40_000));
    let discovery = p.discover("src/lib.rs", Host::ClaudeCode, false);
    assert_eq!(discovery.notes.len(), 1, "{:?}", discovery.notes);
    let body = &discovery.rules[0].body;
    assert!(body.ends_with(&format!("[… truncated: {} more bytes in src/CLAUDE.md]", 80_000 - 64 * 1024)));
    assert!(!body.contains('\u{fffd}'));
}

#[test]
fn a_file_of_exactly_the_limit_is_whole() {
    let p = Project::new();
    p.write("src/CLAUDE.md", &"y".repeat(64 * 1024));
    let discovery = p.discover("src/lib.rs", Host::ClaudeCode, false);
    assert!(discovery.notes.is_empty());
    assert_eq!(discovery.rules[0].body.len(), 64 * 1024);
}

#[test]
fn symlinks_outside_the_root_are_skipped_inside_ones_read() {
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("evil.md"), "---\npaths: \"**\"\n---\nfrom outside").unwrap();
    fs::create_dir(outside.path().join("dir")).unwrap();
    fs::write(outside.path().join("dir/r.md"), "---\npaths: \"**\"\n---\nalso outside").unwrap();
    let p = Project::new();
    p.write("shared/rule.md", "---\npaths: \"**\"\n---\nshared inside");
    fs::create_dir_all(p.root().join(".claude/rules")).unwrap();
    symlink(outside.path().join("evil.md"), p.root().join(".claude/rules/evil.md")).unwrap();
    symlink(outside.path().join("dir"), p.root().join(".claude/rules/linked")).unwrap();
    symlink(p.root().join("shared/rule.md"), p.root().join(".claude/rules/inside.md")).unwrap();
    symlink(p.root().join("missing.md"), p.root().join(".claude/rules/dangling.md")).unwrap();
    let discovery = p.discover("src/lib.rs", Host::ClaudeCode, false);
    let shown: Vec<_> = discovery.rules.iter().map(|r| r.shown.as_str()).collect();
    assert_eq!(shown, [".claude/rules/inside.md"]);
    assert_eq!(discovery.rules[0].body, "shared inside");
    assert_eq!(discovery.notes.len(), 3, "{:?}", discovery.notes);
    assert!(discovery.notes.iter().any(|n| n.starts_with(".claude/rules/evil.md: links to") && n.contains("outside")));
    assert!(discovery.notes.iter().any(|n| n.starts_with(".claude/rules/linked/r.md: links to")));
    assert!(discovery.notes.iter().any(|n| n.starts_with(".claude/rules/dangling.md: is a broken symlink")));
}

#[test]
fn a_rule_file_swapped_for_an_escaping_symlink_while_read_is_never_delivered() {
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("secret.md"), "OUTSIDE-SECRET").unwrap();
    let p = Project::new();
    p.write("src/AGENTS.md", "inside");
    let (root, stop) = (p.root().join("src"), std::sync::atomic::AtomicBool::new(false));
    std::thread::scope(|s| {
        // AGENTS.md flips between a regular file and a link out of the
        // project, each state put in place atomically by a rename.
        s.spawn(|| {
            let (file, link) = (root.join(".AGENTS.file"), root.join(".AGENTS.link"));
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                fs::write(&file, "inside").unwrap();
                fs::rename(&file, root.join("AGENTS.md")).unwrap();
                let _ = fs::remove_file(&link);
                symlink(outside.path().join("secret.md"), &link).unwrap();
                fs::rename(&link, root.join("AGENTS.md")).unwrap();
            }
        });
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        while std::time::Instant::now() < deadline {
            let discovery = p.discover("src/x.rs", Host::Codex, false);
            let leaked = discovery.rules.iter().find(|r| r.body.contains("OUTSIDE"));
            if let Some(rule) = leaked {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                panic!("delivered a file outside the project: {}", rule.body);
            }
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
}

#[test]
fn a_symlink_loop_in_a_rules_directory_ends() {
    let p = Project::new();
    p.write(".claude/rules/a.md", "---\npaths: \"**\"\n---\nonce");
    symlink(p.root().join(".claude/rules"), p.root().join(".claude/rules/loop")).unwrap();
    let discovery = p.discover("x.rs", Host::ClaudeCode, false);
    assert_eq!(discovery.rules.len(), 1);
}

#[test]
fn non_utf8_is_lossy_with_a_note() {
    let p = Project::new();
    p.write_bytes("src/AGENTS.md", b"caf\xe9 rules\n");
    let discovery = p.discover("src/x.go", Host::Codex, false);
    assert_eq!(discovery.rules[0].body, "caf\u{fffd} rules");
    assert_eq!(discovery.notes.len(), 1);
    assert!(discovery.notes[0].starts_with("src/AGENTS.md: is not valid UTF-8"));
}

#[test]
fn unreadable_files_are_noted() {
    let p = Project::new();
    p.write("src/CLAUDE.md", "secret");
    let path = p.root().join("src/CLAUDE.md");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).unwrap();
    if fs::read(&path).is_ok() {
        return; // running as root: permissions do not stop reads
    }
    let discovery = p.discover("src/lib.rs", Host::ClaudeCode, false);
    assert!(discovery.rules.is_empty());
    assert_eq!(discovery.notes.len(), 1);
    assert!(discovery.notes[0].starts_with("src/CLAUDE.md: cannot be read"), "{:?}", discovery.notes);
}

#[test]
fn a_fifo_is_not_read() {
    let p = Project::new();
    fs::create_dir_all(p.root().join("src")).unwrap();
    let fifo = p.root().join("src/CLAUDE.md");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|status| status.success()) {
        return;
    }
    let discovery = p.discover("src/lib.rs", Host::ClaudeCode, false);
    assert!(discovery.rules.is_empty());
    assert_eq!(discovery.notes, ["src/CLAUDE.md: is not a regular file; skipped"]);
}

#[test]
fn files_outside_the_root_give_a_note() {
    let p = Project::new();
    p.write("CLAUDE.md", "root");
    for file in [PathBuf::from("/etc/passwd"), p.root().join("../x.rs"), p.root(), PathBuf::from("relative.rs")] {
        let discovery = discover(&p.root(), &file, Host::ClaudeCode, true);
        assert!(discovery.rules.is_empty(), "{file:?}");
        assert_eq!(discovery.notes.len(), 1, "{file:?}");
        assert!(discovery.notes[0].contains("is not a file inside the project"));
    }
    let gone = p.root().join("gone");
    let discovery = discover(&gone, &gone.join("x.rs"), Host::ClaudeCode, true);
    assert!(discovery.rules.is_empty());
    assert!(discovery.notes[0].contains("cannot be resolved"));
}

#[test]
fn hash_follows_content_and_output_is_deterministic() {
    let p = Project::new();
    p.write("a/CLAUDE.md", "one");
    let first = p.discover("a/x.rs", Host::ClaudeCode, true);
    assert_eq!(first, p.discover("a/x.rs", Host::ClaudeCode, true));
    assert_eq!(first.rules[0].hash, *blake3::hash(b"one").as_bytes());
    p.write("a/CLAUDE.md", "two");
    let second = p.discover("a/x.rs", Host::ClaudeCode, true);
    assert_ne!(first.rules[0].hash, second.rules[0].hash);
}

#[test]
fn a_root_given_through_a_symlink_works() {
    let p = Project::new();
    p.write("src/CLAUDE.md", "src");
    let holder = tempfile::tempdir().unwrap();
    let alias = holder.path().join("alias");
    symlink(p.root(), &alias).unwrap();
    let discovery = discover(&alias, &alias.join("src/lib.rs"), Host::ClaudeCode, false);
    assert!(discovery.notes.is_empty(), "{:?}", discovery.notes);
    assert_eq!(discovery.rules[0].path, alias.join("src/CLAUDE.md"));
    assert_eq!(discovery.rules[0].shown, "src/CLAUDE.md");
}

/// Random bytes in every kind of rule file: discovery never panics, and
/// whatever it delivers is within the size limit plus its marker line.
#[test]
fn random_rule_files_never_panic() {
    let p = Project::new();
    let places = [
        "CLAUDE.md",
        "a/CLAUDE.md",
        "a/b/CLAUDE.local.md",
        ".claude/rules/r.md",
        "a/AGENTS.md",
        ".cursor/rules/r.mdc",
        "a/.cursor/rules/r.mdc",
        ".github/instructions/r.instructions.md",
        ".github/copilot-instructions.md",
    ];
    let pieces: [&[u8]; 12] = [
        b"---\n",
        b"paths: ",
        b"globs: ",
        b"applyTo: ",
        b"alwaysApply: true\n",
        b"**/*",
        b"[",
        b"{a,",
        b"\n",
        b"\xff",
        b"'\"",
        b"- ",
    ];
    let mut rng = crate::test_rng::Rng::new(19);
    for _ in 0..150 {
        for place in places {
            let mut content = Vec::new();
            for _ in 0..rng.below(12) {
                content.extend_from_slice(pieces[rng.below(pieces.len())]);
            }
            p.write_bytes(place, &content);
        }
        for host in [Host::ClaudeCode, Host::Codex, Host::Cursor, Host::Copilot] {
            for rule in discover(&p.root(), &p.root().join("a/b/c.rs"), host, true).rules {
                assert!(rule.body.len() <= scan::MAX_RULE_BYTES + 100);
            }
        }
    }
}

#[test]
fn memory_files_have_no_front_matter() {
    let p = Project::new();
    p.write("src/CLAUDE.md", "---\n\nAll of this is instructions.\n\n---\nMore.");
    let discovery = p.discover("src/lib.rs", Host::ClaudeCode, false);
    assert!(discovery.notes.is_empty());
    assert_eq!(discovery.rules[0].body, "---\n\nAll of this is instructions.\n\n---\nMore.");
}
