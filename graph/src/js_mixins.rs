//! Objects given another's members at run time, how JavaScript written before classes composes
//! an API: express's `mixin(app, proto, false)` (merge-descriptors), `Object.assign(app, proto)`,
//! `_.extend(target, source)`. A call on the target of a member a mixed-in module of the project
//! defines (`app.handle()` after `mixin(app, proto)` with `proto = require('./application')`) is
//! that module's member: `likely`, since the mixing happens when the code runs.

use lean_ctx_outline::Language;
use lean_ctx_outline::tree_sitter::Node;
use serde::{Deserialize, Serialize};

use crate::enclosers::Enclosers;

/// How deep the tree is walked: far past any real nesting, short of a stack overflow on
/// generated code.
const MAX_DEPTH: usize = 256;

/// The last part of the names of the functions that copy one object's members onto another.
const MIXERS: [&str; 4] = ["mixin", "merge", "assign", "extend"];

/// One call giving an object the members of others.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mixin {
    /// The object given the members, as written (`app`).
    pub target: String,
    /// The objects whose members it is given, as written (`proto`).
    pub sources: Vec<String>,
    /// The definition whose body makes the call (see [`crate::Ref::caller`]): the target is the
    /// name bound there.
    pub caller: Option<u32>,
}

/// The mixins of a JavaScript or TypeScript file whose definitions' lines are `enclosers`.
pub(crate) fn extract(language: Language, root: Node, source: &str, enclosers: &Enclosers) -> Vec<Mixin> {
    if !matches!(language, Language::JavaScript | Language::TypeScript | Language::Tsx) {
        return Vec::new();
    }
    let mut out = Vec::new();
    visit(root, source, enclosers, 0, &mut out);
    out
}

fn visit(node: Node, source: &str, enclosers: &Enclosers, depth: usize, out: &mut Vec<Mixin>) {
    if depth > MAX_DEPTH {
        return;
    }
    if node.kind() == "call_expression"
        && let Some(mixin) = mixin(node, source, enclosers)
    {
        out.push(mixin);
    }
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        visit(child, source, enclosers, depth + 1, out);
    }
}

/// `mixin(app, proto, false)`: the target and the names given to it; `None` for another call.
fn mixin(call: Node, source: &str, enclosers: &Enclosers) -> Option<Mixin> {
    let text = |node: Node| node.utf8_text(source.as_bytes()).ok();
    let function = text(call.child_by_field_name("function")?)?;
    if !MIXERS.contains(&function.rsplit('.').next().unwrap_or(function)) {
        return None;
    }
    let arguments = call.child_by_field_name("arguments")?;
    let mut cursor = arguments.walk();
    let mut names =
        arguments.named_children(&mut cursor).map(|a| (a.kind() == "identifier").then(|| text(a)).flatten());
    let target = names.next()??.to_string();
    let sources: Vec<String> = names.flatten().map(str::to_string).collect();
    let line = call.start_position().row as u32 + 1;
    (!sources.is_empty()).then(|| Mixin { target, sources, caller: enclosers.at(line) })
}
