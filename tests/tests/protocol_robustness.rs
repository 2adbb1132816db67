//! Malformed, oversized and unknown requests get an error status, and the
//! daemon stays up for everyone else.

use std::io::{Read, Write};
use std::time::Duration;

use bytes::{Buf, BufMut};
use lean_ctx_proto::v1::PingRequest;
use lean_ctx_tests::{Home, client_options, process_alive};
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::codegen::http::uri::PathAndQuery;

/// Sends and receives message bodies as raw bytes, so a test can put
/// anything on the wire inside valid gRPC framing.
#[derive(Default)]
struct RawCodec;

struct RawEncoder;
struct RawDecoder;

impl Encoder for RawEncoder {
    type Item = Vec<u8>;
    type Error = tonic::Status;
    fn encode(&mut self, item: Vec<u8>, dst: &mut EncodeBuf<'_>) -> Result<(), tonic::Status> {
        dst.put_slice(&item);
        Ok(())
    }
}

impl Decoder for RawDecoder {
    type Item = Vec<u8>;
    type Error = tonic::Status;
    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Vec<u8>>, tonic::Status> {
        let mut out = vec![0; src.remaining()];
        src.copy_to_slice(&mut out);
        Ok(Some(out))
    }
}

impl Codec for RawCodec {
    type Encode = Vec<u8>;
    type Decode = Vec<u8>;
    type Encoder = RawEncoder;
    type Decoder = RawDecoder;
    fn encoder(&mut self) -> RawEncoder {
        RawEncoder
    }
    fn decoder(&mut self) -> RawDecoder {
        RawDecoder
    }
}

async fn raw_call(home: &Home, path: &'static str, body: Vec<u8>) -> Result<Vec<u8>, tonic::Status> {
    let stream = lctx::transport::dial(&home.socket(), Duration::from_secs(1)).await.unwrap();
    let channel = lctx::transport::channel(stream, home.socket(), Duration::from_secs(1)).await.unwrap();
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready().await.unwrap();
    grpc.unary(tonic::Request::new(body), PathAndQuery::from_static(path), RawCodec).await.map(|r| r.into_inner())
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

fn assert_still_serving(home: &Home, pid: u32) {
    assert!(process_alive(pid), "the daemon is still running");
    let st = home.lctx_json(&["daemon", "status", "--json"]);
    assert_eq!(st["pid"].as_u64(), Some(u64::from(pid)), "the same daemon still answers");
}

#[test]
fn garbage_bytes_close_the_connection_only() {
    let home = Home::new();
    let daemon = home.spawn_daemon(&[]);
    let mut conn = std::os::unix::net::UnixStream::connect(home.socket()).unwrap();
    conn.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    conn.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n\x00\xff\xfe garbage").unwrap();
    let mut sink = Vec::new();
    // Either EOF or a reset: the daemon hangs up on a non-gRPC peer.
    let _ = conn.read_to_end(&mut sink);
    assert_still_serving(&home, daemon.id());
}

#[test]
fn a_body_that_is_not_protobuf_gets_an_error_status() {
    let home = Home::new();
    let daemon = home.spawn_daemon(&[]);
    // Field 2 (payload, length-delimited) claiming 100 bytes with 3 present.
    let err = runtime().block_on(raw_call(&home, "/lean_ctx.v1.Control/Ping", vec![0x12, 100, 1, 2, 3])).unwrap_err();
    assert_ne!(err.code(), tonic::Code::Ok);
    assert!(err.message().to_lowercase().contains("decode"), "{err:?}");
    assert_still_serving(&home, daemon.id());
}

#[test]
fn an_unknown_method_is_unimplemented() {
    let home = Home::new();
    let daemon = home.spawn_daemon(&[]);
    let err = runtime().block_on(raw_call(&home, "/lean_ctx.v1.Control/Frobnicate", vec![])).unwrap_err();
    assert_eq!(err.code(), tonic::Code::Unimplemented, "{err:?}");
    assert_still_serving(&home, daemon.id());
}

#[test]
fn an_oversized_message_is_refused() {
    let home = Home::new();
    std::fs::create_dir_all(home.dirs().config).unwrap();
    std::fs::write(home.dirs().config_file(), "max_message_bytes = 1048576\n").unwrap();
    let daemon = home.spawn_daemon(&[]);
    let opts = client_options(&home);
    let err = runtime()
        .block_on(async {
            let mut d = lctx::daemon::find(&opts).await.unwrap().expect("daemon");
            d.control.ping(PingRequest { ctx: None, payload: vec![7; 2 << 20], delay_ms: 0 }).await
        })
        .unwrap_err();
    assert!(
        matches!(err.code(), tonic::Code::OutOfRange | tonic::Code::ResourceExhausted),
        "a 2 MiB message against a 1 MiB limit: {err:?}"
    );
    assert_still_serving(&home, daemon.id());
}

#[test]
fn an_out_of_range_argument_is_invalid() {
    let home = Home::new();
    let daemon = home.spawn_daemon(&[]);
    let opts = client_options(&home);
    let err = runtime()
        .block_on(async {
            let mut d = lctx::daemon::find(&opts).await.unwrap().expect("daemon");
            d.control.ping(PingRequest { ctx: None, payload: vec![], delay_ms: u32::MAX }).await
        })
        .unwrap_err();
    assert_eq!(err.code(), tonic::Code::InvalidArgument);
    assert!(err.message().contains("at most 30000"), "{err:?}");
    assert_still_serving(&home, daemon.id());
}
