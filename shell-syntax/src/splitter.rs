//! The scanner behind [`crate::split`]: one pass over the line's bytes,
//! a fresh scanner for the text of each substitution.

use crate::ansi_c;
use crate::levels::{Levels, keyword};
use crate::{Command, Quote, Quoted, Redirect, Word};

/// Nesting of `$(…)` and backticks followed at most.
pub(crate) const MAX_DEPTH: usize = 8;

/// Arithmetic expansions nested in one another followed at most (`$((
/// $(( … )) ))`): see [`Splitter::arithmetic_in`].
const MAX_ARITHMETIC_NESTING: usize = 32;

/// What the next word is, after a redirection operator.
#[derive(Clone, Copy)]
enum Pending {
    Read,
    Write,
    /// A here-string's text: data, dropped.
    Data,
}

/// A heredoc whose body starts at the next line.
struct Heredoc {
    delimiter: String,
    /// Leading tabs are stripped (`<<-`).
    strip_tabs: bool,
    /// The delimiter is unquoted: the body's substitutions run.
    expands: bool,
}

pub(crate) struct Splitter<'a> {
    src: &'a str,
    bytes: &'a [u8],
    depth: usize,
    i: usize,
    cmd_start: Option<usize>,
    /// Where a `#` comment cut the current command's text short.
    comment_at: Option<usize>,
    /// The current command's words, their spans in `src` until it ends.
    words: Vec<Word>,
    redirects: Vec<Redirect>,
    /// The word being read.
    word: Option<Partial>,
    pending: Option<Pending>,
    /// Heredoc delimiters waiting for the end of the line.
    heredocs: Vec<Heredoc>,
    /// The next command reads a pipe. Only the command that takes it or
    /// another operator clears it: a newline, a comment or a subshell's `(`
    /// may stand between a pipe and its reader.
    piped: bool,
    /// An `&&`, `||` or pipe waits for the command after it: a newline
    /// before that command does not end the list.
    continued: bool,
    /// Where in the output this scanner's own commands are (not those of
    /// its substitutions), so a pipe can mark what writes into it.
    own: Vec<usize>,
    /// The line's own shell and each open subshell, and the environments
    /// they are.
    levels: Levels,
    /// The subshell that just closed (its first entry in `own`) until the
    /// next operator: a `|` then pipes what all its commands print.
    closed: Option<usize>,
    /// The words being read are a `case` pattern (after `in`, `;;`, `;&`
    /// or `;;&`, up to its `)`): they run nothing, and in them `|`
    /// separates alternatives and `(` opens no subshell.
    in_pattern: bool,
    /// The text is the rest of a line from inside a `$(`, `<(` or `>(`:
    /// its first `)` closing no subshell nor pattern ends it.
    in_substitution: bool,
    /// The current command's arithmetic so far (see [`Command::arithmetic`]).
    arithmetic: Vec<String>,
    /// The current command's heredoc expansions so far (see [`Command::body_expansions`]).
    body_expansions: Vec<String>,
    /// The words being read are a conditional expression's, `[[` up to its
    /// `]]`: in them `&&`, `||`, `(`, `)`, `<`, `>` and newlines are
    /// operators of the test, not of the line (`[[ a && x -eq 1 ]]` is one
    /// command, evaluating `x`).
    in_test: bool,
}

/// Whether `word` is a reserved word after which a `(` opens a subshell
/// (`then`, `do`, `!`, `{`, `time`…), not a name's or pattern's.
fn precedes_subshell(word: &Word) -> bool {
    let text = if word.quoted.is_empty() { word.text.as_str() } else { "" };
    matches!(text, "if" | "while" | "until" | "then" | "else" | "elif" | "do" | "!" | "{" | "time" | "coproc")
}

