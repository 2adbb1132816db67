//! Which lines a syntax tree could not parse, so a view can say where definitions may be missing.

use tree_sitter::{Node, Tree};

use crate::text::{Lines, line_number, node_lines, node_text};
use crate::{Language, fallback};

/// Line spans the parser could not make sense of, one per token, unmerged (so each can be
/// judged on its own): the loose tokens directly inside error nodes and the tokens it had to
/// assume (missing nodes). Whole constructs it recognised inside an error node (a function
/// before the unclosed brace) do not count, since the walker outlines them; nor do comments,
/// which hide no definition.
pub(crate) fn error_lines(tree: &Tree, source: &str) -> Vec<(u32, u32)> {
    let mut spans = Vec::new();
    let mut pending = vec![tree.root_node()];
    while let Some(node) = pending.pop() {
        if node.is_missing() {
            spans.push(node_lines(node, source));
            continue;
        }
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if child.has_error() {
                pending.push(child);
            } else if node.is_error() && child.child_count() == 0 && !child.is_extra() {
                spans.push(node_lines(child, source));
            }
        }
        if node.is_error() && node.child_count() == 0 {
            spans.push(node_lines(node, source));
        }
    }
    spans
}

/// The spans where a definition may be missing: with a line that looks like a definition to the
/// line heuristic (a statement the grammar tripped over inside a function body hides nothing),
/// and not inside the declaration of a definition that was outlined all the same (C's `INLINE int
/// f(…)`: the unknown macro is an error, `f` is found) unless that line is one of the head's
/// later lines and starts a definition no head holds (a method's shape; Python's `def`): a
/// parameter list left open takes the next method into the head (`scale( { … }` and then
/// `dot(other) { … }`; `def add(self, key` and then `def get(self, key):`), and the next method is
/// lost there.
pub(crate) fn may_hide_definitions(
    spans: Vec<(u32, u32)>,
    heads: &[(u32, u32)],
    declarations: &[u32],
    language: Language,
    lines: &Lines,
) -> Vec<(u32, u32)> {
    if spans.is_empty() {
        return spans;
    }
    // Per line (index 0 is line 1): inside a declaration head; looks like a definition (decided
    // once, on first need: an error node has many tokens on the same line).
    let in_head = lines.covered_by(heads);
    let first_of_head = lines.covered_by(&heads.iter().map(|&(first, _)| (first, first)).collect::<Vec<_>>());
    let mut defines: Vec<Option<bool>> = vec![None; lines.count() as usize + 1];
    let mut looks_like_definition = |line: u32| {
        let index = (line as usize - 1).min(lines.count() as usize);
        *defines[index].get_or_insert_with(|| fallback::looks_like_definition(language, lines.text(line)))
    };
    let marked = |bits: &[bool], line: u32| bits.get(line as usize - 1).copied().unwrap_or(false);
    spans
        .into_iter()
        .filter(|&(start, end)| {
            let inside_head = (start..=end).all(|line| marked(&in_head, line));
            (start..=end).any(|line| match inside_head {
                false => looks_like_definition(line),
                true => {
                    let text = lines.text(line);
                    // A Java or C# member with an access modifier stands in no head but its own
                    // declaration line, past its annotations.
                    let member = !declarations.contains(&line) && fallback::accessed_member(language, text);
                    !marked(&first_of_head, line) && (member || fallback::never_in_a_head(language, text))
                }
            })
        })
        .collect()
}

/// In a JavaScript or TypeScript file, the unindented lines of a file-level statement holding a
/// syntax error that start a definition by their first words (the line heuristic's cues) and
/// where no outlined definition or import starts, comments aside. Error recovery can fold the
/// rest of a file into one construct the outline does not look into, with no error node there
/// to flag: after a template literal type its grammar could not read, 220 lines of effect's
/// `VariantSchema.ts` became one template string. `outlined` is where each definition starts
/// (its attributes to its declaration's first line) and each import's lines.
pub(crate) fn unoutlined_definitions(
    tree: &Tree,
    outlined: &[(u32, u32)],
    language: Language,
    lines: &Lines,
) -> Vec<(u32, u32)> {
    let root = tree.root_node();
    if !root.has_error() || !matches!(language, Language::JavaScript | Language::TypeScript | Language::Tsx) {
        return Vec::new();
    }
    let source = lines.source;
    // A definition covers the lines it starts on; a declaration that parsed whole inside another
    // (`function helper() {}` written unindented in a function) is that one's detail.
    let covered = |line: u32| {
        outlined.iter().any(|&(start, end)| (start..=end).contains(&line))
            || lines.start(line).is_some_and(|at| parsed_whole(root, at))
    };
    let in_comment = |line: u32| lines.start(line).is_some_and(|at| within(tree, at, language.lexical().comments));
    let mut found = Vec::new();
    for statement in broken_statements(root) {
        let (first, last) = node_lines(statement, source);
        let holds_functions = holds_functions(node_text(statement, source));
        for number in first..=last.min(lines.count()) {
            let text = lines.text(number);
            let starts =
                fallback::starts_top_level_definition(language, text) || (holds_functions && exports_object(text));
            if starts && !covered(number) && !in_comment(number) {
                found.push((number, number));
            }
        }
        found.extend(cut_body(statement, lines));
    }
    found
}

