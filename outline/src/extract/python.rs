//! Python: classes (an enum's as an enum), functions/methods (with decorators), module-level
//! constants and variables, and the attributes a class body declares (a dataclass's or a model's
//! fields, an enum's members).

use tree_sitter::Node;

use super::{Constructors, Names, Past, Private, Rule, Spec, Untyped, left_side, name_field, previous_statement};
use crate::model::Kind;
use crate::text::node_text;

pub(super) static SPEC: Spec = Spec {
    rules: &[
        // A function's body is walked for the classes it declares (a class factory's `class
        // Handler(base): …` returned to callers); its other locals are not outlined.
        // The implementation after `@overload` signatures is none of them (see
        // `implements_overloads`).
        Rule::new("function_definition", Kind::Function).members("body").implements_overloads(implements_overloads),
        Rule::classify("class_definition", class_or_enum).members("body"),
        // `__all__` lists the names the module exports (a package's `__init__.py` re-exports
        // its API by it): its value is the outline, and so is what `+=` adds to it.
        Rule::classify("assignment", export_list).named(left_side).whole(),
        Rule::classify("augmented_assignment", export_list).named(left_side).whole(),
        Rule::classify("assignment", constant_or_field).named(assigned_names).head_end(&["right"]).body(chained_value),
        Rule::new("type_alias_statement", Kind::TypeAlias).named(left_side).whole(),
        // `from .core import Command as Command`: a re-export (see `re_exported`).
        Rule::classify("import_from_statement", re_export).named(re_exported).whole(),
        Rule::classify("import_statement", re_export).named(re_exported).whole(),
    ],
    wrappers: &[("decorated_definition", super::Prefix::Full)],
    attributes: &[],
    decorations: &["decorator"],
    unshown: &[],
    conditional: None,
    sections: None,
    module_factories: false,
    class_constants: false,
    error_ends_head: true,
    layout_judged: true,
    margin_nests: true,
    indentation_is_syntax: true,
    multiline_strings: &[],
    implied: &[],
    abridged: &[],
    elided: &[],
    // A `def` too long with its decorators shortened names its parameters (`timeout: float =
    // 30.0` is `timeout`) before it loses its return type: a caller needs both.
    untyped: Some(Untyped { past: Past::Limit, names: Names::BeforeColon }),
    reparse: None,
    invoked_body: None,
    unparsed_lead: None,
    overloads: None,
    // Definitions under `if TYPE_CHECKING:`, `try: … except ImportError:`, `match` and the like,
    // and a class a function declares in a loop.
    transparent: &[
        "expression_statement",
        "if_statement",
        "for_statement",
        "while_statement",
        "match_statement",
        "case_clause",
        "elif_clause",
        "else_clause",
        "try_statement",
        "except_clause",
        "finally_clause",
        "with_statement",
        "block",
    ],
    member_lists: &[],
    imports: &["import_statement", "import_from_statement", "future_import_statement"],
    is_import: imports_only,
    import_keywords: &["import "],
    constructors: Constructors::Named(&["__init__"]),
    private: &[
        Private { node: "assignment", names: every_assigned_name, kind: private_kind },
        // A function's nested `def` is its detail in the views, and a reader still looks for it
        // by name (a decorator's `wrapper`, a helper it returns), as for a Rust function's nested
        // `fn`; a lambda bound to a local is a local, as a Rust `let` is.
        Private { node: "function_definition", names: name_field, kind: |_, _| Some(Kind::Function) },
    ],
};

