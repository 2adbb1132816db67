//! An outline of code in a language this crate has no grammar for (Kotlin, Swift, PHP, Scala,
//! Dart, Lua, shell, Perl, Elixir, Julia, Nim, Zig, Solidity, PowerShell, Crystal, Groovy): each
//! line that starts a definition with a keyword (`fun`, `class`, `def`, `function`, …), nested by
//! its indentation; in Dart and Groovy also a function declared by its return type and a
//! constructor, in Lua the functions a table holds. What none of these starts (a Dart field,
//! `final String name;`) is not listed; the view's first line says what is ([`Family::note`]).
//!
//! This module nests what is found and ends it; [`head`] joins a head's parameter lines,
//! [`statements`] cuts a line into the statements written one after another on it,
//! [`general`] reads a line's keywords and name, and
//! one module a family or language reads what no keyword starts ([`typed`], [`lua`] with
//! [`lua_blocks`], [`php`], [`perl`], [`shell`]); [`embedded_text`] finds the lines that are text
//! inside code, and [`function_head`] where a function's head ends before a body on its line.

mod code_chars;
mod embedded_text;
mod function_head;
mod general;
mod head;
mod lua;
mod lua_blocks;
mod one_line_body;
mod perl;
mod php;
mod shell;
mod statements;
mod type_members;
mod typed;

use embedded_text::text_lines;
use general::{assigned_function, keyword_definition};
use perl::{constant_entry, constant_lists, perl_constant};
use php::is_anonymous_class;
use shell::shell_function;
use statements::statements;
use type_members::type_member;
use typed::typed_constructor;

use crate::model::{Definition, Kind};
use crate::text::signature_line;

/// Lines longer than this are data or minified code, not a definition's head; nor are a head's
/// parameter lines joined past it ([`head`]).
const MAX_LINE: usize = 1_000;

/// The deepest nesting listed: indentation deeper than this many definitions is a body's detail.
const MAX_NESTING: usize = 16;

/// Which keywords a language defines with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// Kotlin, Swift, PHP, Scala and the rest: [`general::KEYWORDS`], [`general::STORAGE`] and
    /// their modifiers.
    General,
    /// Dart, Groovy and Gradle: [`Family::General`]'s keywords, a function declared by its return
    /// type (`void main() {`, `Future<int> load(String id) async {`, `String get name => _name;`),
    /// a constructor (`const Foo(this.x);`, `factory Foo.fromJson(…)`), and Groovy's `def x = …`
    /// is a variable (a function only with its parameters).
    Typed,
    /// sh, bash, zsh, ksh: `function name` and `name() {` only (`type` is a command there).
    Shell,
    /// Lua: [`Family::General`]'s keywords (`function`, `local function`), and the functions a
    /// table holds: a field's (`M.load = function(path)`, in a function's body too) and a table
    /// constructor's (`local t = { load = function(path) … }`, `return { … }`), under the table
    /// they are members of.
    Lua,
}

impl Family {
    /// The first line of the family's outline: how it was made, and what it lists.
    pub fn note(self) -> &'static str {
        match self {
            Family::General => {
                "[outline by keywords (no grammar for this language here): definitions a keyword starts \
                 (fun, class, def, sub, val, …); others not shown]"
            }
            Family::Typed => {
                "[outline by keywords (no grammar for this language here): definitions a keyword starts, \
                 functions declared by their return type and constructors; fields declared by their type \
                 (final String name;) not shown]"
            }
            Family::Lua => {
                "[outline by keywords (no grammar for this language here): functions and the functions of \
                 tables (M.f = function, t = { f = function }); variables, callbacks passed to calls and a \
                 function body's local f = function not shown]"
            }
            Family::Shell => {
                "[outline by keywords (no grammar for this language here): functions only; variables and \
                 aliases not shown]"
            }
        }
    }
}

