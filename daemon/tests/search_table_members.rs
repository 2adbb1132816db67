//! A Lua table's function is found by its own name and by the path it is called by, whether
//! written `function M:bar`, `function M.baz` or `M.qux = function`, its table as its owner.

mod common;

use common::Project;
use lean_ctx_search::{SearchResult, Source};
use lean_ctxd::engine::cancel::Cancel;
use lean_ctxd::engine::search::SearchParams;

fn symbol(p: &Project, pattern: &str) -> SearchResult {
    let params = SearchParams { pattern: pattern.into(), action: "symbol".into(), ..Default::default() };
    p.engine.search(&p.caller("s"), &params, &Cancel::default()).unwrap()
}

#[test]
fn a_tables_function_is_found_by_its_path_in_either_form() {
    let p = Project::new();
    p.write(
        "shapes.lua",
        "local M = {}\n\nfunction M:bar(x)\n  return x\nend\n\nfunction M.baz(y)\n  return y\nend\n\n\
         M.qux = function(z)\n  return z\nend\n\nreturn M\n",
    );
    let check = |source: Source| {
        for (patterns, line) in
            [(["bar", "M:bar", "M.bar"], 3), (["baz", "M:baz", "M.baz"], 7), (["qux", "M:qux", "M.qux"], 11)]
        {
            for pattern in patterns {
                let found = symbol(&p, pattern);
                assert_eq!(found.source, source, "{}", found.text);
                let got: Vec<(&str, u64)> = found.matches.iter().map(|m| (m.path.as_str(), m.line)).collect();
                assert_eq!(got, [("shapes.lua", line)], "{pattern}: {}", found.text);
                assert!(!found.text.contains("was found in a type or module"), "{pattern}: {}", found.text);
            }
        }
    };
    // An in-process engine does not index on its own: this is the scan.
    check(Source::Scan);
    let status = p.engine.search.build(&p.root, |_| {}).unwrap();
    assert_eq!(status.phase, lean_ctx_search::IndexPhase::Ready, "{status:?}");
    check(Source::Index);
}
