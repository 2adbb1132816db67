//! `lctx`: command-line client of lean-ctxd.

fn main() -> std::process::ExitCode {
    lctx::cli::main()
}
