//! The outline data model shared by the extractors, the fallback scanner and the renderers.

use crate::Language;

/// What a [`Definition`] is. Labels are language-neutral so one agent prompt fits every language;
/// the exact keyword is still visible in the signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Function,
    /// A function that belongs to a type (class/impl/struct/interface/trait body, Go receiver).
    Method,
    Constructor,
    Struct,
    Class,
    Enum,
    Trait,
    Interface,
    /// A Rust `impl` block.
    Impl,
    /// Module, namespace or package.
    Module,
    TypeAlias,
    Const,
    /// Package- or module-level mutable or static storage (`static`, Go `var`, C globals).
    Variable,
    Macro,
    /// A C# property.
    Property,
    /// A field that is part of a type's API: a Go exported struct field (or exported type
    /// embedded in a struct or interface), a Rust `pub` field, a TypeScript interface property or
    /// non-private class field, a Java/C# public field. A declaration of several (`A, B int`)
    /// gives one per name, sharing its signature.
    Field,
    /// A Markdown heading.
    Heading,
    /// A top-level key of a JSON, YAML or TOML document.
    Key,
    /// A TOML `[table]` or `[[array-of-tables]]` header.
    Table,
    /// A JavaScript/TypeScript export list or re-export (`export { a } from './a'`, `export *`):
    /// the module's API without a declaration of its own.
    Export,
}

impl Kind {
    /// The short label the map view prints before a definition's name.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Function => "fn",
            Kind::Method => "method",
            Kind::Constructor => "ctor",
            Kind::Struct => "struct",
            Kind::Class => "class",
            Kind::Enum => "enum",
            Kind::Trait => "trait",
            Kind::Interface => "interface",
            Kind::Impl => "impl",
            Kind::Module => "mod",
            Kind::TypeAlias => "type",
            Kind::Const => "const",
            Kind::Variable => "var",
            Kind::Macro => "macro",
            Kind::Property => "prop",
            Kind::Field => "field",
            Kind::Heading => "heading",
            Kind::Key => "key",
            Kind::Table => "table",
            Kind::Export => "export",
        }
    }

    /// Whether this is a function of some sort: a free function, a method or a constructor.
    pub(crate) fn is_function(self) -> bool {
        matches!(self, Kind::Function | Kind::Method | Kind::Constructor)
    }

    /// Whether functions declared directly inside this kind are its methods. A constant or
    /// variable has functions inside only as an object of methods bound to it (JavaScript's `var
    /// Utils = { trim: function (s) {…} }`), called as `Utils.trim`; a field, as the body of a
    /// Java enum constant or the anonymous class a field holds.
    pub(crate) fn owns_methods(self) -> bool {
        matches!(
            self,
            Kind::Class
                | Kind::Struct
                | Kind::Enum
                | Kind::Trait
                | Kind::Interface
                | Kind::Impl
                | Kind::Const
                | Kind::Variable
                | Kind::Field
        )
    }
}

/// One definition in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    pub kind: Kind,
    pub name: String,
    /// The declaration head on one line: whitespace collapsed, body and comments removed. It aims
    /// at 200 characters: past that, attributes and decorators are shortened first (`#[cfg(…)]`,
    /// `@click.option(…) ×6`), then what follows the parameters (return type, bounds, bases) ends
    /// in `…`. The name and parameters are never cut below a hard cap of 1000 characters.
    pub signature: String,
    /// The head on one line as written (whitespace collapsed, long decorations shortened) when
    /// `signature` shortened it further: its types emptied, its parameters untyped, its tail cut
    /// or its type parameters' bounds and defaults elided (`<T, K…>`). What reads types from a
    /// head (the code graph's return types) needs it whole, and so does what compares heads (a
    /// run shares a line only when alike as written); `None` when `signature` is the whole head.
    pub uncut: Option<String>,
    /// 1-based, inclusive. Includes decorators/annotations/`export`/`template<…>` in front of it.
    pub start_line: u32,
    /// 1-based line where the declaration itself begins, after what `start_line` includes in
    /// front of it: the line to point at.
    pub head_line: u32,
    /// 1-based, inclusive; trailing blank lines are not counted.
    pub end_line: u32,
    /// Members, in source order (Go methods are placed under their receiver type).
    pub children: Vec<Definition>,
    /// A type's fields that `children` leaves out as no part of its API, counted: the views say
    /// how many, so a field list never reads as complete when it is not (`type fundamental
    /// struct { +2 unexported }`, `pub struct S { pub a: u32; +2 private }`). They are Go's
    /// unexported fields (named or embedded), a Rust field without `pub`, a Java field neither
    /// public nor protected, a C# one neither public nor protected, TypeScript's `private` and
    /// `#private` fields, a Python class's `_name`, C++'s private data members, a Ruby class's
    /// private attributes.
    pub hidden_fields: u32,
}

