//! Ruby: modules, classes, `class << self`, `def`, `def self.x`, the methods `define_method`,
//! `alias_method` and `alias` add, constants, `require`, and the methods a block given to a call
//! defines (a concern's `class_methods do`, `Struct.new do`).

use std::borrow::Cow;

use tree_sitter::Node;

use super::{Constructors, Private, Rule, Sections, Spec, field_text, left_side};
use crate::model::Kind;
use crate::text::node_text;

/// Where a Ruby definition's head ends: its body, or `end` when it has none.
const HEAD_END: &[&str] = &["body", "end"];

pub(super) static SPEC: Spec = Spec {
    rules: &[
        // A module's or class's mixins follow its head: `class Version < Base (include Comparable)`.
        Rule::new("module", Kind::Module).head_end(HEAD_END).members("body").body_notes(mixins),
        Rule::new("class", Kind::Class).head_end(HEAD_END).members("body").body_notes(mixins),
        Rule::new("singleton_class", Kind::Class)
            .named(singleton_class_name)
            .head_end(HEAD_END)
            .members("body")
            .body_notes(mixins),
        Rule::new("method", Kind::Function).head_end(HEAD_END),
        Rule::new("singleton_method", Kind::Function).named(singleton_method_name).head_end(HEAD_END),
        // `alias full_name name` adds the method `full_name`.
        Rule::new("alias", Kind::Function).named(alias_name).whole(),
        // A constant bound to a class built with a block of methods (`Point = Struct.new(:x, :y)
        // do def dist … end end`, `Class.new(Base) do … end`, `Data.define`) is that class.
        Rule::classify("assignment", constant)
            .named(left_side)
            .head_end(&["right"])
            .body(class_block)
            .body_notes(mixins),
        // `define_method(:major) { |strict| … }`: the block's `}` closes the head its `{` opened,
        // as a `do |strict|` head reads whole with its `end` on a line of its own.
        Rule::classify("call", braced_added_method).named(call_name).body(block_body).keep_tail(),
        // A block given to a call that defines methods: a Rails concern's `included do` and
        // `class_methods do`, `class_eval do`, `refine String do`, a spec's helpers under
        // `RSpec.describe … do`. The call is the head, the block's methods its members. The
        // attributes a class declares (`attr_reader :id, :total`), its fields. And the method a
        // `define_method(:reset!) do |a|` or `alias_method :to_s, :name` adds, named by its symbol.
        Rule::classify("call", call_kind).named(call_name).body(block_body),
    ],
    // A method defined as a call's argument: `private def tokens(text)`, `protected def …`,
    // `private_class_method def self.build`, `memoize def total`. The call is the head's prefix.
    wrappers: &[("call", super::Prefix::Full), ("argument_list", super::Prefix::Full)],
    attributes: &[],
    decorations: &[],
    unshown: &[],
    conditional: None,
    // A bare `private` (or `protected`, `module_function`) makes the instance methods after it
    // so, up to the next such statement or the end of the body.
    sections: Some(Sections {
        word: visibility_section,
        applies_to: made_private,
        unlisted: &["private", "protected"],
        // Only one branch runs; a `private` in the one that does holds past the `end`.
        branches: &["elsif", "else", "when"],
        by_name: Some(named_visibility),
    }),
    module_factories: false,
    class_constants: true,
    error_ends_head: false,
    layout_judged: true,
    margin_nests: true,
    indentation_is_syntax: false,
    multiline_strings: &["string"],
    implied: &[],
    abridged: &[],
    elided: &[],
    untyped: None,
    reparse: None,
    invoked_body: None,
    unparsed_lead: None,
    overloads: None,
    // What a conditional or a `begin … rescue … ensure` defines is its owner's, at any depth:
    // rack's `if defined?(Process::CLOCK_MONOTONIC) def clock_time … else def clock_time …`, a
    // fallback `rescue LoadError class Cookie …`, `VERSION = "1" unless defined?(VERSION)`.
    transparent: &[
        "if",
        "unless",
        "elsif",
        "else",
        "then",
        "case",
        "when",
        "begin",
        "rescue",
        "ensure",
        "if_modifier",
        "unless_modifier",
    ],
    member_lists: &[],
    imports: &["call"],
    is_import: is_require,
    import_keywords: &["require "],
    constructors: Constructors::Named(&["initialize"]),
    private: &[Private::fields("call", every_attribute)],
};

