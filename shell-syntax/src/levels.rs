//! Where each command of a line runs, for [`crate::Command::env`] and
//! [`crate::Command::conditional`]: the shell environments nested in the
//! line's own (a subshell, a substitution, a pipeline's stage, a list run
//! in the background), and whether it may be skipped though the commands
//! before it ran (behind `&&` or `||`, inside `if`, `for`, `{ … }`…).
//! What a command sets, a variable or the directory, only the commands
//! after it in its environment see, and only for certain when it could not
//! be skipped.

use crate::{Command, Word};

/// Environments nested at most; deeper commands stay in the last one and
/// are conditional, so what they set is never taken as certain.
pub(crate) const MAX_ENV_DEPTH: usize = 32;

/// Keywords that open a compound command, close one, or stand inside one.
const OPENERS: [&str; 7] = ["if", "while", "until", "for", "select", "case", "{"];
const CLOSERS: [&str; 4] = ["fi", "done", "esac", "}"];
const INSIDE: [&str; 5] = ["then", "else", "elif", "do", "!"];

/// The line's own shell or a subshell `( … )` of it: one level of the
/// scanner, with where its current list and pipeline stage start.
pub(crate) struct Level {
    /// How many of the scanner's own commands came before it.
    pub(crate) own_before: usize,
    /// The length of the environment chain inside it.
    env_len: usize,
    /// Past [`MAX_ENV_DEPTH`]: it has no environment of its own.
    capped: bool,
    /// Where in the output its current list and stage start.
    list_start: usize,
    stage_start: usize,
    /// The current stage reads a pipe: it runs in an environment of its own.
    reads_pipe: bool,
    /// The current list has had `&&` or `||`.
    behind_and_or: bool,
    /// Compound commands open in it, and of them `case … esac`.
    compounds: usize,
    cases: usize,
}

/// The levels of one scanner and the environment chain it is in.
pub(crate) struct Levels {
    stack: Vec<Level>,
    pub(crate) env: Vec<u32>,
    /// The last environment id handed out.
    last_id: u32,
}

impl Levels {
    /// A scanner's levels: its own shell is `env` (a substitution's, or the
    /// line's empty chain) and the ids it hands out follow `last_id`.
    pub(crate) fn new(env: Vec<u32>, last_id: u32, out_len: usize) -> Levels {
        let capped = env.len() >= MAX_ENV_DEPTH;
        let base = Level::new(0, env.len(), capped, out_len);
        Levels { stack: vec![base], env, last_id }
    }

    /// A fresh environment id, nested in `env`, for a substitution's scanner.
    pub(crate) fn nested_env(&mut self) -> (Vec<u32>, u32) {
        let mut env = self.env.clone();
        if env.len() < MAX_ENV_DEPTH {
            env.push(self.new_id());
        }
        (env, self.last_id)
    }

    /// After a substitution's scanner ran: the ids it handed out are taken.
    pub(crate) fn ids_used_to(&mut self, last_id: u32) {
        self.last_id = self.last_id.max(last_id);
    }

    pub(crate) fn last_id(&self) -> u32 {
        self.last_id
    }

    fn new_id(&mut self) -> u32 {
        self.last_id += 1;
        self.last_id
    }

    fn top(&mut self) -> &mut Level {
        self.stack.last_mut().expect("the base level is never popped")
    }

    /// A `case` is open at this level: `;;` ends one of its branches.
    pub(crate) fn in_case(&mut self) -> bool {
        self.top().cases > 0
    }

    pub(crate) fn open_subshell(&mut self, own_len: usize, out_len: usize) {
        let capped = self.top().capped || self.env.len() >= MAX_ENV_DEPTH;
        if !capped {
            let id = self.new_id();
            self.env.push(id);
        }
        self.stack.push(Level::new(own_len, self.env.len(), capped, out_len));
    }

    /// No subshell is open: a `)` here closes none.
    pub(crate) fn at_base(&self) -> bool {
        self.stack.len() == 1
    }

    /// At a `)`: the subshell's level closes (its last stage with it);
    /// `None` for a `)` that closes none.
    pub(crate) fn close_subshell(&mut self, out: &mut [Command]) -> Option<usize> {
        if self.stack.len() == 1 {
            return None;
        }
        self.end_stage(false, out);
        let level = self.stack.pop().expect("more than the base");
        if !level.capped {
            self.env.pop();
        }
        Some(level.own_before)
    }

