//! Project search for AI agents: the lean-ctxd daemon's search component,
//! also run in-process by clients when no daemon is reachable.
//!
//! - **regex** runs ripgrep's engine over a walk of the project (exact, no index needed);
//! - **bm25** ranks files by code-aware words from a tantivy index;
//! - **symbol** finds definitions by exact or prefix name from the same index;
//! - **glob** and **tree** list what the project's ignore rules admit.
//!
//! Each project root gets its own index under the engine's cache directory,
//! built lazily in the background, kept fresh by a file watcher, closed when
//! idle or when the memory budget needs room. See [`SearchEngine`].

mod bm25;
mod config;
mod engine;
mod error;
mod filter;
mod glob;
mod ignored;
mod index;
mod language;
mod mask;
mod model;
mod observer;
mod paths;
mod project;
mod quarantine;
mod regex_search;
mod registry;
mod render;
mod schema;
mod symbol;
mod symbols;
mod tokenizer;
mod tree;
mod walk;
mod watcher;
mod withheld;

pub use config::SearchConfig;
pub use engine::SearchEngine;
pub use error::SearchError;
pub use mask::{Mask, Masked};
pub use model::{
    Action, BuildProgress, DEFAULT_MAX_RESULTS, Discarded, GlobResult, IndexPhase, IndexStatus, Match, SearchRequest,
    SearchResult, Source, TreeResult,
};
pub use observer::{Extra, Extras, IndexObserver};
pub use render::search_text;
pub use symbols::{Extraction, IndexExtractor, Symbol, SymbolExtractor, default_extractor};
pub use walk::{FileStamp, Skipped};
pub use withheld::{Withheld, Withhold};
