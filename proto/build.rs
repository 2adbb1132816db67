//! Compiles the .proto files with protox (a pure-Rust protobuf compiler), so
//! building needs no system `protoc`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files = ["proto/lean_ctx/v1/common.proto", "proto/lean_ctx/v1/control.proto"];
    for f in files {
        println!("cargo:rerun-if-changed={f}");
    }
    let descriptors = protox::compile(files, ["proto"])?;
    tonic_prost_build::configure().build_transport(false).compile_fds(descriptors)?;
    Ok(())
}
