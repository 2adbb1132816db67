//! `lctx service install|uninstall` on Linux: the systemd user unit, and the
//! systemctl calls `--now` and uninstall make, recorded by a fake systemctl
//! on PATH so no real service manager is touched.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use lean_ctx_tests::{Home, bin, describe};

struct Fixture {
    home: Home,
    xdg: PathBuf,
    fake_bin: PathBuf,
    calls: PathBuf,
}

impl Fixture {
    /// A home whose PATH starts with a `systemctl` that records its
    /// arguments and exits with `exit_code`.
    fn new(exit_code: i32) -> Fixture {
        let home = Home::new();
        let xdg = home.path().join("xdg");
        let fake_bin = home.path().join("fake-bin");
        let calls = home.path().join("systemctl.calls");
        std::fs::create_dir_all(&fake_bin).unwrap();
        let script = fake_bin.join("systemctl");
        std::fs::write(&script, format!("#!/bin/sh\necho \"$*\" >> '{}'\nexit {exit_code}\n", calls.display()))
            .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        Fixture { home, xdg, fake_bin, calls }
    }

    fn lctx(&self, args: &[&str]) -> std::process::Output {
        let path = format!("{}:{}", self.fake_bin.display(), std::env::var("PATH").unwrap_or_default());
        self.home.command(bin("lctx")).env("XDG_CONFIG_HOME", &self.xdg).env("PATH", path).args(args).output().unwrap()
    }

    fn unit(&self) -> PathBuf {
        self.xdg.join("systemd/user/lean-ctxd.service")
    }

