//! Daemon logging: tracing to daily rolling files in the state directory.

use std::path::Path;

use tracing_subscriber::EnvFilter;

/// Keeps a week of daily files.
const MAX_FILES: usize = 7;

/// Installs the global subscriber. `LEAN_CTX_LOG` sets the filter (tracing's
/// env-filter syntax, e.g. `debug` or `lean_ctxd=trace`); default `info`.
pub fn init(log_dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(log_dir).map_err(|e| format!("cannot create {}: {e}", log_dir.display()))?;
    let appender = tracing_appender::rolling::Builder::new()
        .rotation(tracing_appender::rolling::Rotation::DAILY)
        .filename_prefix("lean-ctxd")
        .filename_suffix("log")
        .max_log_files(MAX_FILES)
        .build(log_dir)
        .map_err(|e| format!("cannot open the log in {}: {e}", log_dir.display()))?;
    let filter = match std::env::var("LEAN_CTX_LOG") {
        Ok(spec) => EnvFilter::try_new(&spec).unwrap_or_else(|e| {
            eprintln!("lean-ctxd: ignoring LEAN_CTX_LOG={spec:?} ({e}); logging at info");
            EnvFilter::new("info")
        }),
        Err(_) => EnvFilter::new("info"),
    };
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(appender)
        .with_ansi(false)
        .try_init()
        .map_err(|e| format!("cannot install the logger: {e}"))
}
