//! Structural compression: rules chosen by the shape of the text rather than by the command, so they work
//! for any output, known family or not.
//!
//! Runs after the family's rules and after failure protection, and only ever rewrites ordinary lines
//! ([`Plan::ordinary`]); a protected line or a line of a diff hunk's body is never touched, except that an exact copy of a line shown elsewhere
//! may go (repeated blocks). Order matters: the most specific shapes claim their lines first.

mod blocks;
mod listing;
mod matches;
mod passes;
mod paths;
mod progress;
mod tables;
mod trees;

use crate::plan::{Mark, Plan};

/// What the structural rules need to know besides the lines.
pub(crate) struct Context<'a> {
    /// Budget for a listing, in characters.
    pub(crate) budget_chars: usize,
    /// The family says the output is a listing (ls, find, pip list, …): it is compacted up to the budget,
    /// and past it cut to a sorted form.
    pub(crate) listing: bool,
    /// The search pattern of a grep-like command, to trim long matched lines around the match.
    pub(crate) pattern: Option<&'a str>,
    /// The command prints files (`cat`, `head`, `git show REV:PATH`): their lines are content, which no count
    /// of passing lines may stand for.
    pub(crate) prints_files: bool,
}

/// Share of the non-blank lines that must be list-shaped (paths, table rows, tree lines) for output of an
/// unknown command to count as a listing.
const LISTING_SHARE: f64 = 0.8;

pub(crate) fn apply(plan: &mut Plan, context: &Context) {
    // A printed file's lines are its content: no bar or tick of it is noise.
    if !context.prints_files {
        progress::drop_noise(plan);
        if context.pattern.is_none() && !context.listing {
            passes::count(plan);
        }
    }
    blocks::fold_repeated(plan);
    matches::group(plan, context);
    let non_blank = (0..plan.len()).filter(|&i| !plan.line(i).trim().is_empty()).count();
    let is_listing =
        |listed: usize| context.listing || (non_blank > 0 && listed as f64 >= LISTING_SHARE * non_blank as f64);
    let mut listed = paths::compact(plan, context.budget_chars);
    listed += trees::flatten(plan, context.budget_chars, |lines| is_listing(listed + lines));
    // A printed file's padding is its text (aligned assignments, the code `git blame` annotates): squeezing it,
    // or stating a shared cell once, would show lines the file does not have.
    if !context.prints_files {
        listed += tables::compact(plan, context.budget_chars, |rows| is_listing(listed + rows));
    }
    if is_listing(listed) {
        plan.listing_chars = Some(context.budget_chars);
    }
}

/// Maximal runs of ordinary lines (see [`Plan::ordinary`]) for which `pred` holds. Dropped lines are skipped
/// over, and so are protected lines when `through_protected` (an error line inside a `find` listing stays
/// where it is without splitting the listing); any other line, a hunk's body among them, ends a run, and so
/// does a line an earlier rule rewrote: it is claimed (a tree's flattened line is no table row, and a table
/// built from its printed text would show what neither the output nor the flattening has).
fn regions(plan: &Plan, through_protected: bool, pred: impl Fn(&str) -> bool) -> Vec<Vec<usize>> {
    let mut found = Vec::new();
    let mut run: Vec<usize> = Vec::new();
    for i in 0..plan.len() {
        match plan.mark(i) {
            Mark::Drop | Mark::Omit => {}
            Mark::Must if through_protected => {}
            Mark::Keep if plan.ordinary(i) && !plan.rewritten(i) && pred(plan.line(i)) => run.push(i),
            _ => found.push(std::mem::take(&mut run)),
        }
    }
    found.push(run);
    found.retain(|r| !r.is_empty());
    found
}

/// Characters the lines `indices` take in the output, newlines included: what a rewrite must beat.
fn size(plan: &Plan, indices: &[usize]) -> usize {
    indices.iter().map(|&i| plan.line(i).chars().count() + 1).sum()
}
