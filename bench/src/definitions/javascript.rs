//! Line tests of the JavaScript forms the scan counts beyond declarations: modules wrapped in a
//! function, functions bound to names or assigned to properties, and objects of methods mixed
//! into a type or bound to a name. Each reads one line of code (strings emptied, comments dropped) or, where a
//! quoted name matters, the line as written.

use super::js_identifier;

/// How many function declarations make a function body a module factory, as the outline's
/// `FACTORY_FUNCTIONS` (outline/src/extract/mod.rs) has it: kept apart so the scan stays an
/// independent check, and equal so the two count the same factories.
pub(super) const FACTORY_FUNCTIONS: usize = 10;

/// Whether a line at the module's level opens a function that wraps a module: one called at
/// once (`;(function () {`, `!function () {`, `(async () => {`), a universal module's wrapper or
/// factory (`(function (global, factory) {`, `}(this, (function () {`), or an AMD module
/// (`define(["./core"], function (jQuery) {`).
pub(super) fn opens_module(code: &str) -> bool {
    let punctuation = |c: char| c.is_whitespace() || matches!(c, ';' | '!' | '(' | ')' | '}');
    let start = code.trim_start_matches(punctuation);
    let start = match start.strip_prefix("async") {
        Some(rest) if rest.starts_with([' ', '(']) => rest.trim_start_matches(punctuation),
        _ => start,
    };
    let called = (start.starts_with("function") || start.starts_with("=>"))
        && code.trim_start().starts_with([';', '!', '(', '}']);
    let factory = code.trim_start().starts_with('}') && code.contains("function");
    let amd = start.starts_with("define(") && code.contains("function");
    (called || factory || amd) && opens_block(code)
}

/// Whether a line at the module's level gives a type or a name an object of methods, the object
/// left open: by a call (`_.extend(Model.prototype, Events, {`, `jQuery.fn.extend( {`,
/// `Object.assign(Store.prototype, {`), by assigning it (`Store.fn = Store.prototype = {`,
/// `module.exports = {`), by binding it or exporting it (`export const api = {`, `export default
/// {`), by binding or exporting what a call or `new` given it returns (`export const useCart =
/// defineStore('cart', {`, `export default defineComponent({`, `export default new
/// Vuex.Store({`), or by a statement constructing with it (`new Vue({`); what is made by `new`
/// may go on to call the instance (`new Vue({ … }).$mount('#app')`).
/// `after` is the lines after this one, `indent` this one's indentation: an object given to a
/// call counts only when the call is the whole value (see [`call_closes`]).
pub(super) fn opens_mixin(code: &str, after: &[&str], indent: usize) -> bool {
    let exports = code.trim_start().strip_prefix("export default").map(str::trim);
    let binds = binding(code).map(|binding| binding.value.trim_end());
    let constructs = code.trim_start().starts_with("new ").then(|| code.trim());
    let given = exports.or(binds).filter(|value| *value == "{").is_some()
        || exports
            .or(binds)
            .or(constructs)
            .is_some_and(|value| given_to_call(value) && call_closes(after, indent, value.starts_with("new ")));
    let mixes_in = mixes_in_by_call(code) && given_to_call(code.trim());
    opens_block(code) && (mixes_in || gives_object(code) || given)
}

/// Whether a value opens an object literal as a direct argument of a call it makes, at its line's
/// end: `defineComponent({`, `defineStore('cart', {`; not one an argument builds (`create((set)
/// => ({`).
fn given_to_call(value: &str) -> bool {
    let Some((callee, arguments)) = value.split_once('(') else {
        return false;
    };
    // A constructor's methods come in an options object given first (`new Vuex.Store({`), not
    // in the handler given after its subject (`new Proxy(target, {`).
    let (callee, first_only) = match callee.strip_prefix("new ") {
        Some(constructor) => (constructor, true),
        None => (callee, false),
    };
    let Some(before) = arguments.strip_suffix('{') else {
        return false;
    };
    let balanced = |open: char, close: char| before.matches(open).count() == before.matches(close).count();
    let separated = before.trim_end().is_empty() || (!first_only && before.trim_end().ends_with(','));
    is_path(callee.trim_end()) && separated && balanced('(', ')') && balanced('[', ']') && balanced('{', '}')
}

