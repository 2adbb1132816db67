//! `lctx doctor`: one line per check, OK or FAIL with the fix.

mod agent_shell;
mod install;

use std::io::Write as _;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::Path;

use lean_ctx_common::build_info;
use lean_ctx_common::config;
use lean_ctx_common::privacy;
use lean_ctx_common::runtime_dir;
use serde_json::json;

use lean_ctx_proto::v1::{IndexPhase, IndexStatusRequest, StatusRequest, VerifyRequest};

use super::CmdResult;
use crate::backend::Backend;
use crate::capability::search::phase_name;
use crate::daemon;
use crate::options::ClientOptions;

struct Check {
    name: &'static str,
    ok: bool,
    detail: String,
    fix: String,
}

fn ok(name: &'static str, detail: String) -> Check {
    Check { name, ok: true, detail, fix: String::new() }
}

fn failed(name: &'static str, detail: String, fix: impl Into<String>) -> Check {
    Check { name, ok: false, detail, fix: fix.into() }
}

pub async fn run(json: bool, opts: &ClientOptions) -> CmdResult {
    // Permissions before the daemon check: a daemon it starts would repair
    // them silently (in its log), and doctor is where the user should see it.
    // Asked before the daemon check, which may start or replace it: a socket
    // file is no sign of a daemon, one that died leaves it behind.
    let before = daemon::find(opts).await;
    let socket = check_socket(opts, matches!(before, Ok(None)));
    let mut checks = vec![check_runtime_dir(opts)];
    let permissions = repair_permissions(opts);
    let (daemon_check, daemon) = check_daemon(opts, before.ok().flatten().map(|d| d.hello.pid)).await;
    checks.push(match socket {
        Socket::Checked(check) => check,
        Socket::Stale => stale_socket(opts, daemon.is_some()),
    });
    checks.extend(permissions);
    checks.extend([daemon_check, check_data_dir(opts), check_config(opts)]);
    checks.push(check_guardrails(opts, daemon.as_ref()).await);
    checks.extend(check_indexes(opts, daemon.as_ref()).await);
    checks.extend(check_ledger(opts, daemon.as_ref()).await);
    checks.extend(install::check_clients());
    checks.extend(install::check_hosts());
    checks.extend([install::check_hook(), install::check_claude_hook(), install::check_service()]);
    checks.extend(agent_shell::check(opts));
    let all_ok = checks.iter().all(|c| c.ok);
    if json {
        let list: Vec<_> =
            checks.iter().map(|c| json!({"check": c.name, "ok": c.ok, "detail": c.detail, "fix": c.fix})).collect();
        crate::outln!("{}", json!({"ok": all_ok, "checks": list}));
    } else {
        for c in &checks {
            if c.ok {
                crate::outln!("OK   {:<12} {}", c.name, c.detail);
            } else {
                crate::outln!("FAIL {:<12} {}\n     {:<12} fix: {}", c.name, c.detail, "", c.fix);
            }
        }
    }
    if all_ok { Ok(()) } else { Err(String::new()) }
}

fn check_runtime_dir(opts: &ClientOptions) -> Check {
    let dir = &opts.dirs.runtime;
    if !dir.exists() && std::fs::symlink_metadata(dir).is_err() {
        return ok("runtime dir", format!("{} absent; created private on first start", dir.display()));
    }
    if let Err(unusable) = runtime_dir::inspect_private_dir(dir) {
        return failed("runtime dir", unusable.problem, unusable.fix);
    }
    let mode = std::fs::metadata(dir).map(|m| m.permissions().mode() & 0o777).unwrap_or_default();
    // Private is not enough: the daemon creates its socket and lock files there.
    if mode & 0o700 != 0o700 {
        return failed(
            "runtime dir",
            format!("{} has mode {mode:04o}: the daemon cannot create its socket and lock files in it", dir.display()),
            format!("chmod 700 {}", dir.display()),
        );
    }
    ok("runtime dir", format!("{} private ({mode:04o}, yours)", dir.display()))
}

/// The socket as doctor found it, before the daemon check (which replaces a stale one).
enum Socket {
    Checked(Check),
    /// A socket of ours that no daemon answered on.
    Stale,
}

