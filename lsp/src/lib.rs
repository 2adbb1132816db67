//! A small Language Server Protocol client over a server's stdin/stdout: start and initialise a
//! server for a project, open documents, and ask its call hierarchy (prepare, incoming and
//! outgoing calls), each request under a deadline.
//!
//! Requests may be sent from several threads at once: one thread writes every message, one
//! reads every message and hands each answer to the request waiting for it, and answers the
//! server's own requests (configuration, progress tokens) itself, so no lock is held while an
//! answer is awaited. The server runs in a process group of its own, which is killed when the
//! [`Server`] is dropped: a server and whatever it started never outlive their owner.

mod framing;
mod items;
pub mod uri;

use std::collections::HashMap;
use std::io::{BufReader, BufWriter};
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use lean_ctx_locks::{Mutex as RankedMutex, ids};
use serde_json::{Value, json};

pub use items::{Call, Item, Site, kind_name};

/// Why a server gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The program is not on PATH (or not where the command says).
    NotInstalled(String),
    /// The program exists but could not be started.
    Start(String),
    /// No answer to this method before the deadline.
    Timeout(String),
    /// The server exited (or closed its input) before answering; with the last line it wrote to
    /// stderr, which says why when it could not run (a rustup proxy without the component).
    Exited(Option<String>),
    /// The server answered the method with an error.
    Refused { method: String, message: String },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::NotInstalled(program) => write!(f, "{program} is not installed (not found on PATH)"),
            Error::Start(why) => f.write_str(why),
            Error::Timeout(method) => write!(f, "no answer to {method} in time"),
            Error::Exited(None) => f.write_str("the server exited"),
            Error::Exited(Some(last)) => write!(f, "the server exited ({last})"),
            Error::Refused { method, message } => write!(f, "{method} failed: {message}"),
        }
    }
}

impl std::error::Error for Error {}

/// An answer as the reader hands it over: the result, or the error's message.
type Reply = Result<Value, String>;

/// What the reader thread and the requesting threads share.
struct Shared {
    /// Request id → where its answer goes. Held only to insert, take or clear.
    pending: RankedMutex<HashMap<i64, SyncSender<Reply>>>,
    /// False once the server's output ended: it exited or closed it.
    running: AtomicBool,
    /// The last line the server wrote to stderr, set once its stderr ended.
    last_words: OnceLock<Option<String>>,
}

pub struct Server {
    child: Child,
    outbox: Sender<Value>,
    shared: Arc<Shared>,
    next_id: AtomicI64,
    /// Open documents (URI → version): a second open sends the new text as a change.
    documents: RankedMutex<HashMap<String, i32>>,
    /// The program's file name, for messages.
    name: String,
}