impl Definition {
    /// Each name the definition declares. A declaration of several (Go's `var A, B`, Python's
    /// `MIN, MAX = 1, 9`) is named by all of them, joined by `, `; any other name is one, commas
    /// and all (`From<(A, B)> for Pair`).
    pub fn names(&self) -> Vec<&str> {
        several_names(&self.name).unwrap_or_else(|| vec![self.name.as_str()])
    }

    /// The renames an ES export list writes, `(local, exported)` for each `local as exported` of
    /// `export { a as b }` (and `export type { … }`), and whether the list re-exports another
    /// module's (`export { a as b } from './m'`); none for any other definition. Names quoted
    /// (`as "a-b"`) or `default` are left out: no code names them so.
    pub fn export_renames(&self) -> (Vec<(&str, &str)>, bool) {
        let head = self.signature.trim_start();
        let list = head.strip_prefix("export").map(str::trim_start);
        let list = list.map(|list| list.strip_prefix("type").map_or(list, str::trim_start));
        let Some((inside, after)) = list.and_then(|list| list.strip_prefix('{')).and_then(|list| list.split_once('}'))
        else {
            return (Vec::new(), false);
        };
        let plain = |name: &str| !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$');
        let renames = inside
            .split(',')
            .filter_map(|item| item.trim().strip_prefix("type ").unwrap_or(item.trim()).split_once(" as "))
            .map(|(local, exported)| (local.trim(), exported.trim()))
            .filter(|(local, exported)| plain(local) && plain(exported) && *exported != "default" && local != exported)
            .collect();
        (renames, after.trim_start().starts_with("from"))
    }

    /// The name its members are qualified by (`Type::member`, `Type.member`): see
    /// [`qualifying_name`].
    pub fn owner_name(&self) -> &str {
        qualifying_name(&self.name)
    }

    /// Each name with what it names. A type defined in a declaration of something of it (C's
    /// `struct seen { … } *table;`, named `seen, table`) is the type by its first name; the
    /// others are what is declared of it: variables, or fields when the declaration is a type's
    /// member (`in_type`).
    pub fn named_kinds(&self, in_type: bool) -> Vec<(&str, Kind)> {
        let names = self.names();
        let declares_of_type = matches!(self.kind, Kind::Struct | Kind::Class | Kind::Enum);
        let declared = if in_type { Kind::Field } else { Kind::Variable };
        let kind = |at: usize| if at > 0 && declares_of_type { declared } else { self.kind };
        names.into_iter().enumerate().map(|(at, name)| (name, kind(at))).collect()
    }

    /// Exports, one a line from line 1, with the signatures given: what the tests of the
    /// renderers' export runs feed them.
    #[cfg(test)]
    pub(crate) fn exports_one_a_line(signatures: &[&str]) -> Vec<Definition> {
        let at = |line: usize| u32::try_from(line + 1).unwrap();
        signatures
            .iter()
            .enumerate()
            .map(|(line, signature)| Definition {
                kind: Kind::Export,
                name: String::new(),
                signature: signature.to_string(),
                uncut: None,
                start_line: at(line),
                head_line: at(line),
                end_line: at(line),
                children: Vec::new(),
                hidden_fields: 0,
            })
            .collect()
    }
}

