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

/// QA: a value found as a secret by its name on one line (`password: …`) was shown in the clear
/// where the same text wrote it again without one. Every place it is written is masked, each
/// as the kind it was found as; a short value is not looked for again.
#[test]
fn a_secret_found_once_is_masked_wherever_the_text_repeats_it() {
    let redactor = Redactor::new();
    let text = "db password is pxnnMRMCPrMMSH8ocfbi in DATABASE_URL\npassword: pxnnMRMCPrMMSH8ocfbi\nsee \
                x-pxnnMRMCPrMMSH8ocfbi-y\n";
    let out = redactor.redact(text);
    assert_eq!(
        out.text,
        "db password is [REDACTED:password] in DATABASE_URL\npassword: [REDACTED:password]\nsee \
         x-[REDACTED:password]-y\n"
    );
    assert_eq!(out.found, [("password", 3)]);
    let lines: Vec<_> = redactor.secret_lines(text).into_iter().map(|lines| *lines.start()).collect();
    assert_eq!(lines, [1, 2, 3]);
    assert!(redactor.redact("password: Zq9#xT\nZq9#xT\n").found.iter().all(|(_, n)| *n <= 1));
}

/// QA: a token written after a word and a `-` or `_` (`key-sk_live_…`, `id_AKIA…`) was kept in
/// the clear, its format read only at a token's start. Every kind found by its shape is masked
/// there too, the word before it kept (URLs, whose scheme the word would change, aside), but for
/// `sk-` keys and Twilio's `SK…` ids, whose prefixes are common inside names (the next test).
#[test]
fn a_token_joined_to_a_word_by_a_dash_or_underscore_is_masked() {
    let redactor = Redactor::new();
    let standalone = ["openai_key", "anthropic_key", "twilio_key"];
    let logged = testing::planted_corpus(14, 4)
        .into_iter()
        .filter(|p| p.text.contains(" connecting with ") && !p.text.contains("://") && !standalone.contains(&p.kind));
    let mut kinds = std::collections::BTreeSet::new();
    for p in logged {
        for joint in ["key-", "id_"] {
            let text = p.text.replace(" connecting with ", &format!(" connecting with {joint}"));
            let out = redactor.redact(&text);
            let joined = testing::Planted { text: text.clone(), ..p.clone() };
            let kept = out.text.contains(&format!("with {joint}"));
            assert!(
                testing::check(&joined, &out.text).is_ok() && kept,
                "{} after {joint}:\n{text}\n{}",
                p.kind,
                out.text
            );
        }
        kinds.insert(p.kind);
    }
    assert!(kinds.len() >= 12, "only {kinds:?} are planted in a log line: {}", kinds.len());
}

/// A second QA pass: with `-` joining a token, kebab-case names holding `sk-` were masked as keys
/// (a pod's name in `kubectl get pods`, a branch name), and a digest's `_SK` + hex as a Twilio id.
#[test]
fn names_that_hold_a_key_prefix_after_a_dash_or_underscore_are_no_secret() {
    let redactor = Redactor::new();
    for text in [
        "pod/app-sk-worker-7c9f8d6b5-abcde   1/1   Running\n",
        "payments-sk-live-5d8f7c9b6-x2k4q\n",
        "feature/PROJ-88_sk-translations-update-2024\n",
        "team-sk-3f9a8c7e6d5b4a3928171615141312ab\n",
        "digest_sha256_SK3f9a8c7e6d5b4a3928171615141312ab\n",
    ] {
        assert_eq!(redactor.redact(text).text, text, "{text}");
    }
}
