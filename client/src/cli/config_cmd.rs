//! `lctx config get|set|path`. The file is edited directly (under its lock);
//! a running daemon notices the change through its mtime cache.

use clap::Subcommand;
use lean_ctx_common::config;

use super::Failure;
use crate::options::ClientOptions;

/// An error about the key or value given (it names no file) is a usage
/// error; one about the file or the disk is a failure.
fn failure(e: config::ConfigError) -> Failure {
    if e.file.is_none() { Failure::Usage(e.to_string()) } else { Failure::Failed(e.to_string()) }
}

#[derive(Subcommand, Debug)]
pub enum ConfigCmd {
    /// Print the effective value of KEY, or of every key.
    Get {
        /// A config key, e.g. idle_timeout_secs (every key when absent).
        key: Option<String>,
    },
    /// Set KEY to VALUE, keeping the file's comments; the old file is kept as config.toml.bak.
    Set {
        /// A config key, e.g. shell_deny.
        key: String,
        /// The new value; it is checked against what the key takes before anything is written.
        value: String,
    },
    /// Print the path of config.toml.
    Path,
}

pub fn run(cmd: ConfigCmd, opts: &ClientOptions) -> Result<(), Failure> {
    let file = opts.dirs.config_file();
    match cmd {
        ConfigCmd::Path => crate::outln!("{}", file.display()),
        ConfigCmd::Get { key } => {
            let cfg = config::load(&file).map_err(failure)?;
            match key {
                Some(key) => crate::outln!("{}", cfg.get(&key).map_err(failure)?),
                None => {
                    for k in config::KEYS {
                        let value = cfg.get(k.name).map_err(failure)?;
                        crate::outln!("{} = {value}  # {}", k.name, k.help);
                    }
                }
            }
        }
        ConfigCmd::Set { key, value } => {
            config::set(&file, &opts.dirs.config_lock(), &key, &value).map_err(failure)?;
            crate::outln!("{key} = {} in {}", value.trim(), file.display());
        }
    }
    Ok(())
}
