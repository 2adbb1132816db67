//! The reading component through the engine API: the stub rule as a
//! property over random sequences of reads, writes and edits (applied and
//! failed), what each view is booked at, concurrency with edits, and each
//! bad input.

mod common;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use common::{Project, Rng, change_in_place, code};
use lean_ctxd::engine::edit::EditParams;
use lean_ctxd::engine::error::ErrorKind;
use lean_ctxd::engine::read::{ReadParams, View};
use lean_ctxd::engine::surface::Surface;
use lean_ctxd::engine::tokens::count_uncached;

/// What the model says a session holds of a file: a content hash, whole or
/// only as a diff base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Holding {
    hash: blake3::Hash,
    whole: bool,
    /// It read this version whole once, though it may hold it only as a diff base now.
    received: bool,
    /// A diff moved it on since it was read or written.
    diffed: bool,
}

impl Holding {
    fn whole(hash: blake3::Hash) -> Holding {
        Holding { hash, whole: true, received: true, diffed: false }
    }
}

/// A read request of the property test: a mode string, or the
/// `start_line`/`limit` window.
#[derive(Clone, Copy, Debug)]
enum Ask {
    Mode(&'static str),
    Window { start: u32, limit: u32 },
}

const ASKS: &[Ask] = &[
    Ask::Mode("full"),
    Ask::Mode("auto"),
    Ask::Mode("diff"),
    Ask::Mode("lines:1-3"),
    Ask::Mode("lines:2-"),
    Ask::Mode("lines:1-1000"),
    Ask::Mode("lines:500-510"),
    Ask::Window { start: 2, limit: 3 },
    Ask::Window { start: 1, limit: 1000 },
    Ask::Mode("signatures"),
    Ask::Mode("map"),
    Ask::Mode("reference"),
];

impl Ask {
    fn params(self, path: &str, fresh: bool) -> ReadParams {
        let mut params = ReadParams { paths: vec![path.into()], fresh, ..Default::default() };
        match self {
            Ask::Mode(mode) => params.mode = mode.into(),
            Ask::Window { start, limit } => (params.start_line, params.limit) = (Some(start), Some(limit)),
        }
        params
    }

    /// Only whole-file requests may be answered with a stub, never a range.
    fn may_stub(self) -> bool {
        matches!(self, Ask::Mode("full" | "auto" | "diff"))
    }

    /// The 1-based inclusive line range asked for, if any.
    fn range(self) -> Option<(usize, usize)> {
        match self {
            Ask::Mode("lines:1-3") => Some((1, 3)),
            Ask::Mode("lines:2-") => Some((2, usize::MAX)),
            Ask::Mode("lines:1-1000") => Some((1, 1000)),
            Ask::Mode("lines:500-510") => Some((500, 510)),
            Ask::Window { start, limit } => Some((start as usize, (start + limit - 1) as usize)),
            Ask::Mode(_) => None,
        }
    }
}

/// The lines `start..=end` of `text` as they stand in the file.
fn plain_lines(text: &str, (start, end): (usize, usize)) -> String {
    text.lines().skip(start - 1).take(end.saturating_sub(start - 1)).map(|l| format!("{l}\n")).collect()
}

fn tokens(text: &str) -> u64 {
    count_uncached(text) as u64
}

/// One read of the property test.
struct Step<'a> {
    session: &'a str,
    file: &'a str,
    ask: Ask,
    fresh: bool,
    /// Where in the sequence, for failure messages.
    at: &'a str,
}

/// Performs `step`, checks it against the model and updates the model.
fn check_read(p: &Project, step: &Step<'_>, holding: &mut Option<Holding>, texts: &HashMap<blake3::Hash, String>) {
    let &Step { session, file, ask, fresh, at } = step;
    let text = p.text(file);
    let hash = blake3::hash(text.as_bytes());
    let lines = text.lines().count();
    let result = p.read_with(session, &ask.params(file, fresh));
    if let Some((start, _)) = ask.range().filter(|(start, _)| *start > lines) {
        let e = result.expect_err(at);
        assert_eq!(e.kind, ErrorKind::InvalidArgument, "{at}: {e}");
        let length = if lines == 1 { "1 line".to_string() } else { format!("{lines} lines") };
        assert!(e.message.contains(&format!("{file} has {length}; line {start} is past the end")), "{at}: {e}");
        return;
    }
    let view: View = result.unwrap_or_else(|e| panic!("{at}: {e}"));
    assert_eq!(view.content_hash, hash.to_hex().as_str(), "{at}");
    let no_change = format!("[no change in {file} since the version you have]\n");
    let stub = format!("[unchanged {file} {lines}L since you had it whole · fresh=true or lines:N-M resend]");
    // What a stub would stand for: the view this request would send.
    let stands_for = if matches!(ask, Ask::Mode("diff")) { tokens(&no_change) } else { tokens(&text) };
    // Only where it helps: never in place of a view that costs less (a diff's "[no change]").
    let expect_stub = !fresh && ask.may_stub() && *holding == Some(Holding::whole(hash)) && tokens(&stub) < stands_for;
    assert_eq!(view.stub, expect_stub, "{at}: holding {holding:?} → {view:?}");
    if view.stub {
        assert_eq!(view.content, stub, "{at}");
        assert_eq!((view.raw_tokens, view.sent_tokens), (stands_for, tokens(&view.content)), "{at}");
        return;
    }
    let asks_whole = matches!(ask, Ask::Mode("full" | "auto")) || (fresh && matches!(ask, Ask::Mode("diff")));
    if view.mode == "full" && !asks_whole {
        // Never inflate: a view that would cost more than the file is the file, saying so when
        // the file with the note costs less than the view; a view standing for the file (an
        // outline, `reference`'s line) is the file even without it.
        let asked = match ask {
            Ask::Mode(mode) => mode.split(':').next().unwrap_or(mode),
            Ask::Window { .. } => "lines",
        };
        let swap_note = format!("sent in full: smaller than its {asked} view");
        let outline = matches!(ask, Ask::Mode("signatures" | "map" | "reference"));
        // A note costing more than the file it comes with is left out.
        let dropped = matches!(ask, Ask::Mode("aggressive")) && tokens(&swap_note) > tokens(&text);
        assert!(view.note == swap_note || ((outline || dropped) && view.note.is_empty()), "{at}: {view:?}");
        assert_eq!(view.content, text, "{at}");
        *holding = Some(Holding::whole(hash));
        return;
    }
    match ask {
        Ask::Mode("full" | "auto" | "signatures" | "map") => assert_eq!(view.raw_tokens, tokens(&text), "{at}"),
        Ask::Mode("reference") => assert_eq!(view.raw_tokens, view.sent_tokens, "{at}"),
        Ask::Mode("diff") if !fresh && holding.is_none() => {
            assert!(view.content.starts_with(&format!("[no diff of {file}:")), "{at}: {view:?}");
            assert_eq!(view.content.lines().count(), 1, "{at}: one line, never the file after a note");
            assert_eq!(view.raw_tokens, view.sent_tokens, "{at}: nothing saved");
        }
        // A base that is only what its own edit wrote spares no re-read: it never had the file.
        Ask::Mode("diff") if !fresh && view.mode == "diff" && holding.is_some_and(|h| !h.whole && !h.received) => {
            assert_eq!(view.raw_tokens, view.sent_tokens, "{at}: nothing saved")
        }
        Ask::Mode("diff") => assert_eq!(view.raw_tokens, tokens(&text), "{at}"),
        _ => {
            let range = ask.range().expect("a range");
            assert_eq!(view.raw_tokens, tokens(&plain_lines(&text, range)), "{at}: a range's baseline is that range");
        }
    }
    match view.mode.as_str() {
        "full" => {
            assert_eq!(view.content, text, "{at}: full means the exact bytes");
            *holding = Some(Holding::whole(hash));
        }
        "diff" => {
            let Some(had) = *holding else {
                assert!(matches!(ask, Ask::Mode("diff")), "{at}");
                return;
            };
            assert!(matches!(ask, Ask::Mode("diff")) || had.whole, "{at}: a full read diffs only a whole holding");
            let base = &texts[&had.hash];
            // A version it read whole but no longer holds (a failed edit since) is said to be one, and so
            // is a base its own edit made of a file it had not read whole.
            let no_change = match (had.whole, had.received, had.diffed) {
                (true, _, _) => no_change,
                (false, true, false) => format!("[no change in {file} since you last read it]\n"),
                (false, true, true) => format!("[no change in {file} since the last diff you were sent]\n"),
                (false, false, false) => {
                    format!("[no change in {file} since your edit of it; a full read sends the rest]\n")
                }
                (false, false, true) => {
                    format!("[no change in {file} since the last diff you were sent; a full read sends the rest]\n")
                }
            };
            match *base == text {
                true => assert!(view.content.ends_with(&no_change), "{at}: {view:?}"),
                false => assert!(!view.content.contains("[no change in "), "{at}: a change hidden: {view:?}"),
            }
            for line in view.content.lines() {
                if let Some(added) = line.strip_prefix('+').filter(|_| !line.starts_with("+++")) {
                    assert!(text.lines().any(|l| l == added), "{at}: +{added} is not in the file");
                }
                if let Some(removed) = line.strip_prefix('-').filter(|_| !line.starts_with("---")) {
                    assert!(base.lines().any(|l| l == removed), "{at}: -{removed} was not in the diff base");
                }
            }
            *holding = Some(match had.whole {
                true => Holding::whole(hash),
                false => Holding { hash, diffed: had.diffed || had.hash != hash, ..had },
            });
        }
        mode if mode.starts_with("lines:") => {
            let (start, end) = ask.range().expect("a range");
            if start == 1 && end >= lines {
                *holding = Some(Holding::whole(hash));
            }
        }
        _ => {}
    }
}

