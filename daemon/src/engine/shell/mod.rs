//! The shell component: commands run for agents (foreground and
//! background), their output shaped by `lean-ctx-shell-compress`, and the
//! archive of every original that was shortened.

mod capture;
mod descendants;
pub mod exec;
pub mod expand;
pub mod jobs;
pub mod run;
pub mod shape;
mod spawn;
pub mod spool;
pub mod watchdog;