/// Whether `words`, after the reserved words a command may follow, are a
/// function definition's whole header (`f()`, `f ()`, `function f`,
/// `function f()`): its body, `{ … }` or `( … )`, comes next, right after
/// the `)` or on a later line.
fn is_function_header(words: &[Word]) -> bool {
    let start = words.iter().position(|word| !precedes_subshell(word)).unwrap_or(words.len());
    let bare: Option<Vec<&str>> =
        words[start..].iter().map(|word| word.quoted.is_empty().then_some(word.text.as_str())).collect();
    match bare.as_deref() {
        Some([name, "()"]) => *name != "function",
        Some([name]) => name.len() > 2 && name.ends_with("()"),
        Some(["function", _] | ["function", _, "()"]) => true,
        _ => false,
    }
}

/// A word being read: where it started in `src`, and its bytes and quoted parts so far.
struct Partial {
    start: usize,
    bytes: Vec<u8>,
    quoted: Vec<Quoted>,
}

impl<'a> Splitter<'a> {
    /// A scanner of `src` whose commands run in the environment `env`,
    /// handing out environment ids after `last_id`; `out_len`, the output
    /// so far.
    pub(crate) fn new(src: &'a str, depth: usize, env: Vec<u32>, last_id: u32, out_len: usize) -> Splitter<'a> {
        Splitter {
            src,
            bytes: src.as_bytes(),
            depth,
            i: 0,
            cmd_start: None,
            comment_at: None,
            words: Vec::new(),
            redirects: Vec::new(),
            word: None,
            pending: None,
            heredocs: Vec::new(),
            piped: false,
            continued: false,
            own: Vec::new(),
            levels: Levels::new(env, last_id, out_len),
            closed: None,
            in_pattern: false,
            in_substitution: false,
            arithmetic: Vec::new(),
            body_expansions: Vec::new(),
            in_test: false,
        }
    }

    fn at(&self, i: usize) -> Option<u8> {
        self.bytes.get(i).copied()
    }

    /// Splits `src` into `out`; the last environment id handed out, and
    /// where in `src` it stopped (its length, or a substitution's `)`).
    pub(crate) fn run(mut self, out: &mut Vec<Command>) -> (u32, usize) {
        while let Some(b) = self.at(self.i) {
            let next = self.at(self.i + 1);
            if self.in_test && matches!(b, b'&' | b'|' | b'(' | b')' | b'<' | b'>' | b'\n') {
                // A `]]` right before ends the test first (`[[ a ]]&& b`).
                self.end_word();
            }
            let operator = match (b, next) {
                (b'&' | b'|', Some(n)) if n == b => 2,
                (b'<' | b'>', Some(b'(')) => 0,
                (b'(' | b')' | b'<' | b'>' | b'\n', _) => 1,
                _ => 0,
            };
            if self.in_test && operator > 0 {
                if b != b'\n' {
                    let src = self.src;
                    self.push_in(&src.as_bytes()[self.i..self.i + operator], None);
                    self.end_word();
                }
                self.i += operator;
                continue;
            }
            match b {
                b' ' | b'\t' | b'\r' => {
                    self.end_word();
                    self.i += 1;
                }
                b'\n' => {
                    self.end_word();
                    if self.heredocs.is_empty() && is_function_header(&self.words) {
                        // `f()` with its body on a later line: one definition, as bash reads it.
                        self.i += 1;
                        continue;
                    }
                    self.end_command(self.i, out);
                    if !self.continued {
                        self.levels.end_list(false, out);
                    }
                    self.i += 1;
                    self.heredoc_bodies(out);
                }
                b';' => {
                    self.end_command(self.i, out);
                    self.levels.end_list(false, out);
                    self.piped = false;
                    self.closed = None;
                    // `;;`, `;&` and `;;&` end a case's branch: a pattern follows.
                    let terminator = match (next, self.at(self.i + 2)) {
                        (Some(b';'), Some(b'&')) => 3,
                        (Some(b';' | b'&'), _) => 2,
                        _ => 1,
                    };
                    if terminator > 1 && self.levels.in_case() {
                        self.in_pattern = true;
                        self.i += terminator;
                    } else {
                        self.i += 1;
                    }
                }
                b'&' if next == Some(b'>') => {
                    // `&>file` / `&>>file`: both streams to a file.
                    self.end_word();
                    self.mark();
                    self.i += if self.at(self.i + 2) == Some(b'>') { 3 } else { 2 };
                    self.pending = Some(Pending::Write);
                }
                b'|' if self.in_pattern => {
                    self.end_word();
                    self.i += 1;
                }
                b'&' | b'|' => {
                    let ended = self.own.len();
                    self.end_command(self.i, out);
                    // `|` and `|&` hand the output on; `||`, `&&` and `&` do not.
                    self.piped = b == b'|' && next != Some(b'|');
                    if self.piped {
                        self.mark_pipe_writers(ended, out);
                        self.levels.pipe(out);
                    } else if next == Some(b) {
                        self.levels.and_or(out);
                    } else {
                        self.levels.end_list(true, out);
                    }
                    self.continued = self.piped || next == Some(b);
                    self.closed = None;
                    self.i += if matches!(next, Some(b'&' | b'|')) { 2 } else { 1 };
                }
                b'(' if (self.word.is_some() || !self.words.is_empty()) && self.empty_parens_close().is_some() => {
                    // `f()`, `f ()` or `f ( )`: a function is defined, no subshell opened or
                    // closed. The header ends there: `{` or `(` may touch it (`f(){ rm x; }`).
                    self.push_in(b"()", None);
                    self.i = self.empty_parens_close().map_or(self.i + 1, |close| close + 1);
                    self.end_word();
                }
                b'(' if self.word.is_none() && is_function_header(&self.words) => {
                    // `f()(…)`, `f() (…)`: the body's `(` is a word of its own, `rm` after it
                    // the body's first command.
                    self.push(b'(');
                    self.i += 1;
                    self.end_word();
                }
                b'(' if self.word.is_none() && self.opens_arithmetic_command() && self.is_arithmetic(self.i) => {
                    // `((…))`, an arithmetic command, or `for ((…))`'s three
                    // expressions: its `<` and `>` compare, no file is
                    // redirected, its `;` ends no command, and its words are
                    // no command's; what its substitutions run is.
                    self.mark();
                    self.i = self.arithmetic(self.i, out) + 1;
                }
                b'(' if self.word.is_none() && self.words.iter().all(precedes_subshell) => {
                    // A subshell: what follows is a command of its own (the reserved words
                    // before it, `then (…)`, `! (…)`, are one of theirs).
                    self.end_command(self.i, out);
                    if !self.in_pattern {
                        self.levels.open_subshell(self.own.len(), out.len());
                    }
                    self.i += 1;
                }
                b')' if self.in_pattern => {
                    self.end_word();
                    if !self.in_pattern {
                        // `esac)`: the case ended, the `)` is read again after it.
                        continue;
                    }
                    // The pattern's words run nothing: only `case WORD in` is kept.
                    let kept = self.words.iter().position(|word| word.text == "in").map_or(0, |at| at + 1);
                    let end = self.words.get(kept.wrapping_sub(1)).map_or(self.i, |word| word.span.end);
                    self.words.truncate(kept);
                    self.end_command(end, out);
                    self.in_pattern = false;
                    self.closed = None;
                    self.i += 1;
                }
                b')' if self.in_substitution && self.levels.at_base() => break,
                b')' => {
                    self.end_command(self.i, out);
                    // Unmatched, it closes no subshell.
                    self.closed = self.levels.close_subshell(out);
                    self.i += 1;
                }
                b'<' | b'>' => self.redirection(b, next, out),
                b'#' if self.word.is_none() => {
                    self.comment_at.get_or_insert(self.i);
                    while self.at(self.i).is_some_and(|b| b != b'\n') {
                        self.i += 1;
                    }
                }
                b'\'' => {
                    self.push_in(b"", Some(Quote::Literal));
                    self.i += 1;
                    self.single_quoted();
                }
                b'$' if next == Some(b'\'') => self.ansi_c_quoted(),
                b'"' => {
                    self.push_in(b"", Some(Quote::Double));
                    self.i += 1;
                    self.double_quoted(out);
                }
                b'\\' => match next {
                    Some(b'\n') => self.i += 2,
                    Some(_) => {
                        // The whole character, so that the quoted part ends on a character boundary.
                        let escaped = self.char_at(self.i + 1);
                        self.push_in(escaped, Some(Quote::Literal));
                        self.i += 1 + escaped.len();
                    }
                    None => {
                        self.push(b'\\');
                        self.i += 1;
                    }
                },
                b'$' if next == Some(b'(') => self.substitution(out, None),
                b'`' => self.backticks(out, None),
                _ => {
                    self.push(b);
                    self.i += 1;
                }
            }
        }
        // Past the end when an unclosed substitution ran to it.
        let end = self.i.min(self.bytes.len());
        self.end_command(end, out);
        self.levels.end(out);
        (self.levels.last_id(), end)
    }

    /// At a `(`: the index of the `)` closing it when only blanks stand
    /// between (`f ( )` defines `f` as `f()` does).
    fn empty_parens_close(&self) -> Option<usize> {
        let close = self.i + 1 + self.bytes[self.i + 1..].iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
        (self.at(close) == Some(b')')).then_some(close)
    }

    /// The bytes of the character starting at `at`.
    fn char_at(&self, at: usize) -> &'a [u8] {
        let len = self.src.get(at..).and_then(|rest| rest.chars().next()).map_or(0, char::len_utf8);
        &self.bytes[at..at + len]
    }