impl Server {
    /// Starts `command` (program and arguments) in `root` and initialises it for that project,
    /// giving up at `until`.
    pub fn start(command: &[String], root: &Path, until: Instant) -> Result<Server, Error> {
        let (program, args) = command.split_first().ok_or_else(|| Error::Start("no server command".into()))?;
        let name = Path::new(program).file_name().map_or(program.clone(), |n| n.to_string_lossy().into_owned());
        let mut child = Command::new(program)
            .args(args)
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group, so killing it also ends the processes it starts (tsserver, …).
            .process_group(0)
            .spawn()
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => Error::NotInstalled(program.clone()),
                _ => Error::Start(format!("cannot start {program}: {e}")),
            })?;
        let (Some(stdin), Some(stdout), Some(stderr)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            unreachable!("stdin, stdout and stderr are piped")
        };
        let shared = Arc::new(Shared {
            pending: RankedMutex::new(ids::LSP_PENDING, HashMap::new()),
            running: AtomicBool::new(true),
            last_words: OnceLock::new(),
        });
        let tail = shared.clone();
        std::thread::Builder::new()
            .name("lsp-stderr".into())
            .spawn(move || {
                let _ = tail.last_words.set(last_line(BufReader::new(stderr)));
            })
            .map_err(|e| Error::Start(format!("cannot start a thread: {e}")))?;
        let (outbox, queue) = channel();
        std::thread::Builder::new()
            .name("lsp-writer".into())
            .spawn(move || write_all(BufWriter::new(stdin), queue))
            .map_err(|e| Error::Start(format!("cannot start a thread: {e}")))?;
        let root_uri = uri::from_path(root);
        let reader = Reader { shared: shared.clone(), outbox: outbox.clone(), root_uri: root_uri.clone() };
        std::thread::Builder::new()
            .name("lsp-reader".into())
            .spawn(move || reader.run(BufReader::new(stdout)))
            .map_err(|e| Error::Start(format!("cannot start a thread: {e}")))?;
        let server = Server {
            child,
            outbox,
            shared,
            next_id: AtomicI64::new(1),
            documents: RankedMutex::new(ids::LSP_DOCUMENTS, HashMap::new()),
            name,
        };
        // No `workspace.configuration` capability: pyright, offered it, waits for settings it
        // never asks for.
        let capabilities = json!({
            "textDocument": {"callHierarchy": {"dynamicRegistration": false}},
            "window": {"workDoneProgress": true},
        });
        let folder = root.file_name().map_or("root".into(), |n| n.to_string_lossy().into_owned());
        let params = json!({
            "processId": std::process::id(), "rootUri": root_uri, "rootPath": root, "capabilities": capabilities,
            "workspaceFolders": [{"uri": root_uri, "name": folder}],
        });
        server.request("initialize", params, until)?;
        server.notify("initialized", json!({}))?;
        Ok(server)
    }

    /// The program's file name (`pyright-langserver`).
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// False once the server has exited (or closed its output).
    pub fn is_running(&self) -> bool {
        self.shared.running.load(Ordering::SeqCst)
    }

    /// Tells the server `file` holds `text` (open, or changed since it was opened).
    pub fn open(&self, file: &Path, language_id: &str, text: &str) -> Result<(), Error> {
        let uri = uri::from_path(file);
        let mut documents = self.documents.lock();
        match documents.get_mut(&uri) {
            Some(version) => {
                *version += 1;
                let document = json!({"uri": uri, "version": *version});
                self.notify(
                    "textDocument/didChange",
                    json!({"textDocument": document, "contentChanges": [{"text": text}]}),
                )
            }
            None => {
                let document = json!({"uri": uri, "languageId": language_id, "version": 1, "text": text});
                self.notify("textDocument/didOpen", json!({"textDocument": document}))?;
                documents.insert(uri, 1);
                Ok(())
            }
        }
    }

    /// The call hierarchy items at `line`/`character` (0-based; UTF-16 columns) of `file`.
    pub fn prepare_call_hierarchy(
        &self,
        file: &Path,
        line: u32,
        character: u32,
        until: Instant,
    ) -> Result<Vec<Item>, Error> {
        let params =
            json!({"textDocument": {"uri": uri::from_path(file)}, "position": {"line": line, "character": character}});
        let items = self.request("textDocument/prepareCallHierarchy", params, until)?;
        Ok(items.as_array().into_iter().flatten().filter_map(Item::from_json).collect())
    }

    /// Who calls `item`: each call's item is the caller, its lines the call sites in the caller's file.
    pub fn incoming_calls(&self, item: &Item, until: Instant) -> Result<Vec<Call>, Error> {
        let calls = self.request("callHierarchy/incomingCalls", json!({"item": item.raw()}), until)?;
        Ok(calls.as_array().into_iter().flatten().filter_map(|c| Call::from_json(c, "from")).collect())
    }

    /// What `item` calls: each call's item is the callee, its lines the call sites in `item`'s file.
    pub fn outgoing_calls(&self, item: &Item, until: Instant) -> Result<Vec<Call>, Error> {
        let calls = self.request("callHierarchy/outgoingCalls", json!({"item": item.raw()}), until)?;
        Ok(calls.as_array().into_iter().flatten().filter_map(|c| Call::from_json(c, "to")).collect())
    }

    /// Asks the server to shut down and exit, and kills its process group if it has not within
    /// `grace`.
    pub fn shutdown(&self, grace: Duration) {
        let until = Instant::now() + grace;
        if self.request("shutdown", Value::Null, until).is_ok() {
            let _ = self.notify("exit", Value::Null);
            while self.is_running() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        self.kill();
    }

    /// Kills the server's process group at once (reaped when the server is dropped).
    pub fn kill(&self) {
        // The group's id is the leader's pid, which is not reused before the leader is reaped
        // (in Drop), so this never reaches another process.
        let pid = self.child.id() as libc::pid_t;
        // The leader too, in case it left its group (setsid): Drop waits for it.
        // SAFETY: kill has no memory-safety preconditions.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
            libc::kill(pid, libc::SIGKILL);
        }
    }

    fn notify(&self, method: &str, params: Value) -> Result<(), Error> {
        self.outbox.send(json!({"jsonrpc": "2.0", "method": method, "params": params})).map_err(|_| self.exited())
    }

    /// [`Error::Exited`] with the server's last words: its stderr ends when it exits, a moment
    /// after its stdout, so they are waited for briefly.
    fn exited(&self) -> Error {
        let until = Instant::now() + LAST_WORDS_WAIT;
        while self.shared.last_words.get().is_none() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        Error::Exited(self.shared.last_words.get().cloned().flatten())
    }

    fn request(&self, method: &str, params: Value, until: Instant) -> Result<Value, Error> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (answer, reply) = sync_channel(1);
        self.shared.pending.lock().insert(id, answer);
        // The reader clears `pending` after marking the server stopped: checked after the
        // insert, a request never waits for an answer that cannot come.
        if !self.is_running() {
            self.shared.pending.lock().remove(&id);
            return Err(self.exited());
        }
        self.outbox
            .send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .map_err(|_| self.exited())?;
        match reply.recv_timeout(until.saturating_duration_since(Instant::now())) {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(message)) => Err(Error::Refused { method: method.to_string(), message }),
            Err(RecvTimeoutError::Timeout) => {
                self.shared.pending.lock().remove(&id);
                let _ = self.notify("$/cancelRequest", json!({"id": id}));
                Err(Error::Timeout(method.to_string()))
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.exited()),
        }
    }
}

