//! Is a value random enough to be a secret? Shannon entropy plus character
//! class, placeholder and "reads like words" checks.
//!
//! Token formats use [`random_body`] with a low bar (their prefix already
//! says "secret"; only dummies like `ghp_xxxx…` must be spared). Values under
//! secret-looking names use [`secret_value`], which must also reject the
//! code, templates and configuration that fill such assignments in ordinary
//! source.

/// Shannon entropy of the bytes, in bits per byte.
pub(crate) fn shannon(v: &[u8]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut counts = [0u32; 256];
    for &b in v {
        counts[b as usize] += 1;
    }
    let n = v.len() as f64;
    counts.iter().filter(|&&c| c > 0).map(|&c| f64::from(c) / n).map(|p| -p * p.log2()).sum()
}

/// Words that mark a value as a stand-in, not a secret.
const PLACEHOLDER_WORDS: &[&str] = &[
    "example",
    "xxxx",
    "****",
    "....",
    "change",
    "placeholder",
    "dummy",
    "sample",
    "your",
    "fake",
    "redacted",
    "replace",
    "insert",
    "todo",
    "fixme",
    "secret",
    "passw",
    "token",
    "apikey",
    "api_key",
    "test",
    "mock",
    "foobar",
    "lorem",
    "default",
    "none",
    "null",
    "undefined",
    "invalid",
    "hunter2",
    "letmein",
    "qwerty",
    "1234",
    "abcd",
    "here",
    "fill",
    "enter",
    "sometoken",
    "somekey",
    "my_key",
    "mykey",
    "demo",
];

/// Words weak demo passwords are made of, beside [`PLACEHOLDER_WORDS`]:
/// `P@55w0rd`, `4dm1n`, `W3lc0me`.
const DUMMY_WORDS: &[&str] =
    &["password", "passwd", "pass", "word", "admin", "root", "welcome", "login", "user", "key", "me", "my"];

/// Whether `v` says it is a stand-in: a placeholder word of five letters or
/// more, four-letter ones covering at least eight bytes (a random 40-byte
/// key holds some four-letter word about once in 2,500, two almost never),
/// or a run of one repeated character (`xxxxxxxx`, `00000000`). With `leet`
/// (assigned values), also a value that is nothing but such words in
/// leetspeak ([`spells_dummy_words`]).
pub(crate) fn is_placeholder(v: &[u8], leet: bool) -> bool {
    let lower = v.to_ascii_lowercase();
    let mut covered = 0;
    for word in PLACEHOLDER_WORDS {
        let hits = memchr::memmem::find_iter(&lower, word.as_bytes()).count();
        if hits > 0 && word.len() >= 5 {
            return true;
        }
        covered += hits * word.len();
    }
    if covered >= 8 || (leet && spells_dummy_words(&lower)) {
        return true;
    }
    let mut longest = 0;
    let mut current = 0;
    for (i, &b) in v.iter().enumerate() {
        current = if i > 0 && v[i - 1] == b { current + 1 } else { 1 };
        longest = longest.max(current);
    }
    longest >= 6
}

/// Whether the lowercased `lower` is leetspeak of dummy words and nothing
/// else: words of [`PLACEHOLDER_WORDS`] or [`DUMMY_WORDS`], maybe joined by
/// `_`, `-` or `.`, maybe followed by a few digits and punctuation, as password
/// rules make people add (`p@55w0rd!`, `s3cr3t`, `ch4ng3m3`, `p4ss_w0rd123`).
/// A word hidden among other characters does not make a dummy: a
/// strong-looking password built around one (`s3cr3tpa55w0rdz`) is a
/// secret. (Token bodies are not looked at this way: they are full of
/// digits, and their prefix already says what they are.)
fn spells_dummy_words(lower: &[u8]) -> bool {
    let letter = |b: u8, want: u8| {
        b == want
            || want
                == match b {
                    b'0' => b'o',
                    b'1' => b'i',
                    b'3' => b'e',
                    b'4' | b'@' => b'a',
                    b'5' | b'$' => b's',
                    b'7' => b't',
                    _ => return false,
                }
    };
    let spells = |at: usize, word: &str| {
        lower.get(at..at + word.len()).is_some_and(|part| part.iter().zip(word.bytes()).all(|(&b, w)| letter(b, w)))
    };
    // `ends[i]`: `lower[..i]` is one or more words with separators between them.
    let mut ends = vec![false; lower.len() + 1];
    for at in 0..lower.len() {
        let after_word = ends[at];
        if at > 0 && !after_word {
            continue;
        }
        if after_word
            && matches!(lower[at], b'_' | b'-' | b'.')
            && lower.get(at + 1).is_some_and(u8::is_ascii_alphanumeric)
        {
            // A separator is followed by a word or by nothing that counts.
            let next = at + 1;
            for word in PLACEHOLDER_WORDS.iter().chain(DUMMY_WORDS) {
                if spells(next, word) {
                    ends[next + word.len()] = true;
                }
            }
            continue;
        }
        for word in PLACEHOLDER_WORDS.iter().chain(DUMMY_WORDS) {
            if spells(at, word) {
                ends[at + word.len()] = true;
            }
        }
    }
    // The words say what the value is only when they are most of it: at least four letters' worth
    // (`me`, `my`, `key` alone are no demo password) and a short tail (`!`, `123`, `2024!`): a
    // strong password that starts with a word (`root_4829!7361@92`) is a secret.
    (MIN_WORDS..=lower.len())
        .any(|end| ends[end] && lower.len() - end <= MAX_TAIL && lower[end..].iter().all(|b| !b.is_ascii_alphabetic()))
}

