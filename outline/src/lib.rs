//! Compact structural views of source files for AI coding agents.
//!
//! [`outline`] parses a file with tree-sitter and extracts its definitions; [`render_signatures`]
//! and [`render_map`] print them as a few lines an agent can read instead of the whole file, and
//! [`aggressive`] prints the file itself without comments and redundant whitespace.
//! [`render_text_outline`] is the outline of a text file that is not code: its headings, or its
//! head with a note of what was left out.
//!
//! Nothing here panics or runs unbounded on any input: parsing has a size limit and a time budget
//! (a backstop that normal inputs never reach, so output is byte-deterministic), extraction has a
//! nesting limit, and a panic in a grammar or an extractor is contained. When tree-sitter cannot
//! be used the outline comes from a line-based heuristic and says so in [`Outline::degraded`].

mod aggressive;
mod commonjs_exports;
mod conditionals;
mod extract;
mod fallback;
mod keywords;
mod language;
mod macro_words;
mod model;
mod modules;
mod parse;
mod prose;
mod re_exports;
mod recover;
mod render;
mod shebang;
mod text;
mod unclosed;
mod unparsed;

pub use extract::PrivateDefinition;
pub use keywords::{Family as KeywordFamily, keyword_outline};
pub use language::Language;
pub use model::{Definition, Import, Kind, Outline, UnlistedKeys, qualifying_name, qualifying_path};
pub use prose::{TextFormat, TextOutline, render_text_outline};
pub use render::{lists_definitions, render_map, render_signatures};
pub use shebang::reads_shebang;
/// The tree-sitter types a caller of [`outline_and_tree`] queries the tree with.
pub use tree_sitter;

use tree_sitter::Tree;

/// The outline of `source`: imports and definitions with line spans and signatures.
///
/// Syntax errors do not stop it: whatever parses is outlined.
pub fn outline(language: Language, source: &str) -> Outline {
    outline_with(language, source, parse::parse).0
}

/// [`outline`] and the syntax tree it was extracted from, for callers that query the same parse
/// further (the code graph); the tree is `None` when the outline is the heuristic one. The tree
/// is in the grammar of the outline's `language`, which may not be the one asked for (JavaScript
/// with type annotations is read as TypeScript): queries over it use that one.
pub fn outline_and_tree(language: Language, source: &str) -> (Outline, Option<Tree>) {
    outline_with(language, source, parse::parse)
}

/// The definitions `outline` leaves out as no part of the file's API (private fields, a Python
/// module's private names, a C++ class's `private:` members, a function's nested functions), each
/// name with its kind, the line that names it and what it is declared in: definitions symbol
/// search finds. `tree` is the parse `outline` was
/// extracted from ([`outline_and_tree`]).
pub fn private_fields(outline: &Outline, tree: &Tree, source: &str) -> Vec<PrivateDefinition> {
    extract::private_fields(outline, tree, source)
}

/// [`outline_and_tree`] with the parse step injectable, so tests can make it panic or fail.
fn outline_with(
    language: Language,
    source: &str,
    parse: impl Fn(Language, &parse::Source) -> Result<Tree, String>,
) -> (Outline, Option<Tree>) {
    let parsed = parse::contained(|| {
        let (language, tree) = parse::as_written(language, &parse::Source::new(source), parse)?;
        Ok((extract::outline(language, source, &tree), tree))
    });
    match parsed {
        Ok((outline, tree)) => (outline, Some(tree)),
        Err(reason) => {
            let heuristic = parse::contained(|| Ok(fallback::outline(language, source, reason.clone())));
            let outline = heuristic.unwrap_or_else(|fallback_failure| Outline {
                language,
                imports: Vec::new(),
                items: Vec::new(),
                degraded: Some(format!("{reason}; heuristic outline {fallback_failure}")),
                unparsed: unparsed::all_lines(source),
                unlisted: Vec::new(),
                unlisted_keys: UnlistedKeys::default(),
            });
            (outline, None)
        }
    }
}

/// `source` without comments, blank lines (Markdown: runs of them squeezed to one), trailing
/// whitespace and inner runs of spaces; indentation and literals are kept byte for byte.
///
/// Comments that are tool directives (Go's `//go:`) are kept. If the file cannot be parsed
/// (see [`Outline::degraded`]) it is returned unchanged: without a tree nothing can be removed
/// safely.
pub fn aggressive(language: Language, source: &str) -> String {
    parse::contained(|| {
        let (language, tree) = parse::as_written(language, &parse::Source::new(source), parse::parse)?;
        Ok(aggressive::aggressive(language, source, &tree))
    })
    .unwrap_or_else(|_| source.to_string())
}

