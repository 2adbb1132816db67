//! Every tool lctx-mcp knows, in the order `tools/list` shows them.
//!
//! Descriptions are loaded into the model's context on every turn: they say
//! what the tool does and what is not obvious from the parameter names, and
//! nothing else.

use std::ops::RangeInclusive;

use lctx::capability::{
    gain as gain_cap, graph as graph_cap, impact as impact_cap, memory as memory_cap, related as related_cap,
    search as search_cap, shell as shell_cap,
};
use lean_ctx_common::limits::{MAX_COMMAND_TIMEOUT_MS, MAX_MAP_TOKENS, MAX_RESULTS, MIN_MAP_TOKENS};

use super::Kind::{Bool, Int, List, Map, Matching, Num, OneOf, Ranged, Str, StrOrInt, StrOrList};
use super::{Idempotent, Param, ToolSpec, graph, impact, memory, read, repomap, search, shell};
use crate::profile::Profile::{All, Code, Minimal, Standard};

/// First lines of the server instructions; each advertised tool may add one.
pub const INSTRUCTIONS: &str = "lean-ctx: compact reads, compressed command output, search and memory.";

const fn param(name: &'static str, kind: super::Kind, doc: &'static str) -> Param {
    Param { name, kind, doc, required: false, actions: &[] }
}

const fn required(name: &'static str, kind: super::Kind, doc: &'static str) -> Param {
    Param { name, kind, doc, required: true, actions: &[] }
}

/// A parameter only these values of `action` use.
const fn of(actions: &'static [&'static str], name: &'static str, kind: super::Kind, doc: &'static str) -> Param {
    Param { name, kind, doc, required: false, actions }
}

/// A count whose 0 means the default: anything its field holds.
const COUNT: RangeInclusive<u64> = 0..=u32::MAX as u64;
/// A 1-based line number, or a count that must be at least one.
const FROM_ONE: RangeInclusive<u64> = 1..=u32::MAX as u64;

/// A mode name or a line range. The range's syntax is the reader's to check, and its error says
/// how to write one: stated here exactly, it cost 21 more tokens on every turn.
const READ_MODE: &str = r"^(auto|full|signatures|map|diff|aggressive|reference|lines:[0-9,-]+)$";