/// The fewest bytes of words a leetspeak dummy spells ([`spells_dummy_words`]).
const MIN_WORDS: usize = 4;

/// The most digits and punctuation a leetspeak dummy ends with ([`spells_dummy_words`]).
const MAX_TAIL: usize = 5;

/// Whether `v` is shaped like a name rather than random: snake_case,
/// kebab-case, CONSTANT_CASE, dotted, camelCase or PascalCase words, each
/// longer word made of common English letter pairs, digits only at the end
/// of a word. Random strings seldom have that shape: base62 puts capitals
/// and digits anywhere and pairs letters at random; a single-case random
/// string has no separators, so it is never called a name (character
/// classes judge it instead). Of random base62 and base64url strings, about
/// 1 in 1,000 of 16 bytes is taken for a name, 1 in 5,000 of 20, 1 in 50,000
/// of 24, none of 50,000 of 32.
pub(crate) fn is_identifier(v: &[u8]) -> bool {
    is_name(v).unwrap_or(false)
}

fn is_name(v: &[u8]) -> Option<bool> {
    // Marks around a name (`__private`, `__reactListeners$`, `prefix=`) do
    // not make it random; `$`, `/` and `=` inside join names as the other
    // separators do (`io.example/serverInfo`, `StrictHostKeyChecking=no`).
    let edge = |b: &u8| matches!(b, b'_' | b'$' | b'=');
    let v = &v[v.iter().take_while(|b| edge(b)).count()..];
    let v = &v[..v.len() - v.iter().rev().take_while(|b| edge(b)).count()];
    let split = |b: &u8| matches!(b, b'_' | b'-' | b'.' | b':' | b'$' | b'/' | b'=');
    if !v.iter().all(|b| b.is_ascii_alphanumeric() || split(b)) {
        return Some(false);
    }
    // With separators a single-case part may be any word with a vowel
    // (`pydantic-mypy`, `win32typing`): random strings with separators are
    // base64url, whose parts mix case.
    let several = v.iter().any(split);
    let mut parts = 0;
    let mut words = 0;
    let mut in_words = 0;
    for part in v.split(split).filter(|p| !p.is_empty()) {
        // Short single-case parts between separators are abbreviations
        // (`AWS_ACCESS_KEY_ID`, `_lib`), and count as words.
        let short =
            part.len() <= 3 && (part.iter().all(u8::is_ascii_lowercase) || part.iter().all(u8::is_ascii_uppercase));
        let (n, long) = if several && (loose_word(part) || short) { (1, part.len()) } else { part_words(part)? };
        words += n;
        in_words += long;
        parts += 1;
    }
    // Most letters of a name are in real words; random strings that happen
    // to fit the shape are made of one- to three-letter humps.
    let letters = v.iter().filter(|b| b.is_ascii_alphabetic()).count();
    // One capitalised word is a name if it reads as one (`Explainabilities`).
    let capitalised = v.len() >= 6 && v[0].is_ascii_uppercase() && v[1..].iter().all(u8::is_ascii_lowercase);
    Some((parts >= 2 || words >= 2 || (capitalised && word_like(v))) && in_words * 2 >= letters)
}

/// Letters of `w` if it is a real word: four or more, reading as English
/// (acronyms do not count, `DATABASE` does).
fn long(w: &[u8]) -> usize {
    if w.len() >= 4 && english(w) { w.len() } else { 0 }
}

