//! The lctx command line: config, doctor, exit codes (service: service.rs).

use lean_ctx_tests::{Home, alone, bin, describe, path_without_lean_ctxd};

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn usage_errors_exit_2() {
    let home = Home::new();
    assert_eq!(home.lctx(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(home.lctx(&["daemon", "status", "--bogus"]).status.code(), Some(2));
    assert_eq!(home.command(bin("lean-ctxd")).arg("--bogus").output().unwrap().status.code(), Some(2));
}

/// Asking whether a daemon runs starts none; once one runs, status is its own.
#[test]
fn daemon_status_starts_no_daemon() {
    let home = Home::new();
    let out = home.lctx(&["daemon", "status"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(
        stdout(&out),
        "no lean-ctxd is running; `lctx daemon start` starts one (a request starts one too; `lctx doctor` says why \
         one cannot start)\n"
    );
    let json = home.lctx_json(&["daemon", "status", "--json"]);
    assert_eq!(
        (&json["pid"], &json["served_by"], &json["components"]),
        (&0.into(), &"".into(), &serde_json::json!({}))
    );
    assert!(home.daemon_pids().is_empty(), "a daemon was started: {:?}", home.daemon_pids());

    let daemon = home.spawn_daemon(&[]);
    let json = home.lctx_json(&["daemon", "status", "--json"]);
    assert_eq!((json["pid"].as_u64(), &json["served_by"]), (Some(u64::from(daemon.id())), &"DAEMON".into()));
}

#[test]
fn config_set_get_path_round_trip() {
    let home = Home::new();
    let path = home.lctx(&["config", "path"]);
    assert_eq!(stdout(&path).trim(), home.dirs().config_file().display().to_string());

    std::fs::create_dir_all(home.dirs().config).unwrap();
    std::fs::write(home.dirs().config_file(), "# my settings\ndrain_timeout_secs = 4\n").unwrap();
    let set = home.lctx(&["config", "set", "idle_timeout_secs", "90"]);
    assert!(set.status.success(), "{}", describe(&set));
    assert_eq!(stdout(&home.lctx(&["config", "get", "idle_timeout_secs"])).trim(), "90");
    assert_eq!(stdout(&home.lctx(&["config", "get", "drain_timeout_secs"])).trim(), "4");
    let text = std::fs::read_to_string(home.dirs().config_file()).unwrap();
    assert!(text.starts_with("# my settings\n"), "comments kept: {text}");
    assert!(home.dirs().config.join("config.toml.bak").exists(), "backup written");

    // A bad key or value is a usage error (2); the file is not touched.
    let before = std::fs::read(home.dirs().config_file()).unwrap();
    let bad = home.lctx(&["config", "set", "idle_timeout_secs", "soon"]);
    assert_eq!(bad.status.code(), Some(2), "{}", describe(&bad));
    assert_eq!(std::fs::read(home.dirs().config_file()).unwrap(), before);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("takes a whole number"), "{}", describe(&bad));
    let unknown = home.lctx(&["config", "get", "colour"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("valid keys"), "{}", describe(&unknown));
}

#[test]
fn config_set_keeps_the_files_crlf_breaks_and_byte_order_mark() {
    let home = Home::new();
    std::fs::create_dir_all(home.dirs().config).unwrap();
    let file = home.dirs().config_file();
    std::fs::write(&file, "\u{feff}# my settings\r\ndrain_timeout_secs = 4\r\n").unwrap();
    let set = home.lctx(&["config", "set", "idle_timeout_secs", "90"]);
    assert!(set.status.success(), "{}", describe(&set));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "\u{feff}# my settings\r\ndrain_timeout_secs = 4\r\nidle_timeout_secs = 90\r\n"
    );
    assert_eq!(stdout(&home.lctx(&["config", "get", "idle_timeout_secs"])).trim(), "90");
}

#[test]
fn a_broken_config_is_reported_with_file_and_line_and_the_daemon_keeps_the_last_good_one() {
    let home = Home::new();
    std::fs::create_dir_all(home.dirs().config).unwrap();
    std::fs::write(home.dirs().config_file(), "idle_timeout_secs = 700\n").unwrap();
    let _daemon = home.spawn_daemon(&[]);
    assert_eq!(home.lctx_json(&["daemon", "status", "--json"])["idle_timeout_secs"], 700);

    std::fs::write(home.dirs().config_file(), "idle_timeout_secs = 700\nthis is not toml\n").unwrap();
    let st = home.lctx_json(&["daemon", "status", "--json"]);
    assert_eq!(st["idle_timeout_secs"], 700, "last good config kept");
    let state = st["components"]["config"]["state"].as_str().unwrap();
    assert!(state.contains(&format!("{}:2", home.dirs().config_file().display())), "{state}");

    let doctor = home.lctx(&["doctor"]);
    assert_eq!(doctor.status.code(), Some(1), "{}", describe(&doctor));
    let text = stdout(&doctor);
    assert!(text.contains("FAIL config") && text.contains("config.toml:2:"), "{text}");
    assert!(text.contains("OK   daemon"), "{text}");
    assert!(text.contains("OK   ledger") && text.contains("chain and daily totals intact"), "{text}");
    assert!(text.contains("OK   guardrails   redaction on"), "the file's valid settings are the daemon's: {text}");

    // QA: a deny rule written into a file that does not parse was shown as in force; the daemon
    // serves its last good configuration, without it.
    std::fs::write(home.dirs().config_file(), "deny_paths = [\"secret/**\"]\nredaction = \"no\"\n").unwrap();
    let text = stdout(&home.lctx(&["doctor"]));
    assert!(
        text.contains(
            "FAIL guardrails   the daemon enforces redaction on (secrets shown as [REDACTED:kind]); rules_host"
        ) && text.contains("0 deny_paths")
            && text.contains("; config.toml says redaction on")
            && text.contains("1 deny_paths")
            && text.contains("`lctx daemon restart` to serve the file's valid settings now"),
        "{text}"
    );

    let get = home.lctx(&["config", "get"]);
    assert_eq!(get.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&get.stderr).contains("config.toml:2:"));
}

#[test]
fn a_misspelt_key_or_tool_name_is_answered_with_what_was_meant() {
    let home = Home::new();
    std::fs::create_dir_all(home.dirs().config).unwrap();
    let file = home.dirs().config_file();
    std::fs::write(&file, "# mine\nidle_timout_secs = 600\n").unwrap();
    let text = stdout(&doctor(&home, &[]));
    let fail = format!(
        "FAIL config       {}:2:1: unknown config key `idle_timout_secs`; did you mean `idle_timeout_secs`?\n",
        file.display()
    );
    assert!(text.contains(&fail), "{text}");
    let fix = format!("fix: edit line 2 of {} as the message says, or move the file away", file.display());
    assert!(text.contains(&fix), "{text}");

    std::fs::write(&file, "").unwrap();
    let bogus = home.lctx(&["config", "set", "mcp_disabled_tools", "ctx_gain,ctx_bogus"]);
    assert_eq!(bogus.status.code(), Some(2), "a usage error: {}", describe(&bogus));
    let said = String::from_utf8_lossy(&bogus.stderr);
    assert!(said.contains("mcp_disabled_tools takes names out of ctx_read, ctx_shell, "), "{said}");
    assert!(said.contains("got `ctx_bogus`"), "{said}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "", "nothing written");
}

/// lctx doctor with this test's own user home, so what the machine's user
/// has installed (hosts, hook, service) plays no part.
fn doctor(home: &Home, args: &[&str]) -> std::process::Output {
    let user = home.path().join("user");
    std::fs::create_dir_all(&user).unwrap();
    home.command(bin("lctx"))
        .env("HOME", &user)
        .env_remove("XDG_CONFIG_HOME")
        .arg("doctor")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn doctor_reports_every_check_and_json() {
    let home = Home::new();
    let out = doctor(&home, &[]);
    assert!(out.status.success(), "{}", describe(&out));
    let text = stdout(&out);
    let checks = [
        "runtime dir",
        "socket",
        "permissions",
        "daemon",
        "data dir",
        "config",
        "guardrails",
        "search index",
        "ledger",
        "accounting",
        "lctx-mcp",
        "lctx-shell",
        "mcp hosts",
        "shell hook",
        "claude hook",
        "service",
        "agent shell",
    ];
    for check in checks {
        assert!(text.contains(&format!("OK   {check}")), "{check}: {text}");
    }
    // It says when it started the daemon itself, rather than "reachable".
    assert!(text.contains("socket") && text.contains("absent"), "{text}");
    assert!(text.contains("OK   daemon       started by doctor (none was running): pid "), "{text}");
    let same = format!("same build as lctx ({})\n", bin("lean-ctxd").display());
    assert!(text.contains(&same), "{text}");
    assert!(text.contains("lctx-mcp") && text.contains("installed"), "{text}");
    assert!(text.contains("registered in no host") && text.contains("not installed"), "{text}");
    let out = doctor(&home, &["--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["ok"], true);
    assert_eq!(json["checks"].as_array().unwrap().len(), checks.len());
    let daemon = json["checks"].as_array().unwrap().iter().find(|c| c["check"] == "daemon").unwrap().clone();
    assert!(daemon["detail"].as_str().unwrap().starts_with("running: pid "), "{daemon}");
    assert!(text.contains("redaction on"), "{text}");
    assert!(home.lctx(&["config", "set", "redaction", "false"]).status.success());
    assert!(stdout(&doctor(&home, &[])).contains("redaction OFF"));
}

#[test]
fn doctor_says_it_started_the_daemon_when_only_a_dead_ones_socket_was_there() {
    let home = Home::new();
    let runtime = home.dirs().runtime;
    std::fs::create_dir_all(&runtime).unwrap();
    std::fs::set_permissions(&runtime, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    // Bound and closed: the file stays, nothing listens.
    drop(std::os::unix::net::UnixListener::bind(home.dirs().socket()).unwrap());
    // As a daemon leaves it: private.
    std::fs::set_permissions(home.dirs().socket(), std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let socket = home.dirs().socket().display().to_string();
    // Without a daemon to start, the stale socket fails, saying what to do.
    let out = home.command(bin("lctx")).env("HOME", home.path()).env("LEAN_CTX_NO_DAEMON", "1").arg("doctor").output();
    let text = stdout(&out.unwrap());
    assert!(
        text.contains(&format!(
            "FAIL socket       {socket} is stale: no daemon answers on it (a daemon that died leaves it behind)\n     \
             {:<12} fix: nothing uses it while LEAN_CTX_NO_DAEMON=1: remove it (`rm {socket}`)",
            ""
        )),
        "{text}"
    );
    let text = stdout(&doctor(&home, &[]));
    assert!(
        text.contains(&format!(
            "OK   socket       {socket} was stale (no daemon answered on it); the daemon running now replaced it\n"
        )),
        "{text}"
    );
    assert!(text.contains("OK   daemon       started by doctor (none was running): pid "), "{text}");
    let text = stdout(&doctor(&home, &[]));
    assert!(text.contains("OK   daemon       running: pid "), "the next run finds it: {text}");
    assert!(text.contains(&format!("OK   socket       {socket} mode 600, yours\n")), "{text}");
}

#[test]
fn doctor_names_the_build_a_daemon_of_another_binary_runs() {
    let home = Home::new();
    // A newer build (other bytes, written later), since deleted: lctx keeps using it.
    let newer = home.path().join("newer");
    std::fs::create_dir_all(&newer).unwrap();
    let mut bytes = std::fs::read(bin("lean-ctxd")).unwrap();
    bytes.push(0);
    std::fs::write(newer.join("lean-ctxd"), bytes).unwrap();
    std::fs::set_permissions(newer.join("lean-ctxd"), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let daemon = home.spawn_daemon_of(&newer.join("lean-ctxd"), &[]);
    std::fs::remove_dir_all(&newer).unwrap();
    let text = stdout(&doctor(&home, &[]));
    let line = format!(
        "OK   daemon       running: pid {}, version {}, a newer build ({} (deleted)) than the {} {} lctx would start; \
         lctx uses it\n",
        home.daemon_pids()[0],
        env!("CARGO_PKG_VERSION"),
        newer.join("lean-ctxd").display(),
        bin("lean-ctxd").display(),
        env!("CARGO_PKG_VERSION"),
    );
    assert!(text.contains(&line), "{text}");

    // A copy of the same binary is another file, written later, but no other build: doctor
    // called it "a newer build".
    drop(daemon);
    let copy = home.path().join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::copy(bin("lean-ctxd"), copy.join("lean-ctxd")).unwrap();
    let _daemon = home.spawn_daemon_of(&copy.join("lean-ctxd"), &[]);
    let text = stdout(&doctor(&home, &[]));
    let line = format!(
        "OK   daemon       running: pid {}, version {}, same build as lctx, run from a copy ({}) of the {} lctx would \
         start; lctx uses it\n",
        home.daemon_pids()[0],
        env!("CARGO_PKG_VERSION"),
        copy.join("lean-ctxd").display(),
        bin("lean-ctxd").display(),
    );
    assert!(text.contains(&line), "{text}");
}

#[test]
fn doctor_fails_on_a_broken_host_registration_or_service() {
    let home = Home::new();
    let user = home.path().join("user");
    std::fs::create_dir_all(user.join(".config/systemd/user")).unwrap();
    std::fs::write(
        user.join(".claude.json"),
        r#"{"mcpServers": {"lean-ctx": {"command": "/nonexistent/lctx-mcp", "args": []}}}"#,
    )
    .unwrap();
    std::fs::write(
        user.join(".config/systemd/user/lean-ctxd.service"),
        "[Service]\nExecStart=\"/nonexistent/lean-ctxd\" --foreground --idle-timeout 0\n",
    )
    .unwrap();
    let out = doctor(&home, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let text = stdout(&out);
    assert!(text.contains("FAIL mcp hosts") && text.contains("/nonexistent/lctx-mcp"), "{text}");
    assert!(text.contains("lctx setup claude-code"), "the fix names the command: {text}");
    assert!(text.contains("FAIL service") && text.contains("lctx service install"), "{text}");
    // A hook in an rc file is seen.
    std::fs::write(user.join(".bashrc"), "eval \"$(lctx-shell init bash)\"\n").unwrap();
    assert!(stdout(&doctor(&home, &[])).contains("evaluated in ~/.bashrc"));
}

#[test]
fn the_fix_doctor_names_for_a_broken_registration_works_where_only_the_hosts_config_is() {
    let home = Home::new();
    let user = home.path().join("user");
    std::fs::create_dir_all(user.join(".cursor")).unwrap();
    let config = user.join(".cursor/mcp.json");
    let stale = r#"{"mcpServers": {"github": {"command": "gh-mcp"}, "lean-ctx": {"command": "/gone/lctx-mcp"}}}"#;
    std::fs::write(&config, stale).unwrap();
    let text = stdout(&doctor(&home, &[]));
    assert!(text.contains("FAIL mcp hosts    cursor: lean-ctx → /gone/lctx-mcp is broken"), "{text}");
    assert!(text.contains("fix: run `lctx setup cursor`"), "{text}");

    let setup = home.command(bin("lctx")).env("HOME", &user).args(["setup", "cursor"]).output().unwrap();
    assert!(setup.status.success(), "the fix works: {}", describe(&setup));
    let written: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    assert_eq!(written["mcpServers"]["github"]["command"], "gh-mcp");
    assert_eq!(written["mcpServers"]["lean-ctx"]["command"], bin("lctx-mcp").display().to_string());
    let text = stdout(&doctor(&home, &[]));
    assert!(text.contains("OK   mcp hosts    lean-ctx registered in cursor"), "{text}");
}

#[test]
fn doctor_reports_the_runtime_dirs_real_mode_and_fails_one_it_cannot_write() {
    use std::os::unix::fs::PermissionsExt;
    let home = Home::new();
    let runtime = home.dirs().runtime;
    std::fs::create_dir_all(&runtime).unwrap();
    std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o500)).unwrap();
    let out = doctor(&home, &[]);
    std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(
        text.contains(&format!(
            "FAIL runtime dir  {} has mode 0500: the daemon cannot create its socket and lock files in it\n",
            runtime.display()
        )) && text.contains(&format!("fix: chmod 700 {}\n", runtime.display())),
        "{text}"
    );
    assert!(!text.contains("(0700, yours)"), "{text}");
}

/// lctx installed without lean-ctxd: doctor says to install it and that nothing is served until
/// then (no fallback child can run without it); a request says so once, naming lctx.
#[test]
fn without_lean_ctxd_doctor_and_requests_say_to_install_it() {
    let home = Home::new();
    let lctx = alone(&home, "lctx");
    let user = home.path().join("user");
    std::fs::create_dir_all(&user).unwrap();
    let run = |args: &[&str]| {
        let mut cmd = home.command(&lctx);
        cmd.env("PATH", path_without_lean_ctxd(&lctx)).env("HOME", &user).env_remove("XDG_CONFIG_HOME").args(args);
        cmd.output().unwrap()
    };
    let not_found = format!(
        "no lean-ctxd found: it is not beside lctx in {}, not on PATH, and LEAN_CTX_DAEMON_BIN is not set",
        lctx.parent().unwrap().display()
    );
    let install = "install lean-ctxd (`cargo install --path daemon`, or the package that ships lctx) or set \
                   LEAN_CTX_DAEMON_BIN to its path";
    let out = run(&["doctor"]);
    let text = stdout(&out);
    assert!(
        text.contains(&format!("FAIL daemon       {not_found}\n"))
            && text.contains(&format!("fix: {install}; until then every request fails\n")),
        "{text}"
    );
    assert!(!text.contains("fallback") && !text.contains("daemon logs"), "{text}");

    let out = run(&["read", "Cargo.toml"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert_eq!(String::from_utf8_lossy(&out.stderr), format!("lctx: {not_found}; {install}\n"));

    // QA: a LEAN_CTX_DAEMON_BIN naming no file was told to read the logs, with children serving
    // meanwhile, though every request fails.
    let nowhere = home.path().join("nowhere/lean-ctxd");
    let mut cmd = home.command(&lctx);
    cmd.env("PATH", path_without_lean_ctxd(&lctx)).env("HOME", &user).env_remove("XDG_CONFIG_HOME");
    let text = stdout(&cmd.env("LEAN_CTX_DAEMON_BIN", &nowhere).arg("doctor").output().unwrap());
    let fix =
        format!("fix: {} is no file: install lean-ctxd there, or point LEAN_CTX_DAEMON_BIN at it", nowhere.display());
    assert!(text.contains(&fix) && text.contains("until then every request fails"), "{text}");
    assert!(!text.contains("daemon logs"), "{text}");
}

/// Each fix doctor gives for a runtime directory others can reach is the command that mends it,
/// on the runtime dir's line and on the daemon's, which it keeps from starting.
#[test]
fn doctor_fixes_a_runtime_dir_others_can_reach_with_the_command_that_mends_it() {
    use std::os::unix::fs::PermissionsExt;
    let home = Home::new();
    let runtime = home.dirs().runtime;
    std::fs::create_dir_all(&runtime).unwrap();
    std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = doctor(&home, &[]);
    let text = stdout(&out);
    let problem =
        format!("the runtime directory {} has mode 755, so other users can reach the socket", runtime.display());
    let chmod = format!("run `chmod 700 {}`", runtime.display());
    assert!(text.contains(&format!("FAIL runtime dir  {problem}\n                  fix: {chmod}\n")), "{text}");
    assert!(
        text.contains(&format!(
            "FAIL daemon       {problem}\n                  fix: {chmod} (the runtime dir); meanwhile each client \
             runs a `lean-ctxd --stdio` child of its own, if that can run\n"
        )),
        "{text}"
    );
    assert!(!text.contains("see the message above") && !text.contains("daemon logs"), "{text}");
}

#[test]
fn doctor_fails_on_an_unusable_data_dir_with_the_fix() {
    let home = Home::new();
    // A file where the directory should be defeats even root.
    std::fs::write(home.dirs().data, "not a directory").unwrap();
    let out = home.lctx(&["doctor"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let text = stdout(&out);
    assert!(text.contains("FAIL data dir") && text.contains("fix: "), "{text}");
    let json = home.lctx_json_status(&["doctor", "--json"], 1);
    assert_eq!(json["ok"], false);
}

/// Runs `program args` with its stdout on a pipe whose reader is already
/// gone, as `… | head -1` leaves it once head has its line.
fn into_closed_pipe(home: &Home, program: &str, args: &[&str]) -> std::process::Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    home.command(bin(program)).args(args).stdout(writer).stderr(std::process::Stdio::piped()).output().unwrap()
}

#[test]
fn no_command_crashes_on_a_closed_pipe() {
    use std::os::unix::process::ExitStatusExt;
    let home = Home::new();
    for (program, args) in [
        ("lctx", &["setup", "--list"][..]),
        ("lctx", &["--help"][..]),
        ("lctx", &["daemon", "status"][..]),
        ("lctx", &["config", "get"][..]),
        ("lctx-shell", &["status"][..]),
        ("lctx-shell", &["init", "bash"][..]),
        ("lctx-mcp", &["--help"][..]),
    ] {
        let out = into_closed_pipe(&home, program, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked") && !stderr.contains("Broken pipe"), "{program} {args:?}: {stderr}");
        let quiet = out.status.success() || out.status.signal() == Some(libc::SIGPIPE);
        assert!(quiet, "{program} {args:?} ended with {:?}: {stderr}", out.status);
    }
}

#[test]
fn lctx_mcp_answers_help_and_version_instead_of_serving() {
    let home = Home::new();
    let help = home.command(bin("lctx-mcp")).arg("--help").output().unwrap();
    assert!(help.status.success());
    assert!(stdout(&help).contains("lctx setup HOST"), "{}", describe(&help));
    let version = home.command(bin("lctx-mcp")).arg("--version").output().unwrap();
    assert_eq!(stdout(&version).trim(), format!("lctx-mcp {}", env!("CARGO_PKG_VERSION")));
    let bad = home.command(bin("lctx-mcp")).arg("--serve").output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn session_and_host_are_offered_only_where_they_change_the_answer() {
    let home = Home::new();
    let help = |args: &[&str]| stdout(&home.lctx(args));
    assert!(help(&["read", "--help"]).contains("--session") && help(&["read", "--help"]).contains("--host"));
    assert!(help(&["knowledge", "remember", "--help"]).contains("--session"));
    for command in [&["config", "get", "--help"][..], &["daemon", "status", "--help"], &["doctor", "--help"]] {
        let text = help(command);
        assert!(!text.contains("--session") && !text.contains("--host"), "{command:?}: {text}");
    }
    assert!(!help(&["search", "--help"]).contains("--host"), "search delivers no instruction files");
    // Given where it means nothing, it is a usage error, not silently ignored.
    let out = home.lctx(&["--session", "s1", "config", "path"]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not depend on them"), "{}", describe(&out));
    // Before or after the command's name, where it belongs.
    // Larger than a stub, which a smaller file would be sent again instead of.
    let text: String = (1..=40).map(|i| format!("alpha line {i} of the notes\n")).collect();
    std::fs::write(home.path().join("a.txt"), &text).unwrap();
    let in_home = |args: &[&str]| home.command(bin("lctx")).current_dir(home.path()).args(args).output().unwrap();
    let first = in_home(&["--session", "s1", "read", "a.txt", "-m", "full"]);
    assert_eq!(stdout(&first), text, "{}", describe(&first));
    // The same session named after the command: it already has the file.
    let again = in_home(&["read", "a.txt", "-m", "full", "--session", "s1"]);
    assert!(stdout(&again).contains("unchanged"), "one session either way: {}", describe(&again));
    let other = in_home(&["read", "a.txt", "-m", "full", "--session", "s2"]);
    assert_eq!(stdout(&other), text, "{}", describe(&other));
}
