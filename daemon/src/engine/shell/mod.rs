//! The shell component: running commands for agents (foreground and
//! background). Output compression and the archive join it as they land.

pub mod exec;
pub mod jobs;