/// Whether the object a call is given closes the call and the value with it: the block's closing
/// line (the next at `indent` or less) is `})`, then at most `;`, `,`, `as …` or `satisfies …`;
/// not a curried or chained call (`})(Component)`, `}).with(plugin)`), unless `chained` allows
/// calls on the instance a `new` made (`}).$mount('#app');`), which then end the statement: not
/// an item of a sequence (`}).$mount('#app'), start();`).
fn call_closes(after: &[&str], indent: usize, chained: bool) -> bool {
    let Some(close) = closing_line(after, indent) else {
        return false;
    };
    let Some(rest) = after[close].trim().strip_prefix("})") else {
        return false;
    };
    let closed = rest.trim_end_matches([';', ',']).trim();
    closed.is_empty()
        || closed.starts_with("as ")
        || closed.starts_with("satisfies ")
        || (chained && calls_on(rest.trim().trim_end_matches(';').trim_end()))
}

/// Whether `text` is nothing but calls of methods, each closed on the line: `.$mount('')`,
/// `.use(a).start()`.
fn calls_on(mut text: &str) -> bool {
    while let Some(rest) = text.strip_prefix('.') {
        let Some(arguments) = js_identifier(rest).and_then(|method| rest[method.len()..].strip_prefix('(')) else {
            return false;
        };
        let mut depth = 1;
        let Some(end) = arguments.find(|c| {
            depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            depth == 0
        }) else {
            return false;
        };
        text = &arguments[end + 1..];
    }
    text.is_empty()
}

/// Whether a line of such an object opens an object held under a key, whose functions count as
/// the outer object's do: `methods: {`, `'computed': {` (one level deep: see its caller).
pub(super) fn opens_nested_object(code: &str) -> bool {
    let rest = code.trim_start();
    let key = match rest.chars().next() {
        Some(quote @ ('\'' | '"')) => rest[1..].find(quote).map(|end| &rest[end + 2..]),
        _ => js_identifier(rest).map(|name| &rest[name.len()..]),
    };
    key.and_then(|after| after.trim_start().strip_prefix(':')).is_some_and(|value| value.trim() == "{")
}

fn mixes_in_by_call(code: &str) -> bool {
    let Some((callee, _)) = code.trim_start().split_once('(') else {
        return false;
    };
    let path = callee.trim_end();
    let method = path.rsplit_once('.').map(|(_, method)| method);
    let mixes = ["extend", "assign", "mixin", "component", "directive"];
    method.is_some_and(|method| mixes.contains(&method)) && is_path(path)
}

fn gives_object(code: &str) -> bool {
    let mut rest = code.trim_start();
    let mut properties = 0;
    while let Some((target, value)) = rest.split_once(" = ") {
        if !is_path(target) || !target.contains('.') {
            return false;
        }
        properties += 1;
        rest = value.trim_start();
    }
    properties > 0 && rest.starts_with('{')
}

/// Whether `text` is a dotted path of names (`Store.prototype`, `jQuery.fn.extend`).
fn is_path(text: &str) -> bool {
    text.split('.').all(|part| js_identifier(part) == Some(part))
}

