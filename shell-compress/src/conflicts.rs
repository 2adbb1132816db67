//! Merge conflicts as git reports them: `CONFLICT (…)` lines of a merge, rebase, cherry-pick, pull or stash
//! pop, and the unmerged paths of `git status`.
//!
//! A conflict is a fact the agent needs: each path must be resolved. But a list of thousands is not read, and
//! grows the view without bound, so past [`CONFLICTS_SHOWN`] the rest are counted on one line that gives the
//! total and says where the full list is, as the other long lists of git's output do.

use crate::plan::Plan;

/// Conflicts shown as git printed them; past this many (and two more, which a count would hardly save) the
/// rest are counted.
pub(crate) const CONFLICTS_SHOWN: usize = 30;

/// Shows every `CONFLICT (…)` line of a merge's report up to [`CONFLICTS_SHOWN`]; past it the rest go, each
/// with the `Auto-merging PATH` line git printed just before it for the same path, counted on one line with
/// the total. A conflict protection shows anyway (a path naming an error, one among a failure's last lines)
/// stays shown and is not counted.
pub(crate) fn budget_reports(plan: &mut Plan, failed: bool) {
    let conflicts: Vec<usize> = (0..plan.len()).filter(|&i| plan.line(i).starts_with("CONFLICT (")).collect();
    let with_merging = |plan: &Plan, i: usize| {
        let merging = i.checked_sub(1).and_then(|before| plan.line(before).strip_prefix("Auto-merging "));
        let same_path =
            merging.is_some_and(|path| plan.line(i).strip_suffix(path).is_some_and(|head| head.ends_with(" in ")));
        if same_path { vec![i - 1, i] } else { vec![i] }
    };
    let total = conflicts.len();
    keep_first(plan, &conflicts, with_merging, failed, |hidden, lines| {
        let merging = match lines - hidden {
            0 => String::new(),
            n => format!(", with {n} Auto-merging lines"),
        };
        format!("… {hidden} more conflicts not shown ({total} in all{merging}); ctx_expand has them")
    });
}

/// Shows the unmerged paths `entries` of one kind of a `git status` (`both modified:`, `UU`) as git printed
/// them up to [`CONFLICTS_SHOWN`], and counts the rest with the total: `\t… 1970 more both modified entries
/// not shown (2000 in all); ctx_expand has them`.
pub(crate) fn budget_unmerged(plan: &mut Plan, entries: &[usize], kind: &str, failed: bool) {
    let Some(&first) = entries.first() else { return };
    let indent = if plan.line(first).starts_with('\t') { "\t" } else { "" };
    let total = entries.len();
    keep_first(
        plan,
        entries,
        |_, i| vec![i],
        failed,
        |hidden, _| format!("{indent}… {hidden} more {kind} entries not shown ({total} in all); ctx_expand has them"),
    );
}

/// Protects the first [`CONFLICTS_SHOWN`] `conflicts` (line indices) or, when there are at most two more,
/// every one; otherwise replaces each further conflict that the shared protection would not show anyway, with
/// the lines `lines_of` gives for it (itself last), by `note(how many conflicts and how many lines it stands
/// for)`.
fn keep_first(
    plan: &mut Plan,
    conflicts: &[usize],
    lines_of: impl Fn(&Plan, usize) -> Vec<usize>,
    failed: bool,
    note: impl FnOnce(usize, usize) -> String,
) {
    let shown = if conflicts.len() > CONFLICTS_SHOWN + 2 { CONFLICTS_SHOWN } else { conflicts.len() };
    for &i in &conflicts[..shown] {
        plan.must(i);
    }
    let hidden = plan.countable(&conflicts[shown..], failed);
    let lines: Vec<usize> = hidden.iter().flat_map(|&i| lines_of(plan, i)).collect();
    plan.replace_hidden(&lines, failed, |replaced| Some(note(hidden.len(), replaced.len())));
}

#[cfg(test)]
mod tests {
    use crate::compress;

