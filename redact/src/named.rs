//! Values assigned to secret-looking names: `API_KEY=…`, `password: …`,
//! `"clientSecret": "…"`, `token = "…"`, `Authorization: Bearer …`. Only the
//! value is replaced; the name stays so the reader still knows what was
//! there.
//!
//! The name decides the kind, by its last word (split at `_ - .` and
//! camelCase, case-insensitive):
//!
//! | last word | kind |
//! |---|---|
//! | `password`, `passwd`, `pwd`, `pass`, `passphrase`, `…password` | `password` |
//! | `secret`, `…secret`, or `key` in a name that also says `secret` | `secret` |
//! | `token`, `…token` (not `next_token`, `page_token`, `eos_token`, …) | `token` |
//! | `key` after another word (not `public_key`, `primary_key`, `cache_key`, …), `apikey`, `accesskey`, … | `api_key` |
//! | `authorization` | `authorization` (the credential after `Bearer`/`Basic`/`Token`/`Bot`) |
//!
//! with a few names that pin a vendor's kind: `aws_secret_access_key` and
//! its spellings, Azure's `AccountKey`/`SharedAccessKey`, anything `twilio`.
//!
//! The syntax covered is what env files, shells, YAML, JSON, TOML/INI and
//! most languages share: the name (optionally quoted), then `=`, `:`, `:=`,
//! `=>` or a typed `: &str =`, then a quoted or bare value on the same line.
//! The value must pass [`secret_value`], and must not be code or a template:
//! a call, a `$VAR`/`${VAR}`/`{{ var }}`/`%(var)s`, a dotted path like
//! `process.env.X`, a file path, a URL (see `url.rs`), a UUID or a number.

use crate::entropy::{is_identifier, secret_value};
use crate::kind::Kind;
use crate::scan::{RunClass, Scan};

/// Bytes of a name: identifiers, plus `-` (`--password`, `X-Api-Key`) and
/// `.` (`spring.datasource.password`, `self.token`).
fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// Longest name looked at; longer runs are not assignments we know.
const MAX_NAME: usize = 96;

/// Words before `key` that make it a non-secret key.
const KEY_NOT_SECRET: &[&str] = &[
    "public",
    "pub",
    "primary",
    "foreign",
    "sort",
    "partition",
    "cache",
    "map",
    "hash",
    "range",
    "row",
    "column",
    "lookup",
    "idempotency",
    "dedup",
    "dedupe",
    "routing",
    "shard",
    "index",
    "unique",
    "composite",
    "object",
    "file",
    "bucket",
    "translation",
    "i18n",
    "locale",
    "message",
    "gpg",
    "pgp",
    "host",
    "registry",
    "group",
    "entry",
    "item",
    "dict",
    "node",
    "record",
    "field",
    "table",
    "cursor",
    "natural",
    "surrogate",
    "sign",
    "verify",
    "verifying",
    "hotkey",
    "short",
    "shortcut",
    "keyboard",
    "music",
    "tone",
    "json",
    "yaml",
    "config",
    "env",
    "header",
    "label",
    "name",
    "tag",
    "state",
    "sequence",
    "unicode",
    "grouping",
    "join",
    "dedupe",
    "compound",
    "secondary",
    "search",
    "result",
    "s3",
    "metadata",
];

/// Words in a `…token` name that make it a non-secret token (pagination,
/// cancellation, idempotency and concurrency tokens, tokenizer vocabularies).
const TOKEN_NOT_SECRET: &[&str] = &[
    "next",
    "page",
    "pagination",
    "continuation",
    "cancel",
    "cancellation",
    "sync",
    "resume",
    "max",
    "min",
    "num",
    "eos",
    "bos",
    "pad",
    "unk",
    "sep",
    "cls",
    "mask",
    "start",
    "end",
    "stop",
    "first",
    "last",
    "prev",
    "previous",
    "lexer",
    "parse",
    "parser",
    "cancelation",
    "marker",
    "special",
    "text",
    "input",
    "output",
    "forward",
    "backward",
    "update",
    "change",
    "idempotency",
    "request",
    "purchase",
    "verification",
];

/// Single words that end in `key` and mean a secret one.
const KEY_COMPOUNDS: &[&str] = &[
    "apikey",
    "secretkey",
    "privatekey",
    "accesskey",
    "authkey",
    "signingkey",
    "encryptionkey",
    "masterkey",
    "clientkey",
    "appkey",
    "licensekey",
    "accountkey",
    "servicekey",
    "sessionkey",
    "subscriptionkey",
];

/// What the name says about its value: the kind to report and the shortest
/// value that counts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    Value(Kind, usize),
    Authorization,
}

