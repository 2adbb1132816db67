//! A minimal Language Server Protocol client over a server's stdin/stdout: enough to ask a
//! server for the callers of a function (call hierarchy) as the yardstick of the call-graph
//! benchmark. Requests the server sends are answered with an empty result; notifications are
//! dropped.

use std::io::BufReader;
use std::io::{BufRead, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
}

/// One call site: the file (relative to the root) and its 1-based line.
pub type Site = (String, u32);

impl Server {
    /// Starts `command` (program and arguments) and initialises it for `root`.
    pub fn start(command: &[String], root: &Path) -> Result<Server, String> {
        let (program, args) = command.split_first().ok_or("no language server command")?;
        let mut child = Command::new(program)
            .args(args)
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        let mut server = Server { child, stdin, messages, next_id: 1 };
        let root_uri = uri(root);
        // Without `workspace.configuration`: pyright, offered it, waits for settings it never asks.
        let capabilities = json!({"textDocument": {"callHierarchy": {"dynamicRegistration": false}}});
        let params = json!({
            "processId": std::process::id(), "rootUri": root_uri, "capabilities": capabilities,
            "workspaceFolders": [{"uri": root_uri, "name": "bench"}],
        });
        server.request("initialize", params, Duration::from_secs(60))?;
        server.notify("initialized", json!({}))?;
        Ok(server)
    }

    /// Tells the server `file` is open with its text on disk.
    pub fn open(&mut self, file: &Path, language_id: &str) -> Result<(), String> {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let document = json!({"uri": uri(file), "languageId": language_id, "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": document}))
    }

    /// The call sites of the function whose name is at `line`/`column` (0-based) of `file`, as
    /// the server's call hierarchy gives them; `None` when it finds no function there.
    pub fn incoming_calls(
        &mut self,
        root: &Path,
        file: &Path,
        line: u32,
        column: u32,
        deadline: Duration,
    ) -> Result<Option<Vec<Site>>, String> {
        let position = json!({"textDocument": {"uri": uri(file)}, "position": {"line": line, "character": column}});
        let items = self.request("textDocument/prepareCallHierarchy", position, deadline)?;
        let Some(item) = items.as_array().and_then(|items| items.first()).cloned() else { return Ok(None) };
        let calls = self.request("callHierarchy/incomingCalls", json!({"item": item}), deadline)?;
        let mut sites = Vec::new();
        for call in calls.as_array().into_iter().flatten() {
            let Some(path) = call["from"]["uri"].as_str().and_then(|u| u.strip_prefix("file://")) else { continue };
            let Ok(relative) = Path::new(path).strip_prefix(root) else { continue };
            for range in call["fromRanges"].as_array().into_iter().flatten() {
                let line = range["start"]["line"].as_u64().unwrap_or(0) as u32 + 1;
                sites.push((relative.to_string_lossy().into_owned(), line));
            }
        }
        sites.sort();
        sites.dedup();
        Ok(Some(sites))
    }

    fn notify(&mut self, method: &str, params: Value) -> Result<(), String> {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}))
    }

    fn request(&mut self, method: &str, params: Value, deadline: Duration) -> Result<Value, String> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        let until = Instant::now() + deadline;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let message = match self.messages.recv_timeout(left) {
                Ok(message) => message,
                Err(RecvTimeoutError::Timeout) => return Err(format!("{method}: no answer within {deadline:?}")),
                Err(RecvTimeoutError::Disconnected) => return Err(format!("{method}: the server exited")),
            };
            match (message.get("id"), message.get("method")) {
                // The server asks something (configuration, progress tokens): an empty answer.
                (Some(their_id), Some(_)) => {
                    let result = if message["method"] == "workspace/configuration" {
                        let asked = message["params"]["items"].as_array().map_or(0, Vec::len);
                        Value::Array(vec![Value::Null; asked])
                    } else {
                        Value::Null
                    };
                    self.send(&json!({"jsonrpc": "2.0", "id": their_id, "result": result}))?;
                }
                (Some(their_id), None) if *their_id == json!(id) => {
                    return match message.get("error") {
                        Some(error) => Err(format!("{method}: {error}")),
                        None => Ok(message["result"].clone()),
                    };
                }
                _ => {}
            }
        }
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len())
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("cannot write to the language server: {e}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// One framed message, or `None` at the end of the stream.
fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).ok()? == 0 {
            return None;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some(value) = header.strip_prefix("Content-Length:") {
            length = value.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}
