//! `shell_compress`: `compress(command, output, exit)` on anything, and the
//! command line's split into simple commands that it detects from.
//!
//! Input: the command line, a newline, the exit code as text, a newline, the
//! output (lossy UTF-8, as the daemon reads command output).

use lean_ctx_shell_compress::compress;

pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(3, '\n');
    let command = parts.next().unwrap_or_default();
    let exit: i32 = parts.next().unwrap_or_default().trim().parse().unwrap_or(0);
    let output = parts.next().unwrap_or_default();

    // What readers slice with lies in what it points into (`lctx init` cuts a hook command at a word's span).
    for split in lean_ctx_shell_syntax::split(command) {
        for word in &split.words {
            assert!(split.raw.get(word.span.clone()).is_some(), "a word's span is not in {:?}: {word:?}", split.raw);
            assert!(word.quoted.iter().all(|q| word.text.get(q.range.clone()).is_some()), "{word:?}");
        }
    }

    let out = compress(command, output, exit);
    assert_eq!(out, compress(command, output, exit), "compression is not deterministic");
    let trailer = if exit == 0 { String::new() } else { format!("[exit:{exit}]\n") };
    assert!(out.text.ends_with(&trailer), "the exit code is not the last line: {:?}", out.text);
    assert!(out.text.len() <= output.len() + trailer.len() + 1, "the output grew");
    if !out.shortened {
        // Unchanged output is the raw output and its exit line, nothing else.
        assert!(out.text.starts_with(output), "an unshortened output was changed");
    }
}
