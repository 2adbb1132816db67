//! The options of the git subcommands whose words the guard reads, as
//! git's parse-options reads them (git 2.47): a long option may be cut
//! short to any prefix that is its alone among all of the subcommand's
//! options (`git restore --st --w f` is `--staged --worktree`, `git grep
//! --untr` is `--untracked`; `--s` could be `--source` or `--staged`, and
//! git refuses it). Each `shortest` is that prefix among the names `git
//! SUBCOMMAND --git-completion-helper-all` lists, hidden and `--no-` ones
//! included. `diff`, `show`, `log` and `format-patch` take their options
//! whole only (`git diff --stag` fails): `git.rs` matches those as
//! written.

use super::getopt::{Spec, long};

pub(crate) const RESTORE: Spec = Spec {
    short_values: "s",
    long: &[
        long("source", "so", true, Some('s')),
        long("staged", "st", false, Some('S')),
        long("worktree", "w", false, Some('W')),
        long("pathspec-from-file", "pathspec-fr", true, None),
        long("conflict", "c", true, None),
    ],
};

pub(crate) const CHECKOUT: Spec = Spec {
    short_values: "bB",
    long: &[
        long("force", "f", false, Some('f')),
        long("orphan", "or", true, None),
        long("pathspec-from-file", "pathspec-fr", true, None),
        long("conflict", "c", true, None),
    ],
};

/// `--hard`, `--merge` and `--keep` write the work tree; the others leave it.
pub(crate) const RESET: Spec = Spec {
    short_values: "",
    long: &[
        long("hard", "h", false, None),
        long("merge", "me", false, None),
        long("keep", "k", false, None),
        long("mixed", "mi", false, None),
        long("soft", "s", false, None),
        long("pathspec-from-file", "pathspec-fr", true, None),
    ],
};

/// `--force` has no prefix of its own: `--force-create` begins with it.
pub(crate) const SWITCH: Spec = Spec {
    short_values: "cC",
    long: &[
        long("discard-changes", "di", false, Some('f')),
        long("force", "force", false, Some('f')),
        long("create", "cr", true, Some('c')),
        long("force-create", "force-", true, Some('C')),
        long("orphan", "or", true, None),
        long("conflict", "co", true, None),
    ],
};

pub(crate) const CLEAN: Spec =
    Spec { short_values: "e", long: &[long("dry-run", "d", false, Some('n')), long("exclude", "e", true, Some('e'))] };

/// `--cached` removes from the index only, `-n` only lists.
pub(crate) const RM: Spec = Spec {
    short_values: "",
    long: &[
        long("cached", "c", false, None),
        long("dry-run", "d", false, Some('n')),
        long("force", "f", false, Some('f')),
        long("ignore-unmatch", "i", false, None),
        long("pathspec-from-file", "pathspec-fr", true, None),
        long("pathspec-file-nul", "pathspec-fi", false, None),
        long("quiet", "q", false, Some('q')),
        long("sparse", "s", false, None),
    ],
};

/// `-n` only lists what it would move.
pub(crate) const MV: Spec = Spec {
    short_values: "",
    long: &[
        long("dry-run", "d", false, Some('n')),
        long("force", "f", false, Some('f')),
        long("sparse", "s", false, None),
        long("verbose", "v", false, Some('v')),
    ],
};

pub(crate) const APPLY: Spec = Spec {
    short_values: "pC",
    long: &[
        long("check", "ch", false, None),
        long("stat", "st", false, None),
        long("numstat", "nu", false, None),
        long("summary", "su", false, None),
        long("cached", "ca", false, None),
        long("apply", "ap", false, None),
        long("exclude", "e", true, None),
        long("include", "inc", true, None),
        long("build-fake-ancestor", "bu", true, None),
        long("whitespace", "w", true, None),
        long("directory", "d", true, None),
    ],
};

/// `-e` and `-f` give the pattern: they have no long names.
pub(crate) const GREP: Spec = Spec {
    short_values: "efmABC",
    long: &[
        long("cached", "ca", false, None),
        long("no-index", "no-ind", false, None),
        long("untracked", "u", false, None),
        long("max-depth", "max-d", true, None),
        long("threads", "th", true, None),
        long("max-count", "max-c", true, Some('m')),
        long("context", "con", true, Some('C')),
        long("before-context", "be", true, Some('B')),
        long("after-context", "af", true, Some('A')),
    ],
};

/// `--batch` has no prefix of its own: `--batch-check`, `--batch-command`
/// and `--batch-all-objects` begin with it.
pub(crate) const CAT_FILE: Spec = Spec {
    short_values: "",
    long: &[
        long("batch", "batch", false, None),
        long("batch-command", "batch-co", false, None),
        long("batch-check", "batch-ch", false, None),
        long("batch-all-objects", "batch-a", false, None),
        long("path", "p", true, None),
    ],
};