/// The visibility a bare `private`, `protected`, `public` or `module_function` statement gives
/// the methods after it (`public` the default, shown as nothing).
fn visibility_section(node: Node, source: &str) -> Option<&'static str> {
    // A statement of its own, not the name of a call (`private def x`).
    if node.kind() != "identifier" || node.parent().is_some_and(|parent| parent.kind() == "call") {
        return None;
    }
    match node_text(node, source) {
        "private" => Some("private"),
        "protected" => Some("protected"),
        "module_function" => Some("module_function"),
        "public" => Some(""),
        _ => None,
    }
}

/// The word a statement gives the names it lists, wherever they are defined in its body:
/// `private_constant :SECRET` makes a constant (or class) private, `private :helper` (or
/// `protected`, `public`, `module_function`) a method or an attribute, and
/// `private_class_method :build` (or `public_class_method`) the class method `self.build`. A
/// private class method reads as its `private_class_method def self.build` form does: `private
/// def self.build` would read as Ruby's own trap, which leaves the method public.
fn named_visibility<'s>(node: Node, source: &'s str) -> Option<(&'static str, Vec<Cow<'s, str>>)> {
    if node.kind() != "call" || node.child_by_field_name("receiver").is_some() {
        return None;
    }
    let (word, class_methods) = match node_text(node.child_by_field_name("method")?, source) {
        "private" | "private_constant" => ("private", false),
        "protected" => ("protected", false),
        "public" | "public_constant" => ("", false),
        "module_function" => ("module_function", false),
        "private_class_method" => ("private_class_method", true),
        "public_class_method" => ("", true),
        _ => return None,
    };
    let arguments = node.child_by_field_name("arguments")?;
    let mut cursor = arguments.walk();
    // `private def x` and `private attr_reader :x` name no symbol: their wrapper says it.
    let symbols = arguments.named_children(&mut cursor).filter_map(|argument| symbol_name(argument, source));
    let names: Vec<Cow<str>> = match class_methods {
        true => symbols.map(|name| Cow::Owned(format!("self.{name}"))).collect(),
        false => symbols.map(Cow::Borrowed).collect(),
    };
    Some((word, names)).filter(|(_, names)| !names.is_empty())
}

/// The modules a module's or class's body mixes in, by verb in order of appearance: `include
/// Comparable, Enumerable; extend Forwardable`, looking through conditionals (thor's `include
/// Rake::DSL if defined?(Rake::DSL)`). A module given by an expression (`include
/// Module.new { … }`) is detail.
fn mixins(body: Node, source: &str) -> Option<String> {
    let mut verbs: Vec<(&str, Vec<&str>)> = Vec::new();
    let mut pending = vec![(body, 0)];
    while let Some((node, depth)) = pending.pop() {
        let mut cursor = node.walk();
        for statement in node.named_children(&mut cursor) {
            if depth < MAX_BLOCK_NESTING && SPEC.transparent.contains(&statement.kind()) {
                pending.push((statement, depth + 1));
                continue;
            }
            let Some((verb, modules)) = mixed_in(statement, source) else { continue };
            match verbs.iter_mut().find(|(listed, _)| *listed == verb) {
                Some((_, listed)) => listed.extend(modules),
                None => verbs.push((verb, modules)),
            }
        }
    }
    let notes: Vec<String> =
        verbs.into_iter().map(|(verb, modules)| format!("{verb} {}", modules.join(", "))).collect();
    Some(notes.join("; ")).filter(|notes| !notes.is_empty())
}