/// The file-level statements holding an error; the root itself when recovery gave up on the file
/// as a whole, since the tokens it could not place (a broken statement's `export default {`) are
/// then in no statement.
pub(crate) fn broken_statements(root: Node) -> Vec<Node> {
    if root.is_error() {
        return vec![root];
    }
    let mut cursor = root.walk();
    root.named_children(&mut cursor).filter(Node::has_error).collect()
}

/// The kinds of a declaration whose body lists members.
const TYPE_DECLARATIONS: [&str; 3] = ["class_declaration", "abstract_class_declaration", "interface_declaration"];

/// The lines of a class or interface body that recovery closed early, when `statement` is such a
/// declaration (or exports one) holding an error: the lines after its end that are indented
/// deeper than its head, up to the first that is not (its real closing brace). They held its
/// members: React Native's `class MessageQueue` ended at its first field, whose Flow type the
/// grammar could not read, and its other 29 members were neither listed nor flagged.
fn cut_body(statement: Node, lines: &Lines) -> Option<(u32, u32)> {
    let declaration = match statement.kind() {
        "export_statement" => statement.child_by_field_name("declaration")?,
        _ => statement,
    };
    if !TYPE_DECLARATIONS.contains(&declaration.kind()) || !declaration.has_error() {
        return None;
    }
    let (head, end) = node_lines(declaration, lines.source);
    let head_indent = lines.indent(head);
    let mut written = (end + 1..=lines.count()).filter(|&line| !lines.text(line).trim().is_empty());
    let next = written.next()?;
    if lines.indent(next) <= head_indent {
        return None;
    }
    let closing = written.find(|&line| lines.indent(line) <= head_indent).unwrap_or(lines.count() + 1);
    Some((next, closing - 1))
}

/// Whether a line opens the object a module exports (`export default {`, `module.exports = {`),
/// whose methods the outline lists when the statement parses: a Vue component's whole API.
fn exports_object(line: &str) -> bool {
    matches!(line.trim_end(), "export default {" | "module.exports = {")
}

/// Whether a statement's text may hold a function (`function`, `=>`, a method's `) {`): a broken
/// exported object without one (a configuration's data) would not be listed if it parsed.
fn holds_functions(text: &str) -> bool {
    text.contains("function") || text.contains("=>") || text.contains(") {")
}

/// Whether the largest node starting at byte `at` (a line's start) is a construct that parsed
/// without an error. A lone token is none: recovery reads the words of a declaration it took
/// into an error as identifiers (`export type OP_DONE = …` after a string lost its quote).
fn parsed_whole(root: Node, at: usize) -> bool {
    let Some(mut node) = root.descendant_for_byte_range(at, at) else {
        return false;
    };
    while let Some(parent) = node.parent().filter(|parent| parent.start_byte() == at && *parent != root) {
        node = parent;
    }
    node.start_byte() == at && node.is_named() && node.child_count() > 0 && !node.has_error() && !node.is_missing()
}

