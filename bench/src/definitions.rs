//! The definitions a file's outline must show, found without tree-sitter: a line scan with
//! brace (or indentation) tracking and the first words of a line, enough to know where item
//! level, type bodies and function bodies are (Java's is a token scan: see [`java`]). A grammar
//! blind spot of the views under test therefore shows up as a miss instead of being counted by
//! the parser that made it.
//!
//! Counted: items at item level (also inside macro calls such as `cfg_net! { … }`, which
//! Universal Ctags does not see), methods of impls, traits, classes and interfaces, and fields
//! that are API (Rust fields with a visibility, Go exported and embedded exported struct fields,
//! TypeScript interface properties and public class fields, Java public and protected fields,
//! interface constants and enum constants); in JavaScript, also what a module
//! wrapped in a function declares (`(function () { … })()`, universal and AMD modules), functions
//! bound with `var`/`let`, the functions a function declares by the dozen (a module factory), and
//! the methods of an object mixed into a type (`_.extend(Model.prototype, { save: function … })`)
//! or bound to a name (`export const api = { get(path) { … } }`).

use std::collections::HashSet;

/// One definition a view should show.
pub struct Expected {
    pub name: String,
    pub line: u32,
    pub in_macro: bool,
    pub field: bool,
}

/// How to find one language's files and their definitions.
pub struct Scanner {
    pub language: &'static str,
    pub extension: &'static str,
    pub scan: fn(&str) -> Vec<Expected>,
}

/// The languages the scan knows, by the name a corpus is given with (`rust=DIR`).
pub fn for_language(name: &str) -> Option<Scanner> {
    let (language, extension, scan): (_, _, fn(&str) -> Vec<Expected>) = match name {
        "rust" => ("rust", ".rs", rust),
        "python" => ("python", ".py", python),
        "typescript" => ("typescript", ".ts", typescript),
        // The TypeScript scan reads JavaScript too: it keys on the same keywords and braces.
        "javascript" => ("javascript", ".js", typescript),
        "go" => ("go", ".go", go),
        "java" => ("java", ".java", java::java),
        // Languages without a grammar here, counted by Universal Ctags.
        "kotlin" => ("kotlin", ".kt", ctags::kotlin),
        "php" => ("php", ".php", ctags::php),
        "lua" => ("lua", ".lua", ctags::lua),
        "perl" => ("perl", ".pm", ctags::perl),
        "shell" => ("shell", ".sh", ctags::shell),
        _ => return None,
    };
    Some(Scanner { language, extension, scan })
}

mod ctags;
mod java;
mod javascript;

/// What a `{` opened.
#[derive(Clone, Copy, PartialEq)]
enum Block {
    /// Holds items: module, impl, trait, extern block, a macro call at item level.
    Items { in_macro: bool },
    /// A struct or interface body: holds fields (and, for interfaces, methods).
    Fields,
    /// `macro_rules!`, a function body (but for JavaScript's [`Block::Body`]), an enum, an
    /// expression: nothing counted inside.
    Opaque,
    /// JavaScript: the body of a function that wraps a module (called at once, a universal
    /// module's factory, an AMD `define`'s): counted as the file's own level.
    Module,
    /// JavaScript: the body of a function declared or bound at the module's level, whose function
    /// declarations count when there are `FACTORY_FUNCTIONS` of them (a module factory).
    Body,
    /// JavaScript: an object of methods mixed into a type or bound to a name at the module's level
    /// (`_.extend(Model.prototype, {`, `var Utils = {`): its function-valued properties count.
    Mixin,
}

/// The code of a line without its `//` comment and the contents of string and char literals,
/// so braces in them are not counted (Rust and Go: a `'` opens a char literal, not a lifetime).
fn code(line: &str) -> String {
    Lexer::default().code(line)
}

/// Reads lines of code in order, keeping what they are inside of from one line to the next.
#[derive(Default)]
struct Lexer {
    /// JavaScript/TypeScript: `'` quotes strings, `/` may start a regular expression, and template
    /// literals span lines (`sql\`INSERT INTO ${\n  table\n}\``) with `${ … }` expressions
    /// whose braces are not blocks.
    js: bool,
    /// Open template literals and, above each, an open `${` expression with the braces inside it.
    open: Vec<Nesting>,
}

#[derive(Clone, Copy)]
enum Nesting {
    Template,
    Expression { braces: usize },
}

impl Lexer {
    fn js() -> Lexer {
        Lexer { js: true, open: Vec::new() }
    }

    fn in_template(&self) -> bool {
        !self.open.is_empty()
    }

    /// The code of `line`: quotes kept, what they hold dropped; template contents dropped.
    fn code(&mut self, line: &str) -> String {
        let chars: Vec<char> = line.chars().collect();
        let mut out = String::new();
        let mut quote: Option<char> = None;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let next = chars.get(i + 1).copied();
            let top = self.open.last().copied();
            match (quote, top) {
                (Some(_), _) if c == '\\' => i += 1,
                (Some(q), _) if c == q => {
                    quote = None;
                    out.push(c);
                }
                (Some(_), _) => {}
                (None, Some(Nesting::Template)) => self.in_template_text(c, next, &mut i, &mut out),
                (None, _) if c == '/' && next == Some('/') && top.is_none() => break,
                // In JavaScript, a comment inside the line (`var A = /** @class */ (function () {`)
                // is dropped, not read as a regular expression. Without its `*/` on the line, the
                // `/*` may be a regular expression's (`/^\/*$/`): read as before.
                (None, _)
                    if self.js
                        && c == '/'
                        && next == Some('*')
                        && top.is_none()
                        && comment_length(&chars[i + 2..]).is_some() =>
                {
                    // To the comment's closing `/` (the loop steps past it).
                    i += 2 + comment_length(&chars[i + 2..]).unwrap_or(0) + 1;
                }
                (None, _) if self.opens_quote(c, &chars, i, &out) => {
                    quote = Some(c);
                    out.push(c);
                }
                (None, _) if self.js && c == '`' => {
                    self.open.push(Nesting::Template);
                    out.push(c);
                }
                (None, Some(Nesting::Expression { braces })) if matches!(c, '{' | '}') => {
                    self.open.pop();
                    match (c, braces) {
                        ('{', _) => self.open.push(Nesting::Expression { braces: braces + 1 }),
                        (_, 0) => {}
                        _ => self.open.push(Nesting::Expression { braces: braces - 1 }),
                    }
                }
                (None, _) => out.push(c),
            }
            i += 1;
        }
        out
    }

    /// One character of a template literal's text: its end, an escape, or a `${` expression.
    fn in_template_text(&mut self, c: char, next: Option<char>, i: &mut usize, out: &mut String) {
        match c {
            '\\' => *i += 1,
            '`' => {
                self.open.pop();
                out.push(c);
            }
            '$' if next == Some('{') => {
                self.open.push(Nesting::Expression { braces: 0 });
                *i += 1;
            }
            _ => {}
        }
    }

    /// Whether `chars[i]` opens a string: `"` always, `` ` `` outside JavaScript (Go's raw
    /// strings on one line); `'` in JavaScript, else a char literal (`'{'`, `'\''`), not a
    /// lifetime (`'a`); in JavaScript a `/` where an expression starts (`split(/`/)`, `= /\[/`).
    fn opens_quote(&self, c: char, chars: &[char], i: usize, out: &str) -> bool {
        match c {
            '"' => true,
            '`' => !self.js,
            '\'' if self.js => true,
            '\'' => chars.get(i + 2) == Some(&'\'') || chars.get(i + 1) == Some(&'\\'),
            '/' if self.js => {
                let before = out.trim_end().chars().next_back();
                before.is_none_or(|b| "(,=:[!&|?{};".contains(b))
            }
            _ => false,
        }
    }
}

