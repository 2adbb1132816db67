//! Symbol definitions: the type the index stores and the extractor hook.
//!
//! The daemon supplies its tree-sitter outline as the extractor; the default
//! here is a line regex for the common definition keywords so the crate is
//! useful on its own.

use std::any::Any;
use std::path::Path;
use std::sync::Arc;

/// One definition found in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    /// Free-form kind (`function`, `class`, `struct`, …) as the extractor names it.
    pub kind: String,
    /// 1-based line of the definition.
    pub line: u32,
    /// The name of the type or module it is a member of (`Decoder` for Go's `func (d *Decoder)
    /// Decode`, `Store` in `impl<T> Codec for Store<T>`), so a qualified pattern (`Decoder.Decode`)
    /// finds that member; `None` at a file's top level or when the extractor does not know. After
    /// the modules and types that name is nested in, where the extractor knows them, `::`-joined
    /// (`Thor::Util` for a method of `module Thor; module Util`), so `Other::Util.snake_case`
    /// does not find it.
    pub owner: Option<String>,
}

/// Finds the definitions in one file, given its path and text.
pub type SymbolExtractor = Arc<dyn Fn(&Path, &str) -> Vec<Symbol> + Send + Sync>;

/// What one pass of the index's extractor over a file found: its definitions, and whatever else
/// the same pass produced for the index's observer ([`crate::IndexObserver`]), which receives it
/// with the batch. The daemon's code graph takes its facts this way, so a file is parsed once.
pub struct Extraction {
    pub symbols: Vec<Symbol>,
    pub extra: Option<Box<dyn Any + Send>>,
}

/// The extractor used while indexing when one is configured; called on several threads at once.
pub type IndexExtractor = Arc<dyn Fn(&Path, &str) -> Extraction + Send + Sync>;

/// A regex over lines for `fn|fun|def|class|struct|interface|func|type …` and
/// their usual modifiers (Kotlin's among them: it has no grammar here). Language-agnostic on purpose: it misses some
/// definitions and may catch a few in comments, which is acceptable for a
/// fallback that the daemon replaces.
pub fn default_extractor() -> SymbolExtractor {
    const MODIFIERS: &str = r#"(?:(?:pub(?:\([^)]*\))?|export|default|async|unsafe|extern(?:\s+"[^"]*")?|public|private|protected|internal|static|final|abstract|sealed|open|override|inline|const|declare|suspend|data|enum|annotation|inner|value|companion|operator|infix|tailrec)\s+)*"#;
    const KEYWORDS: &str =
        r"(fn|fun|def|class|struct|enum|trait|interface|func|type|function|module|object|protocol|union)";
    // Go method receivers `func (r *T) Name`, JS generators `function* name`, and Kotlin's type
    // parameters and receivers `fun <T> List<T>.second()`.
    const NAME: &str =
        r"\*?\s+(?:\([^)]*\)\s*)?(?:<[^>]*>\s*)?(?:[A-Za-z_][A-Za-z0-9_]*(?:<[^>]*>)?\??\.)?([A-Za-z_$][A-Za-z0-9_$]*)";
    let pattern = format!(r"^\s*{MODIFIERS}{KEYWORDS}\s*{NAME}");
    let regex = regex::Regex::new(&pattern).expect("the default symbol regex is valid");
    Arc::new(move |_path: &Path, text: &str| {
        text.lines()
            .enumerate()
            .filter_map(|(index, line)| {
                let caps = regex.captures(line)?;
                let kind = match &caps[1] {
                    "fn" | "fun" | "def" | "func" | "function" => "function",
                    other => other,
                };
                Some(Symbol { name: caps[2].to_string(), kind: kind.to_string(), line: index as u32 + 1, owner: None })
            })
            .collect()
    })
}

/// Stored form of a file's symbols: one `line\tkind\towner\tname` per line (the owner empty
/// when there is none).
pub(crate) fn encode(symbols: &[Symbol]) -> String {
    symbols
        .iter()
        .map(|s| format!("{}\t{}\t{}\t{}\n", s.line, s.kind, s.owner.as_deref().unwrap_or(""), s.name))
        .collect()
}

pub(crate) fn decode(stored: &str) -> Vec<Symbol> {
    stored
        .lines()
        .filter_map(|line| {
            let mut parts = line.splitn(4, '\t');
            let line = parts.next()?.parse().ok()?;
            let kind = parts.next()?.to_string();
            let owner = Some(parts.next()?).filter(|owner| !owner.is_empty()).map(str::to_string);
            let name = parts.next()?.to_string();
            Some(Symbol { name, kind, line, owner })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(String, String)> {
        default_extractor()(Path::new("x"), text).into_iter().map(|s| (s.kind, s.name)).collect()
    }

    #[test]
    fn default_extractor_finds_common_definitions() {
        let text = "pub(crate) async fn load_config() {}\nclass Parser(Base):\n    def parse(self):\n\
                    func (s *Server) ServeHTTP(w, r) {}\ntype Reader interface {}\nexport default function* gen() {}\n\
                    let fn_x = 1;\n";
        assert_eq!(
            names(text),
            [
                ("function", "load_config"),
                ("class", "Parser"),
                ("function", "parse"),
                ("function", "ServeHTTP"),
                ("type", "Reader"),
                ("function", "gen"),
            ]
            .map(|(k, n)| (k.to_string(), n.to_string()))
        );
    }

    /// Kotlin has no grammar here: its functions were not found at all.
    #[test]
    fn default_extractor_finds_kotlin_definitions() {
        let text = "@Deprecated(\"x\")\nfun top() {}\nprivate suspend fun load(): Int = 1\n\
                    fun <T> List<T>.second(): T = get(1)\ndata class Point(val x: Int)\nenum class Color { RED }\n";
        assert_eq!(
            names(text),
            [
                ("function", "top"),
                ("function", "load"),
                ("function", "second"),
                ("class", "Point"),
                ("class", "Color"),
            ]
            .map(|(k, n)| (k.to_string(), n.to_string()))
        );
    }

    #[test]
    fn encode_decode_round_trip() {
        let symbols = vec![
            Symbol { name: "a_b".into(), kind: "struct".into(), line: 7, owner: None },
            Symbol { name: "run".into(), kind: "method".into(), line: 9, owner: Some("Store".into()) },
        ];
        assert_eq!(decode(&encode(&symbols)), symbols);
    }
}