    /// Notes where the current command starts, at its first element.
    fn mark(&mut self) {
        self.cmd_start.get_or_insert(self.i);
    }

    /// Adds a byte written bare to the current word.
    fn push(&mut self, b: u8) {
        self.push_in(&[b], None);
    }

    /// Adds `bytes` to the current word (starting one here), written under
    /// `quote` (`None`: bare); a quoted part goes on the one before it when
    /// that has the same quote and ends where it starts.
    fn push_in(&mut self, bytes: &[u8], quote: Option<Quote>) {
        self.mark();
        let at = self.i;
        let word = self.word.get_or_insert_with(|| Partial { start: at, bytes: Vec::new(), quoted: Vec::new() });
        let from = word.bytes.len();
        word.bytes.extend_from_slice(bytes);
        let to = word.bytes.len();
        let Some(quote) = quote else { return };
        match word.quoted.last_mut() {
            Some(last) if last.quote == quote && last.range.end == from => last.range.end = to,
            _ => word.quoted.push(Quoted { range: from..to, quote }),
        }
    }

    fn end_word(&mut self) {
        let Some(Partial { start, bytes, quoted }) = self.word.take() else { return };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        // An unclosed substitution leaves `i` one past the end.
        let word = Word { span: start..self.i.min(self.bytes.len()), text, quoted };
        match self.pending.take() {
            Some(Pending::Read) => self.redirects.push(Redirect { write: false, target: word }),
            Some(Pending::Write) => self.redirects.push(Redirect { write: true, target: word }),
            Some(Pending::Data) => {}
            None => {
                // `case WORD in` starts a pattern; an `esac` where a pattern would be ends the case.
                let reserved = |word: &Word, text: &str| word.text == text && word.quoted.is_empty();
                let len = self.words.len();
                let opens = reserved(&word, "in")
                    && len >= 2
                    && reserved(&self.words[len - 2], "case")
                    && self.words[..len - 2].iter().all(|word| keyword(word).is_some());
                if opens || (self.in_pattern && reserved(&word, "esac")) {
                    self.in_pattern = opens;
                }
                if !self.in_pattern && reserved(&word, "[[") && self.words.iter().all(|word| keyword(word).is_some()) {
                    self.in_test = true;
                } else if reserved(&word, "]]") {
                    self.in_test = false;
                }
                self.words.push(word);
            }
        }
    }