/// How many characters of `rest`, the line after a `/*`, the comment holds before its `*/`.
fn comment_length(rest: &[char]) -> Option<usize> {
    rest.windows(2).position(|pair| pair == ['*', '/'])
}

/// Applies a line's braces: a `{` opens the block `next` announced (once; else an opaque one),
/// a `}` closes one, and a `;` ends a declaration that announced a block it did not open.
/// Returns the lowest depth the line reached: the blocks above it were opened on this line.
fn braces(code: &str, stack: &mut Vec<Block>, next: &mut Option<Block>) -> usize {
    let mut lowest = stack.len();
    for c in code.chars() {
        match c {
            '{' => stack.push(next.take().unwrap_or(Block::Opaque)),
            '}' => {
                stack.pop();
                lowest = lowest.min(stack.len());
            }
            ';' => *next = None,
            _ => {}
        }
    }
    lowest
}

/// Whether `line` is (part of) a `/* … */` comment, tracking one that spans lines in `open`.
fn in_block_comment(line: &str, open: &mut bool) -> bool {
    if *open || line.trim_start().starts_with("/*") {
        *open = !line.contains("*/");
        return true;
    }
    false
}

fn identifier(text: &str) -> Option<&str> {
    identifier_of(text, |c| c.is_alphanumeric() || c == '_')
}

/// A JavaScript/TypeScript name, which may hold `$` (`Void$`, `$ref`).
fn js_identifier(text: &str) -> Option<&str> {
    identifier_of(text, |c| c.is_alphanumeric() || c == '_' || c == '$')
}

fn identifier_of(text: &str, part: fn(char) -> bool) -> Option<&str> {
    let end = text.find(|c: char| !part(c)).unwrap_or(text.len());
    (end > 0 && !text.starts_with(|c: char| c.is_ascii_digit())).then(|| &text[..end])
}

/// Words before a Rust item keyword (`extern "C"` is `extern ""` once [`code`] has emptied
/// its string).
const RUST_MODIFIERS: [&str; 6] = ["async", "const", "unsafe", "default", "extern", "\"\""];
const RUST_ITEMS: [&str; 10] = ["fn", "struct", "enum", "trait", "type", "mod", "union", "const", "static", "impl"];

/// `(keyword, name)` of a Rust item line such as `pub(crate) async unsafe fn name<T>(`.
fn rust_item(line: &str) -> Option<(&str, &str)> {
    let mut rest = line.trim_start();
    if let Some(after) = rest.strip_prefix("pub") {
        rest = after.trim_start();
        if rest.starts_with('(') {
            rest = rest.split_once(')')?.1.trim_start();
        }
    }
    loop {
        let (word, after) = rest.split_once(' ')?;
        let after = after.trim_start();
        // `const` is a modifier of `const fn` and an item of its own otherwise.
        let modifier = RUST_MODIFIERS.contains(&word)
            && (word != "const" || after.starts_with("fn ") || after.starts_with("unsafe "));
        if modifier {
            rest = after;
            continue;
        }
        if word == "macro_rules!" {
            return Some(("macro_rules!", identifier(after)?));
        }
        if !RUST_ITEMS.contains(&word) {
            return None;
        }
        return Some((word, if word == "impl" { "" } else { identifier(after)? }));
    }
}

/// `pub name:` or `pub(crate) name:` in a struct body.
fn rust_field(line: &str) -> Option<&str> {
    let mut rest = line.trim_start().strip_prefix("pub")?;
    if rest.starts_with('(') {
        rest = rest.split_once(')')?.1;
    }
    let name = identifier(rest.trim_start())?;
    let after = rest.trim_start()[name.len()..].trim_start();
    (after.starts_with(':') && !after.starts_with("::")).then_some(name)
}

/// `name! {` or `path::name! {` opening a macro call.
fn is_macro_call(code: &str) -> bool {
    let trimmed = code.trim();
    trimmed.split_once('!').is_some_and(|(name, rest)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ':')
            && rest.trim_start().starts_with(['{', '('])
    })
}

pub fn rust(source: &str) -> Vec<Expected> {
    let mut found = Vec::new();
    let mut stack: Vec<Block> = Vec::new();
    // The block the next `{` opens, set by the declaration that precedes it.
    let mut pending: Option<Block> = None;
    let mut comment_open = false;
    for (number, line) in (1..).zip(source.lines()) {
        if in_block_comment(line, &mut comment_open) {
            continue;
        }
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") || trimmed.starts_with('#') {
            continue;
        }
        let code = code(line);
        let context = stack.last().copied().unwrap_or(Block::Items { in_macro: false });
        let in_macro = stack.iter().any(|block| matches!(block, Block::Items { in_macro: true }));
        match context {
            Block::Items { .. } => {
                if let Some((keyword, name)) = rust_item(&code) {
                    if !name.is_empty() && !name.starts_with('$') {
                        found.push(Expected { name: name.to_string(), line: number, in_macro, field: false });
                    }
                    pending = Some(match keyword {
                        "impl" | "trait" | "mod" => Block::Items { in_macro },
                        "struct" | "union" => Block::Fields,
                        _ => Block::Opaque,
                    });
                } else if is_macro_call(&code) {
                    pending = Some(Block::Items { in_macro: true });
                } else if code.trim_start().starts_with("extern ") {
                    pending = Some(Block::Items { in_macro });
                }
            }
            Block::Fields => {
                if let Some(name) = rust_field(&code) {
                    found.push(Expected { name: name.to_string(), line: number, in_macro, field: true });
                }
            }
            Block::Opaque | Block::Module | Block::Body | Block::Mixin => {}
        }
        braces(&code, &mut stack, &mut pending);
    }
    found
}

