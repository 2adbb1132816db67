//! Near misses of a name: the "did you mean" of messages about a word the
//! user typed (a config key, a tool name, a symbol).

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The candidate nearest to `word`, when it is near enough to be what was
/// meant: a third of the word's characters may differ (at least two), so a
/// typo finds its key and an unrelated word finds nothing.
pub fn closest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let budget = (word.chars().count() / 3).max(2);
    candidates
        .into_iter()
        .map(|candidate| (edit_distance(word, candidate), candidate))
        .filter(|(distance, _)| *distance <= budget)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_single_character_edits() {
        assert_eq!(edit_distance("load", "load"), 0);
        assert_eq!(edit_distance("laod", "load"), 2);
        assert_eq!(edit_distance("load_users", "load_user"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn the_closest_candidate_is_offered_only_when_near() {
        let keys = ["idle_timeout_secs", "drain_timeout_secs", "redaction"];
        assert_eq!(closest("idle_timout_secs", keys), Some("idle_timeout_secs"));
        assert_eq!(closest("redactoin", keys), Some("redaction"));
        assert_eq!(closest("colour", keys), None);
    }
}
