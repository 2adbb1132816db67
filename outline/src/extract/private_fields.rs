//! The definitions the views leave out, being no part of a file's API: a Java class's `private
//! static final long serialVersionUID`, a Rust struct's field without `pub`, a Python module's
//! `_registry`, a C++ class's `private:` members. Symbol search finds them all the same. Each
//! language's [`Spec::private`](super::Spec::private) says which declarations to read; what the outline lists already
//! is left out here, so whatever keeps a name out of the views (a rule, an access section) is
//! answered once.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use tree_sitter::{Node, Tree};

use super::{MAX_DEPTH, Private, code_spec, declaration_start, every_definition};
use crate::model::{Definition, Kind, Outline, several_names};
use crate::text::line_number;

/// A definition the views leave out ([`private_fields()`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrivateDefinition {
    pub name: String,
    pub kind: Kind,
    /// The line that names it, past its annotations.
    pub line: u32,
    /// The definition it is declared in: a field's type, a nested function's enclosing function
    /// (`inner2` of Python's `deepest` in `def inner2():`), listed or not; `None` at the file's
    /// level. Symbol search finds it by this as its owner (`outer::inner2::deepest`).
    pub encloser: Option<String>,
}

/// Each name a declaration of [`Spec::private`](super::Spec::private) binds that `outline` does not list, with what it
/// is, the line that names it (past its annotations) and what it is declared in, in source order.
/// `tree` is the parse `outline` was extracted from.
pub(crate) fn private_fields(outline: &Outline, tree: &Tree, source: &str) -> Vec<PrivateDefinition> {
    let Some(spec) = code_spec(outline.language).filter(|spec| !spec.private.is_empty()) else {
        return Vec::new();
    };
    let listed: HashSet<(&str, u32)> = every_definition(&outline.items)
        .flat_map(|definition| definition.names().into_iter().map(|name| (name, definition.head_line)))
        .collect();
    let mut found = Vec::new();
    let mut unlisted = Vec::new();
    let mut visit = Visit {
        kinds: spec.private,
        source,
        listed: &listed,
        enclosing: Vec::new(),
        found: &mut found,
        unlisted: &mut unlisted,
    };
    visit.node(tree.root_node(), 0);
    let outlined: Vec<&Definition> = every_definition(&outline.items).collect();
    let lines: Vec<u32> = found.iter().map(|definition| definition.line).collect();
    let around = innermost_listed(&outlined, &lines);
    let holders: Vec<&Definition> = outlined.into_iter().filter(|definition| !is_leaf(definition)).collect();
    let held_in = innermost_listed(&holders, &lines);
    for (((definition, unlisted), listed), holder) in found.iter_mut().zip(unlisted).zip(around).zip(held_in) {
        let listed = listed.filter(|listed| holds(listed, &definition.name)).or(holder);
        definition.encloser = encloser(unlisted, listed);
    }
    found
}

/// A listed field, property, or constant or variable without members: a definition that holds
/// no other but where it is written around it.
fn is_leaf(definition: &Definition) -> bool {
    match definition.kind {
        Kind::Field | Kind::Property => true,
        Kind::Const | Kind::Variable => definition.children.is_empty(),
        _ => false,
    }
}

/// Whether the listed `definition` around a declaration of `name` holds it: any but a leaf on
/// one line, which holds it only where its text names it (an enum variant's field, `Slow {
/// delay_ms: u64 }`; the private half of `_cache, cached = {}, False`). A field written beside it
/// (`pub a: u8, b: u8`, `private x = 1; y = 2`) was taken for its encloser, and its type counted
/// none.
fn holds(definition: &Definition, name: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || c == '_' || c == '$' || c == '#';
    let names = |text: &str| {
        text.match_indices(name).any(|(at, _)| {
            !text[..at].chars().next_back().is_some_and(part)
                && !text[at + name.len()..].chars().next().is_some_and(part)
        })
    };
    !is_leaf(definition) || definition.start_line < definition.end_line || names(&definition.signature)
}

struct Visit<'a> {
    kinds: &'static [Private],
    source: &'a str,
    listed: &'a HashSet<(&'a str, u32)>,
    /// The unlisted functions and types around the node visited, innermost last, with their lines.
    enclosing: Vec<(String, u32)>,
    /// What is found, its encloser left to [`encloser`] once the walk is done.
    found: &'a mut Vec<PrivateDefinition>,
    /// For each of `found`, the innermost unlisted definition around it, with its line.
    unlisted: &'a mut Vec<Option<(String, u32)>>,
}

