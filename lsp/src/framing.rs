//! LSP base protocol: `Content-Length` headers, a blank line, a JSON body.

use std::io::{BufRead, Write};

use serde_json::Value;

/// One framed message, or `None` at the end of the stream (or on a frame that cannot be read:
/// the stream is out of step then and nothing after it can be trusted).
pub(crate) fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    loop {
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
        // A body that is not JSON is skipped; the frame boundary is still known.
        if let Ok(message) = serde_json::from_slice(&body) {
            return Some(message);
        }
    }
}

pub(crate) fn write_message(writer: &mut impl Write, message: &Value) -> std::io::Result<()> {
    let body = message.to_string();
    write!(writer, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    writer.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_round_trip_and_a_bad_body_is_skipped() {
        let mut stream = Vec::new();
        write_message(&mut stream, &json!({"id": 1, "result": "é"})).unwrap();
        stream.extend_from_slice(b"Content-Length: 3\r\nContent-Type: x\r\n\r\n{{{");
        write_message(&mut stream, &json!({"method": "exit"})).unwrap();
        let mut reader = std::io::Cursor::new(stream);
        assert_eq!(read_message(&mut reader), Some(json!({"id": 1, "result": "é"})));
        assert_eq!(read_message(&mut reader), Some(json!({"method": "exit"})));
        assert_eq!(read_message(&mut reader), None);
    }

    #[test]
    fn a_truncated_body_ends_the_stream() {
        let mut reader = std::io::Cursor::new(b"Content-Length: 10\r\n\r\n{}".to_vec());
        assert_eq!(read_message(&mut reader), None);
    }
}