/// In each error node over several lines, the lines that no outlined definition covers and that
/// hold code (not only brackets, separators or a comment), from the first to the last, when one
/// of them looks like a definition: recovery can wrap whole constructs in an error node (an exported
/// object whose function lost its `}`, with every method of the object) and the walker does not
/// read them, while the lines holding their error tokens (`error_lines`) need not be the lines
/// that define.
pub(crate) fn error_regions(tree: &Tree, covered: &[Covered], language: Language, lines: &Lines) -> Vec<(u32, u32)> {
    let source = lines.source;
    let holds_code = |line: u32| {
        // A doc comment's marker and text are nodes of their own inside the comment, and a
        // block comment's middle lines start inside it.
        let in_comment = lines.code_at(line).is_some_and(|at| within(tree, at, language.lexical().comments));
        !in_comment
            && lines
                .text(line)
                .chars()
                .any(|c| !matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ',' | ';') && !c.is_whitespace())
    };
    let mut spans = Vec::new();
    let mut pending = vec![tree.root_node()];
    while let Some(node) = pending.pop() {
        // An error on one line is judged by its tokens (`error_lines`): a declaration the view
        // does not list (`let handler: ?() => void = null`) trips the grammar on one line.
        if node.is_error() && node.start_position().row < node.end_position().row {
            let (first, last) = node_lines(node, source);
            // An error in a function's body or a value hides nothing the view lists (a statement
            // or a type the grammar tripped over); one in a class, an object of methods or at
            // file level may hide members, though the class around it (or starting with it,
            // `interface CliApp<A> extends Pipeable` that lost its `{`) was outlined.
            let mut covers = vec![false; (last - first + 1) as usize];
            for span in covered.iter().filter(|span| span.opaque || span.start > first) {
                for line in span.start.max(first)..=span.end.min(last) {
                    covers[(line - first) as usize] = true;
                }
            }
            let loose: Vec<u32> =
                (first..=last).filter(|&line| !covers[(line - first) as usize] && holds_code(line)).collect();
            // Only where something looks like a definition (`ordinal: function (n) {`) may one be
            // hidden, and then the statement around it too (`export default defineLocale(…, {`):
            // the error's lines with code, from the first to the last, said as one span. A broken
            // import or a destructuring of data hides none.
            let defines = loose.iter().any(|&line| fallback::looks_like_definition(language, lines.text(line)));
            if let (true, Some(&from), Some(&to)) = (defines, loose.first(), loose.last()) {
                spans.push((from, to));
                continue;
            }
            // Nothing loose here; an error inside may still hide what an outlined definition
            // holds (a class's methods in an error between its name and its body, the class and
            // the file both inside an error at file level).
        }
        let mut cursor = node.walk();
        pending.extend(node.children(&mut cursor).filter(|child| child.has_error()));
    }
    spans
}

/// How many error nodes [`swallowed_by_strings`] looks behind: the first ones say where the
/// trouble starts, and a file broken everywhere is named by the other rules.
const SWALLOW_ERRORS_JUDGED: usize = 64;

/// The lines a string literal took in when its opening or closing quote was lost: from the
/// string's first line to the error where the grammar tripped over its end. A string that
/// holds a line looking like a definition and runs to an error after it, both inside one
/// construct, took in code (a deleted `"` in `#[cfg(feature = "color")]` made the next 25
/// lines, a function among them, one string in the attribute's tokens; in a `write!` it made
/// the rest of a file strings and tokens of the macro), and the error alone is often far from
/// the lost definitions and looks like none.
pub(crate) fn swallowed_by_strings(
    tree: &Tree,
    literals: &[&str],
    language: Language,
    lines: &Lines,
) -> Vec<(u32, u32)> {
    if literals.is_empty() {
        return Vec::new();
    }
    let source = lines.source;
    let takes_in_code = |string: Node| {
        let (first, last) = node_lines(string, source);
        first < last && (first + 1..=last).any(|line| fallback::looks_like_definition(language, lines.text(line)))
    };
    let mut errors = Vec::new();
    let mut pending = vec![tree.root_node()];
    while let Some(node) = pending.pop() {
        if errors.len() == SWALLOW_ERRORS_JUDGED {
            break;
        }
        if node.is_error() || node.is_missing() {
            errors.push(node);
            continue;
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).filter(|child| child.has_error()).collect();
        pending.extend(children.into_iter().rev());
    }
    let mut spans = Vec::new();
    for error in errors {
        let mut holder = error.parent();
        while let Some(node) = holder {
            let mut cursor = node.walk();
            let string = node.children(&mut cursor).find(|child| {
                literals.contains(&child.kind()) && child.end_byte() <= error.start_byte() && takes_in_code(*child)
            });
            if let Some(string) = string {
                spans.push((node_lines(string, source).0, node_lines(error, source).1));
                break;
            }
            holder = node.parent();
        }
    }
    spans
}

