//! Recall on the planted corpus: every kind in every context it applies to.

use lean_ctx_redact::Redactor;
use lean_ctx_redact::testing::{self, KINDS};

#[test]
fn every_planted_secret_is_redacted_and_its_surroundings_kept() {
    let redactor = Redactor::new();
    let corpus = testing::planted_corpus(14, 12);
    let mut failures = Vec::new();
    for p in &corpus {
        let out = redactor.redact(&p.text);
        if let Err(why) = testing::check(p, &out.text) {
            failures.push(format!(
                "{} in {}: {why}\n--- text:\n{}\n--- redacted:\n{}",
                p.kind, p.context, p.text, out.text
            ));
        } else if out.found != [(p.kind, 1)] {
            failures.push(format!("{} in {}: found {:?}\n{}", p.kind, p.context, out.found, p.text));
        }
    }
    let mut by_kind = std::collections::BTreeMap::new();
    for f in &failures {
        *by_kind.entry(f.split(':').next().unwrap_or_default().to_string()).or_insert(0) += 1;
    }
    assert!(
        failures.is_empty(),
        "{} of {} missed ({by_kind:?}):\n{}",
        failures.len(),
        corpus.len(),
        failures[..failures.len().min(6)].join("\n\n")
    );
    for kind in KINDS {
        assert!(corpus.iter().filter(|p| p.kind == *kind).count() >= 7 * 12, "{kind} is planted in too few contexts");
    }
}

#[test]
fn other_seeds_too() {
    let redactor = Redactor::new();
    for seed in 1..=5 {
        for p in testing::planted_corpus(seed * 7919, 3) {
            let out = redactor.redact(&p.text);
            assert!(
                testing::check(&p, &out.text).is_ok(),
                "{} in {} (seed {seed}):\n{}\n{}",
                p.kind,
                p.context,
                p.text,
                out.text
            );
        }
    }
}