    fn end_command(&mut self, end: usize, out: &mut Vec<Command>) {
        self.end_word();
        self.pending = None;
        self.in_test = false;
        let start = self.cmd_start.take();
        let end = self.comment_at.take().map_or(end, |at| at.min(end));
        let words = std::mem::take(&mut self.words);
        let redirects = std::mem::take(&mut self.redirects);
        let arithmetic = std::mem::take(&mut self.arithmetic);
        let body_expansions = std::mem::take(&mut self.body_expansions);
        let Some(start) = start else { return };
        if words.is_empty() && redirects.is_empty() && arithmetic.is_empty() && body_expansions.is_empty() {
            return;
        }
        let raw = self.src.get(start..end).unwrap_or_default().trim_end().to_string();
        // Spans in `raw`; a word can end in what its trimming took (`a\` + newline at the line's end).
        let in_raw = |at: usize| at.saturating_sub(start).min(raw.len());
        let in_raw = |w: Word| Word { span: in_raw(w.span.start)..in_raw(w.span.end), ..w };
        let words: Vec<Word> = words.into_iter().map(in_raw).collect();
        let redirects = redirects.into_iter().map(|r| Redirect { target: in_raw(r.target), ..r }).collect();
        let reads_pipe = std::mem::take(&mut self.piped);
        self.continued = false;
        let (env, conditional) = self.levels.place(&words);
        self.own.push(out.len());
        let in_substitution = self.depth > 0;
        out.push(Command {
            raw,
            words,
            redirects,
            reads_pipe,
            writes_pipe: false,
            in_substitution,
            env,
            conditional,
            arithmetic,
            body_expansions,
        });
    }

