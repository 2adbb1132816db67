//! `mcp_stdio`: lctx-mcp's line reader (`shim-mcp/src/stdio.rs`) and the
//! JSON-RPC dispatch of its server (rmcp with `server::Shim`), fed the
//! fuzzer's bytes as standard input.
//!
//! No engine is reachable (no daemon, no `lean-ctxd` to start), so a tool
//! call gets its "no engine" tool error; everything before that — framing,
//! parsing, the handshake, method dispatch, tool lookup — runs as in
//! production. Beyond "no panic": the session ends when input ends, and
//! every line written to stdout is one JSON-RPC message.

use std::sync::LazyLock;
use std::time::Duration;

use lctx::options::ClientOptions;
use lctx_mcp::lifecycle;
use lctx_mcp::profile::{Profile, Selection};
use lctx_mcp::server::Shim;
use lctx_mcp::stdio::Stdio;
use lean_ctx_common::build_info;
use lean_ctx_common::paths::Dirs;
use lean_ctx_proto::v1::{ClientInfo, ClientKind};
use serde_json::Value;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

/// Longer than a session on one input may take: a session still running
/// then is a hang, reported as a crash.
const END_WITHIN: Duration = Duration::from_secs(30);

static OPTIONS: LazyLock<ClientOptions> = LazyLock::new(|| {
    let dirs = Dirs::under(&crate::sandbox::dir("mcp").join("home"));
    ClientOptions {
        socket: dirs.socket(),
        no_daemon: false,
        daemon_bin: None,
        client: ClientInfo {
            kind: ClientKind::Mcp as i32,
            name: "lctx-mcp".into(),
            version: build_info::VERSION.into(),
        },
        session_id: "mcp-fuzz".into(),
        host: String::new(),
        connect_timeout: Duration::from_millis(100),
        start_timeout: Duration::from_millis(100),
        dirs,
    }
});

static RUNTIME: LazyLock<tokio::runtime::Runtime> = LazyLock::new(|| {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("cannot start the runtime")
});

pub fn run(data: &[u8]) {
    let selection = Selection { profile: Profile::All, disabled: vec!["ctx_gain".into()] };
    let output = RUNTIME.block_on(async {
        let (mut input, stdin) = tokio::io::duplex(64 << 10);
        let (stdout, mut output) = tokio::io::duplex(64 << 10);
        let session = async {
            // rmcp answers a session that never initializes with an error; that is fine.
            if let Ok(Some(service)) =
                lifecycle::serve(Shim::new(OPTIONS.clone(), selection), Stdio::new(stdin, stdout)).await
            {
                let _ = service.waiting().await;
            }
        };
        let feed = async {
            let _ = input.write_all(data).await;
            drop(input);
        };
        let mut written = Vec::new();
        let drain = output.read_to_end(&mut written);
        let all = async { tokio::join!(session, feed, drain) };
        if tokio::time::timeout(END_WITHIN, all).await.is_err() {
            panic!("the session did not end within {END_WITHIN:?} of its input");
        }
        written
    });
    for line in output.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let message: Value = serde_json::from_slice(line).unwrap_or_else(|e| {
            panic!("stdout carries a line that is not JSON ({e}): {:?}", String::from_utf8_lossy(line))
        });
        assert_eq!(message["jsonrpc"], "2.0", "stdout carries a message that is not JSON-RPC: {message}");
    }
}
