//! Every command family, and the order in which their modules are asked to recognise a command.
//!
//! A family module holds everything about its families: a `static` [`Family`] for each (name, example
//! command line, rules, flags) and one `static FAMILIES: Families` that says which programs and invocations
//! are theirs. To add a family:
//!
//! 1. In the module of its tool, or a new one, write its rules and
//!    `pub(crate) static NAME: Family = Family::new("name", "example command", rules)`, adding `.listing()`
//!    or `.folding_similar()` where they fit.
//! 2. Claim its command lines in that module's `FAMILIES.detect` and list it in `FAMILIES.members`.
//! 3. Only for a new module: declare it in `lib.rs` and add its `FAMILIES` to [`MODULES`].
//!
//! The tests here then check that the name is unique and that the example is detected as the family; a
//! fixture under `tests/fixtures/<name>/` shows what the rules do to real output.

use crate::family::{Families, Family};
use crate::generic::GENERIC;
use crate::{cargo, container, files, git, go, js, jvm, native, passthrough, python, system, terraform};

/// The family modules, asked in this order; the first to claim a program decides its family.
///
/// Each module claims only programs it knows, and today no two claim the same one, so the order decides
/// nothing yet. It still states the precedence a newcomer should keep: tool modules first, each deciding
/// for itself which of its invocations are interactive (`jest --watch`, `git commit` without a message);
/// then passthrough's catalogue of programs that take over the terminal or run until stopped, last so that
/// a tool module learning one of those programs wins. A command no module claims is generic.
static MODULES: &[&Families] = &[
    &git::FAMILIES,
    &cargo::FAMILIES,
    &js::FAMILIES,
    &python::FAMILIES,
    &go::FAMILIES,
    &native::FAMILIES,
    &jvm::FAMILIES,
    &container::FAMILIES,
    &terraform::FAMILIES,
    &files::FAMILIES,
    &system::FAMILIES,
    &passthrough::FAMILIES,
];

/// The family of `program` (a basename, wrappers peeled off) run with `args`.
pub(crate) fn detect(program: &str, args: &[String]) -> &'static Family {
    MODULES.iter().find_map(|module| (module.detect)(program, args)).unwrap_or(&GENERIC)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    fn families() -> impl Iterator<Item = &'static Family> {
        MODULES.iter().flat_map(|module| module.members.iter().copied()).chain([&GENERIC])
    }

    #[test]
    fn names_are_unique() {
        let mut seen = BTreeSet::new();
        for family in families() {
            assert!(seen.insert(family.name), "two families are named {}", family.name);
        }
        // Every family the crate had when the registry was introduced, plus generic and passthrough.
        assert!(seen.len() >= 56, "{} families", seen.len());
    }

    #[test]
    fn each_example_is_detected_as_its_family() {
        for family in families() {
            assert_eq!(crate::detect::detect(family.example), family, "{}", family.example);
        }
    }
}