    /// As git 2.47 reports a merge: `Auto-merging` before each content conflict, none before a modify/delete.
    fn merge_report(conflicts: usize) -> String {
        let mut raw = String::new();
        for i in 1..=conflicts {
            if i % 4 == 0 {
                raw += &format!(
                    "CONFLICT (modify/delete): lib/m{i}.rs deleted in topic and modified in HEAD.  Version HEAD of \
                     lib/m{i}.rs left in tree.\n"
                );
            } else {
                raw += &format!("Auto-merging src/f{i}.rs\nCONFLICT (content): Merge conflict in src/f{i}.rs\n");
            }
        }
        raw + "Automatic merge failed; fix conflicts and then commit the result.\n"
    }

    #[test]
    fn a_few_dozen_conflicts_are_all_shown() {
        // 32 conflicts in 56 lines: the generic cut took those in the middle.
        let text = compress("git merge topic", &merge_report(32), 1).text;
        for i in 1..=32 {
            let path = if i % 4 == 0 { format!("lib/m{i}.rs") } else { format!("src/f{i}.rs") };
            assert!(text.lines().any(|l| l.starts_with("CONFLICT (") && l.contains(&path)), "{path}: {text}");
        }
        assert!(!text.contains("omitted") && !text.contains("not shown"), "{text}");
    }

    #[test]
    fn past_the_budget_conflicts_are_counted_with_their_total() {
        for command in ["git merge topic", "git rebase main", "git cherry-pick a1b2c3", "git pull origin main"] {
            let out = compress(command, &merge_report(2_000), 1);
            let text = &out.text;
            let shown = text.lines().filter(|l| l.starts_with("CONFLICT (")).count();
            // The first thirty, and those among the failure's last ten lines.
            assert_eq!(shown, 30 + 6, "{command}: {text}");
            for i in 1..=30 {
                assert!(text.contains(&format!("/{}{i}.rs", if i % 4 == 0 { "m" } else { "f" })), "{i}: {text}");
            }
            // 1,964 more: 1,473 content conflicts, each after its `Auto-merging` line, and 491 modify/delete.
            let note =
                "… 1964 more conflicts not shown (2000 in all, with 1473 Auto-merging lines); ctx_expand has them";
            assert!(text.lines().any(|l| l == note), "{command}: {text}");
            assert!(text.ends_with("Automatic merge failed; fix conflicts and then commit the result.\n[exit:1]\n"));
            assert!(text.lines().count() < 100, "{command}: {} lines", text.lines().count());
        }
    }

    #[test]
    fn a_status_counts_unmerged_paths_past_the_budget_with_their_total() {
        let mut raw = String::from("On branch main\nYou have unmerged paths.\n\nUnmerged paths:\n");
        raw += "  (use \"git add <file>...\" to mark resolution)\n";
        raw += &(1..=500).map(|i| format!("\tboth modified:   src/f{i:03}.rs\n")).collect::<String>();
        raw += &(1..=3).map(|i| format!("\tdeleted by them: lib/g{i}.rs\n")).collect::<String>();
        raw += "\nno changes added to commit (use \"git add\" and/or \"git commit -a\")\n";
        let text = compress("git status", &raw, 0).text;
        for i in 1..=30 {
            assert!(text.contains(&format!("\tboth modified:   src/f{i:03}.rs\n")), "{i}: {text}");
        }
        assert!(!text.contains("src/f031.rs"), "{text}");
        assert!(text.contains("\n\t… 470 more both modified entries not shown (500 in all); ctx_expand has them\n"));
        // A kind there are few of is shown whole.
        assert!(text.contains("\tdeleted by them: lib/g3.rs\n"), "{text}");
        let short: String = (1..=100).map(|i| format!("UU f{i}.txt\n")).collect::<String>() + "AA new.txt\n";
        let text = compress("git status -s", &short, 0).text;
        assert!(text.contains("UU f30.txt\n… 70 more `UU` entries not shown (100 in all); ctx_expand has them\n"));
        assert!(text.ends_with("AA new.txt\n"), "{text}");
    }
}