/// Whether a function follows `@overload` signatures of its name (comments aside) without being
/// one itself: it is their implementation, which a type checker never lets callers call as
/// written (`def parse(value, *, encoding="utf-8")` after `parse(value: str) -> int` and
/// `parse(value: bytes, …) -> int` was the one shown, untyped, as the run's shortest).
fn implements_overloads(node: Node, source: &str) -> bool {
    let statement = match node.parent() {
        Some(parent) if parent.kind() == "decorated_definition" => parent,
        _ => node,
    };
    let signature = previous_statement(statement).filter(|previous| is_overload(*previous, source));
    let name = |function: Node| name_field(function, source);
    !is_overload(statement, source)
        && signature.and_then(|signature| signature.child_by_field_name("definition")).is_some_and(|signature| {
            signature.kind() == "function_definition" && name(signature).is_some() && name(signature) == name(node)
        })
}

/// Whether a statement is a definition decorated `@overload` (or `@typing.overload`).
fn is_overload(statement: Node, source: &str) -> bool {
    let mut cursor = statement.walk();
    statement.kind() == "decorated_definition"
        && statement.named_children(&mut cursor).filter(|child| child.kind() == "decorator").any(|decorator| {
            let called = node_text(decorator, source).trim_start_matches('@').trim();
            called == "overload" || called.ends_with(".overload")
        })
}

/// An enum is a class that names an enum base (`Enum`, `IntEnum`, `StrEnum`, a project's
/// `ChoiceEnum`, `Flag`, `enum.IntFlag`) or gives a member `auto()`, which only an enum's
/// metaclass reads (sqlglot's `class Type(AutoName)`, whose base derives from `Enum` in another
/// module): its members are a table, listed as other languages' enums are (see
/// `render::MAX_VARIANTS`). Any other class is a class.
fn class_or_enum(node: Node, source: &str) -> Option<Kind> {
    let enum_base = node.child_by_field_name("superclasses").is_some_and(|bases| {
        let mut cursor = bases.walk();
        let named: Vec<Node> = bases.named_children(&mut cursor).collect();
        named.into_iter().filter(|base| matches!(base.kind(), "identifier" | "attribute")).any(|base| {
            let name = node_text(base, source).rsplit('.').next().unwrap_or_default();
            name.ends_with("Enum") || matches!(name, "Flag" | "IntFlag")
        })
    });
    Some(if enum_base || gives_auto(node, source) { Kind::Enum } else { Kind::Class })
}

/// Whether a class's body assigns `auto()` (or `enum.auto()`) to a name.
fn gives_auto(class: Node, source: &str) -> bool {
    let Some(body) = class.child_by_field_name("body") else { return false };
    let mut cursor = body.walk();
    let statements: Vec<Node> = body.named_children(&mut cursor).collect();
    statements.into_iter().filter(|statement| statement.kind() == "expression_statement").any(|statement| {
        let assignment = statement.named_child(0).filter(|child| child.kind() == "assignment");
        let value = assignment.and_then(|assignment| assignment.child_by_field_name("right"));
        value.is_some_and(|value| {
            let function = value.child_by_field_name("function").filter(|_| value.kind() == "call");
            let empty =
                value.child_by_field_name("arguments").is_some_and(|arguments| arguments.named_child_count() == 0);
            function.is_some_and(|function| matches!(node_text(function, source), "auto" | "enum.auto")) && empty
        })
    })
}

/// An import that names something `X as X` (`from .core import Command as Command`, `import
/// numpy as numpy`) re-exports it: the redundant alias is how PEP 484 and type checkers mark a
/// name a module imports for its users (click's `__init__.py` is 60 of them). Names a module
/// lists in `__all__` are its API too, and that line names them already.
fn re_export(node: Node, source: &str) -> Option<Kind> {
    re_exported(node, source).map(|_| Kind::Export)
}

/// Whether an import statement is the module's own, re-exporting nothing.
fn imports_only(node: Node, source: &str) -> bool {
    re_export(node, source).is_none()
}

