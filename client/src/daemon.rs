//! Finding, starting, restarting and stopping the daemon from a client.
//!
//! Starting is serialized on `startup.lock`: whoever takes it re-probes
//! first, so twenty clients arriving at once start exactly one daemon. A
//! daemon of another build (version or executable id) is stopped and
//! replaced, so an upgrade takes effect on the next call.

use std::fs::{File, TryLockError};
use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

use lean_ctx_common::{build_info, detach, runtime_dir, singleton};
use lean_ctx_proto::v1::control_client::ControlClient;
use lean_ctx_proto::v1::{HelloRequest, HelloResponse, ShutdownRequest};
use lean_ctx_proto::{PROTOCOL_MAX, PROTOCOL_MIN};
use tonic::transport::Channel;

use crate::options::ClientOptions;
use crate::transport;

/// Clients trust their own daemon; the daemon enforces its own limits.
pub const MAX_MESSAGE: usize = 1 << 30;
pub(crate) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(3);
/// How long a stopping daemon may drain before it is killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a daemon that did not answer the Shutdown call gets to act on
/// SIGTERM before it is killed: it is frozen or hung, not draining.
const UNANSWERED_GRACE: Duration = Duration::from_secs(2);
const STARTUP_LOCK_TIMEOUT: Duration = Duration::from_secs(30);

/// A connected daemon that answered the handshake.
pub struct Daemon {
    pub control: ControlClient<Channel>,
    pub hello: HelloResponse,
    channel: Channel,
    /// The executable id of the `lean-ctxd` this client would start, as sent
    /// in the Hello (one `stat` per probe, not one per comparison).
    expected_id: String,
}

impl Daemon {
    /// The connection, for further services.
    pub fn channel(&self) -> Channel {
        self.channel.clone()
    }

    /// Whether it runs the `lean-ctxd` this client would start.
    pub fn same_build(&self) -> bool {
        self.hello.daemon_version == build_info::VERSION
            && (self.expected_id.is_empty() || self.hello.executable_id == self.expected_id)
    }

    /// Whether this client uses the running daemon: one of its own build, or
    /// a newer one that speaks its protocol (it answered Hello). Replacing a
    /// newer daemon by an older build would start a restart war with the
    /// newer build's clients; the newer build wins, once.
    fn serves(&self) -> bool {
        self.same_build()
            || newer((&self.hello.daemon_version, &self.hello.executable_id), (build_info::VERSION, &self.expected_id))
    }
}

/// Whether build `a` (version, executable id) is newer than build `b`: a
/// higher version, or the same version in a binary written later.
fn newer(a: (&str, &str), b: (&str, &str)) -> bool {
    fn version(v: &str) -> Vec<u64> {
        v.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect()
    }
    match version(a.0).cmp(&version(b.0)) {
        std::cmp::Ordering::Equal => build_info::written_at(a.1) > build_info::written_at(b.1),
        order => order == std::cmp::Ordering::Greater,
    }
}

/// Why no daemon could be used; shown to the user beside the LOCAL answer.
pub type Problem = String;

enum Probe {
    Ready(Box<Daemon>),
    /// The daemon speaks no protocol this client does.
    Incompatible(String),
    Absent {
        stale_socket: bool,
    },
}

/// Connects and handshakes without starting anything.
async fn probe(opts: &ClientOptions) -> Result<Probe, Problem> {
    let stream = match transport::dial(&opts.socket, opts.connect_timeout).await {
        Ok(stream) => stream,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Probe::Absent { stale_socket: false }),
        Err(e) if e.kind() == io::ErrorKind::ConnectionRefused => return Ok(Probe::Absent { stale_socket: true }),
        Err(e) => return Err(format!("cannot connect to {}: {e}", opts.socket.display())),
    };
    let channel = transport::channel(stream, opts.socket.clone(), opts.connect_timeout)
        .await
        .map_err(|e| format!("cannot open a gRPC channel on {}: {e}", opts.socket.display()))?;
    let mut control = ControlClient::new(channel.clone())
        .max_decoding_message_size(MAX_MESSAGE)
        .max_encoding_message_size(MAX_MESSAGE);
    let expected_id = opts.expected_executable_id();
    if let Some(hello) = known_same_build(opts, &expected_id) {
        return Ok(Probe::Ready(Box::new(Daemon { control, hello, channel, expected_id })));
    }
    match hello(&mut control, opts, &expected_id).await {
        Ok(Ok(hello)) => Ok(Probe::Ready(Box::new(Daemon { control, hello, channel, expected_id }))),
        Ok(Err(status)) if status.code() == tonic::Code::FailedPrecondition => {
            Ok(Probe::Incompatible(status.message().to_string()))
        }
        // A daemon that is dying (killed, or stopping) can still accept for a
        // moment and then break the connection: that is no daemon to use,
        // and the caller starts one once the old one has released its lock.
        Ok(Err(status)) if matches!(status.code(), tonic::Code::Unavailable | tonic::Code::Unknown) => {
            Ok(Probe::Absent { stale_socket: false })
        }
        Ok(Err(status)) => {
            Err(format!("the daemon on {} failed the handshake: {}", opts.socket.display(), status.message()))
        }
        Err(_) => Err(format!(
            "the daemon on {} did not answer the handshake within {HANDSHAKE_TIMEOUT:?}",
            opts.socket.display()
        )),
    }
}

