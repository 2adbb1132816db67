//! Signature lines that keep a definition's name and parameters whole.
//!
//! A declaration head is gathered as segments by role. A decoration (attribute, decorator,
//! annotation) longer than [`MAX_DECORATION`] always loses its arguments. When the line is longer
//! than [`MAX_DETAILED`], the types and defaults inside the parameters and after them lose what is
//! nested in their own brackets (`fg: Optional[Union[int, str]] = None` → `fg: Optional[…] =
//! None`). Where the language says so ([`Untyped`]: TypeScript, Go), a function's head still
//! longer than its limit then names its parameters without their types (`groupQueries(queries,
//! keys, hash, onGroup?): Map<…>`). When it is still longer than [`MAX_SIGNATURE`], the other
//! decorations are shortened, then (Python: [`Past::Limit`]) the parameters named without their
//! types, then the tail after the parameters (return type, bounds, base classes) is cut. The modifiers, keyword, name and parameter names are only cut past
//! [`HARD_MAX`], which real code does not reach.

use crate::text::{MAX_SIGNATURE, collapse, head_line, truncate};

/// The longest a signature can get when its name and parameters alone exceed [`MAX_SIGNATURE`]:
/// a bound for generated or minified code, not a target.
const HARD_MAX: usize = 1_000;

/// The longest a head is shown with every type whole; past it the types inside parameters and
/// return types lose what is nested in their own brackets (`options: Options<…>`), which the
/// file says and a caller rarely needs to choose the function.
const MAX_DETAILED: usize = 120;

/// The longest a decoration is shown with its arguments, and the longest one shortened decoration
/// may be (`#[doc = "…"]` has no argument list to drop).
const MAX_DECORATION: usize = 40;

/// What stand for a space and a tab a head keeps as written (see [`kept`]) until it is rendered:
/// characters of Unicode's private use area, which collapsing whitespace leaves alone.
const KEPT_SPACE: char = '\u{E000}';
const KEPT_TAB: char = '\u{E001}';

/// What open and close a part of a head the signature shows as `…` and the written head keeps
/// (see [`elided`]): characters of Unicode's private use area, as for [`KEPT_SPACE`].
const ELIDED_OPEN: char = '\u{E002}';
const ELIDED_CLOSE: char = '\u{E003}';

/// `text` marked as a part the signature shows as `…` (a TypeScript type parameter's bound and
/// default: `<T, K…>`) and the written head keeps whole (`<T, K extends keyof T>`), so that what
/// compares heads as written (a run of definitions shown on one line) sees the difference.
pub(crate) fn elided(text: &str) -> String {
    format!("{ELIDED_OPEN}{text}{ELIDED_CLOSE}")
}

/// `text` with each [`elided`] part as `…` (`shown`), or as written.
fn resolve_elided(text: &str, shown: bool) -> String {
    let mut resolved = String::with_capacity(text.len());
    let mut inside = false;
    for c in text.chars() {
        match c {
            ELIDED_OPEN => {
                inside = true;
                if shown {
                    resolved.push('…');
                }
            }
            ELIDED_CLOSE => inside = false,
            c if !inside || !shown => resolved.push(c),
            _ => {}
        }
    }
    resolved
}

/// A literal's `text` with its spaces and tabs kept through the collapsing of a head's
/// whitespace, cut with `…` and its `closing` delimiter at any other whitespace (a line break:
/// one line cannot show it) or at a character that stands for a kept one.
pub(crate) fn kept(text: &str, closing: &str) -> String {
    let mut kept = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            ' ' => kept.push(KEPT_SPACE),
            '\t' => kept.push(KEPT_TAB),
            c if c.is_whitespace() || c == KEPT_SPACE || c == KEPT_TAB => {
                kept.push('…');
                kept.push_str(closing);
                return kept;
            }
            c => kept.push(c),
        }
    }
    kept
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// An attribute, decorator or annotation: shortened first.
    Decoration,
    /// Modifiers, keyword, name and parameters: never cut below [`HARD_MAX`].
    Core,
    /// What follows the parameters (or the name): cut when decorations were not enough.
    Tail,
}

#[derive(Clone)]
struct Segment {
    role: Role,
    text: String,
    /// How many identical decorations this one stands for (`@click.option(…) ×6`).
    repeat: usize,
}

/// A declaration head being gathered, in source order.
#[derive(Clone, Default)]
pub(crate) struct Head {
    segments: Vec<Segment>,
    /// A type's head: what its brackets hold may declare members (`interface Read extends Op<Tag,
    /// { readonly upstream: E }>`), so they are only emptied past [`MAX_SIGNATURE`]; as are a C
    /// variable's, which hold its declarator's dimensions (`buf[sizeof(struct hdr) * 2]`).
    declares_members: bool,
    /// When the parameters lose their types.
    untyped: Option<Untyped>,
}

/// A language's rule for heads that stay long once their types were emptied: past `past` a
/// function's parameters are named without their types. Generic TypeScript and Go's long
/// parameter lists spend most of a head on types (`options: QueryObserverOptions<…>`, `sigAlg
/// SignatureScheme`); the names and the return type say what to pass and what comes back.
#[derive(Clone, Copy)]
pub(crate) struct Untyped {
    pub past: Past,
    pub names: Names,
}

/// When a head's parameters lose their types.
#[derive(Clone, Copy)]
pub(crate) enum Past {
    /// Once the head is longer than this many characters.
    Characters(usize),
    /// Once it does not fit [`MAX_SIGNATURE`] with its decorations shortened: before the return
    /// type is cut (Python's long `def` lost its `-> X` where its parameters' names fit).
    Limit,
}