/// A part between separators that is one word, maybe with a version in it
/// (`pydantic`, `win32typing`, `HKEY`): single-case, mostly letters, a vowel.
fn loose_word(part: &[u8]) -> bool {
    let letters = part.iter().filter(|b| b.is_ascii_alphabetic()).count();
    let single_case = part.iter().all(|b| !b.is_ascii_uppercase()) || part.iter().all(|b| !b.is_ascii_lowercase());
    part.len() >= 4 && single_case && letters * 4 >= part.len() * 3 && part.iter().any(|b| b"aeiouyAEIOUY".contains(b))
}

/// Whether a token body is words joined by separators (`spinner-pulse-dots`,
/// `SOME_CONSTANT_NAME`) rather than random: every part single-case letters.
fn is_words(v: &[u8]) -> bool {
    let mut parts = v.split(|b| matches!(b, b'_' | b'-' | b'.')).filter(|p| !p.is_empty()).peekable();
    let several = v.iter().any(|b| matches!(b, b'_' | b'-' | b'.'));
    several
        && parts.peek().is_some()
        && parts.all(|p| {
            (p.iter().all(u8::is_ascii_lowercase) || p.iter().all(u8::is_ascii_uppercase))
                && (p.len() <= 3 || word_like(p))
        })
}

/// The 286 most frequent letter pairs of English text.
const COMMON_PAIRS: &str = "th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se ha as ou io le ve co \
    me de hi ri ro ic ne ea ra ce li ch ll be ma si om ur ca el ta la ns di fo ho pe ec pr no ct us ac ot il tr ly nc \
    et ut ss so rs un lo wa ge ie wh ee wi em ad ol rt po we na ul ni ts mo ow pa im mi ai sh ir su id os iv ia am fi \
    ci vi pl ig tu ev ld ry mp fe bl ab gh ty op wo sa ay ex ke fr oo av ag if ap gr od bo sp rd do uc bu ei ov by rm \
    ep tt oc fa ef cu rn sc gi da yo cr cl du ga qu ue ff ba ey ls va um pp ua up lu go ht ru ug ds lt pi rc rr eg au \
    ck ew mu br bi pt ak pu ui rg ib tl ny ki rk ys ob mm fu ph og ms ye ud mb ip ub oi rl gu dr hr cc tw ft wn nu af \
    hu nn eo vo rv nf xp gn sm fl iz ok nl my gl aw ju oa eq sy sl ps jo lf nv je nk kn gs dy hy ze ks xt bs ik dd cy \
    rp sk xi oe oy ws lv dl rf eu dg wr xa yi nm eb rb tm xc eh tc gy ja hn yp za";

/// Two-letter words that stand as a capitalised word in names (`PlugIn`,
/// `TimeOfDay`, `userId`).
const SHORT_WORDS: &[&[u8]] = &[
    b"in", b"of", b"to", b"is", b"by", b"on", b"at", b"id", b"ok", b"db", b"as", b"if", b"or", b"no", b"up", b"do",
    b"go", b"io", b"os", b"my", b"an", b"be", b"it", b"me", b"we", b"ui", b"fs", b"vm", b"ip", b"fn",
];

fn common_pair(a: u8, b: u8) -> bool {
    let pair = [a.to_ascii_lowercase(), b.to_ascii_lowercase()];
    COMMON_PAIRS.as_bytes().chunks(3).any(|c| c[..2] == pair)
}

/// A word of five letters or more reads as English if three in five of its
/// letter pairs are common ones, of four if two of its three are; shorter
/// words (`cfg`, `Vpc`) and acronyms of up to five capitals pass.
fn word_like(w: &[u8]) -> bool {
    (w.len() <= 5 && w.iter().all(u8::is_ascii_uppercase)) || english(w)
}

fn english(w: &[u8]) -> bool {
    let common = w.windows(2).filter(|p| common_pair(p[0], p[1])).count();
    match w.len() {
        ..=3 => true,
        4 => common >= 2,
        n => common * 5 >= (n - 1) * 3,
    }
}