/// The names of a definition's name that declares several (see [`Definition::names`]); `None`
/// for one name.
pub(crate) fn several_names(name: &str) -> Option<Vec<&str>> {
    let names: Vec<&str> = name.split(", ").collect();
    let several =
        names.len() > 1 && names.iter().all(|name| name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$'));
    several.then_some(names)
}

/// One import/dependency statement (`use`, `import`, `#include`, `require`, `using`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// The statement on one line, without its leading keyword where that keyword adds nothing
    /// (`use `, `import `, `#include `, `using `, `require `) and without a trailing `;`.
    pub text: String,
    pub line: u32,
    /// The statement's last line: `line` unless it is written over several.
    pub end_line: u32,
}

/// The structural outline of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outline {
    pub language: Language,
    /// Top-level imports, in source order.
    pub imports: Vec<Import>,
    /// Top-level definitions, in source order.
    pub items: Vec<Definition>,
    /// Set when the tree-sitter outline could not be produced (parser panic, time budget
    /// exhausted, input too large) and a line-based heuristic outline was used instead.
    pub degraded: Option<String>,
    /// Line spans (1-based, inclusive, in order, disjoint) where definitions may be missing: the
    /// syntax errors tree-sitter found (in the file or in a macro body it read as items) on lines
    /// that look like definitions and outside declarations that were outlined anyway, regions it
    /// could not parse, or the whole file when [`Outline::degraded`]. The views say so on their
    /// first line.
    pub unparsed: Vec<(u32, u32)>,
    /// Line spans (1-based, inclusive, in order) of file-level code the outline cannot see into
    /// and lists nothing for: a Rust macro call that declares no item the grammar can read. A line
    /// the views join a run of definitions on (`macro_rules! {a, b}`, `const A, B`) does not
    /// span one, nor an [`Outline::unparsed`] span: it would claim lines it does not describe.
    pub unlisted: Vec<(u32, u32)>,
    /// The keys of a data file (JSON, YAML, TOML) nested deeper than the views list: a top-level
    /// key's line names its value's keys (`services {web, db}`), not theirs. The views count them
    /// on a line of their own, with the spans to read for them.
    pub unlisted_keys: UnlistedKeys,
}

/// Keys an outline holds no line for (see [`Outline::unlisted_keys`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnlistedKeys {
    pub count: usize,
    /// The spans (1-based, inclusive, in order) of the listed keys they are nested in.
    pub spans: Vec<(u32, u32)>,
}

/// The name a definition named `name` qualifies its members by: the type an `impl` block is for
/// (`Store` for `impl<T> Codec for Store<T>`), without type parameters (`List` for `List[T]`) or
/// path (`C` for `a::b::C`).
pub fn qualifying_name(name: &str) -> &str {
    let path = qualifying_path(name);
    path.rsplit("::").next().unwrap_or(path)
}

/// [`qualifying_name`] with the path it is written with: `crate::model::Item` for `impl
/// fmt::Display for crate::model::Item<'a>`, `Thor::Util` for Ruby's `module Thor::Util`.
pub fn qualifying_path(name: &str) -> &str {
    let target = name.rsplit_once(" for ").map_or(name, |(_, target)| target);
    target.split(['<', '[']).next().unwrap_or(target).trim()
}

#[cfg(test)]
mod tests {
    use super::{qualifying_name, qualifying_path};

    #[test]
    fn a_qualifying_name_drops_traits_type_parameters_and_paths() {
        assert_eq!(qualifying_name("Store"), "Store");
        assert_eq!(qualifying_name("Codec for Store<T>"), "Store");
        assert_eq!(qualifying_name("fmt::Display for crate::model::Item<'a>"), "Item");
        assert_eq!(qualifying_name("List[T]"), "List");
        assert_eq!(qualifying_path("fmt::Display for crate::model::Item<'a>"), "crate::model::Item");
        assert_eq!(qualifying_path("Thor::Util"), "Thor::Util");
    }
}
