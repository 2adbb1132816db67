//! bm25 ranks a file by the words an agent may see in it: a secret's own word finds nothing,
//! neither from the index nor from a scan, while the words around it still find the file.

mod common;

use common::Project;
use lean_ctx_search::{SearchResult, Source};
use lean_ctxd::engine::cancel::Cancel;
use lean_ctxd::engine::search::SearchParams;

/// Not a real token: the redactor masks it as a GitHub token.
const TOKEN: &str = "ghp_R8xK2mQ9vL4nT7wZ3pY6sB1cF5hJ0dG8aE2u";

fn bm25(p: &Project, pattern: &str) -> SearchResult {
    let params = SearchParams { pattern: pattern.into(), action: "bm25".into(), ..Default::default() };
    p.engine.search(&p.caller("s"), &params, &Cancel::default()).unwrap()
}

#[test]
fn a_secrets_word_finds_no_file_and_the_words_around_it_still_do() {
    let p = Project::new();
    p.write("deploy.toml", &format!("[deploy]\nregion = \"north\"\ndeploy_token = \"{TOKEN}\"\n"));
    p.write("notes.md", "the deploy region is north\n");
    let check = |source: Source| {
        let found = bm25(&p, TOKEN);
        assert_eq!(found.source, source, "{}", found.text);
        // Finding deploy.toml would tell that the value is written there, masked line or not.
        assert!(found.matches.is_empty(), "{source:?}: {}", found.text);
        assert!(!found.text.contains("deploy.toml"), "{}", found.text);
        // The secret's parts are left out too: `ghp` alone would confirm a token's kind.
        assert!(bm25(&p, "ghp").matches.is_empty(), "{source:?}");
        // Nor does the marker's word stand in for it.
        assert!(bm25(&p, "REDACTED").matches.is_empty(), "{source:?}");
        // The key's name still finds its line, shown masked.
        let around = bm25(&p, "deploy_token");
        let line = around.matches.iter().find(|m| m.line == 3).unwrap_or_else(|| panic!("{}", around.text));
        assert_eq!(
            (line.path.as_str(), line.text.as_str()),
            ("deploy.toml", "deploy_token = \"[REDACTED:github_token]\"")
        );
        let region = bm25(&p, "region north");
        let mut paths: Vec<&str> = region.matches.iter().map(|m| m.path.as_str()).collect();
        paths.sort_unstable();
        assert_eq!(paths, ["deploy.toml", "notes.md"], "{source:?}");
    };
    // An in-process engine does not index on its own: this is the scan.
    check(Source::Scan);
    let status = p.engine.search.build(&p.root, |_| {}).unwrap();
    assert_eq!(status.phase, lean_ctx_search::IndexPhase::Ready, "{status:?}");
    check(Source::Index);
}

/// QA: with a `.claude/settings.json` that does not parse, a search said only "withheld: deny every
/// rule (the file cannot be read)", naming no cause; and a file asked about for its other name (a
/// hard link) under a Read rule was named as an ask rule the user never wrote.
#[test]
fn a_search_names_why_it_withholds_files() {
    let p = Project::new();
    p.write("notes.md", "the deploy region is north\n");
    std::fs::create_dir_all(p.root.join(".claude")).unwrap();
    std::fs::create_dir_all(p.root.join("secret")).unwrap();
    p.write("secret/plan.md", "the deploy plan\n");
    std::fs::hard_link(p.root.join("secret/plan.md"), p.root.join("plan.md")).unwrap();
    let regex = |pattern: &str| {
        let params = SearchParams { pattern: pattern.into(), action: "regex".into(), ..Default::default() };
        p.engine.search(&p.caller("s"), &params, &Cancel::default()).unwrap()
    };
    p.write(".claude/settings.json", r#"{"permissions": {"deny": ["Read(./secret/**)"]}}"#);
    let found = regex("deploy");
    let note = found.note.clone().unwrap_or_default();
    assert!(note.contains("a file with another name (a hard link) that Read(./secret/**)"), "{note}");
    assert!(!note.contains("ask Read"), "{note}");
    p.write(".claude/settings.json", r#"{"permissions": {"deny": ["Read(./secret/**)"] "ask": []}}"#);
    let found = regex("deploy");
    let note = found.note.clone().unwrap_or_default();
    assert!(note.contains("settings.json cannot be used as settings (") && note.contains("line 1"), "{note}");
    assert!(found.matches.is_empty(), "{}", found.text);
}
