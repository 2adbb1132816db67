//! A watchdog per command: a `lean-ctxd --watchdog PID` process that ends the command's tree
//! when the engine that started it dies first (SIGKILL, the OOM killer). Nothing in the engine
//! runs then, so without it the command, a background job above all, would run on past its
//! timeout with no one to end it. The watchdog waits on a pipe the engine holds: a byte means
//! the command ended in the engine's care; the end of the pipe without that byte means the engine
//! is gone (the kernel closes a dead process's end).

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;

use super::descendants;

/// The daemon binary's flag that runs a watchdog (hidden: only the engine starts one).
const FLAG: &str = "--watchdog";

/// What the engine writes when its command ended in its care.
const RELEASED: u8 = b'r';

/// The daemon's binary, when this process is it; an engine inside another program (a test, a
/// benchmark) has none to start, and its commands go unwatched.
fn binary() -> Option<&'static PathBuf> {
    static BINARY: OnceLock<Option<PathBuf>> = OnceLock::new();
    BINARY
        .get_or_init(|| {
            let exe = std::env::current_exe().ok()?;
            (exe.file_name()? == "lean-ctxd").then_some(exe)
        })
        .as_ref()
}

/// The engine's side of one command's watchdog. Dropped without [`Watchdog::release`], it
/// closes the pipe, and the watchdog ends the command's tree: the engine let go of the command
/// without seeing it end.
pub struct Watchdog {
    child: Child,
    pipe: Option<std::io::PipeWriter>,
}

impl Watchdog {
    /// Starts the watchdog of the command whose process is `leader` (see
    /// [`descendants::kill_tree`]); `None` when there is no daemon binary or it cannot start, and
    /// the command runs as before.
    pub fn start(leader: libc::pid_t) -> Option<Watchdog> {
        let (reader, writer) = std::io::pipe().ok()?;
        let child = Command::new(binary()?)
            .arg(FLAG)
            .arg(leader.to_string())
            .stdin(reader)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Out of the terminal's group: a Ctrl-C that ends a client's engine must not end
            // the watchdog that has to act on it.
            .process_group(0)
            .spawn()
            .ok()?;
        Some(Watchdog { child, pipe: Some(writer) })
    }

    /// The command ended in the engine's care: the watchdog leaves.
    pub fn release(mut self) {
        if let Some(mut pipe) = self.pipe.take() {
            let _ = pipe.write_all(&[RELEASED]);
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        drop(self.pipe.take());
        // It exits at once when released, or once the tree is ended (bounded by kill_tree).
        let _ = self.child.wait();
    }
}

/// The watchdog process's body: waits for the engine's word on standard input and ends the
/// command's tree when the input ends without it.
pub fn watch(leader: libc::pid_t) {
    let mut word = [0u8; 1];
    let released = matches!(std::io::stdin().read(&mut word), Ok(1) if word[0] == RELEASED);
    if !released && leader > 1 {
        descendants::kill_tree(leader);
    }
}