/// How long an exited server's stderr is waited for (see [`Server::exited`]).
const LAST_WORDS_WAIT: Duration = Duration::from_millis(250);
/// The longest last line kept, in characters.
const LAST_WORDS_CHARS: usize = 300;

/// What a server's stderr says of why it ended: its first line that reads as an error (`error:`,
/// `panicked`, `fatal`), else its last non-empty line (`\r` ends one too: progress output); a
/// backtrace's last frame says nothing (QA: `rustup could not choose a version` came out as `13:
/// <unknown>`). Read to its end in chunks (a server's logs can be long, and an unread pipe would
/// block it), each line kept to its first [`LAST_WORDS_CHARS`] characters: a line that never ends
/// costs no more.
fn last_line(mut stderr: impl std::io::Read) -> Option<String> {
    // One character more than is shown, so that a line cut short always says so.
    const KEPT_BYTES: usize = (LAST_WORDS_CHARS + 1) * 4;
    let (mut chunk, mut line, mut last) = ([0u8; 4096], Vec::with_capacity(KEPT_BYTES), None);
    let mut first_error: Option<String> = None;
    let reads_as_error = |line: &str| {
        let line = line.to_ascii_lowercase();
        ["error", "panicked", "fatal"].iter().any(|word| line.contains(word))
    };
    loop {
        let read = match stderr.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(read) => read,
        };
        for piece in chunk[..read].split_inclusive(|&b| b == b'\n' || b == b'\r') {
            let ends = matches!(piece.last(), Some(b'\n' | b'\r'));
            let text = if ends { &piece[..piece.len() - 1] } else { piece };
            line.extend_from_slice(&text[..text.len().min(KEPT_BYTES - line.len())]);
            if ends {
                let said = words(&line);
                if first_error.is_none() && said.as_deref().is_some_and(reads_as_error) {
                    first_error.clone_from(&said);
                }
                last = said.or(last);
                line.clear();
            }
        }
    }
    let said = words(&line);
    if first_error.is_none() && said.as_deref().is_some_and(reads_as_error) {
        return said;
    }
    first_error.or(said).or(last)
}

/// A line as the last words report it: trimmed, cut to [`LAST_WORDS_CHARS`]; `None` when blank.
fn words(line: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(line);
    let text = text.trim();
    (!text.is_empty()).then(|| match text.char_indices().nth(LAST_WORDS_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    })
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
        let _ = self.child.wait();
    }
}

/// Writes queued messages until every sender is gone or the server stops reading.
fn write_all(mut stdin: impl std::io::Write, queue: Receiver<Value>) {
    for message in queue {
        if framing::write_message(&mut stdin, &message).is_err() {
            return;
        }
    }
}

struct Reader {
    shared: Arc<Shared>,
    outbox: Sender<Value>,
    root_uri: String,
}