/// The definitions the parser put at file level though they are indented, where indentation is
/// syntax (Python): nothing indented stands there in a file that parses, so an error before such a
/// definition cut it from what holds it (a method after a broken `def` head, shown as a function
/// of the module), and the view shows it in the wrong place. Statements inside an error at file
/// level stand there too (the walker reads them so). Only a line that looks like a definition
/// counts: the grammar also stumbles on valid continuation lines indented less than their block
/// (`return (1 +` then `  2)`), which hide nothing.
pub(crate) fn misplaced_definitions(tree: &Tree, language: Language, lines: &Lines) -> Vec<(u32, u32)> {
    let mut statements = Vec::new();
    let mut pending = vec![tree.root_node()];
    while let Some(node) = pending.pop() {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            // An error node is an extra, as comments are; it holds statements.
            if child.is_error() {
                pending.push(child);
            } else if !child.is_extra() {
                statements.push(node_lines(child, lines.source));
            }
        }
    }
    // Indented by its line's whitespace (a byte-order mark before the first is no indent).
    statements.retain(|&(first, _)| {
        let text = lines.text(first);
        text.starts_with([' ', '\t']) && fallback::looks_like_definition(language, text)
    });
    statements
}

/// Go's grouped declarations (`var ( … )`, `const ( … )`) whose specs carry no keyword: one spec
/// an error broke (`walkBreak = errors.New(break)`, `A = 1 +`) ends the group early or runs into
/// the next, and the specs after it read as file-level statements or join another's value, with
/// no line that looks like a definition. A group holding an error is named from its first line
/// to the line before the next declaration, so what follows it in file-level statements is
/// named too.
pub(crate) fn broken_declaration_groups(tree: &Tree, language: Language) -> Vec<(u32, u32)> {
    const GROUPS: [&str; 2] = ["var_declaration", "const_declaration"];
    const DECLARATIONS: [&str; 7] = [
        "package_clause",
        "import_declaration",
        "function_declaration",
        "method_declaration",
        "type_declaration",
        "var_declaration",
        "const_declaration",
    ];
    if language != Language::Go {
        return Vec::new();
    }
    let root = tree.root_node();
    let mut cursor = root.walk();
    let children: Vec<Node> = root.named_children(&mut cursor).filter(|child| child.kind() != "comment").collect();
    let mut spans = Vec::new();
    for (i, group) in children.iter().enumerate() {
        if !GROUPS.contains(&group.kind()) || !group.has_error() {
            continue;
        }
        let next = children[i + 1..].iter().find(|sibling| DECLARATIONS.contains(&sibling.kind()));
        let last = match next {
            Some(next) => next.start_position().row.max(group.end_position().row + 1) - 1,
            None => children.last().map_or(group.end_position().row, |last| last.end_position().row),
        };
        spans.push((line_number(group.start_position().row), line_number(last)));
    }
    spans
}

/// C++ classes the grammar read as functions: `class MYLIB_API Box<int> {` is a function `Box<int>`
/// returning `class MYLIB_API`, without an error, and its members are a function body's
/// statements, which no view lists. A function needs a parameter list, so a definition whose
/// type is a class, struct or union without a body and whose declarator has none is such a
/// class: its body is named (the export macros [`crate::macro_words`] removes leave the shapes it
/// does not know: a specialization's arguments, a comment before the `{`). So is one whose
/// keyword is an error in a function (see [`keyword_in_error`]).
pub(crate) fn misread_classes(tree: &Tree, language: Language, source: &str) -> Vec<(u32, u32)> {
    const TYPES: [&str; 3] = ["class_specifier", "struct_specifier", "union_specifier"];
    if !matches!(language, Language::C | Language::Cpp) {
        return Vec::new();
    }
    let mut spans = Vec::new();
    let mut pending = vec![tree.root_node()];
    while let Some(node) = pending.pop() {
        let misread = node.kind() == "function_definition"
            && (node
                .child_by_field_name("type")
                .is_some_and(|ty| TYPES.contains(&ty.kind()) && ty.child_by_field_name("body").is_none())
                || keyword_in_error(node, source))
            && node.child_by_field_name("declarator").is_some_and(|declarator| !has_parameters(declarator));
        match node.child_by_field_name("body").filter(|_| misread) {
            Some(body) => spans.push((line_number(body.start_position().row), line_number(body.end_position().row))),
            None => {
                let mut cursor = node.walk();
                pending.extend(node.named_children(&mut cursor));
            }
        }
    }
    spans
}

/// Whether an error among `function`'s own children is a class, struct or union keyword: a
/// macro the copy left before it (`NS_BEGIN // open` over `class basic_json {`) became the
/// function's type and the keyword an error.
fn keyword_in_error(function: Node, source: &str) -> bool {
    let mut cursor = function.walk();
    function
        .children(&mut cursor)
        .any(|child| child.is_error() && matches!(node_text(child, source), "class" | "struct" | "union"))
}

/// Whether a declarator declares a function: a parameter list somewhere in its chain.
fn has_parameters(declarator: Node) -> bool {
    declarator.kind() == "function_declarator" || {
        let mut cursor = declarator.walk();
        declarator.named_children(&mut cursor).any(has_parameters)
    }
}