/// The outline of `source` by its definition keywords, nested by indentation.
pub fn keyword_outline(source: &str, family: Family) -> Vec<Definition> {
    let lines: Vec<&str> = source.lines().collect();
    // Each definition found, with its indentation, the index of its enclosing one and whether it
    // is a Lua table.
    let mut found: Vec<(usize, Option<usize>, Definition, Table)> = Vec::new();
    // Indices into `found` of the definitions still open at the current line.
    let mut open: Vec<usize> = Vec::new();
    let text = text_lines(&lines);
    let constants = if family == Family::General { constant_lists(&lines) } else { vec![false; lines.len()] };
    // Lines that close a Lua table and open another with functions on the line.
    let mut entry_lines = vec![false; lines.len()];
    for (index, line) in lines.iter().enumerate() {
        let entries = match family == Family::Lua && !text[index] && line.len() <= MAX_LINE && is_bracket_line(line) {
            true => lua::closing_line_entries(line),
            false => Vec::new(),
        };
        if !entries.is_empty() {
            // The table's owner: the innermost definition open no deeper than the line, a table.
            let indent = indentation(line);
            let within = open.iter().rposition(|&at| found[at].0 <= indent).map_or(0, |at| at + 1);
            let owner = within.checked_sub(1).map(|at| open[at]).filter(|&owner| found[owner].3 != Table::No);
            if let Some(owner) = owner.filter(|_| within < MAX_NESTING) {
                open.truncate(within);
                entry_lines[index] = true;
                push_entries(&mut found, &mut open, owner, &lines, index, entries);
            }
            continue;
        }
        if text[index] || line.len() > MAX_LINE || line.trim().is_empty() || is_bracket_line(line) {
            continue;
        }
        let indent = indentation(line);
        while open.last().is_some_and(|&last| found[last].0 >= indent) {
            open.pop();
        }
        let parent = open.last().copied();
        // In Dart and Groovy a block that is no definition is a closure (Gradle's `android {`):
        // what it declares is its own, not the file's.
        let in_type = match parent {
            Some(parent) => is_type(found[parent].2.kind),
            None => family != Family::Typed || indent == 0,
        };
        // A head is read with the lines its parameters continue on: in Dart and Groovy before the
        // test for a definition, which reads it (`void save(` is a function where its parameters
        // close); elsewhere only for a line the test, reading the line, finds one on.
        let mut head = None;
        let place = match parent.map(|parent| found[parent].3) {
            Some(Table::Named | Table::Anonymous) => lua::Place::Table,
            _ if in_type => lua::Place::File,
            _ => lua::Place::Body,
        };
        // A type's member no keyword starts (an enum's case, PHP's trait use), with its signature.
        let member = parent
            .filter(|_| family == Family::General)
            .and_then(|parent| type_member(&lines, index, found[parent].2.kind));
        let found_here = if let Some((kind, name, _)) = &member {
            Some((*kind, name.clone(), Table::No))
        } else if constants[index] {
            constant_entry(line.trim()).map(|(kind, name)| (kind, name, Table::No))
        } else if family == Family::Lua {
            lua::definition(line.trim(), place)
                .or_else(|| definition(line.trim(), family, in_type).map(|(kind, name)| (kind, name, Table::No)))
        } else if family == Family::Typed {
            let class = parent.filter(|_| in_type).map(|parent| found[parent].2.name.as_str());
            let head = head.insert(head::head(&lines, index, family));
            class
                .and_then(|class| typed_constructor(head, class))
                .or_else(|| definition(head, family, in_type))
                .map(|(kind, name)| (kind, name, Table::No))
        } else {
            definition(line.trim(), family, in_type).map(|(kind, name)| (kind, name, Table::No))
        };
        let Some((kind, name, table)) = found_here else { continue };
        if open.len() >= MAX_NESTING {
            continue;
        }
        let head = head.unwrap_or_else(|| head::head(&lines, index, family));
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let sequence =
            (family == Family::Lua && table == Table::No).then(|| lua::function_sequence(line.trim(), place)).flatten();
        if let Some(sequence) = sequence {
            // Functions one after another on the line: each its own definition, with its head. The
            // last stays open, as a function on a line of its own does (its body may go on below);
            // those before it end on the line, indented past any line (they ran on with the last).
            let last = sequence.len() - 1;
            for (at, (name, statement)) in sequence.into_iter().enumerate() {
                let signature = head_signature(statement, Kind::Function, family);
                let indent = if at == last { indent } else { usize::MAX };
                found.push((indent, parent, on_line(Kind::Function, name, signature, number), Table::No));
            }
            open.push(found.len() - 1);
            continue;
        }
        // Statements one after another on the line (`fun a() {} fun b() {}`, `val v = 1; val w =
        // 2`): each that defines is its own definition, with its own head, and what defines
        // nothing is no part of one. Those before the last end on the line: indented past any
        // line, the next line ends them. The last stays open, as a definition alone on its line
        // does (its body may go on below).
        let parts = match matches!(family, Family::General | Family::Typed) && member.is_none() && !constants[index] {
            true => statements(&head),
            false => Vec::new(),
        };
        if parts.len() > 1 {
            let owner = parent.map(|parent| (found[parent].2.kind, found[parent].2.name.clone()));
            let owner = owner.as_ref().map(|(kind, name)| (*kind, name.as_str()));
            let mut defined: Vec<Definition> =
                parts.iter().filter_map(|part| statement_definition(part, family, in_type, owner, number)).collect();
            // Members are put last first, as the gathering below puts a definition's children.
            defined.iter_mut().for_each(|definition| definition.children.reverse());
            if let Some(last) = defined.pop() {
                for definition in defined {
                    found.push((usize::MAX, parent, definition, Table::No));
                }
                open.push(found.len());
                found.push((indent, parent, last, Table::No));
                continue;
            }
        }
        // A value written over the next lines (`const MAP = [`) is left out with its bracket, a
        // table's constructor (`setmetatable({}, {`) with it: its functions follow. A table given
        // to a call whose result is not kept is named by the call, as written.
        let signature = match (member, table, line.split_once('=')) {
            (Some((_, _, signature)), _, _) => signature,
            (None, Table::Named, Some((target, _))) => signature_line(target),
            (None, Table::Named, None) => name.clone(),
            (None, ..) => head_signature(head.trim_end_matches('[').trim_end(), kind, family),
        };
        let mut definition = on_line(kind, name, signature, number);
        let braced = matches!(family, Family::General | Family::Typed) && is_type(definition.kind);
        if braced && let Some((signature, members)) = one_line_members(&head, family, (kind, &definition.name), number)
        {
            // Its body closed on its line: nothing after it is its member. The members are put
            // last first, as the gathering below puts a definition's children.
            definition.signature = signature;
            definition.children = members.into_iter().rev().collect();
            found.push((indent, parent, definition, table));
            continue;
        }
        let owner = found.len();
        open.push(owner);
        found.push((indent, parent, definition, table));
        if family == Family::Lua && table != Table::No && open.len() < MAX_NESTING {
            let entries = lua::head_entries(lines[index].trim(), place);
            push_entries(&mut found, &mut open, owner, &lines, index, entries);
        }
    }
    set_ends(&mut found, &lines, &text, &entry_lines);
    // Children after their parents in `found`: moved into them from the last one back, so each
    // list is gathered last first and turned round when its owner's turn comes. A table is
    // listed for the functions it holds: one without is left out, and an unnamed one's
    // (`return {`) are its owner's.
    let mut roots = Vec::new();
    while let Some((_, parent, mut definition, table)) = found.pop() {
        let owners = match parent {
            Some(parent) => &mut found[parent].2.children,
            None => &mut roots,
        };
        match table {
            Table::Named if definition.children.is_empty() => {}
            Table::Anonymous => owners.append(&mut definition.children),
            Table::No | Table::Named => {
                definition.children.reverse();
                owners.push(definition);
            }
        }
    }
    roots.reverse();
    roots
}