pub const TOOLS: &[ToolSpec] = &[
    ToolSpec {
        name: "ctx_read",
        description: "Read files compactly; paths relative to the working directory. Modes:\n\
                      auto (default): full if small; large code → map, large text → its head\n\
                      full: whole file\n\
                      signatures: each definition's signature, incl. public struct fields and macro items\n\
                      map: outline, shorter than signatures (text: headings)\n\
                      diff: changes since this session last had the file\n\
                      aggressive: code without comments and blank lines; plain text as auto\n\
                      reference: one line: lines, tokens, language\n\
                      lines:N-M[,A-B]: exactly those lines\n\
                      A full/auto re-read of a file this session has, unchanged, is a one-line [unchanged] stub; \
                      fresh=true or lines: sends content.",
        hint: "Read files with ctx_read instead of cat or a built-in Read.",
        params: &[
            param("path", Str, ""),
            param("paths", List, "several files at once"),
            param("mode", Matching(READ_MODE), ""),
            param("fresh", Bool, ""),
            param("start_line", Int(FROM_ONE), "1-based; with limit, instead of mode"),
            param("limit", Int(FROM_ONE), "max lines"),
        ],
        profile: Minimal,
        read_only: true,
        idempotent: Idempotent::Always,
        run: read::read,
    },
    ToolSpec {
        name: "ctx_shell",
        description: "Run a command (sh -c) in the project. Output is compressed, keeping errors, failing tests \
                      and [exit:N]; the original is archived for ctx_expand. A non-zero exit is an answer \
                      (exit_code in structured content), not a tool error.",
        hint: "Run commands with ctx_shell instead of a built-in shell.",
        params: &[
            param("command", Str, "required unless background_action"),
            param("raw", Bool, "uncompressed output"),
            param("timeout_ms", Ranged(1..=MAX_COMMAND_TIMEOUT_MS), "default 120000"),
            param("cwd", Str, ""),
            param("env", Map, ""),
            param("run_in_background", Bool, "return a job_id at once"),
            param("background_action", OneOf(&shell_cap::BACKGROUND_ACTION_NAMES), ""),
            param("job_id", StrOrInt, ""),
        ],
        profile: Minimal,
        read_only: false,
        idempotent: Idempotent::Never,
        run: shell::shell,
    },
    ToolSpec {
        name: "ctx_expand",
        description: "The full output ctx_shell shortened, by the id it printed, or archived outputs matching search.",
        hint: "",
        params: &[
            param("id", Str, ""),
            param("start_line", Int(COUNT), ""),
            param("end_line", Int(COUNT), ""),
            param("search", Str, "with id: only lines matching this regex; without: find archived outputs"),
            param("limit", Int(COUNT), ""),
        ],
        profile: Minimal,
        read_only: true,
        idempotent: Idempotent::Always,
        run: shell::expand,
    },
    ToolSpec {
        name: "ctx_search",
        description: "Search contents: regex (default, exact), bm25 (ranked words) or symbol (definitions by name \
                      prefix). Respects .gitignore; hidden paths if named (.github/**).",
        hint: "Search with ctx_search, ctx_glob and ctx_tree instead of grep, find or ls.",
        params: &[
            required("pattern", Str, ""),
            param("action", OneOf(&search_cap::ACTION_NAMES), ""),
            param("path", Str, "file or directory"),
            param("include", StrOrList, "glob, e.g. *.rs"),
            param("exclude", StrOrList, "glob"),
            param("max_results", Int(1..=MAX_RESULTS as u64), "default 50; bm25: 10 files"),
        ],
        profile: Minimal,
        read_only: true,
        idempotent: Idempotent::Always,
        run: search::search,
    },
    ToolSpec {
        name: "ctx_glob",
        description: "Files whose path matches a glob (**/*.ts). Respects .gitignore.",
        hint: "",
        params: &[
            required("pattern", Str, ""),
            param("path", Str, ""),
            param("max_results", Int(1..=MAX_RESULTS as u64), ""),
        ],
        profile: Standard,
        read_only: true,
        idempotent: Idempotent::Always,
        run: search::glob,
    },
    ToolSpec {
        name: "ctx_tree",
        description: "Directory tree with file counts.",
        hint: "",
        params: &[
            param("path", Str, ""),
            param("depth", Int(FROM_ONE), "default 3"),
            param("show_hidden", Bool, ""),
            param("respect_gitignore", Bool, "default true"),
        ],
        profile: Standard,
        read_only: true,
        idempotent: Idempotent::Always,
        run: search::tree,
    },
    ToolSpec {
        name: "ctx_edit",
        description: "Replace old_string with new_string in a file, atomically. old_string must occur once unless \
                      replace_all; create=true writes a new file (old_string empty).",
        hint: "",
        params: &[
            required("path", Str, ""),
            param("old_string", Str, ""),
            required("new_string", Str, ""),
            param("replace_all", Bool, ""),
            param("create", Bool, ""),
            param("start_line", Int(FROM_ONE), "replace these whole lines instead of old_string"),
            param("end_line", Int(FROM_ONE), "default start_line"),
        ],
        profile: Standard,
        read_only: false,
        idempotent: Idempotent::Never,
        run: read::edit,
    },
    ToolSpec {
        name: "ctx_session",
        description: "This session's memory: status, task, finding, decision, next (value = text), handoff (summary \
                      for the next session), list, load (session_id's handoff, else the previous session's).",
        hint: "Record the task, findings and decisions with ctx_session as you go.",
        params: &[
            required("action", OneOf(&memory_cap::SESSION_ACTION_NAMES), ""),
            of(&["task", "finding", "decision", "next"], "value", Str, ""),
            of(&["status", "task", "finding", "decision", "next", "load", "handoff"], "session_id", Str, ""),
            of(&["list", "load", "handoff"], "limit", Int(COUNT), ""),
        ],
        profile: Standard,
        read_only: false,
        idempotent: Idempotent::Actions(&["status", "handoff", "list", "load"]),
        run: memory::session,
    },
    ToolSpec {
        name: "ctx_knowledge",
        description: "Project facts that outlive sessions: remember (key, value; category, confidence 0..1), \
                      recall (query), forget (key), list, history (key).",
        hint: "Keep durable project facts with ctx_knowledge.",
        params: &[
            required("action", OneOf(&memory_cap::KNOWLEDGE_ACTION_NAMES), ""),
            of(&["remember", "forget", "history"], "key", Str, ""),
            of(&["remember"], "value", Str, ""),
            of(&["remember", "recall", "list"], "category", Str, ""),
            of(&["recall"], "query", Str, ""),
            of(&["remember"], "confidence", Num, ""),
            of(&["recall", "list"], "limit", Int(COUNT), ""),
        ],
        profile: Standard,
        read_only: false,
        idempotent: Idempotent::Actions(&["recall", "list", "history"]),
        run: memory::knowledge,
    },
    ToolSpec {
        name: "ctx_gain",
        description: "Tokens lean-ctx saved, from its ledger.",
        hint: "",
        params: &[
            param("period", OneOf(&gain_cap::PERIOD_NAMES), ""),
            param("group_by", OneOf(&gain_cap::GROUP_NAMES), ""),
        ],
        profile: Code,
        read_only: true,
        idempotent: Idempotent::Always,
        run: memory::gain,
    },
    ToolSpec {
        name: "ctx_callgraph",
        description: "Callers or callees of a function, method or type (symbol: name, Type::name), or a call path \
                      (action=trace, from, to). Each call site is file:line with the calling function and how it \
                      was resolved: exact (import, receiver or scope), likely (the only definition of the name), \
                      ambiguous (candidates listed).",
        hint: "",
        params: &[
            param("action", OneOf(&graph_cap::ACTION_NAMES), "default callers"),
            of(&["callers", "callees"], "symbol", Str, ""),
            of(&["callers", "callees"], "file", Str, "only definitions in this file"),
            param("depth", Ranged(1..=graph_cap::MAX_DEPTH as u64), "default 1; trace: 5"),
            of(&["trace"], "from", Str, "trace start"),
            of(&["trace"], "to", Str, "trace end"),
            of(
                &["callers", "callees"],
                "precise",
                Bool,
                "ask the language server (callers, callees); first call may take seconds; falls back",
            ),
        ],
        profile: Code,
        read_only: true,
        idempotent: Idempotent::Always,
        run: graph::callgraph,
    },
    ToolSpec {
        name: "ctx_repomap",
        description: "Where to start in a project: its most central definitions (PageRank over references, \
                      weighted toward what this session's files use), grouped by file as signature lines with \
                      line numbers, within max_tokens. Says what it left out.",
        hint: "",
        params: &[
            param("max_tokens", Ranged(MIN_MAP_TOKENS as u64..=MAX_MAP_TOKENS as u64), "default 1024"),
            param("path", Str, "only this directory or file"),
        ],
        profile: Code,
        read_only: true,
        idempotent: Idempotent::Always,
        run: repomap::repomap,
    },
    ToolSpec {
        name: "ctx_graph",
        description: "Files around a file: related (imports, importers, tests, files changed with it in git), \
                      neighbors (import steps either way, depth 1-3), path (shortest import path to `to`), symbol \
                      (path=file::symbol: definition, uses by file with exact/likely/ambiguous).",
        hint: "",
        params: &[
            param("action", OneOf(&related_cap::ACTION_NAMES), "default related"),
            param("path", Str, "file, or file::symbol"),
            param("file", Str, "same as path"),
            of(&["path"], "to", Str, "path: end file"),
            // Its range depends on the action; the capability names it.
            of(&["neighbors", "path"], "depth", Int(COUNT), "neighbors 1-3"),
        ],
        profile: Code,
        read_only: true,
        idempotent: Idempotent::Always,
        run: impact::graph,
    },
    ToolSpec {
        name: "ctx_impact",
        description: "What a change reaches, ending with the tests to run. analyze: a file's dependents or a \
                      symbol's callers (path=file::symbol); diff: what changed against base (ref or A..B; default \
                      the working tree), its callers and dependents.",
        hint: "",
        params: &[
            param("action", OneOf(&impact_cap::ACTION_NAMES), ""),
            of(&["analyze"], "path", Str, ""),
            param("depth", Ranged(1..=impact_cap::MAX_DEPTH as u64), "default 2"),
            of(&["diff"], "base", Str, ""),
        ],
        profile: Standard,
        read_only: true,
        idempotent: Idempotent::Always,
        run: impact::impact,
    },
    ToolSpec {
        name: "ctx_rules",
        description: "The host's instruction files (nested CLAUDE.md, AGENTS.md, Cursor and Copilot rules) that \
                      apply to a path, and whether this session has them. ctx_read delivers each once anyway.",
        hint: "",
        params: &[param("path", Str, "file or directory; default: the working directory")],
        profile: All,
        read_only: true,
        idempotent: Idempotent::Always,
        run: read::rules,
    },
    ToolSpec {
        name: "shell",
        description: "Alias of ctx_shell for hosts that look for a tool named shell.",
        hint: "",
        params: &[required("command", Str, ""), param("raw", Bool, ""), param("cwd", Str, "")],
        profile: All,
        read_only: false,
        idempotent: Idempotent::Never,
        run: shell::shell,
    },
];