/// `name` split into lowercase words at non-alphanumerics, camelCase and
/// acronym boundaries; purely numeric words are dropped (`KEY_2`).
fn words(name: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut prev: Option<u8> = None;
    for (i, &b) in name.iter().enumerate() {
        let next = name.get(i + 1).copied();
        let boundary = match prev {
            _ if !b.is_ascii_alphanumeric() => true,
            Some(p) if p.is_ascii_lowercase() && b.is_ascii_uppercase() => true,
            Some(p) if p.is_ascii_uppercase() && b.is_ascii_uppercase() => next.is_some_and(|n| n.is_ascii_lowercase()),
            Some(p) if p.is_ascii_digit() && !b.is_ascii_digit() => true,
            _ => false,
        };
        if boundary && !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        if b.is_ascii_alphanumeric() {
            current.push(b.to_ascii_lowercase() as char);
        }
        prev = Some(b);
    }
    if !current.is_empty() {
        out.push(current);
    }
    out.retain(|w| !w.bytes().all(|b| b.is_ascii_digit()));
    out
}

fn classify(name: &[u8]) -> Option<Class> {
    match name {
        b"AccountKey" | b"SharedAccessKey" => return Some(Class::Value(Kind::AzureStorageKey, 20)),
        _ => {}
    }
    let words = words(name);
    let (last, before) = words.split_last()?;
    let prev = before.last().map(String::as_str);
    let has = |w: &str| words.iter().any(|x| x == w);
    // `apiKey2`, `TOKEN_V2`: a version on the last word does not change it.
    let last = last.trim_end_matches(|c: char| c.is_ascii_digit());
    let is_password = matches!(last, "password" | "passwd" | "pwd" | "pass" | "passphrase")
        || last.ends_with("password")
        || last.ends_with("passwd");
    let is_secret = last == "secret" || last.ends_with("secret");
    let is_token = (last == "token" || (last.len() > 5 && last.ends_with("token")))
        && !before.iter().any(|w| TOKEN_NOT_SECRET.contains(&w.as_str()));
    let is_key = (last == "key" && prev.is_some_and(|p| !KEY_NOT_SECRET.contains(&p)))
        || KEY_COMPOUNDS.contains(&last)
        || (has("secret") && matches!(last, "key" | "base"));
    if last == "authorization" {
        return Some(Class::Authorization);
    }
    if !(is_password || is_secret || is_token || is_key) {
        return None;
    }
    let kind = if has("twilio") {
        Kind::TwilioKey
    } else if is_password {
        return Some(Class::Value(Kind::Password, 8));
    } else if last == "key" && has("secret") && (has("aws") || has("access")) {
        Kind::AwsSecretAccessKey
    } else if is_secret || has("secret") {
        Kind::Secret
    } else if is_token {
        Kind::Token
    } else {
        Kind::ApiKey
    };
    Some(Class::Value(kind, 16))
}

/// `at..anchor_end` is a secret word (`key`, `Token`, `PASS`, …) somewhere in a name.
pub(crate) fn assignment(scan: &mut Scan, at: usize, anchor_end: usize) {
    if at < scan.name_end {
        return; // a second anchor in a name already looked at (`SECRET_KEY`)
    }
    let text = scan.text;
    let back = text[at.saturating_sub(MAX_NAME)..at].iter().rev().take_while(|&&b| name_byte(b)).count();
    let fwd = text[anchor_end..(anchor_end + MAX_NAME).min(text.len())].iter().take_while(|&&b| name_byte(b)).count();
    let (start, end) = (at - back, anchor_end + fwd);
    scan.name_end = end;
    if back + fwd + (anchor_end - at) >= MAX_NAME {
        return;
    }
    // `self.token`, `--password`: the name proper is what follows dots and dashes.
    let name = &text[start..end];
    let Some(class) = classify(name) else { return };
    let alias = |v: &[u8]| v.len() > name.len() && v[v.len() - name.len() - 1] == b'.' && v.ends_with(name);
    let Some(value_at) = operator(scan, start, end) else { return };
    match class {
        Class::Authorization => authorization(scan, value_at),
        Class::Value(kind, min_len) => {
            if let Some((vs, ve)) = value(scan, value_at)
                && plain_value(&text[vs..ve])
                && !alias(&text[vs..ve])
                && secret_value(&text[vs..ve], min_len)
            {
                let kind = match kind {
                    Kind::AwsSecretAccessKey if ve - vs != 40 => Kind::Secret,
                    k => k,
                };
                scan.push(vs, ve, kind);
            }
        }
    }
}

