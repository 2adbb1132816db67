//! Counted nouns in answers, daemon's and clients' alike: `1 file`, `3 files`, `2 matches`, never
//! `3 file(s)`, which reads as unsure of its own count.

/// `1 match` / `3 matches`, `1 call site` / `3 call sites`.
pub fn count(n: u64, thing: &str) -> String {
    if n == 1 {
        return format!("1 {thing}");
    }
    let suffix = if ["ch", "sh", "s", "x"].iter().any(|end| thing.ends_with(end)) { "es" } else { "s" };
    format!("{n} {thing}{suffix}")
}

/// `one` for 1, `many` otherwise (a verb or pronoun agreeing with a count: `is`/`are`).
pub fn agree<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_english() {
        assert_eq!(count(1, "file"), "1 file");
        assert_eq!(count(0, "file"), "0 files");
        assert_eq!(count(3, "match"), "3 matches");
        assert_eq!(count(2, "call site"), "2 call sites");
        assert_eq!(count(2, "hash"), "2 hashes");
        assert_eq!(agree(1, "is", "are"), "is");
        assert_eq!(agree(4, "is", "are"), "are");
    }
}