/// The aggressive view of a file in a language without a grammar here (PHP, Kotlin, Swift,
/// Scala, Dart, Groovy, Lua, shell), known by its path's extension or, a script's whose path says
/// nothing, by its `#!` line: its comments, blank lines, trailing whitespace and inner runs of
/// spaces removed, strings, heredocs and PHP's text outside its tags kept byte for byte. `Err`
/// says why nothing was removed: no comment syntax known for the extension, or a string or
/// comment the scan could not see the end of.
pub fn aggressive_without_grammar(path: &std::path::Path, source: &str) -> Result<String, String> {
    let extension = match shebang::script_extension(path, source) {
        Some(interpreter) => interpreter.to_string(),
        None => path.extension().and_then(|ext| ext.to_str()).map(str::to_ascii_lowercase).unwrap_or_default(),
    };
    parse::contained(|| aggressive::without_grammar(&extension, source))
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! fixture {
        ($path:literal) => {
            include_str!(concat!("../tests/fixtures/", $path))
        };
    }

    /// Each fixture with names the line heuristic must still find without tree-sitter.
    const FIXTURES: [(Language, &str, &[&str]); 15] = [
        (
            Language::Rust,
            fixture!("rust/config.rs"),
            &["MAX_RETRIES", "Config", "Loader", "retry", "parser", "read_raw"],
        ),
        (Language::Python, fixture!("python/service.py"), &["User", "Repository", "__init__", "load_users", "main"]),
        (Language::JavaScript, fixture!("javascript/server.js"), &["handle", "lines", "Server", "Client"]),
        (
            Language::TypeScript,
            fixture!("typescript/store.ts"),
            &["Key", "Store", "Level", "find", "BaseStore", "Codec"],
        ),
        (Language::Tsx, fixture!("tsx/App.tsx"), &["Props", "App", "Legacy"]),
        (Language::Go, fixture!("go/server.go"), &["server", "Handler", "Server", "New", "Start", "helper"]),
        (
            Language::Java,
            fixture!("java/OrderService.java"),
            &["OrderService", "find", "submit", "Builder", "Repository"],
        ),
        (Language::C, fixture!("c/buffer.h"), &["BUFFER_MAX", "buffer", "buffer_remaining", "main"]),
        (
            Language::Cpp,
            fixture!("cpp/shapes.cpp"),
            &["geo", "Point", "Shape", "Circle", "Circle::area", "max_of", "main"],
        ),
        (
            Language::CSharp,
            fixture!("csharp/Inventory.cs"),
            &["Shop.Inventory", "IInventory", "Inventory", "LoadAsync"],
        ),
        (
            Language::Ruby,
            fixture!("ruby/billing.rb"),
            &["Billing", "Invoice", "initialize", "self.parse", "top_level_helper"],
        ),
        (Language::Markdown, fixture!("markdown/guide.md"), &["Outline Guide"]),
        (Language::Json, fixture!("json/package.json"), &["name", "scripts", "private"]),
        (Language::Yaml, fixture!("yaml/deploy.yaml"), &["apiVersion", "spec", "quoted key"]),
        (Language::Toml, fixture!("toml/manifest.toml"), &["name", "package", "profile.release", "bin"]),
    ];

    #[test]
    fn a_panicking_parser_is_contained_and_the_heuristic_outline_is_used() {
        for (language, source, names) in FIXTURES {
            let outline = outline_with(language, source, |_, _| panic!("injected parser panic")).0;
            assert_eq!(outline.degraded.as_deref(), Some("panicked: injected parser panic"), "{language:?}");
            let map = render_map(&outline);
            let lines = source.lines().count();
            let note = format!(
                "[outline incomplete: lines 1-{lines} not parsed (panicked: injected parser panic); definitions found line by line]\n"
            );
            assert!(map.starts_with(&note), "{map}");
            for name in names {
                assert!(outline.items.iter().any(|item| item.name == *name), "{language:?}: no `{name}` in\n{map}");
            }
        }
    }

    #[test]
    fn heuristic_imports_match_the_tree_sitter_form() {
        let imports = |language, source| {
            let outline = outline_with(language, source, |_, _| Err("parse exceeded its time budget".into())).0;
            assert_eq!(outline.degraded.as_deref(), Some("parse exceeded its time budget"));
            outline.imports.into_iter().map(|import| import.text).collect::<Vec<_>>()
        };
        assert_eq!(imports(Language::Rust, FIXTURES[0].1)[..2], ["std::collections::HashMap", "std::fmt"]);
        assert_eq!(
            imports(Language::Go, FIXTURES[5].1),
            ["\"context\"", "\"fmt\"", "nethttp \"net/http\"", "\"sync\""]
        );
        assert_eq!(imports(Language::Python, FIXTURES[1].1)[..2], ["from __future__ import annotations", "asyncio"]);
        assert_eq!(imports(Language::Ruby, FIXTURES[10].1), ["'json'", "require_relative 'money'"]);
    }

    #[test]
    fn markdown_headings_nest_the_same_without_tree_sitter() {
        let source = FIXTURES[11].1;
        let heuristic = outline_with(Language::Markdown, source, |_, _| Err("injected".into())).0;
        let parsed = outline(Language::Markdown, source);
        let heuristic_map = render_map(&heuristic);
        assert_eq!(heuristic_map.split_once('\n').map(|(_, rest)| rest), Some(render_map(&parsed).as_str()));
    }
}
