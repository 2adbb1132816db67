//! Stack frames of node's own code. A crash of `node script.js` or a failing `node --test` prints, under the
//! user's frames, those of node's module loader, test runner and event loop (`at Module._compile
//! (node:internal/modules/cjs/loader:1364:14)`, `Test.run (node:internal/test_runner/test:796:25)`). They say
//! nothing about the failure, yet they are the last lines of a crash, which a failure otherwise shows whole:
//! each run of them is counted on one line instead. The first frame of a stack stays whatever it is (it is
//! where the error was thrown), and so does every frame of the user's code, every line protection would show
//! for its own sake (an error's name, a `file:line`) and a frame that opens the error's properties (`… {`).
//! Only a program's own report is folded (see `Family::folds_node_frames`): in a search's matches or a log
//! printed with `cat`, every frame is data asked for.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::plan::Plan;
use crate::rules;

/// A frame of a JavaScript stack as V8 prints it: `at name (location)` or `at location`.
static FRAME: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(\s+)at (\S.*)$").expect("frame pattern compiles"));

/// The key that opens a TAP diagnostic's stack (node's test runner): its frames follow, indented, without `at`.
static TAP_STACK: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(\s*)stack: \|-$").expect("stack pattern compiles"));

/// A run of node's frames shorter than this is left alone: its note would cost about as much.
const MIN_RUN: usize = 2;

/// Replaces each run of frames of node's own code in a stack, past the stack's first frame, by a count.
pub(crate) fn fold(plan: &mut Plan) {
    for stack in stacks(plan) {
        let own = nodes_own(plan, &stack);
        let mut run: Vec<usize> = Vec::new();
        for (k, &i) in stack.iter().enumerate().skip(1).chain(std::iter::once((usize::MAX, &usize::MAX))) {
            if i != usize::MAX && own[k] {
                run.push(i);
                continue;
            }
            if run.len() >= MIN_RUN {
                let margin = plan.line(run[0]).len() - plan.line(run[0]).trim_start().len();
                let note = format!("{}… {} frames of node's own code not shown", " ".repeat(margin), run.len());
                plan.fold_counted(&run, note);
            }
            run.clear();
        }
    }
}

/// Where a frame's code is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// One of node's modules: `node:internal/…`, `node:async_hooks`, ….
    Node,
    /// V8's built-ins (`new Promise (<anonymous>)`, `Array.map (<anonymous>)`, `Promise.all (index 0)`,
    /// `native`): their own frames say whose code called them only through the frame below.
    BuiltIn,
    /// The program's code, or a frame not known to be anything else.
    Program,
}

/// For each frame of `stack`, whether it is node's own code to fold: a frame of node's modules, or a built-in
/// that node's code called (the frame below it, its caller, is node's own in turn) — `Array.map (<anonymous>)`
/// under the user's function is the user's call and stays, as does a built-in whose caller is not shown. A
/// line to keep for another reason (see the module's comment) is never folded.
fn nodes_own(plan: &Plan, stack: &[usize]) -> Vec<bool> {
    let mut own = vec![false; stack.len()];
    // Whether the frame below (the caller of the one being looked at) is node's code.
    let mut called_by_node = false;
    for (k, &i) in stack.iter().enumerate().rev() {
        let line = plan.line(i);
        let in_node = match origin(line) {
            Origin::Node => true,
            Origin::BuiltIn => called_by_node,
            Origin::Program => false,
        };
        own[k] = in_node && !kept_anyway(line);
        called_by_node = in_node;
    }
    own
}

/// The stacks of the output, each as the indices of its frame lines: runs of consecutive `at` lines, and the
/// lines of each TAP `stack: |-` block. Lines of a diff hunk's body are a file's content, never a stack.
fn stacks(plan: &Plan) -> Vec<Vec<usize>> {
    let mut found: Vec<Vec<usize>> = Vec::new();
    let mut i = 0;
    while i < plan.len() {
        if plan.in_hunk(i) {
            i += 1;
            continue;
        }
        let frames = match TAP_STACK.captures(plan.line(i)) {
            Some(key) => tap_stack(plan, i + 1, key[1].len()),
            None => {
                (i..plan.len()).take_while(|&j| !plan.in_hunk(j) && FRAME.is_match(plan.line(j))).collect::<Vec<_>>()
            }
        };
        i = frames.last().map_or(i + 1, |&last| last + 1);
        found.push(frames);
    }
    found.retain(|stack| stack.len() > MIN_RUN);
    found
}

/// The lines from `start` indented deeper than `margin`, the stack key's own indentation.
fn tap_stack(plan: &Plan, start: usize, margin: usize) -> Vec<usize> {
    let deeper = |j: &usize| {
        let line = plan.line(*j);
        !line.trim().is_empty() && line.len() - line.trim_start().len() > margin
    };
    Range { start, end: plan.len() }.take_while(deeper).collect()
}

