//! The API's promises: markers, borrowed clean text, counts, idempotence,
//! determinism, UTF-8, odd bytes.

use std::borrow::Cow;

use lean_ctx_redact::testing;
use lean_ctx_redact::{MARKER_PREFIX, Redactor, contains_marker, private_key_block};

const GITHUB: &str = "ghp_Zk3mQ9vW2xR7tY4pL8nBa8Fk2LmQz9Xw3PtR";
const KEY_BODY: &str = "MIIEowIBAAKCAQEAwYSiPeJLSi6k8J4Zk3mQ9vW2xR7tY4pL8nBa8Fk2LmQz9Xw3";

#[test]
fn redactor_is_shareable() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Redactor>();
    static SHARED: std::sync::LazyLock<Redactor> = std::sync::LazyLock::new(Redactor::default);
    assert!(SHARED.redact("nothing here").is_clean());
}

#[test]
fn markers_counts_and_names_kept() {
    let text = format!(
        "GH={GITHUB}\nDB_PASSWORD=Kx9mQ2vL7tR4\nurl=postgres://app:Zk3mQ9vW2xR7@db:5432/app\nsecond {GITHUB}\n"
    );
    let out = Redactor::new().redact(&text);
    assert_eq!(
        out.text,
        "GH=[REDACTED:github_token]\nDB_PASSWORD=[REDACTED:password]\n\
         url=postgres://app:[REDACTED:connection_password]@db:5432/app\nsecond [REDACTED:github_token]\n"
    );
    assert_eq!(out.found, [("connection_password", 1), ("github_token", 2), ("password", 1)]);
    assert_eq!(out.total(), 4);
    assert!(!out.is_clean());
    assert!(out.text.starts_with("GH=") && MARKER_PREFIX == "[REDACTED:");
}

#[test]
fn empty_and_clean_text_come_back_borrowed() {
    let r = Redactor::new();
    for text in ["", "fn main() {}\n", "key = value", "ünïcödé ✓ 🦀"] {
        let out = r.redact(text);
        assert!(out.is_clean() && out.total() == 0 && out.found.is_empty());
        assert!(matches!(out.text, Cow::Borrowed(t) if t == text));
    }
}