/// The name of a function-valued property on a line of a mixed-in object: `save: function (`,
/// `'get': function (`, `fetch: async (options) =>`, `set(key, val) {`, and of an accessor or a
/// generator: `get size() {`, `*items() {`, `async *more() {`.
pub(super) fn mixin_member(line: &str) -> Option<&str> {
    let rest = line.trim_start();
    let rest = rest.strip_prefix("async ").unwrap_or(rest);
    // A generator or an accessor opens its body on its line; a line continuing an expression
    // (`  * scale(2),`) does not.
    let generator = rest.strip_prefix('*').map(str::trim_start).filter(|_| opens_block(line));
    let rest = generator.unwrap_or(rest);
    let accessor = ["get ", "set "].iter().find_map(|keyword| rest.strip_prefix(keyword));
    let rest = accessor.filter(|name| js_identifier(name).is_some() && opens_block(line)).unwrap_or(rest);
    let (name, after) = match rest.chars().next()? {
        quote @ ('\'' | '"') => {
            let end = rest[1..].find(quote)? + 1;
            (&rest[1..end], &rest[end + 1..])
        }
        _ => {
            let name = js_identifier(rest)?;
            (name, &rest[name.len()..])
        }
    };
    let after = after.trim_start();
    let valued = after.strip_prefix(':').is_some_and(function_value);
    (valued || after.starts_with('(')).then_some(name)
}

/// Whether a line leaves a block open at its end (its last brace is a `{`).
pub(super) fn opens_block(code: &str) -> bool {
    code.rfind('{') > code.rfind('}')
}

/// The name of a function a line declares: `function name(`, `async function name(`,
/// `function* name(`.
pub(super) fn declared_function(code: &str) -> Option<&str> {
    let rest = code.trim_start();
    let rest = rest.strip_prefix("async ").unwrap_or(rest);
    let rest = rest.strip_prefix("function*").or_else(|| rest.strip_prefix("function "))?;
    js_identifier(rest.trim_start().trim_start_matches('*').trim_start())
}

/// The name a `var` or `let` binds to a function value, and the value: `var f = function`,
/// `export let g = (a) => …`, `let h: Handler = async () => {`, `var i = (function i(x) {`.
pub(super) fn bound_function(code: &str) -> Option<(&str, &str)> {
    let binding = binding(code)?;
    (binding.keyword != "const" && function_value(binding.value)).then_some((binding.name, binding.value))
}

/// The name a line binds, without a type, to what a function it opens returns when called at
/// once, the function left open: `var Subscriber = (function (_super) {` (a class compiled to
/// ES5, called where it closes: `}(Subscription));`), `const make = (() => {`.
pub(super) fn binds_called_function(code: &str) -> Option<(&str, usize)> {
    let binding = binding(code)?;
    let wrapped = wrapping_parentheses(binding.value)?;
    (!binding.typed && opens_block(code)).then_some((binding.name, wrapped))
}

/// Whether the function a [`binds_called_function`] line at `indent` opens, inside `wrapped`
/// parentheses, is a class compiled to ES5: a line at its body's own indentation declares a
/// function of the bound name, and its closing line (the next at `indent` or less) calls it and
/// ends the statement (`}(Subscription));`, `})();`). `after` is the lines after the opening one.
pub(super) fn compiled_class(after: &[&str], indent: usize, name: &str, wrapped: usize) -> bool {
    let Some(close) = closing_line(after, indent) else {
        return false;
    };
    let Some(own) = first_indent(&after[..close]) else {
        return false;
    };
    let declares = after[..close].iter().any(|line| indent_of(line) == own && declared_function(line) == Some(name));
    let closing = after[close].trim_start();
    declares && closing.strip_prefix('}').is_some_and(|rest| closes_with_call(rest, wrapped))
}

