//! C and C++ (one table: C++'s grammar extends C's). Function names are found through the
//! declarator chain (`*`, `&`, parentheses, qualified names). A struct's or union's fields, a
//! class's public data members and an enum's enumerators are the type's API, listed as its
//! fields. The types a function declares in its body are listed under it.

use tree_sitter::Node;

use super::{Constructors, Prefix, Private, Rule, Sections, Spec, always, name_field};
use crate::model::Kind;
use crate::text::node_text;

pub(super) static SPEC: Spec = Spec {
    rules: &[
        // The member initialiser list of a constructor is body, not interface. The body is walked
        // for the types it declares (a local `struct Entry` a sort compares, a `using Clock =
        // …`), listed under the function; its other locals are not outlined.
        Rule::new("function_definition", Kind::Function)
            .named(declarator_name)
            .head_end(&["field_initializer_list", "body"])
            .members("body"),
        // A member or a variable declaring a named type in place (`struct hdr { … } *h;`, `static
        // struct seen { … } *table;`) is that type, with its fields, which code names (`struct
        // hdr *`), and the member or variable after it, as a typedef's; named by both (see
        // `inline_type_name`). In a function's body it is one of the types listed under it.
        inline_type_rule("field_declaration"),
        inline_type_rule("declaration"),
        // Prototypes, and file-level variables, whose array dimensions are their declarators'.
        Rule::classify("declaration", declaration).named(declarator_name).head_end(&["declarator/value"]).declarators(),
        // Method declarations in a class, and the data members another file can use. A member
        // whose anonymous type is defined in place shows it: `struct { int hits, misses; } stats`.
        Rule::classify("field_declaration", member).named(member_names).whole(),
        // Only with a body: `struct foo *p` is a use, `struct foo;` a forward declaration.
        Rule::new("struct_specifier", Kind::Struct).requires("body").members("body"),
        Rule::new("union_specifier", Kind::Struct).requires("body").members("body"),
        Rule::new("class_specifier", Kind::Class).requires("body").members("body"),
        Rule::new("enum_specifier", Kind::Enum).requires("body").members("body"),
        Rule::new("enumerator", Kind::Field).whole(),
        Rule::classify("type_definition", typedef)
            .named(declarator_name)
            .head_end(&["type/body"])
            .keep_tail()
            .members("type/body"),
        Rule::new("namespace_definition", Kind::Module).members("body"),
        Rule::new("alias_declaration", Kind::TypeAlias).whole(),
        Rule::new("preproc_function_def", Kind::Macro).head_end(&["value"]),
        // `#define NAME value`; include guards (`#define NAME`) have no value and are skipped.
        Rule::classify("preproc_def", defined_constant).requires("value").head_end(&["value"]),
        // Where the grammar does not expect a directive (an enum's body: `RED = 1,\n#define
        // F_RED (1 << RED)`), a `#define` is a call of a directive; it defines all the same.
        Rule::classify("preproc_call", defining_call).named(defined_name).whole(),
    ],
    // Conditional blocks are searched through like transparent kinds, but as wrappers that add
    // nothing to a head, so an access label's section goes on inside them (`private:` and then
    // `#ifdef DEBUG int secret; #endif`).
    wrappers: &[
        ("template_declaration", Prefix::Full),
        ("preproc_if", Prefix::Nothing),
        ("preproc_ifdef", Prefix::Nothing),
        ("preproc_else", Prefix::Nothing),
        ("preproc_elif", Prefix::Nothing),
        ("preproc_elifdef", Prefix::Nothing),
    ],
    attributes: &[],
    // `<typename T, …>` of a template: shortened to `<…>` when the line is too long.
    decorations: &["template_parameter_list"],
    unshown: &[],
    conditional: None,
    // C++'s access labels: a member under `protected:` or `private:` says so in its head, and a
    // private data member is not listed.
    sections: Some(Sections {
        word: access_label,
        applies_to: is_member,
        unlisted: &["private"],
        branches: &[],
        by_name: None,
    }),
    module_factories: false,
    class_constants: false,
    error_ends_head: false,
    layout_judged: false,
    margin_nests: false,
    indentation_is_syntax: false,
    multiline_strings: &[],
    implied: &[],
    abridged: &[],
    elided: &[],
    untyped: None,
    reparse: None,
    invoked_body: None,
    unparsed_lead: Some(crate::macro_words::unparsed_lead),
    overloads: None,
    transparent: &[
        "linkage_specification",
        "declaration_list",
        "field_declaration",
        // Anonymous namespaces have no name, so their rule declines them.
        "namespace_definition",
    ],
    member_lists: &[],
    imports: &["preproc_include", "using_declaration"],
    is_import: always,
    import_keywords: &["#include ", "using "],
    constructors: Constructors::OwnerName,
    private: &[
        Private { node: "field_declaration", names: member_names, kind: any_member },
        // A type declared deeper in a function than its body's own level (in an `if`'s block, a
        // loop, a lambda) is in no view, and a reader still looks for it by name.
        Private { node: "struct_specifier", names: name_field, kind: defined_type },
        Private { node: "union_specifier", names: name_field, kind: defined_type },
        Private { node: "class_specifier", names: name_field, kind: defined_type },
        Private { node: "enum_specifier", names: name_field, kind: defined_type },
    ],
};

