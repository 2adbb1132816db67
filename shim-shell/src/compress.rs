//! Asking lean-ctxd to shape captured output for the agent.
//!
//! The command has already run, so this part is allowed to fail, but not to
//! hang or to change what the command did: any failure or timeout gives
//! `None`, and the caller prints the raw output.

use std::time::Duration;

use lctx::backend::Backend;
use lctx::options::ClientOptions;
use lean_ctx_proto::v1::{ClientKind, CompressRequest};

/// Output shorter than this goes out raw: there is too little to save to be
/// worth a round trip, and none of it could be left out anyway.
pub const SMALL: usize = 512;

/// The whole exchange, daemon start-up or fallback child included.
const DEADLINE: Duration = Duration::from_secs(5);
/// A daemon slower to start than this is passed over for a fallback child,
/// which leaves time for that within [`DEADLINE`].
const START_TIMEOUT: Duration = Duration::from_secs(2);

/// The text to print instead of `output`, or `None` to print it raw.
/// Output that is not UTF-8 goes out raw: the compressor works on text and
/// would replace the bytes it cannot read.
pub fn shape(command: &str, output: &[u8], exit_code: i32) -> Option<String> {
    if output.len() < SMALL || std::str::from_utf8(output).is_err() {
        return None;
    }
    let mut opts = ClientOptions::from_env(ClientKind::Shell, "lctx-shell").ok()?;
    opts.start_timeout = START_TIMEOUT;
    // A panic anywhere below is a bug to fix, not a reason to lose output.
    std::panic::catch_unwind(|| {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
        let text =
            runtime.block_on(async { tokio::time::timeout(DEADLINE, ask(&opts, command, output, exit_code)).await });
        // Never wait for a blocking task the deadline abandoned.
        runtime.shutdown_background();
        text.ok().flatten()
    })
    .ok()
    .flatten()
}

async fn ask(opts: &ClientOptions, command: &str, output: &[u8], exit_code: i32) -> Option<String> {
    let backend = Backend::connect(opts).await.ok()?;
    let mut ctx = opts.context();
    ctx.agent_id = crate::detect::from_env().map(|v| v.agent.to_string()).unwrap_or_default();
    let request = CompressRequest {
        ctx: Some(ctx),
        command: command.to_string(),
        output: output.to_vec(),
        exit_code,
        raw: false,
    };
    let response = backend.shell().compress(tonic::Request::new(request)).await.ok()?;
    response.into_inner().output.map(|shaped| shaped.text)
}
