//! The module an import statement depends on, for the map's `imports` line.
//!
//! The map tells an agent what a file is built from; which names it takes from each module are
//! in the file's head, whose lines the `imports` span gives. So the map names each module once:
//! `./Subject`, `crate::runtime`, `click.core`, `java.util`. A statement that is itself API (Rust's `pub use`)
//! or whose module is only a relative marker (`from . import views`) stays as written.
//!
//! Modules of one parent share their path once (`effect/{Context, Effect, Layer}`,
//! `std::{fmt, io}`): a file often imports a dozen siblings, and the repeated parent was a
//! quarter of a TypeScript map's tokens.

use crate::Language;

/// The modules `import` (an [`crate::Import::text`]) names in `language`: one, or each module
/// of a Rust group (`std::{fmt, io::Read}` → `std::fmt`, `std::io`).
pub(crate) fn modules(language: Language, import: &str) -> Vec<String> {
    let named = match language {
        Language::Rust => return rust(import).unwrap_or_else(|| vec![import.to_string()]),
        Language::Python => python(import),
        Language::JavaScript | Language::TypeScript | Language::Tsx => javascript(import),
        Language::Go => go(import),
        Language::Java => java(import),
        _ => None,
    };
    vec![named.unwrap_or_else(|| import.to_string())]
}

/// `modules` (each named once, in the file's order) with the modules of one parent written once
/// as `parent/{a, b}`, at the place of the first of them. In JavaScript the extension every one of
/// them ends with goes after the braces (`./{Cookies, Headers}.js`). A module written with spaces
/// or braces (a statement kept as written), a relative marker or a wildcard stays alone.
pub(crate) fn grouped(language: Language, modules: &[String]) -> Vec<String> {
    let Some(separator) = parent_separator(language) else { return modules.to_vec() };
    // (parent, leaves) in the order of each parent's first module; a module without a parent
    // is a group of its own with an empty parent.
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for module in modules {
        match parent_and_leaf(module, separator) {
            Some((parent, leaf)) => match groups.iter_mut().find(|(p, leaves)| *p == parent && !leaves.is_empty()) {
                Some((_, leaves)) => leaves.push(leaf),
                None => groups.push((parent, vec![leaf])),
            },
            None => groups.push((module, Vec::new())),
        }
    }
    if language == Language::Rust {
        fold_parents_as_self(&mut groups, separator);
    }
    groups
        .into_iter()
        .map(|(parent, leaves)| match leaves.as_slice() {
            [] => parent.to_string(),
            [leaf] => format!("{parent}{separator}{leaf}"),
            _ => {
                let extension = common_extension(language, &leaves);
                let names: Vec<&str> = leaves.iter().map(|leaf| &leaf[..leaf.len() - extension.len()]).collect();
                format!("{parent}{separator}{{{}}}{extension}", names.join(", "))
            }
        })
        .collect()
}

/// Rust's `a::{self, b}`: a module that is also the parent of a group (`crate::runtime` beside
/// `crate::runtime::{blocking, driver}`, `crate` beside `crate::{event, sys}`) goes into that
/// group as `self`, first.
fn fold_parents_as_self(groups: &mut Vec<(&str, Vec<&str>)>, separator: &str) {
    let parents: Vec<String> =
        groups.iter().filter(|(_, leaves)| !leaves.is_empty()).map(|(parent, _)| parent.to_string()).collect();
    let mut folded: Vec<String> = Vec::new();
    groups.retain_mut(|(parent, leaves)| {
        if leaves.is_empty() {
            // A module without a parent of its own (`crate`, `serde`).
            let fold = parents.iter().any(|known| known == parent);
            if fold {
                folded.push(parent.to_string());
            }
            return !fold;
        }
        leaves.retain(|leaf| {
            let module = format!("{parent}{separator}{leaf}");
            let fold = parents.contains(&module);
            if fold {
                folded.push(module);
            }
            !fold
        });
        !leaves.is_empty()
    });
    for (parent, leaves) in groups.iter_mut() {
        if !leaves.is_empty() && folded.iter().any(|module| module == parent) {
            leaves.insert(0, "self");
        }
    }
}