/// The handshake's answer, read from the daemon lock instead, when the
/// daemon holding it is this very build (same version, same executable): the
/// handshake could then only agree, and skipping it saves a round trip on
/// every call. Read after connecting, so it names the daemon that accepted
/// the connection; only for the home's own socket, which is the one the
/// lock's holder serves. Anything else — another build, a garbled or
/// missing lock file, an unknown executable — takes the handshake.
fn known_same_build(opts: &ClientOptions, expected_id: &str) -> Option<HelloResponse> {
    if expected_id.is_empty() || opts.socket != opts.dirs.socket() {
        return None;
    }
    let holder = singleton::holder(&opts.dirs.daemon_lock())?;
    if holder.version != build_info::VERSION || holder.executable_id != expected_id || !holder.pid.is_some_and(runs) {
        return None;
    }
    Some(HelloResponse {
        meta: None,
        daemon_version: holder.version,
        protocol: PROTOCOL_MAX,
        pid: holder.pid?,
        executable_id: holder.executable_id,
        uptime_ms: 0,
    })
}

/// Whether process `pid` is running or waiting, rather than stopped
/// (SIGSTOP), a zombie or gone: a stopped daemon still accepts connections
/// into its backlog but answers nothing, and only the handshake's deadline
/// notices that in time to fall back. Where /proc is missing, no.
fn runs(pid: u32) -> bool {
    matches!(state(pid), Ok(Some('R' | 'S' | 'D' | 'I')))
}

/// Whether process `pid` has exited: gone, or a zombie. Where /proc is
/// missing, no: that cannot be told.
pub fn exited(pid: u32) -> bool {
    match state(pid) {
        Ok(state) => matches!(state, Some('Z' | 'X')),
        Err(e) => e.kind() == io::ErrorKind::NotFound && Path::new("/proc/self/stat").exists(),
    }
}

/// The state letter of process `pid` in /proc.
fn state(pid: u32) -> io::Result<Option<char>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // `pid (comm) S …`: the state follows the last `)`, as comm may hold one.
    Ok(stat.rsplit_once(')').and_then(|(_, rest)| rest.trim_start().chars().next()))
}

/// Hello within the handshake deadline.
async fn hello(
    control: &mut ControlClient<Channel>,
    opts: &ClientOptions,
    expected_id: &str,
) -> Result<Result<HelloResponse, tonic::Status>, tokio::time::error::Elapsed> {
    let hello = HelloRequest {
        ctx: Some(opts.context()),
        client_version: build_info::VERSION.to_string(),
        protocol_min: PROTOCOL_MIN,
        protocol_max: PROTOCOL_MAX,
        executable_id: expected_id.to_string(),
    };
    tokio::time::timeout(HANDSHAKE_TIMEOUT, control.hello(hello)).await.map(|r| r.map(tonic::Response::into_inner))
}

/// Hello to a peer that must answer (a fallback child); any failure is the
/// end of the line, said in one message.
pub async fn handshake(control: &mut ControlClient<Channel>, opts: &ClientOptions) -> Result<HelloResponse, Problem> {
    match hello(control, opts, &opts.expected_executable_id()).await {
        Ok(Ok(hello)) => Ok(hello),
        Ok(Err(status)) => Err(format!("failed the handshake: {}", status.message())),
        Err(_) => Err(format!("did not answer the handshake within {HANDSHAKE_TIMEOUT:?}")),
    }
}