#[test]
fn stub_appears_exactly_when_the_session_holds_the_current_content_whole() {
    for seed in 1..=40u64 {
        let p = Project::new();
        // One file of a line, smaller than a stub and than some views (the model then expects the
        // file itself), and two larger ones.
        let files = ["a.rs", "b.rs", "c.rs"];
        let sizes = [30, 70, 1];
        let mut versions = [0usize; 3];
        let mut texts: HashMap<blake3::Hash, String> = HashMap::new();
        for (f, name) in files.iter().enumerate() {
            p.write(name, &code(0, sizes[f]));
        }
        let mut model: HashMap<(usize, usize), Holding> = HashMap::new();
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        for step in 0..150 {
            let f = rng.below(files.len());
            let path = p.root.join(files[f]);
            let session = rng.below(3);
            let sid = format!("s{session}");
            match rng.below(12) {
                0 => {
                    versions[f] += 1;
                    p.write(files[f], &code(versions[f], sizes[f]));
                }
                1 => change_in_place(&path),
                2 | 3 => {
                    let before = p.text(files[f]);
                    let old = if rng.below(3) == 0 {
                        "no such text".to_string()
                    } else {
                        before.lines().nth(rng.below(before.lines().count())).unwrap().to_string()
                    };
                    let new = format!("{old} // edited at {step}");
                    let held = model.get(&(session, f)).copied();
                    match p.edit(&sid, files[f], &old, &new) {
                        Ok(_) => {
                            let after = p.text(files[f]);
                            assert_eq!(after, before.replacen(&old, &new, 1), "seed {seed} step {step}");
                            let hash = blake3::hash(after.as_bytes());
                            let before_hash = blake3::hash(before.as_bytes());
                            let holding = match held {
                                Some(held) if held.hash == before_hash => {
                                    Holding { hash, whole: held.whole, received: held.whole, diffed: false }
                                }
                                // Changed since it last saw it: what it saw stays its diff base.
                                Some(held) => Holding { whole: false, ..held },
                                None => Holding { hash, whole: false, received: false, diffed: false },
                            };
                            texts.insert(hash, after);
                            model.insert((session, f), holding);
                        }
                        Err(_) => {
                            if let Some(held) = held {
                                model.insert((session, f), Holding { whole: false, ..held });
                            }
                        }
                    }
                }
                _ => {
                    let ask = ASKS[rng.below(ASKS.len())];
                    let fresh = rng.below(5) == 0;
                    let at = format!("seed {seed} step {step}: {sid} {ask:?} fresh={fresh} of {}", files[f]);
                    let text = p.text(files[f]);
                    texts.insert(blake3::hash(text.as_bytes()), text);
                    let mut holding = model.get(&(session, f)).copied();
                    let read = Step { session: &sid, file: files[f], ask, fresh, at: &at };
                    check_read(&p, &read, &mut holding, &texts);
                    if let Some(h) = holding {
                        model.insert((session, f), h);
                    }
                }
            }
        }
    }
}

#[test]
fn a_stub_never_stands_for_a_view_that_costs_no_more() {
    let p = Project::new();
    p.write("tiny.rs", "fn a() {}\n");
    assert!(!p.read("s", "tiny.rs", "full", false).stub);
    let again = p.read("s", "tiny.rs", "full", false);
    assert!(!again.stub && again.content == "fn a() {}\n", "a small file is sent again: {again:?}");
    assert_eq!(again.raw_tokens, again.sent_tokens, "and saves nothing");
    p.write("big.rs", &code(0, 300));
    p.read("s", "big.rs", "full", false);
    let diff = p.read("s", "big.rs", "diff", false);
    assert!(!diff.stub, "{diff:?}");
    assert_eq!(diff.content, "[no change in big.rs since the version you have]\n");
    assert!(p.read("s", "big.rs", "full", false).stub, "the file itself is worth a stub");
}

#[test]
fn an_explicit_range_is_sent_even_when_unchanged_and_past_the_end_is_an_error() {
    let p = Project::new();
    let text = code(0, 10);
    p.write("r.rs", &text);
    assert_eq!(p.read("s", "r.rs", "full", false).content, text);
    assert!(p.read("s", "r.rs", "full", false).stub, "the session has it whole");
    let range = p.read("s", "r.rs", "lines:3-4", false);
    assert!(!range.stub);
    assert_eq!(range.content, format!("[lines 3-4 of 10]\n{}", plain_lines(&text, (3, 4))));
    assert_eq!(range.raw_tokens, tokens(&plain_lines(&text, (3, 4))), "the baseline is the range, not the file");
    let window = ReadParams { paths: vec!["r.rs".into()], start_line: Some(9), limit: Some(5), ..Default::default() };
    let tail = p.read_with("s", &window).unwrap();
    assert!(!tail.stub && tail.content.starts_with("[lines 9-10 of 10]\n"), "{tail:?}");
    for past in ["lines:11-12", "lines:1-2,40-41"] {
        let e = p.try_read("s", "r.rs", past, false).unwrap_err();
        assert!(e.message.contains("r.rs has 10 lines; line"), "{past}: {e}");
    }
    let window = ReadParams { paths: vec!["r.rs".into()], start_line: Some(11), ..Default::default() };
    assert!(p.read_with("s", &window).unwrap_err().message.contains("r.rs has 10 lines; line 11 is past the end"));
    // A mode and a window are two answers to one question: refused, not one of them picked.
    for mode in ["signatures", "lines:20-22"] {
        let both = ReadParams { mode: mode.into(), start_line: Some(5), limit: Some(2), ..window.clone() };
        let e = p.read_with("s", &both).unwrap_err();
        assert!(e.message.contains("ask for different views"), "{mode}: {e}");
    }
    let auto = ReadParams { mode: "auto".into(), start_line: Some(5), limit: Some(2), ..window.clone() };
    assert!(p.read_with("s", &auto).unwrap().content.starts_with("[lines 5-6 of 10]\n"));
    p.write("empty.txt", "");
    let e = p.try_read("s", "empty.txt", "lines:1-5", false).unwrap_err();
    assert!(e.message.contains("empty.txt has 0 lines; line 1 is past the end"), "{e}");
}