    fn calls(&self) -> Vec<String> {
        std::fs::read_to_string(&self.calls).unwrap_or_default().lines().map(String::from).collect()
    }
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn install_writes_the_unit_and_now_enables_and_starts_it() {
    let f = Fixture::new(0);
    let dry = f.lctx(&["service", "install", "--dry-run", "--now"]);
    assert!(dry.status.success(), "{}", describe(&dry));
    assert!(stdout(&dry).contains("--foreground --idle-timeout 0"), "{}", describe(&dry));
    assert!(
        stdout(&dry)
            .contains("then run: systemctl --user daemon-reload && systemctl --user enable --now lean-ctxd.service")
    );
    assert!(!f.unit().exists(), "a dry run writes nothing");
    assert!(f.calls().is_empty(), "and runs nothing");

    let plain = f.lctx(&["service", "install"]);
    assert!(plain.status.success(), "{}", describe(&plain));
    assert!(stdout(&plain).contains("lctx service install --now"), "{}", describe(&plain));
    assert!(f.calls().is_empty(), "without --now nothing is enabled");
    let text = std::fs::read_to_string(f.unit()).unwrap();
    let daemon = std::fs::canonicalize(bin("lean-ctxd")).unwrap();
    assert!(text.contains(&format!("ExecStart=\"{}\" --foreground --idle-timeout 0", daemon.display())), "{text}");
    assert!(text.contains(&format!("LEAN_CTX_HOME={}", f.home.path().display())), "{text}");
    for setting in [
        "Documentation=man:lctx(1)",
        "StartLimitIntervalSec=300",
        "StartLimitBurst=5",
        "Restart=on-failure",
        "RestartSec=5",
        "NoNewPrivileges=yes",
    ] {
        assert!(text.lines().any(|l| l.starts_with(setting)), "{setting} missing: {text}");
    }

    let now = f.lctx(&["service", "install", "--now"]);
    assert!(now.status.success(), "{}", describe(&now));
    assert_eq!(f.calls(), ["--user daemon-reload", "--user enable --now lean-ctxd.service"]);
}

#[test]
fn uninstall_stops_and_disables_before_removing() {
    let f = Fixture::new(0);
    assert!(f.lctx(&["service", "install"]).status.success());
    let dry = f.lctx(&["service", "uninstall", "--dry-run"]);
    assert!(stdout(&dry).contains("would run: systemctl --user disable --now lean-ctxd.service"), "{}", describe(&dry));
    assert!(f.unit().exists() && f.calls().is_empty(), "a dry run changes nothing");

    let out = f.lctx(&["service", "uninstall"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(!f.unit().exists());
    assert_eq!(f.calls(), ["--user disable --now lean-ctxd.service", "--user daemon-reload"]);
    let again = f.lctx(&["service", "uninstall"]);
    assert!(again.status.success() && stdout(&again).contains("no service installed"), "{}", describe(&again));
}

/// Uninstall removes the directories install created for the unit, while they are empty, and
/// none that were there before.
#[test]
fn uninstall_removes_the_directories_install_created_and_only_those() {
    let f = Fixture::new(0);
    assert!(f.lctx(&["service", "install"]).status.success());
    let out = f.lctx(&["service", "uninstall"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(!f.xdg.exists(), "{}", describe(&out));
    assert!(
        stdout(&out).contains(&format!("removed {}, which install created", f.xdg.display())),
        "{}",
        describe(&out)
    );

    // The user put a file of their own beside the one install created: that directory and those around it stay.
    assert!(f.lctx(&["service", "install"]).status.success());
    std::fs::write(f.xdg.join("systemd/mine.conf"), "").unwrap();
    assert!(f.lctx(&["service", "uninstall"]).status.success());
    assert!(!f.xdg.join("systemd/user").exists() && f.xdg.join("systemd/mine.conf").exists());

    // Directories that were there before install stay, empty or not.
    std::fs::create_dir_all(f.unit().parent().unwrap()).unwrap();
    assert!(f.lctx(&["service", "install"]).status.success());
    assert!(f.lctx(&["service", "uninstall"]).status.success());
    assert!(f.unit().parent().unwrap().is_dir() && !f.unit().exists());
}

#[test]
fn a_failing_service_manager_is_reported() {
    let f = Fixture::new(1);
    let now = f.lctx(&["service", "install", "--now"]);
    assert_eq!(now.status.code(), Some(1), "{}", describe(&now));
    assert!(
        String::from_utf8_lossy(&now.stderr).contains("`systemctl --user daemon-reload` failed"),
        "{}",
        describe(&now)
    );
    assert!(f.unit().exists(), "the unit is written before it is enabled");
    // Without a running manager there is nothing to stop: said, and the file still goes.
    let out = f.lctx(&["service", "uninstall"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("lctx daemon stop"), "{}", describe(&out));
    assert!(!f.unit().exists());
}

/// Install creates the data directory only to hold its record of the directories it created:
/// that directory is one of them, and uninstall removes it with the others while it is empty.
#[test]
fn uninstall_removes_the_data_directory_install_created_for_its_record() {
    let f = Fixture::new(0);
    let data = f.home.path().join("data");
    assert!(!data.exists());
    assert!(f.lctx(&["service", "install"]).status.success());
    assert!(data.is_dir(), "install records what it created in the data directory");
    let out = f.lctx(&["service", "uninstall"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(!data.exists(), "{}", describe(&out));
    assert!(stdout(&out).contains(&format!("removed {}, which install created", data.display())), "{}", describe(&out));

    // A data directory that holds more than the record (state.db, once the daemon ran) stays.
    assert!(f.lctx(&["service", "install"]).status.success());
    std::fs::write(data.join("state.db"), "").unwrap();
    assert!(f.lctx(&["service", "uninstall"]).status.success());
    assert!(data.join("state.db").exists() && !data.join("service-created-dirs").exists() && !f.xdg.exists());
}

/// A dry run lists the directories uninstall would remove, and only those: one holding something
/// else stays, and so is not listed.
#[test]
fn uninstall_dry_run_lists_the_directories_it_would_remove() {
    let f = Fixture::new(0);
    assert!(f.lctx(&["service", "install"]).status.success());
    std::fs::write(f.xdg.join("mine.conf"), "").unwrap();
    let dry = f.lctx(&["service", "uninstall", "--dry-run"]);
    assert!(dry.status.success(), "{}", describe(&dry));
    let would: Vec<String> =
        stdout(&dry).lines().filter(|l| l.starts_with("would remove ")).map(String::from).collect();
    let data = f.home.path().join("data");
    let dir = |d: &std::path::Path| format!("would remove {}, which install created", d.display());
    assert_eq!(
        would,
        [
            format!("would remove {}", f.unit().display()),
            dir(&f.xdg.join("systemd/user")),
            dir(&f.xdg.join("systemd")),
            dir(&data),
        ],
        "{}",
        describe(&dry)
    );
    assert!(f.unit().exists() && data.join("service-created-dirs").exists(), "a dry run changes nothing");

    // What it listed is what uninstall removes.
    let out = f.lctx(&["service", "uninstall"]);
    let removed: Vec<String> =
        stdout(&out).lines().filter(|l| l.ends_with(", which install created")).map(String::from).collect();
    let listed: Vec<String> = would[1..].iter().map(|l| l.replacen("would remove", "removed", 1)).collect();
    assert_eq!(removed, listed, "{}", describe(&out));
    assert!(f.xdg.join("mine.conf").exists() && !f.xdg.join("systemd").exists() && !data.exists());
}

/// A unit file the user deleted leaves nothing to stop or remove, but the directories install
/// created for it and its record still go.
#[test]
fn uninstall_after_the_unit_file_was_deleted_still_removes_what_install_created() {
    let f = Fixture::new(0);
    assert!(f.lctx(&["service", "install"]).status.success());
    std::fs::remove_file(f.unit()).unwrap();
    let data = f.home.path().join("data");

    let dry = f.lctx(&["service", "uninstall", "--dry-run"]);
    assert!(stdout(&dry).contains("no service installed"), "{}", describe(&dry));
    assert!(
        stdout(&dry).contains(&format!("would remove {}, which install created", f.xdg.display())),
        "{}",
        describe(&dry)
    );
    assert!(f.xdg.join("systemd/user").is_dir() && data.exists(), "a dry run changes nothing");

    let out = f.lctx(&["service", "uninstall"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(stdout(&out).contains("no service installed"), "{}", describe(&out));
    assert!(!f.xdg.exists() && !data.exists(), "{}", describe(&out));
    assert!(f.calls().is_empty(), "nothing to stop: {:?}", f.calls());
}
