//! Inputs built to make a scanner slow: every rule must stay linear, or a
//! hostile file would hold a daemon worker for minutes. The bound is loose
//! (a quadratic pass over these inputs takes many times longer, even in a
//! release build); it only catches a blow-up.

use std::time::{Duration, Instant};

use lean_ctx_redact::Redactor;

#[test]
fn names_repeated_without_values_stay_linear() {
    let r = Redactor::new();
    let n = 256 << 10;
    for text in [
        "API_KEY=".repeat(n / 8),
        "password: ".repeat(n / 10),
        "\"secret\": \"".repeat(n / 12),
        "TOKEN=\"".repeat(n / 7),
        "clientSecret = ".repeat(n / 15),
    ] {
        let start = Instant::now();
        let out = r.redact(&text);
        let took = start.elapsed();
        assert!(took < Duration::from_secs(5), "{took:?} for {:?}…", &text[..16]);
        assert_eq!(out.total(), 0, "names without values are no secret");
    }
}