#[test]
fn after_a_failed_edit_the_next_read_sends_the_content() {
    let p = Project::new();
    let text = code(0, 100);
    p.write("f.rs", &text);
    p.read("s", "f.rs", "full", false);
    assert!(p.read("s", "f.rs", "full", false).stub);
    let e = p.edit("s", "f.rs", "fn item_10() -> u32 { 99 }", "x").unwrap_err();
    assert!(e.message.contains("read the file again"), "{e}");
    let again = p.read("s", "f.rs", "full", false);
    assert!(!again.stub && again.content == text, "the agent was told to read again: {again:?}");
    assert!(p.read("s", "f.rs", "auto", false).stub, "once it has the content, stubs resume");
    p.edit("s", "f.rs", "fn item_", "x").unwrap_err();
    assert!(!p.read("s", "f.rs", "auto", false).stub, "a refused ambiguous edit counts as failed too");
}

#[test]
fn a_diff_after_a_failed_edit_says_the_base_is_what_the_session_read() {
    // QA: after a whole read and a failed edit, `diff` said "since your edit of it; you have read only part
    // of it" — there was no edit, and the session had read all of it.
    let p = Project::new();
    p.write("d.rs", &code(0, 100));
    p.read("s", "d.rs", "full", false);
    p.edit("s", "d.rs", "no such text", "x").unwrap_err();
    assert_eq!(p.read("s", "d.rs", "diff", false).content, "[no change in d.rs since you last read it]\n");
    let theirs = p.text("d.rs").replace("fn item_50() -> u32 { 350 }", "fn item_50() -> u32 { 0 }");
    p.write("d.rs", &theirs);
    let diff = p.read("s", "d.rs", "diff", false);
    assert!(diff.content.starts_with("--- a/d.rs (as you last read it)"), "{}", diff.content);
    assert!(!p.read("s", "d.rs", "full", false).stub, "still sent after the diff: its edit failed");
}

#[test]
fn after_a_failed_edit_a_successful_one_is_the_diff_base() {
    // Review: read whole, a failed edit, then a successful one: the base is what its edit wrote, and a
    // `diff` said "since you last read it".
    let p = Project::new();
    p.write("e.rs", &code(0, 100));
    p.read("s", "e.rs", "full", false);
    p.edit("s", "e.rs", "no such text", "x").unwrap_err();
    p.edit("s", "e.rs", "fn item_10() -> u32 { 70 }", "fn item_10() -> u32 { 71 }").unwrap();
    let unchanged = p.read("s", "e.rs", "diff", false).content;
    assert_eq!(unchanged, "[no change in e.rs since your edit of it; a full read sends the rest]\n");
    assert!(!p.read("s", "e.rs", "full", false).stub, "its idea of the file may be wrong: sent");
}

#[test]
fn a_session_that_held_the_file_whole_holds_what_it_wrote() {
    let p = Project::new();
    p.write("w.rs", &code(0, 100));
    p.read("s", "w.rs", "full", false);
    p.edit("s", "w.rs", "fn item_10() -> u32 { 70 }", "fn item_10() -> u32 { 71 }").unwrap();
    let after = p.read("s", "w.rs", "full", false);
    assert!(after.stub, "it wrote the change itself: {after:?}");
    assert_eq!(after.content_hash, blake3::hash(p.text("w.rs").as_bytes()).to_hex().as_str());
    // Someone else changes another line: the diff shows that change only.
    let theirs = p.text("w.rs").replace("fn item_50() -> u32 { 350 }", "fn item_50() -> u32 { 0 }");
    p.write("w.rs", &theirs);
    let diff = p.read("s", "w.rs", "diff", false);
    assert!(diff.content.contains("-fn item_50() -> u32 { 350 }\n+fn item_50() -> u32 { 0 }"), "{}", diff.content);
    assert!(!diff.content.contains("item_10"), "its own edit is not news to it: {}", diff.content);
    assert!(!p.read("other", "w.rs", "full", false).stub, "another session never gets a stub");
}

#[test]
fn a_session_that_held_part_of_the_file_diffs_from_its_edit_but_reads_in_full() {
    let p = Project::new();
    p.write("q.rs", &code(0, 100));
    p.read("s", "q.rs", "lines:8-12", false);
    p.edit("s", "q.rs", "fn item_10() -> u32 { 70 }", "fn item_10() -> u32 { 71 }").unwrap();
    let unchanged = p.read("s", "q.rs", "diff", false);
    assert_eq!(unchanged.content, "[no change in q.rs since your edit of it; a full read sends the rest]\n");
    // It never received the file whole, so no re-read of it was spared (QA: each such diff booked
    // the whole file as saved).
    let sent = tokens(&unchanged.content);
    assert_eq!((unchanged.raw_tokens, unchanged.sent_tokens), (sent, sent), "nothing saved");
    let theirs = p.text("q.rs").replace("fn item_90() -> u32 { 630 }", "fn item_90() -> u32 { 1 }");
    p.write("q.rs", &theirs);
    let diff = p.read("s", "q.rs", "diff", false);
    assert!(diff.content.contains("+fn item_90() -> u32 { 1 }") && !diff.content.contains("item_10"), "{diff:?}");
    assert_eq!(diff.raw_tokens, diff.sent_tokens, "{diff:?}");
    // QA: the next diff said it started from the session's edit, which the last diff had moved on.
    let again = p.read("s", "q.rs", "diff", false);
    assert_eq!(again.content, "[no change in q.rs since the last diff you were sent; a full read sends the rest]\n");
    let full = p.read("s", "q.rs", "full", false);
    assert!(!full.stub && full.mode == "full" && full.content == theirs, "it never had the rest: {full:?}");
    assert!(p.read("s", "q.rs", "full", false).stub, "now it has it whole");
}

#[test]
fn diff_without_a_base_says_so_in_one_line() {
    let p = Project::new();
    p.write("d.rs", &code(0, 300));
    let v = p.read("s", "d.rs", "diff", false);
    assert_eq!(
        v.content,
        "[no diff of d.rs: this session has not read it in full or edited it · mode=full or lines:N-M sends the \
         content]\n"
    );
    assert_eq!((v.raw_tokens, v.sent_tokens), (tokens(&v.content), tokens(&v.content)), "nothing saved");
    assert!(!p.read("s", "d.rs", "full", false).stub, "a note is not the content");
    assert_eq!(p.read("s", "d.rs", "diff", true).content, code(0, 300), "fresh sends the file");
}

#[test]
fn a_changed_file_reread_in_full_answers_with_a_diff_and_fresh_gives_everything() {
    let p = Project::new();
    let before = code(0, 300);
    p.write("big.rs", &before);
    let first = p.read("s", "big.rs", "full", false);
    assert_eq!(first.content, before);
    let after = before.replacen("fn item_150() -> u32 { 50 }", "fn item_150() -> u32 { 4242 }", 1);
    assert_ne!(after, before);
    p.write("big.rs", &after);
    let second = p.read("s", "big.rs", "full", false);
    assert_eq!(second.mode, "diff", "{second:?}");
    assert!(second.content.contains("+fn item_150() -> u32 { 4242 }"), "{}", second.content);
    assert!(second.sent_tokens * 2 < second.raw_tokens);
    assert!(p.read("s", "big.rs", "full", false).stub, "the diff completed the session's copy");
    assert_eq!(p.read("s", "big.rs", "full", true).content, after);
    assert!(!p.read("other", "big.rs", "full", false).stub, "another session never gets a stub");
}

