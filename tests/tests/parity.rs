//! One capability, one answer: the same request through `lctx` and through
//! `lctx-mcp` gives the same text (lctx prints it, lctx-mcp returns it).

use std::path::{Path, PathBuf};

use lean_ctx_tests::mcp::Raw;
use lean_ctx_tests::{Home, bin, describe};
use serde_json::{Value, json};

fn project(home: &Home) -> PathBuf {
    let root = home.path().join("proj");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("src/lib.rs"),
        "/// Greets.\npub fn greet(name: &str) -> String {\n    format!(\"hello {name}\")\n}\n\npub struct Config {\n    pub depth: u32,\n}\n",
    )
    .unwrap();
    std::fs::write(root.join("notes.txt"), "alpha\n").unwrap();
    root
}

struct Surfaces<'a> {
    home: &'a Home,
    root: &'a Path,
    mcp: Raw,
    next_id: i64,
}

impl Surfaces<'_> {
    /// lctx's stdout and exit code.
    fn cli(&self, args: &[&str]) -> (String, i32) {
        let out = self.home.command(bin("lctx")).current_dir(self.root).args(args).output().unwrap();
        assert!(out.status.code().is_some(), "{}", describe(&out));
        (String::from_utf8(out.stdout).unwrap(), out.status.code().unwrap())
    }

    fn mcp(&mut self, tool: &str, args: Value) -> (String, bool) {
        self.next_id += 1;
        self.mcp.call_tool(self.next_id, tool, args)
    }

    /// The same request both ways; returns the shared text.
    fn same(&mut self, cli: &[&str], tool: &str, args: Value) -> String {
        let (cli_text, code) = self.cli(cli);
        let (mcp_text, is_error) = self.mcp(tool, args);
        assert!(!is_error, "{tool} failed: {mcp_text}");
        // lctx ends its output on a newline; the text is otherwise the same,
        // but for a search's note on how the index served it, which depends
        // on timing (the index may finish building between the two calls).
        let comparable = |text: &str| {
            text.lines().filter(|l| !l.contains("searched the files directly")).collect::<Vec<_>>().join("\n")
        };
        assert_eq!(comparable(&cli_text), comparable(&mcp_text), "lctx {cli:?} vs {tool} (exit {code})");
        mcp_text
    }
}