/// The names an import re-exports (see [`re_export`]), joined by `, `; `None` when none.
fn re_exported(node: Node, source: &str) -> Option<String> {
    let mut cursor = node.walk();
    let names: Vec<&str> = node
        .children_by_field_name("name", &mut cursor)
        .filter(|name| name.kind() == "aliased_import")
        .filter_map(|aliased| {
            let (name, alias) = (aliased.child_by_field_name("name")?, aliased.child_by_field_name("alias")?);
            let name = node_text(name, source);
            (name == node_text(alias, source)).then_some(name)
        })
        .collect();
    (!names.is_empty()).then(|| names.join(", "))
}

/// `__all__ = [...]` (or `+= [...]`) at module level.
fn export_list(node: Node, source: &str) -> Option<Kind> {
    let module_level = nearest(node, &["class_definition", "function_definition", "lambda"]).is_none();
    (module_level && left_side(node, source)? == "__all__").then_some(Kind::Export)
}

/// In a class body, a public attribute the class declares (`id: int`, `name: str = "anon"`,
/// `RED = 1` of an enum, `title = models.CharField(…)`, `w, h = 0, 0`) is a field; elsewhere see
/// [`constant`].
fn constant_or_field(node: Node, source: &str) -> Option<Kind> {
    if in_class_body(node) {
        return assigned_names(node, source).map(|_| Kind::Field);
    }
    constant(node, source)
}

/// The names an assignment binds, joined by `, ` as other multi-name declarations are: every
/// target of a chain (`WIDTH = HEIGHT = 80`) and every name of an unpacking (`MIN, MAX = 1, 9`,
/// `(LEFT, RIGHT) = …`, `first, *rest = …`). In a class body only public names count (a field
/// declaration is named per field, see `each_field`). `None` when it binds no such name
/// (`self.x = 1`, `_cache = {}` in a class).
fn assigned_names(node: Node, source: &str) -> Option<String> {
    let public_only = in_class_body(node);
    let mut names = every_bound_name(node, source);
    names.retain(|name| !public_only || !name.starts_with('_'));
    (!names.is_empty()).then(|| names.join(", "))
}

/// Every name an assignment binds, public or not, joined by `, ` (see [`assigned_names`]).
fn every_assigned_name(node: Node, source: &str) -> Option<String> {
    let names = every_bound_name(node, source);
    (!names.is_empty()).then(|| names.join(", "))
}

/// The names every target of an assignment's chain binds, in order.
fn every_bound_name<'s>(node: Node, source: &'s str) -> Vec<&'s str> {
    let mut names = Vec::new();
    let targets = std::iter::successors(Some(node), |assignment| {
        assignment.child_by_field_name("right").filter(|right| right.kind() == "assignment")
    });
    for target in targets.filter_map(|assignment| assignment.child_by_field_name("left")) {
        bound_names(target, source, &mut names);
    }
    names
}

/// What the names an assignment binds are to symbol search, private ones too: a class body's
/// attributes are fields, a module's names constants or variables (see [`module_kind`]). A
/// function's locals are not definitions, nor is an assignment in a chain (`_a = _b = 1`), whose
/// first assignment names them all.
fn private_kind(node: Node, source: &str) -> Option<Kind> {
    if node.parent().is_some_and(|parent| parent.kind() == "assignment") {
        return None;
    }
    if in_class_body(node) {
        return Some(Kind::Field);
    }
    let module_level = nearest(node, &["function_definition", "lambda"]).is_none();
    module_level.then(|| module_kind(&every_bound_name(node, source)))
}

/// The value a chain of assignments gives all its targets (`"box"` of `kind = shape = "box"`), so
/// the head shows every target; `None` for a single assignment, whose head ends at its `right`.
fn chained_value(node: Node) -> Option<Node> {
    let mut value = node.child_by_field_name("right").filter(|right| right.kind() == "assignment")?;
    while value.kind() == "assignment" {
        value = value.child_by_field_name("right")?;
    }
    Some(value)
}