#[test]
fn views_cost_no_more_than_the_file_with_its_note_and_are_byte_stable() {
    let p = Project::new();
    p.write("tiny.rs", "fn a() {}\n");
    // A view costing more than the file is the file, with a note saying why, when that costs
    // less than the view: a range's header may cost more than a tiny file, but less than the
    // file and the note. An outline or `reference`'s line is never larger than the file.
    let file = tokens("fn a() {}\n");
    for mode in ["signatures", "map", "aggressive", "lines:1-1", "reference", "auto", "diff"] {
        let v = p.read("", "tiny.rs", mode, false);
        if v.content == "fn a() {}\n" {
            assert!(v.sent_tokens <= file + tokens(&format!("[{}]", v.note)), "{mode}: {v:?}");
            continue;
        }
        if ["signatures", "map", "aggressive", "reference", "auto"].contains(&mode) {
            assert!(v.sent_tokens <= file, "{mode} inflated: {v:?}");
        }
        let swap_note = format!("sent in full: smaller than its {mode} view");
        assert!(v.sent_tokens <= file + tokens(&swap_note), "{mode}: {v:?}");
    }
    // An outline or aggressive view of a tiny file with nothing in it to list costs no more than
    // the file: its note was not counted ("no definitions found" on `x = 1` cost 20 tokens for
    // 5), and the note saying the file was sent instead is left out when it alone costs more.
    for (path, text) in [("one.py", "x = 1\n"), ("only.js", "// a comment\n")] {
        p.write(path, text);
        for mode in ["signatures", "map", "aggressive"] {
            let v = p.read("", path, mode, false);
            assert!(v.sent_tokens <= tokens(text), "{path} {mode} inflated: {v:?}");
            assert_eq!(v.content, text, "{path} {mode}");
        }
    }
    // A data file's map with its nested-keys note costs more than the one-line file: the file
    // is sent, never the larger view.
    let data = "{\"a\": {\"b\": {\"c\": {\"d\": 1}}}}\n";
    p.write("d.json", data);
    for mode in ["map", "signatures"] {
        let v = p.read("", "d.json", mode, false);
        assert_eq!(v.content, data, "{mode}: {v:?}");
        assert!(v.sent_tokens <= v.raw_tokens + tokens(&format!("[{}]", v.note)), "{mode}: {v:?}");
    }
    let range = p.read("", "tiny.rs", "lines:1-1", false);
    assert_eq!((range.content.as_str(), range.note.as_str()), ("[lines 1-1 of 1]\nfn a() {}\n", ""));
    let commented: String = code(3, 200).lines().map(|l| format!("// explains the next line\n{l}\n")).collect();
    p.write("big.rs", &commented);
    for mode in ["signatures", "map", "aggressive", "auto"] {
        let a = p.read("", "big.rs", mode, false);
        let b = p.read("", "big.rs", mode, false);
        assert_eq!(a, b, "{mode} is deterministic");
        assert!(a.sent_tokens < a.raw_tokens, "{mode}: {} vs {}", a.sent_tokens, a.raw_tokens);
    }
    assert!(!p.read("", "big.rs", "aggressive", false).content.contains("explains"), "comments removed");
    let sig = p.read("", "big.rs", "signatures", false);
    // Same-shaped functions share a line (`fn {item_0, …, item_199}() -> u32`): every name stays.
    assert!(sig.content.contains(" item_199}() -> u32"), "{}", sig.content);
}

/// Every view that stands for a file — an outline, `aggressive` and `reference`'s line — costs no
/// more than the file, its note counted: of a tiny file each is the file, with a note only when
/// the note alone costs no more than the file. `reference`'s line (13 tokens for `fn a() {}`'s 4)
/// and the "sent in full" note of aggressive text whose comments are not known (a tiny log, a
/// script whose `#!` names an interpreter without a comment syntax here: 22 tokens for 9) were
/// sent as they were.
#[test]
fn a_view_standing_for_a_tiny_file_is_never_larger_than_it() {
    let p = Project::new();
    let files = [
        ("tiny.rs", "fn a() {}\n"),
        ("small.log", "started\nstopped\n"),
        ("deploy", "#!/bin/sh\necho hi\n"),
        ("run", "#!/usr/bin/env fish\necho hi\n"),
        ("one.py", "x = 1\n"),
    ];
    for (path, text) in files {
        p.write(path, text);
        for mode in ["signatures", "map", "aggressive", "reference"] {
            let view = p.read("", path, mode, false);
            assert!(view.sent_tokens <= tokens(text), "{path} {mode} inflated: {view:?}");
            if mode == "reference" || view.mode == "full" {
                assert_eq!((view.content.as_str(), view.note.as_str()), (text, ""), "{path} {mode}");
            }
        }
    }
    // A file a little larger keeps the note that says why it was sent: it costs less than the file.
    let log = "service started on port 8080 after 3 retries\nservice stopped by SIGTERM after 12 requests\n";
    p.write("service", &format!("#!/usr/bin/env fish\n{log}"));
    let view = p.read("", "service", "aggressive", false);
    assert_eq!(view.note, "aggressive: no comment syntax known for service: sent in full");
    assert!(view.sent_tokens <= 2 * view.raw_tokens, "{view:?}");
}

#[test]
fn an_empty_file_is_said_to_be_empty_in_every_view() {
    let p = Project::new();
    p.write("__init__.py", "");
    for mode in ["auto", "full", "signatures", "map", "aggressive"] {
        let view = p.read("", "__init__.py", mode, true);
        assert_eq!((view.content.as_str(), view.note.as_str()), ("", "empty file"), "{mode}");
        assert_eq!(view.raw_tokens, 0, "{mode}");
        assert!(view.sent_tokens <= 5, "{mode}: the note's own tokens, {}", view.sent_tokens);
    }
}

#[test]
fn auto_never_sends_the_whole_of_a_large_file_of_long_lines() {
    let p = Project::new();
    // A minified bundle: one line, no definitions the outline lists (a file-level `var` is one).
    let bundle = format!("a.push([{}]);\n", (0..60_000).map(|i| i.to_string()).collect::<Vec<_>>().join(","));
    p.write("bundle.min.js", &bundle);
    let auto = p.read("", "bundle.min.js", "auto", false);
    assert!(
        auto.content.starts_with("[no headings: lines 1-1 of 1 shown, line 1 cut]\na.push([0,1,2,"),
        "{}",
        auto.note
    );
    assert!(auto.content.len() < 5_000, "{} bytes of a {}-byte file", auto.content.len(), bundle.len());
    assert!(
        auto.note.contains("first line alone too long to show") && auto.note.contains("mode=full"),
        "{}",
        auto.note
    );
    // A log of long lines: as many whole lines as fit the head's bound, not 200 of them.
    let log: String = (0..300).map(|i| format!("{i:04} {}\n", "x".repeat(1_000))).collect();
    p.write("long.log", &log);
    let auto = p.read("", "long.log", "auto", false);
    assert!(auto.note.contains("first 31 lines"), "{}", auto.note);
    assert!(auto.content.contains("\n0030 x") && !auto.content.contains("\n0031 x"), "{}", auto.note);
}

/// QA: auto's head of a long text booked the whole file as raw, so the head and then the rest by
/// range claimed the file saved; and a default read of a file changed since the session read it
/// whole gave a map with no sign its copy was stale.
#[test]
fn auto_books_a_texts_head_at_its_lines_and_says_what_changed_since_a_whole_read() {
    let p = Project::new();
    let doc: String = (0..900).map(|i| format!("Paragraph {i} says something about the library.\n")).collect();
    p.write("index.rst", &doc);
    let head = p.read("s", "index.rst", "auto", false);
    assert!(head.content.starts_with("[lines 1-"), "{}", head.note);
    assert_eq!(head.raw_tokens, tokens(&plain_lines(&doc, (1, 200))), "the head's lines, not the file: {head:?}");
    assert!(head.raw_tokens < tokens(&doc) / 2, "{head:?}");

    // A file auto sends whole: the change as a diff, as a full re-read gives it.
    let source = code(0, 100);
    p.write("mid.rs", &source);
    assert_eq!(p.read("s", "mid.rs", "full", false).content, source);
    p.write("mid.rs", &source.replace("fn item_7() -> u32 { 49 }", "fn item_7() -> u32 { 50 }"));
    let again = p.read("s", "mid.rs", "auto", false);
    assert_eq!(again.note, "auto: changed since your last read, answered with a diff", "{again:?}");
    assert!(again.content.contains("+fn item_7() -> u32 { 50 }"), "{}", again.content);
    // One auto answers with its map: the map, and a note that the copy the session has is stale.
    let source = code(0, 400);
    p.write("big.rs", &source);
    assert_eq!(p.read("s", "big.rs", "full", false).content, source);
    p.write("big.rs", &source.replace("fn item_7() -> u32 { 49 }", "fn item_7() -> u32 { 50 }"));
    let again = p.read("s", "big.rs", "auto", false);
    assert!(again.note.ends_with("; changed since your last read (mode=full for the content)"), "{again:?}");
    // A small file sent whole needs no such note.
    p.write("small.rs", "fn a() {}\n");
    p.read("s", "small.rs", "full", false);
    p.write("small.rs", "fn b() {}\n");
    let whole = p.read("s", "small.rs", "auto", false);
    assert_eq!((whole.content.as_str(), whole.note.as_str()), ("fn b() {}\n", ""), "{whole:?}");
}