/// `nobody_answers`: connecting found no daemon there.
fn check_socket(opts: &ClientOptions, nobody_answers: bool) -> Socket {
    let path = &opts.socket;
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Socket::Checked(ok("socket", format!("{} absent (no daemon running)", path.display())));
    };
    // SAFETY: geteuid has no preconditions and cannot fail.
    let uid = unsafe { libc::geteuid() };
    let mode = meta.permissions().mode() & 0o777;
    Socket::Checked(if !meta.file_type().is_socket() {
        failed(
            "socket",
            format!("{} is not a socket", path.display()),
            format!("move it away: mv {0} {0}.old", path.display()),
        )
    } else if meta.uid() != uid || mode & 0o077 != 0 {
        failed(
            "socket",
            format!("{} has mode {mode:03o} and owner uid {}", path.display(), meta.uid()),
            "stop the daemon (`lctx daemon stop`), remove the socket, and let lctx start a fresh daemon",
        )
    } else if nobody_answers {
        return Socket::Stale;
    } else {
        ok("socket", format!("{} mode {mode:03o}, yours", path.display()))
    })
}

/// A socket no daemon answered on: a daemon that died left it. A daemon
/// starting replaces it (it holds the daemon lock, so the socket is no live
/// daemon's), and so does an lctx starting one; nothing else needs it gone.
fn stale_socket(opts: &ClientOptions, daemon_now: bool) -> Check {
    let path = opts.socket.display();
    let stale = format!("{path} is stale: no daemon answers on it (a daemon that died leaves it behind)");
    if daemon_now {
        ok("socket", format!("{path} was stale (no daemon answered on it); the daemon running now replaced it"))
    } else if opts.no_daemon {
        failed(
            "socket",
            stale,
            format!(
                "nothing uses it while LEAN_CTX_NO_DAEMON=1: remove it (`rm {path}`), or unset LEAN_CTX_NO_DAEMON and \
                 the daemon lctx starts replaces it"
            ),
        )
    } else {
        failed("socket", stale, "the next daemon to start replaces it; the daemon line below says why none started")
    }
}

/// The check, and the daemon when it is reachable (for the checks that ask
/// it). `before`: the pid of the daemon that answered before doctor started anything.
async fn check_daemon(opts: &ClientOptions, before: Option<u32>) -> (Check, Option<daemon::Daemon>) {
    if opts.no_daemon {
        let detail =
            "disabled by LEAN_CTX_NO_DAEMON=1; requests are served by a `lean-ctxd --stdio` child of each client";
        return (ok("daemon", detail.into()), None);
    }
    match daemon::ensure(opts).await {
        Ok(d) => {
            let how = match before {
                Some(pid) if pid == d.hello.pid => "running".to_string(),
                Some(pid) => format!("restarted by doctor (pid {pid} ran an older build)"),
                None => "started by doctor (none was running)".to_string(),
            };
            let detail = format!("{how}: pid {}, version {}, {}", d.hello.pid, d.hello.daemon_version, build(opts, &d));
            (ok("daemon", detail), Some(d))
        }
        Err(e) => (daemon_failure(opts, e), None),
    }
}

/// Why no daemon runs and what makes one start, by cause, and what serves
/// requests until then: a fallback child is the same lean-ctxd, so without
/// one nothing does.
fn daemon_failure(opts: &ClientOptions, e: daemon::Problem) -> Check {
    let missing = opts.daemon_bin.is_none().then(|| (opts.daemon_bin_not_found(), opts.daemon_bin_fix()));
    let meanwhile = match &missing {
        Some((not_found, install)) => format!("; also {install} ({not_found}); until then every request fails"),
        None => "; meanwhile each client runs a `lean-ctxd --stdio` child of its own, if that can run".into(),
    };
    // QA: a LEAN_CTX_DAEMON_BIN naming no file, and a daemon frozen while holding the lock, were
    // both told to read the logs "to see why it does not start", and that children serve meanwhile.
    let named_nothing = opts.daemon_bin.as_ref().filter(|bin| !bin.is_file());
    match (runtime_dir::inspect_private_dir(&opts.dirs.runtime), missing) {
        (Ok(()), None) if let Some(bin) = named_nothing => failed(
            "daemon",
            e,
            format!(
                "{} is no file: install lean-ctxd there, or point LEAN_CTX_DAEMON_BIN at it (or unset it to find \
                 lean-ctxd beside lctx or on PATH); until then every request fails",
                bin.display()
            ),
        ),
        (Ok(()), None) if let Some(pid) = daemon::lock_holder(opts) => failed(
            "daemon",
            e,
            format!(
                "lean-ctxd (pid {pid}) holds the daemon lock but does not answer (stopping, or hung): `lctx daemon \
                 stop` ends it, by signal if need be, and the next request starts a new one"
            ),
        ),
        (Err(unusable), _) => {
            failed("daemon", unusable.problem, format!("{} (the runtime dir){meanwhile}", unusable.fix))
        }
        (Ok(()), Some((not_found, install))) if e == opts.missing_daemon_bin() => {
            failed("daemon", not_found, format!("{install}; until then every request fails"))
        }
        (Ok(()), _) => failed("daemon", e, format!("run `lctx daemon logs` to see why it does not start{meanwhile}")),
    }
}