/// Words in one separator-free part if it is a name (`lower`, `UPPER`,
/// `camelCase2`, `HTTPServer`, `v2`), `None` if it is not.
fn part_words(part: &[u8]) -> Option<(usize, usize)> {
    if part.iter().all(u8::is_ascii_digit) {
        return Some((0, 0));
    }
    let letters = part.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    if letters < part.len() && !part[letters..].iter().all(u8::is_ascii_digit) {
        // Digits inside a part only end a camel word (`utf8Decoder`).
        let digits = part[letters..].iter().take_while(|b| b.is_ascii_digit()).count();
        let rest = &part[letters + digits..];
        if !(rest.first().is_some_and(u8::is_ascii_uppercase) && rest.get(1).is_some_and(u8::is_ascii_lowercase)) {
            return None;
        }
        // Before digits a word may be a bare capitalised pair (`Ed25519Key`).
        let head = if letters == 2 && part[0].is_ascii_uppercase() { (1, 0) } else { part_words(&part[..letters])? };
        let tail = part_words(rest)?;
        return Some((head.0 + tail.0, head.1 + tail.1));
    }
    let word = &part[..letters];
    if word.iter().all(u8::is_ascii_lowercase) || word.iter().all(u8::is_ascii_uppercase) {
        // Short single-case parts are abbreviations (`cbc`, `ctx`, `NID`).
        return (word.len() <= 3 || word_like(word)).then_some((1, long(word)));
    }
    // camelCase / PascalCase: a lowercase first word, then capitalised
    // words and whole acronyms.
    let mut words = 0;
    let mut in_words = 0;
    let mut acronyms = 0;
    let mut i = 0;
    while i < word.len() {
        let caps = word[i..].iter().take_while(|b| b.is_ascii_uppercase()).count();
        let lower_after = |at: usize| word[at..].iter().take_while(|b| b.is_ascii_lowercase()).count();
        let (start, end) = match caps {
            0 if i == 0 => (0, lower_after(0)),
            0 => return None,
            // A final capital (`ProviderA`, `LightX`).
            1 if i + 1 == word.len() => (i, i + 1),
            1 => {
                let end = i + 1 + lower_after(i + 1);
                let short = end - i == 2 && SHORT_WORDS.contains(&word[i..end].to_ascii_lowercase().as_slice());
                if end - i < 3 && !short {
                    return None;
                }
                (i, end)
            }
            _ if acronyms > 0 => return None, // one acronym a word at most
            _ => match lower_after(i + caps) {
                0 => (i, i + caps),
                // `HTTPServer`: the acronym's last capital starts the next word.
                n if caps >= 3 && n >= 2 => {
                    if !word_like(&word[i..i + caps - 1]) {
                        return None;
                    }
                    words += 1;
                    (i + caps - 1, i + caps + n)
                }
                _ => return None,
            },
        };
        if !word_like(&word[start..end]) {
            return None;
        }
        if caps >= 2 {
            acronyms += 1;
        }
        words += 1;
        in_words += long(&word[start..end]);
        i = end;
    }
    Some((words, in_words))
}

/// Character classes present: lowercase, uppercase, digit, other.
pub(crate) fn classes(v: &[u8]) -> usize {
    let mut seen = [false; 4];
    for &b in v {
        let i = match b {
            b'a'..=b'z' => 0,
            b'A'..=b'Z' => 1,
            b'0'..=b'9' => 2,
            _ => 3,
        };
        seen[i] = true;
    }
    seen.iter().filter(|&&s| s).count()
}

/// The random part of a token whose prefix already names its format: not a
/// placeholder, not a repetition, not words joined by separators.
pub(crate) fn random_body(body: &[u8]) -> bool {
    !is_placeholder(body, false) && shannon(body) >= 2.5 && !is_words(body)
}

