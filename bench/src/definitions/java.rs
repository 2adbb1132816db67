//! Java: types at any depth of type bodies (classes, interfaces, enums, records, annotation
//! types), their methods and constructors, enum constants, and fields that are API (`public` or
//! `protected`, and every constant of an interface or annotation type). Not what a method body
//! or an initializer holds (local and anonymous classes).
//!
//! The source is read as tokens, not lines: a Java declaration's head runs over lines freely
//! (annotations above it, parameters one a line, a return type alone on its line), and comments
//! and text blocks may open anywhere.

use super::Expected;

/// One token of code: comments dropped, a string, text block, char or number literal reduced to
/// a `"` or a `0`.
#[derive(Clone, PartialEq, Debug)]
enum Token {
    Word(String),
    Punct(char),
}

/// Where a token is: a token and its line.
type Located = (Token, u32);

/// The tokens of `source` with their lines.
fn tokens(source: &str) -> Vec<Located> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1u32);
    while i < chars.len() {
        let c = chars[i];
        let rest = &chars[i..];
        let length = match c {
            // A line comment stops before its newline, which is counted as a line's end.
            '/' if rest.get(1) == Some(&'/') => rest.iter().position(|c| *c == '\n').unwrap_or(rest.len()),
            '/' if rest.get(1) == Some(&'*') => until(rest, 2, &['*', '/'], false),
            '"' if rest.starts_with(&['"', '"', '"']) => {
                out.push((Token::Punct('"'), line));
                until(rest, 3, &['"', '"', '"'], true)
            }
            '"' | '\'' => {
                out.push((Token::Punct('"'), line));
                quoted(rest, c)
            }
            c if c.is_ascii_digit() => {
                out.push((Token::Punct('0'), line));
                rest.iter().take_while(|c| c.is_alphanumeric() || matches!(c, '.' | '_')).count()
            }
            c if word_part(c) => {
                let length = rest.iter().take_while(|c| word_part(**c)).count();
                out.push((Token::Word(rest[..length].iter().collect()), line));
                length
            }
            c if c.is_whitespace() => 1,
            _ => {
                out.push((Token::Punct(c), line));
                1
            }
        };
        line += rest[..length.min(rest.len())].iter().filter(|c| **c == '\n').count() as u32;
        i += length.max(1);
    }
    out
}

