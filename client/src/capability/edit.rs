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
}

pub async fn edit(backend: &Backend, ctx: RequestContext, args: EditArgs) -> Result<Answer> {
    let request = EditRequest {
        ctx: Some(ctx),
        path: args.path,
        old_string: args.old,
        new_string: args.new,
        replace_all: args.all,
        create: args.create,
    };
    let out = backend.context().edit(request).await?.into_inner();
    let json = json!({
        "path": out.path, "replacements": out.replacements, "created": out.created,
        "tokens_before": out.tokens_before, "tokens_after": out.tokens_after, "content_hash": out.content_hash,
    });
    Ok(Answer::ok(summary(&out), json))
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
