//! The floor for whole-process timings: a Rust binary that does nothing.

fn main() {}