/// `include Comparable, Enumerable` as the verb and the modules it names.
fn mixed_in<'s>(statement: Node, source: &'s str) -> Option<(&'s str, Vec<&'s str>)> {
    if statement.kind() != "call" || statement.child_by_field_name("receiver").is_some() {
        return None;
    }
    let verb = node_text(statement.child_by_field_name("method")?, source);
    if !matches!(verb, "include" | "extend" | "prepend") {
        return None;
    }
    let arguments = statement.child_by_field_name("arguments")?;
    let mut cursor = arguments.walk();
    let modules: Vec<&str> = arguments
        .named_children(&mut cursor)
        .filter(|module| matches!(module.kind(), "constant" | "scope_resolution" | "self"))
        .map(|module| node_text(module, source))
        .collect();
    Some((verb, modules)).filter(|(_, modules)| !modules.is_empty())
}

/// `<< self` for `class << self`.
fn singleton_class_name(node: Node, source: &str) -> Option<String> {
    Some(format!("<< {}", field_text(node, "value", source)?))
}

/// `self.parse` for `def self.parse`.
fn singleton_method_name(node: Node, source: &str) -> Option<String> {
    Some(format!("{}.{}", field_text(node, "object", source)?, field_text(node, "name", source)?))
}

fn constant(node: Node, _: &str) -> Option<Kind> {
    node.child_by_field_name("left").filter(|left| left.kind() == "constant")?;
    Some(if class_block(node).is_some() { Kind::Class } else { Kind::Const })
}

/// The body of the block of methods a constant's value is called with (see [`constant`]).
fn class_block(assignment: Node) -> Option<Node> {
    assignment.child_by_field_name("right").filter(|right| right.kind() == "call").and_then(methods_block)
}

fn call_kind(call: Node, source: &str) -> Option<Kind> {
    if attributes(call, source).is_some() {
        return Some(Kind::Field);
    }
    if added_method(call, source).is_some() {
        return Some(Kind::Function);
    }
    methods_block(call).map(|_| Kind::Impl)
}

/// A `define_method` given a block in braces with parameters (see [`SPEC`]).
fn braced_added_method(call: Node, source: &str) -> Option<Kind> {
    let block = call.child_by_field_name("block").filter(|block| block.kind() == "block")?;
    block.child_by_field_name("parameters")?;
    added_method(call, source).map(|_| Kind::Function)
}

fn call_name(call: Node, source: &str) -> Option<String> {
    attributes(call, source).or_else(|| added_method(call, source).map(str::to_string)).or_else(|| called(call, source))
}

/// The name of the method a `define_method` or `alias_method` call adds to its class: its first
/// argument, written as a symbol or a string (a computed one, `define_method("#{state}?")`, names
/// nothing the file states).
fn added_method<'s>(call: Node, source: &'s str) -> Option<&'s str> {
    let method = call.child_by_field_name("method").map(|method| node_text(method, source));
    if call.child_by_field_name("receiver").is_some() || !matches!(method, Some("define_method" | "alias_method")) {
        return None;
    }
    let arguments = call.child_by_field_name("arguments")?;
    symbol_name(arguments.named_child(0)?, source)
}

/// `full_name` for `alias full_name name`, `alias :full_name :name` or `alias == eql?` (not a
/// global variable's `alias $new $old`).
fn alias_name(alias: Node, source: &str) -> Option<String> {
    let name = alias.child_by_field_name("name")?;
    let bare = matches!(name.kind(), "identifier" | "constant" | "operator" | "setter");
    let text = if bare { Some(node_text(name, source)) } else { symbol_name(name, source) };
    text.map(str::to_string)
}

/// The name a symbol or a plain string spells: `:to_s`, `"to_s"`, a quoted symbol `:'scan_tag_#'`
/// or `:"x"`. Not a variable's value, nor a string or symbol with interpolation.
fn symbol_name<'s>(node: Node, source: &'s str) -> Option<&'s str> {
    let text = node_text(node, source);
    let plain = || node.named_children(&mut node.walk()).all(|part| part.kind() == "string_content");
    match node.kind() {
        "simple_symbol" => text.strip_prefix(':'),
        "string" if plain() => Some(text.trim_matches(['"', '\''])),
        "delimited_symbol" if plain() => text.strip_prefix(':').map(|quoted| quoted.trim_matches(['"', '\''])),
        _ => None,
    }
}