#[test]
fn private_key_blocks_go_whole_and_unterminated_ones_to_the_end() {
    let r = Redactor::new();
    let block = format!("-----BEGIN EC PRIVATE KEY-----\n{KEY_BODY}\n{KEY_BODY}\n-----END EC PRIVATE KEY-----");
    let text = format!("before\n{block}\nafter\n");
    assert_eq!(r.redact(&text).text, "before\n[REDACTED:private_key]\nafter\n");
    let text = format!("key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n{KEY_BODY}\n{KEY_BODY}\n");
    assert_eq!(r.redact(&text).text, "key:\n[REDACTED:private_key]");
    // In a JSON string, with escaped newlines.
    let json =
        format!(r#"{{"private_key": "-----BEGIN PRIVATE KEY-----\n{KEY_BODY}\n-----END PRIVATE KEY-----\n", "x": 1}}"#);
    assert_eq!(r.redact(&json).text, r#"{"private_key": "[REDACTED:private_key]\n", "x": 1}"#);
}

#[test]
fn a_key_block_is_where_the_redactor_masks_one_and_a_header_only_mentioned_opens_none() {
    let block = format!("-----BEGIN RSA PRIVATE KEY-----\n{KEY_BODY}\n-----END RSA PRIVATE KEY-----");
    let text = format!("A PEM file starts with -----BEGIN RSA PRIVATE KEY----- and ends with its END line.\n{block}\n");
    let at = text.find("-----BEGIN RSA PRIVATE KEY-----\n").unwrap();
    assert_eq!(private_key_block(text.as_bytes()), Some(at..at + block.len()));
    for mention in [
        "A PEM file starts with -----BEGIN RSA PRIVATE KEY----- and ends with its END line.\n",
        "const HEADER: &str = \"-----BEGIN PRIVATE KEY-----\";\n",
        "-----BEGIN RSA PRIVATE KEY-----\nis how such a file starts.\n",
        "-----BEGIN some label PRIVATE KEY-----\nMIIEowIBAAKCAQEAwYSiPeJLSi6k8J4Z\n",
    ] {
        assert_eq!(private_key_block(mention.as_bytes()), None, "{mention}");
        assert!(Redactor::new().redact(mention).is_clean(), "{mention}");
    }
}

#[test]
fn the_lines_of_secrets_are_those_their_markers_stand_on() {
    let r = Redactor::new();
    let key = format!("-----BEGIN EC PRIVATE KEY-----\r\n{KEY_BODY}\r\n{KEY_BODY}\r\n-----END EC PRIVATE KEY-----");
    let text = format!("GH={GITHUB}\r\n\nkey:\r\n{key}\r\nDB_PASSWORD=Kx9mQ2vL7tR4 again {GITHUB}\n");
    let lines = r.secret_lines(&text);
    assert_eq!(lines, [1..=1, 4..=7, 8..=8, 8..=8]);
    let masked = r.mask_lines(&text).unwrap();
    assert_eq!(lines, masked.markers.iter().map(|marker| marker.lines.clone()).collect::<Vec<_>>());
    for p in testing::planted_corpus(7, 2) {
        let from_mask = r.mask_lines(&p.text).map(|m| m.markers.into_iter().map(|m| m.lines).collect::<Vec<_>>());
        assert_eq!(r.secret_lines(&p.text), from_mask.unwrap_or_default(), "{} in {}", p.kind, p.context);
    }
    assert!(r.secret_lines("fn main() {}\n").is_empty());
}

#[test]
fn redacting_twice_changes_nothing() {
    let r = Redactor::new();
    for p in testing::planted_corpus(99, 2) {
        let once = r.redact(&p.text).text.into_owned();
        let twice = r.redact(&once);
        assert!(twice.is_clean(), "{} in {}: second pass found {:?} in\n{once}", p.kind, p.context, twice.found);
        assert_eq!(twice.text, once);
    }
}

#[test]
fn same_input_same_bytes() {
    let corpus: String = testing::planted_corpus(5, 1).iter().map(|p| p.text.as_str()).collect();
    let a = Redactor::new().redact(&corpus).text.into_owned();
    let b = Redactor::new().redact(&corpus).text.into_owned();
    assert_eq!(a, b);
    assert_eq!(Redactor::new().redact(&corpus).found, Redactor::new().redact(&corpus).found);
}

#[test]
fn multibyte_characters_next_to_secrets() {
    let r = Redactor::new();
    let text = format!(
        "clé→{GITHUB}← 日本語\n🔑API_KEY=Zk3mQ9vW2xR7tY4pL8nBa8Fk 🦀\nмой пароль: postgres://u:Kx9mQ2vL7tR4@h/db ✓"
    );
    let out = r.redact(&text);
    assert_eq!(
        out.text,
        "clé→[REDACTED:github_token]← 日本語\n🔑API_KEY=[REDACTED:api_key] 🦀\nмой пароль: postgres://u:[REDACTED:connection_password]@h/db ✓"
    );
}

#[test]
fn never_panics_on_odd_bytes() {
    let r = Redactor::new();
    let pieces = [
        "ghp_",
        "-----BEGIN ",
        "PRIVATE KEY",
        "-----",
        "eyJ",
        ".",
        "://",
        ":",
        "@",
        "=",
        "\"",
        "key",
        "é",
        "\n",
        "\\n",
        "sk-",
        "xox",
        "SG.",
        "MT",
    ];
    let mut rng = testing::Rng::new(7);
    for _ in 0..3000 {
        let text: String = (0..rng.below(40)).map(|_| *rng.pick(&pieces)).collect();
        let out = r.redact(&text);
        assert!(out.text.len() <= text.len() + 64 * out.total().max(1));
    }
}

#[test]
fn markers_are_recognised() {
    assert!(contains_marker("API_KEY=[REDACTED:api_key]"));
    assert!(contains_marker("a [REDACTED:private_key] b"));
    for text in ["", "[REDACTED:]", "[REDACTED:Api]", "REDACTED", "[REDACTED:api_key", "[redacted:api_key]"] {
        assert!(!contains_marker(text), "{text}");
    }
    let text = format!("t={GITHUB}");
    assert!(contains_marker(&Redactor::new().redact(&text).text));
}