/// Whether the function a [`binds_called_function`] line (`code`, at `indent`) opens, inside
/// `wrapped` parentheses, is a module that returns its API (`var Cart = (function () { function
/// add() {…} return { add: add }; })();`): a plain function (not `async`, not a generator) whose
/// last statement at its body's own indentation returns an object that holds a function or names
/// one its body declares (or an object of methods it binds), or returns a name its body binds to
/// an object of methods or an empty one; and whose closing line calls it and ends the statement.
/// Where it cannot tell, it counts nothing: a module returning the object it is given (Rollup's
/// IIFE builds) is left to the outline.
pub(super) fn revealing_module(code: &str, after: &[&str], indent: usize, wrapped: usize) -> bool {
    let Some(close) = closing_line(after, indent) else {
        return false;
    };
    let body = &after[..close];
    let Some(own) = first_indent(body) else {
        return false;
    };
    let statement = |line: &&str| {
        let code = line.trim_start();
        indent_of(line) == own && !code.is_empty() && !code.starts_with(['}', ')', ']']) && !code.starts_with("//")
    };
    let Some(last) = body.iter().rposition(statement) else {
        return false;
    };
    let Some(returned) = body[last].trim_start().strip_prefix("return ").map(|rest| rest.trim().trim_end_matches(';'))
    else {
        return false;
    };
    // Names the body declares at its own level: functions (not values a function called at once
    // computes), and bindings of objects of methods or of an empty object.
    let mut callables = Vec::new();
    let mut objects = Vec::new();
    for (at, line) in body.iter().enumerate().filter(|(_, line)| indent_of(line) == own) {
        if let Some(name) = declared_function(line) {
            callables.push(name);
        } else if let Some(binding) = binding(line) {
            let value = binding.value.trim();
            if function_value(value) && !value.starts_with('(') {
                callables.push(binding.name);
            } else if value.trim_end_matches(';') == "{}"
                || (value == "{" && object_holds_function(&body[at + 1..], own))
            {
                objects.push(binding.name);
            }
        }
    }
    let returns_api = if returned.starts_with('{') {
        let returned_lines = &body[last..];
        let entries = returned_lines.join(" ");
        let mut names = entries.split([',', '{', '}', ';']).filter_map(|entry| {
            let value = entry.split_once(':').map_or(entry, |(_, value)| value).trim();
            js_identifier(value).filter(|name| *name == value && *name != "return")
        });
        object_holds_function(&returned_lines[1..], own)
            || names.any(|name| callables.contains(&name) || objects.contains(&name))
    } else {
        js_identifier(returned) == Some(returned) && objects.contains(&returned)
    };
    let function = code.split_once(" = ").map_or("", |(_, value)| value.trim_start_matches(['(', ' ']));
    let plain =
        !function.starts_with("async") && !function.starts_with("function*") && !function.starts_with("function *");
    plain
        && returns_api
        && after[close].trim_start().strip_prefix('}').is_some_and(|rest| closes_with_call(rest, wrapped))
}

/// Whether the object a line opened (its lines `after`, closing at `indent`) has a function-valued
/// entry at its own level: `total: function (prices) {`, `reset() {`; not a line of an argument
/// list deeper in (`  round(base),`).
fn object_holds_function(after: &[&str], indent: usize) -> bool {
    let entries = after.iter().take_while(|line| line.trim().is_empty() || indent_of(line) > indent);
    let Some(own) = first_indent(after) else {
        return false;
    };
    let mut entries = entries.filter(|line| indent_of(line) == own);
    own > indent && entries.any(|line| mixin_member(line).is_some())
}

/// Where in `after` (the lines after one at `indent` that opens a block) that block closes: the
/// first written line at `indent` or less.
fn closing_line(after: &[&str], indent: usize) -> Option<usize> {
    after.iter().position(|line| !line.trim().is_empty() && indent_of(line) <= indent)
}

/// The indentation of the first written line of `lines`: a block's own.
fn first_indent(lines: &[&str]) -> Option<usize> {
    lines.iter().find(|line| !line.trim().is_empty()).map(|line| indent_of(line))
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Whether what follows a function's closing `}` calls it, closes the `wrapped` parentheses it
/// was written in, and ends the statement: `(Subscription));`, `)();`, `();`.
fn closes_with_call(rest: &str, wrapped: usize) -> bool {
    // The line as written: a comment may follow (`}()); // End of stack`).
    let rest = rest.split("//").next().unwrap_or(rest);
    let rest = rest.trim_end().trim_end_matches(';').trim_end();
    let Some(call) = rest.find('(') else {
        return false;
    };
    let Some(after) = after_closing(&rest[call..], '(', ')') else {
        return false;
    };
    let (before, after) = (&rest[..call], after.trim());
    let closing = |text: &str| text.chars().all(|c| c == ')');
    closing(before) && closing(after) && before.len() + after.len() == wrapped
}

/// A `const`, `let` or `var` binding of one name (see [`binding`]).
struct Binding<'a> {
    keyword: &'a str,
    name: &'a str,
    /// Past a type annotation and any alias assigned with it.
    value: &'a str,
    typed: bool,
}