    /// At a pipe: the command it ended writes into it or, when it ended
    /// none, every command of the subshell that closed right before it
    /// (`(make; make test) 2>&1 | tail`).
    fn mark_pipe_writers(&self, ended: usize, out: &mut [Command]) {
        let first = if self.own.len() > ended {
            ended
        } else if let Some(first) = self.closed {
            first
        } else {
            return;
        };
        for &at in &self.own[first..] {
            out[at].writes_pipe = true;
        }
    }

    fn redirection(&mut self, b: u8, next: Option<u8>, out: &mut Vec<Command>) {
        if next == Some(b'(') {
            // `<(…)` / `>(…)`: a command whose output or input is a file argument.
            let close = self.split_to_close(self.i + 1, out);
            let src = self.src;
            self.push_in(&src.as_bytes()[self.i..(close + 1).min(src.len())], None);
            self.i = close + 1;
            return;
        }
        // A file descriptor number right before the operator (`2>`) is not a word.
        match &self.word {
            Some(word) if !word.bytes.is_empty() && word.bytes.iter().all(u8::is_ascii_digit) => self.word = None,
            _ => self.end_word(),
        }
        self.mark();
        if b == b'<' && next == Some(b'<') {
            if self.at(self.i + 2) == Some(b'<') {
                self.i += 3;
                self.pending = Some(Pending::Data);
            } else {
                self.i += 2;
                self.heredoc_operator();
            }
            return;
        }
        let mut write = b == b'>';
        self.i += 1;
        match (b, self.at(self.i)) {
            (b'>', Some(b'>' | b'|')) => self.i += 1,
            (b'<', Some(b'>')) => {
                write = true;
                self.i += 1;
            }
            _ => {}
        }
        if self.at(self.i) == Some(b'&') {
            // `>&2`, `<&-`: a descriptor, not a file; `>& file` names a file.
            self.i += 1;
            let start = self.i;
            while self.at(self.i).is_some_and(|b| b.is_ascii_digit() || b == b'-') {
                self.i += 1;
            }
            if self.i > start {
                return;
            }
        }
        self.pending = Some(if write { Pending::Write } else { Pending::Read });
    }

    /// After `<<` or `<<-`: reads the delimiter word (quotes removed).
    fn heredoc_operator(&mut self) {
        let mut quoted = false;
        let strip_tabs = self.at(self.i) == Some(b'-');
        if strip_tabs {
            self.i += 1;
        }
        while matches!(self.at(self.i), Some(b' ' | b'\t')) {
            self.i += 1;
        }
        let mut delimiter = Vec::new();
        let mut quote = None;
        while let Some(b) = self.at(self.i) {
            match (quote, b) {
                (Some(q), b) if b == q => quote = None,
                (Some(_), b) => delimiter.push(b),
                (None, b'\'' | b'"') => {
                    quote = Some(b);
                    quoted = true;
                }
                (None, b'\\') => quoted = true,
                (None, b' ' | b'\t' | b'\n' | b';' | b'|' | b'&' | b'<' | b'>' | b'(' | b')') => break,
                (None, b) => delimiter.push(b),
            }
            self.i += 1;
        }
        if !delimiter.is_empty() {
            let delimiter = String::from_utf8_lossy(&delimiter).into_owned();
            self.heredocs.push(Heredoc { delimiter, strip_tabs, expands: !quoted });
        }
    }

