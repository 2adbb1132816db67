//! Comments of the languages without a grammar here (PHP, Kotlin, Swift, Scala, Dart, Groovy,
//! Lua, shell), found by a scan of their strings and comments: the aggressive view of such a file
//! was the file itself ("no comment syntax known"). A string's text (with what its interpolations
//! hold), a heredoc, PHP's text outside `<?php … ?>` and a Lua long string are literals, kept byte
//! for byte. Where the scan cannot be sure (a string or comment left open, a quote that ends no
//! string on its line where strings end there), nothing is removed: the caller says why.

use super::Region;

/// The deepest interpolation read (`"${"${…}"}"`), so a hostile file cannot exhaust the stack.
const MAX_NESTING: usize = 32;

/// How a language writes comments and strings.
struct Syntax {
    /// Line comments: `//`, Lua's `--`.
    line: &'static [&'static str],
    /// A block comment's ends, and whether one nests in another (Kotlin, Swift, Scala, Dart).
    block: Option<(&'static str, &'static str)>,
    nested: bool,
    /// `#` starts a comment: PHP's (not its `#[` attributes), or shell's at a word's start.
    hash: Hash,
    /// The quotes of strings, and the triple quotes of strings over lines.
    quotes: &'static [u8],
    triple: &'static [&'static str],
    /// The quotes whose strings take no escapes (shell's `'`).
    raw: &'static [u8],
    /// What opens code inside a string (`${`, Swift's `\(`, PHP's `{$`, shell's `$(`) and the
    /// byte that closes it.
    interpolations: &'static [(&'static str, u8)],
    /// Whether a one-quote string may go on over lines (PHP, shell).
    spans_lines: bool,
    heredoc: Heredoc,
    /// Lua's long brackets, `[[ … ]]` and `--[==[ … ]==]`.
    long_brackets: bool,
    /// PHP: the file is text outside `<?php … ?>`.
    tags: bool,
    /// Shell: a backslash outside quotes escapes the next byte.
    escapes_in_code: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Hash {
    No,
    Php,
    ShellWord,
}

#[derive(Clone, Copy, PartialEq)]
enum Heredoc {
    No,
    /// `<<<EOT` / `<<<'EOT'`, ended by a line starting with `EOT`.
    Php,
    /// `<<EOF`, `<<-EOF`, `<<'EOF'`, ended by a line that is `EOF`.
    Shell,
}

const C_LIKE: Syntax = Syntax {
    line: &["//"],
    block: Some(("/*", "*/")),
    nested: true,
    hash: Hash::No,
    quotes: b"\"'",
    triple: &["\"\"\"", "'''"],
    raw: b"",
    interpolations: &[("${", b'}')],
    spans_lines: false,
    heredoc: Heredoc::No,
    long_brackets: false,
    tags: false,
    escapes_in_code: false,
};

/// The syntax of files with `extension`, for those this module reads.
fn syntax(extension: &str) -> Option<Syntax> {
    Some(match extension {
        "kt" | "kts" | "scala" | "sc" | "dart" => C_LIKE,
        // Swift's `'` is no quote; its interpolation is `\(…)`.
        "swift" => Syntax { quotes: b"\"", triple: &["\"\"\""], interpolations: &[("\\(", b')')], ..C_LIKE },
        // Groovy's block comments do not nest.
        "groovy" | "gradle" => Syntax { nested: false, ..C_LIKE },
        "php" => Syntax {
            nested: false,
            hash: Hash::Php,
            triple: &[],
            interpolations: &[("{$", b'}'), ("${", b'}')],
            spans_lines: true,
            heredoc: Heredoc::Php,
            tags: true,
            quotes: b"\"'`",
            ..C_LIKE
        },
        "lua" => Syntax {
            line: &["--"],
            block: None,
            nested: false,
            triple: &[],
            interpolations: &[],
            long_brackets: true,
            ..C_LIKE
        },
        "sh" | "bash" | "zsh" | "ksh" => Syntax {
            line: &[],
            block: None,
            nested: false,
            hash: Hash::ShellWord,
            quotes: b"\"'`",
            triple: &[],
            raw: b"'",
            interpolations: &[("$(", b')'), ("${", b'}')],
            spans_lines: true,
            heredoc: Heredoc::Shell,
            long_brackets: false,
            tags: false,
            escapes_in_code: true,
        },
        _ => return None,
    })
}