/// The lines of an outlined definition or import, for [`error_regions`].
pub(crate) struct Covered {
    /// Its first line (attributes included) and last.
    pub(crate) start: u32,
    pub(crate) end: u32,
    /// Whether the view lists nothing inside it: a function (its locals are not listed), a
    /// constant, variable or type alias without members, or an import.
    pub(crate) opaque: bool,
}

/// Definitions an error folded into an outlined one: a line in its body that looks like a
/// definition, is indented no deeper than its head (no body holds that in a file laid out by its
/// nesting) and, where braces make the nesting, did not parse as a declaration of its own (an
/// unindented helper function is the body's detail). Where the margin is the nesting
/// (`margin_nests`), a declaration parsed whole counts too: Python's `def test_a():` at the margin
/// after a call left open in the test before it parses as part of that call or nested in it, with
/// no error until much later, and Ruby's `def refund` after a method that lost its `end` parses as
/// a method nested in that one. The span runs from that line to the end of the definition that
/// took it in. `definitions` are each one's head line and last line, `outlined` each one's first
/// to head line.
pub(crate) fn folded_definitions(
    tree: &Tree,
    definitions: &[(u32, u32)],
    outlined: &[(u32, u32)],
    language: Language,
    margin_nests: bool,
    lines: &Lines,
) -> Vec<(u32, u32)> {
    if !language.is_code() {
        return Vec::new();
    }
    let outlined_line = lines.covered_by(outlined);
    // A string or a comment where a line's code starts is text, not a definition (`func f() {}`
    // in a Go raw string, a help text's `class of commands:`).
    let lexical = language.lexical();
    let in_text = |at: usize| within(tree, at, lexical.literals) || within(tree, at, lexical.comments);
    let whole = |at: usize| !margin_nests && parsed_whole(tree.root_node(), at);
    definitions
        .iter()
        .filter_map(|&(head, end)| {
            let folded = (head + 1..=end.min(lines.count())).find(|&line| {
                let written = lines.text(line);
                !written.trim().is_empty()
                    && lines.indent(line) <= lines.indent(head)
                    && fallback::looks_like_definition(language, written)
                    && !outlined_line[line as usize - 1]
                    && lines.code_at(line).is_some_and(|at| !in_text(at) && !whole(at))
            })?;
            Some((folded, end))
        })
        .collect()
}

/// Whether byte `at` is inside a node of one of `kinds` (a string, a comment).
fn within(tree: &Tree, at: usize, kinds: &[&str]) -> bool {
    let mut node = tree.root_node().descendant_for_byte_range(at, at);
    while let Some(inner) = node {
        if kinds.contains(&inner.kind()) {
            return true;
        }
        node = inner.parent();
    }
    false
}