/// Python: `def`/`class` at module level or directly in a class (nested classes too), and the
/// classes a counted function or method declares with their methods; not a function's other
/// locals. Triple-quoted strings are skipped.
pub fn python(source: &str) -> Vec<Expected> {
    let mut found = Vec::new();
    // (indentation, is a class, is counted) of each enclosing `def` and `class`.
    let mut scopes: Vec<(usize, bool, bool)> = Vec::new();
    let mut open_string: Option<&str> = None;
    let mut depth = 0usize;
    for (number, line) in (1..).zip(source.lines()) {
        let trimmed = line.trim_start();
        if let Some(quote) = open_string {
            if line.matches(quote).count() % 2 == 1 {
                open_string = None;
            }
            continue;
        }
        if let Some(quote) = ["\"\"\"", "'''"].into_iter().find(|q| line.matches(q).count() % 2 == 1) {
            open_string = Some(quote);
        }
        // Lines inside brackets continue a statement (a signature over several lines).
        let continued = depth > 0;
        depth = (depth as isize + python_brackets(line)).max(0) as usize;
        if continued || trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        while scopes.last().is_some_and(|(scope_indent, _, _)| *scope_indent >= indent) {
            scopes.pop();
        }
        let rest = trimmed.strip_prefix("async ").unwrap_or(trimmed);
        let (class, rest) = match (rest.strip_prefix("def "), rest.strip_prefix("class ")) {
            (Some(rest), _) => (false, rest),
            (_, Some(rest)) => (true, rest),
            _ => continue,
        };
        let Some(name) = identifier(rest.trim_start()) else { continue };
        // A method of a counted class counts, and so does a class a counted function (or
        // method) declares; a function's other locals do not.
        let counted = match scopes.last() {
            None => true,
            Some(&(_, in_class, parent_counted)) => parent_counted && (in_class || class),
        };
        if counted {
            found.push(Expected { name: name.to_string(), line: number, in_macro: false, field: false });
        }
        scopes.push((indent, class, counted));
    }
    found
}

/// How much a Python line changes the bracket depth, outside strings and its comment.
fn python_brackets(line: &str) -> isize {
    let (mut change, mut quote) = (0, None);
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(_), '\\') => {
                chars.next();
            }
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') => break,
            (None, '(' | '[' | '{') => change += 1,
            (None, ')' | ']' | '}') => change -= 1,
            _ => {}
        }
    }
    change
}