/// The functions of the Lua table `found[owner]` written on line `lines[index]`, its own
/// ([`lua::head_entries`]) or one that closes a table and opens another
/// ([`lua::closing_line_entries`]), as its members. One whose body ends on the line is that line, and is indented past any line,
/// so that the next line ends it; the last, whose body goes on below, stays open, indented as the
/// line where its body closes (its `end,` among the table's next entries), which ends it.
fn push_entries(
    found: &mut Vec<(usize, Option<usize>, Definition, Table)>,
    open: &mut Vec<usize>,
    owner: usize,
    lines: &[&str],
    index: usize,
    entries: Vec<lua::HeadEntry>,
) {
    let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
    for entry in entries {
        let definition = Definition {
            kind: Kind::Function,
            name: entry.key,
            signature: entry.signature,
            uncut: None,
            start_line: number,
            head_line: number,
            end_line: number,
            children: Vec::new(),
            hidden_fields: 0,
        };
        if entry.closed {
            found.push((usize::MAX, Some(owner), definition, Table::No));
            continue;
        }
        let mut below = lines[index + 1..].iter().filter(|line| !line.trim().is_empty()).map(|line| indentation(line));
        let body = below.next().unwrap_or(0);
        let closing = below.find(|&indent| indent < body).unwrap_or(body.saturating_sub(1));
        open.push(found.len());
        found.push((closing, Some(owner), definition, Table::No));
    }
}