impl Reader {
    fn run(self, mut stdout: impl std::io::BufRead) {
        while let Some(message) = framing::read_message(&mut stdout) {
            match (message.get("id"), message.get("method").and_then(Value::as_str)) {
                (Some(id), Some(method)) => {
                    let mut answer = self.answer(method, &message["params"]);
                    answer["jsonrpc"] = json!("2.0");
                    answer["id"] = id.clone();
                    let _ = self.outbox.send(answer);
                }
                (Some(id), None) => {
                    let waiting = id.as_i64().and_then(|id| self.shared.pending.lock().remove(&id));
                    if let Some(waiting) = waiting {
                        let reply = match message.get("error") {
                            Some(error) => Err(error["message"].as_str().map_or(error.to_string(), str::to_string)),
                            None => Ok(message.get("result").cloned().unwrap_or(Value::Null)),
                        };
                        let _ = waiting.send(reply);
                    }
                }
                // Notifications (diagnostics, logs, progress) are not needed.
                _ => {}
            }
        }
        self.shared.running.store(false, Ordering::SeqCst);
        self.shared.pending.lock().clear();
    }

    /// The answer to a request from the server: what the asked method needs, and "not
    /// supported" for anything else so the server does not wait.
    fn answer(&self, method: &str, params: &Value) -> Value {
        match method {
            // Settings nobody configured: one null per item asked.
            "workspace/configuration" => {
                let asked = params["items"].as_array().map_or(0, Vec::len);
                json!({"result": vec![Value::Null; asked]})
            }
            "workspace/workspaceFolders" => json!({"result": [{"uri": self.root_uri, "name": "root"}]}),
            "window/workDoneProgress/create" | "client/registerCapability" | "client/unregisterCapability" => {
                json!({"result": null})
            }
            _ => json!({"error": {"code": -32601, "message": format!("{method} is not supported")}}),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alive(pid: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next().map(str::to_string)))
            .is_some_and(|state| state != "Z")
    }

    #[test]
    fn a_server_that_never_initialises_times_out_and_takes_what_it_started_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("grandchild");
        // A "server" that starts a process of its own and never answers.
        let script = format!("sleep 30 & echo $! > {}; exec cat > /dev/null", pid_file.display());
        let command = ["sh".to_string(), "-c".to_string(), script];
        let started = Instant::now();
        let result = Server::start(&command, dir.path(), started + Duration::from_millis(300));
        assert_eq!(result.err(), Some(Error::Timeout("initialize".into())));
        assert!(started.elapsed() < Duration::from_secs(5));
        let grandchild: u32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while alive(grandchild) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!alive(grandchild), "the server's own child {grandchild} outlived it");
    }

    #[test]
    fn the_last_words_are_the_last_line_cut_short_however_long() {
        let last = |stderr: &[u8]| last_line(std::io::Cursor::new(stderr.to_vec()));
        assert_eq!(last(b"info: one\nerror: two\n\n  \n"), Some("error: two".into()));
        assert_eq!(last(b"error: real reason\n  13: <unknown>\nat some frame\n"), Some("error: real reason".into()));
        assert_eq!(last(b"progress 10%\rprogress 20%\rdone"), Some("done".into()));
        let endless = vec![b'x'; 1 << 20];
        assert_eq!(last(&endless), Some(format!("{}…", "x".repeat(LAST_WORDS_CHARS))));
        assert_eq!(last(b""), None);
        let wide = "😀".repeat(LAST_WORDS_CHARS + 1) + "\n";
        assert_eq!(last(wide.as_bytes()), Some(format!("{}…", "😀".repeat(LAST_WORDS_CHARS))));
    }

    #[test]
    fn a_missing_program_is_named_and_an_early_exit_is_noticed() {
        let dir = tempfile::tempdir().unwrap();
        let until = Instant::now() + Duration::from_secs(5);
        let missing = Server::start(&["lean-ctx-no-such-server".to_string()], dir.path(), until).err();
        assert_eq!(
            missing.as_ref().map(ToString::to_string).as_deref(),
            Some("lean-ctx-no-such-server is not installed (not found on PATH)")
        );
        let exits = Server::start(&["true".to_string()], dir.path(), until).err();
        assert_eq!(exits, Some(Error::Exited(None)));
        // Why it exited, when it says so: a rustup proxy of a component not installed.
        let proxy =
            "echo 'info: syncing' >&2; echo \"error: Unknown binary 'rust-analyzer' in official toolchain\" >&2";
        let command = ["sh".to_string(), "-c".to_string(), proxy.to_string()];
        let exits = Server::start(&command, dir.path(), until).err();
        assert_eq!(
            exits,
            Some(Error::Exited(Some("error: Unknown binary 'rust-analyzer' in official toolchain".into())))
        );
    }
}