impl Visit<'_> {
    fn node(&mut self, node: Node, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let mut encloses = None;
        for private in self.kinds.iter().filter(|private| private.node == node.kind()) {
            let Some((kind, names)) = (private.kind)(node, self.source).zip((private.names)(node, self.source)) else {
                continue;
            };
            let line = line_number(declaration_start(node).start_position().row);
            let names = several_names(&names).unwrap_or_else(|| vec![names.as_str()]);
            if !matches!(kind, Kind::Field | Kind::Variable | Kind::Const | Kind::Property) {
                encloses = names.first().map(|name| (name.to_string(), line));
            }
            for name in names.into_iter().filter(|name| !self.listed.contains(&(*name, line))) {
                self.found.push(PrivateDefinition { name: name.to_string(), kind, line, encloser: None });
                self.unlisted.push(self.enclosing.last().cloned());
            }
        }
        let pushed = encloses.map(|encloser| self.enclosing.push(encloser)).is_some();
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            self.node(child, depth + 1);
        }
        if pushed {
            self.enclosing.pop();
        }
    }
}

/// The name of the innermost definition around a declaration: the unlisted one being visited
/// (`unlisted`), or the listed one whose lines hold it (`listed`), whichever starts later (the
/// unlisted one on a tie: it is inside).
fn encloser(unlisted: Option<(String, u32)>, listed: Option<&Definition>) -> Option<String> {
    let listed = listed.map(|definition| (definition.owner_name(), definition.start_line));
    match (unlisted, listed) {
        (Some((name, start)), Some((_, listed_start))) if start >= listed_start => Some(name),
        (_, Some((name, _))) => Some(name.to_string()),
        (Some((name, _)), None) => Some(name),
        (None, None) => None,
    }
}

/// For each of `lines`, the listed definition innermost around a declaration there: of those
/// whose lines hold it, the one starting last, the shorter on a tie.
///
/// One sweep over the lines in order, the definitions started so far in a heap, so a file of
/// thousands of types with private fields is not searched once per field.
fn innermost_listed<'d>(definitions: &[&'d Definition], lines: &[u32]) -> Vec<Option<&'d Definition>> {
    let mut by_start = definitions.to_vec();
    by_start.sort_by_key(|definition| definition.start_line);
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by_key(|&at| lines[at]);
    // Started definitions by (start, shorter first, order): the top is the innermost once those
    // ended above the line are dropped (lines only grow, so they hold none after it either).
    let mut started = BinaryHeap::new();
    let mut next = 0;
    let mut answers = vec![None; lines.len()];
    for at in order {
        let line = lines[at];
        while let Some(definition) = by_start.get(next).filter(|definition| definition.start_line <= line) {
            started.push((definition.start_line, Reverse(definition.end_line), next));
            next += 1;
        }
        while started.peek().is_some_and(|&(_, Reverse(end), _)| end < line) {
            started.pop();
        }
        answers[at] = started.peek().map(|&(_, _, index)| by_start[index]);
    }
    answers
}

#[cfg(test)]
mod tests {
    use crate::model::Kind;
    use crate::{Language, outline_and_tree, private_fields};

    /// What `private_fields` finds in `source` is `expected` (name, kind, line), in order.
    fn assert_found(language: Language, source: &str, expected: &[(&str, Kind, u32)]) {
        let (outline, tree) = outline_and_tree(language, source);
        let found: Vec<(String, Kind, u32)> = private_fields(&outline, &tree.unwrap(), source)
            .into_iter()
            .map(|definition| (definition.name, definition.kind, definition.line))
            .collect();
        let expected: Vec<(String, Kind, u32)> =
            expected.iter().map(|&(name, kind, line)| (name.to_string(), kind, line)).collect();
        assert_eq!(found, expected, "{language:?}");
    }

    /// The items a function's body declares that the views leave out are found: its nested
    /// functions and constants, and a type in a block inside it; its types, listed by the views
    /// as the file's own items are, are not found twice.
    #[test]
    fn rust_items_in_function_bodies_are_found() {
        let source = "pub struct Top { a: u8 }\n\nfn run() {\n    #[derive(Debug)]\n    struct Row {\n        id: u32,\n    }\n    \
                      enum Step { One }\n    fn helper() {}\n    const LIMIT: u8 = 3;\n    if true {\n        struct Deep;\n    }\n}\n\n\
                      #[cfg(test)]\nmod tests {\n    #[test]\n    fn works() {}\n}\n";
        let expected = [
            ("a", Kind::Field, 1),
            ("id", Kind::Field, 6),
            ("helper", Kind::Function, 9),
            ("LIMIT", Kind::Const, 10),
            ("Deep", Kind::Struct, 12),
        ];
        assert_found(Language::Rust, source, &expected);
    }