/// The running daemon, if any, whatever its build. Starts nothing.
pub async fn find(opts: &ClientOptions) -> Result<Option<Daemon>, Problem> {
    match probe(opts).await? {
        Probe::Ready(d) => Ok(Some(*d)),
        Probe::Incompatible(why) => Err(why),
        Probe::Absent { .. } => Ok(None),
    }
}

/// A daemon of this build: the running one, or one started (or restarted)
/// now.
pub async fn ensure(opts: &ClientOptions) -> Result<Daemon, Problem> {
    if let Probe::Ready(d) = probe(opts).await?
        && d.serves()
    {
        return Ok(*d);
    }
    runtime_dir::ensure_private_dir(&opts.dirs.runtime)?;
    let _startup = lock_startup(&opts.dirs.startup_lock())?;
    // Another client may have started or replaced the daemon while we waited.
    match probe(opts).await? {
        Probe::Ready(d) if d.serves() => return Ok(*d),
        Probe::Ready(d) => {
            note(&format!(
                "restarting lean-ctxd {} (pid {}) to run this build ({})",
                d.hello.daemon_version,
                d.hello.pid,
                build_info::VERSION
            ));
            stop(opts, *d).await?;
        }
        Probe::Incompatible(why) => {
            let holder = singleton::read_info(&opts.dirs.daemon_lock());
            if newer((&holder.version, &holder.executable_id), (build_info::VERSION, &opts.expected_executable_id())) {
                // Its clients would only replace ours again.
                return Err(format!("{why}; it is a newer build, so this older client leaves it running"));
            }
            note(&format!("restarting an incompatible lean-ctxd: {why}"));
            kill_holder(opts, holder.pid).await?;
        }
        Probe::Absent { stale_socket } => {
            if stale_socket && !singleton::is_held(&opts.dirs.daemon_lock()) && is_socket(&opts.socket) {
                // Left by a daemon that died; nothing listens on it. Anything
                // that is not a socket is not ours to delete.
                let _ = std::fs::remove_file(&opts.socket);
            }
        }
    }
    start(opts).await
}

fn is_socket(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_socket())
}

/// Notes that a client prints on stderr; clients have no log of their own.
fn note(msg: &str) {
    eprintln!("lctx: {msg}");
}

async fn start(opts: &ClientOptions) -> Result<Daemon, Problem> {
    let bin = opts.daemon_bin.as_ref().ok_or_else(|| opts.missing_daemon_bin())?;
    // A dying predecessor still holds the daemon lock for a moment; a new
    // daemon started now would only refuse to run.
    wait_released(&opts.dirs.daemon_lock(), Duration::from_secs(5)).await;
    let mut args = Vec::new();
    if opts.socket != opts.dirs.socket() {
        args.extend(["--socket".into(), opts.socket.clone().into_os_string()]);
    }
    let log = opts.dirs.daemon_stderr_log();
    let written_before = detach::log_end(&log);
    let mut child = detach::spawn(bin, &args, &log).map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
    let ready = detach::wait_ready(&opts.socket, &mut child, opts.start_timeout);
    if let Err(e) = ready {
        // A daemon that never became ready is ended, with anything it started: left running, every
        // later call would start another beside it.
        detach::end_group(&mut child);
        detach::reap_in_background(child);
        let said = match detach::log_tail(&log, written_before, 15) {
            said if said.trim().is_empty() => "(nothing)".to_string(),
            said => said,
        };
        return Err(format!("{e}\n--- what it wrote to {} ---\n{said}", log.display()));
    }
    detach::reap_in_background(child);
    match probe(opts).await? {
        Probe::Ready(d) => Ok(*d),
        _ => Err(format!("lean-ctxd started but does not answer on {}", opts.socket.display())),
    }
}

/// Asks the daemon to stop and waits until it has released its lock; kills
/// it if it has not within the deadline.
pub async fn stop(opts: &ClientOptions, daemon: Daemon) -> Result<(), Problem> {
    let Daemon { mut control, hello, .. } = daemon;
    let request = ShutdownRequest { ctx: Some(opts.context()), reason: "requested by lctx".to_string() };
    // A frozen daemon never answers: give it the handshake's deadline.
    let answered = tokio::time::timeout(HANDSHAKE_TIMEOUT, control.shutdown(request)).await;
    let grace = match answered.map_err(|_| "no answer".to_string()).and_then(|r| r.map_err(|s| s.message().to_string()))
    {
        Ok(_) => STOP_TIMEOUT,
        Err(why) => {
            note(&format!("Shutdown call failed ({why}); stopping by signal"));
            terminate(hello.pid);
            UNANSWERED_GRACE
        }
    };
    drop(control);
    if wait_released(&opts.dirs.daemon_lock(), grace).await {
        return Ok(());
    }
    kill_holder(opts, Some(hello.pid)).await
}