    /// Where and how a command ending now runs, its words deciding which
    /// compound commands it opens and closes.
    pub(crate) fn place(&mut self, words: &[Word]) -> (Vec<u32>, bool) {
        let (opens, cases, closes, esacs) = compound_keywords(words);
        let env = self.env.clone();
        let level = self.top();
        let conditional = level.capped || level.behind_and_or || level.compounds > 0 || opens > 0;
        level.compounds = (level.compounds + opens).saturating_sub(closes);
        level.cases = (level.cases + cases).saturating_sub(esacs);
        (env, conditional)
    }

    /// At `&&` or `||`: the commands after it in the list may be skipped.
    pub(crate) fn and_or(&mut self, out: &mut [Command]) {
        self.end_stage(false, out);
        self.top().behind_and_or = true;
    }

    /// At `|` or `|&`: the stage before it, and the one after, run in
    /// environments of their own.
    pub(crate) fn pipe(&mut self, out: &mut [Command]) {
        self.end_stage(true, out);
    }

    /// At `;`, a newline, `&` (`background`) or the end: the list ends;
    /// one run in the background runs in an environment of its own.
    pub(crate) fn end_list(&mut self, background: bool, out: &mut [Command]) {
        self.end_stage(false, out);
        let level = self.top();
        let start = level.list_start;
        if background {
            self.detach(start, out);
        }
        let level = self.top();
        level.list_start = out.len();
        level.behind_and_or = false;
    }

    /// At the end of the line: every level's last list ends.
    pub(crate) fn end(&mut self, out: &mut [Command]) {
        while self.close_subshell(out).is_some() {}
        self.end_list(false, out);
    }

    /// The current stage ends, before a pipe when `pipe`: a stage on
    /// either side of a pipe runs in an environment of its own.
    fn end_stage(&mut self, pipe: bool, out: &mut [Command]) {
        let level = self.top();
        let (start, detached) = (level.stage_start, pipe || level.reads_pipe);
        if detached {
            self.detach(start, out);
        }
        let level = self.top();
        level.reads_pipe = pipe;
        level.stage_start = out.len();
    }

    /// The commands from `start` on run in a new environment inside the
    /// current level's: its id goes into each one's chain where the level's
    /// ends. Past [`MAX_ENV_DEPTH`] they are conditional instead.
    fn detach(&mut self, start: usize, out: &mut [Command]) {
        let Some(commands) = out.get_mut(start..).filter(|commands| !commands.is_empty()) else { return };
        let at = self.top().env_len;
        let id = self.new_id();
        for command in commands {
            if command.env.len() >= MAX_ENV_DEPTH || command.env.len() < at {
                command.conditional = true;
            } else {
                command.env.insert(at, id);
            }
        }
    }
}

impl Level {
    fn new(own_before: usize, env_len: usize, capped: bool, out_len: usize) -> Level {
        Level {
            own_before,
            env_len,
            capped,
            list_start: out_len,
            stage_start: out_len,
            reads_pipe: false,
            behind_and_or: false,
            compounds: 0,
            cases: 0,
        }
    }
}

/// The word as a reserved word: unquoted, and one of them.
pub(crate) fn keyword(word: &Word) -> Option<&str> {
    let text = word.text.as_str();
    let reserved = OPENERS.contains(&text) || CLOSERS.contains(&text) || INSIDE.contains(&text);
    (reserved && word.quoted.is_empty()).then_some(text)
}

/// The compound commands a command's words open and close: the keywords
/// it starts with (`if`, `then {`, `done`…), and a function's body
/// (`f() {`, `function f {`). Counted: those opened, of them cases, those
/// closed, of them `esac`.
fn compound_keywords(words: &[Word]) -> (usize, usize, usize, usize) {
    let mut counts = (0, 0, 0, 0);
    let leading = words.iter().map_while(keyword);
    for word in leading {
        if OPENERS.contains(&word) {
            counts.0 += 1;
            counts.1 += usize::from(word == "case");
        } else if CLOSERS.contains(&word) {
            counts.2 += 1;
            counts.3 += usize::from(word == "esac");
        }
    }
    let body = words.iter().enumerate().skip(1).any(|(at, word)| {
        let defines = words[at - 1].text.ends_with("()") || (at >= 2 && words[at - 2].text == "function");
        keyword(word) == Some("{") && defines
    });
    counts.0 += usize::from(body);
    counts
}