/// TypeScript and JavaScript: declarations at file level (exported or not), methods of classes
/// and interfaces, and interface properties as fields; and JavaScript's module forms (see
/// [`javascript`]): a module wrapped in a function read as the file's level, functions bound
/// with `var`/`let` or assigned to properties, a module factory's function declarations, and
/// the methods of an object mixed into a type or bound to a name.
pub fn typescript(source: &str) -> Vec<Expected> {
    const KEYWORDS: [&str; 8] = ["function", "function*", "class", "interface", "type", "enum", "const", "namespace"];
    const MODIFIERS: [&str; 5] = ["export", "default", "declare", "abstract", "async"];
    let mut found = Vec::new();
    let mut stack: Vec<Block> = Vec::new();
    let mut pending: Option<Block> = None;
    let mut comment_open = false;
    let mut parens = 0isize;
    let mut squares = 0isize;
    let mut angles = 0isize;
    // The last line of code ended with a type operator (`&`, `|`): the next one continues it.
    let mut operand_pending = false;
    let mut lexer = Lexer::js();
    let mut bodies: Vec<Body> = Vec::new();
    let mut modules: Vec<Module> = Vec::new();
    let mut amd_pending = false;
    // The functions and classes declared at the module's level, and the data given to a name
    // there (`Emitter.VERSION = '2.0.0'`), which counts once the name is known to be one of them.
    let mut owners: HashSet<String> = HashSet::new();
    let mut statics: Vec<(String, Expected)> = Vec::new();
    let lines: Vec<&str> = source.lines().collect();
    for (number, line) in (1..).zip(lines.iter().copied()) {
        if !lexer.in_template() && in_block_comment(line, &mut comment_open) {
            continue;
        }
        let expected = |name: &str| Expected { name: name.to_string(), line: number, in_macro: false, field: false };
        // A declaration at its level's indentation (unindented at file level, a wrapped module's
        // own indentation inside it) starts afresh: a bracket a line left open by a guess (a
        // comparison's `<` ending a line) does not reach past it.
        let indent = line.len() - line.trim_start().len();
        let at_level_indent = match modules.last_mut().filter(|module| module.depth == stack.len()) {
            Some(module) => {
                if module.indent.is_none() && !line.trim().is_empty() {
                    module.indent = Some(indent);
                }
                module.indent.is_none_or(|own| indent <= own)
            }
            None => indent == 0,
        };
        let first = line.split_whitespace().next().unwrap_or("");
        let declares = at_level_indent && (KEYWORDS.contains(&first) || MODIFIERS.contains(&first));
        if declares && !lexer.in_template() {
            (parens, squares, angles) = (0, 0, 0);
        }
        let code = lexer.code(line);
        // Lines inside parentheses continue a signature (one parameter a line), lines inside
        // square brackets a tuple type (`compile: () => readonly [\n  sql: string,\n]`), and
        // lines inside a type's angle brackets a type written over lines (`listener: Typed<\n
        // ReturnType<…>,\n>`): the names there are references or labels, not members. So are the
        // lines after a type operator (`startListening: Overloads<…> &\n  Typed<…>`) or an arrow
        // (`middleware: (gDM) =>\n  gDM().prepend(…)`: the arrow's body, not a method).
        let continued = parens > 0 || squares > 0 || angles > 0 || (operand_pending && !declares);
        if !code.trim().is_empty() {
            operand_pending = code.trim_end().ends_with(['&', '|']) || code.trim_end().ends_with("=>");
        }
        parens = (parens + code.matches('(').count() as isize - code.matches(')').count() as isize).max(0);
        squares = (squares + code.matches('[').count() as isize - code.matches(']').count() as isize).max(0);
        angles = (angles + type_angles(&code)).max(0);
        let context = stack.last().copied().unwrap_or(Block::Items { in_macro: false });
        // The file's own level, or a wrapped module's (whose body may be indented or not); a
        // statement there starts unindented at file level, anywhere in a wrapped module.
        let module_level = stack.iter().all(|block| *block == Block::Module);
        let starts_statement = module_level && !continued && (indent == 0 || !stack.is_empty());
        // An AMD module's dependencies may take lines before its function: `define( [\n "./core",
        // \n], function( jQuery ) {`.
        let amd_function = amd_pending && code.contains("function") && javascript::opens_block(&code);
        // A class compiled to ES5 (`var Subscriber = (function (_super) {`) is read as a module
        // whose functions are the file's, kept when it declares a function of the bound name; so
        // is a module that returns its API (`var Cart = (function () {`), whose name counts too.
        let after = lines.get(number as usize..).unwrap_or_default();
        let called = starts_statement.then(|| javascript::binds_called_function(&code)).flatten();
        let compiled_class = called.filter(|(name, wrapped)| javascript::compiled_class(after, indent, name, *wrapped));
        let revealing = called.filter(|(_, wrapped)| javascript::revealing_module(&code, after, indent, *wrapped));
        let bound_module = compiled_class.or(revealing).map(|(name, _)| name);
        if let (None, Some((name, _))) = (compiled_class, revealing) {
            found.push(expected(name));
        }
        let wraps_module =
            amd_function || bound_module.is_some() || (starts_statement && javascript::opens_module(&code));
        amd_pending = !wraps_module
            && parens > 0
            && (amd_pending || (starts_statement && code.trim_start().starts_with("define(")));
        let mixes_in = starts_statement && javascript::opens_mixin(&code, after, indent);
        if wraps_module || mixes_in {
            // The call's parentheses stay open to the block's end; its lines are not inside a
            // signature.
            (parens, squares, angles) = (0, 0, 0);
        }
        if context == Block::Mixin
            && !continued
            && let Some(name) = javascript::mixin_member(line)
        {
            found.push(expected(name));
        }
        // One level deep, as the views list them: a component's `methods: {`, not its props'
        // `size: {` inside `props: {`.
        let nested = stack.len() >= 2 && stack[stack.len() - 2] == Block::Mixin;
        if context == Block::Mixin && !nested && !continued && javascript::opens_nested_object(&code) {
            pending = Some(Block::Mixin);
        }
        if context == Block::Body
            && let Some(body) = bodies.last_mut().filter(|body| body.depth == stack.len())
            && let Some(name) = javascript::declared_function(&code)
        {
            body.declared.push(expected(name));
        }
        // A function bound to a name: counted when its body closes (or on this line, if it has
        // no body here), unless it is called where it closes.
        let mut bound: Option<(Option<Expected>, &str)> = None;
        if starts_statement && let Some((name, value)) = javascript::assigned_function(&code) {
            bound = Some((Some(expected(name)), value));
        }
        // What a module that returns its API assigns is its own (the views list it as the
        // module's members), not its functions' static properties.
        let revealed = modules.iter().any(|module| module.revealing);
        if starts_statement
            && !revealed
            && let Some((owner, property)) = javascript::static_property(&code)
        {
            statics.push((owner.to_string(), expected(property)));
        }
        if starts_statement && let Some(name) = javascript::exported_name(&code) {
            found.push(expected(name));
        }
        let mut words = code.split_whitespace().skip_while(|word| MODIFIERS.contains(word) || continued);
        match (context, module_level, words.next()) {
            (_, true, Some(keyword)) if KEYWORDS.contains(&keyword) && starts_statement && bound_module.is_none() => {
                // A generator may be written `function *gen()`.
                let name = words.next().and_then(|word| js_identifier(word.trim_start_matches('*')));
                // `const fs = require("fs")` is an import, which the views show as one.
                let value =
                    code.split_once(" = ").map(|(_, value)| value).filter(|value| javascript::function_value(value));
                if let Some(name) = name.filter(|_| !javascript::requires(&code)) {
                    found.push(expected(name));
                    if matches!(keyword, "function" | "function*" | "class") || value.is_some() {
                        owners.insert(name.to_string());
                    }
                }
                pending = Some(match keyword {
                    "class" | "interface" => Block::Fields,
                    "namespace" => Block::Items { in_macro: false },
                    // An anonymous function (`export default function () {`) has no name to look for (the
                    // views list it as `default`); its body is not scanned as a definition.
                    "function" | "function*" if name.is_some() => Block::Body,
                    _ => Block::Opaque,
                });
                if let Some(value) = value {
                    bound = Some((None, value));
                }
            }
            (_, true, Some("var" | "let")) if starts_statement && bound_module.is_none() => {
                if let Some((name, value)) = javascript::bound_function(&code) {
                    owners.insert(name.to_string());
                    bound = Some((Some(expected(name)), value));
                }
            }
            (Block::Fields, false, Some(first)) => {
                let member = if ["readonly", "public", "static"].contains(&first) { words.next() } else { Some(first) };
                if let Some(name) = member.and_then(js_identifier) {
                    let after = member.unwrap_or("")[name.len()..].trim_start_matches('?');
                    let field = after.starts_with(':');
                    let method = after.starts_with('(') || after.starts_with('<');
                    let private = ["private", "protected", "constructor", "get", "set"].contains(&first);
                    if (field || method) && !private {
                        found.push(Expected { name: name.to_string(), line: number, in_macro: false, field });
                    }
                    pending = Some(Block::Opaque);
                }
            }
            _ => {}
        }
        // A bound function's body is announced when it has one to come: a `function` (whose
        // parameters may take lines) or an arrow whose `{` is on this line.
        if let Some((_, value)) = bound
            && (javascript::starts_with_word(value.trim_start_matches('('), &["function", "async function"])
                || javascript::opens_block(&code))
        {
            pending = Some(Block::Body);
        }
        let lowest = braces(&code, &mut stack, &mut pending);
        // Blocks closed on this line. A wrapper that passes a function on as it closes (`}(this,
        // function () {`) was a universal module's glue: what it declared is not the module's.
        let passes_factory = wraps_module && code.trim_start().starts_with('}');
        while let Some(module) = modules.pop_if(|module| module.depth > lowest) {
            if passes_factory {
                found.truncate(module.found);
            }
        }
        let called = code.trim_start().strip_prefix('}').is_some_and(javascript::calls_after);
        while let Some(body) = bodies.pop_if(|body| body.depth > lowest) {
            if !called {
                found.extend(body.bound);
                if body.declared.len() >= javascript::FACTORY_FUNCTIONS {
                    found.extend(body.declared);
                }
            }
        }
        // The first block the line opened (a leading `;` would have cancelled an announcement).
        if let Some(block) = stack.get_mut(lowest) {
            if wraps_module {
                *block = Block::Module;
                let revealing = compiled_class.is_none() && revealing.is_some();
                modules.push(Module { depth: lowest + 1, found: found.len(), indent: None, revealing });
            } else if mixes_in {
                *block = Block::Mixin;
            }
        }
        let bound = bound.and_then(|(name, _)| name);
        if stack.get(lowest) == Some(&Block::Body) {
            bodies.push(Body { depth: lowest + 1, bound, declared: Vec::new() });
        } else {
            // A function written whole on this line.
            found.extend(bound.filter(|_| !javascript::called_on_its_line(&code)));
        }
    }
    found.extend(statics.into_iter().filter(|(owner, _)| owners.contains(owner)).map(|(_, property)| property));
    found
}

/// A JavaScript function body opened at the module's level.
struct Body {
    /// The stack depth of the lines directly inside it.
    depth: usize,
    /// The name a `var`, `let` or assignment binds the function to, counted when the body
    /// closes unless it is called there.
    bound: Option<Expected>,
    /// The functions it declares at its own level.
    declared: Vec<Expected>,
}

