//! The definitions of code in a language the outline has no grammar for (Kotlin, PHP, Lua, Perl,
//! shell), as Universal Ctags finds them: a count that does not share the keyword outline's
//! reading of the code (`crate::definitions`' own scans share its idea of a line's first words).
//!
//! Counted: what a reader of the file's API looks for, at the file's level or a type's, never a
//! function's locals (a tag scoped to a function or method). PHP's properties and Kotlin's
//! member `val`/`var` are counted as fields.

use std::io::Write as _;
use std::process::{Command, Stdio};

use super::Expected;

/// A ctags kind the outline should show, and whether it is a field of a type.
type Kinds = &'static [(&'static str, bool)];

const KOTLIN: Kinds = &[
    ("package", false),
    ("class", false),
    ("interface", false),
    ("object", false),
    ("method", false),
    ("typealias", false),
    ("constant", false),
    ("variable", true),
];
const PHP: Kinds = &[
    ("namespace", false),
    ("class", false),
    ("interface", false),
    ("trait", false),
    ("function", false),
    ("define", false),
    ("variable", true),
];
const LUA: Kinds = &[("function", false)];
const PERL: Kinds = &[("package", false), ("subroutine", false), ("constant", false)];
const SHELL: Kinds = &[("function", false)];

/// Scopes whose tags are a body's locals.
const LOCAL_SCOPES: &[&str] = &["method", "function", "subroutine"];

pub fn kotlin(source: &str) -> Vec<Expected> {
    tags(source, "kt", KOTLIN)
}

pub fn php(source: &str) -> Vec<Expected> {
    tags(source, "php", PHP)
}

pub fn lua(source: &str) -> Vec<Expected> {
    tags(source, "lua", LUA)
}

pub fn perl(source: &str) -> Vec<Expected> {
    tags(source, "pm", PERL)
}

pub fn shell(source: &str) -> Vec<Expected> {
    tags(source, "sh", SHELL)
}

/// Runs ctags on `source`, written to a file with `extension` (ctags picks its parser by name).
fn tags(source: &str, extension: &str, kinds: Kinds) -> Vec<Expected> {
    let mut file = tempfile::Builder::new().suffix(&format!(".{extension}")).tempfile().expect("temporary file");
    file.write_all(source.as_bytes()).expect("write temporary file");
    let output = Command::new("ctags")
        .args(["--output-format=json", "--fields=+nKZ", "-o", "-"])
        .arg(file.path())
        .stderr(Stdio::null())
        .output()
        .unwrap_or_else(|e| {
            panic!("lctx-bench: this corpus is counted by Universal Ctags, which did not run ({e}): apt-get install universal-ctags")
        });
    let mut found: Vec<Expected> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter_map(|tag| {
            let kind = tag["kind"].as_str()?;
            let &(_, field) = kinds.iter().find(|(k, _)| *k == kind)?;
            if tag["scopeKind"].as_str().is_some_and(|scope| LOCAL_SCOPES.contains(&scope)) {
                return None;
            }
            let name = tag["name"].as_str()?;
            let line = u32::try_from(tag["line"].as_u64()?).ok()?;
            // ctags' anonymous functions (`<lambda>`) are no definitions.
            if name.starts_with('<') {
                return None;
            }
            // A qualified name (PHP's `App\Http`, Lua's `M.load`) is shown by its last part; a
            // PHP property by its `$name`, as written; Kotlin's unnamed companion by its words.
            let name = name.rsplit(['\\', '.', ':']).next().unwrap_or(name);
            let name = match kind {
                "variable" if extension == "php" => format!("${name}"),
                "object" if name == "Companion" => "companion".to_string(),
                _ => name.to_string(),
            };
            Some(Expected { name, line, in_macro: false, field })
        })
        .collect();
    found.sort_by(|a, b| a.line.cmp(&b.line).then_with(|| a.name.cmp(&b.name)));
    found
}