/// A map that is itself long (a data file of 3,000 keys, generated code of thousands of functions)
/// was auto's whole answer: 99,000 tokens for 20,000 functions, more than hosts take in a tool
/// result. Auto sends the map's head, as it sends text's, and says what it left out; the map asked
/// by name is whole.
#[test]
fn auto_sends_the_head_of_a_long_map_and_says_where_the_rest_is() {
    let p = Project::new();
    let data: String = (0..3_000).map(|i| format!("k{i}:\n  value: {i}\n  label: item {i}\n")).collect();
    p.write("catalog.yaml", &data);
    let auto = p.read("", "catalog.yaml", "auto", false);
    assert!(auto.sent_tokens <= 8_000 + 200, "{} tokens sent", auto.sent_tokens);
    let shown = auto.content.lines().count();
    let first_left_out = 1 + 3 * shown;
    assert!(auto.content.ends_with(&format!("k{} {{value, label}}\n", shown - 1)), "{}", auto.note);
    let map = p.read("", "catalog.yaml", "map", false);
    assert!(map.content.starts_with(&auto.content) && map.content.contains("\n8998-9000 k2999 {value, label}"));
    assert!(
        auto.note.contains(&format!(
            "; the map is {} tokens: its first {shown} of 3000 lines sent; mode=map for the whole map, \
             mode=lines:{first_left_out}-9000 for the file from the first definition left out",
            map.sent_tokens
        )),
        "{}",
        auto.note
    );
    // Thousands of same-shaped functions make one line: its start is sent, and said to be.
    let code: String = (0..6_000).map(|i| format!("def handler_{i}(event, context):\n    return event\n\n")).collect();
    p.write("handlers.py", &code);
    let auto = p.read("", "handlers.py", "auto", false);
    assert!(auto.sent_tokens <= 8_000 + 200, "{} tokens sent", auto.sent_tokens);
    assert!(auto.content.starts_with("1-17999 fn {handler_0, handler_1, ") && auto.content.ends_with("…\n"));
    assert!(
        auto.note.contains("; the map is ")
            && auto.note.ends_with(" tokens: the start of its first line sent; mode=map for the whole map"),
        "{}",
        auto.note
    );
}

#[test]
fn aggressive_shortens_text_it_has_no_comment_syntax_for_as_auto_does() {
    let p = Project::new();
    // A log: no language, so no comments to strip. It was sent whole, the note saying "no outline".
    let log: String = (0..20_000)
        .map(|i| format!("2026-12-06T10:{:02}:{:02}Z INFO request {i} served in 3ms\n", i / 60 % 60, i % 60))
        .collect();
    p.write("app.log", &log);
    let view = p.read("", "app.log", "aggressive", false);
    assert!(view.content.starts_with("[lines 1-200 of 20000]\n2026-12-06T10:00:00Z INFO request 0 "), "{}", view.note);
    assert!(view.content.contains(" request 199 ") && !view.content.contains(" request 200 "), "{}", view.note);
    assert!(
        view.note.starts_with("aggressive: no comment syntax known for app.log; ")
            && view.note.ends_with(" tokens of text → first 200 lines; ask lines:N-M for more"),
        "{}",
        view.note
    );
    assert!(view.content.len() * 50 < log.len(), "{} of {} bytes", view.content.len(), log.len());
    // Some of the text as it is, as the map's head of text: no saving is claimed for it.
    assert!(view.raw_tokens <= view.sent_tokens, "{} {}", view.raw_tokens, view.sent_tokens);
    // Small text is sent whole, as auto sends it, the note saying why nothing was removed.
    let small_log = "service started on port 8080 after 3 retries\nservice stopped by SIGTERM after 12 requests\n";
    p.write("small.log", small_log);
    let small = p.read("", "small.log", "aggressive", false);
    assert_eq!(small.content, small_log);
    assert_eq!(small.note, "aggressive: no comment syntax known for small.log: sent in full");
}

/// PHP (and the other languages without a grammar here whose comments a scan finds) lose their
/// comments and blank lines, never a string's or a heredoc's text: every `.php` file was sent
/// whole, "no comment syntax known".
#[test]
fn aggressive_strips_the_comments_of_php() {
    let p = Project::new();
    let php = "<?php\n\n/**\n * A logger.\n */\nclass Logger\n{\n    // the channel\n    private $url = 'http://example.com'; # where\n    \n    public function log($m) { return <<<EOT\n    # $m\n    EOT; }\n}\n";
    p.write("Logger.php", php);
    let view = p.read("", "Logger.php", "aggressive", false);
    assert_eq!(
        view.content,
        "<?php\nclass Logger\n{\n    private $url = 'http://example.com';\n    public function log($m) { return <<<EOT\n    # $m\n    EOT; }\n}\n",
        "{}",
        view.note
    );
    assert_eq!(view.note, "");
    // A string the scan sees no end of: nothing removed, the note says why.
    let open_php =
        "<?php\n// a greeting for the logs, sent with every line\n$greeting = 'hello from the logger';\n$s = \"open;\n";
    p.write("open.php", open_php);
    let open = p.read("", "open.php", "aggressive", false);
    assert_eq!(open.content, open_php);
    assert_eq!(
        open.note,
        "aggressive: comments not removed (a string on line 4 is left open) for open.php: sent in full"
    );
}

#[test]
fn a_file_without_definitions_is_never_answered_with_an_empty_view() {
    let p = Project::new();
    // A barrel of statements, large enough for auto to prefer an outline.
    let calls: String = (0..400).map(|i| format!("console.log(\"starting step {i} of the setup\");\n")).collect();
    p.write("setup.js", &calls);
    let auto = p.read("", "setup.js", "auto", false);
    assert!(!auto.content.trim().is_empty(), "{auto:?}");
    assert!(auto.content.contains("starting step 0 of the setup"), "{}", auto.content);
    assert!(auto.note.contains("no definitions found"), "{}", auto.note);
    let map = p.read("", "setup.js", "map", true);
    assert!(map.note.contains("no definitions found") && map.note.contains("mode=full"), "{map:?}");
    // Imports alone are no structure either: the script's code must not vanish behind them.
    let script: String = std::iter::once("import os, sys\n".to_string())
        .chain((0..400).map(|i| format!("print(\"configuring step {i} of the build\")\n")))
        .collect();
    p.write("setup.py", &script);
    let auto = p.read("", "setup.py", "auto", false);
    assert!(auto.content.contains("configuring step 399"), "{}", auto.note);
    // A file whose every definition a syntax error swallowed says which lines were not parsed.
    let rest: String = (0..40).map(|i| format!("  check(step{i}, \"the setup's step {i}\")\n")).collect();
    let signature = "<L extends (...a: Array<any>) => any, F extends (...a: Array<any>) => any>(f: F): L & F\n";
    p.write("broken.ts", &format!("export const both: {{\n{signature}{signature}}} = function(f) {{\n{rest}}}\n"));
    let signatures = p.read("", "broken.ts", "signatures", true);
    assert!(signatures.note.contains("no definitions could be outlined in broken.ts (45 lines)"), "{signatures:?}");
    // The statement is broken from its head to its closing brace: all of it, said once.
    assert_eq!(signatures.content, "[outline incomplete: lines 1-45 not parsed]\n", "where, said once");
}

