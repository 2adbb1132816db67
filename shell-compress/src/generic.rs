//! Anything without dedicated rules: after cleaning, repeats fold (exactly, and by shape when only numbers
//! differ) and long runs are cut to head and tail. Safe for any text because nothing is dropped unannounced.
//! It is a program's own report (`node app.js`, `./run.sh`) unless the command searches or prints files,
//! which `compress` tells from the command line.

use crate::family::Family;

pub(crate) static GENERIC: Family =
    Family::new("generic", "echo hi", |_, _| {}).folding_similar().folding_node_frames();
