//! The code graph of a project for AI agents: definitions (from `lean-ctx-outline`), references
//! and call sites (tree-sitter queries for Rust, Python, JavaScript/TypeScript, Go and Java) and
//! imports, with names resolved syntactically and every answer labelled `exact`, `likely` or
//! `ambiguous` (see [`graph`] for the rules).
//!
//! Pure functions and plain data: [`extract`] reads one file, a [`Graph`] holds a project's files
//! and answers [`Graph::lookup`], [`Graph::callers`], [`Graph::callees`], [`Graph::trace`] and
//! [`Graph::rank`]; [`persist`] writes and reads its snapshot. [`Graph::file_graph`] gives the
//! file-level import edges and [`Graph::test_links`] the test ↔ source links. The daemon keeps one
//! graph per project beside the search index and feeds it the index's file changes.

mod bindings;
mod call_lines;
mod callgraph;
mod commonjs;
mod declarations;
mod enclosers;
mod facts;
mod file_ids;
mod generated;
pub mod graph;
mod imports;
mod interrupt;
mod js_assigned;
mod js_fields;
mod js_mixins;
mod js_modules;
mod method_sets;
mod module_aliases;
mod modules;
mod names;
mod nested;
mod parents;
pub mod persist;
mod rank;
mod references;
mod related;
mod tests_link;
mod types;
mod usages;

pub use bindings::{Binding, builtin_method};
pub use callgraph::{DefSummary, Edge, Guess, Lookup, MAX_DEPTH, Walk};
pub use declarations::declared_stem;
pub use facts::{Def, FileFacts, Import, Ref, RefKind, SUPPORTED, extract, extract_from, has_queries};
pub use generated::is_generated;
pub use graph::{DefId, FileEntry, Graph, Label, Resolution, Stamp};
pub use interrupt::{Interrupt, Interrupted};
pub use js_mixins::Mixin;
pub use js_modules::{BrokenConfig, JsModules, is_js_config};
pub use rank::{Ranked, Ranking};
pub use related::{Direction, FileGraph, MAX_NEIGHBOR_DEPTH, MAX_PATH_LENGTH, Reached, Step};
pub use tests_link::{LinkHow, LinkHows, TestLinks, has_inline_tests};
pub use usages::Use;
