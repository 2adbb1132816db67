//! Newline-delimited JSON-RPC on stdin/stdout.
//!
//! rmcp's own stdio transport drops a line that is not JSON, or that is
//! longer than its limit, without a word, and the host then waits forever
//! for an answer. This one answers both: a parse error, or an error naming
//! the size, sent with the request's id when the line reveals it. The line
//! limit also bounds the memory one message can take.
//!
//! Everything written to stdout goes through one writer task, so messages
//! never interleave and stdout carries nothing but MCP messages. Errors are
//! written as JSON-RPC 2.0 has them where rmcp differs: `"id": null` when the
//! request's id could not be read (rmcp leaves the member out), "method not
//! found: M" where rmcp says only the method's name, and a request made
//! before `initialize` is told to make the handshake first.

use std::io;

use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, ClientRequest, ErrorCode, ErrorData, JsonRpcMessage, JsonRpcRequest, NumberOrString,
    RequestId,
};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde::{Deserialize as _, Serialize};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::lifecycle::{Admit, Begun, initialize_problems};

/// The largest message read, as the daemon's default `max_message_bytes`:
/// a larger one could not be forwarded anyway.
pub const MAX_MESSAGE: usize = 16 << 20;

pub struct Stdio<R> {
    read: BufReader<R>,
    line: Vec<u8>,
    /// Set while the rest of an oversized line is skipped.
    skipping: Option<IdScan>,
    out: Option<mpsc::UnboundedSender<Vec<u8>>>,
    writer: Option<JoinHandle<()>>,
    begun: Begun,
}

impl<R: AsyncRead + Unpin + Send> Stdio<R> {
    pub fn new<W: AsyncWrite + Unpin + Send + 'static>(read: R, write: W) -> Self {
        let (out, queue) = mpsc::unbounded_channel();
        Stdio {
            read: BufReader::with_capacity(64 << 10, read),
            line: Vec::new(),
            skipping: None,
            out: Some(out),
            writer: Some(tokio::spawn(write_lines(write, queue))),
            begun: Begun::default(),
        }
    }

    /// The flag that tells this transport the session has begun.
    pub fn begun(&self) -> Begun {
        self.begun.clone()
    }

    fn queue(&self, message: &TxJsonRpcMessage<RoleServer>) -> io::Result<()> {
        let mut bytes = encode(message).map_err(io::Error::other)?;
        bytes.push(b'\n');
        let out = self.out.as_ref().ok_or_else(|| io::Error::new(io::ErrorKind::NotConnected, "stdout is closed"))?;
        out.send(bytes).map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "stdout is gone"))
    }

    fn answer(&self, id: Option<RequestId>, error: ErrorData) {
        tracing::warn!("answering an unreadable message with an error: {}", error.message);
        self.refuse(id, error);
    }

    fn refuse(&self, id: Option<RequestId>, error: ErrorData) {
        if let Err(e) = self.queue(&TxJsonRpcMessage::<RoleServer>::error(error, id)) {
            tracing::warn!("cannot answer: {e}");
        }
    }

    /// Reads up to the next newline into `self.line`, or past an oversized
    /// line. Cancel-safe, as `receive` must be: `fill_buf` consumes nothing
    /// when dropped, and what was consumed is already in `self`.
    async fn read_line(&mut self) -> io::Result<Line> {
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                // A last message without its newline still counts.
                return Ok(match self.skipping.take() {
                    Some(scan) => Line::Oversized(scan),
                    None if !self.line.is_empty() => Line::Complete,
                    None => Line::Eof,
                });
            }
            let newline = available.iter().position(|b| *b == b'\n');
            let take = newline.map_or(available.len(), |i| i + 1);
            if let Some(scan) = &mut self.skipping {
                scan.feed(&available[..take]);
            } else if self.line.len() + take > MAX_MESSAGE {
                let mut scan = IdScan::default();
                scan.feed(&self.line);
                scan.feed(&available[..take]);
                self.line = Vec::new();
                self.skipping = Some(scan);
            } else {
                self.line.extend_from_slice(&available[..take]);
            }
            self.read.consume(take);
            if newline.is_some() {
                return Ok(self.skipping.take().map_or(Line::Complete, Line::Oversized));
            }
        }
    }
}

enum Line {
    Complete,
    Oversized(IdScan),
    Eof,
}