/// What separates a module from its parent in `language`'s import paths, where modules share
/// parents often enough to group.
fn parent_separator(language: Language) -> Option<&'static str> {
    match language {
        Language::Rust => Some("::"),
        Language::Python | Language::Java | Language::CSharp => Some("."),
        Language::JavaScript | Language::TypeScript | Language::Tsx | Language::Go => Some("/"),
        _ => None,
    }
}

/// `effect/Context` → (`effect`, `Context`); `None` for a module to keep alone.
fn parent_and_leaf<'m>(module: &'m str, separator: &str) -> Option<(&'m str, &'m str)> {
    if module.contains([' ', '{', '}', '*']) {
        return None;
    }
    let (parent, leaf) = module.rsplit_once(separator)?;
    let dots = |part: &str| part.chars().all(|c| c == '.');
    // `./` and `../` are parents in a path; Python's `..` is a relative marker, not a module.
    let parent_named = !parent.is_empty() && (separator != "." || !dots(parent));
    (parent_named && !dots(leaf)).then_some((parent, leaf))
}

/// The `.js`-like extension every leaf ends with (JavaScript only), or `""`.
fn common_extension<'l>(language: Language, leaves: &[&'l str]) -> &'l str {
    if !matches!(language, Language::JavaScript | Language::TypeScript | Language::Tsx) {
        return "";
    }
    let extension = |leaf: &'l str| {
        leaf.rfind('.')
            .map(|dot| &leaf[dot..])
            .filter(|ext| ext.len() > 1 && ext[1..].chars().all(|c| c.is_ascii_alphabetic()))
    };
    match extension(leaves[0]) {
        Some(first) if leaves.iter().all(|leaf| extension(leaf) == Some(first) && leaf.len() > first.len()) => first,
        _ => "",
    }
}

/// `crate::runtime::Handle` → `crate::runtime`, `std::io::*` → `std::io`, `std::sync::Arc as A`
/// → `std::sync`, and a group each of its members' modules: `crate::{event, sys::Waker, Token}`
/// → `crate::event`, `crate::sys`, `crate`. A path ending in a lowercase name is kept whole: the
/// name may be a module or a function, but a capitalised one is a type or trait (by Rust's naming
/// convention).
fn rust(import: &str) -> Option<Vec<String>> {
    if import.starts_with("pub") {
        return None;
    }
    let mut out = Vec::new();
    rust_paths(import, &mut out);
    (!out.is_empty()).then_some(out)
}

/// Appends the modules of `path` (a `use` tree) to `out`, each once. A group may have no parent
/// (`use {alloc::vec::Vec, core::fmt}`, `use ::{a, b}`): its members are then whole paths.
fn rust_paths(path: &str, out: &mut Vec<String>) {
    let path = path.trim();
    let Some(open) = path.find('{') else {
        let path = path.split(" as ").next().unwrap_or(path);
        let path = path.strip_suffix("::*").unwrap_or(path);
        let path = path.strip_suffix("::self").unwrap_or(path);
        push_once(out, without_type(path, "::"));
        return;
    };
    // `a::b::{` → `a::b`, `::{` → `::` (a leading `::` is part of each member's path).
    let parent = path[..open].trim_end();
    let parent = parent.strip_suffix("::").filter(|parent| !parent.is_empty()).unwrap_or(parent);
    let inner = path[open + 1..].trim_end();
    let inner = inner.strip_suffix('}').unwrap_or(inner);
    for member in top_level_items(inner) {
        match (parent, member) {
            (_, "self" | "*") => push_once(out, parent),
            ("" | "::", member) => rust_paths(&format!("{parent}{member}"), out),
            (parent, member) => rust_paths(&format!("{parent}::{member}"), out),
        }
    }
}