/// The binding a line starts, if any: `var Model = Backbone.Model = function (a) {` binds `Model`
/// to `function (a) {`.
fn binding(code: &str) -> Option<Binding<'_>> {
    let rest = code.trim_start().trim_start_matches("export ").trim_start_matches("declare ");
    let keyword = ["const", "let", "var"].into_iter().find(|keyword| starts_with_word(rest, &[keyword]))?;
    let rest = rest[keyword.len()..].trim_start();
    let name = js_identifier(rest)?;
    let after = rest[name.len()..].trim_start();
    // A type annotation runs to the ` = ` (an arrow type's `=>` is no assignment).
    let value = match after.strip_prefix(':') {
        Some(typed) => typed.split_once(" = ")?.1,
        None => after.strip_prefix('=').filter(|value| !value.starts_with(['=', '>']))?,
    };
    let mut value = value.trim_start();
    while let Some((target, rest)) = value.split_once(" = ")
        && is_path(target)
    {
        value = rest.trim_start();
    }
    Some(Binding { keyword, name, value, typed: after.starts_with(':') })
}

/// The property a function or class is assigned to, and the value: `res.send = function
/// send(body) {`, `exports.parse = (text) => …`, `Router.prototype.route = function (path) {`,
/// `exports.Parser = class {`. CommonJS and prototype APIs.
pub(super) fn assigned_function(code: &str) -> Option<(&str, &str)> {
    let (target, value) = code.split_once(" = ")?;
    let (_, property) = target.trim().rsplit_once('.')?;
    let value = value.trim_start();
    let path = is_path(target.trim());
    (path && (function_value(value) || starts_with_word(value, &["class"]))).then_some((property, value))
}

/// The name and the property a line at the module's level gives data (`Emitter.VERSION = '';`,
/// `Listener.defaults = {`): a static property when the name is a function or class declared at
/// that level. Not a function (see [`assigned_function`]), a prototype (`Foo.prototype =
/// Object.create(…)`), a property of `exports` or `module` (see [`exported_name`]) nor a deeper
/// one (`a.b.c = 1`).
pub(super) fn static_property(code: &str) -> Option<(&str, &str)> {
    let (target, value) = code.split_once(" = ")?;
    let (owner, property) = target.trim().split_once('.')?;
    let plain = js_identifier(owner) == Some(owner) && js_identifier(property) == Some(property);
    let reserved = matches!(owner, "exports" | "module") || property == "prototype";
    let data = !function_value(value) && !starts_with_word(value.trim_start(), &["class"]);
    (plain && !reserved && data).then_some((owner, property))
}

/// The name a line at the module's level exports a name or a property under: `exports.parseLine
/// = parseLine;`, `module.exports.default = Emitter;`; not a value (`exports.default = void 0;`).
pub(super) fn exported_name(code: &str) -> Option<&str> {
    let (target, value) = code.split_once(" = ")?;
    let target = target.trim();
    let name = target.strip_prefix("module.exports.").or_else(|| target.strip_prefix("exports."))?;
    let value = value.trim().trim_end_matches(';').trim_end();
    // A literal written as a word is no name (tsc's and Babel's `exports.__esModule = true;`).
    let literal = ["true", "false", "null", "undefined", "this"].contains(&value);
    (js_identifier(name) == Some(name) && is_path(value) && !literal).then_some(name)
}

/// Whether an expression is a function: `function (`, `async function`, an arrow function (`x =>`,
/// `(a, b) =>`, `async (a) =>`, `(a): T =>`), or one of those in parentheses. A call that takes
/// an arrow function (`items.map((x) => x)`) is none.
pub(super) fn function_value(value: &str) -> bool {
    wrapping_parentheses(value).is_some()
}

