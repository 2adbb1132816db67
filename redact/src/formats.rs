//! Secrets recognised by their own shape: vendor token formats, JWTs and
//! private-key blocks. Each rule is woken by an anchor literal (see
//! `anchors.rs`) and checks the bytes around it by hand: exact lengths and
//! alphabets, a token boundary before, a maximal run after, and a body that
//! is not a placeholder (`ghp_xxxx…`).
//!
//! Deliberately left alone: Stripe publishable keys (`pk_live_`, `pk_test_`,
//! meant to ship in web pages) and AWS's documented example key id
//! `AKIAIOSFODNN7EXAMPLE` (any key id ending in `EXAMPLE`), which fills
//! documentation and tests and unlocks nothing.

use crate::entropy::random_body;
use crate::kind::Kind;
use crate::scan::{B64, B64URL, RunClass, Scan};

/// `AKIA`/`ASIA`/`ABIA`/`ACCA` + 16 of `[A-Z0-9]`: an AWS access key id.
pub(crate) fn aws_key_id(scan: &mut Scan, at: usize) {
    if !scan.token_start(at) || scan.run_end(at, RunClass::B64Url) != at + 20 {
        return;
    }
    let body = &scan.text[at + 4..at + 20];
    if body.iter().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        && !body.ends_with(b"EXAMPLE")
        && random_body(body)
    {
        scan.push(at, at + 20, Kind::AwsAccessKeyId);
    }
}

/// A literal prefix, then a maximal run of `class` whose length is within
/// `len` (and the run bounded by a non-token byte).
pub(crate) fn prefixed(
    scan: &mut Scan,
    at: usize,
    prefix_len: usize,
    class: RunClass,
    len: std::ops::RangeInclusive<usize>,
    kind: Kind,
) {
    if !scan.token_start(at) {
        return;
    }
    let body_start = at + prefix_len;
    let end = scan.run_end(body_start, class);
    if !len.contains(&(end - body_start)) || scan.byte(end).is_some_and(|b| B64URL.has(b)) {
        return;
    }
    if random_body(&scan.text[body_start..end]) {
        scan.push(at, end, kind);
    }
}

/// `xox[abposre]-…` (Slack bot, user, app-config and refresh tokens).
pub(crate) fn slack_xox(scan: &mut Scan, at: usize) {
    if matches!(scan.byte(at + 3), Some(b'a' | b'b' | b'p' | b'o' | b's' | b'r' | b'e'))
        && scan.byte(at + 4) == Some(b'-')
    {
        prefixed(scan, at, 5, RunClass::AlnumDash, 20..=255, Kind::SlackToken);
    }
}

/// `hooks.slack.com/services/T…/B…/…`: the path after the kind of hook is
/// the secret; scheme and host stay so the line still says what it was.
pub(crate) fn slack_webhook(scan: &mut Scan, at: usize) {
    let rest = &scan.text[at + b"hooks.slack.com/".len()..];
    let Some(kind_len) =
        [&b"services/"[..], b"workflows/", b"triggers/"].iter().find(|k| rest.starts_with(k)).map(|k| k.len())
    else {
        return;
    };
    let start = at + b"hooks.slack.com/".len() + kind_len;
    let end = scan.run_end(start, RunClass::UrlPath);
    if end - start >= 20 && random_body(&scan.text[start..end]) {
        scan.push(start, end, Kind::SlackWebhook);
    }
}

/// `sk_live_`, `rk_live_`, `sk_test_`, `rk_test_` (anchored on `k_live_` /
/// `k_test_`, one byte in): Stripe secret and restricted keys.
pub(crate) fn stripe(scan: &mut Scan, at: usize) {
    if at == 0 || !matches!(scan.text[at - 1], b's' | b'r') {
        return;
    }
    prefixed(scan, at - 1, 8, RunClass::Alnum, 16..=255, Kind::StripeKey);
}

/// `sk-ant-…` (Anthropic) and any other `sk-…` key (OpenAI's `sk-`,
/// `sk-proj-`, `sk-svcacct-`, `sk-admin-`, and the providers that copied the
/// format): reported as `openai_key`.
pub(crate) fn sk_dash(scan: &mut Scan, at: usize) {
    if !scan.standalone_start(at) {
        return;
    }
    let end = scan.run_end(at + 3, RunClass::B64Url);
    let body = &scan.text[at + 3..end];
    let (kind, rest, min) = match body.strip_prefix(b"ant-") {
        Some(rest) => (Kind::AnthropicKey, rest, 32),
        None => {
            let rest =
                [&b"proj-"[..], b"svcacct-", b"admin-"].iter().find_map(|p| body.strip_prefix(*p)).unwrap_or(body);
            (Kind::OpenaiKey, rest, 20)
        }
    };
    if rest.len() >= min && body.len() <= 400 && random_body(rest) {
        scan.push(at, end, kind);
    }
}