/// Which build the daemon runs, from the identity it reported in the
/// handshake, against the `lean-ctxd` this lctx would start. A daemon of
/// another build is one `ensure` kept because it is newer.
fn build(opts: &ClientOptions, daemon: &daemon::Daemon) -> String {
    // What the process runs now: " (deleted)" follows a binary since removed or replaced.
    let running = std::fs::read_link(format!("/proc/{}/exe", daemon.hello.pid)).ok();
    let running = running.as_deref().map_or_else(String::new, |exe| format!(" ({})", exe.display()));
    match &opts.daemon_bin {
        None => format!("lctx finds no lean-ctxd of its own to compare builds with{running}"),
        Some(_) if daemon.same_build() => format!("same build as lctx{running}"),
        // A copy of the binary is another file, written later: by the handshake's identity a
        // newer build, which doctor called it.
        Some(ours) if same_bytes(Path::new(&format!("/proc/{}/exe", daemon.hello.pid)), ours) => format!(
            "same build as lctx, run from a copy{running} of the {} lctx would start; lctx uses it",
            ours.display()
        ),
        Some(ours) => format!(
            "a newer build{running} than the {} {} lctx would start; lctx uses it",
            ours.display(),
            build_info::VERSION
        ),
    }
}

/// Whether two files hold the same bytes (false when either cannot be read).
fn same_bytes(a: &Path, b: &Path) -> bool {
    use std::io::Read;
    let (Ok(mut a), Ok(mut b)) = (std::fs::File::open(a), std::fs::File::open(b)) else { return false };
    let size = |f: &std::fs::File| f.metadata().map(|m| m.len()).ok();
    if size(&a).is_none() || size(&a) != size(&b) {
        return false;
    }
    let (mut x, mut y) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    loop {
        match a.read(&mut x) {
            Ok(0) => return true,
            Ok(n) if b.read_exact(&mut y[..n]).is_ok() && x[..n] == y[..n] => {}
            _ => return false,
        }
    }
}