/// The comments and literals of `source`, outermost, in order; `Err` says why the scan is unsure.
pub(crate) fn regions(extension: &str, source: &str) -> Result<Vec<Region>, String> {
    let syntax = syntax(extension).ok_or_else(|| "no comment syntax known".to_string())?;
    let mut scanner = Scanner {
        text: source.as_bytes(),
        at: 0,
        syntax,
        regions: Vec::new(),
        inside: 0,
        heredocs: Vec::new(),
        parens: Vec::new(),
        substitution_end: None,
    };
    if scanner.syntax.tags {
        scanner.outside_tags();
    }
    match scanner.code(None) {
        Ok(()) => Ok(scanner.regions),
        Err(unsure) => Err(format!("comments not removed ({unsure})")),
    }
}

struct Scanner<'s> {
    text: &'s [u8],
    at: usize,
    syntax: Syntax,
    regions: Vec<Region>,
    /// How many literals the scan is inside (an interpolation's code): only the outermost is a
    /// region.
    inside: usize,
    /// Shell heredocs opened on the current line: their words and whether tabs before the word
    /// may indent its last line (`<<-`), read from the next line on.
    heredocs: Vec<(Vec<u8>, bool)>,
    /// Shell: for each `(` open in code, whether a `$` opened it (a command or arithmetic
    /// substitution, `$(…)`, `$((…))`), and where the last `)` that closed a substitution is.
    parens: Vec<bool>,
    substitution_end: Option<usize>,
}