/// How many parentheses the function `value` starts with is written in (`((function () {` is in
/// two, `(() => {` in one); `None` when it is no function.
fn wrapping_parentheses(value: &str) -> Option<usize> {
    let mut value = value.trim_start();
    let mut wrapped = 0;
    loop {
        if starts_with_word(value, &["function", "async function"]) || arrow_function(value) {
            return Some(wrapped);
        }
        value = value.strip_prefix('(')?.trim_start();
        wrapped += 1;
    }
}

/// Whether `value` starts with an arrow function's parameters and its `=>`, after TypeScript's
/// type parameters if any (`<T>(column: T): void => {`).
fn arrow_function(value: &str) -> bool {
    let value = match value.strip_prefix("async") {
        Some(rest) if rest.starts_with([' ', '(']) => rest.trim_start(),
        _ => value,
    };
    let value = match value.strip_prefix('<') {
        Some(_) => match after_closing(value, '<', '>') {
            Some(rest) => rest.trim_start(),
            None => return false,
        },
        None => value,
    };
    let rest = match js_identifier(value) {
        Some(name) => &value[name.len()..],
        None if value.starts_with('(') => match after_closing(value, '(', ')') {
            Some(rest) => rest,
            None => return false,
        },
        None => return false,
    };
    let rest = rest.trim_start();
    rest.starts_with("=>") || (rest.starts_with(':') && rest.contains("=>"))
}

/// What follows the bracket (`open`) that closes the one `text` starts with, on this line. The
/// `>` of an arrow (`<T extends () => void>`) closes nothing.
fn after_closing(text: &str, open: char, close: char) -> Option<&str> {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            _ if c == open => depth += 1,
            '>' if text[..at].ends_with('=') => {}
            _ if c == close => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[at + 1..]);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether what follows a function's closing `}` calls it (`}())`, `})(x)`, `}).call(this)`,
/// `}.apply(…)`): a name it is bound to holds what it returns.
pub(super) fn calls_after(close: &str) -> bool {
    let rest = close.trim_start_matches([')', ' ']);
    rest.starts_with('(') || rest.starts_with(".call(") || rest.starts_with(".apply(")
}

/// Whether a function written whole on one line is called there (`var a = (function () { … })();`,
/// `var c = (() => 1)();`).
pub(super) fn called_on_its_line(code: &str) -> bool {
    match code.rfind('}') {
        Some(close) => calls_after(&code[close + 1..]),
        None => code.contains(")("),
    }
}

/// Whether a declaration's value is a bare `require(…)` call, which the views show as an import
/// (`const fs = require('fs')`; not `const debug = require('debug')('app')`).
pub(super) fn requires(code: &str) -> bool {
    let Some(at) = code.find("= require(") else {
        return false;
    };
    let call = &code[at + "= require".len()..];
    after_closing(call, '(', ')').is_some_and(|rest| rest.trim().trim_end_matches(';').is_empty())
}