/// The token ledger's hash chain and the daily totals `gain` reports, as `lctx ledger verify`
/// checks them (through the daemon, which holds the store, else a fallback child, as `ledger
/// verify` does: a QA pass's tampered ledger passed a doctor run without a daemon unchecked);
/// events the daemon could not record, which gain leaves out; and a reset of state.db after
/// corruption, which fails until the user removes the old copy: its sessions, knowledge and
/// ledger are gone from view, and only the user can say whether anything in it is needed.
async fn check_ledger(opts: &ClientOptions, daemon: Option<&daemon::Daemon>) -> Vec<Check> {
    const NAME: &str = "ledger";
    let backend = match daemon {
        Some(daemon) => Backend::remote(daemon),
        None => match Backend::local(opts, None).await {
            Ok(backend) => backend,
            Err(why) => {
                let detail = format!("not checked: neither a daemon nor a lean-ctxd child could check it: {why}");
                return vec![failed(NAME, detail, "the daemon line above says what to fix")];
            }
        },
    };
    let request = VerifyRequest { ctx: Some(opts.context()) };
    let mut checks = Vec::new();
    let ledger = match backend.ledger().verify(request).await {
        Ok(response) => {
            let out = response.into_inner();
            // Writes the daemon could not make: gain undercounts, or a session or the archive
            // misses what the calls did, until it restarts. A fallback child just started has
            // answered nothing.
            let unrecorded = out.unrecorded.as_ref().filter(|lost| !lost.note.is_empty());
            checks.extend(daemon.is_some().then(|| match unrecorded {
                Some(lost) => failed(
                    "accounting",
                    lost.note.clone(),
                    "fix the cause the note names (often free space on the disk of the data dir); the count \
                     clears when the daemon restarts (`lctx daemon restart`)",
                ),
                None => ok("accounting", "every call the daemon answered since it started is in state.db".into()),
            }));
            if !out.reset_note.is_empty() {
                checks.push(failed(
                    "state.db",
                    out.reset_note.clone(),
                    "if anything in the copy is needed, `sqlite3 COPY .recover` reads what is left of it; then remove it",
                ));
            }
            match (out.ok, out.broken_id) {
                (true, _) => ok(NAME, format!("{} records, chain and daily totals intact", out.records)),
                (false, 0) => {
                    failed(NAME, out.reason, "keep a copy of state.db as evidence; gain reports are not to be trusted")
                }
                (false, id) => failed(
                    NAME,
                    format!("record {id} breaks the hash chain: {}", out.reason),
                    "keep a copy of state.db as evidence; new records still chain from the last one",
                ),
            }
        }
        Err(e) if daemon.is_some() => {
            failed(NAME, format!("the daemon did not verify the ledger: {}", e.message()), "run `lctx daemon logs`")
        }
        Err(e) => failed(
            NAME,
            format!("the fallback child did not verify the ledger: {}", backend.explain(&e)),
            "run `lctx ledger verify` to see it again",
        ),
    };
    checks.insert(0, ledger);
    checks
}

/// The daemon's open search indexes: an unavailable one fails (searches
/// scan until it is fixed); one rebuilt or rebuilding after corruption is a
/// notice, since it heals by itself. Nothing to ask without a daemon.
async fn check_indexes(opts: &ClientOptions, daemon: Option<&daemon::Daemon>) -> Vec<Check> {
    const NAME: &str = "search index";
    let Some(daemon) = daemon else { return Vec::new() };
    let request = IndexStatusRequest { ctx: Some(opts.context()) };
    let indexes = match Backend::remote(daemon).search().index_status(request).await {
        Ok(response) => response.into_inner().indexes,
        Err(e) => {
            return vec![failed(
                NAME,
                format!("the daemon did not report its indexes: {}", e.message()),
                "run `lctx daemon logs`",
            )];
        }
    };
    let mut checks: Vec<Check> = indexes
        .iter()
        .filter(|ix| !ix.note.is_empty())
        .map(|ix| match ix.phase() {
            IndexPhase::Unavailable => failed(
                NAME,
                format!("{}: {}", ix.root, ix.note),
                format!(
                    "run `lctx index` in {} to retry now (the daemon retries every 30 s); if the note names a disk \
                     error, free space or fix the permissions of the lean-ctx cache directory",
                    ix.root
                ),
            ),
            IndexPhase::Building => ok(
                NAME,
                format!("{}: building {}/{} files · {}; no action needed", ix.root, ix.done, ix.total, ix.note),
            ),
            _ => ok(NAME, format!("{}: {} · {}", ix.root, phase_name(ix.phase()), ix.note)),
        })
        .collect();
    if indexes.is_empty() {
        checks.push(ok(NAME, "none open (a project's index opens on its first search)".into()));
    } else if checks.is_empty() {
        checks.push(ok(NAME, format!("{} open, none damaged or unavailable", indexes.len())));
    }
    checks
}

/// One OK line when config, data, cache and state were private already;
/// else a line per path it made private, or failed to.
fn repair_permissions(opts: &ClientOptions) -> Vec<Check> {
    let repairs = privacy::repair_permissions(&opts.dirs);
    if repairs.is_empty() {
        return vec![ok("permissions", "config, data, cache and state private (no access for group or others)".into())];
    }
    repairs
        .into_iter()
        .map(|repair| match repair.failure() {
            None => ok("permissions", repair.to_string()),
            Some((problem, fix)) => failed("permissions", problem, fix),
        })
        .collect()
}