/// Where a parameter's name ends.
#[derive(Clone, Copy)]
pub(crate) enum Names {
    /// At its `:` or default (`name?: Type = x`, TypeScript).
    BeforeColon,
    /// At its first space (`name Type`, Go; `a, b int` names both).
    FirstWord,
}

impl Head {
    /// A head for a type, whose brackets may declare members, or for a C variable, whose brackets
    /// are its declarator's.
    pub(crate) fn for_type() -> Head {
        Head { declares_members: true, ..Head::default() }
    }

    /// A head whose parameters lose their types as `untyped` says.
    pub(crate) fn untyped(untyped: Option<Untyped>) -> Head {
        Head { untyped, ..Head::default() }
    }

    /// Appends source text in `role`; consecutive core or tail text joins one segment.
    pub(crate) fn push(&mut self, role: Role, text: &str) {
        match self.segments.last_mut() {
            Some(last) if last.role == role && role != Role::Decoration => last.text.push_str(text),
            _ => self.segments.push(Segment { role, text: text.to_string(), repeat: 1 }),
        }
    }

    /// The head on one line, shortened as the module describes.
    pub(crate) fn line(mut self) -> String {
        self.shorten_decorations(false);
        self.show_elided();
        let full = self.render();
        self.shortened(full)
    }

    /// The head on one line shortened as the module describes; before anything but long
    /// decorations and its [`elided`] parts was shortened; and as written, its elided parts kept
    /// (both at most [`HARD_MAX`] characters).
    pub(crate) fn lines(mut self) -> (String, String, String) {
        self.shorten_decorations(false);
        let written = resolve_elided(&self.render(), false);
        self.show_elided();
        let whole = self.render();
        let line = self.shortened(whole.clone());
        (line, truncate_list(whole, HARD_MAX), truncate_list(written, HARD_MAX))
    }

    /// Shows each [`elided`] part as `…`.
    fn show_elided(&mut self) {
        for segment in &mut self.segments {
            segment.text = resolve_elided(&segment.text, true);
        }
    }

    /// `full`, this head rendered with its long decorations shortened, or shorter renderings.
    fn shortened(&mut self, mut full: String) -> String {
        if full.chars().count() > MAX_DETAILED && !self.declares_members {
            self.empty_types();
            full = self.render();
        }
        let early = |untyped: &Untyped| matches!(untyped.past, Past::Characters(past) if full.chars().count() > past);
        if let Some(untyped) = self.untyped.filter(early) {
            self.untype_parameters(untyped.names);
            full = self.render();
        }
        if fits(&full) {
            return full;
        }
        self.shorten_decorations(true);
        let shortened = self.render();
        if fits(&shortened) {
            return shortened;
        }
        if let Some(untyped) = self.untyped.filter(|untyped| matches!(untyped.past, Past::Limit)) {
            self.untype_parameters(untyped.names);
            let untyped = self.render();
            if fits(&untyped) {
                return untyped;
            }
        }
        if self.declares_members {
            // Past the limit a type's head is emptied before it is cut: the whole heritage stays
            // (`extends transform(String$.annotations(…), Lowercased, {…})`), or more of it, where
            // a cut keeps only its start.
            self.empty_types();
            let emptied = self.render();
            if fits(&emptied) {
                return emptied;
            }
        }
        self.cut_tail();
        let cut = self.render();
        if fits(&cut) {
            return cut;
        }
        self.empty_types();
        truncate_list(self.render(), HARD_MAX)
    }

    /// Empties what the types in the core and the tail nest in their own brackets.
    fn empty_types(&mut self) {
        for segment in self.segments.iter_mut().filter(|segment| segment.role != Role::Decoration) {
            segment.text = empty_nested_brackets(&unannotated(&segment.text));
        }
    }

    /// Drops the types and defaults of the function's parameters: those the core ends with
    /// (`function f(a: A, b?: B)`), else those of a function type the tail starts with (`const f:
    /// (a: A) => B`, the type being the function's signature).
    fn untype_parameters(&mut self, names: Names) {
        let core = self.segments.iter().rposition(|segment| segment.role == Role::Core);
        if let Some(core) = core.filter(|&core| self.segments[core].text.trim_end().ends_with(')')) {
            let text = &self.segments[core].text;
            if let Some(open) = opening(text, text.trim_end().len() - 1).filter(|&open| !is_call(text, open)) {
                self.segments[core].text = untyped(text, open, names);
            }
            return;
        }
        let Some(tail) = core.and_then(|core| self.segments.get_mut(core + 1)).filter(|next| next.role == Role::Tail)
        else {
            return;
        };
        let signature = tail.text.trim_start().strip_prefix(':').map(str::trim_start);
        if let Some(signature) = signature.filter(|signature| signature.starts_with(['(', '<'])) {
            let at = tail.text.len() - signature.len();
            if let Some(open) = tail.text[at..].find('(').map(|open| at + open) {
                tail.text = untyped(&tail.text, open, names);
            }
        }
    }

    fn render(&self) -> String {
        let mut raw = String::new();
        for segment in &self.segments {
            raw.push_str(&segment.text);
            if segment.repeat > 1 {
                raw.push_str(&format!(" ×{}", segment.repeat));
            }
        }
        head_line(&raw).replace(KEPT_SPACE, " ").replace(KEPT_TAB, "\t")
    }