/// The plain names a target binds, in order: an identifier, or those inside an unpacking.
fn bound_names<'s>(target: Node, source: &'s str, names: &mut Vec<&'s str>) {
    match target.kind() {
        "identifier" => names.push(node_text(target, source)),
        "pattern_list" | "tuple_pattern" | "list_pattern" | "list_splat_pattern" | "parenthesized_expression" => {
            let mut cursor = target.walk();
            for part in target.named_children(&mut cursor) {
                bound_names(part, source, names);
            }
        }
        _ => {}
    }
}

/// Whether a statement stands in a class's body (or in an `if` or `try` there), not in a
/// function's or the module's.
fn in_class_body(node: Node) -> bool {
    nearest(node, &["class_definition", "function_definition", "lambda"]) == Some("class_definition")
}

/// Whether a statement is in a loop's body (not counting loops outside its function or class).
fn in_loop(node: Node) -> bool {
    let scopes = ["for_statement", "while_statement", "function_definition", "class_definition"];
    matches!(nearest(node, &scopes), Some("for_statement" | "while_statement"))
}

/// Whether a statement is in the body of `if __name__ == "__main__":` (either quote, either operand
/// order; its `else` is what an import runs, and stays).
fn in_main_guard(node: Node, source: &str) -> bool {
    std::iter::successors(node.parent(), |parent| parent.parent())
        .filter(|ancestor| ancestor.kind() == "if_statement")
        .any(|guard| {
            let Some((condition, body)) =
                guard.child_by_field_name("condition").zip(guard.child_by_field_name("consequence"))
            else {
                return false;
            };
            let text: String = node_text(condition, source).chars().filter(|c| !c.is_whitespace()).collect();
            let text = text.replace('\'', "\"");
            let main = text == "__name__==\"__main__\"" || text == "\"__main__\"==__name__";
            main && body.start_byte() <= node.start_byte() && node.end_byte() <= body.end_byte()
        })
}

/// The kind of the nearest of a node's ancestors that is one of `kinds`.
fn nearest<'k>(node: Node, kinds: &[&'k str]) -> Option<&'k str> {
    std::iter::successors(node.parent(), |parent| parent.parent())
        .find_map(|ancestor| kinds.iter().copied().find(|kind| *kind == ancestor.kind()))
}

/// At module level, what an assignment binds is the module's API, read as `module.name` from
/// other files: `NAME = …` with an upper-case name (PEP 8's constant convention) is a constant,
/// any other public name a variable (an alias, `Str = String`; a singleton, `missing =
/// _Missing()`; a type alias; `logger`; `__version__`). Private names (`_registry`) are not
/// outlined, nor are one-letter names (type variables), names a loop assigns again and again, or
/// what a script's `if __name__ == "__main__":` block assigns (its run, not the module's API). An
/// assignment of several names is outlined when any is public: attrs' `s = attributes = attrs`
/// was dropped whole for its `s`, `attributes` with it.
fn constant(node: Node, source: &str) -> Option<Kind> {
    if in_loop(node) || nearest(node, &["function_definition", "lambda"]).is_some() || in_main_guard(node, source) {
        return None;
    }
    let names = assigned_names(node, source)?;
    let names: Vec<&str> = names.split(", ").collect();
    // A dunder (`__version__`, `__author__`) is public: what the module tells its users about itself.
    let dunder = |name: &str| name.len() > 4 && name.starts_with("__") && name.ends_with("__");
    let public = |name: &str| name.len() > 1 && (!name.starts_with('_') || dunder(name));
    if !names.iter().any(|name| public(name)) {
        return None;
    }
    Some(module_kind(&names))
}

/// Names a module binds are constants when all are upper case (PEP 8's convention: `MAX_SIZE`,
/// `_DEFAULT`), variables otherwise.
fn module_kind(names: &[&str]) -> Kind {
    let is_constant = |name: &str| {
        name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            && name.chars().any(|c| c.is_ascii_uppercase())
    };
    if names.iter().all(|name| is_constant(name)) { Kind::Const } else { Kind::Variable }
}
