#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lean_ctx_fuzz::paths::run(data));