impl<R: AsyncRead + Unpin + Send> Transport<RoleServer> for Stdio<R> {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        std::future::ready(self.queue(&item))
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            match self.read_line().await {
                Ok(Line::Complete) => {}
                Ok(Line::Oversized(scan)) => {
                    let message = format!(
                        "message of {:.1} MiB is larger than lctx-mcp's limit of {} MiB and was not read; pass \
                         large content in smaller pieces",
                        scan.bytes as f64 / f64::from(1 << 20),
                        MAX_MESSAGE >> 20
                    );
                    match scan.id {
                        Some(id) => self.answer(Some(id), ErrorData::invalid_request(message, None)),
                        None => tracing::warn!("dropped a notification: {message}"),
                    }
                    continue;
                }
                Ok(Line::Eof) => return self.end_of_input().await,
                Err(e) => {
                    tracing::warn!("cannot read stdin: {e}");
                    return self.end_of_input().await;
                }
            }
            let parsed = parse(&self.line);
            self.line.clear();
            // One large message should not keep its buffer for the whole session.
            self.line.shrink_to(64 << 10);
            match parsed {
                Parsed::Message(message) => match self.begun.admit(*message) {
                    Admit::Pass(message) => return Some(*message),
                    Admit::Drop => {}
                    Admit::Refuse(id, error) => self.refuse(Some(id), error),
                },
                Parsed::Skip => {}
                Parsed::Error(id, error) => self.answer(id, error),
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.flush_and_stop().await
    }
}

impl<R: AsyncRead + Unpin + Send> Stdio<R> {
    /// The input ended. Before a session began, rmcp stops without closing the transport, so
    /// what was answered (a refused `initialize`) is written out here first.
    async fn end_of_input(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        if !self.begun.get()
            && let Err(e) = self.flush_and_stop().await
        {
            tracing::warn!("cannot write the last answers: {e}");
        }
        None
    }

    async fn flush_and_stop(&mut self) -> io::Result<()> {
        // Closing the queue lets the writer flush what is queued and stop.
        self.out = None;
        if let Some(writer) = self.writer.take() {
            writer.await.map_err(io::Error::other)?;
        }
        Ok(())
    }
}

async fn write_lines<W: AsyncWrite + Unpin>(mut write: W, mut queue: mpsc::UnboundedReceiver<Vec<u8>>) {
    while let Some(line) = queue.recv().await {
        let written = match write.write_all(&line).await {
            // Flush once the queue is empty: one syscall for a burst.
            Ok(()) if queue.is_empty() => write.flush().await,
            other => other,
        };
        if let Err(e) = written {
            tracing::warn!("cannot write to stdout: {e}");
            return;
        }
    }
}

/// An error response as JSON-RPC 2.0 writes it: `id` is always present.
#[derive(Serialize)]
struct ErrorLine<'a> {
    jsonrpc: &'static str,
    id: Option<&'a RequestId>,
    error: &'a ErrorData,
}

/// The message's line, without its newline. An error gets `"id": null`
/// when its request's id could not be determined (JSON-RPC 2.0, section 5),
/// and an unknown method is named as such, not by its bare name.
fn encode(message: &TxJsonRpcMessage<RoleServer>) -> serde_json::Result<Vec<u8>> {
    let JsonRpcMessage::Error(e) = message else { return serde_json::to_vec(message) };
    let mut error = e.error.clone();
    // rmcp's message for a method it does not serve is the method alone.
    if error.code == ErrorCode::METHOD_NOT_FOUND && !error.message.contains(char::is_whitespace) {
        error.message = format!("method not found: {}", error.message).into();
    }
    if let Some(handshake) = handshake_first(&error) {
        error.message = handshake.into();
    }
    serde_json::to_vec(&ErrorLine { jsonrpc: "2.0", id: e.id.as_ref(), error: &error })
}

/// rmcp's refusal of a request with incomplete per-request metadata, which names the fields.
const MISSING_META: &str = "request _meta is missing or has malformed required fields: ";
/// The field a request of protocol 2026-07-28 says it is one with.
const PROTOCOL_VERSION_FIELD: &str = "io.modelcontextprotocol/protocolVersion";