#[test]
fn a_text_file_s_head_books_no_saving_whatever_its_lines_start_with() {
    let p = Project::new();
    // A log's lines start with dates, which an outline's spans also start with (digits).
    let log: String = (0..2000).map(|i| format!("2024-01-01 12:00:{:02} INFO served request {i}\n", i % 60)).collect();
    p.write("app.log", &log);
    let head = p.read("", "app.log", "signatures", false);
    assert!(head.content.starts_with("[no headings: lines 1-"), "{}", head.content);
    assert_eq!(head.raw_tokens, head.sent_tokens, "a head saves nothing: {head:?}");
    // Markdown without headings is shown as other text is: by its head, saving nothing.
    let prose: String = (0..500).map(|i| format!("{i} apples were counted on day {i}.\n\n")).collect();
    p.write("README.md", &prose);
    let head = p.read("", "README.md", "map", false);
    assert!(head.content.starts_with("[no headings: lines 1-40 of 1000 shown]\n0 apples"), "{head:?}");
    assert_eq!(head.raw_tokens, head.sent_tokens, "{head:?}");
    // A text format's headings are an outline, worth the file (Markdown is outlined as code).
    let notes: String =
        (0..200).map(|i| format!("Part {i}\n=========\n\n{i} apples were counted in part {i}.\n\n")).collect();
    p.write("notes.rst", &notes);
    let outline = p.read("", "notes.rst", "map", false);
    assert!(outline.content.starts_with("1-4 # Part 0\n6-9 # Part 1\n"), "{}", outline.content);
    assert_eq!((outline.raw_tokens, outline.sent_tokens), (tokens(&notes), tokens(&outline.content)), "{outline:?}");
}

#[test]
fn bad_input_gets_a_clear_error() {
    let p = Project::new();
    p.write("ok.txt", "hello\n");
    std::fs::write(p.root.join("bin.dat"), [0u8, 1, 2, 3]).unwrap();
    std::fs::create_dir(p.root.join("dir")).unwrap();
    let outside = p.root.parent().unwrap().join("outside.txt");
    std::fs::write(&outside, "secret\n").unwrap();
    let cases: &[(&str, &str, ErrorKind, &str)] = &[
        ("missing.rs", "full", ErrorKind::NotFound, "no such file"),
        ("dir", "full", ErrorKind::InvalidArgument, "is a directory"),
        ("bin.dat", "full", ErrorKind::InvalidArgument, "binary file"),
        ("../outside.txt", "full", ErrorKind::PermissionDenied, "allow_paths"),
        ("ok.txt", "summary", ErrorKind::InvalidArgument, "valid modes: full, lines:N-M"),
        ("ok.txt", "lines:5-9", ErrorKind::InvalidArgument, "has 1 line;"),
        ("ok.txt", "lines:3-1", ErrorKind::InvalidArgument, "bad line range"),
    ];
    for (path, mode, kind, needle) in cases {
        let e = p.try_read("s", path, mode, false).unwrap_err();
        assert_eq!(e.kind, *kind, "{path} {mode}: {e}");
        assert!(e.message.contains(needle), "{path} {mode}: {e}");
    }
    // Several paths: the readable ones are served, the others carry errors.
    let params =
        ReadParams { paths: vec!["ok.txt".into(), "missing.rs".into()], mode: "full".into(), ..Default::default() };
    let views = p.engine.read(&p.caller("s"), &params).unwrap();
    assert_eq!(views[0].as_ref().unwrap().content, "hello\n");
    assert_eq!(views[1].as_ref().unwrap_err().kind, ErrorKind::NotFound);
}

#[test]
fn edits_are_exact_unique_and_refuse_what_they_must() {
    let p = Project::new();
    let f = p.write("e.rs", "let a = 1;\nlet b = 1;\n");
    std::os::unix::fs::PermissionsExt::set_mode(&mut std::fs::metadata(&f).unwrap().permissions(), 0o640);
    std::fs::set_permissions(&f, std::os::unix::fs::PermissionsExt::from_mode(0o640)).unwrap();
    let e = p.edit("s", "e.rs", "= 1;", "= 2;").unwrap_err();
    assert!(e.message.contains("matches 2 times") && e.message.contains("lines 1, 2"), "{e}");
    assert_eq!(p.edit("s", "e.rs", "= 3;", "x").unwrap_err().kind, ErrorKind::NotFound);
    let same = p.edit("s", "e.rs", "let a = 1;", "let a = 1;").unwrap_err();
    assert_eq!(same.kind, ErrorKind::InvalidArgument);
    assert!(same.message.contains("e.rs was not edited: the new text is the text it replaces"), "{same}");
    p.write("b.dat", "ab\0cd");
    let binary = p.edit("s", "b.dat", "ab", "xy").unwrap_err();
    assert!(
        binary.message.contains("b.dat is a binary file (5 bytes), not text: it cannot be shown or edited"),
        "{binary}"
    );
    let all = EditParams {
        path: "e.rs".into(),
        old_string: "= 1;".into(),
        new_string: "= 2;".into(),
        replace_all: true,
        ..Default::default()
    };
    let out = p.engine.edit(&p.caller("s"), &all).unwrap();
    assert_eq!(out.replacements, 2);
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "let a = 2;\nlet b = 2;\n");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(std::fs::metadata(&f).unwrap().permissions().mode() & 0o777, 0o640, "permissions kept");

    std::os::unix::fs::symlink(&f, p.root.join("link.rs")).unwrap();
    assert_eq!(p.edit("s", "link.rs", "a", "b").unwrap_err().kind, ErrorKind::PermissionDenied);
    assert_eq!(p.edit("s", "nope.rs", "a", "b").unwrap_err().kind, ErrorKind::NotFound);

    let create =
        EditParams { path: "new.rs".into(), new_string: "fn n() {}\n".into(), create: true, ..Default::default() };
    assert!(p.engine.edit(&p.caller("s"), &create).unwrap().created);
    assert_eq!(std::fs::read_to_string(p.root.join("new.rs")).unwrap(), "fn n() {}\n");

    // Creating again refuses to overwrite and says how to change the file instead, in the
    // reader's own words.
    let e = p.engine.edit(&p.caller("s"), &EditParams { new_string: "other\n".into(), ..create.clone() }).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    assert_eq!(
        e.message,
        "new.rs already exists, and create=true never overwrites a file: to change it, give the exact text to \
         replace as old_string and its replacement as new_string, or replace whole lines by number (ctx_edit \
         start_line/end_line)"
    );
    let cli = EditParams { new_string: "other\n".into(), surface: Surface::Cli, ..create };
    let e = p.engine.edit(&p.caller("s"), &cli).unwrap_err();
    assert!(e.message.starts_with("new.rs already exists, and --create never overwrites"), "{e}");
    assert!(
        e.message.contains("as --old and its replacement as --new") && e.message.contains("lctx edit --lines"),
        "{e}"
    );
    assert_eq!(std::fs::read_to_string(p.root.join("new.rs")).unwrap(), "fn n() {}\n", "left as it was");
}

