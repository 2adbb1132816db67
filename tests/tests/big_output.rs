//! An output far larger than the daemon may hold (issue 17, item 5): the answer still shows the
//! error line from its middle and the exit code, and `lctx expand` gives back every byte of it, a
//! window at a time.

use std::path::Path;

use lean_ctx_tests::{Home, describe};

/// Bytes of each of the two runs of filler around the error line: 24 MB in all, six times what
/// the daemon keeps whole before it spills to the archive and three expand windows, in lines of
/// 64 KiB as `fold` cuts them. (Larger sizes only make the debug build slow.)
const RUN: usize = 12_000_000;
const ERROR: &str = "error: disk quota exceeded at src/store.rs:42";

fn command() -> String {
    format!(
        "head -c {RUN} /dev/zero | tr '\\0' a | fold -w 65536; echo; echo '{ERROR}'; \
         head -c {RUN} /dev/zero | tr '\\0' b | fold -w 65536; echo; exit 3"
    )
}

fn lctx(home: &Home, dir: &Path, args: &[&str]) -> std::process::Output {
    home.lctx_in(dir, false, args)
}

/// The line an expand window ends with when more lines follow: the next line to ask for.
fn next_start(window: &[u8]) -> Option<(usize, u32)> {
    const MORE: &[u8] = b" for the next]\n";
    const ASK: &[u8] = b"; ask --lines ";
    if !window.ends_with(MORE) {
        return None;
    }
    let ask = window.windows(ASK.len()).rposition(|w| w == ASK)?;
    let at = window[..ask].iter().rposition(|&b| b == b'\n').map_or(0, |newline| newline + 1);
    let digits: String =
        window[ask + ASK.len()..].iter().take_while(|b| b.is_ascii_digit()).map(|&b| char::from(b)).collect();
    Some((at, digits.parse().ok()?))
}

#[test]
fn a_24_mb_output_shows_its_middle_error_and_expands_byte_for_byte() {
    let home = Home::new();
    let root = home.path().join("proj");
    std::fs::create_dir_all(root.join(".git")).unwrap();

    let out = lctx(&home, &root, &["run", "--timeout", "900", "--", &command()]);
    assert_eq!(out.status.code(), Some(3), "{}", describe(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.len() < 4 << 20, "the answer is shaped, not the output: {} bytes", text.len());
    for must in [ERROR, "[exit:3]", "only in the archive"] {
        assert!(text.contains(must), "{must} missing from the answer's last lines:\n{}", tail(&text));
    }
    let at = text.find("ctx_expand id=").expect("a handle line") + "ctx_expand id=".len();
    let id = text[at..at + 16].to_string();

    let expected = home.command("/bin/sh").arg("-c").arg(command()).current_dir(&root).output().unwrap().stdout;
    assert!(expected.len() > 24_000_000);
    let mut expanded = Vec::with_capacity(expected.len());
    let mut start = 1u32;
    loop {
        let window = lctx(&home, &root, &["expand", &id, "--lines", &format!("{start}-{}", u32::MAX)]);
        assert!(window.status.success(), "{}", describe(&window));
        match next_start(&window.stdout) {
            Some((at, next)) => {
                assert!(next > start, "expand moves on: {start} then {next}");
                expanded.extend_from_slice(&window.stdout[..at]);
                start = next;
            }
            None => {
                expanded.extend_from_slice(&window.stdout);
                break;
            }
        }
    }
    assert_eq!(expanded.len(), expected.len(), "every byte comes back");
    assert!(expanded == expected, "expand returns the exact original");
}

fn tail(text: &str) -> &str {
    let from = text.len().saturating_sub(2_000);
    let from = (from..text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len());
    &text[from..]
}

/// QA: a raw request past 4 MiB, sent as its head and tail, was booked against the estimate of
/// the whole output: millions of tokens "saved" on a request that asked for nothing to be
/// saved. It is booked at what it sent, but for the lines added after the output.
#[test]
fn a_raw_output_past_the_limit_claims_no_saving() {
    let home = Home::new();
    let root = home.path().join("proj");
    std::fs::create_dir_all(root.join(".git")).unwrap();
    let out = lctx(&home, &root, &["run", "--raw", "--", "seq 1 1200000"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\n1200000\n"), "the tail is sent");
    let gain = lctx(&home, &root, &["gain", "--json"]);
    let gain: serde_json::Value = serde_json::from_slice(&gain.stdout).expect("gain --json");
    let saved = gain["total"]["saved_tokens"].as_i64().unwrap();
    assert!((-100..=0).contains(&saved), "at most the added lines' cost, never a saving: {gain}");
}
