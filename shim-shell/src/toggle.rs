//! Whether routing is on.
//!
//! `lctx-shell on|off|auto` keep a mode in a flag file in the lean-ctxd config
//! directory, read by the hook on every routed command, so a toggle reaches
//! every open shell at once. `LEAN_CTX_SHELL=on|off|auto` overrides the file
//! for one shell. [`routes`] is the hook's decision written in Rust, for
//! `status` and `prompt`; the hook text in `hooks/` spells out the same rule.

use std::path::{Path, PathBuf};

use lean_ctx_common::paths::Dirs;

/// Environment variable that overrides the flag file for one shell.
pub const MODE_ENV: &str = "LEAN_CTX_SHELL";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Route only when an AI agent is detected (the default).
    Auto,
    /// Also route commands run without a terminal on stdin, agent or not.
    On,
    /// Never route.
    Off,
}

impl Mode {
    /// `on` and `off` exactly; anything else is `auto`, as in the hook.
    pub fn parse(text: &str) -> Mode {
        match text.trim() {
            "on" => Mode::On,
            "off" => Mode::Off,
            _ => Mode::Auto,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mode::Auto => "auto",
            Mode::On => "on",
            Mode::Off => "off",
        }
    }
}

/// Where the mode came from, for `status`.
#[derive(Debug, PartialEq, Eq)]
pub enum Source {
    Env,
    File,
    Default,
}

pub fn flag_file(dirs: &Dirs) -> PathBuf {
    dirs.config.join("shell-routing")
}

/// The mode in force: a non-empty `LEAN_CTX_SHELL`, else the flag file, else
/// `auto`.
pub fn effective(env_value: Option<&str>, flag: &Path) -> (Mode, Source) {
    if let Some(value) = env_value.filter(|v| !v.is_empty()) {
        return (Mode::parse(value), Source::Env);
    }
    match std::fs::read_to_string(flag) {
        Ok(text) => (Mode::parse(text.lines().next().unwrap_or_default()), Source::File),
        Err(_) => (Mode::Auto, Source::Default),
    }
}

/// Whether a wrapped command is routed: never when off; always for an
/// agent; without an agent only when opted in and no person is at a
/// terminal on stdin.
pub fn routes(mode: Mode, agent: bool, stdin_is_terminal: bool) -> bool {
    match mode {
        Mode::Off => false,
        _ if agent => true,
        Mode::On => !stdin_is_terminal,
        Mode::Auto => false,
    }
}

/// Persists `mode`; `auto` removes the file. Written to a temporary file and
/// renamed, so a hook reading it never sees half a word.
pub fn set(flag: &Path, mode: Mode) -> Result<(), String> {
    let shown = flag.display();
    if mode == Mode::Auto {
        return match std::fs::remove_file(flag) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(format!("cannot remove {shown}: {e}")),
            _ => Ok(()),
        };
    }
    if let Some(dir) = flag.parent() {
        lean_ctx_common::privacy::create_private_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let tmp = flag.with_extension(format!("tmp{}", std::process::id()));
    let write = |tmp: &Path| {
        use std::io::Write as _;
        lean_ctx_common::privacy::private_file()
            .write(true)
            .create(true)
            .truncate(true)
            .open(tmp)
            .and_then(|mut f| f.write_all(format!("{}\n", mode.name()).as_bytes()))
    };
    write(&tmp).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, flag).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write {shown}: {e}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routing_rule() {
        for tty in [false, true] {
            assert!(!routes(Mode::Off, true, tty), "off beats an agent");
            assert!(routes(Mode::Auto, true, tty), "an agent routes");
            assert!(routes(Mode::On, true, tty));
            assert!(!routes(Mode::Auto, false, tty), "auto needs an agent");
        }
        assert!(routes(Mode::On, false, false), "opted in, no terminal");
        assert!(!routes(Mode::On, false, true), "a person at a terminal is never routed without an agent");
    }

    #[test]
    fn env_beats_file_beats_default() {
        let dir = tempfile::tempdir().unwrap();
        let flag = dir.path().join("cfg/shell-routing");
        assert_eq!(effective(None, &flag), (Mode::Auto, Source::Default));
        set(&flag, Mode::Off).unwrap();
        assert_eq!(std::fs::read_to_string(&flag).unwrap(), "off\n");
        assert_eq!(effective(None, &flag), (Mode::Off, Source::File));
        assert_eq!(effective(Some(""), &flag), (Mode::Off, Source::File), "empty env is unset");
        assert_eq!(effective(Some("on"), &flag), (Mode::On, Source::Env));
        assert_eq!(effective(Some("whatever"), &flag), (Mode::Auto, Source::Env));
        set(&flag, Mode::Auto).unwrap();
        assert!(!flag.exists());
        set(&flag, Mode::Auto).unwrap();
    }
}