/// A JavaScript module wrapped in a function, being read.
struct Module {
    /// The stack depth of the lines directly inside it.
    depth: usize,
    /// How many definitions had been found when it opened.
    found: usize,
    /// The indentation of its first line, its statements' own.
    indent: Option<usize>,
    /// A module bound to a name that returns its API (see `javascript::revealing_module`).
    revealing: bool,
}

/// How many type argument lists a line of TypeScript opens, less those it closes: a `<` right
/// after a name (`Record<`) or ending the line (a generic function's parameters written one a
/// line: `export const group = <`), a `>` that is not part of `=>`, `>=` or a spaced comparison
/// (`a > b`; a `>` that starts a line, `  > {`, closes), so an expression in an initializer
/// does not count.
fn type_angles(code: &str) -> isize {
    let chars: Vec<char> = code.chars().collect();
    let mut depth = 0isize;
    for (i, &c) in chars.iter().enumerate() {
        let before = i.checked_sub(1).map(|j| chars[j]);
        let after = chars.get(i + 1).copied();
        let starts_line = chars[..i].iter().all(|c| c.is_whitespace());
        let compares = before == Some(' ') && after == Some(' ') && !starts_line;
        match c {
            '<' if before.is_some_and(|b| b.is_alphanumeric() || b == '_' || b == '$') => depth += 1,
            '<' if chars[i + 1..].iter().all(|c| c.is_whitespace()) => depth += 1,
            '>' if before != Some('=') && after != Some('=') && !compares => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// Go: functions, methods and types at file level, exported struct fields (also embedded
/// ones) and exported interface methods.
pub fn go(source: &str) -> Vec<Expected> {
    let mut found = Vec::new();
    let mut stack: Vec<Block> = Vec::new();
    let mut in_type_group = false;
    let mut comment_open = false;
    let exported = |name: &str| name.starts_with(|c: char| c.is_uppercase());
    for (number, line) in (1..).zip(source.lines()) {
        if in_block_comment(line, &mut comment_open) {
            continue;
        }
        let trimmed = line.trim_start();
        let code = code(line);
        let words: Vec<&str> = code.split_whitespace().collect();
        let mut opens = None;
        let type_spec = |words: &[&str]| -> Option<Block> {
            Some(match *words.get(1)? {
                "struct" | "struct{" | "struct{}" => Block::Fields,
                "interface" | "interface{" | "interface{}" => Block::Fields,
                _ => Block::Opaque,
            })
        };
        let mut push = |name: &str, field: bool| {
            found.push(Expected { name: name.to_string(), line: number, in_macro: false, field });
        };
        match (stack.last(), words.first().copied()) {
            (None, Some("func")) => {
                let after = if code.starts_with("func (") {
                    code.split_once(')').map_or("", |(_, rest)| rest)
                } else {
                    &code[4..]
                };
                if let Some(name) = identifier(after.trim_start()) {
                    push(name, false);
                }
            }
            (None, Some("type")) if words.get(1) == Some(&"(") => in_type_group = true,
            (None, Some("type")) => {
                if let Some(name) = words.get(1).and_then(|w| identifier(w)) {
                    push(name, false);
                    opens = type_spec(&words[1..]);
                }
            }
            (None, Some(")")) => in_type_group = false,
            (None, Some(first)) if in_type_group && trimmed.len() < line.len() => {
                if let Some(name) = identifier(first) {
                    push(name, false);
                    opens = type_spec(&words);
                }
            }
            (Some(Block::Fields), Some(first)) if stack.len() == 1 => {
                if first.ends_with(')') || first.contains('(') {
                    // An interface method: `Name(args) result`.
                    if let Some(name) = identifier(first).filter(|name| exported(name)) {
                        push(name, false);
                    }
                } else if words.len() == 1 || words.get(1).is_some_and(|w| w.starts_with('`')) {
                    // An embedded type: `*sync.Mutex`, `io.Reader`.
                    let name = first.trim_start_matches('*').rsplit('.').next().unwrap_or("");
                    if let Some(name) = identifier(name).filter(|name| exported(name)) {
                        push(name, true);
                    }
                } else {
                    let names = code.split_whitespace().take_while(|w| w.ends_with(',')).count() + 1;
                    for word in words.iter().take(names) {
                        if let Some(name) = identifier(word.trim_end_matches(',')).filter(|name| exported(name)) {
                            push(name, true);
                        }
                    }
                }
            }
            _ => {}
        }
        braces(&code, &mut stack, &mut opens);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(found: &[Expected]) -> Vec<&str> {
        found.iter().map(|expected| expected.name.as_str()).collect()
    }

    #[test]
    fn java_types_members_and_api_fields_are_definitions() {
        let source = "package a.b;\nimport java.util.Map;\n\n/** A {@code Cache}; not a class Hidden { */\n\
                      @SuppressWarnings({\"unchecked\", \"rawtypes\"})\npublic class Cache<K, V extends Comparable<? super V>>\n    \
                      extends Base<K> implements Map<K, V> {\n    public static final int MIN = 0, MAX = 9;\n    \
                      protected transient int modCount;\n    private int size;\n    int packagePrivate = 1;\n    \
                      public Map<K, V> left, right;\n    static {\n        class Local {}\n    }\n    \
                      public Cache(int capacity) {\n        this.size = capacity;\n    }\n    @Override\n    \
                      public <T> T[] toArray(T[] a) {\n        return new Runnable() { public void run() {} };\n    }\n    \
                      private static <K, V extends Comparable<? super V>> Comparator<Map.Entry<K, V>>\n        \
                      comparingByValue(\n            int a,\n            int b) throws IOException, Error {\n    }\n    \
                      abstract void pending();\n    static final class Node<K> {\n        public K key;\n        \
                      Node<K> next() { return null; }\n    }\n}\n";
        let expected = [
            "Cache",
            "MIN",
            "MAX",
            "modCount",
            "left",
            "right",
            "Cache",
            "toArray",
            "comparingByValue",
            "pending",
            "Node",
            "key",
            "next",
        ];
        assert_eq!(names(&java::java(source)), expected);
        let lines: Vec<u32> = java::java(source).iter().map(|expected| expected.line).collect();
        // A name's own line, not its annotations' or its type's.
        assert_eq!(lines, [6, 8, 8, 9, 12, 12, 16, 20, 24, 28, 29, 30, 31]);
        let fields: Vec<bool> = java::java(source).iter().map(|expected| expected.field).collect();
        assert_eq!(fields.iter().filter(|field| **field).count(), 6);
    }

    #[test]
    fn java_interfaces_enums_records_and_annotation_types_are_read() {
        let source = "public interface Shape {\n    double PI = 3.14;\n    double area();\n    \
                      default String describe() { return \"}\"; }\n    enum Unit { CM, @Deprecated INCH(2.54) {\n        \
                      double scale() { return 1; }\n    },\n    MM;\n        private final double f;\n        \
                      Unit() {}\n        public double factor() { return f; }\n    }\n    \
                      record Point(int x, int record) implements Shape {\n        public Point {\n        }\n        \
                      public double area() { return 0; }\n    }\n    enum Empty { A, B }\n}\n\
                      @Retention(RetentionPolicy.RUNTIME)\n@interface Tag {\n    String value() default \"\";\n    \
                      Class<?>[] groups() default {};\n    int LIMIT = 3;\n}\n";
        let expected = [
            "Shape", "PI", "area", "describe", "Unit", "CM", "INCH", "MM", "Unit", "factor", "Point", "Point", "area",
            "Empty", "A", "B", "Tag", "value", "groups", "LIMIT",
        ];
        assert_eq!(names(&java::java(source)), expected);
    }

    #[test]
    fn java_comments_strings_and_text_blocks_hold_no_definitions() {
        let source = "class Doc {\n    /* a block comment\n       public void commented() {\n    */\n    \
                      String s = \"class Fake { void f() {\";\n    char open = '{', quote = '\\'';\n    \
                      String block = \"\"\"\n        public void inText() {\n        \\\"\"\" still text {\n        \"\"\";\n    \
                      public static final Map<String, Integer> TABLE = new HashMap<String, Integer>(), \
                      OTHER = make(1, 2);\n    /* inline */ public void after() { /* { */ }\n    // void lineComment() {\n}\n";
        assert_eq!(names(&java::java(source)), ["Doc", "TABLE", "OTHER", "after"]);
    }

    #[test]
    fn java_initializers_and_method_bodies_declare_nothing() {
        let source = "class Holder {\n    public static final Comparator<String> ORDER = new Comparator<>() {\n        \
                      public int compare(String a, String b) { return 0; }\n    };\n    \
                      public static final Runnable TASK = () -> {\n        int local = 1;\n    };\n    \
                      public static final int[] TABLE = { 1, 2, 3 }, MORE = {};\n    void run() {\n        \
                      record Pair(int a, int b) {}\n        new Thread() { public void start() {} };\n    }\n}\n";
        assert_eq!(names(&java::java(source)), ["Holder", "ORDER", "TASK", "TABLE", "MORE", "run"]);
    }

    #[test]
    fn a_python_class_built_in_a_function_counts_and_its_helpers_do_not() {
        let source = "def make(base):\n    def helper():\n        class Hidden:\n            pass\n    \
                      class Handler(base):\n        def get(self):\n            def encode():\n                \
                      pass\n\nclass Service:\n    def fake(self):\n        class Fake:\n            \
                      def flush(self):\n                pass\n";
        assert_eq!(names(&python(source)), ["make", "Handler", "get", "Service", "fake", "Fake", "flush"]);
    }

    #[test]
    fn a_field_type_over_several_lines_holds_no_members() {
        let source = "export interface ListenerApi<S> {\n  startListening: TypedStartListening<\n    \
                      ReturnType<S>,\n    NonFunctionGuard<S>\n  >\n  stop(): void\n  \
                      check: (a: number) => boolean\n  ready?: Promise<Map<string, S>>\n}\n";
        assert_eq!(names(&typescript(source)), ["ListenerApi", "startListening", "stop", "check", "ready"]);
        // A list of parents written over lines closes with a `>` that starts its line.
        let source = "export interface Options<\n  TData,\n> extends WithRequired<\n    Base<TData>,\n    \
                      'queryKey'\n  > {\n  enabled?: boolean\n}\n";
        assert_eq!(names(&typescript(source)), ["Options", "enabled"]);
    }

    #[test]
    fn a_comparison_in_an_initializer_opens_nothing() {
        let source = "export class Pager {\n  small = count < limit\n  pageSize: number\n  \
                      large = count > limit\n  next(): void {}\n}\n";
        assert_eq!(names(&typescript(source)), ["Pager", "pageSize", "next"]);
    }

    #[test]
    fn type_parameters_written_one_a_line_declare_nothing() {
        // TypeScript 5's `const` type parameters are not constants.
        let source = "export const group = <\n  Groups extends Any,\n  const Name extends string,\n  Return\n>(\n  \
                      api: Api<Groups>,\n  name: Name\n): Return => run(api, name)\nexport const after = 1\n";
        assert_eq!(names(&typescript(source)), ["group", "after"]);
    }

    #[test]
    fn functions_assigned_to_properties_are_definitions() {
        let source = "res.send = function send(body) {\n  x.y = function () {};\n};\nexports.parse = (s) => s;\n\
                      Router.prototype.route = function (path) {}\nlet z = a.b = 1;\nmodule.exports = app;\n";
        assert_eq!(names(&typescript(source)), ["send", "parse", "route"]);
    }

    #[test]
    fn data_given_to_the_files_functions_and_names_exported_count() {
        // A function's data counts wherever the function is declared; an object's, a global's,
        // and what a function does inside do not.
        let source = "Emitter.VERSION = '2.0.0';\nfunction Emitter(obj) {\n  Emitter.count = 0;\n}\n\
                      class Listener {}\nListener.defaults = {\n  once: false\n};\nvar registry = {};\n\
                      registry.count = 0;\nwindow.last = null;\nmodule.exports = Emitter;\n\
                      module.exports.default = Emitter;\nexports.default = void 0;\n";
        assert_eq!(names(&typescript(source)), ["Emitter", "Listener", "default", "VERSION", "defaults"]);
        // Inside a module that returns its API, what it assigns is the module's.
        let source = "var Cart = (function () {\n  function add(item) {}\n  add.limit = 10;\n  \
                      return { add: add };\n})();\n";
        assert_eq!(names(&typescript(source)), ["Cart", "add"]);
    }

    #[test]
    fn a_module_wrapped_in_a_function_is_read_as_the_file() {
        // A universal module's factory, and the glue around it.
        let source = ";(function (global, factory) {\n  module.exports = factory()\n}(this, (function () { 'use strict';\n\
                      function hooks() {}\n  var local = function (a) {\n    return a;\n  };\n\
                      Moment.prototype.format = function format(p) {};\n})));\n";
        assert_eq!(names(&typescript(source)), ["hooks", "local", "format"]);
        // An AMD module whose dependencies take lines; a function called inside an expression is
        // no module, and `module.exports = functions` assigns no function.
        let source = "define( [\n\t\"./core\"\n], function( jQuery ) {\nfunction adopt( v ) {\n}\n} );\n\
                      export default ok ?\n  (function standardEnv() {\n    const inner = 1;\n  })() : 2;\n\
                      module.exports = functions;\n";
        assert_eq!(names(&typescript(source)), ["adopt"]);
    }

    #[test]
    fn a_function_declaring_functions_by_the_dozen_is_a_module_factory() {
        let declared: String =
            (0..10).map(|i| format!("  function f{i}() {{\n    function inner{i}() {{}}\n  }}\n")).collect();
        let source = format!(
            "var make = (function make(context) {{\n{declared}  return f0;\n}});\n\
                              function few() {{\n  function helper() {{}}\n}}\n\
                              var made = (function () {{\n  function g() {{}}\n}}());\n"
        );
        // A bound function counts when its body closes, uncalled; a factory's functions with it.
        let expected: Vec<String> =
            std::iter::once("make".to_string()).chain((0..10).map(|i| format!("f{i}"))).chain(["few".into()]).collect();
        assert_eq!(names(&typescript(&source)), expected);
    }

    #[test]
    fn imports_and_expressions_at_file_level_declare_nothing() {
        // A `require` binding is an import; a function written as an arrow's value, and the
        // type parameters of a function returned by a function, are expressions, however indented.
        let source = "const fs = require('node:fs')\nexport const build = (m: M): Get<M> =>\n  \
                      function get(options) {\n    return m\n  }\nexport const Tag = <Self>(): <\n  \
                      const Name extends string,\n  const Options extends {\n    readonly optional?: boolean\n  \
                      }\n>() => Self\n";
        assert_eq!(names(&typescript(source)), ["build", "Tag"]);
    }

    /// `count` one-line function declarations named `prefix0…`, indented for a body.
    fn declarations(prefix: &str, count: usize) -> String {
        (0..count).map(|i| format!("  function {prefix}{i}() {{}}\n")).collect()
    }

    #[test]
    fn a_function_called_where_it_closes_binds_no_function_and_is_no_factory() {
        let ten = declarations("r", 10);
        let source = format!(
            "var Mod = (function () {{\n{ten}}})();\nvar Alt = (function () {{\n{ten}}}).call(this);\n\
             var a = (function () {{ return 1; }})();\nvar c = (() => 1)();\n\
             let result = items.map((x) => x * 2);\nvar server = http.createServer((req, res) => {{\n}});\n"
        );
        assert!(typescript(&source).is_empty(), "{:?}", names(&typescript(&source)));
    }

    #[test]
    fn factories_bound_by_const_or_assigned_count_their_functions() {
        let ten = declarations("f", 10);
        let source = format!("const make = function () {{\n{ten}}};\nmodule.exports = function (app) {{\n{ten}}};\n");
        let found = names(&typescript(&source)).len();
        assert_eq!(found, 1 + 10 + 1 + 10, "{:?}", names(&typescript(&source)));
    }

    #[test]
    fn a_universal_wrapper_s_own_functions_are_glue() {
        let source = "(function (global, factory) {\n  function noConflict() {}\n  module.exports = factory();\n\
                      }(this, function () {\n  function hooks() {}\n}));\n(async () => {\n  function main() {}\n})();\n";
        assert_eq!(names(&typescript(source)), ["hooks", "main"]);
    }

    #[test]
    fn an_amd_call_without_its_function_opens_no_module() {
        let source = "define(['dep'], factory);\nfunction factory(dep) {\n  function helper() {}\n}\n";
        assert_eq!(names(&typescript(source)), ["factory"]);
    }

    #[test]
    fn a_wrapped_module_s_declarations_close_a_bracket_left_open() {
        let source = ";(function () {\n  var big = a <\n    b;\n  function after() {}\n  function later() {}\n}());\n";
        assert_eq!(names(&typescript(source)), ["after", "later"]);
    }

    #[test]
    fn only_a_named_function_s_body_is_read_for_a_factory() {
        let ten = declarations("g", 10);
        let source = format!("let f = (a) => a + 1\nif (x) {{\n{ten}}}\nexport default function () {{\n{ten}}}\n");
        assert_eq!(names(&typescript(&source)), ["f"]);
    }

    #[test]
    fn methods_mixed_into_a_prototype_are_definitions() {
        let source = "_.extend(Model.prototype, Events, {\n  idAttribute: 'id',\n  toJSON: function(options) {\n    \
                      return { nested: function() {} };\n  },\n  'get': function(attr) {},\n  set(key) {\n  },\n  \
                      fetch: async (options) => {\n  }\n});\nObject.assign(Store.prototype, { save: function() {} });\n\
                      jQuery.fn.extend( {\n\tcss: function( name ) {\n\t}\n} );\n\
                      Store.fn = Store.prototype = {\n  constructor: Store,\n  clear() {}\n};\n\
                      module.exports = {\n  parse(text) {\n  },\n  VERSION: '1'\n};\n";
        assert_eq!(names(&typescript(source)), ["toJSON", "get", "set", "fetch", "css", "clear", "parse"]);
    }

    #[test]
    fn a_default_export_of_methods_and_the_objects_it_nests_are_definitions() {
        let source = "export default {\n  name: 'Modal',\n  props: {\n    size: {\n      type: String,\n      \
                      default() {\n      },\n    },\n  },\n  data() {\n  },\n  'computed': {\n    label() {\n    \
                      },\n  },\n  methods: {\n    close: function () {\n      return { later() {} };\n    },\n  \
                      },\n  items: [\n    { render() {} },\n  ],\n};\nexport default {\n  name: 'plain',\n};\n\
                      export const useCart = defineStore('cart', {\n  actions: {\n    add(item) {\n    },\n  },\n});\n\
                      export default defineComponent({\n  setup(props) {\n  },\n});\nconst routes = createRouter({\n\
                      \x20 routes: [],\n  middleware: (gDM) =>\n    gDM().concat(logger),\n});\n\
                      export const useBear = create((set) => ({\n  reset() {},\n}));\n\
                      export default connect(mapState, {\n  onClick: () => 1,\n})(Button);\n\
                      export const useStore = defineStore('s', {\n  add() {},\n}).with(plugin);\n\
                      const isJson = (h) =>\n  /* json */ /json/.test(h)\n\nexport type Err = { a: 1 }\n";
        let expected = [
            "data",
            "label",
            "close",
            "useCart",
            "add",
            "setup",
            "routes",
            "middleware",
            "useBear",
            "useStore",
            "isJson",
            "Err",
        ];
        assert_eq!(names(&typescript(source)), expected);
    }

    #[test]
    fn objects_of_methods_given_to_new_or_registered_are_definitions() {
        let source = "export default new Vuex.Store({\n  mutations: {\n    add(state) {\n    },\n  },\n});\n\
                      const bus = new Vue({\n  notify(m) {\n  },\n});\n\
                      Vue.component('todo-item', {\n  methods: {\n    toggle() {\n    },\n  },\n});\n\
                      Vue.directive('autofocus', {\n  inserted(el) {\n  },\n});\n\
                      new Vue({\n  render: h => h(App),\n});\n\
                      new Vue({\n  created() {},\n}).$mount('#app');\n\
                      new Vue({\n  mounted() {},\n}).$mount('#app').$on('ready', f);\n\
                      new Widget({\n  draw() {},\n})(el);\n\
                      const app = new Vue({\n  stop() {},\n}).$mount('#app');\n\
                      new Vue({\n  paint() {},\n}).$mount('#app'), start();\n\
                      new Plugin(options);\n\
                      Vue.directive('color', function (el, binding) {\n  if (binding.value) {\n  }\n  update(el);\n});\n\
                      new Proxy(target, {\n  get(obj, key) {},\n});\n\
                      const watched = new Proxy({}, {\n  set(obj, key) {},\n});\n";
        let expected =
            ["add", "bus", "notify", "toggle", "inserted", "render", "created", "mounted", "app", "stop", "watched"];
        assert_eq!(names(&typescript(source)), expected);
    }

    #[test]
    fn a_module_returning_its_api_is_read_as_a_module() {
        let source = "var Cart = (function () {\n  var items = [];\n  function add(sku) {\n    items.push(sku);\n  }\n  \
                      // API\n  return {\n    add: add\n  };\n})();\n\
                      const Log = (() => {\n  function log(m) {}\n  return { log };\n})();\n\
                      var now = (function () {\n  function twice(x) {}\n  return Date.now();\n})();\n\
                      var Codec = (function () {\n  var Codec = {\n    encode: function (s) {},\n  };\n  return Codec;\n})();\n\
                      var Store = (function () {\n  var read = function (k) {};\n  var api = {};\n  \
                      api.set = function (k, v) {};\n  return api;\n})();\n\
                      var Vue = (function (exports) {\n  function h(tag) {}\n  return exports;\n})({});\n\
                      var here = (function () {\n  var at = location;\n  return at;\n})();\n\
                      var lone = (function () {\n  function inner(c) {}\n  return lone;\n})();\n\
                      const theme = (() => {\n  function px(n) {}\n  return { small: px(1) };\n})();\n\
                      const ready = (async () => {\n  function wait(ms) {}\n  return { wait };\n})();\n\
                      var Env = (function () {\n  var isNode = (function () {\n    return true;\n  })();\n  \
                      return { isNode: isNode };\n})();\n\
                      var clock = (function () {\n  function perfNow() {}\n  function dateNow() {}\n  \
                      return { now: hasPerf ? perfNow : dateNow };\n})();\n\
                      const sizes = (() => {\n  function base() {}\n  return {\n    small: Math.max(\n      \
                      round(base),\n      2\n    ),\n  };\n})();\n\
                      var gen = (function* () {\n  function step() {}\n  return { step: step };\n})();\n\
                      const config = (() => {\n  function env(k) {}\n  const config = {\n    port: env(''),\n  \
                      };\n  return config;\n})();\n";
        // Rollup's `(function (exports) { … })({})` is left to the outline: the scan cannot see
        // what the call is given for the parameter.
        let expected = [
            "Cart", "add", "Log", "log", "Codec", "encode", "Store", "read", "set", "theme", "ready", "sizes", "config",
        ];
        assert_eq!(names(&typescript(source)), expected);
    }

    #[test]
    fn a_class_compiled_to_es5_is_read_as_a_module() {
        let source = "var Subscriber = /** @class */ (function (_super) {\n    __extends(Subscriber, _super);\n    \
                      function Subscriber(destination) {\n    }\n    Subscriber.prototype.next = function (value) {\n    \
                      };\n    return Subscriber;\n}(Subscription));\nexport { Subscriber };\n\
                      var baseCreate = (function () {\n  function object() {}\n  return function (proto) {\n  };\n}());\n";
        assert_eq!(names(&typescript(source)), ["Subscriber", "next"]);
    }

    #[test]
    fn a_regular_expression_holding_a_comment_opener_keeps_the_line() {
        let source = "function check(p) { return /^\\/*$/.test(p) ? {a:1} : null; }\nexport function after() {}\n\
                      var Layout = {\n  area: base\n    * scale(2),\n};\n";
        assert_eq!(names(&typescript(source)), ["check", "after"]);
    }

    #[test]
    fn generators_and_accessors_are_definitions() {
        let source = "function *gen() {\n}\nexport const o = {\n  get size() {\n  },\n  set size(v) {\n  },\n  \
                      *items() {\n  },\n  async *more() {\n  },\n  getter() {\n  },\n};\n";
        assert_eq!(names(&typescript(source)), ["gen", "o", "size", "size", "items", "more", "getter"]);
    }

    #[test]
    fn methods_of_an_object_bound_to_a_name_are_definitions() {
        let source = "export const api = {\n  get(path) {\n  },\n  post: (path, body) => {\n  },\n  base: '/'\n};\n\
                      const Filtering: Feature<any> = {\n  createColumn: <T>(column: T): void => {\n  },\n};\n\
                      var Utils = {\n  trim: function (s) {\n    return { inner: function () {} };\n  }\n};\n\
                      const data = {\n  a: 1,\n};\nfunction f() {\n  const local = {\n    helper() {}\n  };\n}\n";
        assert_eq!(
            names(&typescript(source)),
            ["api", "get", "post", "Filtering", "createColumn", "trim", "data", "f"]
        );
    }

    #[test]
    fn a_type_continued_after_an_operator_names_no_member() {
        let source = "export interface Instance {\n  start: Overloads<\n    State\n  > &\n    Typed<State>\n  \
                      stop: Remove<State> |\n    Other<State>\n  clear: () => void\n}\n";
        assert_eq!(names(&typescript(source)), ["Instance", "start", "stop", "clear"]);
    }

    #[test]
    fn a_typescript_name_may_hold_a_dollar() {
        let source = "type Void$ = typeof Schema.Void\nexport interface Ref {\n  $ref: string\n}\n";
        assert_eq!(names(&typescript(source)), ["Void$", "Ref", "$ref"]);
    }

    #[test]
    fn template_literals_over_lines_hold_no_blocks() {
        let source = "export const make = () => {\n  const insert = sql`INSERT INTO ${\n    table\n  } (a, b)`\n  \
                      const latest = sql`SELECT ${`${x}`} FROM t`\n  return { insert, latest }\n}\n\
                      export const after = '{'\nexport function last() {}\n";
        assert_eq!(names(&typescript(source)), ["make", "after", "last"]);
    }

    #[test]
    fn a_tuple_type_over_lines_labels_no_members() {
        let source = "export interface Statement {\n  readonly compile: () => readonly [\n    sql: string,\n    \
                      params: ReadonlyArray<unknown>\n  ]\n  readonly raw: string\n}\n";
        assert_eq!(names(&typescript(source)), ["Statement", "compile", "raw"]);
    }

    #[test]
    fn a_wrong_guess_does_not_outlast_the_next_declaration() {
        // A backtick or a bracket in a regular expression, a comparison's `<` ending a line.
        let source = "export const parts = (s: string) => s.split(/`/)\nexport const open = /\\[/\n\
                      export const shorter = (a: string, b: string) =>\n  a.length <\n  b.length\n\
                      export interface Next {\n  value: number\n}\n";
        assert_eq!(names(&typescript(source)), ["parts", "open", "shorter", "Next", "value"]);
    }
}