fn push_once(out: &mut Vec<String>, module: &str) {
    if !module.is_empty() && !out.iter().any(|known| known == module) {
        out.push(module.to_string());
    }
}

/// The comma-separated items of a `use` group's inside, nested groups kept whole.
fn top_level_items(inner: &str) -> Vec<&str> {
    let (mut items, mut depth, mut start) = (Vec::new(), 0usize, 0);
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                items.push(inner[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(inner[start..].trim());
    items.retain(|item| !item.is_empty());
    items
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
            assert_eq!(modules(language, import), [expected], "{language:?}: {import}");
        }
        // A Rust group names each member's module.
        assert_eq!(
            modules(Language::Rust, "crate::{event, sys::{self, Waker}, Token, io::Read as _, }"),
            ["crate::event", "crate::sys", "crate", "crate::io"]
        );
        assert_eq!(modules(Language::Rust, "std::{fmt, io}"), ["std::fmt", "std::io"]);
        // A group without a parent: each member is a whole path (was `{ alloc::boxed`, and
        // `{ alloc::core::fmt`, a path that does not exist).
        assert_eq!(
            modules(
                Language::Rust,
                "{\n    alloc::{\n        boxed::Box,\n        vec::Vec,\n    },\n    core::fmt,\n}"
            ),
            ["alloc::boxed", "alloc::vec", "core::fmt"]
        );
        assert_eq!(modules(Language::Rust, "::{std::io, core::fmt::Write}"), ["::std::io", "::core::fmt"]);
        assert_eq!(modules(Language::Rust, "crate::{a::{b, c}, d}"), ["crate::a::b", "crate::a::c", "crate::d"]);
        assert_eq!(modules(Language::Rust, "super::{self, y}"), ["super", "super::y"]);
        assert_eq!(modules(Language::Rust, "::std::io"), ["::std::io"]);
    }

    #[test]
    fn modules_of_one_parent_share_it() {
        let cases: [(Language, &[&str], &[&str]); 7] = [
            (
                Language::TypeScript,
                &["effect/Context", "./Cookies.js", "effect/Effect", "./internal/client.js", "./Headers.js", "react"],
                &["effect/{Context, Effect}", "./{Cookies, Headers}.js", "./internal/client.js", "react"],
            ),
            // Extensions that differ stay on their leaves.
            (Language::TypeScript, &["./a.js", "./b.mjs", "./c"], &["./{a.js, b.mjs, c}"]),
            (
                Language::Rust,
                &["std::fmt", "crate::runtime", "std::io", "serde", "pub use self::a::{B, C}"],
                &["std::{fmt, io}", "crate::runtime", "serde", "pub use self::a::{B, C}"],
            ),
            // A module that is also a group's parent is that group's `self`.
            (
                Language::Rust,
                &["crate::runtime", "crate::runtime::blocking", "crate", "crate::util", "crate::runtime::driver"],
                &["crate::{self, util}", "crate::runtime::{self, blocking, driver}"],
            ),
            // Relative markers and statements kept as written are never merged.
            (
                Language::Python,
                &[".config", ".utils", "os.path", "os.sys", "os.path, sys"],
                &[".config", ".utils", "os.{path, sys}", "os.path, sys"],
            ),
            (Language::Go, &["crypto", "crypto/rsa", "fmt", "crypto/x509"], &["crypto", "crypto/{rsa, x509}", "fmt"]),
            (Language::C, &["<a/b.h>", "<a/c.h>"], &["<a/b.h>", "<a/c.h>"]),
        ];
        for (language, modules, expected) in cases {
            let modules: Vec<String> = modules.iter().map(|m| m.to_string()).collect();
            assert_eq!(grouped(language, &modules), expected, "{language:?}: {modules:?}");
        }
    }
}