/// rmcp takes a request that came before `initialize` and names no protocol version of its own
/// for one of protocol 2026-07-28 missing its `_meta`, and says only that; such a client most
/// likely forgot the handshake, so it is told to make it first, then what 2026-07-28 asks instead.
fn handshake_first(error: &ErrorData) -> Option<String> {
    let fields = error.message.strip_prefix(MISSING_META)?;
    (error.code == ErrorCode::INVALID_PARAMS && fields.contains(PROTOCOL_VERSION_FIELD)).then(|| {
        format!(
            "no session yet: send `initialize` first (protocol 2024-11-05 to 2025-11-25); or, with protocol \
             2026-07-28, which has no handshake, give every request a _meta holding the required fields ({MISSING_META}\
             {fields})"
        )
    })
}

enum Parsed {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    Skip,
    Error(Option<RequestId>, ErrorData),
}

fn parse(line: &[u8]) -> Parsed {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Parsed::Skip;
    }
    let error = match serde_json::from_slice(line) {
        Ok(message) => {
            return misread(&message)
                .or_else(|| unusable_id(&message, line))
                .unwrap_or_else(|| Parsed::Message(Box::new(message)));
        }
        Err(e) => e,
    };
    let value = match serde_json::from_slice::<Value>(line) {
        Ok(value) => value,
        // Well-formed JSON that no value here holds: a number no number type holds (`"confidence":
        // 1e400`), or nesting past the parser's limit. An error without its id could not be
        // matched to the request by the host.
        Err(why) if serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok() && held_by_no_value(&why) => {
            let mut scan = IdScan::default();
            scan.feed(line);
            let error = match why.to_string().starts_with("number out of range") {
                true => ErrorData::invalid_params(format!("a number in the request is out of range: {why}"), None),
                false => ErrorData::invalid_request(format!("the request nests too deeply: {why}"), None),
            };
            return Parsed::Error(scan.id, error);
        }
        // Invalid UTF-8 among others: not JSON at all.
        Err(_) => {
            return Parsed::Error(None, ErrorData::new(ErrorCode::PARSE_ERROR, format!("not JSON: {error}"), None));
        }
    };
    let Some(object) = value.as_object() else {
        let why = "a JSON-RPC message must be an object (batches are not served)";
        return Parsed::Error(None, ErrorData::invalid_request(why, None));
    };
    let id = match object.get("id").map(request_id) {
        Some(None) => return bad_id(),
        Some(id) => id,
        None => None,
    };
    let method = object.get("method");
    let invalid = envelope_problem(object).or_else(|| match method {
        Some(Value::String(_)) => None,
        Some(other) => Some(format!(r#""method" must be a string, not {other}"#)),
        None if object.contains_key("result") || object.contains_key("error") => None,
        None => Some(r#""method" is missing"#.into()),
    });
    match (id, method.and_then(Value::as_str), invalid) {
        // A notification cannot be answered.
        (None, Some(method), why) => {
            tracing::warn!("ignoring a malformed {method} notification: {}", why.unwrap_or_else(|| error.to_string()));
            Parsed::Skip
        }
        (id, _, Some(why)) => Parsed::Error(id, ErrorData::invalid_request(why, None)),
        (id, Some(method), None) => {
            Parsed::Error(id, ErrorData::invalid_params(format!("malformed {method} request: {error}"), None))
        }
        (id, None, None) => {
            Parsed::Error(id, ErrorData::invalid_request(format!("not a JSON-RPC message: {error}"), None))
        }
    }
}

/// Whether `error`, of a text that is well-formed JSON, says no value here can hold it (rather
/// than that it is not JSON: invalid UTF-8 in a string passes a parse that ignores strings).
fn held_by_no_value(error: &serde_json::Error) -> bool {
    let why = error.to_string();
    why.starts_with("number out of range") || why.starts_with("recursion limit exceeded")
}

/// What is wrong with the `jsonrpc` member, which must be "2.0".
fn envelope_problem(object: &serde_json::Map<String, Value>) -> Option<String> {
    match object.get("jsonrpc") {
        Some(Value::String(version)) if version == "2.0" => None,
        Some(other) => Some(format!(r#""jsonrpc" must be "2.0", not {other}"#)),
        None => Some(r#""jsonrpc" must be "2.0" and is missing"#.into()),
    }
}

/// Methods this server serves. rmcp reads one whose params do not fit its
/// type as a custom request, which would be answered "method not found".
const SERVED: &[&str] = &["initialize", "server/discover", "tools/list", "tools/call"];

/// A served method with params of the wrong shape: invalid params.
fn misread(message: &RxJsonRpcMessage<RoleServer>) -> Option<Parsed> {
    let JsonRpcMessage::Request(JsonRpcRequest { id, request: ClientRequest::CustomRequest(custom), .. }) = message
    else {
        return None;
    };
    let method = custom.method.as_str();
    if !SERVED.contains(&method) {
        return None;
    }
    let params = custom.params.clone().unwrap_or_default();
    let why = match method {
        "tools/call" => CallToolRequestParams::deserialize(params).err().map(|e| e.to_string()),
        "initialize" => initialize_problems(&params),
        _ => None,
    };
    let why = why.unwrap_or_else(|| "params do not match the method".into());
    Some(Parsed::Error(Some(id.clone()), ErrorData::invalid_params(format!("malformed {method} request: {why}"), None)))
}

/// A message with an `id` that is no request id (null, a fraction, an
/// array…) reads as a notification, which is never answered; its sender
/// waits for an answer, so it gets an error without an id instead.
fn unusable_id(message: &RxJsonRpcMessage<RoleServer>, line: &[u8]) -> Option<Parsed> {
    if !matches!(message, JsonRpcMessage::Notification(_)) {
        return None;
    }
    let value: Value = serde_json::from_slice(line).ok()?;
    value.get("id").is_some().then(bad_id)
}

fn bad_id() -> Parsed {
    Parsed::Error(None, ErrorData::invalid_request("the id must be a string or an integer", None))
}

fn request_id(value: &Value) -> Option<RequestId> {
    match value {
        Value::Number(n) => n.as_i64().map(NumberOrString::Number),
        Value::String(s) => Some(NumberOrString::String(s.as_str().into())),
        _ => None,
    }
}

/// Finds the top-level `"id"` of a JSON object streamed through it in
/// chunks, without keeping the object: the one thing needed to answer a
/// message too large to read.
#[derive(Default)]
struct IdScan {
    bytes: usize,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// At depth 1, the next string is a key.
    expect_key: bool,
    /// The depth-1 key being valued is `id`.
    at_id: bool,
    /// The depth-1 string or scalar being read (only its start is kept).
    token: Vec<u8>,
    id: Option<RequestId>,
}

impl IdScan {
    const TOKEN_MAX: usize = 256;

    fn feed(&mut self, chunk: &[u8]) {
        self.bytes += chunk.len();
        for &b in chunk {
            if self.in_string {
                match b {
                    _ if self.escaped => self.escaped = false,
                    b'\\' => self.escaped = true,
                    b'"' => {
                        self.in_string = false;
                        if self.depth == 1 {
                            self.end_string();
                        }
                        continue;
                    }
                    _ => {}
                }
                self.keep(b);
                continue;
            }
            match b {
                b'"' => {
                    self.in_string = true;
                    self.token.clear();
                }
                b'{' | b'[' => {
                    self.depth += 1;
                    self.expect_key = self.depth == 1 && b == b'{';
                }
                b'}' | b']' | b',' => {
                    if self.depth == 1 {
                        self.end_scalar();
                        self.expect_key = b == b',';
                    }
                    if b != b',' {
                        self.depth = self.depth.saturating_sub(1);
                    }
                }
                _ if self.depth == 1 && self.at_id && !b.is_ascii_whitespace() && b != b':' => self.keep(b),
                _ => {}
            }
        }
    }

    fn keep(&mut self, b: u8) {
        if self.depth == 1 && self.token.len() < Self::TOKEN_MAX {
            self.token.push(b);
        }
    }

    fn end_string(&mut self) {
        if self.expect_key {
            self.at_id = self.token == b"id";
            self.expect_key = false;
        } else if self.at_id {
            self.id = Some(NumberOrString::String(String::from_utf8_lossy(&self.token).as_ref().into()));
            self.at_id = false;
        }
        self.token.clear();
    }

    fn end_scalar(&mut self) {
        if self.at_id
            && let Ok(n) = std::str::from_utf8(&self.token).unwrap_or_default().parse::<i64>()
        {
            self.id = Some(NumberOrString::Number(n));
        }
        self.at_id = false;
        self.token.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan_in_chunks(text: &str, chunk: usize) -> Option<RequestId> {
        let mut scan = IdScan::default();
        for part in text.as_bytes().chunks(chunk) {
            scan.feed(part);
        }
        assert_eq!(scan.bytes, text.len());
        scan.id
    }

    #[test]
    fn finds_the_top_level_id_wherever_it_is() {
        let big = "x".repeat(5000);
        let cases = [
            (format!(r#"{{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{{"a":"{big}"}}}}"#), 42),
            (format!(r#"{{"method":"tools/call","params":{{"id":"inner","a":"{big}"}},"id" : 7 }}"#), 7),
            (format!(r#"{{"params":{{"s":"q\"}}\\","n":[1,{{"id":3}}]}},"id":-5,"x":"{big}"}}"#), -5),
        ];
        for (text, id) in &cases {
            for chunk in [1, 7, 4096] {
                assert_eq!(scan_in_chunks(text, chunk), Some(NumberOrString::Number(*id)), "{chunk}: {text:.80}");
            }
        }
        let text = format!(r#"{{"id":"req-1","params":{{"v":"{big}"}}}}"#);
        assert_eq!(scan_in_chunks(&text, 3), Some(NumberOrString::String("req-1".into())));
        assert_eq!(scan_in_chunks(&format!(r#"{{"method":"n","params":{{"id":1,"v":"{big}"}}}}"#), 5), None);
    }

    #[test]
    fn unreadable_lines_get_errors_with_their_id_when_they_have_one() {
        let Parsed::Error(None, e) = parse(b"{not json\n") else { panic!("parse error expected") };
        assert_eq!(e.code, ErrorCode::PARSE_ERROR);
        let Parsed::Error(Some(id), e) =
            parse(br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5}}"#)
        else {
            panic!("invalid params expected")
        };
        assert_eq!((id, e.code), (NumberOrString::Number(3), ErrorCode::INVALID_PARAMS));
        // QA: `1e400` is JSON no number type holds; the answer carries the request's id.
        let Parsed::Error(Some(id), e) = parse(
            br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"ctx_knowledge","arguments":{"confidence":1e400}}}"#,
        ) else {
            panic!("an error with the id expected")
        };
        assert_eq!((id, e.code), (NumberOrString::Number(9), ErrorCode::INVALID_PARAMS));
        assert!(e.message.starts_with("a number in the request is out of range: number out of range"), "{}", e.message);
        // QA: invalid UTF-8 and deep nesting were answered as a number out of range.
        let Parsed::Error(None, e) = parse(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\xff\"}") else {
            panic!("a parse error expected")
        };
        assert_eq!(e.code, ErrorCode::PARSE_ERROR, "{}", e.message);
        let deep =
            format!(r#"{{"jsonrpc":"2.0","id":8,"method":"ping","params":{}{}}}"#, "[".repeat(500), "]".repeat(500));
        let Parsed::Error(Some(id), e) = parse(deep.as_bytes()) else { panic!("an error with the id expected") };
        assert_eq!((id, e.code), (NumberOrString::Number(8), ErrorCode::INVALID_REQUEST));
        assert!(e.message.starts_with("the request nests too deeply: recursion limit exceeded"), "{}", e.message);
        assert!(matches!(parse(b"  \r\n"), Parsed::Skip));
        assert!(matches!(parse(br#"{"jsonrpc":"2.0","method":"tools/call","params":5}"#), Parsed::Skip));
        assert!(matches!(parse(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#), Parsed::Message(_)));
    }

    /// A request that is not JSON-RPC 2.0 is an invalid request that says
    /// what is wrong, answered with its id; not invalid params.
    #[test]
    fn a_request_that_is_not_json_rpc_2_0_is_an_invalid_request_with_its_id() {
        let cases: [(&[u8], Option<RequestId>, &str); 6] = [
            (
                br#"{"jsonrpc":"1.0","id":10,"method":"tools/list"}"#,
                Some(NumberOrString::Number(10)),
                r#""jsonrpc" must be "2.0", not "1.0""#,
            ),
            (
                br#"{"id":11,"method":"ping"}"#,
                Some(NumberOrString::Number(11)),
                r#""jsonrpc" must be "2.0" and is missing"#,
            ),
            (
                br#"{"jsonrpc":2,"id":"a","method":"ping"}"#,
                Some(NumberOrString::String("a".into())),
                r#""jsonrpc" must be "2.0", not 2"#,
            ),
            (
                br#"{"jsonrpc":"2.0","id":12,"method":7}"#,
                Some(NumberOrString::Number(12)),
                r#""method" must be a string, not 7"#,
            ),
            (br#"{"jsonrpc":"2.0","id":13}"#, Some(NumberOrString::Number(13)), r#""method" is missing"#),
            (b"[1,2]", None, "must be an object"),
        ];
        for (line, want_id, want) in cases {
            let text = String::from_utf8_lossy(line);
            let Parsed::Error(id, e) = parse(line) else { panic!("an error expected for {text}") };
            assert_eq!((id, e.code), (want_id, ErrorCode::INVALID_REQUEST), "{text}");
            assert!(e.message.contains(want), "{text}: {}", e.message);
        }
        // A notification cannot be answered, however malformed.
        assert!(matches!(parse(br#"{"jsonrpc":"1.0","method":"notifications/initialized"}"#), Parsed::Skip));
    }

    fn written(message: &TxJsonRpcMessage<RoleServer>) -> Value {
        serde_json::from_slice(&encode(message).unwrap()).unwrap()
    }

    #[test]
    fn an_error_without_a_known_id_has_a_null_id() {
        let error = ErrorData::new(ErrorCode::PARSE_ERROR, "not JSON", None);
        let line = written(&TxJsonRpcMessage::<RoleServer>::error(error.clone(), None));
        assert_eq!(
            line,
            serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "not JSON"}})
        );
        let line = written(&TxJsonRpcMessage::<RoleServer>::error(error, Some(NumberOrString::Number(4))));
        assert_eq!(line["id"], 4);
    }

    #[test]
    fn an_unknown_method_is_named_as_such() {
        let error = ErrorData::new(ErrorCode::METHOD_NOT_FOUND, "nosuch/method", None);
        let line = written(&TxJsonRpcMessage::<RoleServer>::error(error, Some(NumberOrString::Number(1))));
        assert_eq!(line["error"]["code"], -32601);
        assert_eq!(line["error"]["message"], "method not found: nosuch/method");
        let said = ErrorData::new(ErrorCode::METHOD_NOT_FOUND, "method not found: x", None);
        let line = written(&TxJsonRpcMessage::<RoleServer>::error(said, Some(NumberOrString::Number(1))));
        assert_eq!(line["error"]["message"], "method not found: x", "said once");
    }

    #[test]
    fn a_request_before_the_handshake_is_told_to_make_it_first() {
        let fields = "io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities";
        let error = ErrorData::invalid_params(format!("{MISSING_META}{fields}"), None);
        let line = written(&TxJsonRpcMessage::<RoleServer>::error(error, Some(NumberOrString::Number(1))));
        assert_eq!(line["error"]["code"], -32602);
        let message = line["error"]["message"].as_str().unwrap();
        assert!(message.starts_with("no session yet: send `initialize` first (protocol 2024-11-05 to"), "{message}");
        assert!(message.ends_with(&format!("({MISSING_META}{fields})")), "what 2026-07-28 asks is kept: {message}");
        // A request that names its version is one of 2026-07-28: rmcp's words are the answer.
        let partial = format!("{MISSING_META}io.modelcontextprotocol/clientCapabilities");
        let error = ErrorData::invalid_params(partial.clone(), None);
        let line = written(&TxJsonRpcMessage::<RoleServer>::error(error, Some(NumberOrString::Number(2))));
        assert_eq!(line["error"]["message"], partial.as_str());
    }

    /// Found by the `mcp_stdio` fuzz target: a request whose id is null, a
    /// fraction or an array was taken for a notification and never answered.
    #[test]
    fn a_request_with_an_unusable_id_is_answered_not_ignored() {
        for line in [
            br#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#.as_slice(),
            br#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#,
            br#"{"jsonrpc":"2.0","id":[1],"method":"tools/call","params":{"name":"ctx_read"}}"#,
        ] {
            let Parsed::Error(None, e) = parse(line) else {
                panic!("an error without id expected for {}", String::from_utf8_lossy(line))
            };
            assert_eq!(e.code, ErrorCode::INVALID_REQUEST, "{}", String::from_utf8_lossy(line));
            assert!(e.message.contains("id must be a string or an integer"), "{}", e.message);
        }
    }
}
