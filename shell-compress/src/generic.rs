//! Anything without dedicated rules: after cleaning, repeats fold (exactly, and by shape when only numbers
//! differ) and long runs are cut to head and tail. Safe for any text because nothing is dropped unannounced.

use crate::family::Family;
use crate::plan::Plan;

pub(crate) static GENERIC: Family = Family::new("generic", "echo hi", plan);

fn plan(plan: &mut Plan, _failed: bool) {
    plan.similar_folding = true;
}
