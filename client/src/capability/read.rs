//! ctx_read: files in a compact mode.

use lean_ctx_common::framing;
use lean_ctx_proto::v1::{FileView, LineRange, ReadMode, ReadRequest, RequestContext};
use serde_json::json;

use super::{Answer, Error, Result, push_block, served_by_name};
use crate::backend::Backend;

/// Mode names as the reference spells them; `lines:N-M[,A-B]` besides.
pub const MODES: [(&str, ReadMode); 8] = [
    ("auto", ReadMode::Auto),
    ("full", ReadMode::Full),
    ("signatures", ReadMode::Signatures),
    ("map", ReadMode::Map),
    ("diff", ReadMode::Diff),
    ("aggressive", ReadMode::Aggressive),
    ("reference", ReadMode::Reference),
    ("lines", ReadMode::Lines),
];

#[derive(Debug, Clone, Default)]
pub struct ReadArgs {
    /// As given; relative paths resolve against the context's cwd.
    pub paths: Vec<String>,
    /// A mode name or `lines:N-M[,A-B]`; empty means auto.
    pub mode: String,
    pub fresh: bool,
    /// The reference's line window (1-based), with `limit`.
    pub start_line: Option<u32>,
    pub limit: Option<u32>,
}

/// `signatures` → SIGNATURES; `lines:3-9,20-25` → LINES with its ranges.
pub fn parse_mode(text: &str) -> Result<(ReadMode, Vec<LineRange>)> {
    let text = text.trim();
    if text.is_empty() {
        return Ok((ReadMode::Auto, Vec::new()));
    }
    let Some(spec) = text.strip_prefix("lines:") else {
        let mode = super::parse_name("mode", text, &MODES[..7])
            .map_err(|_| Error::Usage(format!("unknown mode `{text}`; valid: {}", mode_names())))?;
        return Ok((mode, Vec::new()));
    };
    let bad = |why: &str| Error::Usage(format!("mode `{text}`: {why}; write lines:N-M[,A-B] (1-based, inclusive)"));
    let mut ranges = Vec::new();
    for part in spec.split(',') {
        let part = part.trim();
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        // A number too large for a line is read as "to the end" (as an end past the file is); a QA
        // pass's `1-99999999999` was called "not a range".
        let number = |n: &str| n.trim().parse::<u64>().map(|n| u32::try_from(n).unwrap_or(u32::MAX));
        let start = number(a).map_err(|_| bad(&format!("`{part}` is not a range")))?;
        let end = number(b).map_err(|_| bad(&format!("`{part}` is not a range")))?;
        if start == 0 {
            return Err(bad(&format!("`{part}` starts at 0, and lines start at 1")));
        }
        if end < start {
            return Err(bad(&format!("`{part}` is reversed: N-M runs from N up to M")));
        }
        ranges.push(LineRange { start, end });
    }
    Ok((ReadMode::Lines, ranges))
}

/// `auto, full, …, lines:N-M[,A-B]`.
pub fn mode_names() -> String {
    let mut names: Vec<&str> = MODES[..7].iter().map(|(n, _)| *n).collect();
    names.push("lines:N-M[,A-B]");
    names.join(", ")
}

/// The name a view's mode is shown by: `signatures`, `lines:3-9`.
pub fn mode_label(mode: ReadMode, ranges: &[LineRange]) -> String {
    if mode == ReadMode::Lines {
        let parts: Vec<String> = ranges.iter().map(|r| format!("{}-{}", r.start, r.end)).collect();
        return format!("lines:{}", parts.join(","));
    }
    MODES.iter().find(|(_, m)| *m == mode).map_or("auto", |(n, _)| n).to_string()
}

/// Reads. The views' notes and stubs come worded for the client kind in `ctx` (the daemon's
/// `engine::surface`): lctx's flags, or the MCP tools' parameters.
pub async fn read(backend: &Backend, ctx: RequestContext, args: ReadArgs) -> Result<Answer> {
    if args.paths.is_empty() {
        return Err(Error::Usage("give path or paths".into()));
    }
    let (mode, ranges) = parse_mode(&args.mode)?;
    let request = ReadRequest {
        ctx: Some(ctx),
        paths: args.paths.clone(),
        mode: mode as i32,
        ranges,
        fresh: args.fresh,
        start_line: args.start_line,
        limit: args.limit,
    };
    let response = backend.context().read(request).await?.into_inner();
    let served = response.meta.map_or(lean_ctx_proto::v1::ServedBy::Unspecified, |m| m.served_by());
    Ok(render(&args.paths, &response.files, served_by_name(served)))
}