    /// Drops the arguments of every decoration, or (`all` false) of those longer than
    /// [`MAX_DECORATION`] (a long condition or message, `#[cfg(all(unix, feature = "net", …))]`,
    /// `@click.option("--name", help="…")`, costs more than it tells about the definition; its
    /// name says what kind it is), and folds a run of equal ones into one with a count.
    fn shorten_decorations(&mut self, all: bool) {
        let mut kept: Vec<Segment> = Vec::new();
        // Index in `kept` of the last decoration, while only whitespace has followed it.
        let mut run: Option<usize> = None;
        for mut segment in std::mem::take(&mut self.segments) {
            match segment.role {
                Role::Decoration => {
                    if all || collapse(&segment.text).chars().count() > MAX_DECORATION {
                        segment.text = shorten_decoration(&segment.text);
                    }
                    if let Some(last) = run.filter(|&last| kept[last].text == segment.text) {
                        kept.truncate(last + 1);
                        kept[last].repeat += segment.repeat;
                        continue;
                    }
                    run = Some(kept.len());
                }
                _ if segment.text.trim().is_empty() => {}
                _ => run = None,
            }
            kept.push(segment);
        }
        self.segments = kept;
    }

    /// Cuts the tail to the room the rest leaves, down to a bare `…`.
    fn cut_tail(&mut self) {
        let mut tail = String::new();
        for segment in self.segments.iter_mut().filter(|segment| segment.role == Role::Tail) {
            tail.push_str(&std::mem::take(&mut segment.text));
        }
        // A tail that starts the line's next word keeps its space; one that goes on the name
        // (`type Request<E extends Any> = …`) stays attached.
        let gap = if tail.starts_with(char::is_whitespace) { " " } else { "" };
        let tail = head_line(&tail);
        // What the line drops at its end anyway (a C prototype's `;`) is no tail to cut: a `…`
        // there would say a head kept whole was cut.
        let rest = self.render();
        if tail.is_empty() || head_line(&format!("{rest}{tail}")) == rest {
            return;
        }
        let room = MAX_SIGNATURE.saturating_sub(self.render().chars().count() + gap.len());
        let cut = if room >= 2 { truncate(tail, room) } else { "…".to_string() };
        self.push(Role::Tail, &format!("{gap}{cut}"));
    }
}

fn fits(line: &str) -> bool {
    line.chars().count() <= MAX_SIGNATURE
}

/// Whether the characters of a head, read in order, are inside a double-quoted or backquoted
/// string (a single quote may be a Rust lifetime, unless [`Strings::single_quoted`]): scanners
/// for brackets skip strings.
#[derive(Default)]
struct Strings {
    quote: Option<char>,
    escaped: bool,
    single_quotes: bool,
}

impl Strings {
    /// Also `'…'` strings, as Python writes them.
    fn single_quoted() -> Strings {
        Strings { single_quotes: true, ..Strings::default() }
    }

    /// Whether `c` belongs to a string, its quotes included.
    fn skip(&mut self, c: char) -> bool {
        match self.quote {
            Some(open) => {
                match c {
                    _ if self.escaped => self.escaped = false,
                    '\\' => self.escaped = true,
                    _ if c == open => self.quote = None,
                    _ => {}
                }
                true
            }
            None if matches!(c, '"' | '`') || (c == '\'' && self.single_quotes) => {
                self.quote = Some(c);
                true
            }
            None => false,
        }
    }

    /// A string was opened and not closed.
    fn open(&self) -> bool {
        self.quote.is_some()
    }
}

/// [`truncate`] for a head that may end in a long list (`__all__ = ['a', …]`, `export { a, … }`):
/// a cut inside a bracketed list falls after the last item it shows whole and says how many items
/// it left out (`__all__ = ['a', 'b', +78 more]`), so a view never half shows a name or drops the
/// rest unsaid. What follows the list stays when it is short (`… +30 more } from './api'`), else
/// it is `…`. A cut outside a list, or inside a list's first item, is [`truncate`]'s. Brackets
/// and strings are read as [`empty_nested_brackets`] reads them.
fn truncate_list(text: String, max: usize) -> String {
    /// The longest text after a cut list that is kept (a module path, a return type).
    const MAX_AFTER_LIST: usize = 80;
    let Some((cut, _)) = text.char_indices().nth(max.saturating_sub(1)) else {
        return text;
    };
    if text[cut..].chars().nth(1).is_none() {
        return text;
    }
    // The brackets open where the cut falls: where each opened, and the last comma seen at its
    // own level.
    let mut open: Vec<(usize, Option<usize>)> = Vec::new();
    for (at, c) in list_marks(&text[..cut]) {
        match c {
            '(' | '[' | '{' | '<' => open.push((at, None)),
            ',' => {
                if let Some(innermost) = open.last_mut() {
                    innermost.1 = Some(at);
                }
            }
            ')' | ']' | '}' | '>' => {
                open.pop();
            }
            _ => {}
        }
    }
    let Some(&(bracket, Some(comma))) = open.last() else {
        return truncate(text, max);
    };
    let (left, close) = items_after(&text[comma + 1..]);
    let closer = match &text[bracket..=bracket] {
        "(" => ")",
        "[" => "]",
        "{" => "}",
        _ => ">",
    };
    // `{ a, b }` keeps its inner spaces.
    let space = if text[bracket + 1..].starts_with(' ') { " " } else { "" };
    let after = close.map(|close| &text[comma + 1 + close + 1..]);
    let after = match after {
        Some(after) if open.len() == 1 && after.chars().count() <= MAX_AFTER_LIST => after,
        _ => "…",
    };
    format!("{}, +{left} more{space}{closer}{after}", &text[..comma])
}