fn skip_blanks(text: &[u8], mut i: usize) -> usize {
    while matches!(text.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    i
}

/// After the name `start..end`: an assignment operator. Returns where the
/// value starts (blanks skipped).
fn operator(scan: &Scan, start: usize, end: usize) -> Option<usize> {
    let text = scan.text;
    let mut i = end;
    // A quoted name closes with the quote it opened with.
    if let Some(q @ (b'"' | b'\'')) = scan.before(start)
        && text.get(i) == Some(&q)
    {
        i += 1;
    }
    let quoted = i > end;
    i = skip_blanks(text, i);
    let after = |j: usize| text.get(j).copied();
    let value_at = match (after(i), after(i + 1)) {
        (Some(b'='), Some(b'>')) => i + 2,
        (Some(b'='), Some(b'=')) => return None,
        (Some(b'='), _) => i + 1,
        (Some(b':'), Some(b'=')) => i + 2,
        (Some(b':'), Some(b':')) => return None,
        // A bare `name:` is a key only when a blank or quote follows
        // (YAML, objects); `arn:aws:…:secret:x` and `host:port` are not.
        (Some(b':'), next) if quoted || matches!(next, Some(b' ' | b'\t' | b'"' | b'\'') | None) => {
            typed(text, i + 1).unwrap_or(i + 1)
        }
        _ => return None,
    };
    Some(skip_blanks(text, value_at))
}

/// `: &str =`, `: &'static str =`, `: crate::Oid =`, `: Option<String> =`: a
/// typed declaration; returns where the value starts after its `=`.
fn typed(text: &[u8], from: usize) -> Option<usize> {
    let i = skip_blanks(text, from);
    if !text.get(i).is_some_and(|&b| b.is_ascii_alphabetic() || matches!(b, b'&' | b'_' | b'[' | b'(')) {
        return None;
    }
    let ty = text[i..(i + 80).min(text.len())]
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b"_:<>&'[]();*, ".contains(&b))
        .count();
    let eq = i + ty;
    (text.get(eq) == Some(&b'=') && !matches!(text.get(eq + 1), Some(b'=' | b'>'))).then_some(eq + 1)
}

/// The value at `at`: inside matching quotes on the same line, or a bare run
/// up to a delimiter. Bare values that are code (calls, operands, fields) are none.
/// Values longer than this are not taken for one secret: tokens, keys and
/// passwords are far shorter (key blocks and JWTs have rules of their own),
/// and judging a megabyte-long "value" once per name in it would make a
/// hostile file cost quadratic time.
const MAX_VALUE: usize = 1024;

fn value(scan: &mut Scan, at: usize) -> Option<(usize, usize)> {
    let text = scan.text;
    let mut i = at;
    // String prefixes: Python's b"…", r"…", f"…" (f-strings are templates and fail later).
    if matches!(text.get(i), Some(b'b' | b'r' | b'u' | b'f' | b'B' | b'R' | b'U' | b'F'))
        && matches!(text.get(i + 1), Some(b'"' | b'\''))
    {
        i += 1;
    }
    match text.get(i).copied()? {
        q @ (b'"' | b'\'' | b'`') => {
            let close = scan.find_byte(i + 1, q)?;
            (close <= scan.line_end(i + 1) && close - (i + 1) <= MAX_VALUE).then_some((i + 1, close))
        }
        _ => {
            let mut end = scan.run_end(at, RunClass::Value);
            // A call or an index (`f (x)`), or an expression that goes on in
            // an argument list, object literal or field list (`key: Type,`,
            // `f(token=name)`), or an operand of `&&`, `||`, `|` (`flag &&
            // f()`, `A | B` types): code. A secret in code is a string literal.
            let next = skip_blanks(text, end);
            let operand = text[next..].starts_with(b"&&") || text[next..].starts_with(b"||");
            // A query string goes on with `&`: only a spaced `|` is an operator.
            if matches!(text.get(next), Some(b'(' | b'['))
                || operand
                || (next > end && text.get(next) == Some(&b'|'))
                || matches!(text.get(end), Some(b',' | b')'))
            {
                return None;
            }
            // A sentence may end right after the value: `… token=abc123.`
            while end > at && matches!(text[end - 1], b'.' | b':') {
                end -= 1;
            }
            (end - at <= MAX_VALUE).then_some((at, end))
        }
    }
}

