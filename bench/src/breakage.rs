//! Mid-edit breakage: does a view that lost definitions to a syntax error say so?
//!
//! An agent reads a file's signatures right after an edit that left it broken: a `}` or a `)`
//! deleted, a quote gone, a line cut, a `{` typed at a line's end. For each sampled file that
//! outlines cleanly, one such single-character (or single-line) change is applied at a time and
//! the file outlined again. A definition of the clean outline missing from the broken one (by
//! name and line; the changed line's own are left out) is lost; it is lost *silently* when no
//! span of the view's `[outline incomplete: …]` line covers its line. The report counts, per
//! language and per kind of change, the changes that lost a definition and those that lost one
//! silently. Counts only, deterministic for a seed.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use lean_ctx_outline::{Definition, Language, Outline, outline};

use crate::reading::{Corpus, files};

/// A change an edit could leave: one character deleted, a line blanked, or text typed at a
/// line's end.
#[derive(Clone, Copy)]
enum Change {
    Delete(char),
    BlankLine,
    Append(&'static str),
}

impl Change {
    /// The changes applied, one at a time.
    const ALL: [Change; 8] = [
        Change::Delete('}'),
        Change::Delete(')'),
        Change::Delete(']'),
        Change::Delete('"'),
        Change::Delete('\''),
        Change::BlankLine,
        Change::Append(" {"),
        Change::Append(" ("),
    ];

    fn label(self) -> String {
        match self {
            Change::Delete(c) => format!("delete {c}"),
            Change::BlankLine => "blank a line".into(),
            Change::Append(text) => format!("add {}", text.trim()),
        }
    }
}

/// Files larger than this are skipped: each change outlines the file again.
const MAX_BYTES: u64 = 40_000;

pub struct Sample {
    /// Every `every`-th file of a corpus (path order), starting at `offset`: two offsets give two
    /// disjoint samples, one to develop on and one held back.
    pub every: usize,
    pub offset: usize,
    pub changes_per_file: usize,
    pub seed: u64,
}

#[derive(Default)]
struct Tally {
    changes: u32,
    lossy: u32,
    silent: u32,
    /// Lines the incomplete notes name, over all changes: what flagging costs the reader.
    named: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.changes += other.changes;
        self.lossy += other.lossy;
        self.silent += other.silent;
        self.named += other.named;
    }
}

pub fn run(corpora: &[Corpus], sample: &Sample) -> String {
    let mut by_kind: BTreeMap<(String, String), Tally> = BTreeMap::new();
    let mut examples = Vec::new();
    // The report lists the first few silent losses; `BREAKAGE_ALL=1` lists every one.
    let shown = if std::env::var_os("BREAKAGE_ALL").is_some() { usize::MAX } else { 12 };
    let mut sampled = 0;
    for corpus in corpora {
        let picked = files(corpus, usize::MAX)
            .into_iter()
            .filter(|path| std::fs::metadata(path).is_ok_and(|m| m.len() < MAX_BYTES))
            .enumerate()
            .filter(|(i, _)| i % sample.every.max(1) == sample.offset % sample.every.max(1))
            .map(|(_, path)| path);
        for path in picked {
            let Some(language) = Language::from_path(&path) else { continue };
            let Ok(source) = std::fs::read_to_string(&path) else { continue };
            let clean = outline(language, &source);
            // Only a file that outlines cleanly can show what a change loses.
            if clean.degraded.is_some() || !clean.unparsed.is_empty() {
                continue;
            }
            sampled += 1;
            // Seeded per file, so a file left out does not change the others' changes.
            let mut random =
                XorShift::for_file(sample.seed, &path.strip_prefix(&corpus.root).unwrap_or(&path).to_string_lossy());
            let before = named_lines(&clean.items);
            for _ in 0..sample.changes_per_file {
                let kind = Change::ALL[random.below(Change::ALL.len())];
                let Some((broken, line)) = change(&source, kind, &mut random) else { continue };
                let after = outline(language, &broken);
                let (lost, silent) = losses(&before, &after, line);
                let named: u64 = after.unparsed.iter().map(|&(start, end)| u64::from(end - start + 1)).sum();
                let tally = by_kind.entry((corpus.scanner.language.to_string(), kind.label())).or_default();
                tally.add(&Tally {
                    changes: 1,
                    lossy: u32::from(!lost.is_empty()),
                    silent: u32::from(!silent.is_empty()),
                    named,
                });
                if let Some(first) = silent.iter().min_by_key(|definition| definition.1)
                    && examples.len() < shown
                {
                    examples.push(format!(
                        "`{}` ({} at line {line}): `{}` at line {} and {} more",
                        path.strip_prefix(&corpus.root).unwrap_or(&path).display(),
                        kind.label(),
                        first.0,
                        first.1,
                        silent.len() - 1
                    ));
                }
            }
        }
    }
    report(sampled, sample, &by_kind, &examples)
}