/// A line protection shows for its own sake (an error's name, a `file:line`), or a frame that opens the
/// error's properties (`… {`).
fn kept_anyway(line: &str) -> bool {
    line.trim_end().ends_with('{') || rules::is_error(line) || rules::has_location(line)
}

/// Whose code a frame line is in, by its location (`at name (location)`, `at location`, or a TAP stack's
/// line without `at`).
fn origin(line: &str) -> Origin {
    let frame = line.trim();
    let frame = frame.strip_prefix("at ").unwrap_or(frame);
    let frame = frame.strip_suffix('{').map_or(frame, str::trim_end);
    let location = match frame.strip_suffix(')').and_then(|f| f.rsplit_once(" (")) {
        Some((_, location)) => location,
        None => frame,
    };
    if location.starts_with("node:") {
        Origin::Node
    } else if location == "<anonymous>"
        || location == "native"
        || location.strip_prefix("index ").is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
    {
        Origin::BuiltIn
    } else {
        Origin::Program
    }
}

#[cfg(test)]
mod tests {
    use crate::compress;

    #[test]
    fn a_crash_keeps_its_message_first_frame_and_the_users_frames_and_counts_nodes() {
        let raw = concat!(
            "/app/lib/invoice.js:3\n    throw new TypeError(`qty must be a number`);\n    ^\n\n",
            "TypeError: qty must be a number\n",
            "    at lineTotal (/app/lib/invoice.js:3:11)\n",
            "    at Array.map (<anonymous>)\n",
            "    at invoiceTotal (/app/lib/invoice.js:8:16)\n",
            "    at Object.<anonymous> (/app/report.js:7:30)\n",
            "    at Module._compile (node:internal/modules/cjs/loader:1521:14)\n",
            "    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)\n",
            "    at Module.load (node:internal/modules/cjs/loader:1266:32)\n",
            "    at Module._load (node:internal/modules/cjs/loader:1091:12)\n",
            "    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)\n",
            "    at node:internal/main/run_main_module:28:49\n\nNode.js v20.20.2\n",
        );
        let text = compress("node report.js", raw, 1).text;
        let stack = concat!(
            "TypeError: qty must be a number\n",
            "    at lineTotal (/app/lib/invoice.js:3:11)\n",
            "    at Array.map (<anonymous>)\n",
            "    at invoiceTotal (/app/lib/invoice.js:8:16)\n",
            "    at Object.<anonymous> (/app/report.js:7:30)\n",
            "    … 6 frames of node's own code not shown\n\nNode.js v20.20.2\n[exit:1]\n",
        );
        assert!(text.ends_with(stack), "{text}");

        // The first frame stays even in node's code (where a missing module was looked for), and so does the
        // frame that opens the error's properties.
        let raw = concat!(
            "node:internal/modules/cjs/loader:1210\n  throw err;\n  ^\n\nError: Cannot find module './tax'\n",
            "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)\n",
            "    at Module._load (node:internal/modules/cjs/loader:1038:27)\n",
            "    at Module.require (node:internal/modules/cjs/loader:1289:19)\n",
            "    at require (node:internal/modules/helpers:182:18)\n",
            "    at Object.<anonymous> (/app/app.js:2:22)\n",
            "    at Module._compile (node:internal/modules/cjs/loader:1521:14)\n",
            "    at Module.load (node:internal/modules/cjs/loader:1266:32)\n",
            "    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12) {\n",
            "  code: 'MODULE_NOT_FOUND'\n}\n\nNode.js v20.20.2\n",
        );
        let text = compress("node app.js", raw, 1).text;
        for kept in [
            "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)\n    … 3 frames of node's own code not shown\n    at Object.<anonymous> (/app/app.js:2:22)\n",
            "    … 2 frames of node's own code not shown\n    at Function.executeUserEntryPoint [as runMain] \
             (node:internal/modules/run_main:164:12) {\n  code: 'MODULE_NOT_FOUND'\n",
        ] {
            assert!(text.contains(kept), "{kept}\n{text}");
        }
    }

