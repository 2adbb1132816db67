//! Inputs an attacker or a runaway agent sends: edits with tens of
//! thousands of matches and reads naming a hundred thousand paths. The
//! answers must be right and bounded; none of these asserts a time.

mod common;

use common::Project;
use lean_ctxd::engine::edit::EditParams;
use lean_ctxd::engine::error::ErrorKind;
use lean_ctxd::engine::read::{MAX_READ_PATHS, READ_BUDGET_FILES, ReadParams};

const MATCHES: usize = 60_000;

fn many_matches(p: &Project) -> String {
    let text = "let x = 1;\n".repeat(MATCHES);
    p.write("big.rs", &text);
    text
}

#[test]
fn replacing_sixty_thousand_matches_replaces_every_one() {
    let p = Project::new();
    let text = many_matches(&p);
    let all = EditParams {
        path: "big.rs".into(),
        old_string: "= 1;".into(),
        new_string: "= 22;".into(),
        replace_all: true,
        ..Default::default()
    };
    let out = p.engine.edit(&p.caller("s"), &all).unwrap();
    assert_eq!(out.replacements as usize, MATCHES);
    assert_eq!(p.text("big.rs"), text.replace("= 1;", "= 22;"));
}

#[test]
fn a_needle_matching_everywhere_is_refused_naming_the_first_lines() {
    let p = Project::new();
    let text = many_matches(&p);
    let e = p.edit("s", "big.rs", "x", "y").unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    assert!(e.message.contains("more than 10 times") && e.message.contains("lines 1, 2, 3"), "{e}");
    assert!(e.message.contains("replace_all"), "{e}");
    assert_eq!(p.text("big.rs"), text, "a refused edit writes nothing");
    // A unique needle at the very end is still found and replaced.
    let last = format!("{text}let last = 0;\n");
    p.write("big.rs", &last);
    p.edit("s", "big.rs", "last = 0", "last = 9").unwrap();
    assert!(p.text("big.rs").ends_with("let x = 1;\nlet last = 9;\n"));
}

#[test]
fn a_read_of_too_many_paths_is_refused_saying_how_to_split_it() {
    let p = Project::new();
    p.write("a.txt", "a\n");
    let paths = vec!["a.txt".to_string(); 100_000];
    let e = p.read_with("s", &ReadParams { paths, ..Default::default() }).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    assert!(e.message.contains("100000 paths") && e.message.contains("split"), "{e}");
    let paths = vec!["a.txt".to_string(); MAX_READ_PATHS];
    let views = p.engine.read(&p.caller("s"), &ReadParams { paths, ..Default::default() }).unwrap();
    assert_eq!(views.len(), MAX_READ_PATHS);
    assert!(views.iter().all(Result::is_ok));
}

/// Sets `max_read_bytes` to 1024 in the project's config.
fn limit_reads_to_1024_bytes(p: &Project) {
    let config = p.engine.dirs.config_file();
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "max_read_bytes = 1024\n").unwrap();
}

#[test]
fn a_read_stops_loading_files_past_its_byte_budget() {
    let p = Project::new();
    limit_reads_to_1024_bytes(&p);
    let line = "x".repeat(999) + "\n";
    let paths: Vec<String> = (0..2 * READ_BUDGET_FILES)
        .map(|i| {
            p.write(&format!("f{i}.txt"), &line);
            format!("f{i}.txt")
        })
        .collect();
    let views = p.engine.read(&p.caller("s"), &ReadParams { paths, ..Default::default() }).unwrap();
    // Files load while less than the budget was spent: the one crossing it
    // is still read, every later one is refused saying what to do.
    let read = usize::try_from(READ_BUDGET_FILES * 1024 / 1000 + 1).unwrap();
    assert!(views[..read].iter().all(Result::is_ok));
    for refused in &views[read..] {
        let e = refused.as_ref().unwrap_err();
        assert_eq!(e.kind, ErrorKind::ResourceExhausted);
        assert!(e.message.contains("another request"), "{e}");
    }
}

#[test]
fn an_edit_whose_result_could_not_be_read_back_writes_nothing() {
    let p = Project::new();
    limit_reads_to_1024_bytes(&p);
    let big = "y".repeat(1025);
    let create = EditParams { path: "new.txt".into(), new_string: big.clone(), create: true, ..Default::default() };
    let e = p.engine.edit(&p.caller("s"), &create).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ResourceExhausted);
    assert!(e.message.contains("1025 bytes") && e.message.contains("max_read_bytes"), "{e}");
    assert!(!p.root.join("new.txt").exists(), "nothing was created");
    // Growing a file past the limit is refused the same way; an edit that stays within it lands.
    p.write("small.txt", "x\n");
    let e = p.edit("s", "small.txt", "x", &big).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ResourceExhausted);
    assert_eq!(p.text("small.txt"), "x\n");
    p.edit("s", "small.txt", "x", "z").unwrap();
    assert_eq!(p.text("small.txt"), "z\n");
}

