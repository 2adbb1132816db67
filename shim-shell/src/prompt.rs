//! `lctx-shell prompt`: `lctx` while this shell's commands are routed, else
//! nothing. Runs on every prompt, so it reads two environment lookups and at
//! most one small file, and never talks to the daemon.

use std::io::IsTerminal;

use lean_ctx_common::paths::Dirs;

use crate::{detect, toggle};

pub fn segment() -> &'static str {
    let Ok(dirs) = Dirs::from_env() else { return "" };
    let env = std::env::var(toggle::MODE_ENV).ok();
    let (mode, _) = toggle::effective(env.as_deref(), &toggle::flag_file(&dirs));
    let active = toggle::routes(mode, detect::from_env().is_some(), std::io::stdin().is_terminal());
    if active { "lctx" } else { "" }
}
