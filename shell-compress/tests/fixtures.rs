//! Every fixture under `tests/fixtures/<family>/<name>.txt` (the development part) or
//! `tests/fixtures/heldout/<family>/<name>.txt` (the held-back part, see its README) is real (or, for `*.synthetic.txt`, documented-format)
//! output of a command. Each file starts with a header:
//!
//! ```text
//! # command: cargo test
//! # exit: 101
//! # ---
//! <raw output, byte for byte>
//! ```
//!
//! and has a `<name>.must` sidecar listing, one per line, text that must appear in the compressed output
//! (failing test names, verdict lines, …). The checks here are written independently of the library's own
//! patterns, so a gap in the library's rules shows up as a failure rather than agreeing with itself.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use lean_ctx_shell_compress::{Compressed, compress};
use regex::Regex;

/// Which part of the fixtures a file belongs to: the rules are developed on one and measured on both.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Part {
    HeldOut,
    Development,
}

impl Part {
    fn label(self) -> &'static str {
        match self {
            Part::HeldOut => "held-back",
            Part::Development => "developed-on",
        }
    }
}

/// The folder of the held-back part, inside the fixture root.
const HELD_OUT_DIR: &str = "heldout";

struct Fixture {
    path: PathBuf,
    part: Part,
    family: String,
    command: String,
    exit: i32,
    raw: String,
    must: Vec<String>,
}

fn fixtures() -> Vec<Fixture> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut found = load_part(&root, Part::Development);
    found.extend(load_part(&root.join(HELD_OUT_DIR), Part::HeldOut));
    let held_out = found.iter().filter(|f| f.part == Part::HeldOut).count();
    assert!(found.len() - held_out >= 60, "expected at least 60 development fixtures, found {}", found.len() - held_out);
    assert!(held_out >= 30, "expected at least 30 held-back fixtures, found {held_out}");
    found
}

/// Loads `<root>/<family>/*.txt`, in name order.
fn load_part(root: &Path, part: Part) -> Vec<Fixture> {
    let mut found = Vec::new();
    let mut families: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() && !p.ends_with(HELD_OUT_DIR))
        .collect();
    families.sort();
    for dir in families {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for path in files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "txt")) {
            found.push(load(&path, dir.file_name().unwrap().to_str().unwrap(), part));
        }
    }
    found
}

fn load(path: &Path, family: &str, part: Part) -> Fixture {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (header, raw) = text.split_once("# ---\n").unwrap_or_else(|| panic!("{}: no header", path.display()));
    let field = |name: &str| {
        header
            .lines()
            .find_map(|l| l.strip_prefix(&format!("# {name}: ")))
            .unwrap_or_else(|| panic!("{}: no {name}", path.display()))
            .to_string()
    };
    let must_path = path.with_file_name(path.file_name().unwrap().to_str().unwrap().replace(".txt", ".must"));
    let must = std::fs::read_to_string(&must_path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    Fixture {
        path: path.to_path_buf(),
        part,
        family: family.to_string(),
        command: field("command"),
        exit: field("exit").parse().unwrap(),
        raw: raw.to_string(),
        must,
    }
}

fn tokens(text: &str) -> usize {
    bpe_openai::o200k_base().count(text)
}

/// What a terminal would have shown: escapes removed, the last carriage-return redraw, no trailing blanks.
fn displayed_lines(raw: &str) -> Vec<String> {
    static ESCAPE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()].|.)").unwrap());
    raw.lines()
        .map(|line| {
            let line = line.strip_suffix('\r').unwrap_or(line);
            let visible = line.rsplit('\r').find(|s| !s.trim().is_empty()).unwrap_or("");
            let plain = ESCAPE.replace_all(visible, "");
            plain.chars().filter(|c| *c == '\t' || !c.is_control()).collect::<String>().trim_end().to_string()
        })
        .collect()
}

/// The specification's error words, in the case variants tools print.
static ERROR_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\b(?:error|Error|ERROR)\b|[a-z](?:Error|Exception)\b|\b(?:failed|Failed|FAILED|FAIL|failure|Failure)\b",
        r"|\b(?:panic|panicked)\b|\b(?:exception|Exception)\b|Traceback|\b(?:fatal|Fatal|FATAL)\b",
        r"|\b(?:assert|Assert)\w*",
    ))
    .unwrap()
});

/// `file.ext:12`, `file.ext(12,3)`, `File "x.py", line 12`.
static LOCATION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"\w\.[A-Za-z]\w*(?::\d+|\(\d+,\d+\))|File "[^"]+", line \d+"#).unwrap());

/// The raw output as the agent gets it when nothing is shortened: followed by the exit marker on failure.
fn unchanged(f: &Fixture) -> String {
    let mut text = f.raw.clone();
    if f.exit != 0 {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("[exit:{}]\n", f.exit));
    }
    text
}

/// Whether `fact` is a whole line of `text`, possibly carrying a repeat count.
fn has_line(text: &str, fact: &str) -> bool {
    text.lines().any(|l| l == fact || l.strip_prefix(fact).is_some_and(|rest| rest.starts_with(" … (×")))
}