/// Stops the daemon that holds the lock but does not answer (frozen, hung):
/// SIGTERM, then SIGKILL after a short grace. Its pid, or `None` when no
/// daemon holds the lock.
pub async fn stop_unanswering(opts: &ClientOptions) -> Result<Option<u32>, Problem> {
    let lock = opts.dirs.daemon_lock();
    let Some(pid) = lock_holder(opts) else { return Ok(None) };
    terminate(pid);
    if !wait_released(&lock, UNANSWERED_GRACE).await {
        kill_holder(opts, Some(pid)).await?;
    }
    Ok(Some(pid))
}

/// The pid of a lean-ctxd that holds the daemon lock: one that does not answer on the socket
/// is stopping (draining), starting, or hung.
pub fn lock_holder(opts: &ClientOptions) -> Option<u32> {
    let lock = opts.dirs.daemon_lock();
    singleton::read_info(&lock).pid.filter(|_| singleton::is_held(&lock))
}

fn terminate(pid: u32) {
    // SAFETY: kill has no memory-safety preconditions.
    unsafe { libc::kill(pid as libc::pid_t, libc::SIGTERM) };
}

/// Kills the lock holder outright, if it is still `pid`, and waits for the
/// lock to be free.
async fn kill_holder(opts: &ClientOptions, pid: Option<u32>) -> Result<(), Problem> {
    let lock = opts.dirs.daemon_lock();
    let holder = singleton::read_info(&lock).pid;
    if let (Some(pid), Some(holder)) = (pid, holder)
        && pid == holder
        && singleton::is_held(&lock)
    {
        note(&format!("lean-ctxd (pid {pid}) did not stop in time; killing it"));
        // SAFETY: kill has no memory-safety preconditions.
        unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
    }
    if wait_released(&lock, Duration::from_secs(5)).await {
        Ok(())
    } else {
        Err(format!("lean-ctxd still holds {} after being stopped", lock.display()))
    }
}

async fn wait_released(lock: &Path, deadline: Duration) -> bool {
    let start = Instant::now();
    while singleton::is_held(lock) {
        if start.elapsed() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    true
}

/// Takes `startup.lock`, waiting for another starter at most 30 s.
fn lock_startup(path: &Path) -> Result<File, Problem> {
    // Private like everything lean-ctx keeps, though the run directory already is.
    let file = lean_ctx_common::privacy::private_file()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let start = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(TryLockError::WouldBlock) if start.elapsed() < STARTUP_LOCK_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(TryLockError::WouldBlock) => {
                return Err(format!("another client has held {} for over 30 s", path.display()));
            }
            Err(TryLockError::Error(e)) => return Err(format!("cannot lock {}: {e}", path.display())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A killed daemon is gone, or a zombie until reaped: both have exited; a live one has not.
    #[test]
    fn a_process_has_exited_once_gone_or_a_zombie() {
        assert!(!exited(std::process::id()));
        let mut child = std::process::Command::new("sleep").arg("60").spawn().unwrap();
        assert!(!exited(child.id()));
        child.kill().unwrap();
        let zombie = Instant::now();
        while !exited(child.id()) {
            assert!(zombie.elapsed() < Duration::from_secs(10), "a killed child never showed as exited");
            std::thread::sleep(Duration::from_millis(10));
        }
        child.wait().unwrap();
        assert!(exited(child.id()), "reaped: gone");
    }

    #[test]
    fn a_higher_version_or_a_later_binary_is_newer() {
        assert!(newer(("0.2.0", ""), ("0.1.9", "")));
        assert!(newer(("0.10.0", ""), ("0.9.0", "")), "numeric, not lexical");
        assert!(!newer(("0.1.0", "1-2-64.0"), ("0.2.0", "1-2-10.0")));
        assert!(newer(("0.1.0", "1-2-64.5"), ("0.1.0", "1-2-64.4")), "same version, written later");
        assert!(!newer(("0.1.0", "1-2-64.4"), ("0.1.0", "1-2-64.4")), "the same build is not newer");
    }
}