/// The members of a type whose body is on its `head` line, on line `number`, and the type's
/// signature: its head, with the parts of the body that define nothing (an enum's values, a Dart
/// field) kept in braces (`enum Color { RED, GREEN }`), an empty body left out (`class A {}` is
/// `class A`). `None` without a body there, or when it holds values and defines nothing.
fn one_line_members(head: &str, family: Family, owner: (Kind, &str), number: u32) -> Option<(String, Vec<Definition>)> {
    let (type_head, parts) = one_line_body::split(head)?;
    let mut members = Vec::new();
    let mut kept = Vec::new();
    for part in parts {
        match statement_definition(part, family, true, Some(owner), number) {
            Some(member) => members.push(member),
            None => kept.push(part),
        }
    }
    // An empty body (`class A {}`) is none to show; a body of values, with no member, is kept
    // whole on the type's line.
    if members.is_empty() && !kept.is_empty() {
        return None;
    }
    let signature = match kept.is_empty() {
        true => signature_line(type_head),
        false => signature_line(&format!("{type_head} {{ {} }}", kept.join(" "))),
    };
    Some((signature, members))
}

/// The definition a statement `part` of line `number` makes, as on a line of its own, inside a
/// definition of `owner`'s kind and name if any: a member no keyword starts (`enum Suit: string {
/// case Hearts = 'H'; case Spades = 'S'; }` was kept raw on the enum's line, no case in the map),
/// a Dart constructor, or what [`definition`] reads; a type with its body on the line has its
/// members (see [`one_line_members`]).
fn statement_definition(
    part: &str,
    family: Family,
    in_type: bool,
    owner: Option<(Kind, &str)>,
    number: u32,
) -> Option<Definition> {
    let member = owner.filter(|_| family == Family::General).and_then(|(kind, _)| type_member(&[part], 0, kind));
    let (kind, name, signature) = match member {
        Some(member) => member,
        None => {
            let class = owner.filter(|_| family == Family::Typed && in_type).map(|(_, name)| name);
            let (kind, name) =
                class.and_then(|class| typed_constructor(part, class)).or_else(|| definition(part, family, in_type))?;
            (kind, name, head_signature(part, kind, family))
        }
    };
    let mut definition = on_line(kind, name, signature, number);
    if is_type(kind)
        && let Some((signature, members)) = one_line_members(part, family, (kind, &definition.name), number)
    {
        definition.signature = signature;
        definition.children = members;
    }
    Some(definition)
}

/// The signature of a definition of `kind` whose head is `head`: a function's ends before the
/// body written on its line (see [`function_head`]).
fn head_signature(head: &str, kind: Kind, family: Family) -> String {
    let function = matches!(kind, Kind::Function | Kind::Constructor);
    match family {
        Family::General | Family::Typed if function => signature_line(function_head::without_body(head, family)),
        Family::Lua if function => signature_line(function_head::lua_without_body(head)),
        _ => signature_line(head),
    }
}

/// Each definition runs to the line before the next one indented as much or less that does not
/// only close something (`}`, `) {`, `end`), less the blank lines and the closing lines of its
/// enclosing definitions (indented less) before that. A declaration that opens no block
/// (`package a.b`, `namespace App;`) is its line.
///
/// A line that closes a Lua table and opens another with functions (`entry_lines`) ends what is
/// deeper than it, as a definition's line does, not the table it stays in.
fn set_ends(
    found: &mut [(usize, Option<usize>, Definition, Table)],
    lines: &[&str],
    text: &[bool],
    entry_lines: &[bool],
) {
    for (indent, _, definition, _) in found.iter_mut() {
        let start = definition.start_line;
        let head = lines[start as usize - 1].trim_end();
        let block =
            !head.ends_with(';') && (definition.kind != Kind::Module || head.ends_with('{') || head.ends_with(" do"));
        if !block {
            continue;
        }
        let next = (start as usize..lines.len()).find(|&at| {
            let line = lines[at];
            let ends = match entry_lines[at] {
                true => indentation(line) < *indent,
                false => indentation(line) <= *indent && !is_bracket_line(line),
            };
            !text[at] && !line.trim().is_empty() && ends
        });
        let mut end = next.unwrap_or(lines.len());
        while end > start as usize {
            let line = lines[end - 1];
            if text[end - 1] || (!line.trim().is_empty() && indentation(line) >= *indent) {
                break;
            }
            end -= 1;
        }
        definition.end_line = u32::try_from(end).unwrap_or(u32::MAX);
    }
}

/// Whether a definition found is a Lua table, listed for the functions it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Table {
    No,
    /// `local t = {`, `M.config = {`, `local s = setmetatable({`: listed with its functions.
    Named,
    /// `return {`: its functions are its owner's.
    Anonymous,
}

