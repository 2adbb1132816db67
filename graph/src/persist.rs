//! The graph on disk: a versioned, checksummed snapshot of every file's facts and stamp, so a
//! daemon restart loads the graph instead of parsing every file again.
//!
//! Layout: `LCTXGRAPH` magic, the format version (u32 little-endian), the BLAKE3 of the body, and
//! the body (zstd-compressed JSON of the files and the JavaScript/TypeScript module mappings).
//! Name indexes are rebuilt on load.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::graph::{FileEntry, Graph};
use crate::js_modules::JsModules;

const MAGIC: &[u8] = b"LCTXGRAPH";
/// Bump when the facts' meaning or shape changes: an older snapshot is then discarded and the
/// graph rebuilt from the files.
pub const FORMAT_VERSION: u32 = 33;
const HEADER: usize = MAGIC.len() + 4 + 32;

/// Why a snapshot was not loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// Written by another format version.
    Outdated { version: u32 },
    /// Truncated, altered or unreadable.
    Corrupt(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Outdated { version } => {
                write!(f, "graph format {version}, this build reads {FORMAT_VERSION}")
            }
            LoadError::Corrupt(reason) => write!(f, "corrupt graph file: {reason}"),
        }
    }
}

pub fn encode(graph: &Graph) -> Vec<u8> {
    // Serializing plain owned data into memory cannot fail.
    let snapshot = Snapshot { files: graph.files(), js_modules: graph.js_modules() };
    let json = serde_json::to_vec(&snapshot).unwrap_or_default();
    let body = zstd::bulk::compress(&json, 3).unwrap_or_default();
    let mut out = Vec::with_capacity(HEADER + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(blake3::hash(&body).as_bytes());
    out.extend_from_slice(&body);
    out
}

/// What a snapshot holds: every file's facts, and the module mappings read from the project's
/// configs (which are not among the graph's files).
#[derive(Serialize)]
struct Snapshot<'a> {
    files: &'a BTreeMap<String, FileEntry>,
    js_modules: &'a JsModules,
}

/// A [`Snapshot`] read back.
#[derive(Deserialize)]
struct Loaded {
    files: BTreeMap<String, FileEntry>,
    js_modules: JsModules,
}

/// Largest JSON body a snapshot may inflate to (a corrupt length field must not exhaust memory).
const MAX_BODY: usize = 1 << 30;

pub fn decode(bytes: &[u8]) -> Result<Graph, LoadError> {
    let corrupt = |reason: &str| LoadError::Corrupt(reason.to_string());
    if bytes.len() < HEADER || !bytes.starts_with(MAGIC) {
        return Err(corrupt("no graph header"));
    }
    let version = u32::from_le_bytes(bytes[MAGIC.len()..MAGIC.len() + 4].try_into().map_err(|_| corrupt("header"))?);
    if version != FORMAT_VERSION {
        return Err(LoadError::Outdated { version });
    }
    let (checksum, body) = bytes[MAGIC.len() + 4..].split_at(32);
    if blake3::hash(body).as_bytes() != checksum {
        return Err(corrupt("checksum mismatch"));
    }
    let json = zstd::bulk::decompress(body, MAX_BODY).map_err(|e| LoadError::Corrupt(e.to_string()))?;
    let snapshot: Loaded = serde_json::from_slice(&json).map_err(|e| LoadError::Corrupt(e.to_string()))?;
    let mut graph = Graph::new();
    for (path, entry) in snapshot.files {
        graph.upsert(&path, entry);
    }
    graph.set_js_modules(snapshot.js_modules);
    Ok(graph)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::extract;
    use crate::graph::Stamp;
    use lean_ctx_outline::Language;

    fn sample() -> Graph {
        let mut graph = Graph::new();
        let facts = extract(Language::Python, "def a():\n    b()\n\ndef b():\n    pass\n");
        graph.upsert("m.py", FileEntry { stamp: Stamp { size: 9, mtime_ns: 7 }, facts });
        graph
    }

    #[test]
    fn a_snapshot_loads_back_equal() {
        let graph = sample();
        let loaded = decode(&encode(&graph)).expect("loads");
        assert_eq!(loaded.files(), graph.files());
        assert_eq!(loaded.counts(), graph.counts());
        assert_eq!(loaded.defs_named("b").count(), 1);
    }

    #[test]
    fn a_snapshot_keeps_the_module_mappings() {
        let mut graph = sample();
        let config = r#"{ "compilerOptions": { "paths": { "@/*": ["src/*"] } } }"#;
        graph.set_js_modules(JsModules::read(["tsconfig.json"], |_| Some(config.to_string())));
        assert_ne!(*graph.js_modules(), JsModules::default());
        let loaded = decode(&encode(&graph)).expect("loads");
        assert_eq!(loaded.js_modules(), graph.js_modules());
    }

    #[test]
    fn damage_and_other_versions_are_refused() {
        let bytes = encode(&sample());
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 0x40;
        assert_eq!(decode(&flipped).unwrap_err(), LoadError::Corrupt("checksum mismatch".into()));
        assert_eq!(decode(&bytes[..HEADER - 1]).unwrap_err(), LoadError::Corrupt("no graph header".into()));
        let mut newer = bytes.clone();
        newer[MAGIC.len()..MAGIC.len() + 4].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
        assert_eq!(decode(&newer).unwrap_err(), LoadError::Outdated { version: FORMAT_VERSION + 1 });
    }
}
