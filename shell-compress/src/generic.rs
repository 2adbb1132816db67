//! Anything without dedicated rules: after cleaning, repeats fold (exactly, and by shape when only numbers
//! differ) and long runs are cut to head and tail. Safe for any text because nothing is dropped unannounced.

use crate::plan::Plan;

pub(crate) fn plan(plan: &mut Plan) {
    plan.similar_folding = true;
}