/// Whether `line` only opens or closes what a definition's head began: a bracket first (`{` on a
/// line of its own, `}`, `) {`, `]`) or a block's `end`, whatever closes after it (`end)`,
/// `end},SMT)`: a Lua function's last line in a table given to a call). Such a line neither ends
/// a definition nor starts one.
fn is_bracket_line(line: &str) -> bool {
    let trimmed = line.trim_start();
    trimmed.starts_with([')', ']', '}', '{'])
        || trimmed.split([' ', ';', ')', ']', '}', '.', ',']).next() == Some("end")
}

/// The width of a line's leading whitespace, a tab counting as four.
fn indentation(line: &str) -> usize {
    line.chars().take_while(|c| c.is_whitespace()).map(|c| if c == '\t' { 4 } else { 1 }).sum()
}

fn is_type(kind: Kind) -> bool {
    matches!(kind, Kind::Class | Kind::Interface | Kind::Trait | Kind::Struct | Kind::Enum | Kind::Impl | Kind::Module)
}

/// What `line` (trimmed) defines, and its name: after annotations (`@Test`), modifiers and
/// keywords (`private suspend fun`, `enum class`, `const val`: the last keyword says what is
/// defined), a name; or in shell, a function (`name() {`). At the top level and among a type's
/// members, also a PHP property (`private ?Foo $foo = null;`), a Perl constant (`use constant
/// NAME => 1;`) and a function assigned to a name (Lua's `M.load = function(path)`).
fn definition(line: &str, family: Family, in_type: bool) -> Option<(Kind, String)> {
    if family == Family::Shell {
        return shell_function(line)
            .map(|name| (Kind::Function, name.to_string()))
            .or_else(|| keyword_definition(line, family, in_type));
    }
    if is_anonymous_class(line) {
        return Some((Kind::Class, "class@anonymous".to_string()));
    }
    let assigned = in_type.then(|| perl_constant(line).or_else(|| assigned_function(line))).flatten();
    assigned.or_else(|| keyword_definition(line, family, in_type))
}