impl Scanner<'_> {
    fn rest(&self) -> &[u8] {
        &self.text[self.at..]
    }

    fn line_number(&self, at: usize) -> usize {
        self.text[..at].iter().filter(|&&b| b == b'\n').count() + 1
    }

    fn push(&mut self, start: usize, comment: bool) {
        if self.inside == 0 {
            self.regions.push(Region { start, end: self.at, comment });
        }
    }

    /// Code up to `close` (an interpolation's end, at the same nesting), or to the end.
    fn code(&mut self, close: Option<u8>) -> Result<(), String> {
        let opener = close.map(|close| match close {
            b')' => b'(',
            _ => b'{',
        });
        let mut depth = 0usize;
        while self.at < self.text.len() {
            let byte = self.text[self.at];
            if Some(byte) == close {
                if depth == 0 {
                    self.at += 1;
                    return Ok(());
                }
                depth -= 1;
            } else if Some(byte) == opener {
                depth += 1;
            }
            if !self.token()? {
                if self.syntax.hash == Hash::ShellWord {
                    self.shell_paren(self.at);
                }
                self.at += 1;
            }
        }
        match close {
            Some(_) => Err("an interpolation is left open".to_string()),
            None => Ok(()),
        }
    }

    /// Reads a comment, literal or escape at the scan's place; `false` when none starts there.
    fn token(&mut self) -> Result<bool, String> {
        let start = self.at;
        let rest = self.rest();
        let syntax = &self.syntax;
        if rest[0] == b'\n' && !self.heredocs.is_empty() {
            self.at += 1;
            self.heredoc_bodies()?;
            return Ok(true);
        }
        if syntax.tags && rest.starts_with(b"?>") {
            self.at += 2;
            self.outside_tags();
            return Ok(true);
        }
        // Shell's `$'…'` takes escapes (`$'it\'s'`), unlike its `'…'`.
        if syntax.escapes_in_code && rest.starts_with(b"$'") {
            self.at += 2;
            self.string(b"'", true, true)?;
            self.push(start, false);
            return Ok(true);
        }
        if syntax.escapes_in_code && rest[0] == b'\\' {
            self.at = (self.at + 2).min(self.text.len());
            return Ok(true);
        }
        if syntax.long_brackets
            && let Some(level) = rest.strip_prefix(b"--").and_then(long_bracket)
        {
            self.at += 2;
            self.long_string(level, start, true)?;
            return Ok(true);
        }
        if syntax.long_brackets
            && let Some(level) = long_bracket(rest)
        {
            self.long_string(level, start, false)?;
            return Ok(true);
        }
        if let Some((open, end)) = syntax.block.filter(|(open, _)| rest.starts_with(open.as_bytes())) {
            self.block_comment(open, end)?;
            self.push(start, true);
            return Ok(true);
        }
        let hash = match syntax.hash {
            Hash::No => false,
            Hash::Php => rest[0] == b'#' && rest.get(1) != Some(&b'['),
            Hash::ShellWord => rest[0] == b'#' && self.starts_shell_word(start),
        };
        if hash || syntax.line.iter().any(|line| rest.starts_with(line.as_bytes())) {
            self.line_comment();
            self.push(start, true);
            return Ok(true);
        }
        if syntax.heredoc != Heredoc::No && rest.starts_with(b"<<") {
            return self.heredoc_start();
        }
        if let Some(triple) = syntax.triple.iter().find(|triple| rest.starts_with(triple.as_bytes())) {
            self.at += 3;
            self.string(triple.as_bytes(), true, true)?;
            self.push(start, false);
            return Ok(true);
        }
        if syntax.quotes.contains(&rest[0]) {
            let quote = rest[0];
            self.at += 1;
            let escapes = !syntax.raw.contains(&quote);
            self.string(&[quote], syntax.spans_lines, escapes)?;
            self.push(start, false);
            return Ok(true);
        }
        Ok(false)
    }

    /// Whether a shell word starts at `at`, where a `#` starts a comment: after a blank or an
    /// operator (`;`, `&`, `|`, a subshell's or a case pattern's `)`), not inside a word (`a#b`,
    /// `16#ff`, `${#x}`, `$#`), nor after the `)` that ends a substitution, which the word goes on
    /// past (`$(date +%s)#tag` is one word).
    fn starts_shell_word(&self, at: usize) -> bool {
        let Some(&before) = at.checked_sub(1).map(|before| &self.text[before]) else { return true };
        match before {
            b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' => true,
            b')' => self.substitution_end != Some(at - 1),
            _ => false,
        }
    }

    /// Shell: notes a `(` or `)` at `at` in code, to know which `)` ends a substitution.
    fn shell_paren(&mut self, at: usize) {
        match self.text[at] {
            b'(' => {
                let substitution = at > 0 && self.text[at - 1] == b'$';
                self.parens.push(substitution);
            }
            b')' if self.parens.pop() == Some(true) => self.substitution_end = Some(at),
            _ => {}
        }
    }

    /// A string's text after its opening quote, through its closing `quote`; `escapes`: whether
    /// a backslash escapes and interpolations are read.
    fn string(&mut self, quote: &[u8], over_lines: bool, escapes: bool) -> Result<(), String> {
        let opened = self.at;
        while self.at < self.text.len() {
            let rest = self.rest();
            if rest.starts_with(quote) {
                self.at += quote.len();
                return Ok(());
            }
            if escapes
                && let Some((open, close)) =
                    self.syntax.interpolations.iter().find(|(open, _)| rest.starts_with(open.as_bytes()))
            {
                self.at += open.len();
                if self.inside == MAX_NESTING {
                    return Err(format!("interpolations are nested past {MAX_NESTING}"));
                }
                self.inside += 1;
                let read = self.code(Some(*close));
                self.inside -= 1;
                read?;
                continue;
            }
            match rest[0] {
                b'\\' if escapes => self.at += 2,
                b'\n' if !over_lines => {
                    return Err(format!("a string on line {} ends no string there", self.line_number(opened)));
                }
                _ => self.at += 1,
            }
        }
        Err(format!("a string on line {} is left open", self.line_number(opened)))
    }

    fn line_comment(&mut self) {
        while self.at < self.text.len() && self.text[self.at] != b'\n' {
            // PHP's `?>` ends a line comment.
            if self.syntax.tags && self.rest().starts_with(b"?>") {
                return;
            }
            self.at += 1;
        }
    }

    fn block_comment(&mut self, open: &str, close: &str) -> Result<(), String> {
        let opened = self.at;
        let mut depth = 0;
        while self.at < self.text.len() {
            let rest = self.rest();
            if rest.starts_with(close.as_bytes()) {
                self.at += close.len();
                depth -= 1;
                if depth == 0 {
                    return Ok(());
                }
            } else if rest.starts_with(open.as_bytes()) && (depth == 0 || self.syntax.nested) {
                self.at += open.len();
                depth += 1;
            } else {
                self.at += 1;
            }
        }
        Err(format!("a comment on line {} is left open", self.line_number(opened)))
    }

    /// Lua's long string or comment of `level` `=`s, from its `[`.
    fn long_string(&mut self, level: usize, start: usize, comment: bool) -> Result<(), String> {
        let close = [b"]".as_slice(), &b"=".repeat(level), b"]"].concat();
        let body = self.at + level + 2;
        match self.text[body..].windows(close.len()).position(|window| window == close) {
            Some(end) => {
                self.at = body + end + close.len();
                self.push(start, comment);
                Ok(())
            }
            None => Err(format!("a long bracket on line {} is left open", self.line_number(start))),
        }
    }

    /// PHP's text before `<?php` (or `<?=`, `<?`), a literal.
    fn outside_tags(&mut self) {
        let start = self.at;
        self.at = match self.rest().windows(2).position(|window| window == b"<?") {
            Some(open) => self.at + open,
            None => self.text.len(),
        };
        if self.at > start {
            self.push(start, false);
        }
        if self.at < self.text.len() {
            self.at += 2;
        }
    }

    /// A heredoc's opening `<<`: PHP's body follows at once; a shell's after the line.
    fn heredoc_start(&mut self) -> Result<bool, String> {
        let start = self.at;
        let php = self.syntax.heredoc == Heredoc::Php;
        let mut at = self.at + 2;
        if php {
            if self.text.get(at) != Some(&b'<') {
                return Ok(false);
            }
            at += 1;
        } else if self.text.get(at) == Some(&b'<') {
            // Bash's here-string, `<<<word`.
            self.at += 3;
            return Ok(true);
        }
        let strip_tabs = !php && self.text.get(at) == Some(&b'-');
        if strip_tabs || (!php && self.text.get(at) == Some(&b'~')) {
            at += 1;
        }
        while matches!(self.text.get(at), Some(b' ' | b'\t')) {
            at += 1;
        }
        let quote = self.text.get(at).copied().filter(|b| matches!(b, b'\'' | b'"'));
        if quote.is_some() {
            at += 1;
        }
        let word_start = at;
        while self.text.get(at).is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_') {
            at += 1;
        }
        if at == word_start {
            // `a << 2`, `$x << $y`: a shift.
            self.at += 2;
            return Ok(true);
        }
        let word = self.text[word_start..at].to_vec();
        if quote.is_some() {
            at += 1;
        }
        self.at = at;
        if !php {
            self.heredocs.push((word, strip_tabs));
            return Ok(true);
        }
        // PHP's body runs from the next line to the line that starts with the word (indented or
        // not), which `;`, `,` or `)` may follow.
        let ends = |line: &[u8]| {
            let line = line.trim_ascii_start();
            line.starts_with(&word) && !line.get(word.len()).is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
        };
        let next_line = self.rest().iter().position(|&b| b == b'\n').map(|newline| self.at + newline + 1);
        let Some(end) = next_line.and_then(|next_line| self.terminator(next_line, ends)) else {
            return Err(format!("a heredoc on line {} is left open", self.line_number(start)));
        };
        self.at = end;
        self.push(start, false);
        Ok(true)
    }

    /// The shell heredocs opened on the line just ended: their bodies, one literal.
    fn heredoc_bodies(&mut self) -> Result<(), String> {
        let start = self.at;
        for (word, strip_tabs) in std::mem::take(&mut self.heredocs) {
            let ends = |line: &[u8]| (if strip_tabs { without_tabs(line) } else { line }) == word.as_slice();
            let Some(end) = self.terminator(self.at, ends) else {
                return Err(format!("a heredoc before line {} is left open", self.line_number(start)));
            };
            self.at = end;
        }
        self.push(start, false);
        Ok(())
    }

    /// The end of the first line from `from` (a line's start) that `ends` the heredoc.
    fn terminator(&self, from: usize, ends: impl Fn(&[u8]) -> bool) -> Option<usize> {
        let mut line_start = from;
        while line_start < self.text.len() {
            let line_end =
                self.text[line_start..].iter().position(|&b| b == b'\n').map_or(self.text.len(), |n| line_start + n);
            if ends(self.text[line_start..line_end].strip_suffix(b"\r").unwrap_or(&self.text[line_start..line_end])) {
                return Some(line_end);
            }
            line_start = line_end + 1;
        }
        None
    }
}

