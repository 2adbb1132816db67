//! docs/json.md cannot drift: every lctx command that takes `--json` has a
//! section there, and each section's documented top-level keys are exactly
//! those of the real output and of the section's example.

use std::collections::BTreeSet;
use std::path::Path;

use lean_ctx_tests::{Home, bin, describe};

/// One `## \`lctx …\`` section of docs/json.md.
struct Section {
    command: String,
    keys: BTreeSet<String>,
    example: serde_json::Value,
}

fn sections() -> Vec<Section> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/json.md")).unwrap();
    let mut out = Vec::new();
    for part in doc.split("\n## `").skip(1) {
        let command = part[..part.find('`').unwrap()].to_string();
        let keys_line =
            part.lines().find(|l| l.starts_with("Keys: ")).unwrap_or_else(|| panic!("{command}: no Keys line"));
        let keys = keys_line.split('`').skip(1).step_by(2).map(String::from).collect();
        let example = part.split("```json\n").nth(1).and_then(|rest| rest.split("\n```").next());
        let example = example.unwrap_or_else(|| panic!("{command}: no json example"));
        let example = serde_json::from_str(example).unwrap_or_else(|e| panic!("{command}: example is not JSON: {e}"));
        out.push(Section { command, keys, example });
    }
    out
}

fn keys_of(value: &serde_json::Value) -> BTreeSet<String> {
    value.as_object().expect("an object").keys().cloned().collect()
}

/// Every command path of lctx whose help offers `--json`, found by walking
/// `--help` (so a new `--json` cannot go undocumented).
fn commands_with_json(home: &Home, path: &[String], found: &mut Vec<String>) {
    let out = home.command(bin("lctx")).args(path).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    if help.contains("--json") {
        found.push(format!("lctx {}", path.join(" ")));
    }
    let Some(list) = help.split("Commands:\n").nth(1) else { return };
    for line in list.lines().take_while(|l| l.starts_with("  ")) {
        let name = line.split_whitespace().next().unwrap();
        if name != "help" {
            commands_with_json(home, &[path, &[name.to_string()]].concat(), found);
        }
    }
}

#[test]
fn every_json_shape_is_documented_with_its_real_keys() {
    let home = Home::new();
    let root = home.path().join("proj");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join("lib.rs"), "/// Greets.\npub fn greet() -> &'static str {\n    \"hello\"\n}\n").unwrap();
    let sections = sections();

    let mut with_json = Vec::new();
    commands_with_json(&home, &[], &mut with_json);
    assert!(with_json.len() >= 8, "{with_json:?}");
    for command in &with_json {
        let documented = sections.iter().any(|s| s.command.starts_with(&format!("{command} ")));
        assert!(documented, "{command} takes --json but docs/json.md has no section for it");
    }

    for section in &sections {
        let args: Vec<&str> = match section.command.as_str() {
            "lctx read PATH --json" => vec!["read", "lib.rs", "--json"],
            "lctx edit PATH --json" => vec!["edit", "lib.rs", "--old", "hello", "--new", "hi", "--json"],
            "lctx rules --json" => vec!["rules", "--json"],
            "lctx search PATTERN --json" => vec!["search", "greet", "--json"],
            "lctx glob PATTERN --json" => vec!["glob", "*.rs", "--json"],
            "lctx callgraph SYMBOL --json" => vec!["callgraph", "greet", "--json"],
            "lctx map --json" => vec!["map", "--json"],
            "lctx graph FILE --json" => vec!["graph", "lib.rs", "--json"],
            "lctx impact FILE --json" => vec!["impact", "lib.rs", "--json"],
            "lctx gain --json" => vec!["gain", "--by", "tool", "--json"],
            "lctx gain --daily --json" => vec!["gain", "--daily", "--days", "3", "--json"],
            "lctx ledger verify --json" => vec!["ledger", "verify", "--json"],
            "lctx daemon status --json" => vec!["daemon", "status", "--json"],
            "lctx doctor --json" => vec!["doctor", "--json"],
            other => panic!("docs/json.md documents `{other}`, which this test does not run"),
        };
        let out = home.command(bin("lctx")).current_dir(&root).args(&args).output().unwrap();
        let real: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{}: not JSON ({e}): {}", section.command, describe(&out)));
        assert_eq!(keys_of(&real), section.keys, "{}: the real keys differ from the documented ones", section.command);
        assert_eq!(keys_of(&section.example), section.keys, "{}: the example's keys differ", section.command);
    }
}
