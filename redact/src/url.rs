//! Passwords in URLs: `scheme://user:password@host…`. Only the password is
//! replaced; scheme, user and host stay, so `postgres://app:[REDACTED:…]@db:5432/app`
//! still says which database a line is about.

use crate::entropy::secret_value;
use crate::kind::Kind;
use crate::scan::Scan;

/// Schemes of databases, caches and brokers: their passwords are reported as
/// `connection_password`, every other scheme's as `url_password`.
const DATA_SCHEMES: &[&str] = &[
    "postgres",
    "postgresql",
    "mysql",
    "mariadb",
    "mongodb",
    "redis",
    "rediss",
    "amqp",
    "amqps",
    "mssql",
    "sqlserver",
    "oracle",
    "cockroachdb",
    "clickhouse",
    "cassandra",
    "couchdb",
    "memcached",
    "nats",
    "kafka",
    "neo4j",
    "influxdb",
    "elasticsearch",
    "opensearch",
    "db2",
    "snowflake",
];

/// Bytes that end a URL's authority (and so bound the search for `@`).
fn ends_authority(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'/' | b'?' | b'#' | b'"' | b'\'' | b'`' | b'<' | b'>' | b'\\')
}

/// `at` is the position of `://`.
pub(crate) fn userinfo(scan: &mut Scan, at: usize) {
    let text = scan.text;
    // Schemes are short: look back 33 bytes at most.
    let from = at.saturating_sub(33);
    let scheme_start =
        match text[from..at].iter().rposition(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-'))) {
            Some(i) => from + i + 1,
            None if from == 0 => 0,
            None => return,
        };
    let scheme = &text[scheme_start..at];
    if scheme.is_empty() || !scheme[0].is_ascii_alphabetic() {
        return;
    }
    let start = at + 3;
    // Bounded by the next `/` at the latest, so with the `://` after it
    // every byte is looked at from one anchor only.
    let authority_end = text[start..].iter().position(|&b| ends_authority(b)).map_or(text.len(), |n| start + n);
    let authority = &text[start..authority_end];
    if authority.len() > 512 {
        return;
    }
    // The host follows the last `@`; a password with a raw `@` is still taken whole.
    let Some(at_sign) = memchr::memrchr(b'@', authority).map(|i| start + i) else {
        return;
    };
    let Some(colon) = memchr::memchr(b':', &text[start..at_sign]).map(|i| start + i) else {
        return;
    };
    let (user, password) = (&text[start..colon], &text[colon + 1..at_sign]);
    if password != user && url_password(password) {
        let base = scheme.split(|&b| b == b'+').next().unwrap_or(scheme).to_ascii_lowercase();
        let kind = if DATA_SCHEMES.iter().any(|s| s.as_bytes() == base.as_slice()) {
            Kind::ConnectionPassword
        } else {
            Kind::UrlPassword
        };
        scan.push(colon + 1, at_sign, kind);
    }
}

/// A real password rather than a template (`{password}`, `${PASS}`, `%s`,
/// `<password>`, `****`, an earlier redaction) or a dummy (`pass`,
/// `postgres`, `changeme`): percent escapes must be well formed, and the
/// rest is the named-value test with a minimum of 6 bytes.
fn url_password(p: &[u8]) -> bool {
    // `:` and `,` mean the `@` closed something else (`host:1,user:x@host2`).
    if p.iter().any(|b| matches!(b, b'$' | b'{' | b'}' | b'<' | b'>' | b'[' | b']' | b'*' | b'(' | b')' | b':' | b','))
    {
        return false;
    }
    let escapes_ok = p
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'%')
        .all(|(i, _)| p.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)));
    escapes_ok && secret_value(p, 6)
}

#[cfg(test)]
mod tests {
    use crate::Redactor;

    /// A strong password that hides a placeholder word in leetspeak is still a password (a
    /// tester's were left in view); one that is nothing but such words stays, as a dummy.
    #[test]
    fn leetspeak_passwords_are_judged_whole() {
        let r = Redactor::new();
        let text =
            "API = \"https://deploy:S3cr3tPa55w0rdZ@git.acme-corp.io/x\"\npostgres://admin:S3cr3tPa55w0rdZ@db:5432/p\n";
        assert_eq!(
            r.redact(text).text,
            "API = \"https://deploy:[REDACTED:url_password]@git.acme-corp.io/x\"\n\
             postgres://admin:[REDACTED:connection_password]@db:5432/p\n"
        );
        let dummy = "postgres://admin:P@55w0rd!@db:5432/p\n";
        assert!(r.redact(dummy).is_clean(), "{}", r.redact(dummy).text);
    }
}
