//! What a command family is: a name, the rules that mark noise in its output, and how the shared passes
//! treat that output. Each family is a `static` in the module that holds its rules; `registry` says how
//! families are found from a command line and how to add one.

use std::fmt;

use crate::plan::Plan;

/// A group of commands whose output shares one format and so one set of compression rules.
pub(crate) struct Family {
    /// Reported as [`crate::Compressed::family`]; unique among the registered families.
    pub(crate) name: &'static str,
    /// A command line detected as this family: shows at a glance what the family is for, and the registry
    /// test checks that it is detected as this family.
    #[cfg_attr(not(test), expect(dead_code, reason = "read by the registry test"))]
    pub(crate) example: &'static str,
    /// Marks noise in the output; the flag says whether the command failed (exited non-zero).
    rules: fn(&mut Plan, bool),
    /// The output is the list the agent asked for (ls, pip list, …): compacted up to the listing budget,
    /// not cut.
    pub(crate) listing: bool,
    /// Runs of lines that differ only in numbers fold to first, count and last (logs, process tables); off
    /// where the numbers are the point.
    similar_folding: bool,
    /// The command runs tests: a session's handoff lists its last run and how it ended.
    pub(crate) runs_tests: bool,
    /// The output is the program's own report (its messages, a crash, a test run), so runs of stack frames in
    /// node's own code are counted on one line (see `node_frames`). Off for data a command prints (a file, a
    /// search's matches, a listing, a log), whose every line is what was asked for.
    pub(crate) folds_node_frames: bool,
}

/// What a family module exports: how it recognises its commands, and the families it defines.
pub(crate) struct Families {
    /// The family of a command whose program (a basename, wrappers peeled off) is `program`, or `None` when
    /// the program is not one this module knows. For a program it knows, a module may answer passthrough
    /// (watch modes, editors opened by `git commit`) or generic (subcommands without rules of their own).
    pub(crate) detect: fn(program: &str, args: &[String]) -> Option<&'static Family>,
    /// Every family `detect` can answer besides passthrough and generic; the registry test checks each.
    #[cfg_attr(not(test), expect(dead_code, reason = "read by the registry test"))]
    pub(crate) members: &'static [&'static Family],
}

impl Family {
    /// A family whose output is neither a listing nor folded by similarity; see [`Family::listing`] and
    /// [`Family::folding_similar`].
    pub(crate) const fn new(name: &'static str, example: &'static str, rules: fn(&mut Plan, bool)) -> Family {
        Family {
            name,
            example,
            rules,
            listing: false,
            similar_folding: false,
            runs_tests: false,
            folds_node_frames: false,
        }
    }

    /// This family with its output treated as a listing.
    pub(crate) const fn listing(self) -> Family {
        Family { listing: true, ..self }
    }

    /// This family as a test runner's, whose output is its report.
    pub(crate) const fn test_runner(self) -> Family {
        Family { runs_tests: true, folds_node_frames: true, ..self }
    }

    /// This family as a program's own report; see [`Family::folds_node_frames`].
    pub(crate) const fn folding_node_frames(self) -> Family {
        Family { folds_node_frames: true, ..self }
    }

    /// This family with similar lines folded.
    pub(crate) const fn folding_similar(self) -> Family {
        Family { similar_folding: true, ..self }
    }

    /// Runs the family's rules on `plan`. Rules only mark noise; protection, folding and cutting come after.
    pub(crate) fn apply(&self, plan: &mut Plan, failed: bool) {
        plan.similar_folding |= self.similar_folding;
        (self.rules)(plan, failed);
    }
}

/// Names are unique, so they identify a family (function pointers do not compare reliably).
impl PartialEq for Family {
    fn eq(&self, other: &Family) -> bool {
        self.name == other.name
    }
}

impl Eq for Family {}

impl fmt::Debug for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}