/// `pypi-` + the base64 of a macaroon for pypi.org or test.pypi.org.
pub(crate) fn pypi(scan: &mut Scan, at: usize) {
    let rest = &scan.text[at + 5..];
    if rest.starts_with(b"AgEIcHlwaS5vcmc") || rest.starts_with(b"AgENdGVzdC5weXBpLm9yZw") {
        prefixed(scan, at, 5, RunClass::B64Url, 60..=4096, Kind::PypiToken);
    }
}

/// `SG.` + 22 + `.` + 43 base64url: a SendGrid API key.
pub(crate) fn sendgrid(scan: &mut Scan, at: usize) {
    if !scan.token_start(at) {
        return;
    }
    let first = scan.run_end(at + 3, RunClass::B64Url);
    if first != at + 25 || scan.byte(first) != Some(b'.') {
        return;
    }
    let second = scan.run_end(first + 1, RunClass::B64Url);
    if second == first + 44 && random_body(&scan.text[at + 3..second]) {
        scan.push(at, second, Kind::SendgridKey);
    }
}

/// `eyJ…` `.` `eyJ…` `.` signature: a JWT (header and payload are base64url
/// JSON objects, so both start `eyJ`; the signature may be empty, `alg: none`).
pub(crate) fn jwt(scan: &mut Scan, at: usize) {
    if !scan.token_start(at) {
        return;
    }
    let header = scan.run_end(at, RunClass::B64Url);
    if header - at < 13 || scan.byte(header) != Some(b'.') || !scan.text[header + 1..].starts_with(b"eyJ") {
        return;
    }
    let payload = scan.run_end(header + 1, RunClass::B64Url);
    if payload - header < 14 || scan.byte(payload) != Some(b'.') {
        return;
    }
    let signature = scan.run_end(payload + 1, RunClass::B64Url);
    scan.push(at, signature, Kind::Jwt);
}

/// Discord bot token: base64 of the bot's numeric id, `.`, 6 bytes of
/// timestamp, `.`, an HMAC of 27+. Base64 of ASCII digits has a fixed
/// shape in each group of four (`[MNO][DTjz][AEIMQUYcgk][w-z0-5]`), which
/// is what makes a token without any prefix recognisable: the anchors are
/// the twelve possible first pairs.
pub(crate) fn discord(scan: &mut Scan, at: usize) {
    if !scan.token_start(at) {
        return;
    }
    let digits_shape = |i: usize, b: u8| match i % 4 {
        0 => matches!(b, b'M' | b'N' | b'O'),
        1 => matches!(b, b'D' | b'T' | b'j' | b'z'),
        2 => b"AEIMQUYcgk".contains(&b),
        _ => matches!(b, b'w'..=b'z' | b'0'..=b'5'),
    };
    // Seventeen or more digits: the first 20 characters are whole groups.
    let head = scan.text.get(at..at + 20);
    if !head.is_some_and(|h| h.iter().enumerate().all(|(i, &b)| digits_shape(i, b))) {
        return;
    }
    let id_end = scan.run_end(at, RunClass::B64Url);
    if !(23..=28).contains(&(id_end - at)) || scan.byte(id_end) != Some(b'.') {
        return;
    }
    let stamp_end = scan.run_end(id_end + 1, RunClass::B64Url);
    if !(6..=7).contains(&(stamp_end - id_end - 1)) || scan.byte(stamp_end) != Some(b'.') {
        return;
    }
    let end = scan.run_end(stamp_end + 1, RunClass::B64Url);
    if (27..=64).contains(&(end - stamp_end - 1)) && random_body(&scan.text[stamp_end + 1..end]) {
        scan.push(at, end, Kind::DiscordBotToken);
    }
}

