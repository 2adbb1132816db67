//! One-line summaries of results that the `lctx` command line and the
//! lctx-mcp tools both print, so a user and an agent read the same words.

use lean_ctx_proto::v1::{EditResponse, Job};

/// `job 7 · exit 0 · 1.2 s · cargo test`.
pub fn job_line(job: &Job) -> String {
    let state = if job.running {
        "running".to_string()
    } else if job.cancelled {
        "cancelled".to_string()
    } else if job.timed_out {
        "timed out".to_string()
    } else {
        format!("exit {}", job.exit_code)
    };
    format!("job {} · {state} · {:.1} s · {}", job.id, job.elapsed_ms as f64 / 1000.0, job.command)
}

/// `created a.txt (12 tokens)` or `lib.rs: 2 replacements (340 → 352 tokens)`.
pub fn edit_line(out: &EditResponse) -> String {
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
    fn lines_read_naturally() {
        let job = Job { id: 7, command: "make".into(), elapsed_ms: 1250, exit_code: 2, ..Job::default() };
        assert_eq!(job_line(&job), "job 7 · exit 2 · 1.2 s · make");
        assert_eq!(job_line(&Job { running: true, ..job }), "job 7 · running · 1.2 s · make");
        let edit = EditResponse {
            path: "a.rs".into(),
            replacements: 1,
            tokens_before: 9,
            tokens_after: 8,
            ..EditResponse::default()
        };
        assert_eq!(edit_line(&edit), "a.rs: 1 replacement (9 → 8 tokens)");
        assert_eq!(edit_line(&EditResponse { created: true, ..edit }), "created a.rs (8 tokens)");
    }
}