/// A window of a file over the read limit is served, streamed: an agent reading lines of a large
/// log needs those lines, not the whole file in memory. Other views of it are still refused.
#[test]
fn a_window_of_a_file_over_the_read_limit_is_served() {
    let p = Project::new();
    limit_reads_to_1024_bytes(&p);
    let log: String = (1..=500).map(|i| format!("event {i}\n")).collect();
    p.write("big.log", &log);
    let read = |mode: &str| {
        p.engine.read(
            &p.caller("s"),
            &ReadParams { paths: vec!["big.log".into()], mode: mode.into(), ..Default::default() },
        )
    };
    let view = read("lines:398-400,2-3").unwrap().remove(0).unwrap();
    assert_eq!(
        view.content,
        "[lines 398-400 of 500]\nevent 398\nevent 399\nevent 400\n[lines 2-3 of 500]\nevent 2\nevent 3\n"
    );
    assert_eq!(view.lines, 500);
    assert_eq!(view.content_hash, blake3::hash(log.as_bytes()).to_hex().to_string(), "the whole file's hash");
    let e = read("lines:501-502").unwrap_err();
    assert!(e.message.contains("has 500 lines"), "{e}");
    let e = read("full").unwrap_err();
    assert_eq!(e.kind, ErrorKind::ResourceExhausted);
    // QA: the refusal named only raising the limit, not the view that works as it is.
    assert!(e.message.ends_with("or read a window of it as it is (lines:N-M)"), "{e}");
    // A window over the limit itself is refused, saying so.
    let e = read("lines:1-").unwrap_err();
    assert!(e.message.contains("ask for fewer lines"), "{e}");

    // Lines far past the limit's worth of lines, a line longer than the limit outside the
    // window, a file without its last newline: the window is the window.
    let mut deep: String =
        (1..=10_000).map(|i| if i == 5_000 { "x".repeat(200_000) + "\n" } else { format!("row {i}\n") }).collect();
    deep.push_str("last row");
    p.write("deep.log", &deep);
    let view = p
        .engine
        .read(
            &p.caller("s"),
            &ReadParams { paths: vec!["deep.log".into()], mode: "lines:9999-10001".into(), ..Default::default() },
        )
        .unwrap()
        .remove(0)
        .unwrap();
    assert_eq!(view.content.lines().next(), Some("[lines 9999-10001 of 10001]"));
    assert!(view.content.contains("row 9999\nrow 10000\n"), "{}", &view.content[..80]);
    assert!(view.content.ends_with("last row\n"), "{}", &view.content[view.content.len() - 40..]);
    // Text in another encoding inside the window is refused as a whole read would be.
    std::fs::write(p.root.join("latin.log"), [log.as_bytes(), b"caf\xe9\n"].concat()).unwrap();
    let e = p
        .engine
        .read(
            &p.caller("s"),
            &ReadParams { paths: vec!["latin.log".into()], mode: "lines:500-501".into(), ..Default::default() },
        )
        .unwrap_err();
    assert!(e.message.contains("byte 0xE9 at line 501, column 4") && e.message.contains("iconv"), "{e}");
}

/// A window of a file over the read limit shows its lines after prose that quotes a private key's
/// header: only a header the redactor would open a key with (key material after it) hides the
/// lines after it, as the view of the whole file would.
#[test]
fn a_window_after_prose_quoting_a_key_header_shows_its_lines() {
    let p = Project::new();
    limit_reads_to_1024_bytes(&p);
    let mut doc = String::from("A PEM file starts with -----BEGIN RSA PRIVATE KEY----- and ends with its END line.\n");
    doc.extend((2..=300).map(|i| format!("note {i}\n")));
    p.write("pem.md", &doc);
    let view = p
        .engine
        .read(
            &p.caller("s"),
            &ReadParams { paths: vec!["pem.md".into()], mode: "lines:5-6".into(), ..Default::default() },
        )
        .unwrap()
        .remove(0)
        .unwrap();
    assert_eq!(view.content, "[lines 5-6 of 300]\nnote 5\nnote 6\n");
    assert_eq!(view.redacted, 0);
}