/// Not code, not a template, not a path, URL, UUID or number: something a
/// secret could be.
fn plain_value(v: &[u8]) -> bool {
    let Some(&first) = v.first() else { return false };
    // A value starting with a closing or separating mark was taken from
    // between two string literals (`"token =",next:"`), not from inside one.
    if matches!(
        first,
        b'$' | b'%'
            | b'@'
            | b'&'
            | b'*'
            | b'!'
            | b':'
            | b'#'
            | b'<'
            | b'{'
            | b'['
            | b'('
            | b','
            | b';'
            | b')'
            | b']'
            | b'}'
    ) || is_path(v)
    {
        return false;
    }
    let contains = |s: &[u8]| memchr::memmem::find(v, s).is_some();
    // Templates, URLs (see url.rs), earlier redactions, AWS resource names.
    if contains(b"${")
        || contains(b"{{")
        || contains(b"%(")
        || contains(b"://")
        || contains(b"[REDACTED:")
        || v.starts_with(b"arn:")
    {
        return false;
    }
    // `{name}`/`{0}` placeholders of format strings.
    if let Some(open) = memchr::memchr(b'{', v)
        && v[open..].contains(&b'}')
    {
        return false;
    }
    // Escapes, calls, `crate::path` / `Class::CONST` paths and optional
    // chaining are code.
    if v.contains(&b'\\') || v.ends_with(b"()") || contains(b"::") || contains(b"?.") {
        return false;
    }
    if starts_with_attribute_path(v) {
        return false;
    }
    // Numbers, dates, versions, IP addresses; integer literals of code.
    if v.iter().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b':' | b'_' | b'+' | b'v')) || int_literal(v) {
        return false;
    }
    // Email addresses.
    if let Some(at) = memchr::memchr(b'@', v)
        && v[at..].contains(&b'.')
    {
        return false;
    }
    !is_uuid(v)
}

/// `process.env.API_KEY`, `self.token`, `NextBuildContext.key!`,
/// `request.seen=new`, `this.type===m.num`: the value opens with an
/// attribute path (identifiers joined by dots) that runs to its end or to
/// an operator. Random secrets do not put a dot between two identifiers.
fn starts_with_attribute_path(v: &[u8]) -> bool {
    let ident = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$');
    let path = v.iter().take_while(|b| ident(b) || **b == b'.').count();
    let (head, rest) = v.split_at(path);
    let segments_are_identifiers = head.split(|&b| b == b'.').all(|seg| {
        seg.first().is_some_and(|b| b.is_ascii_alphabetic() || matches!(b, b'_' | b'$')) && seg.iter().all(ident)
    });
    head.contains(&b'.')
        && segments_are_identifiers
        && rest.first().is_none_or(|b| matches!(b, b'=' | b'!' | b'?' | b'+' | b'-' | b'*' | b'/' | b'%' | b':'))
}

/// `0x80310037`, `301990915u32`, `-42L`: an integer literal of C, Rust, Java
/// or JavaScript. Hex runs longer than 16 digits (64 bits) are not
/// numbers but keys (`PRIVATE_KEY=0x4c08…`).
fn int_literal(v: &[u8]) -> bool {
    let digits = |s: &[u8], hex: bool| {
        s.iter().take_while(|b| if hex { b.is_ascii_hexdigit() } else { b.is_ascii_digit() } || **b == b'_').count()
    };
    let v = v.strip_prefix(b"-").unwrap_or(v);
    let (body, hex) = match v.strip_prefix(b"0x").or_else(|| v.strip_prefix(b"0X")) {
        Some(hex) => (hex, true),
        None => (v, false),
    };
    let n = digits(body, hex);
    let suffix = &body[n..];
    let known_suffix = [
        &b""[..],
        b"u8",
        b"u16",
        b"u32",
        b"u64",
        b"u128",
        b"usize",
        b"i8",
        b"i16",
        b"i32",
        b"i64",
        b"i128",
        b"isize",
        b"u",
        b"U",
        b"l",
        b"L",
        b"ul",
        b"UL",
        b"ll",
        b"LL",
        b"ull",
        b"ULL",
    ]
    .contains(&suffix);
    n > 0 && (!hex || n <= 16) && known_suffix
}

/// `/etc/app/key.pem`, `./secrets/token`, `~/.ssh/id_ed25519`, `C:\\keys`:
/// a path starts like one and its segments read as names. Base64 may start
/// with `/` too, but its segments are random.
fn is_path(v: &[u8]) -> bool {
    let rooted = [&b"/"[..], b"./", b"../", b"~/"].iter().any(|p| v.starts_with(p));
    let drive = v.len() > 2 && v[0].is_ascii_alphabetic() && v[1] == b':' && matches!(v[2], b'\\' | b'/');
    drive
        || rooted
            && v.split(|&b| b == b'/').all(|seg| {
                seg.len() <= 3
                    || seg
                        .iter()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-'))
                    || is_identifier(seg)
            })
}

