//! ctx_shell's `env` is part of the command line the user's rules judge:
//! git settings or a program given there are refused as the same words
//! written on the line are.

mod common;

use common::Project;
use lean_ctxd::engine::cancel::Cancel;
use lean_ctxd::engine::shell::run::RunParams;

fn run(p: &Project, command: &str, env: &[(&str, &str)]) -> Result<String, String> {
    let env = env.iter().map(|(name, value)| (name.to_string(), value.to_string())).collect();
    let params = RunParams { command: command.into(), given: env, ..Default::default() };
    match p.engine.run_command(&p.caller("s"), &params, &Cancel::default()) {
        Ok((_, shaped)) => Ok(shaped.text),
        Err(e) => Err(e.to_string()),
    }
}

#[test]
fn a_command_the_environment_gives_git_is_refused_as_one_on_the_line() {
    let p = Project::new();
    std::fs::create_dir_all(p.root.join(".claude")).unwrap();
    p.write(".claude/settings.json", r#"{"permissions": {"deny": ["Bash(rm:*)"]}}"#);
    p.write("victim.txt", "victim\n");
    let alias = [("GIT_CONFIG_COUNT", "1"), ("GIT_CONFIG_KEY_0", "alias.x"), ("GIT_CONFIG_VALUE_0", "!rm victim.txt")];
    let parameters = [("GIT_CONFIG_PARAMETERS", "'alias.x'='!rm victim.txt'")];
    for (command, env) in [("git x", &alias[..]), ("git x", &parameters[..]), ("$C victim.txt", &[("C", "rm")])] {
        let refusal = run(&p, command, env).expect_err(command);
        assert!(refusal.contains("Bash(rm:*)") && refusal.contains("`rm victim.txt` matches it"), "{refusal}");
        assert_eq!(p.text("victim.txt"), "victim\n", "{command} with {env:?}");
    }
    // An environment no rule covers runs as given.
    assert!(run(&p, "echo \"$GREETING\"", &[("GREETING", "hi")]).unwrap().contains("hi"));
}

/// The caller's own environment is where the line starts, not part of it: Debian's and Ubuntu's
/// shells set LESSOPEN for every user, and with it every command was asked about wherever a Bash
/// rule existed (any program may start less); given for the command, it is the agent's doing.
#[test]
fn the_callers_own_environment_is_not_read_as_the_lines() {
    let p = Project::new();
    std::fs::create_dir_all(p.root.join(".claude")).unwrap();
    p.write(".claude/settings.json", r#"{"permissions": {"deny": ["Bash(git push:*)"]}}"#);
    let lessopen = || [("LESSOPEN".to_string(), "| /usr/bin/lesspipe %s".to_string())].into_iter().collect();
    let inherited = RunParams { command: "echo ran".into(), env: lessopen(), ..Default::default() };
    let (_, shaped) = p.engine.run_command(&p.caller("s"), &inherited, &Cancel::default()).unwrap();
    assert!(shaped.text.contains("ran"), "{}", shaped.text);
    let given = RunParams { command: "echo ran".into(), given: lessopen(), ..Default::default() };
    let refusal = p.engine.run_command(&p.caller("s"), &given, &Cancel::default()).unwrap_err().to_string();
    assert!(refusal.contains("a command less runs"), "{refusal}");
}