fn report(sampled: usize, sample: &Sample, by_kind: &BTreeMap<(String, String), Tally>, examples: &[String]) -> String {
    let mut out = format!(
        "### Mid-edit breakage ({sampled} files: every {}th from offset {}, {} changes each, seed {})\n\n",
        sample.every, sample.offset, sample.changes_per_file, sample.seed
    );
    out.push_str(
        "| language | changes | lost a definition | lost one silently | lines named per change |\n|---|---|---|---|---|\n",
    );
    let row = |tally: &Tally| {
        let per_change = tally.named as f64 / f64::from(tally.changes.max(1));
        format!("{} | {} | {} | {per_change:.1}", tally.changes, tally.lossy, tally.silent)
    };
    let mut by_language: BTreeMap<&str, Tally> = BTreeMap::new();
    for ((language, _), tally) in by_kind {
        by_language.entry(language).or_default().add(tally);
    }
    let mut total = Tally::default();
    for (language, tally) in &by_language {
        let _ = writeln!(out, "| {language} | {} |", row(tally));
        total.add(tally);
    }
    let _ = writeln!(out, "| **all** | {} |\n", row(&total));
    out.push_str(
        "| language | change | changes | lost a definition | lost one silently | lines named per change |\n\
         |---|---|---|---|---|---|\n",
    );
    for ((language, kind), tally) in by_kind {
        let _ = writeln!(out, "| {language} | `{kind}` | {} |", row(tally));
    }
    if !examples.is_empty() {
        let _ = writeln!(
            out,
            "\nThe first {} of the {} changes that lost a definition silently:",
            examples.len(),
            total.silent
        );
        for example in examples {
            let _ = writeln!(out, "- {example}");
        }
    }
    out
}

/// The definitions of the clean outline (`before`) that the broken one does not show, the changed
/// line's own left out, and of them those on no line its incomplete note names.
fn losses<'d>(before: &'d HashSet<Named>, after: &Outline, line: u32) -> (Vec<&'d Named>, Vec<&'d Named>) {
    let shown = named_lines(&after.items);
    let lost: Vec<&Named> =
        before.iter().filter(|definition| definition.1 != line && !shown.contains(*definition)).collect();
    let flagged = |line: u32| after.degraded.is_some() || after.unparsed.iter().any(|&(s, e)| (s..=e).contains(&line));
    let silent = lost.iter().copied().filter(|definition| !flagged(definition.1)).collect();
    (lost, silent)
}

/// A definition by its name and head line.
type Named = (String, u32);

/// Each definition's name and head line, members included.
fn named_lines(items: &[Definition]) -> HashSet<Named> {
    let mut out = HashSet::new();
    let mut pending: Vec<&Definition> = items.iter().collect();
    while let Some(definition) = pending.pop() {
        out.insert((definition.name.clone(), definition.head_line));
        pending.extend(&definition.children);
    }
    out
}

