//! Compiles every .proto file under proto/lean_ctx/v1 with protox (a
//! pure-Rust protobuf compiler), so building needs no system `protoc`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = "proto/lean_ctx/v1";
    println!("cargo:rerun-if-changed={dir}");
    let mut files: Vec<String> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "proto"))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    for f in &files {
        println!("cargo:rerun-if-changed={f}");
    }
    let descriptors = protox::compile(&files, ["proto"])?;
    tonic_prost_build::configure().build_transport(false).compile_fds(descriptors)?;
    Ok(())
}
