//! The runtime directory and the socket are the daemon's only door: both
//! must be private, and a peer of another user is turned away.

use std::os::unix::fs::PermissionsExt;
use std::process::Command;
use std::time::Duration;

use lean_ctx_tests::{Home, bin, describe, is_root, process_alive, wait_until};

/// Starts lean-ctxd in the foreground and returns its stderr, asserting it refused.
fn refused(home: &Home) -> String {
    let out = home.command(bin("lean-ctxd")).arg("--foreground").output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(!home.socket().exists(), "no socket was created");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn runtime_dir_with_open_permissions_is_refused_with_the_fix() {
    let home = Home::new();
    let run = home.dirs().runtime;
    std::fs::create_dir_all(&run).unwrap();
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o755)).unwrap();
    let err = refused(&home);
    assert!(err.contains("mode 755") && err.contains(&format!("chmod 700 {}", run.display())), "{err}");
}

#[test]
fn runtime_dir_that_is_a_symlink_is_refused_with_the_fix() {
    let home = Home::new();
    let real = home.path().join("elsewhere");
    std::fs::create_dir_all(&real).unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::os::unix::fs::symlink(&real, home.dirs().runtime).unwrap();
    let err = refused(&home);
    assert!(err.contains("is a symlink") && err.contains("rm "), "{err}");
}

#[test]
fn runtime_dir_owned_by_another_user_is_refused_with_the_fix() {
    if !is_root() {
        eprintln!("skipped: changing a directory's owner needs root");
        return;
    }
    let home = Home::new();
    let run = home.dirs().runtime;
    std::fs::create_dir_all(&run).unwrap();
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::os::unix::fs::chown(&run, Some(65534), Some(65534)).unwrap();
    let err = refused(&home);
    assert!(err.contains("owned by uid 65534") && err.contains("LEAN_CTX_HOME"), "{err}");
}

/// Sends the HTTP/2 preface and reports how many bytes came back before EOF:
/// a served peer receives the server's SETTINGS frame, a refused one nothing.
const PROBE: &str = r#"
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(5)
s.connect(sys.argv[1])
try:
    s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0,0,0,4,0,0,0,0,0]))
    data = s.recv(64)
except (BrokenPipeError, ConnectionResetError, socket.timeout):
    data = b""
print(len(data))
"#;

#[test]
fn a_peer_of_another_uid_is_dropped_and_logged() {
    let python = std::path::Path::new("/usr/bin/python3");
    let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].into_iter().find(|p| std::path::Path::new(p).exists());
    let (true, Some(setpriv), true) = (is_root(), setpriv, python.exists()) else {
        eprintln!("skipped: needs root, setpriv and /usr/bin/python3 to connect as uid 65534");
        return;
    };
    let home = Home::new();
    let daemon = home.spawn_daemon(&[]);
    // The socket accepts before the daemon's own chmod of it after binding: a request served
    // means binding is over, so the door opened below stays open (it once raced, under load).
    let status = home.lctx(&["daemon", "status"]);
    assert!(status.status.success(), "{}", describe(&status));
    // Open the door on purpose (as a misconfiguration would), so that only
    // the peer-credential check stands between uid 65534 and the daemon.
    for dir in [home.path().to_path_buf(), home.dirs().runtime] {
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o711)).unwrap();
    }
    std::fs::set_permissions(home.socket(), std::fs::Permissions::from_mode(0o666)).unwrap();

    let same_user = Command::new(python).args(["-c", PROBE]).arg(home.socket()).output().unwrap();
    assert!(same_user.status.success(), "{}", describe(&same_user));
    let served: usize = String::from_utf8_lossy(&same_user.stdout).trim().parse().unwrap();
    assert!(served > 0, "the owner's connection is served");

    let other = Command::new(setpriv)
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(python)
        .args(["-c", PROBE])
        .arg(home.socket())
        .output()
        .unwrap();
    assert!(other.status.success(), "{}", describe(&other));
    let got: usize = String::from_utf8_lossy(&other.stdout).trim().parse().unwrap();
    assert_eq!(got, 0, "uid 65534 gets no byte from the daemon");
    assert!(
        wait_until(Duration::from_secs(60), || home.daemon_log().contains("refused a connection from another user")),
        "the refusal is logged"
    );
    assert!(home.daemon_log().contains("peer_uid=Some(65534)"));
    assert!(process_alive(daemon.id()), "the daemon stays up");
    let st = home.lctx_json(&["daemon", "status", "--json"]);
    assert_eq!(st["pid"].as_u64(), Some(u64::from(daemon.id())));
}

#[test]
fn the_socket_is_private() {
    let home = Home::new();
    let _daemon = home.spawn_daemon(&[]);
    let mode = std::fs::metadata(home.socket()).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let run_mode = std::fs::metadata(home.dirs().runtime).unwrap().permissions().mode() & 0o777;
    assert_eq!(run_mode, 0o700);
}
