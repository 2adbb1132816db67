//! A scripted language server for the precise-mode tests: speaks LSP over stdio and answers the
//! call hierarchy from a JSON script named by its only argument, so no real server is needed.
//!
//! Script keys (all optional): `prepare` (the items for any prepareCallHierarchy), `incoming` and
//! `outgoing` (item name → the calls to answer), `hang` (a method it never answers), `crash`
//! (a method on which it exits at once, only while the file `crash_marker` does not exist; it
//! creates the file, so a restarted server answers), `pids` (a file it appends its pid to),
//! `linger` (true: it does not exit when its input closes, like a server that missed it).
//! `file://ROOT/` in the script stands for the directory it was started in.

use std::io::{BufRead, BufReader, Write};

use serde_json::{Value, json};

fn main() {
    let path = std::env::args().nth(1).expect("usage: fake-lsp SCRIPT");
    let cwd = std::env::current_dir().expect("cwd");
    let text =
        std::fs::read_to_string(&path).expect("script").replace("file://ROOT/", &format!("file://{}/", cwd.display()));
    let script: Value = serde_json::from_str(&text).expect("script JSON");
    if let Some(pids) = script["pids"].as_str() {
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(pids).expect("pids file");
        writeln!(file, "{}", std::process::id()).expect("write pid");
    }
    let mut input = BufReader::new(std::io::stdin());
    let mut output = std::io::stdout();
    while let Some(message) = read(&mut input) {
        let method = message["method"].as_str().unwrap_or_default();
        if method == "exit" {
            std::process::exit(0);
        }
        let Some(id) = message.get("id") else { continue };
        if script["hang"] == method {
            continue;
        }
        if script["crash"] == method {
            let marker = script["crash_marker"].as_str().expect("crash_marker");
            if std::fs::metadata(marker).is_err() {
                std::fs::write(marker, "crashed").expect("marker");
                std::process::exit(3);
            }
        }
        let name = message["params"]["item"]["name"].as_str().unwrap_or_default();
        let result = match method {
            "initialize" => json!({"capabilities": {"callHierarchyProvider": true}}),
            "textDocument/prepareCallHierarchy" => script["prepare"].clone(),
            "callHierarchy/incomingCalls" => script["incoming"][name].clone(),
            "callHierarchy/outgoingCalls" => script["outgoing"][name].clone(),
            _ => Value::Null,
        };
        let body = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
        write!(output, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        output.flush().expect("flush");
    }
    if script["linger"] == true {
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
}

fn read(input: &mut impl BufRead) -> Option<Value> {
    let mut length = 0;
    loop {
        let mut header = String::new();
        if input.read_line(&mut header).ok()? == 0 {
            return None;
        }
        match header.trim_end() {
            "" => break,
            h => {
                if let Some(n) = h.strip_prefix("Content-Length:") {
                    length = n.trim().parse().ok()?;
                }
            }
        }
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}