#[test]
fn each_capability_answers_the_same_through_lctx_and_lctx_mcp() {
    let home = Home::new();
    let root = project(&home);
    let mut mcp_cmd = home.command(bin("lctx-mcp"));
    mcp_cmd.current_dir(&root).env_remove("LEAN_CTX_MCP_PROFILE").env_remove("LEAN_CTX_MCP_DISABLED");
    let mut mcp = Raw::spawn(mcp_cmd);
    mcp.initialize("parity-host", "2025-06-18");
    let mut s = Surfaces { home: &home, root: &root, mcp, next_id: 0 };

    // read: one file, several files (one missing), a range.
    let sigs = s.same(
        &["read", "src/lib.rs", "-m", "signatures", "--fresh"],
        "ctx_read",
        json!({"path": "src/lib.rs", "mode": "signatures", "fresh": true}),
    );
    assert!(sigs.contains("greet"), "{sigs}");
    let several = s.same(
        &["read", "src/lib.rs", "missing.rs", "-m", "full", "--fresh"],
        "ctx_read",
        json!({"paths": ["src/lib.rs", "missing.rs"], "mode": "full", "fresh": true}),
    );
    assert!(several.contains("==> missing.rs (error) <=="), "{several}");
    s.same(&["read", "src/lib.rs", "-m", "lines:2-3"], "ctx_read", json!({"path": "src/lib.rs", "mode": "lines:2-3"}));

    // edit: there and back again, the same summary both ways.
    let (cli_edit, code) = s.cli(&["edit", "notes.txt", "--old", "alpha", "--new", "omega"]);
    assert_eq!(code, 0, "{cli_edit}");
    let (mcp_edit, _) = s.mcp("ctx_edit", json!({"path": "notes.txt", "old_string": "omega", "new_string": "alpha"}));
    assert_eq!(cli_edit.trim_end(), mcp_edit.trim_end());

    // shell: a failing command is an answer with its exit status.
    let (cli_run, code) = s.cli(&["run", "--", "echo parity; exit 3"]);
    let (mcp_run, is_error) = s.mcp("ctx_shell", json!({"command": "echo parity; exit 3"}));
    assert_eq!((code, is_error), (3, false));
    assert_eq!(cli_run.trim_end(), mcp_run.trim_end());
    assert!(mcp_run.contains("[exit:3]"), "{mcp_run}");

    // expand: an archived output, searched by content.
    let (long, _) = s.cli(&["run", "--", "seq 1 3000"]);
    assert!(long.contains("ctx_expand id="), "{long}");
    s.same(&["expand", "--search", "2999"], "ctx_expand", json!({"search": "2999"}));
    s.same(
        &["expand", "--search", "no-such-words-anywhere"],
        "ctx_expand",
        json!({"search": "no-such-words-anywhere"}),
    );

    // search, glob, tree.
    s.same(&["search", "fn gr[e]et"], "ctx_search", json!({"pattern": "fn gr[e]et"}));
    s.same(&["search", "Conf", "-a", "symbol"], "ctx_search", json!({"pattern": "Conf", "action": "symbol"}));
    s.same(&["glob", "**/*.rs"], "ctx_glob", json!({"pattern": "**/*.rs"}));
    s.same(&["tree"], "ctx_tree", json!({}));

    // knowledge and gain.
    let (_, code) = s.cli(&["knowledge", "remember", "build", "cargo build --workspace"]);
    assert_eq!(code, 0);
    let list = s.same(&["knowledge", "list"], "ctx_knowledge", json!({"action": "list"}));
    assert!(list.contains("cargo build --workspace"), "{list}");
    s.same(&["knowledge", "recall", "cargo"], "ctx_knowledge", json!({"action": "recall", "query": "cargo"}));
    s.same(&["gain", "--by", "tool"], "ctx_gain", json!({"group_by": "tool"}));

    // jobs: a background job's status, asked by the session that started it
    // (the MCP connection's; lctx names it with --session).
    let (started, _) = s.mcp("ctx_shell", json!({"command": "echo from the background", "run_in_background": true}));
    let id: u64 = started.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("job N started");
    let (all, _) = s.cli(&["jobs", "--all"]);
    let session = all.lines().find_map(|l| l.split(" · session ").nth(1)).expect("the job's session").to_string();
    let finished = || {
        let mut lctx = s.home.command(bin("lctx"));
        let out = lctx.current_dir(s.root).args(["--session", &session, "jobs", "status", &id.to_string()]).output();
        !String::from_utf8_lossy(&out.unwrap().stdout).contains("running")
    };
    assert!(lean_ctx_tests::wait_until(std::time::Duration::from_secs(120), finished), "job {id} finished");
    let status = s.same(
        &["--session", &session, "jobs", "status", &id.to_string()],
        "ctx_shell",
        json!({"background_action": "status", "job_id": id.to_string()}),
    );
    assert!(status.contains("from the background"), "{status}");

    // session: another session's record, named the same way on both.
    let (_, code) = s.cli(&["--session", "parity-a", "session", "task", "compare the surfaces"]);
    assert_eq!(code, 0);
    let theirs = s.same(
        &["--session", "parity-a", "session", "status"],
        "ctx_session",
        json!({"action": "status", "session_id": "parity-a"}),
    );
    assert!(theirs.contains("compare the surfaces"), "{theirs}");
    assert!(s.mcp.close().success());
}

#[test]
fn bad_values_of_closed_sets_name_the_valid_ones_on_both_surfaces() {
    let home = Home::new();
    let root = project(&home);
    let out = home.command(bin("lctx")).current_dir(&root).args(["gain", "--by", "colour"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "a usage error: {}", describe(&out));
    let cli = String::from_utf8_lossy(&out.stderr).to_string();
    let mut mcp_cmd = home.command(bin("lctx-mcp"));
    mcp_cmd.current_dir(&root);
    let mut mcp = Raw::spawn(mcp_cmd);
    mcp.initialize("parity-host", "2025-06-18");
    let (text, is_error) = mcp.call_tool(1, "ctx_gain", json!({"group_by": "colour"}));
    assert!(is_error);
    // One message, each surface naming the parameter as its user writes it.
    assert!(cli.contains(&text.replace("group_by", "--by")), "the same message: {cli:?} / {text:?}");
    assert!(text.contains("unknown group_by `colour`"), "{text}");
    assert!(text.contains("valid: none, tool, mode, family, project"), "{text}");
}
