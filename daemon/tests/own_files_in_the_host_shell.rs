//! Inside Claude Code's own shell tool its ask rules were put to the user already, so they do not
//! refuse; lean-ctx's own ask about an edit of the files rules are read from was put to nobody.

mod common;

use common::Project;
use lean_ctx_guard::permissions::Verdict;
use lean_ctxd::engine::Caller;

#[test]
fn an_edit_of_the_rules_files_is_refused_in_the_host_shell_where_the_hosts_asks_are_not() {
    let p = Project::new();
    std::fs::create_dir_all(p.root.join(".claude")).unwrap();
    p.write(".claude/settings.json", r#"{"permissions": {"ask": ["Bash(git reset:*)"], "deny": ["Read(./.env)"]}}"#);
    let in_claude = Caller { cwd: p.root.to_str().unwrap(), session: "s", agent: "claude-code", ..Caller::default() };
    let check = |command: &str| p.engine.check_command(&in_claude, command).unwrap().verdict;
    assert_eq!(check("git reset --hard"), Verdict::Allow, "Claude Code asked its user about its own ask rule");
    let lifted = check("sed -i 's/Read//' .claude/settings.json");
    assert!(
        matches!(&lifted, Verdict::Ask { rule, .. } if rule.ends_with(".claude/settings.json)")),
        "an edit of the rules' own file is not Claude Code's rule, so it was not asked about: {lifted:?}"
    );
}