/// Whether an assigned value is random enough to be a secret: at least
/// `min_len` bytes, printable ASCII without spaces, not a placeholder, not
/// a name, at least two character classes (or 24 bytes long), and entropy
/// that rises with length.
pub(crate) fn secret_value(v: &[u8], min_len: usize) -> bool {
    if v.len() < min_len || v.len() > 1024 || !v.iter().all(|b| b.is_ascii_graphic()) {
        return false;
    }
    // The 1-in-10,000 quantile of random hex (the smallest alphabet keys
    // use) is 2.4 bits at 16 bytes, 2.75 at 24, 3.0 at 32: stay under it.
    let threshold = match v.len() {
        ..24 => 2.3,
        24..32 => 2.6,
        _ => 2.9,
    };
    !is_placeholder(v, true) && (classes(v) >= 2 || v.len() >= 24) && shannon(v) >= threshold && !is_identifier(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entropy_of_simple_strings() {
        assert_eq!(shannon(b""), 0.0);
        assert_eq!(shannon(b"aaaa"), 0.0);
        assert!((shannon(b"abab") - 1.0).abs() < 1e-9);
        assert!((shannon(b"0123456789abcdef") - 4.0).abs() < 1e-9);
    }

    #[test]
    fn names_are_not_random() {
        for v in [
            "getApiKeyFromEnvironment",
            "DATABASE_PASSWORD",
            "my-service-config",
            "HTTPServerConfig",
            "utf8Decoder",
            "parseJSON",
            "v2_beta",
            "ed25519.Ed25519PrivateKey",
            "modelCopyJobSummaries",
            "VpcEndpointConnections",
            "Explainabilities",
            "pydantic-mypy-metadata",
            "lambda:createdBy",
            "BatchedProviderA",
            "AWS_ACCESS_KEY_ID",
            "_ListenerFnKeyType",
            "__reactListeners$",
            "resource_metadata=",
            "StrictHostKeyChecking=no",
            "io.modelcontextprotocol/serverInfo",
        ] {
            assert!(is_identifier(v.as_bytes()), "{v}");
        }
        for v in [
            "a8Fk2LmQz9Xw3PtR7vB1",
            "5d41402abc4b2a76b9719d911017c592",
            "Zk3mQ9vW2xR7tY4pL8nB",
            "JBSWY3DPEHPK3PXP",
            "qwhzkxmprtlsvbnd",
        ] {
            assert!(!is_identifier(v.as_bytes()), "{v}");
        }
    }

    /// Random values of the alphabets keys are made of are secrets, not
    /// names or placeholders: at most 1 in 2,000 missed from 20 bytes, 1 in
    /// 200 at 16 (`cargo test -- --nocapture` prints the rates).
    #[test]
    fn random_values_are_secrets() {
        use crate::testing::{ALNUM, B64, B64URL, HEX, Rng, UPPER_DIGITS};
        let mut rng = Rng::new(3);
        let lower36 = "abcdefghijklmnopqrstuvwxyz0123456789";
        // Single-case alphabets without a digit drawn are one class, which
        // below 24 bytes is not taken for a secret: test those from 24.
        for (alphabet, from) in [(ALNUM, 16), (B64URL, 16), (HEX, 16), (B64, 16), (UPPER_DIGITS, 24), (lower36, 24)] {
            for len in [16, 20, 24, 32, 40].into_iter().filter(|l| *l >= from) {
                let n = 10_000;
                let missed = (0..n).filter(|_| !secret_value(rng.string(alphabet, len).as_bytes(), 16)).count();
                println!("{len:2} bytes of {alphabet}: {missed} of {n} missed");
                let allowed = if len >= 20 { n / 2000 } else { n / 200 };
                assert!(missed <= allowed, "{missed} of {n} random {len}-byte values from {alphabet} missed");
            }
        }
    }

    /// Token bodies after a known prefix: random ones always pass.
    #[test]
    fn random_bodies_pass() {
        use crate::testing::{ALNUM, B64URL, Rng, UPPER_DIGITS};
        let mut rng = Rng::new(4);
        for (alphabet, len) in [(UPPER_DIGITS, 16), (ALNUM, 36), (B64URL, 20), (B64URL, 35), (ALNUM, 24)] {
            let missed = (0..10_000).filter(|_| !random_body(rng.string(alphabet, len).as_bytes())).count();
            assert!(missed <= 1, "{missed} of 10000 random {len}-byte bodies from {alphabet} missed");
        }
        for words in ["spinner-pulse-dots", "SOME_CONSTANT_NAME", "xxxxxxxxxxxxxxxxxxxx"] {
            assert!(!random_body(words.as_bytes()), "{words}");
        }
    }

    #[test]
    fn secret_values() {
        assert!(secret_value(b"a8Fk2LmQz9Xw3PtR7vB1", 16));
        assert!(secret_value(b"Tr0ub4dor&3x", 8));
        for v in [
            "changeme",
            "xxxxxxxxxxxxxxxxxxxx",
            "your-api-key-here",
            "aaaaaaaabbbbbbbb",
            "short",
            "has space in it",
            "P@55w0rd!",
            "s3cr3t-k3y",
            "Ch4ng3M3",
            "p4ssw0rd_123",
            "W3lc0me2024!",
        ] {
            assert!(!secret_value(v.as_bytes(), 8), "{v}");
        }
    }

    /// Leetspeak makes a dummy only when it spells dummy words and nothing
    /// else; a strong password that hides one is a secret (a tester's URL
    /// password was left in view).
    #[test]
    fn leetspeak_around_other_characters_is_a_secret() {
        for v in ["S3cr3tPa55w0rdZ", "xS3cr3t9Kq2Lw", "Pa55w0rd-Zq8Kv3Lm"] {
            assert!(secret_value(v.as_bytes(), 6), "{v}");
        }
        // Nor does a short word a strong password starts with (a review's finding).
        for v in [
            "Key#8274!@93$7261",
            "my!93847261#5520",
            "root_4829!7361@92",
            "admin!9284#7361$",
            "user.92837465!@#",
            "me2847561938475610",
        ] {
            assert!(secret_value(v.as_bytes(), 6), "{v}");
        }
    }
}
