//! Go: `go build`/`go vet` (compiler-style diagnostics) and `go test`.

use crate::family::{Families, Family};
use crate::generic::GENERIC;
use crate::plan::{NoteAt, Plan};
use crate::rules;
use crate::runner::{self, Verdict};

pub(crate) static BUILD: Family = Family::new("go-build", "go build ./cmd/x", |plan, _| build(plan));
pub(crate) static TEST: Family = Family::new("go-test", "go test ./...", |plan, _| test(plan));
pub(crate) static VET: Family = Family::new("go-vet", "go vet ./...", |plan, _| build(plan));

/// go's families, by subcommand.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, args| {
        (program == "go").then(|| match args.first().map(String::as_str) {
            Some("build" | "install") => &BUILD,
            Some("test") => &TEST,
            Some("vet") => &VET,
            _ => &GENERIC,
        })
    },
    members: &[&BUILD, &TEST, &VET],
};

/// `go build`/`go vet`: module download chatter goes, counted; diagnostics stay as they are.
fn build(plan: &mut Plan) {
    plan.drop_counted("module downloads not shown", NoteAt::First, |line| {
        line.starts_with("go: downloading ") || line.starts_with("go: finding ")
    });
}

/// `go test`: `=== RUN/PAUSE/CONT` and `--- PASS/SKIP` lines go, as do packages without tests (counted);
/// `--- FAIL`, the per-package `FAIL`/`ok` lines and test log output stay.
fn test(plan: &mut Plan) {
    build(plan);
    runner::results(plan, |line| {
        let t = line.trim_start();
        if rules::starts_with_any(t, &["=== RUN", "=== PAUSE", "=== CONT", "--- PASS: ", "--- SKIP: "]) {
            Some(Verdict::Pass)
        } else if t.starts_with("--- FAIL: ") || line.starts_with("FAIL\t") {
            Some(Verdict::Fail)
        } else {
            None
        }
    });
    plan.drop_counted("packages without test files", NoteAt::First, |line| {
        line.starts_with('?') && line.ends_with("[no test files]")
    });
}