/// What a struct, union, class or enum specifier defines, when it has a body (`struct hdr *h;`
/// only names one).
fn defined_type(node: Node, _: &str) -> Option<Kind> {
    node.child_by_field_name("body")?;
    Some(match node.kind() {
        "enum_specifier" => Kind::Enum,
        "class_specifier" => Kind::Class,
        _ => Kind::Struct,
    })
}

/// Declarator kinds that wrap the declared name.
const DECLARATOR_WRAPPERS: [&str; 7] = [
    "function_declarator",
    "pointer_declarator",
    "reference_declarator",
    "init_declarator",
    "array_declarator",
    "parenthesized_declarator",
    "attributed_declarator",
];

/// Follows `declarator` fields (or the wrapped declarator of `&`/parentheses) down to the name.
/// Also reports whether the chain declares a function (as opposed to a pointer to one).
fn declarator_chain(node: Node) -> Option<(Node, bool)> {
    chain_from(node.child_by_field_name("declarator")?)
}

/// [`declarator_chain`] from one declarator (a declaration may have several: `int a, *b;`).
/// What the name is, is said by the declarator nearest to it, the last on the way in: `(*name)(…)`
/// is a pointer to a function, `(*name(…))(…)` a function returning one (openssl's `int
/// (*EVP_MD_meth_get_init(const EVP_MD *md))(EVP_MD_CTX *ctx)`), `*name[4]` an array.
fn chain_from(declarator: Node) -> Option<(Node, bool)> {
    let mut current = declarator;
    let mut function = false;
    for _ in 0..super::MAX_DEPTH {
        match current.kind() {
            "function_declarator" => function = true,
            "pointer_declarator" | "reference_declarator" | "array_declarator" => function = false,
            kind if !DECLARATOR_WRAPPERS.contains(&kind) => return Some((current, function)),
            _ => {}
        }
        current = current.child_by_field_name("declarator").or_else(|| current.named_child(0))?;
    }
    None
}

fn declarator_name(node: Node, source: &str) -> Option<String> {
    declarator_chain(node).map(|(name, _)| node_text(name, source).to_string())
}

fn declares_function(node: Node) -> bool {
    declarator_chain(node).is_some_and(|(_, function)| function)
}

fn declaration(node: Node, _: &str) -> Option<Kind> {
    Some(if declares_function(node) { Kind::Function } else { Kind::Variable })
}

/// A `node` (a member or a declaration) that defines a named type in place and declares something
/// of it is that type (see [`inline_type`]).
const fn inline_type_rule(node: &'static str) -> Rule {
    Rule::classify(node, inline_type).named(inline_type_name).head_end(&["type/body"]).keep_tail().members("type/body")
}

/// The type a member defines in place under a name of its own (`struct hdr { … } *h;`), when it
/// declares a member of it: a nested type's bare declaration (`class Visitor { … };`) is declined
/// here and in [`member`], so the walker lists the type by its own rule.
fn named_inline_type(node: Node) -> Option<Node> {
    let ty = node.child_by_field_name("type")?;
    let defines = ty.child_by_field_name("name").is_some() && ty.child_by_field_name("body").is_some();
    defines.then_some(ty)
}

fn inline_type(node: Node, _: &str) -> Option<Kind> {
    let ty = named_inline_type(node)?;
    node.child_by_field_name("declarator")?;
    Some(match ty.kind() {
        "enum_specifier" => Kind::Enum,
        "class_specifier" => Kind::Class,
        _ => Kind::Struct,
    })
}

/// The type's name, then the members declared of it (`hdr, h` of `struct hdr { … } *h;`): both
/// are names code uses, `struct hdr *` and `v.h`.
fn inline_type_name(node: Node, source: &str) -> Option<String> {
    let mut names = vec![node_text(named_inline_type(node)?.child_by_field_name("name")?, source)];
    names.extend(declared_names(node, source));
    Some(names.join(", "))
}

/// A method declaration, or a data member: a struct's or union's, or a class's under an access
/// label (whose section keeps a private one out, see [`access_label`]; a `protected` one is a
/// subclass's API, as Java's and C#'s are). A class's members before any label are private.
fn member(node: Node, source: &str) -> Option<Kind> {
    any_member(node, source).filter(|kind| *kind == Kind::Function || !private_by_default(node))
}

/// What a member is whatever its access: a method declaration or a data member. A member
/// defining a named type is [`inline_type`]'s.
fn any_member(node: Node, _: &str) -> Option<Kind> {
    if declares_function(node) {
        return Some(Kind::Function);
    }
    named_inline_type(node).is_none().then_some(Kind::Field)
}

