//! Build script shared by the three client packages (`lctx`, `lctx-mcp`,
//! `lctx-shell`): on Linux their binaries are linked position-dependent.
//!
//! Why: a client lives for about a millisecond, and a position-independent
//! executable spends a visible part of it in the loader — some 9,000 relative
//! relocations written into its read-only-after-start pages, one
//! copy-on-write page fault per page (docs/benchmarks.md, "Thin clients").
//! Linked at a fixed address, those pages need no writing. The cost is that
//! the client's own code is not at a random address; the daemon, which is
//! long-lived and parses every client's input, stays position-independent.
//! The code is still compiled position-independent, which links either way.

fn main() {
    // Only this script and the target decide the flag; nothing else in the
    // package needs to rerun it.
    println!("cargo::rerun-if-env-changed=CARGO_CFG_TARGET_OS");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
}