    #[test]
    fn built_ins_the_users_code_called_stay_and_those_nodes_code_called_are_counted() {
        let raw = concat!(
            "/app/src/load.js:3\n        throw new Error('no rows');\n        ^\n\nError: no rows\n",
            "    at /app/src/load.js:3:9\n",
            "    at new Promise (<anonymous>)\n",
            "    at Array.map (<anonymous>)\n",
            "    at Object.<anonymous> (/app/src/load.js:2:10)\n",
            "    at new Promise (<anonymous>)\n",
            "    at <anonymous>\n",
            "    at Module._compile (node:internal/modules/cjs/loader:1521:14)\n",
            "    at Module.load (node:internal/modules/cjs/loader:1266:32)\n",
            "    at async Promise.all (index 0)\n",
            "    at async Suite.run (node:internal/test_runner/test:1135:7)\n",
            "    at node:internal/main/run_main_module:28:49\n\nNode.js v20.20.2\n",
        );
        let text = compress("node src/load.js", raw, 1).text;
        let stack = concat!(
            "Error: no rows\n",
            "    at /app/src/load.js:3:9\n",
            // Called by the user's code: its own call path, not node's.
            "    at new Promise (<anonymous>)\n",
            "    at Array.map (<anonymous>)\n",
            "    at Object.<anonymous> (/app/src/load.js:2:10)\n",
            // Called by node's module loader, and node's own: counted with it, each once.
            "    … 7 frames of node's own code not shown\n\nNode.js v20.20.2\n[exit:1]\n",
        );
        assert!(text.ends_with(stack), "{text}");
        // A built-in whose caller is not shown is not known to be node's.
        let mut raw = String::from("Error: x\n    at f (/app/a.js:1:1)\n");
        raw += &(0..6)
            .map(|i| format!("    at Module.step{i} (node:internal/modules/cjs/loader:{i}:1)\n"))
            .collect::<String>();
        raw += "    at Array.forEach (<anonymous>)\n";
        let text = compress("node a.js", &raw, 1).text;
        assert!(
            text.ends_with(
                "    … 6 frames of node's own code not shown\n    at Array.forEach (<anonymous>)\n[exit:1]\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_tap_stack_counts_nodes_frames_under_the_users() {
        let mut raw =
            String::from("TAP version 13\n# Subtest: rejects\nnot ok 1 - rejects\n  ---\n  error: 'bad qty'\n");
        raw += concat!(
            "  stack: |-\n",
            "    lineTotal (/app/lib/invoice.js:3:11)\n",
            "    TestContext.<anonymous> (/app/test/invoice.test.js:12:22)\n",
            "    Test.runInAsyncScope (node:async_hooks:206:9)\n",
            "    Test.run (node:internal/test_runner/test:796:25)\n",
            "    Test.processPendingSubtests (node:internal/test_runner/test:526:18)\n",
            "    async Test.processPendingSubtests (node:internal/test_runner/test:526:7)\n",
            "  ...\n1..1\n# tests 1\n# pass 0\n# fail 1\n",
        );
        let text = compress("node --test", &raw, 1).text;
        let stack = concat!(
            "  stack: |-\n",
            "    lineTotal (/app/lib/invoice.js:3:11)\n",
            "    TestContext.<anonymous> (/app/test/invoice.test.js:12:22)\n",
            "    … 4 frames of node's own code not shown\n  ...\n",
        );
        assert!(text.contains(stack), "{text}");
        // A diff's context line is a file's content, not a frame.
        let diff = format!(
            "diff --git a/t.txt b/t.txt\n--- a/t.txt\n+++ b/t.txt\n@@ -1,5 +1,5 @@\n-x\n+y\n{}",
            "     at Test.run (node:internal/test_runner/test:796:25)\n".repeat(4)
        );
        assert!(!compress("git diff", &diff, 0).text.contains("frames of node's own code"));
    }

    #[test]
    fn a_searchs_matches_and_a_printed_logs_frames_are_all_shown() {
        let stack = |i: usize| {
            format!(
                "2026-12-05T10:00:{i:02}Z ERROR request {i} failed: TypeError: x is undefined\n\
                 \x20   at load (/srv/app/user.js:1:34)\n\
                 \x20   at listOnTimeout (node:internal/timers:581:17)\n\
                 \x20   at process.processTimers (node:internal/timers:519:7)\n"
            )
        };
        let log: String = (0..40).map(stack).collect();
        let matches: String = log.lines().filter(|l| l.contains("node:internal")).map(|l| format!("{l}\n")).collect();
        for (command, raw) in [
            ("grep node:internal app.log", &matches),
            ("cd /srv && rg node:internal app.log | head -100", &matches),
            ("cat app.log", &log),
            ("tail -n 200 app.log", &log),
            // Wrapped in a shell, as Codex runs every command; a service's log.
            ("bash -lc 'grep node:internal app.log'", &matches),
            ("bash -c 'cat app.log'", &log),
            ("journalctl -u app", &log),
        ] {
            let text = compress(command, raw, 0).text;
            assert!(!text.contains("node's own code"), "{command}: {text}");
            for frame in [
                "    at listOnTimeout (node:internal/timers:581:17)",
                "    at process.processTimers (node:internal/timers:519:7)",
            ] {
                assert!(text.lines().any(|l| l.starts_with(frame)), "{command}: {frame} lost: {text}");
            }
        }
        // The same log printed by the program itself, as its report, is folded.
        assert!(
            compress("node app.js 2>&1 | tail -200", &log, 0).text.contains("2 frames of node's own code not shown")
        );
    }
}