/// The level of a Lua long bracket opening `text` (`[[` 0, `[==[` 2), if one does.
fn long_bracket(text: &[u8]) -> Option<usize> {
    let rest = text.strip_prefix(b"[")?;
    let level = rest.iter().take_while(|&&b| b == b'=').count();
    (rest.get(level) == Some(&b'[')).then_some(level)
}

/// `line` without the tabs that indent it (a `<<-` heredoc's last line).
fn without_tabs(line: &[u8]) -> &[u8] {
    &line[line.iter().take_while(|&&b| b == b'\t').count()..]
}

#[cfg(test)]
mod tests {
    use crate::aggressive::without_grammar;

    /// Per extension: a source with comments (each holding `CMT`) and literals that look like
    /// comments; the texts that must survive whole.
    const CASES: &[(&str, &str, &[&str])] = &[
        (
            "php",
            "<html>  <!-- kept -->\n<?php\n// CMT\n# CMT hash\n#[Route('/a')]\nfunction f($a) { /* CMT */\n  $s = \"// not {$a['#x']} /* no */\";\n  $t = 'it\\'s # not';\n  $h = <<<EOT\n  # not a comment\n  // nor this\n  EOT;\n  return $a; // CMT ?><b>  # kept </b>\n<?php\n/** CMT doc */\nclass A {}\n",
            &[
                "<html>  <!-- kept -->",
                "#[Route('/a')]",
                "\"// not {$a['#x']} /* no */\"",
                "'it\\'s # not'",
                "<<<EOT\n  # not a comment\n  // nor this\n  EOT;",
                "?><b>  # kept </b>\n<?php",
                "class A {}",
            ],
        ),
        (
            "kt",
            "/* CMT /* nested CMT */ still CMT */\nfun f(a: Int) = \"// ${g(\"/* x */\")} \" // CMT\nval c = '\"'\nval r = \"\"\"\n  // raw\n\"\"\"\n",
            &["fun f(a: Int) = \"// ${g(\"/* x */\")} \"", "val c = '\"'", "\"\"\"\n  // raw\n\"\"\""],
        ),
        (
            "swift",
            "// CMT\nlet s = \"\\(f(\"//\")) x\" /* CMT */\nlet c = 1\n",
            &["let s = \"\\(f(\"//\")) x\"", "let c = 1"],
        ),
        ("groovy", "/* CMT /* */\ndef s = 'http://x' // CMT\n", &["def s = 'http://x'"]),
        (
            "lua",
            "-- CMT\n--[==[ CMT\n]] still CMT ]==]\nlocal s = [[ -- not ]] .. \"--no\" -- CMT\nlocal t = a[b[1]]\n",
            &["local s = [[ -- not ]] .. \"--no\"", "local t = a[b[1]]"],
        ),
        (
            "sh",
            "#!/bin/sh\n# CMT\necho \"a # b $(echo \"# c\")\" 'd # e' a#b ${#x} # CMT\ncat <<-EOF >out\n\t# kept\n\tEOF\necho $'it\\'s # x'\n\
             echo $(( 16#ff )) ${x#pre} ${x##*/} $# $(date +%s)#tag $((2#1))#n (echo)# CMT\ncase $1 in\n  a)# CMT\n    :;;\nesac\n",
            &[
                "#!/bin/sh\necho",
                "echo \"a # b $(echo \"# c\")\" 'd # e' a#b ${#x}\n",
                "echo $(( 16#ff )) ${x#pre} ${x##*/} $# $(date +%s)#tag $((2#1))#n (echo)\n",
                "  a)\n",
                "cat <<-EOF >out\n\t# kept\n\tEOF",
                "$'it\\'s # x'",
            ],
        ),
    ];