    /// A C# method's local functions are found, at any depth of its body; a program's top-level
    /// local functions, which the views list, are not found twice.
    #[test]
    fn csharp_local_functions_are_found() {
        let source = "static int Twice(int x) => x * 2;\n\nclass Parser\n{\n    public int Parse(string text)\n    {\n        \
                      int Digit(char c) => c - '0';\n        if (text.Length > 0)\n        {\n            \
                      static bool IsSign(char c) { return c == '-'; }\n            return IsSign(text[0]) ? 0 : Digit(text[0]);\n        \
                      }\n        return Twice(0);\n    }\n}\n";
        let expected = [("Digit", Kind::Function, 7), ("IsSign", Kind::Function, 10)];
        assert_found(Language::CSharp, source, &expected);
    }

    /// A Go type declared in a closure or a block inside a function is found; those the views
    /// list, at the file's level and in a function's body, are not found twice.
    #[test]
    fn go_types_in_closures_are_found() {
        let source = "package p\n\ntype Top struct{}\n\nfunc TestX(t *testing.T) {\n\ttype listed struct{}\n\t\
                      t.Run(\"a\", func(t *testing.T) {\n\t\ttype testCase struct{ in int }\n\t\ttype id = int\n\t})\n\t\
                      if true {\n\t\ttype shape interface{ Area() int }\n\t}\n}\n";
        let expected = [
            ("testCase", Kind::Struct, 8),
            ("in", Kind::Field, 8),
            ("id", Kind::TypeAlias, 9),
            ("shape", Kind::Interface, 12),
        ];
        assert_found(Language::Go, source, &expected);
    }

    /// A Java type declared in a lambda, a block or an initializer inside a class is found; those
    /// the views list, nested in a type or in a method's body, are not found twice.
    #[test]
    fn java_types_in_lambdas_and_blocks_are_found() {
        let source = "class J {\n    class Nested {}\n    static {\n        record Seed(int n) {}\n    }\n    \
                      void m(boolean b) {\n        enum Listed { A }\n        if (b) {\n            class Deep {}\n        }\n        \
                      Runnable r = () -> {\n            interface InLambda {}\n        };\n    }\n}\n";
        let expected = [("Seed", Kind::Class, 4), ("Deep", Kind::Class, 9), ("InLambda", Kind::Interface, 12)];
        assert_found(Language::Java, source, &expected);
    }

    /// A Python function's nested `def`s are found, a method's too, at any depth; a lambda bound
    /// to a local is not (a local, as a Rust `let`), nor are the functions the views list.
    #[test]
    fn python_nested_functions_are_found() {
        let source = "def outer():\n    def helper():\n        pass\n    square = lambda x: x * x\n    if True:\n        \
                      @wraps(outer)\n        async def deep():\n            pass\n    return helper\n\n\
                      class K:\n    def method(self):\n        def inner():\n            pass\n";
        let expected = [("helper", Kind::Function, 2), ("deep", Kind::Function, 7), ("inner", Kind::Function, 13)];
        assert_found(Language::Python, source, &expected);
    }

    /// Each is found with what it is declared in, listed or not: a nested function's enclosing
    /// function (`inner2` of `deepest`, a method's `m` of `local`), a private field's type; a
    /// module's own private name with none.
    #[test]
    fn each_is_found_with_its_encloser() {
        let enclosers = |language: Language, source: &str| -> Vec<(String, Option<String>)> {
            let (outline, tree) = outline_and_tree(language, source);
            let found = private_fields(&outline, &tree.unwrap(), source).into_iter();
            found.map(|definition| (definition.name, definition.encloser)).collect()
        };
        let owned = |name: &str, encloser: Option<&str>| (name.to_string(), encloser.map(str::to_string));
        let python = "_cache = {}\n\ndef outer(v):\n    def inner(y):\n        return y\n    def inner2():\n        \
                      def deepest():\n            return inner(v)\n        return deepest()\n    return inner2()\n\n\
                      class C:\n    _n = 1\n    def m(self):\n        def local():\n            return 1\n        return local()\n";
        let expected = [
            owned("_cache", None),
            owned("inner", Some("outer")),
            owned("inner2", Some("outer")),
            owned("deepest", Some("inner2")),
            owned("_n", Some("C")),
            owned("local", Some("m")),
        ];
        assert_eq!(enclosers(Language::Python, python), expected);
        let javascript =
            "function outer(type) {\n  function inner(t) {\n    return t;\n  }\n  return inner(type);\n}\n";
        assert_eq!(enclosers(Language::JavaScript, javascript), [owned("inner", Some("outer"))]);
    }

