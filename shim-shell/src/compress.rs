//! Asking lean-ctxd to shape captured output for the agent.
//!
//! The command has already run, so this part is allowed to fail, but not to
//! hang or to change what the command did: any failure or timeout gives
//! `None`, and the caller prints the raw output.

use std::time::Duration;

use lean_ctx_proto::v1::CompressRequest;

use crate::engine;

/// Output shorter than this goes out raw: there is too little to save to be
/// worth a round trip, and none of it could be left out anyway.
pub const SMALL: usize = 512;

/// The whole exchange, daemon start-up or fallback child included.
const DEADLINE: Duration = Duration::from_secs(5);

/// The text to print instead of `output`, or `None` to print it raw.
/// Output that is not UTF-8 goes out raw: the compressor works on text and
/// would replace the bytes it cannot read.
pub fn shape(command: &str, output: &[u8], exit_code: i32) -> Option<String> {
    if output.len() < SMALL || std::str::from_utf8(output).is_err() {
        return None;
    }
    engine::exchange(DEADLINE, async |backend, ctx| {
        let request = CompressRequest {
            ctx: Some(ctx),
            command: command.to_string(),
            output: output.to_vec(),
            exit_code,
            raw: false,
        };
        let response = backend.shell().compress(tonic::Request::new(request)).await.map_err(|s| backend.explain(&s))?;
        Ok(response.into_inner().output.map(|shaped| shaped.text))
    })
    .ok()
    .flatten()
}