/// A definition on line `number` alone, as the keyword outline first sees each: its end is
/// moved later where its body goes on.
fn on_line(kind: Kind, name: String, signature: String, number: u32) -> Definition {
    Definition {
        kind,
        name,
        signature,
        uncut: None,
        start_line: number,
        head_line: number,
        end_line: number,
        children: Vec::new(),
        hidden_fields: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(items: &[Definition], depth: usize, out: &mut Vec<String>) {
        for item in items {
            out.push(format!(
                "{}{}-{} {:?} {}",
                " ".repeat(depth),
                item.start_line,
                item.end_line,
                item.kind,
                item.name
            ));
            flat(&item.children, depth + 1, out);
        }
    }

    fn outline(source: &str, family: Family) -> Vec<String> {
        let mut out = Vec::new();
        flat(&keyword_outline(source, family), 0, &mut out);
        out
    }

    #[test]
    fn kotlin_definitions_nest_by_indentation_and_end_before_their_parents_close() {
        let source = "package demo\n\nclass Cart(val id: Int) {\n    private val items = mutableListOf<String>()\n\n    \
                      suspend fun add(item: String): Boolean {\n        val local = 1\n        return true\n    }\n\n    \
                      @Test fun <T> List<T>.second(): T = this[1]\n}\n\nenum class Color { RED }\nconst val MAX = 3\n";
        assert_eq!(
            outline(source, Family::General),
            [
                "1-1 Module demo",
                "3-12 Class Cart",
                " 4-4 Const items",
                " 6-9 Function add",
                " 11-11 Function second",
                "14-14 Class Color",
                "15-15 Const MAX",
            ]
        );
    }

    #[test]
    fn other_languages_keywords_shell_functions_and_constructors() {
        let swift = "struct Point {\n    var x: Double\n    init(x: Double) { self.x = x }\n    mutating func move() {}\n}\n\
                     extension Point: Equatable {}\n";
        assert_eq!(
            outline(swift, Family::General),
            ["1-5 Struct Point", " 2-2 Variable x", " 3-3 Constructor init", " 4-4 Function move", "6-6 Impl Point"]
        );
        let shell = "#!/bin/sh\n# def not_this\nbuild() {\n  cargo build\n}\nfunction deploy {\n  x=$(f)\n}\n";
        assert_eq!(outline(shell, Family::Shell), ["3-5 Function build", "6-8 Function deploy"]);
        let php = "<?php\nnamespace App\\Http;\nfinal class User\n{\n    public function name(): string {}\n}\n";
        assert_eq!(outline(php, Family::General), ["2-2 Module App\\Http", "3-6 Class User", " 5-5 Function name"]);
        // A here-document's and a raw string's lines are text: no definition, no end to one.
        let heredoc = "usage() {\n  cat <<TXT\nfunction fake_in_heredoc\nTXT\n  exit 1\n}\n\nmain() {\n  usage\n}\n";
        assert_eq!(outline(heredoc, Family::Shell), ["1-6 Function usage", "8-10 Function main"]);
        let spaced = heredoc.replace("<<TXT", "<< 'TXT'");
        assert_eq!(outline(&spaced, Family::Shell), ["1-6 Function usage", "8-10 Function main"]);
        let php = "<?php\nclass Mailer {\n    public function body() {\n        return <<<EOT\nfunction notReal() is mentioned here\nEOT;\n    }\n    public function send() {}\n}\n";
        assert_eq!(outline(php, Family::General), ["2-9 Class Mailer", " 3-7 Function body", " 8-8 Function send"]);
        let kotlin = "class Repo {\n    val query = \"\"\"\nfun notAFunction()\n\"\"\"\n    fun run() {}\n}\nval width = 1 << WIDTH\nfun last() {}\nWIDTH = 3\n";
        assert_eq!(
            outline(kotlin, Family::General),
            ["1-6 Class Repo", " 2-4 Const query", " 5-5 Function run", "7-7 Const width", "8-8 Function last"]
        );
        // A `use constant {` list left open ends at the next line no deeper than it.
        let perl = "use constant {\n    A => 1,\nsub run {\n}\n";
        assert_eq!(outline(perl, Family::General), ["2-2 Const A", "3-4 Function run"]);
        // Perl's documentation is prose, whatever its words.
        let perl = "package Tool;\n\n=head1 USAGE\n\nsub in_pod { }\n\n=cut\n\nsub run {\n}\n";
        assert_eq!(outline(perl, Family::General), ["1-1 Module Tool", "9-10 Function run"]);
        // A table's function is named by its path, its table's name and its own, in either form.
        let lua = "local M = {}\nfunction M.load(path)\nend\nlocal function helper() end\nfunction M:bar(x)\nend\n\
                   M.baz = function(y) end\nM['quoted'] = function() end\n";
        assert_eq!(
            outline(lua, Family::Lua),
            [
                "2-3 Function M.load",
                "4-4 Function helper",
                "5-6 Function M:bar",
                "7-7 Function M.baz",
                "8-8 Function M.quoted"
            ]
        );
        let elixir = "defmodule App.Repo do\n  def get(id), do: id\n  defp check(x), do: x\nend\n";
        assert_eq!(
            outline(elixir, Family::General),
            ["1-4 Module App.Repo", " 2-2 Function get", " 3-3 Function check"]
        );
    }

    /// A Lua table's function whose `end` closes the table and the call it is given to on its
    /// line (`end},SMT)`, `end})`) runs to that line: it ended on the line before, `end}` read as
    /// code after it.
    /// A PHP enum or class written on one line has the cases and trait uses of its body read as
    /// on lines of their own: `enum Suit: string { case Hearts = 'H'; case Spades = 'S'; }` was
    /// kept raw on the enum's line, and its cases were in no view nor symbol search.
    #[test]
    fn a_php_types_members_on_its_line_are_listed() {
        let php = "<?php\nenum Suit: string { case Hearts = 'H'; case Spades = 'S'; }\n\
                   enum Status { case Active, Inactive; public function label(): string { return 'x'; } }\n\
                   class Box { use Loggable; public function open() {} }\n";
        assert_eq!(
            outline(php, Family::General),
            [
                "2-2 Enum Suit",
                " 2-2 Field Hearts",
                " 2-2 Field Spades",
                "3-3 Enum Status",
                " 3-3 Field Active, Inactive",
                " 3-3 Function label",
                "4-4 Class Box",
                " 4-4 Export Loggable",
                " 4-4 Function open"
            ]
        );
        let items = keyword_outline(php, Family::General);
        assert_eq!(items[0].signature, "enum Suit: string");
        assert_eq!(
            crate::render::render_item_signatures(&items),
            "2 enum Suit: string { Hearts, Spades }\n3 enum Status { Active, Inactive }\n 3 public function label(): \
             string\n4 class Box\n 4 use Loggable\n 4 public function open()\n"
        );
    }

    /// Lua functions written one after another on a line are each listed, with their own heads
    /// (`M.g` was in no view: the line was `M.f`'s, its signature the whole line), and the
    /// functions of a one-line metatable are all named.
    #[test]
    fn lua_functions_on_one_line_are_each_listed() {
        let lua = "local M = {}\nM.f = function() end; M.g = function(x) return x end\nfunction M.h() end\n\
                   return setmetatable({}, { __index = function(t, k) return rawget(M, k) end, __call = function() end })\n";
        assert_eq!(
            outline(lua, Family::Lua),
            ["2-2 Function M.f", "2-2 Function M.g", "3-3 Function M.h", "4-4 Function __index, __call"]
        );
        let items = keyword_outline(lua, Family::Lua);
        assert_eq!(
            crate::render::render_item_signatures(&items[..3]),
            "2 M.f = function()\n2 M.g = function(x)\n3 function M.h()\n"
        );
        // A statement after a function's `end` is not its signature; two local functions are
        // both named (alike but for the name, they share the line).
        let lua = "local M = {}\nM.f = function() end; x = 1\nlocal function a() end local function b() end\n";
        assert_eq!(outline(lua, Family::Lua), ["2-2 Function M.f", "3-3 Function a", "3-3 Function b"]);
        // The functions before the last end on their line, where the last goes on below.
        let continued = "local M = {}\nM.f = function() end; M.g = function(x)\n  return x\nend\n";
        assert_eq!(outline(continued, Family::Lua), ["2-2 Function M.f", "2-4 Function M.g"]);
        assert_eq!(
            crate::render::render_item_signatures(&keyword_outline(lua, Family::Lua)),
            "2 M.f = function()\n3 local function {a, b}()\n"
        );
    }

    /// A quote in a head is a string's, whatever it holds: a class's body on its line is split
    /// past one (`class Q(val s: String = "{") { fun run() {} }` was left whole, `run` in no
    /// view), a member's `"{"` is no brace, and an annotation's `"("` opens no parentheses (the
    /// function after it was not read).
    #[test]
    fn quotes_in_a_head_are_strings() {
        let kotlin = "class Q(val s: String = \"{\") { fun run() {} }\n@Query(\"(\") fun q(a: Int) {\n}\n";
        assert_eq!(outline(kotlin, Family::General), ["1-1 Class Q", " 1-1 Function run", "2-3 Function q"]);
        let items = keyword_outline(kotlin, Family::General);
        assert_eq!(
            crate::render::render_item_signatures(&items),
            "1 class Q(val s: String = \"{\")\n 1 fun run()\n2-3 @Query(\"(\") fun q(a: Int)\n"
        );
        let php = "<?php\nclass B { public function f(string $s = \"{\") { return 1; } }\n";
        assert_eq!(outline(php, Family::General), ["2-2 Class B", " 2-2 Function f"]);
        assert_eq!(
            crate::render::render_item_signatures(&keyword_outline(php, Family::General)),
            "2 class B\n 2 public function f(string $s = \"{\")\n"
        );
    }

    /// Definitions written one after another on a line are each listed, with their own heads,
    /// and a statement after a definition is no part of its signature: `fun a() {} fun b() {}`
    /// was `a` alone, `val v = 1; val w = 2` one constant whose signature ran on, and a one-line
    /// class's `f() { … } g() {}` one member.
    #[test]
    fn statements_on_one_line_are_each_their_own() {
        let kotlin =
            "fun a() {} fun b(x: Int) {\n    x()\n}\nval v = 1; println(v)\nclass F { fun x() {} fun y() {} }\n";
        assert_eq!(
            outline(kotlin, Family::General),
            ["1-1 Function a", "1-3 Function b", "4-4 Const v", "5-5 Class F", " 5-5 Function x", " 5-5 Function y"]
        );
        let items = keyword_outline(kotlin, Family::General);
        assert_eq!(
            crate::render::render_item_signatures(&items),
            "1 fun a()\n1-3 fun b(x: Int)\n4 val v = 1\n5 class F\n 5 fun {x, y}()\n"
        );
        let php = "<?php\nfunction a() {} function b() {}\nconst A = 1; const B = 2;\n\
                   class C { public function g() { return 1; } public function h() {} }\n";
        assert_eq!(
            outline(php, Family::General),
            [
                "2-2 Function a",
                "2-2 Function b",
                "3-3 Const A",
                "3-3 Const B",
                "4-4 Class C",
                " 4-4 Function g",
                " 4-4 Function h"
            ]
        );
        let perl = "sub a { 1 } sub b { 2 }\nuse constant X => 1; use constant Y => 2;\n";
        assert_eq!(outline(perl, Family::General), ["1-1 Function a", "1-1 Function b", "2-2 Const X", "2-2 Const Y"]);
        let swift = "struct S { func f() {} } struct T {}\nfunc g(_ s: String = \"}\") {} func h() {}\n";
        assert_eq!(
            outline(swift, Family::General),
            ["1-1 Struct S", " 1-1 Function f", "1-1 Struct T", "2-2 Function g", "2-2 Function h"]
        );
        let dart = "void a() {} void b() {}\nint c() => 1; int d() => 2;\n";
        assert_eq!(
            outline(dart, Family::Typed),
            ["1-1 Function a", "1-1 Function b", "2-2 Function c", "2-2 Function d"]
        );
        let groovy = "def a() { 1 }; def b() { 2 }\n";
        assert_eq!(outline(groovy, Family::Typed), ["1-1 Function a", "1-1 Function b"]);
    }

    #[test]
    fn a_lua_function_ends_on_the_line_that_closes_its_table() {
        let lua = "local Stack = class({\n  push = function(self, v)\n    self[#self + 1] = v\n  end},SMT)\n\n\
                   local Queue = setmetatable({}, {\n  __index = function(self, key)\n    return rawget(self, 1)\n  end})\n\nfunction M.size(t)\nend\n";
        assert_eq!(
            outline(lua, Family::Lua),
            [
                "1-4 Table Stack",
                " 2-4 Function push",
                "6-9 Table Queue",
                " 7-9 Function __index",
                "11-12 Function M.size"
            ]
        );
    }

    /// A function on a line that closes a table and opens the next argument's (`}, { __index =
    /// function(_, key)`, a metatable) is its owner's, as the first table's are, and ends the
    /// function before it: it was in neither view, and `open` ran on to the call's end.
    #[test]
    fn a_lua_function_on_a_tables_closing_line_is_listed() {
        let lua = "local handlers = setmetatable({\n  open = function(path)\n    return io.open(path)\n  end,\n\
                   }, { __index = function(_, key)\n    return nil\n  end })\n\nfunction M.size(t)\nend\n";
        assert_eq!(
            outline(lua, Family::Lua),
            ["1-7 Table handlers", " 2-4 Function open", " 5-7 Function __index", "9-10 Function M.size"]
        );
    }

    #[test]
    fn groovy_def_binds_a_variable_unless_it_has_parameters() {
        let groovy = "def version = '1.0'\n\ndef bump(String v) {\n    def parts = v.split('.')\n    parts.join('.')\n}\n\n\
                      class Release {\n    def notes\n    void publish() {\n    }\n}\n";
        assert_eq!(
            outline(groovy, Family::Typed),
            [
                "1-1 Variable version",
                "3-6 Function bump",
                "8-12 Class Release",
                " 9-9 Variable notes",
                " 10-11 Function publish",
            ]
        );
    }

    #[test]
    fn a_keyword_where_a_name_is_due_is_the_name() {
        let perl = "package Net::FTP 3.14;\n\nsub init {\n}\nsub type { shift->{type} }\n";
        assert_eq!(outline(perl, Family::General), ["1-1 Module Net::FTP", "3-4 Function init", "5-5 Function type"]);
        let kotlin = "package com.swmansion.rnscreens.gamma.stack.screen\n\nclass Header {\n    var type = Type.LEFT\n    \
                      private lateinit var host: View\n    override val object: Any = 1\n}\nfun interface Listener {\n    \
                      fun onEvent()\n}\nannotation class Keep\n";
        assert_eq!(
            outline(kotlin, Family::General),
            [
                "1-1 Module screen",
                "3-7 Class Header",
                " 4-4 Variable type",
                " 5-5 Variable host",
                " 6-6 Const object",
                "8-10 Interface Listener",
                " 9-9 Function onEvent",
                "11-11 Class Keep",
            ]
        );
        let swift =
            "class Cell: UIView {\n    required init?(coder: NSCoder) { nil }\n    weak var delegate: Delegate?\n}\n";
        assert_eq!(
            outline(swift, Family::General),
            ["1-4 Class Cell", " 2-2 Constructor init", " 3-3 Variable delegate"]
        );
    }
}