/// `source` with one change of `kind` at a random place, and the line changed; `None` when the
/// file has no place for it. No change moves a line: a deleted character becomes a space, a
/// blanked line stays as an empty one, and only a line with something on it is blanked.
fn change(source: &str, kind: Change, random: &mut XorShift) -> Option<(String, u32)> {
    let line_of = |at: usize| u32::try_from(source[..at].matches('\n').count() + 1).unwrap_or(u32::MAX);
    if let Change::Delete(target) = kind {
        let places: Vec<usize> = source.match_indices(target).map(|(at, _)| at).collect();
        let at = *places.get(random.below(places.len().max(1)))?;
        let mut changed = source.to_string();
        changed.replace_range(at..at + target.len_utf8(), " ");
        return Some((changed, line_of(at)));
    }
    let lines: Vec<&str> = source.split_inclusive('\n').collect();
    let candidates: Vec<usize> = match kind {
        Change::BlankLine => (0..lines.len()).filter(|&i| !lines[i].trim().is_empty()).collect(),
        _ => (0..lines.len()).collect(),
    };
    if lines.len() < 3 || candidates.is_empty() {
        return None;
    }
    let index = candidates[random.below(candidates.len())];
    let mut changed = String::with_capacity(source.len() + 2);
    for (i, line) in lines.iter().enumerate() {
        if i != index {
            changed.push_str(line);
            continue;
        }
        if let Change::Append(text) = kind {
            changed.push_str(line.trim_end_matches('\n'));
            changed.push_str(text);
        }
        changed.push('\n');
    }
    Some((changed, u32::try_from(index + 1).unwrap_or(u32::MAX)))
}

/// A small deterministic generator: the same seed gives the same changes.
struct XorShift(u64);

impl XorShift {
    /// A generator for one file: the seed mixed with the file's path (FNV-1a).
    fn for_file(seed: u64, path: &str) -> Self {
        let hash = path
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3));
        XorShift((seed ^ hash).max(1))
    }

    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % n.max(1) as u64).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_keeps_every_line_where_it_was() {
        let source = "fn a() {\n    b();\n}\n\nfn c() {}\n";
        let mut random = XorShift(7);
        for kind in Change::ALL {
            if let Some((changed, line)) = change(source, kind, &mut random) {
                assert_eq!(changed.lines().count(), source.lines().count(), "{}", kind.label());
                assert!((1..=5).contains(&line), "{}: line {line}", kind.label());
                assert_ne!(changed, source, "{}", kind.label());
            }
        }
        // No quote to delete: no change.
        assert_eq!(change(source, Change::Delete('"'), &mut random), None);
        // Blanking picks a line with something on it (line 4 is empty).
        for _ in 0..20 {
            assert_ne!(change(source, Change::BlankLine, &mut random).map(|(_, line)| line), Some(4));
        }
    }

    #[test]
    fn a_definition_lost_without_a_flag_is_counted_silent() {
        let source = "pub fn a() {}\n\npub fn b() {}\n\npub fn c() {}\n\npub fn d() {}\n";
        let clean = outline(Language::Rust, source);
        let before = named_lines(&clean.items);
        assert_eq!(before.len(), 4);
        // `b` and `c` gone; the note names line 3 only: `c` is lost silently. The changed line's
        // own definition (`d`, line 7) is not counted.
        let mut broken = clean.clone();
        broken.items.retain(|definition| definition.name == "a");
        broken.unparsed = vec![(3, 3)];
        let (lost, silent) = losses(&before, &broken, 7);
        let names = |found: &[&Named]| {
            let mut names: Vec<String> = found.iter().map(|definition| definition.0.clone()).collect();
            names.sort();
            names
        };
        assert_eq!(names(&lost), ["b", "c"]);
        assert_eq!(names(&silent), ["c"]);
        // A degraded outline says the whole file may miss definitions.
        broken.degraded = Some("time budget".into());
        assert!(losses(&before, &broken, 7).1.is_empty());
    }
}