/// Sorts spans and joins those that overlap or touch.
pub(crate) fn merge(mut spans: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    spans.sort_unstable();
    let mut merged: Vec<(u32, u32)> = Vec::with_capacity(spans.len());
    for (start, end) in spans {
        match merged.last_mut() {
            Some(last) if start <= last.1.saturating_add(1) => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}

/// In JavaScript, each named span inside a file-level statement that binds or exports an object
/// and that the view does not list, widened to start at that statement's first line. Such an
/// object is listed for its methods (`var locale = { …, ordinal: function (n) {…} }`,
/// `export default defineLocale('af', {`): when an error hides the methods, the binding goes
/// from the view as well, and its line is where it went. `listed` holds each outlined file-level
/// definition's first lines (attributes to declaration).
pub(crate) fn widened_to_unlisted_objects(
    tree: &Tree,
    spans: Vec<(u32, u32)>,
    listed: &[(u32, u32)],
    language: Language,
    lines: &Lines,
) -> Vec<(u32, u32)> {
    if spans.is_empty() || !matches!(language, Language::JavaScript | Language::TypeScript | Language::Tsx) {
        return spans;
    }
    let root = tree.root_node();
    let statements = broken_statements(root);
    spans
        .into_iter()
        .map(|(start, end)| {
            let holder = statements
                .iter()
                .map(|statement| node_lines(*statement, lines.source))
                .find(|&(first, last)| first < start && start <= last && binds_an_object(lines.text(first)));
            match holder {
                Some((first, _)) if !listed.iter().any(|&(from, to)| (from..=to).contains(&first)) => (first, end),
                _ => (start, end),
            }
        })
        .collect()
}

/// Whether a statement's first line opens an object it binds, assigns, exports or passes (`var
/// locale = {`, `module.exports = {`, `export default defineLocale('af', {`, `Vue.component('x',
/// {`), not a function's body (a module wrapper, a test suite), whose definitions the walker
/// lists from inside, nor a block (`if (…) {`, `class X {`).
fn binds_an_object(line: &str) -> bool {
    let line = line.trim();
    let opens = line.ends_with("= {") || line.ends_with(", {") || line.ends_with("({");
    let exported = line.starts_with("export ") && line.ends_with('{');
    let function = line.contains("function") || line.contains("=>");
    (opens || exported) && !function && !line.contains("==") && !line.starts_with(['(', '!', ';'])
}

/// The whole of `source` as one span, or none for an empty file.
pub(crate) fn all_lines(source: &str) -> Vec<(u32, u32)> {
    let lines = u32::try_from(source.lines().count()).unwrap_or(u32::MAX);
    if lines == 0 { Vec::new() } else { vec![(1, lines)] }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_whose_keyword_is_an_error_in_a_function_has_its_body_named() {
        let source = "NS_BEGIN // open\nclass basic_json\n{\n  public:\n    int size() { return 1; }\n    void dump() const;\n};\n";
        let outline = crate::outline(Language::Cpp, source);
        assert_eq!(outline.unparsed, [(3, 7)]);
        assert!(crate::render_signatures(&outline).starts_with("[outline incomplete: lines 3-7 not parsed]\n"));
    }

    #[test]
    fn a_valid_continuation_line_the_grammar_stumbles_on_is_no_misplaced_definition() {
        for source in [
            "def f():\n    return (1 +\n  2)\n",
            "def f(x):\n    y = (x +\n  1)\n    return y\n\n\ndef g():\n    pass\n",
        ] {
            assert_eq!(crate::outline(Language::Python, source).unparsed, [], "{source}");
        }
    }

    #[test]
    fn spans_merge_when_they_overlap_or_touch() {
        assert_eq!(merge(vec![(9, 9), (1, 3), (4, 5), (2, 2), (7, 8)]), [(1, 5), (7, 9)]);
        assert_eq!(all_lines(""), []);
        assert_eq!(all_lines("a\nb\n"), [(1, 2)]);
    }

    fn tree(language: Language, source: &str) -> Tree {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&language.grammar()).unwrap();
        parser.parse(source, None).unwrap()
    }

    #[test]
    fn definitions_folded_into_a_statement_with_an_error_are_named() {
        // As error recovery can leave it: what follows folded into one statement with an error.
        let source = "export const hint = wrap(`\nexport interface Union<M> {\n  readonly members: M\n}\n\
                      /* function commented() {} */\nfunction make(a: number): number {\n  function inner() {}\n  \
                      return a\n}\n`, ;\nexport const after = 1\n";
        let broken = tree(Language::TypeScript, source);
        assert!(broken.root_node().has_error());
        // The unindented heads are named; the nested function (indented) and the comment are not.
        assert_eq!(
            unoutlined_definitions(&broken, &[], Language::TypeScript, &Lines::new(source)),
            [(1, 1), (2, 2), (6, 6)]
        );
        // Outlined (a definition starts on each line): nothing to name.
        assert_eq!(unoutlined_definitions(&broken, &[(1, 10)], Language::TypeScript, &Lines::new(source)), []);
        // A file that parsed cleanly has nothing hidden this way.
        let clean = source.replacen("`, ;", "`)", 1);
        assert_eq!(
            unoutlined_definitions(&tree(Language::TypeScript, &clean), &[], Language::TypeScript, &Lines::new(&clean)),
            []
        );
        // Statements without an error were walked: an IIFE's functions are not named for an
        // error elsewhere.
        let wrapped = "(function () {\nfunction local() {}\n})()\nconst x = ;\n";
        let wrapped_tree = tree(Language::JavaScript, wrapped);
        assert!(wrapped_tree.root_node().has_error());
        assert_eq!(unoutlined_definitions(&wrapped_tree, &[], Language::JavaScript, &Lines::new(wrapped)), [(4, 4)]);
        // Recovery stretched `hint` over both: a definition covers only the lines it starts on
        // (they are inside a string to the grammar, so not folded into `hint`).
        assert_eq!(crate::outline(Language::TypeScript, source).unparsed, [(2, 2), (6, 6)]);
        // A declaration that parsed whole inside an outlined one is its detail, though an error
        // follows it in the same statement.
        let helper = "function wrap() {\nfunction helper() {}\nreturn 1 +;\n}\n";
        assert_eq!(crate::outline(Language::JavaScript, helper).unparsed, []);
        // A broken exported object of data only would not be listed if it parsed.
        let data = "module.exports = {\n  root: true,\n  rules: {\n    'no-console': 'off'\n    'semi': 2,\n  },\n};\n";
        let data_tree = tree(Language::JavaScript, data);
        assert!(data_tree.root_node().has_error());
        assert_eq!(unoutlined_definitions(&data_tree, &[], Language::JavaScript, &Lines::new(data)), []);
        // A class body closed early by recovery: the lines it left behind held members.
        let cut = "export class Queue {\n  _lazy: {[key: string]: (void) => {...}, ...};\n  _queue: number[];\n\n  \
                   constructor() {\n    this._queue = [];\n  }\n}\n\nexport const after = 1;\n";
        let cut_tree = tree(Language::TypeScript, cut);
        assert_eq!(node_lines(cut_tree.root_node().named_child(0).unwrap(), cut).1, 2);
        assert_eq!(
            unoutlined_definitions(&cut_tree, &[(1, 1), (2, 2)], Language::TypeScript, &Lines::new(cut)),
            [(3, 7)]
        );
        // An exported object whose statement broke (a JSX construct the grammar trips over in
        // a Vue component's `render`) may hold every method of the file.
        let component = "export default {\n  render(h) {\n    return (];\n  },\n};\n";
        let component_tree = tree(Language::JavaScript, component);
        assert!(component_tree.root_node().has_error());
        assert_eq!(
            unoutlined_definitions(&component_tree, &[], Language::JavaScript, &Lines::new(component)),
            [(1, 1)]
        );
        // Recovery may give up on the whole file: the root is the error, and the head it could
        // not place is in no statement.
        let lost = "export default {\n  const row = (this.row || []).map(item => {\n";
        let lost_tree = tree(Language::JavaScript, lost);
        assert!(lost_tree.root_node().is_error());
        assert_eq!(unoutlined_definitions(&lost_tree, &[], Language::JavaScript, &Lines::new(lost)), [(1, 1)]);
        // Other languages are not read this way.
        let c = "#define FOO_H\nstruct device;\nint broken( {\n";
        assert_eq!(unoutlined_definitions(&tree(Language::C, c), &[], Language::C, &Lines::new(c)), []);
    }

    #[test]
    fn an_error_over_several_lines_is_named_where_it_may_hide_a_definition() {
        // A method lost its brace in an exported call's object: the call is one error; the lines
        // with code are named as one span, the comment and the lone brackets are not counted.
        let source = "import define from 'define';\nexport default define('x', {\n  // the hours\n  isPM: function (input) {\n    return input;\n  \n  week: {\n    dow: 1,\n  },\n});\n";
        let parsed = tree(Language::JavaScript, source);
        let regions = |covered: &[Covered]| error_regions(&parsed, covered, Language::JavaScript, &Lines::new(source));
        let import = Covered { start: 1, end: 1, opaque: true };
        assert_eq!(regions(&[import]), [(2, 8)]);
        // Were `isPM` outlined from inside the error, its lines would be covered, and what is
        // left (`week`'s data) looks like no definition.
        let read = Covered { start: 4, end: 5, opaque: false };
        assert_eq!(regions(&[Covered { start: 1, end: 1, opaque: true }, read]), []);
        // Data only: nothing looks like a definition, nothing is named.
        let data = "export default define('x', {\n  months: [1, 2,\n  week: {\n    dow: 1,\n  },\n});\n";
        let data_tree = tree(Language::JavaScript, data);
        assert_eq!(error_regions(&data_tree, &[], Language::JavaScript, &Lines::new(data)), []);
    }

    #[test]
    fn a_declaration_a_string_took_into_its_error_is_named() {
        // The closing quote lost: recovery reads the next declaration's words as identifiers in
        // the first one's error, which a lone token is not a declaration that parsed whole.
        let source = "export const OP_DONE = \"Done as const\n\nexport type OP_DONE = typeof OP_DONE\n";
        let parsed = tree(Language::TypeScript, source);
        assert_eq!(unoutlined_definitions(&parsed, &[(1, 1)], Language::TypeScript, &Lines::new(source)), [(3, 3)]);
    }

    #[test]
    fn an_object_listed_for_its_methods_is_named_with_them() {
        // A `)` lost in the locale object: its method went into the error, and the binding
        // listed for that method went from the view with it.
        let source = "var locale = {\n  name: 'ka',\n  weekdays: 'a_b'.split('_',\n  ordinal: function ordinal(n) {\n    return n;\n  }\n};\nexport default locale;\n";
        let parsed = tree(Language::JavaScript, source);
        let lines = Lines::new(source);
        let widened = |listed: &[(u32, u32)]| {
            widened_to_unlisted_objects(&parsed, vec![(4, 4)], listed, Language::JavaScript, &lines)
        };
        assert_eq!(widened(&[(8, 8)]), [(1, 4)]);
        assert_eq!(widened(&[(1, 1), (8, 8)]), [(4, 4)], "still listed: its line is not in question");
        // A block is no object: an `if` around a broken function keeps the note on the function.
        let guarded = "if (typeof window !== 'undefined') {\n  x(\n  function helper(a) {}\n}\n";
        let guarded_tree = tree(Language::JavaScript, guarded);
        let spans =
            widened_to_unlisted_objects(&guarded_tree, vec![(3, 3)], &[], Language::JavaScript, &Lines::new(guarded));
        assert_eq!(spans, [(3, 3)]);
        // A module wrapper's definitions are listed from inside it: its first line is not named.
        let wrapper = "(function (root) {\n  x(\n  function a() {}\n})(this);\n";
        let wrapped = tree(Language::JavaScript, wrapper);
        let spans =
            widened_to_unlisted_objects(&wrapped, vec![(3, 3)], &[], Language::JavaScript, &Lines::new(wrapper));
        assert_eq!(spans, [(3, 3)]);
    }

    #[test]
    fn an_export_list_taken_into_an_error_is_named() {
        // A call lost its `)`: the export after it is in the error, and the outline lists it.
        let source = "function Vue(options) {}\ninitMixin(Vue)\nrenderMixin(Vue\n\nexport default Vue\n";
        let parsed = tree(Language::JavaScript, source);
        let function = Covered { start: 1, end: 1, opaque: false };
        let regions = error_regions(&parsed, &[function], Language::JavaScript, &Lines::new(source));
        assert_eq!(regions, [(3, 5)]);
    }

    #[test]
    fn a_definition_at_the_margin_inside_another_names_the_rest_of_it() {
        // Python: the call left open in `a` takes in `b` and `C`.
        let source =
            "def a():\n    x = f(1\n    return x\n\ndef b():\n    pass\n\nclass C:\n    def m(self):\n        pass\n";
        let python = tree(Language::Python, source);
        assert!(python.root_node().has_error());
        assert_eq!(
            folded_definitions(&python, &[(1, 10)], &[(1, 1)], Language::Python, true, &Lines::new(source)),
            [(5, 10)]
        );
        // A method indented under its class is the class's: nothing folded.
        assert_eq!(
            folded_definitions(
                &python,
                &[(8, 10), (9, 10)],
                &[(8, 8), (9, 9)],
                Language::Python,
                true,
                &Lines::new(source)
            ),
            []
        );
        // A function at the margin that parsed whole inside another is its detail (written
        // unindented), as is one indented deeper; one the error took apart is folded.
        let nested = "function a() {\nfunction helper() {}\n  function inner() {}\n  return 1 +;\n}\n";
        let javascript = tree(Language::JavaScript, nested);
        assert_eq!(
            folded_definitions(&javascript, &[(1, 5)], &[(1, 1)], Language::JavaScript, false, &Lines::new(nested)),
            []
        );
        let torn = "class A {\n  get(k) {\n    if (k) {\n    return 1;\n  }\n\n  set(k) {\n    this.k = k;\n  }\n}\n";
        let torn_tree = tree(Language::JavaScript, torn);
        assert_eq!(
            folded_definitions(
                &torn_tree,
                &[(2, 10)],
                &[(1, 1), (2, 2)],
                Language::JavaScript,
                false,
                &Lines::new(torn)
            ),
            [(7, 10)]
        );
        // Text in a string is no definition, at whatever margin (a Go raw string's usage).
        let go = "package p\n\nfunc usage() string {\n\treturn `usage:\nfunc f() {}\n`\n}\n\nfunc broken( {\n}\n";
        let go_tree = tree(Language::Go, go);
        assert!(go_tree.root_node().has_error());
        assert_eq!(folded_definitions(&go_tree, &[(3, 7)], &[(3, 3)], Language::Go, false, &Lines::new(go)), []);
        // Not code: no definition heuristic to judge by.
        let markdown = "# a\n# b\n# c\n";
        assert_eq!(
            folded_definitions(
                &tree(Language::Markdown, markdown),
                &[(1, 3)],
                &[],
                Language::Markdown,
                false,
                &Lines::new(markdown)
            ),
            []
        );
    }
}
