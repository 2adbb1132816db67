//! Where a name the code graph does not know is defined in files of a language it does not read
//! (Ruby, C, PHP…): "no function, method or type named `x`" read as if nothing defined it.

use std::path::Path;

use lean_ctx_graph::has_queries;
use lean_ctx_outline::Language;
use lean_ctx_search::{Action, SearchRequest};

use super::callgraph::supported;
use crate::engine::Engine;

/// Files an answer names before counting the rest.
const NAMED: usize = 3;

impl Engine {
    /// The files defining `symbol` (a symbol search's definitions, those the caller's Read rules
    /// withhold left out) in a language the code graph does not read, each with that language's
    /// name where the outline knows it; in path order, each file once.
    fn uncovered_definitions(&self, root: &Path, symbol: &str) -> Vec<(String, Option<Language>)> {
        let mut request = SearchRequest::new(root, Action::Symbol, symbol.to_string());
        request.withhold = self.read_rules_withhold(root);
        // A pattern symbol search refuses is no name any file defines.
        let Ok(result) = self.search.search(&request) else { return Vec::new() };
        let mut files: Vec<String> = result.matches.into_iter().map(|m| m.path).collect();
        files.sort();
        files.dedup();
        files
            .into_iter()
            .map(|file| {
                // By the file's `#!` line too: a script the graph reads (`bin/tool`, Python) is
                // covered whatever its name.
                // The first line only, and never from a FIFO (a reader: the whole file was read).
                let head = super::first_line(root, &root.join(&file)).unwrap_or_default();
                let language = Language::detect(Path::new(&file), &head);
                (file, language)
            })
            .filter(|(_, language)| !language.is_some_and(has_queries))
            .collect()
    }

    /// "`x` is defined in lib/a.rb (ruby), which the call graph does not cover …" for one of
    /// `symbols` the graph does not know (`known` says which it does) that only files of
    /// languages it does not read define; `None` when there is no such symbol.
    pub(super) fn uncovered_note(&self, root: &Path, symbols: &[&str], known: impl Fn(&str) -> bool) -> Option<String> {
        symbols.iter().filter(|symbol| !known(symbol)).find_map(|symbol| {
            let files = self.uncovered_definitions(root, symbol);
            (!files.is_empty()).then(|| note(symbol, &files))
        })
    }
}

fn note(symbol: &str, files: &[(String, Option<Language>)]) -> String {
    let mut named: Vec<String> = files
        .iter()
        .take(NAMED)
        .map(|(file, language)| match language {
            Some(language) => format!("{file} ({})", language.name()),
            None => file.clone(),
        })
        .collect();
    if files.len() > NAMED {
        named.push(format!("{} more", files.len() - NAMED));
    }
    let list = match named.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    let which = if files.len() == 1 { "which" } else { "files" };
    format!("`{symbol}` is defined in {list}, {which} the call graph does not cover (it covers {} files)", supported())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_names_the_files_and_their_languages_then_counts_the_rest() {
        let one = note("load", &[("lib/a.rb".into(), Some(Language::Ruby))]);
        assert_eq!(
            one,
            format!(
                "`load` is defined in lib/a.rb (ruby), which the call graph does not cover (it covers {} files)",
                supported()
            )
        );
        let files: Vec<(String, Option<Language>)> = ["a.rb", "b.kt", "c.rb", "d.rb"]
            .iter()
            .map(|f| (f.to_string(), Language::from_path(Path::new(f))))
            .collect();
        assert!(
            note("load", &files)
                .starts_with("`load` is defined in a.rb (ruby), b.kt, c.rb (ruby) and 1 more, files the call graph"),
            "{}",
            note("load", &files)
        );
    }
}
