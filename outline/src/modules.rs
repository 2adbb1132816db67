//! The module an import statement depends on, for the map's `imports` line.
//!
//! The map tells an agent what a file is built from; which names it takes from each module are
//! in the file's head, whose lines the `imports` span gives. So the map names each module once:
//! `./Subject`, `crate::runtime`, `click.core`, `java.util`. A statement that is itself API (Rust's `pub use`)
//! or whose module is only a relative marker (`from . import views`) stays as written.

use crate::Language;

/// The module `import` (an [`crate::Import::text`]) names in `language`.
pub(crate) fn module(language: Language, import: &str) -> String {
    let named = match language {
        Language::Rust => rust(import),
        Language::Python => python(import),
        Language::JavaScript | Language::TypeScript | Language::Tsx => javascript(import),
        Language::Go => go(import),
        Language::Java => java(import),
        _ => None,
    };
    named.unwrap_or_else(|| import.to_string())
}

/// `crate::runtime::{a, b}` → `crate::runtime`, `std::io::*` → `std::io`, `std::sync::Arc as A`
/// → `std::sync`. A path ending in a lowercase name is kept whole: the name may be a module or a
/// function, but a capitalised one is a type or trait (by Rust's naming convention).
fn rust(import: &str) -> Option<String> {
    if import.starts_with("pub") {
        return None;
    }
    let path = import.split(" as ").next()?;
    let path = match path.find("::{") {
        Some(group) => &path[..group],
        None => path.strip_suffix("::*").unwrap_or(path),
    };
    Some(without_type(path, "::").to_string())
}

/// `a::b::Type` → `a::b` (`a.b.Type` → `a.b`): the module a capitalised last segment is in.
fn without_type<'p>(path: &'p str, separator: &str) -> &'p str {
    match path.rsplit_once(separator) {
        Some((module, last)) if last.starts_with(char::is_uppercase) => module,
        _ => path,
    }
}

/// `java.util.List` → `java.util`; `static` and wildcard imports are kept.
fn java(import: &str) -> Option<String> {
    (!import.starts_with("static ")).then(|| without_type(import, ".").to_string())
}

/// `from a.b import c, d` → `a.b`, `a.b as c, d` → `a.b, d`; `from . import c` is kept.
fn python(import: &str) -> Option<String> {
    let Some(from) = import.strip_prefix("from ") else {
        let modules: Vec<&str> = import.split(", ").filter_map(|module| module.split(" as ").next()).collect();
        return Some(modules.join(", "));
    };
    let module = from.split(" import ").next()?;
    (!module.chars().all(|c| c == '.')).then(|| module.to_string())
}

/// `{ a } from './x'`, `X from "y"`, `'./polyfill'`, `const x = require('y')` → `./x`, `y`, ….
fn javascript(import: &str) -> Option<String> {
    let quoted = import.rsplit(" from ").next()?;
    let quoted = quoted.split_once("require(").map_or(quoted, |(_, call)| call);
    let quote = quoted.chars().find(|c| ['\'', '"', '`'].contains(c))?;
    let (_, rest) = quoted.split_once(quote)?;
    let (module, _) = rest.split_once(quote)?;
    Some(module.to_string())
}

/// `"fmt"` → `fmt`, `nethttp "net/http"` → `net/http`, `. "x"` → `x`.
fn go(import: &str) -> Option<String> {
    let (_, rest) = import.split_once('"')?;
    rest.split_once('"').map(|(module, _)| module.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_names_the_module() {
        let cases = [
            (Language::Rust, "crate::runtime::{ blocking, driver, Callback, }", "crate::runtime"),
            (Language::Rust, "std::io::*", "std::io"),
            (Language::Rust, "std::fmt::Write as _", "std::fmt"),
            (Language::Rust, "crate::runtime::handle::Handle", "crate::runtime::handle"),
            (Language::Rust, "crate::util::check_socket_for_blocking", "crate::util::check_socket_for_blocking"),
            (
                Language::Rust,
                "pub use self::tcp::{TcpListener, TcpStream}",
                "pub use self::tcp::{TcpListener, TcpStream}",
            ),
            (Language::Rust, "extern crate alloc", "extern crate alloc"),
            (Language::Python, "from .config import Config, load_config", ".config"),
            (Language::Python, "os.path as osp, sys", "os.path, sys"),
            (Language::Python, "from . import views", "from . import views"),
            (
                Language::TypeScript,
                "{ refCount as higherOrderRefCount } from '../operators/refCount'",
                "../operators/refCount",
            ),
            (Language::TypeScript, "type { Options } from \"./types\"", "./types"),
            (Language::TypeScript, "'./polyfills'", "./polyfills"),
            (Language::JavaScript, "const { join } = require('path')", "path"),
            (Language::Go, "nethttp \"net/http\"", "net/http"),
            (Language::Java, "static org.junit.Assert.*", "static org.junit.Assert.*"),
            (Language::Java, "java.util.List", "java.util"),
            (Language::Java, "java.util.*", "java.util.*"),
        ];
        for (language, import, expected) in cases {
            assert_eq!(module(language, import), expected, "{language:?}: {import}");
        }
    }
}