    #[test]
    fn comments_go_and_literals_stay() {
        for (extension, source, kept) in CASES {
            let view = without_grammar(extension, source).unwrap_or_else(|e| panic!("{extension}: {e}"));
            assert!(!view.contains("CMT"), "{extension}: a comment is left:\n{view}");
            for text in *kept {
                assert!(view.contains(text), "{extension}: `{text}` is not kept whole:\n{view}");
            }
            assert!(!view.contains("\n\n"), "{extension}: a blank line is left:\n{view}");
        }
    }

    #[test]
    fn an_unsure_scan_removes_nothing() {
        let unsure = [
            ("kt", "val a = 'sym\n// x\n"),
            ("php", "<?php\n$s = \"open\n"),
            ("lua", "x = [[ open\n"),
            ("sh", "cat <<EOF\n# body\n"),
            ("scala", "/* open\n"),
        ];
        for (extension, source) in unsure {
            assert!(without_grammar(extension, source).is_err(), "{extension}: {source}");
        }
        assert_eq!(without_grammar("pl", "# x\n").unwrap_err(), "no comment syntax known");
        let deep = format!("val s = {}1{}\n", "\"${".repeat(100), "}\"".repeat(100));
        assert!(without_grammar("kt", &deep).unwrap_err().contains("nested past"));
    }
}