    /// A JavaScript or TypeScript function's nested `function` and `function*` declarations are
    /// found, a method's and an arrow function's too; a function value bound to a local `const`
    /// is not (a local, as a Rust `let`), nor are the functions the views list.
    #[test]
    fn javascript_nested_functions_are_found() {
        let source = "export function outer() {\n  function helper() {}\n  function* pairs() {}\n  \
                      const local = () => {};\n  return helper;\n}\n\nclass K {\n  m() {\n    function inMethod() {}\n  }\n}\n\n\
                      export const run = () => {\n  function inArrow() {}\n};\n";
        let expected = [
            ("helper", Kind::Function, 2),
            ("pairs", Kind::Function, 3),
            ("inMethod", Kind::Function, 10),
            ("inArrow", Kind::Function, 15),
        ];
        for language in [Language::JavaScript, Language::TypeScript] {
            assert_found(language, source, &expected);
        }
    }

    /// A C or C++ type declared deeper in a function than its body's own level (in an `if`'s
    /// block, a loop, a lambda) is found, with its fields; one the views list, at the body's own
    /// level or the file's, is not found twice.
    #[test]
    fn c_and_cpp_types_in_blocks_and_lambdas_are_found() {
        let c = "struct top { int a; };\n\nint f(int x) {\n    struct listed { int b; };\n    if (x) {\n        \
                 struct deep { int c; };\n        union both { int i; float f; };\n    }\n    return 0;\n}\n";
        let expected = [
            ("deep", Kind::Struct, 6),
            ("c", Kind::Field, 6),
            ("both", Kind::Struct, 7),
            ("i", Kind::Field, 7),
            ("f", Kind::Field, 7),
        ];
        assert_found(Language::C, c, &expected);
        let cpp = "void run() {\n    auto visit = [](int v) {\n        struct Local {\n            int v;\n        };\n        \
                   enum class Mode { A };\n        return v;\n    };\n    for (;;) {\n        class Inner {};\n    }\n}\n";
        let expected =
            [("Local", Kind::Struct, 3), ("v", Kind::Field, 4), ("Mode", Kind::Enum, 6), ("Inner", Kind::Class, 10)];
        assert_found(Language::Cpp, cpp, &expected);
    }

    /// The members of a Java type declared below a method's own level (a local class in a lambda,
    /// an anonymous class a local holds, a class in that one's method) are found with it.
    #[test]
    fn java_members_of_types_in_lambdas_are_found() {
        let source = "class J {\n    void m() {\n        Runnable r = () -> {\n            class InLambda {\n                \
                      int count;\n                InLambda() {}\n                int next() { return count++; }\n            }\n        };\n        \
                      Object o = new Object() {\n            void touch() {\n                class Deeper {\n                    \
                      void poke() {}\n                }\n            }\n        };\n    }\n}\n";
        let expected = [
            ("InLambda", Kind::Class, 4),
            ("count", Kind::Field, 5),
            ("InLambda", Kind::Constructor, 6),
            ("next", Kind::Method, 7),
            ("touch", Kind::Method, 11),
            ("Deeper", Kind::Class, 12),
            ("poke", Kind::Method, 13),
        ];
        assert_found(Language::Java, source, &expected);
    }

    /// A constructor's parameter properties are the class's fields, whatever their access; its
    /// plain parameters are not.
    #[test]
    fn typescript_parameter_properties_are_fields() {
        let source = "export class Client {\n  constructor(\n    private readonly http: Http,\n    public base?: string,\n    \
                      readonly retries = 3,\n    plain: number,\n  ) {}\n}\n";
        let (outline, tree) = outline_and_tree(Language::TypeScript, source);
        let found: Vec<(String, u32)> = private_fields(&outline, &tree.unwrap(), source)
            .into_iter()
            .map(|found| (found.name, found.line))
            .collect();
        let expected = [("http", 3), ("base", 4), ("retries", 5)].map(|(name, line)| (name.to_string(), line));
        assert_eq!(found, expected);
    }
}
