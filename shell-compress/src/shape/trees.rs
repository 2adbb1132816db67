//! Tree drawings (`tree`, `npm ls`, `cargo tree`, `pnpm why`): the box-drawing prefix of each line becomes
//! plain indentation of half its width, which keeps the nesting and costs a fraction of the tokens.

use crate::plan::{Mark, Plan};

/// Characters that draw a tree's branches.
const BRANCHES: &[char] = &['│', '├', '└', '─', '┬', '┼', '╰', '╭', '┃', '┣', '┗', '━'];
/// The branch characters where a branch leaves its trunk: a tree prefix holds one of them. A rule (`────`,
/// nextest's separator) or a heading drawn with horizontal lines does not, and neither does a prefix of
/// vertical bars alone, a gutter or a box's side (biome's `│` before a caret line that points at columns of
/// the code line above it, terraform's `│ Warning: …`): each stays as written.
const BRANCH_POINTS: &[char] = &['├', '└', '┬', '┼', '╰', '╭', '┣', '┗'];

/// Rewrites every ordinary line that starts with a tree prefix and returns how many. When the output is a
/// listing (`is_listing(rewritten)`) longer than `budget` characters, the deepest levels go, counted, so the
/// top of the tree (the direct dependencies, the first directories) stays whole.
pub(crate) fn flatten(plan: &mut Plan, budget: usize, is_listing: impl Fn(usize) -> bool) -> usize {
    let mut depths: Vec<(usize, usize)> = Vec::new();
    for i in 0..plan.len() {
        let line = plan.line(i);
        let prefix_len = line.find(|c: char| !BRANCHES.contains(&c) && c != ' ' && c != '\u{a0}').unwrap_or(line.len());
        let prefix = &line[..prefix_len];
        if !prefix.contains(BRANCH_POINTS) || !plan.visible(i) || plan.in_hunk(i) {
            continue;
        }
        let depth = prefix.chars().count() / 2;
        plan.rewrite(i, format!("{}{}", " ".repeat(depth), &line[prefix_len..]));
        depths.push((i, depth));
    }
    if is_listing(depths.len()) {
        prune(plan, &depths, budget);
    }
    depths.len()
}

/// Drops the levels deeper than the deepest one that lets the whole output fit `budget`.
fn prune(plan: &mut Plan, depths: &[(usize, usize)], budget: usize) {
    let total = plan.render().chars().count();
    if total <= budget {
        return;
    }
    let deepest = depths.iter().map(|&(_, d)| d).max().unwrap_or(0);
    let cost_deeper_than = |level: usize| -> usize {
        depths.iter().filter(|&&(_, d)| d > level).map(|&(i, d)| plan.line(i).chars().count() + 1 - d).sum()
    };
    let Some(level) = (1..deepest).rev().find(|&level| total - cost_deeper_than(level) <= budget).or(Some(1)) else {
        return;
    };
    let deeper: Vec<usize> = depths.iter().filter(|&&(_, d)| d > level).map(|&(i, _)| i).collect();
    for &i in &deeper {
        plan.set(i, Mark::Drop);
    }
    if !deeper.is_empty() {
        plan.note(plan.len(), format!("… {} deeper tree lines not shown", deeper.len()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branches_become_indentation_that_keeps_the_nesting() {
        let lines: Vec<String> =
            ["app@1.0.0", "├─┬ eslint@8.57.1", "│ ├── ajv@6.15.0 deduped", "│ └── debug@4.4.3", "└── jest@29.7.0"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let mut plan = Plan::new(&lines);
        assert_eq!(flatten(&mut plan, 10_000, |_| true), 4);
        assert_eq!(plan.render(), "app@1.0.0\n  eslint@8.57.1\n   ajv@6.15.0 deduped\n   debug@4.4.3\n  jest@29.7.0\n");
    }

    #[test]
    fn a_listing_past_its_budget_loses_its_deepest_levels_first() {
        let mut lines = vec!["app@1.0.0".to_string()];
        for i in 0..20 {
            lines.push(format!("├─┬ direct{i}@1.0.0"));
            lines.extend((0..5).map(|j| format!("│ ├── nested{i}-{j}@2.0.0")));
        }
        let mut plan = Plan::new(&lines);
        flatten(&mut plan, 600, |_| true);
        let text = plan.render();
        assert!(text.contains("  direct19@1.0.0") && !text.contains("nested"), "{text}");
        assert!(text.ends_with("… 100 deeper tree lines not shown\n"), "{text}");
    }

    #[test]
    fn a_rule_or_a_heading_drawn_with_lines_is_no_tree() {
        let lines: Vec<String> =
            ["────────────", "━━━ Summary ━━━", "  stdout ───", "└── leaf"].iter().map(|s| s.to_string()).collect();
        let mut plan = Plan::new(&lines);
        assert_eq!(flatten(&mut plan, 10_000, |_| true), 1);
        assert_eq!(plan.render(), "────────────\n━━━ Summary ━━━\n  stdout ───\n  leaf\n");
    }

    #[test]
    fn a_gutter_of_vertical_bars_is_no_tree() {
        // biome (and miette, ariadne) print a caret line under a code line, both behind a `│` gutter, the code
        // line's number before it: flattening the caret line alone moved its carets under other columns.
        let report = "src/cart.ts:8:10 lint/style/useTemplate  FIXABLE\n\n  i Template literals are preferred.\n\n\
                      \x20   7 │ export function label(item: Item): string {\n\
                      \x20 > 8 │   return item.sku + \": \" + item.price;\n\
                      \x20     │          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n\
                      \x20   9 │ }\n\n";
        let raw = report.repeat(12);
        let out = crate::compress("npx biome lint src", &raw, 1);
        assert!(out.text.contains("      │          ^^^^"), "{}", out.text);
        for line in out.text.lines().filter(|l| l.contains('^')) {
            assert!(raw.lines().any(|r| r == line), "{line:?} is no line of the output:\n{}", out.text);
        }
        // A box's side (terraform's `│ Warning: …`) is no branch either.
        let lines: Vec<String> =
            ["╷", "│ Warning: no config", "│   on main.tf line 3:", "╵"].map(String::from).to_vec();
        let mut plan = Plan::new(&lines);
        assert_eq!(flatten(&mut plan, 10_000, |_| true), 0);
    }
}