/// The names an `attr_reader`, `attr_writer` or `attr_accessor` call declares (`id, total`):
/// those written as a symbol or a string (the signature shows the call whole, `*NAMES` too).
fn attributes(call: Node, source: &str) -> Option<String> {
    // `private attr_reader :secret` declares no API, as a private field in other languages.
    let wrapper = call.parent().filter(|list| list.kind() == "argument_list").and_then(|list| list.parent());
    let wrapper_method = wrapper.and_then(|wrapper| wrapper.child_by_field_name("method"));
    if wrapper_method.is_some_and(|method| matches!(node_text(method, source), "private" | "protected")) {
        return None;
    }
    every_attribute(call, source)
}

/// The names an attribute call declares whatever their visibility (see [`attributes`]).
fn every_attribute(call: Node, source: &str) -> Option<String> {
    let method = call.child_by_field_name("method").map(|method| node_text(method, source));
    if call.child_by_field_name("receiver").is_some()
        || !matches!(method, Some("attr_reader" | "attr_writer" | "attr_accessor"))
    {
        return None;
    }
    let arguments = call.child_by_field_name("arguments")?;
    let mut cursor = arguments.walk();
    let names: Vec<&str> =
        arguments.named_children(&mut cursor).filter_map(|argument| symbol_name(argument, source)).collect();
    Some(names.join(", ")).filter(|names| !names.is_empty())
}

/// What a bare `private` applies to: instance methods, attributes, and the methods `alias`,
/// `alias_method` and `define_method` add after it (an alias takes its original's visibility,
/// which the section it is written in usually is).
fn made_private(node: Node, source: &str) -> bool {
    match node.kind() {
        "method" | "alias" => true,
        "call" => attributes(node, source).is_some() || added_method(node, source).is_some(),
        _ => false,
    }
}

/// How deep calls with blocks may nest above a method for the outer call to be listed
/// (`RSpec.describe X do context "y" do def helper … end end end`).
const MAX_BLOCK_NESTING: usize = 16;

/// The body of the block a call is given: a block of methods' (see [`methods_block`]), or a
/// `define_method`'s, whose head then shows the block's parameters, the method's.
fn block_body(call: Node) -> Option<Node> {
    call.child_by_field_name("block")?.child_by_field_name("body")
}

/// The body of the block a call is given, when the block defines a method, itself or in a block
/// nested in it.
fn methods_block(call: Node) -> Option<Node> {
    block_body(call).filter(|body| defines_methods(*body, MAX_BLOCK_NESTING))
}

fn defines_methods(body: Node, nesting: usize) -> bool {
    let mut cursor = body.walk();
    let defines = |statement: Node| match statement.kind() {
        "method" | "singleton_method" => true,
        "call" if nesting > 0 => methods_block_within(statement, nesting - 1),
        // `Rack::Request.class_eval do unless method_defined?(:x) def x … end end end`.
        kind if nesting > 0 && SPEC.transparent.contains(&kind) => defines_methods(statement, nesting - 1),
        _ => false,
    };
    body.named_children(&mut cursor).any(defines)
}

fn methods_block_within(call: Node, nesting: usize) -> bool {
    block_body(call).is_some_and(|body| defines_methods(body, nesting))
}

/// A call as written up to its block: `class_methods`, `RSpec.describe Trackable`.
fn called(call: Node, source: &str) -> Option<String> {
    let end = call.child_by_field_name("block")?.start_byte();
    Some(source.get(call.start_byte()..end)?.trim_end().to_string())
}

fn is_require(node: Node, source: &str) -> bool {
    node.child_by_field_name("receiver").is_none()
        && node
            .child_by_field_name("method")
            .is_some_and(|m| matches!(node_text(m, source), "require" | "require_relative"))
}