/// Telegram bot token, `<bot id>:A<34 base64url>`, found by the regex in
/// `anchors.rs` (its inner literal `:A` makes it fast); here the boundaries
/// and the body are checked.
pub(crate) fn telegram(scan: &mut Scan, start: usize, end: usize) {
    let digits_before = scan.before(start).is_some_and(|b| b.is_ascii_alphanumeric());
    let token_after = scan.byte(end).is_some_and(|b| B64URL.has(b));
    let colon = start + scan.text[start..end].iter().position(|&b| b == b':').unwrap_or(0);
    if !digits_before && !token_after && random_body(&scan.text[colon + 1..end]) {
        scan.push(start, end, Kind::TelegramBotToken);
    }
}

/// Twilio API key SID, `SK` + 32 lowercase hex, found by regex: it names the
/// key whose secret sits next to it, and secret scanners treat it as one.
pub(crate) fn twilio(scan: &mut Scan, start: usize, end: usize) {
    if scan.standalone_start(start)
        && !scan.byte(end).is_some_and(|b| B64URL.has(b))
        && random_body(&scan.text[start + 2..end])
    {
        scan.push(start, end, Kind::TwilioKey);
    }
}

/// `-----BEGIN … PRIVATE KEY-----` through the matching `-----END …-----`,
/// replaced whole (anchored on `PRIVATE KEY`). A block with no end redacts
/// to the end of the text: whatever follows may be the key.
///
/// A header that is only mentioned (a PEM parser's constant, docs naming
/// the format) is not followed by key material; only a header followed,
/// after optional literal `\n` escapes, quotes and `Proc-Type:`-style
/// headers, by base64 starts a block.
pub(crate) fn private_key(scan: &mut Scan, at: usize) {
    const BEGIN: &[u8] = b"-----BEGIN ";
    if at < scan.key_block_end {
        return; // inside a block already redacted: its end was searched once
    }
    let text = scan.text;
    // The header must be `-----BEGIN <label> PRIVATE KEY( BLOCK)?-----`, the
    // label at most 40 bytes, so look back no further than that.
    let from = at.saturating_sub(BEGIN.len() + 40);
    let Some(begin) = memchr::memmem::rfind(&text[from..at], BEGIN).map(|i| from + i) else {
        return;
    };
    let label = &text[begin + BEGIN.len()..at];
    if label.len() > 40 || !label.iter().all(|&b| b.is_ascii_uppercase() || b == b' ' || b.is_ascii_digit()) {
        return;
    }
    let after_label = &text[at + b"PRIVATE KEY".len()..];
    let Some(header_len) = [&b"-----"[..], b" BLOCK-----"].iter().find(|s| after_label.starts_with(s)).map(|s| s.len())
    else {
        return;
    };
    let body = at + b"PRIVATE KEY".len() + header_len;
    if !key_material_follows(&text[body..]) {
        return;
    }
    let end = match memchr::memmem::find(&text[body..], b"-----END ") {
        Some(i) => {
            let end_label = body + i + b"-----END ".len();
            let close = memchr::memmem::find(&text[end_label..], b"-----").map(|j| end_label + j + 5);
            // The END line must close on the same line; otherwise keep going to the text's end.
            match close {
                Some(c) if !text[end_label..c].contains(&b'\n') => c,
                _ => text.len(),
            }
        }
        None => text.len(),
    };
    scan.key_block_end = end;
    scan.push(begin, end, Kind::PrivateKey);
}

/// Whether what follows a PEM header is key material: skipping whitespace,
/// literal `\n`/`\r` escapes, quotes and string concatenation, then any
/// `Name: value` header lines, at least 16 base64 bytes.
fn key_material_follows(rest: &[u8]) -> bool {
    let mut i = 0;
    let window = &rest[..rest.len().min(512)];
    loop {
        while i < window.len() && matches!(window[i], b' ' | b'\t' | b'\r' | b'\n' | b'"' | b'\'' | b'+' | b',') {
            i += 1;
        }
        if window[i..].starts_with(b"\\n") || window[i..].starts_with(b"\\r") {
            i += 2;
            continue;
        }
        // Encrypted PEM: `Proc-Type: 4,ENCRYPTED` / `DEK-Info: …` lines.
        let word = window[i..].iter().take_while(|&&b| b.is_ascii_alphanumeric() || b == b'-').count();
        if word > 0 && window.get(i + word) == Some(&b':') {
            i += word + 1;
            while i < window.len() && !matches!(window[i], b'\n' | b'\\') {
                i += 1;
            }
            continue;
        }
        break;
    }
    window[i..].iter().take_while(|&&b| B64.has(b)).count() >= 16
}