    /// At the start of a line after heredoc operators: goes past their
    /// bodies, splitting the commands of the substitutions in one whose
    /// delimiter is unquoted (`cat <<E` … `$(cat .env)` … `E` runs `cat
    /// .env`), as the shell expands them.
    fn heredoc_bodies(&mut self, out: &mut Vec<Command>) {
        for Heredoc { delimiter, strip_tabs, expands } in std::mem::take(&mut self.heredocs) {
            let body = self.i;
            let mut end = self.i;
            while self.i < self.bytes.len() {
                let rest = &self.src[self.i..];
                let (line, advance) = match rest.find('\n') {
                    Some(n) => (&rest[..n], n + 1),
                    None => (rest, rest.len()),
                };
                self.i += advance;
                let line = if strip_tabs { line.trim_start_matches('\t') } else { line };
                if line.trim_end_matches('\r') == delimiter {
                    break;
                }
                end = self.i;
            }
            if expands {
                let after = self.i;
                self.body_substitutions(body, end, out);
                self.i = after;
                // The body is the command's that opened it, which has ended.
                let arithmetic = std::mem::take(&mut self.arithmetic);
                let expansions = std::mem::take(&mut self.body_expansions);
                if let Some(command) = self.own.last().and_then(|&at| out.get_mut(at)) {
                    command.arithmetic.extend(arithmetic);
                    command.body_expansions.extend(expansions);
                }
            }
        }
    }

    /// All of `src` expanded (see [`crate::split_expanded`]).
    pub(crate) fn expand(mut self, out: &mut Vec<Command>) {
        self.body_substitutions(0, self.src.len(), out);
        out.push(Command {
            raw: self.src.to_string(),
            words: Vec::new(),
            redirects: Vec::new(),
            reads_pipe: false,
            writes_pipe: false,
            in_substitution: false,
            env: Vec::new(),
            conditional: false,
            arithmetic: self.arithmetic,
            body_expansions: self.body_expansions,
        });
    }

