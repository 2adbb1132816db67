//! A command that ran is answered even when its output cannot be archived
//! (a full disk, a broken archive directory): the side effects happened, so
//! the output and exit code must reach the agent.

mod common;

use common::Project;
use lean_ctxd::engine::cancel::Cancel;
use lean_ctxd::engine::shell::run::RunParams;

const NOISY_FAILURE: &str = r#"for i in $(seq 1 400); do echo "compiling unit $i of 400 … ok"; done
echo "error[E0308]: mismatched types at src/parse.rs:88:17" >&2
echo "test parser::tests::handles_unicode ... FAILED"
exit 101"#;

#[test]
fn output_that_cannot_be_archived_is_still_returned_and_says_so() {
    let p = Project::new();
    // Where the archive directory belongs there is a regular file: every
    // put fails, as on a full disk, and even root cannot write through it.
    let data = &p.engine.dirs.data;
    std::fs::create_dir_all(data).unwrap();
    std::fs::write(data.join("archive"), "not a directory").unwrap();
    let params = RunParams {
        command: NOISY_FAILURE.into(),
        env: [("PATH".to_string(), "/usr/bin:/bin".to_string())].into(),
        ..Default::default()
    };
    let (outcome, shaped) = p.engine.run_command(&p.caller("s"), &params, &Cancel::default()).unwrap();
    assert_eq!(outcome.exit_code, 101);
    assert!(shaped.text.contains("error[E0308]: mismatched types at src/parse.rs:88:17"), "{}", shaped.text);
    assert!(shaped.text.contains("handles_unicode ... FAILED"), "{}", shaped.text);
    assert!(shaped.text.contains("[full output not archived"), "{}", shaped.text);
    assert_eq!(shaped.archive_id, None);
    assert!(!shaped.text.contains("ctx_expand id="), "no handle that cannot expand: {}", shaped.text);
}
