//! Requests the daemon cannot serve are refused with INVALID_ARGUMENT and a
//! message saying what to change, never INTERNAL or a worker held for
//! seconds.

use lean_ctx_proto::v1::{ExecRequest, ReadRequest};
use lean_ctx_tests::{Home, client_options, describe};
use tonic::Code;

#[test]
fn bad_exec_environments_and_huge_reads_are_invalid_arguments() {
    let home = Home::new();
    let root = home.path().join("proj");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("a.txt"), "a\n").unwrap();
    // Started here, in this home's environment: a daemon the test process
    // started would inherit the test's (another home).
    let started = home.lctx(&["daemon", "start"]);
    assert!(started.status.success(), "{}", describe(&started));
    let opts = client_options(&home);
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
        let backend = lctx::backend::Backend::connect(&opts).await.unwrap();
        assert_eq!(backend.fallback_reason, None, "served by this home's daemon");
        let mut ctx = opts.context();
        ctx.cwd = root.display().to_string();

        for (name, value) in [("BAD\0NAME", "x"), ("GOOD", "bad\0value")] {
            let req = ExecRequest {
                ctx: Some(ctx.clone()),
                command: "true".into(),
                env: [(name.to_string(), value.to_string())].into(),
                ..Default::default()
            };
            let status = backend.shell().exec(req).await.unwrap_err();
            assert_eq!(status.code(), Code::InvalidArgument, "{name:?}={value:?}: {status:?}");
            assert!(status.message().contains("environment variable"), "{status:?}");
        }

        let req = ReadRequest { ctx: Some(ctx.clone()), paths: vec!["a.txt".into(); 100_000], ..Default::default() };
        let status = backend.context().read(req).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
        assert!(status.message().contains("split them"), "{status:?}");

        // A message echoing a huge path still arrives (whole, it overflowed the header it travels
        // in: the call failed as an HTTP/2 protocol error that said nothing).
        let path = "a".repeat(20_000);
        let req = ReadRequest { ctx: Some(ctx.clone()), paths: vec![path], ..Default::default() };
        let status = backend.context().read(req).await.unwrap_err();
        assert!(status.message().starts_with("cannot access aaa"), "{status:?}");
        assert!(status.message().contains("bytes of this message left out"), "{status:?}");
        assert!(status.message().ends_with("File name too long (os error 36)"), "{status:?}");
    });
    let stopped = home.lctx(&["daemon", "stop"]);
    assert!(stopped.status.success(), "{}", describe(&stopped));
}