/// The list a member or directive is in, past the conditional blocks around it: a struct's or
/// class's `field_declaration_list`, an enum's `enumerator_list`.
fn enclosing_list(node: Node) -> Option<Node> {
    let mut parent = node.parent()?;
    for _ in 0..super::MAX_DEPTH {
        if !parent.kind().starts_with("preproc_") {
            return Some(parent);
        }
        parent = parent.parent()?;
    }
    None
}

/// A class's member before its first access label (conditional blocks looked through).
fn private_by_default(node: Node) -> bool {
    let Some(list) = enclosing_list(node) else { return false };
    if list.parent().is_none_or(|owner| owner.kind() != "class_specifier") {
        return false;
    }
    let mut pending = vec![list];
    while let Some(current) = pending.pop() {
        let mut cursor = current.walk();
        for child in current.named_children(&mut cursor).take_while(|child| child.start_byte() < node.start_byte()) {
            match child.kind() {
                "access_specifier" => return false,
                kind if kind.starts_with("preproc_") => pending.push(child),
                _ => {}
            }
        }
    }
    true
}

/// The section an access label opens: `protected`, `private`, or the default again (`public`).
fn access_label(node: Node, _: &str) -> Option<&'static str> {
    if node.kind() != "access_specifier" {
        return None;
    }
    match node.child(0)?.kind() {
        "public" => Some(""),
        "protected" => Some("protected"),
        "private" => Some("private"),
        _ => None,
    }
}

/// What an access label applies to: a class's members (its nested types keep their own heads).
fn is_member(node: Node, _: &str) -> bool {
    matches!(node.kind(), "field_declaration" | "function_definition" | "declaration" | "template_declaration")
}

/// The names a member declares: a method's, or each field's of `size_t len, cap;`, joined by `, `
/// (a declaration of several, as Go's `var A, B`). A C11 anonymous member (`union { int i; float
/// f; };`) declares the fields of its type, which are used as the outer type's own (`v.i`), its
/// own anonymous members' too.
fn member_names(node: Node, source: &str) -> Option<String> {
    if declares_function(node) {
        return declarator_name(node, source);
    }
    let mut names = Vec::new();
    field_names(node, source, 0, &mut names);
    (!names.is_empty()).then(|| names.join(", "))
}

/// Appends the names `field` declares, an anonymous member's fields for it (`depth` levels in).
fn field_names<'s>(field: Node, source: &'s str, depth: usize, names: &mut Vec<&'s str>) {
    let declared = declared_names(field, source);
    if !declared.is_empty() || depth > super::MAX_DEPTH {
        names.extend(declared);
        return;
    }
    let Some(body) = field.child_by_field_name("type").and_then(|ty| ty.child_by_field_name("body")) else { return };
    let mut cursor = body.walk();
    for inner in body.named_children(&mut cursor).filter(|inner| inner.kind() == "field_declaration") {
        field_names(inner, source, depth + 1, names);
    }
}

/// The names of a declaration's declarators: `len`, `cap` of `size_t len, cap;`.
fn declared_names<'s>(node: Node, source: &'s str) -> Vec<&'s str> {
    let mut cursor = node.walk();
    node.children_by_field_name("declarator", &mut cursor)
        .filter_map(|declarator| chain_from(declarator).map(|(name, _)| node_text(name, source)))
        .collect()
}

/// A `#define NAME value` is a constant; inside a type's body (a flag defined beside the field
/// it is for) it is listed as a macro, since constants inside types are detail elsewhere.
fn defined_constant(node: Node, _: &str) -> Option<Kind> {
    let in_type =
        enclosing_list(node).is_some_and(|list| matches!(list.kind(), "field_declaration_list" | "enumerator_list"));
    Some(if in_type { Kind::Macro } else { Kind::Const })
}

fn defining_call(node: Node, source: &str) -> Option<Kind> {
    let directive = node.child_by_field_name("directive")?;
    (node_text(directive, source) == "#define").then_some(Kind::Macro)
}

/// The macro a `#define` call defines: the first word of its argument.
fn defined_name(node: Node, source: &str) -> Option<String> {
    let argument = node_text(node.child_by_field_name("argument")?, source);
    let name = argument.split(|c: char| !(c.is_alphanumeric() || c == '_')).next()?;
    (!name.is_empty()).then(|| name.to_string())
}

/// `typedef struct {…} name` is a struct (or enum); other typedefs are aliases.
fn typedef(node: Node, _: &str) -> Option<Kind> {
    let ty = node.child_by_field_name("type")?;
    Some(match (ty.kind(), ty.child_by_field_name("body")) {
        ("struct_specifier" | "union_specifier" | "class_specifier", Some(_)) => Kind::Struct,
        ("enum_specifier", Some(_)) => Kind::Enum,
        _ => Kind::TypeAlias,
    })
}
