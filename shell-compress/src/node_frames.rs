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
        let mut run: Vec<usize> = Vec::new();
        for &i in stack.iter().skip(1).chain(std::iter::once(&usize::MAX)) {
            if i != usize::MAX && is_nodes_own(plan.line(i)) {
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

/// Whether a frame line is in node's own code: its location is one of node's modules (`node:internal/…`,
/// `node:async_hooks`, …) or V8's built-ins (`<anonymous>`, `index 0`, `native`), and it is not a line to
/// keep for another reason (see the module's comment).
fn is_nodes_own(line: &str) -> bool {
    let frame = line.trim();
    let frame = frame.strip_prefix("at ").unwrap_or(frame);
    if frame.ends_with('{') || rules::is_error(line) || rules::has_location(line) {
        return false;
    }
    let location = match frame.strip_suffix(')').and_then(|f| f.rsplit_once(" (")) {
        Some((_, location)) => location,
        None => frame,
    };
    location.starts_with("node:")
        || location == "<anonymous>"
        || location == "native"
        || location.strip_prefix("index ").is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
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