/// One file: its content (and its note, in brackets, after it). Several:
/// each under `==> path (mode) <==`. A failed file shows its error; the call
/// is an error only when every file failed. Views come in the order asked.
fn render(paths: &[String], files: &[FileView], served_by: &str) -> Answer {
    let several = files.len() > 1;
    let mut text = String::new();
    let mut json_files = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let path = if f.path.is_empty() { paths.get(i).map_or("", String::as_str) } else { &f.path };
        let label = mode_label(f.mode(), &f.ranges);
        if several {
            let shown = if f.error.is_empty() { label.as_str() } else { "error" };
            push_block(&mut text, &format!("==> {path} ({shown}) <==\n"));
        }
        if f.error.is_empty() {
            for rule in &f.rules {
                push_block(&mut text, &framing::rules(&rule.path, &rule.why, &rule.body));
            }
            text.push_str(&f.content);
            if !f.note.is_empty() {
                push_block(&mut text, &framing::note(&f.note));
            }
        } else {
            push_block(&mut text, &format!("{path}: {}", f.error));
        }
        json_files.push(json!({
            "path": path, "mode": label, "content": f.content, "raw_tokens": f.raw_tokens,
            "sent_tokens": f.sent_tokens, "stub": f.stub, "language": f.language, "lines": f.lines,
            "content_hash": f.content_hash, "note": f.note, "error": f.error, "redacted": f.redacted,
            "rules": f.rules.iter().map(|r| json!({"path": r.path, "why": r.why, "body": r.body})).collect::<Vec<_>>(),
        }));
    }
    let failed = files.iter().filter(|f| !f.error.is_empty()).count();
    Answer {
        text,
        is_error: !files.is_empty() && failed == files.len(),
        exit_code: i32::from(failed > 0),
        json: json!({"served_by": served_by, "files": json_files}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lean_ctx_proto::v1::RuleText;

    fn view(path: &str, content: &str, error: &str) -> FileView {
        FileView {
            path: path.into(),
            mode: ReadMode::Full as i32,
            content: content.into(),
            error: error.into(),
            ..FileView::default()
        }
    }

    #[test]
    fn modes_parse_with_their_ranges() {
        assert_eq!(parse_mode("").unwrap(), (ReadMode::Auto, vec![]));
        assert_eq!(parse_mode(" signatures ").unwrap(), (ReadMode::Signatures, vec![]));
        let (mode, ranges) = parse_mode("lines:3-9,20").unwrap();
        assert_eq!(mode, ReadMode::Lines);
        assert_eq!(ranges, vec![LineRange { start: 3, end: 9 }, LineRange { start: 20, end: 20 }]);
        assert_eq!(mode_label(mode, &ranges), "lines:3-9,20-20");
        // A number too large for a line runs to the end; the engine says the file's length.
        let (_, huge) = parse_mode("lines:1-99999999999").unwrap();
        assert_eq!(huge, vec![LineRange { start: 1, end: u32::MAX }]);
        for bad in ["lines:", "lines:0-3", "lines:9-3", "lines:a-b", "outline"] {
            assert!(matches!(parse_mode(bad), Err(Error::Usage(_))), "{bad}");
        }
        let Err(Error::Usage(msg)) = parse_mode("outline") else { unreachable!() };
        assert!(msg.contains("signatures") && msg.contains("lines:N-M"), "{msg}");
    }

    #[test]
    fn one_file_is_its_content_and_its_note_follows() {
        let mut v = view("a.rs", "fn a() {}\n", "");
        let out = render(&["a.rs".into()], std::slice::from_ref(&v), "DAEMON");
        assert_eq!(out.text, "fn a() {}\n");
        assert!(!out.is_error && out.exit_code == 0);
        v.note = "2 lines".into();
        assert_eq!(render(&["a.rs".into()], &[v], "DAEMON").text, "fn a() {}\n[2 lines]");
    }

    #[test]
    fn rules_come_first_fenced_from_the_content() {
        let mut v = view("src/a.rs", "fn a() {}\n", "");
        v.rules =
            vec![RuleText { path: "src/AGENTS.md".into(), why: "closest AGENTS.md".into(), body: "Use tabs.".into() }];
        let out = render(&["src/a.rs".into()], &[v], "DAEMON");
        assert_eq!(
            out.text,
            "[rules from src/AGENTS.md (closest AGENTS.md) — follow them for this file]\nUse tabs.\n\
             [end of src/AGENTS.md]\nfn a() {}\n"
        );
        assert_eq!(out.json["files"][0]["rules"][0]["body"], "Use tabs.");
    }

    #[test]
    fn several_files_get_headers_and_a_failure_does_not_fail_the_call() {
        let paths = ["a.rs".to_string(), "b.rs".to_string()];
        let out = render(&paths, &[view("a.rs", "x", ""), view("", "", "no such file")], "LOCAL");
        assert_eq!(out.text, "==> a.rs (full) <==\nx\n==> b.rs (error) <==\nb.rs: no such file");
        assert!(!out.is_error);
        assert_eq!(out.exit_code, 1, "lctx still reports the failure");
        assert_eq!(out.json["served_by"], "LOCAL");
        assert!(render(&paths[1..], &[view("", "", "gone")], "LOCAL").is_error);
    }
}
