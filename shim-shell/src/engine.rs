//! One exchange with lean-ctxd — the daemon, or a fallback child when none
//! can be had — under a deadline. Whatever goes wrong (no engine, a panic, a
//! hang) becomes an error for the caller to fail open on, never a hang.

use std::time::Duration;

use lctx::backend::Backend;
use lctx::options::ClientOptions;
use lean_ctx_proto::v1::{ClientKind, RequestContext};

/// A daemon slower to start than this is passed over for a fallback child,
/// which leaves time for that within the caller's deadline.
const START_TIMEOUT: Duration = Duration::from_secs(2);

/// Why an exchange gave no answer.
pub enum Failure {
    /// No lean-ctxd is installed and none runs: lctx-shell has nothing to
    /// ask and steps aside.
    NoEngine,
    Failed(String),
}

/// Connects, then runs `ask` with the backend and the request context (the
/// detected agent filled in), all within `deadline`.
pub fn exchange<T>(
    deadline: Duration,
    ask: impl AsyncFnOnce(&Backend, RequestContext) -> Result<T, String>,
) -> Result<T, Failure> {
    let mut opts = ClientOptions::from_env(ClientKind::Shell, "lctx-shell").map_err(Failure::Failed)?;
    opts.start_timeout = START_TIMEOUT;
    // A panic anywhere below is a bug to fix, not a reason to lose a command
    // or its output.
    let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Failure::Failed(format!("cannot start the async runtime: {e}")))?;
        let answer = runtime.block_on(async {
            tokio::time::timeout(deadline, async {
                let backend = Backend::connect(&opts).await.map_err(|why| match opts.daemon_bin {
                    None => Failure::NoEngine,
                    Some(_) => Failure::Failed(why),
                })?;
                let mut ctx = opts.context();
                ctx.agent_id = crate::detect::from_env().map(|v| v.agent.to_string()).unwrap_or_default();
                ask(&backend, ctx).await.map_err(Failure::Failed)
            })
            .await
        });
        // Never wait for a blocking task the deadline abandoned, nor for a
        // fallback child that missed it.
        runtime.shutdown_background();
        match answer {
            Ok(answer) => {
                lctx::child::await_stderr();
                answer
            }
            Err(_) => {
                lctx::child::abandon_children();
                Err(Failure::Failed(format!("lean-ctxd did not answer within {deadline:?}")))
            }
        }
    }));
    answer.unwrap_or_else(|_| Err(Failure::Failed("lctx-shell panicked while asking lean-ctxd".to_string())))
}