fn check(f: &Fixture) -> Result<Compressed, String> {
    let out = compress(&f.command, &f.raw, f.exit);
    let name = f.path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap().display().to_string();
    let fail = |what: String| Err(format!("{name}: {what}"));

    if out.family != f.family {
        return fail(format!("family {} detected, directory says {}", out.family, f.family));
    }
    if out != compress(&f.command, &f.raw, f.exit) {
        return fail("not deterministic".into());
    }
    let exit_line = format!("[exit:{}]\n", f.exit);
    match (f.exit, out.text.ends_with(&exit_line)) {
        (0, _) if out.text.contains("[exit:") && !f.raw.contains("[exit:") => {
            return fail("exit marker on success".into());
        }
        (0, _) | (_, true) => {}
        (_, false) => return fail("missing [exit:N] line".into()),
    }
    if out.shortened {
        let (before, after) = (tokens(&f.raw), tokens(&out.text));
        if after > before {
            return fail(format!("{after} tokens after compression, {before} before"));
        }
        if out.text.len() >= f.raw.len() {
            return fail("not smaller in bytes".into());
        }
    } else {
        if out.text != unchanged(f) {
            return fail("not shortened, but text differs from the raw output".into());
        }
    }

    let shown = if out.shortened { out.text.clone() } else { displayed_lines(&out.text).join("\n") };
    let displayed = displayed_lines(&f.raw);
    if f.exit != 0 {
        for line in &displayed {
            if (ERROR_LINE.is_match(line) || LOCATION.is_match(line)) && !has_line(&shown, line) {
                return fail(format!("error or location line lost: {line:?}"));
            }
        }
        for line in displayed.iter().rev().filter(|l| !l.trim().is_empty()).take(10) {
            if !has_line(&shown, line) {
                return fail(format!("closing line lost: {line:?}"));
            }
        }
    }
    for fact in &f.must {
        if !shown.contains(fact.as_str()) {
            return fail(format!("required text missing: {fact:?}"));
        }
    }
    Ok(out)
}

#[test]
fn every_fixture_keeps_every_invariant() {
    let failures: Vec<String> = fixtures().iter().filter_map(|f| check(f).err()).collect();
    assert!(failures.is_empty(), "{} fixture(s) failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_family_directory_has_a_real_or_synthetic_fixture_and_sidecars() {
    for f in fixtures() {
        assert!(!f.must.is_empty() || f.raw.trim().is_empty(), "{}: empty .must sidecar", f.path.display());
    }
}

/// `cargo test --test fixtures -- --ignored --nocapture report` prints the reduction table.
#[test]
#[ignore]
fn report() {
    let mut by_family: BTreeMap<String, Vec<(f64, String)>> = BTreeMap::new();
    let (mut raw_total, mut out_total) = (0, 0);
    let (mut real, mut synthetic) = (0, 0);
    for f in fixtures() {
        let out = check(&f).unwrap_or_else(|e| panic!("{e}"));
        // Baseline: what the agent would get uncompressed, which also carries the exit marker.
        let (before, after) = (tokens(&unchanged(&f)), tokens(&out.text));
        raw_total += before;
        out_total += after;
        if f.path.to_str().unwrap().ends_with(".synthetic.txt") {
            synthetic += 1;
        } else {
            real += 1;
        }
        let saved = if before == 0 { 0.0 } else { 100.0 * (before as f64 - after as f64) / before as f64 };
        let name = f.path.file_name().unwrap().to_str().unwrap().trim_end_matches(".txt").to_string();
        by_family.entry(f.family.clone()).or_default().push((saved, name));
    }
    println!("| family | fixtures | median saved | worst saved (fixture) | best saved |");
    println!("|---|---:|---:|---|---:|");
    for (family, mut rows) in by_family {
        rows.sort_by(|a, b| a.0.total_cmp(&b.0));
        let median = if rows.len() % 2 == 1 {
            rows[rows.len() / 2].0
        } else {
            (rows[rows.len() / 2 - 1].0 + rows[rows.len() / 2].0) / 2.0
        };
        let (worst, worst_name) = &rows[0];
        let best = rows.last().unwrap().0;
        println!("| {family} | {} | {median:.1}% | {worst:.1}% ({worst_name}) | {best:.1}% |", rows.len());
    }
    println!(
        "\n{real} real + {synthetic} synthetic fixtures; o200k tokens {raw_total} raw -> {out_total} compressed ({:.1}% saved)",
        100.0 * (raw_total - out_total) as f64 / raw_total as f64
    );
}

/// `LCTX_DUMP=/some/dir cargo test --test fixtures -- --ignored dump` writes each compressed fixture next to
/// its raw output for review.
#[test]
#[ignore]
fn dump() {
    let dir = PathBuf::from(std::env::var("LCTX_DUMP").expect("set LCTX_DUMP to an output directory"));
    for f in fixtures() {
        let out = compress(&f.command, &f.raw, f.exit);
        let target = dir.join(&f.family).join(f.path.file_name().unwrap());
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        let header = format!(
            "# {} | shortened={} | {} -> {} tokens\n",
            f.command,
            out.shortened,
            tokens(&f.raw),
            tokens(&out.text)
        );
        std::fs::write(target, header + &out.text).unwrap();
    }
}
