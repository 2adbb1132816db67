//! lctx-mcp driven by hand over its stdio, for tests that need exact
//! control of the JSON-RPC lines.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// JSON-RPC by hand: one line out, lines in through a thread so that a
/// missing answer fails the test instead of hanging it.
pub struct Raw {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Raw {
    pub fn spawn(mut cmd: std::process::Command) -> Raw {
        let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("spawn");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Raw { stdin: child.stdin.take(), child, lines }
    }

    pub fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    pub fn recv(&self) -> Value {
        let line = self.lines.recv_timeout(Duration::from_secs(30)).expect("an answer within 30 s");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("stdout carries only JSON-RPC ({e}): {line}"))
    }

    /// Sends a request and returns its answer (skipping notifications).
    pub fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send_line(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string());
        loop {
            let answer = self.recv();
            if answer.get("id") == Some(&json!(id)) {
                return answer;
            }
        }
    }

    pub fn initialize(&mut self, host: &str, version: &str) -> Value {
        let params =
            json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": host, "version": "1"}});
        let answer = self.request(0, "initialize", params);
        self.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        answer
    }

    /// Closes stdin and waits for the exit.
    pub fn close(self) -> std::process::ExitStatus {
        self.close_and_read().0
    }

    /// Closes stdin, waits for the exit, and returns the exit and the lines written that no
    /// `recv` took.
    pub fn close_and_read(mut self) -> (std::process::ExitStatus, Vec<Value>) {
        drop(self.stdin.take());
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(start.elapsed() < Duration::from_secs(10), "still running 10 s after stdin closed");
            std::thread::sleep(Duration::from_millis(10));
        };
        // The reader thread ends at stdout's end, which the exit brings.
        let rest = std::iter::from_fn(|| self.lines.recv_timeout(Duration::from_secs(5)).ok())
            .map(|line| serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON-RPC ({e}): {line}")))
            .collect();
        (status, rest)
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Raw {
    /// Calls a tool and returns (text, isError).
    pub fn call_tool(&mut self, id: i64, name: &str, arguments: Value) -> (String, bool) {
        let answer = self.request(id, "tools/call", json!({"name": name, "arguments": arguments}));
        let result = &answer["result"];
        let text = result["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text in {answer}"));
        (text.to_string(), result["isError"] == json!(true))
    }
}
