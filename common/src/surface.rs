//! Who reads an answer's advice. An agent calling tools is told the tools' parameters
//! (`fresh=true`, `mode=full`); a person or script at `lctx` is told its flags (`--fresh`, `-m
//! full`), which it can type. Only the advice differs: the content is the same.

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Surface {
    Cli,
    /// The default of an in-process caller (tests, benchmarks): the agent's wording.
    #[default]
    Mcp,
}

impl Surface {
    /// How to ask for a read mode: `mode=full`, `-m full`.
    pub fn mode(self, mode: &str) -> String {
        match self {
            Surface::Cli => format!("-m {mode}"),
            Surface::Mcp => format!("mode={mode}"),
        }
    }

    /// How to ask for lines by number: `lines:N-M` is a mode's value an agent passes as such.
    pub fn lines(self) -> &'static str {
        match self {
            Surface::Cli => "-m lines:N-M",
            Surface::Mcp => "lines:N-M",
        }
    }

    /// How to ask for a file's whole content although the session has it.
    pub fn fresh(self) -> &'static str {
        match self {
            Surface::Cli => "--fresh",
            Surface::Mcp => "fresh=true",
        }
    }

    /// How an edit names the text it replaces.
    pub fn old_text(self) -> &'static str {
        match self {
            Surface::Cli => "--old",
            Surface::Mcp => "old_string",
        }
    }

    /// How an edit names the text it writes.
    pub fn new_text(self) -> &'static str {
        match self {
            Surface::Cli => "--new",
            Surface::Mcp => "new_string",
        }
    }

    /// How a repo map is given its budget.
    pub fn max_tokens(self) -> &'static str {
        match self {
            Surface::Cli => "--max-tokens",
            Surface::Mcp => "max_tokens",
        }
    }

    /// How an edit asks to create a missing file.
    pub fn create(self) -> &'static str {
        match self {
            Surface::Cli => "--create",
            Surface::Mcp => "create=true",
        }
    }

    /// How an edit asks to replace every match.
    pub fn replace_all(self) -> &'static str {
        match self {
            Surface::Cli => "--all",
            Surface::Mcp => "replace_all",
        }
    }

    /// Why an edit's line range whose end comes before its start is refused, naming the range as
    /// the reader passed it (in ctx_expand's words for the same mistake).
    pub fn reversed_lines(self, start: u32, end: u32) -> String {
        let range = match self {
            Surface::Cli => format!("--lines {start}-{end} is reversed: give the first line, then the last"),
            Surface::Mcp => format!("start_line {start} is after end_line {end}: the range is reversed"),
        };
        format!("{range} (lines are 1-based, inclusive)")
    }

    /// How to see a fact's values whole: its history.
    pub fn fact_history(self, key: &str) -> String {
        match self {
            Surface::Cli => format!("`lctx knowledge history {}`", lean_ctx_shell_syntax::quote(key)),
            Surface::Mcp => format!("ctx_knowledge action `history` with key `{key}`"),
        }
    }

    /// How to find an archived output by what it holds, when its id is unknown.
    pub fn archive_search(self) -> &'static str {
        match self {
            Surface::Cli => "`lctx expand --search WORDS` (words of the command or its output)",
            Surface::Mcp => "ctx_expand's `search` (words of the command or its output) and no `id`",
        }
    }

    /// How to edit lines by number.
    pub fn edit_lines(self) -> &'static str {
        match self {
            Surface::Cli => "lctx edit --lines N-M",
            Surface::Mcp => "ctx_edit start_line/end_line",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_surface_names_what_its_reader_can_type() {
        assert_eq!(Surface::Mcp.mode("full"), "mode=full");
        assert_eq!(Surface::Cli.mode("full"), "-m full");
        assert_eq!((Surface::Mcp.fresh(), Surface::Cli.fresh()), ("fresh=true", "--fresh"));
        assert_eq!((Surface::Mcp.lines(), Surface::Cli.lines()), ("lines:N-M", "-m lines:N-M"));
        assert_eq!((Surface::Mcp.old_text(), Surface::Cli.old_text()), ("old_string", "--old"));
        assert_eq!((Surface::Mcp.create(), Surface::Cli.create()), ("create=true", "--create"));
        assert_eq!((Surface::Mcp.replace_all(), Surface::Cli.replace_all()), ("replace_all", "--all"));
        assert_eq!((Surface::Mcp.max_tokens(), Surface::Cli.max_tokens()), ("max_tokens", "--max-tokens"));
        assert!(
            Surface::Mcp.reversed_lines(3, 2).starts_with("start_line 3 is after end_line 2: the range is reversed")
        );
        assert!(Surface::Cli.reversed_lines(3, 2).starts_with("--lines 3-2 is reversed"));
    }
}
