//! ctx_edit: an exact, atomic replacement in one file.

use lean_ctx_proto::v1::{EditRequest, EditResponse, RequestContext};
use serde_json::json;

use super::{Answer, Result};
use crate::backend::Backend;

#[derive(Debug, Clone, Default)]
pub struct EditArgs {
    pub path: String,
    /// The exact text to replace (empty with `create`).
    pub old: String,
    pub new: String,
    /// Replace every occurrence instead of requiring exactly one.
    pub all: bool,
    /// Create the file if it does not exist.
    pub create: bool,
    /// Replace these whole lines (1-based, inclusive) instead of `old`.
    pub lines: Option<(u32, u32)>,
}

pub async fn edit(backend: &Backend, ctx: RequestContext, args: EditArgs) -> Result<Answer> {
    let request = EditRequest {
        ctx: Some(ctx),
        path: args.path,
        old_string: args.old,
        new_string: args.new,
        replace_all: args.all,
        create: args.create,
        start_line: args.lines.map(|(start, _)| start),
        end_line: args.lines.map(|(_, end)| end),
    };
    let out = backend.context().edit(request).await?.into_inner();
    let json = json!({
        "path": out.path, "replacements": out.replacements, "created": out.created,
        "tokens_before": out.tokens_before, "tokens_after": out.tokens_after, "content_hash": out.content_hash,
    });
    Ok(Answer::ok(summary(&out), json))
}

/// `N-M` or `N` as a line range.
pub fn parse_lines(text: &str) -> Result<(u32, u32)> {
    let bad = || super::Error::Usage(format!("`{text}` is not a line range; give N or N-M (1-based)"));
    let (start, end) = text.split_once('-').unwrap_or((text, text));
    let (start, end): (u32, u32) = (start.trim().parse().map_err(|_| bad())?, end.trim().parse().map_err(|_| bad())?);
    if start == 0 || end < start {
        return Err(bad());
    }
    Ok((start, end))
}

/// `created a.txt (12 tokens)` or `lib.rs: 2 replacements (340 → 352 tokens)`.
fn summary(out: &EditResponse) -> String {
    if out.created {
        return format!("created {} ({} tokens)", out.path, out.tokens_after);
    }
    format!(
        "{}: {} replacement{} ({} → {} tokens)",
        out.path,
        out.replacements,
        if out.replacements == 1 { "" } else { "s" },
        out.tokens_before,
        out.tokens_after
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ranges_parse() {
        assert_eq!(parse_lines("4").unwrap(), (4, 4));
        assert_eq!(parse_lines("4-9").unwrap(), (4, 9));
        for bad in ["", "0", "9-4", "a-b", "3-"] {
            assert!(matches!(parse_lines(bad), Err(super::super::Error::Usage(_))), "{bad}");
        }
    }

    #[test]
    fn summaries_read_naturally() {
        let edit = EditResponse {
            path: "a.rs".into(),
            replacements: 1,
            tokens_before: 9,
            tokens_after: 8,
            ..Default::default()
        };
        assert_eq!(summary(&edit), "a.rs: 1 replacement (9 → 8 tokens)");
        assert_eq!(summary(&EditResponse { replacements: 2, ..edit.clone() }), "a.rs: 2 replacements (9 → 8 tokens)");
        assert_eq!(summary(&EditResponse { created: true, ..edit }), "created a.rs (8 tokens)");
    }
}
