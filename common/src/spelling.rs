//! Near misses of a name: the "did you mean" of messages about a word the
//! user typed (a config key, a tool name, a symbol).

/// Edits that turn `a` into `b`, over characters: inserting, deleting or changing one, or swapping
/// two adjacent ones (`laod` is one edit from `load`: the commonest typo is one swap).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // Three rows of the table: the one before the last (for a swap), the last, the new one.
    let mut before = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    let mut row = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let change = last[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            row[j] = (last[j] + 1).min(row[j - 1] + 1).min(change);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut last);
        std::mem::swap(&mut last, &mut row);
    }
    last[b.len()]
}

/// How many edits a word of `chars` characters may be from what was meant: a third of them, at
/// least one (`nope` is two edits from `copy`, which it does not mean; `laod` one from `load`).
pub fn edit_budget(chars: usize) -> usize {
    (chars / 3).max(1)
}

/// The candidate nearest to `word`, when it is near enough to be what was
/// meant ([`edit_budget`]), so a typo finds its key and an unrelated word
/// finds nothing.
pub fn closest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let budget = edit_budget(word.chars().count());
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
        assert_eq!(edit_distance("laod", "load"), 1, "a swap is one edit");
        assert_eq!(edit_distance("load_users", "load_user"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("nope", "copy"), 2);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("ca", "abc"), 3, "optimal string alignment: no edit of a swapped pair");
        assert_eq!(edit_distance("über", "üebr"), 1);
    }

    #[test]
    fn the_closest_candidate_is_offered_only_when_near() {
        let keys = ["idle_timeout_secs", "drain_timeout_secs", "redaction"];
        assert_eq!(closest("idle_timout_secs", keys), Some("idle_timeout_secs"));
        assert_eq!(closest("redactoin", keys), Some("redaction"));
        assert_eq!(closest("colour", keys), None);
        assert_eq!(closest("mdoe", ["mode", "node"]), Some("mode"));
        assert_eq!(closest("nope", ["copy"]), None);
    }
}