    /// Splits the commands of the substitutions between `start` and `end`,
    /// text expanded as in double quotes (a `\` keeps the next byte).
    fn body_substitutions(&mut self, start: usize, end: usize, out: &mut Vec<Command>) {
        let mut i = start;
        while i < end {
            i = match (self.at(i), self.at(i + 1)) {
                (Some(b'\\'), _) => i + 2,
                (Some(b'$'), Some(b'{' | b'[')) => {
                    // An expansion evaluating what may run a command (a subscript, an offset, an
                    // indirection, a transformation), kept for the readers of its arithmetic.
                    let (open, close) = if self.at(i + 1) == Some(b'{') { (b'{', b'}') } else { (b'[', b']') };
                    let mut depth = 0usize;
                    let mut at = i + 1;
                    while at < end {
                        match self.at(at) {
                            Some(b) if b == open => depth += 1,
                            Some(b) if b == close => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        at += 1;
                    }
                    let text = self.src.get(i..(at + 1).min(end)).unwrap_or_default();
                    let inner = text.get(2..).unwrap_or_default();
                    let range =
                        inner.split_once(':').is_some_and(|(_, range)| !range.starts_with(['-', '=', '+', '?']));
                    let evaluates = open == b'[' || inner.starts_with('!') || inner.contains(['[', '@']) || range;
                    if evaluates {
                        self.body_expansions.push(text.to_string());
                    }
                    i + 2
                }
                (Some(b'$'), Some(b'(')) if self.is_arithmetic(i + 1) => self.arithmetic(i + 1, out) + 1,
                (Some(b'$'), Some(b'(')) => self.split_to_close(i + 1, out) + 1,
                (Some(b'`'), _) => self.backtick_commands(i, out) + 1,
                _ => i + 1,
            };
        }
    }

    /// After the opening quote.
    fn single_quoted(&mut self) {
        while let Some(b) = self.at(self.i) {
            self.i += 1;
            match b {
                b'\'' => return,
                _ => self.push_in(&[b], Some(Quote::Literal)),
            }
        }
    }

    /// At `$'`: single-quoted with backslash escapes, decoded. One that
    /// makes what no text holds (see [`ansi_c::decode`]) leaves the part
    /// as written and bare, so its `$` marks the word as known only when
    /// it runs.
    fn ansi_c_quoted(&mut self) {
        let start = self.i;
        let mut end = start + 2;
        let mut body_end = None;
        while let Some(b) = self.at(end) {
            end += 1;
            match b {
                b'\'' => {
                    body_end = Some(end - 1);
                    break;
                }
                b'\\' if self.at(end).is_some() => end += 1,
                _ => {}
            }
        }
        let body = &self.bytes[start + 2..body_end.unwrap_or(end)];
        match ansi_c::decode(body) {
            Some(text) => self.push_in(&text, Some(Quote::Literal)),
            None => {
                let written = self.bytes[start..end].to_vec();
                self.push_in(&written, None);
            }
        }
        self.i = end;
    }

    /// After the opening quote: `$(…)` and backticks still run in here.
    fn double_quoted(&mut self, out: &mut Vec<Command>) {
        while let Some(b) = self.at(self.i) {
            let next = self.at(self.i + 1);
            match b {
                b'"' => {
                    self.i += 1;
                    return;
                }
                b'\\' => match next {
                    Some(b'\n') => self.i += 2,
                    Some(escaped @ (b'"' | b'\\' | b'$' | b'`')) => {
                        self.push_in(&[escaped], Some(Quote::Literal));
                        self.i += 2;
                    }
                    _ => {
                        self.push_in(b"\\", Some(Quote::Double));
                        self.i += 1;
                    }
                },
                b'$' if next == Some(b'(') => self.substitution(out, Some(Quote::Double)),
                b'`' => self.backticks(out, Some(Quote::Double)),
                _ => {
                    self.push_in(&[b], Some(Quote::Double));
                    self.i += 1;
                }
            }
        }
    }

    /// At `$(`: the inner text is split too (not for `$((…))`, arithmetic),
    /// and the whole, as written, stays part of the current word (under
    /// `quote`, the double quotes it is in).
    fn substitution(&mut self, out: &mut Vec<Command>, quote: Option<Quote>) {
        let close = if self.is_arithmetic(self.i + 1) {
            self.arithmetic(self.i + 1, out)
        } else {
            self.split_to_close(self.i + 1, out)
        };
        let src = self.src;
        self.push_in(&src.as_bytes()[self.i..(close + 1).min(src.len())], quote);
        self.i = close + 1;
    }

    /// Whether a `((` here starts an arithmetic command: the words before it
    /// are reserved words a command may follow (`if`, `then`, `!`…), or
    /// those and `for`.
    fn opens_arithmetic_command(&self) -> bool {
        let words = match self.words.split_last() {
            Some((last, before)) if last.text == "for" && last.quoted.is_empty() => before,
            _ => &self.words,
        };
        words.iter().all(precedes_subshell)
    }

    /// Whether the `(` at `open` and the one after it open arithmetic: the
    /// inner closes right before the outer (`((cat .env) )` runs a
    /// subshell, as bash reads it).
    fn is_arithmetic(&self, open: usize) -> bool {
        self.at(open + 1) == Some(b'(') && self.at(self.find_close(open + 1) + 1) == Some(b')')
    }

    /// The index of the `)` closing the arithmetic whose outer `(` is at
    /// `open`; the commands of its substitutions are split, as they run
    /// (`$(( $(rm x) + 1 ))`).
    fn arithmetic(&mut self, open: usize, out: &mut Vec<Command>) -> usize {
        self.arithmetic_in(open, out, 0)
    }

    /// [`Splitter::arithmetic`] for one `nesting` arithmetic expansions
    /// deep in another. Its text is part of the outermost's, so only that
    /// is kept; past [`MAX_ARITHMETIC_NESTING`] the substitutions are not
    /// split (each level is a call of its own, and rescans the rest of the
    /// text for its close), left to the readers of the outermost's text.
    fn arithmetic_in(&mut self, open: usize, out: &mut Vec<Command>, nesting: usize) -> usize {
        let close = self.find_close(open);
        if nesting == 0 {
            let text = self.src.get(open + 2..close.saturating_sub(1).max(open + 2)).unwrap_or_default();
            self.arithmetic.push(text.to_string());
        }
        let mut i = open + 2;
        while i < close {
            i = match (self.at(i), self.at(i + 1)) {
                (Some(b'$'), Some(b'(')) if nesting >= MAX_ARITHMETIC_NESTING => self.find_close(i + 1) + 1,
                (Some(b'$'), Some(b'(')) if self.is_arithmetic(i + 1) => {
                    self.arithmetic_in(i + 1, out, nesting + 1) + 1
                }
                (Some(b'$'), Some(b'(')) => self.split_to_close(i + 1, out) + 1,
                (Some(b'`'), _) => self.backtick_commands(i, out) + 1,
                _ => i + 1,
            };
        }
        close
    }

    fn backticks(&mut self, out: &mut Vec<Command>, quote: Option<Quote>) {
        let close = self.backtick_commands(self.i, out);
        let src = self.src;
        self.push_in(&src.as_bytes()[self.i..(close + 1).min(src.len())], quote);
        self.i = close + 1;
    }

    /// Splits the commands between the backtick at `open` and the one
    /// closing it; the latter's index (the end of the line when none does).
    fn backtick_commands(&mut self, open: usize, out: &mut Vec<Command>) -> usize {
        let mut close = open + 1;
        while let Some(b) = self.at(close) {
            match b {
                b'\\' => close += 2,
                b'`' => break,
                _ => close += 1,
            }
        }
        let close = close.min(self.bytes.len());
        if self.depth < MAX_DEPTH {
            let inner = self.src[open + 1..close].replace("\\`", "`");
            self.nested(&inner, out);
        }
        close
    }

    /// Splits the commands after the `(` at `open` (of `$(`, `<(`, `>(`)
    /// up to the `)` closing it, which it finds as the shell does (a case
    /// pattern's `)`, one in a comment or a heredoc close nothing); its
    /// index. Past the nesting followed, the `)` is found by counting.
    fn split_to_close(&mut self, open: usize, out: &mut Vec<Command>) -> usize {
        let Some(rest) = self.src.get(open + 1..).filter(|_| self.depth < MAX_DEPTH) else {
            return self.find_close(open);
        };
        let (env, last_id) = self.levels.nested_env();
        let mut inner = Splitter::new(rest, self.depth + 1, env, last_id, out.len());
        inner.in_substitution = true;
        let (last_id, end) = inner.run(out);
        self.levels.ids_used_to(last_id);
        open + 1 + end
    }

    /// Splits a substitution's text, run in an environment of its own.
    fn nested(&mut self, inner: &str, out: &mut Vec<Command>) {
        let (env, last_id) = self.levels.nested_env();
        let (last_id, _) = Splitter::new(inner, self.depth + 1, env, last_id, out.len()).run(out);
        self.levels.ids_used_to(last_id);
    }

    /// The index of the `)` closing the `(` at `open` by counting, skipping
    /// quoted text (for arithmetic, and past the nesting followed);
    /// the end of the line when it is never closed.
    fn find_close(&self, open: usize) -> usize {
        let mut depth = 0usize;
        let mut i = open;
        while let Some(b) = self.at(i) {
            match b {
                b'(' => depth += 1,
                b')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return i;
                    }
                }
                b'\\' => i += 1,
                b'\'' => {
                    i += 1;
                    while self.at(i).is_some_and(|b| b != b'\'') {
                        i += 1;
                    }
                }
                b'"' => {
                    i += 1;
                    while let Some(b) = self.at(i) {
                        match b {
                            b'\\' => i += 1,
                            b'"' => break,
                            _ => {}
                        }
                        i += 1;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        self.bytes.len()
    }
}
