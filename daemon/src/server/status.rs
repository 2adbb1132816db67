//! Engine errors as gRPC statuses.

use tonic::Status;

use crate::engine::error::{EngineError, ErrorKind};

pub fn engine_status(e: EngineError) -> Status {
    let code = match e.kind {
        ErrorKind::InvalidArgument => tonic::Code::InvalidArgument,
        ErrorKind::NotFound => tonic::Code::NotFound,
        ErrorKind::PermissionDenied => tonic::Code::PermissionDenied,
        ErrorKind::ResourceExhausted => tonic::Code::ResourceExhausted,
        ErrorKind::FailedPrecondition => tonic::Code::FailedPrecondition,
        ErrorKind::Unavailable => tonic::Code::Unavailable,
        ErrorKind::Cancelled => tonic::Code::Cancelled,
        ErrorKind::DeadlineExceeded => tonic::Code::DeadlineExceeded,
        ErrorKind::Internal => tonic::Code::Internal,
    };
    Status::new(code, bounded(e.message))
}

/// The most of a message a status carries. It travels percent-encoded in an HTTP/2 header
/// (up to three bytes a byte), and a header list past the client's limit (16 KiB) fails the
/// call as a protocol error that says nothing: a message echoing a 20,000-character path must
/// still arrive.
const MAX_MESSAGE_BYTES: usize = 3_000;

/// `message`, or its head and tail with the number of bytes left out between them.
fn bounded(message: String) -> String {
    if message.len() <= MAX_MESSAGE_BYTES {
        return message;
    }
    let boundary = |at| crate::engine::char_boundary::floor(&message, at);
    let head_end = boundary(MAX_MESSAGE_BYTES / 2);
    let tail_start = boundary(message.len() - MAX_MESSAGE_BYTES / 3);
    format!(
        "{} … [{} bytes of this message left out] … {}",
        &message[..head_end],
        tail_start - head_end,
        &message[tail_start..]
    )
}

pub fn missing_context() -> Status {
    Status::invalid_argument("the request carries no RequestContext (ctx); clients must send cwd and session")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_message_keeps_its_head_and_tail_and_says_what_it_left_out() {
        let message = format!("cannot access {}é: File name too long", "a".repeat(20_000));
        let shown = bounded(message.clone());
        assert!(shown.len() <= MAX_MESSAGE_BYTES + 60, "{}", shown.len());
        assert!(shown.starts_with("cannot access aaa") && shown.ends_with("é: File name too long"), "{shown}");
        // What is shown and what it says it left out make up the message.
        let (head, rest) = shown.split_once(" … [").unwrap();
        let (cut, tail) = rest.split_once(" bytes of this message left out] … ").unwrap();
        assert_eq!(head.len() + cut.parse::<usize>().unwrap() + tail.len(), message.len());
        assert_eq!(bounded("short".into()), "short");
    }
}