fn word_part(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// How many characters of `rest` run to the end of `end`, searched from `from`: a block
/// comment's `*/`, a text block's `"""` (where a backslash `escapes` the next character); all of
/// them when it does not end.
fn until(rest: &[char], from: usize, end: &[char], escapes: bool) -> usize {
    let mut i = from;
    while i + end.len() <= rest.len() {
        if escapes && rest[i] == '\\' {
            i += 2;
        } else if rest[i..].starts_with(end) {
            return i + end.len();
        } else {
            i += 1;
        }
    }
    rest.len()
}

/// How many characters a string or char literal takes, to its closing quote or its line's end.
fn quoted(rest: &[char], quote: char) -> usize {
    let mut i = 1;
    while i < rest.len() && rest[i] != '\n' {
        match rest[i] {
            '\\' => i += 2,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    i.min(rest.len())
}

#[derive(Clone, Copy, PartialEq)]
enum TypeKind {
    Class,
    Interface,
    Enum,
    Record,
}

/// What a `{` opened.
enum Frame {
    /// A type's body, where members are declared.
    Type {
        kind: TypeKind,
        name: String,
        /// An enum's body before the `;` that ends its constants.
        constants: bool,
    },
    /// A method body, an initializer, an array or an anonymous class: nothing counted inside.
    Opaque,
}

/// How far the declaration being read at a type's level has come.
#[derive(Clone, Copy, PartialEq, Default)]
enum Phase {
    /// Modifiers, type and name: still undecided.
    #[default]
    Head,
    /// A method's or constructor's parameters were met (and it was counted).
    Method,
    /// A field's initializer, after its `=`: further declarators follow a `,`.
    Initializer { api: bool },
    /// An enum constant was counted; its arguments or body follow.
    Constant,
}

/// The declaration being read at a type's (or the file's) level.
#[derive(Default)]
struct Head {
    tokens: Vec<Located>,
    /// Open `(` and `[`: what they hold is no part of the head.
    depth: usize,
    phase: Phase,
}

struct Scan {
    found: Vec<Expected>,
    stack: Vec<Frame>,
    head: Head,
}

/// Every definition of a Java source file.
pub fn java(source: &str) -> Vec<Expected> {
    let tokens = tokens(source);
    let mut scan = Scan { found: Vec::new(), stack: Vec::new(), head: Head::default() };
    let mut i = 0;
    while i < tokens.len() {
        i = scan.step(&tokens, i);
    }
    scan.found
}

impl Scan {
    /// Reads the token at `i` (an annotation whole); returns the index of the next one to read.
    fn step(&mut self, tokens: &[Located], i: usize) -> usize {
        let (token, line) = &tokens[i];
        let at_type_level = !matches!(self.stack.last(), Some(Frame::Opaque));
        match token {
            Token::Punct('{') => self.open_brace(at_type_level),
            Token::Punct('}') => self.close_brace(at_type_level),
            _ if !at_type_level => {}
            Token::Punct('@') if !is_word(tokens.get(i + 1), "interface") => return annotation_end(tokens, i),
            Token::Punct('(' | '[') => {
                if *token == Token::Punct('(') && self.head.depth == 0 {
                    self.open_parameters();
                }
                self.head.depth += 1;
            }
            Token::Punct(')' | ']') => self.head.depth = self.head.depth.saturating_sub(1),
            _ if self.head.depth > 0 => {}
            Token::Punct(';') => self.end_declaration(),
            Token::Punct('=') if self.head.phase == Phase::Head => self.start_initializer(),
            Token::Punct(',') => self.comma(tokens, i),
            _ => self.head.tokens.push((token.clone(), *line)),
        }
        i + 1
    }

    /// The type whose body the current declaration is in, if it is read at a type's level.
    fn enclosing(&self) -> Option<(TypeKind, &str, bool)> {
        match self.stack.last()? {
            Frame::Type { kind, name, constants } => Some((*kind, name, *constants)),
            Frame::Opaque => None,
        }
    }

    fn in_constants(&self) -> bool {
        self.enclosing().is_some_and(|(_, _, constants)| constants)
    }

    fn push(&mut self, name: &str, line: u32, field: bool) {
        self.found.push(Expected { name: name.to_string(), line, in_macro: false, field });
    }

    fn open_brace(&mut self, at_type_level: bool) {
        if !at_type_level || self.head.depth > 0 {
            self.stack.push(Frame::Opaque);
            return;
        }
        let enclosing = self.enclosing().map(|(kind, name, constants)| (kind, name.to_string(), constants));
        match (self.head.phase, &enclosing) {
            // A constant's body, an initializer's array or anonymous class: the declaration
            // goes on after it.
            (Phase::Initializer { .. }, _) => return self.stack.push(Frame::Opaque),
            (_, Some((_, _, true))) => {
                self.constant();
                return self.stack.push(Frame::Opaque);
            }
            _ => {}
        }
        if let Some((kind, name, line)) = type_head(&self.head.tokens) {
            self.push(&name, line, false);
            self.stack.push(Frame::Type { kind, name, constants: kind == TypeKind::Enum });
        } else {
            // A record's compact constructor is written `Point {`, without parameters.
            if let (Phase::Head, Some((TypeKind::Record, record, _))) = (self.head.phase, &enclosing)
                && let Some((name, line)) = last_word(&self.head.tokens).filter(|(name, _)| name == record)
            {
                self.push(&name, line, false);
            }
            self.stack.push(Frame::Opaque);
        }
        self.head = Head::default();
    }

    fn close_brace(&mut self, at_type_level: bool) {
        if at_type_level && self.head.depth == 0 {
            // An enum's last constant before its `}` with no `;`.
            if self.in_constants() {
                self.constant();
            }
            self.head = Head::default();
        }
        self.stack.pop();
    }

    /// A `(` at the head's level: an enum constant's arguments, a method's or constructor's
    /// parameters, or a record's components.
    fn open_parameters(&mut self) {
        let Some((_, _, constants)) = self.enclosing() else { return };
        if constants {
            return self.constant();
        }
        if self.head.phase != Phase::Head || type_head(&self.head.tokens).is_some() {
            return;
        }
        if let Some((name, line)) = last_word(&self.head.tokens) {
            self.push(&name, line, false);
            self.head.phase = Phase::Method;
        }
    }

    /// Counts the enum constant the head names, once.
    fn constant(&mut self) {
        if self.head.phase == Phase::Head
            && let Some((Token::Word(name), line)) = self.head.tokens.first().cloned()
        {
            self.push(&name, line, true);
            self.head.phase = Phase::Constant;
        }
    }

    /// `;` at the head's level: the end of a field without initializer, of an abstract method,
    /// of an enum's constants, or of an import.
    fn end_declaration(&mut self) {
        if self.in_constants() {
            self.constant();
            if let Some(Frame::Type { constants, .. }) = self.stack.last_mut() {
                *constants = false;
            }
        } else if self.head.phase == Phase::Head {
            self.fields();
        }
        self.head = Head::default();
    }

    /// `=` after a field's name: its declarators so far are counted, its initializer follows.
    fn start_initializer(&mut self) {
        if self.in_constants() {
            return;
        }
        let api = self.fields();
        self.head.phase = Phase::Initializer { api };
    }

    /// Counts the declarators of the field the head declares, when it is API; returns whether
    /// it is.
    fn fields(&mut self) -> bool {
        let Some((kind, _, _)) = self.enclosing() else { return false };
        if self.head.tokens.is_empty() || type_head(&self.head.tokens).is_some() {
            return false;
        }
        let modifier =
            |word: &str| self.head.tokens.iter().any(|(token, _)| matches!(token, Token::Word(w) if w == word));
        let api = modifier("public") || modifier("protected") || kind == TypeKind::Interface;
        if api {
            for (name, line) in declarators(&self.head.tokens) {
                self.push(&name, line, true);
            }
        }
        api
    }

    /// `,` at the head's level: between enum constants, or before a field's next declarator
    /// after an initializer (`A = 1, B = 2`; not a comma inside `new HashMap<K, V>()`).
    fn comma(&mut self, tokens: &[Located], i: usize) {
        match (self.enclosing(), self.head.phase) {
            (Some((_, _, true)), _) => {
                self.constant();
                self.head = Head::default();
            }
            (_, Phase::Initializer { api }) => {
                let next = tokens.get(i + 1..i + 3).unwrap_or_default();
                if let [(Token::Word(name), line), (Token::Punct('=' | ',' | ';' | '['), _)] = next
                    && api
                {
                    self.push(name, *line, true);
                }
            }
            _ => self.head.tokens.push((Token::Punct(','), tokens[i].1)),
        }
    }
}

fn is_word(token: Option<&Located>, word: &str) -> bool {
    matches!(token, Some((Token::Word(w), _)) if w == word)
}

/// The index after the annotation starting at `i`: `@Name`, `@a.b.Name`, and its arguments.
fn annotation_end(tokens: &[Located], i: usize) -> usize {
    let mut i = i + 2;
    while tokens.get(i).is_some_and(|(t, _)| *t == Token::Punct('.'))
        && matches!(tokens.get(i + 1), Some((Token::Word(_), _)))
    {
        i += 2;
    }
    if tokens.get(i).is_some_and(|(t, _)| *t == Token::Punct('(')) {
        let mut depth = 0usize;
        for (j, (token, _)) in tokens.iter().enumerate().skip(i) {
            match token {
                Token::Punct('(') => depth += 1,
                Token::Punct(')') if depth == 1 => return j + 1,
                Token::Punct(')') => depth -= 1,
                _ => {}
            }
        }
        return tokens.len();
    }
    i
}

/// The kind, name and line of the type a head declares (`class Name`, `@interface Name`).
fn type_head(tokens: &[Located]) -> Option<(TypeKind, String, u32)> {
    tokens.windows(2).find_map(|pair| {
        let [(Token::Word(keyword), _), (Token::Word(name), line)] = pair else { return None };
        let kind = match keyword.as_str() {
            "class" => TypeKind::Class,
            "interface" => TypeKind::Interface,
            "enum" => TypeKind::Enum,
            "record" => TypeKind::Record,
            _ => return None,
        };
        Some((kind, name.clone(), *line))
    })
}

fn last_word(tokens: &[Located]) -> Option<(String, u32)> {
    tokens.iter().rev().find_map(|(token, line)| match token {
        Token::Word(word) => Some((word.clone(), *line)),
        Token::Punct(_) => None,
    })
}

/// The names a field's head declares: the last word before each `,` outside type arguments
/// (`Map<K, V> a, b[]`), and before the end.
fn declarators(tokens: &[Located]) -> Vec<(String, u32)> {
    let mut angles = 0usize;
    let mut segments: Vec<&[Located]> = Vec::new();
    let mut start = 0;
    for (i, (token, _)) in tokens.iter().enumerate() {
        match token {
            Token::Punct('<') => angles += 1,
            Token::Punct('>') => angles = angles.saturating_sub(1),
            Token::Punct(',') if angles == 0 => {
                segments.push(&tokens[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    segments.push(&tokens[start..]);
    segments.into_iter().filter_map(last_word).collect()
}