#[test]
fn sixteen_threads_of_mixed_reads_and_edits_stay_correct() {
    let p = Arc::new(Project::new());
    let files = ["c0.rs", "c1.rs", "c2.rs"];
    for f in files {
        p.write(f, &format!("counter = 0;\n{}", code(1, 80)));
    }
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    for t in 0..16 {
        let p = p.clone();
        let done = done_tx.clone();
        std::thread::spawn(move || {
            let mut rng = Rng(0xABCD_EF01 + t as u64);
            let session = format!("t{}", t % 4);
            for _ in 0..200 {
                let f = files[rng.below(files.len())];
                if rng.below(8) == 0 {
                    let text = std::fs::read_to_string(p.root.join(f)).unwrap();
                    let n: u64 =
                        text.lines().next().unwrap()["counter = ".len()..].trim_end_matches(';').parse().unwrap();
                    // Concurrent editors race: losing means "not found", never a torn file.
                    match p.edit("s", f, &format!("counter = {n};"), &format!("counter = {};", n + 1)) {
                        Ok(out) => assert_eq!(out.replacements, 1),
                        Err(e) => assert!(matches!(e.kind, ErrorKind::NotFound | ErrorKind::FailedPrecondition), "{e}"),
                    }
                } else {
                    let mode = ["full", "signatures", "lines:1-5", "auto", "diff"][rng.below(5)];
                    let v = p.read(&session, f, mode, false);
                    if v.mode == "full" && !v.stub {
                        assert_eq!(blake3::hash(v.content.as_bytes()).to_hex().to_string(), v.content_hash);
                        assert!(v.content.starts_with("counter = "), "never a torn file");
                    }
                }
            }
            done.send(()).unwrap();
        });
    }
    for _ in 0..16 {
        done_rx.recv_timeout(Duration::from_secs(120)).expect("a worker is stuck: deadlock");
    }
}

/// QA: lines numbered from the version a session read were applied to the file another process
/// had since changed, on other lines and without a word. Such an edit is refused until the
/// session sees the new version; one by a session that holds nothing of the file goes ahead.
#[test]
fn an_edit_by_line_numbers_of_a_file_changed_since_it_was_read_is_refused() {
    let p = Project::new();
    p.write("l.txt", "a1\na2\na3\na4\n");
    p.read("s", "l.txt", "full", false);
    p.write("l.txt", "NEW0\na1\na2\na3\na4\n");
    let by_number = EditParams {
        path: "l.txt".into(),
        new_string: "a3 (edited)".into(),
        lines: Some((3, 3)),
        ..Default::default()
    };
    let e = p.engine.edit(&p.caller("s"), &by_number).unwrap_err();
    assert_eq!(e.kind, ErrorKind::FailedPrecondition, "{e}");
    assert!(
        e.message.contains("changed since this session last read or wrote it") && e.message.contains("mode=diff"),
        "{e}"
    );
    assert_eq!(p.text("l.txt"), "NEW0\na1\na2\na3\na4\n", "left as it was");
    let diff = p.read("s", "l.txt", "diff", false);
    assert!(diff.content.contains("NEW0"), "the change, or the file when that is shorter: {}", diff.content);
    let at_new_numbers = EditParams { lines: Some((4, 4)), ..by_number.clone() };
    p.engine.edit(&p.caller("s"), &at_new_numbers).unwrap();
    assert_eq!(p.text("l.txt"), "NEW0\na1\na2\na3 (edited)\na4\n");
    // Its own edit keeps it in step: the next numbers are the file's as it wrote it.
    p.engine
        .edit(
            &p.caller("s"),
            &EditParams { new_string: "a4 (edited)".into(), lines: Some((5, 5)), ..by_number.clone() },
        )
        .unwrap();
    // A session that never read the file has no version to hold the numbers to.
    p.engine
        .edit(&p.caller("other"), &EditParams { new_string: "zero".into(), lines: Some((1, 1)), ..by_number })
        .unwrap();
    assert_eq!(p.text("l.txt"), "zero\na1\na2\na3 (edited)\na4 (edited)\n");
}

/// QA: after another process inserted a line above, a text edit (matched by content, so it went
/// ahead) made the session count as having the new numbers, and its next edit by number replaced
/// the line above the one it meant. The numbers stay those of the version it saw.
#[test]
fn a_text_edit_of_a_changed_file_does_not_lend_the_session_its_new_line_numbers() {
    let p = Project::new();
    p.write("t.txt", "line1\nline2\nline3\nline4\n");
    p.read("s", "t.txt", "full", false);
    p.write("t.txt", "EXTERNAL\nline1\nline2\nline3\nline4\n");
    let by_text = EditParams {
        path: "t.txt".into(),
        old_string: "line2\n".into(),
        new_string: "LINE2\n".into(),
        ..Default::default()
    };
    p.engine.edit(&p.caller("s"), &by_text).unwrap();
    let by_number =
        EditParams { path: "t.txt".into(), new_string: "THREE".into(), lines: Some((3, 3)), ..Default::default() };
    let e = p.engine.edit(&p.caller("s"), &by_number).unwrap_err();
    assert_eq!(e.kind, ErrorKind::FailedPrecondition, "{e}");
    assert_eq!(p.text("t.txt"), "EXTERNAL\nline1\nLINE2\nline3\nline4\n", "no line replaced");
    // Once it has seen the file as it is, its numbers are good again.
    p.read("s", "t.txt", "full", false);
    p.engine.edit(&p.caller("s"), &EditParams { lines: Some((4, 4)), ..by_number }).unwrap();
    assert_eq!(p.text("t.txt"), "EXTERNAL\nline1\nLINE2\nTHREE\nline4\n");
}

/// A second QA pass lifted the refusal of an edit by number by following its own advice: the
/// `diff` it names answered `[no diff …]` (the session held no base), or `[no change …]` from the
/// base its own text edit had made of a version it never saw, and either counted as seeing the
/// file as it is. Neither does, nor does `reference`; a view of the lines does.
#[test]
fn a_diff_that_shows_no_lines_does_not_lift_a_refused_edit_by_number() {
    let p = Project::new();
    let lines: String = (1..=30).map(|i| format!("line {i}\n")).collect();
    let by_number = |new: &str| EditParams {
        path: "m.txt".into(),
        new_string: new.into(),
        lines: Some((3, 3)),
        ..Default::default()
    };
    for text_edit_first in [false, true] {
        p.write("m.txt", &lines);
        let session = if text_edit_first { "t" } else { "n" };
        p.read(session, "m.txt", "lines:1-3", false);
        p.write("m.txt", &format!("NEW\n{lines}"));
        if text_edit_first {
            let params = EditParams {
                path: "m.txt".into(),
                old_string: "line 9\n".into(),
                new_string: "line nine\n".into(),
                ..Default::default()
            };
            p.engine.edit(&p.caller(session), &params).unwrap();
        }
        assert!(p.engine.edit(&p.caller(session), &by_number("line THREE")).is_err(), "{session}");
        p.read(session, "m.txt", "diff", false);
        p.read(session, "m.txt", "reference", false);
        let e = p.engine.edit(&p.caller(session), &by_number("line THREE")).unwrap_err();
        assert_eq!(e.kind, ErrorKind::FailedPrecondition, "{session}: {e}");
        assert!(p.text("m.txt").contains("line 2\nline 3\n"), "{session}: no line replaced");
        p.read(session, "m.txt", "lines:1-5", false);
        p.engine.edit(&p.caller(session), &by_number("line TWO")).unwrap();
        assert!(p.text("m.txt").starts_with("NEW\nline 1\nline TWO\nline 3\n"), "{session}");
    }
}

/// A third QA pass: an `aggressive` view (comments left out, no numbers) lifted the hold, and a
/// full re-read answered with a diff from the version the session held whole did not, though it
/// gives every line of the new one.
#[test]
fn an_aggressive_view_gives_no_line_numbers_and_a_diff_from_a_whole_version_does() {
    let p = Project::new();
    let code: String = (1..=30).map(|i| format!("# note {i}\nx{i} = {i}\n")).collect();
    p.write("a.py", &code);
    let by_number =
        EditParams { path: "a.py".into(), new_string: "y = 0".into(), lines: Some((3, 3)), ..Default::default() };
    p.read("s", "a.py", "full", false);
    p.write("a.py", &format!("import os\n{code}"));
    p.read("s", "a.py", "aggressive", false);
    assert!(p.engine.edit(&p.caller("s"), &by_number).is_err(), "aggressive shows no numbers");
    // A range of a newer version moves the numbers there; a full read then diffs from the version held
    // whole (another session: the refused edit above left this one holding nothing whole).
    p.write("a.py", &code);
    p.read("t", "a.py", "full", false);
    p.write("a.py", &format!("import os\n{code}"));
    p.read("t", "a.py", "lines:1-1", false);
    p.write("a.py", &format!("import os\nimport re\n{code}"));
    let full = p.read("t", "a.py", "full", false);
    assert_eq!(full.mode, "diff", "{full:?}");
    p.engine.edit(&p.caller("t"), &by_number).unwrap();
    assert!(p.text("a.py").starts_with("import os\nimport re\ny = 0\nx1 = 1\n"), "{}", p.text("a.py"));
}

