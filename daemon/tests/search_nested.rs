//! A nested function is found by the path the call graph names it with, its enclosing function
//! as its owner (`outer::inner2::deepest`, a method's `C::m::local`), with no note that the
//! search knew no such owner.

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
fn a_nested_function_is_found_by_its_enclosers_path() {
    let p = Project::new();
    p.write(
        "nest.py",
        "def outer(v):\n    def inner(y):\n        return y * 2\n    def inner2():\n        def deepest():\n            \
         return inner(v)\n        return deepest()\n    return inner2() + inner(3)\n\nclass C:\n    def m(self):\n        \
         def local():\n            return self.n()\n        return local()\n    def n(self):\n        return 1\n",
    );
    p.write("qa.js", "function outer(type) {\n  function inner(t) {\n    return t;\n  }\n  return inner(type);\n}\n");
    let check = |source: Source| {
        for (pattern, path, line) in
            [("outer::inner2::deepest", "nest.py", 5), ("C::m::local", "nest.py", 12), ("outer::inner", "qa.js", 2)]
        {
            let found = symbol(&p, pattern);
            assert_eq!(found.source, source, "{}", found.text);
            let got: Vec<(&str, u64)> = found.matches.iter().map(|m| (m.path.as_str(), m.line)).collect();
            // `outer::inner` is the JavaScript one: Python's `inner` is also `outer`'s, in another file.
            assert!(got.contains(&(path, line)), "{pattern}: {}", found.text);
            assert!(!found.text.contains("was found in a type or module"), "{pattern}: {}", found.text);
        }
    };
    // An in-process engine does not index on its own: this is the scan.
    check(Source::Scan);
    let status = p.engine.search.build(&p.root, |_| {}).unwrap();
    assert_eq!(status.phase, lean_ctx_search::IndexPhase::Ready, "{status:?}");
    check(Source::Index);
}