/// UUID-shaped: 8-4-4-4-12 (of hex, or of letters and digits as examples write them).
fn is_uuid(v: &[u8]) -> bool {
    v.len() == 36
        && v.iter()
            .enumerate()
            .all(|(i, &b)| if matches!(i, 8 | 13 | 18 | 23) { b == b'-' } else { b.is_ascii_alphanumeric() })
}

/// `Authorization: Bearer <credential>` and the like: the credential after
/// the scheme word, or the whole value when there is no scheme.
fn authorization(scan: &mut Scan, at: usize) {
    let text = scan.text;
    let mut i = at;
    if matches!(text.get(i), Some(b'"' | b'\'')) {
        i += 1;
    }
    let word = text[i..].iter().take_while(|b| b.is_ascii_alphabetic()).count();
    let scheme = text[i..i + word].to_ascii_lowercase();
    let (start, min_len) = if matches!(scheme.as_slice(), b"bearer" | b"basic" | b"token" | b"bot" | b"digest")
        && text.get(i + word) == Some(&b' ')
    {
        (skip_blanks(text, i + word), if scheme == b"basic" { 8 } else { 16 })
    } else {
        (i, 16)
    };
    let end =
        start + text[start..].iter().take_while(|&&b| b.is_ascii_alphanumeric() || b"-._~+/=".contains(&b)).count();
    let credential = &text[start..end];
    if plain_value(credential) && secret_value(credential, min_len) {
        scan.push(start, end, Kind::Authorization);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_is_not_a_value() {
        for v in [
            "process.env.API_KEY",
            "self._lib.NID_aes_256_cbc",
            "os.environ",
            "${API_KEY}",
            "crate::Oid",
            "{token}",
            "arn:aws:kms:x",
            "NextBuildContext.encryptionKey!",
            "request.didWarnForKey=new",
            "tree.segment===VALUE",
            "loaderProps.config?.loader",
            "options?.nodeTypeKey",
            "0x80310037",
            "301990915u32",
            "-2147212282i32",
            ",DuplicateBinding:",
        ] {
            assert!(!plain_value(v.as_bytes()), "{v}");
        }
        for v in [
            "Zk3mQ9vW2xR7tY4pL8nB",
            "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
            "aGVsbG8gd29ybGQ==",
        ] {
            assert!(plain_value(v.as_bytes()), "{v}");
        }
    }

    #[test]
    fn names_split_into_words() {
        assert_eq!(words(b"AWS_SECRET_ACCESS_KEY"), ["aws", "secret", "access", "key"]);
        assert_eq!(words(b"clientSecret"), ["client", "secret"]);
        assert_eq!(words(b"HTTPApiKey2"), ["http", "api", "key2"]);
        assert_eq!(words(b"S3Key"), ["s3", "key"]);
        assert_eq!(words(b"spring.datasource.password"), ["spring", "datasource", "password"]);
        assert_eq!(words(b"--api-key"), ["api", "key"]);
    }

    #[test]
    fn names_decide_the_kind() {
        let kind = |n: &str| match classify(n.as_bytes()) {
            Some(Class::Value(k, _)) => Some(k.name()),
            Some(Class::Authorization) => Some("authorization"),
            None => None,
        };
        assert_eq!(kind("DB_PASSWORD"), Some("password"));
        assert_eq!(kind("PGPASSWORD"), Some("password"));
        assert_eq!(kind("MYSQL_PWD"), Some("password"));
        assert_eq!(kind("clientSecret"), Some("secret"));
        assert_eq!(kind("SECRET_KEY"), Some("secret"));
        assert_eq!(kind("aws_secret_access_key"), Some("aws_secret_access_key"));
        assert_eq!(kind("GITHUB_TOKEN"), Some("token"));
        assert_eq!(kind("accessToken"), Some("token"));
        assert_eq!(kind("apiKey"), Some("api_key"));
        assert_eq!(kind("X-Api-Key"), Some("api_key"));
        assert_eq!(kind("apikey"), Some("api_key"));
        assert_eq!(kind("TWILIO_AUTH_TOKEN"), Some("twilio_key"));
        assert_eq!(kind("AccountKey"), Some("azure_storage_key"));
        assert_eq!(kind("Authorization"), Some("authorization"));
        for n in
            ["key", "public_key", "primary_key", "next_token", "eos_token", "tokens", "monkey", "tokenizer", "bypass"]
        {
            assert_eq!(kind(n), None, "{n}");
        }
    }
}