/// QA: a range, signatures or map read gives the line numbers an agent edits by, but only a whole
/// read held the edit to its version, so a line inserted above by another process sent the edit
/// to other lines; and once refused, a range re-read of the new version did not lift the refusal.
/// Every view holds the numbers to the version it showed; a range wrong in itself is said first.
#[test]
fn an_edit_by_line_numbers_is_held_to_the_version_any_view_showed() {
    let p = Project::new();
    let text = "def g1():\n    return 1\ndef g2():\n    return 2\n";
    for (n, mode) in ["lines:3-4", "signatures", "map"].into_iter().enumerate() {
        let (session, file) = (format!("s{n}"), format!("r{n}.py"));
        p.write(&file, text);
        p.read(&session, &file, mode, false);
        p.write(&file, &format!("import os\n{text}"));
        let by_number = EditParams {
            path: file.clone(),
            new_string: "def g2():\n    return 22".into(),
            lines: Some((3, 4)),
            ..Default::default()
        };
        let e = p.engine.edit(&p.caller(&session), &by_number).unwrap_err();
        assert_eq!(e.kind, ErrorKind::FailedPrecondition, "{mode}: {e}");
        assert_eq!(p.text(&file), format!("import os\n{text}"), "{mode}: left as it was");
        // A wrong range is said as such, not as a change to read again.
        for lines in [(9, 9), (3, 2)] {
            let e = p.engine.edit(&p.caller(&session), &EditParams { lines: Some(lines), ..by_number.clone() });
            assert_eq!(e.unwrap_err().kind, ErrorKind::InvalidArgument, "{mode} {lines:?}");
        }
        // Seeing the new version in the same kind of view lifts the refusal.
        p.read(&session, &file, mode, false);
        p.engine.edit(&p.caller(&session), &EditParams { lines: Some((4, 5)), ..by_number }).unwrap();
        assert_eq!(p.text(&file), "import os\ndef g1():\n    return 1\ndef g2():\n    return 22\n", "{mode}");
    }
}

/// QA: a file read, then deleted, was answered "no such file …; did you mean <a look-alike>?",
/// sending the agent to another file. The session that read it is told it is gone since.
#[test]
fn a_file_deleted_since_the_session_read_it_is_said_to_be_gone() {
    let p = Project::new();
    p.write("del.txt", "one\n");
    p.write("dep.txt", "another\n");
    p.read("s", "del.txt", "lines:1-1", false);
    std::fs::remove_file(p.root.join("del.txt")).unwrap();
    let e = p.try_read("s", "del.txt", "full", false).unwrap_err();
    assert_eq!(e.kind, ErrorKind::NotFound);
    assert!(e.message.starts_with("del.txt is gone: it was deleted or moved since this session read it"), "{e}");
    let e = p.try_read("other", "del.txt", "full", false).unwrap_err();
    assert!(e.message.starts_with("no such file: del.txt"), "a session that never read it: {e}");
}

/// QA: an edit replaced the file by a new one, so a hard link to it kept the old content. A file
/// with other links is written in place: every name sees the edit, and its mode stays.
#[test]
fn an_edit_of_a_hard_linked_file_changes_every_link() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let p = Project::new();
    p.write("run.sh", "#!/bin/sh\necho hi\n");
    let (run, hard) = (p.root.join("run.sh"), p.root.join("hard.sh"));
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o754)).unwrap();
    std::fs::hard_link(&run, &hard).unwrap();
    let edit = EditParams {
        path: "run.sh".into(),
        old_string: "echo hi".into(),
        new_string: "echo hello".into(),
        ..Default::default()
    };
    p.engine.edit(&p.caller("s"), &edit).unwrap();
    assert_eq!(std::fs::read_to_string(&hard).unwrap(), "#!/bin/sh\necho hello\n");
    let meta = std::fs::metadata(&run).unwrap();
    assert_eq!((meta.nlink(), meta.ino(), meta.mode() & 0o777), (2, std::fs::metadata(&hard).unwrap().ino(), 0o754));
}

/// QA: in a file whose lines end in CRLF and LF alike, a text written with LF across a CRLF line
/// was "not found, copy it exactly", though the agent sees no CR. It says the text is there but
/// for its line ends, and how to edit it.
#[test]
fn a_text_found_but_for_mixed_line_ends_says_so() {
    let p = Project::new();
    p.write("mixed.txt", "a = 1\r\nb = 2\nc = 3\r\n");
    let edit = EditParams {
        path: "mixed.txt".into(),
        old_string: "a = 1\nb = 2".into(),
        new_string: "x".into(),
        ..Default::default()
    };
    let e = p.engine.edit(&p.caller("s"), &edit).unwrap_err();
    assert_eq!(e.kind, ErrorKind::NotFound);
    assert!(
        e.message.starts_with(
            "old_string was not found in mixed.txt as written: it is there from line 1 but for its line ends"
        ),
        "{e}"
    );
    let exact = EditParams { old_string: "a = 1\r\nb = 2".into(), ..edit };
    p.engine.edit(&p.caller("s"), &exact).unwrap();
    assert_eq!(p.text("mixed.txt"), "x\nc = 3\r\n");
}

/// QA: an empty file (`touch __init__.py`) could be given content by no edit: its text cannot be
/// named, it has no line to number, and creating refuses an existing file. An empty old text
/// fills it; one that is not empty is still refused.
#[test]
fn an_empty_file_is_filled_by_an_edit_with_no_old_text() {
    let p = Project::new();
    p.write("__init__.py", "");
    let fill = EditParams { path: "__init__.py".into(), new_string: "x = 1\n".into(), ..Default::default() };
    let out = p.engine.edit(&p.caller("s"), &fill).unwrap();
    assert_eq!((out.replacements, out.created), (1, false));
    assert_eq!(p.text("__init__.py"), "x = 1\n");
    let e = p.engine.edit(&p.caller("s"), &fill).unwrap_err();
    assert!(e.message.starts_with("old_string is empty"), "{e}");
    assert_eq!(p.text("__init__.py"), "x = 1\n");
    p.write("empty.py", "");
    let created = EditParams { path: "empty.py".into(), create: true, ..fill };
    p.engine.edit(&p.caller("s"), &created).unwrap();
    assert_eq!(p.text("empty.py"), "x = 1\n");
    // QA: creating over a directory said it "never overwrites a file".
    std::fs::create_dir(p.root.join("pkg")).unwrap();
    let e = p.engine.edit(&p.caller("s"), &EditParams { path: "pkg".into(), ..created }).unwrap_err();
    assert!(e.message.contains("directory") && !e.message.contains("overwrites"), "{e}");
}

/// QA: `ctx_edit` of `.` was refused as a directory, and then its failure was recorded under an
/// empty path, which the store refused: gain and doctor reported lost accounting until a restart.
#[test]
fn a_refused_edit_of_the_project_root_is_recorded_without_an_alarm() {
    let p = Project::new();
    let e = p.edit("s", ".", "a", "b").unwrap_err();
    assert!(e.message.contains("directory"), "{e}");
    let (_, report, lost) = p.engine.gain("all", "none", 0, 0).unwrap();
    assert!(lost.is_none(), "{report}");
}