/// How many items of a list `rest` holds before its closing bracket, and where that bracket is
/// (a list cut short by the text's end has none).
fn items_after(rest: &str) -> (usize, Option<usize>) {
    let (mut depth, mut items, mut in_item) = (0usize, 0, false);
    for (at, c) in list_marks(rest) {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' if depth == 0 => return (items, Some(at)),
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => {
                in_item = false;
                continue;
            }
            _ => {}
        }
        if !in_item && !c.is_whitespace() {
            in_item = true;
            items += 1;
        }
    }
    (items, None)
}

/// The characters of `code` with their offsets, a bracket or comma inside a string (see
/// [`Strings`]) or the `>` of `->` and `=>` passed as a plain `_`.
fn list_marks(code: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let (mut strings, mut previous) = (Strings::default(), ' ');
    code.char_indices().map(move |(at, c)| {
        let plain = strings.skip(c) || (c == '>' && matches!(previous, '-' | '='));
        previous = c;
        (at, if plain { '_' } else { c })
    })
}

/// `code` cut at its top-level commas (outside brackets and strings), each piece trimmed.
pub(crate) fn top_level_items(code: &str) -> Vec<&str> {
    let (mut items, mut start, mut depth, mut strings) = (Vec::new(), 0, 0usize, Strings::default());
    for (at, c) in code.char_indices() {
        if strings.skip(c) {
            continue;
        }
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                items.push(code[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(code[start..].trim());
    items
}

/// Python's `Annotated[T, metadata…]` as `T`, at any depth: the metadata (FastAPI's `Query(…)`,
/// a `Doc("…")`) is what a long head cannot afford, and once nested brackets are emptied the type
/// says more than `Annotated[…]` would.
fn unannotated(code: &str) -> String {
    const OPEN: &str = "Annotated[";
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find(OPEN) {
        let before = &rest[..at];
        let inside = at + OPEN.len();
        let whole_word = !before.ends_with(|c: char| c.is_alphanumeric() || c == '_');
        let Some((first_end, close)) = whole_word.then(|| closing(rest, inside - 1)).flatten() else {
            out.push_str(&rest[..inside]);
            rest = &rest[inside..];
            continue;
        };
        // `t.Annotated[…]`, `typing.Annotated[…]`: the module goes with it.
        let start = before.trim_end_matches(|c: char| c.is_alphanumeric() || c == '_' || c == '.').len();
        out.push_str(&rest[..start]);
        out.push_str(&unannotated(rest[inside..first_end].trim()));
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Where the bracket opened at `open` closes, and where its first item ends (its first comma
/// of its own, else the close); Python's strings, either quote, skipped over.
fn closing(code: &str, open: usize) -> Option<(usize, usize)> {
    let (mut depth, mut strings, mut first_end) = (0usize, Strings::single_quoted(), None);
    for (at, c) in code.char_indices().skip_while(|(at, _)| *at < open) {
        if strings.skip(c) {
            continue;
        }
        match c {
            '(' | '[' | '{' => depth += 1,
            ',' if depth == 1 => {
                first_end.get_or_insert(at);
            }
            ')' | ']' | '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some((first_end.unwrap_or(at), at));
                }
            }
            _ => {}
        }
    }
    None
}

/// Empties every bracket pair nested inside another (`(a: Vec<Option<u8>>, b: [u8; 4])` →
/// `(a: Vec<…>, b: [u8; 4])`): what stays is each outer list's own text, so names are kept and
/// types keep their outermost part. A pair that held nothing stays as written (`string[]`, not
/// `string[…]`). Double-quoted and backquoted strings are skipped over (a single quote may be a
/// Rust lifetime); the `>` of `->` and `=>` closes nothing. A C function pointer (`int
/// (*callback)(void *, int)`, `void (^done)(void)`, `void (*)(void *)`) stays whole: its
/// declarator holds the parameter's name, and what it takes is what a caller must write to pass
/// one. A list wrapped in a macro's parentheses for pre-ANSI compilers (`deflate OF((z_streamp
/// strm, int flush))`) is the list: the inner parentheses do not nest it.
pub(crate) fn empty_nested_brackets(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let (mut depth, mut strings, mut previous) = (0usize, Strings::default(), ' ');
    // Whether the nested pair being emptied held anything.
    let mut held = false;
    // The inner parentheses of a wrapped list, counted as no bracket.
    let mut wrapped: Option<(usize, usize)> = None;
    let mut chars = code.char_indices();
    while let Some((at, c)) = chars.next() {
        if depth == 1
            && c == '('
            && strings.quote.is_none()
            && let Some(length) = c_function_pointer(&code[at..])
        {
            out.push_str(&code[at..at + length]);
            // The pointer ends with the `)` of an ASCII declarator or of its parameters.
            let skipped = code[at..at + length].chars().count();
            chars.nth(skipped - 2);
            previous = ')';
            continue;
        }
        if depth == 0 && c == '(' && strings.quote.is_none() && wrapped.is_none() {
            wrapped = wrapped_list(code, at);
        }
        if wrapped.is_some_and(|(open, close)| at == open || at == close) {
            out.push(c);
            previous = c;
            continue;
        }
        let before = depth;
        if !strings.skip(c) {
            match c {
                '(' | '[' | '<' | '{' => depth += 1,
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                '>' if !matches!(previous, '-' | '=') => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        match (before, depth) {
            (1, 2) => {
                out.push(c);
                held = false;
            }
            (2, 1) => {
                if held {
                    out.push('…');
                }
                out.push(c);
            }
            (before, depth) if before < 2 && depth < 2 => out.push(c),
            _ => held = true,
        }
        previous = c;
    }
    out
}

/// The inner parentheses of `((…))` opened at `open`, when they hold all the outer ones do:
/// `OF((z_streamp strm, int flush))`. The outer one may close past `code`: a C head's core ends
/// with the inner list, the declarator the grammar read with the macro blanked.
fn wrapped_list(code: &str, open: usize) -> Option<(usize, usize)> {
    let inner = open + 1;
    if !code[inner..].starts_with('(') {
        return None;
    }
    let (_, inner_close) = closing(code, inner)?;
    let outer_close = closing(code, open).map(|(_, close)| close);
    outer_close.is_none_or(|close| close == inner_close + 1).then_some((inner, inner_close))
}

/// The length of the C function pointer `code` starts with: its declarator (see
/// [`c_declarator`]) and the parameter list after it, `(*callback)(void *, int)`; the declarator
/// alone when no list follows (`(*f)`).
fn c_function_pointer(code: &str) -> Option<usize> {
    let (declarator, named) = c_declarator(code)?;
    let open = code.len() - code[declarator..].trim_start_matches(' ').len();
    match code[open..].starts_with('(') {
        true => closing(code, open).map(|(_, close)| close + 1),
        // `(*)` with no list after it is no pointer's declarator.
        false => named.then_some(declarator),
    }
}

/// The length of the C (or Objective-C block) declarator in parentheses `code` starts with, whose
/// name is a parameter's: `(*callback)`, `(*handlers[8])`, `(^done)`; or that of a pointer
/// without a name, `(*)`, as a prototype writes one; and whether it has a name.
fn c_declarator(code: &str) -> Option<(usize, bool)> {
    let bytes = code.as_bytes();
    let mut at = 1;
    let skip_spaces = |at: &mut usize| {
        while bytes.get(*at) == Some(&b' ') {
            *at += 1;
        }
    };
    let word = |at: &mut usize| {
        let start = *at;
        while bytes.get(*at).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_') {
            *at += 1;
        }
        *at > start
    };
    if bytes.first() != Some(&b'(') {
        return None;
    }
    skip_spaces(&mut at);
    let pointers = at;
    while matches!(bytes.get(at), Some(b'*' | b'^')) {
        at += 1;
    }
    skip_spaces(&mut at);
    if at > pointers && bytes.get(at) == Some(&b')') {
        return Some((at + 1, false));
    }
    if at == pointers || bytes.get(at).is_none_or(u8::is_ascii_digit) || !word(&mut at) {
        return None;
    }
    skip_spaces(&mut at);
    while bytes.get(at) == Some(&b'[') {
        at += 1;
        word(&mut at);
        if bytes.get(at) != Some(&b']') {
            return None;
        }
        at += 1;
        skip_spaces(&mut at);
    }
    (bytes.get(at) == Some(&b')')).then_some((at + 1, true))
}

/// Whether the `(` at `open` is a call in an assigned value (`var key = testingKey(…)`): its
/// arguments are not parameters, and their first words are no names.
fn is_call(text: &str, open: usize) -> bool {
    let before = &text[..open];
    before.ends_with(|c: char| c.is_alphanumeric() || c == '_') && before.contains(" = ")
}

/// Where the bracket closed at `close` opens.
fn opening(text: &str, close: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (at, c) in text[..=close].char_indices().rev() {
        match c {
            ')' | ']' | '}' => depth += 1,
            '(' | '[' | '{' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
    }
    None
}

/// `f(a: A, b?: B = x, ...rest: C[])` → `f(a…, b?…, ...rest…)` for the list opened at `open`: each
/// parameter up to where [`Names`] says its name ends, outside brackets (a destructured `{ a, b }`
/// stays whole). A `…` after a name says its type or default was dropped: without it `f(a, b)`
/// would read as parameters written without types (Python's, TypeScript's `any`), which they are
/// not.
fn untyped(text: &str, open: usize, names: Names) -> String {
    let mut out = text[..=open].to_string();
    let (mut depth, mut previous, mut keep) = (0usize, '(', true);
    // A string (a default such as `sep: str = ", "`) is text: its brackets, commas and colons
    // are none of the list's.
    let (mut quote, mut escaped) = (None::<char>, false);
    for (at, c) in text[open + 1..].char_indices() {
        if let Some(open_quote) = quote {
            if keep {
                out.push(c);
            }
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                _ if c == open_quote => quote = None,
                _ => {}
            }
            previous = c;
            continue;
        }
        let named = !matches!(previous, '(' | ',' | ' ');
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' if depth == 0 => {
                out.push_str(&text[open + 1 + at..]);
                return out;
            }
            ')' | ']' | '}' => depth -= 1,
            '>' if !matches!(previous, '=' | '-') => depth = depth.saturating_sub(1),
            ',' if depth == 0 => keep = true,
            ':' | '=' if depth == 0 && matches!(names, Names::BeforeColon) => {
                // `validate = this.opts.validate`: the space before a default goes with it.
                if keep {
                    out.truncate(out.trim_end().len());
                    out.push('…');
                }
                keep = false;
            }
            ' ' if depth == 0 && named && matches!(names, Names::FirstWord) => {
                if keep {
                    out.push('…');
                }
                keep = false;
            }
            _ => {}
        }
        if keep {
            out.push(c);
        }
        previous = c;
    }
    text.to_string()
}

/// A type alias's line shortened to `max` characters where it can be: its value without what the
/// value's brackets hold (`type Def<T = unknown> = Partial<…> & {…}`), else no value at all
/// (`type DeepKeys<T> = …`). A long value is a type computation, read in the file; the name and
/// parameters are what other code writes. A line without a value (` = ` outside brackets) is
/// returned as it is.
pub(crate) fn shorten_alias(line: &str, max: usize) -> String {
    let Some(at) = alias_value(line) else { return line.to_string() };
    let (head, value) = line.split_at(at);
    let emptied = empty_nested_brackets(&format!("({value})"));
    // A value whose brackets do not close (cut at the hard limit) is not shown in part.
    match emptied.strip_prefix('(').and_then(|inner| inner.strip_suffix(')')) {
        Some(emptied) if balanced(emptied) && format!("{head}{emptied}").chars().count() <= max => {
            format!("{head}{emptied}")
        }
        _ => format!("{head}…"),
    }
}

/// `type T = | A | B` as `type T = A | B`: the `|` that starts a union written one member a line
/// says nothing once the union is on one line.
pub(crate) fn without_leading_bar(line: String) -> String {
    match alias_value(&line) {
        Some(at) if line[at..].starts_with("| ") => format!("{}{}", &line[..at], &line[at + 2..]),
        _ => line,
    }
}

/// Whether every bracket in `code` closes in order (strings skipped; the `>` of `=>` and `->`
/// closes nothing).
fn balanced(code: &str) -> bool {
    let mut open = Vec::new();
    let (mut strings, mut previous) = (Strings::default(), ' ');
    for c in code.chars() {
        if !strings.skip(c) {
            match c {
                '(' | '[' | '{' | '<' => open.push(c),
                '>' if matches!(previous, '=' | '-') => {}
                ')' | ']' | '}' | '>' => {
                    let opener = match c {
                        ')' => '(',
                        ']' => '[',
                        '}' => '{',
                        _ => '<',
                    };
                    if open.pop() != Some(opener) {
                        return false;
                    }
                }
                _ => {}
            }
        }
        previous = c;
    }
    open.is_empty() && !strings.open()
}

/// Where the value of `type Name<…> = value` starts: after the first ` = ` outside brackets.
fn alias_value(line: &str) -> Option<usize> {
    let (mut depth, mut quote, mut previous) = (0usize, None, ' ');
    for (at, c) in line.char_indices() {
        match (quote, c) {
            (Some(open), _) if c == open => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '<' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            (None, '>') if !matches!(previous, '-' | '=') => depth = depth.saturating_sub(1),
            (None, '=') if depth == 0 && line[at..].starts_with("= ") && previous == ' ' => return Some(at + 2),
            _ => {}
        }
        previous = c;
    }
    None
}

/// `#[cfg(any(unix, windows))]` → `#[cfg(…)]`, `@click.option("--n", default=1)` →
/// `@click.option(…)`: every outermost argument list emptied to `…`, strings skipped over. A
/// template's parameter list (`<typename T, …>`) becomes `<…>`.
fn shorten_decoration(decoration: &str) -> String {
    if decoration.starts_with('<') {
        return "<…>".to_string();
    }
    let mut out = String::new();
    let (mut depth, mut quote, mut escaped, mut inside) = (0usize, None, false, false);
    for c in collapse(decoration).chars() {
        if let Some(open) = quote {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                _ if c == open => {
                    quote = None;
                    // A string outside any argument list (`#[body = "…"]`) is emptied too.
                    if depth == 0 {
                        out.push_str("…\"");
                    }
                }
                _ => {}
            }
            continue;
        }
        if depth == 0 {
            out.push(c);
            match c {
                // At this level a `'` is a Rust lifetime, not a quote.
                '"' => quote = Some(c),
                '(' => (depth, inside) = (1, false),
                _ => {}
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            out.push_str(if inside { "…)" } else { ")" });
        } else {
            inside = true;
        }
    }
    if depth > 0 || quote.is_some() {
        out.push('…');
    }
    // Still too long, a `name = value` attribute keeps its name (`#[project_replace = …]`).
    if out.chars().count() > MAX_DECORATION
        && let Some(at) = out.find(" = ")
    {
        let close = if out.ends_with(']') { "]" } else { "" };
        out = format!("{} = …{close}", &out[..at]);
    }
    truncate(out, MAX_DECORATION)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(parts: &[(Role, &str)]) -> Head {
        let mut head = Head::default();
        for (role, text) in parts {
            head.push(*role, text);
        }
        head
    }

    #[test]
    fn decorations_lose_their_arguments() {
        assert_eq!(shorten_decoration("#[cfg(any(feature = \"a)\", unix))]"), "#[cfg(…)]");
        assert_eq!(shorten_decoration("@click.option('--name', help=\"it's\")"), "@click.option(…)");
        assert_eq!(shorten_decoration("@pytest.fixture()"), "@pytest.fixture()");
        assert_eq!(shorten_decoration("@Override"), "@Override");
        assert_eq!(
            shorten_decoration("#[project_replace = UnfoldStateProjectionReplacement]"),
            "#[project_replace = …]"
        );
        assert_eq!(
            shorten_decoration("#[body = \"Failed to deserialize the \\\"JSON\\\" body into the target type\"]"),
            "#[body = \"…\"]"
        );
        assert_eq!(shorten_decoration("[Obsolete(\"x\"), Browsable(false)]"), "[Obsolete(…), Browsable(…)]");
        assert_eq!(shorten_decoration("<typename T, typename = std::enable_if_t<(N > 0)>>"), "<…>");
    }

    #[test]
    fn a_kept_literal_survives_the_collapse_or_is_cut() {
        let value = kept("/( |\t)  x/", "/");
        let line = head(&[(Role::Core, "SEP  =   "), (Role::Core, &value)]).line();
        assert_eq!(line, "SEP = /( |\t)  x/");
        // A line break cannot be shown on one line, nor a character standing for a kept one.
        assert_eq!(head(&[(Role::Core, &kept("\"a  b\n  c\"", "\""))]).line(), "\"a  b…\"");
        assert_eq!(head(&[(Role::Core, &kept("\"a\u{E000}b\"", "\""))]).line(), "\"a…\"");
    }

    #[test]
    fn a_short_head_is_kept_as_written() {
        let line =
            head(&[(Role::Decoration, "#[inline]"), (Role::Core, "\npub fn f(a: u8)"), (Role::Tail, " -> u8 {")])
                .line();
        assert_eq!(line, "#[inline] pub fn f(a: u8) -> u8");
    }

    #[test]
    fn repeated_decorations_fold_before_the_tail_is_cut() {
        let option = "@click.option(\"--verbose\", is_flag=True, help=\"Print every step as it runs\")";
        let mut parts: Vec<(Role, &str)> = Vec::new();
        for _ in 0..6 {
            parts.extend([(Role::Decoration, option), (Role::Core, "\n")]);
        }
        parts.extend([(Role::Core, "def deploy(ctx, verbose)"), (Role::Tail, " -> None:")]);
        assert_eq!(head(&parts).line(), "@click.option(…) ×6 def deploy(ctx, verbose) -> None");
    }

    #[test]
    fn nested_brackets_empty_and_names_stay() {
        assert_eq!(
            empty_nested_brackets("def style(fg: t.Optional[t.Union[int, str]] = None, sep: str = \"(\", *a)"),
            "def style(fg: t.Optional[…] = None, sep: str = \"(\", *a)"
        );
        assert_eq!(
            empty_nested_brackets("pub fn poll<'a>(cx: &mut Context<'a>, f: impl Fn(u8) -> Vec<u8>)"),
            "pub fn poll<'a>(cx: &mut Context<…>, f: impl Fn(…) -> Vec<…>)"
        );
        assert_eq!(
            empty_nested_brackets("function on(handler: (e: Event<T>) => void, o?: { once: boolean })"),
            "function on(handler: (…) => void, o?: {…})"
        );
        assert_eq!(
            empty_nested_brackets("function flatten<T>(rows: T[][], next: () => Map<K, V[]>)"),
            "function flatten<T>(rows: T[][], next: () => Map<…>)"
        );
        // A C function pointer is a parameter's type a caller must match: it stays whole, named
        // or not (sqlite3.h's `int (*xAuth)(…)`, `void(…)(…)` said neither what it takes).
        let pointers =
            "int on(int (*callback)(void *ctx, int code), void (^done[2])(void), char *(*f), void(*)(void*))";
        assert_eq!(empty_nested_brackets(pointers), pointers);
        assert_eq!(empty_nested_brackets("int f(int (*)[4], int (*g)[8])"), "int f(int (…)[…], int (*g)[…])");
        // A list wrapped for pre-ANSI compilers is the list (zlib's `deflateInit2_ OF((…))` said
        // nothing of what it takes); its own nested brackets are emptied as any list's.
        assert_eq!(
            empty_nested_brackets("int deflate OF((z_streamp strm, int flush, char buf[8]))"),
            "int deflate OF((z_streamp strm, int flush, char buf[…]))"
        );
        assert_eq!(empty_nested_brackets("f((a), b)"), "f((…), b)");
        assert_eq!(
            empty_nested_brackets("int deflate OF((z_streamp strm, int (*f)(int))"),
            "int deflate OF((z_streamp strm, int (*f)(int))"
        );
        assert_eq!(empty_nested_brackets("fn f(g: fn(*const u8), h: Box<dyn Fn(&T)>)"), "fn f(g: fn(…), h: Box<…>)");
    }

    #[test]
    fn an_alias_value_loses_what_its_brackets_hold_and_its_parameters_stay() {
        assert_eq!(
            shorten_alias(
                "export type Def<T, V = unknown> = Partial<Union<Def<T, V>>> & { id?: string } | \"a=(b\"",
                80
            ),
            "export type Def<T, V = unknown> = Partial<…> & {…} | \"a=(b\""
        );
        assert_eq!(
            shorten_alias("type Handler func(w Writer, r *Request)", 10),
            "type Handler func(w Writer, r *Request)"
        );
        // Still too long: the value goes.
        let conditional = "export type DeepValue<T, TProp> = T extends Record<string, any> ? TProp extends \
                           `${infer TBranch}.${infer TDeepProp}` ? DeepValue<T[TBranch], TDeepProp> : T[TProp] : never";
        assert_eq!(shorten_alias(conditional, 80), "export type DeepValue<T, TProp> = …");
        assert_eq!(without_leading_bar("type Mode = | \"a\" | \"b\"".into()), "type Mode = \"a\" | \"b\"");
        assert_eq!(without_leading_bar("type Mode = \"a\" | \"b\"".into()), "type Mode = \"a\" | \"b\"");
        // A value cut inside its brackets is not shown in part.
        assert_eq!(shorten_alias("type Event = | { type: \"a\" } | { type: \"b\"; na…", 80), "type Event = …");
    }

    #[test]
    fn a_long_core_keeps_every_parameter_name() {
        let parameters: Vec<String> = (0..8)
            .map(|i| format!("option_{i}: t.Optional[t.Union[int, t.Tuple[int, int, int], str]] = None"))
            .collect();
        let core = format!("def style({})", parameters.join(", "));
        let line = head(&[(Role::Core, &core), (Role::Tail, " -> str:")]).line();
        for i in 0..8 {
            assert!(line.contains(&format!("option_{i}: t.Optional[…] = None")), "{line}");
        }
        assert!(line.chars().count() < core.chars().count() / 2, "{line}");
    }

    #[test]
    fn untyped_parameters_keep_their_names_alone() {
        let text = "_add(schema: AnySchema, meta?: boolean, validate = this.opts.validate, add = f(a, b))";
        assert_eq!(untyped(text, 4, Names::BeforeColon), "_add(schema…, meta?…, validate…, add…)");
        assert_eq!(untyped("New(a, b int, opts ...Option)", 3, Names::FirstWord), "New(a, b…, opts…)");
        // A parameter written without a type loses nothing and says so by its bare name.
        assert_eq!(untyped("f(self, *, key: str)", 1, Names::BeforeColon), "f(self, *, key…)");
        // A reader: a default's string was read as list syntax (`sep, ", *, params`, `op: str = '‹…)`).
        let text = r#"request(self, sep: str = ", ", op: str = '<', esc: str = "\"(", *, params: Dict[str, Any]) -> X"#;
        assert_eq!(untyped(text, 7, Names::BeforeColon), "request(self, sep…, op…, esc…, *, params…) -> X");
    }

    #[test]
    fn truncate_list_ends_between_items_and_counts_the_rest() {
        let all = format!("__all__ = ({})", (0..40).map(|n| format!("'name{n}'")).collect::<Vec<_>>().join(", "));
        // `'name0', ` is 9 characters: at 60 the cut falls inside the fifth name.
        assert_eq!(truncate_list(all.clone(), 60), "__all__ = ('name0', 'name1', 'name2', 'name3', 'name4', +35 more)");
        assert_eq!(truncate_list(all.clone(), 1000), all);
        // Commas inside an item's own brackets, strings and generics are the item's.
        let nested = "export { a, b, c } from './x'; f(Map<K, V>, \"x, y\", [1, 2], g(h, i), 'j', k)";
        assert_eq!(truncate_list(nested.to_string(), 44), "export { a, b, c } from './x'; f(Map<K, V>, +5 more)");
        // A lifetime is no string; `->` closes nothing.
        let rust = "fn f<'a>(x: &'a str, g: impl Fn() -> u8, y: u8, z: u8)";
        assert_eq!(truncate_list(rust.to_string(), 42), "fn f<'a>(x: &'a str, g: impl Fn() -> u8, +2 more)");
        let export =
            format!("export {{ {} }} from './api'", (0..30).map(|n| format!("name{n}")).collect::<Vec<_>>().join(", "));
        assert_eq!(truncate_list(export, 40), "export { name0, name1, name2, name3, +26 more } from './api'");
        // A cut in the list's first item, or outside any list, is a plain cut.
        assert_eq!(truncate_list("const X = averyveryverylongvalue".into(), 12), "const X = …");
        assert_eq!(truncate_list("f(averyveryverylongvalue, b)".into(), 12), "f(…");
        // An inner list cut inside an outer one: the outer one is open, so `…` says so.
        assert_eq!(truncate_list("f(a, [1, 2, 3, 4, 5, 6], b)".into(), 14), "f(a, [1, 2, +4 more]…");
    }

    #[test]
    fn the_tail_is_cut_and_the_parameters_are_not() {
        let parameters = (0..6).map(|i| format!("argument_{i}: u32")).collect::<Vec<_>>().join(", ");
        let core = format!("pub fn long_name({parameters})");
        let tail = format!(" -> Result<{}>", "Vec<Option<String>>, ".repeat(8));
        let decoration = "#[cfg(any(target_os = \"linux\", target_os = \"android\", target_os = \"freebsd\"))]";
        let line =
            head(&[(Role::Decoration, decoration), (Role::Core, " "), (Role::Core, &core), (Role::Tail, &tail)]).line();
        assert!(line.starts_with(&format!("#[cfg(…)] {core} -> Result<Vec")), "{line}");
        assert!(line.ends_with('…') && line.chars().count() == MAX_SIGNATURE, "{line}");
        let huge = format!("fn f({})", "a: u8, ".repeat(300));
        let line = head(&[(Role::Core, &huge), (Role::Tail, " -> u8")]).line();
        // Past the hard limit the parameter list is cut between two parameters, with a count (the
        // return type was cut first).
        assert!(line.starts_with("fn f(a: u8, a: u8,") && line.ends_with(", +158 more) …"), "{line}");
        assert_eq!(line.matches("a: u8").count(), 142);
    }

    #[test]
    fn annotated_types_keep_their_type() {
        assert_eq!(
            unannotated(
                r#"def f(q: Annotated[Optional[str], Query(max_length=50, regex="^[a]")] = None, x: t.Annotated[int, Doc('n]')])"#
            ),
            "def f(q: Optional[str] = None, x: int)"
        );
        assert_eq!(
            unannotated("x: MyAnnotated[int, 1], y: Annotated[Annotated[int, a], b]"),
            "x: MyAnnotated[int, 1], y: int"
        );
        assert_eq!(unannotated("x: Annotated[Literal['a, b'], c]"), "x: Literal['a, b']");
        // Unclosed: left as it is.
        assert_eq!(unannotated("x: Annotated[int, "), "x: Annotated[int, ");
    }

    #[test]
    fn top_level_items_split_outside_brackets_and_strings() {
        assert_eq!(
            top_level_items(r#"feature = "a, b", inline, doc(cfg(x, y))"#),
            [r#"feature = "a, b""#, "inline", "doc(cfg(x, y))"]
        );
    }
}