fn check_data_dir(opts: &ClientOptions) -> Check {
    let dir = &opts.dirs.data;
    let probe = dir.join(format!(".doctor-{}", std::process::id()));
    let result = privacy::create_private_dir_all(dir)
        .and_then(|()| privacy::private_file().write(true).create_new(true).open(&probe))
        .and_then(|mut file| file.write_all(b"ok"))
        .and_then(|()| std::fs::remove_file(&probe));
    // The directory writable is not state.db writable (a QA pass's `chmod 400 state.db` failed
    // every write while doctor said all was well): its files are opened for writing too.
    let unwritable = || {
        ["state.db", "state.db-wal", "state.db-shm"].into_iter().map(|name| dir.join(name)).find_map(|file| {
            let opened = std::fs::OpenOptions::new().write(true).open(&file);
            opened.err().filter(|e| e.kind() != std::io::ErrorKind::NotFound).map(|e| (file, e))
        })
    };
    match result {
        Ok(()) => match unwritable() {
            None => ok("data dir", format!("{} writable", dir.display())),
            Some((file, e)) => {
                // Another user's file is not this one's to chmod (a QA pass's root-owned state.db).
                // SAFETY: geteuid has no preconditions and cannot fail.
                let me = unsafe { libc::geteuid() };
                let owner = std::fs::metadata(&file).map(|m| m.uid()).ok().filter(|&uid| uid != me);
                let mend = match owner {
                    Some(uid) => {
                        format!("it belongs to uid {uid}: give it back (`sudo chown {me} {}`)", file.display())
                    }
                    None => {
                        format!("make it writable (`chmod u+w {}`; `lsattr` shows an immutable flag)", file.display())
                    }
                };
                failed(
                    "data dir",
                    format!("{} is not writable: {e}", file.display()),
                    format!("{mend}: every write to the ledger, sessions and knowledge fails until then"),
                )
            }
        },
        Err(e) => failed(
            "data dir",
            format!("{} is not writable: {e}", dir.display()),
            format!("make it writable (`chmod u+rwx {}`) or set LEAN_CTX_HOME to a writable directory", dir.display()),
        ),
    }
}

/// The guardrails' settings: whether secrets are masked, whose rule files reads deliver, and the
/// user's own deny lists — those the running daemon enforces, held to the file's. A file broken
/// since the daemon started leaves it serving its last good configuration, which the file's
/// valid settings may not be (a QA pass's deny rule, written with a typo elsewhere, was shown
/// here as in force and was not).
async fn check_guardrails(opts: &ClientOptions, daemon: Option<&daemon::Daemon>) -> Check {
    const NAME: &str = "guardrails";
    // A broken file is the config check's failure; its valid settings apply to a daemon starting.
    let file = config::load_or_salvage(&opts.dirs.config_file()).0.guardrails();
    let Some(daemon) = daemon else { return ok(NAME, file) };
    let request = tonic::Request::new(StatusRequest { ctx: Some(opts.context()) });
    let served =
        match Backend::remote(daemon).control().status(request).await {
            Ok(status) => status.into_inner().components.into_iter().filter(|c| c.name == "config").find_map(|c| {
                c.figures.into_iter().find(|figure| figure.name == "guardrails").map(|figure| figure.value)
            }),
            Err(e) => {
                let detail = format!("the daemon did not report the guardrails it enforces: {}", e.message());
                return failed(NAME, detail, "run `lctx daemon logs`");
            }
        };
    match served {
        Some(served) if served != file => failed(
            NAME,
            format!("the daemon enforces {served}; config.toml says {file}"),
            "the daemon serves its last good configuration while config.toml does not parse: fix it (the config \
             line says where), or `lctx daemon restart` to serve the file's valid settings now",
        ),
        _ => ok(NAME, file),
    }
}

fn check_config(opts: &ClientOptions) -> Check {
    let file = opts.dirs.config_file();
    match config::load(&file) {
        Ok(_) if file.exists() => ok("config", format!("{} valid", file.display())),
        Ok(_) => ok("config", format!("{} absent; defaults apply", file.display())),
        Err(e) => {
            let place = match e.line {
                Some(line) => format!("line {line} of {}", file.display()),
                None => file.display().to_string(),
            };
            let fix = format!("edit {place} as the message says, or move the file away to use the defaults");
            failed("config", e.to_string(), fix)
        }
    }
}