/// Whether `text` starts with one of `words` as a whole word (`function (`, `function*`, not
/// `functions`).
pub(super) fn starts_with_word(text: &str, words: &[&str]) -> bool {
    words.iter().any(|word| {
        text.strip_prefix(word)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_values_are_told_from_calls_that_take_one() {
        for value in [
            "function (a) {",
            "async function () {",
            "x => x",
            "async (a) => {",
            "(a, b): T => a",
            "(function f() {",
            "<T>(a: T): void => {",
            "<F extends () => void>(f: F) => {",
        ] {
            assert!(function_value(value), "{value}");
        }
        for value in
            ["items.map((x) => x * 2);", "http.createServer((req, res) => {", "async;", "functions;", "(a + b)"]
        {
            assert!(!function_value(value), "{value}");
        }
    }

    #[test]
    fn a_call_after_the_closing_brace_binds_what_the_function_returns() {
        for close in ["());", ")();", ").call(this);", ".apply(this, arguments)", "(Object.create(null));"] {
            assert!(calls_after(close), "{close}");
        }
        assert!(!calls_after(");") && !calls_after(""));
        assert!(called_on_its_line("var a = (function () { return 1; })();"));
        assert!(called_on_its_line("var c = (() => 1)();"));
        assert!(!called_on_its_line("let f = (a) => a + 1"));
    }

    #[test]
    fn only_a_bare_require_is_an_import() {
        assert!(requires("const fs = require('')") && requires("const fs = require('');"));
        assert!(!requires("const debug = require('')('')") && !requires("const b = require('').b"));
    }

    #[test]
    fn a_class_compiled_to_es5_is_told_from_a_bound_factory() {
        let open = "var Subscriber =  (function (_super) {";
        assert_eq!(binds_called_function(open), Some(("Subscriber", 1)));
        assert_eq!(binds_called_function("var Foo = function () {"), Some(("Foo", 0)));
        assert_eq!(binds_called_function("export const make =  (() => {"), Some(("make", 1)));
        assert_eq!(binds_called_function("export const S: new () => {} = (function () {"), None);
        let body = ["    function Subscriber(d) {", "    }", "    return Subscriber;", "}(Subscription));"];
        assert!(compiled_class(&body, 0, "Subscriber", 1));
        let commented = ["    function Stack() {", "    }", "}()); // End of stack"];
        assert!(compiled_class(&commented, 0, "Stack", 1));
        assert!(!compiled_class(&body, 0, "Other", 1));
        // A factory bound in parentheses is not called where it closes.
        let factory = ["    function Subscriber(d) {", "    }", "});"];
        assert!(!compiled_class(&factory, 0, "Subscriber", 1));
        // What the call gives must be the whole value.
        for close in ["}()), other = 1;", "})() || Subscriber;", "}(Base);"] {
            let lines = ["    function Subscriber(d) {", "    }", close];
            assert!(!compiled_class(&lines, 0, "Subscriber", 1), "{close}");
        }
        // Babel's, without parentheses; a function of that name declared deeper does not count.
        assert!(compiled_class(&["  function Foo() {}", "}();"], 0, "Foo", 0));
        let deeper = ["  function helper() {", "    function Foo() {}", "  }", "}());"];
        assert!(!compiled_class(&deeper, 0, "Foo", 1));
    }

    #[test]
    fn bindings_name_their_function() {
        assert_eq!(bound_function("export let g = (a) => a"), Some(("g", "(a) => a")));
        assert_eq!(bound_function("let h: Handler = async () => {").map(|(name, _)| name), Some("h"));
        assert_eq!(bound_function("var result = items.map((x) => x)"), None);
        assert_eq!(bound_function("var Model = Backbone.Model = function(a) {").map(|(name, _)| name), Some("Model"));
        assert_eq!(assigned_function("module.exports = functions;"), None);
        assert_eq!(assigned_function("exports.Parser = class {").map(|(name, _)| name), Some("Parser"));
    }

    #[test]
    fn data_given_to_a_name_and_names_exported_are_told_apart() {
        assert_eq!(static_property("Emitter.VERSION = '';"), Some(("Emitter", "VERSION")));
        assert_eq!(static_property("Listener.defaults = {"), Some(("Listener", "defaults")));
        for code in [
            "Emitter.of = function (a) {",
            "Foo.prototype = Object.create(Base.prototype);",
            "exports.a = 1;",
            "module.exports = Emitter;",
            "util.inspect.depth = 2;",
        ] {
            assert_eq!(static_property(code), None, "{code}");
        }
        assert_eq!(exported_name("exports.parseLine = parseLine;"), Some("parseLine"));
        assert_eq!(exported_name("module.exports.inspect = util.inspect;"), Some("inspect"));
        assert_eq!(exported_name("exports.default = void 0;"), None);
        assert_eq!(exported_name("exports.__esModule = true;"), None);
        assert_eq!(exported_name("exports.parse = (s) => s;"), None);
    }
}
